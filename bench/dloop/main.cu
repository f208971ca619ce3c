/*
 * dloop as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run dloop`. Built by `make
 * cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/dloop/app
 * [test|default]`. The kernel: double loop, per-lane bounds (Table I of seed 003): divergent inner
 * and outer exits.
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(dloop, BENCH_KERNEL(dloop))
