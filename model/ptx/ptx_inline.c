/*
 * ptx_inline.c -- the PTX linker's emission: the kernel's instructions copied into the prog
 * with every call inlined, registers renamed, symbols folded into addresses, labels into
 * instruction indices.
 *
 * Not a hardware block.  Each inlined instance of a function gets fresh registers, its own
 * local frame and param-scratch frame; the callee's formal parameters and func_retval0 alias
 * the call site's .param variables (so the caller's st.param and the callee's ld.param meet at
 * the same scratch address); a register argument gets a scratch slot of its own, stored
 * before the body; `ret` becomes a branch to the instruction after the call (dropped when it
 * is the callee's last instruction), in the kernel an exit.  A guarded call becomes a branch
 * around the inlined body.  A call of the .extern vprintf (device printf) becomes one
 * OP_PRINTF instruction instead (ptx.h).  Errors unwind through lk_fail (ptx_link.c).
 */
#include "ptx_link_priv.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t pool_push(struct lctx *L, uint32_t n)
{
    L->pool = lk_grow(L, L->pool, &L->cap_pool, (uint64_t)L->npool + n, sizeof *L->pool);
    uint32_t at = L->npool;
    L->npool += n;
    return at;
}

uint32_t lk_alloc_local(struct lctx *L, uint64_t size, uint32_t align)
{
    uint64_t at = lk_align_up(L->local_total, align);
    L->local_total = at + size;
    if (L->local_total > MAX_FRAME_BYTES)
        lk_fail(L, 0, "local memory too large after inlining");
    return (uint32_t)at;
}

uint32_t lk_alloc_pscratch(struct lctx *L, uint64_t size, uint32_t align)
{
    uint64_t at = lk_align_up(L->ps_total, align ? align : 1);
    L->ps_total = at + size;
    if (L->ps_total > MAX_FRAME_BYTES)
        lk_fail(L, 0, "parameter scratch too large after inlining");
    return (uint32_t)at;
}

/* State space and address of a symbol seen from instance I. */
static void sym_addr(struct lctx *L, const struct inst *I, int32_t sym, uint32_t line,
                     uint8_t *space, uint64_t *addr)
{
    const struct ptx_module *m = L->m;
    const struct ptx_func *f = &m->funcs[I->fi];
    uint32_t idx;
    int kind = lk_lookup_sym(L, I->fi, sym, &idx);
    int32_t v = -1;
    switch (kind) {
    case SK_PARAM:
        *space = PS_PARAM;
        *addr = f->is_entry ? f->params[idx].offset : L->pool[I->args + idx];
        return;
    case SK_RET:
        *space = PS_PARAM;
        *addr = L->pool[I->rets + idx];
        return;
    case SK_FVAR: v = lk_fl(L, I->fi)->vars[idx]; break;
    case SK_MVAR: v = (int32_t)idx; break;
    default: lk_fail(L, line, "undefined symbol '%s'", (uint32_t)sym < m->nstrs ? m->strs[sym] : "?");
    }
    const struct ptx_var *var = &m->vars[v];
    *space = var->space;
    switch (var->space) {
    case PS_SHARED:
        *addr = var->is_extern ? L->dyn_base : lk_var(L, v)->shared_off;
        break;
    case PS_LOCAL:
        if (kind == SK_FVAR) {
            *addr = I->local_base + lk_fl(L, I->fi)->off[idx];
        } else {
            uint32_t at = lk_var(L, v)->mlocal_off;
            if (at == NONE32) {
                at = lk_alloc_local(L, var->size, var->align ? var->align : 1);
                lk_var(L, v)->mlocal_off = at;
                lk_add_sym(L, var->name, 0, PS_LOCAL, v, var->type, var->align, at, var->size);
            }
            *addr = at;
        }
        break;
    case PS_PARAM:
        if (kind != SK_FVAR)
            lk_fail(L, line, "bad .param symbol '%s'", var->name);
        *addr = PTX_PSCRATCH_BASE + I->ps_base + lk_fl(L, I->fi)->off[idx];
        break;
    default:
        *addr = var->addr;
        break;
    }
}

struct ptx_insn *lk_emit(struct lctx *L, const struct ptx_insn *in)
{
    struct ptx_prog *p = L->p;
    if (p->ninsns >= MAX_PROG_INSNS)
        lk_fail(L, in->line, "program too large after inlining");
    p->insns = lk_grow(L, p->insns, &L->cap_insns, (uint64_t)p->ninsns + 1, sizeof *p->insns);
    p->insns[p->ninsns] = *in;
    if (!p->insns[p->ninsns].pragma)
        p->insns[p->ninsns].pragma = L->pend_pragma;
    L->pend_pragma = 0;
    return &p->insns[p->ninsns++];
}

static void add_fixup(struct lctx *L, uint32_t pc, uint32_t target)
{
    L->fix = lk_grow(L, L->fix, &L->cap_fix, (uint64_t)L->nfix + 1, sizeof *L->fix);
    L->fix[L->nfix].pc = pc;
    L->fix[L->nfix].target = target;
    L->nfix++;
}

/* Fresh prog registers for one instance of function fi. */
uint32_t lk_new_regs(struct lctx *L, uint32_t fi, uint32_t id)
{
    const struct ptx_func *f = &L->m->funcs[fi];
    struct ptx_prog *p = L->p;
    if ((uint64_t)p->nregs + f->nregs > MAX_PROG_REGS)
        lk_fail(L, f->line, "too many registers after inlining");
    uint32_t cap = L->cap_regs, cap2 = L->cap_regs;
    p->reg_type = lk_grow(L, p->reg_type, &cap, (uint64_t)p->nregs + f->nregs, sizeof *p->reg_type);
    p->reg_name = lk_grow(L, p->reg_name, &cap2, (uint64_t)p->nregs + f->nregs, sizeof *p->reg_name);
    L->cap_regs = cap;
    uint32_t base = p->nregs;
    for (uint32_t r = 0; r < f->nregs; r++) {
        p->reg_type[base + r] = f->regs[r].type;
        if (id == 0)
            snprintf(p->reg_name[base + r], sizeof p->reg_name[0], "%s", f->regs[r].name);
        else
            snprintf(p->reg_name[base + r], sizeof p->reg_name[0], "%.18s_i%u", f->regs[r].name,
                     (unsigned)(id % 100000000u));
    }
    p->nregs += f->nregs;
    return base;
}

/* Rename registers and resolve symbols of one copied instruction. */
static void relocate(struct lctx *L, const struct inst *I, struct ptx_insn *o, uint32_t line)
{
    if (o->guard >= 0)
        o->guard += (int32_t)I->reg_base;
    for (uint32_t k = 0; k < o->nopd && k < PTX_MAX_OPERANDS; k++) {
        struct ptx_operand *d = &o->opd[k];
        uint8_t space;
        uint64_t a;
        switch (d->kind) {
        case OPD_REG:
            d->reg += (int32_t)I->reg_base;
            break;
        case OPD_VEC:
            for (unsigned e = 0; e < d->nvec && e < 4; e++)
                if (d->vec[e] >= 0)
                    d->vec[e] += (int32_t)I->reg_base;
            break;
        case OPD_ADDR:
            if (d->reg >= 0)
                d->reg += (int32_t)I->reg_base;
            if (d->sym >= 0) {
                sym_addr(L, I, d->sym, line, &space, &a);
                d->imm += (int64_t)a;
                d->space = space;
                d->reg = -1;
                d->sym = -1;
            }
            break;
        case OPD_SYMADDR:
            sym_addr(L, I, d->sym, line, &space, &a);
            d->imm += (int64_t)a;       /* "sym" or "sym+off" */
            d->space = space;
            d->sym = -1;
            break;
        case OPD_LABEL:
            d->sym = -1;        /* .imm is set by the branch fixup */
            break;
        default:
            break;
        }
    }
}

struct ptx_insn lk_make_bra(int32_t guard, uint8_t neg, uint32_t line)
{
    struct ptx_insn b;
    memset(&b, 0, sizeof b);
    b.op = OP_BRA;
    b.guard = guard;
    b.guard_neg = neg;
    b.line = line;
    b.nopd = 1;
    b.opd[0].kind = OPD_LABEL;
    b.opd[0].reg = -1;
    b.opd[0].sym = -1;
    for (int i = 1; i < PTX_MAX_OPERANDS; i++)
        b.opd[i].reg = -1, b.opd[i].sym = -1;
    return b;
}

/* Inline one call: a skip branch for a guarded call, argument stores for register
   arguments, then the callee's body. */
static void emit_call(struct lctx *L, const struct inst *I, const struct ptx_insn *in, uint32_t depth)
{
    const struct ptx_module *m = L->m;
    const struct ptx_func *f = &m->funcs[I->fi];
    const struct ptx_call *cl = &f->calls[in->opd[0].imm];
    uint32_t g = (uint32_t)lk_func_of_sym(L, cl->callee);
    const struct ptx_func *gf = &m->funcs[g];
    const struct flayout *gl = lk_fl(L, g);
    uint32_t skip_pc = NONE32;
    if (in->guard >= 0) {
        struct ptx_insn b = lk_make_bra(in->guard + (int32_t)I->reg_base, !in->guard_neg, in->line);
        skip_pc = L->p->ninsns;
        lk_emit(L, &b);
    }
    struct inst J;
    memset(&J, 0, sizeof J);
    J.fi = g;
    J.id = ++L->ninst;
    J.args = pool_push(L, gf->nparams);
    J.rets = pool_push(L, gf->nrets);
    for (uint32_t a = 0; a < gf->nparams; a++) {
        uint8_t space;
        uint64_t addr;
        if (!cl->arg_is_reg[a]) {
            sym_addr(L, I, cl->args[a], in->line, &space, &addr);
            L->pool[J.args + a] = (uint32_t)addr;
            continue;
        }
        /* a register argument: store it into a fresh scratch slot the callee reads */
        const struct ptx_param *pp = &gf->params[a];
        uint32_t slot = lk_alloc_pscratch(L, pp->size, pp->align);
        L->pool[J.args + a] = PTX_PSCRATCH_BASE + slot;
        lk_add_sym(L, pp->name, J.id, PS_PARAM, -1, pp->type, pp->align, PTX_PSCRATCH_BASE + slot,
                   pp->size);
        struct ptx_insn st = lk_make_bra(-1, 0, in->line);
        st.op = OP_ST;
        st.space = PS_PARAM;
        st.vec = 1;
        st.type = pp->size == 1 ? PT_B8 : pp->size == 2 ? PT_B16 : pp->size == 4 ? PT_B32 : PT_B64;
        st.nopd = 2;
        st.opd[0].kind = OPD_ADDR;
        st.opd[0].space = PS_PARAM;
        st.opd[0].imm = PTX_PSCRATCH_BASE + slot;
        st.opd[1].kind = OPD_REG;
        st.opd[1].reg = cl->args[a] + (int32_t)I->reg_base;
        lk_emit(L, &st);
    }
    for (uint32_t r = 0; r < gf->nrets; r++) {
        uint8_t space;
        uint64_t addr;
        if (r < cl->nrets) {
            sym_addr(L, I, cl->rets[r], in->line, &space, &addr);
        } else {   /* result not used by the caller: a private slot */
            const struct ptx_param *rp = &gf->rets[r];
            addr = PTX_PSCRATCH_BASE + lk_alloc_pscratch(L, rp->size, rp->align);
            lk_add_sym(L, rp->name, J.id, PS_PARAM, -1, rp->type, rp->align, addr, rp->size);
        }
        L->pool[J.rets + r] = (uint32_t)addr;
    }
    J.reg_base = lk_new_regs(L, g, J.id);
    J.local_base = lk_alloc_local(L, gl->local_size, gl->local_align);
    J.ps_base = lk_alloc_pscratch(L, gl->ps_size, gl->ps_align);
    lk_frame_syms(L, &J);
    lk_emit_instance(L, &J, depth + 1);
    if (skip_pc != NONE32)
        L->p->insns[skip_pc].opd[0].imm = L->p->ninsns;
}

/* A call of the .extern vprintf (lk_is_vprintf): one OP_PRINTF, its operands the return
   .param (or none), then the format's and the arguments' .param variables or registers. */
static void emit_vprintf(struct lctx *L, const struct inst *I, const struct ptx_insn *in,
                         const struct ptx_call *cl)
{
    struct ptx_insn o = lk_make_bra(in->guard, in->guard_neg, in->line);
    o.op = OP_PRINTF;
    o.nopd = 3;
    o.opd[0].kind = OPD_NONE;
    if (cl->nrets) {
        o.opd[0].kind = OPD_ADDR;
        o.opd[0].space = PS_PARAM;
        o.opd[0].sym = cl->rets[0];
    }
    for (int a = 0; a < 2; a++) {
        struct ptx_operand *d = &o.opd[1 + a];
        d->kind = cl->arg_is_reg[a] ? OPD_REG : OPD_ADDR;
        d->space = PS_PARAM;
        d->reg = cl->arg_is_reg[a] ? cl->args[a] : -1;
        d->sym = cl->arg_is_reg[a] ? -1 : cl->args[a];
    }
    relocate(L, I, lk_emit(L, &o), in->line);
}

void lk_emit_instance(struct lctx *L, const struct inst *I, uint32_t depth)
{
    const struct ptx_func *f = &L->m->funcs[I->fi];
    uint32_t pool_mark = L->npool, fix_mark = L->nfix;
    uint32_t map = pool_push(L, f->ninsns + 1);
    if (depth > MAX_CALL_DEPTH)
        lk_fail(L, f->line, "calls nested too deeply");
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const struct ptx_insn *in = &f->insns[i];
        L->pool[map + i] = L->p->ninsns;
        if (in->op == OP_CALL || in->op == OP_RET)   /* their pragma: the next one emitted */
            L->pend_pragma = in->pragma;
        if (in->op == OP_CALL && lk_func_of_sym(L, f->calls[in->opd[0].imm].callee) < 0) {
            emit_vprintf(L, I, in, &f->calls[in->opd[0].imm]);
            continue;
        }
        if (in->op == OP_CALL) {
            emit_call(L, I, in, depth);
            continue;
        }
        if (in->op == OP_RET) {
            if (f->is_entry) {
                struct ptx_insn *o = lk_emit(L, in);
                o->op = OP_EXIT;
                o->mod = 0;
                relocate(L, I, o, in->line);
            } else if (in->guard >= 0 || i + 1 < f->ninsns) {
                struct ptx_insn b = lk_make_bra(in->guard, in->guard_neg, in->line);
                relocate(L, I, &b, in->line);
                add_fixup(L, L->p->ninsns, f->ninsns);
                lk_emit(L, &b);
            }
            continue;
        }
        uint32_t pc = L->p->ninsns;
        struct ptx_insn *o = lk_emit(L, in);
        relocate(L, I, o, in->line);
        if (in->op == OP_BRA) {
            int64_t t = in->opd[0].imm;
            if (t < 0 || (uint64_t)t > f->ninsns)
                lk_fail(L, in->line, "bad branch target");
            add_fixup(L, pc, (uint32_t)t);
        }
    }
    L->pool[map + f->ninsns] = L->p->ninsns;
    for (uint32_t k = fix_mark; k < L->nfix; k++)
        L->p->insns[L->fix[k].pc].opd[0].imm = L->pool[map + L->fix[k].target];
    L->nfix = fix_mark;
    L->npool = pool_mark;
}
