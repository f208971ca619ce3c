/*
 * sm_cfgs.c -- registry entry points of ws, sb, simt, fu, ldst and l1 (see sm_cfgs.h).
 */
#include <stdio.h>
#include "sm_cfgs.h"
#include "sm_limits.h"
#include "base/config.h"

static uint32_t one(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

uint32_t ws_instances(const struct gpu_config *c)
{
    return c->schedulers_per_sm;
}

/* Slot w of the SM belongs to scheduler w % nsched as its local slot w / nsched. */
void ws_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t i, struct ws_cfg *out)
{
    uint32_t ns = c->schedulers_per_sm, n = sm_slots(c);
    (void)sm;
    ws_cfg_default(out);
    out->policy = (uint8_t)(c->sched_policy == SCHED_LRR ? WS_LRR :
                            c->sched_policy == SCHED_TWOLEVEL ? WS_TWOLEVEL : WS_GTO);
    out->nslots = (uint8_t)((n + ns - 1 - i) / ns);
    out->active = (uint8_t)(c->twolevel_active < out->nslots ? c->twolevel_active : out->nslots);
}

void ws_rtl_params(const struct ws_cfg *c, FILE *f)
{
    fprintf(f, "localparam WS_POLICY = %u;\nlocalparam WS_NSLOTS = %u;\nlocalparam WS_ACTIVE = %u;\n",
            c->policy, c->nslots, c->active);
}

uint32_t sb_instances(const struct gpu_config *c)
{
    return one(c);
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

uint32_t simt_instances(const struct gpu_config *c)
{
    return one(c);
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
}

void simt_rtl_params(const struct simt_cfg *c, FILE *f)
{
    fprintf(f, "localparam SIMT_NWARPS = %u;\nlocalparam SIMT_POLICY = %u;\nlocalparam SIMT_DEPTH = %u;\n"
            "localparam SIMT_CHUNK = %u;\nlocalparam SIMT_ENTRY_BYTES = %u;\n"
            "localparam SIMT_POP_CYCLES = %u;\nlocalparam SIMT_FILL_CYCLES = %u;\n"
            "localparam SIMT_SM_ID = %u;\nlocalparam [63:0] SIMT_SPILL_BASE = 64'h%016llx;\n"
            "localparam SIMT_SPILL_STRIDE = %u;\n",
            c->nwarps, c->policy, c->depth, c->chunk, c->entry_bytes, c->pop_cycles,
            c->fill_cycles, c->sm_id, (unsigned long long)c->spill_base, c->spill_stride);
}








