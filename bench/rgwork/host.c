/*
 * rgwork host part: four kernels of one PTX (bench/rgwork/kernel.cu), outside the suite,
 * for the thread regrouping report (001_8bf4399a5d1562fa.txt Section VII): the same
 * per-thread work under four distributions over the thread ids.
 *   rgwork_rand     trip counts uniform in 0..255, either path at random: regrouping
 *                   sorts lanes by work (the paper's case: gain ~ max/mean per warp);
 *   rgwork_bimodal  one thread in eight heavy (256 iterations, either path), the rest 16 on
 *                   path 0: almost every warp waits for a heavy lane -- the strongest case;
 *   rgwork_alt      odd threads 192 iterations, even 16, the path alternating in pairs: every
 *                   warp is half heavy, regrouping halves the heavy warps;
 *   rgwork_sorted   trip counts rising with the thread id, one path: already grouped, so
 *                   regrouping can only cost (the extra load and broken coalescing of
 *                   reference redirection).
 * The host part applies a data-layout order (ctx->layout, BENCH_LAYOUT): work and seed are
 * gathered into slot order before the launch and out scattered back after it; every output
 * is checked exactly against the C reference in the original order.
 * test: 4096 threads (32 CTAs of 128); default: 65536 (512 CTAs, ~4 GTX480 fills).
 */
/* bench-extra: rgwork_rand rgwork_bimodal rgwork_alt rgwork_sorted */
#include <stdlib.h>
#include "bench.h"

#define BLOCK 128
enum dist { RAND, BIMODAL, ALT, SORTED };

static uint32_t rg_ref(uint32_t w, uint32_t h)
{
    uint32_t k = w & 0xffffu;
    for (uint32_t j = 0; j < k; j++) {
        if (w & 0x10000u) {
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
            h += j;
        } else {
            h = h * 1664525u + 1013904223u;
        }
    }
    return h;
}

static uint32_t work_of(enum dist d, uint32_t i, uint32_t n, struct bench_rng *r)
{
    uint32_t x = bench_rng_u32(r);
    switch (d) {
    case RAND:    return (x & 0xffu) | ((x >> 8) & 1u) << 16;
    case BIMODAL: return (x & 7u) == 0 ? 256u | ((x >> 3) & 1u) << 16 : 16u;
    case ALT:     return (i & 1u) ? 192u | ((i >> 1) & 1u) << 16 : 16u | ((i >> 1) & 1u) << 16;
    default:      return 16u + (uint32_t)((uint64_t)240 * i / n);
    }
}

/* 001 equation (1)'s input variables of thread i: its trip count, its path, and their
   product (the path-1 body's count; a linear model needs it named). */
static void note_inputs(struct bench_ctx *ctx, const uint32_t *w, uint32_t n)
{
    static const char *const names[3] = {"k", "path", "k*path"};
    double *v;
    if (!ctx->inputs || !(v = calloc((size_t)n * 3, sizeof *v)))
        return;
    for (uint32_t i = 0; i < n; i++) {
        v[i * 3] = w[i] & 0xffffu;
        v[i * 3 + 1] = w[i] >> 16;
        v[i * 3 + 2] = v[i * 3] * v[i * 3 + 1];
    }
    bench_note_inputs(ctx, 3, names, n, v);
    free(v);
}

/* Gather, launch, scatter: out in the original order. */
static int rg_device(struct bench_ctx *ctx, const uint32_t *w, const uint32_t *s, uint32_t *out,
                     uint32_t *tmp, int n)
{
    uint64_t d[3] = {0, 0, 0};
    size_t b = (size_t)n * 4;
    struct gs_module *mod = NULL;
    int rc = -1, err;
    const uint32_t *perm = bench_layout_perm(ctx, 0, (uint64_t)n, &err);
    if (err || bench_load(ctx, &mod))
        return -1;
    for (int i = 0; i < 3; i++)
        if (bench_api(ctx, gs_malloc(ctx->gpu, &d[i], b), "malloc"))
            goto out;
    bench_gather(tmp, w, 4, perm, (uint64_t)n);
    if (bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], tmp, b), "copy work"))
        goto out;
    bench_gather(tmp, s, 4, perm, (uint64_t)n);
    if (bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], tmp, b), "copy seed"))
        goto out;
    {
        const struct gs_arg args[] = {GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(n)};
        struct gs_dim3 grid = {(uint32_t)n / BLOCK, 1, 1}, block = {BLOCK, 1, 1};
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "rgwork", grid, block, 0, args, 4),
                      "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, tmp, d[2], b), "copy out"))
            goto out;
    }
    bench_scatter(out, tmp, 4, perm, (uint64_t)n);
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int rg_run(struct bench_ctx *ctx, enum dist d)
{
    uint32_t n = ctx->size == BENCH_TEST ? 4096 : 65536;
    uint32_t *w = malloc(n * 4), *s = malloc(n * 4), *out = malloc(n * 4);
    uint32_t *ref = malloc(n * 4), *tmp = malloc(n * 4);
    struct bench_rng rng;
    int rc = -1;
    if (!w || !s || !out || !ref || !tmp)
        goto done;
    bench_rng_seed(&rng, 41 + (uint64_t)d);
    for (uint32_t i = 0; i < n; i++) {
        w[i] = work_of(d, i, n, &rng);
        s[i] = bench_rng_u32(&rng);
        ref[i] = rg_ref(w[i], s[i]);
    }
    note_inputs(ctx, w, n);
    rc = rg_device(ctx, w, s, out, tmp, (int)n);
    if (rc == 0)
        rc = bench_check_u32(ctx, "out", out, ref, n) ? 1 : 0;
done:
    free(w); free(s); free(out); free(ref); free(tmp);
    return rc;
}

static int rg_rand(struct bench_ctx *ctx) { return rg_run(ctx, RAND); }
static int rg_bimodal(struct bench_ctx *ctx) { return rg_run(ctx, BIMODAL); }
static int rg_alt(struct bench_ctx *ctx) { return rg_run(ctx, ALT); }
static int rg_sorted(struct bench_ctx *ctx) { return rg_run(ctx, SORTED); }

const struct bench bench_rgwork_rand = {
    "rgwork_rand", "per-thread work uniform in 0..255 iterations, two paths at random "
    "(regrouping: sorts lanes by work)", rg_rand, "rgwork", BENCH_LAYOUT
};
const struct bench bench_rgwork_bimodal = {
    "rgwork_bimodal", "one thread in eight heavy (256 iterations), the rest 16 "
    "(regrouping: the strongest case)", rg_bimodal, "rgwork", BENCH_LAYOUT
};
const struct bench bench_rgwork_alt = {
    "rgwork_alt", "odd threads 192 iterations, even 16, paths alternating in pairs "
    "(regrouping: halves the heavy warps)", rg_alt, "rgwork", BENCH_LAYOUT
};
const struct bench bench_rgwork_sorted = {
    "rgwork_sorted", "work rising with the thread id, one path: already grouped "
    "(regrouping can only cost)", rg_sorted, "rgwork", BENCH_LAYOUT
};
