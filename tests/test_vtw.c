/*
 * test_vtw.c -- VTW end to end (000_0da6b8b480bd0740.txt Sections 4.1-4.4): every bench kernel
 * at the test size computes correct results when it runs transformed -- the hardware form
 * (vtw = hw) with each lane policy (same, slowest, lowest) under GTO and under the
 * progress-aware scheduler, and the software form (vtw = sw) -- on the timing and the
 * functional model. The runs use one SM with two CTA slots, so that each virtual TB runs many
 * logical TBs (at the gtx480 default the test size's few TBs would all be resident: one
 * iteration each); one variant runs on the plain gtx480 configuration; three with a
 * next-TB-index unit of latency 1 (its reply in the cycle of its instruction's reserve).
 *
 * The shared-memory restriction of Section 4.4: a kernel whose second warp reads the first
 * warp's shared-memory words late after the barrier computes a wrong result with the
 * restriction off (vtw_smem_hold = 0: the first warp's next iteration overwrites them) and the
 * right one with it on, on both models. Also: the launch uses NumVirtualTBs = MIN(residency,
 * logical TBs) CTAs; bad combinations of keys are refused; bad input gives a clear error: VTW's
 * instructions in a user's PTX, a logical grid beyond the 32-bit TB index, and an exit before
 * a barrier (which VTW cannot run) on both models. Under vtw = hw the per-TB statistics (000
 * Table 1's divergence, DWR) count logical TBs.
 *
 * Effect tests (issue 38), on tests/data/ptx/vtw_order.ptx, which records the order in which
 * (logical TB, warp) pairs finish: Algorithm 1 (Sec. 4.3.2) gives the SFU to the lagging warp
 * of a DiffIter TB in the fast phase and to the warp with less progress in the slow phase, so
 * the order differs from oldest-first (vtw_keys = zero) and the kernel finishes sooner -- both
 * seen failing with the keys zeroed in sm_issue.c, the slow-phase one also with the slow bit
 * held at 0; the three lane policies (Sec. 4.2.2) give the first warp to finish an iteration
 * three different logical warps -- seen failing with ntb's assignment forced to SameLane and
 * with SlowestLane's order replaced by LowestToHighestLane's.
 */
#include "bench_run.h"

#define STRESS "num_sms=1", "max_ctas_per_sm=2"

static const struct variant variants[] = {
    { "hw-gto",          { STRESS, "vtw=hw" }, 3, NULL },
    { "hw-vtw",          { STRESS, "vtw=hw", "sched_policy=vtw" }, 4, NULL },
    { "hw-vtw-slowest",  { STRESS, "vtw=hw", "sched_policy=vtw", "vtw_lane=slowest" }, 5, NULL },
    { "hw-vtw-lowest",   { STRESS, "vtw=hw", "sched_policy=vtw", "vtw_lane=lowest" }, 5, NULL },
    { "sw-gto",          { STRESS, "vtw=sw" }, 3, NULL },
    { "func-hw-same",    { STRESS, "vtw=hw", "model=functional" }, 4, NULL },
    { "func-hw-slowest", { STRESS, "vtw=hw", "model=functional", "vtw_lane=slowest" }, 5, NULL },
    { "func-hw-lowest",  { STRESS, "vtw=hw", "model=functional", "vtw_lane=lowest" }, 5, NULL },
    { "func-sw",         { STRESS, "vtw=sw", "model=functional" }, 4, NULL },
    { "gtx480-hw-vtw",   { "vtw=hw", "sched_policy=vtw" }, 2, NULL },
    { "hw-gto-lat1",     { STRESS, "vtw=hw", "vtw_latency=1" }, 4, NULL },
    { "hw-vtw-lat1",     { STRESS, "vtw=hw", "sched_policy=vtw", "vtw_latency=1" }, 5, NULL },
    { "hw-vtw-slowest-lat1", { STRESS, "vtw=hw", "sched_policy=vtw", "vtw_lane=slowest",
                               "vtw_latency=1" }, 6, NULL },
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* Two warps per CTA: every thread writes its word of shared memory, a barrier, then the
   second warp spins before both read the other warp's word and store it. */
static const char *late_reader_ptx =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry late_reader(.param .u64 out)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  shl.b32 %r3, %r2, 6;\n  add.u32 %r4, %r3, %r1;\n"       /* r4 = ctaid*64 + tid */
    "  mov.u32 %r5, s;\n  shl.b32 %r6, %r1, 2;\n  add.u32 %r7, %r5, %r6;\n"
    "  st.shared.u32 [%r7], %r4;\n  bar.sync 0;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra READ;\n"
    "  mov.u32 %r8, 0;\n"
    "SPIN:\n  add.u32 %r8, %r8, 1;\n  setp.lt.u32 %p2, %r8, 400;\n  @%p2 bra SPIN;\n"
    "READ:\n  xor.b32 %r9, %r1, 32;\n  shl.b32 %r10, %r9, 2;\n  add.u32 %r10, %r5, %r10;\n"
    "  ld.shared.u32 %r11, [%r10];\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r11;\n"
    "  ret;\n}\n";

#define LR_TBS 8

/* Run late_reader on LR_TBS logical TBs on one SM with one CTA slot; returns the number of
   wrong words. */
static int late_reader_wrong(const char *model, const char *hold)
{
    const char *sets[] = { "num_sms=1", "max_ctas_per_sm=1", "vtw=hw", model, hold };
    struct gs_gpu *g;
    struct gs_module *m;
    uint32_t out[LR_TBS * 64];
    uint64_t d;
    const struct gs_arg args[] = { GS_ARG(d) };
    char err[512];
    int wrong = 0;
    assert_int_equal(gs_init(&g, NULL, sets, 5, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, late_reader_ptx, "late_reader.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, sizeof out), GS_OK);
    assert_int_equal(gs_memset(g, d, 0xFF, sizeof out), GS_OK);
    if (gs_launch(g, m, "late_reader", (struct gs_dim3){ LR_TBS, 1, 1 },
                  (struct gs_dim3){ 64, 1, 1 }, 0, args, 1) != GS_OK) {
        print_error("%s\n", gs_last_error(g));
        fail();
    }
    assert_int_equal(gs_memcpy_dtoh(g, out, d, sizeof out), GS_OK);
    for (uint32_t i = 0; i < LR_TBS * 64; i++)
        wrong += out[i] != ((i & ~63u) | ((i & 63u) ^ 32u));
    gs_destroy(g);
    return wrong;
}

static void test_smem_restriction(void **state)
{
    (void)state;
    assert_int_equal(late_reader_wrong("model=timing", "vtw_smem_hold=1"), 0);
    assert_int_equal(late_reader_wrong("model=functional", "vtw_smem_hold=1"), 0);
    assert_true(late_reader_wrong("model=timing", "vtw_smem_hold=0") > 0);
    assert_true(late_reader_wrong("model=functional", "vtw_smem_hold=0") > 0);
}

/* NumVirtualTBs = MIN(residency, logical TBs): the statistics report it and the original
   kernel's registers and occupancy next to the transform's. */
static void test_num_virtual_tbs(void **state)
{
    const char *sets[] = { "vtw=hw", "num_sms=2" };
    struct gs_gpu *g;
    struct gs_module *m;
    struct gs_stats st;
    uint64_t d;
    const struct gs_arg args[] = { GS_ARG(d) };
    char err[512];
    (void)state;
    assert_int_equal(gs_init(&g, NULL, sets, 2, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, late_reader_ptx, "late_reader.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 100 * 64 * 4), GS_OK);
    assert_int_equal(gs_launch(g, m, "late_reader", (struct gs_dim3){ 100, 1, 1 },
                               (struct gs_dim3){ 64, 1, 1 }, 0, args, 1), GS_OK);
    gs_kernel_stats(g, &st);
    assert_int_equal(st.grid[0], 100);                       /* the logical grid */
    assert_int_equal(st.vtw_ctas, 2 * st.occupancy);         /* residency on 2 SMs < 100 */
    assert_int_equal(st.ctas, st.vtw_ctas);
    assert_true(st.regs_original > 0 && st.regs_per_thread >= st.regs_original);
    assert_int_equal(gs_launch(g, m, "late_reader", (struct gs_dim3){ 3, 1, 1 },
                               (struct gs_dim3){ 64, 1, 1 }, 0, args, 1), GS_OK);
    gs_kernel_stats(g, &st);
    assert_int_equal(st.vtw_ctas, 3);                        /* fewer logical TBs than room */
    gs_destroy(g);
}

static void test_bad_combinations(void **state)
{
    const char *a[] = { "sched_policy=vtw" }, *b[] = { "vtw=sw", "vtw_lane=slowest" },
               *c[] = { "vtw=sw", "sched_policy=vtw" };
    struct gs_gpu *g;
    char err[512];
    (void)state;
    assert_int_equal(gs_init(&g, NULL, a, 1, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "sched_policy = vtw needs vtw = hw");
    assert_int_equal(gs_init(&g, NULL, b, 2, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "vtw_lane");
    assert_int_equal(gs_init(&g, NULL, c, 2, err, sizeof err), GS_ERR_CONFIG);
    const char *d[] = { "vtw=hw", "vtw_keys=zero" };         /* the keys of a scheduler not used */
    assert_int_equal(gs_init(&g, NULL, d, 2, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "'vtw_keys' (not its default) needs sched_policy = vtw");
}

/* Run `ptx` (kernel k, one u64 argument) on 1 SM with `sets` plus the given ones; returns the
   launch status and leaves the message in msg. */
static int run_small(const char *ptx, const char *const *sets, int nsets, struct gs_dim3 grid,
                     uint32_t threads, char *msg, size_t len)
{
    struct gs_gpu *g;
    struct gs_module *m;
    uint64_t d;
    const struct gs_arg args[] = { GS_ARG(d) };
    char err[512];
    int rc;
    assert_int_equal(gs_init(&g, NULL, sets, nsets, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, ptx, "k.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 4096), GS_OK);
    rc = gs_launch(g, m, "k", grid, (struct gs_dim3){ threads, 1, 1 }, 0, args, 1);
    snprintf(msg, len, "%s", gs_last_error(g));
    gs_destroy(g);
    return rc;
}

#define K_HEAD ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"

/* VTW's instructions come only from the model's own transform: a kernel that holds them is
   refused without VTW (else nexttbid would wait for a unit that is not there) and with it. */
static void test_extension_in_user_ptx(void **state)
{
    static const char *ptx = K_HEAD "  .reg .b32 %r<2>;\n  nexttbid.u32 %r1;\n  ret;\n}\n";
    const char *off[] = { "vtw=off" }, *hw[] = { "vtw=hw" };
    char msg[512];
    (void)state;
    assert_int_equal(run_small(ptx, off, 1, (struct gs_dim3){ 1, 1, 1 }, 32, msg, sizeof msg),
                     GS_ERR_PTX);
    tu_assert_contains(msg, "only the model's own transform emits");
    tu_assert_contains(msg, "pc 0");
    assert_int_equal(run_small(ptx, hw, 1, (struct gs_dim3){ 1, 1, 1 }, 32, msg, sizeof msg),
                     GS_ERR_PTX);
    tu_assert_contains(msg, "already transformed");
}

/* The logical TB index is 32 bits: a grid of 2^32 TBs is a launch error naming it. */
static void test_logical_grid_too_large(void **state)
{
    static const char *ptx = K_HEAD "  ret;\n}\n";
    const char *hw[] = { "vtw=hw" };
    char msg[512];
    (void)state;
    assert_int_equal(run_small(ptx, hw, 1, (struct gs_dim3){ 0x7FFFFFFFu, 3, 1 }, 32, msg,
                               sizeof msg), GS_ERR_LAUNCH);
    tu_assert_contains(msg, "logical TBs");
}

/* A warp that returns before a barrier its sibling waits at: fine as written (the exited warp
   leaves the barrier's count), impossible under VTW when a virtual TB runs more than one
   logical TB (the warp only leaves its iteration). The run stops with a message on both models
   instead of hanging; the warp held at the wrapper's nexttbid is named at the kernel's .entry
   line, "(VTW wrapper)" (it was "k.ptx:0" in the deadlock dump, no line in the functional
   message). */
static void test_exit_before_barrier(void **state)
{
    static const char *ptx = K_HEAD
        "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n"
        "  mov.u32 %r1, %tid.x;\n  setp.ge.u32 %p1, %r1, 32;\n  @%p1 bra END;\n"
        "  bar.sync 0;\nEND:\n  ret;\n}\n";
    const char *plain[] = { "num_sms=1" },
               *func[] = { "num_sms=1", "max_ctas_per_sm=1", "vtw=hw", "model=functional" },
               *timing[] = { "num_sms=1", "max_ctas_per_sm=1", "vtw=hw", "watchdog_cycles=2000" };
    char msg[1024];
    (void)state;
    assert_int_equal(run_small(ptx, plain, 1, (struct gs_dim3){ 4, 1, 1 }, 64, msg, sizeof msg),
                     GS_OK);
    assert_int_equal(run_small(ptx, func, 4, (struct gs_dim3){ 4, 1, 1 }, 64, msg, sizeof msg),
                     GS_ERR_KERNEL);
    tu_assert_contains(msg, "exit before __syncthreads");
    tu_assert_contains(msg, " (k.ptx:4 (VTW wrapper)) CTA (0,0,0) warp 1: VTW: held");
    assert_int_equal(run_small(ptx, timing, 4, (struct gs_dim3){ 4, 1, 1 }, 64, msg, sizeof msg),
                     GS_ERR_KERNEL);
    tu_assert_contains(msg, "deadlock");
    tu_assert_contains(msg, "warp 1: pc 14 (k.ptx:4 (VTW wrapper)) mask");    /* at nexttbid */
    tu_assert_contains(msg, "warp 0: pc 24 (k.ptx:13) mask");     /* past bar.sync, waiting */
}

/* Item 6: under vtw = hw the Table 1 columns count logical TBs, not virtual ones. mergepass on
   one SM with 2 CTA slots: 3 launches of 6 logical TBs, every one of them more than 5 %
   instruction- and cycle-divergent, run by 2 virtual TBs per launch (three iterations each);
   DWR over the first N - R = 6 - 2 logical TBs of each launch. The functional model counts the
   same. */
static void test_logical_tb_metrics(void **state)
{
    const char *base[] = { STRESS };
    const char *hw[] = { STRESS, "vtw=hw", "sched_policy=vtw" };
    const char *fn[] = { STRESS, "vtw=hw", "model=functional" };
    struct gs_stats b, v, f;
    (void)state;
    b = bench_stats("mergepass", base, 2);      /* bench_run.h: its results must be right */
    v = bench_stats("mergepass", hw, 4);
    f = bench_stats("mergepass", fn, 4);
    assert_int_equal(b.ctas, 18);
    assert_int_equal(b.tb_inst_div[3], 18);
    assert_int_equal(v.ctas, 6);                   /* virtual TBs run */
    assert_int_equal(v.tb_inst_div[3], 18);        /* logical TBs measured */
    assert_int_equal(v.tb_cycle_div[3], 18);
    assert_int_equal(v.t.dwr_tbs, 12);
    assert_true(v.t.dwr_sum > 0);
    assert_true(v.t.dws_sum > 0);                  /* stall cycles charged to logical TBs */
    assert_int_equal(f.tb_inst_div[3], 18);
    assert_memory_equal(f.tb_inst_div, v.tb_inst_div, sizeof f.tb_inst_div);
}

/* vtw_latency = 1: the unit answers in the cycle it takes the request, the cycle in which sb
   sees the issuing instruction's reserve; the reply's release comes before that reserve in
   sb, so the SM leaves the register out of the reserve (sm_issue.c late_unreserve) or the
   destination stays pending for ever. sloop on gtx480 (the deadlock once seen: "no
   instruction issued for 100000 cycles", scoreboard 1 pending) and on kepler (4 schedulers:
   up to 4 replies in one cycle), both schedulers. */
static void test_one_cycle_unit(void **state)
{
    const char *gto[] = { "vtw=hw", "vtw_latency=1" };
    const char *pas[] = { "vtw=hw", "vtw_latency=1", "sched_policy=vtw" };
    const char *const *sets[] = { gto, pas };
    const int nsets[] = { 2, 3 };
    const char *cfgs[] = { NULL, "configs/kepler.cfg" };
    const struct bench *b = bench_find("sloop");
    char msg[1024];
    (void)state;
    assert_non_null(b);
    for (unsigned c = 0; c < 2; c++)
        for (unsigned k = 0; k < 2; k++)
            if (bench_run_cfg(b, cfgs[c], sets[k], nsets[k], NULL, msg, sizeof msg))
                fail_msg("sloop %s%s: %s", cfgs[c] ? cfgs[c] : "gtx480",
                         k ? " sched_policy=vtw" : "", msg);
}

/* ------------------------------------------------------------------ effect tests */

/* tests/data/ptx/vtw_order.ptx on `ntb` logical TBs of `nw` warps with work words `work` (one
   per logical warp), on one SM with one CTA slot and one scheduler (every warp contends for
   one issue port and one SFU), vtw = hw plus `sets`: the finishing order as "TB.warp" words
   into order[] (n of them), the cycles; the statistics into *out unless it is NULL. */
static uint64_t run_order_st(unsigned ntb, unsigned nw, const uint32_t *work,
                             const char *const *sets, int nsets, char (*order)[16],
                             struct gs_stats *out)
{
    const char *all[12] = {"num_sms=1", "max_ctas_per_sm=1", "schedulers_per_sm=1", "vtw=hw"};
    char *text = tu_read_file("tests/data/ptx/vtw_order.ptx", NULL);
    struct gs_gpu *g;
    struct gs_module *m;
    struct gs_stats st;
    uint32_t got[1 + 64] = {0};
    uint64_t dw, dord;
    char err[512];
    for (int i = 0; i < nsets; i++)
        all[4 + i] = sets[i];
    assert_non_null(text);
    assert_int_equal(gs_init(&g, NULL, all, 4 + nsets, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, text, "vtw_order.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &dw, ntb * nw * 4), GS_OK);
    assert_int_equal(gs_malloc(g, &dord, sizeof got), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, dw, work, ntb * nw * 4), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, dord, got, sizeof got), GS_OK);
    const struct gs_arg args[] = {GS_ARG(dw), GS_ARG(dord)};
    if (gs_launch(g, m, "vtw_order", (struct gs_dim3){ntb, 1, 1}, (struct gs_dim3){32 * nw, 1, 1},
                  0, args, 2) != GS_OK)
        fail_msg("vtw_order: %s", gs_last_error(g));
    assert_int_equal(gs_memcpy_dtoh(g, got, dord, sizeof got), GS_OK);
    gs_kernel_stats(g, &st);
    gs_destroy(g);
    free(text);
    assert_int_equal(got[0], ntb * nw);                  /* every warp of every TB, once */
    for (unsigned i = 0; i < got[0]; i++)
        snprintf(order[i], sizeof order[i], "%u.%u", got[1 + i] / nw, got[1 + i] % nw);
    if (out)
        *out = st;
    return st.cycles;
}

static uint64_t run_order(unsigned ntb, unsigned nw, const uint32_t *work, const char *const *sets,
                          int nsets, char (*order)[16])
{
    return run_order_st(ntb, nw, work, sets, nsets, order, NULL);
}

/* Where "TB.warp" w finished (0 = first). */
static unsigned pos(char (*order)[16], unsigned n, const char *w)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(order[i], w))
            return i;
    fail_msg("%s did not finish", w);
    return n;
}

static void print_order(const char *what, char (*order)[16], unsigned n, uint64_t cycles)
{
    print_message("%-34s %6llu cycles, finished:", what, (unsigned long long)cycles);
    for (unsigned i = 0; i < n; i++)
        print_message(" %s", order[i]);
    print_message("\n");
}

/* 000 Sec. 4.3.2, fast phase: the warps of a DiffIter TB still at the lower iteration go
   before the warps already at the higher one (Algorithm 1 lines 10-16 before 24-30). Two warps,
   three logical TBs: warp 0 finishes TB 0 at once (5 SFU loops) and starts TB 1 (20 loops)
   while warp 1 still has most of TB 0's 40 to do. Algorithm 1 gives the lagging warp 1 the SFU
   and it finishes TB 0 before warp 0 finishes TB 1; oldest-first (vtw_keys = zero, the keys
   neutered) keeps it with the older warp 0, which finishes TB 1 first. Cycles fall too. */
static void test_pas_effect_diffiter(void **state)
{
    static const uint32_t work[] = {5, 40, 20, 5, 5, 5};
    const char *alg1[] = {"sched_policy=vtw"}, *zero[] = {"sched_policy=vtw", "vtw_keys=zero"};
    char a[6][16], z[6][16];
    (void)state;
    struct gs_stats st;
    uint64_t ca = run_order_st(3, 2, work, alg1, 1, a, &st), cz = run_order(3, 2, work, zero, 2, z);
    print_order("Algorithm 1", a, 6, ca);
    print_order("zero keys (oldest first)", z, 6, cz);
    assert_true(pos(a, 6, "0.1") < pos(a, 6, "1.0"));
    assert_true(pos(z, 6, "1.0") < pos(z, 6, "0.1"));
    assert_true(ca < cz);
    /* the statistics of the report's ablation (sm_vtw.c vtw_count) see it: both DiffIter classes
       issue, and the class is what sets Algorithm 1's pick apart from the oldest warp */
    assert_true(st.t.vtw_issue_class[2] > 0 && st.t.vtw_issue_class[0] > 0);
    assert_true(st.t.vtw_decided_by[0] > 0);
    assert_true(st.t.vtw_fast_not_oldest > 0 && st.t.vtw_fast_not_oldest <= st.t.vtw_fast_contested);
}

/* 000 Sec. 4.3.2, slow phase (the last logical TB index handed out): warps with less progress
   first, where the fast phase's SameIter class puts more progress first. Two warps, two
   logical TBs: warp 0 finishes TB 0 (5 loops) and takes the last index (TB 1, 40 loops); warp
   1 finishes TB 0 (20 loops) and joins it with 5 loops to do and far less progress in the
   iteration than warp 0: it goes first and finishes TB 1 before warp 0. Under the fast phase's
   order (seen with the slow bit held at 0) warp 0, ahead, keeps the SFU and finishes first;
   under oldest-first (vtw_keys = zero) too, and before warp 1 even leaves TB 0. */
static void test_pas_effect_slow_phase(void **state)
{
    static const uint32_t work[] = {5, 20, 40, 5};
    const char *alg1[] = {"sched_policy=vtw"}, *zero[] = {"sched_policy=vtw", "vtw_keys=zero"};
    char a[4][16], z[4][16];
    (void)state;
    struct gs_stats st;
    uint64_t ca = run_order_st(2, 2, work, alg1, 1, a, &st), cz = run_order(2, 2, work, zero, 2, z);
    print_order("Algorithm 1", a, 4, ca);
    print_order("zero keys (oldest first)", z, 4, cz);
    assert_true(pos(a, 4, "1.1") < pos(a, 4, "1.0"));
    assert_true(pos(z, 4, "1.0") < pos(z, 4, "0.1"));
    assert_true(ca < cz);
    /* the statistics: slow-phase issues, and picks there that are not the oldest warp's */
    assert_true(st.t.vtw_issue_class[4] > 0);
    assert_true(st.t.vtw_slow_not_oldest > 0 && st.t.vtw_slow_not_oldest <= st.t.vtw_slow_contested);
}

/* 000 Sec. 4.2.2: the three lane policies give the first warp to finish an iteration different
   logical warps of the next TB. Three warps under LRR: in TB 0 warp 1 is short (3 SFU loops),
   warp 0 long (60), warp 2 slow (8 loops of the rem chain: the least progress in instructions).
   Warp 1's context finishes first and runs logical warp 1 of TB 1 under SameLane (it keeps its
   index), warp 0 under LowestToHighestLane (the first to finish takes the lowest index), warp 2
   under SlowestLane (the index of the warp with the least progress); TB 1's warps have equal
   work, so the first of TB 1 to finish is that one. */
static void test_lane_effect(void **state)
{
    static const uint32_t work[] = {60, 3, 8u << 16, 10, 10, 10};
    static const char *const lane[3] = {"vtw_lane=same", "vtw_lane=lowest", "vtw_lane=slowest"};
    static const char *const first[3] = {"1.1", "1.0", "1.2"};
    char o[6][16];
    (void)state;
    for (unsigned l = 0; l < 3; l++) {
        const char *sets[] = {"sched_policy=lrr", lane[l]};
        uint64_t c = run_order(2, 3, work, sets, 2, o);
        print_order(lane[l], o, 6, c);
        assert_string_equal(o[0], "0.1");
        unsigned k = 0;
        while (k < 6 && o[k][0] != '1')
            k++;
        assert_true(k < 6);
        assert_string_equal(o[k], first[l]);
    }
}

int main(void)
{
    static const struct CMUnitTest extra[] = {
        cmocka_unit_test(test_smem_restriction),
        cmocka_unit_test(test_num_virtual_tbs),
        cmocka_unit_test(test_bad_combinations),
        cmocka_unit_test(test_extension_in_user_ptx),
        cmocka_unit_test(test_logical_grid_too_large),
        cmocka_unit_test(test_exit_before_barrier),
        cmocka_unit_test(test_logical_tb_metrics),
        cmocka_unit_test(test_one_cycle_unit),
        cmocka_unit_test(test_pas_effect_diffiter),
        cmocka_unit_test(test_pas_effect_slow_phase),
        cmocka_unit_test(test_lane_effect),
    };
    return bench_main("vtw", variants, NVARIANTS, extra, sizeof extra / sizeof extra[0]);
}
