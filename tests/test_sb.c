/*
 * test_sb.c -- cmocka tests for model/sm/sb.c: reserve / release / check, same-cycle order
 * (set-VWI, release, reserve, check), VWI-mismatched writebacks ignored, folding of large
 * register indices, the count port, slots above 64 (128-slot scoreboards), bad ports, and a
 * randomised check against a reference (48 and 128 slots).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sm/sb.h"

struct tb { struct sb_cfg c; struct sb_regs q, d; struct sb_in in; struct sb_out o; };

static struct tb *tb_new(unsigned nslots, unsigned nregs)
{
    char err[128];
    struct tb *t = calloc(1, sizeof *t);
    assert_non_null(t);
    sb_cfg_default(&t->c);
    t->c.nslots = (uint8_t)nslots;
    t->c.nregs = (uint16_t)nregs;
    assert_int_equal(sb_cfg_check(&t->c, err, sizeof err), 0);
    sb_reset(&t->c, &t->q);
    t->d = t->q;
    return t;
}

/* One cycle with the ports set in t->in; clears the ports afterwards. Returns hazard. */
static slotmask cyc(struct tb *t)
{
    sb_eval(&t->c, &t->q, &t->in, &t->o, &t->d);
    sb_commit(&t->c, &t->q, &t->d);
    assert_memory_equal(&t->q, &t->d, sizeof t->q);
    memset(&t->in, 0, sizeof t->in);
    return t->o.hazard;
}

static void reserve(struct tb *t, unsigned port, unsigned slot, unsigned n, const uint16_t *r)
{
    t->in.res[port].v = 1;
    t->in.res[port].slot = (uint8_t)slot;
    t->in.res[port].n = (uint8_t)n;
    for (unsigned k = 0; k < n; k++)
        t->in.res[port].reg[k] = r[k];
}

static void release(struct tb *t, unsigned port, unsigned slot, unsigned vwi, unsigned reg)
{
    t->in.rel[port] = (struct sb_rel){1, (uint8_t)slot, (uint8_t)vwi, (uint16_t)reg};
}

static void check(struct tb *t, unsigned slot, unsigned n, const uint16_t *r)
{
    t->in.chk_v |= slot_bit(slot);
    t->in.chk_n[slot] = (uint8_t)n;
    for (unsigned k = 0; k < n; k++)
        t->in.chk_reg[slot][k] = r[k];
}

static void test_reserve_release_check(void **st)
{
    (void)st;
    struct tb *t = tb_new(48, 256);
    uint16_t dst[2] = {5, 6}, src[3] = {1, 5, 9}, other[2] = {1, 2}, dst6[1] = {6};
    /* reserve (the SM's latched issue) is seen by the same cycle's check */
    reserve(t, 0, 3, 2, dst);
    check(t, 3, 3, src);
    check(t, 4, 3, src);            /* another slot: independent */
    assert_true(cyc(t) == 1ull << 3);
    /* unrelated registers: no hazard */
    check(t, 3, 2, other);
    assert_true(cyc(t) == 0);
    /* destination pending = WAW hazard too */
    check(t, 3, 1, dst6);
    assert_true(cyc(t) == 1ull << 3);
    /* release of 5 in the same cycle as the check: the dependent may issue now */
    release(t, 0, 3, 3, 5);
    check(t, 3, 3, src);
    assert_true(cyc(t) == 0);
    assert_int_equal(t->o.ev_rel, 1);
    check(t, 3, 1, dst6);
    assert_true(cyc(t) == 1ull << 3);
    release(t, 1, 3, 3, 6);
    check(t, 3, 1, dst6);
    assert_true(cyc(t) == 0);
    /* both reserve ports, two slots, in one cycle */
    reserve(t, 0, 0, 1, dst);
    reserve(t, 1, 47, 1, dst);
    check(t, 0, 1, dst);
    check(t, 47, 1, dst);
    check(t, 1, 1, dst);
    assert_true(cyc(t) == (1ull | 1ull << 47));
    free(t);
}

static void test_vector_dests_and_count(void **st)
{
    (void)st;
    struct tb *t = tb_new(48, 256);
    uint16_t v4[4] = {10, 11, 12, 13};
    reserve(t, 1, 7, 4, v4);
    t->in.cnt_v = 1;
    t->in.cnt_slot = 7;
    cyc(t);
    assert_int_equal(t->o.cnt, 4);
    for (unsigned k = 0; k < 4; k++)
        release(t, k, 7, 7, v4[k]);
    t->in.cnt_v = 1;
    t->in.cnt_slot = 7;
    cyc(t);
    assert_int_equal(t->o.cnt, 0);
    assert_int_equal(t->o.ev_rel, 4);
    free(t);
}

static void test_vwi(void **st)
{
    (void)st;
    struct tb *t = tb_new(48, 256);
    uint16_t r[1] = {20};
    assert_int_equal(t->q.vwi[9], 9);          /* baseline: VWI = slot */
    reserve(t, 0, 9, 1, r);
    cyc(t);
    /* a writeback tagged with another VWI does not clear the bit */
    release(t, 0, 9, 200, 20);
    check(t, 9, 1, r);
    assert_true(cyc(t) == 1ull << 9);
    assert_int_equal(t->o.ev_rel_stale, 1);
    assert_int_equal(t->o.ev_rel, 0);
    /* the slot goes to virtual warp 130 (CTA swap): its bits are cleared; the old warp's
       writeback in the same cycle is ignored, the new warp's reserve in the same cycle kept */
    t->in.setvwi = 1ull << 9;
    t->in.setvwi_vwi[9] = 130;
    release(t, 0, 9, 9, 20);
    reserve(t, 0, 9, 1, (const uint16_t[]){21});
    check(t, 9, 1, r);
    assert_true(cyc(t) == 0);
    assert_int_equal(t->q.vwi[9], 130);
    assert_int_equal(t->o.ev_rel_stale, 1);
    check(t, 9, 1, (const uint16_t[]){21});
    assert_true(cyc(t) == 1ull << 9);
    /* late writeback of the old owner (VWI 9): ignored; the new owner's (130): clears */
    release(t, 0, 9, 9, 21);
    check(t, 9, 1, (const uint16_t[]){21});
    assert_true(cyc(t) == 1ull << 9);
    release(t, 0, 9, 130, 21);
    check(t, 9, 1, (const uint16_t[]){21});
    assert_true(cyc(t) == 0);
    free(t);
}

static void test_folding(void **st)
{
    (void)st;
    struct tb *t = tb_new(48, 256);
    /* 300 folds onto 44 (mod 256): a false dependence, never a missed one */
    reserve(t, 0, 2, 1, (const uint16_t[]){300});
    check(t, 2, 1, (const uint16_t[]){44});
    assert_true(cyc(t) == 1ull << 2);
    check(t, 2, 1, (const uint16_t[]){300});
    assert_true(cyc(t) == 1ull << 2);
    check(t, 2, 1, (const uint16_t[]){45});
    assert_true(cyc(t) == 0);
    release(t, 0, 2, 2, 300);
    check(t, 2, 2, (const uint16_t[]){44, 300});
    assert_true(cyc(t) == 0);
    /* the largest index (65535) and a 64-bit scoreboard */
    reserve(t, 0, 2, 1, (const uint16_t[]){65535});
    check(t, 2, 1, (const uint16_t[]){255});
    assert_true(cyc(t) == 1ull << 2);
    free(t);
    t = tb_new(8, 64);
    reserve(t, 0, 1, 1, (const uint16_t[]){70});
    check(t, 1, 1, (const uint16_t[]){6});
    assert_true(cyc(t) == 1ull << 1);
    free(t);
}

static void test_bad_ports(void **st)
{
    (void)st;
    struct tb *t = tb_new(8, 256);
    char err[128];
    reserve(t, 0, 8, 1, (const uint16_t[]){1});        /* slot >= nslots */
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    release(t, 0, 63, 63, 1);
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    t->in.chk_v = 1ull << 40;
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    assert_true(t->o.hazard == 0);
    reserve(t, 0, 1, 4, (const uint16_t[]){1, 2, 3, 4});
    t->in.res[0].n = 9;                                /* more than SB_MAX_DST */
    cyc(t);
    assert_true(t->o.err & SB_E_COUNT);
    t->in.chk_v = 1ull << 1;
    t->in.chk_n[1] = 200;                              /* clipped to SB_MAX_CHK */
    cyc(t);
    assert_true(t->o.err & SB_E_COUNT);
    t->in.cnt_v = 1;
    t->in.cnt_slot = 60;
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    for (unsigned s = 0; s < 8; s++)
        for (unsigned w = 0; w < SB_WORDS; w++)
            assert_true(t->q.pend[s][w] == 0);
    free(t);
    struct sb_cfg c;
    sb_cfg_default(&c);
    c.nregs = 100;
    assert_int_equal(sb_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "power of two"));
    sb_cfg_default(&c);
    c.nregs = 512;
    assert_int_equal(sb_cfg_check(&c, err, sizeof err), -1);
    sb_cfg_default(&c);
    c.nslots = SM_MAX_SLOTS;
    assert_int_equal(sb_cfg_check(&c, err, sizeof err), 0);
    c.nslots = SM_MAX_SLOTS + 1;
    assert_int_equal(sb_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "nslots"));
    c.nslots = 0;
    assert_int_equal(sb_cfg_check(&c, err, sizeof err), -1);
}

/* Slots above 64: every port reaches slots 64..127, and none aliases slot s - 64. */
static void test_slots_above_64(void **st)
{
    (void)st;
    struct tb *t = tb_new(SM_MAX_SLOTS, 256);
    uint16_t r5[1] = {5}, r6[1] = {6};
    reserve(t, 0, 100, 1, r5);
    reserve(t, 1, 127, 1, r6);
    reserve(t, 2, 64, 1, r5);
    check(t, 100, 1, r5);
    check(t, 36, 1, r5);            /* 100 - 64: nothing pending there */
    check(t, 127, 1, r6);
    check(t, 63, 1, r6);
    check(t, 64, 1, r5);
    check(t, 0, 1, r5);
    assert_true(cyc(t) == (slot_bit(100) | slot_bit(127) | slot_bit(64)));
    assert_int_equal(t->o.err, 0);
    /* the count port and the VWI of a slot above 64 (baseline VWI = slot number) */
    t->in.cnt_v = 1;
    t->in.cnt_slot = 127;
    cyc(t);
    assert_int_equal(t->o.cnt, 1);
    assert_int_equal(t->q.vwi[127], 127);
    /* a writeback with the owner's VWI clears; the VWI of slot 36 does not clear slot 100 */
    release(t, 0, 100, 36, 5);
    release(t, 1, 127, 127, 6);
    check(t, 100, 1, r5);
    check(t, 127, 1, r6);
    assert_true(cyc(t) == slot_bit(100));
    assert_int_equal(t->o.ev_rel, 1);
    assert_int_equal(t->o.ev_rel_stale, 1);
    /* set-VWI on slots 64 and 100 clears their bits and retags them */
    t->in.setvwi = slot_bit(64) | slot_bit(100);
    t->in.setvwi_vwi[64] = 200;
    t->in.setvwi_vwi[100] = 201;
    check(t, 64, 1, r5);
    check(t, 100, 1, r5);
    assert_true(cyc(t) == 0);
    assert_int_equal(t->q.vwi[64], 200);
    assert_int_equal(t->q.vwi[100], 201);
    free(t);
    /* 100 slots: 100..127 are illegal on every port */
    t = tb_new(100, 64);
    reserve(t, 0, 110, 1, r5);
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    t->in.chk_v = slot_bit(120);
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    t->in.setvwi = slot_bit(99) | slot_bit(100);
    t->in.setvwi_vwi[99] = 7;
    t->in.setvwi_vwi[100] = 7;
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    assert_int_equal(t->q.vwi[99], 7);
    assert_int_equal(t->q.vwi[100], 100);      /* ignored */
    t->in.cnt_v = 1;
    t->in.cnt_slot = 100;
    cyc(t);
    assert_true(t->o.err & SB_E_SLOT);
    reserve(t, 0, 99, 1, r5);
    check(t, 99, 1, r5);
    assert_true(cyc(t) == slot_bit(99));
    assert_int_equal(t->o.err, 0);
    free(t);
}

/* Random ports against a reference: per slot a bool per folded register and a VWI. */
static void run_random(unsigned ns, unsigned nregs, unsigned seed, unsigned cycles)
{
    static uint8_t ref[SM_MAX_SLOTS][SB_MAX_REGS];
    uint8_t rvwi[SM_MAX_SLOTS];
    struct tb *t = tb_new(ns, nregs);
    memset(ref, 0, sizeof ref);
    for (unsigned s = 0; s < SM_MAX_SLOTS; s++)
        rvwi[s] = (uint8_t)s;
    srand(seed);
    for (unsigned cycn = 0; cycn < cycles; cycn++) {
        if (rand() % 50 == 0) {
            unsigned s = (unsigned)rand() % ns;
            t->in.setvwi |= slot_bit(s);
            t->in.setvwi_vwi[s] = (uint8_t)rand();
        }
        for (unsigned i = 0; i < SB_MAX_REL; i++)
            if (rand() % 3 == 0) {
                unsigned s = (unsigned)rand() % ns;
                release(t, i, s, rand() % 4 ? t->q.vwi[s] : (unsigned)rand() % 256,
                        (unsigned)rand() % 300);
            }
        for (unsigned i = 0; i < SB_RES_PORTS; i++)
            if (rand() % 2) {
                uint16_t r[SB_MAX_DST];
                unsigned n = (unsigned)rand() % (SB_MAX_DST + 1);
                for (unsigned k = 0; k < n; k++)
                    r[k] = (uint16_t)(rand() % 300);
                reserve(t, i, (unsigned)rand() % ns, n, r);
            }
        for (unsigned s = 0; s < ns; s++)
            if (rand() % 2) {
                unsigned n = (unsigned)rand() % (SB_MAX_CHK + 1);
                uint16_t r[SB_MAX_CHK];
                for (unsigned k = 0; k < n; k++)
                    r[k] = (uint16_t)(rand() % 300);
                check(t, s, n, r);
            }
        /* reference: same order */
        for (unsigned s = 0; s < ns; s++)
            if (slot_has(t->in.setvwi, s)) {
                memset(ref[s], 0, sizeof ref[s]);
                rvwi[s] = t->in.setvwi_vwi[s];
            }
        for (unsigned i = 0; i < SB_MAX_REL; i++)
            if (t->in.rel[i].v && t->in.rel[i].vwi == rvwi[t->in.rel[i].slot])
                ref[t->in.rel[i].slot][t->in.rel[i].reg % nregs] = 0;
        for (unsigned i = 0; i < SB_RES_PORTS; i++)
            if (t->in.res[i].v)
                for (unsigned k = 0; k < t->in.res[i].n; k++)
                    ref[t->in.res[i].slot][t->in.res[i].reg[k] % nregs] = 1;
        slotmask exp = 0;
        for (unsigned s = 0; s < ns; s++)
            if (slot_has(t->in.chk_v, s))
                for (unsigned k = 0; k < t->in.chk_n[s]; k++)
                    if (ref[s][t->in.chk_reg[s][k] % nregs])
                        exp |= slot_bit(s);
        slotmask got = cyc(t);
        if (got != exp)
            fail_msg("%u slots, cycle %u: hazard %016llx%016llx expected %016llx%016llx", ns,
                     cycn, (unsigned long long)(got >> 64), (unsigned long long)got,
                     (unsigned long long)(exp >> 64), (unsigned long long)exp);
        assert_int_equal(t->o.err, 0);
    }
    free(t);
}

static void test_random_vs_reference(void **st)
{
    (void)st;
    run_random(48, 128, 777, 20000);
    run_random(SM_MAX_SLOTS, 64, 778, 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserve_release_check),
        cmocka_unit_test(test_vector_dests_and_count),
        cmocka_unit_test(test_vwi),
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_bad_ports),
        cmocka_unit_test(test_slots_above_64),
        cmocka_unit_test(test_random_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
