/*
 * ws.c -- warp scheduler: LRR, GTO and two-level issue arbitration (see ws.h, docs/ws.md).
 *
 * Per cycle, in this order (all on the next state d, which equals q on entry):
 *   1. fresh slots become the youngest (age matrix update, lower slot older among several);
 *   2. TWOLEVEL: active slots that are invalid or long-stalled leave the active set, then the
 *      oldest ready pending slots are promoted until the set is full;
 *   3. pick by policy among ready & valid (& active for TWOLEVEL), record the last issued slot.
 */
#include <stdio.h>
#include "ws.h"
#include "base/cost.h"

static uint32_t slot_mask(const struct ws_cfg *c)
{
    return c->nslots >= 32 ? 0xffffffffu : ((1u << c->nslots) - 1u);
}

void ws_cfg_default(struct ws_cfg *c)
{
    c->policy = WS_GTO;
    c->nslots = 24;            /* 48 warps per SM on a GTX480, two schedulers */
    c->active = 8;
}

int ws_cfg_check(const struct ws_cfg *c, char *err, size_t errlen)
{
    if (c->policy >= WS_NPOLICY) {
        snprintf(err, errlen, "ws: policy %u unknown (lrr, gto, twolevel)", c->policy);
        return -1;
    }
    if (c->nslots < 1 || c->nslots > WS_MAX_SLOTS) {
        snprintf(err, errlen, "ws: nslots %u out of range 1..%u", c->nslots, WS_MAX_SLOTS);
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
    static const char *const n[WS_NPOLICY] = {"lrr", "gto", "twolevel"};
    return p < WS_NPOLICY ? n[p] : "?";
}

/* Reset: age by slot index (lower = older), nothing active, nothing issued yet. */
void ws_reset(const struct ws_cfg *c, struct ws_regs *r)
{
    (void)c;
    for (unsigned i = 0; i < WS_MAX_SLOTS; i++)
        r->older[i] = i ? ((1u << i) - 1u) : 0u;
    r->act = 0;
    r->last = 0;
    r->last_v = 0;
}

/* Slot n gets a new warp: everybody else is older than n, n is older than nobody. */
static void make_youngest(struct ws_regs *d, unsigned n, uint32_t all)
{
    uint32_t bit = 1u << n;
    for (uint32_t m = all & ~bit; m; m &= m - 1)
        d->older[__builtin_ctz(m)] &= ~bit;
    d->older[n] = all & ~bit;
}

/* The oldest slot of cand (none of the others in cand is older than it); cand != 0. */
static unsigned oldest(const struct ws_regs *d, uint32_t cand)
{
    for (uint32_t m = cand; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        if ((d->older[i] & cand) == 0)
            return i;
    }
    return (unsigned)__builtin_ctz(cand);    /* unreachable with a consistent matrix */
}

/* First slot of cand at or after `start`, wrapping (cand != 0, start < 32). */
static unsigned rr_pick(uint32_t cand, unsigned start)
{
    uint32_t hi = cand & ~((1u << start) - 1u);
    if (start == 0)
        hi = cand;
    return (unsigned)__builtin_ctz(hi ? hi : cand);
}

static uint32_t twolevel_update(const struct ws_cfg *c, const struct ws_regs *q,
                                const struct ws_in *in, struct ws_regs *d, uint32_t valid)
{
    uint32_t act = q->act & valid & ~in->lstall;
    unsigned n = (unsigned)__builtin_popcount(act);
    uint32_t cand = valid & ~act & in->ready & ~in->lstall;
    while (n < c->active && cand) {
        unsigned p = oldest(d, cand);
        act |= 1u << p;
        cand &= ~(1u << p);
        n++;
    }
    d->act = act;
    return act;
}

void ws_eval(const struct ws_cfg *c, const struct ws_regs *q, const struct ws_in *in,
             struct ws_out *out, struct ws_regs *d)
{
    uint32_t all = slot_mask(c);
    uint32_t valid = in->valid & all;
    uint32_t fresh = in->fresh & all;
    uint32_t ready = in->ready & valid;
    unsigned start = q->last_v ? (q->last + 1u) % c->nslots : 0u;

    for (uint32_t m = fresh; m; m &= m - 1)
        make_youngest(d, (unsigned)__builtin_ctz(m), all);
    if (c->policy == WS_GTO && q->last_v && (fresh >> q->last & 1u))
        d->last_v = 0;             /* a new warp in the greedy slot does not inherit greed */

    out->issue_v = 0;
    out->issue_slot = 0;
    if (c->policy == WS_TWOLEVEL)
        ready &= twolevel_update(c, q, in, d, valid);
    if (!ready)
        return;

    unsigned pick;
    if (c->policy == WS_GTO)
        pick = (d->last_v && (ready >> q->last & 1u)) ? q->last : oldest(d, ready);
    else
        pick = rr_pick(ready, start);
    out->issue_v = 1;
    out->issue_slot = (uint8_t)pick;
    d->last = (uint8_t)pick;
    d->last_v = 1;
}

void ws_commit(const struct ws_cfg *c, struct ws_regs *q, const struct ws_regs *d)
{
    (void)c;
    *q = *d;
}

/* Storage for the cost estimator (cost.h): the age matrix, nslots x nslots bits as held
   (read only by GTO and two-level; its diagonal is always 0 -- a slot is never older than
   itself -- but the C and Verilog blocks keep it), the two-level active set, the
   last-issued pointer. */
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
    cost_add(l, (struct cost_item){.name = "last", .mech = "scheduler issue pointer", .entries = 1,
                                   .bits = 5, .rports = COST_PAR, .onchip = 1, .note = "[4:0]"});
    cost_add(l, (struct cost_item){.name = "last_v", .mech = "scheduler issue pointer",
                                   .entries = 1, .bits = 1, .rports = COST_PAR, .onchip = 1});
}
