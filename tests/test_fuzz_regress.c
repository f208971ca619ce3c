/*
 * test_fuzz_regress.c -- every input the fuzzers found a bug with (tests/data/fuzz/ptx/,
 * tests/data/fuzz/cfg/, tests/data/fuzz/cache/, tests/data/fuzz/spec/, tests/data/fuzz/bbv/
 * and tests/data/fuzz/res/, one file each) and every fuzz seed (the fatbinary reader's: the
 * .nv_fatbin sections of tests/data/cuda/), run through the harness bodies
 * the fuzzers use (fuzz/fuzz_NAME_one.c): each must end in success or
 * in an error with a message. Under SAN=1 (make san-test) a memory error or undefined behaviour
 * on one of them fails the test too, and so does a leak where make san-test runs this test
 * with detect_leaks=1. Each input is given in a buffer of exactly its size, as libFuzzer gives
 * it, so that a read past the end is one. docs/verification.md "Fuzzing".
 */
#include <dirent.h>
#include "testutil.h"
#include "fuzz_one.h"
#include "../cli/cache.h"
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#define LEAKED() __lsan_do_recoverable_leak_check()   /* 0 unless detect_leaks=1 */
#else
#define LEAKED() 0
#endif

typedef int (*one_fn)(const uint8_t *data, size_t size);

static int leaked;   /* an input leaked: the first one is named, the test fails */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run one file through fn; 0 when it ended cleanly. */
static int run_file(const char *path, one_fn fn)
{
    size_t len = 0;
    char *text = tu_read_file(path, &len);
    uint8_t *exact;
    int bad;
    if (!text) {
        print_error("cannot read %s\n", path);
        return 1;
    }
    exact = malloc(len ? len : 1);
    assert_non_null(exact);
    memcpy(exact, text, len);
    free(text);
    bad = fn(exact, len);
    free(exact);
    if (bad)
        print_error("%s: %d stage(s) did not end in success or an error with a message\n",
                    path, bad);
    if (!leaked && LEAKED()) {    /* later checks would report the same blocks again */
        print_error("%s: leaked (LeakSanitizer's report above)\n", path);
        leaked = 1;
        bad++;
    }
    return bad;
}

/* Every regular file of dir (sorted) through fn; the number of files run. */
static unsigned run_dir(const char *dir, const char *suffix, one_fn fn)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[512], path[1024];
    unsigned n = 0, i, bad = 0;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL && n < 512) {
        size_t l = strlen(e->d_name), s = strlen(suffix);
        if (e->d_name[0] != '.' && l >= s && strcmp(e->d_name + l - s, suffix) == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        bad += run_file(path, fn) != 0;
        free(names[i]);
    }
    assert_int_equal(bad, 0);
    return n;
}

static void test_ptx_regressions(void **state)
{
    (void)state;
    assert_true(run_dir("tests/data/fuzz/ptx", "", fuzz_ptx_one) > 0);
}

static void test_cfg_regressions(void **state)
{
    (void)state;
    assert_true(run_dir("tests/data/fuzz/cfg", "", fuzz_cfg_one) > 0);
}

/* The seeds run clean, and a bench kernel gets through load and launch on both models (a
   harness that stopped early would pass every input). */
static void test_ptx_seeds_reach_the_models(void **state)
{
    struct fuzz_ptx_count c0, c1;
    (void)state;
    fuzz_ptx_counts(&c0);
    assert_int_equal(run_file("bench/vecadd/kernel.ptx", fuzz_ptx_one), 0);
    fuzz_ptx_counts(&c1);
    assert_int_equal(c1.loaded - c0.loaded, 2);
    assert_int_equal(c1.launches - c0.launches, 2);
    assert_int_equal(c1.launch_ok - c0.launch_ok, 2);
    run_dir("fuzz/seeds/ptx", ".ptx", fuzz_ptx_one);
    fuzz_ptx_counts(&c0);
    assert_true(c0.launch_ok - c1.launch_ok >= 2 * 3);
}

static void test_cfg_seeds(void **state)
{
    (void)state;
    assert_true(run_dir("configs", ".cfg", fuzz_cfg_one) >= 3);
    assert_true(run_dir("fuzz/seeds/cfg", ".cfg", fuzz_cfg_one) > 0);
}

/* Cache entries: the regression inputs and seeds run clean, and an entry made for the
   harness's key is read back (a harness that refused everything would pass every input). */
static void test_cache_regressions(void **state)
{
    struct fuzz_cache_count c0, c1;
    struct cache_key k;
    struct result r;
    size_t len;
    char *e;
    (void)state;
    assert_true(run_dir("tests/data/fuzz/cache", "", fuzz_cache_one) > 0);
    assert_true(run_dir("fuzz/seeds/cache", "", fuzz_cache_one) > 0);
    memset(&r, 0, sizeof r);
    r.msg = "results correct";
    r.st.cycles = 1234;
    fuzz_cache_key(&k, 0);
    e = cache_entry_make(&k, &r, &len);
    assert_non_null(e);
    fuzz_cache_counts(&c0);
    assert_int_equal(fuzz_cache_one((const uint8_t *)e, len), 0);
    fuzz_cache_counts(&c1);
    assert_int_equal(c1.read - c0.read, 2);             /* as is, and with the sum redone */
    assert_int_equal(c1.made - c0.made, 1);             /* and made into an entry of its own */
    free(e);
    cache_key_free(&k);
}

/* The sweep SPEC parser (fuzz/fuzz_spec_one.c): the probe's SPECs and the seeds. */
static void test_spec_regressions(void **state)
{
    (void)state;
    assert_true(run_dir("tests/data/fuzz/spec", "", fuzz_spec_one) > 0);
    assert_true(run_dir("fuzz/seeds/spec", ".spec", fuzz_spec_one) > 0);
}

/* The BBV reader's and the register record reader's inputs (issue 37: a count overflow, stray
   bytes, a newline in a kernel name; -1, 0 and overflowing registers, a long comment) and
   seeds; every checked-in record reads through the harness (and so writes back as itself). */
static void test_bbv_regressions(void **state)
{
    (void)state;
    assert_true(run_dir("tests/data/fuzz/bbv", "", fuzz_bbv_one) > 0);
    assert_true(run_dir("fuzz/seeds/bbv", ".bbv", fuzz_bbv_one) > 0);
}

static void test_res_regressions(void **state)
{
    (void)state;
    assert_true(run_dir("tests/data/fuzz/res", "", fuzz_res_one) > 0);
    assert_true(run_dir("fuzz/seeds/res", ".res", fuzz_res_one) > 0);
    assert_int_equal(run_file("bench/vecadd/kernel.res", fuzz_res_one), 0);
    assert_int_equal(run_file("bench/vecadd/kernel.vtw.res", fuzz_res_one), 0);
}

/* The CUDA fatbinary reader (fuzz/fuzz_fatbin_one.c): the seeds, real nvcc sections. */
static void test_fatbin_seeds(void **state)
{
    (void)state;
    assert_int_equal(run_dir("tests/data/cuda", ".fatbin", fuzz_fatbin_one), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx_regressions),
        cmocka_unit_test(test_cfg_regressions),
        cmocka_unit_test(test_ptx_seeds_reach_the_models),
        cmocka_unit_test(test_cfg_seeds),
        cmocka_unit_test(test_cache_regressions),
        cmocka_unit_test(test_spec_regressions),
        cmocka_unit_test(test_bbv_regressions),
        cmocka_unit_test(test_res_regressions),
        cmocka_unit_test(test_fatbin_seeds),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
