/*
 * test_bar.c -- barrier unit: release when every live warp arrived, exited warps count as
 * arrived, CTAs independent, release is a registered (next-cycle) output, masks are relative
 * to the CTA, and any number of warps of any number of CTAs may finish in one cycle.
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

static void launch(struct bar_regs *q, struct bar_in *in, uint8_t cta, uint32_t mask)
{
    in->launch_valid = 1;
    in->launch_cta = cta;
    in->launch_mask = mask;
    tick(q, in);
}

static void test_barrier(void **state)
{
    struct bar_regs q;
    struct bar_in in;
    (void)state;
    bar_reset(&C, &q);
    memset(&in, 0, sizeof in);
    launch(&q, &in, 1, 0x0F);                                        /* CTA 1: warps 0-3 */
    launch(&q, &in, 2, 0x03);                                        /* CTA 2: warps 0-1 */
    in.arrive[0] = (struct bar_ev){ 1, 1, 0 };
    in.arrive[1] = (struct bar_ev){ 1, 1, 1 };
    in.arrive[2] = (struct bar_ev){ 1, 2, 0 };
    assert_int_equal(tick(&q, &in), 0);
    in.exit_ctas = 1u << 1;                                          /* CTA 1 warp 3 exits */
    in.exit_mask[1] = 1u << 3;
    assert_int_equal(tick(&q, &in), 0);
    in.arrive[0] = (struct bar_ev){ 1, 1, 2 };                        /* last live warp */
    assert_int_equal(tick(&q, &in), 0);                               /* registered ... */
    assert_int_equal(tick(&q, &in), 1u << 1);                         /* ... seen next cycle */
    in.arrive[0] = (struct bar_ev){ 1, 2, 1 };
    tick(&q, &in);
    assert_int_equal(tick(&q, &in), 1u << 2);
}

/* Twelve warps of a CTA finish in one cycle (more than the arrival ports) and the four left
   then meet at a barrier: it must release them. With an exit port per warp and a port count,
   exits beyond it were lost and the barrier waited for warps that no longer existed. */
static void test_many_exits(void **state)
{
    struct bar_regs q;
    struct bar_in in;
    (void)state;
    bar_reset(&C, &q);
    memset(&in, 0, sizeof in);
    launch(&q, &in, 0, 0xFFFF);                                      /* 16 warps */
    launch(&q, &in, 3, 0x3);                                         /* another CTA */
    in.exit_ctas = 1u << 0 | 1u << 3;
    in.exit_mask[0] = 0xFFF0;                                        /* warps 4..15 */
    in.exit_mask[3] = 0x1;
    assert_int_equal(tick(&q, &in), 0);
    for (uint8_t w = 0; w < 4; w++)
        in.arrive[w] = (struct bar_ev){ 1, 0, w };
    tick(&q, &in);
    assert_int_equal(tick(&q, &in), 1u << 0);
    in.arrive[0] = (struct bar_ev){ 1, 3, 1 };                        /* CTA 3's last warp */
    tick(&q, &in);
    assert_int_equal(tick(&q, &in), 1u << 3);
}

/* Bad input: ports naming CTA slots beyond nctas and warps beyond 31 are ignored. */
static void test_bad_ports(void **state)
{
    struct bar_regs q;
    struct bar_in in;
    char err[128];
    struct bar_cfg bad = { 0 };
    (void)state;
    assert_int_equal(bar_cfg_check(&bad, err, sizeof err), -1);
    tu_assert_contains(err, "nctas 0 out of range");
    bar_reset(&C, &q);
    memset(&in, 0, sizeof in);
    launch(&q, &in, 9, 0x1);                                         /* CTA slot 9 >= 8 */
    in.arrive[0] = (struct bar_ev){ 1, 9, 0 };
    in.arrive[1] = (struct bar_ev){ 1, 0, 40 };
    tick(&q, &in);
    assert_int_equal(tick(&q, &in), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier),
        cmocka_unit_test(test_many_exits),
        cmocka_unit_test(test_bad_ports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
