/*
 * bench.c -- helpers shared by the bench kernels' host parts: deterministic inputs, result
 * checks that record the first mismatch and the count, API error capture, PTX loading.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"

const struct bench *bench_find(const char *name)
{
    unsigned n, i;
    const struct bench *const *all = bench_all(&n);
    for (i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

void bench_rng_seed(struct bench_rng *r, uint64_t seed)
{
    r->s = seed ? seed : 0x9E3779B97F4A7C15ull;
}

uint32_t bench_rng_u32(struct bench_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1Dull) >> 32);
}

float bench_rng_f32(struct bench_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)(bench_rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}

void bench_fail(struct bench_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    if (ctx->msg[0])
        return;                      /* keep the first failure */
    va_start(ap, fmt);
    vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
    va_end(ap);
}

int bench_api(struct bench_ctx *ctx, int status, const char *what)
{
    if (status != GS_OK)
        bench_fail(ctx, "%s: %s: %s", what, gs_status_name(status), gs_last_error(ctx->gpu));
    return status;
}

int bench_load(struct bench_ctx *ctx, struct gs_module **mod)
{
    return bench_api(ctx, gs_load_ptx(ctx->gpu, ctx->ptx_path, mod), "load PTX");
}

static uint64_t record(struct bench_ctx *ctx, uint64_t bad, const char *what, size_t first,
                       const char *got, const char *exp)
{
    if (bad) {
        bench_fail(ctx, "%s[%zu] = %s, expected %s (%llu wrong)", what, first, got, exp,
                   (unsigned long long)bad);
        ctx->mismatches += bad;
    }
    return bad;
}

#define CHECK_INT(NAME, T, FMT, CAST)                                                        \
uint64_t NAME(struct bench_ctx *ctx, const char *what, const T *got, const T *exp, size_t n) \
{                                                                                            \
    uint64_t bad = 0; size_t i, first = 0;                                                   \
    char g[32] = "", e[32] = "";                                                             \
    for (i = 0; i < n; i++)                                                                  \
        if (got[i] != exp[i] && bad++ == 0) {                                                \
            first = i;                                                                       \
            snprintf(g, sizeof g, FMT, (CAST)got[i]);                                        \
            snprintf(e, sizeof e, FMT, (CAST)exp[i]);                                        \
        }                                                                                    \
    return record(ctx, bad, what, first, g, e);                                              \
}
CHECK_INT(bench_check_u32, uint32_t, "%u", unsigned)
CHECK_INT(bench_check_i32, int32_t, "%d", int)
CHECK_INT(bench_check_u64, uint64_t, "%llu", unsigned long long)

static int f32_close(float g, float e, float atol, float rtol)
{
    if (isnan(g) || isnan(e))
        return isnan(g) && isnan(e);
    if (isinf(g) || isinf(e))
        return g == e;
    return fabsf(g - e) <= atol + rtol * fabsf(e);
}

uint64_t bench_check_f32(struct bench_ctx *ctx, const char *what, const float *got,
                         const float *exp, size_t n, float atol, float rtol)
{
    uint64_t bad = 0;
    size_t i, first = 0;
    char g[32] = "", e[32] = "";
    for (i = 0; i < n; i++)
        if (!f32_close(got[i], exp[i], atol, rtol) && bad++ == 0) {
            first = i;
            snprintf(g, sizeof g, "%.9g", got[i]);
            snprintf(e, sizeof e, "%.9g", exp[i]);
        }
    return record(ctx, bad, what, first, g, e);
}
