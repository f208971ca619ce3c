/*
 * exec_harness.h -- what the tests of the functional executor (model/func/exec*.c) share:
 * tests/test_exec_int.c, test_exec_flt.c, test_exec_cvt.c, test_exec_mem.c, test_exec_ctl.c
 * (header-only, as testutil.h).
 *
 * Each test builds a one-instruction ptx_prog by hand and calls ex_exec.  The fixture
 * (struct fx, setup, teardown): the instruction and an exit after it, reg_type, a register
 * file for one warp (warp 1 of a 64-thread CTA of 8x4x2 threads, CTA (1,2,3)), shared, local,
 * param and call-scratch buffers and a device memory holding a 256-byte global and a 64-byte
 * const allocation.  Then the operand builders (oR oI oA oS oV oL oNot), mk (the instruction),
 * setall / rg (a register of every lane / of one lane), run (ex_exec at PC 0), fb / db (float
 * and double bits), the integer and float constants the tables use, and expect_err (the
 * exact text of an error with its kernel, PC, CTA and thread prefix).  The functions are
 * static inline, so a test file that does not use one gets no warning.
 */
#ifndef EXEC_HARNESS_H
#define EXEC_HARNESS_H
#include "testutil.h"
#include <fenv.h>
#include <math.h>
#include "func/exec.h"

#define NREGS 24
#define ALL 0xffffffffu

struct fx {
    struct ptx_module mod;
    struct ptx_prog prog;
    struct ptx_insn insn[2];
    uint8_t reg_type[NREGS];
    uint64_t regs[NREGS * EX_WARP];
    struct gmem gm;
    uint64_t gbuf, cbuf;              /* 256-byte global and 64-byte const allocations */
    uint8_t smem[256];
    struct ex_lmem lmem;              /* 64 bytes per thread: one chunk, lanes 64 bytes apart */
    uint8_t pscr[EX_WARP * 32];
    uint8_t params[16];
    struct ex_ctx ctx;
    struct ex_result res;
};

static inline int setup(void **st)
{
    struct fx *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->mod.filename, sizeof f->mod.filename, "test.ptx");
    snprintf(f->prog.name, sizeof f->prog.name, "k");
    f->prog.mod = &f->mod;
    f->prog.insns = f->insn;
    f->prog.ninsns = 2;
    f->prog.reg_type = f->reg_type;
    f->prog.nregs = NREGS;
    f->prog.param_size = sizeof f->params;
    f->prog.local_size = 64;
    f->prog.pscratch_size = 32;
    for (int i = 0; i < NREGS; i++)
        f->reg_type[i] = PT_B64;
    gm_init(&f->gm, 1 << 20);
    if (gm_alloc(&f->gm, 256, &f->gbuf) || gm_alloc(&f->gm, 64, &f->cbuf))
        return -1;
    struct ex_ctx *c = &f->ctx;
    c->prog = &f->prog;
    c->regs = f->regs;
    c->gmem = &f->gm;
    c->smem = f->smem;
    c->smem_size = sizeof f->smem;
    if (ex_lmem_init(&f->lmem, 64, NULL))
        return -1;
    c->lmem = &f->lmem;
    c->lmem_size = 64;
    c->pscratch = f->pscr;
    c->pscratch_stride = 32;
    c->params = f->params;
    c->ntid[0] = 8; c->ntid[1] = 4; c->ntid[2] = 2;
    c->ctaid[0] = 1; c->ctaid[1] = 2; c->ctaid[2] = 3;
    c->nctaid[0] = 4; c->nctaid[1] = 5; c->nctaid[2] = 6;
    c->tid0 = 32;                                  /* warp 1 of a 64-thread CTA */
    c->nthreads = 64;
    c->warpid = 1; c->nwarpid = 2; c->smid = 3; c->nsmid = 15;
    c->clock = 0x123456789abull;
    *st = f;
    return 0;
}

static inline int teardown(void **st)
{
    struct fx *f = *st;
    ex_lmem_free(&f->lmem);
    gm_destroy(&f->gm);
    free(f);
    return 0;
}

/* ---------------------------------------------------------------- builders */

static inline struct ptx_operand oR(int r)
{
    struct ptx_operand o = { .kind = OPD_REG, .reg = r, .sym = -1 };
    return o;
}
static inline struct ptx_operand oI(int64_t v)
{
    struct ptx_operand o = { .kind = OPD_IMM, .reg = -1, .sym = -1, .imm = v };
    return o;
}
static inline struct ptx_operand oA(int r, int64_t off)
{
    struct ptx_operand o = { .kind = OPD_ADDR, .reg = r, .sym = -1, .imm = off };
    return o;
}
static inline struct ptx_operand oS(uint8_t sr, uint8_t comp)
{
    struct ptx_operand o = { .kind = OPD_SREG, .sreg = sr, .comp = comp, .reg = -1, .sym = -1 };
    return o;
}
static inline struct ptx_operand oV(int n, int a, int b, int c, int d)
{
    struct ptx_operand o = { .kind = OPD_VEC, .nvec = (uint8_t)n, .reg = -1, .sym = -1,
                             .vec = { a, b, c, d } };
    return o;
}
static inline struct ptx_operand oL(int64_t pc)
{
    struct ptx_operand o = { .kind = OPD_LABEL, .reg = -1, .sym = -1, .imm = pc };
    return o;
}
static inline struct ptx_operand oNot(struct ptx_operand o) { o.neg = 1; return o; }

static inline struct ptx_insn *mk(struct fx *f, uint8_t op, uint8_t type)
{
    struct ptx_insn *in = &f->insn[0];
    memset(in, 0, sizeof *in);
    in->op = op;
    in->type = type;
    in->guard = -1;
    in->line = 7;
    in->vec = 1;
    f->insn[1] = *in;
    f->insn[1].op = OP_EXIT;
    return in;
}

static inline void setall(struct fx *f, int r, uint64_t v)
{
    for (int l = 0; l < EX_WARP; l++)
        f->regs[r * EX_WARP + l] = v;
}
static inline uint64_t rg(struct fx *f, int r, int lane) { return f->regs[r * EX_WARP + lane]; }
static inline void run(struct fx *f, uint32_t active) { ex_exec(&f->ctx, 0, active, &f->res); }

static inline uint32_t fb(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline uint64_t db(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }

/* expected error prefix for a lane of warp 1 (tid0 = 32, ntid = 8x4x2, CTA (1,2,3)) */
static inline void err_prefix(char *buf, size_t n, int lane)
{
    int lin = 32 + lane;
    snprintf(buf, n, "kernel k: PC 0 (test.ptx:7) CTA (1,2,3) thread (%d,%d,%d): ", lin % 8,
             lin / 8 % 4, lin / 32);
}
static inline void expect_err(struct fx *f, int lane, const char *msg)
{
    char want[PTX_ERR_LEN];
    err_prefix(want, sizeof want, lane);
    strncat(want, msg, sizeof want - strlen(want) - 1);
    assert_int_equal(f->res.kind, EX_ERROR);
    assert_string_equal(f->res.err, want);
}

/* integer and float bit patterns of the tables */
#define N32 0xffffffffull
#define MIN32 0x80000000ull
#define MIN64 0x8000000000000000ull
#define F1 0x3f800000u
#define F2 0x40000000u
#define FINF 0x7f800000u
#define FNINF 0xff800000u
#define FNAN 0x7fc00000u
#define FCN 0x7fffffffu
#define FMZ 0x80000000u

#endif
