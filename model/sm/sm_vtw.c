/*
 * sm_vtw.c -- the SM top's wiring of VTW's hardware form (000_0da6b8b480bd0740.txt Sections
 * 4.2-4.4; vtw = hw): the next-TB-index unit (ntb) takes the nexttbid / nextidxinblk issues of
 * the previous cycle and the GPU counter (sm_io gnext/gtake), its replies go through the
 * late-write queue; the progress-aware scheduler's iteration registers (pas) say which
 * contexts are one iteration ahead of a sibling, and the issue stage holds their nexttbid,
 * shared-memory and barrier instructions (iss `hold`, charged as barrier cycles). Also the
 * statistics of the scheduler's picks (sm_vtw_count: which class, what decided, how often not
 * GTO's or the oldest warp's choice).
 * Not a block: wiring only (the blocks are ntb.c and pas.c).
 */
#include <stdio.h>
#include <string.h>
#include "sm.h"

/* Called at issue for an instruction whose value comes from the unit: the request is latched
   for the next cycle (one port per scheduler). */
void sm_vtw_request(struct sm *s, uint32_t sched, uint32_t x, const struct ptx_insn *in,
                    uint32_t mask)
{
    struct ntb_req *r = &s->ntb_latch[sched];
    r->v = 1;
    r->op = in->op == OP_NEXTTB ? NTB_OP_TB : NTB_OP_IDX;
    r->cta = s->ctx[x].cta;
    r->ctx = (uint8_t)x;
    r->warp = s->ctx[x].widx;
    r->reg = (uint16_t)in->opd[0].reg;
    r->mask = mask;
}

/* A reply becomes a late write (every lane's value); the queue is sized so that it cannot
   overflow while writeback ports drain it -- if it does, the run stops naming it. */
static void push_reply(struct sm *s, const struct ntb_rep *r)
{
    struct sm_late *l;
    if (s->lateq_n >= SM_LATEQ) {
        snprintf(s->err, sizeof s->err, "SM %u: the late-write queue overflowed (ntb replies)",
                 s->p.id);
        s->failed = 1;
        return;
    }
    l = &s->lateq[s->lateq_n++];
    l->v = 1;
    l->vwi = r->ctx;
    l->reg = r->reg;
    l->mask = r->mask;
    for (uint32_t lane = 0; lane < 32; lane++)
        l->val[lane] = (uint32_t)(r->val + (r->addlane ? lane : 0));
}

/* The unit's cycle: requests latched in the previous cycle, the launch of this cycle's CTA,
   the GPU counter; replies due now join the late-write queue. */
void sm_vtw_step(struct sm *s, struct sm_io *io)
{
    struct ntb_in *in = &s->ntb_in;
    struct ntb_out out;
    io->gtake = 0;
    s->vtw_slow = io->vtw_slow;
    if (!s->ntb_n)
        return;
    memcpy(in->req, s->ntb_latch, sizeof in->req);
    memset(s->ntb_latch, 0, sizeof s->ntb_latch);
    in->nw = (uint8_t)s->nwarps_per_cta;
    in->nfull = (uint8_t)(s->ex.nthreads / 32);
    in->gnext = io->gnext;
    if (s->ntb_c->lane == NTB_SLOWEST)
        memcpy(in->prog, s->iss_q->insns, s->nctx * sizeof in->prog[0]);
    sm_rec(s, BLKID_ntb, 0, in, sizeof *in);
    ntb_eval(s->ntb_c, s->ntb_q, in, &out, s->ntb_d);
    in->launch_v = 0;
    io->gtake = out.gtake;
    for (unsigned k = 0; k < NTB_PORTS; k++) {
        s->ntb_inflight += in->req[k].v;
        if (out.rep[k].v) {
            s->ntb_inflight--;
            push_reply(s, &out.rep[k]);
        }
    }
}

/* A CTA starts: the unit forgets its slot's index; its warps must hold consecutive contexts. */
int sm_vtw_launch(struct sm *s, uint32_t c, const uint16_t *ctx, uint32_t nw)
{
    if (!s->ntb_n)
        return 0;
    for (uint32_t i = 1; i < nw; i++)
        if (ctx[i] != ctx[0] + i) {
            snprintf(s->err, sizeof s->err, "SM %u: VTW needs a CTA's contexts consecutive "
                     "(CTA slot %u got %u then %u)", s->p.id, c, ctx[0], ctx[i]);
            s->failed = 1;
            return -1;
        }
    s->ntb_in.launch_v = 1;
    s->ntb_in.launch_cta = (uint8_t)c;
    s->ntb_in.launch_base = (uint8_t)ctx[0];
    return 0;
}

/* The progress-aware scheduler's cycle: the previous cycle's issues (nexttbid moves a warp to
   its next iteration), this cycle's launches, the contexts and CTAs, the issue stage's
   registered progress counters, the GPU's slow-phase bit. Its keys drive ws under
   sched_policy = vtw; its ahead output drives the hold. */
void sm_vtw_pas(struct sm *s)
{
    struct pas_in *in = &s->pas_in;
    if (!s->pas_n)
        return;
    for (unsigned k = 0; k < PAS_MAX_SCHED; k++) {
        const struct iss_issue *e = &s->iss_latch[k];
        in->issued[k] = (struct pas_issue){ e->v, e->ctx, e->iter };
    }
    in->cta_launch = s->cta_launched;
    memset(in->ctx_valid, 0, sizeof in->ctx_valid);
    for (uint32_t x = 0; x < s->nctx; x++) {
        in->ctx_cta[x] = s->iss_in.ctx_cta[x];
        if (s->ctx[x].valid)
            pas_set(in->ctx_valid, x);
    }
    for (uint32_t c = 0; c < s->nctas; c++)
        in->cta_nw[c] = (uint8_t)s->ctas[c].nwarps;
    memcpy(in->insns, s->iss_q->insns, s->nctx * sizeof in->insns[0]);
    memcpy(in->at_bar, s->iss_q->at_bar, s->nctx * sizeof in->at_bar[0]);
    memcpy(in->prog, s->iss_q->prog, s->nctas * sizeof in->prog[0]);
    memcpy(in->nbar, s->iss_q->nbar, s->nctas * sizeof in->nbar[0]);
    in->slow = s->vtw_slow;
    sm_rec(s, BLKID_pas, 0, in, sizeof *in);
    pas_eval(s->pas_c, s->pas_q, in, s->pas_o, s->pas_d);
}

/* Is context x one iteration ahead of a sibling? (pas's iteration registers) */
static int ahead(const struct sm *s, uint32_t x)
{
    return s->pas_n && pas_has(s->pas_o->ahead, x);
}

/* The issue stage's hold mask: slots whose I-buffer head a context one iteration ahead may
   not issue yet (ntb_held). */
slotmask sm_vtw_hold(const struct sm *s)
{
    slotmask hold = 0, tmp;
    unsigned w;
    if (!s->ntb_n)
        return 0;
    for (SLOT_EACH(w, s->fetch_o->head_ok, tmp)) {
        uint32_t x = s->slot_ctx[w];
        if (ahead(s, x) && ntb_held(&s->p.prog->insns[s->fetch_o->head_pc[w]],
                                      (int)s->p.conf->vtw_smem_hold))
            hold |= slot_bit(w);
    }
    return hold;
}

/* Context x issued nexttbid: the logical TB it was working on may be complete (all its warps
   left it); its record joins this cycle's finished TBs (sm_retire hands them to the GPU). */
void sm_vtw_iter(struct sm *s, uint32_t x, uint64_t now)
{
    struct sm_cta *k = &s->ctas[s->ctx[x].cta];
    struct probe_ltb t;
    if (!probe_iter(&s->probe, x, k->ltb, k->nwarps, now, &t) || s->ltb_n >= SM_MAX_SCHED)
        return;
    s->ltb_done[s->ltb_n++] = (struct sm_tb){ t.cyc_lo, t.cyc_hi, t.stall_life, t.stall_dwr };
}

/* ------------------------------------------------------------------ statistics */

/* The key pas gives local slot j of scheduler k (0 without a context). */
static uint16_t pas_key(const struct sm *s, uint32_t k, unsigned j)
{
    uint32_t w = j * s->nsched + k;
    return s->slot_ctx[w] != SM_NO_CTX ? s->pas_o->key[s->slot_ctx[w]] : 0;
}

/* The oldest slot of mask m by scheduler k's age matrix after this cycle's update (ws's d:
   the order its pick used; m non-empty). */
static unsigned oldest(const struct sm *s, uint32_t k, slotmask m)
{
    unsigned j;
    slotmask t;
    for (SLOT_EACH(j, m, t))
        if (!(s->ws_d[k].older[j] & m))
            return j;
    return slot_ctz(m);
}

/* The field of Algorithm 1's key that sets a apart from b: 0 class, 1 TB rank, 2 warp rank,
   3 none (equal keys). */
static unsigned key_field(uint16_t a, uint16_t b)
{
    uint16_t x = a ^ b;
    return x >> 14 ? 0 : x >> 8 ? 1 : x ? 2 : 3;
}

/* Scheduler k issued (sched_policy = vtw): the Algorithm 1 class of the warp issued; with more
   than one ready warp, Algorithm 1's pick (highest key, ties to the oldest: ws's WS_PRIO)
   against the oldest ready warp (the pick with every key 0, vtw_keys = zero): the field of the
   key that made them differ (age: the same warp), and per phase whether the pick is not GTO's
   (the slot issued last while ready and not new, else the oldest ready) and not the oldest.
   Under vtw_keys = zero the same counts describe what Algorithm 1 would have picked. Counts
   only; no block reads them. */
void sm_vtw_count(struct sm *s, uint32_t k, const struct ws_in *in, const struct ws_out *out)
{
    slotmask rdy = in->ready & in->valid, t;
    unsigned j, pick = 0, last = s->vtw_last[k];
    uint16_t kp = 0;
    if (s->p.conf->sched_policy != SCHED_VTW || !out->issue_v)
        return;
    s->vtw_last[k] = (uint8_t)(out->issue_slot + 1);
    s->s.vtw_issue_class[s->vtw_slow ? 4 : pas_key(s, k, out->issue_slot) >> 14]++;
    if (!(rdy & (rdy - 1))) {
        s->s.vtw_decided_by[4]++;
        return;
    }
    unsigned old = oldest(s, k, rdy);
    pick = old;
    kp = pas_key(s, k, old);
    for (SLOT_EACH(j, rdy, t))             /* the oldest is the first of its key's ties */
        if (pas_key(s, k, j) > kp || (pas_key(s, k, j) == kp && j != pick &&
                                      slot_has(s->ws_d[k].older[pick], j))) {
            pick = j;
            kp = pas_key(s, k, j);
        }
    s->s.vtw_decided_by[pick == old ? 3 : key_field(kp, pas_key(s, k, old))]++;
    unsigned gto = last && slot_has(rdy, last - 1) && !slot_has(in->fresh, last - 1) ? last - 1
                   : old;
    if (s->vtw_slow) {
        s->s.vtw_slow_contested++;
        s->s.vtw_slow_not_gto += pick != gto;
        s->s.vtw_slow_not_oldest += pick != old;
    } else {
        s->s.vtw_fast_contested++;
        s->s.vtw_fast_not_gto += pick != gto;
        s->s.vtw_fast_not_oldest += pick != old;
    }
}
