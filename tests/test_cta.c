/*
 * test_cta.c -- occupancy, the scheduling and capacity limits and the binding one on the
 * GTX480 limits, and round-robin CTA dispatch to the SMs that say they are ready.
 */
#include "testutil.h"
#include "base/config.h"
#include "gpu/cta.h"

static void test_occupancy(void **state)
{
    struct gpu_config c;
    enum cta_limit lim;
    (void)state;
    conf_defaults(&c);
    /* 256 threads, 10 regs, no shared: 6 CTAs by threads (1536/256), 8 by CTAs */
    assert_int_equal(cta_occupancy(&c, 256, 10, 0, &lim), 6);
    assert_int_equal(lim, CTA_LIM_THREADS);
    /* 64 threads: 24 by threads, 8 by the CTA limit */
    assert_int_equal(cta_occupancy(&c, 64, 10, 0, &lim), 8);
    assert_int_equal(lim, CTA_LIM_CTAS);
    /* 256 threads x 40 regs = 10240 per CTA: 3 by registers */
    assert_int_equal(cta_occupancy(&c, 256, 40, 0, &lim), 3);
    assert_int_equal(lim, CTA_LIM_REGS);
    /* 16 KB shared: 3 by shared memory */
    assert_int_equal(cta_occupancy(&c, 128, 10, 16384, &lim), 3);
    assert_int_equal(lim, CTA_LIM_SHARED);
    /* 21 regs round up to 672 per warp (units of 64 per warp) */
    assert_int_equal(cta_occupancy(&c, 512, 21, 0, &lim), 2);
}

/* The scheduling limit (threads, CTAs) and the capacity limit (registers, shared memory) are
   reported apart; the resident count is the smaller. */
static void test_limits(void **state)
{
    struct gpu_config c;
    struct cta_limits l;
    (void)state;
    conf_defaults(&c);
    cta_limits(&c, 256, 40, 0, &l);                 /* 6 by threads, 8 CTAs, 3 by registers */
    assert_int_equal(l.sched, 6);
    assert_int_equal(l.sched_by, CTA_LIM_THREADS);
    assert_int_equal(l.cap, 3);
    assert_int_equal(l.cap_by, CTA_LIM_REGS);
    assert_int_equal(l.resident, 3);
    assert_int_equal(l.binding, CTA_LIM_REGS);
    cta_limits(&c, 64, 8, 4096, &l);                /* 24 by threads, 8 CTAs; 12 by shared */
    assert_int_equal(l.sched, 8);
    assert_int_equal(l.sched_by, CTA_LIM_CTAS);
    assert_int_equal(l.cap, 12);
    assert_int_equal(l.cap_by, CTA_LIM_SHARED);
    assert_int_equal(l.resident, 8);
    assert_int_equal(l.binding, CTA_LIM_CTAS);
}

static struct cta_out step(const struct cta_cfg *c, struct cta_regs *q, const struct cta_in *in)
{
    struct cta_regs d = *q;
    struct cta_out out;
    cta_eval(c, q, in, &out, &d);
    cta_commit(c, q, &d);
    return out;
}

/* Round robin over the SMs whose ready input is set, starting after the last one served; an
   SM that is not ready is passed over; nothing once the grid is exhausted. */
static void test_dispatch(void **state)
{
    struct cta_cfg c = { .nsms = 3, .total = 5 };
    struct cta_regs q;
    struct cta_in in;
    struct cta_out o;
    (void)state;
    cta_reset(&c, &q);
    memset(&in, 0, sizeof in);
    o = step(&c, &q, &in);
    assert_false(o.valid);                          /* nobody ready */
    in.ready[0] = in.ready[1] = in.ready[2] = 1;
    o = step(&c, &q, &in);
    assert_true(o.valid); assert_int_equal(o.sm, 0); assert_int_equal(o.cta, 0);
    o = step(&c, &q, &in);
    assert_int_equal(o.sm, 1); assert_int_equal(o.cta, 1);
    in.ready[2] = 0;
    o = step(&c, &q, &in);
    assert_int_equal(o.sm, 0); assert_int_equal(o.cta, 2);   /* SM 2 passed over */
    in.ready[2] = 1;
    o = step(&c, &q, &in);
    assert_int_equal(o.sm, 1);
    o = step(&c, &q, &in);
    assert_int_equal(o.sm, 2); assert_int_equal(o.cta, 4);
    o = step(&c, &q, &in);
    assert_false(o.valid);                          /* grid exhausted */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
