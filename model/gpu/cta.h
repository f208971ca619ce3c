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
 * Latency: one dispatch per cycle; the dispatch comes first in the GPU's cycle (gpu.c cycle),
 * so the SM's blocks see the CTA in the same cycle (bar's launch port among them).
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

enum cta_limit { CTA_LIM_THREADS = 0, CTA_LIM_CTAS, CTA_LIM_REGS, CTA_LIM_SHARED, CTA_LIM_COUNT,
                 /* VT's further limits (cta_limits.vt_by): */
                 CTA_LIM_VWI = CTA_LIM_COUNT,   /* 256 virtual warps (8-bit VWI, 004 Sec. IV-A) */
                 CTA_LIM_TABLE,                 /* the SM's CTA table (SM_MAX_CTAS entries) */
                 CTA_LIM_SLOTS,                 /* MAX: the model's SM_MAX_SLOTS warp slots */
                 CTA_LIM_NAMES };

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
    uint32_t regs_cta;             /* registers one CTA allocates (per warp, in units) */
    enum cta_limit sched_by, cap_by, binding;   /* which limit gives each (ties: enum order) */
    /* VT (conf->vt != off; 004_23e173f444f46134.txt Sec. IV-B): */
    uint32_t vt;                   /* CTAs per SM under VT (on: active + inactive; max: all
                                      active); = resident when VT adds none (or vt = off) */
    uint32_t vt_active;            /* at most this many of them active (the scheduling limit) */
    enum cta_limit vt_by;          /* the limit that gives vt */
    uint32_t ctx_bits;             /* eq. (1) per CTA; 0 when no context region is reserved */
    uint32_t ctx_bytes;            /* ... in shared memory, rounded up to 32-bit words */
};
/* Eq. (1) of 004: (N + log2 W) + 96 + 160 x D x W bits per CTA (N = 8-bit first VWI, log2 W =
   5 bits of warp count, blockIdx 3 x 32, a SIMT entry 32-bit mask + 64-bit PC + 64-bit RPC). */
uint32_t cta_vt_ctx_bits(uint32_t warps, uint32_t depth);
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
