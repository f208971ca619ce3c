// launch -- the ways a kernel is launched and named: template kernels (float and int), a
// kernel in a namespace on a 3-D grid of 3-D blocks, a struct passed by value, dynamic shared
// memory through cudaLaunchKernel with an argument array, and too much dynamic shared memory
// (cudaErrorInvalidValue). Prints "launch: PASSED" and exits 0, or 1.
#include "../check.h"

template <typename T>
__global__ void fill(T *p, T v)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = v + (T)threadIdx.x;
}

namespace geo {
__global__ void coords(int *p)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
    p[(z * h + y) * w + x] = x + 100 * y + 10000 * z;
}
}

struct Pair { int a; double b; char c; };

__global__ void with_struct(Pair s, double *out)
{
    out[0] = s.a + s.b + s.c;
}

extern __shared__ int dyn[];

__global__ void reverse(int *p, int n)
{
    int t = threadIdx.x;
    dyn[t] = p[t];
    __syncthreads();
    p[t] = dyn[n - 1 - t];
}

static int wrong(const char *what, double got, double want)
{
    std::printf("launch: WRONG %s = %g, expected %g\n", what, got, want);
    return 1;
}

int main()
{
    float hf[128], *df;
    int hi[128], *di, *dp, hp[8 * 6 * 4];
    double hd, *dd;
    CHECK(cudaMalloc(&df, sizeof hf));
    CHECK(cudaMalloc(&di, sizeof hi));
    fill<float><<<2, 64>>>(df, 1.5f);
    fill<int><<<2, 64>>>(di, 7);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++)
        if (hf[i] != 1.5f + i % 64 || hi[i] != 7 + i % 64)
            return wrong("fill", hf[i], 1.5 + i % 64);
    CHECK(cudaMalloc(&dp, sizeof hp));
    geo::coords<<<dim3(2, 3, 2), dim3(4, 2, 2)>>>(dp);      // 8 x 6 x 4 threads
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hp, dp, sizeof hp, cudaMemcpyDeviceToHost));
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 6; y++)
            for (int x = 0; x < 8; x++)
                if (hp[(z * 6 + y) * 8 + x] != x + 100 * y + 10000 * z)
                    return wrong("coords", hp[(z * 6 + y) * 8 + x], x + 100 * y + 10000 * z);
    CHECK(cudaMalloc(&dd, sizeof hd));
    with_struct<<<1, 1>>>(Pair{ 3, 0.25, 2 }, dd);
    CHECK(cudaMemcpy(&hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    if (hd != 5.25)
        return wrong("with_struct", hd, 5.25);
    int n = 96;
    for (int i = 0; i < n; i++)
        hi[i] = i * i;
    CHECK(cudaMemcpy(di, hi, n * sizeof(int), cudaMemcpyHostToDevice));
    void *args[] = { &di, &n };
    CHECK(cudaLaunchKernel((const void *)reverse, dim3(1), dim3(n), args, n * sizeof(int), 0));
    CHECK(cudaMemcpy(hi, di, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (hi[i] != (n - 1 - i) * (n - 1 - i))
            return wrong("reverse", hi[i], (n - 1 - i) * (n - 1 - i));
    reverse<<<1, 32, 1 << 20>>>(di, 32);                     // 1 MB of shared memory
    EXPECT(cudaGetLastError(), cudaErrorInvalidValue);
    std::printf("launch: PASSED\n");
    return 0;
}
