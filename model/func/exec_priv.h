/*
 * exec_priv.h -- what the files of the functional executor share (private to model/func/exec*.c).
 *
 * Not a hardware block and not an interface: ex_exec's contract is exec.h.  exec.c decodes an
 * instruction, fetches operands and dispatches to one function per instruction family:
 *   exec_int.c  integer arithmetic, logic, shifts, bit manipulation (SP integer datapath)
 *   exec_flt.c  float arithmetic and SFU functions, half precision, compare and select
 *   exec_cvt.c  mov, cvta, cvt
 *   exec_mem.c  ld, st, atom, red (the LD/ST unit's functional side)
 *   exec_ctl.c  warp-level (shfl, vote) and control (bra, bar)
 *   exec_printf.c  vprintf (device-side printf; the formatter is devprintf.c)
 * Here: the lane-loop macros, the per-call state (struct xs), type helpers, and the operand
 * fetch / write-back functions every family uses (small ones inline).
 */
#ifndef EXEC_PRIV_H
#define EXEC_PRIV_H
#include "exec.h"
#include <math.h>
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

/* x rounded to the nearest integer, ties to even (independent of the host rounding mode) */
static inline double round_even(double x)
{
    double f = floor(x), d = x - f;
    if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0))
        f += 1.0;
    return f;
}

static inline uint32_t first_lane(uint32_t mask) { return mask ? (uint32_t)__builtin_ctz(mask) : 0; }

static inline uint64_t sat_s(int64_t v, unsigned w)
{
    int64_t hi = (int64_t)(mask_of(w - 1)), lo = -hi - 1;
    return (uint64_t)(v > hi ? hi : v < lo ? lo : v);
}

static inline int ilt(uint64_t a, uint64_t b, int sg) { return sg ? (int64_t)a < (int64_t)b : a < b; }

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



/* ------------------------------------------------------------------ shared functions */

/* exec.c: errors, operand fetch, rounding mode */
__attribute__((cold, noinline, format(printf, 3, 4)))
void ex_fail(const struct xs *x, uint32_t lane, const char *fmt, ...);
void ex_fetch(const struct xs *x, const struct ptx_operand *o, uint8_t t, uint64_t *out);
void ex_fetch_addr(const struct xs *x, const struct ptx_operand *o, uint64_t *out);
uint32_t ex_pred_mask(const struct xs *x, const struct ptx_operand *o);
int  ex_round_enter(uint8_t rnd);
void ex_round_leave(int old);

/* exec_flt.c: float operands and results (also used by compare, cvt) */
void ex_fetch_flt(const struct xs *x, const struct ptx_operand *o, uint8_t t, int ftz, double *out);
void ex_put_flt(const struct xs *x, const struct ptx_operand *o, uint8_t t, const double *R,
                int ftz, int sat);

/* exec_mem.c: a lane's bytes in memory, without a message (NULL: outside or misaligned) */
uint8_t *ex_mem_ptr(const struct ex_ctx *c, uint32_t lane, uint8_t space, uint64_t addr,
                    unsigned n, int store);

/* one function per instruction family */
void ex_op_int(const struct xs *x);                       /* exec_int.c */
void ex_op_flt(const struct xs *x);                       /* exec_flt.c */
void ex_op_setp(const struct xs *x);
void ex_op_set(const struct xs *x);
void ex_op_selp(const struct xs *x);
void ex_op_slct(const struct xs *x);
void ex_op_mov(const struct xs *x);                       /* exec_cvt.c */
void ex_op_cvta(const struct xs *x);
void ex_op_cvt(const struct xs *x);
void ex_op_ld(const struct xs *x);                        /* exec_mem.c */
void ex_op_st(const struct xs *x);
void ex_op_atom(const struct xs *x, int red);
void ex_op_shfl(const struct xs *x);                      /* exec_ctl.c */
void ex_op_vote(const struct xs *x);
void ex_op_bra(const struct xs *x);
void ex_op_bar(const struct xs *x);
void ex_op_printf(const struct xs *x);                    /* exec_printf.c */

/* ------------------------------------------------------------------ operand helpers */

/* Operand as a lane array without extension (for operations whose result's low bits depend
   only on the operands' low bits): a register's own column, else a copy in buf. */
static inline const uint64_t *src_raw(const struct xs *x, const struct ptx_operand *o,
                                      uint8_t t, uint64_t *buf)
{
    if (o->kind == OPD_REG && t != PT_PRED)
        return x->c->regs + (size_t)o->reg * W;
    ex_fetch(x, o, t, buf);
    return buf;
}

/* Write v & m to register operand o for every executing lane ('_' / none: discarded). */
static inline void put(const struct xs *x, const struct ptx_operand *o, const uint64_t *v, uint64_t m)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    EACH(l, x->exec, col[l] = v[l] & m);
}

/* Write the same value to every executing lane. */
static inline void put_all(const struct xs *x, const struct ptx_operand *o, uint64_t v)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    FOR_LANES(l, x->exec) col[l] = v;
}

/* Write predicate lanes from a mask. */
static inline void put_mask(const struct xs *x, const struct ptx_operand *o, uint32_t m)
{
    if (o->kind != OPD_REG)
        return;
    uint64_t *col = x->c->regs + (size_t)o->reg * W;
    FOR_LANES(l, x->exec) col[l] = (m >> l) & 1;
}

#endif
