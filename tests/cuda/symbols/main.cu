// symbols -- __constant__ and __device__ variables: their initialisers, cudaMemcpyToSymbol
// (whole and at an offset), cudaMemcpyFromSymbol, cudaGetSymbolAddress and cudaGetSymbolSize,
// a variable in a namespace, a kernel that updates a __device__ counter, and a pointer that is
// not a symbol (cudaErrorInvalidSymbol). Prints "symbols: PASSED" and exits 0, or 1.
#include "../check.h"

__constant__ float coef[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
__device__ int counter = 5;
__device__ int table[8] = { 10, 11, 12, 13, 14, 15, 16, 17 };
namespace ns {
__device__ int scale = 3;
}

__global__ void apply(float *out)
{
    int i = threadIdx.x;
    out[i] = coef[i % 4] * table[i % 8] * ns::scale;
    atomicAdd(&counter, 1);
}

static int fail(const char *what, double got, double want)
{
    std::printf("symbols: WRONG %s = %g, expected %g\n", what, got, want);
    return 1;
}

int main()
{
    float out[32], *dout;
    int c = 0, t[8];
    size_t size = 0;
    void *addr = nullptr;
    CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));                    // the initialiser
    if (t[7] != 17)
        return fail("table[7] before", t[7], 17);
    const float newcoef[2] = { 5.0f, 6.0f };
    CHECK(cudaMemcpyToSymbol(coef, newcoef, sizeof newcoef, 2 * sizeof(float)));  // coef[2..3]
    CHECK(cudaGetSymbolSize(&size, table));
    if (size != sizeof t)
        return fail("sizeof table", size, sizeof t);
    CHECK(cudaGetSymbolAddress(&addr, table));
    int seven = 7;
    CHECK(cudaMemcpy((int *)addr + 1, &seven, sizeof seven, cudaMemcpyHostToDevice));  // table[1]
    CHECK(cudaMalloc(&dout, sizeof out));
    apply<<<1, 32>>>(dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    const float want_coef[4] = { 1.0f, 2.0f, 5.0f, 6.0f };
    const int want_table[8] = { 10, 7, 12, 13, 14, 15, 16, 17 };
    for (int i = 0; i < 32; i++)
        if (out[i] != want_coef[i % 4] * want_table[i % 8] * 3)
            return fail("out[i]", out[i], want_coef[i % 4] * want_table[i % 8] * 3);
    CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
    if (c != 5 + 32)
        return fail("counter", c, 37);
    EXPECT(cudaMemcpyToSymbol(out, &c, sizeof c), cudaErrorInvalidSymbol);  // not a symbol
    EXPECT(cudaMemcpyToSymbol(counter, t, sizeof t), cudaErrorInvalidValue);  // past its end
    cudaGetLastError();
    std::printf("symbols: PASSED\n");
    return 0;
}
