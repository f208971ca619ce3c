/*
 * test_redir.c -- reference redirection (model/ptx/redir.c, gs_redirect; 001 Section III-A):
 * on every bench kernel at the test size, every launch run with a shuffled thread order
 * (thread slot p as logical thread D[p]) computes correct results in both models, or the
 * kernel is refused with the reason (shared memory, barriers, warp-level operations); the
 * extra load shows in the statistics; bad regroupings are refused.  The data-layout
 * transformation (bench_layout, 001 Section VI-B) on the kernels that apply one (bench/rgwork,
 * BENCH_LAYOUT): shuffled and under the three regrouping algorithms' orders, both methods give
 * correct results; an order that does not fit the launch or is not a permutation is refused.
 */
#include "bench_run.h"
#include "gpu/bbv.h"
#include "gpu/bbv_est.h"
#include "gpu/regroup.h"
#include "ptx/redir.h"

#define MAXL 256

struct launches { unsigned n; uint64_t len[MAXL]; uint32_t *perm[MAXL]; };

struct hooks { FILE *bbv; struct launches *rg; };

static void setup(struct gs_gpu *g, void *arg)
{
    struct hooks *h = arg;
    if (h->bbv)
        assert_int_equal(gs_bbv(g, h->bbv, 0), GS_OK);
    if (h->rg)
        assert_int_equal(gs_redirect(g, (const uint32_t *const *)h->rg->perm, h->rg->len,
                                     h->rg->n), GS_OK);
}

/* Run b in model with the hooks: BBVs into bbv, redirected by rg, data layout by lay. */
static int run_lay(const struct bench *b, const char *model, FILE *bbv, struct launches *rg,
                   const struct launches *lay, struct gs_stats *st, char *msg, size_t msglen)
{
    char set[64];
    const char *sets[1] = {set};
    struct hooks h = {bbv, rg};
    struct bench_layout l = {lay ? lay->n : 0, lay ? (const uint32_t *const *)lay->perm : NULL,
                             lay ? lay->len : NULL};
    snprintf(set, sizeof set, "model=%s", model);
    return bench_run_lay(b, NULL, sets, 1, setup, &h, lay ? &l : NULL, st, msg, msglen);
}

static int run(const struct bench *b, const char *model, FILE *bbv, struct launches *rg,
               struct gs_stats *st, char *msg, size_t msglen)
{
    return run_lay(b, model, bbv, rg, NULL, st, msg, msglen);
}

/* Fisher-Yates with a fixed seed: a shuffle of 0..n-1 into p. */
static void shuffle(uint32_t *p, uint64_t n, uint64_t *s)
{
    for (uint64_t i = 0; i < n; i++)
        p[i] = (uint32_t)i;
    for (uint64_t i = n; i > 1; i--) {
        *s = *s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t j = (*s >> 33) % i;
        uint32_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
}

/* The launches' BBVs (from a functional run) and per launch a shuffle (alg < 0) or the order
   of regrouping algorithm alg at group size 32. */
static void orders(const struct bench *b, int alg, struct launches *rg)
{
    char *buf = NULL, msg[1024], err[256];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct bbv x;
    struct gs_gpu *g;
    uint64_t s = 12345;
    assert_int_equal(gs_init(&g, "configs/gtx480.cfg", NULL, 0, err, sizeof err), GS_OK);
    assert_int_equal(run(b, "functional", f, NULL, NULL, msg, sizeof msg), 0);
    fclose(f);
    f = fmemopen(buf, len, "rb");
    assert_int_equal(bbv_read_magic(f, err, sizeof err), 0);
    memset(rg, 0, sizeof *rg);
    while (bbv_read(f, &x, err, sizeof err) == 1) {
        assert_true(rg->n < MAXL);
        uint32_t *p = malloc(x.nthreads * sizeof *p);
        double *lat = malloc((x.nblocks + 1) * sizeof *lat);
        assert_non_null(p);
        assert_non_null(lat);
        if (alg < 0) {
            shuffle(p, x.nthreads, &s);
        } else {
            bbv_block_latency(gs_config(g), &x, lat);
            assert_int_equal(rg_regroup((enum rg_alg)alg, &x, lat, 32, p, err, sizeof err), 0);
        }
        free(lat);
        rg->len[rg->n] = x.nthreads;
        rg->perm[rg->n++] = p;
        bbv_free(&x);
    }
    gs_destroy(g);
    fclose(f);
    free(buf);
}

static void shuffles(const struct bench *b, struct launches *rg)
{
    orders(b, -1, rg);
}

static void free_launches(struct launches *rg)
{
    for (unsigned i = 0; i < rg->n; i++)
        free(rg->perm[i]);
}

static void test_every_kernel(void **state)
{
    unsigned n, applied = 0;
    uint64_t per_thread = 0;            /* the prologue's instructions */
    const struct bench *const *all = bench_all(&n);
    (void)state;
    for (unsigned i = 0; i < n; i++) {
        struct launches *rg = calloc(1, sizeof *rg);
        struct gs_stats s0, s1;
        char msg[1024];
        int rc;
        assert_non_null(rg);
        shuffles(all[i], rg);
        assert_int_equal(run(all[i], "timing", NULL, NULL, &s0, msg, sizeof msg), 0);
        rc = run(all[i], "functional", NULL, rg, NULL, msg, sizeof msg);
        if (rc && strstr(msg, "redirect ")) {
            print_message("%s: refused: %s\n", all[i]->name, strstr(msg, "redirect "));
        } else {
            if (rc || (rc = run(all[i], "timing", NULL, rg, &s1, msg, sizeof msg))) {
                print_error("%s: %s\n", all[i]->name, msg);
                fail();
            }
            /* the prologue (its extra load among them): the same instructions added to every
               thread of a kernel (its launches' form; what it reads of %tid and %ctaid) */
            uint64_t threads = 0, extra = s1.thread_insns - s0.thread_insns;
            for (unsigned l = 0; l < rg->n; l++)
                threads += rg->len[l];
            assert_int_equal(extra % threads, 0);
            assert_true(extra / threads >= 8 && extra / threads <= 40);
            per_thread = per_thread > extra / threads ? per_thread : extra / threads;
            print_message("%s: redirected, %llu -> %llu cycles\n", all[i]->name,
                          (unsigned long long)s0.cycles, (unsigned long long)s1.cycles);
            applied++;
        }
        free_launches(rg);
        free(rg);
    }
    print_message("%u of %u kernels run redirected, at most %llu prologue instructions per "
                  "thread\n", applied, n, (unsigned long long)per_thread);
    assert_true(applied >= 10);
}

static void test_refusals(void **state)
{
    struct gs_gpu *g;
    char err[512];
    const char *vtw = "vtw=hw";
    uint32_t p[64];
    const uint32_t *perm[1] = {p};
    uint64_t len[1] = {64};
    struct launches *rg = calloc(1, sizeof *rg);
    char msg[1024];
    (void)state;
    assert_int_equal(gs_init(&g, "configs/gtx480.cfg", &vtw, 1, err, sizeof err), GS_OK);
    assert_int_equal(gs_redirect(g, perm, len, 1), GS_ERR_CONFIG);
    tu_assert_contains(gs_last_error(g), "reference redirection needs vtw = off");
    assert_int_equal(gs_redirect(g, NULL, len, 1), GS_ERR_INVALID_VALUE);
    gs_destroy(g);
    assert_non_null(rg);                       /* a regrouping of the wrong size */
    shuffles(bench_find("vecadd"), rg);
    rg->len[0]--;
    for (uint32_t p = 0; p < rg->len[0]; p++)  /* a permutation (gs_redirect checks that) */
        rg->perm[0][p] = p;
    assert_int_not_equal(run(bench_find("vecadd"), "functional", NULL, rg, NULL, msg, sizeof msg), 0);
    tu_assert_contains(msg, "redirect vecadd: launch 0: a regrouping of 1023 threads for a launch of 1024");
    free_launches(rg);
    free(rg);
}

/* test_every_kernel's two outcomes on one kernel each, cheap enough for make test's sanitizer
   run (which leaves test_every_kernel out): a kernel with static or dynamic shared memory is
   refused naming the reason; a kernel of six launches runs redirected, each launch reordered by its own
   permutation through the redirected variant made at the first launch. */
static void test_refused_and_relaunched(void **state)
{
    struct launches *rg = calloc(1, sizeof *rg);
    char msg[1024];
    (void)state;
    assert_non_null(rg);
    shuffles(bench_find("backprop"), rg);                      /* static shared memory */
    assert_int_not_equal(run(bench_find("backprop"), "timing", NULL, rg, NULL, msg, sizeof msg), 0);
    tu_assert_contains(msg, "redirect backprop: the kernel uses shared memory");
    free_launches(rg);
    shuffles(bench_find("reduce"), rg);                        /* dynamic shared memory */
    assert_int_not_equal(run(bench_find("reduce"), "timing", NULL, rg, NULL, msg, sizeof msg), 0);
    tu_assert_contains(msg, "redirect reduce: launch 0 has 1024 bytes of dynamic shared memory");
    free_launches(rg);
    shuffles(bench_find("sloop"), rg);
    assert_int_equal(rg->n, 6);
    if (run(bench_find("sloop"), "timing", NULL, rg, NULL, msg, sizeof msg))
        fail_msg("sloop redirected: %s", msg);
    free_launches(rg);
    free(rg);
}

/* The data-layout kernels (BENCH_LAYOUT: bench/rgwork's, and soundloc and smithwat of the
   suite, 001's SL and SW): shuffled and under each algorithm's order, by data layout and by
   redirection, correct in both models. (Seen failing with bench/rgwork/host.c's scatter of
   the outputs cut out, and with soundloc's window copied from frame p instead of D[p].) */
static void test_layout(void **state)
{
    unsigned ns, nx, n, nl = 0;
    const struct bench *const *su = bench_all(&ns), *const *ex = bench_extra(&nx);
    const struct bench *all[128];
    static const char *const models[2] = {"functional", "timing"};
    (void)state;
    assert_true(ns + nx <= 128);
    memcpy(all, su, ns * sizeof *all);
    memcpy(all + ns, ex, nx * sizeof *all);
    n = ns + nx;
    for (unsigned i = 0; i < n; i++) {
        struct launches *rg;
        char msg[1024];
        if (!(all[i]->flags & BENCH_LAYOUT))
            continue;
        assert_non_null(rg = calloc(1, sizeof *rg));
        for (int a = -1; a < RG_NALGS; a++) {
            orders(all[i], a, rg);
            for (int m = 0; m < 2; m++)
                if (run_lay(all[i], models[m], NULL, NULL, rg, NULL, msg, sizeof msg) ||
                    run_lay(all[i], models[m], NULL, rg, NULL, NULL, msg, sizeof msg)) {
                    print_error("%s, %s, %s: %s\n", all[i]->name,
                                a < 0 ? "shuffle" : rg_name((enum rg_alg)a), models[m], msg);
                    fail();
                }
            free_launches(rg);
        }
        nl++;
        free(rg);
    }
    print_message("%u kernels applied a data layout\n", nl);
    assert_true(nl >= 6);
}

/* A data layout that does not fit the launch or is not a permutation is refused. */
static void test_layout_refused(void **state)
{
    struct launches *rg = calloc(1, sizeof *rg);
    char msg[1024];
    (void)state;
    assert_non_null(rg);
    shuffles(bench_find("rgwork_alt"), rg);
    rg->len[0]--;
    assert_int_equal(run_lay(bench_find("rgwork_alt"), "functional", NULL, NULL, rg, NULL, msg,
                             sizeof msg), -1);
    tu_assert_contains(msg, "data layout: launch 0 has 4096 threads, its order 4095");
    rg->len[0]++;
    rg->perm[0][7] = rg->perm[0][8];
    assert_int_equal(run_lay(bench_find("rgwork_alt"), "functional", NULL, NULL, rg, NULL, msg,
                             sizeof msg), -1);
    tu_assert_contains(msg, "data layout: launch 0's order is not a permutation: slot 8 repeats "
                       "thread");
    free_launches(rg);
    free(rg);
}

/* tests/data/ptx/redir_ids.ptx on grid g x block b in model, slot p running as logical
   thread perm[p] (identity if perm is NULL): every output word checked against the linear
   index's components; the form the launch ran named in the registers' note; statistics into
   st. */
static void run_ids(const uint32_t g[3], const uint32_t b[3], const char *model,
                    const uint32_t *perm, struct gs_stats *st)
{
    uint32_t tpc = b[0] * b[1] * b[2], n = g[0] * g[1] * g[2] * tpc;
    uint32_t *out = malloc((size_t)n * 24), *id = malloc((size_t)n * 4);
    const uint32_t *pp[1] = {perm ? perm : id};
    uint64_t len[1] = {n}, dout;
    char set[64], err[256], want[64];
    const char *sets[1] = {set};
    struct gs_gpu *gpu;
    struct gs_module *mod;
    const struct gs_arg args[1] = {GS_ARG(dout)};
    assert_non_null(out);
    assert_non_null(id);
    for (uint32_t i = 0; i < n; i++)
        id[i] = i;
    snprintf(set, sizeof set, "model=%s", model);
    assert_int_equal(gs_init(&gpu, "configs/gtx480.cfg", sets, 1, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx(gpu, "tests/data/ptx/redir_ids.ptx", &mod), GS_OK);
    assert_int_equal(gs_malloc(gpu, &dout, (uint64_t)n * 24), GS_OK);
    assert_int_equal(gs_redirect(gpu, pp, len, 1), GS_OK);
    if (gs_launch(gpu, mod, "redir_ids", (struct gs_dim3){g[0], g[1], g[2]},
                  (struct gs_dim3){b[0], b[1], b[2]}, 0, args, 1) != GS_OK)
        fail_msg("redir_ids: %s", gs_last_error(gpu));
    assert_int_equal(gs_memcpy_dtoh(gpu, out, dout, (uint64_t)n * 24), GS_OK);
    for (uint32_t l = 0; l < n; l++) {
        uint32_t t = l % tpc, c = l / tpc;
        const uint32_t w[6] = {t % b[0], t / b[0] % b[1], t / (b[0] * b[1]), c % g[0],
                               c / g[0] % g[1], c / (g[0] * g[1])};
        for (int k = 0; k < 6; k++)
            if (out[l * 6 + k] != w[k])
                fail_msg("redir_ids %s, grid %ux%ux%u block %ux%ux%u: thread %u component %d "
                         "is %u, want %u", model, g[0], g[1], g[2], b[0], b[1], b[2], l, k,
                         out[l * 6 + k], w[k]);
    }
    snprintf(want, sizeof want, "redirected, form %s:", redir_form_name(redir_form(g, b)));
    tu_assert_contains(gs_regs_note(gpu), want);
    gs_kernel_stats(gpu, st);
    gs_destroy(gpu);
    free(out);
    free(id);
}

/* The nine forms of the split of D[] (redir.h): for a launch of each shape class (blocks 1-D
   of 64, 8x4x2 and 6x5x3; grids 1-D of 5, 3x4 and 3x2x2), shuffled, in both models, every
   thread's logical %tid and %ctaid are its D[] entry's. The shuffle really moves the
   threads: the stores of a warp scatter, more L2 accesses than in the identity order. */
static void test_forms(void **state)
{
    static const uint32_t blocks[3][3] = {{64, 1, 1}, {8, 4, 2}, {6, 5, 3}};
    static const uint32_t grids[3][3] = {{5, 1, 1}, {3, 4, 1}, {3, 2, 2}};
    static const char *const models[2] = {"functional", "timing"};
    uint64_t s = 99;
    (void)state;
    for (unsigned bi = 0; bi < 3; bi++)
        for (unsigned gi = 0; gi < 3; gi++) {
            const uint32_t *b = blocks[bi], *g = grids[gi];
            uint64_t n = (uint64_t)g[0] * g[1] * g[2] * b[0] * b[1] * b[2];
            uint32_t *perm = malloc(n * 4);
            struct gs_stats sh, id;
            assert_non_null(perm);
            assert_int_equal(redir_form(g, b), bi * 3 + gi);
            shuffle(perm, n, &s);
            for (int m = 0; m < 2; m++)
                run_ids(g, b, models[m], perm, &sh);
            run_ids(g, b, "timing", NULL, &id);
            assert_true(sh.t.l2_accesses > id.t.l2_accesses);
            free(perm);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kernel),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_refused_and_relaunched),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_layout_refused),
    };
    tu_filters();
    return cmocka_run_group_tests_name("redir", tests, NULL, NULL);
}
