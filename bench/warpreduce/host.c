/*
 * warpreduce host part: warp shuffles and votes, every per-warp and per-thread output checked.
 * Inputs: ints uniform in [-1000, 1000] (so "any > 900" and "all > -900" are both mixed
 * across warps). Per warp (8 words): shfl-down sum, xor-butterfly max, ballot(odd),
 * any(v > 900), all(v > -900), the active mask inside `if (odd)`, the ballot(v > 0) over that
 * mask, and the value of its lowest lane. Per thread: inclusive shfl-up scan and the total.
 * Lanes past n count as value 0, not odd, not active in the region (the kernel's rule).
 * test: 4 CTAs x 256, n = 979 (warp 30 partly valid, warp 31 not at all);
 * default: 1024 CTAs x 256 threads (262,144: 11x a GTX480), n = 262,144 - 45.
 */
#include <stdlib.h>
#include "bench.h"

#define WR_BLOCK 256u
#define WR_WORDS 8u     /* outputs per warp */

/* The reference for the warp starting at element base: its 8 words w, and t[2*i], t[2*i+1]
   for each of its valid threads i. */
static void wr_ref_warp(const int32_t *in, uint32_t n, uint32_t base, uint32_t *w, int32_t *t)
{
    int32_t sum = 0, mx = INT32_MIN, scan = 0, first = 0;
    uint32_t odd = 0, pos = 0, lane;
    int any = 0, all = 1, have_first = 0;

    for (lane = 0; lane < 32; lane++) {
        uint32_t i = base + lane;
        int32_t v;
        if (i >= n)
            continue;
        v = in[i];
        sum += v;
        mx = v > mx ? v : mx;
        any |= v > 900;
        all &= v > -900;
        if (v & 1) {
            odd |= 1u << lane;
            pos |= (uint32_t)(v > 0) << lane;
            if (!have_first)
                first = v, have_first = 1;
        }
    }
    for (lane = 0; lane < 32 && base + lane < n; lane++) {
        scan += in[base + lane];
        t[2 * (base + lane)] = scan;
        t[2 * (base + lane) + 1] = sum;
    }
    w[0] = (uint32_t)sum; w[1] = (uint32_t)mx; w[2] = odd; w[3] = (uint32_t)any;
    w[4] = (uint32_t)all; w[5] = odd; w[6] = pos; w[7] = (uint32_t)first;
}

static int wr_launch(struct bench_ctx *ctx, struct gs_module *mod, uint64_t din, uint32_t n,
                     uint64_t dw, uint64_t dt, uint32_t ctas)
{
    int ni = (int)n;
    const struct gs_arg args[] = { GS_ARG(din), GS_ARG(ni), GS_ARG(dw), GS_ARG(dt) };
    struct gs_dim3 grid = { ctas, 1, 1 }, block = { WR_BLOCK, 1, 1 };
    return bench_api(ctx, gs_launch(ctx->gpu, mod, "warpreduce", grid, block, 0, args, 4),
                     "launch");
}

static int wr_run(struct bench_ctx *ctx)
{
    uint32_t ctas = ctx->size == BENCH_TEST ? 4 : 1024;
    uint32_t n = ctas * WR_BLOCK - 45, warps = ctas * WR_BLOCK / 32, k;
    size_t wbytes = (size_t)warps * WR_WORDS * 4, tbytes = (size_t)n * 2 * 4;
    int32_t *in = malloc((size_t)n * 4), *tgot = malloc(tbytes), *tref = malloc(tbytes);
    uint32_t *wgot = malloc(wbytes), *wref = malloc(wbytes);
    struct gs_module *mod = NULL;
    uint64_t din = 0, dw = 0, dt = 0;
    struct bench_rng rng;
    uint64_t bad;
    int rc = -1;

    if (!in || !tgot || !tref || !wgot || !wref)
        goto out;
    bench_rng_seed(&rng, 4);
    for (k = 0; k < n; k++)
        in[k] = (int32_t)(bench_rng_u32(&rng) % 2001u) - 1000;
    for (k = 0; k < warps; k++)
        wr_ref_warp(in, n, 32 * k, wref + WR_WORDS * k, tref);
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &din, (uint64_t)n * 4), "malloc in") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dw, wbytes), "malloc wout") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dt, tbytes), "malloc tout") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, din, in, (uint64_t)n * 4), "copy in") ||
        bench_api(ctx, gs_memset(ctx->gpu, dw, 0xa5, wbytes), "clear wout") ||
        bench_api(ctx, gs_memset(ctx->gpu, dt, 0xa5, tbytes), "clear tout") ||
        wr_launch(ctx, mod, din, n, dw, dt, ctas) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, wgot, dw, wbytes), "copy wout") ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, tgot, dt, tbytes), "copy tout"))
        goto out;
    bad = bench_check_u32(ctx, "wout", wgot, wref, (size_t)warps * WR_WORDS);
    bad += bench_check_i32(ctx, "tout", tgot, tref, (size_t)n * 2);
    rc = bad ? 1 : 0;
out:
    free(in); free(tgot); free(tref); free(wgot); free(wref);
    return rc;
}

const struct bench bench_warpreduce = {
    "warpreduce", "warp shuffles (up/down/xor/idx) and votes, active mask in a divergent region",
    wr_run, NULL, 0
};
