/*
 * dct8x8 host part: integer fixed-point 8x8 DCT + quantisation of a W x H grey image; every
 * output coefficient is checked exactly against a C reference doing the same integer
 * operations (gcc's >> on negative ints is arithmetic, like PTX shr.s32; / truncates toward
 * zero in both C and PTX div.s32).
 * test: 72 x 24 image = 27 blocks -> 4 CTAs of 64 threads (the last holds 3 blocks);
 * default: 1016 x 1000 image = 15875 blocks -> 1985 CTAs (127040 threads, 5.5 GTX480 fills).
 */
#include <math.h>
#include <stdlib.h>
#include "bench.h"

#define NB 8
#define SHIFT 12

static void dct_tables(int *coef, int *q, struct bench_rng *rng)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < 8; k++)
        for (int n = 0; n < 8; n++) {
            double ck = k == 0 ? sqrt(0.5) : 1.0;
            coef[k * 8 + n] = (int)lround(4096.0 * ck * 0.5 * cos((2 * n + 1) * k * pi / 16.0));
            q[k * 8 + n] = 2 + 2 * (k + n) + (int)(bench_rng_u32(rng) % 3);
        }
}

static int quant(int v, int q)
{
    return v >= 0 ? (v + (q >> 1)) / q : -((-v + (q >> 1)) / q);
}

/* One 8x8 block at (bx, by): rows, then columns, then quantisation, as the kernel does. */
static void dct_block_ref(const int *img, const int *coef, const int *q, int *out, int width,
                          int bx, int by)
{
    int tmp[8][8];
    for (int r = 0; r < 8; r++)
        for (int k = 0; k < 8; k++) {
            int acc = 0;
            for (int n = 0; n < 8; n++)
                acc += coef[k * 8 + n] * (img[(by + r) * width + bx + n] - 128);
            tmp[r][k] = (acc + (1 << (SHIFT - 1))) >> SHIFT;
        }
    for (int c = 0; c < 8; c++)
        for (int k = 0; k < 8; k++) {
            int acc = 0;
            for (int n = 0; n < 8; n++)
                acc += coef[k * 8 + n] * tmp[n][c];
            out[(by + k) * width + bx + c] =
                quant((acc + (1 << (SHIFT - 1))) >> SHIFT, q[k * 8 + c]);
        }
}

static int dct_device(struct bench_ctx *ctx, const int *img, const int *coef, const int *q,
                      int *out, int width, int height)
{
    size_t bytes = (size_t)width * height * sizeof(int), tb = 64 * sizeof(int);
    int nblocks = (width / 8) * (height / 8);
    uint64_t d[4] = { 0, 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], bytes), "malloc img") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], tb), "malloc coef") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], tb), "malloc qtab") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[3], bytes), "malloc out") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], img, bytes), "copy img") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], coef, tb), "copy coef") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[2], q, tb), "copy qtab"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(d[3]),
                                       GS_ARG(width), GS_ARG(nblocks) };
        struct gs_dim3 grid = { (uint32_t)(nblocks + NB - 1) / NB, 1, 1 }, block = { 64, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "dct8x8", grid, block, 0, args, 6), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out, d[3], bytes), "copy out"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 4; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int dct8x8_run(struct bench_ctx *ctx)
{
    int width = ctx->size == BENCH_TEST ? 72 : 1016, height = ctx->size == BENCH_TEST ? 24 : 1000;
    size_t n = (size_t)width * height;
    int *img = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
    int *ref = malloc(n * sizeof(int)), coef[64], q[64];
    struct bench_rng rng;
    int rc = -1;

    if (!img || !out || !ref)
        goto done;
    bench_rng_seed(&rng, 12);
    dct_tables(coef, q, &rng);
    for (int y = 0; y < height; y++)        /* smooth gradient plus noise: pixels 0..255 */
        for (int x = 0; x < width; x++)
            img[(size_t)y * width + x] =
                ((x * 3 + y * 2) & 127) + (int)(bench_rng_u32(&rng) % 128);
    for (int by = 0; by < height; by += 8)
        for (int bx = 0; bx < width; bx += 8)
            dct_block_ref(img, coef, q, ref, width, bx, by);
    rc = dct_device(ctx, img, coef, q, out, width, height);
    if (rc == 0)
        rc = bench_check_i32(ctx, "out", out, ref, n) ? 1 : 0;
done:
    free(img); free(out); free(ref);
    return rc;
}

const struct bench bench_dct8x8 = {
    "dct8x8", "fixed-point 8x8 DCT + quantisation, sign branches (Type-S: CTA-count limit binds)",
    dct8x8_run, NULL, 0
};
