/*
 * test_ws.c -- cmocka tests for model/sm/ws.c: LRR order, GTO greediness and oldest choice,
 * two-level demotion and promotion, the priority-key policy (highest key, ties by age, fresh
 * slots youngest, keys of slots that cannot issue ignored, 128 slots), GTO == WS_PRIO with the
 * GTO key generator of docs/ws.md, age reset by new warps, configuration errors, purity of
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

/* One cycle with keys (NULL: all 0); returns the issued slot or -1. */
static int step_keys(struct tb *t, slotmask valid, slotmask ready, slotmask fresh,
                     slotmask lstall, const uint16_t *prio)
{
    struct ws_in in = {valid, ready, fresh, lstall, {0}};
    struct ws_regs q0 = t->q;
    if (prio)
        memcpy(in.prio, prio, sizeof in.prio);
    ws_eval(&t->c, &t->q, &in, &t->o, &t->d);
    assert_memory_equal(&q0, &t->q, sizeof q0);       /* eval never writes q */
    ws_commit(&t->c, &t->q, &t->d);
    assert_memory_equal(&t->q, &t->d, sizeof t->q);
    return t->o.issue_v ? t->o.issue_slot : -1;
}

static int step(struct tb *t, slotmask valid, slotmask ready, slotmask fresh, slotmask lstall)
{
    return step_keys(t, valid, ready, fresh, lstall, NULL);
}

/* The mask with slots a, b, c ... (list ending in -1). */
static slotmask slots(int first, ...)
{
    slotmask m = 0;
    va_list ap;
    va_start(ap, first);
    for (int s = first; s >= 0; s = va_arg(ap, int))
        m |= slot_bit((unsigned)s);
    va_end(ap);
    return m;
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
    tb_init(&t, WS_LRR, SM_MAX_SLOTS, 1);
    slotmask all = ~(slotmask)0;
    for (unsigned i = 0; i < 300; i++)
        assert_int_equal(step(&t, all, all, 0, 0), (int)(i % SM_MAX_SLOTS));
    /* across the 64-bit boundary: after 63 comes 100, then 5 (wrap) */
    tb_init(&t, WS_LRR, 128, 1);
    assert_int_equal(step(&t, all, slots(63, -1), 0, 0), 63);
    assert_int_equal(step(&t, all, slots(5, 100, -1), 0, 0), 100);
    assert_int_equal(step(&t, all, slots(5, 100, -1), 0, 0), 5);
    /* slots beyond nslots are ignored */
    tb_init(&t, WS_LRR, 5, 1);
    assert_int_equal(step(&t, all, ~slot_first(5), 0, 0), -1);
    tb_init(&t, WS_LRR, 70, 1);
    assert_int_equal(step(&t, all, ~slot_first(70), 0, 0), -1);
    assert_int_equal(step(&t, all, slots(69, 70, -1), 0, 0), 69);
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
    slotmask v = 0xa4;
    /* all ready: oldest (5) first, then greedy on 5 */
    assert_int_equal(step(&t, v, v, 0, 0), 5);
    assert_int_equal(step(&t, v, v, 0, 0), 5);
    assert_int_equal(step(&t, v, v, 0, 0), 5);
    /* 5 stalls: next oldest (2), and stays on 2 even when 5 is ready again */
    assert_int_equal(step(&t, v, v & ~(slotmask)0x20, 0, 0), 2);
    assert_int_equal(step(&t, v, v, 0, 0), 2);
    /* 2 stalls: oldest ready is 5 */
    assert_int_equal(step(&t, v, v & ~(slotmask)0x04, 0, 0), 5);
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
    slotmask v = 0x0f;
    step(&t, v, 0, v, 0);                       /* four warps, age 0 < 1 < 2 < 3 */
    /* active set = the two oldest ready (0, 1), round robin between them */
    assert_int_equal(step(&t, v, v, 0, 0), 0);
    assert_true(t.q.act == 0x3u);
    assert_int_equal(step(&t, v, v, 0, 0), 1);
    assert_int_equal(step(&t, v, v, 0, 0), 0);
    assert_int_equal(step(&t, v, v, 0, 0), 1);
    /* 0 stalls on a long-latency load: demoted, oldest ready pending (2) promoted */
    assert_int_equal(step(&t, v, v & ~(slotmask)1, 0, 1u), 2);
    assert_true(t.q.act == 0x6u);
    assert_int_equal(step(&t, v, v & ~(slotmask)1, 0, 1u), 1);
    assert_int_equal(step(&t, v, v & ~(slotmask)1, 0, 1u), 2);
    /* 0 is ready again but pending: not scheduled while the active set is full */
    assert_int_equal(step(&t, v, v, 0, 0), 1);
    assert_int_equal(step(&t, v, v, 0, 0), 2);
    /* 1 and 2 stall: 0 (oldest) and 3 promoted; round robin goes on after 2 */
    assert_int_equal(step(&t, v, 0x9, 0, 0x6), 3);
    assert_true(t.q.act == 0x9u);
    assert_int_equal(step(&t, v, 0x9, 0, 0x6), 0);
    /* an active warp that is merely not ready (short stall) stays active */
    assert_int_equal(step(&t, v, 0x8, 0, 0), 3);
    assert_true(t.q.act == 0x9u);
    /* active warp finishes (no longer valid): leaves, 1 promoted */
    assert_int_equal(step(&t, 0xe, 0xe, 0, 0), 1);
    assert_true(t.q.act == 0xau);
    /* nothing pending ready: the set stays short */
    assert_int_equal(step(&t, 0xe, 0x2, 0, 0x8), 1);
    assert_true(t.q.act == 0x2u);
}

/* ---- WS_PRIO ---- */

static void test_prio_highest_key(void **st)
{
    (void)st;
    struct tb t;
    uint16_t k[SM_MAX_SLOTS] = {0};
    tb_init(&t, WS_PRIO, 8, 1);
    slotmask v = 0xff;
    k[1] = 7; k[3] = 500; k[6] = 65535; k[4] = 500;
    assert_int_equal(step_keys(&t, v, v, 0, 0, k), 6);        /* the highest key */
    assert_int_equal(step_keys(&t, v, v, 0, 0, k), 6);        /* no rotation, no greed */
    /* keys of slots that cannot issue are ignored: 6 not ready, then not valid */
    assert_int_equal(step_keys(&t, v, v & ~slot_bit(6), 0, 0, k), 3);
    assert_int_equal(step_keys(&t, v & ~slot_bit(6), v, 0, 0, k), 3);
    /* only a low key is ready */
    assert_int_equal(step_keys(&t, v, slots(1, 0, -1), 0, 0, k), 1);
    /* a slot at or above nslots with the highest key is ignored */
    k[9] = 65535;
    assert_int_equal(step_keys(&t, ~(slotmask)0, ~(slotmask)0, 0, 0, k), 6);
    assert_int_equal(step_keys(&t, ~(slotmask)0, ~slot_bit(6), 0, 0, k), 3);
    /* nothing ready: no issue */
    assert_int_equal(step_keys(&t, v, 0, 0, 0, k), -1);
    /* WS_PRIO keeps no last-issued slot */
    assert_int_equal(t.q.last, 0);
    assert_int_equal(t.q.last_v, 0);
}

static void test_prio_ties_by_age(void **st)
{
    (void)st;
    struct tb t;
    uint16_t k[SM_MAX_SLOTS] = {0};
    tb_init(&t, WS_PRIO, 8, 1);
    /* all keys equal: the oldest ready slot, every cycle (reset age: lower is older) */
    assert_int_equal(step_keys(&t, 0xff, 0xff, 0, 0, k), 0);
    assert_int_equal(step_keys(&t, 0xff, 0xff, 0, 0, k), 0);
    assert_int_equal(step_keys(&t, 0xff, 0xfe, 0, 0, k), 1);
    /* slot 0 gets a new warp: it is the youngest now (and 1 is the oldest) */
    assert_int_equal(step_keys(&t, 0xff, 0x81, 0x01, 0, k), 7);
    assert_int_equal(step_keys(&t, 0xff, 0xff, 0, 0, k), 1);
    /* 2 and 5 get warps in the same cycle: both youngest, 2 older than 5, 0 older than both */
    step_keys(&t, 0xff, 0, slots(5, 2, -1), 0, k);
    assert_int_equal(step_keys(&t, 0xff, slots(0, 2, 5, -1), 0, 0, k), 0);
    assert_int_equal(step_keys(&t, 0xff, slots(2, 5, -1), 0, 0, k), 2);
    /* ties among the highest key only: 4 and 6 share the top key, 4 just got a new warp */
    step_keys(&t, 0xff, 0, slot_bit(4), 0, k);
    k[4] = k[6] = 9;
    k[1] = 8;
    assert_int_equal(step_keys(&t, 0xff, 0xff, 0, 0, k), 6);
    /* a fresh slot can issue in its first cycle, and is the youngest of its key */
    k[3] = 9;
    assert_int_equal(step_keys(&t, 0xff, slots(4, -1), slots(4, -1), 0, k), 4);
    assert_int_equal(step_keys(&t, 0xff, slots(3, 4, -1), 0, 0, k), 3);
    assert_int_equal(step_keys(&t, 0xff, slots(3, 4, -1), slots(3, -1), 0, k), 4);
}

static void test_prio_128_slots(void **st)
{
    (void)st;
    struct tb t;
    uint16_t k[SM_MAX_SLOTS] = {0};
    slotmask all = ~(slotmask)0;
    tb_init(&t, WS_PRIO, SM_MAX_SLOTS, 1);
    k[127] = 3; k[64] = 3; k[63] = 2; k[0] = 1;
    assert_int_equal(step_keys(&t, all, all, 0, 0, k), 64);   /* tie 64 / 127: 64 older */
    step_keys(&t, all, 0, slot_bit(64), 0, k);                /* 64 becomes the youngest */
    assert_int_equal(step_keys(&t, all, all, 0, 0, k), 127);
    assert_int_equal(step_keys(&t, all, all & ~slots(64, 127, -1), 0, 0, k), 63);
    /* every slot ready with one key each: the highest, wherever it is */
    for (unsigned i = 0; i < SM_MAX_SLOTS; i++)
        k[i] = (uint16_t)((i * 37) % SM_MAX_SLOTS);   /* a permutation of 0..127 */
    assert_int_equal(step_keys(&t, all, all, 0, 0, k), 83);     /* 83 * 37 % 128 == 127 */
    /* all equal: the oldest, after a warp arrived in each of 0..99 (100 is the oldest) */
    memset(k, 0, sizeof k);
    step_keys(&t, all, 0, slot_first(100), 0, k);
    assert_int_equal(step_keys(&t, all, all, 0, 0, k), 100);
    assert_int_equal(step_keys(&t, all, slot_first(100), 0, 0, k), 0);
    assert_int_equal(step_keys(&t, all, slot_first(100) & ~slot_first(99), 0, 0, k), 99);
}

static void test_cfg_errors(void **st)
{
    (void)st;
    struct ws_cfg c;
    char err[128];
    ws_cfg_default(&c);
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), 0);
    c.nslots = SM_MAX_SLOTS;
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), 0);
    c.nslots = SM_MAX_SLOTS + 1;
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "nslots"));
    c.nslots = 0;
    assert_int_equal(ws_cfg_check(&c, err, sizeof err), -1);
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
    assert_string_equal(ws_policy_name(WS_PRIO), "prio");
    assert_string_equal(ws_policy_name(77), "?");
}

/* ---- random stimulus shared by the randomised tests ---- */

static slotmask rand_mask(void)
{
    slotmask m = 0;
    for (unsigned i = 0; i < 5; i++)
        m = (m << 30) ^ (slotmask)(unsigned)rand();
    return m;
}

struct stim { slotmask valid, ready, fresh, lstall; };

/* Slots come and go, a new warp sometimes replaces a live one, ready and lstall are dense or
   sparse; keys per `kmode`: 0 all equal, 1 few distinct values, 2 any, 3 sticky. */
static void stim_next(struct stim *s, uint16_t *prio, unsigned kmode)
{
    s->fresh = (rand() % 8 == 0) ? rand_mask() & rand_mask() : 0;
    s->valid = (s->valid | s->fresh) & ~((rand() % 16 == 0) ? rand_mask() : 0);
    s->ready = rand() % 2 ? rand_mask() | rand_mask() : rand_mask() & rand_mask();
    s->lstall = rand_mask() & rand_mask() & ~s->ready;
    for (unsigned i = 0; i < SM_MAX_SLOTS; i++) {
        if (kmode == 0)
            prio[i] = 5;
        else if (kmode == 1)
            prio[i] = (uint16_t)(rand() % 3);
        else if (kmode == 2)
            prio[i] = (uint16_t)rand();
        else if (rand() % 16 == 0)
            prio[i] = (uint16_t)(rand() % 4 ? rand() % 4 : rand());
    }
}

/* ---- GTO == WS_PRIO with the GTO key generator (docs/ws.md) ---- */

/* The key generator: key 1 for the last issued slot unless a new warp arrived in it since
   (in this cycle or after its last issue), 0 for every other slot. */
struct gto_keys { unsigned last, last_v; };

static void gto_keys_make(const struct gto_keys *g, slotmask fresh, uint16_t *prio)
{
    memset(prio, 0, SM_MAX_SLOTS * sizeof prio[0]);
    if (g->last_v && !slot_has(fresh, g->last))
        prio[g->last] = 1;
}

static void gto_keys_next(struct gto_keys *g, slotmask fresh, const struct ws_out *o)
{
    if (o->issue_v) {
        g->last = o->issue_slot;
        g->last_v = 1;
    } else if (g->last_v && slot_has(fresh, g->last)) {
        g->last_v = 0;
    }
}

static void test_gto_equals_prio_with_gto_keys(void **st)
{
    (void)st;
    srand(4242);
    for (unsigned rep = 0; rep < 40; rep++) {
        struct tb gto, pri;
        struct gto_keys g = {0, 0};
        struct stim s = {0, 0, 0, 0};
        uint16_t prio[SM_MAX_SLOTS], junk[SM_MAX_SLOTS];
        unsigned n = rep < 4 ? (unsigned[]){1, 2, 64, 128}[rep] : 1 + (unsigned)rand() % 128;
        tb_init(&gto, WS_GTO, n, 1);
        tb_init(&pri, WS_PRIO, n, 1);
        for (unsigned cyc = 0; cyc < 3000; cyc++) {
            stim_next(&s, junk, 0);
            gto_keys_make(&g, s.fresh & slot_first(n), prio);
            int a = step(&gto, s.valid, s.ready, s.fresh, s.lstall);
            int b = step_keys(&pri, s.valid, s.ready, s.fresh, s.lstall, prio);
            if (a != b)
                fail_msg("n %u cycle %u: GTO issued %d, WS_PRIO with GTO keys %d", n, cyc, a, b);
            gto_keys_next(&g, s.fresh & slot_first(n), &pri.o);
            assert_memory_equal(gto.q.older, pri.q.older, sizeof gto.q.older);
            assert_int_equal(g.last_v, gto.q.last_v);
            if (g.last_v)
                assert_int_equal(g.last, gto.q.last);
        }
    }
}

/* ---- randomised check against a slow reference (explicit age stamps) ---- */

struct ref { int age[SM_MAX_SLOTS]; int clock; int last; int last_v; slotmask act; };

static int ref_oldest(const struct ref *r, slotmask cand)
{
    int best = -1;
    for (int i = 0; i < SM_MAX_SLOTS; i++)
        if (slot_has(cand, (unsigned)i) && (best < 0 || r->age[i] < r->age[best]))
            best = i;
    return best;
}

/* WS_PRIO by definition: the highest key, among equal keys the smallest age stamp. */
static int ref_prio(const struct ref *r, slotmask ready, const uint16_t *prio)
{
    int best = -1;
    for (int i = 0; i < SM_MAX_SLOTS; i++)
        if (slot_has(ready, (unsigned)i) &&
            (best < 0 || prio[i] > prio[best] || (prio[i] == prio[best] && r->age[i] < r->age[best])))
            best = i;
    return best;
}

static void ref_twolevel(struct ref *r, const struct ws_cfg *c, slotmask valid, slotmask *ready,
                         slotmask ls)
{
    slotmask act = r->act & valid & ~ls;
    while (slot_count(act) < c->active) {
        slotmask cand = valid & ~act & *ready & ~ls;
        if (!cand)
            break;
        act |= slot_bit((unsigned)ref_oldest(r, cand));
    }
    r->act = act;
    *ready &= act;
}

static int ref_step(struct ref *r, const struct ws_cfg *c, struct stim s, const uint16_t *prio)
{
    slotmask all = slot_first(c->nslots);
    slotmask valid = s.valid & all, fresh = s.fresh & all, ready = s.ready & valid;
    for (int i = 0; i < SM_MAX_SLOTS; i++)
        if (slot_has(fresh, (unsigned)i))
            r->age[i] = ++r->clock;
    int start = r->last_v ? (r->last + 1) % c->nslots : 0;   /* LRR keeps its position */
    if (c->policy == WS_GTO && r->last_v && slot_has(fresh, (unsigned)r->last))
        r->last_v = 0;                                         /* GTO drops its greed */
    if (c->policy == WS_TWOLEVEL)
        ref_twolevel(r, c, valid, &ready, s.lstall);
    if (!ready)
        return -1;
    if (c->policy == WS_PRIO)
        return ref_prio(r, ready, prio);
    int pick = -1;
    if (c->policy == WS_GTO) {
        pick = (r->last_v && slot_has(ready, (unsigned)r->last)) ? r->last : ref_oldest(r, ready);
    } else {
        for (int k = 0; k < SM_MAX_SLOTS && pick < 0; k++) {
            int i = (start + k) % SM_MAX_SLOTS;
            if (slot_has(ready, (unsigned)i))
                pick = i;
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
        for (unsigned rep = 0; rep < 24; rep++) {
            struct tb t;
            struct ref r;
            struct stim s = {0, 0, 0, 0};
            uint16_t prio[SM_MAX_SLOTS] = {0};
            unsigned n = rep < 3 ? (unsigned[]){1, 32, 128}[rep] : 1 + (unsigned)rand() % 128;
            tb_init(&t, pol, n, 1 + (unsigned)rand() % n);
            memset(&r, 0, sizeof r);
            for (int i = 0; i < SM_MAX_SLOTS; i++)
                r.age[i] = i - 1000;              /* reset order: lower slot older */
            for (unsigned cyc = 0; cyc < 2000; cyc++) {
                stim_next(&s, prio, rep % 4);
                int exp = ref_step(&r, &t.c, s, prio);
                int got = step_keys(&t, s.valid, s.ready, s.fresh, s.lstall, prio);
                if (exp != got)
                    fail_msg("policy %u n %u cycle %u: expected %d got %d", pol, n, cyc, exp, got);
                if (pol == WS_TWOLEVEL)
                    assert_true(t.q.act == r.act);
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
        cmocka_unit_test(test_prio_highest_key),
        cmocka_unit_test(test_prio_ties_by_age),
        cmocka_unit_test(test_prio_128_slots),
        cmocka_unit_test(test_gto_equals_prio_with_gto_keys),
        cmocka_unit_test(test_cfg_errors),
        cmocka_unit_test(test_random_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
