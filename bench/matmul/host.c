/*
 * matmul host part: C = A * B with small-integer floats; every element of C is checked exactly
 * against a C triple loop (exact integers, so order and fma contraction cannot matter).
 * test: M = 30, N = 40, K = 60 -> 2 x 1 CTAs of 256 threads, 2 K-steps (edge tiles in all three
 * dimensions); default: M = 600, N = 620, K = 100 -> 20 x 19 = 380 CTAs (97280 threads, 4.2
 * GTX480 fills), 2 K-steps.
 */
#include <stdlib.h>
#include "bench.h"

#define TM 32

static void matmul_ref(const float *A, const float *B, float *C, int M, int N, int K)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0.0f;
            for (int k = 0; k < K; k++)
                s += A[(size_t)i * K + k] * B[(size_t)k * N + j];
            C[(size_t)i * N + j] = s;
        }
}

static int matmul_device(struct bench_ctx *ctx, const float *A, const float *B, float *C, int M,
                         int N, int K)
{
    size_t ab = (size_t)M * K * sizeof(float), bb = (size_t)K * N * sizeof(float);
    size_t cb = (size_t)M * N * sizeof(float);
    uint64_t d[3] = { 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], ab), "malloc A") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], bb), "malloc B") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], cb), "malloc C") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], A, ab), "copy A") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], B, bb), "copy B"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(M),
                                       GS_ARG(N), GS_ARG(K) };
        struct gs_dim3 grid = { (uint32_t)(N + TM - 1) / TM, (uint32_t)(M + TM - 1) / TM, 1 };
        struct gs_dim3 block = { 16, 16, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "matmul", grid, block, 0, args, 6), "launch") ||
            bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, C, d[2], cb), "copy C"))
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

static int matmul_run(struct bench_ctx *ctx)
{
    int test = ctx->size == BENCH_TEST;
    int M = test ? 30 : 600, N = test ? 40 : 620, K = test ? 60 : 100;
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *A = malloc(na * sizeof(float)), *B = malloc(nb * sizeof(float));
    float *C = malloc(nc * sizeof(float)), *ref = malloc(nc * sizeof(float));
    struct bench_rng rng;
    int rc = -1;

    if (!A || !B || !C || !ref)
        goto done;
    bench_rng_seed(&rng, 15);
    for (size_t i = 0; i < na; i++)
        A[i] = (float)((int)(bench_rng_u32(&rng) % 9) - 4);
    for (size_t i = 0; i < nb; i++)
        B[i] = (float)((int)(bench_rng_u32(&rng) % 9) - 4);
    matmul_ref(A, B, ref, M, N, K);
    rc = matmul_device(ctx, A, B, C, M, N, K);
    if (rc == 0)
        rc = bench_check_f32(ctx, "C", C, ref, nc, 0.0f, 0.0f) ? 1 : 0;
done:
    free(A); free(B); free(C); free(ref);
    return rc;
}

const struct bench bench_matmul = {
    "matmul", "tiled SGEMM, 14 KB shared tiles per CTA (Type-C: shared-memory limit binds)",
    matmul_run, NULL, 0
};
