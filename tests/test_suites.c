/*
 * test_suites.c -- tools/suites/rodinia.sh, parboil.sh and ispass.sh, which build a user's
 * checkout of Rodinia, Parboil or the GPGPU-Sim ISPASS-2009 set for the model (docs/apps.md
 * "Public suites: tools/suites"): their input generator (tools/suites/gen.c, compiled here
 * with cc) writes the same bytes on every run and on every machine (a checksum per kind), in
 * the formats the programs read, and refuses bad arguments; each script refuses a missing
 * checkout or a missing nvcc with exit status 2 and a message naming what is missing, before
 * writing anything. The full builds (a small part of a suite, then gpusim exec) need nvcc and
 * a checkout named by GPUSIM_RODINIA=DIR, GPUSIM_PARBOIL=DIR or GPUSIM_ISPASS=DIR, and are
 * skipped, saying so, without them. tools/suites' divergence.sh and kernels.sh on two of the
 * project's own CUDA programs (tests/cuda/vadd, and tests/data/apps/settings.sh, whose output
 * names the model's settings): a row per kernel, a variant whose output is not the first's
 * reported instead of counted, bad arguments refused.
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
#define PBSCRIPT "tools/suites/parboil.sh"

static int setup(void **state)
{
    (void)state;
    if (system("rm -rf " T_ " && mkdir -p " T_ "/fake/cuda/bfs " T_ "/fakepb/common/src " T_
               "/fake-ispass && : > " T_ "/fake/cuda/bfs/bfs.cu && : > " T_
               "/fakepb/common/src/parboil_cuda.c && : > " T_
               "/fake-ispass/README.ISPASS-2009") != 0)
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
        {"matrix 4 3 1", 0xe91a9459ac2da45fULL},
        {"floats 16 3", 0xfe11990535991ca0ULL},
        {"histo 8 4 8 16 4", 0x55a4a6c6aa81c793ULL},
        {"mriq 8 4 5", 0xa4428182f77f5797ULL},
        {"pqr 5 12 12 8 6", 0x3006d548a716eb2aULL},
        {"points 10 7", 0xbb8d5bf9fdb18a02ULL},
        {"obstacles 12 6 4 8", 0x362100679a226e05ULL},
        {"samples 5 9", 0x14185ee2792a1019ULL},
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

/* Parboil's: sgemm's "R C" line, then R x C values; the sizes of the binary kinds (histo's four
 * header words, then its image; mri-q's two counts, then 8 arrays; stencil's raw floats; 6
 * floats a mri-gridding sample; lbm's cells with a newline a row and a blank line a slice);
 * cutcp's records as its readatom.c reads them; tpacf's points on the sky. */
static void test_gen_parboil_formats(void **state)
{
    char out[4096];
    float x, y, z, q;
    (void)state;
    assert_int_equal(run(GEN " matrix 4 3 1 | head -1; " GEN " matrix 4 3 1 | wc -l", out,
                         sizeof out), 0);
    assert_string_equal(out, "4 3\n13\n");
    assert_int_equal(run(GEN " histo 8 4 8 16 4 | od -An -tu4 -N16 | tr -s ' '", out, sizeof out),
                     0);
    assert_string_equal(out, " 8 4 8 16\n");
    assert_int_equal(run("for k in 'histo 8 4 8 16 4' 'mriq 8 4 5' 'floats 16 3' 'samples 5 9' "
                         "'obstacles 12 6 4 8'; do " GEN " $k | wc -c; done | tr '\\n' ' '",
                         out, sizeof out), 0);
    assert_string_equal(out, "144 216 64 120 316 ");
    assert_int_equal(run(GEN " pqr 1 12 12 8 6", out, sizeof out), 0);
    assert_int_equal(sscanf(out, "%*s %*d %*s %*s %*d %f %f %f %f", &x, &y, &z, &q), 4);
    assert_true(x >= 0 && x < 12 && y >= 0 && y < 12 && z >= 0 && z < 8 && q >= -1 && q < 1);
    assert_int_equal(run(GEN " points 1 7", out, sizeof out), 0);
    assert_int_equal(sscanf(out, "%f %f", &x, &y), 2);
    assert_true(x >= 0 && x < 360 && y >= -90 && y <= 90);
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
    assert_int_equal(run(GEN " obstacles 4 4 4", out, sizeof out), 2);
    assert_int_equal(run(GEN " histo 8 4 8 0 1", out, sizeof out), 2);
}

/* A suite script and what its refusals name. */
struct suite {
    const char *script, *var, *opt, *name, *fake, *marker, *only, *only_msg, *apps;
};

static const struct suite rodinia = {SCRIPT, "GPUSIM_RODINIA", "--rodinia", "Rodinia",
                                     T_ "/fake", "cuda/bfs/bfs.cu", "bfs,kmeans",
                                     "--only: no program 'kmeans' (one of: bfs backprop",
                                     "rodinia.apps"};
static const struct suite parboil = {PBSCRIPT, "GPUSIM_PARBOIL", "--parboil", "Parboil",
                                     T_ "/fakepb", "common/src/parboil_cuda.c", "sgemm,spmv",
                                     "--only: no program 'spmv' (one of: sgemm stencil",
                                     "parboil.apps"};
static const struct suite ispass = {ISPASS_SCRIPT, "GPUSIM_ISPASS", "--ispass", "ISPASS-2009",
                                    T_ "/fake-ispass", "README.ISPASS-2009", "NQU,AES",
                                    "--only: no program 'AES' (one of: LPS NQU LIB NN STO CP BFS "
                                    "RAY)", "ispass.apps"};

/* A script's refusals: exit status 2 and a message naming what is missing, nothing written. */
static void suite_refuses(const struct suite *s)
{
    char cmd[1024], msg[256], out[2048];
    snprintf(cmd, sizeof cmd, "env -u %s sh %s --out " T_ "/o", s->var, s->script);
    assert_int_equal(run(cmd, out, sizeof out), 2);
    snprintf(msg, sizeof msg, "no %s checkout: pass %s DIR or set %s", s->name, s->opt, s->var);
    tu_assert_contains(out, msg);
    snprintf(cmd, sizeof cmd, "sh %s %s " T_ "/nowhere --out " T_ "/o", s->script, s->opt);
    assert_int_equal(run(cmd, out, sizeof out), 2);
    snprintf(msg, sizeof msg, "%s checkout (no %s)", s->name, s->marker);
    tu_assert_contains(out, msg);
    snprintf(cmd, sizeof cmd, "sh %s %s %s --nvcc " T_ "/no/nvcc --out " T_ "/o", s->script,
             s->opt, s->fake);
    assert_int_equal(run(cmd, out, sizeof out), 2);
    tu_assert_contains(out, "nvcc not found");
    snprintf(cmd, sizeof cmd, "sh %s %s %s --size huge", s->script, s->opt, s->fake);
    assert_int_equal(run(cmd, out, sizeof out), 2);
    tu_assert_contains(out, "--size is small, tiny or table1, not 'huge'");
    snprintf(cmd, sizeof cmd, "sh %s %s %s --only %s", s->script, s->opt, s->fake, s->only);
    assert_int_equal(run(cmd, out, sizeof out), 2);
    tu_assert_contains(out, s->only_msg);
    snprintf(cmd, sizeof cmd, "sh %s --bogus", s->script);
    assert_int_equal(run(cmd, out, sizeof out), 2);
    tu_assert_contains(out, "unknown argument '--bogus'");
    /* nothing was built for a refused run */
    assert_int_equal(system("test -e " T_ "/o"), 256);
}

static void test_script_refuses(void **state)
{
    (void)state;
    suite_refuses(&rodinia);
}

static void test_parboil_refuses(void **state)
{
    (void)state;
    suite_refuses(&parboil);
}

static int have_nvcc(void)
{
    return system("command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc") == 0;
}

/* Skips the calling test, saying so, without nvcc or the suite's checkout. */
static void need_checkout(const char *test, const struct suite *s)
{
    const char *dir = getenv(s->var);
    if (!dir || !*dir || !have_nvcc()) {
        fprintf(stderr, "%s: skipped: needs nvcc and a %s checkout (%s=DIR)\n", test, s->name,
                s->var);
        skip();
    }
}

/* A tiny build of the programs ONLY (comma-separated) into DIR: each says "built", the
 * applications file holds ENTRY, and gpusim exec --check finds CHECK's output the same under
 * both models. */
static void tiny_build(const struct suite *s, const char *only, const char *dir,
                       const char *entry, const char *check)
{
    static char out[65536];
    char cmd[1024], want[128], list[256], path[512];
    snprintf(cmd, sizeof cmd, "sh %s --size tiny --only %s --out %s", s->script, only, dir);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    snprintf(list, sizeof list, "%s", only);
    for (char *p = strtok(list, ","); p; p = strtok(NULL, ",")) {
        snprintf(want, sizeof want, "%-24s built", p);
        tu_assert_contains(out, want);
    }
    snprintf(path, sizeof path, "%s/%s", dir, s->apps);
    char *apps = tu_read_file(path, NULL);
    assert_non_null(apps);
    tu_assert_contains(apps, entry);
    free(apps);
    snprintf(cmd, sizeof cmd, "cd %s && ../../../gpusim exec --check --apps %s --app %s", dir,
             s->apps, check);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    tu_assert_contains(out, "the same under the functional and the timing model");
}

/* The full build on a part of Rodinia at the tiny size, then gpusim exec --check on one
 * program and gpusim exec on another through the applications file: needs nvcc and
 * GPUSIM_RODINIA. */
static void test_build_and_run(void **state)
{
    static char out[65536];
    (void)state;
    need_checkout("test_build_and_run", &rodinia);
    tiny_build(&rodinia, "bfs,hotspot,b+tree", T_ "/b",
               "app bfs\n  dir bfs\n  run ./bfs graph.txt\n  input graph.txt\n", "hotspot");
    char *apps = tu_read_file(T_ "/b/rodinia.apps", NULL);
    assert_non_null(apps);
    tu_assert_contains(apps, "app btree\n");
    free(apps);
    assert_int_equal(run("cd " T_ "/b && ../../../gpusim exec --apps rodinia.apps --app bfs", out,
                         sizeof out),
                     0);
    tu_assert_contains(out, "Kernel Executed");
    tu_assert_contains(out, "gpusim: total: ");
}

/* parboil.sh's tiny build of sgemm and tpacf: each runs through outsum.sh, whose line gives the
 * result file's checksum; tpacf's output the same under both models (one tile: no race). Needs
 * nvcc and GPUSIM_PARBOIL. */
static void test_parboil_build(void **state)
{
    static char out[65536];
    (void)state;
    need_checkout("test_parboil_build", &parboil);
    tiny_build(&parboil, "sgemm,tpacf", T_ "/pb",
               "app sgemm\n  dir sgemm\n  run ./outsum.sh c.txt ./sgemm -i "
               "a.txt,bt.txt,bt.txt -o c.txt\n  input sgemm\n", "tpacf");
    assert_int_equal(run("cd " T_ "/pb && ../../../gpusim exec --apps parboil.apps --app sgemm",
                         out, sizeof out), 0);
    tu_assert_contains(out, "output c.txt: ");
    tu_assert_contains(out, "gpusim: total: 1 launches");
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

static void test_ispass_script_refuses(void **state)
{
    (void)state;
    suite_refuses(&ispass);
}

/* The tiny build of NQU and BFS, then gpusim exec --check on NQU through the applications file
   (its count, 92, is compared; its timers are not): needs nvcc and GPUSIM_ISPASS. */
static void test_ispass_build_and_run(void **state)
{
    (void)state;
    need_checkout("test_ispass_build_and_run", &ispass);
    tiny_build(&ispass, "NQU,BFS", T_ "/ib",
               "app BFS\n  dir BFS\n  run ./BFS data/graph4096.txt\n"
               "  input data/graph4096.txt\n", "NQU");
}

int main(void)
{
    tu_filters();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen_deterministic), cmocka_unit_test(test_gen_formats),
        cmocka_unit_test(test_gen_parboil_formats), cmocka_unit_test(test_gen_refuses),
        cmocka_unit_test(test_script_refuses),    cmocka_unit_test(test_parboil_refuses),
        cmocka_unit_test(test_build_and_run),     cmocka_unit_test(test_parboil_build),
        cmocka_unit_test(test_divergence_script), cmocka_unit_test(test_kernels_script),
        cmocka_unit_test(test_ispass_gen_idx3),   cmocka_unit_test(test_ispass_script_refuses),
        cmocka_unit_test(test_ispass_build_and_run),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
