/*
 * ptx_parse.c -- PTX text -> struct ptx_module (the front end's parser).
 *
 * Not a hardware block.  Accepts the PTX that nvcc emits for ordinary kernels (see ptx.h for
 * the module form and the operand conventions) and rejects anything else with
 * "FILE:LINE: message".  One file per stage (ptx_parse_priv.h is what they share):
 *   ptx_lex.c     on-demand tokens (identifiers may carry dotted suffixes: "ld.global.u32",
 *                 "%tid.x"), numbers decoded in the lexer (0x.., 0f.., 0d.., decimal, floats)
 *   ptx_decl.c    a stack of declarations (registers, register ranges %r<N>, variables,
 *                 parameters); `{ }` blocks push and pop, so call sequences can redeclare
 *                 "param0" or "%temp".  Function-scope variables get a name unique inside the
 *                 module's view of that function ("param0#3") so the linker can tell the
 *                 declarations apart; registers are plain per-function indices.
 *   ptx_opcode.c  the dotted opcode decoded against a table of the modifiers each opcode
 *                 accepts; operands parsed generically
 *   ptx_insn.c    operands checked per opcode (operand count, kind, register size)
 *   ptx_parse.c   (this file) statements: module directives, .entry/.func headers and bodies,
 *                 labels, instructions, bra and call, .pragma groups; the entry points
 * Errors unwind with longjmp to ptx_parse, which frees the partial module.  No global state.
 */
#include "ptx_parse_priv.h"
#include "ptx_res.h"
#include <stdio.h>
#include <stdlib.h>

static void add_lref(struct pctx *c, uint32_t insn, uint8_t opd, int32_t sym, uint32_t line)
{
    c->lrefs = px_grow(c, c->lrefs, &c->cap_lrefs, (uint64_t)c->nlrefs + 1, sizeof *c->lrefs);
    struct lref *l = &c->lrefs[c->nlrefs++];
    l->insn = insn;
    l->opd = opd;
    l->sym = sym;
    l->line = line;
}

/* bra LABEL; */
static void parse_bra(struct pctx *c, struct ptx_insn *in)
{
    char b[64];
    if (c->t.kind != T_IDENT) {
        if (c->t.kind == T_EOF)
            px_fail(c, c->t.line, "unexpected end of file: missing ';'");
        px_fail(c, c->t.line, "bad operand '%s' of '%s': expected a label", px_tok_show(&c->t, b, sizeof b),
             c->opname);
    }
    uint8_t ty;
    if (px_find_reg(c, &c->t, &ty) >= 0)
        px_fail(c, c->t.line, "unsupported: indirect branch");
    in->opd[0].kind = OPD_LABEL;
    in->opd[0].sym = px_intern(c, c->t.s, c->t.len);
    in->opd[0].imm = -1;
    in->nopd = 1;
    add_lref(c, curf(c)->ninsns, 0, in->opd[0].sym, c->t.line);
    px_next(c);
    px_expect_punct(c, ';');
}

/* A call argument or return: a .param variable in scope (strs index) or a register. */
static int32_t call_param(struct pctx *c, uint8_t *is_reg)
{
    char b[64];
    uint32_t sub;
    if (c->t.kind != T_IDENT)
        px_unknown_name(c, &c->t);
    const struct decl *d = px_lookup(c, c->t.s, c->t.len, &sub);
    if (!d)
        px_unknown_name(c, &c->t);
    int32_t v;
    if (d->kind == D_REG || d->kind == D_RANGE) {
        *is_reg = 1;
        v = d->idx + (int32_t)sub;
    } else if (d->kind != D_VAR || c->m->vars[d->idx].space == PS_PARAM) {
        *is_reg = 0;
        v = d->sym;
    } else {
        px_fail(c, c->t.line, "bad call argument '%s' (not a .param variable)", px_tok_show(&c->t, b, sizeof b));
    }
    px_next(c);
    return v;
}

/* call[.uni] [(ret, ...),] func[, (arg, ...)]; */
static void parse_call(struct pctx *c, struct ptx_insn *in)
{
    struct ptx_call cl;
    memset(&cl, 0, sizeof cl);
    uint8_t isreg;
    if (is_punct(&c->t, '(')) {
        px_next(c);
        while (!is_punct(&c->t, ')')) {
            if (cl.nrets >= 4)
                px_fail(c, c->t.line, "too many return values in call");
            cl.rets[cl.nrets] = call_param(c, &isreg);
            if (isreg)
                px_fail(c, c->t.line, "unsupported: register as call return value");
            cl.nrets++;
            if (!is_punct(&c->t, ','))
                break;
            px_next(c);
        }
        px_expect_punct(c, ')');
        px_expect_punct(c, ',');
    }
    uint8_t ty;
    if (c->t.kind != T_IDENT)
        px_unknown_name(c, &c->t);
    if (px_find_reg(c, &c->t, &ty) >= 0)
        px_fail(c, c->t.line, "unsupported: indirect call");
    cl.callee = px_intern(c, c->t.s, c->t.len);
    px_next(c);
    if (is_punct(&c->t, ',')) {
        px_next(c);
        px_expect_punct(c, '(');
        while (!is_punct(&c->t, ')')) {
            if (cl.nargs >= PTX_MAX_CALL_ARGS)
                px_fail(c, c->t.line, "too many arguments in call");
            cl.args[cl.nargs] = call_param(c, &cl.arg_is_reg[cl.nargs]);
            cl.nargs++;
            if (!is_punct(&c->t, ','))
                break;
            px_next(c);
        }
        px_expect_punct(c, ')');
        if (is_punct(&c->t, ','))
            px_fail(c, c->t.line, "unsupported: call through a prototype (indirect call)");
    }
    px_expect_punct(c, ';');
    struct ptx_func *f = curf(c);
    f->calls = px_grow(c, f->calls, &c->cap_calls, (uint64_t)f->ncalls + 1, sizeof *f->calls);
    f->calls[f->ncalls] = cl;
    in->opd[0].kind = OPD_IMM;
    in->opd[0].imm = f->ncalls++;
    in->nopd = 1;
}

/* The instruction, with the .pragma statements since the last one. */
static void append_insn(struct pctx *c, const struct ptx_insn *in)
{
    struct ptx_func *f = curf(c);
    f->insns = px_grow(c, f->insns, &c->cap_insns, (uint64_t)f->ninsns + 1, sizeof *f->insns);
    f->insns[f->ninsns] = *in;
    f->insns[f->ninsns++].pragma = px_pragma_group(c, &c->pend);
}

static void init_insn(struct ptx_insn *in, uint32_t line)
{
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->line = line;
    for (int i = 0; i < PTX_MAX_OPERANDS; i++)
        in->opd[i].reg = -1, in->opd[i].sym = -1;
}

/* .pragma in a body.  Two are the printer's (ptx_print.c; ptxas ignores a pragma it does not
   know, with a warning):
     .pragma "gpusim nop";             a nop (PTX has no nop instruction)
     .pragma "gpusim param_scratch";   the .local declaration that follows is param scratch
                                       of inlined calls: a .param variable, and ld.local/st.local
                                       of it are ld.param/st.param (ptxas takes .param
                                       variables only in call sequences)
   Any other ("nounroll") belongs to the instruction that follows (ptx_insn.pragma): ptxas
   reads it for the block that instruction is in, so the printer writes it back there.  One
   after the last instruction of a body has no statement to apply to and is dropped. */
static void parse_body_pragma(struct pctx *c)
{
    struct tok nx = px_peek(c);
    uint32_t line = c->t.line;
    int nop = nx.kind == T_STR && tok_is(&nx, "\"gpusim nop\"");
    int scratch = nx.kind == T_STR && tok_is(&nx, "\"gpusim param_scratch\"");
    if (!nop && !scratch) {
        px_take_pragma(c, &c->pend);
        return;
    }
    px_next(c);
    px_next(c);
    px_expect_punct(c, ';');
    if (scratch) {
        if (!dir_is(&c->t, ".local"))
            px_fail(c, line, "'.pragma \"gpusim param_scratch\"' must precede a .local declaration");
        c->scratch_decl = 1;
        px_parse_var_decl(c, PS_PARAM, 0, 1);
        c->scratch_decl = 0;
        return;
    }
    struct ptx_insn in;
    init_insn(&in, line);
    in.op = OP_NOP;
    append_insn(c, &in);
}

static void parse_insn(struct pctx *c)
{
    char b[64];
    struct ptx_insn in;
    init_insn(&in, c->t.line);
    if (is_punct(&c->t, '@')) {
        px_next(c);
        if (is_punct(&c->t, '!')) {
            in.guard_neg = 1;
            px_next(c);
        }
        uint8_t ty = 0;
        if (c->t.kind != T_IDENT)
            px_unknown_name(c, &c->t);
        in.guard = px_find_reg(c, &c->t, &ty);
        if (in.guard < 0)
            px_unknown_name(c, &c->t);
        if (ty != PT_PRED)
            px_fail(c, c->t.line, "type mismatch: guard '%s' is .%s, needs .pred",
                 px_tok_show(&c->t, b, sizeof b), ptx_type_name((enum ptx_type)ty));
        px_next(c);
    }
    if (c->t.kind != T_IDENT) {
        if (c->t.kind == T_EOF)
            px_fail(c, c->t.line, "unexpected end of file: expected an instruction");
        px_fail(c, c->t.line, "expected an instruction, found '%s'", px_tok_show(&c->t, b, sizeof b));
    }
    in.line = c->t.line;
    struct opinfo oi;
    memset(&oi, 0, sizeof oi);
    const struct opspec *spec = px_decode_opcode(c, &in, &oi);
    px_next(c);
    if (in.op == OP_BRA) {
        parse_bra(c, &in);
    } else if (in.op == OP_CALL) {
        parse_call(c, &in);
    } else {
        struct raw r[MAX_RAW];
        int n = px_parse_operands(c, r);
        px_build_insn(c, spec, &in, &oi, r, n);
    }
    append_insn(c, &in);
}

/* LABEL: */
static void parse_label(struct pctx *c)
{
    struct ptx_func *f = curf(c);
    int32_t sym = px_intern(c, c->t.s, c->t.len);
    int32_t *at = ntab_ref_u32(&c->labels, (uint32_t)sym);
    if (!at)
        px_fail(c, c->t.line, "out of memory");
    if (*at != NTAB_NONE)
        px_fail(c, c->t.line, "duplicate label '%s'", c->m->strs[sym]);
    *at = (int32_t)f->nlabels;
    uint32_t cap1 = c->cap_labels, cap2 = c->cap_labels;
    f->labels = px_grow(c, f->labels, &cap1, (uint64_t)f->nlabels + 1, sizeof *f->labels);
    f->label_pos = px_grow(c, f->label_pos, &cap2, (uint64_t)f->nlabels + 1, sizeof *f->label_pos);
    c->cap_labels = cap1;
    f->labels[f->nlabels] = c->m->strs[sym];
    f->label_pos[f->nlabels] = f->ninsns;
    f->nlabels++;
    px_next(c);
    px_expect_punct(c, ':');
}

/* Statements up to the '}' closing the function body. */
static void parse_body(struct pctx *c)
{
    char b[64];
    uint32_t body = c->depth;
    for (;;) {
        struct tok *t = &c->t;
        if (t->kind == T_EOF)
            px_fail(c, t->line, "unexpected end of file: missing '}' at the end of function '%s'",
                 curf(c)->name);
        if (is_punct(t, '{')) {
            px_push_scope(c);
            px_next(c);
        } else if (is_punct(t, '}')) {
            px_next(c);
            if (c->depth == body)
                return;
            px_pop_scope(c);
        } else if (is_punct(t, ';')) {
            px_next(c);
        } else if (t->kind == T_DIR) {
            if (dir_is(t, ".reg"))
                px_parse_reg_decl(c);
            else if (dir_is(t, ".local"))
                px_parse_var_decl(c, PS_LOCAL, 0, 1);
            else if (dir_is(t, ".shared"))
                px_parse_var_decl(c, PS_SHARED, 0, 1);
            else if (dir_is(t, ".global"))
                px_parse_var_decl(c, PS_GLOBAL, 0, 1);
            else if (dir_is(t, ".const"))
                px_parse_var_decl(c, PS_CONST, 0, 1);
            else if (dir_is(t, ".param"))
                px_parse_var_decl(c, PS_PARAM, 0, 1);
            else if (dir_is(t, ".pragma"))
                parse_body_pragma(c);
            else if (dir_is(t, ".loc") || dir_is(t, ".file"))
                px_skip_line(c);
            else
                px_fail(c, t->line, "unexpected directive '%s' in function body", px_tok_show(t, b, sizeof b));
        } else if (is_punct(t, '@')) {
            parse_insn(c);
        } else if (t->kind == T_IDENT) {
            struct tok nx = px_peek(c);
            if (is_punct(&nx, ':'))
                parse_label(c);
            else
                parse_insn(c);
        } else {
            px_fail(c, t->line, "unexpected '%s' in function body", px_tok_show(t, b, sizeof b));
        }
    }
}

static void resolve_labels(struct pctx *c)
{
    struct ptx_func *f = curf(c);
    for (uint32_t i = 0; i < c->nlrefs; i++) {
        const struct lref *l = &c->lrefs[i];
        int32_t k = ntab_get_u32(&c->labels, (uint32_t)l->sym);
        if (k == NTAB_NONE)
            px_fail(c, l->line, "undefined label '%s'", c->m->strs[l->sym]);
        f->insns[l->insn].opd[l->opd].imm = f->label_pos[k];
    }
}

/* .maxntid / .reqntid / .minnctapersm ... between the header and the body */
static void parse_perf_directives(struct pctx *c, struct ptx_func *f)
{
    char b[64];
    while (c->t.kind == T_DIR) {
        uint32_t *dims = dir_is(&c->t, ".maxntid") ? f->maxntid
                       : dir_is(&c->t, ".reqntid") ? f->reqntid : NULL;
        if (dims) {
            px_next(c);
            for (int i = 0; i < 3; i++) {
                dims[i] = (uint32_t)px_take_uint(c, "thread count", 1u << 20);
                if (!is_punct(&c->t, ','))
                    break;
                px_next(c);
            }
            for (int i = 0; i < 3; i++)
                if (!dims[i])
                    dims[i] = 1;
        } else if (dir_is(&c->t, ".maxnreg") || dir_is(&c->t, ".minnctapersm")) {
            uint32_t *v = dir_is(&c->t, ".maxnreg") ? &f->maxnreg : &f->minnctapersm;
            px_next(c);
            *v = (uint32_t)px_take_uint(c, "count", 1u << 16);
            if (!*v)
                px_fail(c, c->t.line, "%s must be at least 1", v == &f->maxnreg ? ".maxnreg"
                        : ".minnctapersm");
        } else if (dir_is(&c->t, ".maxnctapersm") || dir_is(&c->t, ".maxclusterrank")) {
            uint32_t *v = dir_is(&c->t, ".maxnctapersm") ? &f->maxnctapersm : &f->maxclusterrank;
            px_next(c);
            *v = (uint32_t)px_take_uint(c, "count", UINT32_MAX);
        } else if (dir_is(&c->t, ".reqnctapercluster")) {
            px_next(c);
            for (int i = 0; i < 3; i++) {
                f->reqnctapercluster[i] = (uint32_t)px_take_uint(c, "count", UINT32_MAX);
                if (!is_punct(&c->t, ','))
                    break;
                px_next(c);
            }
        } else if (dir_is(&c->t, ".noreturn") || dir_is(&c->t, ".explicitcluster")) {
            *(dir_is(&c->t, ".noreturn") ? &f->noreturn : &f->explicitcluster) = 1;
            px_next(c);
        } else if (dir_is(&c->t, ".pragma")) {
            px_take_pragma(c, &c->pend);
        } else {
            px_fail(c, c->t.line, "unexpected '%s' in function header", px_tok_show(&c->t, b, sizeof b));
        }
    }
    f->pragma = px_pragma_group(c, &c->pend);
}

static void free_func(struct ptx_func *f)
{
    free(f->params);
    free(f->rets);
    free(f->regs);
    free(f->insns);
    free(f->labels);
    free(f->label_pos);
    free(f->calls);
    memset(f, 0, sizeof *f);
}

/* A function's parameters (or return parameters) in the scope of its body, their names
   taken for its variables. */
static void declare_params(struct pctx *c, const struct ptx_param *ps, uint32_t n, uint8_t kind)
{
    for (uint32_t i = 0; i < n; i++) {
        size_t len = strlen(ps[i].name);
        px_add_decl(c, ps[i].name, len, kind, 0, (int32_t)i, px_intern(c, ps[i].name, len));
        if (ntab_set(&c->fnames, ps[i].name, len, (int32_t)i))
            px_fail(c, c->t.line, "out of memory");
    }
}

/* .entry / .func: header, then a body or ';' (a prototype, which is not kept). */
static void parse_function(struct pctx *c, int is_entry)
{
    struct ptx_module *m = c->m;
    uint32_t line = c->t.line, dummy;
    px_next(c);
    m->funcs = px_grow(c, m->funcs, &c->cap_funcs, (uint64_t)m->nfuncs + 1, sizeof *m->funcs);
    uint32_t fi = m->nfuncs++;
    struct ptx_func *f = &m->funcs[fi];
    memset(f, 0, sizeof *f);
    f->is_entry = (uint8_t)is_entry;
    f->line = line;
    if (!is_entry && is_punct(&c->t, '('))
        px_parse_params(c, &f->rets, &f->nrets, &dummy);
    px_take_ident(c, f->name, sizeof f->name, "function name");
    px_next(c);
    if (is_punct(&c->t, '('))
        px_parse_params(c, &f->params, &f->nparams, &f->param_size);
    parse_perf_directives(c, f);
    if (is_punct(&c->t, ';')) {            /* prototype */
        free_func(f);
        m->nfuncs--;
        px_next(c);
        return;
    }
    if (!is_punct(&c->t, '{')) {
        char b[64];
        if (c->t.kind == T_EOF)
            px_fail(c, c->t.line, "unexpected end of file: missing '{' of function '%s'", f->name);
        px_fail(c, c->t.line, "expected '{' or ';' after function header, found '%s'",
             px_tok_show(&c->t, b, sizeof b));
    }
    int32_t *def = ntab_ref(&m->names->funcs, f->name, strlen(f->name));
    if (!def)
        px_fail(c, line, "out of memory");
    if (*def != NTAB_NONE)
        px_fail(c, line, "duplicate definition of function '%s'", f->name);
    *def = (int32_t)fi;
    c->fidx = (int32_t)fi;
    c->cap_insns = c->cap_regs = c->cap_labels = c->cap_calls = 0;
    c->nlrefs = 0;
    ntab_free(&c->fnames);
    ntab_free(&c->labels);
    px_push_scope(c);
    declare_params(c, f->params, f->nparams, D_PARAM);
    declare_params(c, f->rets, f->nrets, D_RET);
    f->var0 = m->nvars;
    px_next(c);
    px_push_scope(c);
    parse_body(c);
    c->pend.len = 0;                       /* a .pragma after the last instruction: dropped */
    f->nvar = m->nvars - f->var0;
    resolve_labels(c);
    while (c->depth > 0)
        px_pop_scope(c);
    c->fidx = -1;
}

static void parse_module(struct pctx *c)
{
    char b[64];
    struct ptx_module *m = c->m;
    if (c->t.kind == T_EOF)
        px_fail(c, 1, "empty PTX input");
    if (!dir_is(&c->t, ".version"))
        px_fail(c, c->t.line, "expected .version at the start of the module, found '%s'",
             px_tok_show(&c->t, b, sizeof b));
    int is_extern = 0, linkage = 0;
    while (c->t.kind != T_EOF) {
        struct tok *t = &c->t;
        if (t->kind != T_DIR)
            px_fail(c, t->line, "unexpected '%s' at module scope", px_tok_show(t, b, sizeof b));
        if (linkage && !(dir_is(t, ".entry") || dir_is(t, ".func") || dir_is(t, ".global")
                         || dir_is(t, ".const") || dir_is(t, ".shared") || dir_is(t, ".local")
                         || dir_is(t, ".visible") || dir_is(t, ".extern") || dir_is(t, ".weak")
                         || dir_is(t, ".common")))
            px_fail(c, t->line, "unexpected '%s' after a linkage directive", px_tok_show(t, b, sizeof b));
        if (dir_is(t, ".version")) {
            px_next(c);
            if (c->t.kind != T_NUM)
                px_fail(c, c->t.line, "expected a version number after .version");
            snprintf(m->version, sizeof m->version, "%.*s", (int)c->t.len, c->t.s);
            px_next(c);
        } else if (dir_is(t, ".target")) {
            px_next(c);
            px_take_ident(c, m->target, sizeof m->target, "target name");
            px_next(c);
            while (is_punct(&c->t, ',')) {
                px_next(c);
                px_take_ident(c, b, sizeof b, "target option");
                size_t n = strlen(m->target_opts);
                if (!strcmp(b, "debug")) {    /* goes with the debug sections, not kept */
                    px_next(c);
                    continue;
                }
                if (n + strlen(b) + 3 > sizeof m->target_opts)
                    px_fail(c, c->t.line, "too many .target options");
                snprintf(m->target_opts + n, sizeof m->target_opts - n, ", %s", b);
                px_next(c);
            }
        } else if (dir_is(t, ".address_size")) {
            px_next(c);
            uint64_t v = px_take_uint(c, "address size", 64);
            if (v != 32 && v != 64)
                px_fail(c, t->line, "bad .address_size %llu", (unsigned long long)v);
            m->address_size = (uint32_t)v;
        } else if (dir_is(t, ".file") || dir_is(t, ".loc")) {
            px_skip_line(c);
        } else if (dir_is(t, ".section")) {
            px_skip_section(c);
        } else if (dir_is(t, ".pragma")) {
            px_take_pragma(c, &c->mpend);
        } else if (dir_is(t, ".visible") || dir_is(t, ".extern") || dir_is(t, ".weak")
                   || dir_is(t, ".common")) {
            is_extern |= dir_is(t, ".extern");
            linkage = 1;
            px_next(c);
            if (c->t.kind == T_EOF)
                px_fail(c, c->t.line, "unexpected end of file after a linkage directive");
            continue;
        } else if (dir_is(t, ".entry") || dir_is(t, ".func")) {
            parse_function(c, dir_is(t, ".entry"));
        } else if (dir_is(t, ".global")) {
            px_parse_var_decl(c, PS_GLOBAL, is_extern, 0);
        } else if (dir_is(t, ".const")) {
            px_parse_var_decl(c, PS_CONST, is_extern, 0);
        } else if (dir_is(t, ".shared")) {
            px_parse_var_decl(c, PS_SHARED, is_extern, 0);
        } else if (dir_is(t, ".local")) {
            px_parse_var_decl(c, PS_LOCAL, is_extern, 0);
        } else {
            px_fail(c, t->line, "unexpected directive '%s' at module scope", px_tok_show(t, b, sizeof b));
        }
        is_extern = 0;
        linkage = 0;
    }
    m->pragma = px_pragma_group(c, &c->mpend);
}

/* ------------------------------------------------------------------ entry points */

void ptx_module_free(struct ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        free_func(&m->funcs[i]);
    free(m->funcs);
    for (uint32_t i = 0; i < m->nvars; i++)
        free(m->vars[i].init);
    free(m->vars);
    for (uint32_t i = 0; i < m->nstrs; i++)
        free(m->strs[i]);
    free(m->strs);
    for (uint32_t i = 0; i < m->npragmas; i++)
        free(m->pragmas[i]);
    free(m->pragmas);
    if (m->names) {
        ntab_free(&m->names->funcs);
        ntab_free(&m->names->vars);
        free(m->names);
    }
    char fname[sizeof m->filename];
    memcpy(fname, m->filename, sizeof fname);
    memset(m, 0, sizeof *m);
    memcpy(m->filename, fname, sizeof fname);
}

int ptx_parse(const char *text, size_t len, const char *filename, struct ptx_module *mod,
              char *err, size_t errlen)
{
    if (!mod)
        return -1;
    memset(mod, 0, sizeof *mod);
    struct pctx *c = calloc(1, sizeof *c);
    if (!c) {
        if (err && errlen)
            snprintf(err, errlen, "%s: out of memory", filename ? filename : "<input>");
        return -1;
    }
    c->fname = filename ? filename : "<input>";
    snprintf(mod->filename, sizeof mod->filename, "%s", c->fname);
    mod->text_hash = ptx_res_hash(text ? text : "", text ? len : 0);
    c->err = (err && errlen) ? err : c->errbuf;
    c->errlen = (err && errlen) ? errlen : sizeof c->errbuf;
    c->err[0] = 0;
    c->p = text ? text : "";
    c->end = c->p + (text ? len : 0);
    c->line = 1;
    c->m = mod;
    c->fidx = -1;
    int rc = 0;
    if (setjmp(c->jb) == 0) {
        if (!(mod->names = calloc(1, sizeof *mod->names)))
            px_fail(c, 1, "out of memory");
        px_next(c);
        parse_module(c);
    } else {
        rc = -1;
        ptx_module_free(mod);
    }
    ntab_free(&c->strtab);
    ntab_free(&c->dnames);
    ntab_free(&c->dranges);
    ntab_free(&c->fnames);
    ntab_free(&c->pnames);
    ntab_free(&c->labels);
    ntab_free(&c->prtab);
    free(c->pend.s);
    free(c->mpend.s);
    free(c->decls);
    free(c->lrefs);
    free(c->ivals);
    free(c);
    return rc;
}
