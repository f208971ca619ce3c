/*
 * nqueens as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run nqueens`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/nqueens/app
 * [test|default]`. The kernel: N-queens backtracking per prefix: data-dependent branchy search,
 * local-mem stack.
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(nqueens, BENCH_KERNEL(nqueens))
