/*
 * test_ptx_parse.c -- cmocka tests for model/ptx/ptx_parse.c (PTX text -> struct ptx_module) and
 * the helpers of model/ptx/ptx_util.c.
 *
 * Good inputs: two real nvcc outputs (tests/data/ptx/nvcc_*.ptx, made from the .cu files next
 * to them with `nvcc -ptx -arch=sm_75 -O3`), a hand-written file with every construct the
 * parser accepts (constructs.ptx), and one-instruction kernels whose decoded fields are
 * checked one by one (the carry forms: their flag operand).  Bad inputs: each malformed
 * file and snippet must give exactly "FILE:LINE: message".  Last, a mutation smoke test: truncated and byte-flipped versions of
 * a real file must be parsed or rejected, never crash (run it under ASan/UBSan for value).
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "ptx/ptx.h"

/* ------------------------------------------------------------------ helpers */

/* Path of a file in tests/data/ptx (the tests may run from the repository root or tests/). */
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

static const struct ptx_func *func(const struct ptx_module *m, const char *name)
{
    const struct ptx_func *f = ptx_find_func(m, name);
    assert_non_null(f);
    return f;
}

static const struct ptx_var *var(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nvars; i++)
        if (!strcmp(m->vars[i].name, name))
            return &m->vars[i];
    fail_msg("no variable %s", name);
    return NULL;
}

static const char *reg_name(const struct ptx_func *f, int32_t r)
{
    assert_true(r >= 0 && (uint32_t)r < f->nregs);
    return f->regs[r].name;
}

/* First instruction of f on source line `line`. */
static const struct ptx_insn *at_line(const struct ptx_func *f, uint32_t line)
{
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (f->insns[i].line == line)
            return &f->insns[i];
    fail_msg("no instruction on line %u", line);
    return NULL;
}

static uint32_t f32bits(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

/* A one-kernel module around `body`; the body starts on line BODY_LINE. */
static const char k_pre[] =
    ".version 9.0\n"                                          /* 1 */
    ".target sm_75\n"
    ".address_size 64\n"
    ".shared .align 8 .b8 sh[64];\n"
    ".global .align 4 .u32 g[4] = {1, 2, 3, 4};\n"            /* 5 */
    ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1)\n"
    "{\n"
    ".reg .pred %p<4>;\n"
    ".reg .b16 %rs<4>;\n"
    ".reg .b32 %r<8>;\n"                                      /* 10 */
    ".reg .f32 %f<8>;\n"
    ".reg .b64 %rd<8>;\n"
    ".reg .f64 %fd<4>;\n"
    ".local .align 4 .b8 depot[16];\n"
    "L0:\n";                                                  /* 15 */
#define BODY_LINE 16

static int parse_body(struct ptx_module *m, const char *body, char *err)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s\nret;\n}\n", k_pre, body);
    return ptx_parse(text, strlen(text), "k.ptx", m, err, PTX_ERR_LEN);
}

/* Parse a one-instruction body and return that instruction (module kept in *m). */
static const struct ptx_insn *one(struct ptx_module *m, const char *body)
{
    char err[PTX_ERR_LEN];
    int rc = parse_body(m, body, err);
    if (rc)
        fail_msg("parse failed: %s\n  body: %s", err, body);
    assert_int_equal(m->nfuncs, 1);
    assert_true(m->funcs[0].ninsns >= 2);
    return &m->funcs[0].insns[0];
}

/* The body must be rejected with exactly "k.ptx:LINE: msg". */
static void body_error(const char *body, unsigned line, const char *msg)
{
    struct ptx_module m;
    char err[PTX_ERR_LEN], want[PTX_ERR_LEN];
    snprintf(want, sizeof want, "k.ptx:%u: %s", line, msg);
    assert_int_equal(parse_body(&m, body, err), -1);
    assert_string_equal(err, want);
    assert_int_equal(m.nfuncs, 0);
    ptx_module_free(&m);
}

static void file_error(const char *name, unsigned line, const char *msg)
{
    struct ptx_module m;
    char err[PTX_ERR_LEN], want[PTX_ERR_LEN];
    const char *path = data_path(name);
    snprintf(want, sizeof want, "%s:%u: %s", path, line, msg);
    assert_int_equal(ptx_parse_file(path, &m, err, sizeof err), -1);
    assert_string_equal(err, want);
    ptx_module_free(&m);
}

/* ------------------------------------------------------------------ real nvcc output */

static void test_nvcc_reduce(void **state)
{
    (void)state;
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    if (ptx_parse_file(data_path("nvcc_reduce.ptx"), &m, err, sizeof err))
        fail_msg("%s", err);
    assert_string_equal(m.version, "9.0");
    assert_string_equal(m.target, "sm_75");
    assert_int_equal(m.address_size, 64);
    assert_int_equal(m.nfuncs, 2);

    const struct ptx_func *h = func(&m, "_Z7helper2ii");
    assert_false(h->is_entry);
    assert_int_equal(h->nrets, 1);
    assert_string_equal(h->rets[0].name, "func_retval0");
    assert_int_equal(h->nparams, 2);
    assert_int_equal(h->nregs, 7 + 44);
    assert_int_equal(h->nlabels, 4);
    assert_string_equal(h->labels[0], "$L__BB0_3");

    const struct ptx_func *k = func(&m, "reduce");
    assert_true(k->is_entry);
    assert_int_equal(k->nparams, 3);
    assert_int_equal(k->params[0].offset, 0);
    assert_int_equal(k->params[1].offset, 8);
    assert_int_equal(k->params[2].offset, 16);
    assert_int_equal(k->params[2].size, 4);
    assert_int_equal(k->param_size, 20);

    /* variables: dynamic shared, module global with initializer, demoted shared, depot */
    const struct ptx_var *dyn = var(&m, "dyn");
    assert_int_equal(dyn->space, PS_SHARED);
    assert_true(dyn->is_extern);
    assert_int_equal(dyn->size, 0);
    assert_int_equal(dyn->align, 16);
    const struct ptx_var *tab = var(&m, "__cudart_i2opi_f");
    assert_int_equal(tab->space, PS_GLOBAL);
    assert_int_equal(tab->size, 24);
    assert_non_null(tab->init);
    assert_int_equal(tab->init[0], 65);
    assert_int_equal(tab->init[23], 162);
    const struct ptx_var *sd = var(&m, "_ZZ6reduceE5sdata");
    assert_int_equal(sd->space, PS_SHARED);
    assert_int_equal(sd->size, 1024);
    assert_int_equal(sd->func, (int32_t)(k - m.funcs));
    assert_int_equal(var(&m, "__local_depot1")->space, PS_LOCAL);

    /* the call sequence: one call with its .param variables */
    assert_int_equal(k->ncalls, 1);
    const struct ptx_call *cl = &k->calls[0];
    assert_string_equal(m.strs[cl->callee], "_Z7helper2ii");
    assert_int_equal(cl->nrets, 1);
    assert_int_equal(cl->nargs, 2);
    assert_string_equal(m.strs[cl->rets[0]], "retval0");
    assert_string_equal(m.strs[cl->args[1]], "param1");
    const struct ptx_insn *call = at_line(k, 124);
    assert_int_equal(call->op, OP_CALL);
    assert_true(call->mod & MOD_UNI);
    assert_int_equal(call->opd[0].imm, 0);

    /* a few decoded instructions */
    const struct ptx_insn *in = at_line(k, 163);   /* shfl.sync.down.b32 %r10|%p7, ... */
    assert_int_equal(in->op, OP_SHFL);
    assert_int_equal(in->sub, SHFL_DOWN);
    assert_int_equal(in->nopd, 6);
    assert_string_equal(reg_name(k, in->opd[0].reg), "%r10");
    assert_string_equal(reg_name(k, in->opd[1].reg), "%p7");
    assert_string_equal(reg_name(k, in->opd[5].reg), "%r36");
    in = at_line(k, 159);                          /* vote.sync.ballot.b32 %r9, %p6, %r36 */
    assert_int_equal(in->op, OP_VOTE);
    assert_int_equal(in->sub, VOTE_BALLOT);
    assert_int_equal(in->type, PT_B32);
    in = at_line(k, 178);                          /* atom.global.add.f32 %f27, [%rd1], 1.0 */
    assert_int_equal(in->op, OP_ATOM);
    assert_int_equal(in->space, PS_GLOBAL);
    assert_int_equal(in->sub, AOP_ADD);
    assert_int_equal(in->type, PT_F32);
    assert_int_equal(in->opd[2].kind, OPD_IMM);
    assert_int_equal(in->opd[2].imm, 0x3f800000);
    in = at_line(k, 236);                          /* ld.local.u32 %r75, [%rd21+-4] */
    assert_int_equal(in->opd[1].kind, OPD_ADDR);
    assert_int_equal(in->opd[1].imm, -4);
    assert_string_equal(reg_name(k, in->opd[1].reg), "%rd21");
    in = at_line(k, 91);                           /* mov.u64 %SPL, __local_depot1 */
    assert_int_equal(in->opd[1].kind, OPD_SYMADDR);
    assert_int_equal(in->opd[1].space, PS_LOCAL);
    assert_string_equal(m.strs[in->opd[1].sym], "__local_depot1");
    in = at_line(k, 172);                          /* ld.shared.u32 %r40, [dyn+12] */
    assert_int_equal(in->opd[1].reg, -1);
    assert_int_equal(in->opd[1].space, PS_SHARED);
    assert_int_equal(in->opd[1].imm, 12);
    in = at_line(k, 103);                          /* @%p2 bra $L__BB1_2 */
    assert_int_equal(in->op, OP_BRA);
    assert_string_equal(reg_name(k, in->guard), "%p2");
    assert_int_equal(in->opd[0].kind, OPD_LABEL);
    assert_int_equal(in->opd[0].imm, k->label_pos[0]);
    assert_int_equal(k->insns[k->label_pos[0]].line, 111);
    in = at_line(k, 273);                          /* bfi.b64 %rd26, %rd24, %rd25, 32, 32 */
    assert_int_equal(in->op, OP_BFI);
    assert_int_equal(in->nopd, 5);
    assert_int_equal(in->opd[4].imm, 32);
    ptx_module_free(&m);
    assert_int_equal(m.nfuncs, 0);
}

static void test_nvcc_misc(void **state)
{
    (void)state;
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    if (ptx_parse_file(data_path("nvcc_misc.ptx"), &m, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(m.nfuncs, 4);
    const struct ptx_func *k = func(&m, "_Z2k1PK6float4PS_PhPsPxPdi1S");
    assert_int_equal(k->maxntid[0], 256);
    assert_int_equal(k->maxntid[1], 1);
    /* .param .align 8 .b8 p[16] after a .u32 */
    assert_int_equal(k->params[7].size, 16);
    assert_int_equal(k->params[7].align, 8);
    assert_int_equal(k->params[7].offset, 56);
    assert_int_equal(k->param_size, 72);
    /* .func with an empty parameter list */
    assert_int_equal(func(&m, "_Z7nothingPi")->nparams, 0);
    /* the two call sequences redeclare param0/retval0: distinct variables */
    assert_int_equal(k->ncalls, 4);
    assert_int_not_equal(k->calls[0].args[0], k->calls[1].args[0]);
    assert_string_equal(m.strs[k->calls[0].args[0]], "param0");
    assert_int_equal(strncmp(m.strs[k->calls[1].args[0]], "param0#", 7), 0);
    assert_int_equal(k->calls[3].nargs, 0);
    assert_int_equal(k->calls[3].nrets, 0);
    /* mov.b64 {%r2, %temp}, %fd9 (unpack into a scope-local register) */
    const struct ptx_insn *in = at_line(k, 175);
    assert_int_equal(in->op, OP_MOV);
    assert_int_equal(in->opd[0].kind, OPD_VEC);
    assert_int_equal(in->opd[0].nvec, 2);
    assert_string_equal(reg_name(k, in->opd[0].vec[1]), "%temp");
    int32_t temp1 = in->opd[0].vec[1];
    in = at_line(k, 207);
    assert_int_not_equal(in->opd[0].vec[1], temp1);   /* a later scope's %temp */
    in = at_line(k, 215);                              /* mov.b64 %fd52, {%r3, %r16} */
    assert_int_equal(in->opd[1].kind, OPD_VEC);
    in = at_line(k, 443);                              /* bar.warp.sync -1 */
    assert_int_equal(in->op, OP_NOP);
    assert_int_equal(in->sub, 1);
    in = at_line(k, 389);                              /* membar.gl */
    assert_int_equal(in->op, OP_MEMBAR);
    in = at_line(k, 349);                              /* bfind.shiftamt.u32 */
    assert_int_equal(in->op, OP_BFIND);
    assert_true(in->mod & MOD_SHIFTAMT);
    in = at_line(k, 117);                              /* ld.global.nc.v4.f32 {...}, [%rd19] */
    assert_int_equal(in->op, OP_LD);
    assert_int_equal(in->vec, 4);
    assert_true(in->mod & MOD_NC);
    in = at_line(k, 121);                              /* mov.u64 %rd22, cvals (a .const) */
    assert_int_equal(in->opd[1].kind, OPD_SYMADDR);
    assert_int_equal(in->opd[1].space, PS_CONST);
    /* .const initializer, little-endian bytes */
    const struct ptx_var *cv = var(&m, "cvals");
    assert_int_equal(cv->init[2], 128);
    assert_int_equal(cv->init[3], 63);
    ptx_module_free(&m);
}

static void test_constructs(void **state)
{
    (void)state;
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    if (ptx_parse_file(data_path("constructs.ptx"), &m, err, sizeof err))
        fail_msg("%s", err);
    /* prototypes (.extern vprintf, twice) are not functions; the definition of twice is */
    assert_int_equal(m.nfuncs, 2);
    assert_null(ptx_find_func(&m, "vprintf"));
    const struct ptx_func *k = func(&m, "constructs");
    assert_int_equal(k->maxntid[0], 128);
    assert_int_equal(k->maxntid[1], 2);
    assert_int_equal(k->reqntid[0], 64);
    assert_int_equal(k->reqntid[1], 1);
    assert_int_equal(k->params[3].offset, 32);
    assert_int_equal(k->param_size, 33);
    /* initializers */
    const struct ptx_var *v = var(&m, "gtab");
    int64_t g[3];
    memcpy(g, v->init, sizeof g);
    assert_int_equal(g[0], 1);
    assert_int_equal(g[1], -2);
    assert_int_equal(g[2], 16);
    v = var(&m, "ctab");
    float c[4];
    memcpy(c, v->init, sizeof c);
    assert_true(c[0] == 1.0f && c[1] == 2.5f && c[2] == -1.0f && c[3] == 3.0f);
    v = var(&m, "bytes");
    assert_int_equal(v->size, 5);
    assert_int_equal(v->init[4], 5);
    assert_int_equal(var(&m, "vpair")->size, 16);
    assert_int_equal(var(&m, "wk")->type, PT_S32);
    /* .reg list with a single name */
    int found = 0;
    for (uint32_t r = 0; r < k->nregs; r++)
        found |= !strcmp(k->regs[r].name, "%q") && k->regs[r].type == PT_PRED;
    assert_true(found);
    /* two inner scopes each declare %tmp: two registers */
    int ntmp = 0;
    for (uint32_t r = 0; r < k->nregs; r++)
        ntmp += !strcmp(k->regs[r].name, "%tmp");
    assert_int_equal(ntmp, 2);
    /* the call spread over lines and the one-line call */
    assert_int_equal(k->ncalls, 2);
    assert_string_equal(m.strs[k->calls[1].callee], "twice");
    /* the branch back to $L__loop with a negated guard */
    const struct ptx_insn *in = NULL;
    for (uint32_t i = 0; i < k->ninsns; i++)
        if (k->insns[i].op == OP_BRA)
            in = &k->insns[i];
    assert_non_null(in);
    assert_int_equal(in->guard_neg, 1);
    assert_string_equal(reg_name(k, in->guard), "%q");
    assert_true(in->mod & MOD_UNI);
    assert_int_equal(in->opd[0].imm, k->label_pos[0]);
    ptx_module_free(&m);
}

/* ------------------------------------------------------------------ instruction fields */

static void test_setp_set(void **state)
{
    (void)state;
    struct ptx_module m;
    const struct ptx_insn *in = one(&m, "setp.ne.and.s32 %p1|%p2, %r1, -3, !%p3;");
    assert_int_equal(in->op, OP_SETP);
    assert_int_equal(in->type, PT_PRED);
    assert_int_equal(in->type2, PT_S32);
    assert_int_equal(in->cmp, CMP_NE);
    assert_int_equal(in->bop, BOP_AND);
    assert_int_equal(in->nopd, 5);
    assert_string_equal(reg_name(&m.funcs[0], in->opd[0].reg), "%p1");
    assert_string_equal(reg_name(&m.funcs[0], in->opd[1].reg), "%p2");
    assert_int_equal(in->opd[3].kind, OPD_IMM);
    assert_int_equal(in->opd[3].imm, -3);
    assert_int_equal(in->opd[4].kind, OPD_REG);
    assert_int_equal(in->opd[4].neg, 1);
    ptx_module_free(&m);

    in = one(&m, "setp.gtu.f32 %p1, %f1, 0f3F800000;");
    assert_int_equal(in->cmp, CMP_GTU);
    assert_int_equal(in->bop, BOP_NONE);
    assert_int_equal(in->nopd, 4);
    assert_int_equal(in->opd[1].kind, OPD_NONE);
    assert_int_equal(in->opd[3].imm, 0x3f800000);
    ptx_module_free(&m);

    in = one(&m, "setp.lt.f64 %p1, %fd1, 0d4000000000000000;");
    assert_int_equal((uint64_t)in->opd[3].imm, 0x4000000000000000ull);
    ptx_module_free(&m);

    in = one(&m, "set.le.or.f32.s32 %f1, %r1, %r2, %p0;");
    assert_int_equal(in->op, OP_SET);
    assert_int_equal(in->type, PT_F32);
    assert_int_equal(in->type2, PT_S32);
    assert_int_equal(in->bop, BOP_OR);
    assert_int_equal(in->nopd, 4);
    assert_string_equal(reg_name(&m.funcs[0], in->opd[1].reg), "%r1");
    assert_string_equal(reg_name(&m.funcs[0], in->opd[3].reg), "%p0");
    ptx_module_free(&m);
}

static void test_warp_ops(void **state)
{
    (void)state;
    struct ptx_module m;
    const struct ptx_insn *in = one(&m, "shfl.sync.idx.b32 %r1, %r2, 3, 0x1f, -1;");
    assert_int_equal(in->sub, SHFL_IDX);
    assert_int_equal(in->opd[1].kind, OPD_NONE);
    assert_int_equal(in->opd[3].imm, 3);
    assert_int_equal(in->opd[4].imm, 31);
    assert_int_equal(in->opd[5].imm, -1);
    ptx_module_free(&m);
    in = one(&m, "shfl.sync.bfly.b32 %f1|%p1, %f2, %r1, %r2, %r3;");
    assert_int_equal(in->sub, SHFL_BFLY);
    assert_int_equal(in->opd[1].kind, OPD_REG);
    ptx_module_free(&m);
    in = one(&m, "vote.sync.any.pred %p1, !%p2, %r1;");
    assert_int_equal(in->op, OP_VOTE);
    assert_int_equal(in->sub, VOTE_ANY);
    assert_int_equal(in->type, PT_PRED);
    assert_int_equal(in->opd[1].neg, 1);
    assert_int_equal(in->nopd, 3);
    ptx_module_free(&m);
    in = one(&m, "activemask.b32 %r3;");
    assert_int_equal(in->op, OP_ACTIVEMASK);
    assert_int_equal(in->nopd, 1);
    ptx_module_free(&m);
}

static void test_memory_ops(void **state)
{
    (void)state;
    struct ptx_module m;
    const struct ptx_insn *in = one(&m, "ld.global.v2.f32 {%f1, _}, [%rd1+8];");
    assert_int_equal(in->op, OP_LD);
    assert_int_equal(in->space, PS_GLOBAL);
    assert_int_equal(in->vec, 2);
    assert_int_equal(in->opd[0].kind, OPD_VEC);
    assert_int_equal(in->opd[0].vec[1], -1);
    assert_int_equal(in->opd[1].imm, 8);
    ptx_module_free(&m);
    in = one(&m, "ld.param.u32 %r1, [k_p1];");
    assert_int_equal(in->space, PS_PARAM);
    assert_int_equal(in->opd[1].space, PS_PARAM);
    assert_string_equal(m.strs[in->opd[1].sym], "k_p1");
    assert_int_equal(in->vec, 1);
    ptx_module_free(&m);
    in = one(&m, "ld.global.u8 %r1, [%rd1];");          /* wider register: legal */
    assert_int_equal(in->type, PT_U8);
    ptx_module_free(&m);
    in = one(&m, "st.shared.u32 [sh+4], -1;");
    assert_int_equal(in->op, OP_ST);
    assert_int_equal(in->opd[0].space, PS_SHARED);
    assert_int_equal(in->opd[0].imm, 4);
    assert_int_equal(in->opd[1].kind, OPD_IMM);
    assert_int_equal(in->opd[1].imm, -1);
    ptx_module_free(&m);
    in = one(&m, "st.local.u32 [%rd1], %rd2;");         /* 64-bit register, 32-bit store */
    assert_int_equal(in->space, PS_LOCAL);
    ptx_module_free(&m);
    in = one(&m, "ld.volatile.shared.u16 %rs1, [%r1];");
    assert_true(in->mod & MOD_VOLATILE);
    ptx_module_free(&m);
    in = one(&m, "ld.acquire.gpu.global.L1::evict_last.u32 %r1, [g];");
    assert_int_equal(in->opd[1].space, PS_GLOBAL);
    ptx_module_free(&m);
    in = one(&m, "atom.shared.cas.b32 %r1, [sh], %r2, %r3;");
    assert_int_equal(in->op, OP_ATOM);
    assert_int_equal(in->sub, AOP_CAS);
    assert_int_equal(in->nopd, 4);
    ptx_module_free(&m);
    in = one(&m, "atom.add.u64 %rd1, [%rd2], 1;");
    assert_int_equal(in->space, PS_GENERIC);
    ptx_module_free(&m);
    in = one(&m, "red.global.add.f32 [%rd1], 0f3F800000;");
    assert_int_equal(in->op, OP_RED);
    assert_int_equal(in->nopd, 2);
    ptx_module_free(&m);
    in = one(&m, "mov.u32 %r1, sh;");
    assert_int_equal(in->opd[1].kind, OPD_SYMADDR);
    assert_int_equal(in->opd[1].space, PS_SHARED);
    ptx_module_free(&m);
    in = one(&m, "cvta.to.global.u64 %rd1, %rd2;");
    assert_int_equal(in->op, OP_CVTA);
    assert_true(in->mod & MOD_TO);
    assert_int_equal(in->space, PS_GLOBAL);
    ptx_module_free(&m);
    in = one(&m, "cvta.local.u64 %rd1, depot;");
    assert_int_equal(in->opd[1].kind, OPD_SYMADDR);
    assert_int_equal(in->opd[1].space, PS_LOCAL);
    ptx_module_free(&m);
}

static void test_arith_fields(void **state)
{
    (void)state;
    struct ptx_module m;
    const struct ptx_insn *in = one(&m, "mul.wide.s32 %rd1, %r1, 4;");
    assert_int_equal(in->op, OP_MUL);
    assert_int_equal(in->type, PT_S32);
    assert_true(in->mod & MOD_WIDE);
    ptx_module_free(&m);
    in = one(&m, "mad.hi.u32 %r1, %r2, %r3, %r4;");
    assert_true(in->mod & MOD_HI);
    ptx_module_free(&m);
    in = one(&m, "mad.wide.u32 %rd1, %r2, %r3, %rd4;");
    assert_int_equal(in->nopd, 4);
    ptx_module_free(&m);
    in = one(&m, "cvt.rzi.s32.f64 %r1, %fd1;");
    assert_int_equal(in->op, OP_CVT);
    assert_int_equal(in->type, PT_S32);
    assert_int_equal(in->type2, PT_F64);
    assert_int_equal(in->rnd, RND_RZI);
    ptx_module_free(&m);
    in = one(&m, "cvt.sat.rn.ftz.f32.f32 %f1, %f2;");
    assert_true((in->mod & MOD_SAT) && (in->mod & MOD_FTZ));
    assert_int_equal(in->rnd, RND_RN);
    ptx_module_free(&m);
    in = one(&m, "cvt.u32.u8 %r1, %rs1;");
    assert_int_equal(in->type2, PT_U8);
    ptx_module_free(&m);
    in = one(&m, "fma.rn.f32 %f1, %f2, 1.5, 0f40000000;");
    assert_int_equal(in->opd[2].imm, f32bits(1.5f));
    assert_int_equal(in->opd[3].imm, 0x40000000);
    ptx_module_free(&m);
    in = one(&m, "add.f64 %fd1, %fd2, 0f3F800000;");   /* f32 literal widened to f64 */
    assert_int_equal((uint64_t)in->opd[2].imm, 0x3ff0000000000000ull);
    ptx_module_free(&m);
    in = one(&m, "div.approx.ftz.f32 %f1, %f2, %f3;");
    assert_true((in->mod & MOD_APPROX) && (in->mod & MOD_FTZ));
    ptx_module_free(&m);
    in = one(&m, "add.u32 %r1, %r2, 0xFFFFFFFF;");     /* sign-extended from 32 bits */
    assert_int_equal(in->opd[2].imm, -1);
    ptx_module_free(&m);
    in = one(&m, "add.s64 %rd1, %rd2, 0x7fffffffffffffff;");
    assert_int_equal(in->opd[2].imm, INT64_MAX);
    ptx_module_free(&m);
    in = one(&m, "add.cc.u32 %r1, %r2, 010;");         /* octal */
    assert_true(in->mod & MOD_CC);
    assert_int_equal(in->opd[2].imm, 8);
    ptx_module_free(&m);
    in = one(&m, "bfe.s32 %r1, %r2, 8, %r3;");
    assert_int_equal(in->op, OP_BFE);
    assert_int_equal(in->nopd, 4);
    ptx_module_free(&m);
    in = one(&m, "prmt.b32.rc16 %r1, %r2, %r3, %r4;");
    assert_int_equal(in->sub, 6);
    ptx_module_free(&m);
    in = one(&m, "slct.f32.s32 %f1, %f2, %f3, %r1;");
    assert_int_equal(in->type, PT_F32);
    assert_int_equal(in->type2, PT_S32);
    ptx_module_free(&m);
    in = one(&m, "selp.b64 %rd1, %rd2, 0, %p1;");
    assert_int_equal(in->op, OP_SELP);
    assert_int_equal(in->opd[3].kind, OPD_REG);
    ptx_module_free(&m);
    in = one(&m, "popc.b64 %r1, %rd1;");
    assert_int_equal(in->type, PT_B64);
    ptx_module_free(&m);
    in = one(&m, "mov.u32 %r1, %ctaid.z;");
    assert_int_equal(in->opd[1].kind, OPD_SREG);
    assert_int_equal(in->opd[1].sreg, SR_CTAID);
    assert_int_equal(in->opd[1].comp, 2);
    ptx_module_free(&m);
    in = one(&m, "mov.u32 %r1, %lanemask_ge;");
    assert_int_equal(in->opd[1].sreg, SR_LANEMASK_GE);
    ptx_module_free(&m);
    in = one(&m, "@!%p2 exit;");
    assert_int_equal(in->op, OP_EXIT);
    assert_int_equal(in->guard_neg, 1);
    ptx_module_free(&m);
}

/* The carry forms: addc/subc/madc are add/sub/mad with MOD_CIN; .cc and carry in name the
   carry flag as the operand after the sources, a predicate %gs_cc declared once per scope. */
static void test_carry_ops(void **state)
{
    (void)state;
    struct ptx_module m;
    const struct ptx_insn *in = one(&m, "addc.cc.u32 %r1, %r2, %r3;");
    assert_int_equal(in->op, OP_ADD);
    assert_int_equal(in->mod & (MOD_CC | MOD_CIN), MOD_CC | MOD_CIN);
    assert_int_equal(in->nopd, 4);
    assert_int_equal(ptx_insn_carry(in), 3);
    assert_int_equal(in->opd[3].kind, OPD_REG);
    assert_string_equal(reg_name(&m.funcs[0], in->opd[3].reg), PTX_CARRY_NAME);
    assert_int_equal(m.funcs[0].regs[in->opd[3].reg].type, PT_PRED);
    ptx_module_free(&m);
    in = one(&m, "madc.hi.u64 %rd1, %rd2, %rd3, %rd4;");
    assert_int_equal(in->op, OP_MAD);
    assert_int_equal(in->mod & (MOD_HI | MOD_CC | MOD_CIN), MOD_HI | MOD_CIN);
    assert_int_equal(in->nopd, 5);
    assert_int_equal(ptx_insn_carry(in), 4);
    ptx_module_free(&m);
    in = one(&m, "{ mad.lo.cc.u32 %r1, %r2, %r3, %r4; }\nsub.cc.s32 %r1, %r2, 1;\n"
                 "{ subc.s32 %r3, %r4, %r5; }\nadd.u32 %r1, %r1, 1;");
    const struct ptx_func *f = &m.funcs[0];
    assert_int_equal(in->mod & (MOD_CC | MOD_CIN), MOD_CC);
    assert_int_equal(f->insns[1].mod & (MOD_CC | MOD_CIN), MOD_CC);
    assert_int_equal(f->insns[2].mod & (MOD_CC | MOD_CIN), MOD_CIN);
    assert_int_not_equal(f->insns[1].opd[3].reg, in->opd[4].reg);    /* the block's ended */
    assert_int_equal(f->insns[2].opd[3].reg, f->insns[1].opd[3].reg); /* the outer one */
    assert_int_equal(f->insns[3].nopd, 3);
    assert_int_equal(ptx_insn_carry(&f->insns[3]), -1);
    ptx_module_free(&m);
    const unsigned L = BODY_LINE;
    body_error("addc.f32 %f1, %f2, %f3;", L, "unsupported PTX instruction 'addc.f32'");
    body_error("add.cc.u16 %rs1, %rs2, %rs3;", L, "unsupported PTX instruction 'add.cc.u16'");
    body_error("add.cc.sat.s32 %r1, %r2, %r3;", L, "unsupported PTX instruction 'add.cc.sat.s32'");
    body_error("mad.wide.cc.u32 %rd1, %r2, %r3, %rd4;", L,
               "unsupported PTX instruction 'mad.wide.cc.u32'");
    body_error("madc.wide.u32 %rd1, %r2, %r3, %rd4;", L,
               "unsupported PTX instruction 'madc.wide.u32'");
    body_error("mulc.lo.u32 %r1, %r2, %r3;", L, "unsupported PTX instruction 'mulc.lo.u32'");
}

static void test_control_ops(void **state)
{
    (void)state;
    struct ptx_module m;
    const struct ptx_insn *in = one(&m, "bar.sync 1, %r2;");
    assert_int_equal(in->op, OP_BAR);
    assert_int_equal(in->sub, 0);
    assert_int_equal(in->opd[0].imm, 1);
    assert_int_equal(in->opd[1].kind, OPD_REG);
    ptx_module_free(&m);
    in = one(&m, "barrier.sync.aligned 0;");
    assert_int_equal(in->op, OP_BAR);
    assert_int_equal(in->opd[1].kind, OPD_NONE);
    ptx_module_free(&m);
    in = one(&m, "bar.arrive 3, 64;");
    assert_int_equal(in->sub, 1);
    ptx_module_free(&m);
    in = one(&m, "fence.acq_rel.gpu;");
    assert_int_equal(in->op, OP_MEMBAR);
    ptx_module_free(&m);
    in = one(&m, "membar.sys;");
    assert_int_equal(in->op, OP_MEMBAR);
    ptx_module_free(&m);
    in = one(&m, "nop;");
    assert_int_equal(in->op, OP_NOP);
    ptx_module_free(&m);
    in = one(&m, "bra.uni L0;");
    assert_int_equal(in->opd[0].imm, 0);
    ptx_module_free(&m);
    in = one(&m, "bra L9;\nL9:");
    assert_int_equal(in->opd[0].imm, 1);
    ptx_module_free(&m);
}

/* Scopes: a register range shadowed by an inner one with fewer registers, a range prefix
   ending in a digit beside a shorter one, a name visible again after its inner redeclaration
   is popped, leading zeros (the name tables of ptx_decl.c keep the innermost first). */
static void test_scopes(void **state)
{
    (void)state;
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    const struct ptx_insn *in = one(&m, ".reg .b32 %t<10>;\n{\n.reg .b64 %t<2>;\n"
                                        "mov.u32 %t5, 1;\nmov.u64 %t1, 2;\n}");
    const struct ptx_func *f = &m.funcs[0];
    assert_string_equal(reg_name(f, in[0].opd[0].reg), "%t5");
    assert_int_equal(f->regs[in[0].opd[0].reg].type, PT_B32);    /* the outer %t<10> */
    assert_string_equal(reg_name(f, in[1].opd[0].reg), "%t1");
    assert_int_equal(f->regs[in[1].opd[0].reg].type, PT_B64);    /* the inner %t<2> */
    ptx_module_free(&m);
    in = one(&m, ".reg .b32 %a<20>;\n.reg .b64 %a1<5>;\nmov.u64 %a12, 1;\nmov.u32 %a15, 2;");
    f = &m.funcs[0];
    assert_int_equal(f->regs[in[0].opd[0].reg].type, PT_B64);    /* %a1<5>, register 2 */
    assert_int_equal(f->regs[in[1].opd[0].reg].type, PT_B32);    /* %a<20>, register 15 */
    assert_string_equal(reg_name(f, in[1].opd[0].reg), "%a15");
    ptx_module_free(&m);
    in = one(&m, ".reg .b32 %u;\n{\n.reg .b64 %u;\n}\nmov.u32 %u, 1;");
    assert_int_equal(m.funcs[0].regs[in->opd[0].reg].type, PT_B32);
    ptx_module_free(&m);
    assert_int_equal(parse_body(&m, ".reg .b32 %z4;\n.reg .b32 %z<4>;", err), 0);
    ptx_module_free(&m);
    body_error(".reg .b32 %z3;\n.reg .b32 %z<4>;", BODY_LINE + 1, "duplicate declaration of '%z'");
    body_error(".reg .b32 %w<10>;\nmov.u32 %w01, 1;", BODY_LINE + 1, "unknown register '%w01'");
}

/* ------------------------------------------------------------------ errors */

static void test_error_files(void **state)
{
    (void)state;
    file_error("bad_truncated.ptx", 100, "unexpected end of file: missing '}' at the end of function 'reduce'");
    file_error("bad_opcode.ptx", 13, "unsupported PTX instruction 'tex.2d.v4.f32.f32'");
    file_error("bad_operand.ptx", 13, "bad operand 2 of 'add.s32'");
    file_error("bad_label.ptx", 14, "undefined label '$L__BB0_9'");
    file_error("bad_type.ptx", 13, "type mismatch: '%rd2' is .b64, 'add.s32' needs .s32");
    file_error("bad_reg.ptx", 13, "unknown register '%r99'");
    file_error("bad_duplabel.ptx", 14, "duplicate label '$L__BB0_1'");
    file_error("bad_range.ptx", 12, "register range %big<100000000> too large (at most 65536)");
    file_error("empty.ptx", 1, "empty PTX input");
    file_error("bad_binary.ptx", 1, "unexpected character '\\x7f'");
}

static void test_unreadable_file(void **state)
{
    (void)state;
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    assert_int_equal(ptx_parse_file("/nonexistent/x.ptx", &m, err, sizeof err), -1);
    assert_string_equal(err, "/nonexistent/x.ptx: cannot read PTX: No such file or directory");
}

/* A PTX file is read through model/base/infile.h (issue 37): a directory, /dev/zero (read
   until 1 GiB was allocated) and a FIFO (blocked in open) are refused at once, a file over
   PTX_FILE_MAX (a sparse one) before any byte is read. */
static void test_not_regular_file(void **state)
{
    const char *fifo = BUILD_DIR "/tests/ptx_fifo.ptx", *big = BUILD_DIR "/tests/ptx_big.ptx";
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    int fd;
    (void)state;
    assert_int_equal(ptx_parse_file(BUILD_DIR "/tests", &m, err, sizeof err), -1);
    tu_assert_contains(err, "/tests: cannot read PTX: a directory, not a regular file");
    assert_int_equal(ptx_parse_file("/dev/zero", &m, err, sizeof err), -1);
    tu_assert_contains(err, "/dev/zero: cannot read PTX: a character device, not a regular file");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(ptx_parse_file(fifo, &m, err, sizeof err), -1);
    tu_assert_contains(err, "ptx_fifo.ptx: cannot read PTX: a FIFO, not a regular file");
    unlink(fifo);
    fd = open(big, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)PTX_FILE_MAX + 1), 0);
    close(fd);
    assert_int_equal(ptx_parse_file(big, &m, err, sizeof err), -1);
    tu_assert_contains(err, "ptx_big.ptx: cannot read PTX: larger than 256 MiB");
    unlink(big);
}

static void test_error_snippets(void **state)
{
    (void)state;
    const unsigned L = BODY_LINE;
    body_error("foo.bar %r1;", L, "unsupported PTX instruction 'foo.bar'");
    body_error("add.pred %p1, %p2, %p3;", L, "unsupported PTX instruction 'add.pred'");
    body_error("ld.global.nc.shared.u32 %r1, [%rd1];", L,
               "unsupported PTX instruction 'ld.global.nc.shared.u32'");
    body_error("shf.l.wrap.b32 %r1, %r2, %r3, %r4;", L, "unsupported PTX instruction 'shf.l.wrap.b32'");
    body_error("add %r1, %r2, %r3;", L, "missing type in 'add'");
    body_error("add.s32 %r1, %r2;", L, "wrong number of operands for 'add.s32' (expected 3, found 2)");
    body_error("add.s32 %r1, %r2, %r3", L + 1, "expected ',' or ';' after operand of 'add.s32', found 'ret'");
    body_error("@%r1 bra L0;", L, "type mismatch: guard '%r1' is .b32, needs .pred");
    body_error("setp.eq.s32 %r1, %r2, 0;", L, "type mismatch: '%r1' is .b32, 'setp.eq.s32' needs .pred");
    body_error("add.s64 %rd1, %f1, 1;", L, "type mismatch: '%f1' is .f32, 'add.s64' needs .s64");
}

static void test_error_snippets2(void **state)
{
    (void)state;
    const unsigned L = BODY_LINE;
    body_error("add.f64 %fd1, %f1, %fd2;", L, "type mismatch: '%f1' is .f32, 'add.f64' needs .f64");
    body_error("add.s32 %r1, %r2, 1.5;", L,
               "bad operand: floating-point literal for a .s32 operand of 'add.s32'");
    body_error("mov.u32 %r1, nosuch;", L, "unknown symbol 'nosuch'");
    body_error("ld.global.u32 %r1, [%rs1];", L,
               "type mismatch: address register '%rs1' is .b16 (needs 32 or 64 bits)");
    body_error(".reg .b32 %r<8>;", L, "duplicate declaration of '%r'");
    body_error(".reg .b32 %r3;", L, "duplicate declaration of '%r3'");
    body_error(".reg .b32 %x<0>;", L, "empty register range");
    body_error("mov.u32 %r1, 0f3F80;", L, "bad floating-point literal (expected 8 hex digits)");
    body_error("mov.u32 %r1, 99999999999999999999;", L, "integer literal out of range");
    body_error("bra %r1;", L, "unsupported: indirect branch");
    body_error("call.uni nothing, (%r1, 5);", L, "bad operand '5' of 'call.uni'");
    body_error("{ .reg .b32 %t; }\nmov.u32 %r1, %t;", L + 1, "unknown register '%t'");
    body_error("{ .reg .b32 %t;", L + 2, "unexpected end of file: missing '}' at the end of function 'k'");
    body_error("/* unterminated", L, "unterminated comment");
    body_error("st.global.u32 [%rd1], {%r1, %r2};", L, "bad operand 2 of 'st.global.u32'");
    body_error("ld.global.v4.u32 {%r1, %r2}, [%rd1];", L, "vector operand of 'ld.global.v4.u32' needs 4 elements");
    body_error("shfl.down.b32 %r1, %r2, 1, 31;", L, "unsupported PTX instruction 'shfl.down.b32'");
    body_error("L0:", L, "duplicate label 'L0'");
}

static void test_module_errors(void **state)
{
    (void)state;
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    const char *cases[][2] = {
        {"// only a comment\n", "t.ptx:1: empty PTX input"},
        {".target sm_75\n", "t.ptx:1: expected .version at the start of the module, found '.target'"},
        {".version 9.0\n.target sm_75\n.global .u32 x;\n.global .u32 x;\n",
         "t.ptx:4: duplicate declaration of 'x'"},
        {".version 9.0\n.shared .b8 s[];\n",
         "t.ptx:2: unsized array 's' (only .extern .shared may be unsized)"},
        {".version 9.0\n.global .u8 s[2] = {1, 2, 3};\n", "t.ptx:2: too many initializers for 's'"},
        {".version 9.0\n.global .u64 p = x;\n", "t.ptx:2: unsupported initializer 'x' (only numbers)"},
        {".version 9.0\n.entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n",
         "t.ptx:6: duplicate definition of function 'k'"},
        {".version 9.0\n.entry k(.param .u32 a, .param .u32 a)\n{\nret;\n}\n",
         "t.ptx:2: duplicate parameter 'a'"},
        {".version 9.0\n.entry k(\n.param .u32 a\n", "t.ptx:3: unexpected end of file: missing ')'"},
        {".version 9.0\n.tex .u64 t;\n", "t.ptx:2: unexpected directive '.tex' at module scope"},
        {".version 9.0\nfoo\n", "t.ptx:2: unexpected 'foo' at module scope"},
        {".version 9.0\n.entry k()\n{\n.reg .b32 %r<65537>;\n}\n",
         "t.ptx:4: register range %r<65537> too large (at most 65536)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = ptx_parse(cases[i][0], strlen(cases[i][0]), "t.ptx", &m, err, sizeof err);
        if (rc != -1 || strcmp(err, cases[i][1]))
            fail_msg("case %zu: rc %d, got \"%s\", want \"%s\"", i, rc, err, cases[i][1]);
        ptx_module_free(&m);
    }
    /* NUL bytes and a NULL text never crash */
    assert_int_equal(ptx_parse(".version 9.0\n\0\0", 15, "t.ptx", &m, err, sizeof err), -1);
    assert_string_equal(err, "t.ptx:2: unexpected character '\\x00'");
    assert_int_equal(ptx_parse(NULL, 0, "t.ptx", &m, err, sizeof err), -1);
    assert_string_equal(err, "t.ptx:1: empty PTX input");
    assert_int_equal(ptx_parse(".version", 8, NULL, &m, NULL, 0), -1);
}

/* ------------------------------------------------------------------ utilities */

static void test_util(void **state)
{
    (void)state;
    assert_int_equal(ptx_type_size(PT_PRED), 1);
    assert_int_equal(ptx_type_size(PT_NONE), 0);
    assert_int_equal(ptx_type_size(PT_U16), 2);
    assert_int_equal(ptx_type_size(PT_F64), 8);
    assert_int_equal(ptx_type_size((enum ptx_type)200), 0);
    assert_true(ptx_type_is_float(PT_F16) && ptx_type_is_float(PT_F32));
    assert_false(ptx_type_is_float(PT_B32));
    assert_true(ptx_type_is_signed(PT_S8));
    assert_false(ptx_type_is_signed(PT_U64) || ptx_type_is_signed(PT_F32));
    assert_string_equal(ptx_type_name(PT_S64), "s64");
    assert_string_equal(ptx_type_name(PT_PRED), "pred");
    assert_string_equal(ptx_op_name(OP_ACTIVEMASK), "activemask");
    assert_string_equal(ptx_op_name(OP_NOP), "nop");
    assert_string_equal(ptx_op_name(OP_COPYSIGN), "copysign");
    assert_string_equal(ptx_op_name((enum ptx_op)250), "?");
    for (int op = 0; op < OP_COUNT; op++)
        assert_non_null(ptx_op_name((enum ptx_op)op));
}

/* ------------------------------------------------------------------ robustness */

/* Truncations and random byte edits of a real file: parse or clean error, no crash. */
static void test_mutations(void **state)
{
    (void)state;
    size_t len = 0;
    char *src = tu_read_file(data_path("nvcc_reduce.ptx"), &len);
    assert_non_null(src);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    char err[PTX_ERR_LEN];
    struct ptx_module m;
    for (size_t cut = 0; cut < len; cut += 97) {
        memcpy(buf, src, cut);
        int rc = ptx_parse(buf, cut, "t.ptx", &m, err, sizeof err);
        if (rc == 0)
            ptx_module_free(&m);
        else
            assert_int_equal(strncmp(err, "t.ptx:", 6), 0);
    }
    uint32_t seed = 12345;
    static const char alphabet[] = "%.,;:{}[]()<>+-!@|=_0123456789abcdefxrpdL$ \n\t\"/*\x01\xff";
    for (int it = 0; it < 400; it++) {
        memcpy(buf, src, len);
        for (int e = 0; e < 3; e++) {
            seed = seed * 1103515245u + 12345u;
            size_t pos = (seed >> 8) % len;
            seed = seed * 1103515245u + 12345u;
            buf[pos] = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
        }
        int rc = ptx_parse(buf, len, "t.ptx", &m, err, sizeof err);
        if (rc == 0)
            ptx_module_free(&m);
        else
            assert_int_equal(strncmp(err, "t.ptx:", 6), 0);
    }
    free(buf);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvcc_reduce),
        cmocka_unit_test(test_nvcc_misc),
        cmocka_unit_test(test_constructs),
        cmocka_unit_test(test_setp_set),
        cmocka_unit_test(test_warp_ops),
        cmocka_unit_test(test_memory_ops),
        cmocka_unit_test(test_arith_fields),
        cmocka_unit_test(test_carry_ops),
        cmocka_unit_test(test_control_ops),
        cmocka_unit_test(test_scopes),
        cmocka_unit_test(test_error_files),
        cmocka_unit_test(test_unreadable_file),
        cmocka_unit_test(test_not_regular_file),
        cmocka_unit_test(test_error_snippets),
        cmocka_unit_test(test_error_snippets2),
        cmocka_unit_test(test_module_errors),
        cmocka_unit_test(test_util),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
