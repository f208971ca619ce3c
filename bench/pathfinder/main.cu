/*
 * pathfinder as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c,
 * compiled beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same
 * inputs, the same calls in the same order and the same result check as `gpusim run pathfinder`.
 * Built by `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec --
 * bench/pathfinder/app [test|default]`. The kernel: row-by-row min-of-3 DP in shared memory,
 * shrinking pyramid and edge paths (Type-S: CTA-count limit binds).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(pathfinder, BENCH_KERNEL(pathfinder))
