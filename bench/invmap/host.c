/*
 * invmap host part: a source image of random 20-bit pixels, an output image of the same size
 * remapped through the swirl + pincushion map of kernel.cu (swirl radius 0.5, tw = 6, lens
 * k = 0.2: about a quarter of the pixels, near the corners, fall outside the source).  Every
 * output pixel is checked exactly against a C reference doing the same binary32 operations in
 * the same order (compiled with fp-contract off so gcc cannot fuse them; '/' and sqrt-free
 * arithmetic are correctly rounded on both sides; floorf matches cvt.rmi).
 * test: 64 x 48 (2 x 6 CTAs of 32 x 8); default: 1024 x 768 (32 x 96 CTAs).
 */
#include <math.h>
#include <stdlib.h>
#include "bench.h"

struct imap { int w, h, ws, hs; float cx, cy, sc, tw, rs2, k, hsc, csx, csy; };

__attribute__((optimize("fp-contract=off")))
static uint32_t ref_pixel(const struct imap *m, const uint32_t *src, int x, int y)
{
    float u = ((float)x - m->cx) * m->sc, v = ((float)y - m->cy) * m->sc;
    float r2 = u * u + v * v;
    float t = m->tw * fmaxf(0.0f, m->rs2 - r2);
    float t2 = t * t, den = 1.0f + t2;
    float c = (1.0f - t2) / den, s = (t + t) / den;
    float f = 1.0f + m->k * r2;
    float su = (c * u - s * v) * f, sv = (s * u + c * v) * f;
    float sx = su * m->hsc + m->csx, sy = sv * m->hsc + m->csy;
    if (sx >= 0.0f && sx < (float)(m->ws - 1) && sy >= 0.0f && sy < (float)(m->hs - 1)) {
        const uint32_t *p = src + (size_t)floorf(sy) * (size_t)m->ws + (size_t)floorf(sx);
        return p[0] + p[1] + p[m->ws] + p[m->ws + 1];
    }
    return ((x >> 4) ^ (y >> 4)) & 1 ? 0xFFFFu : 0xFFFEu;
}

static void init_map(struct imap *m, int w, int h)
{
    m->w = w; m->h = h; m->ws = w; m->hs = h;
    m->cx = (float)(w - 1) * 0.5f; m->cy = (float)(h - 1) * 0.5f; m->sc = 2.0f / (float)w;
    m->tw = 6.0f; m->rs2 = 0.25f; m->k = 0.2f;
    m->hsc = (float)m->ws * 0.5f; m->csx = (float)(m->ws - 1) * 0.5f; m->csy = (float)(m->hs - 1) * 0.5f;
}

static int invmap_run(struct bench_ctx *ctx)
{
    struct imap m;
    size_t ns, no;
    uint32_t *src = NULL, *got = NULL, *ref = NULL;
    struct gs_module *mod = NULL;
    uint64_t dsrc = 0, dout = 0;
    struct bench_rng rng;
    int rc = -1, x, y;

    init_map(&m, ctx->size == BENCH_TEST ? 64 : 1024, ctx->size == BENCH_TEST ? 48 : 768);
    ns = (size_t)m.ws * (size_t)m.hs; no = (size_t)m.w * (size_t)m.h;
    src = malloc(ns * 4); got = malloc(no * 4); ref = malloc(no * 4);
    if (!src || !got || !ref)
        goto out;
    bench_rng_seed(&rng, 0x1A7);
    for (size_t i = 0; i < ns; i++)
        src[i] = bench_rng_u32(&rng) & 0xFFFFFu;
    for (y = 0; y < m.h; y++)
        for (x = 0; x < m.w; x++)
            ref[(size_t)y * (size_t)m.w + (size_t)x] = ref_pixel(&m, src, x, y);
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dsrc, ns * 4), "malloc src") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dout, no * 4), "malloc out") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dsrc, src, ns * 4), "copy src"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(dsrc), GS_ARG(dout), GS_ARG(m.w), GS_ARG(m.h),
                                       GS_ARG(m.ws), GS_ARG(m.hs), GS_ARG(m.cx), GS_ARG(m.cy),
                                       GS_ARG(m.sc), GS_ARG(m.tw), GS_ARG(m.rs2), GS_ARG(m.k),
                                       GS_ARG(m.hsc), GS_ARG(m.csx), GS_ARG(m.csy) };
        struct gs_dim3 grid = { (uint32_t)(m.w + 31) / 32, (uint32_t)(m.h + 7) / 8, 1 };
        struct gs_dim3 block = { 32, 8, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "invmap", grid, block, 0, args, 15),
                      "launch invmap") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dout, no * 4), "copy out"))
            goto out;
    }
    rc = bench_check_u32(ctx, "pixel", got, ref, no) ? 1 : 0;
out:
    free(src); free(got); free(ref);
    return rc;
}

const struct bench bench_invmap = {
    "invmap", "inverse image map (swirl + lens) with 2x2 gathers, out-of-range border path (cycle divergence)",
    invmap_run, NULL, 0
};
