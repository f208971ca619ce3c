/*
 * test_apps.c -- applications as workloads (cli/app.c, docs/apps.md): the applications file's
 * reader and its errors (in process), and gpusim report page --apps on three bench kernels
 * as CUDA programs and on tests/cuda's (build/gpusim, as a user runs it): statistics summed
 * over an application's launches, a regrouping not applicable, the second page from the cache, a changed named input run again,
 * and a mechanism that changes a program's output reported as a wrong result unless the
 * applications file ignores the line; gpusim exec --apps FILE --app NAME.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "app.h"

#define T_ BUILD_DIR "/tests/apps-out"
#define GPUSIM BUILD_DIR "/gpusim"

static int setup(void **state)
{
    (void)state;
    return system("rm -rf " T_ " && mkdir -p " T_);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* apps_load on text: its return, the message in err. */
static int load(const char *text, struct apps *as, char *err, size_t n)
{
    put(T_ "/x.apps", text);
    return apps_load(T_ "/x.apps", as, err, n);
}

static void refused(const char *text, const char *msg)
{
    struct apps *as = malloc(sizeof *as);
    char err[1024] = "";
    assert_non_null(as);
    assert_int_equal(load(text, as, err, sizeof err), -1);
    tu_assert_contains(err, msg);
    free(as);
}

static void test_file_read(void **state)
{
    struct apps *as = malloc(sizeof *as);
    char err[1024] = "";
    (void)state;
    assert_non_null(as);
    assert_int_equal(apps_load("tests/data/apps/small.apps", as, err, sizeof err), 0);
    assert_int_equal(as->n, 2);
    assert_string_equal(as->a[0].name, "vadd");
    assert_string_equal(as->a[1].argv[0], "../../cuda/launch/app");
    assert_null(as->a[1].argv[1]);
    tu_assert_contains(as->a[1].prog, "tests/data/apps/../../cuda/launch/app");
    tu_assert_contains(as->a[0].dir, "tests/data/apps");
    assert_int_equal(as->a[1].nignores, 1);
    apps_free(as);
    free(as);
}

/* Every refusal names the file and line. */
static void test_file_errors(void **state)
{
    (void)state;
    refused("run /bin/true\n", "x.apps:1: 'run' before the first 'app' line");
    refused("app a\n  run /bin/true\napp a\n", "x.apps:3: application 'a' named twice");
    refused("app a b\n", "x.apps:1: 'app a b': a name of letters");
    refused("app a\n  run /bin/true\n  colour red\n", "x.apps:3: unknown item 'colour'");
    refused("app a\n  run /bin/true\n  ignore (\n", "x.apps:3: ignore: ");
    refused("app a\n  dir /no/such/dir\n", "x.apps:2: dir /no/such/dir: not a directory");
    refused("\napp a\n", "x.apps:2: application a has no 'run' line");
    refused("app a\n  run ./no-such-program\n", "x.apps:1: ./no-such-program: no such program");
    refused("# nothing\n", "x.apps:1: no application");
    refused("app a\n  run /bin/true\n  input\n", "x.apps:3: 'input' needs a value");
}

/* gpusim report page ARGS > T_/out 2> T_/err: the exit status. */
static int page(const char *args)
{
    char cmd[2048];
    int st;
    snprintf(cmd, sizeof cmd, GPUSIM " report page --out " T_ "/page %s > " T_ "/out 2> "
             T_ "/err", args);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *file(const char *path)
{
    char *s = tu_read_file(path, NULL);
    assert_non_null(s);
    return s;
}

/* Three bench kernels as CUDA programs (tests/data/apps/bench.apps) under base, vt and a
   regrouping; the second page from the cache. vecadd's program has gpusim run vecadd's
   cycles at the test size (test_cuda_bench checks every kernel). */
static void test_page_apps(void **state)
{
    char *out, *md, *csv;
    (void)state;
    assert_int_equal(page("--apps tests/data/apps/bench.apps --mechs vt,rg_sort --cache " T_
                          "/cache"), 0);
    out = file(T_ "/out");
    tu_assert_contains(out, "vecadd       base           ok              1152 cycles");
    tu_assert_contains(out, "9 runs (0 from the cache");
    md = file(T_ "/page/page.md");
    tu_assert_contains(md, "3 applications");
    tu_assert_contains(md, "| nqueens | applications |");
    tu_assert_contains(md, "| vecadd | 1152 | vecadd 100% |");      /* extern "C" kernels */
    csv = file(T_ "/page/page.csv");
    tu_assert_contains(csv, "bfs,applications,rg_sort,regrouping,n/a,");
    free(out);
    free(md);
    free(csv);
    assert_int_equal(page("--apps tests/data/apps/bench.apps --mechs vt,rg_sort --cache " T_
                          "/cache"), 0);
    out = file(T_ "/out");
    tu_assert_contains(out, "9 runs (6 from the cache");     /* n/a is not stored: instant */
    free(out);
}

/* A named input's bytes are in the key: changed, its application runs again. */
static void test_input_changed(void **state)
{
    char apps[1024], *out, *cwd = getcwd(NULL, 0);
    (void)state;
    assert_non_null(cwd);
    snprintf(apps, sizeof apps, "app vadd\n  run %s/tests/cuda/vadd/app\n  input data\n", cwd);
    put(T_ "/in.apps", apps);
    put(T_ "/data", "1\n");
    assert_int_equal(page("--apps " T_ "/in.apps --mechs base --cache " T_ "/cache2"), 0);
    assert_int_equal(page("--apps " T_ "/in.apps --mechs base --cache " T_ "/cache2"), 0);
    out = file(T_ "/out");
    tu_assert_contains(out, "1 runs (1 from the cache");
    free(out);
    put(T_ "/data", "2\n");
    assert_int_equal(page("--apps " T_ "/in.apps --mechs base --cache " T_ "/cache2"), 0);
    out = file(T_ "/out");
    tu_assert_contains(out, "1 runs (0 from the cache");
    free(out);
    free(cwd);
}

/* settings.sh prints the model's settings: under vt its output is not base's, a wrong result
   (exit 1); with the line ignored, correct. */
static void test_output_differs(void **state)
{
    char apps[1024], *err, *cwd = getcwd(NULL, 0);
    (void)state;
    assert_non_null(cwd);
    snprintf(apps, sizeof apps, "app settings\n  run %s/tests/data/apps/settings.sh\n", cwd);
    put(T_ "/set.apps", apps);
    assert_int_equal(page("--apps " T_ "/set.apps --mechs vt --cache none"), 1);
    err = file(T_ "/err");
    tu_assert_contains(err, "settings under vt: its output is not base's");
    free(err);
    snprintf(apps, sizeof apps, "app settings\n  run %s/tests/data/apps/settings.sh\n"
             "  ignore ^settings: \n", cwd);
    put(T_ "/set.apps", apps);
    assert_int_equal(page("--apps " T_ "/set.apps --mechs vt --cache none"), 0);
    free(cwd);
}

/* A program that fails its own check (exit status 1) is a wrong result with its stderr; one
   that leaves no statistics (not run through the model's runtime library) a failed run. */
static void test_exit_status(void **state)
{
    (void)state;
    put(T_ "/fail.apps", "app fails\n  run /bin/true\n");
    assert_int_equal(page("--apps " T_ "/fail.apps --mechs base --cache none"), 1);
    {
        char *err = file(T_ "/err");
        tu_assert_contains(err, "the program left no statistics");
        free(err);
    }
    put(T_ "/fail.apps", "app fails\n  run /bin/false\n");
    assert_int_equal(page("--apps " T_ "/fail.apps --mechs base --cache none"), 1);
    {
        char *err = file(T_ "/err");
        tu_assert_contains(err, "fails base: exit status 1");
        free(err);
    }
}

/* gpusim exec --apps FILE --app NAME: the application's command line in its directory, the
   option paths as given where gpusim started, its ignore lines used by --check (settings.sh
   prints the settings, which differ between the functional and the timing run). */
static void test_exec_app(void **state)
{
    char apps[1024], cmd[2048], *cwd = getcwd(NULL, 0), *json;
    int st;
    (void)state;
    assert_non_null(cwd);
    snprintf(cmd, sizeof cmd, GPUSIM " exec --json " T_ "/e.json --apps "
             "tests/data/apps/small.apps --app vadd > " T_ "/out 2>&1");
    assert_int_equal(system(cmd), 0);
    json = file(T_ "/e.json");
    tu_assert_contains(json, "\"cycles\": 1152");
    free(json);
    snprintf(apps, sizeof apps, "app settings\n  run %s/tests/data/apps/settings.sh\n", cwd);
    put(T_ "/set.apps", apps);
    st = system(GPUSIM " exec --check --apps " T_ "/set.apps --app settings > " T_ "/out 2>&1");
    assert_int_equal(WEXITSTATUS(st), 1);
    snprintf(apps, sizeof apps, "app settings\n  run %s/tests/data/apps/settings.sh\n"
             "  ignore ^settings: \n", cwd);
    put(T_ "/set.apps", apps);
    st = system(GPUSIM " exec --check --apps " T_ "/set.apps --app settings > " T_ "/out 2>&1");
    assert_int_equal(WEXITSTATUS(st), 0);
    st = system(GPUSIM " exec --apps " T_ "/set.apps --app nope > " T_ "/out 2>&1");
    assert_int_equal(WEXITSTATUS(st), 2);
    json = file(T_ "/out");
    tu_assert_contains(json, "--app: no application 'nope' in " T_ "/set.apps");
    free(json);
    st = system(GPUSIM " exec --apps " T_ "/set.apps --app settings -- /bin/true > " T_
                "/out 2>&1");
    assert_int_equal(WEXITSTATUS(st), 2);
    free(cwd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_read),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_page_apps),
        cmocka_unit_test(test_input_changed),
        cmocka_unit_test(test_output_differs),
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_exec_app),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, setup, NULL);
}
