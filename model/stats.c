/*
 * stats.c -- statistics output: JSON for scripts, a short table for people.
 */
#include <stdio.h>
#include "cta.h"
#include "gpusim.h"

double gs_lane_utilization(const struct gs_stats *s)
{
    return s->warp_insns ? (double)s->thread_insns / (32.0 * (double)s->warp_insns) : 0.0;
}

void gs_count_divergence(uint64_t lo, uint64_t hi, uint64_t bins[4])
{
    static const uint32_t pct[4] = { 50, 25, 10, 5 };
    int i;
    for (i = 0; i < 4; i++)
        if (hi > lo && (hi - lo) * 100 > (uint64_t)pct[i] * lo)
            bins[i]++;
}

#define J(name, v) fprintf(f, "%s  \"%s\": %llu,\n", in, name, (unsigned long long)(v))

void gs_stats_json(const struct gs_stats *s, const char *indent, FILE *f)
{
    const char *in = indent ? indent : "";
    int i;
    fprintf(f, "{\n");
    J("launches", s->launches);
    J("ctas", s->ctas);
    J("cycles", s->cycles);
    J("warp_insns", s->warp_insns);
    J("thread_insns", s->thread_insns);
    J("branches", s->branches);
    J("divergent_branches", s->divergent_branches);
    J("mem_insns", s->mem_insns);
    J("atomics", s->atomics);
    J("barriers", s->barriers);
    J("max_stack_depth", s->max_stack_depth);
    fprintf(f, "%s  \"tb_inst_div_over_50_25_10_5\": [%llu, %llu, %llu, %llu],\n", in,
            (unsigned long long)s->tb_inst_div[0], (unsigned long long)s->tb_inst_div[1],
            (unsigned long long)s->tb_inst_div[2], (unsigned long long)s->tb_inst_div[3]);
    fprintf(f, "%s  \"tb_cycle_div_over_50_25_10_5\": [%llu, %llu, %llu, %llu],\n", in,
            (unsigned long long)s->tb_cycle_div[0], (unsigned long long)s->tb_cycle_div[1],
            (unsigned long long)s->tb_cycle_div[2], (unsigned long long)s->tb_cycle_div[3]);
    fprintf(f, "%s  \"grid\": [%u, %u, %u],\n%s  \"block\": [%u, %u, %u],\n", in, s->grid[0],
            s->grid[1], s->grid[2], in, s->block[0], s->block[1], s->block[2]);
    J("regs_per_thread", s->regs_per_thread);
    J("shared_per_cta", s->shared_per_cta);
    J("local_per_thread", s->local_per_thread);
    J("occupancy_ctas_per_sm", s->occupancy);
    fprintf(f, "%s  \"occupancy_limit\": \"%s\",\n", in, cta_limit_name((enum cta_limit)s->occupancy_limit));
    fprintf(f, "%s  \"lane_utilization\": %.6f,\n", in, gs_lane_utilization(s));
    fprintf(f, "%s  \"lane_util_histogram\": [", in);
    for (i = 0; i < GS_UTIL_BINS; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)s->lane_util[i]);
    fprintf(f, "],\n");
    fprintf(f, "%s  \"host_seconds\": %.6f\n%s}", in, s->host_seconds, in);
}

void gs_stats_text(const struct gs_stats *s, FILE *f)
{
    double wips = s->host_seconds > 0 ? (double)s->warp_insns / s->host_seconds : 0.0;
    fprintf(f, "  %-28s %14llu\n", "launches", (unsigned long long)s->launches);
    fprintf(f, "  %-28s %14llu\n", "CTAs", (unsigned long long)s->ctas);
    fprintf(f, "  %-28s %14llu\n", "warp instructions", (unsigned long long)s->warp_insns);
    fprintf(f, "  %-28s %14llu\n", "thread instructions", (unsigned long long)s->thread_insns);
    fprintf(f, "  %-28s %14llu\n", "conditional branches", (unsigned long long)s->branches);
    fprintf(f, "  %-28s %14llu\n", "divergent branches", (unsigned long long)s->divergent_branches);
    fprintf(f, "  %-28s %13.1f%%\n", "SIMD lane utilization", 100.0 * gs_lane_utilization(s));
    fprintf(f, "  %-28s %14llu\n", "memory instructions", (unsigned long long)s->mem_insns);
    fprintf(f, "  %-28s %14llu\n", "atomic instructions", (unsigned long long)s->atomics);
    fprintf(f, "  %-28s %14llu\n", "barriers (warp arrivals)", (unsigned long long)s->barriers);
    fprintf(f, "  %-28s %14llu\n", "max reconvergence depth", (unsigned long long)s->max_stack_depth);
    fprintf(f, "  %-28s %14.0f   (host: %.3f s)\n", "sim speed, warp insns/s", wips, s->host_seconds);
}
