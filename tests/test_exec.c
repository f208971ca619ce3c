/*
 * test_exec.c -- cmocka tests for model/func/exec.c, the functional SIMD datapath.
 *
 * Each test builds a one-instruction ptx_prog by hand (insn, reg_type, a register file for
 * one warp, shared/local/param/scratch buffers and a device memory), calls ex_exec and
 * checks registers, memory and the ex_result.  Most ALU checks are tables of
 * {instruction, operands, expected bits}, run on all 32 lanes at once.  Covers every
 * instruction family with edge values, rounding modes, .ftz/.sat, saturating conversions,
 * bfe/bfi/prmt, shfl/vote, atomics, sub-word and vector memory accesses, generic windows,
 * the exact text of every out-of-bounds error, guard predicates and partial warps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fenv.h>
#include <math.h>
#include <cmocka.h>
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
    uint8_t lmem[EX_WARP * 64];
    uint8_t pscr[EX_WARP * 32];
    uint8_t params[16];
    struct ex_ctx ctx;
    struct ex_result res;
};

static int setup(void **st)
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
    c->lmem = f->lmem;
    c->lmem_size = 64;
    c->lmem_stride = 64;
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

static int teardown(void **st)
{
    struct fx *f = *st;
    gm_destroy(&f->gm);
    free(f);
    return 0;
}

/* ---------------------------------------------------------------- builders */

static struct ptx_operand oR(int r)
{
    struct ptx_operand o = { .kind = OPD_REG, .reg = r, .sym = -1 };
    return o;
}
static struct ptx_operand oI(int64_t v)
{
    struct ptx_operand o = { .kind = OPD_IMM, .reg = -1, .sym = -1, .imm = v };
    return o;
}
static struct ptx_operand oA(int r, int64_t off)
{
    struct ptx_operand o = { .kind = OPD_ADDR, .reg = r, .sym = -1, .imm = off };
    return o;
}
static struct ptx_operand oS(uint8_t sr, uint8_t comp)
{
    struct ptx_operand o = { .kind = OPD_SREG, .sreg = sr, .comp = comp, .reg = -1, .sym = -1 };
    return o;
}
static struct ptx_operand oV(int n, int a, int b, int c, int d)
{
    struct ptx_operand o = { .kind = OPD_VEC, .nvec = (uint8_t)n, .reg = -1, .sym = -1,
                             .vec = { a, b, c, d } };
    return o;
}
static struct ptx_operand oL(int64_t pc)
{
    struct ptx_operand o = { .kind = OPD_LABEL, .reg = -1, .sym = -1, .imm = pc };
    return o;
}
static struct ptx_operand oNot(struct ptx_operand o) { o.neg = 1; return o; }

static struct ptx_insn *mk(struct fx *f, uint8_t op, uint8_t type)
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

static void setall(struct fx *f, int r, uint64_t v)
{
    for (int l = 0; l < EX_WARP; l++)
        f->regs[r * EX_WARP + l] = v;
}
static uint64_t rg(struct fx *f, int r, int lane) { return f->regs[r * EX_WARP + lane]; }
static void run(struct fx *f, uint32_t active) { ex_exec(&f->ctx, 0, active, &f->res); }

static uint32_t fb(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static uint64_t db(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }

/* expected error prefix for a lane of warp 1 (tid0 = 32, ntid = 8x4x2, CTA (1,2,3)) */
static void err_prefix(char *buf, size_t n, int lane)
{
    int lin = 32 + lane;
    snprintf(buf, n, "kernel k: PC 0 (test.ptx:7) CTA (1,2,3) thread (%d,%d,%d): ", lin % 8,
             lin / 8 % 4, lin / 32);
}
static void expect_err(struct fx *f, int lane, const char *msg)
{
    char want[PTX_ERR_LEN];
    err_prefix(want, sizeof want, lane);
    strncat(want, msg, sizeof want - strlen(want) - 1);
    assert_int_equal(f->res.kind, EX_ERROR);
    assert_string_equal(f->res.err, want);
}

/* ---------------------------------------------------------------- integer ALU table */

struct icase {
    const char *name;
    uint8_t op, type;
    uint16_t mod;
    uint8_t sub;
    uint64_t a, b, c, d, want;
};

#define N32 0xffffffffull
#define MIN32 0x80000000ull
#define MIN64 0x8000000000000000ull
static const struct icase icases[] = {
    { "add.s32 wrap", OP_ADD, PT_S32, 0, 0, 0x7fffffff, 1, 0, 0, MIN32 },
    { "add.sat.s32 max", OP_ADD, PT_S32, MOD_SAT, 0, 0x7fffffff, 1, 0, 0, 0x7fffffff },
    { "add.sat.s32 min", OP_ADD, PT_S32, MOD_SAT, 0, MIN32, N32, 0, 0, MIN32 },
    { "sub.sat.s32", OP_SUB, PT_S32, MOD_SAT, 0, MIN32, 1, 0, 0, MIN32 },
    { "sub.u32 wrap", OP_SUB, PT_U32, 0, 0, 0, 1, 0, 0, N32 },
    { "add.u64 wrap", OP_ADD, PT_U64, 0, 0, ~0ull, 1, 0, 0, 0 },
    { "add.cc.u32 plain", OP_ADD, PT_U32, MOD_CC, 0, N32, 2, 0, 0, 1 },
    { "mul.lo.s32", OP_MUL, PT_S32, MOD_LO, 0, 0x10000, 0x10000, 0, 0, 0 },
    { "mul.lo.s32 neg", OP_MUL, PT_S32, MOD_LO, 0, N32, 3, 0, 0, 0xfffffffd },
    { "mul.hi.u32", OP_MUL, PT_U32, MOD_HI, 0, N32, N32, 0, 0, 0xfffffffe },
    { "mul.hi.s32 -1*-1", OP_MUL, PT_S32, MOD_HI, 0, N32, N32, 0, 0, 0 },
    { "mul.hi.s32 min*min", OP_MUL, PT_S32, MOD_HI, 0, MIN32, MIN32, 0, 0, 0x40000000 },
    { "mul.hi.s32 min*1", OP_MUL, PT_S32, MOD_HI, 0, MIN32, 1, 0, 0, N32 },
    { "mul.hi.u16", OP_MUL, PT_U16, MOD_HI, 0, 0xffff, 0xffff, 0, 0, 0xfffe },
    { "mul.wide.s32", OP_MUL, PT_S32, MOD_WIDE, 0, N32, 2, 0, 0, 0xfffffffffffffffeull },
    { "mul.wide.u32", OP_MUL, PT_U32, MOD_WIDE, 0, N32, N32, 0, 0, 0xfffffffe00000001ull },
    { "mul.wide.s16", OP_MUL, PT_S16, MOD_WIDE, 0, 0x8000, 0x8000, 0, 0, 0x40000000 },
    { "mul.wide.u16", OP_MUL, PT_U16, MOD_WIDE, 0, 0xffff, 0xffff, 0, 0, 0xfffe0001 },
    { "mul.hi.u64", OP_MUL, PT_U64, MOD_HI, 0, ~0ull, ~0ull, 0, 0, ~0ull - 1 },
    { "mul.hi.s64", OP_MUL, PT_S64, MOD_HI, 0, MIN64, 2, 0, 0, ~0ull },
    { "mul.lo.u64", OP_MUL, PT_U64, MOD_LO, 0, 1ull << 63, 2, 0, 0, 0 },
    { "mad.lo.s32", OP_MAD, PT_S32, MOD_LO, 0, 3, 4, 5, 0, 17 },
    { "mad.lo.s32 neg", OP_MAD, PT_S32, MOD_LO, 0, N32, 4, 1, 0, 0xfffffffd },
    { "mad.hi.u32", OP_MAD, PT_U32, MOD_HI, 0, N32, N32, 1, 0, N32 },
    { "mad.hi.sat.s32", OP_MAD, PT_S32, MOD_HI | MOD_SAT, 0, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0, 0x7fffffff },
    { "mad.wide.u32", OP_MAD, PT_U32, MOD_WIDE, 0, N32, N32, N32, 0, 0xffffffff00000000ull },
    { "mad.wide.s32", OP_MAD, PT_S32, MOD_WIDE, 0, N32, 5, 10, 0, 5 },
    { "mul24.lo.u32", OP_MUL24, PT_U32, MOD_LO, 0, 0xffffff, 0xffffff, 0, 0, 0xfe000001 },
    { "mul24.hi.u32", OP_MUL24, PT_U32, MOD_HI, 0, 0xffffff, 0xffffff, 0, 0, 0xfffffe00 },
    { "mul24.lo.s32", OP_MUL24, PT_S32, MOD_LO, 0, 0x00ffffff, 2, 0, 0, 0xfffffffe },
    { "mul24 ignores top", OP_MUL24, PT_U32, MOD_LO, 0, 0xff000003, 2, 0, 0, 6 },
    { "mad24.lo.u32", OP_MAD24, PT_U32, MOD_LO, 0, 2, 3, 4, 0, 10 },
    { "sad.s32", OP_SAD, PT_S32, 0, 0, 0xfffffffb, 3, 1, 0, 9 },
    { "sad.u32", OP_SAD, PT_U32, 0, 0, 0xfffffffb, 3, 1, 0, 0xfffffff9 },
    { "div.s32", OP_DIV, PT_S32, 0, 0, 0xfffffff9, 2, 0, 0, 0xfffffffd },
    { "rem.s32", OP_REM, PT_S32, 0, 0, 0xfffffff9, 2, 0, 0, N32 },
    { "div.u32", OP_DIV, PT_U32, 0, 0, N32, 2, 0, 0, 0x7fffffff },
    { "div.s32 min/-1", OP_DIV, PT_S32, 0, 0, MIN32, N32, 0, 0, MIN32 },
    { "rem.s32 min%-1", OP_REM, PT_S32, 0, 0, MIN32, N32, 0, 0, 0 },
    { "div.s64 min/-1", OP_DIV, PT_S64, 0, 0, MIN64, ~0ull, 0, 0, MIN64 },
    { "rem.s64 min%-1", OP_REM, PT_S64, 0, 0, MIN64, ~0ull, 0, 0, 0 },
    { "div.u32 /0", OP_DIV, PT_U32, 0, 0, 5, 0, 0, 0, N32 },
    { "div.s32 /0", OP_DIV, PT_S32, 0, 0, 5, 0, 0, 0, N32 },
    { "div.u64 /0", OP_DIV, PT_U64, 0, 0, 5, 0, 0, 0, ~0ull },
    { "rem.u32 %0", OP_REM, PT_U32, 0, 0, 5, 0, 0, 0, 5 },
    { "rem.s32 %0", OP_REM, PT_S32, 0, 0, 0xfffffffb, 0, 0, 0, 0xfffffffb },
    { "min.s32", OP_MIN, PT_S32, 0, 0, N32, 1, 0, 0, N32 },
    { "min.u32", OP_MIN, PT_U32, 0, 0, N32, 1, 0, 0, 1 },
    { "max.s32", OP_MAX, PT_S32, 0, 0, N32, 1, 0, 0, 1 },
    { "max.u32", OP_MAX, PT_U32, 0, 0, N32, 1, 0, 0, N32 },
    { "max.s64", OP_MAX, PT_S64, 0, 0, MIN64, 0, 0, 0, 0 },
    { "min.s16", OP_MIN, PT_S16, 0, 0, 0x8000, 0x7fff, 0, 0, 0x8000 },
    { "abs.s32 min", OP_ABS, PT_S32, 0, 0, MIN32, 0, 0, 0, MIN32 },
    { "abs.s32", OP_ABS, PT_S32, 0, 0, 0xfffffffb, 0, 0, 0, 5 },
    { "abs.s64", OP_ABS, PT_S64, 0, 0, ~0ull, 0, 0, 0, 1 },
    { "neg.s32 min", OP_NEG, PT_S32, 0, 0, MIN32, 0, 0, 0, MIN32 },
    { "neg.s64", OP_NEG, PT_S64, 0, 0, 1, 0, 0, 0, ~0ull },
    { "and.b32", OP_AND, PT_B32, 0, 0, 0xff00ff00, 0x0ff00ff0, 0, 0, 0x0f000f00 },
    { "or.b32", OP_OR, PT_B32, 0, 0, 0xff00ff00, 0x0ff00ff0, 0, 0, 0xfff0fff0 },
    { "xor.b32", OP_XOR, PT_B32, 0, 0, 0xff00ff00, 0x0ff00ff0, 0, 0, 0xf0f0f0f0 },
    { "not.b32", OP_NOT, PT_B32, 0, 0, 0xff00ff00, 0, 0, 0, 0x00ff00ff },
    { "not.b16", OP_NOT, PT_B16, 0, 0, 0x00ff, 0, 0, 0, 0xff00 },
    { "not.pred", OP_NOT, PT_PRED, 0, 0, 1, 0, 0, 0, 0 },
    { "and.pred", OP_AND, PT_PRED, 0, 0, 1, 1, 0, 0, 1 },
    { "cnot.b32 0", OP_CNOT, PT_B32, 0, 0, 0, 0, 0, 0, 1 },
    { "cnot.b32 5", OP_CNOT, PT_B32, 0, 0, 5, 0, 0, 0, 0 },
    { "shl.b32 31", OP_SHL, PT_B32, 0, 0, 1, 31, 0, 0, MIN32 },
    { "shl.b32 32", OP_SHL, PT_B32, 0, 0, 1, 32, 0, 0, 0 },
    { "shl.b32 huge", OP_SHL, PT_B32, 0, 0, 1, N32, 0, 0, 0 },
    { "shl.b64 63", OP_SHL, PT_B64, 0, 0, 1, 63, 0, 0, MIN64 },
    { "shl.b64 64", OP_SHL, PT_B64, 0, 0, 1, 64, 0, 0, 0 },
    { "shl.b16 16", OP_SHL, PT_B16, 0, 0, 1, 16, 0, 0, 0 },
    { "shr.u32 32", OP_SHR, PT_U32, 0, 0, MIN32, 32, 0, 0, 0 },
    { "shr.b32 4", OP_SHR, PT_B32, 0, 0, MIN32, 4, 0, 0, 0x08000000 },
    { "shr.s32 4", OP_SHR, PT_S32, 0, 0, MIN32, 4, 0, 0, 0xf8000000 },
    { "shr.s32 31", OP_SHR, PT_S32, 0, 0, MIN32, 31, 0, 0, N32 },
    { "shr.s32 40", OP_SHR, PT_S32, 0, 0, MIN32, 40, 0, 0, N32 },
    { "shr.s32 pos 100", OP_SHR, PT_S32, 0, 0, 0x40000000, 100, 0, 0, 0 },
    { "shr.s16 20", OP_SHR, PT_S16, 0, 0, 0x8000, 20, 0, 0, 0xffff },
    { "shr.s64 64", OP_SHR, PT_S64, 0, 0, MIN64, 64, 0, 0, ~0ull },
    { "shr.u64 huge", OP_SHR, PT_U64, 0, 0, ~0ull, N32, 0, 0, 0 },
    { "popc.b32", OP_POPC, PT_B32, 0, 0, N32, 0, 0, 0, 32 },
    { "popc.b64", OP_POPC, PT_B64, 0, 0, ~0ull, 0, 0, 0, 64 },
    { "popc.b32 0", OP_POPC, PT_B32, 0, 0, 0, 0, 0, 0, 0 },
    { "clz.b32 0", OP_CLZ, PT_B32, 0, 0, 0, 0, 0, 0, 32 },
    { "clz.b32 1", OP_CLZ, PT_B32, 0, 0, 1, 0, 0, 0, 31 },
    { "clz.b32 top", OP_CLZ, PT_B32, 0, 0, MIN32, 0, 0, 0, 0 },
    { "clz.b64 1", OP_CLZ, PT_B64, 0, 0, 1, 0, 0, 0, 63 },
    { "clz.b64 0", OP_CLZ, PT_B64, 0, 0, 0, 0, 0, 0, 64 },
    { "brev.b32 1", OP_BREV, PT_B32, 0, 0, 1, 0, 0, 0, MIN32 },
    { "brev.b32", OP_BREV, PT_B32, 0, 0, 0x12345678, 0, 0, 0, 0x1e6a2c48 },
    { "brev.b64 1", OP_BREV, PT_B64, 0, 0, 1, 0, 0, 0, MIN64 },
    { "bfind.u32 0", OP_BFIND, PT_U32, 0, 0, 0, 0, 0, 0, N32 },
    { "bfind.u32 top", OP_BFIND, PT_U32, 0, 0, MIN32, 0, 0, 0, 31 },
    { "bfind.s32 -1", OP_BFIND, PT_S32, 0, 0, N32, 0, 0, 0, N32 },
    { "bfind.s32 -16", OP_BFIND, PT_S32, 0, 0, 0xfffffff0, 0, 0, 0, 3 },
    { "bfind.s32 5", OP_BFIND, PT_S32, 0, 0, 5, 0, 0, 0, 2 },
    { "bfind.shiftamt.u32 1", OP_BFIND, PT_U32, MOD_SHIFTAMT, 0, 1, 0, 0, 0, 31 },
    { "bfind.shiftamt.u32 0", OP_BFIND, PT_U32, MOD_SHIFTAMT, 0, 0, 0, 0, 0, N32 },
    { "bfind.u64", OP_BFIND, PT_U64, 0, 0, 1ull << 40, 0, 0, 0, 40 },
    { "bfind.s64 min", OP_BFIND, PT_S64, 0, 0, MIN64, 0, 0, 0, 62 },
    { "bfe.u32", OP_BFE, PT_U32, 0, 0, 0xf0f0f0f0, 4, 8, 0, 0x0f },
    { "bfe.s32 neg field", OP_BFE, PT_S32, 0, 0, 0x00000f80, 7, 5, 0, N32 },
    { "bfe.s32 pos field", OP_BFE, PT_S32, 0, 0, 0x00000f80, 7, 6, 0, 0x1f },
    { "bfe.u32 len 0", OP_BFE, PT_U32, 0, 0, N32, 3, 0, 0, 0 },
    { "bfe.s32 len 0", OP_BFE, PT_S32, 0, 0, N32, 3, 0, 0, 0 },
    { "bfe.s32 pos>msb", OP_BFE, PT_S32, 0, 0, MIN32, 40, 4, 0, N32 },
    { "bfe.u32 pos>msb", OP_BFE, PT_U32, 0, 0, MIN32, 40, 4, 0, 0 },
    { "bfe.u32 clipped", OP_BFE, PT_U32, 0, 0, 0xf0000000, 28, 8, 0, 0xf },
    { "bfe.s32 clipped", OP_BFE, PT_S32, 0, 0, 0xf0000000, 28, 8, 0, N32 },
    { "bfe.u32 pos/len 8 bits", OP_BFE, PT_U32, 0, 0, 0xf0, 0x104, 0x104, 0, 0xf },
    { "bfe.u64", OP_BFE, PT_U64, 0, 0, 0xa000000000000000ull, 60, 8, 0, 0xa },
    { "bfe.s64", OP_BFE, PT_S64, 0, 0, 0xa000000000000000ull, 60, 4, 0, ~0ull - 5 },
    { "bfi.b32", OP_BFI, PT_B32, 0, 0, 0xff, 0, 4, 8, 0xff0 },
    { "bfi.b32 keeps", OP_BFI, PT_B32, 0, 0, 0xff, 0x12345678, 8, 8, 0x1234ff78 },
    { "bfi.b32 len 0", OP_BFI, PT_B32, 0, 0, 0xff, 0x55, 4, 0, 0x55 },
    { "bfi.b32 clipped", OP_BFI, PT_B32, 0, 0, 0xff, 0, 28, 8, 0xf0000000 },
    { "bfi.b32 pos 32", OP_BFI, PT_B32, 0, 0, 0xff, 0x55, 32, 8, 0x55 },
    { "bfi.b64", OP_BFI, PT_B64, 0, 0, 1, 0, 63, 1, MIN64 },
    { "prmt default", OP_PRMT, PT_B32, 0, PRMT_DEFAULT, 0x03020100, 0x07060504, 0x7531, 0, 0x07050301 },
    { "prmt sign", OP_PRMT, PT_B32, 0, PRMT_DEFAULT, 0x0000807f, 0, 0x8980, 0, 0x00ff007f },
    { "prmt f4e", OP_PRMT, PT_B32, 0, PRMT_F4E, 0x03020100, 0x07060504, 1, 0, 0x04030201 },
    { "prmt f4e 3", OP_PRMT, PT_B32, 0, PRMT_F4E, 0x03020100, 0x07060504, 3, 0, 0x06050403 },
    { "prmt b4e", OP_PRMT, PT_B32, 0, PRMT_B4E, 0x03020100, 0x07060504, 0, 0, 0x05060700 },
    { "prmt b4e 3", OP_PRMT, PT_B32, 0, PRMT_B4E, 0x03020100, 0x07060504, 3, 0, 0x00010203 },
    { "prmt rc8", OP_PRMT, PT_B32, 0, PRMT_RC8, 0x03020100, 0x07060504, 2, 0, 0x02020202 },
    { "prmt ecl", OP_PRMT, PT_B32, 0, PRMT_ECL, 0x03020100, 0x07060504, 1, 0, 0x03020101 },
    { "prmt ecr", OP_PRMT, PT_B32, 0, PRMT_ECR, 0x03020100, 0x07060504, 2, 0, 0x02020100 },
    { "prmt rc16", OP_PRMT, PT_B32, 0, PRMT_RC16, 0x03020100, 0x07060504, 1, 0, 0x03020302 },
    { "prmt rc16 0", OP_PRMT, PT_B32, 0, PRMT_RC16, 0x03020100, 0x07060504, 0, 0, 0x01000100 },
};

static void test_int_table(void **st)
{
    struct fx *f = *st;
    for (size_t i = 0; i < sizeof icases / sizeof icases[0]; i++) {
        const struct icase *k = &icases[i];
        struct ptx_insn *in = mk(f, k->op, k->type);
        in->mod = k->mod;
        in->sub = k->sub;
        for (int o = 0; o < 5; o++)
            in->opd[o] = oR(o);
        setall(f, 0, 0xdeadbeef);
        setall(f, 1, k->a);
        setall(f, 2, k->b);
        setall(f, 3, k->c);
        setall(f, 4, k->d);
        run(f, ALL);
        if (f->res.kind != EX_NORMAL || rg(f, 0, 0) != k->want || rg(f, 0, 31) != k->want) {
            print_error("%s: got %#llx (kind %d) want %#llx\n", k->name,
                        (unsigned long long)rg(f, 0, 0), f->res.kind, (unsigned long long)k->want);
            fail();
        }
    }
}

/* immediates as operands: sign-extended .imm, taken at the instruction's width */
static void test_int_immediates(void **st)
{
    struct fx *f = *st;
    struct ptx_insn *in = mk(f, OP_ADD, PT_S32);
    in->opd[0] = oR(0); in->opd[1] = oR(1); in->opd[2] = oI(-1);
    setall(f, 1, 5);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 3), 4);
    in = mk(f, OP_ADD, PT_U64);
    in->opd[0] = oR(0); in->opd[1] = oR(1); in->opd[2] = oI(-1);
    run(f, ALL);
    assert_true(rg(f, 0, 3) == 4);
    in = mk(f, OP_AND, PT_B16);                    /* wide register read at 16 bits */
    in->opd[0] = oR(0); in->opd[1] = oR(1); in->opd[2] = oI(0xffff);
    setall(f, 1, 0x123456789ull);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == 0x6789);
}

/* ---------------------------------------------------------------- float ALU table */

struct fcase {
    const char *name;
    uint8_t op, type, rnd;
    uint16_t mod;
    uint64_t a, b, c, want;
};

#define F1 0x3f800000u
#define F2 0x40000000u
#define FINF 0x7f800000u
#define FNINF 0xff800000u
#define FNAN 0x7fc00000u
#define FCN 0x7fffffffu
#define FMZ 0x80000000u
#define FEPS3 0x33c00000u   /* 1.5 * 2^-24: 0.75 ulp of 1.0 */
static const struct fcase fcases[] = {
    { "add.f32", OP_ADD, PT_F32, RND_RN, 0, F1, F2, 0, 0x40400000 },
    { "add.rn.f32 ulp", OP_ADD, PT_F32, RND_RN, 0, F1, FEPS3, 0, 0x3f800001 },
    { "add.rz.f32 ulp", OP_ADD, PT_F32, RND_RZ, 0, F1, FEPS3, 0, F1 },
    { "add.rm.f32 ulp", OP_ADD, PT_F32, RND_RM, 0, F1, FEPS3, 0, F1 },
    { "add.rp.f32 ulp", OP_ADD, PT_F32, RND_RP, 0, F1, FEPS3, 0, 0x3f800001 },
    { "add.rm.f32 neg", OP_ADD, PT_F32, RND_RM, 0, 0xbf800000, 0xb3c00000, 0, 0xbf800001 },
    { "add.rz.f32 overflow", OP_ADD, PT_F32, RND_RZ, 0, 0x7f7fffff, 0x7f7fffff, 0, 0x7f7fffff },
    { "add.f32 overflow", OP_ADD, PT_F32, RND_NONE, 0, 0x7f7fffff, 0x7f7fffff, 0, FINF },
    { "sub.f32 x-x", OP_SUB, PT_F32, RND_RN, 0, F1, F1, 0, 0 },
    { "sub.rm.f32 x-x", OP_SUB, PT_F32, RND_RM, 0, F1, F1, 0, FMZ },
    { "mul.rn.f32", OP_MUL, PT_F32, RND_RN, 0, 0x3f800001, 0x3f800001, 0, 0x3f800002 },
    { "mul.rp.f32", OP_MUL, PT_F32, RND_RP, 0, 0x3f800001, 0x3f800001, 0, 0x3f800003 },
    { "fma.rn.f32 single rounding", OP_FMA, PT_F32, RND_RN, 0, 0x3f800800, 0x3f800800, 0xbf801000, 0x33800000 },
    /* a*b = 1 + 2^-24 exactly (a float midpoint), + 2^-60: rounding through double would tie
       down to 1.0; a single rounding gives 1 + 2^-23 */
    { "fma.rn.f32 no double rounding", OP_FMA, PT_F32, RND_RN, 0, 0x3f42c200, 0x3fa84000, 0x21800000, 0x3f800001 },
    { "fma.rn.f32 no double rounding -", OP_FMA, PT_F32, RND_RN, 0, 0xbf42c200, 0x3fa84000, 0xa1800000, 0xbf800001 },
    { "mad.rn.f32 fused", OP_MAD, PT_F32, RND_RN, 0, 0x3f800800, 0x3f800800, 0xbf801000, 0x33800000 },
    { "fma.rz.f32", OP_FMA, PT_F32, RND_RZ, 0, F1, F1, FEPS3, F1 },
    { "fma.rp.f32", OP_FMA, PT_F32, RND_RP, 0, F1, F1, 0x00000001, 0x3f800001 },
    { "div.rn.f32", OP_DIV, PT_F32, RND_RN, 0, F1, 0x40400000, 0, 0x3eaaaaab },
    { "div.rz.f32", OP_DIV, PT_F32, RND_RZ, 0, F1, 0x40400000, 0, 0x3eaaaaaa },
    { "div.full.f32", OP_DIV, PT_F32, RND_NONE, MOD_FULL, F1, 0x40400000, 0, 0x3eaaaaab },
    { "div.f32 by 0", OP_DIV, PT_F32, RND_RN, 0, F1, 0, 0, FINF },
    { "div.f32 0/0", OP_DIV, PT_F32, RND_RN, 0, 0, 0, 0, FCN },
    { "sqrt.rn.f32", OP_SQRT, PT_F32, RND_RN, 0, F2, 0, 0, 0x3fb504f3 },
    { "sqrt.rp.f32", OP_SQRT, PT_F32, RND_RP, 0, F2, 0, 0, 0x3fb504f4 },
    { "sqrt.rn.f32 -1", OP_SQRT, PT_F32, RND_RN, 0, 0xbf800000, 0, 0, FCN },
    { "sqrt.f32 -0", OP_SQRT, PT_F32, RND_RN, 0, FMZ, 0, 0, FMZ },
    { "rcp.rn.f32", OP_RCP, PT_F32, RND_RN, 0, 0x40400000, 0, 0, 0x3eaaaaab },
    { "rcp.rz.f32", OP_RCP, PT_F32, RND_RZ, 0, 0x40400000, 0, 0, 0x3eaaaaaa },
    { "rcp.approx.f32 -0", OP_RCP, PT_F32, RND_NONE, MOD_APPROX, FMZ, 0, 0, FNINF },
    { "add.f32 nan", OP_ADD, PT_F32, RND_RN, 0, 0x7fc12345, F1, 0, FCN },
    { "add.f32 inf-inf", OP_ADD, PT_F32, RND_RN, 0, FINF, FNINF, 0, FCN },
    { "mul.f32 0*inf", OP_MUL, PT_F32, RND_RN, 0, 0, FINF, 0, FCN },
    { "min.f32 nan,1", OP_MIN, PT_F32, 0, 0, FNAN, F1, 0, F1 },
    { "max.f32 1,nan", OP_MAX, PT_F32, 0, 0, F1, FNAN, 0, F1 },
    { "min.f32 nan,nan", OP_MIN, PT_F32, 0, 0, FNAN, 0xffc00000, 0, FCN },
    { "min.f32 -0,+0", OP_MIN, PT_F32, 0, 0, 0, FMZ, 0, FMZ },
    { "max.f32 -0,+0", OP_MAX, PT_F32, 0, 0, FMZ, 0, 0, 0 },
    { "min.f32 -inf", OP_MIN, PT_F32, 0, 0, FNINF, F1, 0, FNINF },
    { "max.f32", OP_MAX, PT_F32, 0, 0, 0xc0000000, F1, 0, F1 },
    { "add.f32 subnormal", OP_ADD, PT_F32, RND_RN, 0, 0x00000001, 0, 0, 0x00000001 },
    { "add.ftz.f32 subnormal", OP_ADD, PT_F32, RND_RN, MOD_FTZ, 0x00000001, 0, 0, 0 },
    { "add.ftz.f32 -subnormal", OP_ADD, PT_F32, RND_RN, MOD_FTZ, 0x80000001, FMZ, 0, FMZ },
    { "mul.f32 to subnormal", OP_MUL, PT_F32, RND_RN, 0, 0x00800000, 0x3f000000, 0, 0x00400000 },
    { "mul.ftz.f32 to subnormal", OP_MUL, PT_F32, RND_RN, MOD_FTZ, 0x00800000, 0x3f000000, 0, 0 },
    { "mul.ftz.f32 -subnormal", OP_MUL, PT_F32, RND_RN, MOD_FTZ, 0x80800000, 0x3f000000, 0, FMZ },
    { "add.sat.f32 >1", OP_ADD, PT_F32, RND_RN, MOD_SAT, 0x3f000000, 0x3f400000, 0, F1 },
    { "sub.sat.f32 <0", OP_SUB, PT_F32, RND_RN, MOD_SAT, 0, F1, 0, 0 },
    { "add.sat.f32 nan", OP_ADD, PT_F32, RND_RN, MOD_SAT, FNAN, F1, 0, 0 },
    { "mul.sat.f32 mid", OP_MUL, PT_F32, RND_RN, MOD_SAT, 0x3f000000, 0x3f000000, 0, 0x3e800000 },
    { "abs.f32 -0", OP_ABS, PT_F32, 0, 0, FMZ, 0, 0, 0 },
    { "abs.f32 -inf", OP_ABS, PT_F32, 0, 0, FNINF, 0, 0, FINF },
    { "neg.f32 0", OP_NEG, PT_F32, 0, 0, 0, 0, 0, FMZ },
    { "neg.ftz.f32 subnormal", OP_NEG, PT_F32, 0, MOD_FTZ, 0x00000001, 0, 0, FMZ },
    { "neg.f32 subnormal", OP_NEG, PT_F32, 0, 0, 0x00000001, 0, 0, 0x80000001 },
    { "copysign.f32", OP_COPYSIGN, PT_F32, 0, 0, 0xbf800000, F2, 0, 0xc0000000 },
    { "copysign.f32 +", OP_COPYSIGN, PT_F32, 0, 0, F1, 0xc0000000, 0, F2 },
    { "ex2.approx.f32", OP_EX2, PT_F32, 0, MOD_APPROX, 0x40400000, 0, 0, 0x41000000 },
    { "ex2.approx.f32 -inf", OP_EX2, PT_F32, 0, MOD_APPROX, FNINF, 0, 0, 0 },
    { "lg2.approx.f32", OP_LG2, PT_F32, 0, MOD_APPROX, 0x41000000, 0, 0, 0x40400000 },
    { "lg2.approx.f32 0", OP_LG2, PT_F32, 0, MOD_APPROX, 0, 0, 0, FNINF },
    { "lg2.approx.f32 -1", OP_LG2, PT_F32, 0, MOD_APPROX, 0xbf800000, 0, 0, FCN },
    { "lg2.approx.ftz.f32 subnormal", OP_LG2, PT_F32, 0, MOD_APPROX | MOD_FTZ, 0x00000001, 0, 0, FNINF },
    { "sin.approx.f32 0", OP_SIN, PT_F32, 0, MOD_APPROX, 0, 0, 0, 0 },
    { "sin.approx.f32 inf", OP_SIN, PT_F32, 0, MOD_APPROX, FINF, 0, 0, FCN },
    { "cos.approx.f32 0", OP_COS, PT_F32, 0, MOD_APPROX, 0, 0, 0, F1 },
    { "rsqrt.approx.f32", OP_RSQRT, PT_F32, 0, MOD_APPROX, 0x40800000, 0, 0, 0x3f000000 },
    { "rsqrt.approx.f32 0", OP_RSQRT, PT_F32, 0, MOD_APPROX, 0, 0, 0, FINF },
    { "tanh.approx.f32", OP_TANH, PT_F32, 0, MOD_APPROX, FINF, 0, 0, F1 },
    { "sqrt.approx.f32", OP_SQRT, PT_F32, 0, MOD_APPROX, 0x41800000, 0, 0, 0x40800000 },
    { "add.f64", OP_ADD, PT_F64, RND_RN, 0, 0x3fb999999999999aull, 0x3fc999999999999aull, 0, 0x3fd3333333333334ull },
    { "div.rn.f64", OP_DIV, PT_F64, RND_RN, 0, 0x3ff0000000000000ull, 0x4008000000000000ull, 0, 0x3fd5555555555555ull },
    { "div.rp.f64", OP_DIV, PT_F64, RND_RP, 0, 0x3ff0000000000000ull, 0x4008000000000000ull, 0, 0x3fd5555555555556ull },
    { "div.rm.f64 neg", OP_DIV, PT_F64, RND_RM, 0, 0xbff0000000000000ull, 0x4008000000000000ull, 0, 0xbfd5555555555556ull },
    { "sqrt.rn.f64", OP_SQRT, PT_F64, RND_RN, 0, 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bcdull },
    { "fma.rn.f64", OP_FMA, PT_F64, RND_RN, 0, 0x3ff0000000000001ull, 0x3ff0000000000001ull, 0xbff0000000000002ull, 0x3970000000000000ull },
    { "rcp.rn.f64", OP_RCP, PT_F64, RND_RN, 0, 0x4008000000000000ull, 0, 0, 0x3fd5555555555555ull },
    { "add.f64 nan", OP_ADD, PT_F64, RND_RN, 0, 0x7ff8000000000001ull, 0, 0, 0x7fffffffffffffffull },
    { "min.f64 nan", OP_MIN, PT_F64, 0, 0, 0x7ff8000000000000ull, 0x4000000000000000ull, 0, 0x4000000000000000ull },
    { "neg.f64", OP_NEG, PT_F64, 0, 0, 0x4000000000000000ull, 0, 0, 0xc000000000000000ull },
    { "abs.f64 subnormal kept", OP_ABS, PT_F64, 0, MOD_FTZ, 0x8000000000000001ull, 0, 0, 1 },
    { "add.f16", OP_ADD, PT_F16, RND_RN, 0, 0x3c00, 0x3c00, 0, 0x4000 },
    { "mul.f16", OP_MUL, PT_F16, RND_RN, 0, 0x3c00, 0x3800, 0, 0x3800 },
    { "add.f16 overflow", OP_ADD, PT_F16, RND_RN, 0, 0x7bff, 0x7bff, 0, 0x7c00 },
    { "add.rz.f16 overflow", OP_ADD, PT_F16, RND_RZ, 0, 0x7bff, 0x7bff, 0, 0x7bff },
    { "fma.rn.f16", OP_FMA, PT_F16, RND_RN, 0, 0x4000, 0x4200, 0x3c00, 0x4700 },
    { "neg.f16", OP_NEG, PT_F16, 0, 0, 0x3c00, 0, 0, 0xbc00 },
    { "max.f16", OP_MAX, PT_F16, 0, 0, 0xbc00, 0x3c00, 0, 0x3c00 },
};

static void test_float_table(void **st)
{
    struct fx *f = *st;
    for (size_t i = 0; i < sizeof fcases / sizeof fcases[0]; i++) {
        const struct fcase *k = &fcases[i];
        struct ptx_insn *in = mk(f, k->op, k->type);
        in->mod = k->mod;
        in->rnd = k->rnd;
        for (int o = 0; o < 4; o++)
            in->opd[o] = oR(o);
        setall(f, 0, 0xdeadbeef);
        setall(f, 1, k->a);
        setall(f, 2, k->b);
        setall(f, 3, k->c);
        run(f, ALL);
        if (f->res.kind != EX_NORMAL || rg(f, 0, 0) != k->want || rg(f, 0, 31) != k->want) {
            print_error("%s: got %#llx want %#llx\n", k->name, (unsigned long long)rg(f, 0, 0),
                        (unsigned long long)k->want);
            fail();
        }
        assert_int_equal(fegetround(), FE_TONEAREST);     /* host mode restored */
    }
}

/* float immediates are bits; approximate ops stay within their PTX bounds */
static void test_float_imm_and_approx(void **st)
{
    struct fx *f = *st;
    struct ptx_insn *in = mk(f, OP_MUL, PT_F32);
    in->rnd = RND_RN;
    in->opd[0] = oR(0); in->opd[1] = oR(1); in->opd[2] = oI(0x40000000);  /* 0f40000000 = 2.0 */
    setall(f, 1, fb(1.5f));
    run(f, ALL);
    assert_int_equal(rg(f, 0, 5), fb(3.0f));
    in = mk(f, OP_SIN, PT_F32);
    in->mod = MOD_APPROX;
    in->opd[0] = oR(0); in->opd[1] = oR(1);
    for (int l = 0; l < 32; l++)
        f->regs[1 * EX_WARP + l] = fb(-3.14159f + 0.2f * (float)l);
    run(f, ALL);
    for (int l = 0; l < 32; l++) {
        float x, y;
        uint32_t u = (uint32_t)rg(f, 0, l), xa = (uint32_t)rg(f, 1, l);
        memcpy(&y, &u, 4);
        memcpy(&x, &xa, 4);
        assert_true(fabs((double)y - sin((double)x)) < 1e-6);   /* PTX bound: 2^-20.9 */
    }
}

/* Random f32 operands (all classes) through ex_exec vs. the host's own float arithmetic in
   the same rounding mode: checks the compute-in-double-then-round scheme and fma.rn. */
static uint32_t rnd32(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    uint32_t r = (uint32_t)(*s >> 11);
    switch (r & 7) {            /* bias towards special exponents and near-ties */
    case 0: return (r & 0x807fffffu);                       /* zero / subnormal */
    case 1: return (r & 0x807fffffu) | 0x7f800000u;         /* inf / nan */
    case 2: return (r & 0x80000fffu) | 0x3f800000u;         /* near 1 */
    default: return r;
    }
}

static uint32_t host_f32(uint8_t op, float a, float b, float c)
{
    volatile float va = a, vb = b, vc = c, r;
    switch (op) {
    case OP_ADD: r = va + vb; break;
    case OP_SUB: r = va - vb; break;
    case OP_MUL: r = va * vb; break;
    case OP_DIV: r = va / vb; break;
    case OP_SQRT: r = sqrtf(va); break;
    default: r = fmaf(va, vb, vc); break;
    }
    float rr = r;
    return rr != rr ? 0x7fffffffu : fb(rr);
}

static void test_float_random_vs_host(void **st)
{
    struct fx *f = *st;
    static const uint8_t ops[] = { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA };
    static const struct { uint8_t rnd; int fe; } modes[] = {
        { RND_RN, FE_TONEAREST }, { RND_RZ, FE_TOWARDZERO }, { RND_RM, FE_DOWNWARD },
        { RND_RP, FE_UPWARD },
    };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (size_t m = 0; m < 4; m++)
        for (size_t o = 0; o < sizeof ops; o++) {
            struct ptx_insn *in = mk(f, ops[o], PT_F32);
            in->rnd = modes[m].rnd;
            for (int i = 0; i < 4; i++)
                in->opd[i] = oR(i);
            for (int rep = 0; rep < 64; rep++) {
                for (int l = 0; l < 32; l++) {
                    f->regs[1 * EX_WARP + l] = rnd32(&seed);
                    f->regs[2 * EX_WARP + l] = rnd32(&seed);
                    f->regs[3 * EX_WARP + l] = rnd32(&seed);
                }
                run(f, ALL);
                fesetround(modes[m].fe);
                for (int l = 0; l < 32; l++) {
                    float a, b, c;
                    uint32_t ua = (uint32_t)rg(f, 1, l), ub = (uint32_t)rg(f, 2, l), uc = (uint32_t)rg(f, 3, l);
                    memcpy(&a, &ua, 4); memcpy(&b, &ub, 4); memcpy(&c, &uc, 4);
                    uint32_t want = host_f32(ops[o], a, b, c);
                    if (rg(f, 0, l) != want) {
                        fesetround(FE_TONEAREST);
                        print_error("op %u rnd %u: %08x %08x %08x -> %08llx want %08x\n", ops[o],
                                    modes[m].rnd, ua, ub, uc, (unsigned long long)rg(f, 0, l), want);
                        fail();
                    }
                }
                fesetround(FE_TONEAREST);
            }
        }
}

/* ---------------------------------------------------------------- compare / select */

struct scase {
    const char *name;
    uint8_t cmp, type;
    uint16_t mod;
    uint64_t a, b;
    int want;
};

static const struct scase scases[] = {
    { "lt.s32", CMP_LT, PT_S32, 0, N32, 1, 1 },
    { "lt.u32", CMP_LT, PT_U32, 0, N32, 1, 0 },
    { "lo.u32", CMP_LO, PT_U32, 0, 1, N32, 1 },
    { "hs.u32", CMP_HS, PT_U32, 0, N32, N32, 1 },
    { "hi.u32", CMP_HI, PT_U32, 0, N32, N32, 0 },
    { "ls.u32", CMP_LS, PT_U32, 0, 0, N32, 1 },
    { "ge.s64", CMP_GE, PT_S64, 0, MIN64, 0, 0 },
    { "eq.b32", CMP_EQ, PT_B32, 0, 7, 7, 1 },
    { "ne.b32", CMP_NE, PT_B32, 0, 7, 7, 0 },
    { "gt.s16", CMP_GT, PT_S16, 0, 1, 0x8000, 1 },
    { "le.u8 wide reg", CMP_LE, PT_U8, 0, 0x1ff, 0x100, 0 },
    { "eq.f32 nan", CMP_EQ, PT_F32, 0, FNAN, FNAN, 0 },
    { "ne.f32 nan", CMP_NE, PT_F32, 0, FNAN, F1, 0 },
    { "neu.f32 nan", CMP_NEU, PT_F32, 0, FNAN, F1, 1 },
    { "equ.f32 nan", CMP_EQU, PT_F32, 0, FNAN, FNAN, 1 },
    { "equ.f32 eq", CMP_EQU, PT_F32, 0, F1, F1, 1 },
    { "ltu.f32", CMP_LTU, PT_F32, 0, F2, F1, 0 },
    { "leu.f32 nan", CMP_LEU, PT_F32, 0, F2, FNAN, 1 },
    { "gtu.f32 nan", CMP_GTU, PT_F32, 0, FINF, FNAN, 1 },
    { "geu.f32", CMP_GEU, PT_F32, 0, F1, F2, 0 },
    { "num.f32", CMP_NUM, PT_F32, 0, F1, F2, 1 },
    { "num.f32 nan", CMP_NUM, PT_F32, 0, F1, FNAN, 0 },
    { "nan.f32", CMP_NAN, PT_F32, 0, FNAN, F1, 1 },
    { "nan.f32 no", CMP_NAN, PT_F32, 0, FINF, F1, 0 },
    { "lt.f32 -0 +0", CMP_LT, PT_F32, 0, FMZ, 0, 0 },
    { "eq.f32 -0 +0", CMP_EQ, PT_F32, 0, FMZ, 0, 1 },
    { "ge.f32 inf", CMP_GE, PT_F32, 0, FINF, FINF, 1 },
    { "gt.f32 subnormal", CMP_GT, PT_F32, 0, 1, 0, 1 },
    { "gt.ftz.f32 subnormal", CMP_GT, PT_F32, MOD_FTZ, 1, 0, 0 },
    { "lt.f64", CMP_LT, PT_F64, 0, 0xbff0000000000000ull, 0, 1 },
    { "lt.f16", CMP_LT, PT_F16, 0, 0xbc00, 0x3c00, 1 },
};

static void test_setp_table(void **st)
{
    struct fx *f = *st;
    for (size_t i = 0; i < sizeof scases / sizeof scases[0]; i++) {
        const struct scase *k = &scases[i];
        struct ptx_insn *in = mk(f, OP_SETP, k->type);
        in->type2 = k->type;
        in->cmp = k->cmp;
        in->mod = k->mod;
        in->opd[0] = oR(0);
        in->opd[1] = oR(5);
        in->opd[2] = oR(1);
        in->opd[3] = oR(2);
        setall(f, 0, 9);
        setall(f, 5, 9);
        setall(f, 1, k->a);
        setall(f, 2, k->b);
        run(f, ALL);
        if (rg(f, 0, 0) != (uint64_t)k->want || rg(f, 5, 31) != (uint64_t)!k->want) {
            print_error("setp %s: p=%llu q=%llu want %d\n", k->name,
                        (unsigned long long)rg(f, 0, 0), (unsigned long long)rg(f, 5, 31), k->want);
            fail();
        }
    }
}

/* setp with a bool op: p = t op c, q = !t op c; c may be negated; q may be absent */
static void test_setp_boolop(void **st)
{
    struct fx *f = *st;
    static const struct { uint8_t bop; int t, c, neg, p, q; } cases[] = {
        { BOP_AND, 1, 1, 0, 1, 0 }, { BOP_AND, 0, 1, 0, 0, 1 }, { BOP_AND, 1, 1, 1, 0, 0 },
        { BOP_OR, 0, 1, 0, 1, 1 }, { BOP_OR, 0, 0, 0, 0, 1 }, { BOP_XOR, 1, 1, 0, 0, 1 },
        { BOP_XOR, 1, 0, 1, 0, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ptx_insn *in = mk(f, OP_SETP, PT_S32);
        in->type2 = PT_S32;
        in->cmp = CMP_EQ;
        in->bop = cases[i].bop;
        in->opd[0] = oR(0); in->opd[1] = oR(5); in->opd[2] = oR(1); in->opd[3] = oI(0);
        in->opd[4] = cases[i].neg ? oNot(oR(6)) : oR(6);
        setall(f, 1, cases[i].t ? 0 : 1);
        setall(f, 6, (uint64_t)cases[i].c);
        run(f, ALL);
        assert_int_equal(rg(f, 0, 9), cases[i].p);
        assert_int_equal(rg(f, 5, 9), cases[i].q);
    }
    /* no q operand */
    struct ptx_insn *in = mk(f, OP_SETP, PT_S32);
    in->type2 = PT_S32;
    in->cmp = CMP_NE;
    in->opd[0] = oR(0); in->opd[2] = oR(1); in->opd[3] = oI(0);
    setall(f, 1, 3);
    setall(f, 5, 77);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 1);
    assert_int_equal(rg(f, 5, 0), 77);
}

static void test_set_selp_slct(void **st)
{
    struct fx *f = *st;
    /* set.lt.u32.s32 d, a, b -> all ones; set.lt.f32.s32 -> 1.0f; with .and and a predicate */
    struct ptx_insn *in = mk(f, OP_SET, PT_U32);
    in->type2 = PT_S32;
    in->cmp = CMP_LT;
    in->opd[0] = oR(0); in->opd[1] = oR(1); in->opd[2] = oR(2);
    setall(f, 1, N32);
    setall(f, 2, 0);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == N32);
    in->type = PT_F32;
    run(f, ALL);
    assert_true(rg(f, 0, 0) == F1);
    in->bop = BOP_AND;
    in->opd[3] = oR(3);
    setall(f, 3, 0);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == 0);
    /* setp-style layout (opd[1] none) is accepted */
    in = mk(f, OP_SET, PT_S32);
    in->type2 = PT_F32;
    in->cmp = CMP_GT;
    in->opd[0] = oR(0); in->opd[2] = oR(1); in->opd[3] = oR(2);
    setall(f, 1, F2);
    setall(f, 2, F1);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == N32);

    /* selp: lanes choose by predicate */
    in = mk(f, OP_SELP, PT_B32);
    in->opd[0] = oR(0); in->opd[1] = oI(11); in->opd[2] = oI(22); in->opd[3] = oR(4);
    for (int l = 0; l < 32; l++)
        f->regs[4 * EX_WARP + l] = (uint64_t)(l & 1);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 22);
    assert_int_equal(rg(f, 0, 1), 11);
    in->opd[3] = oNot(oR(4));
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 11);

    /* slct: c >= 0 selects a */
    in = mk(f, OP_SLCT, PT_B32);
    in->type2 = PT_S32;
    in->opd[0] = oR(0); in->opd[1] = oI(1); in->opd[2] = oI(2); in->opd[3] = oR(3);
    setall(f, 3, N32);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 2);
    setall(f, 3, 0);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 1);
    in->type2 = PT_F32;
    setall(f, 3, FMZ);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 1);
    setall(f, 3, FNAN);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 2);
    setall(f, 3, 0x80000001u);                       /* -subnormal, not flushed: b */
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 2);
    in->mod = MOD_FTZ;                               /* flushed to -0: a */
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 1);
}

/* ---------------------------------------------------------------- conversions */

struct ccase {
    const char *name;
    uint8_t dt, st, rnd;
    uint16_t mod;
    uint64_t a, want;
};

static const struct ccase ccases[] = {
    { "s32.s8", PT_S32, PT_S8, 0, 0, 0x80, 0xffffff80 },
    { "u32.u8", PT_U32, PT_U8, 0, 0, 0x180, 0x80 },
    { "u16.u32", PT_U16, PT_U32, 0, 0, 0x12345678, 0x5678 },
    { "s16.s32 trunc", PT_S16, PT_S32, 0, 0, 0x18000, 0x8000 },
    { "sat.s8.s32 hi", PT_S8, PT_S32, 0, MOD_SAT, 300, 0x7f },
    { "sat.s8.s32 lo", PT_S8, PT_S32, 0, MOD_SAT, 0xfffffed4, 0x80 },
    { "sat.u8.s32 neg", PT_U8, PT_S32, 0, MOD_SAT, 0xfffffffb, 0 },
    { "sat.u32.s64 neg", PT_U32, PT_S64, 0, MOD_SAT, ~0ull, 0 },
    { "sat.s32.u32", PT_S32, PT_U32, 0, MOD_SAT, N32, 0x7fffffff },
    { "sat.u16.u32", PT_U16, PT_U32, 0, MOD_SAT, 70000, 0xffff },
    { "sat.s64.u64", PT_S64, PT_U64, 0, MOD_SAT, ~0ull, 0x7fffffffffffffffull },
    { "sat.u64.s8", PT_U64, PT_S8, 0, MOD_SAT, 0x80, 0 },
    { "s64.s32", PT_S64, PT_S32, 0, 0, N32, ~0ull },
    { "u64.s32", PT_U64, PT_S32, 0, 0, N32, ~0ull },
    { "u64.u32", PT_U64, PT_U32, 0, 0, N32, N32 },
    { "rni.s32.f32 2.5", PT_S32, PT_F32, RND_RNI, 0, 0x40200000, 2 },
    { "rni.s32.f32 3.5", PT_S32, PT_F32, RND_RNI, 0, 0x40600000, 4 },
    { "rni.s32.f32 -2.5", PT_S32, PT_F32, RND_RNI, 0, 0xc0200000, 0xfffffffe },
    { "rzi.s32.f32 -2.7", PT_S32, PT_F32, RND_RZI, 0, 0xc02ccccd, 0xfffffffe },
    { "rmi.s32.f32 -2.1", PT_S32, PT_F32, RND_RMI, 0, 0xc0066666, 0xfffffffd },
    { "rpi.s32.f32 2.1", PT_S32, PT_F32, RND_RPI, 0, 0x40066666, 3 },
    { "rzi.s32.f32 3e9", PT_S32, PT_F32, RND_RZI, 0, 0x4f32d05e, 0x7fffffff },
    { "rzi.s32.f32 -3e9", PT_S32, PT_F32, RND_RZI, 0, 0xcf32d05e, MIN32 },
    { "rzi.s32.f32 nan", PT_S32, PT_F32, RND_RZI, 0, FNAN, 0 },
    { "rzi.s32.f32 inf", PT_S32, PT_F32, RND_RZI, 0, FINF, 0x7fffffff },
    { "rzi.s32.f32 -inf", PT_S32, PT_F32, RND_RZI, 0, FNINF, MIN32 },
    { "rzi.u32.f32 -1", PT_U32, PT_F32, RND_RZI, 0, 0xbf800000, 0 },
    { "rzi.u32.f32 5e9", PT_U32, PT_F32, RND_RZI, 0, 0x4f9502f9, N32 },
    { "rni.u8.f32 300", PT_U8, PT_F32, RND_RNI, 0, 0x43960000, 0xff },
    { "rni.s16.f32 -40000", PT_S16, PT_F32, RND_RNI, 0, 0xc71c4000, 0x8000 },
    { "rzi.s64.f64 1e19", PT_S64, PT_F64, RND_RZI, 0, 0x43e158e460913d00ull, 0x7fffffffffffffffull },
    { "rzi.s64.f64 -2^63", PT_S64, PT_F64, RND_RZI, 0, 0xc3e0000000000000ull, MIN64 },
    { "rzi.u64.f64 -0.5", PT_U64, PT_F64, RND_RZI, 0, 0xbfe0000000000000ull, 0 },
    { "rzi.u64.f64 2^64", PT_U64, PT_F64, RND_RZI, 0, 0x43f0000000000000ull, ~0ull },
    { "rni.s32.f16 2.5", PT_S32, PT_F16, RND_RNI, 0, 0x4100, 2 },
    { "rn.f32.s32", PT_F32, PT_S32, RND_RN, 0, 16777217, 0x4b800000 },
    { "rn.f32.s32 2^24+3", PT_F32, PT_S32, RND_RN, 0, 16777219, 0x4b800002 },
    { "rz.f32.s32 2^24+3", PT_F32, PT_S32, RND_RZ, 0, 16777219, 0x4b800001 },
    { "rm.f32.s32 -(2^24+3)", PT_F32, PT_S32, RND_RM, 0, (uint32_t)-16777219, 0xcb800002 },
    { "rp.f32.s32 2^24+3", PT_F32, PT_S32, RND_RP, 0, 16777219, 0x4b800002 },
    { "rn.f32.u64 max", PT_F32, PT_U64, RND_RN, 0, ~0ull, 0x5f800000 },
    { "rz.f32.u64 max", PT_F32, PT_U64, RND_RZ, 0, ~0ull, 0x5f7fffff },
    { "rn.f32.s64 single rounding", PT_F32, PT_S64, RND_RN, 0, 0x1000001000000001ull, 0x5d800001 },
    { "rn.f64.s64 min", PT_F64, PT_S64, RND_RN, 0, MIN64, 0xc3e0000000000000ull },
    { "rn.f64.u32", PT_F64, PT_U32, RND_RN, 0, N32, 0x41efffffffe00000ull },
    { "rn.f32.f64 0.1", PT_F32, PT_F64, RND_RN, 0, 0x3fb999999999999aull, 0x3dcccccd },
    { "rz.f32.f64 0.1", PT_F32, PT_F64, RND_RZ, 0, 0x3fb999999999999aull, 0x3dcccccc },
    { "rn.f32.f64 1e300", PT_F32, PT_F64, RND_RN, 0, 0x7e37e43c8800759cull, FINF },
    { "rz.f32.f64 1e300", PT_F32, PT_F64, RND_RZ, 0, 0x7e37e43c8800759cull, 0x7f7fffff },
    { "rn.f32.f64 nan", PT_F32, PT_F64, RND_RN, 0, 0x7ff8000000000001ull, FCN },
    { "rn.f32.f64 tiny", PT_F32, PT_F64, RND_RN, 0, 0x3730000000000000ull, 0x00000200 },
    { "rn.ftz.f32.f64 tiny", PT_F32, PT_F64, RND_RN, MOD_FTZ, 0x3730000000000000ull, 0 },
    { "f64.f32", PT_F64, PT_F32, 0, 0, 0x3dcccccd, 0x3fb99999a0000000ull },
    { "f64.f32 subnormal", PT_F64, PT_F32, 0, 0, 1, 0x36a0000000000000ull },
    { "ftz.f64.f32 subnormal", PT_F64, PT_F32, 0, MOD_FTZ, 0x80000001, 0x8000000000000000ull },
    { "ftz.f32.f32", PT_F32, PT_F32, 0, MOD_FTZ, 0x00000001, 0 },
    { "sat.f32.f32", PT_F32, PT_F32, 0, MOD_SAT, F2, F1 },
    { "sat.f32.f32 nan", PT_F32, PT_F32, 0, MOD_SAT, FNAN, 0 },
    { "rni.f32.f32", PT_F32, PT_F32, RND_RNI, 0, 0x40200000, F2 },
    { "rmi.f32.f32", PT_F32, PT_F32, RND_RMI, 0, 0xbf000000, 0xbf800000 },
    { "rzi.f32.f32 -0.5", PT_F32, PT_F32, RND_RZI, 0, 0xbf000000, FMZ },
    { "rn.f16.f32 1", PT_F16, PT_F32, RND_RN, 0, F1, 0x3c00 },
    { "rn.f16.f32 65519", PT_F16, PT_F32, RND_RN, 0, 0x477fef00, 0x7bff },
    { "rn.f16.f32 65520", PT_F16, PT_F32, RND_RN, 0, 0x477ff000, 0x7c00 },
    { "rz.f16.f32 65520", PT_F16, PT_F32, RND_RZ, 0, 0x477ff000, 0x7bff },
    { "rm.f16.f32 -65520", PT_F16, PT_F32, RND_RM, 0, 0xc77ff000, 0xfc00 },
    { "rn.f16.f32 2^-25 tie", PT_F16, PT_F32, RND_RN, 0, 0x33000000, 0 },
    { "rn.f16.f32 3*2^-26", PT_F16, PT_F32, RND_RN, 0, 0x33400000, 1 },
    { "rp.f16.f32 2^-30", PT_F16, PT_F32, RND_RP, 0, 0x30800000, 1 },
    { "rn.f16.f32 0.1", PT_F16, PT_F32, RND_RN, 0, 0x3dcccccd, 0x2e66 },
    { "rn.f16.f32 nan", PT_F16, PT_F32, RND_RN, 0, FNAN, 0x7fff },
    { "rn.f16.f32 -0", PT_F16, PT_F32, RND_RN, 0, FMZ, 0x8000 },
    { "rn.f16.f32 max subnormal", PT_F16, PT_F32, RND_RN, 0, 0x387fc000, 0x03ff },
    { "rn.f16.f32 to min normal", PT_F16, PT_F32, RND_RN, 0, 0x387ff000, 0x0400 },
    { "rn.f16.s32", PT_F16, PT_S32, RND_RN, 0, 2049, 0x6800 },
    { "f32.f16", PT_F32, PT_F16, 0, 0, 0x3555, 0x3eaaa000 },
    { "f32.f16 subnormal", PT_F32, PT_F16, 0, 0, 0x0001, 0x33800000 },
    { "f32.f16 inf", PT_F32, PT_F16, 0, 0, 0xfc00, FNINF },
    { "f64.f16", PT_F64, PT_F16, 0, 0, 0xc000, 0xc000000000000000ull },
    { "rn.sat.f32.s32", PT_F32, PT_S32, RND_RN, MOD_SAT, 5, F1 },
};

static void test_cvt_table(void **st)
{
    struct fx *f = *st;
    for (size_t i = 0; i < sizeof ccases / sizeof ccases[0]; i++) {
        const struct ccase *k = &ccases[i];
        struct ptx_insn *in = mk(f, OP_CVT, k->dt);
        in->type2 = k->st;
        in->rnd = k->rnd;
        in->mod = k->mod;
        in->opd[0] = oR(0);
        in->opd[1] = oR(1);
        setall(f, 0, 0xdeadbeef);
        setall(f, 1, k->a);
        run(f, ALL);
        if (f->res.kind != EX_NORMAL || rg(f, 0, 0) != k->want || rg(f, 0, 31) != k->want) {
            print_error("cvt.%s: got %#llx want %#llx\n", k->name, (unsigned long long)rg(f, 0, 0),
                        (unsigned long long)k->want);
            fail();
        }
        assert_int_equal(fegetround(), FE_TONEAREST);
    }
}

static void test_mov_cvta_sreg(void **st)
{
    struct fx *f = *st;
    /* mov.b64 %rd, {%r1, %r2} and back */
    struct ptx_insn *in = mk(f, OP_MOV, PT_B64);
    in->opd[0] = oR(0);
    in->opd[1] = oV(2, 1, 2, -1, -1);
    setall(f, 1, 0x11111111);
    setall(f, 2, 0x22222222);
    run(f, ALL);
    assert_true(rg(f, 0, 4) == 0x2222222211111111ull);
    in->opd[0] = oV(2, 3, -1, -1, -1);
    in->opd[1] = oR(0);
    setall(f, 4, 5);
    run(f, ALL);
    assert_true(rg(f, 3, 4) == 0x11111111);
    in = mk(f, OP_MOV, PT_B32);                    /* mov.b32 {%rs1, %rs2}, %r */
    in->opd[0] = oV(2, 5, 6, -1, -1);
    in->opd[1] = oI(0xabcd1234);
    run(f, ALL);
    assert_true(rg(f, 5, 0) == 0x1234 && rg(f, 6, 0) == 0xabcd);

    /* cvta to and from generic */
    in = mk(f, OP_CVTA, PT_U64);
    in->space = PS_SHARED;
    in->opd[0] = oR(0); in->opd[1] = oR(1);
    setall(f, 1, 0x40);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == PTX_GEN_SHARED + 0x40);
    in->mod = MOD_TO;
    setall(f, 1, PTX_GEN_SHARED + 0x40);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == 0x40);
    in->space = PS_LOCAL;
    in->mod = 0;
    setall(f, 1, 8);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == PTX_GEN_LOCAL + 8);
    in->space = PS_GLOBAL;
    in->mod = MOD_TO;
    setall(f, 1, f->gbuf);
    run(f, ALL);
    assert_true(rg(f, 0, 0) == f->gbuf);
    in->space = PS_PARAM;
    run(f, ALL);
    expect_err(f, 0, "cvta.param (generic addressing of parameters) is not supported");

    /* special registers: warp 1 of an 8x4x2 block: lane l is thread (l%8, l/8, 1) */
    static const struct { uint8_t sr, comp; uint8_t type; int lane; uint64_t want; } sr[] = {
        { SR_TID, 0, PT_U32, 13, 5 }, { SR_TID, 1, PT_U32, 13, 1 }, { SR_TID, 2, PT_U32, 13, 1 },
        { SR_TID, 1, PT_U32, 31, 3 }, { SR_NTID, 1, PT_U32, 0, 4 }, { SR_CTAID, 2, PT_U32, 0, 3 },
        { SR_NCTAID, 0, PT_U32, 0, 4 }, { SR_LANEID, 0, PT_U32, 17, 17 },
        { SR_WARPID, 0, PT_U32, 0, 1 }, { SR_NWARPID, 0, PT_U32, 0, 2 },
        { SR_SMID, 0, PT_U32, 0, 3 }, { SR_NSMID, 0, PT_U32, 0, 15 },
        { SR_CLOCK, 0, PT_U32, 0, 0x456789ab }, { SR_CLOCK64, 0, PT_U64, 0, 0x123456789abull },
        { SR_GRIDID, 0, PT_U64, 0, 0 }, { SR_LANEMASK_EQ, 0, PT_U32, 3, 8 },
        { SR_LANEMASK_LT, 0, PT_U32, 3, 7 }, { SR_LANEMASK_LE, 0, PT_U32, 3, 15 },
        { SR_LANEMASK_GT, 0, PT_U32, 3, 0xfffffff0 }, { SR_LANEMASK_GE, 0, PT_U32, 3, 0xfffffff8 },
        { SR_LANEMASK_LE, 0, PT_U32, 31, N32 }, { SR_LANEMASK_GT, 0, PT_U32, 31, 0 },
        { SR_LANEMASK_LT, 0, PT_U32, 0, 0 },
    };
    for (size_t i = 0; i < sizeof sr / sizeof sr[0]; i++) {
        in = mk(f, OP_MOV, sr[i].type);
        in->opd[0] = oR(0);
        in->opd[1] = oS(sr[i].sr, sr[i].comp);
        run(f, ALL);
        if (rg(f, 0, sr[i].lane) != sr[i].want) {
            print_error("sreg %u.%u lane %d: got %#llx want %#llx\n", sr[i].sr, sr[i].comp,
                        sr[i].lane, (unsigned long long)rg(f, 0, sr[i].lane),
                        (unsigned long long)sr[i].want);
            fail();
        }
    }
    /* a symbol address / label as a value */
    in = mk(f, OP_MOV, PT_U64);
    in->opd[0] = oR(0);
    in->opd[1] = (struct ptx_operand){ .kind = OPD_SYMADDR, .reg = -1, .sym = -1, .imm = 0x40 };
    run(f, ALL);
    assert_true(rg(f, 0, 0) == 0x40);
}

/* ---------------------------------------------------------------- guards, partial warps */

static void test_guard_and_partial(void **st)
{
    struct fx *f = *st;
    struct ptx_insn *in = mk(f, OP_ADD, PT_U32);
    in->opd[0] = oR(0); in->opd[1] = oR(1); in->opd[2] = oI(1);
    in->guard = 7;
    for (int l = 0; l < 32; l++)
        f->regs[7 * EX_WARP + l] = (uint64_t)(l % 2 == 0);
    setall(f, 0, 100);
    setall(f, 1, 5);
    run(f, 0x0000ffffu);
    assert_int_equal(f->res.exec_mask, 0x00005555u);
    assert_int_equal(rg(f, 0, 0), 6);
    assert_int_equal(rg(f, 0, 1), 100);             /* guard false */
    assert_int_equal(rg(f, 0, 16), 100);            /* not active */
    in->guard_neg = 1;                              /* @!p */
    setall(f, 0, 100);
    run(f, 0x0000ffffu);
    assert_int_equal(f->res.exec_mask, 0x0000aaaau);
    assert_int_equal(rg(f, 0, 0), 100);
    assert_int_equal(rg(f, 0, 1), 6);
    /* no active lanes: nothing written */
    setall(f, 0, 100);
    run(f, 0);
    assert_int_equal(f->res.kind, EX_NORMAL);
    assert_int_equal(f->res.exec_mask, 0);
    assert_int_equal(rg(f, 0, 1), 100);
    /* destination = source: every lane reads before any lane writes */
    in = mk(f, OP_ADD, PT_U32);
    in->opd[0] = oR(1); in->opd[1] = oR(1); in->opd[2] = oR(1);
    setall(f, 1, 3);
    run(f, 0x3);
    assert_int_equal(rg(f, 1, 0), 6);
    assert_int_equal(rg(f, 1, 1), 6);
    assert_int_equal(rg(f, 1, 2), 3);
}

/* ---------------------------------------------------------------- memory */

static uint8_t *gptr(struct fx *f, uint64_t off) { return gm_ptr(&f->gm, f->gbuf + off, 1); }

static void test_ld_st_global(void **st)
{
    struct fx *f = *st;
    /* st.global.u32 [%r1+4], %r2  with r1 = base + 4*lane */
    struct ptx_insn *in = mk(f, OP_ST, PT_U32);
    in->space = PS_GLOBAL;
    in->opd[0] = oA(1, 4);
    in->opd[1] = oR(2);
    for (int l = 0; l < 32; l++) {
        f->regs[1 * EX_WARP + l] = f->gbuf + 4u * (unsigned)l;
        f->regs[2 * EX_WARP + l] = 0xabcd0000u + (unsigned)l;
    }
    run(f, 0x7fffffffu);
    assert_int_equal(f->res.kind, EX_NORMAL);
    assert_int_equal(f->res.is_store, 1);
    assert_int_equal(f->res.access_bytes, 4);
    assert_int_equal(f->res.space, PS_GLOBAL);
    assert_true(f->res.addr[3] == f->gbuf + 16);
    uint32_t v;
    memcpy(&v, gptr(f, 16), 4);
    assert_int_equal(v, 0xabcd0003u);
    /* ld.global.u32 back */
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_GLOBAL;
    in->opd[0] = oR(3);
    in->opd[1] = oA(1, 4);
    run(f, 0x7fffffffu);
    assert_int_equal(rg(f, 3, 30), 0xabcd001eu);
    assert_int_equal(f->res.is_store, 0);
    /* store of an immediate, 64-bit */
    in = mk(f, OP_ST, PT_U64);
    in->space = PS_GLOBAL;
    in->opd[0] = oA(-1, (int64_t)f->gbuf + 200);
    in->opd[1] = oI(-2);
    run(f, 1);
    uint64_t w;
    memcpy(&w, gptr(f, 200), 8);
    assert_true(w == 0xfffffffffffffffeull);
}

/* sub-word loads extend per type into the destination register's width */
static void test_ld_subword(void **st)
{
    struct fx *f = *st;
    static const struct { uint8_t type, rtype; uint64_t want; } cases[] = {
        { PT_S8, PT_B32, 0xffffff80 }, { PT_U8, PT_B32, 0x80 }, { PT_B8, PT_B32, 0x80 },
        { PT_S8, PT_B16, 0xff80 }, { PT_S16, PT_B64, 0xffffffffffff8180ull },
        { PT_U16, PT_B64, 0x8180 }, { PT_S8, PT_B64, 0xffffffffffffff80ull },
        { PT_S32, PT_B64, 0xffffffff83828180ull }, { PT_S32, PT_B32, 0x83828180 },
        { PT_F32, PT_F32, 0x83828180 },
    };
    uint8_t *p = gptr(f, 0);
    p[0] = 0x80; p[1] = 0x81; p[2] = 0x82; p[3] = 0x83;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ptx_insn *in = mk(f, OP_LD, cases[i].type);
        in->space = PS_GLOBAL;
        in->opd[0] = oR(9);
        in->opd[1] = oA(-1, (int64_t)f->gbuf);
        f->reg_type[9] = cases[i].rtype;
        setall(f, 9, 0x5555555555555555ull);
        run(f, ALL);
        if (rg(f, 9, 0) != cases[i].want) {
            print_error("ld case %zu: got %#llx want %#llx\n", i, (unsigned long long)rg(f, 9, 0),
                        (unsigned long long)cases[i].want);
            fail();
        }
    }
    f->reg_type[9] = PT_B64;
    /* st.u8 / st.b16 write only the low bytes of a wider register */
    struct ptx_insn *in = mk(f, OP_ST, PT_U8);
    in->space = PS_GLOBAL;
    in->opd[0] = oA(-1, (int64_t)f->gbuf + 8);
    in->opd[1] = oR(2);
    setall(f, 2, 0x1234);
    memset(gptr(f, 8), 0, 4);
    run(f, 1);
    assert_int_equal(gptr(f, 8)[0], 0x34);
    assert_int_equal(gptr(f, 8)[1], 0);
}

static void test_ld_st_vector(void **st)
{
    struct fx *f = *st;
    struct ptx_insn *in = mk(f, OP_ST, PT_F32);
    in->space = PS_GLOBAL;
    in->vec = 4;
    in->opd[0] = oA(1, 0);
    in->opd[1] = oV(4, 2, 3, 4, 5);
    for (int l = 0; l < 4; l++)
        f->regs[1 * EX_WARP + l] = f->gbuf + 16u * (unsigned)l;
    for (int r = 2; r <= 5; r++)
        for (int l = 0; l < 4; l++)
            f->regs[r * EX_WARP + l] = (uint64_t)(100 * r + l);
    run(f, 0xf);
    assert_int_equal(f->res.kind, EX_NORMAL);
    assert_int_equal(f->res.access_bytes, 16);
    uint32_t v;
    memcpy(&v, gptr(f, 16 * 2 + 8), 4);
    assert_int_equal(v, 402);
    /* ld.v4 with a '_' sink */
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_GLOBAL;
    in->vec = 4;
    in->opd[0] = oV(4, 10, -1, 12, 13);
    in->opd[1] = oA(1, 0);
    setall(f, 11, 77);
    run(f, 0xf);
    assert_int_equal(rg(f, 10, 3), 203);
    assert_int_equal(rg(f, 11, 3), 77);
    assert_int_equal(rg(f, 12, 3), 403);
    assert_int_equal(rg(f, 13, 1), 501);
    /* ld.v2.f64 */
    in = mk(f, OP_ST, PT_F64);
    in->space = PS_GLOBAL;
    in->vec = 2;
    in->opd[0] = oA(-1, (int64_t)f->gbuf + 128);
    in->opd[1] = oV(2, 2, 3, -1, -1);
    setall(f, 2, db(1.5));
    setall(f, 3, db(-2.0));
    run(f, 1);
    in = mk(f, OP_LD, PT_F64);
    in->space = PS_GLOBAL;
    in->vec = 2;
    in->opd[0] = oV(2, 14, 15, -1, -1);
    in->opd[1] = oA(-1, (int64_t)f->gbuf + 128);
    run(f, ALL);
    assert_true(rg(f, 14, 31) == db(1.5) && rg(f, 15, 31) == db(-2.0));
    /* a misaligned vector access: 16-byte access at an 8-byte boundary */
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_GLOBAL;
    in->vec = 4;
    in->opd[0] = oV(4, 10, 11, 12, 13);
    in->opd[1] = oA(-1, (int64_t)f->gbuf + 8);
    run(f, 1u << 5);
    char msg[128];
    snprintf(msg, sizeof msg, "misaligned global load of 16 bytes at 0x%016llx",
             (unsigned long long)f->gbuf + 8);
    expect_err(f, 5, msg);
}

static void test_generic_windows(void **st)
{
    struct fx *f = *st;
    /* st.u32 [generic] with lanes 0-1 to shared, 2-3 to local, 4 to global */
    struct ptx_insn *in = mk(f, OP_ST, PT_U32);
    in->space = PS_GENERIC;
    in->opd[0] = oA(1, 0);
    in->opd[1] = oR(2);
    f->regs[1 * EX_WARP + 0] = PTX_GEN_SHARED + 0;
    f->regs[1 * EX_WARP + 1] = PTX_GEN_SHARED + 4;
    f->regs[1 * EX_WARP + 2] = PTX_GEN_LOCAL + 8;
    f->regs[1 * EX_WARP + 3] = PTX_GEN_LOCAL + 8;
    f->regs[1 * EX_WARP + 4] = f->gbuf + 32;
    for (int l = 0; l < 5; l++)
        f->regs[2 * EX_WARP + l] = 0x1000u + (unsigned)l;
    run(f, 0x3);
    assert_int_equal(f->res.space, PS_SHARED);
    assert_true(f->res.addr[1] == 4);
    run(f, 0x1f);
    assert_int_equal(f->res.kind, EX_NORMAL);
    assert_int_equal(f->res.space, PS_GENERIC);      /* mixed: generic addresses reported */
    assert_true(f->res.addr[2] == PTX_GEN_LOCAL + 8);
    uint32_t v;
    memcpy(&v, f->smem + 4, 4);
    assert_int_equal(v, 0x1001);
    memcpy(&v, f->lmem + 2 * 64 + 8, 4);             /* each lane has its own local memory */
    assert_int_equal(v, 0x1002);
    memcpy(&v, f->lmem + 3 * 64 + 8, 4);
    assert_int_equal(v, 0x1003);
    memcpy(&v, gptr(f, 32), 4);
    assert_int_equal(v, 0x1004);
    /* ld.local and ld.shared directly */
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_LOCAL;
    in->opd[0] = oR(3);
    in->opd[1] = oA(-1, 8);
    run(f, 0xc);
    assert_int_equal(rg(f, 3, 2), 0x1002);
    assert_int_equal(rg(f, 3, 3), 0x1003);
    assert_int_equal(f->res.space, PS_LOCAL);
    assert_true(f->res.addr[3] == 8);
    in->space = PS_SHARED;
    in->opd[1] = oA(-1, 4);
    run(f, 1);
    assert_int_equal(rg(f, 3, 0), 0x1001);
    /* a 32-bit base register: [%r - 72 + 76] wraps at 32 bits */
    f->reg_type[8] = PT_U32;
    setall(f, 8, 0xffffffb8u);
    in->opd[1] = oA(8, 76);
    run(f, 1);
    assert_int_equal(f->res.kind, EX_NORMAL);
    assert_int_equal(rg(f, 3, 0), 0x1001);
    assert_true(f->res.addr[0] == 4);
    f->reg_type[8] = PT_B64;                        /* the same bits in a 64-bit register */
    run(f, 1);
    assert_int_equal(f->res.kind, EX_ERROR);
    /* generic into global: a const buffer read through ld.const */
    uint8_t *cp = gm_ptr(&f->gm, f->cbuf, 4);
    cp[0] = 0x2a; cp[1] = cp[2] = cp[3] = 0;
    in->space = PS_CONST;
    in->opd[1] = oA(-1, (int64_t)f->cbuf);
    run(f, 1);
    assert_int_equal(rg(f, 3, 0), 0x2a);
    assert_int_equal(f->res.space, PS_CONST);
}

static void test_param(void **st)
{
    struct fx *f = *st;
    uint64_t pv = 0x1122334455667788ull;
    memcpy(f->params + 8, &pv, 8);
    struct ptx_insn *in = mk(f, OP_LD, PT_U64);
    in->space = PS_PARAM;
    in->opd[0] = oR(0);
    in->opd[1] = oA(-1, 8);
    run(f, ALL);
    assert_true(rg(f, 0, 31) == pv);
    assert_int_equal(f->res.space, PS_PARAM);
    /* per-lane call scratch: st.param then ld.param */
    in = mk(f, OP_ST, PT_U32);
    in->space = PS_PARAM;
    in->opd[0] = oA(-1, PTX_PSCRATCH_BASE + 4);
    in->opd[1] = oR(1);
    for (int l = 0; l < 32; l++)
        f->regs[1 * EX_WARP + l] = (uint64_t)l * 3;
    run(f, ALL);
    assert_int_equal(f->res.kind, EX_NORMAL);
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_PARAM;
    in->opd[0] = oR(2);
    in->opd[1] = oA(-1, PTX_PSCRATCH_BASE + 4);
    run(f, ALL);
    assert_int_equal(rg(f, 2, 7), 21);
    assert_int_equal(rg(f, 2, 31), 93);
}

/* every out-of-bounds path and its exact message */
static void test_oob_messages(void **st)
{
    struct fx *f = *st;
    char msg[160];
    struct ptx_insn *in;
    /* global load just past the 256-byte allocation, lane 5 the first faulting lane */
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_GLOBAL;
    in->opd[0] = oR(0);
    in->opd[1] = oA(1, 0);
    for (int l = 0; l < 32; l++)
        f->regs[1 * EX_WARP + l] = f->gbuf + (l >= 5 ? 256u : 0u) + 4u * (unsigned)l - (l >= 5 ? 20u : 0u);
    run(f, ALL);
    snprintf(msg, sizeof msg, "out-of-bounds global load of 4 bytes at 0x%016llx",
             (unsigned long long)(f->gbuf + 256));
    expect_err(f, 5, msg);
    assert_true(strstr(f->res.err, "0x000000020000") != NULL);
    /* partially outside: 8 bytes at the last 4 */
    in->type = PT_U64;
    setall(f, 1, f->gbuf + 252);
    run(f, 1u << 9);
    snprintf(msg, sizeof msg, "out-of-bounds global load of 8 bytes at 0x%016llx",
             (unsigned long long)(f->gbuf + 252));
    expect_err(f, 9, msg);
    /* global store, atomic, const */
    in = mk(f, OP_ST, PT_U32);
    in->space = PS_GLOBAL;
    in->opd[0] = oA(-1, 0x10);
    in->opd[1] = oI(1);
    run(f, 1u << 2);
    expect_err(f, 2, "out-of-bounds global store of 4 bytes at 0x0000000000000010");
    in = mk(f, OP_ATOM, PT_U32);
    in->space = PS_GLOBAL;
    in->sub = AOP_ADD;
    in->opd[0] = oR(0); in->opd[1] = oA(-1, (int64_t)f->gbuf + 256); in->opd[2] = oI(1);
    run(f, ALL);
    snprintf(msg, sizeof msg, "out-of-bounds global atomic of 4 bytes at 0x%016llx",
             (unsigned long long)(f->gbuf + 256));
    expect_err(f, 0, msg);
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_CONST;
    in->opd[0] = oR(0); in->opd[1] = oA(-1, (int64_t)f->cbuf + 64);
    run(f, ALL);
    snprintf(msg, sizeof msg, "out-of-bounds const load of 4 bytes at 0x%016llx",
             (unsigned long long)(f->cbuf + 64));
    expect_err(f, 0, msg);
    /* shared store past smem_size, shared atomic */
    in = mk(f, OP_ST, PT_U32);
    in->space = PS_SHARED;
    in->opd[0] = oA(-1, 256);
    in->opd[1] = oI(1);
    run(f, 1u << 31);
    expect_err(f, 31, "out-of-bounds shared store of 4 bytes at 0x0000000000000100");
    in = mk(f, OP_ATOM, PT_U32);
    in->space = PS_SHARED;
    in->sub = AOP_ADD;
    in->opd[0] = oR(0); in->opd[1] = oA(-1, 254); in->opd[2] = oI(1);
    run(f, 1);
    expect_err(f, 0, "out-of-bounds shared atomic of 4 bytes at 0x00000000000000fe");
    /* local load past lmem_size; through a generic address it reports the local offset */
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_LOCAL;
    in->opd[0] = oR(0); in->opd[1] = oA(-1, 64);
    run(f, 1u << 4);
    expect_err(f, 4, "out-of-bounds local load of 4 bytes at 0x0000000000000040");
    in->space = PS_GENERIC;
    in->opd[1] = oA(-1, (int64_t)(PTX_GEN_LOCAL + 100));
    run(f, 1u << 4);
    expect_err(f, 4, "out-of-bounds local load of 4 bytes at 0x0000000000000064");
    in->opd[1] = oA(-1, (int64_t)(PTX_GEN_SHARED + 0x1000));
    run(f, 1);
    expect_err(f, 0, "out-of-bounds shared load of 4 bytes at 0x0000000000001000");
    /* param: past the kernel params, past the scratch, store to kernel params */
    in->space = PS_PARAM;
    in->opd[1] = oA(-1, 16);
    run(f, 1);
    expect_err(f, 0, "out-of-bounds param load of 4 bytes at 0x0000000000000010");
    in->opd[1] = oA(-1, PTX_PSCRATCH_BASE + 30);
    run(f, 1);
    expect_err(f, 0, "out-of-bounds param load of 4 bytes at 0x000000000010001e");
    in = mk(f, OP_ST, PT_U32);
    in->space = PS_PARAM;
    in->opd[0] = oA(-1, 0);
    in->opd[1] = oI(1);
    run(f, 1);
    expect_err(f, 0, "out-of-bounds param store of 4 bytes at 0x0000000000000000");
    /* misaligned */
    in = mk(f, OP_LD, PT_U32);
    in->space = PS_SHARED;
    in->opd[0] = oR(0); in->opd[1] = oA(-1, 2);
    run(f, 1);
    expect_err(f, 0, "misaligned shared load of 4 bytes at 0x0000000000000002");
    /* a kernel whose module has no file name, thread (0,0,0) of CTA 0 */
    f->mod.filename[0] = 0;
    f->ctx.tid0 = 0;
    run(f, 1);
    assert_string_equal(f->res.err, "kernel k: PC 0 (?:7) CTA (1,2,3) thread (0,0,0): "
                                    "misaligned shared load of 4 bytes at 0x0000000000000002");
}

/* ---------------------------------------------------------------- atomics */

static uint32_t g32(struct fx *f, uint64_t off)
{
    uint32_t v;
    memcpy(&v, gptr(f, off), 4);
    return v;
}
static void s32(struct fx *f, uint64_t off, uint32_t v) { memcpy(gptr(f, off), &v, 4); }

static struct ptx_insn *atom(struct fx *f, uint8_t aop, uint8_t type, uint64_t off)
{
    struct ptx_insn *in = mk(f, OP_ATOM, type);
    in->space = PS_GLOBAL;
    in->sub = aop;
    in->opd[0] = oR(0);
    in->opd[1] = oA(-1, (int64_t)(f->gbuf + off));
    in->opd[2] = oR(2);
    in->opd[3] = oR(3);
    return in;
}

static void test_atomics(void **st)
{
    struct fx *f = *st;
    /* add: lanes in ascending order, d = old */
    s32(f, 0, 10);
    atom(f, AOP_ADD, PT_U32, 0);
    setall(f, 2, 1);
    run(f, ALL);
    assert_int_equal(f->res.is_atomic, 1);
    assert_int_equal(g32(f, 0), 42);
    assert_int_equal(rg(f, 0, 0), 10);
    assert_int_equal(rg(f, 0, 31), 41);
    assert_true(f->res.addr[7] == f->gbuf);
    /* inc wraps at b: 0,1,2,0,1,2,... */
    s32(f, 0, 0);
    atom(f, AOP_INC, PT_U32, 0);
    setall(f, 2, 2);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 3), 0);
    assert_int_equal(rg(f, 0, 5), 2);
    assert_int_equal(g32(f, 0), 32 % 3);
    /* dec: 0 -> b, else old - 1 (and old > b -> b) */
    s32(f, 0, 0);
    atom(f, AOP_DEC, PT_U32, 0);
    run(f, 0x7);
    assert_int_equal(rg(f, 0, 0), 0);
    assert_int_equal(rg(f, 0, 1), 2);
    assert_int_equal(rg(f, 0, 2), 1);
    assert_int_equal(g32(f, 0), 0);
    s32(f, 0, 9);
    run(f, 1);
    assert_int_equal(g32(f, 0), 2);
    /* cas: only the first lane swaps */
    s32(f, 0, 5);
    atom(f, AOP_CAS, PT_B32, 0);
    setall(f, 2, 5);
    for (int l = 0; l < 32; l++)
        f->regs[3 * EX_WARP + l] = 100u + (unsigned)l;
    run(f, 0xf0);
    assert_int_equal(g32(f, 0), 104);
    assert_int_equal(rg(f, 0, 4), 5);
    assert_int_equal(rg(f, 0, 5), 104);
    /* min.s32 / max.u32 / exch / and / or / xor */
    s32(f, 0, 0);
    atom(f, AOP_MIN, PT_S32, 0);
    setall(f, 2, N32);
    run(f, 1);
    assert_int_equal(g32(f, 0), N32);
    atom(f, AOP_MAX, PT_U32, 0);
    setall(f, 2, 7);
    run(f, 1);
    assert_int_equal(g32(f, 0), N32);
    atom(f, AOP_MAX, PT_S32, 0);
    run(f, 1);
    assert_int_equal(g32(f, 0), 7);
    atom(f, AOP_EXCH, PT_B32, 0);
    setall(f, 2, 0xf0);
    run(f, 1);
    assert_int_equal(g32(f, 0), 0xf0);
    assert_int_equal(rg(f, 0, 0), 7);
    atom(f, AOP_AND, PT_B32, 0);
    setall(f, 2, 0x3c);
    run(f, 1);
    assert_int_equal(g32(f, 0), 0x30);
    atom(f, AOP_OR, PT_B32, 0);
    setall(f, 2, 0x01);
    run(f, 1);
    assert_int_equal(g32(f, 0), 0x31);
    atom(f, AOP_XOR, PT_B32, 0);
    run(f, 1);
    assert_int_equal(g32(f, 0), 0x30);
    /* f32 add (flushes subnormals), f64 add, u64 red */
    s32(f, 8, fb(0.5f));
    atom(f, AOP_ADD, PT_F32, 8);
    setall(f, 2, fb(1.0f));
    run(f, ALL);
    assert_int_equal(g32(f, 8), fb(32.5f));
    s32(f, 8, 0x00000001);
    setall(f, 2, 0);
    run(f, 1);
    assert_int_equal(g32(f, 8), 0);
    uint64_t d = db(0.25), v64;
    memcpy(gptr(f, 16), &d, 8);
    atom(f, AOP_ADD, PT_F64, 16);
    setall(f, 2, db(0.5));
    run(f, 0xf);
    memcpy(&v64, gptr(f, 16), 8);
    assert_true(v64 == db(2.25));
    assert_true(rg(f, 0, 1) == db(0.75));
    struct ptx_insn *in = mk(f, OP_RED, PT_U64);
    in->space = PS_GLOBAL;
    in->sub = AOP_ADD;
    in->opd[0] = oA(-1, (int64_t)f->gbuf + 24);
    in->opd[1] = oI(-1);
    memset(gptr(f, 24), 0, 8);
    setall(f, 0, 99);
    run(f, 0x3);
    memcpy(&v64, gptr(f, 24), 8);
    assert_true(v64 == 0xfffffffffffffffeull);
    assert_int_equal(rg(f, 0, 0), 99);
    assert_int_equal(f->res.is_store, 1);
    /* shared atomics through a generic address */
    memset(f->smem, 0, 8);
    in = atom(f, AOP_ADD, PT_U32, 0);
    in->space = PS_GENERIC;
    in->opd[1] = oA(-1, (int64_t)PTX_GEN_SHARED + 4);
    setall(f, 2, 3);
    run(f, ALL);
    uint32_t sv;
    memcpy(&sv, f->smem + 4, 4);
    assert_int_equal(sv, 96);
    assert_int_equal(f->res.space, PS_SHARED);
    /* unsupported combinations are errors, not crashes */
    in = atom(f, AOP_INC, PT_U16, 0);
    run(f, 1);
    assert_int_equal(f->res.kind, EX_ERROR);
    assert_non_null(strstr(f->res.err, "unsupported atomic"));
}

/* ---------------------------------------------------------------- warp level */

static struct ptx_insn *shfl(struct fx *f, uint8_t mode, int64_t b, int64_t c)
{
    struct ptx_insn *in = mk(f, OP_SHFL, PT_B32);
    in->sub = mode;
    in->opd[0] = oR(0);
    in->opd[1] = oR(5);
    in->opd[2] = oR(1);
    in->opd[3] = oI(b);
    in->opd[4] = oI(c);
    in->opd[5] = oI(-1);
    for (int l = 0; l < 32; l++)
        f->regs[1 * EX_WARP + l] = 10u * (unsigned)l;
    return in;
}

static void test_shfl(void **st)
{
    struct fx *f = *st;
    shfl(f, SHFL_IDX, 3, 0x1f);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 30);
    assert_int_equal(rg(f, 0, 31), 30);
    assert_int_equal(rg(f, 5, 31), 1);
    shfl(f, SHFL_DOWN, 1, 0x1f);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 4), 50);
    assert_int_equal(rg(f, 0, 31), 310);               /* out of range: own value, p = 0 */
    assert_int_equal(rg(f, 5, 31), 0);
    assert_int_equal(rg(f, 5, 30), 1);
    shfl(f, SHFL_UP, 2, 0);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 1), 10);
    assert_int_equal(rg(f, 5, 1), 0);
    assert_int_equal(rg(f, 0, 2), 0);
    assert_int_equal(rg(f, 0, 31), 290);
    shfl(f, SHFL_BFLY, 1, 0x1f);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 6), 70);
    assert_int_equal(rg(f, 0, 7), 60);
    /* width 8 segments: c = ((32 - 8) << 8) | 0x1f, up: (32 - 8) << 8 */
    shfl(f, SHFL_IDX, 2, 0x181f);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 13), 100);
    assert_int_equal(rg(f, 0, 31), 260);
    shfl(f, SHFL_DOWN, 2, 0x181f);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 13), 150);
    assert_int_equal(rg(f, 0, 14), 140);
    assert_int_equal(rg(f, 5, 14), 0);
    shfl(f, SHFL_UP, 3, 0x1800);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 10), 100);
    assert_int_equal(rg(f, 0, 11), 80);
    shfl(f, SHFL_BFLY, 4, 0x181f);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 9), 130);
    /* clamp c below the segment: idx lanes beyond c get their own value */
    shfl(f, SHFL_IDX, 5, 0x3);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 0), 0);
    assert_int_equal(rg(f, 5, 0), 0);
    /* a source lane that is inactive: its register value is read anyway */
    shfl(f, SHFL_DOWN, 1, 0x1f);
    run(f, 0x1);
    assert_int_equal(rg(f, 0, 0), 10);
    /* per-lane b in a register; destination = source is safe */
    struct ptx_insn *in = shfl(f, SHFL_IDX, 0, 0x1f);
    in->opd[0] = oR(1);
    in->opd[3] = oR(2);
    for (int l = 0; l < 32; l++)
        f->regs[2 * EX_WARP + l] = (uint64_t)(31 - l);
    run(f, ALL);
    assert_int_equal(rg(f, 1, 0), 310);
    assert_int_equal(rg(f, 1, 31), 0);
    /* bad mode */
    shfl(f, 9, 0, 0x1f);
    run(f, ALL);
    assert_int_equal(f->res.kind, EX_ERROR);
}

static void test_vote_activemask(void **st)
{
    struct fx *f = *st;
    struct ptx_insn *in = mk(f, OP_VOTE, PT_B32);
    in->sub = VOTE_BALLOT;
    in->opd[0] = oR(0); in->opd[1] = oR(4); in->opd[2] = oI(-1);
    for (int l = 0; l < 32; l++)
        f->regs[4 * EX_WARP + l] = (uint64_t)(l % 2 == 0);
    run(f, ALL);
    assert_int_equal(rg(f, 0, 3), 0x55555555u);
    run(f, 0x0000ffffu);
    assert_int_equal(rg(f, 0, 3), 0x00005555u);
    in->opd[1] = oNot(oR(4));
    run(f, ALL);
    assert_int_equal(rg(f, 0, 3), 0xaaaaaaaau);
    in->opd[2] = oI(0xff);                         /* membermask limits the lanes taking part */
    run(f, ALL);
    assert_int_equal(rg(f, 0, 3), 0xaau);
    static const struct { uint8_t mode; uint32_t active; int neg; uint64_t want; } cases[] = {
        { VOTE_ALL, ALL, 0, 0 }, { VOTE_ALL, 0x5, 0, 1 }, { VOTE_ANY, 0xa, 0, 0 },
        { VOTE_ANY, 0xb, 0, 1 }, { VOTE_UNI, 0xa, 0, 1 }, { VOTE_UNI, 0x3, 0, 0 },
        { VOTE_ALL, 0xa, 1, 1 }, { VOTE_UNI, 0x1, 0, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        in = mk(f, OP_VOTE, PT_PRED);
        in->sub = cases[i].mode;
        in->opd[0] = oR(0);
        in->opd[1] = cases[i].neg ? oNot(oR(4)) : oR(4);
        in->opd[2] = oI(-1);
        setall(f, 0, 9);
        run(f, cases[i].active);
        assert_int_equal(rg(f, 0, __builtin_ctz(cases[i].active)), cases[i].want);
    }
    /* old-style vote without a membermask */
    in->opd[2] = (struct ptx_operand){ .kind = OPD_NONE, .reg = -1 };
    in->sub = VOTE_ANY;
    run(f, 0x2);
    assert_int_equal(rg(f, 0, 1), 0);
    in = mk(f, OP_ACTIVEMASK, PT_B32);
    in->opd[0] = oR(0);
    in->guard = 4;                                  /* even lanes only */
    run(f, 0xf0f0u);
    assert_int_equal(rg(f, 0, 4), 0x5050u);
    assert_int_equal(f->res.exec_mask, 0x5050u);
}

/* ---------------------------------------------------------------- control */

static void test_control(void **st)
{
    struct fx *f = *st;
    struct ptx_insn *in = mk(f, OP_BRA, PT_NONE);
    in->opd[0] = oL(1);
    run(f, 0xff);
    assert_int_equal(f->res.kind, EX_BRANCH);
    assert_int_equal(f->res.taken, 0xff);
    assert_int_equal(f->res.target, 1);
    in->guard = 4;
    for (int l = 0; l < 32; l++)
        f->regs[4 * EX_WARP + l] = (uint64_t)(l < 3);
    run(f, 0xff);
    assert_int_equal(f->res.taken, 0x7);
    in->opd[0] = oL(5);                             /* outside the 2-instruction program */
    run(f, 0xff);
    assert_int_equal(f->res.kind, EX_ERROR);
    in->opd[0] = oR(1);
    run(f, 0xff);
    assert_int_equal(f->res.kind, EX_ERROR);

    in = mk(f, OP_EXIT, PT_NONE);
    in->guard = 4;
    run(f, 0xf);
    assert_int_equal(f->res.kind, EX_EXIT);
    assert_int_equal(f->res.exited, 0x7);

    in = mk(f, OP_BAR, PT_NONE);
    in->opd[0] = oI(1);
    in->opd[1] = oI(64);
    run(f, ALL);
    assert_int_equal(f->res.kind, EX_BARRIER);
    assert_int_equal(f->res.bar_id, 1);
    assert_int_equal(f->res.bar_count, 64);
    in->opd[0] = oR(1);
    in->opd[1] = (struct ptx_operand){ .kind = OPD_NONE, .reg = -1 };
    for (int l = 0; l < 32; l++)
        f->regs[1 * EX_WARP + l] = 2u + (unsigned)l;
    run(f, 0xf0);
    assert_int_equal(f->res.bar_id, 6);             /* from the first active lane (4) */
    assert_int_equal(f->res.bar_count, 0);
    setall(f, 1, 16);
    run(f, ALL);
    expect_err(f, 0, "barrier id 16 out of range 0..15");

    in = mk(f, OP_MEMBAR, PT_NONE);
    run(f, ALL);
    assert_int_equal(f->res.kind, EX_NORMAL);
    in = mk(f, OP_NOP, PT_NONE);
    run(f, ALL);
    assert_int_equal(f->res.kind, EX_NORMAL);
    in = mk(f, OP_CALL, PT_NONE);
    run(f, ALL);
    expect_err(f, 0, "unsupported instruction 'call'");
    in = mk(f, OP_RET, PT_NONE);
    run(f, ALL);
    expect_err(f, 0, "unsupported instruction 'ret'");
    in = mk(f, OP_SQRT, PT_U32);
    in->opd[0] = oR(0); in->opd[1] = oR(1);
    run(f, ALL);
    expect_err(f, 0, "sqrt needs a floating-point type");
    /* pc outside the program */
    ex_exec(&f->ctx, 9, ALL, &f->res);
    assert_int_equal(f->res.kind, EX_ERROR);
    assert_non_null(strstr(f->res.err, "PC outside the program"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_int_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int_immediates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_imm_and_approx, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_random_vs_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_setp_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_setp_boolop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_selp_slct, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cvt_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mov_cvta_sreg, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guard_and_partial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ld_st_global, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ld_subword, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ld_st_vector, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generic_windows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_param, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oob_messages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomics, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shfl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vote_activemask, setup, teardown),
        cmocka_unit_test_setup_teardown(test_control, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
