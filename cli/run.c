/*
 * run.c -- one bench kernel run under the command line's options, its results checked
 * (gpusim run, suite and report share it), and the bench categories of docs/bench.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "base/infile.h"
#include "gpu/cta.h"

/* The latency set a run uses: the timing model's lat_* and ii_* keys ("" for functional). */
void latency_set(const struct gpu_config *c, char *buf, size_t n)
{
    buf[0] = 0;
    if (c->model == MODEL_TIMING)
        conf_latency_line(c, buf, n);
}

const char *result_msg(const struct result *r)
{
    return r->msg ? r->msg : "(no message: out of host memory)";
}

void result_free(struct result *r)
{
    free(r->msg);
    r->msg = NULL;
}

/* A run that failed before the kernel ran: rc 2 and the message. */
static void run_error(struct result *r, const char *msg)
{
    r->rc = 2;
    r->msg = strdup(msg);
}

/* gs_record for --record BLOCK=FILE: 0, or -1 with the message in r. */
static int record(const struct opts *o, struct gs_gpu *g, struct result *r)
{
    char blk[32];
    const char *eq = strchr(o->record, '=');
    if (!eq || eq == o->record || (size_t)(eq - o->record) >= sizeof blk || !eq[1]) {
        run_error(r, "--record takes BLOCK=FILE (the blocks: gpusim blocks record)");
        return -1;
    }
    snprintf(blk, sizeof blk, "%.*s", (int)(eq - o->record), o->record);
    if (gs_record(g, blk, eq + 1)) {
        run_error(r, gs_last_error(g));
        return -1;
    }
    return 0;
}

void launch_csv_header(FILE *f)
{
    fprintf(f, "launch,kernel,result,dynamic_shared,");
    gs_stats_csv_header(f);
}

void launch_csv_row(struct gs_gpu *g, const char *kernel, uint32_t dyn_smem, int status,
                    void *arg)
{
    struct launch_csv *c = arg;
    struct gs_stats s;
    gs_kernel_stats(g, &s);
    fprintf(c->f, "%u,%s,%s,%u,", ++c->n, kernel, gs_status_name(status), dyn_smem);
    gs_stats_csv_row(&s, c->f);
}

void run_one(const struct opts *o, const struct bench *b, struct result *r)
{
    struct bench_ctx ctx;
    char path[1024], err[1024];
    int rc;
    memset(r, 0, sizeof *r);
    memset(&ctx, 0, sizeof ctx);
    if (gs_init(&ctx.gpu, o->config, o->sets, o->nsets, err, sizeof err)) {
        run_error(r, err);
        return;
    }
    snprintf(r->cfg_name, sizeof r->cfg_name, "%s", gs_config(ctx.gpu)->name);
    latency_set(gs_config(ctx.gpu), r->lat, sizeof r->lat);
    bench_ptx_path(b, o->bench_dir, path, sizeof path);
    ctx.ptx_path = o->ptx ? o->ptx : path;
    ctx.size = o->size;
    ctx.inputs = o->inputs;
    ctx.layout = o->layout;
    if (o->launch_csv)
        gs_on_launch(ctx.gpu, launch_csv_row, o->launch_csv);
    if (o->record && record(o, ctx.gpu, r)) {
        gs_destroy(ctx.gpu);
        return;
    }
    if ((o->bbv_out && gs_bbv(ctx.gpu, o->bbv_out, o->bbv_csv)) ||
        (o->setup && o->setup(ctx.gpu, o->setup_arg))) {
        run_error(r, gs_last_error(ctx.gpu));
        gs_destroy(ctx.gpu);
        return;
    }
    rc = b->run(&ctx);
    gs_total_stats(ctx.gpu, &r->st);
    snprintf(r->regs, sizeof r->regs, "%s", gs_regs_note(ctx.gpu));
    r->rc = rc == 0 ? 0 : rc > 0 ? 1 : 2;
    if (rc == 0 || !ctx.msg) {
        free(ctx.msg);
        ctx.msg = strdup(rc == 0 ? "results correct" : "failed without a message");
    }
    r->msg = ctx.msg;                  /* the bench's first failure, whole */
    gs_destroy(ctx.gpu);
}

/* Categories of issue 4: the kernels the bench was built to show, and the rule per category. */
const struct cat_desc cats[C_COUNT] = {
    { "Instruction and cycle divergence (000 Table 1, set 1)",
      "TBs with > 10 % instruction divergence and TBs with > 10 % cycle divergence",
      "bfs nqueens mergepass bstsearch mandel smithwat" },
    { "Cycle divergence only (set 2)", "TBs with > 10 % cycle divergence, none with > 10 % instruction divergence",
      "kmeans meshgather invmap vecadd" },
    { "Instruction divergence only (set 3)",
      "TBs with > 10 % instruction divergence, at most a quarter as many with > 10 % cycle divergence (barriers keep the warps together)",
      "backprop stencil2d reduce scanlarge nw pathfinder" },
    { "No divergence (set 4)", "lane utilisation > 90 % and no TB with > 10 % instruction divergence",
      "vecadd matmul fftlike histogram dct8x8" },
    { "Shared memory and barriers with divergent warps", "barriers > 0 and divergent branches > 0",
      "reduce nw stencil2d pathfinder backprop scanlarge" },
    { "Memory-latency divergence (002)", "uncoalesced gathers: > 2 L1 accesses per memory instruction and an L1 hit rate between 1 and 99 %",
      "kmeans meshgather spmv fftlike invmap bstsearch" },
    { "Scheduling-limit bound, Type-S (004)", "occupancy bound by the thread or CTA limit",
      "vecadd conv2d reduce histogram dct8x8 backprop pathfinder" },
    { "Capacity-limit bound, Type-C (004)", "occupancy bound by registers or shared memory",
      "matmul scanlarge" },
    { "Per-thread data-dependent work, regrouping candidates (001 Table I)",
      "lane utilisation < 60 % and TBs with > 5 % instruction divergence",
      "mcubes smithwat soundloc stereo nqueens" },
    { "Loop divergence micro-benchmarks (003)", "SIMT stack deeper than 16 entries (spills)",
      "sloop dloop" },
};

int cat_shows(enum cat c, const struct gs_stats *s)
{
    uint64_t acc = s->t.l1_hits + s->t.l1_misses;
    double hit = acc ? (double)s->t.l1_hits / (double)acc : 0, lane = gs_lane_utilization(s);
    switch (c) {
    case C_INSTCYC: return s->tb_inst_div[2] > 0 && s->tb_cycle_div[2] > 0;
    case C_CYCLE:   return s->tb_cycle_div[2] > 0 && s->tb_inst_div[2] == 0;
    case C_INST:    return s->tb_inst_div[2] > 0 && 4 * s->tb_cycle_div[2] <= s->tb_inst_div[2];
    case C_NONE:    return lane > 0.9 && s->tb_inst_div[2] == 0;
    case C_SHBAR:   return s->barriers > 0 && s->divergent_branches > 0;
    case C_MEMLAT:  return s->mem_insns && acc > 2 * s->mem_insns && hit > 0.01 && hit < 0.99;
    case C_TYPES:   return s->occupancy_limit == CTA_LIM_THREADS || s->occupancy_limit == CTA_LIM_CTAS;
    case C_TYPEC:   return s->occupancy_limit == CTA_LIM_REGS || s->occupancy_limit == CTA_LIM_SHARED;
    case C_REGROUP: return lane < 0.6 && s->tb_inst_div[3] > 0;
    case C_LOOP:    return s->t.simt_max_depth > 16;
    default:        return 0;
    }
}


int cat_has(enum cat c, const char *kernel)
{
    const char *p = cats[c].kernels;
    size_t n = strlen(kernel);
    while ((p = strstr(p, kernel)))
        if ((p == cats[c].kernels || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return 1;
        else
            p += n;
    return 0;
}

char *file_tail(const char *path, const char *mark)
{
    char err[512], *text = infile_read(path, "document", DOC_FILE_MAX, NULL, err, sizeof err);
    char *m, *tail = NULL;
    if (text && (m = strstr(text, mark)))
        tail = strdup(m);
    free(text);
    return tail;
}
