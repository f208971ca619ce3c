/*
 * histogram as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c,
 * compiled beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same
 * inputs, the same calls in the same order and the same result check as `gpusim run histogram`.
 * Built by `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec --
 * bench/histogram/app [test|default]`. The kernel: 256-bin histogram of skewed bytes: contended
 * shared and global atomicAdd.
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(histogram, BENCH_KERNEL(histogram))
