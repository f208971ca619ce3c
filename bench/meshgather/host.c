/*
 * meshgather host part: a mesh of n elements with 6 neighbour indices each (neighbour-major
 * list).  The mesh is cut into regions of 2048 elements; each region gets an "unstructured"
 * fraction of 0, 25, 50 or 100%, and each element is drawn unstructured (6 random neighbours
 * anywhere) or structured (e -+ 1, e -+ 64, e -+ 4096; -1 past the mesh ends) with that
 * probability; about 2% of all faces are boundary faces (-1).  Values are integers in
 * [-1024, 1024] stored as float; every output is checked exactly (integer arithmetic in the
 * reference, all values far below 2^24).
 * test: 1500 elements (6 CTAs x 256); default: 262144 - 11 elements (1024 CTAs).
 */
#include <stdlib.h>
#include "bench.h"

#define MG_NB 6

static void build_mesh(int32_t *nbr, int n, struct bench_rng *rng)
{
    static const int step[MG_NB] = { -1, 1, -64, 64, -4096, 4096 };
    uint32_t frac = 0;
    for (int e = 0; e < n; e++) {
        if (e % 2048 == 0) {
            static const uint32_t fr[4] = { 0, 25, 50, 100 };
            frac = fr[bench_rng_u32(rng) % 4u];
        }
        int unstructured = bench_rng_u32(rng) % 100u < frac;
        for (int k = 0; k < MG_NB; k++) {
            uint32_t u = bench_rng_u32(rng);
            int j = unstructured ? (int)((u >> 8) % (uint32_t)n) : e + step[k];
            if (j < 0 || j >= n || u % 50u == 0)
                j = -1;
            nbr[(size_t)k * (size_t)n + (size_t)e] = j;
        }
    }
}

static int meshgather_run(struct bench_ctx *ctx)
{
    int n = ctx->size == BENCH_TEST ? 1500 : 262144 - 11;
    size_t nn = (size_t)n;
    int32_t *nbr = malloc(nn * MG_NB * 4);
    float *val = malloc(nn * 4), *got = malloc(nn * 4), *ref = malloc(nn * 4);
    struct gs_module *mod = NULL;
    uint64_t dnbr = 0, dval = 0, dout = 0;
    struct bench_rng rng;
    int rc = -1, e, k;

    if (!nbr || !val || !got || !ref)
        goto out;
    bench_rng_seed(&rng, 0x3E54);
    build_mesh(nbr, n, &rng);
    for (e = 0; e < n; e++)
        val[e] = (float)((int)(bench_rng_u32(&rng) % 2049u) - 1024);
    for (e = 0; e < n; e++) {
        int32_t me = (int32_t)val[e], acc = 0;
        for (k = 0; k < MG_NB; k++) {
            int32_t j = nbr[(size_t)k * nn + (size_t)e];
            acc += (k + 1) * ((j >= 0 ? (int32_t)val[j] : me) - me);
        }
        ref[e] = (float)acc;
    }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dnbr, nn * MG_NB * 4), "malloc nbr") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dval, nn * 4), "malloc val") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dout, nn * 4), "malloc out") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dnbr, nbr, nn * MG_NB * 4), "copy nbr") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, dval, val, nn * 4), "copy val"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(dnbr), GS_ARG(dval), GS_ARG(dout), GS_ARG(n) };
        struct gs_dim3 grid = { (uint32_t)(n + 255) / 256, 1, 1 }, block = { 256, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "meshgather", grid, block, 0, args, 4),
                      "launch meshgather") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, got, dout, nn * 4), "copy out"))
            goto out;
    }
    rc = bench_check_f32(ctx, "out", got, ref, nn, 0.0f, 0.0f) ? 1 : 0;
out:
    free(nbr); free(val); free(got); free(ref);
    return rc;
}

const struct bench bench_meshgather = {
    "meshgather", "unstructured-mesh 6-neighbour gather, cached vs random lanes mixed (memory-latency divergence)",
    meshgather_run, NULL, 0
};
