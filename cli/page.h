/*
 * page.h -- what the architect's page (cli/report_page.c: runs, means, costs) and its writers
 * (cli/page_out.c: Markdown, CSV, HTML, gnuplot plots, the printed summary) share.
 */
#ifndef PAGE_H
#define PAGE_H
#include "mech.h"
#include "report.h"
#include "gpu/stats.h"

#define MAXM 32                        /* mechanisms on a page */
#define NCAT 6                         /* the four sets of 000 Table 1, the other kernels, the
                                          applications (--apps) */
#define CAT_OTHER 4
#define CAT_APPS 5

extern const char *const page_cat_names[NCAT];

struct page {
    struct rep r;
    const char *dir;
    unsigned nm;
    const struct mech *m[MAXM];
    struct rep_var v[MAXM];
    double bytes[MAXM], area[MAXM];    /* per SM, over the baseline's */
    double gm[MAXM][NCAT + 1];         /* geometric-mean speed-ups; [NCAT]: all kernels */
    unsigned ok[MAXM], na[MAXM], bad[MAXM];
    int cat[REP_MAX_KERNELS];
    struct apps *apps;                 /* --apps FILE (cli/app.h), or NULL */
    unsigned differ;                   /* application runs whose output was not base's */
};

/* The rows: kernels, then applications (rep_rows, rep_row_name). */
unsigned page_rows(const struct page *p);
const char *page_row_name(const struct page *p, unsigned k);

/* Kernel k under mechanism m (0 is base). */
const struct result *page_res(const struct page *p, unsigned k, unsigned m);
/* Its speed-up over base; 0 unless both runs computed correct results. */
double page_speedup(const struct page *p, unsigned k, unsigned m);
/* Scheduler cycles of outcome c (GS_STALL_KINDS: all of them) under m, summed over the
   kernels with a speed-up; page_sched_base: base's over the same kernels. */
uint64_t page_sched(const struct page *p, unsigned m, unsigned c);
uint64_t page_sched_base(const struct page *p, unsigned m);
/* Cycles and warp instructions under m over its correct runs. */
void page_totals(const struct page *p, unsigned m, uint64_t *cyc, uint64_t *wi);

/* page_out.c: the output directory made if absent and a file made (and removed) in it, before
   any run: 0, or -1 with a message. */
int page_out_ready(const char *dir);
/* Everything written. 0, or -1 with a message naming the file. */
int page_write(const struct page *p);
void page_print_summary(const struct page *p);

#endif
