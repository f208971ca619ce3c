/*
 * smithwat host part: 64 queries of 4..12 residues and one target of 4..24 residues per pair
 * (half of them carrying a mutated copy of their query, so scores spread out), 2-bit packed.
 * Every pair's local-alignment score is checked exactly against the textbook O(mn) DP.
 * test: 500 pairs -> 4 CTAs of 128 threads (tail);
 * default: 92160 pairs -> 720 CTAs (4 GTX480 fills).
 *
 * Data layout (001 Section VI-B, as 001 regroups its SW; ctx->layout, BENCH_LAYOUT): thread
 * slot p works on pair D[p] because the host moves that pair's data to slot p -- its target
 * and length, and its query (pair q's query is query q mod NQ, shared by many pairs: it is
 * copied to every slot, and the kernel's nq argument set to the grid's threads so that the
 * kernel, unchanged, reads slot p's copy). Every slot runs (npairs = the grid's threads; a
 * slot past the last pair gets an empty pair), and the scores are scattered back to pair
 * order.
 */
#include <stdlib.h>
#include "bench.h"

#define NQ 64
#define QMIN 4
#define QMAX 12
#define TMIN 4
#define TMAX 24
#define MATCH 2
#define MISMATCH 1
#define GAP 1

static int imax(int a, int b) { return a > b ? a : b; }

static int sw_ref(const int *a, int m, const int *b, int n)
{
    int H[QMAX + 1] = { 0 }, best = 0;
    for (int j = 0; j < n; j++) {
        int diag = 0, up = 0;
        for (int i = 1; i <= m; i++) {
            int left = H[i];
            int h = diag + (a[i - 1] == b[j] ? MATCH : -MISMATCH);
            h = imax(imax(imax(h, left - GAP), up - GAP), 0);
            diag = left;
            up = h;
            H[i] = h;
            best = imax(best, h);
        }
    }
    return best;
}

/* Target residues: random, but half the targets embed their query with ~1/8 substitutions. */
static void make_target(int *t, int n, const int *q, int m, struct bench_rng *rng)
{
    for (int j = 0; j < n; j++)
        t[j] = (int)(bench_rng_u32(rng) & 3);
    if (bench_rng_u32(rng) & 1) {
        int at = (int)(bench_rng_u32(rng) % (uint32_t)n);
        for (int i = 0; i < m && at + i < n; i++)
            t[at + i] = (bench_rng_u32(rng) & 7) ? q[i] : (int)(bench_rng_u32(rng) & 3);
    }
}

/* 001 equation (1)'s input variables of thread p (its pair): the query and target lengths
   and their product (the DP's cell count; a linear model needs it named). */
static void note_inputs(struct bench_ctx *ctx, const int *ql, const int *tl, int npairs,
                        uint32_t nthreads)
{
    static const char *const names[3] = {"qlen", "tlen", "qlen*tlen"};
    double *v;
    if (!ctx->inputs || !(v = calloc((size_t)nthreads * 3, sizeof *v)))
        return;
    for (int p = 0; p < npairs; p++) {
        v[p * 3] = ql[p % NQ];
        v[p * 3 + 1] = tl[p];
        v[p * 3 + 2] = (double)ql[p % NQ] * tl[p];
    }
    bench_note_inputs(ctx, 3, names, nthreads, v);
    free(v);
}

/* The launch's data: the original's (nq = NQ queries), or the data layout's (slot order, a
   query per slot). */
struct sw_data {
    const uint32_t *qp;
    const int *ql;
    const uint64_t *tp;
    const int *tl;
    int npairs, nq;
    const int *tl0;             /* the original's target lengths, for note_inputs */
};

static int sw_device(struct bench_ctx *ctx, const struct sw_data *x, const int *ql0,
                     int *score, int npairs0)
{
    const uint32_t *qp = x->qp;
    const int *ql = x->ql, *tl = x->tl;
    const uint64_t *tp = x->tp;
    int npairs = x->npairs;
    size_t pb = (size_t)npairs * 4, qb = (size_t)x->nq * 4;
    uint64_t d[5] = { 0, 0, 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1, nq = x->nq;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], qb), "malloc qseq") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], qb), "malloc qlen") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], pb * 2), "malloc tseq") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[3], pb), "malloc tlen") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[4], pb), "malloc score") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], qp, qb), "copy qseq") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], ql, qb), "copy qlen") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[2], tp, pb * 2), "copy tseq") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[3], tl, pb), "copy tlen"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(d[3]),
                                       GS_ARG(d[4]), GS_ARG(npairs), GS_ARG(nq) };
        struct gs_dim3 grid = { (uint32_t)(npairs + 127) / 128, 1, 1 }, block = { 128, 1, 1 };
        note_inputs(ctx, ql0, x->tl0, npairs0, grid.x * 128);
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "smithwat", grid, block, 0, args, 7),
                      "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, score, d[4], pb), "copy score"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 5; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

/* The data layout of order perm over nthr slots: slot p's query, target and lengths are pair
   perm[p]'s (empty past the last pair), nq = nthr. 0, or -1 out of memory. */
static int sw_layout(const uint32_t *qp, const int *ql, const uint64_t *tp, const int *tl,
                     int npairs, const uint32_t *perm, int nthr, struct sw_data *x)
{
    uint32_t *q2 = calloc((size_t)nthr, 4);
    int *l2 = calloc((size_t)nthr, 4), *t2 = calloc((size_t)nthr, 4);
    uint64_t *s2 = calloc((size_t)nthr, 8);
    if (!q2 || !l2 || !t2 || !s2) {
        free(q2); free(l2); free(t2); free(s2);
        return -1;
    }
    for (int p = 0; p < nthr; p++) {
        int k = (int)perm[p];
        if (k >= npairs)
            continue;
        q2[p] = qp[k % NQ];
        l2[p] = ql[k % NQ];
        s2[p] = tp[k];
        t2[p] = tl[k];
    }
    *x = (struct sw_data){q2, l2, s2, t2, nthr, nthr, tl};
    return 0;
}

/* Launch in the original order or, with a data layout, in slot order (scores scattered back
   to pair order). */
static int sw_launch(struct bench_ctx *ctx, const uint32_t *qp, const int *ql,
                     const uint64_t *tp, const int *tl, int *score, int npairs)
{
    int nthr = (npairs + 127) / 128 * 128, err, rc, *s2;
    const uint32_t *perm = bench_layout_perm(ctx, 0, (uint64_t)nthr, &err);
    struct sw_data x = {qp, ql, tp, tl, npairs, NQ, tl};
    if (err)
        return -1;
    if (!perm)
        return sw_device(ctx, &x, ql, score, npairs);
    if (!(s2 = malloc((size_t)nthr * 4)) || sw_layout(qp, ql, tp, tl, npairs, perm, nthr, &x)) {
        free(s2);
        bench_fail(ctx, "data layout: out of memory");
        return -1;
    }
    rc = sw_device(ctx, &x, ql, s2, npairs);
    for (int p = 0; rc == 0 && p < nthr; p++)
        if ((int)perm[p] < npairs)
            score[perm[p]] = s2[p];
    free((void *)x.qp); free((void *)x.ql); free((void *)x.tp); free((void *)x.tl);
    free(s2);
    return rc;
}

static int smithwat_run(struct bench_ctx *ctx)
{
    int npairs = ctx->size == BENCH_TEST ? 500 : 92160;
    int q[NQ][QMAX], ql[NQ], t[TMAX];
    uint32_t qp[NQ];
    uint64_t *tp = malloc((size_t)npairs * 8);
    int *tl = malloc((size_t)npairs * 4), *score = malloc((size_t)npairs * 4);
    int *ref = malloc((size_t)npairs * 4);
    struct bench_rng rng;
    int rc = -1;

    if (!tp || !tl || !score || !ref)
        goto done;
    bench_rng_seed(&rng, 18);
    for (int k = 0; k < NQ; k++) {
        ql[k] = QMIN + (int)(bench_rng_u32(&rng) % (QMAX - QMIN + 1));
        qp[k] = 0;
        for (int i = 0; i < ql[k]; i++) {
            q[k][i] = (int)(bench_rng_u32(&rng) & 3);
            qp[k] |= (uint32_t)q[k][i] << (2 * i);
        }
    }
    for (int p = 0; p < npairs; p++) {
        int k = p % NQ;
        tl[p] = TMIN + (int)(bench_rng_u32(&rng) % (TMAX - TMIN + 1));
        make_target(t, tl[p], q[k], ql[k], &rng);
        tp[p] = 0;
        for (int j = 0; j < tl[p]; j++)
            tp[p] |= (uint64_t)t[j] << (2 * j);
        ref[p] = sw_ref(q[k], ql[k], t, tl[p]);
    }
    rc = sw_launch(ctx, qp, ql, tp, tl, score, npairs);
    if (rc == 0)
        rc = bench_check_i32(ctx, "score", score, ref, (size_t)npairs) ? 1 : 0;
done:
    free(tp); free(tl); free(score); free(ref);
    return rc;
}

const struct bench bench_smithwat = {
    "smithwat", "Smith-Waterman score per (query, target) pair, lengths differ per thread, DP "
    "column in local memory (per-thread data-dependent work)", smithwat_run, NULL, BENCH_LAYOUT
};
