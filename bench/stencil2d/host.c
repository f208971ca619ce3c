/*
 * stencil2d host part: a W x H grid of integers in [0, 1023], two time steps of the
 * stencil2d kernel (ping-pong buffers), every cell of the final grid checked against a C
 * reference that applies the same boundary rule and stencil cell by cell (no tiles).
 * W and H are not multiples of the 16 x 8 tile, so the last CTA column/row has threads
 * outside the grid.
 * test: 45 x 21 (3 x 3 CTAs of 128 threads); default: 1000 x 500 (63 x 63 CTAs).
 */
#include <stdlib.h>
#include "bench.h"

#define ST_STEPS 2
#define ST_EDGE  640

struct grid2 { const int32_t *v; int w, h, edge; };

static int refl(int x, int w)
{
    return x < 0 ? -x : (x >= w ? 2 * w - 2 - x : x);
}

static int32_t cell(const struct grid2 *g, int x, int y)
{
    if (y < 0 || y >= g->h) {
        if (x < 0 || x >= g->w)
            return (g->v[(y < 0 ? 0 : g->h - 1) * g->w + refl(x, g->w)] + g->edge) >> 1;
        return g->edge;
    }
    return g->v[y * g->w + refl(x, g->w)];
}

static void ref_step(const struct grid2 *g, int32_t *out)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int32_t c = cell(g, x, y), nsew = cell(g, x, y - 1) + cell(g, x, y + 1) +
                        cell(g, x - 1, y) + cell(g, x + 1, y);
            int xb = x == 0 || x == g->w - 1, yb = y == 0 || y == g->h - 1;
            if (xb != yb)
                out[y * g->w + x] = (2 * c + nsew + 3) / 6;
            else
                out[y * g->w + x] = (4 * c + 2 * nsew + cell(g, x - 1, y - 1) +
                                     cell(g, x + 1, y - 1) + cell(g, x - 1, y + 1) +
                                     cell(g, x + 1, y + 1) + 8) >> 4;
        }
}

static int stencil2d_run(struct bench_ctx *ctx)
{
    int w = ctx->size == BENCH_TEST ? 45 : 1000, h = ctx->size == BENCH_TEST ? 21 : 500;
    int edge = ST_EDGE, rc = -1, i, s;
    size_t n = (size_t)w * (size_t)h, bytes = n * sizeof(int32_t);
    int32_t *a = malloc(bytes), *b = malloc(bytes), *got = malloc(bytes);
    struct gs_module *mod = NULL;
    uint64_t d[2] = { 0, 0 };
    struct bench_rng rng;

    if (!a || !b || !got)
        goto out;
    bench_rng_seed(&rng, 0x57E2);
    for (i = 0; i < (int)n; i++)
        a[i] = (int32_t)(bench_rng_u32(&rng) & 1023u);
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], bytes), "malloc grid 0") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], bytes), "malloc grid 1") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], a, bytes), "copy grid"))
        goto out;
    for (s = 0; s < ST_STEPS; s++) {
        const struct gs_arg args[] = { GS_ARG(d[s & 1]), GS_ARG(d[!(s & 1)]), GS_ARG(w), GS_ARG(h),
                                       GS_ARG(edge) };
        struct gs_dim3 grid = { (uint32_t)(w + 15) / 16, (uint32_t)(h + 7) / 8, 1 };
        struct gs_dim3 block = { 16, 8, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "stencil2d", grid, block, 0, args, 5),
                      "launch stencil2d"))
            goto out;
    }
    if (bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, d[ST_STEPS & 1], bytes), "copy result"))
        goto out;
    for (s = 0; s < ST_STEPS; s++) {
        struct grid2 g = { s & 1 ? b : a, w, h, edge };
        ref_step(&g, s & 1 ? a : b);
    }
    rc = bench_check_i32(ctx, "grid", got, ST_STEPS & 1 ? b : a, n) ? 1 : 0;
out:
    free(a); free(b); free(got);
    return rc;
}

const struct bench bench_stencil2d = {
    "stencil2d", "9-point stencil, 16x8 shared tiles, reflect/Dirichlet/corner borders (instruction divergence, barrier)",
    stencil2d_run, NULL, 0
};
