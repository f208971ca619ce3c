/*
 * test_smem.c -- shared-memory banks and port: the conflict degree of an access (unit stride,
 * broadcast, strides, one bank, wide accesses in phases), the latency and interval it gives,
 * and the port shared with context traffic, demand first (and the grant time_skip wakes for).
 */
#include "testutil.h"
#include "sm/smem.h"

static void test_bank_conflicts(void **state)
{
    uint64_t a[32];
    int l;
    (void)state;
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 4;
    assert_int_equal(smem_bank_degree(a, 0xFFFFFFFFu, 4), 1);      /* unit stride */
    for (l = 0; l < 32; l++) a[l] = 0;
    assert_int_equal(smem_bank_degree(a, 0xFFFFFFFFu, 4), 1);      /* broadcast */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 8;
    assert_int_equal(smem_bank_degree(a, 0xFFFFFFFFu, 4), 2);      /* stride 2 words */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 128;
    assert_int_equal(smem_bank_degree(a, 0xFFFFFFFFu, 4), 32);     /* same bank */
    assert_int_equal(smem_bank_degree(a, 0x0000000Fu, 4), 4);      /* 4 active lanes */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 8;
    assert_int_equal(smem_bank_degree(a, 0xFFFFFFFFu, 8), 2);      /* doubles: 2 half-warp phases */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 16;
    assert_int_equal(smem_bank_degree(a, 0xFFFFFFFFu, 16), 4);     /* float4: 4 quarter-warps */
    assert_int_equal(smem_bank_degree(a, 0, 4), 1);                /* no lane: no conflict */
}

static struct smem_out tick(const struct smem_cfg *c, struct smem_regs *q, struct smem_in *in)
{
    struct smem_regs d = *q;
    struct smem_out o;
    smem_eval(c, q, in, &o, &d);
    smem_commit(c, q, &d);
    in->now++;
    in->dem_v = 0;
    return o;
}

/* A demand access with conflict degree 4 gives latency lat + 3 and interval 4 x ii; context
   traffic waits while the banks are busy and never takes a cycle with a demand access. */
static void test_port(void **state)
{
    struct smem_cfg c;
    struct smem_regs q;
    struct smem_in in;
    struct smem_out o;
    char err[128];
    (void)state;
    smem_cfg_default(&c);
    c.lat = 20;
    c.ii = 2;
    assert_int_equal(smem_cfg_check(&c, err, sizeof err), 0);
    smem_reset(&c, &q);
    memset(&in, 0, sizeof in);
    in.now = 100;
    in.ctx_v = 1;
    in.dem_v = 1;
    in.dem_mask = 0xF;
    in.dem_bytes = 4;
    for (int l = 0; l < 4; l++)
        in.dem_addr[l] = (uint64_t)l * 128;                         /* 4 lanes, one bank */
    o = tick(&c, &q, &in);
    assert_int_equal(o.deg, 4);
    assert_int_equal(o.lat, 23);
    assert_int_equal(o.ii, 8);
    assert_int_equal(o.ctx_grant, 0);                              /* demand first */
    for (int t = 101; t < 108; t++) {                               /* banks busy to 108 */
        assert_int_equal(smem_next_event(&c, &q, in.now), 108);    /* time_skip's wake */
        assert_int_equal(tick(&c, &q, &in).ctx_grant, 0);
    }
    assert_int_equal(tick(&c, &q, &in).ctx_grant, 1);
    c.ii = 0;
    assert_int_equal(smem_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "ii 0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
