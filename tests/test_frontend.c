/*
 * test_frontend.c -- the SM's front end (fetch, decode, I-buffers) feeds both of gtx480's
 * schedulers: on an ILP-rich compute kernel at full occupancy one SM issues close to its issue
 * width (issue 11, item 2: warp-IPC per SM >= 1.7 of 2).
 *
 * The kernel (PTX below, generated here): every thread runs NCHAIN independent fma chains,
 * a_k = a_k * M + C, unrolled UNROLL times per loop iteration, then sums its chains and stores
 * the sum; a C reference computes the same with fmaf in the same order (fma.rn.f32 rounds
 * once, as fmaf does) and every output is compared exactly. One SM, as many CTAs of 256
 * threads as fill it (gtx480: 6 = 48 warps; kepler: 8 = 64 warps), one wave; the test checks
 * that all of them are resident.
 *
 *   - configs/gtx480.cfg as it is (its front-end defaults): warp-IPC per SM >= 1.7;
 *   - the front end before issue 11 (fetch_width = 1, fetch_warps = 1: one instruction per
 *     cycle) stays below 1.7 -- so this test fails when the front end is the bottleneck --
 *     and its scheduler cycles are mostly "I-buffer empty";
 *   - configs/kepler.cfg (4 schedulers, no dual issue modelled): warp-IPC per SM >= 3.4 of 4
 *     with its defaults.
 * Whenever a run stays under its bound the scheduler-cycle breakdown (the stall classes of
 * model/base/stats_list.h) is printed, so the failure says which stage holds issue back.
 */
#include <math.h>
#include "testutil.h"
#include "gpu/gpusim.h"
#include "gpu/stats.h"

#define NCHAIN 8
#define UNROLL 4
#define ITERS 48
#define NTHR 256                   /* 8 warps per CTA */
#define MULT 0x3F7FBE77u           /* 0.999f */
#define ADDC 0x3C23D70Au           /* 0.01f */

/* The PTX of the kernel: ilp(out, iters). */
static char *ilp_ptx(void)
{
    size_t cap = 16384, n = 0;
    char *p = malloc(cap);
    assert_non_null(p);
#define P(...) (n += (size_t)snprintf(p + n, cap - n, __VA_ARGS__), assert_true(n < cap))
    P(".version 7.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry ilp(.param .u64 out, .param .u32 iters)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .f32 %%f<%d>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<5>;\n",
      NCHAIN + 4);
    P("  ld.param.u64 %%rd1, [out];\n  ld.param.u32 %%r1, [iters];\n"
      "  mov.u32 %%r2, %%ctaid.x;\n  mov.u32 %%r3, %%ntid.x;\n  mov.u32 %%r4, %%tid.x;\n"
      "  mad.lo.s32 %%r5, %%r2, %%r3, %%r4;\n"
      "  mov.f32 %%f%d, 0f%08X;\n  mov.f32 %%f%d, 0f%08X;\n", NCHAIN + 2, MULT, NCHAIN + 3, ADDC);
    for (int k = 0; k < NCHAIN; k++)              /* a_k = (float)(gid + k) */
        P("  add.s32 %%r6, %%r5, %d;\n  cvt.rn.f32.u32 %%f%d, %%r6;\n", k, k);
    P("LOOP:\n");
    for (int u = 0; u < UNROLL; u++)
        for (int k = 0; k < NCHAIN; k++)
            P("  fma.rn.f32 %%f%d, %%f%d, %%f%d, %%f%d;\n", k, k, NCHAIN + 2, NCHAIN + 3);
    P("  add.s32 %%r1, %%r1, -1;\n  setp.ne.s32 %%p1, %%r1, 0;\n  @%%p1 bra LOOP;\n");
    for (int w = 1; w < NCHAIN; w *= 2)           /* pairwise tree: a_k += a_(k+w) */
        for (int k = 0; k + w < NCHAIN; k += 2 * w)
            P("  add.f32 %%f%d, %%f%d, %%f%d;\n", k, k, k + w);
    P("  mul.wide.u32 %%rd2, %%r5, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
      "  st.global.f32 [%%rd3], %%f0;\n  ret;\n}\n");
#undef P
    return p;
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The C reference of one thread. */
static float ilp_ref(uint32_t gid)
{
    float a[NCHAIN], m = u2f(MULT), c = u2f(ADDC);
    for (int k = 0; k < NCHAIN; k++)
        a[k] = (float)(gid + (uint32_t)k);
    for (int i = 0; i < ITERS * UNROLL; i++)
        for (int k = 0; k < NCHAIN; k++)
            a[k] = fmaf(a[k], m, c);
    for (int w = 1; w < NCHAIN; w *= 2)
        for (int k = 0; k + w < NCHAIN; k += 2 * w)
            a[k] = a[k] + a[k + w];
    return a[0];
}

/* Runs the kernel on one SM of cfg with the extra sets, ncta CTAs, checks every output
   against the reference and that all ncta CTAs were resident at once, gives the statistics. */
static void run_ilp(const char *cfg, unsigned ncta, const char **sets, int nsets,
                    struct gs_stats *ks)
{
    const char *all[8] = { "num_sms=1" };
    struct gs_gpu *g;
    struct gs_module *mod;
    uint64_t dout;
    uint32_t iters = ITERS, nthr = ncta * NTHR;
    const struct gs_arg args[2] = { GS_ARG(dout), GS_ARG(iters) };
    float *out = malloc(nthr * sizeof *out);
    char err[512], *ptx = ilp_ptx();
    assert_non_null(out);
    assert_true(nsets < 8);
    for (int i = 0; i < nsets; i++)
        all[1 + i] = sets[i];
    if (gs_init(&g, cfg, all, 1 + nsets, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    if (gs_load_ptx_text(g, ptx, "ilp.ptx", &mod) != GS_OK)
        fail_msg("%s", gs_last_error(g));
    assert_int_equal(gs_malloc(g, &dout, nthr * sizeof *out), GS_OK);
    assert_int_equal(gs_memset(g, dout, 0xFF, nthr * sizeof *out), GS_OK);
    if (gs_launch(g, mod, "ilp", (struct gs_dim3){ ncta, 1, 1 }, (struct gs_dim3){ NTHR, 1, 1 },
                  0, args, 2) != GS_OK)
        fail_msg("%s", gs_last_error(g));
    assert_int_equal(gs_memcpy_dtoh(g, out, dout, nthr * sizeof *out), GS_OK);
    for (uint32_t t = 0; t < nthr; t++)
        if (memcmp(&out[t], &(float){ ilp_ref(t) }, sizeof(float)))
            fail_msg("thread %u: %a, reference %a", t, (double)out[t], (double)ilp_ref(t));
    gs_kernel_stats(g, ks);
    assert_int_equal(ks->occupancy, ncta);
    gs_destroy(g);
    free(ptx);
    free(out);
}

/* Warp-IPC of SM 0; prints the run and, when under `bound`, its scheduler-cycle breakdown. */
static double sm_ipc(const char *what, const struct gs_stats *ks, double bound)
{
    double ipc = (double)ks->t.sm_warp_insns[0] / (double)ks->cycles;
    uint64_t tot = 0;
    print_message("%s: %llu warp insns in %llu cycles, warp-IPC per SM %.3f (bound %.1f)\n", what,
                  (unsigned long long)ks->t.sm_warp_insns[0], (unsigned long long)ks->cycles, ipc,
                  bound);
    if (ipc >= bound)
        return ipc;
    for (int k = 0; k < GS_STALL_KINDS; k++)
        tot += ks->t.sched_cycles[k];
    for (int k = 0; k < GS_STALL_KINDS; k++)
        print_message("  %-24s %9llu  %5.1f%%\n", gs_stall_names[k],
                      (unsigned long long)ks->t.sched_cycles[k],
                      tot ? 100.0 * (double)ks->t.sched_cycles[k] / (double)tot : 0.0);
    return ipc;
}

static void test_gtx480_two_per_cycle(void **state)
{
    struct gs_stats ks;
    (void)state;
    run_ilp("configs/gtx480.cfg", 6, NULL, 0, &ks);
    double ipc = sm_ipc("gtx480", &ks, 1.7);
    assert_true(ipc >= 1.7);
}

static void test_gtx480_old_front_end(void **state)
{
    const char *old[] = { "fetch_width=1", "fetch_warps=1" };
    struct gs_stats ks;
    uint64_t tot = 0;
    (void)state;
    run_ilp("configs/gtx480.cfg", 6, old, 2, &ks);
    double ipc = sm_ipc("gtx480, 1 instruction x 1 warp per cycle", &ks, 1.7);
    assert_true(ipc < 1.7);
    for (int k = 0; k < GS_STALL_KINDS; k++)
        tot += ks.t.sched_cycles[k];
    assert_true(ks.t.sched_cycles[GS_STALL_IBUF] * 4 > tot);    /* over a quarter: I-buffer empty */
}

static void test_kepler_four_per_cycle(void **state)
{
    struct gs_stats ks;
    (void)state;
    run_ilp("configs/kepler.cfg", 8, NULL, 0, &ks);
    double ipc = sm_ipc("kepler", &ks, 3.4);
    assert_true(ipc >= 3.4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtx480_two_per_cycle),
        cmocka_unit_test(test_gtx480_old_front_end),
        cmocka_unit_test(test_kepler_four_per_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
