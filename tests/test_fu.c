/*
 * test_fu.c -- execution-unit timing: initiation interval, result latency, writeback-port limit,
 * queue-full back pressure, next-event cycle.
 */
#include "testutil.h"
#include "sm/fu.h"

struct fu_cfg C = { .nsched = 2, .shared = 0 };

static void tick(struct fu_regs *q, struct fu_in *in, struct fu_out *out)
{
    struct fu_regs d = *q;
    fu_eval(&C, q, in, out, &d);
    fu_commit(&C, q, &d);
    memset(in->issue, 0, sizeof in->issue);
    in->now++;
}

static void issue(struct fu_in *in, int s, int unit, int lat, int ii, int warp, int reg)
{
    struct fu_issue *is = &in->issue[s];
    is->valid = 1; is->sched = (uint8_t)s; is->unit = (uint8_t)unit;
    is->lat = (uint32_t)lat; is->ii = (uint32_t)ii; is->warp = (uint8_t)warp; is->vwi = (uint8_t)warp;
    is->ndst = 1; is->dst[0] = (uint16_t)reg;
}

static void test_latency_and_ii(void **state)
{
    struct fu_regs q;
    struct fu_in in;
    struct fu_out out;
    int t, released_at = -1;
    (void)state;
    fu_reset(&C, &q);
    memset(&in, 0, sizeof in);
    issue(&in, 0, FU_SFU, 10, 4, 3, 7);          /* cycle 0 */
    in.issue[0].own = 0x00FF00F0u;               /* DWS: the issuing slot's lanes travel along */
    tick(&q, &in, &out);
    assert_false(out.unit_free[0] & (1u << FU_SFU)); /* busy at cycle 1 */
    assert_true(out.unit_free[0] & (1u << FU_SP));
    assert_true(out.unit_free[1] & (1u << FU_SFU)); /* the other scheduler's SFU is free */
    for (t = 1; t < 20; t++) {
        tick(&q, &in, &out);
        if (t == 3)
            assert_true(out.unit_free[0] & (1u << FU_SFU)); /* free again at cycle 4 = 0 + ii */
        if (out.nrel) {
            assert_int_equal(out.rel[0].warp, 3);
            assert_int_equal(out.rel[0].reg, 7);
            assert_int_equal(out.rel[0].own, 0x00FF00F0u);
            released_at = t;
        }
    }
    assert_int_equal(released_at, 10);
}

static void test_writeback_ports_and_full(void **state)
{
    struct fu_regs q;
    struct fu_in in;
    struct fu_out out;
    int i, total = 0;
    (void)state;
    fu_reset(&C, &q);
    memset(&in, 0, sizeof in);
    for (i = 0; i < 32; i++) {                  /* 64 results, all due at cycle 40 */
        issue(&in, 0, FU_SP, 40 - i, 1, i, 1);
        in.issue[0].ndst = 4;
        in.issue[0].dst[1] = 2; in.issue[0].dst[2] = 3; in.issue[0].dst[3] = 4;
        issue(&in, 1, FU_SP, 40 - i, 1, i, 5);
        tick(&q, &in, &out);
    }
    assert_true(out.full);                       /* 64 + 2 schedulers > 64 */
    while (in.now < 100) {
        tick(&q, &in, &out);
        assert_true(out.nrel <= FU_MAX_REL);
        total += (int)out.nrel;
    }
    assert_int_equal(total, 32 * 5);
    assert_int_equal(q.count, 0);
}

/* sfu_shared: one SFU pipe per SM.  An issue by scheduler 0 makes it busy for scheduler 1 too,
   and a free shared unit is granted to scheduler (cycle mod 2) only: over 16 cycles with both
   schedulers always wanting it, 4 instructions start (ii 4), not 8. */
static void test_shared_sfu(void **state)
{
    struct fu_cfg shared = { .nsched = 2, .shared = 1u << FU_SFU };
    struct fu_regs q, d;
    struct fu_in in;
    struct fu_out out;
    unsigned starts = 0, both = 0;
    (void)state;
    fu_reset(&shared, &q);
    memset(&in, 0, sizeof in);
    for (int t = 0; t < 16; t++) {
        struct fu_out prev;
        d = q;
        fu_eval(&shared, &q, &in, &out, &d);
        fu_commit(&shared, &q, &d);
        prev = out;
        memset(in.issue, 0, sizeof in.issue);
        in.now++;
        both += (prev.unit_free[0] >> FU_SFU & 1) && (prev.unit_free[1] >> FU_SFU & 1);
        for (int k = 0; k < 2; k++)
            if (prev.unit_free[k] >> FU_SFU & 1) {
                issue(&in, k, FU_SFU, 10, 4, k, 1);
                in.issue[k].ndst = 0;
                starts++;
            }
    }
    assert_int_equal(both, 0);                    /* never offered to both in one cycle */
    assert_int_equal(starts, 4);
    /* per-scheduler SFUs (the same loop): 8 */
    fu_reset(&C, &q);
    memset(&in, 0, sizeof in);
    starts = 0;
    for (int t = 0; t < 16; t++) {
        d = q;
        fu_eval(&C, &q, &in, &out, &d);
        fu_commit(&C, &q, &d);
        memset(in.issue, 0, sizeof in.issue);
        in.now++;
        for (int k = 0; k < 2; k++)
            if (out.unit_free[k] >> FU_SFU & 1) {
                issue(&in, k, FU_SFU, 10, 4, k, 1);
                in.issue[k].ndst = 0;
                starts++;
            }
    }
    assert_int_equal(starts, 8);
}

/* Cycle c's outputs differ from ref's, or c changed a register (the queue, the units). */
static int changed(const struct fu_regs *before, const struct fu_regs *after,
                   const struct fu_out *o, const struct fu_out *ref)
{
    return memcmp(o->unit_free, ref->unit_free, sizeof o->unit_free) || o->full != ref->full ||
           o->nrel || before->valid != after->valid || before->count != after->count ||
           memcmp(before->busy_until, after->busy_until, sizeof before->busy_until);
}

/* fu_next_event (time_skip, model/sm/sm_sleep.c) against ticking: after every cycle t of a run
   with issues of several latencies and intervals, ticking on without issue changes no output
   or register before the cycle it names, and changes something at it. */
static void test_next_event(void **state)
{
    struct fu_regs q;
    struct fu_in in;
    struct fu_out out;
    int checked = 0;
    (void)state;
    fu_reset(&C, &q);
    memset(&in, 0, sizeof in);
    for (uint64_t t = 0; t < 40; t++) {
        if (t == 0)
            issue(&in, 0, FU_SFU, 10, 4, 3, 7);
        if (t == 0 || t == 2)
            issue(&in, 1, FU_SP, 18, 1, 4, (int)t);
        if (t == 5)
            issue(&in, 1, FU_DP, 3, 8, 5, 9);
        tick(&q, &in, &out);                    /* cycle t; in.now = t + 1 */
        uint64_t e = fu_next_event(&C, &q, t), first = UINT64_MAX;
        struct fu_regs r = q;
        struct fu_in y = in;
        struct fu_out o;
        for (uint64_t c = t + 1; c < t + 64 && first == UINT64_MAX; c++) {
            struct fu_regs before = r;
            tick(&r, &y, &o);
            if (changed(&before, &r, &o, &out))
                first = c;
        }
        if (e != first)
            fail_msg("after cycle %llu: fu_next_event says %llu, ticking changes at %llu",
                     (unsigned long long)t, (unsigned long long)e, (unsigned long long)first);
        checked += e != UINT64_MAX;
    }
    assert_true(checked >= 15);                 /* half the run had an event ahead */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_and_ii),
        cmocka_unit_test(test_writeback_ports_and_full),
        cmocka_unit_test(test_shared_sfu),
        cmocka_unit_test(test_next_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
