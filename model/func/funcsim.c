/*
 * funcsim.c -- functional execution of a kernel launch (see funcsim.h).
 *
 * Reconvergence: each warp keeps a stack of (pc, rpc, mask) entries. A divergent branch turns
 * the top entry into the reconvergence entry (pc = the branch's IPDOM) and pushes the
 * not-taken and taken paths, each with rpc = the IPDOM; an entry whose pc reaches its rpc is
 * popped. When the top entry already reconverges at the branch's IPDOM (a loop's exit branch
 * diverging again on a later iteration) the reconvergence entry would be redundant, so the
 * paths replace the top entry instead: the stack depth is bounded by the nesting of divergent
 * regions, not by loop iterations. (The token-based stack of 003_a1f13061b22d54a6.txt, whose
 * depth does grow per divergent iteration, is the timing model's SIMT-stack block.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "funcsim.h"
#include "probe.h"
#include "tbidx.h"

#define FS_NO_RPC UINT32_MAX

struct fs_entry { uint32_t pc, rpc, mask; };

struct fs_warp {
    uint32_t depth;
    uint8_t  at_bar;
    uint8_t  held;                   /* VTW: one iteration ahead at a held instruction */
    uint32_t iter, prog;             /* VTW: WWL iteration; instructions in it */
    struct fs_entry *stack;
};

struct fs_cta {                      /* buffers sized once per launch, reused for every CTA */
    uint32_t nthreads, nwarps, stack_max;
    uint64_t *regs;
    uint8_t  *smem, *pscratch;
    struct ex_lmem *lmem;            /* [nwarps] local memory, reserved as stored to (exec.h) */
    uint64_t  lmem_held;             /* bytes of it reserved */
    size_t    regs_bytes, smem_bytes, ps_bytes;
    struct fs_warp *warps;
    struct probe_warp *pw;           /* the probe's per-warp counters */
    struct fs_entry *stacks;
};

/* VTW's hardware form, functionally: the next-TB-index function (tbidx.h) on the one CTA
   (virtual TB, TB slot 0) running, and the scheduler's iteration registers (sm/pas.h): the
   lowest iteration of the TB and how many warps are in the next one. */
struct fs_vtw {
    uint8_t  lane;                   /* vtw_lane (enum tbidx_lane) */
    uint32_t map;                    /* the function's registers: of TB slot 0 ... */
    uint8_t  cnt, lh;
    uint8_t  lw[SM_MAX_CTX], order[SM_MAX_CTX];   /* ... and of its warps (context = warp) */
    struct tbidx_regs regs;          /* pointing at them */
    uint32_t gnext;                  /* the GPU's nextLogTbId */
    uint32_t low, nnext;
    uint32_t prog[SM_MAX_CTX];       /* per warp, for SlowestLane */
    struct probe_ltb ltb[2];         /* its logical TBs being measured (probe.h) */
};

struct fs_run {
    const struct kernel_launch *l;
    struct fs_vtw *vtw;              /* NULL unless vtw = hw */
    struct gs_stats *st;
    struct fs_cta cta;
    struct probe probe;
    struct ex_ctx ctx;
    struct ex_result res;
    uint64_t tick;                   /* warp instructions issued in this launch (%clock) */
    char *err; size_t errlen;
};

static int cta_alloc(struct fs_cta *c, const struct kernel_launch *l)
{
    const struct ptx_prog *p = l->prog;
    memset(c, 0, sizeof *c);
    c->nthreads = l->block.x * l->block.y * l->block.z;
    c->nwarps = (c->nthreads + 31) / 32;
    c->stack_max = l->conf->simt_stack_max;
    c->regs_bytes = (size_t)c->nwarps * (p->nregs ? p->nregs : 1) * EX_WARP * sizeof(uint64_t);
    c->smem_bytes = (size_t)fsim_shared_bytes(p, l->dyn_smem);
    c->ps_bytes = (size_t)c->nwarps * EX_WARP * p->pscratch_size;
    c->regs = malloc(c->regs_bytes);
    c->smem = calloc(1, c->smem_bytes ? c->smem_bytes : 1);
    c->lmem = calloc(c->nwarps, sizeof *c->lmem);
    for (uint32_t w = 0; c->lmem && w < c->nwarps; w++)
        if (ex_lmem_init(&c->lmem[w], p->local_size, &c->lmem_held)) {
            while (w-- > 0)
                ex_lmem_free(&c->lmem[w]);
            free(c->lmem);
            c->lmem = NULL;
        }
    c->pscratch = calloc(1, c->ps_bytes ? c->ps_bytes : 1);
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    c->pw = calloc(c->nwarps, sizeof *c->pw);
    c->stacks = calloc((size_t)c->nwarps * c->stack_max, sizeof *c->stacks);
    return c->regs && c->smem && c->lmem && c->pscratch && c->warps && c->pw &&
           c->stacks ? 0 : -1;
}

static void cta_free(struct fs_cta *c)
{
    for (uint32_t w = 0; c->lmem && w < c->nwarps; w++)
        ex_lmem_free(&c->lmem[w]);
    free(c->regs); free(c->smem); free(c->lmem); free(c->pscratch);
    free(c->warps); free(c->pw); free(c->stacks);
}

/* Reset buffers and warps for CTA `linear`, fill the special-register context. */
static void cta_start(struct fs_run *r, uint64_t linear)
{
    struct fs_cta *c = &r->cta;
    const struct kernel_launch *l = r->l;
    uint32_t w;
    memset(c->regs, 0, c->regs_bytes);
    memset(c->smem, 0, c->smem_bytes);
    for (w = 0; w < c->nwarps; w++)
        ex_lmem_clear(&c->lmem[w]);
    memset(c->pscratch, 0, c->ps_bytes);
    r->ctx.ctaid[0] = (uint32_t)(linear % l->grid.x);
    r->ctx.ctaid[1] = (uint32_t)(linear / l->grid.x % l->grid.y);
    r->ctx.ctaid[2] = (uint32_t)(linear / ((uint64_t)l->grid.x * l->grid.y));
    r->ctx.smid = (uint32_t)(linear % l->conf->num_sms);
    for (w = 0; w < c->nwarps; w++) {
        uint32_t lanes = c->nthreads - w * 32;
        struct fs_warp *wp = &c->warps[w];
        wp->stack = c->stacks + (size_t)w * c->stack_max;
        wp->depth = 1;
        wp->at_bar = 0;
        wp->held = 0;
        wp->iter = wp->prog = 0;
        probe_warp_start(&r->probe, w, w * 32, linear);
        wp->stack[0].pc = 0;
        wp->stack[0].rpc = FS_NO_RPC;
        wp->stack[0].mask = lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1);
    }
}

static void vtw_cta_start(struct fs_run *r)
{
    if (!r->vtw)
        return;
    tbidx_launch(&r->vtw->regs, 0, 0, (uint8_t)r->cta.nwarps);
    r->vtw->low = r->vtw->nnext = 0;
    memset(r->vtw->ltb, 0, sizeof r->vtw->ltb);
}

static void point_ctx_at_warp(struct fs_run *r, uint32_t w)
{
    const struct ptx_prog *p = r->l->prog;
    struct fs_cta *c = &r->cta;
    r->ctx.regs = c->regs + (size_t)w * (p->nregs ? p->nregs : 1) * EX_WARP;
    r->ctx.lmem = &c->lmem[w];
    r->ctx.pscratch = c->pscratch + (size_t)w * EX_WARP * p->pscratch_size;
    r->ctx.tid0 = w * 32;
    r->ctx.warpid = w;
}

static int fail(struct fs_run *r, uint32_t w, uint32_t pc, const char *what)
{
    const struct ex_ctx *x = &r->ctx;
    char where[320];
    snprintf(r->err, r->errlen, "kernel %s: PC %u (%s) CTA (%u,%u,%u) warp %u: %s",
             r->l->prog->name, pc, ptx_where(r->l->prog, pc, where, sizeof where), x->ctaid[0],
             x->ctaid[1], x->ctaid[2], w, what);
    return -1;
}

static void pop_finished(struct fs_warp *wp)
{
    while (wp->depth > 0) {
        struct fs_entry *t = &wp->stack[wp->depth - 1];
        if (t->mask != 0 && t->pc != t->rpc)
            break;
        wp->depth--;
    }
}

static int push(struct fs_run *r, struct fs_warp *wp, uint32_t w, uint32_t pc, uint32_t rpc,
                uint32_t mask)
{
    if (wp->depth >= r->cta.stack_max)
        return fail(r, w, pc, "reconvergence stack overflow (raise simt_stack_max)");
    wp->stack[wp->depth].pc = pc;
    wp->stack[wp->depth].rpc = rpc;
    wp->stack[wp->depth].mask = mask;
    wp->depth++;
    if (wp->depth > r->st->max_stack_depth)
        r->st->max_stack_depth = wp->depth;
    return 0;
}

/* A branch whose active lanes split: see the file comment. */
static int diverge(struct fs_run *r, struct fs_warp *wp, uint32_t w, uint32_t pc,
                   uint32_t taken, uint32_t nottaken, uint32_t target)
{
    struct fs_entry *t = &wp->stack[wp->depth - 1];
    uint32_t rpc = r->l->flow->reconv[pc];
    if (rpc == UINT32_MAX)
        return fail(r, w, pc, "divergent branch without a reconvergence point");
    if (t->rpc == rpc) {             /* already inside a region reconverging at rpc */
        if (pc + 1 == rpc) {         /* not-taken lanes are already at rpc */
            t->pc = target;
            t->mask = taken;
            return 0;
        }
        t->pc = pc + 1;
        t->mask = nottaken;
    } else {
        t->pc = rpc;                 /* becomes the reconvergence entry; mask stays */
        if (pc + 1 != rpc && push(r, wp, w, pc + 1, rpc, nottaken))
            return -1;
    }
    if (target != rpc && push(r, wp, w, target, rpc, taken))
        return -1;
    return 0;
}

static void exit_lanes(struct fs_warp *wp, uint32_t exited)
{
    uint32_t i;
    for (i = 0; i < wp->depth; i++)
        wp->stack[i].mask &= ~exited;
}

/* Write a 32-bit value (plus the lane number when addlane) into register reg of warp w's
   lanes in mask. */
static void vtw_write(struct fs_run *r, uint32_t w, int32_t reg, uint32_t mask, uint32_t val,
                      int addlane)
{
    const struct ptx_prog *p = r->l->prog;
    uint64_t *col = r->cta.regs + ((size_t)w * (p->nregs ? p->nregs : 1) + (size_t)reg) * EX_WARP;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        col[lane] = (uint32_t)(val + (addlane ? lane : 0));
    }
}

/* After warp w executed `in` under vtw = hw: nexttbid takes its index from the function
   (tbidx.h) and moves the warp to its next iteration (the scheduler's iteration registers,
   sm/pas.h); nextidxinblk takes a new warp index unless the lane policy is SameLane (ex_exec
   moved the input). */
static void vtw_exec(struct fs_run *r, struct fs_warp *wp, uint32_t w, const struct ptx_insn *in,
                     uint32_t mask)
{
    struct fs_vtw *v = r->vtw;
    struct tbidx_req q = { .op = TBIDX_TB, .cta = 0, .ctx = (uint8_t)w, .warp = (uint8_t)w,
                           .nw = (uint8_t)r->cta.nwarps, .nfull = (uint8_t)(r->cta.nthreads / 32),
                           .gnext = v->gnext, .prog = v->prog };
    uint32_t val;
    int took;
    if (in->op == OP_NEXTIDX && v->lane != TBIDX_SAME) {
        q.op = TBIDX_IDX;
        val = tbidx_serve(&v->regs, v->lane, &q, &took);
        vtw_write(r, w, in->opd[0].reg, mask, val, 1);
    }
    if (in->op != OP_NEXTTB)
        return;
    for (uint32_t i = 0; i < r->cta.nwarps; i++)
        v->prog[i] = r->cta.warps[i].prog;
    val = tbidx_serve(&v->regs, v->lane, &q, &took);
    v->gnext += (uint32_t)took;
    vtw_write(r, w, in->opd[0].reg, mask, val, 0);
    struct probe_ltb done;
    probe_iter(&r->probe, w, v->ltb, r->cta.nwarps, 0, &done);
    wp->iter++;
    wp->prog = 0;
    if (++v->nnext == r->cta.nwarps) {
        v->low++;
        v->nnext = 0;
    }
}

/* Execute one instruction of warp w. Returns 0, or -1 on error. */
static int step(struct fs_run *r, struct fs_warp *wp, uint32_t w)
{
    struct fs_entry *t = &wp->stack[wp->depth - 1];
    uint32_t pc = t->pc, active = t->mask;
    const struct ptx_insn *in;
    if (pc >= r->l->prog->ninsns)
        return fail(r, w, pc, "control reached the end of the program without exit");
    in = &r->l->prog->insns[pc];
    if (r->vtw && wp->iter != r->vtw->low && tbidx_held(in, (int)r->l->conf->vtw_smem_hold)) {
        wp->held = 1;                /* one iteration ahead: wait for the siblings */
        return 0;
    }
    r->ctx.clock = r->tick++;
    ex_exec(&r->ctx, pc, active, &r->res);
    probe_issue(&r->probe, w, pc, in, active, &r->res);
    if (r->vtw) {
        wp->prog++;
        if (r->res.kind == EX_NORMAL)
            vtw_exec(r, wp, w, in, r->res.exec_mask);
    }
    switch (r->res.kind) {
    case EX_NORMAL:
        t->pc = pc + 1;
        break;
    case EX_BRANCH: {
        uint32_t taken = r->res.taken & active, nt = active & ~taken;
        if (nt == 0)
            t->pc = r->res.target;
        else if (taken == 0)
            t->pc = pc + 1;
        else if (diverge(r, wp, w, pc, taken, nt, r->res.target))
            return -1;
        break;
    }
    case EX_BARRIER:
        t->pc = pc + 1;
        wp->at_bar = in->sub != 1;       /* bar.arrive (sub 1) does not wait */
        break;
    case EX_EXIT:
        t->pc = pc + 1;
        exit_lanes(wp, r->res.exited);
        break;
    default:
        snprintf(r->err, r->errlen, "%s", r->res.err);
        return -1;
    }
    pop_finished(wp);
    if (r->vtw && wp->depth == 0)    /* left the loop: its last iteration is no TB */
        probe_iter_exit(&r->probe, w, r->vtw->ltb);
    return 0;
}

/* max_spin_insns in the functional model: the launch has issued more warp instructions than
   the limit since a warp last made progress (lanes exited, or under VTW a logical TB began:
   probe.h), and warp w, the one running (CTAs run one at a time, each warp until it waits
   at a barrier or finishes), spins. */
static int runaway(struct fs_run *r, uint32_t w)
{
    const struct probe_warp *pw = &r->cta.pw[w];
    char what[400];
    snprintf(what, sizeof what, "runaway watchdog: %llu warp instructions without a warp storing, "
             "exiting or beginning a logical TB (max_spin_insns = %llu); this warp spins: %llu warp "
             "instructions since it started or last made progress (if the kernel is only slow, "
             "raise max_spin_insns; 0 turns it off)",
             (unsigned long long)(r->st->warp_insns - r->probe.mark),
             (unsigned long long)r->l->conf->max_spin_insns,
             (unsigned long long)(pw->insns - pw->calm));
    return fail(r, w, pw->pc, what);
}

/* Run warp w until it waits at a barrier or finishes. */
static int run_warp(struct fs_run *r, uint32_t w)
{
    struct fs_warp *wp = &r->cta.warps[w];
    uint64_t limit = r->l->conf->max_warp_insns, spin = r->l->conf->max_spin_insns;
    point_ctx_at_warp(r, w);
    wp->held = 0;
    while (wp->depth > 0 && !wp->at_bar && !wp->held) {
        if (step(r, wp, w))
            return -1;
        if (limit && r->tick > limit)
            return fail(r, w, wp->depth ? wp->stack[wp->depth - 1].pc : 0,
                        "watchdog: more warp instructions than max_warp_insns");
        if (spin && r->st->warp_insns - r->probe.mark > spin && wp->depth > 0)
            return runaway(r, w);
    }
    return 0;
}

static int run_cta(struct fs_run *r, uint64_t linear)
{
    struct fs_cta *c = &r->cta;
    uint32_t w, live;
    cta_start(r, linear);
    vtw_cta_start(r);
    do {
        uint64_t t0 = r->tick;
        uint32_t held = 0, hw = 0;
        live = 0;
        for (w = 0; w < c->nwarps; w++) {
            if (c->warps[w].depth == 0)
                continue;
            if (run_warp(r, w))
                return -1;
            live += c->warps[w].depth > 0;
            if (c->warps[w].held && !held++)
                hw = w;
        }
        if (held && r->tick == t0)
            return fail(r, hw, c->warps[hw].stack[c->warps[hw].depth - 1].pc,
                        "VTW: held one iteration ahead while its siblings wait at a barrier of "
                        "the previous one (a warp left its iteration before a barrier its "
                        "siblings wait at: an exit before __syncthreads is not supported under "
                        "vtw = hw)");
        if (!held)                        /* everyone alive is at the barrier: release */
            for (w = 0; w < c->nwarps; w++)
                c->warps[w].at_bar = 0;
    } while (live);
    r->st->ctas++;
    if (!r->vtw)                     /* under vtw = hw its logical TBs were counted instead */
        probe_tb_retire(&r->probe, NULL, c->nwarps);
    return 0;
}

static int vtw_alloc(struct fs_run *r)
{
    struct fs_vtw *v = calloc(1, sizeof *v);
    r->vtw = v;
    if (!v)
        return -1;
    v->lane = (uint8_t)r->l->conf->vtw_lane;
    v->map = TBIDX_NONE;
    v->regs = (struct tbidx_regs){ .map = &v->map, .cnt = &v->cnt, .lh = &v->lh, .lw = v->lw,
                                   .order = v->order };
    return 0;
}

int fsim_run(const struct kernel_launch *l, struct gs_stats *st, char *err, size_t errlen)
{
    struct fs_run r;
    uint64_t n, i;
    int rc = 0;
    memset(&r, 0, sizeof r);
    r.l = l; r.st = st; r.err = err; r.errlen = errlen;
    if (cta_alloc(&r.cta, l)) {
        cta_free(&r.cta);
        snprintf(err, errlen, "kernel %s: out of host memory for a CTA", l->prog->name);
        return -1;
    }
    probe_init(&r.probe, st, r.cta.pw, r.cta.nwarps, NULL, l->sink);
    r.ctx.prog = l->prog;
    r.ctx.gmem = l->gmem;
    r.ctx.smem = r.cta.smem;
    r.ctx.smem_size = fsim_shared_bytes(l->prog, l->dyn_smem);
    r.ctx.lmem_size = l->prog->local_size;
    r.ctx.pscratch_stride = l->prog->pscratch_size;
    r.ctx.params = l->params;
    r.ctx.pf = l->pf;
    r.ctx.ntid[0] = l->block.x; r.ctx.ntid[1] = l->block.y; r.ctx.ntid[2] = l->block.z;
    r.ctx.nctaid[0] = l->grid.x; r.ctx.nctaid[1] = l->grid.y; r.ctx.nctaid[2] = l->grid.z;
    r.ctx.nthreads = r.cta.nthreads;
    r.ctx.nwarpid = l->conf->max_warps_per_sm;
    r.ctx.nsmid = l->conf->num_sms;
    if (l->conf->vtw == VTW_HW && vtw_alloc(&r)) {
        cta_free(&r.cta);
        snprintf(err, errlen, "kernel %s: out of host memory", l->prog->name);
        return -1;
    }
    n = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    for (i = 0; i < n && rc == 0; i++)
        rc = run_cta(&r, i);
    free(r.vtw);
    cta_free(&r.cta);
    return rc;
}
