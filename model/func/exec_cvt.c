/*
 * exec_cvt.c -- moves and conversions of the functional executor: mov (registers, immediates,
 * special registers, addresses, vector pack/unpack), cvta (generic <-> state-space addresses)
 * and cvt (integer/float conversions with rounding and saturation).
 *
 * Hardware it stands for: the SP's conversion path, seen functionally.  Source: PTX ISA
 * semantics; values for out-of-range conversions are in docs/exec.md.
 */
#include "exec_priv.h"

/* ------------------------------------------------------------------ moves and conversions */

/* mov: register, immediate, special register, address, or vector pack/unpack */
void ex_op_mov(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    const struct ptx_operand *d = &in->opd[0];
    lanes_t A;
    ex_fetch(x, &in->opd[1], in->type, A);
    if (d->kind != OPD_VEC) {
        put(x, d, A, mask_of(k_bits[in->type]));
        return;
    }
    unsigned n = d->nvec ? (d->nvec > 4 ? 4 : d->nvec) : 1, eb = k_bits[in->type] / n;
    for (unsigned i = 0; i < n; i++) {
        if (d->vec[i] < 0)
            continue;
        uint64_t *col = x->c->regs + (size_t)d->vec[i] * W;
        FOR_LANES(l, x->exec) col[l] = (A[l] >> (i * eb)) & mask_of(eb);
    }
}

/* cvta{.to}.space: add or subtract the generic window base (global/const: unchanged).
   cvta.to of an address outside the window is not checked here: it wraps, and the
   load/store that uses it reports the out-of-bounds access. */
void ex_op_cvta(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint64_t base = 0;
    lanes_t A;
    if (in->space == PS_SHARED)
        base = PTX_GEN_SHARED;
    else if (in->space == PS_LOCAL)
        base = PTX_GEN_LOCAL;
    else if (in->space == PS_PARAM) {
        ex_fail(x, first_lane(x->exec), "cvta.param (generic addressing of parameters) is not supported");
        return;
    }
    ex_fetch(x, &in->opd[1], PT_U64, A);
    FOR_LANES(l, x->exec) A[l] = (in->mod & MOD_TO) ? A[l] - base : A[l] + base;
    put(x, &in->opd[0], A, mask_of(k_bits[in->type]));
}

static void cvt_int(const struct xs *x, uint8_t dt, uint8_t st)
{
    const struct ptx_insn *in = x->in;
    unsigned w = k_bits[dt];
    lanes_t A;
    ex_fetch(x, &in->opd[1], st, A);
    if (in->mod & MOD_SAT) {
        uint64_t umax = mask_of(w), smax = mask_of(w - 1);
        FOR_LANES(l, x->exec) {
            uint64_t v = A[l];
            if (k_sgn[st] && (int64_t)v < 0)
                A[l] = k_sgn[dt] ? sat_s((int64_t)v, w) : 0;
            else if (v > (k_sgn[dt] ? smax : umax))
                A[l] = k_sgn[dt] ? smax : umax;
        }
    }
    put(x, &in->opd[0], A, mask_of(w));
}

/* float -> integer: integer rounding, then saturation to the destination range, NaN -> 0 */
static uint64_t f2i(double v, uint8_t rnd, uint8_t dt, double lo, double hi)
{
    if (v != v)
        return 0;
    switch (rnd) {
    case RND_RNI: case RND_RN: v = round_even(v); break;
    case RND_RMI: case RND_RM: v = floor(v); break;
    case RND_RPI: case RND_RP: v = ceil(v); break;
    default: v = trunc(v); break;
    }
    unsigned w = k_bits[dt];
    if (k_sgn[dt]) {
        if (v < lo)
            return (uint64_t)(-(int64_t)mask_of(w - 1) - 1);
        if (v >= hi)
            return mask_of(w - 1);
        return (uint64_t)(int64_t)v;
    }
    if (v <= 0)
        return 0;
    if (v >= hi)
        return mask_of(w);
    return (uint64_t)v;
}

/* float rounded to an integral float (cvt.rni.f32.f32 and friends) */
static double f2f_int(double v, uint8_t rnd)
{
    switch (rnd) {
    case RND_RNI: return round_even(v);
    case RND_RZI: return trunc(v);
    case RND_RMI: return floor(v);
    case RND_RPI: return ceil(v);
    default: return v;
    }
}

/* integer -> float, rounded once in the current host rounding mode */
static double i2f(uint64_t v, int sg, uint8_t dt)
{
    if (dt == PT_F32)
        return sg ? (double)(float)(int64_t)v : (double)(float)v;
    return sg ? (double)(int64_t)v : (double)v;
}

static void cvt_flt(const struct xs *x, uint8_t dt, uint8_t st)
{
    const struct ptx_insn *in = x->in;
    int ftz = !!(in->mod & MOD_FTZ);
    double R[W];
    ESCAPE(R);
    int old = ex_round_enter(in->rnd);
    if (!is_flt(st)) {                                  /* int -> float */
        lanes_t A;
        ex_fetch(x, &in->opd[1], st, A);
        FOR_LANES(l, x->exec) R[l] = i2f(A[l], k_sgn[st], dt);
    } else {
        ex_fetch_flt(x, &in->opd[1], st, ftz && st == PT_F32, R);
        if (!is_flt(dt)) {                              /* float -> int */
            unsigned w = k_bits[dt];
            double hi = ldexp(1.0, (int)(k_sgn[dt] ? w - 1 : w)), lo = k_sgn[dt] ? -hi : 0;
            lanes_t D;
            FOR_LANES(l, x->exec) D[l] = f2i(R[l], in->rnd, dt, lo, hi);
            ex_round_leave(old);
            put(x, &in->opd[0], D, mask_of(w));
            return;
        }
        FOR_LANES(l, x->exec) R[l] = f2f_int(R[l], in->rnd);
    }
    ex_put_flt(x, &in->opd[0], dt, R, ftz && dt == PT_F32, !!(in->mod & MOD_SAT));
    ex_round_leave(old);
}

void ex_op_cvt(const struct xs *x)
{
    uint8_t dt = x->in->type, st = x->in->type2 ? x->in->type2 : x->in->type;
    if (is_flt(dt) || is_flt(st))
        cvt_flt(x, dt, st);
    else
        cvt_int(x, dt, st);
}

