/*
 * mech.c -- the mechanisms reports and sweeps name (mech.h), and one kernel's run under one.
 * A row's sets are the keys that switch its mechanism on, and nothing else: the page and the
 * sweeps run it on the configuration as given, so all of them share one baseline; the
 * mechanism reports (cli/report_vtw.c, report_vt.c, report_dws.c) name the rows (MECH_SETS)
 * in their variants and add their own settings (VT's report runs every variant at
 * simt_depth = 4, the paper's cached stack).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cache.h"
#include "mech.h"
#include "gpu/regroup.h"

static const struct mech mechs[] = {
    {"base", "baseline", "the configuration as given (gtx480: GTO)", {NULL}, 0},
    {"lrr", "baseline", "loose round-robin scheduling", {"sched_policy=lrr"}, 0},
    {"gto", "baseline", "greedy-then-oldest scheduling", {"sched_policy=gto"}, 0},
    {"twolevel", "baseline", "two-level scheduling", {"sched_policy=twolevel"}, 0},
    {"vtw", "VTW", "virtual thread blocks and warps, progress-aware scheduler, SameLane (000)",
     {"vtw=hw", "sched_policy=vtw", "vtw_lane=same"}, 0},
    {"vtw_sl", "VTW", "VTW, SlowestLane", {"vtw=hw", "sched_policy=vtw", "vtw_lane=slowest"}, 0},
    {"vtw_lh", "VTW", "VTW, LowestToHighestLane",
     {"vtw=hw", "sched_policy=vtw", "vtw_lane=lowest"}, 0},
    {"vtw_sw", "VTW", "VTW's software form (next TB = logical + NumVirtualTBs), GTO",
     {"vtw=sw", "sched_policy=gto"}, 0},
    {"vt", "VT", "virtual thread: CTAs swapped between active and inactive (004)", {"vt=on"}, 0},
    {"vt_max", "VT", "MAX: 004's upper bound, the scheduling limit raised to the capacity "
     "limit, no swap; not a design: the larger scheduler it needs is not priced",
     {"vt=max"}, 0},
    {"dws_branch", "DWS", "warp subdivision on branch divergence (002 BranchOnly)",
     {"dws=branch"}, 0},
    {"dws_aggress", "DWS", "AggressSplit: branches and every divergent cache access",
     {"dws=aggress"}, 0},
    {"dws_lazy", "DWS", "LazySplit", {"dws=lazy"}, 0},
    {"dws_revive", "DWS", "ReviveSplit", {"dws=revive"}, 0},
    {"dws_revive_mem", "DWS", "ReviveSplit.MemOnly", {"dws=revive_mem"}, 0},
    {"rg_sort", "regrouping", "threads regrouped by Sorting, reference redirection (001)",
     {NULL}, 1 + RG_SORT},
    {"rg_greedy", "regrouping", "threads regrouped by Greedy, reference redirection",
     {NULL}, 1 + RG_GREEDY},
    {"rg_gmax", "regrouping", "threads regrouped by Greedy-Max, reference redirection",
     {NULL}, 1 + RG_GREEDY_MAX},
};
#define NMECH (sizeof mechs / sizeof mechs[0])

const struct mech *mech_all(unsigned *n)
{
    *n = NMECH;
    return mechs;
}

const struct mech *mech_find(const char *name)
{
    for (unsigned i = 0; i < NMECH; i++)
        if (!strcmp(mechs[i].name, name))
            return &mechs[i];
    return NULL;
}

const char *mech_names(void)
{
    static char buf[512];
    if (!buf[0])
        for (unsigned i = 0; i < NMECH; i++)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "",
                     mechs[i].name);
    return buf;
}

int mech_opts(const struct mech *m, const struct opts *o, struct opts *out)
{
    *out = *o;
    for (unsigned i = 0; i < MECH_MAX_SETS && m->set[i]; i++) {
        if (out->nsets >= MAX_SETS)
            return -1;
        out->sets[out->nsets++] = m->set[i];
    }
    return 0;
}

/* The number of m's sets. */
static unsigned nsets(const struct mech *m)
{
    unsigned n = 0;
    while (n < MECH_MAX_SETS && m->set[n])
        n++;
    return n;
}

int mech_expand(const char *const *in, unsigned n, const char **out, unsigned max, char *err,
                size_t errlen)
{
    unsigned c = 0;
    for (unsigned i = 0; i < n && in[i]; i++) {
        int named = in[i][0] == MECH_SETS("")[0];
        const struct mech *m = named ? mech_find(in[i] + 1) : NULL;
        unsigned ns = m ? nsets(m) : 1;
        if (named && !m) {
            snprintf(err, errlen, "no mechanism '%s' (the mechanisms: %s)", in[i] + 1,
                     mech_names());
            return -1;
        }
        if (c + ns > max) {
            snprintf(err, errlen, "more than %u --set options", max);
            return -1;
        }
        memcpy(out + c, m ? m->set : &in[i], ns * sizeof *out);
        c += ns;
    }
    for (unsigned i = c; i < max; i++)
        out[i] = NULL;
    return (int)c;
}

const char *mech_result_word(int rc)
{
    return rc == 0 ? "ok" : rc == 1 ? "WRONG" : rc == MECH_NA ? "n/a" : "ERROR";
}

/* The run itself, uncached. */
static void run_uncached(const struct opts *o, const struct mech *m, const struct bench *b,
                         struct result *r)
{
    struct opts mo;
    if (mech_opts(m, o, &mo)) {
        memset(r, 0, sizeof *r);
        r->rc = 2;
        r->msg = strdup("too many --set options with the mechanism's");
        return;
    }
    if (m->regroup)
        regroup_run(&mo, b, m->regroup - 1, r);
    else
        run_one(&mo, b, r);
}

void mech_run(const struct opts *o, const struct mech *m, const struct bench *b,
              struct result *r)
{
    struct cache_key key;
    int keyed = cache_on(o->cache) && !cache_key(o, m, b, &key);
    if (keyed && cache_get(o->cache, &key, r)) {
        r->cached = 1;
        cache_key_free(&key);
        return;
    }
    run_uncached(o, m, b, r);
    if (keyed && cache_put(o->cache, &key, r))
        fprintf(stderr, "gpusim: could not write the result cache entry %s/%s: %s\n", o->cache,
                key.hex, errno ? strerror(errno) : "out of memory");
    if (keyed)
        cache_key_free(&key);
}
