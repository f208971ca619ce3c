/*
 * bar.c -- barrier unit (see bar.h). Same-cycle order: launch, exits, arrivals, then the
 * completion check of every CTA touched this cycle.
 */
#include <stdio.h>
#include <string.h>
#include "bar.h"
#include "sm_limits.h"
#include "base/cost.h"

void bar_reset(const struct bar_cfg *c, struct bar_regs *q)
{
    (void)c;
    memset(q, 0, sizeof *q);
}

int bar_cfg_check(const struct bar_cfg *c, char *err, size_t errlen)
{
    if (c->nctas < 1 || c->nctas > BAR_MAX_CTAS) {
        snprintf(err, errlen, "bar: nctas %u out of range 1..%u", c->nctas, BAR_MAX_CTAS);
        return -1;
    }
    return 0;
}

static void check(uint32_t cta, struct bar_regs *d)
{
    if (d->arrived[cta] && (d->arrived[cta] & d->live[cta]) == d->live[cta]) {
        d->release |= 1ull << cta;
        d->arrived[cta] = 0;
    }
}

void bar_eval(const struct bar_cfg *c, const struct bar_regs *q, const struct bar_in *in,
              struct bar_out *out, struct bar_regs *d)
{
    uint32_t i;
    out->release = q->release;
    d->release = 0;
    d->dirty = q->release || in->launch_valid || in->exit_ctas;
    for (i = 0; i < BAR_PORTS; i++)
        d->dirty |= in->arrive[i].valid;
    if (!d->dirty)
        return;
    if (in->launch_valid && in->launch_cta < c->nctas) {
        d->live[in->launch_cta] = in->launch_mask;
        d->arrived[in->launch_cta] = 0;
    }
    for (uint64_t m = in->exit_ctas; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctzll(m);
        if (k >= c->nctas)
            continue;
        d->live[k] &= ~in->exit_mask[k];
        d->arrived[k] &= ~in->exit_mask[k];
        check(k, d);
    }
    for (i = 0; i < BAR_PORTS; i++) {
        const struct bar_ev *e = &in->arrive[i];
        if (e->valid && e->cta < c->nctas && e->warp < 32) {
            d->arrived[e->cta] |= 1u << e->warp;
            check(e->cta, d);
        }
    }
}

void bar_commit(const struct bar_cfg *c, struct bar_regs *q, const struct bar_regs *d)
{
    if (d->dirty || q->dirty) {
        memcpy(q->live, d->live, c->nctas * sizeof q->live[0]);
        memcpy(q->arrived, d->arrived, c->nctas * sizeof q->arrived[0]);
        q->release = d->release;
        q->dirty = d->dirty;
    }
}

uint32_t bar_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void bar_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct bar_cfg *out)
{
    (void)sm; (void)inst;
    out->nctas = sm_cta_slots(c);
}

/* Storage for the cost estimator (cost.h): per CTA slot a live and an arrived mask (one bit
   per warp of the CTA), the registered release mask (one bit per CTA slot). dirty is
   bookkeeping, not hardware. */
void bar_storage(const struct bar_cfg *c, struct cost_list *l)
{
    cost_begin(l, "bar");
    cost_add(l, (struct cost_item){.name = "live", .mech = "barrier unit", .entries = c->nctas,
                                   .bits = 32, .rports = COST_PAR, .onchip = 1,
                                   .note = "[31:0] warps of the CTA"});
    cost_add(l, (struct cost_item){.name = "arrived", .mech = "barrier unit",
                                   .entries = c->nctas, .bits = 32, .rports = COST_PAR,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "release", .mech = "barrier unit", .entries = 1,
                                   .bits = c->nctas, .rports = COST_PAR, .onchip = 1});
}
