/*
 * ptx_decl.c -- the PTX parser's scopes and declarations: .reg (with %r<N> ranges), variables
 * of every state space with alignment, arrays and initializers, and .param lists of
 * .entry/.func headers with their natural offsets.
 *
 * Not a hardware block.  A stack of declarations: `{ }` blocks push and pop, so call
 * sequences can redeclare "param0"; a function-scope variable gets a name unique in its
 * function ("param0#3") so that the linker can tell the declarations apart.  Every look-up
 * (a name in scope, a duplicate, a variable's unique name, a parameter) is a probe of a name
 * table (ptx_ntab.h), so declaring and using n names costs O(n).
 */
#include "ptx_parse_priv.h"
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ scopes */

/* Look-ups go through two name tables (ptx_ntab.h): plain names and range prefixes, each to
   the innermost declaration; a declaration keeps the one it shadows (prev), so popping a
   scope restores them. */
static struct ntab *decl_tab(struct pctx *c, const struct decl *d)
{
    return d->kind == D_RANGE ? &c->dranges : &c->dnames;
}

static int32_t *decl_ref(struct pctx *c, struct ntab *t, const char *s, size_t len)
{
    int32_t *v = ntab_ref(t, s, len);
    if (!v)
        px_fail(c, c->t.line, "out of memory");
    return v;
}

void px_push_scope(struct pctx *c)
{
    if (c->depth + 1 >= MAX_SCOPE)
        px_fail(c, c->t.line, "blocks nested too deeply");
    c->scope[++c->depth] = c->ndecls;
}

void px_pop_scope(struct pctx *c)
{
    uint32_t lo = c->scope[c->depth--];
    while (c->ndecls > lo) {
        const struct decl *d = &c->decls[--c->ndecls];
        *decl_ref(c, decl_tab(c, d), d->name, d->len) = d->prev;
    }
}

/* The innermost range declaration P<N> with N > v, P = s[0, plen), above index `above`. */
static int32_t range_match(struct pctx *c, const char *s, size_t plen, uint32_t v, int32_t above)
{
    for (int32_t i = ntab_get(&c->dranges, s, plen); i != NTAB_NONE && i > above;
         i = c->decls[i].prev) {
        ntab_work_add(1);
        if (v < c->decls[i].count)
            return i;
    }
    return NTAB_NONE;
}

/* Innermost declaration of a name: a plain one, or a register of a range P<N> (the name is P
   followed by a number below N, at most 9 digits and no leading zero; *sub gets it). */
const struct decl *px_lookup(struct pctx *c, const char *s, size_t len, uint32_t *sub)
{
    int32_t best = ntab_get(&c->dnames, s, len);
    *sub = 0;
    uint32_t v = 0, pow = 1;
    for (size_t k = 1; k <= 9 && k < len && is_digit((uint8_t)s[len - k]); k++, pow *= 10) {
        v += (uint32_t)(s[len - k] - '0') * pow;
        if (s[len - k] == '0' && k > 1)
            continue;
        int32_t r = range_match(c, s, len - k, v, best);
        if (r != NTAB_NONE) {
            best = r;
            *sub = v;
        }
    }
    return best == NTAB_NONE ? NULL : &c->decls[best];
}

/* A name already declared in the current scope is a duplicate. */
static void check_dup(struct pctx *c, const char *s, size_t len, uint32_t line)
{
    uint32_t sub;
    const struct decl *d = px_lookup(c, s, len, &sub);
    if (d && d - c->decls >= (ptrdiff_t)c->scope[c->depth])
        px_fail(c, line, "duplicate declaration of '%.*s'", (int)len, s);
}

/* Declaring a range prefix "P" collides with another range "P" in the current scope (its
   names "P<k>" are checked one by one as they are made, declare_regs). */
static void check_dup_range(struct pctx *c, const char *s, size_t len, uint32_t line)
{
    int32_t i = ntab_get(&c->dranges, s, len);
    if (i != NTAB_NONE && (uint32_t)i >= c->scope[c->depth])
        px_fail(c, line, "duplicate declaration of '%.*s'", (int)len, s);
}

void px_add_decl(struct pctx *c, const char *s, size_t len, uint8_t kind, uint32_t count,
                     int32_t idx, int32_t sym)
{
    c->decls = px_grow(c, c->decls, &c->cap_decls, (uint64_t)c->ndecls + 1, sizeof *c->decls);
    struct decl *d = &c->decls[c->ndecls];
    d->name = s;
    d->len = (uint32_t)len;
    d->kind = kind;
    d->count = count;
    d->idx = idx;
    d->sym = sym;
    int32_t *v = decl_ref(c, decl_tab(c, d), s, len);
    d->prev = *v;
    *v = (int32_t)c->ndecls++;
}

/* ------------------------------------------------------------------ declarations */

/* Add `count` registers named name (count == 0: the single name itself). */
static void declare_regs(struct pctx *c, const char *s, size_t len, uint8_t type, uint32_t count,
                         uint32_t line)
{
    struct ptx_func *f = curf(c);
    uint32_t n = count ? count : 1;
    if ((uint64_t)f->nregs + n > MAX_FUNC_REGS)
        px_fail(c, line, "too many registers in function '%s'", f->name);
    char digits[16];
    snprintf(digits, sizeof digits, "%u", n - 1);
    if (len + (count ? strlen(digits) : 0) >= sizeof f->regs[0].name)
        px_fail(c, line, "register name '%.*s' too long", (int)(len > 40 ? 40 : len), s);
    if (count)
        check_dup_range(c, s, len, line);
    else
        check_dup(c, s, len, line);
    f->regs = px_grow(c, f->regs, &c->cap_regs, (uint64_t)f->nregs + n, sizeof *f->regs);
    for (uint32_t i = 0; i < n; i++) {
        struct ptx_regdecl *r = &f->regs[f->nregs + i];
        r->type = type;
        if (!count) {
            snprintf(r->name, sizeof r->name, "%.*s", (int)len, s);
            continue;
        }
        int k = snprintf(r->name, sizeof r->name, "%.*s%u", (int)len, s, i);
        int32_t d = ntab_get(&c->dnames, r->name, (size_t)k);     /* a plain name P<i> */
        if (d != NTAB_NONE && (uint32_t)d >= c->scope[c->depth])
            px_fail(c, line, "duplicate declaration of '%.*s'", (int)len, s);
    }
    px_add_decl(c, s, len, count ? D_RANGE : D_REG, count, (int32_t)f->nregs, -1);
    f->nregs += n;
}

/* The carry flag's register for an instruction with .cc or carry in (ptx.h): the innermost
   predicate register named PTX_CARRY_NAME, declared in the current scope where there is
   none (a function has its own; a { } block's lasts to its end). */
int32_t px_carry_reg(struct pctx *c, uint32_t line)
{
    static const char name[] = PTX_CARRY_NAME;
    uint32_t sub;
    const struct decl *d = px_lookup(c, name, sizeof name - 1, &sub);
    if (d && d->kind == D_REG && curf(c)->regs[d->idx].type == PT_PRED)
        return d->idx;
    declare_regs(c, name, sizeof name - 1, PT_PRED, 0, line);
    return (int32_t)curf(c)->nregs - 1;
}

/* .reg .type a, b<N>, ...; */
void px_parse_reg_decl(struct pctx *c)
{
    uint32_t line = c->t.line;
    char b[64];
    px_next(c);
    if (dir_is(&c->t, ".v2") || dir_is(&c->t, ".v4"))
        px_fail(c, line, "unsupported: vector registers");
    uint8_t type = px_type_of(&c->t);
    if (!type)
        px_fail(c, line, "expected a register type after .reg, found '%s'", px_tok_show(&c->t, b, sizeof b));
    px_next(c);
    for (;;) {
        char name[64];
        px_take_ident(c, name, 32, "register name");
        size_t len = c->t.len;
        const char *s = c->t.s;
        px_next(c);
        uint32_t count = 0;
        if (is_punct(&c->t, '<')) {
            px_next(c);
            uint64_t n = px_take_uint(c, "register count", UINT32_MAX);
            if (n > MAX_REG_RANGE)
                px_fail(c, line, "register range %%%s<%llu> too large (at most %u)", name[0] == '%' ? name + 1 : name,
                     (unsigned long long)n, MAX_REG_RANGE);
            if (n == 0)
                px_fail(c, line, "empty register range");
            px_expect_punct(c, '>');
            count = (uint32_t)n;
        }
        declare_regs(c, s, len, type, count, line);
        if (is_punct(&c->t, ',')) {
            px_next(c);
            continue;
        }
        px_expect_punct(c, ';');
        return;
    }
}

/* Write one initializer value (element type `type`) at dst. */
static void put_init(struct pctx *c, uint8_t *dst, uint8_t type, const struct tok *t, int neg)
{
    uint64_t bits = 0;
    unsigned sz = tsize(type);
    if (type == PT_F32 || type == PT_F64) {
        double v;
        if (t->lit == LIT_F32 && type == PT_F32) {
            bits = t->u ^ (neg ? 0x80000000u : 0);
            goto store;
        }
        if (t->lit == LIT_F64 && type == PT_F64) {
            bits = t->u ^ (neg ? 0x8000000000000000ull : 0);
            goto store;
        }
        if (t->lit == LIT_F32) {
            float f;
            uint32_t u = (uint32_t)t->u;
            memcpy(&f, &u, 4);
            v = f;
        } else if (t->lit == LIT_F64) {
            memcpy(&v, &t->u, 8);
        } else if (t->lit == LIT_FLT) {
            v = t->d;
        } else {
            v = (double)t->u;
        }
        if (neg)
            v = -v;
        if (type == PT_F32) {
            float f = (float)v;
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        } else {
            memcpy(&bits, &v, 8);
        }
    } else {
        if (t->lit == LIT_FLT)
            px_fail(c, t->line, "floating-point initializer for an integer variable");
        bits = neg ? (uint64_t)0 - t->u : t->u;
    }
store:
    for (unsigned i = 0; i < sz; i++)
        dst[i] = (uint8_t)(bits >> (8 * i));
}


/* Initializer values: a scalar or a (nested) brace list, collected in c->ivals (the sign of
   a negated value is carried in tok.c). */
static void parse_init_list(struct pctx *c, uint32_t *nv, int depth)
{
    char b[64];
    if (depth > 8)
        px_fail(c, c->t.line, "initializer nested too deeply");
    if (is_punct(&c->t, '{')) {
        px_next(c);
        if (is_punct(&c->t, '}')) {
            px_next(c);
            return;
        }
        for (;;) {
            parse_init_list(c, nv, depth + 1);
            if (is_punct(&c->t, ',')) {
                px_next(c);
                continue;
            }
            px_expect_punct(c, '}');
            return;
        }
    }
    int neg = 0;
    if (is_punct(&c->t, '-')) {
        neg = 1;
        px_next(c);
    }
    if (c->t.kind == T_IDENT)
        px_fail(c, c->t.line, "unsupported initializer '%s' (only numbers)", px_tok_show(&c->t, b, sizeof b));
    if (c->t.kind != T_NUM)
        px_fail(c, c->t.line, "bad initializer '%s'", px_tok_show(&c->t, b, sizeof b));
    c->ivals = px_grow(c, c->ivals, &c->cap_ivals, (uint64_t)*nv + 1, sizeof *c->ivals);
    c->ivals[*nv] = c->t;
    c->ivals[*nv].c = (char)neg;
    (*nv)++;
    px_next(c);
}

static int32_t new_var(struct pctx *c)
{
    struct ptx_module *m = c->m;
    m->vars = px_grow(c, m->vars, &c->cap_vars, (uint64_t)m->nvars + 1, sizeof *m->vars);
    memset(&m->vars[m->nvars], 0, sizeof m->vars[0]);
    return (int32_t)m->nvars++;
}

/* Is `name` already taken by a module variable, a parameter of the current function or a
   variable of the current function?  (Function-scope names must be unique for the linker.)
   c->fnames holds the function's names (parse_function adds the parameters). */
static int var_name_taken(struct pctx *c, const char *name)
{
    size_t n = strlen(name);
    return ntab_get(&c->m->names->vars, name, n) != NTAB_NONE
        || (c->fidx >= 0 && ntab_get(&c->fnames, name, n) != NTAB_NONE);
}

struct vattr { uint8_t space, type, is_extern; unsigned vecn; uint64_t align; };

/* One declared name of a variable declaration: dims, initializer, then the ptx_var. */
static void parse_one_var(struct pctx *c, const struct vattr *a, int in_func)
{
    char name[96];
    px_take_ident(c, name, sizeof name, "variable name");
    const char *s = c->t.s;
    size_t len = c->t.len;
    uint32_t line = c->t.line;
    px_next(c);
    uint64_t esz = (uint64_t)tsize(a->type) * a->vecn, count = 1;
    int unsized = 0;
    while (is_punct(&c->t, '[')) {
        px_next(c);
        if (is_punct(&c->t, ']')) {
            if (unsized || count != 1)
                px_fail(c, line, "only the first dimension of '%s' may be unsized", name);
            unsized = 1;
        } else {
            uint64_t n = px_take_uint(c, "array size", MAX_VAR_BYTES);
            if (unsized)
                px_fail(c, line, "only the first dimension of '%s' may be unsized", name);
            count *= n;
            if (count * esz > MAX_VAR_BYTES)
                px_fail(c, line, "variable '%s' too large", name);
        }
        px_expect_punct(c, ']');
    }
    uint32_t nv = 0;
    int has_init = 0;
    if (is_punct(&c->t, '=')) {
        if (a->space != PS_GLOBAL && a->space != PS_CONST)
            px_fail(c, line, "initializer not allowed for variable '%s'", name);
        px_next(c);
        parse_init_list(c, &nv, 0);
        has_init = 1;
    }
    if (unsized) {
        if (has_init)
            count = (nv + a->vecn - 1) / a->vecn;
        else if (!(a->is_extern && a->space == PS_SHARED))
            px_fail(c, line, "unsized array '%s' (only .extern .shared may be unsized)", name);
        else
            count = 0;
    }
    uint64_t size = count * esz;
    if (has_init && nv > count * a->vecn)
        px_fail(c, line, "too many initializers for '%s'", name);
    if (has_init && size > MAX_INIT_BYTES)
        px_fail(c, line, "initialised variable '%s' too large", name);

    /* scope bookkeeping */
    check_dup(c, s, len, line);
    char uname[96];
    snprintf(uname, sizeof uname, "%s", name);
    if (in_func && var_name_taken(c, uname)) {
        char suffix[16];
        int n = snprintf(suffix, sizeof suffix, "#%u", ++c->uniq);
        if (strlen(name) + (size_t)n >= sizeof uname)
            px_fail(c, line, "variable name '%s' too long", name);
        memcpy(uname + strlen(name), suffix, (size_t)n + 1);
    } else if (!in_func && var_name_taken(c, uname)) {
        px_fail(c, line, "duplicate declaration of '%s'", name);
    }
    int32_t vi = new_var(c);
    struct ptx_var *v = &c->m->vars[vi];
    snprintf(v->name, sizeof v->name, "%s", uname);
    v->space = a->space;
    v->type = a->type;
    v->is_extern = a->is_extern;
    v->scratch = c->scratch_decl;
    v->align = (uint32_t)(a->align ? a->align : (esz ? (esz > 16 ? 16 : esz) : 1));
    if (!a->align && !is_pow2(v->align))
        v->align = tsize(a->type);
    v->size = size;
    v->func = in_func ? c->fidx : -1;
    if (has_init) {
        v->init = calloc(size ? size : 1, 1);
        if (!v->init)
            px_fail(c, line, "out of memory");
        unsigned ts = tsize(a->type);
        for (uint32_t i = 0; i < nv; i++)
            put_init(c, v->init + (uint64_t)i * ts, a->type, &c->ivals[i], c->ivals[i].c);
    }
    if (ntab_set(in_func ? &c->fnames : &c->m->names->vars, uname, strlen(uname), vi))
        px_fail(c, line, "out of memory");
    px_add_decl(c, s, len, D_VAR, 0, vi, px_intern(c, uname, strlen(uname)));
}

/* Variable declaration; the current token is the state space directive:
   .space [.align N] [.v2|.v4] .type name[N]... [= init] {, name ...} ; */
void px_parse_var_decl(struct pctx *c, uint8_t space, int is_extern, int in_func)
{
    uint32_t line = c->t.line;
    char b[64];
    struct vattr a = {space, 0, (uint8_t)is_extern, 1, 0};
    px_next(c);
    while (c->t.kind == T_DIR) {
        uint8_t ty = px_type_of(&c->t);
        if (dir_is(&c->t, ".align")) {
            px_next(c);
            a.align = px_take_uint(c, "alignment", MAX_ALIGN);
            if (!is_pow2(a.align))
                px_fail(c, line, "alignment %llu is not a power of two", (unsigned long long)a.align);
            continue;
        } else if ((dir_is(&c->t, ".v2") || dir_is(&c->t, ".v4")) && a.vecn == 1) {
            a.vecn = (unsigned)(c->t.s[2] - '0');
        } else if (dir_is(&c->t, ".ptr")) {
            /* pointer attribute: ignored */
        } else if (ty && ty != PT_PRED && !a.type) {
            a.type = ty;
        } else {
            px_fail(c, c->t.line, "unexpected '%s' in variable declaration", px_tok_show(&c->t, b, sizeof b));
        }
        px_next(c);
    }
    if (!a.type)
        px_fail(c, line, "missing type in variable declaration");
    for (;;) {
        parse_one_var(c, &a, in_func);
        if (is_punct(&c->t, ',')) {
            px_next(c);
            continue;
        }
        px_expect_punct(c, ';');
        return;
    }
}

/* ( .param .type [.align N] name[N], ... ) -> parameter array with natural offsets. */
void px_parse_params(struct pctx *c, struct ptx_param **arr, uint32_t *n, uint32_t *total)
{
    char b[64];
    uint32_t cap = 0;
    uint64_t off = 0;
    ntab_free(&c->pnames);
    px_expect_punct(c, '(');
    if (is_punct(&c->t, ')')) {
        px_next(c);
        *total = 0;
        return;
    }
    for (;;) {
        uint32_t line = c->t.line;
        if (dir_is(&c->t, ".reg"))
            px_fail(c, line, "unsupported: .reg parameters");
        if (!dir_is(&c->t, ".param")) {
            if (c->t.kind == T_EOF)
                px_fail(c, line, "unexpected end of file in parameter list");
            px_fail(c, line, "expected .param, found '%s'", px_tok_show(&c->t, b, sizeof b));
        }
        px_next(c);
        uint8_t type = 0;
        uint64_t align = 0;
        while (c->t.kind == T_DIR) {
            uint8_t ty = px_type_of(&c->t);
            if (dir_is(&c->t, ".align")) {
                px_next(c);
                align = px_take_uint(c, "alignment", MAX_ALIGN);
                if (!is_pow2(align))
                    px_fail(c, line, "alignment %llu is not a power of two", (unsigned long long)align);
                continue;
            }
            if (ty && ty != PT_PRED && !type)
                type = ty;
            else if (!(dir_is(&c->t, ".ptr") || dir_is(&c->t, ".global") || dir_is(&c->t, ".shared")
                       || dir_is(&c->t, ".const") || dir_is(&c->t, ".local")))
                px_fail(c, c->t.line, "unexpected '%s' in parameter", px_tok_show(&c->t, b, sizeof b));
            px_next(c);
        }
        if (!type)
            px_fail(c, line, "missing type in parameter");
        *arr = px_grow(c, *arr, &cap, (uint64_t)*n + 1, sizeof **arr);
        struct ptx_param *p = &(*arr)[*n];
        px_take_ident(c, p->name, sizeof p->name, "parameter name");
        int32_t *seen = ntab_ref(&c->pnames, p->name, strlen(p->name));
        if (!seen)
            px_fail(c, c->t.line, "out of memory");
        if (*seen != NTAB_NONE)
            px_fail(c, c->t.line, "duplicate parameter '%s'", p->name);
        *seen = (int32_t)(*n)++;
        px_next(c);
        uint64_t count = 1;
        if (is_punct(&c->t, '[')) {
            px_next(c);
            count = px_take_uint(c, "array size", MAX_PARAM_BYTES);
            if (count == 0)
                px_fail(c, line, "empty parameter array");
            px_expect_punct(c, ']');
        }
        uint64_t size = count * tsize(type);
        if (size > MAX_PARAM_BYTES)
            px_fail(c, line, "parameter '%s' too large", p->name);
        if (!align)
            align = tsize(type);
        p->type = type;
        p->align = (uint32_t)align;
        p->size = (uint32_t)size;
        off = align_up(off, align);
        p->offset = (uint32_t)off;
        off += size;
        if (off > MAX_PARAM_BYTES)
            px_fail(c, line, "parameters too large");
        if (is_punct(&c->t, ',')) {
            px_next(c);
            continue;
        }
        px_expect_punct(c, ')');
        break;
    }
    *total = (uint32_t)off;
}
