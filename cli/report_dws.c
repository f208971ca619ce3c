/*
 * report_dws.c -- gpusim report dws: the evaluation of 002_ddcb2f79a6edfee4.txt (dynamic warp
 * subdivision, slides "Results (1)" and "Results (2)", "Implementation: Reconvergence
 * Challenges" and the backup slide "WST Hardware Overhead") on the bench suite, written to
 * docs/dws.md (above the kept notes), a CSV and one SVG chart per configuration.
 *
 * Variants on two configurations -- the options' (--config, default gtx480) and configs/dws.cfg
 * (the slides' machine in spirit): the conventional baseline (dws = off) and the five DWS
 * variants (BranchOnly, AggressSplit, LazySplit, ReviveSplit, ReviveSplit.MemOnly); BranchOnly
 * and ReviveSplit with the over-subdivision rule off (dws_oversub = 0); on configs/dws.cfg
 * AggressSplit and ReviveSplit with the table at 3 and 4 times the warps (dws_wst_factor; 2 is
 * the slides' limit and the default; on gtx480's 48 warps 3 and 4 exceed the SM's 128 slots).
 * Every run's results are checked against the kernel's C reference; a wrong or failed run is
 * marked and makes the exit status 1. Speed-up is the baseline's cycles over the variant's on
 * the same configuration. Kernels are classed from the first configuration's baseline run:
 * memory-latency-divergent by the bench rule of docs/bench.md (cat_shows C_MEMLAT: uncoalesced
 * gathers with an L1 hit rate between 1 and 99 %), branch-divergent when lane utilisation is
 * below 90 % with divergent branches. At the test size every kernel runs every variant; at the
 * default size (hours) the first configuration's baselines run first and the DWS variants then
 * run on the divergent kernels only (every kernel --kernels names). Runs go through the result
 * cache (--cache DIR, default $GPUSIM_CACHE or ~/.cache/gpusim; none: off), so a repeated or
 * interrupted report takes the finished runs from it. The never-worse check lists every run
 * slower than its baseline (by more than 0.5 %) with the reasons the statistics give (rules in
 * reasons()); the split chances are shown split or refused by reason (stats_list.h).
 * Cost: the storage the DWS configuration adds over dws = off, block by block (cost/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "gpu/stats.h"
#include "../cost/estimate.h"
#include "gpu/blocks.h"
#include "sm/sm.h"
#include "sm/sm_dws.h"
#include "sm/sm_limits.h"
#include "cache.h"
#include "svg.h"

#define NC 2                           /* configurations */
#define DWS_CFG "configs/dws.cfg"

/* The modes of a configuration: the baseline, the five variants (NMAIN: the main tables), the
   over-subdivision rule off, the table's size sweep. */
enum { M_BASE, M_BRANCH, M_AGGRESS, M_LAZY, M_REVIVE, M_MEMONLY, NMAIN,
       M_BRANCH_NR = NMAIN, M_REVIVE_NR, M_AGGRESS_F3, M_AGGRESS_F4, M_REVIVE_F3, M_REVIVE_F4, NM };

static const char *const m_names[NM] = {"base", "BranchOnly", "AggressSplit", "LazySplit",
    "ReviveSplit", "RevMemOnly", "BranchOnly, no rule", "ReviveSplit, no rule",
    "AggressSplit, x3", "AggressSplit, x4", "ReviveSplit, x3", "ReviveSplit, x4"};

/* The DWS variants are the dws_* rows of cli/mech.c (MECH_SETS), with the report's
   dws_oversub = 0 (NR) or table size; the baseline's dws = off is the report's own. */
#define VAR(n, w, c, ...) {n, w, {__VA_ARGS__}, c, 0}
#define DWS(m) MECH_SETS("dws_" m)
#define NR "dws_oversub=0"
static const struct rep_var vars[] = {
    VAR("base", "conventional branch and miss handling (SIMT stack)", NULL, "dws=off"),
    VAR("BranchOnly", "subdivide on branch divergence alone", NULL, DWS("branch")),
    VAR("AggressSplit", "branches, and every divergent cache access", NULL, DWS("aggress")),
    VAR("LazySplit", "branches; a cache access only when one active warp is left", NULL,
        DWS("lazy")),
    VAR("ReviveSplit", "LazySplit, and suspended splits may subdivide again", NULL, DWS("revive")),
    VAR("RevMemOnly", "ReviveSplit.MemOnly: memory-latency divergence only", NULL,
        DWS("revive_mem")),
    VAR("BranchOnly/nr", "BranchOnly without the over-subdivision rule", NULL, DWS("branch"), NR),
    VAR("ReviveSplit/nr", "ReviveSplit without the over-subdivision rule", NULL, DWS("revive"),
        NR),
    VAR("base/d", "dws.cfg, conventional", DWS_CFG, "dws=off"),
    VAR("BranchOnly/d", "dws.cfg, BranchOnly", DWS_CFG, DWS("branch")),
    VAR("AggressSplit/d", "dws.cfg, AggressSplit", DWS_CFG, DWS("aggress")),
    VAR("LazySplit/d", "dws.cfg, LazySplit", DWS_CFG, DWS("lazy")),
    VAR("ReviveSplit/d", "dws.cfg, ReviveSplit", DWS_CFG, DWS("revive")),
    VAR("RevMemOnly/d", "dws.cfg, ReviveSplit.MemOnly", DWS_CFG, DWS("revive_mem")),
    VAR("BranchOnly/d/nr", "dws.cfg, BranchOnly without the rule", DWS_CFG, DWS("branch"), NR),
    VAR("ReviveSplit/d/nr", "dws.cfg, ReviveSplit without the rule", DWS_CFG, DWS("revive"), NR),
    VAR("AggressSplit/d/x3", "dws.cfg, AggressSplit, the table 3 x the warps", DWS_CFG,
        DWS("aggress"), "dws_wst_factor=3"),
    VAR("AggressSplit/d/x4", "dws.cfg, AggressSplit, the table 4 x the warps", DWS_CFG,
        DWS("aggress"), "dws_wst_factor=4"),
    VAR("ReviveSplit/d/x3", "dws.cfg, ReviveSplit, the table 3 x the warps", DWS_CFG,
        DWS("revive"), "dws_wst_factor=3"),
    VAR("ReviveSplit/d/x4", "dws.cfg, ReviveSplit, the table 4 x the warps", DWS_CFG,
        DWS("revive"), "dws_wst_factor=4"),
};
#define NV (sizeof vars / sizeof vars[0])
#define NM0 8                          /* modes of the first configuration (no sweep) */
_Static_assert(NV == NM0 + NM, "the variants: the first configuration's, then configs/dws.cfg's");

/* The variant of mode m on configuration c, or -1 (the first configuration has no sweep). */
static int vi(unsigned c, unsigned m)
{
    return c == 0 ? (m < NM0 ? (int)m : -1) : (int)(NM0 + m);
}

static unsigned v_cfg(unsigned v)
{
    return v >= NM0;
}

static unsigned v_mode(unsigned v)
{
    return v >= NM0 ? v - NM0 : v;
}

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

/* Mode m's statistics on configuration c for kernel k, NULL if it did not run. */
static const struct gs_stats *stm(const struct rep *r, unsigned k, unsigned c, unsigned m)
{
    int v = vi(c, m);
    return v >= 0 && rep_ran(r, k, (unsigned)v) ? st(r, k, (unsigned)v) : NULL;
}

static int branch_div(const struct gs_stats *s)
{
    return gs_lane_utilization(s) < 0.9 && s->divergent_branches > 0;
}

static unsigned kclass(const struct rep *r, unsigned k)
{
    const struct gs_stats *s = st(r, k, 0);
    int b = branch_div(s), m = cat_shows(C_MEMLAT, s);
    return b && m ? K_BOTH : b ? K_BRANCH : m ? K_MEM : K_NONE;
}

/* Speed-up of mode m on configuration c for kernel k (0 if a run failed or did not run). */
static double sp(const struct rep *r, unsigned k, unsigned c, unsigned m)
{
    int b = vi(c, M_BASE), v = vi(c, m);
    const struct result *x, *y;
    if (b < 0 || v < 0 || !rep_ran(r, k, (unsigned)b) || !rep_ran(r, k, (unsigned)v))
        return 0.0;
    x = rep_res(r, k, (unsigned)b);
    y = rep_res(r, k, (unsigned)v);
    return x->rc || y->rc ? 0.0 : rep_ratio(x->st.cycles, y->st.cycles);
}

/* " %.3f" of a speed-up with its run's mark, or " -" for a run not made. */
static void put_sp(FILE *f, const struct rep *r, unsigned k, unsigned c, unsigned m)
{
    int v = vi(c, m);
    if (v < 0 || !rep_ran(r, k, (unsigned)v))
        fprintf(f, " - |");
    else
        fprintf(f, " %.3f%s |", sp(r, k, c, m), rep_mark(rep_res(r, k, (unsigned)v)));
}

/* " %.3f |" of a mean, " - |" when no kernel ran it. */
static void put_mean(FILE *f, double x)
{
    if (x > 0)
        fprintf(f, " %.3f |", x);
    else
        fprintf(f, " - |");
}

/* Geometric (geo) or arithmetic mean of sp over the kernels of class cl (NK: all) that ran. */
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
    for (unsigned m = 1; m < NMAIN; m++)
        fprintf(f, " %s |", m_names[m]);
    fprintf(f, "\n|---|---|---:|");
    for (unsigned m = 1; m < NMAIN; m++)
        fprintf(f, "---:|");
    fprintf(f, "\n");
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *b = stm(r, k, c, M_BASE);
        fprintf(f, "| %s | %s |", r->all[k]->name, k_names[kclass(r, k)]);
        if (b)
            fprintf(f, " %llu%s |", (unsigned long long)b->cycles,
                    rep_mark(rep_res(r, k, (unsigned)vi(c, M_BASE))));
        else
            fprintf(f, " - |");
        for (unsigned m = 1; m < NMAIN; m++)
            put_sp(f, r, k, c, m);
        fprintf(f, "\n");
    }
    for (unsigned cl = 0; cl <= NK; cl++) {
        fprintf(f, "| **geo. mean, %s** | |  |", cl == NK ? "all" : k_names[cl]);
        for (unsigned m = 1; m < NMAIN; m++)
            put_mean(f, mean_sp(r, c, m, cl, 1));
        fprintf(f, "\n");
    }
    fprintf(f, "| **arith. mean, all** | | |");
    for (unsigned m = 1; m < NMAIN; m++)
        put_mean(f, mean_sp(r, c, m, NK, 0));
    fprintf(f, "\n\n");
}

static void fig_path(const struct rep *r, const char *fig, int base, char *buf, size_t n)
{
    rep_fig_path(r, "docs/dws.md", fig, base, buf, n);
}

static void speedups(FILE *f, const struct rep *r)
{
    fprintf(f, "## Speed-up over the conventional baseline (Results (1) form)\n\n"
            "Baseline cycles over the variant's, per kernel, on each configuration (\"-\": not "
            "run); the class is the kernel's behaviour under the first configuration's baseline "
            "(see above); the means are over the kernels that ran. The slides: \"subdividing "
            "upon both branch and memory latency divergence yield 1.7X speedup on average\", "
            "\"subdividing upon branches or memory accesses alone leads to modest speedup\".\n\n");
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

static double full_share(const struct gs_stats *x)
{
    return rep_ratio(x->t.wst_full_cycles, x->cycles * (x->t.nsms ? x->t.nsms : 1));
}

/* Why x (a DWS run) is slower than b (its baseline), from the statistics. Rules: (1) the
   splits issue the lanes' work as more, narrower warp instructions (warp instructions +5 % or
   more); (2) the L1 misses more (miss rate up by a point or more); (3) the WST was full in
   more than 10 % of the SM-cycles (splits refused); always (4) the scheduler outcome whose
   cycles grew most. */
static void reasons(FILE *f, const struct gs_stats *b, const struct gs_stats *x)
{
    double wi = rep_ratio(x->warp_insns, b->warp_insns), grew;
    int w = worst_stall(b, x, &grew);
    if (wi >= 1.05)
        fprintf(f, "narrower warp instructions: %+.1f %% warp instructions, lane utilisation "
                "%.1f %% -> %.1f %%; ", 100.0 * (wi - 1), 100.0 * gs_lane_utilization(b),
                100.0 * gs_lane_utilization(x));
    if (miss_rate(x) - miss_rate(b) >= 0.01)
        fprintf(f, "more L1 misses: miss rate %.1f %% -> %.1f %%; ", 100.0 * miss_rate(b),
                100.0 * miss_rate(x));
    if (full_share(x) > 0.1)
        fprintf(f, "WST full in %.1f %% of SM-cycles; ", 100.0 * full_share(x));
    if (w >= 0)
        fprintf(f, "scheduler cycles '%s' +%.1f %% of the baseline's scheduler cycles",
                gs_stall_names[w], 100.0 * rep_ratio((uint64_t)grew, (uint64_t)sched_total(b)));
    else
        fprintf(f, "no scheduler outcome grew");
}

static int slower(const struct rep *r, unsigned k, unsigned c, unsigned m)
{
    double x = sp(r, k, c, m);
    return x > 0 && x < SLOWER;
}

/* Slower runs of the main variants, and how many DWS runs of them were made. */
static unsigned slower_runs(const struct rep *r, unsigned *made)
{
    unsigned n = 0;
    *made = 0;
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned c = 0; c < NC; c++)
            for (unsigned m = 1; m < NMAIN; m++) {
                n += slower(r, k, c, m);
                *made += rep_ran(r, k, (unsigned)vi(c, m));
            }
    return n;
}

static void never_worse(FILE *f, const struct rep *r)
{
    unsigned made, n = slower_runs(r, &made);
    fprintf(f, "## The never-worse check\n\nThe slides: \"no performance degradation is "
            "observed on any benchmarks\". Here %u of %u DWS runs (the five variants) are "
            "slower than their baseline by more than 0.5 %%%s\n\n", n, made, n ? ":" : ".");
    if (!n)
        return;
    fprintf(f, "| configuration | kernel | variant | speed-up | reasons (from the statistics) |\n"
            "|---|---|---|---:|---|\n");
    for (unsigned c = 0; c < NC; c++)
        for (unsigned k = 0; k < r->n; k++)
            for (unsigned m = 1; m < NMAIN; m++) {
                char lab[64];
                if (!slower(r, k, c, m))
                    continue;
                cfg_label(r, c, lab, sizeof lab);
                fprintf(f, "| %s | %s | %s | %.3f | ", lab, r->all[k]->name, m_names[m],
                        sp(r, k, c, m));
                reasons(f, stm(r, k, c, M_BASE), stm(r, k, c, m));
                fprintf(f, " |\n");
            }
    fprintf(f, "\nReasons, in this order, when they hold: the splits issued at least 5 %% more "
            "warp instructions than the baseline (the same lanes' work in narrower "
            "instructions); the L1 miss rate rose by a point or more; the WST was full in more "
            "than 10 %% of the SM-cycles; and always the scheduler outcome (docs/timing.md) "
            "whose cycles grew most (a scheduler's cycle is issued or one stall outcome), as a "
            "share of the baseline's scheduler cycles.\n\n");
}

/* ------------------------------------------------------------------ the rule and the sweep */

/* Configuration c with the options' --set keys, mode m's (its variant's) and extra (NULL:
   none) (no simulation: the cost estimator's loader); 0, or -1 with the message in err. */
static int load_cfg(const struct rep *r, unsigned c, unsigned m, const char *extra,
                    struct gpu_config *conf, char *err, size_t errlen)
{
    const char *sets[MAX_SETS + REP_MAX_SETS + 1];
    const char *const *vs = r->vars[vi(c, m)].set;
    int n = 0;
    for (int i = 0; i < r->o->nsets && n < MAX_SETS; i++)
        sets[n++] = r->o->sets[i];
    for (unsigned i = 0; i < REP_MAX_SETS && vs[i]; i++)
        sets[n++] = vs[i];
    if (extra)
        sets[n++] = extra;
    return est_load_config(conf, c ? DWS_CFG : r->o->config, sets, n, err, errlen);
}

/* WST entries per SM on configuration c at dws_wst_factor `factor` (sm_wst_entries: factor x
   warps, at most the slots the SM's 7-bit slot index leaves); 0 if it does not load. */
static unsigned wst_entries(const struct rep *r, unsigned c, unsigned factor)
{
    struct gpu_config conf;
    char err[512], fs[32];
    snprintf(fs, sizeof fs, "dws_wst_factor=%u", factor);
    if (load_cfg(r, c, M_AGGRESS, fs, &conf, err, sizeof err))
        return 0;
    return sm_wst_entries(&conf);
}

/* The warp slots per SM on configuration c (sm_warp_slots); 0 if it does not load. */
static unsigned warp_slots(const struct rep *r, unsigned c)
{
    struct gpu_config conf;
    char err[512];
    if (load_cfg(r, c, M_AGGRESS, NULL, &conf, err, sizeof err))
        return 0;
    return sm_warp_slots(&conf);
}

/* Per kernel: mode m with the over-subdivision rule (on) and without (nr) on configuration c:
   speed-ups, branch splits and warp instructions against the baseline's. */
static void rule_table(FILE *f, const struct rep *r, unsigned c, unsigned m, unsigned nr)
{
    fprintf(f, "| kernel | class | speed-up, rule | without | branch splits, rule | without | "
            "refused by the rule | warp insns vs base, rule | without |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *b = stm(r, k, c, M_BASE), *x = stm(r, k, c, m),
                              *y = stm(r, k, c, nr);
        if (!b || !x || !y)
            continue;
        fprintf(f, "| %s | %s | %.3f | %.3f | %llu | %llu | %llu | %+.1f %% | %+.1f %% |\n",
                r->all[k]->name, k_names[kclass(r, k)], sp(r, k, c, m), sp(r, k, c, nr),
                (unsigned long long)x->t.split_branch, (unsigned long long)y->t.split_branch,
                (unsigned long long)x->t.split_br_refused[SM_BR_RULE],
                100.0 * (rep_ratio(x->warp_insns, b->warp_insns) - 1),
                100.0 * (rep_ratio(y->warp_insns, b->warp_insns) - 1));
    }
    fprintf(f, "| **geo. mean, all** | | %.3f | %.3f | | | | | |\n\n", mean_sp(r, c, m, NK, 1),
            mean_sp(r, c, nr, NK, 1));
}

static void rule(FILE *f, const struct rep *r)
{
    fprintf(f, "## The over-subdivision rule on branch splits (dws_oversub)\n\nThe slides "
            "(\"Implementation: Reconvergence Challenges\"): \"subdivide only when all available "
            "warp-splits are suspended\". With `dws_oversub = 1` (the default) a divergent "
            "branch splits only when no other slot of the SM is active -- the rule LazySplit and "
            "ReviveSplit apply to memory splits; `dws_oversub = 0` splits whenever the table has "
            "room (the model before issue 38). BranchOnly and ReviveSplit with the rule and "
            "without it; warp instructions against the baseline's (the same lanes' work in "
            "narrower instructions).\n\n");
    for (unsigned c = 0; c < NC; c++) {
        fprintf(f, "### %s, BranchOnly\n\n", cfg_name(r, c));
        rule_table(f, r, c, M_BRANCH, M_BRANCH_NR);
        fprintf(f, "### %s, ReviveSplit\n\n", cfg_name(r, c));
        rule_table(f, r, c, M_REVIVE, M_REVIVE_NR);
    }
}

/* The table's size: AggressSplit and ReviveSplit at 2, 3 and 4 times the warps on
   configs/dws.cfg, per kernel, with the share of SM-cycles the table was full. */
static void sweep(FILE *f, const struct rep *r)
{
    static const unsigned ms[2][3] = {{M_AGGRESS, M_AGGRESS_F3, M_AGGRESS_F4},
                                      {M_REVIVE, M_REVIVE_F3, M_REVIVE_F4}};
    double g2, g4;
    fprintf(f, "## The table's size (dws_wst_factor 2, 3, 4 on %s)\n\nThe backup slide \"WST "
            "Hardware Overhead\": \"limit WST to twice the number of warps ... only 2.2 %% worse "
            "for ReviveSplit\". `dws_wst_factor` is the table's entries per warp: %u, %u and %u "
            "entries beside %s's warps; on %s the SM's 128 slots leave %u entries at factor 2 "
            "(beside %u warps), and 3 and 4 are refused. Speed-up over the baseline and the share of "
            "SM-cycles with the table full.\n\n| kernel | class | AggressSplit x2 | x3 | x4 | "
            "full %% x2 | ReviveSplit x2 | x3 | x4 | full %% x2 |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", DWS_CFG,
            wst_entries(r, 1, 2), wst_entries(r, 1, 3), wst_entries(r, 1, 4), DWS_CFG,
            cfg_name(r, 0), wst_entries(r, 0, 2), warp_slots(r, 0));
    for (unsigned k = 0; k < r->n; k++) {
        if (!stm(r, k, 1, M_AGGRESS_F3) && !stm(r, k, 1, M_REVIVE_F3))
            continue;
        fprintf(f, "| %s | %s |", r->all[k]->name, k_names[kclass(r, k)]);
        for (unsigned i = 0; i < 2; i++) {
            const struct gs_stats *x = stm(r, k, 1, ms[i][0]);
            for (unsigned j = 0; j < 3; j++)
                put_sp(f, r, k, 1, ms[i][j]);
            fprintf(f, " %.1f |", x ? 100.0 * full_share(x) : 0.0);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "| **geo. mean, all** | |");
    for (unsigned i = 0; i < 2; i++) {
        for (unsigned j = 0; j < 3; j++)
            put_mean(f, mean_sp(r, 1, ms[i][j], NK, 1));
        fprintf(f, " |");
    }
    g2 = mean_sp(r, 1, M_REVIVE, NK, 1);
    g4 = mean_sp(r, 1, M_REVIVE_F4, NK, 1);
    fprintf(f, "\n\nReviveSplit's geometric mean with the table at twice the warps over its "
            "mean at four times: %+.1f %% (negative: the smaller table is slower; the slides: "
            "twice the warps only 2.2 %% worse than an unlimited table).\n\n",
            g4 > 0 ? 100.0 * (g2 / g4 - 1) : 0.0);
}

/* ------------------------------------------------------------------ split chances */

static void pct(FILE *f, uint64_t a, uint64_t b)
{
    if (b)
        fprintf(f, " %.1f |", 100.0 * (double)a / (double)b);
    else
        fprintf(f, " - |");
}

/* One row of chance figures: branch chances, split %, refused % by reason; memory the same. */
static void chance_cells(FILE *f, const struct gs_stats *x)
{
    fprintf(f, " %llu |", (unsigned long long)x->t.split_br_cand);
    pct(f, x->t.split_branch, x->t.split_br_cand);
    for (unsigned i = 0; i < GS_DWS_BREF; i++)
        pct(f, x->t.split_br_refused[i], x->t.split_br_cand);
    fprintf(f, " %llu |", (unsigned long long)x->t.split_mem_cand);
    pct(f, x->t.split_mem, x->t.split_mem_cand);
    for (unsigned i = 0; i < GS_DWS_MREF; i++)
        pct(f, x->t.split_mem_refused[i], x->t.split_mem_cand);
    fprintf(f, "\n");
}

static void chance_head(FILE *f, const char *first)
{
    fprintf(f, "| %s | branch chances | split %% |", first);
    for (unsigned i = 0; i < GS_DWS_BREF; i++)
        fprintf(f, " %s %% |", sm_dws_bref_names[i]);
    fprintf(f, " memory chances | split %% |");
    for (unsigned i = 0; i < GS_DWS_MREF; i++)
        fprintf(f, " %s %% |", sm_dws_mref_names[i]);
    fprintf(f, "\n|---|");
    for (unsigned i = 0; i < 4 + GS_DWS_BREF + GS_DWS_MREF; i++)
        fprintf(f, "---:|");
    fprintf(f, "\n");
}

/* Mode m's chances summed over the kernels that ran it on configuration c, into *t. */
static void chance_sum(const struct rep *r, unsigned c, unsigned m, struct gs_stats *t)
{
    memset(t, 0, sizeof *t);
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *x = stm(r, k, c, m);
        if (!x)
            continue;
        t->t.split_br_cand += x->t.split_br_cand;
        t->t.split_branch += x->t.split_branch;
        t->t.split_mem_cand += x->t.split_mem_cand;
        t->t.split_mem += x->t.split_mem;
        for (unsigned i = 0; i < GS_DWS_BREF; i++)
            t->t.split_br_refused[i] += x->t.split_br_refused[i];
        for (unsigned i = 0; i < GS_DWS_MREF; i++)
            t->t.split_mem_refused[i] += x->t.split_mem_refused[i];
    }
}

static void chances(FILE *f, const struct rep *r)
{
    fprintf(f, "## Split chances and why they were refused\n\nA branch-split chance is a "
            "divergent conditional branch under a variant that splits on branches; a "
            "memory-split chance a partial load completion whose completed lanes include an L1 "
            "hit and are some but not all of the issuing slot's active lanes. Each is split or "
            "refused for the first reason that holds (model/sm/sm.h, wst.h): branch -- "
            "*long_pd* out of the regime, the branch fails the short-post-dominator heuristic "
            "(`dws_pd_max`), *nested* in the regime, the slot inside a nested region of its own "
            "stack, *mflag* merged with a pending write, *one_per_cycle* another branch split "
            "this cycle, *rule* the over-subdivision rule (`dws_oversub`), *full* the table "
            "full; memory -- *not_own* not a divergence of the slot's own lanes, *nested*, "
            "*busy* stack work, mflag or a merge this cycle, *policy* the variant's rule, "
            "*branch_split* a branch split took the free entry, *full*, *moved* the slot issued "
            "before the chance reached the table. Shares of the chances, summed over the "
            "kernels.\n\n");
    for (unsigned c = 0; c < NC; c++) {
        fprintf(f, "### %s, per variant\n\n", cfg_name(r, c));
        chance_head(f, "variant");
        for (unsigned m = 1; m < NM; m++) {
            struct gs_stats t;
            if (vi(c, m) < 0)
                continue;
            chance_sum(r, c, m, &t);
            fprintf(f, "| %s |", m_names[m]);
            chance_cells(f, &t);
        }
        fprintf(f, "\n");
    }
    for (unsigned c = 0; c < NC; c++) {
        fprintf(f, "### %s, ReviveSplit, per kernel\n\n", cfg_name(r, c));
        chance_head(f, "kernel");
        for (unsigned k = 0; k < r->n; k++) {
            const struct gs_stats *x = stm(r, k, c, M_REVIVE);
            if (!x || (!x->t.split_br_cand && !x->t.split_mem_cand))
                continue;
            fprintf(f, "| %s |", r->all[k]->name);
            chance_cells(f, x);
        }
        fprintf(f, "\n");
    }
}

/* ------------------------------------------------------------------ splits and the WST */

static void split_table(FILE *f, const struct rep *r, unsigned c, unsigned m)
{
    fprintf(f, "| kernel | speed-up | branch splits | memory splits | merges by pc | merges at "
            "the stack PD | lanes run ahead | hit/miss-mix completions | WST mean | WST max | "
            "WST full %% | lane util. base -> DWS |\n|---|---:|---:|---:|---:|---:|---:|---:|---:"
            "|---:|---:|---|\n");
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *b = stm(r, k, c, M_BASE), *x = stm(r, k, c, m);
        if (!b || !x)
            continue;
        fprintf(f, "| %s | %.3f | %llu | %llu | %llu | %llu | %llu | %llu | %.2f | %llu | %.1f | "
                "%.1f -> %.1f |\n", r->all[k]->name, sp(r, k, c, m),
                (unsigned long long)x->t.split_branch, (unsigned long long)x->t.split_mem,
                (unsigned long long)x->t.split_merge_pc, (unsigned long long)x->t.split_merge_rpc,
                (unsigned long long)x->t.split_runahead_lanes,
                (unsigned long long)x->t.split_mixed_accesses, rep_stat(x, "wst_occupancy_mean"),
                (unsigned long long)x->t.wst_occ_max, 100.0 * full_share(x),
                100.0 * gs_lane_utilization(b), 100.0 * gs_lane_utilization(x));
    }
    fprintf(f, "\n");
}

/* Means over the kernels that ran mode m on configuration c of its WST occupancy figures. */
static void wst_means(const struct rep *r, unsigned c, unsigned m, double *mean, double *max,
                      double *full)
{
    unsigned n = 0;
    *mean = *max = *full = 0;
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *x = stm(r, k, c, m);
        if (!x)
            continue;
        *mean += rep_stat(x, "wst_occupancy_mean");
        *max += (double)x->t.wst_occ_max;
        *full += full_share(x);
        n++;
    }
    if (n) {
        *mean /= n;
        *max /= n;
        *full /= n;
    }
}

static void occupancy(FILE *f, const struct rep *r)
{
    fprintf(f, "## WST occupancy\n\nEntries in use per SM (the table has `dws_wst_factor` x "
            "warps entries, at most the slots the SM's 128 leave beside the warps, a split slot "
            "each: %u on the first configuration, %u on %s): means over the kernels of each "
            "kernel's mean, max and share of SM-cycles with the table full.\n\n| variant | "
            "configuration | entries used, mean | max | cycles full %% |\n|---|---|---:|---:|"
            "---:|\n", wst_entries(r, 0, 2), wst_entries(r, 1, 2), DWS_CFG);
    for (unsigned c = 0; c < NC; c++)
        for (unsigned m = 1; m < NMAIN; m++) {
            double mean, max, full;
            char lab[64];
            cfg_label(r, c, lab, sizeof lab);
            wst_means(r, c, m, &mean, &max, &full);
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
    if (load_cfg(r, c, M_BASE, NULL, &conf, dc->err, sizeof dc->err) ||
        est_build(&dc->off, &conf, dc->err, sizeof dc->err) ||
        load_cfg(r, c, M_AGGRESS, NULL, &conf, dc->err, sizeof dc->err) ||
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
    unsigned made, n = slower_runs(r, &made);
    fprintf(f, "## Against the slides (computed)\n\n");
    for (unsigned c = 0; c < NC; c++) {
        unsigned w = M_AGGRESS;
        double both = best_both(r, c, &w);
        double alone = mean_sp(r, c, M_BRANCH, NK, 0), mem = mean_sp(r, c, M_MEMONLY, NK, 0);
        fprintf(f, "- %s: branch and memory subdivision, best arithmetic mean %.3f (%s); the "
                "slides %.1f -- %s. Alone: BranchOnly %.3f, ReviveSplit.MemOnly %.3f -- %s than "
                "both (the slides: \"modest\"). Without the over-subdivision rule: BranchOnly "
                "%.3f, ReviveSplit %.3f.\n", cfg_name(r, c), both, m_names[w], P_BOTH,
                both >= 0.9 * P_BOTH ? "near" : "far below", alone, mem,
                alone <= both && mem <= both ? "no more" : "**more**",
                mean_sp(r, c, M_BRANCH_NR, NK, 0), mean_sp(r, c, M_REVIVE_NR, NK, 0));
    }
    fprintf(f, "- The table's size on %s: ReviveSplit %.3f / %.3f / %.3f at 2 / 3 / 4 times "
            "the warps (geometric means; the slides: twice the warps only 2.2 %% worse than "
            "unlimited).\n", DWS_CFG, mean_sp(r, 1, M_REVIVE, NK, 1),
            mean_sp(r, 1, M_REVIVE_F3, NK, 1), mean_sp(r, 1, M_REVIVE_F4, NK, 1));
    fprintf(f, "- Never worse: %u slower runs of %u (the slides: none) -- %s.\n", n, made,
            n ? "**does not hold here**, see the check above" : "holds");
    for (unsigned c = 0; c < NC; c++)
        fprintf(f, "- Cost, %s: the WST alone %.3f %% of a GF100 SM (the slides: < %.0f %% of "
                "the WPU) -- %s; everything DWS adds %.3f %%.\n", cfg_name(r, c), wst_pct[c],
                P_WST_PCT, wst_pct[c] < P_WST_PCT ? "holds" : "**does not hold**", all_pct[c]);
    fprintf(f, "\n");
}

/* ------------------------------------------------------------------ the document */

/* Does kernel k run the DWS variants? At the test size all do; at the default size those the
   first configuration's baseline classes as divergent, and every kernel --kernels names. */
static int runs_dws(const struct rep *r, unsigned k)
{
    return r->o->size == BENCH_TEST || r->o->kernels || kclass(r, k) != K_NONE;
}

static void header(FILE *f, const struct rep *r)
{
    const struct opts *o = r->o;
    unsigned cnt[NK] = {0}, ndws = 0;
    for (unsigned k = 0; k < r->n; k++) {
        cnt[kclass(r, k)]++;
        ndws += runs_dws(r, k);
    }
    fprintf(f, "# DWS: dynamic warp subdivision (002)\n\nGenerated by `make report-dws` "
            "(`build/gpusim report dws --size %s%s%s`): the evaluation of "
            "002_ddcb2f79a6edfee4.txt (Meng, Tarjan, Skadron: \"Dynamic Warp Subdivision for "
            "Integrated Branch and Memory Divergence Tolerance\", slides \"Results (1)\", "
            "\"Results (2)\", \"Implementation: Reconvergence Challenges\" and the backup slide "
            "\"WST Hardware Overhead\") on the %u bench kernels of docs/bench.md, on %s and %s. "
            "%u runs, %u with wrong or failed results%s.\n\n", o->size == BENCH_TEST ? "test" :
            "default", o->config ? " --config " : "", o->config ? o->config : "", r->n,
            cfg_name(r, 0), DWS_CFG, r->runs, r->bad, r->bad ? " (marked WRONG / ERROR)" :
            " (every run's results checked against its C reference)");
    if (ndws < r->n)
        fprintf(f, "At the default size the DWS variants ran on the %u kernels the first "
                "configuration's baseline classes as branch- or memory-divergent; the other %u "
                "(class *neither*) ran their baseline only (\"-\" in the tables). ", ndws,
                r->n - ndws);
    fprintf(f, "Runs come from the result cache when it holds them (`--cache DIR`, "
            "docs/page.md \"The cache\"): an interrupted report goes on where it stopped.\n\n");
    for (int i = 0; i < o->nsets; i++)
        fprintf(f, "%s`--set %s`", i ? ", " : "Every variant also has ", o->sets[i]);
    fprintf(f, "%sVariants (the second configuration's are the same with `--config %s`, and "
            "it has the table's size sweep too):\n\n", o->nsets ? " (before its own). " : "",
            DWS_CFG);
    for (unsigned m = 0; m < NM; m++)              /* the first configuration's, the sweep */
        rep_var_line(f, &r->vars[m < NM0 ? m : (unsigned)vi(1, m)]);
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
    rule(f, r);
    sweep(f, r);
    chances(f, r);
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
        "divergent_branches", "split_branch_candidates", "split_mem_candidates"};
    unsigned nc = sizeof cols / sizeof *cols;
    fprintf(f, "kernel,class,config,variant,correct,cycles,warp_insns,speedup");
    for (unsigned i = 0; i < nc; i++)
        fprintf(f, ",%s", cols[i]);
    for (unsigned i = 0; i < GS_DWS_BREF; i++)
        fprintf(f, ",branch_refused_%s", sm_dws_bref_names[i]);
    for (unsigned i = 0; i < GS_DWS_MREF; i++)
        fprintf(f, ",mem_refused_%s", sm_dws_mref_names[i]);
    fprintf(f, "\n");
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned v = 0; v < NV; v++) {
            const struct gs_stats *s = st(r, k, v);
            char lab[64];
            if (!rep_ran(r, k, v))
                continue;
            cfg_label(r, v_cfg(v), lab, sizeof lab);
            /* a variant's name may hold a comma ("BranchOnly, no rule"): quoted (RFC 4180) */
            const char *m = m_names[v_mode(v)], *q = strchr(m, ',') ? "\"" : "";
            fprintf(f, "%s,%s,%s,%s%s%s,%d,%llu,%llu,%.6f", r->all[k]->name, k_names[kclass(r, k)],
                    lab, q, m, q, rep_res(r, k, v)->rc == 0,
                    (unsigned long long)s->cycles, (unsigned long long)s->warp_insns,
                    sp(r, k, v_cfg(v), v_mode(v)));
            for (unsigned i = 0; i < nc; i++)
                fprintf(f, ",%.6f", rep_stat(s, cols[i]));
            for (unsigned i = 0; i < GS_DWS_BREF; i++)
                fprintf(f, ",%llu", (unsigned long long)s->t.split_br_refused[i]);
            for (unsigned i = 0; i < GS_DWS_MREF; i++)
                fprintf(f, ",%llu", (unsigned long long)s->t.split_mem_refused[i]);
            fprintf(f, "\n");
        }
}

static int chart(const struct rep *r, unsigned c)
{
    static const char *series[NMAIN - 1];
    const char *groups[MAXK + 1];
    double v[(MAXK + 1) * (NMAIN - 1)];
    char path[1024], title[256];
    struct svg_bars b = {title, "speed-up over the baseline", r->n + 1, NMAIN - 1, groups,
                         series, v, 1.0};
    snprintf(title, sizeof title, "DWS speed-up per kernel, %s", cfg_name(r, c));
    for (unsigned m = 1; m < NMAIN; m++)
        series[m - 1] = m_names[m];
    for (unsigned k = 0; k <= r->n; k++) {
        groups[k] = k < r->n ? r->all[k]->name : "geo. mean";
        for (unsigned m = 1; m < NMAIN; m++)
            v[k * (NMAIN - 1) + m - 1] = k < r->n ? sp(r, k, c, m) : mean_sp(r, c, m, NK, 1);
    }
    fig_path(r, c ? "dwscfg" : "first", 0, path, sizeof path);
    return svg_bars_write(path, &b);
}

/* The runs: the first configuration's baselines, then, for the kernels that run the DWS
   variants (runs_dws: the classes come from those baselines), every other variant. */
static int run_all(struct rep *r)
{
    unsigned char *want = calloc((size_t)r->n * NV, 1);
    unsigned made, hits;
    int rc;
    if (!want)
        return -1;
    for (unsigned k = 0; k < r->n; k++)
        want[k * NV + (unsigned)vi(0, M_BASE)] = 1;
    rc = rep_run(r, want);
    made = r->done;
    hits = r->hits;
    for (unsigned k = 0; k < r->n && !rc; k++)
        for (unsigned v = 0; v < NV; v++)
            want[k * NV + v] = runs_dws(r, k) && v != (unsigned)vi(0, M_BASE);
    if (!rc)
        rc = rep_run(r, want);
    r->hits += hits;
    r->done += made;
    free(want);
    return rc;
}

int report_dws(const struct opts *opt)
{
    struct opts po = *opt, *o = &po;
    struct rep r;
    char cdir[1024];
    int rc;
    if (!o->cache)
        o->cache = cache_default(cdir, sizeof cdir);
    else if (!strcmp(o->cache, "none"))
        o->cache = NULL;
    rc = rep_open(&r, o, vars, NV);
    if (rc)
        return rc;
    if (run_all(&r) || chart(&r, 0) || chart(&r, 1)) {
        rep_close(&r);
        return 2;
    }
    printf("%u of %u runs from the cache %s\n", r.hits, r.done, o->cache ? o->cache : "(none)");
    rc = rep_finish(&r, o->markdown ? o->markdown : "docs/dws.md",
                    o->csv ? o->csv : "docs/dws.csv", NOTES_MARK, body, rows, 0);
    rep_close(&r);
    return rc;
}
