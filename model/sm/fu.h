/*
 * fu.h -- execution units and the writeback (result) queue of one SM.
 *
 * Hardware: each of the SM's warp schedulers dispatches to its SP, SFU, DP and LD/ST pipelines
 * (Fermi GF100: 2 schedulers; 2 x 16 SP lanes, 4 SFUs, 16 LD/ST units per SM). A unit accepts
 * a new warp instruction from a scheduler once every `ii` cycles (initiation interval); the
 * result is written back `lat` cycles after issue, when the destination registers' scoreboard
 * bits are released. Fixed-latency results (ALU, SFU, DP, shared/const/param memory) go through
 * this block's result queue; global loads complete through the LD/ST unit instead.
 * A unit marked shared (cfg.shared; the SFU on Fermi: 4 SFUs per SM, 8 hot clocks = 4 core
 * cycles per warp instruction, one pipe for both schedulers) is one pipe: an issue makes it
 * busy for every scheduler, and in a cycle t it may be used only by scheduler t mod nsched
 * (time-division grant, so two schedulers never start it in the same cycle).
 *
 * Ports: in: up to FU_ISSUE issues per cycle {valid, sched, unit, lat, ii, warp, vwi, dests};
 *        in: now (cycle); out: unit_free[sched] (bit per unit, for the schedulers' readiness),
 *        out: up to FU_MAX_REL released destination registers this cycle, out: full (the queue
 *        cannot take another result: a structural stall).
 * Latency: result visible in the scoreboard `lat` cycles after issue (lat >= 1).
 * Source of the latencies: configuration (Table III of 001_8bf4399a5d1562fa.txt for gtx480).
 */
#ifndef FU_H
#define FU_H
#include <stdint.h>

#define FU_MAX_SCHED  4
#define FU_ISSUE      FU_MAX_SCHED
#define FU_QUEUE      64       /* in-flight results per SM */
#define FU_MAX_DST    4        /* destination registers per instruction (ld.v4) */
#define FU_MAX_REL    4        /* register releases per cycle (writeback ports) */

enum fu_unit { FU_SP = 0, FU_SFU, FU_DP, FU_MEM, FU_NUNITS };

struct fu_cfg {
    uint32_t nsched;
    uint8_t  shared;           /* bit per unit: one pipe for the whole SM (sfu_shared), granted
                                  to scheduler (cycle mod nsched) when free */
    uint8_t  dws;              /* DWS on: the entries' owned-lane fields are priced */
};

struct fu_entry {
    uint64_t done_at;          /* 64: cycle the result is written back */
    uint16_t reg[FU_MAX_DST];  /* 16 each: destination registers (0xFFFF = none) */
    uint8_t  warp;             /*  8: warp slot */
    uint8_t  vwi;              /*  8: virtual warp id tag for the scoreboard */
    uint32_t own;              /* 32: DWS: owned lanes of the issuing slot (docs/fu.md) */
};

struct fu_regs {
    uint32_t busy_until[FU_MAX_SCHED][FU_NUNITS]; /* low 32 bits of the cycle each unit frees */
    struct fu_entry q[FU_QUEUE];
    uint32_t count;            /*  7: valid entries */
    uint64_t valid;            /* 64: valid bit of each result-queue entry */
    uint8_t  q_dirty;          /* simulation bookkeeping for commit (not hardware state) */
};

struct fu_issue {
    uint8_t  valid, sched, unit, ndst;
    uint8_t  warp, vwi;
    uint32_t own;              /* [31:0] the issuing slot's owned lanes (DWS; all lanes of an
                                  unsplit warp) */
    uint32_t lat, ii;
    uint16_t dst[FU_MAX_DST];
};

struct fu_in {
    uint64_t now;
    struct fu_issue issue[FU_ISSUE];
};

struct fu_rel { uint8_t warp, vwi; uint16_t reg; uint32_t own; };   /* own: the entry's */

struct fu_out {
    uint8_t  unit_free[FU_MAX_SCHED];   /* bit u set: unit u of that scheduler accepts now */
    uint8_t  full;                      /* fewer free queue entries than schedulers */
    uint32_t nrel;
    struct fu_rel rel[FU_MAX_REL];
};

void fu_reset(const struct fu_cfg *c, struct fu_regs *q);
void fu_eval(const struct fu_cfg *c, const struct fu_regs *q, const struct fu_in *in,
             struct fu_out *out, struct fu_regs *d);
void fu_commit(const struct fu_cfg *c, struct fu_regs *q, const struct fu_regs *d);
/* Earliest cycle > now at which fu_eval with no issue can change state or outputs, apart from
   the shared units' turn (cycle mod nsched): a result falling due, or a unit becoming free.
   UINT64_MAX when neither can happen. */
uint64_t fu_next_event(const struct fu_cfg *c, const struct fu_regs *q, uint64_t now);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
uint32_t fu_instances(const struct gpu_config *c);
void fu_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct fu_cfg *out);
int  fu_cfg_check(const struct fu_cfg *c, char *err, size_t errlen);
/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void fu_storage(const struct fu_cfg *c, struct cost_list *l);

#endif
