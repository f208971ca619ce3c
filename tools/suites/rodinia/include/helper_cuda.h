/*
 * helper_cuda.h -- the project's stand-in for the CUDA samples' helper_cuda.h, which Rodinia's
 * cfd includes: the samples' copy reads cudaDeviceProp fields CUDA 13 removed and does not
 * compile with nvcc 13. Only the two checks cfd uses, each naming the error and exiting 1.
 */
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define checkCudaErrors(x)                                                                     \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorName(e_), __FILE__,        \
                    __LINE__);                                                                 \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)
#define getLastCudaError(m)                                                                    \
    do {                                                                                       \
        cudaError_t e_ = cudaGetLastError();                                                   \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s: %s\n", (m), cudaGetErrorName(e_));                            \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)
