/*
 * ptx_lex.c -- the PTX parser's lexer: errors (longjmp to ptx_parse), growable arrays, the
 * module's string table, and on-demand tokens.
 *
 * Not a hardware block.  Strings are interned through a name table (ptx_ntab.h).  Identifiers
 * may carry dotted suffixes ("ld.global.u32", "%tid.x") and '::' qualifiers; numbers are
 * decoded here (0f.. f32 bits, 0d.. f64 bits, 0x.., 0b.., octal, decimal, decimal floats).
 * Comments and whitespace are skipped; .loc/.file lines and .section blocks (debug
 * information) are skipped by helpers the statement parser calls, and .pragma statements are
 * collected into groups the module keeps (px_take_pragma, px_pragma_group).
 */
#include "ptx_parse_priv.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ errors, memory */

void px_fail(struct pctx *c, uint32_t line, const char *fmt, ...)
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
void *px_grow(struct pctx *c, void *arr, uint32_t *cap, uint64_t need, size_t esz)
{
    if (need <= *cap)
        return arr;
    uint64_t nc = *cap ? *cap : 8;
    while (nc < need)
        nc *= 2;
    if (nc > 0xffffffffull || nc * esz > (1ull << 34))
        px_fail(c, c->t.line, "input too large");
    char *n = realloc(arr, (size_t)(nc * esz));
    if (!n)
        px_fail(c, c->t.line, "out of memory");
    memset(n + (size_t)*cap * esz, 0, (size_t)((nc - *cap) * esz));
    *cap = (uint32_t)nc;
    return n;
}

/* ------------------------------------------------------------------ string table */

/* Index of the string in mod->strs, added if new. */
int32_t px_intern(struct pctx *c, const char *s, size_t len)
{
    struct ptx_module *m = c->m;
    int32_t *v = ntab_ref(&c->strtab, s, len);
    if (!v)
        px_fail(c, c->t.line, "out of memory");
    if (*v != NTAB_NONE)
        return *v;
    m->strs = px_grow(c, m->strs, &c->cap_strs, (uint64_t)m->nstrs + 1, sizeof *m->strs);
    char *copy = malloc(len + 1);
    if (!copy)
        px_fail(c, c->t.line, "out of memory");
    memcpy(copy, s, len);
    copy[len] = 0;
    m->strs[m->nstrs] = copy;
    *v = (int32_t)m->nstrs++;
    return *v;
}

/* ------------------------------------------------------------------ lexer */

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
                    px_fail(c, start, "unterminated comment");
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
                px_fail(c, c->line, "integer literal out of range");
            v = v * 10 + (uint64_t)d;
        } else {
            if (++n > maxdig)
                px_fail(c, c->line, "integer literal out of range");
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
    px_fail(c, c->line, "bad number '%.*s'", (int)(e - s), s);
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
                px_fail(c, c->line, "bad floating-point literal (expected %d hex digits)", nd);
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
                px_fail(c, c->line, "integer literal out of range");
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

void px_next(struct pctx *c)
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
            px_fail(c, c->line, "unterminated string");
        t->kind = T_STR;
        c->p = p + 1;
    } else if (strchr(",;:{}[]()<>+-!@|=", ch) && ch) {
        t->kind = T_PUNCT;
        t->c = (char)ch;
        c->p++;
    } else if (ch >= 0x21 && ch < 0x7f) {
        px_fail(c, c->line, "unexpected character '%c'", ch);
    } else {
        px_fail(c, c->line, "unexpected character '\\x%02x'", ch);
    }
    t->len = (uint32_t)(c->p - t->s);
    if (t->len > MAX_TOKEN)
        px_fail(c, t->line, "token too long");
    c->last_line = t->line;
}

struct tok px_peek(struct pctx *c)
{
    const char *p = c->p;
    uint32_t line = c->line, last = c->last_line;
    struct tok save = c->t, r;
    px_next(c);
    r = c->t;
    c->p = p;
    c->line = line;
    c->last_line = last;
    c->t = save;
    return r;
}


/* Printable form of a token for messages. */
const char *px_tok_show(const struct tok *t, char *buf, size_t n)
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

void px_expect_punct(struct pctx *c, char ch)
{
    if (!is_punct(&c->t, ch)) {
        char b[64];
        if (c->t.kind == T_EOF)
            px_fail(c, c->t.line, "unexpected end of file: missing '%c'", ch);
        px_fail(c, c->t.line, "expected '%c', found '%s'", ch, px_tok_show(&c->t, b, sizeof b));
    }
    px_next(c);
}

/* Current token must be an identifier; copy it into buf (size n, must fit). */
void px_take_ident(struct pctx *c, char *buf, size_t n, const char *what)
{
    char b[64];
    if (c->t.kind != T_IDENT) {
        if (c->t.kind == T_EOF)
            px_fail(c, c->t.line, "unexpected end of file: expected %s", what);
        px_fail(c, c->t.line, "expected %s, found '%s'", what, px_tok_show(&c->t, b, sizeof b));
    }
    if (c->t.len >= n)
        px_fail(c, c->t.line, "%s '%s...' too long (at most %u characters)", what,
             px_tok_show(&c->t, b, 40), (unsigned)n - 1);
    memcpy(buf, c->t.s, c->t.len);
    buf[c->t.len] = 0;
}

uint64_t px_take_uint(struct pctx *c, const char *what, uint64_t max)
{
    char b[64];
    if (c->t.kind != T_NUM || c->t.lit != LIT_INT)
        px_fail(c, c->t.line, "expected %s, found '%s'", what, px_tok_show(&c->t, b, sizeof b));
    if (c->t.u > max)
        px_fail(c, c->t.line, "%s %llu too large (at most %llu)", what,
             (unsigned long long)c->t.u, (unsigned long long)max);
    uint64_t v = c->t.u;
    px_next(c);
    return v;
}

/* Skip the rest of the current line (.loc, .file): the current token is the directive. */
void px_skip_line(struct pctx *c)
{
    while (c->p < c->end && *c->p != '\n')
        c->p++;
    px_next(c);
}

/* .section NAME { ... } (debug info): skip to the matching brace. */
void px_skip_section(struct pctx *c)
{
    uint32_t line = c->t.line;
    px_next(c);
    while (!is_punct(&c->t, '{')) {
        if (c->t.kind == T_EOF)
            px_fail(c, line, "unexpected end of file in .section");
        px_next(c);
    }
    int depth = 0;
    do {
        if (c->t.kind == T_EOF)
            px_fail(c, c->t.line, "unexpected end of file: missing '}' of .section");
        if (is_punct(&c->t, '{'))
            depth++;
        else if (is_punct(&c->t, '}'))
            depth--;
        px_next(c);
    } while (depth > 0);
}

static void pbuf_add(struct pctx *c, struct pbuf *b, const char *s, size_t n)
{
    b->s = px_grow(c, b->s, &b->cap, (uint64_t)b->len + n + 1, 1);
    memcpy(b->s + b->len, s, n);
    b->len += (uint32_t)n;
    b->s[b->len] = 0;
}

/* .pragma "a", "b"; -- its string list, as written but for spacing ("a", "b"), appended to b
   as one more line. */
void px_take_pragma(struct pctx *c, struct pbuf *b)
{
    px_next(c);
    if (b->len)
        pbuf_add(c, b, "\n", 1);
    while (c->t.kind == T_STR || is_punct(&c->t, ',')) {
        if (c->t.kind == T_STR)
            pbuf_add(c, b, c->t.s, c->t.len);
        else
            pbuf_add(c, b, ", ", 2);
        px_next(c);
    }
    px_expect_punct(c, ';');
}

/* The module's index (1-based) of the pragma group collected in b, added if new; 0 for an
   empty b, which is emptied. */
uint16_t px_pragma_group(struct pctx *c, struct pbuf *b)
{
    struct ptx_module *m = c->m;
    if (!b->len)
        return 0;
    int32_t *v = ntab_ref(&c->prtab, b->s, b->len);
    if (!v)
        px_fail(c, c->t.line, "out of memory");
    if (*v == NTAB_NONE) {
        if (m->npragmas >= 0xFFFFu)
            px_fail(c, c->t.line, "too many distinct .pragma groups (at most 65535)");
        m->pragmas = px_grow(c, m->pragmas, &c->cap_pragmas, (uint64_t)m->npragmas + 1,
                             sizeof *m->pragmas);
        if (!(m->pragmas[m->npragmas] = strdup(b->s)))
            px_fail(c, c->t.line, "out of memory");
        *v = (int32_t)++m->npragmas;
    }
    b->len = 0;
    return (uint16_t)*v;
}

/* ------------------------------------------------------------------ types */

uint8_t px_type_of(const struct tok *t)
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

uint8_t px_type_by_name(const char *s)
{
    for (int i = PT_PRED; i < PT_COUNT; i++)
        if (strcmp(s, ptx_type_name((enum ptx_type)i)) == 0)
            return (uint8_t)i;
    return PT_NONE;
}

