/*
 * test_sweep.c -- gpusim sweep (cli/sweep*.c, docs/sweeps.md) as a user meets it: SPEC errors
 * name their line and stop before anything runs; a 2x2x2 sweep through the real GNU parallel
 * whose rows equal `gpusim run` of the same point and the forked fallback's; the merge naming a
 * missing, stale or failed point; the Slurm scripts; and a sweep end to end on a real
 * single-node Slurm that tools/slurm_local.sh starts here. Where that Slurm cannot start, the
 * test prints the daemon's own reason and is skipped.
 */
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"

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

/* --slurm --dry-run: the array and merge scripts, nothing submitted. */
static void test_slurm_scripts(void **state)
{
    char *a, *m;
    (void)state;
    write_file("s.spec", SPEC222);
    check_out(run(GPUSIM " sweep %s/s.spec --slurm --dry-run --jobs 3 --out %s/s --slurm-opt "
                  "--partition=short --slurm-opt --time=00:05:00", tmp, tmp), 0,
              "sbatch --parsable --dependency=afterany:$jobid");
    a = slurp("s/sweep.sbatch");
    m = slurp("s/merge.sbatch");
    tu_assert_contains(a, "#!/bin/sh\n");
    tu_assert_contains(a, "\n#SBATCH --array=0-7%3\n");
    tu_assert_contains(a, "\n#SBATCH --partition=short\n#SBATCH --time=00:05:00\n");
    tu_assert_contains(a, "/gpusim' sweep '");
    tu_assert_contains(a, "/s/sweep.spec' --point \"$SLURM_ARRAY_TASK_ID\" --out '");
    tu_assert_contains(m, "/s/logs/merge.out\n");
    tu_assert_contains(m, "/s/sweep.spec' --merge --out '");
    assert_true(exists("s/sweep.spec"));
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
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_local_parallel),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_slurm_scripts),
        cmocka_unit_test_teardown(test_slurm_real, slurm_teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
