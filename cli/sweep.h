/*
 * sweep.h -- gpusim sweep (docs/sweeps.md): a SPEC file names configurations, alternatives of
 * --set values, kernels, mechanisms and sizes; the sweep is their cross product, one point
 * each, run locally through GNU parallel or as a Slurm array job, merged into one CSV.
 *
 *   cli/sweep_spec.c   the SPEC: parsing, the points, the check that every combination loads
 *   cli/sweep.c        the command: one point, the merge, the local run
 *   cli/sweep_slurm.c  the Slurm scripts and their submission
 */
#ifndef SWEEP_H
#define SWEEP_H
#include "app.h"
#include "cli.h"
#include "mech.h"

#define SW_MAX_SET_AXES 16       /* set: lines in one SPEC */
#define SW_MAX_SPEC_BYTES (1u << 20)   /* a SPEC file larger than 1 MiB is refused */
#define SW_MAX_POINTS 1000000UL  /* a sweep is one process and one file a point: more is
                                    refused, naming the count (split the SPEC) */

/* One axis of strings: configuration files, or one set: line's alternatives (each a
   comma-joined K=V list, or "-" for none). line: its SPEC line, 0 for a default. */
struct sw_axis {
    const char **v;
    unsigned n;
    int line;
};

struct sw_spec {
    const char *path;
    char *text;                            /* the file; the values point into it */
    char *raw;                             /* the file as read: what DIR/sweep.spec gets */
    FILE *msg;                             /* where errors go (stderr unless the caller's) */
    struct sw_axis configs, sets[SW_MAX_SET_AXES];
    unsigned nsetax;
    const struct bench **kernels;
    unsigned nkernels;
    const char *apps_file;                 /* apps: FILE [NAME...] (docs/apps.md) */
    const char **app_names;                /* the names given (none: every application) */
    unsigned napp_names;
    struct apps *apps;                     /* the file, read by sw_spec_parse */
    const struct app **app_list;           /* the applications of the sweep, in order */
    unsigned napps;
    const struct mech **mechs;
    unsigned nmechs;
    enum bench_size sizes[2];
    unsigned nsizes;
    int kernels_line, mechs_line, sizes_line, apps_line;
    int all_kernels;                       /* kernels: all was given */
    unsigned long npoints;
};

/* One point: its configuration, one alternative per set: line, kernel or application,
   mechanism, size. */
struct sw_point {
    unsigned long index;
    const char *config;
    const char *set[SW_MAX_SET_AXES];
    const struct bench *kernel;            /* NULL for an application's point */
    const struct app *app;
    const struct mech *mech;
    enum bench_size size;
};

/* The workloads of a sweep: its kernels, then its applications. */
unsigned sw_workloads(const struct sw_spec *s);
/* Point p's kernel or application name. */
const char *sw_point_name(const struct sw_point *p);
/* Parse len bytes of SPEC text named `path` into s, running nothing and reading nothing but
   the applications file an apps: line names (cli/app.h, relative to the working directory):
   0, or 2
   after an error naming PATH:LINE on msg (NULL: stderr). A NUL byte, a control character, a
   value given twice on a line (two kernels, mechanisms, sizes, configurations or set
   alternatives that are the same; 'all' and a kernel it names), or more than SW_MAX_POINTS
   points is an error. sw_spec_free releases s either way. */
int sw_spec_parse(struct sw_spec *s, const char *path, const char *text, size_t len, FILE *msg);
/* Read SPEC (a regular file of at most SW_MAX_SPEC_BYTES, model/base/infile.h: a FIFO or a
   device is refused at once) and parse it: 0, or 2 after the error on stderr. */
int sw_spec_load(const char *path, struct sw_spec *s);
void sw_spec_free(struct sw_spec *s);
/* Point i (< s->npoints). The order: configs slowest, then each set: line in SPEC order,
   sizes, kernels then applications, mechanisms fastest -- the index is stable for a given SPEC. */
void sw_point(const struct sw_spec *s, unsigned long i, struct sw_point *p);
/* o (a zeroed opts) set up for p: its configuration and its sets, cut into buf. 0, or -1
   when they do not fit (more than MAX_SETS, or buf). */
int sw_point_opts(const struct sw_spec *s, const struct sw_point *p, struct opts *o, char *buf,
                  size_t n);
/* p's sets as the CSV shows them: the alternatives joined with ',' ("-" for none). */
void sw_point_sets(const struct sw_spec *s, const struct sw_point *p, char *buf, size_t n);
/* The number of configurations sw_spec_check loads: configurations x set combinations x
   mechanisms. */
unsigned long sw_spec_nconfigs(const struct sw_spec *s);
/* Every configuration with every combination of set alternatives and every mechanism's sets
   loads (as gs_init would load it): 0, or 2 after an error naming the SPEC line. Run before
   any point. */
int sw_spec_check(const struct sw_spec *s);

/* What the Slurm side needs of a sweep (cli/sweep.c fills it). */
struct sw_run {
    const char *spec;          /* DIR/sweep.spec: the copy every point reads */
    const char *dir, *exe, *cwd, *cache;   /* absolute paths; cache may be NULL */
    const char *slurm_opts[16];
    int nslurm_opts, jobs, dry_run;        /* jobs: the array's throttle (0: none) */
    unsigned long npoints;
};

/* gpusim sweep --slurm: write DIR/sweep.sbatch and DIR/merge.sbatch, submit them (or with
   dry_run print the commands). 0, or 2 after the error. */
int sw_slurm(const struct sw_run *r);
/* #SBATCH lines take no quoting: 1 when path p holds no white space, no control character and
   no '%', else 0 after saying so (what: which path it is). */
int sw_sbatch_path_ok(const char *what, const char *p);
/* An --slurm-opt value an #SBATCH line can carry: 1, or 0 after saying why (empty, or a
   control character such as a newline, which would start a line of the script of its own). */
int sw_slurm_opt_ok(const char *opt);
/* "0-3,7,9-10": the indices flagged in bad[0..n) as Slurm's --array takes them, into a
   malloc'd string. */
char *sw_ranges(const unsigned char *bad, unsigned long n);

/* What GNU parallel's wait status says (its exit status is the number of jobs that failed,
   101 for more than 100, 255 for its own error): the points that failed, 0..100, or 101 for
   more than 100, when it ran every point; -1 when it did not (its own error, a signal, not
   started). */
int sw_parallel_failed(int wstatus);

/* gpusim sweep SPEC [options] (cli/sweep.c). */
int cmd_sweep(int argc, char **argv);

#endif
