/*
 * test_dws_effect.c -- the effect of each DWS variant (002_ddcb2f79a6edfee4.txt, slides
 * "Results (1)" and "Implementation: Reconvergence Challenges"; docs/dws.md) on small kernels
 * written for it (tests/data/ptx/dws_effect.ptx): where the slides say a variant must split,
 * it splits exactly as often as the kernel gives it the chance, every split merges back, and
 * the splitting pays in cycles; where they say it must not, it does not, and the statistics
 * name the reason (split_branch_refused, split_mem_refused). Each test fails with its policy
 * neutered (a trigger that is never true, a split that is always refused).
 *
 * One CTA on gtx480: warp 0 does the work, the other warps (if any) run an ALU loop and stay
 * active (never suspended on memory) while it does. Every run's output is checked against
 * the kernel's definition (the file's header).
 */
#include "testutil.h"
#include "gpu/gpusim.h"
#include "sm/sm.h"
#include "sm/sm_dws.h"

/* A refused memory-split chance's counter (stats_list.h split_mem_refused) by wst's reason. */
#define MREF(st, r) ((st).t.split_mem_refused[(r) - 1])

#define PTX "tests/data/ptx/dws_effect.ptx"
#define NIN 4096
#define CFG "configs/gtx480.cfg"

enum { K_BRANCH, K_MEM };

/* What thread t of kernel k writes, by the file's definitions. */
static uint32_t want(unsigned k, const uint32_t *in, unsigned t)
{
    unsigned lane = t % 32;
    uint32_t acc = t, x;
    if (t >= 32) {
        for (unsigned i = 0; i < 2000; i++)
            acc = 3 * acc + 7;
        return acc;
    }
    if (k == K_BRANCH) {
        x = lane % 2 ? in[2048 + lane] : in[lane];
        return lane % 2 ? in[3072 + (x & 31)] : in[1024 + (x & 31)];
    }
    return in[lane] + 1 + (lane < 16 ? in[lane] : in[1024 + lane]) +
           (lane < 8 ? in[16 + lane] : in[2048 + lane]);
}

/* Kernel k on one CTA of nwarps warps with the --set options sets (n of them); the output
   checked; the launch's statistics. */
static struct gs_stats run(unsigned k, unsigned nwarps, const char *const *sets, int n)
{
    static const char *const names[] = { "dwse_branch", "dwse_mem" };
    static uint32_t in[NIN], out[128];
    struct gs_gpu *g;
    struct gs_module *mod;
    struct gs_stats st;
    uint64_t din, dout;
    const struct gs_arg args[2] = { GS_ARG(din), GS_ARG(dout) };
    char err[512];
    for (uint32_t i = 0; i < NIN; i++)
        in[i] = i * 2654435761u ^ i >> 3;
    if (gs_init(&g, CFG, (const char **)sets, n, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    assert_int_equal(gs_load_ptx(g, PTX, &mod), GS_OK);
    assert_int_equal(gs_malloc(g, &din, sizeof in), GS_OK);
    assert_int_equal(gs_malloc(g, &dout, sizeof out), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, din, in, sizeof in), GS_OK);
    assert_int_equal(gs_memset(g, dout, 0xA5, sizeof out), GS_OK);
    if (gs_launch(g, mod, names[k], (struct gs_dim3){ 1, 1, 1 },
                  (struct gs_dim3){ 32 * nwarps, 1, 1 }, 0, args, 2) != GS_OK)
        fail_msg("%s: %s", names[k], gs_last_error(g));
    assert_int_equal(gs_memcpy_dtoh(g, out, dout, sizeof out), GS_OK);
    gs_kernel_stats(g, &st);
    gs_destroy(g);
    for (unsigned t = 0; t < 32 * nwarps; t++)
        if (out[t] != want(k, in, t))
            fail_msg("%s %s: thread %u wrote %#x, want %#x", names[k], n ? sets[0] : "", t,
                     out[t], want(k, in, t));
    print_message("%s, %u warps, %s%s%s: %llu cycles, %llu warp insns, branch splits %llu of "
                  "%llu chances (refused: rule %llu, full %llu), memory splits %llu of %llu "
                  "(refused: policy %llu, full %llu), %llu lanes ahead, merges %llu + %llu\n",
                  names[k], nwarps, n ? sets[0] : "dws=off", n > 1 ? " " : "",
                  n > 1 ? sets[1] : "", (unsigned long long)st.cycles,
                  (unsigned long long)st.warp_insns, (unsigned long long)st.t.split_branch,
                  (unsigned long long)st.t.split_br_cand,
                  (unsigned long long)st.t.split_br_refused[SM_BR_RULE],
                  (unsigned long long)st.t.split_br_refused[SM_BR_FULL],
                  (unsigned long long)st.t.split_mem, (unsigned long long)st.t.split_mem_cand,
                  (unsigned long long)MREF(st, WST_MR_POLICY),
                  (unsigned long long)MREF(st, WST_MR_FULL),
                  (unsigned long long)st.t.split_runahead_lanes,
                  (unsigned long long)st.t.split_merge_pc, (unsigned long long)st.t.split_merge_rpc);
    return st;
}

/* Every split of a run merged back (a warp finishes whole), and every chance accounted for:
   chances = splits + refusals, per kind. */
static void assert_accounted(const struct gs_stats *st)
{
    uint64_t rb = 0, rm = 0;
    for (unsigned i = 0; i < GS_DWS_BREF; i++)
        rb += st->t.split_br_refused[i];
    for (unsigned i = 0; i < GS_DWS_MREF; i++)
        rm += st->t.split_mem_refused[i];
    assert_int_equal(st->t.split_merge_pc + st->t.split_merge_rpc,
                     st->t.split_branch + st->t.split_mem);
    assert_int_equal(st->t.split_br_cand, st->t.split_branch + rb);
    assert_int_equal(st->t.split_mem_cand, st->t.split_mem + rm);
}

/* Runs of kernel k on nwarps warps under variant `dws` (and one more set, or NULL). */
static struct gs_stats run_v(unsigned k, unsigned nwarps, const char *dws, const char *more)
{
    const char *sets[2] = { dws, more };
    struct gs_stats st = run(k, nwarps, sets, more ? 2 : 1);
    assert_accounted(&st);
    return st;
}

/* The cycles of a run of kernel k on one warp without DWS. */
static uint64_t off_cycles(unsigned k)
{
    const char *off[] = { "dws=off" };
    return run(k, 1, off, 1).cycles;
}

/* Tolerance of the cycle checks: a split run must save at least 5 % of the run without DWS.
   Source: this model, one warp on gtx480 -- dwse_branch's branch split saves 209 of 1 409
   cycles (14.8 %: the two sides' misses overlap), dwse_mem's memory splits 111 of 1 597
   (7.0 %: lanes 0-15 issue their c load while lanes 16-31 still wait for b); a run without
   the split saves nothing. */
#define SAVES(x, base) ((x) * 100 <= (base) * 95)

/* DWS.BranchOnly ("Subdivide on branch divergence alone"): dwse_branch's one divergent branch
   splits the warp (one chance, one split, one merge) and the two sides' loads overlap; it
   never splits on a load whose lanes hit and miss (dwse_mem: both chances refused by its
   policy). */
static void test_branch_only(void **state)
{
    struct gs_stats b, m;
    (void)state;
    b = run_v(K_BRANCH, 1, "dws=branch", NULL);
    assert_int_equal(b.t.split_br_cand, 1);
    assert_int_equal(b.t.split_branch, 1);
    assert_int_equal(b.t.split_mem, 0);
    assert_true(SAVES(b.cycles, off_cycles(K_BRANCH)));
    m = run_v(K_MEM, 1, "dws=branch", NULL);
    assert_int_equal(m.t.split_mem_cand, 2);
    assert_int_equal(m.t.split_mem, 0);
    assert_int_equal(MREF(m, WST_MR_POLICY), 2);
    assert_int_equal(m.cycles, off_cycles(K_MEM));
}

/* The over-subdivision rule (002 "Implementation: Reconvergence Challenges": "subdivide only
   when all available warp-splits are suspended"; dws_oversub = 1, the default): with two
   other warps active in their ALU loop, dwse_branch's divergent branch is refused by the rule
   under every variant that splits on branches; with the rule off (dws_oversub = 0) it splits. */
static void test_oversub_rule(void **state)
{
    static const char *const v[] = { "dws=branch", "dws=aggress", "dws=lazy", "dws=revive" };
    (void)state;
    for (unsigned i = 0; i < 4; i++) {
        struct gs_stats on = run_v(K_BRANCH, 3, v[i], NULL);
        struct gs_stats off = run_v(K_BRANCH, 3, v[i], "dws_oversub=0");
        assert_int_equal(on.t.split_br_cand, 1);
        assert_int_equal(on.t.split_branch, 0);
        assert_int_equal(on.t.split_br_refused[SM_BR_RULE], 1);
        assert_int_equal(off.t.split_branch, 1);
    }
}

/* DWS.AggressSplit ("Subdivide on every divergent cache access"): dwse_mem's two hit/miss
   loads each split -- even with two other warps active -- 16 lanes run ahead, then 8 of
   them; on one warp the run-ahead lanes save cycles. */
static void test_aggress(void **state)
{
    struct gs_stats a, one;
    (void)state;
    a = run_v(K_MEM, 3, "dws=aggress", NULL);
    assert_int_equal(a.t.split_mem_cand, 2);
    assert_int_equal(a.t.split_mem, 2);
    assert_int_equal(a.t.split_runahead_lanes, 16 + 8);
    one = run_v(K_MEM, 1, "dws=aggress", NULL);
    assert_int_equal(one.t.split_mem, 2);
    assert_true(SAVES(one.cycles, off_cycles(K_MEM)));
}

/* DWS.LazySplit ("Subdivide when there is only one active warp left"): on one warp dwse_mem's
   first hit/miss load splits the warp (16 lanes run ahead; cycles saved); the second comes
   from that split, which LazySplit does not subdivide again (its policy refuses it); with two
   other warps active neither splits. */
static void test_lazy(void **state)
{
    struct gs_stats one, busy;
    (void)state;
    one = run_v(K_MEM, 1, "dws=lazy", NULL);
    assert_int_equal(one.t.split_mem, 1);
    assert_int_equal(one.t.split_runahead_lanes, 16);
    assert_int_equal(MREF(one, WST_MR_POLICY), 1);
    assert_true(SAVES(one.cycles, off_cycles(K_MEM)));
    busy = run_v(K_MEM, 3, "dws=lazy", NULL);
    assert_int_equal(busy.t.split_mem_cand, 2);
    assert_int_equal(busy.t.split_mem, 0);
    assert_int_equal(MREF(busy, WST_MR_POLICY), 2);
}

/* DWS.ReviveSplit ("Same with DWS.LazySplit, but also being able to subdivide suspended
   warp-splits"): on one warp both of dwse_mem's hit/miss loads split, the second one the
   suspended run-ahead split of the first (16 + 8 lanes ahead, where LazySplit has 16); with two
   other warps active neither splits. */
static void test_revive(void **state)
{
    struct gs_stats one, busy;
    (void)state;
    one = run_v(K_MEM, 1, "dws=revive", NULL);
    assert_int_equal(one.t.split_mem, 2);
    assert_int_equal(one.t.split_runahead_lanes, 16 + 8);
    assert_true(SAVES(one.cycles, off_cycles(K_MEM)));
    busy = run_v(K_MEM, 3, "dws=revive", NULL);
    assert_int_equal(busy.t.split_mem, 0);
    assert_int_equal(MREF(busy, WST_MR_POLICY), 2);
}

/* DWS.ReviveSplit.MemOnly ("Subdivide on memory latency divergence only"): dwse_branch's
   divergent branch is no split chance at all and runs as without DWS; dwse_mem splits as
   ReviveSplit does. */
static void test_revive_mem(void **state)
{
    struct gs_stats b, m;
    (void)state;
    b = run_v(K_BRANCH, 1, "dws=revive_mem", NULL);
    assert_int_equal(b.t.split_br_cand, 0);
    assert_int_equal(b.t.split_branch, 0);
    assert_int_equal(b.cycles, off_cycles(K_BRANCH));
    m = run_v(K_MEM, 1, "dws=revive_mem", NULL);
    assert_int_equal(m.t.split_mem, 2);
    assert_int_equal(m.t.split_runahead_lanes, 16 + 8);
    assert_true(SAVES(m.cycles, off_cycles(K_MEM)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_branch_only),
        cmocka_unit_test(test_oversub_rule),
        cmocka_unit_test(test_aggress),
        cmocka_unit_test(test_lazy),
        cmocka_unit_test(test_revive),
        cmocka_unit_test(test_revive_mem),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
