/*
 * report_page.c -- gpusim report page: the architect's one page (issue 16). Bench kernels x
 * mechanisms (mech.h: the baseline schedulers, VTW and its lane policies, VT and MAX, the DWS
 * variants, the three regroupings), every result checked, each mechanism's speed-up over the
 * configuration as given ("base") next to what it costs in storage and area (the cost
 * estimator, cost/estimate.h: the SM's blocks under the mechanism's configuration minus the
 * baseline's).
 *
 * Written to --out DIR (default gpusim-report): page.md (Markdown), page.csv (a row per
 * kernel and mechanism), page-*.svg (plots drawn by gnuplot from the data files and scripts
 * in DIR/plots, which stay there for restyling) and page.html, one self-contained file with
 * the same tables and the plots inline. DIR is made and checked writable before any run (a
 * mistyped --out fails at once, not after hours of runs); a page that could not be written is
 * an error (exit 2), never announced. The summary table is also printed. Nothing on the
 * page depends on the host (no host times, no dates), so the same runs give the same bytes.
 *
 * Speed-up: the base run's cycles over the mechanism's, per kernel (every launch of it);
 * means are geometric, over the kernels the mechanism applies to, overall and per divergence
 * category (the bench categories of docs/bench.md that 000 Table 1 names; a kernel in two
 * counts in the first). Storage: bytes per SM the mechanism's configuration adds to the
 * baseline's (negative if it removes some); area: the same in % of a GF100 SM at 40 nm
 * (docs/cost-model.md). A regrouping is software: no storage on chip; its cost is in its
 * cycles (the extra load of reference redirection).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cost/estimate.h"
#include "app.h"
#include "cache.h"
#include "page.h"

/* ------------------------------------------------------------------ choosing */

static int add_mech(struct page *p, const struct mech *m)
{
    for (unsigned i = 0; i < p->nm; i++)
        if (p->m[i] == m)
            return 0;
    if (p->nm == MAXM)
        return -1;
    p->m[p->nm] = m;
    p->v[p->nm] = (struct rep_var){m->name, m->what, {NULL}, NULL, m->regroup};
    memcpy(p->v[p->nm].set, m->set, sizeof m->set);
    p->nm++;
    return 0;
}

/* base first, then --mechs (comma-separated) or every mechanism; --mechs help: the list
   printed and 1. */
static int choose_mechs(struct page *p, const char *list)
{
    unsigned n;
    const struct mech *all = mech_all(&n);
    if (list && !strcmp(list, "help")) {
        for (unsigned i = 0; i < n; i++)
            printf("%-15s %-10s %s\n", all[i].name, all[i].group, all[i].what);
        return 1;
    }
    add_mech(p, mech_find("base"));
    for (const char *s = list; list;) {
        char name[64];
        const struct mech *m;
        int rc = rep_list_next("gpusim report page: --mechs", list, &s, name, sizeof name);
        if (rc <= 0)
            return rc;
        if (!(m = mech_find(name))) {
            fprintf(stderr, "gpusim report page: --mechs: no mechanism '%s' (the mechanisms: "
                    "%s)\n", name, mech_names());
            return -1;
        }
        add_mech(p, m);
    }
    for (unsigned i = 0; !list && i < n; i++)
        add_mech(p, &all[i]);
    return 0;
}

static int category(const char *kernel)
{
    for (int c = 0; c < CAT_OTHER; c++)
        if (cat_has((enum cat)c, kernel))
            return c;
    return CAT_OTHER;
}

unsigned page_rows(const struct page *p)
{
    return rep_rows(&p->r);
}

const char *page_row_name(const struct page *p, unsigned k)
{
    return rep_row_name(&p->r, k);
}

/* A mechanism must not change what a program computes: an application run whose output
   (stdout, stderr, exit status; its ignored lines aside) is not base's is wrong. */
static void compare_outputs(struct page *p)
{
    for (unsigned k = p->r.n; k < page_rows(p); k++) {
        char b[CACHE_KEY_LEN], x[CACHE_KEY_LEN];
        if (page_res(p, k, 0)->rc)
            continue;
        app_out_digest(page_res(p, k, 0), b, sizeof b);
        for (unsigned m = 1; m < p->nm; m++) {
            struct result *r = rep_res(&p->r, k, m);
            app_out_digest(r, x, sizeof x);
            if (r->rc || !strcmp(b, x))
                continue;
            r->rc = 1;
            p->differ++;
            p->r.bad++;
            fprintf(stderr, "gpusim report page: %s under %s: its output is not base's (a "
                    "mechanism must not change what a program computes; compare with gpusim "
                    "exec --set ...)\n", page_row_name(p, k), p->m[m]->name);
        }
    }
}

/* --apps FILE: the applications (NULL when not given); -1 with a message. */
static int load_apps(struct page *p, const char *file)
{
    char err[1024];
    if (!file)
        return 0;
    if (!(p->apps = malloc(sizeof *p->apps)) || apps_load(file, p->apps, err, sizeof err)) {
        fprintf(stderr, "gpusim report page: --apps: %s\n", p->apps ? err : "out of memory");
        free(p->apps);
        p->apps = NULL;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ measures */

const struct result *page_res(const struct page *p, unsigned k, unsigned m)
{
    return rep_res(&p->r, k, m);
}

/* Kernel k's speed-up under mechanism m; 0 when either run is not a correct one. */
double page_speedup(const struct page *p, unsigned k, unsigned m)
{
    const struct result *b = page_res(p, k, 0), *x = page_res(p, k, m);
    return b->rc || x->rc ? 0 : rep_ratio(b->st.cycles, x->st.cycles);
}

static void means(struct page *p)
{
    double v[NCAT + 1][REP_MAX_KERNELS];
    for (unsigned m = 0; m < p->nm; m++) {
        unsigned n[NCAT + 1] = {0};
        for (unsigned k = 0; k < page_rows(p); k++) {
            int rc = page_res(p, k, m)->rc;
            double s = page_speedup(p, k, m);
            p->ok[m] += rc == 0;
            p->na[m] += rc == MECH_NA;
            p->bad[m] += rc != 0 && rc != MECH_NA;
            if (s > 0) {
                v[p->cat[k]][n[p->cat[k]]++] = s;
                v[NCAT][n[NCAT]++] = s;
            }
        }
        for (unsigned c = 0; c <= NCAT; c++)
            p->gm[m][c] = rep_gmean(v[c], n[c]);
    }
}

/* Storage bytes and area (% of an SM, 40 nm) of one SM's blocks under o's configuration
   plus sets; -1 with a message. */
static int sm_cost(const struct opts *o, const char *const *set, double *bytes, double *pct)
{
    struct est *e = calloc(1, sizeof *e);
    struct gpu_config c;
    const char *sets[MAX_SETS];
    int n = o->nsets, rc = -1;
    char err[512];
    memcpy(sets, o->sets, sizeof(char *) * (size_t)o->nsets);
    for (unsigned i = 0; set && i < MECH_MAX_SETS && set[i] && n < MAX_SETS; i++)
        sets[n++] = set[i];
    if (e && !est_load_config(&c, o->config, sets, n, err, sizeof err) &&
        !est_build(e, &c, err, sizeof err)) {
        struct est_sum s = est_sum(&e->sm, NULL, NULL);
        *bytes = (double)s.bits / 8;
        *pct = 100.0 * s.um2[EST_REF_NODE] / (est_sm_mm2(est_gf100()) * 1e6);
        rc = 0;
    } else
        fprintf(stderr, "gpusim report page: cost: %s\n", e ? err : "out of memory");
    free(e);
    return rc;
}

static int costs(struct page *p)
{
    double b0, a0;
    if (sm_cost(p->r.o, NULL, &b0, &a0))
        return -1;
    for (unsigned m = 0; m < p->nm; m++) {
        double b = b0, a = a0;
        if (!p->m[m]->regroup && sm_cost(p->r.o, p->m[m]->set, &b, &a))
            return -1;
        p->bytes[m] = b - b0;
        p->area[m] = a - a0;
    }
    return 0;
}

/* Scheduler cycles of outcome c (GS_STALL_KINDS: all) under m, over the kernels where m ran
   correctly. */
uint64_t page_sched(const struct page *p, unsigned m, unsigned c)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < page_rows(p); k++)
        if (page_speedup(p, k, m) > 0)
            for (unsigned i = 0; i < GS_STALL_KINDS; i++)
                t += (i == c || c == GS_STALL_KINDS) ? page_res(p, k, m)->st.t.sched_cycles[i] : 0;
    return t;
}

/* The baseline's scheduler cycles over the same kernels as m's. */
uint64_t page_sched_base(const struct page *p, unsigned m)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < page_rows(p); k++)
        if (page_speedup(p, k, m) > 0)
            for (unsigned i = 0; i < GS_STALL_KINDS; i++)
                t += page_res(p, k, 0)->st.t.sched_cycles[i];
    return t;
}

void page_totals(const struct page *p, unsigned m, uint64_t *cyc, uint64_t *wi)
{
    *cyc = *wi = 0;
    for (unsigned k = 0; k < page_rows(p); k++)
        if (page_res(p, k, m)->rc == 0) {
            *cyc += page_res(p, k, m)->st.cycles;
            *wi += page_res(p, k, m)->st.warp_insns;
        }
}


const char *const page_cat_names[NCAT] = {"inst+cycle div.", "cycle div.", "inst div.",
                                          "no div.", "other", "applications"};

/* ------------------------------------------------------------------ the report */

/* The page needs cycles: the timing model. */
static int timing_config(const struct opts *o)
{
    struct gs_gpu *g;
    char err[1024];
    int timing;
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err)) {
        fprintf(stderr, "gpusim report page: %s\n", err);
        return -1;
    }
    timing = gs_config(g)->model == MODEL_TIMING;
    gs_destroy(g);
    if (!timing)
        fprintf(stderr, "gpusim report page: needs model = timing (speed-ups are in cycles)\n");
    return timing ? 0 : -1;
}

int report_page(const struct opts *opt)
{
    struct page *p = calloc(1, sizeof *p);
    struct opts po = *opt, *o = &po;
    char cdir[1024];
    int rc = 2;
    if (!p)
        return 2;
    if (!o->cache)
        o->cache = cache_default(cdir, sizeof cdir);
    else if (!strcmp(o->cache, "none"))
        o->cache = NULL;
    p->dir = o->out ? o->out : "gpusim-report";
    if ((rc = choose_mechs(p, o->mechs)) || timing_config(o) || load_apps(p, o->apps) ||
        rep_open_apps(&p->r, o, p->v, p->nm, p->apps ? p->apps->a : NULL,
                      p->apps ? p->apps->n : 0)) {
        if (p->apps)
            apps_free(p->apps);
        free(p->apps);
        free(p);
        return rc == 1 ? 0 : 2;
    }
    rc = 2;
    for (unsigned k = 0; k < page_rows(p); k++)
        p->cat[k] = k < p->r.n ? category(p->r.all[k]->name) : CAT_APPS;
    if (!page_out_ready(p->dir) && !costs(p) && !rep_run(&p->r, NULL)) {
        int written;
        compare_outputs(p);
        means(p);
        written = !page_write(p);
        page_print_summary(p);
        printf("%u runs (%u from the cache %s), %u failed", p->r.runs, p->r.hits,
               o->cache ? o->cache : "(none)", p->r.bad);
        if (written)
            printf("; the page: %s/page.html (and page.md, page.csv)\n", p->dir);
        else {
            printf("\n");
            fprintf(stderr, "gpusim report page: the page was not written in %s (the reason "
                    "above)\n", p->dir);
        }
        rc = !written ? 2 : p->r.bad ? 1 : 0;
    }
    rep_close(&p->r);
    if (p->apps)
        apps_free(p->apps);
    free(p->apps);
    free(p);
    return rc;
}
