/*
 * kgen.h -- scheduling-priority key generator: the per-slot keys that the warp schedulers'
 * highest-key policy (ws WS_PRIO: the eligible slot with the highest key issues, ties go to
 * the oldest) picks by. One instance per SM serves every scheduler.
 *
 * Hardware it stands for: the priority logic in front of a warp scheduler's pick. A
 * scheduling policy is a key generator, not a branch inside the scheduler
 * (../shared/DESIGN.md): VTW's progress-aware order (000_0da6b8b480bd0740.txt Section 5,
 * Algorithm 1) and DWS's widest-split-first (002_ddcb2f79a6edfee4.txt) are further policies
 * of this kind, fed by the issue stage's counters (iss.h).
 *
 * Policies:
 *   KGEN_GTO  greedy-then-oldest expressed as keys: key 1 for the slot its scheduler issued
 *             last (unless that slot received a new warp this cycle: a new warp does not
 *             inherit greed), 0 for every other slot. With ws's ties-by-age this is exactly
 *             ws's own WS_GTO (tested, and `sched_policy = gto_prio` gives gto's statistics):
 *             the reference against which new generators are written.
 *   KGEN_WIDEST  DWS's "schedule widest warp-split first" (002, "DWS Strategies for Miss
 *             Reconvergence") on top of GTO: key = the slot's active lanes (its width, an
 *             input) above GTO's greedy bit, so the widest split issues first and GTO orders
 *             equal widths.
 *
 * Ports: in: the issues of the previous cycle per scheduler (the SM's issue latch: valid,
 * local slot), the slots that received a new warp this cycle (per scheduler, local
 * numbering), under KGEN_WIDEST each slot's active lanes (the SIMT stack's mask, counted);
 * out: key[sched][local slot], 16 bits, for this cycle's pick.
 * Latency: an issue in cycle t-1 sets the keys of cycle t (as ws's own last-issued register).
 */
#ifndef KGEN_H
#define KGEN_H
#include <stddef.h>
#include <stdint.h>
#include "base/slotmask.h"

#define KGEN_MAX_SCHED 4

enum kgen_policy { KGEN_GTO = 0, KGEN_WIDEST, KGEN_NPOLICY };

struct kgen_cfg {
    uint8_t policy;                /* enum kgen_policy */
    uint8_t nsched;                /* schedulers, 1..KGEN_MAX_SCHED */
    uint8_t nslots[KGEN_MAX_SCHED];/* local slots of each scheduler, 1..SM_MAX_SLOTS */
};

struct kgen_regs {
    uint8_t last[KGEN_MAX_SCHED];  /* [6:0] per scheduler: local slot issued last */
    uint8_t last_v;                /* [3:0] per scheduler: last is meaningful */
};

struct kgen_in {
    uint8_t  issue_v;              /* [3:0] per scheduler: it issued in the previous cycle */
    uint8_t  issue_slot[KGEN_MAX_SCHED];   /* [6:0] the local slot it issued */
    slotmask fresh[KGEN_MAX_SCHED];        /* local slots that received a warp this cycle */
    uint8_t  width[KGEN_MAX_SCHED][SM_MAX_SLOTS];  /* [5:0] KGEN_WIDEST: active lanes */
};

struct kgen_out {
    uint16_t key[KGEN_MAX_SCHED][SM_MAX_SLOTS];   /* [15:0] per scheduler and local slot */
};

void kgen_cfg_default(struct kgen_cfg *c);
int  kgen_cfg_check(const struct kgen_cfg *c, char *err, size_t errlen);
void kgen_reset(const struct kgen_cfg *c, struct kgen_regs *r);
void kgen_eval(const struct kgen_cfg *c, const struct kgen_regs *q, const struct kgen_in *in,
               struct kgen_out *out, struct kgen_regs *d);
void kgen_commit(const struct kgen_cfg *c, struct kgen_regs *q, const struct kgen_regs *d);

/* Registry entry points (model/base/blocks.def): one instance when the configuration's
   scheduling policy is a keyed one, none otherwise. */
struct gpu_config;
struct cost_list;
uint32_t kgen_instances(const struct gpu_config *c);
void kgen_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct kgen_cfg *out);
void kgen_storage(const struct kgen_cfg *c, struct cost_list *l);

#endif
