/*
 * stereo host part: a textured left image with some flat (textureless) patches, a ground-truth
 * disparity map constant on 24 x 16 tiles (0..20), the right image made by shifting the left one
 * by it plus noise -2..2, and per-pixel search ranges of 1..17 disparities that usually but not
 * always contain the true one.  Every pixel's chosen disparity and cost are checked exactly.
 * test: 40 x 20 image -> 3 x 3 CTAs of 16 x 8 (tails in both dimensions);
 * default: 384 x 256 image -> 24 x 32 = 768 CTAs (98304 threads, 4.3 GTX480 fills).
 */
#include <stdlib.h>
#include "bench.h"

#define DMAX 24
#define THRESH 24

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void stereo_ref(const uint8_t *l, const uint8_t *r, const uint8_t *dlo, const uint8_t *dhi,
                       int *disp, int *cost, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int bestd = dlo[y * w + x], bestc = 0x7fffffff;
            for (int d = dlo[y * w + x]; d <= dhi[y * w + x]; d++) {
                int c = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int yy = clampi(y + dy, 0, h - 1), xl = clampi(x + dx, 0, w - 1);
                        int xr = clampi(x + dx - d, 0, w - 1);
                        c += abs((int)l[yy * w + xl] - (int)r[yy * w + xr]);
                    }
                if (c < bestc) {
                    bestc = c;
                    bestd = d;
                }
                if (c <= THRESH)
                    break;
            }
            disp[y * w + x] = bestd;
            cost[y * w + x] = bestc;
        }
}

/* Left image, right image and search ranges (see the header). */
static int make_images(uint8_t *l, uint8_t *r, uint8_t *dlo, uint8_t *dhi, int w, int h,
                       struct bench_rng *rng)
{
    int tw = (w + 23) / 24, th = (h + 15) / 16;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int flat = ((x / 24) * 7 + (y / 16) * 3) % 5 == 0;   /* one tile in five */
            l[y * w + x] = (uint8_t)(flat ? 120 + (int)(bench_rng_u32(rng) % 3)
                                          : (int)(bench_rng_u32(rng) % 256));
        }
    uint8_t *dt = malloc((size_t)tw * th);
    if (!dt)
        return -1;
    for (int i = 0; i < tw * th; i++)
        dt[i] = (uint8_t)(bench_rng_u32(rng) % 21);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int d = dt[(y / 16) * tw + x / 24];
            int v = l[y * w + clampi(x + d, 0, w - 1)] + (int)(bench_rng_u32(rng) % 5) - 2;
            int lo = clampi(d - (int)(bench_rng_u32(rng) % 9), 0, DMAX);
            r[y * w + x] = (uint8_t)clampi(v, 0, 255);
            dlo[y * w + x] = (uint8_t)lo;
            dhi[y * w + x] = (uint8_t)clampi(lo + (int)(bench_rng_u32(rng) % 17), 0, DMAX);
        }
    free(dt);
    return 0;
}

static int stereo_device(struct bench_ctx *ctx, const uint8_t *const img[4], int *out, int w,
                         int h)
{
    size_t n = (size_t)w * h;
    uint64_t d[6] = { 0, 0, 0, 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1, thresh = THRESH;

    if (bench_load(ctx, &mod))
        goto out;
    for (int i = 0; i < 6; i++)
        if (bench_api(ctx, gs_malloc(ctx->gpu, &d[i], i < 4 ? n : n * 4), "malloc"))
            goto out;
    for (int i = 0; i < 4; i++)
        if (bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[i], img[i], n), "copy images"))
            goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(d[3]),
                                       GS_ARG(d[4]), GS_ARG(d[5]), GS_ARG(w), GS_ARG(h),
                                       GS_ARG(thresh) };
        struct gs_dim3 grid = { (uint32_t)(w + 15) / 16, (uint32_t)(h + 7) / 8, 1 };
        struct gs_dim3 block = { 16, 8, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "stereo", grid, block, 0, args, 9), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out, d[4], n * 4), "copy disp") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out + n, d[5], n * 4), "copy cost"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 6; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

/* 001 equation (1)'s input variables of each thread (its pixel): the disparity range's
   length, dhi - dlo + 1 (the search loop's bound; the early accept depends on the images).
   Threads in grid order: CTA (bx, by) -> (by * gx + bx) * 128 + ty * 16 + tx. */
static void note_inputs(struct bench_ctx *ctx, const uint8_t *dlo, const uint8_t *dhi, int w,
                        int h)
{
    static const char *const names[1] = {"range"};
    uint32_t gx = (uint32_t)(w + 15) / 16, gy = (uint32_t)(h + 7) / 8;
    uint64_t nthreads = (uint64_t)gx * gy * 128;
    double *v;
    if (!ctx->inputs || !(v = calloc(nthreads, sizeof *v)))
        return;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            v[((uint64_t)(y / 8) * gx + (uint64_t)(x / 16)) * 128 + (uint64_t)(y % 8) * 16 +
              (uint64_t)(x % 16)] = dhi[y * w + x] - dlo[y * w + x] + 1;
    bench_note_inputs(ctx, 1, names, nthreads, v);
    free(v);
}

static int stereo_run(struct bench_ctx *ctx)
{
    int w = ctx->size == BENCH_TEST ? 40 : 384, h = ctx->size == BENCH_TEST ? 20 : 256;
    size_t n = (size_t)w * h;
    uint8_t *l = malloc(n), *r = malloc(n), *dlo = malloc(n), *dhi = malloc(n);
    int *out = malloc(n * 2 * 4), *ref = malloc(n * 2 * 4);      /* disp | cost */
    struct bench_rng rng;
    int rc = -1;

    if (!l || !r || !dlo || !dhi || !out || !ref)
        goto done;
    bench_rng_seed(&rng, 20);
    if (make_images(l, r, dlo, dhi, w, h, &rng))
        goto done;
    stereo_ref(l, r, dlo, dhi, ref, ref + n, w, h);
    note_inputs(ctx, dlo, dhi, w, h);
    {
        const uint8_t *const img[4] = { l, r, dlo, dhi };
        rc = stereo_device(ctx, img, out, w, h);
    }
    if (rc == 0) {
        uint64_t bad = bench_check_i32(ctx, "disp", out, ref, n);
        bad += bench_check_i32(ctx, "cost", out + n, ref + n, n);
        rc = bad ? 1 : 0;
    }
done:
    free(l); free(r); free(dlo); free(dhi); free(out); free(ref);
    return rc;
}

const struct bench bench_stereo = {
    "stereo", "3x3 SAD disparity search, per-pixel range and early accept on a cost threshold "
    "(per-thread data-dependent work)", stereo_run, NULL, 0
};
