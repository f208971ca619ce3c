/*
 * backprop host part: Rodinia-style layer forward over 16x16 weight tiles.  Checks every
 * partial sum (16 per CTA) and every element of the written-back, half-reduced weight tile,
 * against a C reference that replays the same reduction tree (exact small integers in floats).
 * test: 61 input units -> 4 CTAs of 256 threads (the last tile has 13 live rows);
 * default: 8187 input units -> 512 CTAs (131072 threads, 5.7 GTX480 fills).
 */
#include <stdlib.h>
#include "bench.h"

#define TILE 16

static void backprop_ref(const float *in, const float *w, float *partial, float *wout, int n_in,
                         int ntiles)
{
    for (int by = 0; by < ntiles; by++) {
        float t[TILE][TILE];
        for (int ty = 0; ty < TILE; ty++)
            for (int tx = 0; tx < TILE; tx++) {
                int row = by * TILE + ty;
                t[ty][tx] = row < n_in ? w[row * TILE + tx] * in[row] : 0.0f;
            }
        for (int s = 1; s <= 4; s++) {
            int p = 1 << s;
            for (int ty = 0; ty < TILE; ty += p)
                for (int tx = 0; tx < TILE; tx++)
                    t[ty][tx] += t[ty + p / 2][tx];
        }
        for (int ty = 0; ty < TILE; ty++)
            for (int tx = 0; tx < TILE; tx++)
                if (by * TILE + ty < n_in)
                    wout[(by * TILE + ty) * TILE + tx] = t[ty][tx];
        for (int tx = 0; tx < TILE; tx++)
            partial[by * TILE + tx] = t[0][tx];
    }
}

static int backprop_device(struct bench_ctx *ctx, const float *in, const float *w, float *partial,
                           float *wout, int n_in, int ntiles)
{
    size_t ib = (size_t)n_in * sizeof(float), wb = ib * TILE;
    size_t pb = (size_t)ntiles * TILE * sizeof(float);
    uint64_t d[4] = { 0, 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], ib), "malloc input") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], wb), "malloc weights") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], pb), "malloc partial") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[3], wb), "malloc wout") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], in, ib), "copy input") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], w, wb), "copy weights"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(d[3]),
                                       GS_ARG(n_in) };
        struct gs_dim3 grid = { (uint32_t)ntiles, 1, 1 }, block = { TILE, TILE, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "backprop", grid, block, 0, args, 5), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, partial, d[2], pb), "copy partial") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, wout, d[3], wb), "copy wout"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 4; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int backprop_run(struct bench_ctx *ctx)
{
    int n_in = ctx->size == BENCH_TEST ? 61 : 8187, ntiles = (n_in + TILE - 1) / TILE;
    size_t nw = (size_t)n_in * TILE, np = (size_t)ntiles * TILE;
    float *in = malloc(n_in * sizeof(float)), *w = malloc(nw * sizeof(float));
    float *wout = malloc(nw * sizeof(float)), *wref = malloc(nw * sizeof(float));
    float *part = malloc(np * sizeof(float)), *pref = malloc(np * sizeof(float));
    struct bench_rng rng;
    int rc = -1;

    if (!in || !w || !wout || !wref || !part || !pref)
        goto done;
    bench_rng_seed(&rng, 13);
    for (int i = 0; i < n_in; i++)
        in[i] = (float)(bench_rng_u32(&rng) % 8);                 /* activations 0..7 */
    for (size_t i = 0; i < nw; i++)
        w[i] = (float)((int)(bench_rng_u32(&rng) % 17) - 8);       /* weights -8..8 */
    backprop_ref(in, w, pref, wref, n_in, ntiles);
    rc = backprop_device(ctx, in, w, part, wout, n_in, ntiles);
    if (rc == 0) {
        uint64_t bad = bench_check_f32(ctx, "partial", part, pref, np, 0.0f, 0.0f);
        bad += bench_check_f32(ctx, "wout", wout, wref, nw, 0.0f, 0.0f);
        rc = bad ? 1 : 0;
    }
done:
    free(in); free(w); free(wout); free(wref); free(part); free(pref);
    return rc;
}

const struct bench bench_backprop = {
    "backprop", "16x16 tile dot products + barrier tree reduction (Type-S: thread limit binds)",
    backprop_run, NULL, 0
};
