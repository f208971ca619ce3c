/*
 * sloop host part: the single-loop divergence micro-benchmark (seed 003, Section II-A).
 * One warp, thread t loops bounds[t] times; the bounds follow the paper's Table I for M
 * divergent lanes: 32 for t <= 31-M, 32-(t-(31-M)) above (M=0: none, M=31: 32,31,...,1).
 * Each M is its own launch of 1 CTA x 32 threads, with its own slice of the bounds and
 * output arrays, so a timing run can fit cycles against M launch by launch.
 * test: M in {0,1,8,16,20,31}; default: every M from 0 to 31. Every lane's result checked.
 */
#include <stdlib.h>
#include "bench.h"

#define SLOOP_WARP 32

static const int sloop_test_m[] = { 0, 1, 8, 16, 20, 31 };

/* Table I of the paper: the loop bound of lane t when M lanes diverge. */
static int32_t sloop_bound(int m, int t)
{
    int last_full = 31 - m;
    return t <= last_full ? 32 : 32 - (t - last_full);
}

static uint32_t sloop_ref(int32_t n)
{
    uint32_t acc = 0;
    int32_t i;
    for (i = 0; i < n; i++)
        acc = acc * 3u + (uint32_t)i;
    return acc;
}

static int sloop_m(const struct bench_ctx *ctx, int k)
{
    return ctx->size == BENCH_TEST ? sloop_test_m[k] : k;
}

static int sloop_launch_all(struct bench_ctx *ctx, struct gs_module *mod, uint64_t db,
                            uint64_t dout, int nm)
{
    struct gs_dim3 grid = { 1, 1, 1 }, block = { SLOOP_WARP, 1, 1 };
    int k;
    for (k = 0; k < nm; k++) {
        uint64_t b = db + (uint64_t)k * SLOOP_WARP * 4, o = dout + (uint64_t)k * SLOOP_WARP * 4;
        const void *args[] = { &b, &o };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "sloop", grid, block, 0, args, 2), "launch"))
            return -1;
    }
    return 0;
}

static int sloop_run(struct bench_ctx *ctx)
{
    int nm = ctx->size == BENCH_TEST ? (int)(sizeof sloop_test_m / sizeof sloop_test_m[0]) : 32;
    size_t n = (size_t)nm * SLOOP_WARP, bytes = n * 4;
    int32_t *bounds = malloc(bytes);
    uint32_t *out = malloc(bytes), *ref = malloc(bytes);
    struct gs_module *mod = NULL;
    uint64_t db = 0, dout = 0;
    int rc = -1, k, t;

    if (!bounds || !out || !ref)
        goto out;
    for (k = 0; k < nm; k++)
        for (t = 0; t < SLOOP_WARP; t++) {
            bounds[k * SLOOP_WARP + t] = sloop_bound(sloop_m(ctx, k), t);
            ref[k * SLOOP_WARP + t] = sloop_ref(bounds[k * SLOOP_WARP + t]);
        }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &db, bytes), "malloc bounds") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dout, bytes), "malloc out") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, db, bounds, bytes), "copy bounds") ||
        bench_api(ctx, gs_memset(ctx->gpu, dout, 0xff, bytes), "clear out") ||
        sloop_launch_all(ctx, mod, db, dout, nm) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out, dout, bytes), "copy out"))
        goto out;
    rc = bench_check_u32(ctx, "out", out, ref, n) ? 1 : 0;
out:
    free(bounds); free(out); free(ref);
    return rc;
}

const struct bench bench_sloop = {
    "sloop", "single loop, per-lane bounds (Table I of seed 003): M divergent loop exits per warp",
    sloop_run
};
