/*
 * reduce host part: per-CTA shared-memory tree reduction of int32 values.
 * Each CTA of 256 threads sums 512 consecutive inputs (values in [-10^6, 10^6], so no partial
 * sum can overflow and integer addition makes every result exact); every partial is checked.
 * test: n = 4*512 - 37 (4 CTAs, the last one partly past the end);
 * default: n = 1024*512 - 37 (1024 CTAs, 262,144 threads: about 11x a GTX480's 23,040).
 */
#include <stdlib.h>
#include "bench.h"

#define REDUCE_THREADS 256u
#define REDUCE_PER_CTA (2u * REDUCE_THREADS)

static void reduce_ref(const int32_t *in, int n, int32_t *partial, unsigned ctas)
{
    unsigned c;
    int i;
    for (c = 0; c < ctas; c++)
        partial[c] = 0;
    for (i = 0; i < n; i++)
        partial[(unsigned)i / REDUCE_PER_CTA] += in[i];
}

static int reduce_run(struct bench_ctx *ctx)
{
    int n = (int)((ctx->size == BENCH_TEST ? 4u : 1024u) * REDUCE_PER_CTA) - 37;
    unsigned ctas = ((unsigned)n + REDUCE_PER_CTA - 1) / REDUCE_PER_CTA;
    size_t bytes = (size_t)n * 4, pbytes = (size_t)ctas * 4;
    int32_t *in = malloc(bytes), *got = malloc(pbytes), *ref = malloc(pbytes);
    struct gs_module *mod = NULL;
    uint64_t din = 0, dpart = 0;
    struct bench_rng rng;
    int rc = -1, i;

    if (!in || !got || !ref)
        goto out;
    bench_rng_seed(&rng, 2);
    for (i = 0; i < n; i++)
        in[i] = (int32_t)(bench_rng_u32(&rng) % 2000001u) - 1000000;
    reduce_ref(in, n, ref, ctas);
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &din, bytes), "malloc in") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dpart, pbytes), "malloc partial") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, din, in, bytes), "copy in") ||
        bench_api(ctx, gs_memset(ctx->gpu, dpart, 0xff, pbytes), "clear partial"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(din), GS_ARG(dpart), GS_ARG(n) };
        struct gs_dim3 grid = { ctas, 1, 1 }, block = { REDUCE_THREADS, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "reduce", grid, block, REDUCE_THREADS * 4,
                                     args, 3), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dpart, pbytes), "copy partial"))
            goto out;
    }
    rc = bench_check_i32(ctx, "partial", got, ref, ctas) ? 1 : 0;
out:
    free(in); free(got); free(ref);
    return rc;
}

const struct bench bench_reduce = {
    "reduce", "shared-memory tree sum per CTA: bar.sync per level, warp 0 diverges below 32",
    reduce_run, NULL, 0
};
