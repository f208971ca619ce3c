/*
 * soundloc host part: four channels of random samples (-64..63), a table of NK candidate
 * directions (per-microphone delays 0..31) and per-frame candidate counts 4..48.  The
 * threshold makes about 3% of candidate evaluations a "detection" (early exit).  Every
 * frame's best candidate, best energy and number of evaluations are checked exactly.
 * test: 600 frames -> 5 CTAs of 128 threads (tail);
 * default: 96000 frames -> 750 CTAs (4.2 GTX480 fills).
 *
 * Data layout (001 Section VI-B, as 001 regroups its SL; ctx->layout, BENCH_LAYOUT): thread
 * slot p works on frame D[p] because the host moves that frame's data to slot p -- its
 * candidate count, and its window of the four channels (the WIN + MAXDELAY samples from
 * D[p] x HOP on that the frame's delayed sums read) copied to slot p's own window, the
 * kernel's hop argument set to the window's length so that the kernel, unchanged, finds
 * slot p's window at p x hop. Frames overlap in the original signal (HOP < window), which
 * is why the windows are copied, not moved: the channels grow from HOP to WIN + MAXDELAY
 * samples a frame. Every slot runs (nframes = the grid's threads; a slot past the last frame
 * gets a frame of no candidates), and the results are scattered back to frame order.
 */
#include <stdlib.h>
#include <string.h>
#include "bench.h"

#define MICS 4
#define WIN 4
#define NK 48
#define MAXDELAY 32
#define HOP 8
#define THRESH 60000

static void frame_ref(const int *sig, const int *delay, int nc, int t0, int len, int *bk,
                      int *be, int *nev)
{
    *bk = -1;
    *be = -1;
    *nev = 0;
    for (int k = 0; k < nc; k++) {
        int e = 0;
        for (int w = 0; w < WIN; w++) {
            int s = 0;
            for (int m = 0; m < MICS; m++)
                s += sig[m * len + t0 + w + delay[k * MICS + m]];
            e += s * s;
        }
        *nev = k + 1;
        if (e > *be) {
            *be = e;
            *bk = k;
        }
        if (e >= THRESH)
            break;
    }
}

/* The launch's data: the original's, or the data layout's (slot order). */
struct sl_data {
    const int *sig, *ncand;
    int nframes, len, hop;
};

static int sl_device(struct bench_ctx *ctx, const struct sl_data *x, const int *delay, int *out)
{
    const int *sig = x->sig, *ncand = x->ncand;
    int nframes = x->nframes, len = x->len;
    size_t sb = (size_t)MICS * len * 4, fb = (size_t)nframes * 4;
    uint64_t d[6] = { 0, 0, 0, 0, 0, 0 };
    struct gs_module *mod = NULL;
    int rc = -1, hop = x->hop, thresh = THRESH;

    if (bench_load(ctx, &mod) ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[0], sb), "malloc sig") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[1], NK * MICS * 4), "malloc delay") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[2], fb), "malloc ncand") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[3], fb), "malloc best_k") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[4], fb), "malloc best_e") ||
        bench_api(ctx, gs_malloc(ctx->gpu, &d[5], fb), "malloc nevals") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[0], sig, sb), "copy sig") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[1], delay, NK * MICS * 4), "copy delay") ||
        bench_api(ctx, gs_memcpy_htod(ctx->gpu, d[2], ncand, fb), "copy ncand"))
        goto out;
    {
        const struct gs_arg args[] = { GS_ARG(d[0]), GS_ARG(d[1]), GS_ARG(d[2]), GS_ARG(d[3]),
                                       GS_ARG(d[4]), GS_ARG(d[5]), GS_ARG(nframes), GS_ARG(hop),
                                       GS_ARG(len), GS_ARG(thresh) };
        struct gs_dim3 grid = { (uint32_t)(nframes + 127) / 128, 1, 1 }, block = { 128, 1, 1 };
        if (bench_api(ctx, gs_launch(ctx->gpu, mod, "soundloc", grid, block, 0, args, 10),
                      "launch"))
            goto out;
        for (int i = 0; i < 3; i++)
            if (bench_api(ctx, gs_memcpy_dtoh(ctx->gpu, out + (size_t)i * nframes, d[3 + i], fb),
                          "copy results"))
                goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 6; i++)
        if (d[i])
            gs_free(ctx->gpu, d[i]);
    return rc;
}

/* 001 equation (1)'s input variables of thread f (its frame): its candidate count ncand[f]
   (the search loop's bound; the early exit on the threshold depends on the signal). */
static void note_inputs(struct bench_ctx *ctx, const int *ncand, int nframes)
{
    static const char *const names[1] = {"ncand"};
    uint64_t nthreads = ((uint64_t)nframes + 127) / 128 * 128;
    double *v;
    if (!ctx->inputs || !(v = calloc(nthreads, sizeof *v)))
        return;
    for (int f = 0; f < nframes; f++)
        v[f] = ncand[f];
    bench_note_inputs(ctx, 1, names, nthreads, v);
    free(v);
}

#define SL_WIN (WIN + MAXDELAY)   /* the samples a frame's sums read, from its t0 */

/* The data layout of order perm over nthr slots: slot p's window and count are frame
   perm[p]'s (none past the last frame), hop = SL_WIN. 0, or -1 out of memory. */
static int sl_layout(const int *sig, const int *ncand, int nframes, int len,
                     const uint32_t *perm, int nthr, struct sl_data *x)
{
    int lx = nthr * SL_WIN, *s2 = calloc((size_t)MICS * lx, 4), *n2 = calloc((size_t)nthr, 4);
    if (!s2 || !n2) {
        free(s2);
        free(n2);
        return -1;
    }
    for (int p = 0; p < nthr; p++) {
        int f = (int)perm[p];
        if (f >= nframes)
            continue;
        n2[p] = ncand[f];
        for (int m = 0; m < MICS; m++)
            memcpy(s2 + (size_t)m * lx + (size_t)p * SL_WIN, sig + (size_t)m * len +
                   (size_t)f * HOP, SL_WIN * sizeof *s2);
    }
    *x = (struct sl_data){s2, n2, nthr, lx, SL_WIN};
    return 0;
}

/* Launch in the original order or, with a data layout, in slot order (results scattered
   back to frame order into out: best_k | best_e | nevals, nframes each). */
static int sl_launch(struct bench_ctx *ctx, const int *sig, const int *delay, const int *ncand,
                     int *out, int nframes, int len)
{
    int nthr = (nframes + 127) / 128 * 128, err, rc, *o2;
    const uint32_t *perm = bench_layout_perm(ctx, 0, (uint64_t)nthr, &err);
    struct sl_data x = {sig, ncand, nframes, len, HOP};
    if (err)
        return -1;
    if (!perm)
        return sl_device(ctx, &x, delay, out);
    if (!(o2 = malloc((size_t)nthr * 3 * 4)) || sl_layout(sig, ncand, nframes, len, perm, nthr,
                                                          &x)) {
        free(o2);
        bench_fail(ctx, "data layout: out of memory");
        return -1;
    }
    rc = sl_device(ctx, &x, delay, o2);
    for (int p = 0; rc == 0 && p < nthr; p++)
        for (int i = 0; i < 3 && (int)perm[p] < nframes; i++)
            out[(size_t)i * nframes + perm[p]] = o2[(size_t)i * nthr + p];
    free((void *)x.sig);
    free((void *)x.ncand);
    free(o2);
    return rc;
}

static int soundloc_run(struct bench_ctx *ctx)
{
    int nframes = ctx->size == BENCH_TEST ? 600 : 96000;
    int len = nframes * HOP + WIN + MAXDELAY, delay[NK * MICS];
    size_t nf = (size_t)nframes;
    int *sig = malloc((size_t)MICS * len * 4), *ncand = malloc(nf * 4);
    int *out = malloc(nf * 3 * 4), *ref = malloc(nf * 3 * 4);   /* best_k | best_e | nevals */
    struct bench_rng rng;
    int rc = -1;

    if (!sig || !ncand || !out || !ref)
        goto done;
    bench_rng_seed(&rng, 19);
    for (int i = 0; i < MICS * len; i++)
        sig[i] = (int)(bench_rng_u32(&rng) % 128) - 64;
    for (int i = 0; i < NK * MICS; i++)
        delay[i] = (int)(bench_rng_u32(&rng) % MAXDELAY);
    for (int f = 0; f < nframes; f++) {
        ncand[f] = 4 + (int)(bench_rng_u32(&rng) % (NK - 3));
        frame_ref(sig, delay, ncand[f], f * HOP, len, &ref[f], &ref[nf + f], &ref[2 * nf + f]);
    }
    note_inputs(ctx, ncand, nframes);
    rc = sl_launch(ctx, sig, delay, ncand, out, nframes, len);
    if (rc == 0) {
        uint64_t bad = bench_check_i32(ctx, "best_k", out, ref, nf);
        bad += bench_check_i32(ctx, "best_e", out + nf, ref + nf, nf);
        bad += bench_check_i32(ctx, "nevals", out + 2 * nf, ref + 2 * nf, nf);
        rc = bad ? 1 : 0;
    }
done:
    free(sig); free(ncand); free(out); free(ref);
    return rc;
}

const struct bench bench_soundloc = {
    "soundloc", "delay-and-sum direction search, per-frame candidate counts and early exit on "
    "detection (per-thread data-dependent work)", soundloc_run, NULL, BENCH_LAYOUT
};
