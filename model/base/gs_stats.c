/*
 * gs_stats.c -- the divergence binning of the statistics (gs_stats.h), shared by the
 * functional runner's and the timing SM's per-TB figures (func/probe.c) and the GPU top's
 * cycle divergence (gpu/gpu.c); and the layout of its text of the types (gs_stats_layout_base).
 */
#include "gs_stats.h"

void gs_count_divergence(uint64_t lo, uint64_t hi, uint64_t bins[4])
{
    static const uint32_t pct[4] = { 50, 25, 10, 5 };
    int i;
    for (i = 0; i < 4; i++)
        if (hi > lo && (hi - lo) * 100 > (uint64_t)pct[i] * lo)
            bins[i]++;
}

void gs_stats_layout_base(size_t out[4])
{
    out[0] = sizeof(struct gs_stats);
    out[1] = sizeof(struct gs_timing);
    out[2] = sizeof(struct gs_dim3);
    out[3] = offsetof(struct gs_stats, t);
}
