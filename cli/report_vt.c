/*
 * report_vt.c -- gpusim report vt: the evaluation of 004_23e173f444f46134.txt Section V (VT:
 * virtual-thread CTAs beyond the scheduling limit) on the bench suite, in the forms of its
 * Figures 3, 4 and 8-13, written to docs/vt.md (above the kept notes) and a CSV.
 *
 * Twelve variants, every one with simt_depth = 4 (the paper's D): Baseline, VT and MAX under
 * LRR, GTO and two-level scheduling, and VT under LRR at 256, 1,024 and ideal (0) swap bits
 * per cycle (VT_LRR is Table I's 512). Phase 1 runs B_LRR and VT_LRR on every kernel; a kernel
 * has headroom when VT holds more CTAs per SM than the baseline (occupancy_ctas_per_sm);
 * phase 2 runs the other ten variants on those kernels only. A kernel without headroom must
 * run under VT as under the baseline (no swap, the same cycles): a difference is marked and,
 * like a wrong or failed run, makes the exit status 1. Normalised IPC is the baseline's cycles
 * over the variant's (the same instructions run). Every headline (the means of Figs. 8-13 and
 * the findings) is given over the headroom kernels and again without the single-CTA ones (one
 * CTA per launch, as dloop and sloop: no second CTA to swap in, they cannot use VT), and the
 * Fig. 4 comparison both summed over the kernels and per kernel (the geometric mean of each
 * kernel's VT / baseline stall cycles), since a sum is dominated by the longest, idlest kernel
 * (issue 38). The runs, means and files are report.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "report_vt.h"
#include "gpu/cta.h"
#include "gpu/stats.h"
#include "svg.h"

/* Every variant: simt_depth = 4, then the baseline's vt = off or a VT row of cli/mech.c
   (vt, vt_max), then the report's scheduler and swap bandwidth. */
#define BASE(n, w, ...) {n, w, {"simt_depth=4", "vt=off", __VA_ARGS__}, NULL, 0}
#define VAR(n, w, mech, ...) {n, w, {"simt_depth=4", MECH_SETS(mech), __VA_ARGS__}, NULL, 0}
static const struct rep_var vars[NV] = {
    BASE("B_LRR", "baseline, LRR", "sched_policy=lrr"),
    VAR("VT_LRR", "VT, LRR, 512 bits per cycle", "vt", "sched_policy=lrr"),
    VAR("MAX_LRR", "MAX (scheduling limit raised to the capacity limit, no swap), LRR", "vt_max",
        "sched_policy=lrr"),
    BASE("B_GTO", "baseline, GTO", "sched_policy=gto"),
    VAR("VT_GTO", "VT, GTO", "vt", "sched_policy=gto"),
    VAR("MAX_GTO", "MAX, GTO", "vt_max", "sched_policy=gto"),
    BASE("B_TW", "baseline, two-level", "sched_policy=twolevel"),
    VAR("VT_TW", "VT, two-level", "vt", "sched_policy=twolevel"),
    VAR("MAX_TW", "MAX, two-level", "vt_max", "sched_policy=twolevel"),
    VAR("VT_256", "VT, LRR, 256 bits per cycle", "vt", "sched_policy=lrr",
        "vt_swap_bits_per_cycle=256"),
    VAR("VT_1024", "VT, LRR, 1,024 bits per cycle", "vt", "sched_policy=lrr",
        "vt_swap_bits_per_cycle=1024"),
    VAR("VT_0", "VT, LRR, ideal swap (no context traffic)", "vt", "sched_policy=lrr",
        "vt_swap_bits_per_cycle=0"),
};

#define NOTES_MARK "<!-- notes below: kept by make report-vt -->"

/* ------------------------------------------------------------------ per kernel */

const struct gs_stats *vt_st(const struct rep *r, unsigned k, unsigned v)
{
    return &rep_res(r, k, v)->st;
}

/* VT holds more CTAs per SM than the baseline. */
static int headroom(const struct rep *r, unsigned k)
{
    return rep_ran(r, k, VT_LRR) && vt_st(r, k, VT_LRR)->occupancy > vt_st(r, k, B_LRR)->occupancy;
}

/* Type-S: the baseline's residency is bound by the scheduling limit (threads or CTAs). */
static int type_s(const struct rep *r, unsigned k)
{
    uint32_t l = vt_st(r, k, B_LRR)->occupancy_limit;
    return l == CTA_LIM_THREADS || l == CTA_LIM_CTAS;
}

/* Kernel k launches more than one CTA at a time: a kernel of one CTA per launch (dloop,
   sloop) has headroom by the limits but no second CTA for VT to swap in, so it cannot use
   VT; the headlines are given with and without such kernels (issue 38). */
static int multi_cta(const struct rep *r, unsigned k)
{
    const struct gs_stats *b = vt_st(r, k, B_LRR);
    return b->ctas > b->launches;
}


/* The headroom kernels of set s, in bench order, into ks; their count. */
static unsigned hkernels_in(const struct rep *r, unsigned *ks, enum kset s)
{
    unsigned c = 0;
    for (unsigned k = 0; k < r->n && c < MAXK; k++)
        if (headroom(r, k) && (s == KS_ALL || multi_cta(r, k)))
            ks[c++] = k;
    return c;
}

unsigned vt_hkernels(const struct rep *r, unsigned *ks)
{
    return hkernels_in(r, ks, KS_ALL);
}

/* The single-CTA headroom kernels, comma-separated, into buf ("none" if none). */
static const char *single_names(const struct rep *r, char *buf, size_t n)
{
    unsigned ks[MAXK], nk = vt_hkernels(r, ks), c = 0;
    size_t at = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < nk && at < n; i++)
        if (!multi_cta(r, ks[i]))
            at += (size_t)snprintf(buf + at, n - at, "%s%s", c++ ? ", " : "",
                                   r->all[ks[i]]->name);
    if (!c)
        snprintf(buf, n, "none");
    return buf;
}

/* Normalised IPC of variant v over variant b on kernel k: b's cycles over v's. */
double vt_nipc(const struct rep *r, unsigned k, unsigned v, unsigned b)
{
    return rep_ratio(vt_st(r, k, b)->cycles, vt_st(r, k, v)->cycles);
}

/* Mean (geometric if geo) of vt_nipc(v over b) over the headroom kernels of set s. */
static double mean_ipc_in(const struct rep *r, unsigned v, unsigned b, int geo, enum kset s)
{
    unsigned ks[MAXK], n = hkernels_in(r, ks, s);
    double x[MAXK];
    for (unsigned i = 0; i < n; i++)
        x[i] = vt_nipc(r, ks[i], v, b);
    return geo ? rep_gmean(x, n) : rep_amean(x, n);
}

double vt_mean_ipc(const struct rep *r, unsigned v, unsigned b, int geo)
{
    return mean_ipc_in(r, v, b, geo, KS_ALL);
}

/* The share of shared memory that VT's context region held, over capacity x cycles. */
static double smem_ctx(const struct gs_stats *s)
{
    uint64_t cap = s->cycles * (s->t.nsms ? s->t.nsms : 1) * (uint64_t)s->t.sm_shared;
    return rep_ratio(s->t.smem_ctx_sum, cap);
}

static double ctx_stat(const struct gs_stats *s, const char *unused)
{
    (void)unused;
    return smem_ctx(s);
}

/* Arithmetic mean of fn(statistics, json) of variant v over the headroom kernels of set s,
   zeros included (a utilisation may be 0). */
static double mean_fn_in(const struct rep *r, unsigned v,
                         double (*fn)(const struct gs_stats *, const char *), const char *json,
                         enum kset s)
{
    unsigned ks[MAXK], n = hkernels_in(r, ks, s);
    double t = 0;
    for (unsigned i = 0; i < n; i++)
        t += fn(vt_st(r, ks[i], v), json);
    return n ? t / n : 0.0;
}

static double mean_fn(const struct rep *r, unsigned v,
                      double (*fn)(const struct gs_stats *, const char *), const char *json)
{
    return mean_fn_in(r, v, fn, json, KS_ALL);
}

/* ... of a statistic by its JSON key. */
static double mean_stat_in(const struct rep *r, unsigned v, const char *json, enum kset s)
{
    return mean_fn_in(r, v, rep_stat, json, s);
}

double vt_mean_stat(const struct rep *r, unsigned v, const char *json)
{
    return mean_stat_in(r, v, json, KS_ALL);
}

/* Sum of a u64 counter of the timing statistics over the headroom kernels of set s. */
static uint64_t sum_over(const struct rep *r, unsigned v, size_t off, enum kset s)
{
    unsigned ks[MAXK], n = hkernels_in(r, ks, s);
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++)
        t += *(const uint64_t *)((const char *)vt_st(r, ks[i], v) + off);
    return t;
}
#define SUM(r, v, field) sum_over(r, v, offsetof(struct gs_stats, t.field), KS_ALL)

/* Fig. 4 per kernel: VT_LRR's stall (not issued) scheduler cycles over B_LRR's on kernel k. */
static double stall_ratio(const struct rep *r, unsigned k)
{
    return rep_ratio(rep_stall_cycles(vt_st(r, k, VT_LRR)), rep_stall_cycles(vt_st(r, k, B_LRR)));
}

/* ... over set s: summed (the kernels' stall cycles added, so a long kernel weighs more) or
   per kernel (geo: the geometric mean of the kernels' ratios, each kernel weighing the same). */
static double stall_cut(const struct rep *r, enum kset s, int geo)
{
    unsigned ks[MAXK], n = hkernels_in(r, ks, s);
    uint64_t bs = 0, vs = 0;
    double x[MAXK];
    for (unsigned i = 0; i < n; i++) {
        bs += rep_stall_cycles(vt_st(r, ks[i], B_LRR));
        vs += rep_stall_cycles(vt_st(r, ks[i], VT_LRR));
        x[i] = stall_ratio(r, ks[i]);
    }
    return geo ? rep_gmean(x, n) : rep_ratio(vs, bs);
}

static unsigned warps_per_cta(const struct gs_stats *s)
{
    return (s->block[0] * s->block[1] * s->block[2] + 31) / 32;
}

/* A run's mark when it is not correct, or "-" when it was not made. */
static void cell(FILE *f, const struct rep *r, unsigned k, unsigned v, double x)
{
    if (!rep_ran(r, k, v))
        fprintf(f, " - |");
    else
        fprintf(f, " %.2f%s |", x, rep_mark(rep_res(r, k, v)));
}

static void pct(FILE *f, double x)
{
    fprintf(f, " %.1f |", 100.0 * x);
}

/* ------------------------------------------------------------------ the tables */

/* docs/vt.md's figures: the Markdown's path without ".md", then "-" fig ".svg"; with base,
   the name alone (the Markdown's link). */
void vt_fig_path(const struct rep *r, const char *fig, int base, char *buf, size_t n)
{
    rep_fig_path(r, "docs/vt.md", fig, base, buf, n);
}

static void fig_link(FILE *f, const struct rep *r, const char *fig, const char *what)
{
    char name[1024];
    vt_fig_path(r, fig, 1, name, sizeof name);
    fprintf(f, "![%s](%s)\n\n", what, name);
}

/* MAX's CTAs per SM for kernel k: from its run, else from the limits of MAX's configuration
   (marked *). */
static void max_occupancy(FILE *f, const struct rep *r, unsigned k, const struct gpu_config *mc)
{
    const struct gs_stats *b = vt_st(r, k, B_LRR);
    struct cta_limits l;
    if (rep_ran(r, k, MAX_LRR)) {
        fprintf(f, " %u |", vt_st(r, k, MAX_LRR)->occupancy);
        return;
    }
    if (!mc) {
        fprintf(f, " - |");
        return;
    }
    cta_limits(mc, b->block[0] * b->block[1] * b->block[2], b->regs_per_thread,
               b->shared_per_cta, &l);
    fprintf(f, " %u* |", l.vt);
}

static void residency_row(FILE *f, const struct rep *r, unsigned k, const struct gpu_config *mc)
{
    const struct gs_stats *b = vt_st(r, k, B_LRR), *v = vt_st(r, k, VT_LRR);
    int h = headroom(r, k);
    fprintf(f, "| %s%s%s | %s | %u | %u | %u | %u | %s | %u | %s | %u | %u | %u |",
            h ? "**" : "", r->all[k]->name, h ? "**" : "", type_s(r, k) ? "S" : "C",
            warps_per_cta(b), b->regs_per_thread, b->shared_per_cta, b->occupancy,
            cta_limit_name((enum cta_limit)b->occupancy_limit), v->occupancy,
            cta_limit_name((enum cta_limit)v->occupancy_limit), v->vt_active_limit,
            v->vt_ctx_bits, v->vt_swap_beats);
    max_occupancy(f, r, k, mc);
    fprintf(f, "\n");
}

/* Fig. 3's figure: the CTAs (threads) the capacity limit holds over the scheduling limit's,
   for the Type-S kernels, from MAX's residency. */
static double capacity_gain(const struct rep *r, const struct gpu_config *mc)
{
    double t = 0;
    unsigned c = 0;
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *b = vt_st(r, k, B_LRR);
        struct cta_limits l;
        if (!type_s(r, k) || !b->occupancy || !mc)
            continue;
        cta_limits(mc, b->block[0] * b->block[1] * b->block[2], b->regs_per_thread,
                   b->shared_per_cta, &l);
        t += (double)l.vt / b->occupancy - 1.0;
        c++;
    }
    return c ? t / c : 0.0;
}

static void residency(FILE *f, const struct rep *r)
{
    struct opts mo = *r->o;
    struct gs_gpu *g = NULL;
    const struct gpu_config *mc = NULL;
    const char *const *ms = r->vars[MAX_LRR].set;
    for (unsigned i = 0; i < REP_MAX_SETS && ms[i] && mo.nsets < MAX_SETS; i++)
        mo.sets[mo.nsets++] = ms[i];
    if (!gs_init(&g, mo.config, mo.sets, mo.nsets, NULL, 0))
        mc = gs_config(g);
    fprintf(f, "## 1. Residency (Fig. 2 and 3 form)\n\nPer kernel (the launch with the most CTAs): "
            "type by the baseline's binding limit (S: threads or CTAs, C: registers or shared "
            "memory), warps per CTA (W), registers per thread, shared bytes per CTA, CTAs per SM "
            "under the baseline and under VT with the limit that gives them, VT's active limit "
            "(the scheduling limit), eq. (1)'s context bits per CTA (0: VT adds no CTA and "
            "reserves no region), its beats at 512 bits per cycle (eq. 2) and MAX's CTAs per SM "
            "(* computed from MAX's limits, not run). Kernels with headroom (VT > baseline) in "
            "bold. Eq. (1) for W = 32, D = 4 is 20,589 bits (the paper).\n\n"
            "| kernel | type | W | regs | shared B | B CTAs | B limit | VT CTAs | VT limit | "
            "active | ctx bits | beats | MAX CTAs |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < r->n; k++)
        residency_row(f, r, k, mc);
    fprintf(f, "\nType-S kernels: MAX holds on average **+%.1f %%** more CTAs (threads) than the "
            "baseline (Fig. 3, the threads needed to reach the capacity limit: Fermi +38.2 %%).\n\n",
            100.0 * capacity_gain(r, mc));
    if (g)
        gs_destroy(g);
}

static void fig8(FILE *f, const struct rep *r)
{
    unsigned ks[MAXK], ka[MAXK], n = vt_hkernels(r, ks), na = hkernels_in(r, ka, KS_MULTI);
    double va = vt_mean_ipc(r, VT_LRR, B_LRR, 0), ma = vt_mean_ipc(r, MAX_LRR, B_LRR, 0);
    double vx = mean_ipc_in(r, VT_LRR, B_LRR, 0, KS_MULTI);
    double mx = mean_ipc_in(r, MAX_LRR, B_LRR, 0, KS_MULTI);
    char one[512];
    fprintf(f, "## 2. Performance (Fig. 8 and 9 form)\n\nPer kernel with headroom: the baseline's "
            "cycles under LRR and the normalised IPC (B_LRR cycles / variant cycles; > 1 is "
            "faster) of VT and MAX; VT / MAX is MAX's cycles over VT's. The paper "
            "(18 Type-S applications on GPGPU-Sim's Fermi, not these kernels) gives averages; "
            "which mean it is, is not said: both are here, the arithmetic one is compared.\n\n"
            "| kernel | type | B_LRR cycles | VT_LRR | MAX_LRR | VT / MAX |\n"
            "|---|---|---|---|---|---|\n");
    for (unsigned i = 0; i < n; i++) {
        unsigned k = ks[i];
        fprintf(f, "| %s | %s | %llu%s |", r->all[k]->name, type_s(r, k) ? "S" : "C",
                (unsigned long long)vt_st(r, k, B_LRR)->cycles, rep_mark(rep_res(r, k, B_LRR)));
        cell(f, r, k, VT_LRR, vt_nipc(r, k, VT_LRR, B_LRR));
        cell(f, r, k, MAX_LRR, vt_nipc(r, k, MAX_LRR, B_LRR));
        fprintf(f, " %.2f |\n", vt_nipc(r, k, VT_LRR, MAX_LRR));
    }
    fprintf(f, "| **arithmetic mean** (%u) | | | **%.3f** | **%.3f** | **%.3f** |\n", n, va, ma,
            ma > 0 ? va / ma : 0.0);
    fprintf(f, "| **arithmetic mean** without single-CTA (%u) | | | **%.3f** | **%.3f** | **%.3f** |\n",
            na, vx, mx, mx > 0 ? vx / mx : 0.0);
    fprintf(f, "| **geometric mean** | | | **%.3f** | **%.3f** | |\n",
            vt_mean_ipc(r, VT_LRR, B_LRR, 1), vt_mean_ipc(r, MAX_LRR, B_LRR, 1));
    fprintf(f, "| **geometric mean** without single-CTA | | | **%.3f** | **%.3f** | |\n",
            mean_ipc_in(r, VT_LRR, B_LRR, 1, KS_MULTI), mean_ipc_in(r, MAX_LRR, B_LRR, 1, KS_MULTI));
    fprintf(f, "| *paper (average)* | | | *%.3f* | *%.3f* | *%.3f* |\n\n", P_VT, P_MAX, P_VT / P_MAX);
    fig_link(f, r, "fig8", "Fig. 8 form");
    fprintf(f, "Single-CTA kernels: one CTA per launch, headroom by the limits but no second CTA "
            "for VT to swap in (%s).\n\n", single_names(r, one, sizeof one));
    fprintf(f, "VT below MAX (arithmetic means): **%.1f points, %.1f %%** relative; without the "
            "single-CTA kernels **%.1f points, %.1f %%** (the paper: \"only 3 %% lower\": 3.0 "
            "points, %.1f %% relative).\n\n", 100.0 * (ma - va),
            va > 0 ? 100.0 * (ma / va - 1.0) : 0.0, 100.0 * (mx - vx),
            vx > 0 ? 100.0 * (mx / vx - 1.0) : 0.0, 100.0 * (P_MAX / P_VT - 1.0));
}

static void fig9(FILE *f, const struct rep *r)
{
    static const unsigned b[3] = {B_LRR, B_GTO, B_TW};
    static const char *const names[3] = {"LRR", "GTO", "two-level"};
    static const double paper[3] = {P_VT, P_VT_GTO, P_VT};
    fprintf(f, "Fig. 9 form: over the headroom kernels (and without the single-CTA ones), each "
            "scheduler's VT and MAX over its own baseline, and its baseline over B_LRR "
            "(geometric mean).\n\n"
            "| scheduler | B over B_LRR | VT (arith.) | VT (geo.) | MAX (arith.) | MAX (geo.) | "
            "*paper VT* |\n|---|---|---|---|---|---|---|\n");
    for (unsigned j = 0; j < 6; j++) {
        unsigned i = j % 3;
        enum kset s = j < 3 ? KS_ALL : KS_MULTI;
        fprintf(f, "| %s%s | %.3f | %.3f | %.3f | %.3f | %.3f | *%.3f* |\n", names[i],
                s == KS_ALL ? "" : ", without single-CTA", mean_ipc_in(r, b[i], B_LRR, 1, s),
                mean_ipc_in(r, b[i] + 1, b[i], 0, s), mean_ipc_in(r, b[i] + 1, b[i], 1, s),
                mean_ipc_in(r, b[i] + 2, b[i], 0, s), mean_ipc_in(r, b[i] + 2, b[i], 1, s),
                paper[i]);
    }
    fprintf(f, "\n");
    fig_link(f, r, "fig9", "Fig. 9 form");
}

/* A kernel without headroom ran differently under VT: swapped or took other cycles. */
static int typec_differs(const struct rep *r, unsigned k)
{
    const struct gs_stats *b = vt_st(r, k, B_LRR), *v = vt_st(r, k, VT_LRR);
    return !headroom(r, k) && (v->t.vt_swaps || v->cycles != b->cycles);
}

static int typec_fails(const struct rep *r)
{
    int n = 0;
    for (unsigned k = 0; k < r->n; k++)
        n += typec_differs(r, k);
    return n;
}

static void typec(FILE *f, const struct rep *r)
{
    fprintf(f, "## 3. Kernels without headroom (Type-C form)\n\nVT holds no more CTAs than the "
            "baseline, reserves no context region and must run as the baseline: no swap, the "
            "same cycles (the paper: no change on Type-C kernels). A difference is marked and "
            "makes the report's exit status 1.\n\n"
            "| kernel | type | limit | B_LRR cycles | VT_LRR cycles | swaps | |\n"
            "|---|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *b = vt_st(r, k, B_LRR), *v = vt_st(r, k, VT_LRR);
        if (headroom(r, k))
            continue;
        fprintf(f, "| %s | %s | %s | %llu%s | %llu%s | %llu | %s |\n", r->all[k]->name,
                type_s(r, k) ? "S" : "C", cta_limit_name((enum cta_limit)b->occupancy_limit),
                (unsigned long long)b->cycles, rep_mark(rep_res(r, k, B_LRR)),
                (unsigned long long)v->cycles, rep_mark(rep_res(r, k, VT_LRR)),
                (unsigned long long)v->t.vt_swaps, typec_differs(r, k) ? "**DIFFERS**" : "same");
    }
    fprintf(f, "\n");
}

/* 004 Fig. 4's baseline bar per scheduler outcome (gs_stall_names order), -1: folded into
   "other" (I-buffer and other, 10.0 %). */
static const double p_fig4[GS_STALL_KINDS] = {40.9, -1, -1, 10.7, 13.6, 24.8, -1, -1};

/* Outcome c's share of kernel k's baseline scheduler cycles under variant v. */
static double outcome_share(const struct rep *r, unsigned k, unsigned v, unsigned c)
{
    const struct gs_stats *b = vt_st(r, k, B_LRR);
    uint64_t bt = 0;
    for (unsigned i = 0; i < GS_STALL_KINDS; i++)
        bt += b->t.sched_cycles[i];
    return rep_ratio(vt_st(r, k, v)->t.sched_cycles[c], bt);
}

/* ... averaged over the headroom kernels (each kernel weighs the same); folded: the sum over
   the outcomes p_fig4 folds into "other". */
static double outcome_mean(const struct rep *r, unsigned v, int c, int folded)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks);
    double t = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned x = 0; x < GS_STALL_KINDS; x++)
            if (folded ? p_fig4[x] < 0 : (int)x == c)
                t += outcome_share(r, ks[i], v, x);
    return n ? t / n : 0.0;
}

/* The Fig. 4 table: per outcome, summed over the headroom kernels and averaged per kernel. */
static void fig4_outcomes(FILE *f, const struct rep *r)
{
    uint64_t b[GS_STALL_KINDS], v[GS_STALL_KINDS], bt = 0, vt = 0, bo = 0, vo = 0;
    for (unsigned c = 0; c < GS_STALL_KINDS; c++) {
        b[c] = SUM(r, B_LRR, sched_cycles[c]);
        v[c] = SUM(r, VT_LRR, sched_cycles[c]);
        bt += b[c];
        vt += v[c];
        bo += p_fig4[c] < 0 ? b[c] : 0;
        vo += p_fig4[c] < 0 ? v[c] : 0;
    }
    fprintf(f, "## 4. Scheduler cycles (Fig. 4 form)\n\nScheduler cycles by outcome (the kinds of "
            "docs/timing.md) over the headroom kernels under LRR, in %% of the baseline's "
            "scheduler cycles (so VT's column adds up to its cycles relative to the baseline's): "
            "*summed* (the kernels' cycles added: a long kernel weighs more) and *per kernel* "
            "(each kernel's shares of its own baseline, averaged: every kernel weighs the same, "
            "as the paper's bars per application); the paper's baseline bar for its Type-S "
            "applications beside them.\n\n"
            "| outcome | *paper B* | B_LRR summed | VT_LRR summed | B_LRR per kernel | "
            "VT_LRR per kernel |\n|---|---|---|---|---|---|\n");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++) {
        fprintf(f, "| %s |", gs_stall_names[c]);
        if (p_fig4[c] < 0)
            fprintf(f, " |");
        else
            fprintf(f, " *%.1f* |", p_fig4[c]);
        pct(f, rep_ratio(b[c], bt));
        pct(f, rep_ratio(v[c], bt));
        pct(f, outcome_mean(r, B_LRR, (int)c, 0));
        pct(f, outcome_mean(r, VT_LRR, (int)c, 0));
        fprintf(f, "\n");
    }
    fprintf(f, "| other (no_warp + ibuffer_empty + barrier + simt_stack) | *10.0* |");
    pct(f, rep_ratio(bo, bt));
    pct(f, rep_ratio(vo, bt));
    pct(f, outcome_mean(r, B_LRR, -1, 1));
    pct(f, outcome_mean(r, VT_LRR, -1, 1));
    fprintf(f, "\n| all (cycles) | | %llu | %llu | | |\n\n", (unsigned long long)bt,
            (unsigned long long)vt);
}

/* Per kernel: the stall cycles under B and VT, their ratio, and the kernel's share of the
   summed baseline scheduler cycles and of its own cycles with no warp. */
static void fig4_kernels(FILE *f, const struct rep *r)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks);
    uint64_t all = 0;
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        all += SUM(r, B_LRR, sched_cycles[c]);
    fprintf(f, "Per kernel: stall (not issued) scheduler cycles, VT's over the baseline's, the "
            "kernel's share of the summed baseline scheduler cycles above and its own baseline "
            "cycles with no warp at all.\n\n| kernel | B_LRR stall | VT_LRR stall | VT / B | "
            "share of the sum %% | B no_warp %% |\n|---|---|---|---|---|---|\n");
    for (unsigned i = 0; i < n; i++) {
        const struct gs_stats *b = vt_st(r, ks[i], B_LRR);
        uint64_t bt = 0;
        for (unsigned c = 0; c < GS_STALL_KINDS; c++)
            bt += b->t.sched_cycles[c];
        fprintf(f, "| %s%s | %llu | %llu | %.3f |", r->all[ks[i]]->name,
                multi_cta(r, ks[i]) ? "" : " (single-CTA)",
                (unsigned long long)rep_stall_cycles(b),
                (unsigned long long)rep_stall_cycles(vt_st(r, ks[i], VT_LRR)),
                stall_ratio(r, ks[i]));
        pct(f, rep_ratio(bt, all));
        pct(f, outcome_share(r, ks[i], B_LRR, GS_STALL_NO_WARP));
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

static void fig4(FILE *f, const struct rep *r)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks), na = hkernels_in(r, ks, KS_MULTI);
    fig4_outcomes(f, r);
    fig4_kernels(f, r);
    fprintf(f, "Stall cycles (not issued) VT removes, of the baseline's: summed over the %u "
            "headroom kernels **%.1f %%**, without the single-CTA ones (%u) **%.1f %%**; per kernel "
            "(1 - the geometric mean of VT / B) **%.1f %%** and **%.1f %%** (the paper: 18.1 %%, "
            "its Fig. 4's bars per application).\n\n", n, 100.0 * (1.0 - stall_cut(r, KS_ALL, 0)),
            na, 100.0 * (1.0 - stall_cut(r, KS_MULTI, 0)), 100.0 * (1.0 - stall_cut(r, KS_ALL, 1)),
            100.0 * (1.0 - stall_cut(r, KS_MULTI, 1)));
}

const unsigned vt_fig10_vars[4] = {VT_256, VT_LRR, VT_1024, VT_0};
static const char *const fig10_bits[4] = {"256", "512", "1024", "0 (ideal)"};

static void fig10_kernels(FILE *f, const struct rep *r)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks);
    fprintf(f, "## 5. Swap bandwidth (Fig. 10 form)\n\nNormalised IPC over B_LRR of VT at 256, 512 "
            "(Table I), 1,024 and ideal (0: no context traffic) bits per cycle.\n\n"
            "| kernel | 256 | 512 | 1024 | 0 (ideal) |\n|---|---|---|---|---|\n");
    for (unsigned i = 0; i < n; i++) {
        fprintf(f, "| %s |", r->all[ks[i]]->name);
        for (unsigned j = 0; j < 4; j++)
            cell(f, r, ks[i], vt_fig10_vars[j], vt_nipc(r, ks[i], vt_fig10_vars[j], B_LRR));
        fprintf(f, "\n");
    }
    fprintf(f, "| **geometric mean** |");
    for (unsigned j = 0; j < 4; j++)
        fprintf(f, " **%.3f** |", vt_mean_ipc(r, vt_fig10_vars[j], B_LRR, 1));
    fprintf(f, "\n| **geometric mean** without single-CTA |");
    for (unsigned j = 0; j < 4; j++)
        fprintf(f, " **%.3f** |", mean_ipc_in(r, vt_fig10_vars[j], B_LRR, 1, KS_MULTI));
    fprintf(f, "\n\n");
    fig_link(f, r, "fig10", "Fig. 10 form");
}

static void fig10(FILE *f, const struct rep *r)
{
    fig10_kernels(f, r);
    fprintf(f, "Over VT at 512 (geometric mean of VT_512 cycles / variant cycles), and summed over "
            "the headroom kernels: swaps, cycles with a swap under way, context beats of the "
            "shared-memory port, and beats held back by a demand access. The paper: ideal "
            "+0.4 %% over 512, 256 no loss, 1,024 not given.\n\n"
            "| bits per cycle | over 512 | *paper* | over 512 without single-CTA | swaps | "
            "swap cycles | beats | beats held |\n|---|---|---|---|---|---|---|---|\n");
    for (unsigned j = 0; j < 4; j++) {
        unsigned v = vt_fig10_vars[j];
        fprintf(f, "| %s | %.3f | %s | %.3f | %llu | %llu | %llu | %llu |\n", fig10_bits[j],
                vt_mean_ipc(r, v, VT_LRR, 1), j == 2 ? "-" : j == 3 ? "*1.004*" : "*1.000*",
                mean_ipc_in(r, v, VT_LRR, 1, KS_MULTI), (unsigned long long)SUM(r, v, vt_swaps),
                (unsigned long long)SUM(r, v, vt_swap_cycles),
                (unsigned long long)SUM(r, v, vt_ctx_beats),
                (unsigned long long)SUM(r, v, vt_ctx_wait_cycles));
    }
    fprintf(f, "\n");
}

/* A column of a utilisation table: fn(statistics of variant v, json), in per cent. */
struct ucol {
    unsigned v;
    double (*fn)(const struct gs_stats *, const char *);
    const char *json;
};

/* Per kernel with headroom, then the arithmetic mean over them. */
static void util_rows(FILE *f, const struct rep *r, const struct ucol *c, unsigned nc)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks);
    for (unsigned i = 0; i < n; i++) {
        fprintf(f, "| %s |", r->all[ks[i]]->name);
        for (unsigned j = 0; j < nc; j++)
            pct(f, c[j].fn(vt_st(r, ks[i], c[j].v), c[j].json));
        fprintf(f, "\n");
    }
    fprintf(f, "| **mean** |");
    for (unsigned j = 0; j < nc; j++)
        pct(f, mean_fn(r, c[j].v, c[j].fn, c[j].json));
    fprintf(f, "\n| **mean** without single-CTA |");
    for (unsigned j = 0; j < nc; j++)
        pct(f, mean_fn_in(r, c[j].v, c[j].fn, c[j].json, KS_MULTI));
}

static void fig12(FILE *f, const struct rep *r)
{
    static const struct ucol c[7] = {
        {B_LRR, rep_stat, "rf_utilization"}, {VT_LRR, rep_stat, "rf_utilization"},
        {MAX_LRR, rep_stat, "rf_utilization"}, {B_LRR, rep_stat, "smem_utilization"},
        {VT_LRR, rep_stat, "smem_utilization"}, {VT_LRR, ctx_stat, NULL},
        {MAX_LRR, rep_stat, "smem_utilization"}};
    fprintf(f, "## 6. Register file and shared memory (Fig. 12 form)\n\nAllocated over capacity, "
            "time-averaged over the run (%% of registers x cycles and of shared bytes x cycles "
            "on every SM; VT's context region counts as shared memory, its part given "
            "separately), per kernel with headroom under LRR; the paper's averages below.\n\n"
            "| kernel | RF B | RF VT | RF MAX | shared B | shared VT | of it contexts | "
            "shared MAX |\n|---|---|---|---|---|---|---|---|\n");
    util_rows(f, r, c, 7);
    fprintf(f, "\n| *paper* | *%.1f* | *%.1f* | | *%.1f* | *%.1f* | | |\n\n", 100 * P_RF_B,
            100 * P_RF_VT, 100 * P_SM_B, 100 * P_SM_VT);
    fig_link(f, r, "fig12", "Fig. 12 form");
}

const char *const vt_fig13_stats[3] = {"l1_miss_rate", "l1_mshr_utilization",
                                           "dram_bus_utilization"};

static void fig13(FILE *f, const struct rep *r)
{
    struct ucol c[6];
    for (unsigned j = 0; j < 6; j++)
        c[j] = (struct ucol){j & 1 ? VT_LRR : B_LRR, rep_stat, vt_fig13_stats[j >> 1]};
    fprintf(f, "## 7. Memory system (Fig. 13 form)\n\nL1 data-cache miss rate, L1 MSHRs in use "
            "(time-averaged, %% of the MSHRs) and DRAM data-bus utilisation, baseline and VT "
            "under LRR, per kernel with headroom; the paper's averages below (miss rate: up by "
            "less than 1.7 %%).\n\n"
            "| kernel | L1 miss B | L1 miss VT | MSHR B | MSHR VT | DRAM B | DRAM VT |\n"
            "|---|---|---|---|---|---|---|\n");
    util_rows(f, r, c, 6);
    fprintf(f, "\n| *paper* | | *+< 1.7* | *%.1f* | *%.1f* | *%.1f* | *%.1f* |\n\n",
            100 * P_MSHR_B, 100 * P_MSHR_VT, 100 * P_DRAM_B, 100 * P_DRAM_VT);
    fig_link(f, r, "fig13", "Fig. 13 form");
}

static void behaviour(FILE *f, const struct rep *r)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks);
    fprintf(f, "## 8. VT at work\n\nPer kernel with headroom under VT_LRR: swaps (one CTA out, one "
            "in), fills (an inactive CTA into slots a finished CTA left), never-run CTAs "
            "activated, active and inactive CTAs per SM (mean over cycles and SMs / max), "
            "writebacks of inactive CTAs dropped by the VWI compare, loads moved to the "
            "inactive load queue and its largest occupancy.\n\n"
            "| kernel | swaps | fills | first runs | active mean / max | inactive mean / max | "
            "stale writebacks | loads moved | inactive queue max |\n"
            "|---|---|---|---|---|---|---|---|---|\n");
    for (unsigned i = 0; i < n; i++) {
        const struct gs_stats *s = vt_st(r, ks[i], VT_LRR);
        fprintf(f, "| %s | %llu | %llu | %llu | %.2f / %llu | %.2f / %llu | %llu | %llu | %llu |\n",
                r->all[ks[i]]->name, (unsigned long long)s->t.vt_swaps,
                (unsigned long long)s->t.vt_fills, (unsigned long long)s->t.vt_first_runs,
                rep_stat(s, "vt_active_ctas_mean"), (unsigned long long)s->t.vt_active_ctas_max,
                rep_stat(s, "vt_inactive_ctas_mean"),
                (unsigned long long)s->t.vt_inactive_ctas_max,
                (unsigned long long)s->t.vt_stale_writebacks, (unsigned long long)s->t.ldq_moved,
                (unsigned long long)s->t.ldq_inactive_max);
    }
    fprintf(f, "\n");
}

/* ------------------------------------------------------------------ findings */

/* Our figure over every headroom kernel and without the single-CTA ones, against the paper's. */
static void finding(FILE *f, const char *what, double ours, double multi, double paper)
{
    fprintf(f, "- %s: %.3f (paper %.3f): %s; without the single-CTA kernels %.3f: %s.\n", what, ours,
            paper, rep_verdict(ours, paper), multi, rep_verdict(multi, paper));
}

/* The headroom kernels whose vt_nipc(v over b) is above (dir > 0) or below (dir < 0) 1 by more
   than half a percent, or within it (dir == 0), with the ratio. */
static void kernels_where(FILE *f, const struct rep *r, unsigned v, unsigned b, int dir)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks), c = 0;
    for (unsigned i = 0; i < n; i++) {
        double x = vt_nipc(r, ks[i], v, b);
        if (rep_direction(x) == dir)
            fprintf(f, "%s %s %.2f", c++ ? "," : "", r->all[ks[i]]->name, x);
    }
    fprintf(f, "%s", c ? ".\n" : " none.\n");
}

static double over(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

/* Variant VT_LRR's mean of a statistic over B_LRR's, over set s. */
static double vt_over_b(const struct rep *r, const char *json, enum kset s)
{
    return over(mean_stat_in(r, VT_LRR, json, s), mean_stat_in(r, B_LRR, json, s));
}

/* A ratio of VT's mean statistic to the baseline's, over both sets, against the paper's. */
static void finding_util(FILE *f, const struct rep *r, const char *what, const char *json,
                         double paper)
{
    finding(f, what, vt_over_b(r, json, KS_ALL), vt_over_b(r, json, KS_MULTI), paper);
}

/* The L1 miss rate's rise under VT over set s, in points. */
static double miss_rise(const struct rep *r, enum kset s)
{
    return mean_stat_in(r, VT_LRR, "l1_miss_rate", s) - mean_stat_in(r, B_LRR, "l1_miss_rate", s);
}

/* The paper's Fig. 12 and 13 ratios against ours (VT's mean over the baseline's). */
static void findings_util(FILE *f, const struct rep *r)
{
    double m = miss_rise(r, KS_ALL), mx = miss_rise(r, KS_MULTI);
    finding_util(f, r, "Fig. 12, register file used, VT / B", "rf_utilization", P_RF_VT / P_RF_B);
    finding_util(f, r, "Fig. 12, shared memory used, VT / B", "smem_utilization",
                 P_SM_VT / P_SM_B);
    fprintf(f, "- Fig. 13, L1 miss rate: %+.1f points (paper: up by less than %.1f): %s; without "
            "the single-CTA kernels %+.1f points: %s.\n", 100.0 * m, 100.0 * P_MISS_UP,
            m < P_MISS_UP ? "holds" : "**does not hold**", 100.0 * mx,
            mx < P_MISS_UP ? "holds" : "**does not hold**");
    finding_util(f, r, "Fig. 13, L1 MSHRs in use, VT / B", "l1_mshr_utilization",
                 P_MSHR_VT / P_MSHR_B);
    finding_util(f, r, "Fig. 13, DRAM bandwidth used, VT / B", "dram_bus_utilization",
                 P_DRAM_VT / P_DRAM_B);
}

/* A mean normalised IPC (v over b; arithmetic, or geometric if geo) over both sets. */
static void finding_ipc(FILE *f, const struct rep *r, const char *what, unsigned v, unsigned b,
                        int geo, double paper)
{
    finding(f, what, vt_mean_ipc(r, v, b, geo), mean_ipc_in(r, v, b, geo, KS_MULTI), paper);
}

/* Mean VT / mean MAX (arithmetic, LRR) over set s. */
static double vt_max(const struct rep *r, enum kset s)
{
    return over(mean_ipc_in(r, VT_LRR, B_LRR, 0, s), mean_ipc_in(r, MAX_LRR, B_LRR, 0, s));
}

static void findings(FILE *f, const struct rep *r)
{
    unsigned ks[MAXK], n = vt_hkernels(r, ks), na = hkernels_in(r, ks, KS_MULTI);
    unsigned nd = (unsigned)typec_fails(r);
    char one[512];
    fprintf(f, "## 9. Where the paper's direction holds (computed)\n\nOur figure against the "
            "paper's, as ratios (1: no change); \"same direction\" when both are above 1.005, "
            "both below 0.995 or both between; means over the %u headroom kernels (arithmetic "
            "for performance, as the paper's averages are compared), and over the %u without "
            "the single-CTA ones (%s).\n\n", n, na, single_names(r, one, sizeof one));
    finding_ipc(f, r, "Fig. 8, VT over Baseline (LRR)", VT_LRR, B_LRR, 0, P_VT);
    finding_ipc(f, r, "Fig. 8, MAX over Baseline (LRR)", MAX_LRR, B_LRR, 0, P_MAX);
    finding(f, "Fig. 8, VT against MAX (mean VT / mean MAX)", vt_max(r, KS_ALL),
            vt_max(r, KS_MULTI), P_VT / P_MAX);
    finding_ipc(f, r, "Fig. 9, VT over Baseline (GTO)", VT_GTO, B_GTO, 0, P_VT_GTO);
    finding_ipc(f, r, "Fig. 9, VT over Baseline (two-level)", VT_TW, B_TW, 0, P_VT);
    finding(f, "Fig. 4, stall cycles VT / B (summed)", stall_cut(r, KS_ALL, 0),
            stall_cut(r, KS_MULTI, 0), 1.0 - P_STALL_CUT);
    finding(f, "Fig. 4, stall cycles VT / B (per kernel, geometric mean)",
            stall_cut(r, KS_ALL, 1), stall_cut(r, KS_MULTI, 1), 1.0 - P_STALL_CUT);
    finding_ipc(f, r, "Fig. 10, ideal swap over 512 bits per cycle", VT_0, VT_LRR, 1, P_IDEAL);
    finding_ipc(f, r, "Fig. 10, 256 over 512 bits per cycle", VT_256, VT_LRR, 1, 1.0);
    findings_util(f, r);
    fprintf(f, "- No headroom (Type-C, and Type-S where VT adds no CTA): %u of %u kernels run "
            "as the baseline (the paper: no change): %s.\n", r->n - n - nd, r->n - n,
            nd ? "**does not hold**" : "holds");
    fprintf(f, "- Slower under VT than the baseline (LRR; the paper: none in Fig. 8):");
    kernels_where(f, r, VT_LRR, B_LRR, -1);
    fprintf(f, "- No change under VT (within 0.5 %%; the paper: BF, PF, SN):");
    kernels_where(f, r, VT_LRR, B_LRR, 0);
    fprintf(f, "- VT faster than MAX (the paper: 2D, CP, DC, HI, ND, from Mascar's memory "
            "prioritisation, which the model does not have):");
    kernels_where(f, r, VT_LRR, MAX_LRR, 1);
}

/* ------------------------------------------------------------------ the document */

static void header(FILE *f, const struct rep *r)
{
    const struct opts *o = r->o;
    unsigned ks[MAXK], n = vt_hkernels(r, ks), ns = 0;
    for (unsigned k = 0; k < r->n; k++)
        ns += type_s(r, k);
    fprintf(f, "# VT: virtual-thread CTAs (004)\n\nGenerated by `make report-vt` (`build/gpusim report vt "
            "--size %s --config %s`): the evaluation of 004_23e173f444f46134.txt Section V "
            "(virtual-thread CTAs beyond the scheduling limit) on the %u bench kernels of "
            "docs/bench.md, in the forms of the paper's figures. %u runs, %u with wrong or failed "
            "results%s.\n\n", o->size == BENCH_TEST ? "test" : "default",
            o->config ? o->config : "gtx480", r->n, r->runs, r->bad, r->bad ?
            " (marked WRONG / ERROR)" : " (every run's results checked against its C reference)");
    fprintf(f, "Every variant, the baselines included, sets `simt_depth = 4`: the paper's D, the "
            "on-chip SIMT entries a swap saves (gtx480's default is 16), so that a baseline and "
            "its VT differ in VT only.");
    for (int i = 0; i < o->nsets; i++)
        fprintf(f, "%s`--set %s`", i ? ", " : " Every variant also has ", o->sets[i]);
    fprintf(f, "%s Variants:\n\n", o->nsets ? " (before its own)." : "");
    for (unsigned v = 0; v < NV; v++)
        rep_var_line(f, &r->vars[v]);
    fprintf(f, "\nPhase 1 runs B_LRR and VT_LRR on every kernel. Type-S: the baseline's residency "
            "is bound by threads or CTAs (%u kernels), Type-C: by registers or shared memory "
            "(%u). A kernel has *headroom* when VT holds more CTAs per SM than the baseline "
            "(%u kernels); phase 2 runs the other ten variants on those only, and the figures "
            "below are over them. Every headline is also given without the *single-CTA* kernels "
            "(one CTA per launch, as dloop and sloop: headroom by the limits, but no second CTA "
            "for VT to swap in). The configuration's other keys are "
            "those of docs/config.md; what the model does is described below the tables.\n\n",
            ns, r->n - ns, n);
}

static void body(FILE *f, const struct rep *r)
{
    header(f, r);
    residency(f, r);
    fig8(f, r);
    fig9(f, r);
    typec(f, r);
    fig4(f, r);
    fig10(f, r);
    fig12(f, r);
    fig13(f, r);
    behaviour(f, r);
    findings(f, r);
}

/* The statistics of the CSV beyond the fixed columns: every scalar VT, load-queue and
   utilisation figure of the list (stats_list.h), in its order. */
static int csv_stat(const struct gs_stat_desc *d)
{
    return d->json && d->n <= 1 && d->out != GSO_ENUM &&
           (!strncmp(d->json, "vt_", 3) || !strncmp(d->json, "ldq_", 4) ||
            strstr(d->json, "_utilization") || !strcmp(d->json, "l1_miss_rate") ||
            !strncmp(d->json, "l1_", 3));
}

static void csv_header(FILE *f)
{
    fprintf(f, "kernel,type,headroom,variant,correct,cycles,warp_insns,stall_cycles");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(f, ",sched_%s", gs_stall_names[c]);
    fprintf(f, ",warps_per_cta,regs_per_thread,shared_per_cta,occupancy,occupancy_limit");
    for (uint32_t i = 0; i < gs_stat_ndescs; i++)
        if (csv_stat(&gs_stat_descs[i]))
            fprintf(f, ",%s", gs_stat_descs[i].json);
    fprintf(f, ",smem_ctx_utilization\n");
}

static void csv_row(FILE *f, const struct rep *r, unsigned k, unsigned v)
{
    const struct gs_stats *s = vt_st(r, k, v);
    fprintf(f, "%s,%s,%d,%s,%d,%llu,%llu,%llu", r->all[k]->name, type_s(r, k) ? "S" : "C",
            headroom(r, k), vars[v].name, rep_res(r, k, v)->rc == 0,
            (unsigned long long)s->cycles, (unsigned long long)s->warp_insns,
            (unsigned long long)rep_stall_cycles(s));
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(f, ",%llu", (unsigned long long)s->t.sched_cycles[c]);
    fprintf(f, ",%u,%u,%u,%u,%s", warps_per_cta(s), s->regs_per_thread, s->shared_per_cta,
            s->occupancy, cta_limit_name((enum cta_limit)s->occupancy_limit));
    for (uint32_t i = 0; i < gs_stat_ndescs; i++) {
        const struct gs_stat_desc *d = &gs_stat_descs[i];
        if (!csv_stat(d))
            continue;
        if (d->out == GSO_DERIVED || d->type == GST_f64)
            fprintf(f, ",%.6f", rep_stat(s, d->json));
        else
            fprintf(f, ",%.0f", rep_stat(s, d->json));
    }
    fprintf(f, ",%.6f\n", smem_ctx(s));
}

static void rows(FILE *f, const struct rep *r)
{
    csv_header(f);
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned v = 0; v < NV; v++)
            if (rep_ran(r, k, v))
                csv_row(f, r, k, v);
}

/* Phase 1 (want: B_LRR and VT_LRR everywhere), then phase 2 (the rest on headroom kernels). */
static int run_phases(struct rep *r)
{
    unsigned char *want = calloc((size_t)r->n * NV, 1);
    int rc;
    if (!want)
        return -1;
    for (unsigned k = 0; k < r->n; k++)
        want[k * NV + B_LRR] = want[k * NV + VT_LRR] = 1;
    rc = rep_run(r, want);
    memset(want, 0, (size_t)r->n * NV);
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned v = 0; v < NV; v++)
            want[k * NV + v] = headroom(r, k) && v != B_LRR && v != VT_LRR;
    if (!rc)
        rc = rep_run(r, want);
    free(want);
    return rc;
}

int report_vt(const struct opts *o)
{
    struct rep r;
    int rc = rep_open(&r, o, vars, NV);
    if (rc)
        return rc;
    if (run_phases(&r)) {
        rep_close(&r);
        return 2;
    }
    if (typec_fails(&r))
        fprintf(stderr, "gpusim report: %d kernels without headroom ran differently under VT "
                "(marked DIFFERS)\n", typec_fails(&r));
    if (vt_charts(&r)) {
        rep_close(&r);
        return 2;
    }
    rc = rep_finish(&r, o->markdown ? o->markdown : "docs/vt.md",
                    o->csv ? o->csv : "docs/vt.csv", NOTES_MARK, body, rows, typec_fails(&r));
    rep_close(&r);
    return rc;
}
