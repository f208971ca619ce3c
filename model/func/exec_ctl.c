/*
 * exec_ctl.c -- warp-level and control instructions of the functional executor: shfl, vote,
 * bra and bar.  They report (EX_BRANCH / EX_BARRIER) rather than act: the caller owns the
 * SIMT stack and the barrier state.
 *
 * Hardware it stands for: the SM's crossbar for shuffles and vote, and the branch/barrier
 * decode, seen functionally.  Source: PTX ISA semantics (shfl pseudo-code).
 */
#include "exec_priv.h"
#include <inttypes.h>

/* ------------------------------------------------------------------ warp-level */

/* shfl{.sync}.mode.b32 d{|p}, a, b, c{, membermask} (PTX pseudo-code; membermask unchecked) */
void ex_op_shfl(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    lanes_t A, B, C, R;
    uint32_t pm = 0;
    if (in->sub < SHFL_UP || in->sub > SHFL_IDX) {
        ex_fail(x, first_lane(x->exec), "unsupported shfl mode %u", in->sub);
        return;
    }
    ex_fetch(x, &in->opd[2], PT_B32, A);
    ex_fetch(x, &in->opd[3], PT_U32, B);
    ex_fetch(x, &in->opd[4], PT_U32, C);
    FOR_LANES(l, x->exec) {
        int b = (int)(B[l] & 31), seg = (int)((C[l] >> 8) & 31), cl = (int)(C[l] & 31), li = (int)l;
        int maxl = (li & seg) | (cl & ~seg), minl = li & seg, j, ok;
        switch (in->sub) {
        case SHFL_UP: j = li - b; ok = j >= maxl; break;
        case SHFL_DOWN: j = li + b; ok = j <= maxl; break;
        case SHFL_BFLY: j = li ^ b; ok = j <= maxl; break;
        default: j = minl | (b & ~seg); ok = j <= maxl; break;
        }
        R[l] = A[ok ? j : li];              /* source lane's register, active or not */
        pm |= (uint32_t)ok << l;
    }
    put(x, &in->opd[0], R, 0xffffffffu);
    put_mask(x, &in->opd[1], pm);
}

/* vote{.sync}.mode d, {!}a{, membermask}: lanes taking part = exec & membermask */
void ex_op_vote(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint32_t part = x->exec, v;
    if (in->opd[2].kind != OPD_NONE) {
        lanes_t M;
        ex_fetch(x, &in->opd[2], PT_B32, M);
        part &= (uint32_t)M[first_lane(x->exec)];
    }
    uint32_t pm = ex_pred_mask(x, &in->opd[1]) & part;
    switch (in->sub) {
    case VOTE_BALLOT: put_all(x, &in->opd[0], pm); return;
    case VOTE_ALL: v = pm == part; break;
    case VOTE_ANY: v = pm != 0; break;
    case VOTE_UNI: v = pm == 0 || pm == part; break;
    default:
        ex_fail(x, first_lane(x->exec), "unsupported vote mode %u", in->sub);
        return;
    }
    put_all(x, &in->opd[0], v);
}

/* ------------------------------------------------------------------ control */

void ex_op_bra(const struct xs *x)
{
    const struct ptx_operand *o = &x->in->opd[0];
    if (o->kind != OPD_LABEL && o->kind != OPD_IMM) {
        ex_fail(x, first_lane(x->exec), "indirect branch is not supported");
        return;
    }
    if (o->imm < 0 || (uint64_t)o->imm >= x->c->prog->ninsns) {
        ex_fail(x, first_lane(x->exec), "branch target %" PRId64 " outside the program", o->imm);
        return;
    }
    x->res->kind = EX_BRANCH;
    x->res->taken = x->exec;
    x->res->target = (uint32_t)o->imm;
}

/* operand value of the lowest executing lane (barrier id / count) */
static uint32_t scalar_of(const struct xs *x, const struct ptx_operand *o)
{
    lanes_t v;
    if (o->kind == OPD_NONE)
        return 0;
    ex_fetch(x, o, PT_U32, v);
    return (uint32_t)v[first_lane(x->exec)];
}

void ex_op_bar(const struct xs *x)
{
    if (!x->exec)
        return;                                 /* guarded off in every lane: no arrival */
    uint32_t id = scalar_of(x, &x->in->opd[0]);
    if (id > 15) {
        ex_fail(x, first_lane(x->exec), "barrier id %u out of range 0..15", id);
        return;
    }
    x->res->kind = EX_BARRIER;
    x->res->bar_id = id;
    x->res->bar_count = scalar_of(x, &x->in->opd[1]);
}

