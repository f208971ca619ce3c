/*
 * ptx_parse_priv.h -- what the files of the PTX parser share (private to model/ptx/ptx_*.c of
 * the parser; the interface is ptx.h).
 *
 * Not a hardware block.  The parser is split along its stages:
 *   ptx_lex.c     errors and memory, the string table, the lexer and token helpers
 *   ptx_decl.c    scopes (nested { } blocks) and declarations: .reg, variables, parameters
 *   ptx_opcode.c  the opcode table and its modifiers, and generic operand parsing
 *   ptx_insn.c    per-opcode operand checks that build a struct ptx_insn
 *   ptx_parse.c   statements (instructions, labels, bra, call), functions, the module, ptx_parse
 * Here: the parse context (struct pctx), tokens, declarations, raw operands, the opcode
 * descriptors, and the functions the stages call in each other (prefix px_).
 */
#ifndef PTX_PARSE_PRIV_H
#define PTX_PARSE_PRIV_H
#include "ptx.h"
#include "ptx_ntab.h"
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#define MAX_TOKEN       512          /* longest identifier / number accepted */
#define MAX_SCOPE       64           /* nesting of { } blocks */
#define MAX_REG_RANGE   65536u       /* %r<N>: N at most this */
#define MAX_FUNC_REGS   (1u << 20)   /* registers declared in one function */
#define MAX_VAR_BYTES   (1ull << 32) /* size of one variable */
#define MAX_INIT_BYTES  (1u << 26)   /* size of an initialised variable */
#define MAX_PARAM_BYTES (1u << 16)   /* size of one parameter */
#define MAX_RAW         8            /* operands of one instruction, as written */
#define MAX_ALIGN       65536u

enum tkind { T_EOF = 0, T_IDENT, T_DIR, T_NUM, T_STR, T_PUNCT };
enum lkind { LIT_NONE = 0, LIT_INT, LIT_F32, LIT_F64, LIT_FLT };

struct tok {
    uint8_t  kind, lit;
    char     c;                /* T_PUNCT */
    uint32_t line;
    const char *s;
    uint32_t len;
    uint64_t u;                /* LIT_INT value, LIT_F32/LIT_F64 bits */
    double   d;                /* LIT_FLT */
};

enum dkind { D_REG = 0, D_RANGE, D_VAR, D_PARAM, D_RET };
struct decl {                  /* one name visible in some scope */
    const char *name;          /* as written (points into the source text) */
    uint32_t len;
    uint8_t  kind;
    uint32_t count;            /* D_RANGE: number of registers */
    int32_t  idx;              /* register / variable / parameter index */
    int32_t  sym;              /* D_VAR/D_PARAM/D_RET: strs index */
    int32_t  prev;             /* the declaration of the same name (or range prefix) that
                                  this one shadows, NTAB_NONE */
};

struct lref { uint32_t insn; uint8_t opd; int32_t sym; uint32_t line; };

struct raw {                   /* one operand as written, before per-opcode checks */
    struct ptx_operand o;
    uint8_t  rtype;            /* OPD_REG: declared type; OPD_SREG: u32/u64 */
    uint8_t  lit;              /* OPD_IMM: literal kind */
    double   d;                /* OPD_IMM LIT_FLT value */
    uint8_t  vtype[4];         /* OPD_VEC element types (PT_NONE for '_') */
    uint8_t  has_pair;         /* "a|b" */
    struct ptx_operand pair;
    uint8_t  pair_rtype;
    uint32_t line;
    int32_t  var;              /* the variable a symbol names, -1 */
    char     name[40];         /* register / symbol name for messages */
};

struct pbuf { char *s; uint32_t len, cap; };   /* .pragma statements being collected */

struct pctx {
    const char *p, *end;       /* lexer position */
    uint32_t line, last_line;
    struct tok t;              /* current token */
    const char *fname;
    char    *err;
    size_t   errlen;
    char     errbuf[PTX_ERR_LEN];
    jmp_buf  jb;
    struct ptx_module *m;
    uint32_t cap_funcs, cap_vars, cap_strs;
    struct ntab strtab;        /* strs interning: string -> strs index */
    struct ntab dnames;        /* declared name -> innermost declaration (decls index) */
    struct ntab dranges;       /* range prefix P of P<N> -> innermost range declaration */
    struct ntab fnames;        /* the function's parameters and variables (unique names) */
    struct ntab pnames;        /* the parameter list being parsed */
    struct ntab labels;        /* the function's labels: strs index -> label index */
    struct decl *decls;
    uint32_t ndecls, cap_decls;
    uint32_t scope[MAX_SCOPE + 4];
    uint32_t depth;
    /* the function being parsed */
    int32_t  fidx;
    uint32_t cap_insns, cap_regs, cap_labels, cap_calls, cap_lrefs;
    struct lref *lrefs;
    uint32_t nlrefs;
    uint32_t uniq;
    uint8_t  scratch_decl;     /* the declaration being parsed is param scratch */
    struct tok *ivals;         /* scratch: initializer values of one variable */
    uint32_t cap_ivals;
    char     opname[128];      /* opcode of the instruction being parsed, for messages */
    struct ntab prtab;         /* pragma group text -> index in m->pragmas */
    uint32_t cap_pragmas;
    struct pbuf pend;          /* .pragma statements waiting for their instruction or body */
    struct pbuf mpend;         /* module-scope .pragma statements */
};

struct opspec { const char *name; uint8_t op; uint32_t allow; };

struct opinfo {                /* what the opcode's modifiers said, beyond ptx_insn fields */
    uint8_t  types[2], ntypes;
    uint8_t  has_space, sync, aligned, bar_kind, level, has_order;
};
enum { BK_NONE = 0, BK_SYNC, BK_ARRIVE, BK_WARP };

/* ------------------------------------------------------------------ small helpers */

static inline int is_alpha(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static inline int is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static inline int is_id0(int ch) { return is_alpha(ch) || ch == '_' || ch == '$' || ch == '%'; }
static inline int is_id1(int ch) { return is_alpha(ch) || is_digit(ch) || ch == '_' || ch == '$'; }

static inline int is_punct(const struct tok *t, char ch) { return t->kind == T_PUNCT && t->c == ch; }
static inline int tok_is(const struct tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}
static inline int dir_is(const struct tok *t, const char *s) { return t->kind == T_DIR && tok_is(t, s); }

static inline unsigned tsize(uint8_t t) { return ptx_type_size((enum ptx_type)t); }
static inline int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
static inline uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }
static inline struct ptx_func *curf(struct pctx *c) { return &c->m->funcs[c->fidx]; }

/* ------------------------------------------------------------------ ptx_lex.c */

void px_fail(struct pctx *c, uint32_t line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
void *px_grow(struct pctx *c, void *arr, uint32_t *cap, uint64_t need, size_t esz);
int32_t px_intern(struct pctx *c, const char *s, size_t len);
void px_next(struct pctx *c);
struct tok px_peek(struct pctx *c);
const char *px_tok_show(const struct tok *t, char *buf, size_t n);
void px_expect_punct(struct pctx *c, char ch);
void px_take_ident(struct pctx *c, char *buf, size_t n, const char *what);
uint64_t px_take_uint(struct pctx *c, const char *what, uint64_t max);
void px_skip_line(struct pctx *c);
void px_skip_section(struct pctx *c);
void px_take_pragma(struct pctx *c, struct pbuf *b);
uint16_t px_pragma_group(struct pctx *c, struct pbuf *b);
uint8_t px_type_of(const struct tok *t);
uint8_t px_type_by_name(const char *s);

/* ------------------------------------------------------------------ ptx_decl.c */

void px_push_scope(struct pctx *c);
void px_pop_scope(struct pctx *c);
const struct decl *px_lookup(struct pctx *c, const char *s, size_t len, uint32_t *sub);
int32_t px_carry_reg(struct pctx *c, uint32_t line);
void px_add_decl(struct pctx *c, const char *s, size_t len, uint8_t kind, uint32_t count,
                 int32_t idx, int32_t sym);
void px_parse_reg_decl(struct pctx *c);
void px_parse_var_decl(struct pctx *c, uint8_t space, int is_extern, int in_func);
void px_parse_params(struct pctx *c, struct ptx_param **arr, uint32_t *n, uint32_t *total);

/* ------------------------------------------------------------------ ptx_opcode.c */

void px_unsupported(struct pctx *c, uint32_t line) __attribute__((noreturn));
void px_unknown_name(struct pctx *c, const struct tok *t) __attribute__((noreturn));
const struct opspec *px_decode_opcode(struct pctx *c, struct ptx_insn *in, struct opinfo *oi);
int32_t px_find_reg(struct pctx *c, const struct tok *t, uint8_t *type);
int px_parse_operands(struct pctx *c, struct raw *r);

/* ------------------------------------------------------------------ ptx_insn.c */

void px_build_insn(struct pctx *c, const struct opspec *spec, struct ptx_insn *in,
                   const struct opinfo *oi, const struct raw *r, int n);

#endif
