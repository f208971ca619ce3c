/*
 * sweep.c -- gpusim sweep SPEC (docs/sweeps.md): the cross product a SPEC names
 * (cli/sweep_spec.c), each point one kernel or application run under one mechanism
 * (mech_run, app_run), results in one CSV.
 *
 *   gpusim sweep SPEC [--out DIR] [--jobs N] [--cache DIR|none] [--dry-run]
 *        every point locally through GNU parallel (forked processes when it is missing),
 *        then the merge; results cached (cli/cache.c) only with --cache DIR
 *   gpusim sweep SPEC --slurm [--slurm-opt OPT]... [--jobs N] [--dry-run]
 *        a Slurm array job, one task a point, and a merge job after it (cli/sweep_slurm.c)
 *   gpusim sweep SPEC --point I --out DIR     one point into DIR/points/I.csv (atomically;
 *        DIR/points is made, or refused, before the point runs)
 *   gpusim sweep SPEC --merge --out DIR       DIR/points/I.csv in point order into
 *        DIR/results.csv; a missing point is named, and nothing is written
 *
 * A whole sweep starts by checking that every configuration loads with every combination of
 * sets, empties DIR/points and copies SPEC to DIR/sweep.spec, which the points and the merge
 * read (so a SPEC edited meanwhile does not mix two sweeps). The merge also checks that each
 * point file holds the point its index names. A local sweep always ends with the merge,
 * however its points ended: GNU parallel's exit status counts the points that failed (101:
 * more than 100), which the merge names; only a status above 101 means parallel stopped.
 */
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sweep.h"
#include "base/infile.h"

#define SW_MAX_POINT_BYTES (1u << 20)   /* a point file: a header and one row */

#define SW_HEADER "point,config,sets,kernel,mechanism,size,result,cycles,warp_insns,ipc," \
                  "thread_insns,lane_util,host_seconds\n"

struct sw_args {
    const char *spec, *out, *cache, *slurm_opts[16];
    int nslurm_opts, jobs, slurm, dry_run, merge, point_given;
    unsigned long point;
};

static int usage_err(const char *what, const char *arg)
{
    fprintf(stderr, "gpusim sweep: %s%s%s\nusage: gpusim sweep SPEC [--out DIR] [--jobs N] "
            "[--cache DIR] [--dry-run]\n       gpusim sweep SPEC --slurm [--slurm-opt OPT]... "
            "[--out DIR] [--jobs N] [--dry-run]\n       gpusim sweep SPEC --point I --out DIR | "
            "--merge --out DIR\n(--set, --config and --size belong in SPEC: docs/sweeps.md)\n",
            what, arg ? " " : "", arg ? arg : "");
    return 2;
}

/* A whole decimal number in [0, max]: 0, or -1. */
static int parse_num(const char *s, unsigned long max, unsigned long *v)
{
    char *end;
    errno = 0;
    *v = strtoul(s, &end, 10);
    return *s >= '0' && *s <= '9' && !*end && !errno && *v <= max ? 0 : -1;
}

/* An option with a value: 0, 1 when a is not one, 2 after an error. */
static int parse_valued(struct sw_args *a, char **argv, int argc, int *i)
{
    const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    unsigned long n;
    if (strcmp(o, "--out") && strcmp(o, "--cache") && strcmp(o, "--jobs") &&
        strcmp(o, "--point") && strcmp(o, "--slurm-opt"))
        return 1;
    if (!v)
        return usage_err("option needs a value:", o);
    ++*i;
    if (!strcmp(o, "--out")) a->out = v;
    else if (!strcmp(o, "--cache")) a->cache = strcmp(v, "none") ? v : NULL;
    else if (!strcmp(o, "--jobs")) {
        if (parse_num(v, 1024, &n) || !n)
            return usage_err("--jobs takes 1..1024, not", v);
        a->jobs = (int)n;
    } else if (!strcmp(o, "--point")) {
        if (parse_num(v, ULONG_MAX, &a->point))
            return usage_err("--point takes a point index, not", v);
        a->point_given = 1;
    } else if (a->nslurm_opts == 16)
        return usage_err("more than 16 --slurm-opt options", NULL);
    else if (!sw_slurm_opt_ok(v))
        return 2;
    else
        a->slurm_opts[a->nslurm_opts++] = v;
    return 0;
}

static int parse_sweep_args(struct sw_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    for (int i = 2; i < argc; i++) {
        int rc = parse_valued(a, argv, argc, &i);
        if (rc == 2)
            return 2;
        if (!rc) continue;
        if (!strcmp(argv[i], "--slurm")) a->slurm = 1;
        else if (!strcmp(argv[i], "--dry-run")) a->dry_run = 1;
        else if (!strcmp(argv[i], "--merge")) a->merge = 1;
        else if (argv[i][0] == '-' || a->spec)
            return usage_err("unexpected argument", argv[i]);
        else a->spec = argv[i];
    }
    if (!a->spec)
        return usage_err("no SPEC file given", NULL);
    if (a->point_given + a->merge + a->slurm > 1)
        return usage_err("--point, --merge and --slurm exclude each other", NULL);
    if ((a->point_given || a->merge) && !a->out)
        return usage_err("--point and --merge need --out DIR", NULL);
    if (a->nslurm_opts && !a->slurm)
        return usage_err("--slurm-opt goes with --slurm", NULL);
    if ((a->out && strlen(a->out) > 3000) || strlen(a->spec) > 3000)
        return usage_err("a path longer than 3000 characters", NULL);
    return 0;
}

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *v, const char *sep)
{
    if (!v[strcspn(v, ",\"\n\r")]) {
        fprintf(f, "%s%s", v, sep);
        return;
    }
    fputc('"', f);
    for (; *v; v++) {
        if (*v == '"')
            fputc('"', f);                /* a quote doubled */
        fputc(*v, f);
    }
    fprintf(f, "\"%s", sep);
}

/* The columns that name point p: point .. size, then `end`. */
static void write_key(FILE *f, const struct sw_spec *s, const struct sw_point *p,
                      const char *end)
{
    char sets[4096];
    sw_point_sets(s, p, sets, sizeof sets);
    fprintf(f, "%lu,", p->index);
    csv_field(f, p->config, ",");
    csv_field(f, sets, ",");
    fprintf(f, "%s,%s,%s%s", sw_point_name(p), p->mech->name,
            p->size == BENCH_TEST ? "test" : "default", end);
}

static void write_row(FILE *f, const struct sw_spec *s, const struct sw_point *p,
                      const struct result *r)
{
    const struct gs_stats *st = &r->st;
    write_key(f, s, p, ",");
    fprintf(f, "%s,", mech_result_word(r->rc));
    if (r->rc == MECH_NA) {
        fprintf(f, ",,,,,\n");
        return;
    }
    fprintf(f, "%llu,%llu,%.4f,%llu,%.4f,%.3f\n", (unsigned long long)st->cycles,
            (unsigned long long)st->warp_insns,
            st->cycles ? (double)st->warp_insns / (double)st->cycles : 0.0,
            (unsigned long long)st->thread_insns, gs_lane_utilization(st), st->host_seconds);
}

/* path's text written through a temporary file and a rename, so a reader never sees half of
   it: 0, or -1 after saying why. */
static int write_atomic(const char *path, const char *text)
{
    char tmp[PATH_MAX + 32];
    FILE *f;
    int bad;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (!(f = fopen(tmp, "w")))
        return fprintf(stderr, "gpusim sweep: cannot write %s: %s\n", tmp, strerror(errno)), -1;
    bad = fputs(text, f) < 0;
    if (fclose(f) || bad || rename(tmp, path)) {
        fprintf(stderr, "gpusim sweep: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* A FILE * writing into memory (open_memstream), and what it wrote (NULL: out of memory). */
struct membuf {
    char *text;
    size_t len;
    FILE *f;
};

static FILE *mem_open(struct membuf *m)
{
    m->text = NULL;
    return m->f = open_memstream(&m->text, &m->len);
}

static char *mem_close(struct membuf *m)
{
    if (!fclose(m->f))
        return m->text;
    free(m->text);
    return NULL;
}

static int write_point(const char *dir, const struct sw_spec *s, const struct sw_point *p,
                       const struct result *r)
{
    char path[PATH_MAX], *text;
    struct membuf m;
    int rc;
    if (!mem_open(&m))
        return -1;
    fputs(SW_HEADER, m.f);
    write_row(m.f, s, p, r);
    if (!(text = mem_close(&m)))
        return -1;
    snprintf(path, sizeof path, "%.3000s/points/%lu.csv", dir, p->index);
    rc = write_atomic(path, text);
    free(text);
    return rc;
}

static int mkdir_p(const char *dir);

/* DIR/points made if missing, and writable: 0, or -1 after saying why. */
static int points_dir(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.3000s/points", dir);
    if (mkdir_p(path) || access(path, W_OK | X_OK))
        return fprintf(stderr, "gpusim sweep: cannot write the point files into %s: %s\n", path,
                       strerror(errno)), -1;
    return 0;
}

/* gpusim sweep SPEC --point I --out DIR: 0 (ok or n/a), 1 wrong, 2 error. DIR/points is
   made first: a point that cannot be written is not run. */
static int run_point(const struct sw_spec *s, unsigned long i, const char *dir, const char *cache)
{
    struct sw_point p;
    struct opts o;
    struct result r;
    char buf[4096], sets[4096];
    if (i >= s->npoints)
        return fprintf(stderr, "gpusim sweep: %s has %lu points (0..%lu), not %lu\n", s->path,
                       s->npoints, s->npoints - 1, i), 2;
    sw_point(s, i, &p);
    sw_point_sets(s, &p, sets, sizeof sets);
    memset(&o, 0, sizeof o);
    if (sw_point_opts(s, &p, &o, buf, sizeof buf))
        return fprintf(stderr, "gpusim sweep: point %lu: too many sets (%s)\n", i, sets), 2;
    if (points_dir(dir))
        return 2;                      /* before the run, not after it */
    o.cache = cache;
    if (p.kernel)
        mech_run(&o, p.mech, p.kernel, &r);
    else
        app_run(&o, p.mech, p.app, &r);
    printf("point %lu: %s %s %s sets %s size %s: %s", i, sw_point_name(&p), p.mech->name,
           p.config, sets, p.size == BENCH_TEST ? "test" : "default", mech_result_word(r.rc));
    printf(r.rc == MECH_NA ? "\n" : ", %llu cycles\n", (unsigned long long)r.st.cycles);
    if (r.rc)                          /* why it failed, or why the mechanism does not apply */
        fprintf(stderr, "gpusim sweep: point %lu: %s: %s%s\n", i, sw_point_name(&p),
                r.rc == MECH_NA ? "n/a: " : "", result_msg(&r));
    int rc = write_point(dir, s, &p, &r) ? 2 : r.rc == MECH_NA ? 0 : r.rc;
    result_free(&r);
    return rc;
}

/* The row of point i from its file, or NULL (said why) when the file is missing or holds
   another point; *result: its result column. */
static const char *point_row(const struct sw_spec *s, unsigned long i, const char *text,
                             const char *path, const char **result)
{
    struct sw_point p;
    struct membuf m;
    char *key;
    size_t hl = strlen(SW_HEADER);
    const char *row = text && !strncmp(text, SW_HEADER, hl) ? text + hl : NULL, *nl;
    if (!row) {
        if (text)
            fprintf(stderr, "gpusim sweep: %s: not a point file\n", path);
        return NULL;
    }
    sw_point(s, i, &p);
    if (!mem_open(&m))
        return NULL;
    write_key(m.f, s, &p, ",");
    if (!(key = mem_close(&m)))
        return NULL;
    if (strncmp(row, key, strlen(key)) || !(nl = strchr(row, '\n')) || nl[1]) {
        fprintf(stderr, "gpusim sweep: %s is not point %lu of %s (%s...)\n", path, i, s->path, key);
        row = NULL;
    }
    *result = row ? row + strlen(key) : NULL;
    free(key);
    return row;
}

/* The points flagged, and how to run them again (on Slurm too when DIR has its script). */
static void say_ranges(const char *what, const unsigned char *flag, unsigned long n,
                       const char *spec, const char *dir)
{
    char *r = sw_ranges(flag, n), script[PATH_MAX];
    snprintf(script, sizeof script, "%.3000s/sweep.sbatch", dir);
    fprintf(stderr, "gpusim sweep: %s points: %s\n  run them again: gpusim sweep %s --point I "
            "--out %s for each", what, r ? r : "?", spec, dir);
    if (!access(script, R_OK))
        fprintf(stderr, ", or sbatch --array=%s %s", r ? r : "?", script);
    fprintf(stderr, "; then gpusim sweep %s --merge --out %s\n", spec, dir);
    free(r);
}

struct merge_state { unsigned char *missing, *failed; unsigned long nmissing, nfailed, nna; };

/* Point i's row appended to f, or flagged missing/failed in m. */
static void merge_one(const struct sw_spec *s, const char *dir, unsigned long i, FILE *f,
                      struct merge_state *m)
{
    char path[PATH_MAX], *text, err[PATH_MAX + 100];
    const char *row, *res;
    snprintf(path, sizeof path, "%.3000s/points/%lu.csv", dir, i);
    text = infile_read(path, "a point file", SW_MAX_POINT_BYTES, NULL, err, sizeof err);
    if (!text && !access(path, F_OK))
        fprintf(stderr, "gpusim sweep: %s\n", err);   /* there, but not a file to read */
    if (!(row = point_row(s, i, text, path, &res)))
        m->missing[i] = 1, m->nmissing++;
    else {
        fputs(row, f);
        m->nna += !strncmp(res, "n/a,", 4);
        if (strncmp(res, "ok,", 3) && strncmp(res, "n/a,", 4))
            m->failed[i] = 1, m->nfailed++;
    }
    free(text);
}

/* gpusim sweep SPEC --merge --out DIR: 0 all correct, 1 a point wrong or in error, 2 a point
   missing (results.csv then not written). */
static int merge(const struct sw_spec *s, const char *dir)
{
    struct merge_state m = {calloc(s->npoints, 1), calloc(s->npoints, 1), 0, 0, 0};
    struct membuf out;
    char path[PATH_MAX], *text;
    int rc = 2;
    snprintf(path, sizeof path, "%.3000s/results.csv", dir);
    if (m.missing && m.failed && mem_open(&out)) {
        fputs(SW_HEADER, out.f);
        for (unsigned long i = 0; i < s->npoints; i++)
            merge_one(s, dir, i, out.f, &m);
        text = mem_close(&out);
        if (m.nmissing) {
            unlink(path);                         /* never a stale or partial results.csv */
            say_ranges("missing", m.missing, s->npoints, s->path, dir);
        } else if (text && !write_atomic(path, text)) {
            printf("gpusim sweep: %lu points: %lu correct, %lu n/a (the mechanism does not apply), "
                   "%lu wrong or in error -> %s\n", s->npoints, s->npoints - m.nfailed - m.nna,
                   m.nna, m.nfailed, path);
            fflush(stdout);            /* the summary before the names, in a log too */
            if (m.nfailed)
                say_ranges("failed", m.failed, s->npoints, s->path, dir);
            rc = m.nfailed ? 1 : 0;
        }
        free(text);
    }
    free(m.missing);
    free(m.failed);
    return rc;
}

char *sw_ranges(const unsigned char *bad, unsigned long n)
{
    struct membuf m;
    const char *sep = "";
    if (!mem_open(&m))
        return NULL;
    for (unsigned long i = 0; i < n; i++) {
        unsigned long j = i;
        if (!bad[i])
            continue;
        while (j + 1 < n && bad[j + 1])
            j++;
        fprintf(m.f, j > i ? "%s%lu-%lu" : "%s%lu", sep, i, j);
        sep = ",";
        i = j;
    }
    return mem_close(&m);
}

static int mkdir_p(const char *dir)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

/* DIR/points emptied of an earlier sweep's files, DIR/results.csv removed. */
static int clear_points(const char *dir)
{
    char path[PATH_MAX];
    struct dirent *e;
    DIR *d;
    snprintf(path, sizeof path, "%.3000s/points", dir);
    if (mkdir_p(path) || !(d = opendir(path)))
        return fprintf(stderr, "gpusim sweep: cannot make %s: %s\n", path, strerror(errno)), -1;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".csv")) {
            snprintf(path, sizeof path, "%.3000s/points/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    snprintf(path, sizeof path, "%.3000s/results.csv", dir);
    unlink(path);
    return 0;
}

/* The absolute paths a run's scripts and commands name. */
struct sw_paths {
    char dir[PATH_MAX], spec[PATH_MAX], logs[PATH_MAX], exe[PATH_MAX], cwd[PATH_MAX],
         cache[PATH_MAX];
};

/* DIR made and cleared, the SPEC as it was read and checked copied to DIR/sweep.spec, r
   filled: 0, or 2 after the error. */
static int prepare(const struct sw_spec *s, const struct sw_args *a, struct sw_run *r,
                   struct sw_paths *p)
{
    ssize_t n;
    int rc;
    if (mkdir_p(a->out) || !realpath(a->out, p->dir))
        return fprintf(stderr, "gpusim sweep: cannot make %s: %s\n", a->out, strerror(errno)), 2;
    snprintf(p->spec, PATH_MAX, "%.3000s/sweep.spec", p->dir);
    snprintf(p->logs, PATH_MAX, "%.3000s/logs", p->dir);
    rc = clear_points(p->dir) || mkdir_p(p->logs) || write_atomic(p->spec, s->raw);
    if (rc || (n = readlink("/proc/self/exe", p->exe, PATH_MAX - 1)) < 0 ||
        !getcwd(p->cwd, PATH_MAX))
        return fprintf(stderr, "gpusim sweep: cannot set up %s\n", p->dir), 2;
    p->exe[n] = 0;
    if (a->cache && (mkdir_p(a->cache) || !realpath(a->cache, p->cache)))
        return fprintf(stderr, "gpusim sweep: cannot make %s: %s\n", a->cache,
                       strerror(errno)), 2;
    *r = (struct sw_run){.spec = p->spec, .dir = p->dir, .exe = p->exe, .cwd = p->cwd,
                         .cache = a->cache ? p->cache : NULL, .jobs = a->jobs,
                         .dry_run = a->dry_run};
    for (int i = 0; i < a->nslurm_opts; i++)
        r->slurm_opts[r->nslurm_opts++] = a->slurm_opts[i];
    return 0;
}

/* GNU parallel on PATH (moreutils has another program of that name). */
static int have_gnu_parallel(void)
{
    char line[256] = "";
    FILE *p = popen("parallel --will-cite --version 2>/dev/null", "r");
    if (!p)
        return 0;
    if (!fgets(line, sizeof line, p))
        line[0] = 0;
    pclose(p);
    return !strncmp(line, "GNU parallel", 12);
}

int sw_parallel_failed(int st)
{
    if (!WIFEXITED(st) || WEXITSTATUS(st) > 101)
        return -1;                     /* a signal; 255: its own error; 127: not started */
    return WEXITSTATUS(st);            /* 1..100 points failed, 101 more than 100 */
}

/* The points through GNU parallel: parallel -j N runs `gpusim sweep DIR/sweep.spec --point I
   --out DIR` for every I in DIR/points.txt. 0, or -1 after saying that parallel did not run
   every point (the merge then names the points it left). */
static int run_parallel(const struct sw_run *r, int jobs)
{
    char list[PATH_MAX], log[PATH_MAX], j[16];
    const char *argv[24];
    int n = 0, st;
    pid_t pid;
    FILE *f;
    snprintf(list, sizeof list, "%.3000s/points.txt", r->dir);
    snprintf(log, sizeof log, "%.3000s/logs/parallel.log", r->dir);
    snprintf(j, sizeof j, "%d", jobs);
    if (!(f = fopen(list, "w")))
        return fprintf(stderr, "gpusim sweep: cannot write %s: %s\n", list, strerror(errno)), -1;
    for (unsigned long i = 0; i < r->npoints; i++)
        fprintf(f, "%lu\n", i);
    if (fclose(f))
        return fprintf(stderr, "gpusim sweep: cannot write %s: %s\n", list, strerror(errno)), -1;
    const char *fixed[] = {"parallel", "--will-cite", "--halt", "never", "-q", "-j", j,
                           "--joblog", log, "-a", list, r->exe, "sweep", r->spec, "--point",
                           "{}", "--out", r->dir};
    for (unsigned k = 0; k < sizeof fixed / sizeof *fixed; k++)
        argv[n++] = fixed[k];
    if (r->cache)
        argv[n++] = "--cache", argv[n++] = r->cache;
    argv[n] = NULL;
    fflush(stdout);
    if ((pid = fork()) == 0) {
        execvp("parallel", (char *const *)argv);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return fprintf(stderr, "gpusim sweep: cannot start GNU parallel: %s\n",
                       strerror(errno)), -1;
    if (sw_parallel_failed(st) < 0)
        return fprintf(stderr, "gpusim sweep: GNU parallel stopped before running every point "
                       "(%s %d; its job log: %s)\n", WIFEXITED(st) ? "exit status" : "signal",
                       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), log), -1;
    return 0;                 /* points that failed (its exit status counts them): the merge's */
}

/* The points without GNU parallel: `jobs` forked processes at a time, each one point. */
static int run_forked(const struct sw_spec *s, const struct sw_run *r, int jobs)
{
    unsigned long next = 0;
    int running = 0;
    while (next < s->npoints || running) {
        pid_t pid = 0;
        if (next < s->npoints && running < jobs) {
            fflush(stdout);
            if ((pid = fork()) == 0) {
                int rc = run_point(s, next, r->dir, r->cache);
                fflush(stdout);
                _exit(rc);
            }
            if (pid > 0) {
                running++, next++;
                continue;
            }
        }
        if (wait(NULL) < 0)
            return fprintf(stderr, "gpusim sweep: cannot fork: %s\n", strerror(errno)), -1;
        running--;
    }
    return 0;
}

/* --dry-run without --slurm: the points as the CSV's first columns, and how they would run. */
static int dry_run(const struct sw_spec *s, const struct sw_args *a, int jobs)
{
    printf("point,config,sets,kernel,mechanism,size\n");
    for (unsigned long i = 0; i < s->npoints; i++) {
        struct sw_point p;
        sw_point(s, i, &p);
        write_key(stdout, s, &p, "\n");
    }
    printf("%lu points; would run: parallel --will-cite -j %d gpusim sweep %s/sweep.spec "
           "--point {} --out %s ::: 0..%lu, then gpusim sweep --merge\n", s->npoints, jobs,
           a->out, a->out, s->npoints - 1);
    return 0;
}

/* A whole sweep, locally or on Slurm. */
static int run_all(const struct sw_spec *s, const struct sw_args *a)
{
    static struct sw_paths paths;      /* 24 KB: not on the stack */
    struct sw_run r;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = a->jobs ? a->jobs : ncpu > 0 ? (int)ncpu : 1, rc, gnu;
    fprintf(stderr, "gpusim sweep: %s: %lu point%s; checking %lu configuration%s\n", s->path,
            s->npoints, s->npoints == 1 ? "" : "s", sw_spec_nconfigs(s),
            sw_spec_nconfigs(s) == 1 ? "" : "s");     /* stdout: --dry-run's CSV */
    if (sw_spec_check(s))
        return 2;
    if (a->dry_run && !a->slurm)
        return dry_run(s, a, jobs);
    if (a->slurm && (!sw_sbatch_path_ok("output directory", a->out) ||
                     !getcwd(paths.cwd, PATH_MAX) ||
                     !sw_sbatch_path_ok("working directory", paths.cwd)))
        return 2;                       /* before DIR is touched */
    if ((rc = prepare(s, a, &r, &paths)))
        return rc;
    r.npoints = s->npoints;
    if (a->slurm)
        return sw_slurm(&r);
    if ((gnu = have_gnu_parallel()))
        printf("gpusim sweep: %lu points through GNU parallel, %d at a time\n", s->npoints, jobs);
    else
        printf("gpusim sweep: GNU parallel is not on PATH (Debian package parallel); %lu points "
               "in forked processes, %d at a time\n", s->npoints, jobs);
    if (gnu)
        run_parallel(&r, jobs);
    else
        run_forked(s, &r, jobs);
    return merge(s, r.dir);            /* always: it names the points failed or missing */
}

int cmd_sweep(int argc, char **argv)
{
    struct sw_args a;
    struct sw_spec s;
    char out[PATH_MAX];
    int rc;
    if ((rc = parse_sweep_args(&a, argc, argv)))
        return rc;
    if (!a.out) {
        snprintf(out, sizeof out, "%s.out", a.spec);
        a.out = out;
    }
    if (sw_spec_load(a.spec, &s))
        return 2;
    if (a.point_given)
        rc = run_point(&s, a.point, a.out, a.cache);
    else if (a.merge)
        rc = merge(&s, a.out);
    else
        rc = run_all(&s, &a);
    sw_spec_free(&s);
    return rc;
}
