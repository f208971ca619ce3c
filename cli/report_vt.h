/*
 * report_vt.h -- what gpusim report vt's files share (cli/report_vt.c: the runs, tables,
 * findings and the document; cli/report_vt_chart.c: the SVG charts): the variants, the paper's
 * figures, the kernel sets and the per-kernel measures both read.
 */
#ifndef REPORT_VT_H
#define REPORT_VT_H
#include "report.h"

enum { B_LRR, VT_LRR, MAX_LRR, B_GTO, VT_GTO, MAX_GTO, B_TW, VT_TW, MAX_TW, VT_256, VT_1024,
       VT_0, NV };

#define MAXK REP_MAX_KERNELS

/* 004 Section V (vt-design.md section 1, items 20-25): the paper's averages. */
#define P_VT 1.239           /* Fig. 8/9: VT over Baseline, LRR (and TW) */
#define P_MAX 1.269          /* Fig. 8: MAX over Baseline, LRR */
#define P_VT_GTO 1.222       /* Fig. 9: VT over Baseline, GTO */
#define P_STALL_CUT 0.181    /* Fig. 4: stall cycles VT removes */
#define P_IDEAL 1.004        /* Fig. 10: ideal swap over 512 bits per cycle */
#define P_RF_B 0.502         /* Fig. 12: register file used, Baseline -> VT */
#define P_RF_VT 0.938
#define P_SM_B 0.154         /* ... shared memory */
#define P_SM_VT 0.385
#define P_MISS_UP 0.017      /* Fig. 13: L1 miss rate up by less than this */
#define P_MSHR_B 0.175       /* ... L1 MSHRs in use */
#define P_MSHR_VT 0.271
#define P_DRAM_B 0.217       /* ... DRAM bandwidth */
#define P_DRAM_VT 0.274

/* The kernel sets a headline is given over: every headroom kernel, or those of more than one
   CTA per launch. */
enum kset { KS_ALL, KS_MULTI };

/* Variant v's statistics on kernel k. */
const struct gs_stats *vt_st(const struct rep *r, unsigned k, unsigned v);
/* The headroom kernels (VT holds more CTAs than the baseline), in bench order; their count. */
unsigned vt_hkernels(const struct rep *r, unsigned *ks);
/* Normalised IPC of v over b on kernel k (b's cycles over v's), and its mean over the headroom
   kernels (geo: geometric, else arithmetic). */
double vt_nipc(const struct rep *r, unsigned k, unsigned v, unsigned b);
double vt_mean_ipc(const struct rep *r, unsigned v, unsigned b, int geo);
/* The mean of statistic `json` under v over the headroom kernels. */
double vt_mean_stat(const struct rep *r, unsigned v, const char *json);
/* A figure's SVG path beside the Markdown (base: the file name alone). */
void vt_fig_path(const struct rep *r, const char *fig, int base, char *buf, size_t n);
/* Fig. 10's variants (256, 512, 1 024, ideal bits per cycle) and Fig. 13's statistics. */
extern const unsigned vt_fig10_vars[4];
extern const char *const vt_fig13_stats[3];
/* report_vt_chart.c: Figs. 8, 9, 10, 12 and 13 as SVG charts beside the Markdown; 0, or -1. */
int vt_charts(const struct rep *r);

#endif
