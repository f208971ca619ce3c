/*
 * smem.c -- shared-memory banks and port (see smem.h).
 */
#include <stdio.h>
#include <string.h>
#include "smem.h"
#include "vtc.h"
#include "base/config.h"
#include "base/cost.h"

void smem_cfg_default(struct smem_cfg *c)
{
    c->lat = 20;
    c->ii = 1;
}

int smem_cfg_check(const struct smem_cfg *c, char *err, size_t errlen)
{
    if (c->lat < 1 || c->lat > 10000 || c->ii < 1 || c->ii > 64) {
        snprintf(err, errlen, "smem: lat %u (1..10000), ii %u (1..64)", c->lat, c->ii);
        return -1;
    }
    return 0;
}

void smem_reset(const struct smem_cfg *c, struct smem_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
}

/* Degree of one phase: lanes in `mask`, `per` consecutive words each (<= 32 words in all). */
static uint32_t phase_degree(const uint64_t *addr, uint32_t mask, uint32_t per)
{
    uint64_t words[SMEM_BANKS][32];
    uint32_t nw[SMEM_BANKS] = { 0 }, m, k, i, worst = 0;
    for (m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        for (k = 0; k < per; k++) {
            uint64_t w = addr[lane] / 4 + k;
            uint32_t b = (uint32_t)(w % SMEM_BANKS);
            for (i = 0; i < nw[b] && words[b][i] != w; i++)
                ;
            if (i == nw[b] && nw[b] < 32)
                words[b][nw[b]++] = w;
            if (nw[b] > worst)
                worst = nw[b];
        }
    }
    return worst;
}

uint32_t smem_bank_degree(const uint64_t *addr, uint32_t mask, uint32_t bytes)
{
    uint32_t per = bytes <= 4 ? 1 : bytes >= 16 ? 4 : bytes / 4;
    uint32_t lanes = 32 / per, total = 0, p;
    for (p = 0; p < per; p++) {
        uint32_t pm = lanes == 32 ? mask : (mask >> (p * lanes)) & ((1u << lanes) - 1);
        if (pm)
            total += phase_degree(addr + p * lanes, pm, per);
    }
    return total ? total : 1;
}

void smem_eval(const struct smem_cfg *c, const struct smem_regs *q, const struct smem_in *in,
               struct smem_out *out, struct smem_regs *d)
{
    out->deg = 0;
    out->lat = out->ii = 0;
    out->ctx_grant = 0;
    if (in->dem_v) {
        uint32_t deg = smem_bank_degree(in->dem_addr, in->dem_mask, in->dem_bytes);
        uint64_t until = in->now + (uint64_t)c->ii * deg;
        out->deg = (uint8_t)deg;
        out->lat = c->lat + deg - 1;
        out->ii = c->ii * deg;
        if (until > d->busy_until)
            d->busy_until = until;
    } else if (in->ctx_v && in->now >= q->busy_until) {
        out->ctx_grant = 1;
        d->busy_until = in->now + 1;
    }
}

void smem_commit(const struct smem_cfg *c, struct smem_regs *q, const struct smem_regs *d)
{
    (void)c;
    *q = *d;
}

uint64_t smem_next_event(const struct smem_cfg *c, const struct smem_regs *r, uint64_t now)
{
    (void)c;
    return r->busy_until > now + 1 ? r->busy_until : now + 1;
}

uint32_t smem_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void smem_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct smem_cfg *out)
{
    (void)sm; (void)inst;
    smem_cfg_default(out);
    out->lat = c->lat_shared;
    out->ii = c->ii_mem;
    out->vt_ctx_bits = c->vt == VT_ON ? vtc_ctx_bits(32, c->simt_depth) : 0;
}

/* Storage for the cost estimator (cost.h): the port's busy-until stamp (as declared; the
   bank arrays themselves are the shared memory, not priced as this block's storage). */
void smem_storage(const struct smem_cfg *c, struct cost_list *l)
{
    (void)c;
    cost_begin(l, "smem");
    cost_add(l, (struct cost_item){.name = "busy_until", .mech = "shared-memory port",
                                   .entries = 1, .bits = 64, .rports = COST_PAR, .onchip = 1});
    if (!c->vt_ctx_bits)
        return;
    /* VT's context handler (004 Sec. IV-A): the temporary buffer that takes a saved context
       off the critical path -- its size is not given: one context of the largest CTA -- and
       the context region, in shared memory (listed per CTA, not priced) */
    cost_add(l, (struct cost_item){.name = "vt_tmp", .mech = "VT context buffer (004 IV-A)",
        .entries = 1, .bits = c->vt_ctx_bits, .rports = 1, .wports = 1, .onchip = 1,
        .note = "assumption: one eq. (1) context of a 32-warp CTA; the paper gives no size"});
    cost_add(l, (struct cost_item){.name = "vt_region", .mech = "VT context region (shared memory)",
        .entries = 1, .bits = c->vt_ctx_bits, .rports = 1, .wports = 1, .onchip = 0,
        .note = "eq. (1) per resident CTA of 32 warps, taken from shared memory (a launch's figure: vt_ctx_bits)"});
}
