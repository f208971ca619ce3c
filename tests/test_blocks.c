/*
 * test_blocks.c -- the block registry (model/base/blocks.def) against the tree and against
 * every consumer.
 *
 * A row whose block lacks an entry point does not compile (each level expands the rows into
 * descriptors that name X_reset, X_eval, X_commit, X_storage, X_cfg_check, X_instances,
 * X_cfg_from and, with rtl = 1, X_rtl_params). What the compiler cannot see is checked here:
 *   - the tree: every row has model/<room>/<name>.{c,h}, tests/test_<name>.c and
 *     docs/<name>.md, and rtl/<name>.sv + tb/<name>_cosim.cpp exactly when rtl = 1; every
 *     rtl/<name>.sv is a row with rtl = 1; every `void X_eval(` defined under model/ is a row;
 *   - the consumers: the cost estimate prices every block a configuration instantiates,
 *     `gpusim rtl-params` emits every RTL block's parameters, the recorder takes exactly the
 *     recordable blocks, the SM knows every SM row, the descriptors are in registry order.
 * The tree check runs once on a registry with a row removed, to show that it finds the gap.
 */
#include <dirent.h>
#include <ctype.h>
#include "testutil.h"
#include "../cost/estimate.h"
#include "gpu/blocks.h"
#include "gpu/gpusim.h"
#include "sm/sm.h"

static const char *const rooms[] = { "sm", "mem", "gpu" };

static int exists(const char *fmt, const char *name)
{
    char path[256];
    FILE *f;
    snprintf(path, sizeof path, fmt, name);
    f = fopen(path, "r");
    if (f)
        fclose(f);
    return f != NULL;
}

static const struct blk_desc *row_named(const struct blk_desc *rows, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name))
            return &rows[i];
    return NULL;
}

static void problem(char *rep, size_t len, unsigned *np, const char *what, const char *name)
{
    size_t used = strlen(rep);
    snprintf(rep + used, len - used, "%s: %s\n", name, what);
    (*np)++;
}

/* Every `void X_eval(` definition in model/<room>/<X>.c names a row. */
static void scan_evals(const struct blk_desc *rows, unsigned n, char *rep, size_t len, unsigned *np)
{
    static const char *const dirs[] = { "model/sm", "model/mem", "model/gpu", "model/ptx",
                                        "model/func", "model/base" };
    for (unsigned d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        DIR *dir = opendir(dirs[d]);
        struct dirent *e;
        assert_non_null(dir);
        while ((e = readdir(dir))) {
            char path[512], *text, want[96], name[64];
            size_t l = strlen(e->d_name);
            if (l < 3 || strcmp(e->d_name + l - 2, ".c") || l - 2 >= sizeof name)
                continue;
            snprintf(name, sizeof name, "%.*s", (int)(l - 2), e->d_name);
            snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            snprintf(want, sizeof want, "\nvoid %s_eval(", name);
            text = tu_read_file(path, &l);
            if (text && strstr(text, want) && !row_named(rows, n, name))
                problem(rep, len, np, "defines X_eval but model/base/blocks.def has no row", name);
            free(text);
        }
        closedir(dir);
    }
}

static unsigned check_tree(const struct blk_desc *rows, unsigned n, char *rep, size_t len)
{
    unsigned np = 0;
    DIR *dir;
    struct dirent *e;
    rep[0] = 0;
    for (unsigned i = 0; i < n; i++) {
        const char *nm = rows[i].name;
        char c[64], h[64];
        snprintf(c, sizeof c, "model/%s/%%s.c", rooms[rows[i].level]);
        snprintf(h, sizeof h, "model/%s/%%s.h", rooms[rows[i].level]);
        if (!exists(c, nm) || !exists(h, nm))
            problem(rep, len, &np, "no model/<room>/<name>.{c,h}", nm);
        if (!exists("tests/test_%s.c", nm))
            problem(rep, len, &np, "no tests/test_<name>.c", nm);
        if (!exists("docs/%s.md", nm))
            problem(rep, len, &np, "no docs/<name>.md", nm);
        if (rows[i].rtl != exists("rtl/%s.sv", nm) || rows[i].rtl != exists("tb/%s_cosim.cpp", nm))
            problem(rep, len, &np, "rtl flag and rtl/<name>.sv, tb/<name>_cosim.cpp disagree", nm);
    }
    dir = opendir("rtl");
    assert_non_null(dir);
    while ((e = readdir(dir))) {
        char name[64];
        size_t l = strlen(e->d_name);
        const struct blk_desc *b;
        if (l < 4 || strcmp(e->d_name + l - 3, ".sv") || l - 3 >= sizeof name)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(l - 3), e->d_name);
        if (!(b = row_named(rows, n, name)) || !b->rtl)
            problem(rep, len, &np, "rtl/<name>.sv without a row with rtl = 1", name);
    }
    closedir(dir);
    scan_evals(rows, n, rep, len, &np);
    return np;
}

static void test_tree(void **state)
{
    unsigned n, k = 0;
    const struct blk_desc *all = blk_all(&n);
    struct blk_desc fewer[BLK_COUNT];
    char rep[4096];
    (void)state;
    assert_int_equal(n, BLK_COUNT);
    if (check_tree(all, n, rep, sizeof rep))
        fail_msg("registry and tree disagree:\n%s", rep);
    for (unsigned i = 0; i < n; i++)                          /* drop sb: the check must see it */
        if (strcmp(all[i].name, "sb"))
            fewer[k++] = all[i];
    assert_true(check_tree(fewer, k, rep, sizeof rep) >= 2);
    tu_assert_contains(rep, "sb: rtl/<name>.sv without a row");
    tu_assert_contains(rep, "sb: defines X_eval but model/base/blocks.def has no row");
}

static void test_consumers(void **state)
{
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    struct est *e = calloc(1, sizeof *e);
    struct gpu_config c;
    struct gs_gpu *g, *gv, *gd;
    char err[512], *buf = NULL;
    const char *vtw_on = "vtw=hw", *vt_on = "vt=on", *dws_on = "dws=aggress";
    size_t len = 0;
    FILE *f;
    (void)state;
    assert_int_equal(est_load_config(&c, "configs/gtx480.cfg", NULL, 0, err, sizeof err), 0);
    assert_int_equal(est_build(e, &c, err, sizeof err), 0);
    f = open_memstream(&buf, &len);
    blk_rtl_params(&c, f);
    fclose(f);
    /* vtw = hw, vt = on or dws = aggress (DWS excludes the others): every registered block
       has an instance in one of them (a block of a mechanism that is off cannot be recorded) */
    assert_int_equal(gs_init(&g, "configs/gtx480.cfg", &vtw_on, 1, err, sizeof err), GS_OK);
    assert_int_equal(gs_init(&gv, "configs/gtx480.cfg", &vt_on, 1, err, sizeof err), GS_OK);
    assert_int_equal(gs_init(&gd, "configs/gtx480.cfg", &dws_on, 1, err, sizeof err), GS_OK);
    for (unsigned i = 0; i < n; i++) {
        const struct blk_desc *b = &all[i];
        const struct est_list *l = b->level == BLK_LEVEL_SM ? &e->sm : &e->gpu;
        char prefix[64];
        assert_int_equal(b->id, i);
        if (b->instances(&c))
            assert_true(est_sum(l, b->name, NULL).bits > 0);
        snprintf(prefix, sizeof prefix, "localparam %s_", b->name);
        for (char *p = prefix + 11; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        assert_int_equal(strstr(buf, prefix) != NULL, b->rtl);
        assert_int_equal(gs_record(g, b->name, BUILD_DIR "/tests/blocks.rec") == GS_OK ||
                         gs_record(gv, b->name, BUILD_DIR "/tests/blocks.rec") == GS_OK ||
                         gs_record(gd, b->name, BUILD_DIR "/tests/blocks.rec") == GS_OK,
                         b->record);
        if (b->level == BLK_LEVEL_SM)
            assert_ptr_equal(sm_block_desc(b->id)->name, b->name);
    }
    assert_int_not_equal(gs_record(g, "nosuch", BUILD_DIR "/tests/blocks.rec"), GS_OK);
    tu_assert_contains(gs_last_error(g), "unknown block 'nosuch' (recordable: ntb pas ws sb simt vtc wst)");
    gs_destroy(g);
    gs_destroy(gv);
    gs_destroy(gd);
    assert_int_equal(gs_init(&g, "configs/gtx480.cfg", NULL, 0, err, sizeof err), GS_OK);
    assert_int_equal(gs_record(g, "ntb", BUILD_DIR "/tests/blocks.rec"), GS_ERR_CONFIG);
    tu_assert_contains(gs_last_error(g), "has no ntb block");      /* vtw is off */
    gs_destroy(g);
    free(buf);
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_consumers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
