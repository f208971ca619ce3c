/*
 * ntb.c -- VTW's next-TB-index unit (see ntb.h; 000_0da6b8b480bd0740.txt Section 4.2).
 * Per cycle, on d (= q on entry): a launch resets its TB slot; the requests are served in port
 * order (ntb_serve: the function of func/tbidx.c on the unit's registers); their replies enter
 * the pipeline stage answered lat - 1 cycles later (lat = 1: straight to the outputs); the
 * stage due this cycle is presented and freed.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "ntb.h"
#include "sm_limits.h"
#include "base/config.h"
#include "base/cost.h"

void ntb_cfg_default(struct ntb_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->nctas = 8;
    c->nctx = 48;
    c->lane = NTB_SAME;
    c->lat = 8;
}

int ntb_cfg_check(const struct ntb_cfg *c, char *err, size_t errlen)
{
    if (c->nctas < 1 || c->nctas > SM_MAX_CTAS || c->nctx < 1 || c->nctx > SM_MAX_CTX ||
        c->lane >= NTB_NLANE || c->lat < 1 || c->lat > NTB_MAX_LAT) {
        snprintf(err, errlen, "ntb: nctas %u (1..%u), nctx %u (1..%u), lane %u (0..%u), "
                 "lat %u (1..%u)", c->nctas, SM_MAX_CTAS, c->nctx, SM_MAX_CTX, c->lane,
                 NTB_NLANE - 1, c->lat, NTB_MAX_LAT);
        return -1;
    }
    return 0;
}

const char *ntb_lane_name(unsigned lane)
{
    static const char *const n[NTB_NLANE] = { "same", "slowest", "lowest" };
    return lane < NTB_NLANE ? n[lane] : "?";
}

void ntb_reset(const struct ntb_cfg *c, struct ntb_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
    for (unsigned i = 0; i < SM_MAX_CTAS; i++)
        r->map[i] = NTB_NONE;
}

/* The function's view of the unit's registers (func/tbidx.h). */
static struct tbidx_regs fn_regs(struct ntb_regs *d)
{
    return (struct tbidx_regs){ .map = d->map, .cnt = d->cnt, .lh = d->lh, .lw = d->lw,
                                .order = d->order };
}

/* A TB slot starts: no index yet, every warp holds its own index (tbidx_launch on d). */
static void ntb_launch(struct ntb_regs *d, uint8_t cta, uint8_t base, uint8_t nw)
{
    struct tbidx_regs f = fn_regs(d);
    tbidx_launch(&f, cta, base, nw);
}

/* Request r, applied to d in place with gnext the GPU counter as the earlier ports' takes left
   it (tbidx_serve on d): the reply value (NTB_OP_IDX: value + lane); *took = 1 when a new
   index was taken. */
static uint32_t ntb_serve(const struct ntb_cfg *c, struct ntb_regs *d, const struct ntb_req *r,
                          const struct ntb_in *in, uint32_t gnext, int *took)
{
    struct tbidx_regs f = fn_regs(d);
    struct tbidx_req q = { .op = r->op, .cta = r->cta, .ctx = r->ctx, .warp = r->warp,
                           .nw = in->nw, .nfull = in->nfull, .gnext = gnext, .prog = in->prog };
    return tbidx_serve(&f, c->lane, &q, took);
}

void ntb_eval(const struct ntb_cfg *c, const struct ntb_regs *q, const struct ntb_in *in,
              struct ntb_out *out, struct ntb_regs *d)
{
    struct ntb_rep now[NTB_PORTS];
    if (in->launch_v)
        ntb_launch(d, in->launch_cta, in->launch_base, in->nw);
    out->gtake = 0;
    for (unsigned k = 0; k < NTB_PORTS; k++) {
        const struct ntb_req *r = &in->req[k];
        int took;
        memset(&now[k], 0, sizeof now[k]);
        if (!r->v)
            continue;
        now[k].val = ntb_serve(c, d, r, in, in->gnext + out->gtake, &took);
        out->gtake = (uint8_t)(out->gtake + took);
        now[k].v = 1;
        now[k].ctx = r->ctx;
        now[k].reg = r->reg;
        now[k].mask = r->mask;
        now[k].addlane = r->op == NTB_OP_IDX;
    }
    if (c->lat == 1) {
        memcpy(out->rep, now, sizeof now);
        return;
    }
    memcpy(out->rep, q->pipe[q->head], sizeof out->rep);   /* asked lat - 1 cycles ago */
    memcpy(d->pipe[q->head], now, sizeof now);             /* the stage presented is reused */
    d->head = (uint8_t)((q->head + 1u) % (c->lat - 1u));
}

/* ntb_commit and ntb_drift take the registers before `pipe` as one block and the head as the
   last member: the layout they rely on. */
_Static_assert(offsetof(struct ntb_regs, pipe) < offsetof(struct ntb_regs, head) &&
               sizeof(struct ntb_regs) - offsetof(struct ntb_regs, head) <= _Alignof(struct ntb_regs),
               "ntb_regs: pipe, then head, last");

/* Copies d to q: the TB map, counts and lane order, and of the reply pipeline only the stage
   eval wrote (q's head) and the head. */
void ntb_commit(const struct ntb_cfg *c, struct ntb_regs *q, const struct ntb_regs *d)
{
    memcpy(q, d, offsetof(struct ntb_regs, pipe));
    if (c->lat > 1)
        memcpy(q->pipe[q->head], d->pipe[q->head], sizeof q->pipe[0]);
    q->head = d->head;
}

/* The pipeline's stages: lat - 1 (lat = 1: none). */
static unsigned stages(const struct ntb_cfg *c)
{
    return c->lat > 1 ? c->lat - 1u : 0;
}

int ntb_drift(const struct ntb_cfg *c, const struct ntb_regs *q, const struct ntb_regs *d)
{
    if (memcmp(q, d, offsetof(struct ntb_regs, head)))
        return -1;
    if (d->head == q->head)
        return 0;
    return stages(c) && d->head == (q->head + 1u) % stages(c) ? 1 : -1;
}

void ntb_skip(const struct ntb_cfg *c, struct ntb_regs *r, uint64_t n)
{
    if (stages(c))
        r->head = (uint8_t)((r->head + n % stages(c)) % stages(c));
}

uint64_t ntb_next_event(const struct ntb_cfg *c, const struct ntb_regs *r, uint64_t now)
{
    for (unsigned k = 1; k < stages(c); k++) {        /* stage head + k is presented at now + k */
        const struct ntb_rep *p = r->pipe[(r->head + k) % stages(c)];
        for (unsigned j = 0; j < NTB_PORTS; j++)
            if (p[j].v)
                return now + k;
    }
    return UINT64_MAX;
}

/* ------------------------------------------------------------------ registry */

uint32_t ntb_instances(const struct gpu_config *c)
{
    return c->vtw == VTW_HW;
}

void ntb_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct ntb_cfg *out)
{
    (void)sm; (void)inst;
    ntb_cfg_default(out);
    out->nctas = (uint8_t)sm_cta_slots(c);
    out->nctx = (uint16_t)sm_contexts(c);
    out->lane = (uint8_t)c->vtw_lane;
    out->lat = (uint8_t)c->vtw_latency;
}

/* Storage for the cost estimator (cost.h). The items Section 4.5 counts carry the mechanism
   "index unit (000 Sec. 4.5)" (with the GPU counter, declared by the dispatcher, cta.c: 44 B
   on Fermi); the lane policies' registers and the reply pipeline are named apart. */
/* Bits of the ring's head pointer over `stages` stages (> 1). */
static unsigned head_bits(unsigned stages)
{
    unsigned b = 0;
    while ((1u << b) < stages)
        b++;
    return b;
}

void ntb_storage(const struct ntb_cfg *c, struct cost_list *l)
{
    const char *m = "index unit (000 Sec. 4.5)";
    unsigned stages = c->lat > 1 ? c->lat - 1u : 0;
    cost_begin(l, "ntb");
    cost_add(l, (struct cost_item){.name = "map", .mech = m, .entries = c->nctas, .bits = 32,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "virtual -> logical TB index, per TB slot"});
    cost_add(l, (struct cost_item){.name = "cnt", .mech = m, .entries = c->nctas, .bits = 8,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "warps still to take the newest index"});
    if (c->lane != NTB_SAME)
        cost_add(l, (struct cost_item){.name = "lh", .mech = "lane policy", .entries = c->nctas,
                                       .bits = 6, .rports = COST_PAR, .onchip = 1,
                                       .note = "full warps that took the newest index"});
    if (c->lane != NTB_SAME)
        cost_add(l, (struct cost_item){.name = "lw", .mech = "lane policy", .entries = c->nctx,
                                       .bits = 5, .rports = COST_PAR, .onchip = 1,
                                       .note = "warp index each context holds (not in Sec. 4.5)"});
    if (c->lane == NTB_SLOWEST)
        cost_add(l, (struct cost_item){.name = "order", .mech = "SlowestLane (000 Sec. 4.5)",
                                       .entries = c->nctx, .bits = 5, .rports = COST_PAR,
                                       .onchip = 1, .note = "warp indices, slowest first"});
    if (stages)
        cost_add(l, (struct cost_item){.name = "pipe", .mech = "reply pipeline",
                                       .entries = stages * NTB_PORTS, .bits = 1 + 8 + 16 + 32 + 32 + 1,
                                       .rports = COST_PAR, .onchip = 1,
                                       .note = "replies in flight"});
    if (stages > 1)
        cost_add(l, (struct cost_item){.name = "head", .mech = "reply pipeline", .entries = 1,
                                       .bits = head_bits(stages), .rports = COST_PAR,
                                       .onchip = 1, .note = "the stage answered this cycle"});
}

void ntb_rtl_params(const struct ntb_cfg *c, FILE *f)
{
    fprintf(f, "localparam NTB_NCTAS = %u;\nlocalparam NTB_NCTX = %u;\nlocalparam NTB_LANE = %u;\n"
            "localparam NTB_LAT = %u;\n", c->nctas, c->nctx, c->lane, c->lat);
}
