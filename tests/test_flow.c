/*
 * test_flow.c -- cmocka tests for model/ptx/flow.c: basic blocks, successors, immediate
 * post-dominators and reconvergence PCs.
 *
 * Hand-built programs (nop / bra / exit with and without guards) with hand-derived blocks,
 * successors and IPDOMs (the reasoning is in the comments), then a randomised check: random
 * structured and unstructured programs whose IPDOMs are compared with post-dominator sets
 * computed the slow way (iterative bitset intersection).
 *
 * Notation in the comments: Bk = block k, X = the virtual exit node (id nblocks, PC ninsns).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ptx/flow.h"

#define U UINT32_MAX
#define LEN(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

enum { K_NOP, K_BRA, K_CBRA, K_EXIT, K_CEXIT, K_CALL };
struct spec { uint8_t k; int64_t t; };
#define NOP      {K_NOP, 0}
#define BRA(x)   {K_BRA, x}
#define CBRA(x)  {K_CBRA, x}
#define EXIT     {K_EXIT, 0}
#define CEXIT    {K_CEXIT, 0}

/* expected block: range, successor set, ipdom */
struct eb { uint32_t first, last, nsucc, s0, s1, ipdom; };
/* expected reconvergence PC of the conditional branch at pc */
struct er { uint32_t pc, rc; };

static void mkprog(struct ptx_prog *p, const struct spec *s, uint32_t n)
{
    memset(p, 0, sizeof *p);
    strcpy(p->name, "k");
    p->ninsns = n;
    p->insns = calloc(n ? n : 1, sizeof *p->insns);
    assert_non_null(p->insns);
    for (uint32_t i = 0; i < n; i++) {
        struct ptx_insn *in = &p->insns[i];
        static const uint8_t ops[] = { OP_NOP, OP_BRA, OP_BRA, OP_EXIT, OP_EXIT, OP_CALL };
        in->op = ops[s[i].k];
        in->guard = (s[i].k == K_CBRA || s[i].k == K_CEXIT) ? 3 : -1;
        if (in->op == OP_BRA) {
            in->nopd = 1;
            in->opd[0].kind = OPD_LABEL;
            in->opd[0].imm = s[i].t;
        }
    }
}

static int has_succ(const struct flow_block *b, uint32_t s)
{
    for (uint32_t i = 0; i < b->nsucc; i++)
        if (b->succ[i] == s)
            return 1;
    return 0;
}

/* Build the program, compare every block and every reconv[] entry with the expectation. */
static void check_cfg(const struct spec *s, uint32_t n, const struct eb *eb, uint32_t nb,
                      const struct er *er, uint32_t ner)
{
    struct ptx_prog p;
    struct flow c;
    char err[256] = "";
    mkprog(&p, s, n);
    assert_int_equal(flow_build(&p, &c, err, sizeof err), 0);
    assert_int_equal(c.ninsns, n);
    assert_int_equal(c.nblocks, nb);
    for (uint32_t b = 0; b < nb; b++) {
        const struct flow_block *cb = &c.blocks[b];
        assert_int_equal(cb->first, eb[b].first);
        assert_int_equal(cb->last, eb[b].last);
        assert_int_equal(cb->nsucc, eb[b].nsucc);
        assert_true(has_succ(cb, eb[b].s0));
        if (eb[b].nsucc == 2)
            assert_true(has_succ(cb, eb[b].s1));
        assert_int_equal(cb->ipdom, eb[b].ipdom);
        for (uint32_t pc = cb->first; pc <= cb->last; pc++)
            assert_int_equal(c.block_of[pc], b);
    }
    for (uint32_t pc = 0; pc < n; pc++) {
        uint32_t want = U;
        for (uint32_t i = 0; i < ner; i++)
            if (er[i].pc == pc)
                want = er[i].rc;
        assert_int_equal(c.reconv[pc], want);
    }
    flow_free(&c);
    free(p.insns);
}

#define CHECK(s, eb, er) check_cfg(s, LEN(s), eb, LEN(eb), er, LEN(er))
#define CHECK_NOREC(s, eb) check_cfg(s, LEN(s), eb, LEN(eb), NULL, 0)

/* ------------------------------------------------------------------ hand-built CFGs */

static void test_straight_line(void **st)
{
    (void)st;
    /* one block, its only successor and IPDOM is X (id 1) */
    static const struct spec s[] = { NOP, NOP, EXIT };
    static const struct eb eb[] = { {0, 2, 1, 1, 1, 1} };
    CHECK_NOREC(s, eb);
    /* no exit at the end: the last instruction falls off the end into X */
    static const struct spec s2[] = { NOP, NOP };
    static const struct eb eb2[] = { {0, 1, 1, 1, 1, 1} };
    CHECK_NOREC(s2, eb2);
    /* a single exit */
    static const struct spec s3[] = { EXIT };
    static const struct eb eb3[] = { {0, 0, 1, 1, 1, 1} };
    CHECK_NOREC(s3, eb3);
}

static void test_if_then(void **st)
{
    (void)st;
    /*  0: @p bra 3      B0 -> {B1, B2}
     *  1: nop           B1 -> {B2}
     *  2: nop
     *  3: nop           B2 -> {X=3}
     *  4: exit
     * Both successors of B0 reach X only through B2: ipdom(B0) = B2, reconv[0] = 3. */
    static const struct spec s[] = { CBRA(3), NOP, NOP, NOP, EXIT };
    static const struct eb eb[] = {
        {0, 0, 2, 1, 2, 2}, {1, 2, 1, 2, 2, 2}, {3, 4, 1, 3, 3, 3} };
    static const struct er er[] = { {0, 3} };
    CHECK(s, eb, er);
}

static void test_if_else(void **st)
{
    (void)st;
    /*  0: @p bra 4      B0 -> {B1, B2}
     *  1: nop           B1 (then) -> {B3}
     *  2: nop
     *  3: bra 6
     *  4: nop           B2 (else) -> {B3}
     *  5: nop
     *  6: nop           B3 (join) -> {X=4}
     *  7: exit
     * then and else both fall into B3: ipdom(B0) = B3, reconv[0] = 6. */
    static const struct spec s[] = { CBRA(4), NOP, NOP, BRA(6), NOP, NOP, NOP, EXIT };
    static const struct eb eb[] = {
        {0, 0, 2, 1, 2, 3}, {1, 3, 1, 3, 3, 3}, {4, 5, 1, 3, 3, 3}, {6, 7, 1, 4, 4, 4} };
    static const struct er er[] = { {0, 6} };
    CHECK(s, eb, er);
}

static void test_nested_ifs(void **st)
{
    (void)st;
    /*  0: @p bra 10     B0 -> {B1, B6}     outer if
     *  1: nop           B1 -> {B2, B3}
     *  2: @p bra 6                         inner if/else
     *  3: nop           B2 -> {B4}         inner then
     *  4: nop
     *  5: bra 7
     *  6: nop           B3 -> {B4}         inner else
     *  7: nop           B4 -> {B5, B6}     inner join, then a second inner if-then
     *  8: @p bra 10
     *  9: nop           B5 -> {B6}
     * 10: nop           B6 -> {X=7}        outer join
     * 11: exit
     * Inner if/else joins at B4: ipdom(B1) = B4, reconv[2] = 7.  The second inner if and the
     * outer if both rejoin at B6: reconv[8] = reconv[0] = 10. */
    static const struct spec s[] = { CBRA(10), NOP, CBRA(6), NOP, NOP, BRA(7), NOP, NOP,
                                      CBRA(10), NOP, NOP, EXIT };
    static const struct eb eb[] = {
        {0, 0, 2, 1, 6, 6}, {1, 2, 2, 2, 3, 4}, {3, 5, 1, 4, 4, 4}, {6, 6, 1, 4, 4, 4},
        {7, 8, 2, 5, 6, 6}, {9, 9, 1, 6, 6, 6}, {10, 11, 1, 7, 7, 7} };
    static const struct er er[] = { {0, 10}, {2, 7}, {8, 10} };
    CHECK(s, eb, er);
}

static void test_loop_break_continue(void **st)
{
    (void)st;
    /*  0: nop           B0 -> {B1}
     *  1: nop           B1 -> {B2, B4}     loop head
     *  2: @p bra 7                         continue
     *  3: nop           B2 -> {B3, B5}
     *  4: @p bra 9                         break
     *  5: nop           B3 -> {B4}
     *  6: nop
     *  7: nop           B4 -> {B5, B1}     latch
     *  8: @p bra 1                         back edge
     *  9: nop           B5 -> {X=6}        after the loop
     * 10: exit
     * Every way out of the loop passes B5 and no block inside the loop is on every path
     * (B1 -> B2 -> B5 skips B4; B4 -> B5 skips B2), so the continue, the break and the
     * back edge all reconverge after the loop: reconv[2] = reconv[4] = reconv[8] = 9.
     * ipdom(B3) = B4 (its only successor). */
    static const struct spec s[] = { NOP, NOP, CBRA(7), NOP, CBRA(9), NOP, NOP, NOP,
                                      CBRA(1), NOP, EXIT };
    static const struct eb eb[] = {
        {0, 0, 1, 1, 1, 1}, {1, 2, 2, 2, 4, 5}, {3, 4, 2, 3, 5, 5}, {5, 6, 1, 4, 4, 4},
        {7, 8, 2, 5, 1, 5}, {9, 10, 1, 6, 6, 6} };
    static const struct er er[] = { {2, 9}, {4, 9}, {8, 9} };
    CHECK(s, eb, er);
}

static void test_multi_exit_loop(void **st)
{
    (void)st;
    /*  0: nop           B0 -> {B1}
     *  1: nop           B1 -> {B2, B5}     head; exit A
     *  2: @p bra 8
     *  3: nop           B2 -> {B3, B6}     exit B
     *  4: @p bra 10
     *  5: nop           B3 -> {B4, B1}     latch
     *  6: @p bra 1
     *  7: nop           B4 -> {B5}         normal loop end, falls into A's code
     *  8: nop           B5 -> {B7}         exit A target
     *  9: bra 11
     * 10: nop           B6 -> {B7}         exit B target
     * 11: nop           B7 -> {X=8}        join
     * 12: exit
     * The two loop exits land in different places (B5, B6) that only meet at B7, so every
     * branch of the loop reconverges at B7: reconv[2] = reconv[4] = reconv[6] = 11.
     * ipdom(B4) = B5 (only successor), ipdom(B5) = ipdom(B6) = B7. */
    static const struct spec s[] = { NOP, NOP, CBRA(8), NOP, CBRA(10), NOP, CBRA(1), NOP,
                                      NOP, BRA(11), NOP, NOP, EXIT };
    static const struct eb eb[] = {
        {0, 0, 1, 1, 1, 1}, {1, 2, 2, 2, 5, 7}, {3, 4, 2, 3, 6, 7}, {5, 6, 2, 4, 1, 7},
        {7, 7, 1, 5, 5, 5}, {8, 9, 1, 7, 7, 7}, {10, 10, 1, 7, 7, 7}, {11, 12, 1, 8, 8, 8} };
    static const struct er er[] = { {2, 11}, {4, 11}, {6, 11} };
    CHECK(s, eb, er);
}

static void test_early_return(void **st)
{
    (void)st;
    /*  0: nop           B0 -> {B1, X=4}    guarded exit: fall-through AND exit
     *  1: @p exit
     *  2: @p bra 5      B1 -> {B2, B3}
     *  3: nop           B2 -> {B3, X}
     *  4: @p exit
     *  5: nop           B3 -> {X}
     *  6: exit
     * B2 may go straight to X, so B3 does not post-dominate B1: ipdom(B1) = X and the branch
     * reconverges at the exit, reconv[2] = 7 (= ninsns).  ipdom(B0) = X likewise. */
    static const struct spec s[] = { NOP, CEXIT, CBRA(5), NOP, CEXIT, NOP, EXIT };
    static const struct eb eb[] = {
        {0, 1, 2, 1, 4, 4}, {2, 2, 2, 2, 3, 4}, {3, 4, 2, 3, 4, 4}, {5, 6, 1, 4, 4, 4} };
    static const struct er er[] = { {2, 7} };
    CHECK(s, eb, er);

    /*  0: @p bra 3      B0 -> {B1, B2}
     *  1: nop           B1 -> {X=3}        unguarded return inside the then-part
     *  2: exit
     *  3: nop           B2 -> {X}
     *  4: exit
     * The two sides only meet at X: reconv[0] = 5. */
    static const struct spec s2[] = { CBRA(3), NOP, EXIT, NOP, EXIT };
    static const struct eb eb2[] = { {0, 0, 2, 1, 2, 3}, {1, 2, 1, 3, 3, 3}, {3, 4, 1, 3, 3, 3} };
    static const struct er er2[] = { {0, 5} };
    CHECK(s2, eb2, er2);

    /* a guarded exit as the last instruction: fall-through and exit are both X, one edge */
    static const struct spec s3[] = { NOP, CEXIT };
    static const struct eb eb3[] = { {0, 1, 1, 1, 1, 1} };
    CHECK_NOREC(s3, eb3);
}

static void test_do_while(void **st)
{
    (void)st;
    /*  0: nop           B0 -> {B1}
     *  1: nop           B1 -> {B2, B1}     body, self edge
     *  2: nop
     *  3: @p bra 1
     *  4: exit          B2 -> {X=3}
     * ipdom(B1) = B2: reconv[3] = 4. */
    static const struct spec s[] = { NOP, NOP, NOP, CBRA(1), EXIT };
    static const struct eb eb[] = { {0, 0, 1, 1, 1, 1}, {1, 3, 2, 2, 1, 2}, {4, 4, 1, 3, 3, 3} };
    static const struct er er[] = { {3, 4} };
    CHECK(s, eb, er);
}

static void test_loop_with_if_else(void **st)
{
    (void)st;
    /*  0: nop           B0 -> {B1}
     *  1: @p bra 9      B1 -> {B2, B6}     while test
     *  2: @p bra 5      B2 -> {B3, B4}     if/else in the body
     *  3: nop           B3 -> {B5}
     *  4: bra 6
     *  5: nop           B4 -> {B5}
     *  6: nop           B5 -> {B1}         join, then back edge
     *  7: nop
     *  8: bra 1
     *  9: exit          B6 -> {X=7}
     * if/else joins at B5: ipdom(B2) = B5, reconv[2] = 6.  ipdom(B5) = B1 (only successor).
     * The loop test leaves to B6: ipdom(B1) = B6, reconv[1] = 9. */
    static const struct spec s[] = { NOP, CBRA(9), CBRA(5), NOP, BRA(6), NOP, NOP, NOP,
                                      BRA(1), EXIT };
    static const struct eb eb[] = {
        {0, 0, 1, 1, 1, 1}, {1, 1, 2, 2, 6, 6}, {2, 2, 2, 3, 4, 5}, {3, 4, 1, 5, 5, 5},
        {5, 5, 1, 5, 5, 5}, {6, 8, 1, 1, 1, 1}, {9, 9, 1, 7, 7, 7} };
    static const struct er er[] = { {1, 9}, {2, 6} };
    CHECK(s, eb, er);
}

static void test_unreachable_code(void **st)
{
    (void)st;
    /*  0: @p bra 4      B0 -> {B1, B3}
     *  1: nop           B1 -> {B3}
     *  2: bra 4
     *  3: nop           B2 -> {B3}         unreachable from the entry
     *  4: nop           B3 -> {X=5}
     *  5: exit
     *  6: nop           B4 -> {X, B4}      unreachable; its own loop; falls off the end
     *  7: @p bra 6
     * Unreachable blocks still get blocks and post-dominators (they can reach X):
     * ipdom(B2) = B3, ipdom(B4) = X.  reconv[0] = 4, reconv[7] = 8. */
    static const struct spec s[] = { CBRA(4), NOP, BRA(4), NOP, NOP, EXIT, NOP, CBRA(6) };
    static const struct eb eb[] = {
        {0, 0, 2, 1, 3, 3}, {1, 2, 1, 3, 3, 3}, {3, 3, 1, 3, 3, 3}, {4, 5, 1, 5, 5, 5},
        {6, 7, 2, 5, 4, 5} };
    static const struct er er[] = { {0, 4}, {7, 8} };
    CHECK(s, eb, er);
}

static void test_infinite_loop(void **st)
{
    (void)st;
    /*  0: @p bra 3      B0 -> {B1, B2}
     *  1: nop           B1 -> {X=5}
     *  2: exit
     *  3: nop           B2 -> {B3, B4}     infinite loop with an if inside
     *  4: @p bra 6
     *  5: nop           B3 -> {B4}
     *  6: bra 3         B4 -> {B2}
     * B2..B4 cannot reach X: no post-dominator, by convention ipdom = X (reconv[4] = 7).
     * Paths from B0 that reach X all go through B1, so ipdom(B0) = B1, reconv[0] = 1. */
    static const struct spec s[] = { CBRA(3), NOP, EXIT, NOP, CBRA(6), NOP, BRA(3) };
    static const struct eb eb[] = {
        {0, 0, 2, 1, 2, 1}, {1, 2, 1, 5, 5, 5}, {3, 4, 2, 3, 4, 5}, {5, 5, 1, 4, 4, 5},
        {6, 6, 1, 2, 2, 5} };
    static const struct er er[] = { {0, 1}, {4, 7} };
    CHECK(s, eb, er);

    /* a program that never reaches the exit at all: 0: nop; 1: bra 0 */
    static const struct spec s2[] = { NOP, BRA(0) };
    static const struct eb eb2[] = { {0, 1, 1, 0, 0, 1} };
    CHECK_NOREC(s2, eb2);
}

static void test_branch_to_self(void **st)
{
    (void)st;
    /*  0: nop           B0 -> {B1}
     *  1: @p bra 1      B1 -> {B2, B1}     spin while p
     *  2: exit          B2 -> {X=3}
     * ipdom(B1) = B2: reconv[1] = 2. */
    static const struct spec s[] = { NOP, CBRA(1), EXIT };
    static const struct eb eb[] = { {0, 0, 1, 1, 1, 1}, {1, 1, 2, 2, 1, 2}, {2, 2, 1, 3, 3, 3} };
    static const struct er er[] = { {1, 2} };
    CHECK(s, eb, er);

    /* unguarded bra to itself as the whole program: B0 -> {B0}, ipdom X by convention */
    static const struct spec s2[] = { BRA(0) };
    static const struct eb eb2[] = { {0, 0, 1, 0, 0, 1} };
    CHECK_NOREC(s2, eb2);
}

static void test_branch_to_next(void **st)
{
    (void)st;
    /*  0: @p bra 1      both edges go to B1: one successor; reconv[0] = 1
     *  1: exit */
    static const struct spec s[] = { CBRA(1), EXIT };
    static const struct eb eb[] = { {0, 0, 1, 1, 1, 1}, {1, 1, 1, 2, 2, 2} };
    static const struct er er[] = { {0, 1} };
    CHECK(s, eb, er);
    /* guarded bra as the last instruction: falls off the end into X or jumps to 0 */
    static const struct spec s2[] = { NOP, CBRA(0) };
    static const struct eb eb2[] = { {0, 1, 2, 1, 0, 1} };
    static const struct er er2[] = { {1, 2} };
    CHECK(s2, eb2, er2);
}

/* ------------------------------------------------------------------ errors and edge cases */

static void expect_error(const struct spec *s, uint32_t n, const char *msg)
{
    struct ptx_prog p;
    struct flow c;
    char err[256] = "";
    mkprog(&p, s, n);
    memset(&c, 0x5a, sizeof c);
    assert_int_equal(flow_build(&p, &c, err, sizeof err), -1);
    assert_string_equal(err, msg);
    assert_null(c.blocks);            /* nothing left allocated */
    assert_null(c.block_of);
    assert_null(c.reconv);
    flow_free(&c);
    free(p.insns);
}

static void test_bad_target(void **st)
{
    (void)st;
    static const struct spec s1[] = { NOP, CBRA(7), EXIT };
    expect_error(s1, LEN(s1), "kernel k: PC 1: branch target 7 out of range");
    static const struct spec s2[] = { NOP, NOP, BRA(-1) };
    expect_error(s2, LEN(s2), "kernel k: PC 2: branch target -1 out of range");
    static const struct spec s3[] = { BRA(1) };
    expect_error(s3, LEN(s3), "kernel k: PC 0: branch target 1 out of range");
    static const struct spec s4[] = { NOP, {K_CALL, 0}, EXIT };
    expect_error(s4, LEN(s4), "kernel k: PC 1: call in a linked program (calls must be inlined)");
}

static void test_edge_cases(void **st)
{
    (void)st;
    struct flow c;
    char err[64] = "";
    memset(&c, 0, sizeof c);
    flow_free(&c);                     /* zeroed struct: safe */
    flow_free(&c);
    flow_free(NULL);
    assert_int_equal(flow_build(NULL, &c, err, sizeof err), -1);
    assert_true(err[0] != 0);
    /* empty program: no blocks, just the exit node */
    struct ptx_prog p;
    mkprog(&p, NULL, 0);
    assert_int_equal(flow_build(&p, &c, err, sizeof err), 0);
    assert_int_equal(c.nblocks, 0);
    assert_int_equal(c.ninsns, 0);
    flow_free(&c);
    free(p.insns);
    /* errors with no error buffer do not crash */
    static const struct spec s[] = { BRA(5) };
    mkprog(&p, s, 1);
    assert_int_equal(flow_build(&p, &c, NULL, 0), -1);
    free(p.insns);
}

static void test_large_nest(void **st)
{
    (void)st;
    /* 100000 instructions: the first half are if-thens nested 50000 deep, branch i skipping
     * to n-1-i, where it reconverges.  No recursion, no quadratic blow-up. */
    const uint32_t n = 100000;
    struct spec *s = calloc(n, sizeof *s);
    assert_non_null(s);
    for (uint32_t i = 0; i < n / 2; i++)
        s[i] = (struct spec)CBRA(n - 1 - i);
    for (uint32_t i = n / 2; i < n; i++)
        s[i] = (struct spec)NOP;
    s[n - 1] = (struct spec)EXIT;
    struct ptx_prog p;
    struct flow c;
    char err[128] = "";
    mkprog(&p, s, n);
    assert_int_equal(flow_build(&p, &c, err, sizeof err), 0);
    for (uint32_t i = 0; i < n / 2; i++)
        assert_int_equal(c.reconv[i], n - 1 - i);
    for (uint32_t i = n / 2; i < n; i++)
        assert_int_equal(c.reconv[i], U);
    flow_free(&c);
    free(p.insns);
    free(s);
}

/* ------------------------------------------------------------------ randomised check */

struct rng { uint64_t s; };
static uint32_t rnd(struct rng *r, uint32_t n)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((r->s >> 33) % n);
}

#define RMAX 200
struct gen {
    struct spec s[RMAX + 8];
    uint32_t n;
    struct rng *r;
};
/* innermost loop: head PC and the break branches waiting for the loop's end PC */
struct loopctx { uint32_t head; uint32_t brk[RMAX]; uint32_t nbrk; };

static uint32_t emit(struct gen *g, uint8_t k, int64_t t)
{
    g->s[g->n].k = k;
    g->s[g->n].t = t;
    return g->n++;
}

static void gen_seq(struct gen *g, struct loopctx *lp, int depth);

static void gen_loop(struct gen *g, int depth, int kind)
{
    struct loopctx l = { .head = g->n, .nbrk = 0 };
    if (kind == 0)                               /* while: test at the top */
        l.brk[l.nbrk++] = emit(g, K_CBRA, -1);
    gen_seq(g, &l, depth + 1);
    if (kind == 1)                               /* do-while */
        emit(g, K_CBRA, l.head);
    else                                         /* while (0) or forever (2) */
        emit(g, K_BRA, l.head);
    for (uint32_t i = 0; i < l.nbrk; i++)
        g->s[l.brk[i]].t = g->n;
}

static void gen_stmt(struct gen *g, struct loopctx *lp, int depth)
{
    uint32_t k = rnd(g->r, depth > 4 ? 4 : 11);
    if (g->n > RMAX - 12)
        k = 0;
    switch (k) {
    case 0: case 1: emit(g, K_NOP, 0); break;
    case 2:                                      /* guarded exit (early return of some lanes) */
        emit(g, rnd(g->r, 4) ? K_CEXIT : K_EXIT, 0); break;
    case 3:                                      /* break / continue */
        if (lp && rnd(g->r, 2)) {
            uint8_t bk = rnd(g->r, 2) ? K_CBRA : K_BRA;
            lp->brk[lp->nbrk++] = emit(g, bk, -1);
        } else if (lp) {
            emit(g, rnd(g->r, 2) ? K_CBRA : K_BRA, lp->head);
        } else {
            emit(g, K_NOP, 0);
        }
        break;
    case 4: case 5: {                            /* if-then */
        uint32_t b = emit(g, K_CBRA, -1);
        gen_seq(g, lp, depth + 1);
        g->s[b].t = g->n;
        break;
    }
    case 6: case 7: {                            /* if/else */
        uint32_t b = emit(g, K_CBRA, -1);
        gen_seq(g, lp, depth + 1);
        uint32_t j = emit(g, K_BRA, -1);
        g->s[b].t = g->n;
        gen_seq(g, lp, depth + 1);
        g->s[j].t = g->n;
        break;
    }
    case 8: case 9: gen_loop(g, depth, rnd(g->r, 2)); break;
    default: gen_loop(g, depth, rnd(g->r, 4) ? rnd(g->r, 2) : 2); break;
    }
}

static void gen_seq(struct gen *g, struct loopctx *lp, int depth)
{
    uint32_t len = 1 + rnd(g->r, 4);
    for (uint32_t i = 0; i < len && g->n < RMAX - 12; i++)
        gen_stmt(g, lp, depth);
}

static uint32_t gen_structured(struct gen *g)
{
    g->n = 0;
    gen_seq(g, NULL, 0);
    emit(g, K_NOP, 0);                           /* every forward target exists */
    if (rnd(g->r, 2))
        emit(g, K_EXIT, 0);
    return g->n;
}

static uint32_t gen_unstructured(struct gen *g)
{
    uint32_t n = 1 + rnd(g->r, 60);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = rnd(g->r, 10);
        uint8_t kind = k < 4 ? K_NOP : k < 6 ? K_CBRA : k < 7 ? K_BRA : k < 8 ? K_CEXIT :
                       k < 9 ? K_EXIT : K_NOP;
        g->s[i].k = kind;
        g->s[i].t = rnd(g->r, n);
    }
    g->n = n;
    return n;
}

/* ---- the slow reference: leaders, successors and post-dominator sets from scratch ---- */

struct ref {
    uint32_t n, nb, nn, nw;
    uint32_t first[RMAX + 8], bof[RMAX + 8];
    uint32_t succ[RMAX + 9][2], nsucc[RMAX + 9];
    uint64_t pdom[RMAX + 9][(RMAX + 9 + 63) / 64];
    uint8_t reach[RMAX + 9];
};

static void ref_blocks(struct ref *r, const struct spec *s, uint32_t n)
{
    uint8_t lead[RMAX + 8] = { 0 };
    lead[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].k == K_BRA || s[i].k == K_CBRA)
            lead[s[i].t] = 1;
        if (s[i].k != K_NOP && i + 1 < n)
            lead[i + 1] = 1;
    }
    r->n = n;
    r->nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (lead[i])
            r->first[r->nb++] = i;
        r->bof[i] = r->nb - 1;
    }
    r->nn = r->nb + 1;
    r->nw = (r->nn + 63) / 64;
    for (uint32_t b = 0; b < r->nb; b++) {
        uint32_t last = b + 1 < r->nb ? r->first[b + 1] - 1 : n - 1;
        uint32_t fall = last + 1 < n ? r->bof[last + 1] : r->nb, cand[2] = { 0, 0 }, nc = 0;
        uint8_t k = s[last].k;
        if (k == K_NOP || k == K_CBRA || k == K_CEXIT)
            cand[nc++] = fall;
        if (k == K_BRA || k == K_CBRA)
            cand[nc++] = r->bof[s[last].t];
        if (k == K_EXIT || k == K_CEXIT)
            cand[nc++] = r->nb;
        if (nc == 2 && cand[0] == cand[1])
            nc = 1;
        r->nsucc[b] = nc;
        r->succ[b][0] = cand[0];
        r->succ[b][1] = cand[nc - 1];
    }
    r->nsucc[r->nb] = 0;
}

/* pdom(X) = {X}; pdom(n) = {n} + intersection of pdom(s) over successors s; start from "all
   nodes" and iterate to the greatest fixed point. */
static void ref_pdom(struct ref *r)
{
    for (uint32_t v = 0; v < r->nn; v++) {
        memset(r->pdom[v], 0, sizeof r->pdom[v]);
        for (uint32_t u = 0; u < r->nn; u++)
            r->pdom[v][u / 64] |= (uint64_t)1 << (u % 64);
        r->reach[v] = v == r->nb;
    }
    memset(r->pdom[r->nb], 0, sizeof r->pdom[r->nb]);
    r->pdom[r->nb][r->nb / 64] = (uint64_t)1 << (r->nb % 64);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t v = 0; v < r->nb; v++) {
            uint64_t t[(RMAX + 9 + 63) / 64];
            for (uint32_t w = 0; w < r->nw; w++)
                t[w] = ~(uint64_t)0;
            for (uint32_t i = 0; i < r->nsucc[v]; i++) {
                uint32_t su = r->succ[v][i];
                for (uint32_t w = 0; w < r->nw; w++)
                    t[w] &= r->pdom[su][w];
                if (r->reach[su] && !r->reach[v]) {
                    r->reach[v] = 1;
                    changed = 1;
                }
            }
            t[v / 64] |= (uint64_t)1 << (v % 64);
            for (uint32_t w = 0; w < r->nw; w++)
                if (t[w] != r->pdom[v][w]) {
                    r->pdom[v][w] = t[w];
                    changed = 1;
                }
        }
    }
}

static uint32_t popc(const uint64_t *x, uint32_t nw)
{
    uint32_t c = 0;
    for (uint32_t w = 0; w < nw; w++)
        c += (uint32_t)__builtin_popcountll(x[w]);
    return c;
}

/* The immediate post-dominator is the strict post-dominator with the largest set (the sets
   of a node's post-dominators form a chain). */
static uint32_t ref_ipdom(const struct ref *r, uint32_t v)
{
    if (!r->reach[v])
        return r->nb;
    uint32_t want = popc(r->pdom[v], r->nw) - 1;
    for (uint32_t d = 0; d < r->nn; d++)
        if (d != v && (r->pdom[v][d / 64] >> (d % 64) & 1) && popc(r->pdom[d], r->nw) == want)
            return d;
    fail_msg("no ipdom for block %u", v);
    return U;
}

/* returns the number of blocks that cannot reach the exit (for coverage) */
static uint32_t check_random(const struct spec *s, uint32_t n, struct ref *r)
{
    struct ptx_prog p;
    struct flow c;
    char err[256] = "";
    mkprog(&p, s, n);
    assert_int_equal(flow_build(&p, &c, err, sizeof err), 0);
    ref_blocks(r, s, n);
    ref_pdom(r);
    assert_int_equal(c.nblocks, r->nb);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(c.block_of[i], r->bof[i]);
    for (uint32_t b = 0; b < r->nb; b++) {
        const struct flow_block *cb = &c.blocks[b];
        assert_int_equal(cb->first, r->first[b]);
        assert_int_equal(cb->nsucc, r->nsucc[b]);
        for (uint32_t i = 0; i < r->nsucc[b]; i++)
            assert_true(has_succ(cb, r->succ[b][i]));
        assert_int_equal(cb->ipdom, ref_ipdom(r, b));
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t want = U;
        if (s[i].k == K_CBRA) {
            uint32_t d = ref_ipdom(r, r->bof[i]);
            want = d == r->nb ? n : r->first[d];
        }
        assert_int_equal(c.reconv[i], want);
    }
    flow_free(&c);
    free(p.insns);
    uint32_t stuck = 0;
    for (uint32_t b = 0; b < r->nb; b++)
        stuck += !r->reach[b];
    return stuck;
}

static void test_random_structured(void **st)
{
    (void)st;
    struct rng rg = { 12345 };
    struct gen *g = calloc(1, sizeof *g);
    struct ref *r = calloc(1, sizeof *r);
    assert_non_null(g);
    assert_non_null(r);
    g->r = &rg;
    uint32_t maxn = 0, stuck = 0;
    for (int it = 0; it < 3000; it++) {
        uint32_t n = gen_structured(g);
        assert_true(n <= RMAX);
        if (n > maxn)
            maxn = n;
        stuck += check_random(g->s, n, r);
    }
    assert_true(maxn > 150);          /* the generator does make large programs ... */
    assert_true(stuck > 0);           /* ... and infinite loops */
    free(g);
    free(r);
}

static void test_random_unstructured(void **st)
{
    (void)st;
    struct rng rg = { 987654321 };
    struct gen *g = calloc(1, sizeof *g);
    struct ref *r = calloc(1, sizeof *r);
    assert_non_null(g);
    assert_non_null(r);
    g->r = &rg;
    uint32_t stuck = 0;
    for (int it = 0; it < 3000; it++) {
        uint32_t n = gen_unstructured(g);
        stuck += check_random(g->s, n, r);
    }
    assert_true(stuck > 0);
    free(g);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line),
        cmocka_unit_test(test_if_then),
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested_ifs),
        cmocka_unit_test(test_loop_break_continue),
        cmocka_unit_test(test_multi_exit_loop),
        cmocka_unit_test(test_early_return),
        cmocka_unit_test(test_do_while),
        cmocka_unit_test(test_loop_with_if_else),
        cmocka_unit_test(test_unreachable_code),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_branch_to_self),
        cmocka_unit_test(test_branch_to_next),
        cmocka_unit_test(test_bad_target),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_large_nest),
        cmocka_unit_test(test_random_structured),
        cmocka_unit_test(test_random_unstructured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
