/*
 * test_simt_ctx.c -- cmocka tests of the SIMT stack's contexts apart from its slots
 * (model/sm/simt.c): the VWI a slot learns at launch and the spill addresses keyed by it,
 * the spill and fill data ports with the image outside the block (tests/simt_tb.h plays the
 * SM's image), slots above 64, and the save / restore ports of 004_23e173f444f46134.txt
 * Section III-IV (VT's CTA swap): the saved state field by field, every error case, and warps
 * that move between slots (also with entries in memory) going on exactly as they would have
 * without moving.
 */
#include "simt_tb.h"

static struct tb *tb_wide(unsigned policy, unsigned depth, unsigned chunk)
{
    struct tb *t = tb_new(policy, depth, chunk);
    t->c.nwarps = SM_MAX_SLOTS;
    return t;
}

/* The loop of build_loop exits at 101: warp w unwinds its whole stack, fills included (the
   requests at VWI v's image); returns the fills. */
static unsigned unwind(struct tb *t, unsigned w, unsigned v)
{
    unsigned fills = 0;
    upd(t, 0, w, SIMT_BRANCH, t->o.mask[w], 100, 0, 0);
    step(t);
    upd(t, 0, w, SIMT_BRANCH, 0, 90, 101, 0);
    step(t);
    for (unsigned k = 0; k < 40 && (slot_has(t->o.busy, w) || simt_depth(&t->q, w)); k++) {
        t->in.req_ready = 1;
        if (t->o.req_v && t->o.req.kind == MK_FILL)
            assert_true(t->o.req.addr + t->o.req.tag ==
                        t->c.spill_base + (uint64_t)v * t->c.spill_stride);
        if (slot_has(t->q.flw, w)) {
            t->in.fill_v = 1;
            t->in.fill_slot = (uint8_t)w;
        }
        step(t);
        assert_int_equal(t->o.err, 0);
        check_invariant(t, w);
        fills += t->o.ev_fill;
    }
    assert_int_equal(simt_depth(&t->q, w), 0);
    assert_int_equal(t->o.pc[w], 101);
    return fills;
}

/* ---------------- VWI, spill and fill data ---------------- */

static void test_vwi_addresses_and_image(void **st)
{
    (void)st;
    struct tb *t = tb_wide(SIMT_TOKEN, 4, 2);
    const unsigned w = 100, v = 201;               /* a slot above 64, a VWI above 128 */
    launch_vwi(t, w, 0xffffffffu, v);
    launch(t, 3, 0xffffffffu);                     /* a neighbour with VWI = slot */
    step(t);
    assert_int_equal(t->q.vwi[w], v);
    assert_int_equal(t->q.vwi[3], 3);
    assert_true(t->o.redirect == (slot_bit(w) | slot_bit(3)));
    build_loop(t, w, 3, 0);                        /* SYNC + 3 DIV: the array is full */
    struct simt_ent bottom[2] = {*tb_entry(t, w, 0), *tb_entry(t, w, 1)};
    upd(t, 1, w, SIMT_BRANCH, t->o.mask[w], 100, 0, 0);
    step(t);
    upd(t, 2, w, SIMT_BRANCH, t->o.mask[w] >> 1 & t->o.mask[w], 90, 101, 0);
    step(t);                                       /* the 5th entry: spill on port 2 */
    assert_int_equal(t->o.ev_spill, 1);
    assert_false(t->o.spill[0].v || t->o.spill[1].v || t->o.spill[3].v);
    assert_true(t->o.spill[2].v);
    assert_int_equal(t->o.spill[2].vwi, v);
    assert_int_equal(t->o.spill[2].idx, 0);
    assert_memory_equal(t->o.spill[2].ent, bottom, sizeof bottom);
    assert_memory_equal(t->img[v].e, bottom, sizeof bottom);   /* the bench wrote it */
    assert_int_equal(bottom[0].type, SIMT_SYNC);
    assert_true(t->o.req_v);
    assert_int_equal(t->o.req.kind, MK_SPILL);
    assert_true(t->o.req.addr + t->o.req.tag == t->c.spill_base + (uint64_t)v * t->c.spill_stride);
    assert_int_equal(t->o.req.warp, w);            /* the response comes back to the slot */
    drain(t, w);
    /* the loop exits: everything unwinds, the chunk comes back from VWI 201's image */
    assert_int_equal(unwind(t, w, v), 1);
    assert_true(t->o.mask[w] == 0xffffffffu);
    free(t);
}

/* A fill takes the data on its port, whatever the image held before the spill. */
static void test_fill_data_port(void **st)
{
    (void)st;
    struct tb *t = tb_wide(SIMT_IPDOM, 2, 2);
    launch_vwi(t, 70, 0xffffffffu, 5);
    step(t);
    upd(t, 0, 70, SIMT_BRANCH, 0x0000ffffu, 10, 50, 0);    /* SYNC1 + DIV1 */
    step(t);
    upd(t, 0, 70, SIMT_BRANCH, 0x000000ffu, 20, 40, 0);    /* SYNC2 + DIV2: spills 1 */
    step(t);
    drain(t, 70);
    assert_int_equal(t->q.nspill[70], 2);
    t->img[5].e[1].pc = 33;                                /* the memory changed meanwhile */
    upd(t, 0, 70, SIMT_EXIT, 0, 0, 0, 0x000000ffu);        /* pop DIV2 */
    step(t);
    upd(t, 0, 70, SIMT_EXIT, 0, 0, 0, 0x0000ff00u);        /* pop SYNC2, then fill, DIV1 */
    step(t);
    drain(t, 70);
    assert_int_equal(t->o.pc[70], 33);
    free(t);
}

static void test_image_helpers(void **st)
{
    (void)st;
    struct simt_cfg c;
    struct simt_out o;
    static struct simt_image img[4];
    struct simt_ent e[SIMT_MAX_CHUNK];
    unsigned v, i;
    simt_cfg_default(&c);
    assert_true(simt_image_addr(&c, 3, 5) == c.spill_base + 3 * c.spill_stride + 40);
    assert_int_equal(simt_image_locate(&c, simt_image_addr(&c, 3, 5), 4, &v, &i), 0);
    assert_int_equal(v, 3);
    assert_int_equal(i, 5);
    assert_int_equal(simt_image_locate(&c, simt_image_addr(&c, 4, 0), 4, &v, &i), -1);
    assert_int_equal(simt_image_locate(&c, c.spill_base - 8, 4, &v, &i), -1);
    assert_int_equal(simt_image_locate(&c, c.spill_base + 3, 4, &v, &i), -1);
    assert_int_equal(simt_image_locate(&c, simt_image_addr(&c, 0, SIMT_MAX_SPILL), 4, &v, &i),
                     -1);
    memset(&o, 0, sizeof o);
    o.spill[1] = (struct simt_spill){.v = 1, .vwi = 2, .idx = 4};
    o.spill[1].ent[3].pc = 77;
    o.spill[3] = (struct simt_spill){.v = 1, .vwi = 9, .idx = 0};   /* no such context */
    assert_int_equal(simt_image_write(&c, &o, img, 4), 1);
    assert_int_equal(img[2].e[7].pc, 77);
    struct mem_req r = {0};
    uint64_t a = simt_image_addr(&c, 2, 4);
    r.addr = a & ~127ull;
    r.tag = (uint32_t)(a & 127u);
    assert_int_equal(simt_image_read(&c, img, 4, &r, e), 0);
    assert_int_equal(e[3].pc, 77);
    r.addr = 0;
    r.tag = 0;
    assert_int_equal(simt_image_read(&c, img, 4, &r, e), -1);
}

/* ---------------- save and restore by hand ---------------- */

static void save(struct tb *t, unsigned w)
{
    t->in.save_v = 1;
    t->in.save_slot = (uint8_t)w;
}

static void restore(struct tb *t, unsigned w, const struct simt_state *s)
{
    t->in.restore_v = 1;
    t->in.restore_slot = (uint8_t)w;
    t->in.restore = *s;
}

static void test_save_restore_state(void **st)
{
    (void)st;
    struct tb *t = tb_wide(SIMT_TOKEN, 4, 2);
    const unsigned a = 5, b = 77;
    launch_vwi(t, a, 0xfffffff0u, 9);
    step(t);
    build_loop(t, a, 4, 0);                        /* SYNC + 4 DIV: 2 in memory, 3 on chip */
    drain(t, a);
    assert_int_equal(t->q.cnt[a], 3);
    assert_int_equal(t->q.nspill[a], 2);
    assert_int_equal(t->q.base[a], 2);             /* the ring has wrapped */
    struct simt_ent top[3] = {*tb_entry(t, a, 2), *tb_entry(t, a, 3), *tb_entry(t, a, 4)};
    uint32_t pc = t->o.pc[a], mask = t->o.mask[a], rpc = t->q.rpc[a];
    step(t);                                       /* not issued: savable next cycle */
    save(t, a);
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(t->o.saved_v);
    const struct simt_state s = t->o.saved;
    assert_int_equal(s.pc, pc);
    assert_true(s.mask == mask && s.rpc == rpc && s.alive == 0xfffffff0u);
    assert_int_equal(s.vwi, 9);
    assert_int_equal(s.fin, 0);
    assert_int_equal(s.cnt, 3);
    assert_int_equal(s.nspill, 2);
    assert_memory_equal(s.ent, top, sizeof top);
    for (unsigned k = 3; k < SIMT_MAX_DEPTH; k++)
        assert_true(s.ent[k].pc == 0 && s.ent[k].rpc == 0 && s.ent[k].mask == 0 &&
                    s.ent[k].type == 0);
    /* the slot is as a reset leaves it */
    assert_false(slot_has(t->q.live, a) || slot_has(t->q.fin, a) || slot_has(t->o.busy, a));
    assert_true(t->q.pc[a] == 0 && t->q.mask[a] == 0 && t->q.rpc[a] == SIMT_NO_PC &&
                t->q.alive[a] == 0 && t->q.vwi[a] == 0);
    assert_true(t->q.cnt[a] == 0 && t->q.nspill[a] == 0 && t->q.base[a] == 0);
    assert_true(t->o.redirect == 0);
    restore(t, b, &s);
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(t->o.redirect == slot_bit(b));
    assert_true(slot_has(t->q.live, b) && !slot_has(t->o.fin | t->o.busy, b));
    assert_true(t->o.pc[b] == pc && t->o.mask[b] == mask && t->q.rpc[b] == rpc);
    assert_true(t->q.alive[b] == 0xfffffff0u && t->q.vwi[b] == 9);
    assert_true(t->q.cnt[b] == 3 && t->q.nspill[b] == 2 && t->q.base[b] == 0);
    assert_memory_equal(t->q.stk[b], top, sizeof top);
    check_invariant(t, b);
    /* it goes on: the loop exits and unwinds, the spilled chunk from VWI 9's image */
    assert_int_equal(unwind(t, b, 9), 1);
    assert_true(t->o.mask[b] == 0xfffffff0u);
    free(t);
}

/* A state restored at its rpc pops in that cycle; a finished warp saves and restores as one. */
static void test_restore_pops_and_finished(void **st)
{
    (void)st;
    struct tb *t = tb_wide(SIMT_IPDOM, 4, 2);
    struct simt_state s;
    memset(&s, 0, sizeof s);
    s.pc = 6;
    s.rpc = 6;
    s.mask = s.alive = 0xffu;
    s.vwi = 40;
    s.cnt = 1;
    s.ent[0] = (struct simt_ent){.pc = 6, .rpc = SIMT_NO_PC, .mask = 0xffffu, .type = SIMT_SYNC};
    restore(t, 120, &s);
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_int_equal(t->o.ev_pop, 1);
    assert_int_equal(t->o.pc[120], 6);
    assert_true(t->o.mask[120] == 0xffu);         /* the entry's mask AND alive */
    assert_int_equal(t->q.rpc[120], SIMT_NO_PC);
    launch(t, 8, 0xffu);
    step(t);
    upd(t, 0, 8, SIMT_EXIT, 0, 0, 0, 0xffu);
    step(t);
    assert_true(slot_has(t->o.fin, 8));
    save(t, 8);                                    /* a finished warp can be saved */
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(t->o.saved_v && t->o.saved.fin == 1 && t->o.saved.mask == 0);
    s = t->o.saved;
    restore(t, 9, &s);
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(slot_has(t->q.live, 9) && slot_has(t->o.fin, 9) && !slot_has(t->o.busy, 9));
    free(t);
}

static void expect_err(struct tb *t, unsigned bits, unsigned slot)
{
    step(t);
    if (t->o.err != bits || t->o.err_slot != slot)
        fail_msg("err %#x slot %u, expected %#x slot %u", t->o.err, t->o.err_slot, bits, slot);
}

static void test_save_restore_errors(void **st)
{
    (void)st;
    struct tb *t = tb_new(SIMT_TOKEN, 4, 2);       /* 48 slots */
    struct simt_state s, good;
    launch(t, 1, 0xffffffffu);
    launch(t, 2, 0xffffffffu);
    step(t);
    save(t, 10);                                   /* not live */
    expect_err(t, SIMT_E_SAVE, 10);
    assert_false(t->o.saved_v);
    save(t, 60);                                   /* beyond nwarps */
    expect_err(t, SIMT_E_SAVE, 0);
    save(t, 1);                                    /* updated in the same cycle */
    upd(t, 3, 1, SIMT_NORMAL, 0, 0, 0, 0);
    expect_err(t, SIMT_E_SAVE, 1);
    assert_int_equal(t->o.pc[1], 1);               /* the update applied, the slot kept */
    assert_true(slot_has(t->q.live, 1));
    build_loop(t, 1, 4, 0);                        /* the 5th entry spills */
    assert_true(slot_has(t->q.spq, 1));
    save(t, 1);                                    /* busy: its spill waits */
    expect_err(t, SIMT_E_SAVE, 1);
    assert_true(slot_has(t->q.live, 1) && slot_has(t->q.spq, 1));
    drain(t, 1);
    step(t);
    save(t, 2);                                    /* fine; slot 2 is free from now on */
    step(t);
    assert_true(t->o.saved_v && t->o.err == 0);
    good = t->o.saved;
    restore(t, 1, &good);                          /* into a live warp */
    expect_err(t, SIMT_E_RESTORE, 1);
    assert_int_equal(t->q.vwi[1], 1);
    restore(t, 50, &good);                         /* beyond nwarps */
    expect_err(t, SIMT_E_RESTORE, 0);
    restore(t, 2, &good);                          /* launched in the same cycle */
    launch(t, 2, 0x3u);
    expect_err(t, SIMT_E_RESTORE, 2);
    assert_true(t->o.mask[2] == 0x3u);             /* the launch applied */
    s = good;
    s.cnt = 5;                                     /* more than depth 4 */
    restore(t, 3, &s);
    expect_err(t, SIMT_E_RESTORE, 3);
    s = good;
    s.nspill = 114;                                /* more than the image holds */
    restore(t, 3, &s);
    expect_err(t, SIMT_E_RESTORE, 3);
    s = good;
    s.nspill = 3;                                  /* not a multiple of chunk 2 */
    restore(t, 3, &s);
    expect_err(t, SIMT_E_RESTORE, 3);
    assert_false(slot_has(t->q.live, 3));
    /* save and restore of one slot in one cycle: the save happens, the restore is refused
       (the slot is free from the next cycle on); the error names the restore's slot */
    step(t);
    save(t, 2);
    restore(t, 2, &good);
    expect_err(t, SIMT_E_RESTORE, 2);
    assert_true(t->o.saved_v && t->o.saved.mask == 0x3u);
    assert_false(slot_has(t->q.live, 2));
    /* save and launch of one slot in one cycle: both */
    restore(t, 2, &good);
    step(t);
    assert_int_equal(t->o.err, 0);
    step(t);
    save(t, 2);
    launch_vwi(t, 2, 0x1u, 99);
    step(t);
    assert_int_equal(t->o.err, 0);
    assert_true(t->o.saved_v && t->o.saved.vwi == good.vwi);
    assert_true(slot_has(t->q.live, 2) && t->o.mask[2] == 1u && t->q.vwi[2] == 99);
    free(t);
}

/* ---------------- moving warps go on exactly ---------------- */

static int same_log(const struct run *a, const struct run *b, unsigned nwarps)
{
    for (unsigned w = 0; w < nwarps; w++)
        if (memcmp(&a->log[w], &b->log[w], sizeof a->log[w]))
            return 0;
    return a->pushes == b->pushes && a->pops == b->pops && a->spills == b->spills &&
           a->fills == b->fills && a->issued == b->issued && a->max_depth == b->max_depth;
}

/* The same run twice: in place, then moving between slots every few cycles. */
static unsigned run_moved(struct run *r, unsigned policy, unsigned depth, unsigned chunk,
                          unsigned every)
{
    struct run still = *r, moved = *r;
    struct tb *t = tb_wide(policy, depth, chunk);
    run_prog(t, &still);
    free(t);
    t = tb_wide(policy, depth, chunk);
    moved.move_every = every;
    run_prog(t, &moved);
    free(t);
    if (!same_log(&still, &moved, r->nwarps))
        fail_msg("moved %u times: %u/%u issued, %u/%u pops, %u/%u spills, %u/%u fills, "
                 "requests %u/%u", moved.moves, still.issued, moved.issued, still.pops,
                 moved.pops, still.spills, moved.spills, still.fills, moved.fills,
                 still.log[0].nreq, moved.log[0].nreq);
    *r = moved;
    return moved.moves;
}

/* 003's single loop, 20 lanes leaving one by one: a 21-entry token stack, spilled and filled
   in chunks of 4 while the warp moves. */
static int dec_stair(const void *a, unsigned lane, uint32_t pc, uint32_t visit)
{
    (void)a;
    return pc == 3 && visit + 1 < (lane < 12 ? 32u : 32u - (lane - 11));
}

static void test_move_loop(void **st)
{
    (void)st;
    static const struct spec s[] = {NOP, NOP, NOP, CBRA(1), NOP, EXIT};
    static struct prog p;
    build(&p, s, 6);
    struct run r = {.p = &p, .dec = dec_stair, .nwarps = 1, .lanes = {0xffffffffu},
                    .placed = 1, .slot = {3}, .vwi = {250}, .fill_lat = 12};
    unsigned moves = run_moved(&r, SIMT_TOKEN, 16, 4, 5);
    assert_int_equal(r.max_depth, 21);
    assert_int_equal(r.spills, 2);
    assert_true(moves > 20 && r.moves_spilled > 2);
}

static void test_move_random_programs(void **st)
{
    (void)st;
    static struct prog p;
    unsigned moves = 0, spills = 0, high = 0, with_spilled = 0;
    srand(977);
    for (unsigned iter = 0; iter < 120; iter++) {
        random_prog(&p, 4 + (uint32_t)rand() % 60, iter % 3 == 0);
        struct rnd_arg a = {(uint32_t)rand(), 1 + (uint32_t)rand() % 4, &p};
        struct run r = {.p = &p, .dec = dec_rnd, .arg = &a, .nwarps = 2,
                        .lanes = {0xffffffffu, (uint32_t)rand() | 1u}, .mem_random = 1,
                        .placed = 1, .slot = {(unsigned)rand() % 128, 0},
                        .vwi = {(uint8_t)rand(), 0}};
        r.slot[1] = (r.slot[0] + 1 + (unsigned)rand() % 127) % 128;
        r.vwi[1] = (uint8_t)(r.vwi[0] + 1 + rand() % 255);
        moves += run_moved(&r, iter % 2, 2 + (unsigned)rand() % 5, 2, 3 + (unsigned)rand() % 9);
        spills += r.spills;
        with_spilled += r.moves_spilled;
        high += r.slot[0] >= 64 || r.slot[1] >= 64;
    }
    print_message("moving warps: %u moves (%u with entries in memory), %u spills\n", moves,
                  with_spilled, spills);
    assert_true(moves > 1000 && with_spilled > 100 && spills > 100 && high > 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vwi_addresses_and_image),
        cmocka_unit_test(test_fill_data_port),
        cmocka_unit_test(test_image_helpers),
        cmocka_unit_test(test_save_restore_state),
        cmocka_unit_test(test_restore_pops_and_finished),
        cmocka_unit_test(test_save_restore_errors),
        cmocka_unit_test(test_move_loop),
        cmocka_unit_test(test_move_random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
