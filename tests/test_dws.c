/*
 * test_dws.c -- DWS (002_ddcb2f79a6edfee4.txt, docs/dws.md) on the bench suite: every kernel
 * computes correct results under every variant on gtx480, configs/dws.cfg and
 * configs/kepler.cfg (timing model, test size), with every split merged back and every split
 * chance split or refused for a counted reason; splits happen and reconverge, the statistics
 * agree with each other; a slot arrived with its pop timer running merges only when the timer
 * is done; barriers that only some lanes of a warp reach give the results and the arrivals of
 * dws = off (tests/data/ptx/divergent_barrier.ptx); warp-level instructions (shfl, vote,
 * activemask, a barrier) of a split warp give the results and the arrivals of dws = off
 * (tests/data/ptx/warp_sync.ptx, and warpreduce on one SM); the combinations DWS refuses are
 * refused with a message.
 */
#include "bench_run.h"

#define DWSCFG "configs/dws.cfg"
#define KEPLER "configs/kepler.cfg"
static const struct variant variants[] = {
    { "branch",            { "dws=branch" }, 1, NULL },
    { "aggress",           { "dws=aggress" }, 1, NULL },
    { "lazy",              { "dws=lazy" }, 1, NULL },
    { "revive",            { "dws=revive" }, 1, NULL },
    { "revive_mem",        { "dws=revive_mem" }, 1, NULL },
    { "dwscfg-branch",     { "dws=branch" }, 1, DWSCFG },
    { "dwscfg-aggress",    { "dws=aggress" }, 1, DWSCFG },
    { "dwscfg-lazy",       { "dws=lazy" }, 1, DWSCFG },
    { "dwscfg-revive",     { "dws=revive" }, 1, DWSCFG },
    { "dwscfg-revive_mem", { "dws=revive_mem" }, 1, DWSCFG },
    { "kepler-branch",     { "dws=branch" }, 1, KEPLER },
    { "kepler-aggress",    { "dws=aggress" }, 1, KEPLER },
    { "kepler-lazy",       { "dws=lazy" }, 1, KEPLER },
    { "kepler-revive",     { "dws=revive" }, 1, KEPLER },
    { "kepler-revive_mem", { "dws=revive_mem" }, 1, KEPLER },
    /* the over-subdivision rule off (dws_oversub = 0): branch splits wherever the table has
       room, the heaviest splitting */
    { "branch-norule",     { "dws=branch", "dws_oversub=0" }, 2, NULL },
    { "aggress-norule",    { "dws=aggress", "dws_oversub=0" }, 2, NULL },
    { "lazy-norule",       { "dws=lazy", "dws_oversub=0" }, 2, NULL },
    { "revive-norule",     { "dws=revive", "dws_oversub=0" }, 2, NULL },
    { "dwscfg-revive-norule", { "dws=revive", "dws_oversub=0" }, 2, DWSCFG },
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* set and, for a DWS variant, dws_oversub = 0 (the over-subdivision rule off: the warp-level
   tests below need splits in CTAs of several warps, which the rule refuses while another warp
   is active) into out; returns how many. */
static int with_splits(const char *set, const char **out)
{
    out[0] = set;
    out[1] = "dws_oversub=0";
    return !strncmp(set, "dws=", 4) && strcmp(set, "dws=off") ? 2 : 1;
}

#define run_stats bench_stats

/* Splits happen where the kernels diverge, and every split is merged again: a branch-divergent
   kernel (nqueens) splits on branches, a memory-divergent one (bstsearch) on the hit mask
   under aggress and not under branch; merges equal splits (a split slot is freed only by a
   merge, and a warp finishes only whole: its home holds every lane); the table was used. */
static void test_splits_happen(void **state)
{
    const char *br[] = { "dws=branch" }, *ag[] = { "dws=aggress" }, *off[] = { "dws=off" };
    struct gs_stats b, a, o;
    (void)state;
    b = run_stats("nqueens", br, 1);
    print_message("nqueens branch: %llu branch splits, %llu pc merges, %llu at the stack PD, "
                  "WST max %llu\n", (unsigned long long)b.t.split_branch,
                  (unsigned long long)b.t.split_merge_pc, (unsigned long long)b.t.split_merge_rpc,
                  (unsigned long long)b.t.wst_occ_max);
    assert_true(b.t.split_branch > 0);
    assert_int_equal(b.t.split_mem, 0);
    assert_true(b.t.wst_occ_max > 0);
    a = run_stats("bstsearch", ag, 1);
    print_message("bstsearch aggress: %llu branch, %llu memory splits, %llu lanes ahead, "
                  "%llu merges\n", (unsigned long long)a.t.split_branch,
                  (unsigned long long)a.t.split_mem, (unsigned long long)a.t.split_runahead_lanes,
                  (unsigned long long)(a.t.split_merge_pc + a.t.split_merge_rpc));
    assert_true(a.t.split_mem > 0);
    assert_true(a.t.split_runahead_lanes >= a.t.split_mem);
    assert_true(a.t.split_runahead_lanes < 32 * a.t.split_mem);
    /* every split slot is merged back (a warp can only finish whole) */
    assert_int_equal(a.t.split_merge_pc + a.t.split_merge_rpc, a.t.split_branch + a.t.split_mem);
    assert_int_equal(b.t.split_merge_pc + b.t.split_merge_rpc, b.t.split_branch);
    o = run_stats("bstsearch", off, 1);
    assert_int_equal(o.t.split_branch + o.t.split_mem + o.t.wst_occ_max, 0);
    assert_int_equal(o.thread_insns, a.thread_insns);    /* the same work, in more pieces */
    assert_true(a.warp_insns > o.warp_insns);
}

/* A split slot whose pop brings it back to its regime level arrives at the reconvergence
   point with its pop timer running (simt_pop_cycles: kepler's 32); simt merges no slot with
   stack work left, so wst must not see it idle until the timer is done. Memory splits under
   a pop timer on gtx480: each kernel correct, its splits merged back. */
static void test_merge_waits_pop_timer(void **state)
{
    const char *sets[] = { "dws=revive_mem", "simt_pop_cycles=32" };
    const char *names[] = { "mergepass", "nqueens", "bstsearch" };
    (void)state;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct gs_stats st = run_stats(names[i], sets, 2);
        print_message("%s revive_mem, pop timer 32: %llu memory splits, %llu merges\n",
                      names[i], (unsigned long long)st.t.split_mem,
                      (unsigned long long)(st.t.split_merge_pc + st.t.split_merge_rpc));
        assert_true(st.t.split_mem > 0);
        assert_int_equal(st.t.split_merge_pc + st.t.split_merge_rpc, st.t.split_mem);
    }
}

/* What thread t of a CTA of divergent_barrier.ptx's kernel k (0 one, 1 two, 2 loop) writes,
   by the file's definitions, the CTA's inputs at in. */
static int32_t divbar_want(unsigned k, const int32_t *in, int t, int n)
{
    int j = (t + 32) % n, jj = (j + 32) % n, low = t % 32 < 16, cnt = t % 4 + 1, x = j ^ 16;
    switch (k) {
    case 0: return low ? 2 * in[x] : in[(x + 32) % n] + 1;     /* t of thread x */
    case 1: return low ? in[j] : 3 * in[j];
    default: return cnt * in[jj] + cnt * (cnt - 1) / 2;
    }
}

/* Kernel k of tests/data/ptx/divergent_barrier.ptx on 2 CTAs of 128 threads on cfg with set;
   the results checked; returns the cycles. */
static uint64_t run_divbar(unsigned k, const char *cfg, const char *set)
{
    enum { NCTA = 2, NTHR = 128, N = NCTA * NTHR };
    static const char *const names[] = { "divbar_one", "divbar_two", "divbar_loop" };
    struct gs_gpu *g;
    struct gs_module *mod;
    struct gs_stats st;
    uint64_t din, dout;
    int32_t in[N], out[N];
    const struct gs_arg args[2] = { GS_ARG(din), GS_ARG(dout) };
    const char *sets[2];
    int nset = with_splits(set, sets);
    char err[512];
    for (int i = 0; i < N; i++)
        in[i] = 7 * i + 5;
    if (gs_init(&g, cfg, sets, nset, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    assert_int_equal(gs_load_ptx(g, "tests/data/ptx/divergent_barrier.ptx", &mod), GS_OK);
    assert_int_equal(gs_malloc(g, &din, sizeof in), GS_OK);
    assert_int_equal(gs_malloc(g, &dout, sizeof out), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, din, in, sizeof in), GS_OK);
    assert_int_equal(gs_memset(g, dout, 0xFF, sizeof out), GS_OK);
    if (gs_launch(g, mod, names[k], (struct gs_dim3){ NCTA, 1, 1 },
                  (struct gs_dim3){ NTHR, 1, 1 }, 0, args, 2) != GS_OK)
        fail_msg("%s %s %s: %s", names[k], cfg, set, gs_last_error(g));
    assert_int_equal(gs_memcpy_dtoh(g, out, dout, sizeof out), GS_OK);
    for (int i = 0; i < N; i++) {
        int32_t want = divbar_want(k, in + i / NTHR * NTHR, i % NTHR, NTHR);
        if (out[i] != want)
            fail_msg("%s %s %s: thread %d wrote %d, want %d", names[k], cfg, set, i, out[i],
                     want);
    }
    gs_kernel_stats(g, &st);
    print_message("%s %s %s: %llu cycles, %llu barrier arrivals\n", names[k], cfg, set,
                  (unsigned long long)st.cycles, (unsigned long long)st.barriers);
    gs_destroy(g);
    return st.barriers;
}

/* Barriers reached by only some lanes of every warp (on one side of a branch, before a barrier
   of the whole warp; on each side its own; in a loop of a trip count per lane): under every
   variant (the over-subdivision rule off, with_splits, so that the warps of the 128-thread
   CTAs split) the results are correct, as on the functional model and the timing model without
   DWS, and the warps arrive as often as without DWS. Before, a split held at a barrier waited
   for its warp to be whole, which never came: a false deadlock. */
static void test_divergent_barrier(void **state)
{
    static const char *const sets[] = { "dws=branch", "dws=aggress", "dws=lazy", "dws=revive",
                                        "dws=revive_mem" };
    (void)state;
    for (unsigned k = 0; k < 3; k++) {
        uint64_t base = run_divbar(k, "configs/gtx480.cfg", "dws=off");
        assert_int_equal(run_divbar(k, "configs/gtx480.cfg", "model=functional"), base);
        for (unsigned v = 0; v < sizeof sets / sizeof sets[0]; v++)
            assert_int_equal(run_divbar(k, "configs/gtx480.cfg", sets[v]), base);
        assert_int_equal(run_divbar(k, DWSCFG, "dws=revive"), base);
    }
}

/* x of lane l of a warp whose inputs are at v, in warp_sync.ptx's ws_branch, ws_nest, ws_bar. */
static uint32_t ws_x(const int32_t *v, unsigned l)
{
    uint32_t x = (uint32_t)v[l];
    for (unsigned k = 0; l % 2 && k < 16; k++)
        x = 3 * x + 7;
    return x;
}

/* The words thread t of warp_sync.ptx's ws_branch (nest = 0) or ws_nest (1) writes (4 per
   thread), the warp's inputs at v (32 of them), by the file's definitions. */
static void wsb_want(const int32_t *v, unsigned t, int nest, uint32_t *o)
{
    uint32_t x[32], odd = 0, bal = 0;
    for (unsigned l = 0; l < 32; l++) {
        x[l] = ws_x(v, l);
        odd |= (x[l] & 1) << l;
        bal |= (uint32_t)(l % 2 && v[l] > 0) << l;
    }
    o[0] = x[t ^ 1];
    o[1] = odd;
    o[2] = 0xffffffffu;
    o[3] = t % 2 ? 0xaaaaaaaau ^ bal ^ (uint32_t)v[1] : 0;
    if (nest) {                            /* lanes 0-15 alone in the region */
        o[0] = t < 16 ? o[0] : 0;
        o[1] = t < 16 ? odd & 0xffffu : 0;
        o[2] = t < 16 ? 0xffffu : 0;
        o[3] = x[t];
    }
}

/* The same for ws_mem: v the warp's inputs, b[32] its loads of b, c thread t's load of c. */
static void wsm_want(const int32_t *v, const uint32_t *b, uint32_t c, unsigned t, uint32_t *o)
{
    uint32_t odd = 0;
    for (unsigned l = 0; l < 32; l++)
        odd |= (b[l] & 1) << l;
    o[0] = b[t ^ 1];
    o[1] = odd;
    o[2] = 0xffffffffu;
    o[3] = (uint32_t)v[t] + b[t] + c;
}

/* The words thread i of kernel k of warp_sync.ptx (0 ws_branch, 1 ws_mem, 2 ws_nest, 3 ws_bar)
   writes, in CTAs of nthr threads, inputs in and far. */
static void ws_want(unsigned k, unsigned i, unsigned nthr, const int32_t *in, const int32_t *far,
                    uint32_t *want)
{
    const int32_t *v = in + i / 32 * 32;
    uint32_t b[32];
    unsigned j = (i % nthr + 32) % nthr + i / nthr * nthr;   /* ws_bar's lane of the next warp */
    for (unsigned l = 0; l < 32; l++)
        b[l] = (uint32_t)(l % 2 ? far[32 * (i / 32 * 32 + l)] : v[l ^ 1]);
    if (k == 1) {
        wsm_want(v, b, (uint32_t)far[32 * i + 1], i % 32, want);
    } else if (k == 3) {
        want[0] = i % 32 < 16 ? ws_x(in + j / 32 * 32, j % 32) : 0;
        want[1] = want[2] = 0;
        want[3] = ws_x(v, i % 32);
    } else {
        wsb_want(v, i % 32, k == 2, want);
    }
}

/* Kernel k of tests/data/ptx/warp_sync.ptx (0 ws_branch, 1 ws_mem, 2 ws_nest, 3 ws_bar) on 2
   CTAs of 64 threads (ws_nest, ws_bar: 256, 8 warps, a split each, fill configs/dws.cfg's
   table) on cfg with set; the results checked; returns the statistics. */
static struct gs_stats run_wsync(unsigned k, const char *cfg, const char *set)
{
    enum { NCTA = 2, NMAX = 256, N = NCTA * NMAX, FAR = 32 * N };
    static const char *const names[] = { "ws_branch", "ws_mem", "ws_nest", "ws_bar" };
    const unsigned nthr = k >= 2 ? 256 : 64;
    static int32_t in[N], far[FAR];
    static uint32_t out[4 * N];
    struct gs_gpu *g;
    struct gs_module *mod;
    struct gs_stats st;
    uint64_t din, dfar, dout;
    const struct gs_arg a0[2] = { GS_ARG(din), GS_ARG(dout) };
    const struct gs_arg a1[3] = { GS_ARG(din), GS_ARG(dfar), GS_ARG(dout) };
    const int mem = k == 1;
    const char *sets[2];
    int nset = with_splits(set, sets);
    char err[512];
    for (uint32_t i = 0; i < N; i++)
        in[i] = (int32_t)(i * 2654435761u ^ i >> 1);
    for (uint32_t i = 0; i < FAR; i++)
        far[i] = (int32_t)(3 * i + 1 + (i >> 7));
    if (gs_init(&g, cfg, sets, nset, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    assert_int_equal(gs_load_ptx(g, "tests/data/ptx/warp_sync.ptx", &mod), GS_OK);
    assert_int_equal(gs_malloc(g, &din, sizeof in), GS_OK);
    assert_int_equal(gs_malloc(g, &dfar, sizeof far), GS_OK);
    assert_int_equal(gs_malloc(g, &dout, sizeof out), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, din, in, sizeof in), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, dfar, far, sizeof far), GS_OK);
    assert_int_equal(gs_memset(g, dout, 0xA5, sizeof out), GS_OK);
    if (gs_launch(g, mod, names[k], (struct gs_dim3){ NCTA, 1, 1 },
                  (struct gs_dim3){ nthr, 1, 1 }, 0, mem ? a1 : a0, mem ? 3 : 2) != GS_OK)
        fail_msg("%s %s %s: %s", names[k], cfg, set, gs_last_error(g));
    assert_int_equal(gs_memcpy_dtoh(g, out, dout, sizeof out), GS_OK);
    gs_kernel_stats(g, &st);
    gs_destroy(g);
    for (unsigned i = 0; i < NCTA * nthr; i++) {
        uint32_t want[4];
        ws_want(k, i, nthr, in, far, want);
        for (unsigned w = 0; w < 4; w++)
            if (out[4 * i + w] != want[w])
                fail_msg("%s %s %s: thread %u word %u = %#x, want %#x", names[k], cfg, set, i, w,
                         out[4 * i + w], want[w]);
    }
    print_message("%s %s %s: %llu cycles, %llu branch splits, %llu memory splits, %llu barrier "
                  "arrivals\n", names[k], cfg, set, (unsigned long long)st.cycles,
                  (unsigned long long)st.t.split_branch, (unsigned long long)st.t.split_mem,
                  (unsigned long long)st.barriers);
    return st;
}

/* Warp-level instructions (shfl, vote, activemask) of a warp whose splits have not merged yet:
   after a divergent region whose one side is long (ws_branch: the side that skips it reaches
   the shuffle first), after a load whose lanes hit and miss the L1 (ws_mem: the hit lanes
   run ahead) and in a region that lanes of two splits enter, one of them on its own stack
   (ws_nest: they cannot merge), every lane sees what it sees under dws = off; a barrier in
   such a region (ws_bar) is arrived at once per warp, as under dws = off. The splits happen
   (a kernel that did not split would not test anything: the over-subdivision rule is off,
   with_splits). Before, a split issued them with its
   own lanes: a shuffle read a lane of another split before that split wrote it, a vote or
   activemask saw only the split's lanes, the two splits at a barrier arrived twice. */
static void test_warp_sync(void **state)
{
    static const char *const sets[] = { "dws=off", "dws=branch", "dws=aggress", "dws=lazy",
                                        "dws=revive", "dws=revive_mem" };
    static const char *const cfgs[] = { "configs/gtx480.cfg", DWSCFG };
    (void)state;
    for (unsigned c = 0; c < 2; c++) {
        uint64_t bars = 0;
        for (unsigned v = 0; v < sizeof sets / sizeof sets[0]; v++) {
            struct gs_stats b = run_wsync(0, cfgs[c], sets[v]);
            struct gs_stats m = run_wsync(1, cfgs[c], sets[v]);
            struct gs_stats e = run_wsync(2, cfgs[c], sets[v]);
            struct gs_stats r = run_wsync(3, cfgs[c], sets[v]);
            if (v >= 1 && v <= 4)
                assert_true(b.t.split_branch > 0 && e.t.split_branch > 0 &&
                            r.t.split_branch > 0);
            if (v >= 2)
                assert_true(m.t.split_mem > 0);
            bars = v ? bars : r.barriers;         /* sets[0]: dws = off */
            assert_int_equal(r.barriers, bars);
        }
    }
}

/* The bench kernel warpreduce at the test size on one SM that runs one CTA at a time (so that
   the later CTAs find the instruction cache warm and a split's side that skips the divergent
   region reaches the shuffles after it first): correct under the branch variants (the
   over-subdivision rule off, so that its warps split). */
static void test_warpreduce_one_sm(void **state)
{
    static const char *const vars[] = { "dws=branch", "dws=revive" };
    (void)state;
    for (unsigned v = 0; v < 2; v++) {
        const char *sets[] = { vars[v], "num_sms=1", "max_ctas_per_sm=1", "dws_oversub=0" };
        struct gs_stats st = run_stats("warpreduce", sets, 4);
        assert_true(st.t.split_branch > 0);
    }
}

/* The combinations DWS refuses, each with a message that names the reason. */
static void test_bad_combinations(void **state)
{
    struct gs_gpu *g = NULL;
    char err[512];
    const char *vt[] = { "dws=branch", "vt=on" }, *vtw[] = { "dws=lazy", "vtw=hw" };
    const char *fn[] = { "dws=aggress", "model=functional" };
    const char *big[] = { "dws=branch", "dws_wst_factor=3" };
    (void)state;
    assert_int_not_equal(gs_init(&g, "configs/gtx480.cfg", vt, 2, err, sizeof err), GS_OK);
    tu_assert_contains(err, "cannot be combined with vt");
    assert_int_not_equal(gs_init(&g, "configs/gtx480.cfg", vtw, 2, err, sizeof err), GS_OK);
    tu_assert_contains(err, "cannot be combined with vtw");
    assert_int_not_equal(gs_init(&g, "configs/gtx480.cfg", fn, 2, err, sizeof err), GS_OK);
    tu_assert_contains(err, "needs model = timing");
    assert_int_not_equal(gs_init(&g, "configs/gtx480.cfg", big, 2, err, sizeof err), GS_OK);
    tu_assert_contains(err, "= 144 table entries; the SM has at most 128 slots");
}

/* One (kernel, variant): its results correct, every split merged back (merges = splits: a
   split slot is freed only by a merge and a warp finishes only whole) and every split chance
   accounted for (chances = splits + refusals by reason, branch and memory apart). */
static void test_dws_kernel(void **state)
{
    const struct job *j = *state;
    struct gs_stats st;
    uint64_t rb = 0, rm = 0;
    char msg[1024];
    if (bench_run_cfg(j->b, j->v->cfg, j->v->set, j->v->nset, &st, msg, sizeof msg)) {
        print_error("%s: %s\n", j->name, msg);
        fail();
    }
    for (unsigned i = 0; i < GS_DWS_BREF; i++)
        rb += st.t.split_br_refused[i];
    for (unsigned i = 0; i < GS_DWS_MREF; i++)
        rm += st.t.split_mem_refused[i];
    assert_int_equal(st.t.split_merge_pc + st.t.split_merge_rpc,
                     st.t.split_branch + st.t.split_mem);
    assert_int_equal(st.t.split_br_cand, st.t.split_branch + rb);
    assert_int_equal(st.t.split_mem_cand, st.t.split_mem + rm);
}

int main(void)
{
    const struct CMUnitTest extra[] = {
        cmocka_unit_test(test_bad_combinations),
        cmocka_unit_test(test_divergent_barrier),
        cmocka_unit_test(test_warp_sync),
        cmocka_unit_test(test_warpreduce_one_sm),
        cmocka_unit_test(test_splits_happen),
        cmocka_unit_test(test_merge_waits_pop_timer),
    };
    unsigned n, t, nx = sizeof extra / sizeof extra[0];
    struct CMUnitTest *tests;
    struct job *jobs;
    int rc;
    bench_all(&n);
    tests = calloc(n * NVARIANTS + nx, sizeof *tests);
    jobs = calloc(n * NVARIANTS, sizeof *jobs);
    if (!tests || !jobs)
        return 1;
    t = bench_jobs(variants, NVARIANTS, jobs, tests);
    for (unsigned i = 0; i < t; i++)
        tests[i].test_func = test_dws_kernel;
    tu_filters();
    memcpy(tests + t, extra, nx * sizeof *extra);
    rc = _cmocka_run_group_tests("dws", tests, t + nx, NULL, NULL);
    free(tests);
    free(jobs);
    return rc;
}
