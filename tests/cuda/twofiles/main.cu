// twofiles -- a program of two .cu files (two fatbinaries, two modules): each has a kernel and
// a static __device__ variable named base, its own (main.cu's 100, other.cu's 1). p[i] = i;
// other.cu's scale: p[i] = 2 p[i] + 1; main.cu's add_base: p[i] += 100. Prints
// "twofiles: PASSED" and exits 0, or 1.
#include "../check.h"

static __device__ int base = 100;

__global__ void add_base(int *p)
{
    p[threadIdx.x] += base;
}

cudaError_t run_other(int *d, int n);     // other.cu

int main()
{
    int h[32], *d;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(run_other(d, 32));
    add_base<<<1, 32>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        if (h[i] != 2 * i + 1 + 100) {
            std::printf("twofiles: WRONG p[%d] = %d, expected %d\n", i, h[i], 2 * i + 101);
            return 1;
        }
    std::printf("twofiles: PASSED\n");
    return 0;
}
