/*
 * invmap as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run invmap`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/invmap/app
 * [test|default]`. The kernel: inverse image map (swirl + lens) with 2x2 gathers, out-of-range
 * border path (cycle divergence).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(invmap, BENCH_KERNEL(invmap))
