/*
 * devprintf.c -- device-side printf: the host-side formatter and the per-launch buffer
 * (devprintf.h).
 *
 * Not a hardware block.  The formatter walks the format string itself; each conversion is
 * checked (flags, width and precision up to PF_MAX_WIDTH, a length modifier, a conversion of
 * the CUDA printf) and then written by snprintf with a conversion specification rebuilt from
 * the checked parts and one argument of the matching C type, so no device bytes ever reach
 * the host's printf as a format.  Supported: %d %i %u %o %x %X %c %s %p %f %F %e %E %g %G %a
 * %A and %%, flags "-+ #0", width, precision, the lengths hh h l ll z j t.  Refused: %n, '*'
 * width or precision, L (long double), anything else.
 */
#include "devprintf.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int perr(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int grow(struct pf_text *t, size_t more)
{
    char *s;
    size_t cap = t->cap ? t->cap : 256;
    if (t->n + more + 1 <= t->cap)
        return 0;
    while (cap < t->n + more + 1)
        cap *= 2;
    if (!(s = realloc(t->s, cap)))
        return -1;
    t->s = s;
    t->cap = cap;
    return 0;
}

static int put(struct pf_text *t, const char *s, size_t n)
{
    if (grow(t, n))
        return -1;
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = 0;
    return 0;
}

/* Append snprintf(spec, ...)'s output. */
__attribute__((format(printf, 2, 3)))
static int putf(struct pf_text *t, const char *spec, ...)
{
    va_list ap;
    int n;
    va_start(ap, spec);
    n = vsnprintf(NULL, 0, spec, ap);
    va_end(ap);
    if (n < 0 || grow(t, (size_t)n))
        return -1;
    va_start(ap, spec);
    vsnprintf(t->s + t->n, (size_t)n + 1, spec, ap);
    va_end(ap);
    t->n += (size_t)n;
    return 0;
}

/* One parsed conversion. */
struct conv {
    char flags[8];
    int width, prec;                  /* -1: not given */
    char len[3];                      /* "", "hh", "h", "l", "ll", "z", "j", "t" */
    char c;                           /* the conversion character */
};

static int take_num(const char *f, size_t len, size_t *i, int *v, const char *what, char *err,
                    size_t errlen)
{
    long n = 0;
    while (*i < len && f[*i] >= '0' && f[*i] <= '9') {
        n = n * 10 + (f[*i] - '0');
        if (n > (long)PF_MAX_WIDTH)
            return perr(err, errlen, "%s above %u at offset %zu of the format", what,
                        PF_MAX_WIDTH, *i);
        ++*i;
    }
    *v = (int)n;
    return 0;
}

/* Parse the conversion after the '%' at f[*i - 1]; *i ends past it. */
static int parse_conv(const char *f, size_t len, size_t *i, struct conv *c, char *err,
                      size_t errlen)
{
    size_t at = *i - 1, nf = 0;
    memset(c, 0, sizeof *c);
    c->width = c->prec = -1;
    while (*i < len && strchr("-+ #0", f[*i]) && f[*i]) {
        if (nf + 1 < sizeof c->flags && !strchr(c->flags, f[*i]))
            c->flags[nf++] = f[*i];
        ++*i;
    }
    if (*i < len && f[*i] == '*')
        return perr(err, errlen, "'*' width at offset %zu of the format is not supported", at);
    if (take_num(f, len, i, &c->width, "width", err, errlen))
        return -1;
    if (*i < len && f[*i] == '.') {
        ++*i;
        if (*i < len && f[*i] == '*')
            return perr(err, errlen, "'*' precision at offset %zu of the format is not "
                        "supported", at);
        if (take_num(f, len, i, &c->prec, "precision", err, errlen))
            return -1;
    }
    for (int k = 0; k < 2 && *i < len && strchr("hlzjtL", f[*i]) && f[*i]; k++) {
        if (f[*i] == 'L')
            return perr(err, errlen, "long double (L) at offset %zu of the format is not "
                        "supported", at);
        if (k == 1 && (f[*i] != c->len[0] || (f[*i] != 'h' && f[*i] != 'l')))
            break;
        c->len[k] = f[(*i)++];
    }
    if (*i >= len)
        return perr(err, errlen, "the format ends inside the conversion at offset %zu", at);
    c->c = f[(*i)++];
    if (c->c == 'n')
        return perr(err, errlen, "%%n at offset %zu of the format is not supported", at);
    if (!strchr("diouxXcspfFeEgGaA", c->c) || !c->c)
        return perr(err, errlen, "unknown conversion '%%%s%c' (byte 0x%02x) at offset %zu of "
                    "the format", c->len, c->c >= 0x20 && c->c < 0x7f ? c->c : '?',
                    (unsigned char)c->c, at);
    if (c->len[0] && strchr("cspfFeEgGaA", c->c))
        return perr(err, errlen, "length '%s' with %%%c at offset %zu of the format is not "
                    "supported", c->len, c->c, at);
    return 0;
}

/* The C specification for c, with the length modifier `lenmod` instead of c's. */
static void spec_of(const struct conv *c, const char *lenmod, char *spec, size_t n)
{
    char w[16] = "", p[16] = "";
    if (c->width >= 0)
        snprintf(w, sizeof w, "%d", c->width);
    if (c->prec >= 0)
        snprintf(p, sizeof p, ".%d", c->prec);
    snprintf(spec, n, "%%%s%s%s%s%c", c->flags, w, p, lenmod, c->c);
}

/* An integer conversion: the argument's size by the length, narrowed as C would. */
static int put_int(struct pf_text *t, const struct conv *c, uint64_t v)
{
    char spec[64];
    int sgn = c->c == 'd' || c->c == 'i';
    if (!strcmp(c->len, "hh"))
        v = sgn ? (uint64_t)(int64_t)(signed char)v : (uint8_t)v;
    else if (!strcmp(c->len, "h"))
        v = sgn ? (uint64_t)(int64_t)(short)v : (uint16_t)v;
    else if (!c->len[0])
        v = sgn ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
    spec_of(c, "ll", spec, sizeof spec);
    return sgn ? putf(t, spec, (long long)v) : putf(t, spec, (unsigned long long)v);
}

/* %s: the device string at addr (NULL prints "(null)"), at most prec bytes of it. */
static int put_str(struct pf_text *t, const struct conv *c, uint64_t addr,
                   const struct pf_src *src, char *err, size_t errlen)
{
    struct pf_text s = {0};
    char spec[64];
    size_t max = c->prec >= 0 ? (size_t)c->prec : PF_MAX_STRING;
    uint8_t b;
    int rc = 0;
    if (!addr)
        return put(t, "(null)", 6);
    for (size_t k = 0; k < max && !rc; k++) {
        if (src->byte(src->ctx, addr + k, &b, err, errlen))
            return free(s.s), -1;
        if (!b)
            break;
        if (k + 1 == PF_MAX_STRING && c->prec < 0)
            rc = perr(err, errlen, "%%s argument at 0x%llx longer than %u bytes",
                      (unsigned long long)addr, PF_MAX_STRING);
        else
            rc = put(&s, (const char *)&b, 1);
    }
    if (!rc && put(&s, "", 0))
        rc = -1;
    spec_of(c, "", spec, sizeof spec);
    if (!rc)
        rc = putf(t, spec, s.s);
    free(s.s);
    return rc;
}

/* The next argument of n bytes, at the offset aligned to n. */
static int next_arg(const struct pf_src *src, uint64_t *off, unsigned n, int *nargs,
                    uint64_t *v, char *err, size_t errlen)
{
    if (*nargs >= PF_MAX_ARGS)
        return perr(err, errlen, "more than %d arguments", PF_MAX_ARGS);
    *off = (*off + n - 1) / n * n;
    if (src->arg(src->ctx, *off, n, v, err, errlen))
        return -1;
    *off += n;
    ++*nargs;
    return 0;
}

static int one_conv(const struct conv *c, const struct pf_src *src, uint64_t *off, int *nargs,
                    struct pf_text *out, char *err, size_t errlen)
{
    char spec[64];
    uint64_t v;
    int wide = c->len[0] == 'l' || c->len[0] == 'z' || c->len[0] == 'j' || c->len[0] == 't';
    unsigned n = strchr("sp", c->c) || strchr("fFeEgGaA", c->c) || wide ? 8 : 4;
    if (next_arg(src, off, n, nargs, &v, err, errlen))
        return -1;
    if (c->c == 's')
        return put_str(out, c, v, src, err, errlen);
    spec_of(c, "", spec, sizeof spec);
    if (c->c == 'c')
        return putf(out, spec, (int)(unsigned char)v);
    if (c->c == 'p')
        return putf(out, spec, (void *)(uintptr_t)v);
    if (strchr("fFeEgGaA", c->c)) {
        double d;
        memcpy(&d, &v, 8);
        return putf(out, spec, d);
    }
    return put_int(out, c, v);
}

int pf_format(const char *fmt, size_t len, const struct pf_src *src, struct pf_text *out,
              char *err, size_t errlen)
{
    uint64_t off = 0;
    int nargs = 0;
    struct conv c;
    size_t i = 0, lit;
    while (i < len) {
        for (lit = i; i < len && fmt[i] != '%'; i++)
            ;
        if (i > lit && put(out, fmt + lit, i - lit))
            return perr(err, errlen, "out of host memory");
        if (i >= len)
            break;
        if (++i < len && fmt[i] == '%') {
            i++;
            if (put(out, "%", 1))
                return perr(err, errlen, "out of host memory");
            continue;
        }
        if (parse_conv(fmt, len, &i, &c, err, errlen))
            return -1;
        err[0] = 0;
        if (one_conv(&c, src, &off, &nargs, out, err, errlen))
            return err[0] ? -1 : perr(err, errlen, "out of host memory");
    }
    return nargs;
}

/* ------------------------------------------------------------------ the launch's output */

void pf_add(struct ex_printf *b, uint64_t cta, uint32_t tid, const char *s, size_t len)
{
    struct pf_rec *r;
    if (!len)                          /* nothing to print */
        return;
    if (b->text.n + len + (b->nrec + 1) * sizeof *r > PF_MAX_LAUNCH || put(&b->text, s, len)) {
        b->dropped++;
        return;
    }
    if (b->nrec == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        if (!(r = realloc(b->rec, cap * sizeof *r))) {
            b->text.n -= len;
            b->dropped++;
            return;
        }
        b->rec = r;
        b->cap = cap;
    }
    r = &b->rec[b->nrec];
    r->cta = cta;
    r->tid = tid;
    r->idx = b->nrec++;
    r->seq = 0;
    r->off = b->text.n - len;
    r->len = len;
}

#define CMP(a, b) if ((a) != (b)) return (a) < (b) ? -1 : 1

/* A thread's calls together, in the order they ran. */
static int by_thread(const void *pa, const void *pb)
{
    const struct pf_rec *a = pa, *b = pb;
    CMP(a->cta, b->cta);
    CMP(a->tid, b->tid);
    CMP(a->idx, b->idx);
    return 0;
}

/* The output order (devprintf.h). */
static int by_output(const void *pa, const void *pb)
{
    const struct pf_rec *a = pa, *b = pb;
    CMP(a->cta, b->cta);
    CMP(a->tid / 32, b->tid / 32);
    CMP(a->seq, b->seq);
    CMP(a->tid, b->tid);
    return 0;
}

void pf_flush(struct ex_printf *b)
{
    if (b->nrec) {                    /* (rec is NULL until the first call) */
        qsort(b->rec, b->nrec, sizeof *b->rec, by_thread);
        for (size_t i = 0; i < b->nrec; i++)
            b->rec[i].seq = i && b->rec[i - 1].cta == b->rec[i].cta &&
                            b->rec[i - 1].tid == b->rec[i].tid ? b->rec[i - 1].seq + 1 : 0;
        qsort(b->rec, b->nrec, sizeof *b->rec, by_output);
    }
    for (size_t i = 0; b->out && i < b->nrec; i++)
        fwrite(b->text.s + b->rec[i].off, 1, b->rec[i].len, b->out);
    if (b->out && b->dropped)
        fprintf(b->out, "gpusim: printf: the output of %llu calls was dropped (one launch "
                "keeps at most %u MB)\n", (unsigned long long)b->dropped, PF_MAX_LAUNCH >> 20);
    if (b->out && (b->nrec || b->dropped))
        fflush(b->out);
    b->nrec = 0;
    b->text.n = 0;
    b->dropped = 0;
}

void pf_free(struct ex_printf *b)
{
    free(b->rec);
    free(b->text.s);
    b->rec = NULL;
    b->text.s = NULL;
    b->nrec = b->cap = b->text.n = b->text.cap = 0;
}
