/*
 * test_ldst.c -- coalescing into 128-byte lines, the pending-load table releasing registers
 * when the last line returns, queue hand-off to the L1, and shared-memory bank conflicts.
 */
#include "testutil.h"
#include "sm/ldst.h"

static struct ldst_cfg C = { 2 };

static void tick(struct ldst_regs *q, struct ldst_in *in, struct ldst_out *out)
{
    struct ldst_regs d = *q;
    ldst_eval(&C, q, in, out, &d);
    ldst_commit(&C, q, &d);
    memset(&in->issue, 0, sizeof in->issue);
    in->accepted = 0;
    in->resp_valid = 0;
    in->now++;
}

static void load(struct ldst_in *in, uint64_t base, uint64_t stride, uint32_t bytes)
{
    int l;
    memset(&in->issue, 0, sizeof in->issue);
    in->issue.valid = 1; in->issue.warp = 5; in->issue.vwi = 5; in->issue.kind = MK_LOAD;
    in->issue.mask = 0xFFFFFFFFu; in->issue.bytes = bytes; in->issue.ndst = 1; in->issue.dst[0] = 9;
    for (l = 0; l < 32; l++)
        in->issue.addr[l] = base + (uint64_t)l * stride;
}

static void test_coalescing(void **state)
{
    struct ldst_regs q;
    struct ldst_in in;
    struct ldst_out out;
    (void)state;
    ldst_reset(&C, &q);
    memset(&in, 0, sizeof in);
    load(&in, 0x1000, 4, 4);                   /* unit stride floats: one line */
    tick(&q, &in, &out);
    assert_int_equal(out.ev_lines, 1);
    assert_true(out.req_valid);
    assert_int_equal(out.req.addr, 0x1000);
    assert_int_equal(out.req.bytes, 128);
    load(&in, 0x1040, 4, 4);                   /* misaligned: two lines */
    tick(&q, &in, &out);
    assert_int_equal(out.ev_lines, 2);
    load(&in, 0x8000, 128, 4);                 /* stride 128: 32 lines */
    tick(&q, &in, &out);
    assert_int_equal(out.ev_lines, 32);
    load(&in, 0x20000, 0, 8);                  /* all lanes one address: one line */
    tick(&q, &in, &out);
    assert_int_equal(out.ev_lines, 1);
    load(&in, 0x30000, 16, 16);                /* float4 per lane: 512 bytes = 4 lines */
    tick(&q, &in, &out);
    assert_int_equal(out.ev_lines, 4);
    assert_int_equal(q.count, 1 + 2 + 32 + 1 + 4);
}

static void test_release_after_last_line(void **state)
{
    struct ldst_regs q;
    struct ldst_in in;
    struct ldst_out out;
    uint32_t tag;
    (void)state;
    ldst_reset(&C, &q);
    memset(&in, 0, sizeof in);
    load(&in, 0x1040, 4, 4);
    tick(&q, &in, &out);
    tag = out.req.tag;
    in.accepted = 1;                          /* L1 takes both lines */
    tick(&q, &in, &out);
    in.accepted = 1;
    tick(&q, &in, &out);
    assert_false(out.req_valid);
    in.resp_valid = 1; in.resp_tag = tag;
    tick(&q, &in, &out);
    assert_int_equal(out.nrel, 0);            /* one line still out */
    in.resp_valid = 1; in.resp_tag = tag;
    tick(&q, &in, &out);
    assert_int_equal(out.nrel, 1);
    assert_int_equal(out.rel[0].warp, 5);
    assert_int_equal(out.rel[0].reg, 9);
    assert_int_equal(q.npend, 0);
}

static void test_bank_conflicts(void **state)
{
    uint64_t a[32];
    int l;
    (void)state;
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 4;
    assert_int_equal(ldst_bank_degree(a, 0xFFFFFFFFu, 4), 1);      /* unit stride */
    for (l = 0; l < 32; l++) a[l] = 0;
    assert_int_equal(ldst_bank_degree(a, 0xFFFFFFFFu, 4), 1);      /* broadcast */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 8;
    assert_int_equal(ldst_bank_degree(a, 0xFFFFFFFFu, 4), 2);      /* stride 2 words */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 128;
    assert_int_equal(ldst_bank_degree(a, 0xFFFFFFFFu, 4), 32);     /* same bank */
    assert_int_equal(ldst_bank_degree(a, 0x0000000Fu, 4), 4);      /* 4 active lanes */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 8;
    assert_int_equal(ldst_bank_degree(a, 0xFFFFFFFFu, 8), 2);      /* doubles: 2 half-warp phases */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_release_after_last_line),
        cmocka_unit_test(test_bank_conflicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
