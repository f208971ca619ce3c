/*
 * test_host_cuda.c -- what the host API gained for the CUDA runtime library (gpusim.h, the
 * block "for the CUDA runtime library"), and the register counts of PTX loaded as text:
 *   - gs_module_var: a .global and a .const variable's address and size, their initialisers
 *     in device memory; a .shared or unknown name is not found;
 *   - gs_kernel_attr and gs_kernel_occupancy against what a launch's statistics say;
 *   - gs_mem_info, gs_device_range; gs_stats_csv_header / gs_stats_csv_row (one column per
 *     element, the same count in the header and a row);
 *   - ptxas's answers cached (ptx_res_cache.c): a fake ptxas ($GPUSIM_PTXAS, a script that
 *     counts its compiles) runs for the first load of a text and not for the second, a new
 *     ptxas version runs it again, GPUSIM_PTXAS_CACHE=off never caches;
 *   - a record with the text's hash in gs_set_res_dir's directory is used before ptxas, and
 *     where ptxas is absent; one with another hash is not; under vtw = hw the transform's
 *     registers come from FILE.vtw.res beside the record FILE.res found (a CUDA program's
 *     APP.N.vtw.res), as from kernel.vtw.res beside a PTX file;
 *   - gs_on_launch: the hook is called once per launch that ran, with the kernel, its dynamic
 *     shared memory and the status, not for a launch refused before it ran.
 */
#include <sys/stat.h>
#include "testutil.h"
#include "gpu/gpusim.h"
#include "gpu/kres.h"
#include "ptx/ptx_res.h"

#define TMP BUILD_DIR "/tests/host-cuda-out"

static const char ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .b8 table[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3};\n"
    ".const .align 8 .f64 scale = 0d4000000000000000;\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .shared .align 4 .b8 buf[256];\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.shared.u32 [buf], %r1;\n"
    " ld.global.u32 %r2, [table];\n st.global.u32 [%rd3], %r2;\n ret;\n}\n";

static struct gs_gpu *gpu(const char *const *sets, int n)
{
    struct gs_gpu *g;
    char err[512];
    if (gs_init(&g, NULL, sets, n, err, sizeof err))
        fail_msg("%s", err);
    return g;
}

static void test_module_var(void **state)
{
    const char *sets[] = { "regs_source=estimate" };
    struct gs_gpu *g = gpu(sets, 1);
    struct gs_module *m;
    uint64_t a = 0, n = 0;
    uint32_t t[3];
    double s;
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, ptx, "vars.ptx", &m), GS_OK);
    assert_int_equal(gs_module_var(m, "table", &a, &n), GS_OK);
    assert_int_equal(n, 12);
    assert_int_equal(gs_device_range(g, a, n), 1);
    assert_int_equal(gs_memcpy_dtoh(g, t, a, sizeof t), GS_OK);
    assert_int_equal(t[2], 3);
    assert_int_equal(gs_module_var(m, "scale", &a, NULL), GS_OK);
    assert_int_equal(gs_memcpy_dtoh(g, &s, a, sizeof s), GS_OK);
    assert_true(s == 2.0);
    assert_int_equal(gs_module_var(m, "buf", &a, &n), GS_ERR_NOT_FOUND);   /* .shared */
    assert_int_equal(gs_module_var(m, "nope", &a, &n), GS_ERR_NOT_FOUND);
    assert_int_equal(gs_module_var(NULL, "table", &a, &n), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_device_range(g, a + n, 1), 0);       /* past it: the red zone */
    gs_destroy(g);
}

static void test_kernel_attr_occupancy(void **state)
{
    const char *sets[] = { "regs_per_thread=40" };
    struct gs_gpu *g = gpu(sets, 1);
    struct gs_module *m;
    struct gs_kernel_attr ka;
    struct gs_stats st;
    const char *lim = NULL;
    uint32_t ctas = 0;
    uint64_t out, used = 0, total = 0;
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, ptx, "vars.ptx", &m), GS_OK);
    assert_int_equal(gs_kernel_attr(g, m, "k", &ka), GS_OK);
    assert_int_equal(ka.regs, 40);
    assert_int_equal(ka.regs_source, KRES_OVERRIDE);
    assert_int_equal(ka.shared_static, 256);
    assert_int_equal(ka.nparams, 1);
    /* 40 registers: a warp takes 1280 (in units of 64), 25 warps fit in 32768: 800 threads */
    assert_int_equal(ka.max_threads, 800);
    assert_int_equal(gs_kernel_occupancy(g, m, "k", 256, 0, &ctas, &lim), GS_OK);
    assert_int_equal(gs_malloc(g, &out, 4096), GS_OK);
    {
        const struct gs_arg args[] = { GS_ARG(out) };
        assert_int_equal(gs_launch(g, m, "k", (struct gs_dim3){ 2, 1, 1 },
                                   (struct gs_dim3){ 256, 1, 1 }, 0, args, 1), GS_OK);
    }
    gs_kernel_stats(g, &st);
    assert_int_equal(ctas, st.occupancy);                    /* what the launch reports */
    assert_int_equal(ctas, 3);                               /* 25 warps / 8 per CTA */
    assert_string_equal(lim, "registers");
    assert_int_equal(gs_kernel_occupancy(g, m, "k", 2048, 0, &ctas, NULL), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_kernel_occupancy(g, m, "k", 32, 60000, &ctas, &lim), GS_OK);
    assert_int_equal(ctas, 0);                               /* the shared memory is too much */
    assert_int_equal(gs_kernel_attr(g, m, "missing", &ka), GS_ERR_NOT_FOUND);
    gs_mem_info(g, &used, &total);
    assert_int_equal(total, 1536ull << 20);
    assert_true(used >= 4096 + 12 + 8);
    gs_destroy(g);
}

static void test_stats_csv(void **state)
{
    struct gs_stats s;
    char head[16384], row[16384];
    FILE *f;
    unsigned ch = 0, cr = 0;
    (void)state;
    memset(&s, 0, sizeof s);
    s.launches = 1;
    s.cycles = 100;
    s.warp_insns = 50;
    assert_non_null(f = fmemopen(head, sizeof head, "w"));
    gs_stats_csv_header(f);
    fclose(f);
    assert_non_null(f = fmemopen(row, sizeof row, "w"));
    gs_stats_csv_row(&s, f);
    fclose(f);
    for (char *p = head; *p; p++)
        ch += *p == ',';
    for (char *p = row; *p; p++)
        cr += *p == ',';
    assert_int_equal(ch, cr);
    assert_memory_equal(head, "launches,ctas,cycles,warp_insns,", 32);
    assert_memory_equal(row, "1,0,100,50,", 11);
    tu_assert_contains(head, ",scheduler_cycles_");
    tu_assert_contains(row, ",0.500000,");                   /* warp_ipc */
}

/* A fake ptxas: counts its compiles in TMP/count, reports 21 registers for k. */
static void fake_ptxas(const char *version)
{
    FILE *f = fopen(TMP "/ptxas", "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n"
            "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release %s'; exit 0; fi\n"
            "echo x >> " TMP "/count\n"
            "echo \"ptxas info    : Compiling entry function 'k' for 'sm_75'\" >&2\n"
            "echo 'ptxas info    : Used 21 registers, used 0 barriers, 256 bytes smem' >&2\n",
            version);
    fclose(f);
    chmod(TMP "/ptxas", 0755);
    setenv("GPUSIM_PTXAS", TMP "/ptxas", 1);
}

static unsigned compiles(void)
{
    size_t n = 0;
    char *c = tu_read_file(TMP "/count", &n);
    free(c);
    return c ? (unsigned)(n / 2) : 0;
}

/* Load the text on a new GPU: registers per thread of k, and where they came from. */
static uint32_t load_regs(const char *res_dir, char *note, size_t n, unsigned *src)
{
    struct gs_gpu *g = gpu(NULL, 0);
    struct gs_module *m;
    struct gs_kernel_attr ka;
    assert_int_equal(gs_set_res_dir(g, res_dir), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, ptx, "vars.ptx", &m), GS_OK);
    assert_int_equal(gs_kernel_attr(g, m, "k", &ka), GS_OK);
    *src = ka.regs_source;
    {
        uint64_t out;
        const struct gs_arg args[] = { GS_ARG(out) };
        assert_int_equal(gs_malloc(g, &out, 4096), GS_OK);
        assert_int_equal(gs_launch(g, m, "k", (struct gs_dim3){ 1, 1, 1 },
                                   (struct gs_dim3){ 32, 1, 1 }, 0, args, 1), GS_OK);
    }
    snprintf(note, n, "%s", gs_regs_note(g));
    gs_destroy(g);
    return ka.regs;
}

static int fresh_dir(void **state)
{
    (void)state;
    unsetenv("GPUSIM_PTXAS");
    unsetenv("GPUSIM_PTXAS_CACHE");
    return system("rm -rf " TMP " && mkdir -p " TMP "/cache " TMP "/res") ? -1 : 0;
}

static int restore_env(void **state)
{
    (void)state;
    unsetenv("GPUSIM_PTXAS");
    unsetenv("GPUSIM_PTXAS_CACHE");
    return 0;
}

static void test_ptxas_cache(void **state)
{
    char note[2048];
    unsigned src;
    (void)state;
    fake_ptxas("1.0, V1.0.0");
    setenv("GPUSIM_PTXAS_CACHE", TMP "/cache", 1);
    assert_int_equal(load_regs(NULL, note, sizeof note, &src), 21);
    assert_int_equal(src, KRES_PTXAS);
    assert_int_equal(compiles(), 1);
    tu_assert_contains(note, "run at load");
    assert_int_equal(load_regs(NULL, note, sizeof note, &src), 21);   /* from the cache */
    assert_int_equal(src, KRES_PTXAS);
    assert_int_equal(compiles(), 1);
    tu_assert_contains(note, "cached in " TMP "/cache/");
    fake_ptxas("2.0, V2.0.0");                                 /* another ptxas: runs again */
    assert_int_equal(load_regs(NULL, note, sizeof note, &src), 21);
    assert_int_equal(compiles(), 2);
    setenv("GPUSIM_PTXAS_CACHE", "off", 1);                    /* no cache: every load */
    assert_int_equal(load_regs(NULL, note, sizeof note, &src), 21);
    assert_int_equal(load_regs(NULL, note, sizeof note, &src), 21);
    assert_int_equal(compiles(), 4);
    tu_assert_contains(note, "not cached");
}

/* A record beside the program: the one with the text's hash, before ptxas and without it. */
static void test_record_dir(void **state)
{
    char note[2048], line[128];
    unsigned src;
    FILE *f;
    (void)state;
    snprintf(line, sizeof line, "ptx_fnv1a %016llx\n",
             (unsigned long long)ptx_res_hash(ptx, strlen(ptx)));
    assert_non_null(f = fopen(TMP "/res/a-other.res", "w"));  /* first by name: another hash */
    fprintf(f, "tool t\ntarget sm_75\nptx_fnv1a 1234\nkernel k 50 0 0 0 0\n");
    fclose(f);
    assert_non_null(f = fopen(TMP "/res/b-app.1.res", "w"));
    fprintf(f, "tool t\ntarget sm_75\n%skernel k 33 0 0 0 0\n", line);
    fclose(f);
    assert_non_null(f = fopen(TMP "/res/b-app.1.vtw.res", "w"));   /* not a record of it */
    fprintf(f, "tool t\ntarget sm_75\n%skernel k 60 0 0 0 0\n", line);
    fclose(f);
    setenv("GPUSIM_PTXAS", TMP "/no-such-ptxas", 1);
    assert_int_equal(load_regs(TMP "/res", note, sizeof note, &src), 33);
    assert_int_equal(src, KRES_RECORDED);
    tu_assert_contains(note, TMP "/res/b-app.1.res");
    fake_ptxas("1.0, V1.0.0");                                 /* with ptxas: still the record */
    assert_int_equal(load_regs(TMP "/res", note, sizeof note, &src), 33);
    assert_int_equal(compiles(), 0);
    assert_int_equal(system("rm " TMP "/res/b-app.1.res"), 0);
    setenv("GPUSIM_PTXAS", TMP "/no-such-ptxas", 1);
    load_regs(TMP "/res", note, sizeof note, &src);
    assert_int_equal(src, KRES_ESTIMATE);
    tu_assert_contains(note, "no record with the PTX's hash");
    tu_assert_contains(note, "ptxas not installed");
}

/* bench/vecadd/kernel.ptx loaded as text with a record directory holding its records under a
   program's names (app.1.res and app.1.vtw.res): vtw = hw finds the transform's count beside
   the record, as gpusim run finds kernel.vtw.res beside kernel.ptx; without it, the estimate. */
static uint32_t vtw_regs(const char *res_dir, char *note, size_t n)
{
    const char *sets[] = { "model=functional", "vtw=hw" };
    struct gs_gpu *g = gpu(sets, 2);
    struct gs_module *m;
    struct gs_stats st;
    size_t len = 0;
    char *text = tu_read_file("bench/vecadd/kernel.ptx", &len);
    uint64_t d = 0;
    int n_ = 4;
    const struct gs_arg args[] = { GS_ARG(d), GS_ARG(d), GS_ARG(d), GS_ARG(n_) };
    assert_non_null(text);
    assert_int_equal(gs_set_res_dir(g, res_dir), GS_OK);
    assert_int_equal(gs_load_ptx_mem(g, text, len, "module-1.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 64), GS_OK);
    assert_int_equal(gs_launch(g, m, "vecadd", (struct gs_dim3){ 1, 1, 1 },
                               (struct gs_dim3){ 32, 1, 1 }, 0, args, 4), GS_OK);
    gs_kernel_stats(g, &st);
    snprintf(note, n, "%s", gs_regs_note(g));
    gs_destroy(g);
    free(text);
    return st.regs_per_thread;
}

static void test_record_dir_vtw(void **state)
{
    struct ptx_res *r = calloc(1, sizeof *r);
    char note[2048], err[256];
    uint32_t file_regs;
    struct gs_gpu *g;
    struct gs_module *m;
    struct gs_kernel_attr ka;
    const char *sets[] = { "model=functional", "vtw=hw" };
    (void)state;
    assert_non_null(r);
    assert_int_equal(ptx_res_read("bench/vecadd/kernel.vtw.res", r, err, sizeof err), 0);
    /* the PTX file with its records beside it: kernel.vtw.res */
    g = gpu(sets, 2);
    assert_int_equal(gs_load_ptx(g, "bench/vecadd/kernel.ptx", &m), GS_OK);
    assert_int_equal(gs_kernel_attr(g, m, "vecadd", &ka), GS_OK);
    file_regs = ka.regs;
    gs_destroy(g);
    assert_int_equal(file_regs, ptx_res_find(r, "vecadd.hw")->regs);
    assert_int_equal(system("cp bench/vecadd/kernel.res " TMP "/res/app.1.res && "
                            "cp bench/vecadd/kernel.vtw.res " TMP "/res/app.1.vtw.res"), 0);
    setenv("GPUSIM_PTXAS", TMP "/no-such-ptxas", 1);
    assert_int_equal(vtw_regs(TMP "/res", note, sizeof note), file_regs);
    tu_assert_contains(note, "recorded: " TMP "/res/app.1.res");
    tu_assert_contains(note, "ptxas on the transform, " TMP "/res/app.1.vtw.res entry vecadd.hw");
    assert_int_equal(system("rm " TMP "/res/app.1.vtw.res"), 0);
    assert_int_not_equal(vtw_regs(TMP "/res", note, sizeof note), file_regs);
    tu_assert_contains(note, "the liveness estimate's growth");
    free(r);
}

struct hook_log { unsigned calls; char kernel[32]; uint32_t dyn; int status; };

static void hook(struct gs_gpu *g, const char *kernel, uint32_t dyn, int status, void *arg)
{
    struct hook_log *l = arg;
    struct gs_stats st;
    gs_kernel_stats(g, &st);
    assert_int_equal(st.launches, 1);                 /* the launch's own statistics */
    l->calls++;
    snprintf(l->kernel, sizeof l->kernel, "%s", kernel);
    l->dyn = dyn;
    l->status = status;
}

static void test_on_launch(void **state)
{
    struct gs_gpu *g = gpu(NULL, 0);
    struct gs_module *m;
    struct hook_log log = { 0, "", 0, -1 };
    uint64_t out;
    const struct gs_arg args[] = { GS_ARG(out) };
    (void)state;
    gs_on_launch(NULL, hook, &log);                   /* no GPU: ignored */
    assert_int_equal(gs_load_ptx_text(g, ptx, "vars.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &out, 4096), GS_OK);
    gs_on_launch(g, hook, &log);
    assert_int_equal(gs_launch(g, m, "k", (struct gs_dim3){ 2, 1, 1 },
                               (struct gs_dim3){ 32, 1, 1 }, 16, args, 1), GS_OK);
    assert_int_equal(log.calls, 1);
    assert_string_equal(log.kernel, "k");
    assert_int_equal(log.dyn, 16);
    assert_int_equal(log.status, GS_OK);
    assert_int_equal(gs_launch(g, m, "k", (struct gs_dim3){ 1, 1, 1 },      /* refused */
                               (struct gs_dim3){ 4096, 1, 1 }, 0, args, 1), GS_ERR_LAUNCH);
    assert_int_equal(log.calls, 1);
    gs_on_launch(g, NULL, NULL);                      /* off */
    assert_int_equal(gs_launch(g, m, "k", (struct gs_dim3){ 1, 1, 1 },
                               (struct gs_dim3){ 32, 1, 1 }, 0, args, 1), GS_OK);
    assert_int_equal(log.calls, 1);
    gs_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_module_var),
        cmocka_unit_test(test_kernel_attr_occupancy),
        cmocka_unit_test(test_stats_csv),
        cmocka_unit_test_setup_teardown(test_ptxas_cache, fresh_dir, restore_env),
        cmocka_unit_test_setup_teardown(test_record_dir, fresh_dir, restore_env),
        cmocka_unit_test_setup_teardown(test_record_dir_vtw, fresh_dir, restore_env),
        cmocka_unit_test(test_on_launch),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
