/*
 * test_config.c -- configuration: defaults equal configs/gtx480.cfg, every key documented in
 * docs/config.md (generated text matches), and each bad-input path gives a message naming the
 * key and, for files, FILE:LINE; a file that is not a regular text file of at most 1 MiB is
 * refused by name, and lines of any length are read whole. Every block's check runs at load:
 * a value the blocks refuse is refused by gs_init, naming the keys behind it and where each
 * was set, not at the first launch as a kernel fault (tests/test_config_sweep.c sweeps every
 * key's range).
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
    conf_defaults(&c);                      /* CTAs are whole warps */
    assert_int_equal(conf_set(&c, "max_threads_per_cta=100", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'max_threads_per_cta' (100) must be a multiple of 32");
    conf_defaults(&c);                      /* one warp's registers fit the register file */
    assert_int_equal(conf_set(&c, "regs_per_sm=4096", "--set", err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "max_regs_per_thread=255", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'max_regs_per_thread' (255): one warp would need more than "
                       "regs_per_sm (4096)");
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
    assert_int_equal(conf_set(&c, "dws_wst_factor=0", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "key 'dws_wst_factor': 0 is out of range [1, 8]");
    assert_int_equal(conf_set(&c, "dws_oversub=0", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'dws_oversub' needs dws != off");
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "dws_pd_max=16", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "key 'dws_pd_max' needs dws != off");
    conf_defaults(&c);
    assert_int_equal(conf_set(&c, "dws=revive_mem", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "dws_wst_factor=8", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);      /* 8 x 48 warps > 128 slots */
    tu_assert_contains(err, "= 384 table entries; the SM has at most 128 slots");
    assert_int_equal(conf_set(&c, "dws_wst_factor=1", "--set", err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "max_warps_per_sm=65", "--set", err, sizeof err), 0);
    assert_int_equal(conf_set(&c, "max_threads_per_cta=1024", "--set", err, sizeof err), 0);
    assert_int_equal(conf_check(&c, err, sizeof err), -1);      /* the 6-bit warp ID */
    tu_assert_contains(err, "dws = revive_mem needs max_warps_per_sm <= 64");
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

/* One late failure of issue 18 (item 5): `line` (line 3 of a configuration file, or a --set
   when set is 1) used to pass the load and fail at the first launch as a kernel fault naming no
   key. Now gs_init refuses it with `want` in its message (%s: the file's path). block: a
   block's check refuses it, so the model's own checks (conf_load) alone still accept it. */
struct late { const char *line; int set, block; const char *want; };

static const struct late late_cases[] = {
    /* ranges now what the blocks hold: I-buffer 4 entries, decode pipe 8 stages, 3-bit I-cache
       LRU ages, a chunk of at least 2 entries, a 1 KB image of 112 entries */
    { "ibuf_entries = 5", 0, 0, "%s:3: key 'ibuf_entries': 5 is out of range [1, 4]" },
    { "decode_cycles = 8", 0, 0, "%s:3: key 'decode_cycles': 8 is out of range [1, 7]" },
    { "icache_ways = 9", 0, 0, "%s:3: key 'icache_ways': 9 is out of range [1, 8]" },
    { "simt_chunk=1", 1, 0, "--set: key 'simt_chunk': 1 is out of range [2, 16]" },
    { "simt_entry_bytes = 16", 0, 0, "%s:3: key 'simt_entry_bytes': 16 is out of range [4, 8]" },
    /* combinations and powers of two: the blocks' own checks, at load */
    { "simt_depth = 2", 0, 1, "simt: chunk 4 out of range 2..2 (depth, at most 16) "
      "[key 'simt_depth' = 2 (%s:3), key 'simt_chunk' = 4 (default)]" },
    { "simt_depth=2", 1, 1, "[key 'simt_depth' = 2 (--set), key 'simt_chunk' = 4 (default)]" },
    { "simt_entry_bytes = 6", 0, 1, "simt: chunk x entry_bytes = 24 must divide the 128-byte "
      "line [key 'simt_entry_bytes' = 6 (%s:3)]" },
    { "simt_chunk = 3", 0, 1, "[key 'simt_chunk' = 3 (%s:3)]" },
    { "icache_sets = 3", 0, 1, "configuration: fetch: ic_sets 3 must be a power of two in 1..64 "
      "[key 'icache_sets' = 3 (%s:3)]" },
    { "l1_sets = 48", 0, 1, "l1: nsets = 48 is not a power of two [key 'l1_sets' = 48 (%s:3)]" },
    { "l2_sets=96", 1, 1, "l2: nsets = 96 is not a power of two [key 'l2_sets' = 96 (--set)]" },
    { "dram_banks = 12", 0, 1, "dram: nbk (12) and lines_per_row (32) must be powers of two "
      "[key 'dram_banks' = 12 (%s:3)]" },
};

static void check_late(const struct late *lc, const char *path)
{
    struct gs_gpu *g = (struct gs_gpu *)1;
    struct gpu_config c;
    char text[256], want[512], err[CONF_ERR_LEN];
    const char *sets[] = { lc->line };
    struct conf_src src = { path, lc->set ? sets : NULL, lc->set };
    snprintf(text, sizeof text, "# late failures\nnum_sms = 4\n%s\n", lc->set ? "" : lc->line);
    write_tmp(path, text);
    if (lc->block)                     /* what the load checked before: it passed */
        assert_int_equal(conf_load(&c, &src, err, sizeof err), 0);
    assert_int_equal(gs_init(&g, path, src.sets, src.nsets, err, sizeof err), GS_ERR_CONFIG);
    assert_null(g);
    snprintf(want, sizeof want, lc->want, path);
    tu_assert_contains(err, want);
}

/* Issue 18 item 5: every class of value that passed the load and faulted at the launch is
   refused at load, naming the key and where it was set; the valid neighbours still load. */
static void test_block_checks_at_load(void **state)
{
    const char *path = BUILD_DIR "/tests/conf_late.cfg";
    const char *good[] = { "simt_depth=4", "simt_chunk=4", "simt_entry_bytes=4", "icache_sets=64",
                           "l1_sets=64", "l2_sets=128", "dram_banks=32", "icache_ways=8",
                           "decode_cycles=7", "ibuf_entries=4" };
    struct gs_gpu *g;
    char err[CONF_ERR_LEN];
    (void)state;
    for (size_t i = 0; i < sizeof late_cases / sizeof late_cases[0]; i++)
        check_late(&late_cases[i], path);
    assert_int_equal(gs_init(&g, NULL, good, sizeof good / sizeof good[0], err, sizeof err), GS_OK);
    gs_destroy(g);
}

/* The keys behind a failed check come with where each was set: the last file line (also for a
   key the file sets to its default), the --set that overrides a file line, or the default. */
static void test_blame_names_origins(void **state)
{
    const char *path = BUILD_DIR "/tests/conf_blame.cfg";
    const char *sets[] = { "simt_chunk=8", "l1_sets=24" };
    struct gs_gpu *g = (struct gs_gpu *)1;
    struct conf_src src = { path, sets, 2 };
    char err[CONF_ERR_LEN], where[320];
    (void)state;
    write_tmp(path, "simt_depth = 4\nsimt_chunk = 4\nl1_sets = 16\nsimt_depth = 6\n");
    assert_string_equal(conf_blame(&src, "simt_depth", where, sizeof where), BUILD_DIR
                        "/tests/conf_blame.cfg:4");
    assert_string_equal(conf_blame(&src, "simt_chunk", where, sizeof where), "--set");
    assert_string_equal(conf_blame(&src, "l2_sets", where, sizeof where), "default");
    assert_int_equal(gs_init(&g, path, sets, 1, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "simt: chunk 8 out of range 2..6 (depth, at most 16) [key "
                       "'simt_depth' = 6 (" BUILD_DIR "/tests/conf_blame.cfg:4), key "
                       "'simt_chunk' = 8 (--set)]");
    assert_int_equal(gs_init(&g, path, sets + 1, 1, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "[key 'l1_sets' = 24 (--set)]");
    write_tmp(path, "simt_chunk = 4\nsimt_depth = 2\n");
    assert_int_equal(gs_init(&g, path, NULL, 0, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "[key 'simt_depth' = 2 (" BUILD_DIR "/tests/conf_blame.cfg:2), key "
                       "'simt_chunk' = 4 (" BUILD_DIR "/tests/conf_blame.cfg:1)]");
    assert_int_equal(gs_init(&g, NULL, (const char *[]){ "fetch_width=3" }, 1, err, sizeof err),
                     GS_ERR_CONFIG);          /* the model's own checks name theirs too */
    tu_assert_contains(err, "exceeds ibuf_entries (2): a fetch cannot decode more than the "
                       "I-buffer holds [key 'fetch_width' = 3 (--set), key 'ibuf_entries' = 2 "
                       "(default)]");
}

/* The mechanisms' keys are treated alike (issue 37): a mechanism that only schedules (VT,
   DWS) needs the timing model -- vt was accepted with model = functional, where it did
   nothing, while dws was refused -- and a key of VTW's hardware form away from its default
   needs vtw = hw, as vtw_lane did (vtw_latency and vtw_smem_hold were accepted with vtw = off
   or sw, where nothing reads them). At their defaults the keys stay accepted. */
static void test_mechanism_keys_alike(void **state)
{
    static const char *const refused[][3] = {
        { "model=functional", "vt=on", "vt = on needs model = timing" },
        { "model=functional", "vt=max", "vt = max needs model = timing" },
        { "model=functional", "dws=branch", "dws = branch needs model = timing" },
        { "vtw=off", "vtw_latency=1", "key 'vtw_latency' (not its default) needs vtw = hw" },
        { "vtw=sw", "vtw_latency=16", "key 'vtw_latency' (not its default) needs vtw = hw" },
        { "vtw=off", "vtw_smem_hold=0", "key 'vtw_smem_hold' (not its default) needs vtw = hw" },
        { "vtw=sw", "vtw_smem_hold=0", "the software form has no next-TB-index unit" },
        { "vtw=off", "vtw_lane=slowest", "key 'vtw_lane' (not its default) needs vtw = hw" },
    };
    static const char *const accepted[][2] = {
        { "vtw=off", "vtw_latency=8" }, { "vtw=off", "vtw_smem_hold=1" },
        { "vtw=hw", "vtw_latency=1" }, { "vtw=hw", "vtw_smem_hold=0" },
        { "model=functional", "vt=off" }, { "model=functional", "vtw=hw" },
        { "model=timing", "vt=max" },
    };
    struct gpu_config c;
    char err[CONF_ERR_LEN];
    (void)state;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        conf_defaults(&c);
        assert_int_equal(conf_set(&c, refused[i][0], "--set", err, sizeof err), 0);
        assert_int_equal(conf_set(&c, refused[i][1], "--set", err, sizeof err), 0);
        if (conf_check(&c, err, sizeof err) != -1)
            fail_msg("%s %s accepted", refused[i][0], refused[i][1]);
        tu_assert_contains(err, refused[i][2]);
    }
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        conf_defaults(&c);
        assert_int_equal(conf_set(&c, accepted[i][0], "--set", err, sizeof err), 0);
        assert_int_equal(conf_set(&c, accepted[i][1], "--set", err, sizeof err), 0);
        if (conf_check(&c, err, sizeof err))
            fail_msg("%s %s: %s", accepted[i][0], accepted[i][1], err);
    }
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
        cmocka_unit_test(test_mechanism_keys_alike),
        cmocka_unit_test(test_gs_init_reports_config_errors),
        cmocka_unit_test(test_not_regular_file_refused),
        cmocka_unit_test(test_gs_init_refuses_directory),
        cmocka_unit_test(test_size_bound),
        cmocka_unit_test(test_nul_byte_refused),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_decimal_only),
        cmocka_unit_test(test_block_checks_at_load),
        cmocka_unit_test(test_blame_names_origins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
