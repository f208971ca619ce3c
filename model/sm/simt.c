/*
 * simt.c -- SIMT reconvergence stack (token / IPDOM policies) with spill and fill
 * (see simt.h for the semantics, docs/simt.md for ports, registers and timing).
 *
 * eval order (d == q on entry; d is the next state under construction):
 *   1. launches (reset the slot), 2. the fill response (install the chunk, do the pending
 *   pop), 3. pop timers, 4. pending pops, 5. the update ports, 6. the memory request,
 *   7. outputs from d.
 * A warp is touched by at most one of 2/4/5 per cycle (busy warps take no update), so each
 * warp pops at most once per cycle.
 */
#include <stdio.h>
#include <string.h>
#include "simt.h"
#include "base/cost.h"

struct ctx {                       /* eval's working set (locals only, no state) */
    const struct simt_cfg *c;
    const struct simt_regs *q;
    struct simt_regs *d;
    struct simt_out *out;
    uint64_t popped;               /* warps that popped this cycle */
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
}

int simt_cfg_check(const struct simt_cfg *c, char *err, size_t errlen)
{
    unsigned cb = (unsigned)c->chunk * c->entry_bytes;
    if (c->nwarps < 1 || c->nwarps > SIMT_MAX_WARPS)
        snprintf(err, errlen, "simt: nwarps %u out of range 1..%u", c->nwarps, SIMT_MAX_WARPS);
    else if (c->policy >= SIMT_NPOLICY)
        snprintf(err, errlen, "simt: policy %u unknown (token, ipdom)", c->policy);
    else if (c->depth < 2 || c->depth > SIMT_MAX_DEPTH)
        snprintf(err, errlen, "simt: depth %u out of range 2..%u", c->depth, SIMT_MAX_DEPTH);
    else if (c->chunk < 2 || c->chunk > c->depth)
        snprintf(err, errlen, "simt: chunk %u out of range 2..depth (%u)", c->chunk, c->depth);
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
    (void)c;
    memset(r, 0, sizeof *r);
    r->rr = 63;                    /* so that the first grant starts at warp 0 */
    for (unsigned w = 0; w < SIMT_MAX_WARPS; w++)
        r->rpc[w] = SIMT_NO_PC;
}

static void error(struct ctx *x, unsigned bit, unsigned w)
{
    x->out->err |= (uint8_t)bit;
    x->out->err_slot = (uint8_t)w;
}

static void start_timer(struct ctx *x, unsigned w)
{
    if (x->c->pop_cycles) {
        x->d->timer[w] = x->c->pop_cycles;
        x->d->tmr |= 1ull << w;
    }
}

static void finish(struct ctx *x, unsigned w)
{
    struct simt_regs *d = x->d;
    uint64_t b = 1ull << w;
    d->mask[w] = 0;
    d->rpc[w] = SIMT_NO_PC;
    d->cnt[w] = 0;
    d->nspill[w] = 0;
    d->fin |= b;
    d->popq &= ~b;
}

/* After a pop: is another pop due? (no live lane in the mask, or sitting at the rpc) */
static void settle(struct ctx *x, unsigned w)
{
    struct simt_regs *d = x->d;
    uint64_t b = 1ull << w;
    if (d->mask[w] == 0 || d->pc[w] == d->rpc[w])
        d->popq |= b;
    else
        d->popq &= ~b;
}

/* Pop one entry into the warp's registers, or start a fill, or finish the warp. */
static void pop_one(struct ctx *x, unsigned w)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    uint64_t b = 1ull << w;
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

/* Move the bottom chunk of warp w to the memory image and request the write. */
static void spill(struct ctx *x, unsigned w)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    for (unsigned k = 0; k < c->chunk; k++)
        d->mem[w][d->nspill[w] + k] = d->stk[w][(d->base[w] + k) % c->depth];
    d->base[w] = (uint8_t)((d->base[w] + c->chunk) % c->depth);
    d->cnt[w] = (uint8_t)(d->cnt[w] - c->chunk);
    d->nspill[w] = (uint8_t)(d->nspill[w] + c->chunk);
    d->spq |= 1ull << w;
    x->out->ev_spill++;
}

/* Bring the top chunk in memory back under the (empty) on-chip array. */
static void fill(struct ctx *x, unsigned w)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    unsigned nb = (d->base[w] + c->depth - c->chunk) % c->depth;
    unsigned from = d->nspill[w] - c->chunk;
    for (unsigned k = 0; k < c->chunk; k++)
        d->stk[w][(nb + k) % c->depth] = d->mem[w][from + k];
    d->base[w] = (uint8_t)nb;
    d->cnt[w] = (uint8_t)(d->cnt[w] + c->chunk);
    d->nspill[w] = (uint8_t)from;
    x->out->ev_fill++;
}

/* Will n more pushes fit? They need at most one spill (chunk >= 2). 0, or -1 on overflow. */
static int room_for(struct ctx *x, unsigned w, unsigned n)
{
    const struct simt_regs *d = x->d;
    if (d->cnt[w] + n <= x->c->depth || (unsigned)d->nspill[w] + x->c->chunk <= SIMT_MAX_SPILL)
        return 0;
    error(x, SIMT_E_OVERFLOW, w);
    return -1;
}

/* A push that finds the on-chip array full spills its bottom chunk first. */
static void push(struct ctx *x, unsigned w, uint32_t pc, uint32_t rpc, uint32_t mask,
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

static void note_depth(struct ctx *x, unsigned depth)
{
    if (depth > x->out->ev_depth)
        x->out->ev_depth = (uint8_t)(depth > 255 ? 255 : depth);
}

/* pc moves to npc; pop when it reaches the rpc. */
static void move_to(struct ctx *x, unsigned w, uint32_t npc)
{
    x->d->pc[w] = npc;
    if (npc == x->d->rpc[w])
        pop_one(x, w);
}

static void divergent(struct ctx *x, unsigned w, const struct simt_upd *u, uint32_t taken)
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
        x->popped |= 1ull << w;
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

static void branch(struct ctx *x, unsigned w, const struct simt_upd *u)
{
    uint32_t pc = x->d->pc[w], mask = x->d->mask[w], taken = u->taken & mask;
    if (taken == 0 || u->target == pc + 1u)
        move_to(x, w, pc + 1u);
    else if (taken == mask)
        move_to(x, w, u->target);
    else
        divergent(x, w, u, taken);
}

static void do_exit(struct ctx *x, unsigned w, const struct simt_upd *u)
{
    struct simt_regs *d = x->d;
    uint32_t ex = u->exited & d->mask[w];
    d->alive[w] &= ~ex;
    d->mask[w] &= ~ex;
    if (d->alive[w] == 0)
        finish(x, w);
    else if (d->mask[w] == 0)
        pop_one(x, w);
    else
        move_to(x, w, d->pc[w] + 1u);
}

static uint64_t busy_mask(const struct simt_regs *d)
{
    return d->spq | d->flq | d->flw | d->popq | d->tmr;
}

static void do_update(struct ctx *x, const struct simt_upd *u, uint64_t *seen)
{
    const struct simt_regs *q = x->q;
    struct simt_regs *d = x->d;
    unsigned w = u->slot;
    if (w >= x->c->nwarps || (*seen >> w & 1u)) {
        error(x, SIMT_E_SLOT, w >= x->c->nwarps ? 0 : w);
        return;
    }
    *seen |= 1ull << w;
    if (!(d->live >> w & 1u) || ((d->fin | busy_mask(d)) >> w & 1u)) {
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
        x->out->redirect |= 1ull << w;
}

static void do_launch(struct ctx *x, const struct simt_in *in)
{
    struct simt_regs *d = x->d;
    uint64_t all = x->c->nwarps >= 64 ? ~0ull : ((1ull << x->c->nwarps) - 1ull);
    if (in->launch & ~all)
        error(x, SIMT_E_SLOT, 0);
    for (uint64_t m = in->launch & all; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        uint64_t b = 1ull << w;
        d->pc[w] = 0;
        d->mask[w] = d->alive[w] = in->launch_mask[w];
        d->rpc[w] = SIMT_NO_PC;
        d->cnt[w] = d->base[w] = d->nspill[w] = d->timer[w] = 0;
        d->live |= b;
        d->spq &= ~b;
        d->flq &= ~b;
        d->flw &= ~b;
        d->popq &= ~b;
        d->tmr &= ~b;
        if (in->launch_mask[w])
            d->fin &= ~b;
        else
            d->fin |= b;
        x->out->redirect |= b;
    }
}

static void do_fill_resp(struct ctx *x, const struct simt_in *in)
{
    struct simt_regs *d = x->d;
    unsigned w = in->fill_slot;
    if (w >= x->c->nwarps || !(d->flw >> w & 1u)) {
        error(x, SIMT_E_FILL, w >= x->c->nwarps ? 0 : w);
        return;
    }
    d->flw &= ~(1ull << w);
    fill(x, w);
    pop_one(x, w);
    if (x->c->fill_cycles) {           /* the controller's cost of restoring a chunk */
        unsigned t = (unsigned)d->timer[w] + x->c->fill_cycles;
        d->timer[w] = (uint8_t)(t > 255 ? 255 : t);
        d->tmr |= 1ull << w;
    }
    if (d->pc[w] != x->q->pc[w])
        x->out->redirect |= 1ull << w;
}

static void do_timers(struct ctx *x)
{
    struct simt_regs *d = x->d;
    for (uint64_t m = x->q->tmr & d->tmr; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        if (--d->timer[w] == 0)
            d->tmr &= ~(1ull << w);
    }
}

static void do_pending_pops(struct ctx *x)
{
    struct simt_regs *d = x->d;
    uint64_t m = d->popq & ~d->tmr & ~d->flq & ~d->flw & ~x->popped;
    for (; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        pop_one(x, w);
        if (d->pc[w] != x->q->pc[w])
            x->out->redirect |= 1ull << w;
    }
}

/* One memory request per cycle: round robin over warps with a spill or fill to send. */
static void do_request(struct ctx *x, const struct simt_in *in)
{
    const struct simt_cfg *c = x->c;
    struct simt_regs *d = x->d;
    struct mem_req *r = &x->out->req;
    uint64_t cand = d->spq | d->flq;
    x->out->req_v = 0;
    if (!cand)
        return;
    unsigned s = (x->q->rr + 1u) & 63u;
    uint64_t hi = s ? cand & ~((1ull << s) - 1ull) : cand;
    unsigned w = (unsigned)__builtin_ctzll(hi ? hi : cand);
    uint64_t b = 1ull << w;
    int is_spill = (d->spq & b) != 0;
    uint64_t off = (uint64_t)(d->nspill[w] - c->chunk) * c->entry_bytes;
    uint64_t a = c->spill_base + (uint64_t)w * c->spill_stride + off;
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

void simt_eval(const struct simt_cfg *c, const struct simt_regs *q, const struct simt_in *in,
               struct simt_out *out, struct simt_regs *d)
{
    struct ctx x = {c, q, d, out, 0};
    uint64_t seen = 0;
    out->redirect = 0;
    out->ev_push = out->ev_pop = out->ev_spill = out->ev_fill = out->ev_depth = 0;
    out->err = 0;
    out->err_slot = 0;
    if (in->launch)
        do_launch(&x, in);
    if (in->fill_v)
        do_fill_resp(&x, in);
    if (d->tmr)
        do_timers(&x);
    if (d->popq)
        do_pending_pops(&x);
    for (unsigned i = 0; i < SIMT_UPD_PORTS; i++)
        if (in->upd[i].v)
            do_update(&x, &in->upd[i], &seen);
    do_request(&x, in);
    memcpy(out->pc, d->pc, sizeof(uint32_t) * c->nwarps);
    memcpy(out->mask, d->mask, sizeof(uint32_t) * c->nwarps);
    out->busy = busy_mask(d);
    out->fin = d->fin;
}

/* Warps whose cnt, base or nspill differ between a and b (8 slots per 64-bit compare). */
static uint64_t moved(const struct simt_regs *a, const struct simt_regs *b, unsigned n)
{
    uint64_t m = 0;
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
                m |= 1ull << w;
    }
    return m;
}

void simt_commit(const struct simt_cfg *c, struct simt_regs *q, const struct simt_regs *d)
{
    uint64_t m = moved(q, d, c->nwarps);
    for (; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        memcpy(q->stk[w], d->stk[w], sizeof(struct simt_ent) * c->depth);
        if (d->nspill[w] > q->nspill[w])
            memcpy(&q->mem[w][q->nspill[w]], &d->mem[w][q->nspill[w]],
                   sizeof(struct simt_ent) * (size_t)(d->nspill[w] - q->nspill[w]));
    }
    /* every per-warp register and flag: everything before the arrays */
    memcpy(q, d, offsetof(struct simt_regs, stk));
}

/* Storage for the cost estimator (cost.h). Per warp slot: pc, mask, rpc, alive, the stack
   pointers and flags; the pop timers only when pop_cycles or fill_cycles make them count;
   the on-chip stack array: depth entries of 96 bits per warp (pc 32 + rpc 32 + mask 32; an
   entry's type is written but never read, so it is not storage the block needs), one small
   array per warp (read at the top and at the spill chunk, written by a push and by a fill).
   The memory image mem[] is global memory, listed as not on chip, in its memory format
   (entry_bytes per entry). */
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
                                   .bits = 32 + 32 + 32, .banks = (uint32_t)w, .rports = 2,
                                   .wports = 2, .onchip = 1,
                                   .note = "pc 32 + rpc 32 + mask 32 (type: never read)"});
    cost_add(l, (struct cost_item){.name = "base", .mech = spl, .entries = w, .bits = 5,
                                   .rports = COST_PAR, .onchip = 1, .note = "[4:0]"});
    cost_add(l, (struct cost_item){.name = "nspill", .mech = spl, .entries = w, .bits = 7,
                                   .rports = COST_PAR, .onchip = 1, .note = "[6:0]"});
    cost_add(l, (struct cost_item){.name = "spq", .mech = spl, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "flq", .mech = spl, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "flw", .mech = spl, .entries = w, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rr", .mech = spl, .entries = 1, .bits = 6,
                                   .rports = COST_PAR, .onchip = 1, .note = "[5:0]"});
    cost_add(l, (struct cost_item){.name = "mem", .mech = spl, .entries = w * SIMT_MAX_SPILL,
                                   .bits = 8u * c->entry_bytes, .onchip = 0,
                                   .note = "spill image in global memory (not on chip)"});
}
