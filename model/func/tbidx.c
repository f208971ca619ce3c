/*
 * tbidx.c -- VTW's next-TB-index function (see tbidx.h; 000_0da6b8b480bd0740.txt Section 4.2),
 * which the timing model's unit (sm/ntb.c) and the functional runner (funcsim.c) both call.
 */
#include "tbidx.h"

void tbidx_launch(const struct tbidx_regs *r, uint8_t cta, uint8_t base, uint8_t nw)
{
    r->map[cta] = TBIDX_NONE;
    r->cnt[cta] = 0;
    r->lh[cta] = 0;
    for (unsigned i = 0; i < nw && base + i < SM_MAX_CTX; i++)
        r->lw[base + i] = (uint8_t)i;
}

/* SlowestLane: rank the TB's full warps by progress (fewest instructions first, ties by the
   lower warp index) and store the warp indices they hold in that order. A rank is a count of
   the warps that sort before, as a comparator array would compute it. */
static void slowest_snapshot(const struct tbidx_regs *r, uint8_t base, uint8_t nfull,
                             const uint32_t *prog)
{
    for (unsigned i = 0; i < nfull; i++) {
        unsigned rank = 0;
        for (unsigned j = 0; j < nfull; j++)
            rank += prog[base + j] < prog[base + i] ||
                    (prog[base + j] == prog[base + i] && j < i);
        r->order[base + rank] = r->lw[base + i];
    }
}

/* The warp index a full warp takes with the newest TB index. */
static void take_lane(const struct tbidx_regs *r, unsigned lane, const struct tbidx_req *q,
                      uint8_t base)
{
    if (lane == TBIDX_SAME || q->warp >= q->nfull)
        return;                           /* a partial warp keeps its index */
    r->lw[q->ctx] = lane == TBIDX_LOWEST ? r->lh[q->cta] : r->order[base + r->lh[q->cta]];
    r->lh[q->cta]++;
}

uint32_t tbidx_serve(const struct tbidx_regs *r, unsigned lane, const struct tbidx_req *q,
                     int *took)
{
    uint8_t base = (uint8_t)(q->ctx - q->warp);
    *took = 0;
    if (q->op == TBIDX_IDX)
        return (uint32_t)r->lw[q->ctx] * 32u;
    if (r->cnt[q->cta] == 0) {            /* the TB's first warp to finish its iteration */
        r->map[q->cta] = q->gnext;
        r->cnt[q->cta] = (uint8_t)(q->nw - 1);
        r->lh[q->cta] = 0;
        *took = 1;
        if (lane == TBIDX_SLOWEST)
            slowest_snapshot(r, base, q->nfull, q->prog);
    } else {
        r->cnt[q->cta]--;
    }
    take_lane(r, lane, q, base);
    return r->map[q->cta];
}
