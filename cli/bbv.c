/*
 * bbv.c -- gpusim bbv: a bench kernel's per-thread basic block vectors (001_8bf4399a5d1562fa.txt
 * Section IV) from the model the configuration runs (model = functional is the fast one; the
 * timing model gives the same counts), every launch's results checked; --estimate adds 001
 * Section V's regroupings' estimates (model/gpu/regroup.h); and gpusim bbv --read,
 * a binary BBV file printed as CSV (model/gpu/bbv.h has both forms).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gpu/bbv.h"
#include "gpu/bbv_est.h"
#include "gpu/bbv_fit.h"
#include "gpu/regroup.h"

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

/* --read FILE: every launch of a binary file (bbv_load: a regular file, bounded) as CSV on
   stdout. */
static int read_file(const char *path)
{
    char err[512];
    struct bbv b;
    unsigned n = 0;
    size_t len = 0;
    int r;
    char *buf = bbv_load(path, &len, err, sizeof err);
    FILE *f = buf && len ? fmemopen(buf, len, "rb") : NULL;
    if (!f) {
        if (buf)
            snprintf(err, sizeof err, "%s: %s", path, len ? "out of memory" : "not a BBV file "
                     "(it is empty)");
        fprintf(stderr, "gpusim bbv: %s\n", err);
        free(buf);
        return 2;
    }
    if ((r = bbv_read_magic(f, err, sizeof err)) == 0)
        while ((r = bbv_read(f, &b, err, sizeof err)) == 1) {
            bbv_write(stdout, &b, 1, n++);
            bbv_free(&b);
        }
    fclose(f);
    free(buf);
    if (r < 0) {
        fprintf(stderr, "gpusim bbv: %s: %s\n", path, err);
        return 2;
    }
    return 0;
}

/* gpusim bbv --read FILE reads a file and nothing else: a kernel name or an option of a run
   beside it would be ignored, so it is refused. */
static int read_cmd(const struct opts *o)
{
    if (o->name) {
        fprintf(stderr, "gpusim bbv: --read %s prints a BBV file; it takes no kernel name "
                "('%s' given)\n", o->read, o->name);
        return 2;
    }
    if (o->estimate || o->latency || o->fit || o->out) {
        fprintf(stderr, "gpusim bbv: --read %s prints a BBV file as CSV on stdout; it takes no "
                "--estimate, --latency, --fit or --out\n", o->read);
        return 2;
    }
    return read_file(o->read);
}

static void print_latency(const struct gpu_config *c, const struct bbv *b, unsigned n)
{
    double *lat = malloc((b->nblocks + 1) * sizeof *lat);
    if (!lat)
        return;
    bbv_block_latency(c, b, lat);
    printf("launch %u: kernel %s, global access latency L_g %.1f cycles\n"
           "block  first pc  instructions  fixed latency  global accesses  latency\n", n,
           b->kernel, bbv_global_latency(c, b));
    for (uint32_t k = 0; k < b->nblocks; k++)
        printf("b%-5u %8u  %12u  %13u  %15u  %7.1f\n", k, b->blk[k].first, b->blk[k].ninsns,
               b->blk[k].fixed, b->blk[k].gmem, lat[k]);
    free(lat);
}

/* Algorithm a's order of b's threads at group size 32 (the paper's setting) and its
   estimates into *e. 0, or -1 with a message in err. */
static int regrouped(const struct gpu_config *c, const struct bbv *b, const double *lat,
                     enum rg_alg a, uint32_t *perm, struct bbv_est *e, char *err, size_t errlen)
{
    if (rg_regroup(a, b, lat, 32, perm, err, errlen))
        return -1;
    if (bbv_estimate(c, b, perm, e)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* Under a launch's line: per regrouping algorithm of 001 Section V the divergent warps and
   both estimates of its order, and their ratios to the launch's own (id). */
static void print_regroups(const struct gpu_config *c, const struct bbv *b,
                           const struct bbv_est *id)
{
    double *lat = malloc((b->nblocks + 1) * sizeof *lat);
    uint32_t *perm = malloc((b->nthreads + 1) * sizeof *perm);
    char err[256];
    struct bbv_est e;
    if (!lat || !perm)
        printf("%6s regrouping: out of memory\n", "");
    else
        bbv_block_latency(c, b, lat);
    for (unsigned a = 0; a < RG_NALGS && lat && perm; a++) {
        if (regrouped(c, b, lat, (enum rg_alg)a, perm, &e, err, sizeof err))
            printf("%6s %-12s (%s)\n", "", rg_name((enum rg_alg)a), err);
        else
            printf("%6s %-12s %9s %7s %10llu %5s %13.0f %17.0f  regrouped, group size 32: "
                   "x%.3f, x%.3f\n", "", rg_name((enum rg_alg)a), "", "",
                   (unsigned long long)e.div_warps, "", e.weighted, e.scheduled,
                   id->weighted > 0 ? e.weighted / id->weighted : 1.0,
                   id->scheduled > 0 ? e.scheduled / id->scheduled : 1.0);
    }
    free(lat);
    free(perm);
}

static void print_estimate(const struct gpu_config *c, const struct bbv *b, unsigned n)
{
    struct bbv_est e;
    if (n == 0)
        printf("launch kernel         threads   warps  div.warps   L_g  BBV-weighted  "
               "BBV-w.-scheduled  simulated cycles\n");
    if (bbv_estimate(c, b, NULL, &e)) {
        printf("%6u %-12s (out of memory)\n", n, b->kernel);
        return;
    }
    printf("%6u %-12s %9llu %7llu %10llu %5.0f %13.0f %17.0f %17llu\n", n, b->kernel,
           (unsigned long long)b->nthreads, (unsigned long long)e.warps,
           (unsigned long long)e.div_warps, e.lat_global, e.weighted, e.scheduled,
           (unsigned long long)b->cycles);
    print_regroups(c, b, &e);
}

/* --fit: equation (1) per block of launch n, trained on CTA 0, with the inputs the host part
   named for it (none: the thread index alone). */
static void print_fit(const struct opts *o, const struct bbv *b, unsigned n)
{
    const struct bench_input_set *in = NULL;
    struct bbv_fit_block *f = calloc(b->nblocks + 1, sizeof *f);
    char err[256];
    for (unsigned i = 0; o->inputs && i < o->inputs->n; i++)
        if (o->inputs->set[i].launch == n && o->inputs->set[i].nthreads == b->nthreads)
            in = &o->inputs->set[i];
    printf("launch %u: kernel %s, equation (1) on CTA 0's %u threads, inputs:", n, b->kernel,
           b->tpc);
    for (unsigned i = 0; in && i < in->p; i++)
        printf(" %s", in->names[i]);
    printf("%s tid\n", in ? "," : "");
    if (!f || bbv_fit(b, in ? in->v : NULL, in ? in->p : 0, 0, f, err, sizeof err)) {
        printf("  (%s)\n", f ? err : "out of memory");
        free(f);
        return;
    }
    printf("block   mean count  train rms  mean abs error  relative error\n");
    for (uint32_t k = 0; k < b->nblocks; k++)
        printf("b%-5u %11.3f %10.3f %15.3f %14.1f%%\n", k, f[k].mean, f[k].train_rms, f[k].mae,
               f[k].mean > 0 ? 100.0 * f[k].mae / f[k].mean : 0.0);
    free(f);
}

/* --estimate / --latency / --fit: the launches' BBVs from buf, printed. */
static int print_tables(const struct opts *o, char *buf, size_t len)
{
    struct gpu_config c;
    struct gs_gpu *g;
    char err[1024];
    struct bbv b;
    unsigned n = 0;
    int r;
    FILE *f;
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err)) {
        fprintf(stderr, "gpusim bbv: %s\n", err);
        return 2;
    }
    c = *gs_config(g);
    gs_destroy(g);
    f = fmemopen(buf, len, "rb");
    if (!f || bbv_read_magic(f, err, sizeof err)) {
        fprintf(stderr, "gpusim bbv: %s\n", f ? err : "out of memory");
        return 2;
    }
    while ((r = bbv_read(f, &b, err, sizeof err)) == 1) {
        if (o->latency)
            print_latency(&c, &b, n);
        if (o->estimate)
            print_estimate(&c, &b, n);
        if (o->fit)
            print_fit(o, &b, n);
        bbv_free(&b);
        n++;
    }
    fclose(f);
    if (r < 0)
        fprintf(stderr, "gpusim bbv: %s\n", err);
    return r < 0 ? 2 : 0;
}

int cmd_bbv(const struct opts *o)
{
    char *mem = NULL;
    size_t memlen = 0;
    const struct bench *b;
    struct opts vo = *o;
    struct result *r;
    FILE *f = stdout;
    int rc;
    if (o->read)
        return read_cmd(o);
    if (!o->name || !(b = bench_find(o->name))) {
        fprintf(stderr, "gpusim bbv: %s (gpusim list names the kernels)\n",
                o->name ? "no such bench kernel" : "which kernel?");
        return 2;
    }
    vo.bbv_csv = !o->out || ends_with(o->out, ".csv");
    if (o->estimate || o->latency || o->fit) {
        if (o->out) {
            fprintf(stderr, "gpusim bbv: --estimate and --latency print tables; --out is for "
                    "the BBVs themselves\n");
            return 2;
        }
        vo.bbv_csv = 0;
        f = open_memstream(&mem, &memlen);
    } else if (o->out && !(f = fopen(o->out, vo.bbv_csv ? "w" : "wb"))) {
        fprintf(stderr, "gpusim bbv: %s: cannot write\n", o->out);
        return 2;
    }
    vo.bbv_out = f;
    vo.inputs = o->fit ? calloc(1, sizeof *vo.inputs) : NULL;
    r = calloc(1, sizeof *r);
    if (!r) {
        perror("gpusim bbv");
        return 2;
    }
    run_one(&vo, b, r);
    rc = r->rc;
    if (rc)
        fprintf(stderr, "gpusim bbv: %s: %s\n", b->name, result_msg(r));
    else if (!mem && !(o->estimate || o->latency || o->fit))
        fprintf(stderr, "gpusim bbv: %s: results correct, %llu launches, BBVs written to %s\n",
                b->name, (unsigned long long)r->st.launches, o->out ? o->out : "stdout");
    result_free(r);
    free(r);
    if (f != stdout && fclose(f) && !rc) {
        fprintf(stderr, "gpusim bbv: %s: write error\n", o->out ? o->out : "memory");
        rc = 2;
    }
    if (!rc && (o->estimate || o->latency || o->fit))
        rc = print_tables(&vo, mem, memlen);
    if (vo.inputs)
        bench_inputs_free(vo.inputs);
    free(vo.inputs);
    free(mem);
    return rc;
}
