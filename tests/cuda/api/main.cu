// api -- device queries, kernel attributes and occupancy, streams, events (simulated time),
// asynchronous copies and memsets, pitched and 2-D copies, host allocations, pointer
// attributes, cudaMemcpyDefault, a host function on a stream, and an invalid device. Prints
// what the model reports (the test reads it) and "api: PASSED", exit 0, or 1.
#include "../check.h"

__global__ void busy(float *p, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = p[i];
    for (int k = 0; k < iters; k++)
        v = v * 0.5f + 1.0f;
    p[i] = v;
}

static void CUDART_CB host_fn(void *arg)
{
    *(int *)arg = 42;
}

int main()
{
    int n = 0, v = 0, rt = 0, drv = 0;
    cudaDeviceProp p;
    CHECK(cudaGetDeviceCount(&n));
    CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("api: %d device: %s, %d SMs, cc %d.%d, %d threads/SM, %d blocks/SM, "
                "%zu shared/block, %d regs/SM, warp %d\n", n, p.name, p.multiProcessorCount,
                p.major, p.minor, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor,
                p.sharedMemPerBlock, p.regsPerMultiprocessor, p.warpSize);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    CHECK(cudaRuntimeGetVersion(&rt));
    CHECK(cudaDriverGetVersion(&drv));
    std::printf("api: clock %d kHz, runtime %d, driver %d\n", v, rt, drv);
    EXPECT(cudaSetDevice(1), cudaErrorInvalidDevice);
    cudaGetLastError();

    cudaFuncAttributes fa;
    int blocks = 0, min_grid = 0, block_size = 0;
    CHECK(cudaFuncGetAttributes(&fa, busy));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, busy, 256, 0));
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, busy));
    std::printf("api: busy: %d regs, max %d threads/block, %d blocks of 256/SM, "
                "best block %d\n", fa.numRegs, fa.maxThreadsPerBlock, blocks, block_size);

    const int N = 8 * 256;
    float *h, *d, ms = -1;
    CHECK(cudaMallocHost(&h, N * sizeof(float)));
    CHECK(cudaMalloc(&d, N * sizeof(float)));
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    cudaStream_t s;
    cudaEvent_t e0, e1;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaMemcpyAsync(d, h, N * sizeof(float), cudaMemcpyHostToDevice, s));
    CHECK(cudaEventRecord(e0, s));
    busy<<<8, 256, 0, s>>>(d, 20);
    CHECK(cudaEventRecord(e1, s));
    CHECK(cudaMemcpyAsync(h, d, N * sizeof(float), cudaMemcpyDefault, s));
    int flag = 0;
    CHECK(cudaLaunchHostFunc(s, host_fn, &flag));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    std::printf("api: kernel time %.6f ms (simulated)\n", ms);
    float want = 5.0f;
    for (int k = 0; k < 20; k++)
        want = want * 0.5f + 1.0f;
    if (h[5] != want || flag != 42) {
        std::printf("api: WRONG h[5] = %g (expected %g), flag %d\n", h[5], want, flag);
        return 1;
    }
    CHECK(cudaMemsetAsync(d, 0, N * sizeof(float), s));
    CHECK(cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost));
    if (h[0] != 0.0f)
        return 1;

    size_t pitch = 0, free_b = 0, total = 0;
    char *pd, rows[3][10] = { "row zero", "row one", "row two" }, back[3][10];
    CHECK(cudaMallocPitch(&pd, &pitch, 10, 3));
    CHECK(cudaMemcpy2D(pd, pitch, rows, 10, 10, 3, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2D(back, 10, pd, pitch, 10, 3, cudaMemcpyDeviceToHost));
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, pd));
    CHECK(cudaMemGetInfo(&free_b, &total));
    std::printf("api: pitch %zu, back \"%s\", pointer type %d, %zu MB total\n", pitch, back[2],
                (int)pa.type, total >> 20);
    CHECK(cudaFree(pd));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    CHECK(cudaStreamDestroy(s));
    std::printf("api: PASSED\n");
    return 0;
}
