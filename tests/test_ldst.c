/*
 * test_ldst.c -- coalescing into 128-byte lines (with the lanes each line serves), the
 * pending-load table releasing registers when the last line returns, lane-level completion
 * (the L1's hit report, partial completions, then the full one), queue hand-off to the L1,
 * shared-memory bank conflicts; and, in a real run, partial completions whose hit lanes run
 * ahead of missed lanes (bstsearch) while a streaming kernel (vecadd) has none. VT's load
 * queues (004 Sec. IV-D): a swap moves only its VWI range, as far as the inactive queue has
 * room; active lines are offered before older inactive ones; without a swap the order is the
 * FIFO's; entries up to 63 round-trip through the hit and response tags; can_issue follows
 * the active queue's occupancy. Every step checks that commit copied all eval wrote.
 */
#include "testutil.h"
#include "sm/ldst.h"
#include "bench.h"
#include "base/config.h"

static struct ldst_cfg C = { .sm = 2, .npend_act = LDST_PENDING };   /* no VT: no inactive queue */

static void tick_c(const struct ldst_cfg *c, struct ldst_regs *q, struct ldst_in *in,
                   struct ldst_out *out)
{
    struct ldst_regs d = *q;
    ldst_eval(c, q, in, out, &d);
    ldst_commit(c, q, &d);
    assert_memory_equal(q, &d, sizeof d);
    memset(&in->issue, 0, sizeof in->issue);
    memset(&in->swap, 0, sizeof in->swap);
    in->accepted = 0;
    in->hit_valid = 0;
    in->resp_valid = 0;
    in->now++;
}

static void tick(struct ldst_regs *q, struct ldst_in *in, struct ldst_out *out)
{
    tick_c(&C, q, in, out);
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

/* The state the lane-level tests share. */
struct fx {
    struct ldst_regs q;
    struct ldst_in in;
    struct ldst_out out;
    struct mem_req l[64];                      /* the lines of the last load, in order */
};

static void fx_init(struct fx *f)
{
    ldst_reset(&C, &f->q);
    memset(&f->in, 0, sizeof f->in);
    memset(&f->out, 0, sizeof f->out);
}

/* Issue the load in f->in, then let the L1 take every line (hit: the lines whose bit is set
   in `hits`, by line order); the lines are kept in f->l. Returns their number. */
static uint32_t accept_all(struct fx *f, uint32_t hits)
{
    uint32_t n, i;
    tick(&f->q, &f->in, &f->out);
    n = f->out.ev_lines;
    for (i = 0; i < n; i++) {
        assert_true(f->out.req_valid);
        f->l[i] = f->out.req;
        f->in.accepted = 1;
        if (hits >> i & 1) {
            f->in.hit_valid = 1;
            f->in.hit_tag = f->out.req.tag;
            f->in.hit_lanes = f->out.req.lanes;
        }
        tick(&f->q, &f->in, &f->out);
    }
    assert_false(f->out.req_valid);
    return n;
}

/* Line i of the last load returns. */
static void ret(struct fx *f, unsigned i)
{
    f->in.resp_valid = 1;
    f->in.resp_tag = f->l[i].tag;
    f->in.resp_lanes = f->l[i].lanes;
    tick(&f->q, &f->in, &f->out);
}

/* Every line carries the lanes whose access lies in it. */
static void test_lanes_on_lines(void **state)
{
    struct fx f;
    uint32_t i;
    (void)state;
    fx_init(&f);
    load(&f.in, 0x1000, 4, 4);                  /* one line, all 32 lanes */
    assert_int_equal(accept_all(&f, 0), 1);
    assert_int_equal(f.l[0].lanes, 0xFFFFFFFFu);
    load(&f.in, 0x1040, 4, 4);                  /* two lines, 16 lanes each */
    assert_int_equal(accept_all(&f, 0), 2);
    assert_int_equal(f.l[0].addr, 0x1000);
    assert_int_equal(f.l[0].lanes, 0x0000FFFFu);
    assert_int_equal(f.l[1].lanes, 0xFFFF0000u);
    load(&f.in, 0x30000, 16, 16);               /* float4: 4 lines of 8 lanes */
    assert_int_equal(accept_all(&f, 0), 4);
    for (i = 0; i < 4; i++)
        assert_int_equal(f.l[i].lanes, 0xFFu << (8 * i));
    load(&f.in, 0x8000, 128, 4);                /* stride 128: one lane per line */
    f.in.issue.mask = 0xA0000005u;
    assert_int_equal(accept_all(&f, 0), 4);
    assert_int_equal(f.l[0].lanes, 1u << 0);
    assert_int_equal(f.l[1].lanes, 1u << 2);
    assert_int_equal(f.l[2].lanes, 1u << 29);
    assert_int_equal(f.l[3].lanes, 1u << 31);
    load(&f.in, 0x20000, 0, 8);                 /* several lanes on one line: broadcast */
    f.in.issue.mask = 0x00F0F00Fu;
    f.in.issue.addr[20] = 0x20040;
    assert_int_equal(accept_all(&f, 0), 1);
    assert_int_equal(f.l[0].lanes, 0x00F0F00Fu);
    load(&f.in, 0x5000, 0, 8);                  /* lane 1 straddles two lines: on neither */
    f.in.issue.mask = 0x3u;
    f.in.issue.addr[1] = 0x507C;
    assert_int_equal(accept_all(&f, 0), 2);
    assert_int_equal(f.l[0].lanes, 0x1u);
    assert_int_equal(f.l[1].lanes, 0x0u);
}

/* Two lines, the first hits, the second misses and returns later: a partial completion of
   the hit lanes (mixed: missed lanes still out), then the full completion with the registers. */
static void test_partial_then_full(void **state)
{
    struct fx f;
    (void)state;
    fx_init(&f);
    load(&f.in, 0x1040, 4, 4);
    assert_int_equal(accept_all(&f, 0x1), 2);
    assert_int_equal(f.q.pend[f.l[0].tag].hit, 0x0000FFFFu);
    assert_int_equal(f.q.pend[f.l[0].tag].lanes, 0xFFFFFFFFu);
    tick(&f.q, &f.in, &f.out);
    assert_false(f.out.cpl_valid);              /* nothing returned: no completion */
    ret(&f, 0);                                 /* the hit line */
    assert_true(f.out.cpl_valid);
    assert_false(f.out.cpl_last);
    assert_int_equal(f.out.cpl_warp, 5);
    assert_int_equal(f.out.cpl_vwi, 5);
    assert_int_equal(f.out.cpl_tag, f.l[0].tag);
    assert_int_equal(f.out.cpl_lanes, 0x0000FFFFu);
    assert_int_equal(f.out.cpl_hit, 0x0000FFFFu);
    assert_true(f.out.ev_part);
    assert_true(f.out.ev_part_mixed);
    assert_int_equal(f.out.nrel, 0);
    tick(&f.q, &f.in, &f.out);
    assert_false(f.out.cpl_valid);
    ret(&f, 1);                                 /* the missed line, later */
    assert_true(f.out.cpl_valid);
    assert_true(f.out.cpl_last);
    assert_int_equal(f.out.cpl_lanes, 0xFFFFFFFFu);
    assert_int_equal(f.out.cpl_hit, 0x0000FFFFu);
    assert_false(f.out.ev_part);
    assert_int_equal(f.out.nrel, 1);
    assert_int_equal(f.out.rel[0].reg, 9);
    assert_int_equal(f.q.npend, 0);
}

/* Lines returning out of order, all of them hits: partial completions accumulate lanes but
   are not "mixed" (no lane missed); the hit mask of a new load starts empty. */
/* DWS: the load carries the issuing slot's owned lanes to its completion and writeback; a
   memory split detaches the run-ahead lanes, so the last line's writeback carries the rest. */
static void test_own_detach(void **state)
{
    struct fx f;
    (void)state;
    fx_init(&f);
    load(&f.in, 0x1040, 4, 4);                  /* two lines: lanes 0-15 hit, 16-31 miss */
    f.in.issue.own = 0xFFFFFFFFu;
    accept_all(&f, 0x1);
    tick(&f.q, &f.in, &f.out);
    ret(&f, 0);
    assert_true(f.out.cpl_valid);
    assert_int_equal(f.out.cpl_own, 0xFFFFFFFFu);
    f.in.resp_valid = 0;
    f.in.detach_v = 1;                          /* lanes 0-15 run ahead in a new slot */
    f.in.detach_tag = (uint8_t)f.l[0].tag;
    f.in.detach_lanes = 0x0000FFFFu;
    tick(&f.q, &f.in, &f.out);
    f.in.detach_v = 0;
    assert_int_equal(f.q.pend[f.l[0].tag].own, 0xFFFF0000u);
    assert_int_equal(f.q.pend[f.l[0].tag].lanes, 0xFFFFFFFFu);   /* completion unchanged */
    ret(&f, 1);
    assert_true(f.out.cpl_last);
    assert_int_equal(f.out.nrel, 1);
    assert_int_equal(f.out.rel[0].own, 0xFFFF0000u);
}

static void test_all_hit_out_of_order(void **state)
{
    struct fx f;
    (void)state;
    fx_init(&f);
    load(&f.in, 0x30000, 16, 16);
    assert_int_equal(accept_all(&f, 0xF), 4);
    ret(&f, 2);
    assert_int_equal(f.out.cpl_lanes, 0x00FF0000u);
    assert_int_equal(f.out.cpl_hit, 0xFFFFFFFFu);
    assert_true(f.out.ev_part);
    assert_false(f.out.ev_part_mixed);
    ret(&f, 0);
    assert_int_equal(f.out.cpl_lanes, 0x00FF00FFu);
    ret(&f, 3);
    assert_int_equal(f.out.cpl_lanes, 0xFFFF00FFu);
    assert_false(f.out.cpl_last);
    ret(&f, 1);
    assert_true(f.out.cpl_last);
    assert_int_equal(f.out.nrel, 1);
    load(&f.in, 0x1000, 4, 4);                  /* the entry is reused: masks start clean */
    assert_int_equal(accept_all(&f, 0), 1);
    assert_int_equal(f.q.pend[f.l[0].tag].hit, 0);
    assert_int_equal(f.q.pend[f.l[0].tag].done, 0);
    ret(&f, 0);
    assert_true(f.out.cpl_valid && f.out.cpl_last);
    assert_int_equal(f.out.cpl_hit, 0);
}

/* A mixed load with a partial exec mask: hit reports and responses only count the load's own
   lanes; a store has no pending entry and reports no completion. */
static void test_mixed_partial_mask(void **state)
{
    struct fx f;
    (void)state;
    fx_init(&f);
    load(&f.in, 0x8000, 128, 4);
    f.in.issue.mask = 0x0000000Fu;              /* 4 lanes, 4 lines */
    assert_int_equal(accept_all(&f, 0x5), 4);   /* lines 0 and 2 hit */
    assert_int_equal(f.q.pend[f.l[0].tag].hit, 0x5u);
    ret(&f, 0);
    assert_true(f.out.ev_part_mixed);
    ret(&f, 2);
    assert_int_equal(f.out.cpl_lanes, 0x5u);
    assert_true(f.out.ev_part_mixed);
    ret(&f, 1);
    assert_int_equal(f.out.cpl_lanes, 0x7u);
    assert_true(f.out.ev_part_mixed);           /* lane 3 missed and is still out */
    ret(&f, 3);
    assert_true(f.out.cpl_last);
    assert_int_equal(f.out.cpl_lanes, 0xFu);
    assert_int_equal(f.out.cpl_hit, 0x5u);
    load(&f.in, 0x1000, 4, 4);
    f.in.issue.kind = MK_STORE;
    f.in.issue.ndst = 0;
    tick(&f.q, &f.in, &f.out);
    assert_int_equal(f.q.npend, 0);
    assert_int_equal(f.out.req.lanes, 0xFFFFFFFFu);
    f.in.accepted = 1;
    tick(&f.q, &f.in, &f.out);
    assert_false(f.out.cpl_valid);
}

/* A real run: bstsearch (binary-tree search, lanes reach different tree levels in L1) shows
   partial completions whose hit lanes complete while missed lanes of the same load wait;
   vecadd (one line per warp, every line a first touch) shows none. */
static uint64_t run_kernel(const char *name, uint64_t *mixed)
{
    const struct bench *b = bench_find(name);
    const char *set = "model=timing";
    struct bench_ctx ctx;
    struct gs_stats st;
    char path[256], err[256];
    assert_non_null(b);
    memset(&ctx, 0, sizeof ctx);
    assert_int_equal(gs_init(&ctx.gpu, "configs/gtx480.cfg", &set, 1, err, sizeof err), GS_OK);
    snprintf(path, sizeof path, "bench/%s/kernel.ptx", name);
    ctx.ptx_path = path;
    ctx.size = BENCH_TEST;
    assert_int_equal(b->run(&ctx), 0);
    gs_total_stats(ctx.gpu, &st);
    gs_destroy(ctx.gpu);
    *mixed = st.t.ldst_partials_mixed;
    return st.t.ldst_partials;
}

static void test_real_run_partials(void **state)
{
    uint64_t part, mixed;
    (void)state;
    part = run_kernel("bstsearch", &mixed);
    print_message("bstsearch: %llu partial completions, %llu with hit lanes ahead of missed\n",
                  (unsigned long long)part, (unsigned long long)mixed);
    assert_true(mixed > 0);
    assert_true(mixed <= part);
    part = run_kernel("vecadd", &mixed);
    assert_int_equal(part, 0);
    assert_int_equal(mixed, 0);
}

/* ---- VT's load queues ---- */

/* A one-line load of warp/VWI w at a line of its own (line index k). */
static void load1(struct ldst_in *in, uint8_t w, uint32_t k)
{
    load(in, 0x100000 + (uint64_t)k * 128, 0, 4);
    in->issue.warp = w;
    in->issue.vwi = w;
}

/* Issue a one-line load of VWI w (line k) under configuration c; its pending entry. */
static uint32_t issue1(const struct ldst_cfg *c, struct fx *f, uint8_t w, uint32_t k)
{
    uint32_t tag;
    load1(&f->in, w, k);
    tick_c(c, &f->q, &f->in, &f->out);
    assert_int_equal(f->out.ev_lines, 1);
    tag = f->q.queue[(f->q.head + f->q.count - 1) % LDST_QUEUE].tag;
    assert_true(f->q.pend[tag].valid);
    return tag;
}

static void swap(const struct ldst_cfg *c, struct fx *f, uint8_t lo, uint8_t n)
{
    f->in.swap.v = 1;
    f->in.swap.vwi_lo = lo;
    f->in.swap.n = n;
    tick_c(c, &f->q, &f->in, &f->out);
}

/* The swap events and the queue occupancies of the last cycle. */
static void expect_occ(const struct fx *f, unsigned moved, unsigned nomove, unsigned nact,
                       unsigned ninact)
{
    assert_int_equal(f->out.ev_moved, moved);
    assert_int_equal(f->out.ev_nomove, nomove);
    assert_int_equal(f->out.nact, nact);
    assert_int_equal(f->out.ninact, ninact);
}

/* The L1 takes the offered line; returns it. */
static struct mem_req take1(const struct ldst_cfg *c, struct fx *f)
{
    struct mem_req r;
    assert_true(f->out.req_valid);
    r = f->out.req;
    f->in.accepted = 1;
    tick_c(c, &f->q, &f->in, &f->out);
    return r;
}

/* The queue slot holding the (one) line of pending entry tag. */
static uint32_t slot_of(const struct fx *f, uint32_t tag)
{
    for (uint32_t k = 0; k < f->q.count; k++) {
        uint32_t i = (f->q.head + k) % LDST_QUEUE;
        if (f->q.qvalid[i] && f->q.queue[i].kind != MK_STORE && f->q.queue[i].tag == tag)
            return i;
    }
    fail_msg("no queued line of entry %u", tag);
    return 0;
}

/* Swap [8, 12): the loads of VWIs 8 and 9 move with their queued lines; VWI 7 and 12 (just
   outside) and a store of VWI 9 (no pending entry; its tag 0 names the moved entry 0) do not. */
static void test_swap_moves_range(void **state)
{
    const struct ldst_cfg cv = { .sm = 2, .npend_act = LDST_PENDING, .npend_inact = 8 };
    struct fx f;
    uint32_t t8, t3, t9, t12, t7, st;
    (void)state;
    fx_init(&f);
    t8 = issue1(&cv, &f, 8, 0);
    t3 = issue1(&cv, &f, 3, 1);
    load1(&f.in, 9, 2);
    f.in.issue.kind = MK_STORE;
    f.in.issue.ndst = 0;
    tick_c(&cv, &f.q, &f.in, &f.out);
    st = (f.q.head + f.q.count - 1) % LDST_QUEUE;
    assert_int_equal(f.q.queue[st].tag, t8);            /* the store's tag 0 = entry 0 */
    t9 = issue1(&cv, &f, 9, 3);
    t12 = issue1(&cv, &f, 12, 4);
    t7 = issue1(&cv, &f, 7, 5);
    assert_int_equal(f.out.nact, 5);
    assert_int_equal(f.out.ninact, 0);
    swap(&cv, &f, 8, 4);
    expect_occ(&f, 2, 0, 3, 2);
    assert_true(f.q.pend[t8].inact && f.q.pend[t9].inact);
    assert_false(f.q.pend[t3].inact || f.q.pend[t12].inact || f.q.pend[t7].inact);
    assert_true(f.q.qinact[slot_of(&f, t8)] && f.q.qinact[slot_of(&f, t9)]);
    assert_false(f.q.qinact[slot_of(&f, t3)] || f.q.qinact[slot_of(&f, t12)] ||
                 f.q.qinact[slot_of(&f, t7)]);
    assert_false(f.q.qinact[st]);
    swap(&cv, &f, 8, 4);                                /* already inactive: nothing moves */
    assert_int_equal(f.out.ev_moved, 0);
    assert_int_equal(f.out.ev_nomove, 0);
}

/* A partition of 2 entries, four loads in the range: two move, two stay active and are
   counted; when an inactive load completes, the next swap moves one more. */
static void test_swap_partition_full(void **state)
{
    const struct ldst_cfg cv = { .sm = 2, .npend_act = LDST_PENDING, .npend_inact = 2 };
    struct fx f;
    struct mem_req r;
    uint32_t t[4], w, nin = 0;
    (void)state;
    fx_init(&f);
    for (w = 0; w < 4; w++)
        t[w] = issue1(&cv, &f, (uint8_t)(8 + w), w);
    swap(&cv, &f, 8, 4);
    expect_occ(&f, 2, 2, 2, 2);
    for (w = 0; w < 4; w++)
        nin += f.q.pend[t[w]].inact;
    assert_int_equal(nin, 2);
    for (w = 0; w < 4; w++)                             /* the active two come first */
        if (!f.q.pend[t[w]].inact)
            assert_int_equal(take1(&cv, &f).tag, t[w]);
    r = take1(&cv, &f);                                 /* an inactive one, then it returns */
    assert_true(f.q.pend[r.tag].inact);
    f.in.resp_valid = 1;
    f.in.resp_tag = r.tag;
    f.in.resp_lanes = r.lanes;
    tick_c(&cv, &f.q, &f.in, &f.out);
    assert_true(f.out.cpl_last);
    assert_int_equal(f.out.ninact, 1);
    swap(&cv, &f, 8, 4);
    expect_occ(&f, 1, 1, 1, 2);
}

/* An active line is offered before an older inactive one; a line taken from behind the head
   leaves a hole that the head skips once the inactive line is taken. */
static void test_active_before_inactive(void **state)
{
    const struct ldst_cfg cv = { .sm = 2, .npend_act = LDST_PENDING, .npend_inact = 8 };
    struct fx f;
    uint32_t a, b, c;
    (void)state;
    fx_init(&f);
    a = issue1(&cv, &f, 8, 0);
    b = issue1(&cv, &f, 1, 1);
    swap(&cv, &f, 8, 1);
    assert_int_equal(f.out.ev_moved, 1);
    c = issue1(&cv, &f, 2, 2);
    assert_int_equal(f.out.req.tag, b);                 /* the head (a) is inactive */
    assert_int_equal(take1(&cv, &f).tag, b);
    assert_int_equal(f.q.count, 3);                     /* a, hole, c */
    assert_int_equal(take1(&cv, &f).tag, c);
    assert_int_equal(take1(&cv, &f).tag, a);            /* only then the inactive line */
    assert_int_equal(f.q.count, 0);                     /* the head skipped both holes */
    assert_false(f.out.req_valid);
    b = issue1(&cv, &f, 1, 3);                          /* the ring goes on from there */
    assert_int_equal(take1(&cv, &f).tag, b);
    assert_int_equal(f.q.count, 0);
}

/* Without a swap the lines are offered in FIFO order, the same cycle for cycle with and
   without an inactive queue configured; an inactive entry whose lines have all left does not
   disturb the FIFO order of the active lines. */
static void test_fifo_without_swap(void **state)
{
    const struct ldst_cfg cv = { .sm = 2, .npend_act = LDST_PENDING, .npend_inact = 30 };
    struct fx f, g;
    struct mem_req took = {0};
    uint32_t i, a, ntook = 0;
    (void)state;
    fx_init(&f);
    fx_init(&g);
    for (i = 0; i < 40; i++) {                          /* issue, accept and return, mixed */
        if (i % 3 != 2 && i < 30) {
            load(&f.in, 0x8000 + i * 0x1000, i % 2 ? 128 : 4, 4);
            f.in.issue.mask = 0x000000FFu >> (i % 4);
        }
        if (i % 5 == 4 && ntook) {                      /* a line taken earlier returns */
            f.in.resp_valid = 1;
            f.in.resp_tag = took.tag;
            f.in.resp_lanes = took.lanes;
            ntook = 0;
        }
        f.in.accepted = i % 4 != 1 && f.out.req_valid;
        if (f.in.accepted && f.out.req.kind == MK_LOAD && !ntook) {
            took = f.out.req;
            ntook = 1;
        }
        g.in = f.in;
        tick_c(&C, &f.q, &f.in, &f.out);
        tick_c(&cv, &g.q, &g.in, &g.out);
        assert_memory_equal(&f.out, &g.out, sizeof f.out);
        if (f.out.req_valid)
            assert_int_equal(f.out.req.addr, f.q.queue[f.q.head].addr);
    }
    fx_init(&f);
    a = issue1(&cv, &f, 8, 0);
    take1(&cv, &f);
    swap(&cv, &f, 8, 1);                                /* entry inactive, no line queued */
    assert_int_equal(f.out.ninact, 1);
    assert_int_equal(f.q.pend[a].inact, 1);
    for (i = 1; i <= 4; i++)
        issue1(&cv, &f, 1, i);
    for (i = 1; i <= 4; i++)
        assert_int_equal(take1(&cv, &f).addr, 0x100000 + (uint64_t)i * 128);
}

/* Entries up to 63: 32 inactive loads fill entries 0..31, 32 active ones 32..63; the last
   one's lines carry tag 63, its hit report and its response find it. */
static void test_tag_63_round_trip(void **state)
{
    const struct ldst_cfg cv = { .sm = 2, .npend_act = LDST_PENDING, .npend_inact = 32 };
    struct fx f;
    struct mem_req r;
    uint32_t i, t = 0;
    (void)state;
    fx_init(&f);
    for (i = 0; i < 32; i++)
        issue1(&cv, &f, 100, i);
    swap(&cv, &f, 100, 1);
    assert_int_equal(f.out.ev_moved, 32);
    for (i = 0; i < 32; i++)
        t = issue1(&cv, &f, 5, 32 + i);
    assert_int_equal(t, 63);
    assert_int_equal(f.out.nact, 32);
    assert_int_equal(f.out.ninact, 32);
    for (i = 32; i < 64; i++) {                          /* active lines first, in order */
        r = f.out.req;
        assert_int_equal(r.tag, i);
        f.in.accepted = 1;
        if (i == 63) {
            f.in.hit_valid = 1;
            f.in.hit_tag = r.tag;
            f.in.hit_lanes = r.lanes;
        }
        tick_c(&cv, &f.q, &f.in, &f.out);
    }
    assert_int_equal(f.q.pend[63].hit, 0xFFFFFFFFu);
    assert_true(f.out.req_valid && f.q.pend[f.out.req.tag].inact);
    f.in.resp_valid = 1;
    f.in.resp_tag = r.tag;
    f.in.resp_lanes = r.lanes;
    tick_c(&cv, &f.q, &f.in, &f.out);
    assert_true(f.out.cpl_valid && f.out.cpl_last);
    assert_int_equal(f.out.cpl_tag, 63);
    assert_int_equal(f.out.cpl_vwi, 5);
    assert_int_equal(f.out.cpl_hit, 0xFFFFFFFFu);
    assert_int_equal(f.out.nrel, 1);
    assert_false(f.q.pend[63].valid);
    assert_int_equal(f.out.nact, 31);
}

/* can_issue needs a free entry of the active queue: 32 loads fill it; a swap frees two
   entries of it (the loads stay in flight), two more loads fill it again; a load issued
   anyway gets no entry. */
static void test_can_issue_follows_nact(void **state)
{
    const struct ldst_cfg cv = { .sm = 2, .npend_act = LDST_PENDING, .npend_inact = 4 };
    struct fx f;
    uint32_t i;
    (void)state;
    fx_init(&f);
    for (i = 0; i < 32; i++) {
        assert_true(i == 0 || f.out.can_issue);
        issue1(&cv, &f, (uint8_t)i, i);
    }
    assert_int_equal(f.out.nact, 32);
    assert_false(f.out.can_issue);
    swap(&cv, &f, 0, 2);
    assert_int_equal(f.out.nact, 30);
    assert_int_equal(f.out.ninact, 2);
    assert_true(f.out.can_issue);
    issue1(&cv, &f, 40, 40);
    assert_true(f.out.can_issue);
    issue1(&cv, &f, 41, 41);
    assert_false(f.out.can_issue);
    assert_int_equal(f.q.npend, 34);
    load1(&f.in, 42, 42);                               /* issued regardless: refused */
    tick_c(&cv, &f.q, &f.in, &f.out);
    assert_int_equal(f.out.ev_lines, 0);
    assert_int_equal(f.q.npend, 34);
}

/* The configuration: the inactive queue only under vt = on, range-checked. */
static void test_cfg(void **state)
{
    struct gpu_config g;
    struct ldst_cfg c;
    char err[128];
    (void)state;
    conf_defaults(&g);
    ldst_cfg_from(&g, 3, 0, &c);
    assert_int_equal(c.sm, 3);
    assert_int_equal(c.npend_act, LDST_PENDING);
    assert_int_equal(c.npend_inact, 0);
    g.vt = VT_MAX;
    ldst_cfg_from(&g, 3, 0, &c);
    assert_int_equal(c.npend_inact, 0);
    g.vt = VT_ON;
    g.vt_ldq_inactive = 30;
    ldst_cfg_from(&g, 3, 0, &c);
    assert_int_equal(c.npend_inact, 30);
    assert_int_equal(ldst_cfg_check(&c, err, sizeof err), 0);
    c.npend_inact = LDST_INACT_MAX + 1;
    assert_int_equal(ldst_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "npend_inact"));
    c.npend_inact = 0;
    c.npend_act = 0;
    assert_int_equal(ldst_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "npend_act"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_release_after_last_line),
        cmocka_unit_test(test_lanes_on_lines),
        cmocka_unit_test(test_partial_then_full),
        cmocka_unit_test(test_own_detach),
        cmocka_unit_test(test_all_hit_out_of_order),
        cmocka_unit_test(test_mixed_partial_mask),
        cmocka_unit_test(test_swap_moves_range),
        cmocka_unit_test(test_swap_partition_full),
        cmocka_unit_test(test_active_before_inactive),
        cmocka_unit_test(test_fifo_without_swap),
        cmocka_unit_test(test_tag_63_round_trip),
        cmocka_unit_test(test_can_issue_follows_nact),
        cmocka_unit_test(test_cfg),
        cmocka_unit_test(test_real_run_partials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
