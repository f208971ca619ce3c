/*
 * test_bench.c -- every bench kernel at the test size computes correct results on every
 * configuration: the timing model on configs/gtx480.cfg and configs/kepler.cfg, and the
 * functional model; and a kernel that computes a wrong result is caught by its checker
 * (vecadd with add.f32 turned into sub.f32 in its PTX). Every kernel's statistics under
 * sched_policy = gto_prio (ws's highest-key policy fed by kgen's GTO keys) are byte-identical
 * to gto's: a policy written as a key generator reproduces the scheduler it stands for.
 */
#include "testutil.h"
#include "bench.h"

struct variant { const char *config; const char *set; const char *tag; };

static const struct variant variants[] = {
    { "configs/gtx480.cfg", "model=timing", "gtx480" },
    { "configs/kepler.cfg", "model=timing", "kepler" },
    { "configs/gtx480.cfg", "model=functional", "functional" },
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

struct job { const struct bench *b; const struct variant *v; char name[64]; };

/* Run b on variant v; if json is not NULL, *json gets the statistics of all launches. */
static int run_variant_stats(const struct bench *b, const struct variant *v, const char *ptx,
                             struct bench_ctx *ctx, char **json)
{
    char path[512], err[512];
    int rc;
    memset(ctx, 0, sizeof *ctx);
    assert_int_equal(gs_init(&ctx->gpu, v->config, &v->set, 1, err, sizeof err), GS_OK);
    snprintf(path, sizeof path, "bench/%s/kernel.ptx", b->name);
    ctx->ptx_path = ptx ? ptx : path;
    ctx->size = BENCH_TEST;
    rc = b->run(ctx);
    if (json) {
        struct gs_stats st;
        size_t len;
        FILE *f = open_memstream(json, &len);
        assert_non_null(f);
        gs_total_stats(ctx->gpu, &st);
        st.host_seconds = 0;               /* the only field that is not deterministic */
        gs_stats_json(&st, "", f);
        fclose(f);
    }
    gs_destroy(ctx->gpu);
    ctx->gpu = NULL;
    return rc;
}

static int run_variant(const struct bench *b, const struct variant *v, const char *ptx,
                       struct bench_ctx *ctx)
{
    return run_variant_stats(b, v, ptx, ctx, NULL);
}

static int run_bench(const struct bench *b, const char *ptx, struct bench_ctx *ctx)
{
    return run_variant(b, &variants[0], ptx, ctx);
}

static void test_one_kernel(void **state)
{
    const struct job *j = *state;
    struct bench_ctx ctx;
    int rc = run_variant(j->b, j->v, NULL, &ctx);
    if (rc != 0) {
        print_error("%s: %s\n", j->name, ctx.msg);
        fail();
    }
    free(ctx.msg);
}

static const struct variant gto_prio = { "configs/gtx480.cfg", "sched_policy=gto_prio", "gto_prio" };

/* The kernel under gto_prio: correct, and with the statistics of gtx480's gto. */
static void test_gto_prio_equals_gto(void **state)
{
    const struct job *j = *state;
    struct bench_ctx ctx;
    char *ref = NULL, *got = NULL;
    assert_int_equal(run_variant_stats(j->b, &variants[0], NULL, &ctx, &ref), 0);
    if (run_variant_stats(j->b, &gto_prio, NULL, &ctx, &got) != 0) {
        print_error("%s: %s\n", j->name, ctx.msg);
        fail();
    }
    if (strcmp(ref, got) != 0) {
        print_error("%s: statistics differ from gto's\n--- gto\n%s\n--- gto_prio\n%s\n", j->name, ref, got);
        fail();
    }
    free(ref);
    free(got);
    free(ctx.msg);
}

/* Write vecadd's PTX with its add.f32 replaced by sub.f32. */
static void write_wrong_vecadd(const char *out)
{
    size_t len = 0;
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
    free(ctx.msg);
}

int main(void)
{
    unsigned n, i, k, t = 0;
    const struct bench *const *all = bench_all(&n);
    struct CMUnitTest *tests = calloc(n * (NVARIANTS + 1) + 1, sizeof *tests);
    struct job *jobs = calloc(n * (NVARIANTS + 1), sizeof *jobs);
    int rc;
    if (!tests || !jobs)
        return 1;
    for (k = 0; k < NVARIANTS; k++)
        for (i = 0; i < n; i++, t++) {
            jobs[t].b = all[i];
            jobs[t].v = &variants[k];
            snprintf(jobs[t].name, sizeof jobs[t].name, "%s@%s", all[i]->name, variants[k].tag);
            tests[t].name = jobs[t].name;
            tests[t].test_func = test_one_kernel;
            tests[t].initial_state = &jobs[t];
        }
    for (i = 0; i < n; i++, t++) {
        jobs[t].b = all[i];
        jobs[t].v = &gto_prio;
        snprintf(jobs[t].name, sizeof jobs[t].name, "%s@gto_prio=gto", all[i]->name);
        tests[t].name = jobs[t].name;
        tests[t].test_func = test_gto_prio_equals_gto;
        tests[t].initial_state = &jobs[t];
    }
    tests[t].name = "wrong_result_is_caught";
    tests[t].test_func = test_wrong_result_is_caught;
    rc = _cmocka_run_group_tests("bench", tests, t + 1, NULL, NULL);
    free(tests);
    free(jobs);
    return rc;
}
