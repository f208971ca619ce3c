/*
 * sm_issue.c -- what the warp schedulers pick, executed: per scheduler the issue stage's
 * masks (and, for keyed policies, kgen's keys) drive ws; the chosen slot's I-buffer head
 * executes functionally (func/exec.c) on its context's registers with the SIMT stack's mask;
 * the result goes to the unit the decoder names (fu, ldst, smem, bar) and the latches that
 * the blocks see in the next cycle (simt's update, fetch's consume, sb's reserve, iss's issue
 * event, kgen's last issue). Also the late-write port.
 */
#include <stdio.h>
#include <string.h>
#include "sm.h"

/* Per-lane timing address of a local-memory access: words interleaved across the warp's lanes,
   so that the same offset in every lane is one 128-byte line; keyed by context. */
static uint64_t local_addr(const struct sm *s, uint32_t ctx, uint32_t lane, uint64_t off)
{
    uint64_t words = (s->p.prog->local_size + 3) / 4;
    return s->p.local_base + ((uint64_t)ctx * words + off / 4) * 128 + lane * 4 + off % 4;
}

static void issue_ldst(struct sm *s, uint32_t w, uint32_t x, const struct iss_dec *d,
                       const struct ptx_insn *in, struct ldst_issue *li)
{
    const struct ex_result *r = &s->res;
    li->ndst = 0;
    li->valid = 1;
    li->warp = (uint8_t)w;
    li->vwi = (uint8_t)x;
    li->own = sm_mech_own(s, w);
    li->kind = (uint8_t)(r->is_atomic ? MK_ATOMIC : r->is_store ? MK_STORE : MK_LOAD);
    li->mask = r->exec_mask;
    li->bytes = r->access_bytes;
    for (uint32_t m = r->exec_mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        li->addr[l] = r->space == PS_LOCAL ? local_addr(s, x, l, r->addr[l]) : r->addr[l];
    }
    if (in->op != OP_ST && in->op != OP_RED) {
        li->ndst = d->ndst;
        memcpy(li->dst, d->dst, sizeof li->dst);
    }
}

/* A shared access goes to the shared-memory port (its latency and interval come back from
   smem this cycle); const and param accesses have fixed latencies. */
static void fixed_mem(struct sm *s, uint32_t sched, struct fu_issue *fi)
{
    const struct gpu_config *c = s->p.conf;
    const struct ex_result *r = &s->res;
    struct smem_in *sh = &s->io.sh;
    if (r->space == PS_SHARED) {
        sh->dem_v = 1;
        sh->dem_mask = r->exec_mask;
        sh->dem_bytes = r->access_bytes;
        for (uint32_t m = r->exec_mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            sh->dem_addr[l] = r->addr[l];
        }
        s->io.sh_sched = (int)sched;
    } else {
        fi->lat = r->space == PS_CONST ? c->lat_const : c->lat_param;
        fi->ii = c->ii_mem;
    }
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

/* Point the executor at context x of slot w. */
static void exec_context(struct sm *s, uint32_t x, uint64_t now)
{
    const struct ptx_prog *p = s->p.prog;
    const struct sm_ctx *cx = &s->ctx[x];
    const struct sm_cta *k = &s->ctas[cx->cta];
    s->ex.regs = s->regs + (size_t)x * (p->nregs ? p->nregs : 1) * EX_WARP;
    s->ex.lmem = &s->lmem[x];
    s->ex.pscratch = s->pscratch + (size_t)x * EX_WARP * p->pscratch_size;
    s->ex.smem = s->smem + (size_t)cx->cta * s->smem_size;
    s->ex.tid0 = cx->widx * 32u;
    s->ex.warpid = cx->slot;
    memcpy(s->ex.ctaid, k->ctaid, sizeof k->ctaid);
    s->ex.clock = now;
}

/* The reserve, issue-stage and key-generator latches of an issue with `ndst` results. */
static void latch_issue(struct sm *s, uint32_t sched, uint32_t w, uint32_t x,
                        const struct iss_dec *d, uint32_t ndst, int load, int bar)
{
    s->res_latch[sched].v = ndst != 0;
    s->res_latch[sched].slot = (uint8_t)w;
    s->res_latch[sched].n = (uint8_t)ndst;
    memcpy(s->res_latch[sched].reg, d->dst, sizeof d->dst);
    s->iss_latch[sched] = (struct iss_issue){ 1, (uint8_t)x, (uint8_t)ndst, (uint8_t)load,
                                              (uint8_t)bar, 0 };
}

/* The result of an issue whose lanes an earlier issue executed (sm_mech_lanes): nothing more. */
static void no_exec(struct ex_result *r)
{
    r->kind = EX_NORMAL;
    r->exec_mask = r->taken = r->exited = 0;
    r->err[0] = '\0';
}

/* Execute slot w's head instruction on scheduler `sched`. Returns -1 on a kernel fault. */
static int issue(struct sm *s, uint32_t sched, uint32_t w, uint64_t now)
{
    struct sm_issue_out *io = &s->io;
    uint32_t pc = s->fetch_o->head_pc[w], mask = s->simt_o->mask[w], x = s->slot_ctx[w];
    const struct ptx_insn *in = &s->p.prog->insns[pc];
    const struct iss_dec *d = &s->dec[pc];
    struct fu_issue *fi = &io->fu.issue[sched];
    int wb = in->op != OP_ST && in->op != OP_RED, bar = 0;
    uint32_t lanes = sm_mech_lanes(s, w, pc, mask);
    exec_context(s, x, now);
    if (lanes)
        ex_exec(&s->ex, pc, lanes, &s->res);
    else
        no_exec(&s->res);
    if (s->res.kind == EX_ERROR) {
        snprintf(s->err, sizeof s->err, "%s", s->res.err);
        return -1;
    }
    probe_issue(&s->probe, x, pc, in, mask, &s->res);
    latch_control(s, sched, w, pc);
    sm_mech_issued(s, sched, w, x, pc);
    fi->valid = 1; fi->sched = (uint8_t)sched; fi->unit = d->unit;
    fi->warp = (uint8_t)w; fi->vwi = (uint8_t)x; fi->own = sm_mech_own(s, w);
    fi->lat = d->lat; fi->ii = d->ii;
    if (d->path == ISS_PATH_MEM) {
        io->mem_taken = 1;
        if ((s->res.space == PS_GLOBAL || s->res.space == PS_LOCAL) && s->res.exec_mask) {
            issue_ldst(s, w, x, d, in, &io->ld.issue);
            latch_issue(s, sched, w, x, d, io->ld.issue.ndst, io->ld.issue.ndst != 0, 0);
            return 0;                     /* results come back through ldst */
        }
        fixed_mem(s, sched, fi);
    }
    if (s->res.kind == EX_BARRIER) {
        if (in->sub != 1 && io->nbar < BAR_PORTS) {
            bar = 1;
            io->bar.arrive[io->nbar++] = (struct bar_ev){ 1, s->ctx[x].cta, s->ctx[x].widx };
        }
    }
    if (wb && d->late) {                  /* a mechanism's unit answers, or the late-write port */
        if (!sm_mech_late(s, sched, x, in, s->res.exec_mask))
            io->late_req = (struct sm_late_req){ 1, (uint8_t)x, pc, s->res.exec_mask };
    } else if (wb) {
        fi->ndst = d->ndst;
        memcpy(fi->dst, d->dst, sizeof fi->dst);
    }
    latch_issue(s, sched, w, x, d, wb ? d->ndst : 0, 0, bar);
    s->iss_latch[sched].iter = in->op == OP_NEXTTB;
    return 0;
}

static void clear_latches(struct sm *s)
{
    memset(s->upd_latch, 0, sizeof s->upd_latch);
    memset(s->cons_latch, 0, sizeof s->cons_latch);
    memset(s->res_latch, 0, sizeof s->res_latch);
    memset(s->iss_latch, 0, sizeof s->iss_latch);
    s->kgen_in.issue_v = 0;
}

/* One scheduler's ws inputs from the issue stage and, for keyed policies, the key
   generator (without one the keys stay 0: ws_in lives in struct sm); a mechanism may key
   them (sm_mech_keys). */
static void ws_inputs(struct sm *s, uint32_t k, int mem_taken, struct ws_in *in)
{
    const struct iss_sched *is = &s->iss_o->s[k];
    in->valid = is->valid;
    in->ready = mem_taken ? is->ready & ~is->ready_mem : is->ready;
    in->fresh = is->fresh;
    in->lstall = is->lstall;
    if (s->kgen_n)
        memcpy(in->prio, s->kgen_o->key[k], sizeof in->prio);
    sm_mech_keys(s, k, in);
}

/* Steps 6: per scheduler the pick and its issue. Returns -1 on a fault; *issued = warps
   issued. */
int sm_schedule(struct sm *s, uint64_t now, uint32_t *issued)
{
    clear_latches(s);
    *issued = 0;
    s->issued_slots = 0;
    for (uint32_t k = 0; k < s->nsched; k++) {
        struct ws_in *in = &s->ws_in[k];
        struct ws_out out;
        int mem_taken = s->io.mem_taken;
        ws_inputs(s, k, mem_taken, in);
        sm_rec(s, BLKID_ws, k, in, sizeof *in);
        ws_eval(&s->ws_c[k], &s->ws_q[k], in, &out, &s->ws_d[k]);
        s->ws_o[k] = out;
        sm_mech_picked(s, k, in, &out);
        if (out.issue_v) {
            uint32_t w = out.issue_slot * s->nsched + k;
            if (issue(s, k, w, now))
                return -1;
            s->issued_slots |= slot_bit(w);
            (*issued)++;
            s->kgen_in.issue_v |= (uint8_t)(1u << k);
            s->kgen_in.issue_slot[k] = out.issue_slot;
        }
        s->s.sched_cycles[iss_class_of(&s->iss_o->s[k], out.issue_v, mem_taken)]++;
    }
    return 0;
}

/* ------------------------------------------------------------------ late writes */

/* A late value written in the cycle its own instruction's reserve reaches sb (a 1-cycle
   unit: issued in t-1, presented and answered in t): sb applies releases before reserves, so
   the reserve would set the bit after the release and nothing would clear it. The register
   holds its value before it would turn pending: the reserve leaves it out. (An older write
   of slot's reg cannot meet this reserve: the check holds a second writer of a pending
   register.) */
static void late_unreserve(struct sm *s, uint8_t slot, uint16_t reg)
{
    for (uint32_t k = 0; k < SB_RES_PORTS; k++) {
        struct sb_res *r = &s->res_latch[k];
        if (!r->v || r->slot != slot)
            continue;
        for (uint32_t i = 0; i < r->n; i++)
            if (r->reg[i] == reg) {
                r->reg[i] = r->reg[--r->n];
                r->v = r->n != 0;
                return;
            }
    }
}

/* The late-write port: a value taken from the GPU side is written into its context's
   registers and released like any writeback (sb of the context's current slot, or where a
   mechanism routes it, sm_mech_route; iss's counters), when a release port is free this
   cycle; it waits in a small queue otherwise. A
   value for a context that is not resident is dropped. A value that arrives in the cycle its
   instruction's reserve is presented cancels that reserve (late_unreserve). */
void sm_late_writes(struct sm *s, struct sm_io *io, struct sb_in *sb, struct iss_in *iss,
                    uint32_t *nrel)
{
    const struct ptx_prog *p = s->p.prog;
    if (io->late.v && s->lateq_n < SM_LATEQ)
        s->lateq[s->lateq_n++] = io->late;
    io->late.v = 0;
    while (s->lateq_n && *nrel < SB_MAX_REL) {
        const struct sm_late *l = &s->lateq[0];
        if (l->vwi < s->nctx && s->ctx[l->vwi].valid && l->reg < p->nregs) {
            uint64_t *r = s->regs + ((size_t)l->vwi * p->nregs + l->reg) * EX_WARP;
            uint8_t slot = s->ctx[l->vwi].slot;
            for (uint32_t m = l->mask; m; m &= m - 1)
                r[__builtin_ctz(m)] = l->val[__builtin_ctz(m)];
            late_unreserve(s, slot, l->reg);
            sb->rel[*nrel] = sm_sb_rel(slot, l->vwi, l->reg);
            sm_mech_route(s, l->vwi, l->mask, &sb->rel[*nrel]);
            iss->rel[*nrel] = (struct iss_rel){ 1, l->vwi, 0 };
            (*nrel)++;
        }
        memmove(&s->lateq[0], &s->lateq[1], (s->lateq_n - 1) * sizeof s->lateq[0]);
        s->lateq_n--;
    }
}
