/*
 * sb.c -- scoreboard with VWI tags: set-VWI, release, reserve, check (see sb.h, docs/sb.md).
 *
 * eval builds the next state in d (d == q on entry) port by port in the documented order and
 * answers the check and count ports from that next state.  Cost per cycle: the active ports
 * plus, per checked slot, at most SB_MAX_CHK bit tests.
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

static void do_release(const struct sb_cfg *c, const struct sb_in *in, struct sb_regs *d,
                       struct sb_out *out)
{
    for (unsigned i = 0; i < SB_MAX_REL; i++) {
        const struct sb_rel *r = &in->rel[i];
        if (!r->v)
            continue;
        if (r->slot >= c->nslots) {
            out->err |= SB_E_SLOT;
            continue;
        }
        if (r->vwi != d->vwi[r->slot]) {       /* an old owner's writeback: ignored */
            out->ev_rel_stale++;
            continue;
        }
        unsigned b = fold(c, r->reg);
        d->pend[r->slot][b >> 6] &= ~(1ull << (b & 63));
        out->ev_rel++;
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

void sb_eval(const struct sb_cfg *c, const struct sb_regs *q, const struct sb_in *in,
             struct sb_out *out, struct sb_regs *d)
{
    (void)q;                       /* d == q on entry: d is the next state under construction */
    out->err = 0;
    out->ev_rel = 0;
    out->ev_rel_stale = 0;
    out->cnt = 0;
    if (in->setvwi)
        do_setvwi(c, in, d, out);
    do_release(c, in, d, out);
    do_reserve(c, in, d, out);
    out->hazard = do_check(c, in, d, out);
    if (in->cnt_v) {
        if (in->cnt_slot < c->nslots) {
            for (unsigned w = 0; w < SB_WORDS; w++)
                out->cnt = (uint16_t)(out->cnt + __builtin_popcountll(d->pend[in->cnt_slot][w]));
        } else {
            out->err |= SB_E_SLOT;
        }
    }
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
}

void sb_rtl_params(const struct sb_cfg *c, FILE *f)
{
    fprintf(f, "localparam SB_NSLOTS = %u;\nlocalparam SB_NREGS = %u;\n", c->nslots, c->nregs);
}
