/*
 * ptx_decl.c -- the PTX parser's scopes and declarations: .reg (with %r<N> ranges), variables
 * of every state space with alignment, arrays and initializers, and .param lists of
 * .entry/.func headers with their natural offsets.
 *
 * Not a hardware block.  A stack of declarations: `{ }` blocks push and pop, so call
 * sequences can redeclare "param0"; a function-scope variable gets a name unique in its
 * function ("param0#3") so that the linker can tell the declarations apart.
 */
#include "ptx_parse_priv.h"
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ scopes */

void px_push_scope(struct pctx *c)
{
    if (c->depth + 1 >= MAX_SCOPE)
        px_fail(c, c->t.line, "blocks nested too deeply");
    c->scope[++c->depth] = c->ndecls;
}

void px_pop_scope(struct pctx *c)
{
    c->ndecls = c->scope[c->depth--];
}

/* Does decl d name `s`? For a range, *sub gets the register number. */
static int decl_match(const struct decl *d, const char *s, size_t len, uint32_t *sub)
{
    if (d->kind != D_RANGE) {
        *sub = 0;
        return d->len == len && memcmp(d->name, s, len) == 0;
    }
    if (len <= d->len || memcmp(d->name, s, d->len) != 0)
        return 0;
    const char *q = s + d->len;
    size_t nd = len - d->len;
    if (nd > 9 || (q[0] == '0' && nd > 1))
        return 0;
    uint32_t v = 0;
    for (size_t i = 0; i < nd; i++) {
        if (!is_digit((uint8_t)q[i]))
            return 0;
        v = v * 10 + (uint32_t)(q[i] - '0');
    }
    if (v >= d->count)
        return 0;
    *sub = v;
    return 1;
}

/* Innermost declaration of a name, searching scopes from `from` (index into decls) down. */
static const struct decl *lookup_from(struct pctx *c, const char *s, size_t len, uint32_t lo,
                                      uint32_t *sub)
{
    for (uint32_t i = c->ndecls; i > lo; i--)
        if (decl_match(&c->decls[i - 1], s, len, sub))
            return &c->decls[i - 1];
    return NULL;
}

const struct decl *px_lookup(struct pctx *c, const char *s, size_t len, uint32_t *sub)
{
    return lookup_from(c, s, len, 0, sub);
}

/* Declaring a range prefix "P" with count N collides with a name "P<k>", k < N, or another
   range with the same prefix, in the current scope. */
static void check_dup(struct pctx *c, const char *s, size_t len, uint32_t count, int is_range,
                      uint32_t line)
{
    uint32_t lo = c->scope[c->depth], sub;
    for (uint32_t i = lo; i < c->ndecls; i++) {
        const struct decl *d = &c->decls[i];
        int clash;
        if (!is_range) {
            clash = decl_match(d, s, len, &sub);
        } else if (d->kind == D_RANGE) {
            clash = d->len == len && memcmp(d->name, s, len) == 0;
        } else {
            struct decl tmp = {s, (uint32_t)len, D_RANGE, count, 0, -1};
            clash = decl_match(&tmp, d->name, d->len, &sub);
        }
        if (clash)
            px_fail(c, line, "duplicate declaration of '%.*s'", (int)len, s);
    }
}

void px_add_decl(struct pctx *c, const char *s, size_t len, uint8_t kind, uint32_t count,
                     int32_t idx, int32_t sym)
{
    c->decls = px_grow(c, c->decls, &c->cap_decls, (uint64_t)c->ndecls + 1, sizeof *c->decls);
    struct decl *d = &c->decls[c->ndecls++];
    d->name = s;
    d->len = (uint32_t)len;
    d->kind = kind;
    d->count = count;
    d->idx = idx;
    d->sym = sym;
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
    check_dup(c, s, len, count, count != 0, line);
    f->regs = px_grow(c, f->regs, &c->cap_regs, (uint64_t)f->nregs + n, sizeof *f->regs);
    for (uint32_t i = 0; i < n; i++) {
        struct ptx_regdecl *r = &f->regs[f->nregs + i];
        if (count)
            snprintf(r->name, sizeof r->name, "%.*s%u", (int)len, s, i);
        else
            snprintf(r->name, sizeof r->name, "%.*s", (int)len, s);
        r->type = type;
    }
    px_add_decl(c, s, len, count ? D_RANGE : D_REG, count, (int32_t)f->nregs, -1);
    f->nregs += n;
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
   variable of the current function?  (Function-scope names must be unique for the linker.) */
static int var_name_taken(struct pctx *c, const char *name)
{
    struct ptx_module *m = c->m;
    for (uint32_t i = 0; i < m->nvars; i++)
        if ((m->vars[i].func == -1 || m->vars[i].func == c->fidx) && !strcmp(m->vars[i].name, name))
            return 1;
    if (c->fidx >= 0) {
        const struct ptx_func *f = curf(c);
        for (uint32_t i = 0; i < f->nparams; i++)
            if (!strcmp(f->params[i].name, name))
                return 1;
        for (uint32_t i = 0; i < f->nrets; i++)
            if (!strcmp(f->rets[i].name, name))
                return 1;
    }
    return 0;
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
    check_dup(c, s, len, 0, 0, line);
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
        for (uint32_t i = 0; i < *n; i++)
            if (!strcmp((*arr)[i].name, p->name))
                px_fail(c, c->t.line, "duplicate parameter '%s'", p->name);
        (*n)++;
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
