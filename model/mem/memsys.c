/*
 * memsys.c -- the GPU-wide memory system: interconnect + L2 slices + DRAM channels (see
 * memsys.h, docs/memsys.md).
 *
 * A tick has three phases: (A) every block's inputs are built from the other blocks' outputs
 * of the previous tick (and the SMs' requests of this cycle); (B) every block that has an
 * input or whose next event is due is evaluated; (C) the evaluated blocks commit, their
 * events are added to the statistics and their next event is cached. A block that is not
 * evaluated has no output this tick. Only slices and channels with work are touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memsys.h"

struct msys {
    struct msys_cfg cfg;
    uint32_t n_slice;
    /* interconnect */
    struct icnt_regs *icq, *icd;
    struct icnt_in *ici;
    struct icnt_out *ico;
    uint64_t ic_next;
    int ic_live;                    /* ico holds packets/credits for the next tick */
    uint64_t sm_ready;
    /* L2 slices */
    struct l2_regs *l2q, *l2d;
    struct l2_in *l2i;
    struct l2_out *l2o;
    uint64_t *l2_next;
    uint64_t l2_live;               /* slices whose l2o holds something for the next tick */
    /* DRAM channels */
    struct dram_regs *drq, *drd;
    struct dram_in *dri;
    struct dram_out *dro;
    uint64_t *dr_next;
    uint64_t dr_live;
    /* touched since the last reset (evaluated or installed into): msys_reuse puts back only
       these, so a launch's set-up is proportional to what the one before it used */
    uint64_t l2_dirty, dr_dirty;
    int ic_dirty;
    struct msys_stats st;
    char err[256];                  /* the first bad event or failed check, "" if none */
};

void msys_cfg_derive(struct msys_cfg *c)
{
    uint32_t ns = c->n_chan * c->slices_per_chan;
    c->icnt.n_sm = c->n_sm;
    c->icnt.n_slice = ns;
    c->icnt.l2_credits = c->l2.ropq_size;
    c->l2.line_div = ns ? ns : 1;
    c->l2.icnt_credits = c->icnt.inq_size;
    c->l2.dram_credits = c->slices_per_chan ? c->dram.latq_size / c->slices_per_chan : 1;
    c->dram.n_ports = c->slices_per_chan;
    c->dram.line_div = ns ? ns : 1;
}

void msys_cfg_default(struct msys_cfg *c, uint32_t n_sm)
{
    memset(c, 0, sizeof *c);
    c->n_sm = n_sm;
    c->n_chan = 6;
    c->slices_per_chan = 2;
    icnt_cfg_default(&c->icnt);
    l2_cfg_default(&c->l2);
    dram_cfg_default(&c->dram);
    msys_cfg_derive(c);
}

int msys_cfg_check(const struct msys_cfg *c, char *err, size_t errlen)
{
    struct msys_cfg d = *c;
    if (c->n_sm < 1 || c->n_sm > MSYS_MAX_SM) {
        snprintf(err, errlen, "memsys: n_sm = %u out of range 1..%u", c->n_sm, MSYS_MAX_SM);
        return -1;
    }
    if (c->slices_per_chan < 1 || c->slices_per_chan > DRAM_MAX_PORTS) {
        snprintf(err, errlen, "memsys: slices_per_chan = %u out of range 1..%u",
                 c->slices_per_chan, DRAM_MAX_PORTS);
        return -1;
    }
    if (c->n_chan < 1 || c->n_chan * c->slices_per_chan > MSYS_MAX_SLICES) {
        snprintf(err, errlen, "memsys: n_chan = %u: need 1..%u slices in all (n_chan x %u)",
                 c->n_chan, MSYS_MAX_SLICES, c->slices_per_chan);
        return -1;
    }
    msys_cfg_derive(&d);
    if (icnt_cfg_check(&d.icnt, err, errlen) || l2_cfg_check(&d.l2, err, errlen) ||
        dram_cfg_check(&d.dram, err, errlen))
        return -1;
    return 0;
}

void msys_free(struct msys *ms)
{
    if (!ms)
        return;
    free(ms->icq);
    free(ms->icd);
    free(ms->ici);
    free(ms->ico);
    free(ms->l2q);
    free(ms->l2d);
    free(ms->l2i);
    free(ms->l2o);
    free(ms->l2_next);
    free(ms->drq);
    free(ms->drd);
    free(ms->dri);
    free(ms->dro);
    free(ms->dr_next);
    free(ms);
}

static uint64_t all_bits(uint32_t n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* The reset state of the interconnect (ic), the slices in l2m and the channels in drm, with
   their ports; the statistics cleared. The rest is already in it. */
static void reset_parts(struct msys *ms, uint64_t l2m, uint64_t drm, int ic)
{
    if (ic) {
        icnt_reset(&ms->cfg.icnt, ms->icq);
        *ms->icd = *ms->icq;
        memset(ms->ici, 0, sizeof *ms->ici);
        memset(ms->ico, 0, sizeof *ms->ico);
    }
    ms->ic_next = UINT64_MAX;
    ms->ic_live = 0;
    ms->sm_ready = icnt_sm_ready(&ms->cfg.icnt, ms->icq);
    for (uint64_t m = l2m; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        l2_reset(&ms->cfg.l2, &ms->l2q[s]);
        ms->l2d[s] = ms->l2q[s];
        memset(&ms->l2i[s], 0, sizeof ms->l2i[s]);
        memset(&ms->l2o[s], 0, sizeof ms->l2o[s]);
        ms->l2_next[s] = UINT64_MAX;
    }
    for (uint64_t m = drm; m; m &= m - 1) {
        unsigned ch = (unsigned)__builtin_ctzll(m);
        dram_reset(&ms->cfg.dram, &ms->drq[ch]);
        ms->drd[ch] = ms->drq[ch];
        memset(&ms->dri[ch], 0, sizeof ms->dri[ch]);
        memset(&ms->dro[ch], 0, sizeof ms->dro[ch]);
        ms->dr_next[ch] = UINT64_MAX;
    }
    ms->l2_live = ms->dr_live = 0;
    ms->l2_dirty = ms->dr_dirty = 0;
    ms->ic_dirty = 0;
    memset(&ms->st, 0, sizeof ms->st);
    ms->st.dram_tick_per_cycle = ms->cfg.dram.tick_per_cycle;
    ms->err[0] = 0;
}

struct msys *msys_init(const struct msys_cfg *cfg, char *err, size_t errlen)
{
    struct msys *ms;
    uint32_t ns, nc;
    if (msys_cfg_check(cfg, err, errlen))
        return NULL;
    ms = calloc(1, sizeof *ms);
    if (!ms) {
        snprintf(err, errlen, "memsys: out of memory");
        return NULL;
    }
    ms->cfg = *cfg;
    msys_cfg_derive(&ms->cfg);
    ns = ms->n_slice = ms->cfg.n_chan * ms->cfg.slices_per_chan;
    nc = ms->cfg.n_chan;
    ms->icq = malloc(sizeof *ms->icq);
    ms->icd = malloc(sizeof *ms->icd);
    ms->ici = calloc(1, sizeof *ms->ici);
    ms->ico = calloc(1, sizeof *ms->ico);
    ms->l2q = malloc(ns * sizeof *ms->l2q);
    ms->l2d = malloc(ns * sizeof *ms->l2d);
    ms->l2i = calloc(ns, sizeof *ms->l2i);
    ms->l2o = calloc(ns, sizeof *ms->l2o);
    ms->l2_next = calloc(ns, sizeof *ms->l2_next);
    ms->drq = malloc(nc * sizeof *ms->drq);
    ms->drd = malloc(nc * sizeof *ms->drd);
    ms->dri = calloc(nc, sizeof *ms->dri);
    ms->dro = calloc(nc, sizeof *ms->dro);
    ms->dr_next = calloc(nc, sizeof *ms->dr_next);
    if (!ms->icq || !ms->icd || !ms->ici || !ms->ico || !ms->l2q || !ms->l2d || !ms->l2i ||
        !ms->l2o || !ms->l2_next || !ms->drq || !ms->drd || !ms->dri || !ms->dro ||
        !ms->dr_next) {
        msys_free(ms);
        snprintf(err, errlen, "memsys: out of memory");
        return NULL;
    }
    reset_parts(ms, all_bits(ns), all_bits(nc), 1);
    return ms;
}

int msys_reuse(struct msys *ms, const struct msys_cfg *cfg)
{
    struct msys_cfg d = *cfg;
    msys_cfg_derive(&d);
    if (memcmp(&d, &ms->cfg, sizeof d))
        return -1;
    reset_parts(ms, ms->l2_dirty, ms->dr_dirty, ms->ic_dirty);
    return 0;
}

void msys_install(struct msys *ms, uint64_t addr)
{
    unsigned s = icnt_slice_of(&ms->cfg.icnt, addr);
    l2_install(&ms->cfg.l2, &ms->l2q[s], addr / MEM_LINE_BYTES);
    l2_install(&ms->cfg.l2, &ms->l2d[s], addr / MEM_LINE_BYTES);
    ms->l2_dirty |= 1ull << s;
}

int msys_sm_ready(const struct msys *ms, unsigned sm)
{
    return sm < ms->cfg.n_sm && ((ms->sm_ready >> sm) & 1);
}

uint64_t msys_ready_mask(const struct msys *ms)
{
    return ms->sm_ready;
}

/* ---- phase A: inputs ---- */

/* The SM requests (ici->sm_req_valid, sm_req) are already in place. */
static uint64_t icnt_inputs(struct msys *ms, uint64_t now)
{
    struct icnt_in *ii = ms->ici;
    uint64_t any;
    ii->now = now;
    ii->l2_resp_valid = ii->l2_credit = 0;
    for (uint64_t m = ms->l2_live; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        if (ms->l2o[s].resp_valid) {
            ii->l2_resp_valid |= 1ull << s;
            ii->l2_resp[s] = ms->l2o[s].resp;
        }
        if (ms->l2o[s].icnt_credit)
            ii->l2_credit |= 1ull << s;
    }
    any = ii->sm_req_valid | ii->l2_resp_valid | ii->l2_credit;
    return any;
}

/* Which slices and channels receive something this tick (from the latched outputs). */
static void input_masks(const struct msys *ms, uint64_t *l2_in, uint64_t *dr_in)
{
    unsigned spc = ms->cfg.slices_per_chan;
    uint64_t l = 0, d = 0;
    if (ms->ic_live)
        l |= ms->ico->l2_req_valid | ms->ico->l2_resp_credit;
    for (uint64_t m = ms->dr_live; m; m &= m - 1) {
        unsigned ch = (unsigned)__builtin_ctzll(m);
        const struct dram_out *o = &ms->dro[ch];
        if (o->ret_valid)
            l |= 1ull << (ch * spc + o->ret_port);
        l |= (uint64_t)o->credit << (ch * spc);
    }
    for (uint64_t m = ms->l2_live; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        if (ms->l2o[s].dram_valid)
            d |= 1ull << (s / spc);
    }
    *l2_in = l;
    *dr_in = d;
}

static void l2_inputs(struct msys *ms, unsigned s, uint64_t now)
{
    struct l2_in *li = &ms->l2i[s];
    unsigned spc = ms->cfg.slices_per_chan, ch = s / spc, p = s % spc;
    const struct dram_out *dro = &ms->dro[ch];
    li->now = now;
    li->req_valid = li->icnt_credit = li->fill_valid = li->dram_credit = 0;
    if (ms->ic_live) {
        if ((ms->ico->l2_req_valid >> s) & 1) {
            li->req_valid = 1;
            li->req = ms->ico->l2_req[s];
        }
        li->icnt_credit = (uint8_t)((ms->ico->l2_resp_credit >> s) & 1);
    }
    if ((ms->dr_live >> ch) & 1) {
        if (dro->ret_valid && dro->ret_port == p) {
            li->fill_valid = 1;
            li->fill = dro->ret;
        }
        li->dram_credit = (uint8_t)((dro->credit >> p) & 1);
    }
}

static void dram_inputs(struct msys *ms, unsigned ch, uint64_t now)
{
    struct dram_in *di = &ms->dri[ch];
    unsigned spc = ms->cfg.slices_per_chan;
    di->now = now;
    for (unsigned p = 0; p < spc; p++) {
        unsigned s = ch * spc + p;
        di->req_valid[p] = 0;
        if (((ms->l2_live >> s) & 1) && ms->l2o[s].dram_valid) {
            di->req_valid[p] = 1;
            di->req[p] = ms->l2o[s].dram;
        }
    }
}

/* ---- phase C: statistics ---- */

static void stats_icnt(struct msys_stats *st, const struct icnt_out *o)
{
    st->icnt_req_pkts += o->ev_req_pkts;
    st->icnt_req_flits += o->ev_req_flits;
    st->icnt_resp_pkts += o->ev_resp_pkts;
    st->icnt_resp_flits += o->ev_resp_flits;
    st->bad += o->ev_bad;
}

static void stats_l2(struct msys_stats *st, unsigned s, const struct l2_out *o)
{
    if (!(o->ev_access | o->ev_stall | o->ev_bad))
        return;                     /* every other event comes with an access */
    st->l2_access += o->ev_access;
    st->l2_hit += o->ev_hit;
    st->l2_miss += o->ev_miss;
    st->l2_merge += o->ev_merge;
    st->l2_write += o->ev_write;
    st->l2_atomic += o->ev_atomic;
    st->l2_writeback += o->ev_writeback;
    st->l2_fetch += o->ev_fetch;
    st->l2_stall += o->ev_stall;
    st->l2_slice_access[s] += o->ev_access;
    st->l2_slice_hit[s] += o->ev_hit;
    st->bad += o->ev_bad;
}

static void stats_dram(struct msys_stats *st, unsigned ch, const struct dram_out *o)
{
    if (!(o->ev_rd | o->ev_wr | o->ev_act | o->ev_pre | o->ev_bad))
        return;
    st->dram_rd[ch] += o->ev_rd;
    st->dram_wr[ch] += o->ev_wr;
    st->dram_row_hit[ch] += o->ev_row_hit;
    st->dram_row_miss[ch] += o->ev_row_miss;
    st->dram_act[ch] += o->ev_act;
    st->dram_pre[ch] += o->ev_pre;
    st->dram_bytes[ch] += o->ev_bytes;
    st->dram_bus_ticks[ch] += o->ev_bus_ticks;
    st->bad += o->ev_bad;
}

/* ---- checks ---- */

/* A block's bad event stops the run: the first one is kept (msys_error). With GPUSIM_CHECK
   (make CHECK=1) every commit must also leave q equal to d. */
static void check(struct msys *ms, uint64_t now, const char *blk, unsigned inst, unsigned bad,
                  const void *q, const void *d, size_t size)
{
    if (ms->err[0])
        return;
    if (bad)
        snprintf(ms->err, sizeof ms->err, "memory system cycle %llu: block %s (instance %u) "
                 "dropped a malformed packet (ev_bad)", (unsigned long long)now, blk, inst);
#ifdef GPUSIM_CHECK
    else if (memcmp(q, d, size))
        snprintf(ms->err, sizeof ms->err, "memory system cycle %llu: block %s (instance %u): "
                 "commit left q != d (CHECK=1)", (unsigned long long)now, blk, inst);
#else
    (void)q; (void)d; (void)size;
#endif
}

const char *msys_error(const struct msys *ms)
{
    return ms->err[0] ? ms->err : NULL;
}

/* ---- the tick ---- */

/* One tick; the SM requests are in ms->ici. Returns whether the interconnect ran (its
   sm_resp outputs are this tick's responses). */
static int tick(struct msys *ms, uint64_t now)
{
    uint32_t ns = ms->n_slice, nc = ms->cfg.n_chan;
    uint64_t l2_run = 0, dr_run = 0;
    int ic_run;

    /* phase A */
    ic_run = icnt_inputs(ms, now) != 0 || now >= ms->ic_next;
    input_masks(ms, &l2_run, &dr_run);
    for (unsigned s = 0; s < ns; s++)
        if (now >= ms->l2_next[s])
            l2_run |= 1ull << s;
    for (unsigned ch = 0; ch < nc; ch++)
        if (now >= ms->dr_next[ch])
            dr_run |= 1ull << ch;
    for (uint64_t m = l2_run; m; m &= m - 1)
        l2_inputs(ms, (unsigned)__builtin_ctzll(m), now);
    for (uint64_t m = dr_run; m; m &= m - 1)
        dram_inputs(ms, (unsigned)__builtin_ctzll(m), now);

    ms->ic_dirty |= ic_run;
    ms->l2_dirty |= l2_run;
    ms->dr_dirty |= dr_run;

    /* phase B + C */
    ms->ic_live = 0;
    if (ic_run) {
        icnt_eval(&ms->cfg.icnt, ms->icq, ms->ici, ms->ico, ms->icd);
        icnt_commit(&ms->cfg.icnt, ms->icq, ms->icd);
        check(ms, now, "icnt", 0, ms->ico->ev_bad, ms->icq, ms->icd, sizeof *ms->icq);
        ms->ic_next = icnt_next_event(&ms->cfg.icnt, ms->icq, now);
        ms->sm_ready = ms->ico->sm_ready;
        ms->ic_live = (ms->ico->l2_req_valid | ms->ico->l2_resp_credit) != 0;
        stats_icnt(&ms->st, ms->ico);
    }
    ms->l2_live = 0;
    for (uint64_t m = l2_run; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        struct l2_out *o = &ms->l2o[s];
        l2_eval(&ms->cfg.l2, &ms->l2q[s], &ms->l2i[s], o, &ms->l2d[s]);
        l2_commit(&ms->cfg.l2, &ms->l2q[s], &ms->l2d[s]);
        check(ms, now, "l2", s, o->ev_bad, &ms->l2q[s], &ms->l2d[s], sizeof ms->l2q[s]);
        ms->l2_next[s] = l2_next_event(&ms->cfg.l2, &ms->l2q[s], now);
        if (o->resp_valid | o->dram_valid | o->icnt_credit)
            ms->l2_live |= 1ull << s;
        stats_l2(&ms->st, s, o);
    }
    ms->dr_live = 0;
    for (uint64_t m = dr_run; m; m &= m - 1) {
        unsigned ch = (unsigned)__builtin_ctzll(m);
        struct dram_out *o = &ms->dro[ch];
        dram_eval(&ms->cfg.dram, &ms->drq[ch], &ms->dri[ch], o, &ms->drd[ch]);
        dram_commit(&ms->cfg.dram, &ms->drq[ch], &ms->drd[ch]);
        check(ms, now, "dram", ch, o->ev_bad, &ms->drq[ch], &ms->drd[ch], sizeof ms->drq[ch]);
        ms->dr_next[ch] = dram_next_event(&ms->cfg.dram, &ms->drq[ch], now);
        if (o->ret_valid | o->credit)
            ms->dr_live |= 1ull << ch;
        stats_dram(&ms->st, ch, o);
    }

    return ic_run;
}

void msys_tick(struct msys *ms, uint64_t now, const struct msys_sm_in *in,
               struct msys_sm_out *out)
{
    uint64_t resp;
    ms->ici->sm_req_valid = 0;
    if (in)
        for (uint32_t i = 0; i < ms->cfg.n_sm; i++)
            if (in[i].valid) {
                ms->ici->sm_req_valid |= 1ull << i;
                ms->ici->sm_req[i] = in[i].req;
            }
    resp = tick(ms, now) ? ms->ico->sm_resp_valid : 0;
    for (uint32_t i = 0; i < ms->cfg.n_sm; i++) {
        out[i].resp_valid = (uint8_t)((resp >> i) & 1);
        if (out[i].resp_valid)
            out[i].resp = ms->ico->sm_resp[i];
    }
}

void msys_tick_port(struct msys *ms, uint64_t now, struct msys_port *port)
{
    uint64_t ports = ms->cfg.n_sm >= 64 ? ~0ull : (1ull << ms->cfg.n_sm) - 1;
    ms->ici->sm_req_valid = port->req_valid & ports;
    for (uint64_t m = ms->ici->sm_req_valid; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        ms->ici->sm_req[i] = port->req[i];
    }
    port->resp_valid = tick(ms, now) ? ms->ico->sm_resp_valid : 0;
    for (uint64_t m = port->resp_valid; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        port->resp[i] = ms->ico->sm_resp[i];
    }
}

int msys_busy(const struct msys *ms)
{
    if (ms->ic_live || ms->l2_live || ms->dr_live || icnt_busy(ms->icq))
        return 1;
    for (uint32_t s = 0; s < ms->n_slice; s++)
        if (l2_busy(&ms->cfg.l2, &ms->l2q[s]))
            return 1;
    for (uint32_t ch = 0; ch < ms->cfg.n_chan; ch++)
        if (dram_busy(&ms->drq[ch]))
            return 1;
    return 0;
}

uint64_t msys_next_event(const struct msys *ms, uint64_t now)
{
    uint64_t t = ms->ic_next;
    if (ms->ic_live || ms->l2_live || ms->dr_live)
        return now + 1;
    for (uint32_t s = 0; s < ms->n_slice; s++)
        if (ms->l2_next[s] < t)
            t = ms->l2_next[s];
    for (uint32_t ch = 0; ch < ms->cfg.n_chan; ch++)
        if (ms->dr_next[ch] < t)
            t = ms->dr_next[ch];
    return t <= now && t != UINT64_MAX ? now + 1 : t;
}

const struct msys_stats *msys_stats(const struct msys *ms)
{
    return &ms->st;
}

const struct msys_cfg *msys_get_cfg(const struct msys *ms)
{
    return &ms->cfg;
}

double msys_dram_util(const struct msys_stats *s, unsigned ch, uint64_t cycles)
{
    if (ch >= MSYS_MAX_CHAN || !cycles || !s->dram_tick_per_cycle)
        return 0.0;
    return (double)s->dram_bus_ticks[ch] / s->dram_tick_per_cycle / (double)cycles;
}
