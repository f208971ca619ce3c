/*
 * bench.c -- helpers shared by the bench kernels' host parts: deterministic inputs, result
 * checks that record the first mismatch and the count, API error capture, PTX loading.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "base/strfmt.h"

const struct bench *bench_find(const char *name)
{
    unsigned n, i, l;
    for (l = 0; l < 2; l++) {
        const struct bench *const *all = l ? bench_extra(&n) : bench_all(&n);
        for (i = 0; i < n; i++)
            if (strcmp(all[i]->name, name) == 0)
                return all[i];
    }
    return NULL;
}

void bench_ptx_path(const struct bench *b, const char *dir, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s/kernel.ptx", dir, b->dir ? b->dir : b->name);
}

/* Every slot names a different thread of the launch (else a message through bench_fail). */
static int is_permutation(struct bench_ctx *ctx, unsigned launch, const uint32_t *p, uint64_t n)
{
    uint8_t *seen = calloc(n / 8 + 1, 1);
    uint64_t i;
    if (!seen) {
        bench_fail(ctx, "data layout: out of memory");
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (p[i] >= n || (seen[p[i] / 8] >> (p[i] % 8) & 1))
            break;
        seen[p[i] / 8] |= (uint8_t)(1u << (p[i] % 8));
    }
    free(seen);
    if (i < n)
        bench_fail(ctx, "data layout: launch %u's order is not a permutation: slot %llu %s "
                   "thread %u", launch, (unsigned long long)i, p[i] >= n ? "names no" :
                   "repeats", p[i]);
    return i == n;
}

const uint32_t *bench_layout_perm(struct bench_ctx *ctx, unsigned launch, uint64_t nthreads,
                                  int *err)
{
    const struct bench_layout *l = ctx->layout;
    *err = 0;
    if (!l || launch >= l->n || !l->perm[launch])
        return NULL;
    if (l->len[launch] != nthreads) {
        bench_fail(ctx, "data layout: launch %u has %llu threads, its order %llu", launch,
                   (unsigned long long)nthreads, (unsigned long long)l->len[launch]);
        *err = 1;
        return NULL;
    }
    if (!is_permutation(ctx, launch, l->perm[launch], nthreads)) {
        *err = 1;
        return NULL;
    }
    return l->perm[launch];
}

void bench_gather(void *dst, const void *src, size_t esz, const uint32_t *perm, uint64_t n)
{
    for (uint64_t p = 0; p < n; p++)
        memcpy((char *)dst + p * esz, (const char *)src + (perm ? perm[p] : p) * esz, esz);
}

void bench_scatter(void *dst, const void *src, size_t esz, const uint32_t *perm, uint64_t n)
{
    for (uint64_t p = 0; p < n; p++)
        memcpy((char *)dst + (perm ? perm[p] : p) * esz, (const char *)src + p * esz, esz);
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
    if (ctx->msg)
        return;                      /* keep the first failure */
    va_start(ap, fmt);
    ctx->msg = str_vfmt(fmt, ap);
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

/* ---------------------------------------------------------- loop micro-benchmarks (003) */

#define LOOP_WARP 32
static const int loop_test_m[] = { 0, 1, 8, 16, 20, 31 };

int32_t bench_loop_bound(int m, int t)
{
    int last_full = 31 - m;
    return t <= last_full ? 32 : 32 - (t - last_full);
}

static int loop_launch_all(struct bench_ctx *ctx, const char *kernel, struct gs_module *mod,
                           uint64_t db, uint64_t dout, int nm)
{
    struct gs_dim3 grid = { 1, 1, 1 }, block = { LOOP_WARP, 1, 1 };
    int k;
    for (k = 0; k < nm; k++) {
        uint64_t b = db + (uint64_t)k * LOOP_WARP * 4, o = dout + (uint64_t)k * LOOP_WARP * 4;
        const struct gs_arg args[] = { GS_ARG(b), GS_ARG(o) };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, kernel, grid, block, 0, args, 2), "launch"))
            return -1;
    }
    return 0;
}

int bench_loop_run(struct bench_ctx *ctx, const char *kernel, uint32_t (*ref_of)(int32_t))
{
    int nm = ctx->size == BENCH_TEST ? (int)(sizeof loop_test_m / sizeof loop_test_m[0]) : 32;
    size_t n = (size_t)nm * LOOP_WARP, bytes = n * 4;
    int32_t *bounds = malloc(bytes);
    uint32_t *out = malloc(bytes), *ref = malloc(bytes);
    struct gs_module *mod = NULL;
    uint64_t db = 0, dout = 0;
    int rc = -1, k, t;

    if (!bounds || !out || !ref)
        goto out;
    for (k = 0; k < nm; k++)
        for (t = 0; t < LOOP_WARP; t++) {
            int m = ctx->size == BENCH_TEST ? loop_test_m[k] : k;
            bounds[k * LOOP_WARP + t] = bench_loop_bound(m, t);
            ref[k * LOOP_WARP + t] = ref_of(bounds[k * LOOP_WARP + t]);
        }
    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &db, bytes), "malloc bounds") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &dout, bytes), "malloc out") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, db, bounds, bytes), "copy bounds") ||
        bench_api(ctx, gs_memset(ctx->gpu, dout, 0xff, bytes), "clear out") ||
        loop_launch_all(ctx, kernel, mod, db, dout, nm) ||
        bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out, dout, bytes), "copy out"))
        goto out;
    rc = bench_check_u32(ctx, "out", out, ref, n) ? 1 : 0;
out:
    free(bounds); free(out); free(ref);
    return rc;
}

void bench_note_inputs(struct bench_ctx *ctx, unsigned p, const char *const *names,
                       uint64_t nthreads, const double *v)
{
    struct bench_inputs *in = ctx->inputs;
    struct bench_input_set *s;
    struct gs_stats st;
    if (!in || in->n >= BENCH_MAX_INPUT_LAUNCHES || p == 0 || p > BENCH_MAX_INPUTS)
        return;
    s = &in->set[in->n];
    s->v = malloc(nthreads * p * sizeof *s->v + 1);
    if (!s->v)
        return;
    memcpy(s->v, v, nthreads * p * sizeof *s->v);
    gs_total_stats(ctx->gpu, &st);
    s->launch = st.launches;
    s->p = p;
    s->nthreads = nthreads;
    for (unsigned i = 0; i < p; i++)
        snprintf(s->names[i], sizeof s->names[i], "%s", names[i]);
    in->n++;
}

void bench_inputs_free(struct bench_inputs *in)
{
    for (unsigned i = 0; i < in->n; i++)
        free(in->set[i].v);
    in->n = 0;
}
