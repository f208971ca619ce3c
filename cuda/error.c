/*
 * error.c -- error codes: their names and texts (error_list.h), the model's statuses as CUDA
 * errors, and the calls that report errors (cudaGetLastError, cudaPeekAtLastError,
 * cudaGetErrorName, cudaGetErrorString).
 *
 * A kernel fault's kind comes from the model's message (model/func/exec.c words it):
 * "out-of-bounds" is cudaErrorIllegalAddress, "misaligned" cudaErrorMisalignedAddress, a
 * watchdog cudaErrorLaunchTimeout, anything else cudaErrorLaunchFailure. A launch the model
 * refuses: registers, local memory or a .maxntid/.reqntid directive
 * cudaErrorLaunchOutOfResources, shared memory or the arguments cudaErrorInvalidValue, the
 * grid or block shape cudaErrorInvalidConfiguration.
 */
#include <string.h>
#include "rt.h"

struct err_desc { int num; const char *name, *text; };

#define CU_DESC(n, v, t) { v, #n, t },
static const struct err_desc errs[] = { CU_ERROR_LIST(CU_DESC) };
#undef CU_DESC

static const struct err_desc *desc_of(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].num == (int)e)
            return &errs[i];
    return NULL;
}

const char *rt_error_name(cudaError_t e)
{
    const struct err_desc *d = desc_of(e);
    return d ? d->name : "cudaErrorUnknown";
}

static cudaError_t fault_kind(const char *msg)
{
    if (strstr(msg, "out-of-bounds"))
        return cudaErrorIllegalAddress;
    if (strstr(msg, "misaligned"))
        return cudaErrorMisalignedAddress;
    if (strstr(msg, "watchdog"))
        return cudaErrorLaunchTimeout;
    return cudaErrorLaunchFailure;
}

static cudaError_t refusal_kind(const char *msg)
{
    if (strstr(msg, "register") || strstr(msg, "local memory") || strstr(msg, ".maxntid") ||
        strstr(msg, ".reqntid"))
        return cudaErrorLaunchOutOfResources;
    if (strstr(msg, "shared memory") || strstr(msg, "argument"))
        return cudaErrorInvalidValue;
    return cudaErrorInvalidConfiguration;
}

/* The message past "kernel NAME: " or "launch NAME: " (a kernel's name says nothing). */
static const char *past_name(const char *msg)
{
    const char *p;
    if ((!strncmp(msg, "kernel ", 7) || !strncmp(msg, "launch ", 7)) &&
        (p = strstr(msg + 7, ": ")) != NULL)
        return p + 2;
    return msg;
}

cudaError_t rt_error_of(int st, const char *msg)
{
    msg = past_name(msg ? msg : "");
    switch (st) {
    case GS_OK:                return cudaSuccess;
    case GS_ERR_INVALID_VALUE: return cudaErrorInvalidValue;
    case GS_ERR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case GS_ERR_CONFIG:        return cudaErrorInitializationError;
    case GS_ERR_PTX:           return cudaErrorInvalidPtx;
    case GS_ERR_NOT_FOUND:     return cudaErrorInvalidDeviceFunction;
    case GS_ERR_LAUNCH:        return refusal_kind(msg);
    case GS_ERR_KERNEL:        return fault_kind(msg);
    default:                   return cudaErrorUnknown;
    }
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e;
    rt_lock();
    e = rt_last_error(1);
    rt_unlock();
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t e;
    rt_lock();
    e = rt_last_error(0);
    rt_unlock();
    return e;
}

const char *cudaGetErrorName(cudaError_t e)
{
    const struct err_desc *d = desc_of(e);
    return d ? d->name : "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e)
{
    const struct err_desc *d = desc_of(e);
    return d ? d->text : "unrecognized error code";
}
