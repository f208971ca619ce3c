/*
 * test_fetch.c -- cmocka tests for model/sm/fetch.c: round-robin selection, I-cache miss then
 * hit (MSHR merge, request handshake, fill), decode latency, I-buffer capacity and consume,
 * flush (also of instructions still in decode and of warps waiting on a miss), the end of the
 * program, LRU replacement, MSHR exhaustion, multi-instruction fetch, bad ports, the
 * single-warp issue pattern the stage latencies imply, several fetch ports (per-port round
 * robin, same-cycle misses sharing an MSHR), the steady-state bandwidth ports x width, and
 * random traffic with 1, 2 and 4 ports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sm/fetch.h"

struct tb { struct fetch_cfg c; struct fetch_regs q, d; struct fetch_in in; struct fetch_out o; };

static struct tb *tb_new(unsigned nslots)
{
    char err[160];
    struct tb *t = calloc(1, sizeof *t);
    assert_non_null(t);
    fetch_cfg_default(&t->c);
    t->c.nslots = (uint8_t)nslots;
    t->c.sm_id = 2;
    if (fetch_cfg_check(&t->c, err, sizeof err))
        fail_msg("%s", err);
    fetch_reset(&t->c, &t->q);
    t->d = t->q;
    t->in.pc_end = 1000;
    return t;
}

static void reinit(struct tb *t)
{
    char err[160];
    if (fetch_cfg_check(&t->c, err, sizeof err))
        fail_msg("%s", err);
    fetch_reset(&t->c, &t->q);
    t->d = t->q;
}

/* One cycle; per-cycle ports (flush, consume, fill, req_ready) are cleared afterwards. */
static void step(struct tb *t)
{
    fetch_eval(&t->c, &t->q, &t->in, &t->o, &t->d);
    fetch_commit(&t->c, &t->q, &t->d);
    assert_memory_equal(&t->q, &t->d, sizeof t->q);
    t->in.flush = 0;
    memset(t->in.consume, 0, sizeof t->in.consume);
    t->in.fill_v = 0;
    t->in.req_ready = 0;
}

/* Step with an always-ready memory that answers each request `lat` cycles later (one
   response per cycle, oldest first). */
struct mem { unsigned n, due[8], tag[8]; };
static void step_mem(struct tb *t, struct mem *m, unsigned *cyc, unsigned lat)
{
    t->in.req_ready = 1;
    if (m->n && m->due[0] <= *cyc) {
        t->in.fill_v = 1;
        t->in.fill_tag = (uint8_t)m->tag[0];
        m->n--;
        memmove(m->due, m->due + 1, m->n * sizeof m->due[0]);
        memmove(m->tag, m->tag + 1, m->n * sizeof m->tag[0]);
    }
    step(t);
    if (t->o.req_v) {
        assert_true(m->n < 8);
        m->due[m->n] = *cyc + lat;
        m->tag[m->n++] = t->o.req.tag;
    }
    (*cyc)++;
}

static void test_miss_then_hit(void **st)
{
    (void)st;
    struct tb *t = tb_new(4);
    t->in.pc_v = 0x1;
    t->in.pc[0] = 0;
    t->in.req_ready = 0;
    step(t);                                     /* cycle 0: lookup misses, MSHR allocated */
    assert_int_equal(t->o.ev_fetch, 1);
    assert_int_equal(t->o.ev_miss, 1);
    assert_true(t->o.req_v);                     /* shown at once; not accepted (ready 0) */
    assert_int_equal(t->o.req.kind, MK_IFETCH);
    assert_true(t->o.req.addr == t->c.code_base);
    assert_int_equal(t->o.req.bytes, 128);
    assert_int_equal(t->o.req.sm, 2);
    assert_int_equal(t->o.req.warp, 0);
    assert_true(t->q.wait & 1u);
    step(t);                                     /* still waiting: no lookup, request again */
    assert_int_equal(t->o.ev_fetch, 0);
    assert_true(t->o.req_v);
    t->in.req_ready = 1;
    step(t);                                     /* accepted */
    assert_true(t->o.req_v);
    unsigned tag = t->o.req.tag;
    step(t);
    assert_false(t->o.req_v);                    /* sent: not repeated */
    for (unsigned k = 0; k < 5; k++) {
        step(t);
        assert_int_equal(t->o.ev_fetch, 0);
    }
    t->in.fill_v = 1;
    t->in.fill_tag = (uint8_t)tag;
    step(t);                                     /* fill; the warp fetches again and hits */
    assert_int_equal(t->o.ev_hit, 1);
    assert_int_equal(t->o.ev_insn, 1);
    assert_false(t->o.head_v & 1u);
    step(t);                                     /* decode (1 cycle) */
    assert_false(t->o.head_v & 1u);
    assert_int_equal(t->o.ev_hit, 1);            /* second instruction, same line: hit */
    step(t);                                     /* in the I-buffer: issuable now */
    assert_true(t->o.head_v & 1u);
    assert_int_equal(t->o.head_pc[0], 0);
    free(t);
}

static void test_mshr_merge_and_round_robin(void **st)
{
    (void)st;
    struct tb *t = tb_new(8);
    struct mem m = {0};
    unsigned cyc = 0;
    t->in.pc_v = 0x0f;                           /* slots 0..3, all at pc 0 */
    step_mem(t, &m, &cyc, 10);                   /* slot 0 misses */
    assert_int_equal(t->q.rr[0], 0);
    step_mem(t, &m, &cyc, 10);                   /* slot 1: same line, merged */
    assert_int_equal(t->q.rr[0], 1);
    assert_int_equal(t->o.ev_miss, 1);
    assert_int_equal(__builtin_popcount(t->q.ms_v), 1);
    step_mem(t, &m, &cyc, 10);
    step_mem(t, &m, &cyc, 10);
    assert_true(t->q.wait == 0x0f);
    assert_true(t->q.ms_wait[0] == 0x0f);
    /* nothing to do until the fill: all four wake, then fetch in round-robin order */
    int order[12], n = 0;
    while (n < 12 && cyc < 100) {
        step_mem(t, &m, &cyc, 10);
        if (t->o.ev_fetch) {
            assert_int_equal(t->o.ev_hit, 1);
            order[n++] = t->q.rr[0];
        }
    }
    /* 0 1 2 3 twice (two entries each), then all full until something is consumed */
    int exp[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    assert_int_equal(n, 8);
    assert_memory_equal(order, exp, sizeof exp);
    for (unsigned s = 0; s < 4; s++) {
        assert_int_equal(t->q.ibuf_n[s], 2);
        assert_int_equal(t->q.ibuf_pc[0][s], 0);
        assert_int_equal(t->q.ibuf_pc[1][s], 1);
    }
    assert_true(t->o.head_v == 0x0f);
    /* consume slot 2 (scheduler 0) and slot 1 (scheduler 1): they refill, 1 first (rr) */
    t->in.consume[0] = (struct fetch_consume){1, 2};
    t->in.consume[1] = (struct fetch_consume){1, 1};
    step_mem(t, &m, &cyc, 10);
    assert_int_equal(t->o.head_pc[2], 1);
    assert_int_equal(t->o.head_pc[1], 1);
    assert_int_equal(t->q.rr[0], 1);
    assert_int_equal(t->q.dq_pc[0][0], 2);
    step_mem(t, &m, &cyc, 10);
    assert_int_equal(t->q.rr[0], 2);
    free(t);
}

static void test_decode_latency_and_issue_pattern(void **st)
{
    (void)st;
    for (unsigned dc = 0; dc <= 3; dc++) {
        struct tb *t = tb_new(1);
        t->c.decode_cycles = (uint8_t)dc;
        reinit(t);
        struct mem m = {0};
        unsigned cyc = 0;
        t->in.pc_v = 1;
        while (!(t->q.ms_v == 0 && t->q.wait == 0 && cyc > 2))
            step_mem(t, &m, &cyc, 3);            /* warm the line */
        fetch_reset(&t->c, &t->q);               /* keep the I-cache, clear the rest */
        struct fetch_regs keep = t->d;
        memcpy(t->q.ic_tag, keep.ic_tag, sizeof keep.ic_tag);
        memcpy(t->q.ic_v, keep.ic_v, sizeof keep.ic_v);
        memcpy(t->q.ic_age, keep.ic_age, sizeof keep.ic_age);
        t->d = t->q;
        /* one warp, the SM issues the head whenever there is one; the consume arrives a
           cycle later (the issue latch) */
        unsigned issued[8], n = 0, latch = 0;
        for (unsigned c = 0; c < 30 && n < 8; c++) {
            if (latch)
                t->in.consume[0] = (struct fetch_consume){1, 0};
            step(t);
            latch = 0;
            if (t->o.head_v & 1u) {
                assert_int_equal(t->o.head_pc[0], n);   /* in order */
                issued[n++] = c;
                latch = 1;
            }
        }
        /* fetched in cycle 0, issuable in cycle 1 + decode_cycles; with 2 entries per warp
           (decode counts as taken) the refill follows the consume */
        assert_int_equal(issued[0], 1 + dc);
        assert_int_equal(issued[1], 2 + dc);
        if (dc == 1) {
            unsigned exp[8] = {2, 3, 5, 6, 8, 9, 11, 12};
            assert_memory_equal(issued, exp, sizeof exp);
        }
        free(t);
    }
}

static void test_flush(void **st)
{
    (void)st;
    struct tb *t = tb_new(2);
    struct mem m = {0};
    unsigned cyc = 0;
    t->in.pc_v = 1;
    t->in.pc[0] = 0;
    while (t->q.ibuf_n[0] < 2)
        step_mem(t, &m, &cyc, 3);
    assert_int_equal(t->o.head_pc[0], 0);
    /* a taken branch: the SIMT pc is now 40, in another line (16 instructions per line) */
    t->in.pc[0] = 40;
    t->in.flush = 1;
    step_mem(t, &m, &cyc, 3);
    assert_false(t->o.head_v & 1u);
    assert_int_equal(t->q.ibuf_n[0], 0);
    assert_int_equal(t->o.ev_miss, 1);           /* fetched from the new pc in the same cycle */
    assert_true(t->q.wait & 1u);
    /* flush while waiting for the miss: the wait is dropped, the line still arrives */
    t->in.pc[0] = 3;
    t->in.flush = 1;
    step_mem(t, &m, &cyc, 3);
    assert_int_equal(t->o.ev_hit, 1);            /* pc 3 is in the first line */
    assert_false(t->q.wait & 1u);
    assert_true(t->q.ms_wait[0] == 0 || !(t->q.ms_v & 1u));
    /* flush an instruction in decode: it never arrives */
    t->in.flush = 1;
    t->in.pc[0] = 7;
    step_mem(t, &m, &cyc, 3);
    assert_int_equal(t->q.dq_pc[0][0], 7);          /* the new fetch */
    for (unsigned k = 0; k < 4; k++)
        step_mem(t, &m, &cyc, 3);
    assert_int_equal(t->q.ibuf_n[0], 2);
    assert_int_equal(t->o.head_pc[0], 7);
    assert_int_equal(t->q.ibuf_pc[1][0], 8);
    /* consume and flush in one cycle: flush wins, nothing left */
    t->in.consume[0] = (struct fetch_consume){1, 0};
    t->in.flush = 1;
    t->in.pc_v = 0;                              /* and the warp may not fetch now */
    step(t);
    assert_false(t->o.head_v & 1u);
    assert_int_equal(t->q.ibuf_n[0], 0);
    assert_int_equal(t->q.nfl[0], 0);
    assert_int_equal(t->o.err, 0);
    free(t);
}

static void test_program_end_and_width(void **st)
{
    (void)st;
    struct tb *t = tb_new(1);
    t->c.width = 2;
    t->c.ibuf_entries = 4;
    reinit(t);
    struct mem m = {0};
    unsigned cyc = 0;
    t->in.pc_v = 1;
    t->in.pc[0] = 13;
    t->in.pc_end = 18;
    unsigned got = 0;
    for (unsigned k = 0; k < 40; k++) {
        step_mem(t, &m, &cyc, 2);
        got += t->o.ev_insn;
        if (t->o.ev_hit)
            assert_true(t->o.ev_insn >= 1 && t->o.ev_insn <= 2);
        if (t->o.head_v & 1u)
            t->in.consume[0] = (struct fetch_consume){1, 0};
    }
    /* 13,14 | 15 (end of the line: 16 instructions of 8 bytes) | 16,17 | nothing at 18 */
    assert_int_equal(got, 5);
    assert_false(t->o.head_v & 1u);
    free(t);
}

static void test_lru_and_mshr_full(void **st)
{
    (void)st;
    struct tb *t = tb_new(8);
    struct mem m = {0};
    unsigned cyc = 0;
    /* 4 sets x 4 ways; lines 0,4,8,12,16 (pc 0,64,128,192,256) map to set 0 */
    for (unsigned i = 0; i < 5; i++) {
        t->in.pc_v = 1;
        t->in.flush = 1;
        t->in.pc[0] = i * 64;
        while (1) {
            step_mem(t, &m, &cyc, 2);
            t->in.flush = 0;
            if (t->o.ev_hit)
                break;
        }
    }
    /* line 0 (least recently used) was evicted by line 16; line 4 is still there */
    t->in.flush = 1;
    t->in.pc[0] = 64;
    step_mem(t, &m, &cyc, 2);
    assert_int_equal(t->o.ev_hit, 1);
    t->in.flush = 1;
    t->in.pc[0] = 0;
    step_mem(t, &m, &cyc, 2);
    assert_int_equal(t->o.ev_miss, 1);
    free(t);

    /* two MSHRs: a third distinct line finds none and retries later */
    t = tb_new(8);
    t->in.pc_v = 0x7;
    t->in.pc[0] = 0;
    t->in.pc[1] = 16;
    t->in.pc[2] = 32;
    step(t);
    step(t);
    step(t);
    assert_int_equal(t->o.ev_miss, 1);
    assert_int_equal(t->o.ev_mshr_full, 1);
    assert_true(t->q.wait == 0x3);
    free(t);
}

static void test_bad_ports(void **st)
{
    (void)st;
    struct tb *t = tb_new(4);
    char err[160];
    t->in.consume[0] = (struct fetch_consume){1, 1};     /* empty I-buffer */
    step(t);
    assert_true(t->o.err & FETCH_E_EMPTY);
    t->in.consume[1] = (struct fetch_consume){1, 40};    /* slot >= nslots */
    step(t);
    assert_true(t->o.err & FETCH_E_SLOT);
    t->in.flush = 1ull << 50;
    step(t);
    assert_true(t->o.err & FETCH_E_SLOT);
    t->in.fill_v = 1;                                     /* no MSHR waiting */
    t->in.fill_tag = 1;
    step(t);
    assert_true(t->o.err & FETCH_E_FILL);
    t->in.pc_v = ~0ull;                                   /* slots beyond nslots ignored */
    t->in.pc_end = 0;                                     /* and nothing to fetch */
    step(t);
    assert_int_equal(t->o.ev_fetch, 0);
    free(t);
    struct fetch_cfg c;
    fetch_cfg_default(&c);
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), 0);
    c.ic_sets = 3;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "ic_sets"));
    fetch_cfg_default(&c);
    c.width = 3;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
    fetch_cfg_default(&c);
    c.decode_cycles = 8;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
    fetch_cfg_default(&c);
    c.code_base = 100;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
    fetch_cfg_default(&c);
    c.mshrs = 0;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
}

/* Random traffic with `ports` fetch ports of `width`: the I-buffer always holds consecutive
   pcs starting at the warp's pc. */
static void random_consistency(unsigned ports, unsigned width)
{
    struct tb *t = tb_new(48);
    struct mem m = {0};
    unsigned cyc = 0;
    t->c.ports = (uint8_t)ports;
    t->c.width = (uint8_t)width;
    reinit(t);
    uint32_t pc[48];
    srand(99);
    t->in.pc_v = (1ull << 48) - 1;
    t->in.pc_end = 3000;
    for (unsigned s = 0; s < 48; s++)
        t->in.pc[s] = pc[s] = (uint32_t)rand() % 2000;
    t->in.flush = t->in.pc_v;
    unsigned issued = 0;
    for (unsigned k = 0; k < 20000; k++) {
        /* two schedulers consume a head each; sometimes a warp jumps */
        unsigned nc = 0;
        uint64_t heads = t->q.hv;
        for (unsigned s = (unsigned)rand() % 48, i = 0; i < 48 && nc < 2; i++, s = (s + 1) % 48) {
            if (!(heads >> s & 1u) || rand() % 2)
                continue;
            assert_int_equal(t->q.ibuf_pc[0][s], pc[s]);
            t->in.consume[nc++] = (struct fetch_consume){1, (uint8_t)s};
            pc[s]++;
            issued++;
            if (rand() % 10 == 0) {
                pc[s] = (uint32_t)rand() % 2000;
                t->in.flush |= 1ull << s;
            }
            t->in.pc[s] = pc[s];
        }
        step_mem(t, &m, &cyc, 1 + (unsigned)rand() % 20);
        assert_int_equal(t->o.err, 0);
        for (uint64_t hm = t->o.head_v; hm; hm &= hm - 1) {
            unsigned s = (unsigned)__builtin_ctzll(hm);
            for (unsigned e = 0; e < t->q.ibuf_n[s]; e++)
                assert_int_equal(t->q.ibuf_pc[e][s], pc[s] + e);
        }
    }
    assert_true(issued > 5000);
    free(t);
}

/* Warm the lines of pcs 0..31 for slots pc_v (each slot at pc 0), then empty the I-buffers
   and decode pipes, keeping the I-cache. */
static void warm(struct tb *t, slotmask pc_v)
{
    struct mem m = {0};
    unsigned cyc = 0;
    for (unsigned pc = 0; pc < 32; pc += 16) {
        t->in.pc_v = 1;
        t->in.pc[0] = pc;
        t->in.flush = 1;
        while (!(t->o.ev_hit && cyc > 0))
            step_mem(t, &m, &cyc, 3);
        step_mem(t, &m, &cyc, 3);
    }
    struct fetch_regs keep = t->q;
    fetch_reset(&t->c, &t->q);
    memcpy(t->q.ic_tag, keep.ic_tag, sizeof keep.ic_tag);
    memcpy(t->q.ic_v, keep.ic_v, sizeof keep.ic_v);
    memcpy(t->q.ic_age, keep.ic_age, sizeof keep.ic_age);
    t->d = t->q;
    t->in.pc_v = pc_v;
    memset(t->in.pc, 0, sizeof t->in.pc);
}

/* Two fetch ports: slot w is fetched by port w % 2, both ports look up and decode in the
   same cycle, each round robin over its own slots; two misses on one line in one cycle share
   an MSHR. */
static void test_two_ports(void **st)
{
    (void)st;
    struct tb *t = tb_new(8);
    t->c.ports = 2;
    reinit(t);
    t->in.pc_v = 0x3;                            /* slots 0 (port 0) and 1 (port 1), pc 0 */
    step(t);
    assert_int_equal(t->o.ev_fetch, 2);
    assert_int_equal(t->o.ev_miss, 2);
    assert_int_equal(__builtin_popcount(t->q.ms_v), 1);
    assert_true(t->q.ms_wait[0] == 0x3 && t->q.wait == 0x3);
    free(t);

    t = tb_new(8);
    t->c.ports = 2;
    reinit(t);
    warm(t, 0xff);
    int order[2][8], n = 0;
    for (unsigned c = 0; c < 8; c++) {            /* 8 slots x 2 entries = 16 fetches */
        step(t);
        assert_int_equal(t->o.ev_fetch, 2);
        assert_int_equal(t->o.ev_hit, 2);
        assert_int_equal(t->o.ev_insn, 2);
        order[0][n] = t->q.rr[0];
        order[1][n++] = t->q.rr[1];
        if (c == 2)                              /* fetched in cycle 0, issuable in 2 */
            assert_true(t->o.head_v == 0x3);
    }
    int exp[2][8] = {{0, 2, 4, 6, 0, 2, 4, 6}, {1, 3, 5, 7, 1, 3, 5, 7}};
    assert_memory_equal(order, exp, sizeof exp);
    step(t);                                     /* all full */
    assert_int_equal(t->o.ev_fetch, 0);
    assert_true(t->o.head_v == 0xff);
    free(t);

    struct fetch_cfg c;
    char err[160];
    fetch_cfg_default(&c);
    c.ports = 0;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "ports"));
    c.ports = FETCH_MAX_PORTS + 1;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
    c.ports = 4;
    c.nslots = 3;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), -1);
    c.nslots = 4;
    assert_int_equal(fetch_cfg_check(&c, err, sizeof err), 0);
}

/* Steady-state bandwidth into the I-buffers with every head consumed as soon as it shows
   (4 consume ports, 16 warps): ports x width instructions per cycle. With width 2 a slot
   that has one free entry gets one instruction. */
static void test_bandwidth(void **st)
{
    static const unsigned pw[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {4, 1}};
    (void)st;
    for (unsigned k = 0; k < sizeof pw / sizeof pw[0]; k++) {
        struct tb *t = tb_new(16);
        t->c.ports = (uint8_t)pw[k][0];
        t->c.width = (uint8_t)pw[k][1];
        reinit(t);
        warm(t, 0xffff);
        t->in.pc_end = 32;
        unsigned got = 0, ncyc = 0;
        for (unsigned c = 0; c < 40; c++) {
            unsigned n = 0;
            for (unsigned s = 0; s < 16 && n < FETCH_CONSUME_PORTS; s++)
                if (slot_has(t->o.head_v, s)) {
                    t->in.consume[n++] = (struct fetch_consume){1, (uint8_t)s};
                    t->in.pc[s]++;
                }
            step(t);
            assert_int_equal(t->o.err, 0);
            if (c >= 8) {                          /* after the first fills */
                got += t->o.ev_insn;
                ncyc++;
            }
        }
        if (got != ncyc * pw[k][0] * pw[k][1])
            fail_msg("ports %u width %u: %u instructions in %u cycles", pw[k][0], pw[k][1], got,
                     ncyc);
        free(t);
    }

    /* one free entry: a 2-wide fetch brings one instruction */
    struct tb *t = tb_new(1);
    t->c.width = 2;
    reinit(t);
    warm(t, 1);
    step(t);
    assert_int_equal(t->o.ev_insn, 2);
    step(t);
    step(t);                                      /* both in the I-buffer */
    assert_int_equal(t->q.ibuf_n[0], 2);
    t->in.consume[0] = (struct fetch_consume){1, 0};
    step(t);
    assert_int_equal(t->o.ev_insn, 1);
    assert_int_equal(t->q.dq_pc[0][0], 2);
    free(t);
}

/* Random traffic: the I-buffer always holds consecutive pcs starting at the warp's pc. */
static void test_random_consistency(void **st)
{
    static const unsigned pw[][2] = {{1, 1}, {2, 2}, {4, 1}};
    (void)st;
    for (unsigned k = 0; k < sizeof pw / sizeof pw[0]; k++)
        random_consistency(pw[k][0], pw[k][1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_then_hit),
        cmocka_unit_test(test_mshr_merge_and_round_robin),
        cmocka_unit_test(test_decode_latency_and_issue_pattern),
        cmocka_unit_test(test_flush),
        cmocka_unit_test(test_program_end_and_width),
        cmocka_unit_test(test_lru_and_mshr_full),
        cmocka_unit_test(test_bad_ports),
        cmocka_unit_test(test_two_ports),
        cmocka_unit_test(test_bandwidth),
        cmocka_unit_test(test_random_consistency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
