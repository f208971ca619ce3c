/*
 * dct8x8 as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run dct8x8`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/dct8x8/app
 * [test|default]`. The kernel: fixed-point 8x8 DCT + quantisation, sign branches (Type-S:
 * CTA-count limit binds).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(dct8x8, BENCH_KERNEL(dct8x8))
