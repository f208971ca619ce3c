/*
 * test_ptx_scale.c -- the front end scales linearly in the number of declarations (issue 18,
 * "Quadratic parsing"): parse, link every kernel, build its flow and print it, for modules with
 * n and 4n declarations of one kind -- registers in one comma list, registers in %r<N> ranges,
 * module variables (.global/.const/.shared), kernel .local variables, parameters, labels with
 * branches to them, .func functions, call sequences with their own .param variables, and
 * .entry kernels -- must cost less than WORK_GROWTH (6) times the work for 4n as for n.
 *
 * No clock: the work is counted.  Every name look-up of the front end is a probe of a name
 * table (model/ptx/ptx_ntab.h), which counts each slot it examines (ntab_work); linear look-ups
 * give a factor of about 4 (3.5 to 4.4 measured), the linear scans the tables replaced gave 16.
 * Seen failing with ntab_hash returning a constant (every name in one probe chain, a linear
 * scan): 15.1 to 16.0 for every kind.  Loops that look up nothing (the flow build, the register
 * estimate) are not counted; docs/performance.md "Front-end scaling" has the wall times.
 * Last, a .reg line naming 250,000 registers one by one parses, links and prints within the
 * same linear bound.
 */
#include "testutil.h"
#include "ptx/ptx.h"
#include "ptx/ptx_ntab.h"
#include "ptx/flow.h"

#define WORK_GROWTH 6.0               /* allowed work(4n) / work(n); linear ~4, quadratic ~16 */
#define N_SMALL     4000u
#define VAR_BASE    0x200000000ull    /* where .global/.const variables are placed */

enum kind { K_REGLIST, K_REGRANGE, K_GLOBALS, K_LOCALS, K_PARAMS, K_LABELS, K_FUNCS, K_CALLS,
            K_ENTRIES, K_COUNT };
static const char *const kind_name[K_COUNT] = {"registers (comma list)", "registers (ranges)",
    "module variables", "local variables", "parameters", "labels", "functions",
    "call sequences", "kernels"};

/* ------------------------------------------------------------------ generated modules */

static void kernel_open(FILE *f, const char *name, uint32_t nparams)
{
    fprintf(f, ".visible .entry %s(", name);
    for (uint32_t i = 0; i < nparams; i++)
        fprintf(f, "%s\n\t.param .u8 %s_p%u", i ? "," : "", name, (unsigned)i);
    fprintf(f, ")\n{\n\t.reg .b32 %%r<4>;\n\t.reg .pred %%p<2>;\n");
}

static void gen_regs(FILE *f, uint32_t n, int ranges)
{
    kernel_open(f, "k", 0);
    if (ranges) {
        for (uint32_t k = 0; k < n / 100; k++)
            fprintf(f, "\t.reg .b32 %%q%u_<100>;\n", (unsigned)k);
        for (uint32_t i = 0; i < n; i++)
            fprintf(f, "\tmov.u32 %%q%u_%u, %u;\n", (unsigned)(i / 100), (unsigned)(i % 100), (unsigned)i);
        return;
    }
    fprintf(f, "\t.reg .b32 ");
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%s%%c%u", i ? ", " : "", (unsigned)i);
    fprintf(f, ";\n");
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "\tmov.u32 %%c%u, %u;\n", (unsigned)i, (unsigned)i);
}

static void gen_vars(FILE *f, uint32_t n, int local)
{
    static const char *const sp[3] = {"global", "const", "shared"};
    for (uint32_t i = 0; !local && i < n; i++)
        fprintf(f, ".%s .align 4 .u32 g%u;\n", sp[i % 3], (unsigned)i);
    kernel_open(f, "k", 0);
    for (uint32_t i = 0; local && i < n; i++)
        fprintf(f, "\t.local .align 4 .u32 l%u;\n", (unsigned)i);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "\tld.%s.u32 %%r1, [%s%u];\n", local ? "local" : sp[i % 3], local ? "l" : "g",
                (unsigned)i);
}

static void gen_labels(FILE *f, uint32_t n)
{
    kernel_open(f, "k", 0);
    fprintf(f, "\tmov.u32 %%r1, %%tid.x;\n\tsetp.eq.u32 %%p1, %%r1, 7;\n");
    for (uint32_t i = 0; i < n; i++)     /* forward and backward branches */
        fprintf(f, "$L%u:\n\t@%%p1 bra $L%u;\n", (unsigned)i, (unsigned)((i * 7 + n / 2) % n));
}

static void gen_funcs(FILE *f, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, ".func f%u()\n{\n\t.reg .b32 %%x<2>;\n\tmov.u32 %%x1, %u;\n\tret;\n}\n",
                (unsigned)i, (unsigned)i);
    kernel_open(f, "k", 0);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "\tcall.uni f%u, ();\n", (unsigned)i);
}

static void gen_calls(FILE *f, uint32_t n)
{
    fprintf(f, ".func (.param .b32 r) f(.param .b32 a)\n{\n\t.reg .b32 %%x;\n"
            "\tld.param.b32 %%x, [a];\n\tst.param.b32 [r], %%x;\n\tret;\n}\n");
    kernel_open(f, "k", 0);
    for (uint32_t i = 0; i < n; i++)     /* each redeclares param0: "param0#i" for the linker */
        fprintf(f, "\t{\n\t.param .b32 param0;\n\t.param .b32 retval0;\n"
                "\tst.param.b32 [param0], %%r1;\n\tcall.uni (retval0), f, (param0);\n"
                "\tld.param.b32 %%r%u, [retval0];\n\t}\n", (unsigned)(1 + i % 3));
}

/* PTX text with n declarations of one kind, each name also used once (free() it). */
static char *gen(enum kind k, uint32_t n, size_t *len)
{
    char *text = NULL, name[32];
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    fprintf(f, ".version 7.0\n.target sm_75\n.address_size 64\n\n");
    switch (k) {
    case K_REGLIST: gen_regs(f, n, 0); break;
    case K_REGRANGE: gen_regs(f, n, 1); break;
    case K_GLOBALS: gen_vars(f, n, 0); break;
    case K_LOCALS: gen_vars(f, n, 1); break;
    case K_PARAMS:
        kernel_open(f, "k", n);
        for (uint32_t i = 0; i < n; i++)
            fprintf(f, "\tld.param.u8 %%r1, [k_p%u];\n", (unsigned)i);
        break;
    case K_LABELS: gen_labels(f, n); break;
    case K_FUNCS: gen_funcs(f, n); break;
    case K_CALLS: gen_calls(f, n); break;
    case K_ENTRIES:
        for (uint32_t i = 0; i + 1 < n; i++) {
            snprintf(name, sizeof name, "k%u", (unsigned)i);
            kernel_open(f, name, 0);
            fprintf(f, "\tmov.u32 %%r1, %u;\n\tret;\n}\n", (unsigned)i);
        }
        kernel_open(f, "k", 0);
        break;
    default: fail();
    }
    fprintf(f, "\tret;\n}\n");
    assert_int_equal(fclose(f), 0);
    return text;
}

/* ------------------------------------------------------------------ the work of the front end */

/* Parse, then link, build the flow of and print every kernel, as `gpusim ptx` and a load do;
   the name-table work it took.  *printed gets the bytes printed. */
static uint64_t front_end(const char *text, size_t len, const char *tag, size_t *printed)
{
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    ntab_work_reset();
    if (ptx_parse(text, len, tag, &m, err, sizeof err))
        fail_msg("%s", err);
    ptx_place_vars(&m, VAR_BASE);
    *printed = 0;
    for (uint32_t f = 0; f < m.nfuncs; f++) {
        struct ptx_prog p;
        struct flow fl;
        if (!m.funcs[f].is_entry)
            continue;
        if (ptx_link(&m, m.funcs[f].name, &p, err, sizeof err) || flow_build(&p, &fl, err, sizeof err))
            fail_msg("%s: %s", tag, err);
        char *s = ptx_print_string(&p, err, sizeof err);
        if (!s)
            fail_msg("%s: %s", tag, err);
        *printed += strlen(s);
        free(s);
        flow_free(&fl);
        ptx_prog_free(&p);
    }
    uint64_t w = ntab_work();
    ptx_module_free(&m);
    return w;
}

static uint64_t work_of(enum kind k, uint32_t n)
{
    size_t len, printed;
    char *text = gen(k, n, &len), tag[64];
    snprintf(tag, sizeof tag, "%s-%u.ptx", kind_name[k], (unsigned)n);
    uint64_t w = front_end(text, len, tag, &printed);
    free(text);
    assert_true(printed > n);
    return w;
}

static void test_growth(void **state)
{
    (void)state;
    int bad = 0;
    for (int k = 0; k < K_COUNT; k++) {
        uint64_t w1 = work_of((enum kind)k, N_SMALL), w4 = work_of((enum kind)k, 4 * N_SMALL);
        double g = (double)w4 / (double)(w1 ? w1 : 1);
        print_message("%-24s n = %u: work %llu (%.1f per name), 4n: %llu, factor %.2f\n",
                      kind_name[k], N_SMALL, (unsigned long long)w1, (double)w1 / N_SMALL,
                      (unsigned long long)w4, g);
        assert_true(w1 >= N_SMALL);          /* the names were looked up at all */
        bad |= g >= WORK_GROWTH;
    }
    if (bad)
        fail_msg("work grows %.0fx or more for 4x the declarations (quadratic look-ups)", WORK_GROWTH);
}

/* .reg .b32 %c0, %c1, ..., %c249999; (issue 18: still parsing after two minutes) */
static void test_reg_list_250k(void **state)
{
    (void)state;
    const uint32_t n = 250000;
    uint64_t w = work_of(K_REGLIST, n), w4 = work_of(K_REGLIST, n / 4);
    double g = (double)w / (double)w4;
    print_message("250000 registers: work %llu (%.1f per register), %.2f times 62500's\n",
                  (unsigned long long)w, (double)w / n, g);
    assert_true(g < WORK_GROWTH);
    assert_true(w < 64ull * n);               /* a bounded number of probes per register */
    /* and the printed kernel declares every one (some as runs: %c6569<10> is %c65690..9) */
    size_t len;
    char *text = gen(K_REGLIST, n, &len), err[PTX_ERR_LEN];
    struct ptx_module m;
    struct ptx_prog p;
    assert_int_equal(ptx_parse(text, len, "list.ptx", &m, err, sizeof err), 0);
    assert_int_equal(m.funcs[0].nregs, n + 4 + 2);
    assert_int_equal(ptx_link(&m, "k", &p, err, sizeof err), 0);
    char *s = ptx_print_string(&p, err, sizeof err);
    assert_non_null(s);
    ptx_prog_free(&p);
    ptx_module_free(&m);
    if (!strstr(s, "mov.u32 %c249999, 249999;"))
        fail_msg("the last register's move is not printed");
    assert_int_equal(ptx_parse(s, strlen(s), "printed.ptx", &m, err, sizeof err), 0);
    assert_int_equal(m.funcs[0].nregs, n + 4 + 2);
    ptx_module_free(&m);
    free(s);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_reg_list_250k),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
