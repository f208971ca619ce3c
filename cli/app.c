/*
 * app.c -- applications as workloads (app.h, docs/apps.md): the applications file, and one
 * application's run under a mechanism through the runtime library, cached like a kernel's.
 *
 * A run: the program starts in its directory with the library's environment (exec.h
 * exec_env: build/cuda first on LD_LIBRARY_PATH, the configuration and the mechanism's
 * settings in GPUSIM_CONFIG / GPUSIM_SET), its per-launch summary off and GPUSIM_TOTAL naming
 * a file where the library writes, at exit, the sum of every launch's statistics and each
 * kernel's cycles (cuda/stats.c). Its stdout and stderr go to files; their digest (the ignored
 * lines left out) and its exit status are what the page compares with the baseline's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "app.h"
#include "base/infile.h"
#include "cache.h"
#include "exec.h"
#include "gpu/stats.h"
#include "ptx/ptx_res.h"

#define APPS_FILE_MAX (1u << 20)        /* an applications file */
#define APP_OUT_MAX ((size_t)256 << 20) /* a program's stdout or stderr */
#define TOTAL_MAX ((size_t)16 << 20)    /* GPUSIM_TOTAL's file */

/* ------------------------------------------------------------------ the file */

struct parse {
    const char *path;
    unsigned line;
    char *base;                        /* the file's directory, absolute */
    struct apps *as;
    char *err;
    size_t errlen;
};

static int perr(struct parse *p, const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    snprintf(p->err, p->errlen, "%s:%u: %s", p->path, p->line, msg);
    return -1;
}

/* rel made absolute against dir (malloc'd). */
static char *join(const char *dir, const char *rel)
{
    char *s = malloc(strlen(dir) + strlen(rel) + 2);
    if (s)
        sprintf(s, "%s%s%s", rel[0] == '/' ? "" : dir, rel[0] == '/' ? "" : "/", rel);
    return s;
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (!n || n >= APP_NAME_MAX)
        return 0;
    for (; *s; s++)
        if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9') &&
            !strchr("_-.", *s))
            return 0;
    return 1;
}

static struct app *cur(struct parse *p)
{
    return p->as->n ? &p->as->a[p->as->n - 1] : NULL;
}

static int item_app(struct parse *p, char *rest)
{
    struct app *a;
    if (!name_ok(rest))
        return perr(p, "'app %s': a name of letters, digits, '_', '-' and '.' (at most 63)",
                    rest);
    for (unsigned i = 0; i < p->as->n; i++)
        if (!strcmp(p->as->a[i].name, rest))
            return perr(p, "application '%s' named twice", rest);
    if (p->as->n == APP_MAX)
        return perr(p, "more than %s applications", "64");
    a = &p->as->a[p->as->n++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", rest);
    a->line = p->line;
    return (a->dir = strdup(p->base)) ? 0 : perr(p, "%s", "out of memory");
}

static int item_run(struct parse *p, struct app *a, char *rest)
{
    unsigned n = 0;
    if (a->argv[0])
        return perr(p, "a second 'run' for %s", a->name);
    for (char *w = strtok(rest, " \t"); w; w = strtok(NULL, " \t")) {
        if (n == APP_MAX_ARGS)
            return perr(p, "more than %s words in 'run'", "64");
        if (!(a->argv[n++] = strdup(w)))
            return perr(p, "%s", "out of memory");
    }
    return n ? 0 : perr(p, "'run' needs a %s", "program");
}

static int item_dir(struct parse *p, struct app *a, char *rest)
{
    char *d = join(p->base, rest), real[PATH_MAX];
    struct stat st;
    if (!d)
        return perr(p, "%s", "out of memory");
    if (!realpath(d, real) || stat(real, &st) || !S_ISDIR(st.st_mode)) {
        int rc = perr(p, "dir %s: not a directory", rest);
        free(d);
        return rc;
    }
    free(d);
    free(a->dir);
    return (a->dir = strdup(real)) ? 0 : perr(p, "%s", "out of memory");
}

static int item_input(struct parse *p, struct app *a, char *rest)
{
    if (a->ninputs == APP_MAX_INPUTS)
        return perr(p, "more than %s inputs", "16");
    a->inputs[a->ninputs] = join(a->dir, rest);
    return a->inputs[a->ninputs++] ? 0 : perr(p, "%s", "out of memory");
}

static int item_ignore(struct parse *p, struct app *a, char *rest)
{
    char msg[256];
    int rc;
    if (a->nignores == APP_MAX_IGNORES)
        return perr(p, "more than %s ignore lines", "8");
    if ((rc = regcomp(&a->ignore[a->nignores], rest, REG_EXTENDED | REG_NOSUB))) {
        regerror(rc, &a->ignore[a->nignores], msg, sizeof msg);
        return perr(p, "ignore: %s", msg);
    }
    a->ignore_src[a->nignores] = strdup(rest);
    if (!a->ignore_src[a->nignores++])
        return perr(p, "%s", "out of memory");
    return 0;
}

/* One line of the file. */
static int item(struct parse *p, char *line)
{
    char *kw, *rest;
    struct app *a = cur(p);
    line += strspn(line, " \t");
    if (!*line || *line == '#')
        return 0;
    kw = line;
    rest = line + strcspn(line, " \t");
    if (*rest)
        *rest++ = 0;
    rest += strspn(rest, " \t");
    if (!strcmp(kw, "app"))
        return item_app(p, rest);
    if (!a)
        return perr(p, "'%s' before the first 'app' line", kw);
    if (!*rest)
        return perr(p, "'%s' needs a value", kw);
    if (!strcmp(kw, "run"))
        return item_run(p, a, rest);
    if (!strcmp(kw, "dir"))
        return a->ninputs ? perr(p, "'dir' after an 'input' of %s", a->name) :
               item_dir(p, a, rest);
    if (!strcmp(kw, "input"))
        return item_input(p, a, rest);
    if (!strcmp(kw, "ignore"))
        return item_ignore(p, a, rest);
    return perr(p, "unknown item '%s' (app, run, dir, input, ignore)", kw);
}

/* PATH's file for a program name without '/' (malloc'd), or NULL. */
static char *on_path(const char *prog)
{
    const char *path = getenv("PATH");
    for (const char *s = path ? path : "/usr/bin:/bin"; *s;) {
        size_t n = strcspn(s, ":");
        char *f = malloc(n + strlen(prog) + 2);
        if (!f)
            return NULL;
        sprintf(f, "%.*s/%s", (int)n, s, prog);
        if (n && !access(f, X_OK))
            return f;
        free(f);
        s += n + (s[n] == ':');
    }
    return NULL;
}

/* Every application has a program that exists. */
static int resolve(struct parse *p)
{
    for (unsigned i = 0; i < p->as->n; i++) {
        struct app *a = &p->as->a[i];
        p->line = a->line;
        if (!a->argv[0])
            return perr(p, "application %s has no 'run' line", a->name);
        a->prog = strchr(a->argv[0], '/') ? join(a->dir, a->argv[0]) : on_path(a->argv[0]);
        if (!a->prog || access(a->prog, X_OK))
            return perr(p, "%s: no such program (or not executable)", a->argv[0]);
    }
    if (!p->as->n) {
        p->line = 1;
        return perr(p, "no application (an 'app NAME' line, then 'run PROGRAM ARGS...')%s",
                    "");
    }
    return 0;
}

static char *file_dir(const char *path)
{
    char real[PATH_MAX], *slash;
    if (!realpath(path, real))
        return NULL;
    if ((slash = strrchr(real, '/')) != NULL)
        slash == real ? (void)(slash[1] = 0) : (void)(*slash = 0);
    return strdup(real);
}

int apps_load(const char *path, struct apps *as, char *err, size_t errlen)
{
    size_t len;
    char *buf = infile_read(path, "an applications file", APPS_FILE_MAX, &len, err, errlen);
    struct parse p = {path, 0, NULL, as, err, errlen};
    unsigned nul;
    int rc = -1;
    memset(as, 0, sizeof *as);
    if (!buf)
        return -1;
    if ((nul = infile_nul(buf, len)) != 0) {
        p.line = nul;
        perr(&p, "a NUL byte%s", "");
    } else if (!(p.base = file_dir(path)))
        snprintf(err, errlen, "%s: cannot resolve its directory", path);
    else {
        char *s = buf, *line;
        rc = 0;
        while (!rc && (line = infile_line(&s)) != NULL) {
            p.line++;
            rc = item(&p, line);
        }
        rc = rc ? rc : resolve(&p);
    }
    free(buf);
    free(p.base);
    if (rc)
        apps_free(as);
    return rc;
}

void apps_free(struct apps *as)
{
    for (unsigned i = 0; i < as->n; i++) {
        struct app *a = &as->a[i];
        free(a->dir);
        free(a->prog);
        for (unsigned j = 0; a->argv[j]; j++)
            free(a->argv[j]);
        for (unsigned j = 0; j < a->ninputs; j++)
            free(a->inputs[j]);
        for (unsigned j = 0; j < a->nignores; j++) {
            regfree(&a->ignore[j]);
            free(a->ignore_src[j]);
        }
    }
    as->n = 0;
}

/* ------------------------------------------------------------------ the key */

/* The register records beside the program (PROG.N.res) and the ptxas a load would run. */
static void key_regs(struct cache_key *k, const struct app *a)
{
    char v[128], name[32], *path = malloc(strlen(a->prog) + 32);
    if (!path) {
        k->bad = 1;
        return;
    }
    for (unsigned i = 1; i <= 16; i++) {
        sprintf(path, "%s.%u.res", a->prog, i);
        snprintf(name, sizeof name, "record %u", i);
        cache_key_file(k, name, path, 1);
    }
    free(path);
    if (ptx_res_ptxas_version(v, sizeof v))
        snprintf(v, sizeof v, "none found");
    cache_key_add(k, "ptxas", v);
}

static int app_key(const struct opts *o, const struct mech *m, const struct app *a,
                   const char *lib, struct cache_key *k)
{
    char name[32];
    cache_key_start(k);
    cache_key_common(k, o, m, NULL);
    cache_key_add(k, "application", a->name);
    cache_key_add(k, "directory", a->dir);
    cache_key_file(k, "program", a->prog, 0);
    cache_key_file(k, "runtime library", lib, 0);
    for (unsigned i = 0; a->argv[i]; i++) {
        snprintf(name, sizeof name, "argument %u", i);
        cache_key_add(k, name, a->argv[i]);
    }
    for (unsigned i = 0; i < a->ninputs; i++) {
        snprintf(name, sizeof name, "input %u", i);
        cache_key_add(k, name, a->inputs[i]);
        cache_key_file(k, name, a->inputs[i], 0);
    }
    for (unsigned i = 0; i < a->nignores; i++)
        cache_key_add(k, "ignore", a->ignore_src[i]);
    key_regs(k, a);
    return cache_key_end(k);
}

/* ------------------------------------------------------------------ a run */

struct run {
    char dir[64], out[96], err[96], total[96];
    int status;
};

static void fail(struct result *r, int rc, const char *fmt, const char *arg)
{
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, arg);
    free(r->msg);
    r->rc = rc;
    r->msg = strdup(msg);
}

/* The child: its directory, the library's environment, stdout and stderr to files. */
static void child(const struct opts *o, const struct app *a, const char *libdir,
                  const struct run *x)
{
    static const char *const clear[] = {"GPUSIM_CONFIG", "GPUSIM_SET", "GPUSIM_JSON",
        "GPUSIM_LAUNCHES", "GPUSIM_PTX", "GPUSIM_DUMP_PTX", "GPUSIM_RES_DIR"};
    struct exec_opts eo = {0};
    char cfg[PATH_MAX];
    int out = open(x->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = open(x->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        _exit(126);
    for (unsigned i = 0; i < sizeof clear / sizeof *clear; i++)
        unsetenv(clear[i]);
    eo.config = o->config ? (realpath(o->config, cfg) ? cfg : o->config) : NULL;
    eo.nsets = o->nsets < EXEC_MAX_SETS ? o->nsets : EXEC_MAX_SETS;
    memcpy(eo.sets, o->sets, sizeof(char *) * (size_t)eo.nsets);
    eo.summary = "off";
    if (exec_env(&eo, libdir) || setenv("GPUSIM_TOTAL", x->total, 1) || chdir(a->dir)) {
        fprintf(stderr, "gpusim: %s: cannot set up the run: %s\n", a->name, strerror(errno));
        _exit(126);
    }
    execv(a->prog, a->argv);
    fprintf(stderr, "gpusim: cannot run %s: %s\n", a->prog, strerror(errno));
    _exit(127);
}

/* Fork, run, wait: x->status as a shell gives it (128 + N for signal N); -1 if no fork. */
static int spawn(const struct opts *o, const struct app *a, const char *libdir, struct run *x)
{
    int status;
    pid_t pid;
    fflush(NULL);
    if ((pid = fork()) < 0)
        return -1;
    if (pid == 0)
        child(o, a, libdir, x);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    x->status = WIFEXITED(status) ? WEXITSTATUS(status) :
                WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
    return 0;
}

static int ignored(const struct app *a, const char *line)
{
    for (unsigned i = 0; i < a->nignores; i++)
        if (!regexec(&a->ignore[i], line, 0, NULL, 0))
            return 1;
    return 0;
}

/* Append path's lines that are not ignored to *acc (malloc'd, *n bytes). */
static int kept_lines(const struct app *a, const char *path, char **acc, size_t *n)
{
    size_t len;
    char err[512], *buf = infile_read(path, "the program's output", APP_OUT_MAX, &len, err,
                                      sizeof err), *s, *line, *grown;
    if (!buf)
        return -1;
    if (!(grown = realloc(*acc, *n + len + 2))) {
        free(buf);
        return -1;
    }
    *acc = grown;
    for (s = buf; s < buf + len && (line = infile_line(&s)) != NULL;) {
        size_t l = strlen(line);
        if (ignored(a, line))
            continue;
        memcpy(*acc + *n, line, l);
        (*acc)[*n + l] = '\n';
        *n += l + 1;
    }
    (*acc)[(*n)++] = 0;                /* stdout's end, before stderr's lines */
    free(buf);
    return 0;
}

/* "out DIGEST\n" of stdout, stderr and the exit status at the head of r->app. */
static int digest(const struct app *a, const struct run *x, struct result *r)
{
    char *acc = NULL, hex[CACHE_KEY_LEN], st[32];
    size_t n = 0;
    int rc = kept_lines(a, x->out, &acc, &n) || kept_lines(a, x->err, &acc, &n) ? -1 : 0;
    if (!rc) {
        int l = snprintf(st, sizeof st, "exit %d", x->status);
        char *grown = realloc(acc, n + (size_t)l);
        rc = grown ? 0 : -1;
        if (grown) {
            memcpy(grown + n, st, (size_t)l);
            acc = grown;
            char kernels[sizeof r->app];
            cache_hash(acc, n + (size_t)l, hex);
            snprintf(kernels, sizeof kernels, "%s", r->app);
            snprintf(r->app, sizeof r->app, "out %s\n%.950s", hex, kernels);
        }
    }
    free(acc);
    return rc;
}

/* The kernels of GPUSIM_TOTAL's lines, most cycles first, APP_TOP of them, into r->app. */
static void top_kernels(char *lines, struct result *r)
{
    unsigned long long best[APP_TOP] = {0};
    const char *name[APP_TOP] = {NULL};
    for (char *s = lines, *line; (line = infile_line(&s)) != NULL;) {
        unsigned long long c, w;
        unsigned n;
        int at = 0;
        if (sscanf(line, "kernel %llu %llu %u %n", &c, &w, &n, &at) < 3 || !at)
            continue;
        for (unsigned i = 0; i < APP_TOP; i++)
            if (!name[i] || c > best[i]) {
                memmove(&best[i + 1], &best[i], sizeof *best * (APP_TOP - 1 - i));
                memmove(&name[i + 1], &name[i], sizeof *name * (APP_TOP - 1 - i));
                best[i] = c;
                name[i] = line + at;
                break;
            }
    }
    for (unsigned i = 0; i < APP_TOP && name[i]; i++)
        snprintf(r->app + strlen(r->app), sizeof r->app - strlen(r->app), "kernel %llu %.200s\n",
                 best[i], name[i]);
}

/* GPUSIM_TOTAL's file into r->st and r->app; -1 with why in r. */
static int read_total(const struct run *x, struct result *r)
{
    size_t len, sz;
    unsigned long long layout;
    char err[512], *buf = infile_read(x->total, "the runtime library's totals", TOTAL_MAX, &len,
                                      err, sizeof err), *stats;
    int ok = buf && sscanf(buf, "gpusim-total 1\nlayout %llx\n", &layout) == 1 &&
             layout == gs_stats_layout() && (stats = strstr(buf, "\nstats ")) != NULL &&
             sscanf(stats, "\nstats %zu\n", &sz) == 1 && sz == sizeof r->st &&
             (stats = strchr(stats + 1, '\n')) != NULL &&
             (size_t)(buf + len - (stats + 1)) == sz;
    if (ok) {
        memcpy(&r->st, stats + 1, sz);
        stats[0] = 0;
        top_kernels(buf, r);
    } else
        fail(r, 2, buf ? "the runtime library's totals (%s) are not this gpusim's: rebuild "
             "build/cuda (make all)" : "the program left no statistics (%s): it ended without "
             "exit(), or the runtime library was not the model's", buf ? x->total : err);
    free(buf);
    return ok ? 0 : -1;
}

/* The end of the program's stderr (a line or two) for a message. */
static void stderr_tail(const struct run *x, char *buf, size_t n)
{
    size_t len;
    char err[256], *s = infile_read(x->err, "stderr", APP_OUT_MAX, &len, err, sizeof err);
    size_t from = len > 300 ? len - 300 : 0;
    snprintf(buf, n, "%s", s ? s + from : "");
    for (char *c = buf; *c; c++)
        if (*c == '\n' && c[1])
            *c = ' ';
    buf[strcspn(buf, "\n")] = 0;
    free(s);
}

static void cleanup(struct run *x)
{
    unlink(x->out);
    unlink(x->err);
    unlink(x->total);
    rmdir(x->dir);
}

static void run_uncached(const struct opts *mo, const struct app *a, const char *libdir,
                         struct result *r)
{
    struct run x = {"/tmp/gpusim-app-XXXXXX", "", "", "", 0};
    char msg[1024], tail[400];
    int tot;
    if (!mkdtemp(x.dir)) {
        fail(r, 2, "cannot make a temporary directory: %s", strerror(errno));
        return;
    }
    snprintf(x.out, sizeof x.out, "%s/stdout", x.dir);
    snprintf(x.err, sizeof x.err, "%s/stderr", x.dir);
    snprintf(x.total, sizeof x.total, "%s/total", x.dir);
    if (spawn(mo, a, libdir, &x)) {
        fail(r, 2, "cannot start %s: fork failed", a->prog);
    } else if (x.status == 126 || x.status == 127) {
        stderr_tail(&x, tail, sizeof tail);
        fail(r, 2, "%s", tail);
    } else if ((tot = read_total(&x, r)), x.status) {
        stderr_tail(&x, tail, sizeof tail);
        snprintf(msg, sizeof msg, "exit status %d; its stderr ends: %s", x.status, tail);
        fail(r, 1, "%s", msg);
    } else if (!tot && digest(a, &x, r))
        fail(r, 2, "cannot read the program's output in %s", x.dir);
    else if (!tot)
        r->msg = strdup("results correct");
    cleanup(&x);
}

/* The configuration's name and latency set into r (as run_one gives them). */
static void config_names(const struct opts *mo, struct result *r)
{
    struct gs_gpu *g;
    char err[256];
    if (gs_init(&g, mo->config, mo->sets, mo->nsets, err, sizeof err))
        return;
    snprintf(r->cfg_name, sizeof r->cfg_name, "%s", gs_config(g)->name);
    latency_set(gs_config(g), r->lat, sizeof r->lat);
    gs_destroy(g);
}

void app_run(const struct opts *o, const struct mech *m, const struct app *a,
             struct result *r)
{
    struct opts mo;
    struct cache_key key;
    char libdir[PATH_MAX], lib[PATH_MAX + 32];
    char err[512] = "too many --set options with the mechanism's";
    int keyed = 0;
    memset(r, 0, sizeof *r);
    if (m->regroup || mech_opts(m, o, &mo) ||
        exec_libdir(libdir, sizeof libdir, err, sizeof err)) {
        fail(r, m->regroup ? MECH_NA : 2, "%s", m->regroup ? "a regrouping applies to bench "
             "kernels only (it profiles one kernel's threads)" : err);
        return;
    }
    snprintf(lib, sizeof lib, "%s/libcudart.so.13", libdir);
    keyed = cache_on(o->cache) && !app_key(o, m, a, lib, &key);
    if (keyed && cache_get(o->cache, &key, r)) {
        r->cached = 1;
        cache_key_free(&key);
        return;
    }
    run_uncached(&mo, a, libdir, r);
    config_names(&mo, r);
    if (keyed && cache_put(o->cache, &key, r))
        fprintf(stderr, "gpusim: could not write the result cache entry %s/%s\n", o->cache,
                key.hex);
    if (keyed)
        cache_key_free(&key);
}

void app_out_digest(const struct result *r, char *buf, size_t n)
{
    const char *s = strncmp(r->app, "out ", 4) ? "" : r->app + 4;
    snprintf(buf, n, "%.*s", (int)strcspn(s, "\n"), s);
}
