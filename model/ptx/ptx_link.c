/*
 * ptx_link.c -- one .entry of a ptx_module -> a flat, resolved ptx_prog.
 *
 * Not a hardware block: this is what a driver's JIT does before a kernel can run.
 *   1. analysis   (here) walk the call graph from the kernel (undefined callee, .entry
 *                 callee, argument count and recursion are errors), lay out every reachable
 *                 function's frame (.local variables, call-scope .param variables), check that
 *                 every symbol resolves, and give each .shared variable that the kernel or its
 *                 callees use an offset (static first; .extern .shared at ALIGN_UP(static, 16)).
 *   2. emission   (ptx_inline.c) copy the kernel's instructions, inlining every call; symbols
 *                 fold into addresses, labels become instruction indices.
 *   3. the prog ends with an exit; regs_per_thread comes from a liveness analysis (ptx_regs.c).
 * Every named range the program ends up with (shared, local and param-scratch variables of
 * each inlined instance, the .global/.const variables it names) goes into the prog's symbol
 * table, which the printer and the rewriter read.  Names are found through name tables
 * (ptx_ntab.h) and only what the kernel reaches is laid out, so a link costs what the kernel
 * reaches, not what the module holds.
 * Errors are "FILE:LINE: message".  No global state; all memory is freed on every path.
 */
#include "ptx_link_priv.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lk_fail(struct lctx *L, uint32_t line, const char *fmt, ...)
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

void *lk_grow(struct lctx *L, void *arr, uint32_t *cap, uint64_t need, size_t esz)
{
    if (need <= *cap)
        return arr;
    uint64_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    if (nc > 0xffffffffull || nc * esz > (1ull << 34))
        lk_fail(L, 0, "program too large");
    char *n = realloc(arr, (size_t)(nc * esz));
    if (!n)
        lk_fail(L, 0, "out of memory");
    memset(n + (size_t)*cap * esz, 0, (size_t)((nc - *cap) * esz));
    *cap = (uint32_t)nc;
    return n;
}

static void *lcalloc(struct lctx *L, size_t n, size_t esz)
{
    void *p = calloc(n ? n : 1, esz);
    if (!p)
        lk_fail(L, 0, "out of memory");
    return p;
}


/* ------------------------------------------------------------------ name tables */

/* Functions and module-scope variables are found in the parser's index of the module, a
   function's own names in its frame layout (made only for the functions the kernel reaches). */

static void name_put(struct lctx *L, struct ntab *t, const char *s, int32_t val, int keep)
{
    int32_t *v = ntab_ref(t, s, strlen(s));
    if (!v)
        lk_fail(L, 0, "out of memory");
    if (!keep || *v == NTAB_NONE)
        *v = val;
}

int32_t lk_func_of_sym(const struct lctx *L, int32_t sym)
{
    const struct ptx_module *m = L->m;
    if (sym < 0 || (uint32_t)sym >= m->nstrs)
        return -1;
    int32_t f = ntab_get(&m->names->funcs, m->strs[sym], strlen(m->strs[sym]));
    return f != NTAB_NONE && (uint32_t)f < m->nfuncs ? f : -1;
}

/* ------------------------------------------------------------------ analysis */

/* The frame of function fi: its variables in declaration order, each at its alignment in the
   local or the param-scratch frame; its names (variables first, then parameters, then return
   parameters: the first of equal names wins). */
static void layout_func(struct lctx *L, struct flayout *fl)
{
    const struct ptx_module *m = L->m;
    const struct ptx_func *fn = &m->funcs[fl->fi];
    if ((uint64_t)fn->var0 + fn->nvar > m->nvars)
        lk_fail(L, fn->line, "bad variables of '%s'", fn->name);
    fl->vars = lcalloc(L, fn->nvar, sizeof *fl->vars);
    fl->off = lcalloc(L, fn->nvar, sizeof *fl->off);
    fl->nvars = fn->nvar;
    uint64_t lsz = 0, psz = 0;
    fl->local_align = fl->ps_align = 1;
    for (uint32_t k = 0; k < fl->nvars; k++) {
        fl->vars[k] = (int32_t)(fn->var0 + k);
        const struct ptx_var *v = &m->vars[fl->vars[k]];
        uint32_t al = v->align ? v->align : 1;
        name_put(L, &fl->names, v->name, (int32_t)(k << 2 | SK_FVAR), 1);
        if (v->space == PS_LOCAL) {
            lsz = lk_align_up(lsz, al);
            fl->off[k] = (uint32_t)lsz;
            lsz += v->size;
            if (al > fl->local_align)
                fl->local_align = al;
        } else if (v->space == PS_PARAM) {
            psz = lk_align_up(psz, al);
            fl->off[k] = (uint32_t)psz;
            psz += v->size;
            if (al > fl->ps_align)
                fl->ps_align = al;
        }
        if (lsz > MAX_FRAME_BYTES || psz > MAX_FRAME_BYTES)
            lk_fail(L, fn->line, "local memory of '%s' too large", fn->name);
    }
    fl->local_size = (uint32_t)lsz;
    fl->ps_size = (uint32_t)psz;
    for (uint32_t i = 0; i < fn->nparams; i++)
        name_put(L, &fl->names, fn->params[i].name, (int32_t)(i << 2 | SK_PARAM), 1);
    for (uint32_t i = 0; i < fn->nrets; i++)
        name_put(L, &fl->names, fn->rets[i].name, (int32_t)(i << 2 | SK_RET), 1);
}

struct flayout *lk_fl(struct lctx *L, uint32_t fi)
{
    int32_t *at = ntab_ref_u32(&L->fl_of, fi);
    if (!at)
        lk_fail(L, 0, "out of memory");
    if (*at != NTAB_NONE)
        return L->fl[*at];
    *at = (int32_t)L->nfl;
    L->fl = lk_grow(L, L->fl, &L->cap_fl, (uint64_t)L->nfl + 1, sizeof *L->fl);
    struct flayout *fl = L->fl[L->nfl++] = lcalloc(L, 1, sizeof *fl);
    fl->fi = fi;
    layout_func(L, fl);
    return fl;
}

struct lvar *lk_var(struct lctx *L, int32_t v)
{
    int32_t *at = ntab_ref_u32(&L->lv_of, (uint32_t)v);
    if (!at)
        lk_fail(L, 0, "out of memory");
    if (*at != NTAB_NONE)
        return &L->lv[*at];
    *at = (int32_t)L->nlv;
    L->lv = lk_grow(L, L->lv, &L->cap_lv, (uint64_t)L->nlv + 1, sizeof *L->lv);
    L->lv[L->nlv] = (struct lvar){v, NONE32, NONE32};
    return &L->lv[L->nlv++];
}

/* Which declaration a symbol of function fi names: function variable, parameter, return
   parameter or module variable (innermost first, as the parser scoped them). */
int lk_lookup_sym(struct lctx *L, uint32_t fi, int32_t sym, uint32_t *idx)
{
    const struct ptx_module *m = L->m;
    if (sym < 0 || (uint32_t)sym >= m->nstrs)
        return SK_NONE;
    const char *name = m->strs[sym];
    size_t len = strlen(name);
    int32_t e = ntab_get(&lk_fl(L, fi)->names, name, len);
    if (e != NTAB_NONE)
        return *idx = (uint32_t)e >> 2, e & 3;
    e = ntab_get(&m->names->vars, name, len);
    if (e != NTAB_NONE && (uint32_t)e < m->nvars)
        return *idx = (uint32_t)e, SK_MVAR;
    return SK_NONE;
}

/* Check the symbols of one reachable function and mark the variables it names. */
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
            int kind = lk_lookup_sym(L, fi, o->sym, &idx);
            if (kind == SK_NONE)
                lk_fail(L, in->line, "undefined symbol '%s'",
                      (uint32_t)o->sym < L->m->nstrs ? L->m->strs[o->sym] : "?");
            int32_t v = kind == SK_FVAR ? lk_fl(L, fi)->vars[idx] : kind == SK_MVAR ? (int32_t)idx : -1;
            if (v >= 0)
                lk_var(L, v);
        }
    }
}

/* The size of a call's .param argument or return variable sym of function fi (0: not one). */
static uint64_t param_size(struct lctx *L, uint32_t fi, int32_t sym)
{
    uint32_t idx;
    int k = lk_lookup_sym(L, fi, sym, &idx);
    const struct ptx_func *f = &L->m->funcs[fi];
    if (k == SK_PARAM)
        return f->params[idx].size;
    if (k == SK_RET)
        return f->rets[idx].size;
    if (k == SK_FVAR && L->m->vars[lk_fl(L, fi)->vars[idx]].space == PS_PARAM)
        return L->m->vars[lk_fl(L, fi)->vars[idx]].size;
    return 0;
}

/* A call of the .extern vprintf the module does not define (device printf, ptx.h OP_PRINTF):
   1 when it has vprintf's shape -- two 64-bit arguments (.param variables or registers) and
   at most one 32-bit result -- 0 when the callee is another name, an error otherwise. */
int lk_is_vprintf(struct lctx *L, uint32_t fi, const struct ptx_call *cl)
{
    const struct ptx_module *m = L->m;
    const struct ptx_func *f = &m->funcs[fi];
    if (cl->callee < 0 || (uint32_t)cl->callee >= m->nstrs || strcmp(m->strs[cl->callee], "vprintf"))
        return 0;
    int ok = cl->nargs == 2 && cl->nrets <= 1 &&
             (cl->nrets == 0 || param_size(L, fi, cl->rets[0]) >= 4);
    for (uint32_t a = 0; ok && a < cl->nargs; a++)
        ok = cl->arg_is_reg[a] ? cl->args[a] >= 0 && (uint32_t)cl->args[a] < f->nregs
                               : param_size(L, fi, cl->args[a]) >= 8;
    if (!ok)
        lk_fail(L, f->line, "call to vprintf in '%s' is not vprintf(.param .b64 format, .param "
                ".b64 arguments) -> .param .b32", f->name);
    return 1;
}

/* Depth-first walk of the call graph from fi: errors for undefined, recursive or badly
   called functions. */
static void walk_calls(struct lctx *L, uint32_t fi, uint32_t depth)
{
    const struct ptx_module *m = L->m;
    const struct ptx_func *f = &m->funcs[fi];
    lk_fl(L, fi)->state = 1;
    scan_symbols(L, fi);
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const struct ptx_insn *in = &f->insns[i];
        if (in->op != OP_CALL)
            continue;
        if (in->opd[0].imm < 0 || (uint64_t)in->opd[0].imm >= f->ncalls)
            lk_fail(L, in->line, "bad call");
        const struct ptx_call *cl = &f->calls[in->opd[0].imm];
        const char *name = (cl->callee >= 0 && (uint32_t)cl->callee < m->nstrs) ? m->strs[cl->callee] : "?";
        int32_t g = lk_func_of_sym(L, cl->callee);
        if (g < 0 && lk_is_vprintf(L, fi, cl))
            continue;
        if (g < 0)
            lk_fail(L, in->line, "call to undefined function '%s'", name);
        const struct ptx_func *gf = &m->funcs[g];
        if (gf->is_entry)
            lk_fail(L, in->line, "call to .entry '%s'", name);
        if (lk_fl(L, (uint32_t)g)->state == 1)
            lk_fail(L, in->line, "recursive call to '%s' (recursion cannot be inlined)", name);
        if (cl->nargs != gf->nparams)
            lk_fail(L, in->line, "call to '%s' with %u arguments, expected %u", name,
                  (unsigned)cl->nargs, (unsigned)gf->nparams);
        if (cl->nrets > gf->nrets)
            lk_fail(L, in->line, "call to '%s' expects %u return values, the function has %u", name,
                  (unsigned)cl->nrets, (unsigned)gf->nrets);
        for (uint32_t a = 0; a < cl->nargs; a++) {
            uint32_t idx;
            if (cl->arg_is_reg[a]) {
                if (gf->params[a].size > 8 || cl->args[a] < 0 || (uint32_t)cl->args[a] >= f->nregs)
                    lk_fail(L, in->line, "bad register argument %u in call to '%s'", a + 1, name);
                continue;
            }
            int k = lk_lookup_sym(L, fi, cl->args[a], &idx);
            int ok = k == SK_PARAM || k == SK_RET
                  || (k == SK_FVAR && m->vars[lk_fl(L, fi)->vars[idx]].space == PS_PARAM);
            if (!ok)
                lk_fail(L, in->line, "argument %u of call to '%s' is not a .param variable", a + 1, name);
        }
        for (uint32_t r = 0; r < cl->nrets; r++) {
            uint32_t idx;
            int k = lk_lookup_sym(L, fi, cl->rets[r], &idx);
            if (!(k == SK_RET || (k == SK_FVAR && m->vars[lk_fl(L, fi)->vars[idx]].space == PS_PARAM)))
                lk_fail(L, in->line, "return value %u of call to '%s' is not a .param variable", r + 1, name);
        }
        if (lk_fl(L, (uint32_t)g)->state == 0) {
            if (depth + 1 >= MAX_CALL_DEPTH)
                lk_fail(L, in->line, "calls nested too deeply");
            walk_calls(L, (uint32_t)g, depth + 1);
        }
    }
    lk_fl(L, fi)->state = 2;
}

static int cmp_lvar(const void *a, const void *b)
{
    int32_t x = ((const struct lvar *)a)->v, y = ((const struct lvar *)b)->v;
    return (x > y) - (x < y);
}

/* The variables the walk found named, in declaration order (their table made again). */
static void sort_used(struct lctx *L)
{
    if (L->nlv)
        qsort(L->lv, L->nlv, sizeof *L->lv, cmp_lvar);
    ntab_free(&L->lv_of);
    for (uint32_t i = 0; i < L->nlv; i++) {
        int32_t *at = ntab_ref_u32(&L->lv_of, (uint32_t)L->lv[i].v);
        if (!at)
            lk_fail(L, 0, "out of memory");
        *at = (int32_t)i;
    }
}

/* Static shared layout: used variables in declaration order, each at its alignment. */
static void layout_shared(struct lctx *L)
{
    const struct ptx_module *m = L->m;
    uint64_t off = 0;
    for (uint32_t i = 0; i < L->nlv; i++) {
        int32_t v = L->lv[i].v;
        const struct ptx_var *var = &m->vars[v];
        if (var->space != PS_SHARED || var->is_extern)
            continue;
        off = lk_align_up(off, var->align ? var->align : 1);
        L->lv[i].shared_off = (uint32_t)off;
        lk_add_sym(L, var->name, 0, PS_SHARED, v, var->type, var->align, off, var->size);
        off += var->size;
        if (off > MAX_FRAME_BYTES)
            lk_fail(L, 0, "shared memory too large");
    }
    L->p->shared_static = (uint32_t)off;
    L->dyn_base = (uint32_t)lk_align_up(off, 16);
}

/* The .extern .shared, .global and .const variables the program names, into the symbol table. */
static void module_syms(struct lctx *L)
{
    const struct ptx_module *m = L->m;
    for (uint32_t i = 0; i < L->nlv; i++) {
        int32_t v = L->lv[i].v;
        const struct ptx_var *var = &m->vars[v];
        if (var->space == PS_SHARED && var->is_extern)
            lk_add_sym(L, var->name, 0, PS_SHARED, v, var->type, var->align, L->dyn_base, 0);
        else if (var->space == PS_GLOBAL || var->space == PS_CONST)
            lk_add_sym(L, var->name, 0, var->space, v, var->type, var->align, var->addr,
                       var->size);
    }
}

/* ------------------------------------------------------------------ symbol table */

void lk_add_sym(struct lctx *L, const char *name, uint32_t id, uint8_t space, int32_t var,
                uint8_t type, uint32_t align, uint64_t addr, uint64_t size)
{
    struct ptx_prog *p = L->p;
    p->syms = lk_grow(L, p->syms, &L->cap_syms, (uint64_t)p->nsyms + 1, sizeof *p->syms);
    struct ptx_sym *s = &p->syms[p->nsyms++];
    if (id)
        snprintf(s->name, sizeof s->name, "%.80s_i%u", name, (unsigned)id);
    else
        snprintf(s->name, sizeof s->name, "%s", name);
    s->space = space;
    s->type = type;
    s->is_extern = var >= 0 && L->m->vars[var].is_extern;
    s->align = align ? align : 1;
    s->addr = addr;
    s->size = size;
    s->var = var;
}

void lk_frame_syms(struct lctx *L, const struct inst *I)
{
    const struct flayout *fl = lk_fl(L, I->fi);
    for (uint32_t k = 0; k < fl->nvars; k++) {
        const struct ptx_var *v = &L->m->vars[fl->vars[k]];
        if (v->space == PS_LOCAL)
            lk_add_sym(L, v->name, I->id, PS_LOCAL, fl->vars[k], v->type, v->align,
                       I->local_base + fl->off[k], v->size);
        else if (v->space == PS_PARAM)
            lk_add_sym(L, v->name, I->id, PS_PARAM, fl->vars[k], v->type, v->align,
                       PTX_PSCRATCH_BASE + I->ps_base + fl->off[k], v->size);
    }
}

/* ------------------------------------------------------------------ entry points */

static void free_lctx(struct lctx *L)
{
    for (uint32_t f = 0; f < L->nfl; f++)
        if (L->fl[f]) {
            free(L->fl[f]->vars);
            free(L->fl[f]->off);
            ntab_free(&L->fl[f]->names);
            free(L->fl[f]);
        }
    free(L->fl);
    ntab_free(&L->fl_of);
    free(L->lv);
    ntab_free(&L->lv_of);
    free(L->pool);
    free(L->fix);
}

/* A thread has one carry flag (CC.CF): every carry operand of the kernel -- each { } block's
   and each inlined call's %gs_cc (ptx.h) -- becomes the first of them, named PTX_CARRY_NAME;
   the others, now unused, are renamed so that the printed text's %gs_cc is that one. */
static void one_carry_flag(struct ptx_prog *p)
{
    int32_t cf = -1;
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        struct ptx_insn *in = &p->insns[pc];
        int k = ptx_insn_carry(in);
        if (k < 0 || in->opd[k].kind != OPD_REG)
            continue;
        if (cf < 0 || in->opd[k].reg < cf)
            cf = in->opd[k].reg;
    }
    if (cf < 0)
        return;
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        struct ptx_insn *in = &p->insns[pc];
        int k = ptx_insn_carry(in);
        if (k >= 0 && in->opd[k].kind == OPD_REG)
            in->opd[k].reg = cf;
    }
    if (!p->reg_name)
        return;
    for (uint32_t r = 0; r < p->nregs; r++)
        if (r != (uint32_t)cf && !strncmp(p->reg_name[r], PTX_CARRY_NAME, strlen(PTX_CARRY_NAME)))
            snprintf(p->reg_name[r], sizeof p->reg_name[r], "%%gs_unused%u", (unsigned)r);
    snprintf(p->reg_name[cf], sizeof p->reg_name[cf], "%s", PTX_CARRY_NAME);
}

static void link_kernel(struct lctx *L, const char *kernel)
{
    const struct ptx_module *m = L->m;
    struct ptx_prog *p = L->p;
    if (!m->names)
        lk_fail(L, 0, "module without a name index (not made by ptx_parse)");
    int32_t entry = ntab_get(&m->names->funcs, kernel, strlen(kernel));
    if (entry < 0 || (uint32_t)entry >= m->nfuncs)
        lk_fail(L, 0, "no kernel named '%s'", kernel);
    const struct ptx_func *ef = &m->funcs[entry];
    if (!ef->is_entry)
        lk_fail(L, ef->line, "'%s' is a .func, not a kernel (.entry)", kernel);
    snprintf(p->name, sizeof p->name, "%s", ef->name);
    p->mod = m;
    walk_calls(L, (uint32_t)entry, 0);
    sort_used(L);
    layout_shared(L);
    module_syms(L);

    p->nparams = ef->nparams;
    p->param_size = ef->param_size;
    p->params = lcalloc(L, ef->nparams, sizeof *p->params);
    if (ef->nparams)
        memcpy(p->params, ef->params, ef->nparams * sizeof *p->params);

    struct inst K;
    memset(&K, 0, sizeof K);
    K.fi = (uint32_t)entry;
    K.reg_base = lk_new_regs(L, K.fi, 0);
    const struct flayout *kl = lk_fl(L, K.fi);
    K.local_base = lk_alloc_local(L, kl->local_size, kl->local_align);
    K.ps_base = lk_alloc_pscratch(L, kl->ps_size, kl->ps_align);
    lk_frame_syms(L, &K);
    lk_emit_instance(L, &K, 0);

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
        struct ptx_insn x = lk_make_bra(-1, 0, p->ninsns ? p->insns[p->ninsns - 1].line : ef->line);
        x.op = OP_EXIT;
        x.nopd = 0;
        x.opd[0].kind = OPD_NONE;
        lk_emit(L, &x);
    }
    one_carry_flag(p);
    p->local_size = (uint32_t)L->local_total;
    p->pscratch_size = (uint32_t)L->ps_total;
    p->regs_per_thread = ptx_estimate_regs(p);
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
    free(prog->syms);
    free(prog->insn_func_line);
    memset(prog, 0, sizeof *prog);
}
