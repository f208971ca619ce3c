/*
 * ptx_rewrite.c -- edits of a linked kernel for program transforms (interface and rules:
 * ptx_rewrite.h; an example: docs/ptx.md).
 *
 * Not a hardware block: load-time program surgery.  An insert or replace builds the new
 * instruction array aside, relabels every branch (old targets move with their instructions,
 * the new code's targets are old pcs or PTX_RW_LOCAL(k)), checks the result (structure, the
 * linker's invariants, flow_build) and only then swaps it in and recomputes regs_per_thread.
 * Rejections are sticky (struct ptx_rw): nothing changes and later edits are refused.
 */
#include "ptx_rewrite.h"
#include "flow.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RW_MAX_INSNS   (1u << 19)     /* as the linker's limits */
#define RW_MAX_REGS    (1u << 20)
#define RW_MAX_PARAMS  (1u << 16)     /* bytes of parameters, as the parser's limit */
#define RW_CARRY_PRAGMA 0x8000u       /* splice: the replaced instruction's .pragma stays at pc */

static int rw_fail(struct ptx_rw *rw, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rw_fail(struct ptx_rw *rw, const char *fmt, ...)
{
    char msg[PTX_ERR_LEN - 160];    /* room for the prefix and the kernel name */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!rw->failed)
        snprintf(rw->err, sizeof rw->err, "rewrite %s: %s", rw->p ? rw->p->name : "?", msg);
    rw->failed = 1;
    return -1;
}

void ptx_rw_begin(struct ptx_rw *rw, struct ptx_prog *p)
{
    memset(rw, 0, sizeof *rw);
    rw->p = p;
    if (!p)
        rw_fail(rw, "no program");
}

int ptx_rw_end(const struct ptx_rw *rw, char *err, size_t errlen)
{
    if (rw->failed && err && errlen)
        snprintf(err, errlen, "%s", rw->err);
    return rw->failed ? -1 : 0;
}

/* ------------------------------------------------------------------ building instructions */

struct ptx_operand ptx_opd_reg(int32_t r)
{
    struct ptx_operand o = {.kind = OPD_REG, .reg = r, .sym = -1};
    return o;
}

struct ptx_operand ptx_opd_imm(int64_t v)
{
    struct ptx_operand o = {.kind = OPD_IMM, .reg = -1, .sym = -1, .imm = v};
    return o;
}

struct ptx_operand ptx_opd_sreg(enum ptx_sreg s, unsigned comp)
{
    struct ptx_operand o = {.kind = OPD_SREG, .sreg = (uint8_t)s, .comp = (uint8_t)comp, .reg = -1,
                            .sym = -1};
    return o;
}

struct ptx_operand ptx_opd_addr(int32_t base, int64_t off, enum ptx_space space)
{
    struct ptx_operand o = {.kind = OPD_ADDR, .reg = base, .sym = -1, .imm = off,
                            .space = (uint8_t)(base >= 0 ? PS_GENERIC : space)};
    return o;
}

struct ptx_operand ptx_opd_label(int64_t target)
{
    struct ptx_operand o = {.kind = OPD_LABEL, .reg = -1, .sym = -1, .imm = target};
    return o;
}

static struct ptx_insn blank_insn(enum ptx_op op, enum ptx_type t)
{
    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.type = (uint8_t)t;
    in.guard = -1;
    for (int i = 0; i < PTX_MAX_OPERANDS; i++)
        in.opd[i].reg = -1, in.opd[i].sym = -1;
    if (op == OP_LD || op == OP_ST)
        in.vec = 1;
    if ((op == OP_MUL || op == OP_MAD || op == OP_MUL24 || op == OP_MAD24)
        && !ptx_type_is_float(t))
        in.mod = MOD_LO;
    return in;
}

struct ptx_insn ptx_insn_new(enum ptx_op op, enum ptx_type t, unsigned nopd, ...)
{
    struct ptx_insn in = blank_insn(op, t);
    va_list ap;
    va_start(ap, nopd);
    for (unsigned k = 0; k < nopd && k < PTX_MAX_OPERANDS; k++)
        in.opd[k] = va_arg(ap, struct ptx_operand);
    va_end(ap);
    in.nopd = (uint8_t)(nopd < PTX_MAX_OPERANDS ? nopd : PTX_MAX_OPERANDS);
    return in;
}

struct ptx_insn ptx_insn_setp(enum ptx_cmp cmp, enum ptx_type t, int32_t p, struct ptx_operand a,
                              struct ptx_operand b)
{
    struct ptx_insn in = blank_insn(OP_SETP, PT_PRED);
    in.type2 = (uint8_t)t;
    in.cmp = (uint8_t)cmp;
    in.opd[0] = ptx_opd_reg(p);
    in.opd[1].kind = OPD_NONE;
    in.opd[2] = a;
    in.opd[3] = b;
    in.nopd = 4;
    return in;
}

struct ptx_insn ptx_insn_bra(int32_t guard, int neg, int64_t target)
{
    struct ptx_insn in = blank_insn(OP_BRA, PT_NONE);
    in.guard = guard;
    in.guard_neg = (uint8_t)(neg != 0);
    in.opd[0] = ptx_opd_label(target);
    in.nopd = 1;
    return in;
}

struct ptx_insn ptx_insn_ld(enum ptx_space space, enum ptx_type t, int32_t dst, struct ptx_operand addr)
{
    struct ptx_insn in = ptx_insn_new(OP_LD, t, 2, ptx_opd_reg(dst), addr);
    in.space = (uint8_t)space;
    return in;
}

/* ------------------------------------------------------------------ checks */

static int reg_ok(const struct ptx_prog *p, int32_t r, int allow_none)
{
    return (allow_none && r == -1) || (r >= 0 && (uint32_t)r < p->nregs);
}

/* One instruction of the new program (targets already final). */
static int check_insn(struct ptx_rw *rw, const struct ptx_insn *in, uint32_t pc, uint32_t n)
{
    const struct ptx_prog *p = rw->p;
    if (in->op == OP_INVALID || in->op >= OP_COUNT || in->op == OP_CALL || in->op == OP_RET)
        return rw_fail(rw, "pc %u: %s cannot be in a linked program", (unsigned)pc,
                       ptx_op_name((enum ptx_op)in->op));
    if (in->nopd > PTX_MAX_OPERANDS || in->type >= PT_COUNT || in->type2 >= PT_COUNT
        || in->space >= PS_COUNT)
        return rw_fail(rw, "pc %u: malformed instruction", (unsigned)pc);
    if (!reg_ok(p, in->guard, 1) || (in->guard >= 0 && p->reg_type[in->guard] != PT_PRED))
        return rw_fail(rw, "pc %u: guard is not a .pred register", (unsigned)pc);
    if (in->op == OP_BRA && (in->nopd != 1 || in->opd[0].kind != OPD_LABEL))
        return rw_fail(rw, "pc %u: bra without a label", (unsigned)pc);
    for (unsigned k = 0; k < in->nopd; k++) {
        const struct ptx_operand *o = &in->opd[k];
        int ok = o->kind < OPD_SYM;
        if (o->kind == OPD_REG)
            ok = reg_ok(p, o->reg, 0);
        else if (o->kind == OPD_ADDR)
            ok = reg_ok(p, o->reg, 1);
        else if (o->kind == OPD_LABEL)
            ok = o->imm >= 0 && (uint64_t)o->imm < n;
        else if (o->kind == OPD_VEC)
            ok = o->nvec >= 1 && o->nvec <= 4;
        for (unsigned e = 0; o->kind == OPD_VEC && ok && e < o->nvec; e++)
            ok = reg_ok(p, o->vec[e], 1);
        if (!ok)
            return rw_fail(rw, "pc %u: operand %u out of range", (unsigned)pc, k + 1);
    }
    return 0;
}

/* The whole new program: every instruction, the linker's invariants, the control flow. */
static int check_prog(struct ptx_rw *rw, const struct ptx_insn *ins, uint32_t n)
{
    if (n == 0 || n > RW_MAX_INSNS)
        return rw_fail(rw, "%u instructions", (unsigned)n);
    for (uint32_t pc = 0; pc < n; pc++)
        if (check_insn(rw, &ins[pc], pc, n))
            return -1;
    const struct ptx_insn *last = &ins[n - 1];
    if (!((last->op == OP_EXIT || last->op == OP_BRA) && last->guard < 0))
        return rw_fail(rw, "the program must end with an unguarded exit or bra");
    struct ptx_prog tmp = *rw->p;
    struct flow fl;
    char err[PTX_ERR_LEN];
    tmp.insns = (struct ptx_insn *)ins;
    tmp.ninsns = n;
    if (flow_build(&tmp, &fl, err, sizeof err))
        return rw_fail(rw, "%s", err);
    flow_free(&fl);
    return 0;
}

/* ------------------------------------------------------------------ instruction edits */

/* Where an old instruction goes when `del` at `at` are replaced by `add` new ones (one of the
   replaced ones: to `at`); keep: a branch to `at` itself keeps reaching the old instruction
   (insert only). */
static uint32_t moved(uint32_t pc, uint32_t at, uint32_t del, uint32_t add, int keep)
{
    if (pc < at)
        return pc;
    if ((pc == at && !keep) || pc - at < del)
        return at;
    return pc - del + add;
}

uint32_t ptx_rw_newpc(const struct ptx_rw *rw, uint32_t old_pc)
{
    if (old_pc == rw->at && rw->removed)
        return rw->at;
    return moved(old_pc, rw->at, rw->removed, rw->added, 1);
}

/* Replace `del` instructions at `at` by ins[0..n): build, relabel, check, swap. */
static int64_t splice(struct ptx_rw *rw, uint32_t at, uint32_t del, const struct ptx_insn *ins,
                      uint32_t n, unsigned flags)
{
    struct ptx_prog *p = rw->p;
    if (rw->failed)
        return -1;
    if (at + del > p->ninsns || (n && !ins) || n > RW_MAX_INSNS)
        return rw_fail(rw, "pc %u: out of range (%u instructions)", (unsigned)at, (unsigned)p->ninsns);
    uint32_t total = p->ninsns - del + n;
    int keep = !del && (flags & PTX_RW_KEEP_TARGETS);
    struct ptx_insn *ni = malloc((size_t)(total ? total : 1) * sizeof *ni);
    if (!ni)
        return rw_fail(rw, "out of memory");
    if (at)
        memcpy(ni, p->insns, at * sizeof *ni);
    if (p->ninsns - at - del)
        memcpy(ni + at + n, p->insns + at + del, (p->ninsns - at - del) * sizeof *ni);
    for (uint32_t pc = 0; pc < total; pc++) {
        struct ptx_operand *o = &ni[pc].opd[0];
        if (pc >= at && pc < at + n) {
            ni[pc] = ins[pc - at];
            if (ni[pc].op == OP_BRA && o->kind == OPD_LABEL && o->imm < 0)   /* PTX_RW_LOCAL(k) */
                o->imm = -1 - o->imm < (int64_t)n ? at + (-1 - o->imm) : -1;
            else if (ni[pc].op == OP_BRA && o->kind == OPD_LABEL && o->imm < (int64_t)p->ninsns)
                o->imm = moved((uint32_t)o->imm, at, del, n, 1);
            else if (ni[pc].op == OP_BRA)
                o->imm = -1;
        } else if (ni[pc].op == OP_BRA && o->kind == OPD_LABEL) {
            o->imm = moved((uint32_t)o->imm, at, del, n, keep);
        }
    }
    if ((flags & RW_CARRY_PRAGMA) && at < total && !ni[at].pragma)
        ni[at].pragma = p->insns[at].pragma;          /* a replaced one's: to what is there now */
    if (check_prog(rw, ni, total)) {
        free(ni);
        return -1;
    }
    free(p->insns);
    p->insns = ni;
    p->ninsns = total;
    p->regs_per_thread = ptx_estimate_regs(p);
    rw->at = at;
    rw->removed = del;
    rw->added = n;
    return at;
}

int64_t ptx_rw_insert(struct ptx_rw *rw, uint32_t pc, const struct ptx_insn *ins, uint32_t n,
                      unsigned flags)
{
    return splice(rw, pc, 0, ins, n, flags);
}

int64_t ptx_rw_replace(struct ptx_rw *rw, uint32_t pc, const struct ptx_insn *ins, uint32_t n)
{
    if (!rw->failed && pc >= rw->p->ninsns)
        return rw_fail(rw, "replace: pc %u out of range (%u instructions)", (unsigned)pc,
                       (unsigned)rw->p->ninsns);
    return splice(rw, pc, 1, ins, n, RW_CARRY_PRAGMA);
}

int64_t ptx_rw_replace_range(struct ptx_rw *rw, uint32_t pc, uint32_t count,
                             const struct ptx_insn *ins, uint32_t n)
{
    if (!rw->failed && (pc >= rw->p->ninsns || count == 0 || count > rw->p->ninsns - pc))
        return rw_fail(rw, "replace: pcs %u..+%u out of range (%u instructions)", (unsigned)pc,
                       (unsigned)count, (unsigned)rw->p->ninsns);
    return splice(rw, pc, count, ins, n, 0);
}

int64_t ptx_rw_retarget(struct ptx_rw *rw, uint32_t from, uint32_t to)
{
    struct ptx_prog *p = rw->p;
    if (rw->failed)
        return -1;
    if (from >= p->ninsns || to >= p->ninsns)
        return rw_fail(rw, "retarget %u -> %u: out of range", (unsigned)from, (unsigned)to);
    int64_t count = 0;
    for (uint32_t pc = 0; pc < p->ninsns; pc++)
        if (p->insns[pc].op == OP_BRA && p->insns[pc].opd[0].imm == (int64_t)from) {
            p->insns[pc].opd[0].imm = to;
            count++;
        }
    if (count)
        p->regs_per_thread = ptx_estimate_regs(p);
    return count;      /* the targets stay in range: flow_build still holds */
}

/* ------------------------------------------------------------------ registers, parameters, sregs */

static int ident_ok(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n == 0 || n >= max)
        return 0;
    for (size_t i = 0; i < n; i++) {
        int ch = (unsigned char)s[i];
        int al = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$';
        if (!(al || (i == 0 ? ch == '%' : (ch >= '0' && ch <= '9'))))
            return 0;
    }
    return 1;
}

int32_t ptx_rw_add_reg(struct ptx_rw *rw, enum ptx_type t, const char *name)
{
    struct ptx_prog *p = rw->p;
    char gen[32];
    if (rw->failed)
        return -1;
    if (t <= PT_NONE || t >= PT_COUNT)
        return rw_fail(rw, "add_reg: bad type %d", (int)t);
    if (p->nregs >= RW_MAX_REGS)
        return rw_fail(rw, "add_reg: too many registers");
    if (!name) {
        snprintf(gen, sizeof gen, "%%rw%u", (unsigned)p->nregs);
        name = gen;
    }
    if (!ident_ok(name, sizeof p->reg_name[0]))
        return rw_fail(rw, "add_reg: bad register name '%s'", name);
    for (int s = SR_TID; s <= SR_LANEMASK_GE; s++)
        if (!strcmp(name, ptx_sreg_name((enum ptx_sreg)s)))
            return rw_fail(rw, "add_reg: '%s' is a special register", name);
    for (uint32_t r = 0; p->reg_name && r < p->nregs; r++)
        if (!strcmp(p->reg_name[r], name))
            return rw_fail(rw, "add_reg: register '%s' exists", name);
    uint8_t *ty = realloc(p->reg_type, p->nregs + 1);
    if (ty)
        p->reg_type = ty;
    char (*nm)[32] = ty ? realloc(p->reg_name, (p->nregs + 1) * sizeof *nm) : NULL;
    if (!nm)
        return rw_fail(rw, "out of memory");
    if (!p->reg_name)
        memset(nm, 0, p->nregs * sizeof *nm);
    p->reg_name = nm;
    p->reg_type[p->nregs] = (uint8_t)t;
    snprintf(p->reg_name[p->nregs], sizeof p->reg_name[0], "%s", name);
    return (int32_t)p->nregs++;
}

int64_t ptx_rw_add_param(struct ptx_rw *rw, const char *name, enum ptx_type t, uint32_t size,
                         uint32_t align)
{
    struct ptx_prog *p = rw->p;
    unsigned ts = ptx_type_size(t);
    if (rw->failed)
        return -1;
    if (!name || !ident_ok(name, sizeof p->params[0].name))
        return rw_fail(rw, "add_param: bad name '%s'", name ? name : "(null)");
    if (t <= PT_PRED || t >= PT_COUNT)
        return rw_fail(rw, "add_param '%s': bad type %d", name, (int)t);
    size = size ? size : ts;
    align = align ? align : ts;
    if (size % ts || (align & (align - 1)))
        return rw_fail(rw, "add_param '%s': size %u or alignment %u does not fit .%s", name,
                       (unsigned)size, (unsigned)align, ptx_type_name(t));
    for (uint32_t i = 0; i < p->nparams; i++)
        if (!strcmp(p->params[i].name, name))
            return rw_fail(rw, "add_param: parameter '%s' exists", name);
    uint64_t off = ((uint64_t)p->param_size + align - 1) / align * align;
    if (off + size > RW_MAX_PARAMS)
        return rw_fail(rw, "add_param '%s': parameters too large", name);
    struct ptx_param *np = realloc(p->params, (p->nparams + 1) * sizeof *np);
    if (!np)
        return rw_fail(rw, "out of memory");
    p->params = np;
    struct ptx_param *q = &p->params[p->nparams++];
    memset(q, 0, sizeof *q);
    snprintf(q->name, sizeof q->name, "%s", name);
    q->type = (uint8_t)t;
    q->align = align;
    q->size = size;
    q->offset = (uint32_t)off;
    p->param_size = (uint32_t)(off + size);
    return (int64_t)off;
}

int64_t ptx_rw_subst_sreg(struct ptx_rw *rw, enum ptx_sreg s, unsigned comp, int32_t reg,
                          uint32_t from, uint32_t to)
{
    struct ptx_prog *p = rw->p;
    if (rw->failed)
        return -1;
    unsigned want = (s == SR_CLOCK64 || s == SR_GRIDID) ? 8 : 4;
    if (!reg_ok(p, reg, 0) || ptx_type_size((enum ptx_type)p->reg_type[reg]) != want
        || p->reg_type[reg] == PT_PRED || ptx_type_is_float((enum ptx_type)p->reg_type[reg]))
        return rw_fail(rw, "subst_sreg: register %d is not a %u-byte integer register", (int)reg,
                       want);
    if (from > to || to > p->ninsns)
        return rw_fail(rw, "subst_sreg: range [%u, %u) out of range", (unsigned)from, (unsigned)to);
    int has_comp = s == SR_TID || s == SR_NTID || s == SR_CTAID || s == SR_NCTAID;
    int64_t count = 0;
    for (uint32_t pc = from; pc < to; pc++)
        for (unsigned k = 0; k < p->insns[pc].nopd; k++) {
            struct ptx_operand *o = &p->insns[pc].opd[k];
            if (o->kind == OPD_SREG && o->sreg == s && (!has_comp || o->comp == comp)) {
                *o = ptx_opd_reg(reg);
                count++;
            }
        }
    if (count)
        p->regs_per_thread = ptx_estimate_regs(p);
    return count;
}
