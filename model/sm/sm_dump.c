/*
 * sm_dump.c -- the deadlock dump of one SM: per slot its context, CTA, warp, pc (FILE:LINE,
 * ptx_where), mask, stack depth, I-buffer, scoreboard and barrier state (the watchdog in
 * model/gpu/gpu.c prints it).
 */
#include <stdio.h>
#include "sm.h"

void sm_dump(const struct sm *s, FILE *f)
{
    fprintf(f, "SM %u:\n", s->p.id);
    for (uint32_t w = 0; w < s->nslots; w++) {
        uint32_t x = s->slot_ctx[w], k, pend = 0;
        const struct sm_ctx *cx;
        char where[320];
        if (x == SM_NO_CTX)
            continue;
        cx = &s->ctx[x];
        for (k = 0; k < SB_WORDS; k++)
            pend += (uint32_t)__builtin_popcountll(s->sb_q->pend[w][k]);
        fprintf(f, "  slot %2u context %u CTA %llu warp %u: pc %u (%s) mask %08x stack depth "
                "%u%s%s, scoreboard %u pending (%u results of the CTA, %u loads in flight), "
                "%s%s\n", w, x, (unsigned long long)s->ctas[cx->cta].id, cx->widx,
                s->simt_o->pc[w], ptx_where(s->p.prog, s->simt_o->pc[w], where, sizeof where),
                s->simt_o->mask[w], simt_depth(s->simt_q, w),
                slot_has(s->simt_o->busy, w) ? " (busy: spill/fill/pop)" : "",
                slot_has(s->fetch_o->head_v, w) ? "" : ", I-buffer empty", pend,
                s->iss_q->pend[cx->cta], s->iss_q->loads[x],
                s->iss_q->at_bar[x] ? "waiting at barrier" : "not at a barrier",
                slot_has(s->live, w) ? "" : ", finished");
    }
}
