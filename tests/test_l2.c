/*
 * test_l2.c -- L2 slice block: ROP latency, hit/miss, MSHR merging, write-back of dirty
 * victims, write-allocate, atomics, credits, stalls, bad input. Each step checks that commit
 * copied everything eval wrote (committed state == next-state copy).
 */
#include "testutil.h"
#include "mem/l2.h"

struct h {
    struct l2_cfg c;
    struct l2_regs q, d;
    uint64_t now;
    int auto_credit;              /* return every credit the cycle after it was used */
    struct l2_out last;
};

static struct h *mk(const struct l2_cfg *c)
{
    struct h *h = calloc(1, sizeof *h);
    char err[128];
    if (c)
        h->c = *c;
    else
        l2_cfg_default(&h->c);
    assert_int_equal(l2_cfg_check(&h->c, err, sizeof err), 0);
    l2_reset(&h->c, &h->q);
    h->d = h->q;
    h->auto_credit = 1;
    return h;
}

static struct mem_req req(uint8_t kind, uint64_t line, uint32_t tag, uint32_t bytes)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = line << 7;
    r.bytes = bytes;
    r.kind = kind;
    r.sm = 1;
    r.tag = tag;
    return r;
}

static struct l2_out step(struct h *h, const struct mem_req *rq, const struct mem_req *fill)
{
    struct l2_in in;
    struct l2_out o;
    memset(&in, 0, sizeof in);
    in.now = h->now;
    if (rq) {
        in.req_valid = 1;
        in.req = *rq;
    }
    if (fill) {
        in.fill_valid = 1;
        in.fill = *fill;
    }
    if (h->auto_credit) {
        in.icnt_credit = h->last.resp_valid;
        in.dram_credit = h->last.dram_valid;
    }
    l2_eval(&h->c, &h->q, &in, &o, &h->d);
    l2_commit(&h->c, &h->q, &h->d);
    assert_int_equal(memcmp(&h->q, &h->d, sizeof h->q), 0);
    h->last = o;
    h->now++;
    return o;
}

/* Line number of the n-th line of set s in this slice's index space. */
static uint64_t line_of(const struct l2_cfg *c, unsigned s, unsigned n)
{
    return ((uint64_t)n * c->nsets + s) * c->line_div;
}

/* Step until a DRAM packet or a response appears (or limit); returns the cycle. */
static uint64_t until(struct h *h, int want_dram, struct l2_out *o, uint64_t limit)
{
    while (h->now < limit) {
        *o = step(h, NULL, NULL);
        if (want_dram ? o->dram_valid : o->resp_valid)
            return h->now - 1;
    }
    fail_msg("nothing by cycle %llu", (unsigned long long)limit);
    return 0;
}

static void test_defaults(void **s)
{
    struct l2_cfg c;
    char err[128];
    (void)s;
    l2_cfg_default(&c);
    assert_int_equal(c.nsets * c.assoc * 128, 64 * 1024);
    assert_int_equal(c.rop_latency, 120);
    assert_int_equal(l2_cfg_check(&c, err, sizeof err), 0);
    c.nsets = 48;
    assert_int_equal(l2_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "nsets"));
    l2_cfg_default(&c);
    c.dramq_size = 1;
    assert_int_equal(l2_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dramq_size"));
}

static void test_miss_then_hit(void **s)
{
    struct h *h = mk(NULL);
    struct mem_req r = req(MK_LOAD, line_of(&h->c, 3, 0), 7, 128);
    struct l2_out o;
    uint64_t t;
    (void)s;
    o = step(h, &r, NULL);                         /* cycle 0 */
    assert_false(o.icnt_credit);
    t = until(h, 1, &o, 1000);
    assert_int_equal(t, 121);                      /* tag check at 120, sent at 121 */
    assert_int_equal(o.dram.kind, MK_LOAD);
    assert_int_equal(o.dram.addr, r.addr);
    assert_int_equal(o.dram.bytes, 128);
    while (h->now < 200)
        assert_false(step(h, NULL, NULL).resp_valid);
    o = step(h, NULL, &o.dram);                    /* fill at 200 */
    assert_false(o.resp_valid);
    t = until(h, 0, &o, 1000);
    assert_int_equal(t, 202);                      /* drained at 201, sent at 202 */
    assert_int_equal(o.resp.tag, 7);
    assert_false(l2_busy(&h->c, &h->q));
    /* hit: arrives at 300, tag check at 420, response at 421 */
    while (h->now < 300)
        step(h, NULL, NULL);
    r.tag = 8;
    step(h, &r, NULL);
    assert_int_equal(l2_next_event(&h->c, &h->q, 300), 420);
    t = until(h, 0, &o, 1000);
    assert_int_equal(t, 421);
    assert_true(h->last.resp_valid);
    free(h);
}

static void test_events(void **s)
{
    struct h *h = mk(NULL);
    struct mem_req r = req(MK_LOAD, line_of(&h->c, 0, 0), 1, 128);
    struct l2_out o;
    int hit = 0, miss = 0, access = 0;
    (void)s;
    h->c.rop_latency = 0;
    step(h, &r, NULL);
    o = step(h, NULL, NULL);                      /* access: miss */
    miss += o.ev_miss;
    access += o.ev_access;
    assert_true(o.ev_fetch);
    o = step(h, NULL, NULL);
    assert_true(o.dram_valid);
    step(h, NULL, &o.dram);
    step(h, &r, NULL);
    o = step(h, NULL, NULL);
    hit += o.ev_hit;
    access += o.ev_access;
    assert_int_equal(hit, 1);
    assert_int_equal(miss, 1);
    assert_int_equal(access, 2);
    free(h);
}

static void test_merge(void **s)
{
    struct h *h = mk(NULL);
    struct mem_req a = req(MK_LOAD, line_of(&h->c, 9, 0), 1, 128), b = a;
    struct l2_out o, f;
    int fetches = 0, resps = 0;
    (void)s;
    b.tag = 2;
    b.sm = 4;
    step(h, &a, NULL);
    o = step(h, &b, NULL);
    for (int i = 0; i < 130; i++) {
        o = step(h, NULL, NULL);
        if (o.ev_merge)
            assert_true(o.ev_access);
        if (o.dram_valid) {
            fetches++;
            f = o;
        }
    }
    assert_int_equal(fetches, 1);
    step(h, NULL, &f.dram);
    for (int i = 0; i < 5; i++) {
        o = step(h, NULL, NULL);
        if (o.resp_valid) {
            resps++;
            assert_int_equal(o.resp.tag, (uint32_t)resps);
        }
    }
    assert_int_equal(resps, 2);
    free(h);
}

static void test_writeback(void **s)
{
    struct h *h = mk(NULL);
    struct l2_out o;
    int wbs = 0, fetch = 0;
    uint64_t victim = line_of(&h->c, 5, 0);
    (void)s;
    h->c.rop_latency = 0;
    /* 8 full-line stores fill set 5 with dirty lines without any DRAM read */
    for (unsigned n = 0; n < 8; n++) {
        struct mem_req w = req(MK_STORE, line_of(&h->c, 5, n), 0, 128);
        step(h, &w, NULL);
        o = step(h, NULL, NULL);
        assert_true(o.ev_miss && o.ev_write && !o.ev_fetch && !o.ev_writeback);
        assert_false(o.resp_valid);                 /* stores are not acknowledged */
    }
    {
        struct mem_req r = req(MK_LOAD, line_of(&h->c, 5, 8), 9, 128);
        step(h, &r, NULL);
    }
    o = step(h, NULL, NULL);
    assert_true(o.ev_miss && o.ev_writeback && o.ev_fetch);
    for (int i = 0; i < 4; i++) {
        o = step(h, NULL, NULL);
        if (o.dram_valid && o.dram.kind == MK_STORE) {
            wbs++;
            assert_int_equal(o.dram.addr, victim << 7);   /* the LRU line */
            assert_int_equal(o.dram.sm, L2_WB_SM);
        } else if (o.dram_valid) {
            fetch++;
        }
    }
    assert_int_equal(wbs, 1);
    assert_int_equal(fetch, 1);
    free(h);
}

static void test_partial_write_allocates(void **s)
{
    struct h *h = mk(NULL);
    struct mem_req w = req(MK_STORE, line_of(&h->c, 1, 0), 0, 4);
    struct l2_out o, f;
    (void)s;
    h->c.rop_latency = 0;
    step(h, &w, NULL);
    o = step(h, NULL, NULL);
    assert_true(o.ev_miss && o.ev_fetch);           /* fetch on write */
    f = step(h, NULL, NULL);
    assert_true(f.dram_valid);
    assert_int_equal(f.dram.kind, MK_LOAD);
    o = step(h, NULL, &f.dram);
    for (int i = 0; i < 3; i++)
        assert_false(step(h, NULL, NULL).resp_valid);
    assert_false(l2_busy(&h->c, &h->q));
    /* the line is dirty: evicting it writes it back. Fill the set with 8 clean reads. */
    for (unsigned n = 1; n <= 8; n++) {
        struct mem_req r = req(MK_LOAD, line_of(&h->c, 1, n), n, 128);
        int seen_wb = 0;
        step(h, &r, NULL);
        for (int i = 0; i < 4; i++) {
            o = step(h, NULL, NULL);
            if (o.dram_valid && o.dram.kind == MK_STORE)
                seen_wb = 1;
            if (o.dram_valid && o.dram.kind == MK_LOAD)
                step(h, NULL, &o.dram);
        }
        assert_int_equal(seen_wb, n == 8);
    }
    free(h);
}

static void test_atomic(void **s)
{
    struct h *h = mk(NULL);
    struct mem_req a = req(MK_ATOMIC, line_of(&h->c, 2, 0), 5, 4);
    struct l2_out o, f;
    (void)s;
    h->c.rop_latency = 0;
    step(h, &a, NULL);
    o = step(h, NULL, NULL);
    assert_true(o.ev_atomic && o.ev_miss);
    f = step(h, NULL, NULL);
    step(h, NULL, &f.dram);
    step(h, NULL, NULL);
    o = step(h, NULL, NULL);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.kind, MK_ATOMIC);
    assert_int_equal(o.resp.tag, 5);
    /* the line is dirty now */
    assert_int_equal(h->q.tags[2][0].dirty, 1);
    a.tag = 6;
    step(h, &a, NULL);
    o = step(h, NULL, NULL);
    assert_true(o.ev_hit && o.ev_atomic);
    o = step(h, NULL, NULL);
    assert_true(o.resp_valid);
    free(h);
}

static void test_ack_writes(void **s)
{
    struct l2_cfg c;
    struct h *h;
    struct l2_out o;
    (void)s;
    l2_cfg_default(&c);
    c.ack_writes = 1;
    c.rop_latency = 0;
    h = mk(&c);
    {
        struct mem_req w = req(MK_STORE, line_of(&h->c, 0, 0), 3, 128);
        step(h, &w, NULL);
    }
    step(h, NULL, NULL);
    o = step(h, NULL, NULL);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.kind, MK_STORE);
    assert_int_equal(o.resp.tag, 3);
    free(h);
}

static void test_mshr_full_and_credits(void **s)
{
    struct l2_cfg c;
    struct h *h;
    struct l2_out o, f[3];
    int nf = 0, stalls = 0, credits = 0;
    (void)s;
    l2_cfg_default(&c);
    c.n_mshr = 2;
    c.rop_latency = 0;
    h = mk(&c);
    for (unsigned i = 0; i < 3; i++) {
        struct mem_req r = req(MK_LOAD, line_of(&h->c, i, 0), i, 128);
        o = step(h, &r, NULL);
        credits += o.icnt_credit;
        if (o.dram_valid)
            f[nf++] = o;
    }
    for (int i = 0; i < 6; i++) {
        o = step(h, NULL, NULL);
        stalls += o.ev_stall;
        credits += o.icnt_credit;
        if (o.ev_stall)
            assert_int_equal(o.stall, L2_STALL_MSHR);
        if (o.dram_valid)
            f[nf++] = o;
    }
    assert_int_equal(nf, 2);
    assert_int_equal(credits, 2);                   /* the third is still in the ROP queue */
    assert_true(stalls >= 5);
    step(h, NULL, &f[0].dram);
    for (int i = 0; i < 4; i++) {
        o = step(h, NULL, NULL);
        credits += o.icnt_credit;
        if (o.dram_valid)
            f[nf++] = o;
    }
    assert_int_equal(credits, 3);
    assert_int_equal(nf, 3);
    /* without icnt credits responses wait */
    h->auto_credit = 0;
    h->q.c.cr_icnt = h->d.c.cr_icnt = 0;
    step(h, NULL, &f[1].dram);
    for (int i = 0; i < 10; i++)
        assert_false(step(h, NULL, NULL).resp_valid);
    assert_true(l2_next_event(&h->c, &h->q, h->now) == UINT64_MAX);
    {
        struct l2_in in;
        memset(&in, 0, sizeof in);
        in.now = h->now;
        in.icnt_credit = 1;
        l2_eval(&h->c, &h->q, &in, &o, &h->d);
        l2_commit(&h->c, &h->q, &h->d);
        assert_true(o.resp_valid);
    }
    free(h);
}

static void test_bad_input(void **s)
{
    struct h *h = mk(NULL);
    struct mem_req r = req(MK_LOAD, 5, 1, 128);
    struct l2_out o;
    (void)s;
    h->c.rop_latency = 0;
    r.kind = 99;
    step(h, &r, NULL);
    o = step(h, NULL, NULL);
    assert_true(o.ev_bad && o.icnt_credit);         /* dropped, slot returned */
    o = step(h, NULL, &r);                          /* a fill nobody waits for */
    assert_true(o.ev_bad);
    assert_false(l2_busy(&h->c, &h->q));
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_miss_then_hit),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_writeback),
        cmocka_unit_test(test_partial_write_allocates),
        cmocka_unit_test(test_atomic),
        cmocka_unit_test(test_ack_writes),
        cmocka_unit_test(test_mshr_full_and_credits),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
