/*
 * nqueens host part: thread t counts the N-queens solutions whose first plen queens sit at
 * the base-N digits of t (most significant first); every thread's count is checked against
 * the same iterative bitmask search in C, and the total against the known solution count.
 * test: N=8, plen=3: 512 threads, 4 CTAs x 128 (92 solutions);
 * default: N=11, plen=5: 161,051 threads (7x a GTX480), 630 CTAs x 256, the last one partial
 * (2680 solutions). Most 5-queen prefixes attack themselves, so many lanes end at once while
 * others search thousands of nodes: strong intra-warp imbalance.
 */
#include <stdlib.h>
#include "bench.h"

#define NQ_MAXN 16

/* Place the prefix given by t's digits; 0 if it attacks itself. */
static int nq_prefix(int n, int plen, uint32_t t, uint32_t m[3])
{
    uint32_t all = (1u << n) - 1u, p = 1, col = 0, ld = 0, rd = 0;
    int r;
    for (r = 1; r < plen; r++)
        p *= (uint32_t)n;
    for (r = 0; r < plen; r++, p /= (uint32_t)n) {
        uint32_t bit = 1u << ((t / p) % (uint32_t)n);
        if ((col | ld | rd) & bit)
            return 0;
        col |= bit;
        ld = ((ld | bit) << 1) & all;
        rd = (rd | bit) >> 1;
    }
    m[0] = col; m[1] = ld; m[2] = rd;
    return 1;
}

/* Count the completions of the remaining rem rows (the kernel's explicit-stack search). */
static uint32_t nq_search(int n, int rem, const uint32_t m[3])
{
    uint32_t all = (1u << n) - 1u, sc[NQ_MAXN], sl[NQ_MAXN], sr[NQ_MAXN], sa[NQ_MAXN], cnt = 0;
    int d = 0;
    if (rem == 0)
        return 1;
    sc[0] = m[0]; sl[0] = m[1]; sr[0] = m[2];
    sa[0] = all & ~(m[0] | m[1] | m[2]);
    while (d >= 0) {
        uint32_t a = sa[d], bit, c, l, r;
        if (a == 0) {
            d--;
            continue;
        }
        bit = a & (0u - a);
        sa[d] = a ^ bit;
        if (d == rem - 1) {
            cnt++;
            continue;
        }
        c = sc[d] | bit; l = ((sl[d] | bit) << 1) & all; r = (sr[d] | bit) >> 1;
        d++;
        sc[d] = c; sl[d] = l; sr[d] = r;
        sa[d] = all & ~(c | l | r);
    }
    return cnt;
}

static int nq_launch(struct bench_ctx *ctx, struct gs_module *mod, int n, int plen,
                     uint32_t nthreads, uint64_t dcounts, uint32_t block)
{
    const struct gs_arg args[] = { GS_ARG(n), GS_ARG(plen), GS_ARG(nthreads), GS_ARG(dcounts) };
    struct gs_dim3 grid = { (nthreads + block - 1) / block, 1, 1 }, blk = { block, 1, 1 };
    return bench_api(ctx, gs_launch(ctx->gpu, mod, "nqueens", grid, blk, 0, args, 4), "launch");
}

static int nq_run(struct bench_ctx *ctx)
{
    int test = ctx->size == BENCH_TEST;
    int n = test ? 8 : 11, plen = test ? 3 : 5, i;
    uint32_t block = test ? 128 : 256, known = test ? 92 : 2680, nthreads = 1, t, total = 0;
    uint32_t *got = NULL, *ref = NULL, m[3];
    struct gs_module *mod = NULL;
    uint64_t dcounts = 0, bytes;
    int rc = -1;

    for (i = 0; i < plen; i++)
        nthreads *= (uint32_t)n;
    bytes = (uint64_t)nthreads * 4;
    got = malloc((size_t)bytes);
    ref = malloc((size_t)bytes);
    if (!got || !ref)
        goto out;
    for (t = 0; t < nthreads; t++) {
        ref[t] = nq_prefix(n, plen, t, m) ? nq_search(n, n - plen, m) : 0;
        total += ref[t];
    }
    if (total != known) {            /* the reference itself is wrong: say so, do not run */
        bench_fail(ctx, "C reference counts %u solutions for N=%d, expected %u", total, n, known);
        rc = 1;
        goto out;
    }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dcounts, bytes), "malloc counts") ||
        bench_api(ctx, gs_memset(ctx->gpu, dcounts, 0xff, bytes), "clear counts") ||
        nq_launch(ctx, mod, n, plen, nthreads, dcounts, block) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dcounts, bytes), "copy counts"))
        goto out;
    rc = bench_check_u32(ctx, "counts", got, ref, nthreads) ? 1 : 0;
out:
    free(got); free(ref);
    return rc;
}

const struct bench bench_nqueens = {
    "nqueens", "N-queens backtracking per prefix: data-dependent branchy search, local-mem stack",
    nq_run, NULL, 0
};
