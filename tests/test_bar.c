/*
 * test_bar.c -- barrier unit: release when every live warp arrived, exited warps count as
 * arrived, CTAs independent, release is a registered (next-cycle) output.
 */
#include "testutil.h"
#include "sm/bar.h"

static struct bar_cfg C = { 8 };

static uint64_t tick(struct bar_regs *q, struct bar_in *in)
{
    struct bar_regs d = *q;
    struct bar_out out;
    bar_eval(&C, q, in, &out, &d);
    bar_commit(&C, q, &d);
    memset(in, 0, sizeof *in);
    return out.release;
}

static void test_barrier(void **state)
{
    struct bar_regs q;
    struct bar_in in;
    (void)state;
    bar_reset(&C, &q);
    memset(&in, 0, sizeof in);
    in.launch_valid = 1; in.launch_cta = 1; in.launch_mask = 0x0F;   /* warps 0-3 */
    tick(&q, &in);
    in.launch_valid = 1; in.launch_cta = 2; in.launch_mask = 0x30;   /* warps 4-5 */
    tick(&q, &in);
    in.arrive[0] = (struct bar_ev){ 1, 1, 0 };
    in.arrive[1] = (struct bar_ev){ 1, 1, 1 };
    in.arrive[2] = (struct bar_ev){ 1, 2, 4 };
    assert_int_equal(tick(&q, &in), 0);
    in.exit[0] = (struct bar_ev){ 1, 1, 3 };                          /* warp 3 exits */
    assert_int_equal(tick(&q, &in), 0);
    in.arrive[0] = (struct bar_ev){ 1, 1, 2 };                        /* last live warp */
    assert_int_equal(tick(&q, &in), 0);                               /* registered ... */
    assert_int_equal(tick(&q, &in), 0x07);                            /* ... seen next cycle */
    in.arrive[0] = (struct bar_ev){ 1, 2, 5 };
    tick(&q, &in);
    assert_int_equal(tick(&q, &in), 0x30);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_barrier) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
