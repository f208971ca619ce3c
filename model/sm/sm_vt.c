/*
 * sm_vt.c -- the SM top's wiring of VT (004_23e173f444f46134.txt Sections IV-A..D; vt = on):
 * CTAs dispatched beyond the scheduling limit stay inactive (their contexts hold registers,
 * shared memory and VWIs, no slot); the Virtual Thread Controller (vtc) decides which active
 * CTA swaps out and which inactive one comes in, and sequences the swap one warp per cycle;
 * this file executes its commands on the blocks:
 *   fence    the out CTA's slots neither issue (iss valid) nor fetch (fetch pc_v);
 *   save     simt's save port reads warp i's SIMT state (pc, mask, rpc, the on-chip entries)
 *            into the context region (ctx, keyed by context = VWI), sb's count port loads
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
 * vtc as ready and never run. Not a block: wiring only (the block is vtc.c), plugged into the
 * SM top through the mechanism interface (sm_mech.h: sm_mech_vt, flag SM_MECH_INACTIVE).
 * time_skip (sm_sleep.c): a cycle that applies a command vtc registered the cycle before is not
 * quiet (vt_pending: fence, save, restore, load-queue move, the set-VWI a save leaves). vtc
 * decides a swap in the cycle in which an active CTA's live warps all wait on long-latency
 * memory and a ready CTA waits, so a VT SM sleeps only while no swap can start and none is
 * being sequenced -- except while a context beat waits for the shared-memory port.
 */
#include <stdlib.h>
#include <string.h>
#include "sm.h"
#include "sm_limits.h"
#include "vtc.h"
#include "base/cost.h"

struct vt {                        /* the wiring's state: the controller's inputs, the commands */
    struct vtc_in in;
    uint32_t nact;                 /* CTAs holding slots (active, or being filled) */
    uint32_t nrel;                 /* stale writebacks this cycle (in.rel) */
    uint64_t launch, launch_act, done;   /* CTA slots this cycle, for vtc */
    slotmask setvwi, setvwi_next;  /* sb set-VWI this cycle / next cycle */
    uint8_t  setvwi_vwi[SM_MAX_SLOTS];
    uint8_t  pwi[32];              /* the swap's slots by warp index (the out CTA's PWIs) */
    uint8_t  fill, fill_first;     /* the sequence is a fill into slots from ... */
    uint8_t  saving, cnt_v, cnt_slot;    /* a save this cycle: sb's count port */
    uint16_t saved_ctx;
    uint8_t  last_slot[SM_MAX_CTX];      /* the slot each context left at its save */
    struct simt_state *ctx;        /* the context region: each context's saved SIMT state */
};

static int vt_selected(const struct gpu_config *c)
{
    return c->vt == VT_ON;
}

static int vt_init(struct sm *s, void *st, char *err, size_t errlen)
{
    struct vt *v = st;
    v->ctx = calloc(s->nctx, sizeof *v->ctx);
    if (!v->ctx)
        snprintf(err, errlen, "out of host memory for SM %u's VT context region", s->p.id);
    return v->ctx ? 0 : -1;
}

static void vt_free(struct sm *s, void *st)
{
    (void)s;
    free(((struct vt *)st)->ctx);
}

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
static int vt_admit(const struct sm *s, const void *st)
{
    const struct vt *v = st;
    return v->nact < s->p.cta_active && !s->vtc_o->rdy_n && vt_free_run(s) >= 0;
}

/* Dispatch of CTA slot c: active (act) or inactive and never run. */
static void vt_dispatched(struct sm *s, void *st, uint32_t c, int act)
{
    struct vt *v = st;
    (void)s;
    v->launch |= 1ull << c;
    if (act) {
        v->launch_act |= 1ull << c;
        v->nact++;
    }
}

/* An active CTA completed: its position is free (its slots were freed by cta_complete). */
static void vt_completed(struct sm *s, void *st, uint32_t c)
{
    struct vt *v = st;
    (void)s;
    v->done |= 1ull << c;
    v->nact--;
}

/* ------------------------------------------------------------------ commands */

static void vt_save(struct sm *s, struct vt *v, uint32_t k, uint32_t i)
{
    const struct sm_cta *kc = &s->ctas[k];
    uint16_t x = kc->ctx[i];
    uint8_t w;
    if (i == 0)                             /* the out CTA's PWIs, for the in CTA's warps */
        for (uint32_t j = 0; j < kc->nwarps; j++)
            v->pwi[j] = s->ctx[kc->ctx[j]].slot;
    w = v->pwi[i];
    s->simt_in.save_v = 1;
    s->simt_in.save_slot = w;
    v->cnt_v = 1;
    v->cnt_slot = w;
    s->mport.flush |= slot_bit(w);
    s->live &= ~slot_bit(w);
    v->saving = 1;
    v->saved_ctx = x;
}

/* Warp i of CTA k into slot w: restored, or started when the CTA never ran. */
static void vt_restore(struct sm *s, struct vt *v, uint32_t k, uint32_t i, uint32_t w, int fresh)
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
        sm_mech_warp_started(s, w, x);
        return;
    }
    s->simt_in.restore_v = 1;
    s->simt_in.restore_slot = (uint8_t)w;
    s->simt_in.restore = v->ctx[x];
    s->mport.fresh |= slot_bit(w);
    v->setvwi |= slot_bit(w);
    v->setvwi_vwi[w] = (uint8_t)x;
    if (!v->ctx[x].fin)
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
static void vt_apply(struct sm *s, void *st)
{
    struct vt *v = st;
    const struct vtc_out *o = s->vtc_o;
    v->setvwi = v->setvwi_next;
    v->setvwi_next = 0;
    v->saving = v->cnt_v = 0;
    if (o->fence_v)
        s->mport.fence = vt_slots_of(s, o->fence_cta);
    if (o->save_v)
        vt_save(s, v, o->fence_cta, o->save_w);
    if (o->rest_v) {
        uint32_t w = v->fill ? v->fill_first + o->rest_w : v->pwi[o->rest_w];
        vt_restore(s, v, o->rest_cta, o->rest_w, w, o->rest_fresh);
    }
    if (o->ldq_v) {                        /* the out CTA's loads: to the inactive queue */
        const struct sm_cta *k = &s->ctas[o->ldq_cta];
        s->io.ld.swap.v = 1;
        s->io.ld.swap.vwi_lo = (uint8_t)k->ctx[0];
        s->io.ld.swap.n = (uint8_t)k->nwarps;
    }
    s->io.sh.ctx_v = o->ctx_req;
}

/* sb's ports this cycle: the set-VWI a save left, the count port of a save. */
static void vt_sb_ports(struct sm *s, void *st, struct sb_in *in)
{
    struct vt *v = st;
    slotmask tmp;
    unsigned w;
    (void)s;
    in->setvwi |= v->setvwi;
    for (SLOT_EACH(w, v->setvwi, tmp))
        in->setvwi_vwi[w] = v->setvwi_vwi[w];
    in->cnt_v = v->cnt_v;                  /* a saved warp's write-pending bits */
    in->cnt_slot = v->cnt_slot;
}

/* Commands vtc registered in the last cycle for this one (vt_apply: fence, save, restore,
   load-queue move) or a set-VWI a save left: the cycle has something to consume (time_skip,
   sm_sleep.c). A context beat waiting for the port is not one: its grant changes vtc. */
static int vt_pending(const struct sm *s, const void *st)
{
    const struct vt *v = st;
    const struct vtc_out *o = s->vtc_o;
    return o->fence_v || o->save_v || o->rest_v || o->ldq_v || v->setvwi_next;
}

/* After sb: the saved warp's context leaves its slot (writebacks from the next cycle on are
   stale) and the slot takes the in CTA's warp's VWI next cycle. */
static void vt_after_save(struct sm *s, struct vt *v)
{
    uint16_t x = v->saved_ctx;
    uint8_t w = s->ctx[x].slot;
    v->last_slot[x] = w;
    s->ctx[x].slot = SM_NO_SLOT;
    s->slot_ctx[w] = SM_NO_CTX;
    v->setvwi_next |= slot_bit(w);
    v->setvwi_vwi[w] = (uint8_t)s->ctas[s->vtc_o->rest_cta].ctx[s->ctx[x].widx];
}

/* A writeback for a context without a slot (its CTA is inactive): to the slot it left, with
   its VWI -- sb ignores it -- and one pending write fewer for its CTA's counter. */
static void vt_route(struct sm *s, void *st, uint8_t vwi, uint32_t own, struct sb_rel *rel)
{
    struct vt *v = st;
    struct vtc_in *in = &v->in;
    (void)own;
    if (s->ctx[vwi].slot != SM_NO_SLOT)
        return;
    if (v->nrel < SB_MAX_REL) {
        in->rel[v->nrel].v = 1;
        in->rel[v->nrel].cta = s->ctx[vwi].cta;
        v->nrel++;
    }
    s->s.vt_stale_writebacks++;
    *rel = sm_sb_rel(v->last_slot[vwi], vwi, rel->reg);
}

/* ------------------------------------------------------------------ the controller */

static void vt_stats(struct sm *s, const struct vt *v, const struct vtc_out *o,
                     const struct vtc_in *in)
{
    uint32_t inact = s->nctas_res - v->nact;
    s->s.vt_active_sum += v->nact;
    s->s.vt_inactive_sum += inact;
    if (v->nact > s->s.vt_active_ctas_max)
        s->s.vt_active_ctas_max = v->nact;
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

/* After the units: the context region takes a state simt saved this cycle; vtc's inputs of
   this cycle, its evaluation, and the slots a fill takes. */
static void vt_step(struct sm *s, void *st)
{
    struct vt *v = st;
    struct vtc_in *in = &v->in;
    const struct vtc_out *o = s->vtc_o;
    int first;
    if (s->simt_o->saved_v)
        v->ctx[s->simt_o->saved.vwi] = s->simt_o->saved;
    if (v->saving)
        vt_after_save(s, v);
    in->launch = v->launch;
    in->launch_act = v->launch_act;
    in->done = v->done;
    in->nw = (uint8_t)s->nwarps_per_cta;
    in->beats = (uint16_t)s->p.ctx_beats;
    first = vt_free_run(s);
    in->room = v->nact < s->p.cta_active && first >= 0;
    memcpy(in->nstall, s->iss_o->nstall, sizeof in->nstall);
    memcpy(in->nlive, s->iss_o->nlive, sizeof in->nlive);
    in->pend_v = v->saving;
    in->pend_n = s->sb_o->cnt;
    in->grant = s->smem_o->ctx_grant;
    sm_rec(s, BLKID_vtc, 0, in, sizeof *in);
    vtc_eval(s->vtc_c, s->vtc_q, in, s->vtc_o, s->vtc_d);
    s->s.vt_first_runs += o->rest_v && o->rest_fresh && o->rest_w == 0;
    if (o->ev_fill) {                      /* the fill's slots, reserved now */
        v->fill = 1;
        v->fill_first = (uint8_t)first;
        for (uint32_t i = 0; i < s->nwarps_per_cta; i++)
            s->used |= slot_bit((uint32_t)first + i);
        v->nact++;
    } else if (o->ev_out) {
        v->fill = 0;
    }
    vt_stats(s, v, o, in);
    v->launch = v->launch_act = v->done = 0;
    v->nrel = 0;
    memset(in->rel, 0, sizeof in->rel);
}

/* ------------------------------------------------------------------ storage */

/* The wiring's registers (struct vt; the controller's are vtc's, the context region is
   shared memory): the set-VWI latches, the swap's slots by warp index, the fill's first
   slot, the save's count-port latch and context, the slot each context left, the active
   count and the CTA events for vtc. */
static void vt_storage(const struct gpu_config *c, struct cost_list *l)
{
    static const char *const m = "VT command latches (004)";
    uint32_t nslots = sm_slots(c), nctas = sm_cta_slots(c), sb = cost_clog2(nslots);
    cost_add(l, (struct cost_item){.name = "vt_setvwi", .mech = m, .entries = 2,
                                   .bits = nslots, .rports = COST_PAR, .wports = 1,
                                   .onchip = 1, .note = "this cycle's and next cycle's"});
    cost_add(l, (struct cost_item){.name = "vt_setvwi_vwi", .mech = m, .entries = nslots,
                                   .bits = 8, .rports = COST_PAR, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "vt_pwi", .mech = m, .entries = 32, .bits = sb,
                                   .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "the out CTA's slots by warp index"});
    cost_add(l, (struct cost_item){.name = "vt_seq", .mech = m, .entries = 1,
                                   .bits = 1 + sb + 1 + 1 + sb + 8, .rports = COST_PAR,
                                   .wports = 1, .onchip = 1,
                                   .note = "fill, fill's first slot, saving, count port v and "
                                           "slot, saved context"});
    cost_add(l, (struct cost_item){.name = "vt_last_slot", .mech = m, .entries = sm_contexts(c),
                                   .bits = sb, .rports = 2, .wports = 1, .onchip = 1,
                                   .note = "the slot each context left at its save (stale "
                                           "writebacks)"});
    cost_add(l, (struct cost_item){.name = "vt_ctas", .mech = m, .entries = 1,
                                   .bits = cost_clog2(nctas + 1) + 3 * nctas,
                                   .rports = COST_PAR, .wports = 1, .onchip = 1,
                                   .note = "active count; launch, active launch, done masks"});
}

const struct sm_mech sm_mech_vt = {
    .name = "vt", .flags = SM_MECH_INACTIVE, .state_size = sizeof(struct vt),
    .selected = vt_selected, .init = vt_init, .free = vt_free, .admit = vt_admit,
    .cta_launched = vt_dispatched, .cta_done = vt_completed, .begin = vt_apply,
    .route = vt_route, .sb_ports = vt_sb_ports, .end = vt_step, .pending = vt_pending,
    .storage = vt_storage,
};
