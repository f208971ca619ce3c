/*
 * launch.c -- kernel launches: the <<<grid, block, shared, stream>>> path nvcc generates
 * (__cudaPushCallConfiguration in the caller, then in the kernel's stub
 * __cudaPopCallConfiguration, __cudaGetKernel, __cudaLaunchKernel), cudaLaunchKernel with an
 * argument array, and the older cudaConfigureCall / cudaSetupArgument / cudaLaunch.
 *
 * A launch runs to completion on the model before the call returns (launches run in issue
 * order, whatever their stream: concurrent kernels are not modelled). args[i] points to the
 * kernel's i-th argument, whose size is the PTX parameter's. A kernel fault prints the model's
 * message (kernel, PC, CTA, thread) once and is sticky, as in CUDA: every later call that
 * needs the GPU returns it until cudaDeviceReset. So is a kernel VTW cannot transform (vtw !=
 * off: the message names the kernel and the reason): the run stops there. A launch the model
 * refuses otherwise returns the matching error (error.c) and prints the model's reason once
 * per kernel and error.
 */
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "rt.h"

#define RT_MAX_CONFIGS 16             /* pushed and not yet popped configurations */
#define RT_LEGACY_ARGS 64             /* cudaSetupArgument's arguments of one launch */

struct config { dim3 grid, block; size_t shmem; cudaStream_t stream; };

static struct {
    struct config stack[RT_MAX_CONFIGS];
    unsigned n;
    unsigned char legacy[4096];       /* cudaSetupArgument's argument bytes */
    size_t loff[RT_LEGACY_ARGS];
    unsigned nlegacy;
} cfg;

static struct gs_dim3 to_gs(dim3 d)
{
    return (struct gs_dim3){ d.x, d.y, d.z };
}

/* The arguments as the model takes them (freed by the caller). */
static cudaError_t make_args(const struct rt_kernel *k, void **args, struct gs_arg **out)
{
    *out = NULL;
    if (k->nparams == 0)
        return cudaSuccess;
    if (!args) {
        rt_once(NULL, "launch %s: no argument array for its %d parameters", k->name, k->nparams);
        return cudaErrorInvalidValue;
    }
    if (!(*out = calloc((size_t)k->nparams, sizeof **out)))
        return cudaErrorMemoryAllocation;
    for (int i = 0; i < k->nparams; i++)
        (*out)[i] = (struct gs_arg){ args[i], k->psize[i] };
    return cudaSuccess;
}

/* The model's result of a launch as the call's: a fault becomes sticky; messages once. */
static cudaError_t launch_result(struct gs_gpu *g, const struct rt_kernel *k, int rc)
{
    const char *msg = gs_last_error(g);
    cudaError_t e = rt_error_of(rc, msg);
    char key[300];
    if (rc == GS_ERR_KERNEL || (rc == GS_ERR_PTX && gs_config(g)->vtw != VTW_OFF)) {
        rt_once(NULL, "%s (%s)", msg, rt_error_name(e));
        rt_set_sticky(e);              /* a fault, or VTW cannot run the kernel: the run stops */
    } else if (rc != GS_OK) {
        snprintf(key, sizeof key, "launch %d %.200s", (int)e, k->name);
        rt_once(key, "%s (%s)", msg, rt_error_name(e));
    }
    return e;
}

cudaError_t rt_launch(const void *host_fun, dim3 grid, dim3 block, void **args, size_t shmem,
                      cudaStream_t stream)
{
    struct rt_kernel *k = rt_kernel_of(host_fun);
    struct gs_module *mod;
    struct gs_arg *a;
    struct gs_stats s;
    struct gs_gpu *g;
    cudaError_t e;
    int rc;
    (void)stream;
    if (!k) {
        rt_once(NULL, "launch: no kernel registered at host address %p", host_fun);
        return cudaErrorInvalidDeviceFunction;
    }
    if (!(g = rt_gpu(&e)) || (e = rt_kernel_module(k, &mod)) != cudaSuccess ||
        (e = make_args(k, args, &a)) != cudaSuccess)
        return e;
    if (shmem > UINT32_MAX) {
        free(a);
        return cudaErrorInvalidValue;
    }
    rc = gs_launch(g, mod, k->name, to_gs(grid), to_gs(block), (uint32_t)shmem, a, k->nparams);
    free(a);
    e = launch_result(g, k, rc);
    if (rc == GS_OK || rc == GS_ERR_KERNEL) {   /* the model ran it: its statistics */
        gs_kernel_stats(g, &s);
        rt_add_cycles(s.cycles);
        rt_stats_launch(g, k, grid, block, shmem, e);
    }
    return e;
}

/* ---- the <<<>>> path */

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream)
{
    unsigned rc = 1;
    rt_lock();
    if (cfg.n < RT_MAX_CONFIGS) {
        cfg.stack[cfg.n++] = (struct config){ grid, block, shmem, stream };
        rc = 0;
    } else {
        rt_once("push", "more than %d launch configurations pushed and not popped",
                RT_MAX_CONFIGS);
    }
    rt_unlock();
    return rc;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream)
{
    struct config c;
    rt_lock();
    if (!cfg.n)
        return rt_done(cudaErrorMissingConfiguration);
    c = cfg.stack[--cfg.n];
    if (grid)
        *grid = c.grid;
    if (block)
        *block = c.block;
    if (shmem)
        *shmem = c.shmem;
    if (stream)
        *(cudaStream_t *)stream = c.stream;
    return rt_done(cudaSuccess);
}

/* A kernel's handle is its host stub's address. */
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun)
{
    if (!kernel)
        return cudaErrorInvalidValue;
    *kernel = (cudaKernel_t)host_fun;
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                               size_t shmem, cudaStream_t stream)
{
    RT_CALL(rt_launch((const void *)kernel, grid, block, args, shmem, stream));
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                    size_t shmem, cudaStream_t stream)
{
    RT_CALL(rt_launch((const void *)kernel, grid, block, args, shmem, stream));
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t shmem, cudaStream_t stream)
{
    RT_CALL(rt_launch(func, grid, block, args, shmem, stream));
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                  size_t shmem, cudaStream_t stream)
{
    RT_CALL(rt_launch(func, grid, block, args, shmem, stream));
}

/* ---- the older path: configure, set up each argument at its offset, launch */

cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream)
{
    cudaError_t e;
    rt_lock();
    cfg.nlegacy = 0;
    e = __cudaPushCallConfiguration(grid, block, shmem, stream) ? cudaErrorInvalidConfiguration
                                                                : cudaSuccess;
    return rt_done(e);
}

static cudaError_t do_setup_argument(const void *arg, size_t size, size_t offset)
{
    if (!arg || offset > sizeof cfg.legacy || size > sizeof cfg.legacy - offset ||
        cfg.nlegacy == RT_LEGACY_ARGS)
        return cudaErrorInvalidValue;
    memcpy(cfg.legacy + offset, arg, size);
    cfg.loff[cfg.nlegacy++] = offset;
    return cudaSuccess;
}

cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset)
{
    RT_CALL(do_setup_argument(arg, size, offset));
}

static cudaError_t do_legacy_launch(const void *func)
{
    void *args[RT_LEGACY_ARGS] = { 0 };
    struct config c;
    if (!cfg.n)
        return cudaErrorMissingConfiguration;
    c = cfg.stack[--cfg.n];
    for (unsigned i = 0; i < cfg.nlegacy; i++)
        args[i] = cfg.legacy + cfg.loff[i];
    cfg.nlegacy = 0;
    return rt_launch(func, c.grid, c.block, args, c.shmem, c.stream);
}

cudaError_t cudaLaunch(const void *func)
{
    RT_CALL(do_legacy_launch(func));
}
