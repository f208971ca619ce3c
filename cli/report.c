/*
 * report.c -- what the suite reports share (report.h): gpusim report's dispatch, the runs of
 * a report's variants (--jobs N kernels at once in child processes; results land in shared
 * memory, so the report does not depend on the order they finish in), means, verdicts, and
 * the Markdown that keeps the hand-written notes below its marker and the CSV.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "app.h"
#include "mech.h"
#include "report.h"
#include "gpu/stats.h"

int cmd_report(const struct opts *o)
{
    if (o->name && !strcmp(o->name, "vtw"))
        return report_vtw(o);
    if (o->name && !strcmp(o->name, "vt"))
        return report_vt(o);
    if (o->name && !strcmp(o->name, "dws"))
        return report_dws(o);
    if (o->name && !strcmp(o->name, "regroup"))
        return report_regroup(o);
    if (!o->name || !strcmp(o->name, "page"))
        return report_page(o);
    fprintf(stderr, "gpusim report: which report? (page, dws, regroup, vt, vtw)\n");
    return 2;
}

/* ------------------------------------------------------------------ running */

/* The options of variant v: the command line's sets, then the variant's (which win); the
   variant's configuration file if it names one. */
static struct opts variant_opts(const struct rep *r, const struct opts *o, unsigned v)
{
    struct opts vo = *o;
    if (r->vars[v].config)
        vo.config = r->vars[v].config;
    for (unsigned i = 0; i < REP_MAX_SETS && r->vars[v].set[i] && vo.nsets < MAX_SETS; i++)
        vo.sets[vo.nsets++] = r->vars[v].set[i];
    return vo;
}

/* Every variant's configuration must load (see rep_open). */
static int check_variants(const struct rep *r)
{
    for (unsigned v = 0; v < r->nvars; v++) {
        struct opts vo = variant_opts(r, r->o, v);
        struct gs_gpu *g;
        char err[1024];
        if (gs_init(&g, vo.config, vo.sets, vo.nsets, err, sizeof err)) {
            fprintf(stderr, "gpusim report: variant %s: %s\n", r->vars[v].name, err);
            return -1;
        }
        gs_destroy(g);
    }
    return 0;
}

unsigned rep_rows(const struct rep *r)
{
    return r->n + r->napps;
}

const char *rep_row_name(const struct rep *r, unsigned k)
{
    return k < r->n ? r->all[k]->name : r->apps[k - r->n].name;
}

static size_t rs_bytes(const struct rep *r)
{
    return (size_t)rep_rows(r) * r->nvars * sizeof *r->rs;
}

int rep_list_next(const char *what, const char *list, const char **p, char *name, size_t n)
{
    char err[512];
    int rc = list_next(list, p, name, n, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", what, err);
    return rc;
}

/* --kernels a,b,c into r->sel (kernels_select); -1 with a message. */
static int select_kernels(struct rep *r, const char *list)
{
    char err[256];
    if (kernels_select(list, 0, &r->sel, &r->n, err, sizeof err)) {
        fprintf(stderr, "gpusim report: %s\n", err);
        return -1;
    }
    r->all = r->sel;
    return 0;
}

/* vars into r->vars, every MECH_SETS entry replaced by its mechanism's keys (mech_expand);
   -1 with a message. */
static int expand_variants(struct rep *r, const struct rep_var *vars)
{
    char err[1024];
    if (!(r->vars = calloc(r->nvars ? r->nvars : 1, sizeof *r->vars))) {
        perror("gpusim report: memory");
        return -1;
    }
    for (unsigned v = 0; v < r->nvars; v++) {
        r->vars[v] = vars[v];
        if (mech_expand(vars[v].set, REP_MAX_SETS, r->vars[v].set, REP_MAX_SETS, err,
                        sizeof err) < 0) {
            fprintf(stderr, "gpusim report: variant %s: %s\n", vars[v].name, err);
            return -1;
        }
    }
    return 0;
}

/* rep_open's failure: what it holds freed; the exit status 2. */
static int open_failed(struct rep *r)
{
    free(r->vars);
    free(r->sel);
    return 2;
}

int rep_open(struct rep *r, const struct opts *o, const struct rep_var *vars, unsigned nvars)
{
    return rep_open_apps(r, o, vars, nvars, NULL, 0);
}

int rep_open_apps(struct rep *r, const struct opts *o, const struct rep_var *vars,
                  unsigned nvars, const struct app *apps, unsigned napps)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    r->nvars = nvars;
    r->apps = apps;
    r->napps = napps;
    r->all = bench_all(&r->n);
    if (napps && !o->kernels)
        r->n = 0;
    if (o->kernels && select_kernels(r, o->kernels))
        return open_failed(r);
    if (rep_rows(r) > REP_MAX_KERNELS) {
        fprintf(stderr, "gpusim report: more than %d kernels and applications\n",
                REP_MAX_KERNELS);
        return open_failed(r);
    }
    if (expand_variants(r, vars) || check_variants(r))
        return open_failed(r);
    r->ran = calloc((size_t)rep_rows(r) * nvars, 1);
    r->rs = mmap(NULL, rs_bytes(r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r->rs == MAP_FAILED || !r->ran) {
        perror("gpusim report: memory");
        if (r->rs != MAP_FAILED)
            munmap(r->rs, rs_bytes(r));
        free(r->ran);
        return open_failed(r);
    }
    return 0;
}

void rep_close(struct rep *r)
{
    munmap(r->rs, rs_bytes(r));
    free(r->ran);
    free(r->vars);
    free(r->sel);
}

/* Why job j failed, on stderr. */
static void job_error(const struct rep *r, unsigned j, const char *msg)
{
    fprintf(stderr, "gpusim report: %s %s: %s\n", rep_row_name(r, j / r->nvars),
            r->vars[j % r->nvars].name, msg);
}

/* Job j (in a child process under --jobs > 1): its result into r->rs[j], shared memory; a
   failed run says why here, whole (a deadlock dump), and the message is freed, as a child's
   heap is not the report's. */
static void run_job(const struct rep *r, unsigned j)
{
    const struct rep_var *v = &r->vars[j % r->nvars];
    struct opts vo = variant_opts(r, r->o, j % r->nvars);
    struct mech m = {v->name, "", v->what, {NULL}, v->regroup};
    unsigned k = j / r->nvars;
    if (k < r->n)
        mech_run(&vo, &m, r->all[k], &r->rs[j]);
    else
        app_run(&vo, &m, &r->apps[k - r->n], &r->rs[j]);
    if (r->rs[j].rc)
        job_error(r, j, result_msg(&r->rs[j]));
    result_free(&r->rs[j]);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The progress line on a terminal's stderr: done/total, cached, and the time left at the
   rate of the runs made so far (cached ones take no time). */
static void progress(const struct rep *r)
{
    double el = now_s() - r->t0;
    unsigned made = r->done - r->hits, left = r->todo - r->done;
    if (!r->tty)
        return;
    fprintf(stderr, "\r\033[K[%u/%u runs, %u cached] %.0f s", r->done, r->todo, r->hits, el);
    if (made && left)
        fprintf(stderr, ", about %.0f s left", el / made * left);
    fflush(stderr);
}

static void job_done(struct rep *r, unsigned j)
{
    const struct result *x = &r->rs[j];
    if (r->tty)
        fprintf(stderr, "\r\033[K");
    printf("%-12s %-14s %-7s %12llu cycles %14llu warp insns%s\n", rep_row_name(r, j / r->nvars),
           r->vars[j % r->nvars].name, mech_result_word(x->rc), (unsigned long long)x->st.cycles,
           (unsigned long long)x->st.warp_insns, x->cached ? " (cached)" : "");
    fflush(stdout);
    r->done++;
    r->hits += x->cached != 0;
    progress(r);
}

/* Wait for one child; mark its job failed if it did not finish normally. */
static void reap(struct rep *r, pid_t *pids, unsigned njobs, unsigned *running)
{
    int status;
    pid_t p = wait(&status);
    for (unsigned j = 0; j < njobs; j++)
        if (pids[j] == p && p > 0) {
            if (!WIFEXITED(status) || WEXITSTATUS(status)) {
                char why[64];
                r->rs[j].rc = 2;
                snprintf(why, sizeof why, "the run's process ended abnormally (status %d)",
                         status);
                job_error(r, j, why);
            }
            pids[j] = 0;
            (*running)--;
            job_done(r, j);
        }
}

/* Start job j in a child process (or mark it failed). */
static void fork_job(struct rep *r, pid_t *pids, unsigned j, unsigned *running)
{
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
        job_error(r, j, "fork failed");
        return;
    }
    (*running)++;
}

int rep_run(struct rep *r, const unsigned char *want)
{
    unsigned njobs = rep_rows(r) * r->nvars, running = 0;
    pid_t *pids = calloc(njobs, sizeof *pids);
    if (!pids)
        return -1;
    r->done = r->hits = r->todo = 0;
    for (unsigned j = 0; j < njobs; j++)
        r->todo += !want || want[j];
    r->t0 = now_s();
    r->tty = isatty(STDERR_FILENO);
    for (unsigned j = 0; j < njobs; j++) {
        if (want && !want[j])
            continue;
        r->ran[j] = 1;
        if (r->o->jobs <= 1) {
            run_job(r, j);
            job_done(r, j);
            continue;
        }
        while (running >= (unsigned)r->o->jobs)
            reap(r, pids, njobs, &running);
        fork_job(r, pids, j, &running);
    }
    while (running)
        reap(r, pids, njobs, &running);
    if (r->tty)
        fprintf(stderr, "\r\033[K");
    free(pids);
    r->runs = r->bad = 0;
    for (unsigned j = 0; j < njobs; j++) {
        r->runs += r->ran[j];
        r->bad += r->ran[j] && r->rs[j].rc != 0 && r->rs[j].rc != MECH_NA;
    }
    return 0;
}

struct result *rep_res(const struct rep *r, unsigned k, unsigned v)
{
    return &r->rs[k * r->nvars + v];
}

int rep_ran(const struct rep *r, unsigned k, unsigned v)
{
    return r->ran[k * r->nvars + v];
}

/* ------------------------------------------------------------------ measures */

double rep_ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

double rep_amean(const double *x, unsigned n)
{
    double t = 0;
    unsigned c = 0;
    for (unsigned i = 0; i < n; i++)
        if (x[i] > 0) {
            t += x[i];
            c++;
        }
    return c ? t / c : 0.0;
}

double rep_gmean(const double *x, unsigned n)
{
    double l = 0;
    unsigned c = 0;
    for (unsigned i = 0; i < n; i++)
        if (x[i] > 0) {
            l += log(x[i]);
            c++;
        }
    return c ? exp(l / c) : 0.0;
}

uint64_t rep_stall_cycles(const struct gs_stats *s)
{
    uint64_t t = 0;
    for (unsigned k = 1; k < GS_STALL_KINDS; k++)     /* kind 0: issued */
        t += s->t.sched_cycles[k];
    return t;
}

double rep_stat(const struct gs_stats *s, const char *json)
{
    for (uint32_t k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        const char *p = (const char *)s + d->off;
        if (!d->json || strcmp(d->json, json))
            continue;
        if (d->out == GSO_DERIVED)
            return d->value(s);
        if (d->n != 1)
            return 0;
        return d->type == GST_u64 ? (double)*(const uint64_t *)p :
               d->type == GST_u32 ? (double)*(const uint32_t *)p : *(const double *)p;
    }
    return 0;
}

int rep_direction(double x)
{
    return x > 1.005 ? 1 : x < 0.995 ? -1 : 0;
}

const char *rep_verdict(double ours, double paper)
{
    int a = rep_direction(ours), b = rep_direction(paper);
    return a == b ? "same direction" : a == 0 ? "**no effect here**" : "**opposite direction**";
}

/* ------------------------------------------------------------------ the documents */

const char *rep_mark(const struct result *x)
{
    return x->rc == 0 ? "" : x->rc == 1 ? " WRONG" : " ERROR";
}

void rep_fig_path(const struct rep *r, const char *md_default, const char *fig, int base,
                  char *buf, size_t n)
{
    const char *md = r->o->markdown ? r->o->markdown : md_default, *sl = strrchr(md, '/');
    size_t len = strlen(md);
    if (base && sl)
        md = sl + 1, len = strlen(md);
    if (len >= 3 && !strcmp(md + len - 3, ".md"))
        len -= 3;
    snprintf(buf, n, "%.*s-%s.svg", (int)len, md, fig);
}

void rep_var_line(FILE *f, const struct rep_var *v)
{
    fprintf(f, "- **%s**: %s (`", v->name, v->what);
    if (v->config)
        fprintf(f, "--config %s%s", v->config, v->set[0] ? " " : "");
    for (unsigned i = 0; i < REP_MAX_SETS && v->set[i]; i++)
        fprintf(f, "%s--set %s", i ? " " : "", v->set[i]);
    fprintf(f, "`)\n");
}

int rep_write_doc(const char *path, const char *mark, void (*body)(FILE *, const void *),
                  const void *arg)
{
    char *notes = file_tail(path, mark);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        free(notes);
        return -1;
    }
    body(f, arg);
    if (notes)
        fprintf(f, "\n%s", notes);
    else
        fprintf(f, "\n%s\n", mark);
    free(notes);
    return fclose(f);
}

struct rep_body { const struct rep *r; void (*body)(FILE *, const struct rep *); };

static void rep_body_call(FILE *f, const void *arg)
{
    const struct rep_body *b = arg;
    b->body(f, b->r);
}

static int write_md(const struct rep *r, const char *path, const char *mark,
                    void (*body)(FILE *, const struct rep *))
{
    struct rep_body b = {r, body};
    return rep_write_doc(path, mark, rep_body_call, &b);
}

static int write_csv(const struct rep *r, const char *path, void (*rows)(FILE *, const struct rep *))
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    rows(f, r);
    return fclose(f);
}

int rep_finish(const struct rep *r, const char *md, const char *csv, const char *mark,
               void (*body)(FILE *, const struct rep *), void (*rows)(FILE *, const struct rep *),
               int fail)
{
    int rc = 0;
    if (write_md(r, md, mark, body) || write_csv(r, csv, rows))
        rc = 2;
    printf("%u runs, %u correct, %u failed\n", r->runs, r->runs - r->bad, r->bad);
    return rc ? rc : r->bad || fail ? 1 : 0;
}
