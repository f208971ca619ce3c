/*
 * cta.h -- the GPU's CTA (thread block) dispatcher, and the limits that decide how many CTAs
 * of a launch an SM holds.
 *
 * Hardware: the global block scheduler that hands the next CTA of a launch to an SM that can
 * take it (dynamic round-robin over SMs starting after the last one served,
 * 001_8bf4399a5d1562fa.txt Section IV-B). Whether an SM can take a CTA is the SM's own
 * registered output (its cta_ready port: model/sm/sm_cta.c counts residency), so the
 * dispatcher keeps no per-SM count.
 * Ports: in: ready[sm]; out: dispatch {valid, sm, cta}.
 * Latency: one dispatch per cycle; the CTA is seen by the SM's blocks the next cycle.
 *
 * Limits (cta_limits), decided at launch from the configuration and the kernel
 * (004_23e173f444f46134.txt Section II): the scheduling limit -- warp slots (threads) and CTA
 * slots, what the issue hardware can track -- and the capacity limit -- registers and shared
 * memory, what the storage can hold -- are reported separately; the baseline SM holds the
 * smaller of the two (a VT-style mechanism holds the capacity limit and keeps the scheduling
 * limit active).
 */
#ifndef CTA_H
#define CTA_H
#include <stddef.h>
#include <stdint.h>

#define CTA_MAX_SMS 128

enum cta_limit { CTA_LIM_THREADS = 0, CTA_LIM_CTAS, CTA_LIM_REGS, CTA_LIM_SHARED, CTA_LIM_COUNT };

struct cta_cfg {
    uint32_t nsms;                 /* SMs, 1..CTA_MAX_SMS */
    uint64_t total;                /* CTAs in the grid */
    uint8_t  vtw;                  /* VTW hw: the GPU-wide nextLogTbId lives here (storage) */
};

struct cta_regs {
    uint64_t next;                 /* [63:0] next CTA (linear index) to dispatch */
    uint32_t rr;                   /* [6:0] SM after the last one dispatched to */
};

struct cta_in { uint8_t ready[CTA_MAX_SMS]; };    /* [0] per SM: it can take a CTA */

struct cta_out { uint8_t valid; uint32_t sm; uint64_t cta; };

void cta_reset(const struct cta_cfg *c, struct cta_regs *q);
void cta_eval(const struct cta_cfg *c, const struct cta_regs *q, const struct cta_in *in,
              struct cta_out *out, struct cta_regs *d);
void cta_commit(const struct cta_cfg *c, struct cta_regs *q, const struct cta_regs *d);
int  cta_cfg_check(const struct cta_cfg *c, char *err, size_t errlen);

struct cta_limits {
    uint32_t by[CTA_LIM_COUNT];    /* CTAs per SM that each limit allows (UINT32_MAX: none) */
    uint32_t sched;                /* scheduling limit: min(threads, CTAs) */
    uint32_t cap;                  /* capacity limit: min(registers, shared memory) */
    uint32_t resident;             /* what the baseline SM holds: min(sched, cap) */
    enum cta_limit sched_by, cap_by, binding;   /* which limit gives each (ties: enum order) */
};
struct gpu_config;
/* Registers are allocated per warp in units of `reg_alloc_unit`. */
void cta_limits(const struct gpu_config *conf, uint32_t threads_per_cta, uint32_t regs_per_thread,
                uint32_t shared_per_cta, struct cta_limits *out);
/* The resident CTAs per SM and the binding limit (0 if a CTA cannot fit). */
uint32_t cta_occupancy(const struct gpu_config *conf, uint32_t threads_per_cta,
                       uint32_t regs_per_thread, uint32_t shared_per_cta, enum cta_limit *limit);
const char *cta_limit_name(enum cta_limit l);

/* Registry entry points (model/base/blocks.def). */
struct cost_list;
uint32_t cta_instances(const struct gpu_config *c);
void cta_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct cta_cfg *out);
void cta_storage(const struct cta_cfg *c, struct cost_list *l);

#endif
