/*
 * sm_limits.h -- the sizes of one SM for a configuration: schedulable slots, contexts and CTA
 * slots (model/base/slotmask.h has their compile-time maxima). Every SM block derives its
 * configuration from these (X_cfg_from), so that the blocks and the SM top agree.
 */
#ifndef SM_LIMITS_H
#define SM_LIMITS_H
#include <stdint.h>
#include "base/config.h"
#include "base/slotmask.h"
#include "ptx/flow.h"

/* Warp slots: one per resident warp (max_warps_per_sm). */
static inline uint32_t sm_warp_slots(const struct gpu_config *c)
{
    return c->max_warps_per_sm < SM_MAX_SLOTS ? c->max_warps_per_sm : SM_MAX_SLOTS;
}

/* DWS's warp-split table entries, one split slot each beside the warp slots: dws_wst_factor x
   the warp slots (the slides' "limit WST to twice the number of warps": 2), at most the slots
   the SM's 7-bit slot index leaves (SM_MAX_SLOTS - warps: gtx480's 48 warps give 80 at factor
   2); 0 without DWS. conf_check keeps the factor x warps <= 128 and the warps <= 64. */
static inline uint32_t sm_wst_entries(const struct gpu_config *c)
{
    uint32_t w = sm_warp_slots(c), n = c->dws_wst_factor * w;
    if (c->dws == DWS_OFF)
        return 0;
    return n < SM_MAX_SLOTS - w ? n : SM_MAX_SLOTS - w;
}

/* Schedulable slots: the warp slots, and under dws != off the table's split slots. */
static inline uint32_t sm_slots(const struct gpu_config *c)
{
    return sm_warp_slots(c) + sm_wst_entries(c);
}

/* Contexts (register file, local memory, VWI): one per slot in the baseline; under vt = on
   one per virtual warp (256, the 8-bit VWI of 004 Sec. IV-A). */
static inline uint32_t sm_contexts(const struct gpu_config *c)
{
    return c->vt == VT_ON ? SM_MAX_CTX : sm_warp_slots(c);
}

/* DWS's "schedule widest warp-split first" (002, "DWS Strategies for Miss Reconvergence") on
   top of GTO: the highest-key scheduler with the GTO key generator's greedy bit below the
   split's width (kgen's KGEN_WIDEST). Other policies run without it. */
static inline int sm_dws_widest(const struct gpu_config *c)
{
    return c->dws != DWS_OFF &&
           (c->sched_policy == SCHED_GTO || c->sched_policy == SCHED_GTO_PRIO);
}

/* The short-post-dominator heuristic of DWS (002, "Stack vs PC Reconvergence"): a conditional
   branch at pc whose reconvergence point (flow's IPDOM; the program's end for an exit) lies
   after it and at most dws_pd_max instructions away may start a warp split. */
static inline uint8_t sm_wst_branch(const struct gpu_config *c, const struct flow *f, uint32_t pc)
{
    uint32_t r = f->reconv[pc];
    return c->dws != DWS_OFF && r != UINT32_MAX && r > pc && r - pc <= c->dws_pd_max;
}

/* CTA slots: resident CTAs (max_ctas_per_sm); under vt = on the CTA table's SM_MAX_CTAS
   entries, active and inactive (the SM top keeps at most the scheduling limit active). */
static inline uint32_t sm_cta_slots(const struct gpu_config *c)
{
    if (c->vt == VT_ON)
        return SM_MAX_CTAS;
    return c->max_ctas_per_sm < SM_MAX_CTAS ? c->max_ctas_per_sm : SM_MAX_CTAS;
}

/* Timing-only address regions of SM `sm` (outside every device allocation): the SIMT
   stacks' spill images and the local memory of its contexts. */
#define SM_SPILL_REGION 0x0000600000000000ull
#define SM_LOCAL_REGION 0x0000680000000000ull
#define SM_REGION_BYTES 0x0000000100000000ull
static inline uint64_t sm_spill_base(uint32_t sm)
{
    return SM_SPILL_REGION + sm * SM_REGION_BYTES;
}
static inline uint64_t sm_local_base(uint32_t sm)
{
    return SM_LOCAL_REGION + sm * SM_REGION_BYTES;
}

#endif
