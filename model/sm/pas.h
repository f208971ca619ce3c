/*
 * pas.h -- VTW's progress-aware scheduler: the iteration tracker of the virtual TBs and the
 * priority-key generator of Algorithm 1 (000_0da6b8b480bd0740.txt Sections 4.3.2, 4.4, 4.5).
 * One instance per SM when `vtw = hw`.
 *
 * Hardware it stands for: the scheduler storage of Section 4.5 -- per warp its iteration of
 * the wrapper while loop (WWL), per virtual TB its lowest active iteration and the number of
 * its warps already in the next one -- and the sorting logic of Algorithm 1 that turns these
 * and the issue stage's progress counters (iss.h: instructions per warp in its iteration and
 * per TB, warps at a barrier) into one 16-bit key per context for the warp schedulers'
 * highest-key policy (ws WS_PRIO: the eligible slot with the highest key issues, ties go to
 * the oldest). A virtual TB is a CTA slot, a virtual warp a context; a warp enters its next
 * iteration when it issues `nexttbid`.
 *
 * Iteration tracking (per issue event with ntb = 1, in scheduler order): iter[ctx]++; if the
 * context was at its TB's low: nnext[cta]++, and when nnext reaches the TB's warp count
 * (cta_nw), low[cta]++ and nnext[cta] = 0. The warps of a virtual TB are at most one
 * iteration apart (Section 4.2.1): iter is low or low + 1, and nnext counts the warps at
 * low + 1. That is all these registers can represent: the SM must hold the nexttbid of a warp
 * that is already ahead (output `ahead`), else iter reaches low + 2, which no register counts.
 * An issue of a context at or above nctx, or with no CTA slot (ctx_cta >= nctas), is ignored.
 * A CTA slot launched this cycle clears its low and nnext and its contexts' iter.
 *
 * Keys (combinational; key = class << 14 | (63 - TB rank) << 8 | (255 - warp rank)). A rank
 * is the number of entries that sort before (counted, as hardware would); every remaining tie
 * goes to the lower CTA slot / the lower context. Only valid contexts (ctx_valid, with a CTA
 * slot below nctas) take part; a TB takes part when one of its contexts does; other keys are 0.
 * Fast phase (slow = 0), Algorithm 1, TB states: Barrier (nbar > 0), DiffIter (nnext > 0, not
 * Barrier), SameIter (nnext = 0, not Barrier):
 *   class 3  Barrier TBs: more warps waiting first, then more TB progress (sortBarTbs); in the
 *            TB the warps not waiting first, then less warp progress (sortBarTbWarps)
 *   class 2  DiffIter TBs, warps at the lower iteration (iter = low): fewer lower-iteration
 *            warps (cta_nw - nnext) first (sortDiffIterTbs); in the TB less progress first
 *   class 1  SameIter TBs: more TB progress first; in the TB more warp progress first
 *   class 0  DiffIter TBs, warps at the higher iteration: more of them (nnext) first
 *            (sortDiffIterTbs2); in the TB less progress first
 * TB ranks count within the class's TB set (Barrier, DiffIter, SameIter); warp ranks within
 * the TB and class. Slow phase (slow = 1, the last logical TB index handed out): class 0 for
 * all; TBs with less progress first, in the TB warps with less progress first.
 * Output ahead[ctx] = valid and iter != low of its TB: the warp is in the next iteration, so
 * the SM holds its nexttbid, shared-memory and barrier instructions (Sections 4.2.1, 4.4).
 *
 * Ports: in: the previous cycle's issue per scheduler {v, ctx, ntb}; cta_launch; ctx_cta,
 * cta_nw, ctx_valid; from iss insns, prog, at_bar, nbar; slow. out: key[ctx], ahead.
 * A port reads only the bits its width comment declares (cta_nw [5:0], v [0], ...).
 * Latency: as kgen -- the issues of cycle t-1 (the SM's issue latch, presented in cycle t)
 * and the launches of cycle t are applied into d, and the outputs of cycle t are computed from
 * d: a nexttbid issued in t-1 moves its warp's class and ahead in t; q takes d at the edge.
 */
#ifndef PAS_H
#define PAS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/slotmask.h"

#define PAS_MAX_SCHED 4
#define PAS_NO_CTA    0xFFu                /* ctx_cta of a context not in use */
#define PAS_CTX_WORDS (SM_MAX_CTX / 64)    /* 64-bit words of a mask over the contexts */

struct pas_cfg {
    uint16_t nctx;                 /* contexts, 1..SM_MAX_CTX (warp rank: 8 bits) */
    uint8_t  nctas;                /* CTA slots (virtual TBs), 1..SM_MAX_CTAS (TB rank: 6 bits) */
    uint8_t  nsched;               /* schedulers (issue ports), 1..PAS_MAX_SCHED */
};

struct pas_regs {
    uint32_t iter[SM_MAX_CTX];     /* [31:0] per context: its WWL iteration */
    uint32_t low[SM_MAX_CTAS];     /* [31:0] per CTA slot: lowest iteration of its warps */
    uint8_t  nnext[SM_MAX_CTAS];   /* [7:0]  per CTA slot: its warps in iteration low + 1 */
};

struct pas_issue {                 /* one instruction issued in the previous cycle */
    uint8_t v;                     /* [0] */
    uint8_t ctx;                   /* [7:0] its context */
    uint8_t ntb;                   /* [0] it was nexttbid: the warp enters its next iteration */
};

struct pas_in {
    struct pas_issue issued[PAS_MAX_SCHED];
    uint64_t cta_launch;                 /* CTA slots launched this cycle */
    uint8_t  ctx_cta[SM_MAX_CTX];        /* [7:0] CTA slot of each context, PAS_NO_CTA unused */
    uint8_t  cta_nw[SM_MAX_CTAS];        /* [5:0] warps of each CTA */
    uint64_t ctx_valid[PAS_CTX_WORDS];   /* contexts holding a live warp (bit c % 64 of word c / 64) */
    uint32_t insns[SM_MAX_CTX];          /* [31:0] iss: warp instructions in its iteration */
    uint32_t prog[SM_MAX_CTAS];          /* [31:0] iss: the sum over the CTA's warps */
    uint8_t  at_bar[SM_MAX_CTX];         /* [0]    iss: the warp waits at a barrier */
    uint8_t  nbar[SM_MAX_CTAS];          /* [5:0]  iss: warps of the CTA at a barrier */
    uint8_t  slow;                       /* [0] slow phase: the last logical TB index is out */
};

struct pas_out {
    uint16_t key[SM_MAX_CTX];            /* [15:0] per context: this cycle's priority */
    uint64_t ahead[PAS_CTX_WORDS];       /* contexts in the next iteration (iter != low) */
};

/* Mask helpers over the contexts. */
static inline int pas_has(const uint64_t *m, unsigned c)
{
    return (int)(m[c / 64] >> (c % 64) & 1u);
}
static inline void pas_set(uint64_t *m, unsigned c)
{
    m[c / 64] |= 1ull << (c % 64);
}

void pas_cfg_default(struct pas_cfg *c);
int  pas_cfg_check(const struct pas_cfg *c, char *err, size_t errlen);
void pas_reset(const struct pas_cfg *c, struct pas_regs *r);
void pas_eval(const struct pas_cfg *c, const struct pas_regs *q, const struct pas_in *in,
              struct pas_out *out, struct pas_regs *d);
void pas_commit(const struct pas_cfg *c, struct pas_regs *q, const struct pas_regs *d);

/* Registry entry points (model/base/blocks.def): one instance when `vtw = hw`. */
struct gpu_config;
struct cost_list;
uint32_t pas_instances(const struct gpu_config *c);
void pas_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct pas_cfg *out);
void pas_storage(const struct pas_cfg *c, struct cost_list *l);
void pas_rtl_params(const struct pas_cfg *c, FILE *f);

#endif
