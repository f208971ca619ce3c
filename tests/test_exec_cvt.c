/*
 * test_exec_cvt.c -- cmocka tests for model/func/exec_cvt.c, the functional executor's moves
 * and conversions (the SP's conversion path).
 *
 * A cvt table run on all 32 lanes: integer widening and narrowing, .sat, float to integer in
 * rni/rzi/rmi/rpi with the values chosen for out-of-range, infinite and NaN inputs, integer to
 * float in every rounding mode, f64/f32/f16 to each other (subnormals, overflow, ties, .ftz,
 * .sat), each checking that the host rounding mode is restored; then mov (vector pack and
 * unpack, every special register of warp 1 of an 8x4x2 block, a symbol address), and cvta to
 * and from generic for shared, local and global with the error of cvta.param.  The fixture
 * and builders are tests/exec_harness.h.
 */
#include "exec_harness.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cvt_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mov_cvta_sreg, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
