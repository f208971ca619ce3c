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

#define FS_NO_RPC UINT32_MAX

struct fs_entry { uint32_t pc, rpc, mask; };

struct fs_warp {
    uint32_t depth;
    uint8_t  at_bar;
    struct fs_entry *stack;
};

struct fs_cta {                      /* buffers sized once per launch, reused for every CTA */
    uint32_t nthreads, nwarps, stack_max;
    uint64_t *regs;
    uint8_t  *smem, *lmem, *pscratch;
    size_t    regs_bytes, smem_bytes, lmem_bytes, ps_bytes;
    struct fs_warp *warps;
    struct probe_warp *pw;           /* the probe's per-warp counters */
    struct fs_entry *stacks;
};

struct fs_run {
    const struct fsim_launch *l;
    struct gs_stats *st;
    struct fs_cta cta;
    struct probe probe;
    struct ex_ctx ctx;
    struct ex_result res;
    uint64_t tick;                   /* warp instructions issued in this launch (%clock) */
    char *err; size_t errlen;
};

static int cta_alloc(struct fs_cta *c, const struct fsim_launch *l)
{
    const struct ptx_prog *p = l->prog;
    memset(c, 0, sizeof *c);
    c->nthreads = l->block.x * l->block.y * l->block.z;
    c->nwarps = (c->nthreads + 31) / 32;
    c->stack_max = l->conf->simt_stack_max;
    c->regs_bytes = (size_t)c->nwarps * (p->nregs ? p->nregs : 1) * EX_WARP * sizeof(uint64_t);
    c->smem_bytes = (size_t)fsim_shared_bytes(p, l->dyn_smem);
    c->lmem_bytes = (size_t)c->nwarps * EX_WARP * p->local_size;
    c->ps_bytes = (size_t)c->nwarps * EX_WARP * p->pscratch_size;
    c->regs = malloc(c->regs_bytes);
    c->smem = calloc(1, c->smem_bytes ? c->smem_bytes : 1);
    c->lmem = calloc(1, c->lmem_bytes ? c->lmem_bytes : 1);
    c->pscratch = calloc(1, c->ps_bytes ? c->ps_bytes : 1);
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    c->pw = calloc(c->nwarps, sizeof *c->pw);
    c->stacks = calloc((size_t)c->nwarps * c->stack_max, sizeof *c->stacks);
    return c->regs && c->smem && c->lmem && c->pscratch && c->warps && c->pw && c->stacks ? 0 : -1;
}

static void cta_free(struct fs_cta *c)
{
    free(c->regs); free(c->smem); free(c->lmem); free(c->pscratch);
    free(c->warps); free(c->pw); free(c->stacks);
}

/* Reset buffers and warps for CTA `linear`, fill the special-register context. */
static void cta_start(struct fs_run *r, uint64_t linear)
{
    struct fs_cta *c = &r->cta;
    const struct fsim_launch *l = r->l;
    uint32_t w;
    memset(c->regs, 0, c->regs_bytes);
    memset(c->smem, 0, c->smem_bytes);
    memset(c->lmem, 0, c->lmem_bytes);
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
        probe_warp_start(&r->probe, w, w * 32, linear);
        wp->stack[0].pc = 0;
        wp->stack[0].rpc = FS_NO_RPC;
        wp->stack[0].mask = lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1);
    }
}

static void point_ctx_at_warp(struct fs_run *r, uint32_t w)
{
    const struct ptx_prog *p = r->l->prog;
    struct fs_cta *c = &r->cta;
    r->ctx.regs = c->regs + (size_t)w * (p->nregs ? p->nregs : 1) * EX_WARP;
    r->ctx.lmem = c->lmem + (size_t)w * EX_WARP * p->local_size;
    r->ctx.pscratch = c->pscratch + (size_t)w * EX_WARP * p->pscratch_size;
    r->ctx.tid0 = w * 32;
    r->ctx.warpid = w;
}

static int fail(struct fs_run *r, uint32_t w, uint32_t pc, const char *what)
{
    const struct ex_ctx *x = &r->ctx;
    snprintf(r->err, r->errlen, "kernel %s: PC %u CTA (%u,%u,%u) warp %u: %s", r->l->prog->name,
             pc, x->ctaid[0], x->ctaid[1], x->ctaid[2], w, what);
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

/* Execute one instruction of warp w. Returns 0, or -1 on error. */
static int step(struct fs_run *r, struct fs_warp *wp, uint32_t w)
{
    struct fs_entry *t = &wp->stack[wp->depth - 1];
    uint32_t pc = t->pc, active = t->mask;
    const struct ptx_insn *in;
    if (pc >= r->l->prog->ninsns)
        return fail(r, w, pc, "control reached the end of the program without exit");
    in = &r->l->prog->insns[pc];
    r->ctx.clock = r->tick++;
    ex_exec(&r->ctx, pc, active, &r->res);
    probe_issue(&r->probe, w, pc, in, active, &r->res);
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
    return 0;
}

/* Run warp w until it waits at a barrier or finishes. */
static int run_warp(struct fs_run *r, uint32_t w)
{
    struct fs_warp *wp = &r->cta.warps[w];
    uint64_t limit = r->l->conf->max_warp_insns;
    point_ctx_at_warp(r, w);
    while (wp->depth > 0 && !wp->at_bar) {
        if (step(r, wp, w))
            return -1;
        if (limit && r->tick > limit)
            return fail(r, w, wp->depth ? wp->stack[wp->depth - 1].pc : 0,
                        "watchdog: more warp instructions than max_warp_insns");
    }
    return 0;
}

static int run_cta(struct fs_run *r, uint64_t linear)
{
    struct fs_cta *c = &r->cta;
    uint32_t w, live;
    cta_start(r, linear);
    do {
        live = 0;
        for (w = 0; w < c->nwarps; w++) {
            if (c->warps[w].depth == 0)
                continue;
            if (run_warp(r, w))
                return -1;
            live += c->warps[w].depth > 0;
        }
        for (w = 0; w < c->nwarps; w++)   /* everyone alive is at the barrier: release */
            c->warps[w].at_bar = 0;
    } while (live);
    r->st->ctas++;
    probe_tb_retire(&r->probe, NULL, c->nwarps);
    return 0;
}

int fsim_run(const struct fsim_launch *l, struct gs_stats *st, char *err, size_t errlen)
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
    r.ctx.lmem_stride = l->prog->local_size;
    r.ctx.pscratch_stride = l->prog->pscratch_size;
    r.ctx.params = l->params;
    r.ctx.ntid[0] = l->block.x; r.ctx.ntid[1] = l->block.y; r.ctx.ntid[2] = l->block.z;
    r.ctx.nctaid[0] = l->grid.x; r.ctx.nctaid[1] = l->grid.y; r.ctx.nctaid[2] = l->grid.z;
    r.ctx.nthreads = r.cta.nthreads;
    r.ctx.nwarpid = l->conf->max_warps_per_sm;
    r.ctx.nsmid = l->conf->num_sms;
    n = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    for (i = 0; i < n && rc == 0; i++)
        rc = run_cta(&r, i);
    cta_free(&r.cta);
    return rc;
}
