/*
 * conv2d as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run conv2d`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/conv2d/app
 * [test|default]`. The kernel: 5x5 convolution, border taps skipped (Type-S: CTA-count limit
 * binds).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(conv2d, BENCH_KERNEL(conv2d))
