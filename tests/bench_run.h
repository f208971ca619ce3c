/*
 * bench_run.h -- for the mechanism tests (test_vt.c, test_vtw.c, test_dws.c, test_redir.c): run
 * one bench kernel at the test size on the gtx480 configuration (or a variant's own) with extra
 * keys and, with bench_run_with, a set-up of the GPU before it runs (bench_run_lay: and a data
 * layout); one cmocka test per (kernel, variant).
 */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H
#include "testutil.h"
#include "bench.h"

struct variant { const char *tag; const char *set[6]; int nset; const char *cfg; };  /* cfg:
                                                            NULL = configs/gtx480.cfg */
struct job { const struct bench *b; const struct variant *v; char name[80]; };

/* Run bench kernel b at the test size with sets, setup(gpu, arg) called before it runs (NULL:
   none) and the data layout lay applied (NULL: none; BENCH_LAYOUT kernels); 0, or its rc with
   the message in msg (the bench's, then the last API error). Its statistics over all launches
   into st (if not NULL). */
static inline int bench_run_lay(const struct bench *b, const char *cfg,
                                const char *const *sets, int nsets,
                                void (*setup)(struct gs_gpu *, void *), void *arg,
                                const struct bench_layout *lay, struct gs_stats *st,
                                char *msg, size_t msglen)
{
    struct bench_ctx ctx;
    char path[512], err[512];
    int rc;
    memset(&ctx, 0, sizeof ctx);
    assert_int_equal(gs_init(&ctx.gpu, cfg ? cfg : "configs/gtx480.cfg", sets, nsets, err,
                             sizeof err), GS_OK);
    if (setup)
        setup(ctx.gpu, arg);
    bench_ptx_path(b, "bench", path, sizeof path);
    ctx.ptx_path = path;
    ctx.size = BENCH_TEST;
    ctx.layout = lay;
    rc = b->run(&ctx);
    if (st)
        gs_total_stats(ctx.gpu, st);
    snprintf(msg, msglen, "%s%s%s", ctx.msg ? ctx.msg : "", rc ? " | " : "",
             rc ? gs_last_error(ctx.gpu) : "");
    free(ctx.msg);
    gs_destroy(ctx.gpu);
    return rc;
}

static inline int bench_run_with(const struct bench *b, const char *cfg,
                                 const char *const *sets, int nsets,
                                 void (*setup)(struct gs_gpu *, void *), void *arg,
                                 struct gs_stats *st, char *msg, size_t msglen)
{
    return bench_run_lay(b, cfg, sets, nsets, setup, arg, NULL, st, msg, msglen);
}

static inline int bench_run_cfg(const struct bench *b, const char *cfg,
                                const char *const *sets, int nsets, struct gs_stats *st,
                                char *msg, size_t msglen)
{
    return bench_run_with(b, cfg, sets, nsets, NULL, NULL, st, msg, msglen);
}

static inline int bench_run(const struct bench *b, const char *const *sets, int nsets,
                            struct gs_stats *st, char *msg, size_t msglen)
{
    return bench_run_cfg(b, NULL, sets, nsets, st, msg, msglen);
}

/* Bench kernel `name` at the test size on gtx480 with sets: its statistics; the test fails
   with the message when it does not compute correct results. */
static inline struct gs_stats bench_stats(const char *name, const char *const *sets, int n)
{
    struct gs_stats st;
    char msg[1024];
    const struct bench *b = bench_find(name);
    assert_non_null(b);
    if (bench_run(b, sets, n, &st, msg, sizeof msg)) {
        print_error("%s: %s\n", name, msg);
        fail();
    }
    return st;
}

/* One (kernel, variant): its results must be correct. */
static inline void test_one_kernel(void **state)
{
    const struct job *j = *state;
    char msg[1024];
    if (bench_run_cfg(j->b, j->v->cfg, j->v->set, j->v->nset, NULL, msg, sizeof msg)) {
        print_error("%s: %s\n", j->name, msg);
        fail();
    }
}

/* Every bench kernel under every variant, into tests[] (room for n x nv); returns the count. */
static inline unsigned bench_jobs(const struct variant *v, unsigned nv, struct job *jobs,
                                  struct CMUnitTest *tests)
{
    unsigned n, i, k, t = 0;
    const struct bench *const *all = bench_all(&n);
    for (k = 0; k < nv; k++)
        for (i = 0; i < n; i++) {
            struct job *j = &jobs[t];
            j->b = all[i];
            j->v = &v[k];
            snprintf(j->name, sizeof j->name, "%s/%s", all[i]->name, v[k].tag);
            tests[t] = (struct CMUnitTest){ j->name, test_one_kernel, NULL, NULL, j };
            t++;
        }
    return t;
}

/* A mechanism test's main: every (kernel, variant) and then the extra tests, as group `name`. */
static inline int bench_main(const char *name, const struct variant *v, unsigned nv,
                             const struct CMUnitTest *extra, unsigned nextra)
{
    unsigned n, t;
    struct CMUnitTest *tests;
    struct job *jobs;
    int rc;
    bench_all(&n);
    tests = calloc(n * nv + nextra, sizeof *tests);
    jobs = calloc(n * nv, sizeof *jobs);
    if (!tests || !jobs)
        return 1;
    t = bench_jobs(v, nv, jobs, tests);
    tu_filters();
    memcpy(tests + t, extra, nextra * sizeof *extra);
    rc = _cmocka_run_group_tests(name, tests, t + nextra, NULL, NULL);
    free(tests);
    free(jobs);
    return rc;
}

#endif
