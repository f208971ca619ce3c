/*
 * sm_vt.c -- the SM top's wiring of VT (004_23e173f444f46134.txt Sections IV-A..D; vt = on):
 * CTAs dispatched beyond the scheduling limit stay inactive (their contexts hold registers,
 * shared memory and VWIs, no slot); the Virtual Thread Controller (vtc) decides which active
 * CTA swaps out and which inactive one comes in, and sequences the swap one warp per cycle;
 * this file executes its commands on the blocks:
 *   fence    the out CTA's slots neither issue (iss valid) nor fetch (fetch pc_v);
 *   save     simt's save port reads warp i's SIMT state (pc, mask, rpc, the on-chip entries)
 *            into the context region (vt_ctx, keyed by context = VWI), sb's count port loads
 *            its write-pending bits into the VTC counter (pend), fetch flushes its I-buffer;
 *            the slot (PWI) stays reserved for warp i of the in CTA, whose VWI sb takes the
 *            next cycle: from then on a writeback of the old warp carries a VWI that no
 *            longer owns the slot -- sb ignores it and vtc decrements the old CTA's counter;
 *   restore  simt's restore port writes warp i of the in CTA into that slot (or, for a CTA
 *            that never ran, the launch port starts it); iss sees the slot fresh;
 *   ldq      the out CTA's loads move to the inactive load queue (ldst swap port);
 *   ctx_req  a context beat waits for a free shared-memory port cycle (smem ctx_v/ctx_grant).
 * Dispatch: a CTA is active at once when fewer than cta_active CTAs hold slots, a run of W
 * free slots exists and no ready inactive CTA waits (older CTAs first); otherwise it enters
 * vtc as ready and never run. Not a block: wiring only (the block is vtc.c).
 */
#include <string.h>
#include "sm.h"

/* ------------------------------------------------------------------ slots */

/* First slot of a run of W free slots, or -1. */
static int vt_free_run(const struct sm *s)
{
    uint32_t w, run = 0;
    for (w = 0; w < s->nslots; w++) {
        run = slot_has(s->used, w) ? 0 : run + 1;
        if (run == s->nwarps_per_cta)
            return (int)(w + 1 - run);
    }
    return -1;
}

/* Can a CTA dispatched now be active at once? */
int sm_vt_can_activate(const struct sm *s)
{
    return s->vt_nact < s->p.cta_active && !s->vtc_o->rdy_n && vt_free_run(s) >= 0;
}

/* Dispatch of CTA slot c: active (act) or inactive and never run. */
void sm_vt_dispatched(struct sm *s, uint32_t c, int act)
{
    s->vt_launch |= 1ull << c;
    if (act) {
        s->vt_launch_act |= 1ull << c;
        s->vt_nact++;
    }
}

/* An active CTA completed: its position is free (its slots were freed by cta_complete). */
void sm_vt_completed(struct sm *s, uint32_t c)
{
    s->vt_done |= 1ull << c;
    s->vt_nact--;
}

/* ------------------------------------------------------------------ commands */

static void vt_save(struct sm *s, uint32_t k, uint32_t i)
{
    const struct sm_cta *kc = &s->ctas[k];
    uint16_t x = kc->ctx[i];
    uint8_t w;
    if (i == 0)                             /* the out CTA's PWIs, for the in CTA's warps */
        for (uint32_t j = 0; j < kc->nwarps; j++)
            s->vt_pwi[j] = s->ctx[kc->ctx[j]].slot;
    w = s->vt_pwi[i];
    s->simt_in.save_v = 1;
    s->simt_in.save_slot = w;
    s->vt_cnt_v = 1;
    s->vt_cnt_slot = w;
    s->vt_flush |= slot_bit(w);
    s->live &= ~slot_bit(w);
    s->vt_saving = 1;
    s->vt_saved_ctx = x;
}

/* Warp i of CTA k into slot w: restored, or started when the CTA never ran. */
static void vt_restore(struct sm *s, uint32_t k, uint32_t i, uint32_t w, int fresh)
{
    uint16_t x = s->ctas[k].ctx[i];
    struct sm_ctx *cx = &s->ctx[x];
    s->slot_ctx[w] = x;
    s->iss_in.slot_ctx[w] = (uint8_t)x;
    cx->slot = (uint8_t)w;
    s->used |= slot_bit(w);
    if (fresh) {
        uint32_t lanes = s->ex.nthreads - i * 32;
        cx->t_start = s->now;
        s->launch_pending |= slot_bit(w);
        s->launch_mask[w] = lanes >= 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
        s->live |= slot_bit(w);
        return;
    }
    s->simt_in.restore_v = 1;
    s->simt_in.restore_slot = (uint8_t)w;
    s->simt_in.restore = s->vt_ctx[x];
    s->vt_fresh |= slot_bit(w);
    s->vt_setvwi |= slot_bit(w);
    s->vt_setvwi_vwi[w] = (uint8_t)x;
    if (!s->vt_ctx[x].fin)
        s->live |= slot_bit(w);
}

/* The fenced CTA's slots (those of its warps that still hold one). */
static slotmask vt_slots_of(const struct sm *s, uint32_t k)
{
    slotmask m = 0;
    for (uint32_t i = 0; i < s->ctas[k].nwarps; i++) {
        uint8_t w = s->ctx[s->ctas[k].ctx[i]].slot;
        if (w != SM_NO_SLOT)
            m |= slot_bit(w);
    }
    return m;
}

/* Start of the cycle: the commands vtc registered at the end of the previous one. */
void sm_vt_apply(struct sm *s)
{
    const struct vtc_out *o = s->vtc_o;
    s->vt_fence = s->vt_flush = s->vt_fresh = 0;
    s->vt_setvwi = s->vt_setvwi_next;
    s->vt_setvwi_next = 0;
    s->vt_saving = s->vt_cnt_v = 0;
    if (!s->vtc_n)
        return;
    if (o->fence_v)
        s->vt_fence = vt_slots_of(s, o->fence_cta);
    if (o->save_v)
        vt_save(s, o->fence_cta, o->save_w);
    if (o->rest_v) {
        uint32_t w = s->vt_fill ? s->vt_fill_first + o->rest_w : s->vt_pwi[o->rest_w];
        vt_restore(s, o->rest_cta, o->rest_w, w, o->rest_fresh);
    }
    if (o->ldq_v) {                        /* the out CTA's loads: to the inactive queue */
        const struct sm_cta *k = &s->ctas[o->ldq_cta];
        s->io.ld.swap.v = 1;
        s->io.ld.swap.vwi_lo = (uint8_t)k->ctx[0];
        s->io.ld.swap.n = (uint8_t)k->nwarps;
    }
    s->io.sh.ctx_v = o->ctx_req;
}

/* Commands vtc registered in the last cycle for this one (sm_vt_apply: fence, save, restore,
   load-queue move) or a set-VWI a save left: the cycle has something to consume (time_skip,
   sm_sleep.c). A context beat waiting for the port is not one: its grant changes vtc. */
int sm_vt_pending(const struct sm *s)
{
    const struct vtc_out *o = s->vtc_o;
    return s->vtc_n && (o->fence_v || o->save_v || o->rest_v || o->ldq_v || s->vt_setvwi_next);
}

/* After sb: the saved warp's context leaves its slot (writebacks from the next cycle on are
   stale) and the slot takes the in CTA's warp's VWI next cycle. */
static void vt_after_save(struct sm *s)
{
    uint16_t x = s->vt_saved_ctx;
    uint8_t w = s->ctx[x].slot;
    s->vt_last_slot[x] = w;
    s->ctx[x].slot = SM_NO_SLOT;
    s->slot_ctx[w] = SM_NO_CTX;
    s->vt_setvwi_next |= slot_bit(w);
    s->vt_setvwi_vwi[w] = (uint8_t)s->ctas[s->vtc_o->rest_cta].ctx[s->ctx[x].widx];
}

/* A writeback for a context without a slot (its CTA is inactive): to the slot it left, with
   its VWI -- sb ignores it -- and one pending write fewer for its CTA's counter. */
uint8_t sm_vt_stale(struct sm *s, uint8_t vwi)
{
    struct vtc_in *in = &s->vtc_in;
    if (s->vt_nrel < SB_MAX_REL) {
        in->rel[s->vt_nrel].v = 1;
        in->rel[s->vt_nrel].cta = s->ctx[vwi].cta;
        s->vt_nrel++;
    }
    s->s.vt_stale_writebacks++;
    return s->vt_last_slot[vwi];
}

/* ------------------------------------------------------------------ the controller */

static void vt_stats(struct sm *s, const struct vtc_out *o, const struct vtc_in *in)
{
    uint32_t inact = s->nctas_res - s->vt_nact;
    s->s.vt_active_sum += s->vt_nact;
    s->s.vt_inactive_sum += inact;
    if (s->vt_nact > s->s.vt_active_ctas_max)
        s->s.vt_active_ctas_max = s->vt_nact;
    if (inact > s->s.vt_inactive_ctas_max)
        s->s.vt_inactive_ctas_max = inact;
    s->s.vt_swaps += o->ev_out;
    s->s.vt_fills += o->ev_fill;
    s->s.vt_swap_cycles += o->ev_busy;
    s->s.vt_ctx_beats += in->grant;
    s->s.vt_ctx_wait_cycles += s->io.sh.ctx_v && !in->grant;
    s->s.ldq_moved += s->ldst_o->ev_moved;
    s->s.ldq_nomove += s->ldst_o->ev_nomove;
    s->s.ldq_inactive_sum += s->ldst_o->ninact;
    if (s->ldst_o->ninact > s->s.ldq_inactive_max)
        s->s.ldq_inactive_max = s->ldst_o->ninact;
}

/* Step 9: vtc's inputs of this cycle, its evaluation, and the slots a fill takes. */
void sm_vt_step(struct sm *s)
{
    struct vtc_in *in = &s->vtc_in;
    const struct vtc_out *o = s->vtc_o;
    int first;
    if (!s->vtc_n)
        return;
    if (s->vt_saving)
        vt_after_save(s);
    in->launch = s->vt_launch;
    in->launch_act = s->vt_launch_act;
    in->done = s->vt_done;
    in->nw = (uint8_t)s->nwarps_per_cta;
    in->beats = (uint16_t)s->p.vt_beats;
    first = vt_free_run(s);
    in->room = s->vt_nact < s->p.cta_active && first >= 0;
    memcpy(in->nstall, s->iss_o->nstall, sizeof in->nstall);
    memcpy(in->nlive, s->iss_o->nlive, sizeof in->nlive);
    in->pend_v = s->vt_saving;
    in->pend_n = s->sb_o->cnt;
    in->grant = s->smem_o->ctx_grant;
    sm_rec(s, BLKID_vtc, 0, in, sizeof *in);
    vtc_eval(s->vtc_c, s->vtc_q, in, s->vtc_o, s->vtc_d);
    s->s.vt_first_runs += o->rest_v && o->rest_fresh && o->rest_w == 0;
    if (o->ev_fill) {                      /* the fill's slots, reserved now */
        s->vt_fill = 1;
        s->vt_fill_first = (uint8_t)first;
        for (uint32_t i = 0; i < s->nwarps_per_cta; i++)
            s->used |= slot_bit((uint32_t)first + i);
        s->vt_nact++;
    } else if (o->ev_out) {
        s->vt_fill = 0;
    }
    vt_stats(s, o, in);
    s->vt_launch = s->vt_launch_act = s->vt_done = 0;
    s->vt_nrel = 0;
    memset(in->rel, 0, sizeof in->rel);
}
