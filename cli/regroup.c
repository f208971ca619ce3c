/*
 * regroup.c -- gpusim regroup-bench N: how long each thread regrouping algorithm of
 * 001_8bf4399a5d1562fa.txt Section V (model/gpu/regroup.h) takes on a deterministic synthetic
 * launch of N threads, and the BBV-weighted and BBV-weighted-scheduled estimates
 * (model/gpu/bbv_est.h) of its regrouping against the identity.
 *
 * The launch: 256-thread CTAs on gtx480's 15 SMs x 6 CTAs, 20 basic blocks of a kernel with a
 * data-dependent loop. Per thread, from a fixed-seed generator: 2 % leave at a bounds check;
 * the others run a loop of n iterations (70 % 1-8, 25 % 9-64, 5 % 65-512), of which q/4 take
 * a long branch (q in 0..4, skewed to 0) with an inner loop of 1-3 trips, plus rare events
 * (0-2, mostly 0) and a tail chosen by a data bit. Group size 32 (the paper's setting).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "gpu/bbv.h"
#include "gpu/bbv_est.h"
#include "gpu/regroup.h"

#define RB_BLOCKS 20
#define RB_TPC 256
#define RB_GROUP 32

/* Fixed latencies of the 20 blocks (cycles; no global accesses). */
static const uint32_t rb_fixed[RB_BLOCKS] = {40, 24, 12, 30, 8,  18, 260, 44, 96, 12,
                                             70, 16, 140, 22, 10, 36, 18,  60, 14, 20};

/* splitmix64: the generator every run starts from the same seed. */
static uint64_t rb_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform draw in [0, n). */
static uint32_t rb_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(rb_next(s) % n);
}

/* The loop's trip count: 70 % 1-8, 25 % 9-64, 5 % 65-512. */
static uint32_t rb_trips(uint64_t *s)
{
    uint32_t u = rb_below(s, 100);
    return u < 70 ? 1 + rb_below(s, 8) : u < 95 ? 9 + rb_below(s, 56) : 65 + rb_below(s, 448);
}

/* One thread's counts (c: RB_BLOCKS entries). */
static void rb_thread(uint64_t *s, uint32_t *c)
{
    static const uint8_t qdist[10] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 4};   /* skewed to 0 */
    uint32_t n, q, k, inner, rare, bit;
    memset(c, 0, RB_BLOCKS * sizeof *c);
    c[0] = c[1] = c[19] = 1;                   /* entry, bounds check, exit */
    if (rb_below(s, 100) < 2)
        return;                                 /* out of range: straight to the exit */
    n = rb_trips(s);
    q = qdist[rb_below(s, 10)];
    k = n * q / 4;
    inner = 1 + rb_below(s, 3);
    rare = rb_below(s, 10) < 8 ? 0 : 1 + rb_below(s, 2);
    bit = rb_below(s, 2);
    c[2] = 1;                                   /* set-up */
    c[3] = n + 1;                               /* loop head */
    c[4] = n;                                   /* body */
    c[5] = n - k;                               /* short branch */
    c[6] = k;                                   /* long branch */
    c[7] = k * inner;                           /* inner loop body */
    c[8] = k * (inner + 1) / 2;                 /* inner loop's guarded update */
    c[9] = k;                                   /* inner loop exit */
    c[10] = rare;                               /* rare event */
    c[11] = rare ? 1 : 0;                       /* its clean-up */
    c[12] = n / 8;                              /* every 8th iteration: a flush */
    c[13] = 1;                                  /* loop exit */
    c[14 + bit] = 1;                            /* tail: one of two */
    c[16] = 1;                                  /* join */
    c[17] = bit ? n / 16 : 0;                   /* a second, rarer loop */
    c[18] = 1;                                  /* write-back */
}

/* The synthetic launch of n threads (n a multiple of 256: rounded up). 0 or -1. */
static int rb_launch(struct bbv *b, uint64_t n)
{
    uint64_t seed = 20240601;
    memset(b, 0, sizeof *b);
    n = (n + RB_TPC - 1) / RB_TPC * RB_TPC;
    snprintf(b->kernel, sizeof b->kernel, "synthetic-loop");
    b->grid = (struct gs_dim3){(uint32_t)(n / RB_TPC), 1, 1};
    b->block = (struct gs_dim3){RB_TPC, 1, 1};
    b->nsms = 15;
    b->occupancy = 6;
    b->l1_ppm = b->l2_ppm = BBV_UNKNOWN;
    b->nblocks = RB_BLOCKS;
    b->nthreads = n;
    b->tpc = RB_TPC;
    b->blk = calloc(RB_BLOCKS, sizeof *b->blk);
    b->count = malloc((size_t)n * RB_BLOCKS * sizeof *b->count);
    if (!b->blk || !b->count)
        return -1;
    for (uint32_t k = 0; k < RB_BLOCKS; k++)
        b->blk[k] = (struct bbv_block){k * 8, 4, rb_fixed[k], 0};
    for (uint64_t t = 0; t < n; t++)
        rb_thread(&seed, b->count + t * RB_BLOCKS);
    return 0;
}

static double rb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One algorithm: its time, estimates against the identity's, and how it searched. */
static int rb_one(const struct gpu_config *c, const struct bbv *b, const double *lat,
                  enum rg_alg a, const struct bbv_est *id, uint32_t *perm)
{
    struct rg_info info;
    struct bbv_est e;
    char err[256];
    double t0 = rb_now(), dt;
    if (rg_regroup_info(a, b, lat, RB_GROUP, perm, &info, err, sizeof err)) {
        fprintf(stderr, "gpusim regroup-bench: %s\n", err);
        return 2;
    }
    dt = rb_now() - t0;
    if (bbv_estimate(c, b, perm, &e)) {
        fprintf(stderr, "gpusim regroup-bench: out of memory\n");
        return 2;
    }
    printf("%-10s %8.3f %15.0f %6.3f %15.0f %6.3f %9llu  ", rg_name(a), dt, e.weighted,
           e.weighted / id->weighted, e.scheduled, e.scheduled / id->scheduled,
           (unsigned long long)e.div_warps);
    if (a == RG_SORT)
        printf("(no search)\n");
    else if (info.exact)
        printf("exhaustive\n");
    else if (a == RG_GREEDY)
        printf("window %u each side, %u remainder groups\n", info.window, info.groups);
    else
        printf("window %u of %u classes\n", info.window, info.classes);
    return 0;
}

/* The launch, its block latencies, the identity's estimates and its distinct BBVs (in
   info); perm: room for its threads. 0, or 2 after saying what failed. */
static int rb_setup(const struct gpu_config *c, uint64_t n, struct bbv *b, double *lat,
                    uint32_t **perm, struct bbv_est *id, struct rg_info *info)
{
    char err[256] = "out of memory";
    *perm = NULL;
    if (rb_launch(b, n) || !(*perm = malloc((size_t)b->nthreads * sizeof **perm))) {
        fprintf(stderr, "gpusim regroup-bench: out of memory\n");
        return 2;
    }
    bbv_block_latency(c, b, lat);
    if (bbv_estimate(c, b, NULL, id) ||
        rg_regroup_info(RG_SORT, b, lat, RB_GROUP, *perm, info, err, sizeof err)) {
        fprintf(stderr, "gpusim regroup-bench: %s\n", err);
        return 2;
    }
    return 0;
}

int cmd_regroup_bench(int argc, char **argv)
{
    struct gpu_config c;
    struct bbv b;
    struct bbv_est id;
    struct rg_info info;
    double lat[RB_BLOCKS];
    uint32_t *perm;
    char *end = NULL;
    unsigned long long n = argc == 3 ? strtoull(argv[2], &end, 10) : 0;
    int rc;
    if (argc != 3 || *end || n == 0 || n > (1ull << 24)) {
        fprintf(stderr, "usage: gpusim regroup-bench N   (N threads, 1 .. 16777216)\n");
        return 2;
    }
    conf_defaults(&c);
    rc = rb_setup(&c, n, &b, lat, &perm, &id, &info);
    if (!rc) {
        printf("regroup-bench: %llu threads (%u CTAs x %u), %u blocks, %u distinct BBVs, "
               "group size %u; %u SMs x %u CTAs\n", (unsigned long long)b.nthreads, b.grid.x,
               RB_TPC, b.nblocks, info.classes, RB_GROUP, b.nsms, b.occupancy);
        printf("algorithm   seconds    BBV-weighted  ratio       scheduled  ratio  div.warps  "
               "search\n%-10s %8s %15.0f %6.3f %15.0f %6.3f %9llu\n", "identity", "-",
               id.weighted, 1.0, id.scheduled, 1.0, (unsigned long long)id.div_warps);
    }
    for (unsigned a = 0; a < RG_NALGS && !rc; a++)
        rc = rb_one(&c, &b, lat, (enum rg_alg)a, &id, perm);
    free(perm);
    bbv_free(&b);
    return rc;
}
