/*
 * test_kres.c -- registers per thread from the compiler (model/ptx/ptx_res.c, model/gpu/kres.c).
 *
 * - every bench kernel has a current ptxas record (bench/NAME/kernel.res, its hash matches the
 *   PTX), and its launch on gtx480 and kepler takes registers from it ("recorded"); the
 *   occupancy and binding limit the statistics report are what an occupancy calculation from
 *   the recorded registers gives (computed here, independently of cta.c), and three kernels are
 *   checked against hand-worked CUDA-occupancy-calculator figures;
 * - the fallbacks: no record and no ptxas -> the liveness estimate; a stale record is not used;
 *   ptxas run at load when installed (skipped, saying so, where it is not); a malformed record
 *   is a load error naming the file and line;
 * - regs_per_thread = N overrides, and above max_regs_per_thread is a configuration error;
 * - .maxnreg and .minnctapersm lower the estimate; .reqntid and .maxntid refuse a launch whose
 *   block does not match;
 * - the ptxas -v parser on a canned output with two kernels and a called function.
 */
#include <unistd.h>
#include "testutil.h"
#include "bench.h"
#include "base/config.h"
#include "gpu/kres.h"
#include "ptx/ptx.h"
#include "ptx/ptx_res.h"

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"

static struct gs_gpu *gpu_with(const char *config, const char *const *sets, int n)
{
    struct gs_gpu *g = NULL;
    char err[512];
    if (gs_init(&g, config, sets, n, err, sizeof err) != GS_OK)
        fail_msg("gs_init: %s", err);
    return g;
}

/* Occupancy from first principles (CUDA occupancy calculator, per-warp allocation). */
static void occupancy(const struct gpu_config *c, uint32_t threads, uint32_t regs,
                      uint32_t shared, uint32_t *ctas, const char **by)
{
    uint32_t warps = (threads + 31) / 32;
    uint32_t regs_warp = (regs * 32 + c->reg_alloc_unit - 1) / c->reg_alloc_unit * c->reg_alloc_unit;
    uint32_t lim[4] = { c->max_warps_per_sm / warps, c->max_ctas_per_sm,
                        c->regs_per_sm / (regs_warp * warps),
                        shared ? c->shared_per_sm / shared : UINT32_MAX };
    static const char *const names[4] = { "threads", "CTAs", "registers", "shared memory" };
    unsigned best = 0;
    for (unsigned i = 1; i < 4; i++)
        if (lim[i] < lim[best])
            best = i;
    *ctas = lim[best];
    *by = names[best];
}

static const char *limit_name(uint32_t v)
{
    static const char *const names[4] = { "threads", "CTAs", "registers", "shared memory" };
    return v < 4 ? names[v] : "?";
}

/* Run bench kernel b (test size, functional model: occupancy is the same in both models). */
static void run_bench(const struct bench *b, const char *config, struct gs_stats *st,
                      char *note, size_t notelen)
{
    const char *set = "model=functional";
    struct bench_ctx ctx;
    char path[256];
    memset(&ctx, 0, sizeof ctx);
    ctx.gpu = gpu_with(config, &set, 1);
    snprintf(path, sizeof path, "bench/%s/kernel.ptx", b->name);
    ctx.ptx_path = path;
    ctx.size = BENCH_TEST;
    if (b->run(&ctx) != 0)
        fail_msg("%s: %s", b->name, ctx.msg);
    gs_kernel_stats(ctx.gpu, st);
    snprintf(note, notelen, "%s", gs_regs_note(ctx.gpu));
    gs_destroy(ctx.gpu);
}

static void check_bench_on(const char *config)
{
    unsigned n;
    const struct bench *const *all = bench_all(&n);
    struct gs_gpu *g = gpu_with(config, NULL, 0);
    const struct gpu_config *c = gs_config(g);
    for (unsigned i = 0; i < n; i++) {
        char path[256], err[512], note[800];
        struct ptx_res rec;
        struct gs_stats st;
        uint32_t ctas, regs;
        const char *by;
        snprintf(path, sizeof path, "bench/%s/kernel.res", all[i]->name);
        if (ptx_res_read(path, &rec, err, sizeof err) != 0)
            fail_msg("%s: no ptxas record (make ptx-res): %s", all[i]->name, err);
        run_bench(all[i], config, &st, note, sizeof note);
        assert_int_equal(st.regs_source, KRES_RECORDED);
        regs = st.regs_compiler < c->max_regs_per_thread ? st.regs_compiler : c->max_regs_per_thread;
        assert_int_equal(st.regs_per_thread, regs);
        assert_true(st.regs_compiler > 0);
        tu_assert_contains(note, path);
        occupancy(c, st.block[0] * st.block[1] * st.block[2], st.regs_per_thread,
                  st.shared_per_cta, &ctas, &by);
        if (st.occupancy != ctas || strcmp(limit_name(st.occupancy_limit), by))
            fail_msg("%s on %s: occupancy %u (%s), expected %u (%s)", all[i]->name, config,
                     st.occupancy, limit_name(st.occupancy_limit), ctas, by);
    }
    gs_destroy(g);
}

static void test_bench_occupancy_gtx480(void **state)
{
    (void)state;
    check_bench_on("configs/gtx480.cfg");
}

static void test_bench_occupancy_kepler(void **state)
{
    (void)state;
    check_bench_on("configs/kepler.cfg");
}

/* Hand-worked on gtx480 (32768 registers, 64-register units per warp, 48 KB, 48 warps, 8 CTAs):
   matmul 27 regs x 256 threads: 896 per warp, 7168 per CTA -> 4 by registers; 14336 B of shared
   -> 3: shared memory.  kmeans 48 regs x 256 threads: 1536 per warp, 12288 per CTA -> 2 by
   registers.  spmv 55 regs x 256 threads: 1792 per warp, 14336 per CTA -> 2 by registers. */
static void test_hand_worked(void **state)
{
    static const struct { const char *name; uint32_t regs, ctas, limit; } want[] = {
        { "matmul", 27, 3, 3 }, { "kmeans", 48, 2, 2 }, { "spmv", 55, 2, 2 } };
    (void)state;
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct gs_stats st;
        char note[800];
        run_bench(bench_find(want[i].name), "configs/gtx480.cfg", &st, note, sizeof note);
        assert_int_equal(st.regs_per_thread, want[i].regs);
        assert_int_equal(st.block[0] * st.block[1] * st.block[2], 256);
        assert_int_equal(st.occupancy, want[i].ctas);
        assert_int_equal(st.occupancy_limit, want[i].limit);
    }
}

/* A compiler count above max_regs_per_thread is lowered to it, and the run says so. */
static void test_capped(void **state)
{
    const char *sets[] = { "model=functional", "max_regs_per_thread=16" };
    struct bench_ctx ctx;
    struct gs_stats st;
    (void)state;
    memset(&ctx, 0, sizeof ctx);
    ctx.gpu = gpu_with("configs/gtx480.cfg", sets, 2);
    ctx.ptx_path = "bench/matmul/kernel.ptx";
    ctx.size = BENCH_TEST;
    assert_int_equal(bench_find("matmul")->run(&ctx), 0);
    gs_kernel_stats(ctx.gpu, &st);
    assert_int_equal(st.regs_compiler, 27);
    assert_int_equal(st.regs_per_thread, 16);
    tu_assert_contains(gs_regs_note(ctx.gpu), "capped at max_regs_per_thread 16");
    gs_destroy(ctx.gpu);
}

/* ---------------------------------------------------------------- fallbacks, one PTX file */

/* A copy of bench/vecadd/kernel.ptx (and optionally its record) under build/tests/kres/. */
static void copy_vecadd(const char *dir, int with_record, const char *append)
{
    char path[256];
    size_t len = 0;
    char *text = tu_read_file("bench/vecadd/kernel.ptx", &len);
    FILE *f;
    assert_non_null(text);
    snprintf(path, sizeof path, "mkdir -p %s && rm -f %s/kernel.res %s/kernel.vtw.res", dir, dir,
             dir);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/kernel.ptx", dir);
    assert_non_null(f = fopen(path, "w"));
    fwrite(text, 1, len, f);
    fputs(append, f);
    fclose(f);
    free(text);
    if (with_record) {            /* 2: also the record of its VTW transforms */
        char cmd[600];
        snprintf(cmd, sizeof cmd, "cp bench/vecadd/kernel.res %s", dir);
        if (with_record > 1)
            snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd),
                     " && cp bench/vecadd/kernel.vtw.res %s", dir);
        assert_int_equal(system(cmd), 0);
    }
}

static int run_vecadd(const char *dir, const char *const *sets, int nsets, struct gs_stats *st,
                      char *note, size_t notelen)
{
    struct bench_ctx ctx;
    char path[256];
    int rc;
    memset(&ctx, 0, sizeof ctx);
    ctx.gpu = gpu_with("configs/gtx480.cfg", sets, nsets);
    snprintf(path, sizeof path, "%s/kernel.ptx", dir);
    ctx.ptx_path = path;
    ctx.size = BENCH_TEST;
    rc = bench_find("vecadd")->run(&ctx);
    gs_kernel_stats(ctx.gpu, st);
    snprintf(note, notelen, "%s", !rc ? gs_regs_note(ctx.gpu) : ctx.msg ? ctx.msg : "");
    free(ctx.msg);
    gs_destroy(ctx.gpu);
    return rc;
}

#define KDIR BUILD_DIR "/tests/kres"

/* The vecadd copy in KDIR run on the functional model with no ptxas to be found. */
static int run_copy_no_ptxas(struct gs_stats *st, char *note, size_t notelen)
{
    const char *set = "model=functional";
    int rc;
    setenv("GPUSIM_PTXAS", "/nonexistent/ptxas", 1);
    rc = run_vecadd(KDIR, &set, 1, st, note, notelen);
    unsetenv("GPUSIM_PTXAS");
    return rc;
}

static void test_no_record_no_ptxas(void **state)
{
    struct gs_stats st;
    char note[800];
    (void)state;
    copy_vecadd(KDIR, 0, "");
    assert_int_equal(run_copy_no_ptxas(&st, note, sizeof note), 0);
    assert_int_equal(st.regs_source, KRES_ESTIMATE);
    assert_int_equal(st.regs_per_thread, st.regs_estimate);
    assert_int_equal(st.regs_compiler, 0);
    tu_assert_contains(note, "liveness estimate");
    tu_assert_contains(note, "ptxas not installed");
}

static void test_record_used_then_stale(void **state)
{
    struct gs_stats st;
    char note[800];
    (void)state;
    copy_vecadd(KDIR, 1, "");
    assert_int_equal(run_copy_no_ptxas(&st, note, sizeof note), 0);
    assert_int_equal(st.regs_source, KRES_RECORDED);
    assert_int_equal(st.regs_per_thread, 12);
    copy_vecadd(KDIR, 1, "// edited after make ptx\n");      /* same code, other text */
    assert_int_equal(run_copy_no_ptxas(&st, note, sizeof note), 0);
    assert_int_equal(st.regs_source, KRES_ESTIMATE);
    tu_assert_contains(note, "is stale");
}

static void test_ptxas_at_load(void **state)
{
    const char *sets[] = { "model=functional", "regs_source=recorded" };
    struct gs_stats st;
    char note[800];
    (void)state;
    copy_vecadd(KDIR, 0, "");
    assert_int_equal(run_vecadd(KDIR, sets, 1, &st, note, sizeof note), 0);
    if (st.regs_source != KRES_PTXAS) {
        print_message("ptxas_at_load: skipped, needs ptxas (%s)\n", note);
        skip();
    }
    assert_int_equal(st.regs_per_thread, 12);           /* what the record of vecadd says */
    tu_assert_contains(note, "run at load");
    /* regs_source = recorded never runs it */
    assert_int_equal(run_vecadd(KDIR, sets, 2, &st, note, sizeof note), 0);
    assert_int_equal(st.regs_source, KRES_ESTIMATE);
}

static void test_malformed_record(void **state)
{
    struct gs_stats st;
    char note[800];
    FILE *f;
    (void)state;
    copy_vecadd(KDIR, 1, "");
    assert_non_null(f = fopen(KDIR "/kernel.res", "a"));
    fputs("kernel vecadd twelve 0 0 0 0\n", f);
    fclose(f);
    assert_true(run_copy_no_ptxas(&st, note, sizeof note) < 0);
    tu_assert_contains(note, "kernel.res:9:");
}

/* VTW: the transform's registers come from FILE.vtw.res (ptxas on the transformed text) when
   its entry was compiled from exactly the text the model transforms; an edited entry (its text
   hash) or no record falls back to the original's count + the liveness estimate's growth. */
static void test_vtw_record(void **state)
{
    const char *hw[] = { "model=functional", "vtw=hw" }, *sw[] = { "model=functional", "vtw=sw" };
    const char *ov[] = { "model=functional", "vtw=hw", "regs_per_thread=40" };
    struct ptx_res *r = calloc(1, sizeof *r);
    struct gs_stats st;
    char note[2048], err[256], cmd[512];
    uint32_t grown;
    (void)state;
    assert_non_null(r);
    assert_int_equal(ptx_res_read("bench/vecadd/kernel.vtw.res", r, err, sizeof err), 0);
    copy_vecadd(KDIR, 2, "");
    assert_int_equal(run_vecadd(KDIR, hw, 2, &st, note, sizeof note), 0);
    assert_int_equal(st.regs_per_thread, ptx_res_find(r, "vecadd.hw")->regs);
    assert_int_equal(st.regs_original, 12);
    tu_assert_contains(note, "ptxas on the transform");
    assert_int_equal(run_vecadd(KDIR, sw, 2, &st, note, sizeof note), 0);
    assert_int_equal(st.regs_per_thread, ptx_res_find(r, "vecadd.sw")->regs);
    /* the hw entry's text hash edited (to another hash: a word that is not one is a malformed
       record): stale, the estimate's growth instead */
    snprintf(cmd, sizeof cmd, "sed -i 's/^\\(kernel *vecadd.hw .*\\) [0-9a-f]*$/\\1 "
             "0000000000000001/' %s", KDIR "/kernel.vtw.res");
    assert_int_equal(system(cmd), 0);
    assert_int_equal(run_vecadd(KDIR, hw, 2, &st, note, sizeof note), 0);
    tu_assert_contains(note, "is stale");
    grown = st.regs_per_thread;
    assert_int_not_equal(grown, ptx_res_find(r, "vecadd.hw")->regs);
    assert_true(grown > 12);
    copy_vecadd(KDIR, 1, "");                                  /* no FILE.vtw.res */
    assert_int_equal(run_vecadd(KDIR, hw, 2, &st, note, sizeof note), 0);
    tu_assert_contains(note, "no record FILE.vtw.res");
    assert_int_equal(st.regs_per_thread, grown);
    assert_int_equal(run_vecadd("bench/vecadd", ov, 3, &st, note, sizeof note), 0);
    assert_int_equal(st.regs_per_thread, 40);                   /* an override stays */
    free(r);
}

/* vecadd from dir under reference redirection (the identity order of its 1 024 test-size
   threads) on the functional model. */
static int run_vecadd_redir(const char *dir, struct gs_stats *st, char *note, size_t notelen)
{
    static uint32_t id[1024];
    const uint32_t *perm[1] = {id};
    const uint64_t len[1] = {1024};
    const char *set = "model=functional";
    struct bench_ctx ctx;
    char path[256];
    int rc;
    for (uint32_t i = 0; i < 1024; i++)
        id[i] = i;
    memset(&ctx, 0, sizeof ctx);
    ctx.gpu = gpu_with("configs/gtx480.cfg", &set, 1);
    assert_int_equal(gs_redirect(ctx.gpu, perm, len, 1), GS_OK);
    snprintf(path, sizeof path, "%s/kernel.ptx", dir);
    ctx.ptx_path = path;
    ctx.size = BENCH_TEST;
    rc = bench_find("vecadd")->run(&ctx);
    gs_kernel_stats(ctx.gpu, st);
    snprintf(note, notelen, "%s", !rc ? gs_regs_note(ctx.gpu) : ctx.msg ? ctx.msg : "");
    free(ctx.msg);
    gs_destroy(ctx.gpu);
    return rc;
}

/* Reference redirection: the redirected form's registers come from FILE.redir.res (ptxas on
   the rewritten text, the form the launch runs: vecadd's 1-D power-of-two block and 1-D grid,
   b1g1) when its entry was compiled from exactly that text; a stale entry or no record falls
   back to the original's count + the liveness estimate's growth (issue 38: before, 6 were
   added, assumed). */
static void test_redir_record(void **state)
{
    struct ptx_res *r = calloc(1, sizeof *r);
    struct gs_stats st;
    char note[2048], err[256], cmd[512];
    uint32_t grown;
    (void)state;
    assert_non_null(r);
    assert_int_equal(ptx_res_read("bench/vecadd/kernel.redir.res", r, err, sizeof err), 0);
    copy_vecadd(KDIR, 1, "");
    assert_int_equal(system("cp bench/vecadd/kernel.redir.res " KDIR), 0);
    assert_int_equal(run_vecadd_redir(KDIR, &st, note, sizeof note), 0);
    assert_int_equal(st.regs_per_thread, ptx_res_find(r, "vecadd.b1g1")->regs);
    tu_assert_contains(note, "redirected, form b1g1: ");
    tu_assert_contains(note, "ptxas on the transform");
    snprintf(cmd, sizeof cmd, "sed -i 's/^\\(kernel *vecadd.b1g1 .*\\) [0-9a-f]*$/\\1 "
             "0000000000000001/' %s", KDIR "/kernel.redir.res");
    assert_int_equal(system(cmd), 0);
    assert_int_equal(run_vecadd_redir(KDIR, &st, note, sizeof note), 0);
    tu_assert_contains(note, "is stale");
    grown = st.regs_per_thread;
    assert_int_equal(system("rm " KDIR "/kernel.redir.res"), 0);
    assert_int_equal(run_vecadd_redir(KDIR, &st, note, sizeof note), 0);
    tu_assert_contains(note, "no record FILE.redir.res");
    assert_int_equal(st.regs_per_thread, grown);
    free(r);
}

static void test_override(void **state)
{
    const char *sets[] = { "model=functional", "regs_per_thread=40" };
    struct gs_stats st;
    char note[800], err[512];
    struct gs_gpu *g = NULL;
    const char *bad = "regs_per_thread=64";
    (void)state;
    assert_int_equal(run_vecadd("bench/vecadd", sets, 2, &st, note, sizeof note), 0);
    assert_int_equal(st.regs_source, KRES_OVERRIDE);
    assert_int_equal(st.regs_per_thread, 40);
    assert_int_equal(st.regs_compiler, 12);
    tu_assert_contains(note, "override");
    assert_int_equal(gs_init(&g, "configs/gtx480.cfg", &bad, 1, err, sizeof err), GS_ERR_CONFIG);
    tu_assert_contains(err, "regs_per_thread");
    tu_assert_contains(err, "max_regs_per_thread");
}

/* ---------------------------------------------------------------- directives */

/* 16 independent values live at once: the estimate is well above 8. */
#define WIDE_BODY                                                                            \
    "{\n .reg .b32 %r<20>;\n .reg .b64 %rd<3>;\n ld.param.u64 %rd1, [k_param_0];\n"        \
    " mov.u32 %r1, %tid.x;\n"                                                                \
    " add.s32 %r2, %r1, 1;\n add.s32 %r3, %r1, 2;\n add.s32 %r4, %r1, 3;\n"               \
    " add.s32 %r5, %r1, 4;\n add.s32 %r6, %r1, 5;\n add.s32 %r7, %r1, 6;\n"               \
    " add.s32 %r8, %r1, 7;\n add.s32 %r9, %r1, 8;\n add.s32 %r10, %r1, 9;\n"              \
    " add.s32 %r11, %r2, %r3;\n add.s32 %r11, %r11, %r4;\n add.s32 %r11, %r11, %r5;\n"    \
    " add.s32 %r11, %r11, %r6;\n add.s32 %r11, %r11, %r7;\n add.s32 %r11, %r11, %r8;\n"   \
    " add.s32 %r11, %r11, %r9;\n add.s32 %r11, %r11, %r10;\n"                             \
    " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd2, %rd2, %rd1;\n st.global.u32 [%rd2], %r11;\n" \
    " ret;\n}\n"

static int launch_text(const char *ptx, const char *const *sets, int nsets, unsigned threads,
                       struct gs_stats *st, char *err, size_t errlen)
{
    struct gs_gpu *g = gpu_with("configs/gtx480.cfg", sets, nsets);
    struct gs_module *m;
    uint64_t buf;
    const struct gs_arg args[1] = { GS_ARG(buf) };
    int rc;
    assert_int_equal(gs_load_ptx_text(g, ptx, "k.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &buf, 4096), GS_OK);
    rc = gs_launch(g, m, "k", (struct gs_dim3){ 1, 1, 1 }, (struct gs_dim3){ threads, 1, 1 }, 0,
                   args, 1);
    gs_kernel_stats(g, st);
    snprintf(err, errlen, "%s", gs_last_error(g));
    gs_destroy(g);
    return rc;
}

/* 33 registers x 992 threads = 32736 <= 32768, but allocated per warp in units of 64 it is
   31 x 1088 = 33728: the launch is impossible and says so (it was a kernel fault before). */
static void test_override_does_not_fit(void **state)
{
    const char *sets[] = { "model=functional", "regs_per_thread=33" };
    struct gs_stats st;
    char err[512];
    (void)state;
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n" WIDE_BODY,
                                 sets, 2, 992, &st, err, sizeof err), GS_ERR_LAUNCH);
    tu_assert_contains(err, "one CTA of 992 threads at 33 registers per thread needs more than "
                            "regs_per_sm (32768) as allocated in units of 64");
    sets[1] = "regs_per_thread=32";
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n" WIDE_BODY,
                                 sets, 2, 992, &st, err, sizeof err), GS_OK);
}

static void test_maxnreg(void **state)
{
    const char *sets[] = { "model=functional", "regs_source=estimate" };
    struct gs_stats st;
    char err[512];
    (void)state;
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n" WIDE_BODY,
                                 sets, 2, 32, &st, err, sizeof err), GS_OK);
    assert_true(st.regs_estimate > 8);
    assert_int_equal(st.regs_per_thread, st.regs_estimate);
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n.maxnreg 8\n"
                                 WIDE_BODY, sets, 2, 32, &st, err, sizeof err), GS_OK);
    assert_int_equal(st.regs_per_thread, 8);
    assert_int_equal(st.regs_source, KRES_ESTIMATE);
}

/* The printer keeps .maxnreg and .minnctapersm (a rewritten kernel must obey them too). */
static void test_directives_printed(void **state)
{
    static const char text[] = HDR ".visible .entry k(.param .u64 k_param_0)\n.maxntid 512, 1, 1\n"
                               ".maxnreg 8\n.minnctapersm 2\n" WIDE_BODY;
    struct ptx_module m;
    struct ptx_prog p;
    char err[PTX_ERR_LEN], *out = NULL;
    size_t len;
    FILE *f;
    (void)state;
    assert_int_equal(ptx_parse(text, sizeof text - 1, "k.ptx", &m, err, sizeof err), 0);
    assert_int_equal(m.funcs[0].maxnreg, 8);
    assert_int_equal(m.funcs[0].minnctapersm, 2);
    assert_int_equal(ptx_link(&m, "k", &p, err, sizeof err), 0);
    assert_non_null(f = open_memstream(&out, &len));
    assert_int_equal(ptx_print(f, &p, err, sizeof err), 0);
    fclose(f);
    tu_assert_contains(out, ".maxnreg 8\n.minnctapersm 2\n");
    free(out);
    ptx_prog_free(&p);
    ptx_module_free(&m);
    static const char zero[] = HDR ".visible .entry k()\n.maxnreg 0\n{\n ret;\n}\n";
    assert_int_equal(ptx_parse(zero, sizeof zero - 1, "z.ptx", &m, err, sizeof err), -1);
    tu_assert_contains(err, ".maxnreg must be at least 1");
}

/* kres_regs_for on gtx480 (32768 registers, 64-register units per warp): 8 CTAs of 1024 threads
   = 256 warps -> 128 per warp = 4 per thread; 2 of 256 = 16 warps -> 2048 = 64 per thread; 1 of
   96 = 3 warps -> 10922, in units 10880 = 340 per thread.  A kernel with .maxntid 512 and
   .minnctapersm 8 (128 warps -> 256 per warp) gets at most 8. */
static void test_minnctapersm(void **state)
{
    const char *sets[] = { "model=functional", "regs_source=estimate" };
    struct gs_stats st;
    char err[512];
    struct gs_gpu *g = gpu_with("configs/gtx480.cfg", NULL, 0);
    (void)state;
    assert_int_equal(kres_regs_for(gs_config(g), 1024, 8), 4);
    assert_int_equal(kres_regs_for(gs_config(g), 256, 2), 64);
    assert_int_equal(kres_regs_for(gs_config(g), 96, 1), 340);
    gs_destroy(g);
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n.maxntid 512, 1, 1\n"
                                 ".minnctapersm 8\n" WIDE_BODY, sets, 2, 32, &st, err, sizeof err),
                     GS_OK);
    assert_true(st.regs_estimate > 8);
    assert_int_equal(st.regs_per_thread, 8);
    /* without .maxntid the directive is ignored (PTX ISA: it needs .maxntid or .reqntid) */
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n"
                                 ".minnctapersm 8\n" WIDE_BODY, sets, 2, 32, &st, err, sizeof err),
                     GS_OK);
    assert_int_equal(st.regs_per_thread, st.regs_estimate);
}

static void test_reqntid_maxntid(void **state)
{
    const char *set = "model=functional";
    struct gs_stats st;
    char err[512];
    (void)state;
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n.reqntid 64, 1, 1\n"
                                 WIDE_BODY, &set, 1, 32, &st, err, sizeof err), GS_ERR_LAUNCH);
    tu_assert_contains(err, ".reqntid 64, 1, 1");
    tu_assert_contains(err, "k.ptx:4");
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n.reqntid 64, 1, 1\n"
                                 WIDE_BODY, &set, 1, 64, &st, err, sizeof err), GS_OK);
    assert_int_equal(launch_text(HDR ".visible .entry k(.param .u64 k_param_0)\n.maxntid 32, 1, 1\n"
                                 WIDE_BODY, &set, 1, 64, &st, err, sizeof err), GS_ERR_LAUNCH);
    tu_assert_contains(err, "exceeds the kernel's .maxntid 32, 1, 1");
}

/* ---------------------------------------------------------------- the ptxas -v parser */

static const char ptxas_out[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Function properties for helper\n"
    "    24 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'ka' for 'sm_75'\n"
    "ptxas info    : Function properties for ka\n"
    "    56 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 1 barriers, 6212 bytes smem, 388 bytes cmem[0]\n"
    "ptxas info    : Compile time = 11.883 ms\n"
    "ptxas info    : Compiling entry function 'kb' for 'sm_75'\n"
    "ptxas info    : Function properties for kb\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 9 registers, 356 bytes cmem[0]\n";

static void test_ptxas_parser(void **state)
{
    struct ptx_res r;
    char err[256];
    const struct ptx_res_kernel *a, *b;
    (void)state;
    assert_int_equal(ptx_res_from_ptxas(ptxas_out, &r, err, sizeof err), 0);
    assert_int_equal(r.nkernels, 2);               /* helper is a .func, not a kernel */
    assert_string_equal(r.target, "sm_75");
    assert_non_null(a = ptx_res_find(&r, "ka"));
    assert_non_null(b = ptx_res_find(&r, "kb"));
    assert_int_equal(a->regs, 40);
    assert_int_equal(a->shared, 6212);
    assert_int_equal(a->stack, 56);
    assert_int_equal(a->spill_stores, 4);
    assert_int_equal(a->spill_loads, 12);
    assert_int_equal(b->regs, 9);
    assert_int_equal(b->shared, 0);
    assert_int_equal(ptx_res_from_ptxas("ptxas fatal : Unresolved extern\n", &r, err, sizeof err), -1);
}

/* A record written and read back is the same. */
static void test_record_round_trip(void **state)
{
    struct ptx_res r, back;
    char err[256];
    FILE *f;
    (void)state;
    assert_int_equal(ptx_res_from_ptxas(ptxas_out, &r, err, sizeof err), 0);
    r.ptx_hash = 0x0123456789abcdefull;
    snprintf(r.tool, sizeof r.tool, "Cuda compilation tools, release 13.0, V13.0.88");
    assert_non_null(f = fopen(BUILD_DIR "/tests/rt.res", "w"));
    ptx_res_write(&r, "k.ptx", f);
    fclose(f);
    assert_int_equal(ptx_res_read(BUILD_DIR "/tests/rt.res", &back, err, sizeof err), 0);
    assert_memory_equal(&r, &back, sizeof r);
    assert_int_equal(ptx_res_read(BUILD_DIR "/tests/none.res", &back, err, sizeof err), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_occupancy_gtx480),
        cmocka_unit_test(test_bench_occupancy_kepler),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_capped),
        cmocka_unit_test(test_no_record_no_ptxas),
        cmocka_unit_test(test_record_used_then_stale),
        cmocka_unit_test(test_ptxas_at_load),
        cmocka_unit_test(test_malformed_record),
        cmocka_unit_test(test_redir_record),
        cmocka_unit_test(test_override),
        cmocka_unit_test(test_vtw_record),
        cmocka_unit_test(test_override_does_not_fit),
        cmocka_unit_test(test_maxnreg),
        cmocka_unit_test(test_directives_printed),
        cmocka_unit_test(test_minnctapersm),
        cmocka_unit_test(test_reqntid_maxntid),
        cmocka_unit_test(test_ptxas_parser),
        cmocka_unit_test(test_record_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
