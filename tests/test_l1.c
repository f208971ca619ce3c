/*
 * test_l1.c -- L1 data cache block: hits, misses, LRU, MSHR merging and back pressure,
 * store eviction, bypass traffic, bad input, the accept report (hit, tag and lanes of the
 * accepted request), lanes carried to the response and the MSHR occupancy output (mshr_used,
 * for VT's MSHR utilisation). Every step also checks the block convention:
 * after commit the committed state equals the next-state copy (commit copied all eval wrote).
 */
#include "testutil.h"
#include "sm/l1.h"

struct h {
    struct l1_cfg c;
    struct l1_regs q, d;
    uint64_t now;
};

static struct h *mk(const struct l1_cfg *c)
{
    struct h *h = calloc(1, sizeof *h);
    char err[128];
    if (c)
        h->c = *c;
    else
        l1_cfg_default(&h->c);
    assert_int_equal(l1_cfg_check(&h->c, err, sizeof err), 0);
    l1_reset(&h->c, &h->q);
    h->d = h->q;
    return h;
}

static struct mem_req req(uint8_t kind, uint64_t addr, uint32_t tag)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.bytes = 4;
    r.kind = kind;
    r.sm = 3;
    r.warp = 7;
    r.tag = tag;
    return r;
}

/* One cycle; in may be NULL (idle). */
static struct l1_out step(struct h *h, const struct l1_in *in)
{
    struct l1_in z;
    struct l1_out o;
    if (!in) {
        memset(&z, 0, sizeof z);
        in = &z;
    }
    z = *in;
    z.now = h->now;
    l1_eval(&h->c, &h->q, &z, &o, &h->d);
    l1_commit(&h->c, &h->q, &h->d);
    assert_int_equal(memcmp(&h->q, &h->d, sizeof h->q), 0);
    h->now++;
    return o;
}

static struct l1_out send(struct h *h, struct mem_req r, int icnt_ready)
{
    struct l1_in in;
    memset(&in, 0, sizeof in);
    in.req_valid = 1;
    in.req = r;
    in.icnt_ready = (uint8_t)icnt_ready;
    return step(h, &in);
}

static struct l1_out fill(struct h *h, struct mem_req r)
{
    struct l1_in in;
    memset(&in, 0, sizeof in);
    in.fill_valid = 1;
    in.fill = r;
    return step(h, &in);
}

static struct l1_out idle(struct h *h, int icnt_ready)
{
    struct l1_in in;
    memset(&in, 0, sizeof in);
    in.icnt_ready = (uint8_t)icnt_ready;
    return step(h, &in);
}

/* The n-th line address (byte address) mapping to set s. */
static uint64_t line_in_set(const struct l1_cfg *c, unsigned s, unsigned n)
{
    for (uint64_t line = 0;; line++)
        if (l1_set_of(c, line) == s && n-- == 0)
            return line << 7;
}

/* Miss + fill of a read to addr, leaving the line valid. */
static void load_line(struct h *h, uint64_t addr, uint32_t tag)
{
    struct l1_out o = send(h, req(MK_LOAD, addr, tag), 1);
    assert_true(o.ready && o.ev_miss);
    o = idle(h, 1);
    assert_true(o.miss_valid);
    fill(h, o.miss);
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.tag, tag);
}

static void test_defaults(void **s)
{
    struct l1_cfg c;
    char err[128];
    (void)s;
    l1_cfg_default(&c);
    assert_int_equal(c.nsets * c.assoc * 128, 16 * 1024);
    assert_int_equal(c.hit_latency, 35);
    assert_int_equal(c.n_mshr, 64);
    assert_int_equal(c.max_merge, 8);
    assert_int_equal(l1_cfg_check(&c, err, sizeof err), 0);
    c.nsets = 24;
    assert_int_equal(l1_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "nsets"));
    l1_cfg_default(&c);
    c.max_merge = 9;
    assert_int_equal(l1_cfg_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "max_merge"));
    l1_cfg_default(&c);
    c.assoc = 0;
    assert_int_equal(l1_cfg_check(&c, err, sizeof err), -1);
}

static void test_hit_after_miss(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    uint64_t t;
    (void)s;
    o = send(h, req(MK_LOAD, 0x1000, 1), 1);
    assert_true(o.ready);
    assert_true(o.ev_miss);
    assert_false(o.miss_valid);                 /* leaves next cycle */
    o = idle(h, 1);
    assert_true(o.miss_valid);
    assert_int_equal(o.miss.addr, 0x1000);
    assert_int_equal(o.miss.kind, MK_LOAD);
    assert_int_equal(o.miss.bytes, 128);
    assert_int_equal(o.miss.tag, 1);
    for (int i = 0; i < 5; i++)
        assert_false(idle(h, 1).resp_valid);
    o = fill(h, o.miss);
    assert_false(o.resp_valid);                 /* answers the cycle after the fill */
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.tag, 1);
    assert_int_equal(o.resp.warp, 7);
    assert_false(l1_busy(&h->c, &h->q));
    /* now a hit: the response leaves exactly hit_latency cycles after acceptance */
    t = h->now;
    o = send(h, req(MK_LOAD, 0x1000, 2), 1);
    assert_true(o.ready && o.ev_hit);
    assert_int_equal(l1_next_event(&h->c, &h->q, t), t + h->c.hit_latency);
    while (h->now < t + h->c.hit_latency)
        assert_false(idle(h, 1).resp_valid);
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.tag, 2);
    assert_int_equal(h->now - 1 - t, 35);
    free(h);
}

static void test_hits_pipelined(void **s)
{
    struct h *h = mk(NULL);
    uint64_t t0;
    int got = 0;
    (void)s;
    load_line(h, 0x2000, 9);
    t0 = h->now;
    for (uint32_t i = 0; i < 10; i++)
        assert_true(send(h, req(MK_LOAD, 0x2000, 100 + i), 1).ev_hit);
    while (h->now < t0 + 35 + 20) {
        struct l1_out o = idle(h, 1);
        if (o.resp_valid) {
            assert_int_equal(o.resp.tag, 100 + got);
            assert_int_equal(h->now - 1, t0 + 35 + got);   /* one per cycle */
            got++;
        }
    }
    assert_int_equal(got, 10);
    free(h);
}

static void test_lru_order(void **s)
{
    struct h *h = mk(NULL);
    uint64_t a[5];
    struct l1_out o;
    (void)s;
    for (unsigned i = 0; i < 5; i++)
        a[i] = line_in_set(&h->c, 5, i);
    for (unsigned i = 0; i < 4; i++)
        load_line(h, a[i], i);
    assert_true(send(h, req(MK_LOAD, a[0], 10), 1).ev_hit);   /* a1 is now LRU */
    load_line(h, a[4], 11);                                   /* evicts a1 */
    for (int i = 0; i < 40; i++)
        idle(h, 1);
    assert_true(send(h, req(MK_LOAD, a[0], 12), 1).ev_hit);
    assert_true(send(h, req(MK_LOAD, a[3], 13), 1).ev_hit);
    assert_true(send(h, req(MK_LOAD, a[2], 14), 1).ev_hit);
    assert_true(send(h, req(MK_LOAD, a[4], 15), 1).ev_hit);
    o = send(h, req(MK_LOAD, a[1], 16), 1);
    assert_true(o.ev_miss);
    free(h);
}

static void test_merge(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o, m;
    int misses = 0;
    (void)s;
    o = send(h, req(MK_LOAD, 0x4000, 1), 0);
    assert_true(o.ev_miss);
    for (uint32_t t = 2; t <= 8; t++) {
        o = send(h, req(MK_LOAD, 0x4000, t), 0);
        assert_true(o.ready && o.ev_merge);
    }
    o = send(h, req(MK_LOAD, 0x4000, 9), 0);            /* ninth: merge slots full */
    assert_false(o.ready);
    assert_int_equal(o.stall, L1_STALL_MERGE);
    assert_true(o.ev_stall_mshr);
    m = idle(h, 1);
    assert_true(m.miss_valid);
    misses++;
    for (int i = 0; i < 5; i++)
        if (idle(h, 1).miss_valid)
            misses++;
    assert_int_equal(misses, 1);                        /* one fetch for eight loads */
    fill(h, m.miss);
    for (uint32_t t = 1; t <= 8; t++) {
        o = idle(h, 1);
        assert_true(o.resp_valid);
        assert_int_equal(o.resp.tag, t);
    }
    assert_false(idle(h, 1).resp_valid);
    assert_false(l1_busy(&h->c, &h->q));
    free(h);
}

static void test_mshr_full(void **s)
{
    struct l1_cfg c;
    struct h *h;
    struct l1_out o, first;
    (void)s;
    l1_cfg_default(&c);
    c.n_mshr = 4;
    h = mk(&c);
    for (uint32_t i = 0; i < 4; i++)
        assert_true(send(h, req(MK_LOAD, 0x10000 + i * 128, i), 0).ev_miss);
    o = send(h, req(MK_LOAD, 0x20000, 99), 0);
    assert_false(o.ready);
    assert_int_equal(o.stall, L1_STALL_MSHR);
    assert_true(o.ev_stall_mshr);
    o = send(h, req(MK_LOAD, 0x20000, 99), 0);          /* still full next cycle */
    assert_false(o.ready);
    first = idle(h, 1);
    assert_true(first.miss_valid);
    fill(h, first.miss);
    o = send(h, req(MK_LOAD, 0x20000, 99), 1);          /* the MSHR drains this cycle... */
    assert_true(o.resp_valid);
    assert_true(o.ready && o.ev_miss);                  /* ...and is reused at once */
    o = send(h, req(MK_LOAD, 0x20080, 98), 1);
    assert_false(o.ready);                              /* full again */
    free(h);
}

static void test_missq_full(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    (void)s;
    for (uint32_t i = 0; i < 8; i++)
        assert_true(send(h, req(MK_LOAD, 0x30000 + i * 128, i), 0).ready);
    o = send(h, req(MK_LOAD, 0x40000, 50), 0);
    assert_false(o.ready);
    assert_int_equal(o.stall, L1_STALL_MISSQ);
    assert_true(o.ev_stall_missq);
    o = send(h, req(MK_STORE, 0x40000, 0), 0);
    assert_false(o.ready);
    o = send(h, req(MK_LOAD, 0x40000, 50), 1);          /* the head leaves, slot reused */
    assert_true(o.miss_valid);
    assert_true(o.ready);
    free(h);
}

static void test_rsrv_fail(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    (void)s;
    for (unsigned i = 0; i < 4; i++)
        assert_true(send(h, req(MK_LOAD, line_in_set(&h->c, 2, i), i), 0).ev_miss);
    o = send(h, req(MK_LOAD, line_in_set(&h->c, 2, 4), 4), 0);
    assert_false(o.ready);
    assert_int_equal(o.stall, L1_STALL_RSRV);
    assert_true(o.ev_rsrv_fail);
    free(h);
}

static void test_store_evicts(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    (void)s;
    load_line(h, 0x5000, 1);
    assert_true(send(h, req(MK_LOAD, 0x5000, 2), 1).ev_hit);
    o = send(h, req(MK_STORE, 0x5000, 0), 1);
    assert_true(o.ready && o.ev_store && o.ev_store_evict);
    o = idle(h, 1);
    assert_true(o.miss_valid);
    assert_int_equal(o.miss.kind, MK_STORE);
    assert_int_equal(o.miss.bytes, 4);
    for (int i = 0; i < 40; i++)
        idle(h, 1);                                     /* let the hit drain */
    o = send(h, req(MK_LOAD, 0x5000, 3), 1);
    assert_true(o.ev_miss);                             /* evicted */
    /* a store miss does not allocate */
    o = send(h, req(MK_STORE, 0x6000, 0), 1);
    assert_true(o.ev_store && !o.ev_store_evict);
    for (int i = 0; i < 3; i++)
        idle(h, 1);
    assert_true(send(h, req(MK_LOAD, 0x6000, 4), 1).ev_miss);
    free(h);
}

static void test_local_spill_fill(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    (void)s;
    load_line(h, 0x7000, 1);                            /* MK_LOAD allocates... */
    o = send(h, req(MK_FILL, 0x8000, 2), 1);            /* ...and so does MK_FILL */
    assert_true(o.ev_miss);
    o = idle(h, 1);
    assert_int_equal(o.miss.kind, MK_FILL);
    fill(h, o.miss);
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.kind, MK_FILL);
    o = send(h, req(MK_SPILL, 0x8000, 0), 1);           /* spill: written through, kept */
    assert_true(o.ev_store && !o.ev_store_evict);
    assert_true(send(h, req(MK_FILL, 0x8000, 3), 1).ev_hit);
    free(h);
}

static void test_bypass(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    (void)s;
    load_line(h, 0x9000, 1);
    o = send(h, req(MK_ATOMIC, 0x9000, 5), 1);
    assert_true(o.ready && o.ev_bypass && !o.ev_hit);
    o = send(h, req(MK_IFETCH, 0xA000, 6), 1);
    assert_true(o.ready && o.ev_bypass);
    assert_true(o.miss_valid);
    assert_int_equal(o.miss.kind, MK_ATOMIC);
    o = idle(h, 1);
    assert_int_equal(o.miss.kind, MK_IFETCH);
    fill(h, req(MK_IFETCH, 0xA000, 6));
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.kind, MK_IFETCH);
    assert_int_equal(o.resp.tag, 6);
    fill(h, req(MK_ATOMIC, 0x9000, 5));
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.kind, MK_ATOMIC);
    assert_false(l1_busy(&h->c, &h->q));
    /* the line stayed valid: atomics do not touch L1 */
    assert_true(send(h, req(MK_LOAD, 0x9000, 7), 1).ev_hit);
    free(h);
}

static void test_bypass_limit_and_store_ack(void **s)
{
    struct l1_cfg c;
    struct h *h;
    struct l1_out o;
    (void)s;
    l1_cfg_default(&c);
    c.byp_max = 2;
    c.store_ack = 1;
    h = mk(&c);
    assert_true(send(h, req(MK_STORE, 0x100, 0), 1).ready);
    assert_true(send(h, req(MK_ATOMIC, 0x200, 1), 1).ready);
    o = send(h, req(MK_ATOMIC, 0x300, 2), 1);
    assert_false(o.ready);
    assert_int_equal(o.stall, L1_STALL_BYP);
    assert_true(o.ev_stall_other);
    fill(h, req(MK_STORE, 0x100, 0));                   /* the store's acknowledgement */
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.kind, MK_STORE);
    assert_true(send(h, req(MK_ATOMIC, 0x300, 2), 1).ready);
    free(h);
}

static void test_round_robin_port(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o, m;
    uint32_t order[8], n = 0;
    uint64_t T;
    (void)s;
    load_line(h, 0xB000, 1);
    send(h, req(MK_LOAD, 0xC000, 2), 0);                /* miss with two requesters */
    send(h, req(MK_LOAD, 0xC000, 3), 0);
    m = idle(h, 1);
    assert_true(m.miss_valid);
    T = h->now + h->c.hit_latency;
    send(h, req(MK_LOAD, 0xB000, 4), 1);                /* hit, response ready at T */
    while (h->now < T - 2)
        assert_false(idle(h, 1).resp_valid);
    o = fill(h, m.miss);                                /* T-2: drains from T-1 */
    assert_false(o.resp_valid);
    o = fill(h, req(MK_ATOMIC, 0xD000, 5));             /* T-1: bypass response from T */
    if (o.resp_valid)
        order[n++] = o.resp.tag;
    while (h->now < T + 4) {
        o = idle(h, 1);
        if (o.resp_valid)
            order[n++] = o.resp.tag;
    }
    /* T-1: MSHR (only source); then round robin MSHR -> bypass -> hit -> MSHR */
    assert_int_equal(n, 4);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 5);
    assert_int_equal(order[2], 4);
    assert_int_equal(order[3], 3);
    free(h);
}

static void test_bad_input(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    struct mem_req r = req(MK_LOAD, 0xE000, 1);
    (void)s;
    r.kind = 42;
    o = send(h, r, 1);
    assert_true(o.ready);                               /* dropped, never a hang */
    assert_true(o.ev_bad);
    o = fill(h, req(MK_LOAD, 0xF000, 1));               /* nobody asked for it */
    assert_true(o.ev_bad);
    assert_false(l1_busy(&h->c, &h->q));
    /* an unaligned address is taken as its line */
    o = send(h, req(MK_LOAD, 0xE005, 2), 1);
    assert_true(o.ev_miss);
    o = idle(h, 1);
    assert_int_equal(o.miss.addr, 0xE000);
    free(h);
}

static void test_idle_next_event(void **s)
{
    struct h *h = mk(NULL);
    (void)s;
    assert_false(l1_busy(&h->c, &h->q));
    assert_true(l1_next_event(&h->c, &h->q, 0) == UINT64_MAX);
    send(h, req(MK_LOAD, 0x100, 1), 0);
    assert_true(l1_busy(&h->c, &h->q));
    assert_int_equal(l1_next_event(&h->c, &h->q, h->now - 1), h->now);
    free(h);
}

/* A load request serving `lanes` (what the LD/ST coalescer sets). */
static struct mem_req lreq(uint64_t addr, uint32_t tag, uint32_t lanes)
{
    struct mem_req r = req(MK_LOAD, addr, tag);
    r.lanes = lanes;
    return r;
}

/* The accept report: a miss and a merge are accepted without a hit, a hit reports hit with the
   request's tag and lanes; every response (filled MSHR or hit) carries the lanes it serves. */
static void test_accept_report_lanes(void **s)
{
    struct h *h = mk(NULL);
    struct l1_out o;
    struct mem_req m;
    uint64_t t;
    (void)s;
    o = send(h, lreq(0x3000, 4, 0x0000000Fu), 0);       /* miss */
    assert_true(o.ready && o.ev_miss);
    assert_false(o.acc_hit);
    assert_int_equal(o.acc_tag, 4);
    assert_int_equal(o.acc_lanes, 0x0000000Fu);
    o = send(h, lreq(0x3000, 5, 0x000000F0u), 0);       /* merge into the pending miss */
    assert_true(o.ready && o.ev_merge);
    assert_false(o.acc_hit);
    assert_int_equal(o.acc_tag, 5);
    assert_int_equal(o.acc_lanes, 0x000000F0u);
    o = idle(h, 1);
    assert_true(o.miss_valid);
    m = o.miss;
    assert_int_equal(m.lanes, 0x0000000Fu);             /* the packet keeps its lanes */
    assert_false(fill(h, m).acc_hit);                   /* no request: no report */
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.tag, 4);
    assert_int_equal(o.resp.lanes, 0x0000000Fu);
    o = send(h, lreq(0x3000, 6, 0xFFFF0000u), 1);       /* hit; the merged one answers too */
    assert_true(o.ready && o.ev_hit);
    assert_true(o.acc_hit);
    assert_int_equal(o.acc_tag, 6);
    assert_int_equal(o.acc_lanes, 0xFFFF0000u);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.tag, 5);
    assert_int_equal(o.resp.lanes, 0x000000F0u);
    t = h->now - 1;
    while (h->now < t + h->c.hit_latency)
        assert_false(idle(h, 1).resp_valid);
    o = idle(h, 1);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.tag, 6);
    assert_int_equal(o.resp.lanes, 0xFFFF0000u);
    o = send(h, req(MK_STORE, 0x3000, 7), 1);           /* a store hit is no load hit */
    assert_true(o.ready && o.ev_store_evict);
    assert_false(o.acc_hit);
    free(h);
}

/* A request that is not accepted reports nothing. */
static void test_accept_report_stall(void **s)
{
    struct l1_cfg c;
    struct h *h;
    struct l1_out o;
    (void)s;
    l1_cfg_default(&c);
    c.n_mshr = 1;
    h = mk(&c);
    assert_true(send(h, lreq(0x4000, 1, 1), 0).ready);
    o = send(h, lreq(0x5000, 2, 2), 0);
    assert_false(o.ready);
    assert_false(o.acc_hit);
    assert_int_equal(o.acc_tag, 0);
    assert_int_equal(o.acc_lanes, 0);
    free(h);
}

/* mshr_used counts the MSHRs held at the start of the cycle: an allocation counts from the
   next cycle, a merge takes none, an MSHR counts until the cycle its last requester leaves;
   all 64 of the default configuration fit the output. */
static void test_mshr_used(void **s)
{
    struct l1_cfg c;
    struct h *h;
    struct l1_out o;
    uint32_t i;
    (void)s;
    l1_cfg_default(&c);
    c.n_mshr = 4;
    h = mk(&c);
    assert_int_equal(idle(h, 0).mshr_used, 0);
    for (i = 0; i < 3; i++) {
        o = send(h, req(MK_LOAD, 0x10000 + i * 128, i), 0);
        assert_true(o.ev_miss);
        assert_int_equal(o.mshr_used, i);
    }
    o = send(h, req(MK_LOAD, 0x10000, 9), 0);
    assert_true(o.ev_merge);
    assert_int_equal(o.mshr_used, 3);
    o = idle(h, 1);
    assert_true(o.miss_valid);
    assert_int_equal(o.mshr_used, 3);
    fill(h, o.miss);
    o = idle(h, 0);
    assert_true(o.resp_valid);
    assert_int_equal(o.resp.tag, 0);
    assert_int_equal(o.mshr_used, 3);
    o = idle(h, 0);
    assert_int_equal(o.resp.tag, 9);                    /* the last requester leaves */
    assert_int_equal(o.mshr_used, 3);
    assert_int_equal(idle(h, 0).mshr_used, 2);
    free(h);
    h = mk(NULL);                                       /* 64 MSHRs: two misses per set */
    for (i = 0; i < 64; i++)
        assert_true(send(h, req(MK_LOAD, line_in_set(&h->c, i % 32, i / 32), i), 1).ev_miss);
    assert_int_equal(idle(h, 1).mshr_used, 64);
    free(h);
}

/* The write log a cache commits from holds two tag rows (a fill and a request); a third row
   in one cycle is never written past it but flagged, which the L1 and L2 report as a bad
   event that stops the run (before, it was written past the log's array). */
static void test_wlog_bounded(void **state)
{
    struct { struct cache_wlog wl; uint16_t guard; } x;
    (void)state;
    x.guard = 0xBEEF;
    cache_wlog_clear(&x.wl);
    cache_wlog_set(&x.wl, 3);
    cache_wlog_set(&x.wl, 3);
    cache_wlog_set(&x.wl, 9);
    assert_int_equal(x.wl.nset, 2);
    assert_int_equal(x.wl.over, 0);
    cache_wlog_set(&x.wl, 12);
    assert_int_equal(x.wl.nset, 2);
    assert_int_equal(x.wl.over, 1);
    assert_int_equal(x.wl.set[0], 3);
    assert_int_equal(x.wl.set[1], 9);
    assert_int_equal(x.guard, 0xBEEF);
    cache_wlog_clear(&x.wl);
    assert_int_equal(x.wl.over, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_wlog_bounded),
        cmocka_unit_test(test_hit_after_miss),
        cmocka_unit_test(test_hits_pipelined),
        cmocka_unit_test(test_lru_order),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_mshr_full),
        cmocka_unit_test(test_missq_full),
        cmocka_unit_test(test_rsrv_fail),
        cmocka_unit_test(test_store_evicts),
        cmocka_unit_test(test_local_spill_fill),
        cmocka_unit_test(test_bypass),
        cmocka_unit_test(test_bypass_limit_and_store_ack),
        cmocka_unit_test(test_round_robin_port),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_idle_next_event),
        cmocka_unit_test(test_accept_report_lanes),
        cmocka_unit_test(test_accept_report_stall),
        cmocka_unit_test(test_mshr_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
