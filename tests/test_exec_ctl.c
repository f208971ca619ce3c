/*
 * test_exec_ctl.c -- cmocka tests for model/func/exec_ctl.c, the functional executor's
 * warp-level and control instructions, and for what exec.c decides itself.
 *
 * shfl in every mode (width-8 segments, the clamp, an inactive source lane, a per-lane lane
 * operand, destination = source, a bad mode), vote (ballot with a membermask, all / any /
 * uni, a negated predicate, the old form without membermask) and activemask; bra (guarded,
 * a target outside the program, a register target), exit, bar (immediate and register id,
 * id out of range), membar and nop.  Guard predicates and partial warps (@p / @!p, the
 * execution mask, no active lane, destination = source), unsupported instructions (call,
 * ret, sqrt on an integer type) and a PC outside the program are exec.c's (the dispatch and
 * ex_exec), in no family file: they are here, the closest fit, since the execution mask is
 * the control side of the executor.  The fixture and builders are tests/exec_harness.h.
 */
#include "exec_harness.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shfl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vote_activemask, setup, teardown),
        cmocka_unit_test_setup_teardown(test_control, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guard_and_partial, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
