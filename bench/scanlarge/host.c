/*
 * scanlarge host part: per-4096-element-segment exclusive prefix sums and segment totals of n
 * unsigned ints (0..99).  Every output element and every segment total is checked exactly.
 * test: n = 3 * 4096 - 1000 -> 3 CTAs of 256 threads (the last segment is partial);
 * default: n = 384 * 4096 - 1000 -> 384 CTAs (98304 threads, 4.3 GTX480 fills).
 */
#include <stdlib.h>
#include "bench.h"

#define NE 4096

static void scan_ref(const uint32_t *in, uint32_t *out, uint32_t *sums, int n, int nseg)
{
    for (int b = 0; b < nseg; b++) {
        uint32_t acc = 0;
        for (int i = b * NE; i < (b + 1) * NE && i < n; i++) {
            out[i] = acc;
            acc += in[i];
        }
        sums[b] = acc;
    }
}

static int scan_device(struct bench_ctx *ctx, const uint32_t *in, uint32_t *out, uint32_t *sums,
                       int n, int nseg)
{
    size_t nb = (size_t)n * sizeof(uint32_t), sb = (size_t)nseg * sizeof(uint32_t);
    uint64_t d[3] = { 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], nb), "malloc in") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], nb), "malloc out") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], sb), "malloc sums") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], in, nb), "copy in"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(n) };
        struct gs_dim3 grid = { (uint32_t)nseg, 1, 1 }, block = { 256, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "scanlarge", grid, block, 0, args, 4),
                      "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out, d[1], nb), "copy out") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, sums, d[2], sb), "copy sums"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int scanlarge_run(struct bench_ctx *ctx)
{
    int nseg = ctx->size == BENCH_TEST ? 3 : 384, n = nseg * NE - 1000;
    uint32_t *in = malloc((size_t)n * 4), *out = malloc((size_t)n * 4);
    uint32_t *ref = malloc((size_t)n * 4), *sums = malloc((size_t)nseg * 4);
    uint32_t *sref = malloc((size_t)nseg * 4);
    struct bench_rng rng;
    int rc = -1;

    if (!in || !out || !ref || !sums || !sref)
        goto done;
    bench_rng_seed(&rng, 16);
    for (int i = 0; i < n; i++)
        in[i] = bench_rng_u32(&rng) % 100;
    scan_ref(in, ref, sref, n, nseg);
    rc = scan_device(ctx, in, out, sums, n, nseg);
    if (rc == 0) {
        uint64_t bad = bench_check_u32(ctx, "out", out, ref, (size_t)n);
        bad += bench_check_u32(ctx, "sums", sums, sref, (size_t)nseg);
        rc = bad ? 1 : 0;
    }
done:
    free(in); free(out); free(ref); free(sums); free(sref);
    return rc;
}

const struct bench bench_scanlarge = {
    "scanlarge", "Blelloch scan of 4096 ints per CTA, 16.5 KB shared (Type-C: shared-memory "
    "limit binds)", scanlarge_run, NULL, 0
};
