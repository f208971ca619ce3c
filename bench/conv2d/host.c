/*
 * conv2d host part: 5x5 zero-padded convolution of a W x H image of small integers in floats.
 * Every output pixel is checked exactly (all products and sums are exact small integers).
 * test: 37 x 20 image, 3 x 3 CTAs of 16 x 8 (tails in both dimensions);
 * default: 500 x 300 image, 32 x 38 = 1216 CTAs of 128 threads (155648 threads, about 6.8
 * times the 23040 a GTX480 holds).
 */
#include <stdlib.h>
#include "bench.h"

#define FR 2
#define FW (2 * FR + 1)
#define BX 16
#define BY 8

static void conv2d_ref(const float *in, const float *filt, float *out, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int dy = -FR; dy <= FR; dy++)
                for (int dx = -FR; dx <= FR; dx++) {
                    int yy = y + dy, xx = x + dx;
                    if (yy >= 0 && yy < h && xx >= 0 && xx < w)
                        sum += filt[(dy + FR) * FW + dx + FR] * in[yy * w + xx];
                }
            out[y * w + x] = sum;
        }
}

static int conv2d_device(struct bench_ctx *ctx, const float *in, const float *filt, float *out,
                         int w, int h)
{
    size_t bytes = (size_t)w * h * sizeof(float), fbytes = FW * FW * sizeof(float);
    uint64_t d[3] = { 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], bytes), "malloc in") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], fbytes), "malloc filt") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], bytes), "malloc out") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], in, bytes), "copy in") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], filt, fbytes), "copy filt"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(w),
                                       GS_ARG(h) };
        struct gs_dim3 grid = { (uint32_t)(w + BX - 1) / BX, (uint32_t)(h + BY - 1) / BY, 1 };
        struct gs_dim3 block = { BX, BY, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "conv2d", grid, block, 0, args, 5), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out, d[2], bytes), "copy out"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int conv2d_run(struct bench_ctx *ctx)
{
    int w = ctx->size == BENCH_TEST ? 37 : 500, h = ctx->size == BENCH_TEST ? 20 : 300;
    size_t n = (size_t)w * h;
    float *in = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float)), filt[FW * FW];
    struct bench_rng rng;
    int rc = -1;

    if (!in || !out || !ref)
        goto done;
    bench_rng_seed(&rng, 11);
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(bench_rng_u32(&rng) % 16);            /* pixels 0..15 */
    for (int i = 0; i < FW * FW; i++)
        filt[i] = (float)((int)(bench_rng_u32(&rng) % 9) - 4);  /* taps -4..4 */
    conv2d_ref(in, filt, ref, w, h);
    rc = conv2d_device(ctx, in, filt, out, w, h);
    if (rc == 0)
        rc = bench_check_f32(ctx, "out", out, ref, n, 0.0f, 0.0f) ? 1 : 0;
done:
    free(in); free(out); free(ref);
    return rc;
}

const struct bench bench_conv2d = {
    "conv2d", "5x5 convolution, border taps skipped (Type-S: CTA-count limit binds)", conv2d_run, NULL, 0
};
