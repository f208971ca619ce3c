/*
 * ptx_link.c -- one .entry of a ptx_module -> a flat, resolved ptx_prog.
 *
 * Not a hardware block: this is what a driver's JIT does before a kernel can run.
 *   1. analysis   walk the call graph from the kernel (undefined callee, .entry callee,
 *                 argument count and recursion are errors), lay out every reachable
 *                 function's frame (.local variables, call-scope .param variables), check that
 *                 every symbol resolves, and give each .shared variable that the kernel or its
 *                 callees use an offset (static first; .extern .shared at ALIGN_UP(static, 16)).
 *   2. emission   copy the kernel's instructions, inlining every call: each inlined instance
 *                 gets fresh registers, its own local frame and param-scratch frame; the
 *                 callee's formal parameters and func_retval0 alias the call site's .param
 *                 variables (so the caller's st.param and the callee's ld.param meet at the same
 *                 scratch address); `ret` becomes a branch to the instruction after the call
 *                 (dropped when it is the callee's last instruction), in the kernel an exit.
 *                 Symbols fold into addresses, labels become instruction indices.
 *   3. the prog ends with an exit; regs_per_thread comes from a liveness analysis.
 * Errors are "FILE:LINE: message".  No global state; all memory is freed on every path.
 */
#include "ptx.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROG_INSNS  (1u << 19)   /* after inlining (a ptx_insn is ~260 bytes) */
#define MAX_PROG_REGS   (1u << 20)
#define MAX_CALL_DEPTH  256
#define MAX_FRAME_BYTES (1u << 30)
#define NONE32          0xffffffffu

enum skind { SK_NONE = 0, SK_FVAR, SK_PARAM, SK_RET, SK_MVAR };

struct flayout {                 /* per reachable function */
    uint8_t   done;
    int32_t  *vars;              /* function-scope variables (module var indices) */
    uint32_t *off;               /* their offsets in the local or param-scratch frame */
    uint32_t  nvars;
    int32_t  *param_sym, *ret_sym;
    uint32_t  local_size, local_align, ps_size, ps_align;
};

struct fixup { uint32_t pc; uint32_t target; };   /* target: local insn index (ninsns = end) */

struct inst {                    /* one inlined copy of a function */
    uint32_t fi, id;
    uint32_t reg_base, local_base, ps_base;   /* ps_base: offset inside the scratch area */
    uint32_t args, rets;         /* index in the u32 pool of the callee's param / ret addresses */
};

struct lctx {
    const struct ptx_module *m;
    struct ptx_prog *p;
    char    *err;
    size_t   errlen;
    char     errbuf[PTX_ERR_LEN];
    jmp_buf  jb;
    uint32_t cap_insns, cap_regs;
    int32_t *mod_var_of_sym;     /* strs index -> module-scope variable, -1 */
    int32_t *func_of_sym;        /* strs index -> defined function, -1 */
    int32_t *var_sym;            /* variable -> strs index, -1 */
    struct flayout *fl;          /* [nfuncs] */
    uint8_t *state;              /* call-graph walk: 0 new, 1 on the stack, 2 done */
    uint32_t *shared_off;        /* variable -> shared offset (NONE32 unused) */
    uint32_t *mlocal_off;        /* module-scope .local variable -> local offset */
    uint8_t *shared_used;
    uint32_t dyn_base;
    uint64_t local_total, ps_total;
    uint32_t ninst;
    uint32_t *pool;              /* u32 stack: pc maps, argument/return addresses */
    uint32_t npool, cap_pool;
    struct fixup *fix;           /* fixup stack */
    uint32_t nfix, cap_fix;
};

static void lfail(struct lctx *L, uint32_t line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
static void lfail(struct lctx *L, uint32_t line, const char *fmt, ...)
{
    char msg[PTX_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line)
        snprintf(L->err, L->errlen, "%s:%u: %s", L->m->filename, (unsigned)line, msg);
    else
        snprintf(L->err, L->errlen, "%s: %s", L->m->filename, msg);
    longjmp(L->jb, 1);
}

static void *lgrow(struct lctx *L, void *arr, uint32_t *cap, uint64_t need, size_t esz)
{
    if (need <= *cap)
        return arr;
    uint64_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    if (nc > 0xffffffffull || nc * esz > (1ull << 34))
        lfail(L, 0, "program too large");
    char *n = realloc(arr, (size_t)(nc * esz));
    if (!n)
        lfail(L, 0, "out of memory");
    memset(n + (size_t)*cap * esz, 0, (size_t)((nc - *cap) * esz));
    *cap = (uint32_t)nc;
    return n;
}

static void *lcalloc(struct lctx *L, size_t n, size_t esz)
{
    void *p = calloc(n ? n : 1, esz);
    if (!p)
        lfail(L, 0, "out of memory");
    return p;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* ------------------------------------------------------------------ name tables */

struct nameidx { const char *s; int32_t i; };
static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const struct nameidx *)a)->s, ((const struct nameidx *)b)->s);
}

static int32_t find_str(const struct nameidx *tab, uint32_t n, const char *s)
{
    struct nameidx key = {s, 0};
    const struct nameidx *r = n ? bsearch(&key, tab, n, sizeof *tab, cmp_name) : NULL;
    return r ? r->i : -1;
}

/* strs index of every variable and function name; module variables and functions by strs index. */
static void build_names(struct lctx *L)
{
    const struct ptx_module *m = L->m;
    struct nameidx *tab = lcalloc(L, m->nstrs, sizeof *tab);
    for (uint32_t i = 0; i < m->nstrs; i++)
        tab[i].s = m->strs[i], tab[i].i = (int32_t)i;
    qsort(tab, m->nstrs, sizeof *tab, cmp_name);
    L->mod_var_of_sym = lcalloc(L, m->nstrs, sizeof(int32_t));
    L->func_of_sym = lcalloc(L, m->nstrs, sizeof(int32_t));
    L->var_sym = lcalloc(L, m->nvars, sizeof(int32_t));
    for (uint32_t i = 0; i < m->nstrs; i++)
        L->mod_var_of_sym[i] = L->func_of_sym[i] = -1;
    for (uint32_t v = 0; v < m->nvars; v++) {
        L->var_sym[v] = find_str(tab, m->nstrs, m->vars[v].name);
        if (m->vars[v].func == -1 && L->var_sym[v] >= 0)
            L->mod_var_of_sym[L->var_sym[v]] = (int32_t)v;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        int32_t s = find_str(tab, m->nstrs, m->funcs[f].name);
        if (s >= 0)
            L->func_of_sym[s] = (int32_t)f;
    }
    /* per-function parameter names */
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const struct ptx_func *fn = &m->funcs[f];
        struct flayout *fl = &L->fl[f];
        fl->param_sym = lcalloc(L, fn->nparams, sizeof(int32_t));
        fl->ret_sym = lcalloc(L, fn->nrets, sizeof(int32_t));
        for (uint32_t i = 0; i < fn->nparams; i++)
            fl->param_sym[i] = find_str(tab, m->nstrs, fn->params[i].name);
        for (uint32_t i = 0; i < fn->nrets; i++)
            fl->ret_sym[i] = find_str(tab, m->nstrs, fn->rets[i].name);
    }
    free(tab);
}

/* ------------------------------------------------------------------ analysis */

/* Function-scope variables of each function, and the frame layout of the reachable ones. */
static void layout_funcs(struct lctx *L)
{
    const struct ptx_module *m = L->m;
    uint32_t *cnt = lcalloc(L, m->nfuncs, sizeof *cnt);
    for (uint32_t v = 0; v < m->nvars; v++)
        if (m->vars[v].func >= 0 && (uint32_t)m->vars[v].func < m->nfuncs)
            cnt[m->vars[v].func]++;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        L->fl[f].vars = calloc(cnt[f] ? cnt[f] : 1, sizeof(int32_t));
        L->fl[f].off = calloc(cnt[f] ? cnt[f] : 1, sizeof(uint32_t));
        if (!L->fl[f].vars || !L->fl[f].off) {
            free(cnt);
            lfail(L, 0, "out of memory");
        }
    }
    free(cnt);
    for (uint32_t v = 0; v < m->nvars; v++) {
        int32_t f = m->vars[v].func;
        if (f >= 0 && (uint32_t)f < m->nfuncs)
            L->fl[f].vars[L->fl[f].nvars++] = (int32_t)v;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        struct flayout *fl = &L->fl[f];
        uint64_t lsz = 0, psz = 0;
        fl->local_align = fl->ps_align = 1;
        for (uint32_t k = 0; k < fl->nvars; k++) {
            const struct ptx_var *v = &m->vars[fl->vars[k]];
            uint32_t al = v->align ? v->align : 1;
            if (v->space == PS_LOCAL) {
                lsz = align_up(lsz, al);
                fl->off[k] = (uint32_t)lsz;
                lsz += v->size;
                if (al > fl->local_align)
                    fl->local_align = al;
            } else if (v->space == PS_PARAM) {
                psz = align_up(psz, al);
                fl->off[k] = (uint32_t)psz;
                psz += v->size;
                if (al > fl->ps_align)
                    fl->ps_align = al;
            }
            if (lsz > MAX_FRAME_BYTES || psz > MAX_FRAME_BYTES)
                lfail(L, m->funcs[f].line, "local memory of '%s' too large", m->funcs[f].name);
        }
        fl->local_size = (uint32_t)lsz;
        fl->ps_size = (uint32_t)psz;
    }
}

/* Which declaration a symbol of function fi names: function variable, parameter, return
   parameter or module variable (innermost first, as the parser scoped them). */
static int lookup_sym(const struct lctx *L, uint32_t fi, int32_t sym, uint32_t *idx)
{
    const struct flayout *fl = &L->fl[fi];
    const struct ptx_func *f = &L->m->funcs[fi];
    if (sym < 0 || (uint32_t)sym >= L->m->nstrs)
        return SK_NONE;
    for (uint32_t k = 0; k < fl->nvars; k++)
        if (L->var_sym[fl->vars[k]] == sym)
            return *idx = k, SK_FVAR;
    for (uint32_t i = 0; i < f->nparams; i++)
        if (fl->param_sym[i] == sym)
            return *idx = i, SK_PARAM;
    for (uint32_t i = 0; i < f->nrets; i++)
        if (fl->ret_sym[i] == sym)
            return *idx = i, SK_RET;
    if (L->mod_var_of_sym[sym] >= 0)
        return *idx = (uint32_t)L->mod_var_of_sym[sym], SK_MVAR;
    return SK_NONE;
}

/* Check the symbols of one reachable function and mark the .shared variables it uses. */
static void scan_symbols(struct lctx *L, uint32_t fi)
{
    const struct ptx_func *f = &L->m->funcs[fi];
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const struct ptx_insn *in = &f->insns[i];
        for (uint32_t k = 0; k < in->nopd && k < PTX_MAX_OPERANDS; k++) {
            const struct ptx_operand *o = &in->opd[k];
            if ((o->kind != OPD_ADDR && o->kind != OPD_SYMADDR) || o->sym < 0)
                continue;
            uint32_t idx;
            int kind = lookup_sym(L, fi, o->sym, &idx);
            if (kind == SK_NONE)
                lfail(L, in->line, "undefined symbol '%s'",
                      (uint32_t)o->sym < L->m->nstrs ? L->m->strs[o->sym] : "?");
            int32_t v = kind == SK_FVAR ? L->fl[fi].vars[idx] : kind == SK_MVAR ? (int32_t)idx : -1;
            if (v >= 0 && L->m->vars[v].space == PS_SHARED && !L->m->vars[v].is_extern)
                L->shared_used[v] = 1;
        }
    }
}

/* Depth-first walk of the call graph from fi: errors for undefined, recursive or badly
   called functions. */
static void walk_calls(struct lctx *L, uint32_t fi, uint32_t depth)
{
    const struct ptx_module *m = L->m;
    const struct ptx_func *f = &m->funcs[fi];
    L->state[fi] = 1;
    scan_symbols(L, fi);
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const struct ptx_insn *in = &f->insns[i];
        if (in->op != OP_CALL)
            continue;
        if (in->opd[0].imm < 0 || (uint64_t)in->opd[0].imm >= f->ncalls)
            lfail(L, in->line, "bad call");
        const struct ptx_call *cl = &f->calls[in->opd[0].imm];
        const char *name = (cl->callee >= 0 && (uint32_t)cl->callee < m->nstrs) ? m->strs[cl->callee] : "?";
        int32_t g = (cl->callee >= 0 && (uint32_t)cl->callee < m->nstrs) ? L->func_of_sym[cl->callee] : -1;
        if (g < 0)
            lfail(L, in->line, "call to undefined function '%s'", name);
        const struct ptx_func *gf = &m->funcs[g];
        if (gf->is_entry)
            lfail(L, in->line, "call to .entry '%s'", name);
        if (L->state[g] == 1)
            lfail(L, in->line, "recursive call to '%s' (recursion cannot be inlined)", name);
        if (cl->nargs != gf->nparams)
            lfail(L, in->line, "call to '%s' with %u arguments, expected %u", name,
                  (unsigned)cl->nargs, (unsigned)gf->nparams);
        if (cl->nrets > gf->nrets)
            lfail(L, in->line, "call to '%s' expects %u return values, the function has %u", name,
                  (unsigned)cl->nrets, (unsigned)gf->nrets);
        for (uint32_t a = 0; a < cl->nargs; a++) {
            uint32_t idx;
            if (cl->arg_is_reg[a]) {
                if (gf->params[a].size > 8 || cl->args[a] < 0 || (uint32_t)cl->args[a] >= f->nregs)
                    lfail(L, in->line, "bad register argument %u in call to '%s'", a + 1, name);
                continue;
            }
            int k = lookup_sym(L, fi, cl->args[a], &idx);
            int ok = k == SK_PARAM || k == SK_RET
                  || (k == SK_FVAR && m->vars[L->fl[fi].vars[idx]].space == PS_PARAM);
            if (!ok)
                lfail(L, in->line, "argument %u of call to '%s' is not a .param variable", a + 1, name);
        }
        for (uint32_t r = 0; r < cl->nrets; r++) {
            uint32_t idx;
            int k = lookup_sym(L, fi, cl->rets[r], &idx);
            if (!(k == SK_RET || (k == SK_FVAR && m->vars[L->fl[fi].vars[idx]].space == PS_PARAM)))
                lfail(L, in->line, "return value %u of call to '%s' is not a .param variable", r + 1, name);
        }
        if (L->state[g] == 0) {
            if (depth + 1 >= MAX_CALL_DEPTH)
                lfail(L, in->line, "calls nested too deeply");
            walk_calls(L, (uint32_t)g, depth + 1);
        }
    }
    L->state[fi] = 2;
}

/* Static shared layout: used variables in declaration order, each at its alignment. */
static void layout_shared(struct lctx *L)
{
    const struct ptx_module *m = L->m;
    uint64_t off = 0;
    for (uint32_t v = 0; v < m->nvars; v++) {
        L->shared_off[v] = NONE32;
        if (!L->shared_used[v])
            continue;
        off = align_up(off, m->vars[v].align ? m->vars[v].align : 1);
        L->shared_off[v] = (uint32_t)off;
        off += m->vars[v].size;
        if (off > MAX_FRAME_BYTES)
            lfail(L, 0, "shared memory too large");
    }
    L->p->shared_static = (uint32_t)off;
    L->dyn_base = (uint32_t)align_up(off, 16);
}

/* ------------------------------------------------------------------ emission */

static uint32_t pool_push(struct lctx *L, uint32_t n)
{
    L->pool = lgrow(L, L->pool, &L->cap_pool, (uint64_t)L->npool + n, sizeof *L->pool);
    uint32_t at = L->npool;
    L->npool += n;
    return at;
}

static uint32_t alloc_local(struct lctx *L, uint64_t size, uint32_t align)
{
    uint64_t at = align_up(L->local_total, align);
    L->local_total = at + size;
    if (L->local_total > MAX_FRAME_BYTES)
        lfail(L, 0, "local memory too large after inlining");
    return (uint32_t)at;
}

static uint32_t alloc_pscratch(struct lctx *L, uint64_t size, uint32_t align)
{
    uint64_t at = align_up(L->ps_total, align ? align : 1);
    L->ps_total = at + size;
    if (L->ps_total > MAX_FRAME_BYTES)
        lfail(L, 0, "parameter scratch too large after inlining");
    return (uint32_t)at;
}

/* State space and address of a symbol seen from instance I. */
static void sym_addr(struct lctx *L, const struct inst *I, int32_t sym, uint32_t line,
                     uint8_t *space, uint64_t *addr)
{
    const struct ptx_module *m = L->m;
    const struct ptx_func *f = &m->funcs[I->fi];
    uint32_t idx;
    int kind = lookup_sym(L, I->fi, sym, &idx);
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
    case SK_FVAR: v = L->fl[I->fi].vars[idx]; break;
    case SK_MVAR: v = (int32_t)idx; break;
    default: lfail(L, line, "undefined symbol '%s'", (uint32_t)sym < m->nstrs ? m->strs[sym] : "?");
    }
    const struct ptx_var *var = &m->vars[v];
    *space = var->space;
    switch (var->space) {
    case PS_SHARED:
        *addr = var->is_extern ? L->dyn_base : L->shared_off[v];
        break;
    case PS_LOCAL:
        if (kind == SK_FVAR) {
            *addr = I->local_base + L->fl[I->fi].off[idx];
        } else {
            if (L->mlocal_off[v] == NONE32)
                L->mlocal_off[v] = alloc_local(L, var->size, var->align ? var->align : 1);
            *addr = L->mlocal_off[v];
        }
        break;
    case PS_PARAM:
        if (kind != SK_FVAR)
            lfail(L, line, "bad .param symbol '%s'", var->name);
        *addr = PTX_PSCRATCH_BASE + I->ps_base + L->fl[I->fi].off[idx];
        break;
    default:
        *addr = var->addr;
        break;
    }
}

static struct ptx_insn *emit(struct lctx *L, const struct ptx_insn *in)
{
    struct ptx_prog *p = L->p;
    if (p->ninsns >= MAX_PROG_INSNS)
        lfail(L, in->line, "program too large after inlining");
    p->insns = lgrow(L, p->insns, &L->cap_insns, (uint64_t)p->ninsns + 1, sizeof *p->insns);
    p->insns[p->ninsns] = *in;
    return &p->insns[p->ninsns++];
}

static void add_fixup(struct lctx *L, uint32_t pc, uint32_t target)
{
    L->fix = lgrow(L, L->fix, &L->cap_fix, (uint64_t)L->nfix + 1, sizeof *L->fix);
    L->fix[L->nfix].pc = pc;
    L->fix[L->nfix].target = target;
    L->nfix++;
}

/* Fresh prog registers for one instance of function fi. */
static uint32_t new_regs(struct lctx *L, uint32_t fi, uint32_t id)
{
    const struct ptx_func *f = &L->m->funcs[fi];
    struct ptx_prog *p = L->p;
    if ((uint64_t)p->nregs + f->nregs > MAX_PROG_REGS)
        lfail(L, f->line, "too many registers after inlining");
    uint32_t cap = L->cap_regs, cap2 = L->cap_regs;
    p->reg_type = lgrow(L, p->reg_type, &cap, (uint64_t)p->nregs + f->nregs, sizeof *p->reg_type);
    p->reg_name = lgrow(L, p->reg_name, &cap2, (uint64_t)p->nregs + f->nregs, sizeof *p->reg_name);
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

static void emit_instance(struct lctx *L, const struct inst *I, uint32_t depth);

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
            d->imm = (int64_t)a;
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

static struct ptx_insn make_bra(int32_t guard, uint8_t neg, uint32_t line)
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
    uint32_t g = (uint32_t)L->func_of_sym[cl->callee];
    const struct ptx_func *gf = &m->funcs[g];
    const struct flayout *gl = &L->fl[g];
    uint32_t skip_pc = NONE32;
    if (in->guard >= 0) {
        struct ptx_insn b = make_bra(in->guard + (int32_t)I->reg_base, !in->guard_neg, in->line);
        skip_pc = L->p->ninsns;
        emit(L, &b);
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
        uint32_t slot = alloc_pscratch(L, pp->size, pp->align);
        L->pool[J.args + a] = PTX_PSCRATCH_BASE + slot;
        struct ptx_insn st = make_bra(-1, 0, in->line);
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
        emit(L, &st);
    }
    for (uint32_t r = 0; r < gf->nrets; r++) {
        uint8_t space;
        uint64_t addr;
        if (r < cl->nrets) {
            sym_addr(L, I, cl->rets[r], in->line, &space, &addr);
        } else {   /* result not used by the caller: a private slot */
            addr = PTX_PSCRATCH_BASE + alloc_pscratch(L, gf->rets[r].size, gf->rets[r].align);
        }
        L->pool[J.rets + r] = (uint32_t)addr;
    }
    J.reg_base = new_regs(L, g, J.id);
    J.local_base = alloc_local(L, gl->local_size, gl->local_align);
    J.ps_base = alloc_pscratch(L, gl->ps_size, gl->ps_align);
    emit_instance(L, &J, depth + 1);
    if (skip_pc != NONE32)
        L->p->insns[skip_pc].opd[0].imm = L->p->ninsns;
}

static void emit_instance(struct lctx *L, const struct inst *I, uint32_t depth)
{
    const struct ptx_func *f = &L->m->funcs[I->fi];
    uint32_t pool_mark = L->npool, fix_mark = L->nfix;
    uint32_t map = pool_push(L, f->ninsns + 1);
    if (depth > MAX_CALL_DEPTH)
        lfail(L, f->line, "calls nested too deeply");
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const struct ptx_insn *in = &f->insns[i];
        L->pool[map + i] = L->p->ninsns;
        if (in->op == OP_CALL) {
            emit_call(L, I, in, depth);
            continue;
        }
        if (in->op == OP_RET) {
            if (f->is_entry) {
                struct ptx_insn *o = emit(L, in);
                o->op = OP_EXIT;
                o->mod = 0;
                relocate(L, I, o, in->line);
            } else if (in->guard >= 0 || i + 1 < f->ninsns) {
                struct ptx_insn b = make_bra(in->guard, in->guard_neg, in->line);
                relocate(L, I, &b, in->line);
                add_fixup(L, L->p->ninsns, f->ninsns);
                emit(L, &b);
            }
            continue;
        }
        uint32_t pc = L->p->ninsns;
        struct ptx_insn *o = emit(L, in);
        relocate(L, I, o, in->line);
        if (in->op == OP_BRA) {
            int64_t t = in->opd[0].imm;
            if (t < 0 || (uint64_t)t > f->ninsns)
                lfail(L, in->line, "bad branch target");
            add_fixup(L, pc, (uint32_t)t);
        }
    }
    L->pool[map + f->ninsns] = L->p->ninsns;
    for (uint32_t k = fix_mark; k < L->nfix; k++)
        L->p->insns[L->fix[k].pc].opd[0].imm = L->pool[map + L->fix[k].target];
    L->nfix = fix_mark;
    L->npool = pool_mark;
}

/* ------------------------------------------------------------------ register estimate */

/* Registers an instruction writes (defs) and reads (uses). */
static void insn_regs(const struct ptx_insn *in, int32_t *defs, int *nd, int32_t *uses, int *nu)
{
    *nd = *nu = 0;
    if (in->guard >= 0)
        uses[(*nu)++] = in->guard;
    int ndst;
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_EXIT: case OP_BAR: case OP_MEMBAR:
    case OP_NOP: case OP_RET: case OP_CALL:
        ndst = 0;
        break;
    case OP_SETP: case OP_SHFL:
        ndst = 2;
        break;
    default:
        ndst = 1;
        break;
    }
    for (int k = 0; k < in->nopd && k < PTX_MAX_OPERANDS; k++) {
        const struct ptx_operand *o = &in->opd[k];
        int isdef = k < ndst;
        if (o->kind == OPD_REG && o->reg >= 0) {
            if (isdef)
                defs[(*nd)++] = o->reg;
            else
                uses[(*nu)++] = o->reg;
        } else if (o->kind == OPD_VEC) {
            for (unsigned e = 0; e < o->nvec && e < 4; e++)
                if (o->vec[e] >= 0) {
                    if (isdef)
                        defs[(*nd)++] = o->vec[e];
                    else
                        uses[(*nu)++] = o->vec[e];
                }
        } else if (o->kind == OPD_ADDR && o->reg >= 0) {
            uses[(*nu)++] = o->reg;
        }
    }
}

/* Maximum number of simultaneously live 32-bit register slots (64-bit registers count 2,
   predicates 0) from a backward liveness analysis, plus 2.  This stands in for ptxas'
   register allocation: ptxas also needs a couple of registers for addresses and
   temporaries it creates.  Checked against ptxas -arch=sm_75 on the bench kernels: most land
   within about 30%; ptxas needs more where it hoists loads for latency (spmv, nw: about 2x)
   and fewer where it re-materialises values. */
static uint32_t estimate_regs(const struct ptx_prog *p)
{
    uint32_t n = p->ninsns, nr = p->nregs, nw = (nr + 63) / 64;
    if (n == 0 || nr == 0)
        return 2;
    uint64_t total_slots = 0;
    for (uint32_t r = 0; r < nr; r++)
        total_slots += p->reg_type[r] == PT_PRED ? 0 : (ptx_type_size((enum ptx_type)p->reg_type[r]) == 8 ? 2 : 1);
    if ((uint64_t)n * nw > (1ull << 23))     /* > 64 MiB of live sets: fall back */
        return (uint32_t)(total_slots > 0xfffffff0u ? 0xfffffff0u : total_slots) + 2;
    uint64_t *live = calloc((size_t)n * nw, sizeof *live);
    uint64_t *w1 = calloc(nw, sizeof *w1), *w2 = calloc(nw, sizeof *w2), *tmp = calloc(nw, sizeof *tmp);
    if (!live || !w1 || !w2 || !tmp) {
        free(live), free(w1), free(w2), free(tmp);
        return (uint32_t)(total_slots > 0xfffffff0u ? 0xfffffff0u : total_slots) + 2;
    }
    for (uint32_t r = 0; r < nr; r++) {
        if (p->reg_type[r] != PT_PRED)
            w1[r / 64] |= 1ull << (r % 64);
        if (ptx_type_size((enum ptx_type)p->reg_type[r]) == 8)
            w2[r / 64] |= 1ull << (r % 64);
    }
    int32_t defs[PTX_MAX_OPERANDS * 4 + 1], uses[PTX_MAX_OPERANDS * 4 + 1];
    int nd, nu, changed = 1;
    uint32_t best = 0;
    /* live sets only grow from pass to pass, so the last pass sees the largest pressure */
    for (int pass = 0; changed && pass < 100000; pass++) {
        changed = 0;
        for (uint32_t pc = n; pc-- > 0;) {
            const struct ptx_insn *in = &p->insns[pc];
            memset(tmp, 0, nw * sizeof *tmp);
            int falls = !((in->op == OP_BRA || in->op == OP_EXIT) && in->guard < 0);
            if (falls && pc + 1 < n)
                for (uint32_t w = 0; w < nw; w++)
                    tmp[w] |= live[(size_t)(pc + 1) * nw + w];
            if (in->op == OP_BRA && in->opd[0].imm >= 0 && (uint64_t)in->opd[0].imm < n)
                for (uint32_t w = 0; w < nw; w++)
                    tmp[w] |= live[(size_t)in->opd[0].imm * nw + w];
            insn_regs(in, defs, &nd, uses, &nu);
            /* pressure: max(live-in, live-out plus registers written but dead) */
            uint32_t pout = 0, pin = 0;
            for (int k = 0; k < nd; k++)
                if (!(tmp[defs[k] / 64] >> (defs[k] % 64) & 1) && p->reg_type[defs[k]] != PT_PRED)
                    pout += ptx_type_size((enum ptx_type)p->reg_type[defs[k]]) == 8 ? 2 : 1;
            for (uint32_t w = 0; w < nw; w++)
                pout += (uint32_t)__builtin_popcountll(tmp[w] & w1[w])
                      + (uint32_t)__builtin_popcountll(tmp[w] & w2[w]);
            if (in->guard < 0)
                for (int k = 0; k < nd; k++)
                    tmp[defs[k] / 64] &= ~(1ull << (defs[k] % 64));
            for (int k = 0; k < nu; k++)
                tmp[uses[k] / 64] |= 1ull << (uses[k] % 64);
            uint64_t *cur = &live[(size_t)pc * nw];
            for (uint32_t w = 0; w < nw; w++) {
                if (cur[w] != tmp[w])
                    changed = 1;
                cur[w] = tmp[w];
                pin += (uint32_t)__builtin_popcountll(tmp[w] & w1[w])
                     + (uint32_t)__builtin_popcountll(tmp[w] & w2[w]);
            }
            if (pin > best)
                best = pin;
            if (pout > best)
                best = pout;
        }
    }
    free(live), free(w1), free(w2), free(tmp);
    return best + 2;
}

/* ------------------------------------------------------------------ entry points */

static void free_lctx(struct lctx *L)
{
    if (L->fl)
        for (uint32_t f = 0; f < L->m->nfuncs; f++) {
            free(L->fl[f].vars);
            free(L->fl[f].off);
            free(L->fl[f].param_sym);
            free(L->fl[f].ret_sym);
        }
    free(L->fl);
    free(L->mod_var_of_sym);
    free(L->func_of_sym);
    free(L->var_sym);
    free(L->state);
    free(L->shared_off);
    free(L->mlocal_off);
    free(L->shared_used);
    free(L->pool);
    free(L->fix);
}

static void link_kernel(struct lctx *L, const char *kernel)
{
    const struct ptx_module *m = L->m;
    struct ptx_prog *p = L->p;
    int32_t entry = -1;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (!strcmp(m->funcs[f].name, kernel))
            entry = (int32_t)f;
    if (entry < 0)
        lfail(L, 0, "no kernel named '%s'", kernel);
    const struct ptx_func *ef = &m->funcs[entry];
    if (!ef->is_entry)
        lfail(L, ef->line, "'%s' is a .func, not a kernel (.entry)", kernel);
    snprintf(p->name, sizeof p->name, "%s", ef->name);
    p->mod = m;
    L->fl = lcalloc(L, m->nfuncs, sizeof *L->fl);
    L->state = lcalloc(L, m->nfuncs, 1);
    L->shared_off = lcalloc(L, m->nvars, sizeof *L->shared_off);
    L->mlocal_off = lcalloc(L, m->nvars, sizeof *L->mlocal_off);
    L->shared_used = lcalloc(L, m->nvars, 1);
    for (uint32_t v = 0; v < m->nvars; v++)
        L->mlocal_off[v] = NONE32;
    build_names(L);
    layout_funcs(L);
    walk_calls(L, (uint32_t)entry, 0);
    layout_shared(L);

    p->nparams = ef->nparams;
    p->param_size = ef->param_size;
    p->params = lcalloc(L, ef->nparams, sizeof *p->params);
    if (ef->nparams)
        memcpy(p->params, ef->params, ef->nparams * sizeof *p->params);

    struct inst K;
    memset(&K, 0, sizeof K);
    K.fi = (uint32_t)entry;
    K.reg_base = new_regs(L, K.fi, 0);
    K.local_base = alloc_local(L, L->fl[entry].local_size, L->fl[entry].local_align);
    K.ps_base = alloc_pscratch(L, L->fl[entry].ps_size, L->fl[entry].ps_align);
    emit_instance(L, &K, 0);

    /* end with an exit if control can fall off the end or a branch targets the end */
    int need_exit = p->ninsns == 0;
    if (!need_exit) {
        const struct ptx_insn *last = &p->insns[p->ninsns - 1];
        need_exit = !((last->op == OP_EXIT || last->op == OP_BRA) && last->guard < 0);
    }
    for (uint32_t pc = 0; pc < p->ninsns && !need_exit; pc++)
        if (p->insns[pc].op == OP_BRA && (uint64_t)p->insns[pc].opd[0].imm >= p->ninsns)
            need_exit = 1;
    if (need_exit) {
        struct ptx_insn x = make_bra(-1, 0, p->ninsns ? p->insns[p->ninsns - 1].line : ef->line);
        x.op = OP_EXIT;
        x.nopd = 0;
        x.opd[0].kind = OPD_NONE;
        emit(L, &x);
    }
    p->local_size = (uint32_t)L->local_total;
    p->pscratch_size = (uint32_t)L->ps_total;
    p->regs_per_thread = estimate_regs(p);
}

int ptx_link(const struct ptx_module *mod, const char *kernel, struct ptx_prog *prog, char *err,
             size_t errlen)
{
    if (!prog)
        return -1;
    memset(prog, 0, sizeof *prog);
    struct lctx *L = calloc(1, sizeof *L);
    if (!L) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        return -1;
    }
    L->err = (err && errlen) ? err : L->errbuf;
    L->errlen = (err && errlen) ? errlen : sizeof L->errbuf;
    L->err[0] = 0;
    L->m = mod;
    L->p = prog;
    int rc = 0;
    if (!mod || !kernel) {
        snprintf(L->err, L->errlen, "ptx_link: no module or kernel name");
        rc = -1;
    } else if (setjmp(L->jb) == 0) {
        link_kernel(L, kernel);
    } else {
        rc = -1;
        ptx_prog_free(prog);
    }
    free_lctx(L);
    free(L);
    return rc;
}

void ptx_prog_free(struct ptx_prog *prog)
{
    if (!prog)
        return;
    free(prog->insns);
    free(prog->reg_type);
    free(prog->reg_name);
    free(prog->params);
    free(prog->insn_func_line);
    memset(prog, 0, sizeof *prog);
}
