/*
 * vtc.c -- VT's Virtual Thread Controller (see vtc.h; 004_23e173f444f46134.txt Sec. IV-A,
 * Fig. 7). Per cycle, on d (= q on entry), in this order: done, launch, the active CTAs'
 * counters, stale writebacks, the saved warp's count, the port grant, the ready push, the
 * decision (only when the sequencer was idle), the sequencer, the outputs. Every input field
 * is taken at its declared width, as the Verilog twin (rtl/vtc.sv) takes its ports.
 */
#include <stdio.h>
#include <string.h>
#include "vtc.h"
#include "base/config.h"
#include "base/cost.h"

void vtc_cfg_default(struct vtc_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->nctas = SM_MAX_CTAS;
}

int vtc_cfg_check(const struct vtc_cfg *c, char *err, size_t errlen)
{
    if (c->nctas < 1 || c->nctas > SM_MAX_CTAS) {
        snprintf(err, errlen, "vtc: nctas %u out of range 1..%u", c->nctas, SM_MAX_CTAS);
        return -1;
    }
    return 0;
}

void vtc_reset(const struct vtc_cfg *c, struct vtc_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
}

static inline uint64_t bit(unsigned k)
{
    return 1ull << k;
}

static inline int has(uint64_t m, unsigned k)
{
    return (int)((m >> k) & 1u);
}

/* The lowest set bit's index of a non-zero mask (the loops below walk masks by it). */
static inline unsigned low(uint64_t m)
{
    return (unsigned)__builtin_ctzll(m);
}

static inline uint64_t table_mask(const struct vtc_cfg *c)
{
    return c->nctas >= 64 ? ~0ull : bit(c->nctas) - 1;
}

/* Completed CTAs leave the table (only active ones outside the swap may complete). */
static void take_done(const struct vtc_cfg *c, const struct vtc_regs *q, const struct vtc_in *in,
                      struct vtc_out *out, struct vtc_regs *d)
{
    for (uint64_t m = in->done; m; m &= m - 1) {
        unsigned k = low(m);
        if (k >= c->nctas || !has(d->res & d->act, k) || (q->ph != VTC_IDLE && k == q->in_cta && q->rs_i < in->nw)) {
            out->err |= VTC_E_DONE;
            continue;
        }
        d->res &= ~bit(k);
        d->act &= ~bit(k);
        d->saved &= ~bit(k);
        d->cnt[k] = 0;
    }
}

/* Dispatched CTAs enter the table, active or inactive (never ran: no context). */
static void take_launch(const struct vtc_cfg *c, const struct vtc_in *in, struct vtc_out *out,
                        struct vtc_regs *d)
{
    if (in->launch_act & ~in->launch)
        out->err |= VTC_E_LAUNCH;
    for (uint64_t m = in->launch; m; m &= m - 1) {
        unsigned k = low(m);
        if (k >= c->nctas || has(d->res, k)) {
            out->err |= VTC_E_LAUNCH;
            continue;
        }
        d->res |= bit(k);
        d->act = has(in->launch_act, k) ? d->act | bit(k) : d->act & ~bit(k);
        d->saved &= ~bit(k);
        d->inq &= ~bit(k);
        d->cnt[k] = 0;
    }
}

/* Active CTAs: the counter holds the warps stalled on long-latency memory. */
static void count_active(const struct vtc_in *in, struct vtc_regs *d)
{
    for (uint64_t m = d->act; m; m &= m - 1) {
        unsigned k = low(m);
        d->cnt[k] = in->nstall[k] & 63u;
    }
}

/* Stale writebacks of inactive CTAs count their pending writes down, in port order. */
static void count_stale(const struct vtc_cfg *c, const struct vtc_in *in, struct vtc_out *out,
                        struct vtc_regs *d)
{
    for (unsigned p = 0; p < SB_MAX_REL; p++) {
        unsigned k = in->rel[p].cta & 63u;
        if (!(in->rel[p].v & 1u))
            continue;
        if (k >= c->nctas || !has(d->res, k) || has(d->act, k) || d->cnt[k] == 0) {
            out->err |= VTC_E_DEC;
            continue;
        }
        d->cnt[k]--;
    }
}

/* The count of the warp saved in the cycle before (expected exactly then) adds to out_cta's. */
static void count_pend(const struct vtc_regs *q, const struct vtc_in *in, uint8_t nw,
                       struct vtc_out *out, struct vtc_regs *d)
{
    int want = q->ph == VTC_SWAP && q->sv_i >= 1 && q->sv_i <= nw;
    int got = in->pend_v & 1u;
    uint16_t n = in->pend_n & 0x1FFu;
    if (got != want || (got && n > SB_MAX_REGS)) {
        out->err |= VTC_E_PEND;
        return;
    }
    if (got)
        d->cnt[q->out_cta] = (uint16_t)(d->cnt[q->out_cta] + n);
}

/* Was a context beat requested in the cycle before (its ctx_req)? */
static int beat_waits(const struct vtc_regs *q, uint8_t nw)
{
    return q->rd_left > 0 || (q->ph == VTC_SWAP && q->sv_i >= nw && q->wr_left > 0);
}

/* A granted beat: the in CTA's context read first, then the out CTA's write. */
static void take_grant(const struct vtc_regs *q, const struct vtc_in *in, uint8_t nw,
                       struct vtc_out *out, struct vtc_regs *d)
{
    int waits = beat_waits(q, nw), g = in->grant & 1u;
    out->ev_wait = (uint8_t)(waits && !g);
    if (!g)
        return;
    if (!waits)
        out->err |= VTC_E_GRANT;
    else if (q->rd_left > 0)
        d->rd_left--;
    else
        d->wr_left--;
}

/* The FIFO has one write port: the lowest-index resident inactive CTA with counter 0 that is
   not queued yet (a swapped-out one once its counts are in) enters it behind the registered
   entries. A CTA that becomes ready while another waits for the port enters in a later cycle. */
static void push_ready(const struct vtc_cfg *c, const struct vtc_regs *q, uint8_t nw,
                       struct vtc_regs *d)
{
    for (uint64_t m = d->res & ~d->act & ~d->inq & table_mask(c); m; m &= m - 1) {
        unsigned k = low(m);
        if (d->cnt[k] || (q->ph == VTC_SWAP && k == q->out_cta && q->sv_i < nw))
            continue;
        d->rdq[(q->rd_head + q->rd_n) % c->nctas] = (uint8_t)k;
        d->inq |= bit(k);
        d->rd_n++;
        return;
    }
}

/* The lowest active CTA whose every live warp waits on long-latency memory, or -1. */
static int swap_candidate(const struct vtc_in *in, const struct vtc_regs *d)
{
    for (uint64_t m = d->act; m; m &= m - 1) {
        unsigned k = low(m), nl = in->nlive[k] & 63u;
        if (nl > 0 && d->cnt[k] == nl)
            return (int)k;
    }
    return -1;
}

/* In idle: swap the candidate out for the FIFO's head, or activate the head into room. */
static void decide(const struct vtc_cfg *c, const struct vtc_regs *q, const struct vtc_in *in,
                   uint8_t nw, struct vtc_out *out, struct vtc_regs *d)
{
    unsigned k = q->rdq[q->rd_head];
    uint16_t beats = in->beats & 0xFFFu;
    int o;
    if (q->ph != VTC_IDLE || q->rd_n == 0 || nw < 1 || nw > VTC_MAX_W)
        return;
    o = swap_candidate(in, d);
    if (o < 0 && !(in->room & 1u))
        return;
    d->rd_head = (uint8_t)(q->rd_head + 1u == c->nctas ? 0 : q->rd_head + 1u);
    d->rd_n--;
    d->inq &= ~bit(k);
    d->act |= bit(k);
    d->in_cta = (uint8_t)k;
    d->rs_i = 0;
    d->sv_i = 0;
    d->rd_left = has(d->saved, k) ? beats : 0;
    out->ev_in = 1;
    if (o < 0) {
        d->ph = VTC_FILL;
        d->wr_left = 0;
        out->ev_fill = 1;
        return;
    }
    d->ph = VTC_SWAP;
    d->out_cta = (uint8_t)o;
    d->act &= ~bit((unsigned)o);
    d->saved |= bit((unsigned)o);
    d->cnt[o] = 0;
    d->wr_left = beats;
    out->ev_out = 1;
    out->ldq_v = 1;
    out->ldq_cta = (uint8_t)o;
}

/* One save of the out CTA and one restore of the in CTA per cycle; back to idle when done. */
static void sequence(uint8_t nw, struct vtc_out *out, struct vtc_regs *d)
{
    uint8_t sv = d->sv_i;          /* saves presented before this cycle */
    int swap = d->ph == VTC_SWAP;
    if (d->ph == VTC_IDLE)
        return;
    out->rest_cta = d->in_cta;
    if (swap && sv < nw) {
        out->save_v = out->fence_v = 1;
        out->save_w = sv & 31u;
        out->fence_cta = d->out_cta;
        d->sv_i = (uint8_t)((sv + 1u) & 63u);
    } else if (swap && sv == nw) {
        d->sv_i = (uint8_t)((sv + 1u) & 63u);   /* the last save's count is in */
    }
    if (d->rs_i < nw && d->rd_left == 0 && (!swap || d->rs_i < sv)) {
        out->rest_v = 1;
        out->rest_w = d->rs_i & 31u;
        out->rest_fresh = (uint8_t)!has(d->saved, d->in_cta);
        d->rs_i = (uint8_t)((d->rs_i + 1u) & 63u);
    }
    out->ctx_req = (uint8_t)(d->rd_left > 0 || (swap && d->sv_i >= nw && d->wr_left > 0));
    if (d->rs_i >= nw && d->rd_left == 0 && d->wr_left == 0 && (!swap || d->sv_i > nw))
        d->ph = VTC_IDLE;
}

void vtc_eval(const struct vtc_cfg *c, const struct vtc_regs *q, const struct vtc_in *in,
              struct vtc_out *out, struct vtc_regs *d)
{
    uint8_t nw = in->nw & 63u;
    memset(out, 0, sizeof *out);
    take_done(c, q, in, out, d);
    take_launch(c, in, out, d);
    count_active(in, d);
    count_stale(c, in, out, d);
    count_pend(q, in, nw, out, d);
    take_grant(q, in, nw, out, d);
    push_ready(c, q, nw, d);
    decide(c, q, in, nw, out, d);
    sequence(nw, out, d);
    out->ev_busy = q->ph != VTC_IDLE;
    out->rdy_n = d->rd_n;
    out->nact = (uint8_t)bit_pop64(d->res & d->act);
    out->ninact = (uint8_t)bit_pop64(d->res & ~d->act);
    if (d->res && (nw < 1 || nw > VTC_MAX_W))
        out->err |= VTC_E_NW;
}

void vtc_commit(const struct vtc_cfg *c, struct vtc_regs *q, const struct vtc_regs *d)
{
    (void)c;
    *q = *d;
}

/* ------------------------------------------------------------------ registry */

uint32_t vtc_instances(const struct gpu_config *c)
{
    return c->vt == VT_ON;
}

/* The table has an entry per CTA slot the SM gives VT (resident, active or not). */
void vtc_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct vtc_cfg *out)
{
    (void)c; (void)sm; (void)inst;
    vtc_cfg_default(out);
    out->nctas = SM_MAX_CTAS;
}

/* Storage for the cost estimator (cost.h): the status table (Fig. 7's status bit and
   tracking counter, plus resident, saved and in-FIFO bits), the ready FIFO and the
   sequencer. Not here: the context handler's temporary buffer (its data is the SM's
   vt_ctx[]) and the context region (shared memory). */
void vtc_storage(const struct vtc_cfg *c, struct cost_list *l)
{
    const char *t = "CTA status table (004 Sec. IV-A)", *f = "ready FIFO (004 Sec. IV-A)";
    const char *s = "context handler sequencer";
    uint32_t cb = cost_clog2(c->nctas);
    static const struct { const char *name; uint32_t bits; const char *note; } tab[] = {
        { "table.res", 1, "entry valid (resident CTA)" },
        { "table.act", 1, "status: active / inactive" },
        { "table.saved", 1, "a context of the CTA is in the region" },
        { "table.inq", 1, "waits in the ready FIFO" },
        { "table.cnt", 14, "tracking counter: stalled warps / write-pending registers" },
    };
    cost_begin(l, "vtc");
    for (unsigned i = 0; i < sizeof tab / sizeof tab[0]; i++)
        cost_add(l, (struct cost_item){.name = tab[i].name, .mech = t, .entries = c->nctas,
                                       .bits = tab[i].bits, .rports = COST_PAR, .onchip = 1,
                                       .note = tab[i].note});
    cost_add(l, (struct cost_item){.name = "rdq", .mech = f, .entries = c->nctas, .bits = cb,
                                   .rports = COST_PAR, .onchip = 1, .note = "CTA slots, first ready first"});
    cost_add(l, (struct cost_item){.name = "rdq_ptr.head", .mech = f, .entries = 1, .bits = cb,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "rdq_ptr.n", .mech = f, .entries = 1,
                                   .bits = cost_clog2(c->nctas + 1u), .rports = COST_PAR,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "seq.ph", .mech = s, .entries = 1, .bits = 2,
                                   .rports = COST_PAR, .onchip = 1, .note = "idle / swap / fill"});
    cost_add(l, (struct cost_item){.name = "seq.cta", .mech = s, .entries = 2, .bits = cb,
                                   .rports = COST_PAR, .onchip = 1, .note = "out_cta, in_cta"});
    cost_add(l, (struct cost_item){.name = "seq.idx", .mech = s, .entries = 2, .bits = 6,
                                   .rports = COST_PAR, .onchip = 1, .note = "sv_i, rs_i (0..33)"});
    cost_add(l, (struct cost_item){.name = "seq.beats", .mech = s, .entries = 2, .bits = 12,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "rd_left, wr_left: port beats of one context (eq. 2)"});
}

void vtc_rtl_params(const struct vtc_cfg *c, FILE *f)
{
    fprintf(f, "localparam VTC_NCTAS = %u;\n", c->nctas);
}
