/*
 * nw as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run nw`. Built by `make
 * cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/nw/app
 * [test|default]`. The kernel: Needleman-Wunsch 32x32 tiles swept by anti-diagonals with barriers
 * (intra-warp divergence + barriers).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(nw, BENCH_KERNEL(nw_tile))
