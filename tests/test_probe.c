/*
 * test_probe.c -- the instruction probe (func/probe.h): each counter on hand-made results, the
 * per-warp counts at a caller's index and their TB divergence; and the sink: a per-thread
 * basic-block entry count (the shape of a BBV) collected through it on a small divergent
 * kernel is the same in the functional and the timing model, and what the kernel implies.
 */
#include "testutil.h"
#include "base/config.h"
#include "func/funcsim.h"
#include "func/probe.h"
#include "gpu/gpu.h"
#include "ptx/flow.h"

/* ---- counters */

static struct ptx_insn insn(enum ptx_op op, int guard)
{
    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.guard = guard;
    return in;
}

static struct ex_result result(enum ex_kind kind, uint32_t exec, uint32_t taken)
{
    struct ex_result r;
    memset(&r, 0, sizeof r);
    r.kind = (uint8_t)kind;
    r.exec_mask = exec;
    r.taken = taken;
    return r;
}

static void test_issue_counts(void **state)
{
    struct gs_stats st;
    struct probe_warp pw[8];
    struct probe p;
    uint64_t unit = 0;
    struct ptx_insn bra = insn(OP_BRA, 3), uni = insn(OP_BRA, -1), atom = insn(OP_ATOM, -1),
                    ld = insn(OP_LD, -1), bar = insn(OP_BAR, -1), add = insn(OP_ADD, 2);
    struct ex_result r;
    (void)state;
    memset(&st, 0, sizeof st);
    probe_init(&p, &st, pw, 8, &unit, NULL);
    probe_warp_start(&p, 5, 160, 7);
    r = result(EX_BRANCH, 0x0F, 0x0F);            /* guarded, every active lane taken */
    probe_issue(&p, 5, 10, &bra, 0x0F, &r);
    r = result(EX_BRANCH, 0x0F, 0x0F);            /* ... half of them: divergent */
    probe_issue(&p, 5, 10, &bra, 0xFF, &r);
    assert_int_equal(st.branches, 2);
    assert_int_equal(st.divergent_branches, 1);
    r = result(EX_BRANCH, 0xFF, 0x03);            /* taken & active splits 0xFF */
    probe_issue(&p, 5, 10, &bra, 0xFF, &r);
    assert_int_equal(st.divergent_branches, 2);
    r = result(EX_BRANCH, 0xFF, 0xFF);            /* unguarded: not a conditional branch */
    probe_issue(&p, 5, 11, &uni, 0xFF, &r);
    assert_int_equal(st.branches, 3);
    r = result(EX_NORMAL, 0x1, 0);
    probe_issue(&p, 5, 12, &atom, 0x3, &r);
    r = result(EX_NORMAL, 0x7, 0);
    probe_issue(&p, 5, 13, &ld, 0x7, &r);
    assert_int_equal(st.mem_insns, 2);
    assert_int_equal(st.atomics, 1);
    r = result(EX_BARRIER, 0xFFFFFFFFu, 0);
    probe_issue(&p, 5, 14, &bar, 0xFFFFFFFFu, &r);
    r = result(EX_NORMAL, 0, 0);                  /* guard off in every lane: still issued */
    probe_issue(&p, 5, 15, &add, 0x1, &r);
    assert_int_equal(st.barriers, 1);
    assert_int_equal(st.warp_insns, 8);
    assert_int_equal(st.thread_insns, 4 + 4 + 8 + 8 + 1 + 3 + 32 + 0);
    assert_int_equal(st.lane_util[8], 3);
    assert_int_equal(st.lane_util[4], 1);
    assert_int_equal(st.lane_util[2], 1);
    assert_int_equal(st.lane_util[3], 1);
    assert_int_equal(st.lane_util[32], 1);
    assert_int_equal(st.lane_util[1], 1);
    assert_int_equal(pw[5].insns, 8);
    assert_int_equal(unit, 8);
}

/* TB divergence over the caller's warp indices: 10 and 14 instructions -> 40 %, bins 25/10/5. */
static void test_tb_retire(void **state)
{
    struct gs_stats st;
    struct probe_warp pw[8];
    struct probe p;
    struct ptx_insn add = insn(OP_ADD, -1);
    struct ex_result r = result(EX_NORMAL, 1, 0);
    static const uint32_t idx[2] = { 6, 2 };
    int i;
    (void)state;
    memset(&st, 0, sizeof st);
    memset(pw, 0, sizeof pw);
    probe_init(&p, &st, pw, 8, NULL, NULL);
    probe_warp_start(&p, 6, 0, 0);
    probe_warp_start(&p, 2, 32, 0);
    for (i = 0; i < 10; i++)
        probe_issue(&p, 6, 0, &add, 1, &r);
    for (i = 0; i < 14; i++)
        probe_issue(&p, 2, 0, &add, 1, &r);
    probe_tb_retire(&p, idx, 2);
    assert_int_equal(st.tb_inst_div[0], 0);
    assert_int_equal(st.tb_inst_div[1], 1);
    assert_int_equal(st.tb_inst_div[2], 1);
    assert_int_equal(st.tb_inst_div[3], 1);
    probe_tb_retire(&p, NULL, 2);                 /* warps 0 and 1: no instructions, none */
    assert_int_equal(st.tb_inst_div[3], 1);
    probe_warp_start(&p, 2, 32, 1);               /* a restart clears the count */
    assert_int_equal(pw[2].insns, 0);
}

/* ---- the sink: per-thread basic-block entries in both models */

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"
/* out[g] = sum over i < g % 7 of ((g + i) even ? i : 3), for g < n (else 0): a loop of
   per-thread length whose body diverges by lane. NEXT starts with an instruction guarded off
   in the odd lanes: entering a block counts the active lanes, not the executing ones. */
static const char *bbv_ptx = HDR
    ".visible .entry k(.param .u64 out, .param .u32 n)\n"
    "{\n .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<5>;\n"
    " ld.param.u64 %rd1, [out];\n ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n"
    " mad.lo.s32 %r5, %r3, %r4, %r2;\n mov.u32 %r7, 0;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra STORE;\n"
    " rem.u32 %r8, %r5, 7;\n mov.u32 %r9, 0;\n"
    "HEAD:\n setp.ge.u32 %p2, %r9, %r8;\n @%p2 bra STORE;\n"
    " add.s32 %r10, %r5, %r9;\n and.b32 %r6, %r10, 1;\n setp.eq.u32 %p3, %r6, 0;\n"
    " @%p3 bra EVEN;\n add.s32 %r7, %r7, 3;\n bra.uni NEXT;\n"
    "EVEN:\n add.s32 %r7, %r7, %r9;\n"
    "NEXT:\n @%p3 add.s32 %r7, %r7, 0;\n add.s32 %r9, %r9, 1;\n bra.uni HEAD;\n"
    "STORE:\n cvta.to.global.u64 %rd2, %rd1;\n mul.wide.u32 %rd3, %r5, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r7;\n ret;\n}\n";

#define GRID 3
#define BLOCK 80                              /* three warps, the last one partial */
#define NTHREADS (GRID * BLOCK)
#define NUSED 200                             /* threads 200.. skip the work */
#define MAXB 32

struct bbv {                                  /* what a BBV sink would collect */
    const struct flow *flow;
    uint32_t count[NTHREADS][MAXB];           /* [global thread][block] entries */
    uint64_t events, bad;                     /* bad: a thread outside the grid */
};

static void bbv_sink(void *arg, const struct probe_event *e)
{
    struct bbv *b = arg;
    uint32_t blk = b->flow->block_of[e->pc], m;
    b->events++;
    if (b->flow->blocks[blk].first != e->pc)
        return;
    for (m = e->active; m; m &= m - 1) {
        uint64_t g = e->cta * BLOCK + e->tid0 + (uint32_t)__builtin_ctz(m);
        if (g < NTHREADS && e->tid0 + (uint32_t)__builtin_ctz(m) < BLOCK)
            b->count[g][blk]++;
        else
            b->bad++;
    }
}

struct kernel {
    uint64_t out;
    struct gpu_config conf;
    struct ptx_module mod;
    struct ptx_prog prog;
    struct flow flow;
    struct gmem *gmem;
    uint8_t params[16];
};

static void kernel_load(struct kernel *k)
{
    char err[512];
    uint32_t n = NUSED;
    memset(k, 0, sizeof *k);
    conf_defaults(&k->conf);
    assert_int_equal(ptx_parse(bbv_ptx, strlen(bbv_ptx), "bbv.ptx", &k->mod, err, sizeof err), 0);
    assert_int_equal(ptx_link(&k->mod, "k", &k->prog, err, sizeof err), 0);
    assert_int_equal(flow_build(&k->prog, &k->flow, err, sizeof err), 0);
    assert_true(k->flow.nblocks <= MAXB);
    k->gmem = calloc(1, sizeof *k->gmem);
    assert_non_null(k->gmem);
    gm_init(k->gmem, k->conf.dram_bytes);
    assert_int_equal(gm_alloc(k->gmem, NTHREADS * 4, &k->out), 0);
    assert_int_equal(k->prog.nparams, 2);
    memcpy(k->params + k->prog.params[0].offset, &k->out, 8);
    memcpy(k->params + k->prog.params[1].offset, &n, 4);
}

static void kernel_free(struct kernel *k)
{
    gm_destroy(k->gmem);
    free(k->gmem);
    flow_free(&k->flow);
    ptx_prog_free(&k->prog);
    ptx_module_free(&k->mod);
}

/* Run the kernel in one model with a BBV sink; returns the launch statistics. */
static void run(struct kernel *k, int timing, struct bbv *b, struct gs_stats *st)
{
    struct kernel_launch l;
    struct probe_sink sink = { bbv_sink, b };
    struct gs_dim3 grid = { GRID, 1, 1 }, block = { BLOCK, 1, 1 };
    char err[1024];
    memset(&l, 0, sizeof l);
    memset(b, 0, sizeof *b);
    memset(st, 0, sizeof *st);
    b->flow = &k->flow;
    l.prog = &k->prog; l.flow = &k->flow; l.conf = &k->conf; l.gmem = k->gmem;
    l.params = k->params; l.grid = grid; l.block = block; l.sink = &sink;
    assert_int_equal(timing ? gpu_run(&l, NULL, st, err, sizeof err, NULL) : fsim_run(&l, st, err, sizeof err), 0);
}

static void check_output(struct kernel *k)
{
    const uint32_t *out = (const uint32_t *)gm_ptr(k->gmem, k->out, NTHREADS * 4);
    uint32_t g, i, want;
    assert_non_null(out);
    for (g = 0; g < NTHREADS; g++) {
        for (want = 0, i = 0; g < NUSED && i < g % 7; i++)
            want += (g + i) % 2 == 0 ? i : 3;
        assert_int_equal(out[g], want);
    }
}

static void test_sink_bbv_same_in_both_models(void **state)
{
    struct kernel k;
    struct bbv *f = calloc(1, sizeof *f), *t = calloc(1, sizeof *t);
    struct gs_stats fs, ts;
    uint32_t g, blk;
    (void)state;
    assert_non_null(f);
    assert_non_null(t);
    kernel_load(&k);
    run(&k, 0, f, &fs);
    run(&k, 1, t, &ts);
    assert_true(ts.cycles > 0);
    assert_true(fs.divergent_branches > 0 && ts.divergent_branches == fs.divergent_branches);
    assert_int_equal(f->events, fs.warp_insns);   /* one event per warp instruction */
    assert_int_equal(t->events, ts.warp_insns);
    assert_int_equal(f->bad + t->bad, 0);
    for (g = 0; g < NTHREADS; g++) {
        uint32_t hi = 0;
        for (blk = 0; blk < k.flow.nblocks; blk++) {
            if (f->count[g][blk] != t->count[g][blk]) {
                print_error("thread %u block %u: functional %u, timing %u entries\n", g, blk,
                            f->count[g][blk], t->count[g][blk]);
                fail();
            }
            hi = f->count[g][blk] > hi ? f->count[g][blk] : hi;
        }
        /* the loop test runs g % 7 + 1 times, every other block at most as often */
        assert_int_equal(hi, g < NUSED ? g % 7 + 1 : 1);
        assert_int_equal(f->count[g][0], 1);
    }
    check_output(&k);
    kernel_free(&k);
    free(f);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_counts),
        cmocka_unit_test(test_tb_retire),
        cmocka_unit_test(test_sink_bbv_same_in_both_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
