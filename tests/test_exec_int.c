/*
 * test_exec_int.c -- cmocka tests for model/func/exec_int.c, the functional executor's integer
 * instructions (the SP's integer datapath).
 *
 * A table of {instruction, operands, expected bits} run on all 32 lanes at once:
 * add/sub/mul/mad with .lo/.hi/.wide/.sat, mul24/mad24, sad, div/rem (with the values
 * chosen for divide by zero and MIN / -1), min/max/abs/neg, and/or/xor/not/cnot (bits and
 * predicates), shifts by the width and beyond, popc/clz/brev/bfind/bfe/bfi and every prmt
 * mode; then immediates as operands (sign-extended, taken at the instruction's width, a wide
 * register read at 16 bits); the carry forms (add.cc, addc, sub.cc, subc, mad.cc, madc at 32
 * and 64 bits): results, the flag written for the executing lanes only, a chain with a flag
 * per lane, a missing flag register.  The fixture and builders are tests/exec_harness.h.
 */
#include "exec_harness.h"

/* ---------------------------------------------------------------- integer ALU table */

struct icase {
    const char *name;
    uint8_t op, type;
    uint16_t mod;
    uint8_t sub;
    uint64_t a, b, c, d, want;
};

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

/* ---------------------------------------------------------------- the carry flag */

struct ccase {
    const char *name;
    uint8_t op, type;
    uint16_t mod;
    uint64_t a, b, c, cin, want, cf;     /* cf: the flag after (unchanged without .cc) */
};

#define CC MOD_CC
#define CI MOD_CIN
static const struct ccase ccases[] = {
    { "add.cc.u32 carry", OP_ADD, PT_U32, CC, N32, 2, 0, 0, 1, 1 },
    { "add.cc.u32 none", OP_ADD, PT_U32, CC, 5, 6, 0, 1, 11, 0 },
    { "addc.u32", OP_ADD, PT_U32, CI, 5, 6, 0, 1, 12, 1 },
    { "addc.cc.u32 through", OP_ADD, PT_U32, CI | CC, N32, 0, 0, 1, 0, 1 },
    { "addc.cc.s32 no carry", OP_ADD, PT_S32, CI | CC, 0x7fffffff, 0, 0, 1, MIN32, 0 },
    { "sub.cc.u32 borrow", OP_SUB, PT_U32, CC, 0, 1, 0, 0, N32, 1 },
    { "sub.cc.u32 equal", OP_SUB, PT_U32, CC, 7, 7, 0, 1, 0, 0 },
    { "subc.u32", OP_SUB, PT_U32, CI, 5, 2, 0, 1, 2, 1 },
    { "subc.cc.u32 through", OP_SUB, PT_U32, CI | CC, 0, N32, 0, 1, 0, 1 },
    { "subc.cc.u32 exact", OP_SUB, PT_U32, CI | CC, 3, 2, 0, 1, 0, 0 },
    { "add.cc.u64", OP_ADD, PT_U64, CC, ~0ull, 1, 0, 0, 0, 1 },
    { "addc.u64", OP_ADD, PT_U64, CI, 1ull << 63, 1ull << 63, 0, 1, 1, 1 },
    { "subc.cc.s64", OP_SUB, PT_S64, CI | CC, 0, 0, 0, 1, ~0ull, 1 },
    { "mad.lo.cc.u32", OP_MAD, PT_U32, MOD_LO | CC, N32, N32, N32, 0, 0, 1 },
    { "madc.hi.u32", OP_MAD, PT_U32, MOD_HI | CI, N32, N32, 5, 1, 4, 1 },
    { "madc.hi.cc.s32", OP_MAD, PT_S32, MOD_HI | CI | CC, N32, N32, N32, 1, 0, 1 },
    { "madc.lo.cc.u32 none", OP_MAD, PT_U32, MOD_LO | CI | CC, 3, 4, 5, 0, 17, 0 },
    { "madc.hi.cc.u64", OP_MAD, PT_U64, MOD_HI | CI | CC, ~0ull, ~0ull, 1, 1, 0, 1 },
};

/* Each form: the result, and the flag (register 5) written for the executing lanes only. */
static void test_int_carry(void **st)
{
    struct fx *f = *st;
    for (size_t i = 0; i < sizeof ccases / sizeof ccases[0]; i++) {
        const struct ccase *k = &ccases[i];
        struct ptx_insn *in = mk(f, k->op, k->type);
        in->mod = k->mod;
        for (int o = 0; o < 4; o++)
            in->opd[o] = oR(o);
        in->opd[ptx_insn_carry(in)] = oR(5);
        in->nopd = (uint8_t)(ptx_insn_carry(in) + 1);
        setall(f, 0, 0xdeadbeef);
        setall(f, 1, k->a);
        setall(f, 2, k->b);
        setall(f, 3, k->c);
        setall(f, 5, k->cin);
        run(f, 0x0000ffffu);
        uint64_t other = k->cin;
        if (f->res.kind != EX_NORMAL || rg(f, 0, 0) != k->want || rg(f, 0, 15) != k->want
            || rg(f, 0, 16) != 0xdeadbeef || rg(f, 5, 15) != k->cf || rg(f, 5, 16) != other) {
            print_error("%s: got %#llx flag %llu (lane 16: %#llx flag %llu, kind %d), want "
                        "%#llx flag %llu\n", k->name, (unsigned long long)rg(f, 0, 0),
                        (unsigned long long)rg(f, 5, 15), (unsigned long long)rg(f, 0, 16),
                        (unsigned long long)rg(f, 5, 16), f->res.kind,
                        (unsigned long long)k->want, (unsigned long long)k->cf);
            fail();
        }
    }
}

/* A chain with a flag per lane: a 64-bit sum from 32-bit halves, lane L adding L to ~0 - 3;
   the flag register read by addc is the one add.cc wrote, lane by lane. */
static void test_int_carry_chain(void **st)
{
    struct fx *f = *st;
    for (int l = 0; l < EX_WARP; l++) {
        f->regs[1 * EX_WARP + l] = 0xfffffffcu;  /* low half of a */
        f->regs[2 * EX_WARP + l] = (uint64_t)l;  /* low half of b */
        f->regs[3 * EX_WARP + l] = 0x10;         /* high halves: a 0x10, b 0 */
    }
    struct ptx_insn *in = mk(f, OP_ADD, PT_U32);
    in->mod = MOD_CC;
    in->opd[0] = oR(0); in->opd[1] = oR(1); in->opd[2] = oR(2); in->opd[3] = oR(5);
    in->nopd = 4;
    run(f, ALL);
    in = mk(f, OP_ADD, PT_U32);
    in->mod = MOD_CIN;
    in->opd[0] = oR(4); in->opd[1] = oR(3); in->opd[2] = oI(0); in->opd[3] = oR(5);
    in->nopd = 4;
    run(f, ALL);
    for (int l = 0; l < EX_WARP; l++) {
        uint64_t want = 0x10fffffffcull + (uint64_t)l;
        uint64_t got = rg(f, 4, l) << 32 | rg(f, 0, l);
        if (got != want) {
            print_error("lane %d: %#llx, want %#llx\n", l, (unsigned long long)got,
                        (unsigned long long)want);
            fail();
        }
    }
    in = mk(f, OP_ADD, PT_U32);                 /* no flag register: an error, not a crash */
    in->mod = MOD_CIN;
    in->opd[0] = oR(4); in->opd[1] = oR(3); in->opd[2] = oI(0); in->opd[3] = oI(0);
    in->nopd = 4;
    run(f, ALL);
    assert_int_equal(f->res.kind, EX_ERROR);
    tu_assert_contains(f->res.err, "add without its carry flag register");
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_int_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int_immediates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int_carry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int_carry_chain, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
