/*
 * test_ldst.c -- coalescing into 128-byte lines (with the lanes each line serves), the
 * pending-load table releasing registers when the last line returns, lane-level completion
 * (the L1's hit report, partial completions, then the full one), queue hand-off to the L1,
 * shared-memory bank conflicts; and, in a real run, partial completions whose hit lanes run
 * ahead of missed lanes (bstsearch) while a streaming kernel (vecadd) has none.
 */
#include "testutil.h"
#include "sm/ldst.h"
#include "bench.h"

static struct ldst_cfg C = { 2 };

static void tick(struct ldst_regs *q, struct ldst_in *in, struct ldst_out *out)
{
    struct ldst_regs d = *q;
    ldst_eval(&C, q, in, out, &d);
    ldst_commit(&C, q, &d);
    memset(&in->issue, 0, sizeof in->issue);
    in->accepted = 0;
    in->hit_valid = 0;
    in->resp_valid = 0;
    in->now++;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_release_after_last_line),
        cmocka_unit_test(test_lanes_on_lines),
        cmocka_unit_test(test_partial_then_full),
        cmocka_unit_test(test_all_hit_out_of_order),
        cmocka_unit_test(test_mixed_partial_mask),
        cmocka_unit_test(test_real_run_partials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
