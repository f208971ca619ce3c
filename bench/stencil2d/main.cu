/*
 * stencil2d as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c,
 * compiled beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same
 * inputs, the same calls in the same order and the same result check as `gpusim run stencil2d`.
 * Built by `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec --
 * bench/stencil2d/app [test|default]`. The kernel: 9-point stencil, 16x8 shared tiles,
 * reflect/Dirichlet/corner borders (instruction divergence, barrier).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(stencil2d, BENCH_KERNEL(stencil2d))
