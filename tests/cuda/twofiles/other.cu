// other.cu -- the second file of twofiles (main.cu): its own kernel and its own base.
#include <cuda_runtime.h>

static __device__ int base = 1;

__global__ void scale(int *p, int k)
{
    p[threadIdx.x] = p[threadIdx.x] * k + base;
}

cudaError_t run_other(int *d, int n)
{
    scale<<<1, n>>>(d, 2);
    return cudaGetLastError();
}
