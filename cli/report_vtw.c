/*
 * report_vtw.c -- gpusim report vtw: the evaluation of 000_0da6b8b480bd0740.txt Section 5 on
 * the bench suite, in the forms of its Tables 4-7, written to docs/vtw.md and a CSV.
 *
 * Every kernel runs under eight variants: the original kernel under GTO and LRR; the
 * transformed kernel (vtw = hw, SameLane) under GTO and LRR (vGTO, vLRR); the transformed
 * kernel with the progress-aware scheduler under each lane policy (VTW, VTW_SL, VTW_LH); and
 * the pure-software form under GTO (SW); and, for the ablation of Algorithm 1, VTW with every
 * key 0 (VTW0: oldest first). Every run's results are checked against the kernel's
 * C reference; a wrong or failed run is marked in the table and makes the exit status 1.
 * Performance is the GTO run's cycles over the variant's; vInstr is the VTW run's warp
 * instructions over the GTO run's; stall cycles are scheduler cycles without an issue.
 * The runs, means and files are report.c's (report.h).
 */
#include <stdio.h>
#include <string.h>
#include "report.h"
#include "gpu/cta.h"
#include "gpu/stats.h"

enum { V_GTO, V_LRR, V_VGTO, V_VLRR, V_VTW, V_VTW_SL, V_VTW_LH, V_SW, V_VTW0, V_COUNT };

/* The VTW variants are mechanism rows of cli/mech.c (MECH_SETS); the original kernel's
   schedulers and the transform under them (vtw = hw without the progress-aware scheduler, not
   a mechanism of the table) are the report's own keys. */
static const struct rep_var vars[V_COUNT] = {
    {"GTO", "original kernel, GTO", {"sched_policy=gto"}, NULL, 0},
    {"LRR", "original kernel, LRR", {"sched_policy=lrr"}, NULL, 0},
    {"vGTO", "transformed kernel (vtw = hw, SameLane), GTO", {"vtw=hw", "sched_policy=gto"}, NULL, 0},
    {"vLRR", "transformed kernel (vtw = hw, SameLane), LRR", {"vtw=hw", "sched_policy=lrr"}, NULL, 0},
    {"VTW", "transformed kernel, progress-aware scheduler, SameLane", {MECH_SETS("vtw")}, NULL,
     0},
    {"VTW_SL", "transformed kernel, progress-aware scheduler, SlowestLane",
     {MECH_SETS("vtw_sl")}, NULL, 0},
    {"VTW_LH", "transformed kernel, progress-aware scheduler, LowestToHighestLane",
     {MECH_SETS("vtw_lh")}, NULL, 0},
    {"SW", "software form (vtw = sw: next TB = logical + NumVirtualTBs), GTO",
     {MECH_SETS("vtw_sw")}, NULL, 0},
    {"VTW0", "as VTW with every key of the progress-aware scheduler 0 (oldest ready warp first; "
     "the ablation, not a variant of the paper)", {MECH_SETS("vtw"), "vtw_keys=zero"}, NULL, 0},
};

/* The paper's four sets (Table 1) are the first four bench categories; a kernel listed in
   two belongs to the first. Kernels in none form a fifth group. */
#define NSETS 5
static const char *const set_names[NSETS] = {"set 1: instruction + cycle divergence",
                                             "set 2: cycle divergence only",
                                             "set 3: instruction divergence only",
                                             "set 4: no divergence", "other kernels"};

/* 000 Tables 4-6: the paper's geometric means per set and overall (index NSETS - 1 unused). */
static const double paper_t4[NSETS][5] = {      /* LRR vGTO vLRR VTW vInstr */
    {0.95, 0.96, 0.92, 1.02, 0.98}, {0.97, 0.93, 0.96, 1.05, 0.97},
    {1.00, 0.99, 1.00, 1.03, 0.98}, {0.99, 1.12, 1.10, 1.13, 0.94},
    {0.97, 0.98, 0.98, 1.06, 0.97}};                               /* last row: GMEAN */
static const double paper_t5[NSETS][3] = {      /* VTW VTW_SL VTW_LH */
    {1.02, 1.02, 1.03}, {1.05, 1.05, 1.04}, {1.03, 1.03, 1.03}, {1.13, 1.14, 1.13},
    {1.06, 1.06, 1.06}};
static const double paper_t6[NSETS][6] = {      /* LRR vGTO vLRR VTW VTW_SL VTW_LH */
    {1.12, 1.05, 1.13, 0.96, 0.95, 0.95}, {1.04, 1.11, 1.02, 0.95, 0.95, 0.94},
    {0.96, 1.00, 1.01, 0.90, 0.90, 0.90}, {1.00, 0.88, 0.89, 0.87, 0.87, 0.87},
    {1.05, 1.02, 1.02, 0.93, 0.93, 0.93}};

#define NOTES_MARK "<!-- notes below: kept by make report-vtw -->"

static const struct gs_stats *st(const struct rep *r, unsigned k, unsigned v)
{
    return &rep_res(r, k, v)->st;
}

/* The kernel's set: 0..NSETS-1. */
static int kset(const struct rep *r, unsigned k)
{
    for (int c = 0; c < NSETS - 1; c++)
        if (cat_has((enum cat)c, r->all[k]->name))
            return c;
    return NSETS - 1;
}

/* ------------------------------------------------------------------ measures */

/* Variant v's performance on kernel k relative to the original kernel under GTO. */
static double perf(const struct rep *r, unsigned k, unsigned v)
{
    return rep_ratio(st(r, k, V_GTO)->cycles, st(r, k, v)->cycles);
}

static double stall_norm(const struct rep *r, unsigned k, unsigned v)
{
    return rep_ratio(rep_stall_cycles(st(r, k, v)), rep_stall_cycles(st(r, k, V_GTO)));
}

static double vinstr(const struct rep *r, unsigned k, unsigned v)
{
    return rep_ratio(st(r, k, v)->warp_insns, st(r, k, V_GTO)->warp_insns);
}

/* Geometric mean of f over the kernels of set s (s == NSETS: all), skipping zeros. */
static double gmean(const struct rep *r, int s, double (*f)(const struct rep *, unsigned,
                                                           unsigned), unsigned v)
{
    double x[256];
    unsigned c = 0;
    for (unsigned k = 0; k < r->n && c < 256; k++)
        if (s == NSETS || kset(r, k) == s)
            x[c++] = f(r, k, v);
    return rep_gmean(x, c);
}

static unsigned set_size(const struct rep *r, int s)
{
    unsigned c = 0;
    for (unsigned k = 0; k < r->n; k++)
        c += s == NSETS || kset(r, k) == s;
    return c;
}

/* ------------------------------------------------------------------ the document */

static void t4_row(FILE *f, const struct rep *r, unsigned k)
{
    const struct result *g = rep_res(r, k, V_GTO);
    fprintf(f, "| %s | %llu%s |", r->all[k]->name, (unsigned long long)g->st.cycles,
            rep_mark(g));
    for (unsigned v = V_LRR; v <= V_SW; v++)
        fprintf(f, " %.2f%s |", perf(r, k, v), rep_mark(rep_res(r, k, v)));
    fprintf(f, " %.2f | %.2f |\n", vinstr(r, k, V_VTW), vinstr(r, k, V_SW));
}
/* "GMEAN1".."GMEAN4" for the sets, "GMEAN" for all kernels (s == NSETS). */
static const char *gm_label(int s, char *buf, size_t n)
{
    if (s == NSETS)
        snprintf(buf, n, "GMEAN");
    else
        snprintf(buf, n, "GMEAN%d", s + 1);
    return buf;
}

static void t4_gmean(FILE *f, const struct rep *r, int s)
{
    char lb[16];
    fprintf(f, "| **%s** (%u) | |", gm_label(s, lb, sizeof lb), set_size(r, s));
    for (unsigned v = V_LRR; v <= V_SW; v++)
        fprintf(f, " **%.2f** |", gmean(r, s, perf, v));
    fprintf(f, " **%.2f** | **%.2f** |\n", gmean(r, s, vinstr, V_VTW), gmean(r, s, vinstr, V_SW));
    if (s == NSETS - 1)
        return;
    const double *p = paper_t4[s == NSETS ? NSETS - 1 : s];
    const double *p5 = paper_t5[s == NSETS ? NSETS - 1 : s];
    fprintf(f, "| *paper %s* | | *%.2f* | *%.2f* | *%.2f* | *%.2f* | *%.2f* | *%.2f* | - | "
            "*%.2f* | - |\n", gm_label(s, lb, sizeof lb), p[0], p[1], p[2], p[3], p5[1], p5[2],
            p[4]);
}

static void table4(FILE *f, const struct rep *r)
{
    fprintf(f, "## Performance (Table 4 and 5 form)\n\nCycles of the original kernel under GTO, "
            "then each variant's performance normalised to it (GTO cycles / variant cycles; > 1 "
            "is faster); vInstr and swInstr: warp instructions of the VTW and SW runs over the "
            "original's. Rows in italics are the paper's geometric means (000 Tables 4 and 5; "
            "51 kernels on GPGPU-Sim's Fermi, not these kernels).\n\n"
            "| kernel | GTO cycles | LRR | vGTO | vLRR | VTW | VTW_SL | VTW_LH | SW | vInstr | "
            "swInstr |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < NSETS; s++) {
        if (!set_size(r, s))
            continue;
        fprintf(f, "| *%s* | | | | | | | | | | |\n", set_names[s]);
        for (unsigned k = 0; k < r->n; k++)
            if (kset(r, k) == s)
                t4_row(f, r, k);
        t4_gmean(f, r, s);
    }
    t4_gmean(f, r, NSETS);
    fprintf(f, "\nVTW over LRR (the paper: 1.09): **%.2f**; VTW over vGTO (the paper: 1.08): "
            "**%.2f**.\n\n", gmean(r, NSETS, perf, V_VTW) / gmean(r, NSETS, perf, V_LRR),
            gmean(r, NSETS, perf, V_VTW) / gmean(r, NSETS, perf, V_VGTO));
}

static void table6(FILE *f, const struct rep *r)
{
    static const unsigned vs[] = {V_LRR, V_VGTO, V_VLRR, V_VTW, V_VTW_SL, V_VTW_LH, V_SW};
    fprintf(f, "## Stall cycles (Table 6 form)\n\nScheduler cycles without an issue, over the "
            "original kernel's under GTO (< 1: fewer stalls); geometric means per set. The paper "
            "averages over SMs; a ratio per kernel is the same.\n\n"
            "| | LRR | vGTO | vLRR | VTW | VTW_SL | VTW_LH | SW |\n|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s <= NSETS; s++) {
        if (s < NSETS && !set_size(r, s))
            continue;
        fprintf(f, "| %s |", s == NSETS ? "**GMEAN**" : set_names[s]);
        for (unsigned i = 0; i < 7; i++)
            fprintf(f, " %.2f |", gmean(r, s, stall_norm, vs[i]));
        fprintf(f, "\n");
        if (s == NSETS - 1)
            continue;
        const double *p = paper_t6[s == NSETS ? NSETS - 1 : s];
        fprintf(f, "| *paper* | *%.2f* | *%.2f* | *%.2f* | *%.2f* | *%.2f* | *%.2f* | - |\n", p[0],
                p[1], p[2], p[3], p[4], p[5]);
    }
}

/* Suite-wide scheduler cycles by outcome, GTO against VTW. */
static void stall_kinds(FILE *f, const struct rep *r)
{
    uint64_t t[2][GS_STALL_KINDS] = {{0}}, all[2] = {0};
    static const unsigned vs[2] = {V_GTO, V_VTW};
    for (unsigned i = 0; i < 2; i++)
        for (unsigned k = 0; k < r->n; k++)
            for (unsigned c = 0; c < GS_STALL_KINDS; c++) {
                t[i][c] += rep_res(r, k, vs[i])->st.t.sched_cycles[c];
                all[i] += rep_res(r, k, vs[i])->st.t.sched_cycles[c];
            }
    fprintf(f, "\nScheduler cycles by outcome, summed over the suite (%% of all scheduler cycles; "
            "the kinds of docs/timing.md):\n\n| outcome | GTO | VTW |\n|---|---|---|\n");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(f, "| %s | %.1f | %.1f |\n", gs_stall_names[c], 100.0 * rep_ratio(t[0][c], all[0]),
                100.0 * rep_ratio(t[1][c], all[1]));
    fprintf(f, "| all (cycles) | %llu | %llu |\n\n", (unsigned long long)all[0],
            (unsigned long long)all[1]);
}

static void table7(FILE *f, const struct rep *r, uint32_t nsms)
{
    fprintf(f, "## Registers and residency (Table 7 form)\n\nRegisters per thread of the "
            "original and the transformed kernel (ptxas's counts: kernel.res and kernel.vtw.res, "
            "the hw form compiled with stand-ins for its two instructions, docs/ptx.md), "
            "resident TBs per GPU (CTAs per SM x "
            "%u SMs) before and after, and the virtual TBs launched (NumVirtualTBs = "
            "min(residency, logical TBs)) for the launch with the most TBs. Kernels whose "
            "residency changed are in bold.\n\n"
            "| kernel | Regs | vRegs | Res | vRes | virtual TBs | logical TBs |\n"
            "|---|---|---|---|---|---|---|\n", nsms);
    for (unsigned k = 0; k < r->n; k++) {
        const struct gs_stats *g = &rep_res(r, k, V_GTO)->st, *v = &rep_res(r, k, V_VTW)->st;
        int ch = g->occupancy != v->occupancy;
        fprintf(f, "| %s%s%s | %u | %u | %u | %u | %u | %llu |\n", ch ? "**" : "",
                r->all[k]->name, ch ? "**" : "", g->regs_per_thread, v->regs_per_thread,
                g->occupancy * nsms, v->occupancy * nsms, v->vtw_ctas,
                (unsigned long long)g->grid[0] * g->grid[1] * g->grid[2]);
    }
}

/* Up to n kernels of set s (NSETS: all), slowest under VTW first, into ks; their count. */
static unsigned slowest(const struct rep *r, int s, unsigned *ks, unsigned n)
{
    unsigned all[256], c = 0;
    for (unsigned k = 0; k < r->n; k++) {          /* insertion sort of the set by VTW's perf */
        unsigned i = c++;
        if (s != NSETS && kset(r, k) != s) {
            c--;
            continue;
        }
        for (; i > 0 && perf(r, all[i - 1], V_VTW) > perf(r, k, V_VTW); i--)
            all[i] = all[i - 1];
        all[i] = k;
    }
    c = c < n ? c : n;
    memcpy(ks, all, c * sizeof *ks);
    return c;
}

/* The direction of each set's VTW result against the paper's (faster or slower than GTO, and
   than vGTO: the scheduler's own share), with the statistics of its slowest kernels: stall
   cycles and warp instructions relative to GTO, and virtual over logical TBs. */
static void findings(FILE *f, const struct rep *r)
{
    fprintf(f, "\n## Where the paper's direction holds (computed)\n\nPer set: VTW over GTO and "
            "VTW over vGTO (what the progress-aware scheduler adds to the transform), each "
            "against the paper's; then the three kernels slowest under VTW with their stall "
            "cycles and warp instructions relative to GTO and their virtual / logical TBs "
            "(launch with the most TBs).\n\n");
    for (int s = 0; s <= NSETS; s++) {
        if (s == NSETS - 1 || !set_size(r, s))
            continue;
        const double *p = paper_t4[s == NSETS ? NSETS - 1 : s];
        double vtw = gmean(r, s, perf, V_VTW), vg = gmean(r, s, perf, V_VGTO);
        unsigned ks[3], n = slowest(r, s, ks, 3);
        fprintf(f, "- %s: VTW / GTO %.2f (paper %.2f: %s); VTW / vGTO %.2f (paper %.2f: %s).",
                s == NSETS ? "all kernels" : set_names[s], vtw, p[3], rep_verdict(vtw, p[3]),
                vg > 0 ? vtw / vg : 0, p[3] / p[1], rep_verdict(vg > 0 ? vtw / vg : 0, p[3] / p[1]));
        fprintf(f, " Slowest under VTW:");
        for (unsigned i = 0; i < n; i++) {
            const struct gs_stats *g = &rep_res(r, ks[i], V_GTO)->st;
            fprintf(f, "%s %s %.2f (stalls %.2f, instructions %.2f, %u / %llu TBs)", i ? ";" : "",
                    r->all[ks[i]]->name, perf(r, ks[i], V_VTW), stall_norm(r, ks[i], V_VTW),
                    vinstr(r, ks[i], V_VTW), rep_res(r, ks[i], V_VTW)->st.vtw_ctas,
                    (unsigned long long)g->grid[0] * g->grid[1] * g->grid[2]);
        }
        fprintf(f, ".\n");
    }
}


/* ------------------------------------------------------------------ the ablation */

/* Share (%) of the VTW run's issues in element c of counter `a` (n elements). */
static double share(const uint64_t *a, unsigned n, unsigned c)
{
    uint64_t all = 0;
    for (unsigned i = 0; i < n; i++)
        all += a[i];
    return 100.0 * rep_ratio(a[c], all);
}

static void ablation_row(FILE *f, const struct rep *r, unsigned k)
{
    const struct gs_timing *t = &st(r, k, V_VTW)->t;
    const uint64_t *c = t->vtw_issue_class, *d = t->vtw_decided_by;
    uint64_t cont = t->vtw_fast_contested + t->vtw_slow_contested;
    fprintf(f, "| %s | %.2f | %.2f | %.2f | %.3f | %.3f | %.0f | %.0f | %.0f | %.0f/%.0f/%.0f | "
            "%.0f | %.0f/%.0f/%.0f/%.0f/%.0f |\n", r->all[k]->name, perf(r, k, V_VTW),
            perf(r, k, V_VTW0), perf(r, k, V_VGTO),
            rep_ratio(st(r, k, V_VTW0)->cycles, st(r, k, V_VTW)->cycles),
            rep_ratio(st(r, k, V_VGTO)->cycles, st(r, k, V_VTW)->cycles),
            100.0 - share(d, GS_VTW_DECIDE, 4),
            100.0 * rep_ratio(t->vtw_fast_not_gto + t->vtw_slow_not_gto, cont),
            100.0 * rep_ratio(t->vtw_fast_not_oldest + t->vtw_slow_not_oldest, cont),
            share(d, 4, 0), share(d, 4, 1), share(d, 4, 2),
            100.0 * rep_ratio(t->vtw_slow_contested, cont),
            share(c, GS_VTW_CLASSES, 3), share(c, GS_VTW_CLASSES, 2), share(c, GS_VTW_CLASSES, 1),
            share(c, GS_VTW_CLASSES, 0), share(c, GS_VTW_CLASSES, 4));
}

/* What Algorithm 1 adds: the VTW run against the same hardware form with every key 0 (VTW0)
   and against GTO (vGTO), per kernel, with the VTW run's scheduler statistics. */
static void ablation(FILE *f, const struct rep *r)
{
    fprintf(f, "\n## Algorithm 1's share (ablation)\n\nThe progress-aware scheduler's keys "
            "(VTW) against the same hardware form with every key 0 (VTW0: `vtw_keys = zero`, the "
            "oldest ready warp issues) and against GTO (vGTO), each over the original's GTO "
            "cycles; VTW0/VTW and vGTO/VTW: what Algorithm 1 gains over each (> 1: it is "
            "faster). From the VTW run's statistics (model/base/stats_list.h, `vtw_*`): "
            "*contested*, the issues with more than one ready warp on the scheduler (%% of "
            "issues); *not GTO*, "
            "*not oldest*: of those, the picks that GTO (the warp issued last, if ready, else the "
            "oldest) or oldest-first (VTW0) would not have made; *by class/TB/warp*: of those, "
            "the picks that differ from the oldest ready warp by the key's class, by the TB rank "
            "in the same class, by the warp rank in the same TB (%%; they add up to *not "
            "oldest*); *slow*: the slow phase's share of the contested picks; *classes*: issues "
            "by Algorithm 1 class -- Barrier / DiffIter lower / SameIter / DiffIter higher / slow "
            "phase (%%).\n\n"
            "| kernel | VTW | VTW0 | vGTO | VTW0/VTW | vGTO/VTW | contested | not GTO | "
            "not oldest | by class/TB/warp | slow | classes B/DL/S/DH/slow |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < r->n; k++)
        ablation_row(f, r, k);
    double vtw = gmean(r, NSETS, perf, V_VTW), v0 = gmean(r, NSETS, perf, V_VTW0),
           vg = gmean(r, NSETS, perf, V_VGTO);
    fprintf(f, "| **GMEAN** | **%.2f** | **%.2f** | **%.2f** | **%.3f** | **%.3f** | | | | | | |\n\n"
            "Algorithm 1 over zero keys: **%.3f**; over vGTO: **%.3f** (the paper: VTW over vGTO "
            "1.08).\n", vtw, v0, vg, v0 > 0 ? vtw / v0 : 0, vg > 0 ? vtw / vg : 0,
            v0 > 0 ? vtw / v0 : 0, vg > 0 ? vtw / vg : 0);
}

static void header(FILE *f, const struct rep *r)
{
    const struct opts *o = r->o;
    fprintf(f, "# VTW on the bench suite\n\nGenerated by `make report-vtw` (`build/gpusim report "
            "vtw --size %s --config %s`): the evaluation of 000_0da6b8b480bd0740.txt Section 5 "
            "(virtual thread blocks and warps, the next-TB-index unit, the progress-aware "
            "scheduler) on the %u bench kernels of docs/bench.md. %u runs, %u with wrong or "
            "failed results%s. Variants:\n\n",
            o->size == BENCH_TEST ? "test" : "default", o->config ? o->config : "gtx480",
            r->n, r->runs, r->bad, r->bad ? " (marked WRONG / ERROR)" : " (every "
            "run's results checked against its C reference)");
    for (unsigned v = 0; v < V_COUNT; v++)
        rep_var_line(f, &r->vars[v]);
    fprintf(f, "\nSets: the first four categories of docs/bench.md (000 Table 1's sets; a kernel "
            "listed in two is in the first); the other kernels are a fifth group, in the overall "
            "GMEAN only. The configuration's other keys (vtw_latency, vtw_smem_hold, ...) are "
            "those of docs/config.md.\n\n");
}

static void body(FILE *f, const struct rep *r)
{
    struct gs_gpu *g;
    uint32_t nsms = 1;
    if (!gs_init(&g, r->o->config, r->o->sets, r->o->nsets, NULL, 0)) {
        nsms = gs_config(g)->num_sms;
        gs_destroy(g);
    }
    header(f, r);
    table4(f, r);
    table6(f, r);
    stall_kinds(f, r);
    table7(f, r, nsms);
    findings(f, r);
    ablation(f, r);
}

static void rows(FILE *f, const struct rep *r)
{
    fprintf(f, "kernel,set,variant,correct,cycles,warp_insns,thread_insns,stall_cycles");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(f, ",sched_%s", gs_stall_names[c]);
    fprintf(f, ",regs_per_thread,occupancy,regs_original,occupancy_original,vtw_virtual_tbs,"
            "ctas,vtw_issue_diffiter_high,vtw_issue_sameiter,vtw_issue_diffiter_low,"
            "vtw_issue_barrier,vtw_issue_slow,vtw_decided_class,vtw_decided_tb_rank,"
            "vtw_decided_warp_rank,vtw_decided_oldest,vtw_decided_alone,vtw_fast_contested,"
            "vtw_fast_not_gto,vtw_fast_not_oldest,vtw_slow_contested,vtw_slow_not_gto,"
            "vtw_slow_not_oldest\n");
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned v = 0; v < V_COUNT; v++) {
            const struct gs_stats *s = st(r, k, v);
            fprintf(f, "%s,%d,%s,%d,%llu,%llu,%llu,%llu", r->all[k]->name, kset(r, k) + 1,
                    vars[v].name, rep_res(r, k, v)->rc == 0, (unsigned long long)s->cycles,
                    (unsigned long long)s->warp_insns, (unsigned long long)s->thread_insns,
                    (unsigned long long)rep_stall_cycles(s));
            for (unsigned c = 0; c < GS_STALL_KINDS; c++)
                fprintf(f, ",%llu", (unsigned long long)s->t.sched_cycles[c]);
            fprintf(f, ",%u,%u,%u,%u,%u,%llu", s->regs_per_thread, s->occupancy,
                    s->regs_original, s->occupancy_original, s->vtw_ctas,
                    (unsigned long long)s->ctas);
            for (unsigned c = 0; c < GS_VTW_CLASSES; c++)
                fprintf(f, ",%llu", (unsigned long long)s->t.vtw_issue_class[c]);
            for (unsigned c = 0; c < GS_VTW_DECIDE; c++)
                fprintf(f, ",%llu", (unsigned long long)s->t.vtw_decided_by[c]);
            fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu\n",
                    (unsigned long long)s->t.vtw_fast_contested,
                    (unsigned long long)s->t.vtw_fast_not_gto,
                    (unsigned long long)s->t.vtw_fast_not_oldest,
                    (unsigned long long)s->t.vtw_slow_contested,
                    (unsigned long long)s->t.vtw_slow_not_gto,
                    (unsigned long long)s->t.vtw_slow_not_oldest);
        }
}

int report_vtw(const struct opts *o)
{
    struct rep r;
    int rc = rep_open(&r, o, vars, V_COUNT);
    if (rc)
        return rc;
    if (rep_run(&r, NULL)) {
        rep_close(&r);
        return 2;
    }
    rc = rep_finish(&r, o->markdown ? o->markdown : "docs/vtw.md",
                    o->csv ? o->csv : "docs/vtw.csv", NOTES_MARK, body, rows, 0);
    rep_close(&r);
    return rc;
}
