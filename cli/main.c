/*
 * main.c -- the gpusim command line.
 *
 *   gpusim list                         the bench kernels
 *   gpusim run NAME [options]           run one kernel, check its results, print statistics
 *   gpusim suite [options]              run every kernel, one table row each
 *   gpusim report [page] [options]      the architect's page: kernels x mechanisms, speed-up
 *                                       next to storage and area (cli/report_page.c)
 *   gpusim report vtw [options]         VTW's evaluation on the suite (cli/report_vtw.c)
 *   gpusim report vt [options]          VT's evaluation on the suite (cli/report_vt.c)
 *   gpusim report dws [options]         DWS's evaluation on the suite (cli/report_dws.c)
 *   gpusim report regroup [options]     thread regrouping's evaluation (cli/report_regroup.c)
 *   gpusim bbv NAME [options]           per-thread basic block vectors (cli/bbv.c)
 *   gpusim regroup-bench N              the thread regrouping algorithms' speed (cli/regroup.c)
 *   gpusim launch-bench [N]             the host time of an empty launch (cli/launch.c)
 *   gpusim sweep SPEC [options]         a cross product of configurations, sets, kernels and
 *                                       mechanisms, locally or on Slurm (cli/sweep.c)
 *   gpusim config [--doc] [options]     print the effective configuration (or its Markdown doc)
 *   gpusim res FILE.ptx [-o FILE.res]   record ptxas's registers per kernel next to the PTX (and
 *                                       of its VTW transforms, FILE.vtw.res, and its redirected
 *                                       forms, FILE.redir.res)
 *   gpusim xform --vtw[=hw|sw] | --redir[=FORM] FILE.ptx [--kernel NAME] [-o OUT]   a kernel
 *                                       VTW-transformed or redirected (001's reference redirection)
 *   gpusim exec [options] -- PROGRAM [ARGS...]   a CUDA program on the model (cli/exec.c;
 *                                       --apps FILE --app NAME: an application, cli/exec_app.c)
 *   gpusim ptx FILE.ptx [--kernel NAME] a kernel linked and printed back as PTX
 *   gpusim cost [options]               storage and area per block and mechanism (cost/)
 *   gpusim rtl-params [options]         the configuration as the RTL twins' parameters
 *   gpusim blocks [record]              the block registry (the recordable blocks)
 * options: --config FILE, --set KEY=VALUE (repeatable), --size test|default, --json FILE,
 *          --ptx FILE (run: use this PTX instead of bench/NAME/kernel.ptx), --launches CSV
 *          (run: a row of statistics per launch, the columns of gpusim exec --launches);
 *          report: --jobs N, --markdown FILE, --csv FILE, --kernels a,b, --cache DIR|none;
 *          report page: --mechs a,b, --out DIR, --apps FILE
 * Exit status: 0 results correct, 1 a result was wrong, 2 usage, configuration, PTX or API error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cost/cost_main.h"
#include "bench.h"
#include "base/config.h"
#include "base/json.h"
#include "gpu/cta.h"
#include "gpu/gpusim.h"
#include "gpu/blocks.h"
#include "func/gmem.h"
#include "ptx/ptx.h"
#include "ptx/ptx_res.h"
#include "ptx/redir.h"
#include "ptx/vtwx.h"
#include "cli.h"
#include "exec.h"
#include "sweep.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gpusim list\n"
        "       gpusim run NAME [--config FILE] [--set KEY=VALUE]... [--size test|default]\n"
        "                       [--json FILE] [--launches CSV] [--ptx FILE] [--record BLOCK=FILE]\n"
        "       gpusim suite [--config FILE] [--set KEY=VALUE]... [--size test|default] [--json FILE]\n"
        "                    [--markdown FILE] [--perf FILE] [--kernels a,b,...]\n"
        "       gpusim report [page] [--config FILE] [--set KEY=VALUE]... [--size test|default]\n"
        "                    [--kernels a,b,...] [--mechs a,b,...] [--jobs N] [--out DIR]\n"
        "                    [--cache DIR|none] [--apps FILE]\n"
        "                                    (the architect's page: every mechanism's speed-up\n"
        "                                     per divergence category next to its storage and\n"
        "                                     area, every result checked; DIR (default\n"
        "                                     gpusim-report)/page.html, .md, .csv and plots;\n"
        "                                     results cached in DIR (default $GPUSIM_CACHE or\n"
        "                                     ~/.cache/gpusim); mechanisms: gpusim report page\n"
        "                                     --mechs help lists them; --apps FILE: CUDA\n"
        "                                     programs (docs/apps.md) instead of the kernels,\n"
        "                                     or beside the --kernels named)\n"
        "       gpusim report vtw [--config FILE] [--set KEY=VALUE]... [--size test|default]\n"
        "                    [--kernels a,b,...] [--jobs N] [--markdown FILE] [--csv FILE]\n"
        "                                    (VTW's evaluation: 9 variants per kernel, the\n"
        "                                     ablation of Algorithm 1's keys among them, every\n"
        "                                     result checked; default docs/vtw.md, docs/vtw.csv)\n"
        "       gpusim report vt [--config FILE] [--set KEY=VALUE]... [--size test|default]\n"
        "                    [--jobs N] [--markdown FILE] [--csv FILE]\n"
        "                                    (VT's evaluation: Baseline/VT/MAX x LRR/GTO/two-level\n"
        "                                     and swap bandwidth, simt_depth = 4, every result\n"
        "                                     checked; default docs/vt.md, docs/vt.csv)\n"
        "       gpusim report dws [--config FILE] [--set KEY=VALUE]... [--size test|default]\n"
        "                    [--kernels a,b,...] [--jobs N] [--markdown FILE] [--csv FILE]\n"
        "                    [--cache DIR|none]\n"
        "                                    (DWS's evaluation: baseline + 5 variants, two\n"
        "                                     without the over-subdivision rule, on FILE\n"
        "                                     (gtx480) and configs/dws.cfg, with a\n"
        "                                     dws_wst_factor sweep 2/3/4 there, every result\n"
        "                                     checked; at the default size the DWS variants on\n"
        "                                     the divergent kernels only; results cached in DIR\n"
        "                                     (default $GPUSIM_CACHE or ~/.cache/gpusim);\n"
        "                                     default docs/dws.md, docs/dws.csv)\n"
        "       gpusim report regroup [--config FILE] [--set KEY=VALUE]... [--size test|default]\n"
        "                    [--markdown FILE] [--csv FILE]\n"
        "                                    (thread regrouping, 001 Section VII: Sorting, Greedy,\n"
        "                                     Greedy-Max by redirection and data layout, the BBV\n"
        "                                     estimates against the cycles; default\n"
        "                                     docs/regroup.md, docs/regroup.csv)\n"
        "       gpusim bbv NAME [--config FILE] [--set KEY=VALUE]... [--size test|default]\n"
        "                       [--out FILE]  (per-thread basic block vectors, 001 Section IV:\n"
        "                                     CSV to stdout or FILE.csv, else the binary form)\n"
        "       gpusim bbv NAME --estimate | --latency | --fit [options]   (001's estimates per\n"
        "                                     launch against the simulated cycles; block\n"
        "                                     latencies; equation 1's regression per block)\n"
        "       gpusim bbv --read FILE          (a binary BBV file printed as CSV)\n"
        "       gpusim regroup-bench N          (001 Section V's regrouping algorithms timed on\n"
        "                                     a synthetic launch of N threads, with estimates)\n"
        "       gpusim launch-bench [N] [--config FILE] [--set KEY=VALUE]...   (the host time\n"
        "                                     of N launches of an empty kernel; default 200)\n"
        "       gpusim sweep SPEC [--out DIR] [--jobs N] [--cache DIR] [--dry-run]\n"
        "                                    (the cross product SPEC names: configurations,\n"
        "                                     --set alternatives, kernels, mechanisms; every\n"
        "                                     point through GNU parallel, into DIR/results.csv;\n"
        "                                     docs/sweeps.md)\n"
        "       gpusim sweep SPEC --slurm [--slurm-opt OPT]... [--out DIR] [--jobs N] [--dry-run]\n"
        "                                    (a Slurm array job, one task a point, and a merge\n"
        "                                     job after it)\n"
        "       gpusim config [--doc] [--config FILE] [--set KEY=VALUE]...\n"
        "       gpusim rtl-params [--config FILE] [--set KEY=VALUE]...   (Verilog localparams)\n"
        "       gpusim ptx FILE.ptx [--kernel NAME]     (the linked kernels, printed as PTX)\n"
        "       gpusim res FILE.ptx [-o FILE.res]       (record ptxas -v's registers per kernel;\n"
        "                                    the model reads FILE.res next to FILE.ptx; without\n"
        "                                    -o also FILE.vtw.res: the VTW transforms' counts,\n"
        "                                    and FILE.redir.res: the redirected forms' counts)\n"
        "       gpusim xform --vtw[=hw|sw] | --redir[=FORM] FILE.ptx [--kernel NAME] [-o OUT]\n"
        "                                   (a kernel in VTW's wrapper while loop, or under\n"
        "                                    reference redirection, FORM b1|bp|bd + g1|g2|gn,\n"
        "                                    default b1g1; printed as PTX)\n"
        "       gpusim blocks [all|rtl|record] [--config FILE] [--set KEY=VALUE]...\n"
        "                                    (the block registry, or the names with a flag)\n"
        "       gpusim exec [--config FILE] [--set KEY=VALUE]... [--json FILE] [--launches CSV]\n"
        "                   [--summary FILE] [--ptx FILE] [--check [--ignore REGEX]...]\n"
        "                   -- PROGRAM [ARGS...]\n"
        "                                    (a CUDA program compiled with nvcc -cudart shared,\n"
        "                                     run on the model: per-launch statistics, a line per\n"
        "                                     launch on stderr; its exit status; --check: under\n"
        "                                     the functional and the timing model, compared;\n"
        "                                     docs/cuda.md)\n"
        "Runs CUDA kernels (as nvcc PTX) on a model of a GPU and checks their results.\n"
        "Exit status: 0 correct, 1 wrong result, 2 usage/configuration/PTX/API error.\n");
}

static int need_arg(int i, int argc, const char *opt)
{
    if (i + 1 >= argc) {
        fprintf(stderr, "gpusim: option %s needs a value\n", opt);
        return -1;
    }
    return 0;
}

static int parse_opt(struct opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--doc")) { o->doc = 1; return 0; }
    if (!strcmp(a, "--estimate")) { o->estimate = 1; return 0; }
    if (!strcmp(a, "--latency")) { o->latency = 1; return 0; }
    if (!strcmp(a, "--fit")) { o->fit = 1; return 0; }
    if (need_arg(*i, argc, a))
        return -1;
    if (!strcmp(a, "--config")) o->config = argv[++*i];
    else if (!strcmp(a, "--json")) o->json = argv[++*i];
    else if (!strcmp(a, "--launches")) o->launches = argv[++*i];
    else if (!strcmp(a, "--ptx")) o->ptx = argv[++*i];
    else if (!strcmp(a, "--markdown")) o->markdown = argv[++*i];
    else if (!strcmp(a, "--perf")) o->perf = argv[++*i];
    else if (!strcmp(a, "--record")) o->record = argv[++*i];
    else if (!strcmp(a, "--csv")) o->csv = argv[++*i];
    else if (!strcmp(a, "--out")) o->out = argv[++*i];
    else if (!strcmp(a, "--read")) o->read = argv[++*i];
    else if (!strcmp(a, "--cache")) o->cache = argv[++*i];
    else if (!strcmp(a, "--kernels")) o->kernels = argv[++*i];
    else if (!strcmp(a, "--mechs")) o->mechs = argv[++*i];
    else if (!strcmp(a, "--apps")) o->apps = argv[++*i];
    else if (!strcmp(a, "--jobs")) {
        char *end;
        long j = strtol(argv[++*i], &end, 10);
        if (*end || j < 1 || j > 64) {
            fprintf(stderr, "gpusim: --jobs takes 1..64, not '%s'\n", argv[*i]);
            return -1;
        }
        o->jobs = (int)j;
    }
    else if (!strcmp(a, "--bench-dir")) o->bench_dir = argv[++*i];
    else if (!strcmp(a, "--set")) {
        if (o->nsets == MAX_SETS) {
            fprintf(stderr, "gpusim: more than %d --set options\n", MAX_SETS);
            return -1;
        }
        o->sets[o->nsets++] = argv[++*i];
    } else if (!strcmp(a, "--size")) {
        const char *v = argv[++*i];
        if (!strcmp(v, "test")) o->size = BENCH_TEST;
        else if (!strcmp(v, "default")) o->size = BENCH_DEFAULT;
        else {
            fprintf(stderr, "gpusim: --size must be 'test' or 'default', not '%s'\n", v);
            return -1;
        }
    } else {
        fprintf(stderr, "gpusim: unknown option '%s'\n", a);
        return -1;
    }
    return 0;
}

static int parse_args(struct opts *o, int argc, char **argv)
{
    int i;
    memset(o, 0, sizeof *o);
    o->size = BENCH_DEFAULT;
    o->bench_dir = "bench";
    if (argc < 2)
        return -1;
    o->cmd = argv[1];
    for (i = 2; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] == '-') {
            if (parse_opt(o, argc, argv, &i))
                return -1;
        } else if (!o->name) {
            o->name = argv[i];
        } else {
            fprintf(stderr, "gpusim: unexpected argument '%s'\n", argv[i]);
            return -1;
        }
    }
    return 0;
}

/* An option of `gpusim CMD FILE.ptx [OPT VALUE]...`: what == NULL makes it a flag NAME or
   NAME=VALUE (*val = "" or VALUE). */
struct file_opt {
    const char *name, *what;
    const char **val;
};

/* The arguments of `gpusim CMD FILE.ptx [OPT VALUE]...`: 0, or 2 after saying what is wrong. */
static int file_and_opts(int argc, char **argv, const struct file_opt *opts, int nopts,
                         const char **file)
{
    for (int i = 2; i < argc; i++) {
        const struct file_opt *o = NULL;
        size_t l = 0;
        for (int k = 0; k < nopts && !o; k++) {
            l = strlen(opts[k].name);
            if (!strncmp(argv[i], opts[k].name, l)
                && (!argv[i][l] || (!opts[k].what && argv[i][l] == '=')))
                o = &opts[k];
        }
        if (o && !o->what)
            *o->val = argv[i][l] ? argv[i] + l + 1 : "";
        else if (o && i + 1 < argc)
            *o->val = argv[++i];
        else if (o)
            return fprintf(stderr, "gpusim %s: option %s needs %s\n", argv[1], o->name, o->what), 2;
        else if (argv[i][0] != '-' && !*file)
            *file = argv[i];
        else
            return fprintf(stderr, "gpusim %s: unexpected argument '%s'\n", argv[1], argv[i]),
                   usage(stderr), 2;
    }
    if (!*file)
        return fprintf(stderr, "gpusim %s: no PTX file given\n", argv[1]), usage(stderr), 2;
    return 0;
}

static int file_and_opt(int argc, char **argv, const char *opt, const char *what,
                        const char **file, const char **val)
{
    struct file_opt o = {opt, what, val};
    return file_and_opts(argc, argv, &o, 1, file);
}

/* gpusim ptx FILE.ptx [--kernel NAME]: each kernel linked (calls inlined, symbols placed) and
   printed back as PTX (model/ptx/ptx_print.c). */
static int cmd_ptx(int argc, char **argv)
{
    const char *file = NULL, *kernel = NULL;
    struct ptx_module m;
    struct ptx_prog p;
    char err[PTX_ERR_LEN];
    int rc = 0, n = 0;
    if (file_and_opt(argc, argv, "--kernel", "a kernel name", &file, &kernel))
        return 2;
    if (ptx_parse_file(file, &m, err, sizeof err))
        return fprintf(stderr, "gpusim: %s\n", err), 2;
    ptx_place_vars(&m, GM_BASE);      /* where a load would put .global/.const variables */
    for (uint32_t f = 0; f < m.nfuncs && !rc; f++) {
        if (!m.funcs[f].is_entry || (kernel && strcmp(kernel, m.funcs[f].name)))
            continue;
        if (ptx_link(&m, m.funcs[f].name, &p, err, sizeof err)
            || printf("%s", n++ ? "\n" : "") < 0 || ptx_print(stdout, &p, err, sizeof err)) {
            fprintf(stderr, "gpusim: %s\n", err);
            rc = 2;
        }
        ptx_prog_free(&p);
    }
    if (!rc && !n) {
        fprintf(stderr, "gpusim: %s: no kernel (.entry)%s%s%s\n", file, kernel ? " named '" : "",
                kernel ? kernel : "", kernel ? "'" : "");
        rc = 2;
    }
    ptx_module_free(&m);
    return rc;
}

/* gpusim res FILE.ptx [-o FILE.res]: run ptxas -v on the PTX and write its record (the
   registers, shared memory and spills per kernel that the model reads; model/ptx/ptx_res.h). */
/* One entry kernel transformed into `form`, compiled by ptxas: its counts into vr as entry
   NAME.hw | NAME.sw with the hash of the text compiled. 0, 1 when the transform refuses the
   kernel (said on stderr), -1 with err. */
static int res_vtw_one(const struct ptx_module *m, const char *name, enum vtwx_form form,
                       struct ptx_res *vr, char *err, size_t errlen)
{
    struct ptx_prog p;
    struct vtwx_info info;
    struct ptx_res *r = calloc(1, sizeof *r);
    char *text = NULL;
    int rc = -1;
    if (!r)
        return snprintf(err, errlen, "out of host memory"), -1;
    if (ptx_link(m, name, &p, err, errlen))
        return free(r), -1;
    if (vtwx_apply(&p, form, &info, err, errlen)) {
        fprintf(stderr, "gpusim res: %s %s form not recorded: %s\n", name,
                form == VTWX_HW ? "hw" : "sw", err);
        rc = 1;
    } else if ((text = vtwx_ptxas_text(&p, err, errlen)) &&
               !(rc = ptx_res_run_ptxas_text(text, strlen(text), m->target, r, err, errlen)) &&
               vr->nkernels < PTX_RES_MAX_KERNELS) {
        struct ptx_res_kernel *k = &vr->k[vr->nkernels++];
        *k = r->k[0];
        snprintf(k->name, sizeof k->name, "%.120s.%s", name, form == VTWX_HW ? "hw" : "sw");
        k->text_hash = ptx_res_hash(text, strlen(text));
        snprintf(vr->tool, sizeof vr->tool, "%s", r->tool);
        snprintf(vr->target, sizeof vr->target, "%s", r->target);
    }
    free(text);
    ptx_prog_free(&p);
    free(r);
    return rc;
}

/* FILE.vtw.res: ptxas's counts of every entry kernel's VTW transforms (hw with stand-ins for
   its two instructions, sw as is), read by the model under vtw = hw | sw (docs/ptx.md). */
static int res_vtw(const char *file, const struct ptx_module *m, char *err, size_t errlen)
{
    struct ptx_res *vr = calloc(1, sizeof *vr);
    char path[1024], what[600];
    FILE *f;
    int rc = 0;
    if (!vr)
        return snprintf(err, errlen, "out of host memory"), -1;
    vr->ptx_hash = m->text_hash;
    for (uint32_t i = 0; i < m->nfuncs && rc >= 0; i++)
        for (int form = VTWX_HW; m->funcs[i].is_entry && form <= VTWX_SW && rc >= 0; form++)
            rc = res_vtw_one(m, m->funcs[i].name, (enum vtwx_form)form, vr, err, errlen);
    vtwx_res_path(file, path, sizeof path);
    snprintf(what, sizeof what, "the VTW transforms of %.400s (entries NAME.hw: the hw form with "
             "stand-ins for\n# nexttbid / nextidxinblk; NAME.sw: the sw form; text_fnv1a: the "
             "text compiled)", strrchr(file, '/') ? strrchr(file, '/') + 1 : file);
    if (rc >= 0 && vr->nkernels && (f = fopen(path, "w"))) {
        ptx_res_write(vr, what, f);
        rc = fclose(f) ? (snprintf(err, errlen, "cannot write %.400s", path), -1) : 0;
    } else if (rc >= 0 && vr->nkernels)
        rc = -1, snprintf(err, errlen, "cannot write %.400s", path);
    free(vr);
    return rc < 0 ? -1 : 0;
}

/* One entry kernel redirected (model/ptx/redir.h) into form f, compiled by ptxas: its counts
   into rr as entry NAME.FORM with the hash of the text compiled. 0, 1 when the pass refuses
   the kernel (shared memory, barriers, ...: no entry, said once on stderr), -1 with err. */
static int res_redir_one(const struct ptx_module *m, const char *name, unsigned f,
                         struct ptx_res *rr, char *err, size_t errlen)
{
    struct ptx_prog p;
    struct ptx_res *r = calloc(1, sizeof *r);
    char *text = NULL;
    int64_t off;
    int rc = -1;
    if (!r)
        return snprintf(err, errlen, "out of host memory"), -1;
    if (ptx_link(m, name, &p, err, errlen))
        return free(r), -1;
    if (redir_apply(&p, f, &off, err, errlen)) {
        if (f == 0)
            fprintf(stderr, "gpusim res: %s not redirected: %s\n", name, err);
        rc = 1;
    } else if ((text = redir_ptxas_text(&p, err, errlen)) &&
               !(rc = ptx_res_run_ptxas_text(text, strlen(text), m->target, r, err, errlen)) &&
               rr->nkernels < PTX_RES_MAX_KERNELS) {
        struct ptx_res_kernel *k = &rr->k[rr->nkernels++];
        *k = r->k[0];
        snprintf(k->name, sizeof k->name, "%.120s.%s", name, redir_form_name(f));
        k->text_hash = ptx_res_hash(text, strlen(text));
        snprintf(rr->tool, sizeof rr->tool, "%s", r->tool);
        snprintf(rr->target, sizeof rr->target, "%s", r->target);
    }
    free(text);
    ptx_prog_free(&p);
    free(r);
    return rc;
}

/* FILE.redir.res: ptxas's counts of every entry kernel's redirected forms, read by the model
   when it runs a kernel under reference redirection (docs/ptx.md). None when no kernel of
   the file can be redirected. */
static int res_redir(const char *file, const struct ptx_module *m, char *err, size_t errlen)
{
    struct ptx_res *rr = calloc(1, sizeof *rr);
    char path[1024], what[800];
    FILE *f;
    int rc = 0;
    if (!rr)
        return snprintf(err, errlen, "out of host memory"), -1;
    rr->ptx_hash = m->text_hash;
    for (uint32_t i = 0; i < m->nfuncs && rc >= 0; i++)
        for (unsigned form = 0; m->funcs[i].is_entry && form < REDIR_NFORMS && rc >= 0; form++)
            if ((rc = res_redir_one(m, m->funcs[i].name, form, rr, err, errlen)) == 1)
                break;                  /* refused: every form is */
    redir_res_path(file, path, sizeof path);
    snprintf(what, sizeof what, "the redirected forms of %.400s (entries NAME.FORM, FORM the "
             "launch's shape class:\n# b1 1-D power-of-two block, bp power-of-two block, bd "
             "any block; g1 1-D, g2 2-D, gn any grid;\n# text_fnv1a: the text compiled)",
             strrchr(file, '/') ? strrchr(file, '/') + 1 : file);
    if (rc >= 0 && rr->nkernels && (f = fopen(path, "w"))) {
        ptx_res_write(rr, what, f);
        rc = fclose(f) ? (snprintf(err, errlen, "cannot write %.400s", path), -1) : 0;
    } else if (rc >= 0 && rr->nkernels)
        rc = -1, snprintf(err, errlen, "cannot write %.400s", path);
    free(rr);
    return rc < 0 ? -1 : 0;
}

static int cmd_res(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    char err[PTX_ERR_LEN], path[1024];
    struct ptx_module m;
    struct ptx_res *r;
    FILE *f;
    int rc;
    if (file_and_opt(argc, argv, "-o", "an output file ('-': standard output)", &file, &out))
        return 2;
    if (ptx_parse_file(file, &m, err, sizeof err))
        return fprintf(stderr, "gpusim: %s\n", err), 2;
    if (!(r = calloc(1, sizeof *r)))
        return ptx_module_free(&m), fprintf(stderr, "gpusim: out of host memory\n"), 2;
    rc = ptx_res_run_ptxas(file, m.target, r, err, sizeof err);
    r->ptx_hash = m.text_hash;
    ptx_place_vars(&m, GM_BASE);      /* as a load puts them: the transforms print addresses */
    if (!rc && !out && (res_vtw(file, &m, err, sizeof err) ||
                        res_redir(file, &m, err, sizeof err)))
        rc = -1;
    ptx_module_free(&m);
    if (rc)
        return free(r), fprintf(stderr, "gpusim res: %s\n", rc > 0 ? "ptxas is not installed "
                                "(it comes with the CUDA toolkit)" : err), 2;
    if (!out)
        ptx_res_path(file, path, sizeof path), out = path;
    f = strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f)
        return free(r), fprintf(stderr, "gpusim res: cannot write %s\n", out), 2;
    ptx_res_write(r, strrchr(file, '/') ? strrchr(file, '/') + 1 : file, f);
    rc = f != stdout && fclose(f) ? 2 : 0;
    free(r);
    return rc;
}

/* The kernel to transform: the one named, else the first .entry; -1 if none. */
static int find_entry(const struct ptx_module *m, const char *kernel)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f].is_entry && (!kernel || !strcmp(kernel, m->funcs[f].name)))
            return (int)f;
    return -1;
}

/* gpusim xform --vtw[=hw|sw] FILE.ptx [--kernel NAME] [-o OUT]: the kernel (without --kernel
   the first .entry) linked, transformed (VTW: model/ptx/vtwx.h) and printed as PTX. */
static int cmd_xform(int argc, char **argv)
{
    const char *file = NULL, *kernel = NULL, *out = NULL, *vtw = NULL, *redir = NULL;
    const struct file_opt fo[] = {{"--vtw", NULL, &vtw}, {"--redir", NULL, &redir},
                                  {"--kernel", "a kernel name", &kernel},
                                  {"-o", "an output file ('-': standard output)", &out}};
    struct ptx_module m;
    struct ptx_prog p;
    struct vtwx_info info;
    char err[PTX_ERR_LEN];
    int64_t off;
    unsigned rform = 0;
    if (file_and_opts(argc, argv, fo, 4, &file))
        return 2;
    if (!vtw == !redir)
        return fprintf(stderr, "gpusim xform: %s (--vtw[=hw|sw] or --redir[=FORM])\n",
                       vtw ? "one transform at a time" : "no transform given"),
               usage(stderr), 2;
    enum vtwx_form form = vtw && *vtw ? vtwx_form_by_name(vtw) : VTWX_HW;
    if (!form)
        return fprintf(stderr, "gpusim xform: --vtw=%s: the form is hw or sw\n", vtw), 2;
    while (redir && *redir && redir_form_name(rform) && strcmp(redir, redir_form_name(rform)))
        rform++;
    if (!redir_form_name(rform))
        return fprintf(stderr, "gpusim xform: --redir=%s: the form is b1, bp or bd followed "
                       "by g1, g2 or gn (e.g. b1g1)\n", redir), 2;
    if (ptx_parse_file(file, &m, err, sizeof err))
        return fprintf(stderr, "gpusim xform: %s\n", err), 2;
    ptx_place_vars(&m, GM_BASE);
    int f = find_entry(&m, kernel), rc = 2;
    if (f < 0)
        fprintf(stderr, "gpusim xform: %s: no kernel (.entry)%s%s%s\n", file,
                kernel ? " named '" : "", kernel ? kernel : "", kernel ? "'" : "");
    else if (ptx_link(&m, m.funcs[f].name, &p, err, sizeof err))
        fprintf(stderr, "gpusim xform: %s\n", err);
    else {
        FILE *o = NULL;
        if (vtw ? vtwx_apply(&p, form, &info, err, sizeof err) :
                  redir_apply(&p, rform, &off, err, sizeof err))
            fprintf(stderr, "gpusim xform: %s: %s\n", file, err);
        else if (!(o = out && strcmp(out, "-") ? fopen(out, "w") : stdout))
            fprintf(stderr, "gpusim xform: cannot write %s\n", out);
        else if (ptx_print(o, &p, err, sizeof err))
            fprintf(stderr, "gpusim xform: %s: %s\n", file, err);
        else
            rc = 0;
        if (o && o != stdout && fclose(o))
            rc = 2;
        ptx_prog_free(&p);
    }
    ptx_module_free(&m);
    return rc;
}

static int cmd_list(void)
{
    unsigned n, i;
    const struct bench *const *all = bench_all(&n);
    for (i = 0; i < n; i++)
        printf("%-14s %s\n", all[i]->name, all[i]->desc);
    all = bench_extra(&n);
    if (n)
        printf("\noutside the suite (gpusim run NAME; gpusim report regroup runs them):\n");
    for (i = 0; i < n; i++)
        printf("%-14s %s\n", all[i]->name, all[i]->desc);
    return 0;
}

/* Verilog parameters of the RTL blocks for a configuration (rtl/ and tb/ include this). */
static int cmd_rtl_params(const struct opts *o)
{
    struct gs_gpu *g;
    char err[1024];
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err)) {
        fprintf(stderr, "gpusim: %s\n", err);
        return 2;
    }
    printf("// generated by `gpusim rtl-params` from configuration '%s' -- do not edit\n",
           gs_config(g)->name);
    blk_rtl_params(gs_config(g), stdout);
    gs_destroy(g);
    return 0;
}

/* The block registry (model/base/blocks.def) with each block's instances on a configuration. */
static int cmd_blocks(const struct opts *o)
{
    static const char *const level[] = { "SM", "MEM", "GPU" };
    struct gs_gpu *g;
    char err[1024];
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    if (o->name) {
        if (strcmp(o->name, "rtl") && strcmp(o->name, "record") && strcmp(o->name, "all")) {
            fprintf(stderr, "gpusim blocks: list 'all', 'rtl' or 'record', not '%s'\n", o->name);
            return 2;
        }
        blk_names(o->name, stdout);
        return 0;
    }
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err)) {
        fprintf(stderr, "gpusim: %s\n", err);
        return 2;
    }
    printf("%-8s %-5s %-4s %-7s %-5s %9s %9s %9s  (configuration %s)\n", "block", "level",
           "rtl", "record", "err", "instances", "cfg B", "regs B", gs_config(g)->name);
    for (unsigned i = 0; i < n; i++)
        printf("%-8s %-5s %-4s %-7s %-5s %9u %9zu %9zu\n", all[i].name, level[all[i].level],
               all[i].rtl ? "yes" : "-", all[i].record ? "yes" : "-", all[i].err ? "yes" : "-",
               all[i].instances(gs_config(g)), all[i].cfg_size, all[i].regs_size);
    gs_destroy(g);
    return 0;
}

static int cmd_config(const struct opts *o)
{
    struct gs_gpu *g;
    char err[1024];
    if (o->doc) {
        conf_write_doc(stdout);
        return 0;
    }
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err)) {
        fprintf(stderr, "gpusim: %s\n", err);
        return 2;
    }
    conf_write(gs_config(g), stdout);
    gs_destroy(g);
    return 0;
}

/* The latency set as JSON members ("lat_alu": 18, ...), on the configuration's line. */
/* The latency set "lat_alu=18 lat_mad=20 ..." as an object of numbers. */
static void json_latencies(FILE *f, const char *lat)
{
    const char *p = lat;
    fprintf(f, ", \"latencies\": {");
    while (*p) {
        size_t key = strcspn(p, "="), val;
        char name[64];
        if (!p[key])
            break;
        val = strcspn(p + key + 1, " ");
        snprintf(name, sizeof name, "%.*s", (int)key, p);
        fputs(p == lat ? "" : ", ", f);
        json_str(f, name);
        fprintf(f, ": %.*s", (int)val, p + key + 1);
        p += key + 1 + val;
        p += *p == ' ';
    }
    fprintf(f, "}");
}

static void json_result(FILE *f, const struct opts *o, const char *name, const struct result *r)
{
    fprintf(f, "{\n  \"kernel\": ");
    json_str(f, name);
    fprintf(f, ",\n  \"config\": ");
    json_str(f, o->config ? o->config : "gtx480 (built-in)");
    if (r->lat[0])
        json_latencies(f, r->lat);
    fprintf(f, ",\n  \"size\": \"%s\",\n  \"correct\": %s,\n  \"message\": ",
            o->size == BENCH_TEST ? "test" : "default", r->rc == 0 ? "true" : "false");
    json_str(f, result_msg(r));
    fprintf(f, ",\n  \"stats\": ");
    gs_stats_json(&r->st, "  ", f);
    fprintf(f, "\n}");
}

static int write_json(const struct opts *o, const char *const *names, const struct result *rs, unsigned n,
                      int array)
{
    unsigned i;
    FILE *f = fopen(o->json, "w");
    if (!f) {
        perror(o->json);
        return -1;
    }
    if (array)
        fprintf(f, "[\n");
    for (i = 0; i < n; i++) {
        json_result(f, o, names[i], &rs[i]);
        fprintf(f, "%s\n", array && i + 1 < n ? "," : "");
    }
    if (array)
        fprintf(f, "]\n");
    return fclose(f);
}

static int cmd_run(const struct opts *o)
{
    const struct bench *b;
    struct opts ro;
    struct launch_csv csv = { NULL, 0 };
    struct result r;
    int rc;
    if (!o->name) {
        fprintf(stderr, "gpusim run: which kernel? (gpusim list shows them)\n");
        return 2;
    }
    if (!(b = bench_find(o->name))) {
        fprintf(stderr, "gpusim run: no bench kernel named '%s' (gpusim list shows them)\n", o->name);
        return 2;
    }
    if (o->launches) {               /* a row per launch, as gpusim exec --launches writes */
        if (!(csv.f = fopen(o->launches, "w"))) {
            fprintf(stderr, "gpusim run: cannot write %s\n", o->launches);
            return 2;
        }
        launch_csv_header(csv.f);
        ro = *o;
        ro.launch_csv = &csv;
        o = &ro;
    }
    run_one(o, b, &r);
    if (csv.f && fclose(csv.f)) {
        fprintf(stderr, "gpusim run: cannot write %s\n", o->launches);
        r.rc = 2;
    }
    printf("kernel %s (%s size): %s\n", b->name, o->size == BENCH_TEST ? "test" : "default",
           r.rc == 0 ? "CORRECT" : r.rc == 1 ? "WRONG RESULT" : "ERROR");
    if (r.rc)
        fprintf(stderr, "gpusim: %s: %s\n", b->name, result_msg(&r));
    if (r.lat[0]) {
        char label[96];
        snprintf(label, sizeof label, "latency set (%s)", r.cfg_name);
        printf("  %-28s %s\n", label, r.lat);
    }
    if (r.regs[0])
        printf("  registers: %s\n", r.regs);
    if (r.st.launches)
        gs_stats_text(&r.st, stdout);
    rc = o->json && write_json(o, &b->name, &r, 1, 0) ? 2 : r.rc;
    result_free(&r);
    return rc;
}

static void md_row(FILE *f, const struct bench *b, const struct result *r)
{
    const struct gs_stats *s = &r->st;
    double ipc = s->cycles ? (double)s->warp_insns / (double)s->cycles : 0.0;
    fprintf(f, "| %s | %s | %ux%ux%u x %ux%ux%u | %u | %u | %u (%s) | ", b->name, b->desc,
            s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2],
            s->regs_per_thread, s->shared_per_cta, s->occupancy,
            cta_limit_name((enum cta_limit)s->occupancy_limit));
    if (s->cycles)
        fprintf(f, "%llu | %.2f | ", (unsigned long long)s->cycles, ipc);
    else
        fprintf(f, "- | - | ");
    fprintf(f, "%llu | %.1f | %llu | %.1f | %.2f | %llu/%llu/%llu/%llu | ", (unsigned long long)s->ctas,
            100.0 * gs_lane_utilization(s), (unsigned long long)s->barriers,
            s->t.l1_hits + s->t.l1_misses ? 100.0 * (double)s->t.l1_hits / (double)(s->t.l1_hits + s->t.l1_misses) : 0.0,
            s->t.dwr_tbs ? s->t.dwr_sum / (double)s->t.dwr_tbs : 0.0,
            (unsigned long long)s->tb_inst_div[0],
            (unsigned long long)s->tb_inst_div[1], (unsigned long long)s->tb_inst_div[2],
            (unsigned long long)s->tb_inst_div[3]);
    if (s->cycles)
        fprintf(f, "%llu/%llu/%llu/%llu |%s\n", (unsigned long long)s->tb_cycle_div[0],
                (unsigned long long)s->tb_cycle_div[1], (unsigned long long)s->tb_cycle_div[2],
                (unsigned long long)s->tb_cycle_div[3], r->rc ? " WRONG" : "");
    else
        fprintf(f, "- |%s\n", r->rc ? " WRONG" : "");
}

static void md_categories(FILE *f, const struct bench *const *all, const struct result *rs, unsigned n)
{
    unsigned c, i;
    fprintf(f, "\n## Categories\n\nEach category of issue 4, its kernels, the measured rule that "
            "shows the behaviour, and whether this run shows it (yes / no).\n\n");
    for (c = 0; c < C_COUNT; c++) {
        unsigned yes = 0;
        fprintf(f, "- **%s** (rule: %s):", cats[c].title, cats[c].rule);
        for (i = 0; i < n; i++) {
            if (!cat_has((enum cat)c, all[i]->name))
                continue;
            yes += cat_shows((enum cat)c, &rs[i].st);
            fprintf(f, " %s (%s)", all[i]->name, cat_shows((enum cat)c, &rs[i].st) ? "yes" : "no");
        }
        fprintf(f, " -- %u kernels show it%s\n", yes, yes >= 2 ? "" : " (FEWER THAN TWO)");
    }
}

/* The docs/bench.md table (make bench). */
static int write_markdown(const struct opts *o, const struct bench *const *all, const struct result *rs,
                          unsigned n)
{
    unsigned i;
    FILE *f = fopen(o->markdown, "w");
    if (!f) {
        perror(o->markdown);
        return -1;
    }
    fprintf(f, "# Bench kernels\n\nGenerated by `make bench` (`build/gpusim suite --size %s "
            "--markdown docs/bench.md`) on %s; every row's results were checked against its C "
            "reference.\nColumns: grid x block of the launch with the most CTAs; registers per "
            "thread (ptxas's recorded count, bench/*/kernel.res; docs/ptx.md \"Register counts\") "
            "and shared memory per CTA from the PTX; "
            "resident CTAs per SM and the limit that binds; cycles and warp-IPC (timing model; "
            "'-' in functional mode); CTAs run; SIMD lane utilisation; barrier arrivals (warp "
            "bar.sync instructions); L1 data-cache hit rate; DWR (000_0da6b8b480bd0740.txt "
            "Section 3, over the first N - R finishing TBs); TBs whose instruction / "
            "cycle divergence exceeds 50/25/10/5 %% (000 Table 1: max minus "
            "min over the TB's warps, relative to the min).\nEach kernel is also an ordinary "
            "CUDA program, bench/NAME/app (bench/NAME/main.cu: the kernel and its host part over "
            "the CUDA runtime): `gpusim exec -- bench/NAME/app default` gives the same "
            "per-launch statistics as `gpusim run NAME` (docs/cuda.md \"The bench kernels as "
            "CUDA programs\").\n\n",
            o->size == BENCH_TEST ? "test" : "default", o->config ? o->config : "gtx480");
    fprintf(f, "| kernel | what it computes; divergence it shows | grid x block | regs | shared B | "
            "CTAs/SM (limit) | cycles | warp IPC | CTAs | lane util %% | barriers | L1 hit %% | DWR | "
            "TBs inst div >50/25/10/5%% | TBs cycle div >50/25/10/5%% |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < n; i++)
        md_row(f, all[i], &rs[i]);
    md_categories(f, all, rs, n);
    return fclose(f);
}

#define PERF_NOTES "<!-- notes below: kept by make bench-speed -->"

/* Issue 17's speed targets (docs/performance.md). */
#define PERF_COMPUTE 2e6               /* warp instructions per host second, compute-bound */
#define PERF_MEMORY  3e5               /* simulated cycles per host second, memory-bound */
#define PERF_LOOP    5e6               /* simulated cycles per host second, sloop and dloop */

/* One kernel's row of docs/performance.md: its kind, rates, the rate its kind is judged by
   against the target, and where the host time went (SM cycles evaluated per cycle, host time
   per evaluated SM cycle). */
static void perf_row(FILE *f, const char *name, const struct result *r)
{
    const struct gs_stats *s = &r->st;
    double util = s->cycles && s->t.dram_channels ?
                  (double)s->t.dram_busy_cycles / ((double)s->cycles * s->t.dram_channels) : 0;
    double h = s->host_seconds > 0 ? s->host_seconds : 1e-9, busy = 0, awake, frac;
    int loop = !strcmp(name, "sloop") || !strcmp(name, "dloop");
    const char *kind = loop ? "loop" : util > 0.3 ? "memory" : "compute";
    for (uint32_t i = 0; i < s->t.nsms && i < GS_MAX_SMS; i++)
        busy += (double)s->t.sm_busy_cycles[i];
    awake = busy - (double)s->t.sm_cycles_asleep;
    frac = kind[0] == 'c' ? (double)s->warp_insns / h / PERF_COMPUTE :
           (double)s->cycles / h / (loop ? PERF_LOOP : PERF_MEMORY);
    fprintf(f, "| %s | %s | %llu | %llu | %.3f | %.0f | %.0f | %s%.2f | %.2f | %.2f |%s\n", name,
            kind, (unsigned long long)s->warp_insns, (unsigned long long)s->cycles,
            s->host_seconds, (double)s->warp_insns / h, (double)s->cycles / h,
            frac >= 1 ? "met " : "", frac, s->cycles ? awake / (double)s->cycles : 0,
            awake > 0 ? 1e6 * s->host_seconds / awake : 0, r->rc ? " WRONG RESULT" : "");
}

/* docs/performance.md (make bench-speed): the model's own speed per kernel, then the notes
   that follow the PERF_NOTES line of the previous file (measurements made by hand). */
static int write_perf(const struct opts *o, const struct bench *const *all, const struct result *rs,
                      unsigned n)
{
    unsigned i;
    double wi = 0, cy = 0, hs = 0;
    char *notes = file_tail(o->perf, PERF_NOTES);
    FILE *f = fopen(o->perf, "w");
    if (!f) {
        perror(o->perf);
        free(notes);
        return -1;
    }
    fprintf(f, "# Simulation speed\n\nGenerated by `make bench-speed` (`build/gpusim suite --size %s "
            "--config %s --set model=timing --perf docs/performance.md`): every bench kernel on the "
            "full %s model, one host core (the simulator is single-threaded), gcc -O2, on the "
            "development machine (2 cores, Debian 12). Host time is wall-clock time spent inside "
            "launches (`host_seconds`), so set-up and result checks are excluded. A kernel is "
            "called memory-bound here when the DRAM data bus is busy more than 30%% of its cycles; "
            "sloop and dloop, the single-warp loops of 003, are their own kind.\n\n"
            "Targets (issue 17): compute-bound kernels >= %.0f warp instructions per host second; "
            "memory-bound kernels >= %.0f simulated cycles per host second; sloop and dloop >= %.0f "
            "simulated cycles per host second. `target` is the rate the kind is judged by, as a "
            "fraction of its target. Where the time goes: `SMs awake` is the SM cycles evaluated "
            "per simulated cycle (the SMs' busy cycles less the cycles they slept, time_skip), and "
            "`us/SM cycle` the host microseconds per evaluated SM cycle (all host time, the memory "
            "system's included, over those cycles).\n\n"
            "| kernel | kind | warp insns | cycles | host s | warp insns / s | cycles / s | target | "
            "SMs awake | us/SM cycle |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n", o->size == BENCH_TEST ? "test" : "default",
            o->config ? o->config : "configs/gtx480.cfg", o->config ? o->config : "gtx480",
            PERF_COMPUTE, PERF_MEMORY, PERF_LOOP);
    for (i = 0; i < n; i++) {
        perf_row(f, all[i]->name, &rs[i]);
        wi += (double)rs[i].st.warp_insns; cy += (double)rs[i].st.cycles;
        hs += rs[i].st.host_seconds;
    }
    fprintf(f, "| **all** | | %.0f | %.0f | %.3f | %.0f | %.0f | | | |\n", wi, cy, hs,
            hs > 0 ? wi / hs : 0, hs > 0 ? cy / hs : 0);
    if (notes)
        fprintf(f, "\n%s", notes);
    free(notes);
    return fclose(f);
}

/* The suite's header line: the configuration and the latency set every kernel runs with
   (a configuration error is reported by each kernel's run). */
static void suite_latencies(const struct opts *o)
{
    struct gs_gpu *g;
    char err[512], lat[512];
    if (gs_init(&g, o->config, o->sets, o->nsets, err, sizeof err))
        return;
    latency_set(gs_config(g), lat, sizeof lat);
    if (lat[0])
        printf("configuration %s, latency set: %s\n", gs_config(g)->name, lat);
    gs_destroy(g);
}

/* One kernel's row of the suite table; cycles and warp-IPC (warp instructions per cycle, all
   SMs) only from the timing model ("-" from the functional one). */
static void suite_row(const char *name, const struct result *r)
{
    char cyc[24] = "-", ipc[16] = "-";
    if (r->st.cycles) {
        snprintf(cyc, sizeof cyc, "%llu", (unsigned long long)r->st.cycles);
        snprintf(ipc, sizeof ipc, "%.2f", (double)r->st.warp_insns / (double)r->st.cycles);
    }
    printf("%-12s %-7s %8llu %12s %6s %14llu %14llu %10llu %7.1f%% %7.2f\n", name,
           r->rc == 0 ? "ok" : r->rc == 1 ? "WRONG" : "ERROR",
           (unsigned long long)r->st.launches, cyc, ipc, (unsigned long long)r->st.warp_insns,
           (unsigned long long)r->st.thread_insns, (unsigned long long)r->st.divergent_branches,
           100.0 * gs_lane_utilization(&r->st), r->st.host_seconds);
}

static int cmd_suite(const struct opts *o)
{
    unsigned n, i, bad = 0;
    const struct bench *const *all = bench_all(&n);
    const struct bench **sel = NULL;
    struct result *rs;
    const char **names;
    char err[256];
    int worst = 0;
    if (o->kernels) {                 /* --kernels a,b: those, in that order */
        if (kernels_select(o->kernels, 0, &sel, &n, err, sizeof err)) {
            fprintf(stderr, "gpusim suite: %s\n", err);
            return 2;
        }
        all = sel;
    }
    rs = calloc(n ? n : 1, sizeof *rs);
    names = calloc(n ? n : 1, sizeof *names);
    if (!rs || !names) {
        free(rs); free(names); free(sel);
        return 2;
    }
    suite_latencies(o);
    printf("%-12s %-7s %8s %12s %6s %14s %14s %10s %8s %7s\n", "kernel", "result", "launches",
           "cycles", "IPC", "warp insns", "thread insns", "div.branch", "lane%", "host s");
    for (i = 0; i < n; i++) {
        struct result *r = &rs[i];
        names[i] = all[i]->name;
        run_one(o, all[i], r);
        suite_row(all[i]->name, r);
        fflush(stdout);
        if (r->rc) {
            fprintf(stderr, "gpusim: %s: %s\n", all[i]->name, result_msg(r));
            bad++;
            if (r->rc > worst)
                worst = r->rc;
        }
    }
    printf("%u kernels, %u correct, %u failed\n", n, n - bad, bad);
    if (o->json && write_json(o, names, rs, n, 1))
        worst = 2;
    if (o->markdown && write_markdown(o, all, rs, n))
        worst = 2;
    if (o->perf && write_perf(o, all, rs, n))
        worst = 2;
    for (i = 0; i < n; i++)
        result_free(&rs[i]);
    free(rs);
    free(names);
    free(sel);
    return worst;
}

int main(int argc, char **argv)
{
    struct opts o;
    if (argc > 1 && !strcmp(argv[1], "exec")) return cmd_exec(argc, argv);   /* before --help:
                                                  the program's own arguments may hold one */
    for (int i = 1; i < argc; i++)            /* --help anywhere (not cost's own options) */
        if ((!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) && strcmp(argv[1], "cost")) {
            usage(stdout);
            return 0;
        }
    if (argc > 1 && !strcmp(argv[1], "cost")) return cost_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "ptx")) return cmd_ptx(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "res")) return cmd_res(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "xform")) return cmd_xform(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "regroup-bench")) return cmd_regroup_bench(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "sweep")) return cmd_sweep(argc, argv);
    if (parse_args(&o, argc, argv)) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(o.cmd, "list")) return cmd_list();
    if (!strcmp(o.cmd, "run")) return cmd_run(&o);
    if (!strcmp(o.cmd, "suite")) return cmd_suite(&o);
    if (!strcmp(o.cmd, "report")) return cmd_report(&o);
    if (!strcmp(o.cmd, "bbv")) return cmd_bbv(&o);
    if (!strcmp(o.cmd, "config")) return cmd_config(&o);
    if (!strcmp(o.cmd, "rtl-params")) return cmd_rtl_params(&o);
    if (!strcmp(o.cmd, "blocks")) return cmd_blocks(&o);
    if (!strcmp(o.cmd, "launch-bench")) return cmd_launch_bench(&o);
    if (!strcmp(o.cmd, "help") || !strcmp(o.cmd, "--help") || !strcmp(o.cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "gpusim: unknown command '%s'\n", o.cmd);
    usage(stderr);
    return 2;
}
