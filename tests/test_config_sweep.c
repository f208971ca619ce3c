/*
 * test_config_sweep.c -- every value a key's documented range allows either runs or is refused
 * when the configuration is loaded (issue 18: a value inside its range used to pass the load and
 * fail only at the launch, as a kernel fault naming no key).
 *
 * Every numeric key of the key table at its minimum, middle and maximum, one key changed at a
 * time over gtx480's defaults, runs three kernels at the test size: vecadd (global memory),
 * sloop (divergent loop exits, SIMT stack spills and fills) and reduce (shared memory, barriers,
 * a warp diverging below 32) -- in the timing model and in the functional model (which ignores
 * most keys but loads, checks and limits launches with all of them). Each combination must
 *   - load and compute correct results (the kernel's own check), or
 *   - be refused by gs_init (GS_ERR_CONFIG) with a message naming the key, or
 *   - be refused by the launch (GS_ERR_LAUNCH) with a message naming the key: a kernel that asks
 *     for more than the key allows (256-thread CTAs at max_threads_per_cta = 32, shared memory
 *     at max_shared_per_cta = 0); no load-time check can know the kernel.
 * A kernel fault, a wrong result or any other failure fails the test, naming the key, the value
 * and the kernel. Cap: see run_cap. A second sweep does the same in the timing model with each
 * mechanism on (vt, vtw with its scheduler, dws branch and revive).
 */
#include <time.h>
#include "testutil.h"
#include "bench.h"
#include "base/config.h"
#include "gpu/gpusim.h"

static const char *const kernels[] = { "vecadd", "sloop", "reduce" };
#define NKERNELS (sizeof kernels / sizeof kernels[0])

struct tally { unsigned runs, refused_load, refused_launch, combos; };

/* The one cap: a latency key (lat_*, *_latency) above 1000 cycles -- the middle and maximum,
   5000 and 10000 -- runs on vecadd only. Such a latency spaces every dependent instruction that
   far apart: at lat_alu = 10000 sloop's loop takes 6.3 M cycles (8.5 to 11 s) and reduce's tree
   0.64 M (3 s), together more than this whole sweep, where vecadd takes 71 k cycles (0.3 s).
   What is swept does not depend on the kernel (the load's checks, the blocks a launch builds),
   so vecadd shows that such a value loads, builds every block and runs correctly. */
static int run_cap(const struct conf_key *k, uint64_t v, const char *kernel)
{
    return v > 1000 && (!strncmp(k->name, "lat_", 4) || strstr(k->name, "_latency")) &&
           strcmp(kernel, "vecadd") != 0;
}

/* The load names a key as 'KEY'; a launch's message names the limit it exceeds. */
static int names_key(const char *msg, const char *key, int quoted)
{
    char q[80];
    snprintf(q, sizeof q, quoted ? "'%s'" : "%s", key);
    return strstr(msg, q) != NULL;
}

/* One kernel on configuration `set` (one "key=value" and the model): 0 when it ran correctly
   or was refused naming the key, else -1 with why in why. */
static int run_kernel(const struct bench *b, const char *const *sets, unsigned nsets,
                      const char *key, struct tally *t, char *why, size_t n)
{
    struct bench_ctx ctx;
    char path[512], err[1024];
    int rc, st;
    memset(&ctx, 0, sizeof ctx);
    rc = gs_init(&ctx.gpu, NULL, sets, nsets, err, sizeof err);
    if (rc != GS_OK) {
        if (rc == GS_ERR_CONFIG && names_key(err, key, 1)) {
            t->refused_load++;
            return 1;                       /* no kernel runs on it */
        }
        snprintf(why, n, "gs_init: %s: %s", gs_status_name(rc), err);
        return -1;
    }
    bench_ptx_path(b, "bench", path, sizeof path);
    ctx.ptx_path = path;
    ctx.size = BENCH_TEST;
    rc = b->run(&ctx);
    st = gs_synchronize(ctx.gpu);
    if (rc == 0) {
        t->runs++;
    } else if (rc < 0 && st == GS_ERR_LAUNCH && names_key(gs_last_error(ctx.gpu), key, 0)) {
        t->refused_launch++;
        rc = 0;
    } else {
        snprintf(why, n, "%s (%s: %s)", ctx.msg ? ctx.msg : "failed", gs_status_name(st),
                 gs_last_error(ctx.gpu));
    }
    free(ctx.msg);
    gs_destroy(ctx.gpu);
    return rc ? -1 : 0;
}

/* Key k at value v on every kernel in `model`, with a mechanism's settings mech (NULL-ended,
   applied first: the swept key may override one); failures are printed and counted in *bad. */
static void sweep_value(const struct conf_key *k, uint64_t v, const char *model,
                        const char *const *mech, struct tally *t, unsigned *bad)
{
    char set[128], why[2048];
    const char *sets[8];
    unsigned n = 0;
    for (; mech && mech[n] && n < 6; n++)
        sets[n] = mech[n];
    sets[n++] = set;
    sets[n++] = model;
    snprintf(set, sizeof set, "%s=%llu", k->name, (unsigned long long)v);
    t->combos++;
    for (size_t i = 0; i < NKERNELS; i++) {
        int rc;
        if (!strcmp(model, "model=timing") && run_cap(k, v, kernels[i]))
            continue;
        rc = run_kernel(bench_find(kernels[i]), sets, n, k->name, t, why, sizeof why);
        if (rc > 0)
            return;                         /* refused at load: the same for every kernel */
        if (rc < 0) {
            print_error("%s %s%s%s on %s: %s\n", set, model, mech ? " with " : "",
                        mech ? mech[0] : "", kernels[i], why);
            (*bad)++;
        }
    }
}

static void test_key_range_sweep(void **state)
{
    unsigned nk, bad = 0;
    const struct conf_key *keys = conf_keys(&nk);
    struct tally t = { 0, 0, 0, 0 };
    struct timespec t0, t1;
    (void)state;
    for (size_t i = 0; i < NKERNELS; i++)
        assert_non_null(bench_find(kernels[i]));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 0; i < nk; i++) {
        const struct conf_key *k = &keys[i];
        uint64_t v[3] = { k->min, k->min + (k->max - k->min) / 2, k->max };
        if (k->kind != CK_U32 && k->kind != CK_U64)
            continue;
        for (unsigned j = 0; j < 3; j++) {
            sweep_value(k, v[j], "model=timing", NULL, &t, &bad);
            sweep_value(k, v[j], "model=functional", NULL, &t, &bad);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    print_message("sweep: %u key values x model, %u kernel runs correct, %u refused at load, "
                  "%u refused by the launch naming the key, %u failures, %.1f s\n", t.combos,
                  t.runs, t.refused_load, t.refused_launch, bad,
                  (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    assert_int_equal(bad, 0);
}

/* The same sweep with each mechanism on (timing model): a key that matters only under a
   mechanism (vtw_latency, dws_*, vt_*) or that a mechanism meets differently (the SIMT stack's
   pop and fill cycles under DWS) is exercised where it acts. Two bugs of this kind were found
   by hand in issue 17's session: a one-cycle next-TB unit deadlocked -- this sweep finds it
   (seen failing with the fix taken out: vtw_latency=1 under vtw=hw deadlocked vecadd, sloop
   and reduce) -- and DWS merged a slot whose pop timer ran (simt_pop_cycles > 0), which needs
   memory splits that these three kernels do not make (tests/test_dws.c covers it). */
static const char *const mechs[][4] = {
    { "vt=on", NULL },
    { "vtw=hw", "sched_policy=vtw", NULL },
    { "dws=branch", NULL },
    { "dws=revive", NULL },
};

static void test_key_range_sweep_mechanisms(void **state)
{
    unsigned nk, bad = 0;
    const struct conf_key *keys = conf_keys(&nk);
    struct tally t = { 0, 0, 0, 0 };
    (void)state;
    for (size_t m = 0; m < sizeof mechs / sizeof mechs[0]; m++)
        for (unsigned i = 0; i < nk; i++) {
            const struct conf_key *k = &keys[i];
            uint64_t v[3] = { k->min, k->min + (k->max - k->min) / 2, k->max };
            if (k->kind != CK_U32 && k->kind != CK_U64)
                continue;
            for (unsigned j = 0; j < 3; j++)
                sweep_value(k, v[j], "model=timing", mechs[m], &t, &bad);
        }
    print_message("mechanism sweep: %u key values, %u kernel runs correct, %u refused at load, "
                  "%u refused by the launch naming the key, %u failures\n", t.combos, t.runs,
                  t.refused_load, t.refused_launch, bad);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_range_sweep),
        cmocka_unit_test(test_key_range_sweep_mechanisms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
