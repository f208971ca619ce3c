/*
 * sloop host part: the single-loop divergence micro-benchmark (seed 003, Section II-A).
 * One warp, thread t loops bounds[t] times; the bounds follow the paper's Table I for M
 * divergent lanes (bench_loop_bound). Each M is its own launch of 1 CTA x 32 threads, with
 * its own slice of the bounds and output arrays, so a timing run can fit cycles against M
 * launch by launch. test: M in {0,1,8,16,20,31}; default: every M from 0 to 31. Every lane's
 * result is checked (bench_loop_run in bench/bench.c).
 */
#include "bench.h"

static uint32_t sloop_ref(int32_t n)
{
    uint32_t acc = 0;
    int32_t i;
    for (i = 0; i < n; i++)
        acc = acc * 3u + (uint32_t)i;
    return acc;
}

static int sloop_run(struct bench_ctx *ctx)
{
    return bench_loop_run(ctx, "sloop", sloop_ref);
}

const struct bench bench_sloop = {
    "sloop", "single loop, per-lane bounds (Table I of seed 003): M divergent loop exits per warp",
    sloop_run, NULL, 0
};
