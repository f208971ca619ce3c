// carry: PTX's carry flag (CC.CF) in a CUDA program: 128-bit sums and differences written
// with add.cc/addc and sub.cc/subc (32- and 64-bit limbs), a 64 x 64 -> 128-bit product with
// mad.lo.cc/madc.hi, and double-precision sin/cos of large arguments, whose argument
// reduction nvcc's libdevice writes with madc (the Payne-Hanek reduction). Every result is
// checked against the host's.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "../check.h"

struct u128 { uint64_t lo, hi; };

__global__ void wide(const u128 *a, const u128 *b, u128 *sum, u128 *diff, u128 *sum64,
                     u128 *prod, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned a0 = (unsigned)a[i].lo, a1 = (unsigned)(a[i].lo >> 32);
    unsigned a2 = (unsigned)a[i].hi, a3 = (unsigned)(a[i].hi >> 32);
    unsigned b0 = (unsigned)b[i].lo, b1 = (unsigned)(b[i].lo >> 32);
    unsigned b2 = (unsigned)b[i].hi, b3 = (unsigned)(b[i].hi >> 32);
    unsigned s0, s1, s2, s3, d0, d1, d2, d3;
    asm("add.cc.u32 %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.u32 %2, %6, %10;\n\t"
        "addc.u32 %3, %7, %11;"
        : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
    asm("sub.cc.u32 %0, %4, %8;\n\t"
        "subc.cc.u32 %1, %5, %9;\n\t"
        "subc.cc.u32 %2, %6, %10;\n\t"
        "subc.u32 %3, %7, %11;"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
    sum[i].lo = (uint64_t)s1 << 32 | s0;
    sum[i].hi = (uint64_t)s3 << 32 | s2;
    diff[i].lo = (uint64_t)d1 << 32 | d0;
    diff[i].hi = (uint64_t)d3 << 32 | d2;
    uint64_t lo, hi;
    asm("add.cc.u64 %0, %2, %4;\n\t"
        "addc.u64 %1, %3, %5;"
        : "=l"(lo), "=l"(hi) : "l"(a[i].lo), "l"(a[i].hi), "l"(b[i].lo), "l"(b[i].hi));
    sum64[i].lo = lo;
    sum64[i].hi = hi;
    // a.lo * b.lo in four 32-bit limbs, the partial products added with the carry
    unsigned p0, p1, p2, p3;
    asm("{\n\t"
        "mul.lo.u32 %0, %4, %6;\n\t"
        "mul.hi.u32 %1, %4, %6;\n\t"
        "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.u32 %2, %5, %6, 0;\n\t"
        "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
        "addc.u32 %3, 0, 0;\n\t"
        "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
        "madc.hi.u32 %3, %5, %7, %3;\n\t"
        "}"
        : "=&r"(p0), "=&r"(p1), "=&r"(p2), "=&r"(p3) : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
    prod[i].lo = (uint64_t)p1 << 32 | p0;
    prod[i].hi = (uint64_t)p3 << 32 | p2;
}

__global__ void trig(const double *x, double *s, double *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        s[i] = sin(x[i]);
        c[i] = cos(x[i]);
    }
}

static uint64_t next(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return *st ^ (*st >> 29);
}

static int same128(const char *what, int i, u128 got, unsigned __int128 want)
{
    if (got.lo == (uint64_t)want && got.hi == (uint64_t)(want >> 64))
        return 1;
    std::printf("FAILED %s[%d]: %016llx%016llx, expected %016llx%016llx\n", what, i,
                (unsigned long long)got.hi, (unsigned long long)got.lo,
                (unsigned long long)(uint64_t)(want >> 64), (unsigned long long)(uint64_t)want);
    return 0;
}

static int check_wide(int n)
{
    u128 *a, *b, *sum, *diff, *sum64, *prod;
    size_t bytes = n * sizeof(u128);
    u128 *h = new u128[6 * n];
    uint64_t st = 12345;
    for (int i = 0; i < n; i++) {
        h[i] = {next(&st), next(&st)};
        h[n + i] = {next(&st), next(&st)};
    }
    h[0] = {~0ull, ~0ull}, h[n] = {1, 0};          // a carry through every limb
    h[1] = {0, 0}, h[n + 1] = {1, 0};              // a borrow through every limb
    h[2] = {0xffffffffull, 0}, h[n + 2] = {0xffffffffull, 0};
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&sum, bytes));
    CHECK(cudaMalloc(&diff, bytes));
    CHECK(cudaMalloc(&sum64, bytes));
    CHECK(cudaMalloc(&prod, bytes));
    CHECK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h + n, bytes, cudaMemcpyHostToDevice));
    wide<<<(n + 63) / 64, 64>>>(a, b, sum, diff, sum64, prod, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h + 2 * n, sum, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h + 3 * n, diff, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h + 4 * n, sum64, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h + 5 * n, prod, bytes, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        unsigned __int128 x = (unsigned __int128)h[i].hi << 64 | h[i].lo;
        unsigned __int128 y = (unsigned __int128)h[n + i].hi << 64 | h[n + i].lo;
        ok = same128("sum", i, h[2 * n + i], x + y) && same128("diff", i, h[3 * n + i], x - y)
             && same128("sum64", i, h[4 * n + i], x + y)
             && same128("prod", i, h[5 * n + i], (unsigned __int128)h[i].lo * h[n + i].lo);
    }
    delete[] h;
    return ok;
}

static int check_trig(int n)
{
    double *hx = new double[3 * n], *x, *s, *c;
    for (int i = 0; i < n; i++)               // small, medium and huge arguments
        hx[i] = i % 3 == 0 ? 0.25 * i : i % 3 == 1 ? 1.0e5 + 7.123 * i : 1.0e15 * (i + 1) + 0.5;
    CHECK(cudaMalloc(&x, n * sizeof(double)));
    CHECK(cudaMalloc(&s, n * sizeof(double)));
    CHECK(cudaMalloc(&c, n * sizeof(double)));
    CHECK(cudaMemcpy(x, hx, n * sizeof(double), cudaMemcpyHostToDevice));
    trig<<<(n + 31) / 32, 32>>>(x, s, c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hx + n, s, n * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hx + 2 * n, c, n * sizeof(double), cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        double ws = std::sin(hx[i]), wc = std::cos(hx[i]);
        if (std::fabs(hx[n + i] - ws) > 1e-15 || std::fabs(hx[2 * n + i] - wc) > 1e-15) {
            std::printf("FAILED sin/cos(%.17g): %.17g %.17g, expected %.17g %.17g\n", hx[i],
                        hx[n + i], hx[2 * n + i], ws, wc);
            ok = 0;
        }
    }
    delete[] hx;
    return ok;
}

int main()
{
    if (check_wide(200) && check_trig(48)) {
        std::printf("carry: PASSED\n");
        return 0;
    }
    return 1;
}
