/*
 * soundloc as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run soundloc`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/soundloc/app
 * [test|default]`. The kernel: delay-and-sum direction search, per-frame candidate counts and
 * early exit on detection (per-thread data-dependent work).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(soundloc, BENCH_KERNEL(soundloc))
