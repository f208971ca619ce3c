/*
 * test_artcache.c -- the build's artefact cache (tools/artcache.sh; docs/testing.md "Artefact
 * cache"), which keeps the Verilated models of the co-simulation and the Yosys results of the
 * cost checks across builds: an output is made once and then reused for the same inputs; a
 * changed input file, a changed key text (a tool version, a flag) or a removed output makes it
 * again; a failed command is never cached; an entry left incomplete (an interrupted store) is
 * not used; GPUSIM_ARTEFACT_CACHE=none makes it every time. The command here counts its own
 * runs in a file, so every case says how often it ran.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include "testutil.h"

#define DIR BUILD_DIR "/tests/artcache"
#define CACHE DIR "/cache"

/* Run artcache with the input file, the key text and the command's exit status `rc`; the
   output DIR/out/res holds the input's text. Returns artcache's exit status. */
static int run(const char *key, int rc, const char *cache)
{
    char cmd[2048];
    int st;
    snprintf(cmd, sizeof cmd, "GPUSIM_ARTEFACT_CACHE=%s sh tools/artcache.sh t --in " DIR
             "/in.txt --key '%s' --out " DIR "/out/res -- 'mkdir -p " DIR "/out && cp " DIR
             "/in.txt " DIR "/out/res && echo run >> " DIR "/count && exit %d' 2>>" DIR "/log",
             cache, key, rc);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* How many times the command has run. */
static int runs(void)
{
    char *t = tu_read_file(DIR "/count", NULL);
    int n = 0;
    for (char *p = t; p && (p = strstr(p, "run")); p++)
        n++;
    free(t);
    return n;
}

static void write_in(const char *text)
{
    FILE *f = fopen(DIR "/in.txt", "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void assert_out(const char *text)
{
    char *t = tu_read_file(DIR "/out/res", NULL);
    assert_non_null(t);
    assert_string_equal(t, text);
    free(t);
}

static int setup(void **state)
{
    (void)state;
    return system("rm -rf " DIR " && mkdir -p " DIR) ? -1 : 0;
}

/* Made once, then reused, for the same input and key; the copy restored where the build's
   own output was removed (a clean clone). */
static void test_reused(void **state)
{
    (void)state;
    write_in("a\n");
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(runs(), 1);
    assert_out("a\n");
    assert_int_equal(system("rm -rf " DIR "/out"), 0);
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(runs(), 1);
    assert_out("a\n");
}

/* A changed input file or key text makes it again; the earlier one is still there for its
   own inputs. */
static void test_changed_input_rebuilds(void **state)
{
    (void)state;
    write_in("a\n");
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(runs(), 1);
    write_in("b\n");
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(runs(), 2);
    assert_out("b\n");
    assert_int_equal(run("v2", 0, CACHE), 0);           /* another tool version or flag */
    assert_int_equal(runs(), 3);
    write_in("a\n");
    assert_int_equal(run("v1", 0, CACHE), 0);           /* back to the first: reused */
    assert_int_equal(runs(), 3);
    assert_out("a\n");
}

/* A failing command is not cached and its status is artcache's. */
static void test_failure_not_cached(void **state)
{
    (void)state;
    write_in("a\n");
    assert_int_equal(run("v1", 3, CACHE), 3);
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(runs(), 2);
}

/* An entry without its completion marker (a store interrupted) is not used, and is replaced. */
static void test_incomplete_entry(void **state)
{
    (void)state;
    write_in("a\n");
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(system("rm -f " CACHE "/t-*/complete"), 0);
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(runs(), 2);
    assert_int_equal(system("test -f " CACHE "/t-*/complete"), 0);
    assert_int_equal(run("v1", 0, CACHE), 0);
    assert_int_equal(runs(), 2);
}

/* GPUSIM_ARTEFACT_CACHE=none: no cache, the command every time (a fresh machine); a cache
   directory that cannot be made is no error either. */
static void test_no_cache(void **state)
{
    (void)state;
    write_in("a\n");
    assert_int_equal(run("v1", 0, "none"), 0);
    assert_int_equal(run("v1", 0, "none"), 0);
    assert_int_equal(runs(), 2);
    assert_int_equal(system("touch " DIR "/file"), 0);
    assert_int_equal(run("v1", 0, DIR "/file/cache"), 0);
    assert_int_equal(runs(), 3);
    assert_out("a\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_reused, setup),
        cmocka_unit_test_setup(test_changed_input_rebuilds, setup),
        cmocka_unit_test_setup(test_failure_not_cached, setup),
        cmocka_unit_test_setup(test_incomplete_entry, setup),
        cmocka_unit_test_setup(test_no_cache, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
