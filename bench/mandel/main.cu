/*
 * mandel as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run mandel`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/mandel/app
 * [test|default]`. The kernel: Mandelbrot escape-time counts, per-pixel loop trip counts 1..256
 * (instruction + cycle divergence).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(mandel, BENCH_KERNEL(mandel))
