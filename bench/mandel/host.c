/*
 * mandel host part: escape-time counts of a W x H view of the Mandelbrot set
 * (x in [-2.2, 1.0), y from -1.2), maxit 256, every pixel checked exactly against a C
 * reference doing the same binary32 operations in the same order as the kernel's _rn
 * intrinsics.  The reference is compiled with fp-contract off so gcc can never fuse a
 * multiply and add into an fma (which would change the rounding) even when the target has
 * FMA; x86-64 evaluates float in SSE binary32 (FLT_EVAL_METHOD 0), no excess precision.
 * test: 64 x 32 pixels (2 x 4 CTAs of 32 x 8); default: 512 x 384 (16 x 48 CTAs).
 */
#include <stdlib.h>
#include "bench.h"

struct mview { int w, h, maxit; float x0, y0, dx; };

__attribute__((optimize("fp-contract=off")))
static uint32_t ref_pixel(const struct mview *v, int px, int py)
{
    float cr = v->x0 + (float)px * v->dx, ci = v->y0 + (float)py * v->dx;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < v->maxit) {
        float zr2 = zr * zr, zi2 = zi * zi, t;
        if (zr2 + zi2 > 4.0f)
            break;
        t = zr * zi;
        zi = (t + t) + ci;
        zr = (zr2 - zi2) + cr;
        it++;
    }
    return (uint32_t)it;
}

static int mandel_run(struct bench_ctx *ctx)
{
    struct mview v = ctx->size == BENCH_TEST ? (struct mview){ 64, 32, 256, -2.2f, -1.2f, 0.05f }
                                             : (struct mview){ 512, 384, 256, -2.2f, -1.2f, 0.00625f };
    size_t n = (size_t)v.w * (size_t)v.h;
    uint32_t *got = malloc(n * 4), *ref = malloc(n * 4);
    struct gs_module *mod = NULL;
    uint64_t dout = 0;
    int rc = -1;

    if (!got || !ref)
        goto out;
    for (int py = 0; py < v.h; py++)
        for (int px = 0; px < v.w; px++)
            ref[(size_t)py * (size_t)v.w + (size_t)px] = ref_pixel(&v, px, py);
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dout, n * 4), "malloc out"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(dout), GS_ARG(v.w), GS_ARG(v.h), GS_ARG(v.x0),
                                       GS_ARG(v.y0), GS_ARG(v.dx), GS_ARG(v.maxit) };
        struct gs_dim3 grid = { (uint32_t)(v.w + 31) / 32, (uint32_t)(v.h + 7) / 8, 1 };
        struct gs_dim3 block = { 32, 8, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "mandel", grid, block, 0, args, 7),
                      "launch mandel") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dout, n * 4), "copy out"))
            goto out;
    }
    rc = bench_check_u32(ctx, "iterations", got, ref, n) ? 1 : 0;
out:
    free(got); free(ref);
    return rc;
}

const struct bench bench_mandel = {
    "mandel", "Mandelbrot escape-time counts, per-pixel loop trip counts 1..256 (instruction + cycle divergence)",
    mandel_run, NULL, 0
};
