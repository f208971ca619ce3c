/*
 * warpreduce as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c,
 * compiled beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same
 * inputs, the same calls in the same order and the same result check as `gpusim run warpreduce`.
 * Built by `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec --
 * bench/warpreduce/app [test|default]`. The kernel: warp shuffles (up/down/xor/idx) and votes,
 * active mask in a divergent region.
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(warpreduce, BENCH_KERNEL(warpreduce))
