/*
 * report_vt_chart.c -- gpusim report vt's charts (cli/report_vt.c has the runs and tables): the
 * forms of 004's Figures 8, 9, 10, 12 and 13 over the headroom kernels, written as SVG beside
 * the Markdown (cli/svg.c draws them).
 */
#include <stdio.h>
#include "report_vt.h"
#include "svg.h"

/* A chart of the headroom kernels (value val(r, k, s) for series s) and then nextra rows
   given whole (extra[i * ns + s], labelled extra_names[i]). */
struct chart {
    const char *fig, *title, *ylabel;
    unsigned ns;
    const char *series[4];
    double ref;
    double (*val)(const struct rep *, unsigned k, unsigned s);
    unsigned nextra;
    const char *extra_names[2];
    double extra[2][4];
};

static int chart(const struct rep *r, const struct chart *c)
{
    const char *groups[MAXK + 2];
    double v[(MAXK + 2) * 4];
    unsigned ks[MAXK], n = vt_hkernels(r, ks);
    char path[1024];
    struct svg_bars b = {c->title, c->ylabel, n + c->nextra, c->ns, groups, c->series, v, c->ref};
    for (unsigned i = 0; i < n + c->nextra; i++) {
        groups[i] = i < n ? r->all[ks[i]]->name : c->extra_names[i - n];
        for (unsigned s = 0; s < c->ns; s++)
            v[i * c->ns + s] = i < n ? c->val(r, ks[i], s) : c->extra[i - n][s];
    }
    vt_fig_path(r, c->fig, 0, path, sizeof path);
    return svg_bars_write(path, &b);
}

static double v_fig8(const struct rep *r, unsigned k, unsigned s)
{
    return vt_nipc(r, k, s ? MAX_LRR : VT_LRR, B_LRR);
}

static double v_fig10(const struct rep *r, unsigned k, unsigned s)
{
    return vt_nipc(r, k, vt_fig10_vars[s], B_LRR);
}

static const char *const fig12_stats[2] = {"rf_utilization", "smem_utilization"};

static double v_fig12(const struct rep *r, unsigned k, unsigned s)
{
    return 100.0 * rep_stat(vt_st(r, k, s & 1 ? VT_LRR : B_LRR), fig12_stats[s >> 1]);
}

static double v_fig13(const struct rep *r, unsigned k, unsigned s)
{
    return 100.0 * rep_stat(vt_st(r, k, s & 1 ? VT_LRR : B_LRR), vt_fig13_stats[1 + (s >> 1)]);
}

/* Fig. 9's form has no kernels: the schedulers' means. */
static int chart_fig9(const struct rep *r)
{
    static const char *const groups[3] = {"LRR", "GTO", "two-level"};
    static const char *const series[3] = {"VT", "MAX", "paper VT"};
    static const double paper[3] = {P_VT, P_VT_GTO, P_VT};
    double v[9];
    char path[1024];
    struct svg_bars b = {"Fig. 9 form: over each scheduler's baseline (arithmetic means)",
                         "normalised IPC", 3, 3, groups, series, v, 1.0};
    for (unsigned i = 0; i < 3; i++) {
        v[i * 3] = vt_mean_ipc(r, VT_LRR + 3 * i, B_LRR + 3 * i, 0);
        v[i * 3 + 1] = vt_mean_ipc(r, MAX_LRR + 3 * i, B_LRR + 3 * i, 0);
        v[i * 3 + 2] = paper[i];
    }
    vt_fig_path(r, "fig9", 0, path, sizeof path);
    return svg_bars_write(path, &b);
}

int vt_charts(const struct rep *r)
{
    struct chart c8 = {"fig8", "Fig. 8 form: normalised IPC over B_LRR", "normalised IPC", 2,
                       {"VT", "MAX"}, 1.0, v_fig8, 2, {"mean", "paper"},
                       {{vt_mean_ipc(r, VT_LRR, B_LRR, 0), vt_mean_ipc(r, MAX_LRR, B_LRR, 0)},
                        {P_VT, P_MAX}}};
    struct chart c10 = {"fig10", "Fig. 10 form: VT by swap bits per cycle, over B_LRR",
                        "normalised IPC", 4, {"256", "512", "1024", "ideal"}, 1.0, v_fig10, 1,
                        {"geo. mean"}, {{0}}};
    struct chart c12 = {"fig12", "Fig. 12 form: register file and shared memory allocated",
                        "% of capacity", 4, {"RF B", "RF VT", "shared B", "shared VT"}, 0,
                        v_fig12, 2, {"mean", "paper"}, {{0}, {100 * P_RF_B, 100 * P_RF_VT,
                        100 * P_SM_B, 100 * P_SM_VT}}};
    struct chart c13 = {"fig13", "Fig. 13 form: L1 MSHRs in use and DRAM bus utilisation",
                        "%", 4, {"MSHR B", "MSHR VT", "DRAM B", "DRAM VT"}, 0, v_fig13, 2,
                        {"mean", "paper"}, {{0}, {100 * P_MSHR_B, 100 * P_MSHR_VT,
                        100 * P_DRAM_B, 100 * P_DRAM_VT}}};
    for (unsigned s = 0; s < 4; s++) {
        c10.extra[0][s] = vt_mean_ipc(r, vt_fig10_vars[s], B_LRR, 1);
        c12.extra[0][s] = 100.0 * vt_mean_stat(r, s & 1 ? VT_LRR : B_LRR, fig12_stats[s >> 1]);
        c13.extra[0][s] = 100.0 * vt_mean_stat(r, s & 1 ? VT_LRR : B_LRR,
                                            vt_fig13_stats[1 + (s >> 1)]);
    }
    return chart(r, &c8) || chart_fig9(r) || chart(r, &c10) || chart(r, &c12) || chart(r, &c13);
}
