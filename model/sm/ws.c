/*
 * ws.c -- warp scheduler: LRR, GTO, two-level and priority-key issue arbitration (see ws.h,
 * docs/ws.md).
 *
 * Per cycle, in this order (all on the next state d, which equals q on entry):
 *   1. fresh slots become the youngest (age matrix update, lower slot older among several);
 *   2. TWOLEVEL: active slots that are invalid or long-stalled leave the active set, then the
 *      oldest ready pending slots are promoted until the set is full;
 *   3. pick by policy among ready & valid (& active for TWOLEVEL); LRR, GTO and TWOLEVEL
 *      record the last issued slot (WS_PRIO reads no last-issued slot and keeps it at 0).
 */
#include <stdio.h>
#include <string.h>
#include "ws.h"
#include "sm_limits.h"
#include "base/config.h"
#include "base/cost.h"

void ws_cfg_default(struct ws_cfg *c)
{
    c->policy = WS_GTO;
    c->nslots = 24;            /* 48 warps per SM on a GTX480, two schedulers */
    c->active = 8;
}

int ws_cfg_check(const struct ws_cfg *c, char *err, size_t errlen)
{
    if (c->policy >= WS_NPOLICY) {
        snprintf(err, errlen, "ws: policy %u unknown (lrr, gto, twolevel, prio)", c->policy);
        return -1;
    }
    if (c->nslots < 1 || c->nslots > SM_MAX_SLOTS) {
        snprintf(err, errlen, "ws: nslots %u out of range 1..%u", c->nslots, SM_MAX_SLOTS);
        return -1;
    }
    if (c->policy == WS_TWOLEVEL && (c->active < 1 || c->active > c->nslots)) {
        snprintf(err, errlen, "ws: two-level active set %u out of range 1..%u", c->active,
                 c->nslots);
        return -1;
    }
    return 0;
}

const char *ws_policy_name(unsigned p)
{
    static const char *const n[WS_NPOLICY] = {"lrr", "gto", "twolevel", "prio"};
    return p < WS_NPOLICY ? n[p] : "?";
}

/* Reset: age by slot index (lower = older), nothing active, nothing issued yet. */
void ws_reset(const struct ws_cfg *c, struct ws_regs *r)
{
    (void)c;
    for (unsigned i = 0; i < SM_MAX_SLOTS; i++)
        r->older[i] = slot_first(i);
    r->act = 0;
    r->last = 0;
    r->last_v = 0;
}

/* The slots of `fresh` get new warps: each becomes younger than every other slot; among
   them the lower slot is older.  One expression per row, as in rtl/ws.sv. */
static void make_youngest(struct ws_regs *d, slotmask fresh, slotmask all)
{
    slotmask m;
    unsigned i;
    for (SLOT_EACH(i, all, m)) {
        if (slot_has(fresh, i))
            d->older[i] = all & ~(fresh & ~slot_first(i));
        else
            d->older[i] &= ~fresh;
    }
}

/* The oldest slot of cand (none of the others in cand is older than it); cand != 0. */
static unsigned oldest(const struct ws_regs *d, slotmask cand)
{
    slotmask m;
    unsigned i;
    for (SLOT_EACH(i, cand, m))
        if ((d->older[i] & cand) == 0)
            return i;
    return slot_ctz(cand);         /* unreachable with a consistent matrix */
}

/* First slot of cand at or after `start`, wrapping (cand != 0, start < SM_MAX_SLOTS). */
static unsigned rr_pick(slotmask cand, unsigned start)
{
    slotmask hi = cand & ~slot_first(start);
    return slot_ctz(hi ? hi : cand);
}

/* WS_PRIO: the slots of cand with the highest key; cand != 0. */
static slotmask prio_top(const struct ws_in *in, slotmask cand)
{
    slotmask top = 0, m;
    unsigned i, best = 0;
    for (SLOT_EACH(i, cand, m)) {
        unsigned k = in->prio[i];
        if (!top || k > best) {
            best = k;
            top = slot_bit(i);
        } else if (k == best) {
            top |= slot_bit(i);
        }
    }
    return top;
}

static slotmask twolevel_update(const struct ws_cfg *c, const struct ws_regs *q,
                                const struct ws_in *in, struct ws_regs *d, slotmask valid)
{
    slotmask act = q->act & valid & ~in->lstall;
    unsigned n = slot_count(act);
    slotmask cand = valid & ~act & in->ready & ~in->lstall;
    while (n < c->active && cand) {
        unsigned p = oldest(d, cand);
        act |= slot_bit(p);
        cand &= ~slot_bit(p);
        n++;
    }
    d->act = act;
    return act;
}

void ws_eval(const struct ws_cfg *c, const struct ws_regs *q, const struct ws_in *in,
             struct ws_out *out, struct ws_regs *d)
{
    slotmask all = slot_first(c->nslots);
    slotmask valid = in->valid & all;
    slotmask fresh = in->fresh & all;
    slotmask ready = in->ready & valid;
    unsigned start = q->last_v ? (q->last + 1u) % c->nslots : 0u;

    if (fresh)
        make_youngest(d, fresh, all);
    if (c->policy == WS_GTO && q->last_v && slot_has(fresh, q->last))
        d->last_v = 0;             /* a new warp in the greedy slot does not inherit greed */

    out->issue_v = 0;
    out->issue_slot = 0;
    if (c->policy == WS_TWOLEVEL)
        ready &= twolevel_update(c, q, in, d, valid);
    if (!ready)
        return;

    unsigned pick;
    if (c->policy == WS_PRIO)
        pick = oldest(d, prio_top(in, ready));
    else if (c->policy == WS_GTO)
        pick = (d->last_v && slot_has(ready, q->last)) ? q->last : oldest(d, ready);
    else
        pick = rr_pick(ready, start);
    out->issue_v = 1;
    out->issue_slot = (uint8_t)pick;
    if (c->policy != WS_PRIO) {
        d->last = (uint8_t)pick;
        d->last_v = 1;
    }
}

/* Only the rows in use: the others are never written (the SM calls this every cycle for
   every scheduler). */
void ws_commit(const struct ws_cfg *c, struct ws_regs *q, const struct ws_regs *d)
{
    for (unsigned i = 0; i < c->nslots; i++)
        q->older[i] = d->older[i];
    q->act = d->act;
    q->last = d->last;
    q->last_v = d->last_v;
}

/* Bits of a slot index of this instance: clog2(nslots), at least 1 (rtl/ws.sv's LW). */
static uint32_t slot_index_bits(uint32_t n)
{
    uint32_t b = 1;
    while ((1u << b) < n)
        b++;
    return b;
}

/* Storage for the cost estimator (cost.h): the age matrix, nslots x nslots bits as held
   (read only by GTO, two-level and the priority pick; its diagonal is always 0 -- a slot is
   never older than itself -- but the C and Verilog blocks keep it), the two-level active set,
   the last-issued pointer (clog2(nslots) bits; not held by WS_PRIO, which never reads it). */
void ws_storage(const struct ws_cfg *c, struct cost_list *l)
{
    uint32_t n = c->nslots;
    cost_begin(l, "ws");
    if (c->policy != WS_LRR)
        cost_add(l, (struct cost_item){.name = "older", .mech = "scheduler age matrix",
                                       .entries = n, .bits = n, .rports = COST_PAR,
                                       .onchip = 1, .note = "[nslots-1:0] per slot"});
    if (c->policy == WS_TWOLEVEL)
        cost_add(l, (struct cost_item){.name = "act", .mech = "two-level active set",
                                       .entries = 1, .bits = n, .rports = COST_PAR, .onchip = 1,
                                       .note = "[nslots-1:0]"});
    if (c->policy == WS_PRIO)
        return;
    cost_add(l, (struct cost_item){.name = "last", .mech = "scheduler issue pointer", .entries = 1,
                                   .bits = slot_index_bits(n), .rports = COST_PAR, .onchip = 1,
                                   .note = "[clog2(nslots)-1:0]"});
    cost_add(l, (struct cost_item){.name = "last_v", .mech = "scheduler issue pointer",
                                   .entries = 1, .bits = 1, .rports = COST_PAR, .onchip = 1});
}

/* Registry entry points (model/base/blocks.def). */
uint32_t ws_instances(const struct gpu_config *c)
{
    return c->schedulers_per_sm;
}

/* Slot w of the SM belongs to scheduler w % nsched as its local slot w / nsched. */
void ws_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t i, struct ws_cfg *out)
{
    uint32_t ns = c->schedulers_per_sm, n = sm_slots(c);
    (void)sm;
    ws_cfg_default(out);
    out->policy = (uint8_t)(c->sched_policy == SCHED_LRR ? WS_LRR :
                            c->sched_policy == SCHED_TWOLEVEL ? WS_TWOLEVEL :
                            c->sched_policy == SCHED_GTO_PRIO ||
                            c->sched_policy == SCHED_VTW || sm_dws_widest(c) ? WS_PRIO : WS_GTO);
    out->nslots = (uint8_t)((n + ns - 1 - i) / ns);
    out->active = (uint8_t)(c->twolevel_active < out->nslots ? c->twolevel_active : out->nslots);
}

void ws_rtl_params(const struct ws_cfg *c, FILE *f)
{
    fprintf(f, "localparam WS_POLICY = %u;\nlocalparam WS_NSLOTS = %u;\nlocalparam WS_ACTIVE = %u;\n",
            c->policy, c->nslots, c->active);
}
