/*
 * test_suites.c -- tools/suites/rodinia.sh, which builds a user's checkout of Rodinia for the
 * model (docs/apps.md "Public suites: tools/suites"): its input generator
 * (tools/suites/gen.c, compiled here with cc) writes the same bytes on every run and
 * on every machine (a checksum per kind) and refuses bad arguments; the script refuses a missing
 * checkout or a missing nvcc with exit status 2 and a message naming what is missing. The full
 * build (a small part of the suite, then gpusim exec on one program) needs nvcc and a checkout
 * named by GPUSIM_RODINIA=DIR, and is skipped, saying so, without them. tools/suites'
 * divergence.sh and kernels.sh on two of the project's own CUDA programs (tests/cuda/vadd, and
 * tests/data/apps/settings.sh, whose output names the model's settings): a row per kernel, a
 * variant whose output is not the first's reported instead of counted, bad arguments refused.
 * tools/suites/ispass.sh (the GPGPU-Sim ISPASS-2009 set): gen idx3's header, the script's
 * refusals, and with nvcc and GPUSIM_ISPASS=DIR a tiny build and gpusim exec --check.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"

#define T_ BUILD_DIR "/tests/suites-out"
#define GEN T_ "/gen"
#define SCRIPT "tools/suites/rodinia.sh"
#define ISPASS_SCRIPT "tools/suites/ispass.sh"

static int setup(void **state)
{
    (void)state;
    if (system("rm -rf " T_ " && mkdir -p " T_ "/fake/cuda/bfs && : > " T_
               "/fake/cuda/bfs/bfs.cu") != 0)
        return -1;
    return system("cc -std=c11 -O2 -o " GEN " tools/suites/gen.c -lm") == 0 ? 0 : -1;
}

/* Runs cmd (stderr into stdout), the output in out; returns the exit status. */
static int run(const char *cmd, char *out, size_t n)
{
    char full[2048];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    assert_non_null(p);
    size_t k = fread(out, 1, n - 1, p);
    out[k] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* FNV-1a of what the generator writes for args; its exit status must be 0. */
static uint64_t gen_sum(const char *args)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, GEN " %s", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    uint64_t h = 0xcbf29ce484222325ULL;
    int c;
    while ((c = getc(p)) != EOF)
        h = (h ^ (uint64_t)(unsigned char)c) * 0x100000001b3ULL;
    assert_int_equal(pclose(p), 0);
    return h;
}

/* Each kind of input: the same bytes twice, and the bytes this machine wrote when the
 * generator was written (a change of the generator, its seeds or its formats changes them). */
static void test_gen_deterministic(void **state)
{
    static const struct {
        const char *args;
        uint64_t sum;
    } k[] = {
        {"graph 64 1", 0x569a80369608a31fULL},
        {"grid 100 323 343 2", 0xcc662fd8d5ce8ffeULL},
        {"pgm 8 10 6", 0x384964c76cf9e529ULL},
        {"keys 100 9", 0x739946a41c3f7ffeULL},
        {"records 20 7", 0x6b566693836dd25aULL},
        {"mesh 4 3 10", 0x84631ea91f5fcfaaULL},
        {"bytes 1000 11", 0xb8b705a1c6fc7149ULL},
        {"idx3 3 12", 0x55c5eb519ffa297eULL},
    };
    int bad = 0;
    (void)state;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        uint64_t a = gen_sum(k[i].args), b = gen_sum(k[i].args);
        if (a != b || a != k[i].sum) {
            print_error("gen %s: %#llx then %#llx, expected %#llx\n", k[i].args,
                        (unsigned long long)a, (unsigned long long)b,
                        (unsigned long long)k[i].sum);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* The formats the programs read, spot-checked: bfs's node count first, nn's latitude at
 * column 28 and longitude at 33, srad's three header lines. */
static void test_gen_formats(void **state)
{
    char out[4096];
    (void)state;
    assert_int_equal(run(GEN " graph 5 1 | head -1", out, sizeof out), 0);
    assert_string_equal(out, "5\n");
    assert_int_equal(run(GEN " records 1 7", out, sizeof out), 0);
    assert_int_equal(strlen(out), 49);
    assert_true(out[27] == ' ' && out[32] == ' ' && atof(out + 28) > 0 && atof(out + 33) > 0);
    assert_int_equal(run(GEN " pgm 2 3 6 | head -3", out, sizeof out), 0);
    assert_string_equal(out, "P2\n3 2\n255\n");
    assert_int_equal(run(GEN " mesh 2 2 1 | head -1", out, sizeof out), 0);
    assert_string_equal(out, "4\n");
}

static void test_gen_refuses(void **state)
{
    char out[1024];
    (void)state;
    assert_int_equal(run(GEN " graph", out, sizeof out), 2);
    tu_assert_contains(out, "usage: gen");
    assert_int_equal(run(GEN " graph x 1", out, sizeof out), 2);
    assert_int_equal(run(GEN " pgm 4 4", out, sizeof out), 2);
    assert_int_equal(run(GEN " cubes 4 4", out, sizeof out), 2);
}

/* The script's refusals: exit status 2 and a message naming what is missing. */
static void test_script_refuses(void **state)
{
    char out[2048];
    (void)state;
    assert_int_equal(run("env -u GPUSIM_RODINIA sh " SCRIPT " --out " T_ "/o", out, sizeof out),
                     2);
    tu_assert_contains(out, "no Rodinia checkout: pass --rodinia DIR or set GPUSIM_RODINIA");
    assert_int_equal(run("sh " SCRIPT " --rodinia " T_ "/nowhere --out " T_ "/o", out, sizeof out),
                     2);
    tu_assert_contains(out, "is not a Rodinia checkout (no cuda/bfs/bfs.cu)");
    assert_int_equal(run("sh " SCRIPT " --rodinia " T_ "/fake --nvcc " T_ "/no/nvcc --out " T_
                         "/o", out, sizeof out), 2);
    tu_assert_contains(out, "nvcc not found");
    assert_int_equal(run("sh " SCRIPT " --rodinia " T_ "/fake --size huge", out, sizeof out), 2);
    tu_assert_contains(out, "--size is small, tiny or table1, not 'huge'");
    assert_int_equal(run("sh " SCRIPT " --rodinia " T_ "/fake --only bfs,kmeans", out,
                         sizeof out), 2);
    tu_assert_contains(out, "--only: no program 'kmeans' (one of: bfs backprop");
    assert_int_equal(run("sh " SCRIPT " --bogus", out, sizeof out), 2);
    tu_assert_contains(out, "unknown argument '--bogus'");
    /* nothing was built for a refused run */
    assert_int_equal(system("test -e " T_ "/o"), 256);
}

static int have_nvcc(void)
{
    return system("command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc") == 0;
}

/* The full build on a part of the suite at the tiny size, then gpusim exec --check on one
 * program and gpusim exec on another through the applications file: needs nvcc and GPUSIM_RODINIA. */
static void test_build_and_run(void **state)
{
    static char out[65536];
    const char *rod = getenv("GPUSIM_RODINIA");
    (void)state;
    if (!rod || !*rod || !have_nvcc()) {
        fprintf(stderr, "test_build_and_run: skipped: needs nvcc and a Rodinia checkout "
                        "(GPUSIM_RODINIA=DIR)\n");
        skip();
    }
    assert_int_equal(run("sh " SCRIPT " --size tiny --only bfs,hotspot,b+tree --out " T_ "/b",
                         out, sizeof out), 0);
    tu_assert_contains(out, "bfs                      built");
    tu_assert_contains(out, "hotspot                  built");
    size_t n;
    char *apps = tu_read_file(T_ "/b/rodinia.apps", &n);
    assert_non_null(apps);
    tu_assert_contains(apps, "app bfs\n  dir bfs\n  run ./bfs graph.txt\n  input graph.txt\n");
    tu_assert_contains(apps, "app btree\n");
    free(apps);
    assert_int_equal(run("cd " T_ "/b && ../../../gpusim exec --check --apps rodinia.apps "
                         "--app hotspot",
                         out, sizeof out),
                     0);
    tu_assert_contains(out, "the same under the functional and the timing model");
    assert_int_equal(run("cd " T_ "/b && ../../../gpusim exec --apps rodinia.apps --app bfs", out,
                         sizeof out),
                     0);
    tu_assert_contains(out, "Kernel Executed");
    tu_assert_contains(out, "gpusim: total: ");
}

/* The applications file of the script tests: vadd, and settings (vadd, then the settings). */
static void scripts_apps(void)
{
    char cwd[1024], text[3000];
    FILE *f;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text, "app vadd\n  run %s/tests/cuda/vadd/app\napp settings\n"
             "  run %s/tests/data/apps/settings.sh\n", cwd, cwd);
    assert_non_null(f = fopen(T_ "/s.apps", "w"));
    fputs(text, f);
    fclose(f);
}

/* divergence.sh: 000 Table 1's and 2's columns per kernel (vadd: 4 TBs, no divergence). */
static void test_divergence_script(void **state)
{
    char out[8192];
    (void)state;
    scripts_apps();
    assert_int_equal(run("sh tools/suites/divergence.sh --apps " T_ "/s.apps --only vadd --out "
                         T_ "/div --gpusim " BUILD_DIR "/gpusim", out, sizeof out), 0);
    tu_assert_contains(out, "| application | kernel | launches | TBs |");
    tu_assert_contains(out, "| vadd | vadd | 1 | 4 | 0/0/0/0 |");
    assert_int_equal(run("sh tools/suites/divergence.sh --only vadd", out, sizeof out), 2);
    tu_assert_contains(out, "no applications file: pass --apps FILE");
    assert_int_equal(run("sh tools/suites/divergence.sh --apps " T_ "/s.apps --gpusim /nope",
                         out, sizeof out), 2);
    tu_assert_contains(out, "no simulator at '/nope'");
}

/* kernels.sh: the first variant's cycles and each other's speed-up per kernel; an application
   whose output differs between variants (settings names them) is reported, not counted, and
   the exit status says so. */
static void test_kernels_script(void **state)
{
    char out[8192];
    (void)state;
    scripts_apps();
    assert_int_equal(run("sh tools/suites/kernels.sh --apps " T_ "/s.apps --out " T_ "/k --gpusim "
                         BUILD_DIR "/gpusim --variants 'A=sched_policy=gto B=sched_policy=lrr'",
                         out, sizeof out), 1);
    tu_assert_contains(out, "| application | kernel | A cycles | B | vInstr (B) |");
    tu_assert_contains(out, "| vadd | vadd | 1152 | 0.99 | 1.00 |");
    tu_assert_contains(out, "| settings | ( B: output differs from A's;) |");
    assert_int_equal(run("sh tools/suites/kernels.sh --apps " T_ "/s.apps --bogus", out,
                         sizeof out), 2);
    tu_assert_contains(out, "unknown argument '--bogus'");
}

/* ISPASS NN's image file: the idx3 header (magic 2051, the count, 28 rows, 28 columns as
   big-endian words), then 28 x 28 bytes an image. */
static void test_ispass_gen_idx3(void **state)
{
    char out[256];
    (void)state;
    assert_int_equal(run(GEN " idx3 3 5 | head -c 16 | od -An -tx1 | tr -d ' \\n'", out,
                         sizeof out), 0);
    assert_string_equal(out, "0000080300000003" "0000001c0000001c");
    assert_int_equal(run(GEN " idx3 3 5 | wc -c", out, sizeof out), 0);
    assert_int_equal(atoi(out), 16 + 3 * 28 * 28);
    assert_int_equal(run(GEN " idx3 0 5", out, sizeof out), 2);
}

/* ispass.sh's refusals: exit status 2, a message naming what is missing, nothing written. */
static void test_ispass_script_refuses(void **state)
{
    char out[2048];
    (void)state;
    assert_int_equal(system("mkdir -p " T_ "/fake-ispass && : > " T_
                            "/fake-ispass/README.ISPASS-2009"), 0);
    assert_int_equal(run("env -u GPUSIM_ISPASS sh " ISPASS_SCRIPT " --out " T_ "/oi", out,
                         sizeof out), 2);
    tu_assert_contains(out, "no ISPASS-2009 checkout: pass --ispass DIR or set GPUSIM_ISPASS");
    assert_int_equal(run("sh " ISPASS_SCRIPT " --ispass " T_ "/fake --out " T_ "/oi", out,
                         sizeof out), 2);
    tu_assert_contains(out, "is not an ISPASS-2009 checkout (no README.ISPASS-2009)");
    assert_int_equal(run("sh " ISPASS_SCRIPT " --ispass " T_ "/fake-ispass --nvcc " T_
                         "/no/nvcc --out " T_ "/oi", out, sizeof out), 2);
    tu_assert_contains(out, "nvcc not found");
    assert_int_equal(run("sh " ISPASS_SCRIPT " --ispass " T_ "/fake-ispass --size huge --out "
                         T_ "/oi", out, sizeof out), 2);
    tu_assert_contains(out, "--size is small, tiny or table1, not 'huge'");
    assert_int_equal(run("sh " ISPASS_SCRIPT " --ispass " T_ "/fake-ispass --only NQU,AES --out "
                         T_ "/oi", out, sizeof out), 2);
    tu_assert_contains(out, "--only: no program 'AES' (one of: LPS NQU LIB NN STO CP BFS RAY)");
    assert_int_equal(run("sh " ISPASS_SCRIPT " --ispass " T_ "/fake-ispass --bogus", out,
                         sizeof out), 2);
    tu_assert_contains(out, "unknown argument '--bogus'");
    assert_int_equal(system("test -e " T_ "/oi"), 256);
}

/* The tiny build of NQU and BFS, then gpusim exec --check on NQU through the applications file
   (its count, 92, is compared; its timers are not): needs nvcc and GPUSIM_ISPASS. */
static void test_ispass_build_and_run(void **state)
{
    static char out[65536];
    const char *isp = getenv("GPUSIM_ISPASS");
    (void)state;
    if (!isp || !*isp || !have_nvcc()) {
        fprintf(stderr, "test_ispass_build_and_run: skipped: needs nvcc and an ISPASS-2009 "
                        "checkout (GPUSIM_ISPASS=DIR)\n");
        skip();
    }
    assert_int_equal(run("sh " ISPASS_SCRIPT " --size tiny --only NQU,BFS --out " T_ "/ib", out,
                         sizeof out), 0);
    tu_assert_contains(out, "NQU                      built");
    tu_assert_contains(out, "BFS                      built");
    size_t n;
    char *apps = tu_read_file(T_ "/ib/ispass.apps", &n);
    assert_non_null(apps);
    tu_assert_contains(apps, "app BFS\n  dir BFS\n  run ./BFS data/graph4096.txt\n"
                             "  input data/graph4096.txt\n");
    free(apps);
    assert_int_equal(run("cd " T_ "/ib && ../../../gpusim exec --check --apps ispass.apps "
                         "--app NQU", out, sizeof out), 0);
    tu_assert_contains(out, "the same under the functional and the timing model");
}

int main(void)
{
    tu_filters();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen_deterministic), cmocka_unit_test(test_gen_formats),
        cmocka_unit_test(test_gen_refuses),       cmocka_unit_test(test_script_refuses),
        cmocka_unit_test(test_build_and_run),
        cmocka_unit_test(test_divergence_script), cmocka_unit_test(test_kernels_script),
        cmocka_unit_test(test_ispass_gen_idx3),   cmocka_unit_test(test_ispass_script_refuses),
        cmocka_unit_test(test_ispass_build_and_run),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
