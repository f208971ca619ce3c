/*
 * test_ntb.c -- VTW's next-TB-index unit (model/sm/ntb.h; 000_0da6b8b480bd0740.txt Sec. 4.2):
 * the first warp of a virtual TB to finish its iteration takes a new logical index from the GPU
 * counter and the others take the same one; several requests in one cycle see each other; the
 * lane policies (LowestToHighest: finishing order; SlowestLane: the slowest warp's index goes
 * to the first finisher; a partial warp keeps its index); a launch resets the TB slot; replies
 * come lat - 1 cycles after the request; time_skip's drift, skip and next event against
 * ticking; the storage the paper counts (44 B on Fermi with the
 * GPU counter); bad configuration.
 */
#include "testutil.h"
#include "sm/ntb.h"
#include "base/config.h"
#include "base/cost.h"
#include "gpu/cta.h"

struct unit {
    struct ntb_cfg c;
    struct ntb_regs q, d;
    struct ntb_in in;
    struct ntb_out out;
    uint32_t gnext;
};

static void unit_init(struct unit *u, uint8_t lane, uint8_t lat, uint8_t nw, uint8_t nfull)
{
    memset(u, 0, sizeof *u);
    ntb_cfg_default(&u->c);
    u->c.lane = lane;
    u->c.lat = lat;
    assert_int_equal(ntb_cfg_check(&u->c, (char[128]){0}, 128), 0);
    ntb_reset(&u->c, &u->q);
    u->in.nw = nw;
    u->in.nfull = nfull;
}

/* One cycle: the GPU counter advances by the takes. */
static void unit_cycle(struct unit *u)
{
    u->d = u->q;
    u->in.gnext = u->gnext;
    ntb_eval(&u->c, &u->q, &u->in, &u->out, &u->d);
    ntb_commit(&u->c, &u->q, &u->d);
    u->gnext += u->out.gtake;
    memset(u->in.req, 0, sizeof u->in.req);
    u->in.launch_v = 0;
}

static void launch(struct unit *u, uint8_t cta, uint8_t base)
{
    u->in.launch_v = 1;
    u->in.launch_cta = cta;
    u->in.launch_base = base;
}

static void req(struct unit *u, unsigned port, uint8_t op, uint8_t cta, uint8_t base, uint8_t warp)
{
    u->in.req[port] = (struct ntb_req){ 1, op, cta, (uint8_t)(base + warp), warp, 7, ~0u };
}

/* Serve one request alone at lat 1; returns the reply value. */
static uint32_t ask(struct unit *u, uint8_t op, uint8_t cta, uint8_t base, uint8_t warp)
{
    req(u, 0, op, cta, base, warp);
    unit_cycle(u);
    assert_true(u->out.rep[0].v);
    assert_int_equal(u->out.rep[0].ctx, base + warp);
    assert_int_equal(u->out.rep[0].addlane, op == NTB_OP_IDX);
    return u->out.rep[0].val;
}

static void test_first_takes_new_others_share(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, NTB_SAME, 1, 3, 3);
    launch(&u, 0, 0), unit_cycle(&u);
    launch(&u, 1, 3), unit_cycle(&u);
    u.gnext = 10;
    assert_int_equal(ask(&u, NTB_OP_TB, 0, 0, 2), 10);       /* first of TB 0: new */
    assert_int_equal(u.gnext, 11);
    assert_int_equal(ask(&u, NTB_OP_TB, 1, 3, 0), 11);       /* first of TB 1: new */
    assert_int_equal(ask(&u, NTB_OP_TB, 0, 0, 0), 10);       /* the others of TB 0 share */
    assert_int_equal(ask(&u, NTB_OP_TB, 0, 0, 1), 10);
    assert_int_equal(u.gnext, 12);
    assert_int_equal(ask(&u, NTB_OP_TB, 0, 0, 1), 12);       /* every warp had it: next one */
    assert_int_equal(u.q.cnt[0], 2);
}

static void test_same_cycle_requests(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, NTB_SAME, 1, 2, 2);
    launch(&u, 0, 0), unit_cycle(&u);
    launch(&u, 1, 2), unit_cycle(&u);
    req(&u, 0, NTB_OP_TB, 0, 0, 0);
    req(&u, 1, NTB_OP_TB, 0, 0, 1);                          /* sees port 0's take */
    req(&u, 2, NTB_OP_TB, 1, 2, 0);                          /* the next index */
    unit_cycle(&u);
    assert_int_equal(u.out.gtake, 2);
    assert_int_equal(u.out.rep[0].val, 0);
    assert_int_equal(u.out.rep[1].val, 0);
    assert_int_equal(u.out.rep[2].val, 1);
}

static void test_lowest_to_highest(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, NTB_LOWEST, 1, 4, 4);
    launch(&u, 0, 8), unit_cycle(&u);
    for (unsigned i = 0; i < 4; i++)                         /* the first index: in order */
        ask(&u, NTB_OP_TB, 0, 8, (uint8_t)i);
    static const uint8_t finish[4] = { 3, 1, 0, 2 };
    for (unsigned k = 0; k < 4; k++) {                       /* finishing order 3, 1, 0, 2 */
        ask(&u, NTB_OP_TB, 0, 8, finish[k]);
        assert_int_equal(ask(&u, NTB_OP_IDX, 0, 8, finish[k]), k * 32);
    }
}

static void test_slowest_lane(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, NTB_SLOWEST, 1, 4, 4);
    launch(&u, 0, 0), unit_cycle(&u);
    for (unsigned i = 0; i < 4; i++)
        ask(&u, NTB_OP_TB, 0, 0, (uint8_t)i);
    /* progress in the iteration: warp 2 slowest, then 0, 3, 1 */
    u.in.prog[0] = 50; u.in.prog[1] = 90; u.in.prog[2] = 10; u.in.prog[3] = 60;
    ask(&u, NTB_OP_TB, 0, 0, 1);                            /* the first to finish ... */
    assert_int_equal(ask(&u, NTB_OP_IDX, 0, 0, 1), 2 * 32); /* ... takes the slowest's index */
    u.in.prog[2] = 999;                                     /* the order was frozen */
    ask(&u, NTB_OP_TB, 0, 0, 3);
    assert_int_equal(ask(&u, NTB_OP_IDX, 0, 0, 3), 0 * 32);
    ask(&u, NTB_OP_TB, 0, 0, 2);
    assert_int_equal(ask(&u, NTB_OP_IDX, 0, 0, 2), 3 * 32);
    ask(&u, NTB_OP_TB, 0, 0, 0);
    assert_int_equal(ask(&u, NTB_OP_IDX, 0, 0, 0), 1 * 32);
}

static void test_partial_warp_keeps_index(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, NTB_LOWEST, 1, 3, 2);                      /* warp 2 holds < 32 threads */
    launch(&u, 0, 0), unit_cycle(&u);
    for (unsigned i = 0; i < 3; i++)
        ask(&u, NTB_OP_TB, 0, 0, (uint8_t)i);
    ask(&u, NTB_OP_TB, 0, 0, 2);                             /* first to finish: partial */
    assert_int_equal(ask(&u, NTB_OP_IDX, 0, 0, 2), 2 * 32);
    ask(&u, NTB_OP_TB, 0, 0, 1);
    assert_int_equal(ask(&u, NTB_OP_IDX, 0, 0, 1), 0);       /* the full warps: 0, 1 */
    ask(&u, NTB_OP_TB, 0, 0, 0);
    assert_int_equal(ask(&u, NTB_OP_IDX, 0, 0, 0), 32);
}

static void test_latency(void **state)
{
    struct unit u;
    (void)state;
    unit_init(&u, NTB_SAME, 5, 1, 1);
    launch(&u, 0, 0), unit_cycle(&u);
    req(&u, 0, NTB_OP_TB, 0, 0, 0);
    for (unsigned t = 0; t < 4; t++) {                       /* presented at t = 0 */
        unit_cycle(&u);
        assert_false(u.out.rep[0].v);
    }
    unit_cycle(&u);                                          /* t = lat - 1 */
    assert_true(u.out.rep[0].v);
    unit_cycle(&u);
    assert_false(u.out.rep[0].v);
}

/* time_skip (model/sm/sm_sleep.c) against ticking: while a reply is in flight, a cycle without
   a request moves only the pipeline's head (ntb_drift 1), ntb_next_event names the cycle that
   presents the reply, ntb_skip(n) is n such cycles; the presenting cycle changes the pipeline
   (-1); at lat 2 the head stays (0). */
static void test_time_skip(void **state)
{
    struct unit u, v;
    (void)state;
    unit_init(&u, NTB_SAME, 8, 1, 1);
    launch(&u, 0, 0), unit_cycle(&u);
    req(&u, 0, NTB_OP_TB, 0, 0, 0);
    unit_cycle(&u);                                          /* cycle 0: presented */
    for (uint64_t t = 1; t < 7; t++) {
        struct ntb_regs q = u.q;
        assert_int_equal(ntb_next_event(&u.c, &u.q, t), 7);
        if (t == 2) {
            v = u;
            ntb_skip(&v.c, &v.q, 3);
        }
        unit_cycle(&u);
        assert_false(u.out.rep[0].v);
        assert_int_equal(ntb_drift(&u.c, &q, &u.q), 1);
        if (t == 4)                                          /* cycles 2, 3, 4 */
            assert_memory_equal(&v.q, &u.q, sizeof u.q);
    }
    {
        struct ntb_regs q = u.q;
        assert_int_equal(ntb_next_event(&u.c, &u.q, 7), UINT64_MAX);   /* due now, not later */
        unit_cycle(&u);                                      /* cycle 7 */
        assert_true(u.out.rep[0].v);
        assert_int_equal(ntb_drift(&u.c, &q, &u.q), -1);
    }
    unit_init(&u, NTB_SAME, 2, 1, 1);
    launch(&u, 0, 0), unit_cycle(&u);
    for (unsigned t = 0; t < 3; t++) {
        struct ntb_regs q = u.q;
        unit_cycle(&u);
        assert_int_equal(ntb_drift(&u.c, &q, &u.q), 0);
    }
}

/* Section 4.5 on Fermi (8 TBs, 48 warps): (8 * 4) + (8 * 1) + 4 = 44 bytes -- the map and the
   counts from ntb's declaration, the GPU counter from the dispatcher's. */
static void test_storage_44_bytes(void **state)
{
    struct gpu_config conf;
    struct ntb_cfg c;
    struct cta_cfg cc;
    struct cost_list l;
    char err[CONF_ERR_LEN];
    uint64_t bits = 0;
    (void)state;
    conf_defaults(&conf);
    assert_int_equal(conf_load_file(&conf, "configs/gtx480.cfg", err, sizeof err), 0);
    assert_int_equal(conf_set(&conf, "vtw=hw", "--set", err, sizeof err), 0);
    ntb_cfg_from(&conf, 0, 0, &c);
    cta_cfg_from(&conf, 0, 0, &cc);
    assert_int_equal(c.nctas, 8);
    cost_list_init(&l);
    ntb_storage(&c, &l);
    cta_storage(&cc, &l);
    for (unsigned i = 0; i < l.n; i++)
        if (l.it[i].mech && strcmp(l.it[i].mech, "index unit (000 Sec. 4.5)") == 0)
            bits += (uint64_t)l.it[i].entries * l.it[i].bits;
    assert_int_equal(bits, 44 * 8);
}

static void test_bad_config(void **state)
{
    struct ntb_cfg c;
    char err[256];
    (void)state;
    ntb_cfg_default(&c);
    c.lat = 0;
    assert_int_equal(ntb_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "lat 0");
    ntb_cfg_default(&c);
    c.lane = NTB_NLANE;
    assert_int_equal(ntb_cfg_check(&c, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_takes_new_others_share),
        cmocka_unit_test(test_same_cycle_requests),
        cmocka_unit_test(test_lowest_to_highest),
        cmocka_unit_test(test_slowest_lane),
        cmocka_unit_test(test_partial_warp_keeps_index),
        cmocka_unit_test(test_latency),
        cmocka_unit_test(test_time_skip),
        cmocka_unit_test(test_storage_44_bytes),
        cmocka_unit_test(test_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
