/*
 * iss.h -- the issue stage of one SM: which warp slots can issue this cycle, why the others
 * cannot, and the per-context and per-CTA counters the issue logic and the scheduling
 * mechanisms read. Also the instruction decoder (iss_decode).
 *
 * Hardware it stands for: the readiness logic between the I-buffer, the scoreboard and the
 * warp schedulers of a Fermi-like SM (GPGPU-Sim's issue stage; 004_23e173f444f46134.txt
 * Section III "Issue Stage": a warp issues when its I-buffer head is valid, the scoreboard
 * shows no hazard and the unit is free), together with the per-warp outstanding-result
 * counters that say whether a stall is on a long-latency memory operation, the barrier wait
 * flags, and the progress counters that progress-aware schedulers use (000_0da6b8b480bd0740.txt
 * Section 5, Algorithm 1: instructions executed per warp and per TB, warps of a TB waiting at a
 * barrier) and that a CTA-swap controller uses (004 Section IV: all warps of a CTA stalled on
 * long-latency memory).
 *
 * Slots and contexts (model/base/slotmask.h): readiness is per schedulable slot; the counters
 * belong to the context (VWI) the slot holds (in.slot_ctx) and to the context's CTA
 * (in.ctx_cta), so they survive a context leaving its slot.
 *
 * Per slot the class (enum iss_class, first match wins):
 *   I-buffer head missing or not at the SIMT pc (in.head_ok)      ISS_IBUF
 *   its context waits at a barrier                                 ISS_BARRIER
 *   SIMT stack busy (spill, fill, pop)                             ISS_STACK
 *   scoreboard hazard: the context has loads in flight             ISS_LONG_MEM
 *                      else                                        ISS_SHORT_DEP
 *   unit of the head busy for its scheduler, result queue full,
 *   or a memory instruction while the LD/ST unit cannot take one   ISS_STRUCT
 *   otherwise                                                      ready (ISS_ISSUED)
 * Slot w belongs to scheduler w % nsched as its local slot w / nsched; the outputs are per
 * scheduler in local numbering, ready to drive ws.
 *
 * The LD/ST unit takes one instruction per cycle: out.s[k].ready_mem are the ready slots
 * whose head is a memory instruction. When an earlier scheduler issued a memory instruction
 * this cycle, the SM masks them out of scheduler k's ready set (a later point of the same
 * cycle), and iss_class_of() gives the cycle's class: a scheduler that did not issue is
 * charged its best class, where "best" ranks ready > structural > short dependence > long
 * memory > SIMT stack > barrier > I-buffer > no warp.
 *
 * Timing: the issue port takes the instructions issued in the previous cycle (the SM's issue
 * latch), the release port this cycle's writebacks; the outputs reflect both (a result
 * written back in cycle t makes its warp ready in t, a load issued in t-1 counts as in flight
 * in t). Barrier flags set by an issue in t-1 are seen in t; a barrier release (bar's output
 * in t) clears them in t.
 */
#ifndef ISS_H
#define ISS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/slotmask.h"

#define ISS_MAX_SCHED 4            /* schedulers per SM */
#define ISS_MAX_REL   8            /* writebacks per cycle (sb's release ports) */
#define ISS_NO_CTX    0xFFu        /* ctx_cta of a context not in use */

/* Why a scheduler did not issue, one per scheduler cycle; the order is the report order of
   the statistics (scheduler_cycles; their names: gpu/stats.h gs_stall_names). */
enum iss_class {
    ISS_ISSUED = 0, ISS_NO_WARP, ISS_IBUF, ISS_SHORT_DEP, ISS_LONG_MEM, ISS_STRUCT,
    ISS_BARRIER, ISS_STACK, ISS_NCLASS
};

struct iss_cfg {
    uint8_t  nslots;               /* schedulable slots, 1..SM_MAX_SLOTS */
    uint8_t  nsched;               /* schedulers, 1..ISS_MAX_SCHED */
    uint16_t nctx;                 /* contexts, 1..SM_MAX_CTX */
    uint8_t  nctas;                /* CTA slots, 1..SM_MAX_CTAS */
    uint8_t  progress;             /* 1: keep the progress counters (a key generator reads them) */
    uint8_t  tally;                /* 1: count valid and memory-stalled slots per CTA (VT's
                                      tracking counters, out.nstall / out.nlive) */
};

struct iss_regs {
    uint16_t loads[SM_MAX_CTX];    /* [8:0] per context: load destinations in flight */
    uint8_t  at_bar[SM_MAX_CTX];   /* [0]   per context: waiting at a barrier */
    uint16_t pend[SM_MAX_CTAS];    /* [13:0] per CTA: destination registers not written back */
    /* progress counters (cfg.progress); with at_bar and nbar they are also wired out as
       registered outputs: the SM top feeds them to pas and ntb (sm_vtw.c) */
    uint32_t insns[SM_MAX_CTX];    /* [31:0] per context: warp instructions issued (under VTW:
                                      since its last nexttbid, the current iteration) */
    uint32_t prog[SM_MAX_CTAS];    /* [31:0] per CTA: the sum of its contexts' insns */
    uint8_t  nbar[SM_MAX_CTAS];    /* [5:0]  per CTA: contexts waiting at a barrier */
};

struct iss_issue {                 /* one instruction issued in the previous cycle */
    uint8_t v;                     /* [0] */
    uint8_t ctx;                   /* [7:0] its context (VWI) */
    uint8_t ndst;                  /* [2:0] destination registers it will write back */
    uint8_t load;                  /* [0]   they come from the LD/ST unit (long latency) */
    uint8_t bar;                   /* [0]   it waits at a barrier */
    uint8_t iter;                  /* [0]   VTW's nexttbid: the context's progress restarts */
};

struct iss_rel {                   /* one destination register written back this cycle */
    uint8_t v;                     /* [0] */
    uint8_t ctx;                   /* [7:0] */
    uint8_t load;                  /* [0]   it was a load's */
};

struct iss_in {
    slotmask valid;                /* slots holding a live, unfinished warp */
    slotmask fresh;                /* slots that received a warp this cycle */
    slotmask head_ok;              /* I-buffer head valid and at the SIMT stack's pc */
    slotmask busy;                 /* SIMT stack busy */
    slotmask hazard;               /* scoreboard: the head has a pending source/destination */
    slotmask head_mem;             /* the head goes to the LD/ST unit (where head_ok) */
    slotmask hold;                 /* VTW: the head waits for the previous iteration (pas) */
    uint8_t  head_unit[SM_MAX_SLOTS];  /* [1:0] enum fu_unit of the head (where head_ok) */
    uint8_t  slot_ctx[SM_MAX_SLOTS];   /* [7:0] context held by the slot (where valid) */
    uint8_t  ctx_cta[SM_MAX_CTX];      /* [7:0] CTA slot of each context, ISS_NO_CTX if unused */
    uint8_t  unit_free[ISS_MAX_SCHED]; /* [3:0] per scheduler: units that accept now (fu) */
    uint8_t  fu_full;              /* [0] the result queue cannot take another result */
    uint8_t  ldst_ready;           /* [0] the LD/ST unit can take an instruction */
    struct iss_issue issued[ISS_MAX_SCHED];
    struct iss_rel   rel[ISS_MAX_REL];
    uint64_t bar_release;          /* CTAs whose barrier released (bar's output this cycle) */
    uint64_t cta_launch;           /* CTA slots launched this cycle: their counters clear */
};

struct iss_sched {                 /* one scheduler, local slot numbering */
    slotmask valid, ready, fresh;  /* drive ws */
    slotmask lstall;               /* stalled on a long-latency load or waiting at a barrier:
                                      ws TWOLEVEL moves it out of the active set (a barrier
                                      wait that stayed there could keep the warps it waits for
                                      out of the set for ever) */
    slotmask ready_mem;            /* ready slots whose head is a memory instruction */
    uint8_t  best;                 /* [2:0] best class of its non-ready valid slots */
};

struct iss_out {
    struct iss_sched s[ISS_MAX_SCHED];
    uint64_t quiet;                /* CTA slots with no result outstanding */
    uint64_t memstall;             /* progress, tally: CTAs whose every valid slot is ISS_LONG_MEM */
    uint8_t  nstall[SM_MAX_CTAS];  /* [5:0] tally: per CTA, its valid slots classed ISS_LONG_MEM */
    uint8_t  nlive[SM_MAX_CTAS];   /* [5:0] tally: per CTA, its valid slots */
};

/* What issue needs of one instruction, decoded once per program (the decoder's output). */
#define ISS_MAX_DST 4
#define ISS_MAX_CHK 8
enum iss_path { ISS_PATH_NONE = 0, ISS_PATH_FIXED, ISS_PATH_MEM };
struct iss_dec {
    uint8_t  unit;                 /* enum fu_unit */
    uint8_t  path;                 /* enum iss_path */
    uint8_t  ndst, nchk;
    uint8_t  late;                 /* 1: the result comes later through the late-write port */
    uint32_t lat, ii;              /* fixed latency and initiation interval */
    uint16_t dst[ISS_MAX_DST];     /* registers written */
    uint16_t chk[ISS_MAX_CHK];     /* registers the scoreboard checks (sources + destinations) */
};
struct gpu_config;
struct ptx_insn;
void iss_decode(const struct gpu_config *c, const struct ptx_insn *in, struct iss_dec *d);

void iss_cfg_default(struct iss_cfg *c);
int  iss_cfg_check(const struct iss_cfg *c, char *err, size_t errlen);
void iss_reset(const struct iss_cfg *c, struct iss_regs *r);
void iss_eval(const struct iss_cfg *c, const struct iss_regs *q, const struct iss_in *in,
              struct iss_out *out, struct iss_regs *d);
/* Copies d to q (the per-context arrays up to nctx, the per-CTA ones up to nctas). */
void iss_commit(const struct iss_cfg *c, struct iss_regs *q, const struct iss_regs *d);

/* The class a scheduler is charged for a cycle: issued, or -- when it did not -- its best
   class given whether an earlier scheduler took the LD/ST unit this cycle. */
static inline enum iss_class iss_class_of(const struct iss_sched *s, int issued, int mem_taken)
{
    slotmask ready = mem_taken ? s->ready & ~s->ready_mem : s->ready;
    if (issued || ready)
        return ISS_ISSUED;
    if (mem_taken && s->ready_mem)
        return ISS_STRUCT;
    return (enum iss_class)s->best;
}

/* Registry entry points (model/base/blocks.def). */
uint32_t iss_instances(const struct gpu_config *c);
void iss_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct iss_cfg *out);
struct cost_list;
void iss_storage(const struct iss_cfg *c, struct cost_list *l);

#endif
