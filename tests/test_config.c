/*
 * test_config.c -- configuration: defaults equal configs/gtx480.cfg, every key documented in
 * docs/config.md (generated text matches), and each bad-input path gives a message naming the
 * key and, for files, FILE:LINE; a file that is not a regular text file of at most 1 MiB is
 * refused by name, and lines of any length are read whole.
 */
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "base/config.h"
#include "gpu/gpusim.h"

static void write_tmp(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* `len` bytes of `text` (which may hold NUL bytes) to `path`. */
static void write_bytes(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* A loader that reads forever or blocks on open must fail the test, not hang it. */
static void on_alarm(int sig)
{
    static const char msg[] = "conf_load_file did not return within 10 seconds\n";
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(2);
    _exit(1);
}

static int load_bounded(struct gpu_config *c, const char *path, char *err, size_t errlen)
{
    int rc;
    signal(SIGALRM, on_alarm);
    alarm(10);
    rc = conf_load_file(c, path, err, errlen);
    alarm(0);
    return rc;
}

static void test_gtx480_file_equals_defaults(void **state)
{
    struct gpu_config d, f;
    char err[CONF_ERR_LEN];
    (void)state;
    conf_defaults(&d);
    conf_defaults(&f);
    memset(f.name, 0, sizeof f.name);
    assert_int_equal(conf_load_file(&f, "configs/gtx480.cfg", err, sizeof err), 0);
    assert_memory_equal(&d, &f, sizeof d);
    assert_int_equal(conf_check(&d, err, sizeof err), 0);
}

static void test_doc_matches_table(void **state)
{
    char *doc = tu_read_file("docs/config.md", NULL), *gen;
    size_t len;
    FILE *m;
    (void)state;
    assert_non_null(doc);
    m = open_memstream(&gen, &len);
    conf_write_doc(m);
    fclose(m);
    if (strcmp(doc, gen) != 0) {
        print_error("docs/config.md is stale: regenerate it with build/gpusim config --doc\n");
        fail();
    }
    free(doc);
    free(gen);
}

static void test_unknown_key_names_file_line(void **state)
{
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    (void)state;
    write_tmp(BUILD_DIR "/tests/bad1.cfg", "# comment\nnum_sms = 4\nnum_smz = 3\n");
    conf_defaults(&c);
    assert_int_equal(conf_load_file(&c, BUILD_DIR "/tests/bad1.cfg", err, sizeof err), -1);
    tu_assert_contains(err, BUILD_DIR "/tests/bad1.cfg:3: unknown configuration key 'num_smz'");
}

static void test_bad_values(void **state)
{
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    (void)state;
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "num_sms=0", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "--set: key 'num_sms': 0 is out of range [1, 64]");
    assert_int_equal(conf_set(&c, "num_sms=abc", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'num_sms': 'abc' is not a non-negative integer");
    assert_int_equal(conf_set(&c, "num_sms=-3", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'num_sms'");
    assert_int_equal(conf_set(&c, "num_sms 3", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "expected 'key = value'");
    assert_int_equal(conf_set(&c, "shared_per_sm=99999999999999999999", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'shared_per_sm'");
    assert_int_equal(conf_set(&c, "shared_per_sm=64K", "--set", err, sizeof err), 0);
    assert_int_equal(c.shared_per_sm, 65536);
    assert_int_equal(conf_set(&c, " num_sms = 30 ", "--set", err, sizeof err), 0);
    assert_int_equal(c.num_sms, 30);
}

static void test_impossible_combination(void **state)
{
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    (void)state;
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "max_warps_per_sm=16", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);          /* 1024-thread CTAs */
    tu_assert_contains(err, "key 'max_threads_per_cta' (1024) exceeds the SM's 16 warps");
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "schedulers_per_sm=1", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), 0);          /* 48 slots, one scheduler */
    assert_int_equal(conf_set(&c, "max_warps_per_sm=128", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), 0);          /* SM_MAX_SLOTS */
    assert_int_equal(conf_set(&c, "max_warps_per_sm=129", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "max_warps_per_sm");
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "simt_policy=stack", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'simt_policy': 'stack' is not one of token|ipdom");
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "max_shared_per_cta=64K", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'max_shared_per_cta'");
    conf_defaults(&c);                                               /* ibuf_entries 2 */
    assert_int_equal(conf_set(&c, "fetch_width=3", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'fetch_width' (3) exceeds ibuf_entries (2)");
    assert_int_equal(conf_set(&c, "ibuf_entries=4", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "fetch_width=5", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'fetch_width': 5 is out of range [1, 4]");
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "fetch_warps=0", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'fetch_warps'");
    assert_int_equal(conf_set(&c, "fetch_warps=4", "--set", err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "max_warps_per_sm=3", "--set", err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "max_threads_per_cta=96", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'fetch_warps' (4) exceeds max_warps_per_sm (3)");
}

/* DWS's keys: range, "needs dws", and -- until the SM runs splits -- refused by name. */
static void test_dws_keys(void **state)
{
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    (void)state;
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "dws=split", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "not one of off|branch|aggress|lazy|revive|revive_mem");
    assert_int_equal(conf_set(&c, "dws_wst_factor=1", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'dws_wst_factor': 1 is out of range [2, 8]");
    assert_int_equal(conf_set(&c, "dws_pd_max=16", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'dws_pd_max' needs dws != off");
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "dws=revive_mem", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "dws_wst_factor=8", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);      /* 8 x 48 warps > 128 slots */
    tu_assert_contains(err, "= 384 schedulable slots; the SM has at most 128");
}

static void test_gs_init_reports_config_errors(void **state)
{
    struct gs_gpu *g = (struct gs_gpu *)1;
    char err[512];
    const char *sets[] = { "bogus_key=1" };
    (void)state;
    assert_int_equal(gs_init(&g, NULL, sets, 1, err, sizeof err), GS_ERR_CONFIG);
    assert_null(g);
    tu_assert_contains(err, "unknown configuration key 'bogus_key'");
    assert_int_equal(gs_init(&g, "no/such/file.cfg", NULL, 0, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "no/such/file.cfg: cannot read configuration");
    assert_int_equal(gs_init(&g, "configs/gtx480.cfg", NULL, 0, err, sizeof err), GS_OK);
    gs_destroy(g);
}

/* A configuration must be a regular file: a directory ran with the defaults, /dev/zero was
   read forever, a FIFO without a writer blocked in open. */
static void test_not_regular_file_refused(void **state)
{
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    const char *fifo = BUILD_DIR "/tests/conf_fifo.cfg";
    (void)state;
    conf_defaults(&c);
    assert_int_equal(load_bounded(&c, BUILD_DIR "/tests", err, sizeof err), -1);
    tu_assert_contains(err, BUILD_DIR "/tests: cannot read configuration: a directory, "
                       "not a regular file");
    assert_int_equal(load_bounded(&c, "/dev/zero", err, sizeof err), -1);
    tu_assert_contains(err, "/dev/zero: cannot read configuration: a character device, "
                       "not a regular file");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(load_bounded(&c, fifo, err, sizeof err), -1);
    tu_assert_contains(err, "conf_fifo.cfg: cannot read configuration: a FIFO, not a regular file");
    unlink(fifo);
}

/* gs_init (every gpusim command's way in) refuses a directory instead of running the defaults. */
static void test_gs_init_refuses_directory(void **state)
{
    struct gs_gpu *g = (struct gs_gpu *)1;
    char err[512];
    (void)state;
    assert_int_equal(gs_init(&g, BUILD_DIR "/tests", NULL, 0, err, sizeof err), GS_ERR_CONFIG);
    assert_null(g);
    tu_assert_contains(err, BUILD_DIR "/tests: cannot read configuration: a directory");
}

/* A file of 1 MiB is read; one byte more is refused before anything is applied. */
static void test_size_bound(void **state)
{
    const char *path = BUILD_DIR "/tests/conf_big.cfg";
    size_t n = (size_t)1 << 20;
    char *text = malloc(n + 1), err[CONF_ERR_LEN];
    struct gpu_config c;
    (void)state;
    assert_non_null(text);
    memset(text, '#', n + 1);
    memcpy(text, "num_sms = 4\n", 12);
    text[n - 1] = '\n';
    write_bytes(path, text, n);
    conf_defaults(&c);
    assert_int_equal(load_bounded(&c, path, err, sizeof err), 0);
    assert_int_equal(c.num_sms, 4);
    text[n - 1] = '#';
    text[n] = '\n';
    write_bytes(path, text, n + 1);
    conf_defaults(&c);
    assert_int_equal(load_bounded(&c, path, err, sizeof err), -1);
    tu_assert_contains(err, "conf_big.cfg: cannot read configuration: larger than 1 MiB");
    assert_int_equal(c.num_sms, 15);
    free(text);
    unlink(path);
}

/* A NUL byte hid the rest of its line; now the file is refused with the line named. */
static void test_nul_byte_refused(void **state)
{
    static const char text[] = "num_sms = 4\nnum_sms = 5\0 # hidden\nnum_sms = 6\n";
    const char *path = BUILD_DIR "/tests/conf_nul.cfg";
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    (void)state;
    write_bytes(path, text, sizeof text - 1);
    conf_defaults(&c);
    assert_int_equal(load_bounded(&c, path, err, sizeof err), -1);
    tu_assert_contains(err, "conf_nul.cfg:2: configuration contains a NUL byte");
    assert_int_equal(c.num_sms, 15);
}

/* Lines of any length are read whole: a long comment is a comment, a long key = value line
   is one line, and the line numbers after them stay right. */
static void test_long_lines(void **state)
{
    const char *path = BUILD_DIR "/tests/conf_long.cfg";
    size_t n = 5000;
    char *text = malloc(2 * n + 100), err[CONF_ERR_LEN];
    struct gpu_config c;
    (void)state;
    assert_non_null(text);
    memset(text, 'x', n);
    memcpy(text, "# ", 2);
    memcpy(text + n, "\nnum_sms = ", 11);
    memset(text + n + 11, ' ', n);
    strcpy(text + 2 * n + 11, "4\nlat_alu = 7 # short\nnum_smz = 1\n");
    write_tmp(path, text);
    conf_defaults(&c);
    assert_int_equal(load_bounded(&c, path, err, sizeof err), -1);
    tu_assert_contains(err, "conf_long.cfg:4: unknown configuration key 'num_smz'");
    assert_int_equal(c.num_sms, 4);
    assert_int_equal(c.lat_alu, 7);
    free(text);
}

/* Numbers are decimal in files and in --set: leading zeros do not make octal, 0x is refused. */
static void test_decimal_only(void **state)
{
    const char *path = BUILD_DIR "/tests/conf_num.cfg";
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    (void)state;
    write_tmp(path, "num_sms = 010\nlat_alu = 0008\nshared_per_sm = 016K\nnum_sms = 0x40\n");
    conf_defaults(&c);
    assert_int_equal(conf_load_file(&c, path, err, sizeof err), -1);
    tu_assert_contains(err, "conf_num.cfg:4: key 'num_sms': '0x40' is not a non-negative "
                       "integer (decimal digits");
    assert_int_equal(c.num_sms, 10);
    assert_int_equal(c.lat_alu, 8);
    assert_int_equal(c.shared_per_sm, 16384);
    assert_int_equal(conf_set(&c, "num_sms=012", "--set", err, sizeof err), 0);
    assert_int_equal(c.num_sms, 12);
    assert_int_equal(conf_set(&c, "num_sms=0x10", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "--set: key 'num_sms': '0x10' is not a non-negative integer");
    assert_int_equal(conf_set(&c, "dram_bytes=0X100000", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'dram_bytes': '0X100000'");
    assert_int_equal(c.num_sms, 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtx480_file_equals_defaults),
        cmocka_unit_test(test_doc_matches_table),
        cmocka_unit_test(test_unknown_key_names_file_line),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_impossible_combination),
        cmocka_unit_test(test_dws_keys),
        cmocka_unit_test(test_gs_init_reports_config_errors),
        cmocka_unit_test(test_not_regular_file_refused),
        cmocka_unit_test(test_gs_init_refuses_directory),
        cmocka_unit_test(test_size_bound),
        cmocka_unit_test(test_nul_byte_refused),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_decimal_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
