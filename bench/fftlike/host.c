/*
 * fftlike host part: rows of N = 1024 random residues mod P = 40961, forward NTT with the
 * primitive N-th root w = 3^((P-1)/N) mod P (3 generates the multiplicative group mod P).
 * The C reference runs the same iterative radix-2 DIT algorithm; row 0 of the reference is
 * also checked against the O(N^2) definition X[k] = sum_n x[n] w^(nk), so the reference itself
 * is known right.  Every output element is checked exactly.
 * test: 4 rows -> 4 CTAs of 256 threads;
 * default: 384 rows -> 384 CTAs (98304 threads, 4.3 GTX480 fills).
 */
#include <stdlib.h>
#include "bench.h"

#define P 40961u
#define LOGN 10
#define N (1 << LOGN)

static uint32_t mulmod(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b % P); }

static uint32_t powmod(uint32_t a, uint32_t e)
{
    uint32_t r = 1;
    for (; e; e >>= 1, a = mulmod(a, a))
        if (e & 1)
            r = mulmod(r, a);
    return r;
}

static uint32_t bitrev(uint32_t i)
{
    uint32_t r = 0;
    for (int b = 0; b < LOGN; b++)
        r |= ((i >> b) & 1u) << (LOGN - 1 - b);
    return r;
}

static void ntt_ref(const uint32_t *x, uint32_t *y, const uint32_t *tw)
{
    for (uint32_t i = 0; i < N; i++)
        y[i] = x[bitrev(i)];
    for (int h = 1; h < N; h <<= 1)
        for (int j = 0; j < N / 2; j++) {
            int k = j & (h - 1), i0 = ((j - k) << 1) + k, i1 = i0 + h;
            uint32_t u = y[i0], v = mulmod(y[i1], tw[k * (N / (2 * h))]);
            y[i0] = (u + v) % P;
            y[i1] = (u + P - v) % P;
        }
}

/* Row 0 against the definition; returns the number of disagreeing elements. */
static int ntt_selfcheck(const uint32_t *x, const uint32_t *y, uint32_t w)
{
    int bad = 0;
    for (uint32_t k = 0; k < N; k++) {
        uint32_t acc = 0, wk = powmod(w, k), wnk = 1;
        for (uint32_t n = 0; n < N; n++) {
            acc = (acc + mulmod(x[n], wnk)) % P;
            wnk = mulmod(wnk, wk);
        }
        bad += acc != y[k];
    }
    return bad;
}

static int ntt_device(struct bench_ctx *ctx, const uint32_t *x, uint32_t *y, const uint32_t *tw,
                      int rows)
{
    size_t b = (size_t)rows * N * 4;
    uint64_t d[3] = { 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], b), "malloc x") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], b), "malloc y") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], N / 2 * 4), "malloc tw") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], x, b), "copy x") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[2], tw, N / 2 * 4), "copy tw"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]) };
        struct gs_dim3 grid = { (uint32_t)rows, 1, 1 }, block = { 256, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "fftlike", grid, block, 0, args, 3), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, y, d[1], b), "copy y"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int fftlike_run(struct bench_ctx *ctx)
{
    int rows = ctx->size == BENCH_TEST ? 4 : 384;
    size_t n = (size_t)rows * N;
    uint32_t *x = malloc(n * 4), *y = malloc(n * 4), *ref = malloc(n * 4), tw[N / 2];
    uint32_t w = powmod(3, (P - 1) / N);
    struct bench_rng rng;
    int rc = -1;

    if (!x || !y || !ref)
        goto done;
    bench_rng_seed(&rng, 21);
    for (size_t i = 0; i < n; i++)
        x[i] = bench_rng_u32(&rng) % P;
    for (uint32_t k = 0; k < N / 2; k++)
        tw[k] = powmod(w, k);
    for (int r = 0; r < rows; r++)
        ntt_ref(x + (size_t)r * N, ref + (size_t)r * N, tw);
    if (ntt_selfcheck(x, ref, w)) {
        bench_fail(ctx, "fftlike: host reference disagrees with the NTT definition");
        rc = 1;
        goto done;
    }
    rc = ntt_device(ctx, x, y, tw, rows);
    if (rc == 0)
        rc = bench_check_u32(ctx, "y", y, ref, n) ? 1 : 0;
done:
    free(x); free(y); free(ref);
    return rc;
}

const struct bench bench_fftlike = {
    "fftlike", "NTT butterflies in global memory, bit-reversed and strided twiddle gathers "
    "(memory-latency divergence)", fftlike_run, NULL, 0
};
