/*
 * pathfinder host part: rows x cols grid of wall costs 0..9; the kernel is launched once per
 * PH rows (ping-ponging two device rows), and every column of the final cost row is checked
 * exactly against the row-by-row C dynamic programme.
 * test: 300 columns x 12 rows -> 3 CTAs, 2 launches (8 steps, then 3);
 * default: 100000 columns x 17 rows -> 893 CTAs of 128 threads (114304 threads, 5 GTX480
 * fills), 2 launches of 8 steps.
 */
#include <stdlib.h>
#include <string.h>
#include "bench.h"

#define BS 128
#define PH 8

static int imin(int a, int b) { return a < b ? a : b; }

static void pathfinder_ref(const int *wall, int *row, int *tmp, int rows, int cols)
{
    memcpy(row, wall, (size_t)cols * sizeof(int));
    for (int r = 1; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int best = row[c];
            if (c > 0)
                best = imin(best, row[c - 1]);
            if (c < cols - 1)
                best = imin(best, row[c + 1]);
            tmp[c] = best + wall[(size_t)r * cols + c];
        }
        memcpy(row, tmp, (size_t)cols * sizeof(int));
    }
}

static int pathfinder_device(struct bench_ctx *ctx, const int *wall, int *result, int rows,
                             int cols)
{
    size_t wb = (size_t)rows * cols * sizeof(int), rb = (size_t)cols * sizeof(int);
    uint64_t d[3] = { 0, 0, 0 };
    struct gs_module *mod = NULL;
    struct gs_dim3 grid = { (uint32_t)(cols + BS - 2 * PH - 1) / (BS - 2 * PH), 1, 1 };
    struct gs_dim3 block = { BS, 1, 1 };
    int rc = -1, cur = 1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], wb), "malloc wall") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], rb), "malloc row a") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], rb), "malloc row b") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], wall, wb), "copy wall") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], wall, rb), "copy row 0"))
        goto out;
    for (int start = 1; start < rows; start += PH) {
        int steps = imin(PH, rows - start);
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[cur]), GS_ARG(d[3 - cur]),
                                       GS_ARG(cols), GS_ARG(start), GS_ARG(steps) };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "pathfinder", grid, block, 0, args, 6),
                      "launch"))
            goto out;
        cur = 3 - cur;
    }
    if (bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, result, d[cur], rb), "copy result"))
        goto out;
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int pathfinder_run(struct bench_ctx *ctx)
{
    int cols = ctx->size == BENCH_TEST ? 300 : 100000, rows = ctx->size == BENCH_TEST ? 12 : 17;
    size_t n = (size_t)rows * cols;
    int *wall = malloc(n * sizeof(int)), *res = malloc(cols * sizeof(int));
    int *ref = malloc(cols * sizeof(int)), *tmp = malloc(cols * sizeof(int));
    struct bench_rng rng;
    int rc = -1;

    if (!wall || !res || !ref || !tmp)
        goto done;
    bench_rng_seed(&rng, 14);
    for (size_t i = 0; i < n; i++)
        wall[i] = (int)(bench_rng_u32(&rng) % 10);
    pathfinder_ref(wall, ref, tmp, rows, cols);
    rc = pathfinder_device(ctx, wall, res, rows, cols);
    if (rc == 0)
        rc = bench_check_i32(ctx, "result", res, ref, (size_t)cols) ? 1 : 0;
done:
    free(wall); free(res); free(ref); free(tmp);
    return rc;
}

const struct bench bench_pathfinder = {
    "pathfinder", "row-by-row min-of-3 DP in shared memory, shrinking pyramid and edge paths "
    "(Type-S: CTA-count limit binds)", pathfinder_run, NULL, 0
};
