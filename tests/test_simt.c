/*
 * test_simt.c -- cmocka tests for model/sm/simt.c, the SIMT reconvergence stack.
 *
 * The bench (tests/simt_tb.h) drives programs whose reconvergence pcs come from the real
 * flow_build and checks every lane against its scalar trace.  Tests: if/else, nested if, the
 * single loop of 003_a1f13061b22d54a6.txt with the bounds of its Table I (depth M+1 under
 * SIMT_TOKEN, bounded under SIMT_IPDOM), spill at depth 17 with chunk 4 (request address and
 * size), fill on pop, busy until the memory side accepts, exits inside divergence (also of
 * lanes whose entries are spilled), pop latency, redirect flags, bad ports, overflow, and
 * random programs (structured and not, with loops and guarded exits) on a tiny stack that
 * spills all the time.  Contexts (VWI, the spill image, save and restore) are in
 * tests/test_simt_ctx.c.
 */
#include "simt_tb.h"

/* ---------------- if / else, nested ---------------- */

static void test_if_else(void **st)
{
    (void)st;
    static const struct spec s[] = {
        NOP,            /* 0 */
        CBRA(4),        /* 1  @p bra ELSE          reconv 6 */
        NOP,            /* 2  then */
        BRA(6),         /* 3 */
        NOP,            /* 4  ELSE */
        NOP,            /* 5 */
        NOP,            /* 6  join */
        EXIT,           /* 7 */
    };
    struct prog p;
    build(&p, s, 8);
    assert_int_equal(p.reconv[1], 6);
    for (unsigned pol = 0; pol < SIMT_NPOLICY; pol++) {
        struct lanes_arg a;
        memset(&a, 0, sizeof a);
        a.taken_at[1] = 0x0000ffffu;
        struct tb *t = tb_new(pol, 16, 4);
        struct run r = {.p = &p, .dec = dec_lanes, .arg = &a, .nwarps = 1,
                        .lanes = {0xffffffffu}};
        run_prog(t, &r);
        /* SYNC + DIV on the branch; DIV popped at 6, SYNC popped at 6 */
        assert_int_equal(r.max_depth, 2);
        assert_int_equal(r.pushes, 2);
        assert_int_equal(r.pops, 2);
        assert_int_equal(r.issued, 8);   /* 0 1 | 4 5 | 2 3 | 6 7 */
        free(t);
    }
}

static void test_if_else_trace(void **st)
{
    (void)st;
    /* step by hand: pc / mask / redirect after each update */
    static const struct spec s[] = {NOP, CBRA(4), NOP, BRA(6), NOP, NOP, NOP, EXIT};
    struct prog p;
    build(&p, s, 8);
    struct tb *t = tb_new(SIMT_TOKEN, 16, 4);
    launch(t, 0, 0xffffffffu);
    step(t);
    assert_true(t->o.redirect == 1);
    assert_int_equal(t->o.pc[0], 0);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    assert_int_equal(t->o.pc[0], 1);
    assert_true(t->o.redirect == 0);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_BRANCH, 0xffff, 4, 6, 0, 0, 0, 0};
    step(t);
    assert_int_equal(t->o.pc[0], 4);
    assert_true(t->o.mask[0] == 0xffffu);
    assert_true(t->o.redirect == 1);
    assert_int_equal(t->o.ev_push, 2);
    assert_int_equal(t->o.ev_depth, 2);
    assert_int_equal(t->q.rpc[0], 6);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);                                       /* 4 -> 5 */
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);                                       /* 5 -> 6 = rpc: pop the DIV */
    assert_int_equal(t->o.pc[0], 2);
    assert_true(t->o.mask[0] == 0xffff0000u);
    assert_true(t->o.redirect == 1);
    assert_int_equal(t->o.ev_pop, 1);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);                                       /* 2 -> 3 */
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_BRANCH, 0xffff0000u, 6, UINT32_MAX, 0, 0, 0, 0};
    step(t);                                       /* bra 6 = rpc: pop the SYNC */
    assert_int_equal(t->o.pc[0], 6);
    assert_true(t->o.mask[0] == 0xffffffffu);
    assert_int_equal(t->q.rpc[0], SIMT_NO_PC);
    assert_int_equal(simt_depth(&t->q, 0), 0);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_EXIT, 0, 0, 0, 0xffffffffu, 0, 0, 0};
    step(t);
    assert_true(t->o.fin == 1);
    assert_true(t->o.busy == 0);
    free(t);
}

static void test_nested(void **st)
{
    (void)st;
    static const struct spec s[] = {
        CBRA(8),        /* 0  outer if (taken = skip)       reconv 8 */
        NOP,            /* 1 */
        CBRA(5),        /* 2  inner if/else                 reconv 7 */
        NOP,            /* 3 */
        BRA(7),         /* 4 */
        NOP,            /* 5 */
        NOP,            /* 6 */
        NOP,            /* 7  inner join */
        NOP,            /* 8  outer join */
        EXIT,           /* 9 */
    };
    struct prog p;
    build(&p, s, 10);
    assert_int_equal(p.reconv[0], 8);
    assert_int_equal(p.reconv[2], 7);
    for (unsigned pol = 0; pol < SIMT_NPOLICY; pol++) {
        struct lanes_arg a;
        memset(&a, 0, sizeof a);
        a.taken_at[0] = 0xff000000u;     /* lanes 24..31 skip the outer body */
        a.taken_at[2] = 0x00ff00ffu;
        struct tb *t = tb_new(pol, 16, 4);
        struct run r = {.p = &p, .dec = dec_lanes, .arg = &a, .nwarps = 1,
                        .lanes = {0xffffffffu}};
        run_prog(t, &r);
        /* outer: taken target 8 == R: SYNC pushed, DIV pushed and popped at once (the
           skipping lanes wait at 8); inner: SYNC + DIV on top of the outer SYNC */
        assert_int_equal(r.max_depth, 3);
        free(t);
    }
}

/* ---------------- the single loop of 003 ---------------- */

/* Table I: M divergent lanes; lane t's bound is 32 for t <= 31-M, else 32-(t-(31-M)). */
struct loop_arg { int n[32]; uint32_t back, skip; };
static int dec_loop(const void *a, unsigned lane, uint32_t pc, uint32_t visit)
{
    const struct loop_arg *la = a;
    if (pc == la->skip)
        return la->n[lane] < 1;
    if (pc == la->back)                  /* after iteration visit+1: continue if < n */
        return (int)(visit + 1) < la->n[lane];
    return 0;
}

static void loop_bounds(struct loop_arg *a, unsigned m)
{
    for (int t = 0; t < 32; t++)
        a->n[t] = t <= 31 - (int)m ? 32 : 32 - (t - (31 - (int)m));
}

/* The branch sequence nvcc's PTX of bench/sloop produces (and the paper's SASS, Listing 3):
   a guard that skips the loop, the body, the loop-back branch whose reconvergence is the
   instruction after it, the tail. */
static void loop_prog(struct prog *p, struct loop_arg *a)
{
    static const struct spec s[] = {
        NOP, NOP,       /* 0-1   ld bounds[t], setp */
        CBRA(10),       /* 2     @p1 bra L4 (n < 1) */
        NOP,            /* 3     mov */
        NOP,            /* 4     L2: mul */
        NOP,            /* 5     add */
        NOP,            /* 6     add i */
        NOP,            /* 7     setp */
        CBRA(4),        /* 8     @p2 bra L2      reconv 9 */
        NOP,            /* 9     add */
        NOP,            /* 10    L4: st */
        EXIT,           /* 11 */
    };
    build(p, s, 12);
    assert_int_equal(p->reconv[8], 9);
    assert_int_equal(p->reconv[2], 10);
    a->skip = 2;
    a->back = 8;
}

static void test_loop_depth(void **st)
{
    (void)st;
    struct prog p;
    struct loop_arg a;
    loop_prog(&p, &a);
    for (unsigned m = 0; m <= 31; m++) {
        loop_bounds(&a, m);
        for (unsigned pol = 0; pol < SIMT_NPOLICY; pol++) {
            struct tb *t = tb_new(pol, 32, 4);     /* big enough: no spill */
            struct run r = {.p = &p, .dec = dec_loop, .arg = &a, .nwarps = 1,
                            .lanes = {0xffffffffu}};
            run_prog(t, &r);
            unsigned want = pol == SIMT_TOKEN ? (m ? m + 1 : 0) : (m ? 1 : 0);
            if (r.max_depth != want)
                fail_msg("%s M=%u: depth %u, expected %u", simt_policy_name(pol), m,
                         r.max_depth, want);
            if (pol == SIMT_TOKEN) {
                /* the paper: M+1 pushes and M+1 pops (one SYNC, M DIV tokens) */
                assert_int_equal(r.pushes, m ? m + 1 : 0);
                assert_int_equal(r.pops, m ? m + 1 : 0);
            }
            assert_int_equal(r.spills, 0);
            free(t);
        }
    }
}

static void test_loop_spill_fill(void **st)
{
    (void)st;
    struct prog p;
    struct loop_arg a;
    loop_prog(&p, &a);
    for (unsigned m = 0; m <= 31; m++) {
        loop_bounds(&a, m);
        struct tb *t = tb_new(SIMT_TOKEN, 16, 4);   /* Kepler: 16 on chip, chunks of 4 */
        struct run r = {.p = &p, .dec = dec_loop, .arg = &a, .nwarps = 1,
                        .lanes = {0xffffffffu}, .fill_lat = 20};
        run_prog(t, &r);
        unsigned depth = m ? m + 1 : 0;
        unsigned want = depth >= 17 ? (depth - 17) / 4 + 1 : 0;   /* at 17, 21, 25, 29 */
        if (r.spills != want || r.fills != want)
            fail_msg("M=%u: %u spills %u fills, expected %u", m, r.spills, r.fills, want);
        assert_int_equal(r.max_depth, depth);
        assert_int_equal(r.nreqs, 2 * want);
        for (unsigned i = 0; i < want; i++) {          /* spills, in order, then fills */
            const struct mem_req *q = &r.reqs[i], *f = &r.reqs[2 * want - 1 - i];
            uint64_t a0 = t->c.spill_base + 0 * t->c.spill_stride + i * 32u;
            assert_int_equal(q->kind, MK_SPILL);
            assert_int_equal(f->kind, MK_FILL);
            assert_true(q->addr == (a0 & ~127ull) && f->addr == q->addr);
            assert_int_equal(q->tag, a0 & 127u);
            assert_int_equal(f->tag, q->tag);
            assert_int_equal(q->bytes, 32);
            assert_int_equal(f->bytes, 32);
            assert_int_equal(q->sm, 3);
            assert_int_equal(q->warp, 0);
        }
        free(t);
    }
}

/* Spill at depth 17, cycle by cycle: the request, busy until accepted, fill on the pop. */
static void test_spill_handshake(void **st)
{
    (void)st;
    struct tb *t = tb_new(SIMT_TOKEN, 16, 4);
    unsigned w = 5;
    launch(t, w, 0xffffffffu);
    step(t);
    build_loop(t, w, 15, 0);                       /* SYNC + 15 DIV = 16: full, no spill */
    assert_int_equal(simt_depth(&t->q, w), 16);
    assert_int_equal(t->q.cnt[w], 16);
    assert_true(t->o.req_v == 0);
    assert_false(slot_has(t->o.busy, w));
    upd(t, 1, w, SIMT_BRANCH, t->o.mask[w], 100, 0, 0);
    step(t);
    upd(t, 1, w, SIMT_BRANCH, t->o.mask[w] >> 1 & t->o.mask[w], 90, 101, 0);
    step(t);                                       /* the 17th entry */
    assert_int_equal(t->o.ev_spill, 1);
    assert_int_equal(t->o.ev_depth, 17);
    assert_int_equal(simt_depth(&t->q, w), 17);
    /* that was one too many: the 17th push spilled (cnt 13, 4 in memory) */
    assert_int_equal(t->q.cnt[w], 13);
    assert_int_equal(t->q.nspill[w], 4);
    assert_true(slot_has(t->q.spq, w));
    assert_true(slot_has(t->o.busy, w));
    assert_true(t->o.req_v);                       /* shown at once, not accepted (ready 0) */
    /* the memory side is not ready: the request stays, the warp stays busy */
    for (unsigned k = 0; k < 5; k++) {
        t->in.req_ready = 0;
        step(t);
        assert_true(t->o.req_v);
        assert_true(slot_has(t->o.busy, w));
        assert_int_equal(t->o.req.kind, MK_SPILL);
        assert_true(t->o.req.addr == t->c.spill_base + w * t->c.spill_stride);
        assert_int_equal(t->o.req.bytes, 32);
        assert_int_equal(t->o.req.warp, w);
    }
    t->in.req_ready = 1;
    step(t);
    assert_true(t->o.req_v);                       /* accepted in this cycle */
    assert_false(slot_has(t->o.busy, w));
    step(t);
    assert_false(t->o.req_v);
    upd(t, 1, w, SIMT_BRANCH, t->o.mask[w], 100, 0, 0);
    step(t);
    /* the loop exits: every lane falls through to 101 = rpc, the DIVs unwind, one per cycle */
    t->in.upd[1] = (struct simt_upd){1, (uint8_t)w, SIMT_BRANCH, 0, 90, 101, 0, 0, 0, 0};
    step(t);
    unsigned pops = t->o.ev_pop, cyc = 0;
    while (t->q.cnt[w] > 0 && cyc++ < 100) {
        assert_true(slot_has(t->o.busy, w));
        step(t);
        pops += t->o.ev_pop;
    }
    assert_int_equal(pops, 13);
    /* the 13 on-chip entries are gone: the next pop needs a fill */
    step(t);
    assert_true(slot_has(t->q.flq, w));
    assert_true(t->o.req_v);
    assert_int_equal(t->o.req.kind, MK_FILL);
    t->in.req_ready = 1;
    step(t);
    assert_true(t->o.req_v);
    assert_int_equal(t->o.req.kind, MK_FILL);
    assert_true(t->o.req.addr == t->c.spill_base + w * t->c.spill_stride);
    assert_int_equal(t->o.req.bytes, 32);
    assert_true(slot_has(t->q.flw, w));
    for (unsigned k = 0; k < 10; k++) {            /* waiting for the data */
        step(t);
        assert_true(slot_has(t->o.busy, w));
        assert_int_equal(t->o.ev_pop, 0);
    }
    t->in.fill_v = 1;
    t->in.fill_slot = (uint8_t)w;
    step(t);
    assert_int_equal(t->o.ev_fill, 1);
    assert_int_equal(t->o.ev_pop, 1);              /* the pending pop, in the same cycle */
    assert_int_equal(t->q.nspill[w], 0);
    for (unsigned k = 0; k < 3; k++)               /* the three DIVs left, then the SYNC */
        step(t);
    assert_int_equal(simt_depth(&t->q, w), 0);
    assert_false(slot_has(t->o.busy, w));
    assert_int_equal(t->o.pc[w], 101);
    assert_true(t->o.mask[w] == 0xffffffffu);
    free(t);
}

/* ---------------- exits ---------------- */

static void test_exits_in_divergence(void **st)
{
    (void)st;
    static const struct spec s[] = {
        CBRA(3),        /* 0  lanes 0..15 go to 3           reconv 6 */
        NOP,            /* 1  lanes 16..31 */
        BRA(6),         /* 2 */
        CEXIT,          /* 3  @p exit: lanes 0..7 exit */
        NOP,            /* 4 */
        NOP,            /* 5 */
        NOP,            /* 6  join */
        CEXIT,          /* 7  @p exit: lanes 20..23 */
        NOP,            /* 8 */
        EXIT,           /* 9 */
    };
    struct prog p;
    build(&p, s, 10);
    for (unsigned pol = 0; pol < SIMT_NPOLICY; pol++) {
        struct lanes_arg a;
        memset(&a, 0, sizeof a);
        a.taken_at[0] = 0x0000ffffu;
        a.taken_at[3] = 0x000000ffu;
        a.taken_at[7] = 0x00f00000u;
        struct tb *t = tb_new(pol, 16, 4);
        struct run r = {.p = &p, .dec = dec_lanes, .arg = &a, .nwarps = 1,
                        .lanes = {0xffffffffu}};
        run_prog(t, &r);
        free(t);
        /* the whole taken side exits: the DIV pops when the mask empties */
        a.taken_at[3] = 0x0000ffffu;
        t = tb_new(pol, 16, 4);
        run_prog(t, &r);
        free(t);
    }
    /* after the join the mask excludes the exited lanes: check by hand */
    struct tb *t = tb_new(SIMT_IPDOM, 16, 4);
    launch(t, 0, 0xffffffffu);
    step(t);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_BRANCH, 0xffff, 3, 6, 0, 0, 0, 0};
    step(t);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_EXIT, 0, 0, 0, 0xff, 0, 0, 0};
    step(t);
    assert_int_equal(t->o.pc[0], 4);
    assert_true(t->o.mask[0] == 0xff00u);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);                                       /* 5 -> 6: pop DIV */
    assert_int_equal(t->o.pc[0], 1);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_BRANCH, 0xffff0000u, 6, 0, 0, 0, 0, 0};
    step(t);                                       /* pop SYNC: its mask minus exited lanes */
    assert_int_equal(t->o.pc[0], 6);
    assert_true(t->o.mask[0] == 0xffffff00u);
    free(t);
}

/* Lanes exit while entries are in memory: the filled entries' masks drop them. */
static void test_exit_with_spilled_entries(void **st)
{
    (void)st;
    struct tb *t = tb_new(SIMT_TOKEN, 4, 2);
    launch(t, 0, 0xffffffffu);
    step(t);
    build_loop(t, 0, 6, 1);                        /* SYNC + 6 DIV: 4 in memory, 3 on chip */
    assert_int_equal(simt_depth(&t->q, 0), 7);
    assert_int_equal(t->q.nspill[0], 4);
    assert_true(t->o.mask[0] == 0x03ffffffu);
    /* at the loop body (pc 90) lanes 0..3 exit; the others go on to the branch */
    upd(t, 0, 0, SIMT_BRANCH, 0x03ffffffu, 90, 0, 0);
    step(t);
    upd(t, 0, 0, SIMT_EXIT, 0, 0, 0, 0xfu);
    step(t);
    assert_true(t->q.alive[0] == 0xfffffff0u);
    assert_int_equal(t->o.pc[0], 91);
    upd(t, 0, 0, SIMT_BRANCH, 0x03fffff0u, 100, 0, 0);
    step(t);
    /* loop exit: unwind everything, fills included */
    upd(t, 0, 0, SIMT_BRANCH, 0, 90, 101, 0);
    step(t);
    drain(t, 0);
    assert_int_equal(simt_depth(&t->q, 0), 0);
    assert_int_equal(t->o.pc[0], 101);
    assert_true(t->o.mask[0] == 0xfffffff0u);      /* the SYNC (from memory) minus exits */
    upd(t, 0, 0, SIMT_EXIT, 0, 0, 0, 0xffffffffu);
    step(t);
    assert_true(t->o.fin & 1u);
    free(t);

    /* both sides of nested branches exit: the warp finishes with entries left, which it
       drops; one of them came back from memory on the way */
    t = tb_new(SIMT_IPDOM, 2, 2);
    launch(t, 1, 0xffffffffu);
    step(t);
    upd(t, 0, 1, SIMT_BRANCH, 0x0000ffffu, 10, 50, 0);    /* SYNC1 + DIV1 (lanes 16..31) */
    step(t);
    upd(t, 0, 1, SIMT_BRANCH, 0x000000ffu, 20, 40, 0);    /* SYNC2 + DIV2: spills 1 */
    step(t);
    assert_int_equal(t->o.ev_spill, 1);
    drain(t, 1);
    assert_int_equal(t->q.nspill[1], 2);
    upd(t, 0, 1, SIMT_EXIT, 0, 0, 0, 0x000000ffu);        /* taken2 exit: pop DIV2 */
    step(t);
    assert_int_equal(t->o.pc[1], 11);
    assert_true(t->o.mask[1] == 0x0000ff00u);
    upd(t, 0, 1, SIMT_EXIT, 0, 0, 0, 0x0000ff00u);        /* nt2 exit: pop SYNC2 (empty) */
    step(t);
    drain(t, 1);                                          /* ... fill, pop DIV1 */
    assert_int_equal(t->o.pc[1], 1);
    assert_true(t->o.mask[1] == 0xffff0000u);
    assert_int_equal(simt_depth(&t->q, 1), 1);           /* SYNC1 left */
    upd(t, 0, 1, SIMT_EXIT, 0, 0, 0, 0xffff0000u);        /* the last lanes exit */
    step(t);
    assert_true(slot_has(t->o.fin, 1));
    assert_false(slot_has(t->o.busy, 1));
    assert_int_equal(simt_depth(&t->q, 1), 0);
    assert_true(slot_has(t->o.redirect, 1));
    free(t);
}

/* ---------------- pop latency, redirect, ports ---------------- */

static void test_pop_latency(void **st)
{
    (void)st;
    struct tb *t = tb_new(SIMT_IPDOM, 16, 4);
    t->c.pop_cycles = 3;
    launch(t, 2, 0xffffffffu);
    step(t);
    t->in.upd[0] = (struct simt_upd){1, 2, SIMT_BRANCH, 0xff, 10, 20, 0, 0, 0, 0};   /* pc 0, R 20 */
    step(t);
    assert_false(slot_has(t->o.busy, 2));           /* a push costs nothing */
    t->in.upd[0] = (struct simt_upd){1, 2, SIMT_BRANCH, 0xff, 20, 0, 0, 0, 0, 0};    /* jump to R */
    step(t);
    assert_int_equal(t->o.ev_pop, 1);
    assert_int_equal(t->o.pc[2], 1);
    unsigned busy = 0;
    while (slot_has(t->o.busy, 2)) {
        busy++;
        step(t);
    }
    assert_int_equal(busy, 3);                   /* busy for pop_cycles cycles */
    free(t);
}

static void test_ports(void **st)
{
    (void)st;
    struct tb *t = tb_new(SIMT_TOKEN, 16, 4);
    /* two warps, both update ports in one cycle */
    launch(t, 0, 0xffffffffu);
    launch(t, 1, 0x0000ffffu);                   /* a partial warp */
    launch(t, 2, 0);                             /* no lane: finished at once */
    step(t);
    assert_true(t->o.redirect == 7);
    assert_true(t->o.fin == 4);
    assert_true(t->o.mask[1] == 0xffffu);
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    t->in.upd[1] = (struct simt_upd){1, 1, SIMT_BRANCH, 0xffffu, 7, 0, 0, 0, 0, 0};
    step(t);
    assert_int_equal(t->o.pc[0], 1);
    assert_int_equal(t->o.pc[1], 7);
    assert_true(t->o.redirect == 2);
    assert_int_equal(t->o.err, 0);
    /* same slot on both ports */
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    t->in.upd[1] = (struct simt_upd){1, 0, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    assert_true(t->o.err & SIMT_E_SLOT);
    assert_int_equal(t->o.pc[0], 2);             /* the first one applied */
    /* slot out of range, finished warp, not launched warp */
    t->in.upd[0] = (struct simt_upd){1, 60, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    assert_true(t->o.err & SIMT_E_SLOT);
    t->in.upd[0] = (struct simt_upd){1, 2, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    assert_true(t->o.err & SIMT_E_BUSY);
    t->in.upd[0] = (struct simt_upd){1, 9, SIMT_NORMAL, 0, 0, 0, 0, 0, 0, 0};
    step(t);
    assert_true(t->o.err & SIMT_E_BUSY);
    assert_int_equal(t->o.err_slot, 9);
    /* divergent branch without reconvergence pc */
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_BRANCH, 1, 9, SIMT_NO_PC, 0, 0, 0, 0};
    step(t);
    assert_true(t->o.err & SIMT_E_RECONV);
    assert_int_equal(t->o.pc[0], 2);
    /* fill response nobody waits for; launch beyond nwarps */
    t->in.fill_v = 1;
    t->in.fill_slot = 0;
    step(t);
    assert_true(t->o.err & SIMT_E_FILL);
    t->in.launch = slot_bit(63);
    step(t);
    assert_true(t->o.err & SIMT_E_SLOT);
    /* uniform branch to pc+1 and a "divergent" one whose both sides are pc+1: no push */
    t->in.upd[0] = (struct simt_upd){1, 0, SIMT_BRANCH, 0x5, 3, 3, 0, 0, 0, 0};
    step(t);
    assert_int_equal(t->o.pc[0], 3);
    assert_int_equal(t->o.ev_push, 0);
    assert_true(t->o.redirect == 0);
    free(t);
}

/* Deeper than depth + SIMT_MAX_SPILL: no legal 32-lane program gets near it (entries are
   bounded by the nesting depth plus the lanes), so set the state up directly. */
static void test_overflow(void **st)
{
    (void)st;
    struct tb *t = tb_new(SIMT_TOKEN, 16, 4);
    launch(t, 0, 0xffffffffu);
    step(t);
    t->q.cnt[0] = 16;
    t->q.nspill[0] = SIMT_MAX_SPILL;
    t->d = t->q;
    upd(t, 0, 0, SIMT_BRANCH, 1, 7, 9, 0);
    step(t);
    assert_true(t->o.err == SIMT_E_OVERFLOW);
    assert_int_equal(t->o.err_slot, 0);
    assert_int_equal(t->o.ev_push, 0);
    assert_int_equal(t->q.nspill[0], SIMT_MAX_SPILL);
    assert_int_equal(t->o.pc[0], 0);                      /* update ignored */
    free(t);
}

static void test_cfg_errors(void **st)
{
    (void)st;
    struct simt_cfg c;
    char err[160];
    simt_cfg_default(&c);
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), 0);
    c.depth = 33;
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "depth"));
    simt_cfg_default(&c);
    c.chunk = 1;
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "chunk"));
    simt_cfg_default(&c);
    c.chunk = 6;                                  /* 48 bytes does not divide a line */
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), -1);
    simt_cfg_default(&c);
    c.spill_base = 64;
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), -1);
    simt_cfg_default(&c);
    c.spill_stride = 128;
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), -1);
    simt_cfg_default(&c);
    c.policy = 2;
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), -1);
    simt_cfg_default(&c);
    c.nwarps = 0;
    assert_int_equal(simt_cfg_check(&c, err, sizeof err), -1);
}

/* ---------------- random programs ---------------- */

static void test_random_programs(void **st)
{
    (void)st;
    static struct prog p;
    unsigned spills = 0, fills = 0, pops = 0, deep = 0, finished_lanes_early = 0;
    srand(4242);
    for (unsigned iter = 0; iter < 300; iter++) {
        random_prog(&p, 4 + (uint32_t)rand() % 60, iter % 3 == 0);
        struct rnd_arg a = {(uint32_t)rand(), 1 + (uint32_t)rand() % 4, &p};
        unsigned pol = iter % 2;
        struct tb *t = tb_new(pol, 2 + (unsigned)rand() % 5, 2);   /* spills constantly */
        t->c.pop_cycles = (uint8_t)(rand() % 3);
        struct run r = {.p = &p, .dec = dec_rnd, .arg = &a, .nwarps = 2,
                        .lanes = {0xffffffffu, (uint32_t)rand() | 1u}, .mem_random = 1};
        run_prog(t, &r);
        spills += r.spills;
        fills += r.fills;
        pops += r.pops;
        deep += r.max_depth > t->c.depth;
        for (uint32_t i = 0; i + 1 < p.n; i++)
            finished_lanes_early += p.s[i].k == K_CEXIT;
        free(t);
    }
    /* the runs did exercise what they are meant to */
    print_message("random programs: %u pops, %u spills, %u fills, %u runs deeper than the "
                  "array, %u guarded exits\n", pops, spills, fills, deep, finished_lanes_early);
    assert_true(spills > 100 && fills > 100 && deep > 50 && finished_lanes_early > 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_if_else_trace),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_loop_depth),
        cmocka_unit_test(test_loop_spill_fill),
        cmocka_unit_test(test_spill_handshake),
        cmocka_unit_test(test_exits_in_divergence),
        cmocka_unit_test(test_exit_with_spilled_entries),
        cmocka_unit_test(test_pop_latency),
        cmocka_unit_test(test_ports),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_cfg_errors),
        cmocka_unit_test(test_random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
