/*
 * ptx_util.c -- small helpers of the PTX front end: type sizes and names, opcode names,
 * function lookup, variable placement for printing, reading a .ptx file, and the instruction
 * formatter (the disassembler of linked instructions, shared with the printer: ptx_fmt.h).
 *
 * Not a hardware block.  Everything here is pure (no state); ptx_insn_format is used for
 * dumps and error messages, never in a per-instruction hot path.
 */
#include "ptx_fmt.h"
#include "ptx_ntab.h"
#include "base/infile.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[PT_COUNT] = {
    "", "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
    "s8", "s16", "s32", "s64", "f16", "f32", "f64"
};
static const uint8_t type_sizes[PT_COUNT] = {0, 1, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8};

static const char *const op_names[OP_COUNT] = {
    "invalid",
    "ld", "st", "mov", "cvta", "cvt",
    "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "abs", "neg",
    "mul24", "mad24", "sad", "copysign",
    "and", "or", "xor", "not", "cnot", "shl", "shr",
    "popc", "clz", "brev", "bfe", "bfi", "prmt", "bfind",
    "setp", "set", "selp", "slct",
    "bra", "exit", "ret", "call",
    "bar", "membar",
    "atom", "red",
    "sqrt", "rsqrt", "rcp", "ex2", "lg2", "sin", "cos", "tanh",
    "shfl", "vote", "activemask",
    "nop",
    "nexttbid", "nextidxinblk",
    "vprintf"
};

unsigned ptx_type_size(enum ptx_type t)
{
    return (unsigned)t < PT_COUNT ? type_sizes[t] : 0;
}

int ptx_type_is_float(enum ptx_type t)
{
    return t == PT_F16 || t == PT_F32 || t == PT_F64;
}

int ptx_type_is_signed(enum ptx_type t)
{
    return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64;
}

const char *ptx_type_name(enum ptx_type t)
{
    return (unsigned)t < PT_COUNT ? type_names[t] : "?";
}

const char *ptx_op_name(enum ptx_op op)
{
    return (unsigned)op < OP_COUNT ? op_names[op] : "?";
}

const struct ptx_func *ptx_find_func(const struct ptx_module *mod, const char *name)
{
    if (!mod || !name)
        return NULL;
    if (mod->names) {                  /* a parsed module: its index */
        int32_t i = ntab_get(&mod->names->funcs, name, strlen(name));
        return i == NTAB_NONE || (uint32_t)i >= mod->nfuncs ? NULL : &mod->funcs[i];
    }
    for (uint32_t i = 0; i < mod->nfuncs; i++)
        if (strcmp(mod->funcs[i].name, name) == 0)
            return &mod->funcs[i];
    return NULL;
}

const char *ptx_pragma(const struct ptx_module *mod, uint16_t idx)
{
    if (!mod || !idx || idx > mod->npragmas || !mod->pragmas)
        return NULL;
    return mod->pragmas[idx - 1];
}

void ptx_place_vars(struct ptx_module *mod, uint64_t base)
{
    if (!mod)
        return;
    uint64_t next = base;
    for (uint32_t i = 0; i < mod->nvars; i++) {
        struct ptx_var *v = &mod->vars[i];
        if ((v->space != PS_GLOBAL && v->space != PS_CONST) || v->addr)
            continue;
        uint64_t al = v->align > 16 ? v->align : 16;
        next = (next + al - 1) / al * al;
        v->addr = next;
        next += v->size ? v->size : 1;
    }
}

/* Read the whole file (infile_read: a regular file of at most PTX_FILE_MAX bytes), then parse
   it. */
int ptx_parse_file(const char *path, struct ptx_module *mod, char *err, size_t errlen)
{
    size_t len = 0;
    char *buf = infile_read(path, "PTX", PTX_FILE_MAX, &len, err, errlen);
    int rc;
    if (!buf) {
        memset(mod, 0, sizeof *mod);
        return -1;
    }
    rc = ptx_parse(buf, len, path, mod, err, errlen);
    free(buf);
    return rc;
}

/* ---------------- disassembler ---------------- */

void ptx_sb_add(struct ptx_sbuf *b, const char *fmt, ...)
{
    if (b->pos + 1 >= b->len) {
        b->full = 1;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->pos, b->len - b->pos, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->pos + (size_t)n < b->len) {
        b->pos += (size_t)n;
    } else {
        b->pos = b->len - 1;
        b->full = 1;
    }
}

static const char *const space_names[PS_COUNT] = {"", "global", "shared", "local", "const", "param"};
static const char *const cmp_names[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
    "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const bop_names[] = {"", "and", "or", "xor"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const aop_names[] = {"", "add", "min", "max", "inc", "dec", "and", "or", "xor",
    "exch", "cas"};
static const char *const shfl_names[] = {"", "up", "down", "bfly", "idx"};
static const char *const vote_names[] = {"", "all", "any", "uni", "ballot"};
static const char *const prmt_names[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
static const char *const sreg_names[] = {"", "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid",
    "%warpid", "%nwarpid", "%smid", "%nsmid", "%clock", "%clock64", "%gridid", "%lanemask_eq",
    "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge"};

#define NAME_AT(tab, i) ((size_t)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "?")

const char *ptx_space_name(enum ptx_space s)
{
    return NAME_AT(space_names, s);
}

const char *ptx_sreg_name(enum ptx_sreg s)
{
    return NAME_AT(sreg_names, s);
}

static void fmt_reg(struct ptx_sbuf *b, const struct ptx_prog *p, const struct ptx_namer *nm,
                    int32_t r)
{
    if (r < 0)
        ptx_sb_add(b, "_");
    else if (nm)
        nm->reg(nm->ctx, b, r);
    else if (p->reg_name && (uint32_t)r < p->nregs && p->reg_name[r][0])
        ptx_sb_add(b, "%s", p->reg_name[r]);
    else
        ptx_sb_add(b, "%%R%d", (int)r);
}

/* Immediate: float types as PTX hex literals, everything else as a decimal integer. */
static void fmt_imm(struct ptx_sbuf *b, int64_t v, uint8_t type)
{
    if (type == PT_F32)
        ptx_sb_add(b, "0f%08X", (unsigned)(uint32_t)v);
    else if (type == PT_F64)
        ptx_sb_add(b, "0d%016" PRIX64, (uint64_t)v);
    else
        ptx_sb_add(b, "%" PRId64, v);
}

/* [reg], [reg+off], or a folded address: through the namer, or as "space:0x.." */
static void fmt_addr(struct ptx_sbuf *b, const struct ptx_prog *p, const struct ptx_namer *nm,
                     const struct ptx_operand *o)
{
    ptx_sb_add(b, "[");
    if (o->reg >= 0) {
        fmt_reg(b, p, nm, o->reg);
        if (o->imm)
            ptx_sb_add(b, "+%" PRId64, o->imm);      /* "+-8", as PTX writes it */
    } else if (nm) {
        nm->addr(nm->ctx, b, o->space, o->imm);
    } else {
        if (o->space)
            ptx_sb_add(b, "%s:", NAME_AT(space_names, o->space));
        ptx_sb_add(b, "0x%" PRIx64, (uint64_t)o->imm);
    }
    ptx_sb_add(b, "]");
}

static void fmt_opd(struct ptx_sbuf *b, const struct ptx_prog *p, const struct ptx_namer *nm,
                    const struct ptx_operand *o, uint8_t type)
{
    if (o->neg)
        ptx_sb_add(b, "!");
    switch (o->kind) {
    case OPD_NONE: ptx_sb_add(b, "_"); break;
    case OPD_REG: fmt_reg(b, p, nm, o->reg); break;
    case OPD_IMM: fmt_imm(b, o->imm, type); break;
    case OPD_SREG:
        ptx_sb_add(b, "%s", NAME_AT(sreg_names, o->sreg));
        if (o->sreg <= SR_NCTAID && o->sreg != SR_NONE)
            ptx_sb_add(b, ".%c", "xyz"[o->comp % 3]);
        break;
    case OPD_ADDR: fmt_addr(b, p, nm, o); break;
    case OPD_SYMADDR:
        if (nm)
            nm->addr(nm->ctx, b, o->space, o->imm);
        else
            ptx_sb_add(b, "%s:0x%" PRIx64, NAME_AT(space_names, o->space), (uint64_t)o->imm);
        break;
    case OPD_VEC:
        ptx_sb_add(b, "{");
        for (unsigned i = 0; i < o->nvec && i < 4; i++) {
            if (i)
                ptx_sb_add(b, ", ");
            fmt_reg(b, p, nm, o->vec[i]);
        }
        ptx_sb_add(b, "}");
        break;
    case OPD_LABEL:
        if (nm)
            nm->label(nm->ctx, b, o->imm);
        else
            ptx_sb_add(b, "@%" PRId64, o->imm);
        break;
    case OPD_SYM: ptx_sb_add(b, "sym#%d", (int)o->sym); break;
    default: ptx_sb_add(b, "?"); break;
    }
}

static void fmt_mods(struct ptx_sbuf *b, uint16_t mod)
{
    static const struct { uint16_t bit; const char *name; } tab[] = {
        {MOD_TO, "to"}, {MOD_VOLATILE, "volatile"}, {MOD_LO, "lo"}, {MOD_HI, "hi"},
        {MOD_WIDE, "wide"}, {MOD_APPROX, "approx"}, {MOD_FULL, "full"}, {MOD_FTZ, "ftz"},
        {MOD_SAT, "sat"}, {MOD_UNI, "uni"}, {MOD_CC, "cc"}, {MOD_SHIFTAMT, "shiftamt"},
        {MOD_NC, "nc"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (mod & tab[i].bit)
            ptx_sb_add(b, ".%s", tab[i].name);
}

/* The dotted opcode, e.g. "setp.lt.and.s32" or "ld.global.v4.f32". */
static void fmt_opcode(struct ptx_sbuf *b, const struct ptx_insn *in)
{
    if (in->op == OP_NOP && in->sub == 1) {     /* bar.warp.sync, kept as a no-op */
        ptx_sb_add(b, "bar.warp.sync");
        return;
    }
    ptx_sb_add(b, "%s%s", ptx_op_name((enum ptx_op)in->op), (in->mod & MOD_CIN) ? "c" : "");
    if (in->op == OP_CVTA && (in->mod & MOD_TO))
        ptx_sb_add(b, ".to");
    switch (in->op) {
    case OP_SHFL: ptx_sb_add(b, ".sync.%s", NAME_AT(shfl_names, in->sub)); break;
    case OP_VOTE: ptx_sb_add(b, ".sync.%s", NAME_AT(vote_names, in->sub)); break;
    case OP_BAR: ptx_sb_add(b, in->sub == 1 ? ".arrive" : ".sync"); break;
    case OP_MEMBAR: ptx_sb_add(b, ".gl"); break;   /* the level is not kept (executes as none) */
    case OP_PRMT: if (in->sub) ptx_sb_add(b, ".%s", NAME_AT(prmt_names, in->sub)); break;
    default: break;
    }
    if (in->space)
        ptx_sb_add(b, ".%s", NAME_AT(space_names, in->space));
    if (in->op == OP_ATOM || in->op == OP_RED)
        ptx_sb_add(b, ".%s", NAME_AT(aop_names, in->sub));
    if (in->cmp)
        ptx_sb_add(b, ".%s", NAME_AT(cmp_names, in->cmp));
    if (in->bop)
        ptx_sb_add(b, ".%s", NAME_AT(bop_names, in->bop));
    if (in->rnd)
        ptx_sb_add(b, ".%s", NAME_AT(rnd_names, in->rnd));
    fmt_mods(b, in->op == OP_CVTA ? (uint16_t)(in->mod & ~MOD_TO) : in->mod);
    if (in->vec > 1)
        ptx_sb_add(b, ".v%u", (unsigned)in->vec);
    if (in->op == OP_SETP) {      /* type is .pred; the compared type is what PTX shows */
        if (in->type2)
            ptx_sb_add(b, ".%s", ptx_type_name((enum ptx_type)in->type2));
        return;
    }
    if (in->type)
        ptx_sb_add(b, ".%s", ptx_type_name((enum ptx_type)in->type));
    if (in->type2)
        ptx_sb_add(b, ".%s", ptx_type_name((enum ptx_type)in->type2));
}

/* Type an immediate operand is printed in: the compared type for setp/set, else the main one. */
static uint8_t imm_type(const struct ptx_insn *in, unsigned i)
{
    if ((in->op == OP_SETP && i >= 2 && i <= 3) || (in->op == OP_SET && i >= 1 && i <= 2))
        return in->type2;
    if (in->op == OP_SLCT && i == 3)
        return in->type2;
    if (in->op == OP_CVT && i == 1)
        return in->type2;
    return in->type;
}

void ptx_fmt_insn(struct ptx_sbuf *b, const struct ptx_prog *p, const struct ptx_insn *in,
                  const struct ptx_namer *nm)
{
    if (in->guard >= 0) {
        ptx_sb_add(b, "@%s", in->guard_neg ? "!" : "");
        fmt_reg(b, p, nm, in->guard);
        ptx_sb_add(b, " ");
    }
    fmt_opcode(b, in);
    for (unsigned i = 0; i < in->nopd && i < PTX_MAX_OPERANDS; i++) {
        const struct ptx_operand *o = &in->opd[i];
        if ((o->kind == OPD_NONE && in->op == OP_BAR) || (int)i == ptx_insn_carry(in))
            continue;             /* the carry flag is implied by the opcode (ptx.h) */
        int pair = (in->op == OP_SETP || in->op == OP_SHFL) && i == 1;
        if (pair) {
            if (o->kind != OPD_NONE) {
                ptx_sb_add(b, "|");
                fmt_opd(b, p, nm, o, imm_type(in, i));
            }
            continue;
        }
        ptx_sb_add(b, i ? ", " : " ");
        fmt_opd(b, p, nm, o, imm_type(in, i));
    }
}

void ptx_insn_format(const struct ptx_prog *p, uint32_t pc, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    buf[0] = 0;
    if (!p || pc >= p->ninsns) {
        snprintf(buf, len, "<pc %u out of range>", (unsigned)pc);
        return;
    }
    struct ptx_sbuf b = {buf, len, 0, 0};
    ptx_fmt_insn(&b, p, &p->insns[pc], NULL);
}

int ptx_errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

const char *ptx_where(const struct ptx_prog *p, uint32_t pc, char *buf, size_t len)
{
    const struct ptx_insn *in = pc < p->ninsns ? &p->insns[pc] : NULL;
    snprintf(buf, len, "%s:%u%s", p->mod && p->mod->filename[0] ? p->mod->filename : "?",
             in ? in->line : 0, in && in->origin != PTX_SRC ? " (VTW wrapper)" : "");
    return buf;
}

/* Does the kernel touch shared memory (static variables, a .shared access or address)? */
int ptx_prog_uses_shared(const struct ptx_prog *p)
{
    if (p->shared_static)
        return 1;
    for (uint32_t s = 0; s < p->nsyms; s++)
        if (p->syms[s].space == PS_SHARED)
            return 1;
    for (uint32_t pc = 0; pc < p->ninsns; pc++) {
        const struct ptx_insn *in = &p->insns[pc];
        if (in->space == PS_SHARED)
            return 1;
        for (unsigned k = 0; k < in->nopd; k++)
            if ((in->opd[k].kind == OPD_ADDR || in->opd[k].kind == OPD_SYMADDR)
                && in->opd[k].space == PS_SHARED)
                return 1;
    }
    return 0;
}
