/*
 * bar.h -- the SM's barrier unit (bar.sync / __syncthreads).
 *
 * Hardware: per resident CTA, a mask of its live warps and a mask of the warps waiting at the
 * barrier; when every live warp of the CTA has arrived, all are released together. A warp that
 * finishes leaves its CTA's live mask (an exited warp counts as arrived, as on Fermi).
 * Ports: in: launch {valid, cta slot, warp mask}; in: up to BAR_PORTS arrivals and BAR_PORTS
 *        warp exits per cycle {valid, cta slot, warp slot}; out: release (warp-slot mask) --
 *        the warps released this cycle.
 * Latency: a release is seen the cycle after the last arrival (registered output).
 */
#ifndef BAR_H
#define BAR_H
#include <stdint.h>

#define BAR_MAX_CTAS 32
#define BAR_PORTS    4

struct bar_cfg { uint32_t nctas; };

struct bar_regs {
    uint64_t live[BAR_MAX_CTAS];     /* 64 each: live warps of the CTA slot */
    uint64_t arrived[BAR_MAX_CTAS];  /* 64 each: warps waiting at the barrier */
    uint64_t release;                /* 64: released this cycle (registered output) */
    uint8_t  dirty;                  /* simulation bookkeeping for commit (not hardware state) */
};

struct bar_ev { uint8_t valid, cta, warp; };

struct bar_in {
    uint8_t  launch_valid, launch_cta;
    uint64_t launch_mask;
    struct bar_ev arrive[BAR_PORTS];
    struct bar_ev exit[BAR_PORTS];
};

struct bar_out { uint64_t release; };

void bar_reset(const struct bar_cfg *c, struct bar_regs *q);
void bar_eval(const struct bar_cfg *c, const struct bar_regs *q, const struct bar_in *in,
              struct bar_out *out, struct bar_regs *d);
void bar_commit(const struct bar_cfg *c, struct bar_regs *q, const struct bar_regs *d);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void bar_storage(const struct bar_cfg *c, struct cost_list *l);

#endif
