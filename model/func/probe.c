/*
 * probe.c -- the instruction probe (see probe.h).
 */
#include <string.h>
#include "probe.h"

void probe_init(struct probe *p, struct gs_stats *st, struct probe_warp *warps, uint32_t cap,
                uint64_t *unit_insns, const struct probe_sink *sink)
{
    p->st = st;
    p->warps = warps;
    p->cap = cap;
    p->unit_insns = unit_insns;
    p->sink = sink && sink->fn ? sink : NULL;
    p->mark = 0;
}

void probe_warp_start(struct probe *p, uint32_t w, uint32_t tid0, uint64_t cta)
{
    struct probe_warp *pw = &p->warps[w];
    pw->insns = 0;
    pw->tid0 = tid0;
    pw->cta = cta;
    pw->it_open = 0;
    pw->it_par = 1;                  /* the first iteration takes accumulator 0 */
    pw->calm = 0;
    pw->pc = 0;
}

void probe_issue(struct probe *p, uint32_t w, uint32_t pc, const struct ptx_insn *in,
                 uint32_t active, const struct ex_result *r)
{
    struct gs_stats *st = p->st;
    uint32_t taken = r->taken & active;
    p->warps[w].insns++;
    if (p->unit_insns)
        (*p->unit_insns)++;
    st->warp_insns++;
    st->thread_insns += (uint64_t)__builtin_popcount(r->exec_mask);
    st->lane_util[__builtin_popcount(active)]++;
    if (in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED)
        st->mem_insns++;
    if (in->op == OP_ATOM || in->op == OP_RED)
        st->atomics++;
    if (r->kind == EX_BRANCH && in->guard >= 0) {
        st->branches++;
        if (taken && taken != active)
            st->divergent_branches++;
    }
    if (r->kind == EX_BARRIER)
        st->barriers++;
    p->warps[w].pc = pc;
    if ((r->kind == EX_EXIT && r->exited) || in->origin == PTX_VTW_HEAD ||
        ((in->op == OP_ST || in->op == OP_RED) && r->exec_mask)) {
        p->warps[w].calm = p->warps[w].insns;
        p->mark = st->warp_insns;
    }
    if (p->sink) {
        struct probe_event e = { pc, active, r->exec_mask, w, p->warps[w].tid0, p->warps[w].cta };
        p->sink->fn(p->sink->arg, &e);
    }
}

void probe_tb_retire(const struct probe *p, const uint32_t *idx, uint32_t n)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t i;
    for (i = 0; i < n; i++) {
        uint64_t c = p->warps[idx ? idx[i] : i].insns;
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    gs_count_divergence(lo, hi, p->st->tb_inst_div);
}

int probe_iter(struct probe *p, uint32_t w, struct probe_ltb ltb[2], uint32_t nw, uint64_t now,
               struct probe_ltb *out)
{
    struct probe_warp *pw = &p->warps[w];
    int closed = 0;
    if (pw->it_open) {
        struct probe_ltb *t = &ltb[pw->it_par];
        uint64_t ins = pw->insns - pw->it_ins, cyc = now - pw->it_t0;
        t->ins_lo = ins < t->ins_lo ? ins : t->ins_lo;
        t->ins_hi = ins > t->ins_hi ? ins : t->ins_hi;
        t->cyc_lo = cyc < t->cyc_lo ? cyc : t->cyc_lo;
        t->cyc_hi = cyc > t->cyc_hi ? cyc : t->cyc_hi;
        if (++t->done == nw) {
            gs_count_divergence(t->ins_lo, t->ins_hi, p->st->tb_inst_div);
            *out = *t;
            memset(t, 0, sizeof *t);
            closed = 1;
        }
    }
    pw->it_par ^= 1;
    pw->it_open = 1;
    pw->it_ins = pw->insns;
    pw->it_t0 = now;
    if (!ltb[pw->it_par].started++ && !ltb[pw->it_par].done)
        ltb[pw->it_par].ins_lo = ltb[pw->it_par].cyc_lo = UINT64_MAX;
    return closed;
}

void probe_iter_exit(struct probe *p, uint32_t w, struct probe_ltb ltb[2])
{
    struct probe_warp *pw = &p->warps[w];
    if (!pw->it_open)
        return;
    pw->it_open = 0;
    if (ltb[pw->it_par].started && !--ltb[pw->it_par].started && !ltb[pw->it_par].done)
        memset(&ltb[pw->it_par], 0, sizeof ltb[pw->it_par]);
}

void probe_iter_stall(struct probe_ltb ltb[2])
{
    for (unsigned i = 0; i < 2; i++)
        if (ltb[i].started) {
            ltb[i].stall_life++;
            ltb[i].stall_dwr += ltb[i].done > 0;
        }
}
