/*
 * exec.c -- functional execution of one warp instruction (the SIMD datapath's semantics).
 *
 * Hardware it stands for: the SP (integer and single-precision ALU), SFU (transcendentals),
 * DP (double) and LD/ST units of an SM, seen functionally.  ex_exec() decodes one ptx_prog
 * instruction once, fetches each source operand for the 32 lanes of the warp, computes the
 * result of every executing lane (active & guard predicate), writes registers and memory and
 * reports what the instruction did (branch, barrier, exit, memory addresses, errors).
 *
 * Shape: one dispatch on the opcode per warp instruction, then one function per instruction
 * family (integer ALU, bit manipulation, float ALU, compare/select, conversions, memory,
 * atomics, warp-level, control).  Loops run over the set bits of the execution mask, or
 * over all 32 lanes for pure computations (straight loops the compiler vectorizes; inactive
 * lanes' results are never written back).  Operands are gathered into lane arrays (or read in
 * place) before any register is written, so a destination that is also a source never sees
 * a half-updated warp.  Memory accesses are checked for the whole warp before any is done.
 *
 * No state of its own, no allocation, no I/O: snprintf runs only on the error path.
 * Source: PTX ISA semantics.  Approximations and the values chosen for cases PTX leaves
 * undefined (integer divide by zero, shfl from an inactive lane, ...) are in docs/exec.md.
 */
#include "exec.h"
#include <fenv.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define W EX_WARP
typedef uint64_t lanes_t[W];

/* Loop over the set bits of mask, lowest lane first; l is the lane number. */
#define FOR_LANES(l, mask)                                                                  \
    for (uint32_t l##_m = (mask), l = 0; l##_m != 0 && ((l = (uint32_t)__builtin_ctz(l##_m)), 1); \
         l##_m &= l##_m - 1)

/* Every lane: for pure computations whose inactive-lane results are never written back. */
#define ALL_LANES(l) for (uint32_t l = 0; l < W; l++)

/* The statement for each lane of mask: a straight (vectorizable) loop when all 32 lanes run. */
#define EACH(l, mask, ...)                                                                  \
    do {                                                                                    \
        if ((mask) == 0xffffffffu) { ALL_LANES(l) { __VA_ARGS__; } }                        \
        else { FOR_LANES(l, mask) { __VA_ARGS__; } }                                        \
    } while (0)

/* Make an array's address visible to the compiler, so that code touching it is never moved
   across fesetround() (the build does not use -frounding-math). */
#define ESCAPE(p) __asm__ volatile("" : : "g"(p) : "memory")

/* One call's decoded state. */
struct xs {
    const struct ex_ctx *c;
    const struct ptx_insn *in;
    struct ex_result *res;
    uint32_t pc, exec;
};

/* ------------------------------------------------------------------ types and bits */

static const uint8_t k_bits[PT_COUNT] = {
    [PT_NONE] = 64, [PT_PRED] = 1,
    [PT_B8] = 8, [PT_B16] = 16, [PT_B32] = 32, [PT_B64] = 64,
    [PT_U8] = 8, [PT_U16] = 16, [PT_U32] = 32, [PT_U64] = 64,
    [PT_S8] = 8, [PT_S16] = 16, [PT_S32] = 32, [PT_S64] = 64,
    [PT_F16] = 16, [PT_F32] = 32, [PT_F64] = 64,
};
static const uint8_t k_sgn[PT_COUNT] = { [PT_S8] = 1, [PT_S16] = 1, [PT_S32] = 1, [PT_S64] = 1 };

static const char *const k_space_name[PS_COUNT] = {
    "generic", "global", "shared", "local", "const", "param"
};

static inline int is_flt(uint8_t t) { return t == PT_F16 || t == PT_F32 || t == PT_F64; }
static inline unsigned tbytes(uint8_t t) { return t == PT_PRED ? 1u : k_bits[t] / 8u; }
static inline uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Low bits of v for type t, sign- or zero-extended to 64 bits. */
static inline uint64_t ext(uint64_t v, uint8_t t)
{
    unsigned sh = 64u - k_bits[t];
    return k_sgn[t] ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

static inline float f32_of(uint64_t b)
{
    union { uint32_t u; float f; } v = { (uint32_t)b };
    return v.f;
}
static inline uint32_t bits_f32(float f)
{
    union { float f; uint32_t u; } v = { f };
    return v.u;
}
static inline double f64_of(uint64_t b)
{
    union { uint64_t u; double d; } v = { b };
    return v.d;
}
static inline uint64_t bits_f64(double d)
{
    union { double d; uint64_t u; } v = { d };
    return v.u;
}
/* flush a subnormal f32 (as bits) to a zero of the same sign */
static inline uint32_t ftz32(uint32_t b) { return (b & 0x7f800000u) ? b : (b & 0x80000000u); }

#define NAN32 0x7fffffffu                /* canonical NaNs written by float operations */
#define NAN64 0x7fffffffffffffffull
#define NAN16 0x7fffu

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

/* x rounded to the nearest integer, ties to even (independent of the host rounding mode) */
static double round_even(double x)
{
    double f = floor(x), d = x - f;
    if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0))
        f += 1.0;
    return f;
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

/* ------------------------------------------------------------------ errors */

static void tid_of(const struct ex_ctx *c, uint32_t lin, uint32_t t[3])
{
    uint32_t nx = c->ntid[0] ? c->ntid[0] : 1, ny = c->ntid[1] ? c->ntid[1] : 1;
    t[0] = lin % nx;
    t[1] = lin / nx % ny;
    t[2] = lin / nx / ny;
}

/* Report an error of lane `lane`: "kernel K: PC n (file:line) CTA (x,y,z) thread (x,y,z): ..." */
__attribute__((cold, noinline, format(printf, 3, 4)))
static void fail(const struct xs *x, uint32_t lane, const char *fmt, ...)
{
    const struct ex_ctx *c = x->c;
    const struct ptx_prog *p = c->prog;
    const char *file = (p->mod && p->mod->filename[0]) ? p->mod->filename : "?";
    uint32_t t[3];
    tid_of(c, c->tid0 + lane, t);
    int n = snprintf(x->res->err, PTX_ERR_LEN, "kernel %s: PC %u (%s:%u) CTA (%u,%u,%u) thread (%u,%u,%u): ",
                     p->name, x->pc, file, x->in ? x->in->line : 0, c->ctaid[0], c->ctaid[1],
                     c->ctaid[2], t[0], t[1], t[2]);
    if (n < 0)
        n = 0;
    if (n >= PTX_ERR_LEN)
        n = PTX_ERR_LEN - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->res->err + n, (size_t)(PTX_ERR_LEN - n), fmt, ap);
    va_end(ap);
    x->res->kind = EX_ERROR;
}

static uint32_t first_lane(uint32_t mask) { return mask ? (uint32_t)__builtin_ctz(mask) : 0; }

/* ------------------------------------------------------------------ operand fetch / write */

/* special registers that are the same in every lane */
static uint64_t sreg_uniform(const struct ex_ctx *c, uint8_t sr, unsigned comp)
{
    switch (sr) {
    case SR_NTID: return c->ntid[comp];
    case SR_CTAID: return c->ctaid[comp];
    case SR_NCTAID: return c->nctaid[comp];
    case SR_WARPID: return c->warpid;
    case SR_NWARPID: return c->nwarpid;
    case SR_SMID: return c->smid;
    case SR_NSMID: return c->nsmid;
    case SR_CLOCK: return (uint32_t)c->clock;
    case SR_CLOCK64: return c->clock;
    default: return 0;                     /* %gridid and anything unknown */
    }
}

static uint64_t lanemask(uint8_t sr, uint32_t lane)
{
    uint64_t le = (2ull << lane) - 1, lt = (1ull << lane) - 1;
    switch (sr) {
    case SR_LANEMASK_EQ: return 1ull << lane;
    case SR_LANEMASK_LT: return lt;
    case SR_LANEMASK_LE: return le & 0xffffffffu;
    case SR_LANEMASK_GT: return ~le & 0xffffffffu;
    default: return ~lt & 0xffffffffu;     /* SR_LANEMASK_GE */
    }
}

/* %tid of each lane: the linear index tid0 + lane decomposed over ntid, x fastest */
static void fetch_tid(const struct ex_ctx *c, unsigned comp, uint64_t *out)
{
    uint32_t t[3], nx = c->ntid[0] ? c->ntid[0] : 1, ny = c->ntid[1] ? c->ntid[1] : 1;
    tid_of(c, c->tid0, t);
    for (uint32_t l = 0; l < W; l++) {
        out[l] = t[comp];
        if (++t[0] == nx) {
            t[0] = 0;
            if (++t[1] == ny) {
                t[1] = 0;
                t[2]++;
            }
        }
    }
}

static void fetch_sreg(const struct ex_ctx *c, const struct ptx_operand *o, uint64_t *out)
{
    unsigned comp = o->comp > 2 ? 0 : o->comp;
    uint64_t v;
    switch (o->sreg) {
    case SR_TID:
        fetch_tid(c, comp, out);
        return;
    case SR_LANEID:
        ALL_LANES(l) out[l] = l;
        return;
    case SR_LANEMASK_EQ: case SR_LANEMASK_LT: case SR_LANEMASK_LE: case SR_LANEMASK_GT:
    case SR_LANEMASK_GE:
        ALL_LANES(l) out[l] = lanemask(o->sreg, l);
        return;
    default:
        v = sreg_uniform(c, o->sreg, comp);
        ALL_LANES(l) out[l] = v;
        return;
    }
}

/* {a, b, ...} used as a source: elements packed low first, each k_bits[t] / nvec wide */
static void fetch_pack(const struct ex_ctx *c, const struct ptx_operand *o, uint8_t t, uint64_t *out)
{
    unsigned n = o->nvec ? (o->nvec > 4 ? 4 : o->nvec) : 1, eb = k_bits[t] / n;
    uint64_t m = mask_of(eb);
    memset(out, 0, sizeof(lanes_t));
    for (unsigned i = 0; i < n; i++) {
        if (o->vec[i] < 0)
            continue;
        const uint64_t *col = c->regs + (size_t)o->vec[i] * W;
        for (uint32_t l = 0; l < W; l++)
            out[l] |= (col[l] & m) << (i * eb);
    }
}

/* Source operand o read as type t for all 32 lanes (sign/zero-extended; preds 0/1, '!' applied). */
static void fetch(const struct xs *x, const struct ptx_operand *o, uint8_t t, uint64_t *out)
{
    const struct ex_ctx *c = x->c;
    unsigned sh = 64u - k_bits[t];
    uint64_t v;
    switch (o->kind) {
    case OPD_REG: {
        const uint64_t *col = c->regs + (size_t)o->reg * W;
        if (t == PT_PRED)
            ALL_LANES(l) out[l] = (col[l] != 0) ^ (o->neg != 0);
        else if (sh == 0)
            memcpy(out, col, sizeof(lanes_t));
        else if (!k_sgn[t])
            ALL_LANES(l) out[l] = col[l] & (~0ull >> sh);
        else if (sh == 32)
            ALL_LANES(l) out[l] = (uint64_t)(int64_t)(int32_t)col[l];
        else
            ALL_LANES(l) out[l] = (uint64_t)((int64_t)(col[l] << sh) >> sh);
        return;
    }
    case OPD_IMM: case OPD_SYMADDR: case OPD_LABEL:
        v = t == PT_PRED ? (uint64_t)((o->imm != 0) ^ (o->neg != 0)) : ext((uint64_t)o->imm, t);
        for (uint32_t l = 0; l < W; l++) out[l] = v;
        return;
    case OPD_ADDR: {
        const uint64_t *col = o->reg >= 0 ? c->regs + (size_t)o->reg * W : NULL;
        for (uint32_t l = 0; l < W; l++) out[l] = ext((col ? col[l] : 0) + (uint64_t)o->imm, t);
        return;
    }
    case OPD_SREG:
        fetch_sreg(c, o, out);
        for (uint32_t l = 0; l < W; l++) out[l] = ext(out[l], t);
        return;
    case OPD_VEC:
        fetch_pack(c, o, t, out);
        for (uint32_t l = 0; l < W; l++) out[l] = ext(out[l], t);
        return;
    default:
        memset(out, 0, sizeof(lanes_t));
        return;
    }
}

/* Operand as a lane array without extension (for operations whose result's low bits depend
   only on the operands' low bits): a register's own column, else a copy in buf. */
static const uint64_t *src_raw(const struct xs *x, const struct ptx_operand *o, uint8_t t,
                               uint64_t *buf)
{
    if (o->kind == OPD_REG && t != PT_PRED)
        return x->c->regs + (size_t)o->reg * W;
    fetch(x, o, t, buf);
    return buf;
}

/* A memory operand's address per lane: [reg + imm], or a plain register / immediate.  With a
   32-bit base register the address arithmetic is 32-bit (wraps), as PTX defines it. */
static void fetch_addr(const struct xs *x, const struct ptx_operand *o, uint64_t *out)
{
    const struct ptx_prog *p = x->c->prog;
    const uint64_t *col = (o->kind == OPD_ADDR || o->kind == OPD_REG) && o->reg >= 0
                          ? x->c->regs + (size_t)o->reg * W : NULL;
    uint64_t off = o->kind == OPD_REG ? 0 : (uint64_t)o->imm;
    int w32 = col && p->reg_type && (uint32_t)o->reg < p->nregs && p->reg_type[o->reg] < PT_COUNT &&
              k_bits[p->reg_type[o->reg]] <= 32;
    if (!col)
        ALL_LANES(l) out[l] = off;
    else if (w32)
        ALL_LANES(l) out[l] = (uint32_t)(col[l] + off);
    else
        ALL_LANES(l) out[l] = col[l] + off;
}

/* Mask of the executing lanes whose predicate operand o (with '!') is true. */
static uint32_t pred_mask(const struct xs *x, const struct ptx_operand *o)
{
    lanes_t v;
    uint32_t m = 0;
    fetch(x, o, PT_PRED, v);
    FOR_LANES(l, x->exec) m |= (uint32_t)v[l] << l;
    return m;
}

/* Write v & m to register operand o for every executing lane ('_' / none: discarded). */
static void put(const struct xs *x, const struct ptx_operand *o, const uint64_t *v, uint64_t m)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    EACH(l, x->exec, col[l] = v[l] & m);
}

/* Write the same value to every executing lane. */
static void put_all(const struct xs *x, const struct ptx_operand *o, uint64_t v)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    FOR_LANES(l, x->exec) col[l] = v;
}

/* Write predicate lanes from a mask. */
static void put_mask(const struct xs *x, const struct ptx_operand *o, uint32_t m)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    FOR_LANES(l, x->exec) col[l] = (m >> l) & 1;
}

/* ------------------------------------------------------------------ host rounding mode */

static int round_enter(uint8_t rnd)
{
    int want;
    switch (rnd) {
    case RND_RZ: want = FE_TOWARDZERO; break;
    case RND_RM: want = FE_DOWNWARD; break;
    case RND_RP: want = FE_UPWARD; break;
    default: return -1;
    }
    int old = fegetround();
    fesetround(want);
    return old;
}

static void round_leave(int old)
{
    if (old >= 0)
        fesetround(old);
}

/* ------------------------------------------------------------------ integer ALU */

static inline uint64_t sat_s(int64_t v, unsigned w)
{
    int64_t hi = (int64_t)(mask_of(w - 1)), lo = -hi - 1;
    return (uint64_t)(v > hi ? hi : v < lo ? lo : v);
}

static inline uint64_t mul_hi(uint64_t a, uint64_t b, unsigned w, int sg)
{
    if (w == 64)
        return sg ? (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64)
                  : (uint64_t)(((unsigned __int128)a * b) >> 64);
    if (sg)
        return (uint64_t)(((int64_t)a * (int64_t)b) >> w);   /* exact: |a*b| < 2^62 */
    return (a * b) >> w;
}

static inline uint64_t mul24(uint64_t a, uint64_t b, int sg, int hi)
{
    int64_t x = sg ? (int64_t)(a << 40) >> 40 : (int64_t)(a & 0xffffff);
    int64_t y = sg ? (int64_t)(b << 40) >> 40 : (int64_t)(b & 0xffffff);
    int64_t p = x * y;                                       /* 48-bit product */
    return hi ? (uint64_t)(p >> 16) : (uint64_t)p;
}

/* Defined results for PTX's undefined cases: x/0 = all ones, x%0 = x, MIN/-1 wraps to MIN. */
static inline uint64_t idiv(uint64_t a, uint64_t b, int sg)
{
    if (b == 0)
        return ~0ull;
    if (!sg)
        return a / b;
    if ((int64_t)b == -1)
        return 0 - a;
    return (uint64_t)((int64_t)a / (int64_t)b);
}

static inline uint64_t irem(uint64_t a, uint64_t b, int sg)
{
    if (b == 0)
        return a;
    if (!sg)
        return a % b;
    if ((int64_t)b == -1)
        return 0;
    return (uint64_t)((int64_t)a % (int64_t)b);
}

static inline int ilt(uint64_t a, uint64_t b, int sg) { return sg ? (int64_t)a < (int64_t)b : a < b; }

/* the type twice as wide as t with the same signedness (mul.wide / mad.wide) */
static uint8_t wide_type(uint8_t t)
{
    switch (t) {
    case PT_S16: return PT_S32;
    case PT_U16: case PT_B16: return PT_U32;
    case PT_S32: return PT_S64;
    case PT_U32: case PT_B32: return PT_U64;
    default: return t;
    }
}

/* mul/mad in its .lo/.hi/.wide forms; mad adds C */
static void int_mul(const struct xs *x, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                    uint64_t *R, int mad)
{
    const struct ptx_insn *in = x->in;
    unsigned w = k_bits[in->type];
    int sg = k_sgn[in->type];
    if ((in->mod & MOD_HI) && !((in->mod & MOD_WIDE) && w < 64)) {
        int sat = mad && (in->mod & MOD_SAT) && sg && w < 64;     /* mad.hi.sat.s32 */
        ALL_LANES(l) R[l] = mul_hi(A[l], B[l], w, sg);
        if (sat)
            ALL_LANES(l) R[l] = sat_s((int64_t)R[l] + (int64_t)C[l], w);
        else if (mad)
            ALL_LANES(l) R[l] += C[l];
        return;
    }
    /* .lo, and .wide (exact in 2w bits: A and B are extended to 64) */
    if (mad)
        ALL_LANES(l) R[l] = A[l] * B[l] + C[l];
    else
        ALL_LANES(l) R[l] = A[l] * B[l];
}

static void int_arith(const struct xs *x, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                      uint64_t *R)
{
    const struct ptx_insn *in = x->in;
    unsigned w = k_bits[in->type];
    int sg = k_sgn[in->type], sat = (in->mod & MOD_SAT) && sg && w < 64, hi = !!(in->mod & MOD_HI);
    switch (in->op) {
    case OP_ADD:
        if (sat)
            ALL_LANES(l) R[l] = sat_s((int64_t)(A[l] + B[l]), w);
        else
            ALL_LANES(l) R[l] = A[l] + B[l];
        break;
    case OP_SUB:
        if (sat)
            ALL_LANES(l) R[l] = sat_s((int64_t)(A[l] - B[l]), w);
        else
            ALL_LANES(l) R[l] = A[l] - B[l];
        break;
    case OP_MUL: int_mul(x, A, B, C, R, 0); break;
    case OP_MAD: int_mul(x, A, B, C, R, 1); break;
    case OP_MUL24: ALL_LANES(l) R[l] = mul24(A[l], B[l], sg, hi); break;
    case OP_MAD24: ALL_LANES(l) R[l] = mul24(A[l], B[l], sg, hi) + C[l]; break;
    case OP_SAD:
        ALL_LANES(l) R[l] = C[l] + (ilt(A[l], B[l], sg) ? B[l] - A[l] : A[l] - B[l]);
        break;
    case OP_DIV: ALL_LANES(l) R[l] = idiv(A[l], B[l], sg); break;
    case OP_REM: ALL_LANES(l) R[l] = irem(A[l], B[l], sg); break;
    case OP_MIN: ALL_LANES(l) R[l] = ilt(A[l], B[l], sg) ? A[l] : B[l]; break;
    case OP_MAX: ALL_LANES(l) R[l] = ilt(A[l], B[l], sg) ? B[l] : A[l]; break;
    case OP_ABS: ALL_LANES(l) R[l] = (sg && (int64_t)A[l] < 0) ? 0 - A[l] : A[l]; break;
    case OP_NEG: ALL_LANES(l) R[l] = 0 - A[l]; break;
    default: break;
    }
}

static void int_logic(const struct xs *x, const uint64_t *A, const uint64_t *B, uint64_t *R)
{
    const struct ptx_insn *in = x->in;
    unsigned w = k_bits[in->type];
    int sg = k_sgn[in->type];
    switch (in->op) {
    case OP_AND: ALL_LANES(l) R[l] = A[l] & B[l]; break;
    case OP_OR: ALL_LANES(l) R[l] = A[l] | B[l]; break;
    case OP_XOR: ALL_LANES(l) R[l] = A[l] ^ B[l]; break;
    case OP_NOT: ALL_LANES(l) R[l] = ~A[l]; break;
    case OP_CNOT: ALL_LANES(l) R[l] = A[l] == 0; break;
    case OP_SHL: ALL_LANES(l) R[l] = B[l] >= w ? 0 : A[l] << B[l]; break;
    case OP_SHR:
        if (sg)      /* A is sign-extended: shifting by >= w fills with the sign */
            ALL_LANES(l) R[l] = (uint64_t)((int64_t)A[l] >> (B[l] > 63 ? 63 : B[l]));
        else
            ALL_LANES(l) R[l] = B[l] >= w ? 0 : A[l] >> B[l];
        break;
    default: break;
    }
}

/* bfe: field [pos, pos+len) of a, sign-extended for signed types (PTX pseudo-code) */
static uint64_t bfe(uint64_t a, uint64_t b, uint64_t c, unsigned w, int sg)
{
    unsigned pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
    uint64_t sbit = 0;
    if (sg && len) {
        unsigned i = pos + len - 1 > w - 1 ? w - 1 : pos + len - 1;
        sbit = (a >> i) & 1;
    }
    if (pos >= w || len == 0)
        return sbit ? ~0ull : 0;
    unsigned n = pos + len > w ? w - pos : len;
    uint64_t f = (a >> pos) & mask_of(n);
    return sbit ? f | ~mask_of(n) : f;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t d, unsigned w)
{
    unsigned pos = (unsigned)(c & 0xff), len = (unsigned)(d & 0xff);
    if (pos >= w || len == 0)
        return b;
    unsigned n = pos + len > w ? w - pos : len;
    uint64_t m = mask_of(n) << pos;
    return (b & ~m) | ((a << pos) & m);
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
    uint64_t src = ((uint64_t)b << 32) | a;
    unsigned s = c & 3;
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel, sx = 0;
        switch (mode) {
        case PRMT_F4E: sel = (s + i) & 7; break;
        case PRMT_B4E: sel = (s - i) & 7; break;
        case PRMT_RC8: sel = s; break;
        case PRMT_ECL: sel = i > s ? i : s; break;
        case PRMT_ECR: sel = i < s ? i : s; break;
        case PRMT_RC16: sel = ((s & 1) << 1) | (i & 1); break;
        default:
            sel = (c >> (4 * i)) & 7;
            sx = (c >> (4 * i + 3)) & 1;
            break;
        }
        uint32_t byte = (uint32_t)(src >> (8 * sel)) & 0xff;
        if (sx)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * i);
    }
    return d;
}

static uint64_t bfind(uint64_t a, unsigned w, int sg, int shiftamt)
{
    if (sg && (int64_t)a < 0)
        a = ~a;                                  /* most significant non-sign bit */
    a &= mask_of(w);
    if (a == 0)
        return 0xffffffffu;
    unsigned msb = 63u - (unsigned)__builtin_clzll(a);
    return shiftamt ? w - 1 - msb : msb;
}

static uint64_t brev(uint64_t a, unsigned w)
{
    a = ((a >> 1) & 0x5555555555555555ull) | ((a & 0x5555555555555555ull) << 1);
    a = ((a >> 2) & 0x3333333333333333ull) | ((a & 0x3333333333333333ull) << 2);
    a = ((a >> 4) & 0x0f0f0f0f0f0f0f0full) | ((a & 0x0f0f0f0f0f0f0f0full) << 4);
    a = __builtin_bswap64(a);
    return a >> (64 - w);
}

static void int_bits(const struct xs *x, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                     const uint64_t *D, uint64_t *R)
{
    const struct ptx_insn *in = x->in;
    unsigned w = k_bits[in->type];
    int sg = k_sgn[in->type];
    switch (in->op) {
    case OP_POPC: ALL_LANES(l) R[l] = (uint64_t)__builtin_popcountll(A[l] & mask_of(w)); break;
    case OP_CLZ:
        ALL_LANES(l) {
            uint64_t a = A[l] & mask_of(w);
            R[l] = a ? (uint64_t)__builtin_clzll(a) - (64 - w) : w;
        }
        break;
    case OP_BREV: ALL_LANES(l) R[l] = brev(A[l], w); break;
    case OP_BFIND: ALL_LANES(l) R[l] = bfind(A[l], w, sg, !!(in->mod & MOD_SHIFTAMT)); break;
    case OP_BFE: ALL_LANES(l) R[l] = bfe(A[l], B[l], C[l], w, sg); break;
    case OP_BFI: ALL_LANES(l) R[l] = bfi(A[l], B[l], C[l], D[l], w); break;
    case OP_PRMT:
        ALL_LANES(l) R[l] = prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], in->sub);
        break;
    default: break;
    }
}

/* Operand types of the integer families: [0] = a, [1] = b, [2] = c, [3] = d; result width. */
static void int_types(const struct ptx_insn *in, uint8_t st[4], unsigned *rbits)
{
    uint8_t t = in->type;
    st[0] = st[1] = st[2] = st[3] = t;
    *rbits = k_bits[t];
    switch (in->op) {
    case OP_SHL: case OP_SHR: st[1] = PT_U32; break;
    case OP_BFE: st[1] = st[2] = PT_U32; break;
    case OP_BFI: st[2] = st[3] = PT_U32; break;
    case OP_POPC: case OP_CLZ: case OP_BFIND: *rbits = 32; break;
    case OP_MUL: case OP_MAD:
        if ((in->mod & MOD_WIDE) && k_bits[t] < 64) {
            st[2] = wide_type(t);
            *rbits = 2 * k_bits[t];
        }
        break;
    default: break;
    }
}

static unsigned int_arity(uint8_t op)
{
    switch (op) {
    case OP_NOT: case OP_CNOT: case OP_ABS: case OP_NEG: case OP_POPC: case OP_CLZ:
    case OP_BREV: case OP_BFIND:
        return 1;
    case OP_MAD: case OP_MAD24: case OP_SAD: case OP_BFE: case OP_PRMT:
        return 3;
    case OP_BFI:
        return 4;
    default:
        return 2;
    }
}

/* Operand i of op needs no sign/zero extension (low result bits depend on low bits only). */
static int raw_ok(const struct ptx_insn *in, unsigned i)
{
    switch (in->op) {
    case OP_ADD: case OP_SUB: return !(in->mod & MOD_SAT);
    case OP_MUL: case OP_MAD: return !(in->mod & (MOD_HI | MOD_WIDE));
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_NEG: return 1;
    case OP_SHL: return i == 0;
    default: return 0;
    }
}

static void op_int(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    lanes_t buf[4], R;
    const uint64_t *S[4] = { buf[0], buf[1], buf[2], buf[3] };
    uint8_t st[4];
    unsigned rbits, n = int_arity(in->op);
    int_types(in, st, &rbits);
    for (unsigned i = 0; i < n; i++) {
        if (raw_ok(in, i))
            S[i] = src_raw(x, &in->opd[i + 1], st[i], buf[i]);
        else
            fetch(x, &in->opd[i + 1], st[i], buf[i]);
    }
    switch (in->op) {
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR:
        int_logic(x, S[0], S[1], R);
        break;
    case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_BFE: case OP_BFI:
    case OP_PRMT:
        int_bits(x, S[0], S[1], S[2], S[3], R);
        break;
    default:
        int_arith(x, S[0], S[1], S[2], R);
        break;
    }
    put(x, &in->opd[0], R, mask_of(rbits));
}

/* ------------------------------------------------------------------ float ALU */

/* Source operand as doubles (exact for f16/f32/f64); .ftz flushes f32 subnormal inputs. */
static void fetch_flt(const struct xs *x, const struct ptx_operand *o, uint8_t t, int ftz, double *out)
{
    lanes_t buf;
    const uint64_t *v = buf;
    if (o->kind == OPD_REG)
        v = x->c->regs + (size_t)o->reg * W;       /* conversions below read the low bits */
    else
        fetch(x, o, t, buf);
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

static void put_flt(const struct xs *x, const struct ptx_operand *o, uint8_t t, const double *R,
                    int ftz, int sat)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    uint8_t rnd = x->in->rnd;
    EACH(l, x->exec, col[l] = flt_bits(sat ? sat01(R[l]) : R[l], t, ftz, rnd));
}

/* PTX min/max: a NaN operand yields the other one; -0.0 < +0.0 */
static inline double fmin_ptx(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline double fmax_ptx(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
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
    fetch(x, &in->opd[1], t, A);
    if (ftz)
        FOR_LANES(l, x->exec) A[l] = ftz32((uint32_t)A[l]);
    if (in->op == OP_COPYSIGN) {           /* d = b with the sign of a */
        fetch(x, &in->opd[2], t, B);
        FOR_LANES(l, x->exec) R[l] = (B[l] & ~sb) | (A[l] & sb);
    } else if (in->op == OP_ABS) {
        FOR_LANES(l, x->exec) R[l] = A[l] & ~sb;
    } else {
        FOR_LANES(l, x->exec) R[l] = A[l] ^ sb;
    }
    put(x, &in->opd[0], R, mask_of(w));
}

static void op_flt(const struct xs *x)
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
    fetch_flt(x, &in->opd[1], t, ftz, A);
    if (n > 1)
        fetch_flt(x, &in->opd[2], t, ftz, B);
    if (n > 2)
        fetch_flt(x, &in->opd[3], t, ftz, C);
    ESCAPE(A); ESCAPE(B); ESCAPE(C); ESCAPE(R);
    int old = round_enter(in->rnd);
    flt_compute(x, A, B, C, R);
    put_flt(x, &in->opd[0], t, R, ftz, !!(in->mod & MOD_SAT));
    round_leave(old);
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
        fetch_flt(x, oa, t, ftz, A);
        fetch_flt(x, ob, t, ftz, B);
        EACH(l, x->exec, double a = A[l]; double b = B[l];
             unsigned cls = (a != a || b != b) ? 3 : a < b ? 0 : a == b ? 1 : 2;
             r |= ((truth >> cls) & 1u) << l);
    } else {
        lanes_t A, B;
        int sg = k_sgn[t] && !(cmp >= CMP_LO && cmp <= CMP_HS);
        fetch(x, oa, t, A);
        fetch(x, ob, t, B);
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
static void op_setp(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint32_t t = compare(x, cmp_type(in), &in->opd[2], &in->opd[3]);
    uint32_t c = in->bop ? pred_mask(x, &in->opd[4]) : 0;
    put_mask(x, &in->opd[0], boolop(t, c, in->bop));
    put_mask(x, &in->opd[1], boolop(~t & x->exec, c, in->bop));
}

/* set.cmp{.bop}.dtype.stype d, a, b{, c}: d = 1.0f or all ones when true.  Operands are
   d, a, b, c; a parser that reuses the setp layout (opd[1] = none) is accepted too. */
static void op_set(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    unsigned k = in->opd[1].kind == OPD_NONE ? 2 : 1;
    uint32_t t = compare(x, cmp_type(in), &in->opd[k], &in->opd[k + 1]);
    uint32_t c = in->bop ? pred_mask(x, &in->opd[k + 2]) : 0;
    uint32_t r = boolop(t, c, in->bop);
    uint64_t one = in->type == PT_F32 ? 0x3f800000u : in->type == PT_F16 ? 0x3c00u
                 : in->type == PT_F64 ? 0x3ff0000000000000ull : mask_of(k_bits[in->type]);
    lanes_t R;
    FOR_LANES(l, x->exec) R[l] = ((r >> l) & 1) ? one : 0;
    put(x, &in->opd[0], R, ~0ull);
}

/* selp.type d, a, b, c: d = c ? a : b */
static void op_selp(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    lanes_t A, B;
    fetch(x, &in->opd[1], in->type, A);
    fetch(x, &in->opd[2], in->type, B);
    uint32_t c = pred_mask(x, &in->opd[3]);
    FOR_LANES(l, x->exec) A[l] = ((c >> l) & 1) ? A[l] : B[l];
    put(x, &in->opd[0], A, mask_of(k_bits[in->type]));
}

/* slct.dtype.ctype d, a, b, c: d = (c >= 0) ? a : b (float c: NaN selects b, -0 selects a) */
static void op_slct(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint8_t ct = cmp_type(in);
    lanes_t A, B, Cv;
    fetch(x, &in->opd[1], in->type, A);
    fetch(x, &in->opd[2], in->type, B);
    if (is_flt(ct)) {
        double Cf[W];
        fetch_flt(x, &in->opd[3], ct, (in->mod & MOD_FTZ) && ct == PT_F32, Cf);
        FOR_LANES(l, x->exec) A[l] = Cf[l] >= 0 ? A[l] : B[l];
    } else {
        fetch(x, &in->opd[3], ct, Cv);
        int sg = k_sgn[ct];
        FOR_LANES(l, x->exec) A[l] = (!sg || (int64_t)Cv[l] >= 0) ? A[l] : B[l];
    }
    put(x, &in->opd[0], A, mask_of(k_bits[in->type]));
}

/* ------------------------------------------------------------------ moves and conversions */

/* mov: register, immediate, special register, address, or vector pack/unpack */
static void op_mov(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    const struct ptx_operand *d = &in->opd[0];
    lanes_t A;
    fetch(x, &in->opd[1], in->type, A);
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
static void op_cvta(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint64_t base = 0;
    lanes_t A;
    if (in->space == PS_SHARED)
        base = PTX_GEN_SHARED;
    else if (in->space == PS_LOCAL)
        base = PTX_GEN_LOCAL;
    else if (in->space == PS_PARAM) {
        fail(x, first_lane(x->exec), "cvta.param (generic addressing of parameters) is not supported");
        return;
    }
    fetch(x, &in->opd[1], PT_U64, A);
    FOR_LANES(l, x->exec) A[l] = (in->mod & MOD_TO) ? A[l] - base : A[l] + base;
    put(x, &in->opd[0], A, mask_of(k_bits[in->type]));
}

static void cvt_int(const struct xs *x, uint8_t dt, uint8_t st)
{
    const struct ptx_insn *in = x->in;
    unsigned w = k_bits[dt];
    lanes_t A;
    fetch(x, &in->opd[1], st, A);
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
    int old = round_enter(in->rnd);
    if (!is_flt(st)) {                                  /* int -> float */
        lanes_t A;
        fetch(x, &in->opd[1], st, A);
        FOR_LANES(l, x->exec) R[l] = i2f(A[l], k_sgn[st], dt);
    } else {
        fetch_flt(x, &in->opd[1], st, ftz && st == PT_F32, R);
        if (!is_flt(dt)) {                              /* float -> int */
            unsigned w = k_bits[dt];
            double hi = ldexp(1.0, (int)(k_sgn[dt] ? w - 1 : w)), lo = k_sgn[dt] ? -hi : 0;
            lanes_t D;
            FOR_LANES(l, x->exec) D[l] = f2i(R[l], in->rnd, dt, lo, hi);
            round_leave(old);
            put(x, &in->opd[0], D, mask_of(w));
            return;
        }
        FOR_LANES(l, x->exec) R[l] = f2f_int(R[l], in->rnd);
    }
    put_flt(x, &in->opd[0], dt, R, ftz && dt == PT_F32, !!(in->mod & MOD_SAT));
    round_leave(old);
}

static void op_cvt(const struct xs *x)
{
    uint8_t dt = x->in->type, st = x->in->type2 ? x->in->type2 : x->in->type;
    if (is_flt(dt) || is_flt(st))
        cvt_flt(x, dt, st);
    else
        cvt_int(x, dt, st);
}

/* ------------------------------------------------------------------ memory */

enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC };
static const char *const k_acc_name[] = { "load", "store", "atomic" };

static inline int in_range(uint64_t a, uint64_t n, uint64_t size) { return a <= size && n <= size - a; }

static inline uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint8_t b1; uint16_t b2; uint32_t b4; uint64_t b8;
    switch (n) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    case 4: memcpy(&b4, p, 4); return b4;
    default: memcpy(&b8, p, 8); return b8;
    }
}

static inline void store_le(uint8_t *p, uint64_t v, unsigned n)
{
    uint8_t b1 = (uint8_t)v; uint16_t b2 = (uint16_t)v; uint32_t b4 = (uint32_t)v;
    switch (n) {
    case 1: memcpy(p, &b1, 1); break;
    case 2: memcpy(p, &b2, 2); break;
    case 4: memcpy(p, &b4, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

/* .param: kernel parameters (read-only) or the lane's call scratch */
static uint8_t *param_at(const struct ex_ctx *c, uint32_t lane, uint64_t a, uint64_t n, int acc)
{
    const struct ptx_prog *p = c->prog;
    if (acc == ACC_LOAD && c->params && in_range(a, n, p->param_size))
        return (uint8_t *)(uintptr_t)(c->params + a);
    if (a >= PTX_PSCRATCH_BASE && c->pscratch &&
        in_range(a - PTX_PSCRATCH_BASE, n, p->pscratch_size))
        return c->pscratch + (size_t)lane * c->pscratch_stride + (a - PTX_PSCRATCH_BASE);
    return NULL;
}

/* A generic address's state space; *base is the window start to subtract. */
static inline uint8_t gen_decode(uint64_t a, uint64_t *base)
{
    if (a - PTX_GEN_SHARED < PTX_GEN_WINDOW) {
        *base = PTX_GEN_SHARED;
        return PS_SHARED;
    }
    if (a - PTX_GEN_LOCAL < PTX_GEN_WINDOW) {
        *base = PTX_GEN_LOCAL;
        return PS_LOCAL;
    }
    *base = 0;
    return PS_GLOBAL;
}

/* Host pointer for one lane's access of n bytes at addr in `space` (generic decoded by
   window), or NULL after reporting an out-of-bounds or misaligned access. */
static uint8_t *mem_at(const struct xs *x, uint32_t lane, uint8_t space, uint64_t addr, unsigned n,
                       int acc, uint8_t *rspace, uint64_t *raddr)
{
    const struct ex_ctx *c = x->c;
    uint8_t *p = NULL;
    uint64_t base = 0;
    if (space == PS_GENERIC) {
        space = gen_decode(addr, &base);
        addr -= base;
    }
    *rspace = space;
    *raddr = addr;
    switch (space) {
    case PS_SHARED:
        if (c->smem && in_range(addr, n, c->smem_size))
            p = c->smem + addr;
        break;
    case PS_LOCAL:
        if (c->lmem && in_range(addr, n, c->lmem_size))
            p = c->lmem + (size_t)lane * c->lmem_stride + addr;
        break;
    case PS_PARAM:
        p = param_at(c, lane, addr, n, acc);
        break;
    case PS_GLOBAL: case PS_CONST:
        if (c->gmem)
            p = gm_ptr(c->gmem, addr, n);
        break;
    default:
        break;
    }
    const char *sn = space < PS_COUNT ? k_space_name[space] : "?";
    if (!p) {
        fail(x, lane, "out-of-bounds %s %s of %u bytes at 0x%016" PRIx64, sn, k_acc_name[acc], n, addr);
        return NULL;
    }
    if (addr & ((n & -n) - 1)) {
        fail(x, lane, "misaligned %s %s of %u bytes at 0x%016" PRIx64, sn, k_acc_name[acc], n, addr);
        return NULL;
    }
    return p;
}

/* Host address of byte `lo` (lane 0's copy for per-lane spaces) if [lo, lo+len) is valid in
   space sp for every lane, with the per-lane stride; NULL otherwise. */
static uint8_t *span_at(const struct ex_ctx *c, uint8_t sp, uint64_t lo, uint64_t len, int acc,
                        size_t *stride)
{
    const struct ptx_prog *p = c->prog;
    *stride = 0;
    switch (sp) {
    case PS_SHARED:
        return c->smem && in_range(lo, len, c->smem_size) ? c->smem + lo : NULL;
    case PS_LOCAL:
        *stride = c->lmem_stride;
        return c->lmem && in_range(lo, len, c->lmem_size) ? c->lmem + lo : NULL;
    case PS_PARAM:
        if (acc == ACC_LOAD && c->params && in_range(lo, len, p->param_size))
            return (uint8_t *)(uintptr_t)(c->params + lo);
        *stride = c->pscratch_stride;
        if (lo >= PTX_PSCRATCH_BASE && c->pscratch &&
            in_range(lo - PTX_PSCRATCH_BASE, len, p->pscratch_size))
            return c->pscratch + (lo - PTX_PSCRATCH_BASE);
        return NULL;
    case PS_GLOBAL: case PS_CONST:
        return c->gmem ? gm_ptr(c->gmem, lo, len) : NULL;
    default:
        return NULL;
    }
}

/* Record each lane's state-space address; if generic lanes resolved to different spaces,
   report PS_GENERIC with the generic addresses instead. */
struct addr_rec { int first, mixed; };

static inline void rec_addr(const struct xs *x, struct addr_rec *r, uint32_t l, uint8_t sp, uint64_t a)
{
    x->res->addr[l] = a;
    if (r->first) {
        x->res->space = sp;
        r->first = 0;
    } else if (sp != x->res->space) {
        r->mixed = 1;
    }
}

/* Lane by lane, ascending: the first bad lane is the one reported. */
static int mem_lanes(const struct xs *x, uint8_t space, const uint64_t *A, unsigned n, int acc,
                     uint8_t **P)
{
    struct addr_rec ar = { 1, 0 };
    FOR_LANES(l, x->exec) {
        uint8_t sp;
        uint64_t ra;
        P[l] = mem_at(x, l, space, A[l], n, acc, &sp, &ra);
        if (!P[l])
            return -1;
        rec_addr(x, &ar, l, sp, ra);
    }
    if (ar.mixed) {
        x->res->space = PS_GENERIC;
        FOR_LANES(l, x->exec) x->res->addr[l] = A[l];
    }
    return 0;
}

/* Host pointers P[l] for every executing lane's n-byte access at A[l]; fills res->addr and
   res->space.  Fast path: all lanes in one space and the span of their accesses valid and
   aligned, checked once.  Returns 0, or -1 after reporting the first bad lane. */
static int mem_warp(const struct xs *x, uint8_t space, const uint64_t *A, unsigned n, int acc,
                    uint8_t **P)
{
    uint32_t ex = x->exec;
    uint64_t base = 0, lo = ~0ull, hi = 0, orr = 0, b;
    uint8_t sp = space;
    int uniform = 1;
    if (!ex)
        return 0;
    if (space == PS_GENERIC)
        sp = gen_decode(A[first_lane(ex)], &base);
    FOR_LANES(l, ex) {
        if (space == PS_GENERIC && gen_decode(A[l], &b) != sp) {
            uniform = 0;
            break;
        }
        uint64_t a = A[l] - base;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        orr |= a;
    }
    if (uniform && !(orr & ((n & -n) - 1)) && hi <= ~0ull - n) {
        size_t stride;
        uint8_t *p0 = span_at(x->c, sp, lo, hi + n - lo, acc, &stride);
        if (p0) {
            x->res->space = sp;
            EACH(l, ex, uint64_t a = A[l] - base;
                 P[l] = p0 + (size_t)l * stride + (a - lo);
                 x->res->addr[l] = a);
            return 0;
        }
    }
    return mem_lanes(x, space, A, n, acc, P);
}

/* ld destination registers: element e goes to dr[e] (-1 = ignored), masked to dm[e] (a
   register wider than the type receives the sign/zero-extended value). */
static void ld_dests(const struct xs *x, unsigned nv, int32_t dr[4], uint64_t dm[4])
{
    const struct ptx_operand *d = &x->in->opd[0];
    const struct ptx_prog *p = x->c->prog;
    for (unsigned e = 0; e < nv; e++) {
        dr[e] = d->kind == OPD_VEC ? (e < d->nvec ? d->vec[e] : -1) : (e == 0 && d->kind == OPD_REG ? d->reg : -1);
        unsigned bits = k_bits[x->in->type];
        if (dr[e] >= 0 && p->reg_type && (uint32_t)dr[e] < p->nregs && p->reg_type[dr[e]] < PT_COUNT &&
            k_bits[p->reg_type[dr[e]]] > bits && p->reg_type[dr[e]] != PT_PRED)
            bits = k_bits[p->reg_type[dr[e]]];
        dm[e] = mask_of(bits);
    }
}

static unsigned vec_count(const struct ptx_insn *in) { return in->vec >= 1 && in->vec <= 4 ? in->vec : 1; }

/* one element of a load into register column col: extended per t, masked to m */
#define LD_LOOP(T)                                                                          \
    FOR_LANES(l, x->exec) {                                                                 \
        T v_;                                                                               \
        memcpy(&v_, P[l] + off, sizeof v_);                                                 \
        col[l] = (sg ? (uint64_t)((int64_t)((uint64_t)v_ << sh) >> sh) : (uint64_t)v_) & m; \
    }

static void ld_elem(const struct xs *x, uint64_t *col, uint8_t *const *P, unsigned off, uint8_t t,
                    uint64_t m)
{
    unsigned sh = 64u - k_bits[t];
    int sg = k_sgn[t];
    switch (tbytes(t)) {
    case 1: LD_LOOP(uint8_t); break;
    case 2: LD_LOOP(uint16_t); break;
    case 4: LD_LOOP(uint32_t); break;
    default: LD_LOOP(uint64_t); break;
    }
}

#define ST_LOOP(T)                                                                          \
    FOR_LANES(l, x->exec) {                                                                 \
        T v_ = (T)(col ? col[l] : imm);                                                     \
        memcpy(P[l] + off, &v_, sizeof v_);                                                 \
    }

static void st_elem(const struct xs *x, const uint64_t *col, uint64_t imm, uint8_t *const *P,
                    unsigned off, unsigned sz)
{
    switch (sz) {
    case 1: ST_LOOP(uint8_t); break;
    case 2: ST_LOOP(uint16_t); break;
    case 4: ST_LOOP(uint32_t); break;
    default: ST_LOOP(uint64_t); break;
    }
}

static void op_ld(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint8_t t = in->type;
    unsigned sz = tbytes(t), nv = vec_count(in), n = sz * nv;
    int32_t dr[4];
    uint64_t dm[4];
    lanes_t A;
    uint8_t *P[W];
    x->res->access_bytes = n;
    x->res->space = in->space;
    ld_dests(x, nv, dr, dm);
    fetch_addr(x, &in->opd[1], A);
    if (mem_warp(x, in->space, A, n, ACC_LOAD, P))
        return;
    for (unsigned e = 0; e < nv; e++)
        if (dr[e] >= 0)
            ld_elem(x, x->c->regs + (size_t)dr[e] * W, P, e * sz, t, dm[e]);
}

/* st: source register, vector of registers ('_' stores zero) or immediate */
static void op_st(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    const struct ptx_operand *s = &in->opd[1];
    unsigned sz = tbytes(in->type), nv = vec_count(in), n = sz * nv;
    uint64_t imm = s->kind == OPD_IMM ? (uint64_t)s->imm : 0;
    lanes_t A;
    uint8_t *P[W];
    x->res->access_bytes = n;
    x->res->space = in->space;
    x->res->is_store = 1;
    fetch_addr(x, &in->opd[0], A);
    if (mem_warp(x, in->space, A, n, ACC_STORE, P))
        return;
    for (unsigned e = 0; e < nv; e++) {
        int32_t r = s->kind == OPD_VEC ? (e < s->nvec ? s->vec[e] : -1) : (s->kind == OPD_REG ? s->reg : -1);
        st_elem(x, r >= 0 ? x->c->regs + (size_t)r * W : NULL, imm, P, e * sz, sz);
    }
}

/* ------------------------------------------------------------------ atomics */

static uint64_t atom_flt(uint8_t aop, uint8_t t, uint64_t o, uint64_t b)
{
    if (t == PT_F32) {           /* atom.add.f32: round to nearest, subnormals flushed */
        float a = f32_of(ftz32((uint32_t)o)), v = f32_of(ftz32((uint32_t)b));
        float r = aop == AOP_ADD ? a + v : aop == AOP_MIN ? (float)fmin_ptx(a, v) : (float)fmax_ptx(a, v);
        return ftz32(bits_f32(r));
    }
    double a = f64_of(o), v = f64_of(b);
    return bits_f64(aop == AOP_ADD ? a + v : aop == AOP_MIN ? fmin_ptx(a, v) : fmax_ptx(a, v));
}

/* new value of one atomic: old o (extended per t), operands b, c */
static uint64_t atom_apply(uint8_t aop, uint8_t t, uint64_t o, uint64_t b, uint64_t c)
{
    int sg = k_sgn[t];
    if (is_flt(t) && (aop == AOP_ADD || aop == AOP_MIN || aop == AOP_MAX))
        return atom_flt(aop, t, o, b);
    switch (aop) {
    case AOP_ADD: return o + b;
    case AOP_MIN: return ilt(o, b, sg) ? o : b;
    case AOP_MAX: return ilt(o, b, sg) ? b : o;
    case AOP_INC: return o >= b ? 0 : o + 1;
    case AOP_DEC: return (o == 0 || o > b) ? b : o - 1;
    case AOP_AND: return o & b;
    case AOP_OR: return o | b;
    case AOP_XOR: return o ^ b;
    case AOP_EXCH: return b;
    case AOP_CAS: return o == b ? c : o;
    default: return o;
    }
}

/* atom: d, [a], b{, c};  red: [a], b.  Lanes in ascending order. */
static void op_atom(const struct xs *x, int red)
{
    const struct ptx_insn *in = x->in;
    uint8_t t = in->type;
    unsigned sz = tbytes(t);
    const struct ptx_operand *oa = &in->opd[red ? 0 : 1], *ob = &in->opd[red ? 1 : 2];
    lanes_t A, B, C, R;
    uint8_t *P[W];
    x->res->is_atomic = 1;
    x->res->is_store = (uint8_t)red;
    x->res->access_bytes = sz;
    x->res->space = in->space;
    if ((sz != 4 && sz != 8) || in->sub < AOP_ADD || in->sub > AOP_CAS) {
        fail(x, first_lane(x->exec), "unsupported atomic operation (op %u on a %u-byte type)", in->sub, sz);
        return;
    }
    fetch_addr(x, oa, A);
    fetch(x, ob, t, B);
    if (in->sub == AOP_CAS)
        fetch(x, &in->opd[3], t, C);
    else
        memset(C, 0, sizeof C);
    if (mem_warp(x, in->space, A, sz, ACC_ATOMIC, P))
        return;
    FOR_LANES(l, x->exec) {
        uint64_t old = ext(load_le(P[l], sz), t);
        store_le(P[l], atom_apply(in->sub, t, old, B[l], C[l]), sz);
        R[l] = old;
    }
    if (!red)
        put(x, &in->opd[0], R, mask_of(8 * sz));
}

/* ------------------------------------------------------------------ warp-level */

/* shfl{.sync}.mode.b32 d{|p}, a, b, c{, membermask} (PTX pseudo-code; membermask unchecked) */
static void op_shfl(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    lanes_t A, B, C, R;
    uint32_t pm = 0;
    if (in->sub < SHFL_UP || in->sub > SHFL_IDX) {
        fail(x, first_lane(x->exec), "unsupported shfl mode %u", in->sub);
        return;
    }
    fetch(x, &in->opd[2], PT_B32, A);
    fetch(x, &in->opd[3], PT_U32, B);
    fetch(x, &in->opd[4], PT_U32, C);
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
static void op_vote(const struct xs *x)
{
    const struct ptx_insn *in = x->in;
    uint32_t part = x->exec, v;
    if (in->opd[2].kind != OPD_NONE) {
        lanes_t M;
        fetch(x, &in->opd[2], PT_B32, M);
        part &= (uint32_t)M[first_lane(x->exec)];
    }
    uint32_t pm = pred_mask(x, &in->opd[1]) & part;
    switch (in->sub) {
    case VOTE_BALLOT: put_all(x, &in->opd[0], pm); return;
    case VOTE_ALL: v = pm == part; break;
    case VOTE_ANY: v = pm != 0; break;
    case VOTE_UNI: v = pm == 0 || pm == part; break;
    default:
        fail(x, first_lane(x->exec), "unsupported vote mode %u", in->sub);
        return;
    }
    put_all(x, &in->opd[0], v);
}

/* ------------------------------------------------------------------ control */

static void op_bra(const struct xs *x)
{
    const struct ptx_operand *o = &x->in->opd[0];
    if (o->kind != OPD_LABEL && o->kind != OPD_IMM) {
        fail(x, first_lane(x->exec), "indirect branch is not supported");
        return;
    }
    if (o->imm < 0 || (uint64_t)o->imm >= x->c->prog->ninsns) {
        fail(x, first_lane(x->exec), "branch target %" PRId64 " outside the program", o->imm);
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
    fetch(x, o, PT_U32, v);
    return (uint32_t)v[first_lane(x->exec)];
}

static void op_bar(const struct xs *x)
{
    if (!x->exec)
        return;                                 /* guarded off in every lane: no arrival */
    uint32_t id = scalar_of(x, &x->in->opd[0]);
    if (id > 15) {
        fail(x, first_lane(x->exec), "barrier id %u out of range 0..15", id);
        return;
    }
    x->res->kind = EX_BARRIER;
    x->res->bar_id = id;
    x->res->bar_count = scalar_of(x, &x->in->opd[1]);
}

/* ------------------------------------------------------------------ dispatch */

static uint32_t guard_mask(const struct ex_ctx *c, const struct ptx_insn *in, uint32_t active)
{
    if (in->guard < 0)
        return active;
    const uint64_t *col = c->regs + (size_t)in->guard * W;
    uint32_t m = 0;
    ALL_LANES(l) m |= (uint32_t)(col[l] != 0) << l;
    return (in->guard_neg ? ~m : m) & active;
}

/* ALU opcodes: float or integer family by type */
static void op_alu(const struct xs *x)
{
    uint8_t op = x->in->op;
    int flt_only = op == OP_FMA || op == OP_COPYSIGN || (op >= OP_SQRT && op <= OP_TANH);
    int flt_ok = flt_only || op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_MAD ||
                 op == OP_DIV || op == OP_MIN || op == OP_MAX || op == OP_ABS || op == OP_NEG;
    if (is_flt(x->in->type) && flt_ok)
        op_flt(x);
    else if (flt_only)
        fail(x, first_lane(x->exec), "%s needs a floating-point type", ptx_op_name((enum ptx_op)op));
    else
        op_int(x);
}

static void dispatch(const struct xs *x)
{
    switch (x->in->op) {
    case OP_LD: op_ld(x); break;
    case OP_ST: op_st(x); break;
    case OP_MOV: op_mov(x); break;
    case OP_CVTA: op_cvta(x); break;
    case OP_CVT: op_cvt(x); break;
    case OP_SETP: op_setp(x); break;
    case OP_SET: op_set(x); break;
    case OP_SELP: op_selp(x); break;
    case OP_SLCT: op_slct(x); break;
    case OP_ATOM: op_atom(x, 0); break;
    case OP_RED: op_atom(x, 1); break;
    case OP_SHFL: op_shfl(x); break;
    case OP_VOTE: op_vote(x); break;
    case OP_ACTIVEMASK: put_all(x, &x->in->opd[0], x->exec); break;
    case OP_BRA: op_bra(x); break;
    case OP_EXIT: x->res->kind = EX_EXIT; x->res->exited = x->exec; break;
    case OP_BAR: op_bar(x); break;
    case OP_MEMBAR: case OP_NOP: break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV: case OP_REM:
    case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG: case OP_MUL24: case OP_MAD24: case OP_SAD:
    case OP_COPYSIGN: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
    case OP_SHL: case OP_SHR: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFE: case OP_BFI:
    case OP_PRMT: case OP_BFIND: case OP_SQRT: case OP_RSQRT: case OP_RCP: case OP_EX2:
    case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
        op_alu(x);
        break;
    default:           /* call/ret are inlined by the linker and never reach a prog */
        fail(x, first_lane(x->exec), "unsupported instruction '%s'", ptx_op_name((enum ptx_op)x->in->op));
        break;
    }
}

static void res_clear(struct ex_result *res)
{
    res->kind = EX_NORMAL;
    res->space = PS_GENERIC;
    res->is_store = res->is_atomic = 0;
    res->exec_mask = res->taken = res->target = res->exited = 0;
    res->bar_id = res->bar_count = res->access_bytes = 0;
    res->err[0] = '\0';
}

void ex_exec(const struct ex_ctx *ctx, uint32_t pc, uint32_t active, struct ex_result *res)
{
    res_clear(res);
    if (!ctx || !ctx->prog || !ctx->regs) {
        snprintf(res->err, PTX_ERR_LEN, "ex_exec: no program or registers");
        res->kind = EX_ERROR;
        return;
    }
    struct xs x = { ctx, NULL, res, pc, 0 };
    if (pc >= ctx->prog->ninsns) {
        fail(&x, first_lane(active), "PC outside the program (%u instructions)", ctx->prog->ninsns);
        return;
    }
    x.in = &ctx->prog->insns[pc];
    if (x.in->type >= PT_COUNT || x.in->type2 >= PT_COUNT) {
        fail(&x, first_lane(active), "bad instruction type");
        return;
    }
    x.exec = guard_mask(ctx, x.in, active);
    res->exec_mask = x.exec;
    dispatch(&x);
}
