/*
 * bstsearch host part: a binary search tree over the even keys 0, 2, ..., 2(n-1).  The key
 * space is cut into blocks of B consecutive keys; ~10% of the blocks are "chains": inserted
 * in ascending order after all the other keys (in random order), so each hangs a right-going
 * chain of up to B nodes below a leaf (two adjacent chain blocks make a longer one).  Depths:
 * mostly ~20, tail to ~200 in the default size.  Queries are random keys in [0, 2n): even
 * ones hit, odd ones miss.  Every query's value and visit count is checked against a C walk.
 * test: 4096 nodes, 2048 queries on 4 CTAs x 256 (2 queries per thread);
 * default: 65536 nodes, 262144 - 7 queries on 512 CTAs x 256.
 */
#include <stdlib.h>
#include "bench.h"

struct bst { int32_t *node; int n; };        /* node[4*i + {0,1,2,3}] = key, left, right, val */

static void bst_insert(struct bst *t, int i, int32_t key, int32_t val)
{
    int32_t *nd = t->node + 4 * i;
    nd[0] = key; nd[1] = -1; nd[2] = -1; nd[3] = val;
    if (i == 0)
        return;
    for (int c = 0;;) {
        int32_t *link = t->node + 4 * c + (key < t->node[4 * c] ? 1 : 2);
        if (*link < 0) {
            *link = i;
            return;
        }
        c = *link;
    }
}

static int build_tree(struct bst *t, int n, int blk, struct bench_rng *rng)
{
    int32_t *order = malloc((size_t)n * sizeof(int32_t));
    int ns = 0, nc = 0, b, i;
    if (!order)
        return -1;
    /* scattered keys from the front, chain blocks from the back (in ascending order) */
    for (b = 0; b * blk < n; b++) {
        int lo = b * blk, hi = lo + blk < n ? lo + blk : n, chain = bench_rng_u32(rng) % 100u < 10u;
        for (i = lo; i < hi; i++) {
            if (chain)
                order[n - 1 - nc++] = i;
            else
                order[ns++] = i;
        }
    }
    for (i = ns - 1; i > 0; i--) {               /* shuffle the scattered part */
        int j = (int)(bench_rng_u32(rng) % (uint32_t)(i + 1));
        int32_t x = order[i]; order[i] = order[j]; order[j] = x;
    }
    for (i = 0; i < nc / 2; i++) {               /* chain part was filled backwards */
        int32_t x = order[ns + i]; order[ns + i] = order[n - 1 - i]; order[n - 1 - i] = x;
    }
    t->n = n;
    for (i = 0; i < n; i++)
        bst_insert(t, i, 2 * order[i], (int32_t)(bench_rng_u32(rng) & 0x7fffffff));
    free(order);
    return 0;
}

static void ref_search(const struct bst *t, int32_t key, int32_t *val, int32_t *depth)
{
    int c = 0, d = 0;
    *val = -1;
    while (c >= 0) {
        const int32_t *nd = t->node + 4 * c;
        d++;
        if (nd[0] == key) {
            *val = nd[3];
            break;
        }
        c = key < nd[0] ? nd[1] : nd[2];
    }
    *depth = d;
}

static int bstsearch_run(struct bench_ctx *ctx)
{
    int test = ctx->size == BENCH_TEST;
    int n = test ? 4096 : 65536, nq = test ? 2048 : 262144 - 7, nctas = test ? 4 : 512;
    struct bst t = { malloc((size_t)n * 16), 0 };
    int32_t *q = malloc((size_t)nq * 4), *gv = malloc((size_t)nq * 4), *gd = malloc((size_t)nq * 4);
    int32_t *rv = malloc((size_t)nq * 4), *rd = malloc((size_t)nq * 4);
    struct gs_module *mod = NULL;
    uint64_t dn = 0, dq = 0, dv = 0, dd = 0;
    struct bench_rng rng;
    int rc = -1, i;

    if (!t.node || !q || !gv || !gd || !rv || !rd)
        goto out;
    bench_rng_seed(&rng, 0xB57);
    if (build_tree(&t, n, test ? 32 : 96, &rng))
        goto out;
    for (i = 0; i < nq; i++) {
        q[i] = (int32_t)(bench_rng_u32(&rng) % (uint32_t)(2 * n));
        ref_search(&t, q[i], &rv[i], &rd[i]);
    }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dn, (uint64_t)n * 16), "malloc nodes") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dq, (uint64_t)nq * 4), "malloc queries") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dv, (uint64_t)nq * 4), "malloc values") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dd, (uint64_t)nq * 4), "malloc depths") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dn, t.node, (uint64_t)n * 16), "copy nodes") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dq, q, (uint64_t)nq * 4), "copy queries"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(dn), GS_ARG(dq), GS_ARG(dv), GS_ARG(dd), GS_ARG(nq) };
        struct gs_dim3 grid = { (uint32_t)nctas, 1, 1 }, block = { 256, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "bst_search", grid, block, 0, args, 5),
                      "launch bst_search") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, gv, dv, (uint64_t)nq * 4), "copy values") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, gd, dd, (uint64_t)nq * 4), "copy depths"))
            goto out;
    }
    rc = (bench_check_i32(ctx, "value", gv, rv, (size_t)nq) +
          bench_check_i32(ctx, "depth", gd, rd, (size_t)nq)) ? 1 : 0;
out:
    free(t.node); free(q); free(gv); free(gd); free(rv); free(rd);
    return rc;
}

const struct bench bench_bstsearch = {
    "bstsearch", "key look-ups in an unbalanced array-stored BST (instruction + cycle divergence)",
    bstsearch_run, NULL, 0
};
