/*
 * test_l2copy.c -- lines that host-to-device copies and memsets leave in the L2
 * (configuration key l2_copy_install; model/mem/l2copy.h, docs/l2.md "Lines installed by
 * copies"), tested both ways on the timing model through the host API:
 *   - a kernel reading an array copied just before the launch: with the key on its
 *     first-touch L2 accesses hit (only the instruction fetches miss) and it is faster; with
 *     the key off every data line misses once; the results are the same and correct;
 *   - a copy four times larger than the L2: the earliest-copied lines miss, the most recent
 *     ones hit;
 *   - a copy, then a second copy of other data: the second is resident, and of the first only
 *     the lines LRU keeps (its most recent ones);
 *   - the record itself: bounded by the L2's size whatever is copied, cleared; l2_install's
 *     LRU order.
 */
#include "testutil.h"
#include "base/config.h"
#include "gpu/gpusim.h"
#include "mem/l2.h"
#include "mem/l2copy.h"

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"

/* out[i] = 2 * in[i] + 1 for i < n. */
static const char *dbl_ptx = HDR
    ".visible .entry dbl(.param .u64 in, .param .u64 out, .param .u32 n)\n"
    "{\n .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n"
    " mad.lo.s32 %r5, %r3, %r4, %r2;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
    " mul.wide.u32 %rd3, %r5, 4;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r6, [%rd4];\n"
    " mad.lo.s32 %r7, %r6, 2, 1;\n add.s64 %rd5, %rd2, %rd3;\n st.global.u32 [%rd5], %r7;\n"
    "DONE:\n ret;\n}\n";

/* Checks in[first + j] == 7 * (first + j) + 3 for j < n; a mismatch writes first + j + 1 to
   flag[0]. It stores nothing when the data is right, so its only L2 traffic is the loads of
   the lines it checks and its instruction fetches. */
static const char *chk_ptx = HDR
    ".visible .entry chk(.param .u64 in, .param .u64 flag, .param .u32 first, .param .u32 n)\n"
    "{\n .reg .pred %p<3>;\n .reg .b32 %r<10>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [flag];\n ld.param.u32 %r1, [first];\n"
    " ld.param.u32 %r8, [n];\n"
    " mov.u32 %r2, %tid.x;\n mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n"
    " mad.lo.s32 %r5, %r3, %r4, %r2;\n setp.ge.u32 %p1, %r5, %r8;\n @%p1 bra DONE;\n"
    " add.s32 %r5, %r5, %r1;\n"
    " mul.wide.u32 %rd3, %r5, 4;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r6, [%rd4];\n"
    " mad.lo.s32 %r7, %r5, 7, 3;\n setp.eq.u32 %p2, %r6, %r7;\n @%p2 bra DONE;\n"
    " add.s32 %r9, %r5, 1;\n st.global.u32 [%rd2], %r9;\n"
    "DONE:\n ret;\n}\n";

#define LINE_WORDS 32u                      /* uint32 per 128-byte line */

struct run {
    uint64_t cycles, hits, misses, merges, dram_reads;
};

static struct gs_gpu *gpu_new(const char *const *sets, int nsets)
{
    struct gs_gpu *g = NULL;
    char err[256];
    if (gs_init(&g, NULL, sets, nsets, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    return g;
}

static struct gs_dim3 d3(uint32_t x)
{
    struct gs_dim3 d = { x, 1, 1 };
    return d;
}

static void take(struct gs_gpu *g, struct run *r)
{
    struct gs_stats st;
    gs_kernel_stats(g, &st);
    r->cycles = st.cycles;
    r->hits = st.t.l2_hits;
    r->misses = st.t.l2_misses;
    r->merges = st.t.l2_merges;
    r->dram_reads = st.t.dram_reads;
}

/* ---- the copied array is read by the next kernel ---- */

#define DBL_N 4096u                          /* 16 KB in, 16 KB out: 256 lines, L2 is 6144 */

static void run_dbl(int install, struct run *r)
{
    char set[32];
    const char *sets[] = { set };
    struct gs_gpu *g;
    struct gs_module *m;
    static uint32_t in[DBL_N], out[DBL_N];
    uint64_t din, dout;
    uint32_t n = DBL_N, i;
    const struct gs_arg args[] = { GS_ARG(din), GS_ARG(dout), GS_ARG(n) };
    snprintf(set, sizeof set, "l2_copy_install=%d", install);
    g = gpu_new(sets, 1);
    for (i = 0; i < n; i++)
        in[i] = i * 5u + 1u;
    assert_int_equal(gs_load_ptx_text(g, dbl_ptx, "dbl.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &din, sizeof in), GS_OK);
    assert_int_equal(gs_malloc(g, &dout, sizeof out), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, din, in, sizeof in), GS_OK);
    assert_int_equal(gs_memset(g, dout, 0, sizeof out), GS_OK);
    assert_int_equal(gs_launch(g, m, "dbl", d3(n / 128), d3(128), 0, args, 3), GS_OK);
    take(g, r);
    assert_int_equal(gs_memcpy_dtoh(g, out, dout, sizeof out), GS_OK);
    for (i = 0; i < n; i++)
        assert_int_equal(out[i], 2u * in[i] + 1u);
    gs_destroy(g);
}

static void test_copied_lines_hit(void **state)
{
    struct run on, off;
    uint64_t lines = 2 * DBL_N / LINE_WORDS;   /* in (loads) + out (full-line stores) */
    struct gs_gpu *g = gpu_new(NULL, 0);
    (void)state;
    assert_int_equal(gs_config(g)->l2_copy_install, 1);     /* on by default (gtx480) */
    gs_destroy(g);
    run_dbl(1, &on);
    run_dbl(0, &off);
    print_message("dbl: on  cycles %llu hits %llu misses %llu merges %llu dram reads %llu\n",
                  (unsigned long long)on.cycles, (unsigned long long)on.hits,
                  (unsigned long long)on.misses, (unsigned long long)on.merges,
                  (unsigned long long)on.dram_reads);
    print_message("dbl: off cycles %llu hits %llu misses %llu merges %llu dram reads %llu\n",
                  (unsigned long long)off.cycles, (unsigned long long)off.hits,
                  (unsigned long long)off.misses, (unsigned long long)off.merges,
                  (unsigned long long)off.dram_reads);
    /* key on: every data line is resident, only the kernel's code lines miss (first fetch) */
    assert_true(on.misses <= 4);
    assert_true(on.hits >= lines);
    assert_true(on.dram_reads <= on.misses);
    /* key off: every data line misses once (loads fetch, full-line stores allocate) */
    assert_int_equal(off.misses, on.misses + lines);
    assert_true(off.dram_reads >= DBL_N / LINE_WORDS);
    assert_true(on.cycles < off.cycles);
}

/* ---- copies larger than the L2, and two copies: LRU ---- */

/* A small L2 (12 slices x 4 sets x 4 ways = 192 lines, 24 KB) keeps the arrays small. */
#define SMALL_L2_LINES (12u * 4u * 4u)

struct chk {
    struct gs_gpu *g;
    struct gs_module *m;
    uint64_t da, db, dflag;
    uint32_t *a, *b;
    uint32_t na, nb;                        /* words */
};

static void chk_open(struct chk *c, int install, uint32_t na, uint32_t nb)
{
    char set[32];
    const char *sets[] = { "l2_sets=4", "l2_ways=4", set };
    uint32_t i;
    snprintf(set, sizeof set, "l2_copy_install=%d", install);
    memset(c, 0, sizeof *c);
    c->g = gpu_new(sets, 3);
    c->na = na;
    c->nb = nb;
    c->a = malloc(na * sizeof *c->a);
    c->b = malloc((nb ? nb : 1) * sizeof *c->b);
    assert_non_null(c->a);
    assert_non_null(c->b);
    for (i = 0; i < na; i++)
        c->a[i] = 7u * i + 3u;
    for (i = 0; i < nb; i++)
        c->b[i] = 7u * i + 3u;
    assert_int_equal(gs_load_ptx_text(c->g, chk_ptx, "chk.ptx", &c->m), GS_OK);
    assert_int_equal(gs_malloc(c->g, &c->dflag, 128), GS_OK);
    assert_int_equal(gs_malloc(c->g, &c->da, na * 4ull), GS_OK);
    if (nb)
        assert_int_equal(gs_malloc(c->g, &c->db, nb * 4ull), GS_OK);
}

static void chk_close(struct chk *c)
{
    gs_destroy(c->g);
    free(c->a);
    free(c->b);
}

/* The copies before a launch (the record is cleared by every launch): the flag, then A,
   then B if any. */
static void chk_copy(struct chk *c)
{
    assert_int_equal(gs_memset(c->g, c->dflag, 0, 128), GS_OK);
    assert_int_equal(gs_memcpy_htod(c->g, c->da, c->a, c->na * 4ull), GS_OK);
    if (c->nb)
        assert_int_equal(gs_memcpy_htod(c->g, c->db, c->b, c->nb * 4ull), GS_OK);
}

/* Copy, then check words [first, first + n) of the array at dev; the data must be right. */
static void chk_run(struct chk *c, uint64_t dev, uint32_t first, uint32_t n, struct run *r)
{
    uint32_t flag = 1;
    const struct gs_arg args[] = { GS_ARG(dev), GS_ARG(c->dflag), GS_ARG(first), GS_ARG(n) };
    chk_copy(c);
    assert_int_equal(gs_launch(c->g, c->m, "chk", d3((n + 127) / 128), d3(128), 0, args, 4),
                     GS_OK);
    take(c->g, r);
    assert_int_equal(gs_memcpy_dtoh(c->g, &flag, c->dflag, 4), GS_OK);
    assert_int_equal(flag, 0);
}

static void show(const char *what, const struct run *r)
{
    print_message("%s: cycles %llu hits %llu misses %llu merges %llu\n", what,
                  (unsigned long long)r->cycles, (unsigned long long)r->hits,
                  (unsigned long long)r->misses, (unsigned long long)r->merges);
}

/* Code lines of chk: misses of a run whose data all hit (measured, key on, data resident). */
static uint64_t code_misses(void)
{
    struct chk c;
    struct run r;
    chk_open(&c, 1, LINE_WORDS * 8, 0);
    chk_run(&c, c.da, 0, LINE_WORDS * 8, &r);
    chk_close(&c);
    show("chk small", &r);
    assert_true(r.misses <= 4);
    return r.misses;
}

static void test_copy_larger_than_l2(void **state)
{
    struct chk c;
    struct run early, late, early_off;
    uint32_t na = 4 * SMALL_L2_LINES * LINE_WORDS;        /* four times the L2 */
    uint32_t q = SMALL_L2_LINES * LINE_WORDS / 2;         /* half the L2, in words */
    uint64_t code = code_misses(), nl = q / LINE_WORDS;
    (void)state;
    chk_open(&c, 1, na, 0);
    chk_run(&c, c.da, 0, q, &early);                       /* the first-copied lines */
    chk_run(&c, c.da, na - q, q, &late);                   /* the last-copied lines */
    chk_close(&c);
    chk_open(&c, 0, na, 0);
    chk_run(&c, c.da, 0, q, &early_off);
    chk_close(&c);
    show("early on", &early);
    show("late on", &late);
    show("early off", &early_off);
    assert_int_equal(early.misses, code + nl);             /* every early line misses */
    assert_int_equal(early.misses, early_off.misses);
    assert_int_equal(late.misses, code);                   /* every late line hits */
    assert_true(late.hits >= nl);
    assert_true(late.cycles < early.cycles);
}

static void test_second_copy_evicts_lru(void **state)
{
    struct chk c;
    struct run b, a_late, a_early;
    uint32_t na = SMALL_L2_LINES * LINE_WORDS;            /* A fills the L2 */
    uint32_t nb = SMALL_L2_LINES * LINE_WORDS / 2;        /* B, half of it, copied after A */
    uint32_t q = SMALL_L2_LINES * LINE_WORDS / 4;
    uint64_t code = code_misses();
    (void)state;
    chk_open(&c, 1, na, nb);
    chk_run(&c, c.db, 0, nb, &b);                          /* B: all resident */
    chk_run(&c, c.da, na - q, q, &a_late);                 /* A's last quarter: kept */
    chk_run(&c, c.da, 0, q, &a_early);                     /* A's first quarter: evicted by B */
    chk_close(&c);
    show("B", &b);
    show("A late", &a_late);
    show("A early", &a_early);
    assert_int_equal(b.misses, code);
    assert_int_equal(a_late.misses, code);
    assert_int_equal(a_early.misses, code + q / LINE_WORDS);
}

/* ---- the record ---- */

static void test_record_bounded_and_cleared(void **state)
{
    struct gpu_config conf;
    struct l2copy *r;
    uint32_t rows, i, held = 0;
    (void)state;
    conf_defaults(&conf);
    r = l2copy_new(&conf);
    assert_non_null(r);
    rows = conf.dram_channels * conf.l2_slices_per_channel * conf.l2_sets;
    assert_int_equal(r->nrows, rows);
    assert_int_equal(r->assoc, conf.l2_ways);
    l2copy_add(r, 0x1000, 64ull << 20);                   /* 64 MB: far more than the L2 */
    l2copy_add(r, 0x1000, 64ull << 20);                   /* and again */
    assert_int_equal(r->lines, 2 * ((64ull << 20) / 128));
    for (i = 0; i < rows; i++) {
        assert_true(r->n[i] <= r->assoc);
        held += r->n[i];
    }
    assert_int_equal(held, rows * conf.l2_ways);           /* every way of the L2, no more */
    /* a line copied again becomes the newest of its row; a partial line counts */
    l2copy_clear(r);
    assert_int_equal(r->lines, 0);
    l2copy_add(r, 0x1000, 1);
    l2copy_add(r, 0x1000 + 12 * 64 * 128, 1);              /* another line      */
    l2copy_add(r, 0x1000, 1);
    assert_int_equal(r->lines, 3);
    for (i = 0, held = 0; i < rows; i++)
        held += r->n[i];
    assert_int_equal(held, 2);
    l2copy_clear(r);
    for (i = 0; i < rows; i++)
        assert_int_equal(r->n[i], 0);
    l2copy_free(r);
    l2copy_free(NULL);
    l2copy_add(NULL, 0, 128);                             /* key off: no record, no effect */
    l2copy_clear(NULL);
}

/* A row replays oldest first, so the newest is rank 0 and the (assoc+1)-th line pushed out
   the first one. */
static void test_l2_install_lru(void **state)
{
    struct l2_cfg c;
    static struct l2_regs q;
    uint64_t base = 5;                                     /* set 5 of a 1-slice L2 */
    unsigned w, k;
    (void)state;
    l2_cfg_default(&c);
    c.line_div = 1;
    l2_reset(&c, &q);
    for (k = 0; k <= c.assoc; k++)                        /* assoc + 1 lines into one set */
        l2_install(&c, &q, base + (uint64_t)k * c.nsets);
    l2_install(&c, &q, base + 2ull * c.nsets);             /* touch line 2 again */
    for (w = 0; w < c.assoc; w++) {
        const struct cache_line *l = &q.tags[5][w];
        uint64_t k2 = (l->tag - base) / c.nsets;
        assert_int_equal(l->state, CACHE_VALID);
        assert_int_equal(l->dirty, 0);
        assert_true(k2 >= 1 && k2 <= c.assoc);             /* line 0 was evicted */
        if (k2 == 2)
            assert_int_equal(l->lru, 0);
        else
            assert_int_equal(l->lru, k2 > 2 ? c.assoc - k2 + 1 : c.assoc - 1);
    }
    for (w = 0; w < c.assoc; w++)                          /* other sets untouched */
        assert_int_equal(q.tags[4][w].state, CACHE_INV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copied_lines_hit),
        cmocka_unit_test(test_copy_larger_than_l2),
        cmocka_unit_test(test_second_copy_evicts_lru),
        cmocka_unit_test(test_record_bounded_and_cleared),
        cmocka_unit_test(test_l2_install_lru),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
