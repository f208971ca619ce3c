/*
 * sm_vtw.c -- the SM top's wiring of VTW's hardware form (000_0da6b8b480bd0740.txt Sections
 * 4.2-4.4; vtw = hw): the next-TB-index unit (ntb) takes the nexttbid / nextidxinblk issues of
 * the previous cycle and the GPU counter (sm_io gnext/gtake), its replies go through the
 * late-write queue; the progress-aware scheduler's iteration registers (pas) say which
 * contexts are one iteration ahead of a sibling, and the issue stage holds their nexttbid,
 * shared-memory and barrier instructions (iss `hold`, charged as barrier cycles). Also the
 * statistics of the scheduler's picks (vtw_count: which class, what decided, how often not
 * GTO's or the oldest warp's choice). Under vtw = hw the SM reports logical TBs instead of
 * CTAs as its finished TBs (flag SM_MECH_OWN_TBS: the divergence and stall figures per logical
 * TB, func/probe.h).
 * Not a block: wiring only (the blocks are ntb.c and pas.c), plugged into the SM top through
 * the mechanism interface (sm_mech.h: sm_mech_vtw). time_skip (sm_sleep.c): ntb's reply
 * pipeline head moves each cycle: compared but for it (ntb_drift), moved on by the cycles slept
 * (ntb_skip); a reply in flight is a next event (ntb_next_event); a change of the GPU's
 * slow-phase bit (sm_io gphase, pas's input) ends a run and wakes the SM.
 */
#include <stdio.h>
#include <string.h>
#include "sm.h"
#include "ntb.h"
#include "pas.h"
#include "base/cost.h"

struct vtw {
    struct ntb_req latch[NTB_PORTS];   /* nexttbid/nextidxinblk issued last cycle */
    struct ntb_in in;
    uint32_t inflight;             /* requests not yet answered */
    struct sm_tb done[SM_MAX_SCHED];   /* logical TBs finished this cycle */
    uint32_t ndone;
    struct pas_in pas_in;
    uint8_t  last[SM_MAX_SCHED];   /* statistics only: each scheduler's last issued local
                                      slot + 1 (0: none), GTO's greedy choice */
    struct probe_ltb ltb[SM_MAX_CTAS][2];  /* each CTA slot's logical TBs being measured */
};

static int vtw_selected(const struct gpu_config *c)
{
    return c->vtw == VTW_HW;
}

/* Called at issue for an instruction whose value comes from the unit: the request is latched
   for the next cycle (one port per scheduler). */
static int vtw_request(struct sm *s, void *st, uint32_t sched, uint32_t x,
                       const struct ptx_insn *in, uint32_t mask)
{
    struct vtw *v = st;
    struct ntb_req *r = &v->latch[sched];
    r->v = 1;
    r->op = in->op == OP_NEXTTB ? NTB_OP_TB : NTB_OP_IDX;
    r->cta = s->ctx[x].cta;
    r->ctx = (uint8_t)x;
    r->warp = s->ctx[x].widx;
    r->reg = (uint16_t)in->opd[0].reg;
    r->mask = mask;
    return 1;
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
static void vtw_step(struct sm *s, void *st, struct sm_io *io)
{
    struct vtw *v = st;
    struct ntb_in *in = &v->in;
    struct ntb_out out;
    memcpy(in->req, v->latch, sizeof in->req);
    memset(v->latch, 0, sizeof v->latch);
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
        v->inflight += in->req[k].v;
        if (out.rep[k].v) {
            v->inflight--;
            push_reply(s, &out.rep[k]);
        }
    }
}

/* A CTA starts: the unit forgets its slot's index; its warps must hold consecutive contexts;
   its logical TBs are not measured yet. */
static void vtw_launch(struct sm *s, void *st, uint32_t c, int act)
{
    struct vtw *v = st;
    const uint16_t *ctx = s->ctas[c].ctx;
    uint32_t nw = s->ctas[c].nwarps;
    (void)act;
    memset(v->ltb[c], 0, sizeof v->ltb[c]);
    for (uint32_t i = 1; i < nw; i++)
        if (ctx[i] != ctx[0] + i) {
            snprintf(s->err, sizeof s->err, "SM %u: VTW needs a CTA's contexts consecutive "
                     "(CTA slot %u got %u then %u)", s->p.id, c, ctx[0], ctx[i]);
            s->failed = 1;
            return;
        }
    v->in.launch_v = 1;
    v->in.launch_cta = (uint8_t)c;
    v->in.launch_base = (uint8_t)ctx[0];
}

/* The progress-aware scheduler's cycle: the previous cycle's issues (nexttbid moves a warp to
   its next iteration), this cycle's launches, the contexts and CTAs, the issue stage's
   registered progress counters, the GPU's slow-phase bit. Its keys drive ws under
   sched_policy = vtw; its ahead output drives the hold. */
static void vtw_pas(struct sm *s, struct vtw *v)
{
    struct pas_in *in = &v->pas_in;
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
    in->slow = s->gphase;
    sm_rec(s, BLKID_pas, 0, in, sizeof *in);
    pas_eval(s->pas_c, s->pas_q, in, s->pas_o, s->pas_d);
}

/* Is context x one iteration ahead of a sibling? (pas's iteration registers) */
static int ahead(const struct sm *s, uint32_t x)
{
    return pas_has(s->pas_o->ahead, x);
}

/* Before the issue stage: pas's cycle, then the hold mask: slots whose I-buffer head a context
   one iteration ahead may not issue yet (func/tbidx.h tbidx_held). */
static slotmask vtw_hold(struct sm *s, void *st)
{
    slotmask hold = 0, tmp;
    unsigned w;
    vtw_pas(s, st);
    for (SLOT_EACH(w, s->fetch_o->head_ok, tmp)) {
        uint32_t x = s->slot_ctx[w];
        if (ahead(s, x) && tbidx_held(&s->p.prog->insns[s->fetch_o->head_pc[w]],
                                        (int)s->p.conf->vtw_smem_hold))
            hold |= slot_bit(w);
    }
    return hold;
}

/* Context x issued nexttbid: the logical TB it was working on may be complete (all its warps
   left it); its record joins this cycle's finished TBs (vtw_tbs hands them to sm_retire). */
static void vtw_iter(struct sm *s, void *st, uint32_t port, uint32_t w, uint32_t x, uint32_t pc)
{
    struct vtw *v = st;
    uint32_t c = s->ctx[x].cta;
    struct probe_ltb t;
    (void)port;
    (void)w;
    if (s->p.prog->insns[pc].op != OP_NEXTTB ||
        !probe_iter(&s->probe, x, v->ltb[c], s->ctas[c].nwarps, s->now, &t) ||
        v->ndone >= SM_MAX_SCHED)
        return;
    v->done[v->ndone++] = (struct sm_tb){ t.cyc_lo, t.cyc_hi, t.stall_life, t.stall_dwr };
}

/* This cycle's finished logical TBs. */
static void vtw_tbs(struct sm *s, void *st, struct sm_tb *tbs, uint32_t *nfin)
{
    struct vtw *v = st;
    (void)s;
    for (uint32_t i = 0; i < v->ndone; i++)
        tbs[(*nfin)++] = v->done[i];
    v->ndone = 0;
}

/* Slot w's warp (context x) finished: it leaves its logical TB. */
static void vtw_warp_done(struct sm *s, void *st, uint32_t w, uint32_t x)
{
    struct vtw *v = st;
    (void)w;
    probe_iter_exit(&s->probe, x, v->ltb[s->ctx[x].cta]);
}

/* n stall cycles of CTA slot c: its open logical TBs' too. */
static void vtw_stall(struct sm *s, void *st, uint32_t c, uint64_t n)
{
    struct vtw *v = st;
    (void)s;
    for (uint64_t i = 0; i < n; i++)
        probe_iter_stall(v->ltb[c]);
}

/* Algorithm 1's keys from pas under sched_policy = vtw (vtw_keys = zero: every key 0). */
static void vtw_keys(struct sm *s, void *st, uint32_t k, struct ws_in *in)
{
    (void)st;
    if (s->p.conf->sched_policy != SCHED_VTW)
        return;
    for (uint32_t j = 0, w = k; w < s->nslots; j++, w += s->nsched)
        in->prio[j] = s->slot_ctx[w] != SM_NO_CTX && s->p.conf->vtw_keys == VTW_KEYS_ALG1
                      ? s->pas_o->key[s->slot_ctx[w]] : 0;
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
static void vtw_count(struct sm *s, void *st, uint32_t k, const struct ws_in *in,
                      const struct ws_out *out)
{
    struct vtw *v = st;
    slotmask rdy = in->ready & in->valid, t;
    unsigned j, pick = 0, last = v->last[k];
    uint16_t kp = 0;
    if (s->p.conf->sched_policy != SCHED_VTW || !out->issue_v)
        return;
    v->last[k] = (uint8_t)(out->issue_slot + 1);
    s->s.vtw_issue_class[s->gphase ? 4 : pas_key(s, k, out->issue_slot) >> 14]++;
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
    if (s->gphase) {
        s->s.vtw_slow_contested++;
        s->s.vtw_slow_not_gto += pick != gto;
        s->s.vtw_slow_not_oldest += pick != old;
    } else {
        s->s.vtw_fast_contested++;
        s->s.vtw_fast_not_gto += pick != gto;
        s->s.vtw_fast_not_oldest += pick != old;
    }
}

/* ------------------------------------------------------------------ time_skip */

static int vtw_busy(const struct sm *s, const void *st)
{
    (void)s;
    return ((const struct vtw *)st)->inflight != 0;
}

static int vtw_drift(const struct sm *s, const void *st)
{
    (void)st;
    return ntb_drift(s->ntb_c, s->ntb_q, s->ntb_d);
}

static void vtw_skip(struct sm *s, void *st, uint64_t n)
{
    (void)st;
    ntb_skip(s->ntb_c, s->ntb_q, n);
    ntb_skip(s->ntb_c, s->ntb_d, n);
}

static uint64_t vtw_next_event(const struct sm *s, const void *st, uint64_t now)
{
    (void)st;
    return ntb_next_event(s->ntb_c, s->ntb_q, now);
}

/* CHECK=1: what a quiet cycle may change -- the GPU's counter (read only by a request) and
   the open logical TBs' stall cycles. */
static void vtw_neutral(void *st)
{
    struct vtw *v = st;
    v->in.gnext = 0;
    for (uint32_t c = 0; c < SM_MAX_CTAS; c++)
        for (unsigned i = 0; i < 2; i++)
            v->ltb[c][i].stall_life = v->ltb[c][i].stall_dwr = 0;
}

/* ------------------------------------------------------------------ storage */

/* The wiring's registers (ntb's and pas's are theirs): the request latch (one per
   scheduler, struct ntb_req), the count of requests in flight, and the late-write queue its
   replies wait in for a writeback port (the SM's; only VTW's unit fills it). A reply is a
   32-bit value per lane (ntb_rep), so the queue holds 32 bits per lane. The logical TBs'
   measurements and the scheduler's statistics are not hardware. */
static void vtw_storage(const struct gpu_config *c, struct cost_list *l)
{
    static const char *const m = "late values (VTW, 000)";
    cost_add(l, (struct cost_item){.name = "vtw_req", .mech = m,
                                   .entries = c->schedulers_per_sm,
                                   .bits = 1 + 1 + 6 + 8 + 5 + 16 + 32, .rports = COST_PAR,
                                   .wports = 1, .onchip = 1, .note = "struct ntb_req"});
    cost_add(l, (struct cost_item){.name = "vtw_inflight", .mech = m, .entries = 1,
                                   .bits = cost_clog2(SM_LATEQ + 1), .rports = 1, .wports = 1,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "lateq.head", .mech = m, .entries = SM_LATEQ,
                                   .bits = 8 + 16 + 32, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "VWI, register, lanes"});
    cost_add(l, (struct cost_item){.name = "lateq.val", .mech = m, .entries = SM_LATEQ,
                                   .bits = 32 * 32, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "32 lanes x 32 bits (ntb's replies)"});
    cost_add(l, (struct cost_item){.name = "lateq_ptr", .mech = m, .entries = 1,
                                   .bits = cost_fifo_bits(SM_LATEQ), .rports = COST_PAR,
                                   .wports = 1, .onchip = 1});
}

const struct sm_mech sm_mech_vtw = {
    .name = "vtw", .flags = SM_MECH_OWN_TBS, .drift_blocks = 1ull << BLKID_ntb,
    .state_size = sizeof(struct vtw), .selected = vtw_selected,
    .cta_launched = vtw_launch, .warp_done = vtw_warp_done, .tbs = vtw_tbs, .stall = vtw_stall,
    .late_src = vtw_step, .hold = vtw_hold, .keys = vtw_keys, .picked = vtw_count,
    .issued = vtw_iter, .late = vtw_request, .busy = vtw_busy, .drift = vtw_drift,
    .skip = vtw_skip, .next_event = vtw_next_event, .neutral = vtw_neutral,
    .storage = vtw_storage,
};
