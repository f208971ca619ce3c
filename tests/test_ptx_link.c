/*
 * test_ptx_link.c -- cmocka tests for model/ptx/ptx_link.c (one .entry -> flat ptx_prog) and the
 * disassembler of model/ptx/ptx_util.c.
 *
 * Small hand-written modules whose linked form is derived by hand in the comments: inlining
 * (two calls to one .func get their own registers and param scratch, a mid-body `ret` becomes
 * a branch to the instruction after the call, the last `ret` disappears, the kernel's `ret`
 * is an exit), symbol resolution (kernel parameter offsets, static shared layout with
 * alignment, the dynamic shared base, local frames per inlined instance, module .global /
 * .const addresses set by the host), errors (recursion, undefined callee, argument count,
 * missing kernel), the appended exit and the register estimate.  Then structural invariants
 * of every kernel in tests/data/ptx.
 */
#include "testutil.h"
#include "ptx/ptx.h"

#define PS PTX_PSCRATCH_BASE

static const char *data_path(const char *name)
{
    static char buf[4][512];
    static int k;
    char *b = buf[k++ & 3];
    const char *dirs[] = {"tests/data/ptx/", "data/ptx/", "../tests/data/ptx/"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(b, sizeof buf[0], "%s%s", dirs[i], name);
        FILE *f = fopen(b, "rb");
        if (f) {
            fclose(f);
            return b;
        }
    }
    snprintf(b, sizeof buf[0], "tests/data/ptx/%s", name);
    return b;
}

static void parse_ok(struct ptx_module *m, const char *text)
{
    char err[PTX_ERR_LEN];
    if (ptx_parse(text, strlen(text), "t.ptx", m, err, sizeof err))
        fail_msg("parse: %s", err);
}

static void link_ok(const struct ptx_module *m, const char *kernel, struct ptx_prog *p)
{
    char err[PTX_ERR_LEN];
    if (ptx_link(m, kernel, p, err, sizeof err))
        fail_msg("link: %s", err);
}

static void link_error(const char *text, const char *kernel, const char *want)
{
    struct ptx_module m;
    struct ptx_prog p;
    char err[PTX_ERR_LEN];
    parse_ok(&m, text);
    assert_int_equal(ptx_link(&m, kernel, &p, err, sizeof err), -1);
    assert_string_equal(err, want);
    assert_int_equal(p.ninsns, 0);
    assert_null(p.insns);
    ptx_module_free(&m);
}

static void fmt(const struct ptx_prog *p, uint32_t pc, const char *want)
{
    char buf[256];
    ptx_insn_format(p, pc, buf, sizeof buf);
    assert_string_equal(buf, want);
}

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* ------------------------------------------------------------------ inlining */

static const char k_two_calls[] = HDR
    ".func (.param .b32 func_retval0) sq(.param .b32 sq_param_0)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [sq_param_0];\n"
    "  setp.lt.s32 %p1, %r1, 0;\n"
    "  @%p1 bra $L_neg;\n"
    "  mul.lo.s32 %r2, %r1, %r1;\n"
    "  st.param.b32 [func_retval0+0], %r2;\n"
    "  ret;\n"
    "$L_neg:\n"
    "  st.param.b32 [func_retval0+0], 0;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 k_out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [k_out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  { .param .b32 param0; st.param.b32 [param0+0], %r1; .param .b32 retval0;\n"
    "    call.uni (retval0), sq, (param0); ld.param.b32 %r2, [retval0+0]; }\n"
    "  { .param .b32 param0; st.param.b32 [param0+0], %r2; .param .b32 retval0;\n"
    "    call.uni (retval0), sq, (param0); ld.param.b32 %r3, [retval0+0]; }\n"
    "  st.global.u32 [%rd1], %r3;\n"
    "  ret;\n"
    "}\n";

/* Kernel frame in the param scratch: param0 @0, retval0 @4, the second scope's param0 @8,
   retval0 @12.  Expected prog:
      0 ld.param.u64 rd1, [0]          10 ld.param r2, [PS+4]
      1 mov r1, tid.x                  11 st.param [PS+8], r2
      2 st.param [PS+0], r1            12-18  second copy of sq, reading PS+8, writing PS+12
      3 ld.param r1', [PS+0]           19 ld.param r3, [PS+12]
      4 setp p1', r1', 0               20 st.global [rd1], r3
      5 @p1' bra 9                     21 exit
      6 mul r2', r1', r1'
      7 st.param [PS+4], r2'
      8 bra 10        (mid-body ret -> after the call)
      9 st.param [PS+4], 0   (final ret dropped: falls through to 10) */
static void test_inline_two_calls(void **state)
{
    (void)state;
    struct ptx_module m;
    struct ptx_prog p;
    parse_ok(&m, k_two_calls);
    link_ok(&m, "k", &p);
    assert_string_equal(p.name, "k");
    assert_ptr_equal(p.mod, &m);
    assert_int_equal(p.ninsns, 22);
    assert_int_equal(p.nregs, 6 + 2 * 5);
    assert_int_equal(p.pscratch_size, 16);
    for (uint32_t pc = 0; pc < p.ninsns; pc++)
        assert_true(p.insns[pc].op != OP_CALL && p.insns[pc].op != OP_RET);
    fmt(&p, 2, "st.param.b32 [param:0x100000], %r1");
    fmt(&p, 3, "ld.param.u32 %r1_i1, [param:0x100000]");
    fmt(&p, 5, "@%p1_i1 bra @9");
    fmt(&p, 8, "bra @10");
    fmt(&p, 9, "st.param.b32 [param:0x100004], 0");
    fmt(&p, 10, "ld.param.b32 %r2, [param:0x100004]");
    fmt(&p, 12, "ld.param.u32 %r1_i2, [param:0x100008]");
    fmt(&p, 14, "@%p1_i2 bra @18");
    fmt(&p, 16, "st.param.b32 [param:0x10000c], %r2_i2");
    fmt(&p, 17, "bra @19");
    fmt(&p, 18, "st.param.b32 [param:0x10000c], 0");
    fmt(&p, 19, "ld.param.b32 %r3, [param:0x10000c]");
    fmt(&p, 21, "exit");
    /* the two copies use different registers of the right types */
    int32_t a = p.insns[3].opd[0].reg, b = p.insns[12].opd[0].reg;
    assert_int_not_equal(a, b);
    assert_int_equal(p.reg_type[a], PT_B32);
    assert_int_equal(p.reg_type[p.insns[4].opd[0].reg], PT_PRED);
    assert_int_equal(p.insns[8].guard, -1);
    assert_int_equal(p.insns[12].opd[1].space, PS_PARAM);
    assert_int_equal(p.insns[12].opd[1].imm, PS + 8);
    assert_int_equal(p.insns[0].opd[1].imm, 0);
    assert_int_equal(p.insns[0].opd[1].reg, -1);
    ptx_prog_free(&p);
    assert_null(p.insns);
    ptx_module_free(&m);
}

/* A guarded call with register arguments: a skip branch, then a store of each register
   into a fresh scratch slot that the callee's parameter aliases. */
static void test_guarded_call_reg_args(void **state)
{
    (void)state;
    static const char text[] = HDR
        ".func inc(.param .b32 inc_a, .param .b64 inc_p)\n"
        "{\n"
        "  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u32 %r1, [inc_a];\n"
        "  ld.param.u64 %rd1, [inc_p];\n"
        "  add.s32 %r2, %r1, 1;\n"
        "  st.global.u32 [%rd1], %r2;\n"
        "}\n"
        ".entry k(.param .u64 k_p)\n"
        "{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [k_p];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.eq.s32 %p1, %r1, 0;\n"
        "  @!%p1 call inc, (%r1, %rd1);\n"
        "}\n";
    struct ptx_module m;
    struct ptx_prog p;
    parse_ok(&m, text);
    link_ok(&m, "k", &p);
    /* 0 ld, 1 mov, 2 setp, 3 @%p1 bra 10, 4-5 stores, 6-9 body, 10 exit (appended) */
    assert_int_equal(p.ninsns, 11);
    fmt(&p, 3, "@%p1 bra @10");
    fmt(&p, 4, "st.param.b32 [param:0x100000], %r1");
    fmt(&p, 5, "st.param.b64 [param:0x100008], %rd1");
    fmt(&p, 6, "ld.param.u32 %r1_i1, [param:0x100000]");
    fmt(&p, 7, "ld.param.u64 %rd1_i1, [param:0x100008]");
    fmt(&p, 10, "exit");
    assert_int_equal(p.pscratch_size, 16);
    ptx_prog_free(&p);
    ptx_module_free(&m);
}

/* ------------------------------------------------------------------ symbols */

static const char k_symbols[] = HDR
    ".shared .align 4 .b8 s1[3];\n"
    ".shared .align 16 .b8 s2[20];\n"
    ".shared .align 8 .b8 unused[64];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".global .align 4 .u32 gv[4];\n"
    ".const .align 4 .f32 cv[2];\n"
    ".func f()\n"
    "{\n"
    "  .local .align 4 .b8 fd[8];\n"
    "  .shared .align 4 .b8 fs[4];\n"
    "  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n"
    "  mov.u64 %rd1, fd;\n"
    "  mov.u32 %r1, fs;\n"
    "  ret;\n"
    "}\n"
    ".entry k(.param .u32 a, .param .u64 b, .param .u8 c, .param .align 16 .b8 d[32])\n"
    "{\n"
    "  .local .align 8 .b8 depot[24];\n"
    "  .reg .b16 %rs<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<2>;\n"
    "  ld.param.u32 %r1, [a];\n"                   /* 0 */
    "  ld.param.u64 %rd1, [b];\n"
    "  ld.param.u8 %rs1, [c];\n"
    "  ld.param.u32 %r2, [d+4];\n"
    "  mov.u32 %r3, s1;\n"
    "  mov.u32 %r4, s2;\n"                         /* 5 */
    "  ld.shared.u32 %r5, [s2+8];\n"
    "  mov.u32 %r6, dyn;\n"
    "  st.shared.u32 [dyn+4], %r1;\n"
    "  mov.u64 %rd2, depot;\n"
    "  st.local.u32 [depot+8], %r1;\n"             /* 10 */
    "  mov.u64 %rd3, gv;\n"
    "  ld.global.u32 %r7, [gv+12];\n"
    "  ld.const.f32 %f1, [cv+4];\n"
    "  call f;\n"                                  /* 14, 15: mov fd, mov fs */
    "  call f;\n"                                  /* 16, 17 */
    "  ret;\n"                                     /* 18 */
    "}\n";

static void test_symbols(void **state)
{
    (void)state;
    struct ptx_module m;
    struct ptx_prog p;
    parse_ok(&m, k_symbols);
    for (uint32_t v = 0; v < m.nvars; v++) {       /* the host's job at load time */
        if (!strcmp(m.vars[v].name, "gv"))
            m.vars[v].addr = 0x10000;
        if (!strcmp(m.vars[v].name, "cv"))
            m.vars[v].addr = 0x20000;
    }
    link_ok(&m, "k", &p);
    assert_int_equal(p.ninsns, 19);
    /* parameters: a@0, b@8, c@16, d@32 (align 16); 64 bytes */
    assert_int_equal(p.nparams, 4);
    assert_int_equal(p.params[3].offset, 32);
    assert_int_equal(p.param_size, 64);
    assert_int_equal(p.insns[1].opd[1].imm, 8);
    assert_int_equal(p.insns[2].opd[1].imm, 16);
    assert_int_equal(p.insns[3].opd[1].imm, 36);
    assert_int_equal(p.insns[3].opd[1].space, PS_PARAM);
    /* shared: s1@0 (3 bytes), s2@16 (align 16, 20 bytes), then f's fs@36; unused is not
       allocated; static 40 bytes, dynamic at 48 */
    assert_int_equal(p.insns[4].opd[1].kind, OPD_SYMADDR);
    assert_int_equal(p.insns[4].opd[1].imm, 0);
    assert_int_equal(p.insns[5].opd[1].imm, 16);
    assert_int_equal(p.insns[6].opd[1].imm, 24);
    assert_int_equal(p.insns[6].opd[1].space, PS_SHARED);
    assert_int_equal(p.insns[6].opd[1].reg, -1);
    assert_int_equal(p.insns[15].opd[1].imm, 36);
    assert_int_equal(p.insns[17].opd[1].imm, 36);  /* one fs for every call */
    assert_int_equal(p.shared_static, 40);
    assert_int_equal(p.insns[7].opd[1].imm, 48);
    assert_int_equal(p.insns[8].opd[0].imm, 52);
    /* local: the kernel's depot@0, each inlined f gets its own fd: 24 and 32 */
    assert_int_equal(p.insns[9].opd[1].imm, 0);
    assert_int_equal(p.insns[9].opd[1].space, PS_LOCAL);
    assert_int_equal(p.insns[10].opd[0].imm, 8);
    assert_int_equal(p.insns[14].opd[1].imm, 24);
    assert_int_equal(p.insns[16].opd[1].imm, 32);
    assert_int_equal(p.local_size, 40);
    /* module .global / .const at the host's addresses */
    assert_int_equal(p.insns[11].opd[1].imm, 0x10000);
    assert_int_equal(p.insns[11].opd[1].space, PS_GLOBAL);
    assert_int_equal(p.insns[12].opd[1].imm, 0x1000c);
    assert_int_equal(p.insns[13].opd[1].imm, 0x20004);
    assert_int_equal(p.insns[13].opd[1].space, PS_CONST);
    fmt(&p, 6, "ld.shared.u32 %r5, [shared:0x18]");
    fmt(&p, 7, "mov.u32 %r6, shared:0x30");
    fmt(&p, 18, "exit");
    ptx_prog_free(&p);
    ptx_module_free(&m);
}

/* ------------------------------------------------------------------ errors */

static void test_recursion(void **state)
{
    (void)state;
    link_error(HDR
               ".func f()\n"
               "{\n"
               "  call f;\n"
               "}\n"
               ".entry k()\n{\n  call f;\n  ret;\n}\n",
               "k", "t.ptx:6: recursive call to 'f' (recursion cannot be inlined)");
    link_error(HDR
               ".func g();\n"
               ".func f()\n{\n  call g;\n}\n"
               ".func g()\n{\n  call f;\n}\n"
               ".entry k()\n{\n  call f;\n  ret;\n}\n",
               "k", "t.ptx:11: recursive call to 'f' (recursion cannot be inlined)");
    /* the same function twice in a row is not recursion */
    struct ptx_module m;
    struct ptx_prog p;
    parse_ok(&m, HDR ".func f()\n{\n  ret;\n}\n.func g()\n{\n  call f;\n  call f;\n}\n"
                 ".entry k()\n{\n  call g;\n  call f;\n}\n");
    link_ok(&m, "k", &p);
    assert_int_equal(p.ninsns, 1);
    assert_int_equal(p.insns[0].op, OP_EXIT);
    ptx_prog_free(&p);
    ptx_module_free(&m);
}

static void test_link_errors(void **state)
{
    (void)state;
    static const char proto[] = HDR
        ".extern .func (.param .b32 func_retval0) external(.param .b64 a, .param .b64 b);\n"
        ".func two(.param .b32 x, .param .b32 y)\n{\n  ret;\n}\n"
        ".entry k()\n{\n  .reg .b32 %r<2>;\n"
        "  { .param .b64 param0; .param .b64 param1; .param .b32 retval0;\n"
        "    call.uni (retval0), external, (param0, param1); }\n"
        "  ret;\n}\n"
        ".entry k2()\n{\n  .reg .b32 %r<2>;\n  call.uni two, (%r1);\n  ret;\n}\n"
        ".entry k3()\n{\n  call.uni k;\n  ret;\n}\n";
    /* (a call of the .extern vprintf links: device printf, test_devprintf.c) */
    link_error(proto, "k", "t.ptx:13: call to undefined function 'external'");
    link_error(proto, "k2", "t.ptx:19: call to 'two' with 1 arguments, expected 2");
    link_error(proto, "k3", "t.ptx:24: call to .entry 'k'");
    link_error(proto, "nosuch", "t.ptx: no kernel named 'nosuch'");
    link_error(proto, "two", "t.ptx:5: 'two' is a .func, not a kernel (.entry)");
}

/* ------------------------------------------------------------------ exit, registers */

static void test_appended_exit(void **state)
{
    (void)state;
    struct ptx_module m;
    struct ptx_prog p;
    /* no ret: an exit is appended; a branch to the end lands on it */
    parse_ok(&m, HDR ".entry k()\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n"
                 "  mov.u32 %r1, %tid.x;\n  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra $L_end;\n"
                 "  mov.u32 %r1, 1;\n$L_end:\n}\n");
    link_ok(&m, "k", &p);
    assert_int_equal(p.ninsns, 5);
    assert_int_equal(p.insns[4].op, OP_EXIT);
    assert_int_equal(p.insns[4].guard, -1);
    assert_int_equal(p.insns[2].opd[0].imm, 4);
    ptx_prog_free(&p);
    ptx_module_free(&m);
    /* ends with a guarded ret: still needs the final exit */
    parse_ok(&m, HDR ".entry k()\n{\n  .reg .pred %p<2>;\n  @%p1 ret;\n}\n");
    link_ok(&m, "k", &p);
    assert_int_equal(p.ninsns, 2);
    fmt(&p, 0, "@%p1 exit");
    fmt(&p, 1, "exit");
    ptx_prog_free(&p);
    ptx_module_free(&m);
    /* an empty kernel is one exit */
    parse_ok(&m, HDR ".entry k()\n{\n}\n");
    link_ok(&m, "k", &p);
    assert_int_equal(p.ninsns, 1);
    assert_int_equal(p.regs_per_thread, 2);
    ptx_prog_free(&p);
    ptx_module_free(&m);
}

/* Live 32-bit slots (64-bit registers count 2, predicates 0):
     ld.param rd1           {rd1}                2
     mov r1                 {rd1 r1}             3
     mul.wide rd2, r1, 4    {rd1 r1 rd2}         5   <- maximum
     add rd2, rd1, rd2      {r1 rd2}             3
     setp p1, r1, 0         {r1 rd2 p1}          3
     @p1 st [rd2], r1       {}
   so regs_per_thread = 5 + 2. */
static void test_regs_per_thread(void **state)
{
    (void)state;
    struct ptx_module m;
    struct ptx_prog p;
    parse_ok(&m, HDR ".entry k(.param .u64 k_p)\n{\n"
                 "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
                 "  ld.param.u64 %rd1, [k_p];\n"
                 "  mov.u32 %r1, %tid.x;\n"
                 "  mul.wide.u32 %rd2, %r1, 4;\n"
                 "  add.s64 %rd2, %rd1, %rd2;\n"
                 "  setp.ne.s32 %p1, %r1, 0;\n"
                 "  @%p1 st.global.u32 [%rd2], %r1;\n"
                 "  ret;\n}\n");
    link_ok(&m, "k", &p);
    assert_int_equal(p.regs_per_thread, 7);
    ptx_prog_free(&p);
    ptx_module_free(&m);
    /* a loop keeps its induction variable live around the back edge */
    parse_ok(&m, HDR ".entry k()\n{\n"
                 "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
                 "  mov.u32 %r1, 0;\n"
                 "  mov.u32 %r2, 0;\n"
                 "$L:\n"
                 "  add.s32 %r2, %r2, %r1;\n"
                 "  add.s32 %r1, %r1, 1;\n"
                 "  setp.lt.s32 %p1, %r1, 10;\n"
                 "  @%p1 bra $L;\n"
                 "  mov.u32 %r3, %r2;\n"
                 "  ret;\n}\n");
    link_ok(&m, "k", &p);
    assert_int_equal(p.regs_per_thread, 2 + 2);
    ptx_prog_free(&p);
    ptx_module_free(&m);
}

/* ------------------------------------------------------------------ real kernels */

static void check_invariants(const struct ptx_prog *p)
{
    assert_true(p->ninsns > 0);
    const struct ptx_insn *last = &p->insns[p->ninsns - 1];
    assert_true((last->op == OP_EXIT || last->op == OP_BRA) && last->guard < 0);
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        assert_true(in->op != OP_CALL && in->op != OP_RET && in->op != OP_INVALID);
        assert_true(in->guard < (int32_t)p->nregs);
        if (in->guard >= 0)
            assert_int_equal(p->reg_type[in->guard], PT_PRED);
        for (unsigned k = 0; k < in->nopd; k++) {
            const struct ptx_operand *o = &in->opd[k];
            if (o->kind == OPD_REG || (o->kind == OPD_ADDR && o->reg >= 0))
                assert_true(o->reg >= 0 && o->reg < (int32_t)p->nregs);
            if (o->kind == OPD_ADDR && o->reg < 0)
                assert_true(o->space != PS_GENERIC || in->op == OP_LD || in->op == OP_ST);
            if (o->kind == OPD_LABEL)
                assert_true(o->imm >= 0 && o->imm < (int64_t)p->ninsns);
            if (o->kind == OPD_VEC)
                for (unsigned e = 0; e < o->nvec; e++)
                    assert_true(o->vec[e] < (int32_t)p->nregs);
        }
        char buf[256];
        ptx_insn_format(p, pc, buf, sizeof buf);
        assert_true(strlen(buf) > 2);
    }
    assert_true(p->regs_per_thread >= 2 && p->regs_per_thread < 2 * p->nregs + 3);
}

static void test_real_kernels(void **state)
{
    (void)state;
    const char *files[] = {"nvcc_reduce.ptx", "nvcc_misc.ptx", "constructs.ptx"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        struct ptx_module m;
        char err[PTX_ERR_LEN];
        if (ptx_parse_file(data_path(files[i]), &m, err, sizeof err))
            fail_msg("%s", err);
        int kernels = 0;
        for (uint32_t f = 0; f < m.nfuncs; f++) {
            if (!m.funcs[f].is_entry)
                continue;
            struct ptx_prog p;
            link_ok(&m, m.funcs[f].name, &p);
            check_invariants(&p);
            kernels++;
            ptx_prog_free(&p);
        }
        assert_true(kernels > 0);
        ptx_module_free(&m);
    }
    /* nvcc_reduce: sdata[256] floats static, dyn[] right after, a 28-byte depot, the
       helper's call sequence: param0, param1, retval0 = 12 bytes of scratch */
    struct ptx_module m;
    struct ptx_prog p;
    char err[PTX_ERR_LEN];
    if (ptx_parse_file(data_path("nvcc_reduce.ptx"), &m, err, sizeof err))
        fail_msg("%s", err);
    link_ok(&m, "reduce", &p);
    assert_int_equal(p.shared_static, 1024);
    assert_int_equal(p.local_size, 28);
    assert_int_equal(p.pscratch_size, 12);
    assert_int_equal(p.param_size, 20);
    int dyn_seen = 0;
    for (uint32_t pc = 0; pc < p.ninsns; pc++)
        if (p.insns[pc].op == OP_LD && p.insns[pc].space == PS_SHARED && p.insns[pc].opd[1].reg < 0
            && p.insns[pc].opd[1].imm == 1024 + 12)
            dyn_seen = 1;                           /* ld.shared.u32 %r40, [dyn+12] */
    assert_true(dyn_seen);
    ptx_prog_free(&p);
    ptx_module_free(&m);
}

static void test_format_edges(void **state)
{
    (void)state;
    char buf[8];
    struct ptx_prog p;
    memset(&p, 0, sizeof p);
    ptx_insn_format(&p, 0, buf, sizeof buf);          /* out of range: message, no crash */
    assert_true(strlen(buf) < sizeof buf);
    ptx_insn_format(NULL, 0, buf, sizeof buf);
    ptx_insn_format(&p, 0, NULL, 0);
    ptx_prog_free(NULL);
    ptx_prog_free(&p);
    assert_int_equal(ptx_link(NULL, "k", &p, buf, sizeof buf), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_two_calls),
        cmocka_unit_test(test_guarded_call_reg_args),
        cmocka_unit_test(test_symbols),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_link_errors),
        cmocka_unit_test(test_appended_exit),
        cmocka_unit_test(test_regs_per_thread),
        cmocka_unit_test(test_real_kernels),
        cmocka_unit_test(test_format_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
