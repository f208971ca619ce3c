/*
 * stats.c -- the statistics of a CUDA program's launches: per launch to GPUSIM_JSON (a JSON
 * array, one object per launch: kernel, grid, block, dynamic shared memory, the call's
 * result and the model's statistics as gs_stats_json writes them) and GPUSIM_LAUNCHES (CSV:
 * the same, gs_stats_csv_row's columns); a one-line summary per launch and the total at exit
 * to GPUSIM_SUMMARY (default stderr; "stdout", a file, or "off"), so that the program's
 * stdout stays the program's.
 *
 * GPUSIM_TOTAL (for gpusim report page --apps, cli/app.c): at exit, the sum of every launch's
 * statistics as raw struct gs_stats bytes with the layout's fingerprint (gs_stats_layout),
 * and each kernel's cycles, warp instructions and launches, in the order of their first
 * launch (RT_TOTAL_KERNELS kernels; the rest summed as "(other kernels)"):
 *   gpusim-total 1 / layout HEX / launches N / kernel CYCLES WARP_INSNS LAUNCHES NAME ... /
 *   stats BYTES, then the bytes. Written even when the program launched nothing.
 *
 * The JSON file is a whole array after every launch (the closing bracket is rewritten in
 * place), so a program that stops early leaves a readable file. Only host_seconds differs
 * between two identical runs. Launches the model refused (it did not run them) are not
 * written; a launch that faulted is, with its error.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "base/json.h"
#include "gpu/cta.h"
#include "gpu/kres.h"
#include "gpu/stats.h"
#include "rt.h"

#define RT_TOTAL_KERNELS 64

struct rt_ktotal {
    const struct rt_kernel *k;    /* NULL: the "(other kernels)" row */
    uint64_t cycles, warp_insns;
    unsigned launches;
};

static struct {
    int opened;
    struct rt_ktotal kt[RT_TOTAL_KERNELS + 1];
    unsigned nkt;
    int total_written;
    FILE *json, *csv, *sum;
    int json_seek;                /* the JSON file is seekable: its end is rewritten */
    long json_end;                /* where the closing bracket goes */
    unsigned n;                   /* launches written */
    struct gs_stats total;
    struct gpu_config conf;       /* the configuration of the GPU the launches ran on */
    int closed;
} st;

static FILE *open_out(const char *var, char *err, size_t errlen)
{
    const char *path = getenv(var);
    FILE *f;
    if (!path || !path[0])
        return NULL;
    if (!(f = fopen(path, "w")))
        snprintf(err, errlen, "%s: cannot write %s", var, path);
    return f;
}

static int open_summary(char *err, size_t errlen)
{
    const char *s = getenv("GPUSIM_SUMMARY");
    if (!s || !s[0] || !strcmp(s, "stderr"))
        st.sum = stderr;
    else if (!strcmp(s, "stdout"))
        st.sum = stdout;
    else if (strcmp(s, "off") && !(st.sum = fopen(s, "w"))) {
        snprintf(err, errlen, "GPUSIM_SUMMARY: cannot write %s", s);
        return -1;
    }
    return 0;
}

int rt_stats_open(const struct gs_gpu *g, char *err, size_t errlen)
{
    st.conf = *gs_config(g);          /* kept for the total line: cudaDeviceReset frees g */
    if (st.opened)
        return 0;
    err[0] = 0;
    st.json = open_out("GPUSIM_JSON", err, errlen);
    if (!err[0])
        st.csv = open_out("GPUSIM_LAUNCHES", err, errlen);
    if (err[0] || open_summary(err, errlen))
        return -1;
    st.opened = 1;
    if (st.json) {
        fprintf(st.json, "[\n");
        st.json_end = ftell(st.json);
        st.json_seek = st.json_end >= 0;
        if (st.json_seek)
            fprintf(st.json, "]\n");
        fflush(st.json);
    }
    if (st.csv) {
        fprintf(st.csv, "launch,kernel,result,dynamic_shared,");
        gs_stats_csv_header(st.csv);
        fflush(st.csv);
    }
    return 0;
}

/* The kernel's demangled name (the C++ runtime's demangler, when the program has one). */
static const char *pretty(struct rt_kernel *k)
{
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    demangle_fn d;
    int status = -1;
    if (k->pretty)
        return k->pretty;
    d = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (d && !strncmp(k->name, "_Z", 2))
        k->pretty = d(k->name, NULL, NULL, &status);
    if (!k->pretty || status)
        k->pretty = strdup(k->name);
    return k->pretty ? k->pretty : k->name;
}

static void json_launch(struct gs_gpu *g, struct rt_kernel *k, const struct gs_stats *s,
                        dim3 grid, dim3 block, size_t shmem, cudaError_t result)
{
    FILE *f = st.json;
    if (st.json_seek)
        fseek(f, st.json_end, SEEK_SET);
    fprintf(f, "%s{\n  \"launch\": %u,\n  \"kernel\": ", st.n > 1 ? ",\n" : "", st.n);
    json_str(f, k->name);
    fprintf(f, ",\n  \"name\": ");
    json_str(f, pretty(k));
    fprintf(f, ",\n  \"module\": %u,\n  \"grid\": [%u, %u, %u],\n  \"block\": [%u, %u, %u],\n"
            "  \"dynamic_shared\": %zu,\n  \"result\": \"%s\",\n  ", k->m->index,
            grid.x, grid.y, grid.z, block.x, block.y, block.z, shmem, rt_error_name(result));
    json_str(f, "registers");
    fprintf(f, ": ");
    json_str(f, gs_regs_note(g));
    fprintf(f, ",\n  \"stats\": ");
    gs_stats_json(s, "  ", f);
    fprintf(f, "\n}");
    if (st.json_seek) {
        st.json_end = ftell(f);
        fprintf(f, "\n]\n");
    }
    fflush(f);
}

static void csv_launch(const struct rt_kernel *k, const struct gs_stats *s, size_t shmem,
                       cudaError_t result)
{
    fprintf(st.csv, "%u,%s,%s,%zu,", st.n, k->name, rt_error_name(result), shmem);
    gs_stats_csv_row(s, st.csv);
    fflush(st.csv);
}

static void summary_launch(struct rt_kernel *k, const struct gs_stats *s,
                           const struct gpu_config *c, cudaError_t result)
{
    fprintf(st.sum, "gpusim: launch %u %s grid (%u,%u,%u) block (%u,%u,%u): ", st.n, pretty(k),
            s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2]);
    if (c->model == MODEL_TIMING)
        fprintf(st.sum, "%llu cycles, IPC %.3f, ", (unsigned long long)s->cycles,
                s->cycles ? (double)s->warp_insns / (double)s->cycles : 0.0);
    fprintf(st.sum, "%llu warp insns, %llu thread insns, %u regs (%s), occupancy %u CTAs/SM (%s)"
            "%s%s\n", (unsigned long long)s->warp_insns, (unsigned long long)s->thread_insns,
            s->regs_per_thread, kres_src_name(s->regs_source), s->occupancy,
            cta_limit_name((enum cta_limit)s->occupancy_limit),
            result ? ": " : "", result ? rt_error_name(result) : "");
    fflush(st.sum);
}

/* Kernel k's row of the per-kernel totals (the last row for every kernel past the table). */
static struct rt_ktotal *ktotal(const struct rt_kernel *k)
{
    for (unsigned i = 0; i < st.nkt; i++)
        if (st.kt[i].k == k)
            return &st.kt[i];
    if (st.nkt < RT_TOTAL_KERNELS) {
        st.kt[st.nkt].k = k;
        return &st.kt[st.nkt++];
    }
    if (st.nkt == RT_TOTAL_KERNELS)
        st.nkt++;                     /* the "(other kernels)" row, k NULL */
    return &st.kt[RT_TOTAL_KERNELS];
}

/* GPUSIM_TOTAL's file (see the header), once; a file that cannot be written is said. */
static void write_total(void)
{
    const char *path = getenv("GPUSIM_TOTAL");
    FILE *f;
    if (st.total_written || !path || !path[0])
        return;
    st.total_written = 1;
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "gpusim: GPUSIM_TOTAL: cannot write %s\n", path);
        return;
    }
    fprintf(f, "gpusim-total 1\nlayout %016llx\nlaunches %u\n",
            (unsigned long long)gs_stats_layout(), st.n);
    for (unsigned i = 0; i < st.nkt; i++)
        fprintf(f, "kernel %llu %llu %u %s\n", (unsigned long long)st.kt[i].cycles,
                (unsigned long long)st.kt[i].warp_insns, st.kt[i].launches,
                st.kt[i].k ? pretty((struct rt_kernel *)st.kt[i].k) : "(other kernels)");
    fprintf(f, "stats %zu\n", sizeof st.total);
    fwrite(&st.total, sizeof st.total, 1, f);
    if (fclose(f))
        fprintf(stderr, "gpusim: GPUSIM_TOTAL: cannot write %s\n", path);
}

void rt_stats_launch(struct gs_gpu *g, const struct rt_kernel *kc, dim3 grid, dim3 block,
                     size_t shmem, cudaError_t result)
{
    struct rt_kernel *k = (struct rt_kernel *)kc;
    struct gs_stats s;
    struct rt_ktotal *kt;
    gs_kernel_stats(g, &s);
    gs_stats_add(&st.total, &s);
    kt = ktotal(kc);
    kt->cycles += s.cycles;
    kt->warp_insns += s.warp_insns;
    kt->launches++;
    st.conf = *gs_config(g);
    st.n++;
    if (st.json)
        json_launch(g, k, &s, grid, block, shmem, result);
    if (st.csv)
        csv_launch(k, &s, shmem, result);
    if (st.sum)
        summary_launch(k, &s, gs_config(g), result);
}

void rt_stats_close(void)
{
    const struct gpu_config *c = &st.conf;
    const struct gs_stats *t = &st.total;
    write_total();
    if (st.closed || !st.opened)
        return;
    st.closed = 1;
    if (st.sum) {
        fprintf(st.sum, "gpusim: total: %u launches", st.n);
        if (c->model == MODEL_TIMING)
            fprintf(st.sum, ", %llu cycles (%.3f ms at %u MHz), IPC %.3f",
                    (unsigned long long)t->cycles, (double)t->cycles / (c->clock_mhz * 1000.0),
                    c->clock_mhz, t->cycles ? (double)t->warp_insns / (double)t->cycles : 0.0);
        fprintf(st.sum, ", %llu warp insns, %llu thread insns (%s, %s model)\n",
                (unsigned long long)t->warp_insns, (unsigned long long)t->thread_insns, c->name,
                c->model == MODEL_TIMING ? "timing" : "functional");
        fflush(st.sum);
    }
    if (st.json && !st.json_seek)
        fprintf(st.json, "\n]\n");
    if (st.json)
        fclose(st.json);
    if (st.csv)
        fclose(st.csv);
    if (st.sum && st.sum != stderr && st.sum != stdout)
        fclose(st.sum);
    st.json = st.csv = st.sum = NULL;
}
