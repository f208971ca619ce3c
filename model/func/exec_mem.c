/*
 * exec_mem.c -- memory instructions of the functional executor: ld, st (scalar and vector),
 * atom and red, over the global, const, shared, local and param state spaces and generic
 * addresses.
 *
 * Hardware it stands for: the LD/ST unit seen functionally (what is read and written, and the
 * per-lane addresses the timing model's memory path uses; not when).  Every lane's access is
 * checked (bounds, alignment) before any is done.  Source: PTX ISA semantics.
 */
#include "exec_priv.h"
#include <inttypes.h>
#include <stdlib.h>

static const char *const k_space_name[PS_COUNT] = {
    "generic", "global", "shared", "local", "const", "param"
};

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

/* What a chunk of local memory never stored to reads (exec.h: struct ex_lmem). */
static uint8_t lmem_zeros[(size_t)W * EX_LCHUNK];

int ex_lmem_init(struct ex_lmem *m, uint32_t size, uint64_t *held)
{
    memset(m, 0, sizeof *m);
    m->nchunks = (size + EX_LCHUNK - 1) / EX_LCHUNK;
    m->lane = size < EX_LCHUNK ? size : EX_LCHUNK;
    m->held = held;
    m->chunk = calloc(m->nchunks ? m->nchunks : 1, sizeof *m->chunk);
    return m->chunk ? 0 : -1;
}

void ex_lmem_free(struct ex_lmem *m)
{
    for (uint32_t k = 0; m->chunk && k < m->nchunks; k++)
        if (m->chunk[k]) {
            free(m->chunk[k]);
            if (m->held)
                *m->held -= (uint64_t)W * m->lane;
        }
    free(m->chunk);
    m->chunk = NULL;
}

void ex_lmem_clear(struct ex_lmem *m)
{
    for (uint32_t k = m->lo / EX_LCHUNK; m->hi && k <= (m->hi - 1) / EX_LCHUNK; k++) {
        uint32_t base = k * EX_LCHUNK;
        uint32_t a = (m->lo > base ? m->lo : base) - base;
        uint32_t b = (m->hi < base + m->lane ? m->hi : base + m->lane) - base;
        if (!m->chunk[k])
            continue;
        if (a == 0 && b == m->lane)
            memset(m->chunk[k], 0, (size_t)W * m->lane);
        else
            for (uint32_t l = 0; l < W; l++)
                memset(m->chunk[k] + (size_t)l * m->lane + a, 0, b - a);
    }
    m->lo = m->hi = 0;
}

/* Lane 0's copy of local byte a (its lanes m->lane bytes apart) in its chunk, reserved at
   the first store; a load from a chunk never stored to reads zeros. NULL when the chunk
   cannot be reserved. */
static uint8_t *lmem_at(struct ex_lmem *m, uint64_t a, int acc)
{
    uint32_t k = (uint32_t)(a / EX_LCHUNK);
    if (!m->chunk[k] && acc == ACC_LOAD)
        return lmem_zeros + a % EX_LCHUNK;
    if (!m->chunk[k]) {
        if (!(m->chunk[k] = calloc(W, m->lane)))
            return NULL;
        if (m->held)
            *m->held += (uint64_t)W * m->lane;
    }
    return m->chunk[k] + a % EX_LCHUNK;
}

/* The report when a chunk of local memory cannot be reserved: what the launch holds and
   what bounds it. */
__attribute__((cold, noinline))
static void lmem_fail(const struct xs *x, uint32_t lane)
{
    const struct ex_ctx *c = x->c;
    uint64_t threads = (uint64_t)c->nwarpid * 32u * c->nsmid;
    ex_fail(x, lane, "local memory: out of host memory reserving %u KB more for this warp (the "
            "launch holds %llu MB of local memory: the kernel's %u bytes per thread, reserved "
            "as threads store to it, for up to %llu resident threads, %.1f GB if every byte is "
            "stored to; local_bytes_per_thread bounds the first, max_warps_per_sm x num_sms the "
            "second)", W * c->lmem->lane / 1024u,
            (unsigned long long)(c->lmem->held ? *c->lmem->held >> 20 : 0), c->lmem_size,
            (unsigned long long)threads, (double)threads * c->lmem_size / (1u << 30));
}

/* A store to local bytes [lo, hi) widens the warp's span (exec.h). */
static void lmem_mark(const struct ex_ctx *c, int acc, uint64_t lo, uint64_t hi)
{
    struct ex_lmem *m = c->lmem;
    if (acc == ACC_LOAD)
        return;
    if (!m->hi || lo < m->lo)
        m->lo = (uint32_t)lo;
    if (hi > m->hi)
        m->hi = (uint32_t)hi;
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
        if (c->lmem && in_range(addr, n, c->lmem_size)) {
            if (!(p = lmem_at(c->lmem, addr, acc))) {
                lmem_fail(x, lane);
                return NULL;
            }
            p += (size_t)lane * c->lmem->lane;
            lmem_mark(c, acc, addr, addr + n);
        }
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
        ex_fail(x, lane, "out-of-bounds %s %s of %u bytes at 0x%016" PRIx64, sn, k_acc_name[acc], n, addr);
        return NULL;
    }
    if (addr & ((n & -n) - 1)) {
        ex_fail(x, lane, "misaligned %s %s of %u bytes at 0x%016" PRIx64, sn, k_acc_name[acc], n, addr);
        return NULL;
    }
    return p;
}

/* Quietly (no message): host pointer for lane's n bytes at addr in space (generic decoded by
   window) for a load or a store, or NULL when they are outside it or misaligned. For
   instructions that report their own errors (exec_printf.c). */
uint8_t *ex_mem_ptr(const struct ex_ctx *c, uint32_t lane, uint8_t space, uint64_t addr,
                    unsigned n, int store)
{
    uint8_t *p = NULL;
    uint64_t base = 0;
    int acc = store ? ACC_STORE : ACC_LOAD;
    if (space == PS_GENERIC) {
        space = gen_decode(addr, &base);
        addr -= base;
    }
    if (!n || (addr & ((n & -n) - 1)))
        return NULL;
    switch (space) {
    case PS_SHARED:
        return c->smem && in_range(addr, n, c->smem_size) ? c->smem + addr : NULL;
    case PS_LOCAL:
        if (!c->lmem || !in_range(addr, n, c->lmem_size) ||
            addr / EX_LCHUNK != (addr + n - 1) / EX_LCHUNK || !(p = lmem_at(c->lmem, addr, acc)))
            return NULL;
        lmem_mark(c, acc, addr, addr + n);
        return p + (size_t)lane * c->lmem->lane;
    case PS_PARAM:
        return param_at(c, lane, addr, n, acc);
    case PS_GLOBAL: case PS_CONST:
        return c->gmem ? gm_ptr(c->gmem, addr, n) : NULL;
    default:
        return NULL;
    }
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
    case PS_LOCAL: {                  /* within one chunk (exec.h), else lane by lane */
        uint8_t *p;
        if (!c->lmem || !in_range(lo, len, c->lmem_size) || !len
            || lo / EX_LCHUNK != (lo + len - 1) / EX_LCHUNK || !(p = lmem_at(c->lmem, lo, acc)))
            return NULL;
        *stride = c->lmem->lane;
        lmem_mark(c, acc, lo, lo + len);
        return p;
    }
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

void ex_op_ld(const struct xs *x)
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
    ex_fetch_addr(x, &in->opd[1], A);
    if (mem_warp(x, in->space, A, n, ACC_LOAD, P))
        return;
    for (unsigned e = 0; e < nv; e++)
        if (dr[e] >= 0)
            ld_elem(x, x->c->regs + (size_t)dr[e] * W, P, e * sz, t, dm[e]);
}

/* st: source register, vector of registers ('_' stores zero) or immediate */
void ex_op_st(const struct xs *x)
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
    ex_fetch_addr(x, &in->opd[0], A);
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
void ex_op_atom(const struct xs *x, int red)
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
        ex_fail(x, first_lane(x->exec), "unsupported atomic operation (op %u on a %u-byte type)", in->sub, sz);
        return;
    }
    ex_fetch_addr(x, oa, A);
    ex_fetch(x, ob, t, B);
    if (in->sub == AOP_CAS)
        ex_fetch(x, &in->opd[3], t, C);
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

