/*
 * test_vtc.c -- VT's Virtual Thread Controller (model/sm/vtc.h; 004_23e173f444f46134.txt
 * Sec. IV-A, Fig. 7): reset; launches active and inactive (never-run CTAs enter the ready FIFO
 * in CTA order); a swap-out only when an active CTA's counter equals its live warps > 0 and a
 * ready CTA waits (the lowest such CTA); first-ready-first-serve; the inactive counter (pending
 * writes of the W saves minus stale writebacks, ready exactly at 0 and not during the saves);
 * the exact cycle timing of a swap; context beats (restores wait for the read, a withheld grant
 * delays them, beats 0 asks for none, the write after the read); fill on room; rest_fresh for
 * a CTA that never ran; done during another CTA's swap; every err bit; configuration; storage;
 * the registry entry points.
 */
#include "testutil.h"
#include "sm/vtc.h"
#include "base/config.h"
#include "base/cost.h"

struct unit {
    struct vtc_cfg c;
    struct vtc_regs q, d;
    struct vtc_in in;
    struct vtc_out out;            /* the last cycle's outputs */
    uint16_t pend[VTC_MAX_W];      /* the count each saved warp reports */
    int auto_pend, auto_grant;     /* answer saves and beat requests as the SM does */
};

static void unit_init(struct unit *u, uint8_t nctas, uint8_t nw, uint16_t beats)
{
    char err[128];
    memset(u, 0, sizeof *u);
    vtc_cfg_default(&u->c);
    u->c.nctas = nctas;
    assert_int_equal(vtc_cfg_check(&u->c, err, sizeof err), 0);
    vtc_reset(&u->c, &u->q);
    u->in.nw = nw;
    u->in.beats = beats;
    u->auto_pend = u->auto_grant = 1;
}

/* One cycle: the SM's answers to the previous outputs (the count the cycle after a save, a
   grant when a beat was requested), eval, commit; the one-cycle inputs are cleared after. */
static void cycle(struct unit *u)
{
    if (u->auto_pend && u->out.save_v) {
        u->in.pend_v = 1;
        u->in.pend_n = u->pend[u->out.save_w];
    }
    if (u->auto_grant && u->out.ctx_req)
        u->in.grant = 1;
    u->d = u->q;
    vtc_eval(&u->c, &u->q, &u->in, &u->out, &u->d);
    vtc_commit(&u->c, &u->q, &u->d);
    u->in.launch = u->in.launch_act = u->in.done = 0;
    u->in.pend_v = 0;
    u->in.pend_n = 0;
    u->in.grant = 0;
    memset(u->in.rel, 0, sizeof u->in.rel);
}

/* A cycle that must raise no error. */
static void run(struct unit *u)
{
    cycle(u);
    assert_int_equal(u->out.err, 0);
}

static void launch(struct unit *u, unsigned k, int active)
{
    u->in.launch |= 1ull << k;
    if (active)
        u->in.launch_act |= 1ull << k;
}

/* CTA k has `live` warps of which `stall` wait on long-latency memory. */
static void warps(struct unit *u, unsigned k, uint8_t live, uint8_t stall)
{
    u->in.nlive[k] = live;
    u->in.nstall[k] = stall;
}

static void stale(struct unit *u, unsigned port, unsigned k)
{
    u->in.rel[port].v = 1;
    u->in.rel[port].cta = (uint8_t)k;
}

/* Run until a swap or fill is decided (at most n cycles); returns the cycles run. */
static unsigned until_decision(struct unit *u, unsigned n)
{
    for (unsigned i = 1; i <= n; i++) {
        run(u);
        if (u->out.ev_in)
            return i;
    }
    fail_msg("no decision in %u cycles", n);
    return 0;
}

/* Run until the sequencer is idle again. */
static void until_idle(struct unit *u)
{
    for (unsigned i = 0; i < 200 && u->q.ph != VTC_IDLE; i++)
        run(u);
    assert_int_equal(u->q.ph, VTC_IDLE);
}

/* CTA 0 active and CTA 1 inactive (never ran); every warp of CTA 0 stalls: returns with the
   outputs of the decision cycle t (CTA 0 out, CTA 1 in); CTA 0's warps are gone after it. */
static void first_swap(struct unit *u)
{
    launch(u, 0, 1), launch(u, 1, 0);
    run(u);
    warps(u, 0, u->in.nw, u->in.nw);
    run(u);
    assert_true(u->out.ev_out);
    warps(u, 0, 0, 0);
}

/* After first_swap: the swap ends, then CTA 1 stalls and goes out for CTA 0, whose context is
   saved: returns with the outputs of that decision cycle. */
static void swap_back(struct unit *u)
{
    until_idle(u);
    warps(u, 1, u->in.nw, u->in.nw);
    run(u);
    assert_true(u->out.ev_out);
    assert_int_equal(u->q.in_cta, 0);
    warps(u, 1, 0, 0);
}

static void test_reset(void **state)
{
    struct unit u;
    struct vtc_regs zero;
    (void)state;
    unit_init(&u, 8, 4, 0);
    memset(&u.q, 0xA5, sizeof u.q);
    vtc_reset(&u.c, &u.q);
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&u.q, &zero, sizeof zero);
    run(&u);
    assert_int_equal(u.out.rdy_n + u.out.nact + u.out.ninact + u.out.save_v + u.out.rest_v +
                     u.out.ctx_req + u.out.ev_busy + u.out.fence_v + u.out.ldq_v, 0);
}

/* Launches in one cycle: active ones count as active; inactive ones are ready (never ran) and
   enter the FIFO in CTA order, one a cycle; fills then activate them in that order, as fresh
   CTAs. */
static void test_launch_active_inactive(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 2, 5);
    launch(&u, 6, 0), launch(&u, 0, 1), launch(&u, 3, 0), launch(&u, 2, 1), launch(&u, 5, 0);
    run(&u);
    assert_int_equal(u.out.nact, 2);
    assert_int_equal(u.out.ninact, 3);
    assert_int_equal(u.out.rdy_n, 1);        /* one push a cycle, lowest first */
    assert_int_equal(u.q.inq, 0x08);
    run(&u);
    run(&u);
    assert_int_equal(u.out.rdy_n, 3);
    assert_int_equal(u.q.res, 0x6D);
    assert_int_equal(u.q.act, 0x05);
    assert_int_equal(u.q.inq, 0x68);
    assert_int_equal(u.q.saved, 0);
    u.in.room = 1;
    static const unsigned order[] = { 3, 5, 6 };
    for (unsigned i = 0; i < 3; i++) {
        until_decision(&u, 3);
        assert_true(u.out.ev_fill);
        assert_int_equal(u.q.in_cta, order[i]);
        assert_true(u.out.rest_v && u.out.rest_fresh);   /* never ran: no beats, at once */
        assert_int_equal(u.q.rd_left, 0);
        until_idle(&u);
    }
    assert_int_equal(u.out.rdy_n, 0);
    assert_int_equal(u.q.act, 0x6D);
}

/* Swap-out only when an active CTA's stalled warps equal its live warps > 0 and the FIFO
   (registered) holds a ready CTA; the lowest such CTA goes. */
static void test_swap_condition(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 4, 0);
    launch(&u, 0, 1), launch(&u, 1, 1), launch(&u, 2, 1);
    run(&u);
    warps(&u, 1, 4, 4);                      /* stalled, but nothing ready */
    for (unsigned i = 0; i < 3; i++) {
        run(&u);
        assert_false(u.out.ev_out);
    }
    warps(&u, 1, 4, 3);                      /* one warp can still issue */
    warps(&u, 2, 0, 0);                      /* no live warp (finishing) */
    launch(&u, 5, 0);
    run(&u);
    assert_int_equal(u.out.rdy_n, 1);
    for (unsigned i = 0; i < 3; i++) {
        run(&u);
        assert_false(u.out.ev_in);
    }
    warps(&u, 2, 2, 2);                      /* every live warp stalled (two exited) */
    warps(&u, 1, 4, 4);
    run(&u);
    assert_true(u.out.ev_out);
    assert_int_equal(u.q.out_cta, 1);        /* the lowest of 1 and 2 */
    assert_int_equal(u.q.in_cta, 5);
    assert_int_equal(u.q.act, 0x25);
}

/* A ready CTA enters the FIFO after the one that becomes ready in the cycle before: the first
   ready is the first served. */
static void test_swap_waits_for_registered_fifo(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 2, 0);
    launch(&u, 0, 1);
    run(&u);
    warps(&u, 0, 2, 2);
    launch(&u, 1, 0);                        /* pushed in this cycle, popped from the next */
    run(&u);
    assert_false(u.out.ev_out);
    assert_int_equal(u.out.rdy_n, 1);
    run(&u);
    assert_true(u.out.ev_out);
}

static void test_first_ready_first_serve(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 1, 0);
    launch(&u, 0, 1), launch(&u, 1, 1), launch(&u, 2, 1), launch(&u, 3, 0), launch(&u, 4, 0);
    run(&u);
    u.pend[0] = 5;                           /* CTA 1 leaves with 5 pending writes */
    warps(&u, 1, 1, 1);
    until_decision(&u, 3);
    assert_int_equal(u.q.out_cta, 1);
    assert_int_equal(u.q.in_cta, 3);
    warps(&u, 1, 0, 0);
    until_idle(&u);
    assert_int_equal(u.q.cnt[1], 5);
    u.pend[0] = 0;                           /* CTA 2 leaves with none: ready first */
    warps(&u, 2, 1, 1);
    until_decision(&u, 3);
    assert_int_equal(u.q.out_cta, 2);
    assert_int_equal(u.q.in_cta, 4);
    warps(&u, 2, 0, 0);
    until_idle(&u);
    assert_int_equal(u.out.rdy_n, 1);
    for (unsigned p = 0; p < 5; p++)         /* CTA 1's writes come back: ready second */
        stale(&u, p, 1);
    run(&u);
    assert_int_equal(u.out.rdy_n, 2);
    assert_int_equal(u.q.rdq[u.q.rd_head], 2);
    warps(&u, 0, 1, 1);
    until_decision(&u, 3);
    assert_int_equal(u.q.in_cta, 2);
    warps(&u, 0, 0, 0);
    until_idle(&u);
    warps(&u, 3, 1, 1);
    until_decision(&u, 3);
    assert_int_equal(u.q.in_cta, 1);
}

/* The inactive counter is the sum of the W saves' counts minus the stale writebacks; a counter
   at 0 during the saves is not ready (counts may still come); ready exactly when it is 0
   after the last count. */
static void test_counter_pend_minus_stale(void **state)
{
    struct unit u;
    static const uint16_t counts[4] = { 1, 0, 0, 2 };
    (void)state;
    unit_init(&u, 8, 4, 0);
    memcpy(u.pend, counts, sizeof counts);
    first_swap(&u);                          /* t: decision, save w0 */
    assert_int_equal(u.q.cnt[0], 0);
    run(&u);                                 /* t+1: count of w0 */
    assert_int_equal(u.q.cnt[0], 1);
    stale(&u, 0, 0);
    run(&u);                                 /* t+2: back to 0, but w2, w3 not counted yet */
    assert_int_equal(u.q.cnt[0], 0);
    assert_int_equal(u.out.rdy_n, 0);
    run(&u);                                 /* t+3 */
    assert_int_equal(u.out.rdy_n, 0);
    run(&u);                                 /* t+4: count of w3 */
    assert_int_equal(u.q.cnt[0], 2);
    assert_int_equal(u.out.rdy_n, 0);
    stale(&u, 3, 0);
    run(&u);
    assert_int_equal(u.q.cnt[0], 1);
    assert_int_equal(u.out.rdy_n, 0);
    stale(&u, 7, 0);
    run(&u);
    assert_int_equal(u.q.cnt[0], 0);
    assert_int_equal(u.out.rdy_n, 1);
    assert_true(u.q.inq & 1);
}

/* No pending write at all: ready in the cycle the last count is in (t + nw), not before. */
static void test_ready_after_last_count(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 3, 0);
    first_swap(&u);                          /* t */
    for (unsigned i = 1; i < 3; i++) {
        run(&u);
        assert_int_equal(u.out.rdy_n, 0);
    }
    run(&u);                                 /* t + 3 */
    assert_int_equal(u.out.rdy_n, 1);
}

/* The cycle-exact sequence of a swap (docs/vtc.md, vtc.h "Timing"): nw 3, beats 2, a never-run
   CTA in (no read), then the same CTA pair back with a saved context (2 read beats). */
static void test_swap_timing(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 3, 2);
    first_swap(&u);                          /* t: decide, fence, ldq, save w0 */
    assert_true(u.out.ev_in && !u.out.ev_fill);
    assert_true(u.out.fence_v && u.out.ldq_v && u.out.save_v);
    assert_int_equal(u.out.fence_cta, 0);
    assert_int_equal(u.out.ldq_cta, 0);
    assert_int_equal(u.out.save_w, 0);
    assert_false(u.out.rest_v || u.out.ctx_req || u.out.ev_busy);
    run(&u);                                 /* t+1: save w1, restore w0 (fresh) */
    assert_true(u.out.fence_v && u.out.save_v && u.out.rest_v && u.out.rest_fresh);
    assert_int_equal(u.out.save_w, 1);
    assert_int_equal(u.out.rest_w, 0);
    assert_false(u.out.ldq_v || u.out.ctx_req);
    assert_true(u.out.ev_busy);
    run(&u);                                 /* t+2: last save; the write beats may start */
    assert_true(u.out.save_v && u.out.rest_v && u.out.ctx_req);
    assert_int_equal(u.out.save_w, 2);
    assert_int_equal(u.out.rest_w, 1);
    run(&u);                                 /* t+3: write beat 1, restore w2 */
    assert_false(u.out.save_v || u.out.fence_v);
    assert_true(u.out.rest_v && u.out.ctx_req);
    assert_int_equal(u.out.rest_w, 2);
    assert_int_equal(u.q.wr_left, 1);
    assert_int_equal(u.out.rdy_n, 1);        /* CTA 0: counts in, none pending */
    run(&u);                                 /* t+4: write beat 2: done */
    assert_false(u.out.rest_v || u.out.ctx_req);
    assert_int_equal(u.q.ph, VTC_IDLE);
    /* CTA 0 comes back with its context: 2 read beats before its first restore */
    swap_back(&u);                           /* t': decide */
    assert_true(u.out.ctx_req);
    assert_int_equal(u.q.rd_left, 2);
    run(&u);                                 /* t'+1: read beat 1 */
    assert_false(u.out.rest_v);
    run(&u);                                 /* t'+2: read beat 2, restore w0 (saved) */
    assert_true(u.out.rest_v && !u.out.rest_fresh);
    assert_int_equal(u.out.rest_w, 0);
    assert_true(u.out.ctx_req);              /* the saves are presented: write beats */
    run(&u);
    run(&u);                                 /* t'+4: restore w2, write beat 2: done */
    assert_int_equal(u.out.rest_w, 2);
    assert_int_equal(u.q.ph, VTC_IDLE);
}

/* Restores wait for every read beat; a withheld grant (demand on the port) delays them; the
   read beats go before the write beats. */
static void test_beats_withheld(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 2, 3);
    first_swap(&u);
    swap_back(&u);                           /* t: CTA 1 out, CTA 0 in: 3 read beats */
    run(&u);                                 /* t+1: read beat 1 */
    assert_int_equal(u.q.rd_left, 2);
    assert_int_equal(u.q.wr_left, 3);
    u.auto_grant = 0;
    run(&u);                                 /* t+2: demand holds the port */
    assert_true(u.out.ev_wait && u.out.ctx_req);
    assert_int_equal(u.q.rd_left, 2);
    u.auto_grant = 1;
    run(&u);                                 /* t+3: read beat 2 */
    assert_false(u.out.rest_v);
    assert_int_equal(u.q.wr_left, 3);        /* no write while reads remain */
    run(&u);                                 /* t+4: read beat 3: restore w0 */
    assert_true(u.out.rest_v);
    assert_int_equal(u.q.rd_left, 0);
    assert_int_equal(u.q.wr_left, 3);
    run(&u);                                 /* t+5: write beat 1, restore w1 */
    assert_int_equal(u.q.wr_left, 2);
    assert_true(u.out.rest_v);
    assert_int_equal(u.out.rest_w, 1);
}

/* beats = 0 (ideal port): a saved CTA comes back without a single beat request. */
static void test_beats_zero(void **state)
{
    struct unit u;
    unsigned reqs = 0;
    (void)state;
    unit_init(&u, 8, 2, 0);
    first_swap(&u);
    swap_back(&u);                           /* t: CTA 0 (saved) in */
    reqs += u.out.ctx_req;
    run(&u);                                 /* t+1: restore w0 at once, not fresh */
    assert_true(u.out.rest_v && !u.out.rest_fresh);
    reqs += u.out.ctx_req;
    run(&u);
    reqs += u.out.ctx_req;
    assert_int_equal(u.q.ph, VTC_IDLE);
    assert_int_equal(reqs, 0);
}

/* Room and a ready CTA: activate it without a swap-out; no room: wait. */
static void test_fill_on_room(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 2, 2);
    launch(&u, 0, 1), launch(&u, 1, 0), launch(&u, 2, 0);
    run(&u);
    for (unsigned i = 0; i < 3; i++) {
        run(&u);
        assert_false(u.out.ev_in);
    }
    u.in.room = 1;
    run(&u);                                 /* t: fill CTA 1 (never ran): restore w0 now */
    u.in.room = 0;
    assert_true(u.out.ev_in && u.out.ev_fill && !u.out.ev_out);
    assert_false(u.out.save_v || u.out.fence_v || u.out.ldq_v || u.out.ctx_req);
    assert_true(u.out.rest_v && u.out.rest_fresh);
    assert_int_equal(u.out.rest_w, 0);
    assert_int_equal(u.q.act, 0x3);
    run(&u);
    assert_true(u.out.rest_v);
    assert_int_equal(u.out.rest_w, 1);
    assert_int_equal(u.q.ph, VTC_IDLE);
    assert_int_equal(u.out.nact, 2);
    assert_int_equal(u.out.ninact, 1);
}

/* A fill of a CTA with a saved context reads it first (2 beats), and writes nothing. */
static void test_fill_saved(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 1, 2);
    first_swap(&u);                          /* CTA 0 out, CTA 1 in */
    until_idle(&u);
    run(&u);
    assert_int_equal(u.out.rdy_n, 1);
    u.in.done = 1ull << 1;                   /* CTA 1 completes: room for CTA 0 */
    u.in.room = 1;
    run(&u);                                 /* t: fill */
    assert_true(u.out.ev_fill && u.out.ctx_req && !u.out.rest_v);
    assert_int_equal(u.q.wr_left, 0);
    run(&u);
    assert_false(u.out.rest_v);
    run(&u);                                 /* t+2: second read beat, restore */
    assert_true(u.out.rest_v && !u.out.rest_fresh);
    assert_false(u.out.ctx_req);
    assert_int_equal(u.q.ph, VTC_IDLE);
}

/* An active CTA outside the swap may complete during it; the in CTA may not. */
static void test_done_during_swap(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 4, 1);
    launch(&u, 0, 1), launch(&u, 1, 1), launch(&u, 2, 0);
    run(&u);
    warps(&u, 0, 4, 4);
    until_decision(&u, 2);
    warps(&u, 0, 0, 0);
    run(&u);
    u.in.done = 1ull << 1;
    run(&u);
    assert_int_equal(u.q.res, 0x5);
    assert_int_equal(u.out.nact, 1);
    assert_int_not_equal(u.q.ph, VTC_IDLE);
    u.in.done = 1ull << 2;                   /* the in CTA, being restored */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_DONE);
    assert_true(u.q.res & 4);
    until_idle(&u);
}

/* The in CTA may complete once all its warps are restored, though the out CTA's context is
   still being written (a short CTA did, in bfs on one SM); the swap then ends as before. */
static void test_done_of_in_cta_after_restores(void **state)
{
    struct unit u;
    unsigned i;
    (void)state;
    unit_init(&u, 8, 2, 20);                 /* 20 write beats outlast 2 restores */
    launch(&u, 0, 1), launch(&u, 1, 0);
    run(&u);
    warps(&u, 0, 2, 2);
    until_decision(&u, 3);
    assert_int_equal(u.out.rest_cta, 1);     /* the in CTA, named from the decision on */
    warps(&u, 0, 0, 0);
    for (i = 0; i < 4; i++)
        run(&u);
    assert_int_equal(u.q.rs_i, 2);
    assert_int_not_equal(u.q.ph, VTC_IDLE);
    u.in.done = 1ull << 1;
    run(&u);                                 /* no VTC_E_DONE */
    assert_false(u.q.res & 2);
    until_idle(&u);
    assert_true(u.q.inq & 1 || u.q.rd_n == 1);   /* the out CTA is ready (no pending write) */
}

static void test_err_bits(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, 8, 2, 0);
    launch(&u, 0, 1), launch(&u, 1, 0);
    run(&u);
    stale(&u, 0, 0);                         /* an active CTA */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_DEC);
    stale(&u, 1, 1);                         /* counter 0 */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_DEC);
    stale(&u, 2, 9);                         /* beyond the table */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_DEC);
    launch(&u, 0, 1);                        /* resident */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_LAUNCH);
    launch(&u, 8, 0);                        /* beyond the table */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_LAUNCH);
    u.in.launch_act = 1ull << 4;             /* active without a launch */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_LAUNCH);
    assert_int_equal(u.q.res, 0x3);
    u.in.done = 1ull << 1;                   /* inactive */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_DONE);
    u.in.done = 1ull << 6;                   /* not resident */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_DONE);
    assert_int_equal(u.q.res, 0x3);
    u.in.pend_v = 1;                         /* no save before */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_PEND);
    u.in.grant = 1;                          /* no beat requested */
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_GRANT);
    u.in.nw = 0;
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_NW);
    u.in.nw = 33;
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_NW);
    u.in.nw = 2;
    /* a save whose count does not come, then one too large */
    warps(&u, 0, 2, 2);
    run(&u);
    assert_true(u.out.save_v);
    warps(&u, 0, 0, 0);
    u.auto_pend = 0;
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_PEND);
    u.in.pend_v = 1;
    u.in.pend_n = SB_MAX_REGS + 1;
    cycle(&u);
    assert_int_equal(u.out.err, VTC_E_PEND);
    assert_int_equal(u.q.cnt[0], 0);         /* both ignored */
    run(&u);
    assert_int_equal(u.out.err, 0);
}

static void test_cfg_check(void **state)
{
    struct vtc_cfg c;
    char err[128];
    (void)state;
    vtc_cfg_default(&c);
    assert_int_equal(c.nctas, SM_MAX_CTAS);
    assert_int_equal(vtc_cfg_check(&c, err, sizeof err), 0);
    c.nctas = 1;
    assert_int_equal(vtc_cfg_check(&c, err, sizeof err), 0);
    c.nctas = 0;
    assert_int_equal(vtc_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "vtc: nctas 0 out of range 1..64");
    c.nctas = SM_MAX_CTAS + 1;
    assert_int_equal(vtc_cfg_check(&c, err, sizeof err), -1);
}

/* Every register of vtc_regs, at its declared width: 1 599 bits for 64 CTA slots (design
   note: 4 x 64 + 64 x 14 + 64 x 6 + 6 + 7 + 2 + 12 + 12 + 24), 219 for 8. */
static void test_storage_bits(void **state)
{
    struct vtc_cfg c;
    struct cost_list *l = calloc(1, sizeof *l);
    (void)state;
    assert_non_null(l);
    vtc_cfg_default(&c);
    cost_list_init(l);
    vtc_storage(&c, l);
    assert_int_equal(cost_block_bits(l, "vtc", 1), 1599);
    c.nctas = 8;
    cost_list_init(l);
    vtc_storage(&c, l);
    assert_int_equal(cost_block_bits(l, "vtc", 1), 4 * 8 + 8 * 14 + 8 * 3 + 3 + 4 + 2 + 6 + 12 + 24);
    free(l);
}

/* One instance per SM only under vt = on; 64 table entries; the Verilog parameter. */
static void test_registry(void **state)
{
    struct gpu_config conf;
    struct vtc_cfg c;
    char err[CONF_ERR_LEN], *buf = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    conf_defaults(&conf);
    assert_int_equal(conf_load_file(&conf, "configs/gtx480.cfg", err, sizeof err), 0);
    assert_int_equal(vtc_instances(&conf), 0);
    assert_int_equal(conf_set(&conf, "vt=max", "--set", err, sizeof err), 0);
    assert_int_equal(vtc_instances(&conf), 0);
    assert_int_equal(conf_set(&conf, "vt=on", "--set", err, sizeof err), 0);
    assert_int_equal(vtc_instances(&conf), 1);
    vtc_cfg_from(&conf, 0, 0, &c);
    assert_int_equal(c.nctas, SM_MAX_CTAS);
    f = open_memstream(&buf, &len);
    vtc_rtl_params(&c, f);
    fclose(f);
    tu_assert_contains(buf, "localparam VTC_NCTAS = 64;");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_launch_active_inactive),
        cmocka_unit_test(test_swap_condition),
        cmocka_unit_test(test_swap_waits_for_registered_fifo),
        cmocka_unit_test(test_first_ready_first_serve),
        cmocka_unit_test(test_counter_pend_minus_stale),
        cmocka_unit_test(test_ready_after_last_count),
        cmocka_unit_test(test_swap_timing),
        cmocka_unit_test(test_beats_withheld),
        cmocka_unit_test(test_beats_zero),
        cmocka_unit_test(test_fill_on_room),
        cmocka_unit_test(test_fill_saved),
        cmocka_unit_test(test_done_during_swap),
        cmocka_unit_test(test_done_of_in_cta_after_restores),
        cmocka_unit_test(test_err_bits),
        cmocka_unit_test(test_cfg_check),
        cmocka_unit_test(test_storage_bits),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
