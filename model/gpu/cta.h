/*
 * cta.h -- the GPU's CTA (thread block) dispatcher.
 *
 * Hardware: the global block scheduler that hands the next CTA of a launch to an SM with room
 * for it (dynamic round-robin over SMs, 001_8bf4399a5d1562fa.txt Section IV-B), honouring the
 * per-SM thread, warp, CTA, register and shared-memory limits. How many CTAs fit an SM is an
 * elaboration-time figure of the launch (cta_occupancy), and which limit binds is reported.
 * Ports: in: done[sm] (CTAs that finished on each SM this cycle); out: dispatch {valid, sm, cta}.
 * Latency: one dispatch per cycle; a slot freed by `done` can be refilled the next cycle.
 */
#ifndef CTA_H
#define CTA_H
#include <stdint.h>

#define CTA_MAX_SMS 128

enum cta_limit { CTA_LIM_THREADS = 0, CTA_LIM_CTAS, CTA_LIM_REGS, CTA_LIM_SHARED, CTA_LIM_COUNT };

struct cta_cfg {
    uint32_t nsms;
    uint32_t per_sm;          /* CTAs of this launch that fit one SM (occupancy) */
    uint64_t total;           /* CTAs in the grid */
};

struct cta_regs {
    uint64_t next;                    /* 32+: next CTA (linear index) to dispatch */
    uint8_t  resident[CTA_MAX_SMS];   /*  8 each: CTAs resident per SM */
    uint32_t rr;                      /*  7: SM after the last one dispatched to */
};

struct cta_in { uint8_t done[CTA_MAX_SMS]; };

struct cta_out { uint8_t valid; uint32_t sm; uint64_t cta; };

void cta_reset(const struct cta_cfg *c, struct cta_regs *q);
void cta_eval(const struct cta_cfg *c, const struct cta_regs *q, const struct cta_in *in,
              struct cta_out *out, struct cta_regs *d);
void cta_commit(const struct cta_cfg *c, struct cta_regs *q, const struct cta_regs *d);

/* Occupancy: CTAs per SM and the binding limit (ties: the first in enum order).
   Registers are allocated per warp in units of `reg_unit`. Returns 0 if a CTA cannot fit. */
struct gpu_config;
uint32_t cta_occupancy(const struct gpu_config *conf, uint32_t threads_per_cta,
                       uint32_t regs_per_thread, uint32_t shared_per_cta, enum cta_limit *limit);
const char *cta_limit_name(enum cta_limit l);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void cta_storage(const struct cta_cfg *c, struct cost_list *l);

#endif
