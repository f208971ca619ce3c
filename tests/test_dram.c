/*
 * test_dram.c -- DRAM channel block: the GTX480 timing conversion, row hit / closed / conflict
 * latencies, FR-FCFS (a younger row hit goes before an older row miss), bank parallelism,
 * streaming bandwidth, writes, the controller latency, the address map, bad input.
 * Latencies are written as numbers and as formulas of the configuration, so a change of
 * either shows up. Each step checks commit copied everything eval wrote.
 */
#include "testutil.h"
#include <math.h>
#include "mem/dram.h"

#define MAXT 4096

struct h {
    struct dram_cfg c;
    struct dram_regs q, d;
    uint64_t now;
    uint64_t done[MAXT];          /* cycle each tag returned (0 = not yet) */
    uint32_t credits[DRAM_MAX_PORTS];
    uint64_t rd, wr, row_hit, row_miss, bus_ticks, bytes;
};

static struct h *mk(uint32_t front)
{
    struct h *h = calloc(1, sizeof *h);
    char err[128];
    dram_cfg_default(&h->c);
    h->c.front_latency = front;
    assert_int_equal(dram_cfg_check(&h->c, err, sizeof err), 0);
    dram_reset(&h->c, &h->q);
    h->d = h->q;
    for (unsigned p = 0; p < h->c.n_ports; p++)
        h->credits[p] = h->c.latq_size / h->c.n_ports;
    return h;
}

static struct mem_req rq(uint64_t addr, uint8_t kind, uint32_t tag)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.bytes = 128;
    r.kind = kind;
    r.tag = tag;
    return r;
}

/* One cycle with up to one request per port (NULL = none). */
static struct dram_out step2(struct h *h, const struct mem_req *p0, const struct mem_req *p1)
{
    struct dram_in in;
    struct dram_out o;
    memset(&in, 0, sizeof in);
    in.now = h->now;
    if (p0) {
        in.req_valid[0] = 1;
        in.req[0] = *p0;
        h->credits[0]--;
    }
    if (p1) {
        in.req_valid[1] = 1;
        in.req[1] = *p1;
        h->credits[1]--;
    }
    dram_eval(&h->c, &h->q, &in, &o, &h->d);
    dram_commit(&h->c, &h->q, &h->d);
    assert_int_equal(memcmp(&h->q, &h->d, sizeof h->q), 0);
    if (o.ret_valid) {
        assert_true(o.ret.tag < MAXT);
        assert_int_equal(h->done[o.ret.tag], 0);
        h->done[o.ret.tag] = h->now;
    }
    for (unsigned p = 0; p < h->c.n_ports; p++)
        if ((o.credit >> p) & 1)
            h->credits[p]++;
    h->rd += o.ev_rd;
    h->wr += o.ev_wr;
    h->row_hit += o.ev_row_hit;
    h->row_miss += o.ev_row_miss;
    h->bus_ticks += o.ev_bus_ticks;
    h->bytes += o.ev_bytes;
    h->now++;
    return o;
}

static struct dram_out step(struct h *h, const struct mem_req *p0)
{
    return step2(h, p0, NULL);
}

static void run_until(struct h *h, uint64_t t)
{
    while (h->now < t)
        step(h, NULL);
}

/* Byte address of the n-th line (on `port`) that maps to (bank, row). */
static uint64_t addr_for(const struct dram_cfg *c, uint32_t bank, uint32_t row, unsigned n,
                         unsigned port)
{
    for (uint64_t u = 0; u < (1u << 24); u++) {
        uint64_t addr = (u * c->line_div) << 7;
        uint32_t b, r;
        dram_map(c, addr, port, &b, &r);
        if (b == bank && r == row && n-- == 0)
            return addr;
    }
    fail_msg("no address for bank %u row %u", bank, row);
    return 0;
}

static uint32_t burst(const struct dram_cfg *c)
{
    return (c->line_ticks + c->tick_per_cycle - 1) / c->tick_per_cycle;
}

static void test_gtx480_timing(void **s)
{
    struct dram_cfg c;
    (void)s;
    dram_cfg_default(&c);
    assert_int_equal(dram_to_core(12, 924, 700), 10);   /* 9.09 -> 10 */
    assert_int_equal(dram_to_core(28, 924, 700), 22);   /* 21.2 -> 22 */
    assert_int_equal(dram_to_core(40, 924, 700), 31);   /* 30.3 -> 31 */
    assert_int_equal(dram_to_core(6, 924, 700), 5);     /* 4.5 -> 5 */
    assert_int_equal(dram_to_core(924, 924, 700), 700); /* exact stays exact */
    assert_int_equal(c.tRCD, 10);
    assert_int_equal(c.tRP, 10);
    assert_int_equal(c.tRAS, 22);
    assert_int_equal(c.tRC, 31);
    assert_int_equal(c.tRRD, 5);
    assert_int_equal(c.tCCD, 2);
    assert_int_equal(c.tCL, 10);
    assert_int_equal(c.tWL, 4);
    assert_int_equal(c.tWR, 10);
    assert_int_equal(c.tRTP, 2);
    assert_int_equal(c.tRTW, 10);
    assert_int_equal(c.tCDLR, 4);
    assert_int_equal(c.nbk, 16);
    /* peak: 128 B per 2800/924 cycles = 42.24 B/cycle = 29.6 GB/s at 700 MHz, x6 = 177 GB/s */
    assert_true(fabs(128.0 * c.tick_per_cycle / c.line_ticks * 0.7 * 6 - 177.4) < 0.1);
    assert_int_equal(burst(&c), 4);
}

static void test_address_map(void **s)
{
    struct dram_cfg c;
    uint32_t b, r;
    (void)s;
    dram_cfg_default(&c);
    /* channel-local line = (line / 12) * 2 + port */
    dram_map(&c, 0, 0, &b, &r);
    assert_int_equal(b, 0);
    assert_int_equal(r, 0);
    dram_map(&c, 0, 1, &b, &r);                          /* c=1: column bit, same bank/row */
    assert_int_equal(b, 0);
    assert_int_equal(r, 0);
    dram_map(&c, (12ull * 1) << 7, 0, &b, &r);           /* c=2: bank bit 0 */
    assert_int_equal(b, 1);
    dram_map(&c, (12ull * 2) << 7, 0, &b, &r);           /* c=4: column again */
    assert_int_equal(b, 0);
    dram_map(&c, (12ull * 32) << 7, 0, &b, &r);          /* c=64: bank bits 3:1 */
    assert_int_equal(b, 2);
    assert_int_equal(r, 0);
    dram_map(&c, (12ull * 256) << 7, 0, &b, &r);         /* c=512: next row */
    assert_int_equal(b, 0);
    assert_int_equal(r, 1);
}

static void test_row_hit_miss_conflict(void **s)
{
    struct h *h = mk(0);
    const struct dram_cfg *c = &h->c;
    struct mem_req a = rq(addr_for(c, 3, 0, 0, 0), MK_LOAD, 1);
    struct mem_req b = rq(addr_for(c, 3, 0, 1, 0), MK_LOAD, 2);
    struct mem_req x = rq(addr_for(c, 3, 1, 0, 0), MK_LOAD, 3);
    uint64_t closed, hit, conflict;
    (void)s;
    /* closed bank: enter queue +1, ACT +1, column +tRCD, data +tCL, burst */
    step(h, &a);
    run_until(h, 100);
    closed = h->done[1];
    assert_int_equal(closed, 2 + c->tRCD + c->tCL + burst(c));
    assert_int_equal(closed, 26);
    /* same row: column at once */
    step(h, &b);
    run_until(h, 200);
    hit = h->done[2] - 100;
    assert_int_equal(hit, 2 + c->tCL + burst(c));
    assert_int_equal(hit, 16);
    /* another row of the same bank: precharge first */
    step(h, &x);
    run_until(h, 300);
    conflict = h->done[3] - 200;
    assert_int_equal(conflict, 2 + c->tRP + c->tRCD + c->tCL + burst(c));
    assert_int_equal(conflict, 36);
    assert_true(hit < closed && closed < conflict);
    assert_int_equal(h->row_hit, 1);
    assert_int_equal(h->row_miss, 2);
    assert_int_equal(h->bytes, 3 * 128);
    assert_false(dram_busy(&h->q));
    free(h);
}

static void test_frfcfs(void **s)
{
    struct h *h = mk(0);
    const struct dram_cfg *c = &h->c;
    struct mem_req x = rq(addr_for(c, 0, 0, 0, 0), MK_LOAD, 1);  /* opens row 0 */
    struct mem_req y = rq(addr_for(c, 0, 1, 0, 0), MK_LOAD, 2);  /* older, row miss */
    struct mem_req z = rq(addr_for(c, 0, 0, 1, 0), MK_LOAD, 3);  /* younger, row hit */
    (void)s;
    step(h, &x);                                 /* 0 */
    step(h, &y);                                 /* 1 */
    step(h, &z);                                 /* 2 */
    run_until(h, 200);
    assert_true(h->done[3] < h->done[2]);        /* the younger row hit first */
    /* x: 26. z: column when the bus allows (x's data ends at 25.03 -> col at 15), done 29.
       y: PRE at ACT(x)+tRAS = 24, ACT 34, column 44, done 58. */
    assert_int_equal(h->done[1], 26);
    assert_int_equal(h->done[3], 29);
    assert_int_equal(h->done[2], 2 + c->tRAS + c->tRP + c->tRCD + c->tCL + burst(c));
    assert_int_equal(h->done[2], 58);
    assert_int_equal(h->row_hit, 1);
    free(h);
}

static void test_bank_parallelism(void **s)
{
    struct h *h = mk(0);
    const struct dram_cfg *c = &h->c;
    struct mem_req a = rq(addr_for(c, 4, 0, 0, 0), MK_LOAD, 1);
    struct mem_req b = rq(addr_for(c, 5, 0, 0, 1), MK_LOAD, 2);  /* other bank, other port */
    struct mem_req a2 = rq(addr_for(c, 6, 0, 0, 0), MK_LOAD, 3);
    struct mem_req b2 = rq(addr_for(c, 6, 1, 0, 1), MK_LOAD, 4); /* same bank, other row */
    uint64_t par, ser;
    (void)s;
    step2(h, &a, &b);
    run_until(h, 200);
    par = h->done[2];
    /* second ACT waits tRRD after the first */
    assert_int_equal(par, 3 + c->tRRD - 1 + c->tRCD + c->tCL + burst(c));
    assert_int_equal(par, 31);
    step2(h, &a2, &b2);
    run_until(h, 400);
    ser = h->done[4] - 200;
    assert_int_equal(ser, 2 + c->tRAS + c->tRP + c->tRCD + c->tCL + burst(c));
    assert_int_equal(ser, 58);
    assert_true(par < ser);
    free(h);
}

static void test_streaming_bandwidth(void **s)
{
    struct h *h = mk(0);
    const unsigned n = 600;
    unsigned sent = 0;
    uint64_t first, last;
    double per_line;
    (void)s;
    /* consecutive lines of both slices of the channel, as a streaming kernel makes them */
    while (sent < n || dram_busy(&h->q)) {
        struct mem_req r[2];
        const struct mem_req *p[2] = {NULL, NULL};
        for (unsigned k = 0; k < 2 && sent < n; k++)
            if (h->credits[k]) {
                r[k] = rq(((uint64_t)(sent / 2) * h->c.line_div) << 7, MK_LOAD, sent);
                p[k] = &r[k];
                sent++;
            }
        step2(h, p[0], p[1]);
        assert_true(h->now < 100000);
    }
    first = UINT64_MAX;
    last = 0;
    for (unsigned i = 0; i < n; i++) {
        assert_true(h->done[i] != 0);
        if (h->done[i] < first)
            first = h->done[i];
        if (h->done[i] > last)
            last = h->done[i];
    }
    per_line = (double)(last - first) / (n - 1);
    print_message("streaming: %.3f cycles per line (bus minimum %.3f), %.1f bytes/cycle, "
                  "row hits %llu, row misses %llu\n", per_line, 2800.0 / 924, 128 / per_line,
                  (unsigned long long)h->row_hit, (unsigned long long)h->row_miss);
    /* the bus needs 3.03 cycles per line; row switches are hidden by other banks */
    assert_true(per_line >= 2800.0 / 924 - 0.01);
    assert_true(per_line < 2800.0 / 924 * 1.10);
    assert_true(h->row_hit > 10 * h->row_miss);
    assert_int_equal(h->bus_ticks, (uint64_t)n * h->c.line_ticks);
    free(h);
}

static void test_writes(void **s)
{
    struct h *h = mk(0);
    const struct dram_cfg *c = &h->c;
    struct mem_req w = rq(addr_for(c, 2, 0, 0, 0), MK_STORE, 1);
    struct mem_req r = rq(addr_for(c, 2, 0, 1, 0), MK_LOAD, 2);
    (void)s;
    step(h, &w);
    step(h, &r);
    run_until(h, 200);
    assert_int_equal(h->done[1], 0);             /* writes are not answered */
    assert_int_equal(h->wr, 1);
    assert_int_equal(h->rd, 1);
    /* write column at 12, data 16..19.03 -> ends 20; read waits tCDLR: column 24, done 38 */
    assert_int_equal(h->done[2], 2 + c->tRCD + c->tWL + burst(c) + c->tCDLR + c->tCL + burst(c));
    assert_int_equal(h->done[2], 38);
    free(h);
}

static void test_front_latency(void **s)
{
    struct h *h = mk(100);
    struct mem_req a = rq(0, MK_LOAD, 1);
    struct dram_out o;
    int credit_at = -1;
    (void)s;
    assert_int_equal(h->c.front_latency, 100);
    o = step(h, &a);
    assert_int_equal(dram_next_event(&h->c, &h->q, 0), 100);
    while (h->now < 300) {
        o = step(h, NULL);
        if (o.credit && credit_at < 0)
            credit_at = (int)(h->now - 1);
    }
    assert_int_equal(credit_at, 100);            /* the slot frees when it enters the queue */
    /* enters the queue at 100, ACT at 101: front_latency + 1 + tRCD + tCL + burst */
    assert_int_equal(h->done[1], 100 + 1 + h->c.tRCD + h->c.tCL + burst(&h->c));
    assert_int_equal(h->done[1], 125);
    free(h);
}

static void test_overflow_is_reported(void **s)
{
    struct h *h = mk(1000);
    struct mem_req a = rq(0, MK_LOAD, 1);
    struct dram_out o;
    int bad = 0;
    (void)s;
    for (unsigned i = 0; i < h->c.latq_size + 3; i++) {
        a.tag = i;
        o = step(h, &a);
        bad += o.ev_bad;
    }
    assert_int_equal(bad, 3);                    /* dropped and counted, no crash */
    free(h);
}

static void test_cfg_check(void **s)
{
    struct dram_cfg c;
    char err[128];
    (void)s;
    dram_cfg_default(&c);
    c.nbk = 12;
    assert_int_equal(dram_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "nbk"));
    dram_cfg_default(&c);
    c.tRCD = 0;
    assert_int_equal(dram_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "tRCD"));
    dram_cfg_default(&c);
    c.queue_size = 65;
    assert_int_equal(dram_cfg_check(&c, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtx480_timing),
        cmocka_unit_test(test_address_map),
        cmocka_unit_test(test_row_hit_miss_conflict),
        cmocka_unit_test(test_frfcfs),
        cmocka_unit_test(test_bank_parallelism),
        cmocka_unit_test(test_streaming_bandwidth),
        cmocka_unit_test(test_writes),
        cmocka_unit_test(test_front_latency),
        cmocka_unit_test(test_overflow_is_reported),
        cmocka_unit_test(test_cfg_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
