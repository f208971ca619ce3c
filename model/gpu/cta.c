/*
 * cta.c -- CTA dispatcher and occupancy calculation (see cta.h).
 */
#include <string.h>
#include "base/config.h"
#include "cta.h"
#include "base/cost.h"

void cta_reset(const struct cta_cfg *c, struct cta_regs *q)
{
    (void)c;
    memset(q, 0, sizeof *q);
}

void cta_eval(const struct cta_cfg *c, const struct cta_regs *q, const struct cta_in *in,
              struct cta_out *out, struct cta_regs *d)
{
    uint32_t i;
    memset(out, 0, sizeof *out);
    for (i = 0; i < c->nsms; i++)
        if (in->done[i])
            d->resident[i] = (uint8_t)(q->resident[i] - in->done[i]);
    if (q->next >= c->total)
        return;
    for (i = 0; i < c->nsms; i++) {
        uint32_t sm = (q->rr + i) % c->nsms;
        if (q->resident[sm] < c->per_sm) {     /* a slot freed this cycle is used next cycle */
            out->valid = 1;
            out->sm = sm;
            out->cta = q->next;
            d->resident[sm] = (uint8_t)(d->resident[sm] + 1);
            d->next = q->next + 1;
            d->rr = (sm + 1) % c->nsms;
            return;
        }
    }
}

void cta_commit(const struct cta_cfg *c, struct cta_regs *q, const struct cta_regs *d)
{
    q->next = d->next;
    q->rr = d->rr;
    memcpy(q->resident, d->resident, c->nsms);
}

static const char *const limit_names[CTA_LIM_COUNT] = { "threads", "CTAs", "registers",
                                                         "shared memory" };

const char *cta_limit_name(enum cta_limit l)
{
    return l < CTA_LIM_COUNT ? limit_names[l] : "?";
}

uint32_t cta_occupancy(const struct gpu_config *conf, uint32_t threads_per_cta,
                       uint32_t regs_per_thread, uint32_t shared_per_cta, enum cta_limit *limit)
{
    uint32_t warps = (threads_per_cta + 31) / 32, by[CTA_LIM_COUNT], best, i;
    uint64_t unit = conf->reg_alloc_unit ? conf->reg_alloc_unit : 1;
    uint64_t regs_warp = ((uint64_t)regs_per_thread * 32 + unit - 1) / unit * unit;
    uint64_t regs_cta = regs_warp * warps;
    by[CTA_LIM_THREADS] = conf->max_warps_per_sm / (warps ? warps : 1);
    by[CTA_LIM_CTAS] = conf->max_ctas_per_sm;
    by[CTA_LIM_REGS] = regs_cta ? (uint32_t)(conf->regs_per_sm / regs_cta) : UINT32_MAX;
    by[CTA_LIM_SHARED] = shared_per_cta ? conf->shared_per_sm / shared_per_cta : UINT32_MAX;
    best = 0;
    for (i = 1; i < CTA_LIM_COUNT; i++)
        if (by[i] < by[best])
            best = i;
    if (limit)
        *limit = (enum cta_limit)best;
    return by[best];
}

/* Storage for the cost estimator (cost.h): the next CTA index (64 bits as declared), the
   resident count per SM, the round-robin pointer. */
void cta_storage(const struct cta_cfg *c, struct cost_list *l)
{
    cost_begin(l, "cta");
    cost_add(l, (struct cost_item){.name = "next", .mech = "CTA dispatcher", .entries = 1,
                                   .bits = 64, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "resident", .mech = "CTA dispatcher",
                                   .entries = c->nsms, .bits = 8, .rports = COST_PAR,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rr", .mech = "CTA dispatcher", .entries = 1,
                                   .bits = 7, .rports = COST_PAR, .onchip = 1});
}
