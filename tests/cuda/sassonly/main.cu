// sassonly -- compiled with machine code only (nvcc.flags: no PTX): the model runs PTX, so
// the launch returns cudaErrorNoKernelImageForDevice and the library says to compile with a
// PTX target. Prints what the launch returned; exits 0 when that is what happened, else 1.
#include "../check.h"

__global__ void one(int *p)
{
    p[threadIdx.x] = 1;
}

int main()
{
    int *d;
    CHECK(cudaMalloc(&d, 64));
    one<<<1, 16>>>(d);
    cudaError_t e = cudaGetLastError();
    std::printf("sassonly: launch: %s\n", cudaGetErrorName(e));
    return e == cudaErrorNoKernelImageForDevice ? 0 : 1;
}
