/*
 * fu.c -- execution units' issue timing and the result queue (see fu.h).
 * Same-cycle order: results due at `now` are released first (their registers are free for
 * this cycle's readiness only from the next cycle, as a register-file write-then-read would
 * allow), then this cycle's issues occupy their units and enter the queue.
 */
#include <stdio.h>
#include <string.h>
#include "fu.h"
#include "sm_limits.h"
#include "base/cost.h"

void fu_reset(const struct fu_cfg *c, struct fu_regs *q)
{
    (void)c;
    memset(q, 0, sizeof *q);
}

/* Release up to FU_MAX_REL registers of results due by now; a result with more destination
   registers than the ports left waits a cycle (it stays, partially released). */
static void release_due(const struct fu_regs *q, const struct fu_in *in, struct fu_out *out,
                        struct fu_regs *d)
{
    uint32_t i, k;
    uint64_t m;
    for (m = q->valid; m && out->nrel < FU_MAX_REL; m &= m - 1) {
        const struct fu_entry *e;
        i = (uint32_t)__builtin_ctzll(m);
        e = &q->q[i];
        if (e->done_at > in->now)
            continue;
        for (k = 0; k < FU_MAX_DST && out->nrel < FU_MAX_REL; k++) {
            if (d->q[i].reg[k] == 0xFFFF)
                continue;
            out->rel[out->nrel].warp = e->warp;
            out->rel[out->nrel].vwi = e->vwi;
            out->rel[out->nrel].reg = e->reg[k];
            out->rel[out->nrel].own = e->own;
            out->nrel++;
            d->q[i].reg[k] = 0xFFFF;
        }
        if (k == FU_MAX_DST) {
            d->valid &= ~(1ull << i);
            d->count--;
        }
    }
}

static int free_slot(const struct fu_regs *d)
{
    return ~d->valid ? __builtin_ctzll(~d->valid) : -1;
}

static void accept(const struct fu_cfg *c, const struct fu_issue *is, uint64_t now,
                   struct fu_regs *d)
{
    int s;
    uint32_t k;
    uint32_t until = (uint32_t)(now + (is->ii ? is->ii : 1));
    if (c->shared >> is->unit & 1)
        for (uint32_t k = 0; k < c->nsched && k < FU_MAX_SCHED; k++)
            d->busy_until[k][is->unit] = until;
    else
        d->busy_until[is->sched][is->unit] = until;
    if (is->ndst == 0)
        return;
    d->q_dirty = 1;
    s = free_slot(d);
    if (s < 0)
        return;                       /* the SM checked `full` before issuing */
    d->valid |= 1ull << s;
    d->q[s].done_at = now + (is->lat ? is->lat : 1);
    d->q[s].warp = is->warp;
    d->q[s].vwi = is->vwi;
    d->q[s].own = is->own;
    for (k = 0; k < FU_MAX_DST; k++)
        d->q[s].reg[k] = k < is->ndst ? is->dst[k] : 0xFFFF;
    d->count++;
}

void fu_eval(const struct fu_cfg *c, const struct fu_regs *q, const struct fu_in *in,
             struct fu_out *out, struct fu_regs *d)
{
    uint32_t i, u;
    memset(out, 0, sizeof *out);
    d->q_dirty = 0;
    if (q->count)
        release_due(q, in, out, d);
    d->q_dirty = out->nrel != 0;
    for (i = 0; i < c->nsched && i < FU_ISSUE; i++)
        if (in->issue[i].valid)
            accept(c, &in->issue[i], in->now, d);
    for (i = 0; i < c->nsched; i++)
        for (u = 0; u < FU_NUNITS; u++)   /* free next cycle? (readiness is for the next issue) */
            if ((int32_t)(d->busy_until[i][u] - (uint32_t)(in->now + 1)) <= 0 &&
                (!(c->shared >> u & 1) || (in->now + 1) % c->nsched == i))
                out->unit_free[i] |= (uint8_t)(1u << u);
    out->full = d->count + c->nsched > FU_QUEUE;
}

uint64_t fu_next_event(const struct fu_cfg *c, const struct fu_regs *q, uint64_t now)
{
    uint64_t next = UINT64_MAX, m;
    uint32_t i, u;
    for (m = q->valid; m; m &= m - 1) {
        uint64_t t = q->q[__builtin_ctzll(m)].done_at;
        if (t < next)
            next = t > now ? t : now + 1;
    }
    for (i = 0; i < c->nsched && i < FU_MAX_SCHED; i++)
        for (u = 0; u < FU_NUNITS; u++) {   /* free at the eval of cycle busy_until - 1 */
            int32_t left = (int32_t)(q->busy_until[i][u] - (uint32_t)(now + 1));
            if (left > 0 && now + (uint64_t)left < next)
                next = now + (uint64_t)left;
        }
    return next;
}

/* The result queue is copied only when eval wrote it (some entry issued or released). */
void fu_commit(const struct fu_cfg *c, struct fu_regs *q, const struct fu_regs *d)
{
    (void)c;
    memcpy(q->busy_until, d->busy_until, sizeof q->busy_until);
    if (d->q_dirty || q->q_dirty)
        memcpy(q->q, d->q, sizeof q->q);
    q->count = d->count;
    q->valid = d->valid;
    q->q_dirty = d->q_dirty;
}

/* Registry entry points (model/base/blocks.def). */
uint32_t fu_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void fu_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t i, struct fu_cfg *out)
{
    (void)sm; (void)i;
    out->nsched = c->schedulers_per_sm;
    out->shared = c->sfu_shared ? (uint8_t)(1u << FU_SFU) : 0;
    out->dws = c->dws != DWS_OFF;
}

int fu_cfg_check(const struct fu_cfg *c, char *err, size_t errlen)
{
    if (c->nsched < 1 || c->nsched > FU_MAX_SCHED) {
        snprintf(err, errlen, "fu: nsched %u out of range 1..%u", c->nsched, FU_MAX_SCHED);
        return -1;
    }
    return 0;
}

/* Storage for the cost estimator (cost.h): a busy-until stamp per unit and scheduler, and the
   result queue (FU_QUEUE entries, every one compared with the cycle each cycle; done_at is
   the model's absolute 64-bit cycle stamp). q_dirty is bookkeeping, not hardware. */
void fu_storage(const struct fu_cfg *c, struct cost_list *l)
{
    const char *rq = "result queue";
    uint32_t wr = c->nsched ? c->nsched : 1;
    cost_begin(l, "fu");
    cost_add(l, (struct cost_item){.name = "busy_until", .mech = "unit busy stamps",
                                   .entries = (uint64_t)c->nsched * FU_NUNITS, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1, .note = "low 32 bits"});
    cost_add(l, (struct cost_item){.name = "q.done_at", .mech = rq, .entries = FU_QUEUE,
                                   .bits = 64, .rports = COST_PAR, .wports = (uint8_t)wr,
                                   .onchip = 1, .note = "64: absolute cycle"});
    cost_add(l, (struct cost_item){.name = "q.reg", .mech = rq, .entries = FU_QUEUE,
                                   .bits = 16 * FU_MAX_DST, .rports = COST_PAR,
                                   .wports = (uint8_t)wr, .onchip = 1, .note = "16 each"});
    cost_add(l, (struct cost_item){.name = "q.warp", .mech = rq, .entries = FU_QUEUE, .bits = 8,
                                   .rports = COST_PAR, .wports = (uint8_t)wr, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "q.vwi", .mech = "VWI tags (VT, 004)",
                                   .entries = FU_QUEUE, .bits = 8, .rports = COST_PAR,
                                   .wports = (uint8_t)wr, .onchip = 1});
    if (c->dws)
        cost_add(l, (struct cost_item){.name = "q.own", .mech = "DWS (002)",
                                       .entries = FU_QUEUE, .bits = 32, .rports = COST_PAR,
                                       .wports = (uint8_t)wr, .onchip = 1,
                                       .note = "owned lanes: the slots its writeback reaches"});
    cost_add(l, (struct cost_item){.name = "q.valid", .mech = rq, .entries = FU_QUEUE, .bits = 1,
                                   .rports = COST_PAR, .wports = (uint8_t)wr, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "count", .mech = rq, .entries = 1, .bits = 7,
                                   .rports = COST_PAR, .onchip = 1});
}
