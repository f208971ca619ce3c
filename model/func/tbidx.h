/*
 * tbidx.h -- VTW's next-TB-index function (000_0da6b8b480bd0740.txt Section 4.2): what
 * `nexttbid.u32 d` (the next logical TB index of the warp's virtual TB) and
 * `nextidxinblk.u32 d, a` (the warp's next warp index in the block, x 32 plus the lane) return,
 * one request at a time, and which instructions a warp one iteration ahead of a sibling may
 * not issue.
 *
 * Not a hardware block: the arithmetic both models share. The timing model's next-TB-index
 * unit (sm/ntb.h: its ports, its reply pipeline, its RTL twin rtl/ntb.sv) serves each request
 * it takes with tbidx_serve on its registers; the functional runner (funcsim.c) calls it on
 * registers of its own for the one CTA it runs. The registers are the caller's (struct
 * tbidx_regs points at them): per TB slot the newest logical index (map), the warps still to
 * take it (cnt) and the full warps that took it (lh); per context the warp index it holds (lw)
 * and, per context position, the warp indices slowest first (order). lw and order hold
 * SM_MAX_CTX entries (base/slotmask.h).
 *
 * nexttbid: a request from a TB whose every warp already holds the newest index takes a new
 * one, gnext (the GPU's nextLogTbId; *took = 1) -- the TB's first warp to finish its
 * iteration; its other warps take the one map holds. The warps of a TB are never more than one
 * iteration apart (the caller holds a warp that is ahead at the instructions tbidx_held
 * names), so one map entry per TB is enough.
 * Lane policies (Section 4.2.2), for the warps that hold 32 threads (a last, partial warp keeps
 * its index: its missing lanes have no thread to give):
 *   TBIDX_SAME     the warp keeps its index (nextidxinblk is a move: not asked here).
 *   TBIDX_LOWEST   the k-th full warp to take the new TB index gets warp index k.
 *   TBIDX_SLOWEST  when the TB's first warp takes a new index, the full warps are ranked by
 *                  their progress in the iteration they finish (prog: instructions since
 *                  their last nexttbid; fewest first, ties by lower warp index) and the warp
 *                  indices they hold are stored in that order (order); the k-th full warp to
 *                  take the new index gets order[k] (SlowestLane).
 * nextidxinblk returns the warp index the warp holds x 32 (the caller adds the lane).
 * Contexts: a TB's warps hold consecutive contexts, warp i at base + i.
 */
#ifndef TBIDX_H
#define TBIDX_H
#include <stdint.h>
#include "base/slotmask.h"
#include "ptx/ptx.h"

#define TBIDX_NONE 0xFFFFFFFFu     /* map of a TB slot that has taken no index yet */

enum tbidx_lane { TBIDX_SAME = 0, TBIDX_SLOWEST, TBIDX_LOWEST, TBIDX_NLANE };  /* vtw_lane */
enum tbidx_op { TBIDX_TB = 0, TBIDX_IDX };   /* nexttbid, nextidxinblk */

struct tbidx_regs {                /* the caller's registers (see above) */
    uint32_t *map;                 /* per TB slot */
    uint8_t  *cnt, *lh;            /* per TB slot */
    uint8_t  *lw, *order;          /* per context, SM_MAX_CTX entries */
};

struct tbidx_req {
    uint8_t  op;                   /* enum tbidx_op */
    uint8_t  cta;                  /* TB slot */
    uint8_t  ctx;                  /* the warp's context (= base + warp) */
    uint8_t  warp;                 /* its warp index in the TB */
    uint8_t  nw, nfull;            /* the TB's warps, of which hold 32 threads */
    uint32_t gnext;                /* the GPU's nextLogTbId */
    const uint32_t *prog;          /* per context: instructions in its current iteration */
};

/* One request, applied to r's registers: returns the reply value (TBIDX_IDX: the warp index
   x 32, without the lane); *took = 1 when a new index was taken (= q->gnext), else 0. */
uint32_t tbidx_serve(const struct tbidx_regs *r, unsigned lane, const struct tbidx_req *q,
                     int *took);
/* TB slot cta starts with nw warps at contexts base..: no index yet, every warp holds its own
   warp index. */
void tbidx_launch(const struct tbidx_regs *r, uint8_t cta, uint8_t base, uint8_t nw);

/* The instructions a warp one iteration ahead of a sibling may not issue: the next nexttbid
   (Section 4.2.1: at most one iteration apart; one map entry per TB relies on it) and, with
   `smem` (vtw_smem_hold), shared-memory accesses (Section 4.4; a generic access may reach
   shared memory, so it waits too) and barriers (a barrier of the next iteration must not meet
   a sibling's barrier of the previous one). */
static inline int tbidx_held(const struct ptx_insn *in, int smem)
{
    int mem = in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED;
    return in->op == OP_NEXTTB ||
           (smem && (in->op == OP_BAR || (mem && (in->space == PS_SHARED || in->space == PS_GENERIC))));
}

#endif
