/*
 * probe.c -- the instruction probe (see probe.h).
 */
#include "probe.h"

void probe_init(struct probe *p, struct gs_stats *st, struct probe_warp *warps, uint32_t cap,
                uint64_t *unit_insns, const struct probe_sink *sink)
{
    p->st = st;
    p->warps = warps;
    p->cap = cap;
    p->unit_insns = unit_insns;
    p->sink = sink && sink->fn ? sink : NULL;
}

void probe_warp_start(struct probe *p, uint32_t w, uint32_t tid0, uint64_t cta)
{
    struct probe_warp *pw = &p->warps[w];
    pw->insns = 0;
    pw->tid0 = tid0;
    pw->cta = cta;
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
