/*
 * mcubes as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run mcubes`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/mcubes/app
 * [test|default]`. The kernel: marching-cubes-like: 0..5 triangles per cube by case, interpolation
 * per edge (per-thread data-dependent work).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(mcubes, BENCH_KERNEL(mcubes))
