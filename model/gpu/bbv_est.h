/*
 * bbv_est.h -- the divergence estimates of 001_8bf4399a5d1562fa.txt Section IV-B from a
 * launch's BBVs (bbv.h): basic-block latency, BBV-weighted (equations 2-5) and
 * BBV-weighted-scheduled (the same thread-block latencies dispatched dynamic round robin with
 * the launch's occupancy), and the divergent-warps metric beside them.
 *
 * Block latency lat[b] = the block's fixed latency (bbv.h: the lat_* keys) + its global loads
 * and atomics x the global access latency L_g. The paper "empirically measure[s] the cache hit
 * ratio ... and then compute[s] an average memory access latency using the cache hit ratio";
 * here from the launch's own L1 and L2 hit ratios h1, h2 and the configuration's latencies:
 *   L_g = l1_hit_latency + (1 - h1) x (2 icnt_latency + l2_latency
 *                                      + (1 - h2) x (dram_latency + dram_tRCD + dram_tCL)).
 * A ratio the run did not measure (the functional model) counts as h1 = 0, h2 = 1: every
 * global access an L1 miss that hits in L2.
 *
 * Warps are 32 consecutive threads of a CTA (linear thread index), as the SM forms them.
 * Equation (2): Lat_b|w = lat[b] x max over the warp's threads of BBV_t[b]; (3) T_w = sum over
 * blocks; (4) T_TB = sum over the CTA's warps; (5) T_total = sum of T_TB / #SM. Scheduled: the
 * CTAs in grid order go to the SM slot (#SM x occupancy of them) that frees first (lowest SM,
 * then slot, on a tie), each taking T_TB; T = the last finish. A warp is divergent when two of
 * its threads have different counts for some block.
 */
#ifndef BBV_EST_H
#define BBV_EST_H
#include "gpu/bbv.h"

struct bbv_est {
    double lat_global;                /* L_g used */
    double weighted;                  /* equation (5), cycles */
    double scheduled;                 /* BBV-weighted-scheduled, cycles */
    uint64_t warps, div_warps;        /* warps; of them divergent */
};

double bbv_global_latency(const struct gpu_config *c, const struct bbv *b);
/* lat[b] for every block (lat: nblocks entries). */
void bbv_block_latency(const struct gpu_config *c, const struct bbv *b, double *lat);
/* The estimates of launch b; perm (NULL: none) regroups the threads: thread slot p runs as
   logical thread perm[p] (its BBV). 0, or -1 if out of memory. */
int bbv_estimate(const struct gpu_config *c, const struct bbv *b, const uint32_t *perm,
                 struct bbv_est *e);

#endif
