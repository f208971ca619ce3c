/*
 * l1.c -- L1 data cache of one SM (see l1.h, docs/l1.md).
 *
 * Per cycle, in this order (d == q on entry; outputs come from q unless noted):
 *   1. fill port: a read fill turns its reserved line valid and queues its MSHR for draining;
 *      any other returning packet (atomic, ifetch, store ack) queues as a bypass response;
 *   2. response port: one of {head ready MSHR's next requester, bypass response, hit whose
 *      latency has elapsed}, round robin;
 *   3. miss port: the miss-queue head leaves if the interconnect is ready;
 *   4. request: looked up in the tags as updated by step 1 (a fill and a hit to the same line
 *      in one cycle: the request hits), then accepted or stalled.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "l1.h"
#include "sm_limits.h"
#include "base/cost.h"

#define LINE_SHIFT 7

void l1_cfg_default(struct l1_cfg *c)
{
    c->nsets = 32;
    c->assoc = 4;
    c->hit_latency = 35;
    c->n_mshr = 64;
    c->max_merge = 8;
    c->missq_size = 8;
    c->byp_max = 32;
    c->set_hash = 1;
    c->store_ack = 0;
}

static int range(const char *name, uint32_t v, uint32_t lo, uint32_t hi, char *err, size_t n)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(err, n, "l1: %s = %u out of range %u..%u", name, v, lo, hi);
    return -1;
}

int l1_cfg_check(const struct l1_cfg *c, char *err, size_t errlen)
{
    if (range("nsets", c->nsets, 1, L1_MAX_SETS, err, errlen) ||
        range("assoc", c->assoc, 1, L1_MAX_WAYS, err, errlen) ||
        range("hit_latency", c->hit_latency, 1, 1000, err, errlen) ||
        range("n_mshr", c->n_mshr, 1, L1_MAX_MSHR, err, errlen) ||
        range("max_merge", c->max_merge, 1, L1_MAX_MERGE, err, errlen) ||
        range("missq_size", c->missq_size, 1, L1_MAX_MISSQ, err, errlen) ||
        range("byp_max", c->byp_max, 1, L1_MAX_BYPQ, err, errlen) ||
        range("set_hash", c->set_hash, 0, 1, err, errlen) ||
        range("store_ack", c->store_ack, 0, 1, err, errlen))
        return -1;
    if (c->nsets & (c->nsets - 1)) {
        snprintf(err, errlen, "l1: nsets = %u is not a power of two", c->nsets);
        return -1;
    }
    return 0;
}

void l1_reset(const struct l1_cfg *c, struct l1_regs *r)
{
    memset(r, 0, sizeof *r);
    cache_tags_reset(&r->tags[0][0], L1_MAX_SETS, L1_MAX_WAYS);
    r->c.ms.free = cache_mshr_all(c->n_mshr);
    cache_wlog_clear(&r->c.wl);
}

uint32_t l1_set_of(const struct l1_cfg *c, uint64_t line)
{
    if (c->set_hash && c->nsets > 1)
        line ^= line >> __builtin_ctz(c->nsets);
    return (uint32_t)(line & (c->nsets - 1));
}

/* ---- small helpers (the shared ones are in base/cachelib.h) ---- */

static int is_read(uint8_t kind)
{
    return kind == MK_LOAD || kind == MK_FILL;
}

/* ---- step 1: fill port ---- */

static void do_fill(const struct l1_cfg *c, const struct l1_in *in, struct l1_out *o,
                    struct l1_regs *d)
{
    uint64_t line = in->fill.addr >> LINE_SHIFT;
    unsigned s = l1_set_of(c, line);
    struct cache_line *set = d->tags[s];
    int w = cache_find_way(set, c->assoc, line);

    if (is_read(in->fill.kind)) {
        if (w < 0 || set[w].state != CACHE_RSRV) {
            o->ev_bad = 1;                       /* fill for a line nobody asked for */
            return;
        }
        set[w].state = CACHE_VALID;
        cache_wlog_set(&d->c.wl, s);
        d->rdyq[d->c.ms.rdyq.wr] = set[w].mshr;
        cache_fifo_push(&d->c.ms.rdyq, L1_MAX_MSHR);
        return;
    }
    if (in->fill.kind > MK_FILL || d->c.bypq.cnt >= L1_MAX_BYPQ) {
        o->ev_bad = 1;
        return;
    }
    d->bypq[d->c.bypq.wr] = in->fill;
    cache_fifo_push(&d->c.bypq, L1_MAX_BYPQ);
}

/* ---- step 2: response port ---- */

static void do_resp(const struct l1_regs *q, uint64_t now, struct l1_out *o, struct l1_regs *d)
{
    unsigned ready, hi, src;
    ready = (q->c.ms.rdyq.cnt > 0) | (q->c.bypq.cnt > 0) << 1 |
            (q->c.hitq.cnt > 0 && q->hitq[q->c.hitq.rd].t_ready <= now) << 2;
    if (!ready)
        return;
    hi = ready & (7u << q->c.rr);                        /* first ready source from rr on */
    src = (unsigned)__builtin_ctz(hi ? hi : ready);
    d->c.rr = (uint8_t)(src == 2 ? 0 : src + 1);
    o->resp_valid = 1;
    if (src == 0) {
        o->resp = *cache_drain_head(&q->c.ms, q->mshr, q->rdyq);
        cache_drain_next(&q->c.ms, q->mshr, q->rdyq, L1_MAX_MSHR, &d->c.ms);
    } else if (src == 1) {
        o->resp = q->bypq[q->c.bypq.rd];
        cache_fifo_pop(&d->c.bypq, L1_MAX_BYPQ);
        if (d->c.byp_out)
            d->c.byp_out--;
    } else {
        o->resp = q->hitq[q->c.hitq.rd].req;
        cache_fifo_pop(&d->c.hitq, L1_MAX_HITQ);
    }
}

/* ---- step 4: request ---- */

static int stall(struct l1_out *o, enum l1_stall why)
{
    o->ready = 0;
    o->stall = (uint8_t)why;
    o->ev_stall_mshr = why == L1_STALL_MSHR || why == L1_STALL_MERGE;
    o->ev_rsrv_fail = why == L1_STALL_RSRV;
    o->ev_stall_missq = why == L1_STALL_MISSQ;
    o->ev_stall_other = why == L1_STALL_HITQ || why == L1_STALL_BYP;
    return 0;
}

static void push_miss(struct l1_regs *d, const struct mem_req *r)
{
    d->missq[d->c.missq.wr] = *r;
    cache_fifo_push(&d->c.missq, L1_MAX_MISSQ);
}

static int read_req(const struct l1_cfg *c, const struct mem_req *r, uint64_t now,
                    struct l1_out *o, struct l1_regs *d)
{
    uint64_t line = r->addr >> LINE_SHIFT;
    unsigned s = l1_set_of(c, line), m;
    struct cache_line *set = d->tags[s];
    int w = cache_find_way(set, c->assoc, line), v;
    struct mem_req fetch;

    if (w >= 0 && set[w].state == CACHE_VALID) {            /* hit */
        if (d->c.hitq.cnt >= L1_MAX_HITQ)
            return stall(o, L1_STALL_HITQ);
        d->hitq[d->c.hitq.wr].t_ready = now + c->hit_latency;
        d->hitq[d->c.hitq.wr].req = *r;
        cache_fifo_push(&d->c.hitq, L1_MAX_HITQ);
        cache_lru_touch(set, c->assoc, (unsigned)w);
        cache_wlog_set(&d->c.wl, s);
        o->ev_hit = 1;
        o->acc_hit = 1;
        return 1;
    }
    if (w >= 0) {                                           /* pending miss: merge */
        if (!cache_mshr_merge(d->mshr, set[w].mshr, c->max_merge, &d->c.wl, r))
            return stall(o, L1_STALL_MERGE);
        o->ev_merge = 1;
        return 1;
    }
    if (!d->c.ms.free)
        return stall(o, L1_STALL_MSHR);
    v = cache_pick_victim(set, c->assoc);
    if (v < 0)
        return stall(o, L1_STALL_RSRV);
    if (d->c.missq.cnt >= c->missq_size)
        return stall(o, L1_STALL_MISSQ);
    m = cache_mshr_alloc(&d->c.ms, d->mshr, &d->c.wl, line, r);
    set[v].tag = line;
    set[v].state = CACHE_RSRV;
    set[v].mshr = (uint8_t)m;
    cache_lru_touch(set, c->assoc, (unsigned)v);
    cache_wlog_set(&d->c.wl, s);
    fetch = *r;
    fetch.bytes = MEM_LINE_BYTES;
    push_miss(d, &fetch);
    o->ev_miss = 1;
    return 1;
}

static int write_req(const struct l1_cfg *c, const struct mem_req *r, struct l1_out *o,
                     struct l1_regs *d)
{
    uint64_t line = r->addr >> LINE_SHIFT;
    unsigned s = l1_set_of(c, line);
    struct cache_line *set = d->tags[s];
    int w = cache_find_way(set, c->assoc, line);

    if (d->c.missq.cnt >= c->missq_size)
        return stall(o, L1_STALL_MISSQ);
    if (c->store_ack && d->c.byp_out >= c->byp_max)
        return stall(o, L1_STALL_BYP);
    if (w >= 0 && set[w].state == CACHE_VALID) {
        if (r->kind == MK_STORE) {
            set[w].state = CACHE_INV;                       /* global: evict on hit */
            o->ev_store_evict = 1;
        } else {
            cache_lru_touch(set, c->assoc, (unsigned)w);    /* local: keep, updated */
        }
        cache_wlog_set(&d->c.wl, s);
    }
    push_miss(d, r);
    if (c->store_ack)
        d->c.byp_out++;
    o->ev_store = 1;
    return 1;
}

static int bypass_req(const struct l1_cfg *c, const struct mem_req *r, struct l1_out *o,
                      struct l1_regs *d)
{
    if (d->c.missq.cnt >= c->missq_size)
        return stall(o, L1_STALL_MISSQ);
    if (d->c.byp_out >= c->byp_max)
        return stall(o, L1_STALL_BYP);
    push_miss(d, r);
    d->c.byp_out++;
    o->ev_bypass = 1;
    return 1;
}

static void do_req(const struct l1_cfg *c, const struct l1_in *in, struct l1_out *o,
                   struct l1_regs *d)
{
    struct mem_req r = in->req;
    r.addr &= ~(uint64_t)(MEM_LINE_BYTES - 1);
    o->ready = 1;
    switch (r.kind) {
    case MK_LOAD:
    case MK_FILL:
        o->ready = (uint8_t)read_req(c, &r, in->now, o, d);
        break;
    case MK_STORE:
    case MK_SPILL:
        o->ready = (uint8_t)write_req(c, &r, o, d);
        break;
    case MK_ATOMIC:
    case MK_IFETCH:
        o->ready = (uint8_t)bypass_req(c, &r, o, d);
        break;
    default:
        o->ev_bad = 1;                                      /* accepted and dropped */
        break;
    }
    if (o->ready) {
        o->acc_tag = r.tag;
        o->acc_lanes = r.lanes;
    }
}

void l1_eval(const struct l1_cfg *c, const struct l1_regs *q, const struct l1_in *in,
             struct l1_out *out, struct l1_regs *d)
{
    memset(out, 0, offsetof(struct l1_out, resp));    /* flags and events */
    out->mshr_used = (uint8_t)(c->n_mshr - bit_pop64(q->c.ms.free));
    cache_wlog_clear(&d->c.wl);
    if (in->fill_valid)
        do_fill(c, in, out, d);
    do_resp(q, in->now, out, d);
    if (q->c.missq.cnt && in->icnt_ready) {
        out->miss_valid = 1;
        out->miss = q->missq[q->c.missq.rd];
        cache_fifo_pop(&d->c.missq, L1_MAX_MISSQ);
    }
    if (in->req_valid)
        do_req(c, in, out, d);
    out->ev_bad |= d->c.wl.over;
    out->err = out->ev_bad;
}

void l1_commit(const struct l1_cfg *c, struct l1_regs *q, const struct l1_regs *d)
{
    struct l1_ctrl old = q->c;
    q->c = d->c;
    cache_commit_tags(&q->tags[0][0], &d->tags[0][0], L1_MAX_WAYS, c->assoc, &d->c.wl);
    cache_commit_mshr(q->mshr, d->mshr, &d->c.wl);
    CACHE_COPY_PUSHED(q->missq, d->missq, old.missq.wr, d->c.missq.wr, L1_MAX_MISSQ);
    CACHE_COPY_PUSHED(q->hitq, d->hitq, old.hitq.wr, d->c.hitq.wr, L1_MAX_HITQ);
    CACHE_COPY_PUSHED(q->rdyq, d->rdyq, old.ms.rdyq.wr, d->c.ms.rdyq.wr, L1_MAX_MSHR);
    CACHE_COPY_PUSHED(q->bypq, d->bypq, old.bypq.wr, d->c.bypq.wr, L1_MAX_BYPQ);
}

int l1_busy(const struct l1_cfg *c, const struct l1_regs *q)
{
    return q->c.missq.cnt || q->c.hitq.cnt || q->c.ms.rdyq.cnt || q->c.bypq.cnt ||
           q->c.byp_out || q->c.ms.free != cache_mshr_all(c->n_mshr);
}

uint64_t l1_next_event(const struct l1_cfg *c, const struct l1_regs *q, uint64_t now)
{
    (void)c;
    if (q->c.ms.rdyq.cnt || q->c.bypq.cnt || q->c.missq.cnt)
        return now + 1;
    if (q->c.hitq.cnt) {
        uint64_t t = q->hitq[q->c.hitq.rd].t_ready;
        return t > now ? t : now + 1;
    }
    return UINT64_MAX;
}

void l1_stats_add(struct l1_stats *s, const struct l1_out *o)
{
    s->hits += o->ev_hit;
    s->misses += o->ev_miss;
    s->merges += o->ev_merge;
    s->stall_mshr += o->ev_stall_mshr;
    s->rsrv_fail += o->ev_rsrv_fail;
    s->stall_missq += o->ev_stall_missq;
    s->stall_other += o->ev_stall_other;
    s->stores += o->ev_store;
    s->store_evicts += o->ev_store_evict;
    s->bypass += o->ev_bypass;
    s->responses += o->resp_valid;
    s->bad += o->ev_bad;
}

/* Registry entry points (model/base/blocks.def). */
uint32_t l1_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void l1_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t i, struct l1_cfg *out)
{
    (void)sm; (void)i;
    l1_cfg_default(out);
    out->nsets = c->l1_sets;
    out->assoc = c->l1_ways;
    out->n_mshr = c->l1_mshrs;
    out->hit_latency = c->l1_hit_latency;
}

/* Storage for the cost estimator (cost.h): the tag array (one row of assoc ways per set), the
   MSHRs with their merged requests, the miss queue, hit pipeline, ready-MSHR and bypass
   FIFOs and the control registers, each at the capacity the configuration allows (the hit
   pipeline at its fixed L1_MAX_HITQ slots). The write log is bookkeeping, not hardware; the
   data array is not modelled (timing only). */
void l1_storage(const struct l1_cfg *c, struct cost_list *l)
{
    const char *tg = "L1 tags", *ms = "L1 MSHRs", *qu = "L1 queues";
    uint32_t a = c->assoc, m = cost_memreq_bits();
    cost_begin(l, "l1");
    cost_add(l, (struct cost_item){.name = "tags.tag", .mech = tg, .entries = c->nsets,
                                   .bits = 57 * a, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "[56:0] per way"});
    cost_add(l, (struct cost_item){.name = "tags.state", .mech = tg, .entries = c->nsets,
                                   .bits = 2 * a, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "tags.lru", .mech = tg, .entries = c->nsets,
                                   .bits = 3 * a, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "tags.mshr", .mech = tg, .entries = c->nsets,
                                   .bits = 6 * a, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "mshr.line", .mech = ms, .entries = c->n_mshr,
                                   .bits = 57, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "mshr.n", .mech = ms, .entries = c->n_mshr, .bits = 4,
                                   .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "mshr.m", .mech = ms, .entries = c->n_mshr,
                                   .bits = m * c->max_merge, .rports = 1, .wports = 1,
                                   .onchip = 1, .note = "max_merge x mem_req"});
    cost_add(l, (struct cost_item){.name = "mshr_free", .mech = ms, .entries = 1,
                                   .bits = c->n_mshr, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "missq", .mech = qu, .entries = c->missq_size,
                                   .bits = m, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "hitq.t_ready", .mech = qu, .entries = L1_MAX_HITQ,
                                   .bits = 64, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "hitq.req", .mech = qu, .entries = L1_MAX_HITQ,
                                   .bits = m, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rdyq", .mech = qu, .entries = c->n_mshr, .bits = 6,
                                   .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "bypq", .mech = qu, .entries = c->byp_max, .bits = m,
                                   .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "fifo_ptrs", .mech = qu, .entries = 1,
                                   .bits = cost_fifo_bits(c->missq_size) +
                                           cost_fifo_bits(L1_MAX_HITQ) +
                                           cost_fifo_bits(c->n_mshr) + cost_fifo_bits(c->byp_max),
                                   .rports = COST_PAR, .onchip = 1, .note = "rd, wr, cnt"});
    cost_add(l, (struct cost_item){.name = "ctl", .mech = qu, .entries = 1, .bits = 6 + 3 + 2,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "byp_out [5:0], drain [2:0], rr [1:0]"});
}
