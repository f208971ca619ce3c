/*
 * histogram host part: 256-bin byte histogram with skewed input, every bin checked.
 * Input bytes: 25% are ' ' (0x20), 25% one of three other hot values (0x00, 'e', 0xff),
 * 50% uniform over 0..255 -- so about a quarter of a warp's lanes hit the same shared bin
 * per iteration and every CTA merges the hot bins into the same global words.
 * test: 4 CTAs x 256 threads over 4*256*16 - 13 bytes (grid-stride tail);
 * default: 480 CTAs x 256 threads (122,880 threads, 5x a GTX480) over 480*256*32 - 13 bytes.
 */
#include <stdlib.h>
#include "bench.h"

#define HIST_BINS 256u

static uint8_t hist_byte(struct bench_rng *rng)
{
    static const uint8_t hot[3] = { 0x00, 'e', 0xff };
    uint32_t r = bench_rng_u32(rng);
    switch (r & 3u) {
    case 0: return ' ';
    case 1: return hot[(r >> 2) % 3u];
    default: return (uint8_t)(r >> 8);
    }
}

static int hist_launch(struct bench_ctx *ctx, struct gs_module *mod, uint64_t din, int n,
                       uint64_t dbins, uint32_t ctas)
{
    const struct gs_arg args[] = { GS_ARG(din), GS_ARG(n), GS_ARG(dbins) };
    struct gs_dim3 grid = { ctas, 1, 1 }, block = { HIST_BINS, 1, 1 };
    return bench_api(ctx, gs_launch(ctx->gpu, mod, "histogram", grid, block, 0, args, 3),
                     "launch");
}

static int hist_run(struct bench_ctx *ctx)
{
    uint32_t ctas = ctx->size == BENCH_TEST ? 4 : 480;
    int n = (int)(ctas * HIST_BINS * (ctx->size == BENCH_TEST ? 16u : 32u)) - 13;
    uint8_t *in = malloc((size_t)n);
    uint32_t got[HIST_BINS], ref[HIST_BINS] = { 0 };
    struct gs_module *mod = NULL;
    uint64_t din = 0, dbins = 0;
    struct bench_rng rng;
    int rc = -1, i;

    if (!in)
        goto out;
    bench_rng_seed(&rng, 3);
    for (i = 0; i < n; i++) {
        in[i] = hist_byte(&rng);
        ref[in[i]]++;
    }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &din, (uint64_t)n), "malloc in") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dbins, sizeof got), "malloc bins") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, din, in, (uint64_t)n), "copy in") ||
        bench_api(ctx, gs_memset(ctx->gpu, dbins, 0, sizeof got), "clear bins") ||
        hist_launch(ctx, mod, din, n, dbins, ctas) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dbins, sizeof got), "copy bins"))
        goto out;
    rc = bench_check_u32(ctx, "bins", got, ref, HIST_BINS) ? 1 : 0;
out:
    free(in);
    return rc;
}

const struct bench bench_histogram = {
    "histogram", "256-bin histogram of skewed bytes: contended shared and global atomicAdd",
    hist_run, NULL, 0
};
