/*
 * test_cuda_bench.c -- the bench kernels as ordinary CUDA programs (bench/NAME/app, checked in:
 * make cuda-apps builds them where nvcc exists, so no nvcc is needed here): for every kernel
 * of the suite, `gpusim exec -- bench/NAME/app test` through the runtime library and
 * `gpusim run NAME --size test` give the same per-launch statistics, byte for byte (the
 * --launches CSV of each: every column but host_seconds, the only figure two identical runs
 * differ in, and the call's result, success in the words of each: "ok" and "cudaSuccess"),
 * on gtx480 and under vt = on, dws = revive and vtw = hw with its scheduler (as test_vtw runs
 * VTW). Both must check their results as correct and launch at least once. The strongest test that the library
 * adds nothing of its own: the same allocations in the same order, the same copies, the same
 * launches, the same registers (bench/NAME/app.1.res and app.1.vtw.res, found by the hash of
 * the program's PTX, hold what kernel.res and kernel.vtw.res hold for kernel.ptx).
 */
#include <sys/wait.h>
#include "testutil.h"
#include "bench.h"

#define GPUSIM BUILD_DIR "/gpusim"
#define OUT    BUILD_DIR "/tests/cuda-bench-out"
#define CLEAN  "env -u GPUSIM_SET -u GPUSIM_CONFIG -u GPUSIM_PTX -u GPUSIM_JSON " \
               "-u GPUSIM_LAUNCHES -u GPUSIM_SUMMARY -u GPUSIM_RES_DIR "

/* sh -c "CMD" > OUT/stdout 2> OUT/stderr: the exit status; *out the stdout (malloc'd). */
static int run(char **out, const char *fmt, ...)
{
    char cmd[2048], sh[2300];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(sh, sizeof sh, "( %s ) > " OUT "/stdout 2> " OUT "/stderr", cmd);
    st = system(sh);
    *out = tu_read_file(OUT "/stdout", NULL);
    if (!*out)
        fail_msg("no output of %s", cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The comma-separated fields of one line, cut in place (at most max). */
static int fields(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max; p++) {
        f[n++] = p;
        if (!(p = strchr(p, ',')))
            break;
        *p = 0;
    }
    return n;
}

#define MAX_COLS 1024

/* Whether column `name` of the two rows agrees: host_seconds always; the result when each
   says success in its words; any other column when it is the same. */
static int agree(const char *name, const char *run, const char *app)
{
    if (!strcmp(name, "host_seconds"))
        return 1;
    if (!strcmp(name, "result"))
        return !strcmp(run, "ok") && !strcmp(app, "cudaSuccess");
    return !strcmp(run, app);
}

/* Compare the two CSV texts (cut in place) row by row; 0, or 1 with what differs in msg. */
static int csv_same(char *a, char *b, char *msg, size_t n)
{
    static char *fa[MAX_COLS], *fb[MAX_COLS], *head[MAX_COLS];
    char *sa, *sb, *la = strtok_r(a, "\n", &sa), *lb = strtok_r(b, "\n", &sb);
    int nh, row = 0;
    if (!la || !lb || strcmp(la, lb))
        return snprintf(msg, n, "the headers differ"), 1;
    nh = fields(la, head, MAX_COLS);
    for (;;) {
        la = strtok_r(NULL, "\n", &sa);
        lb = strtok_r(NULL, "\n", &sb);
        if (!la || !lb)
            break;
        row++;
        if (fields(la, fa, MAX_COLS) != nh || fields(lb, fb, MAX_COLS) != nh)
            return snprintf(msg, n, "launch %d: not %d columns", row, nh), 1;
        for (int i = 0; i < nh; i++)
            if (!agree(head[i], fa[i], fb[i]))
                return snprintf(msg, n, "launch %d: %s is %s under gpusim run, %s under "
                                "gpusim exec", row, head[i], fa[i], fb[i]), 1;
    }
    if (la || lb)
        return snprintf(msg, n, "%s has more launches", la ? "gpusim run" : "gpusim exec"), 1;
    if (!row)
        return snprintf(msg, n, "no launch"), 1;
    return 0;
}

/* One kernel under `sets`: "" when the two agree, else what differs (into msg). */
static void one(const struct bench *b, const char *sets, char *msg, size_t n)
{
    char *out_run, *out_app, *a = NULL, *c = NULL, want[128];
    int rr, ra;
    msg[0] = 0;
    snprintf(want, sizeof want, "kernel %s (test size): CORRECT\n", b->name);
    rr = run(&out_run, CLEAN GPUSIM " run %s --size test %s --launches " OUT "/run.csv",
             b->name, sets);
    ra = run(&out_app, CLEAN GPUSIM " exec %s --summary off --launches " OUT "/app.csv -- "
             "bench/%s/app test", sets, b->name);
    if (rr || strncmp(out_run, want, strlen(want)))
        snprintf(msg, n, "gpusim run: exit %d: %.200s", rr, out_run);
    else if (ra || strcmp(out_app, want))
        snprintf(msg, n, "gpusim exec bench/%s/app: exit %d: %.200s", b->name, ra, out_app);
    else if (!(a = tu_read_file(OUT "/run.csv", NULL)) || !(c = tu_read_file(OUT "/app.csv", NULL)))
        snprintf(msg, n, "no statistics file");
    else
        csv_same(a, c, msg, n);
    free(a); free(c); free(out_run); free(out_app);
}

/* Every kernel of the suite under `sets`; every difference named, then the test fails. */
static void all(const char *sets)
{
    unsigned nb, bad = 0;
    const struct bench *const *bs = bench_all(&nb);
    char msg[512];
    assert_true(nb >= 28);
    for (unsigned i = 0; i < nb; i++) {
        one(bs[i], sets, msg, sizeof msg);
        if (msg[0]) {
            print_message("%s (%s): %s\n", bs[i]->name, sets[0] ? sets : "gtx480", msg);
            bad++;
        }
    }
    if (bad)
        fail_msg("%u of %u kernels: gpusim exec bench/NAME/app and gpusim run NAME differ "
                 "(%s)", bad, nb, sets[0] ? sets : "gtx480");
}

static void test_gtx480(void **state) { (void)state; all(""); }
static void test_vt(void **state) { (void)state; all("--set vt=on"); }
static void test_dws(void **state) { (void)state; all("--set dws=revive"); }
static void test_vtw(void **state) { (void)state; all("--set vtw=hw --set sched_policy=vtw"); }

static int setup(void **state)
{
    (void)state;
    return system("rm -rf " OUT " && mkdir -p " OUT) ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtx480),
        cmocka_unit_test(test_vt),
        cmocka_unit_test(test_dws),
        cmocka_unit_test(test_vtw),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, setup, NULL);
}
