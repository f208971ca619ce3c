/*
 * cli.h -- what the command line's files share: the options, one checked kernel run, and the
 * bench categories of docs/bench.md (cli/run.c); the reports' entry (cli/report.c, report.h).
 */
#ifndef CLI_H
#define CLI_H
#include <stddef.h>
#include <stdio.h>
#include "bench.h"
#include "base/config.h"
#include "gpu/gpusim.h"

#define MAX_SETS 64

struct launch_csv { FILE *f; unsigned n; };   /* where the rows go; rows written */

struct opts {
    const char *cmd, *name, *config, *json, *ptx, *bench_dir, *markdown, *perf, *record, *csv;
    const char *out, *read;            /* gpusim bbv: --out FILE, --read FILE */
    const char *cache;                 /* mech_run: the result cache's directory (NULL: none) */
    const char *kernels, *mechs;       /* reports: --kernels a,b and --mechs a,b (NULL: all) */
    const char *apps;                  /* gpusim report page --apps FILE (cli/app.h) */
    const char *sets[MAX_SETS];
    int nsets, doc, jobs, estimate, latency, fit;   /* gpusim bbv: --estimate, --latency, --fit */
    enum bench_size size;
    FILE *bbv_out;                     /* run_one: collect BBVs into this file (gs_bbv) */
    struct bench_inputs *inputs;       /* run_one: keep the inputs the host part names */
    int (*setup)(struct gs_gpu *, const void *);  /* run_one: called on the GPU before the
                                          kernel runs (e.g. gs_redirect); non-zero: an error
                                          whose message is gs_last_error */
    const void *setup_arg;
    const struct bench_layout *layout; /* run_one: the data layout to apply (BENCH_LAYOUT) */
    const char *launches;              /* gpusim run --launches CSV */
    struct launch_csv *launch_csv;     /* run_one: a CSV row per launch (NULL: none) */
    int bbv_csv;
};

struct result {
    int rc;                  /* 0 correct, 1 wrong, 2 error */
    struct gs_stats st;
    char *msg;               /* what happened, whole (a deadlock dump has a line per warp):
                                malloc'd, result_free; read it through result_msg */
    char regs[2048];         /* gs_regs_note of the last launch */
    char cfg_name[64];       /* the configuration's name key */
    char lat[512];           /* its latency set (lat_* and ii_* keys); empty: functional model */
    char app[1024];          /* an application's run (cli/app.h): its output digest and the
                                kernels with most cycles; "" for a bench kernel */
    int cached;              /* mech_run: read from the result cache (cli/cache.h), not run */
};

/* The latency set a run uses: the timing model's lat_* and ii_* keys ("" for functional). */
void latency_set(const struct gpu_config *c, char *buf, size_t n);
/* Run kernel b under o's configuration and sets, check its results, fill r (result_free
   releases its message). */
void run_one(const struct opts *o, const struct bench *b, struct result *r);
const char *result_msg(const struct result *r);   /* r->msg, or why there is none */
/* gpusim run --launches: the CSV header, and the gs_on_launch hook that writes a row per
   launch (arg: a struct launch_csv): launch, kernel, result, dynamic_shared, then
   gs_stats_csv_row's columns -- the columns of gpusim exec --launches. */
void launch_csv_header(FILE *f);
void launch_csv_row(struct gs_gpu *g, const char *kernel, uint32_t dyn_smem, int status,
                    void *arg);
void result_free(struct result *r);

/* The part of an existing file from the line holding `mark` on (malloc'd), or NULL: the
   hand-written notes a generated document keeps across regenerations. The file is read through
   model/base/infile.h (a regular file of at most DOC_FILE_MAX bytes; anything else has no
   notes). */
#define DOC_FILE_MAX (16u << 20)
char *file_tail(const char *path, const char *mark);

/* Categories of issue 4 and the measured evidence that a kernel shows the behaviour. */
enum cat { C_INSTCYC, C_CYCLE, C_INST, C_NONE, C_SHBAR, C_MEMLAT, C_TYPES, C_TYPEC, C_REGROUP,
           C_LOOP, C_COUNT };
struct cat_desc { const char *title, *rule, *kernels; };
extern const struct cat_desc cats[C_COUNT];
int cat_shows(enum cat c, const struct gs_stats *s);     /* the rule holds on these statistics */
int cat_has(enum cat c, const char *kernel);             /* the kernel is listed in category c */

/* --kernels LIST (cli/select.c): the named bench kernels, in the list's order, into a malloc'd
   *sel (*n of them); extra: kernels outside the suite (bench_extra) may be named too. -1 with
   "--kernels: ..." in err for an unknown, repeated or empty name. */
int kernels_select(const char *list, int extra, const struct bench ***sel, unsigned *n,
                   char *err, size_t errlen);
/* The next name of a comma-separated value (--kernels a,b, --mechs a,b): *p starts at list and
   moves past the name and its comma; the name into name (n bytes). 1 for a name, 0 after the
   last one, -1 with the reason in err for an empty name (",a", "a,", "a,,b", "") or one of n
   or more characters. */
int list_next(const char *list, const char **p, char *name, size_t n, char *err,
              size_t errlen);

/* gpusim report vtw | vt: the suite reports (cli/report.c, docs/vtw.md, docs/vt.md + CSV). */
int cmd_report(const struct opts *o);
/* gpusim bbv: a kernel's per-thread basic block vectors (cli/bbv.c). */
int cmd_bbv(const struct opts *o);
/* gpusim regroup-bench N: the regrouping algorithms' speed on a synthetic launch
   (cli/regroup.c). */
int cmd_regroup_bench(int argc, char **argv);
int cmd_launch_bench(const struct opts *o);         /* cli/launch.c */

#endif
