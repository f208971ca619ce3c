/*
 * cache_entry.c -- a key's text and a result cache entry's bytes (cache.h): an entry made from
 * a result and its key, and parsed back only when it is exactly what would be made. No file
 * I/O here (cache.c hashes the key's files and reads and writes the entries), so the fuzz
 * harness (fuzz/fuzz_cache_one.c) runs it alone.
 *
 * An entry, every field in this order, N a decimal byte count without leading zeros:
 *   gpusim-result-cache 3          the format
 *   sum HEX                        cache_hash of every byte after this line
 *   key HEX                        the key's digest (the file's name)
 *   keytext N / N bytes            the key's whole text
 *   result WORD                    ok, WRONG or n/a (an error is never stored)
 *   msg N / N bytes                the run's message ("results correct" exactly when ok)
 *   regs N, config N, lat N, app N the result's register note, configuration name, latency
 *                                  set and an application's output digest and kernels (each
 *                                  shorter than its field in struct result)
 *   stats N / N bytes              struct gs_stats as the binary that ran stores it (the
 *                                  binary is in the key, so its layout is too)
 *   end
 * Each "NAME N" line is followed by its N bytes and a '\n'. A text field has no NUL byte.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cache.h"

/* ------------------------------------------------------------------ the hash */

void cache_hash(const void *p, size_t n, char hex[CACHE_KEY_LEN])
{
    const unsigned char *c = p;
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
    for (size_t i = 0; i < n; i++) {
        a = (a ^ c[i]) * 0x100000001b3ULL;
        b = (b ^ c[i]) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    }
    snprintf(hex, CACHE_KEY_LEN, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

/* ------------------------------------------------------------------ the key's text */

static void key_put(struct cache_key *k, const char *s, size_t n)
{
    if (k->bad)
        return;
    if (k->len + n + 1 > k->cap) {
        size_t cap = (k->len + n + 1) * 2;
        char *p = k->len + n < CACHE_KEY_MAX ? realloc(k->text, cap) : NULL;
        if (!p) {
            k->bad = 1;
            return;
        }
        k->text = p;
        k->cap = cap;
    }
    memcpy(k->text + k->len, s, n);
    k->len += n;
    k->text[k->len] = 0;
}

void cache_key_start(struct cache_key *k)
{
    memset(k, 0, sizeof *k);
    key_put(k, "gpusim result key 2\n", 20);
}

void cache_key_add(struct cache_key *k, const char *name, const char *value)
{
    key_put(k, name, strlen(name));
    key_put(k, " ", 1);
    for (const unsigned char *s = (const unsigned char *)value; *s; s++) {
        char esc[8];
        if (*s == '\\' || *s == '\n' || *s < 0x20 || *s == 0x7f) {
            snprintf(esc, sizeof esc, *s == '\\' ? "\\\\" : *s == '\n' ? "\\n" : "\\x%02x", *s);
            key_put(k, esc, strlen(esc));
        } else
            key_put(k, (const char *)s, 1);
    }
    key_put(k, "\n", 1);
}

int cache_key_end(struct cache_key *k)
{
    if (k->bad) {
        cache_key_free(k);
        return -1;
    }
    cache_hash(k->text, k->len, k->hex);
    return 0;
}

void cache_key_free(struct cache_key *k)
{
    free(k->text);
    memset(k, 0, sizeof *k);
}

/* ------------------------------------------------------------------ making */

struct out { char *p; size_t len, cap; int bad; };

static void put(struct out *o, const void *s, size_t n)
{
    if (o->bad)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = (o->len + n + 1) * 2;
        char *p = realloc(o->p, cap);
        if (!p) {
            o->bad = 1;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = 0;
}

static void put_s(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* "name N\n", the N bytes, "\n". */
static void put_field(struct out *o, const char *name, const void *s, size_t n)
{
    char head[64];
    snprintf(head, sizeof head, "%s %zu\n", name, n);
    put_s(o, head);
    put(o, s, n);
    put_s(o, "\n");
}

/* A text field of a fixed-size array: its bytes up to the NUL; -1 when there is none. */
static int put_text(struct out *o, const char *name, const char *s, size_t size)
{
    size_t n = strnlen(s, size);
    if (n == size)
        return -1;
    put_field(o, name, s, n);
    return 0;
}

static const char *word_of(int rc)
{
    return rc == 0 ? "ok" : rc == 1 ? "WRONG" : rc == MECH_NA ? "n/a" : NULL;
}

#define CORRECT "results correct"

char *cache_entry_make(const struct cache_key *k, const struct result *r, size_t *len)
{
    struct out o = {0};
    const char *word = word_of(r->rc), *msg = r->msg;
    size_t mlen = msg ? strlen(msg) : 0;
    char sum[CACHE_KEY_LEN];
    if (!word || !msg || (r->rc == 0) != !strcmp(msg, CORRECT) || mlen > CACHE_MSG_MAX ||
        k->len > CACHE_KEY_MAX)
        return NULL;
    put_s(&o, CACHE_MAGIC "sum 00000000000000000000000000000000\nkey ");
    put_s(&o, k->hex);
    put_s(&o, "\n");
    put_field(&o, "keytext", k->text, k->len);
    put_s(&o, "result ");
    put_s(&o, word);
    put_s(&o, "\n");
    put_field(&o, "msg", msg, mlen);
    if (put_text(&o, "regs", r->regs, sizeof r->regs) ||
        put_text(&o, "config", r->cfg_name, sizeof r->cfg_name) ||
        put_text(&o, "lat", r->lat, sizeof r->lat) ||
        put_text(&o, "app", r->app, sizeof r->app))
        o.bad = 1;
    put_field(&o, "stats", &r->st, sizeof r->st);
    put_s(&o, "end\n");
    if (o.bad || o.len > CACHE_ENTRY_MAX) {
        free(o.p);
        return NULL;
    }
    cache_hash(o.p + CACHE_BODY_AT, o.len - CACHE_BODY_AT, sum);
    memcpy(o.p + CACHE_SUM_AT, sum, 32);
    *len = o.len;
    return o.p;
}

/* ------------------------------------------------------------------ parsing */

struct in { const char *p, *start, *end; char *why; size_t n; };

/* Fail with the message what (its %s: the field's name), the byte offset where it went
   wrong added; -1. */
static int bad(struct in *c, const char *what, const char *name)
{
    char msg[256];
    snprintf(msg, sizeof msg, what, name);
    snprintf(c->why, c->n, "%s at byte %zu", msg, (size_t)(c->p - c->start));
    return -1;
}

/* The literal s next, or -1 ("truncated" when the entry ends inside it). */
static int lit(struct in *c, const char *s, const char *name)
{
    size_t n = strlen(s), left = (size_t)(c->end - c->p);
    if (memcmp(c->p, s, n < left ? n : left))
        return bad(c, "malformed: expected %s", name);
    if (left < n)
        return bad(c, "truncated: the entry ends inside %s", name);
    c->p += n;
    return 0;
}

/* A canonical decimal count up to max, then '\n'. */
static int count(struct in *c, const char *name, size_t max, size_t *v)
{
    const char *s = c->p;
    size_t x = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        x = x * 10 + (size_t)(*c->p++ - '0');
        if (x > max)
            return bad(c, "malformed: too large a count for %s", name);
    }
    if (c->p == s || (*s == '0' && c->p - s > 1))
        return bad(c, c->p == c->end ? "truncated: no count for %s" : "malformed: no count for %s",
                   name);
    *v = x;
    return lit(c, "\n", name);
}

/* "name N\n" (N at most max), N bytes (*s), "\n"; text: no NUL among them. */
static int field(struct in *c, const char *name, size_t max, int text, const char **s,
                 size_t *n)
{
    char head[32];
    snprintf(head, sizeof head, "%s ", name);
    if (lit(c, head, name) || count(c, name, max, n))
        return -1;
    if ((size_t)(c->end - c->p) < *n)
        return bad(c, "truncated: the entry ends inside %s", name);
    if (text && memchr(c->p, 0, *n))
        return bad(c, "malformed: a NUL byte in %s", name);
    *s = c->p;
    c->p += *n;
    return lit(c, "\n", name);
}

/* 32 lower-case hex digits and '\n' into hex. */
static int hex_line(struct in *c, const char *name, char hex[CACHE_KEY_LEN])
{
    if ((size_t)(c->end - c->p) < 33)
        return bad(c, "truncated: the entry ends inside %s", name);
    for (unsigned i = 0; i < 32; i++)
        if (!c->p[i] || !strchr("0123456789abcdef", c->p[i]))
            return bad(c, "malformed: %s is not 32 hex digits", name);
    memcpy(hex, c->p, 32);
    hex[32] = 0;
    c->p += 32;
    return lit(c, "\n", name);
}

/* The result word's line: its rc, or -1. */
static int word_line(struct in *c)
{
    static const char *const words[] = {"ok\n", "WRONG\n", "n/a\n"};
    static const int rcs[] = {0, 1, MECH_NA};
    const char *nl;
    size_t left;
    if (lit(c, "result ", "result"))
        return -1;
    left = (size_t)(c->end - c->p);
    for (unsigned i = 0; i < 3; i++) {
        size_t w = strlen(words[i]);
        if (left >= w && !memcmp(c->p, words[i], w)) {
            c->p += w;
            return rcs[i];
        }
    }
    if (!(nl = memchr(c->p, '\n', left)))
        return bad(c, "truncated: the entry ends inside %s", "result");
    left = (size_t)(nl - c->p);
    snprintf(c->why, c->n, "an invalid result word '%.*s' (ok, WRONG or n/a) at byte %zu",
             (int)(left < 20 ? left : 20), c->p, (size_t)(c->p - c->start));
    return -1;
}

/* An entry's fields as found: s/n are msg, regs, config, lat, app and stats. */
struct fields {
    char sum[CACHE_KEY_LEN], key[CACHE_KEY_LEN];
    const char *keytext;
    size_t keylen;
    int rc;
    const char *s[6];
    size_t n[6];
};

static int structure(struct in *c, struct fields *f, size_t stats)
{
    static const char *const names[6] = {"msg", "regs", "config", "lat", "app", "stats"};
    const size_t max[6] = {CACHE_MSG_MAX, sizeof ((struct result *)0)->regs - 1,
                           sizeof ((struct result *)0)->cfg_name - 1,
                           sizeof ((struct result *)0)->lat - 1,
                           sizeof ((struct result *)0)->app - 1, stats};
    if (lit(c, CACHE_MAGIC, "the format line 'gpusim-result-cache 3'") ||
        lit(c, "sum ", "sum") || hex_line(c, "sum", f->sum) || lit(c, "key ", "key") ||
        hex_line(c, "key", f->key) ||
        field(c, "keytext", CACHE_KEY_MAX, 1, &f->keytext, &f->keylen) ||
        (f->rc = word_line(c)) < 0)
        return -1;
    for (unsigned i = 0; i < 6; i++)
        if (field(c, names[i], max[i], i < 5, &f->s[i], &f->n[i]))
            return -1;
    if (f->n[5] != stats)
        return bad(c, "malformed: %s of another size", "stats");
    if (lit(c, "end\n", "end"))
        return -1;
    return c->p == c->end ? 0 : bad(c, "malformed: bytes after the %s", "end");
}

/* A text field into a fixed-size array, NUL-terminated (its size was checked). */
static void take(char *dst, const char *s, size_t n)
{
    memcpy(dst, s, n);
    dst[n] = 0;
}

/* why = the message; -1. */
static int refuse(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

int cache_entry_parse(const char *buf, size_t len, const struct cache_key *k, struct result *r,
                      char *why, size_t n)
{
    struct in c = {buf, buf, buf + len, why, n};
    struct fields f;
    char sum[CACHE_KEY_LEN];
    char *msg;
    if (structure(&c, &f, sizeof r->st))
        return -1;
    cache_hash(buf + CACHE_BODY_AT, len - CACHE_BODY_AT, sum);
    if (strcmp(sum, f.sum))
        return refuse(why, n, "checksum mismatch: its content was changed");
    if (strcmp(f.key, k->hex))
        return refuse(why, n, "made for another key (%s): an entry copied from another key's "
                      "file?", f.key);
    if (f.keylen != k->len || memcmp(f.keytext, k->text, k->len))
        return refuse(why, n, "made for another key (the same digest, another key text)");
    if ((f.rc == 0) != (f.n[0] == strlen(CORRECT) && !memcmp(f.s[0], CORRECT, f.n[0])))
        return refuse(why, n, "the result word '%s' does not match its message", word_of(f.rc));
    if (!(msg = malloc(f.n[0] + 1)))
        return refuse(why, n, "out of memory");
    memset(r, 0, sizeof *r);
    take(msg, f.s[0], f.n[0]);
    r->msg = msg;
    r->rc = f.rc;
    take(r->regs, f.s[1], f.n[1]);
    take(r->cfg_name, f.s[2], f.n[2]);
    take(r->lat, f.s[3], f.n[3]);
    take(r->app, f.s[4], f.n[4]);
    memcpy(&r->st, f.s[5], sizeof r->st);
    return 0;
}
