/*
 * exec_int.c -- integer instructions of the functional executor: add/sub/mul/mad (lo, hi,
 * wide, sat) and their carry forms (add.cc, addc, sub.cc, subc, mad.cc, madc), mul24/mad24,
 * sad, div/rem, min/max/abs/neg, and/or/xor/not/cnot, shl/shr,
 * popc/clz/brev/bfind/bfe/bfi/prmt.
 *
 * Hardware it stands for: the SP's integer datapath, seen functionally.  Pure computations
 * over all 32 lanes (straight loops the compiler vectorizes); only executing lanes are written.
 * Source: PTX ISA semantics; undefined cases (divide by zero, ...) are in docs/exec.md.
 */
#include "exec_priv.h"

/* ------------------------------------------------------------------ integer ALU */

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

/* add/sub/mad with the carry flag CC.CF (add.cc, addc, sub.cc, subc, mad.cc, madc): d = a + b
   + CF, a - (b + CF) or [lo|hi](a * b) + c + CF at the type's width; .cc writes the carry
   (for sub the borrow) out to the flag's register (ptx.h: ptx_insn_carry).  The flag is read
   for every lane before any is written. */
static void int_carry(const struct xs *x, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                      uint64_t *R)
{
    const struct ptx_insn *in = x->in;
    const struct ptx_operand *o = &in->opd[ptx_insn_carry(in)];
    unsigned w = k_bits[in->type];
    uint64_t m = mask_of(w);
    if (o->kind != OPD_REG) {
        ex_fail(x, first_lane(x->exec), "%s without its carry flag register",
                ptx_op_name((enum ptx_op)in->op));
        return;
    }
    uint64_t *cf = x->c->regs + (size_t)o->reg * W;
    lanes_t P, cout;
    const uint64_t *a = A, *b = B;
    if (in->op == OP_MAD) {            /* the product's .lo or .hi half, plus c */
        int_mul(x, A, B, C, P, 0);
        a = P;
        b = C;
    }
    int cin_on = !!(in->mod & MOD_CIN), sub = in->op == OP_SUB;
    ALL_LANES(l) {
        unsigned __int128 u = a[l] & m, v = b[l] & m, ci = cin_on ? (cf[l] & 1) : 0;
        unsigned __int128 r = sub ? u - v - ci : u + v + ci;
        R[l] = (uint64_t)r & m;
        cout[l] = sub ? (u < v + ci) : (uint64_t)(r >> w) & 1;
    }
    if (in->mod & MOD_CC)
        EACH(l, x->exec, cf[l] = cout[l]);
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

void ex_op_int(const struct xs *x)
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
            ex_fetch(x, &in->opd[i + 1], st[i], buf[i]);
    }
    if (ptx_insn_carry(in) >= 0) {
        int_carry(x, S[0], S[1], S[2], R);
        if (x->res->kind == EX_ERROR)
            return;
        put(x, &in->opd[0], R, mask_of(rbits));
        return;
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

