/*
 * spmv host part: a square CSR matrix with skewed row lengths (80% of rows 1-8 entries, 17%
 * 9-64, 3% 65-512 in the default size), each row either "banded" (columns within +-128 of the
 * diagonal: cache-friendly) or "random" (columns anywhere), chosen per row so both kinds mix
 * in every warp.  Values are integers in [-8, 8] and x in [-64, 64], stored as float, so each
 * y[r] is an exact integer (< 2^24 in magnitude); every y is checked exactly against an
 * integer C reference.
 * test: 1000 rows (4 CTAs x 256); default: 131072 - 3 rows (512 CTAs).
 */
#include <stdlib.h>
#include "bench.h"

struct csr { int n, nnz; int *off, *col; float *val; };

static int row_len(struct bench_rng *rng, int long_max)
{
    uint32_t u = bench_rng_u32(rng), p = u % 100u;
    u >>= 8;
    if (p < 80)
        return 1 + (int)(u % 8u);
    if (p < 97)
        return 9 + (int)(u % 56u);
    return 65 + (int)(u % (uint32_t)(long_max - 64));
}

static int build_csr(struct csr *m, int n, int long_max, struct bench_rng *rng)
{
    int r, j;
    m->n = n;
    m->off = malloc((size_t)(n + 1) * sizeof(int));
    if (!m->off)
        return -1;
    m->off[0] = 0;
    for (r = 0; r < n; r++)
        m->off[r + 1] = m->off[r] + row_len(rng, long_max);
    m->nnz = m->off[n];
    m->col = malloc((size_t)m->nnz * sizeof(int));
    m->val = malloc((size_t)m->nnz * sizeof(float));
    if (!m->col || !m->val)
        return -1;
    for (r = 0; r < n; r++) {
        int banded = (int)(bench_rng_u32(rng) & 1u);
        for (j = m->off[r]; j < m->off[r + 1]; j++) {
            uint32_t u = bench_rng_u32(rng);
            int c = banded ? r - 128 + (int)(u % 257u) : (int)(u % (uint32_t)n);
            m->col[j] = c < 0 ? 0 : (c >= n ? n - 1 : c);
            m->val[j] = (float)((int)(bench_rng_u32(rng) % 17u) - 8);
        }
    }
    return 0;
}

static int spmv_run(struct bench_ctx *ctx)
{
    int n = ctx->size == BENCH_TEST ? 1000 : 131072 - 3;
    struct csr m = { 0, 0, NULL, NULL, NULL };
    float *x = malloc((size_t)n * sizeof(float)), *y = malloc((size_t)n * sizeof(float));
    float *ref = malloc((size_t)n * sizeof(float));
    struct gs_module *mod = NULL;
    uint64_t doff = 0, dcol = 0, dval = 0, dx = 0, dy = 0;
    struct bench_rng rng;
    int rc = -1, r, j;

    bench_rng_seed(&rng, 0x5B3);
    if (!x || !y || !ref || build_csr(&m, n, ctx->size == BENCH_TEST ? 128 : 512, &rng))
        goto out;
    for (r = 0; r < n; r++)
        x[r] = (float)((int)(bench_rng_u32(&rng) % 129u) - 64);
    for (r = 0; r < n; r++) {
        int32_t s = 0;
        for (j = m.off[r]; j < m.off[r + 1]; j++)
            s += (int32_t)m.val[j] * (int32_t)x[m.col[j]];
        ref[r] = (float)s;
    }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &doff, (uint64_t)(n + 1) * 4), "malloc row_off") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dcol, (uint64_t)m.nnz * 4), "malloc col") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dval, (uint64_t)m.nnz * 4), "malloc val") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dx, (uint64_t)n * 4), "malloc x") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dy, (uint64_t)n * 4), "malloc y") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, doff, m.off, (uint64_t)(n + 1) * 4), "copy row_off") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dcol, m.col, (uint64_t)m.nnz * 4), "copy col") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dval, m.val, (uint64_t)m.nnz * 4), "copy val") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dx, x, (uint64_t)n * 4), "copy x"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(doff), GS_ARG(dcol), GS_ARG(dval), GS_ARG(dx),
                                       GS_ARG(dy), GS_ARG(n) };
        struct gs_dim3 grid = { (uint32_t)(n + 255) / 256, 1, 1 }, block = { 256, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "spmv_csr", grid, block, 0, args, 6),
                      "launch spmv_csr") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, y, dy, (uint64_t)n * 4), "copy y"))
            goto out;
    }
    rc = bench_check_f32(ctx, "y", y, ref, (size_t)n, 0.0f, 0.0f) ? 1 : 0;
out:
    free(m.off); free(m.col); free(m.val); free(x); free(y); free(ref);
    return rc;
}

const struct bench bench_spmv = {
    "spmv", "CSR SpMV, one thread per row, skewed rows, banded/random gathers (memory-latency + cycle divergence)",
    spmv_run, NULL, 0
};
