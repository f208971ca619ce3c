/*
 * sm.c -- one SM of the timing model: the blocks wired together (see sm.h).
 *
 * Per cycle t, in this order (each block evaluated once, then every block commits):
 *   1. l1     request = the head of one of the SM's three request queues (fetch misses, SIMT
 *             spills/fills, the LD/ST line queue: fixed priority in that order), fill = the
 *             interconnect's response; its response is routed by kind to fetch, simt or ldst.
 *   2. simt   the control outcome of the instructions issued in t-1 (the issue latch).
 *   3. fetch  flushes where simt redirected, consumes what issued in t-1.
 *   4. sb     reserves of t-1's issues, releases of the results the units wrote back in t-1,
 *             and the hazard check of every I-buffer head.
 *   5. readiness of every warp, ws per scheduler, and issue: the chosen instruction executes
 *             functionally (exec.c) with the SIMT mask; its unit, latency and memory path
 *             come from the decode table and the resolved state space.
 *   6. fu, ldst, bar with this cycle's issues.
 * The request queues in front of the L1 are small skid buffers, so that the SIMT stack's and
 * fetch's valid/ready handshakes never depend on the request itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sm.h"

#define NO_REG  0xFFFFu

enum path { PATH_NONE = 0, PATH_FIXED, PATH_MEM };

struct sm_dec {                     /* what issue needs of one instruction, decoded at init */
    uint8_t  unit, path, ndst, nchk;
    uint32_t lat, ii;
    uint16_t dst[SB_MAX_DST];
    uint16_t chk[SB_MAX_CHK];
};


/* ------------------------------------------------------------------ decode */

static int is_f64(const struct ptx_insn *in)
{
    return in->type == PT_F64 || in->type2 == PT_F64;
}

static void dec_latency(const struct gpu_config *c, const struct ptx_insn *in, struct sm_dec *d)
{
    int flt = ptx_type_is_float((enum ptx_type)in->type), dp = is_f64(in);
    d->unit = FU_SP; d->lat = c->lat_alu; d->ii = c->ii_sp;
    switch (in->op) {
    case OP_MAD: case OP_FMA: d->lat = c->lat_mad; break;
    case OP_MIN: case OP_MAX: case OP_ABS: case OP_MUL24: case OP_MAD24: case OP_SAD:
        d->lat = c->lat_minmax; break;
    case OP_DIV: case OP_REM: d->lat = dp ? c->lat_ddiv : flt ? c->lat_fdiv : c->lat_idiv; break;
    case OP_SQRT: d->unit = FU_SFU; d->lat = dp ? c->lat_ddiv : c->lat_sqrt; d->ii = c->ii_sfu; break;
    case OP_RCP: d->unit = FU_SFU; d->lat = dp ? c->lat_ddiv : c->lat_rcp; d->ii = c->ii_sfu; break;
    case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
        d->unit = FU_SFU; d->lat = c->lat_sfu; d->ii = c->ii_sfu; break;
    case OP_BRA: case OP_EXIT: case OP_BAR: case OP_MEMBAR: case OP_NOP: d->lat = 1; break;
    case OP_LD: case OP_ST: case OP_ATOM: case OP_RED:
        d->unit = FU_MEM; d->lat = 1; d->ii = c->ii_mem; d->path = PATH_MEM; return;
    default: break;
    }
    if (dp && d->unit == FU_SP) {
        d->unit = FU_DP;
        d->ii = c->ii_dp;
        if (in->op != OP_DIV && in->op != OP_REM)
            d->lat = c->lat_dp;
    }
    d->path = PATH_FIXED;
}

static void add_reg(uint16_t *list, uint8_t *n, uint8_t max, int32_t r)
{
    uint8_t i;
    if (r < 0)
        return;
    for (i = 0; i < *n; i++)
        if (list[i] == (uint16_t)r)
            return;
    if (*n < max)
        list[(*n)++] = (uint16_t)r;
}

static void add_opd(uint16_t *list, uint8_t *n, uint8_t max, const struct ptx_operand *o)
{
    int k;
    if (o->kind == OPD_REG || o->kind == OPD_ADDR)
        add_reg(list, n, max, o->reg);
    else if (o->kind == OPD_VEC)
        for (k = 0; k < o->nvec; k++)
            add_reg(list, n, max, o->vec[k]);
}

/* Which operands an instruction writes: opd[0] for most, also opd[1] for setp/shfl. */
static int writes_dst(const struct ptx_insn *in, int i)
{
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_EXIT: case OP_BAR: case OP_MEMBAR:
    case OP_NOP: case OP_RET: case OP_CALL:
        return 0;
    case OP_SETP: case OP_SHFL:
        return i <= 1;
    default:
        return i == 0;
    }
}

static void decode(const struct gpu_config *c, const struct ptx_insn *in, struct sm_dec *d)
{
    int i;
    memset(d, 0, sizeof *d);
    dec_latency(c, in, d);
    for (i = 0; i < in->nopd && i < PTX_MAX_OPERANDS; i++) {
        if (writes_dst(in, i))
            add_opd(d->dst, &d->ndst, SB_MAX_DST, &in->opd[i]);
        add_opd(d->chk, &d->nchk, SB_MAX_CHK, &in->opd[i]);
    }
    add_reg(d->chk, &d->nchk, SB_MAX_CHK, in->guard);
}

/* ------------------------------------------------------------------ init */

static void block_cfgs(struct sm *s)
{
    const struct gpu_config *c = s->p.conf;
    uint32_t i;
    s->nsched = c->schedulers_per_sm;
    for (i = 0; i < s->nsched; i++) {
        s->ws_c[i].policy = (uint8_t)(c->sched_policy == SCHED_LRR ? WS_LRR :
                                      c->sched_policy == SCHED_GTO ? WS_GTO : WS_TWOLEVEL);
        s->ws_c[i].nslots = (uint8_t)((c->max_warps_per_sm + s->nsched - 1 - i) / s->nsched);
        s->ws_c[i].active = (uint8_t)(c->twolevel_active < s->ws_c[i].nslots ?
                                      c->twolevel_active : s->ws_c[i].nslots);
    }
    sb_cfg_default(&s->sb_c);
    s->sb_c.nslots = (uint8_t)c->max_warps_per_sm;
    simt_cfg_default(&s->simt_c);
    s->simt_c.nwarps = (uint8_t)c->max_warps_per_sm;
    s->simt_c.policy = (uint8_t)(c->simt_policy == SIMTP_TOKEN ? SIMT_TOKEN : SIMT_IPDOM);
    s->simt_c.depth = (uint8_t)c->simt_depth;
    s->simt_c.chunk = (uint8_t)c->simt_chunk;
    s->simt_c.entry_bytes = (uint8_t)c->simt_entry_bytes;
    s->simt_c.pop_cycles = (uint8_t)c->simt_pop_cycles;
    s->simt_c.fill_cycles = (uint8_t)c->simt_fill_cycles;
    s->simt_c.sm_id = (uint8_t)s->p.id;
    s->simt_c.spill_base = s->p.spill_base;
    fetch_cfg_default(&s->fetch_c);
    s->fetch_c.nslots = (uint8_t)c->max_warps_per_sm;
    s->fetch_c.ibuf_entries = (uint8_t)c->ibuf_entries;
    s->fetch_c.decode_cycles = (uint8_t)c->decode_cycles;
    s->fetch_c.ic_sets = (uint8_t)c->icache_sets;
    s->fetch_c.ic_ways = (uint8_t)c->icache_ways;
    s->fetch_c.sm_id = (uint8_t)s->p.id;
    s->fu_c.nsched = s->nsched;
    s->ldst_c.sm = (uint8_t)s->p.id;
    s->bar_c.nctas = SM_MAX_CTAS;
    l1_cfg_default(&s->l1_c);
    s->l1_c.nsets = c->l1_sets;
    s->l1_c.assoc = c->l1_ways;
    s->l1_c.n_mshr = c->l1_mshrs;
    s->l1_c.hit_latency = c->l1_hit_latency;
}

void sm_make_cfgs(const struct gpu_config *c, uint32_t sm_id, struct sm_cfgs *out)
{
    struct sm *s = calloc(1, sizeof *s);
    memset(out, 0, sizeof *out);
    if (!s)
        return;
    s->p.conf = c;
    s->p.id = sm_id;
    s->p.spill_base = 0x0000600000000000ull + sm_id * 0x0000000100000000ull;
    block_cfgs(s);
    out->ws = s->ws_c[0];
    out->sb = s->sb_c;
    out->simt = s->simt_c;
    out->fetch = s->fetch_c;
    out->l1 = s->l1_c;
    free(s);
}

void sm_rec_put(struct sm_rec *r, uint64_t cycle, const void *in, uint32_t size)
{
    if (!r || r->overflow)
        return;
    if (r->len + sizeof cycle + size > r->cap) {
        r->overflow = 1;
        return;
    }
    memcpy(r->buf + r->len, &cycle, sizeof cycle);
    memcpy(r->buf + r->len + sizeof cycle, in, size);
    r->len += sizeof cycle + size;
    r->records++;
}

static int check_cfgs(struct sm *s, char *err, size_t errlen)
{
    uint32_t i;
    if (s->nsched > SIMT_UPD_PORTS || s->nsched > FETCH_CONSUME_PORTS ||
        s->nsched > SB_RES_PORTS || s->nsched > FU_MAX_SCHED) {
        snprintf(err, errlen, "configuration: key 'schedulers_per_sm' (%u): the SM's blocks have "
                 "ports for at most %u schedulers", s->nsched, (unsigned)SIMT_UPD_PORTS);
        return -1;
    }
    for (i = 0; i < s->nsched; i++)
        if (ws_cfg_check(&s->ws_c[i], err, errlen))
            return -1;
    return sb_cfg_check(&s->sb_c, err, errlen) || simt_cfg_check(&s->simt_c, err, errlen) ||
           fetch_cfg_check(&s->fetch_c, err, errlen) || l1_cfg_check(&s->l1_c, err, errlen)
           ? -1 : 0;
}

#define ALLOC2(q, d) ((q) = calloc(1, sizeof *(q)), (d) = calloc(1, sizeof *(d)))

static int alloc_blocks(struct sm *s)
{
    ALLOC2(s->sb_q, s->sb_d);
    ALLOC2(s->simt_q, s->simt_d);
    ALLOC2(s->fetch_q, s->fetch_d);
    ALLOC2(s->ldst_q, s->ldst_d);
    ALLOC2(s->l1_q, s->l1_d);
    s->simt_o = calloc(1, sizeof *s->simt_o);
    s->fetch_o = calloc(1, sizeof *s->fetch_o);
    return s->sb_q && s->sb_d && s->simt_q && s->simt_d && s->fetch_q && s->fetch_d &&
           s->ldst_q && s->ldst_d && s->l1_q && s->l1_d && s->simt_o && s->fetch_o ? 0 : -1;
}

static void reset_blocks(struct sm *s)
{
    uint32_t i;
    for (i = 0; i < s->nsched; i++) {
        ws_reset(&s->ws_c[i], &s->ws_q[i]);
        s->ws_d[i] = s->ws_q[i];
    }
    sb_reset(&s->sb_c, s->sb_q);        *s->sb_d = *s->sb_q;
    simt_reset(&s->simt_c, s->simt_q);  *s->simt_d = *s->simt_q;
    fetch_reset(&s->fetch_c, s->fetch_q); *s->fetch_d = *s->fetch_q;
    fu_reset(&s->fu_c, &s->fu_q);       s->fu_d = s->fu_q;
    ldst_reset(&s->ldst_c, s->ldst_q);  *s->ldst_d = *s->ldst_q;
    bar_reset(&s->bar_c, &s->bar_q);    s->bar_d = s->bar_q;
    l1_reset(&s->l1_c, s->l1_q);        *s->l1_d = *s->l1_q;
    ldst_outputs(s->ldst_q, &s->ldst_o);
    s->bar_launch_cta = -1;
}

static int alloc_functional(struct sm *s)
{
    const struct ptx_prog *p = s->p.prog;
    size_t nregs = p->nregs ? p->nregs : 1;
    s->smem_size = fsim_shared_bytes(p, s->p.dyn_smem);
    s->regs = calloc((size_t)SM_MAX_WARPS * nregs * EX_WARP, sizeof(uint64_t));
    s->smem = calloc((size_t)SM_MAX_CTAS, s->smem_size ? s->smem_size : 1);
    s->lmem = calloc((size_t)SM_MAX_WARPS * EX_WARP, p->local_size ? p->local_size : 1);
    s->pscratch = calloc((size_t)SM_MAX_WARPS * EX_WARP, p->pscratch_size ? p->pscratch_size : 1);
    s->dec = calloc(p->ninsns ? p->ninsns : 1, sizeof *s->dec);
    return s->regs && s->smem && s->lmem && s->pscratch && s->dec ? 0 : -1;
}

int sm_init(struct sm *s, const struct sm_params *p, struct gs_stats *st, char *err, size_t errlen)
{
    uint32_t i;
    memset(s, 0, sizeof *s);
    s->p = *p;
    s->st = st;
    s->nwarps_per_cta = (p->block.x * p->block.y * p->block.z + 31) / 32;
    block_cfgs(s);
    if (check_cfgs(s, err, errlen))
        return -1;
    for (i = 0; i < SM_MAX_WARPS && i < p->conf->max_warps_per_sm; i++)
        s->sched_slots[i % s->nsched] |= 1ull << i;
    if (alloc_blocks(s) || alloc_functional(s)) {
        snprintf(err, errlen, "out of host memory for SM %u", p->id);
        return -1;
    }
    for (i = 0; i < p->prog->ninsns; i++)
        decode(p->conf, &p->prog->insns[i], &s->dec[i]);
    reset_blocks(s);
    s->ctx.prog = p->prog;
    s->ctx.gmem = p->gmem;
    s->ctx.smem_size = s->smem_size;
    s->ctx.lmem_size = p->prog->local_size;
    s->ctx.lmem_stride = p->prog->local_size;
    s->ctx.pscratch_stride = p->prog->pscratch_size;
    s->ctx.params = p->params;
    s->ctx.ntid[0] = p->block.x; s->ctx.ntid[1] = p->block.y; s->ctx.ntid[2] = p->block.z;
    s->ctx.nctaid[0] = p->grid.x; s->ctx.nctaid[1] = p->grid.y; s->ctx.nctaid[2] = p->grid.z;
    s->ctx.nthreads = p->block.x * p->block.y * p->block.z;
    s->ctx.nwarpid = p->conf->max_warps_per_sm;
    s->ctx.smid = p->id;
    s->ctx.nsmid = p->conf->num_sms;
    return 0;
}

void sm_free(struct sm *s)
{
    free(s->sb_q); free(s->sb_d); free(s->simt_q); free(s->simt_d);
    free(s->fetch_q); free(s->fetch_d); free(s->ldst_q); free(s->ldst_d);
    free(s->l1_q); free(s->l1_d); free(s->simt_o); free(s->fetch_o);
    free(s->regs); free(s->smem); free(s->lmem); free(s->pscratch); free(s->dec);
    memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------------ CTAs */

static uint32_t free_warp_slots(const struct sm *s, uint32_t *first)
{
    uint32_t w, run = 0;
    for (w = 0; w < s->p.conf->max_warps_per_sm && w < SM_MAX_WARPS; w++) {
        run = s->warps[w].valid ? 0 : run + 1;
        if (run == s->nwarps_per_cta) {
            *first = w + 1 - run;
            return 1;
        }
    }
    return 0;
}

int sm_can_launch(const struct sm *s)
{
    uint32_t c, resident = 0, first;
    for (c = 0; c < SM_MAX_CTAS; c++)
        resident += s->ctas[c].valid;
    return resident < s->p.ctas_per_sm && free_warp_slots(s, &first);
}

static void start_warp(struct sm *s, uint32_t slot, uint32_t cta, uint32_t widx, uint64_t now)
{
    struct sm_warp *w = &s->warps[slot];
    uint32_t lanes = s->ctx.nthreads - widx * 32;
    size_t nregs = s->p.prog->nregs ? s->p.prog->nregs : 1;
    memset(w, 0, sizeof *w);
    w->valid = 1;
    w->cta = (uint8_t)cta;
    w->widx = widx;
    w->t_start = now;
    memset(s->regs + (size_t)slot * nregs * EX_WARP, 0, nregs * EX_WARP * sizeof(uint64_t));
    memset(s->lmem + (size_t)slot * EX_WARP * s->p.prog->local_size, 0,
           (size_t)EX_WARP * s->p.prog->local_size);
    memset(s->pscratch + (size_t)slot * EX_WARP * s->p.prog->pscratch_size, 0,
           (size_t)EX_WARP * s->p.prog->pscratch_size);
    s->launch_pending |= 1ull << slot;
    s->live |= 1ull << slot;
    s->launch_mask[slot] = lanes >= 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
}

void sm_launch_cta(struct sm *s, uint64_t id, uint64_t now)
{
    const struct sm_params *p = &s->p;
    uint32_t c, first = 0, i;
    struct sm_cta *k;
    for (c = 0; c < SM_MAX_CTAS && s->ctas[c].valid; c++)
        ;
    if (c == SM_MAX_CTAS || !free_warp_slots(s, &first))
        return;                            /* the dispatcher asked sm_can_launch first */
    k = &s->ctas[c];
    memset(k, 0, sizeof *k);
    k->valid = 1;
    s->nctas++;
    s->cta_valid |= 1u << c;
    k->id = id;
    k->ctaid[0] = (uint32_t)(id % p->grid.x);
    k->ctaid[1] = (uint32_t)(id / p->grid.x % p->grid.y);
    k->ctaid[2] = (uint32_t)(id / ((uint64_t)p->grid.x * p->grid.y));
    k->nwarps = s->nwarps_per_cta;
    k->first_warp_slot = first;
    k->t_start = now;
    memset(s->smem + (size_t)c * s->smem_size, 0, s->smem_size);
    for (i = 0; i < k->nwarps; i++) {
        start_warp(s, first + i, c, i, now);
        k->warp_mask |= 1ull << (first + i);
    }
    s->bar_launch_cta = (int)c;
    s->bar_launch_mask = k->warp_mask;
}

/* Nothing resident, in flight or about to arrive: a cycle would change no state. */
int sm_idle(const struct sm *s)
{
    return !s->nctas && !s->launch_pending && !s->fu_o.nrel && !s->ldst_o.nrel &&
           !s->bar_release && !s->fu_q.count && !sm_busy(s);
}

void sm_skip_cycle(struct sm *s)
{
    s->s.sched_cycles[ST_NO_WARP] += s->nsched;
}

int sm_busy(const struct sm *s)
{
    return s->nctas || s->ldst_q->count || s->fq.n || s->sq.n || l1_busy(&s->l1_c, s->l1_q);
}

/* A finished warp leaves its CTA; the CTA is done when every warp finished and wrote back. */
static void cta_check_done(struct sm *s, uint32_t c, uint64_t now, struct sm_io *io,
                           struct sm_tb *tbs, uint32_t *ntbs)
{
    struct sm_cta *k = &s->ctas[c];
    struct sm_tb tb;
    uint32_t i;
    if (!k->valid || k->warps_done < k->nwarps)
        return;
    for (i = 0; i < k->nwarps; i++)
        if (s->warps[k->first_warp_slot + i].pending)
            return;
    memset(&tb, 0, sizeof tb);
    tb.min_warp_cycles = tb.min_warp_insns = UINT64_MAX;
    for (i = 0; i < k->nwarps; i++) {
        struct sm_warp *w = &s->warps[k->first_warp_slot + i];
        uint64_t cyc = w->t_end - w->t_start;
        tb.min_warp_cycles = cyc < tb.min_warp_cycles ? cyc : tb.min_warp_cycles;
        tb.max_warp_cycles = cyc > tb.max_warp_cycles ? cyc : tb.max_warp_cycles;
        tb.min_warp_insns = w->insns < tb.min_warp_insns ? w->insns : tb.min_warp_insns;
        tb.max_warp_insns = w->insns > tb.max_warp_insns ? w->insns : tb.max_warp_insns;
        w->valid = 0;
    }
    tb.stall_life = k->stall_life;
    tb.stall_dwr = k->stall_dwr;
    if (*ntbs < 2) {
        tbs[*ntbs] = tb;
        io->done_cta[*ntbs] = k->id;
        (*ntbs)++;
    }
    io->ctas_done++;
    s->st->ctas++;
    k->valid = 0;
    s->nctas--;
    s->cta_valid &= ~(1u << c);
    (void)now;
}

/* ------------------------------------------------------------------ memory port */

static void memq_push(struct sm_memq *q, const struct mem_req *r, uint64_t now)
{
    struct mem_req *e = &q->e[(q->head + q->n) % SM_MEMQ];
    *e = *r;
    e->t_issue = now;
    q->n++;
}

static void memq_pop(struct sm_memq *q)
{
    q->head = (q->head + 1) % SM_MEMQ;
    q->n--;
}

enum { SRC_NONE = 0, SRC_FETCH, SRC_SIMT, SRC_LDST };

/* Step 1: the L1 with the chosen request; route its response. */
static int l1_step(struct sm *s, uint64_t now, struct sm_io *io, struct l1_out *lo)
{
    struct l1_in li;
    int src = SRC_NONE;
    memset(&li, 0, sizeof li);
    li.now = now;
    li.icnt_ready = io->icnt_ready;
    li.fill_valid = io->fill_valid;
    if (io->fill_valid)
        li.fill = io->fill;
    if (s->fq.n) { src = SRC_FETCH; li.req = s->fq.e[s->fq.head]; }
    else if (s->sq.n) { src = SRC_SIMT; li.req = s->sq.e[s->sq.head]; }
    else if (s->ldst_o.req_valid) { src = SRC_LDST; li.req = s->ldst_o.req; }
    li.req_valid = src != SRC_NONE;
    l1_eval(&s->l1_c, s->l1_q, &li, lo, s->l1_d);
    io->miss_valid = lo->miss_valid;
    if (lo->miss_valid)
        io->miss = lo->miss;
    s->s.l1_hits += lo->ev_hit;
    s->s.l1_misses += lo->ev_miss;
    s->s.l1_merges += lo->ev_merge;
    s->s.l1_stall_mshr += lo->ev_stall_mshr;
    s->s.l1_rsrv_fail += lo->ev_rsrv_fail;
    if (!lo->ready)
        return SRC_NONE;
    if (src == SRC_FETCH) memq_pop(&s->fq);
    if (src == SRC_SIMT) memq_pop(&s->sq);
    return src;
}

/* Step 2: the SIMT stack with the control outcomes latched at the last issue. */
static void simt_step(struct sm *s, uint64_t now, const struct l1_out *lo)
{
    struct simt_in in;
    uint32_t w = 0;
    uint64_t m;
    memcpy(in.upd, s->upd_latch, sizeof in.upd);
    in.launch = s->launch_pending;
    for (m = s->launch_pending; m; m &= m - 1)
        in.launch_mask[__builtin_ctzll(m)] = s->launch_mask[__builtin_ctzll(m)];
    in.fill_v = 0;
    in.fill_slot = 0;
    in.req_ready = s->sq.n < SM_MEMQ;
    if (lo->resp_valid && lo->resp.kind == MK_FILL) {
        in.fill_v = 1;
        in.fill_slot = lo->resp.warp;
    }
    if (s->rec && s->rec->block == REC_SIMT)
        sm_rec_put(s->rec, now, &in, sizeof in);
    simt_eval(&s->simt_c, s->simt_q, &in, s->simt_o, s->simt_d);
    (void)w;
    if (s->simt_o->req_v && in.req_ready)
        memq_push(&s->sq, &s->simt_o->req, now);
    s->s.simt_push += s->simt_o->ev_push;
    s->s.simt_pop += s->simt_o->ev_pop;
    s->s.simt_spill += s->simt_o->ev_spill;
    s->s.simt_fill += s->simt_o->ev_fill;
    if (s->simt_o->ev_depth > s->s.simt_max_depth)
        s->s.simt_max_depth = s->simt_o->ev_depth;
}

/* Step 3: fetch and the I-buffers. */
static void fetch_step(struct sm *s, uint64_t now, const struct l1_out *lo)
{
    struct fetch_in in;
    in.pc_v = s->live & ~s->simt_o->fin;
    in.fill_v = 0;
    memcpy(in.pc, s->simt_o->pc, sizeof in.pc);
    in.pc_end = s->p.prog->ninsns;
    in.flush = s->simt_o->redirect | s->launch_pending;
    memcpy(in.consume, s->cons_latch, sizeof in.consume);
    in.req_ready = s->fq.n < SM_MEMQ;
    if (lo->resp_valid && lo->resp.kind == MK_IFETCH) {
        in.fill_v = 1;
        in.fill_tag = (uint8_t)lo->resp.tag;
    }
    fetch_eval(&s->fetch_c, s->fetch_q, &in, s->fetch_o, s->fetch_d);
    if (s->fetch_o->req_v && in.req_ready)
        memq_push(&s->fq, &s->fetch_o->req, now);
    s->s.icache_hits += s->fetch_o->ev_hit;
    s->s.icache_misses += s->fetch_o->ev_miss;
}

/* Step 4: the scoreboard; also counts down each warp's outstanding results. */
static uint64_t sb_step(struct sm *s)
{
    struct sb_in *inp = &s->sb_in, in_unused;
#define in (*inp)
    struct sb_out out;
    uint32_t w, i, n = 0;
    uint64_t m;
    (void)in_unused;
    memset(in.rel, 0, sizeof in.rel);
    in.setvwi = s->launch_pending;
    for (m = s->launch_pending; m; m &= m - 1)
        in.setvwi_vwi[__builtin_ctzll(m)] = (uint8_t)__builtin_ctzll(m);
    for (i = 0; i < s->fu_o.nrel && n < SB_MAX_REL; i++, n++) {
        in.rel[n].v = 1; in.rel[n].slot = s->fu_o.rel[i].warp;
        in.rel[n].vwi = s->fu_o.rel[i].vwi; in.rel[n].reg = s->fu_o.rel[i].reg;
        s->warps[s->fu_o.rel[i].warp].pending--;
    }
    for (i = 0; i < s->ldst_o.nrel && n < SB_MAX_REL; i++, n++) {
        in.rel[n].v = 1; in.rel[n].slot = s->ldst_o.rel[i].warp;
        in.rel[n].vwi = s->ldst_o.rel[i].vwi; in.rel[n].reg = s->ldst_o.rel[i].reg;
        s->warps[s->ldst_o.rel[i].warp].pending--;
        s->warps[s->ldst_o.rel[i].warp].loads--;
    }
    memcpy(in.res, s->res_latch, sizeof in.res);
    in.chk_v = s->fetch_o->head_v;
    for (m = s->fetch_o->head_v; m; m &= m - 1) {
        const struct sm_dec *d;
        w = (uint32_t)__builtin_ctzll(m);
        d = &s->dec[s->fetch_o->head_pc[w]];
        in.chk_n[w] = d->nchk;
        memcpy(in.chk_reg[w], d->chk, sizeof d->chk);
    }
    in.cnt_v = 0;
    if (s->rec && s->rec->block == REC_SB)
        sm_rec_put(s->rec, s->now, &in, sizeof in);
    sb_eval(&s->sb_c, s->sb_q, &in, &out, s->sb_d);
#undef in
    return (uint64_t)out.hazard;          /* the SM's slots are 64 */
}

/* ------------------------------------------------------------------ issue */

/* Why warp w cannot issue this cycle (ST_ISSUED = it can). */
static enum sm_stall warp_state(const struct sm *s, uint32_t w, uint32_t sched, uint64_t hazard,
                                int mem_port_taken)
{
    const struct sm_warp *wp = &s->warps[w];
    const struct sm_dec *d;
    uint32_t pc;
    if (!(s->fetch_o->head_v >> w & 1))
        return ST_IBUF;
    pc = s->fetch_o->head_pc[w];
    if (pc != s->simt_o->pc[w])
        return ST_IBUF;                   /* stale head: a redirect is on its way */
    if (wp->at_bar)
        return ST_BARRIER;
    if (s->simt_o->busy >> w & 1)
        return ST_STACK;
    if (hazard >> w & 1)
        return wp->loads ? ST_LONG_MEM : ST_SHORT_DEP;
    d = &s->dec[pc];
    if (!(s->fu_o.unit_free[sched] >> d->unit & 1) || s->fu_o.full ||
        (d->path == PATH_MEM && (!s->ldst_o.can_issue || mem_port_taken)))
        return ST_STRUCT;
    return ST_ISSUED;
}

static const uint8_t stall_rank[ST_COUNT] = {
    [ST_ISSUED] = 9, [ST_STRUCT] = 8, [ST_SHORT_DEP] = 7, [ST_LONG_MEM] = 6, [ST_STACK] = 5,
    [ST_BARRIER] = 4, [ST_IBUF] = 3, [ST_NO_WARP] = 0
};

/* Build one scheduler's ready mask; returns the stall class of its best warp. */
static enum sm_stall sched_masks(const struct sm *s, uint32_t sched, uint64_t hazard,
                                 int mem_port_taken, struct ws_in *in)
{
    enum sm_stall best = ST_NO_WARP;
    uint64_t m = s->live & ~s->simt_o->fin & s->sched_slots[sched];
    in->valid = in->ready = in->fresh = in->lstall = 0;     /* in->prio stays 0 */
    for (; m; m &= m - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(m), i = w / s->nsched;
        enum sm_stall st;
        in->valid |= slot_bit(i);
        if (s->launch_pending >> w & 1)
            in->fresh |= slot_bit(i);
        st = warp_state(s, w, sched, hazard, mem_port_taken);
        if (st == ST_ISSUED)
            in->ready |= slot_bit(i);
        if (st == ST_LONG_MEM)
            in->lstall |= slot_bit(i);
        if (stall_rank[st] > stall_rank[best])
            best = st;
    }
    return best;
}

/* Per-lane timing address of a local-memory access: words interleaved across the warp's lanes,
   so that the same offset in every lane is one 128-byte line. */
static uint64_t local_addr(const struct sm *s, uint32_t slot, uint32_t lane, uint64_t off)
{
    uint64_t words = (s->p.prog->local_size + 3) / 4;
    return s->p.local_base + ((uint64_t)slot * words + off / 4) * 128 + lane * 4 + off % 4;
}

static void issue_ldst(struct sm *s, uint32_t w, const struct sm_dec *d, const struct ptx_insn *in,
                       struct ldst_issue *li)
{
    const struct ex_result *r = &s->res;
    uint32_t m;
    li->ndst = 0;
    li->valid = 1;
    li->warp = (uint8_t)w;
    li->vwi = (uint8_t)w;
    li->kind = (uint8_t)(r->is_atomic ? MK_ATOMIC : r->is_store ? MK_STORE : MK_LOAD);
    li->mask = r->exec_mask;
    li->bytes = r->access_bytes;
    for (m = r->exec_mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        li->addr[l] = r->space == PS_LOCAL ? local_addr(s, w, l, r->addr[l]) : r->addr[l];
    }
    if (in->op != OP_ST && in->op != OP_RED) {
        li->ndst = d->ndst;
        memcpy(li->dst, d->dst, sizeof li->dst);
        s->warps[w].loads += d->ndst;
    }
}

/* Latency and initiation interval of a memory instruction served at fixed latency. */
static void fixed_mem(struct sm *s, const struct ptx_insn *in, uint32_t *lat, uint32_t *ii)
{
    const struct gpu_config *c = s->p.conf;
    const struct ex_result *r = &s->res;
    if (r->space == PS_SHARED) {
        uint32_t deg = ldst_bank_degree(r->addr, r->exec_mask, r->access_bytes);
        *lat = c->lat_shared + deg - 1;
        *ii = c->ii_mem * deg;
        s->s.shared_conflict_cycles += deg - 1;
    } else {
        *lat = r->space == PS_CONST ? c->lat_const : c->lat_param;
        *ii = c->ii_mem;
    }
    (void)in;
}

struct issue_out {                       /* this cycle's issues, for fu / ldst / bar */
    struct fu_in fu;
    struct ldst_in ld;                   /* ld.issue is this cycle's LD/ST issue */
    struct bar_in bar;
    uint32_t nbar;
};

/* Clear only what every cycle reads (the LD/ST addresses are read only for issued lanes). */
static void issue_out_clear(struct issue_out *io)
{
    memset(&io->fu, 0, sizeof io->fu);
    io->ld.issue.valid = 0;
    io->ld.issue.mask = 0;
    memset(&io->bar, 0, sizeof io->bar);
    io->nbar = 0;
}

static void latch_control(struct sm *s, uint32_t port, uint32_t w, uint32_t pc)
{
    struct simt_upd *u = &s->upd_latch[port];
    const struct ex_result *r = &s->res;
    u->v = 1;
    u->slot = (uint8_t)w;
    u->kind = SIMT_NORMAL;
    if (r->kind == EX_BRANCH) {
        u->kind = SIMT_BRANCH;
        u->taken = r->taken;
        u->target = r->target;
        u->reconv = s->p.flow->reconv[pc];
    } else if (r->kind == EX_EXIT) {
        u->kind = SIMT_EXIT;
        u->exited = r->exited;
    }
    s->cons_latch[port].v = 1;
    s->cons_latch[port].slot = (uint8_t)w;
}

/* Execute warp w's head instruction on scheduler `sched`. Returns -1 on a kernel fault. */
static int issue(struct sm *s, uint32_t sched, uint32_t w, uint64_t now, struct issue_out *io)
{
    struct sm_warp *wp = &s->warps[w];
    uint32_t pc = s->fetch_o->head_pc[w], mask = s->simt_o->mask[w];
    const struct ptx_insn *in = &s->p.prog->insns[pc];
    const struct sm_dec *d = &s->dec[pc];
    struct fu_issue *fi = &io->fu.issue[sched];
    const struct sm_cta *k = &s->ctas[wp->cta];
    s->ctx.regs = s->regs + (size_t)w * (s->p.prog->nregs ? s->p.prog->nregs : 1) * EX_WARP;
    s->ctx.lmem = s->lmem + (size_t)w * EX_WARP * s->p.prog->local_size;
    s->ctx.pscratch = s->pscratch + (size_t)w * EX_WARP * s->p.prog->pscratch_size;
    s->ctx.smem = s->smem + (size_t)wp->cta * s->smem_size;
    s->ctx.tid0 = wp->widx * 32;
    s->ctx.warpid = w;
    memcpy(s->ctx.ctaid, k->ctaid, sizeof k->ctaid);
    s->ctx.clock = now;
    ex_exec(&s->ctx, pc, mask, &s->res);
    if (s->res.kind == EX_ERROR) {
        snprintf(s->err, sizeof s->err, "%s", s->res.err);
        return -1;
    }
    wp->insns++;
    s->s.warp_insns++;
    s->st->warp_insns++;
    s->st->thread_insns += (uint64_t)__builtin_popcount(s->res.exec_mask);
    s->st->lane_util[__builtin_popcount(mask)]++;
    if (in->op == OP_BRA && in->guard >= 0) {
        s->st->branches++;
        if (s->res.taken && s->res.taken != mask)
            s->st->divergent_branches++;
    }
    latch_control(s, sched, w, pc);
    fi->valid = 1; fi->sched = (uint8_t)sched; fi->unit = d->unit;
    fi->warp = (uint8_t)w; fi->vwi = (uint8_t)w; fi->lat = d->lat; fi->ii = d->ii;
    if (d->path == PATH_MEM) {
        s->st->mem_insns++;
        s->st->atomics += in->op == OP_ATOM || in->op == OP_RED;
        if ((s->res.space == PS_GLOBAL || s->res.space == PS_LOCAL) && s->res.exec_mask) {
            issue_ldst(s, w, d, in, &io->ld.issue);
            fi->ndst = 0;                 /* results come back through ldst */
            wp->pending += io->ld.issue.ndst;
            goto reserve;
        }
        fixed_mem(s, in, &fi->lat, &fi->ii);
    }
    if (s->res.kind == EX_BARRIER) {
        s->st->barriers++;
        if (in->sub != 1 && io->nbar < BAR_PORTS) {
            wp->at_bar = 1;
            io->bar.arrive[io->nbar].valid = 1;
            io->bar.arrive[io->nbar].cta = wp->cta;
            io->bar.arrive[io->nbar].warp = (uint8_t)w;
            io->nbar++;
        }
    }
    if (in->op != OP_ST && in->op != OP_RED) {
        fi->ndst = d->ndst;
        memcpy(fi->dst, d->dst, sizeof fi->dst);
        wp->pending += d->ndst;
    }
reserve:
    s->res_latch[sched].v = d->ndst && in->op != OP_ST && in->op != OP_RED;
    s->res_latch[sched].slot = (uint8_t)w;
    s->res_latch[sched].n = d->ndst;
    memcpy(s->res_latch[sched].reg, d->dst, sizeof d->dst);
    return 0;
}

/* ------------------------------------------------------------------ cycle */

static void clear_latches(struct sm *s)
{
    memset(s->upd_latch, 0, sizeof s->upd_latch);
    memset(s->cons_latch, 0, sizeof s->cons_latch);
    memset(s->res_latch, 0, sizeof s->res_latch);
}

/* Step 5: readiness, scheduling, issue. Returns -1 on a fault; *issued = warps issued. */
static int schedule(struct sm *s, uint64_t now, uint64_t hazard, struct issue_out *io,
                    uint32_t *issued)
{
    uint32_t k;
    int mem_taken = 0;                   /* the LD/ST unit takes one instruction per cycle */
    clear_latches(s);
    *issued = 0;
    for (k = 0; k < s->nsched; k++) {
        struct ws_in *in = &s->ws_in[k];
        struct ws_out out;
        enum sm_stall st = sched_masks(s, k, hazard, mem_taken, in);
        if (k == 0 && s->rec && s->rec->block == REC_WS)
            sm_rec_put(s->rec, now, in, sizeof *in);
        ws_eval(&s->ws_c[k], &s->ws_q[k], in, &out, &s->ws_d[k]);
        if (out.issue_v) {
            uint32_t w = out.issue_slot * s->nsched + k;
            mem_taken |= s->dec[s->fetch_o->head_pc[w]].path == PATH_MEM;
            if (issue(s, k, w, now, io))
                return -1;
            (*issued)++;
            st = ST_ISSUED;
        }
        s->s.sched_cycles[st]++;
    }
    return 0;
}

/* Warps the SIMT stack reports finished leave; CTAs whose warps all finished complete. */
static void retire(struct sm *s, uint64_t now, struct issue_out *io, struct sm_io *sio,
                   struct sm_tb *tbs, uint32_t *ntbs)
{
    uint64_t m = s->simt_o->fin & s->live & ~s->launch_pending;
    uint32_t w, c, nexit = 0;
    for (; m; m &= m - 1) {
        struct sm_warp *wp;
        w = (uint32_t)__builtin_ctzll(m);
        wp = &s->warps[w];
        s->live &= ~(1ull << w);
        wp->done = 1;
        wp->t_end = now;
        if (++s->ctas[wp->cta].warps_done == s->ctas[wp->cta].nwarps)
            s->cta_draining |= 1u << wp->cta;
        if (!s->ctas[wp->cta].t_first_done)
            s->ctas[wp->cta].t_first_done = now;
        if (nexit < BAR_PORTS) {
            io->bar.exit[nexit].valid = 1;
            io->bar.exit[nexit].cta = wp->cta;
            io->bar.exit[nexit].warp = (uint8_t)w;
            nexit++;
        }
    }
    for (uint32_t d = s->cta_draining; d; d &= d - 1) {
        c = (uint32_t)__builtin_ctz(d);
        cta_check_done(s, c, now, sio, tbs, ntbs);
        if (!s->ctas[c].valid)
            s->cta_draining &= ~(1u << c);
    }
}

/* Stall cycles (no scheduler issued) charged to every resident CTA, and to its DWR region
   once one of its warps has finished (000_0da6b8b480bd0740.txt Section 3, DWS). */
static void charge_stall(struct sm *s, uint32_t issued)
{
    uint32_t c;
    if (issued)
        return;
    for (uint32_t m = s->cta_valid; m; m &= m - 1) {
        c = (uint32_t)__builtin_ctz(m);
        s->ctas[c].stall_life++;
        if (s->ctas[c].warps_done)
            s->ctas[c].stall_dwr++;
    }
}

static void commit_all(struct sm *s)
{
    uint32_t k;
    for (k = 0; k < s->nsched; k++)
        ws_commit(&s->ws_c[k], &s->ws_q[k], &s->ws_d[k]);
    sb_commit(&s->sb_c, s->sb_q, s->sb_d);
    simt_commit(&s->simt_c, s->simt_q, s->simt_d);
    fetch_commit(&s->fetch_c, s->fetch_q, s->fetch_d);
    fu_commit(&s->fu_c, &s->fu_q, &s->fu_d);
    ldst_commit(&s->ldst_c, s->ldst_q, s->ldst_d);
    bar_commit(&s->bar_c, &s->bar_q, &s->bar_d);
    l1_commit(&s->l1_c, s->l1_q, s->l1_d);
}

static void units_step(struct sm *s, uint64_t now, int l1_src, const struct l1_out *lo,
                       struct issue_out *io)
{
    struct ldst_in *li = &io->ld;
    struct bar_out bo;
    io->fu.now = now;
    fu_eval(&s->fu_c, &s->fu_q, &io->fu, &s->fu_o, &s->fu_d);
    li->now = now;
    li->accepted = l1_src == SRC_LDST;
    li->resp_valid = 0;
    li->resp_tag = 0;
    if (lo->resp_valid && (lo->resp.kind == MK_LOAD || lo->resp.kind == MK_ATOMIC)) {
        li->resp_valid = 1;
        li->resp_tag = lo->resp.tag;
    }
    ldst_eval(&s->ldst_c, s->ldst_q, li, &s->ldst_o, s->ldst_d);
    if (s->bar_launch_cta >= 0) {
        io->bar.launch_valid = 1;
        io->bar.launch_cta = (uint8_t)s->bar_launch_cta;
        io->bar.launch_mask = s->bar_launch_mask;
        s->bar_launch_cta = -1;
    }
    bar_eval(&s->bar_c, &s->bar_q, &io->bar, &bo, &s->bar_d);
    s->bar_release = bo.release;
}

static void release_barriers(struct sm *s)
{
    uint32_t w;
    for (w = 0; s->bar_release && w < SM_MAX_WARPS; w++)
        if (s->bar_release >> w & 1)
            s->warps[w].at_bar = 0;
}

int sm_cycle(struct sm *s, uint64_t now, struct sm_io *sio, struct sm_tb *tbs, uint32_t *ntbs)
{
    struct l1_out lo;
    struct issue_out io;
    uint64_t hazard;
    uint32_t issued;
    int src;
    s->now = now;
    sio->miss_valid = 0;
    sio->ctas_done = 0;
    *ntbs = 0;
    issue_out_clear(&io);
    release_barriers(s);
    src = l1_step(s, now, sio, &lo);
    simt_step(s, now, &lo);
    fetch_step(s, now, &lo);
    hazard = sb_step(s);
    if (schedule(s, now, hazard, &io, &issued))
        return -1;
    s->launch_pending = 0;
    units_step(s, now, src, &lo, &io);
    retire(s, now, &io, sio, tbs, ntbs);
    charge_stall(s, issued);
    commit_all(s);
    sio->issued = issued > 0;
    return 0;
}

void sm_dump(const struct sm *s, FILE *f)
{
    uint32_t w;
    fprintf(f, "SM %u:\n", s->p.id);
    for (w = 0; w < SM_MAX_WARPS; w++) {
        const struct sm_warp *wp = &s->warps[w];
        uint32_t k, pend = 0;
        if (!wp->valid)
            continue;
        for (k = 0; k < SB_WORDS; k++)
            pend += (uint32_t)__builtin_popcountll(s->sb_q->pend[w][k]);
        fprintf(f, "  warp slot %2u CTA %llu warp %u: pc %u mask %08x stack depth %u%s%s, "
                "scoreboard %u pending (%u results, %u loads in flight), %s%s\n", w,
                (unsigned long long)s->ctas[wp->cta].id, wp->widx, s->simt_o->pc[w],
                s->simt_o->mask[w], simt_depth(s->simt_q, w),
                s->simt_o->busy >> w & 1 ? " (busy: spill/fill/pop)" : "",
                s->fetch_o->head_v >> w & 1 ? "" : ", I-buffer empty", pend, wp->pending,
                wp->loads, wp->at_bar ? "waiting at barrier" : "not at a barrier",
                wp->done ? ", finished" : "");
    }
}
