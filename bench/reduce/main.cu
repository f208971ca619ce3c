/*
 * reduce as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run reduce`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/reduce/app
 * [test|default]`. The kernel: shared-memory tree sum per CTA: bar.sync per level, warp 0 diverges
 * below 32.
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(reduce, BENCH_KERNEL(reduce))
