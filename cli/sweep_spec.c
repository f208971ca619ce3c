/*
 * sweep_spec.c -- a sweep's SPEC file (docs/sweeps.md "The SPEC"): one axis a line,
 * `key: values` separated by white space, `#` starts a comment.
 *
 *   configs:    configuration files                     (default configs/gtx480.cfg)
 *   set:        alternatives, each K=V[,K=V...] or -    (repeatable: the lines multiply)
 *   kernels:    bench kernel names, or all              (this or apps: required)
 *   apps:       an applications file, then names in it  (docs/apps.md; no names: all)
 *   mechanisms: names from cli/mech.c                   (default base)
 *   size:       test and/or default                     (default test)
 *
 * The points are the cross product, numbered in a fixed order (sw_point). A bad line is an
 * error naming SPEC:LINE: an unknown key or value, a malformed alternative, a NUL byte or
 * another control character, a value given twice on one line (which would make the same
 * points twice; set alternatives compare as sets of K=V pairs). More than SW_MAX_POINTS points
 * is refused at once. sw_spec_parse works on a buffer and runs nothing (fuzz/fuzz_spec_one.c
 * calls it); sw_spec_load reads the file through model/base/infile.h. sw_spec_check then
 * loads every configuration with every combination of sets and every mechanism's sets before
 * anything runs -- each configuration file read once, a combination taking microseconds.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep.h"
#include "base/infile.h"
#include "gpu/blocks.h"

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

/* "SPEC:LINE", or "SPEC (default)" for an axis the SPEC leaves to its default, or "SPEC" for
   the whole file (line -1). */
static const char *where(const struct sw_spec *s, int line)
{
    static char buf[1100];
    if (line > 0)
        snprintf(buf, sizeof buf, "%.1000s:%d", s->path, line);
    else
        snprintf(buf, sizeof buf, line ? "%.1000s" : "%.1000s (default)", s->path);
    return buf;
}

/* An error at SPEC's line: the message on s->msg (stderr for sw_spec_check), 2. */
static int __attribute__((format(printf, 3, 4))) bad(const struct sw_spec *s, int line,
                                                      const char *fmt, ...)
{
    FILE *f = s->msg ? s->msg : stderr;
    va_list ap;
    fprintf(f, "gpusim sweep: %s: ", where(s, line));
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
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

/* ------------------------------------------------------------------ values given twice */

/* A value of one line with the text that decides whether two values are the same. */
struct sw_same {
    const char *key;
    unsigned i;
};

static int by_key(const void *a, const void *b)
{
    const struct sw_same *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* Two of the n keys the same: -1 with *i < *j the first such pair in key order; else 0
   (-2 out of memory). O(n log n), for lines of any length. */
static int find_same(const char *const *keys, unsigned n, unsigned *i, unsigned *j)
{
    struct sw_same *v = malloc((n ? n : 1) * sizeof *v);
    int rc = 0;
    if (!v)
        return -2;
    for (unsigned k = 0; k < n; k++)
        v[k] = (struct sw_same){keys[k], k};
    qsort(v, n, sizeof *v, by_key);
    for (unsigned k = 1; k < n && !rc; k++)
        if (!strcmp(v[k - 1].key, v[k].key))
            *i = v[k - 1].i, *j = v[k].i, rc = -1;
    free(v);
    return rc;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Set alternative v as a point sees it: its K=V pairs sorted ("" for "-"), malloc'd; NULL
   when it gives a key twice (that key into twice, tn bytes) or out of memory (twice ""). */
static char *set_canon(const char *v, char *twice, size_t tn)
{
    size_t np = 1, at = 0;
    char *copy, *out, **pairs, *save;
    twice[0] = 0;
    if (!strcmp(v, "-"))
        return strdup("");
    for (const char *c = v; *c; c++)
        np += *c == ',';
    copy = strdup(v);
    out = malloc(strlen(v) + 1);
    pairs = malloc(np * sizeof *pairs);
    if (!copy || !out || !pairs) {
        free(copy), free(out), free(pairs);
        return NULL;
    }
    np = 0;
    for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save))
        pairs[np++] = kv;
    qsort(pairs, np, sizeof *pairs, by_str);   /* pairs of one key sort next to each other */
    for (size_t k = 0; k < np; k++) {
        size_t kl = strcspn(pairs[k], "="), n = strlen(pairs[k]);
        if (k && !twice[0] && !strncmp(pairs[k - 1], pairs[k], kl + 1))
            snprintf(twice, tn, "%.*s", (int)kl, pairs[k]);
        if (k)
            out[at++] = ',';
        memcpy(out + at, pairs[k], n);
        at += n;
    }
    out[at] = 0;
    free(copy), free(pairs);
    if (twice[0])
        free(out), out = NULL;
    return out;
}

/* A set: line's alternatives (or a configs: line's files) with two the same: 2 after naming
   them; 0 when all differ. */
static int axis_twice(struct sw_spec *s, const char *key, const struct sw_axis *a, int line)
{
    char **canon = calloc(a->n ? a->n : 1, sizeof *canon);
    unsigned i = 0, j = 0, k;
    int rc = 0, same;
    for (k = 0; canon && k < a->n && !rc; k++) {
        char twice[256];
        if (strcmp(key, "set"))
            canon[k] = strdup(a->v[k]), twice[0] = 0;
        else if (!(canon[k] = set_canon(a->v[k], twice, sizeof twice)) && twice[0])
            rc = bad(s, line, "set: key '%s' twice in the alternative '%s'", twice, a->v[k]);
        if (!canon[k] && !rc)
            rc = bad(s, line, "out of host memory");
    }
    if (!canon)
        rc = bad(s, line, "out of host memory");
    else if (!rc && (same = find_same((const char *const *)canon, a->n, &i, &j)) == -2)
        rc = bad(s, line, "out of host memory");
    else if (!rc && same && !strcmp(a->v[i], a->v[j]))
        rc = bad(s, line, "%s: '%s' twice", key, a->v[i]);
    else if (!rc && same)
        rc = bad(s, line, "set: '%s' and '%s' are the same alternative (the same keys and "
                 "values): give it once", a->v[i], a->v[j]);
    for (k = 0; canon && k < a->n; k++)
        free(canon[k]);
    free(canon);
    return rc;
}

/* ------------------------------------------------------------------ the lines */

static int add_kernel(struct sw_spec *s, int line, const char *v)
{
    const struct bench *b = bench_find(v);
    if (!strcmp(v, "all")) {
        unsigned n;
        const struct bench *const *all = bench_all(&n);
        if (s->all_kernels)
            return bad(s, line, "kernels: 'all' twice");
        for (unsigned i = 0; i < n; i++)          /* a kernel named before: named again */
            for (unsigned k = 0; k < s->nkernels; k++)
                if (s->kernels[k] == all[i])
                    return bad(s, line, "kernels: 'all' names '%s' again (give all, or names; "
                               "a kernel outside the suite may go beside all)", all[i]->name);
        s->all_kernels = 1;
        for (unsigned i = 0; i < n; i++)
            if (PUSH(s->kernels, s->nkernels, all[i]))
                return bad(s, line, "out of host memory");
        return 0;
    }
    if (!b)
        return bad(s, line, "kernels: no bench kernel named '%s' (gpusim list shows them)", v);
    for (unsigned i = 0; i < s->nkernels; i++)      /* at most every kernel: a short list */
        if (s->kernels[i] == b)
            return bad(s, line, "kernels: '%s' twice%s", v,
                       s->all_kernels ? " ('all' names it already)" : "");
    return PUSH(s->kernels, s->nkernels, b) ? bad(s, line, "out of host memory") : 0;
}

static int add_mech(struct sw_spec *s, int line, const char *v)
{
    const struct mech *m = mech_find(v);
    if (!m)
        return bad(s, line, "mechanisms: unknown mechanism '%s' (the mechanisms: %s)", v,
                   mech_names());
    for (unsigned i = 0; i < s->nmechs; i++)
        if (s->mechs[i] == m)
            return bad(s, line, "mechanisms: '%s' twice", v);
    return PUSH(s->mechs, s->nmechs, m) ? bad(s, line, "out of host memory") : 0;
}

static int add_size(struct sw_spec *s, int line, const char *v)
{
    enum bench_size z = strcmp(v, "test") ? BENCH_DEFAULT : BENCH_TEST;
    if (strcmp(v, "test") && strcmp(v, "default"))
        return bad(s, line, "size: must be test or default, not '%s'", v);
    for (unsigned i = 0; i < s->nsizes; i++)      /* so at most the two */
        if (s->sizes[i] == z)
            return bad(s, line, "size: '%s' twice", v);
    s->sizes[s->nsizes++] = z;
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
    if (!strcmp(key, "apps")) {
        if (!s->apps_file)
            return (s->apps_file = v), 0;
        for (unsigned i = 0; i < s->napp_names; i++)
            if (!strcmp(s->app_names[i], v))
                return bad(s, line, "apps: '%s' twice", v);
        return PUSH(s->app_names, s->napp_names, v) ? bad(s, line, "out of host memory") : 0;
    }
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
    if (!strcmp(key, "apps")) return &s->apps_line;
    if (!strcmp(key, "mechanisms")) return &s->mechs_line;
    if (!strcmp(key, "size")) return &s->sizes_line;
    bad(s, line, "unknown key '%s' (the keys: configs, set, kernels, apps, mechanisms, size)",
        key);
    return NULL;
}

/* The first control character of line l (a tab is white space), or 0. */
static int control_char(const char *l)
{
    for (const unsigned char *c = (const unsigned char *)l; *c; c++)
        if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
            return *c;
    return 0;
}

/* One line, cut in place: 0, or 2 after the error. */
static int parse_line(struct sw_spec *s, char *l, int line)
{
    char *colon, *key, *v, *save;
    int *seen, nvals = 0, c;
    if ((c = control_char(l)))
        return bad(s, line, "a control character (byte 0x%02x): a SPEC is text", c);
    l[strcspn(l, "#")] = 0;
    key = l + strspn(l, " \t");
    if (!*key)
        return 0;
    if (!(colon = strchr(key, ':')))
        return bad(s, line, "expected 'key: values', not '%s'", key);
    *colon = 0;
    key[strcspn(key, " \t")] = 0;
    if (!(seen = key_line(s, key, line)))
        return 2;
    if (*seen)
        return bad(s, line, "'%s:' given again (first on line %d)", key, *seen);
    *seen = line;
    for (v = strtok_r(colon + 1, " \t", &save); v; v = strtok_r(NULL, " \t", &save), nvals++)
        if (add_value(s, key, line, v))
            return 2;
    if (!nvals)
        return bad(s, line, "'%s:' has no values", key);
    if (!strcmp(key, "set"))
        return axis_twice(s, key, &s->sets[s->nsetax - 1], line);
    return strcmp(key, "configs") ? 0 : axis_twice(s, key, &s->configs, line);
}

/* "2 configs x 3 x 2 set alternatives x 1 size x 4 kernels x 2 mechanisms" into buf. */
static void shape(const struct sw_spec *s, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "%u config%s", s->configs.n, s->configs.n == 1 ? "" : "s");
    for (unsigned a = 0; a < s->nsetax && k < n; a++)
        k += (size_t)snprintf(buf + k, n - k, " x %u%s", s->sets[a].n,
                              a + 1 == s->nsetax ? " set alternatives" : "");
    if (k < n)
        snprintf(buf + k, n - k, " x %u size%s x %u kernel%s%s x %u mechanism%s", s->nsizes,
                 s->nsizes == 1 ? "" : "s", sw_workloads(s), s->nkernels == 1 ? "" : "s",
                 s->napps ? " and applications" : "", s->nmechs, s->nmechs == 1 ? "" : "s");
}

unsigned sw_workloads(const struct sw_spec *s)
{
    return s->nkernels + s->napps;
}

const char *sw_point_name(const struct sw_point *p)
{
    return p->kernel ? p->kernel->name : p->app->name;
}

/* Application name of the file, or NULL after the error. */
static const struct app *find_app(struct sw_spec *s, const char *name)
{
    for (unsigned i = 0; i < s->apps->n; i++)
        if (!strcmp(s->apps->a[i].name, name))
            return &s->apps->a[i];
    bad(s, s->apps_line, "apps: no application '%s' in %s", name, s->apps_file);
    return NULL;
}

/* The apps: line's file read and its applications chosen: 0, or 2 after the error. */
static int load_apps(struct sw_spec *s)
{
    char err[1200];
    unsigned n;
    if (!s->apps_file)
        return 0;
    if (!(s->apps = malloc(sizeof *s->apps)))
        return bad(s, s->apps_line, "out of host memory");
    if (apps_load(s->apps_file, s->apps, err, sizeof err)) {
        free(s->apps);
        s->apps = NULL;
        return bad(s, s->apps_line, "apps: %s", err);
    }
    n = s->napp_names ? s->napp_names : s->apps->n;
    if (!(s->app_list = calloc(n, sizeof *s->app_list)))
        return bad(s, s->apps_line, "out of host memory");
    for (unsigned i = 0; i < n; i++) {
        const struct app *a = s->napp_names ? find_app(s, s->app_names[i]) : &s->apps->a[i];
        if (!a)
            return 2;
        for (unsigned k = 0; k < s->nkernels; k++)      /* a row's name is its workload's */
            if (!strcmp(s->kernels[k]->name, a->name))
                return bad(s, s->apps_line, "apps: application '%s' has the name of a kernel "
                           "of the sweep", a->name);
        s->app_list[s->napps++] = a;
    }
    return 0;
}

/* The defaults of the axes a SPEC leaves out, and the number of points. */
static int finish(struct sw_spec *s)
{
    char sh[512];
    double n;
    if (load_apps(s))
        return 2;
    if (!sw_workloads(s))
        return bad(s, -1, "no 'kernels:' line (kernel names, or all) and no 'apps:' line");
    if (!s->configs.n && PUSH(s->configs.v, s->configs.n, "configs/gtx480.cfg"))
        return bad(s, -1, "out of host memory");
    if (!s->nmechs && PUSH(s->mechs, s->nmechs, mech_find("base")))
        return bad(s, -1, "out of host memory");
    if (!s->nsizes)
        s->sizes[s->nsizes++] = BENCH_TEST;
    n = (double)s->configs.n * sw_workloads(s) * s->nmechs * s->nsizes;
    for (unsigned a = 0; a < s->nsetax; a++)
        n *= s->sets[a].n;
    shape(s, sh, sizeof sh);
    if (n > (double)SW_MAX_POINTS)
        return bad(s, -1, "%.0f points (%s), more than the %lu a sweep takes (one process and "
                   "one file a point): split the SPEC", n, sh, SW_MAX_POINTS);
    s->npoints = (unsigned long)n;
    return 0;
}

int sw_spec_parse(struct sw_spec *s, const char *path, const char *text, size_t len, FILE *msg)
{
    char *p, *l;
    unsigned nul;
    int line = 0;
    memset(s, 0, sizeof *s);
    s->path = path;
    s->msg = msg;
    if ((nul = infile_nul(text, len)))
        return bad(s, (int)nul, "a NUL byte: a SPEC is text");
    if (!(s->text = malloc(len + 1)) || !(s->raw = malloc(len + 1)))
        return sw_spec_free(s), bad(s, -1, "out of host memory");
    memcpy(s->text, text, len);
    memcpy(s->raw, text, len);
    s->text[len] = s->raw[len] = 0;
    for (p = s->text; (l = infile_line(&p)) != NULL;)
        if (parse_line(s, l, ++line))
            return sw_spec_free(s), 2;
    if (finish(s))
        return sw_spec_free(s), 2;
    return 0;
}

int sw_spec_load(const char *path, struct sw_spec *s)
{
    char err[1200];
    size_t len;
    char *text = infile_read(path, "the SPEC file", SW_MAX_SPEC_BYTES, &len, err, sizeof err);
    int rc;
    memset(s, 0, sizeof *s);
    if (!text)
        return fprintf(stderr, "gpusim sweep: %s\n", err), 2;
    rc = sw_spec_parse(s, path, text, len, NULL);
    free(text);
    return rc;
}

void sw_spec_free(struct sw_spec *s)
{
    const char *path = s->path;
    FILE *msg = s->msg;
    free(s->text);
    free(s->raw);
    free(s->configs.v);
    for (unsigned a = 0; a < s->nsetax; a++)
        free(s->sets[a].v);
    free(s->kernels);
    free(s->mechs);
    free(s->app_names);
    free(s->app_list);
    if (s->apps)
        apps_free(s->apps);
    free(s->apps);
    memset(s, 0, sizeof *s);
    s->path = path;                   /* an error after the free still names the SPEC */
    s->msg = msg;
}

void sw_point(const struct sw_spec *s, unsigned long i, struct sw_point *p)
{
    memset(p, 0, sizeof *p);
    p->index = i;
    p->mech = s->mechs[i % s->nmechs];
    i /= s->nmechs;
    if (i % sw_workloads(s) < s->nkernels)
        p->kernel = s->kernels[i % sw_workloads(s)];
    else
        p->app = s->app_list[i % sw_workloads(s) - s->nkernels];
    i /= sw_workloads(s);
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

/* Point p's configuration loads (gs_init, which names the keys behind a failure): 0, or 2
   after the error. */
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

/* The configuration file the check loaded last (configurations vary slowest: each is read
   once). */
struct sw_base {
    const char *path;
    int ok;
    struct gpu_config c;
};

/* Point p's configuration passes the checks gs_init makes (the file, the sets in order, the
   combinations, every block's), from the file's configuration read once: 1; 0 when it does
   not, or when the file cannot be read (check_point then says why). */
static int loads_fast(const struct sw_spec *s, const struct sw_point *p, struct sw_base *b)
{
    struct opts o, mo;
    struct gpu_config c;
    char buf[4096], err[1024];
    if (b->path != p->config) {
        b->path = p->config;
        conf_defaults(&b->c);
        b->ok = !conf_load_file(&b->c, p->config, err, sizeof err);
    }
    memset(&o, 0, sizeof o);
    if (!b->ok || sw_point_opts(s, p, &o, buf, sizeof buf) || mech_opts(p->mech, &o, &mo))
        return 0;
    c = b->c;
    for (int i = 0; i < mo.nsets; i++)
        if (conf_set(&c, mo.sets[i], "--set", err, sizeof err))
            return 0;
    return !conf_check(&c, err, sizeof err) && !blk_conf_check(&c, NULL, err, sizeof err);
}

unsigned long sw_spec_nconfigs(const struct sw_spec *s)
{
    return s->npoints / s->nsizes / sw_workloads(s);
}

int sw_spec_check(const struct sw_spec *s)
{
    static struct sw_base base;       /* a configuration: not on the stack */
    unsigned long combos = sw_spec_nconfigs(s) / s->nmechs;
    base.path = NULL;
    /* the points with the first kernel and size hold every configuration, set and mechanism */
    for (unsigned long c = 0; c < combos; c++)
        for (unsigned m = 0; m < s->nmechs; m++) {
            struct sw_point p;
            sw_point(s, c * s->nsizes * sw_workloads(s) * s->nmechs + m, &p);
            if (!loads_fast(s, &p, &base) && check_point(s, &p))
                return 2;
        }
    return 0;
}
