/*
 * kmeans host part: npoints points with nf = 12 integer features in [0, 15] (feature-major),
 * k = 8 integer centroids in the same range (so distance ties are frequent), and a
 * mini-batch of nsel distinct points.  The batch is built warp by warp (32 entries): a third
 * of the warps take a run of 32 consecutive points, a third 32 random points, a third
 * alternate the two lane by lane; points are never repeated.  member starts at -1; all
 * npoints entries (chosen and not chosen) are checked against a C nearest-centroid search
 * with the same lowest-index tie rule.
 * test: nsel = 1000 (4 CTAs x 256), npoints = 2048; default: nsel = 131072 - 9 (512 CTAs),
 * npoints = 262144.
 */
#include <stdlib.h>
#include <string.h>
#include "bench.h"

#define KM_NF 12
#define KM_K  8

static void shuffle(int32_t *a, int n, struct bench_rng *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(bench_rng_u32(rng) % (uint32_t)(i + 1));
        int32_t x = a[i]; a[i] = a[j]; a[j] = x;
    }
}

/* npoints = 64 * nwarps: the first half of the shuffled 32-point chunks feed "run" lanes,
   the points of the second half (shuffled) feed "random" lanes; each warp uses at most one
   run chunk and 32 pool points, so no point is chosen twice.  chunk needs npoints/32 ints,
   pool npoints/2. */
static void make_batch(int32_t *sel, int nsel, int npoints, int32_t *chunk, int32_t *pool,
                       struct bench_rng *rng)
{
    int nch = npoints / 32, np = 0, w, l;
    for (w = 0; w < nch; w++)
        chunk[w] = w;
    shuffle(chunk, nch, rng);
    for (w = nch / 2; w < nch; w++)
        for (l = 0; l < 32; l++)
            pool[np++] = chunk[w] * 32 + l;
    shuffle(pool, np, rng);
    np = 0;
    for (w = 0; w * 32 < nsel; w++) {
        uint32_t kind = bench_rng_u32(rng) % 3u;           /* 0 run, 1 random, 2 mixed */
        for (l = 0; l < 32 && w * 32 + l < nsel; l++) {
            int run = kind == 0 || (kind == 2 && (l & 1) == 0);
            sel[w * 32 + l] = run ? chunk[w] * 32 + l : pool[np++];
        }
    }
}

static void ref_assign(const int32_t *feat, const int32_t *cent, const int32_t *sel, int nsel,
                       int npoints, int32_t *member)
{
    for (int i = 0; i < npoints; i++)
        member[i] = -1;
    for (int t = 0; t < nsel; t++) {
        int p = sel[t], best = 0;
        int32_t bestd = INT32_MAX;
        for (int c = 0; c < KM_K; c++) {
            int32_t d = 0;
            for (int f = 0; f < KM_NF; f++) {
                int32_t diff = feat[(size_t)f * (size_t)npoints + (size_t)p] - cent[c * KM_NF + f];
                d += diff * diff;
            }
            if (d < bestd) {
                bestd = d;
                best = c;
            }
        }
        member[p] = best;
    }
}

static int kmeans_run(struct bench_ctx *ctx)
{
    int nsel = ctx->size == BENCH_TEST ? 1000 : 131072 - 9;
    int npoints = 64 * ((nsel + 31) / 32), nf = KM_NF, k = KM_K, rc = -1, i;
    size_t np = (size_t)npoints;
    int32_t *feat = malloc(np * KM_NF * 4), *sel = malloc((size_t)nsel * 4);
    int32_t *chunk = malloc(np / 32 * 4), *pool = malloc(np / 2 * 4), *cent = malloc(KM_K * KM_NF * 4);
    int32_t *got = malloc(np * 4), *ref = malloc(np * 4);
    struct gs_module *mod = NULL;
    uint64_t dfeat = 0, dsel = 0, dcent = 0, dmem = 0;
    struct bench_rng rng;

    if (!feat || !sel || !chunk || !pool || !cent || !got || !ref)
        goto out;
    bench_rng_seed(&rng, 0x7EA5);
    for (i = 0; i < npoints * KM_NF; i++)
        feat[i] = (int32_t)(bench_rng_u32(&rng) & 15u);
    for (i = 0; i < KM_K * KM_NF; i++)
        cent[i] = (int32_t)(bench_rng_u32(&rng) & 15u);
    make_batch(sel, nsel, npoints, chunk, pool, &rng);
    ref_assign(feat, cent, sel, nsel, npoints, ref);
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dfeat, np * KM_NF * 4), "malloc feat") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dsel, (uint64_t)nsel * 4), "malloc sel") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dcent, KM_K * KM_NF * 4), "malloc cent") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dmem, np * 4), "malloc member") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dfeat, feat, np * KM_NF * 4), "copy feat") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dsel, sel, (uint64_t)nsel * 4), "copy sel") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dcent, cent, KM_K * KM_NF * 4), "copy cent") ||
        bench_api(ctx, gs_memset(ctx->gpu, dmem, 0xff, np * 4), "clear member"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(dfeat), GS_ARG(dsel), GS_ARG(dcent), GS_ARG(dmem),
                                       GS_ARG(nsel), GS_ARG(npoints), GS_ARG(nf), GS_ARG(k) };
        struct gs_dim3 grid = { (uint32_t)(nsel + 255) / 256, 1, 1 }, block = { 256, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "kmeans_assign", grid, block,
                                     KM_K * KM_NF * 4, args, 8), "launch kmeans_assign") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dmem, np * 4), "copy member"))
            goto out;
    }
    rc = bench_check_i32(ctx, "member", got, ref, np) ? 1 : 0;
out:
    free(feat); free(sel); free(chunk); free(pool); free(cent); free(got); free(ref);
    return rc;
}

const struct bench bench_kmeans = {
    "kmeans", "k-means assignment, feature-major gathers via run/random/mixed batches (memory-latency divergence)",
    kmeans_run, NULL, 0
};
