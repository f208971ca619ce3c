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

/* Schedulable slots: one per resident warp (max_warps_per_sm). */
static inline uint32_t sm_slots(const struct gpu_config *c)
{
    return c->max_warps_per_sm < SM_MAX_SLOTS ? c->max_warps_per_sm : SM_MAX_SLOTS;
}

/* Contexts (register file, local memory, VWI): one per slot in the baseline; under vt = on
   one per virtual warp (256, the 8-bit VWI of 004 Sec. IV-A). */
static inline uint32_t sm_contexts(const struct gpu_config *c)
{
    return c->vt == VT_ON ? SM_MAX_CTX : sm_slots(c);
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
