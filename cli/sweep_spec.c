/*
 * sweep_spec.c -- a sweep's SPEC file (docs/sweeps.md "The SPEC"): one axis a line,
 * `key: values` separated by white space, `#` starts a comment.
 *
 *   configs:    configuration files                     (default configs/gtx480.cfg)
 *   set:        alternatives, each K=V[,K=V...] or -    (repeatable: the lines multiply)
 *   kernels:    bench kernel names, or all              (required)
 *   mechanisms: names from cli/mech.c                   (default base)
 *   size:       test and/or default                     (default test)
 *
 * The points are the cross product, numbered in a fixed order (sw_point); a bad line is an
 * error naming SPEC:LINE, and sw_spec_check loads every configuration with every combination
 * of sets before anything runs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep.h"

#define SW_MAX_POINTS 10000000UL

/* Room for one more element in *arr (n elements of size sz): 0, or -1 out of memory. */
static int grow(void **arr, unsigned n, size_t sz)
{
    void *p;
    if (n & (n - 1))                  /* the capacity is n rounded up to a power of two */
        return 0;
    if (!(p = realloc(*arr, (n ? 2 * n : 1) * sz)))
        return -1;
    *arr = p;
    return 0;
}
#define PUSH(arr, n, val) (grow((void **)&(arr), (n), sizeof *(arr)) ? -1 : ((arr)[(n)++] = (val), 0))

char *sw_read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t len = 0;
    if (!f)
        return NULL;
    if (getdelim(&text, &len, '\0', f) < 0) {
        free(text);                   /* an empty file is "", a directory NULL */
        text = ferror(f) ? NULL : strdup("");
    }
    fclose(f);
    return text;
}

/* "SPEC:LINE", or "SPEC (default)" for an axis the SPEC leaves to its default. */
static const char *where(const struct sw_spec *s, int line)
{
    static char buf[1100];
    if (line)
        snprintf(buf, sizeof buf, "%.1000s:%d", s->path, line);
    else
        snprintf(buf, sizeof buf, "%.1000s (default)", s->path);
    return buf;
}

/* An error at SPEC's line: the message on stderr, 2. */
static int __attribute__((format(printf, 3, 4))) bad(const struct sw_spec *s, int line,
                                                      const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "gpusim sweep: %s: ", where(s, line));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* One set: alternative: "-", or K=V pairs joined by commas, each with a key and an '='. */
static int set_alt_ok(const char *v)
{
    if (!strcmp(v, "-"))
        return 1;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        const char *eq = memchr(p, '=', n);
        if (!eq || eq == p)
            return 0;
        p += n;
        if (*p && !*++p)
            return 0;                 /* a trailing comma */
    }
    return 1;
}

static int add_kernel(struct sw_spec *s, int line, const char *v)
{
    const struct bench *b = bench_find(v);
    if (!strcmp(v, "all")) {
        unsigned n;
        const struct bench *const *all = bench_all(&n);
        for (unsigned i = 0; i < n; i++)
            if (PUSH(s->kernels, s->nkernels, all[i]))
                return bad(s, line, "out of host memory");
        return 0;
    }
    if (!b)
        return bad(s, line, "kernels: no bench kernel named '%s' (gpusim list shows them)", v);
    return PUSH(s->kernels, s->nkernels, b) ? bad(s, line, "out of host memory") : 0;
}

static int add_mech(struct sw_spec *s, int line, const char *v)
{
    const struct mech *m = mech_find(v);
    if (!m)
        return bad(s, line, "mechanisms: unknown mechanism '%s' (the mechanisms: %s)", v,
                   mech_names());
    return PUSH(s->mechs, s->nmechs, m) ? bad(s, line, "out of host memory") : 0;
}

static int add_size(struct sw_spec *s, int line, const char *v)
{
    if (strcmp(v, "test") && strcmp(v, "default"))
        return bad(s, line, "size: must be test or default, not '%s'", v);
    if (s->nsizes == 2)
        return bad(s, line, "size: at most the two sizes");
    s->sizes[s->nsizes++] = strcmp(v, "test") ? BENCH_DEFAULT : BENCH_TEST;
    return 0;
}

static int add_value(struct sw_spec *s, const char *key, int line, const char *v)
{
    if (!strcmp(key, "configs"))
        return PUSH(s->configs.v, s->configs.n, v) ? bad(s, line, "out of host memory") : 0;
    if (!strcmp(key, "set")) {
        struct sw_axis *a = &s->sets[s->nsetax - 1];
        if (!set_alt_ok(v))
            return bad(s, line, "set: an alternative is K=V[,K=V...] or -, not '%s'", v);
        return PUSH(a->v, a->n, v) ? bad(s, line, "out of host memory") : 0;
    }
    if (!strcmp(key, "kernels"))
        return add_kernel(s, line, v);
    if (!strcmp(key, "mechanisms"))
        return add_mech(s, line, v);
    return add_size(s, line, v);
}

/* Where key's line number is kept (set: a new axis); NULL after an error. */
static int *key_line(struct sw_spec *s, const char *key, int line)
{
    if (!strcmp(key, "set")) {
        if (s->nsetax == SW_MAX_SET_AXES)
            return bad(s, line, "more than %d set: lines", SW_MAX_SET_AXES), NULL;
        return &s->sets[s->nsetax++].line;
    }
    if (!strcmp(key, "configs")) return &s->configs.line;
    if (!strcmp(key, "kernels")) return &s->kernels_line;
    if (!strcmp(key, "mechanisms")) return &s->mechs_line;
    if (!strcmp(key, "size")) return &s->sizes_line;
    bad(s, line, "unknown key '%s' (the keys: configs, set, kernels, mechanisms, size)", key);
    return NULL;
}

/* One line, cut in place: 0, or 2 after the error. */
static int parse_line(struct sw_spec *s, char *l, int line)
{
    char *colon, *key, *v, *save;
    int *seen, nvals = 0;
    l[strcspn(l, "#")] = 0;
    key = l + strspn(l, " \t\r");
    if (!*key || !key[strspn(key, " \t\r")])
        return 0;
    if (!(colon = strchr(key, ':')))
        return bad(s, line, "expected 'key: values', not '%s'", key);
    *colon = 0;
    key[strcspn(key, " \t\r")] = 0;
    if (!(seen = key_line(s, key, line)))
        return 2;
    if (*seen)
        return bad(s, line, "'%s:' given again (first on line %d)", key, *seen);
    *seen = line;
    for (v = strtok_r(colon + 1, " \t\r", &save); v; v = strtok_r(NULL, " \t\r", &save), nvals++)
        if (add_value(s, key, line, v))
            return 2;
    return nvals ? 0 : bad(s, line, "'%s:' has no values", key);
}

/* The defaults of the axes a SPEC leaves out, and the number of points. */
static int finish(struct sw_spec *s)
{
    double n;
    if (!s->nkernels)
        return fprintf(stderr, "gpusim sweep: %s: no 'kernels:' line (kernel names, or all)\n",
                       s->path), 2;
    if (!s->configs.n && PUSH(s->configs.v, s->configs.n, "configs/gtx480.cfg"))
        return 2;
    if (!s->nmechs && PUSH(s->mechs, s->nmechs, mech_find("base")))
        return 2;
    if (!s->nsizes)
        s->sizes[s->nsizes++] = BENCH_TEST;
    n = (double)s->configs.n * s->nkernels * s->nmechs * s->nsizes;
    for (unsigned a = 0; a < s->nsetax; a++)
        n *= s->sets[a].n;
    if (n > (double)SW_MAX_POINTS)
        return fprintf(stderr, "gpusim sweep: %s: %.0f points, more than %lu\n", s->path, n,
                       SW_MAX_POINTS), 2;
    s->npoints = (unsigned long)n;
    return 0;
}

int sw_spec_load(const char *path, struct sw_spec *s)
{
    char *l, *next;
    int line = 1;
    memset(s, 0, sizeof *s);
    s->path = path;
    if (!(s->text = sw_read_text(path)))
        return fprintf(stderr, "gpusim sweep: %s: cannot read the SPEC file\n", path), 2;
    for (l = s->text; l; l = next, line++) {
        if ((next = strchr(l, '\n')))
            *next++ = 0;
        if (parse_line(s, l, line))
            return sw_spec_free(s), 2;
    }
    if (finish(s))
        return sw_spec_free(s), 2;
    return 0;
}

void sw_spec_free(struct sw_spec *s)
{
    free(s->text);
    free(s->configs.v);
    for (unsigned a = 0; a < s->nsetax; a++)
        free(s->sets[a].v);
    free(s->kernels);
    free(s->mechs);
    memset(s, 0, sizeof *s);
}

void sw_point(const struct sw_spec *s, unsigned long i, struct sw_point *p)
{
    memset(p, 0, sizeof *p);
    p->index = i;
    p->mech = s->mechs[i % s->nmechs];
    i /= s->nmechs;
    p->kernel = s->kernels[i % s->nkernels];
    i /= s->nkernels;
    p->size = s->sizes[i % s->nsizes];
    i /= s->nsizes;
    for (unsigned a = s->nsetax; a-- > 0; i /= s->sets[a].n)
        p->set[a] = s->sets[a].v[i % s->sets[a].n];
    p->config = s->configs.v[i % s->configs.n];
}

int sw_point_opts(const struct sw_spec *s, const struct sw_point *p, struct opts *o, char *buf,
                  size_t n)
{
    size_t used = 0;
    o->config = p->config;
    o->size = p->size;
    o->bench_dir = "bench";
    for (unsigned a = 0; a < s->nsetax; a++) {
        size_t len = strlen(p->set[a]) + 1;
        if (!strcmp(p->set[a], "-"))
            continue;
        if (used + len > n)
            return -1;
        memcpy(buf + used, p->set[a], len);
        char *save;
        for (char *kv = strtok_r(buf + used, ",", &save); kv; kv = strtok_r(NULL, ",", &save))
            if (o->nsets == MAX_SETS - MECH_MAX_SETS)
                return -1;
            else
                o->sets[o->nsets++] = kv;
        used += len;
    }
    return 0;
}

void sw_point_sets(const struct sw_spec *s, const struct sw_point *p, char *buf, size_t n)
{
    buf[0] = 0;
    for (unsigned a = 0; a < s->nsetax; a++)
        if (strcmp(p->set[a], "-"))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? "," : "", p->set[a]);
    if (!buf[0])
        snprintf(buf, n, "-");
}

/* The SPEC line an error of point p's configuration is charged to: the last set: line with
   an alternative in use, else the mechanisms line when the mechanism adds sets, else configs. */
static int blame_line(const struct sw_spec *s, const struct sw_point *p)
{
    for (unsigned a = s->nsetax; a-- > 0;)
        if (strcmp(p->set[a], "-"))
            return s->sets[a].line;
    return p->mech->set[0] && s->mechs_line ? s->mechs_line : s->configs.line;
}

/* Point p's configuration loads: 0, or 2 after the error. */
static int check_point(const struct sw_spec *s, const struct sw_point *p)
{
    struct opts o, mo;
    struct gs_gpu *g;
    char buf[4096], err[1024], sets[4096];
    memset(&o, 0, sizeof o);
    sw_point_sets(s, p, sets, sizeof sets);
    if (sw_point_opts(s, p, &o, buf, sizeof buf) || mech_opts(p->mech, &o, &mo))
        return bad(s, blame_line(s, p), "too many sets (%s)", sets);
    if (gs_init(&g, mo.config, mo.sets, mo.nsets, err, sizeof err))
        return bad(s, blame_line(s, p), "configuration %s, sets %s, mechanism %s: %s", p->config,
                   sets, p->mech->name, err);
    gs_destroy(g);
    return 0;
}

int sw_spec_check(const struct sw_spec *s)
{
    unsigned long combos = s->configs.n;
    for (unsigned a = 0; a < s->nsetax; a++)
        combos *= s->sets[a].n;
    /* the points with the first kernel and size hold every configuration, set and mechanism */
    for (unsigned long c = 0; c < combos; c++)
        for (unsigned m = 0; m < s->nmechs; m++) {
            struct sw_point p;
            sw_point(s, c * s->nsizes * s->nkernels * s->nmechs + m, &p);
            if (check_point(s, &p))
                return 2;
        }
    return 0;
}
