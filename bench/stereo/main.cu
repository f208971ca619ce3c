/*
 * stereo as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run stereo`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/stereo/app
 * [test|default]`. The kernel: 3x3 SAD disparity search, per-pixel range and early accept on a
 * cost threshold (per-thread data-dependent work).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(stereo, BENCH_KERNEL(stereo))
