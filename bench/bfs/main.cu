/*
 * bfs as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run bfs`. Built by `make
 * cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/bfs/app
 * [test|default]`. The kernel: level-synchronous BFS step over a skewed-degree CSR graph
 * (instruction + cycle divergence).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(bfs, BENCH_KERNEL(bfs_step))
