/*
 * test_kgen.c -- the priority-key generator: GTO as keys (the scheduler's last issued slot
 * gets key 1, every other 0), a new warp in that slot drops its greed, schedulers are
 * independent; widest-split-first (KGEN_WIDEST, DWS under GTO) puts each slot's width above
 * the greedy bit; the registry instantiates it only for keyed policies; bad configuration.
 */
#include "testutil.h"
#include "base/config.h"
#include "sm/kgen.h"

static void tick(const struct kgen_cfg *c, struct kgen_regs *q, struct kgen_in *in,
                 struct kgen_out *o)
{
    struct kgen_regs d = *q;
    kgen_eval(c, q, in, o, &d);
    kgen_commit(c, q, &d);
    memset(in, 0, sizeof *in);
}

static unsigned nonzero(const struct kgen_cfg *c, const struct kgen_out *o, unsigned k, int *slot)
{
    unsigned n = 0;
    for (unsigned i = 0; i < c->nslots[k]; i++)
        if (o->key[k][i]) {
            n++;
            *slot = (int)i;
        }
    return n;
}

static void test_gto_keys(void **state)
{
    struct kgen_cfg c;
    struct kgen_regs q;
    struct kgen_in in;
    struct kgen_out o;
    int slot = -1;
    (void)state;
    kgen_cfg_default(&c);
    c.nsched = 2;
    c.nslots[0] = c.nslots[1] = 64;
    kgen_reset(&c, &q);
    memset(&in, 0, sizeof in);
    tick(&c, &q, &in, &o);
    assert_int_equal(nonzero(&c, &o, 0, &slot), 0);              /* nothing issued yet */
    in.issue_v = 1;
    in.issue_slot[0] = 40;
    tick(&c, &q, &in, &o);
    assert_int_equal(nonzero(&c, &o, 0, &slot), 1);
    assert_int_equal(slot, 40);
    assert_int_equal(o.key[0][40], 1);
    assert_int_equal(nonzero(&c, &o, 1, &slot), 0);              /* scheduler 1 untouched */
    tick(&c, &q, &in, &o);
    assert_int_equal(o.key[0][40], 1);                           /* greed stays */
    in.fresh[0] = slot_bit(40);                                  /* a new warp in slot 40 */
    tick(&c, &q, &in, &o);
    assert_int_equal(nonzero(&c, &o, 0, &slot), 0);
    tick(&c, &q, &in, &o);
    assert_int_equal(nonzero(&c, &o, 0, &slot), 0);              /* until the next issue */
    in.issue_v = 2;
    in.issue_slot[1] = 3;
    tick(&c, &q, &in, &o);
    assert_int_equal(o.key[1][3], 1);
}

/* KGEN_WIDEST: the key is the slot's active lanes above GTO's greedy bit -- the widest slot
   first, the last issued among equal widths. */
static void test_widest_keys(void **state)
{
    struct kgen_cfg c;
    struct kgen_regs q;
    struct kgen_in in;
    struct kgen_out o;
    struct gpu_config g;
    (void)state;
    kgen_cfg_default(&c);
    c.policy = KGEN_WIDEST;
    kgen_reset(&c, &q);
    memset(&in, 0, sizeof in);
    in.issue_v = 1;
    in.issue_slot[0] = 5;
    in.width[0][2] = 32;
    in.width[0][5] = 16;
    in.width[0][7] = 16;
    tick(&c, &q, &in, &o);
    assert_int_equal(o.key[0][2], 64);
    assert_int_equal(o.key[0][5], 33);                           /* greedy among the 16s */
    assert_int_equal(o.key[0][7], 32);
    assert_int_equal(o.key[0][3], 0);
    conf_defaults(&g);
    g.dws = DWS_BRANCH;                                          /* DWS under gto */
    assert_int_equal(kgen_instances(&g), 1);
    kgen_cfg_from(&g, 0, 0, &c);
    assert_int_equal(c.policy, KGEN_WIDEST);
    g.sched_policy = SCHED_LRR;                                  /* other policies: none */
    assert_int_equal(kgen_instances(&g), 0);
}

static void test_registry_and_cfg(void **state)
{
    struct gpu_config g;
    struct kgen_cfg c;
    char err[128];
    (void)state;
    conf_defaults(&g);
    assert_int_equal(kgen_instances(&g), 0);                     /* gto: ws's own policy */
    g.sched_policy = SCHED_GTO_PRIO;
    assert_int_equal(kgen_instances(&g), 1);
    kgen_cfg_from(&g, 0, 0, &c);
    assert_int_equal(kgen_cfg_check(&c, err, sizeof err), 0);
    assert_int_equal(c.nslots[0] + c.nslots[1], 48);
    c.nslots[1] = 0;
    assert_int_equal(kgen_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "scheduler 1: nslots 0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gto_keys),
        cmocka_unit_test(test_widest_keys),
        cmocka_unit_test(test_registry_and_cfg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
