/*
 * ptx_parse.c -- PTX text -> struct ptx_module (the front end's parser).
 *
 * Not a hardware block.  Accepts the PTX that nvcc emits for ordinary kernels (see ptx.h for
 * the module form and the operand conventions) and rejects anything else with
 * "FILE:LINE: message".  Structure:
 *   lexer      on-demand tokens (identifiers may carry dotted suffixes: "ld.global.u32",
 *              "%tid.x"), numbers decoded in the lexer (0x.., 0f.., 0d.., decimal, floats)
 *   scopes     a stack of declarations (registers, register ranges %r<N>, variables,
 *              parameters); `{ }` blocks push and pop, so call sequences can redeclare
 *              "param0" or "%temp".  Function-scope variables get a name unique inside the
 *              module's view of that function ("param0#3") so the linker can tell the
 *              declarations apart; registers are plain per-function indices.
 *   statements module directives, variable declarations, .entry/.func headers and bodies,
 *              labels, and instructions: the dotted opcode is decoded against a table of
 *              the modifiers each opcode accepts, then the operands are parsed generically
 *              and checked per opcode (operand count, kind, register size).
 * Errors unwind with longjmp to ptx_parse, which frees the partial module.  No global state.
 */
#include "ptx.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
    char     name[40];         /* register / symbol name for messages */
};

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
    uint32_t *hash;            /* strs interning: index + 1, 0 = empty */
    uint32_t hcap;
    struct decl *decls;
    uint32_t ndecls, cap_decls;
    uint32_t scope[MAX_SCOPE + 4];
    uint32_t depth;
    /* the function being parsed */
    int32_t  fidx;
    uint32_t cap_insns, cap_regs, cap_labels, cap_calls, cap_lrefs;
    int32_t *label_sym;        /* strs index of each label of the function */
    struct lref *lrefs;
    uint32_t nlrefs;
    uint32_t uniq;
    struct tok *ivals;         /* scratch: initializer values of one variable */
    uint32_t cap_ivals;
    char     opname[128];      /* opcode of the instruction being parsed, for messages */
};

/* ------------------------------------------------------------------ errors, memory */

static void fail(struct pctx *c, uint32_t line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
static void fail(struct pctx *c, uint32_t line, const char *fmt, ...)
{
    char msg[PTX_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "%s:%u: %s", c->fname, (unsigned)line, msg);
    longjmp(c->jb, 1);
}

/* Make room for `need` elements in *arr (capacity *cap); new slots are zeroed. */
static void *grow(struct pctx *c, void *arr, uint32_t *cap, uint64_t need, size_t esz)
{
    if (need <= *cap)
        return arr;
    uint64_t nc = *cap ? *cap : 8;
    while (nc < need)
        nc *= 2;
    if (nc > 0xffffffffull || nc * esz > (1ull << 34))
        fail(c, c->t.line, "input too large");
    char *n = realloc(arr, (size_t)(nc * esz));
    if (!n)
        fail(c, c->t.line, "out of memory");
    memset(n + (size_t)*cap * esz, 0, (size_t)((nc - *cap) * esz));
    *cap = (uint32_t)nc;
    return n;
}

/* ------------------------------------------------------------------ string table */

static uint32_t hash_str(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static void rehash(struct pctx *c, uint32_t ncap)
{
    uint32_t *nh = calloc(ncap, sizeof *nh);
    if (!nh)
        fail(c, c->t.line, "out of memory");
    for (uint32_t i = 0; i < c->m->nstrs; i++) {
        const char *s = c->m->strs[i];
        uint32_t h = hash_str(s, strlen(s)) & (ncap - 1);
        while (nh[h])
            h = (h + 1) & (ncap - 1);
        nh[h] = i + 1;
    }
    free(c->hash);
    c->hash = nh;
    c->hcap = ncap;
}

/* Index of the string in mod->strs, added if new. */
static int32_t intern(struct pctx *c, const char *s, size_t len)
{
    struct ptx_module *m = c->m;
    if ((m->nstrs + 1) * 2 > c->hcap)
        rehash(c, c->hcap ? c->hcap * 2 : 256);
    uint32_t h = hash_str(s, len) & (c->hcap - 1);
    while (c->hash[h]) {
        const char *e = m->strs[c->hash[h] - 1];
        if (strncmp(e, s, len) == 0 && e[len] == 0)
            return (int32_t)(c->hash[h] - 1);
        h = (h + 1) & (c->hcap - 1);
    }
    m->strs = grow(c, m->strs, &c->cap_strs, (uint64_t)m->nstrs + 1, sizeof *m->strs);
    char *copy = malloc(len + 1);
    if (!copy)
        fail(c, c->t.line, "out of memory");
    memcpy(copy, s, len);
    copy[len] = 0;
    m->strs[m->nstrs] = copy;
    c->hash[h] = ++m->nstrs;
    return (int32_t)(m->nstrs - 1);
}

/* ------------------------------------------------------------------ lexer */

static int is_alpha(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static int is_id0(int ch) { return is_alpha(ch) || ch == '_' || ch == '$' || ch == '%'; }
static int is_id1(int ch) { return is_alpha(ch) || is_digit(ch) || ch == '_' || ch == '$'; }
static int hexval(int ch)
{
    if (is_digit(ch)) return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static void skip_space(struct pctx *c)
{
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == '\n') {
            c->line++;
            c->p++;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            c->p++;
        } else if (ch == '/' && c->p + 1 < c->end && c->p[1] == '/') {
            while (c->p < c->end && *c->p != '\n')
                c->p++;
        } else if (ch == '/' && c->p + 1 < c->end && c->p[1] == '*') {
            uint32_t start = c->line;
            c->p += 2;
            for (;;) {
                if (c->p + 1 >= c->end)
                    fail(c, start, "unterminated comment");
                if (c->p[0] == '*' && c->p[1] == '/') {
                    c->p += 2;
                    break;
                }
                if (*c->p == '\n')
                    c->line++;
                c->p++;
            }
        } else {
            break;
        }
    }
}

static void lex_digits(struct pctx *c, const char **pp, int base, uint64_t *val, int maxdig)
{
    const char *p = *pp;
    uint64_t v = 0;
    int n = 0;
    while (p < c->end) {
        int d = hexval((uint8_t)*p);
        if (d < 0 || d >= base)
            break;
        if (base == 10) {
            if (v > (UINT64_MAX - (uint64_t)d) / 10)
                fail(c, c->line, "integer literal out of range");
            v = v * 10 + (uint64_t)d;
        } else {
            if (++n > maxdig)
                fail(c, c->line, "integer literal out of range");
            v = v * (uint64_t)base + (uint64_t)d;
        }
        p++;
    }
    *pp = p;
    *val = v;
}

static void bad_number(struct pctx *c, const char *s) __attribute__((noreturn));
static void bad_number(struct pctx *c, const char *s)
{
    const char *e = s;
    while (e < c->end && e - s < 40 && (is_id1((uint8_t)*e) || *e == '.'))
        e++;
    fail(c, c->line, "bad number '%.*s'", (int)(e - s), s);
}

/* Numbers: 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits), 0x.. 0b.. 0.. (octal),
   decimal, decimal floats; integers may end in 'U'. */
static void lex_number(struct pctx *c)
{
    const char *p = c->p, *s = c->p;
    struct tok *t = &c->t;
    t->kind = T_NUM;
    t->lit = LIT_INT;
    int x1 = p + 1 < c->end ? p[1] : 0;
    if (p[0] == '0' && (x1 == 'f' || x1 == 'F' || x1 == 'd' || x1 == 'D')) {
        int nd = (x1 == 'f' || x1 == 'F') ? 8 : 16;
        p += 2;
        uint64_t v = 0;
        for (int i = 0; i < nd; i++) {
            int d = p < c->end ? hexval((uint8_t)*p) : -1;
            if (d < 0)
                fail(c, c->line, "bad floating-point literal (expected %d hex digits)", nd);
            v = v * 16 + (uint64_t)d;
            p++;
        }
        t->lit = nd == 8 ? LIT_F32 : LIT_F64;
        t->u = v;
    } else if (p[0] == '0' && (x1 == 'x' || x1 == 'X' || x1 == 'b' || x1 == 'B')) {
        int base = (x1 == 'x' || x1 == 'X') ? 16 : 2;
        p += 2;
        const char *q = p;
        lex_digits(c, &p, base, &t->u, base == 16 ? 16 : 64);
        if (p == q)
            bad_number(c, s);
    } else {
        const char *q = p;
        while (q < c->end && is_digit((uint8_t)*q))
            q++;
        int is_flt = q < c->end && (*q == '.' || *q == 'e' || *q == 'E');
        if (is_flt) {
            char buf[64];
            const char *r = q;
            if (r < c->end && *r == '.')
                for (r++; r < c->end && is_digit((uint8_t)*r); r++) {}
            if (r < c->end && (*r == 'e' || *r == 'E')) {
                r++;
                if (r < c->end && (*r == '+' || *r == '-'))
                    r++;
                if (r >= c->end || !is_digit((uint8_t)*r))
                    bad_number(c, s);
                while (r < c->end && is_digit((uint8_t)*r))
                    r++;
            }
            if ((size_t)(r - p) >= sizeof buf)
                bad_number(c, s);
            memcpy(buf, p, (size_t)(r - p));
            buf[r - p] = 0;
            t->lit = LIT_FLT;
            t->d = strtod(buf, NULL);
            p = r;
        } else if (p[0] == '0' && q - p > 1) {
            p++;
            lex_digits(c, &p, 8, &t->u, 22);
            if (p != q)
                bad_number(c, s);
            if (t->u >> 63 && q - s > 22)
                fail(c, c->line, "integer literal out of range");
        } else {
            lex_digits(c, &p, 10, &t->u, 0);
        }
        if (t->lit == LIT_INT && p < c->end && *p == 'U')
            p++;
    }
    if (p < c->end && (is_id1((uint8_t)*p) || *p == '.'))
        bad_number(c, s);
    c->p = p;
}

static void lex_ident(struct pctx *c)
{
    const char *p = c->p + 1;
    while (p < c->end && is_id1((uint8_t)*p))
        p++;
    /* dotted suffixes (opcodes, %tid.x) and '::' qualifiers (L2::128B) */
    for (;;) {
        if (p + 1 < c->end && p[0] == '.' && is_id1((uint8_t)p[1])) {
            p += 1;
        } else if (p + 2 < c->end && p[0] == ':' && p[1] == ':' && is_id1((uint8_t)p[2])) {
            p += 2;
        } else {
            break;
        }
        while (p < c->end && is_id1((uint8_t)*p))
            p++;
    }
    c->t.kind = T_IDENT;
    c->p = p;
}

static void next(struct pctx *c)
{
    skip_space(c);
    struct tok *t = &c->t;
    memset(t, 0, sizeof *t);
    if (c->p >= c->end) {
        t->kind = T_EOF;
        t->line = c->last_line ? c->last_line : 1;
        t->s = c->end;
        return;
    }
    t->line = c->line;
    t->s = c->p;
    uint8_t ch = (uint8_t)*c->p;
    if (is_id0(ch)) {
        lex_ident(c);
    } else if (ch == '.' && c->p + 1 < c->end && is_id0((uint8_t)c->p[1]) && c->p[1] != '%') {
        const char *p = c->p + 1;
        while (p < c->end && is_id1((uint8_t)*p))
            p++;
        t->kind = T_DIR;
        c->p = p;
    } else if (is_digit(ch)) {
        lex_number(c);
    } else if (ch == '"') {
        const char *p = c->p + 1;
        while (p < c->end && *p != '"' && *p != '\n')
            p++;
        if (p >= c->end || *p != '"')
            fail(c, c->line, "unterminated string");
        t->kind = T_STR;
        c->p = p + 1;
    } else if (strchr(",;:{}[]()<>+-!@|=", ch) && ch) {
        t->kind = T_PUNCT;
        t->c = (char)ch;
        c->p++;
    } else if (ch >= 0x21 && ch < 0x7f) {
        fail(c, c->line, "unexpected character '%c'", ch);
    } else {
        fail(c, c->line, "unexpected character '\\x%02x'", ch);
    }
    t->len = (uint32_t)(c->p - t->s);
    if (t->len > MAX_TOKEN)
        fail(c, t->line, "token too long");
    c->last_line = t->line;
}

static struct tok peek(struct pctx *c)
{
    const char *p = c->p;
    uint32_t line = c->line, last = c->last_line;
    struct tok save = c->t, r;
    next(c);
    r = c->t;
    c->p = p;
    c->line = line;
    c->last_line = last;
    c->t = save;
    return r;
}

static int is_punct(const struct tok *t, char ch) { return t->kind == T_PUNCT && t->c == ch; }
static int tok_is(const struct tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}
static int dir_is(const struct tok *t, const char *s) { return t->kind == T_DIR && tok_is(t, s); }

/* Printable form of a token for messages. */
static const char *tok_show(const struct tok *t, char *buf, size_t n)
{
    if (t->kind == T_EOF)
        return "end of file";
    size_t k = t->len < n - 1 ? t->len : n - 1;
    for (size_t i = 0; i < k; i++) {
        uint8_t ch = (uint8_t)t->s[i];
        buf[i] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    buf[k] = 0;
    return buf;
}

static void expect_punct(struct pctx *c, char ch)
{
    if (!is_punct(&c->t, ch)) {
        char b[64];
        if (c->t.kind == T_EOF)
            fail(c, c->t.line, "unexpected end of file: missing '%c'", ch);
        fail(c, c->t.line, "expected '%c', found '%s'", ch, tok_show(&c->t, b, sizeof b));
    }
    next(c);
}

/* Current token must be an identifier; copy it into buf (size n, must fit). */
static void take_ident(struct pctx *c, char *buf, size_t n, const char *what)
{
    char b[64];
    if (c->t.kind != T_IDENT) {
        if (c->t.kind == T_EOF)
            fail(c, c->t.line, "unexpected end of file: expected %s", what);
        fail(c, c->t.line, "expected %s, found '%s'", what, tok_show(&c->t, b, sizeof b));
    }
    if (c->t.len >= n)
        fail(c, c->t.line, "%s '%s...' too long (at most %u characters)", what,
             tok_show(&c->t, b, 40), (unsigned)n - 1);
    memcpy(buf, c->t.s, c->t.len);
    buf[c->t.len] = 0;
}

static uint64_t take_uint(struct pctx *c, const char *what, uint64_t max)
{
    char b[64];
    if (c->t.kind != T_NUM || c->t.lit != LIT_INT)
        fail(c, c->t.line, "expected %s, found '%s'", what, tok_show(&c->t, b, sizeof b));
    if (c->t.u > max)
        fail(c, c->t.line, "%s %llu too large (at most %llu)", what,
             (unsigned long long)c->t.u, (unsigned long long)max);
    uint64_t v = c->t.u;
    next(c);
    return v;
}

/* Skip the rest of the current line (.loc, .file): the current token is the directive. */
static void skip_line(struct pctx *c)
{
    while (c->p < c->end && *c->p != '\n')
        c->p++;
    next(c);
}

/* .section NAME { ... } (debug info): skip to the matching brace. */
static void skip_section(struct pctx *c)
{
    uint32_t line = c->t.line;
    next(c);
    while (!is_punct(&c->t, '{')) {
        if (c->t.kind == T_EOF)
            fail(c, line, "unexpected end of file in .section");
        next(c);
    }
    int depth = 0;
    do {
        if (c->t.kind == T_EOF)
            fail(c, c->t.line, "unexpected end of file: missing '}' of .section");
        if (is_punct(&c->t, '{'))
            depth++;
        else if (is_punct(&c->t, '}'))
            depth--;
        next(c);
    } while (depth > 0);
}

static void skip_pragma(struct pctx *c)
{
    next(c);
    while (c->t.kind == T_STR || is_punct(&c->t, ','))
        next(c);
    expect_punct(c, ';');
}

/* ------------------------------------------------------------------ types */

static uint8_t type_of(const struct tok *t)
{
    if (t->kind != T_DIR || t->len < 2)
        return PT_NONE;
    for (int i = PT_PRED; i < PT_COUNT; i++) {
        const char *n = ptx_type_name((enum ptx_type)i);
        if (t->len == strlen(n) + 1 && memcmp(t->s + 1, n, t->len - 1) == 0)
            return (uint8_t)i;
    }
    return PT_NONE;
}

static uint8_t type_by_name(const char *s)
{
    for (int i = PT_PRED; i < PT_COUNT; i++)
        if (strcmp(s, ptx_type_name((enum ptx_type)i)) == 0)
            return (uint8_t)i;
    return PT_NONE;
}

static unsigned tsize(uint8_t t) { return ptx_type_size((enum ptx_type)t); }
static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

/* ------------------------------------------------------------------ scopes */

static struct ptx_func *curf(struct pctx *c) { return &c->m->funcs[c->fidx]; }

static void push_scope(struct pctx *c)
{
    if (c->depth + 1 >= MAX_SCOPE)
        fail(c, c->t.line, "blocks nested too deeply");
    c->scope[++c->depth] = c->ndecls;
}

static void pop_scope(struct pctx *c)
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

static const struct decl *lookup(struct pctx *c, const char *s, size_t len, uint32_t *sub)
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
            fail(c, line, "duplicate declaration of '%.*s'", (int)len, s);
    }
}

static void add_decl(struct pctx *c, const char *s, size_t len, uint8_t kind, uint32_t count,
                     int32_t idx, int32_t sym)
{
    c->decls = grow(c, c->decls, &c->cap_decls, (uint64_t)c->ndecls + 1, sizeof *c->decls);
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
        fail(c, line, "too many registers in function '%s'", f->name);
    char digits[16];
    snprintf(digits, sizeof digits, "%u", n - 1);
    if (len + (count ? strlen(digits) : 0) >= sizeof f->regs[0].name)
        fail(c, line, "register name '%.*s' too long", (int)(len > 40 ? 40 : len), s);
    check_dup(c, s, len, count, count != 0, line);
    f->regs = grow(c, f->regs, &c->cap_regs, (uint64_t)f->nregs + n, sizeof *f->regs);
    for (uint32_t i = 0; i < n; i++) {
        struct ptx_regdecl *r = &f->regs[f->nregs + i];
        if (count)
            snprintf(r->name, sizeof r->name, "%.*s%u", (int)len, s, i);
        else
            snprintf(r->name, sizeof r->name, "%.*s", (int)len, s);
        r->type = type;
    }
    add_decl(c, s, len, count ? D_RANGE : D_REG, count, (int32_t)f->nregs, -1);
    f->nregs += n;
}

/* .reg .type a, b<N>, ...; */
static void parse_reg_decl(struct pctx *c)
{
    uint32_t line = c->t.line;
    char b[64];
    next(c);
    if (dir_is(&c->t, ".v2") || dir_is(&c->t, ".v4"))
        fail(c, line, "unsupported: vector registers");
    uint8_t type = type_of(&c->t);
    if (!type)
        fail(c, line, "expected a register type after .reg, found '%s'", tok_show(&c->t, b, sizeof b));
    next(c);
    for (;;) {
        char name[64];
        take_ident(c, name, 32, "register name");
        size_t len = c->t.len;
        const char *s = c->t.s;
        next(c);
        uint32_t count = 0;
        if (is_punct(&c->t, '<')) {
            next(c);
            uint64_t n = take_uint(c, "register count", UINT32_MAX);
            if (n > MAX_REG_RANGE)
                fail(c, line, "register range %%%s<%llu> too large (at most %u)", name[0] == '%' ? name + 1 : name,
                     (unsigned long long)n, MAX_REG_RANGE);
            if (n == 0)
                fail(c, line, "empty register range");
            expect_punct(c, '>');
            count = (uint32_t)n;
        }
        declare_regs(c, s, len, type, count, line);
        if (is_punct(&c->t, ',')) {
            next(c);
            continue;
        }
        expect_punct(c, ';');
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
            fail(c, t->line, "floating-point initializer for an integer variable");
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
        fail(c, c->t.line, "initializer nested too deeply");
    if (is_punct(&c->t, '{')) {
        next(c);
        if (is_punct(&c->t, '}')) {
            next(c);
            return;
        }
        for (;;) {
            parse_init_list(c, nv, depth + 1);
            if (is_punct(&c->t, ',')) {
                next(c);
                continue;
            }
            expect_punct(c, '}');
            return;
        }
    }
    int neg = 0;
    if (is_punct(&c->t, '-')) {
        neg = 1;
        next(c);
    }
    if (c->t.kind == T_IDENT)
        fail(c, c->t.line, "unsupported initializer '%s' (only numbers)", tok_show(&c->t, b, sizeof b));
    if (c->t.kind != T_NUM)
        fail(c, c->t.line, "bad initializer '%s'", tok_show(&c->t, b, sizeof b));
    c->ivals = grow(c, c->ivals, &c->cap_ivals, (uint64_t)*nv + 1, sizeof *c->ivals);
    c->ivals[*nv] = c->t;
    c->ivals[*nv].c = (char)neg;
    (*nv)++;
    next(c);
}

static int32_t new_var(struct pctx *c)
{
    struct ptx_module *m = c->m;
    m->vars = grow(c, m->vars, &c->cap_vars, (uint64_t)m->nvars + 1, sizeof *m->vars);
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
    take_ident(c, name, sizeof name, "variable name");
    const char *s = c->t.s;
    size_t len = c->t.len;
    uint32_t line = c->t.line;
    next(c);
    uint64_t esz = (uint64_t)tsize(a->type) * a->vecn, count = 1;
    int unsized = 0;
    while (is_punct(&c->t, '[')) {
        next(c);
        if (is_punct(&c->t, ']')) {
            if (unsized || count != 1)
                fail(c, line, "only the first dimension of '%s' may be unsized", name);
            unsized = 1;
        } else {
            uint64_t n = take_uint(c, "array size", MAX_VAR_BYTES);
            if (unsized)
                fail(c, line, "only the first dimension of '%s' may be unsized", name);
            count *= n;
            if (count * esz > MAX_VAR_BYTES)
                fail(c, line, "variable '%s' too large", name);
        }
        expect_punct(c, ']');
    }
    uint32_t nv = 0;
    int has_init = 0;
    if (is_punct(&c->t, '=')) {
        if (a->space != PS_GLOBAL && a->space != PS_CONST)
            fail(c, line, "initializer not allowed for variable '%s'", name);
        next(c);
        parse_init_list(c, &nv, 0);
        has_init = 1;
    }
    if (unsized) {
        if (has_init)
            count = (nv + a->vecn - 1) / a->vecn;
        else if (!(a->is_extern && a->space == PS_SHARED))
            fail(c, line, "unsized array '%s' (only .extern .shared may be unsized)", name);
        else
            count = 0;
    }
    uint64_t size = count * esz;
    if (has_init && nv > count * a->vecn)
        fail(c, line, "too many initializers for '%s'", name);
    if (has_init && size > MAX_INIT_BYTES)
        fail(c, line, "initialised variable '%s' too large", name);

    /* scope bookkeeping */
    check_dup(c, s, len, 0, 0, line);
    char uname[96];
    snprintf(uname, sizeof uname, "%s", name);
    if (in_func && var_name_taken(c, uname)) {
        char suffix[16];
        int n = snprintf(suffix, sizeof suffix, "#%u", ++c->uniq);
        if (strlen(name) + (size_t)n >= sizeof uname)
            fail(c, line, "variable name '%s' too long", name);
        memcpy(uname + strlen(name), suffix, (size_t)n + 1);
    } else if (!in_func && var_name_taken(c, uname)) {
        fail(c, line, "duplicate declaration of '%s'", name);
    }
    int32_t vi = new_var(c);
    struct ptx_var *v = &c->m->vars[vi];
    snprintf(v->name, sizeof v->name, "%s", uname);
    v->space = a->space;
    v->type = a->type;
    v->is_extern = a->is_extern;
    v->align = (uint32_t)(a->align ? a->align : (esz ? (esz > 16 ? 16 : esz) : 1));
    if (!a->align && !is_pow2(v->align))
        v->align = tsize(a->type);
    v->size = size;
    v->func = in_func ? c->fidx : -1;
    if (has_init) {
        v->init = calloc(size ? size : 1, 1);
        if (!v->init)
            fail(c, line, "out of memory");
        unsigned ts = tsize(a->type);
        for (uint32_t i = 0; i < nv; i++)
            put_init(c, v->init + (uint64_t)i * ts, a->type, &c->ivals[i], c->ivals[i].c);
    }
    add_decl(c, s, len, D_VAR, 0, vi, intern(c, uname, strlen(uname)));
}

/* Variable declaration; the current token is the state space directive:
   .space [.align N] [.v2|.v4] .type name[N]... [= init] {, name ...} ; */
static void parse_var_decl(struct pctx *c, uint8_t space, int is_extern, int in_func)
{
    uint32_t line = c->t.line;
    char b[64];
    struct vattr a = {space, 0, (uint8_t)is_extern, 1, 0};
    next(c);
    while (c->t.kind == T_DIR) {
        uint8_t ty = type_of(&c->t);
        if (dir_is(&c->t, ".align")) {
            next(c);
            a.align = take_uint(c, "alignment", MAX_ALIGN);
            if (!is_pow2(a.align))
                fail(c, line, "alignment %llu is not a power of two", (unsigned long long)a.align);
            continue;
        } else if ((dir_is(&c->t, ".v2") || dir_is(&c->t, ".v4")) && a.vecn == 1) {
            a.vecn = (unsigned)(c->t.s[2] - '0');
        } else if (dir_is(&c->t, ".ptr")) {
            /* pointer attribute: ignored */
        } else if (ty && ty != PT_PRED && !a.type) {
            a.type = ty;
        } else {
            fail(c, c->t.line, "unexpected '%s' in variable declaration", tok_show(&c->t, b, sizeof b));
        }
        next(c);
    }
    if (!a.type)
        fail(c, line, "missing type in variable declaration");
    for (;;) {
        parse_one_var(c, &a, in_func);
        if (is_punct(&c->t, ',')) {
            next(c);
            continue;
        }
        expect_punct(c, ';');
        return;
    }
}

/* ( .param .type [.align N] name[N], ... ) -> parameter array with natural offsets. */
static void parse_params(struct pctx *c, struct ptx_param **arr, uint32_t *n, uint32_t *total)
{
    char b[64];
    uint32_t cap = 0;
    uint64_t off = 0;
    expect_punct(c, '(');
    if (is_punct(&c->t, ')')) {
        next(c);
        *total = 0;
        return;
    }
    for (;;) {
        uint32_t line = c->t.line;
        if (dir_is(&c->t, ".reg"))
            fail(c, line, "unsupported: .reg parameters");
        if (!dir_is(&c->t, ".param")) {
            if (c->t.kind == T_EOF)
                fail(c, line, "unexpected end of file in parameter list");
            fail(c, line, "expected .param, found '%s'", tok_show(&c->t, b, sizeof b));
        }
        next(c);
        uint8_t type = 0;
        uint64_t align = 0;
        while (c->t.kind == T_DIR) {
            uint8_t ty = type_of(&c->t);
            if (dir_is(&c->t, ".align")) {
                next(c);
                align = take_uint(c, "alignment", MAX_ALIGN);
                if (!is_pow2(align))
                    fail(c, line, "alignment %llu is not a power of two", (unsigned long long)align);
                continue;
            }
            if (ty && ty != PT_PRED && !type)
                type = ty;
            else if (!(dir_is(&c->t, ".ptr") || dir_is(&c->t, ".global") || dir_is(&c->t, ".shared")
                       || dir_is(&c->t, ".const") || dir_is(&c->t, ".local")))
                fail(c, c->t.line, "unexpected '%s' in parameter", tok_show(&c->t, b, sizeof b));
            next(c);
        }
        if (!type)
            fail(c, line, "missing type in parameter");
        *arr = grow(c, *arr, &cap, (uint64_t)*n + 1, sizeof **arr);
        struct ptx_param *p = &(*arr)[*n];
        take_ident(c, p->name, sizeof p->name, "parameter name");
        for (uint32_t i = 0; i < *n; i++)
            if (!strcmp((*arr)[i].name, p->name))
                fail(c, c->t.line, "duplicate parameter '%s'", p->name);
        (*n)++;
        next(c);
        uint64_t count = 1;
        if (is_punct(&c->t, '[')) {
            next(c);
            count = take_uint(c, "array size", MAX_PARAM_BYTES);
            if (count == 0)
                fail(c, line, "empty parameter array");
            expect_punct(c, ']');
        }
        uint64_t size = count * tsize(type);
        if (size > MAX_PARAM_BYTES)
            fail(c, line, "parameter '%s' too large", p->name);
        if (!align)
            align = tsize(type);
        p->type = type;
        p->align = (uint32_t)align;
        p->size = (uint32_t)size;
        off = align_up(off, align);
        p->offset = (uint32_t)off;
        off += size;
        if (off > MAX_PARAM_BYTES)
            fail(c, line, "parameters too large");
        if (is_punct(&c->t, ',')) {
            next(c);
            continue;
        }
        expect_punct(c, ')');
        break;
    }
    *total = (uint32_t)off;
}

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

struct opspec { const char *name; uint8_t op; uint32_t allow; };

#define A_MEM (A_TYPE | A_SPACE | A_VEC | A_VOLATILE | A_ORDER | A_SCOPE | A_CACHE)
#define A_ARITH (A_TYPE | A_RND | A_SAT | A_FTZ)
static const struct opspec opspecs[] = {
    {"ld", OP_LD, A_MEM | A_NC},           {"st", OP_ST, A_MEM},
    {"mov", OP_MOV, A_TYPE},               {"cvta", OP_CVTA, A_TYPE | A_SPACE | A_TO},
    {"cvt", OP_CVT, A_TYPE | A_TYPE2 | A_RND | A_IRND | A_SAT | A_FTZ},
    {"add", OP_ADD, A_ARITH | A_CC},       {"sub", OP_SUB, A_ARITH | A_CC},
    {"mul", OP_MUL, A_ARITH | A_LOHI | A_WIDE},
    {"mad", OP_MAD, A_ARITH | A_LOHI | A_WIDE | A_CC},
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

struct opinfo {                /* what the opcode's modifiers said, beyond ptx_insn fields */
    uint8_t  types[2], ntypes;
    uint8_t  has_space, sync, aligned, bar_kind, level, has_order;
};
enum { BK_NONE = 0, BK_SYNC, BK_ARRIVE, BK_WARP };

static void unsupported(struct pctx *c, uint32_t line) __attribute__((noreturn));
static void unsupported(struct pctx *c, uint32_t line)
{
    fail(c, line, "unsupported PTX instruction '%s'", c->opname);
}

/* One modifier of an opcode; returns 0 if the opcode does not accept it. */
static int apply_mod(const char *m, uint32_t al, struct ptx_insn *in, struct opinfo *oi)
{
    int k;
    uint8_t ty = type_by_name(m);
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
static const struct opspec *decode_opcode(struct pctx *c, struct ptx_insn *in, struct opinfo *oi)
{
    char buf[sizeof c->opname];
    uint32_t line = c->t.line;
    snprintf(c->opname, sizeof c->opname, "%.*s", (int)c->t.len, c->t.s);
    if (c->t.len >= sizeof buf)
        unsupported(c, line);
    memcpy(buf, c->t.s, c->t.len);
    buf[c->t.len] = 0;
    char *save = NULL, *part = strtok_r(buf, ".", &save);
    const struct opspec *spec = NULL;
    for (size_t i = 0; part && i < sizeof opspecs / sizeof opspecs[0]; i++)
        if (!strcmp(part, opspecs[i].name))
            spec = &opspecs[i];
    if (!spec || strstr(c->opname, ".."))
        unsupported(c, line);
    in->op = spec->op;
    while ((part = strtok_r(NULL, ".", &save)) != NULL)
        if (!apply_mod(part, spec->allow, in, oi))
            unsupported(c, line);
    if (c->opname[c->t.len - 1] == '.')
        unsupported(c, line);
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
static int32_t find_reg(struct pctx *c, const struct tok *t, uint8_t *type)
{
    uint32_t sub;
    const struct decl *d = lookup(c, t->s, t->len, &sub);
    if (!d || (d->kind != D_REG && d->kind != D_RANGE))
        return -1;
    *type = curf(c)->regs[d->idx + (int32_t)sub].type;
    return d->idx + (int32_t)sub;
}

static void unknown_name(struct pctx *c, const struct tok *t) __attribute__((noreturn));
static void unknown_name(struct pctx *c, const struct tok *t)
{
    char b[64];
    if (t->kind == T_IDENT && t->s[0] == '%')
        fail(c, t->line, "unknown register '%s'", tok_show(t, b, sizeof b));
    if (t->kind == T_IDENT)
        fail(c, t->line, "unknown symbol '%s'", tok_show(t, b, sizeof b));
    if (t->kind == T_EOF)
        fail(c, t->line, "unexpected end of file: missing ';'");
    fail(c, t->line, "bad operand '%s' of '%s'", tok_show(t, b, sizeof b), c->opname);
}

static void set_name(struct raw *r, const struct tok *t)
{
    snprintf(r->name, sizeof r->name, "%.*s", (int)(t->len < 39 ? t->len : 39), t->s);
}

/* Symbol (variable / parameter) as written: fills sym and space, returns 1 if found. */
static int find_sym(struct pctx *c, const struct tok *t, struct ptx_operand *o)
{
    uint32_t sub;
    const struct decl *d = lookup(c, t->s, t->len, &sub);
    if (!d || d->kind == D_REG || d->kind == D_RANGE)
        return 0;
    o->sym = d->sym;
    o->space = d->kind == D_VAR ? c->m->vars[d->idx].space : PS_PARAM;
    return 1;
}

/* Register, special register or symbol name as an operand value. */
static void parse_name_opd(struct pctx *c, struct raw *r)
{
    const struct tok *t = &c->t;
    set_name(r, t);
    int32_t reg = find_reg(c, t, &r->rtype);
    if (reg >= 0) {
        r->o.kind = OPD_REG;
        r->o.reg = reg;
    } else if (t->s[0] == '%' && parse_sreg(t, r)) {
        /* special register */
    } else if (find_sym(c, t, &r->o)) {
        r->o.kind = OPD_SYMADDR;
    } else {
        unknown_name(c, t);
    }
    next(c);
}

/* Integer literal, optionally negated (address offsets). */
static int64_t parse_int_lit(struct pctx *c)
{
    int neg = 0;
    while (is_punct(&c->t, '-') || is_punct(&c->t, '+')) {
        neg ^= c->t.c == '-';
        next(c);
    }
    if (c->t.kind != T_NUM || c->t.lit != LIT_INT)
        unknown_name(c, &c->t);
    uint64_t v = c->t.u;
    next(c);
    return neg ? (int64_t)(0 - v) : (int64_t)v;
}

/* [reg], [reg+imm], [sym], [sym+imm], [imm] */
static void parse_addr(struct pctx *c, struct raw *r)
{
    next(c);
    r->o.kind = OPD_ADDR;
    r->o.reg = -1;
    r->o.sym = -1;
    if (c->t.kind == T_IDENT) {
        set_name(r, &c->t);
        uint8_t ty;
        int32_t reg = find_reg(c, &c->t, &ty);
        if (reg >= 0) {
            if (ty == PT_PRED || (tsize(ty) != 4 && tsize(ty) != 8))
                fail(c, c->t.line, "type mismatch: address register '%s' is .%s (needs 32 or 64 bits)",
                     r->name, ptx_type_name((enum ptx_type)ty));
            r->o.reg = reg;
        } else if (!find_sym(c, &c->t, &r->o)) {
            unknown_name(c, &c->t);
        }
        next(c);
        if (is_punct(&c->t, '+') || is_punct(&c->t, '-'))
            r->o.imm = parse_int_lit(c);
    } else {
        r->o.imm = parse_int_lit(c);
    }
    expect_punct(c, ']');
}

/* {a, b, _, d} */
static void parse_vec(struct pctx *c, struct raw *r)
{
    uint32_t line = c->t.line;
    next(c);
    r->o.kind = OPD_VEC;
    r->o.reg = -1;
    for (;;) {
        if (r->o.nvec >= 4)
            fail(c, line, "too many vector elements in '%s'", c->opname);
        if (c->t.kind != T_IDENT)
            unknown_name(c, &c->t);
        int k = r->o.nvec++;
        if (tok_is(&c->t, "_")) {
            r->o.vec[k] = -1;
            r->vtype[k] = PT_NONE;
        } else {
            r->o.vec[k] = find_reg(c, &c->t, &r->vtype[k]);
            if (r->o.vec[k] < 0)
                unknown_name(c, &c->t);
            if (!r->name[0])
                set_name(r, &c->t);
        }
        next(c);
        if (is_punct(&c->t, ',')) {
            next(c);
            continue;
        }
        expect_punct(c, '}');
        break;
    }
    if (r->o.nvec != 2 && r->o.nvec != 4 && r->o.nvec != 1)
        fail(c, line, "bad vector operand in '%s' (needs 1, 2 or 4 elements)", c->opname);
}

static void parse_number_opd(struct pctx *c, struct raw *r)
{
    int neg = 0;
    while (is_punct(&c->t, '-')) {
        neg ^= 1;
        next(c);
    }
    if (c->t.kind != T_NUM)
        unknown_name(c, &c->t);
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
    next(c);
}

static void parse_one_opd(struct pctx *c, struct raw *r)
{
    memset(r, 0, sizeof *r);
    r->o.reg = -1;
    r->o.sym = -1;
    r->line = c->t.line;
    if (is_punct(&c->t, '!')) {
        r->o.neg = 1;
        next(c);
        if (c->t.kind != T_IDENT)
            unknown_name(c, &c->t);
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
        unknown_name(c, &c->t);
    if (r->o.neg && r->o.kind != OPD_REG)
        fail(c, r->line, "bad operand: '!' on a non-register in '%s'", c->opname);
}

/* Operands up to and including ';'. Returns how many. */
static int parse_operands(struct pctx *c, struct raw *r)
{
    int n = 0;
    if (is_punct(&c->t, ';')) {
        next(c);
        return 0;
    }
    for (;;) {
        if (n >= MAX_RAW)
            fail(c, c->t.line, "too many operands for '%s'", c->opname);
        parse_one_opd(c, &r[n]);
        if (is_punct(&c->t, '|')) {
            next(c);
            if (c->t.kind != T_IDENT)
                unknown_name(c, &c->t);
            struct raw p;
            parse_one_opd(c, &p);
            if (p.o.kind != OPD_REG)
                fail(c, p.line, "bad operand after '|' in '%s'", c->opname);
            r[n].has_pair = 1;
            r[n].pair = p.o;
            r[n].pair_rtype = p.rtype;
        }
        n++;
        if (is_punct(&c->t, ',')) {
            next(c);
            continue;
        }
        if (c->t.kind == T_EOF)
            fail(c, c->t.line, "unexpected end of file: missing ';'");
        if (!is_punct(&c->t, ';')) {
            char b[64];
            fail(c, c->t.line, "expected ',' or ';' after operand of '%s', found '%s'", c->opname,
                 tok_show(&c->t, b, sizeof b));
        }
        next(c);
        return n;
    }
}

/* ------------------------------------------------------------------ operand checks */

enum { F_IMM = 1, F_SREG = 2, F_WIDE = 4, F_SYM = 8, F_NEG = 16 };

static void bad_opd(struct pctx *c, const struct raw *r, int i) __attribute__((noreturn));
static void bad_opd(struct pctx *c, const struct raw *r, int i)
{
    fail(c, r->line, "bad operand %d of '%s'", i + 1, c->opname);
}

/* Register of declared type `rtype` used where the instruction wants `want`: sizes must match
   (PTX lets .b32 registers hold .f32 etc.); `wide` allows a wider register for non-float
   types (ld/st/cvt). Predicates must be .pred on both sides. */
static void check_reg(struct pctx *c, uint32_t line, const char *name, uint8_t rtype, uint8_t want,
                      int wide)
{
    if (want == PT_PRED || rtype == PT_PRED) {
        if (want == rtype)
            return;
    } else {
        unsigned rs = tsize(rtype), ws = tsize(want);
        if (rs == ws || (wide && rs > ws && !ptx_type_is_float((enum ptx_type)want)))
            return;
    }
    fail(c, line, "type mismatch: '%s' is .%s, '%s' needs .%s", name,
         ptx_type_name((enum ptx_type)rtype), c->opname, ptx_type_name((enum ptx_type)want));
}

static uint32_t f32_bits(double v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* An immediate converted to the operand type (floats as bits, ints sign-extended from the
   type's width to 64 bits). */
static int64_t imm_conv(struct pctx *c, const struct raw *r, uint8_t type)
{
    uint64_t u = (uint64_t)r->o.imm;
    double d;
    float f;
    switch (r->lit) {
    case LIT_INT:
        if (type == PT_F32)
            return f32_bits((double)(int64_t)u);
        if (type == PT_F64) {
            d = (double)(int64_t)u;
            memcpy(&u, &d, 8);
            return (int64_t)u;
        }
        break;
    case LIT_F32:
        if (type == PT_F64) {
            uint32_t b = (uint32_t)u;
            memcpy(&f, &b, 4);
            d = f;
            memcpy(&u, &d, 8);
            return (int64_t)u;
        }
        return (int64_t)u;
    case LIT_F64:
        if (type == PT_F32) {
            memcpy(&d, &u, 8);
            return f32_bits(d);
        }
        return (int64_t)u;
    case LIT_FLT:
        if (type == PT_F32)
            return f32_bits(r->d);
        if (type == PT_F64) {
            memcpy(&u, &r->d, 8);
            return (int64_t)u;
        }
        fail(c, r->line, "bad operand: floating-point literal for a .%s operand of '%s'",
             ptx_type_name((enum ptx_type)type), c->opname);
    default:
        break;
    }
    unsigned sz = tsize(type);
    if (sz && sz < 8) {
        unsigned sh = 64 - 8 * sz;
        u = (uint64_t)((int64_t)(u << sh) >> sh);
    }
    return (int64_t)u;
}

static struct ptx_operand dst(struct pctx *c, const struct raw *r, int i, uint8_t type, int wide)
{
    if (r->o.kind != OPD_REG || r->o.neg || r->has_pair)
        bad_opd(c, r, i);
    check_reg(c, r->line, r->name, r->rtype, type, wide);
    return r->o;
}

static struct ptx_operand src(struct pctx *c, const struct raw *r, int i, uint8_t type, unsigned fl)
{
    struct ptx_operand o = r->o;
    if (r->has_pair)
        bad_opd(c, r, i);
    switch (o.kind) {
    case OPD_REG:
        if (o.neg && !(fl & F_NEG))
            bad_opd(c, r, i);
        check_reg(c, r->line, r->name, r->rtype, type, (fl & F_WIDE) != 0);
        break;
    case OPD_IMM:
        if (!(fl & F_IMM))
            bad_opd(c, r, i);
        o.imm = imm_conv(c, r, type);
        break;
    case OPD_SREG:
        if (!(fl & F_SREG))
            bad_opd(c, r, i);
        if (tsize(r->rtype) != tsize(type) && !((fl & F_WIDE) && tsize(r->rtype) > tsize(type)))
            fail(c, r->line, "type mismatch: '%s' is .%s, '%s' needs .%s", r->name,
                 ptx_type_name((enum ptx_type)r->rtype), c->opname, ptx_type_name((enum ptx_type)type));
        break;
    case OPD_SYMADDR:
        if (!(fl & F_SYM))
            bad_opd(c, r, i);
        break;
    default:
        bad_opd(c, r, i);
    }
    return o;
}

static struct ptx_operand pred_src(struct pctx *c, const struct raw *r, int i, int allow_neg)
{
    return src(c, r, i, PT_PRED, allow_neg ? F_NEG : 0);
}

static struct ptx_operand addr(struct pctx *c, const struct raw *r, int i)
{
    if (r->o.kind != OPD_ADDR || r->has_pair)
        bad_opd(c, r, i);
    return r->o;
}

/* {a, b, ...} with `n` elements of type `et`; sinks '_' only in destinations. */
static struct ptx_operand vec(struct pctx *c, const struct raw *r, int i, unsigned n, uint8_t et,
                              int is_dst, int wide)
{
    if (r->o.kind != OPD_VEC || r->has_pair)
        bad_opd(c, r, i);
    if (r->o.nvec != n)
        fail(c, r->line, "vector operand of '%s' needs %u elements", c->opname, n);
    for (unsigned k = 0; k < n; k++) {
        if (r->o.vec[k] < 0) {
            if (!is_dst)
                bad_opd(c, r, i);
            continue;
        }
        char nm[40];
        snprintf(nm, sizeof nm, "%s", curf(c)->regs[r->o.vec[k]].name);
        check_reg(c, r->line, nm, r->vtype[k], et, wide);
    }
    return r->o;
}

/* ------------------------------------------------------------------ instructions */

#define TB(x) (1u << (x))
#define TC_BIT  (TB(PT_B16) | TB(PT_B32) | TB(PT_B64))
#define TC_UINT (TB(PT_U16) | TB(PT_U32) | TB(PT_U64))
#define TC_SINT (TB(PT_S16) | TB(PT_S32) | TB(PT_S64))
#define TC_INT  (TC_UINT | TC_SINT)
#define TC_FLT  (TB(PT_F32) | TB(PT_F64))
#define TC_VAL  (TC_BIT | TC_INT | TC_FLT)
#define TC_W32  (TB(PT_B32) | TB(PT_U32) | TB(PT_S32) | TB(PT_F32))
#define TC_W64  (TB(PT_B64) | TB(PT_U64) | TB(PT_S64) | TB(PT_F64))
#define TC_MEM  (TC_VAL | TB(PT_B8) | TB(PT_U8) | TB(PT_S8) | TB(PT_F16))
#define TC_CVT  (TC_INT | TC_FLT | TB(PT_U8) | TB(PT_S8) | TB(PT_F16))

static uint8_t need_type(struct pctx *c, const struct ptx_insn *in, const struct opinfo *oi,
                         int idx, uint32_t mask)
{
    if (oi->ntypes <= idx)
        fail(c, in->line, "missing type in '%s'", c->opname);
    uint8_t t = oi->types[idx];
    if (!(mask & TB(t)))
        unsupported(c, in->line);
    return t;
}

static void need_n(struct pctx *c, const struct ptx_insn *in, int n, int want)
{
    if (n != want)
        fail(c, in->line, "wrong number of operands for '%s' (expected %d, found %d)", c->opname,
             want, n);
}

static uint8_t wide_type(uint8_t t)
{
    switch (t) {
    case PT_U16: return PT_U32;
    case PT_S16: return PT_S32;
    case PT_U32: return PT_U64;
    case PT_S32: return PT_S64;
    default: return PT_NONE;
    }
}

/* d, a, b, ... all of the instruction type (immediates allowed for sources) */
static void same_type_ops(struct pctx *c, struct ptx_insn *in, const struct raw *r, int n, int want)
{
    need_n(c, in, n, want);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    for (int i = 1; i < n; i++)
        in->opd[i] = src(c, &r[i], i, in->type, F_IMM);
    in->nopd = (uint8_t)n;
}

static void build_ld_st(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                        const struct raw *r, int n)
{
    in->type = need_type(c, in, oi, 0, TC_MEM);
    if (!in->vec)
        in->vec = 1;
    if (in->vec * tsize(in->type) > 16 || ((in->mod & MOD_NC) && in->space != PS_GLOBAL))
        unsupported(c, in->line);
    need_n(c, in, n, 2);
    int wide = !ptx_type_is_float((enum ptx_type)in->type);
    int vi = in->op == OP_LD ? 0 : 1;
    if (in->vec > 1)
        in->opd[vi] = vec(c, &r[vi], vi, in->vec, in->type, in->op == OP_LD, wide);
    else if (in->op == OP_LD)
        in->opd[vi] = dst(c, &r[vi], vi, in->type, wide);
    else
        in->opd[vi] = src(c, &r[vi], vi, in->type, F_IMM | (wide ? F_WIDE : 0));
    in->opd[1 - vi] = addr(c, &r[1 - vi], 1 - vi);
    in->nopd = 2;
}

/* mov d, a | mov d, {a, b} (pack) | mov {a, b}, s (unpack) */
static void build_mov(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    in->type = need_type(c, in, oi, 0, TC_VAL | TB(PT_PRED));
    need_n(c, in, n, 2);
    in->nopd = 2;
    unsigned sz = tsize(in->type);
    if (r[0].o.kind == OPD_VEC || r[1].o.kind == OPD_VEC) {
        int vi = r[0].o.kind == OPD_VEC ? 0 : 1;
        unsigned nv = r[vi].o.nvec;
        uint8_t et = PT_NONE;
        if (in->type != PT_PRED && (nv == 2 || nv == 4) && sz / nv >= 1) {
            unsigned es = sz / nv;
            et = es == 1 ? PT_B8 : es == 2 ? PT_B16 : es == 4 ? PT_B32 : PT_NONE;
        }
        if (!et || (in->type != PT_B32 && in->type != PT_B64))
            fail(c, in->line, "bad vector operand of '%s'", c->opname);
        in->opd[vi] = vec(c, &r[vi], vi, nv, et, vi == 0, 0);
        if (vi == 0)
            in->opd[1] = src(c, &r[1], 1, in->type, 0);
        else
            in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        return;
    }
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    unsigned fl = F_IMM | F_SREG;
    if (in->type == PT_U32 || in->type == PT_U64 || in->type == PT_B32 || in->type == PT_B64
        || in->type == PT_S32 || in->type == PT_S64)
        fl |= F_SYM;
    in->opd[1] = src(c, &r[1], 1, in->type, fl);
}

static void build_arith(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                        const struct raw *r, int n)
{
    int isf;
    switch (in->op) {
    case OP_ADD: case OP_SUB:
        in->type = need_type(c, in, oi, 0, TC_INT | TC_FLT);
        if ((in->mod & MOD_CC) && !(TB(in->type) & (TC_W32 | TC_W64) & TC_INT))
            unsupported(c, in->line);
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_MUL: case OP_MAD:
        in->type = need_type(c, in, oi, 0, TC_INT | TC_FLT);
        isf = ptx_type_is_float((enum ptx_type)in->type);
        if (isf && (in->mod & (MOD_LO | MOD_HI | MOD_WIDE)))
            unsupported(c, in->line);
        if (!isf && !(in->mod & (MOD_LO | MOD_HI | MOD_WIDE)))
            in->mod |= MOD_LO;
        if ((in->mod & MOD_CC) && isf)
            unsupported(c, in->line);
        if (in->mod & MOD_WIDE) {
            uint8_t wt = wide_type(in->type);
            if (!wt)
                unsupported(c, in->line);
            need_n(c, in, n, in->op == OP_MUL ? 3 : 4);
            in->opd[0] = dst(c, &r[0], 0, wt, 0);
            in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
            in->opd[2] = src(c, &r[2], 2, in->type, F_IMM);
            if (in->op == OP_MAD)
                in->opd[3] = src(c, &r[3], 3, wt, F_IMM);
            in->nopd = (uint8_t)n;
        } else {
            same_type_ops(c, in, r, n, in->op == OP_MUL ? 3 : 4);
        }
        break;
    case OP_FMA:
        in->type = need_type(c, in, oi, 0, TC_FLT);
        same_type_ops(c, in, r, n, 4);
        break;
    case OP_DIV: case OP_MIN: case OP_MAX:
        in->type = need_type(c, in, oi, 0, TC_INT | TC_FLT);
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_REM:
        in->type = need_type(c, in, oi, 0, TC_INT);
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_ABS: case OP_NEG:
        in->type = need_type(c, in, oi, 0, TC_SINT | TC_FLT);
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_MUL24: case OP_MAD24:
        in->type = need_type(c, in, oi, 0, TB(PT_U32) | TB(PT_S32));
        if (!(in->mod & (MOD_LO | MOD_HI)))
            in->mod |= MOD_LO;
        same_type_ops(c, in, r, n, in->op == OP_MUL24 ? 3 : 4);
        break;
    case OP_SAD:
        in->type = need_type(c, in, oi, 0, TC_INT);
        same_type_ops(c, in, r, n, 4);
        break;
    case OP_COPYSIGN:
        in->type = need_type(c, in, oi, 0, TC_FLT);
        same_type_ops(c, in, r, n, 3);
        break;
    default:   /* transcendental / sqrt family */
        in->type = need_type(c, in, oi, 0,
                             (in->op == OP_SQRT || in->op == OP_RCP || in->op == OP_RSQRT)
                                 ? TC_FLT : TB(PT_F32));
        same_type_ops(c, in, r, n, 2);
        break;
    }
}

static void build_logic(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                        const struct raw *r, int n)
{
    switch (in->op) {
    case OP_AND: case OP_OR: case OP_XOR:
        in->type = need_type(c, in, oi, 0, TC_BIT | TB(PT_PRED));
        same_type_ops(c, in, r, n, 3);
        break;
    case OP_NOT:
        in->type = need_type(c, in, oi, 0, TC_BIT | TB(PT_PRED));
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_CNOT:
        in->type = need_type(c, in, oi, 0, TC_BIT);
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_SHL: case OP_SHR:
        in->type = need_type(c, in, oi, 0, in->op == OP_SHL ? TC_BIT : (TC_BIT | TC_INT));
        need_n(c, in, n, 3);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
        in->opd[2] = src(c, &r[2], 2, PT_U32, F_IMM);
        in->nopd = 3;
        break;
    case OP_POPC: case OP_CLZ: case OP_BFIND:
        in->type = need_type(c, in, oi, 0, in->op == OP_BFIND
                             ? (TB(PT_U32) | TB(PT_U64) | TB(PT_S32) | TB(PT_S64))
                             : (TB(PT_B32) | TB(PT_B64)));
        need_n(c, in, n, 2);
        in->opd[0] = dst(c, &r[0], 0, PT_U32, 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
        in->nopd = 2;
        break;
    case OP_BREV:
        in->type = need_type(c, in, oi, 0, TB(PT_B32) | TB(PT_B64));
        same_type_ops(c, in, r, n, 2);
        break;
    case OP_BFE: case OP_BFI: {
        int nt = in->op == OP_BFE ? 2 : 3;   /* operands of the instruction type */
        in->type = need_type(c, in, oi, 0, in->op == OP_BFE
                             ? (TB(PT_U32) | TB(PT_U64) | TB(PT_S32) | TB(PT_S64))
                             : (TB(PT_B32) | TB(PT_B64)));
        need_n(c, in, n, nt + 2);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        for (int i = 1; i < n; i++)
            in->opd[i] = src(c, &r[i], i, i < nt ? in->type : PT_U32, F_IMM);
        in->nopd = (uint8_t)n;
        break;
    }
    case OP_PRMT:
        in->type = need_type(c, in, oi, 0, TB(PT_B32));
        same_type_ops(c, in, r, n, 4);
        break;
    default:
        unsupported(c, in->line);
    }
}

/* setp: p[|q], a, b[, {!}c] -> p, q|NONE, a, b, c;  set: d, a, b[, {!}c] */
static void build_cmp(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    if (!in->cmp)
        fail(c, in->line, "missing comparison in '%s'", c->opname);
    int want = in->bop ? 4 : 3;
    need_n(c, in, n, want);
    int k;
    if (in->op == OP_SETP) {
        in->type2 = need_type(c, in, oi, 0, TC_VAL);
        in->type = PT_PRED;
        if (r[0].o.kind != OPD_REG || r[0].o.neg)
            bad_opd(c, &r[0], 0);
        check_reg(c, r[0].line, r[0].name, r[0].rtype, PT_PRED, 0);
        in->opd[0] = r[0].o;
        in->opd[1].kind = OPD_NONE;
        in->opd[1].reg = -1;
        in->opd[1].sym = -1;
        if (r[0].has_pair) {
            check_reg(c, r[0].line, "second destination", r[0].pair_rtype, PT_PRED, 0);
            in->opd[1] = r[0].pair;
        }
        k = 2;
    } else {
        in->type = need_type(c, in, oi, 0, TB(PT_U32) | TB(PT_S32) | TB(PT_F32));
        in->type2 = need_type(c, in, oi, 1, TC_VAL);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        k = 1;
    }
    in->opd[k] = src(c, &r[1], 1, in->type2, F_IMM);
    in->opd[k + 1] = src(c, &r[2], 2, in->type2, F_IMM);
    if (in->bop)
        in->opd[k + 2] = pred_src(c, &r[3], 3, 1);
    in->nopd = (uint8_t)(k + 2 + (in->bop ? 1 : 0));
}

static void build_select(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                         const struct raw *r, int n)
{
    in->type = need_type(c, in, oi, 0, TC_VAL);
    need_n(c, in, n, 4);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
    in->opd[2] = src(c, &r[2], 2, in->type, F_IMM);
    if (in->op == OP_SELP) {
        in->opd[3] = pred_src(c, &r[3], 3, 0);
    } else {
        in->type2 = need_type(c, in, oi, 1, TB(PT_S32) | TB(PT_F32));
        in->opd[3] = src(c, &r[3], 3, in->type2, F_IMM);
    }
    in->nopd = 4;
}

static void build_atom(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                       const struct raw *r, int n)
{
    if (in->space != PS_GENERIC && in->space != PS_GLOBAL && in->space != PS_SHARED)
        unsupported(c, in->line);
    if (!in->sub)
        fail(c, in->line, "missing operation in '%s'", c->opname);
    in->type = need_type(c, in, oi, 0, TC_W32 | TC_W64);
    int isf = ptx_type_is_float((enum ptx_type)in->type);
    if ((isf && in->sub != AOP_ADD && in->sub != AOP_EXCH)
        || ((in->sub == AOP_INC || in->sub == AOP_DEC) && in->type != PT_U32)
        || (in->op == OP_RED && (in->sub == AOP_EXCH || in->sub == AOP_CAS)))
        unsupported(c, in->line);
    if (in->op == OP_RED) {
        need_n(c, in, n, 2);
        in->opd[0] = addr(c, &r[0], 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_IMM);
        in->nopd = 2;
        return;
    }
    need_n(c, in, n, in->sub == AOP_CAS ? 4 : 3);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    in->opd[1] = addr(c, &r[1], 1);
    for (int i = 2; i < n; i++)
        in->opd[i] = src(c, &r[i], i, in->type, F_IMM);
    in->nopd = (uint8_t)n;
}

static void build_bar(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    if (oi->bar_kind == BK_WARP) {        /* bar.warp.sync mask: a no-op in lockstep SIMT */
        if (!oi->sync)
            unsupported(c, in->line);
        need_n(c, in, n, 1);
        in->op = OP_NOP;
        in->sub = 1;
        in->opd[0] = src(c, &r[0], 0, PT_U32, F_IMM);
        in->nopd = 1;
        return;
    }
    if (oi->bar_kind == BK_ARRIVE ? oi->sync : !oi->sync)
        unsupported(c, in->line);
    in->sub = oi->bar_kind == BK_ARRIVE ? 1 : 0;
    if (n < 1 || n > 2 || (oi->bar_kind == BK_ARRIVE && n != 2))
        fail(c, in->line, "wrong number of operands for '%s'", c->opname);
    in->opd[0] = src(c, &r[0], 0, PT_U32, F_IMM);
    if (n == 2)
        in->opd[1] = src(c, &r[1], 1, PT_U32, F_IMM);
    else
        in->opd[1].kind = OPD_NONE, in->opd[1].reg = -1, in->opd[1].sym = -1;
    in->nopd = 2;
}

static void build_warp(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                       const struct raw *r, int n)
{
    if (in->op == OP_ACTIVEMASK) {
        in->type = need_type(c, in, oi, 0, TB(PT_B32));
        need_n(c, in, n, 1);
        in->opd[0] = dst(c, &r[0], 0, PT_B32, 0);
        in->nopd = 1;
        return;
    }
    if (!oi->sync || !in->sub)
        unsupported(c, in->line);
    if (in->op == OP_SHFL) {
        in->type = need_type(c, in, oi, 0, TB(PT_B32));
        need_n(c, in, n, 5);
        if (r[0].o.kind != OPD_REG || r[0].o.neg)
            bad_opd(c, &r[0], 0);
        check_reg(c, r[0].line, r[0].name, r[0].rtype, PT_B32, 0);
        in->opd[0] = r[0].o;
        in->opd[1].kind = OPD_NONE;
        in->opd[1].reg = -1;
        in->opd[1].sym = -1;
        if (r[0].has_pair) {
            check_reg(c, r[0].line, "second destination", r[0].pair_rtype, PT_PRED, 0);
            in->opd[1] = r[0].pair;
        }
        in->opd[2] = src(c, &r[1], 1, PT_B32, F_IMM);
        in->opd[3] = src(c, &r[2], 2, PT_U32, F_IMM);
        in->opd[4] = src(c, &r[3], 3, PT_U32, F_IMM);
        in->opd[5] = src(c, &r[4], 4, PT_U32, F_IMM);
        in->nopd = 6;
        return;
    }
    /* vote */
    in->type = need_type(c, in, oi, 0, in->sub == VOTE_BALLOT ? TB(PT_B32) : TB(PT_PRED));
    need_n(c, in, n, 3);
    in->opd[0] = dst(c, &r[0], 0, in->type, 0);
    in->opd[1] = pred_src(c, &r[1], 1, 1);
    in->opd[2] = src(c, &r[2], 2, PT_U32, F_IMM);
    in->nopd = 3;
}

static void build_cvt(struct pctx *c, struct ptx_insn *in, const struct opinfo *oi,
                      const struct raw *r, int n)
{
    if (in->op == OP_CVTA) {
        in->type = need_type(c, in, oi, 0, TB(PT_U32) | TB(PT_U64));
        if (in->space == PS_GENERIC)
            fail(c, in->line, "missing state space in '%s'", c->opname);
        need_n(c, in, n, 2);
        in->opd[0] = dst(c, &r[0], 0, in->type, 0);
        in->opd[1] = src(c, &r[1], 1, in->type, F_SYM);
        in->nopd = 2;
        return;
    }
    in->type = need_type(c, in, oi, 0, TC_CVT);
    in->type2 = need_type(c, in, oi, 1, TC_CVT);
    need_n(c, in, n, 2);
    in->opd[0] = dst(c, &r[0], 0, in->type, 1);
    in->opd[1] = src(c, &r[1], 1, in->type2, F_IMM | F_SREG | F_WIDE);
    in->nopd = 2;
}

static void build_insn(struct pctx *c, const struct opspec *spec, struct ptx_insn *in,
                       const struct opinfo *oi, const struct raw *r, int n)
{
    switch (in->op) {
    case OP_LD: case OP_ST: build_ld_st(c, in, oi, r, n); break;
    case OP_MOV: build_mov(c, in, oi, r, n); break;
    case OP_CVTA: case OP_CVT: build_cvt(c, in, oi, r, n); break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV: case OP_REM:
    case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG: case OP_MUL24: case OP_MAD24:
    case OP_SAD: case OP_COPYSIGN: case OP_SQRT: case OP_RSQRT: case OP_RCP: case OP_EX2:
    case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
        build_arith(c, in, oi, r, n);
        break;
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR:
    case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFE: case OP_BFI: case OP_PRMT:
    case OP_BFIND:
        build_logic(c, in, oi, r, n);
        break;
    case OP_SETP: case OP_SET: build_cmp(c, in, oi, r, n); break;
    case OP_SELP: case OP_SLCT: build_select(c, in, oi, r, n); break;
    case OP_EXIT: case OP_RET: case OP_NOP: need_n(c, in, n, 0); break;
    case OP_BAR: build_bar(c, in, oi, r, n); break;
    case OP_MEMBAR:
        if (spec->name[0] == 'm' ? !oi->level : !oi->has_order)
            unsupported(c, in->line);
        need_n(c, in, n, 0);
        break;
    case OP_ATOM: case OP_RED: build_atom(c, in, oi, r, n); break;
    case OP_SHFL: case OP_VOTE: case OP_ACTIVEMASK: build_warp(c, in, oi, r, n); break;
    default: unsupported(c, in->line);
    }
}

static void add_lref(struct pctx *c, uint32_t insn, uint8_t opd, int32_t sym, uint32_t line)
{
    c->lrefs = grow(c, c->lrefs, &c->cap_lrefs, (uint64_t)c->nlrefs + 1, sizeof *c->lrefs);
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
            fail(c, c->t.line, "unexpected end of file: missing ';'");
        fail(c, c->t.line, "bad operand '%s' of '%s': expected a label", tok_show(&c->t, b, sizeof b),
             c->opname);
    }
    uint8_t ty;
    if (find_reg(c, &c->t, &ty) >= 0)
        fail(c, c->t.line, "unsupported: indirect branch");
    in->opd[0].kind = OPD_LABEL;
    in->opd[0].sym = intern(c, c->t.s, c->t.len);
    in->opd[0].imm = -1;
    in->nopd = 1;
    add_lref(c, curf(c)->ninsns, 0, in->opd[0].sym, c->t.line);
    next(c);
    expect_punct(c, ';');
}

/* A call argument or return: a .param variable in scope (strs index) or a register. */
static int32_t call_param(struct pctx *c, uint8_t *is_reg)
{
    char b[64];
    uint32_t sub;
    if (c->t.kind != T_IDENT)
        unknown_name(c, &c->t);
    const struct decl *d = lookup(c, c->t.s, c->t.len, &sub);
    if (!d)
        unknown_name(c, &c->t);
    int32_t v;
    if (d->kind == D_REG || d->kind == D_RANGE) {
        *is_reg = 1;
        v = d->idx + (int32_t)sub;
    } else if (d->kind != D_VAR || c->m->vars[d->idx].space == PS_PARAM) {
        *is_reg = 0;
        v = d->sym;
    } else {
        fail(c, c->t.line, "bad call argument '%s' (not a .param variable)", tok_show(&c->t, b, sizeof b));
    }
    next(c);
    return v;
}

/* call[.uni] [(ret, ...),] func[, (arg, ...)]; */
static void parse_call(struct pctx *c, struct ptx_insn *in)
{
    struct ptx_call cl;
    memset(&cl, 0, sizeof cl);
    uint8_t isreg;
    if (is_punct(&c->t, '(')) {
        next(c);
        while (!is_punct(&c->t, ')')) {
            if (cl.nrets >= 4)
                fail(c, c->t.line, "too many return values in call");
            cl.rets[cl.nrets] = call_param(c, &isreg);
            if (isreg)
                fail(c, c->t.line, "unsupported: register as call return value");
            cl.nrets++;
            if (!is_punct(&c->t, ','))
                break;
            next(c);
        }
        expect_punct(c, ')');
        expect_punct(c, ',');
    }
    uint8_t ty;
    if (c->t.kind != T_IDENT)
        unknown_name(c, &c->t);
    if (find_reg(c, &c->t, &ty) >= 0)
        fail(c, c->t.line, "unsupported: indirect call");
    cl.callee = intern(c, c->t.s, c->t.len);
    next(c);
    if (is_punct(&c->t, ',')) {
        next(c);
        expect_punct(c, '(');
        while (!is_punct(&c->t, ')')) {
            if (cl.nargs >= PTX_MAX_CALL_ARGS)
                fail(c, c->t.line, "too many arguments in call");
            cl.args[cl.nargs] = call_param(c, &cl.arg_is_reg[cl.nargs]);
            cl.nargs++;
            if (!is_punct(&c->t, ','))
                break;
            next(c);
        }
        expect_punct(c, ')');
        if (is_punct(&c->t, ','))
            fail(c, c->t.line, "unsupported: call through a prototype (indirect call)");
    }
    expect_punct(c, ';');
    struct ptx_func *f = curf(c);
    f->calls = grow(c, f->calls, &c->cap_calls, (uint64_t)f->ncalls + 1, sizeof *f->calls);
    f->calls[f->ncalls] = cl;
    in->opd[0].kind = OPD_IMM;
    in->opd[0].imm = f->ncalls++;
    in->nopd = 1;
}

static void append_insn(struct pctx *c, const struct ptx_insn *in)
{
    struct ptx_func *f = curf(c);
    f->insns = grow(c, f->insns, &c->cap_insns, (uint64_t)f->ninsns + 1, sizeof *f->insns);
    f->insns[f->ninsns++] = *in;
}

static void parse_insn(struct pctx *c)
{
    char b[64];
    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.guard = -1;
    in.line = c->t.line;
    for (int i = 0; i < PTX_MAX_OPERANDS; i++)
        in.opd[i].reg = -1, in.opd[i].sym = -1;
    if (is_punct(&c->t, '@')) {
        next(c);
        if (is_punct(&c->t, '!')) {
            in.guard_neg = 1;
            next(c);
        }
        uint8_t ty = 0;
        if (c->t.kind != T_IDENT)
            unknown_name(c, &c->t);
        in.guard = find_reg(c, &c->t, &ty);
        if (in.guard < 0)
            unknown_name(c, &c->t);
        if (ty != PT_PRED)
            fail(c, c->t.line, "type mismatch: guard '%s' is .%s, needs .pred",
                 tok_show(&c->t, b, sizeof b), ptx_type_name((enum ptx_type)ty));
        next(c);
    }
    if (c->t.kind != T_IDENT) {
        if (c->t.kind == T_EOF)
            fail(c, c->t.line, "unexpected end of file: expected an instruction");
        fail(c, c->t.line, "expected an instruction, found '%s'", tok_show(&c->t, b, sizeof b));
    }
    in.line = c->t.line;
    struct opinfo oi;
    memset(&oi, 0, sizeof oi);
    const struct opspec *spec = decode_opcode(c, &in, &oi);
    next(c);
    if (in.op == OP_BRA) {
        parse_bra(c, &in);
    } else if (in.op == OP_CALL) {
        parse_call(c, &in);
    } else {
        struct raw r[MAX_RAW];
        int n = parse_operands(c, r);
        build_insn(c, spec, &in, &oi, r, n);
    }
    append_insn(c, &in);
}

/* LABEL: */
static void parse_label(struct pctx *c)
{
    struct ptx_func *f = curf(c);
    int32_t sym = intern(c, c->t.s, c->t.len);
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (c->label_sym[i] == sym)
            fail(c, c->t.line, "duplicate label '%s'", c->m->strs[sym]);
    uint32_t cap1 = c->cap_labels, cap2 = c->cap_labels, cap3 = c->cap_labels;
    f->labels = grow(c, f->labels, &cap1, (uint64_t)f->nlabels + 1, sizeof *f->labels);
    f->label_pos = grow(c, f->label_pos, &cap2, (uint64_t)f->nlabels + 1, sizeof *f->label_pos);
    c->label_sym = grow(c, c->label_sym, &cap3, (uint64_t)f->nlabels + 1, sizeof *c->label_sym);
    c->cap_labels = cap1;
    f->labels[f->nlabels] = c->m->strs[sym];
    f->label_pos[f->nlabels] = f->ninsns;
    c->label_sym[f->nlabels] = sym;
    f->nlabels++;
    next(c);
    expect_punct(c, ':');
}

/* Statements up to the '}' closing the function body. */
static void parse_body(struct pctx *c)
{
    char b[64];
    uint32_t body = c->depth;
    for (;;) {
        struct tok *t = &c->t;
        if (t->kind == T_EOF)
            fail(c, t->line, "unexpected end of file: missing '}' at the end of function '%s'",
                 curf(c)->name);
        if (is_punct(t, '{')) {
            push_scope(c);
            next(c);
        } else if (is_punct(t, '}')) {
            next(c);
            if (c->depth == body)
                return;
            pop_scope(c);
        } else if (is_punct(t, ';')) {
            next(c);
        } else if (t->kind == T_DIR) {
            if (dir_is(t, ".reg"))
                parse_reg_decl(c);
            else if (dir_is(t, ".local"))
                parse_var_decl(c, PS_LOCAL, 0, 1);
            else if (dir_is(t, ".shared"))
                parse_var_decl(c, PS_SHARED, 0, 1);
            else if (dir_is(t, ".global"))
                parse_var_decl(c, PS_GLOBAL, 0, 1);
            else if (dir_is(t, ".const"))
                parse_var_decl(c, PS_CONST, 0, 1);
            else if (dir_is(t, ".param"))
                parse_var_decl(c, PS_PARAM, 0, 1);
            else if (dir_is(t, ".pragma"))
                skip_pragma(c);
            else if (dir_is(t, ".loc") || dir_is(t, ".file"))
                skip_line(c);
            else
                fail(c, t->line, "unexpected directive '%s' in function body", tok_show(t, b, sizeof b));
        } else if (is_punct(t, '@')) {
            parse_insn(c);
        } else if (t->kind == T_IDENT) {
            struct tok nx = peek(c);
            if (is_punct(&nx, ':'))
                parse_label(c);
            else
                parse_insn(c);
        } else {
            fail(c, t->line, "unexpected '%s' in function body", tok_show(t, b, sizeof b));
        }
    }
}

static void resolve_labels(struct pctx *c)
{
    struct ptx_func *f = curf(c);
    for (uint32_t i = 0; i < c->nlrefs; i++) {
        const struct lref *l = &c->lrefs[i];
        uint32_t k;
        for (k = 0; k < f->nlabels && c->label_sym[k] != l->sym; k++) {}
        if (k == f->nlabels)
            fail(c, l->line, "undefined label '%s'", c->m->strs[l->sym]);
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
            next(c);
            for (int i = 0; i < 3; i++) {
                dims[i] = (uint32_t)take_uint(c, "thread count", 1u << 20);
                if (!is_punct(&c->t, ','))
                    break;
                next(c);
            }
            for (int i = 0; i < 3; i++)
                if (!dims[i])
                    dims[i] = 1;
        } else if (dir_is(&c->t, ".minnctapersm") || dir_is(&c->t, ".maxnctapersm")
                   || dir_is(&c->t, ".maxnreg") || dir_is(&c->t, ".maxclusterrank")
                   || dir_is(&c->t, ".reqnctapercluster")) {
            next(c);
            for (;;) {
                take_uint(c, "count", UINT32_MAX);
                if (!is_punct(&c->t, ','))
                    break;
                next(c);
            }
        } else if (dir_is(&c->t, ".noreturn") || dir_is(&c->t, ".explicitcluster")) {
            next(c);
        } else if (dir_is(&c->t, ".pragma")) {
            skip_pragma(c);
        } else {
            fail(c, c->t.line, "unexpected '%s' in function header", tok_show(&c->t, b, sizeof b));
        }
    }
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

/* .entry / .func: header, then a body or ';' (a prototype, which is not kept). */
static void parse_function(struct pctx *c, int is_entry)
{
    struct ptx_module *m = c->m;
    uint32_t line = c->t.line, dummy;
    next(c);
    m->funcs = grow(c, m->funcs, &c->cap_funcs, (uint64_t)m->nfuncs + 1, sizeof *m->funcs);
    uint32_t fi = m->nfuncs++;
    struct ptx_func *f = &m->funcs[fi];
    memset(f, 0, sizeof *f);
    f->is_entry = (uint8_t)is_entry;
    f->line = line;
    if (!is_entry && is_punct(&c->t, '('))
        parse_params(c, &f->rets, &f->nrets, &dummy);
    take_ident(c, f->name, sizeof f->name, "function name");
    next(c);
    if (is_punct(&c->t, '('))
        parse_params(c, &f->params, &f->nparams, &f->param_size);
    parse_perf_directives(c, f);
    if (is_punct(&c->t, ';')) {            /* prototype */
        free_func(f);
        m->nfuncs--;
        next(c);
        return;
    }
    if (!is_punct(&c->t, '{')) {
        char b[64];
        if (c->t.kind == T_EOF)
            fail(c, c->t.line, "unexpected end of file: missing '{' of function '%s'", f->name);
        fail(c, c->t.line, "expected '{' or ';' after function header, found '%s'",
             tok_show(&c->t, b, sizeof b));
    }
    for (uint32_t i = 0; i < fi; i++)
        if (!strcmp(m->funcs[i].name, f->name))
            fail(c, line, "duplicate definition of function '%s'", f->name);
    c->fidx = (int32_t)fi;
    c->cap_insns = c->cap_regs = c->cap_labels = c->cap_calls = 0;
    c->nlrefs = 0;
    push_scope(c);
    for (uint32_t i = 0; i < f->nparams; i++)
        add_decl(c, f->params[i].name, strlen(f->params[i].name), D_PARAM, 0, (int32_t)i,
                 intern(c, f->params[i].name, strlen(f->params[i].name)));
    for (uint32_t i = 0; i < f->nrets; i++)
        add_decl(c, f->rets[i].name, strlen(f->rets[i].name), D_RET, 0, (int32_t)i,
                 intern(c, f->rets[i].name, strlen(f->rets[i].name)));
    next(c);
    push_scope(c);
    parse_body(c);
    resolve_labels(c);
    while (c->depth > 0)
        pop_scope(c);
    c->fidx = -1;
}

static void parse_module(struct pctx *c)
{
    char b[64];
    struct ptx_module *m = c->m;
    if (c->t.kind == T_EOF)
        fail(c, 1, "empty PTX input");
    if (!dir_is(&c->t, ".version"))
        fail(c, c->t.line, "expected .version at the start of the module, found '%s'",
             tok_show(&c->t, b, sizeof b));
    int is_extern = 0, linkage = 0;
    while (c->t.kind != T_EOF) {
        struct tok *t = &c->t;
        if (t->kind != T_DIR)
            fail(c, t->line, "unexpected '%s' at module scope", tok_show(t, b, sizeof b));
        if (linkage && !(dir_is(t, ".entry") || dir_is(t, ".func") || dir_is(t, ".global")
                         || dir_is(t, ".const") || dir_is(t, ".shared") || dir_is(t, ".local")
                         || dir_is(t, ".visible") || dir_is(t, ".extern") || dir_is(t, ".weak")
                         || dir_is(t, ".common")))
            fail(c, t->line, "unexpected '%s' after a linkage directive", tok_show(t, b, sizeof b));
        if (dir_is(t, ".version")) {
            next(c);
            if (c->t.kind != T_NUM)
                fail(c, c->t.line, "expected a version number after .version");
            snprintf(m->version, sizeof m->version, "%.*s", (int)c->t.len, c->t.s);
            next(c);
        } else if (dir_is(t, ".target")) {
            next(c);
            take_ident(c, m->target, sizeof m->target, "target name");
            next(c);
            while (is_punct(&c->t, ',')) {
                next(c);
                take_ident(c, b, sizeof b, "target option");
                next(c);
            }
        } else if (dir_is(t, ".address_size")) {
            next(c);
            uint64_t v = take_uint(c, "address size", 64);
            if (v != 32 && v != 64)
                fail(c, t->line, "bad .address_size %llu", (unsigned long long)v);
            m->address_size = (uint32_t)v;
        } else if (dir_is(t, ".file") || dir_is(t, ".loc")) {
            skip_line(c);
        } else if (dir_is(t, ".section")) {
            skip_section(c);
        } else if (dir_is(t, ".pragma")) {
            skip_pragma(c);
        } else if (dir_is(t, ".visible") || dir_is(t, ".extern") || dir_is(t, ".weak")
                   || dir_is(t, ".common")) {
            is_extern |= dir_is(t, ".extern");
            linkage = 1;
            next(c);
            if (c->t.kind == T_EOF)
                fail(c, c->t.line, "unexpected end of file after a linkage directive");
            continue;
        } else if (dir_is(t, ".entry") || dir_is(t, ".func")) {
            parse_function(c, dir_is(t, ".entry"));
        } else if (dir_is(t, ".global")) {
            parse_var_decl(c, PS_GLOBAL, is_extern, 0);
        } else if (dir_is(t, ".const")) {
            parse_var_decl(c, PS_CONST, is_extern, 0);
        } else if (dir_is(t, ".shared")) {
            parse_var_decl(c, PS_SHARED, is_extern, 0);
        } else if (dir_is(t, ".local")) {
            parse_var_decl(c, PS_LOCAL, is_extern, 0);
        } else {
            fail(c, t->line, "unexpected directive '%s' at module scope", tok_show(t, b, sizeof b));
        }
        is_extern = 0;
        linkage = 0;
    }
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
    free(m->arena);
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
        next(c);
        parse_module(c);
    } else {
        rc = -1;
        ptx_module_free(mod);
    }
    free(c->hash);
    free(c->decls);
    free(c->label_sym);
    free(c->lrefs);
    free(c->ivals);
    free(c);
    return rc;
}
