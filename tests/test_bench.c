/*
 * test_bench.c -- every bench kernel at the test size computes correct results, and a kernel
 * that computes a wrong result is caught by its checker (vecadd with add.f32 turned into
 * sub.f32 in its PTX).
 */
#include "testutil.h"
#include "bench.h"

static int run_bench(const struct bench *b, const char *ptx, struct bench_ctx *ctx)
{
    char path[512], err[512];
    int rc;
    memset(ctx, 0, sizeof *ctx);
    assert_int_equal(gs_init(&ctx->gpu, NULL, NULL, 0, err, sizeof err), GS_OK);
    snprintf(path, sizeof path, "bench/%s/kernel.ptx", b->name);
    ctx->ptx_path = ptx ? ptx : path;
    ctx->size = BENCH_TEST;
    rc = b->run(ctx);
    gs_destroy(ctx->gpu);
    ctx->gpu = NULL;
    return rc;
}

static void test_one_kernel(void **state)
{
    const struct bench *b = *state;
    struct bench_ctx ctx;
    int rc = run_bench(b, NULL, &ctx);
    if (rc != 0) {
        print_error("%s: %s\n", b->name, ctx.msg);
        fail();
    }
}

/* Write vecadd's PTX with its add.f32 replaced by sub.f32. */
static void write_wrong_vecadd(const char *out)
{
    size_t len;
    char *text = tu_read_file("bench/vecadd/kernel.ptx", &len), *p;
    FILE *f;
    assert_non_null(text);
    p = strstr(text, "add.f32");
    assert_non_null(p);
    memcpy(p, "sub", 3);
    f = fopen(out, "w");
    assert_non_null(f);
    fwrite(text, 1, len, f);
    fclose(f);
    free(text);
}

static void test_wrong_result_is_caught(void **state)
{
    struct bench_ctx ctx;
    (void)state;
    write_wrong_vecadd(BUILD_DIR "/tests/vecadd_wrong.ptx");
    assert_int_equal(run_bench(bench_find("vecadd"), BUILD_DIR "/tests/vecadd_wrong.ptx", &ctx), 1);
    tu_assert_contains(ctx.msg, "c[0] = ");
    tu_assert_contains(ctx.msg, "expected");
    assert_true(ctx.mismatches > 900);
}

int main(void)
{
    unsigned n, i;
    const struct bench *const *all = bench_all(&n);
    struct CMUnitTest *tests = calloc(n + 1, sizeof *tests);
    int rc;
    if (!tests)
        return 1;
    for (i = 0; i < n; i++) {
        tests[i].name = all[i]->name;
        tests[i].test_func = test_one_kernel;
        tests[i].initial_state = (void *)all[i];
    }
    tests[n].name = "wrong_result_is_caught";
    tests[n].test_func = test_wrong_result_is_caught;
    rc = _cmocka_run_group_tests("bench", tests, n + 1, NULL, NULL);
    free(tests);
    return rc;
}
