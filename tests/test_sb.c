/*
 * test_sb.c -- cmocka tests for model/sm/sb.c: reserve / release / check, same-cycle order
 * (set-VWI, release, reserve, check), VWI-mismatched writebacks ignored, folding of large
 * register indices, the count port, slots above 64 (128-slot scoreboards), bad ports, DWS's
 * ports (release by slot set, copy, merge, mchk / mok, any, their conflicts), and a randomised
 * check against a reference (48 and 128 slots, DWS ports included).
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
    t->c.dws = 1;
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
    t->in.rel[port] = (struct sb_rel){.v = 1, .slots = slot_bit(slot), .vwi = (uint8_t)vwi,
                                      .reg = (uint16_t)reg};
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
    sb_cfg_default(&c);
    c.dws = 2;
    assert_int_equal(sb_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dws"));
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

/* ------------------------------------------------------------------ DWS ports */

static int pending(const struct tb *t, unsigned slot, unsigned reg)
{
    unsigned b = reg & (t->c.nregs - 1u);
    return (int)(t->q.pend[slot][b >> 6] >> (b & 63) & 1u);
}

static unsigned row_count(const struct tb *t, unsigned slot)
{
    unsigned n = 0;
    for (unsigned w = 0; w < SB_WORDS; w++)
        n += (unsigned)__builtin_popcountll(t->q.pend[slot][w]);
    return n;
}

static void copy(struct tb *t, unsigned src, unsigned dst, unsigned n, const uint16_t *r)
{
    t->in.copy.v = 1;
    t->in.copy.src = (uint8_t)src;
    t->in.copy.dst = (uint8_t)dst;
    t->in.copy.n = (uint8_t)n;
    for (unsigned k = 0; k < n && k < SB_MAX_DST; k++)
        t->in.copy.reg[k] = r[k];
}

static void merge(struct tb *t, unsigned dst, unsigned src)
{
    t->in.merge = (struct sb_merge){1, (uint8_t)dst, (uint8_t)src};
}

/* A release names a set of slots: each whose VWI matches loses the bit. */
static void test_release_slot_set(void **st)
{
    (void)st;
    struct tb *t = tb_new(SM_MAX_SLOTS, 256);
    uint16_t r[1] = {12};
    /* slots 3, 70 and 100 hold warp 3's splits (VWI 3); slot 5 is another warp's */
    t->in.setvwi = slot_bit(70) | slot_bit(100);
    t->in.setvwi_vwi[70] = t->in.setvwi_vwi[100] = 3;
    cyc(t);
    reserve(t, 0, 3, 1, r);
    reserve(t, 1, 70, 1, r);
    reserve(t, 2, 100, 1, r);
    reserve(t, 3, 5, 1, r);
    cyc(t);
    t->in.rel[2] = (struct sb_rel){.v = 1, .slots = slot_bit(3) | slot_bit(70) | slot_bit(5),
                                   .vwi = 3, .reg = 12};
    cyc(t);
    assert_int_equal(pending(t, 3, 12), 0);
    assert_int_equal(pending(t, 70, 12), 0);
    assert_int_equal(pending(t, 100, 12), 1);     /* not named */
    assert_int_equal(pending(t, 5, 12), 1);       /* named, another VWI */
    assert_int_equal(t->o.ev_rel, 1);
    assert_int_equal(t->o.ev_rel_stale, 0);
    /* no named slot with the VWI: stale; no slot named: neither */
    t->in.rel[0] = (struct sb_rel){.v = 1, .slots = slot_bit(5) | slot_bit(6), .vwi = 3,
                                   .reg = 12};
    t->in.rel[1] = (struct sb_rel){.v = 1, .slots = 0, .vwi = 3, .reg = 12};
    cyc(t);
    assert_int_equal(t->o.ev_rel, 0);
    assert_int_equal(t->o.ev_rel_stale, 1);
    assert_int_equal(pending(t, 5, 12), 1);
    free(t);
    /* a set with a slot >= nslots: SB_E_SLOT, the whole release ignored */
    t = tb_new(8, 256);
    reserve(t, 0, 2, 1, r);
    cyc(t);
    t->in.rel[0] = (struct sb_rel){.v = 1, .slots = slot_bit(2) | slot_bit(8), .vwi = 2,
                                   .reg = 12};
    cyc(t);
    assert_int_equal(t->o.err, SB_E_SLOT);
    assert_int_equal(pending(t, 2, 12), 1);
    assert_int_equal(t->o.ev_rel + t->o.ev_rel_stale, 0);
    free(t);
}

/* copy: the new split's row is the source's at the start of the cycle minus the listed
   registers, with the source's VWI; releases of the same cycle see the copied row. */
static void test_copy(void **st)
{
    (void)st;
    struct tb *t = tb_new(96, 256);
    t->in.setvwi = slot_bit(4);
    t->in.setvwi_vwi[4] = 140;
    reserve(t, 0, 4, 3, (const uint16_t[]){3, 5, 7});
    reserve(t, 1, 60, 1, (const uint16_t[]){20});    /* the split slot's stale row */
    cyc(t);
    /* same cycle: a reserve into src (after the copy), a release of src's 3 (src only) and a
       release of 7 naming the new slot (it has src's VWI from this cycle on) */
    copy(t, 4, 60, 2, (const uint16_t[]){5, 256 + 9});   /* 265 folds onto 9 (not pending) */
    reserve(t, 0, 4, 1, (const uint16_t[]){11});
    release(t, 0, 4, 140, 3);
    release(t, 1, 60, 140, 7);
    cyc(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->q.vwi[60], 140);
    assert_int_equal(t->q.vwi[4], 140);
    assert_int_equal(pending(t, 60, 3), 1);    /* copied from q: src's release came after */
    assert_int_equal(pending(t, 60, 5), 0);    /* left out */
    assert_int_equal(pending(t, 60, 7), 0);    /* released in dst after the copy */
    assert_int_equal(pending(t, 60, 11), 0);   /* reserved after the copy */
    assert_int_equal(pending(t, 60, 20), 0);   /* the old row is overwritten */
    assert_int_equal(row_count(t, 60), 1);
    assert_int_equal(pending(t, 4, 3), 0);
    assert_int_equal(pending(t, 4, 5), 1);
    assert_int_equal(pending(t, 4, 7), 1);     /* the release named slot 60 only */
    assert_int_equal(pending(t, 4, 11), 1);
    assert_int_equal(row_count(t, 4), 3);
    free(t);
}

/* merge: dst |= src (both at the start of the cycle), src cleared, VWIs kept. */
static void test_merge(void **st)
{
    (void)st;
    struct tb *t = tb_new(96, 256);
    reserve(t, 0, 50, 2, (const uint16_t[]){1, 2});
    reserve(t, 1, 90, 2, (const uint16_t[]){3, 200});
    cyc(t);
    merge(t, 50, 90);
    reserve(t, 0, 90, 1, (const uint16_t[]){4});     /* after the merge: stays in 90 */
    release(t, 0, 50, 50, 3);                        /* after the merge: clears it in 50 */
    check(t, 90, 2, (const uint16_t[]){3, 200});
    assert_true(cyc(t) == 0);                        /* the check reads the next state */
    assert_int_equal(t->o.err, 0);
    assert_int_equal(pending(t, 50, 1), 1);
    assert_int_equal(pending(t, 50, 2), 1);
    assert_int_equal(pending(t, 50, 3), 0);
    assert_int_equal(pending(t, 50, 200), 1);
    assert_int_equal(row_count(t, 50), 3);
    assert_int_equal(pending(t, 90, 4), 1);
    assert_int_equal(row_count(t, 90), 1);
    assert_int_equal(t->q.vwi[50], 50);
    assert_int_equal(t->q.vwi[90], 90);
    /* the lower slot may be the source: the home 2 takes split 95 */
    reserve(t, 0, 2, 1, (const uint16_t[]){9});
    cyc(t);
    merge(t, 95, 2);
    cyc(t);
    assert_int_equal(row_count(t, 2), 0);
    assert_int_equal(pending(t, 95, 9), 1);
    free(t);
}

/* mchk / mok and any read the rows at the start of the cycle (q). */
static void test_mchk_any(void **st)
{
    (void)st;
    struct tb *t = tb_new(96, 256);
    reserve(t, 0, 10, 2, (const uint16_t[]){1, 130});
    reserve(t, 1, 80, 1, (const uint16_t[]){2});
    t->in.mchk = (struct sb_mchk){1, 10, 80};
    cyc(t);
    assert_int_equal(t->o.mok, 1);               /* both empty at the start of the cycle */
    assert_true(t->o.any == 0);
    t->in.mchk = (struct sb_mchk){1, 80, 10};
    reserve(t, 0, 80, 1, (const uint16_t[]){130});    /* seen from the next cycle on */
    cyc(t);
    assert_int_equal(t->o.mok, 1);
    assert_true(t->o.any == (slot_bit(10) | slot_bit(80)));
    t->in.mchk = (struct sb_mchk){1, 10, 80};
    release(t, 0, 80, 80, 2);
    release(t, 1, 80, 80, 130);
    cyc(t);
    assert_int_equal(t->o.mok, 0);               /* 130 in both */
    assert_true(t->o.any == (slot_bit(10) | slot_bit(80)));
    t->in.mchk = (struct sb_mchk){1, 10, 80};
    cyc(t);
    assert_int_equal(t->o.mok, 1);
    assert_true(t->o.any == slot_bit(10));
    t->in.mchk = (struct sb_mchk){0, 10, 80};    /* not asked: 0 */
    cyc(t);
    assert_int_equal(t->o.mok, 0);
    t->in.mchk = (struct sb_mchk){1, 10, 10};    /* a row against itself: empty only */
    cyc(t);
    assert_int_equal(t->o.mok, 0);
    t->in.mchk = (struct sb_mchk){1, 11, 11};
    cyc(t);
    assert_int_equal(t->o.mok, 1);
    /* without DWS built in (the baseline), any is 0; mok still answers */
    t->c.dws = 0;
    t->in.mchk = (struct sb_mchk){1, 10, 11};
    cyc(t);
    assert_true(t->o.any == 0);
    assert_int_equal(t->o.mok, 1);
    free(t);
}

/* Conflicting DWS ports: SB_E_DWS, the later port (set-VWI, copy, merge) ignored. */
static void test_dws_conflicts(void **st)
{
    (void)st;
    struct tb *t = tb_new(8, 256);
    reserve(t, 0, 1, 1, (const uint16_t[]){1});
    reserve(t, 1, 2, 1, (const uint16_t[]){2});
    reserve(t, 2, 3, 1, (const uint16_t[]){3});
    cyc(t);
    copy(t, 1, 1, 0, NULL);                      /* src == dst */
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    copy(t, 1, 8, 0, NULL);                      /* dst >= nslots */
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    merge(t, 2, 120);                            /* src >= nslots */
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    merge(t, 2, 2);
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    assert_int_equal(pending(t, 2, 2), 1);
    t->in.mchk = (struct sb_mchk){1, 1, 9};
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    assert_int_equal(t->o.mok, 0);
    copy(t, 1, 4, 5, (const uint16_t[]){0, 0, 0, 0});   /* n > SB_MAX_DST */
    cyc(t);
    assert_int_equal(t->o.err, SB_E_COUNT);
    assert_int_equal(row_count(t, 4), 0);
    /* set-VWI and copy on one row: the copy is ignored */
    t->in.setvwi = slot_bit(4);
    t->in.setvwi_vwi[4] = 77;
    copy(t, 1, 4, 0, NULL);
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    assert_int_equal(t->q.vwi[4], 77);
    assert_int_equal(row_count(t, 4), 0);
    /* set-VWI on the merge's source: the merge is ignored */
    t->in.setvwi = slot_bit(3);
    t->in.setvwi_vwi[3] = 3;
    merge(t, 2, 3);
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    assert_int_equal(row_count(t, 2), 1);
    reserve(t, 0, 3, 1, (const uint16_t[]){3});
    cyc(t);
    /* copy and merge into one row: the copy is done, the merge ignored */
    copy(t, 1, 5, 0, NULL);
    merge(t, 5, 3);
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    assert_int_equal(pending(t, 5, 1), 1);
    assert_int_equal(pending(t, 5, 3), 0);
    assert_int_equal(pending(t, 3, 3), 1);
    /* the merge's source is the copy's destination: ignored as well */
    copy(t, 1, 6, 0, NULL);
    merge(t, 2, 6);
    cyc(t);
    assert_int_equal(t->o.err, SB_E_DWS);
    assert_int_equal(pending(t, 6, 1), 1);
    assert_int_equal(row_count(t, 2), 1);
    /* copy and merge on different rows, one reading the other's source: both done */
    copy(t, 3, 7, 0, NULL);
    merge(t, 2, 3);
    cyc(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(pending(t, 7, 3), 1);
    assert_int_equal(pending(t, 2, 3), 1);
    assert_int_equal(row_count(t, 3), 0);
    free(t);
}

/* The reference: per slot a bool per folded register and a VWI. */
struct ref { uint8_t pend[SM_MAX_SLOTS][SB_MAX_REGS], vwi[SM_MAX_SLOTS]; };

/* Random DWS ports (legal: distinct slots, no row written twice) and multi-slot releases. */
static void random_dws(struct tb *t, unsigned ns)
{
    if (ns < 3)
        return;
    if (rand() % 8 == 0) {
        uint16_t r[SB_MAX_DST];
        unsigned n = (unsigned)rand() % (SB_MAX_DST + 1), src = (unsigned)rand() % ns;
        for (unsigned k = 0; k < n; k++)
            r[k] = (uint16_t)(rand() % 300);
        copy(t, src, (src + 1 + (unsigned)rand() % (ns - 1)) % ns, n, r);
    }
    if (rand() % 8 == 0) {
        unsigned dst = (unsigned)rand() % ns, src = (dst + 1 + (unsigned)rand() % (ns - 1)) % ns;
        if (!(t->in.copy.v && (t->in.copy.dst == dst || t->in.copy.dst == src)))
            merge(t, dst, src);
    }
    if (rand() % 2)
        t->in.mchk = (struct sb_mchk){1, (uint8_t)(rand() % ns), (uint8_t)(rand() % ns)};
    for (unsigned i = 0; i < SB_MAX_REL; i++)
        if (t->in.rel[i].v && rand() % 4 == 0)
            t->in.rel[i].slots |= slot_bit((unsigned)rand() % ns);
}

/* One cycle of the reference in sb's order; returns the expected hazard, sets *mok, *any. */
static slotmask ref_cycle(struct ref *f, const struct sb_in *in, unsigned ns, unsigned nregs,
                          uint8_t *mok, slotmask *any)
{
    static struct ref q;
    slotmask exp = 0;
    q = *f;
    *mok = 0;
    *any = 0;
    for (unsigned s = 0; s < ns; s++)
        for (unsigned b = 0; b < nregs; b++)
            if (q.pend[s][b])
                *any |= slot_bit(s);
    if (in->mchk.v) {
        *mok = 1;
        for (unsigned b = 0; b < nregs; b++)
            if (q.pend[in->mchk.a][b] && q.pend[in->mchk.b][b])
                *mok = 0;
    }
    for (unsigned s = 0; s < ns; s++)
        if (slot_has(in->setvwi, s)) {
            memset(f->pend[s], 0, sizeof f->pend[s]);
            f->vwi[s] = in->setvwi_vwi[s];
        }
    if (in->copy.v && !slot_has(in->setvwi, in->copy.dst)) {
        memcpy(f->pend[in->copy.dst], q.pend[in->copy.src], sizeof f->pend[0]);
        for (unsigned k = 0; k < in->copy.n; k++)
            f->pend[in->copy.dst][in->copy.reg[k] % nregs] = 0;
        f->vwi[in->copy.dst] = q.vwi[in->copy.src];
    }
    if (in->merge.v && !slot_has(in->setvwi, in->merge.dst) &&
        !slot_has(in->setvwi, in->merge.src))
        for (unsigned b = 0; b < nregs; b++) {
            f->pend[in->merge.dst][b] = q.pend[in->merge.dst][b] | q.pend[in->merge.src][b];
            f->pend[in->merge.src][b] = 0;
        }
    for (unsigned i = 0; i < SB_MAX_REL; i++)
        for (unsigned s = 0; s < ns; s++)
            if (in->rel[i].v && slot_has(in->rel[i].slots, s) && in->rel[i].vwi == f->vwi[s])
                f->pend[s][in->rel[i].reg % nregs] = 0;
    for (unsigned i = 0; i < SB_RES_PORTS; i++)
        if (in->res[i].v)
            for (unsigned k = 0; k < in->res[i].n; k++)
                f->pend[in->res[i].slot][in->res[i].reg[k] % nregs] = 1;
    for (unsigned s = 0; s < ns; s++)
        if (slot_has(in->chk_v, s))
            for (unsigned k = 0; k < in->chk_n[s]; k++)
                if (f->pend[s][in->chk_reg[s][k] % nregs])
                    exp |= slot_bit(s);
    return exp;
}

/* Random ports against the reference. */
static void run_random(unsigned ns, unsigned nregs, unsigned seed, unsigned cycles)
{
    static struct ref f;
    struct tb *t = tb_new(ns, nregs);
    memset(&f, 0, sizeof f);
    for (unsigned s = 0; s < SM_MAX_SLOTS; s++)
        f.vwi[s] = (uint8_t)s;
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
        random_dws(t, ns);
        uint8_t mok;
        slotmask any, exp = ref_cycle(&f, &t->in, ns, nregs, &mok, &any);
        int dws_conflict = t->in.copy.v && slot_has(t->in.setvwi, t->in.copy.dst);
        dws_conflict |= t->in.merge.v && (slot_has(t->in.setvwi, t->in.merge.dst) ||
                                          slot_has(t->in.setvwi, t->in.merge.src));
        slotmask got = cyc(t);
        if (got != exp)
            fail_msg("%u slots, cycle %u: hazard %016llx%016llx expected %016llx%016llx", ns,
                     cycn, (unsigned long long)(got >> 64), (unsigned long long)got,
                     (unsigned long long)(exp >> 64), (unsigned long long)exp);
        assert_int_equal(t->o.mok, mok);
        assert_true(t->o.any == any);
        assert_int_equal(t->o.err, dws_conflict ? SB_E_DWS : 0);
        for (unsigned s = 0; s < ns; s++) {
            assert_int_equal(t->q.vwi[s], f.vwi[s]);
            for (unsigned b = 0; b < nregs; b++)
                if (pending(t, s, b) != f.pend[s][b])
                    fail_msg("%u slots, cycle %u: slot %u bit %u", ns, cycn, s, b);
        }
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
        cmocka_unit_test(test_release_slot_set),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_mchk_any),
        cmocka_unit_test(test_dws_conflicts),
        cmocka_unit_test(test_random_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
