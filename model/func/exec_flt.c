/*
 * exec_flt.c -- floating-point instructions of the functional executor: add/sub/mul/mad/fma,
 * div, min/max, abs/neg/copysign, sqrt/rsqrt/rcp and the SFU functions (ex2, lg2, sin, cos,
 * tanh); f16 rounding; compare and select (setp, set, selp, slct).
 *
 * Hardware it stands for: the SP's single-precision, the DP and the SFU datapaths, seen
 * functionally.  Every result is computed in double and rounded once to the type in the host
 * rounding mode that exec.c sets for .rz/.rm/.rp.  Source: PTX ISA semantics; approximations
 * in docs/exec.md.
 */
#include "exec_priv.h"

/* ------------------------------------------------------------------ half precision */

static double half_to_double(uint64_t h)
{
    unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0)
        v = ldexp((double)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp((double)(m | 0x400), (int)e - 25);
    return (h & 0x8000) ? -v : v;
}

static uint16_t half_overflow(uint16_t s, uint8_t rnd)
{
    int to_max = rnd == RND_RZ || (rnd == RND_RM && !s) || (rnd == RND_RP && s);
    return s | (to_max ? 0x7bff : 0x7c00);
}

/* Round a double to binary16 with the PTX rounding mode rnd (.rn when none). */
static uint16_t half_round(double v, uint8_t rnd)
{
    if (v != v)
        return NAN16;
    uint16_t s = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isinf(a))
        return s | 0x7c00;
    int e;
    (void)frexp(a, &e);
    int ue = e - 1 < -14 ? -14 : e - 1;            /* exponent; subnormals share 2^-14 */
    double q = ldexp(a, 10 - ue), fl = floor(q), fr = q - fl;
    int up;
    if (rnd == RND_RZ)
        up = 0;
    else if (rnd == RND_RM)
        up = s && fr > 0;
    else if (rnd == RND_RP)
        up = !s && fr > 0;
    else
        up = fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) != 0.0);
    double m = fl + up;
    if (m >= 2048) {
        m = 1024;
        ue++;
    }
    if (ue > 15)
        return half_overflow(s, rnd);
    if (m < 1024)
        return s | (uint16_t)m;                    /* subnormal (or zero) */
    return s | (uint16_t)(((ue + 15) << 10) | ((unsigned)m - 1024));
}

/* ------------------------------------------------------------------ float ALU */

/* Source operand as doubles (exact for f16/f32/f64); .ftz flushes f32 subnormal inputs. */
void ex_fetch_flt(const struct xs *x, const struct ptx_operand *o, uint8_t t, int ftz, double *out)
{
    lanes_t buf;
    const uint64_t *v = buf;
    if (o->kind == OPD_REG)
        v = x->c->regs + (size_t)o->reg * W;       /* conversions below read the low bits */
    else
        ex_fetch(x, o, t, buf);
    if (t == PT_F32 && ftz)
        ALL_LANES(l) out[l] = f32_of(ftz32((uint32_t)v[l]));
    else if (t == PT_F32)
        ALL_LANES(l) out[l] = f32_of((uint32_t)v[l]);
    else if (t == PT_F16)
        ALL_LANES(l) out[l] = half_to_double(v[l] & 0xffff);
    else
        memcpy(out, v, sizeof(lanes_t));
}

static inline double sat01(double r)
{
    if (!(r >= 0))
        return 0.0;                       /* NaN and negatives */
    return r > 1 ? 1.0 : r;
}

/* A double result rounded to type t in the current host rounding mode (f16: mode rnd),
   with .ftz (f32) and canonical NaNs. */
static inline uint64_t flt_bits(double r, uint8_t t, int ftz, uint8_t rnd)
{
    if (t == PT_F32) {
        float f = (float)r;
        if (f != f)
            return NAN32;
        return ftz ? ftz32(bits_f32(f)) : bits_f32(f);
    }
    if (t == PT_F64)
        return r != r ? NAN64 : bits_f64(r);
    return half_round(r, rnd);
}

void ex_put_flt(const struct xs *x, const struct ptx_operand *o, uint8_t t, const double *R,
                    int ftz, int sat)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    uint8_t rnd = x->in->rnd;
    EACH(l, x->exec, col[l] = flt_bits(sat ? sat01(R[l]) : R[l], t, ftz, rnd));
}

/* fma.rn.f32 without a library call: a*b is exact in double; the sum is made round-to-odd
   (TwoSum error sets the last bit) so that rounding it to float is a single correct rounding. */
static inline double fma32_rn(double a, double b, double c)
{
    double p = a * b, s = p + c;
    if (!isfinite(s))
        return s;
    double bb = s - p, e = (p - (s - bb)) + (c - bb);
    uint64_t u = bits_f64(s);
    if (e != 0 && !(u & 1))
        u += ((e > 0) == (s > 0)) ? 1 : (uint64_t)-1;
    return f64_of(u);
}

/* Every result is computed in double and rounded once to the type (exact for f32 add, sub,
   mul; innocuous double rounding for div, sqrt, rcp); f32 fma uses fmaf. */
static void flt_compute(const struct xs *x, const double *A, const double *B, const double *C,
                        double *R)
{
    uint32_t ex = x->exec;
    switch (x->in->op) {
    case OP_ADD: EACH(l, ex, R[l] = A[l] + B[l]); break;
    case OP_SUB: EACH(l, ex, R[l] = A[l] - B[l]); break;
    case OP_MUL: EACH(l, ex, R[l] = A[l] * B[l]); break;
    case OP_MAD: case OP_FMA:
        if (x->in->type == PT_F32 && (x->in->rnd == RND_RN || x->in->rnd == RND_NONE))
            EACH(l, ex, R[l] = fma32_rn(A[l], B[l], C[l]));
        else if (x->in->type == PT_F32)
            EACH(l, ex, R[l] = fmaf((float)A[l], (float)B[l], (float)C[l]));
        else
            EACH(l, ex, R[l] = fma(A[l], B[l], C[l]));
        break;
    case OP_DIV: EACH(l, ex, R[l] = A[l] / B[l]); break;
    case OP_MIN: EACH(l, ex, R[l] = fmin_ptx(A[l], B[l])); break;
    case OP_MAX: EACH(l, ex, R[l] = fmax_ptx(A[l], B[l])); break;
    case OP_SQRT: EACH(l, ex, R[l] = sqrt(A[l])); break;
    case OP_RSQRT: FOR_LANES(l, ex) R[l] = 1.0 / sqrt(A[l]); break;
    case OP_RCP: EACH(l, ex, R[l] = 1.0 / A[l]); break;
    case OP_EX2: FOR_LANES(l, ex) R[l] = exp2(A[l]); break;
    case OP_LG2: FOR_LANES(l, ex) R[l] = log2(A[l]); break;
    case OP_SIN: FOR_LANES(l, ex) R[l] = sin(A[l]); break;
    case OP_COS: FOR_LANES(l, ex) R[l] = cos(A[l]); break;
    case OP_TANH: FOR_LANES(l, ex) R[l] = tanh(A[l]); break;
    default: break;
    }
}

static unsigned flt_arity(uint8_t op)
{
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MIN: case OP_MAX: return 2;
    case OP_MAD: case OP_FMA: return 3;
    default: return 1;
    }
}

/* abs / neg / copysign: sign-bit operations (NaN payloads kept) */
static void flt_sign(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint8_t t = in->type;
    unsigned w = k_bits[t];
    uint64_t sb = 1ull << (w - 1);
    int ftz = (in->mod & MOD_FTZ) && t == PT_F32;
    lanes_t A, B, R;
    ex_fetch(x, &in->opd[1], t, A);
    if (ftz)
        FOR_LANES(l, x->exec) A[l] = ftz32((uint32_t)A[l]);
    if (in->op == OP_COPYSIGN) {           /* d = b with the sign of a */
        ex_fetch(x, &in->opd[2], t, B);
        FOR_LANES(l, x->exec) R[l] = (B[l] & ~sb) | (A[l] & sb);
    } else if (in->op == OP_ABS) {
        FOR_LANES(l, x->exec) R[l] = A[l] & ~sb;
    } else {
        FOR_LANES(l, x->exec) R[l] = A[l] ^ sb;
    }
    put(x, &in->opd[0], R, mask_of(w));
}

void ex_op_flt(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint8_t t = in->type;
    if (in->op == OP_ABS || in->op == OP_NEG || in->op == OP_COPYSIGN) {
        flt_sign(x);
        return;
    }
    int ftz = (in->mod & MOD_FTZ) && t == PT_F32;
    unsigned n = flt_arity(in->op);
    double A[W], B[W], C[W], R[W];
    ex_fetch_flt(x, &in->opd[1], t, ftz, A);
    if (n > 1)
        ex_fetch_flt(x, &in->opd[2], t, ftz, B);
    if (n > 2)
        ex_fetch_flt(x, &in->opd[3], t, ftz, C);
    ESCAPE(A); ESCAPE(B); ESCAPE(C); ESCAPE(R);
    int old = ex_round_enter(in->rnd);
    flt_compute(x, A, B, C, R);
    ex_put_flt(x, &in->opd[0], t, R, ftz, !!(in->mod & MOD_SAT));
    ex_round_leave(old);
}

/* ------------------------------------------------------------------ compare and select */

/* truth table per comparison: bit 0 = a<b, 1 = a==b, 2 = a>b, 3 = unordered */
static const uint8_t k_cmp_truth[] = {
    [CMP_EQ] = 0x2, [CMP_NE] = 0x5, [CMP_LT] = 0x1, [CMP_LE] = 0x3, [CMP_GT] = 0x4, [CMP_GE] = 0x6,
    [CMP_LO] = 0x1, [CMP_LS] = 0x3, [CMP_HI] = 0x4, [CMP_HS] = 0x6,
    [CMP_EQU] = 0xa, [CMP_NEU] = 0xd, [CMP_LTU] = 0x9, [CMP_LEU] = 0xb, [CMP_GTU] = 0xc,
    [CMP_GEU] = 0xe, [CMP_NUM] = 0x7, [CMP_NAN] = 0x8,
};

/* Lanes of exec where `a cmp b` holds, compared as type t. */
static uint32_t compare(const struct xs *x, uint8_t t, const struct ptx_operand *oa,
                        const struct ptx_operand *ob)
{
    uint8_t cmp = x->in->cmp;
    unsigned truth = cmp < sizeof k_cmp_truth ? k_cmp_truth[cmp] : 0;
    uint32_t r = 0;
    if (is_flt(t)) {
        int ftz = (x->in->mod & MOD_FTZ) && t == PT_F32;
        double A[W], B[W];
        ex_fetch_flt(x, oa, t, ftz, A);
        ex_fetch_flt(x, ob, t, ftz, B);
        EACH(l, x->exec, double a = A[l]; double b = B[l];
             unsigned cls = (a != a || b != b) ? 3 : a < b ? 0 : a == b ? 1 : 2;
             r |= ((truth >> cls) & 1u) << l);
    } else {
        lanes_t A, B;
        int sg = k_sgn[t] && !(cmp >= CMP_LO && cmp <= CMP_HS);
        ex_fetch(x, oa, t, A);
        ex_fetch(x, ob, t, B);
        EACH(l, x->exec, unsigned cls = ilt(A[l], B[l], sg) ? 0 : A[l] == B[l] ? 1 : 2;
             r |= ((truth >> cls) & 1u) << l);
    }
    return r;
}

static uint32_t boolop(uint32_t t, uint32_t c, uint8_t bop)
{
    switch (bop) {
    case BOP_AND: return t & c;
    case BOP_OR: return t | c;
    case BOP_XOR: return t ^ c;
    default: return t;
    }
}

static uint8_t cmp_type(const struct ptx_insn *in) { return in->type2 ? in->type2 : in->type; }

/* setp.cmp{.bop}.type p|q, a, b{, c}: p = t bop c, q = !t bop c */
void ex_op_setp(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint32_t t = compare(x, cmp_type(in), &in->opd[2], &in->opd[3]);
    uint32_t c = in->bop ? ex_pred_mask(x, &in->opd[4]) : 0;
    put_mask(x, &in->opd[0], boolop(t, c, in->bop));
    put_mask(x, &in->opd[1], boolop(~t & x->exec, c, in->bop));
}

/* set.cmp{.bop}.dtype.stype d, a, b{, c}: d = 1.0f or all ones when true.  Operands are
   d, a, b, c; a parser that reuses the setp layout (opd[1] = none) is accepted too. */
void ex_op_set(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    unsigned k = in->opd[1].kind == OPD_NONE ? 2 : 1;
    uint32_t t = compare(x, cmp_type(in), &in->opd[k], &in->opd[k + 1]);
    uint32_t c = in->bop ? ex_pred_mask(x, &in->opd[k + 2]) : 0;
    uint32_t r = boolop(t, c, in->bop);
    uint64_t one = in->type == PT_F32 ? 0x3f800000u : in->type == PT_F16 ? 0x3c00u
                 : in->type == PT_F64 ? 0x3ff0000000000000ull : mask_of(k_bits[in->type]);
    lanes_t R;
    FOR_LANES(l, x->exec) R[l] = ((r >> l) & 1) ? one : 0;
    put(x, &in->opd[0], R, ~0ull);
}

/* selp.type d, a, b, c: d = c ? a : b */
void ex_op_selp(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    lanes_t A, B;
    ex_fetch(x, &in->opd[1], in->type, A);
    ex_fetch(x, &in->opd[2], in->type, B);
    uint32_t c = ex_pred_mask(x, &in->opd[3]);
    FOR_LANES(l, x->exec) A[l] = ((c >> l) & 1) ? A[l] : B[l];
    put(x, &in->opd[0], A, mask_of(k_bits[in->type]));
}

/* slct.dtype.ctype d, a, b, c: d = (c >= 0) ? a : b (float c: NaN selects b, -0 selects a) */
void ex_op_slct(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint8_t ct = cmp_type(in);
    lanes_t A, B, Cv;
    ex_fetch(x, &in->opd[1], in->type, A);
    ex_fetch(x, &in->opd[2], in->type, B);
    if (is_flt(ct)) {
        double Cf[W];
        ex_fetch_flt(x, &in->opd[3], ct, (in->mod & MOD_FTZ) && ct == PT_F32, Cf);
        FOR_LANES(l, x->exec) A[l] = Cf[l] >= 0 ? A[l] : B[l];
    } else {
        ex_fetch(x, &in->opd[3], ct, Cv);
        int sg = k_sgn[ct];
        FOR_LANES(l, x->exec) A[l] = (!sg || (int64_t)Cv[l] >= 0) ? A[l] : B[l];
    }
    put(x, &in->opd[0], A, mask_of(k_bits[in->type]));
}

