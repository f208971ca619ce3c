/*
 * stats.c -- statistics generated from the list (base/stats_list.h, see stats.h): the table,
 * the merging of launches and SMs, JSON for scripts and a table for people.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "base/json.h"
#include "cta.h"
#include "kres.h"
#include "sm/sm.h"
#include "sm/sm_dws.h"
#include "stats.h"

_Static_assert(ISS_NCLASS == GS_STALL_KINDS, "one scheduler-cycle counter per issue class");
_Static_assert((int)ISS_ISSUED == GS_STALL_ISSUED && (int)ISS_NO_WARP == GS_STALL_NO_WARP &&
               (int)ISS_IBUF == GS_STALL_IBUF && (int)ISS_SHORT_DEP == GS_STALL_SHORT_DEP &&
               (int)ISS_LONG_MEM == GS_STALL_LONG_MEM && (int)ISS_STRUCT == GS_STALL_STRUCT &&
               (int)ISS_BARRIER == GS_STALL_BARRIER && (int)ISS_STACK == GS_STALL_STACK,
               "the scheduler-cycle outcomes are the issue classes, in their order");

double gs_lane_utilization(const struct gs_stats *s)
{
    return s->warp_insns ? (double)s->thread_insns / (32.0 * (double)s->warp_insns) : 0.0;
}

/* ---- names and helpers the list refers to */

/* The scheduler-cycle outcomes (stats.h enum gs_stall): the issue stage's classes. */
const char *const gs_stall_names[GS_STALL_KINDS] = {
    "issued", "no_warp", "ibuffer_empty", "short_dependence", "long_memory_dependence",
    "structural", "barrier", "simt_stack"
};

/* DWS's refused split chances by reason (sm/sm.h, sm_dws.c). */
#define gs_dws_bref_names sm_dws_bref_names
#define gs_dws_mref_names sm_dws_mref_names
_Static_assert(SM_BR_N == GS_DWS_BREF && SM_MR_N == GS_DWS_MREF, "a counter per DWS reason");

/* VTW's scheduler statistics (sm/sm_vtw.c). */
static const char *const gs_vtw_class_names[GS_VTW_CLASSES] = {
    "diffiter_high", "sameiter", "diffiter_low", "barrier", "slow"};
static const char *const gs_vtw_decide_names[GS_VTW_DECIDE] = {
    "class", "tb_rank", "warp_rank", "oldest", "alone"};

static const char *gs_regs_source_name(uint64_t v)
{
    return kres_src_name((unsigned)v);
}

static const char *gs_limit_name(uint64_t v)
{
    return cta_limit_name((enum cta_limit)v);
}

static double gs_ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }
static double gs_fratio(double a, uint64_t b) { return b ? a / (double)b : 0.0; }

/* ---- the table */

#define GS_OUT_NUM      .out = GSO_NUM
#define GS_OUT_ARR      .out = GSO_ARR
#define GS_OUT_PERSM    .out = GSO_PERSM
#define GS_OUT_OBJ(nm)  .out = GSO_OBJ, .names = nm
#define GS_OUT_ENUM(fn) .out = GSO_ENUM, .name_of = fn
#define GS_AT_G(f)    ((struct gs_stats *)0)->f
#define GS_AT_T(f)    ((struct gs_stats *)0)->t.f
#define GS_AT_S(f)    ((struct gs_stats *)0)->t.f
#define GS_AT_I(f)    ((struct gs_stats *)0)->t.sm_##f
#define GS_OFF_G(f)   offsetof(struct gs_stats, f)
#define GS_OFF_T(f)   offsetof(struct gs_stats, t.f)
#define GS_OFF_S(f)   offsetof(struct gs_stats, t.f)
#define GS_OFF_I(f)   offsetof(struct gs_stats, t.sm_##f)
#define GS_SMOFF_G(f) -1
#define GS_SMOFF_T(f) -1
#define GS_SMOFF_S(f) (int32_t)offsetof(struct sm_stats, f)
#define GS_SMOFF_I(f) (int32_t)offsetof(struct sm_stats, f)

#define GS_DESC_C(sc, ty, f, dim, mg, out, js, tx) \
    { .json = js, .text = tx, .name = #f, .scope = GSS_##sc, .type = GST_##ty, \
      .merge = GSM_##mg, GS_OUT_##out, .off = GS_OFF_##sc(f), \
      .n = sizeof(GS_AT_##sc(f)) / sizeof(GS_TYPE_##ty), .sm_off = GS_SMOFF_##sc(f) },
#define GS_DESC_D(w, id, kd, js, tx, expr) \
    { .json = js, .text = tx, .name = #id, .scope = GSS_##w, .out = GSO_DERIVED, \
      .kind = GSK_##kd, .sm_off = -1, .value = gs_d_##id },
#define GS_DERIVED_FN(w, id, kd, js, tx, expr) \
    static double gs_d_##id(const struct gs_stats *s) { return (expr); }

GS_STAT_LIST(GS_NONE, GS_DERIVED_FN)

const struct gs_stat_desc gs_stat_descs[] = { GS_STAT_LIST(GS_DESC_C, GS_DESC_D) };
const uint32_t gs_stat_ndescs = sizeof gs_stat_descs / sizeof gs_stat_descs[0];

/* ---- merging */

static uint32_t elem_size(const struct gs_stat_desc *d)
{
    return d->type == GST_u32 ? 4 : 8;
}

#define GS_MERGE_AS(T) do { \
        T *a = (T *)dst; const T *b = (const T *)src; \
        for (i = 0; i < n; i++) \
            a[i] = d->merge == GSM_SUM ? a[i] + b[i] : d->merge == GSM_MAX && a[i] >= b[i] ? a[i] : b[i]; \
    } while (0)

static void merge(const struct gs_stat_desc *d, void *dst, const void *src, uint32_t n)
{
    uint32_t i;
    if (d->type == GST_u64)
        GS_MERGE_AS(uint64_t);
    else if (d->type == GST_u32)
        GS_MERGE_AS(uint32_t);
    else
        GS_MERGE_AS(double);
}

static uint64_t grid_cells(const struct gs_stats *s)
{
    return (uint64_t)s->grid[0] * s->grid[1] * s->grid[2];
}

void gs_stats_add(struct gs_stats *t, const struct gs_stats *s)
{
    int geom = grid_cells(s) > grid_cells(t);
    uint32_t k;
    for (k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        if (d->out == GSO_DERIVED || (d->merge == GSM_GEOM && !geom))
            continue;
        merge(d, (char *)t + d->off, (const char *)s + d->off, d->n);
    }
}

void gs_stats_add_sm(struct gs_stats *g, const struct sm_stats *sm, uint32_t i)
{
    uint32_t k;
    for (k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        const char *src = (const char *)sm + d->sm_off;
        if (d->scope == GSS_S && d->out != GSO_DERIVED)
            merge(d, (char *)g + d->off, src, d->n);
        else if (d->scope == GSS_I && d->out != GSO_DERIVED && i < d->n)
            merge(d, (char *)g + d->off + i * elem_size(d), src, 1);
    }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    while (n--)
        h = (h ^ *c++) * 0x100000001b3ull;
    return h;
}

uint64_t gs_stats_layout(void)
{
    uint64_t h = 0xcbf29ce484222325ull, size = sizeof(struct gs_stats);
    uint32_t k;
    h = fnv(h, &size, sizeof size);
    for (k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        uint32_t v[4] = {d->off, d->n, d->type, d->out};
        h = fnv(h, d->name, strlen(d->name) + 1);
        h = fnv(h, v, sizeof v);
    }
    return h;
}

/* ---- output */

/* Is the entry written for these statistics (timing entries only when cycles != 0)? */
static int shown(const struct gs_stat_desc *d, const struct gs_stats *s)
{
    return d->scope == GSS_G || s->cycles;
}

static uint32_t elems(const struct gs_stat_desc *d, const struct gs_stats *s)
{
    return d->out == GSO_PERSM && s->t.nsms < d->n ? s->t.nsms : d->n;
}

static uint64_t get_u(const struct gs_stat_desc *d, const struct gs_stats *s, uint32_t i)
{
    const char *p = (const char *)s + d->off;
    return d->type == GST_u32 ? ((const uint32_t *)p)[i] : ((const uint64_t *)p)[i];
}

static double get_f(const struct gs_stat_desc *d, const struct gs_stats *s, uint32_t i)
{
    return ((const double *)((const char *)s + d->off))[i];
}

/* One element: integers as integers, doubles with 6 (JSON) or 3 (text) decimals. */
static void put(FILE *f, const struct gs_stat_desc *d, const struct gs_stats *s, uint32_t i,
                int text)
{
    if (d->type == GST_f64)
        fprintf(f, text ? "%.3f" : "%.6f", get_f(d, s, i));
    else
        fprintf(f, "%llu", (unsigned long long)get_u(d, s, i));
}

static void json_value(const struct gs_stat_desc *d, const struct gs_stats *s, FILE *f)
{
    uint32_t i, n = elems(d, s);
    switch (d->out) {
    case GSO_DERIVED: fprintf(f, "%.6f", d->value(s)); break;
    case GSO_ENUM:    json_str(f, d->name_of(get_u(d, s, 0))); break;
    case GSO_NUM:     put(f, d, s, 0, 0); break;
    case GSO_OBJ:
        fprintf(f, "{");
        for (i = 0; i < n; i++) {
            fputs(i ? ", " : "", f);
            json_str(f, d->names[i]);
            fputs(": ", f);
            put(f, d, s, i, 0);
        }
        fprintf(f, "}");
        break;
    default:
        fprintf(f, "[");
        for (i = 0; i < n; i++) {
            fprintf(f, "%s", i ? ", " : "");
            put(f, d, s, i, 0);
        }
        fprintf(f, "]");
        break;
    }
}

void gs_stats_json(const struct gs_stats *s, const char *indent, FILE *f)
{
    const char *in = indent ? indent : "", *sep = "";
    uint32_t k;
    fprintf(f, "{\n");
    for (k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        if (!d->json || !shown(d, s))
            continue;
        fprintf(f, "%s%s  ", sep, in);
        json_str(f, d->json);
        fputs(": ", f);
        json_value(d, s, f);
        sep = ",\n";
    }
    fprintf(f, "\n%s}", in);
}

static void text_derived(const struct gs_stat_desc *d, const struct gs_stats *s, FILE *f)
{
    double v = d->value(s);
    if (d->kind == GSK_PCT)
        fprintf(f, "%13.1f%%", 100.0 * v);
    else
        fprintf(f, d->kind == GSK_RATE ? "%14.0f" : "%14.3f", v);
}

static void text_value(const struct gs_stat_desc *d, const struct gs_stats *s, FILE *f)
{
    uint32_t i, n = elems(d, s);
    uint64_t total = 0;
    switch (d->out) {
    case GSO_DERIVED: text_derived(d, s, f); break;
    case GSO_ENUM:    fprintf(f, "%14s", d->name_of(get_u(d, s, 0))); break;
    case GSO_NUM:
        if (d->type == GST_f64)
            fprintf(f, "%14.3f", get_f(d, s, 0));
        else
            fprintf(f, "%14llu", (unsigned long long)get_u(d, s, 0));
        break;
    case GSO_OBJ:                         /* each element with its share of the total */
        for (i = 0; i < n; i++)
            total += get_u(d, s, i);
        for (i = 0; i < n; i++)
            fprintf(f, "%s%s %llu (%.1f%%)", i ? ", " : "", d->names[i],
                    (unsigned long long)get_u(d, s, i), 100.0 * gs_ratio(get_u(d, s, i), total));
        break;
    default:
        for (i = 0; i < n; i++) {
            fprintf(f, "%s", i ? " " : "");
            put(f, d, s, i, 1);
        }
        break;
    }
}

void gs_stats_text(const struct gs_stats *s, FILE *f)
{
    uint32_t k;
    for (k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        if (!shown(d, s))
            continue;
        fprintf(f, "  %-28s ", d->text);
        text_value(d, s, f);
        fprintf(f, "\n");
    }
}

/* ---- CSV: one column per element of every JSON entry but the per-SM arrays */

static int csv_col(const struct gs_stat_desc *d)
{
    return d->json && d->out != GSO_PERSM;
}

void gs_stats_csv_header(FILE *f)
{
    const char *sep = "";
    uint32_t k, i;
    for (k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        if (!csv_col(d))
            continue;
        if (d->out == GSO_OBJ || d->out == GSO_ARR)
            for (i = 0; i < d->n; i++) {
                if (d->out == GSO_OBJ)
                    fprintf(f, "%s%s_%s", sep, d->json, d->names[i]);
                else
                    fprintf(f, "%s%s_%u", sep, d->json, i);
                sep = ",";
            }
        else
            fprintf(f, "%s%s", sep, d->json);
        sep = ",";
    }
    fprintf(f, "\n");
}

void gs_stats_csv_row(const struct gs_stats *s, FILE *f)
{
    const char *sep = "";
    uint32_t k, i;
    for (k = 0; k < gs_stat_ndescs; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        if (!csv_col(d))
            continue;
        fputs(sep, f);
        sep = ",";
        if (d->out == GSO_DERIVED)
            fprintf(f, "%.6f", d->value(s));
        else if (d->out == GSO_ENUM)
            fputs(d->name_of(get_u(d, s, 0)), f);
        else
            for (i = 0; i < d->n; i++) {
                fputs(i ? "," : "", f);
                put(f, d, s, i, 0);
            }
    }
    fprintf(f, "\n");
}
