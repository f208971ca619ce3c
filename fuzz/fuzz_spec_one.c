/*
 * fuzz_spec_one.c -- one fuzz input as a sweep SPEC (docs/sweeps.md "The SPEC"), through the
 * parser of cli/sweep_spec.c on the buffer (sw_spec_parse: nothing is read or run):
 *   1. it is accepted, or refused with a message naming the SPEC ("gpusim sweep: fuzz.spec");
 *   2. an accepted SPEC holds no NUL byte and no control character but tab, CR and LF; its
 *      copy (s.raw, what DIR/sweep.spec gets) is the input; no axis names a value twice; the
 *      number of points is the product of the axes and at most SW_MAX_POINTS;
 *   3. points at both ends of the index range and between (FZ_SAMPLE of each): sw_point's
 *      values are the axes' own and give its index back (the numbering is one-to-one), and
 *      sw_point_opts cuts the alternatives into as many --set options as they hold K=V pairs;
 *   4. a sweep of at most FZ_CHECK_MAX configurations is checked (sw_spec_check: every
 *      configuration file the SPEC names read, every combination loaded as gs_init would),
 *      which must pass or refuse with a message.
 * Bounds: the parser is O(n log n) in its input; the sample and the check are bounded above.
 * docs/verification.md "Fuzzing".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_one.h"
#include "../cli/sweep.h"

#define FZ_SAMPLE 64          /* points checked at each end of the range, and spread between */
#define FZ_CHECK_MAX 16       /* configurations sw_spec_check loads at most */
#define FZ_PAIRWISE 512       /* axes longer than this are not compared value by value */
#define FZ_NAME "fuzz.spec"

static int __attribute__((format(printf, 1, 2))) broken(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fuzz_spec: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* msg[from..) is one or more messages naming the SPEC. */
static int named(const char *msg, size_t len, size_t from, const char *stage)
{
    static const char want[] = "gpusim sweep: " FZ_NAME;
    if (len > from && !strncmp(msg + from, want, sizeof want - 1))
        return 0;
    return broken("%s refused without a message naming the SPEC: \"%.*s\"", stage,
                  (int)(len - from), msg + from);
}

/* Position of pointer x in v[0..n), or n. */
static unsigned pos(const void *const *v, unsigned n, const void *x)
{
    unsigned i = 0;
    while (i < n && v[i] != x)
        i++;
    return i;
}

/* No string of v[0..n) twice (compared only for short axes: the parser's own check is
   O(n log n), this one quadratic). */
static int distinct(const char *const *v, unsigned n, const char *axis)
{
    for (unsigned i = 0; n <= FZ_PAIRWISE && i < n; i++)
        for (unsigned j = i + 1; j < n; j++)
            if (!strcmp(v[i], v[j]))
                return broken("%s: '%s' accepted twice", axis, v[i]);
    return 0;
}

/* Stage 2: what an accepted SPEC must be. */
static int accepted(const struct sw_spec *s, const uint8_t *data, size_t size)
{
    double n = (double)s->configs.n * s->nkernels * s->nmechs * s->nsizes;
    int bad = 0;
    for (size_t i = 0; i < size; i++)
        if ((data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r') ||
            data[i] == 0x7f)
            return broken("accepted a SPEC with the byte 0x%02x at offset %zu", data[i], i);
    if (!s->raw || strlen(s->raw) != size || memcmp(s->raw, data, size))
        bad += broken("the SPEC's copy is not the input");
    for (unsigned a = 0; a < s->nsetax; a++)
        n *= s->sets[a].n;
    if (n != (double)s->npoints || !s->npoints || s->npoints > SW_MAX_POINTS)
        bad += broken("%lu points, the axes make %.0f (at most %lu)", s->npoints, n,
                      SW_MAX_POINTS);
    for (unsigned i = 0; i < s->nkernels; i++)
        if (pos((const void *const *)s->kernels, i, s->kernels[i]) < i)
            bad += broken("kernels: '%s' accepted twice", s->kernels[i]->name);
    for (unsigned i = 0; i < s->nmechs; i++)
        if (pos((const void *const *)s->mechs, i, s->mechs[i]) < i)
            bad += broken("mechanisms: '%s' accepted twice", s->mechs[i]->name);
    if (s->nsizes == 2 && s->sizes[0] == s->sizes[1])
        bad += broken("size: accepted twice");
    bad += distinct(s->configs.v, s->configs.n, "configs");
    for (unsigned a = 0; a < s->nsetax; a++)
        bad += distinct(s->sets[a].v, s->sets[a].n, "set");
    return bad;
}

/* The index point p's values give back, as sw_point numbers them. */
static unsigned long index_of(const struct sw_spec *s, const struct sw_point *p)
{
    unsigned long i = pos((const void *const *)s->configs.v, s->configs.n, p->config);
    for (unsigned a = 0; a < s->nsetax; a++)
        i = i * s->sets[a].n + pos((const void *const *)s->sets[a].v, s->sets[a].n, p->set[a]);
    i = i * s->nsizes + (s->nsizes == 2 && s->sizes[1] == p->size);
    i = i * s->nkernels + pos((const void *const *)s->kernels, s->nkernels, p->kernel);
    return i * s->nmechs + pos((const void *const *)s->mechs, s->nmechs, p->mech);
}

/* Stage 3 for point i. */
static int one_point(const struct sw_spec *s, unsigned long i)
{
    static char buf[4096], sets[8192];
    struct sw_point p;
    struct opts o;
    int want = 0, rc;
    sw_point(s, i, &p);
    if (index_of(s, &p) != i)
        return broken("point %lu has the values of point %lu", i, index_of(s, &p));
    sw_point_sets(s, &p, sets, sizeof sets);
    for (unsigned a = 0; a < s->nsetax; a++)
        if (strcmp(p.set[a], "-"))
            for (const char *k = p.set[a]; k; k = strchr(k + 1, ','))
                want++;                    /* a pair, and one more after each comma */
    memset(&o, 0, sizeof o);
    rc = sw_point_opts(s, &p, &o, buf, sizeof buf);
    if (rc != 0 && rc != -1)
        return broken("point %lu: sw_point_opts returned %d", i, rc);
    if (!rc && o.nsets != want)
        return broken("point %lu: %d --set options from alternatives of %d pairs", i, o.nsets,
                      want);
    for (int k = 0; !rc && k < o.nsets; k++)
        if (!strchr(o.sets[k], '=') || o.sets[k][0] == '=')
            return broken("point %lu: --set '%s' is not K=V", i, o.sets[k]);
    return 0;
}

static int points(const struct sw_spec *s)
{
    unsigned long n = s->npoints, step = n / FZ_SAMPLE + 1;
    int bad = 0;
    for (unsigned long i = 0; i < n && i < FZ_SAMPLE; i++)
        bad += one_point(s, i);
    for (unsigned long i = n > FZ_SAMPLE ? n - FZ_SAMPLE : 0; i < n; i++)
        bad += one_point(s, i);
    for (unsigned long i = 0; i < n; i += step)
        bad += one_point(s, i);
    return bad;
}

int fuzz_spec_one(const uint8_t *data, size_t size)
{
    struct sw_spec s;
    char *msg = NULL;
    size_t len = 0, before;
    FILE *f = open_memstream(&msg, &len);
    int rc, bad = 0;
    if (!f)
        return broken("open_memstream failed");
    rc = sw_spec_parse(&s, FZ_NAME, (const char *)data, size, f);
    fflush(f);
    if (rc == 2)
        bad += named(msg, len, 0, "sw_spec_parse");
    else if (rc != 0)
        bad += broken("sw_spec_parse returned %d", rc);
    else {
        bad += accepted(&s, data, size) + points(&s);
        before = len;
        if (sw_spec_nconfigs(&s) <= FZ_CHECK_MAX && (rc = sw_spec_check(&s)) != 0) {
            fflush(f);
            bad += rc == 2 ? named(msg, len, before, "sw_spec_check") :
                   broken("sw_spec_check returned %d", rc);
        }
    }
    sw_spec_free(&s);
    fclose(f);
    free(msg);
    return bad;
}
