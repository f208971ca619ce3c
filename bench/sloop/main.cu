/*
 * sloop as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run sloop`. Built by `make
 * cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/sloop/app
 * [test|default]`. The kernel: single loop, per-lane bounds (Table I of seed 003): M divergent
 * loop exits per warp.
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(sloop, BENCH_KERNEL(sloop))
