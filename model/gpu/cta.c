/*
 * cta.c -- CTA dispatcher and the residency limits (see cta.h).
 */
#include <stdio.h>
#include <string.h>
#include "cta.h"
#include "base/config.h"
#include "base/cost.h"
#include "base/slotmask.h"
#include "sm/vtc.h"

void cta_reset(const struct cta_cfg *c, struct cta_regs *q)
{
    (void)c;
    memset(q, 0, sizeof *q);
}

int cta_cfg_check(const struct cta_cfg *c, char *err, size_t errlen)
{
    if (c->nsms < 1 || c->nsms > CTA_MAX_SMS) {
        snprintf(err, errlen, "cta: nsms %u out of range 1..%u", c->nsms, CTA_MAX_SMS);
        return -1;
    }
    return 0;
}

void cta_eval(const struct cta_cfg *c, const struct cta_regs *q, const struct cta_in *in,
              struct cta_out *out, struct cta_regs *d)
{
    memset(out, 0, sizeof *out);
    if (q->next >= c->total)
        return;
    for (uint32_t i = 0; i < c->nsms; i++) {
        uint32_t sm = (q->rr + i) % c->nsms;
        if (in->ready[sm]) {
            out->valid = 1;
            out->sm = sm;
            out->cta = q->next;
            d->next = q->next + 1;
            d->rr = (sm + 1) % c->nsms;
            return;
        }
    }
}

void cta_commit(const struct cta_cfg *c, struct cta_regs *q, const struct cta_regs *d)
{
    (void)c;
    *q = *d;
}

static const char *const limit_names[CTA_LIM_NAMES] = { "threads", "CTAs", "registers",
    "shared memory", "virtual warps", "CTA table", "warp slots" };

const char *cta_limit_name(enum cta_limit l)
{
    return l < CTA_LIM_NAMES ? limit_names[l] : "?";
}

uint32_t cta_vt_ctx_bits(uint32_t warps, uint32_t depth)
{
    return vtc_ctx_bits(warps, depth);
}

/* The smallest of by[a..b] and which one (the first on ties). */
static uint32_t min_of(const uint32_t *by, unsigned a, unsigned b, enum cta_limit *which)
{
    unsigned best = a;
    for (unsigned i = a + 1; i <= b; i++)
        if (by[i] < by[best])
            best = i;
    *which = (enum cta_limit)best;
    return by[best];
}

/* VT's residency (Sec. IV-B): on -- CTAs up to the capacity limit, the context region (eq. 1
   per CTA) taken from shared memory, at most 256 virtual warps and SM_MAX_CTAS table entries;
   when that is no more than the baseline holds, VT adds nothing and reserves no region. max --
   the scheduling limit raised to the capacity limit (at most SM_MAX_SLOTS warp slots). */
static void vt_limits(const struct gpu_config *conf, uint32_t warps, uint32_t shared_per_cta,
                      struct cta_limits *o)
{
    uint32_t by[CTA_LIM_NAMES], n;
    o->vt = o->vt_active = o->resident;
    o->vt_by = o->binding;
    if (conf->vt == VT_OFF || !o->resident)
        return;
    memcpy(by, o->by, sizeof o->by);
    by[CTA_LIM_THREADS] = by[CTA_LIM_CTAS] = UINT32_MAX;    /* the scheduling limit is lifted */
    by[CTA_LIM_VWI] = by[CTA_LIM_SLOTS] = UINT32_MAX;
    by[CTA_LIM_TABLE] = SM_MAX_CTAS;
    if (conf->vt == VT_MAX) {
        by[CTA_LIM_SLOTS] = SM_MAX_SLOTS / warps;
        o->vt = min_of(by, CTA_LIM_THREADS, CTA_LIM_SLOTS, &o->vt_by);
        o->vt_active = o->vt;
        return;
    }
    o->ctx_bits = cta_vt_ctx_bits(warps, conf->simt_depth);
    o->ctx_bytes = (o->ctx_bits + 31) / 32 * 4;
    by[CTA_LIM_SHARED] = conf->shared_per_sm / (shared_per_cta + o->ctx_bytes);
    by[CTA_LIM_VWI] = SM_MAX_CTX / warps;
    n = min_of(by, CTA_LIM_THREADS, CTA_LIM_TABLE, &o->vt_by);
    if (n <= o->resident) {
        o->ctx_bits = o->ctx_bytes = 0;
        o->vt_by = o->binding;
        return;
    }
    o->vt = n;
    o->vt_active = o->sched;
}

void cta_limits(const struct gpu_config *conf, uint32_t threads_per_cta, uint32_t regs_per_thread,
                uint32_t shared_per_cta, struct cta_limits *o)
{
    uint32_t warps = (threads_per_cta + 31) / 32;
    uint64_t unit = conf->reg_alloc_unit ? conf->reg_alloc_unit : 1;
    uint64_t regs_warp = ((uint64_t)regs_per_thread * 32 + unit - 1) / unit * unit;
    uint64_t regs_cta = regs_warp * warps;
    memset(o, 0, sizeof *o);
    o->regs_cta = (uint32_t)regs_cta;
    o->by[CTA_LIM_THREADS] = conf->max_warps_per_sm / (warps ? warps : 1);
    o->by[CTA_LIM_CTAS] = conf->max_ctas_per_sm;
    o->by[CTA_LIM_REGS] = regs_cta ? (uint32_t)(conf->regs_per_sm / regs_cta) : UINT32_MAX;
    o->by[CTA_LIM_SHARED] = shared_per_cta ? conf->shared_per_sm / shared_per_cta : UINT32_MAX;
    o->sched = min_of(o->by, CTA_LIM_THREADS, CTA_LIM_CTAS, &o->sched_by);
    o->cap = min_of(o->by, CTA_LIM_REGS, CTA_LIM_SHARED, &o->cap_by);
    o->resident = min_of(o->by, CTA_LIM_THREADS, CTA_LIM_SHARED, &o->binding);
    vt_limits(conf, warps ? warps : 1, shared_per_cta, o);
}

uint32_t cta_occupancy(const struct gpu_config *conf, uint32_t threads_per_cta,
                       uint32_t regs_per_thread, uint32_t shared_per_cta, enum cta_limit *limit)
{
    struct cta_limits l;
    cta_limits(conf, threads_per_cta, regs_per_thread, shared_per_cta, &l);
    if (limit)
        *limit = l.binding;
    return l.resident;
}

uint32_t cta_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void cta_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct cta_cfg *out)
{
    (void)sm; (void)inst;
    out->nsms = c->num_sms;
    out->total = 0;                /* the launch's grid */
    out->vtw = c->vtw == VTW_HW;
}

/* Storage for the cost estimator (cost.h): the next CTA index (64 bits as declared) and the
   round-robin pointer; residency is the SMs' (their cta_ready output). */
void cta_storage(const struct cta_cfg *c, struct cost_list *l)
{
    cost_begin(l, "cta");
    cost_add(l, (struct cost_item){.name = "next", .mech = "CTA dispatcher", .entries = 1,
                                   .bits = 64, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rr", .mech = "CTA dispatcher", .entries = 1,
                                   .bits = cost_clog2(c->nsms), .rports = COST_PAR, .onchip = 1});
    if (c->vtw)   /* the GPU top keeps it (gpu.c vtw_next); SMs take from it through gnext/gtake */
        cost_add(l, (struct cost_item){.name = "nextLogTbId", .mech = "index unit (000 Sec. 4.5)",
                                       .entries = 1, .bits = 32, .rports = COST_PAR, .onchip = 1,
                                       .note = "GPU-wide next logical TB index (Section 4.5 counts it per SM)"});
}
