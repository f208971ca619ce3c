/*
 * meshgather as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c,
 * compiled beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same
 * inputs, the same calls in the same order and the same result check as `gpusim run meshgather`.
 * Built by `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec --
 * bench/meshgather/app [test|default]`. The kernel: unstructured-mesh 6-neighbour gather, cached
 * vs random lanes mixed (memory-latency divergence).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(meshgather, BENCH_KERNEL(meshgather))
