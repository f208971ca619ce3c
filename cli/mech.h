/*
 * mech.h -- the mechanisms a report or a sweep can name (cli/mech.c): the baseline schedulers
 * (LRR, GTO, two-level), VTW with its lane policies and its software form (000), VT and MAX
 * (004), the DWS variants (002) and the three thread regroupings of 001 applied by reference
 * redirection. A mechanism is a set of --set options added to the run's, or a regrouping (a
 * profiling run, the algorithm's order, then the kernel redirected to it). The table in mech.c
 * is the one place that says which --set keys switch a mechanism on: the reports' variants
 * name its rows (MECH_SETS) among their own keys.
 *
 * mech_run runs one bench kernel under one mechanism with the results checked: the one entry
 * the architect's page (gpusim report page) and gpusim sweep share.
 */
#ifndef MECH_H
#define MECH_H
#include "cli.h"

#define MECH_MAX_SETS 4
#define MECH_NA 3                  /* result.rc from mech_run: the mechanism does not apply to
                                      the kernel (msg says why), e.g. a regrouping of a kernel
                                      that cannot be redirected */

struct mech {
    const char *name;              /* as a report, a sweep spec and --mech name it */
    const char *group;             /* "baseline", "VTW", "VT", "DWS", "regrouping" */
    const char *what;
    const char *set[MECH_MAX_SETS];/* --set options added after the run's own */
    int regroup;                   /* 0, or 1 + enum rg_alg */
};

/* A set-list entry that stands for the --set keys of mechanism row `name`, in a list that
   mech_expand reads: {"simt_depth=4", MECH_SETS("vt"), "sched_policy=lrr"}. */
#define MECH_SETS(name) "@" name

const struct mech *mech_all(unsigned *n);
const struct mech *mech_find(const char *name);     /* NULL if unknown */
/* "base, lrr, ..." : every name, for error messages and usage. */
const char *mech_names(void);
/* o with m's sets appended into out (out->sets is out's own copy). 0, or -1 when the sets
   do not fit MAX_SETS. */
int mech_opts(const struct mech *m, const struct opts *o, struct opts *out);
/* The set list in (n entries at most, a NULL ends it) into out (max entries, the unused ones
   NULL) with every MECH_SETS entry replaced by its row's keys, in their order; the count of
   keys, or -1 with the message in err (no such mechanism, or more than max keys). */
int mech_expand(const char *const *in, unsigned n, const char **out, unsigned max, char *err,
                size_t errlen);
/* Run kernel b under m and o, results checked, into r (result_free releases it); r->rc is
   0, 1, 2 as run_one's, or MECH_NA. */
void mech_run(const struct opts *o, const struct mech *m, const struct bench *b,
              struct result *r);
/* A result's rc as the reports, the page and the sweeps write it: "ok", "WRONG", "n/a"
   (MECH_NA) or "ERROR". */
const char *mech_result_word(int rc);

/* cli/report_regroup.c: kernel b regrouped by algorithm a (enum rg_alg) and run under
   reference redirection; rc MECH_NA when b cannot be redirected. */
void regroup_run(const struct opts *o, const struct bench *b, int a, struct result *r);

#endif
