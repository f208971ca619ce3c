/*
 * test_exec_flt.c -- cmocka tests for model/func/exec_flt.c, the functional executor's
 * floating-point, compare and select instructions (the SP's single-precision, DP and SFU
 * datapaths).
 *
 * A table of {instruction, operands, expected bits} run on all 32 lanes: f32/f64/f16
 * add/sub/mul/mad/fma/div/sqrt/rcp in every rounding mode (single rounding of fma), NaN,
 * infinities and signed zeros, min/max, .ftz/.sat, abs/neg/copysign and the SFU .approx
 * functions, each checking that the host rounding mode is restored; float immediates as bits
 * and sin.approx within its PTX bound; random f32 operands of every class against the host's
 * own arithmetic in the same rounding mode; a setp table (signed, unsigned, ordered and
 * unordered float comparisons, .ftz), setp with a bool op and a negated or absent operand,
 * and set / selp / slct.  The fixture and builders are tests/exec_harness.h.
 */
#include "exec_harness.h"

/* ---------------------------------------------------------------- float ALU table */

struct fcase {
    const char *name;
    uint8_t op, type, rnd;
    uint16_t mod;
    uint64_t a, b, c, want;
};

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_float_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_imm_and_approx, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_random_vs_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_setp_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_setp_boolop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_selp_slct, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
