// unsupported -- calls the model does not support return cudaErrorNotSupported (and the
// library prints each one's name once on stderr); the error is not sticky: the program goes
// on and a kernel still runs. Prints what each call returned and "unsupported: PASSED", exit
// 0, or 1.
#include "../check.h"

__global__ void one(int *p)
{
    p[threadIdx.x] = 1;
}

int main()
{
    int *m = nullptr, *d, h[4], buf[16];
    cudaError_t managed = cudaMallocManaged(&m, 64);
    cudaError_t again = cudaMallocManaged(&m, 64);
    cudaError_t reg = cudaHostRegister(buf, sizeof buf, cudaHostRegisterDefault);
    std::printf("unsupported: cudaMallocManaged: %s (%s)\nunsupported: cudaHostRegister: %s\n",
                cudaGetErrorName(managed), cudaGetErrorString(managed), cudaGetErrorName(reg));
    if (managed != cudaErrorNotSupported || again != cudaErrorNotSupported ||
        reg != cudaErrorNotSupported || cudaGetLastError() != cudaErrorNotSupported)
        return 1;
    CHECK(cudaMalloc(&d, sizeof h));
    one<<<1, 4>>>(d);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    if (h[3] != 1)
        return 1;
    std::printf("unsupported: PASSED\n");
    return 0;
}
