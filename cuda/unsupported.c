/*
 * unsupported.c -- the CUDA runtime calls a program may use that the model does not support:
 * each returns cudaErrorNotSupported and, the first time, prints its name on stderr
 * ("gpusim: cudaXxx is not supported by the model; ..."). Never an abort: the program sees
 * an error code, as from any failing call. docs/cuda.md lists them; a call moves out of this
 * file when it is supported.
 *
 * The list is cuda/unsupported_list.h (UNSUPPORTED(name) lines, included twice: the stubs,
 * then the table rt_unsupported_calls). The stubs take no parameters: every one returns cudaError_t, and in the x86-64 calling
 * convention a callee that ignores its arguments may be called with any.
 */
#include "rt.h"

static cudaError_t unsupported(const char *name)
{
    rt_lock();
    rt_once(name, "%s is not supported by the model; it returns cudaErrorNotSupported "
            "(docs/cuda.md lists what is supported)", name);
    return rt_done(cudaErrorNotSupported);
}

#define UNSUPPORTED(name) cudaError_t name(void); cudaError_t name(void) { return unsupported(#name); }
#include "unsupported_list.h"
#undef UNSUPPORTED

/* The list as a table, for the test that calls every one (tests/test_cudart.c). */
#define UNSUPPORTED(name) { #name, name },
const struct rt_unsupported rt_unsupported_calls[] = {
#include "unsupported_list.h"
};
#undef UNSUPPORTED
const unsigned rt_unsupported_n = sizeof rt_unsupported_calls / sizeof *rt_unsupported_calls;

