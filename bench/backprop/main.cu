/*
 * backprop as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run backprop`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/backprop/app
 * [test|default]`. The kernel: 16x16 tile dot products + barrier tree reduction (Type-S: thread
 * limit binds).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(backprop, BENCH_KERNEL(backprop))
