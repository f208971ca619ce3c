// printf -- device-side printf: one thread printing every format CUDA's printf has, then
// two CTAs of 40 threads (a full warp and a partial one) each printing a line, some a second
// one, with the host's own lines between the launches. The model writes a launch's output
// when it ends, ordered by CTA, warp, the thread's call and lane (docs/cuda.md "Device
// printf"); expected.txt is the whole stdout. Checks printf's return value (the arguments
// it consumed); prints "printf: PASSED" and exits 0, or 1.
#include "../check.h"

__global__ void formats(int n, float f, double d, const char *s, long long big)
{
    if (threadIdx.x != 0)
        return;
    printf("ints: %d %i %u %x %X %o %c|%5d|%-5d|%05d|%+d\n", -n, n, 4000000000u, 255, 255, 8,
           'A', n, n, n, n);
    printf("floats: %f %.2f %e %g %10.3f %G\n", f, d, d, 1e-5, f, 1e20);
    printf("longs: %ld %lld %lu %llx\n", (long)-big, big, (unsigned long)big, big);
    printf("strings: [%s] [%10s] [%-6s] [%.3s] 100%%\n", s, "right", "left", "truncate");
    printf("pointer: %p, no arguments next\n", (void *)0x1234);
    printf("no arguments\n");
}

__global__ void who(int *ret)
{
    int t = threadIdx.x;
    ret[blockIdx.x * blockDim.x + t] =
        printf("cta %d warp %d lane %2d\n", (int)blockIdx.x, t / 32, t % 32);
    if (t % 16 == 3)
        printf("cta %d thread %d again\n", (int)blockIdx.x, t);
}

int main()
{
    const int threads = 40, ctas = 2;
    char *s;
    int *dret, ret[threads * ctas];
    CHECK(cudaMalloc(&s, 6));
    CHECK(cudaMemcpy(s, "model", 6, cudaMemcpyHostToDevice));
    formats<<<1, 32>>>(42, 1.5f, 3.14159, s, 5000000000ll);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("host: between the launches\n");
    CHECK(cudaMalloc(&dret, sizeof ret));
    who<<<ctas, threads>>>(dret);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ret, dret, sizeof ret, cudaMemcpyDeviceToHost));
    for (int i = 0; i < threads * ctas; i++)
        if (ret[i] != 3) {
            std::printf("printf: WRONG return value %d of thread %d, expected 3\n", ret[i], i);
            return 1;
        }
    CHECK(cudaFree(dret));
    CHECK(cudaFree(s));
    std::printf("printf: PASSED\n");
    return 0;
}
