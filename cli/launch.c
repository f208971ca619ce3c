/*
 * launch.c -- gpusim launch-bench [N]: the host time of a launch that does nothing (issue 17:
 * per-launch set-up proportional to what the launch uses; the target is under 1 ms).
 *
 * An empty kernel (`ret;`), one CTA of 32 threads, launched N times (default 200) on one GPU
 * with the configuration given (--config, --set; the configured model). The first launch
 * is reported apart: it allocates what later launches keep (the timing model's memory
 * system). The figure for the others is their median, in milliseconds of wall-clock time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"

#define LB_DEFAULT 200
#define LB_MAX     100000

static const char lb_ptx[] = ".version 6.0\n.target sm_20\n.address_size 64\n"
                             ".visible .entry empty()\n{\n\tret;\n}\n";

static double lb_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int lb_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Time n launches into ms[]; 0, or 2 after saying what failed. */
static int lb_run(struct gs_gpu *g, struct gs_module *m, unsigned long n, double *ms)
{
    for (unsigned long i = 0; i < n; i++) {
        double t0 = lb_now();
        if (gs_launch(g, m, "empty", (struct gs_dim3){1, 1, 1}, (struct gs_dim3){32, 1, 1}, 0,
                      NULL, 0) != GS_OK || gs_synchronize(g) != GS_OK) {
            fprintf(stderr, "gpusim launch-bench: %s\n", gs_last_error(g));
            return 2;
        }
        ms[i] = (lb_now() - t0) * 1e3;
    }
    return 0;
}

int cmd_launch_bench(const struct opts *o)
{
    struct gs_gpu *g = NULL;
    struct gs_module *m;
    char err[1024], *end = NULL;
    unsigned long n = o->name ? strtoul(o->name, &end, 10) : LB_DEFAULT;
    double *ms;
    int rc = 2;
    if ((o->name && *end) || n < 2 || n > LB_MAX) {
        fprintf(stderr, "usage: gpusim launch-bench [N] [--config FILE] [--set KEY=VALUE]...  "
                "(N launches, 2 .. %d)\n", LB_MAX);
        return 2;
    }
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err) != GS_OK) {
        fprintf(stderr, "gpusim launch-bench: %s\n", err);
        return 2;
    }
    if (!(ms = malloc(n * sizeof *ms))) {
        fprintf(stderr, "gpusim launch-bench: out of memory\n");
    } else if (gs_load_ptx_text(g, lb_ptx, "empty.ptx", &m) != GS_OK) {
        fprintf(stderr, "gpusim launch-bench: %s\n", gs_last_error(g));
    } else if (!(rc = lb_run(g, m, n, ms))) {
        qsort(ms + 1, n - 1, sizeof *ms, lb_cmp);
        printf("launch-bench: an empty kernel (1 CTA x 32 threads), %s model, %u SMs: first "
               "launch %.3f ms, then a median of %.3f ms per launch (%lu launches)\n",
               gs_config(g)->model == MODEL_TIMING ? "timing" : "functional",
               gs_config(g)->num_sms, ms[0], ms[1 + (n - 1) / 2], n - 1);
    }
    free(ms);
    gs_destroy(g);
    return rc;
}
