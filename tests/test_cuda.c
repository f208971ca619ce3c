/*
 * test_cuda.c -- unmodified CUDA programs on the model: the checked-in programs of
 * tests/cuda/ (nvcc -cudart shared, default options; make cuda-apps rebuilds them where nvcc
 * exists, so no nvcc is needed here) run through build/gpusim exec and the runtime library
 * build/cuda/libcudart.so.13. Each case checks the exit status, the program's own stdout (it
 * checks its results itself) and what the library says on stderr:
 *   - vadd, symbols (__constant__/__device__ variables), twofiles (two fatbinaries), launch
 *     (templates, a namespace, 3-D grids, a struct argument, dynamic shared memory,
 *     cudaLaunchKernel), api (devices, events in simulated time, streams, 2-D copies), carry
 *     (PTX's carry flag: inline assembly and libdevice's double sin/cos);
 *   - printf: device printf's whole output (tests/cuda/printf/expected.txt) under the timing
 *     model, the functional one and VT; GPUSIM_PRINTF to a file and off;
 *   - oob: cudaErrorIllegalAddress and the model's message (kernel, PC, CTA, thread) once;
 *     unsupported: cudaErrorNotSupported and the call's name once; sassonly: no PTX;
 *   - vadd under every mechanism (vt = on, dws = revive, vtw = hw with its scheduler, the
 *     functional model), its statistics showing the mechanism; the statistics files;
 *   - gpusim exec --check: vadd the same under both models, api's simulated kernel time a
 *     difference (exit 1) until --ignore drops it, printf under VT the same, a bad regex;
 *   - gpusim exec's own errors (a bad --set is exit 2 before the program runs), the library
 *     loaded by LD_LIBRARY_PATH by hand, a bad configuration reported once with every call
 *     failing, GPUSIM_PTX replacing the program's PTX (GPUSIM_DUMP_PTX to get it).
 */
#include <sys/wait.h>
#include "testutil.h"

#define GPUSIM BUILD_DIR "/gpusim"
#define OUT    BUILD_DIR "/tests/cuda-out"
#define APP(n) "tests/cuda/" n "/app"

struct run { int rc; char *out, *err; };

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

/* sh -c "CMD" with stdout and stderr kept apart. */
static struct run run(const char *fmt, ...)
{
    char cmd[4096], sh[4300];
    struct run r;
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(sh, sizeof sh, "( %s ) > " OUT "/stdout 2> " OUT "/stderr", cmd);
    st = system(sh);
    r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = tu_read_file(OUT "/stdout", NULL);
    r.err = tu_read_file(OUT "/stderr", NULL);
    if (!r.out || !r.err)
        fail_msg("no output of %s", cmd);
    return r;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* gpusim exec OPTS -- tests/cuda/NAME/app: exit 0, stdout exactly `want` (NULL: unchecked). */
static struct run exec_ok(const char *name, const char *opts, const char *want)
{
    struct run r = run("env -u GPUSIM_SET -u GPUSIM_CONFIG -u GPUSIM_PTX " GPUSIM
                       " exec %s -- tests/cuda/%s/app", opts, name);
    if (r.rc != 0)
        fail_msg("%s %s: exit %d\nstdout: %s\nstderr: %s", name, opts, r.rc, r.out, r.err);
    if (want)
        assert_string_equal(r.out, want);
    return r;
}

static int setup(void **state)
{
    (void)state;
    return system("rm -rf " OUT " && mkdir -p " OUT) ? -1 : 0;
}

static void test_vadd(void **state)
{
    struct run r = exec_ok("vadd", "", "vadd: PASSED\n");
    (void)state;
    tu_assert_contains(r.err, "gpusim: launch 1 vadd(float const*, float const*, float*, int) "
                       "grid (4,1,1) block (256,1,1): ");
    tu_assert_contains(r.err, " cycles, IPC ");
    tu_assert_contains(r.err, "12 regs (recorded)");          /* tests/cuda/vadd/app.1.res */
    tu_assert_contains(r.err, "gpusim: total: 1 launches, ");
    tu_assert_contains(r.err, "(gtx480, timing model)\n");
    run_free(&r);
}

/* The statistics files; the summary in a file leaves stderr empty. */
static void test_stats_files(void **state)
{
    struct run r = exec_ok("twofiles", "--json " OUT "/s.json --launches " OUT "/s.csv "
                           "--summary " OUT "/s.txt", "twofiles: PASSED\n");
    char *json = tu_read_file(OUT "/s.json", NULL), *csv = tu_read_file(OUT "/s.csv", NULL);
    char *sum = tu_read_file(OUT "/s.txt", NULL);
    (void)state;
    assert_string_equal(r.err, "");
    assert_non_null(json);
    assert_non_null(csv);
    assert_non_null(sum);
    assert_int_equal(json[0], '[');
    assert_string_equal(json + strlen(json) - 4, "}\n]\n");           /* a whole array */
    tu_assert_contains(json, "\"kernel\": \"_Z5scalePii\"");
    tu_assert_contains(json, "\"kernel\": \"_Z8add_basePi\"");
    tu_assert_contains(json, "\"name\": \"scale(int*, int)\"");
    tu_assert_contains(json, "\"regs_source\": \"recorded\"");     /* tests/cuda/twofiles/app.N.res */
    tu_assert_contains(json, "\"registers\": \"8 per thread, recorded: ");
    assert_int_equal(count(json, "\"result\": \"cudaSuccess\""), 2);
    assert_int_equal(count(csv, "\n"), 3);                          /* the header, 2 launches */
    tu_assert_contains(csv, "\n2,_Z8add_basePi,cudaSuccess,0,1,1,");
    tu_assert_contains(sum, "gpusim: launch 2 add_base(int*) grid (1,1,1) block (32,1,1): ");
    tu_assert_contains(sum, "gpusim: total: 2 launches");
    free(json); free(csv); free(sum);
    run_free(&r);
}

static void test_symbols(void **state)
{
    struct run r = exec_ok("symbols", "", "symbols: PASSED\n");
    (void)state;
    tu_assert_contains(r.err, "cudaMemcpyToSymbol: 0x");               /* the non-symbol */
    run_free(&r);
}

/* PTX's carry flag: add.cc/addc, sub.cc/subc, mad.cc/madc in inline assembly and in
   libdevice's double sin/cos of large arguments (particlefilter_float of Rodinia would not
   load without them: docs/cuda.md "Public suites tried"), on the timing and functional
   models. */
static void test_carry(void **state)
{
    struct run r = exec_ok("carry", "", "carry: PASSED\n");
    (void)state;
    tu_assert_contains(r.err, "launch 2 trig(double const*, double*, double*, int)");
    run_free(&r);
    r = exec_ok("carry", "--set model=functional", "carry: PASSED\n");
    run_free(&r);
}

static void test_launch(void **state)
{
    struct run r = exec_ok("launch", "", "launch: PASSED\n");
    (void)state;
    tu_assert_contains(r.err, "launch 1 void fill<float>(float*, float)");
    tu_assert_contains(r.err, "launch 3 geo::coords(int*) grid (2,3,2) block (4,2,2)");
    tu_assert_contains(r.err, "exceed max_shared_per_cta (49152) (cudaErrorInvalidValue)");
    run_free(&r);
}

static void test_api(void **state)
{
    struct run r = exec_ok("api", "", NULL), f;
    (void)state;
    tu_assert_contains(r.out, "api: 1 device: gpusim gtx480, 15 SMs, cc 2.0, 1536 threads/SM, "
                       "8 blocks/SM, 49152 shared/block, 32768 regs/SM, warp 32\n");
    tu_assert_contains(r.out, "api: clock 700000 kHz, runtime 13000, driver 13000\n");
    tu_assert_contains(r.out, "6 blocks of 256/SM");
    tu_assert_contains(r.out, "api: pitch 256, back \"row two\", pointer type 2, 1536 MB total");
    tu_assert_contains(r.out, "api: PASSED\n");
    assert_null(strstr(r.out, "kernel time 0.000000 ms"));           /* simulated, not zero */
    f = exec_ok("api", "--set num_sms=4 --set clock_mhz=1400 --set model=functional", NULL);
    tu_assert_contains(f.out, "gpusim gtx480, 4 SMs");
    tu_assert_contains(f.out, "api: clock 1400000 kHz");
    tu_assert_contains(f.out, "kernel time 0.000000 ms");             /* no cycles */
    run_free(&r);
    run_free(&f);
}

/* Device printf: the whole stdout (tests/cuda/printf/expected.txt) under the timing model,
   the functional one and VT; GPUSIM_PRINTF sends the device's lines elsewhere. */
static void test_printf(void **state)
{
    char *want = tu_read_file("tests/cuda/printf/expected.txt", NULL), *file;
    const char *opts[] = { "", "--set model=functional", "--set vt=on" };
    struct run r;
    (void)state;
    assert_non_null(want);
    for (int i = 0; i < 3; i++) {
        r = exec_ok("printf", opts[i], want);
        run_free(&r);
    }
    r = run("GPUSIM_PRINTF=" OUT "/printf.txt " GPUSIM " exec -- " APP("printf"));
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out, "host: between the launches\nprintf: PASSED\n");
    file = tu_read_file(OUT "/printf.txt", NULL);
    assert_non_null(file);
    tu_assert_contains(file, "ints: -42 42 4000000000 ff FF 10 A|   42|42   |00042|+42\n");
    tu_assert_contains(file, "cta 1 warp 1 lane  7\ncta 1 thread 35 again\n");
    free(file);
    run_free(&r);
    r = run("GPUSIM_PRINTF=off " GPUSIM " exec -- " APP("printf"));
    assert_string_equal(r.out, "host: between the launches\nprintf: PASSED\n");
    run_free(&r);
    free(want);
}

/* gpusim exec --check: vadd the same under both models (the summary on stderr, which
   differs by design, not counted); api prints its kernel's simulated time, 0 under the
   functional model: a real difference, reported with exit 1 until --ignore drops the line;
   printf's device output the same under VT (timing) as under the functional model. */
static void test_check(void **state)
{
    const char *env = "env -u GPUSIM_SET -u GPUSIM_CONFIG -u GPUSIM_PTX " GPUSIM " exec ";
    struct run r = run("%s --check --summary stderr -- " APP("vadd"), env);
    (void)state;
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out, "gpusim exec --check: the same under the functional and the "
                        "timing model: stdout (1 lines), stderr (0 lines), exit status 0\n");
    run_free(&r);
    r = run("%s --check -- " APP("api"), env);
    assert_int_equal(r.rc, 1);
    tu_assert_contains(r.out, "gpusim exec --check: WRONG RESULT: tests/cuda/api/app differs "
                       "between the functional and the timing model\n  stdout differs:\n"
                       "    functional line 4: api: kernel time 0.000000 ms (simulated)\n"
                       "    timing     line 4: api: kernel time 0.0");
    assert_null(strstr(r.out, "stderr differs"));
    assert_null(strstr(r.out, "exit status differs"));
    run_free(&r);
    r = run("%s --check --ignore 'kernel time [0-9.]+ ms' -- " APP("api"), env);
    assert_int_equal(r.rc, 0);
    tu_assert_contains(r.out, "the same under the functional and the timing model: stdout (5 "
                       "lines), stderr (1 lines), exit status 0 (after --ignore)\n");
    run_free(&r);
    /* a mechanism: the functional run is the kernels as written (VT needs the timing model) */
    r = run("%s --check --set vt=on -- " APP("printf"), env);
    assert_int_equal(r.rc, 0);
    tu_assert_contains(r.out, "stdout (94 lines), stderr (0 lines), exit status 0\n");
    run_free(&r);
    r = run("%s --check --ignore '(' -- " APP("vadd"), env);
    assert_int_equal(r.rc, 2);
    tu_assert_contains(r.err, "--ignore '(': ");
    run_free(&r);
    r = run("%s --check -- tests/cuda/nosuch/app", env);
    assert_int_equal(r.rc, 127);
    tu_assert_contains(r.err, "gpusim exec: cannot run tests/cuda/nosuch/app: ");
    run_free(&r);
    r = run("%s --ignore x -- " APP("vadd"), env);
    assert_int_equal(r.rc, 2);
    tu_assert_contains(r.err, "--ignore is for --check");
    run_free(&r);
}

static void test_oob(void **state)
{
    struct run r = exec_ok("oob", "", "oob: launch: cudaErrorIllegalAddress\n"
                           "oob: synchronize: cudaErrorIllegalAddress\n"
                           "oob: later call: cudaErrorIllegalAddress (an illegal memory access "
                           "was encountered)\n");
    (void)state;
    tu_assert_contains(r.err, "gpusim: kernel _Z3oobPii: PC ");
    tu_assert_contains(r.err, "CTA (0,0,0) thread (0,0,0): out-of-bounds global store of 4 "
                       "bytes at 0x");
    assert_int_equal(count(r.err, "out-of-bounds"), 1);
    tu_assert_contains(r.err, "(cudaErrorIllegalAddress)\n");
    run_free(&r);
}

static void test_unsupported(void **state)
{
    struct run r = exec_ok("unsupported", "", NULL);
    (void)state;
    tu_assert_contains(r.out, "unsupported: cudaMallocManaged: cudaErrorNotSupported "
                       "(operation not supported)\n");
    tu_assert_contains(r.out, "unsupported: PASSED\n");
    assert_int_equal(count(r.err, "gpusim: cudaMallocManaged is not supported by the model; it "
                           "returns cudaErrorNotSupported"), 1);    /* called twice */
    assert_int_equal(count(r.err, "gpusim: cudaHostRegister is not supported"), 1);
    run_free(&r);
}

static void test_sass_only(void **state)
{
    struct run r = exec_ok("sassonly", "", "sassonly: launch: cudaErrorNoKernelImageForDevice\n");
    (void)state;
    tu_assert_contains(r.err, "no PTX in it");
    tu_assert_contains(r.err, "-gencode arch=compute_75,code=compute_75");
    run_free(&r);
}

/* vadd under each mechanism: correct, and the statistics show the mechanism at work. */
static void test_mechanisms(void **state)
{
    static const char *const mech[][2] = {
        { "--set vt=on", "\"vt_active_limit\": 6," },
        { "--set dws=revive", "\"split_branch_candidates\": 1," },    /* refused by the rule */
        { "--set vtw=hw --set sched_policy=vtw", "\"vtw_virtual_tbs\": 4," },
        { "--set model=functional", "\"cycles\": 0," },
    };
    (void)state;
    for (unsigned i = 0; i < 4; i++) {
        char opts[256];
        struct run r;
        char *json;
        snprintf(opts, sizeof opts, "%s --json " OUT "/m.json", mech[i][0]);
        r = exec_ok("vadd", opts, "vadd: PASSED\n");
        json = tu_read_file(OUT "/m.json", NULL);
        assert_non_null(json);
        tu_assert_contains(json, mech[i][1]);
        free(json);
        run_free(&r);
    }
}

static void test_exec_errors(void **state)
{
    struct run r = run(GPUSIM " exec --set bogus=1 -- " APP("vadd"));
    (void)state;
    assert_int_equal(r.rc, 2);
    tu_assert_contains(r.err, "gpusim exec: --set: unknown configuration key 'bogus'");
    assert_string_equal(r.out, "");                                  /* it never ran */
    run_free(&r);
    r = run(GPUSIM " exec --set vt=on");
    assert_int_equal(r.rc, 2);
    tu_assert_contains(r.err, "no program given");
    run_free(&r);
    r = run(GPUSIM " exec --frobnicate -- " APP("vadd"));
    assert_int_equal(r.rc, 2);
    tu_assert_contains(r.err, "unknown option '--frobnicate'");
    run_free(&r);
    r = run(GPUSIM " exec -- " OUT "/no-such-program");
    assert_int_equal(r.rc, 127);
    tu_assert_contains(r.err, "cannot run " OUT "/no-such-program");
    run_free(&r);
    r = run(GPUSIM " exec -- sh -c 'exit 7'");                      /* its exit status */
    assert_int_equal(r.rc, 7);
    run_free(&r);
}

/* Without gpusim exec: the library by LD_LIBRARY_PATH, the environment by hand. A bad
   configuration: said once, every call fails (the program's own check stops it). */
static void test_by_hand(void **state)
{
    struct run r = run("env LD_LIBRARY_PATH=" BUILD_DIR "/cuda GPUSIM_SUMMARY=off " APP("vadd"));
    (void)state;
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out, "vadd: PASSED\n");
    assert_string_equal(r.err, "");
    run_free(&r);
    r = run("env LD_LIBRARY_PATH=" BUILD_DIR "/cuda GPUSIM_SET='num_sms=0' " APP("oob"));
    assert_int_equal(r.rc, 1);
    tu_assert_contains(r.out, "cudaMalloc(&d, 16 * sizeof(int)): cudaErrorInitializationError");
    assert_int_equal(count(r.err, "gpusim: cannot start the model: "), 1);
    tu_assert_contains(r.err, "num_sms");
    run_free(&r);
    r = run("env LD_LIBRARY_PATH=" BUILD_DIR "/cuda GPUSIM_CONFIG=" OUT "/none.cfg "
            APP("api"));
    assert_int_equal(r.rc, 1);
    assert_int_equal(count(r.err, "gpusim: cannot start the model: "), 1);
    tu_assert_contains(r.err, OUT "/none.cfg");
    run_free(&r);
}

/* GPUSIM_PTX replaces the program's PTX: its own, dumped and edited (an add made a
   subtraction), makes vadd's check fail. */
static void test_ptx_override(void **state)
{
    struct run r = run("env GPUSIM_DUMP_PTX=" OUT " " GPUSIM " exec --summary off -- "
                       APP("vadd"));
    (void)state;
    assert_int_equal(r.rc, 0);
    run_free(&r);
    assert_int_equal(system("sed 's/add.f32/sub.f32/' " OUT "/module-1.ptx > " OUT "/sub.ptx"),
                     0);
    r = run(GPUSIM " exec --ptx " OUT "/sub.ptx -- " APP("vadd"));
    assert_int_equal(r.rc, 1);
    tu_assert_contains(r.out, "vadd: WRONG c[0]");
    run_free(&r);
    r = run(GPUSIM " exec --ptx " OUT "/module-1.ptx -- " APP("vadd"));
    assert_int_equal(r.rc, 0);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vadd),
        cmocka_unit_test(test_stats_files),
        cmocka_unit_test(test_symbols),
        cmocka_unit_test(test_carry),
        cmocka_unit_test(test_launch),
        cmocka_unit_test(test_api),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_oob),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_sass_only),
        cmocka_unit_test(test_mechanisms),
        cmocka_unit_test(test_exec_errors),
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_ptx_override),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, setup, NULL);
}
