// oob -- a kernel that stores past the end of its allocation: the launch or the next
// synchronisation returns cudaErrorIllegalAddress, and so does every later call (a sticky
// error, as on a GPU). Prints what each call returned; exits 0 when that is what happened,
// else 1.
#include "../check.h"

__global__ void oob(int *p, int n)
{
    p[threadIdx.x + n] = threadIdx.x;          // n = 16: every store past the 16 ints
}

int main()
{
    int *d, *d2;
    CHECK(cudaMalloc(&d, 16 * sizeof(int)));
    oob<<<1, 32>>>(d, 16);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    cudaError_t later = cudaMalloc(&d2, 4);
    std::printf("oob: launch: %s\noob: synchronize: %s\noob: later call: %s (%s)\n",
                cudaGetErrorName(launch), cudaGetErrorName(sync), cudaGetErrorName(later),
                cudaGetErrorString(later));
    return sync == cudaErrorIllegalAddress && later == cudaErrorIllegalAddress ? 0 : 1;
}
