/*
 * bfs host part: builds a directed CSR graph with skewed out-degrees (most nodes 1-6 edges,
 * about 1 in 64 a hub with up to hundreds), half of the edges to nearby nodes and half to
 * random ones, then runs level-synchronous BFS from node 0: one bfs_step launch per level
 * until no thread reports a change.  Every node's level (-1 = unreachable) is checked against
 * a queue-based C BFS.
 * test: 2000 nodes (8 CTAs x 256 threads); default: 131072 - 19 nodes (512 CTAs).
 */
#include <stdlib.h>
#include <string.h>
#include "bench.h"

struct graph { int n, m; int *off, *col; };

static uint32_t pick_degree(struct bench_rng *r, uint32_t hub_max)
{
    uint32_t u = bench_rng_u32(r);
    if ((u & 63u) == 0)                         /* 1 in 64: a hub */
        return hub_max / 4 + (u >> 8) % (hub_max - hub_max / 4 + 1);
    return 1 + (u >> 8) % 6;
}

static int build_graph(struct graph *g, int n, uint32_t hub_max)
{
    struct bench_rng rng;
    int v, e = 0;
    bench_rng_seed(&rng, 0xBF5);
    g->n = n;
    g->off = malloc((size_t)(n + 1) * sizeof(int));
    if (!g->off)
        return -1;
    g->off[0] = 0;
    for (v = 0; v < n; v++)
        g->off[v + 1] = g->off[v] + (int)pick_degree(&rng, hub_max);
    g->m = g->off[n];
    g->col = malloc((size_t)g->m * sizeof(int));
    if (!g->col)
        return -1;
    for (v = 0; v < n; v++)
        for (e = g->off[v]; e < g->off[v + 1]; e++) {
            uint32_t u = bench_rng_u32(&rng);
            if (u & 1u)                         /* near: v + [-16, 48] (wrapping) */
                g->col[e] = (int)(((uint32_t)v + (uint32_t)n + (u >> 1) % 65u - 16u) % (uint32_t)n);
            else
                g->col[e] = (int)((u >> 1) % (uint32_t)n);
        }
    return 0;
}

/* Reference BFS from node 0 with a FIFO queue; returns the number of levels (max level+1). */
static int ref_bfs(const struct graph *g, int *level, int *queue)
{
    int head = 0, tail = 0, v, e, maxl = 0;
    for (v = 0; v < g->n; v++)
        level[v] = -1;
    level[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        v = queue[head++];
        for (e = g->off[v]; e < g->off[v + 1]; e++)
            if (level[g->col[e]] < 0) {
                level[g->col[e]] = level[v] + 1;
                maxl = level[v] + 1;
                queue[tail++] = g->col[e];
            }
    }
    return maxl + 1;
}

static int run_levels(struct bench_ctx *ctx, struct gs_module *mod, uint64_t doff,
                      uint64_t dcol, uint64_t dlev, uint64_t dchg, int n)
{
    struct gs_dim3 grid = { (uint32_t)(n + 255) / 256, 1, 1 }, block = { 256, 1, 1 };
    int cur, changed = 1;
    for (cur = 0; changed && cur < n; cur++) {
        const struct gs_arg args[] = { GS_ARG(doff), GS_ARG(dcol), GS_ARG(dlev), GS_ARG(dchg),
                                       GS_ARG(n), GS_ARG(cur) };
        if (bench_api(ctx, gs_memset(ctx->gpu, dchg, 0, sizeof(int)), "clear changed") ||
            bench_api(ctx, gs_launch(ctx->gpu, mod, "bfs_step", grid, block, 0, args, 6),
                      "launch bfs_step") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, &changed, dchg, sizeof(int)), "copy changed"))
            return -1;
    }
    return 0;
}

static int bfs_run(struct bench_ctx *ctx)
{
    int n = ctx->size == BENCH_TEST ? 2000 : 131072 - 19;
    struct graph g = { 0, 0, NULL, NULL };
    int *lev = NULL, *ref = NULL, *queue = NULL;
    struct gs_module *mod = NULL;
    uint64_t doff = 0, dcol = 0, dlev = 0, dchg = 0;
    int rc = -1;

    if (build_graph(&g, n, ctx->size == BENCH_TEST ? 96 : 512))
        goto out;
    lev = malloc((size_t)n * sizeof(int));
    ref = malloc((size_t)n * sizeof(int));
    queue = malloc((size_t)n * sizeof(int));
    if (!lev || !ref || !queue)
        goto out;
    ref_bfs(&g, ref, queue);
    for (int v = 0; v < n; v++)
        lev[v] = v == 0 ? 0 : -1;
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &doff, (uint64_t)(n + 1) * sizeof(int)), "malloc off") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dcol, (uint64_t)g.m * sizeof(int)), "malloc col") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dlev, (uint64_t)n * sizeof(int)), "malloc level") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dchg, sizeof(int)), "malloc changed") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, doff, g.off, (uint64_t)(n + 1) * sizeof(int)), "copy off") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dcol, g.col, (uint64_t)g.m * sizeof(int)), "copy col") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dlev, lev, (uint64_t)n * sizeof(int)), "copy level") ||
        run_levels(ctx, mod, doff, dcol, dlev, dchg, n) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, lev, dlev, (uint64_t)n * sizeof(int)), "copy level back"))
        goto out;
    rc = bench_check_i32(ctx, "level", lev, ref, (size_t)n) ? 1 : 0;
out:
    free(g.off); free(g.col); free(lev); free(ref); free(queue);
    return rc;
}

const struct bench bench_bfs = {
    "bfs", "level-synchronous BFS step over a skewed-degree CSR graph (instruction + cycle divergence)",
    bfs_run, NULL, 0
};
