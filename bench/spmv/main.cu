/*
 * spmv as an ordinary CUDA program: its kernel (kernel.cu) and its host part (host.c, compiled
 * beside this file as C, unchanged) over the CUDA runtime (bench/cuda_host.cuh): the same inputs,
 * the same calls in the same order and the same result check as `gpusim run spmv`. Built by `make
 * cuda-apps` (nvcc -cudart shared) into app; run it with `gpusim exec -- bench/spmv/app
 * [test|default]`. The kernel: CSR SpMV, one thread per row, skewed rows, banded/random gathers
 * (memory-latency + cycle divergence).
 */
#include "kernel.cu"
#include "cuda_host.cuh"

BENCH_PROGRAM(spmv, BENCH_KERNEL(spmv_csr))
