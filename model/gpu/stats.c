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

static const char *const stall_names[GS_STALL_KINDS] = {
    "issued", "no_warp", "ibuffer_empty", "short_dependence", "long_memory_dependence",
    "structural", "barrier", "simt_stack"
};

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void json_timing(const struct gs_stats *s, const char *in, FILE *f)
{
    const struct gs_timing *t = &s->t;
    unsigned i;
    fprintf(f, "%s  \"warp_ipc\": %.6f,\n%s  \"thread_ipc\": %.6f,\n", in,
            ratio(s->warp_insns, s->cycles), in, ratio(s->thread_insns, s->cycles));
    fprintf(f, "%s  \"scheduler_cycles\": {", in);
    for (i = 0; i < GS_STALL_KINDS; i++)
        fprintf(f, "%s\"%s\": %llu", i ? ", " : "", stall_names[i],
                (unsigned long long)t->sched_cycles[i]);
    fprintf(f, "},\n");
    J("l1_hits", t->l1_hits); J("l1_misses", t->l1_misses); J("l1_merges", t->l1_merges);
    J("l1_mshr_stalls", t->l1_mshr_stalls); J("l1_reservation_fails", t->l1_rsrv_fails);
    J("icache_hits", t->icache_hits); J("icache_misses", t->icache_misses);
    J("l2_accesses", t->l2_accesses); J("l2_hits", t->l2_hits); J("l2_misses", t->l2_misses);
    J("l2_merges", t->l2_merges); J("l2_writebacks", t->l2_writebacks);
    J("dram_reads", t->dram_reads); J("dram_writes", t->dram_writes);
    J("dram_row_hits", t->dram_row_hits); J("dram_row_misses", t->dram_row_misses);
    J("dram_bytes", t->dram_bytes);
    fprintf(f, "%s  \"dram_row_hit_rate\": %.6f,\n", in,
            ratio(t->dram_row_hits, t->dram_row_hits + t->dram_row_misses));
    fprintf(f, "%s  \"dram_bytes_per_cycle\": %.6f,\n", in, ratio(t->dram_bytes, s->cycles));
    fprintf(f, "%s  \"dram_bus_utilization\": %.6f,\n", in,
            ratio(t->dram_busy_cycles, s->cycles * (t->dram_channels ? t->dram_channels : 1)));
    J("simt_pushes", t->simt_pushes); J("simt_pops", t->simt_pops);
    J("simt_spills", t->simt_spills); J("simt_fills", t->simt_fills);
    J("simt_max_depth", t->simt_max_depth);
    J("shared_bank_conflict_cycles", t->shared_conflict_cycles);
    J("dwr_tbs", t->dwr_tbs);
    fprintf(f, "%s  \"dwr\": %.6f,\n%s  \"dws\": %.6f,\n", in, t->dwr_tbs ? t->dwr_sum / (double)t->dwr_tbs : 0.0,
            in, t->dwr_tbs ? t->dws_sum / (double)t->dwr_tbs : 0.0);
    fprintf(f, "%s  \"sm_warp_insns\": [", in);
    for (i = 0; i < t->nsms && i < GS_MAX_SMS; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)t->sm_warp_insns[i]);
    fprintf(f, "],\n%s  \"sm_busy_cycles\": [", in);
    for (i = 0; i < t->nsms && i < GS_MAX_SMS; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)t->sm_busy_cycles[i]);
    fprintf(f, "],\n");
}

static void text_timing(const struct gs_stats *s, FILE *f)
{
    const struct gs_timing *t = &s->t;
    uint64_t total = 0;
    unsigned i;
    for (i = 0; i < GS_STALL_KINDS; i++)
        total += t->sched_cycles[i];
    fprintf(f, "  %-28s %14llu\n", "cycles", (unsigned long long)s->cycles);
    fprintf(f, "  %-28s %14.3f   (thread-IPC %.2f)\n", "warp-IPC (warp insns/cycle)",
            ratio(s->warp_insns, s->cycles), ratio(s->thread_insns, s->cycles));
    fprintf(f, "  scheduler cycles:");
    for (i = 0; i < GS_STALL_KINDS; i++)
        fprintf(f, " %s %.1f%%", stall_names[i], 100.0 * ratio(t->sched_cycles[i], total));
    fprintf(f, "\n");
    fprintf(f, "  %-28s %13.1f%%   (%llu hits, %llu misses, %llu merges)\n", "L1D hit rate",
            100.0 * ratio(t->l1_hits, t->l1_hits + t->l1_misses), (unsigned long long)t->l1_hits,
            (unsigned long long)t->l1_misses, (unsigned long long)t->l1_merges);
    fprintf(f, "  %-28s %13.1f%%   (%llu accesses)\n", "L2 hit rate",
            100.0 * ratio(t->l2_hits, t->l2_hits + t->l2_misses), (unsigned long long)t->l2_accesses);
    fprintf(f, "  %-28s %13.1f%%   (%.1f bytes/cycle)\n", "DRAM row-hit rate",
            100.0 * ratio(t->dram_row_hits, t->dram_row_hits + t->dram_row_misses),
            ratio(t->dram_bytes, s->cycles));
    fprintf(f, "  %-28s %14llu   (pushes %llu, pops %llu, spills %llu, fills %llu)\n",
            "SIMT stack max depth", (unsigned long long)t->simt_max_depth,
            (unsigned long long)t->simt_pushes, (unsigned long long)t->simt_pops,
            (unsigned long long)t->simt_spills, (unsigned long long)t->simt_fills);
    fprintf(f, "  %-28s %14.3f   (DWS %.3f over %llu TBs)\n", "DWR",
            t->dwr_tbs ? t->dwr_sum / (double)t->dwr_tbs : 0.0,
            t->dwr_tbs ? t->dws_sum / (double)t->dwr_tbs : 0.0, (unsigned long long)t->dwr_tbs);
}

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
    if (s->cycles)
        json_timing(s, in, f);
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
    double cps = s->host_seconds > 0 ? (double)s->cycles / s->host_seconds : 0.0;
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
    if (s->cycles)
        text_timing(s, f);
    fprintf(f, "  %-28s %14.0f   (host: %.3f s)\n", "sim speed, warp insns/s", wips, s->host_seconds);
    if (s->cycles)
        fprintf(f, "  %-28s %14.0f\n", "sim speed, cycles/s", cps);
}
