/*
 * bench.h -- the interface every bench kernel's host part implements.
 *
 * Each kernel lives in bench/NAME/: kernel.cu (CUDA source), kernel.ptx (nvcc -ptx output,
 * checked in) and host.c, which defines one `const struct bench bench_NAME` that
 * bench/registry.c lists.  run() builds deterministic inputs (bench_rng), launches through the
 * host API (gpusim.h), copies results back and checks EVERY output against a C reference.
 * It returns 0 when all outputs are correct, 1 when any is wrong (with the first mismatch and
 * the count reported through bench_fail), and -1 on an API error (message from gs_last_error).
 */
#ifndef BENCH_H
#define BENCH_H
#include <stdint.h>
#include <stddef.h>
#include "gpu/gpusim.h"

enum bench_size { BENCH_TEST = 0, BENCH_DEFAULT = 1 };

struct bench_inputs;

struct bench_ctx {
    struct gs_gpu *gpu;
    enum bench_size size;
    const char *ptx_path;       /* the kernel's PTX file (bench/NAME/kernel.ptx or --ptx) */
    char *msg;                  /* first failure, whole, from bench_fail / bench_api (malloc'd:
                                   whoever made the context frees it; NULL: none) */
    uint64_t mismatches;
    struct bench_inputs *inputs;   /* BBV regression (001 eq. 1): where bench_note_inputs
                                      keeps the named inputs; NULL: not collecting */
    const struct bench_layout *layout;   /* data-layout transformation to apply, or NULL */
};

/* 001 Section VI-B's data-layout transformation: thread slot p of launch i works on the data
   of logical thread perm[i][p] because the host moved that data to position p (inputs
   gathered before the launch, outputs scattered back after it); the kernel is unchanged.
   Only kernels whose struct bench has BENCH_LAYOUT apply it: their per-thread data is indexed
   by the global thread id and nothing else depends on the id (rgwork), or the host makes it
   so through the kernel's own arguments (soundloc: a window per frame, hop = its length;
   smithwat: a query per pair, nq = the threads), every slot running (a slot past the data
   gets an empty item) and the results scattered back. */
struct bench_layout {
    unsigned n;                       /* launches with an order */
    const uint32_t *const *perm;      /* [n][len[i]]: a permutation of 0..len[i]-1 */
    const uint64_t *len;
};
/* The order for launch `launch` of nthreads threads (NULL: none given, or an error recorded
   through bench_fail when an order exists but does not fit the launch). */
const uint32_t *bench_layout_perm(struct bench_ctx *ctx, unsigned launch, uint64_t nthreads,
                                  int *err);
/* dst[p] = src[perm[p]] (inputs) and dst[perm[p]] = src[p] (outputs), n elements of esz bytes;
   perm NULL copies. */
void bench_gather(void *dst, const void *src, size_t esz, const uint32_t *perm, uint64_t n);
void bench_scatter(void *dst, const void *src, size_t esz, const uint32_t *perm, uint64_t n);

/* The input variables of 001 equation (1) that a kernel's host part names for its next
   launch: p values per thread of the grid (thread-major, grid order), copied. */
#define BENCH_MAX_INPUTS 4
#define BENCH_MAX_INPUT_LAUNCHES 16
struct bench_input_set {
    uint64_t launch;            /* launches made before it: the launch it describes */
    unsigned p;
    char names[BENCH_MAX_INPUTS][32];
    uint64_t nthreads;
    double *v;                  /* [nthreads][p] */
};
struct bench_inputs {
    unsigned n;
    struct bench_input_set set[BENCH_MAX_INPUT_LAUNCHES];
};
/* Name the next launch's per-thread inputs (a no-op unless ctx->inputs is set). */
void bench_note_inputs(struct bench_ctx *ctx, unsigned p, const char *const *names,
                       uint64_t nthreads, const double *v);
void bench_inputs_free(struct bench_inputs *in);

#define BENCH_LAYOUT 1u           /* run() applies ctx->layout */

struct bench {
    const char *name;
    const char *desc;           /* one line: what it computes and which divergence it shows */
    int (*run)(struct bench_ctx *ctx);
    const char *dir;            /* its folder under bench/ when not `name` (NULL: name) */
    unsigned flags;             /* BENCH_* */
};

/* bench_find looks in both lists; bench_all is the suite (the kernels every report and test
   runs), bench_extra the kernels outside it (bench-extra in tools/gen_registry.sh). */
const struct bench *bench_find(const char *name);
const struct bench *const *bench_all(unsigned *count);
const struct bench *const *bench_extra(unsigned *count);
/* bench/NAME/kernel.ptx under dir for kernel b, into buf. */
void bench_ptx_path(const struct bench *b, const char *dir, char *buf, size_t n);

/* Deterministic generator (xorshift64*) for inputs: same seed, same data everywhere. */
struct bench_rng { uint64_t s; };
void     bench_rng_seed(struct bench_rng *r, uint64_t seed);
uint32_t bench_rng_u32(struct bench_rng *r);
float    bench_rng_f32(struct bench_rng *r, float lo, float hi);   /* uniform in [lo, hi) */

/* Helpers that record failures in ctx and return the API status (so `if (bench_api(...))`). */
int  bench_api(struct bench_ctx *ctx, int status, const char *what);
void bench_fail(struct bench_ctx *ctx, const char *fmt, ...);
/* Compare arrays; record the first mismatch (index, got, expected) and the count; return the
   number of mismatches. Floats compare with |got-exp| <= atol + rtol*|exp| (NaN == NaN). */
uint64_t bench_check_u32(struct bench_ctx *ctx, const char *what, const uint32_t *got,
                         const uint32_t *exp, size_t n);
uint64_t bench_check_i32(struct bench_ctx *ctx, const char *what, const int32_t *got,
                         const int32_t *exp, size_t n);
uint64_t bench_check_f32(struct bench_ctx *ctx, const char *what, const float *got,
                         const float *exp, size_t n, float atol, float rtol);
uint64_t bench_check_u64(struct bench_ctx *ctx, const char *what, const uint64_t *got,
                         const uint64_t *exp, size_t n);

/* The loop-divergence micro-benchmarks of 003_a1f13061b22d54a6.txt (sloop, dloop): Table I's
   loop bound of lane t when M lanes of the warp diverge (32 for t <= 31-M, then 32-(t-(31-M))),
   and the shared host part: one launch of one warp per M (test: M in {0,1,8,16,20,31};
   default: every M from 0 to 31), kernel(bounds, out), every lane checked against ref(bound). */
int32_t bench_loop_bound(int m, int t);
int bench_loop_run(struct bench_ctx *ctx, const char *kernel, uint32_t (*ref)(int32_t bound));

/* Convenience: load ctx->ptx_path and launch in one go (1-D or 3-D). */
int bench_load(struct bench_ctx *ctx, struct gs_module **mod);

#endif
