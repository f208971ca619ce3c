/*
 * test_regroup.c -- the thread regrouping algorithms of 001 Section V (model/gpu/regroup.h):
 * every algorithm gives a permutation on launches of several shapes (exhaustive and bounded
 * searches); Sorting's order on a hand-made example; identical BBVs end in one group; Greedy
 * and Greedy-Max equal literal transcriptions of Algorithms 1 and 2 (every pair / every
 * thread searched) on small launches; on a divergent loop every algorithm lowers the
 * BBV-weighted estimate and the scheduled estimates relate as explained at the test;
 * Greedy-Max's groups come in descending latency; same input, same result; bad group sizes
 * are refused with a message.
 */
#include "testutil.h"
#include "gpu/bbv.h"
#include "gpu/bbv_est.h"
#include "gpu/regroup.h"

#define MAXB 64

/* A launch built by hand: counts [n x nb], zeroed, blocks of latency lat[k] (fixed). */
struct launch {
    struct bbv b;
    struct bbv_block blk[MAXB];
    double lat[MAXB];
};

static void launch_init(struct launch *l, uint32_t n, uint32_t nb, uint32_t tpc)
{
    memset(l, 0, sizeof *l);
    l->b.nthreads = n;
    l->b.nblocks = nb;
    l->b.tpc = tpc;
    l->b.blk = l->blk;
    l->b.nsms = 15;
    l->b.occupancy = 6;
    l->b.l1_ppm = l->b.l2_ppm = BBV_UNKNOWN;
    l->b.count = calloc((size_t)n * nb + 1, sizeof *l->b.count);
    assert_non_null(l->b.count);
    for (uint32_t k = 0; k < nb; k++) {
        l->lat[k] = 10 + 7 * k;
        l->blk[k].fixed = 10 + 7 * k;
    }
}

/* xorshift64: the tests' fixed-seed generator. */
static uint32_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 32);
}

/* Counts drawn uniformly from [0, range). */
static void fill_random(struct launch *l, uint64_t seed, uint32_t range)
{
    for (uint64_t i = 0; i < l->b.nthreads * l->b.nblocks; i++)
        l->b.count[i] = rnd(&seed) % range;
}

static uint32_t *regroup(enum rg_alg a, const struct launch *l, uint32_t gs,
                         struct rg_info *info)
{
    uint32_t *perm = malloc((l->b.nthreads + 1) * sizeof *perm);
    char err[256];
    assert_non_null(perm);
    if (rg_regroup_info(a, &l->b, l->lat, gs, perm, info, err, sizeof err)) {
        print_error("%s: %s\n", rg_name(a), err);
        fail();
    }
    return perm;
}

static void assert_permutation(const uint32_t *perm, uint64_t n)
{
    uint8_t *seen = calloc(n + 1, 1);
    assert_non_null(seen);
    for (uint64_t p = 0; p < n; p++) {
        assert_true(perm[p] < n);
        assert_false(seen[perm[p]]);
        seen[perm[p]] = 1;
    }
    free(seen);
}

static int same_bbv(const struct bbv *b, uint32_t x, uint32_t y)
{
    return !memcmp(b->count + (uint64_t)x * b->nblocks, b->count + (uint64_t)y * b->nblocks,
                   b->nblocks * sizeof *b->count);
}

static void test_names(void **state)
{
    enum rg_alg a;
    (void)state;
    for (unsigned i = 0; i < RG_NALGS; i++) {
        assert_int_equal(rg_parse(rg_name((enum rg_alg)i), &a), 0);
        assert_int_equal(a, i);
    }
    assert_string_equal(rg_name(RG_GREEDY_MAX), "greedy-max");
    assert_int_equal(rg_parse("greedy_max", &a), -1);
}

/* Shapes: threads not a multiple of the group size, one block, many blocks, few and many
   distinct BBVs (the last bounded: more remainder groups than the budget searches). */
static void test_permutation_shapes(void **state)
{
    static const uint32_t shape[][3] = {     /* threads, blocks, count range */
        {1000, 5, 3}, {4096, 1, 40}, {300, 40, 2}, {33, 3, 1000}, {1, 2, 5}, {0, 4, 2},
        {2500, 20, 1000000},
    };
    (void)state;
    for (size_t s = 0; s < sizeof shape / sizeof shape[0]; s++)
        for (uint32_t gs = 32; gs <= 64; gs += 32)
            for (unsigned a = 0; a < RG_NALGS; a++) {
                struct launch l;
                struct rg_info info;
                uint32_t *perm;
                launch_init(&l, shape[s][0], shape[s][1], 100);
                fill_random(&l, 7 + s, shape[s][2]);
                perm = regroup((enum rg_alg)a, &l, gs, &info);
                assert_permutation(perm, l.b.nthreads);
                if (s == 6 && a == RG_GREEDY)
                    assert_false(info.exact);          /* 2500 groups: bounded */
                if (s == 0 && a != RG_SORT)
                    assert_true(info.exact);
                free(perm);
                free(l.b.count);
            }
}

/* The paper's example (BBV {1,20,10,20,1} before {1,30,20,30,1}) and ties by thread id. */
static void test_sorting_order(void **state)
{
    static const uint32_t bbv[6][5] = {
        {1, 30, 20, 30, 1}, {1, 20, 10, 20, 1}, {1, 20, 10, 20, 1},
        {0, 5, 0, 0, 0},    {1, 20, 10, 20, 0}, {1, 20, 10, 21, 0},
    };
    static const uint32_t want[6] = {3, 4, 1, 2, 5, 0};
    struct launch l;
    uint32_t *perm;
    (void)state;
    launch_init(&l, 6, 5, 32);
    memcpy(l.b.count, bbv, sizeof bbv);
    perm = regroup(RG_SORT, &l, 32, NULL);
    for (int p = 0; p < 6; p++)
        assert_int_equal(perm[p], want[p]);
    free(perm);
    free(l.b.count);
}

/* Shuffle the threads of l (their BBVs) with a fixed seed. */
static void shuffle(struct launch *l, uint64_t seed)
{
    uint32_t nb = l->b.nblocks, tmp[MAXB];
    for (uint64_t t = l->b.nthreads - 1; t > 0; t--) {
        uint64_t u = rnd(&seed) % (t + 1);
        memcpy(tmp, l->b.count + t * nb, nb * sizeof *tmp);
        memcpy(l->b.count + t * nb, l->b.count + u * nb, nb * sizeof *tmp);
        memcpy(l->b.count + u * nb, tmp, nb * sizeof *tmp);
    }
}

/* 8 classes of 32 identical threads and 8 of 16, scattered: every algorithm puts each class
   in one group, and the 32-thread classes make warps that do not diverge. */
static void test_identical_together(void **state)
{
    struct launch l;
    (void)state;
    launch_init(&l, 8 * 32 + 8 * 16, 4, 128);
    for (uint32_t t = 0; t < l.b.nthreads; t++) {
        uint32_t c = t < 256 ? t / 32 : 8 + (t - 256) / 16;
        uint32_t v[4] = {1, c + 1, (c * 5) % 7, c % 3};
        memcpy(l.b.count + t * 4, v, sizeof v);
    }
    shuffle(&l, 99);
    for (unsigned a = 0; a < RG_NALGS; a++) {
        uint32_t *perm = regroup((enum rg_alg)a, &l, 32, NULL), groups[384];
        for (uint32_t p = 0; p < l.b.nthreads; p++)
            groups[perm[p]] = p / 32;
        for (uint32_t x = 0; x < l.b.nthreads; x++)
            for (uint32_t y = x + 1; y < l.b.nthreads; y++)
                if (same_bbv(&l.b, x, y) && groups[x] != groups[y]) {
                    print_error("%s: threads %u and %u are identical, groups %u and %u\n",
                                rg_name((enum rg_alg)a), x, y, groups[x], groups[y]);
                    fail();
                }
        free(perm);
    }
    free(l.b.count);
}

/* ---- literal transcriptions of Algorithms 1 and 2 over single threads ---- */

/* Gain (10) of the union of the threads ts[0..n) with thread u (NONE: without). */
static double ref_gain(const struct launch *l, const uint32_t *ts, uint32_t n, uint32_t u)
{
    double g = 0;
    for (uint32_t k = 0; k < l->b.nblocks; k++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t i = 0; i <= n; i++) {
            uint32_t t = i < n ? ts[i] : u;
            if (t == UINT32_MAX)
                continue;
            lo = bbv_at(&l->b, t, k) < lo ? bbv_at(&l->b, t, k) : lo;
            hi = bbv_at(&l->b, t, k) > hi ? bbv_at(&l->b, t, k) : hi;
        }
        g += l->lat[k] * (2.0 * lo - hi);
    }
    return g;
}

struct rgroup {
    uint32_t t[512], n, min;
};

/* Gain of merging groups a and b. */
static double ref_pair_gain(const struct launch *l, const struct rgroup *a, const struct rgroup *b)
{
    uint32_t ts[1024];
    memcpy(ts, a->t, a->n * sizeof *ts);
    memcpy(ts + a->n, b->t, b->n * sizeof *ts);
    return ref_gain(l, ts, a->n + b->n, UINT32_MAX);
}

/* The best pair among the n groups: largest gain, then the lower thread ids. */
static void ref_best_pair(const struct launch *l, const struct rgroup *g, uint32_t n,
                          uint32_t *bi, uint32_t *bj)
{
    double best = 0;
    uint32_t blo = 0, bhi = 0;
    *bi = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            double v = ref_pair_gain(l, &g[i], &g[j]);
            uint32_t lo = g[i].min < g[j].min ? g[i].min : g[j].min;
            uint32_t hi = g[i].min < g[j].min ? g[j].min : g[i].min;
            if (*bi == UINT32_MAX || v > best || (v == best && (lo < blo ||
                                                                (lo == blo && hi < bhi)))) {
                best = v;
                blo = lo;
                bhi = hi;
                *bi = i;
                *bj = j;
            }
        }
}

/* Algorithm 1: every thread a group; the best pair merges, the larger group's threads first;
   groupsize threads or more give the first groupsize as a finished group. */
static void ref_greedy(const struct launch *l, uint32_t gs, uint32_t *perm)
{
    uint32_t n = (uint32_t)l->b.nthreads, ng = n, out = 0, i, j;
    struct rgroup *g = calloc(n + 1, sizeof *g), m;
    assert_non_null(g);
    for (uint32_t t = 0; t < n; t++)
        g[t] = (struct rgroup){{t}, 1, t};
    while (ng > 1) {
        ref_best_pair(l, g, ng, &i, &j);
        int ifirst = g[i].n > g[j].n || (g[i].n == g[j].n && g[i].min < g[j].min);
        const struct rgroup *f = ifirst ? &g[i] : &g[j], *s = ifirst ? &g[j] : &g[i];
        m = *f;
        memcpy(m.t + m.n, s->t, s->n * sizeof *m.t);
        m.n += s->n;
        m.min = f->min < s->min ? f->min : s->min;
        if (m.n >= gs) {
            memcpy(perm + out, m.t, gs * sizeof *perm);
            out += gs;
            memmove(m.t, m.t + gs, (m.n - gs) * sizeof *m.t);
            m.n -= gs;
            m.min = UINT32_MAX;
            for (uint32_t q = 0; q < m.n; q++)
                m.min = m.t[q] < m.min ? m.t[q] : m.min;
        }
        g[i] = m;
        g[j] = g[--ng];
        if (!g[i].n)
            g[i] = g[--ng];
    }
    if (ng)
        memcpy(perm + out, g[0].t, g[0].n * sizeof *perm);
    free(g);
}

/* Algorithm 2: seed the remaining thread of largest Lat_t; then the first identical thread
   (in id order), else the first of largest gain; until groupsize. */
static void ref_greedy_max(const struct launch *l, uint32_t gs, uint32_t *perm)
{
    uint32_t n = (uint32_t)l->b.nthreads, out = 0, g[512], gn;
    uint8_t *used = calloc(n + 1, 1);
    assert_non_null(used);
    while (out < n) {
        uint32_t seed = UINT32_MAX;
        double sl = 0;
        for (uint32_t t = 0; t < n; t++) {
            double v = ref_gain(l, &t, 1, UINT32_MAX);   /* one thread: Lat_t */
            if (!used[t] && (seed == UINT32_MAX || v > sl)) {
                seed = t;
                sl = v;
            }
        }
        g[0] = seed;
        gn = 1;
        used[seed] = 1;
        while (gn < gs && out + gn < n) {
            uint32_t pick = UINT32_MAX;
            double best = 0;
            for (uint32_t t = 0; t < n; t++) {
                int ident = 0;
                if (used[t])
                    continue;
                for (uint32_t q = 0; q < gn && !ident; q++)
                    ident = same_bbv(&l->b, t, g[q]);
                if (ident) {
                    pick = t;
                    break;
                }
                double v = ref_gain(l, g, gn, t);
                if (pick == UINT32_MAX || v > best) {
                    pick = t;
                    best = v;
                }
            }
            g[gn++] = pick;
            used[pick] = 1;
        }
        memcpy(perm + out, g, gn * sizeof *perm);
        out += gn;
    }
    free(used);
}

/* A small launch where every gain is distinct (block latencies of unrelated magnitudes), so
   that ties do not decide: both algorithms equal their transcriptions exactly. */
static void test_reference(void **state)
{
    static const double lat[4] = {1.0, 7.131, 53.37, 401.9};
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (uint32_t gs = 32; gs <= 64; gs += 32) {
            struct launch l;
            uint32_t *want = malloc(400 * sizeof *want), *got;
            struct rg_info info;
            launch_init(&l, 200 + 40 * (uint32_t)seed, 4, 64);
            memcpy(l.lat, lat, sizeof lat);
            fill_random(&l, seed, seed == 2 ? 2 : 3);   /* 2: classes of more than 32 */
            for (uint32_t t = 0; t < l.b.nthreads; t++)
                l.b.count[t * 4] = 1;                 /* the entry block */
            ref_greedy(&l, gs, want);
            got = regroup(RG_GREEDY, &l, gs, &info);
            assert_true(info.exact);
            assert_memory_equal(got, want, l.b.nthreads * sizeof *got);
            free(got);
            ref_greedy_max(&l, gs, want);
            got = regroup(RG_GREEDY_MAX, &l, gs, &info);
            assert_true(info.exact);
            assert_memory_equal(got, want, l.b.nthreads * sizeof *got);
            free(got);
            free(want);
            free(l.b.count);
        }
}

/* ---- a divergent loop ---- */

/* 4096 threads of `for (i = 0; i < n; i++) { body; if (i & 1) odd; }`: entry, loop head (n +
   1), body (n), odd iterations (n / 2), exit; n from a skewed distribution (3/4 of the
   threads 1-8, the rest up to 256), threads placed at random. */
static void loop_launch(struct launch *l, uint32_t tpc)
{
    static const double lat[5] = {40, 12, 180, 95, 30};
    uint64_t seed = 4242;
    launch_init(l, 4096, 5, tpc);
    for (uint32_t k = 0; k < 5; k++) {
        l->lat[k] = lat[k];
        l->blk[k].fixed = (uint32_t)lat[k];
    }
    for (uint32_t t = 0; t < 4096; t++) {
        uint32_t u = rnd(&seed) % 4, n = u ? 1 + rnd(&seed) % 8 : 1 + rnd(&seed) % 256;
        uint32_t v[5] = {1, n + 1, n, n / 2, 1};
        memcpy(l->b.count + t * 5, v, sizeof v);
    }
    shuffle(l, 17);
}

static void estimate(const struct launch *l, const uint32_t *perm, struct bbv_est *e)
{
    struct gpu_config c;
    conf_defaults(&c);
    assert_int_equal(bbv_estimate(&c, &l->b, perm, e), 0);
}

/* The weighted estimate falls for every algorithm (Sorting and Greedy-Max to 0.162 of the
   identity's, Greedy to 0.172). The scheduled one depends on how many CTAs wait for a slot.
   With 16 CTAs of 256 threads on 15 SMs x 6 slots every CTA runs at once and the estimate is
   the longest CTA: Greedy-Max's first CTA holds the 8 heaviest groups (its seeds in
   descending Lat_t), 439 038 cycles; Greedy forms groups in the order of the merges' gains,
   and the heavy threads left over after the pure groups merge with dissimilar ones at a low
   gain and are placed last, so its first CTA is a little lighter (430 608) and the rest of
   its heavy work sits in its last CTA: Greedy-Max's scheduled estimate is above Greedy's.
   With 64-thread CTAs on 2 SMs x 1 slot (64 CTAs queued) the descending order balances the
   SMs, as Fig. 5 says, and Greedy-Max's scheduled estimate is below Greedy's (566 145 and
   645 715 cycles). */
static void test_divergent_loop(void **state)
{
    struct bbv_est id, e[RG_NALGS];
    struct launch l;
    (void)state;
    loop_launch(&l, 256);
    estimate(&l, NULL, &id);
    for (unsigned a = 0; a < RG_NALGS; a++) {
        uint32_t *perm = regroup((enum rg_alg)a, &l, 32, NULL);
        estimate(&l, perm, &e[a]);
        assert_true(e[a].weighted < 0.5 * id.weighted);
        free(perm);
    }
    assert_true(e[RG_GREEDY_MAX].scheduled > e[RG_GREEDY].scheduled);
    l.b.tpc = 64;
    l.b.nsms = 2;
    l.b.occupancy = 1;
    for (unsigned a = RG_GREEDY; a < RG_NALGS; a++) {
        uint32_t *perm = regroup((enum rg_alg)a, &l, 32, NULL);
        estimate(&l, perm, &e[a]);
        free(perm);
    }
    assert_true(e[RG_GREEDY_MAX].scheduled < e[RG_GREEDY].scheduled);
    free(l.b.count);
}

/* Greedy-Max forms its groups in descending latency: each group's largest Lat_t (its seed)
   is at most the previous group's. */
static void test_greedy_max_descending(void **state)
{
    struct launch l;
    uint32_t *perm;
    double prev = 1e300;
    (void)state;
    loop_launch(&l, 256);
    perm = regroup(RG_GREEDY_MAX, &l, 32, NULL);
    for (uint32_t g0 = 0; g0 < 4096; g0 += 32) {
        double top = 0;
        for (uint32_t p = g0; p < g0 + 32; p++) {
            double v = ref_gain(&l, &perm[p], 1, UINT32_MAX);
            top = v > top ? v : top;
        }
        assert_true(top <= prev);
        prev = top;
    }
    free(perm);
    free(l.b.count);
}

static void test_deterministic(void **state)
{
    struct launch l;
    (void)state;
    loop_launch(&l, 256);
    for (unsigned a = 0; a < RG_NALGS; a++) {
        uint32_t *p1 = regroup((enum rg_alg)a, &l, 64, NULL);
        uint32_t *p2 = regroup((enum rg_alg)a, &l, 64, NULL);
        assert_memory_equal(p1, p2, 4096 * sizeof *p1);
        free(p1);
        free(p2);
    }
    free(l.b.count);
}

static void test_bad_input(void **state)
{
    static const uint32_t bad[] = {0, 33, 16};
    struct launch l;
    uint32_t perm[64];
    char err[256];
    (void)state;
    launch_init(&l, 64, 2, 32);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        assert_int_equal(rg_regroup(RG_GREEDY, &l.b, l.lat, bad[i], perm, err, sizeof err), -1);
        tu_assert_contains(err, "not a positive multiple of 32");
    }
    assert_int_equal(rg_regroup(RG_NALGS, &l.b, l.lat, 32, perm, err, sizeof err), -1);
    tu_assert_contains(err, "no algorithm");
    free(l.b.count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_permutation_shapes),
        cmocka_unit_test(test_sorting_order),
        cmocka_unit_test(test_identical_together),
        cmocka_unit_test(test_reference),
        cmocka_unit_test(test_divergent_loop),
        cmocka_unit_test(test_greedy_max_descending),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("regroup", tests, NULL, NULL);
}
