/*
 * test_ptx_rewrite.c -- cmocka tests for model/ptx/ptx_rewrite.c (edits of a linked kernel).
 *
 * Each operation on a small kernel whose pcs are written down below: insert (branches to the
 * pc run the new code, or keep the old instruction), local and old-pc targets in new code,
 * replace and delete, retarget, ptx_rw_newpc, new registers and parameters (layout as the
 * parser's, checked by printing and linking the text back), special-register substitution,
 * the register estimate after every edit, and rejected edits (nothing changes, the failure
 * sticks).  End to end: a wrapper while loop in the manner of VTW on bench/vecadd (a new
 * parameter, a virtual %ctaid, every exit a branch to an index-update block) run by the
 * functional model on fewer CTAs than the grid needs; and bench/reduce with a dead instruction
 * before every instruction, run by the functional and the timing model; results checked.
 */
#include "ptx_cmp.h"
#include "base/config.h"
#include "func/funcsim.h"
#include "gpu/gpu.h"
#include "ptx/flow.h"
#include "ptx/ptx_rewrite.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* out[tid] = n * tid + (tid != 0) */
static const char k_small[] = HDR
    ".visible .entry k(.param .u64 out, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"        /*  0 */
    "  ld.param.u32 %r1, [n];\n"           /*  1 */
    "  mov.u32 %r2, %tid.x;\n"             /*  2 */
    "  mov.u32 %r3, 0;\n"                  /*  3 */
    "$L_loop:\n"
    "  add.s32 %r3, %r3, %r2;\n"           /*  4 */
    "  sub.s32 %r1, %r1, 1;\n"             /*  5 */
    "  setp.gt.s32 %p1, %r1, 0;\n"         /*  6 */
    "  @%p1 bra $L_loop;\n"                /*  7 -> 4 */
    "  setp.eq.s32 %p2, %r2, 0;\n"         /*  8 */
    "  @%p2 bra $L_done;\n"                /*  9 -> 11 */
    "  add.s32 %r3, %r3, 1;\n"             /* 10 */
    "$L_done:\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"       /* 11 */
    "  add.s64 %rd2, %rd1, %rd2;\n"        /* 12 */
    "  st.global.u32 [%rd2], %r3;\n"       /* 13 */
    "  ret;\n"                             /* 14 (exit) */
    "}\n";

/* k_small's registers: %p<3> 0..2, %r<6> 3..8, %rd<3> 9..11 */
enum { P1 = 1, P2 = 2, R0 = 3, R2 = 5, R3 = 6 };

struct kern {
    struct ptx_module m;
    struct ptx_prog p;
    struct ptx_rw rw;
};

static void load(struct kern *k, const char *text, const char *path, const char *name)
{
    char err[PTX_ERR_LEN];
    int rc = text ? ptx_parse(text, strlen(text), "t.ptx", &k->m, err, sizeof err)
                  : ptx_parse_file(path, &k->m, err, sizeof err);
    if (rc || ptx_link(&k->m, name, &k->p, err, sizeof err))
        fail_msg("%s", err);
    ptx_rw_begin(&k->rw, &k->p);
}

static void unload(struct kern *k)
{
    ptx_prog_free(&k->p);
    ptx_module_free(&k->m);
}

static int64_t target(const struct ptx_prog *p, uint32_t pc)
{
    assert_int_equal(p->insns[pc].op, OP_BRA);
    return p->insns[pc].opd[0].imm;
}

static void expect_ok(const struct kern *k)
{
    char err[PTX_ERR_LEN];
    if (ptx_rw_end(&k->rw, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(k->p.regs_per_thread, ptx_estimate_regs(&k->p));
}

/* add.s32 %r, %r, 0: changes nothing */
static struct ptx_insn nothing(int32_t r)
{
    return ptx_insn_new(OP_ADD, PT_S32, 3, ptx_opd_reg(r), ptx_opd_reg(r), ptx_opd_imm(0));
}

/* ------------------------------------------------------------------ running a kernel */

struct dev {
    struct gpu_config conf;
    struct gmem *gm;
};

static void dev_init(struct dev *d)
{
    conf_defaults(&d->conf);
    d->gm = calloc(1, sizeof *d->gm);
    assert_non_null(d->gm);
    gm_init(d->gm, d->conf.dram_bytes);
}

static void dev_free(struct dev *d)
{
    gm_destroy(d->gm);
    free(d->gm);
}

static uint64_t dev_alloc(struct dev *d, const void *init, uint64_t bytes)
{
    uint64_t a;
    assert_int_equal(gm_alloc(d->gm, bytes, &a), 0);
    memcpy(gm_ptr(d->gm, a, bytes), init, bytes);
    return a;
}

/* Arguments by parameter index into the program's parameter buffer. */
static void set_arg(const struct ptx_prog *p, uint8_t *buf, uint32_t i, const void *v)
{
    assert_true(i < p->nparams && p->params[i].offset + p->params[i].size <= 64);
    memcpy(buf + p->params[i].offset, v, p->params[i].size);
}

static void run(struct dev *d, const struct ptx_prog *p, const uint8_t *params, uint32_t grid,
                uint32_t block, uint32_t dyn, int timing, struct gs_stats *st)
{
    struct flow fl;
    struct kernel_launch l;
    char err[1024];
    if (flow_build(p, &fl, err, sizeof err))
        fail_msg("%s", err);
    memset(&l, 0, sizeof l);
    memset(st, 0, sizeof *st);
    l.prog = p, l.flow = &fl, l.conf = &d->conf, l.gmem = d->gm, l.params = params;
    l.grid = (struct gs_dim3){grid, 1, 1}, l.block = (struct gs_dim3){block, 1, 1};
    l.dyn_smem = dyn;
    if (timing ? gpu_run(&l, NULL, st, err, sizeof err, NULL) : fsim_run(&l, st, err, sizeof err))
        fail_msg("%s", err);
    flow_free(&fl);
}

/* k_small on 64 threads; out[tid] must be n * tid + (tid != 0). */
static void run_small(const struct ptx_prog *p, uint32_t n)
{
    struct dev d;
    uint32_t out[64];
    uint8_t params[64] = {0};
    dev_init(&d);
    memset(out, 0xff, sizeof out);
    uint64_t a = dev_alloc(&d, out, sizeof out);
    set_arg(p, params, 0, &a);
    set_arg(p, params, 1, &n);
    struct gs_stats st;
    run(&d, p, params, 1, 64, 0, 0, &st);
    memcpy(out, gm_ptr(d.gm, a, sizeof out), sizeof out);
    for (uint32_t t = 0; t < 64; t++)
        if (out[t] != n * t + (t != 0))
            fail_msg("out[%u] = %u, expected %u", t, out[t], n * t + (t != 0));
    dev_free(&d);
}

/* ------------------------------------------------------------------ instruction edits */

static void test_insert_relabels(void **state)
{
    (void)state;
    struct kern k;
    load(&k, k_small, NULL, "k");
    assert_int_equal(k.p.ninsns, 15);
    assert_int_equal(target(&k.p, 7), 4);
    /* at the loop head: the back edge now runs the new instruction too */
    struct ptx_insn one = nothing(R3);
    assert_int_equal(ptx_rw_insert(&k.rw, 4, &one, 1, 0), 4);
    assert_int_equal(k.p.ninsns, 16);
    assert_int_equal(target(&k.p, 8), 4);
    assert_int_equal(target(&k.p, 10), 12);          /* $L_done moved by one */
    assert_int_equal(ptx_rw_newpc(&k.rw, 3), 3);
    assert_int_equal(ptx_rw_newpc(&k.rw, 4), 5);
    assert_int_equal(ptx_rw_newpc(&k.rw, 11), 12);
    /* again, keeping the targets: the back edge skips it */
    assert_int_equal(ptx_rw_insert(&k.rw, 4, &one, 1, PTX_RW_KEEP_TARGETS), 4);
    assert_int_equal(target(&k.p, 9), 5);
    /* new code at $L_done (now 13) with a local target (over the +1000) and an old-pc one
       (13: the old instruction, wherever it goes) */
    struct ptx_insn two[3] = {ptx_insn_bra(-1, 0, PTX_RW_LOCAL(2)),
                              ptx_insn_new(OP_ADD, PT_S32, 3, ptx_opd_reg(R3), ptx_opd_reg(R3),
                                           ptx_opd_imm(1000)),
                              ptx_insn_bra(-1, 0, 13)};
    assert_int_equal(ptx_rw_insert(&k.rw, 13, two, 3, 0), 13);
    assert_int_equal(target(&k.p, 13), 15);          /* LOCAL(2) */
    assert_int_equal(target(&k.p, 15), 16);          /* old 13: the old instruction */
    assert_int_equal(target(&k.p, 11), 13);          /* $L_done now runs the new code */
    expect_ok(&k);
    run_small(&k.p, 5);                              /* the +1000 is branched over */
    unload(&k);
}

static void test_replace_delete_retarget(void **state)
{
    (void)state;
    struct kern k;
    load(&k, k_small, NULL, "k");
    /* delete the tid != 0 increment: branches to pc 11 now land on pc 10 */
    assert_int_equal(ptx_rw_replace(&k.rw, 10, NULL, 0), 10);
    assert_int_equal(k.p.ninsns, 14);
    assert_int_equal(target(&k.p, 9), 10);
    assert_int_equal(ptx_rw_newpc(&k.rw, 11), 10);
    /* the setp at 8 becomes: 8 setp.ne %p2; 9 @!%p2 bra old 9 (now 11); 10 add 1; then
       11 is the old "@%p2 bra" (to 12), which the new %p2 makes a branch to the next pc */
    struct ptx_insn back[3] = {ptx_insn_setp(CMP_NE, PT_S32, P2, ptx_opd_reg(R2), ptx_opd_imm(0)),
                               ptx_insn_bra(P2, 1, 9), nothing(R3)};
    back[2].opd[2] = ptx_opd_imm(1);
    assert_int_equal(ptx_rw_replace(&k.rw, 8, back, 3), 8);
    assert_int_equal(target(&k.p, 9), 11);
    assert_int_equal(target(&k.p, 11), 12);
    /* relabel: the new branch goes straight to 12 */
    assert_int_equal(ptx_rw_retarget(&k.rw, 11, 12), 1);
    assert_int_equal(target(&k.p, 9), 12);
    assert_int_equal(ptx_rw_retarget(&k.rw, 5, 6), 0);
    expect_ok(&k);
    run_small(&k.p, 3);
    /* the replaced exit: branches reach the first new instruction */
    struct ptx_insn ex[2] = {nothing(R3), ptx_insn_new(OP_EXIT, PT_NONE, 0)};
    uint32_t last = k.p.ninsns - 1;
    assert_int_equal(ptx_rw_replace(&k.rw, last, ex, 2), last);
    assert_int_equal(k.p.insns[k.p.ninsns - 1].op, OP_EXIT);
    expect_ok(&k);
    run_small(&k.p, 3);
    unload(&k);
}

/* ------------------------------------------------------------------ registers, parameters, sregs */

static void test_regs_params_sregs(void **state)
{
    (void)state;
    struct kern k;
    load(&k, k_small, NULL, "k");
    uint32_t nr = k.p.nregs;
    int32_t v = ptx_rw_add_reg(&k.rw, PT_U32, "%vtid");
    int32_t w = ptx_rw_add_reg(&k.rw, PT_U64, NULL);
    assert_int_equal(v, nr);
    assert_int_equal(w, nr + 1);
    assert_string_equal(k.p.reg_name[w], "%rw13");
    assert_int_equal(k.p.reg_type[v], PT_U32);
    /* parameters: out .u64 @0, n .u32 @8; then .u64 @16, .u8 @24, .b8[12] align 4 @28 */
    assert_int_equal(ptx_rw_add_param(&k.rw, "x", PT_U64, 0, 0), 16);
    assert_int_equal(ptx_rw_add_param(&k.rw, "y", PT_U8, 0, 0), 24);
    assert_int_equal(ptx_rw_add_param(&k.rw, "z", PT_B8, 12, 4), 28);
    assert_int_equal(k.p.param_size, 40);
    assert_int_equal(k.p.nparams, 5);
    /* %tid.x read through the new register, set by a new first instruction */
    assert_int_equal(ptx_rw_subst_sreg(&k.rw, SR_TID, 1, v, 0, k.p.ninsns), 0);   /* no .y */
    assert_int_equal(ptx_rw_subst_sreg(&k.rw, SR_TID, 0, v, 0, k.p.ninsns), 1);
    struct ptx_insn mv = ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(v), ptx_opd_sreg(SR_TID, 0));
    assert_int_equal(ptx_rw_insert(&k.rw, 0, &mv, 1, 0), 0);
    /* and the new parameter read: ld.param.u64 %rw13, [x] */
    struct ptx_insn ld = ptx_insn_ld(PS_PARAM, PT_U64, w, ptx_opd_addr(-1, 16, PS_PARAM));
    assert_int_equal(ptx_rw_insert(&k.rw, 1, &ld, 1, 0), 1);
    expect_ok(&k);
    /* the text: the parser lays the parameters out the same and reads every edit back */
    char *t = ptx_round_trip_prog(&k.p, &k.m, "rewritten k");
    tu_assert_contains(t, "\t.param .u64 x,\n\t.param .u8 y,\n\t.param .align 4 .b8 z[12]\n)");
    tu_assert_contains(t, "\t.reg .u32 %vtid;\n\t.reg .u64 %rw13;\n");
    tu_assert_contains(t, "\tmov.u32 %vtid, %tid.x;\n\tld.param.u64 %rw13, [x];\n");
    tu_assert_contains(t, "\tmov.u32 %r2, %vtid;\n");
    free(t);
    run_small(&k.p, 4);
    unload(&k);
}

static void test_rejected_edits(void **state)
{
    (void)state;
    struct kern k;
    char err[PTX_ERR_LEN];
    load(&k, k_small, NULL, "k");
    struct ptx_insn *before = malloc(k.p.ninsns * sizeof *before);
    uint32_t n = k.p.ninsns, regs = k.p.regs_per_thread;
    memcpy(before, k.p.insns, n * sizeof *before);
    struct ptx_insn far = ptx_insn_bra(-1, 0, n);      /* to the old end: no instruction */
    assert_int_equal(ptx_rw_insert(&k.rw, 3, &far, 1, 0), -1);
    assert_int_equal(k.p.ninsns, n);
    assert_memory_equal(k.p.insns, before, n * sizeof *before);
    assert_int_equal(k.p.regs_per_thread, regs);
    /* the failure sticks: a good edit is refused, the first message stays */
    struct ptx_insn one = nothing(R3);
    assert_int_equal(ptx_rw_insert(&k.rw, 3, &one, 1, 0), -1);
    assert_int_equal(ptx_rw_add_reg(&k.rw, PT_U32, "%ok"), -1);
    assert_int_equal(ptx_rw_end(&k.rw, err, sizeof err), -1);
    assert_string_equal(err, "rewrite k: pc 3: operand 1 out of range");
    assert_int_equal(k.p.ninsns, n);
    free(before);

    struct { struct ptx_insn in; uint32_t at; const char *msg; } bad[] = {
        {ptx_insn_bra(R0, 0, 0), 2, "pc 2: guard is not a .pred register"},
        {ptx_insn_new(OP_CALL, PT_NONE, 0), 2, "pc 2: call cannot be in a linked program"},
        {ptx_insn_new(OP_RET, PT_NONE, 0), 2, "pc 2: ret cannot be in a linked program"},
        {ptx_insn_bra(-1, 0, PTX_RW_LOCAL(1)), 2, "pc 2: operand 1 out of range"},
        {nothing(99), 2, "pc 2: operand 1 out of range"},
        {nothing(R3), 15, "the program must end with an unguarded exit or bra"},
        {nothing(R3), 16, "pc 16: out of range (15 instructions)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[PTX_ERR_LEN];
        ptx_rw_begin(&k.rw, &k.p);
        assert_int_equal(ptx_rw_insert(&k.rw, bad[i].at, &bad[i].in, 1, 0), -1);
        assert_int_equal(ptx_rw_end(&k.rw, err, sizeof err), -1);
        snprintf(want, sizeof want, "rewrite k: %s", bad[i].msg);
        assert_string_equal(err, want);
        assert_int_equal(k.p.ninsns, n);
    }
    struct { int what; const char *msg; } bad2[] = {
        {0, "add_reg: register '%r1' exists"}, {1, "add_reg: '%tid' is a special register"},
        {2, "add_reg: bad register name '1x'"}, {3, "add_reg: bad type 0"},
        {4, "add_param: parameter 'n' exists"}, {5, "add_param 'p': bad type 1"},
        {6, "add_param 'p': size 6 or alignment 4 does not fit .u32"},
        {7, "add_param 'p': size 4 or alignment 3 does not fit .u32"},
        {8, "subst_sreg: register 3 is not a 8-byte integer register"},
        {9, "replace: pc 15 out of range (15 instructions)"},
        {10, "the program must end with an unguarded exit or bra"},
        {11, "retarget 3 -> 15: out of range"},
    };
    for (size_t i = 0; i < sizeof bad2 / sizeof bad2[0]; i++) {
        char want[PTX_ERR_LEN];
        ptx_rw_begin(&k.rw, &k.p);
        switch (bad2[i].what) {
        case 0: ptx_rw_add_reg(&k.rw, PT_U32, "%r1"); break;
        case 1: ptx_rw_add_reg(&k.rw, PT_U32, "%tid"); break;
        case 2: ptx_rw_add_reg(&k.rw, PT_U32, "1x"); break;
        case 3: ptx_rw_add_reg(&k.rw, PT_NONE, "%x"); break;
        case 4: ptx_rw_add_param(&k.rw, "n", PT_U32, 0, 0); break;
        case 5: ptx_rw_add_param(&k.rw, "p", PT_PRED, 0, 0); break;
        case 6: ptx_rw_add_param(&k.rw, "p", PT_U32, 6, 0); break;
        case 7: ptx_rw_add_param(&k.rw, "p", PT_U32, 4, 3); break;
        case 8: ptx_rw_subst_sreg(&k.rw, SR_CLOCK64, 0, R0, 0, 1); break;
        case 9: ptx_rw_replace(&k.rw, 15, NULL, 0); break;
        case 10: ptx_rw_replace(&k.rw, 14, NULL, 0); break;
        default: ptx_rw_retarget(&k.rw, 3, 15); break;
        }
        assert_int_equal(ptx_rw_end(&k.rw, err, sizeof err), -1);
        snprintf(want, sizeof want, "rewrite k: %s", bad2[i].msg);
        assert_string_equal(err, want);
    }
    assert_int_equal(k.p.ninsns, n);
    assert_int_equal(k.p.nparams, 2);
    run_small(&k.p, 2);
    unload(&k);
}

/* More live registers after an edit: the estimate follows. */
static void test_register_estimate(void **state)
{
    (void)state;
    struct kern k;
    load(&k, k_small, NULL, "k");
    uint32_t before = k.p.regs_per_thread;
    struct ptx_insn ins[8];
    int32_t r[8];
    for (int i = 0; i < 8; i++) {            /* eight values live across the loop */
        r[i] = ptx_rw_add_reg(&k.rw, PT_U32, NULL);
        ins[i] = ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(r[i]), ptx_opd_imm(i));
    }
    assert_int_equal(ptx_rw_insert(&k.rw, 3, ins, 8, 0), 3);
    assert_int_equal(k.p.regs_per_thread, before);   /* defined, never read: dead */
    for (int i = 0; i < 8; i++)     /* read at $L_done (11, now 19) */
        ins[i] = ptx_insn_new(OP_ADD, PT_S32, 3, ptx_opd_reg(R3), ptx_opd_reg(R3), ptx_opd_reg(r[i]));
    assert_int_equal(ptx_rw_insert(&k.rw, 19, ins, 8, 0), 19);
    assert_true(k.p.regs_per_thread >= before + 8);
    expect_ok(&k);
    unload(&k);
}

/* ------------------------------------------------------------------ end to end */

/* VTW's wrapper while loop (000_0da6b8b480bd0740.txt Section 4.1) on vecadd, with the
   software index update (_next_TbId = logTbId + NumVirtualTBs): a parameter with the number
   of logical TBs, %ctaid.x read from a virtual index, every exit a branch to the update. */
static void vtw_transform(struct ptx_rw *rw)
{
    struct ptx_prog *p = rw->p;
    uint32_t n0 = p->ninsns;
    int64_t nlog = ptx_rw_add_param(rw, "nlogtb", PT_U32, 0, 0);
    int32_t v = ptx_rw_add_reg(rw, PT_U32, "%vctaid"), lim = ptx_rw_add_reg(rw, PT_U32, "%nlogtb");
    int32_t step = ptx_rw_add_reg(rw, PT_U32, "%vstep"), q = ptx_rw_add_reg(rw, PT_PRED, "%vmore");
    ptx_rw_subst_sreg(rw, SR_CTAID, 0, v, 0, n0);
    struct ptx_insn upd[] = {       /* the index update: next logical TB, back to the body */
        ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(step), ptx_opd_sreg(SR_NCTAID, 0)),
        ptx_insn_new(OP_ADD, PT_U32, 3, ptx_opd_reg(v), ptx_opd_reg(v), ptx_opd_reg(step)),
        ptx_insn_setp(CMP_LT, PT_U32, q, ptx_opd_reg(v), ptx_opd_reg(lim)),
        ptx_insn_bra(q, 0, 0),                              /* old pc 0: the body */
        ptx_insn_new(OP_EXIT, PT_NONE, 0),
    };
    int64_t u = ptx_rw_insert(rw, p->ninsns, upd, 5, 0);
    for (uint32_t pc = 0; pc < n0; pc++)
        if (p->insns[pc].op == OP_EXIT) {
            struct ptx_insn b = ptx_insn_bra(p->insns[pc].guard, p->insns[pc].guard_neg, u);
            ptx_rw_replace(rw, pc, &b, 1);
        }
    struct ptx_insn pro[] = {       /* the first index, and no work if there is none */
        ptx_insn_ld(PS_PARAM, PT_U32, lim, ptx_opd_addr(-1, nlog, PS_PARAM)),
        ptx_insn_new(OP_MOV, PT_U32, 2, ptx_opd_reg(v), ptx_opd_sreg(SR_CTAID, 0)),
        ptx_insn_setp(CMP_GE, PT_U32, q, ptx_opd_reg(v), ptx_opd_reg(lim)),
        ptx_insn_new(OP_EXIT, PT_NONE, 0),
    };
    pro[3].guard = q;
    ptx_rw_insert(rw, 0, pro, 4, PTX_RW_KEEP_TARGETS);  /* the loop's back edge skips it */
}

#define VN 1000u                    /* elements: 16 logical TBs of 64 threads */
#define VB 64u

/* vecadd on `grid` CTAs; returns how many of the VN results are right. */
static unsigned run_vecadd(const struct ptx_prog *p, uint32_t grid, int virt)
{
    struct dev d;
    static float a[VN], b[VN], c[VN];
    uint8_t params[64] = {0};
    uint32_t n = VN, nlog = (VN + VB - 1) / VB, ok = 0;
    dev_init(&d);
    for (uint32_t i = 0; i < VN; i++)
        a[i] = 0.5f * (float)i, b[i] = 3.0f - (float)i;
    memset(c, 0xff, sizeof c);
    uint64_t da = dev_alloc(&d, a, sizeof a), db = dev_alloc(&d, b, sizeof b);
    uint64_t dc = dev_alloc(&d, c, sizeof c);
    set_arg(p, params, 0, &da);
    set_arg(p, params, 1, &db);
    set_arg(p, params, 2, &dc);
    set_arg(p, params, 3, &n);
    if (virt)
        set_arg(p, params, 4, &nlog);
    struct gs_stats st;
    run(&d, p, params, grid, VB, 0, 0, &st);
    memcpy(c, gm_ptr(d.gm, dc, sizeof c), sizeof c);
    for (uint32_t i = 0; i < VN; i++)
        ok += c[i] == a[i] + b[i];
    dev_free(&d);
    return ok;
}

static void test_vtw_wrapper_loop_vecadd(void **state)
{
    (void)state;
    struct kern k;
    char err[PTX_ERR_LEN];
    load(&k, NULL, "bench/vecadd/kernel.ptx", "vecadd");
    assert_int_equal(run_vecadd(&k.p, 3, 0), 3 * VB);   /* 3 CTAs alone: 192 elements */
    vtw_transform(&k.rw);
    if (ptx_rw_end(&k.rw, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(run_vecadd(&k.p, 3, 1), VN);       /* the loop covers all 16 TBs */
    assert_int_equal(run_vecadd(&k.p, 16, 1), VN);
    assert_int_equal(run_vecadd(&k.p, 1, 1), VN);
    char *t = ptx_round_trip_prog(&k.p, &k.m, "vtw vecadd");
    tu_assert_contains(t, "\t.param .u32 nlogtb\n)");
    tu_assert_contains(t, "mov.u32 %r3, %vctaid;");
    free(t);
    unload(&k);
}

#define RB 256u                     /* reduce: threads per CTA, 2*RB inputs each */
#define RN (3u * 2u * RB - 37u)

/* bench/reduce (per-CTA sums): results and statistics of one run. */
static void run_reduce(const struct ptx_prog *p, int timing, struct gs_stats *st)
{
    struct dev d;
    static int32_t in[RN], got[3], want[3];
    uint8_t params[64] = {0};
    int32_t n = (int32_t)RN;
    dev_init(&d);
    memset(want, 0, sizeof want);
    for (uint32_t i = 0; i < RN; i++) {
        in[i] = (int32_t)((i * 2654435761u) % 2001u) - 1000;
        want[i / (2 * RB)] += in[i];
    }
    memset(got, 0xff, sizeof got);
    uint64_t din = dev_alloc(&d, in, sizeof in), dp = dev_alloc(&d, got, sizeof got);
    set_arg(p, params, 0, &din);
    set_arg(p, params, 1, &dp);
    set_arg(p, params, 2, &n);
    run(&d, p, params, 3, RB, RB * 4, timing, st);
    memcpy(got, gm_ptr(d.gm, dp, sizeof got), sizeof got);
    for (int c = 0; c < 3; c++)
        if (got[c] != want[c])
            fail_msg("%s model: partial[%d] = %d, expected %d", timing ? "timing" : "functional",
                     c, got[c], want[c]);
    dev_free(&d);
}

static void test_dead_code_everywhere_reduce(void **state)
{
    (void)state;
    struct kern k;
    struct gs_stats before, after, timed;
    load(&k, NULL, "bench/reduce/kernel.ptx", "reduce");
    run_reduce(&k.p, 0, &before);
    uint32_t n0 = k.p.ninsns;
    int32_t junk = ptx_rw_add_reg(&k.rw, PT_U32, "%junk");
    struct ptx_insn j = ptx_insn_new(OP_ADD, PT_U32, 3, ptx_opd_reg(junk), ptx_opd_reg(junk),
                                     ptx_opd_imm(1));
    for (uint32_t pc = n0; pc-- > 0;)        /* from the end: earlier pcs stay put */
        ptx_rw_insert(&k.rw, pc, &j, 1, 0);
    expect_ok(&k);
    assert_int_equal(k.p.ninsns, 2 * n0);
    run_reduce(&k.p, 0, &after);
    /* branches land on the inserted instructions: every instruction run is paired */
    assert_int_equal(after.warp_insns, 2 * before.warp_insns);
    run_reduce(&k.p, 1, &timed);
    assert_int_equal(timed.warp_insns, after.warp_insns);
    unload(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_relabels),
        cmocka_unit_test(test_replace_delete_retarget),
        cmocka_unit_test(test_regs_params_sregs),
        cmocka_unit_test(test_rejected_edits),
        cmocka_unit_test(test_register_estimate),
        cmocka_unit_test(test_vtw_wrapper_loop_vecadd),
        cmocka_unit_test(test_dead_code_everywhere_reduce),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
