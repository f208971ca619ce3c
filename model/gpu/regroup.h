/*
 * regroup.h -- thread regrouping from per-thread basic block vectors: the three algorithms of
 * 001_8bf4399a5d1562fa.txt Section V (Sorting V-A; Greedy V-B, Algorithm 1 with equations
 * 6-10; Greedy-Max V-C, Algorithm 2 with equation 11). Not a hardware block: the software
 * step the paper runs at launch time to pick which logical thread each thread slot runs; the
 * result is a permutation that bbv_estimate (bbv_est.h) scores.
 *
 * A regrouping forms groups of `groupsize` threads (a multiple of 32, so no warp spans two
 * groups); group i takes thread slots [i x groupsize, (i + 1) x groupsize) in the order the
 * groups are formed, the last group may be short; perm[slot] = the logical thread it runs.
 * Every tie is broken by the lowest logical thread id, so the result is deterministic.
 *
 * All three start from the same step: the threads sorted by their BBVs in lexicographic order
 * (block 0 first; ties by thread id) and runs of identical BBVs collapsed into classes (a
 * class's threads in ascending id). With lat[b] the block latencies and, for a group g,
 * Min_g[b] and Max_g[b] the smallest and largest count of block b among its threads (6, 7):
 *   Gain(g1, g2) = sum_b lat[b] x (Min[b] - (Max[b] - Min[b])) over g1 u g2   (8) - (9) = (10)
 *   Lat_t        = sum_b lat[b] x BBV_t[b]                                     (11)
 *
 * - Sorting: the sorted order; consecutive groupsize threads form a group.
 * - Greedy: every thread starts as a group; the pair with the largest gain merges (ties: the
 *   pair whose groups' lowest thread ids are lower); a merge of more than groupsize threads
 *   gives its first groupsize threads as a finished group and the rest stays in play, and a
 *   group of exactly groupsize is finished at once (Algorithm 1 keeps it until a further merge
 *   passes groupsize, which gives back the same threads). "First": in the order the threads
 *   were added -- the merged group lists the larger group's threads (on equal sizes, the one
 *   holding the lower thread id) in their order, then the other's; a class's threads in
 *   ascending id. Identical threads merge with gain Lat_t > 0 and no cost, and no merge of a
 *   group with a different one gains as much (2 min - max <= the group's own count), so each
 *   class first forms floor(count / groupsize) full groups of consecutive ids -- all at gain
 *   Lat of the class -- and leaves one remainder group of its last count mod groupsize
 *   threads. The implementation does exactly that and runs the pairwise merging on the
 *   remainders only; the finished groups are placed in the order of the merges that formed
 *   them, by descending gain (a class's full groups at gain Lat), as Algorithm 1 forms them.
 *   The group left in play at the end (the short one) comes last.
 * - Greedy-Max: a group starts with the remaining thread of largest Lat_t and is filled with a
 *   thread identical to one in it if any is left (lowest id first), else with the remaining
 *   thread of largest Gain(group, thread); groups are formed, and placed, in descending order
 *   of their first thread's Lat_t.
 *
 * Where this departs from the paper's exhaustive search (and why): exhaustive Greedy and
 * Greedy-Max are quadratic or worse in the number of threads (262 144 threads: 3.4e10 pairs
 * per Greedy iteration). Collapsing classes is exact (above). The search among what is left
 * is exhaustive while it fits a budget (RG_BUDGET_GREEDY, RG_BUDGET_GMAX: a candidate looked
 * at costs blocks + RG_STEP steps per group); with 20 blocks that is up to about 1 360
 * remainder groups for Greedy, and for Greedy-Max up to about 2 700 classes at 262 144
 * threads (5 400 at 4 096). Above it the candidates are bounded, and rg_info.exact says so:
 *   Greedy: a group's partners are the `window` in-play groups on each side of it in the
 *   lexicographic order of the classes the remainders came from (a merged group keeps the
 *   place of the group that held the chosen pair); each group keeps its best partners seen
 *   in that window, and the best of these pairs merges. A group whose window gains a member
 *   because another left keeps its partners until a merge touches it.
 *   Greedy-Max: the candidates of a gain search are the `window` remaining classes of highest
 *   Lat (the group's seed has the highest, so these are its neighbours in latency order).
 * Equal Lat for two classes' seeds go by their lowest thread id at the start (Algorithm 2: by
 * the lowest remaining id; they differ only after a class was split over groups).
 * Exhaustive searches equal literal transcriptions of Algorithms 1 and 2 thread by thread
 * (tests/test_regroup.c, where no two gains tie).
 */
#ifndef REGROUP_H
#define REGROUP_H
#include <stddef.h>
#include <stdint.h>
#include "gpu/bbv.h"

/* The search budgets, in steps: a candidate looked at costs (blocks + RG_STEP) steps per
   group (Greedy: per remainder group; Greedy-Max: per group formed and per class). Measured
   so that 262 144 threads take about 2 s per algorithm on one core at worst (all BBVs
   distinct). */
#define RG_STEP 16
#define RG_BUDGET_GREEDY (1ull << 26)
#define RG_BUDGET_GMAX (1ull << 30)
#define RG_WINDOW_MIN 8            /* the smallest bounded window */

enum rg_alg { RG_SORT, RG_GREEDY, RG_GREEDY_MAX, RG_NALGS };

/* What a regrouping did (rg_regroup_info). */
struct rg_info {
    uint32_t classes;              /* distinct BBVs */
    uint32_t groups;               /* Greedy: remainder groups merged pairwise; else 0 */
    uint32_t window;               /* Greedy: partners each side; Greedy-Max: candidates */
    int exact;                     /* the window held every candidate (the paper's search) */
};

const char *rg_name(enum rg_alg a);            /* "sorting", "greedy", "greedy-max" */
int rg_parse(const char *name, enum rg_alg *a); /* 0 or -1 */

/* Regroup launch b's threads with algorithm a into groups of groupsize threads (a multiple of
   32, >= 32): perm[p] = the logical thread slot p runs; a permutation of 0..nthreads-1.
   lat: block latencies (bbv_block_latency). 0, or -1 with a message in err. */
int rg_regroup(enum rg_alg a, const struct bbv *b, const double *lat, uint32_t groupsize,
               uint32_t *perm, char *err, size_t errlen);
/* The same, and what it did into *info (may be NULL). */
int rg_regroup_info(enum rg_alg a, const struct bbv *b, const double *lat, uint32_t groupsize,
                    uint32_t *perm, struct rg_info *info, char *err, size_t errlen);

#endif
