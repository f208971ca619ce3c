/*
 * test_cta.c -- occupancy and its binding limit on the GTX480 limits, and round-robin CTA
 * dispatch that refills a slot after a CTA finishes.
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

static void test_dispatch(void **state)
{
    struct cta_cfg c = { 3, 2, 7 };
    struct cta_regs q, d;
    struct cta_in in;
    struct cta_out out;
    uint32_t sms[16], n = 0, i;
    (void)state;
    cta_reset(&c, &q);
    memset(&in, 0, sizeof in);
    for (i = 0; i < 10; i++) {
        d = q;
        cta_eval(&c, &q, &in, &out, &d);
        cta_commit(&c, &q, &d);
        if (out.valid) {
            assert_int_equal(out.cta, n);
            sms[n++] = out.sm;
        }
    }
    assert_int_equal(n, 6);                    /* 3 SMs x 2 */
    assert_int_equal(sms[0], 0); assert_int_equal(sms[1], 1); assert_int_equal(sms[2], 2);
    in.done[1] = 1;
    d = q;
    cta_eval(&c, &q, &in, &out, &d);
    cta_commit(&c, &q, &d);
    assert_false(out.valid);                   /* freed slot usable next cycle */
    in.done[1] = 0;
    d = q;
    cta_eval(&c, &q, &in, &out, &d);
    cta_commit(&c, &q, &d);
    assert_true(out.valid);
    assert_int_equal(out.sm, 1);
    assert_int_equal(out.cta, 6);
    d = q;
    cta_eval(&c, &q, &in, &out, &d);
    assert_false(out.valid);                   /* grid exhausted */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy),
        cmocka_unit_test(test_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
