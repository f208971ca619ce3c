/*
 * report.h -- what the suite reports share (cli/report.c): a report's variants, its runs
 * (every bench kernel under the variants it selects, --jobs N forked at once, results checked
 * and kept in shared memory), means and verdicts, and the generated document that keeps the
 * hand-written notes below its marker. The reports: gpusim report vtw (cli/report_vtw.c),
 * gpusim report vt (cli/report_vt.c) and gpusim report dws (cli/report_dws.c).
 */
#ifndef REPORT_H
#define REPORT_H
#include <stdio.h>
#include "cli.h"
#include "mech.h"

#define REP_MAX_SETS 4
#define REP_MAX_KERNELS 256       /* the reports' per-kernel arrays */

/* A variant: its name in the tables, what it is, the --set options it adds (a MECH_SETS
   entry, mech.h, stands for a mechanism row's keys: rep_open puts them in), the
   configuration file it runs on instead of the options' (NULL: the options'), and a
   regrouping to apply (0, or 1 + enum rg_alg: mech.h). Runs go through mech_run, so
   --cache DIR reuses their results. */
struct rep_var {
    const char *name, *what;
    const char *set[REP_MAX_SETS];
    const char *config;
    int regroup;
};

struct app;

struct rep {
    const struct opts *o;
    const struct bench *const *all;
    unsigned n;                    /* kernels */
    const struct app *apps;        /* applications (cli/app.h), rows n .. n + napps - 1 */
    unsigned napps;
    const struct bench **sel;      /* --kernels: the chosen ones (all points here), or NULL */
    struct rep_var *vars;          /* rep_open's copy of the variants, MECH_SETS expanded */
    unsigned nvars;
    struct result *rs;             /* [row * nvars + variant], shared with the jobs; a row is
                                      a kernel, then an application */
    unsigned char *ran;            /* [row * nvars + variant]: the run was made */
    unsigned runs, bad;            /* runs made; of them wrong or failed */
    unsigned done, todo, hits;     /* rep_run's progress: runs finished, to make, from cache */
    double t0;                     /* its start (seconds, monotonic) */
    int tty;                       /* stderr is a terminal: a progress line is kept there */
};

/* Set up r for the bench kernels (o->kernels: a comma-separated choice, in its order, from
   the suite and the kernels outside it; else the suite) under vars: every variant's
   configuration (the options' sets, then the variant's) is loaded first, so a bad key, an
   unknown mechanism or kernel stops the report before any run and before any file is
   written; more than REP_MAX_KERNELS kernels is an error. 0, or the exit status 2 with a
   message. */
int rep_open(struct rep *r, const struct opts *o, const struct rep_var *vars, unsigned nvars);
/* rep_open with applications after the kernels (the page's --apps); with apps and no
   --kernels, the applications alone. */
int rep_open_apps(struct rep *r, const struct opts *o, const struct rep_var *vars,
                  unsigned nvars, const struct app *apps, unsigned napps);
/* The rows (kernels, then applications) and row k's name. */
unsigned rep_rows(const struct rep *r);
const char *rep_row_name(const struct rep *r, unsigned k);
/* list_next (cli/select.c) with its message on stderr, prefixed by `what`: *p starts at
   list and moves past the name and its comma; the name into name (n bytes). 1 for a name, 0
   after the last one, -1 after saying (on stderr, prefixed by `what`) that the list has an
   empty name (",a", "a,", "a,,b", "") or one of n or more characters. */
int rep_list_next(const char *what, const char *list, const char **p, char *name, size_t n);
void rep_close(struct rep *r);
/* Run the jobs j (row * nvars + variant) with want[j] set (want NULL: all), --jobs at a
   time, each result checked; a line per run on stdout and, when stderr is a terminal, a
   progress line there (done/total, cached, ETA). -1 if out of memory. */
int rep_run(struct rep *r, const unsigned char *want);
/* The end of a report: the Markdown (body between nothing and the kept notes of `mark`) and
   the CSV written, the summary line printed; the exit status (1: a run wrong or failed, or
   fail set by the report's own checks). */
int rep_finish(const struct rep *r, const char *md, const char *csv, const char *mark,
               void (*body)(FILE *, const struct rep *), void (*rows)(FILE *, const struct rep *),
               int fail);

/* A generated document: body(f, arg), then the hand-written notes kept from the line holding
   mark on (or the mark alone if the file had none). 0, or -1 with a message. */
int rep_write_doc(const char *path, const char *mark, void (*body)(FILE *, const void *),
                  const void *arg);

struct result *rep_res(const struct rep *r, unsigned k, unsigned v);
int rep_ran(const struct rep *r, unsigned k, unsigned v);
const char *rep_mark(const struct result *x);    /* "", " WRONG" or " ERROR" */
/* A report's figure: the Markdown's path (--markdown, else md_default) without ".md", then
   "-" fig ".svg"; with base, the file name alone (the Markdown's link). */
void rep_fig_path(const struct rep *r, const char *md_default, const char *fig, int base,
                  char *buf, size_t n);
/* "- **name**: what (`--set a --set b`)" */
void rep_var_line(FILE *f, const struct rep_var *v);

double rep_ratio(uint64_t a, uint64_t b);        /* a / b, 0 when b is 0 */
double rep_amean(const double *x, unsigned n);   /* means of the non-zero values, 0 if none */
double rep_gmean(const double *x, unsigned n);
uint64_t rep_stall_cycles(const struct gs_stats *s);   /* scheduler cycles without an issue */
/* A statistic by its JSON key (a scalar counter or a derived figure); 0 if none. */
double rep_stat(const struct gs_stats *s, const char *json);
/* A ratio's direction against the paper's: "same direction", "**no effect here**" or
   "**opposite direction**" (+1 above 1.005, -1 below 0.995, else 0). */
int rep_direction(double x);
const char *rep_verdict(double ours, double paper);

int report_vtw(const struct opts *o);
int report_vt(const struct opts *o);
int report_dws(const struct opts *o);
int report_regroup(const struct opts *o);   /* cli/report_regroup.c (own runner) */
int report_page(const struct opts *o);      /* cli/report_page.c: the architect's page */

#endif
