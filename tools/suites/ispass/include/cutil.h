/*
 * cutil.h -- the project's stand-in for the CUDA SDK 2.x cutil.h that the ISPASS-2009 programs
 * include (LPS, NQU, LIB, NN, STO, BFS, RAY): the SDK is not part of the CUDA toolkit any more and
 * its library is not built here. Only what those programs call: the error checks (each names
 * the error and exits 1, where the SDK's printed and exited too: tools/suites/rodinia/include/
 * helper_cuda.h's checkCudaErrors and getLastCudaError), the wall-clock timers (in
 * milliseconds; the programs print them and the applications file ignores those lines), the
 * two command-line helpers LPS uses, cutCompareub (STO) and CUT_BANK_CHECKER (NN: the plain
 * array access of the SDK's release build). tools/suites/ispass.sh puts this directory on
 * nvcc's include path.
 */
#ifndef GPUSIM_ISPASS_CUTIL_H
#define GPUSIM_ISPASS_CUTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <cuda_runtime.h>
#include "../../rodinia/include/helper_cuda.h"

typedef enum { CUTFalse = 0, CUTTrue = 1 } CUTBoolean;

/* the checks of the CUDA samples' helper_cuda.h, whose stand-in Rodinia's cfd uses */
#define CUDA_SAFE_CALL_NO_SYNC(call) checkCudaErrors(call)
#define CUDA_SAFE_CALL(call) checkCudaErrors(call)
#define CUT_SAFE_CALL(call) (call)
#define CUT_CHECK_ERROR(msg) getLastCudaError(msg)
#define CUT_EXIT(argc, argv) exit(0)
#define CUT_DEVICE_INIT(argc, argv) cudaSetDevice(0)
#define CUT_BANK_CHECKER(array, index) array[index]

/* Timers: a handle indexes a small table of start times and accumulated milliseconds. */
#define GPUSIM_CUT_TIMERS 64
static double gpusim_cut_start[GPUSIM_CUT_TIMERS], gpusim_cut_total[GPUSIM_CUT_TIMERS];
static unsigned gpusim_cut_count;

static inline double gpusim_cut_ms(void)
{
    struct timeval tv;
    gettimeofday(&tv, 0);
    return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}
static inline CUTBoolean cutCreateTimer(unsigned *t)
{
    *t = gpusim_cut_count++ % GPUSIM_CUT_TIMERS;
    gpusim_cut_total[*t] = 0;
    return CUTTrue;
}
static inline CUTBoolean cutDeleteTimer(unsigned t) { (void)t; return CUTTrue; }
static inline CUTBoolean cutStartTimer(unsigned t)
{
    gpusim_cut_start[t] = gpusim_cut_ms();
    return CUTTrue;
}
static inline CUTBoolean cutStopTimer(unsigned t)
{
    gpusim_cut_total[t] += gpusim_cut_ms() - gpusim_cut_start[t];
    return CUTTrue;
}
static inline CUTBoolean cutResetTimer(unsigned t)
{
    gpusim_cut_total[t] = 0;
    return CUTTrue;
}
static inline float cutGetTimerValue(unsigned t) { return (float)gpusim_cut_total[t]; }
static inline float cutGetAverageTimerValue(unsigned t) { return (float)gpusim_cut_total[t]; }

/* "-name" or "--name" among the arguments; "-name=V" gives V. */
static inline const char *gpusim_cut_arg(int argc, const char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        while (*a == '-')
            a++;
        if (!strncmp(a, name, n) && (a[n] == 0 || a[n] == '='))
            return a + n;
    }
    return 0;
}
static inline CUTBoolean cutCheckCmdLineFlag(int argc, const char **argv, const char *name)
{
    const char *v = gpusim_cut_arg(argc, argv, name);
    return v && !*v ? CUTTrue : CUTFalse;
}
static inline CUTBoolean cutGetCmdLineArgumenti(int argc, const char **argv, const char *name,
                                                int *val)
{
    const char *v = gpusim_cut_arg(argc, argv, name);
    if (!v || *v != '=')
        return CUTFalse;
    *val = atoi(v + 1);
    return CUTTrue;
}
static inline CUTBoolean cutCompareub(const unsigned char *ref, const unsigned char *data,
                                      unsigned len)
{
    return memcmp(ref, data, len) ? CUTFalse : CUTTrue;
}
#endif
