/*
 * bar.c -- barrier unit (see bar.h). Same-cycle order: launch, exits, arrivals, then the
 * completion check of every CTA touched this cycle.
 */
#include <string.h>
#include "bar.h"
#include "base/cost.h"

void bar_reset(const struct bar_cfg *c, struct bar_regs *q)
{
    (void)c;
    memset(q, 0, sizeof *q);
}

static void check(uint32_t cta, struct bar_regs *d)
{
    if (d->arrived[cta] && (d->arrived[cta] & d->live[cta]) == d->live[cta]) {
        d->release |= d->arrived[cta];
        d->arrived[cta] = 0;
    }
}

void bar_eval(const struct bar_cfg *c, const struct bar_regs *q, const struct bar_in *in,
              struct bar_out *out, struct bar_regs *d)
{
    uint32_t i;
    out->release = q->release;
    d->release = 0;
    d->dirty = q->release || in->launch_valid;
    for (i = 0; i < BAR_PORTS; i++)
        d->dirty |= in->arrive[i].valid | in->exit[i].valid;
    if (!d->dirty)
        return;
    if (in->launch_valid && in->launch_cta < c->nctas) {
        d->live[in->launch_cta] = in->launch_mask;
        d->arrived[in->launch_cta] = 0;
    }
    for (i = 0; i < BAR_PORTS; i++) {
        const struct bar_ev *e = &in->exit[i];
        if (e->valid && e->cta < c->nctas) {
            d->live[e->cta] &= ~(1ull << e->warp);
            d->arrived[e->cta] &= ~(1ull << e->warp);
            check(e->cta, d);
        }
    }
    for (i = 0; i < BAR_PORTS; i++) {
        const struct bar_ev *e = &in->arrive[i];
        if (e->valid && e->cta < c->nctas) {
            d->arrived[e->cta] |= 1ull << e->warp;
            check(e->cta, d);
        }
    }
}

void bar_commit(const struct bar_cfg *c, struct bar_regs *q, const struct bar_regs *d)
{
    (void)c;
    if (d->dirty || q->dirty)
        memcpy(q, d, sizeof *q);
}

/* Storage for the cost estimator (cost.h): per CTA slot a live and an arrived warp mask (64
   bits each, as declared), the registered release mask. dirty is bookkeeping, not hardware. */
void bar_storage(const struct bar_cfg *c, struct cost_list *l)
{
    cost_begin(l, "bar");
    cost_add(l, (struct cost_item){.name = "live", .mech = "barrier unit", .entries = c->nctas,
                                   .bits = 64, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "arrived", .mech = "barrier unit",
                                   .entries = c->nctas, .bits = 64, .rports = COST_PAR,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "release", .mech = "barrier unit", .entries = 1,
                                   .bits = 64, .rports = COST_PAR, .onchip = 1});
}
