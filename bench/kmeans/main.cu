/*
 * kmeans as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run kmeans`. Built by
 * `make cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/kmeans/app
 * [test|default]`. The kernel: k-means assignment, feature-major gathers via run/random/mixed
 * batches (memory-latency divergence).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(kmeans, BENCH_KERNEL(kmeans_assign))
