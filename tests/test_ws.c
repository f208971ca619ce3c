/*
 * test_ws.c -- cmocka tests for model/sm/ws.c: LRR order, GTO greediness and oldest choice,
 * two-level demotion and promotion, age reset by new warps, configuration errors, purity of
 * eval (d == q on entry, q untouched) and a randomised check against a slow reference.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sm/ws.h"

struct tb { struct ws_cfg c; struct ws_regs q, d; struct ws_out o; };

static void tb_init(struct tb *t, unsigned policy, unsigned nslots, unsigned active)
{
    char err[128];
    memset(t, 0, sizeof *t);
    ws_cfg_default(&t->c);
    t->c.policy = (uint8_t)policy;
    t->c.nslots = (uint8_t)nslots;
    t->c.active = (uint8_t)active;
    assert_int_equal(ws_cfg_check(&t->c, err, sizeof err), 0);
    ws_reset(&t->c, &t->q);
    t->d = t->q;
}

/* One cycle; returns the issued slot or -1. */
static int step(struct tb *t, uint32_t valid, uint32_t ready, uint32_t fresh, uint32_t lstall)
{
    struct ws_in in = {valid, ready, fresh, lstall};
    struct ws_regs q0 = t->q;
    ws_eval(&t->c, &t->q, &in, &t->o, &t->d);
    assert_memory_equal(&q0, &t->q, sizeof q0);       /* eval never writes q */
    ws_commit(&t->c, &t->q, &t->d);
    assert_memory_equal(&t->q, &t->d, sizeof t->q);
    return t->o.issue_v ? t->o.issue_slot : -1;
}

static void test_lrr_order(void **st)
{
    (void)st;
    struct tb t;
    tb_init(&t, WS_LRR, 4, 1);
    int exp[] = {0, 1, 2, 3, 0, 1};
    for (unsigned i = 0; i < 6; i++)
        assert_int_equal(step(&t, 0xf, 0xf, 0, 0), exp[i]);
    /* last issued = 1: the next ready after it, wrapping */
    assert_int_equal(step(&t, 0xf, 0x1 | 0x8, 0, 0), 3);
    assert_int_equal(step(&t, 0xf, 0x1 | 0x8, 0, 0), 0);
    assert_int_equal(step(&t, 0xf, 0x1 | 0x8, 0, 0), 3);
    /* nothing ready: no issue, last unchanged */
    assert_int_equal(step(&t, 0xf, 0, 0, 0), -1);
    assert_int_equal(step(&t, 0xf, 0xf, 0, 0), 0);
    /* ready but not valid never issues */
    assert_int_equal(step(&t, 0x4, 0xf, 0, 0), 2);
    assert_int_equal(step(&t, 0x4, 0xb, 0, 0), -1);
}

static void test_lrr_full_width(void **st)
{
    (void)st;
    struct tb t;
    tb_init(&t, WS_LRR, 32, 1);
    uint32_t all = 0xffffffffu;
    for (unsigned i = 0; i < 70; i++)
        assert_int_equal(step(&t, all, all, 0, 0), (int)(i % 32));
    /* slots beyond nslots are ignored */
    tb_init(&t, WS_LRR, 5, 1);
    assert_int_equal(step(&t, all, 0xffffffe0u, 0, 0), -1);
}

static void test_gto_greedy_then_oldest(void **st)
{
    (void)st;
    struct tb t;
    tb_init(&t, WS_GTO, 8, 1);
    /* warps arrive in order: slot 5, then 2, then 7 (one per cycle) */
    assert_int_equal(step(&t, 0x20, 0, 0x20, 0), -1);
    assert_int_equal(step(&t, 0x24, 0, 0x04, 0), -1);
    assert_int_equal(step(&t, 0xa4, 0, 0x80, 0), -1);
    uint32_t v = 0xa4;
    /* all ready: oldest (5) first, then greedy on 5 */
    assert_int_equal(step(&t, v, v, 0, 0), 5);
    assert_int_equal(step(&t, v, v, 0, 0), 5);
    assert_int_equal(step(&t, v, v, 0, 0), 5);
    /* 5 stalls: next oldest (2), and stays on 2 even when 5 is ready again */
    assert_int_equal(step(&t, v, v & ~0x20u, 0, 0), 2);
    assert_int_equal(step(&t, v, v, 0, 0), 2);
    /* 2 stalls: oldest ready is 5 */
    assert_int_equal(step(&t, v, v & ~0x04u, 0, 0), 5);
    /* only the youngest ready */
    assert_int_equal(step(&t, v, 0x80, 0, 0), 7);
    assert_int_equal(step(&t, v, v, 0, 0), 7);
    /* slot 5 gets a new warp: it becomes the youngest */
    assert_int_equal(step(&t, v, 0, 0x20, 0), -1);
    assert_int_equal(step(&t, v, 0x24, 0, 0), 2);
    assert_int_equal(step(&t, v, 0x20 | 0x80, 0, 0), 7);
    assert_int_equal(step(&t, v, 0x20, 0, 0), 5);
}

static void test_gto_same_cycle_fresh(void **st)
{
    (void)st;
    struct tb t;
    tb_init(&t, WS_GTO, 8, 1);
    /* three warps in one cycle: lower slot is older */
    step(&t, 0x0e, 0, 0x0e, 0);
    assert_int_equal(step(&t, 0x0e, 0x0c, 0, 0), 2);
    assert_int_equal(step(&t, 0x0e, 0x0a, 0, 0), 1);
    /* a fresh warp in the greedy slot clears the greed */
    step(&t, 0x0e, 0, 0x02, 0);
    assert_int_equal(step(&t, 0x0e, 0x0e, 0, 0), 2);
}

static void test_twolevel(void **st)
{
    (void)st;
    struct tb t;
    tb_init(&t, WS_TWOLEVEL, 8, 2);
    uint32_t v = 0x0f;
    step(&t, v, 0, v, 0);                       /* four warps, age 0 < 1 < 2 < 3 */
    /* active set = the two oldest ready (0, 1), round robin between them */
    assert_int_equal(step(&t, v, v, 0, 0), 0);
    assert_int_equal(t.q.act, 0x3u);
    assert_int_equal(step(&t, v, v, 0, 0), 1);
    assert_int_equal(step(&t, v, v, 0, 0), 0);
    assert_int_equal(step(&t, v, v, 0, 0), 1);
    /* 0 stalls on a long-latency load: demoted, oldest ready pending (2) promoted */
    assert_int_equal(step(&t, v, v & ~1u, 0, 1u), 2);
    assert_int_equal(t.q.act, 0x6u);
    assert_int_equal(step(&t, v, v & ~1u, 0, 1u), 1);
    assert_int_equal(step(&t, v, v & ~1u, 0, 1u), 2);
    /* 0 is ready again but pending: not scheduled while the active set is full */
    assert_int_equal(step(&t, v, v, 0, 0), 1);
    assert_int_equal(step(&t, v, v, 0, 0), 2);
    /* 1 and 2 stall: 0 (oldest) and 3 promoted; round robin goes on after 2 */
    assert_int_equal(step(&t, v, 0x9, 0, 0x6), 3);
    assert_int_equal(t.q.act, 0x9u);
    assert_int_equal(step(&t, v, 0x9, 0, 0x6), 0);
    /* an active warp that is merely not ready (short stall) stays active */
    assert_int_equal(step(&t, v, 0x8, 0, 0), 3);
    assert_int_equal(t.q.act, 0x9u);
    /* active warp finishes (no longer valid): leaves, 1 promoted */
    assert_int_equal(step(&t, 0xe, 0xe, 0, 0), 1);
    assert_int_equal(t.q.act, 0xau);
    /* nothing pending ready: the set stays short */
    assert_int_equal(step(&t, 0xe, 0x2, 0, 0x8), 1);
    assert_int_equal(t.q.act, 0x2u);
}

static void test_cfg_errors(void **st)
{
    (void)st;
    struct ws_cfg c;
    char err[128];
    ws_cfg_default(&c);
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), 0);
    c.nslots = 33;
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "nslots"));
    ws_cfg_default(&c);
    c.policy = 9;
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "policy"));
    ws_cfg_default(&c);
    c.policy = WS_TWOLEVEL;
    c.active = 0;
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "active"));
    assert_string_equal(ws_policy_name(WS_GTO), "gto");
    assert_string_equal(ws_policy_name(77), "?");
}

/* ---- randomised check against a slow reference (explicit age list) ---- */

struct ref { int age[WS_MAX_SLOTS]; int clock; int last; int last_v; uint32_t act; };

static int ref_oldest(const struct ref *r, uint32_t cand)
{
    int best = -1;
    for (int i = 0; i < WS_MAX_SLOTS; i++)
        if ((cand >> i & 1u) && (best < 0 || r->age[i] < r->age[best]))
            best = i;
    return best;
}

static int ref_step(struct ref *r, const struct ws_cfg *c, uint32_t valid, uint32_t ready,
                    uint32_t fresh, uint32_t ls)
{
    uint32_t all = c->nslots >= 32 ? ~0u : (1u << c->nslots) - 1u;
    valid &= all;
    fresh &= all;
    ready &= valid;
    for (int i = 0; i < WS_MAX_SLOTS; i++)
        if (fresh >> i & 1u)
            r->age[i] = ++r->clock;
    int start = r->last_v ? (r->last + 1) % c->nslots : 0;   /* LRR keeps its position */
    if (c->policy == WS_GTO && r->last_v && (fresh >> r->last & 1u))
        r->last_v = 0;                                         /* GTO drops its greed */
    if (c->policy == WS_TWOLEVEL) {
        uint32_t act = r->act & valid & ~ls;
        while ((unsigned)__builtin_popcount(act) < c->active) {
            uint32_t cand = valid & ~act & ready & ~ls;
            if (!cand)
                break;
            act |= 1u << ref_oldest(r, cand);
        }
        r->act = act;
        ready &= act;
    }
    if (!ready)
        return -1;
    int pick = -1;
    if (c->policy == WS_GTO) {
        pick = (r->last_v && (ready >> r->last & 1u)) ? r->last : ref_oldest(r, ready);
    } else {
        for (int k = 0; k < 32 && pick < 0; k++) {
            int s = (start + k) % 32;
            if (ready >> s & 1u)
                pick = s;
        }
    }
    r->last = pick;
    r->last_v = 1;
    return pick;
}

static void test_random_vs_reference(void **st)
{
    (void)st;
    srand(12345);
    for (unsigned pol = 0; pol < WS_NPOLICY; pol++) {
        for (unsigned rep = 0; rep < 20; rep++) {
            struct tb t;
            struct ref r;
            unsigned n = 1 + (unsigned)rand() % 32;
            tb_init(&t, pol, n, 1 + (unsigned)rand() % n);
            memset(&r, 0, sizeof r);
            for (int i = 0; i < WS_MAX_SLOTS; i++)
                r.age[i] = i - 1000;              /* reset order: lower slot older */
            uint32_t valid = 0;
            for (unsigned cyc = 0; cyc < 2000; cyc++) {
                uint32_t fresh = (rand() % 8 == 0) ? (uint32_t)rand() & (uint32_t)rand() : 0;
                valid = (valid | fresh) & ~((rand() % 16 == 0) ? (uint32_t)rand() : 0u);
                uint32_t ready = (uint32_t)rand() | (uint32_t)rand();
                uint32_t ls = (uint32_t)rand() & (uint32_t)rand() & ~ready;
                int exp = ref_step(&r, &t.c, valid, ready, fresh, ls);
                int got = step(&t, valid, ready, fresh, ls);
                if (exp != got)
                    fail_msg("policy %u n %u cycle %u: expected %d got %d", pol, n, cyc, exp, got);
                if (pol == WS_TWOLEVEL)
                    assert_int_equal(t.q.act, r.act);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr_order),
        cmocka_unit_test(test_lrr_full_width),
        cmocka_unit_test(test_gto_greedy_then_oldest),
        cmocka_unit_test(test_gto_same_cycle_fresh),
        cmocka_unit_test(test_twolevel),
        cmocka_unit_test(test_cfg_errors),
        cmocka_unit_test(test_random_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
