/*
 * ptx_print.c -- a linked kernel (ptx_prog) back to PTX text.
 *
 * Not a hardware block: a load-time tool, for people (what does the model run after inlining
 * and a transform?) and for checks (the text parses and links back to the same program, and
 * ptxas accepts it).  One .entry with the prog's parameters, every dense register declared
 * with its type, the static shared, local and param-scratch memory as variables, the module
 * .global/.const variables it names, then the instructions with a label on every branch
 * target.  The forms chosen for what the linker folded into numbers (docs/ptx.md):
 *   - an address operand is printed as "NAME+off" from the named range at or below it in its
 *     state space (the symbol table of the prog: ptx_sym); mov/cvta of an address likewise
 *     ("smem+16", which ptxas and our parser read);
 *   - static shared memory: one .shared variable per range that some instruction refers to,
 *     each sized up to the next one, so that the linker lays them out at the same offsets;
 *     dynamic shared memory: one .extern .shared variable;
 *   - local memory: kernel-scope .local variables covering [0, local_size), again sized up to
 *     the next one (the linker lays out every function-scope variable, used or not);
 *   - the param scratch of inlined calls likewise, but as .local variables each marked by
 *     `.pragma "gpusim param_scratch";` and accessed by ld.local/st.local: ptxas takes .param
 *     variables only in call sequences, and our parser reads them back as param scratch;
 *   - .global/.const variables: module-scope declarations with their initializers; their
 *     device addresses come from whoever loads the printed module;
 *   - branch targets: labels "$L__pcN" (N the instruction index); a nop, which PTX has no
 *     instruction for, is `.pragma "gpusim nop";`;
 *   - device printf (OP_PRINTF): the call sequence of the .extern vprintf, declared in the
 *     module, its operands moved through registers and .param variables of a { } scope.
 * What the source said to ptxas comes back where it was: .target options, module-scope
 * .pragma after .address_size, the entry's performance directives and entry-scope .pragma
 * after its parameters, a statement-level .pragma ("nounroll") before its instruction (after
 * the label, so in the same block).  Not printed: .file/.loc/.section (debug information, for
 * the source lines a linked program no longer follows), .noreturn (of a .func, inlined here)
 * and the linkage of module variables (the text is one module).
 * Names are the declared ones, made valid and unique; registers keep theirs (%r12, %r3_i2 for
 * inlined copies) and runs named P0..Pn-1 are declared as P<n>.
 */
#include "ptx_fmt.h"
#include "ptx_ntab.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NMAX      128            /* longest printed name, NUL included */
#define REG_NMAX  32             /* the parser's limit for register names */
#define SYM_NMAX  96             /* ... and for variable names */
#define LINE_MAX_ 4096

/* ------------------------------------------------------------------ unique names */

struct nameset {
    char   (*s)[NMAX];
    uint32_t n, cap;
    struct ntab tab;             /* name -> index in s */
    struct ntab next;            /* a clashing name and its length limit -> the next suffix */
};

static int ns_has(const struct nameset *ns, const char *s)
{
    return ntab_get(&ns->tab, s, strlen(s)) != NTAB_NONE;
}

/* Room for one more element in *arr (n used of *cap); 0, or -1 out of memory. */
static int grow1(void **arr, uint32_t n, uint32_t *cap, size_t esz)
{
    if (n < *cap)
        return 0;
    uint32_t nc = *cap ? *cap * 2 : 64;
    void *a = realloc(*arr, (size_t)nc * esz);
    if (!a)
        return -1;
    *arr = a;
    *cap = nc;
    return 0;
}

/* Store `s` (which must be new). Returns its index or -1 (out of memory). */
static int32_t ns_put(struct nameset *ns, const char *s)
{
    if (grow1((void **)&ns->s, ns->n, &ns->cap, sizeof *ns->s))
        return -1;
    snprintf(ns->s[ns->n], NMAX, "%s", s);
    if (ntab_set(&ns->tab, ns->s[ns->n], strlen(ns->s[ns->n]), (int32_t)ns->n))
        return -1;
    return (int32_t)ns->n++;
}

static int is_id_char(int ch, int first)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$'
        || (first ? ch == '%' : (ch >= '0' && ch <= '9'));
}

/* A valid, new name from `want` (invalid characters become '_', a clash gets "_<k>", the
   smallest k that makes it new), at most max-1 characters. Returns its index or -1.  Names are
   only ever added, so the search for k resumes where the last one for the same name ended. */
static int32_t ns_add(struct nameset *ns, const char *want, size_t max)
{
    char base[NMAX + 1], cand[NMAX];
    size_t n = 0;
    for (const char *q = want; *q && n + 1 < max; q++, n++)
        base[n] = is_id_char((uint8_t)*q, n == 0) ? *q : '_';
    if (n == 0)
        base[n++] = '_';
    base[n] = 0;
    if (!ns_has(ns, base))
        return ns_put(ns, base);
    base[n + 1] = (char)max;             /* the key: the name, a NUL and the limit */
    int32_t *next = ntab_ref(&ns->next, base, n + 2);
    if (!next)
        return -1;
    uint32_t k = *next == NTAB_NONE ? 1 : (uint32_t)*next;
    for (;; k++) {
        char suf[16];
        int sl = snprintf(suf, sizeof suf, "_%u", (unsigned)k);
        size_t keep = n + (size_t)sl + 1 <= max ? n : max - 1 - (size_t)sl;
        snprintf(cand, sizeof cand, "%.*s%s", (int)keep, base, suf);
        if (!ns_has(ns, cand))
            break;
    }
    *next = (int32_t)(k + 1);
    return ns_put(ns, cand);
}

/* ------------------------------------------------------------------ the printer's tables */

struct anchor {                  /* a name a folded address is printed from */
    uint8_t  space;
    uint64_t addr;
    uint32_t ord;                /* insertion order: the first of equal addresses wins */
    uint32_t name;
};

struct pdecl {                   /* a kernel-scope variable to print */
    uint8_t  space;              /* PS_SHARED (static), PS_LOCAL, PS_PARAM (scratch) */
    uint64_t addr, ext;          /* as operands hold it; bytes up to the next one */
    const struct ptx_sym *sym;   /* NULL: a range no symbol names */
    uint32_t name;
};

struct printer {
    const struct ptx_prog *p;
    char    *err;
    size_t   errlen;
    struct nameset ns;
    uint32_t *reg_nm;            /* register -> name index */
    uint32_t *param_nm;          /* kernel parameter -> name index */
    uint8_t  *target;            /* pc -> is a branch target */
    struct anchor *anc;  uint32_t nanc, cap_anc;
    struct pdecl  *dcl;  uint32_t ndcl, cap_dcl;
    const struct ptx_sym **mvar; uint32_t nmvar;   /* module-scope: extern shared, global, const */
    uint32_t *mvar_nm;
    uint64_t dyn_base;
    uint32_t kname;              /* the kernel's name */
    uint32_t pf_nm[5];           /* device printf's call sequence: two .b64 and a .b32 register,
                                    its .param and return names (pf_nm[3] the stem) */
    int      have_printf;        /* an OP_PRINTF: declare vprintf */
    int      have_extern;        /* dynamic shared memory is named: from dyn_base on */
};

static int pfail(struct printer *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int pfail(struct printer *P, const char *fmt, ...)
{
    char msg[PTX_ERR_LEN - 160];    /* room for the prefix and the kernel name */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (P->err && P->errlen)
        snprintf(P->err, P->errlen, "print %s: %s", P->p && P->p->name[0] ? P->p->name : "kernel",
                 msg);
    return -1;
}

static int add_anchor(struct printer *P, uint8_t space, uint64_t addr, uint32_t name)
{
    if (grow1((void **)&P->anc, P->nanc, &P->cap_anc, sizeof *P->anc))
        return pfail(P, "out of memory");
    P->anc[P->nanc] = (struct anchor){space, addr, P->nanc, name};
    P->nanc++;
    return 0;
}

static int cmp_anchor(const void *a, const void *b)
{
    const struct anchor *x = a, *y = b;
    if (x->space != y->space)
        return x->space < y->space ? -1 : 1;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* The first anchor at or beyond (space, x) (past = 0), or beyond it (past = 1). */
static uint32_t anchor_bound(const struct printer *P, uint8_t space, uint64_t x, int past)
{
    uint32_t lo = 0, hi = P->nanc;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        const struct anchor *m = &P->anc[mid];
        if (m->space < space || (m->space == space && (m->addr < x || (past && m->addr == x))))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The anchor an address is printed from: the highest one at or below it in its space (the
   first declared of equal ones), or NULL. */
static const struct anchor *find_anchor(const struct printer *P, uint8_t space, int64_t a)
{
    uint32_t beyond = anchor_bound(P, space, (uint64_t)a, 1);
    if (beyond == 0 || P->anc[beyond - 1].space != space || a < 0)
        return NULL;
    return &P->anc[anchor_bound(P, space, P->anc[beyond - 1].addr, 0)];
}

/* ------------------------------------------------------------------ namer callbacks */

static void nm_reg(void *ctx, struct ptx_sbuf *b, int32_t r)
{
    const struct printer *P = ctx;
    ptx_sb_add(b, "%s", P->ns.s[P->reg_nm[r]]);
}

static void nm_addr(void *ctx, struct ptx_sbuf *b, uint8_t space, int64_t a)
{
    const struct printer *P = ctx;
    const struct anchor *an = find_anchor(P, space, a);
    if (!an) {
        ptx_sb_add(b, a < 0 ? "%" PRId64 : "0x%" PRIx64, a);
        return;
    }
    ptx_sb_add(b, "%s", P->ns.s[an->name]);
    if ((uint64_t)a != an->addr)
        ptx_sb_add(b, "+%" PRIu64, (uint64_t)a - an->addr);
}

static void nm_label(void *ctx, struct ptx_sbuf *b, int64_t pc)
{
    (void)ctx;
    ptx_sb_add(b, "$L__pc%" PRId64, pc);
}

/* ------------------------------------------------------------------ checks */

static int bad_reg(const struct ptx_prog *p, int32_t r, int allow_none)
{
    return r < (allow_none ? -1 : 0) || (r >= 0 && (uint32_t)r >= p->nregs);
}

/* What printing relies on: registers and branch targets in range. */
static int check_prog(struct printer *P)
{
    const struct ptx_prog *p = P->p;
    if (p->nregs && !p->reg_type)
        return pfail(P, "registers without types");
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (in->op >= OP_COUNT || in->nopd > PTX_MAX_OPERANDS || bad_reg(p, in->guard, 1))
            return pfail(P, "pc %u: malformed instruction", (unsigned)pc);
        for (unsigned k = 0; k < in->nopd; k++) {
            const struct ptx_operand *o = &in->opd[k];
            int bad = (o->kind == OPD_REG && bad_reg(p, o->reg, 0))
                   || (o->kind == OPD_ADDR && bad_reg(p, o->reg, 1))
                   || (o->kind == OPD_LABEL && (o->imm < 0 || (uint64_t)o->imm >= p->ninsns))
                   || (o->kind == OPD_VEC && o->nvec > 4);
            for (unsigned e = 0; o->kind == OPD_VEC && e < o->nvec && e < 4; e++)
                bad |= bad_reg(p, o->vec[e], 1);
            if (bad)
                return pfail(P, "pc %u: operand %u out of range", (unsigned)pc, k + 1);
        }
    }
    for (uint32_t r = 0; r < p->nregs; r++)
        if (!p->reg_type[r] || p->reg_type[r] >= PT_COUNT)
            return pfail(P, "register %u has no type", (unsigned)r);
    return 0;
}

/* ------------------------------------------------------------------ building the tables */

static int add_decl(struct printer *P, uint8_t space, uint64_t addr, uint64_t ext,
                    const struct ptx_sym *sym, const char *name)
{
    if (grow1((void **)&P->dcl, P->ndcl, &P->cap_dcl, sizeof *P->dcl))
        return pfail(P, "out of memory");
    int32_t nm = ns_add(&P->ns, name, SYM_NMAX);
    if (nm < 0)
        return pfail(P, "out of memory");
    P->dcl[P->ndcl++] = (struct pdecl){space, addr, ext, sym, (uint32_t)nm};
    return add_anchor(P, space, addr, (uint32_t)nm);
}

static int cmp_sym_addr(const void *a, const void *b)
{
    const struct ptx_sym *x = *(const struct ptx_sym *const *)a, *y = *(const struct ptx_sym *const *)b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The symbols of one region [base, base + size) of a space, by address, one per address. */
static uint32_t region_syms(const struct ptx_prog *p, uint8_t space, uint64_t base, uint64_t size,
                            const struct ptx_sym **out)
{
    uint32_t n = 0, k = 0;
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const struct ptx_sym *s = &p->syms[i];
        if (s->space == space && !s->is_extern && s->addr >= base && s->addr < base + size)
            out[n++] = s;
    }
    qsort(out, n, sizeof *out, cmp_sym_addr);
    for (uint32_t i = 0; i < n; i++)
        if (k == 0 || out[i]->addr != out[k - 1]->addr)
            out[k++] = out[i];
    return k;
}

/* Which region symbols some instruction refers to (an address is referred to from the
   highest symbol at or below it).  Only static shared memory needs this: the linker lays
   out the shared variables that are used, and every function-scope local/param one. */
static void shared_refs(const struct printer *P, const struct ptx_sym **s, uint32_t n, uint8_t *used)
{
    const struct ptx_prog *p = P->p;
    for (uint32_t pc = 0; pc < p->ninsns; pc++)
        for (unsigned k = 0; k < p->insns[pc].nopd; k++) {
            const struct ptx_operand *o = &p->insns[pc].opd[k];
            if (!((o->kind == OPD_ADDR && o->reg < 0) || o->kind == OPD_SYMADDR)
                || o->space != PS_SHARED || (P->have_extern && (uint64_t)o->imm >= P->dyn_base))
                continue;
            uint32_t lo = 0, hi = n;     /* the last range at or below the address, else 0 */
            while (hi - lo > 1) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (s[mid]->addr <= (uint64_t)o->imm)
                    lo = mid;
                else
                    hi = mid;
            }
            used[lo] = 1;
        }
    uint32_t first = 0;
    while (first < n && !used[first])
        first++;
    if (first < n && first > 0) {    /* the first range printed must be the one at 0 */
        used[first] = 0;
        used[0] = 1;
    }
}

/* Kernel-scope variables covering [base, base + size) of a space: the symbols there, each
   extended to the next one kept; a range no symbol starts gets `fallback`. */
static int build_region(struct printer *P, uint8_t space, uint64_t base, uint64_t size,
                        const char *fallback)
{
    const struct ptx_prog *p = P->p;
    if (!size)
        return 0;
    const struct ptx_sym **s = calloc(p->nsyms + 1, sizeof *s);
    uint8_t *used = calloc(p->nsyms + 1, 1);
    if (!s || !used) {
        free(s), free(used);
        return pfail(P, "out of memory");
    }
    uint32_t n = region_syms(p, space, base, size, s), lead = n == 0 || s[0]->addr != base;
    if (lead) {                      /* nothing names the start: a synthetic range there */
        memmove(s + 1, s, n * sizeof *s);
        s[0] = NULL;
        n++;
    }
    if (space == PS_SHARED)
        shared_refs(P, s, n, used);
    else
        memset(used, 1, n);
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        if (!used[i])
            continue;
        uint64_t at = s[i] ? s[i]->addr : base, end = base + size;
        for (uint32_t j = i + 1; j < n; j++)
            if (used[j]) {
                end = s[j]->addr;
                break;
            }
        rc = add_decl(P, space, at, end - at, s[i], s[i] ? s[i]->name : fallback);
    }
    free(s);
    free(used);
    return rc;
}

/* .extern .shared (one), .global and .const variables the program names. */
static int build_module_vars(struct printer *P)
{
    const struct ptx_prog *p = P->p;
    P->mvar = calloc(p->nsyms + 1, sizeof *P->mvar);
    P->mvar_nm = calloc(p->nsyms + 1, sizeof *P->mvar_nm);
    if (!P->mvar || !P->mvar_nm)
        return pfail(P, "out of memory");
    int have_extern = 0;
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const struct ptx_sym *s = &p->syms[i];
        if (s->space == PS_SHARED && s->is_extern && !have_extern)
            have_extern = 1;
        else if (s->space != PS_GLOBAL && s->space != PS_CONST)
            continue;
        int32_t nm = ns_add(&P->ns, s->name, SYM_NMAX);
        if (nm < 0)
            return pfail(P, "out of memory");
        P->mvar[P->nmvar] = s;
        P->mvar_nm[P->nmvar++] = (uint32_t)nm;
        if (add_anchor(P, s->space, s->space == PS_SHARED ? P->dyn_base : s->addr, (uint32_t)nm))
            return -1;
    }
    P->have_extern = have_extern;
    return 0;
}

static int build_names(struct printer *P)
{
    const struct ptx_prog *p = P->p;
    char b[NMAX];
    P->reg_nm = calloc(p->nregs + 1, sizeof *P->reg_nm);
    P->param_nm = calloc(p->nparams + 1, sizeof *P->param_nm);
    P->target = calloc(p->ninsns + 1, 1);
    if (!P->reg_nm || !P->param_nm || !P->target)
        return pfail(P, "out of memory");
    for (uint32_t pc = 0; pc < p->ninsns; pc++)   /* labels first: nothing else takes theirs */
        if (p->insns[pc].op == OP_BRA && p->insns[pc].opd[0].kind == OPD_LABEL
            && !P->target[p->insns[pc].opd[0].imm]) {
            P->target[p->insns[pc].opd[0].imm] = 1;
            snprintf(b, sizeof b, "$L__pc%u", (unsigned)p->insns[pc].opd[0].imm);
            if (ns_put(&P->ns, b) < 0)
                return pfail(P, "out of memory");
        }
    for (int s = SR_TID; s <= SR_LANEMASK_GE; s++)   /* not register names */
        if (ns_put(&P->ns, ptx_sreg_name((enum ptx_sreg)s)) < 0)
            return pfail(P, "out of memory");
    int32_t kn = ns_add(&P->ns, p->name, NMAX);
    if (kn < 0)
        return pfail(P, "out of memory");
    P->kname = (uint32_t)kn;
    for (uint32_t i = 0; i < p->nparams; i++) {
        int32_t nm = ns_add(&P->ns, p->params[i].name, SYM_NMAX);
        if (nm < 0 || add_anchor(P, PS_PARAM, p->params[i].offset, (uint32_t)nm))
            return pfail(P, "out of memory");
        P->param_nm[i] = (uint32_t)nm;
    }
    P->dyn_base = (p->shared_static + 15ull) & ~15ull;
    if (build_module_vars(P)
        || build_region(P, PS_SHARED, 0, p->shared_static, "__shared")
        || build_region(P, PS_LOCAL, 0, p->local_size, "__local")
        || build_region(P, PS_PARAM, PTX_PSCRATCH_BASE, p->pscratch_size, "__param_scratch"))
        return -1;
    for (uint32_t r = 0; r < p->nregs; r++) {
        const char *want = p->reg_name ? p->reg_name[r] : "";
        if (!want[0])
            snprintf(b, sizeof b, "%%R%u", (unsigned)r), want = b;
        int32_t nm = ns_add(&P->ns, want, REG_NMAX);
        if (nm < 0)
            return pfail(P, "out of memory");
        P->reg_nm[r] = (uint32_t)nm;
    }
    for (uint32_t pc = 0; pc < p->ninsns; pc++)
        P->have_printf |= p->insns[pc].op == OP_PRINTF;
    static const char *const pf_want[5] = { "%gpusim_pf_a", "%gpusim_pf_b", "%gpusim_pf_r",
                                            "gpusim_pf_arg", "gpusim_pf_ret" };
    for (int i = 0; P->have_printf && i < 5; i++) {
        int32_t nm = ns_add(&P->ns, pf_want[i], REG_NMAX);
        if (nm < 0)
            return pfail(P, "out of memory");
        P->pf_nm[i] = (uint32_t)nm;
    }
    if (P->nanc)                       /* no anchors: P->anc may be NULL */
        qsort(P->anc, P->nanc, sizeof *P->anc, cmp_anchor);
    return 0;
}

static void free_printer(struct printer *P)
{
    free(P->ns.s);
    ntab_free(&P->ns.tab);
    ntab_free(&P->ns.next);
    free(P->reg_nm);
    free(P->param_nm);
    free(P->target);
    free(P->anc);
    free(P->dcl);
    free(P->mvar);
    free(P->mvar_nm);
}

/* ------------------------------------------------------------------ output */

/* ".align A .TYPE name[count]" for a variable of `bytes` bytes, typed if its type divides it. */
static void print_var_shape(FILE *f, const char *name, uint8_t type, uint32_t align, uint64_t bytes,
                            int sized_as_declared)
{
    unsigned ts = ptx_type_size((enum ptx_type)type);
    if (!sized_as_declared || !ts || type == PT_F16 || bytes % ts)
        type = PT_B8, ts = 1;
    fprintf(f, ".align %u .%s %s", align ? (unsigned)align : 1u, ptx_type_name((enum ptx_type)type),
            name);
    if (bytes != ts)
        fprintf(f, "[%" PRIu64 "]", bytes / ts);
}

static void print_init(FILE *f, const struct ptx_sym *s, const uint8_t *init)
{
    unsigned ts = ptx_type_size((enum ptx_type)s->type);
    if (!ts || s->type == PT_F16 || s->size % ts)
        ts = 1;
    int list = s->size / ts > 1;
    fprintf(f, list ? " = {" : " = ");
    for (uint64_t i = 0; i < s->size / ts; i++) {
        uint64_t v = 0;
        for (unsigned k = 0; k < ts; k++)
            v |= (uint64_t)init[i * ts + k] << (8 * k);
        fprintf(f, "%s%s", i ? "," : "", i && i % 16 == 0 ? "\n\t" : (i ? " " : ""));
        if (ts == 4 && s->type == PT_F32)
            fprintf(f, "0f%08" PRIX64, v);
        else if (ts == 8 && s->type == PT_F64)
            fprintf(f, "0d%016" PRIX64, v);
        else if (ts > 1 && ts < 8 && ptx_type_is_signed((enum ptx_type)s->type) && (v >> (8 * ts - 1)))
            fprintf(f, "%" PRId64, (int64_t)(v | ~0ull << (8 * ts)));
        else if (ts == 8 && ptx_type_is_signed((enum ptx_type)s->type))
            fprintf(f, "%" PRId64, (int64_t)v);
        else
            fprintf(f, "%" PRIu64, v);
    }
    fprintf(f, list ? "}" : "");
}

static void print_module_vars(FILE *f, const struct printer *P)
{
    const struct ptx_module *m = P->p->mod;
    for (uint32_t i = 0; i < P->nmvar; i++) {
        const struct ptx_sym *s = P->mvar[i];
        const char *nm = P->ns.s[P->mvar_nm[i]];
        const struct ptx_var *v = m && s->var >= 0 && (uint32_t)s->var < m->nvars ? &m->vars[s->var] : NULL;
        if (s->space == PS_SHARED) {
            fprintf(f, ".extern .shared .align %u .%s %s[];\t// dynamic, at offset 0x%" PRIx64 "\n",
                    (unsigned)s->align, ptx_type_name((enum ptx_type)(s->type ? s->type : PT_B8)),
                    nm, P->dyn_base);
            continue;
        }
        fprintf(f, ".%s ", ptx_space_name((enum ptx_space)s->space));
        print_var_shape(f, nm, s->type, s->align, s->size, 1);
        if (v && v->init && v->size == s->size && s->size)
            print_init(f, s, v->init);
        fprintf(f, ";\t// device address 0x%" PRIx64 "\n", s->addr);
    }
}

/* A pragma group (ptx.h ptx_pragma): one `.pragma LIST;` per line, each after `indent`. */
static void print_pragmas(FILE *f, const struct ptx_module *m, uint16_t idx, const char *indent)
{
    const char *g = ptx_pragma(m, idx);
    while (g && *g) {
        const char *e = strchr(g, '\n');
        size_t n = e ? (size_t)(e - g) : strlen(g);
        fprintf(f, "%s.pragma %.*s;\n", indent, (int)n, g);
        g += n + (e != NULL);
    }
}

static void print_params(FILE *f, const struct printer *P)
{
    const struct ptx_prog *p = P->p;
    fprintf(f, ".visible .entry %s(", P->ns.s[P->kname]);
    for (uint32_t i = 0; i < p->nparams; i++) {
        const struct ptx_param *q = &p->params[i];
        unsigned ts = ptx_type_size((enum ptx_type)q->type);
        fprintf(f, "%s\n\t.param ", i ? "," : "");
        if (ts && q->size == ts && q->align == ts)
            fprintf(f, ".%s %s", ptx_type_name((enum ptx_type)q->type), P->ns.s[P->param_nm[i]]);
        else
            print_var_shape(f, P->ns.s[P->param_nm[i]], q->type, q->align, q->size, 1);
    }
    fprintf(f, "%s)\n", p->nparams ? "\n" : "");
    const struct ptx_func *fn = ptx_find_func(p->mod, p->name);
    if (fn && fn->maxntid[0] && !fn->reqntid[0])     /* ptxas takes one of the two */
        fprintf(f, ".maxntid %u, %u, %u\n", fn->maxntid[0], fn->maxntid[1], fn->maxntid[2]);
    if (fn && fn->reqntid[0])
        fprintf(f, ".reqntid %u, %u, %u\n", fn->reqntid[0], fn->reqntid[1], fn->reqntid[2]);
    if (fn && fn->maxnreg)
        fprintf(f, ".maxnreg %u\n", fn->maxnreg);
    if (fn && fn->minnctapersm)
        fprintf(f, ".minnctapersm %u\n", fn->minnctapersm);
    if (fn && fn->maxnctapersm)
        fprintf(f, ".maxnctapersm %u\n", fn->maxnctapersm);
    if (fn && fn->reqnctapercluster[0])
        fprintf(f, ".reqnctapercluster %u, %u, %u\n", fn->reqnctapercluster[0],
                fn->reqnctapercluster[1] ? fn->reqnctapercluster[1] : 1u,
                fn->reqnctapercluster[2] ? fn->reqnctapercluster[2] : 1u);
    if (fn && fn->explicitcluster)
        fprintf(f, ".explicitcluster\n");
    if (fn && fn->maxclusterrank)
        fprintf(f, ".maxclusterrank %u\n", fn->maxclusterrank);
    if (fn)
        print_pragmas(f, p->mod, fn->pragma, "");
}

/* Registers r.. named P0, P1, ... of one type: how many (a run the parser's P<n> declares). */
static uint32_t reg_run(const struct printer *P, uint32_t r)
{
    const struct ptx_prog *p = P->p;
    const char *n0 = P->ns.s[P->reg_nm[r]];
    size_t pl = strlen(n0);
    if (pl < 3 || n0[pl - 1] != '0')
        return 1;
    pl--;
    uint32_t n = 1;
    char want[NMAX];
    while (r + n < p->nregs && n < 65536 && p->reg_type[r + n] == p->reg_type[r]) {
        snprintf(want, sizeof want, "%.*s%u", (int)pl, n0, (unsigned)n);
        if (strcmp(want, P->ns.s[P->reg_nm[r + n]]))
            break;
        n++;
    }
    return n;
}

static void print_regs(FILE *f, const struct printer *P)
{
    const struct ptx_prog *p = P->p;
    for (uint32_t r = 0; r < p->nregs;) {
        const char *tn = ptx_type_name((enum ptx_type)p->reg_type[r]);
        uint32_t run = reg_run(P, r);
        if (run > 1) {
            const char *n0 = P->ns.s[P->reg_nm[r]];
            fprintf(f, "\t.reg .%s %.*s<%u>;\n", tn, (int)strlen(n0) - 1, n0, (unsigned)run);
            r += run;
            continue;
        }
        fprintf(f, "\t.reg .%s %s", tn, P->ns.s[P->reg_nm[r]]);
        uint32_t k = 1;
        for (r++; r < p->nregs && k < 8 && p->reg_type[r] == p->reg_type[r - 1] && reg_run(P, r) == 1;
             r++, k++)
            fprintf(f, ", %s", P->ns.s[P->reg_nm[r]]);
        fprintf(f, ";\n");
    }
}

static void print_decls(FILE *f, const struct printer *P)
{
    static const char *const what[PS_COUNT] = {[PS_SHARED] = "static shared",
        [PS_LOCAL] = "local", [PS_PARAM] = "param scratch of inlined calls"};
    for (uint32_t i = 0; i < P->ndcl; i++) {
        const struct pdecl *d = &P->dcl[i];
        const struct ptx_sym *s = d->sym;
        uint64_t off = d->space == PS_PARAM ? d->addr - PTX_PSCRATCH_BASE : d->addr;
        if (d->space == PS_PARAM)
            fprintf(f, "\t.pragma \"gpusim param_scratch\";\n\t.local ");
        else
            fprintf(f, "\t.%s ", ptx_space_name((enum ptx_space)d->space));
        print_var_shape(f, P->ns.s[d->name], s ? s->type : PT_B8, s ? s->align : 16, d->ext,
                        s && s->size == d->ext);
        fprintf(f, ";\t// %s [0x%" PRIx64 ", 0x%" PRIx64 ")\n", what[d->space], off, off + d->ext);
    }
}

/* ld.param/st.param of the param scratch of inlined calls */
static int is_scratch_access(const struct ptx_insn *in)
{
    const struct ptx_operand *a = &in->opd[in->op == OP_LD ? 1 : 0];
    return (in->op == OP_LD || in->op == OP_ST) && in->space == PS_PARAM && a->kind == OPD_ADDR
        && a->reg < 0 && a->imm >= PTX_PSCRATCH_BASE;
}

/* Device printf (OP_PRINTF) as the call sequence nvcc writes: its operands (param scratch,
   printed as local memory, or registers) into .param variables, a call of the .extern
   vprintf, the result back; each instruction under the call's guard. */
static void print_vprintf(FILE *f, const struct printer *P, const struct ptx_insn *in)
{
    char (*const s)[NMAX] = P->ns.s;
    char guard[REG_NMAX + 8] = "", opd[2][256];
    struct ptx_sbuf b;
    if (in->guard >= 0)
        snprintf(guard, sizeof guard, "@%s%s ", in->guard_neg ? "!" : "", s[P->reg_nm[in->guard]]);
    fprintf(f, "\t{\n\t.reg .b64 %s, %s;\n\t.reg .b32 %s;\n", s[P->pf_nm[0]], s[P->pf_nm[1]],
            s[P->pf_nm[2]]);
    for (int a = 0; a < 2; a++) {
        const struct ptx_operand *o = &in->opd[1 + a];
        b = (struct ptx_sbuf){opd[a], sizeof opd[a], 0, 0};
        if (o->kind == OPD_REG) {
            fprintf(f, "\t%smov.b64 %s, %s;\n", guard, s[P->pf_nm[a]], s[P->reg_nm[o->reg]]);
            continue;
        }
        nm_addr((void *)P, &b, PS_PARAM, o->imm);
        fprintf(f, "\t%sld.local.b64 %s, [%s];\n", guard, s[P->pf_nm[a]], opd[a]);
    }
    for (int a = 0; a < 2; a++)
        fprintf(f, "\t.param .b64 %s%d;\n\t%sst.param.b64 [%s%d], %s;\n", s[P->pf_nm[3]], a,
                guard, s[P->pf_nm[3]], a, s[P->pf_nm[a]]);
    fprintf(f, "\t.param .b32 %s;\n\t%scall.uni (%s), vprintf, (%s0, %s1);\n", s[P->pf_nm[4]],
            guard, s[P->pf_nm[4]], s[P->pf_nm[3]], s[P->pf_nm[3]]);
    if (in->opd[0].kind == OPD_ADDR) {
        b = (struct ptx_sbuf){opd[0], sizeof opd[0], 0, 0};
        nm_addr((void *)P, &b, PS_PARAM, in->opd[0].imm);
        fprintf(f, "\t%sld.param.b32 %s, [%s];\n\t%sst.local.b32 [%s], %s;\n", guard,
                s[P->pf_nm[2]], s[P->pf_nm[4]], guard, opd[0], s[P->pf_nm[2]]);
    }
    fprintf(f, "\t}\n");
}

static int print_insns(FILE *f, struct printer *P)
{
    const struct ptx_prog *p = P->p;
    struct ptx_namer nm = {P, nm_reg, nm_addr, nm_label};
    char line[LINE_MAX_];
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (P->target[pc])
            fprintf(f, "$L__pc%u:\n", (unsigned)pc);
        print_pragmas(f, p->mod, in->pragma, "\t");
        if (in->op == OP_NOP && in->sub == 0) {
            fprintf(f, "\t.pragma \"gpusim nop\";\n");
            continue;
        }
        if (in->op == OP_PRINTF) {
            print_vprintf(f, P, in);
            continue;
        }
        struct ptx_insn loc;
        if (is_scratch_access(in)) {     /* param scratch is printed as local memory */
            loc = *in;
            loc.space = PS_LOCAL;
            in = &loc;
        }
        struct ptx_sbuf b = {line, sizeof line, 0, 0};
        ptx_fmt_insn(&b, p, in, &nm);
        if (b.full)
            return pfail(P, "pc %u: instruction too long to print", (unsigned)pc);
        fprintf(f, "\t%s;\n", line);
    }
    return 0;
}

static void print_header(FILE *f, const struct printer *P)
{
    const struct ptx_prog *p = P->p;
    const struct ptx_module *m = p->mod;
    fprintf(f, "//\n// %s, linked by gpusim%s%s: every call inlined, every symbol at its linked\n"
            "// address (docs/ptx.md); %u instructions, %u registers, about %u per thread.\n//\n",
            p->name, m ? " from " : "", m ? m->filename : "", (unsigned)p->ninsns,
            (unsigned)p->nregs, (unsigned)p->regs_per_thread);
    fprintf(f, ".version %s\n.target %s%s\n.address_size %u\n",
            m && m->version[0] ? m->version : "7.0", m && m->target[0] ? m->target : "sm_75",
            m && m->target[0] ? m->target_opts : "",
            m && m->address_size ? (unsigned)m->address_size : 64u);
    print_pragmas(f, m, m ? m->pragma : 0, "");
    fprintf(f, "\n");
}

int ptx_print(FILE *f, const struct ptx_prog *p, char *err, size_t errlen)
{
    struct printer P;
    memset(&P, 0, sizeof P);
    P.p = p;
    P.err = err;
    P.errlen = errlen;
    if (!f || !p)
        return pfail(&P, "no program or no file");
    int rc = check_prog(&P);
    if (!rc)
        rc = build_names(&P);
    if (!rc) {
        print_header(f, &P);
        if (P.have_printf)
            fprintf(f, ".extern .func (.param .b32 func_retval0) vprintf\n(\n"
                    "\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n\n");
        print_module_vars(f, &P);
        fprintf(f, "%s", P.nmvar ? "\n" : "");
        print_params(f, &P);
        fprintf(f, "{\n");
        print_regs(f, &P);
        print_decls(f, &P);
        fprintf(f, "\n");
        rc = print_insns(f, &P);
        fprintf(f, "}\n");
    }
    if (!rc && ferror(f))
        rc = pfail(&P, "write error");
    free_printer(&P);
    return rc;
}

char *ptx_print_string(const struct ptx_prog *p, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "print: out of memory");
        return NULL;
    }
    int rc = ptx_print(f, p, err, errlen);
    if (fclose(f) || rc) {
        free(buf);
        if (!rc && err && errlen)
            snprintf(err, errlen, "print: out of memory");
        return NULL;
    }
    return buf;
}

char *ptx_print_body(const struct ptx_prog *p, char *err, size_t errlen)
{
    char *t = ptx_print_string(p, err, errlen), *body = t;
    if (!t)
        return NULL;
    while (body[0] == '/' && body[1] == '/' && strchr(body, '\n'))
        body = strchr(body, '\n') + 1;
    memmove(t, body, strlen(body) + 1);
    return t;
}
