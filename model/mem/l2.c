/*
 * l2.c -- one L2 cache slice (see l2.h, docs/l2.md).
 *
 * Per cycle, in this order (d == q on entry; outputs come from q):
 *   1. returned credits; a fill turns its reserved line valid (dirty if a write or atomic
 *      merged into its MSHR) and queues the MSHR for draining; a new request enters the ROP
 *      queue, reaching the tag check rop_latency cycles later;
 *   2. the response FIFO head leaves if a credit is held; the DRAM FIFO head likewise;
 *   3. drain: the head ready MSHR answers its next requester (writes without ack: nothing);
 *   4. access: the ROP head, once its latency has elapsed, is looked up (in the tags as
 *      updated by step 1) and hits, merges, misses or stalls.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "l2.h"
#include "base/cost.h"

_Static_assert((1u << MEM_LINE_SHIFT) == MEM_LINE_BYTES, "MEM_LINE_SHIFT is log2(MEM_LINE_BYTES)");


void l2_cfg_default(struct l2_cfg *c)
{
    c->nsets = 64;
    c->assoc = 8;
    c->line_div = 12;
    c->rop_latency = 120;
    c->n_mshr = 32;
    c->max_merge = 4;
    c->ropq_size = 128;
    c->respq_size = 8;
    c->dramq_size = 8;
    c->icnt_credits = 8;
    c->dram_credits = 64;
    c->ack_writes = 0;
}

static int range(const char *name, uint32_t v, uint32_t lo, uint32_t hi, char *err, size_t n)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(err, n, "l2: %s = %u out of range %u..%u", name, v, lo, hi);
    return -1;
}

int l2_cfg_check(const struct l2_cfg *c, char *err, size_t errlen)
{
    if (range("nsets", c->nsets, 1, L2_MAX_SETS, err, errlen) ||
        range("assoc", c->assoc, 1, L2_MAX_WAYS, err, errlen) ||
        range("line_div", c->line_div, 1, 4096, err, errlen) ||
        range("rop_latency", c->rop_latency, 0, 10000, err, errlen) ||
        range("n_mshr", c->n_mshr, 1, L2_MAX_MSHR, err, errlen) ||
        range("max_merge", c->max_merge, 1, L2_MAX_MERGE, err, errlen) ||
        range("ropq_size", c->ropq_size, 1, L2_MAX_ROPQ, err, errlen) ||
        range("respq_size", c->respq_size, 1, L2_MAX_RESPQ, err, errlen) ||
        range("dramq_size", c->dramq_size, 2, L2_MAX_DRAMQ, err, errlen) ||
        range("icnt_credits", c->icnt_credits, 1, 4096, err, errlen) ||
        range("dram_credits", c->dram_credits, 1, 4096, err, errlen) ||
        range("ack_writes", c->ack_writes, 0, 1, err, errlen))
        return -1;
    if (c->nsets & (c->nsets - 1)) {
        snprintf(err, errlen, "l2: nsets = %u is not a power of two", c->nsets);
        return -1;
    }
    return 0;
}

void l2_reset(const struct l2_cfg *c, struct l2_regs *r)
{
    memset(r, 0, sizeof *r);
    cache_tags_reset(&r->tags[0][0], L2_MAX_SETS, L2_MAX_WAYS);
    r->c.ms.free = cache_mshr_all(c->n_mshr);
    r->c.cr_icnt = (uint16_t)c->icnt_credits;
    r->c.cr_dram = (uint16_t)c->dram_credits;
    cache_wlog_clear(&r->c.wl);
}

uint32_t l2_set_of(const struct l2_cfg *c, uint64_t line)
{
    return (uint32_t)((line / c->line_div) & (c->nsets - 1));
}

void l2_install(const struct l2_cfg *c, struct l2_regs *r, uint64_t line)
{
    struct cache_line *set = r->tags[l2_set_of(c, line)];
    int w = cache_find_way(set, c->assoc, line);
    if (w < 0) {
        if ((w = cache_pick_victim(set, c->assoc)) < 0)
            return;                                 /* every way reserved: not at reset */
        set[w].tag = line;
        set[w].state = CACHE_VALID;
        set[w].dirty = 0;
    }
    cache_lru_touch(set, c->assoc, (unsigned)w);
}

/* ---- helpers (the shared ones are in base/cachelib.h) ---- */

static int is_write(uint8_t kind)
{
    return kind == MK_STORE || kind == MK_SPILL;
}

static int needs_resp(const struct l2_cfg *c, uint8_t kind)
{
    return !is_write(kind) || c->ack_writes;
}

static void push_resp(struct l2_regs *d, const struct mem_req *r)
{
    d->respq[d->c.respq.wr] = *r;
    cache_fifo_push(&d->c.respq, L2_MAX_RESPQ);
}

static void push_dram(struct l2_regs *d, uint64_t line, uint8_t kind, const struct mem_req *r,
                      uint64_t now)
{
    struct mem_req *p = &d->dramq[d->c.dramq.wr];
    memset(p, 0, sizeof *p);
    p->addr = line << MEM_LINE_SHIFT;
    p->bytes = MEM_LINE_BYTES;
    p->kind = kind;
    p->sm = r ? r->sm : L2_WB_SM;
    p->warp = r ? r->warp : 0;
    p->tag = r ? r->tag : 0;
    p->t_issue = r ? r->t_issue : now;
    cache_fifo_push(&d->c.dramq, L2_MAX_DRAMQ);
}

/* ---- step 1: fill ---- */

static void do_fill(const struct l2_cfg *c, const struct mem_req *f, struct l2_out *o,
                    struct l2_regs *d)
{
    uint64_t line = f->addr >> MEM_LINE_SHIFT;
    unsigned s = l2_set_of(c, line), m;
    struct cache_line *set = d->tags[s];
    int w = cache_find_way(set, c->assoc, line);
    if (w < 0 || set[w].state != CACHE_RSRV) {
        o->ev_bad = 1;
        return;
    }
    m = set[w].mshr;
    set[w].state = CACHE_VALID;
    set[w].dirty = d->mshr[m].dirty;
    cache_wlog_set(&d->c.wl, s);
    d->rdyq[d->c.ms.rdyq.wr] = (uint8_t)m;
    cache_fifo_push(&d->c.ms.rdyq, L2_MAX_MSHR);
}

/* ---- step 3: drain ---- */

static void do_drain(const struct l2_cfg *c, const struct l2_regs *q, struct l2_regs *d)
{
    const struct mem_req *r = cache_drain_head(&q->c.ms, q->mshr, q->rdyq);
    if (needs_resp(c, r->kind)) {
        if (d->c.respq.cnt >= c->respq_size)
            return;
        push_resp(d, r);
    }
    cache_drain_next(&q->c.ms, q->mshr, q->rdyq, L2_MAX_MSHR, &d->c.ms);
}

/* ---- step 4: access ---- */

static int stall(struct l2_out *o, enum l2_stall why)
{
    o->stall = (uint8_t)why;
    o->ev_stall = 1;
    return 0;
}

static int access_hit(const struct l2_cfg *c, const struct mem_req *r, struct cache_line *set,
                      unsigned w, struct l2_out *o, struct l2_regs *d)
{
    int resp = needs_resp(c, r->kind);
    if (resp && d->c.respq.cnt >= c->respq_size)
        return stall(o, L2_STALL_RESPQ);
    if (resp)
        push_resp(d, r);
    if (is_write(r->kind) || r->kind == MK_ATOMIC)
        set[w].dirty = 1;
    cache_lru_touch(set, c->assoc, w);
    o->ev_hit = 1;
    return 1;
}

static int access_merge(const struct l2_cfg *c, const struct mem_req *r, unsigned m,
                        struct l2_out *o, struct l2_regs *d)
{
    if (!cache_mshr_merge(d->mshr, m, c->max_merge, &d->c.wl, r))
        return stall(o, L2_STALL_MERGE);
    if (is_write(r->kind) || r->kind == MK_ATOMIC)
        d->mshr[m].dirty = 1;
    o->ev_merge = 1;
    return 1;
}

static int access_miss(const struct l2_cfg *c, const struct mem_req *r, uint64_t line,
                       struct cache_line *set, uint64_t now, struct l2_out *o, struct l2_regs *d)
{
    int full = is_write(r->kind) && r->bytes >= MEM_LINE_BYTES;
    int resp = needs_resp(c, r->kind);
    int v = cache_pick_victim(set, c->assoc), wb;
    unsigned need, m;

    if (v < 0)
        return stall(o, L2_STALL_RSRV);
    wb = set[v].state == CACHE_VALID && set[v].dirty;
    need = (full ? 0u : 1u) + (wb ? 1u : 0u);
    if (!full && !d->c.ms.free)
        return stall(o, L2_STALL_MSHR);
    if (d->c.dramq.cnt + need > c->dramq_size)
        return stall(o, L2_STALL_DRAMQ);
    if (full && resp && d->c.respq.cnt >= c->respq_size)
        return stall(o, L2_STALL_RESPQ);
    if (wb) {
        push_dram(d, set[v].tag, MK_STORE, NULL, now);
        o->ev_writeback = 1;
    }
    set[v].tag = line;
    if (full) {
        set[v].state = CACHE_VALID;                 /* whole line written: no fetch */
        set[v].dirty = 1;
        if (resp)
            push_resp(d, r);
    } else {
        m = cache_mshr_alloc(&d->c.ms, d->mshr, &d->c.wl, line, r);
        d->mshr[m].dirty = is_write(r->kind) || r->kind == MK_ATOMIC;
        set[v].state = CACHE_RSRV;
        set[v].dirty = 0;
        set[v].mshr = (uint8_t)m;
        push_dram(d, line, MK_LOAD, r, now);
        o->ev_fetch = 1;
    }
    cache_lru_touch(set, c->assoc, (unsigned)v);
    o->ev_miss = 1;
    return 1;
}

static void do_access(const struct l2_cfg *c, const struct l2_regs *q, uint64_t now,
                      struct l2_out *o, struct l2_regs *d)
{
    const struct mem_req *r = &q->ropq[q->c.ropq.rd].req;
    uint64_t line = r->addr >> MEM_LINE_SHIFT;
    unsigned s = l2_set_of(c, line);
    struct cache_line *set = d->tags[s];
    int w, ok;

    if (r->kind > MK_FILL) {
        o->ev_bad = 1;                              /* dropped */
        ok = 1;
    } else {
        w = cache_find_way(set, c->assoc, line);
        if (w >= 0 && set[w].state == CACHE_VALID)
            ok = access_hit(c, r, set, (unsigned)w, o, d);
        else if (w >= 0)
            ok = access_merge(c, r, set[w].mshr, o, d);
        else
            ok = access_miss(c, r, line, set, now, o, d);
        if (!ok)
            return;
        cache_wlog_set(&d->c.wl, s);
        o->ev_access = 1;
        o->ev_write = (uint8_t)is_write(r->kind);
        o->ev_atomic = r->kind == MK_ATOMIC;
    }
    cache_fifo_pop(&d->c.ropq, L2_MAX_ROPQ);
    o->icnt_credit = 1;
}

void l2_eval(const struct l2_cfg *c, const struct l2_regs *q, const struct l2_in *in,
             struct l2_out *out, struct l2_regs *d)
{
    memset(out, 0, offsetof(struct l2_out, resp));    /* flags and events */
    cache_wlog_clear(&d->c.wl);
    d->c.cr_icnt = (uint16_t)(d->c.cr_icnt + in->icnt_credit);
    d->c.cr_dram = (uint16_t)(d->c.cr_dram + in->dram_credit);
    if (in->fill_valid)
        do_fill(c, &in->fill, out, d);
    if (in->req_valid) {
        if (d->c.ropq.cnt >= c->ropq_size) {
            out->ev_bad = 1;
        } else {
            d->ropq[d->c.ropq.wr].t_ready = in->now + c->rop_latency;
            d->ropq[d->c.ropq.wr].req = in->req;
            cache_fifo_push(&d->c.ropq, L2_MAX_ROPQ);
        }
    }
    if (q->c.respq.cnt && d->c.cr_icnt) {
        out->resp_valid = 1;
        out->resp = q->respq[q->c.respq.rd];
        cache_fifo_pop(&d->c.respq, L2_MAX_RESPQ);
        d->c.cr_icnt--;
    }
    if (q->c.dramq.cnt && d->c.cr_dram) {
        out->dram_valid = 1;
        out->dram = q->dramq[q->c.dramq.rd];
        cache_fifo_pop(&d->c.dramq, L2_MAX_DRAMQ);
        d->c.cr_dram--;
    }
    if (q->c.ms.rdyq.cnt)
        do_drain(c, q, d);
    if (q->c.ropq.cnt && q->ropq[q->c.ropq.rd].t_ready <= in->now)
        do_access(c, q, in->now, out, d);
    out->ev_bad |= d->c.wl.over;
}

void l2_commit(const struct l2_cfg *c, struct l2_regs *q, const struct l2_regs *d)
{
    struct l2_ctrl old = q->c;
    q->c = d->c;
    cache_commit_tags(&q->tags[0][0], &d->tags[0][0], L2_MAX_WAYS, c->assoc, &d->c.wl);
    cache_commit_mshr(q->mshr, d->mshr, &d->c.wl);
    CACHE_COPY_PUSHED(q->ropq, d->ropq, old.ropq.wr, d->c.ropq.wr, L2_MAX_ROPQ);
    CACHE_COPY_PUSHED(q->respq, d->respq, old.respq.wr, d->c.respq.wr, L2_MAX_RESPQ);
    CACHE_COPY_PUSHED(q->dramq, d->dramq, old.dramq.wr, d->c.dramq.wr, L2_MAX_DRAMQ);
    CACHE_COPY_PUSHED(q->rdyq, d->rdyq, old.ms.rdyq.wr, d->c.ms.rdyq.wr, L2_MAX_MSHR);
}

int l2_busy(const struct l2_cfg *c, const struct l2_regs *q)
{
    return q->c.ropq.cnt || q->c.respq.cnt || q->c.dramq.cnt || q->c.ms.rdyq.cnt ||
           q->c.ms.free != cache_mshr_all(c->n_mshr);
}

uint64_t l2_next_event(const struct l2_cfg *c, const struct l2_regs *q, uint64_t now)
{
    (void)c;
    if (q->c.ms.rdyq.cnt || (q->c.respq.cnt && q->c.cr_icnt) || (q->c.dramq.cnt && q->c.cr_dram))
        return now + 1;
    if (q->c.ropq.cnt) {
        uint64_t t = q->ropq[q->c.ropq.rd].t_ready;
        return t > now ? t : now + 1;
    }
    return UINT64_MAX;
}

/* Storage for the cost estimator (cost.h), one slice: the tag array (one row of assoc ways per
   set), the MSHRs with their merged requests, the ROP, response, DRAM and ready-MSHR FIFOs at
   their configured sizes, credits and control. The write log is bookkeeping, not hardware;
   the data array is not modelled (timing only). */
void l2_storage(const struct l2_cfg *c, struct cost_list *l)
{
    const char *tg = "L2 tags", *ms = "L2 MSHRs", *qu = "L2 queues";
    uint32_t a = c->assoc, m = cost_memreq_bits();
    cost_begin(l, "l2");
    cost_add(l, (struct cost_item){.name = "tags.tag", .mech = tg, .entries = c->nsets,
                                   .bits = 57 * a, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "[56:0] per way"});
    cost_add(l, (struct cost_item){.name = "tags.state", .mech = tg, .entries = c->nsets,
                                   .bits = (2 + 1) * a, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "state [1:0] + dirty [0]"});
    cost_add(l, (struct cost_item){.name = "tags.lru", .mech = tg, .entries = c->nsets,
                                   .bits = 4 * a, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "tags.mshr", .mech = tg, .entries = c->nsets,
                                   .bits = 6 * a, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "mshr.line", .mech = ms, .entries = c->n_mshr,
                                   .bits = 57 + 4 + 1, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "line [56:0], n [3:0], dirty [0]"});
    cost_add(l, (struct cost_item){.name = "mshr.m", .mech = ms, .entries = c->n_mshr,
                                   .bits = m * c->max_merge, .rports = 1, .wports = 1,
                                   .onchip = 1, .note = "max_merge x mem_req"});
    cost_add(l, (struct cost_item){.name = "mshr_free", .mech = ms, .entries = 1,
                                   .bits = c->n_mshr, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "ropq.t_ready", .mech = qu, .entries = c->ropq_size,
                                   .bits = 64, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "ropq.req", .mech = qu, .entries = c->ropq_size,
                                   .bits = m, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "respq", .mech = qu, .entries = c->respq_size,
                                   .bits = m, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "dramq", .mech = qu, .entries = c->dramq_size,
                                   .bits = m, .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rdyq", .mech = qu, .entries = c->n_mshr, .bits = 6,
                                   .rports = 1, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "fifo_ptrs", .mech = qu, .entries = 1,
                                   .bits = cost_fifo_bits(c->ropq_size) +
                                           cost_fifo_bits(c->respq_size) +
                                           cost_fifo_bits(c->dramq_size) +
                                           cost_fifo_bits(c->n_mshr),
                                   .rports = COST_PAR, .onchip = 1, .note = "rd, wr, cnt"});
    cost_add(l, (struct cost_item){.name = "ctl", .mech = qu, .entries = 1, .bits = 9 + 9 + 3,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "cr_icnt [8:0], cr_dram [8:0], drain [2:0]"});
}
