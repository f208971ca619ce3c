/*
 * nw host part: P Needleman-Wunsch problems of length n (a multiple of 32): random residue
 * sequences over a 20-letter alphabet (seqb is seqa with ~30% of residues substituted, so
 * alignments are non-trivial), a random symmetric similarity table (-4..+2 off the diagonal,
 * +4..+9 on it), gap penalty 10.  The host fills row 0 and column 0 (-k * gap) and a sentinel
 * elsewhere, launches nw_tile once per tile anti-diagonal (2 n/32 - 1 launches, grid
 * (tiles on that diagonal) x P), and checks the whole (n+1) x (n+1) matrix of every problem
 * against the plain C recurrence.
 * test: n = 64, P = 2 (3 launches, 8 CTAs of 32 threads); default: n = 384, P = 16 (23
 * launches, up to 192 CTAs each, 2304 tiles in all).
 */
#include <stdlib.h>
#include "bench.h"

#define NW_TS  32
#define NW_NA  20
#define NW_GAP 10
#define NW_SENTINEL 0x55555555

struct nwp { int n, np; size_t ld, mat; };   /* ld = n + 1, mat = ld * ld */

static void make_inputs(const struct nwp *q, uint8_t *sa, uint8_t *sb, int32_t *sim,
                        struct bench_rng *rng)
{
    int i, j;
    for (i = 0; i < NW_NA; i++)
        for (j = 0; j <= i; j++) {
            int32_t v = i == j ? 4 + (int32_t)(bench_rng_u32(rng) % 6u)
                               : (int32_t)(bench_rng_u32(rng) % 7u) - 4;
            sim[i * NW_NA + j] = sim[j * NW_NA + i] = v;
        }
    for (i = 0; i < q->n * q->np; i++) {
        sa[i] = (uint8_t)(bench_rng_u32(rng) % NW_NA);
        sb[i] = bench_rng_u32(rng) % 10u < 3u ? (uint8_t)(bench_rng_u32(rng) % NW_NA) : sa[i];
    }
}

/* init = boundary row/column plus sentinel; ref = full recurrence, problem by problem */
static void make_matrices(const struct nwp *q, const uint8_t *sa, const uint8_t *sb,
                          const int32_t *sim, int32_t *init, int32_t *ref)
{
    size_t ld = q->ld;
    for (int p = 0; p < q->np; p++) {
        int32_t *m = init + (size_t)p * q->mat, *r = ref + (size_t)p * q->mat;
        const uint8_t *a = sa + (size_t)p * (size_t)q->n, *b = sb + (size_t)p * (size_t)q->n;
        for (size_t i = 0; i < ld; i++)
            for (size_t j = 0; j < ld; j++) {
                int32_t v;
                if (i == 0 || j == 0) {
                    v = -(int32_t)(i + j) * NW_GAP;
                    m[i * ld + j] = v;
                } else {
                    int32_t d = r[(i - 1) * ld + j - 1] + sim[a[i - 1] * NW_NA + b[j - 1]];
                    int32_t g = r[(i - 1) * ld + j] > r[i * ld + j - 1] ? r[(i - 1) * ld + j]
                                                                        : r[i * ld + j - 1];
                    v = d > g - NW_GAP ? d : g - NW_GAP;
                    m[i * ld + j] = NW_SENTINEL;
                }
                r[i * ld + j] = v;
            }
    }
}

static int launch_all(struct bench_ctx *ctx, struct gs_module *mod, const struct nwp *q,
                      uint64_t *dsc, uint64_t *dsa, uint64_t *dsb, uint64_t *dsim)
{
    int nt = q->n / NW_TS, n = q->n, gap = NW_GAP;
    for (int d = 0; d < 2 * nt - 1; d++) {
        int lo = d - (nt - 1) > 0 ? d - (nt - 1) : 0, hi = d < nt - 1 ? d : nt - 1;
        const struct gs_arg args[] = { GS_ARG(*dsc), GS_ARG(*dsa), GS_ARG(*dsb), GS_ARG(*dsim),
                                       GS_ARG(n), GS_ARG(d), GS_ARG(gap) };
        struct gs_dim3 grid = { (uint32_t)(hi - lo + 1), (uint32_t)q->np, 1 };
        struct gs_dim3 block = { NW_TS, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "nw_tile", grid, block, 0, args, 7),
                      "launch nw_tile"))
            return -1;
    }
    return 0;
}

static int nw_run(struct bench_ctx *ctx)
{
    struct nwp q;
    q.n = ctx->size == BENCH_TEST ? 64 : 384;
    q.np = ctx->size == BENCH_TEST ? 2 : 16;
    q.ld = (size_t)q.n + 1; q.mat = q.ld * q.ld;
    size_t seqb = (size_t)q.n * (size_t)q.np, matb = q.mat * (size_t)q.np * 4;
    uint8_t *sa = malloc(seqb), *sb = malloc(seqb);
    int32_t *sim = malloc(NW_NA * NW_NA * 4), *init = malloc(matb), *ref = malloc(matb);
    int32_t *got = malloc(matb);
    struct gs_module *mod = NULL;
    uint64_t dsc = 0, dsa = 0, dsb = 0, dsim = 0;
    struct bench_rng rng;
    int rc = -1;

    if (!sa || !sb || !sim || !init || !ref || !got)
        goto out;
    bench_rng_seed(&rng, 0x4E57);
    make_inputs(&q, sa, sb, sim, &rng);
    make_matrices(&q, sa, sb, sim, init, ref);
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dsc, matb), "malloc score") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dsa, seqb), "malloc seqa") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dsb, seqb), "malloc seqb") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dsim, NW_NA * NW_NA * 4), "malloc sim") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dsc, init, matb), "copy score") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dsa, sa, seqb), "copy seqa") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dsb, sb, seqb), "copy seqb") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dsim, sim, NW_NA * NW_NA * 4), "copy sim") ||
        launch_all(ctx, mod, &q, &dsc, &dsa, &dsb, &dsim) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dsc, matb), "copy score back"))
        goto out;
    rc = bench_check_i32(ctx, "score", got, ref, q.mat * (size_t)q.np) ? 1 : 0;
out:
    free(sa); free(sb); free(sim); free(init); free(ref); free(got);
    return rc;
}

const struct bench bench_nw = {
    "nw", "Needleman-Wunsch 32x32 tiles swept by anti-diagonals with barriers (intra-warp divergence + barriers)",
    nw_run, NULL, 0
};
