/*
 * ws.h -- warp scheduler (one instance per scheduler; an SM has two).
 *
 * Hardware it stands for: the issue-stage arbiter of a Fermi-like SM.  Warp slot w of the SM
 * belongs to scheduler w % nsched and appears here as local slot w / nsched; one instance holds
 * up to SM_MAX_SLOTS = 128 slots (cfg.nslots), and every slot-set port is a slotmask
 * (base/slotmask.h).  Each cycle it picks at most one ready slot to issue, by policy:
 *   WS_LRR      loose round robin: the first ready slot after the last issued one.
 *   WS_GTO      greedy-then-oldest: the last issued slot while it stays ready, else the
 *               oldest ready slot (age = order in which slots received their warp).
 *   WS_TWOLEVEL two-level (Narasiman et al., MICRO 2011): an active set of at most cfg.active
 *               slots scheduled round robin; an active slot that stalls on a long-latency
 *               dependence is demoted to the pending set, and the oldest ready pending slot
 *               is promoted while the active set has room.
 *   WS_PRIO     priority key: the ready slot with the highest key prio[slot] (16 bits), ties
 *               to the oldest.  A scheduling policy is then a key generator outside this
 *               block: GTO is WS_PRIO with key 1 for the last issued slot (unless a new warp
 *               arrived in it since) and 0 for every other slot (docs/ws.md, tests/test_ws.c).
 * Age is an age matrix (older[i] bit j = slot j is older than slot i), the usual hardware
 * form: no counter to wrap.  Readiness (I-buffer valid, no hazard, not at a barrier, unit
 * free) is computed by the SM and arrives as a mask; the SM also classifies stalls itself.
 * The outputs depend on this cycle's inputs (Mealy): call ws_eval after the SM has the ready
 * mask (and the keys), in the same cycle.  See docs/ws.md.
 */
#ifndef WS_H
#define WS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/slotmask.h"

enum ws_policy { WS_LRR = 0, WS_GTO, WS_TWOLEVEL, WS_PRIO, WS_NPOLICY };

struct ws_cfg {
    uint8_t policy;                /* enum ws_policy */
    uint8_t nslots;                /* slots of this instance, 1..SM_MAX_SLOTS */
    uint8_t active;                /* WS_TWOLEVEL: active-set size, 1..nslots */
};

/* Rows and bits at and above cfg.nslots are never written (the hardware has nslots rows of
   nslots bits); ws_commit copies only the rows in use. */
struct ws_regs {
    slotmask older[SM_MAX_SLOTS];  /* [nslots-1:0] per slot: slots older than it (age matrix) */
    slotmask act;                  /* [nslots-1:0] WS_TWOLEVEL active set (0 for other policies) */
    uint8_t  last;                 /* [6:0] last issued slot (the hardware holds
                                      clog2(nslots) bits); 0 for WS_PRIO */
    uint8_t  last_v;               /* [0]   last is meaningful; 0 for WS_PRIO */
};

struct ws_in {
    slotmask valid;                /* slot holds a live warp */
    slotmask ready;                /* slot can issue this cycle (computed by the SM) */
    slotmask fresh;                /* slot received a new warp this cycle (becomes youngest) */
    slotmask lstall;               /* slot is stalled on a long-latency dependence (TWOLEVEL) */
    uint16_t prio[SM_MAX_SLOTS];   /* [15:0] per slot: priority key (WS_PRIO; higher first) */
};

struct ws_out {
    uint8_t issue_v;               /* [0]   a slot issues this cycle */
    uint8_t issue_slot;            /* [6:0] local slot that issues */
};

void ws_cfg_default(struct ws_cfg *c);
/* 0 if the configuration is usable, else -1 and a message naming the field. */
int  ws_cfg_check(const struct ws_cfg *c, char *err, size_t errlen);
void ws_reset(const struct ws_cfg *c, struct ws_regs *r);
void ws_eval(const struct ws_cfg *c, const struct ws_regs *q, const struct ws_in *in,
             struct ws_out *out, struct ws_regs *d);
void ws_commit(const struct ws_cfg *c, struct ws_regs *q, const struct ws_regs *d);
const char *ws_policy_name(unsigned p);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void ws_storage(const struct ws_cfg *c, struct cost_list *l);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
uint32_t ws_instances(const struct gpu_config *c);
void ws_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct ws_cfg *out);
void ws_rtl_params(const struct ws_cfg *c, FILE *f);

#endif
