/*
 * kgen.c -- scheduling-priority key generator (see kgen.h).
 * Per cycle, on d (= q on entry): the previous cycle's issues become each scheduler's last
 * issued slot; a new warp in that slot drops it; the keys of this cycle follow from d.
 */
#include <stdio.h>
#include <string.h>
#include "kgen.h"
#include "sm_limits.h"
#include "base/config.h"
#include "base/cost.h"

void kgen_cfg_default(struct kgen_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->policy = KGEN_GTO;
    c->nsched = 2;
    c->nslots[0] = c->nslots[1] = 24;
}

int kgen_cfg_check(const struct kgen_cfg *c, char *err, size_t errlen)
{
    if (c->policy >= KGEN_NPOLICY || c->nsched < 1 || c->nsched > KGEN_MAX_SCHED) {
        snprintf(err, errlen, "kgen: policy %u (0..%u), nsched %u (1..%u)", c->policy,
                 KGEN_NPOLICY - 1, c->nsched, KGEN_MAX_SCHED);
        return -1;
    }
    for (unsigned k = 0; k < c->nsched; k++)
        if (c->nslots[k] < 1 || c->nslots[k] > SM_MAX_SLOTS) {
            snprintf(err, errlen, "kgen: scheduler %u: nslots %u out of range 1..%u", k,
                     c->nslots[k], SM_MAX_SLOTS);
            return -1;
        }
    return 0;
}

void kgen_reset(const struct kgen_cfg *c, struct kgen_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
}

void kgen_eval(const struct kgen_cfg *c, const struct kgen_regs *q, const struct kgen_in *in,
               struct kgen_out *out, struct kgen_regs *d)
{
    (void)q;
    for (unsigned k = 0; k < c->nsched; k++) {
        uint8_t bit = (uint8_t)(1u << k);
        if (in->issue_v & bit) {
            d->last[k] = in->issue_slot[k];
            d->last_v |= bit;
        }
        if ((d->last_v & bit) && slot_has(in->fresh[k], d->last[k]))
            d->last_v &= (uint8_t)~bit;          /* a new warp does not inherit greed */
        memset(out->key[k], 0, c->nslots[k] * sizeof out->key[k][0]);
        if (d->last_v & bit)
            out->key[k][d->last[k]] = 1;
        if (c->policy == KGEN_WIDEST)          /* the width above GTO's greedy bit */
            for (unsigned j = 0; j < c->nslots[k]; j++)
                out->key[k][j] = (uint16_t)(in->width[k][j] << 1 | out->key[k][j]);
    }
}

void kgen_commit(const struct kgen_cfg *c, struct kgen_regs *q, const struct kgen_regs *d)
{
    (void)c;
    *q = *d;
}

uint32_t kgen_instances(const struct gpu_config *c)
{
    return c->sched_policy == SCHED_GTO_PRIO || sm_dws_widest(c);
}

void kgen_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct kgen_cfg *out)
{
    uint32_t n = sm_slots(c), ns = c->schedulers_per_sm;
    (void)sm; (void)inst;
    kgen_cfg_default(out);
    out->policy = sm_dws_widest(c) ? KGEN_WIDEST : KGEN_GTO;
    out->nsched = (uint8_t)ns;
    for (uint32_t k = 0; k < ns && k < KGEN_MAX_SCHED; k++)
        out->nslots[k] = (uint8_t)((n + ns - 1 - k) / ns);
}

/* Storage for the cost estimator (cost.h): per scheduler the last issued slot and its valid
   bit (the keys are combinational). */
void kgen_storage(const struct kgen_cfg *c, struct cost_list *l)
{
    cost_begin(l, "kgen");
    cost_add(l, (struct cost_item){.name = "last", .mech = "GTO key generator",
                                   .entries = c->nsched, .bits = 7, .rports = COST_PAR,
                                   .onchip = 1, .note = "[6:0] per scheduler"});
    cost_add(l, (struct cost_item){.name = "last_v", .mech = "GTO key generator", .entries = 1,
                                   .bits = c->nsched, .rports = COST_PAR, .onchip = 1});
}
