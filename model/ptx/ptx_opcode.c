/*
 * ptx_opcode.c -- the PTX parser's opcode table and operand parser.
 *
 * Not a hardware block.  A dotted opcode ("setp.lt.and.s32") is split at its dots and decoded
 * against the table of the modifier classes each opcode accepts; then the operands are parsed
 * generically (registers, special registers, symbols, [addresses], {vectors}, numbers, "a|b"
 * pairs) into struct raw, which ptx_insn.c checks per opcode.
 */
#include "ptx_parse_priv.h"
#include <stdio.h>

/* ------------------------------------------------------------------ opcodes */

/* modifier classes an opcode accepts */
enum {
    A_TYPE = 1u << 0, A_TYPE2 = 1u << 1, A_SPACE = 1u << 2, A_VEC = 1u << 3,
    A_RND = 1u << 4, A_IRND = 1u << 5, A_LOHI = 1u << 6, A_WIDE = 1u << 7,
    A_SAT = 1u << 8, A_FTZ = 1u << 9, A_APPROX = 1u << 10, A_FULL = 1u << 11,
    A_UNI = 1u << 12, A_CC = 1u << 13, A_TO = 1u << 14, A_SHIFTAMT = 1u << 15,
    A_NC = 1u << 16, A_VOLATILE = 1u << 17, A_SYNC = 1u << 18, A_ALIGNED = 1u << 19,
    A_ORDER = 1u << 20, A_SCOPE = 1u << 21, A_CACHE = 1u << 22, A_CMP = 1u << 23,
    A_BOP = 1u << 24, A_AOP = 1u << 25, A_SHFL = 1u << 26, A_VOTE = 1u << 27,
    A_PRMT = 1u << 28, A_BAR = 1u << 29, A_LEVEL = 1u << 30
};
#define A_CIN (1u << 31)       /* addc, subc, madc: carry in (MOD_CIN) */

#define A_MEM (A_TYPE | A_SPACE | A_VEC | A_VOLATILE | A_ORDER | A_SCOPE | A_CACHE)
#define A_ARITH (A_TYPE | A_RND | A_SAT | A_FTZ)
static const struct opspec opspecs[] = {
    {"ld", OP_LD, A_MEM | A_NC},           {"st", OP_ST, A_MEM},
    {"mov", OP_MOV, A_TYPE},               {"cvta", OP_CVTA, A_TYPE | A_SPACE | A_TO},
    {"cvt", OP_CVT, A_TYPE | A_TYPE2 | A_RND | A_IRND | A_SAT | A_FTZ},
    {"add", OP_ADD, A_ARITH | A_CC},       {"sub", OP_SUB, A_ARITH | A_CC},
    {"mul", OP_MUL, A_ARITH | A_LOHI | A_WIDE},
    {"mad", OP_MAD, A_ARITH | A_LOHI | A_WIDE | A_CC},
    {"addc", OP_ADD, A_TYPE | A_CC | A_CIN}, {"subc", OP_SUB, A_TYPE | A_CC | A_CIN},
    {"madc", OP_MAD, A_TYPE | A_LOHI | A_CC | A_CIN},
    {"fma", OP_FMA, A_ARITH},
    {"div", OP_DIV, A_TYPE | A_RND | A_APPROX | A_FULL | A_FTZ},
    {"rem", OP_REM, A_TYPE},
    {"min", OP_MIN, A_TYPE | A_FTZ},       {"max", OP_MAX, A_TYPE | A_FTZ},
    {"abs", OP_ABS, A_TYPE | A_FTZ},       {"neg", OP_NEG, A_TYPE | A_FTZ},
    {"mul24", OP_MUL24, A_TYPE | A_LOHI},  {"mad24", OP_MAD24, A_TYPE | A_LOHI | A_SAT},
    {"sad", OP_SAD, A_TYPE},               {"copysign", OP_COPYSIGN, A_TYPE},
    {"and", OP_AND, A_TYPE},               {"or", OP_OR, A_TYPE},
    {"xor", OP_XOR, A_TYPE},               {"not", OP_NOT, A_TYPE},
    {"cnot", OP_CNOT, A_TYPE},             {"shl", OP_SHL, A_TYPE},
    {"shr", OP_SHR, A_TYPE},               {"popc", OP_POPC, A_TYPE},
    {"clz", OP_CLZ, A_TYPE},               {"brev", OP_BREV, A_TYPE},
    {"bfe", OP_BFE, A_TYPE},               {"bfi", OP_BFI, A_TYPE},
    {"prmt", OP_PRMT, A_TYPE | A_PRMT},    {"bfind", OP_BFIND, A_TYPE | A_SHIFTAMT},
    {"setp", OP_SETP, A_TYPE | A_CMP | A_BOP | A_FTZ},
    {"set", OP_SET, A_TYPE | A_TYPE2 | A_CMP | A_BOP | A_FTZ},
    {"selp", OP_SELP, A_TYPE},             {"slct", OP_SLCT, A_TYPE | A_TYPE2 | A_FTZ},
    {"bra", OP_BRA, A_UNI},                {"exit", OP_EXIT, 0},
    {"ret", OP_RET, A_UNI},                {"call", OP_CALL, A_UNI},
    {"bar", OP_BAR, A_BAR | A_SYNC | A_ALIGNED},
    {"barrier", OP_BAR, A_BAR | A_SYNC | A_ALIGNED},
    {"membar", OP_MEMBAR, A_SCOPE | A_LEVEL}, {"fence", OP_MEMBAR, A_ORDER | A_SCOPE},
    {"atom", OP_ATOM, A_TYPE | A_SPACE | A_AOP | A_ORDER | A_SCOPE},
    {"red", OP_RED, A_TYPE | A_SPACE | A_AOP | A_ORDER | A_SCOPE},
    {"sqrt", OP_SQRT, A_TYPE | A_RND | A_APPROX | A_FTZ},
    {"rsqrt", OP_RSQRT, A_TYPE | A_APPROX | A_FTZ},
    {"rcp", OP_RCP, A_TYPE | A_RND | A_APPROX | A_FTZ},
    {"ex2", OP_EX2, A_TYPE | A_APPROX | A_FTZ}, {"lg2", OP_LG2, A_TYPE | A_APPROX | A_FTZ},
    {"sin", OP_SIN, A_TYPE | A_APPROX | A_FTZ}, {"cos", OP_COS, A_TYPE | A_APPROX | A_FTZ},
    {"tanh", OP_TANH, A_TYPE | A_APPROX | A_FTZ},
    {"shfl", OP_SHFL, A_TYPE | A_SYNC | A_SHFL}, {"vote", OP_VOTE, A_TYPE | A_SYNC | A_VOTE},
    {"activemask", OP_ACTIVEMASK, A_TYPE}, {"nop", OP_NOP, 0},
    /* VTW's ISA extension (000_0da6b8b480bd0740.txt Sec. 4.2): only its transform writes them */
    {"nexttbid", OP_NEXTTB, A_TYPE},       {"nextidxinblk", OP_NEXTIDX, A_TYPE},
};

static int name_in(const char *s, const char *const *tab, int n)
{
    for (int i = 0; i < n; i++)
        if (tab[i] && !strcmp(s, tab[i]))
            return i;
    return -1;
}
#define NAME_IN(s, tab) name_in(s, tab, (int)(sizeof(tab) / sizeof(tab[0])))

static const char *const k_spaces[] = {NULL, "global", "shared", "local", "const", "param"};
static const char *const k_cmps[] = {NULL, "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
    "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const k_bops[] = {NULL, "and", "or", "xor"};
static const char *const k_rnds[] = {NULL, "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const k_aops[] = {NULL, "add", "min", "max", "inc", "dec", "and", "or", "xor",
    "exch", "cas"};
static const char *const k_shfl[] = {NULL, "up", "down", "bfly", "idx"};
static const char *const k_vote[] = {NULL, "all", "any", "uni", "ballot"};
static const char *const k_prmt[] = {NULL, "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
static const char *const k_order[] = {"relaxed", "acquire", "release", "acq_rel", "sc", "weak",
    "mmio"};
static const char *const k_scope[] = {"cta", "gpu", "sys", "cluster"};
static const char *const k_cache[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt"};

void px_unsupported(struct pctx *c, uint32_t line)
{
    px_fail(c, line, "unsupported PTX instruction '%s'", c->opname);
}

/* One modifier of an opcode; returns 0 if the opcode does not accept it. */
static int apply_mod(const char *m, uint32_t al, struct ptx_insn *in, struct opinfo *oi)
{
    int k;
    uint8_t ty = px_type_by_name(m);
    if (ty && (al & A_TYPE)) {
        if (oi->ntypes >= ((al & A_TYPE2) ? 2 : 1))
            return 0;
        oi->types[oi->ntypes++] = ty;
        return 1;
    }
    if ((al & A_SPACE) && (k = NAME_IN(m, k_spaces)) > 0 && !oi->has_space) {
        in->space = (uint8_t)k;
        oi->has_space = 1;
        return 1;
    }
    if ((al & A_SPACE) && !strcmp(m, "shared::cta") && !oi->has_space) {
        in->space = PS_SHARED;
        oi->has_space = 1;
        return 1;
    }
    if ((al & A_VEC) && (!strcmp(m, "v2") || !strcmp(m, "v4")) && in->vec <= 1) {
        in->vec = (uint8_t)(m[1] - '0');
        return 1;
    }
    if ((al & A_CMP) && (k = NAME_IN(m, k_cmps)) > 0 && !in->cmp) {
        in->cmp = (uint8_t)k;
        return 1;
    }
    if ((al & A_BOP) && (k = NAME_IN(m, k_bops)) > 0 && in->cmp && !in->bop) {
        in->bop = (uint8_t)k;
        return 1;
    }
    if ((al & A_AOP) && (k = NAME_IN(m, k_aops)) > 0 && !in->sub) {
        in->sub = (uint8_t)k;
        return 1;
    }
    if ((al & A_SHFL) && (k = NAME_IN(m, k_shfl)) > 0 && !in->sub) {
        in->sub = (uint8_t)k;
        return 1;
    }
    if ((al & A_VOTE) && (k = NAME_IN(m, k_vote)) > 0 && !in->sub) {
        in->sub = (uint8_t)k;
        return 1;
    }
    if ((al & A_PRMT) && (k = NAME_IN(m, k_prmt)) > 0 && !in->sub) {
        in->sub = (uint8_t)k;
        return 1;
    }
    if ((k = NAME_IN(m, k_rnds)) > 0 && !in->rnd) {
        if ((k <= RND_RP && (al & A_RND)) || (k >= RND_RNI && (al & A_IRND))) {
            in->rnd = (uint8_t)k;
            return 1;
        }
        return 0;
    }
    static const struct { const char *n; uint32_t cls; uint16_t bit; } flags[] = {
        {"lo", A_LOHI, MOD_LO}, {"hi", A_LOHI, MOD_HI}, {"wide", A_WIDE, MOD_WIDE},
        {"sat", A_SAT, MOD_SAT}, {"ftz", A_FTZ, MOD_FTZ}, {"approx", A_APPROX, MOD_APPROX},
        {"full", A_FULL, MOD_FULL}, {"uni", A_UNI, MOD_UNI}, {"cc", A_CC, MOD_CC},
        {"to", A_TO, MOD_TO}, {"shiftamt", A_SHIFTAMT, MOD_SHIFTAMT}, {"nc", A_NC, MOD_NC},
        {"volatile", A_VOLATILE, MOD_VOLATILE},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(m, flags[i].n)) {
            if (!(al & flags[i].cls) || (in->mod & flags[i].bit))
                return 0;
            if ((flags[i].bit & (MOD_LO | MOD_HI | MOD_WIDE)) && (in->mod & (MOD_LO | MOD_HI | MOD_WIDE)))
                return 0;
            in->mod |= flags[i].bit;
            return 1;
        }
    if ((al & A_BAR) && (!strcmp(m, "arrive") || !strcmp(m, "warp")) && !oi->bar_kind) {
        oi->bar_kind = m[0] == 'a' ? BK_ARRIVE : BK_WARP;
        return 1;
    }
    if ((al & A_SYNC) && !strcmp(m, "sync") && !oi->sync) {
        oi->sync = 1;
        return 1;
    }
    if ((al & A_ALIGNED) && !strcmp(m, "aligned") && !oi->aligned) {
        oi->aligned = 1;
        return 1;
    }
    if ((al & A_LEVEL) && (!strcmp(m, "gl") || !strcmp(m, "cta") || !strcmp(m, "sys")) && !oi->level) {
        oi->level = 1;
        return 1;
    }
    if ((al & A_ORDER) && NAME_IN(m, k_order) >= 0) {
        oi->has_order = 1;
        return 1;
    }
    if ((al & A_SCOPE) && NAME_IN(m, k_scope) >= 0)
        return 1;
    if ((al & A_CACHE) && (NAME_IN(m, k_cache) >= 0 || !strncmp(m, "L1::", 4) || !strncmp(m, "L2::", 4)))
        return 1;
    return 0;
}

/* Split the opcode token at its dots and decode it. */
const struct opspec *px_decode_opcode(struct pctx *c, struct ptx_insn *in, struct opinfo *oi)
{
    char buf[sizeof c->opname];
    uint32_t line = c->t.line;
    snprintf(c->opname, sizeof c->opname, "%.*s", (int)c->t.len, c->t.s);
    if (c->t.len >= sizeof buf)
        px_unsupported(c, line);
    memcpy(buf, c->t.s, c->t.len);
    buf[c->t.len] = 0;
    char *save = NULL, *part = strtok_r(buf, ".", &save);
    const struct opspec *spec = NULL;
    for (size_t i = 0; part && i < sizeof opspecs / sizeof opspecs[0]; i++)
        if (!strcmp(part, opspecs[i].name))
            spec = &opspecs[i];
    if (!spec || strstr(c->opname, ".."))
        px_unsupported(c, line);
    in->op = spec->op;
    if (spec->allow & A_CIN)
        in->mod |= MOD_CIN;
    while ((part = strtok_r(NULL, ".", &save)) != NULL)
        if (!apply_mod(part, spec->allow, in, oi))
            px_unsupported(c, line);
    if (c->opname[c->t.len - 1] == '.')
        px_unsupported(c, line);
    return spec;
}

/* ------------------------------------------------------------------ operands */

static const struct { const char *name; uint8_t sreg; uint8_t comps; uint8_t type; } sregs[] = {
    {"%tid", SR_TID, 1, PT_U32}, {"%ntid", SR_NTID, 1, PT_U32}, {"%ctaid", SR_CTAID, 1, PT_U32},
    {"%nctaid", SR_NCTAID, 1, PT_U32}, {"%laneid", SR_LANEID, 0, PT_U32},
    {"%warpid", SR_WARPID, 0, PT_U32}, {"%nwarpid", SR_NWARPID, 0, PT_U32},
    {"%smid", SR_SMID, 0, PT_U32}, {"%nsmid", SR_NSMID, 0, PT_U32},
    {"%clock", SR_CLOCK, 0, PT_U32}, {"%clock64", SR_CLOCK64, 0, PT_U64},
    {"%gridid", SR_GRIDID, 0, PT_U64}, {"%lanemask_eq", SR_LANEMASK_EQ, 0, PT_U32},
    {"%lanemask_lt", SR_LANEMASK_LT, 0, PT_U32}, {"%lanemask_le", SR_LANEMASK_LE, 0, PT_U32},
    {"%lanemask_gt", SR_LANEMASK_GT, 0, PT_U32}, {"%lanemask_ge", SR_LANEMASK_GE, 0, PT_U32},
};

static int parse_sreg(const struct tok *t, struct raw *r)
{
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++) {
        size_t n = strlen(sregs[i].name);
        if (t->len < n || memcmp(t->s, sregs[i].name, n) != 0)
            continue;
        if (t->len == n && !sregs[i].comps) {
            r->o.comp = 0;
        } else if (sregs[i].comps && t->len == n + 2 && t->s[n] == '.' && t->s[n + 1] >= 'x'
                   && t->s[n + 1] <= 'z') {
            r->o.comp = (uint8_t)(t->s[n + 1] - 'x');
        } else {
            continue;
        }
        r->o.kind = OPD_SREG;
        r->o.sreg = sregs[i].sreg;
        r->rtype = sregs[i].type;
        return 1;
    }
    return 0;
}

/* A register name (for vectors, guards, call arguments): returns the register index or -1. */
int32_t px_find_reg(struct pctx *c, const struct tok *t, uint8_t *type)
{
    uint32_t sub;
    const struct decl *d = px_lookup(c, t->s, t->len, &sub);
    if (!d || (d->kind != D_REG && d->kind != D_RANGE))
        return -1;
    *type = curf(c)->regs[d->idx + (int32_t)sub].type;
    return d->idx + (int32_t)sub;
}

void px_unknown_name(struct pctx *c, const struct tok *t)
{
    char b[64];
    if (t->kind == T_IDENT && t->s[0] == '%')
        px_fail(c, t->line, "unknown register '%s'", px_tok_show(t, b, sizeof b));
    if (t->kind == T_IDENT)
        px_fail(c, t->line, "unknown symbol '%s'", px_tok_show(t, b, sizeof b));
    if (t->kind == T_EOF)
        px_fail(c, t->line, "unexpected end of file: missing ';'");
    px_fail(c, t->line, "bad operand '%s' of '%s'", px_tok_show(t, b, sizeof b), c->opname);
}

static void set_name(struct raw *r, const struct tok *t)
{
    snprintf(r->name, sizeof r->name, "%.*s", (int)(t->len < 39 ? t->len : 39), t->s);
}

/* Symbol (variable / parameter) as written: fills sym, space and var, returns 1 if found. */
static int find_sym(struct pctx *c, const struct tok *t, struct raw *r)
{
    uint32_t sub;
    const struct decl *d = px_lookup(c, t->s, t->len, &sub);
    if (!d || d->kind == D_REG || d->kind == D_RANGE)
        return 0;
    r->o.sym = d->sym;
    r->o.space = d->kind == D_VAR ? c->m->vars[d->idx].space : PS_PARAM;
    r->var = d->kind == D_VAR ? d->idx : -1;
    return 1;
}

/* Integer literal, optionally negated (address offsets). */
static int64_t parse_int_lit(struct pctx *c)
{
    int neg = 0;
    while (is_punct(&c->t, '-') || is_punct(&c->t, '+')) {
        neg ^= c->t.c == '-';
        px_next(c);
    }
    if (c->t.kind != T_NUM || c->t.lit != LIT_INT)
        px_unknown_name(c, &c->t);
    uint64_t v = c->t.u;
    px_next(c);
    return neg ? (int64_t)(0 - v) : (int64_t)v;
}

/* Register, special register or symbol name as an operand value; a symbol may carry an
   offset ("smem+16": the address of smem plus 16, as ptxas reads it). */
static void parse_name_opd(struct pctx *c, struct raw *r)
{
    const struct tok *t = &c->t;
    set_name(r, t);
    int32_t reg = px_find_reg(c, t, &r->rtype);
    if (reg >= 0) {
        r->o.kind = OPD_REG;
        r->o.reg = reg;
    } else if (t->s[0] == '%' && parse_sreg(t, r)) {
        /* special register */
    } else if (find_sym(c, t, r)) {
        r->o.kind = OPD_SYMADDR;
        px_next(c);
        if (is_punct(&c->t, '+') || is_punct(&c->t, '-'))
            r->o.imm = parse_int_lit(c);
        return;
    } else {
        px_unknown_name(c, t);
    }
    px_next(c);
}

/* [reg], [reg+imm], [sym], [sym+imm], [imm] */
static void parse_addr(struct pctx *c, struct raw *r)
{
    px_next(c);
    r->o.kind = OPD_ADDR;
    r->o.reg = -1;
    r->o.sym = -1;
    if (c->t.kind == T_IDENT) {
        set_name(r, &c->t);
        uint8_t ty;
        int32_t reg = px_find_reg(c, &c->t, &ty);
        if (reg >= 0) {
            if (ty == PT_PRED || (tsize(ty) != 4 && tsize(ty) != 8))
                px_fail(c, c->t.line, "type mismatch: address register '%s' is .%s (needs 32 or 64 bits)",
                     r->name, ptx_type_name((enum ptx_type)ty));
            r->o.reg = reg;
        } else if (!find_sym(c, &c->t, r)) {
            px_unknown_name(c, &c->t);
        }
        px_next(c);
        if (is_punct(&c->t, '+') || is_punct(&c->t, '-'))
            r->o.imm = parse_int_lit(c);
    } else {
        r->o.imm = parse_int_lit(c);
    }
    px_expect_punct(c, ']');
}

/* {a, b, _, d} */
static void parse_vec(struct pctx *c, struct raw *r)
{
    uint32_t line = c->t.line;
    px_next(c);
    r->o.kind = OPD_VEC;
    r->o.reg = -1;
    for (;;) {
        if (r->o.nvec >= 4)
            px_fail(c, line, "too many vector elements in '%s'", c->opname);
        if (c->t.kind != T_IDENT)
            px_unknown_name(c, &c->t);
        int k = r->o.nvec++;
        if (tok_is(&c->t, "_")) {
            r->o.vec[k] = -1;
            r->vtype[k] = PT_NONE;
        } else {
            r->o.vec[k] = px_find_reg(c, &c->t, &r->vtype[k]);
            if (r->o.vec[k] < 0)
                px_unknown_name(c, &c->t);
            if (!r->name[0])
                set_name(r, &c->t);
        }
        px_next(c);
        if (is_punct(&c->t, ',')) {
            px_next(c);
            continue;
        }
        px_expect_punct(c, '}');
        break;
    }
    if (r->o.nvec != 2 && r->o.nvec != 4 && r->o.nvec != 1)
        px_fail(c, line, "bad vector operand in '%s' (needs 1, 2 or 4 elements)", c->opname);
}

static void parse_number_opd(struct pctx *c, struct raw *r)
{
    int neg = 0;
    while (is_punct(&c->t, '-')) {
        neg ^= 1;
        px_next(c);
    }
    if (c->t.kind != T_NUM)
        px_unknown_name(c, &c->t);
    r->o.kind = OPD_IMM;
    r->lit = c->t.lit;
    uint64_t u = c->t.u;
    r->d = c->t.d;
    if (neg) {
        if (r->lit == LIT_INT)
            u = 0 - u;
        else if (r->lit == LIT_F32)
            u ^= 0x80000000u;
        else if (r->lit == LIT_F64)
            u ^= 0x8000000000000000ull;
        else
            r->d = -r->d;
    }
    r->o.imm = (int64_t)u;
    px_next(c);
}

static void parse_one_opd(struct pctx *c, struct raw *r)
{
    memset(r, 0, sizeof *r);
    r->o.reg = -1;
    r->o.sym = -1;
    r->var = -1;
    r->line = c->t.line;
    if (is_punct(&c->t, '!')) {
        r->o.neg = 1;
        px_next(c);
        if (c->t.kind != T_IDENT)
            px_unknown_name(c, &c->t);
    }
    if (is_punct(&c->t, '['))
        parse_addr(c, r);
    else if (is_punct(&c->t, '{'))
        parse_vec(c, r);
    else if (c->t.kind == T_NUM || is_punct(&c->t, '-'))
        parse_number_opd(c, r);
    else if (c->t.kind == T_IDENT && !tok_is(&c->t, "_"))
        parse_name_opd(c, r);
    else
        px_unknown_name(c, &c->t);
    if (r->o.neg && r->o.kind != OPD_REG)
        px_fail(c, r->line, "bad operand: '!' on a non-register in '%s'", c->opname);
}

/* Operands up to and including ';'. Returns how many. */
int px_parse_operands(struct pctx *c, struct raw *r)
{
    int n = 0;
    if (is_punct(&c->t, ';')) {
        px_next(c);
        return 0;
    }
    for (;;) {
        if (n >= MAX_RAW)
            px_fail(c, c->t.line, "too many operands for '%s'", c->opname);
        parse_one_opd(c, &r[n]);
        if (is_punct(&c->t, '|')) {
            px_next(c);
            if (c->t.kind != T_IDENT)
                px_unknown_name(c, &c->t);
            struct raw p;
            parse_one_opd(c, &p);
            if (p.o.kind != OPD_REG)
                px_fail(c, p.line, "bad operand after '|' in '%s'", c->opname);
            r[n].has_pair = 1;
            r[n].pair = p.o;
            r[n].pair_rtype = p.rtype;
        }
        n++;
        if (is_punct(&c->t, ',')) {
            px_next(c);
            continue;
        }
        if (c->t.kind == T_EOF)
            px_fail(c, c->t.line, "unexpected end of file: missing ';'");
        if (!is_punct(&c->t, ';')) {
            char b[64];
            px_fail(c, c->t.line, "expected ',' or ';' after operand of '%s', found '%s'", c->opname,
                 px_tok_show(&c->t, b, sizeof b));
        }
        px_next(c);
        return n;
    }
}
