/*
 * smithwat as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run smithwat`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/smithwat/app
 * [test|default]`. The kernel: Smith-Waterman score per (query, target) pair, lengths differ per
 * thread, DP column in local memory (per-thread data-dependent work).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(smithwat, BENCH_KERNEL(smithwat))
