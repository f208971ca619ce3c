/*
 * ptx_insn.c -- the PTX parser's per-opcode operand checks: raw operands -> struct ptx_insn.
 *
 * Not a hardware block.  For each opcode family: the types it accepts, the number and kind of
 * its operands, register sizes against the instruction type (PTX lets a .b32 register hold
 * .f32 etc.), immediates converted to the operand type (floats as bits, integers sign-extended
 * from the type's width).  The operand layout per opcode is what the executor reads (ptx.h,
 * docs/exec.md).
 */
#include "ptx_parse_priv.h"
#include <stdio.h>

/* ------------------------------------------------------------------ operand checks */

enum { F_IMM = 1, F_SREG = 2, F_WIDE = 4, F_SYM = 8, F_NEG = 16 };

static void bad_opd(struct pctx *c, const struct raw *r, int i) __attribute__((noreturn));
static void bad_opd(struct pctx *c, const struct raw *r, int i)
{
    px_fail(c, r->line, "bad operand %d of '%s'", i + 1, c->opname);
}

/* Register of declared type `rtype` used where the instruction wants `want`: sizes must match
   (PTX lets .b32 registers hold .f32 etc.); `wide` allows a wider register for non-float
   types (ld/st/cvt). Predicates must be .pred on both sides. */
static void check_reg(struct pctx *c, uint32_t line, const char *name, uint8_t rtype, uint8_t want,
                      int wide)
{
    if (want == PT_PRED || rtype == PT_PRED) {
        if (want == rtype)
            return;
    } else {
        unsigned rs = tsize(rtype), ws = tsize(want);
        if (rs == ws || (wide && rs > ws && !ptx_type_is_float((enum ptx_type)want)))
            return;
    }
    px_fail(c, line, "type mismatch: '%s' is .%s, '%s' needs .%s", name,
         ptx_type_name((enum ptx_type)rtype), c->opname, ptx_type_name((enum ptx_type)want));
}

static uint32_t f32_bits(double v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* An immediate converted to the operand type (floats as bits, ints sign-extended from the
   type's width to 64 bits). */
static int64_t imm_conv(struct pctx *c, const struct raw *r, uint8_t type)
{
    uint64_t u = (uint64_t)r->o.imm;
    double d;
    float f;
    switch (r->lit) {
    case LIT_INT:
        if (type == PT_F32)
            return f32_bits((double)(int64_t)u);
        if (type == PT_F64) {
            d = (double)(int64_t)u;
            memcpy(&u, &d, 8);
            return (int64_t)u;
        }
        break;
    case LIT_F32:
        if (type == PT_F64) {
            uint32_t b = (uint32_t)u;
            memcpy(&f, &b, 4);
            d = f;
            memcpy(&u, &d, 8);
            return (int64_t)u;
        }
        return (int64_t)u;
    case LIT_F64:
        if (type == PT_F32) {
            memcpy(&d, &u, 8);
            return f32_bits(d);
        }
        return (int64_t)u;
    case LIT_FLT:
        if (type == PT_F32)
            return f32_bits(r->d);
        if (type == PT_F64) {
            memcpy(&u, &r->d, 8);
            return (int64_t)u;
        }
        px_fail(c, r->line, "bad operand: floating-point literal for a .%s operand of '%s'",
             ptx_type_name((enum ptx_type)type), c->opname);
    default:
        break;
    }
    unsigned sz = tsize(type);
    if (sz && sz < 8) {
        unsigned sh = 64 - 8 * sz;
        u = (uint64_t)((int64_t)(u << sh) >> sh);
    }
    return (int64_t)u;
}

static struct ptx_operand dst(struct pctx *c, const struct raw *r, int i, uint8_t type, int wide)
{
    if (r->o.kind != OPD_REG || r->o.neg || r->has_pair)
        bad_opd(c, r, i);
    check_reg(c, r->line, r->name, r->rtype, type, wide);
    return r->o;
}

static struct ptx_operand src(struct pctx *c, const struct raw *r, int i, uint8_t type, unsigned fl)
{
    struct ptx_operand o = r->o;
    if (r->has_pair)
        bad_opd(c, r, i);
    switch (o.kind) {
    case OPD_REG:
        if (o.neg && !(fl & F_NEG))
            bad_opd(c, r, i);
        check_reg(c, r->line, r->name, r->rtype, type, (fl & F_WIDE) != 0);
        break;
    case OPD_IMM:
        if (!(fl & F_IMM))
            bad_opd(c, r, i);
        o.imm = imm_conv(c, r, type);
        break;
    case OPD_SREG:
        if (!(fl & F_SREG))
            bad_opd(c, r, i);
        if (tsize(r->rtype) != tsize(type) && !((fl & F_WIDE) && tsize(r->rtype) > tsize(type)))
            px_fail(c, r->line, "type mismatch: '%s' is .%s, '%s' needs .%s", r->name,
                 ptx_type_name((enum ptx_type)r->rtype), c->opname, ptx_type_name((enum ptx_type)type));
        break;
    case OPD_SYMADDR:
        if (!(fl & F_SYM))
            bad_opd(c, r, i);
        break;
    default:
        bad_opd(c, r, i);
    }
    return o;
}

static struct ptx_operand pred_src(struct pctx *c, const struct raw *r, int i, int allow_neg)
{
    return src(c, r, i, PT_PRED, allow_neg ? F_NEG : 0);
}

static struct ptx_operand addr(struct pctx *c, const struct raw *r, int i)
{
    if (r->o.kind != OPD_ADDR || r->has_pair)
        bad_opd(c, r, i);
    return r->o;
}

/* {a, b, ...} with `n` elements of type `et`; sinks '_' only in destinations. */
static struct ptx_operand vec(struct pctx *c, const struct raw *r, int i, unsigned n, uint8_t et,
                              int is_dst, int wide)
{
    if (r->o.kind != OPD_VEC || r->has_pair)
        bad_opd(c, r, i);
    if (r->o.nvec != n)
        px_fail(c, r->line, "vector operand of '%s' needs %u elements", c->opname, n);
    for (unsigned k = 0; k < n; k++) {
        if (r->o.vec[k] < 0) {
            if (!is_dst)
                bad_opd(c, r, i);
            continue;
        }
        char nm[40];
        snprintf(nm, sizeof nm, "%s", curf(c)->regs[r->o.vec[k]].name);
        check_reg(c, r->line, nm, r->vtype[k], et, wide);
    }
    return r->o;
}

/* ------------------------------------------------------------------ instructions */

#define TB(x) (1u << (x))
#define TC_BIT  (TB(PT_B16) | TB(PT_B32) | TB(PT_B64))
#define TC_UINT (TB(PT_U16) | TB(PT_U32) | TB(PT_U64))
#define TC_SINT (TB(PT_S16) | TB(PT_S32) | TB(PT_S64))
#define TC_INT  (TC_UINT | TC_SINT)
#define TC_FLT  (TB(PT_F32) | TB(PT_F64))
#define TC_VAL  (TC_BIT | TC_INT | TC_FLT)
#define TC_W32  (TB(PT_B32) | TB(PT_U32) | TB(PT_S32) | TB(PT_F32))
#define TC_W64  (TB(PT_B64) | TB(PT_U64) | TB(PT_S64) | TB(PT_F64))
#define TC_MEM  (TC_VAL | TB(PT_B8) | TB(PT_U8) | TB(PT_S8) | TB(PT_F16))
#define TC_CVT  (TC_INT | TC_FLT | TB(PT_U8) | TB(PT_S8) | TB(PT_F16))

static uint8_t need_type(struct pctx *c, const struct ptx_insn *in, const struct opinfo *oi,
                         int idx, uint32_t mask)
{
    if (oi->ntypes <= idx)
        px_fail(c, in->line, "missing type in '%s'", c->opname);
    uint8_t t = oi->types[idx];
    if (!(mask & TB(t)))
        px_unsupported(c, in->line);
    return t;
}

static void need_n(struct pctx *c, const struct ptx_insn *in, int n, int want)
{
    if (n != want)
        px_fail(c, in->line, "wrong number of operands for '%s' (expected %d, found %d)", c->opname,
             want, n);
}

static uint8_t wide_type(uint8_t t)
{
    switch (t) {
    case PT_U16: return PT_U32;
    case PT_S16: return PT_S32;
    case PT_U32: return PT_U64;
    case PT_S32: return PT_S64;
    default: return PT_NONE;
    }
}

/* d, a, b, ... all of the instruction type (immediates allowed for sources) */
static void same_type_ops(struct pctx *c, struct ptx_insn *in, const struct raw *r, int n, int want)
{
    need_n(c, in, n, want);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    for (int i = 1; i < n; i++)
        in->opd[i] = src(c, &r[i], i, in->type, F_IMM);
    in->nopd = (uint8_t)n;
}

static void build_ld_st(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                        const struct raw *r, int n)
{
    in->type = need_type(c, in, oi, 0, TC_MEM);
    if (!in->vec)
        in->vec = 1;
    if (in->vec * tsize(in->type) > 16 || ((in->mod & MOD_NC) && in->space != PS_GLOBAL))
        px_unsupported(c, in->line);
    need_n(c, in, n, 2);
    int wide = !ptx_type_is_float((enum ptx_type)in->type);
    int vi = in->op == OP_LD ? 0 : 1;
    if (in->vec > 1)
        in->opd[vi] = vec(c, &r[vi], vi, in->vec, in->type, in->op == OP_LD, wide);
    else if (in->op == OP_LD)
        in->opd[vi] = dst(c, &r[vi], vi, in->type, wide);
    else
        in->opd[vi] = src(c, &r[vi], vi, in->type, F_IMM | (wide ? F_WIDE : 0));
    in->opd[1 - vi] = addr(c, &r[1 - vi], 1 - vi);
    in->nopd = 2;
    /* ld.local/st.local of param scratch (.pragma "gpusim param_scratch") is ld/st.param */
    if (in->space == PS_LOCAL && r[1 - vi].var >= 0 && c->m->vars[r[1 - vi].var].scratch)
        in->space = PS_PARAM;
}

/* mov d, a | mov d, {a, b} (pack) | mov {a, b}, s (unpack) */
static void build_mov(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    in->type = need_type(c, in, oi, 0, TC_VAL | TB(PT_PRED));
    need_n(c, in, n, 2);
    in->nopd = 2;
    unsigned sz = tsize(in->type);
    if (r[0].o.kind == OPD_VEC || r[1].o.kind == OPD_VEC) {
        int vi = r[0].o.kind == OPD_VEC ? 0 : 1;
        unsigned nv = r[vi].o.nvec;
        uint8_t et = PT_NONE;
        if (in->type != PT_PRED && (nv == 2 || nv == 4) && sz / nv >= 1) {
            unsigned es = sz / nv;
            et = es == 1 ? PT_B8 : es == 2 ? PT_B16 : es == 4 ? PT_B32 : PT_NONE;
        }
        if (!et || (in->type != PT_B32 && in->type != PT_B64))
            px_fail(c, in->line, "bad vector operand of '%s'", c->opname);
        in->opd[vi] = vec(c, &r[vi], vi, nv, et, vi == 0, 0);
        if (vi == 0)
            in->opd[1] = src(c, &r[1], 1, in->type, 0);
        else
            in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        return;
    }
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    unsigned fl = F_IMM | F_SREG;
    if (in->type == PT_U32 || in->type == PT_U64 || in->type == PT_B32 || in->type == PT_B64
        || in->type == PT_S32 || in->type == PT_S64)
        fl |= F_SYM;
    in->opd[1] = src(c, &r[1], 1, in->type, fl);
}

/* add/sub/mad with .cc or carry in: 32- or 64-bit integers, no .sat or .wide; the carry
   flag as the operand after the sources (ptx.h, ptx_insn_carry) */
static void add_carry(struct pctx *c, struct ptx_insn *in)
{
    int k = ptx_insn_carry(in);
    if (k < 0)
        return;
    if (!(TB(in->type) & (TC_W32 | TC_W64) & TC_INT) || (in->mod & (MOD_SAT | MOD_WIDE)))
        px_unsupported(c, in->line);
    in->opd[k] = (struct ptx_operand){ .kind = OPD_REG, .reg = px_carry_reg(c, in->line),
                                       .sym = -1 };
    in->nopd = (uint8_t)(k + 1);
}

static void build_arith(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                        const struct raw *r, int n)
{
    int isf;
    switch (in->op) {
    case OP_ADD: case OP_SUB:
        in->type = need_type(c, in, oi, 0, TC_INT | TC_FLT);
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_MUL: case OP_MAD:
        in->type = need_type(c, in, oi, 0, TC_INT | TC_FLT);
        isf = ptx_type_is_float((enum ptx_type)in->type);
        if (isf && (in->mod & (MOD_LO | MOD_HI | MOD_WIDE)))
            px_unsupported(c, in->line);
        if (!isf && !(in->mod & (MOD_LO | MOD_HI | MOD_WIDE)))
            in->mod |= MOD_LO;
        if (in->mod & MOD_WIDE) {
            uint8_t wt = wide_type(in->type);
            if (!wt)
                px_unsupported(c, in->line);
            need_n(c, in, n, in->op == OP_MUL ? 3 : 4);
            in->opd[0] = dst(c, &r[0], 0, wt, 0);
            in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
            in->opd[2] = src(c, &r[2], 2, in->type, F_IMM);
            if (in->op == OP_MAD)
                in->opd[3] = src(c, &r[3], 3, wt, F_IMM);
            in->nopd = (uint8_t)n;
        } else {
            same_type_ops(c, in, r, n, in->op == OP_MUL ? 3 : 4);
        }
        break;
    case OP_FMA:
        in->type = need_type(c, in, oi, 0, TC_FLT);
        same_type_ops(c, in, r, n, 4);
        break;
    case OP_DIV: case OP_MIN: case OP_MAX:
        in->type = need_type(c, in, oi, 0, TC_INT | TC_FLT);
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_REM:
        in->type = need_type(c, in, oi, 0, TC_INT);
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_ABS: case OP_NEG:
        in->type = need_type(c, in, oi, 0, TC_SINT | TC_FLT);
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_MUL24: case OP_MAD24:
        in->type = need_type(c, in, oi, 0, TB(PT_U32) | TB(PT_S32));
        if (!(in->mod & (MOD_LO | MOD_HI)))
            in->mod |= MOD_LO;
        same_type_ops(c, in, r, n, in->op == OP_MUL24 ? 3 : 4);
        break;
    case OP_SAD:
        in->type = need_type(c, in, oi, 0, TC_INT);
        same_type_ops(c, in, r, n, 4);
        break;
    case OP_COPYSIGN:
        in->type = need_type(c, in, oi, 0, TC_FLT);
        same_type_ops(c, in, r, n, 3);
        break;
    default:   /* transcendental / sqrt family */
        in->type = need_type(c, in, oi, 0,
                             (in->op == OP_SQRT || in->op == OP_RCP || in->op == OP_RSQRT)
                                 ? TC_FLT : TB(PT_F32));
        same_type_ops(c, in, r, n, 2);
        break;
    }
}

static void build_logic(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                        const struct raw *r, int n)
{
    switch (in->op) {
    case OP_AND: case OP_OR: case OP_XOR:
        in->type = need_type(c, in, oi, 0, TC_BIT | TB(PT_PRED));
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_NOT:
        in->type = need_type(c, in, oi, 0, TC_BIT | TB(PT_PRED));
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_CNOT:
        in->type = need_type(c, in, oi, 0, TC_BIT);
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_SHL: case OP_SHR:
        in->type = need_type(c, in, oi, 0, in->op == OP_SHL ? TC_BIT : (TC_BIT | TC_INT));
        need_n(c, in, n, 3);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
        in->opd[2] = src(c, &r[2], 2, PT_U32, F_IMM);
        in->nopd = 3;
        break;
    case OP_POPC: case OP_CLZ: case OP_BFIND:
        in->type = need_type(c, in, oi, 0, in->op == OP_BFIND
                             ? (TB(PT_U32) | TB(PT_U64) | TB(PT_S32) | TB(PT_S64))
                             : (TB(PT_B32) | TB(PT_B64)));
        need_n(c, in, n, 2);
        in->opd[0] = dst(c, &r[0], 0, PT_U32, 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
        in->nopd = 2;
        break;
    case OP_BREV:
        in->type = need_type(c, in, oi, 0, TB(PT_B32) | TB(PT_B64));
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_BFE: case OP_BFI: {
        int nt = in->op == OP_BFE ? 2 : 3;   /* operands of the instruction type */
        in->type = need_type(c, in, oi, 0, in->op == OP_BFE
                             ? (TB(PT_U32) | TB(PT_U64) | TB(PT_S32) | TB(PT_S64))
                             : (TB(PT_B32) | TB(PT_B64)));
        need_n(c, in, n, nt + 2);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        for (int i = 1; i < n; i++)
            in->opd[i] = src(c, &r[i], i, i < nt ? in->type : PT_U32, F_IMM);
        in->nopd = (uint8_t)n;
        break;
    }
    case OP_PRMT:
        in->type = need_type(c, in, oi, 0, TB(PT_B32));
        same_type_ops(c, in, r, n, 4);
        break;
    default:
        px_unsupported(c, in->line);
    }
}

/* d|p destination of setp and shfl: opd[0] = d (type `type`), opd[1] = the .pred p or none */
static void pair_dst(struct pctx *c, struct ptx_insn *in, const struct raw *r, uint8_t type)
{
    if (r->o.kind != OPD_REG || r->o.neg)
        bad_opd(c, r, 0);
    check_reg(c, r->line, r->name, r->rtype, type, 0);
    in->opd[0] = r->o;
    in->opd[1].kind = OPD_NONE;
    in->opd[1].reg = -1;
    in->opd[1].sym = -1;
    if (r->has_pair) {
        check_reg(c, r->line, "second destination", r->pair_rtype, PT_PRED, 0);
        in->opd[1] = r->pair;
    }
}

/* setp: p[|q], a, b[, {!}c] -> p, q|NONE, a, b, c;  set: d, a, b[, {!}c] */
static void build_cmp(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    if (!in->cmp)
        px_fail(c, in->line, "missing comparison in '%s'", c->opname);
    int want = in->bop ? 4 : 3;
    need_n(c, in, n, want);
    int k;
    if (in->op == OP_SETP) {
        in->type2 = need_type(c, in, oi, 0, TC_VAL);
        in->type = PT_PRED;
        pair_dst(c, in, &r[0], PT_PRED);
        k = 2;
    } else {
        in->type = need_type(c, in, oi, 0, TB(PT_U32) | TB(PT_S32) | TB(PT_F32));
        in->type2 = need_type(c, in, oi, 1, TC_VAL);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        k = 1;
    }
    in->opd[k] = src(c, &r[1], 1, in->type2, F_IMM);
    in->opd[k + 1] = src(c, &r[2], 2, in->type2, F_IMM);
    if (in->bop)
        in->opd[k + 2] = pred_src(c, &r[3], 3, 1);
    in->nopd = (uint8_t)(k + 2 + (in->bop ? 1 : 0));
}

static void build_select(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                         const struct raw *r, int n)
{
    in->type = need_type(c, in, oi, 0, TC_VAL);
    need_n(c, in, n, 4);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
    in->opd[2] = src(c, &r[2], 2, in->type, F_IMM);
    if (in->op == OP_SELP) {
        in->opd[3] = pred_src(c, &r[3], 3, 0);
    } else {
        in->type2 = need_type(c, in, oi, 1, TB(PT_S32) | TB(PT_F32));
        in->opd[3] = src(c, &r[3], 3, in->type2, F_IMM);
    }
    in->nopd = 4;
}

static void build_atom(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                       const struct raw *r, int n)
{
    if (in->space != PS_GENERIC && in->space != PS_GLOBAL && in->space != PS_SHARED)
        px_unsupported(c, in->line);
    if (!in->sub)
        px_fail(c, in->line, "missing operation in '%s'", c->opname);
    in->type = need_type(c, in, oi, 0, TC_W32 | TC_W64);
    int isf = ptx_type_is_float((enum ptx_type)in->type);
    if ((isf && in->sub != AOP_ADD && in->sub != AOP_EXCH)
        || ((in->sub == AOP_INC || in->sub == AOP_DEC) && in->type != PT_U32)
        || (in->op == OP_RED && (in->sub == AOP_EXCH || in->sub == AOP_CAS)))
        px_unsupported(c, in->line);
    if (in->op == OP_RED) {
        need_n(c, in, n, 2);
        in->opd[0] = addr(c, &r[0], 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
        in->nopd = 2;
        return;
    }
    need_n(c, in, n, in->sub == AOP_CAS ? 4 : 3);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    in->opd[1] = addr(c, &r[1], 1);
    for (int i = 2; i < n; i++)
        in->opd[i] = src(c, &r[i], i, in->type, F_IMM);
    in->nopd = (uint8_t)n;
}

static void build_bar(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    if (oi->bar_kind == BK_WARP) {        /* bar.warp.sync mask: a no-op in lockstep SIMT */
        if (!oi->sync)
            px_unsupported(c, in->line);
        need_n(c, in, n, 1);
        in->op = OP_NOP;
        in->sub = 1;
        in->opd[0] = src(c, &r[0], 0, PT_U32, F_IMM);
        in->nopd = 1;
        return;
    }
    if (oi->bar_kind == BK_ARRIVE ? oi->sync : !oi->sync)
        px_unsupported(c, in->line);
    in->sub = oi->bar_kind == BK_ARRIVE ? 1 : 0;
    if (n < 1 || n > 2 || (oi->bar_kind == BK_ARRIVE && n != 2))
        px_fail(c, in->line, "wrong number of operands for '%s'", c->opname);
    in->opd[0] = src(c, &r[0], 0, PT_U32, F_IMM);
    if (n == 2)
        in->opd[1] = src(c, &r[1], 1, PT_U32, F_IMM);
    else
        in->opd[1].kind = OPD_NONE, in->opd[1].reg = -1, in->opd[1].sym = -1;
    in->nopd = 2;
}

static void build_warp(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                       const struct raw *r, int n)
{
    if (in->op == OP_ACTIVEMASK) {
        in->type = need_type(c, in, oi, 0, TB(PT_B32));
        need_n(c, in, n, 1);
        in->opd[0] = dst(c, &r[0], 0, PT_B32, 0);
        in->nopd = 1;
        return;
    }
    if (!oi->sync || !in->sub)
        px_unsupported(c, in->line);
    if (in->op == OP_SHFL) {
        in->type = need_type(c, in, oi, 0, TB(PT_B32));
        need_n(c, in, n, 5);
        pair_dst(c, in, &r[0], PT_B32);
        in->opd[2] = src(c, &r[1], 1, PT_B32, F_IMM);
        in->opd[3] = src(c, &r[2], 2, PT_U32, F_IMM);
        in->opd[4] = src(c, &r[3], 3, PT_U32, F_IMM);
        in->opd[5] = src(c, &r[4], 4, PT_U32, F_IMM);
        in->nopd = 6;
        return;
    }
    /* vote */
    in->type = need_type(c, in, oi, 0, in->sub == VOTE_BALLOT ? TB(PT_B32) : TB(PT_PRED));
    need_n(c, in, n, 3);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    in->opd[1] = pred_src(c, &r[1], 1, 1);
    in->opd[2] = src(c, &r[2], 2, PT_U32, F_IMM);
    in->nopd = 3;
}

/* VTW's two instructions (000_0da6b8b480bd0740.txt Sec. 4.2), written by the transform's hw
   form (model/ptx/vtwx.c): nexttbid.u32 d (the warp's next logical TB index);
   nextidxinblk.u32 d, a (the thread's next linear index in the block; a: its current one). */
static void build_vtw(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    in->type = need_type(c, in, oi, 0, TB(PT_U32));
    need_n(c, in, n, in->op == OP_NEXTTB ? 1 : 2);
    in->opd[0] = dst(c, &r[0], 0, PT_U32, 0);
    if (in->op == OP_NEXTIDX)
        in->opd[1] = src(c, &r[1], 1, PT_U32, F_IMM);
    in->nopd = (uint8_t)n;
}

static void build_cvt(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    if (in->op == OP_CVTA) {
        in->type = need_type(c, in, oi, 0, TB(PT_U32) | TB(PT_U64));
        if (in->space == PS_GENERIC)
            px_fail(c, in->line, "missing state space in '%s'", c->opname);
        need_n(c, in, n, 2);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_SYM);
        in->nopd = 2;
        return;
    }
    in->type = need_type(c, in, oi, 0, TC_CVT);
    in->type2 = need_type(c, in, oi, 1, TC_CVT);
    need_n(c, in, n, 2);
    in->opd[0] = dst(c, &r[0], 0, in->type, 1);
    in->opd[1] = src(c, &r[1], 1, in->type2, F_IMM | F_SREG | F_WIDE);
    in->nopd = 2;
}

void px_build_insn(struct pctx *c, const struct opspec *spec, struct ptx_insn *in,
                       const struct opinfo *oi, const struct raw *r, int n)
{
    switch (in->op) {
    case OP_LD: case OP_ST: build_ld_st(c, in, oi, r, n); break;
    case OP_MOV: build_mov(c, in, oi, r, n); break;
    case OP_CVTA: case OP_CVT: build_cvt(c, in, oi, r, n); break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV: case OP_REM:
    case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG: case OP_MUL24: case OP_MAD24:
    case OP_SAD: case OP_COPYSIGN: case OP_SQRT: case OP_RSQRT: case OP_RCP: case OP_EX2:
    case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
        build_arith(c, in, oi, r, n);
        add_carry(c, in);
        break;
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR:
    case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFE: case OP_BFI: case OP_PRMT:
    case OP_BFIND:
        build_logic(c, in, oi, r, n);
        break;
    case OP_SETP: case OP_SET: build_cmp(c, in, oi, r, n); break;
    case OP_SELP: case OP_SLCT: build_select(c, in, oi, r, n); break;
    case OP_EXIT: case OP_RET: case OP_NOP: need_n(c, in, n, 0); break;
    case OP_BAR: build_bar(c, in, oi, r, n); break;
    case OP_MEMBAR:
        if (spec->name[0] == 'm' ? !oi->level : !oi->has_order)
            px_unsupported(c, in->line);
        need_n(c, in, n, 0);
        break;
    case OP_ATOM: case OP_RED: build_atom(c, in, oi, r, n); break;
    case OP_SHFL: case OP_VOTE: case OP_ACTIVEMASK: build_warp(c, in, oi, r, n); break;
    case OP_NEXTTB: case OP_NEXTIDX: build_vtw(c, in, oi, r, n); break;
    default: px_unsupported(c, in->line);
    }
}
