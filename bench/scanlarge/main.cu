/*
 * scanlarge as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c,
 * compiled beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same
 * inputs, the same calls in the same order and the same result check as `gpusim run scanlarge`.
 * Built by `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec --
 * bench/scanlarge/app [test|default]`. The kernel: Blelloch scan of 4096 ints per CTA, 16.5 KB
 * shared (Type-C: shared-memory limit binds).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(scanlarge, BENCH_KERNEL(scanlarge))
