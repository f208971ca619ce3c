/*
 * bstsearch as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c,
 * compiled beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same
 * inputs, the same calls in the same order and the same result check as `gpusim run bstsearch`.
 * Built by `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec --
 * bench/bstsearch/app [test|default]`. The kernel: key look-ups in an unbalanced array-stored BST
 * (instruction + cycle divergence).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(bstsearch, BENCH_KERNEL(bst_search))
