/*
 * sm_cta.c -- the SM's CTA path and slot table: accepting a CTA (contexts, slots, CTA slot),
 * binding each of its warps' contexts to a slot, retiring finished warps (their exits go to
 * the barrier unit as masks per CTA, any number per cycle), completing CTAs once every
 * result is written back, and the SM's cta_ready output. Residency is counted here and only
 * here: the dispatcher offers a CTA only to an SM whose cta_ready is set.
 *
 * Allocation: a CTA takes the lowest free CTA slot, a run of consecutive free slots (first
 * fit) and the lowest free contexts; all are released together when the CTA completes. With
 * one context per slot this binds context n to slot n.
 */
#include <string.h>
#include "sm.h"

/* ------------------------------------------------------------------ allocation */

static int free_slots(const struct sm *s, uint32_t *first)
{
    uint32_t w, run = 0;
    for (w = 0; w < s->nwslots; w++) {           /* warp slots only: a mechanism's are above */
        run = slot_has(s->used, w) ? 0 : run + 1;
        if (run == s->nwarps_per_cta) {
            *first = w + 1 - run;
            return 1;
        }
    }
    return 0;
}

static int free_contexts(const struct sm *s, uint16_t *ctx)
{
    uint32_t x, n = 0;
    for (x = 0; x < s->nctx && n < s->nwarps_per_cta; x++)
        if (!s->ctx[x].valid)
            ctx[n++] = (uint16_t)x;
    return n == s->nwarps_per_cta;
}

/* Can the SM take another CTA now? Residency counts the CTAs that completed in this cycle
   as still resident (the dispatcher learns of a completion one cycle later). */
int sm_can_launch(const struct sm *s)
{
    uint32_t first;
    uint16_t ctx[32];
    return s->nctas_res + s->ndone < s->p.cta_limit && s->nwarps_per_cta <= 32 &&
           ((s->mflags & SM_MECH_INACTIVE) || free_slots(s, &first)) && free_contexts(s, ctx);
}

/* ------------------------------------------------------------------ launch */

static void clear_context(struct sm *s, uint32_t x)
{
    const struct ptx_prog *p = s->p.prog;
    size_t nregs = p->nregs ? p->nregs : 1;
    memset(s->regs + (size_t)x * nregs * EX_WARP, 0, nregs * EX_WARP * sizeof(uint64_t));
    ex_lmem_clear(&s->lmem[x]);
    memset(s->pscratch + (size_t)x * EX_WARP * p->pscratch_size, 0,
           (size_t)EX_WARP * p->pscratch_size);
}

/* Warp i of CTA slot c: context x, in no slot yet. */
static void bind_context(struct sm *s, uint32_t c, uint32_t i, uint32_t x, uint64_t now)
{
    struct sm_ctx *cx = &s->ctx[x];
    memset(cx, 0, sizeof *cx);
    cx->valid = 1;
    cx->cta = (uint8_t)c;
    cx->widx = (uint8_t)i;
    cx->slot = SM_NO_SLOT;
    cx->t_start = now;
    probe_warp_start(&s->probe, x, i * 32u, s->ctas[c].id);
    clear_context(s, x);
    s->iss_in.ctx_cta[x] = (uint8_t)c;
}

/* ... and in slot w: launched (the mechanisms see every warp that takes a slot with its
   context: sm_mech_warp_started). */
static void start_warp(struct sm *s, uint32_t c, uint32_t i, uint32_t x, uint32_t w, uint64_t now)
{
    struct sm_ctx *cx = &s->ctx[x];
    uint32_t lanes = s->ex.nthreads - i * 32;
    bind_context(s, c, i, x, now);
    cx->slot = (uint8_t)w;
    s->slot_ctx[w] = (uint16_t)x;
    s->iss_in.slot_ctx[w] = (uint8_t)x;
    s->launch_pending |= slot_bit(w);
    s->live |= slot_bit(w);
    s->used |= slot_bit(w);
    s->launch_mask[w] = lanes >= 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
    sm_mech_warp_started(s, w, x);
}

int sm_launch_cta(struct sm *s, uint64_t id, uint64_t now)
{
    const struct sm_params *p = &s->p;
    uint32_t c, first = 0, i;
    uint16_t ctx[32];
    struct sm_cta *k;
    int act = 1;
    for (c = 0; c < s->nctas && (s->cta_valid >> c & 1); c++)
        ;
    if (s->mflags & SM_MECH_INACTIVE)      /* active now, or inactive and never run */
        act = sm_mech_admit(s);
    if (c == s->nctas || (act && !free_slots(s, &first)) || !free_contexts(s, ctx))
        return -1;                         /* the dispatcher only offers when cta_ready */
    sm_sleep_wake(s);
    k = &s->ctas[c];
    memset(k, 0, sizeof *k);
    k->valid = 1;
    s->nctas_res++;
    s->cta_valid |= 1ull << c;
    k->id = id;
    k->ctaid[0] = (uint32_t)(id % p->grid.x);
    k->ctaid[1] = (uint32_t)(id / p->grid.x % p->grid.y);
    k->ctaid[2] = (uint32_t)(id / ((uint64_t)p->grid.x * p->grid.y));
    k->nwarps = s->nwarps_per_cta;
    k->t_start = now;
    memset(s->smem + (size_t)c * s->smem_size, 0, s->smem_size);
    for (i = 0; i < k->nwarps; i++) {
        k->ctx[i] = ctx[i];
        if (act)
            start_warp(s, c, i, ctx[i], first + i, now);
        else
            bind_context(s, c, i, ctx[i], now);
    }
    sm_mech_cta_launched(s, c, act);
    s->io.bar.launch_valid = 1;
    s->io.bar.launch_cta = (uint8_t)c;
    s->io.bar.launch_mask = k->nwarps >= 32 ? 0xFFFFFFFFu : (1u << k->nwarps) - 1;
    s->cta_launched |= 1ull << c;
    s->ready_dirty = 1;
    return 0;
}

/* ------------------------------------------------------------------ retire */

/* The TB's cycle divergence and stall figures (its instruction divergence goes through the
   probe). */
static void tb_record(struct sm *s, const struct sm_cta *k, struct sm_tb *tb)
{
    uint32_t idx[32];
    memset(tb, 0, sizeof *tb);
    tb->min_warp_cycles = UINT64_MAX;
    for (uint32_t i = 0; i < k->nwarps; i++) {
        const struct sm_ctx *w = &s->ctx[k->ctx[i]];
        uint64_t cyc = w->t_end - w->t_start;
        tb->min_warp_cycles = cyc < tb->min_warp_cycles ? cyc : tb->min_warp_cycles;
        tb->max_warp_cycles = cyc > tb->max_warp_cycles ? cyc : tb->max_warp_cycles;
        s->s.warp_cycles_max = cyc > s->s.warp_cycles_max ? cyc : s->s.warp_cycles_max;
        idx[i] = k->ctx[i];
    }
    tb->stall_life = k->stall_life;
    tb->stall_dwr = k->stall_dwr;
    probe_tb_retire(&s->probe, idx, k->nwarps);
}

/* A CTA whose warps all finished completes once every result is written back: its
   contexts, slots and CTA slot are free from the next cycle on. */
static void cta_complete(struct sm *s, uint32_t c, struct sm_tb *tbs, uint32_t *nfin)
{
    struct sm_cta *k = &s->ctas[c];
    if (!(s->mflags & SM_MECH_OWN_TBS))    /* else a mechanism reports the TBs */
        tb_record(s, k, &tbs[(*nfin)++]);
    for (uint32_t i = 0; i < k->nwarps; i++) {
        struct sm_ctx *x = &s->ctx[k->ctx[i]];
        if (x->slot != SM_NO_SLOT) {
            s->used &= ~slot_bit(x->slot);
            s->slot_ctx[x->slot] = SM_NO_CTX;
        }
        s->iss_in.ctx_cta[k->ctx[i]] = ISS_NO_CTX;
        x->valid = 0;
        x->slot = SM_NO_SLOT;
    }
    sm_mech_cta_done(s, c);
    s->st->ctas++;
    k->valid = 0;
    s->nctas_res--;
    s->ndone++;
    s->ready_dirty = 1;
    s->cta_valid &= ~(1ull << c);
    s->cta_draining &= ~(1ull << c);
}

/* Warps the SIMT stack reports finished leave (their exits reach bar this cycle); CTAs whose
   warps all finished complete when the issue stage says none of their results is
   outstanding. */
void sm_retire(struct sm *s, uint64_t now, struct sm_tb *tbs, uint32_t *nfin)
{
    struct bar_in *bar = &s->io.bar;
    slotmask m = s->simt_o->fin & s->live & ~s->launch_pending, tmp;
    unsigned w;
    sm_mech_tbs(s, tbs, nfin);
    for (SLOT_EACH(w, m, tmp)) {
        struct sm_ctx *x = &s->ctx[s->slot_ctx[w]];
        struct sm_cta *k = &s->ctas[x->cta];
        sm_mech_warp_done(s, w, s->slot_ctx[w]);
        s->live &= ~slot_bit(w);
        x->t_end = now;
        x->done = 1;
        if (++k->warps_done == k->nwarps)
            s->cta_draining |= 1ull << x->cta;
        if (!k->t_first_done)
            k->t_first_done = now;
        if (!(bar->exit_ctas >> x->cta & 1))
            bar->exit_mask[x->cta] = 0;
        bar->exit_ctas |= 1ull << x->cta;
        bar->exit_mask[x->cta] |= 1u << x->widx;
    }
    for (uint64_t d = s->cta_draining & s->iss_o->quiet; d; d &= d - 1)
        cta_complete(s, (uint32_t)__builtin_ctzll(d), tbs, nfin);
}

/* Stall cycles (no scheduler issued) charged to every resident CTA, and to its DWR region
   once one of its warps has finished (000_0da6b8b480bd0740.txt Section 3), and to what the
   mechanisms measure (sm_mech_stall). */
void sm_charge_stall(struct sm *s, uint32_t issued, uint64_t n)
{
    if (issued)
        return;
    for (uint64_t m = s->cta_valid; m; m &= m - 1) {
        struct sm_cta *k = &s->ctas[__builtin_ctzll(m)];
        sm_mech_stall(s, (uint32_t)__builtin_ctzll(m), n);
        k->stall_life += n;
        if (k->warps_done)
            k->stall_dwr += n;
    }
}
