/*
 * mergepass host part: keys made of sorted runs of log-uniformly skewed lengths (a run's
 * length is uniform in [1, 2^(j+1)] with j uniform in [0, L): 1-512 keys in the default size,
 * 1-128 in the test size), so one CTA's 256 elements typically span runs of very different
 * lengths; many duplicate keys; the payload is each key's original index.  Three passes of
 * merge_pass (ping-pong buffers) merge runs pairwise 3 times; the final keys, payloads and
 * run ids are all checked against a C stable merge of the same run pairs.
 * test: 1500 elements (6 CTAs x 256); default: 131072 - 5 elements (512 CTAs).
 */
#include <stdlib.h>
#include <string.h>
#include "bench.h"

#define MP_PASSES 3

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Fills keys/vals/run, returns the number of runs (off0 gets nruns + 1 entries). */
static int make_runs(uint32_t *keys, uint32_t *vals, int *run, int *off0, int n, int long_log)
{
    struct bench_rng rng;
    int pos = 0, r = 0, i;
    bench_rng_seed(&rng, 0x3E26E);
    while (pos < n) {
        uint32_t u = bench_rng_u32(&rng);
        int len = 1 + (int)((u >> 8) % (uint32_t)(2 << (u % (uint32_t)long_log)));
        if (len > n - pos)
            len = n - pos;
        off0[r] = pos;
        for (i = pos; i < pos + len; i++) {
            keys[i] = bench_rng_u32(&rng) % (uint32_t)(n / 2 + 1);
            vals[i] = (uint32_t)i;
            run[i] = r;
        }
        qsort(keys + pos, (size_t)len, sizeof(uint32_t), cmp_u32);
        pos += len;
        r++;
    }
    off0[r] = n;
    return r;
}

/* One reference pass: stable merge of runs (2q, 2q+1) at the given shift. */
static void ref_pass(const uint32_t *k, const uint32_t *v, uint32_t *ko, uint32_t *vo, int *ro,
                     const int *off0, int nruns0, int shift)
{
    int nr = (nruns0 + (1 << shift) - 1) >> shift, q;
    for (q = 0; q < nr; q += 2) {
        int a = off0[q << shift], ae = off0[(q + 1) << shift < nruns0 ? (q + 1) << shift : nruns0];
        int b = ae, be = off0[(q + 2) << shift < nruns0 ? (q + 2) << shift : nruns0];
        int o = a;
        while (a < ae || b < be) {
            int take_b = a >= ae || (b < be && k[b] < k[a]);
            int s = take_b ? b++ : a++;
            ko[o] = k[s]; vo[o] = v[s]; ro[o] = q >> 1; o++;
        }
    }
}

struct mp_dev { uint64_t k[2], v[2], r[2], off; };

static int run_passes(struct bench_ctx *ctx, struct gs_module *mod, struct mp_dev *d,
                      int nruns0, int n)
{
    struct gs_dim3 grid = { (uint32_t)(n + 255) / 256, 1, 1 }, block = { 256, 1, 1 };
    for (int s = 0; s < MP_PASSES; s++) {
        int a = s & 1, b = a ^ 1;
        const struct gs_arg args[] = { GS_ARG(d->k[a]), GS_ARG(d->v[a]), GS_ARG(d->r[a]),
                                       GS_ARG(d->k[b]), GS_ARG(d->v[b]), GS_ARG(d->r[b]),
                                       GS_ARG(d->off), GS_ARG(nruns0), GS_ARG(s), GS_ARG(n) };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "merge_pass", grid, block, 0, args, 10),
                      "launch merge_pass"))
            return -1;
    }
    return 0;
}

static int mergepass_run(struct bench_ctx *ctx)
{
    int n = ctx->size == BENCH_TEST ? 1500 : 131072 - 5;
    size_t bytes = (size_t)n * 4;
    uint32_t *k[2] = { malloc(bytes), malloc(bytes) }, *v[2] = { malloc(bytes), malloc(bytes) };
    int *r[2] = { malloc(bytes), malloc(bytes) }, *off0 = malloc(bytes + 4);
    uint32_t *gk = malloc(bytes), *gv = malloc(bytes);
    int *gr = malloc(bytes);
    struct gs_module *mod = NULL;
    struct mp_dev d;
    int rc = -1, nruns0, s, i, fin = MP_PASSES & 1;

    memset(&d, 0, sizeof d);
    if (!k[0] || !k[1] || !v[0] || !v[1] || !r[0] || !r[1] || !off0 || !gk || !gv || !gr)
        goto out;
    nruns0 = make_runs(k[0], v[0], r[0], off0, n, ctx->size == BENCH_TEST ? 6 : 8);
    if (bench_load(ctx, &mod))
        goto out;
    for (i = 0; i < 2; i++)
        if (bench_api(ctx, gs_malloc(ctx->gpu, &d.k[i], bytes), "malloc keys") ||
            bench_api(ctx, gs_malloc(ctx->gpu, &d.v[i], bytes), "malloc vals") ||
            bench_api(ctx, gs_malloc(ctx->gpu, &d.r[i], bytes), "malloc runs"))
            goto out;
    if (bench_api(ctx, gs_malloc(ctx->gpu, &d.off, bytes + 4), "malloc off0") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d.k[0], k[0], bytes), "copy keys") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d.v[0], v[0], bytes), "copy vals") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d.r[0], r[0], bytes), "copy runs") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d.off, off0, (uint64_t)(nruns0 + 1) * 4), "copy off0") ||
        run_passes(ctx, mod, &d, nruns0, n) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, gk, d.k[fin], bytes), "copy keys back") ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, gv, d.v[fin], bytes), "copy vals back") ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, gr, d.r[fin], bytes), "copy runs back"))
        goto out;
    for (s = 0; s < MP_PASSES; s++)
        ref_pass(k[s & 1], v[s & 1], k[!(s & 1)], v[!(s & 1)], r[!(s & 1)], off0, nruns0, s);
    rc = (bench_check_u32(ctx, "keys", gk, k[fin], (size_t)n) +
          bench_check_u32(ctx, "vals", gv, v[fin], (size_t)n) +
          bench_check_i32(ctx, "runs", gr, r[fin], (size_t)n)) ? 1 : 0;
out:
    for (i = 0; i < 2; i++) { free(k[i]); free(v[i]); free(r[i]); }
    free(off0); free(gk); free(gv); free(gr);
    return rc;
}

const struct bench bench_mergepass = {
    "mergepass", "merge-sort pass over skewed natural runs, binary-search ranks (instruction + cycle divergence)",
    mergepass_run, NULL, 0
};
