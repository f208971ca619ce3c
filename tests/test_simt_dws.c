/*
 * test_simt_dws.c -- cmocka tests of the SIMT stack's ports for dynamic warp subdivision
 * (model/sm/simt.c; 002_ddcb2f79a6edfee4.txt, slides "Implementation: DWS upon branch
 * divergence" and "Reconvergence challenges"; the model: /work/wt/dws-design.md sections 1
 * and 3): the branch split on the update port, the regime level (hold / hdepth, lvl, arr:
 * an arrived slot does not pop, an empty one parks at its rpc), the memory split, merge and
 * release ports with their errors, a nested region inside a split, an exit inside a split,
 * the lanes of a split warp reconverging at G and popping, save / restore of the regime
 * registers, and their storage (priced only with DWS on).
 */
#include "simt_tb.h"
#include "base/cost.h"

#define G 10u                      /* the reconvergence point of the regime */

/* Warp 0 (32 lanes, VWI 0) diverges at pc 0 (taken 0xffff to 5, R = G, no split): pc 5,
   rpc G, depth 2 (SYNC (G), DIV (1, G, 0xffff0000)). */
static struct tb *regime_tb_dws(unsigned dws)
{
    struct tb *t = tb_new(SIMT_TOKEN, 16, 4);
    t->c.dws = (uint8_t)dws;
    launch(t, 0, 0xffffffffu);
    step(t);
    upd(t, 0, 0, SIMT_BRANCH, 0xffffu, 5, G, 0);
    step(t);
    assert_int_equal(t->o.pc[0], 5);
    assert_int_equal(simt_depth(&t->q, 0), 2);
    assert_true(t->o.lvl == 0 && t->o.arr == 0);
    return t;
}

static struct tb *regime_tb(void)
{
    return regime_tb_dws(1);
}

static void split_upd(struct tb *t, unsigned port, unsigned w, uint32_t taken, uint32_t target,
                      unsigned slot, unsigned img)
{
    upd(t, port, w, SIMT_BRANCH, taken, target, 99, 0);
    t->in.upd[port].split_v = 1;
    t->in.upd[port].split_slot = (uint8_t)slot;
    t->in.upd[port].split_img = (uint8_t)img;
}

static void normal(struct tb *t, unsigned w)
{
    upd(t, 0, w, SIMT_NORMAL, 0, 0, 0, 0);
    step(t);
    assert_int_equal(t->o.err, 0);
}

/* Warp 0 of regime_tb split at pc 5: taken 0xff to 8 stay in 0, 0xff00 go to slot 3 at 6. */
static struct tb *split_tb(void)
{
    struct tb *t = regime_tb();
    split_upd(t, 0, 0, 0xffu, 8, 3, 40);
    step(t);
    assert_int_equal(t->o.err, 0);
    return t;
}

static void test_branch_split(void **st)
{
    (void)st;
    struct tb *t = split_tb();
    assert_int_equal(t->o.pc[0], 8);
    assert_int_equal(t->o.mask[0], 0xff);
    assert_int_equal(t->q.alive[0], 0xffff00ffu);
    assert_int_equal(t->o.pc[3], 6);
    assert_int_equal(t->o.mask[3], 0xff00);
    assert_int_equal(t->q.alive[3], 0xff00);
    assert_int_equal(t->q.rpc[3], G);
    assert_int_equal(t->q.rpc[0], G);
    assert_int_equal(t->q.vwi[3], 40);
    assert_int_equal(t->o.ev_push, 0);               /* no push: the table holds the split */
    assert_int_equal(simt_depth(&t->q, 0), 2);
    assert_int_equal(simt_depth(&t->q, 3), 0);
    assert_true(t->q.hold == (slot_bit(0) | slot_bit(3)));
    assert_int_equal(t->q.hdepth[0], 2);
    assert_int_equal(t->q.hdepth[3], 0);
    assert_true(t->o.lvl == (slot_bit(0) | slot_bit(3)));
    assert_true(t->o.arr == 0);
    assert_true(t->o.redirect == (slot_bit(0) | slot_bit(3)));
    assert_true(slot_has(t->q.live, 3) && !slot_has(t->o.fin | t->o.busy, 3));
    /* split_v on a uniform outcome: a normal branch */
    upd(t, 0, 3, SIMT_BRANCH, 0xff00u, 7, 99, 0);
    t->in.upd[0].split_v = 1;
    t->in.upd[0].split_slot = 5;
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->o.pc[3], 7);
    assert_false(slot_has(t->q.live, 5));
    free(t);
}

/* The split in slot 3 merges into the home, released in the same cycle: the home pops the
   DIV entry of regime_tb (lanes 16..31, which waited in it, run from pc 1). */
static void merge_release_pop(struct tb *t)
{
    t->in.merge = (struct simt_merge){1, 0, 3};
    t->in.rel = (struct simt_rel){1, 0};
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_false(slot_has(t->q.live, 3));
    assert_int_equal(t->q.hold, 0);
    assert_true(slot_has(t->o.busy, 0) && slot_has(t->q.popq, 0));
    step(t);                                         /* the pending pop: the DIV entry */
    assert_int_equal(t->o.ev_pop, 1);
    assert_int_equal(t->o.pc[0], 1);
    assert_int_equal(t->o.mask[0], 0xffff0000u);
    assert_false(slot_has(t->o.fin, 0));
}

/* Both parts reach G: arrived (no pop, busy), merged into the home and released in one
   cycle: the home pops (the DIV, then later the SYNC) as the warp would have. */
static void test_reconverge_at_g_and_pop(void **st)
{
    (void)st;
    struct tb *t = split_tb();
    normal(t, 0);                                    /* 8 -> 9 */
    normal(t, 0);                                    /* 9 -> G: arrived */
    assert_int_equal(t->o.pc[0], G);
    assert_int_equal(t->o.ev_pop, 0);
    assert_true(slot_has(t->o.arr, 0) && slot_has(t->o.busy, 0));
    assert_false(slot_has(t->q.popq, 0));
    upd(t, 0, 0, SIMT_NORMAL, 0, 0, 0, 0);           /* an arrived slot takes no update */
    step(t);
    assert_int_equal(t->o.err, SIMT_E_BUSY);
    for (unsigned k = 0; k < 4; k++)
        normal(t, 3);                                /* 6 .. G */
    assert_true(t->o.arr == (slot_bit(0) | slot_bit(3)));
    merge_release_pop(t);
    assert_int_equal(t->q.alive[0], 0xffffffffu);    /* the split's lanes are back */
    for (unsigned k = 1; k < G; k++)
        normal(t, 0);
    assert_int_equal(t->o.pc[0], G);                 /* the SYNC: the whole warp again */
    assert_int_equal(t->o.mask[0], 0xffffffffu);
    assert_int_equal(simt_depth(&t->q, 0), 0);
    assert_true(t->o.lvl == 0 && t->o.busy == 0);
    free(t);
}

/* A nested region inside a split behaves as a baseline warp, then the slot is back at its
   regime level and arrives at G. */
static void test_nested_region_in_split(void **st)
{
    (void)st;
    struct tb *t = split_tb();
    upd(t, 0, 3, SIMT_BRANCH, 0x0f00u, 8, 9, 0);     /* at 6: taken to 8, R = 9 */
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(simt_depth(&t->q, 3), 2);       /* SYNC (9, G), DIV (7, 9) */
    assert_false(slot_has(t->o.lvl, 3));
    assert_int_equal(t->o.mask[3], 0x0f00);
    normal(t, 3);                                    /* 8 -> 9 = R: pop the DIV */
    assert_int_equal(t->o.pc[3], 7);
    assert_int_equal(t->o.mask[3], 0xf000);
    normal(t, 3);                                    /* 7 -> 8 */
    normal(t, 3);                                    /* 8 -> 9: pop the SYNC: back at level */
    assert_int_equal(t->o.pc[3], 9);
    assert_int_equal(t->o.mask[3], 0xff00);
    assert_int_equal(simt_depth(&t->q, 3), 0);
    assert_true(slot_has(t->o.lvl, 3) && !slot_has(t->o.arr, 3));
    normal(t, 3);                                    /* 9 -> G: arrived, no pop */
    assert_true(slot_has(t->o.arr, 3));
    assert_int_equal(t->o.ev_pop, 0);
    assert_int_equal(t->o.err, 0);
    free(t);
}

/* Exits inside a split: a slot at its regime level whose lanes all exit parks at G with an
   empty mask (not finished); one whose lanes exit inside a nested region unwinds to its
   regime level and parks there. */
static void test_exit_in_split(void **st)
{
    (void)st;
    struct tb *t = split_tb();
    upd(t, 0, 3, SIMT_EXIT, 0, 0, 0, 0xff00u);
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->o.pc[3], G);
    assert_int_equal(t->o.mask[3], 0);
    assert_false(slot_has(t->o.fin, 3));
    assert_true(slot_has(t->o.arr, 3) && slot_has(t->o.busy, 3));
    upd(t, 0, 0, SIMT_BRANCH, 0x0fu, 20, 21, 0);     /* home: nested region at 8 (R 21) */
    step(t);
    assert_int_equal(simt_depth(&t->q, 0), 4);
    assert_false(slot_has(t->o.lvl, 0));
    upd(t, 0, 0, SIMT_EXIT, 0, 0, 0, 0x0fu);         /* its taken lanes exit: pop the DIV */
    step(t);
    assert_int_equal(t->o.pc[0], 9);
    assert_int_equal(t->o.mask[0], 0xf0);
    upd(t, 0, 0, SIMT_EXIT, 0, 0, 0, 0xf0u);         /* the rest: back at level, parked */
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(simt_depth(&t->q, 0), 2);
    assert_int_equal(t->o.pc[0], G);
    assert_int_equal(t->o.mask[0], 0);
    assert_false(slot_has(t->o.fin, 0));
    assert_true(slot_has(t->o.arr, 0));
    merge_release_pop(t);                            /* (the split is empty) */
    free(t);
}

static void test_memory_split(void **st)
{
    (void)st;
    struct tb *t = regime_tb();                      /* warp 0 at 5, mask 0xffff, not held */
    t->in.split = (struct simt_msplit){1, 0, 7, 0x00f0u, 41};
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->o.pc[7], 5);
    assert_int_equal(t->o.mask[7], 0xf0);
    assert_int_equal(t->q.rpc[7], G);
    assert_int_equal(t->q.vwi[7], 41);
    assert_int_equal(t->o.mask[0], 0xff0f);
    assert_int_equal(t->q.alive[0], 0xffffff0fu);
    assert_int_equal(t->o.pc[0], 5);
    assert_true(t->q.hold == (slot_bit(0) | slot_bit(7)));
    assert_int_equal(t->q.hdepth[0], 2);
    assert_true(slot_has(t->o.redirect, 7) && !slot_has(t->o.redirect, 0));
    /* refused: all of src's lanes, a live dst, a src with an update now, no lanes */
    static const struct simt_msplit bad[] = {
        {1, 0, 8, 0xff0fu, 1}, {1, 0, 7, 0x000fu, 1}, {1, 0, 0, 0x000fu, 1},
        {1, 0, 8, 0, 1}, {1, 0, 8, 0x10000u, 1}, {1, 60, 8, 1, 1}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct simt_regs before = t->q;
        t->in.split = bad[i];
        step(t);
        assert_int_equal(t->o.err, SIMT_E_SPLIT);
        assert_memory_equal(&before, &t->q, sizeof before);
    }
    t->in.split = (struct simt_msplit){1, 0, 8, 0x000fu, 1};
    upd(t, 0, 0, SIMT_NORMAL, 0, 0, 0, 0);
    step(t);
    assert_int_equal(t->o.err, SIMT_E_SPLIT);
    assert_false(slot_has(t->q.live, 8));
    free(t);
}

/* Branch split errors: s in a nested region of the regime, a dst that is not free: the
   branch is done as a normal branch (pushes), SIMT_E_SPLIT. */
static void test_split_errors(void **st)
{
    (void)st;
    struct tb *t = split_tb();
    upd(t, 0, 3, SIMT_BRANCH, 0x0f00u, 8, 9, 0);     /* 3 into a nested region */
    step(t);
    split_upd(t, 0, 3, 0x0100u, 9, 5, 2);            /* not at its regime level */
    t->in.upd[0].reconv = 9;
    step(t);
    assert_int_equal(t->o.err, SIMT_E_SPLIT);
    assert_int_equal(t->o.err_slot, 3);
    assert_false(slot_has(t->q.live, 5));
    assert_int_equal(t->o.pc[3], 7);   /* target pc + 1: all at 9 = R, the DIV pops */
    assert_int_equal(t->o.mask[3], 0xf000);
    split_upd(t, 0, 0, 0x0fu, 20, 3, 2);             /* dst 3 is live */
    step(t);
    assert_int_equal(t->o.err, SIMT_E_SPLIT);
    assert_int_equal(t->o.ev_push, 2);
    assert_int_equal(t->o.mask[0], 0x0f);
    free(t);
}

static void test_merge_and_release(void **st)
{
    (void)st;
    struct tb *t = split_tb();                       /* 0 at 8, 3 at 6 */
    t->in.merge = (struct simt_merge){1, 0, 3};      /* different pcs, both with lanes */
    step(t);
    assert_int_equal(t->o.err, SIMT_E_MERGE);
    assert_true(slot_has(t->q.live, 3));
    t->in.rel = (struct simt_rel){1, 5};             /* not live */
    step(t);
    assert_int_equal(t->o.err, SIMT_E_REL);
    upd(t, 0, 0, SIMT_EXIT, 0, 0, 0, 0xffu);         /* the home's lanes all exit: parked */
    step(t);
    assert_int_equal(t->o.pc[0], G);
    assert_int_equal(t->o.mask[0], 0);
    t->in.merge = (struct simt_merge){1, 3, 0};      /* src 0 has entries: refused */
    step(t);
    assert_int_equal(t->o.err, SIMT_E_MERGE);
    t->in.merge = (struct simt_merge){1, 0, 3};      /* an empty dst takes src's pc */
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->o.pc[0], 6);
    assert_int_equal(t->o.mask[0], 0xff00);
    assert_true(slot_has(t->o.redirect, 0));
    assert_true(slot_has(t->o.lvl, 0) && !slot_has(t->o.arr, 0));
    t->in.rel = (struct simt_rel){1, 0};             /* release away from G: no pop */
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->q.hold, 0);
    assert_false(slot_has(t->o.busy, 0));
    for (unsigned k = 6; k < G; k++)
        normal(t, 0);
    assert_int_equal(t->o.pc[0], 1);                 /* at G: the DIV, as any warp */
    free(t);
}

/* A release of a parked slot without a live lane finishes it. */
static void test_release_empty_finishes(void **st)
{
    (void)st;
    struct tb *t = split_tb();
    upd(t, 0, 3, SIMT_EXIT, 0, 0, 0, 0xff00u);
    upd(t, 1, 0, SIMT_EXIT, 0, 0, 0, 0xffu);
    step(t);
    merge_release_pop(t);         /* both parked empty: alive still holds the DIV's lanes */
    upd(t, 0, 0, SIMT_EXIT, 0, 0, 0, 0xffff0000u);
    step(t);
    assert_true(slot_has(t->o.fin, 0));
    free(t);
    t = split_tb();                                  /* a held slot whose alive is empty */
    upd(t, 0, 3, SIMT_EXIT, 0, 0, 0, 0xff00u);
    step(t);
    t->in.rel = (struct simt_rel){1, 3};
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(slot_has(t->o.fin, 3));
    free(t);
}

static void test_save_restore_regime(void **st)
{
    (void)st;
    struct tb *t = split_tb();
    t->in.save_v = 1;
    t->in.save_slot = 0;
    step(t);
    assert_true(t->o.saved_v);
    assert_int_equal(t->o.saved.hold, 1);
    assert_int_equal(t->o.saved.hdepth, 2);
    struct simt_state s = t->o.saved;
    t->in.restore_v = 1;
    t->in.restore_slot = 9;
    t->in.restore = s;
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(slot_has(t->q.hold, 9));
    assert_int_equal(t->q.hdepth[9], 2);
    assert_true(slot_has(t->o.lvl, 9));
    normal(t, 9);
    normal(t, 9);                                    /* 9 -> G: arrived, no pop */
    assert_true(slot_has(t->o.arr, 9));
    free(t);
}

/* Without DWS (cfg.dws 0) the DWS inputs are not looked at: a split branch is a normal
   branch, the split / merge / release ports do nothing and flag nothing, a restored hold is
   dropped. */
static void test_dws_off_ignores_ports(void **st)
{
    (void)st;
    struct tb *t = regime_tb_dws(0);
    split_upd(t, 0, 0, 0xffu, 8, 3, 40);
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->o.ev_push, 2);               /* SYNC (99) and DIV */
    assert_false(slot_has(t->q.live, 3));
    t->in.split = (struct simt_msplit){1, 0, 7, 0x0fu, 41};
    t->in.merge = (struct simt_merge){1, 0, 0};
    t->in.rel = (struct simt_rel){1, 0};
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_false(slot_has(t->q.live, 7));
    assert_int_equal(t->q.hold, 0);
    struct simt_state s = {.pc = 3, .mask = 1, .rpc = 9, .alive = 1, .hold = 1, .hdepth = 0};
    t->in.restore_v = 1;
    t->in.restore_slot = 9;
    t->in.restore = s;
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(slot_has(t->q.live, 9));
    assert_int_equal(t->q.hold, 0);
    free(t);
}

static uint64_t dws_bits(const struct simt_cfg *c)
{
    static struct cost_list l;
    uint64_t n = 0;
    cost_list_init(&l);
    simt_storage(c, &l);
    for (uint32_t i = 0; i < l.n; i++)
        if (l.it[i].mech && !strcmp(l.it[i].mech, "DWS (002)"))
            n += l.it[i].entries * l.it[i].bits;
    return n;
}

static void test_storage_dws(void **st)
{
    (void)st;
    struct simt_cfg c;
    simt_cfg_default(&c);
    c.nwarps = 96;
    assert_int_equal(dws_bits(&c), 0);
    c.dws = 1;
    assert_int_equal(dws_bits(&c), 96 * (1 + 7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_branch_split),
        cmocka_unit_test(test_reconverge_at_g_and_pop),
        cmocka_unit_test(test_nested_region_in_split),
        cmocka_unit_test(test_exit_in_split),
        cmocka_unit_test(test_memory_split),
        cmocka_unit_test(test_split_errors),
        cmocka_unit_test(test_merge_and_release),
        cmocka_unit_test(test_release_empty_finishes),
        cmocka_unit_test(test_save_restore_regime),
        cmocka_unit_test(test_dws_off_ignores_ports),
        cmocka_unit_test(test_storage_dws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
