/*
 * report.c -- `gpusim cost`: the storage and area report of a configuration.
 *
 *   gpusim cost [--config FILE] [--set KEY=VALUE]... [--json FILE] [--yosys DIR] [--items]
 *   gpusim cost --offchip BLOCK     the names of a block's storage that is not on chip
 *
 * Prints, per SM: bits, bytes, implementation and area per block and per mechanism at 65, 40
 * and 28 nm and the share of a GF100 SM (40 nm); the GPU-level blocks; the GPU totals; with
 * --yosys DIR the synthesis figures of cost/yosys.sh next to the estimator's; the document
 * checks. --items lists every storage item. --json writes all of it for scripts.
 * Exit status: 0, or 2 for a usage, configuration or output error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/infile.h"
#include "base/json.h"
#include "cost_main.h"
#include "estimate.h"

#define MAX_SETS 64
#define MAX_NAMES COST_MAX_ITEMS

static const char *const yosys_blocks[] = {"ws", "sb", "simt", "fetch", "fu", "ldst", "bar",
                                           "l1", "l2", "dram", "icnt", "cta"};
#define NYB (sizeof yosys_blocks / sizeof yosys_blocks[0])

struct copts {
    const char *config, *json, *yosys, *offchip;
    const char *sets[MAX_SETS];
    int nsets, items;
};

static void cost_usage(FILE *f)
{
    fprintf(f, "usage: gpusim cost [--config FILE] [--set KEY=VALUE]... [--json FILE] "
               "[--yosys DIR] [--items]\n"
               "       gpusim cost --offchip BLOCK   (names of the block's storage that is not "
               "on chip)\n"
               "Storage bits and area of every block for a configuration (docs/cost-model.md).\n");
}

static int parse(struct copts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--items")) { o->items = 1; continue; }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return 1;
        if (i + 1 >= argc) {
            fprintf(stderr, "gpusim cost: %s%s\n", a,
                    a[0] == '-' ? " needs a value (or is unknown)" : ": unexpected argument");
            return -1;
        }
        if (!strcmp(a, "--config")) o->config = argv[++i];
        else if (!strcmp(a, "--json")) o->json = argv[++i];
        else if (!strcmp(a, "--yosys")) o->yosys = argv[++i];
        else if (!strcmp(a, "--offchip")) o->offchip = argv[++i];
        else if (!strcmp(a, "--set") && o->nsets < MAX_SETS) o->sets[o->nsets++] = argv[++i];
        else {
            fprintf(stderr, "gpusim cost: unknown option '%s' (or more than %d --set)\n", a,
                    MAX_SETS);
            return -1;
        }
    }
    return 0;
}

/* Distinct block (field 0) or mechanism (field 1) names of a list, in order of appearance. */
static unsigned names(const struct est_list *e, int mech, const char **out)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < e->l.n; i++) {
        const char *s = mech ? e->l.it[i].mech : e->l.it[i].block;
        unsigned j = 0;
        if (!e->l.it[i].onchip)
            continue;
        while (j < n && strcmp(out[j], s))
            j++;
        if (j == n && n < MAX_NAMES)
            out[n++] = s;
    }
    return n;
}

static const char *impl(unsigned kinds)
{
    if (kinds == 1u << EST_FF) return "FF";
    if (!(kinds & (1u << EST_FF))) return "SRAM";
    return "FF+SRAM";
}

static double sm_pct(double um2)
{
    return 100.0 * um2 / (est_sm_mm2(est_gf100()) * 1e6);
}

static void print_row(const char *name, const struct est_sum *s, double pct_base_mm2)
{
    printf("%-30s %10llu %9.1f %-7s", name, (unsigned long long)s->bits, s->bits / 8.0,
           impl(s->kinds));
    for (unsigned n = 0; n < EST_NNODES; n++)
        printf(" %11.0f", s->um2[n]);
    printf(" %7.3f%%\n", 100.0 * s->um2[EST_REF_NODE] / (pct_base_mm2 * 1e6));
}

static void print_head(const char *first, const char *pct)
{
    printf("%-30s %10s %9s %-7s", first, "bits", "bytes", "impl");
    for (unsigned n = 0; n < EST_NNODES; n++)
        printf("   um2@%2unm", est_node(n)->nm);
    printf(" %8s\n", pct);
}

static void print_table(const struct est_list *e, int mech, const char *title, double base,
                        const char *pct)
{
    const char *nm[MAX_NAMES];
    unsigned n = names(e, mech, nm);
    struct est_sum t = est_sum(e, NULL, NULL);
    printf("\n%s\n", title);
    print_head(mech ? "mechanism" : "block", pct);
    for (unsigned i = 0; i < n; i++) {
        struct est_sum s = est_sum(e, mech ? NULL : nm[i], mech ? nm[i] : NULL);
        print_row(nm[i], &s, base);
    }
    print_row("total", &t, base);
}

static void print_items(const struct est_list *e, const char *title)
{
    printf("\n%s\n%-6s %-18s %9s %5s %6s %3s %3s %-7s %11s  %s\n", title, "block", "item",
           "entries", "bits", "inst", "rd", "wr", "impl", "um2@40nm", "mechanism");
    for (uint32_t i = 0; i < e->l.n; i++) {
        const struct cost_item *it = &e->l.it[i];
        char rd[8];
        snprintf(rd, sizeof rd, "%s", it->rports == COST_PAR ? "all" : "");
        if (!rd[0])
            snprintf(rd, sizeof rd, "%u", it->rports);
        printf("%-6s %-18s %9llu %5u %6u %3s %3u %-7s %11.0f  %s%s%s%s\n", it->block, it->name,
               (unsigned long long)it->entries, it->bits, it->inst, rd, it->wports,
               it->onchip ? est_kind_name(e->kind[i][EST_REF_NODE]) : "offchip",
               e->um2[i][EST_REF_NODE], it->mech, it->note ? " (" : "",
               it->note ? it->note : "", it->note ? ")" : "");
    }
}

/* The GPU totals: the configured SMs and the GPU-level blocks, against a GF100 die with the
   configured number of SMs (its non-SM part plus num_sms reference SMs). */
static void gpu_totals(const struct est *e, struct est_sum *tot, double *die_mm2)
{
    const struct est_ref *r = est_gf100();
    struct est_sum s = est_sum(&e->sm, NULL, NULL), g = est_sum(&e->gpu, NULL, NULL);
    tot->bits = s.bits * e->conf.num_sms + g.bits;
    tot->kinds = s.kinds | g.kinds;
    for (unsigned n = 0; n < EST_NNODES; n++)
        tot->um2[n] = s.um2[n] * e->conf.num_sms + g.um2[n];
    *die_mm2 = r->die_mm2 * (1.0 - r->sm_fraction) + est_sm_mm2(r) * e->conf.num_sms;
}

static void print_header(const struct est *e)
{
    const struct est_ref *r = est_gf100();
    printf("gpusim cost -- storage and area of configuration '%s' (docs/cost-model.md)\n",
           e->conf.name);
    printf("reference SM: %s, %u nm, %.0f mm^2 die, %u SMs on die, %.0f%% of the die in SMs "
           "-> %.2f mm^2 per SM\n", r->name, r->node_nm, r->die_mm2, r->sms_on_die,
           100.0 * r->sm_fraction, est_sm_mm2(r));
    printf("cells per node (um^2):");
    for (unsigned n = 0; n < EST_NNODES; n++)
        printf("  %unm DFF %.2f MUX2 %.2f SRAM-bit %.3f", est_node(n)->nm, est_node(n)->dff_um2,
               est_node(n)->mux_um2, est_node(n)->sram_um2);
    printf("\nstorage only (flip-flops with their write/read muxes, or SRAM macros); the blocks' "
           "other logic, cache data arrays, register file and shared memory are not counted\n");
}

static void print_gpu(const struct est *e)
{
    struct est_sum t;
    double die;
    gpu_totals(e, &t, &die);
    print_table(&e->gpu, 0, "GPU-level blocks, all instances (% of the die)", die, "%die");
    printf("\nGPU total: %u SMs x %llu bits + GPU-level = %llu bits (%.1f KB); "
           "%.3f mm^2 at 40 nm = %.3f%% of a %.0f mm^2 GF100-like die with %u SMs\n",
           e->conf.num_sms, (unsigned long long)est_sum(&e->sm, NULL, NULL).bits,
           (unsigned long long)t.bits, t.bits / 8.0 / 1024.0, t.um2[EST_REF_NODE] / 1e6,
           100.0 * t.um2[EST_REF_NODE] / (die * 1e6), die, e->conf.num_sms);
    printf("  (65 nm: %.3f mm^2, 28 nm: %.3f mm^2)\n", t.um2[0] / 1e6, t.um2[2] / 1e6);
}

/* ---------------------------------------------------------------- Yosys cross-check */

/* A small text file of Yosys's figures or the sets of a synthesis (cost/yosys.sh, mk/cost.mk),
   read whole through model/base/infile.h: a regular file of at most 64 KB (a FIFO or a device
   in --yosys DIR is no result, never a hang). NULL if it is not one. */
static char *read_small(const char *path)
{
    char err[512];
    return infile_read(path, "Yosys result", 64u << 10, NULL, err, sizeof err);
}

/* One "key value" line of DIR/<block>.txt into y; bit of `got` it set. */
static unsigned yosys_line(const char *line, struct est_yosys *y)
{
    char key[32];
    double v;
    if (sscanf(line, "%31s %lf", key, &v) != 2)
        return 0;
    if (!strcmp(key, "cells")) { y->cells = (uint64_t)v; return 1; }
    if (!strcmp(key, "ff_bits")) { y->ff_bits = (uint64_t)v; return 2; }
    if (!strcmp(key, "lib_cells")) { y->lib_cells = (uint64_t)v; return 4; }
    if (!strcmp(key, "lib_ff")) { y->lib_ff = (uint64_t)v; return 8; }
    if (!strcmp(key, "lib_area_um2")) { y->lib_um2 = v; return 16; }
    if (!strcmp(key, "failed"))
        y->failed = 1;
    else if (!strncmp(key, "lib_", 4))      /* lib_timeout, lib_skipped, lib_failed */
        snprintf(y->lib_why, sizeof y->lib_why, "%.15s", key + 4);
    return 0;
}

int est_read_yosys(const char *dir, const char *block, struct est_yosys *y)
{
    char path[1024], *text, *p, *line;
    unsigned got = 0;
    memset(y, 0, sizeof *y);
    snprintf(y->block, sizeof y->block, "%s", block);
    snprintf(path, sizeof path, "%s/%s.txt", dir, block);
    if (!(text = read_small(path)))
        return -1;
    for (p = text; (line = infile_line(&p)) != NULL;)
        got |= yosys_line(line, y);
    free(text);
    y->have = (got & 3) == 3 && !y->failed;
    y->lib = got == 31;
    return y->have ? 0 : -1;
}

int est_yosys_config(const struct gpu_config *base, const char *dir, struct gpu_config *out,
                     char *err, size_t errlen)
{
    char path[1024], *text, *p, *line;
    int rc = 0;
    *out = *base;
    snprintf(path, sizeof path, "%s/sets.txt", dir);
    if (!(text = read_small(path)))
        return 0;
    for (p = text; !rc && (line = infile_line(&p)) != NULL;)
        if (line[0] && conf_set(out, line, path, err, errlen))
            rc = -1;
    free(text);
    return rc ? -1 : conf_check(out, err, errlen);
}

/* One instance of a block as its RTL is parameterised, priced. */
static int block_est(const struct gpu_config *c, const char *b, struct est_list *l)
{
    memset(l, 0, sizeof *l);
    cost_list_init(&l->l);
    if (est_block_instance(c, b, &l->l))
        return -1;
    est_price_list(l);
    return 0;
}

static void print_yosys(const struct est *e, const char *dir)
{
    struct est_list *l = calloc(1, sizeof *l);
    struct gpu_config yc;
    char err[512];
    unsigned shown = 0;
    if (!l)
        return;
    printf("\nYosys cross-check (rtl/<block>.sv, one instance as `gpusim rtl-params` sets it; "
           "results in %s)\n", dir);
    if (est_yosys_config(&e->conf, dir, &yc, err, sizeof err)) {
        printf("(cannot rebuild the synthesized configuration: %s)\n", err);
        free(l);
        return;
    }
    if (memcmp(&yc, &e->conf, sizeof yc))
        printf("synthesized with the overrides in %s/sets.txt: both columns are for that "
               "configuration\n", dir);
    printf("%-6s %9s %9s %9s %9s %12s %11s %11s %6s  %s\n", "block", "est_bits", "yosys_ff",
           "cells", "osu_cells", "osu018_um2", "syn_um2@40", "est_um2@40", "syn/est", "check");
    for (unsigned i = 0; i < NYB; i++) {
        struct est_yosys y;
        struct est_sum s;
        double syn;
        if (est_read_yosys(dir, yosys_blocks[i], &y)) {
            char rtl[64];
            FILE *f;
            snprintf(rtl, sizeof rtl, "rtl/%s.sv", yosys_blocks[i]);
            if (y.failed)
                printf("%-6s synthesis FAILED (log: %s/%s.log)\n", yosys_blocks[i], dir,
                       yosys_blocks[i]);
            else if ((f = fopen(rtl, "r"))) {  /* an RTL block without results */
                fclose(f);
                printf("%-6s not synthesized (no %s/%s.txt)\n", yosys_blocks[i], dir,
                       yosys_blocks[i]);
            }
            shown += y.failed;
            continue;
        }
        if (block_est(&yc, yosys_blocks[i], l))
            continue;
        s = est_sum(l, NULL, NULL);
        syn = est_scale_osu018(est_node(EST_REF_NODE), y.lib_um2);
        printf("%-6s %9llu %9llu %9llu ", yosys_blocks[i], (unsigned long long)s.bits,
               (unsigned long long)y.ff_bits, (unsigned long long)y.cells);
        if (y.lib)
            printf("%9llu %12.0f %11.0f %11.0f %6.2f", (unsigned long long)y.lib_cells,
                   y.lib_um2, syn, s.um2[EST_REF_NODE],
                   s.um2[EST_REF_NODE] > 0 ? syn / s.um2[EST_REF_NODE] : 0.0);
        else
            printf("%9s %12s %11s %11.0f %6s", "n/a", "n/a", "n/a", s.um2[EST_REF_NODE], "");
        printf("  %s", s.bits == y.ff_bits ? "ok" : "DIFFERS");
        if (s.bits != y.ff_bits)
            printf(" (%+lld flip-flops)", (long long)y.ff_bits - (long long)s.bits);
        if (!y.lib)
            printf("; osu018 mapping %s", y.lib_why[0] ? y.lib_why : "missing");
        printf("\n");
        shown++;
    }
    if (!shown)
        printf("(no results: run `make cost`, which synthesizes every rtl/*.sv)\n");
    else
        printf("syn_um2: osu018 cell area in flip-flop equivalents at 40 nm, with the same "
               "placement utilisation; it includes each block's logic, est_um2 only storage\n");
    free(l);
}

/* ---------------------------------------------------------------- document checks */

static void print_checks(const struct gpu_config *c)
{
    struct est_check ck[EST_MAX_CHECKS];
    unsigned n = est_doc_checks(c, ck, EST_MAX_CHECKS);
    printf("\nDocument checks (the documents' figures vs the estimator's)\n");
    printf("%-4s %-44s %9s %9s %-6s %-7s  %s\n", "doc", "figure", "document", "model", "unit",
           "verdict", "why");
    for (unsigned i = 0; i < n; i++)
        printf("%-4s %-44s %9.0f %9.0f %-6s %-7s  %s\n", ck[i].doc, ck[i].what, ck[i].doc_value,
               ck[i].model_value, ck[i].unit, ck[i].match ? "match" : "differs", ck[i].why);
}

/* ---------------------------------------------------------------- JSON */

static void jarea(FILE *f, const double *um2)
{
    fprintf(f, "{");
    for (unsigned n = 0; n < EST_NNODES; n++)
        fprintf(f, "%s\"%u\": %.1f", n ? ", " : "", est_node(n)->nm, um2[n]);
    fprintf(f, "}");
}

static void json_items(FILE *f, const struct est_list *e)
{
    fprintf(f, "[");
    for (uint32_t i = 0; i < e->l.n; i++) {
        const struct cost_item *it = &e->l.it[i];
        fprintf(f, "%s\n    {\"block\": ", i ? "," : "");
        json_str(f, it->block);
        fprintf(f, ", \"name\": ");
        json_str(f, it->name);
        fprintf(f, ", \"mechanism\": ");
        json_str(f, it->mech);
        fprintf(f, ", \"entries\": %llu, \"bits\": %u, \"inst\": %u, \"banks\": %u, "
                   "\"rports\": %d, \"wports\": %u, \"onchip\": %u, \"impl\": ",
                (unsigned long long)it->entries, it->bits, it->inst, it->banks,
                it->rports == COST_PAR ? -1 : it->rports, it->wports, it->onchip);
        json_str(f, it->onchip ? est_kind_name(e->kind[i][EST_REF_NODE]) : "offchip");
        fprintf(f, ", \"um2\": ");
        jarea(f, e->um2[i]);
        fprintf(f, ", \"note\": ");
        json_str(f, it->note ? it->note : "");
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]");
}

static void json_sums(FILE *f, const struct est_list *e, int mech)
{
    const char *nm[MAX_NAMES];
    unsigned n = names(e, mech, nm);
    fprintf(f, "[");
    for (unsigned i = 0; i < n; i++) {
        struct est_sum s = est_sum(e, mech ? NULL : nm[i], mech ? nm[i] : NULL);
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, nm[i]);
        fprintf(f, ", \"bits\": %llu, \"bytes\": %.1f, \"impl\": \"%s\", \"um2\": ",
                (unsigned long long)s.bits, s.bits / 8.0, impl(s.kinds));
        jarea(f, s.um2);
        fprintf(f, ", \"pct_sm_40nm\": %.5f}", sm_pct(s.um2[EST_REF_NODE]));
    }
    fprintf(f, "\n  ]");
}

static void json_yosys(FILE *f, const struct est *e, const char *dir)
{
    struct est_list *l = calloc(1, sizeof *l);
    struct gpu_config yc;
    char err[512];
    int first = 1;
    fprintf(f, "[");
    if (dir && est_yosys_config(&e->conf, dir, &yc, err, sizeof err))
        dir = NULL;
    for (unsigned i = 0; l && dir && i < NYB; i++) {
        struct est_yosys y;
        struct est_sum s;
        if (est_read_yosys(dir, yosys_blocks[i], &y) || block_est(&yc, yosys_blocks[i], l))
            continue;
        s = est_sum(l, NULL, NULL);
        fprintf(f, "%s\n    {\"block\": \"%s\", \"est_bits\": %llu, \"yosys_ff\": %llu, "
                   "\"cells\": %llu, \"osu018_cells\": %llu, \"osu018_um2\": %.1f, "
                   "\"syn_um2_40nm\": %.1f, \"est_um2_40nm\": %.1f, \"match\": %s}",
                first ? "" : ",", yosys_blocks[i], (unsigned long long)s.bits,
                (unsigned long long)y.ff_bits, (unsigned long long)y.cells,
                (unsigned long long)y.lib_cells, y.lib ? y.lib_um2 : -1.0,
                y.lib ? est_scale_osu018(est_node(EST_REF_NODE), y.lib_um2) : -1.0,
                s.um2[EST_REF_NODE], s.bits == y.ff_bits ? "true" : "false");
        first = 0;
    }
    fprintf(f, "\n  ]");
    free(l);
}

static void json_checks(FILE *f, const struct gpu_config *c)
{
    struct est_check ck[EST_MAX_CHECKS];
    unsigned n = est_doc_checks(c, ck, EST_MAX_CHECKS);
    fprintf(f, "[");
    for (unsigned i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"doc\": \"%s\", \"figure\": ", i ? "," : "", ck[i].doc);
        json_str(f, ck[i].what);
        fprintf(f, ", \"document\": %.0f, \"model\": %.0f, \"unit\": \"%s\", \"match\": %s, "
                   "\"why\": ", ck[i].doc_value, ck[i].model_value, ck[i].unit,
                ck[i].match ? "true" : "false");
        json_str(f, ck[i].why);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]");
}

static void json_ref(FILE *f, const struct est *e)
{
    const struct est_ref *r = est_gf100();
    struct est_sum t;
    double die;
    gpu_totals(e, &t, &die);
    fprintf(f, "  \"reference\": {\"name\": \"%s\", \"die_mm2\": %.1f, \"node_nm\": %u, "
               "\"sms_on_die\": %u, \"sm_fraction\": %.2f, \"sm_mm2\": %.3f},\n",
            r->name, r->die_mm2, r->node_nm, r->sms_on_die, r->sm_fraction, est_sm_mm2(r));
    fprintf(f, "  \"nodes\": [");
    for (unsigned n = 0; n < EST_NNODES; n++)
        fprintf(f, "%s{\"nm\": %u, \"dff_um2\": %.4f, \"mux2_um2\": %.4f, \"sram_bit_um2\": "
                   "%.5f}", n ? ", " : "", est_node(n)->nm, est_node(n)->dff_um2,
                est_node(n)->mux_um2, est_node(n)->sram_um2);
    fprintf(f, "],\n  \"gpu_total\": {\"sms\": %u, \"bits\": %llu, \"um2\": ", e->conf.num_sms,
            (unsigned long long)t.bits);
    jarea(f, t.um2);
    fprintf(f, ", \"die_mm2\": %.1f, \"pct_die_40nm\": %.5f},\n", die,
            100.0 * t.um2[EST_REF_NODE] / (die * 1e6));
}

static int write_json(const struct est *e, const char *path, const char *ydir)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gpusim cost: cannot write '%s'\n", path);
        return -1;
    }
    fprintf(f, "{\n  \"config\": ");
    json_str(f, e->conf.name);
    fprintf(f, ",\n");
    json_ref(f, e);
    fprintf(f, "  \"sm_blocks\": ");
    json_sums(f, &e->sm, 0);
    fprintf(f, ",\n  \"sm_mechanisms\": ");
    json_sums(f, &e->sm, 1);
    fprintf(f, ",\n  \"gpu_blocks\": ");
    json_sums(f, &e->gpu, 0);
    fprintf(f, ",\n  \"sm_items\": ");
    json_items(f, &e->sm);
    fprintf(f, ",\n  \"gpu_items\": ");
    json_items(f, &e->gpu);
    fprintf(f, ",\n  \"yosys\": ");
    json_yosys(f, e, ydir);
    fprintf(f, ",\n  \"document_checks\": ");
    json_checks(f, &e->conf);
    fprintf(f, "\n}\n");
    if (fclose(f)) {
        fprintf(stderr, "gpusim cost: error writing '%s'\n", path);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- main */

static void report(const struct est *e, const struct copts *o)
{
    char title[160];
    print_header(e);
    snprintf(title, sizeof title, "Per SM, by block (one SM of %u; %%SM = share of a GF100 SM "
             "at 40 nm)", e->conf.num_sms);
    print_table(&e->sm, 0, title, est_sm_mm2(est_gf100()), "%SM");
    print_table(&e->sm, 1, "Per SM, by mechanism", est_sm_mm2(est_gf100()), "%SM");
    print_gpu(e);
    if (o->items) {
        print_items(&e->sm, "Storage items of one SM");
        print_items(&e->gpu, "Storage items of the GPU-level blocks");
    }
    if (o->yosys)
        print_yosys(e, o->yosys);
    print_checks(&e->conf);
    printf("\nper-access energy: not modelled (no sound public per-access figures for these "
           "arrays at these nodes; see docs/cost-model.md)\n");
}

/* The names of a block's storage that is not on chip (cost/yosys.sh leaves it out). */
static int print_offchip(const struct gpu_config *c, const char *block)
{
    struct cost_list *l = calloc(1, sizeof *l);
    int rc = 0;
    if (!l)
        return 2;
    cost_list_init(l);
    if (est_block_instance(c, block, l)) {
        fprintf(stderr, "gpusim cost: no block '%s'\n", block);
        rc = 2;
    }
    for (uint32_t i = 0; !rc && i < l->n; i++)
        if (!l->it[i].onchip)
            printf("%s\n", l->it[i].name);
    free(l);
    return rc;
}

int cost_main(int argc, char **argv)
{
    struct copts o;
    struct gpu_config conf;
    struct est *e;
    char err[1024];
    int rc = parse(&o, argc, argv);
    if (rc) {
        cost_usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? 0 : 2;
    }
    if (est_load_config(&conf, o.config, o.sets, o.nsets, err, sizeof err)) {
        fprintf(stderr, "gpusim: %s\n", err);
        return 2;
    }
    if (o.offchip)
        return print_offchip(&conf, o.offchip);
    if (!(e = calloc(1, sizeof *e))) {
        fprintf(stderr, "gpusim cost: out of memory\n");
        return 2;
    }
    rc = est_build(e, &conf, err, sizeof err);
    if (rc)
        fprintf(stderr, "gpusim: %s\n", err);
    else
        report(e, &o);
    if (!rc && o.json && write_json(e, o.json, o.yosys))
        rc = -1;
    free(e);
    return rc ? 2 : 0;
}
