/*
 * cuda_host.cuh -- the host API subset the bench host parts use (gs_malloc, gs_free,
 * gs_memcpy_htod, gs_memcpy_dtoh, gs_memset, gs_load_ptx, gs_launch and their error texts),
 * implemented over the CUDA runtime, and main(): what makes bench/NAME/main.cu an ordinary
 * CUDA program (docs/cuda.md "The bench kernels as CUDA programs").
 *
 * Each bench/NAME/main.cu includes its kernel.cu, names its kernels with BENCH_KERNEL and
 * ends with BENCH_PROGRAM; bench/NAME/host.c, bench/bench.c and model/base/strfmt.c are
 * compiled beside it, unchanged, as C (make cuda-apps). The host part then runs as under
 * `gpusim run NAME` -- same inputs, same calls in the same order, same result check -- but
 * every device interaction goes through the CUDA runtime: gs_malloc is cudaMalloc,
 * gs_memcpy_* cudaMemcpy, gs_memset cudaMemset, gs_free cudaFree and gs_launch
 * cudaLaunchKernel with the kernel's host stub (then cudaDeviceSynchronize: a gs_launch
 * returns when the kernel has finished). gs_load_ptx loads nothing: the kernels are in the
 * program's own fatbinary, registered before main. Nothing here calls the model.
 *
 * Usage: app [test|default] (the size, as gpusim run --size; default: default). Prints what
 * gpusim run prints first ("kernel NAME (test size): CORRECT") and exits as it does: 0
 * correct, 1 a wrong result, 2 an API error or bad usage.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "bench.h"
}

/* One kernel of the program: its name in the PTX (what host.c passes to gs_launch) and its
   host stub (what cudaLaunchKernel takes). */
struct bench_kernel { const char *name; const void *stub; };
#define BENCH_KERNEL(k) { #k, (const void *)k }

/* The opaque handles host.c passes around: one GPU (the current device) and one module (the
   program's). */
struct gs_gpu { int unused; };
struct gs_module { int unused; };
static struct gs_gpu bench_cuda_gpu;
static struct gs_module bench_cuda_module;

static const struct bench_kernel *bench_cuda_kernels;
static unsigned bench_cuda_nkernels;
static const struct bench *bench_cuda_bench;
static char bench_cuda_err[512];          /* gs_last_error: the last failed call's message */

/* A CUDA error as a host API status, its message kept for gs_last_error. */
static int bench_cuda_status(cudaError_t e, const char *call)
{
    if (e == cudaSuccess)
        return GS_OK;
    snprintf(bench_cuda_err, sizeof bench_cuda_err, "%s: %s: %s", call, cudaGetErrorName(e),
             cudaGetErrorString(e));
    switch (e) {
    case cudaErrorInvalidValue: case cudaErrorInvalidDevicePointer:
        return GS_ERR_INVALID_VALUE;
    case cudaErrorMemoryAllocation:
        return GS_ERR_OUT_OF_MEMORY;
    case cudaErrorInvalidPtx: case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidKernelImage:
        return GS_ERR_PTX;
    case cudaErrorInvalidDeviceFunction:
        return GS_ERR_NOT_FOUND;
    case cudaErrorInvalidConfiguration: case cudaErrorLaunchOutOfResources:
        return GS_ERR_LAUNCH;
    case cudaErrorInitializationError:
        return GS_ERR_CONFIG;
    default:
        return GS_ERR_KERNEL;
    }
}

static void *bench_cuda_ptr(uint64_t d)
{
    return (void *)(uintptr_t)d;
}

extern "C" {

const char *gs_last_error(const struct gs_gpu *)
{
    return bench_cuda_err;
}

const char *gs_status_name(int status)
{
    static const char *const names[GS_ERR_COUNT] = {
        "ok", "invalid value", "out of memory", "configuration error", "PTX error",
        "not found", "launch error", "kernel fault"
    };
    return status >= 0 && status < GS_ERR_COUNT ? names[status] : "unknown status";
}

int gs_malloc(struct gs_gpu *, uint64_t *dptr, uint64_t bytes)
{
    void *p = NULL;
    int rc = bench_cuda_status(cudaMalloc(&p, bytes), "cudaMalloc");
    *dptr = (uint64_t)(uintptr_t)p;
    return rc;
}

int gs_free(struct gs_gpu *, uint64_t dptr)
{
    return bench_cuda_status(cudaFree(bench_cuda_ptr(dptr)), "cudaFree");
}

int gs_memcpy_htod(struct gs_gpu *, uint64_t dst, const void *src, uint64_t bytes)
{
    return bench_cuda_status(cudaMemcpy(bench_cuda_ptr(dst), src, bytes,
                                        cudaMemcpyHostToDevice), "cudaMemcpy (to the device)");
}

int gs_memcpy_dtoh(struct gs_gpu *, void *dst, uint64_t src, uint64_t bytes)
{
    return bench_cuda_status(cudaMemcpy(dst, bench_cuda_ptr(src), bytes,
                                        cudaMemcpyDeviceToHost), "cudaMemcpy (to the host)");
}

int gs_memset(struct gs_gpu *, uint64_t dst, int value, uint64_t bytes)
{
    return bench_cuda_status(cudaMemset(bench_cuda_ptr(dst), value, bytes), "cudaMemset");
}

/* The kernels were registered from the program's fatbinary before main; the runtime loads
   them when it makes its GPU (at the first call that needs one). */
int gs_load_ptx(struct gs_gpu *, const char *, struct gs_module **mod)
{
    *mod = &bench_cuda_module;
    return GS_OK;
}

int gs_launch(struct gs_gpu *, struct gs_module *, const char *kernel, struct gs_dim3 grid,
              struct gs_dim3 block, uint32_t dyn_smem, const struct gs_arg *args, int nargs)
{
    void *argv[64];
    unsigned i;
    int rc;
    for (i = 0; i < bench_cuda_nkernels && strcmp(bench_cuda_kernels[i].name, kernel); i++)
        ;
    if (i == bench_cuda_nkernels) {
        snprintf(bench_cuda_err, sizeof bench_cuda_err, "no kernel '%s' in the program", kernel);
        return GS_ERR_NOT_FOUND;
    }
    if (nargs < 0 || nargs > 64) {
        snprintf(bench_cuda_err, sizeof bench_cuda_err, "%s: %d arguments", kernel, nargs);
        return GS_ERR_LAUNCH;
    }
    for (int a = 0; a < nargs; a++)
        argv[a] = (void *)args[a].ptr;
    rc = bench_cuda_status(cudaLaunchKernel(bench_cuda_kernels[i].stub,
                                            dim3(grid.x, grid.y, grid.z),
                                            dim3(block.x, block.y, block.z), argv, dyn_smem, 0),
                           "cudaLaunchKernel");
    return rc ? rc : bench_cuda_status(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

/* bench_note_inputs (bench.c) reads it; this program never collects inputs (ctx.inputs is
   NULL), so there are no statistics to give. */
void gs_total_stats(const struct gs_gpu *, struct gs_stats *s)
{
    memset(s, 0, sizeof *s);
}

/* bench_find (bench.c) looks in these: the program's one kernel. */
const struct bench *const *bench_all(unsigned *count)
{
    static const struct bench *list[2];
    list[0] = bench_cuda_bench;
    *count = 1;
    return list;
}

const struct bench *const *bench_extra(unsigned *count)
{
    static const struct bench *const none[1] = { NULL };
    *count = 0;
    return none;
}

}

/* main: run the host part at the size given, report as gpusim run does. */
static int bench_cuda_main(const struct bench *b, const struct bench_kernel *k, unsigned nk,
                           int argc, char **argv)
{
    struct bench_ctx ctx;
    int rc;
    bench_cuda_bench = b;
    bench_cuda_kernels = k;
    bench_cuda_nkernels = nk;
    memset(&ctx, 0, sizeof ctx);
    ctx.gpu = &bench_cuda_gpu;
    ctx.size = BENCH_DEFAULT;
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "test") && strcmp(argv[1], "default"))) {
        fprintf(stderr, "usage: %s [test|default]   (the size of %s's inputs)\n", argv[0],
                b->name);
        return 2;
    }
    if (argc == 2 && !strcmp(argv[1], "test"))
        ctx.size = BENCH_TEST;
    rc = b->run(&ctx);
    printf("kernel %s (%s size): %s\n", b->name, ctx.size == BENCH_TEST ? "test" : "default",
           rc == 0 ? "CORRECT" : rc > 0 ? "WRONG RESULT" : "ERROR");
    if (rc)
        fprintf(stderr, "%s: %s\n", b->name, ctx.msg ? ctx.msg : "failed without a message");
    free(ctx.msg);
    return rc == 0 ? 0 : rc > 0 ? 1 : 2;
}

/* The program's bench (bench_NAME of host.c) and its kernels. */
#define BENCH_PROGRAM(NAME, ...)                                                           \
    extern "C" const struct bench bench_##NAME;                                            \
    static const struct bench_kernel bench_cuda_list[] = { __VA_ARGS__ };                 \
    int main(int argc, char **argv)                                                        \
    {                                                                                      \
        return bench_cuda_main(&bench_##NAME, bench_cuda_list,                             \
                               sizeof bench_cuda_list / sizeof bench_cuda_list[0], argc,   \
                               argv);                                                      \
    }
