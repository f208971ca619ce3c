/*
 * pas.c -- VTW's progress-aware scheduler (see pas.h).
 * Per cycle, on d (= q on entry): the previous cycle's nexttbid issues advance iter, nnext and
 * low, in scheduler order; then the CTA slots launched this cycle clear; the keys and `ahead`
 * of this cycle follow from d and this cycle's progress inputs.
 */
#include <string.h>
#include "pas.h"
#include "sm_limits.h"
#include "base/config.h"
#include "base/cost.h"

#define PAS_SLOW   4               /* the slow phase's single class (encoded as class 0) */
#define PAS_NCLS   5
#define PAS_NONE   0xFFFFu         /* end of a TB's member list */

void pas_cfg_default(struct pas_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->nctx = 48;
    c->nctas = 8;
    c->nsched = 2;
}

int pas_cfg_check(const struct pas_cfg *c, char *err, size_t errlen)
{
    if (c->nctx < 1 || c->nctx > SM_MAX_CTX || c->nctas < 1 || c->nctas > SM_MAX_CTAS ||
        c->nsched < 1 || c->nsched > PAS_MAX_SCHED) {
        snprintf(err, errlen, "pas: nctx %u (1..%u), nctas %u (1..%u), nsched %u (1..%u)",
                 c->nctx, SM_MAX_CTX, c->nctas, SM_MAX_CTAS, c->nsched, PAS_MAX_SCHED);
        return -1;
    }
    return 0;
}

void pas_reset(const struct pas_cfg *c, struct pas_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ iteration tracking */

static void next_iter(const struct pas_cfg *c, const struct pas_issue *e, const struct pas_in *in,
                      struct pas_regs *d)
{
    unsigned t = e->ctx < c->nctx ? in->ctx_cta[e->ctx] : PAS_NO_CTA;
    if (t >= c->nctas)
        return;
    if (d->iter[e->ctx] == d->low[t]) {
        d->nnext[t]++;
        if (d->nnext[t] == (in->cta_nw[t] & 63u)) {  /* the last warp left iteration low */
            d->low[t]++;
            d->nnext[t] = 0;
        }
    }
    d->iter[e->ctx]++;
}

static void launch(const struct pas_cfg *c, const struct pas_in *in, struct pas_regs *d)
{
    for (unsigned x = 0; x < c->nctx; x++)
        if (in->ctx_cta[x] < c->nctas && (in->cta_launch >> in->ctx_cta[x] & 1))
            d->iter[x] = 0;
    for (unsigned t = 0; t < c->nctas; t++)
        if (in->cta_launch >> t & 1) {
            d->low[t] = 0;
            d->nnext[t] = 0;
        }
}

/* ------------------------------------------------------------------ keys */

/* This cycle's view: valid contexts chained per TB, the TB sets, every class's TB ranks. */
struct pas_view {
    uint16_t head[SM_MAX_CTAS], next[SM_MAX_CTX];    /* member lists, ascending context */
    uint8_t  cls[SM_MAX_CTX];                        /* class of each valid context */
    uint64_t set[PAS_NCLS];                          /* the TBs each class ranks */
    uint8_t  rank[PAS_NCLS][SM_MAX_CTAS];            /* TB rank in the class's set */
};

/* TB sort value in a class: the smaller sorts first (the lower slot on equal values). */
static uint64_t tb_val(unsigned cls, unsigned t, const struct pas_in *in, const struct pas_regs *d)
{
    switch (cls) {
    case 3: return (uint64_t)(63u - (in->nbar[t] & 63u)) << 32 | (uint32_t)~in->prog[t];
    case 2: return (uint8_t)((in->cta_nw[t] & 63u) - d->nnext[t]);  /* lower-iteration warps */
    case 1: return (uint32_t)~in->prog[t];
    case 0: return 255u - d->nnext[t];
    default: return in->prog[t];                                /* slow phase */
    }
}

/* Warp sort value in a class: the smaller sorts first (the lower context on equal values). */
static uint64_t warp_val(unsigned cls, unsigned x, const struct pas_in *in)
{
    if (cls == 3)
        return (uint64_t)(in->at_bar[x] & 1u) << 32 | in->insns[x];
    return cls == 1 ? (uint32_t)~in->insns[x] : in->insns[x];
}

static void build_view(const struct pas_cfg *c, const struct pas_in *in,
                       const struct pas_regs *d, struct pas_view *v)
{
    uint64_t live = 0, bar = 0, diff = 0;
    for (unsigned t = 0; t < c->nctas; t++)
        v->head[t] = PAS_NONE;
    for (unsigned x = c->nctx; x-- > 0;) {            /* prepend: lists end up ascending */
        unsigned t = in->ctx_cta[x];
        if (!pas_has(in->ctx_valid, x) || t >= c->nctas)
            continue;
        v->next[x] = v->head[t];
        v->head[t] = (uint16_t)x;
        live |= 1ull << t;
    }
    for (unsigned t = 0; t < c->nctas; t++) {
        bar |= (uint64_t)((in->nbar[t] & 63u) != 0) << t;
        diff |= (uint64_t)(d->nnext[t] != 0) << t;
    }
    bar &= live;
    diff &= live & ~bar;
    v->set[3] = bar;
    v->set[2] = v->set[0] = diff;
    v->set[1] = live & ~bar & ~diff;
    v->set[PAS_SLOW] = live;
}

static void rank_tbs(const struct pas_cfg *c, unsigned cls, const struct pas_in *in,
                     const struct pas_regs *d, struct pas_view *v)
{
    uint64_t val[SM_MAX_CTAS];
    for (unsigned t = 0; t < c->nctas; t++)
        if (v->set[cls] >> t & 1)
            val[t] = tb_val(cls, t, in, d);
    for (unsigned t = 0; t < c->nctas; t++) {
        unsigned r = 0;
        if (!(v->set[cls] >> t & 1))
            continue;
        for (unsigned u = 0; u < c->nctas; u++)
            r += (v->set[cls] >> u & 1) && (val[u] < val[t] || (val[u] == val[t] && u < t));
        v->rank[cls][t] = (uint8_t)r;
    }
}

/* The class of every valid context of TB t. */
static void classify(unsigned t, const struct pas_in *in, const struct pas_regs *d,
                     struct pas_view *v)
{
    for (unsigned x = v->head[t]; x != PAS_NONE; x = v->next[x]) {
        if (in->slow & 1)
            v->cls[x] = PAS_SLOW;
        else if (v->set[3] >> t & 1)
            v->cls[x] = 3;
        else if (v->set[1] >> t & 1)
            v->cls[x] = 1;
        else
            v->cls[x] = d->iter[x] == d->low[t] ? 2 : 0;
    }
}

/* Keys of TB t's contexts: the warp rank counts the TB's contexts of the same class that
   sort before (their values taken once, then compared pairwise). */
static void tb_keys(unsigned t, const struct pas_in *in, const struct pas_view *v,
                    struct pas_out *out)
{
    uint64_t val[SM_MAX_CTX];
    uint16_t mem[SM_MAX_CTX];
    unsigned n = 0;
    for (unsigned x = v->head[t]; x != PAS_NONE; x = v->next[x]) {
        mem[n] = (uint16_t)x;
        val[n++] = warp_val(v->cls[x], x, in);
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned x = mem[i], cls = v->cls[x], r = 0;
        for (unsigned j = 0; j < n; j++)    /* members ascend by context: j < i is y < x */
            r += v->cls[mem[j]] == cls && (val[j] < val[i] || (val[j] == val[i] && j < i));
        out->key[x] = (uint16_t)((cls == PAS_SLOW ? 0u : cls) << 14 |
                                 (63u - v->rank[cls][t]) << 8 | (255u - r));
    }
}

static void outputs(const struct pas_cfg *c, const struct pas_in *in, const struct pas_regs *d,
                    struct pas_out *out)
{
    struct pas_view v;
    memset(out->key, 0, c->nctx * sizeof out->key[0]);
    memset(out->ahead, 0, sizeof out->ahead);
    build_view(c, in, d, &v);
    if (in->slow & 1)
        rank_tbs(c, PAS_SLOW, in, d, &v);
    else
        for (unsigned cls = 0; cls < 4; cls++)
            rank_tbs(c, cls, in, d, &v);
    for (unsigned t = 0; t < c->nctas; t++) {
        if (!(v.set[PAS_SLOW] >> t & 1))
            continue;
        classify(t, in, d, &v);
        tb_keys(t, in, &v, out);
        for (unsigned x = v.head[t]; x != PAS_NONE; x = v.next[x])
            if (d->iter[x] != d->low[t])
                pas_set(out->ahead, x);
    }
}

void pas_eval(const struct pas_cfg *c, const struct pas_regs *q, const struct pas_in *in,
              struct pas_out *out, struct pas_regs *d)
{
    (void)q;                       /* d == q on entry: every update is a read-modify-write */
    for (unsigned k = 0; k < c->nsched; k++)
        if (in->issued[k].v & in->issued[k].ntb & 1)
            next_iter(c, &in->issued[k], in, d);
    if (in->cta_launch)
        launch(c, in, d);
    outputs(c, in, d, out);
}

void pas_commit(const struct pas_cfg *c, struct pas_regs *q, const struct pas_regs *d)
{
    memcpy(q->iter, d->iter, c->nctx * sizeof q->iter[0]);
    memcpy(q->low, d->low, c->nctas * sizeof q->low[0]);
    memcpy(q->nnext, d->nnext, c->nctas * sizeof q->nnext[0]);
}

/* ------------------------------------------------------------------ registry */

uint32_t pas_instances(const struct gpu_config *c)
{
    return c->vtw == VTW_HW;
}

void pas_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct pas_cfg *out)
{
    (void)sm; (void)inst;
    pas_cfg_default(out);
    out->nctx = (uint16_t)sm_contexts(c);
    out->nctas = (uint8_t)sm_cta_slots(c);
    out->nsched = (uint8_t)c->schedulers_per_sm;
}

/* The Verilog parameters of rtl/pas.sv (`gpusim rtl-params`). */
void pas_rtl_params(const struct pas_cfg *c, FILE *f)
{
    fprintf(f, "localparam PAS_NCTX = %u;\nlocalparam PAS_NCTAS = %u;\nlocalparam PAS_NSCHED = %u;\n",
            c->nctx, c->nctas, c->nsched);
}

/* Storage for the cost estimator (cost.h): the scheduler storage of 000 Section 4.5 that is
   not a progress counter (those are iss's insns and prog): per warp its iteration, per TB its
   lowest iteration and its warps in the next one. The keys are combinational. */
void pas_storage(const struct pas_cfg *c, struct cost_list *l)
{
    const char *m = "VTW scheduler (000 Sec. 4.5)";
    cost_begin(l, "pas");
    cost_add(l, (struct cost_item){.name = "iter", .mech = m, .entries = c->nctx, .bits = 32,
                                   .rports = COST_PAR, .wports = c->nsched, .onchip = 1,
                                   .note = "[31:0] per warp: WWL iteration"});
    cost_add(l, (struct cost_item){.name = "low", .mech = m, .entries = c->nctas, .bits = 32,
                                   .rports = COST_PAR, .wports = c->nsched, .onchip = 1,
                                   .note = "[31:0] per TB: lowest active iteration"});
    cost_add(l, (struct cost_item){.name = "nnext", .mech = m, .entries = c->nctas, .bits = 8,
                                   .rports = COST_PAR, .wports = c->nsched, .onchip = 1,
                                   .note = "[7:0] per TB: warps in the next iteration"});
}
