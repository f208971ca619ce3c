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











