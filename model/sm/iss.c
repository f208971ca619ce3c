/*
 * iss.c -- the issue stage: slot readiness, stall classes, per-context and per-CTA counters,
 * and the instruction decoder (see iss.h).
 *
 * Per cycle, on the next state d (equal to q on entry), in this order:
 *   1. CTAs launched this cycle: their counters and their contexts' counters clear;
 *   2. the previous cycle's issues: loads in flight, results outstanding, barrier flags,
 *      progress;
 *   3. this cycle's writebacks: loads in flight and results outstanding count down;
 *   4. barrier releases clear the flags of the released CTAs' contexts;
 *   5. every valid slot is classified on d and its scheduler's outputs are built.
 */
#include <stdio.h>
#include <string.h>
#include "iss.h"
#include "ntb.h"
#include "fu.h"
#include "sm_limits.h"
#include "base/config.h"
#include "base/cost.h"
#include "ptx/ptx.h"

void iss_cfg_default(struct iss_cfg *c)
{
    c->nslots = 48;
    c->nsched = 2;
    c->nctx = 48;
    c->nctas = 8;
    c->progress = 0;
    c->tally = 0;
}

int iss_cfg_check(const struct iss_cfg *c, char *err, size_t errlen)
{
    if (c->nslots < 1 || c->nslots > SM_MAX_SLOTS || c->nsched < 1 || c->nsched > ISS_MAX_SCHED ||
        c->nctx < 1 || c->nctx > SM_MAX_CTX || c->nctas < 1 || c->nctas > SM_MAX_CTAS ||
        c->progress > 1) {
        snprintf(err, errlen, "iss: nslots %u (1..%u), nsched %u (1..%u), nctx %u (1..%u), "
                 "nctas %u (1..%u), progress %u (0..1)", c->nslots, SM_MAX_SLOTS, c->nsched,
                 ISS_MAX_SCHED, c->nctx, SM_MAX_CTX, c->nctas, SM_MAX_CTAS, c->progress);
        return -1;
    }
    return 0;
}

void iss_reset(const struct iss_cfg *c, struct iss_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ counters */

static void launch(const struct iss_cfg *c, const struct iss_in *in, struct iss_regs *d)
{
    for (uint32_t x = 0; x < c->nctx; x++)
        if (in->ctx_cta[x] < SM_MAX_CTAS && (in->cta_launch >> in->ctx_cta[x] & 1)) {
            d->loads[x] = 0;
            d->at_bar[x] = 0;
            d->insns[x] = 0;
        }
    for (uint64_t m = in->cta_launch; m; m &= m - 1) {
        unsigned k = (unsigned)__builtin_ctzll(m);
        d->pend[k] = 0;
        d->prog[k] = 0;
        d->nbar[k] = 0;
    }
}

static void issued(const struct iss_cfg *c, const struct iss_issue *e, const struct iss_in *in,
                   struct iss_regs *d)
{
    uint8_t k = in->ctx_cta[e->ctx];
    if (k >= SM_MAX_CTAS)
        return;
    if (e->load)
        d->loads[e->ctx] = (uint16_t)(d->loads[e->ctx] + e->ndst);
    d->pend[k] = (uint16_t)(d->pend[k] + e->ndst);
    if (e->bar)
        d->at_bar[e->ctx] = 1;
    if (c->progress) {
        d->nbar[k] = (uint8_t)(d->nbar[k] + e->bar);
        d->insns[e->ctx]++;
        d->prog[k]++;
        if (e->iter) {                     /* VTW's nexttbid: a new iteration's progress */
            d->prog[k] -= d->insns[e->ctx];
            d->insns[e->ctx] = 0;
        }
    }
}

static void released(const struct iss_rel *e, const struct iss_in *in, struct iss_regs *d)
{
    uint8_t k = in->ctx_cta[e->ctx];
    if (k >= SM_MAX_CTAS)
        return;
    if (e->load && d->loads[e->ctx])
        d->loads[e->ctx]--;
    if (d->pend[k])
        d->pend[k]--;
}

static void bar_release(const struct iss_cfg *c, const struct iss_in *in, struct iss_regs *d)
{
    for (uint32_t x = 0; x < c->nctx; x++)
        if (in->ctx_cta[x] < SM_MAX_CTAS && (in->bar_release >> in->ctx_cta[x] & 1))
            d->at_bar[x] = 0;
    for (uint64_t m = in->bar_release; m; m &= m - 1)
        d->nbar[__builtin_ctzll(m)] = 0;
}

/* ------------------------------------------------------------------ readiness */

/* The valid slots by class (the header's table, first match wins), as masks: what the
   classifier decides for every slot at once. */
struct cls {
    slotmask v, ibuf, bar, stack, lmem, sdep, strct, ready;
};

/* Any of the n bytes at p non-zero? */
static int any_byte(const uint8_t *p, size_t n)
{
    uint64_t w, acc = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        acc |= w;
    }
    for (; i < n; i++)
        acc |= p[i];
    return acc != 0;
}

/* The slots of m whose context's counter or flag (v, one per context, 1 or 2 bytes each) is
   non-zero; a 64-slot half at a time, which is cheaper than walking a 128-bit mask. */
static slotmask ctx_slots(slotmask m, const uint8_t *slot_ctx, const void *v, size_t size)
{
    uint64_t r[2] = {0, 0};
    for (unsigned h = 0; h < 2; h++)
        for (uint64_t x = (uint64_t)(m >> 64 * h); x; x &= x - 1) {
            unsigned x_ctx = slot_ctx[64 * h + (unsigned)__builtin_ctzll(x)];
            if (size == 1 ? ((const uint8_t *)v)[x_ctx] : ((const uint16_t *)v)[x_ctx])
                r[h] |= x & -x;
        }
    return (slotmask)r[1] << 64 | r[0];
}

/* The slots of m whose context waits at a barrier. */
static slotmask at_bar_slots(const struct iss_cfg *c, const struct iss_regs *d,
                             const struct iss_in *in, slotmask m)
{
    if (!any_byte(d->at_bar, c->nctx))
        return 0;
    return ctx_slots(m, in->slot_ctx, d->at_bar, sizeof d->at_bar[0]);
}

/* The slots of m that cannot issue for a structural reason: the head's unit is busy for its
   scheduler, the result queue is full, or a memory head while LD/ST cannot take one. */
static slotmask struct_slots(const struct iss_cfg *c, const struct iss_in *in, slotmask m)
{
    slotmask r, tmp;
    unsigned w;
    if (in->fu_full)
        return m;
    r = in->ldst_ready ? 0 : m & in->head_mem;
    for (SLOT_EACH(w, m & ~r, tmp))
        if (!(in->unit_free[w % c->nsched] >> in->head_unit[w] & 1))
            r |= slot_bit(w);
    return r;
}

static void classify(const struct iss_cfg *c, const struct iss_regs *d, const struct iss_in *in,
                     struct cls *k)
{
    slotmask a, b, hz, free;
    k->v = in->valid & slot_first(c->nslots);
    k->ibuf = k->v & ~in->head_ok;
    a = k->v & in->head_ok;
    k->bar = a & (in->hold | at_bar_slots(c, d, in, a));
    b = a & ~k->bar;
    k->stack = b & in->busy;
    b &= ~in->busy;
    hz = b & in->hazard;
    k->lmem = ctx_slots(hz, in->slot_ctx, d->loads, sizeof d->loads[0]);
    k->sdep = hz & ~k->lmem;
    free = b & ~in->hazard;
    k->strct = struct_slots(c, in, free);
    k->ready = free & ~k->strct;
}

/* The best class of scheduler k's valid slots that are not ready: ranked structural > short
   dependence > long memory > SIMT stack > barrier > I-buffer > no warp. */
static uint8_t best_class(const struct cls *k, slotmask mine)
{
    if (k->strct & mine)
        return ISS_STRUCT;
    if (k->sdep & mine)
        return ISS_SHORT_DEP;
    if (k->lmem & mine)
        return ISS_LONG_MEM;
    if (k->stack & mine)
        return ISS_STACK;
    if (k->bar & mine)
        return ISS_BARRIER;
    if (k->ibuf & mine)
        return ISS_IBUF;
    return ISS_NO_WARP;
}

/* Per CTA: valid slots and slots stalled on memory (progress, tally). */
struct cta_tally { uint8_t valid[SM_MAX_CTAS], mem[SM_MAX_CTAS]; uint64_t seen; };

static void tally(const struct iss_in *in, const struct cls *k, struct cta_tally *t)
{
    slotmask tmp;
    unsigned w;
    for (SLOT_EACH(w, k->v, tmp)) {
        uint8_t x = in->ctx_cta[in->slot_ctx[w]];
        if (x < SM_MAX_CTAS) {
            t->seen |= 1ull << x;
            t->valid[x]++;
            t->mem[x] = (uint8_t)(t->mem[x] + slot_has(k->lmem, w));
        }
    }
}

/* Scheduler k's outputs in its local numbering (slot w is its local slot w / nsched). */
static void sched_out(const struct iss_cfg *c, const struct iss_in *in, const struct cls *k,
                      unsigned i, struct iss_sched *s)
{
    unsigned n = c->nsched;
    s->valid = slot_deal(k->v, i, n);
    s->fresh = slot_deal(k->v & in->fresh, i, n);
    s->ready = slot_deal(k->ready, i, n);
    s->ready_mem = slot_deal(k->ready & in->head_mem, i, n);
    /* two-level: a long-latency load or a barrier wait leaves the active set */
    s->lstall = slot_deal(k->lmem | k->bar, i, n);
    s->best = best_class(k, k->v & slot_stride(i, n));
}

static void readiness(const struct iss_cfg *c, const struct iss_regs *d, const struct iss_in *in,
                      struct iss_out *out, struct cta_tally *t)
{
    struct cls k;
    classify(c, d, in, &k);
    for (unsigned i = 0; i < c->nsched; i++)
        sched_out(c, in, &k, i, &out->s[i]);
    if (c->progress || c->tally)
        tally(in, &k, t);
}

void iss_eval(const struct iss_cfg *c, const struct iss_regs *q, const struct iss_in *in,
              struct iss_out *out, struct iss_regs *d)
{
    struct cta_tally t;
    unsigned i;
    (void)q;                       /* d == q on entry: every update is a read-modify-write */
    if (in->cta_launch)
        launch(c, in, d);
    for (i = 0; i < ISS_MAX_SCHED; i++)
        if (in->issued[i].v)
            issued(c, &in->issued[i], in, d);
    for (i = 0; i < ISS_MAX_REL; i++)
        if (in->rel[i].v)
            released(&in->rel[i], in, d);
    if (in->bar_release)
        bar_release(c, in, d);
    out->quiet = out->memstall = 0;
    t.seen = 0;
    if (c->progress || c->tally) {
        memset(t.valid, 0, sizeof t.valid);
        memset(t.mem, 0, sizeof t.mem);
    }
    readiness(c, d, in, out, &t);
    for (i = 0; i < c->nctas; i++)
        if (!d->pend[i])
            out->quiet |= 1ull << i;
    for (uint64_t m = t.seen; m; m &= m - 1) {
        unsigned k = (unsigned)__builtin_ctzll(m);
        if (t.mem[k] == t.valid[k])
            out->memstall |= 1ull << k;
    }
    if (c->tally) {
        memcpy(out->nstall, t.mem, c->nctas);
        memcpy(out->nlive, t.valid, c->nctas);
    }
}

void iss_commit(const struct iss_cfg *c, struct iss_regs *q, const struct iss_regs *d)
{
    memcpy(q->loads, d->loads, c->nctx * sizeof q->loads[0]);
    memcpy(q->at_bar, d->at_bar, c->nctx * sizeof q->at_bar[0]);
    memcpy(q->pend, d->pend, c->nctas * sizeof q->pend[0]);
    if (c->progress) {
        memcpy(q->insns, d->insns, c->nctx * sizeof q->insns[0]);
        memcpy(q->prog, d->prog, c->nctas * sizeof q->prog[0]);
        memcpy(q->nbar, d->nbar, c->nctas * sizeof q->nbar[0]);
    }
}

/* ------------------------------------------------------------------ decoder */

static int is_f64(const struct ptx_insn *in)
{
    return in->type == PT_F64 || in->type2 == PT_F64;
}

/* Unit, latency and initiation interval by opcode (the lat_* and ii_* keys; gtx480 from
   001_8bf4399a5d1562fa.txt Table III). */
static void dec_latency(const struct gpu_config *c, const struct ptx_insn *in, struct iss_dec *d)
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
    /* device printf: one issue, latency 1; what a GPU's vprintf costs beyond the program's own
       argument stores is not modelled (docs/cuda.md "Device printf") */
    case OP_PRINTF: d->lat = 1; break;
    case OP_LD: case OP_ST: case OP_ATOM: case OP_RED:
        d->unit = FU_MEM; d->lat = 1; d->ii = c->ii_mem; d->path = ISS_PATH_MEM; return;
    default: break;
    }
    if (dp && d->unit == FU_SP) {
        d->unit = FU_DP;
        d->ii = c->ii_dp;
        if (in->op != OP_DIV && in->op != OP_REM)
            d->lat = c->lat_dp;
    }
    d->path = ISS_PATH_FIXED;
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

/* Which operands an instruction writes: opd[0] for most, also opd[1] for setp/shfl, and the
   carry flag for .cc (ptx_insn_carry). */
static int writes_dst(const struct ptx_insn *in, int i)
{
    if ((in->mod & MOD_CC) && i == ptx_insn_carry(in))
        return 1;
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_EXIT: case OP_BAR: case OP_MEMBAR:
    case OP_NOP: case OP_RET: case OP_CALL: case OP_PRINTF:
        return 0;
    case OP_SETP: case OP_SHFL:
        return i <= 1;
    default:
        return i == 0;
    }
}

void iss_decode(const struct gpu_config *c, const struct ptx_insn *in, struct iss_dec *d)
{
    int i;
    memset(d, 0, sizeof *d);
    dec_latency(c, in, d);
    /* VTW's extension: the next-TB-index unit answers through the late-write port (ntb.h);
       nextidxinblk only when a lane policy other than SameLane gives new indices */
    d->late = in->op == OP_NEXTTB || (in->op == OP_NEXTIDX && c->vtw_lane != NTB_SAME);
    for (i = 0; i < in->nopd && i < PTX_MAX_OPERANDS; i++) {
        if (writes_dst(in, i))
            add_opd(d->dst, &d->ndst, ISS_MAX_DST, &in->opd[i]);
        add_opd(d->chk, &d->nchk, ISS_MAX_CHK, &in->opd[i]);
    }
    add_reg(d->chk, &d->nchk, ISS_MAX_CHK, in->guard);
}

/* ------------------------------------------------------------------ registry */

uint32_t iss_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void iss_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct iss_cfg *out)
{
    (void)sm; (void)inst;
    iss_cfg_default(out);
    out->nslots = (uint8_t)sm_slots(c);
    out->nsched = (uint8_t)c->schedulers_per_sm;
    out->nctx = (uint16_t)sm_contexts(c);
    out->nctas = (uint8_t)sm_cta_slots(c);
    out->progress = c->vtw == VTW_HW;
    out->tally = c->vt == VT_ON;
}

/* Storage for the cost estimator (cost.h): per context the loads-in-flight counter and the
   barrier flag, per CTA the outstanding-result counter; with cfg.progress the progress
   counters of 000 Section 5. */
void iss_storage(const struct iss_cfg *c, struct cost_list *l)
{
    const char *m = "issue stage", *p = "progress counters (000 Sec. 4.5)";
    cost_begin(l, "iss");
    cost_add(l, (struct cost_item){.name = "loads", .mech = m, .entries = c->nctx, .bits = 9,
                                   .rports = COST_PAR, .wports = 2, .onchip = 1,
                                   .note = "[8:0] per context"});
    cost_add(l, (struct cost_item){.name = "at_bar", .mech = m, .entries = c->nctx, .bits = 1,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "pend", .mech = m, .entries = c->nctas, .bits = 14,
                                   .rports = COST_PAR, .wports = 2, .onchip = 1,
                                   .note = "[13:0] per CTA"});
    if (!c->progress)
        return;
    cost_add(l, (struct cost_item){.name = "insns", .mech = p, .entries = c->nctx, .bits = 32,
                                   .rports = COST_PAR, .wports = 2, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "prog", .mech = p, .entries = c->nctas, .bits = 32,
                                   .rports = COST_PAR, .wports = 2, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "nbar", .mech = "barrier counts (000 Algorithm 1)", .entries = c->nctas, .bits = 6,
                                   .rports = COST_PAR, .onchip = 1});
}
