/*
 * test_cli.c -- the gpusim command line as a user meets it: exit status 0 only for correct
 * results, 1 for a wrong result, 2 for usage/configuration/PTX errors with a clear message;
 * --json output; byte-identical statistics across two runs (host-time fields excepted).
 *
 * The reports' tests check what a report adds -- its sections, CSV, kept notes, charts and
 * byte-identity with 1 and 2 jobs -- on a handful of kernels (--kernels); the correctness of
 * every kernel under every variant is test_vtw's, test_vt's, test_dws's and test_redir's.
 * With TEST_FULL=1 (make test-full) they run on every kernel, as the reports do, and the
 * time-skip equivalence runs the whole suite under every setting (docs/testing.md).
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "base/json.h"

#define GPUSIM BUILD_DIR "/gpusim"

/* Run a shell command; return its exit status; stdout+stderr go to BUILD_DIR/tests/cli.out. */
static int sh(const char *cmd)
{
    char full[1024];
    int st;
    snprintf(full, sizeof full, "( %s ) > " BUILD_DIR "/tests/cli.out 2>&1", cmd);
    st = system(full);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* make test-full: TEST_FULL set and not 0. */
static int full(void)
{
    const char *f = getenv("TEST_FULL");
    return f && *f && strcmp(f, "0");
}

/* The report's kernel option: " --kernels LIST" in make test, "" (every kernel) under
   TEST_FULL. */
static const char *kernels_opt(const char *list)
{
    static char buf[256];
    if (full())
        return "";
    snprintf(buf, sizeof buf, " --kernels %s", list);
    return buf;
}

static char *output(void)
{
    return tu_read_file(BUILD_DIR "/tests/cli.out", NULL);
}

static void expect(const char *cmd, int status, const char *text)
{
    int got = sh(cmd);
    char *out = output();
    if (got != status) {
        print_error("'%s' exited %d, expected %d; output:\n%s\n", cmd, got, status, out ? out : "");
        fail();
    }
    if (text)
        tu_assert_contains(out, text);
    free(out);
}

static void test_list_and_run(void **state)
{
    (void)state;
    expect(GPUSIM " list", 0, "vecadd");
    expect(GPUSIM " run vecadd --size test", 0, "CORRECT");
    expect(GPUSIM " run vecadd --size test --config configs/gtx480.cfg --set num_sms=4", 0,
           "warp instructions");
    expect(GPUSIM " run --help", 0, "usage: gpusim list");     /* --help after a command */
    expect(GPUSIM " suite --size test -h", 0, "gpusim blocks");
    /* --kernels: one parser for the suite and every report (cli/select.c) */
    expect(GPUSIM " suite --size test --kernels reduce,vecadd", 0, "2 kernels, 2 correct");
    expect(GPUSIM " suite --kernels vecadd,", 2, "--kernels: an empty name in 'vecadd,'");
    expect(GPUSIM " suite --kernels ,vecadd", 2, "--kernels: an empty name in ',vecadd'");
    expect(GPUSIM " report dws --kernels vecadd,,reduce", 2, "--kernels: an empty name");
    expect(GPUSIM " suite --kernels vecadd,vecadd", 2, "--kernels: 'vecadd' twice");
    expect(GPUSIM " suite --kernels rgwork_alt", 2, "'rgwork_alt' is outside the suite");
    expect(GPUSIM " report regroup --kernels nosuch", 2, "--kernels: no kernel 'nosuch'");
}

/* gpusim launch-bench: its figures on both models, and its usage on a bad count or key. */
static void test_launch_bench(void **state)
{
    (void)state;
    expect(GPUSIM " launch-bench 3 --config configs/gtx480.cfg", 0, "timing model, 15 SMs");
    expect(GPUSIM " launch-bench 3 --set model=functional", 0, "then a median of");
    expect(GPUSIM " launch-bench 1", 2, "usage: gpusim launch-bench");
    expect(GPUSIM " launch-bench 5x", 2, "usage: gpusim launch-bench");
    expect(GPUSIM " launch-bench 3 --set num_sms=0", 2, "num_sms");
}

static void test_wrong_result_exits_1(void **state)
{
    (void)state;
    /* written by test_bench (tests run in order); make our own copy to be independent */
    expect("sed 's/add.f32/sub.f32/' bench/vecadd/kernel.ptx > " BUILD_DIR "/tests/cli_wrong.ptx", 0, NULL);
    expect(GPUSIM " run vecadd --size test --ptx " BUILD_DIR "/tests/cli_wrong.ptx", 1, "WRONG RESULT");
}

static void test_errors_exit_2(void **state)
{
    (void)state;
    expect(GPUSIM " run nosuch", 2, "no bench kernel named 'nosuch'");
    expect(GPUSIM " run vecadd --size huge", 2, "--size must be 'test' or 'default'");
    expect(GPUSIM " run vecadd --set num_smz=3", 2, "unknown configuration key 'num_smz'");
    expect(GPUSIM " run vecadd --set num_sms=0", 2, "key 'num_sms': 0 is out of range");
    expect(GPUSIM " run vecadd --config no/such.cfg", 2, "no/such.cfg: cannot read configuration");
    expect("printf 'num_sms = 15\\nwarp_size = 64\\n' > " BUILD_DIR "/tests/cli_bad.cfg", 0, NULL);
    expect(GPUSIM " run vecadd --config " BUILD_DIR "/tests/cli_bad.cfg", 2,
           BUILD_DIR "/tests/cli_bad.cfg:2: unknown configuration key 'warp_size'");
    /* a value a block refuses is a configuration error at load, naming the key and where it
       was set -- not a kernel fault at the launch (issue 18) */
    expect(GPUSIM " run vecadd --size test --set l1_sets=24", 2,
           "vecadd: configuration: l1: nsets = 24 is not a power of two [key 'l1_sets' = 24 (--set)]");
    expect("printf 'num_sms = 4\nsimt_depth = 2\n' > " BUILD_DIR "/tests/cli_late.cfg", 0, NULL);
    expect(GPUSIM " run vecadd --size test --config " BUILD_DIR "/tests/cli_late.cfg", 2,
           "[key 'simt_depth' = 2 (" BUILD_DIR "/tests/cli_late.cfg:2), key 'simt_chunk' = 4 "
           "(default)]");
    expect("printf '.version 7.0\\n.target sm_75\\n.address_size 64\\n.visible .entry vecadd()\\n{\\n"
           " frobnicate.u32 %%r1;\\n}\\n' > " BUILD_DIR "/tests/cli_bad.ptx", 0, NULL);
    expect(GPUSIM " run vecadd --size test --ptx " BUILD_DIR "/tests/cli_bad.ptx", 2,
           BUILD_DIR "/tests/cli_bad.ptx:6: unsupported PTX instruction 'frobnicate.u32'");
    /* a PTX parameter wider than the host's argument: refused, not read past the argument */
    expect("sed 's/.param .u32 vecadd_param_3/.param .u64 vecadd_param_3/' bench/vecadd/kernel.ptx"
           " > " BUILD_DIR "/tests/cli_wide.ptx", 0, NULL);
    expect(GPUSIM " run vecadd --size test --ptx " BUILD_DIR "/tests/cli_wide.ptx", 2,
           "launch vecadd: argument 3 (vecadd_param_3): the PTX parameter has 8 bytes, 4 given");
    expect(GPUSIM " frobnicate", 2, "unknown command");
    expect(GPUSIM, 2, "usage:");
}

/* A JSON file's text without its "host_..." lines: host_seconds (the only field that is not
   deterministic; there is one per kernel, and there must be one) and host_sm_cycles_asleep
   (the simulator's own bookkeeping: it depends on skip_idle and time_skip, the simulated
   statistics do not). */
static char *stable_json(const char *path)
{
    char *t = tu_read_file(path, NULL), *r, *w;
    int seen = 0;
    assert_non_null(t);
    for (r = w = t; *r;) {
        char *end = strchr(r, '\n'), keep;
        size_t n = end ? (size_t)(end - r) + 1 : strlen(r);
        keep = r[n - 1];
        r[n - 1] = 0;
        if (strstr(r, "\"host_")) {
            seen |= strstr(r, "\"host_seconds\"") != NULL;
        } else {
            r[n - 1] = keep;
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = 0;
    assert_true(seen);
    return t;
}

static void test_json_is_deterministic(void **state)
{
    char *a, *b;
    (void)state;
    expect(GPUSIM " run histogram --size test --json " BUILD_DIR "/tests/cli1.json", 0, NULL);
    expect(GPUSIM " run histogram --size test --json " BUILD_DIR "/tests/cli2.json", 0, NULL);
    a = stable_json(BUILD_DIR "/tests/cli1.json");
    b = stable_json(BUILD_DIR "/tests/cli2.json");
    tu_assert_contains(a, "\"correct\": true");
    tu_assert_contains(a, "\"warp_insns\": ");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* A minimal JSON checker (RFC 8259's grammar; a number only by its characters): the value
   at *p, *p moved past it; 0 if malformed. */
static void j_ws(const char **p)
{
    *p += strspn(*p, " \t\n\r");
}

static int j_string(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p + 1;
    if (**p != '"')
        return 0;
    for (; *s != '"'; s++) {
        if (*s < 0x20)                        /* a raw control character, or the end */
            return 0;
        if (*s != '\\')
            continue;
        if (*++s == 'u' && strspn((const char *)s + 1, "0123456789abcdefABCDEF") >= 4)
            s += 4;
        else if (!*s || !strchr("\"\\/bfnrt", *s))
            return 0;
    }
    *p = (const char *)s + 1;
    return 1;
}

static int j_word(const char **p, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(*p, w, n))
        return 0;
    *p += n;
    return 1;
}

static int j_value(const char **p);

static int j_list(const char **p, char close, int object)
{
    for (++*p, j_ws(p); **p != close; j_ws(p)) {
        if (object && (!j_string(p) || (j_ws(p), !j_word(p, ":"))))
            return 0;
        if (!j_value(p))
            return 0;
        j_ws(p);
        if (**p != close && !j_word(p, ","))
            return 0;
    }
    ++*p;
    return 1;
}

static int j_value(const char **p)
{
    size_t n;
    j_ws(p);
    if (**p == '{' || **p == '[')
        return j_list(p, **p == '{' ? '}' : ']', **p == '{');
    if (**p == '"')
        return j_string(p);
    if (j_word(p, "true") || j_word(p, "false") || j_word(p, "null"))
        return 1;
    n = strspn(*p, "-+.eE0123456789");
    if (!n || !strchr("-0123456789", **p))
        return 0;
    *p += n;
    return 1;
}

/* The file holds exactly one JSON value. */
static void assert_json(const char *path)
{
    char *t = tu_read_file(path, NULL);
    const char *p = t;
    assert_non_null(t);
    if (!j_value(&p) || (j_ws(&p), *p)) {
        print_error("%s: not JSON from byte %ld: %.60s\n", path, (long)(p - t), p);
        fail();
    }
    free(t);
}

/* json_str, which writes every JSON string: escapes, control characters, UTF-8 kept whole,
   a byte outside UTF-8 replaced. */
static void test_json_str(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    (void)state;
    assert_non_null(f);
    json_str(f, "q\"b\\n\nt\tc\x01 \xc3\xa9 \xff\xc3");
    json_str(f, NULL);
    fclose(f);
    assert_string_equal(buf, "\"q\\\"b\\\\n\\nt\\tc\\u0001 \xc3\xa9 \\ufffd\\ufffd\"\"\"");
    free(buf);
}

/* --json writes valid JSON whatever its strings hold: a configuration path with a quote and a
   backslash, a message of many lines (the deadlock dump). */
static void test_json_escapes_strings(void **state)
{
    const char *json = BUILD_DIR "/tests/cli_esc.json";
    char *t;
    (void)state;
    expect("cp configs/gtx480.cfg '" BUILD_DIR "/tests/cli_q\"u\\ote.cfg'", 0, NULL);
    expect(GPUSIM " run nqueens --size test --set watchdog_cycles=40 --config '" BUILD_DIR
           "/tests/cli_q\"u\\ote.cfg' --json " BUILD_DIR "/tests/cli_esc.json", 2, "deadlock");
    assert_json(json);
    t = tu_read_file(json, NULL);
    tu_assert_contains(t, "\"config\": \"" BUILD_DIR "/tests/cli_q\\\"u\\\\ote.cfg\", ");
    tu_assert_contains(t, " cycles (cycle ");
    tu_assert_contains(t, "watchdog_cycles)\\nSM 0:\\n  slot  0 context ");
    free(t);
    expect(GPUSIM " suite --size test --set num_sms=1 --json " BUILD_DIR "/tests/cli_suite.json",
           0, NULL);
    assert_json(BUILD_DIR "/tests/cli_suite.json");
}

/* The statistics header names the latency set the run used (the lat_* and ii_* keys of its
   configuration, after --set), in the text output and on the JSON's configuration line; a
   functional run, which uses none, names none. */
static void test_header_names_latency_set(void **state)
{
    char *j;
    (void)state;
    expect(GPUSIM " run vecadd --size test", 0,
           "  latency set (gtx480)         lat_alu=18 lat_mad=20 lat_minmax=36 lat_idiv=264 "
           "lat_fdiv=984 lat_dp=24 lat_ddiv=1188 lat_sfu=40 lat_sqrt=208 lat_rcp=228 "
           "lat_shared=44 lat_const=46 lat_param=46 ii_sp=1 ii_sfu=4 ii_dp=8 ii_mem=1\n");
    expect(GPUSIM " run vecadd --size test --config configs/kepler.cfg --set lat_sfu=77 --json "
           BUILD_DIR "/tests/lat.json", 0, "latency set (kepler)         lat_alu=9 lat_mad=9 ");
    expect(GPUSIM " run vecadd --size test --config configs/kepler.cfg --set lat_sfu=77", 0,
           " lat_sfu=77 ");
    j = tu_read_file(BUILD_DIR "/tests/lat.json", NULL);
    tu_assert_contains(j, "\"config\": \"configs/kepler.cfg\", \"latencies\": {\"lat_alu\": 9, ");
    tu_assert_contains(j, "\"lat_sfu\": 77, ");
    tu_assert_contains(j, "\"ii_mem\": 1},\n");
    free(j);
    expect(GPUSIM " suite --size test --set num_sms=1 --set lat_alu=5 | head -1", 0,
           "configuration gtx480, latency set: lat_alu=5 lat_mad=20 ");
    assert_int_equal(sh(GPUSIM " run vecadd --size test --set model=functional | grep -c 'latency set'"), 1);
}

/* Two timing runs give identical statistics, and skipping idle cycles changes nothing. */
static void test_timing_deterministic_and_skip_equivalent(void **state)
{
    char *a, *b, *c;
    (void)state;
    expect(GPUSIM " run bfs --size test --json " BUILD_DIR "/tests/t1.json", 0, NULL);
    expect(GPUSIM " run bfs --size test --json " BUILD_DIR "/tests/t2.json", 0, NULL);
    expect(GPUSIM " run bfs --size test --set skip_idle=0 --json " BUILD_DIR "/tests/t3.json", 0, NULL);
    a = stable_json(BUILD_DIR "/tests/t1.json");
    b = stable_json(BUILD_DIR "/tests/t2.json");
    c = stable_json(BUILD_DIR "/tests/t3.json");
    tu_assert_contains(a, "\"cycles\": ");
    tu_assert_contains(a, "\"scheduler_cycles\": ");
    assert_string_equal(a, b);
    assert_string_equal(a, c);
    free(a); free(b); free(c);
}

/* The suite's JSON at path: with asleep, kernel[i]'s SMs slept through more than a part[i]-th
   of its cycles (model/sm/sm_sleep.c); without, no SM slept anywhere. */
static void asleep_in(const char *path, int asleep, const char *const kernel[2],
                      const unsigned part[2])
{
    char *t = tu_read_file(path, NULL);
    const char *k = t;
    unsigned n = 0, seen = 0;
    assert_non_null(t);
    while ((k = strstr(k, "\"host_sm_cycles_asleep\": ")) != NULL) {
        unsigned long long z = strtoull(k + 25, NULL, 10);
        const char *name = t, *p, *cyc = NULL;
        for (p = t; p < k; p++)                  /* the kernel and cycles this entry belongs to */
            if (!strncmp(p, "\"kernel\": \"", 11))
                name = p + 11;
            else if (!strncmp(p, "\"cycles\": ", 10))
                cyc = p + 10;
        n++;
        if (!asleep && z)
            fail_msg("%llu SM cycles asleep without time_skip (%s)", z, path);
        for (unsigned i = 0; asleep && cyc && i < 2; i++) {
            size_t len = strlen(kernel[i]);
            if (strncmp(name, kernel[i], len) || name[len] != '"')
                continue;
            seen |= 1u << i;
            if (z * part[i] <= strtoull(cyc, NULL, 10))
                fail_msg("%s: only %llu SM cycles asleep of %llu, not more than 1/%u (%s)",
                         kernel[i], z, strtoull(cyc, NULL, 10), part[i], path);
        }
        k += 25;
    }
    assert_true(n > 0);
    if (asleep && seen != 3)
        fail_msg("%s: no statistics of %s or %s", path, kernel[0], kernel[1]);
    free(t);
}

/* time_skip (gpu.c) jumps over cycles in which nothing can change and credits them as ticking
   would: the whole suite at the test size, timing model, with and without it, in the baseline
   has byte-identical statistics; under each other setting (VT also on one SM, where CTAs
   swap) the kernels where it sleeps do (TEST_FULL: the whole suite under every setting). The
   kernels: sloop and dloop, whose single warp leaves resident SMs asleep, and those whose SMs
   slept most under the setting in a whole-suite run (SM cycles asleep per cycle at the test
   size when this was written: two-level, ipdom, VTW invmap 6.6-7.6, stencil2d 6.1, mcubes
   5.8; VT conv2d 5.5, dct8x8 3.0; VT on one SM nw 0.56, pathfinder 0.49, dct8x8 0.46; DWS
   invmap 5.6, mcubes 4.6, conv2d 3.7). CHECK=1 (make check-test) checks every sleep
   prediction cycle by cycle on the whole suite besides.
   And resident SMs do sleep (sm_sleep.c), under each setting in two kernels whose SMs slept
   through more than the part of their cycles named (the fraction at the test size when this
   was written): the single warp of sloop (0.66 in the baseline, 0.66 VT, 0.65 DWS with 76
   branch splits, 0.67 VTW) and of dloop (0.62, 0.62, 0.21 DWS: its 604 splits issue 5.6x the
   baseline's warp instructions, 0.62 VTW) waits about 20 cycles for each dependent
   multiply-add; bfs on one SM under VT slept 0.27 of its cycles with 164 CTA swaps. */
static void test_time_skip_equivalent(void **state)
{
    static const struct {
        const char *set;
        const char *kernel[2];
        unsigned part[2];
        const char *kernels;           /* make test's kernels; NULL: the whole suite */
        unsigned nk;
    } mech[] = {
        { "sched_policy=gto", { "sloop", "dloop" }, { 3, 3 }, NULL, 28 },
        { "sched_policy=twolevel", { "sloop", "dloop" }, { 3, 3 },
          "sloop,dloop,invmap,stencil2d,mcubes", 5 },
        { "simt_policy=ipdom", { "sloop", "dloop" }, { 3, 3 },
          "sloop,dloop,invmap,stencil2d,mcubes", 5 },
        { "vt=on", { "sloop", "dloop" }, { 3, 3 }, "sloop,dloop,stencil2d,conv2d,dct8x8", 5 },
        { "vt=on --set num_sms=1", { "sloop", "bfs" }, { 3, 5 },
          "sloop,bfs,nw,pathfinder,dct8x8", 5 },
        { "dws=branch", { "sloop", "dloop" }, { 3, 6 }, "sloop,dloop,invmap,mcubes,conv2d", 5 },
        { "vtw=hw", { "sloop", "dloop" }, { 3, 3 }, "sloop,dloop,invmap,stencil2d,mcubes", 5 },
    };
    char cmd[512], want[64];
    (void)state;
    for (unsigned i = 0; i < sizeof mech / sizeof mech[0]; i++) {
        char *on, *off;
        int all = full() || !mech[i].kernels;
        for (int skip = 0; skip < 2; skip++) {
            snprintf(cmd, sizeof cmd, GPUSIM " suite --size test --config configs/gtx480.cfg "
                     "--set model=timing --set %s --set time_skip=%d%s%s --json " BUILD_DIR
                     "/tests/skip%d.json", mech[i].set, skip, all ? "" : " --kernels ",
                     all ? "" : mech[i].kernels, skip);
            snprintf(want, sizeof want, "%u kernels, %u correct", all ? 28 : mech[i].nk,
                     all ? 28 : mech[i].nk);
            expect(cmd, 0, want);
        }
        if (i == 0) {                     /* the table's timing columns (vecadd at test size) */
            char *t = output();
            tu_assert_contains(t, "  cycles    IPC ");
            tu_assert_contains(t, "\nvecadd       ok             1         1152   0.61");
            free(t);
        }
        asleep_in(BUILD_DIR "/tests/skip0.json", 0, mech[i].kernel, mech[i].part);
        asleep_in(BUILD_DIR "/tests/skip1.json", 1, mech[i].kernel, mech[i].part);
        off = stable_json(BUILD_DIR "/tests/skip0.json");
        on = stable_json(BUILD_DIR "/tests/skip1.json");
        tu_assert_contains(on, "\"scheduler_cycles\": ");
        if (strcmp(on, off))
            fail_msg("statistics differ with time_skip = 0 and 1 under %s (%s/tests/skip*.json)",
                     mech[i].set, BUILD_DIR);
        free(on);
        free(off);
    }
}

/* The deadlock watchdog stops a run in which nothing issues and dumps every warp. With a tiny
   limit, the first instruction fetches trip it (cycle 41: every warp at pc 0, its I-buffer
   empty). */
static void test_watchdog_dump(void **state)
{
    (void)state;
    expect(GPUSIM " run nqueens --size test --set watchdog_cycles=40", 2,
           "deadlock: no instruction issued for 40 cycles");
    expect(GPUSIM " run nqueens --size test --set watchdog_cycles=40", 2, "slot");
    expect(GPUSIM " run nqueens --size test --set watchdog_cycles=40", 2, "context");
    expect(GPUSIM " run nqueens --size test --set watchdog_cycles=40", 2, "stack depth");
    expect(GPUSIM " run nqueens --size test --set watchdog_cycles=40", 2, "scoreboard");
    expect(GPUSIM " run nqueens --size test --set watchdog_cycles=40", 2, "barrier");
    /* the whole dump, not its first bytes: 32 warps on one SM, about 5 KB, the last one's
       line included */
    expect(GPUSIM " run vecadd --size test --set num_sms=1 --set watchdog_cycles=40", 2,
           "\n  slot 31 context 31 CTA 3 warp 7: pc 0 ");
    expect(GPUSIM " run nqueens --size test --set sched_policy=fifo", 2,
           "key 'sched_policy': 'fifo' is not one of lrr|gto|twolevel");
}

/* --record writes a block's input stream with the header of model/gpu/record.h. */
static void test_record(void **state)
{
    size_t len = 0;
    char *buf;
    (void)state;
    expect(GPUSIM " run reduce --size test --record sb=" BUILD_DIR "/tests/sb.rec", 0, "CORRECT");
    buf = tu_read_file(BUILD_DIR "/tests/sb.rec", &len);
    assert_non_null(buf);
    assert_true(len > 64 + 1000);
    assert_string_equal(buf, "GPSREC1");
    assert_string_equal(buf + 8, "sb");
    free(buf);
    expect(GPUSIM " run reduce --size test --record sb", 2, "--record takes BLOCK=FILE");
    expect(GPUSIM " run reduce --size test --record l9=x.rec", 2, "unknown block 'l9'");
}

/* gpusim ptx: every kernel linked and printed (and the text runs: it is the PTX of a run);
   one kernel by name; errors exit 2. */
/* suite --perf writes the speed table and keeps the notes after the marker line. */
static void test_perf_keeps_notes(void **state)
{
    const char *path = BUILD_DIR "/tests/perf.md";
    char *text;
    FILE *f = fopen(path, "w");
    (void)state;
    assert_non_null(f);
    fputs("old table\n\n<!-- notes below: kept by make bench-speed -->\n## By hand\nnote\n", f);
    fclose(f);
    expect(GPUSIM " suite --size test --kernels vecadd,reduce --perf " BUILD_DIR "/tests/perf.md",
           0, "2 kernels, 2 correct");
    text = tu_read_file(path, NULL);
    assert_non_null(text);
    tu_assert_contains(text, "| vecadd |");
    tu_assert_contains(text, "| **all** |");
    tu_assert_contains(text, "<!-- notes below: kept by make bench-speed -->\n## By hand\nnote\n");
    assert_null(strstr(text, "old table"));
    free(text);
}

static void test_ptx_print(void **state)
{
    (void)state;
    expect(GPUSIM " ptx tests/data/ptx/nvcc_reduce.ptx", 0, ".visible .entry reduce(");
    expect("printf '.version 7.0\\n.target sm_75\\n.address_size 64\\n.visible .entry ka()\\n"
           "{\\n ret;\\n}\\n.visible .entry kb()\\n{\\n ret;\\n}\\n' > " BUILD_DIR "/tests/cli_two.ptx",
           0, NULL);
    expect(GPUSIM " ptx " BUILD_DIR "/tests/cli_two.ptx | grep '^.visible .entry'", 0,
           ".visible .entry ka()\n.visible .entry kb()\n");
    expect(GPUSIM " ptx " BUILD_DIR "/tests/cli_two.ptx --kernel kb | grep -c '^.visible .entry kb()'",
           0, "1");
    expect(GPUSIM " ptx bench/vecadd/kernel.ptx --kernel vecadd > " BUILD_DIR "/tests/cli_p.ptx", 0,
           NULL);
    expect(GPUSIM " run vecadd --size test --ptx " BUILD_DIR "/tests/cli_p.ptx", 0, "CORRECT");
    expect(GPUSIM " ptx bench/vecadd/kernel.ptx --kernel nosuch", 2,
           "bench/vecadd/kernel.ptx: no kernel (.entry) named 'nosuch'");
    expect(GPUSIM " ptx no/such.ptx", 2, "no/such.ptx: cannot read");
    expect(GPUSIM " ptx " BUILD_DIR "/tests/cli_bad.ptx", 2,
           "cli_bad.ptx:6: unsupported PTX instruction 'frobnicate.u32'");
    expect(GPUSIM " ptx", 2, "gpusim ptx: no PTX file given");
    expect(GPUSIM " ptx a.ptx b.ptx", 2, "unexpected argument 'b.ptx'");
    expect(GPUSIM " ptx bench/vecadd/kernel.ptx --kernel", 2, "option --kernel needs a kernel name");
}

/* gpusim res: its argument errors, and a clear message without ptxas; where the ptxas that
   made the checked-in records is installed, the record it writes for vecadd equals
   bench/vecadd/kernel.res (another ptxas version may allocate differently: skipped). */
static void test_res(void **state)
{
    (void)state;
    expect(GPUSIM " res", 2, "gpusim res: no PTX file given");
    expect(GPUSIM " res bench/vecadd/kernel.ptx -o", 2, "option -o needs an output file");
    expect(GPUSIM " res no/such.ptx", 2, "no/such.ptx: cannot read");
    expect("GPUSIM_PTXAS=/nonexistent/ptxas " GPUSIM " res bench/vecadd/kernel.ptx -o -", 2,
           "ptxas is not installed");
    if (sh(GPUSIM " res bench/vecadd/kernel.ptx -o " BUILD_DIR "/tests/cli_vecadd.res") != 0) {
        print_message("test_res: record comparison skipped, needs ptxas\n");
        return;
    }
    if (sh("grep '^tool' " BUILD_DIR "/tests/cli_vecadd.res > " BUILD_DIR "/tests/cli_vecadd.tool"
           " && grep -qxF -f " BUILD_DIR "/tests/cli_vecadd.tool bench/vecadd/kernel.res") != 0) {
        print_message("test_res: record comparison skipped, another ptxas version\n");
        return;
    }
    expect("cmp " BUILD_DIR "/tests/cli_vecadd.res bench/vecadd/kernel.res", 0, NULL);
}

/* gpusim res without -o also records the VTW transforms (FILE.vtw.res) and the redirected
   forms (FILE.redir.res), the same bytes as the checked-in records when the same ptxas made
   them; a file no kernel of which can be redirected gets no FILE.redir.res. */
static void test_res_vtw(void **state)
{
    (void)state;
    expect("mkdir -p " BUILD_DIR "/tests/cli_res && cp bench/vecadd/kernel.ptx " BUILD_DIR
           "/tests/cli_res/ && rm -f " BUILD_DIR "/tests/cli_res/kernel.vtw.res " BUILD_DIR
           "/tests/cli_res/kernel.redir.res", 0, NULL);
    if (sh(GPUSIM " res " BUILD_DIR "/tests/cli_res/kernel.ptx") != 0 ||
        sh("grep -qxF \"$(grep '^tool' " BUILD_DIR "/tests/cli_res/kernel.res)\" "
           "bench/vecadd/kernel.vtw.res") != 0) {
        print_message("test_res_vtw: skipped, needs the ptxas that made the records\n");
        return;
    }
    expect("cmp " BUILD_DIR "/tests/cli_res/kernel.vtw.res bench/vecadd/kernel.vtw.res", 0, NULL);
    expect("cmp " BUILD_DIR "/tests/cli_res/kernel.redir.res bench/vecadd/kernel.redir.res", 0,
           NULL);
    expect("mkdir -p " BUILD_DIR "/tests/cli_res2 && cp bench/reduce/kernel.ptx " BUILD_DIR
           "/tests/cli_res2/ && rm -f " BUILD_DIR "/tests/cli_res2/kernel.redir.res && " GPUSIM
           " res " BUILD_DIR "/tests/cli_res2/kernel.ptx", 0, "reduce not redirected: redirect "
           "reduce: the kernel uses shared memory");
    expect("test ! -e " BUILD_DIR "/tests/cli_res2/kernel.redir.res", 0, NULL);
}

/* How many times needle occurs in the output of the last command. */
static unsigned out_count(const char *needle)
{
    char *out = output(), *p = out;
    unsigned n = 0;
    while (p && (p = strstr(p, needle)))
        n++, p++;
    free(out);
    return n;
}

#define PAGE_DIR BUILD_DIR "/tests/page"
#define PAGE_CACHE BUILD_DIR "/tests/page-cache"
#define PAGE_RUN GPUSIM " report page --size test --kernels vecadd,mandel,nqueens --mechs " \
                 "lrr,vtw,vt,dws_branch,rg_gmax --jobs 2 --cache " PAGE_CACHE

/* gpusim report page: argument errors; 3 kernels x 6 mechanisms at the test size, all
   correct; the CSV's base cycles are gpusim run's; a repeated run comes whole from the
   cache, with the same bytes; entries removed from the cache (an interrupted run) are the
   only runs made again; a changed configuration misses. */
static void test_report_page(void **state)
{
    char *csv;
    (void)state;
    expect(GPUSIM " report page --mechs vtw,nosuch", 2, "no mechanism 'nosuch' (the "
           "mechanisms: base, lrr");
    expect(GPUSIM " report page --mechs help", 0, "rg_gmax         regrouping");
    expect(GPUSIM " report page --kernels vecadd,nosuch", 2, "--kernels: no kernel 'nosuch'");
    expect(GPUSIM " report page --kernels vecadd,vecadd", 2, "'vecadd' twice");
    expect(GPUSIM " report page --set model=functional --kernels vecadd", 2,
           "needs model = timing");
    expect("rm -rf " PAGE_DIR " " PAGE_CACHE " && " PAGE_RUN " --out " PAGE_DIR, 0,
           "18 runs (0 from the cache " PAGE_CACHE "), 0 failed; the page: " PAGE_DIR
           "/page.html");
    csv = output();
    tu_assert_contains(csv, "mechanism       group       kernels         cycles    IPC");
    free(csv);
    expect("test $(wc -l < " PAGE_DIR "/page.csv) -eq 19", 0, NULL);
    csv = tu_read_file(PAGE_DIR "/page.csv", NULL);
    assert_non_null(csv);
    expect(GPUSIM " run vecadd --size test", 0, "CORRECT");
    {
        char *out = output(), row[128], *c = strstr(out, "cycles (0: functional)");
        assert_non_null(c);
        snprintf(row, sizeof row, "vecadd,cycle div.,base,baseline,ok,%llu,",
                 strtoull(c + 22, NULL, 10));
        tu_assert_contains(csv, row);
        free(out);
    }
    free(csv);
    expect("rm -rf " PAGE_DIR "2 && " PAGE_RUN " --out " PAGE_DIR "2", 0,
           "18 runs (18 from the cache");
    assert_int_equal(out_count("(cached)"), 18);
    expect("cd " PAGE_DIR " && for f in page.md page.csv page.html page-cost.svg "
           "page-stalls.svg; do cmp $f ../page2/$f || exit 1; done", 0, NULL);
    expect("ls " PAGE_CACHE " | head -2 | sed 's|^|" PAGE_CACHE "/|' | xargs rm && "
           PAGE_RUN " --out " PAGE_DIR "2", 0, "18 runs (16 from the cache");
    expect(PAGE_RUN " --set num_sms=4 --out " PAGE_DIR "2", 0, "18 runs (0 from the cache");
}

/* The page as a browser renders it (Debian's chromium, headless): its four tables are in the
   rendered document, and each of its 7 plots (cost, stalls, one per mechanism group) was laid
   out with a size (the page's script writes each plot's rendered size into data-rendered). */
static void test_report_page_in_chromium(void **state)
{
    char *dom;
    (void)state;
    if (sh("command -v chromium")) {
        print_message("SKIPPED: chromium is not installed (make deps installs it)\n");
        skip();
    }
    if (sh("test -e " PAGE_DIR "/page.html || (" PAGE_RUN " --out " PAGE_DIR ")"))
        fail_msg("the page could not be made");
    expect("timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir=" BUILD_DIR
           "/tests/chromium-profile --dump-dom file://$(pwd)/" PAGE_DIR "/page.html > " BUILD_DIR
           "/tests/page-dom.html 2>/dev/null", 0, NULL);
    dom = tu_read_file(BUILD_DIR "/tests/page-dom.html", NULL);
    assert_non_null(dom);
    tu_assert_contains(dom, "<table id=\"summary\">");
    tu_assert_contains(dom, "<table id=\"kernels\">");
    tu_assert_contains(dom, "<table id=\"stalls\">");
    tu_assert_contains(dom, "<table id=\"mechanisms\">");
    tu_assert_contains(dom, "<td>dws_branch</td>");
    free(dom);
    expect("test $(grep -o 'data-rendered=\"[1-9][0-9]*x[1-9][0-9]*\"' " BUILD_DIR
           "/tests/page-dom.html | wc -l) -eq 7", 0, NULL);
}

/* A document from an earlier run: a line the report replaces, then its notes marker and a
   note it must keep. */
static void old_notes(const char *md, const char *mark)
{
    FILE *f = fopen(md, "w");
    assert_non_null(f);
    fprintf(f, "old\n%s\n## By hand\n", mark);
    fclose(f);
}

/* The report tests' kernels in make test: VTW's wrapper on a one-launch kernel, one with
   shared memory and barriers, and sloop's divergent loop exits. */
#define VTW_KERNELS "vecadd,reduce,sloop"

/* gpusim report vtw: argument errors; at the test size all 9 variants' runs correct (252 on
   the suite), the tables (the ablation of Algorithm 1 too) and the kept notes in the
   Markdown, one CSV row per run, the same bytes with 1 and 2 jobs. */
static void test_report_vtw(void **state)
{
    const char *md = BUILD_DIR "/tests/vtw.md";
    char *text, cmd[1024], want[256];
    unsigned nk = full() ? 28 : 3;
    (void)state;
    expect(GPUSIM " report nosuch", 2, "which report? (page, dws, regroup, vt, vtw)");
    expect(GPUSIM " report vtw --jobs 0", 2, "--jobs takes 1..64");
    expect("rm -f " BUILD_DIR "/tests/vtw_bad.md && " GPUSIM " report vtw --set nosuch=1 "
           "--markdown " BUILD_DIR "/tests/vtw_bad.md", 2,
           "variant GTO: --set: unknown configuration key 'nosuch'");
    expect("test ! -e " BUILD_DIR "/tests/vtw_bad.md", 0, NULL);    /* nothing ran, nothing written */
    old_notes(md, "<!-- notes below: kept by make report-vtw -->");
    snprintf(cmd, sizeof cmd, GPUSIM " report vtw --size test --jobs 2%s --markdown " BUILD_DIR
             "/tests/vtw.md --csv " BUILD_DIR "/tests/vtw.csv", kernels_opt(VTW_KERNELS));
    snprintf(want, sizeof want, "%u runs, %u correct, 0 failed", 9 * nk, 9 * nk);
    expect(cmd, 0, want);
    text = tu_read_file(md, NULL);
    assert_non_null(text);
    snprintf(want, sizeof want, "| **GMEAN** (%u) |", nk);
    tu_assert_contains(text, want);
    tu_assert_contains(text, "## Stall cycles (Table 6 form)");
    tu_assert_contains(text, "## Registers and residency (Table 7 form)");
    tu_assert_contains(text, "## Algorithm 1's share (ablation)");
    tu_assert_contains(text, "<!-- notes below: kept by make report-vtw -->\n## By hand\n");
    assert_null(strstr(text, "old\n"));
    free(text);
    snprintf(want, sizeof want, "test $(wc -l < " BUILD_DIR "/tests/vtw.csv) -eq %u", 9 * nk + 1);
    expect(want, 0, NULL);
    snprintf(cmd, sizeof cmd, "cp " BUILD_DIR "/tests/vtw.md " BUILD_DIR "/tests/vtw2.md && "
             GPUSIM " report vtw --size test --jobs 1%s --markdown " BUILD_DIR "/tests/vtw2.md "
             "--csv " BUILD_DIR "/tests/vtw2.csv && cmp " BUILD_DIR "/tests/vtw.md " BUILD_DIR
             "/tests/vtw2.md && cmp " BUILD_DIR "/tests/vtw.csv " BUILD_DIR "/tests/vtw2.csv",
             kernels_opt(VTW_KERNELS));
    expect(cmd, 0, NULL);
}

/* VT's report in make test: four kernels with headroom (dct8x8 and sloop bound by CTAs,
   reduce and vecadd by threads; sloop has one CTA per launch: the headlines without the
   single-CTA kernels leave it out) and matmul, which has none (shared memory binds). */
#define VT_KERNELS "dct8x8,reduce,vecadd,matmul,sloop"

/* gpusim report vt: argument errors (a key bad for one variant only stops it before any run);
   at the test size 2 phase-1 runs per kernel and 10 variants per headroom kernel (56 + 150 on
   the suite), all correct; every table in the Markdown, the kernels without headroom
   unchanged under VT, the kept notes; one CSV row per run; five SVG charts; the same bytes
   with 1 and 2 jobs. */
static void test_report_vt(void **state)
{
    const char *md = BUILD_DIR "/tests/vt.md";
    char cmd[1024], want[256];
    unsigned nk = full() ? 28 : 5, nh = full() ? 15 : 4, runs = 2 * nk + 10 * nh;
    static const char *const tables[] = {
        "## 1. Residency (Fig. 2 and 3 form)", "| **dct8x8** | S | 2 | 26 | 2816 | 8 | CTAs | 16 |",
        "## 2. Performance (Fig. 8 and 9 form)",
        "| *paper (average)* | | | *1.239* | *1.269* | *0.976* |", "| GTO | ",
        "## 3. Kernels without headroom (Type-C form)", "| matmul | C | shared memory |",
        "## 4. Scheduler cycles (Fig. 4 form)", "| B_LRR per kernel | VT_LRR per kernel |",
        "| kernel | B_LRR stall | VT_LRR stall | VT / B |", "(1 - the geometric mean of VT / B)",
        "- Fig. 4, stall cycles VT / B (per kernel, geometric mean): ",
        "| LRR, without single-CTA | 1.000 |", "| **geometric mean** without single-CTA |",
        "## 5. Swap bandwidth (Fig. 10 form)",
        "| 0 (ideal) | 1.000 | *1.004* |", "## 6. Register file and shared memory (Fig. 12 form)",
        "## 7. Memory system (Fig. 13 form)", "## 8. VT at work",
        "## 9. Where the paper's direction holds (computed)",
        "![Fig. 8 form](vt-fig8.svg)", "![Fig. 13 form](vt-fig13.svg)"};
    char *text;
    (void)state;
    expect(GPUSIM " report vt --jobs 0", 2, "--jobs takes 1..64");
    expect(GPUSIM " report vt --bogus 1", 2, "unknown option '--bogus'");
    expect("rm -f " BUILD_DIR "/tests/vt_bad* && " GPUSIM " report vt --set nosuch=1 "
           "--markdown " BUILD_DIR "/tests/vt_bad.md --csv " BUILD_DIR "/tests/vt_bad.csv", 2,
           "variant B_LRR: --set: unknown configuration key 'nosuch'");
    expect(GPUSIM " report vt --set vt_swap_bits_per_cycle=256 --markdown " BUILD_DIR
           "/tests/vt_bad.md --csv " BUILD_DIR "/tests/vt_bad.csv", 2,
           "variant B_LRR: configuration: key 'vt_swap_bits_per_cycle'");
    expect("test ! -e " BUILD_DIR "/tests/vt_bad.md && test ! -e " BUILD_DIR "/tests/vt_bad.csv "
           "&& test ! -e " BUILD_DIR "/tests/vt_bad-fig8.svg", 0, NULL);   /* nothing ran or written */
    old_notes(md, "<!-- notes below: kept by make report-vt -->");
    snprintf(cmd, sizeof cmd, GPUSIM " report vt --size test --jobs 2%s --markdown " BUILD_DIR
             "/tests/vt.md --csv " BUILD_DIR "/tests/vt.csv", kernels_opt(VT_KERNELS));
    snprintf(want, sizeof want, "%u runs, %u correct, 0 failed", runs, runs);
    expect(cmd, 0, want);
    text = tu_read_file(md, NULL);
    assert_non_null(text);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        tu_assert_contains(text, tables[i]);
    snprintf(want, sizeof want, "| **arithmetic mean** (%u) |", nh);
    tu_assert_contains(text, want);
    snprintf(want, sizeof want, "| **arithmetic mean** without single-CTA (%u) |", nh - 2 + !full());
    tu_assert_contains(text, want);
    tu_assert_contains(text, full() ? "Single-CTA kernels: one CTA per launch, headroom by the "
                       "limits but no second CTA for VT to swap in (dloop, sloop)." :
                       "Single-CTA kernels: one CTA per launch, headroom by the limits but no "
                       "second CTA for VT to swap in (sloop).");
    snprintf(want, sizeof want, "- No headroom (Type-C, and Type-S where VT adds no CTA): %u of "
             "%u kernels run as the baseline (the paper: no change): holds.\n", nk - nh, nk - nh);
    tu_assert_contains(text, want);
    assert_null(strstr(text, "DIFFERS"));
    assert_null(strstr(text, "WRONG"));
    tu_assert_contains(text, "\n\n<!-- notes below: kept by make report-vt -->\n## By hand\n");
    assert_null(strstr(text, "old\n"));
    free(text);
    snprintf(want, sizeof want, "test $(wc -l < " BUILD_DIR "/tests/vt.csv) -eq %u", runs + 1);
    expect(want, 0, NULL);
    /* the second run in a directory of its own: the Markdown links its charts by name */
    snprintf(cmd, sizeof cmd, "mkdir -p " BUILD_DIR "/tests/vt1 && cp " BUILD_DIR "/tests/vt.md "
             BUILD_DIR "/tests/vt1/vt.md && " GPUSIM " report vt --size test --jobs 1%s "
             "--markdown " BUILD_DIR "/tests/vt1/vt.md --csv " BUILD_DIR "/tests/vt1/vt.csv",
             kernels_opt(VT_KERNELS));
    expect(cmd, 0, NULL);
    expect("cd " BUILD_DIR "/tests && cmp vt.md vt1/vt.md && cmp vt.csv vt1/vt.csv && for f in "
           "8 9 10 12 13; do grep -q '<rect x=' vt-fig$f.svg && cmp vt-fig$f.svg vt1/vt-fig$f.svg "
           "|| exit 1; done", 0, NULL);
}

/* DWS's report in make test: branch divergence (backprop, reduce below 32 threads) and
   divergent gathers (meshgather: memory splits). */
#define DWS_KERNELS "backprop,meshgather,reduce"

/* gpusim report dws: argument errors (a key that one variant refuses stops the report before
   any run), at the test size 20 variants per kernel all correct, the tables, the never-worse
   check, the over-subdivision rule, the table-size sweep, the split chances and the cost in
   the Markdown, the kept notes, one CSV row per run, two SVG charts, the same bytes with 1
   and 2 jobs, and again with every run from the cache. */
static void test_report_dws(void **state)
{
    const char *md = BUILD_DIR "/tests/dws.md";
    char cmd[1024], want[256];
    unsigned nk = full() ? 28 : 3;
    static const char *const parts[] = {
        "## Speed-up over the conventional baseline (Results (1) form)",
        "### configs/gtx480.cfg\n\n![speed-up per kernel, configs/gtx480.cfg](dws-first.svg)",
        "### configs/dws.cfg\n\n![speed-up per kernel, configs/dws.cfg](dws-dwscfg.svg)",
        "| **geo. mean, all** | |", "## The never-worse check", "## WST occupancy",
        "| ReviveSplit | dws | ", "## Cost: the storage DWS adds", "| wst | 0 | 5494 | +5494 |",
        "## Against the slides (computed)", "- **RevMemOnly**: ReviveSplit.MemOnly",
        "## The over-subdivision rule on branch splits (dws_oversub)",
        "## The table's size (dws_wst_factor 2, 3, 4 on configs/dws.cfg)",
        "## Split chances and why they were refused", "- **ReviveSplit/d/x4**: "};
    char *text;
    (void)state;
    expect(GPUSIM " report dws --jobs 0", 2, "--jobs takes 1..64");
    expect("rm -f " BUILD_DIR "/tests/dws_bad* && " GPUSIM " report dws --set vt=on --markdown "
           BUILD_DIR "/tests/dws_bad.md --csv " BUILD_DIR "/tests/dws_bad.csv", 2,
           "variant BranchOnly: configuration: dws = branch cannot be combined with vt");
    expect("test ! -e " BUILD_DIR "/tests/dws_bad.md && test ! -e " BUILD_DIR "/tests/dws_bad.csv "
           "&& test ! -e " BUILD_DIR "/tests/dws_bad-first.svg", 0, NULL);  /* nothing ran */
    old_notes(md, "<!-- notes below: kept by make report-dws -->");
    snprintf(cmd, sizeof cmd, "rm -rf " BUILD_DIR "/tests/dws_cache && " GPUSIM " report dws "
             "--size test --jobs 2%s --config configs/gtx480.cfg --markdown " BUILD_DIR
             "/tests/dws.md --csv " BUILD_DIR "/tests/dws.csv --cache " BUILD_DIR
             "/tests/dws_cache", kernels_opt(DWS_KERNELS));
    snprintf(want, sizeof want, "%u runs, %u correct, 0 failed", 20 * nk, 20 * nk);
    expect(cmd, 0, want);
    text = tu_read_file(md, NULL);
    assert_non_null(text);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        tu_assert_contains(text, parts[i]);
    assert_null(strstr(text, "WRONG"));
    assert_null(strstr(text, "ERROR"));
    tu_assert_contains(text, "\n\n<!-- notes below: kept by make report-dws -->\n## By hand\n");
    assert_null(strstr(text, "old\n"));
    free(text);
    snprintf(want, sizeof want, "test $(wc -l < " BUILD_DIR "/tests/dws.csv) -eq %u",
             20 * nk + 1);
    expect(want, 0, NULL);
    /* a variant's name with a comma is one quoted field, not two */
    expect("grep -q ',\"BranchOnly, no rule\",' " BUILD_DIR "/tests/dws.csv && ! grep -q "
           "',BranchOnly, no rule,' " BUILD_DIR "/tests/dws.csv", 0, NULL);
    snprintf(cmd, sizeof cmd, "mkdir -p " BUILD_DIR "/tests/dws1 && cp " BUILD_DIR "/tests/dws.md "
             BUILD_DIR "/tests/dws1/dws.md && " GPUSIM " report dws --size test --jobs 1%s "
             "--config configs/gtx480.cfg --markdown " BUILD_DIR "/tests/dws1/dws.md --csv "
             BUILD_DIR "/tests/dws1/dws.csv --cache none", kernels_opt(DWS_KERNELS));
    expect(cmd, 0, "0 of");
    expect("cd " BUILD_DIR "/tests && cmp dws.md dws1/dws.md && cmp dws.csv dws1/dws.csv && for f "
           "in first dwscfg; do grep -q '<rect x=' dws-$f.svg && cmp dws-$f.svg dws1/dws-$f.svg "
           "|| exit 1; done", 0, NULL);
    /* again from the first run's cache (where an interrupted report resumes): no run made,
       the same document, CSV and charts */
    snprintf(cmd, sizeof cmd, GPUSIM " report dws --size test --jobs 1%s --config "
             "configs/gtx480.cfg --markdown " BUILD_DIR "/tests/dws1/dws.md --csv " BUILD_DIR
             "/tests/dws1/dws.csv --cache " BUILD_DIR "/tests/dws_cache",
             kernels_opt(DWS_KERNELS));
    snprintf(want, sizeof want, "%u of %u runs from the cache", 20 * nk, 20 * nk);
    expect(cmd, 0, want);
    expect("cd " BUILD_DIR "/tests && cmp dws.md dws1/dws.md && cmp dws.csv dws1/dws.csv && for f "
           "in first dwscfg; do grep -q '<rect x=' dws-$f.svg && cmp dws-$f.svg dws1/dws-$f.svg "
           "|| exit 1; done", 0, NULL);
}

/* The regrouping report in make test: mcubes and vecadd (redirected), warpreduce (refused:
   shfl), rgwork_alt (outside the suite: redirection and data layout). */
#define RG_KERNELS "mcubes,vecadd,warpreduce,rgwork_alt"

/* gpusim report regroup: argument errors; at the test size every kernel profiled, those that
   take reference redirection (16 suite kernels and the 4 rgwork kernels on the whole suite)
   regrouped by the three algorithms, the rgwork kernels also by data layout, every run with
   correct results; the others listed with the reason; the tables, the kept notes, the CSV
   rows, the chart. */

static void test_report_regroup(void **state)
{
    const char *md = BUILD_DIR "/tests/regroup.md";
    char cmd[1024], want[256];
    static const char *const parts[] = {
        "## Estimates against the simulation (Table V form)",
        "| mcubes | 1 | sorting | redirection |", "| rgwork_alt | 1 | sorting | redirection |",
        "|  | 1 | sorting | data layout |",
        "| *paper (Table V, compute-bound)* | | | | | | | *12.7* | *6.2* | |",
        "## Speed-up per algorithm and application method (Fig. 9 form)",
        "![Fig. 9 form](regroup-fig9.svg)",
        "## Where an estimate and the simulation disagree in direction",
        "## What reference redirection alone changes (identity order)",
        "| vecadd | 0.627 | +59.1 % | 12 -> 12 | 6 -> 6 | 100.0 -> 100.0 |",
        "## The kernels 001 would have chosen", "| vecadd | 3.1 | 0.1 | no: convergent |",
        "| mcubes | 91.7 | 0.1 | yes |", "| *the other kernels* |",
        "| **arithmetic mean**, 001's kernels (", "| **average error, redirection**, 001's kernels (",
        "## Kernels not redirected", "- warpreduce: warpreduce: pc 21: shfl synchronises"};
    char *text;
    (void)state;
    expect(GPUSIM " report regroup --set model=functional --markdown " BUILD_DIR
           "/tests/rg_bad.md", 2, "needs model = timing and vtw = off");
    old_notes(md, "<!-- notes below: kept by make report-regroup -->");
    snprintf(cmd, sizeof cmd, GPUSIM " report regroup --size test%s --markdown " BUILD_DIR
             "/tests/regroup.md --csv " BUILD_DIR "/tests/regroup.csv", kernels_opt(RG_KERNELS));
    expect(cmd, 0, full() ? "32 kernels, 0 failed" : "4 kernels, 0 failed");
    text = tu_read_file(md, NULL);
    assert_non_null(text);
    tu_assert_contains(text, full() ? "20 kernels were regrouped by reference redirection, 6 by "
                       "data layout; 0 failed" : "3 kernels were regrouped by reference "
                       "redirection, 1 by data layout; 0 failed");
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        tu_assert_contains(text, parts[i]);
    tu_assert_contains(text, "\n\n<!-- notes below: kept by make report-regroup -->\n## By hand\n");
    assert_null(strstr(text, "old\n"));
    free(text);
    snprintf(want, sizeof want, "test $(wc -l < " BUILD_DIR "/tests/regroup.csv) -eq %u",
             full() ? 79 : 13);
    expect(want, 0, NULL);
    expect("grep -q '<rect x=' " BUILD_DIR "/tests/regroup-fig9.svg", 0, NULL);
}

/* gpusim bbv: the forms (CSV to stdout, binary with --read, --estimate, --latency) and the
   argument errors. */
static void test_bbv_cli(void **state)
{
    (void)state;
    expect(GPUSIM " bbv vecadd --size test", 0,
           "# launch 0: kernel vecadd, grid 4,1,1, block 256,1,1, 3 basic blocks, 1024 threads");
    expect(GPUSIM " bbv vecadd --size test --out " BUILD_DIR "/tests/v.bbv && " GPUSIM
           " bbv --read " BUILD_DIR "/tests/v.bbv", 0, "\nthread,b0@0,b1@10,b2@21\n0,1,1,1\n");
    expect(GPUSIM " bbv smithwat --size test --estimate", 0, "greedy-max");
    expect(GPUSIM " bbv reduce --size test --latency", 0,
           "block  first pc  instructions  fixed latency  global accesses  latency");
    /* equation (1) with smithwat's named inputs: its DP-loop blocks are linear in them */
    expect(GPUSIM " bbv smithwat --size test --fit", 0,
           "inputs: qlen tlen qlen*tlen, tid\nblock   mean count");
    expect(GPUSIM " bbv smithwat --size test --fit | grep -c '^b1[0-2] .* 0.0%$'", 0, "3\n");
    expect(GPUSIM " bbv", 2, "gpusim bbv: which kernel?");
    expect(GPUSIM " bbv nosuch", 2, "gpusim bbv: no such bench kernel");
    expect(GPUSIM " bbv vecadd --out /nonexistent/x.bbv", 2, "/nonexistent/x.bbv: cannot write");
    expect(GPUSIM " bbv vecadd --estimate --out x.csv", 2, "--out is for the BBVs themselves");
    expect(GPUSIM " bbv vecadd --set vtw=hw --size test", 2, "per-thread BBVs need vtw = off");
    expect(GPUSIM " bbv --read tests/test_cli.c", 2, "not a BBV file");
    expect(GPUSIM " bbv --read /nonexistent", 2, "/nonexistent: cannot read");
}

/* gpusim bbv --read (issue 37): a kernel name or a run's option beside it was ignored; the
   file must be a regular one (a FIFO blocked, /dev/zero was read as a wrong magic). */
static void test_bbv_read_refusals(void **state)
{
    const char *fifo = BUILD_DIR "/tests/cli_fifo.bbv";
    (void)state;
    expect(GPUSIM " bbv vecadd --size test --out " BUILD_DIR "/tests/v2.bbv", 0, NULL);
    expect(GPUSIM " bbv vecadd --read " BUILD_DIR "/tests/v2.bbv", 2,
           "gpusim bbv: --read " BUILD_DIR "/tests/v2.bbv prints a BBV file; it takes no kernel "
           "name ('vecadd' given)");
    expect(GPUSIM " bbv --read " BUILD_DIR "/tests/v2.bbv --latency", 2,
           "it takes no --estimate, --latency, --fit or --out");
    expect(GPUSIM " bbv --read /dev/zero", 2,
           "gpusim bbv: /dev/zero: cannot read BBV file: a character device, not a regular file");
    expect("rm -f " BUILD_DIR "/tests/cli_empty.bbv && touch " BUILD_DIR "/tests/cli_empty.bbv && "
           GPUSIM " bbv --read " BUILD_DIR "/tests/cli_empty.bbv", 2, "not a BBV file (it is empty)");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect(GPUSIM " bbv --read " BUILD_DIR "/tests/cli_fifo.bbv", 2,
           "cli_fifo.bbv: cannot read BBV file: a FIFO, not a regular file");
    unlink(fifo);
}

/* --ptx and the register record next to it go through infile (issue 37): a directory, a
   device or a FIFO is refused at once with exit 2, never read or waited on. */
static void test_ptx_and_record_not_regular(void **state)
{
    const char *fifo = BUILD_DIR "/tests/cli_fifo.ptx", *res = BUILD_DIR "/tests/cli_fifo_k.res";
    (void)state;
    expect(GPUSIM " run vecadd --size test --ptx " BUILD_DIR "/tests", 2,
           BUILD_DIR "/tests: cannot read PTX: a directory, not a regular file");
    expect(GPUSIM " run vecadd --size test --ptx /dev/zero", 2,
           "/dev/zero: cannot read PTX: a character device, not a regular file");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect(GPUSIM " run vecadd --size test --ptx " BUILD_DIR "/tests/cli_fifo.ptx", 2,
           "cli_fifo.ptx: cannot read PTX: a FIFO, not a regular file");
    unlink(fifo);
    unlink(res);
    assert_int_equal(mkfifo(res, 0600), 0);
    expect("cp bench/vecadd/kernel.ptx " BUILD_DIR "/tests/cli_fifo_k.ptx && " GPUSIM " run vecadd "
           "--size test --ptx " BUILD_DIR "/tests/cli_fifo_k.ptx", 2,
           "cli_fifo_k.res: cannot read register record: a FIFO, not a regular file");
    unlink(res);
}

/* gpusim xform --vtw: both forms printed (the sw form runs through ptxas in test_vtwx), -o, the
   argument errors, a file already transformed. */
static void test_xform(void **state)
{
    (void)state;
    expect(GPUSIM " xform --vtw bench/vecadd/kernel.ptx", 0, "\tnexttbid.u32 %vtw_tb;\n");
    expect(GPUSIM " xform --vtw=hw bench/vecadd/kernel.ptx --kernel vecadd", 0,
           "\tnextidxinblk.u32 %vtw_tid, %vtw_tid;\n");
    expect(GPUSIM " xform --vtw=sw bench/matmul/kernel.ptx", 0, "\t.param .u32 __vtw_nvirt\n)");
    expect(GPUSIM " xform --vtw=sw bench/vecadd/kernel.ptx -o " BUILD_DIR "/tests/cli_vtw.ptx", 0,
           NULL);
    expect(GPUSIM " ptx " BUILD_DIR "/tests/cli_vtw.ptx", 0, "add.u32 %vtw_tb, %vtw_tb, %vtw_nvirt;");
    expect(GPUSIM " xform --vtw " BUILD_DIR "/tests/cli_vtw.ptx", 2,
           "cli_vtw.ptx: vtw vecadd: already transformed (parameter __vtw_nctaid_x)");
    expect(GPUSIM " xform bench/vecadd/kernel.ptx", 2, "gpusim xform: no transform given");
    expect(GPUSIM " xform --redir bench/vecadd/kernel.ptx", 0,
           "\tld.global.u32 %rg_l, [%rg_addr];\n\tsub.u32 %rg_t, %rg_ntid_x, 1;\n");
    expect(GPUSIM " xform --redir=bdgn bench/mandel/kernel.ptx", 0,
           "\tdiv.u32 %rg_lcta, %rg_l, %rg_tpc;\n");
    expect(GPUSIM " xform --redir=b2 bench/vecadd/kernel.ptx", 2, "--redir=b2: the form is b1");
    expect(GPUSIM " xform --redir --vtw bench/vecadd/kernel.ptx", 2, "one transform at a time");
    expect(GPUSIM " xform --redir bench/reduce/kernel.ptx", 2, "the kernel uses shared memory");
    expect(GPUSIM " xform --vtw=fast bench/vecadd/kernel.ptx", 2, "--vtw=fast: the form is hw or sw");
    expect(GPUSIM " xform --vtw", 2, "gpusim xform: no PTX file given");
    expect(GPUSIM " xform --vtw bench/vecadd/kernel.ptx --kernel nosuch", 2,
           "bench/vecadd/kernel.ptx: no kernel (.entry) named 'nosuch'");
    expect(GPUSIM " xform --vtw no/such.ptx", 2, "no/such.ptx: cannot read");
    expect(GPUSIM " xform --vtw bench/vecadd/kernel.ptx -o", 2, "option -o needs an output file");
    expect(GPUSIM " xform --vtw bench/vecadd/kernel.ptx -o /nonexistent/x.ptx", 2,
           "cannot write /nonexistent/x.ptx");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_and_run),
        cmocka_unit_test(test_time_skip_equivalent),
        cmocka_unit_test(test_launch_bench),
        cmocka_unit_test(test_wrong_result_exits_1),
        cmocka_unit_test(test_errors_exit_2),
        cmocka_unit_test(test_json_is_deterministic),
        cmocka_unit_test(test_json_str),
        cmocka_unit_test(test_json_escapes_strings),
        cmocka_unit_test(test_header_names_latency_set),
        cmocka_unit_test(test_timing_deterministic_and_skip_equivalent),
        cmocka_unit_test(test_watchdog_dump),
        cmocka_unit_test(test_record),
        cmocka_unit_test(test_perf_keeps_notes),
        cmocka_unit_test(test_ptx_print),
        cmocka_unit_test(test_res),
        cmocka_unit_test(test_xform),
        cmocka_unit_test(test_res_vtw),
        cmocka_unit_test(test_report_vtw),
        cmocka_unit_test(test_report_vt),
        cmocka_unit_test(test_report_dws),
        cmocka_unit_test(test_report_regroup),
        cmocka_unit_test(test_report_page),
        cmocka_unit_test(test_report_page_in_chromium),
        cmocka_unit_test(test_bbv_cli),
        cmocka_unit_test(test_bbv_read_refusals),
        cmocka_unit_test(test_ptx_and_record_not_regular),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
