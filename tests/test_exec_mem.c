/*
 * test_exec_mem.c -- cmocka tests for model/func/exec_mem.c, the functional executor's memory
 * instructions (the LD/ST unit seen functionally).
 *
 * ld and st of global memory with the addresses and fields ex_result reports, sub-word loads
 * extended into the destination register's width and sub-word stores, vector accesses (a '_'
 * sink, v2.f64, a misaligned v4), generic addresses landing in the shared, local and global
 * windows (a mixed warp reports generic addresses), a 32-bit base register wrapping, const
 * and param (kernel parameters and the per-lane call scratch), the exact text of every
 * out-of-bounds and misaligned error, and atom / red (add, inc, dec, cas, min, max, exch,
 * and, or, xor, f32 and f64 add, lanes in ascending order, shared through a generic address,
 * an unsupported combination).  The fixture and builders are tests/exec_harness.h.
 */
#include "exec_harness.h"

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
    memcpy(&v, f->lmem.chunk[0] + 2 * 64 + 8, 4);             /* each lane has its own local memory */
    assert_int_equal(v, 0x1002);
    memcpy(&v, f->lmem.chunk[0] + 3 * 64 + 8, 4);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ld_st_global, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ld_subword, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ld_st_vector, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generic_windows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_param, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oob_messages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomics, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
