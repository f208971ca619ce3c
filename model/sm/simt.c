/*
 * simt.c -- SIMT reconvergence stack (token / IPDOM policies) with spill and fill
 * (see simt.h for the semantics, docs/simt.md for ports, registers and timing).
 *
 * eval order (d == q on entry; d is the next state under construction):
 *   0. the save (reads q, frees the slot), 1. launches (reset the slot), restores,
 *   2. the fill response (install the chunk, do the pending pop), 3. pop timers, 4. pending
 *   pops, 5. the update ports (with their DWS branch splits), then the DWS memory split,
 *   merge and release ports, 6. the memory request, 7. outputs from d.
 * A warp is touched by at most one of 2/4/5 per cycle (busy warps take no update), so each
 * warp pops at most once per cycle.
 */
#include <stdio.h>
#include <string.h>
#include "simt.h"
#include "sm_limits.h"
#include "base/cost.h"

struct ev {                        /* eval's working set (locals only, no state) */
    const struct simt_cfg *c;
    const struct simt_regs *q;
    struct simt_regs *d;
    struct simt_out *out;
    slotmask popped;               /* warps that popped this cycle */
    unsigned port;                 /* the update port being applied (its spill port) */
    /* DWS: the slots each port names this cycle (valid ports, raw inputs) */
    slotmask nx;                   /* launch, save, restore */
    slotmask nu;                   /* update ports */
    slotmask nb, nb2;              /* branch-split slots; named by two update ports */
    slotmask ns, nm, nr;           /* memory split src + dst, merge dst + src, release */
    slotmask nms;                  /* merge src */
};

void simt_cfg_default(struct simt_cfg *c)
{
    c->nwarps = 48;
    c->policy = SIMT_TOKEN;
    c->depth = 16;                 /* Kepler: first spill at 17 entries (003, Section IV) */
    c->chunk = 4;                  /* 4 entries = 32 bytes per spill (003, Section IV) */
    c->entry_bytes = 8;            /* the 64-bit token: 32-bit mask, id, pc */
    c->pop_cycles = 0;
    c->fill_cycles = 0;
    c->sm_id = 0;
    c->spill_base = 0x180000000ull;
    c->spill_stride = 1024;        /* >= SIMT_MAX_SPILL * 8 bytes, 128-byte multiple */
    c->dws = 0;
}

int simt_cfg_check(const struct simt_cfg *c, char *err, size_t errlen)
{
    unsigned cb = (unsigned)c->chunk * c->entry_bytes;
    unsigned cmax = c->depth < SIMT_MAX_CHUNK ? c->depth : SIMT_MAX_CHUNK;
    if (c->nwarps < 1 || c->nwarps > SM_MAX_SLOTS)
        snprintf(err, errlen, "simt: nwarps %u out of range 1..%u", c->nwarps, SM_MAX_SLOTS);
    else if (c->policy >= SIMT_NPOLICY)
        snprintf(err, errlen, "simt: policy %u unknown (token, ipdom)", c->policy);
    else if (c->depth < 2 || c->depth > SIMT_MAX_DEPTH)
        snprintf(err, errlen, "simt: depth %u out of range 2..%u", c->depth, SIMT_MAX_DEPTH);
    else if (c->chunk < 2 || c->chunk > cmax)
        snprintf(err, errlen, "simt: chunk %u out of range 2..%u (depth, at most %u)", c->chunk,
                 cmax, SIMT_MAX_CHUNK);
    else if (c->entry_bytes < 1 || cb > MEM_LINE_BYTES || MEM_LINE_BYTES % cb)
        snprintf(err, errlen, "simt: chunk x entry_bytes = %u must divide the %u-byte line",
                 cb, MEM_LINE_BYTES);
    else if (c->spill_base % MEM_LINE_BYTES || c->spill_stride % MEM_LINE_BYTES)
        snprintf(err, errlen, "simt: spill_base and spill_stride must be %u-byte aligned",
                 MEM_LINE_BYTES);
    else if (c->spill_stride < (uint32_t)SIMT_MAX_SPILL * c->entry_bytes)
        snprintf(err, errlen, "simt: spill_stride %u < %u entries x %u bytes", c->spill_stride,
                 SIMT_MAX_SPILL, c->entry_bytes);
    else
        return 0;
    return -1;
}

const char *simt_policy_name(unsigned p)
{
    return p == SIMT_TOKEN ? "token" : p == SIMT_IPDOM ? "ipdom" : "?";
}

void simt_reset(const struct simt_cfg *c, struct simt_regs *r)
{
    memset(r, 0, sizeof *r);
    r->rr = (uint8_t)(c->nwarps - 1);  /* so that the first grant starts at warp 0 */
    for (unsigned w = 0; w < SM_MAX_SLOTS; w++)
        r->rpc[w] = SIMT_NO_PC;
}

static void error(struct ev *x, unsigned bit, unsigned w)
{
    x->out->err |= (uint16_t)bit;
    x->out->err_slot = (uint8_t)w;
}

static void start_timer(struct ev *x, unsigned w)
{
    if (x->c->pop_cycles) {
        x->d->timer[w] = x->c->pop_cycles;
        x->d->tmr |= slot_bit(w);
    }
}

static void finish(struct ev *x, unsigned w)
{
    struct simt_regs *d = x->d;
    slotmask b = slot_bit(w);
    d->mask[w] = 0;
    d->rpc[w] = SIMT_NO_PC;
    d->cnt[w] = 0;
    d->nspill[w] = 0;
    d->fin |= b;
    d->popq &= ~b;
}

/* DWS: a slot at its regime level does not pop; with no lane in its mask it parks at its
   rpc.  1 if w is at its regime level. */
static int park(struct ev *x, unsigned w)
{
    struct simt_regs *d = x->d;
    if (!simt_at_lvl(d, w))
        return 0;
    d->popq &= ~slot_bit(w);
    if (d->mask[w] == 0)
        d->pc[w] = d->rpc[w];
    return 1;
}

/* After a pop: is another pop due? (no live lane in the mask, or sitting at the rpc) */
static void settle(struct ev *x, unsigned w)
{
    struct simt_regs *d = x->d;
    slotmask b = slot_bit(w);
    if (park(x, w))
        return;
    if (d->mask[w] == 0 || d->pc[w] == d->rpc[w])
        d->popq |= b;
    else
        d->popq &= ~b;
}

/* Pop one entry into the warp's registers, or start a fill, or finish the warp. */
static void pop_one(struct ev *x, unsigned w)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    slotmask b = slot_bit(w);
    if (d->cnt[w]) {
        unsigned i = (d->base[w] + d->cnt[w] - 1u) % c->depth;
        const struct simt_ent *e = &d->stk[w][i];
        d->cnt[w]--;
        d->pc[w] = e->pc;
        d->rpc[w] = e->rpc;
        d->mask[w] = e->mask & d->alive[w];
        x->out->ev_pop++;
        x->popped |= b;
        start_timer(x, w);
        settle(x, w);
    } else if (d->nspill[w]) {
        d->flq |= b;                   /* fill first; the pop is done when it returns */
        d->popq |= b;
    } else if (d->mask[w] == 0) {
        finish(x, w);
    } else {                           /* pc == rpc with an empty stack: cannot happen */
        error(x, SIMT_E_STACK, w);
        d->rpc[w] = SIMT_NO_PC;
        d->popq &= ~b;
    }
}

/* Move the bottom chunk of warp w out (to the spill port of the update port applied) and
   request the write. */
static void spill(struct ev *x, unsigned w)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    struct simt_spill *sp = &x->out->spill[x->port];
    sp->v = 1;
    sp->vwi = d->vwi[w];
    sp->idx = d->nspill[w];
    for (unsigned k = 0; k < c->chunk; k++)
        sp->ent[k] = d->stk[w][(d->base[w] + k) % c->depth];
    d->base[w] = (uint8_t)((d->base[w] + c->chunk) % c->depth);
    d->cnt[w] = (uint8_t)(d->cnt[w] - c->chunk);
    d->nspill[w] = (uint8_t)(d->nspill[w] + c->chunk);
    d->spq |= slot_bit(w);
    x->out->ev_spill++;
}

/* Bring the top chunk in memory (fill_ent) back under the (empty) on-chip array. */
static void fill(struct ev *x, unsigned w, const struct simt_ent *ent)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    unsigned nb = (d->base[w] + c->depth - c->chunk) % c->depth;
    for (unsigned k = 0; k < c->chunk; k++)
        d->stk[w][(nb + k) % c->depth] = ent[k];
    d->base[w] = (uint8_t)nb;
    d->cnt[w] = (uint8_t)(d->cnt[w] + c->chunk);
    d->nspill[w] = (uint8_t)(d->nspill[w] - c->chunk);
    x->out->ev_fill++;
}

/* Will n more pushes fit? They need at most one spill (chunk >= 2). 0, or -1 on overflow. */
static int room_for(struct ev *x, unsigned w, unsigned n)
{
    const struct simt_regs *d = x->d;
    if (d->cnt[w] + n <= x->c->depth || (unsigned)d->nspill[w] + x->c->chunk <= SIMT_MAX_SPILL)
        return 0;
    error(x, SIMT_E_OVERFLOW, w);
    return -1;
}

/* A push that finds the on-chip array full spills its bottom chunk first. */
static void push(struct ev *x, unsigned w, uint32_t pc, uint32_t rpc, uint32_t mask,
                 unsigned type)
{
    struct simt_regs *d = x->d;
    if (d->cnt[w] == x->c->depth)
        spill(x, w);
    struct simt_ent *e = &d->stk[w][(d->base[w] + d->cnt[w]) % x->c->depth];
    e->pc = pc;
    e->rpc = rpc;
    e->mask = mask;
    e->type = (uint8_t)type;
    d->cnt[w]++;
    x->out->ev_push++;
}

static void note_depth(struct ev *x, unsigned depth)
{
    if (depth > x->out->ev_depth)
        x->out->ev_depth = (uint8_t)(depth > 255 ? 255 : depth);
}

/* pc moves to npc; pop when it reaches the rpc (not at a regime level: arrived there). */
static void move_to(struct ev *x, unsigned w, uint32_t npc)
{
    x->d->pc[w] = npc;
    if (npc == x->d->rpc[w] && !simt_at_lvl(x->d, w))
        pop_one(x, w);
}

static void divergent(struct ev *x, unsigned w, const struct simt_upd *u, uint32_t taken)
{
    struct simt_regs *d = x->d;
    uint32_t pc = d->pc[w], mask = d->mask[w], nt = mask & ~taken, r = u->reconv;
    unsigned psync = r != d->rpc[w];
    unsigned pdiv = x->c->policy == SIMT_TOKEN || pc + 1u != r;
    unsigned at_r = u->target == r;        /* taken lanes already at R: pop the DIV at once */
    if (r == SIMT_NO_PC) {
        error(x, SIMT_E_RECONV, w);
        return;
    }
    if (room_for(x, w, psync + (pdiv && !at_r)) < 0)
        return;
    if (psync)
        push(x, w, r, d->rpc[w], mask, SIMT_SYNC);
    note_depth(x, simt_depth(d, w) + pdiv);
    if (at_r) {                            /* push + pop of the DIV entry, net effect */
        x->out->ev_push++;
        x->out->ev_pop++;
        x->popped |= slot_bit(w);
        d->pc[w] = pc + 1u;
        d->mask[w] = nt;
        d->rpc[w] = r;
        start_timer(x, w);
        settle(x, w);
        return;
    }
    if (pdiv)
        push(x, w, pc + 1u, r, nt, SIMT_DIV);
    d->pc[w] = u->target;
    d->mask[w] = taken;
    d->rpc[w] = r;
}

/* Slot w as a reset leaves it (no warp); its ring keeps its (unreachable) entries. */
static void clear_slot(struct simt_regs *d, unsigned w)
{
    slotmask nb = ~slot_bit(w);
    d->pc[w] = d->mask[w] = d->alive[w] = 0;
    d->rpc[w] = SIMT_NO_PC;
    d->cnt[w] = d->base[w] = d->nspill[w] = d->timer[w] = d->vwi[w] = d->hdepth[w] = 0;
    d->hold &= nb;
    d->live &= nb;
    d->fin &= nb;
    d->spq &= nb;
    d->flq &= nb;
    d->flw &= nb;
    d->popq &= nb;
    d->tmr &= nb;
}

/* DWS: slot t (not live) becomes a split at pc with these lanes, s's rpc and image img:
   empty stack, at its regime level (hold, hdepth 0). */
static void new_split(struct ev *x, unsigned t, uint32_t pc, uint32_t lanes, uint32_t rpc,
                      unsigned img)
{
    struct simt_regs *d = x->d;
    slotmask b = slot_bit(t);
    clear_slot(d, t);
    d->pc[t] = pc;
    d->mask[t] = d->alive[t] = lanes;
    d->rpc[t] = rpc;
    d->vwi[t] = (uint8_t)img;
    d->live |= b;
    d->hold |= b;
    x->out->redirect |= b;
}

/* DWS: slot w gives lanes away: they leave its mask and alive; it enters the regime at its
   current depth if it was not in it. */
static void give_lanes(struct simt_regs *d, unsigned w, uint32_t lanes)
{
    d->mask[w] &= ~lanes;
    d->alive[w] &= ~lanes;
    if (!slot_has(d->hold, w)) {
        d->hold |= slot_bit(w);
        d->hdepth[w] = (uint8_t)(simt_depth(d, w) & 0x7fu);   /* [6:0] */
    }
}

/* DWS: may the update u of port slot w split into u->split_slot? (on q: w then has the
   same state in d when the update is applied) */
static int bsplit_ok(const struct ev *x, const struct simt_upd *u)
{
    const struct simt_regs *q = x->q;
    unsigned w = u->slot, t = u->split_slot;
    slotmask others = x->nx | x->nu | x->nb2 | x->ns | x->nm | x->nr;
    return t < x->c->nwarps && t != w && slot_has((~q->live | q->fin) & ~simt_working(q), t) &&
           !slot_has(others, t) && !slot_has(x->nx, w) && !simt_arrived(q, w) &&
           slot_has(q->live & ~q->fin & ~simt_working(q), w) &&
           (!slot_has(q->hold, w) || simt_at_lvl(q, w));
}

/* DWS branch split: w keeps the taken lanes at the target (no push), u->split_slot takes
   the not-taken ones at pc + 1. */
static void bsplit(struct ev *x, unsigned w, const struct simt_upd *u, uint32_t taken)
{
    struct simt_regs *d = x->d;
    uint32_t nt = d->mask[w] & ~taken;
    new_split(x, u->split_slot, d->pc[w] + 1u, nt, d->rpc[w], u->split_img);
    give_lanes(d, w, nt);
    d->pc[w] = u->target;
}

static void branch(struct ev *x, unsigned w, const struct simt_upd *u)
{
    uint32_t pc = x->d->pc[w], mask = x->d->mask[w], taken = u->taken & mask;
    if (u->split_v && x->c->dws && taken != 0 && taken != mask) {
        if (bsplit_ok(x, u)) {
            bsplit(x, w, u, taken);
            return;
        }
        error(x, SIMT_E_SPLIT, w);
    }
    if (taken == 0 || u->target == pc + 1u)
        move_to(x, w, pc + 1u);
    else if (taken == mask)
        move_to(x, w, u->target);
    else
        divergent(x, w, u, taken);
}

static void do_exit(struct ev *x, unsigned w, const struct simt_upd *u)
{
    struct simt_regs *d = x->d;
    uint32_t ex = u->exited & d->mask[w];
    d->alive[w] &= ~ex;
    d->mask[w] &= ~ex;
    if (d->alive[w] == 0 && !slot_has(d->hold, w))
        finish(x, w);
    else if (d->mask[w] == 0) {
        if (!park(x, w))
            pop_one(x, w);
    } else
        move_to(x, w, d->pc[w] + 1u);
}

static void do_update(struct ev *x, const struct simt_upd *u, slotmask *seen)
{
    const struct simt_regs *q = x->q;
    struct simt_regs *d = x->d;
    unsigned w = u->slot;
    if (w >= x->c->nwarps || slot_has(*seen, w)) {
        error(x, SIMT_E_SLOT, w >= x->c->nwarps ? 0 : w);
        return;
    }
    *seen |= slot_bit(w);
    if (!slot_has(d->live, w) || slot_has(d->fin | simt_working(d), w) || simt_arrived(d, w)) {
        error(x, SIMT_E_BUSY, w);
        return;
    }
    if (u->kind == SIMT_BRANCH)
        branch(x, w, u);
    else if (u->kind == SIMT_EXIT)
        do_exit(x, w, u);
    else
        move_to(x, w, d->pc[w] + 1u);
    if (d->pc[w] != q->pc[w] + 1u)
        x->out->redirect |= slot_bit(w);
}

/* Stage 0: read warp save_slot's registers (q) out and free the slot. */
static void do_save(struct ev *x, const struct simt_in *in)
{
    const struct simt_cfg *c = x->c;
    const struct simt_regs *q = x->q;
    struct simt_state *s = &x->out->saved;
    unsigned w = in->save_slot, ok = w < c->nwarps;
    if (ok)
        ok = slot_has(q->live & ~simt_working(q), w);
    for (unsigned i = 0; i < SIMT_UPD_PORTS; i++)
        ok = ok && !(in->upd[i].v && in->upd[i].slot == w);
    if (!ok) {
        error(x, SIMT_E_SAVE, w < c->nwarps ? w : 0);
        return;
    }
    x->out->saved_v = 1;
    s->pc = q->pc[w];
    s->mask = q->mask[w];
    s->rpc = q->rpc[w];
    s->alive = q->alive[w];
    s->vwi = q->vwi[w];
    s->fin = (uint8_t)slot_has(q->fin, w);
    s->cnt = q->cnt[w];
    s->nspill = q->nspill[w];
    s->hold = (uint8_t)slot_has(q->hold, w);
    s->hdepth = q->hdepth[w];
    memset(s->ent, 0, sizeof s->ent);
    for (unsigned k = 0; k < q->cnt[w]; k++)
        s->ent[k] = q->stk[w][(q->base[w] + k) % c->depth];
    clear_slot(x->d, w);
}

static void do_launch(struct ev *x, const struct simt_in *in)
{
    struct simt_regs *d = x->d;
    slotmask all = slot_first(x->c->nwarps), m;
    unsigned w;
    if (in->launch & ~all)
        error(x, SIMT_E_SLOT, 0);
    for (SLOT_EACH(w, in->launch & all, m)) {
        clear_slot(d, w);
        d->mask[w] = d->alive[w] = in->launch_mask[w];
        d->vwi[w] = in->launch_vwi[w];
        d->live |= slot_bit(w);
        if (!in->launch_mask[w])
            d->fin |= slot_bit(w);
        x->out->redirect |= slot_bit(w);
    }
}

/* Write a saved state into a slot that is free at the start of the cycle. */
static void do_restore(struct ev *x, const struct simt_in *in)
{
    const struct simt_cfg *c = x->c;
    const struct simt_state *s = &in->restore;
    struct simt_regs *d = x->d;
    unsigned w = in->restore_slot;
    slotmask b = slot_bit(w);
    if (w >= c->nwarps || slot_has(x->q->live & ~x->q->fin, w) || slot_has(in->launch, w) ||
        s->cnt > c->depth || s->nspill > SIMT_MAX_SPILL || s->nspill % c->chunk) {
        error(x, SIMT_E_RESTORE, w < c->nwarps ? w : 0);
        return;
    }
    clear_slot(d, w);
    d->pc[w] = s->pc;
    d->mask[w] = s->mask;
    d->rpc[w] = s->rpc;
    d->alive[w] = s->alive;
    d->vwi[w] = s->vwi;
    d->cnt[w] = s->cnt;
    d->nspill[w] = s->nspill;
    d->hdepth[w] = c->dws ? s->hdepth & 0x7fu : 0;
    memcpy(d->stk[w], s->ent, sizeof(struct simt_ent) * s->cnt);
    d->live |= b;
    if ((s->hold & 1u) && c->dws)
        d->hold |= b;
    if (s->fin & 1u)
        d->fin |= b;
    else if ((s->mask == 0 || s->pc == s->rpc) && !simt_at_lvl(d, w))
        d->popq |= b;
    x->out->redirect |= b;
}

static void do_fill_resp(struct ev *x, const struct simt_in *in)
{
    struct simt_regs *d = x->d;
    unsigned w = in->fill_slot;
    if (w >= x->c->nwarps || !slot_has(d->flw, w)) {
        error(x, SIMT_E_FILL, w >= x->c->nwarps ? 0 : w);
        return;
    }
    d->flw &= ~slot_bit(w);
    fill(x, w, in->fill_ent);
    pop_one(x, w);
    if (x->c->fill_cycles) {           /* the controller's cost of restoring a chunk */
        unsigned t = (unsigned)d->timer[w] + x->c->fill_cycles;
        d->timer[w] = (uint8_t)(t > 255 ? 255 : t);
        d->tmr |= slot_bit(w);
    }
    if (d->pc[w] != x->q->pc[w])
        x->out->redirect |= slot_bit(w);
}

static void do_timers(struct ev *x)
{
    struct simt_regs *d = x->d;
    slotmask m;
    unsigned w;
    for (SLOT_EACH(w, x->q->tmr & d->tmr, m))
        if (--d->timer[w] == 0)
            d->tmr &= ~slot_bit(w);
}

static void do_pending_pops(struct ev *x)
{
    struct simt_regs *d = x->d;
    slotmask m;
    unsigned w;
    for (SLOT_EACH(w, d->popq & ~d->tmr & ~d->flq & ~d->flw & ~x->popped, m)) {
        pop_one(x, w);
        if (d->pc[w] != x->q->pc[w])
            x->out->redirect |= slot_bit(w);
    }
}

/* DWS: the slots each port names (valid ports; the precondition checks read them). */
static void names(struct ev *x, const struct simt_in *in)
{
    x->nx = in->launch;
    if (in->save_v)
        x->nx |= slot_bit(in->save_slot);
    if (in->restore_v)
        x->nx |= slot_bit(in->restore_slot);
    for (unsigned i = 0; i < SIMT_UPD_PORTS; i++) {
        const struct simt_upd *u = &in->upd[i];
        if (!u->v)
            continue;
        x->nu |= slot_bit(u->slot);
        if (u->kind == SIMT_BRANCH && u->split_v) {
            x->nb2 |= x->nb & slot_bit(u->split_slot);
            x->nb |= slot_bit(u->split_slot);
        }
    }
    if (in->split.v)
        x->ns = slot_bit(in->split.src) | slot_bit(in->split.dst);
    if (in->merge.v) {
        x->nms = slot_bit(in->merge.src);
        x->nm = slot_bit(in->merge.dst) | x->nms;
    }
    if (in->rel.v)
        x->nr = slot_bit(in->rel.slot);
}

/* DWS memory split: lanes of src run ahead in dst at src's pc (all read on q: src is not
   busy and takes no update). */
static void do_msplit(struct ev *x, const struct simt_msplit *p)
{
    const struct simt_regs *q = x->q;
    unsigned s = p->src, t = p->dst, nw = x->c->nwarps;
    slotmask others = x->nx | x->nu | x->nb | x->nm | x->nr;
    if (s >= nw || t >= nw || s == t || !slot_has(q->live & ~q->fin & ~simt_working(q), s) ||
        (slot_has(q->hold, s) && !simt_at_lvl(q, s)) || p->lanes == 0 ||
        (p->lanes & ~q->mask[s]) || p->lanes == q->mask[s] ||
        !slot_has((~q->live | q->fin) & ~simt_working(q), t) ||
        ((slot_bit(s) | slot_bit(t)) & others)) {
        error(x, SIMT_E_SPLIT, s < nw ? s : 0);
        return;
    }
    new_split(x, t, q->pc[s], p->lanes, q->rpc[s], p->img);
    give_lanes(x->d, s, p->lanes);
}

/* DWS merge: src's lanes join dst (both at their regime level, idle, at the same pc or one
   without lanes: an empty dst takes src's pc); src is freed. */
static void do_merge(struct ev *x, const struct simt_merge *p)
{
    const struct simt_regs *q = x->q;
    struct simt_regs *d = x->d;
    unsigned s = p->src, t = p->dst, nw = x->c->nwarps;
    slotmask ok = q->live & ~q->fin & ~simt_working(q) & q->hold;
    slotmask others = x->nx | x->nu | x->nb | x->ns;
    if (s >= nw || t >= nw || s == t || !slot_has(ok, s) || !slot_has(ok, t) ||
        !simt_at_lvl(q, s) || !simt_at_lvl(q, t) || simt_depth(q, s) != 0 ||
        (q->pc[s] != q->pc[t] && q->mask[s] != 0 && q->mask[t] != 0) ||
        ((slot_bit(s) | slot_bit(t)) & others) || slot_has(x->nr, s)) {
        error(x, SIMT_E_MERGE, t < nw ? t : 0);
        return;
    }
    if (q->mask[t] == 0)
        d->pc[t] = q->pc[s];
    d->mask[t] |= q->mask[s];
    d->alive[t] |= q->alive[s];
    clear_slot(d, s);
    if (d->pc[t] != q->pc[t])
        x->out->redirect |= slot_bit(t);
}

/* DWS release (after a merge into it): the slot leaves the regime; at its regime level it
   goes on as any warp: finished without a live lane, else a pop due at pc == rpc or with an
   empty mask. */
static void do_rel(struct ev *x, const struct simt_rel *p)
{
    const struct simt_regs *q = x->q;
    struct simt_regs *d = x->d;
    unsigned w = p->slot;
    slotmask b = slot_bit(w);
    if (w >= x->c->nwarps || !slot_has(q->live & ~q->fin & q->hold, w) ||
        (b & (x->nx | x->nu | x->nb | x->ns | x->nms))) {
        error(x, SIMT_E_REL, w < x->c->nwarps ? w : 0);
        return;
    }
    int lv = simt_at_lvl(d, w);
    d->hold &= ~b;
    d->hdepth[w] = 0;
    if (!lv)
        return;
    if (d->alive[w] == 0)
        finish(x, w);
    else if (d->mask[w] == 0 || d->pc[w] == d->rpc[w])
        d->popq |= b;
}

/* One memory request per cycle: round robin over warps with a spill or fill to send. */
static void do_request(struct ev *x, const struct simt_in *in)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    struct mem_req *r = &x->out->req;
    slotmask cand = d->spq | d->flq;
    x->out->req_v = 0;
    if (!cand)
        return;
    unsigned s = (x->q->rr + 1u) % SM_MAX_SLOTS;
    slotmask hi = cand & ~slot_first(s);
    unsigned w = slot_ctz(hi ? hi : cand);
    slotmask b = slot_bit(w);
    int is_spill = (d->spq & b) != 0;
    uint64_t a = simt_image_addr(c, d->vwi[w], (unsigned)d->nspill[w] - c->chunk);
    memset(r, 0, sizeof *r);
    r->addr = a & ~(uint64_t)(MEM_LINE_BYTES - 1u);
    r->bytes = (uint32_t)c->chunk * c->entry_bytes;
    r->kind = is_spill ? MK_SPILL : MK_FILL;
    r->sm = c->sm_id;
    r->warp = (uint8_t)w;
    r->tag = (uint32_t)(a & (MEM_LINE_BYTES - 1u));   /* byte offset of the chunk in the line */
    x->out->req_v = 1;
    if (!in->req_ready)
        return;
    d->rr = (uint8_t)w;
    if (is_spill) {
        d->spq &= ~b;
    } else {
        d->flq &= ~b;
        d->flw |= b;
    }
}

/* DWS: lvl and arr on the next state. */
static void regime_out(const struct simt_regs *d, struct simt_out *out)
{
    slotmask m;
    unsigned w;
    out->lvl = out->arr = 0;
    for (SLOT_EACH(w, d->hold & d->live & ~d->fin, m)) {
        if (!simt_at_lvl(d, w))
            continue;
        out->lvl |= slot_bit(w);
        if (d->pc[w] == d->rpc[w] || d->mask[w] == 0)
            out->arr |= slot_bit(w);
    }
}

void simt_eval(const struct simt_cfg *c, const struct simt_regs *q, const struct simt_in *in,
               struct simt_out *out, struct simt_regs *d)
{
    struct ev x = {c, q, d, out, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    slotmask seen = 0;
    int dws = in->split.v | in->merge.v | in->rel.v;
    out->redirect = 0;
    out->ev_push = out->ev_pop = out->ev_spill = out->ev_fill = out->ev_depth = 0;
    out->err = 0;
    out->err_slot = 0;
    out->saved_v = 0;
    for (unsigned i = 0; i < SIMT_UPD_PORTS; i++) {
        out->spill[i].v = 0;
        dws |= in->upd[i].v & in->upd[i].split_v;
    }
    dws = dws && c->dws;           /* without DWS the DWS inputs are not looked at */
    if (dws)
        names(&x, in);
    if (in->save_v)
        do_save(&x, in);
    if (in->launch)
        do_launch(&x, in);
    if (in->restore_v)
        do_restore(&x, in);
    if (in->fill_v)
        do_fill_resp(&x, in);
    if (d->tmr)
        do_timers(&x);
    if (d->popq)
        do_pending_pops(&x);
    for (unsigned i = 0; i < SIMT_UPD_PORTS; i++)
        if (in->upd[i].v) {
            x.port = i;
            do_update(&x, &in->upd[i], &seen);
        }
    if (dws && in->split.v)
        do_msplit(&x, &in->split);
    if (dws && in->merge.v)
        do_merge(&x, &in->merge);
    if (dws && in->rel.v)
        do_rel(&x, &in->rel);
    do_request(&x, in);
    memcpy(out->pc, d->pc, sizeof(uint32_t) * c->nwarps);
    memcpy(out->mask, d->mask, sizeof(uint32_t) * c->nwarps);
    regime_out(d, out);
    out->busy = simt_working(d) | out->arr;
    out->fin = d->fin;
}

int simt_still(const struct simt_cfg *c, const struct simt_regs *q, const struct simt_in *in)
{
    for (unsigned i = 0; i < SIMT_UPD_PORTS; i++)
        if (in->upd[i].v)
            return 0;
    if (in->launch || in->save_v || in->restore_v || in->fill_v)
        return 0;
    if (c->dws && (in->split.v | in->merge.v | in->rel.v))
        return 0;
    return !(q->tmr | q->popq | q->spq | q->flq);
}

/* Warps whose cnt, base or nspill differ between a and b (8 slots per 64-bit compare), or
   whose live or fin bit does (a restore). */
static slotmask moved(const struct simt_regs *a, const struct simt_regs *b, unsigned n)
{
    slotmask m = (a->live ^ b->live) | (a->fin ^ b->fin);
    for (unsigned g = 0; g < n; g += 8) {
        uint64_t ca, cb, ba, bb, sa, sb;
        memcpy(&ca, &a->cnt[g], 8);
        memcpy(&cb, &b->cnt[g], 8);
        memcpy(&ba, &a->base[g], 8);
        memcpy(&bb, &b->base[g], 8);
        memcpy(&sa, &a->nspill[g], 8);
        memcpy(&sb, &b->nspill[g], 8);
        if (ca == cb && ba == bb && sa == sb)
            continue;
        for (unsigned w = g; w < g + 8 && w < n; w++)
            if (a->cnt[w] != b->cnt[w] || a->base[w] != b->base[w] ||
                a->nspill[w] != b->nspill[w])
                m |= slot_bit(w);
    }
    return m;
}

void simt_commit(const struct simt_cfg *c, struct simt_regs *q, const struct simt_regs *d)
{
    slotmask m, t;
    unsigned w, n = c->nwarps;
    m = moved(q, d, c->nwarps);
    for (SLOT_EACH(w, m, t))
        memcpy(q->stk[w], d->stk[w], sizeof(struct simt_ent) * c->depth);
    /* every per-warp register of the nwarps slots in use, and the flags */
    memcpy(q->pc, d->pc, n * sizeof q->pc[0]);
    memcpy(q->mask, d->mask, n * sizeof q->mask[0]);
    memcpy(q->rpc, d->rpc, n * sizeof q->rpc[0]);
    memcpy(q->alive, d->alive, n * sizeof q->alive[0]);
    memcpy(q->cnt, d->cnt, n);
    memcpy(q->base, d->base, n);
    memcpy(q->nspill, d->nspill, n);
    memcpy(q->timer, d->timer, n);
    memcpy(q->vwi, d->vwi, n);
    memcpy(q->hdepth, d->hdepth, n);
    memcpy(&q->live, &d->live, offsetof(struct simt_regs, stk) - offsetof(struct simt_regs, live));
}

/* ---------------------------------------------------------------- the memory side */

uint64_t simt_image_addr(const struct simt_cfg *c, unsigned vwi, unsigned idx)
{
    return c->spill_base + (uint64_t)vwi * c->spill_stride + (uint64_t)idx * c->entry_bytes;
}

int simt_image_locate(const struct simt_cfg *c, uint64_t addr, unsigned nctx, unsigned *vwi,
                      unsigned *idx)
{
    uint64_t off = addr - c->spill_base, v = off / c->spill_stride, r = off % c->spill_stride;
    if (addr < c->spill_base || v >= nctx || r % c->entry_bytes ||
        r / c->entry_bytes >= SIMT_MAX_SPILL)
        return -1;
    *vwi = (unsigned)v;
    *idx = (unsigned)(r / c->entry_bytes);
    return 0;
}

unsigned simt_image_write(const struct simt_cfg *c, const struct simt_out *out,
                          struct simt_image *img, unsigned nctx)
{
    unsigned dropped = 0;
    for (unsigned i = 0; i < SIMT_UPD_PORTS; i++) {
        const struct simt_spill *sp = &out->spill[i];
        if (!sp->v)
            continue;
        if (sp->vwi >= nctx || sp->idx + c->chunk > SIMT_MAX_SPILL) {
            dropped++;
            continue;
        }
        memcpy(&img[sp->vwi].e[sp->idx], sp->ent, sizeof(struct simt_ent) * c->chunk);
    }
    return dropped;
}

int simt_image_read(const struct simt_cfg *c, const struct simt_image *img, unsigned nctx,
                    const struct mem_req *r, struct simt_ent *ent)
{
    unsigned v, i;
    if (simt_image_locate(c, r->addr + r->tag, nctx, &v, &i) || i + c->chunk > SIMT_MAX_SPILL) {
        memset(ent, 0, sizeof(struct simt_ent) * c->chunk);
        return -1;
    }
    memcpy(ent, &img[v].e[i], sizeof(struct simt_ent) * c->chunk);
    return 0;
}

/* Registry entry points (model/base/blocks.def). */
uint32_t simt_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void simt_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t i, struct simt_cfg *out)
{
    (void)i;
    simt_cfg_default(out);
    out->nwarps = (uint8_t)sm_slots(c);
    out->policy = (uint8_t)(c->simt_policy == SIMTP_TOKEN ? SIMT_TOKEN : SIMT_IPDOM);
    out->depth = (uint8_t)c->simt_depth;
    out->chunk = (uint8_t)c->simt_chunk;
    out->entry_bytes = (uint8_t)c->simt_entry_bytes;
    out->pop_cycles = (uint8_t)c->simt_pop_cycles;
    out->fill_cycles = (uint8_t)c->simt_fill_cycles;
    out->sm_id = (uint8_t)sm;
    out->spill_base = sm_spill_base(sm);
    out->dws = c->dws != DWS_OFF;
}

void simt_rtl_params(const struct simt_cfg *c, FILE *f)
{
    fprintf(f, "localparam SIMT_DWS = %u;\n", c->dws);
    fprintf(f, "localparam SIMT_NWARPS = %u;\nlocalparam SIMT_POLICY = %u;\nlocalparam SIMT_DEPTH = %u;\n"
            "localparam SIMT_CHUNK = %u;\nlocalparam SIMT_ENTRY_BYTES = %u;\n"
            "localparam SIMT_POP_CYCLES = %u;\nlocalparam SIMT_FILL_CYCLES = %u;\n"
            "localparam SIMT_SM_ID = %u;\nlocalparam [63:0] SIMT_SPILL_BASE = 64'h%016llx;\n"
            "localparam SIMT_SPILL_STRIDE = %u;\n",
            c->nwarps, c->policy, c->depth, c->chunk, c->entry_bytes, c->pop_cycles,
            c->fill_cycles, c->sm_id, (unsigned long long)c->spill_base, c->spill_stride);
}

/* Storage for the cost estimator (cost.h). Per warp slot: pc, mask, rpc, alive, the context's
   VWI, the stack pointers and flags; the pop timers only when pop_cycles or fill_cycles make
   them count; the on-chip stack array: depth entries of 97 bits per warp (pc 32 + rpc 32 +
   mask 32 + type 1: the type goes to memory with a spill and out with a save), one small
   array per warp (read at the top, at the spill chunk and by a save; written by a push, a
   fill and a restore). The spill image is global memory, the SM's, not the block's. */
/* DWS (002, slide "Implementation: DWS upon branch divergence"): per slot the regime flag
   and the depth of its regime level, where the slot stops at the reconvergence pc. */
static void simt_storage_dws(const struct simt_cfg *c, struct cost_list *l)
{
    const char *dws = "DWS (002)";
    uint64_t w = c->nwarps;
    cost_add(l, (struct cost_item){.name = "hold", .mech = dws, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "the slot is in the split regime"});
    cost_add(l, (struct cost_item){.name = "hdepth", .mech = dws, .entries = w, .bits = 7,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "[6:0] stack depth of its regime level"});
}

void simt_storage(const struct simt_cfg *c, struct cost_list *l)
{
    const char *pcm = "warp pc/active mask", *stk = "SIMT reconvergence stack",
               *spl = "SIMT stack spill/fill";
    uint64_t w = c->nwarps;
    int timers = c->pop_cycles || c->fill_cycles;
    cost_begin(l, "simt");
    cost_add(l, (struct cost_item){.name = "pc", .mech = pcm, .entries = w, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1, .note = "[31:0]"});
    cost_add(l, (struct cost_item){.name = "mask", .mech = pcm, .entries = w, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1, .note = "[31:0]"});
    cost_add(l, (struct cost_item){.name = "alive", .mech = pcm, .entries = w, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1, .note = "[31:0]"});
    cost_add(l, (struct cost_item){.name = "live", .mech = pcm, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "fin", .mech = pcm, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rpc", .mech = stk, .entries = w, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1, .note = "[31:0]"});
    cost_add(l, (struct cost_item){.name = "cnt", .mech = stk, .entries = w, .bits = 6,
                                   .rports = COST_PAR, .onchip = 1, .note = "[5:0]"});
    cost_add(l, (struct cost_item){.name = "popq", .mech = stk, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    if (timers) {
        cost_add(l, (struct cost_item){.name = "timer", .mech = stk, .entries = w, .bits = 8,
                                       .rports = COST_PAR, .onchip = 1, .note = "[7:0]"});
        cost_add(l, (struct cost_item){.name = "tmr", .mech = stk, .entries = w, .bits = 1,
                                       .rports = COST_PAR, .onchip = 1});
    }
    cost_add(l, (struct cost_item){.name = "stk", .mech = stk, .entries = w * c->depth,
                                   .bits = 32 + 32 + 32 + 1, .banks = (uint32_t)w, .rports = 2,
                                   .wports = 2, .onchip = 1,
                                   .note = "pc 32 + rpc 32 + mask 32 + type 1"});
    cost_add(l, (struct cost_item){.name = "base", .mech = spl, .entries = w, .bits = 5,
                                   .rports = COST_PAR, .onchip = 1, .note = "[4:0]"});
    cost_add(l, (struct cost_item){.name = "nspill", .mech = spl, .entries = w, .bits = 7,
                                   .rports = COST_PAR, .onchip = 1, .note = "[6:0]"});
    cost_add(l, (struct cost_item){.name = "vwi", .mech = spl, .entries = w, .bits = 8,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "[7:0] the context's VWI: its spill image"});
    cost_add(l, (struct cost_item){.name = "spq", .mech = spl, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "flq", .mech = spl, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "flw", .mech = spl, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rr", .mech = spl, .entries = 1,
                                   .bits = cost_clog2(w), .rports = COST_PAR, .onchip = 1,
                                   .note = "[6:0], a slot < nwarps"});
    if (c->dws)
        simt_storage_dws(c, l);
}
