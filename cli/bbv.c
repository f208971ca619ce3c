/*
 * bbv.c -- gpusim bbv: a bench kernel's per-thread basic block vectors (001_8bf4399a5d1562fa.txt
 * Section IV) from the model the configuration runs (model = functional is the fast one; the
 * timing model gives the same counts), every launch's results checked; and gpusim bbv --read,
 * a binary BBV file printed as CSV (model/gpu/bbv.h has both forms).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gpu/bbv.h"

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

/* --read FILE: every launch of a binary file as CSV on stdout. */
static int read_file(const char *path)
{
    char err[512];
    struct bbv b;
    unsigned n = 0;
    int r;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gpusim bbv: %s: cannot read\n", path);
        return 2;
    }
    if (bbv_read_magic(f, err, sizeof err)) {
        fprintf(stderr, "gpusim bbv: %s: %s\n", path, err);
        fclose(f);
        return 2;
    }
    while ((r = bbv_read(f, &b, err, sizeof err)) == 1) {
        bbv_write(stdout, &b, 1, n++);
        bbv_free(&b);
    }
    fclose(f);
    if (r < 0) {
        fprintf(stderr, "gpusim bbv: %s: %s\n", path, err);
        return 2;
    }
    return 0;
}

int cmd_bbv(const struct opts *o)
{
    const struct bench *b;
    struct opts vo = *o;
    struct result *r;
    FILE *f = stdout;
    int rc;
    if (o->read)
        return read_file(o->read);
    if (!o->name || !(b = bench_find(o->name))) {
        fprintf(stderr, "gpusim bbv: %s (gpusim list names the kernels)\n",
                o->name ? "no such bench kernel" : "which kernel?");
        return 2;
    }
    vo.bbv_csv = !o->out || ends_with(o->out, ".csv");
    if (o->out && !(f = fopen(o->out, vo.bbv_csv ? "w" : "wb"))) {
        fprintf(stderr, "gpusim bbv: %s: cannot write\n", o->out);
        return 2;
    }
    vo.bbv_out = f;
    r = calloc(1, sizeof *r);
    if (!r) {
        perror("gpusim bbv");
        return 2;
    }
    run_one(&vo, b, r);
    rc = r->rc;
    if (rc)
        fprintf(stderr, "gpusim bbv: %s: %s\n", b->name, r->msg);
    else
        fprintf(stderr, "gpusim bbv: %s: results correct, %llu launches, BBVs written to %s\n",
                b->name, (unsigned long long)r->st.launches, o->out ? o->out : "stdout");
    free(r);
    if (f != stdout && fclose(f) && !rc) {
        fprintf(stderr, "gpusim bbv: %s: write error\n", o->out);
        rc = 2;
    }
    return rc;
}
