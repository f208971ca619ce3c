/*
 * test_sweep.c -- gpusim sweep (cli/sweep*.c, docs/sweeps.md). Fast unit tests first, calling
 * the SPEC parser and the checks directly (build/libcli.a): a SPEC that is not text, not a
 * regular file or too large is refused at once; a value given twice on a line is refused
 * naming it; a sweep of more than SW_MAX_POINTS points is refused; GNU parallel's exit status
 * read; --slurm-opt lines. Then the command as a user meets it: SPEC errors
 * name their line and stop before anything runs; a 2x2x2 sweep through the real GNU parallel
 * whose rows equal `gpusim run` of the same point and the forked fallback's; the merge naming a
 * missing, stale or failed point; the Slurm scripts; and a sweep end to end on a real
 * single-node Slurm that tools/slurm_local.sh starts here. Where that Slurm cannot start, the
 * test prints the daemon's own reason and is skipped.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "sweep.h"

#define GPUSIM BUILD_DIR "/gpusim"

static char tmp[64];                 /* this run's scratch directory */

/* Run a command (printf-style) with stdout and stderr into tmp/out; its exit status. */
static int __attribute__((format(printf, 1, 2))) run(const char *fmt, ...)
{
    char cmd[4096], full[4300];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "( %s ) > %s/out 2>&1", cmd, tmp);
    st = system(full);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A file under tmp, whole (NULL if missing). */
static char *slurp(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    return tu_read_file(path, NULL);
}

/* The last command's output must hold `text` and its status be `status`. */
static void check_out(int got, int status, const char *text)
{
    char *out = slurp("out");
    if (got != status) {
        print_error("exited %d, expected %d; output:\n%s\n", got, status, out ? out : "");
        fail();
    }
    if (text)
        tu_assert_contains(out, text);
    free(out);
}

/* The last command's output holds text too. */
static void out_has(const char *text)
{
    char *out = slurp("out");
    tu_assert_contains(out, text);
    free(out);
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    assert_non_null(f = fopen(path, "w"));
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int exists(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    return access(path, F_OK) == 0;
}

static unsigned count_lines(const char *t)
{
    unsigned n = 0;
    for (; t && *t; t++)
        n += *t == '\n';
    return n;
}

/* Field k (0-based) of the CSV row that starts with "I," in text (no quoted fields). */
static unsigned long long field(const char *text, unsigned i, unsigned k)
{
    char start[32];
    const char *p;
    snprintf(start, sizeof start, "\n%u,", i);
    p = strstr(text, start);
    assert_non_null(p);
    for (p++; k--; p = strchr(p, ',') + 1)
        assert_non_null(strchr(p, ','));
    return strtoull(p, NULL, 10);
}

/* The text without the last column of each line (host_seconds, not deterministic). */
static char *without_host_seconds(char *t)
{
    char *r = t, *w = t;
    assert_non_null(t);
    while (*r) {
        char *nl = strchr(r, '\n'), *comma = r;
        for (char *c = r; c < nl; c++)
            if (*c == ',')
                comma = c;
        memmove(w, r, (size_t)(comma - r));
        w += comma - r;
        *w++ = '\n';
        r = nl + 1;
    }
    *w = 0;
    return t;
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(tmp, sizeof tmp, "/tmp/gpusim-sweep.XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int group_teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd) ? -1 : 0;
}

/* ------------------------------------------------------------------ unit tests */

/* sw_spec_load of `path` with its stderr into msg (n bytes): its return value. */
static int load_path(const char *path, struct sw_spec *s, char *msg, size_t n)
{
    char errf[128];
    int saved, fd, rc;
    FILE *f;
    snprintf(errf, sizeof errf, "%s/stderr", tmp);
    fflush(stderr);
    saved = dup(2);
    assert_true((fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0);
    dup2(fd, 2);
    close(fd);
    rc = sw_spec_load(path, s);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_non_null(f = fopen(errf, "r"));
    msg[fread(msg, 1, n - 1, f)] = 0;
    fclose(f);
    return rc;
}

/* len bytes of SPEC text written to tmp/u.spec and loaded: as load_path. */
static int load_text(const char *text, size_t len, struct sw_spec *s, char *msg, size_t n)
{
    char path[128];
    FILE *f;
    snprintf(path, sizeof path, "%s/u.spec", tmp);
    assert_non_null(f = fopen(path, "w"));
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return load_path(path, s, msg, n);
}

/* A SPEC refused: exit status 2 and msg holds `want` (after "u.spec"). */
static void refused(const char *text, size_t len, const char *want)
{
    struct sw_spec s;
    char msg[4096], full[512];
    int rc = load_text(text, len, &s, msg, sizeof msg);
    snprintf(full, sizeof full, "u.spec%s", want);
    if (rc != 2)
        print_error("%s: accepted (%lu points), expected: %s\n", text, s.npoints, want);
    assert_int_equal(rc, 2);
    tu_assert_contains(msg, full);
    sw_spec_free(&s);
}
#define REFUSED(lit, want) refused(lit, sizeof lit - 1, want)
#define ACCEPTED(lit, s, msg) assert_int_equal(load_text(lit, sizeof lit - 1, s, msg, sizeof msg), 0)

/* A NUL byte ended the SPEC silently, so what followed it was never read; a control
   character; a SPEC that is not a regular file (a FIFO blocked, /dev/zero read its first
   byte) or larger than the bound. Lines ending in CR LF are fine. */
static void test_spec_not_text(void **state)
{
    struct sw_spec s;
    char msg[4096], path[128], *big;
    (void)state;
    REFUSED("kernels: vecadd\nsize: test\0\nmechanisms: nosuch\n", ":2: a NUL byte");
    REFUSED("# a\0b\nkernels: vecadd\n", ":1: a NUL byte");
    REFUSED("kernels: vecadd\x01\n", ":1: a control character (byte 0x01)");
    REFUSED("kernels: vecadd\nsize: test\x1b[2J\n", ":2: a control character (byte 0x1b)");
    ACCEPTED("kernels: vecadd\r\nsize: test\r\n", &s, msg);
    assert_int_equal(s.npoints, 1);
    sw_spec_free(&s);
    assert_int_equal(load_path("/dev/zero", &s, msg, sizeof msg), 2);
    tu_assert_contains(msg, "/dev/zero: cannot read the SPEC file: a character device, not a "
                       "regular file");
    assert_int_equal(load_path(tmp, &s, msg, sizeof msg), 2);
    tu_assert_contains(msg, "a directory, not a regular file");
    snprintf(path, sizeof path, "%s/fifo.spec", tmp);
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(30);                        /* a reader blocked on the FIFO: the test dies, fails */
    assert_int_equal(load_path(path, &s, msg, sizeof msg), 2);
    alarm(0);
    tu_assert_contains(msg, "fifo.spec: cannot read the SPEC file: a FIFO, not a regular file");
    assert_non_null(big = malloc(SW_MAX_SPEC_BYTES + 2));
    memset(big, '#', SW_MAX_SPEC_BYTES + 1);
    memcpy(big, "kernels: vecadd\n", 16);
    assert_int_equal(load_text(big, SW_MAX_SPEC_BYTES + 1, &s, msg, sizeof msg), 2);
    tu_assert_contains(msg, "u.spec: cannot read the SPEC file: larger than 1 MiB");
    free(big);
}

/* A value given twice on a line made the same points twice: now an error naming it. */
static void test_spec_twice(void **state)
{
    struct sw_spec s;
    char msg[4096];
    unsigned nsuite;
    (void)state;
    REFUSED("kernels: vecadd reduce vecadd\n", ":1: kernels: 'vecadd' twice");
    REFUSED("\nkernels: all vecadd\n", ":2: kernels: 'vecadd' twice ('all' names it already)");
    REFUSED("kernels: vecadd all\n", ":1: kernels: 'all' names 'vecadd' again");
    REFUSED("kernels: all all\n", ":1: kernels: 'all' twice");
    REFUSED("kernels: vecadd\nmechanisms: base lrr base\n", ":2: mechanisms: 'base' twice");
    REFUSED("kernels: vecadd\nsize: default test default\n", ":2: size: 'default' twice");
    REFUSED("kernels: vecadd\nsize: test default default\n", ":2: size: 'default' twice");
    REFUSED("kernels: vecadd\nconfigs: configs/gtx480.cfg configs/kepler.cfg "
            "configs/gtx480.cfg\n", ":2: configs: 'configs/gtx480.cfg' twice");
    REFUSED("kernels: vecadd\nset: num_sms=2 num_sms=4 num_sms=2\n", ":2: set: 'num_sms=2' "
            "twice");
    REFUSED("kernels: vecadd\nset: - num_sms=2 -\n", ":2: set: '-' twice");
    REFUSED("kernels: vecadd\nset: - l1_sets=32,num_sms=2 num_sms=2,l1_sets=32\n", ":2: set: "
            "'l1_sets=32,num_sms=2' and 'num_sms=2,l1_sets=32' are the same alternative");
    REFUSED("kernels: vecadd\nset: num_sms=2,l1_sets=32,num_sms=4\n", ":2: set: key 'num_sms' "
            "twice in the alternative 'num_sms=2,l1_sets=32,num_sms=4'");
    /* different values of one key, and one key on two lines (the later wins), are fine */
    ACCEPTED("kernels: vecadd reduce\nset: num_sms=2 num_sms=4 num_sms=02\n"
             "set: l1_sets=32,num_sms=2 num_sms=8\nsize: test default\n", &s, msg);
    assert_int_equal(s.npoints, 2 * 3 * 2 * 2);
    sw_spec_free(&s);
    ACCEPTED("kernels: rgwork_alt all\n", &s, msg);      /* outside the suite */
    bench_all(&nsuite);
    assert_int_equal(s.npoints, nsuite + 1);
    sw_spec_free(&s);
}

/* A 10 M-point SPEC was taken (and then checked for minutes without a word): more than
   SW_MAX_POINTS points is refused at once, naming the count and the axes. */
static void test_spec_points_bound(void **state)
{
    struct membuf_s { char *t; size_t n; FILE *f; } m = {NULL, 0, NULL};
    struct sw_spec s;
    char msg[4096];
    (void)state;
    assert_non_null(m.f = open_memstream(&m.t, &m.n));
    fprintf(m.f, "kernels: vecadd\nset:");
    for (int i = 1; i <= 4000; i++)
        fprintf(m.f, " max_warp_insns=%d", i);
    fprintf(m.f, "\nset:");
    for (int i = 1; i <= 2500; i++)
        fprintf(m.f, " max_warp_age=%d", i);
    fprintf(m.f, "\n");
    assert_int_equal(fclose(m.f), 0);
    assert_int_equal(load_text(m.t, m.n, &s, msg, sizeof msg), 2);
    tu_assert_contains(msg, "u.spec: 10000000 points (1 config x 4000 x 2500 set alternatives x "
                       "1 size x 1 kernel x 1 mechanism), more than the 1000000 a sweep takes");
    free(m.t);
    /* 1000 x 1000 is the most, parsed at once; 10 x 100 checked */
    assert_non_null(m.f = open_memstream(&m.t, &m.n));
    fprintf(m.f, "kernels: vecadd\nset:");
    for (int i = 1; i <= 1000; i++)
        fprintf(m.f, " max_warp_insns=%d", i);
    fprintf(m.f, "\nset:");
    for (int i = 1; i <= 1000; i++)
        fprintf(m.f, " max_warp_age=%d", i);
    fprintf(m.f, "\n");
    assert_int_equal(fclose(m.f), 0);
    assert_int_equal(load_text(m.t, m.n, &s, msg, sizeof msg), 0);
    assert_int_equal(s.npoints, SW_MAX_POINTS);
    sw_spec_free(&s);
    free(m.t);
}

/* The parser on a buffer: nothing read or run, the error on the caller's stream. */
static void test_spec_parse_buffer(void **state)
{
    static const char spec[] = "configs: no/such.cfg\nkernels: vecadd reduce\n"
                               "set: num_sms=2 num_sms=4\nmechanisms: base lrr\n";
    struct sw_spec s;
    struct sw_point p;
    char *t = NULL;
    size_t n = 0;
    FILE *f;
    (void)state;
    assert_int_equal(sw_spec_parse(&s, "buf", spec, sizeof spec - 1, NULL), 0);
    assert_int_equal(s.npoints, 8);
    assert_int_equal(sw_spec_nconfigs(&s), 4);
    sw_point(&s, 5, &p);
    assert_string_equal(p.set[0], "num_sms=4");
    assert_string_equal(p.kernel->name, "vecadd");
    assert_string_equal(p.mech->name, "lrr");
    assert_string_equal(s.raw, spec);
    sw_spec_free(&s);
    assert_non_null(f = open_memstream(&t, &n));
    assert_int_equal(sw_spec_parse(&s, "buf", "kernels: x\n", 11, f), 2);
    assert_int_equal(fclose(f), 0);
    assert_string_equal(t, "gpusim sweep: buf:1: kernels: no bench kernel named 'x' (gpusim "
                        "list shows them)\n");
    sw_spec_free(&s);
    free(t);
}

/* The wait status of a child that exits with `code`. */
static int exit_status(int code)
{
    pid_t pid = fork();
    int st;
    if (pid == 0)
        _exit(code);
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

/* GNU parallel's exit status counts the failed jobs up to 101 (more than 100); 101 was read
   as "did not run the points", so a sweep with over 100 failing points lost its merge. */
static void test_parallel_status(void **state)
{
    pid_t pid;
    int st;
    (void)state;
    assert_int_equal(sw_parallel_failed(exit_status(0)), 0);
    assert_int_equal(sw_parallel_failed(exit_status(1)), 1);
    assert_int_equal(sw_parallel_failed(exit_status(100)), 100);
    assert_int_equal(sw_parallel_failed(exit_status(101)), 101);
    assert_int_equal(sw_parallel_failed(exit_status(127)), -1);   /* exec failed */
    assert_int_equal(sw_parallel_failed(exit_status(255)), -1);   /* its own error */
    if ((pid = fork()) == 0) {
        pause();
        _exit(0);
    }
    kill(pid, SIGTERM);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_int_equal(sw_parallel_failed(st), -1);
}

/* An --slurm-opt with a newline became a line of the batch script of its own. */
static void test_slurm_opt(void **state)
{
    (void)state;
    assert_true(sw_slurm_opt_ok("--partition=short"));
    assert_true(sw_slurm_opt_ok("--comment=a b"));
    assert_false(sw_slurm_opt_ok("--partition=short\nrm -rf ~"));
    assert_false(sw_slurm_opt_ok("--time=1\r"));
    assert_false(sw_slurm_opt_ok("--time=1\t2"));
    assert_false(sw_slurm_opt_ok(""));
    assert_false(sw_sbatch_path_ok("output directory", "/tmp/a\rb"));
    write_file("o.spec", "kernels: vecadd\n");
    check_out(run(GPUSIM " sweep %s/o.spec --slurm --dry-run --out %s/o --slurm-opt "
                  "\"$(printf -- '--partition=x\\necho injected')\"", tmp, tmp), 2,
              "--slurm-opt: a control character (byte 0x0a) in the option");
    assert_false(exists("o"));
}

/* ------------------------------------------------------------------ the command */

/* A bad SPEC: exit 2, the message names SPEC:LINE, and nothing was made or run. */
static void bad_spec(const char *text, const char *msg)
{
    char want[512];
    write_file("bad.spec", text);
    snprintf(want, sizeof want, "%s/bad.spec%s", tmp, msg);
    check_out(run(GPUSIM " sweep %s/bad.spec --out %s/bad", tmp, tmp), 2, want);
    assert_false(exists("bad"));
}

static void test_spec_errors(void **state)
{
    (void)state;
    bad_spec("kernels: vecadd\nfoo: 1\n", ":2: unknown key 'foo'");
    bad_spec("# c\nkernels: vecadd nosuch\n", ":2: kernels: no bench kernel named 'nosuch'");
    bad_spec("kernels: vecadd\n\nmechanisms: base warp9\n", ":3: mechanisms: unknown mechanism "
             "'warp9' (the mechanisms: base, lrr");
    bad_spec("kernels: vecadd\nset: num_sms=2 num_smz=4\n", ":2: configuration configs/gtx480.cfg,"
             " sets num_smz=4, mechanism base: --set: unknown configuration key 'num_smz'");
    bad_spec("kernels: vecadd\nset: - l1_sets=32\nset: - num_sms=0\n", ":3: configuration "
             "configs/gtx480.cfg, sets num_sms=0, mechanism base: --set: key 'num_sms': 0 is out");
    bad_spec("kernels: vecadd\nset: num_sms=2,\n", ":2: set: an alternative is K=V[,K=V...] or -,"
             " not 'num_sms=2,'");
    bad_spec("kernels:   # none\n", ":1: 'kernels:' has no values");
    bad_spec("kernels: vecadd\nsize: test\nkernels: reduce\n", ":3: 'kernels:' given again "
             "(first on line 1)");
    bad_spec("set: num_sms=2\n", ": no 'kernels:' line");
    bad_spec("kernels: vecadd\nsize: huge\n", ":2: size: must be test or default, not 'huge'");
    bad_spec("kernels: vecadd\nconfigs: configs/gtx480.cfg no/such.cfg\n", ":2: configuration "
             "no/such.cfg, sets -, mechanism base: no/such.cfg: cannot read configuration");
    bad_spec("kernels vecadd\n", ":1: expected 'key: values', not 'kernels vecadd'");
    bad_spec("apps: tests/data/apps/small.apps vadd nosuch\n", ":1: apps: no application "
             "'nosuch' in tests/data/apps/small.apps");
    bad_spec("apps: tests/data/apps/small.apps vadd vadd\n", ":1: apps: 'vadd' twice");
    bad_spec("apps: no/such.apps\n", ":1: apps: no/such.apps: cannot read");
    write_file("k.apps", "app vecadd\n  run /bin/true\n");
    {
        char text[512], want[512];
        snprintf(text, sizeof text, "kernels: vecadd\napps: %s/k.apps\n", tmp);
        write_file("bad.spec", text);
        snprintf(want, sizeof want, "%s/bad.spec:2: apps: application 'vecadd' has the name of "
                 "a kernel of the sweep", tmp);
        check_out(run(GPUSIM " sweep %s/bad.spec --out %s/bad", tmp, tmp), 2, want);
    }
    check_out(run(GPUSIM " sweep %s/none.spec", tmp), 2, "none.spec: cannot read the SPEC file");
    check_out(run(GPUSIM " sweep %s/bad.spec --set num_sms=2", tmp), 2, "--set, --config and "
              "--size belong in SPEC");
    check_out(run(GPUSIM " sweep %s/bad.spec --point 1", tmp), 2, "need --out DIR");
    check_out(run(GPUSIM " --help"), 0, "gpusim sweep SPEC --slurm");
}

#define SPEC222 "# 2 set alternatives x 2 kernels x 2 mechanisms\nkernels: vecadd reduce\n" \
                "set: num_sms=2 num_sms=4\nmechanisms: base lrr\n"

/* The 2x2x2 sweep through GNU parallel: 8 rows in point order, all correct; point 5
   (num_sms=4, vecadd, lrr) has the cycles of `gpusim run` of the same point; the fallback
   without parallel writes the same rows. */
static void test_local_parallel(void **state)
{
    char *res, *json, *fb, *c;
    (void)state;
    check_out(run("parallel --will-cite --version"), 0, "GNU parallel");   /* make deps */
    write_file("a.spec", SPEC222);
    check_out(run(GPUSIM " sweep %s/a.spec --out %s/a --jobs 2", tmp, tmp), 0,
              "8 points through GNU parallel, 2 at a time");
    out_has("8 points: 8 correct, 0 n/a (the mechanism does not apply), 0 wrong");
    res = slurp("a/results.csv");
    tu_assert_contains(res, "point,config,sets,kernel,mechanism,size,result,cycles,warp_insns,ipc,"
                       "thread_insns,lane_util,host_seconds\n0,configs/gtx480.cfg,num_sms=2,"
                       "vecadd,base,test,ok,");
    assert_int_equal(count_lines(res), 9);
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(field(res, i, 0), i);
    for (c = strchr(res, '\n') + 1; *c; c = strchr(c, '\n') + 1)
        tu_assert_contains(c, ",test,ok,");
    tu_assert_contains(res, "\n5,configs/gtx480.cfg,num_sms=4,vecadd,lrr,test,ok,");
    check_out(run(GPUSIM " run vecadd --size test --set num_sms=4 --set sched_policy=lrr --json "
                  "%s/p5.json", tmp), 0, NULL);
    json = slurp("p5.json");
    assert_non_null(c = strstr(json, "\"cycles\": "));
    assert_int_equal(strtoull(c + strlen("\"cycles\": "), NULL, 10), field(res, 5, 7));
    assert_true(field(res, 5, 7) > 0);
    check_out(run("env PATH=/nonexistent " GPUSIM " sweep %s/a.spec --out %s/fb --jobs 2", tmp,
                  tmp), 0, "GNU parallel is not on PATH (Debian package parallel); 8 points in "
              "forked processes, 2 at a time");
    fb = slurp("fb/results.csv");
    assert_string_equal(without_host_seconds(fb), without_host_seconds(res));
    free(res);
    free(json);
    free(fb);
}

/* Applications as a sweep's workloads (docs/apps.md): after the kernels in point order, run
   through the runtime library, their statistics summed over their launches; tests/cuda's vadd
   runs the bench kernel vecadd's launch at the test size, so its row has vecadd's cycles. */
static void test_apps_points(void **state)
{
    char *res;
    (void)state;
    write_file("apps.spec", "kernels: vecadd\napps: tests/data/apps/small.apps vadd\n"
               "mechanisms: base vt\n");
    check_out(run(GPUSIM " sweep %s/apps.spec --out %s/apps --jobs 2", tmp, tmp), 0,
              "4 points: 4 correct");
    res = slurp("apps/results.csv");
    tu_assert_contains(res, "\n2,configs/gtx480.cfg,-,vadd,base,test,ok,");
    tu_assert_contains(res, "\n3,configs/gtx480.cfg,-,vadd,vt,test,ok,");
    assert_true(field(res, 2, 7) > 0);
    assert_int_equal(field(res, 2, 7), field(res, 0, 7));
    free(res);
}

/* The merge: a missing point is named and no results.csv is left; a point file of another
   sweep is refused; a point in error makes the merge exit 1 and is named. */
static void test_merge(void **state)
{
    char *res;
    (void)state;
    write_file("m.spec", SPEC222);
    check_out(run(GPUSIM " sweep %s/m.spec --out %s/m --jobs 2", tmp, tmp), 0, NULL);
    check_out(run("rm %s/m/points/3.csv && " GPUSIM " sweep %s/m.spec --merge --out %s/m", tmp,
                  tmp, tmp), 2, "missing points: 3\n");
    assert_false(exists("m/results.csv"));
    check_out(run(GPUSIM " sweep %s/m.spec --point 3 --out %s/m && " GPUSIM " sweep %s/m.spec "
                  "--merge --out %s/m", tmp, tmp, tmp, tmp), 0, "8 points: 8 correct");
    check_out(run("cp %s/m/points/2.csv %s/m/points/6.csv; " GPUSIM " sweep %s/m.spec --merge "
                  "--out %s/m", tmp, tmp, tmp, tmp), 2, "m/points/6.csv is not point 6 of");
    out_has("missing points: 6\n");
    write_file("f.spec", "kernels: vecadd\nset: - max_warp_insns=10\n");
    check_out(run(GPUSIM " sweep %s/f.spec --out %s/f", tmp, tmp), 1, "failed points: 1\n");
    res = slurp("f/results.csv");
    tu_assert_contains(res, "\n0,configs/gtx480.cfg,-,vecadd,base,test,ok,");
    tu_assert_contains(res, "\n1,configs/gtx480.cfg,max_warp_insns=10,vecadd,base,test,ERROR,");
    free(res);
}

/* More than 100 failing points (GNU parallel then exits 101): the sweep said "GNU parallel did
   not run the points" and skipped the merge. 102 points that each stop at once (the
   max_warp_insns watchdog after 1..102 instructions): all merged, all named. */
static void test_many_failed_points(void **state)
{
    char *res;
    FILE *f;
    char path[128];
    (void)state;
    snprintf(path, sizeof path, "%s/many.spec", tmp);
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "kernels: vecadd\nset:");
    for (int i = 1; i <= 102; i++)
        fprintf(f, " max_warp_insns=%d", i);
    fprintf(f, "\n");
    assert_int_equal(fclose(f), 0);
    check_out(run(GPUSIM " sweep %s/many.spec --out %s/many --jobs 2", tmp, tmp), 1,
              "102 points through GNU parallel");
    out_has("102 points: 0 correct, 0 n/a (the mechanism does not apply), 102 wrong or in "
            "error -> ");
    out_has("failed points: 0-101\n");
    res = slurp("many/results.csv");
    assert_int_equal(count_lines(res), 103);
    tu_assert_contains(res, "\n101,configs/gtx480.cfg,max_warp_insns=102,vecadd,base,test,ERROR,");
    free(res);
}

/* --point into a directory that does not exist yet ran the point, then failed to write it:
   DIR/points is made first, and a DIR that cannot hold it is refused before the run. */
static void test_point_dir(void **state)
{
    char *res;
    (void)state;
    write_file("p.spec", "kernels: vecadd reduce\n");
    check_out(run(GPUSIM " sweep %s/p.spec --point 1 --out %s/fresh/a", tmp, tmp), 0,
              "point 1: reduce base configs/gtx480.cfg sets - size test: ok");
    res = slurp("fresh/a/points/1.csv");
    tu_assert_contains(res, "\n1,configs/gtx480.cfg,-,reduce,base,test,ok,");
    free(res);
    write_file("plain", "");
    check_out(run(GPUSIM " sweep %s/p.spec --point 0 --out %s/plain/a", tmp, tmp), 2,
              "cannot write the point files into ");
    res = slurp("out");
    assert_null(strstr(res, "point 0:"));           /* not run */
    free(res);
}

/* A point file that is a FIFO blocked the merge: it is refused at once, the point missing. */
static void test_merge_fifo(void **state)
{
    char path[128];
    (void)state;
    write_file("q.spec", "kernels: vecadd reduce\n");
    check_out(run("mkdir -p %s/q/points && " GPUSIM " sweep %s/q.spec --point 1 --out %s/q", tmp,
                  tmp, tmp), 0, NULL);
    snprintf(path, sizeof path, "%s/q/points/0.csv", tmp);
    assert_int_equal(mkfifo(path, 0600), 0);
    check_out(run("timeout 20 " GPUSIM " sweep %s/q.spec --merge --out %s/q", tmp, tmp), 2,
              "q/points/0.csv: cannot read a point file: a FIFO, not a regular file");
    out_has("missing points: 0\n");
}

/* --slurm --dry-run: the array and merge scripts, nothing submitted. */
static void test_slurm_scripts(void **state)
{
    char *a, *m;
    (void)state;
    write_file("s.spec", SPEC222);
    check_out(run(GPUSIM " sweep %s/s.spec --slurm --dry-run --jobs 3 --out %s/s --slurm-opt "
                  "--partition=short --slurm-opt --time=00:05:00", tmp, tmp), 0,
              "sbatch --parsable --dependency=afterany:$jobid");
    out_has("s.spec: 8 points; checking 4 configurations\n");
    a = slurp("s/sweep.sbatch");
    m = slurp("s/merge.sbatch");
    tu_assert_contains(a, "#!/bin/sh\n");
    tu_assert_contains(a, "\n#SBATCH --array=0-7%3\n");
    tu_assert_contains(a, "\n#SBATCH --partition=short\n#SBATCH --time=00:05:00\n");
    tu_assert_contains(a, "/gpusim' sweep '");
    tu_assert_contains(a, "/s/sweep.spec' --point \"$SLURM_ARRAY_TASK_ID\" --out '");
    tu_assert_contains(m, "/s/logs/merge.out\n");
    tu_assert_contains(m, "/s/sweep.spec' --merge --out '");
    free(a);
    a = slurp("s/sweep.spec");
    assert_string_equal(a, SPEC222);              /* the SPEC as it was checked */
    free(a);
    free(m);
}

/* The Slurm cluster tools/slurm_local.sh runs in tmp/slurm, stopped by the teardown. */
static int slurm_teardown(void **state)
{
    (void)state;
    if (exists("slurm/slurm.conf"))
        run("tools/slurm_local.sh stop %s/slurm", tmp);
    return 0;
}

/* What a sweep on Slurm left, for a failure message. */
static void slurm_logs(void)
{
    run("export SLURM_CONF=%s/slurm/slurm.conf; squeue; tail -n 5 %s/k/logs/*.out "
        "%s/slurm/slurmctld.log %s/slurm/slurmd.log", tmp, tmp, tmp, tmp);
    char *o = slurp("out");
    print_error("the Slurm sweep did not finish in 120 s:\n%s\n", o ? o : "");
    free(o);
}

/* A 2-point sweep submitted to a real single-node Slurm: the merged rows equal a local run's. */
static void test_slurm_real(void **state)
{
    char *res, *local, *o;
    int rc, i;
    (void)state;
    write_file("k.spec", "kernels: vecadd reduce\n");
    rc = run("tools/slurm_local.sh start %s/slurm", tmp);
    o = slurp("out");
    if (rc == 77) {
        print_message("slurm_real: skipped, Slurm cannot run here: %s", o ? o : "");
        free(o);
        skip();
    }
    if (rc) {
        print_error("tools/slurm_local.sh start exited %d:\n%s\n", rc, o ? o : "");
        fail();
    }
    free(o);
    check_out(run("SLURM_CONF=%s/slurm/slurm.conf " GPUSIM " sweep %s/k.spec --slurm --out %s/k",
                  tmp, tmp, tmp), 0, "2 points as Slurm array job ");
    for (i = 0; i < 120 && !exists("k/results.csv"); i++)
        sleep(1);
    if (!exists("k/results.csv")) {
        slurm_logs();
        fail();
    }
    check_out(run(GPUSIM " sweep %s/k.spec --out %s/kl", tmp, tmp), 0, NULL);
    res = slurp("k/results.csv");
    local = slurp("kl/results.csv");
    assert_int_equal(count_lines(res), 3);
    tu_assert_contains(res, "\n0,configs/gtx480.cfg,-,vecadd,base,test,ok,");
    tu_assert_contains(res, "\n1,configs/gtx480.cfg,-,reduce,base,test,ok,");
    assert_string_equal(without_host_seconds(res), without_host_seconds(local));
    o = slurp("k/logs/merge.out");
    tu_assert_contains(o, "2 points: 2 correct");
    free(o);
    free(res);
    free(local);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_not_text),
        cmocka_unit_test(test_spec_twice),
        cmocka_unit_test(test_spec_points_bound),
        cmocka_unit_test(test_spec_parse_buffer),
        cmocka_unit_test(test_parallel_status),
        cmocka_unit_test(test_slurm_opt),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_point_dir),
        cmocka_unit_test(test_merge_fifo),
        cmocka_unit_test(test_many_failed_points),
        cmocka_unit_test(test_local_parallel),
        cmocka_unit_test(test_apps_points),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_slurm_scripts),
        cmocka_unit_test_teardown(test_slurm_real, slurm_teardown),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
