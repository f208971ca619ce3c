/*
 * sb.c -- scoreboard with VWI tags: set-VWI, DWS copy / merge, release, reserve, check (see
 * sb.h, docs/sb.md).
 *
 * eval builds the next state in d (a separate copy of q on entry) port by port in the
 * documented order and answers the check and count ports from that next state, mok and any
 * from q.  Cost per cycle: the active ports, per checked slot at most SB_MAX_CHK bit tests,
 * and, when cfg.dws, one OR per word of each row in use (any).
 */
#include <stdio.h>
#include <string.h>
#include "sb.h"
#include "sm_limits.h"
#include "base/config.h"
#include "base/cost.h"

void sb_cfg_default(struct sb_cfg *c)
{
    c->nslots = 48;
    c->nregs = SB_MAX_REGS;
    c->dws = 0;
}

int sb_cfg_check(const struct sb_cfg *c, char *err, size_t errlen)
{
    if (c->nslots < 1 || c->nslots > SM_MAX_SLOTS) {
        snprintf(err, errlen, "sb: nslots %u out of range 1..%u", c->nslots, SM_MAX_SLOTS);
        return -1;
    }
    if (c->nregs < 1 || c->nregs > SB_MAX_REGS || (c->nregs & (c->nregs - 1u))) {
        snprintf(err, errlen, "sb: nregs %u must be a power of two in 1..%u", c->nregs,
                 SB_MAX_REGS);
        return -1;
    }
    if (c->dws > 1) {
        snprintf(err, errlen, "sb: dws %u must be 0 or 1", c->dws);
        return -1;
    }
    return 0;
}

void sb_reset(const struct sb_cfg *c, struct sb_regs *r)
{
    (void)c;
    for (unsigned s = 0; s < SM_MAX_SLOTS; s++) {
        for (unsigned w = 0; w < SB_WORDS; w++)
            r->pend[s][w] = 0;
        r->vwi[s] = (uint8_t)s;
    }
}

static inline unsigned fold(const struct sb_cfg *c, unsigned reg)
{
    return reg & (c->nregs - 1u);
}

static void do_setvwi(const struct sb_cfg *c, const struct sb_in *in, struct sb_regs *d,
                      struct sb_out *out)
{
    slotmask all = slot_first(c->nslots), m;
    unsigned s;
    if (in->setvwi & ~all)
        out->err |= SB_E_SLOT;
    for (SLOT_EACH(s, in->setvwi & all, m)) {
        for (unsigned w = 0; w < SB_WORDS; w++)
            d->pend[s][w] = 0;
        d->vwi[s] = in->setvwi_vwi[s];
    }
}

/* A slot-set port (a release) names only slots < nslots; a DWS port names legal slots. */
static inline int slot_ok(const struct sb_cfg *c, unsigned s)
{
    return s < c->nslots;
}

static inline void clear_bit(uint64_t *row, unsigned b)
{
    row[b >> 6] &= ~(1ull << (b & 63));
}

/* DWS split: dst's row := src's (q) without the n listed registers; dst takes src's VWI. */
static void apply_copy(const struct sb_cfg *c, const struct sb_regs *q, const struct sb_copy *p,
                       struct sb_regs *d)
{
    memcpy(d->pend[p->dst], q->pend[p->src], sizeof d->pend[0]);
    for (unsigned k = 0; k < p->n; k++)
        clear_bit(d->pend[p->dst], fold(c, p->reg[k]));
    d->vwi[p->dst] = q->vwi[p->src];
}

/* DWS merge: dst's row := dst | src (q); src's row := 0 (VWIs unchanged). */
static void apply_merge(const struct sb_regs *q, const struct sb_merge *p, struct sb_regs *d)
{
    for (unsigned w = 0; w < SB_WORDS; w++) {
        d->pend[p->dst][w] = q->pend[p->dst][w] | q->pend[p->src][w];
        d->pend[p->src][w] = 0;
    }
}

/* Copy, then merge, each ignored (SB_E_DWS) when it names an illegal slot, has src == dst or
   writes a row written already this cycle (set-VWI's, then the copy's). */
static void do_copy_merge(const struct sb_cfg *c, const struct sb_regs *q, const struct sb_in *in,
                          struct sb_regs *d, struct sb_out *out)
{
    const struct sb_copy *cp = &in->copy;
    const struct sb_merge *mg = &in->merge;
    slotmask written = in->setvwi & slot_first(c->nslots);
    if (cp->v) {
        if (!slot_ok(c, cp->src) || !slot_ok(c, cp->dst) || cp->src == cp->dst ||
            slot_has(written, cp->dst)) {
            out->err |= SB_E_DWS;
        } else if (cp->n > SB_MAX_DST) {
            out->err |= SB_E_COUNT;
        } else {
            apply_copy(c, q, cp, d);
            written |= slot_bit(cp->dst);
        }
    }
    if (mg->v) {
        if (!slot_ok(c, mg->src) || !slot_ok(c, mg->dst) || mg->src == mg->dst ||
            slot_has(written, mg->dst) || slot_has(written, mg->src))
            out->err |= SB_E_DWS;
        else
            apply_merge(q, mg, d);
    }
}

static void do_release(const struct sb_cfg *c, const struct sb_in *in, struct sb_regs *d,
                       struct sb_out *out)
{
    slotmask all = slot_first(c->nslots), m;
    unsigned s;
    for (unsigned i = 0; i < SB_MAX_REL; i++) {
        const struct sb_rel *r = &in->rel[i];
        if (!r->v)
            continue;
        if (r->slots & ~all) {
            out->err |= SB_E_SLOT;
            continue;
        }
        unsigned b = fold(c, r->reg), hit = 0;
        for (SLOT_EACH(s, r->slots, m)) {
            if (r->vwi != d->vwi[s])           /* an old owner's writeback: ignored */
                continue;
            clear_bit(d->pend[s], b);
            hit = 1;
        }
        if (hit)
            out->ev_rel++;
        else if (r->slots)
            out->ev_rel_stale++;
    }
}

static void do_reserve(const struct sb_cfg *c, const struct sb_in *in, struct sb_regs *d,
                       struct sb_out *out)
{
    for (unsigned i = 0; i < SB_RES_PORTS; i++) {
        const struct sb_res *r = &in->res[i];
        if (!r->v)
            continue;
        if (r->slot >= c->nslots || r->n > SB_MAX_DST) {
            out->err |= r->slot >= c->nslots ? SB_E_SLOT : SB_E_COUNT;
            continue;
        }
        for (unsigned k = 0; k < r->n; k++) {
            unsigned b = fold(c, r->reg[k]);
            d->pend[r->slot][b >> 6] |= 1ull << (b & 63);
        }
    }
}

static slotmask do_check(const struct sb_cfg *c, const struct sb_in *in,
                         const struct sb_regs *d, struct sb_out *out)
{
    slotmask all = slot_first(c->nslots), hz = 0, m;
    unsigned s;
    if (in->chk_v & ~all)
        out->err |= SB_E_SLOT;
    for (SLOT_EACH(s, in->chk_v & all, m)) {
        unsigned n = in->chk_n[s];
        if (n > SB_MAX_CHK) {
            out->err |= SB_E_COUNT;
            n = SB_MAX_CHK;
        }
        for (unsigned k = 0; k < n; k++) {
            unsigned b = fold(c, in->chk_reg[s][k]);
            if (d->pend[s][b >> 6] >> (b & 63) & 1u) {
                hz |= slot_bit(s);
                break;
            }
        }
    }
    return hz;
}

/* DWS merge check: rows a and b (q) share no pending bit. */
static uint8_t do_mchk(const struct sb_cfg *c, const struct sb_regs *q, const struct sb_mchk *p,
                       struct sb_out *out)
{
    uint64_t both = 0;
    if (!p->v)
        return 0;
    if (!slot_ok(c, p->a) || !slot_ok(c, p->b)) {
        out->err |= SB_E_DWS;
        return 0;
    }
    for (unsigned w = 0; w < SB_WORDS; w++)
        both |= q->pend[p->a][w] & q->pend[p->b][w];
    return both == 0;
}

/* The rows in use (q) with at least one pending bit. */
static slotmask rows_any(const struct sb_cfg *c, const struct sb_regs *q)
{
    slotmask any = 0;
    for (unsigned s = 0; s < c->nslots; s++) {
        uint64_t or = 0;
        for (unsigned w = 0; w < SB_WORDS; w++)
            or |= q->pend[s][w];
        if (or)
            any |= slot_bit(s);
    }
    return any;
}

static uint16_t do_count(const struct sb_cfg *c, const struct sb_in *in, const struct sb_regs *d,
                         struct sb_out *out)
{
    uint16_t n = 0;
    if (!in->cnt_v)
        return 0;
    if (!slot_ok(c, in->cnt_slot)) {
        out->err |= SB_E_SLOT;
        return 0;
    }
    for (unsigned w = 0; w < SB_WORDS; w++)
        n = (uint16_t)(n + bit_pop64(d->pend[in->cnt_slot][w]));
    return n;
}

slotmask sb_rows_written(const struct sb_in *in)
{
    slotmask m = in->setvwi;
    unsigned i;
    for (i = 0; i < SB_MAX_REL; i++)
        if (in->rel[i].v)
            m |= in->rel[i].slots;
    for (i = 0; i < SB_RES_PORTS; i++)
        if (in->res[i].v)
            m |= slot_bit(in->res[i].slot % SM_MAX_SLOTS);
    if (in->copy.v)
        m |= slot_bit(in->copy.src % SM_MAX_SLOTS) | slot_bit(in->copy.dst % SM_MAX_SLOTS);
    if (in->merge.v)
        m |= slot_bit(in->merge.src % SM_MAX_SLOTS) | slot_bit(in->merge.dst % SM_MAX_SLOTS);
    return m;
}

void sb_eval(const struct sb_cfg *c, const struct sb_regs *q, const struct sb_in *in,
             struct sb_out *out, struct sb_regs *d)
{
    out->err = 0;
    out->ev_rel = 0;
    out->ev_rel_stale = 0;
    out->mok = do_mchk(c, q, &in->mchk, out);
    out->any = c->dws ? rows_any(c, q) : 0;
    if (in->setvwi)
        do_setvwi(c, in, d, out);
    if (in->copy.v | in->merge.v)
        do_copy_merge(c, q, in, d, out);
    do_release(c, in, d, out);
    do_reserve(c, in, d, out);
    out->hazard = do_check(c, in, d, out);
    out->cnt = do_count(c, in, d, out);
}

/* Only the rows in use: the others are never written (the SM calls this every cycle). */
void sb_commit(const struct sb_cfg *c, struct sb_regs *q, const struct sb_regs *d)
{
    memcpy(q->pend, d->pend, (size_t)c->nslots * sizeof q->pend[0]);
    memcpy(q->vwi, d->vwi, c->nslots);
}

/* Storage for the cost estimator (cost.h): nregs pending bits and an 8-bit VWI per slot
   (the VWI is read by every release port, to compare it with the writer's). */
void sb_storage(const struct sb_cfg *c, struct cost_list *l)
{
    cost_begin(l, "sb");
    cost_add(l, (struct cost_item){.name = "pend", .mech = "scoreboard pending bits",
                                   .entries = c->nslots, .bits = c->nregs, .rports = COST_PAR,
                                   .onchip = 1, .note = "[nregs-1:0] per slot"});
    cost_add(l, (struct cost_item){.name = "vwi", .mech = "VWI tags (VT, 004)",
                                   .entries = c->nslots, .bits = 8, .rports = SB_MAX_REL,
                                   .onchip = 1, .note = "[7:0] per slot"});
}

/* Registry entry points (model/base/blocks.def). */
uint32_t sb_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void sb_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t i, struct sb_cfg *out)
{
    (void)sm; (void)i;
    sb_cfg_default(out);
    out->nslots = (uint8_t)sm_slots(c);
    out->dws = c->dws != DWS_OFF;
}

void sb_rtl_params(const struct sb_cfg *c, FILE *f)
{
    fprintf(f, "localparam SB_NSLOTS = %u;\nlocalparam SB_NREGS = %u;\nlocalparam SB_DWS = %u;\n",
            c->nslots, c->nregs, c->dws);
}
