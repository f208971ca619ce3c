/*
 * report_dws.c -- gpusim report dws: the evaluation of 002_ddcb2f79a6edfee4.txt (dynamic warp
 * subdivision, slides "Results (1)" and "Results (2)" and the backup slide "WST Hardware
 * Overhead") on the bench suite, written to docs/dws.md (above the kept notes), a CSV and one
 * SVG chart per configuration.
 *
 * Twelve variants: the conventional baseline (dws = off) and the five DWS variants (BranchOnly,
 * AggressSplit, LazySplit, ReviveSplit, ReviveSplit.MemOnly) on two configurations -- the
 * options' (--config, default gtx480) and configs/dws.cfg (the slides' machine in spirit).
 * Every run's results are checked against the kernel's C reference; a wrong or failed run is
 * marked and makes the exit status 1. Speed-up is the baseline's cycles over the variant's on
 * the same configuration. Kernels are classed from the first configuration's baseline run:
 * memory-latency-divergent by the bench rule of docs/bench.md (cat_shows C_MEMLAT: uncoalesced
 * gathers with an L1 hit rate between 1 and 99 %), branch-divergent when lane utilisation is
 * below 90 % with divergent branches. The never-worse check lists every run slower than its
 * baseline (by more than 0.5 %) with the reasons the statistics give (rules in reasons()).
 * Cost: the storage the DWS configuration adds over dws = off, block by block (cost/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "gpu/stats.h"
#include "sm/iss.h"
#include "../cost/estimate.h"
#include "gpu/blocks.h"
#include "svg.h"

#define NM 6                           /* variants per configuration */
#define NC 2                           /* configurations */
#define NV (NM * NC)
#define DWS_CFG "configs/dws.cfg"

enum { M_BASE, M_BRANCH, M_AGGRESS, M_LAZY, M_REVIVE, M_MEMONLY };

static const char *const m_names[NM] = {"base", "BranchOnly", "AggressSplit", "LazySplit",
                                        "ReviveSplit", "RevMemOnly"};

#define VAR(n, w, s, c) {n, w, {s}, c, 0}
static const struct rep_var vars[NV] = {
    VAR("base", "conventional branch and miss handling (SIMT stack)", "dws=off", NULL),
    VAR("BranchOnly", "subdivide on branch divergence alone", "dws=branch", NULL),
    VAR("AggressSplit", "branches, and every divergent cache access", "dws=aggress", NULL),
    VAR("LazySplit", "branches; a cache access only when one active warp is left", "dws=lazy",
        NULL),
    VAR("ReviveSplit", "LazySplit, and suspended splits may subdivide again", "dws=revive", NULL),
    VAR("RevMemOnly", "ReviveSplit.MemOnly: memory-latency divergence only", "dws=revive_mem",
        NULL),
    VAR("base/d", "dws.cfg, conventional", "dws=off", DWS_CFG),
    VAR("BranchOnly/d", "dws.cfg, BranchOnly", "dws=branch", DWS_CFG),
    VAR("AggressSplit/d", "dws.cfg, AggressSplit", "dws=aggress", DWS_CFG),
    VAR("LazySplit/d", "dws.cfg, LazySplit", "dws=lazy", DWS_CFG),
    VAR("ReviveSplit/d", "dws.cfg, ReviveSplit", "dws=revive", DWS_CFG),
    VAR("RevMemOnly/d", "dws.cfg, ReviveSplit.MemOnly", "dws=revive_mem", DWS_CFG),
};

#define NOTES_MARK "<!-- notes below: kept by make report-dws -->"
#define MAXK REP_MAX_KERNELS
#define SLOWER 0.995                   /* rep_direction's band: slower by more than 0.5 % */

/* The slides' figures ("Results (2)", "WST Hardware Overhead"). */
#define P_BOTH 1.7                     /* branch + memory subdivision, average speed-up */
#define P_WST_PCT 1.0                  /* WST < 1 % of the WPU's area */

enum { K_BOTH, K_BRANCH, K_MEM, K_NONE, NK };
static const char *const k_names[NK] = {"branch + memory", "branch", "memory", "neither"};

/* ------------------------------------------------------------------ per kernel */

static const struct gs_stats *st(const struct rep *r, unsigned k, unsigned v)
{
    return &rep_res(r, k, v)->st;
}

static int branch_div(const struct gs_stats *s)
{
    return gs_lane_utilization(s) < 0.9 && s->divergent_branches > 0;
}

static unsigned kclass(const struct rep *r, unsigned k)
{
    const struct gs_stats *s = st(r, k, M_BASE);
    int b = branch_div(s), m = cat_shows(C_MEMLAT, s);
    return b && m ? K_BOTH : b ? K_BRANCH : m ? K_MEM : K_NONE;
}

/* Speed-up of variant m on configuration c for kernel k (0 if a run failed). */
static double sp(const struct rep *r, unsigned k, unsigned c, unsigned m)
{
    const struct result *b = rep_res(r, k, c * NM), *x = rep_res(r, k, c * NM + m);
    return b->rc || x->rc ? 0.0 : rep_ratio(b->st.cycles, x->st.cycles);
}

/* Geometric (geo) or arithmetic mean of sp over the kernels of class cl (NK: all). */
static double mean_sp(const struct rep *r, unsigned c, unsigned m, unsigned cl, int geo)
{
    double x[MAXK];
    unsigned n = 0;
    for (unsigned k = 0; k < r->n; k++)
        if (cl == NK || kclass(r, k) == cl)
            x[n++] = sp(r, k, c, m);
    return geo ? rep_gmean(x, n) : rep_amean(x, n);
}

static const char *cfg_name(const struct rep *r, unsigned c)
{
    return c ? DWS_CFG : r->o->config ? r->o->config : "gtx480 (defaults)";
}

/* The configuration's file name without its folder and ".cfg" (the tables' and CSV's label). */
static void cfg_label(const struct rep *r, unsigned c, char *buf, size_t n)
{
    const char *p = c ? DWS_CFG : r->o->config ? r->o->config : "gtx480", *sl = strrchr(p, '/');
    size_t len;
    p = sl ? sl + 1 : p;
    len = strlen(p);
    if (len > 4 && !strcmp(p + len - 4, ".cfg"))
        len -= 4;
    snprintf(buf, n, "%.*s", (int)len, p);
}

/* ------------------------------------------------------------------ speed-up tables */

static void speedup_table(FILE *f, const struct rep *r, unsigned c)
{
    fprintf(f, "| kernel | class | base cycles |");
    for (unsigned m = 1; m < NM; m++)
        fprintf(f, " %s |", m_names[m]);
    fprintf(f, "\n|---|---|---:|");
    for (unsigned m = 1; m < NM; m++)
        fprintf(f, "---:|");
    fprintf(f, "\n");
    for (unsigned k = 0; k < r->n; k++) {
        fprintf(f, "| %s | %s | %llu%s |", r->all[k]->name, k_names[kclass(r, k)],
                (unsigned long long)st(r, k, c * NM)->cycles, rep_mark(rep_res(r, k, c * NM)));
        for (unsigned m = 1; m < NM; m++)
            fprintf(f, " %.3f%s |", sp(r, k, c, m), rep_mark(rep_res(r, k, c * NM + m)));
        fprintf(f, "\n");
    }
    for (unsigned cl = 0; cl <= NK; cl++) {
        fprintf(f, "| **geo. mean, %s** | |  |", cl == NK ? "all" : k_names[cl]);
        for (unsigned m = 1; m < NM; m++)
            fprintf(f, " %.3f |", mean_sp(r, c, m, cl, 1));
        fprintf(f, "\n");
    }
    fprintf(f, "| **arith. mean, all** | | |");
    for (unsigned m = 1; m < NM; m++)
        fprintf(f, " %.3f |", mean_sp(r, c, m, NK, 0));
    fprintf(f, "\n\n");
}

static void fig_path(const struct rep *r, const char *fig, int base, char *buf, size_t n)
{
    rep_fig_path(r, "docs/dws.md", fig, base, buf, n);
}

static void speedups(FILE *f, const struct rep *r)
{
    fprintf(f, "## Speed-up over the conventional baseline (Results (1) form)\n\n"
            "Baseline cycles over the variant's, per kernel, on each configuration; the class "
            "is the kernel's behaviour under the first configuration's baseline (see above). "
            "The slides: \"subdividing upon both branch and memory latency divergence yield "
            "1.7X speedup on average\", \"subdividing upon branches or memory accesses alone "
            "leads to modest speedup\".\n\n");
    for (unsigned c = 0; c < NC; c++) {
        char name[1024];
        fig_path(r, c ? "dwscfg" : "first", 1, name, sizeof name);
        fprintf(f, "### %s\n\n![speed-up per kernel, %s](%s)\n\n", cfg_name(r, c),
                cfg_name(r, c), name);
        speedup_table(f, r, c);
    }
}

/* ------------------------------------------------------------------ never worse */

static double miss_rate(const struct gs_stats *s)
{
    return rep_stat(s, "l1_miss_rate");
}

static double sched_total(const struct gs_stats *s)
{
    double t = 0;
    for (unsigned i = 0; i < GS_STALL_KINDS; i++)
        t += (double)s->t.sched_cycles[i];
    return t;
}

/* The scheduler outcome (not "issued") whose cycles grew most from b to x; -1 if none grew. */
static int worst_stall(const struct gs_stats *b, const struct gs_stats *x, double *grew)
{
    int w = -1;
    *grew = 0;
    for (unsigned i = 1; i < GS_STALL_KINDS; i++) {
        double d = (double)x->t.sched_cycles[i] - (double)b->t.sched_cycles[i];
        if (d > *grew) {
            *grew = d;
            w = (int)i;
        }
    }
    return w;
}

/* Why x (a DWS run) is slower than b (its baseline), from the statistics. Rules: (1) the
   splits issue the lanes' work as more, narrower warp instructions (warp instructions +5 % or
   more); (2) the L1 misses more (miss rate up by a point or more); (3) the WST was full in
   more than 10 % of the SM-cycles (splits refused); always (4) the scheduler outcome whose
   cycles grew most. */
static void reasons(FILE *f, const struct gs_stats *b, const struct gs_stats *x)
{
    double wi = rep_ratio(x->warp_insns, b->warp_insns), grew;
    double full = rep_ratio(x->t.wst_full_cycles, x->cycles * (x->t.nsms ? x->t.nsms : 1));
    int w = worst_stall(b, x, &grew);
    if (wi >= 1.05)
        fprintf(f, "narrower warp instructions: %+.1f %% warp instructions, lane utilisation "
                "%.1f %% -> %.1f %%; ", 100.0 * (wi - 1), 100.0 * gs_lane_utilization(b),
                100.0 * gs_lane_utilization(x));
    if (miss_rate(x) - miss_rate(b) >= 0.01)
        fprintf(f, "more L1 misses: miss rate %.1f %% -> %.1f %%; ", 100.0 * miss_rate(b),
                100.0 * miss_rate(x));
    if (full > 0.1)
        fprintf(f, "WST full in %.1f %% of SM-cycles; ", 100.0 * full);
    if (w >= 0)
        fprintf(f, "scheduler cycles '%s' +%.1f %% of the baseline's scheduler cycles",
                iss_class_names[w], 100.0 * rep_ratio((uint64_t)grew, (uint64_t)sched_total(b)));
    else
        fprintf(f, "no scheduler outcome grew");
}

static unsigned slower_runs(const struct rep *r)
{
    unsigned n = 0;
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned c = 0; c < NC; c++)
            for (unsigned m = 1; m < NM; m++)
                n += sp(r, k, c, m) > 0 && sp(r, k, c, m) < SLOWER;
    return n;
}

static void never_worse(FILE *f, const struct rep *r)
{
    unsigned n = slower_runs(r);
    fprintf(f, "## The never-worse check\n\nThe slides: \"no performance degradation is "
            "observed on any benchmarks\". Here %u of %u DWS runs are slower than their "
            "baseline by more than 0.5 %%%s\n\n", n, r->n * NC * (NM - 1), n ? ":" : ".");
    if (!n)
        return;
    fprintf(f, "| configuration | kernel | variant | speed-up | reasons (from the statistics) |\n"
            "|---|---|---|---:|---|\n");
    for (unsigned c = 0; c < NC; c++)
        for (unsigned k = 0; k < r->n; k++)
            for (unsigned m = 1; m < NM; m++) {
                double x = sp(r, k, c, m);
                if (!(x > 0 && x < SLOWER))
                    continue;
                char lab[64];
                cfg_label(r, c, lab, sizeof lab);
                fprintf(f, "| %s | %s | %s | %.3f | ", lab, r->all[k]->name, m_names[m], x);
                reasons(f, st(r, k, c * NM), st(r, k, c * NM + m));
                fprintf(f, " |\n");
            }
    fprintf(f, "\nReasons, in this order, when they hold: the splits issued at least 5 %% more "
            "warp instructions than the baseline (the same lanes' work in narrower "
            "instructions); the L1 miss rate rose by a point or more; the WST was full in more "
            "than 10 %% of the SM-cycles; and always the scheduler outcome (docs/timing.md) "
            "whose cycles grew most (a scheduler's cycle is issued or one stall outcome), as a "
            "share of the baseline's scheduler cycles.\n\n");
}

/* ------------------------------------------------------------------ splits and the WST */

static void split_table(FILE *f, const struct rep *r, unsigned c, unsigned m)
{
    fprintf(f, "| kernel | speed-up | branch splits | memory splits | merges by pc | merges at "
            "the stack PD | lanes run ahead | hit/miss-mix completions | WST mean | WST max | "
            "WST full %% | lane util. base -> DWS |\n|---|---:|---:|---:|---:|---:|---:|---:|---:"
            "|---:|---:|---|\n");
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *b = st(r, k, c * NM), *x = st(r, k, c * NM + m);
        fprintf(f, "| %s | %.3f | %llu | %llu | %llu | %llu | %llu | %llu | %.2f | %llu | %.1f | "
                "%.1f -> %.1f |\n", r->all[k]->name, sp(r, k, c, m),
                (unsigned long long)x->t.split_branch, (unsigned long long)x->t.split_mem,
                (unsigned long long)x->t.split_merge_pc, (unsigned long long)x->t.split_merge_rpc,
                (unsigned long long)x->t.split_runahead_lanes,
                (unsigned long long)x->t.split_mixed_accesses, rep_stat(x, "wst_occupancy_mean"),
                (unsigned long long)x->t.wst_occ_max,
                100.0 * rep_ratio(x->t.wst_full_cycles, x->cycles * (x->t.nsms ? x->t.nsms : 1)),
                100.0 * gs_lane_utilization(b), 100.0 * gs_lane_utilization(x));
    }
    fprintf(f, "\n");
}

/* Means over the kernels of variant v's WST occupancy figures. */
static void wst_means(const struct rep *r, unsigned v, double *mean, double *max, double *full)
{
    *mean = *max = *full = 0;
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *x = st(r, k, v);
        *mean += rep_stat(x, "wst_occupancy_mean") / r->n;
        *max += (double)x->t.wst_occ_max / r->n;
        *full += rep_ratio(x->t.wst_full_cycles, x->cycles * (x->t.nsms ? x->t.nsms : 1)) / r->n;
    }
}

/* Configuration c with the options' --set keys and dws = `dws` (no simulation: the cost
   estimator's loader); 0, or -1 with the message in err. */
static int load_cfg(const struct rep *r, unsigned c, const char *dws, struct gpu_config *conf,
                    char *err, size_t errlen)
{
    const char *sets[MAX_SETS + 1];
    int n = 0;
    for (int i = 0; i < r->o->nsets && n < MAX_SETS; i++)
        sets[n++] = r->o->sets[i];
    sets[n++] = dws;
    return est_load_config(conf, c ? DWS_CFG : r->o->config, sets, n, err, errlen);
}

/* WST entries per SM on configuration c: a split slot per entry beside the warps' home
   slots, (dws_wst_factor - 1) x warps (sm_limits.h); 0 if the configuration does not load. */
static unsigned wst_entries(const struct rep *r, unsigned c)
{
    struct gpu_config conf;
    char err[512];
    if (load_cfg(r, c, "dws=aggress", &conf, err, sizeof err))
        return 0;
    return (conf.dws_wst_factor - 1) * conf.max_warps_per_sm;
}

static void occupancy(FILE *f, const struct rep *r)
{
    fprintf(f, "## WST occupancy\n\nEntries in use per SM (the table has (`dws_wst_factor` - 1) "
            "x warps entries, a split slot each: %u on the first configuration, %u on %s): means over the kernels "
            "of each kernel's mean, max and share of SM-cycles with the table full.\n\n| variant | configuration | entries used, mean | "
            "max | cycles full %% |\n|---|---|---:|---:|---:|\n", wst_entries(r, 0), wst_entries(r, 1),
            DWS_CFG);
    for (unsigned c = 0; c < NC; c++)
        for (unsigned m = 1; m < NM; m++) {
            double mean, max, full;
            char lab[64];
            cfg_label(r, c, lab, sizeof lab);
            wst_means(r, c * NM + m, &mean, &max, &full);
            fprintf(f, "| %s | %s | %.2f | %.1f | %.1f |\n", m_names[m], lab, mean, max,
                    100.0 * full);
        }
    fprintf(f, "\n");
    for (unsigned c = 0; c < NC; c++) {
        fprintf(f, "### Splits per kernel, ReviveSplit, %s\n\n", cfg_name(r, c));
        split_table(f, r, c, M_REVIVE);
    }
    fprintf(f, "Every variant's figures are in the CSV.\n\n");
}

/* ------------------------------------------------------------------ cost */

struct dws_cost {
    int ok;
    char err[512];
    struct est off, on;               /* dws = off and dws = aggress (the same storage for
                                         every variant: the variant is a policy, not a size) */
};

static int cost_build(const struct rep *r, unsigned c, struct dws_cost *dc)
{
    struct gpu_config conf;
    if (load_cfg(r, c, "dws=off", &conf, dc->err, sizeof dc->err) ||
        est_build(&dc->off, &conf, dc->err, sizeof dc->err) ||
        load_cfg(r, c, "dws=aggress", &conf, dc->err, sizeof dc->err) ||
        est_build(&dc->on, &conf, dc->err, sizeof dc->err))
        return -1;
    return 0;
}

static double pct_sm(double um2)
{
    return 100.0 * um2 / (est_sm_mm2(est_gf100()) * 1e6);
}

static void cost_rows(FILE *f, const struct dws_cost *dc, double *wst_pct, double *all_pct)
{
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    struct est_sum t0 = est_sum(&dc->off.sm, NULL, NULL), t1 = est_sum(&dc->on.sm, NULL, NULL);
    for (unsigned i = 0; i < n; i++) {
        if (all[i].level != BLK_LEVEL_SM)
            continue;
        struct est_sum a = est_sum(&dc->off.sm, all[i].name, NULL);
        struct est_sum b = est_sum(&dc->on.sm, all[i].name, NULL);
        if (a.bits == b.bits)
            continue;
        double d = b.um2[EST_REF_NODE] - a.um2[EST_REF_NODE];
        fprintf(f, "| %s | %llu | %llu | %+lld | %.0f | %.3f |\n", all[i].name,
                (unsigned long long)a.bits, (unsigned long long)b.bits,
                (long long)b.bits - (long long)a.bits, d, pct_sm(d));
        if (!strcmp(all[i].name, "wst"))
            *wst_pct = pct_sm(d);
    }
    *all_pct = pct_sm(t1.um2[EST_REF_NODE] - t0.um2[EST_REF_NODE]);
    fprintf(f, "| **SM total** | %llu | %llu | %+lld | %.0f | %.3f |\n\n",
            (unsigned long long)t0.bits, (unsigned long long)t1.bits,
            (long long)t1.bits - (long long)t0.bits,
            t1.um2[EST_REF_NODE] - t0.um2[EST_REF_NODE], *all_pct);
}

static void cost(FILE *f, const struct rep *r, double *wst_pct, double *all_pct)
{
    fprintf(f, "## Cost: the storage DWS adds\n\nFrom `gpusim cost` (docs/cost-model.md): "
            "storage per SM under dws = off and under DWS (every variant has the same storage), "
            "the blocks whose storage changes, area at 40 nm and as a share of a GF100 SM "
            "(%.2f mm^2). The WST is the table itself; the other rows are what the split slots "
            "need beside it in this model: each split slot is a schedulable slot with its own "
            "pc, mask and SIMT stack, I-buffer, scoreboard row and issue state, and fu/ldst "
            "carry the owned lanes.\n\n", est_sm_mm2(est_gf100()));
    for (unsigned c = 0; c < NC; c++) {
        struct dws_cost *dc = calloc(1, sizeof *dc);
        fprintf(f, "### %s\n\n", cfg_name(r, c));
        if (!dc || cost_build(r, c, dc)) {
            fprintf(f, "(no estimate: %s)\n\n", dc ? dc->err : "out of memory");
            free(dc);
            continue;
        }
        fprintf(f, "| block | bits, dws = off | bits, DWS | added bits | added um^2 @40 nm | "
                "added %% of SM |\n|---|---:|---:|---:|---:|---:|\n");
        cost_rows(f, dc, &wst_pct[c], &all_pct[c]);
        free(dc);
    }
}

/* ------------------------------------------------------------------ findings */

static double best_both(const struct rep *r, unsigned c, unsigned *which)
{
    double best = 0;
    for (unsigned m = M_AGGRESS; m <= M_REVIVE; m++)
        if (mean_sp(r, c, m, NK, 0) > best) {
            best = mean_sp(r, c, m, NK, 0);
            *which = m;
        }
    return best;
}

static void findings(FILE *f, const struct rep *r, const double *wst_pct, const double *all_pct)
{
    fprintf(f, "## Against the slides (computed)\n\n");
    for (unsigned c = 0; c < NC; c++) {
        unsigned w = M_AGGRESS;
        double both = best_both(r, c, &w);
        double alone = mean_sp(r, c, M_BRANCH, NK, 0), mem = mean_sp(r, c, M_MEMONLY, NK, 0);
        fprintf(f, "- %s: branch and memory subdivision, best arithmetic mean %.3f (%s); the "
                "slides %.1f -- %s. Alone: BranchOnly %.3f, ReviveSplit.MemOnly %.3f -- %s than "
                "both (the slides: \"modest\").\n", cfg_name(r, c), both, m_names[w], P_BOTH,
                both >= 0.9 * P_BOTH ? "near" : "far below", alone, mem,
                alone <= both && mem <= both ? "no more" : "**more**");
    }
    fprintf(f, "- Never worse: %u slower runs (the slides: none) -- %s.\n", slower_runs(r),
            slower_runs(r) ? "**does not hold here**, see the check above" : "holds");
    for (unsigned c = 0; c < NC; c++)
        fprintf(f, "- Cost, %s: the WST alone %.3f %% of a GF100 SM (the slides: < %.0f %% of "
                "the WPU) -- %s; everything DWS adds %.3f %%.\n", cfg_name(r, c), wst_pct[c],
                P_WST_PCT, wst_pct[c] < P_WST_PCT ? "holds" : "**does not hold**", all_pct[c]);
    fprintf(f, "\n");
}

/* ------------------------------------------------------------------ the document */

static void header(FILE *f, const struct rep *r)
{
    const struct opts *o = r->o;
    unsigned cnt[NK] = {0};
    for (unsigned k = 0; k < r->n; k++)
        cnt[kclass(r, k)]++;
    fprintf(f, "# DWS: dynamic warp subdivision (002)\n\nGenerated by `make report-dws` "
            "(`build/gpusim report dws --size %s%s%s`): the evaluation of "
            "002_ddcb2f79a6edfee4.txt (Meng, Tarjan, Skadron: \"Dynamic Warp Subdivision for "
            "Integrated Branch and Memory Divergence Tolerance\", slides \"Results (1)\", "
            "\"Results (2)\" and the backup slide \"WST Hardware Overhead\") on the %u bench "
            "kernels of docs/bench.md, on %s and %s. %u runs, %u with wrong or failed "
            "results%s.\n\n", o->size == BENCH_TEST ? "test" : "default",
            o->config ? " --config " : "", o->config ? o->config : "", r->n,
            cfg_name(r, 0), DWS_CFG, r->runs, r->bad, r->bad ? " (marked WRONG / ERROR)" :
            " (every run's results checked against its C reference)");
    for (int i = 0; i < o->nsets; i++)
        fprintf(f, "%s`--set %s`", i ? ", " : "Every variant also has ", o->sets[i]);
    fprintf(f, "%sVariants (the second configuration's are the same with `--config %s`):\n\n",
            o->nsets ? " (before its own). " : "", DWS_CFG);
    for (unsigned m = 0; m < NM; m++)
        rep_var_line(f, &vars[m]);
    fprintf(f, "\nKernel classes, from the first configuration's baseline run: *memory* -- "
            "memory-latency divergence by docs/bench.md's rule (uncoalesced gathers: more than "
            "2 L1 accesses per memory instruction and an L1 hit rate between 1 and 99 %%); "
            "*branch* -- lane utilisation below 90 %% with divergent branches. %u kernels "
            "branch + memory, %u branch, %u memory, %u neither. The model is described below "
            "the tables; DWS's configuration keys in docs/config.md.\n\n",
            cnt[K_BOTH], cnt[K_BRANCH], cnt[K_MEM], cnt[K_NONE]);
}

static void body(FILE *f, const struct rep *r)
{
    double wst_pct[NC] = {0}, all_pct[NC] = {0};
    header(f, r);
    speedups(f, r);
    never_worse(f, r);
    occupancy(f, r);
    cost(f, r, wst_pct, all_pct);
    findings(f, r, wst_pct, all_pct);
}

/* ------------------------------------------------------------------ CSV and charts */

static void rows(FILE *f, const struct rep *r)
{
    static const char *const cols[] = {"split_branch", "split_mem", "split_merge_pc",
        "split_merge_rpc", "split_runahead_lanes", "split_mixed_accesses", "wst_occupancy_mean",
        "wst_occupancy_max", "wst_full_cycles", "lane_utilization", "l1_miss_rate",
        "divergent_branches"};
    unsigned nc = sizeof cols / sizeof *cols;
    fprintf(f, "kernel,class,config,variant,correct,cycles,warp_insns,speedup");
    for (unsigned i = 0; i < nc; i++)
        fprintf(f, ",%s", cols[i]);
    fprintf(f, "\n");
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned v = 0; v < NV; v++) {
            const struct gs_stats *s = st(r, k, v);
            char lab[64];
            cfg_label(r, v / NM, lab, sizeof lab);
            fprintf(f, "%s,%s,%s,%s,%d,%llu,%llu,%.6f", r->all[k]->name, k_names[kclass(r, k)],
                    lab, m_names[v % NM], rep_res(r, k, v)->rc == 0,
                    (unsigned long long)s->cycles, (unsigned long long)s->warp_insns,
                    sp(r, k, v / NM, v % NM));
            for (unsigned i = 0; i < nc; i++)
                fprintf(f, ",%.6f", rep_stat(s, cols[i]));
            fprintf(f, "\n");
        }
}

static int chart(const struct rep *r, unsigned c)
{
    static const char *series[NM - 1];
    const char *groups[MAXK + 1];
    double v[(MAXK + 1) * (NM - 1)];
    char path[1024], title[256];
    struct svg_bars b = {title, "speed-up over the baseline", r->n + 1, NM - 1, groups, series, v,
                         1.0};
    snprintf(title, sizeof title, "DWS speed-up per kernel, %s", cfg_name(r, c));
    for (unsigned m = 1; m < NM; m++)
        series[m - 1] = m_names[m];
    for (unsigned k = 0; k <= r->n; k++) {
        groups[k] = k < r->n ? r->all[k]->name : "geo. mean";
        for (unsigned m = 1; m < NM; m++)
            v[k * (NM - 1) + m - 1] = k < r->n ? sp(r, k, c, m) : mean_sp(r, c, m, NK, 1);
    }
    fig_path(r, c ? "dwscfg" : "first", 0, path, sizeof path);
    return svg_bars_write(path, &b);
}

int report_dws(const struct opts *o)
{
    struct rep r;
    int rc = rep_open(&r, o, vars, NV);
    if (rc)
        return rc;
    if (rep_run(&r, NULL) || chart(&r, 0) || chart(&r, 1)) {
        rep_close(&r);
        return 2;
    }
    rc = rep_finish(&r, o->markdown ? o->markdown : "docs/dws.md",
                    o->csv ? o->csv : "docs/dws.csv", NOTES_MARK, body, rows, 0);
    rep_close(&r);
    return rc;
}
