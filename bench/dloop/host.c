/*
 * dloop host part: the double-loop divergence micro-benchmark (seed 003, Section II-B).
 * One warp, thread t runs two nested loops of bounds[t] iterations each; the bounds follow
 * the paper's Table I for M divergent lanes (bench_loop_bound). One launch per M, as sloop;
 * every lane's result is checked (bench_loop_run in bench/bench.c).
 */
#include "bench.h"

static uint32_t dloop_ref(int32_t n)
{
    uint32_t acc = 0;
    int32_t i, j;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            acc = acc * 3u + (uint32_t)j;
        acc += (uint32_t)i;
    }
    return acc;
}

static int dloop_run(struct bench_ctx *ctx)
{
    return bench_loop_run(ctx, "dloop", dloop_ref);
}

const struct bench bench_dloop = {
    "dloop", "double loop, per-lane bounds (Table I of seed 003): divergent inner and outer exits",
    dloop_run, NULL, 0
};
