/*
 * ldst.c -- load/store unit: coalescing, line queue, pending loads (see ldst.h).
 * Same-cycle order: a returning line is counted first (its lanes complete, its registers are
 * released this cycle if it was the last), then the L1's hit report marks the hit lanes, then
 * the L1's acceptance takes the line it was offered, then this cycle's issue appends its
 * lines (its load enters the active queue), then a swap moves its range's loads (this
 * cycle's included) to the inactive queue.
 */
#include <stdio.h>
#include <string.h>
#include "ldst.h"
#include "sm_limits.h"
#include "base/config.h"
#include "base/cost.h"

void ldst_reset(const struct ldst_cfg *c, struct ldst_regs *q)
{
    (void)c;
    memset(q, 0, sizeof *q);
}

/* The queue slot offered to the L1: the oldest line of an active load, else the oldest line
   (the head; the head is never a hole). -1: the queue is empty. With no inactive entry no
   inactive line is queued, and no hole either (a hole is made only behind an inactive head):
   the head, as a plain FIFO. */
static int offered(const struct ldst_regs *q)
{
    uint32_t k, i;
    if (!q->count)
        return -1;
    for (k = 0; q->ninact && k < q->count; k++) {
        i = (q->head + k) % LDST_QUEUE;
        if (q->qvalid[i] && !q->qinact[i])
            return (int)i;
    }
    return (int)q->head;
}

void ldst_outputs(const struct ldst_cfg *c, const struct ldst_regs *q, struct ldst_out *out)
{
    int i = offered(q);
    uint32_t nact = q->npend - q->ninact;
    out->req_valid = i >= 0;
    if (i >= 0)
        out->req = q->queue[i];
    out->can_issue = q->count + 64 <= LDST_QUEUE && nact < c->npend_act;
    out->nact = (uint8_t)nact;
    out->ninact = (uint8_t)q->ninact;
}

/* The L1 took the line in slot i: the head moves past it and past the holes behind it; a line
   taken from behind the head leaves a hole. */
static void take(struct ldst_regs *d, uint32_t i)
{
    if (i != d->head) {
        d->qvalid[i] = 0;
        d->qflags_dirty = 1;
        return;
    }
    do {
        d->head = (d->head + 1) % LDST_QUEUE;
        d->count--;
    } while (d->count && !d->qvalid[d->head]);
}

/* The completion port for entry `tag` after its line returned (last: no line outstanding). */
static void complete(const struct ldst_pend *p, uint32_t tag, int last, struct ldst_out *out)
{
    out->cpl_valid = 1;
    out->cpl_last = (uint8_t)last;
    out->cpl_warp = p->warp;
    out->cpl_vwi = p->vwi;
    out->cpl_tag = (uint8_t)tag;
    out->cpl_lanes = last ? p->lanes : p->done;
    out->cpl_hit = p->hit;
    out->cpl_own = p->own;
    out->ev_part = (uint8_t)!last;
    out->ev_part_mixed = !last && (p->done & p->hit) && (p->lanes & ~p->done & ~p->hit);
}

static void respond(const struct ldst_in *in, struct ldst_out *out, struct ldst_regs *d)
{
    struct ldst_pend *p;
    uint32_t k;
    if (!in->resp_valid || in->resp_tag >= LDST_PENDING_MAX || !d->pend[in->resp_tag].valid)
        return;
    p = &d->pend[in->resp_tag];
    p->done |= in->resp_lanes & p->lanes;
    if (--p->outstanding) {
        complete(p, in->resp_tag, 0, out);
        return;
    }
    complete(p, in->resp_tag, 1, out);
    for (k = 0; k < LDST_MAX_DST; k++)
        if (p->reg[k] != 0xFFFF && out->nrel < LDST_MAX_REL) {
            out->rel[out->nrel].warp = p->warp;
            out->rel[out->nrel].vwi = p->vwi;
            out->rel[out->nrel].reg = p->reg[k];
            out->rel[out->nrel].own = p->own;
            out->nrel++;
        }
    p->valid = 0;
    d->npend--;
    d->ninact -= p->inact;
}

/* The L1 hit the request it accepted this cycle: its lanes hit. */
static void record_hit(const struct ldst_in *in, struct ldst_regs *d)
{
    struct ldst_pend *p;
    if (!in->hit_valid || in->hit_tag >= LDST_PENDING_MAX || !d->pend[in->hit_tag].valid)
        return;
    p = &d->pend[in->hit_tag];
    p->hit |= in->hit_lanes & p->lanes;
}

/* A new entry of the active queue: the lowest free entry of the table (-1: the active queue is
   full; the SM checked can_issue). */
static int new_pending(const struct ldst_cfg *c, const struct ldst_issue *is,
                       struct ldst_regs *d)
{
    uint32_t i, k;
    if (d->npend - d->ninact >= c->npend_act)
        return -1;
    for (i = 0; i < LDST_PENDING_MAX; i++)
        if (!d->pend[i].valid)
            break;
    if (i == LDST_PENDING_MAX)
        return -1;
    d->pend[i].valid = 1;
    d->pend[i].inact = 0;
    d->pend[i].warp = is->warp;
    d->pend[i].vwi = is->vwi;
    d->pend[i].outstanding = 0;
    d->pend[i].lanes = is->mask;
    d->pend[i].done = 0;
    d->pend[i].hit = 0;
    d->pend[i].own = is->own;
    for (k = 0; k < LDST_MAX_DST; k++)
        d->pend[i].reg[k] = k < is->ndst ? is->dst[k] : 0xFFFF;
    d->npend++;
    return (int)i;
}

static void push_line(struct ldst_regs *d, const struct ldst_issue *is, uint64_t line,
                      uint32_t bytes, uint32_t lanes, uint32_t tag, uint8_t sm, uint64_t now)
{
    struct mem_req *r;
    if (d->count >= LDST_QUEUE)
        return;                          /* the SM checked can_issue */
    d->qvalid[(d->head + d->count) % LDST_QUEUE] = 1;
    d->qinact[(d->head + d->count) % LDST_QUEUE] = 0;
    r = &d->queue[(d->head + d->count) % LDST_QUEUE];
    d->count++;
    r->addr = line;
    r->bytes = bytes > MEM_LINE_BYTES ? MEM_LINE_BYTES : bytes;
    r->kind = is->kind;
    r->sm = sm;
    r->warp = is->warp;
    r->pad = 0;
    r->tag = tag;
    r->lanes = lanes;
    r->t_issue = now;
}

/* Coalesce: one request per distinct 128-byte line touched, in order of first touching lane
   (an access that straddles two lines touches both). Each line carries the lanes whose whole
   access lies in it; a lane that straddles two lines (misaligned: exec.c never issues one) is
   on neither and completes with the load's last line. Returns the number of lines. */
static uint32_t coalesce(const struct ldst_cfg *c, const struct ldst_issue *is, uint32_t tag,
                         uint64_t now, struct ldst_regs *d)
{
    uint64_t lines[64];
    uint32_t bytes[64], lanes[64], n = 0, m, i;
    for (m = is->mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m), part;
        uint64_t a = is->addr[lane], end = a + (is->bytes ? is->bytes : 1);
        int whole = (a ^ (end - 1)) < MEM_LINE_BYTES;   /* first and last byte: one line */
        for (; a < end; a = (a | (MEM_LINE_BYTES - 1)) + 1) {
            uint64_t line = a & ~(uint64_t)(MEM_LINE_BYTES - 1);
            part = (uint32_t)((end < line + MEM_LINE_BYTES ? end : line + MEM_LINE_BYTES) - a);
            for (i = 0; i < n && lines[i] != line; i++)
                ;
            if (i == n && n < 64) {
                lines[n] = line;
                lanes[n] = 0;
                bytes[n++] = 0;
            }
            if (i < 64) {
                bytes[i] += part;
                lanes[i] |= whole ? 1u << lane : 0;
            }
        }
    }
    for (i = 0; i < n; i++)
        push_line(d, is, lines[i], bytes[i], lanes[i], tag, c->sm, now);
    return n;
}

/* VT swap-out: the active entries of VWIs [vwi_lo, vwi_lo + n) move to the inactive queue in
   entry order while it has room (the others stay active and are counted); the queued lines of
   the moved entries become inactive (stores have no entry and stay active). */
static void swap_out(const struct ldst_cfg *c, const struct ldst_swap *sw, struct ldst_out *out,
                     struct ldst_regs *d)
{
    uint64_t moved = 0;
    uint32_t i, k;
    for (i = 0; i < LDST_PENDING_MAX; i++) {
        struct ldst_pend *p = &d->pend[i];
        if (!p->valid || p->inact || p->vwi < sw->vwi_lo ||
            p->vwi >= (uint32_t)sw->vwi_lo + sw->n)
            continue;
        if (d->ninact >= c->npend_inact) {
            out->ev_nomove++;
            continue;
        }
        p->inact = 1;
        d->ninact++;
        out->ev_moved++;
        moved |= 1ull << i;
    }
    for (k = 0; moved && k < d->count; k++) {
        i = (d->head + k) % LDST_QUEUE;
        if (d->qvalid[i] && d->queue[i].kind != MK_STORE && d->queue[i].tag < LDST_PENDING_MAX &&
            (moved >> d->queue[i].tag & 1)) {
            d->qinact[i] = 1;
            d->qflags_dirty = 1;
        }
    }
}

void ldst_eval(const struct ldst_cfg *c, const struct ldst_regs *q, const struct ldst_in *in,
               struct ldst_out *out, struct ldst_regs *d)
{
    int sel = offered(q);
    memset(out, 0, sizeof *out);
    d->pend_dirty = in->resp_valid || in->hit_valid || (in->issue.valid && in->issue.mask) ||
                    in->swap.v || in->detach_v;
    d->qflags_dirty = 0;
    if (in->detach_v && in->detach_tag < LDST_PENDING_MAX && d->pend[in->detach_tag].valid)
        d->pend[in->detach_tag].own &= ~in->detach_lanes;   /* DWS: before this cycle's response */
    respond(in, out, d);
    record_hit(in, d);
    if (in->accepted && sel >= 0)
        take(d, (uint32_t)sel);
    if (in->issue.valid && in->issue.mask) {
        int tag = in->issue.kind == MK_STORE ? 0 : new_pending(c, &in->issue, d);
        if (tag >= 0) {
            out->ev_lines = coalesce(c, &in->issue, (uint32_t)tag, in->now, d);
            if (in->issue.kind != MK_STORE)
                d->pend[tag].outstanding = (uint8_t)out->ev_lines;
        }
    }
    if (in->swap.v)
        swap_out(c, &in->swap, out, d);
    ldst_outputs(c, d, out);
}

/* Copies only what eval can have written: the pending table when it changed, the queue
   slots appended this cycle (between q's tail and d's tail) and the slots' flags when eval
   wrote them elsewhere (a hole, a swap). */
void ldst_commit(const struct ldst_cfg *c, struct ldst_regs *q, const struct ldst_regs *d)
{
    uint32_t qt = q->head + q->count, dt = d->head + d->count, i;
    (void)c;
    if (d->head < q->head)
        dt += LDST_QUEUE;                 /* d's head wrapped */
    for (; qt < dt; qt++) {
        i = qt % LDST_QUEUE;
        q->queue[i] = d->queue[i];
        q->qvalid[i] = d->qvalid[i];
        q->qinact[i] = d->qinact[i];
    }
    if (d->qflags_dirty || q->qflags_dirty) {
        memcpy(q->qvalid, d->qvalid, sizeof q->qvalid);
        memcpy(q->qinact, d->qinact, sizeof q->qinact);
    }
    if (d->pend_dirty || q->pend_dirty)
        memcpy(q->pend, d->pend, sizeof q->pend);
    q->head = d->head;
    q->count = d->count;
    q->npend = d->npend;
    q->ninact = d->ninact;
    q->pend_dirty = d->pend_dirty;
    q->qflags_dirty = d->qflags_dirty;
}


/* Registry entry points (model/base/blocks.def). */
uint32_t ldst_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void ldst_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t i, struct ldst_cfg *out)
{
    (void)i;
    out->sm = (uint8_t)sm;
    out->npend_act = LDST_PENDING;
    out->npend_inact = (uint8_t)(c->vt == VT_ON ? c->vt_ldq_inactive : 0);
    out->dws = c->dws != DWS_OFF;
}

int ldst_cfg_check(const struct ldst_cfg *c, char *err, size_t errlen)
{
    if (c->npend_act < 1 || c->npend_act > LDST_PENDING) {
        snprintf(err, errlen, "ldst: npend_act = %u out of range 1..%u", c->npend_act,
                 LDST_PENDING);
        return -1;
    }
    if (c->npend_inact > LDST_INACT_MAX) {
        snprintf(err, errlen, "ldst: npend_inact = %u out of range 0..%u (vt_ldq_inactive)",
                 c->npend_inact, LDST_INACT_MAX);
        return -1;
    }
    return 0;
}

/* Storage for the cost estimator (cost.h): the line-request queue (a FIFO of mem_req, each
   with its lane mask), its pointers, the pending-load table (indexed by the response tag) with
   the per-load lane, completion and hit masks. Under VT (npend_inact > 0) the load queues of
   004 Sec. IV-D add the inactive queue's entries, an inact bit per entry, a valid and an
   inact bit per line slot and the inactive count; without VT the table is the active queue
   alone and nothing is added. pend_dirty and qflags_dirty are bookkeeping, not hardware. */
#define LDST_PEND_BITS (16 * LDST_MAX_DST + 8 + 8 + 6 + 1 + 3 * 32)   /* one entry, no inact */

static void storage_vt(const struct ldst_cfg *c, struct cost_list *l)
{
    const char *vq = "VT load queues (004 IV-D)";
    if (!c->npend_inact)
        return;
    cost_add(l, (struct cost_item){.name = "pend_inact", .mech = vq, .entries = c->npend_inact,
                                   .bits = LDST_PEND_BITS + 1, .rports = 1, .wports = 2,
                                   .onchip = 1, .note = "the inactive queue: pend.* + inact"});
    cost_add(l, (struct cost_item){.name = "pend.inact", .mech = vq, .entries = c->npend_act,
                                   .bits = 1, .rports = 1, .wports = 2, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "qvalid", .mech = vq, .entries = LDST_QUEUE,
                                   .bits = 1, .rports = COST_PAR, .wports = 2, .onchip = 1,
                                   .note = "a line taken from behind the head leaves a hole"});
    cost_add(l, (struct cost_item){.name = "qinact", .mech = vq, .entries = LDST_QUEUE,
                                   .bits = 1, .rports = COST_PAR, .wports = 2, .onchip = 1,
                                   .note = "oldest active line first"});
    cost_add(l, (struct cost_item){.name = "ninact", .mech = vq, .entries = 1,
                                   .bits = cost_clog2(c->npend_inact + 1u), .rports = COST_PAR,
                                   .onchip = 1});
}

void ldst_storage(const struct ldst_cfg *c, struct cost_list *l)
{
    const char *lq = "LD/ST line queue", *pl = "LD/ST pending loads";
    const char *lc = "lane-level completion (DWS, 002)";
    uint32_t n = c->npend_act;
    cost_begin(l, "ldst");
    cost_add(l, (struct cost_item){.name = "queue", .mech = lq, .entries = LDST_QUEUE,
                                   .bits = cost_memreq_bits(), .rports = 1, .wports = 1,
                                   .onchip = 1, .note = "mem_req (cost.c)"});
    cost_add(l, (struct cost_item){.name = "head", .mech = lq, .entries = 1, .bits = 7,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "count", .mech = lq, .entries = 1, .bits = 8,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "pend.reg", .mech = pl, .entries = n,
                                   .bits = 16 * LDST_MAX_DST, .rports = 1, .wports = 2,
                                   .onchip = 1, .note = "16 each"});
    cost_add(l, (struct cost_item){.name = "pend.warp", .mech = pl, .entries = n,
                                   .bits = 8, .rports = 1, .wports = 2, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "pend.vwi", .mech = "VWI tags (VT, 004)",
                                   .entries = n, .bits = 8, .rports = 1, .wports = 2,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "pend.outstanding", .mech = pl,
                                   .entries = n, .bits = 6, .rports = 1, .wports = 2,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "pend.valid", .mech = pl, .entries = n,
                                   .bits = 1, .rports = 1, .wports = 2, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "pend.lanes", .mech = lc, .entries = n,
                                   .bits = 32, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "the load's lanes"});
    cost_add(l, (struct cost_item){.name = "pend.done", .mech = lc, .entries = n,
                                   .bits = 32, .rports = 1, .wports = 2, .onchip = 1,
                                   .note = "lanes returned (issue clears, response sets)"});
    cost_add(l, (struct cost_item){.name = "pend.hit", .mech = lc, .entries = n,
                                   .bits = 32, .rports = 1, .wports = 2, .onchip = 1,
                                   .note = "lanes that hit in L1 (issue clears, L1 report sets)"});
    if (c->dws)
        cost_add(l, (struct cost_item){.name = "pend.own", .mech = "DWS (002)", .entries = n,
                                       .bits = 32, .rports = 1, .wports = 2, .onchip = 1,
                                       .note = "owned lanes: the slots its writeback reaches"});
    cost_add(l, (struct cost_item){.name = "npend", .mech = pl, .entries = 1,
                                   .bits = cost_clog2(n + c->npend_inact + 1u),
                                   .rports = COST_PAR, .onchip = 1});
    storage_vt(c, l);
}
