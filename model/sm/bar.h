/*
 * bar.h -- the SM's barrier unit (bar.sync / __syncthreads).
 *
 * Hardware: per resident CTA, a mask of its live warps and a mask of the warps waiting at the
 * barrier, both indexed by the warp's index inside its CTA (not by warp slot or context, so
 * the state does not care where a warp runs); when every live warp of the CTA has arrived,
 * all are released together. A warp that finishes leaves its CTA's live mask (an exited warp
 * counts as arrived, as on Fermi).
 * Ports: in: launch {valid, CTA slot, mask of its warps}; up to BAR_PORTS arrivals per cycle
 *        {valid, CTA slot, warp index} (one per scheduler); the warps that finished this
 *        cycle as a mask per CTA slot (exit_ctas, exit_mask[]) -- any number of warps of any
 *        number of CTAs in one cycle;
 *        out: release -- the CTA slots whose waiting warps are released this cycle.
 * Latency: a release is seen the cycle after the last arrival (registered output).
 */
#ifndef BAR_H
#define BAR_H
#include <stddef.h>
#include <stdint.h>
#include "base/slotmask.h"

#define BAR_MAX_CTAS SM_MAX_CTAS
#define BAR_PORTS    4

struct bar_cfg { uint32_t nctas; };      /* CTA slots, 1..BAR_MAX_CTAS */

struct bar_regs {
    uint32_t live[BAR_MAX_CTAS];     /* [31:0] per CTA slot: its warps not finished */
    uint32_t arrived[BAR_MAX_CTAS];  /* [31:0] per CTA slot: its warps waiting at the barrier */
    uint64_t release;                /* [nctas-1:0] released this cycle (registered output) */
    uint8_t  dirty;                  /* simulation bookkeeping for commit (not hardware state) */
};

struct bar_ev { uint8_t valid, cta, warp; };   /* [0], [5:0] CTA slot, [4:0] warp in CTA */

struct bar_in {
    uint8_t  launch_valid, launch_cta;   /* [0], [5:0] */
    uint32_t launch_mask;                /* [31:0] the CTA's warps */
    struct bar_ev arrive[BAR_PORTS];
    uint64_t exit_ctas;                  /* CTA slots with warps finishing this cycle */
    uint32_t exit_mask[BAR_MAX_CTAS];    /* [31:0] their finishing warps (where exit_ctas) */
};

struct bar_out { uint64_t release; };

void bar_reset(const struct bar_cfg *c, struct bar_regs *q);
void bar_eval(const struct bar_cfg *c, const struct bar_regs *q, const struct bar_in *in,
              struct bar_out *out, struct bar_regs *d);
void bar_commit(const struct bar_cfg *c, struct bar_regs *q, const struct bar_regs *d);
int  bar_cfg_check(const struct bar_cfg *c, char *err, size_t errlen);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
struct cost_list;
uint32_t bar_instances(const struct gpu_config *c);
void bar_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct bar_cfg *out);
void bar_storage(const struct bar_cfg *c, struct cost_list *l);

#endif
