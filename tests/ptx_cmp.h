/*
 * ptx_cmp.h -- what test_ptx_print.c and test_ptx_rewrite.c share (header-only): comparing two
 * linked programs field by field, and the print -> parse -> link round trip of one.
 */
#ifndef PTX_CMP_H
#define PTX_CMP_H
#include "testutil.h"
#include "ptx/ptx.h"

static inline const char *opd_diff(const struct ptx_operand *a, const struct ptx_operand *b)
{
    if (a->kind != b->kind)
        return "operand kind";
    if (a->neg != b->neg)
        return "operand '!'";
    switch (a->kind) {
    case OPD_REG: return a->reg != b->reg ? "register" : NULL;
    case OPD_IMM: return a->imm != b->imm ? "immediate" : NULL;
    case OPD_SREG: return a->sreg != b->sreg || a->comp != b->comp ? "special register" : NULL;
    case OPD_ADDR:
        return a->reg != b->reg ? "address base" : a->imm != b->imm ? "address offset"
             : a->space != b->space ? "address space" : NULL;
    case OPD_SYMADDR: return a->imm != b->imm ? "address" : a->space != b->space ? "address space" : NULL;
    case OPD_LABEL: return a->imm != b->imm ? "branch target" : NULL;
    case OPD_VEC:
        if (a->nvec != b->nvec)
            return "vector length";
        for (unsigned e = 0; e < a->nvec && e < 4; e++)
            if (a->vec[e] != b->vec[e])
                return "vector element";
        return NULL;
    default: return NULL;
    }
}

static inline const char *insn_diff(const struct ptx_insn *a, const struct ptx_insn *b)
{
#define FIELD(f) if (a->f != b->f) return #f
    FIELD(op); FIELD(type); FIELD(type2); FIELD(space); FIELD(cmp); FIELD(bop); FIELD(rnd);
    FIELD(sub); FIELD(vec); FIELD(nopd); FIELD(guard_neg); FIELD(mod); FIELD(guard);
#undef FIELD
    for (unsigned k = 0; k < a->nopd && k < PTX_MAX_OPERANDS; k++) {
        const char *d = opd_diff(&a->opd[k], &b->opd[k]);
        if (d)
            return d;
    }
    return NULL;
}

static inline void expect_same_prog(const struct ptx_prog *a, const struct ptx_prog *b, const char *tag)
{
    char x[256], y[256];
    if (a->ninsns != b->ninsns)
        fail_msg("%s: %u instructions, %u after the round trip", tag, a->ninsns, b->ninsns);
    for (uint32_t pc = 0; pc < a->ninsns; pc++) {
        const char *d = insn_diff(&a->insns[pc], &b->insns[pc]);
        const char *pa = ptx_pragma(a->mod, a->insns[pc].pragma);
        const char *pb = ptx_pragma(b->mod, b->insns[pc].pragma);
        if (!d && (!pa != !pb || (pa && strcmp(pa, pb))))
            d = "the .pragma before it";
        if (d) {
            ptx_insn_format(a, pc, x, sizeof x);
            ptx_insn_format(b, pc, y, sizeof y);
            fail_msg("%s pc %u: %s differs: '%s' became '%s'", tag, pc, d, x, y);
        }
    }
    if (a->nregs != b->nregs)
        fail_msg("%s: %u registers, %u after the round trip", tag, a->nregs, b->nregs);
    for (uint32_t r = 0; r < a->nregs; r++)
        if (a->reg_type[r] != b->reg_type[r])
            fail_msg("%s: register %u (%s) was .%s, is .%s", tag, r, a->reg_name[r],
                     ptx_type_name(a->reg_type[r]), ptx_type_name(b->reg_type[r]));
    assert_int_equal(a->nparams, b->nparams);
    assert_int_equal(a->param_size, b->param_size);
    for (uint32_t i = 0; i < a->nparams; i++) {
        assert_string_equal(a->params[i].name, b->params[i].name);
        assert_int_equal(a->params[i].type, b->params[i].type);
        assert_int_equal(a->params[i].align, b->params[i].align);
        assert_int_equal(a->params[i].size, b->params[i].size);
        assert_int_equal(a->params[i].offset, b->params[i].offset);
    }
    if (a->shared_static != b->shared_static || a->local_size != b->local_size
        || a->pscratch_size != b->pscratch_size || a->regs_per_thread != b->regs_per_thread)
        fail_msg("%s: shared %u/%u, local %u/%u, param scratch %u/%u, registers %u/%u", tag,
                 a->shared_static, b->shared_static, a->local_size, b->local_size,
                 a->pscratch_size, b->pscratch_size, a->regs_per_thread, b->regs_per_thread);
}

/* ------------------------------------------------------------------ round trip */

/* The printed module's .global/.const variables get the device addresses the original ones
   had (a load of the printed text would allocate them). */
static inline void copy_addrs(struct ptx_module *to, const struct ptx_module *from, const char *tag)
{
    for (uint32_t i = 0; i < to->nvars; i++) {
        struct ptx_var *v = &to->vars[i];
        uint32_t k;
        if (v->space != PS_GLOBAL && v->space != PS_CONST)
            continue;
        for (k = 0; k < from->nvars && strcmp(from->vars[k].name, v->name); k++) {}
        if (k == from->nvars)
            fail_msg("%s: printed variable '%s' is not in the original module", tag, v->name);
        v->addr = from->vars[k].addr;
    }
}

/* Print a linked program, parse and link the text (variables placed as in `mod`), and compare
   with the program. Returns the text (malloc'ed). */
static inline char *ptx_round_trip_prog(const struct ptx_prog *a, const struct ptx_module *mod,
                                        const char *tag)
{
    struct ptx_prog b;
    struct ptx_module m2;
    char err[PTX_ERR_LEN];
    char *text = ptx_print_string(a, err, sizeof err);
    if (!text)
        fail_msg("%s: %s", tag, err);
    if (ptx_parse(text, strlen(text), tag, &m2, err, sizeof err))
        fail_msg("printed text does not parse: %s\n%s", err, text);
    if (mod)
        copy_addrs(&m2, mod, tag);
    if (ptx_link(&m2, a->name, &b, err, sizeof err))
        fail_msg("printed text does not link: %s\n%s", err, text);
    expect_same_prog(a, &b, tag);
    ptx_prog_free(&b);
    ptx_module_free(&m2);
    return text;
}

#endif
