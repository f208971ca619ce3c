/*
 * test_fidelity_doc.c -- docs/fidelity.md cannot drift from configs/gtx480.cfg:
 *   - its key table has one row per configuration key (every key of the key table, so every
 *     key configs/gtx480.cfg can set) and per key that configs/gtx480.cfg sets;
 *   - each row's "model" column equals the value gs_init loads from configs/gtx480.cfg (as
 *     `gpusim config` prints it); a row whose key the loader does not know is accepted only
 *     when marked "pending merge" (a key another branch is adding);
 *   - each figure of its derived table equals the figure computed here from the loaded
 *     configuration and the memory system it builds (mem_cfg_from), to the doc's two decimals.
 * The tables are the lines between the <!-- fidelity-keys begin/end --> and
 * <!-- fidelity-derived begin/end --> markers; a row is a line starting with "| `".
 */
#include <math.h>
#include "testutil.h"
#include "base/config.h"
#include "gpu/gpusim.h"
#include "mem/mem_blocks.h"

#define DOC "docs/fidelity.md"
#define CFG "configs/gtx480.cfg"

struct row { char key[64], val[64]; int pending; };

/* Rows of the table between the named markers; returns the count. */
static unsigned rows_of(const char *doc, const char *table, struct row *r, unsigned max)
{
    char begin[80], end[80];
    const char *p, *stop;
    unsigned n = 0;
    snprintf(begin, sizeof begin, "<!-- fidelity-%s begin -->", table);
    snprintf(end, sizeof end, "<!-- fidelity-%s end -->", table);
    p = strstr(doc, begin);
    stop = p ? strstr(p, end) : NULL;
    if (!p || !stop) {
        print_error(DOC ": markers of the %s table are missing\n", table);
        fail();
    }
    for (; p && p < stop && (p = strchr(p, '\n')) != NULL && p < stop; ) {
        const char *line = ++p, *eol = strchr(line, '\n'), *k, *ke, *v, *ve;
        if (strncmp(line, "| `", 3) != 0)
            continue;
        k = line + 3;
        ke = strchr(k, '`');
        v = ke ? strchr(ke, '|') : NULL;
        ve = v ? strchr(v + 1, '|') : NULL;
        assert_true(ke && v && ve && ve < eol && n < max);
        for (v++; *v == ' '; v++)
            ;
        while (ve > v && ve[-1] == ' ')
            ve--;
        snprintf(r[n].key, sizeof r[n].key, "%.*s", (int)(ke - k), k);
        snprintf(r[n].val, sizeof r[n].val, "%.*s", (int)(ve - v), v);
        r[n].pending = strstr(line, "pending merge") && strstr(line, "pending merge") < eol;
        n++;
    }
    return n;
}

static const struct row *find_row(const struct row *r, unsigned n, const char *key)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(r[i].key, key))
            return &r[i];
    return NULL;
}

/* The loaded value of `key` as `gpusim config` prints it, or NULL for an unknown key. */
static const char *loaded(const char *dump, const char *key, char *buf, size_t n)
{
    char pat[80];
    const char *p;
    snprintf(pat, sizeof pat, "\n%.60s = ", key);
    if (!(p = strstr(dump, pat)))
        return NULL;
    p += strlen(pat);
    snprintf(buf, n, "%.*s", (int)strcspn(p, "\n"), p);
    return buf;
}

static char *config_dump(struct gs_gpu *g)
{
    char *text, *out;
    size_t len;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    conf_write(gs_config(g), m);
    fclose(m);
    out = malloc(len + 2);
    assert_non_null(out);
    out[0] = '\n';
    memcpy(out + 1, text, len + 1);
    free(text);
    return out;
}

static void test_every_key_has_a_row_with_the_loaded_value(void **state)
{
    struct gs_gpu *g;
    struct row r[160];
    char err[512], v[80], line[1024], *doc = tu_read_file(DOC, NULL), *dump;
    unsigned n, i, j, nk, bad = 0;
    const struct conf_key *keys = conf_keys(&nk);
    FILE *f;
    (void)state;
    assert_non_null(doc);
    assert_int_equal(gs_init(&g, CFG, NULL, 0, err, sizeof err), GS_OK);
    dump = config_dump(g);
    n = rows_of(doc, "keys", r, 160);
    for (i = 0; i < nk; i++)
        if (!find_row(r, n, keys[i].name)) {
            print_error(DOC ": no row for configuration key '%s'\n", keys[i].name);
            bad++;
        }
    f = fopen(CFG, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {                /* the keys the file itself sets */
        char key[64];
        if (sscanf(line, " %63[A-Za-z0-9_] =", key) == 1 && line[0] != '#' && !find_row(r, n, key)) {
            print_error(DOC ": no row for key '%s' of " CFG "\n", key);
            bad++;
        }
    }
    fclose(f);
    for (i = 0; i < n; i++) {
        const char *want = loaded(dump, r[i].key, v, sizeof v);
        size_t len = strcspn(r[i].val, " ");
        for (j = 0; j < i; j++)
            if (!strcmp(r[j].key, r[i].key)) {
                print_error(DOC ": two rows for '%s'\n", r[i].key);
                bad++;
            }
        if (!want && !r[i].pending) {
            print_error(DOC ": row '%s' is not a configuration key (nor marked pending merge)\n",
                        r[i].key);
            bad++;
        } else if (want && (len != strlen(want) || strncmp(r[i].val, want, len))) {
            print_error(DOC ": row '%s' says '%s', " CFG " loads %s\n", r[i].key, r[i].val, want);
            bad++;
        }
    }
    gs_destroy(g);
    free(dump);
    free(doc);
    assert_int_equal(bad, 0);
}

struct fig { const char *id; double v; };

static void test_derived_figures(void **state)
{
    struct gs_gpu *g;
    struct msys_cfg m;
    struct row r[32];
    char err[512], *doc = tu_read_file(DOC, NULL);
    unsigned n, i, bad = 0;
    const struct gpu_config *c;
    double l1, dram_bpc;
    (void)state;
    assert_non_null(doc);
    assert_int_equal(gs_init(&g, CFG, NULL, 0, err, sizeof err), GS_OK);
    c = gs_config(g);
    mem_cfg_from(c, &m);
    l1 = (double)c->l1_sets * c->l1_ways * 128;
    dram_bpc = (double)m.n_chan * 128 * m.dram.tick_per_cycle / m.dram.line_ticks;
    const struct fig figs[] = {
        { "threads_per_sm", c->max_warps_per_sm * 32.0 },
        { "regfile_kb", c->regs_per_sm * 4.0 / 1024 },
        { "l1_kb", l1 / 1024 },
        { "shared_plus_l1_kb", (c->shared_per_sm + l1) / 1024 },
        { "l2_slices", (double)m.n_chan * m.slices_per_chan },
        { "l2_kb", (double)m.n_chan * m.slices_per_chan * m.l2.nsets * m.l2.assoc * 128 / 1024 },
        { "dram_bytes_per_cycle", dram_bpc },
        { "dram_gb_per_s", dram_bpc * 0.7 },              /* 700 MHz core clock */
        { "peak_warp_ipc", (double)c->schedulers_per_sm / c->ii_sp },
        { "sfu_warp_ipc", (double)(c->sfu_shared ? 1 : c->schedulers_per_sm) / c->ii_sfu },
        { "dp_warp_ipc", (double)c->schedulers_per_sm / c->ii_dp },
    };
    const unsigned nf = sizeof figs / sizeof figs[0];
    n = rows_of(doc, "derived", r, 32);
    for (i = 0; i < nf; i++) {
        const struct row *x = find_row(r, n, figs[i].id);
        if (!x) {
            print_error(DOC ": no derived row '%s' (%.2f)\n", figs[i].id, figs[i].v);
            bad++;
        } else if (fabs(strtod(x->val, NULL) - figs[i].v) > 0.006) {
            print_error(DOC ": derived '%s' says %s, the configuration gives %.2f\n", x->key,
                        x->val, figs[i].v);
            bad++;
        }
    }
    for (i = 0; i < n; i++) {
        unsigned k;
        for (k = 0; k < nf && strcmp(r[i].key, figs[k].id); k++)
            ;
        if (k == nf) {
            print_error(DOC ": derived row '%s' is not computed by this test\n", r[i].key);
            bad++;
        }
    }
    gs_destroy(g);
    free(doc);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_has_a_row_with_the_loaded_value),
        cmocka_unit_test(test_derived_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
