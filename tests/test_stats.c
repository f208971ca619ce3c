/*
 * test_stats.c -- the statistics list (base/stats_list.h) and what is generated from it agree:
 * the table has every entry, in order, at the right place, and no struct field lies outside
 * the list; the JSON has every JSON entry with its value, in list order; the text table has
 * every label; adding two launches merges every element of every counter by its rule;
 * adding SMs merges every per-SM counter. The checkers name the first entry that disagrees,
 * and the last tests show that they do when one entry is dropped from one consumer.
 *
 * The test reads the list itself (its own expansions of GS_STAT_LIST), not stats.c's table.
 */
#include "testutil.h"
#include "gpu/gpusim.h"             /* first: this unit sees the public header's text of the types */
#include "gpu/stats.h"
#include "sm/sm.h"

/* A counter's lvalue in struct gs_stats x, by scope (as the list defines them). */
#define AT_G(x, f) (x).f
#define AT_T(x, f) (x).t.f
#define AT_S(x, f) (x).t.f
#define AT_I(x, f) (x).t.sm_##f
#define SMOFF_G(f) -1
#define SMOFF_T(f) -1
#define SMOFF_S(f) (long)offsetof(struct sm_stats, f)
#define SMOFF_I(f) (long)offsetof(struct sm_stats, f)
#define OUTK_NUM       0
#define OUTK_ARR       1
#define OUTK_PERSM     2
#define OUTK_OBJ(nm)   3
#define OUTK_ENUM(fn)  4

/* Derived figures, from the list's expressions (helpers as stats.c defines them). */
static double gs_ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }
static double gs_fratio(double a, uint64_t b) { return b ? a / (double)b : 0.0; }
#define D_FN(w, id, kd, js, tx, expr) static double want_##id(const struct gs_stats *s) { return (expr); }
GS_STAT_LIST(GS_NONE, D_FN)

struct entry {                           /* one list entry, as the test reads the list */
    const char *name, *json, *text;
    int derived, scope, type, merge, out;   /* derived: out = enum gs_kind */
    size_t off, bytes;                   /* counters: place in struct gs_stats */
    long sm_off;                         /* scopes S, I: place in struct sm_stats; else -1 */
    double (*value)(const struct gs_stats *);   /* derived */
};

#define E_C(sc, ty, f, dim, mg, out, js, tx) \
    { #f, js, tx, 0, GSS_##sc, GST_##ty, GSM_##mg, OUTK_##out, \
      (size_t)((char *)&AT_##sc(*(struct gs_stats *)0, f) - (char *)0), \
      sizeof(AT_##sc(*(struct gs_stats *)0, f)), SMOFF_##sc(f), NULL },
#define E_D(w, id, kd, js, tx, expr) { #id, js, tx, 1, GSS_##w, 0, 0, GSK_##kd, 0, 0, -1, want_##id },
static const struct entry list[] = { GS_STAT_LIST(E_C, E_D) };
#define NLIST (sizeof list / sizeof list[0])

static size_t esize(const struct entry *e) { return e->type == GST_u32 ? 4 : 8; }

static uint64_t ival(uint32_t seed, uint32_t k, uint32_t i)
{
    return (uint64_t)seed * 100000u + k * 100u + i + 1;
}

/* Every element of every counter gets its own value (seed, entry, element). */
static void fill(struct gs_stats *s, uint32_t seed)
{
    uint32_t k, i;
    memset(s, 0, sizeof *s);
    for (k = 0; k < NLIST; k++) {
        const struct entry *e = &list[k];
        char *p = (char *)s + e->off;
        for (i = 0; !e->derived && i < e->bytes / esize(e); i++) {
            if (e->type == GST_u64) ((uint64_t *)p)[i] = ival(seed, k, i);
            if (e->type == GST_u32) ((uint32_t *)p)[i] = (uint32_t)ival(seed, k, i);
            if (e->type == GST_f64) ((double *)p)[i] = (double)ival(seed, k, i) + 0.25;
        }
    }
    s->t.nsms = 3;
    s->occupancy_limit = 2;
}

static char *render(const struct gs_stats *s, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (json)
        gs_stats_json(s, "  ", f);
    else
        gs_stats_text(s, f);
    fclose(f);
    return buf;
}

/* The JSON text one counter should have: "key": value or "key": [v0, v1, ...]. */
static void expect_json(const struct entry *e, const struct gs_stats *s, char *out, size_t cap)
{
    const char *p = (const char *)s + e->off;
    size_t n = e->out == OUTK_PERSM ? s->t.nsms : e->bytes / esize(e), i, len;
    len = (size_t)snprintf(out, cap, "\"%s\": %s", e->json, e->out == OUTK_NUM ? "" : "[");
    for (i = 0; i < n && len < cap; i++) {
        if (e->type == GST_f64)
            len += (size_t)snprintf(out + len, cap - len, "%.6f", ((const double *)p)[i]);
        else
            len += (size_t)snprintf(out + len, cap - len, "%s%llu", i ? ", " : "",
                                    (unsigned long long)(e->type == GST_u32 ?
                                    ((const uint32_t *)p)[i] : ((const uint64_t *)p)[i]));
    }
    if (e->out != OUTK_NUM && len < cap)
        snprintf(out + len, cap - len, "]");
}

/* First JSON entry missing, out of order or with a wrong value; NULL if all agree. */
static const char *json_check(const char *json, const struct gs_stats *s)
{
    const char *last = json;
    char key[128], want[1024];
    uint32_t k;
    for (k = 0; k < NLIST; k++) {
        const struct entry *e = &list[k];
        const char *at;
        int shown = e->scope == GSS_G || s->cycles;
        if (!e->json)
            continue;
        snprintf(key, sizeof key, "\"%s\": ", e->json);
        at = strstr(json, key);
        if (!shown ? at != NULL : !at || at < last || strstr(at + 1, key))
            return e->name;
        if (!at)
            continue;
        last = at;
        if (e->derived)
            snprintf(want, sizeof want, "%s%.6f", key, e->value(s));
        if (e->derived || e->out == OUTK_NUM || e->out == OUTK_ARR || e->out == OUTK_PERSM) {
            if (!e->derived)
                expect_json(e, s, want, sizeof want);
            if (strncmp(at, want, strlen(want)) != 0)
                return e->name;
        }
    }
    return NULL;
}

/* The text line of a number or a derived figure. */
static void expect_text(const struct entry *e, const struct gs_stats *s, char *out, size_t cap)
{
    if (!e->derived)
        snprintf(out, cap, "  %-28s %14llu\n", e->text,
                 (unsigned long long)*(const uint64_t *)((const char *)s + e->off));
    else if (e->out == GSK_PCT)
        snprintf(out, cap, "  %-28s %13.1f%%\n", e->text, 100.0 * e->value(s));
    else
        snprintf(out, cap, e->out == GSK_RATE ? "  %-28s %14.0f\n" : "  %-28s %14.3f\n",
                 e->text, e->value(s));
}

/* First entry whose line is missing from the text table, shown when it should not be, has no
   value, or (numbers, derived figures) the wrong one. */
static const char *text_check(const char *text, const struct gs_stats *s)
{
    char line[160];
    uint32_t k;
    for (k = 0; k < NLIST; k++) {
        const struct entry *e = &list[k];
        const char *at;
        int shown = e->scope == GSS_G || s->cycles;
        snprintf(line, sizeof line, "  %-28s ", e->text);
        at = strstr(text, line);
        if (shown != (at != NULL))
            return e->name;
        if (!at)
            continue;
        at += strlen(line);
        at += strspn(at, " ");
        if (*at == '\n' || *at == 0)
            return e->name;
        if (e->derived || (e->out == OUTK_NUM && e->type == GST_u64)) {
            expect_text(e, s, line, sizeof line);
            if (!strstr(text, line))
                return e->name;
        }
    }
    return NULL;
}

static void merged(const struct entry *e, const void *a, const void *b, size_t i, int take_b,
                   void *want)
{
#define M(T) do { T x = ((const T *)a)[i], y = ((const T *)b)[i]; \
        *(T *)want = e->merge == GSM_SUM ? x + y : e->merge == GSM_MAX ? (x > y ? x : y) : \
                     take_b ? y : x; } while (0)
    if (e->type == GST_u64) M(uint64_t);
    else if (e->type == GST_u32) M(uint32_t);
    else M(double);
#undef M
}

/* First counter of t that is not the merge of a and b, element by element. */
static const char *add_check(const struct gs_stats *t, const struct gs_stats *a,
                             const struct gs_stats *b, int b_geom)
{
    uint32_t k;
    size_t i;
    for (k = 0; k < NLIST; k++) {
        const struct entry *e = &list[k];
        for (i = 0; !e->derived && i < e->bytes / esize(e); i++) {
            uint64_t want = 0;
            merged(e, (const char *)a + e->off, (const char *)b + e->off, i, b_geom, &want);
            if (memcmp((const char *)t + e->off + i * esize(e), &want, esize(e)))
                return e->name;
        }
    }
    return NULL;
}

/* ---- the table (stats.c) is the list */

static void test_table_is_the_list(void **state)
{
    uint32_t k;
    (void)state;
    assert_int_equal(gs_stat_ndescs, NLIST);
    for (k = 0; k < NLIST; k++) {
        const struct gs_stat_desc *d = &gs_stat_descs[k];
        assert_string_equal(d->name, list[k].name);
        assert_int_equal(d->out == GSO_DERIVED, list[k].derived);
        assert_int_equal(d->scope, list[k].scope);
        assert_true(d->text && strlen(d->text) <= 28);
        if (list[k].derived)
            continue;
        assert_int_equal(d->off, list[k].off);
        assert_int_equal((size_t)d->n * esize(&list[k]), list[k].bytes);
        assert_int_equal(d->sm_off, list[k].sm_off);
    }
}

/* No field of struct gs_stats outside the list: sorted by offset, the counters leave no gap
   larger than alignment padding, and they reach the end of the struct. */
static void test_no_field_outside_the_list(void **state)
{
    uint8_t covered[sizeof(struct gs_stats)];
    size_t i, run = 0;
    uint32_t k;
    (void)state;
    memset(covered, 0, sizeof covered);
    for (k = 0; k < NLIST; k++)
        if (!list[k].derived)
            memset(covered + list[k].off, 1, list[k].bytes);
    for (i = 0; i < sizeof covered; i++) {
        run = covered[i] ? 0 : run + 1;
        if (run >= 8) {
            print_error("bytes %zu..%zu of struct gs_stats belong to no list entry\n", i - 7, i);
            fail();
        }
    }
}

/* ---- JSON and text */

static void test_json_has_every_entry(void **state)
{
    struct gs_stats s;
    char *json;
    (void)state;
    fill(&s, 1);
    json = render(&s, 1);
    assert_null(json_check(json, &s));
    assert_true(strncmp(json, "{\n", 2) == 0);
    tu_assert_contains(json, "\"scheduler_cycles\": {\"issued\": ");
    tu_assert_contains(json, "\"occupancy_limit\": \"registers\"");
    free(json);
    s.cycles = 0;                        /* functional: no timing entries */
    json = render(&s, 1);
    assert_null(json_check(json, &s));
    free(json);
}

static void test_text_has_every_entry(void **state)
{
    struct gs_stats s;
    char *text;
    (void)state;
    fill(&s, 1);
    text = render(&s, 0);
    assert_null(text_check(text, &s));
    free(text);
    s.cycles = 0;
    text = render(&s, 0);
    assert_null(text_check(text, &s));
    free(text);
}

/* ---- merging */

static void test_add_merges_every_counter(void **state)
{
    struct gs_stats a, b, t;
    (void)state;
    fill(&a, 1);
    fill(&b, 2);
    b.grid[0] = a.grid[0] + 1;           /* b has more CTAs: its geometry wins */
    t = a;
    gs_stats_add(&t, &b);
    assert_null(add_check(&t, &a, &b, 1));
    b.grid[0] = 1;                       /* fewer: a's stays */
    t = a;
    gs_stats_add(&t, &b);
    assert_null(add_check(&t, &a, &b, 0));
}

/* Two SMs into a GPU: every S counter merged by its rule, every I counter at its SM's index,
   nothing else touched. */
static void test_add_sm_merges_every_sm_counter(void **state)
{
    struct gs_stats g, want;
    struct sm_stats s0, s1;
    uint32_t k;
    size_t i;
    (void)state;
    memset(&g, 0, sizeof g);
    memset(&want, 0, sizeof want);
    memset(&s0, 0x11, sizeof s0);
    memset(&s1, 0x22, sizeof s1);
    gs_stats_add_sm(&g, &s0, 0);
    gs_stats_add_sm(&g, &s1, 1);
    for (k = 0; k < NLIST; k++) {
        const struct entry *e = &list[k];
        char *w = (char *)&want + e->off;
        const char *p0 = (const char *)&s0 + e->sm_off, *p1 = (const char *)&s1 + e->sm_off;
        if (e->derived || e->sm_off < 0)
            continue;
        if (e->scope == GSS_I) {
            memcpy(w, p0, esize(e));
            memcpy(w + esize(e), p1, esize(e));
            continue;
        }
        for (i = 0; i < e->bytes / esize(e); i++)
            merged(e, p0, p1, i, 1, w + i * esize(e));
    }
    for (k = 0; k < NLIST; k++) {
        const struct entry *e = &list[k];
        if (!e->derived && memcmp((char *)&g + e->off, (char *)&want + e->off, e->bytes)) {
            print_error("per-SM merge of '%s' is wrong\n", e->name);
            fail();
        }
    }
}

/* ---- the checkers see an entry dropped from one consumer */

static char *drop_line(const char *text, const char *needle)
{
    char *copy = strdup(text), *at = strstr(copy, needle), *eol;
    assert_non_null(at);
    while (at > copy && at[-1] != '\n')
        at--;
    eol = strchr(at, '\n');
    memmove(at, eol + 1, strlen(eol + 1) + 1);
    return copy;
}

static void test_checkers_catch_a_dropped_entry(void **state)
{
    struct gs_stats a, b, t, s;
    char *out, *cut;
    const char *bad;
    (void)state;
    fill(&s, 1);
    out = render(&s, 1);                 /* JSON writer without l2_hits */
    cut = drop_line(out, "\"l2_hits\": ");
    bad = json_check(cut, &s);
    assert_non_null(bad);
    assert_string_equal(bad, "l2_hits");
    free(cut);
    free(out);
    out = render(&s, 0);                 /* text table without the DWR */
    cut = drop_line(out, "  DWR    ");
    bad = text_check(cut, &s);
    assert_non_null(bad);
    assert_string_equal(bad, "dwr");
    free(cut);
    free(out);
    fill(&a, 1);                         /* a merge that forgets dram_bytes */
    fill(&b, 2);
    t = a;
    gs_stats_add(&t, &b);
    t.t.dram_bytes = a.t.dram_bytes;
    bad = add_check(&t, &a, &b, 1);        /* b has more CTAs */
    assert_non_null(bad);
    assert_string_equal(bad, "dram_bytes");
    t = a;                               /* ... or the last lane-utilization bin */
    gs_stats_add(&t, &b);
    t.lane_util[GS_UTIL_BINS - 1] = b.lane_util[GS_UTIL_BINS - 1];
    bad = add_check(&t, &a, &b, 1);        /* b has more CTAs */
    assert_non_null(bad);
    assert_string_equal(bad, "lane_util");
}

/* gpu/gpusim.h and base/gs_stats.h each hold a text of the statistics' types (the public
   header's declarations are never moved; the layers below take base's): this unit compiled
   gpusim.h's text, gs_stats.c base's; their layouts must be one. */
static void test_public_text_is_base_text(void **state)
{
    size_t base[4];
    (void)state;
    gs_stats_layout_base(base);
    assert_int_equal(sizeof(struct gs_stats), base[0]);
    assert_int_equal(sizeof(struct gs_timing), base[1]);
    assert_int_equal(sizeof(struct gs_dim3), base[2]);
    assert_int_equal(offsetof(struct gs_stats, t), base[3]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_text_is_base_text),
        cmocka_unit_test(test_table_is_the_list),
        cmocka_unit_test(test_no_field_outside_the_list),
        cmocka_unit_test(test_json_has_every_entry),
        cmocka_unit_test(test_text_has_every_entry),
        cmocka_unit_test(test_add_merges_every_counter),
        cmocka_unit_test(test_add_sm_merges_every_sm_counter),
        cmocka_unit_test(test_checkers_catch_a_dropped_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
