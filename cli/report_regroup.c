/*
 * report_regroup.c -- gpusim report regroup: the evaluation of 001_8bf4399a5d1562fa.txt
 * Section VII (Table V and Fig. 9 forms) on the bench suite and the regrouping workloads
 * outside it (bench_extra: bench/rgwork), written to docs/regroup.md (above the kept notes),
 * a CSV and an SVG chart.
 *
 * Per kernel, all in the timing model: (1) a profiling run collects every launch's BBVs
 * (gs_bbv) and cycles; (2) the same kernel under reference redirection with the identity
 * order (gs_redirect), which gives the redirection's own cost (the extra load) and says
 * whether the kernel can be redirected at all (shared memory, barriers and warp-level
 * operations are refused); (3) per algorithm (Sorting, Greedy, Greedy-Max at group size 32,
 * the paper's setting) the launches' orders from their BBVs (rg_regroup), the BBV-weighted and
 * BBV-weighted-scheduled estimates of the order against the original (bbv_estimate), and a
 * run with the order applied by each method the kernel allows (Section VI-B): reference
 * redirection, and the data-layout transformation for kernels whose host part applies one
 * (BENCH_LAYOUT: the host gathers inputs into slot order and scatters outputs back). Every
 * run's results are checked against the kernel's C reference. The paper's application counts
 * the transformation's overhead in the measured run; so do the speed-ups here (original
 * cycles over regrouped; the data layout's gather and scatter are host work, outside the
 * cycles). A kernel where an estimate and the simulation disagree in direction is flagged
 * with the reason the statistics give.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gpu/bbv.h"
#include "gpu/bbv_est.h"
#include "gpu/regroup.h"
#include "mech.h"
#include "report.h"
#include "svg.h"

#define NOTES_MARK "<!-- notes below: kept by make report-regroup -->"
#define MAXL 64                         /* launches per kernel the report follows */
#define GROUP 32                        /* 001 Section VII-B: K set to a warp's 32 */

/* 001 Table V's average errors and Fig. 9's average speed-ups. */
static const double p_err_w = 12.7, p_err_s = 6.2;
static const double p_speedup[RG_NALGS] = {1.7, 1.6, 2.2};

/* The kernels 001 would have chosen (Section VII-A: applications that "exhibit control flow
   divergence", their bottleneck "compute-bound" by the profiler; Table V and Fig. 9's
   averages are over those): control-divergent when the profile's BBVs differ within at least
   DIV_WARPS of the warps (001 Table IV's divergent-warp ratio: SL 36 of 560 warps, 6.4 %,
   the lowest of its applications), memory-bound when the baseline's DRAM bus is busy more
   than MEM_BUS of its cycles (the rule the disagreement list has always used). */
#define DIV_WARPS 0.05
#define MEM_BUS 0.30

enum { M_REDIR, M_LAYOUT, NMETH };    /* 001 Section VI-B's two ways to apply an order */
static const char *const meth_name[NMETH] = {"redirection", "data layout"};

struct krun {                           /* one kernel's results */
    int redirected;                     /* the identity run was accepted */
    int layout;                         /* the host part applies a data layout (BENCH_LAYOUT) */
    int bad;                            /* a run failed or computed wrong results */
    char why[1200];
    unsigned nl;
    double div_warps;                   /* warps whose threads' BBVs differ, of all warps */
    struct gs_stats base, ident, alg[NMETH][RG_NALGS];
    double est_w[RG_NALGS + 1], est_s[RG_NALGS + 1];   /* [0]: the original order */
};

struct launches {
    unsigned n;
    struct bbv b[MAXL];
    uint64_t len[MAXL];
    uint32_t *perm[MAXL];
};

/* ------------------------------------------------------------------ runs */

struct hooks { FILE *bbv; const struct launches *rg; const struct bench_layout *lay; };

static int redirect(struct gs_gpu *g, const void *arg)
{
    const struct launches *l = arg;
    return gs_redirect(g, (const uint32_t *const *)l->perm, l->len, l->n);
}

/* Run kernel k with the hooks (run_one); its statistics into st; 0 correct, else 1/2 with
   msg. */
static int run_k(const struct opts *o, const struct bench *k, const struct hooks *h,
                 struct gs_stats *st, char *msg, size_t msglen)
{
    struct opts x = *o;
    struct result *r = malloc(sizeof *r);
    int rc;
    if (!r) {
        snprintf(msg, msglen, "out of memory");
        return 2;
    }
    x.bbv_out = h->bbv;
    x.bbv_csv = 0;
    x.setup = h->rg ? redirect : NULL;
    x.setup_arg = h->rg;
    x.layout = h->lay;
    run_one(&x, k, r);
    *st = r->st;
    snprintf(msg, msglen, "%s", result_msg(r));
    rc = r->rc;
    result_free(r);
    free(r);
    return rc;
}

/* The profiling run: BBVs of every launch into l (at most MAXL). */
static int profile(const struct opts *o, const struct bench *k, struct launches *l,
                   struct gs_stats *st, char *msg, size_t msglen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct hooks h = {f, NULL, NULL};
    int rc = f ? run_k(o, k, &h, st, msg, msglen) : 2;
    if (f)
        fclose(f);
    f = rc ? NULL : fmemopen(buf, len, "rb");
    if (f && !bbv_read_magic(f, msg, msglen))
        while (l->n < MAXL && bbv_read(f, &l->b[l->n], msg, msglen) == 1) {
            l->len[l->n] = l->b[l->n].nthreads;
            l->perm[l->n] = malloc(l->len[l->n] * sizeof(uint32_t) + 1);
            l->n++;
        }
    if (f)
        fclose(f);
    free(buf);
    return rc;
}

static void free_launches(struct launches *l)
{
    for (unsigned i = 0; i < l->n; i++) {
        bbv_free(&l->b[i]);
        free(l->perm[i]);
    }
}

/* Orders of algorithm a (a == RG_NALGS: the identity) for every launch, and their estimates
   summed over the launches. */
static int orders(const struct gpu_config *c, struct launches *l, int a, double *w, double *s,
                  char *err, size_t errlen)
{
    *w = *s = 0;
    for (unsigned i = 0; i < l->n; i++) {
        struct bbv_est e;
        double *lat = malloc((l->b[i].nblocks + 1) * sizeof *lat);
        if (!lat || !l->perm[i])
            return -1;
        bbv_block_latency(c, &l->b[i], lat);
        if (a == RG_NALGS)
            for (uint64_t t = 0; t < l->len[i]; t++)
                l->perm[i][t] = (uint32_t)t;
        else if (rg_regroup((enum rg_alg)a, &l->b[i], lat, GROUP, l->perm[i], err, errlen)) {
            free(lat);
            return -1;
        }
        free(lat);
        if (bbv_estimate(c, &l->b[i], a == RG_NALGS ? NULL : l->perm[i], &e))
            return -1;
        *w += e.weighted;
        *s += e.scheduled;
    }
    return 0;
}

/* Thread t's BBV is thread u's in launch b. */
static int same_bbv(const struct bbv *b, uint64_t t, uint64_t u)
{
    return !memcmp(&b->count[t * b->nblocks], &b->count[u * b->nblocks],
                   b->nblocks * sizeof *b->count);
}

/* The share of the launches' warps (32 threads of a CTA) whose threads' BBVs differ. */
static double divergent_warps(const struct launches *l)
{
    uint64_t warps = 0, div = 0;
    for (unsigned i = 0; i < l->n; i++) {
        const struct bbv *b = &l->b[i];
        uint64_t tpc = b->tpc ? b->tpc : b->nthreads;
        for (uint64_t t0 = 0; tpc && t0 < b->nthreads; t0 += tpc)      /* a CTA */
            for (uint64_t w = 0; w < tpc; w += 32) {
                uint64_t end = w + 32 < tpc ? w + 32 : tpc, t = w + 1;
                while (t < end && same_bbv(b, t0 + w, t0 + t))
                    t++;
                div += t < end;
                warps++;
            }
    }
    return warps ? (double)div / (double)warps : 0.0;
}

/* The identity-order redirected run: r->redirected, or the refusal in r->why. */
static void identity(const struct opts *o, const struct bench *k, const struct hooks *h,
                     struct krun *r)
{
    char msg[1100];
    if (run_k(o, k, h, &r->ident, msg, sizeof msg)) {
        const char *m = strstr(msg, "redirect ");
        const char *end = m ? strstr(m, " | ") : NULL;
        r->bad = !m;
        snprintf(r->why, sizeof r->why, "%.*s", end ? (int)(end - m - 9) : 1000, m ? m + 9 : msg);
        return;
    }
    r->redirected = 1;
}

/* Everything for kernel k: profile, identity, then per algorithm its orders, estimates and
   a run per application method the kernel allows. */
static void run_kernel(const struct opts *o, const struct gpu_config *c, const struct bench *k,
                       struct krun *r)
{
    struct launches *l = calloc(1, sizeof *l);
    struct bench_layout lay;
    struct hooks hr = {NULL, l, NULL}, hl = {NULL, NULL, &lay};
    char msg[1100];
    memset(r, 0, sizeof *r);
    r->layout = (k->flags & BENCH_LAYOUT) != 0;
    if (!l || profile(o, k, l, &r->base, msg, sizeof msg) ||
        orders(c, l, RG_NALGS, &r->est_w[0], &r->est_s[0], msg, sizeof msg)) {
        r->bad = 1;
        snprintf(r->why, sizeof r->why, "profiling run: %s", l ? msg : "out of memory");
        goto out;
    }
    r->nl = l->n;
    r->div_warps = divergent_warps(l);
    lay = (struct bench_layout){l->n, (const uint32_t *const *)l->perm, l->len};
    identity(o, k, &hr, r);
    for (int a = 0; a < RG_NALGS && !r->bad && (r->redirected || r->layout); a++) {
        const char *m = "";
        if (orders(c, l, a, &r->est_w[a + 1], &r->est_s[a + 1], msg, sizeof msg) ||
            (r->redirected && run_k(o, k, &hr, &r->alg[M_REDIR][a], msg, sizeof msg) &&
             (m = "redirection: ")) ||
            (r->layout && run_k(o, k, &hl, &r->alg[M_LAYOUT][a], msg, sizeof msg) &&
             (m = "data layout: "))) {
            r->bad = 1;
            snprintf(r->why, sizeof r->why, "%s: %s%s", rg_name((enum rg_alg)a), m, msg);
        }
    }
out:
    if (l)
        free_launches(l);
    free(l);
    printf("%-14s %s%s%s\n", k->name, r->bad ? "FAILED: " : r->redirected || r->layout ?
           "regrouped" : "not redirected: ", !r->bad && !r->redirected && r->layout ?
           " (data layout only): " : "", r->bad || !r->redirected ? r->why : "");
    fflush(stdout);
}

/* Was order a applied by method m (and so has a measured run)? */
static int applied(const struct krun *r, int m)
{
    return !r->bad && (m == M_REDIR ? r->redirected : r->layout);
}

/* ------------------------------------------------------------------ figures */

static double sim_speedup(const struct krun *r, int m, int a)
{
    return r->alg[m][a].cycles ? (double)r->base.cycles / (double)r->alg[m][a].cycles : 0;
}

static double est_speedup(const struct krun *r, int a, int sched)
{
    const double *e = sched ? r->est_s : r->est_w;
    return e[a + 1] > 0 ? e[0] / e[a + 1] : 0;
}

static double err_pct(double est, double sim)
{
    return sim > 0 ? 100.0 * fabs(est - sim) / sim : 0;
}

static int dir(double x)
{
    return x > 1.005 ? 1 : x < 0.995 ? -1 : 0;
}

static double acc_per_mem(const struct gs_stats *s)
{
    return s->mem_insns ? (double)(s->t.l1_hits + s->t.l1_misses) / (double)s->mem_insns : 0;
}

/* The share of the run's cycles its DRAM data bus was busy (over the channels). */
static double bus_busy(const struct gs_stats *s)
{
    return s->cycles && s->t.dram_channels ? (double)s->t.dram_busy_cycles /
           (double)(s->cycles * s->t.dram_channels) : 0;
}

/* Would 001 have chosen kernel r: control-divergent and compute-bound? */
static int chosen(const struct krun *r)
{
    return !r->bad && r->div_warps >= DIV_WARPS && bus_busy(&r->base) <= MEM_BUS;
}

/* Why the simulation and an estimate disagree, from the statistics. */
static void reason(FILE *f, const struct krun *r, int m, int a)
{
    double b = acc_per_mem(&r->base), x = acc_per_mem(&r->alg[m][a]);
    double bus = bus_busy(&r->base);
    int any = 0;
    if (x >= 1.2 * b && b > 0) {
        fprintf(f, "coalescing lost: L1 accesses per memory instruction %.2f -> %.2f", b, x);
        any = 1;
    }
    if (bus > MEM_BUS) {
        fprintf(f, "%smemory-bound: DRAM bus busy %.0f %% of the baseline's cycles",
                any ? "; " : "", 100 * bus);
        any = 1;
    }
    if (m == M_REDIR && r->ident.cycles > r->base.cycles * 1.05) {
        fprintf(f, "%sthe redirection alone costs %.0f %% (identity order)", any ? "; " : "",
                100.0 * ((double)r->ident.cycles / (double)r->base.cycles - 1));
        any = 1;
    }
    if (!any)
        fprintf(f, "none of the rules (see the CSV)");
}

/* path's name without folder and ".md", + "-fig9.svg" (base: the name alone). */
static void fig_name(const char *md, int base, char *buf, size_t n)
{
    const char *sl = strrchr(md, '/');
    size_t len;
    if (base && sl)
        md = sl + 1;
    len = strlen(md);
    if (len >= 3 && !strcmp(md + len - 3, ".md"))
        len -= 3;
    snprintf(buf, n, "%.*s-fig9.svg", (int)len, md);
}

/* ------------------------------------------------------------------ the document */

struct rg_rep {
    const struct opts *o;
    const struct bench *const *all;
    unsigned n;
    struct krun *r;
};

static void header(FILE *f, const struct rg_rep *p)
{
    unsigned nr = 0, nl = 0, bad = 0, ns = 0, nsuite, nx;
    const struct bench *const *ex = bench_extra(&nx);
    bench_all(&nsuite);
    for (unsigned k = 0; k < p->n; k++) {
        unsigned x;
        nr += applied(&p->r[k], M_REDIR);
        nl += applied(&p->r[k], M_LAYOUT);
        bad += p->r[k].bad;
        for (x = 0; x < nx && ex[x] != p->all[k]; x++)
            ;
        ns += x == nx;                   /* a suite kernel, not a regrouping workload */
    }
    fprintf(f, "# Thread regrouping and the BBV estimates (001)\n\nGenerated by `make "
            "report-regroup` (`build/gpusim report regroup --size %s%s%s%s%s`): the evaluation "
            "of 001_8bf4399a5d1562fa.txt Section VII (Table V and Fig. 9 forms) on %u of the %u "
            "bench kernels of docs/bench.md and %u of the %u regrouping workloads of "
            "bench/rgwork (outside the suite: per-thread work under four distributions), in the "
            "timing model. %u kernels were regrouped by reference redirection, %u by data "
            "layout; %u failed%s.\n\n", p->o->size == BENCH_TEST ? "test" : "default",
            p->o->config ? " --config " : "", p->o->config ? p->o->config : "",
            p->o->kernels ? " --kernels " : "", p->o->kernels ? p->o->kernels : "", ns, nsuite,
            p->n - ns, nx, nr, nl, bad, bad ? " (listed below)" : "; every run's results were "
            "checked against its C reference");
    fprintf(f, "Per kernel: a profiling run gives each launch's per-thread BBVs (docs/bbv.md); "
            "Sorting, Greedy and Greedy-Max (group size %u, the paper's K) order each launch's "
            "threads from them; the estimates (BBV-weighted, equations 2-5, and "
            "BBV-weighted-scheduled) score each order against the original; the kernel then "
            "runs with the order applied, in each way that applies to it (Section VI-B): "
            "**reference redirection** (thread slot p runs as logical thread D[p], the extra "
            "load included: docs/ptx.md; refused for shared memory, barriers and warp-level "
            "operations) and the **data-layout transformation** (the host moves logical thread "
            "D[p]'s data to position p and the outputs back; the kernel is unchanged -- only "
            "for kernels whose host can move every thread's data to its slot: bench/rgwork, "
            "and soundloc and smithwat, 001's SL and SW, whose hosts copy each frame's window "
            "or each pair's query to its slot: docs/regroup.md). "
            "Speed-up = the original run's cycles over the regrouped run's. Error (Table V "
            "form) = |estimated speed-up - simulated speed-up| / simulated speed-up.\n\n",
            GROUP);
}

/* Which kernels 001 would have chosen, and why the others not. */
static void choice(FILE *f, const struct rg_rep *p)
{
    fprintf(f, "## The kernels 001 would have chosen\n\n001 evaluates its estimates (Table V) "
            "and its speed-ups (Fig. 9) on applications that exhibit control-flow divergence "
            "and are compute-bound (Section VII-A, Table I; its memory-bound EC and MUM are "
            "shown apart, Section VII-D). Here: *control-divergent* when the profile's BBVs "
            "differ within at least %.0f %% of the warps (001 Table IV's divergent-warp ratio; "
            "its lowest, SL, 6.4 %%), *compute-bound* when the baseline's DRAM bus is busy at "
            "most %.0f %% of its cycles. Table V's and Fig. 9's means below are over the "
            "chosen kernels; the others are listed apart, with their own means.\n\n"
            "| kernel | divergent warps %% | DRAM bus busy %% | chosen |\n|---|---:|---:|---|\n",
            100 * DIV_WARPS, 100 * MEM_BUS);
    for (unsigned k = 0; k < p->n; k++) {
        const struct krun *r = &p->r[k];
        if (r->bad)
            continue;
        fprintf(f, "| %s | %.1f | %.1f | %s |\n", p->all[k]->name, 100 * r->div_warps,
                100 * bus_busy(&r->base), chosen(r) ? "yes" : r->div_warps < DIV_WARPS ?
                (bus_busy(&r->base) > MEM_BUS ? "no: convergent, memory-bound" :
                 "no: convergent") : "no: memory-bound");
    }
    fprintf(f, "\n");
}

/* Table V's rows of the kernels in group g (1: chosen, 0: the others), their error sums by
   method into ew, es and their count into n. */
static void table_v_rows(FILE *f, const struct rg_rep *p, int g, double *ew, double *es,
                         unsigned *n)
{
    for (unsigned k = 0; k < p->n; k++) {
        const struct krun *r = &p->r[k];
        int first = 1;
        if (chosen(r) != g)
            continue;
        for (int a = 0; a < RG_NALGS; a++)
            for (int m = 0; m < NMETH; m++) {
                double w = est_speedup(r, a, 0), s = est_speedup(r, a, 1);
                double x = sim_speedup(r, m, a);
                if (!applied(r, m))
                    continue;
                fprintf(f, "| %s | %u | %s | %s | %.3f | %.3f | %.3f | %.1f | %.1f | ",
                        first ? p->all[k]->name : "", r->nl, rg_name((enum rg_alg)a),
                        meth_name[m], w, s, x, err_pct(w, x), err_pct(s, x));
                if (m == M_REDIR)
                    fprintf(f, "%.3f |\n", (double)r->base.cycles / (double)r->ident.cycles);
                else
                    fprintf(f, "|\n");
                first = 0;
                ew[m] += err_pct(w, x);
                es[m] += err_pct(s, x);
                n[m]++;
            }
    }
}

/* The average-error rows of a group. */
static void table_v_means(FILE *f, const char *what, const double *ew, const double *es,
                          const unsigned *n)
{
    for (int m = 0; m < NMETH; m++)
        fprintf(f, "| **average error, %s**%s (%u) | | | | | | | **%.1f** | **%.1f** | |\n",
                meth_name[m], what, n[m], n[m] ? ew[m] / n[m] : 0, n[m] ? es[m] / n[m] : 0);
}

static void table_v(FILE *f, const struct rg_rep *p)
{
    double ew[2][NMETH] = {{0}}, es[2][NMETH] = {{0}};
    unsigned n[2][NMETH] = {{0}};
    fprintf(f, "## Estimates against the simulation (Table V form)\n\nThe kernels 001 would "
            "have chosen first, with the averages the paper's Table V gives; the others after "
            "them, with theirs.\n\n| kernel | launches | "
            "algorithm | applied by | BBV-weighted | BBV-w.-scheduled | simulated | error W %% "
            "| error S %% | identity order |\n|---|---:|---|---|---:|---:|---:|---:|---:|---:|\n");
    table_v_rows(f, p, 1, ew[1], es[1], n[1]);
    table_v_means(f, ", 001's kernels", ew[1], es[1], n[1]);
    fprintf(f, "| *paper (Table V, compute-bound)* | | | | | | | *%.1f* | *%.1f* | |\n",
            p_err_w, p_err_s);
    fprintf(f, "| *the other kernels* | | | | | | | | | |\n");
    table_v_rows(f, p, 0, ew[0], es[0], n[0]);
    table_v_means(f, ", other kernels", ew[0], es[0], n[0]);
    fprintf(f, "\n\"identity order\": the original cycles over a run redirected without "
            "reordering -- the redirection's own cost (its extra load) is in every "
            "redirected run too. The data layout's cost is on the host (a gather and a "
            "scatter), outside the simulated cycles. The means count a kernel once per "
            "algorithm (and method).\n\n");
}

/* Fig. 9's rows of the kernels in group g, their speed-up sums into sum and counts into n. */
static void fig9_rows(FILE *f, const struct rg_rep *p, int g, double sum[NMETH][RG_NALGS],
                      unsigned *n)
{
    for (unsigned k = 0; k < p->n; k++) {
        const struct krun *r = &p->r[k];
        if (chosen(r) != g || (!applied(r, M_REDIR) && !applied(r, M_LAYOUT)))
            continue;
        fprintf(f, "| %s |", p->all[k]->name);
        for (int m = 0; m < NMETH; m++) {
            for (int a = 0; a < RG_NALGS; a++) {
                if (applied(r, m))
                    fprintf(f, " %.3f |", sim_speedup(r, m, a));
                else
                    fprintf(f, " -- |");
                sum[m][a] += applied(r, m) ? sim_speedup(r, m, a) : 0;
            }
            n[m] += applied(r, m);
        }
        fprintf(f, "\n");
    }
}

static void fig9_mean(FILE *f, const char *what, double sum[NMETH][RG_NALGS], const unsigned *n)
{
    fprintf(f, "| **arithmetic mean**%s (%u / %u) |", what, n[M_REDIR], n[M_LAYOUT]);
    for (int m = 0; m < NMETH; m++)
        for (int a = 0; a < RG_NALGS; a++)
            fprintf(f, " **%.3f** |", n[m] ? sum[m][a] / n[m] : 0);
    fprintf(f, "\n");
}

static void fig9(FILE *f, const struct rg_rep *p)
{
    double sum[2][NMETH][RG_NALGS] = {{{0}}};
    unsigned n[2][NMETH] = {{0}};
    char fig[1024];
    fig_name(p->o->markdown ? p->o->markdown : "docs/regroup.md", 1, fig, sizeof fig);
    fprintf(f, "## Speed-up per algorithm and application method (Fig. 9 form)\n\n"
            "![Fig. 9 form](%s)\n\n| kernel |", fig);
    for (int m = 0; m < NMETH; m++)
        for (int a = 0; a < RG_NALGS; a++)
            fprintf(f, " %s, %s |", rg_name((enum rg_alg)a), meth_name[m]);
    fprintf(f, "\n|---|---:|---:|---:|---:|---:|---:|\n");
    fig9_rows(f, p, 1, sum[1], n[1]);
    fig9_mean(f, ", 001's kernels", sum[1], n[1]);
    fprintf(f, "| *paper (Fig. 9, average)* |");
    for (int m = 0; m < NMETH; m++)
        for (int a = 0; a < RG_NALGS; a++)
            fprintf(f, " *%.1f* |", p_speedup[a]);
    fprintf(f, "\n| *the other kernels* | | | | | | |\n");
    fig9_rows(f, p, 0, sum[0], n[0]);
    fig9_mean(f, ", other kernels", sum[0], n[0]);
    fprintf(f, "\nThe kernels 001 would have chosen first, then the others; each mean is over "
            "the kernels a method applies to (the counts: redirection / data layout). The "
            "paper's average is over its applications with either method.\n\n");
}

static void disagreements(FILE *f, const struct rg_rep *p)
{
    unsigned n = 0;
    fprintf(f, "## Where an estimate and the simulation disagree in direction\n\n");
    for (unsigned k = 0; k < p->n; k++) {
        const struct krun *r = &p->r[k];
        for (int m = 0; m < NMETH; m++)
            for (int a = 0; applied(r, m) && a < RG_NALGS; a++) {
                double x = sim_speedup(r, m, a), s = est_speedup(r, a, 1);
                if (dir(x) == dir(s))
                    continue;
                fprintf(f, "- %s, %s by %s: estimated %.3f, simulated %.3f -- ",
                        p->all[k]->name, rg_name((enum rg_alg)a), meth_name[m], s, x);
                reason(f, r, m, a);
                fprintf(f, "\n");
                n++;
            }
    }
    fprintf(f, "%s\nRules, in this order: L1 accesses per memory instruction up by 20 %% or more "
            "(regrouping broke coalescing); the baseline's DRAM bus busy more than 30 %% of "
            "the cycles (memory-bound: the estimates assume compute-bound kernels, Section "
            "VII-D); the identity order alone 5 %% slower (the extra load of redirection).\n\n",
            n ? "" : "- none\n");
}

/* The L1 miss rate in %, or "--" without L1 accesses, into buf. */
static const char *miss_pct(const struct gs_stats *s, char *buf, size_t n)
{
    uint64_t a = s->t.l1_hits + s->t.l1_misses;
    if (a)
        snprintf(buf, n, "%.1f", 100.0 * (double)s->t.l1_misses / (double)a);
    else
        snprintf(buf, n, "--");
    return buf;
}

/* What the redirection alone changes (the identity order): its cost, measured apart. */
static void ident_table(FILE *f, const struct rg_rep *p)
{
    fprintf(f, "## What reference redirection alone changes (identity order)\n\n| kernel | "
            "speed-up | warp insns | registers per thread | CTAs per SM | L1 miss rate %% |\n"
            "|---|---:|---:|---:|---:|---:|\n");
    for (unsigned k = 0; k < p->n; k++) {
        const struct krun *r = &p->r[k];
        char m0[16], m1[16];
        if (!applied(r, M_REDIR))
            continue;
        fprintf(f, "| %s | %.3f | %+.1f %% | %u -> %u | %u -> %u | %s -> %s |\n",
                p->all[k]->name, (double)r->base.cycles / (double)r->ident.cycles,
                100.0 * ((double)r->ident.warp_insns / (double)r->base.warp_insns - 1),
                r->base.regs_per_thread, r->ident.regs_per_thread, r->base.occupancy,
                r->ident.occupancy, miss_pct(&r->base, m0, sizeof m0),
                miss_pct(&r->ident, m1, sizeof m1));
    }
    fprintf(f, "\nThe redirected kernel carries the prologue (its extra load of the 4-byte "
            "D[p] and the split of the logical index into %%ctaid and %%tid, shifts where the "
            "block is a power of two: docs/ptx.md) and the registers ptxas gives its form "
            "(FILE.redir.res); where the registers lower the CTAs per SM, fewer CTAs also share "
            "the L1.\n\n");
}

static void refused(FILE *f, const struct rg_rep *p)
{
    fprintf(f, "## Kernels not redirected\n\n");
    for (unsigned k = 0; k < p->n; k++)
        if (!p->r[k].redirected || p->r[k].bad)
            fprintf(f, "- %s%s%s: %s\n", p->all[k]->name, p->r[k].bad ? " (FAILED)" : "",
                    !p->r[k].bad && p->r[k].layout ? " (by data layout only)" : "",
                    p->r[k].why);
    fprintf(f, "\n");
}

static void body(FILE *f, const struct rg_rep *p)
{
    header(f, p);
    choice(f, p);
    table_v(f, p);
    fig9(f, p);
    disagreements(f, p);
    ident_table(f, p);
    refused(f, p);
}

static int write_csv(const struct rg_rep *p, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "kernel,launches,algorithm,method,base_cycles,identity_cycles,cycles,"
            "est_weighted,est_scheduled,simulated,base_mem_insns,mem_insns,base_l1_accesses,"
            "l1_accesses\n");
    for (unsigned k = 0; k < p->n; k++) {
        const struct krun *r = &p->r[k];
        for (int m = 0; m < NMETH; m++)
            for (int a = 0; applied(r, m) && a < RG_NALGS; a++) {
                const struct gs_stats *x = &r->alg[m][a];
                fprintf(f, "%s,%u,%s,%s,%llu,%llu,%llu,%.6f,%.6f,%.6f,%llu,%llu,%llu,%llu\n",
                        p->all[k]->name, r->nl, rg_name((enum rg_alg)a), meth_name[m],
                        (unsigned long long)r->base.cycles,
                        (unsigned long long)r->ident.cycles, (unsigned long long)x->cycles,
                        est_speedup(r, a, 0), est_speedup(r, a, 1), sim_speedup(r, m, a),
                        (unsigned long long)r->base.mem_insns,
                        (unsigned long long)x->mem_insns,
                        (unsigned long long)(r->base.t.l1_hits + r->base.t.l1_misses),
                        (unsigned long long)(x->t.l1_hits + x->t.l1_misses));
            }
    }
    return fclose(f);
}

/* Series: each algorithm by each method; a kernel a method does not apply to shows 0. */
static int chart(const struct rg_rep *p, const char *path)
{
    enum { NS = NMETH * RG_NALGS };
    static char names[NS][48];
    const char *series[NS];
    const char *groups[REP_MAX_KERNELS + 1];
    double v[(REP_MAX_KERNELS + 1) * NS];
    unsigned n = 0;
    struct svg_bars b = {"Fig. 9 form: simulated speed-up of each regrouping", "speed-up", 0,
                         NS, groups, series, v, 1.0};
    for (int i = 0; i < NS; i++) {
        snprintf(names[i], sizeof names[i], "%s, %s", rg_name((enum rg_alg)(i % RG_NALGS)),
                 i < RG_NALGS ? "redir." : "layout");
        series[i] = names[i];
    }
    for (unsigned k = 0; k < p->n && n < REP_MAX_KERNELS; k++) {
        const struct krun *r = &p->r[k];
        if (!applied(r, M_REDIR) && !applied(r, M_LAYOUT))
            continue;
        groups[n] = p->all[k]->name;
        for (int i = 0; i < NS; i++)
            v[n * NS + i] = applied(r, i / RG_NALGS) ?
                            sim_speedup(r, i / RG_NALGS, i % RG_NALGS) : 0;
        n++;
    }
    b.ngroups = n;
    return svg_bars_write(path, &b);
}

static void body_doc(FILE *f, const void *p)
{
    body(f, p);
}

/* The kernels: --kernels' (the suite's and bench_extra's may be named), else the suite's and
   then bench_extra's; p->all and p->r allocated. -1 with a message. */
static int select_all(const struct opts *o, struct rg_rep *p)
{
    unsigned ns, nx;
    const struct bench *const *su = bench_all(&ns), *const *ex = bench_extra(&nx);
    const struct bench **all = NULL;
    char err[256];
    if (o->kernels) {
        if (kernels_select(o->kernels, 1, &all, &ns, err, sizeof err)) {
            fprintf(stderr, "gpusim report regroup: %s\n", err);
            return -1;
        }
        nx = 0;
    } else if ((all = calloc(ns + nx + 1, sizeof *all)) != NULL) {
        memcpy(all, su, ns * sizeof *all);
        memcpy(all + ns, ex, nx * sizeof *all);
    }
    p->r = calloc(ns + nx + 1, sizeof *p->r);
    if (!all || !p->r) {
        free(all);
        free(p->r);
        return -1;
    }
    p->all = all;
    p->n = ns + nx;
    return 0;
}

int report_regroup(const struct opts *o)
{
    struct rg_rep p = {o, NULL, 0, NULL};
    const char *md = o->markdown ? o->markdown : "docs/regroup.md";
    const char *csv = o->csv ? o->csv : "docs/regroup.csv";
    struct gs_gpu *g;
    struct gpu_config c;
    char err[1024], fig[1024];
    unsigned bad = 0;
    int rc = 0;
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err)) {
        fprintf(stderr, "gpusim report: %s\n", err);
        return 2;
    }
    c = *gs_config(g);
    gs_destroy(g);
    if (c.model != MODEL_TIMING || c.vtw != VTW_OFF) {
        fprintf(stderr, "gpusim report regroup: needs model = timing and vtw = off (the "
                "regrouped runs are measured in cycles, under reference redirection)\n");
        return 2;
    }
    if (select_all(o, &p))
        return 2;
    for (unsigned k = 0; k < p.n; k++) {
        run_kernel(o, &c, p.all[k], &p.r[k]);
        bad += p.r[k].bad;
    }
    fig_name(md, 0, fig, sizeof fig);
    if (rep_write_doc(md, NOTES_MARK, body_doc, &p) || write_csv(&p, csv) || chart(&p, fig))
        rc = 2;
    printf("%u kernels, %u failed\n", p.n, bad);
    free(p.r);
    free((void *)p.all);
    return rc ? rc : bad ? 1 : 0;
}

/* ------------------------------------------------------------------ one run (mech.h) */

static void rg_fail(struct result *r, int rc, const char *what, const char *msg)
{
    char buf[1300];
    snprintf(buf, sizeof buf, "%s%s", what, msg);
    memset(r, 0, sizeof *r);
    r->rc = rc;
    r->msg = strdup(buf);
}

void regroup_run(const struct opts *o, const struct bench *b, int a, struct result *r)
{
    struct launches *l = calloc(1, sizeof *l);
    struct gs_stats st;
    struct gs_gpu *g;
    struct gpu_config c;
    struct opts x = *o;
    char msg[1100];
    double w, s;
    if (!l || gs_init(&g, o->config, o->sets, o->nsets, msg, sizeof msg)) {
        rg_fail(r, 2, "", l ? msg : "out of memory");
        free(l);
        return;
    }
    c = *gs_config(g);
    gs_destroy(g);
    if (c.model != MODEL_TIMING || c.vtw != VTW_OFF)
        rg_fail(r, MECH_NA, "", "a regrouping needs model = timing and vtw = off");
    else if (profile(o, b, l, &st, msg, sizeof msg))
        rg_fail(r, 2, "profiling run: ", msg);
    else if (orders(&c, l, a, &w, &s, msg, sizeof msg))
        rg_fail(r, 2, "regrouping: ", msg);
    else {
        x.setup = redirect;
        x.setup_arg = l;
        run_one(&x, b, r);
        if (r->rc && r->msg && strstr(r->msg, "redirect ")) {
            snprintf(msg, sizeof msg, "%s", r->msg);
            result_free(r);
            rg_fail(r, MECH_NA, "not redirected: ", strstr(msg, "redirect ") + 9);
        }
    }
    free_launches(l);
    free(l);
}
