/*
 * vecadd host part: c = a + b over n floats; every element checked exactly (one IEEE add).
 * test: 4 CTAs x 256 threads, n not a multiple of the block (grid tail);
 * default: 1024 CTAs x 256 threads (about 11 times the 23040 threads a GTX480 holds).
 */
#include <stdlib.h>
#include "bench.h"

static int vecadd_run(struct bench_ctx *ctx)
{
    int n = ctx->size == BENCH_TEST ? 1000 : 1024 * 256 - 17;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *ref = malloc(bytes);
    struct gs_module *mod = NULL;
    uint64_t da = 0, db = 0, dc = 0;
    struct bench_rng rng;
    int rc = -1, i;

    if (!a || !b || !c || !ref)
        goto out;
    bench_rng_seed(&rng, 1);
    for (i = 0; i < n; i++) {
        a[i] = bench_rng_f32(&rng, -100.0f, 100.0f);
        b[i] = bench_rng_f32(&rng, -100.0f, 100.0f);
        ref[i] = a[i] + b[i];
    }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &da, bytes), "malloc a") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &db, bytes), "malloc b") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dc, bytes), "malloc c") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, da, a, bytes), "copy a") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, db, b, bytes), "copy b"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(da), GS_ARG(db), GS_ARG(dc), GS_ARG(n) };
        struct gs_dim3 grid = { (uint32_t)(n + 255) / 256, 1, 1 }, block = { 256, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "vecadd", grid, block, 0, args, 4), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, c, dc, bytes), "copy c"))
            goto out;
    }
    rc = bench_check_f32(ctx, "c", c, ref, (size_t)n, 0.0f, 0.0f) ? 1 : 0;
out:
    free(a); free(b); free(c); free(ref);
    return rc;
}

const struct bench bench_vecadd = {
    "vecadd", "c = a + b; dense and regular, no divergence (Type-S: thread/CTA limit binds)",
    vecadd_run, NULL, 0
};
