/*
 * exec_check.c -- gpusim exec --check: a CUDA program's results under the functional and
 * under the timing model, compared (exec.h, docs/cuda.md "Checking a program").
 *
 * The program runs twice, the configuration and settings as given with model = functional
 * appended for the first run and model = timing for the second; the functional run is the
 * reference execution, the kernels as written: without the mechanisms (the settings of vt*,
 * dws* and sched_policy left out, vt, vtw and dws off; VT and DWS need the timing model). Its
 * stdin is /dev/null in both, stdout and stderr go to unlinked temporary files. The library's summary is off in
 * both runs (or, with --summary, written by the timing run), as are the statistics files of
 * the functional run (--json and --launches are the timing run's): the summary's lines
 * differ between the models by design, and lines of its form ("gpusim: launch N ...",
 * "gpusim: total: ...") are dropped from stderr in any case. Lines matching an --ignore
 * regex (POSIX extended) are dropped from both streams; then stdout, stderr and the exit
 * status must be the same. A difference is reported as a wrong result: which stream, the
 * first differing line of each run (its line number in that run's output), exit 1. A
 * program that cannot be started is exit 127, as for gpusim exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exec.h"

#define TAG "gpusim exec --check"

struct lines {                    /* a stream's lines after the filters */
    char *buf;                    /* the whole output */
    const char **s;               /* each line (not NUL-terminated) */
    size_t *len, *no, n;          /* its length and number (from 1) in the output */
};

struct filters { regex_t re[EXEC_MAX_SETS + 1]; int n; };

/* The --ignore regexes, then the summary's line forms (for stderr only): 0 or -1. */
static int filters_init(struct filters *f, const struct exec_opts *o)
{
    char msg[256];
    f->n = 0;
    for (int i = 0; i < o->nignore; i++) {
        int rc = regcomp(&f->re[f->n], o->ignore[i], REG_EXTENDED | REG_NOSUB);
        if (rc) {
            regerror(rc, &f->re[f->n], msg, sizeof msg);
            fprintf(stderr, TAG ": --ignore '%s': %s\n", o->ignore[i], msg);
            return -1;
        }
        f->n++;
    }
    if (regcomp(&f->re[f->n], "^gpusim: (launch [0-9]+ |total: )", REG_EXTENDED | REG_NOSUB))
        return -1;
    return 0;
}

static void filters_free(struct filters *f)
{
    for (int i = 0; i <= f->n; i++)
        regfree(&f->re[i]);
}

static int dropped(const struct filters *f, const char *s, size_t len, int is_err)
{
    char *line = strndup(s, len);
    int hit = 0;
    for (int i = 0; line && !hit && i < f->n + is_err; i++)
        hit = !regexec(&f->re[i], line, 0, NULL, 0);
    free(line);
    return hit;
}

/* The whole of file descriptor fd from its start (malloc'd, NUL-terminated), or NULL. */
static char *read_fd(int fd)
{
    size_t n = 0, cap = 4096;
    char *b = malloc(cap), *g;
    ssize_t k;
    if (!b || lseek(fd, 0, SEEK_SET) < 0)
        return free(b), NULL;
    while ((k = read(fd, b + n, cap - n - 1)) != 0) {
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return free(b), NULL;
        n += (size_t)k;
        if (cap - n - 1 == 0) {
            if (!(g = realloc(b, cap *= 2)))
                return free(b), NULL;
            b = g;
        }
    }
    b[n] = 0;
    return b;
}

/* Split fd's output into the lines the filters keep: 0, or -1 out of memory. */
static int lines_of(int fd, const struct filters *f, int is_err, struct lines *L)
{
    size_t cap = 0, no = 0;
    memset(L, 0, sizeof *L);
    if (!(L->buf = read_fd(fd)))
        return -1;
    for (const char *p = L->buf; *p; ) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        no++;
        if (!dropped(f, p, len, is_err)) {
            if (L->n == cap) {
                cap = cap ? 2 * cap : 64;
                L->s = realloc(L->s, cap * sizeof *L->s);
                L->len = realloc(L->len, cap * sizeof *L->len);
                L->no = realloc(L->no, cap * sizeof *L->no);
                if (!L->s || !L->len || !L->no)
                    return -1;
            }
            L->s[L->n] = p;
            L->len[L->n] = len;
            L->no[L->n++] = no;
        }
        p += len + (e != NULL);
    }
    return 0;
}

static void lines_free(struct lines *L)
{
    free(L->buf);
    free(L->s);
    free(L->len);
    free(L->no);
}

static void show(const char *model, const struct lines *L, size_t i)
{
    if (i < L->n)
        printf("    %-10s line %zu: %.*s\n", model, L->no[i], (int)L->len[i], L->s[i]);
    else
        printf("    %-10s (its output ends after line %zu)\n", model, i ? L->no[i - 1] : 0);
}

/* The first line where two streams differ, or (size_t)-1 when they are the same. */
static size_t first_diff(const struct lines *f, const struct lines *t)
{
    size_t i;
    for (i = 0; i < f->n && i < t->n; i++)
        if (f->len[i] != t->len[i] || memcmp(f->s[i], t->s[i], f->len[i]))
            return i;
    return i == f->n && i == t->n ? (size_t)-1 : i;
}

static void report(const char *name, const struct lines *f, const struct lines *t)
{
    size_t i = first_diff(f, t);
    if (i == (size_t)-1)
        return;
    printf("  %s differs:\n", name);
    show("functional", f, i);
    show("timing", t, i);
}

/* An unlinked temporary file open for reading and writing, or -1. */
static int temp_fd(void)
{
    const char *dir = getenv("TMPDIR");
    char path[1024];
    int fd;
    snprintf(path, sizeof path, "%s/gpusim-check-XXXXXX", dir && dir[0] ? dir : "/tmp");
    if ((fd = mkstemp(path)) >= 0)
        unlink(path);
    return fd;
}

/* The mechanisms (and their keys) left out of the functional run: VT and DWS need the timing
   model, and the reference execution is the kernel as written (no VTW transform). */
static int mechanism_key(const char *set)
{
    size_t k = strspn(set, " \t"), n = strcspn(set + k, " \t=");
    return !strncmp(set + k, "vt", 2) || !strncmp(set + k, "dws", 3) ||
           (n == 12 && !strncmp(set + k, "sched_policy", 12));
}

/* The settings of one run, newline-separated (malloc'd): the --set settings (else
   GPUSIM_SET's), for the functional run without the mechanisms' and with them off, then
   model=M. */
static char *run_sets(const struct exec_opts *o, const char *model)
{
    const char *env = getenv("GPUSIM_SET");
    int functional = !strcmp(model, "functional");
    char *all = NULL, *out, *save = NULL;
    size_t len = 64 + (env ? strlen(env) : 0);
    for (int i = 0; i < o->nsets; i++)
        len += strlen(o->sets[i]) + 1;
    if (!(out = malloc(len)) || !(all = malloc(len))) {
        free(out);
        return NULL;
    }
    out[0] = all[0] = 0;
    if (!o->nsets && env)
        strcat(all, env);
    for (int i = 0; i < o->nsets; i++)
        strcat(strcat(all, o->sets[i]), "\n");
    for (char *t = strtok_r(all, ";\n", &save); t; t = strtok_r(NULL, ";\n", &save))
        if (!functional || !mechanism_key(t))
            strcat(strcat(out, t), "\n");
    if (functional)
        strcat(out, "vt=off\nvtw=off\ndws=off\n");
    strcat(strcat(out, "model="), model);
    free(all);
    return out;
}

/* Load the configuration a run will have (o's file, sets): 0, or -1 with the message. */
static int run_config_ok(const struct exec_opts *o, char *sets, const char *model)
{
    char err[2048], *copy = strdup(sets), *save = NULL;
    struct exec_opts r = *o;
    int n = 0, rc;
    if (!copy)
        return -1;
    for (char *t = strtok_r(copy, "\n", &save); t && n < EXEC_MAX_SETS;
         t = strtok_r(NULL, "\n", &save))
        r.sets[n++] = t;
    r.nsets = n;
    if ((rc = exec_check(&r, err, sizeof err)) != 0)
        fprintf(stderr, TAG ": the %s run's configuration: %s\n", model, err);
    free(copy);
    return rc;
}

/* One run under `model`: its exit status, -1 when it could not be set up, -2 when its
   configuration does not load (said on stderr). */
static int run_one(const struct exec_opts *o, const char *libdir, const char *model,
                   char *const argv[], int in, int out, int err)
{
    struct exec_opts r = *o;
    int timing = !strcmp(model, "timing");
    char *sets = run_sets(o, model);
    r.nsets = 0;
    r.json = timing ? o->json : NULL;
    r.launches = timing ? o->launches : NULL;
    r.summary = timing && o->summary ? o->summary : "off";
    if (!sets || (!timing && (unsetenv("GPUSIM_JSON") || unsetenv("GPUSIM_LAUNCHES"))) ||
        setenv("GPUSIM_SET", sets, 1) || exec_env(&r, libdir)) {
        free(sets);
        return -1;
    }
    if (run_config_ok(o, sets, model)) {
        free(sets);
        return -2;
    }
    free(sets);
    return exec_program_io(argv, in, out, err);
}

/* Both runs, then the comparison. */
static int check(const struct exec_opts *o, const char *libdir, char *const argv[],
                 const struct filters *flt)
{
    const char *models[2] = { "functional", "timing" };
    int fd[2][2], st[2] = { 0, 0 }, in = open("/dev/null", O_RDONLY), rc = 2, diff;
    struct lines L[2][2];
    for (int m = 0; m < 2; m++)
        fd[m][0] = temp_fd(), fd[m][1] = temp_fd();
    memset(L, 0, sizeof L);
    for (int m = 0; m < 2; m++) {
        if (in < 0 || fd[m][0] < 0 || fd[m][1] < 0 ||
            (st[m] = run_one(o, libdir, models[m], argv, in, fd[m][0], fd[m][1])) < 0) {
            if (st[m] != -2)
                fprintf(stderr, TAG ": cannot set up the %s run (%s)\n", models[m],
                        strerror(errno));
            goto out;
        }
        if (lines_of(fd[m][0], flt, 0, &L[m][0]) || lines_of(fd[m][1], flt, 1, &L[m][1])) {
            fprintf(stderr, TAG ": cannot read the %s run's output\n", models[m]);
            goto out;
        }
    }
    if (st[1] == 127 && !strncmp(L[1][1].buf, "gpusim exec: cannot run ", 24)) {
        fputs(L[1][1].buf, stderr);       /* not started: nothing to compare */
        rc = 127;
        goto out;
    }
    diff = st[0] != st[1] || first_diff(&L[0][0], &L[1][0]) != (size_t)-1 ||
           first_diff(&L[0][1], &L[1][1]) != (size_t)-1;
    if (diff) {
        printf(TAG ": WRONG RESULT: %s differs between the functional and the timing model\n",
               argv[0]);
        report("stdout", &L[0][0], &L[1][0]);
        report("stderr", &L[0][1], &L[1][1]);
        if (st[0] != st[1])
            printf("  exit status differs: functional %d, timing %d\n", st[0], st[1]);
    } else
        printf(TAG ": the same under the functional and the timing model: stdout (%zu lines), "
               "stderr (%zu lines), exit status %d%s\n", L[1][0].n, L[1][1].n, st[1],
               o->nignore ? " (after --ignore)" : "");
    rc = diff;
out:
    for (int m = 0; m < 2; m++) {
        lines_free(&L[m][0]);
        lines_free(&L[m][1]);
        if (fd[m][0] >= 0)
            close(fd[m][0]);
        if (fd[m][1] >= 0)
            close(fd[m][1]);
    }
    if (in >= 0)
        close(in);
    fflush(stdout);
    return rc;
}

int exec_check_program(const struct exec_opts *o, const char *libdir, char *const argv[])
{
    struct filters f;
    int rc;
    if (filters_init(&f, o)) {
        for (int i = 0; i < f.n; i++)
            regfree(&f.re[i]);
        return 2;
    }
    rc = check(o, libdir, argv, &f);
    filters_free(&f);
    return rc;
}
