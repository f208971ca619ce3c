/*
 * report.c -- gpusim report vtw: the evaluation of 000_0da6b8b480bd0740.txt Section 5 on the
 * bench suite, in the forms of its Tables 4-7, written to docs/vtw.md and a CSV.
 *
 * Every kernel runs under eight variants: the original kernel under GTO and LRR; the
 * transformed kernel (vtw = hw, SameLane) under GTO and LRR (vGTO, vLRR); the transformed
 * kernel with the progress-aware scheduler under each lane policy (VTW, VTW_SL, VTW_LH); and
 * the pure-software form under GTO (SW). Every run's results are checked against the kernel's
 * C reference; a wrong or failed run is marked in the table and makes the exit status 1.
 * Performance is the GTO run's cycles over the variant's; vInstr is the VTW run's warp
 * instructions over the GTO run's; stall cycles are scheduler cycles without an issue.
 * --jobs N runs N kernels at once in child processes (results land in shared memory; the
 * report does not depend on the order they finish in).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "gpu/cta.h"
#include "sm/iss.h"

enum { V_GTO, V_LRR, V_VGTO, V_VLRR, V_VTW, V_VTW_SL, V_VTW_LH, V_SW, V_COUNT };

static const struct variant {
    const char *name, *what;
    const char *set[3];
} vars[V_COUNT] = {
    {"GTO", "original kernel, GTO", {"sched_policy=gto"}},
    {"LRR", "original kernel, LRR", {"sched_policy=lrr"}},
    {"vGTO", "transformed kernel (vtw = hw, SameLane), GTO", {"vtw=hw", "sched_policy=gto"}},
    {"vLRR", "transformed kernel (vtw = hw, SameLane), LRR", {"vtw=hw", "sched_policy=lrr"}},
    {"VTW", "transformed kernel, progress-aware scheduler, SameLane",
     {"vtw=hw", "sched_policy=vtw", "vtw_lane=same"}},
    {"VTW_SL", "transformed kernel, progress-aware scheduler, SlowestLane",
     {"vtw=hw", "sched_policy=vtw", "vtw_lane=slowest"}},
    {"VTW_LH", "transformed kernel, progress-aware scheduler, LowestToHighestLane",
     {"vtw=hw", "sched_policy=vtw", "vtw_lane=lowest"}},
    {"SW", "software form (vtw = sw: next TB = logical + NumVirtualTBs), GTO",
     {"vtw=sw", "sched_policy=gto"}},
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

struct rep {
    const struct opts *o;
    const struct bench *const *all;
    unsigned n;
    struct result *rs;             /* [kernel * V_COUNT + variant] */
    int set[256];                  /* per kernel: 0..NSETS-1 */
    unsigned bad;
};

static struct result *res(const struct rep *r, unsigned k, unsigned v)
{
    return &r->rs[k * V_COUNT + v];
}

static int kernel_set(const char *name)
{
    for (int c = 0; c < NSETS - 1; c++)
        if (cat_has((enum cat)c, name))
            return c;
    return NSETS - 1;
}

/* ------------------------------------------------------------------ running */

/* The options of variant v: the command line's sets, then the variant's (which win). */
static struct opts variant_opts(const struct opts *o, unsigned v)
{
    struct opts vo = *o;
    for (unsigned i = 0; i < 3 && vars[v].set[i] && vo.nsets < MAX_SETS; i++)
        vo.sets[vo.nsets++] = vars[v].set[i];
    return vo;
}

static void run_job(const struct rep *r, unsigned j)
{
    struct opts vo = variant_opts(r->o, j % V_COUNT);
    run_one(&vo, r->all[j / V_COUNT], &r->rs[j]);
}

static void job_done(const struct rep *r, unsigned j)
{
    const struct result *x = &r->rs[j];
    printf("%-12s %-7s %-7s %12llu cycles %14llu warp insns\n", r->all[j / V_COUNT]->name,
           vars[j % V_COUNT].name, x->rc == 0 ? "ok" : x->rc == 1 ? "WRONG" : "ERROR",
           (unsigned long long)x->st.cycles, (unsigned long long)x->st.warp_insns);
    if (x->rc)
        fprintf(stderr, "gpusim report: %s %s: %s\n", r->all[j / V_COUNT]->name,
                vars[j % V_COUNT].name, x->msg);
    fflush(stdout);
}

/* Wait for one child; mark its job failed if it did not finish normally. */
static void reap(struct rep *r, pid_t *pids, unsigned njobs, unsigned *running)
{
    int status;
    pid_t p = wait(&status);
    for (unsigned j = 0; j < njobs; j++)
        if (pids[j] == p && p > 0) {
            if (!WIFEXITED(status) || WEXITSTATUS(status)) {
                r->rs[j].rc = 2;
                snprintf(r->rs[j].msg, sizeof r->rs[j].msg, "the run's process ended abnormally "
                         "(status %d)", status);
            }
            pids[j] = 0;
            (*running)--;
            job_done(r, j);
        }
}

static int run_all(struct rep *r)
{
    unsigned njobs = r->n * V_COUNT, running = 0;
    pid_t *pids = calloc(njobs, sizeof *pids);
    if (!pids)
        return -1;
    for (unsigned j = 0; j < njobs; j++) {
        if (r->o->jobs <= 1) {
            run_job(r, j);
            job_done(r, j);
            continue;
        }
        while (running >= (unsigned)r->o->jobs)
            reap(r, pids, njobs, &running);
        fflush(NULL);
        pids[j] = fork();
        if (pids[j] == 0) {
            run_job(r, j);
            _exit(0);
        }
        if (pids[j] < 0) {
            perror("gpusim report: fork");
            pids[j] = 0;
            r->rs[j].rc = 2;
            snprintf(r->rs[j].msg, sizeof r->rs[j].msg, "fork failed");
            continue;
        }
        running++;
    }
    while (running)
        reap(r, pids, njobs, &running);
    free(pids);
    return 0;
}

/* ------------------------------------------------------------------ measures */

static uint64_t stall_cycles(const struct gs_stats *s)
{
    uint64_t t = 0;
    for (unsigned k = 1; k < GS_STALL_KINDS; k++)     /* kind 0: issued */
        t += s->t.sched_cycles[k];
    return t;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* Variant v's performance on kernel k relative to the original kernel under GTO. */
static double perf(const struct rep *r, unsigned k, unsigned v)
{
    return ratio(res(r, k, V_GTO)->st.cycles, res(r, k, v)->st.cycles);
}

static double stall_norm(const struct rep *r, unsigned k, unsigned v)
{
    return ratio(stall_cycles(&res(r, k, v)->st), stall_cycles(&res(r, k, V_GTO)->st));
}

static double vinstr(const struct rep *r, unsigned k, unsigned v)
{
    return ratio(res(r, k, v)->st.warp_insns, res(r, k, V_GTO)->st.warp_insns);
}

/* Geometric mean of f over the kernels of set s (s == NSETS: all), skipping zeros. */
static double gmean(const struct rep *r, int s, double (*f)(const struct rep *, unsigned,
                                                           unsigned), unsigned v)
{
    double l = 0;
    unsigned c = 0;
    for (unsigned k = 0; k < r->n; k++) {
        double x = f(r, k, v);
        if ((s == NSETS || r->set[k] == s) && x > 0) {
            l += log(x);
            c++;
        }
    }
    return c ? exp(l / c) : 0.0;
}

static unsigned set_size(const struct rep *r, int s)
{
    unsigned c = 0;
    for (unsigned k = 0; k < r->n; k++)
        c += s == NSETS || r->set[k] == s;
    return c;
}

/* ------------------------------------------------------------------ the document */

static const char *mark(const struct result *x)
{
    return x->rc == 0 ? "" : x->rc == 1 ? " WRONG" : " ERROR";
}

static void t4_row(FILE *f, const struct rep *r, unsigned k)
{
    const struct result *g = res(r, k, V_GTO);
    fprintf(f, "| %s | %llu%s |", r->all[k]->name, (unsigned long long)g->st.cycles, mark(g));
    for (unsigned v = V_LRR; v < V_COUNT; v++)
        fprintf(f, " %.2f%s |", perf(r, k, v), mark(res(r, k, v)));
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
    for (unsigned v = V_LRR; v < V_COUNT; v++)
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
            if (r->set[k] == s)
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
                t[i][c] += res(r, k, vs[i])->st.t.sched_cycles[c];
                all[i] += res(r, k, vs[i])->st.t.sched_cycles[c];
            }
    fprintf(f, "\nScheduler cycles by outcome, summed over the suite (%% of all scheduler cycles; "
            "the kinds of docs/timing.md):\n\n| outcome | GTO | VTW |\n|---|---|---|\n");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(f, "| %s | %.1f | %.1f |\n", iss_class_names[c], 100.0 * ratio(t[0][c], all[0]),
                100.0 * ratio(t[1][c], all[1]));
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
        const struct gs_stats *g = &res(r, k, V_GTO)->st, *v = &res(r, k, V_VTW)->st;
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
        if (s != NSETS && r->set[k] != s) {
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

/* A ratio's direction: +1 faster, -1 slower, 0 within half a percent. */
static int direction(double x)
{
    return x > 1.005 ? 1 : x < 0.995 ? -1 : 0;
}

static const char *verdict(double ours, double paper)
{
    int a = direction(ours), b = direction(paper);
    return a == b ? "same direction" : a == 0 ? "**no effect here**" : "**opposite direction**";
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
                s == NSETS ? "all kernels" : set_names[s], vtw, p[3], verdict(vtw, p[3]),
                vg > 0 ? vtw / vg : 0, p[3] / p[1], verdict(vg > 0 ? vtw / vg : 0, p[3] / p[1]));
        fprintf(f, " Slowest under VTW:");
        for (unsigned i = 0; i < n; i++) {
            const struct gs_stats *g = &res(r, ks[i], V_GTO)->st;
            fprintf(f, "%s %s %.2f (stalls %.2f, instructions %.2f, %u / %llu TBs)", i ? ";" : "",
                    r->all[ks[i]]->name, perf(r, ks[i], V_VTW), stall_norm(r, ks[i], V_VTW),
                    vinstr(r, ks[i], V_VTW), res(r, ks[i], V_VTW)->st.vtw_ctas,
                    (unsigned long long)g->grid[0] * g->grid[1] * g->grid[2]);
        }
        fprintf(f, ".\n");
    }
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
            r->n, r->n * V_COUNT, r->bad, r->bad ? " (marked WRONG / ERROR)" : " (every "
            "run's results checked against its C reference)");
    for (unsigned v = 0; v < V_COUNT; v++)
        fprintf(f, "- **%s**: %s (`--set %s%s%s%s%s`)\n", vars[v].name, vars[v].what,
                vars[v].set[0], vars[v].set[1] ? " --set " : "", vars[v].set[1] ? vars[v].set[1] : "",
                vars[v].set[2] ? " --set " : "", vars[v].set[2] ? vars[v].set[2] : "");
    fprintf(f, "\nSets: the first four categories of docs/bench.md (000 Table 1's sets; a kernel "
            "listed in two is in the first); the other kernels are a fifth group, in the overall "
            "GMEAN only. The configuration's other keys (vtw_latency, vtw_smem_hold, ...) are "
            "those of docs/config.md.\n\n");
}

static int write_md(const struct rep *r, const char *path)
{
    char *notes = file_tail(path, NOTES_MARK);
    struct gs_gpu *g;
    uint32_t nsms = 1;
    FILE *f;
    if (!gs_init(&g, r->o->config, r->o->sets, r->o->nsets, NULL, 0)) {
        nsms = gs_config(g)->num_sms;
        gs_destroy(g);
    }
    if (!(f = fopen(path, "w"))) {
        perror(path);
        free(notes);
        return -1;
    }
    header(f, r);
    table4(f, r);
    table6(f, r);
    stall_kinds(f, r);
    table7(f, r, nsms);
    findings(f, r);
    if (notes)
        fprintf(f, "\n%s", notes);
    else
        fprintf(f, "\n%s\n", NOTES_MARK);
    free(notes);
    return fclose(f);
}

static int write_csv(const struct rep *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "kernel,set,variant,correct,cycles,warp_insns,thread_insns,stall_cycles");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(f, ",sched_%s", iss_class_names[c]);
    fprintf(f, ",regs_per_thread,occupancy,regs_original,occupancy_original,vtw_virtual_tbs,"
            "ctas\n");
    for (unsigned k = 0; k < r->n; k++)
        for (unsigned v = 0; v < V_COUNT; v++) {
            const struct gs_stats *s = &res(r, k, v)->st;
            fprintf(f, "%s,%d,%s,%d,%llu,%llu,%llu,%llu", r->all[k]->name, r->set[k] + 1,
                    vars[v].name, res(r, k, v)->rc == 0, (unsigned long long)s->cycles,
                    (unsigned long long)s->warp_insns, (unsigned long long)s->thread_insns,
                    (unsigned long long)stall_cycles(s));
            for (unsigned c = 0; c < GS_STALL_KINDS; c++)
                fprintf(f, ",%llu", (unsigned long long)s->t.sched_cycles[c]);
            fprintf(f, ",%u,%u,%u,%u,%u,%llu\n", s->regs_per_thread, s->occupancy,
                    s->regs_original, s->occupancy_original, s->vtw_ctas,
                    (unsigned long long)s->ctas);
        }
    return fclose(f);
}

/* Every variant's configuration (the options' sets, then the variant's) must load: a bad key
   or combination stops the report before any run and before any file is written. */
static int check_variants(const struct opts *o)
{
    for (unsigned v = 0; v < V_COUNT; v++) {
        struct opts vo = variant_opts(o, v);
        struct gs_gpu *g;
        char err[1024];
        if (gs_init(&g, vo.config, vo.sets, vo.nsets, err, sizeof err)) {
            fprintf(stderr, "gpusim report: variant %s: %s\n", vars[v].name, err);
            return -1;
        }
        gs_destroy(g);
    }
    return 0;
}

int cmd_report(const struct opts *o)
{
    struct rep r = {.o = o};
    size_t bytes;
    int rc = 0;
    if (!o->name || strcmp(o->name, "vtw")) {
        fprintf(stderr, "gpusim report: which report? (vtw)\n");
        return 2;
    }
    r.all = bench_all(&r.n);
    if (r.n > sizeof r.set / sizeof r.set[0]) {
        fprintf(stderr, "gpusim report: more than %zu kernels\n", sizeof r.set / sizeof r.set[0]);
        return 2;
    }
    for (unsigned k = 0; k < r.n; k++)
        r.set[k] = kernel_set(r.all[k]->name);
    if (check_variants(o))
        return 2;
    bytes = (size_t)r.n * V_COUNT * sizeof *r.rs;
    r.rs = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r.rs == MAP_FAILED) {
        perror("gpusim report: mmap");
        return 2;
    }
    if (run_all(&r)) {
        munmap(r.rs, bytes);
        return 2;
    }
    for (unsigned j = 0; j < r.n * V_COUNT; j++)
        r.bad += r.rs[j].rc != 0;
    if (write_md(&r, o->markdown ? o->markdown : "docs/vtw.md") ||
        write_csv(&r, o->csv ? o->csv : "docs/vtw.csv"))
        rc = 2;
    printf("%u runs, %u correct, %u failed\n", r.n * V_COUNT, r.n * V_COUNT - r.bad, r.bad);
    munmap(r.rs, bytes);
    return rc ? rc : r.bad ? 1 : 0;
}
