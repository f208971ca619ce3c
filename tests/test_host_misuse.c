/*
 * test_host_misuse.c -- the host API (model/gpu/gpusim.h) used wrongly, issue 37: a module of
 * another GPU given to gs_launch (it wrote that GPU's memory; a use-after-free once its owner
 * was destroyed), the statistics calls on a NULL GPU (a null dereference), gs_bbv and
 * gs_redirect given NULL (the previous call's message stayed), a negative override count to
 * gs_init, and redirect arrays that are not permutations. Every one is refused with a status
 * and a message of its own, and nothing is read or written through the bad argument.
 */
#include "testutil.h"
#include "gpu/gpusim.h"

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"

/* out[i] = 7 for each thread i. */
static const char *seven_ptx = HDR
    ".visible .entry seven(.param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<4>;\n"
    " .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " mov.u32 %r2, 7;\n"
    " st.global.u32 [%rd3], %r2;\n"
    " ret;\n"
    "}\n";

static struct gs_gpu *gpu_new(void)
{
    struct gs_gpu *g = NULL;
    char err[256];
    const char *func = "model=functional";
    assert_int_equal(gs_init(&g, NULL, &func, 1, err, sizeof err), GS_OK);
    return g;
}

static const struct gs_dim3 one = {1, 1, 1}, block32 = {32, 1, 1};

/* A module loaded on GPU a, launched on GPU b: refused, b's memory untouched; again after a
   is destroyed (the module's memory is then freed: it must not be read). */
static void test_foreign_module_refused(void **state)
{
    struct gs_gpu *a = gpu_new(), *b = gpu_new();
    struct gs_module *ma, *mb;
    uint64_t outa, outb;
    uint32_t host[32];
    struct gs_arg arg;
    (void)state;
    assert_int_equal(gs_load_ptx_text(a, seven_ptx, "a.ptx", &ma), GS_OK);
    assert_int_equal(gs_load_ptx_text(b, seven_ptx, "b.ptx", &mb), GS_OK);
    assert_int_equal(gs_malloc(a, &outa, sizeof host), GS_OK);
    assert_int_equal(gs_malloc(b, &outb, sizeof host), GS_OK);
    assert_int_equal(gs_memset(b, outb, 0, sizeof host), GS_OK);
    arg = GS_ARG(outb);
    assert_int_equal(gs_launch(b, ma, "seven", one, block32, 0, &arg, 1), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(b), "gs_launch: kernel 'seven': the module was not loaded "
                       "on this GPU");
    assert_int_equal(gs_synchronize(b), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_memcpy_dtoh(b, host, outb, sizeof host), GS_OK);
    assert_int_equal(host[0], 0);
    gs_destroy(a);
    assert_int_equal(gs_launch(b, ma, "seven", one, block32, 0, &arg, 1), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_launch(b, mb, "seven", one, block32, 0, &arg, 1), GS_OK);  /* its own */
    assert_int_equal(gs_memcpy_dtoh(b, host, outb, sizeof host), GS_OK);
    assert_int_equal(host[31], 7);
    gs_destroy(b);
}

/* The statistics calls on a NULL GPU: zeroed statistics, no crash. */
static void test_stats_on_null_gpu(void **state)
{
    struct gs_stats s;
    (void)state;
    memset(&s, 0xA5, sizeof s);
    gs_kernel_stats(NULL, &s);
    assert_int_equal(s.cycles, 0);
    assert_int_equal(s.launches, 0);
    memset(&s, 0xA5, sizeof s);
    gs_total_stats(NULL, &s);
    assert_int_equal(s.warp_insns, 0);
    gs_reset_stats(NULL);
    gs_kernel_stats(NULL, NULL);
    gs_total_stats(NULL, NULL);
    assert_int_equal(gs_synchronize(NULL), GS_ERR_INVALID_VALUE);
    assert_null(gs_config(NULL));
}

/* gs_bbv and gs_redirect given NULL set a message of their own (the last call's stayed). */
static void test_null_arguments_set_a_message(void **state)
{
    struct gs_gpu *g = gpu_new();
    uint64_t p;
    uint64_t len[1] = {32};
    (void)state;
    assert_int_equal(gs_malloc(g, &p, 0), GS_ERR_INVALID_VALUE);       /* an earlier error */
    tu_assert_contains(gs_last_error(g), "gs_malloc: size 0");
    assert_int_equal(gs_bbv(g, NULL, 0), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(g), "gs_bbv: null FILE");
    assert_int_equal(gs_malloc(g, &p, 0), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_redirect(g, NULL, len, 1), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(g), "gs_redirect: null pointer");
    assert_int_equal(gs_bbv(NULL, stdout, 0), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_redirect(NULL, NULL, NULL, 0), GS_ERR_INVALID_VALUE);
    gs_destroy(g);
}

/* A negative override count was taken as none. */
static void test_negative_nsets_refused(void **state)
{
    struct gs_gpu *g = (struct gs_gpu *)1;
    const char *sets[1] = {"num_sms=2"};
    char err[256] = "";
    (void)state;
    assert_int_equal(gs_init(&g, NULL, sets, -1, err, sizeof err), GS_ERR_INVALID_VALUE);
    assert_null(g);
    tu_assert_contains(err, "gs_init: -1 overrides (nsets must not be negative)");
    assert_int_equal(gs_init(&g, NULL, NULL, -5, err, sizeof err), GS_ERR_INVALID_VALUE);
    assert_null(g);
}

/* Redirect arrays: a repeated thread, a thread out of range, a length of 0 or 2^32 are
   refused at gs_redirect naming the launch and the slots; a permutation is taken, and a
   length that differs from the launch's threads is refused at the launch. */
static void test_redirect_permutation_checked(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    uint32_t d[32];
    const uint32_t *perm[2] = {NULL, d};
    uint64_t len[2] = {0, 32}, out;
    struct gs_arg arg;
    (void)state;
    for (uint32_t i = 0; i < 32; i++)
        d[i] = 31 - i;
    d[9] = d[4];                                     /* thread 27 twice */
    assert_int_equal(gs_redirect(g, perm, len, 2), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(g), "gs_redirect: launch 1: thread 27 is in slots 4 and 9 "
                       "(not a permutation)");
    d[9] = 32;
    assert_int_equal(gs_redirect(g, perm, len, 2), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(g), "gs_redirect: launch 1: slot 9's thread 32 is not "
                       "below the regrouping's 32 threads");
    d[9] = 22;
    len[1] = 0;
    assert_int_equal(gs_redirect(g, perm, len, 2), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(g), "gs_redirect: launch 1: a regrouping of 0 threads");
    len[1] = 1ull << 32;
    assert_int_equal(gs_redirect(g, perm, len, 2), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(g), "a regrouping of 4294967296 threads (1 to 2^32 - 1)");
    len[1] = 32;
    assert_int_equal(gs_redirect(g, perm, len, 2), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, seven_ptx, "s.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &out, 256), GS_OK);
    arg = GS_ARG(out);
    assert_int_equal(gs_launch(g, m, "seven", one, block32, 0, &arg, 1), GS_OK);   /* launch 0 */
    assert_int_equal(gs_launch(g, m, "seven", one, (struct gs_dim3){64, 1, 1}, 0, &arg, 1),
                     GS_ERR_LAUNCH);                                               /* 32 != 64 */
    tu_assert_contains(gs_last_error(g), "launch 1: a regrouping of 32 threads for a launch of 64");
    gs_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_foreign_module_refused),
        cmocka_unit_test(test_stats_on_null_gpu),
        cmocka_unit_test(test_null_arguments_set_a_message),
        cmocka_unit_test(test_negative_nsets_refused),
        cmocka_unit_test(test_redirect_permutation_checked),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
