/*
 * test_ptx_print.c -- cmocka tests for model/ptx/ptx_print.c (a linked kernel back to PTX).
 *
 * Round trip on every kernel of bench/ and of tests/data/ptx that parses and links: print,
 * parse the text, link it, and compare with the first link instruction by instruction (every
 * field of struct ptx_insn but the source line; operands by kind and value), register types,
 * parameter layout, shared/local/param-scratch sizes and the register estimate, and the
 * .pragma before each instruction.  Every directive of the input that ptxas reads (.target
 * and its options, .pragma at every level, the performance directives) is in the printed text
 * (test_directives_kept: everywhere).  Where ptxas is installed, `ptxas -arch=sm_75` must
 * accept every printed text and give every printed bench kernel the registers of its
 * kernel.res (test_ptxas_registers_printed: issue 38, matmul printed without its "nounroll"
 * pragmas took 55 registers for 27); both skipped with a message where it is not.  Then the
 * printed forms of folded addresses on a small module, and bad input.
 */
#include <glob.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptx_cmp.h"
#include "ptx/ptx_res.h"

#define VAR_BASE 0x200000000ull        /* where .global/.const variables are placed */
#define OUT_DIR  BUILD_DIR "/tests/ptx_print"

/* Link one kernel, print it, parse and link the text, compare. Returns the text. */
static char *round_trip(const struct ptx_module *m, const char *kernel, const char *tag)
{
    struct ptx_prog a;
    char err[PTX_ERR_LEN];
    if (ptx_link(m, kernel, &a, err, sizeof err))
        fail_msg("%s: %s", tag, err);
    char *text = ptx_round_trip_prog(&a, m, tag);
    ptx_prog_free(&a);
    return text;
}

typedef void (*text_fn)(const char *tag, const char *text, void *arg);

/* Every kernel of every file matching pattern that parses and links: round trip, then fn.
   Returns how many kernels. */
static unsigned each_kernel(const char *pattern, text_fn fn, void *arg)
{
    glob_t g;
    unsigned n = 0;
    if (glob(pattern, 0, NULL, &g))
        return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct ptx_module m;
        struct ptx_prog p;
        char err[PTX_ERR_LEN], tag[600];
        if (ptx_parse_file(g.gl_pathv[i], &m, err, sizeof err))
            continue;                        /* the bad_*.ptx inputs */
        ptx_place_vars(&m, VAR_BASE);
        for (uint32_t f = 0; f < m.nfuncs; f++) {
            if (!m.funcs[f].is_entry || ptx_link(&m, m.funcs[f].name, &p, err, sizeof err))
                continue;
            ptx_prog_free(&p);
            snprintf(tag, sizeof tag, "%s:%s", g.gl_pathv[i], m.funcs[f].name);
            char *text = round_trip(&m, m.funcs[f].name, tag);
            if (fn)
                fn(tag, text, arg);
            free(text);
            n++;
        }
        ptx_module_free(&m);
    }
    globfree(&g);
    return n;
}

static void test_round_trip_bench(void **state)
{
    (void)state;
    unsigned n = each_kernel("bench/*/kernel.ptx", NULL, NULL);
    print_message("round trip: %u bench kernels\n", n);
    assert_true(n >= 28);
}

static void test_round_trip_test_data(void **state)
{
    (void)state;
    unsigned n = each_kernel("tests/data/ptx/*.ptx", NULL, NULL);
    print_message("round trip: %u kernels of tests/data/ptx\n", n);
    assert_true(n >= 4);
}

/* ------------------------------------------------------------------ the printed forms */

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Shared a[16] @0 (named only past its end, which lands in b), b[16] @16, c @32 (its address
   taken, also at +8); dynamic shared; a .global table and a .const scalar; a callee with a
   local frame inlined twice (its param scratch); a nop. */
static const char k_forms[] = HDR
    ".global .align 4 .u32 gtab[4] = {1, 2, 3, -4};\n"
    ".const .align 8 .f64 cone = 0d3FF0000000000000;\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".shared .align 4 .b8 a[16];\n"
    ".shared .align 4 .b8 b[16];\n"
    ".shared .align 8 .u64 c[2];\n"
    ".func (.param .b32 r) f(.param .b32 x)\n"
    "{\n"
    "  .local .align 4 .b8 fr[8];\n"
    "  .reg .b32 %v<2>;\n"
    "  ld.param.u32 %v0, [x];\n"
    "  st.local.u32 [fr+4], %v0;\n"
    "  ld.local.u32 %v1, [fr+4];\n"
    "  st.param.b32 [r], %v1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out, .param .align 8 .b8 blob[12])\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .f64 %d1;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [blob+8];\n"
    "  ld.shared.u32 %r2, [a+20];\n"
    "  st.shared.u32 [b+4], %r2;\n"
    "  mov.u64 %rd2, c+8;\n"
    "  cvta.shared.u64 %rd3, c;\n"
    "  ld.shared.u32 %r3, [dyn+4];\n"
    "  ld.global.u32 %r4, [gtab+12];\n"
    "  ld.const.f64 %d1, [cone];\n"
    "  nop;\n"
    "$L_top:\n"
    "  { .param .b32 p0; st.param.b32 [p0], %r1; .param .b32 q0;\n"
    "    call.uni (q0), f, (p0); ld.param.b32 %r5, [q0]; }\n"
    "  { .param .b32 p0; st.param.b32 [p0], %r5; .param .b32 q0;\n"
    "    call.uni (q0), f, (p0); ld.param.b32 %r5, [q0]; }\n"
    "  setp.lt.s32 %p1, %r5, -1;\n"
    "  @%p1 bra $L_top;\n"
    "  st.global.u32 [%rd1+-4], %r5;\n"
    "  ret;\n"
    "}\n";

static void test_printed_forms(void **state)
{
    (void)state;
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    if (ptx_parse(k_forms, strlen(k_forms), "forms.ptx", &m, err, sizeof err))
        fail_msg("%s", err);
    ptx_place_vars(&m, VAR_BASE);
    char *t = round_trip(&m, "k", "forms.ptx:k");
    /* a is named only through [a+20]: its range absorbs b, so c stays at 32 */
    tu_assert_contains(t, "\t.shared .align 4 .b8 a[32];");
    tu_assert_contains(t, "\t.shared .align 8 .u64 c[2];");
    assert_null(strstr(t, " b[16]"));
    tu_assert_contains(t, "ld.shared.u32 %r2, [a+20];");
    tu_assert_contains(t, "st.shared.u32 [a+20], %r2;");
    tu_assert_contains(t, "mov.u64 %rd2, c+8;");
    tu_assert_contains(t, "cvta.shared.u64 %rd3, c;");
    tu_assert_contains(t, ".extern .shared .align 16 .b8 dyn[];");
    tu_assert_contains(t, "ld.shared.u32 %r3, [dyn+4];");
    tu_assert_contains(t, ".global .align 4 .u32 gtab[4] = {1, 2, 3, 4294967292};");
    tu_assert_contains(t, ".const .align 8 .f64 cone = 0d3FF0000000000000;");
    tu_assert_contains(t, "ld.global.u32 %r4, [gtab+12];");
    tu_assert_contains(t, "\t.param .align 8 .b8 blob[12]");
    tu_assert_contains(t, "ld.param.u32 %r1, [blob+8];");
    tu_assert_contains(t, "\t.pragma \"gpusim nop\";");
    /* the two inlined frames of f; the call sequences' params as marked local variables */
    tu_assert_contains(t, "\t.local .align 4 .b8 fr_i1[8];");
    tu_assert_contains(t, "\t.local .align 4 .b8 fr_i2[8];");
    tu_assert_contains(t, "st.local.u32 [fr_i2+4], %v0_i2;");
    tu_assert_contains(t, "\t.pragma \"gpusim param_scratch\";\n\t.local .align 4 .b32 p0;");
    tu_assert_contains(t, "\t.pragma \"gpusim param_scratch\";\n\t.local .align 4 .b32 p0_1;");
    tu_assert_contains(t, "st.local.b32 [p0_1], %r5;");          /* the second scope's p0 */
    tu_assert_contains(t, "ld.local.u32 %v0_i2, [p0_1];");
    tu_assert_contains(t, "\t.reg .b32 %r<6>;");
    tu_assert_contains(t, "\t.reg .b32 %v0_i1, %v1_i1");
    tu_assert_contains(t, "$L__pc10:\n");
    tu_assert_contains(t, "@%p1 bra $L__pc10;");
    tu_assert_contains(t, "st.global.u32 [%rd1+-4], %r5;");
    tu_assert_contains(t, "\texit;\n}");
    free(t);
    ptx_module_free(&m);
}

/* ------------------------------------------------------------------ directives */

/* The directives ptxas reads that a printed kernel must keep, by name. */
static const char *const kept_dirs[] = {".version", ".target", ".address_size", ".pragma",
    ".maxntid", ".reqntid", ".minnctapersm", ".maxnreg", ".maxnctapersm", ".maxclusterrank",
    ".reqnctapercluster", ".explicitcluster"};

/* One directive statement from s (at a kept directive's name) in the printer's spelling:
   spaces collapsed, no ';', thread and cluster shapes of three numbers, no debug target. */
static void norm_dir(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    int sp = 0, commas = 0, dims = !strncmp(s, ".maxntid", 8) || !strncmp(s, ".reqntid", 8)
                                   || !strncmp(s, ".reqnctapercluster", 18);
    for (size_t i = 0; i < n && s[i] != ';' && k + 8 < cap; i++) {
        if (s[i] == ' ' || s[i] == '\t') {
            sp = k > 0;
            continue;
        }
        if (sp && s[i] != ',')
            out[k++] = ' ';
        sp = 0;
        commas += s[i] == ',';
        out[k++] = s[i];
    }
    out[k] = 0;
    char *dbg = strstr(out, ", debug");
    if (!strncmp(out, ".target", 7) && dbg)
        memmove(dbg, dbg + 7, strlen(dbg + 7) + 1);
    for (; dims && commas < 2; commas++)
        strcat(out, ", 1");
}

/* The kept directives of a PTX text, normalised, one per line into out (comments skipped). */
static void kept_directives(const char *t, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = 0;
    for (const char *p = t; *p;) {
        if (p[0] == '/' && p[1] == '/') {
            p += strcspn(p, "\n");
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
            continue;
        }
        int at = *p == '.' && (p == t || strchr(" \t\n;{}", p[-1]));
        for (size_t d = 0; at && d < sizeof kept_dirs / sizeof *kept_dirs; d++) {
            size_t dl = strlen(kept_dirs[d]);
            if (strncmp(p, kept_dirs[d], dl) || !strchr(" \t\n;", p[dl]))
                continue;
            size_t n = strcspn(p, "\n"), m = strcspn(p, ";");
            char one[512];
            norm_dir(p, m < n ? m : n, one, sizeof one);
            k += (size_t)snprintf(out + k, k < cap ? cap - k : 0, "%s\n", one);
            break;
        }
        p++;
    }
    assert_true(k < cap);
}

/* Every directive line of `in` occurs in `printed` at least as often; .maxntid beside .reqntid
   excepted (ptxas: "Conflicting directives"; the printer keeps .reqntid, the stricter). */
static void expect_directives(const char *tag, const char *in, const char *printed)
{
    static char a[1 << 16], b[1 << 16];
    kept_directives(in, a, sizeof a);
    kept_directives(printed, b, sizeof b);
    int req = strstr(a, ".reqntid") != NULL;
    for (char *l = a, *e; *l; l = e + 1) {
        e = strchr(l, '\n');
        *e = 0;
        if (req && !strncmp(l, ".maxntid", 8))
            continue;
        unsigned na = 0, nb = 0;
        for (char *x = a; x < l; x += strlen(x) + 1)
            na += !strcmp(x, l);
        for (const char *y = b; (y = strstr(y, l)); y += strlen(l))
            nb += (y == b || y[-1] == '\n') && y[strlen(l)] == '\n';
        if (nb < na + 1)
            fail_msg("%s: '%s' is %u times in the input, %u in the printed text:\n%s", tag, l,
                     na + 1, nb, printed);
    }
}

static void directives_of(const char *tag, const char *text, void *arg)
{
    char path[600];
    snprintf(path, sizeof path, "%s", tag);
    *strrchr(path, ':') = 0;
    char *in = tu_read_file(path, NULL);
    assert_non_null(in);
    expect_directives(tag, in, text);
    free(in);
    (*(unsigned *)arg)++;
}

/* Cluster directives (sm_90) and the ones sm_75 does not take, on a module of their own. */
static const char k_dirs90[] = ".version 8.0\n.target sm_90, texmode_unified, debug\n"
    ".address_size 64\n.pragma \"nounroll\";\n"
    ".visible .entry c(.param .u32 x)\n.reqntid 64\n.maxnctapersm 3\n"
    ".reqnctapercluster 2, 1\n.explicitcluster\n.maxclusterrank 4\n"
    ".pragma \"nounroll\", \"other\";\n.pragma \"third\";\n"
    "{\n.reg .b32 %r<2>;\n.pragma \"nounroll\";\nld.param.u32 %r1, [x];\nret;\n}\n";

/* Issue 38: the parser dropped every .pragma but its own two (and the cluster directives, the
   .target options), so a printed kernel was another program to ptxas (matmul's loops lost
   "nounroll": 55 registers for 27). Every bench kernel, the test data, and a module with the
   rest. */
static void test_directives_kept(void **state)
{
    (void)state;
    unsigned n = 0;
    each_kernel("bench/*/kernel.ptx", directives_of, &n);
    each_kernel("tests/data/ptx/*.ptx", directives_of, &n);
    assert_true(n >= 33);
    struct ptx_module m;
    char err[PTX_ERR_LEN];
    if (ptx_parse(k_dirs90, strlen(k_dirs90), "dirs90.ptx", &m, err, sizeof err))
        fail_msg("%s", err);
    char *t = round_trip(&m, "c", "dirs90.ptx:c");
    expect_directives("dirs90.ptx:c", k_dirs90, t);
    tu_assert_contains(t, ".target sm_90, texmode_unified\n");      /* debug: no debug info */
    tu_assert_contains(t, ".pragma \"nounroll\", \"other\";\n.pragma \"third\";\n{");
    tu_assert_contains(t, "\t.pragma \"nounroll\";\n\tld.param.u32 %r1, [x];");
    free(t);
    ptx_module_free(&m);
}

/* ------------------------------------------------------------------ ptxas */

static int find_ptxas(char *path, size_t len)
{
    const char *env = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", env ? env : "");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(path, len, "%s/ptxas", d);
        if (access(path, X_OK) == 0)
            return 1;
    }
    glob_t g;
    int found = 0;
    if (glob("/usr/local/cuda*/bin/ptxas", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc && !found; i++)
            if (access(g.gl_pathv[i], X_OK) == 0) {
                snprintf(path, len, "%s", g.gl_pathv[i]);
                found = 1;
            }
        globfree(&g);
    }
    return found;
}

struct ptxas_run { const char *ptxas; unsigned n; };

static void ptxas_accepts(const char *tag, const char *text, void *arg)
{
    struct ptxas_run *r = arg;
    char file[700], cmd[2400], out[800];
    snprintf(file, sizeof file, OUT_DIR "/k%u.ptx", r->n);
    snprintf(out, sizeof out, OUT_DIR "/k%u.log", r->n++);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_75 '%s' -o '%s.cubin' > '%s' 2>&1", r->ptxas, file,
             file, out);
    int st = system(cmd);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char *log = tu_read_file(out, NULL);
        fail_msg("ptxas rejects the printed %s (%s):\n%s", tag, file, log ? log : "");
    }
}

static void test_ptxas_accepts_printed(void **state)
{
    (void)state;
    char ptxas[1024];
    if (!find_ptxas(ptxas, sizeof ptxas)) {
        print_message("ptxas not found on PATH or in /usr/local/cuda*/bin: the ptxas check is "
                      "skipped\n");
        skip();
    }
    mkdir(BUILD_DIR "/tests", 0777);
    mkdir(OUT_DIR, 0777);
    struct ptxas_run r = {ptxas, 0};
    each_kernel("bench/*/kernel.ptx", ptxas_accepts, &r);
    each_kernel("tests/data/ptx/*.ptx", ptxas_accepts, &r);
    struct ptx_module m;                 /* and the forms of test_printed_forms */
    char err[PTX_ERR_LEN];
    if (ptx_parse(k_forms, strlen(k_forms), "forms.ptx", &m, err, sizeof err))
        fail_msg("%s", err);
    ptx_place_vars(&m, VAR_BASE);
    char *t = round_trip(&m, "k", "forms.ptx:k");
    ptxas_accepts("forms.ptx:k", t, &r);
    free(t);
    ptx_module_free(&m);
    print_message("%s accepts all %u printed kernels\n", ptxas, r.n);
    assert_true(r.n >= 33);
}

struct ptxas_regs { unsigned n, bad; };

/* The printed bench kernel (tag "bench/NAME/kernel.ptx:KERNEL") compiles to the registers of
   its kernel.res (ptxas 13.0's, sm_75: the installed ptxas must be the one that wrote it). */
static void ptxas_regs_match(const char *tag, const char *text, void *arg)
{
    struct ptxas_regs *r = arg;
    char path[600], err[PTX_ERR_LEN];
    struct ptx_res rec, got;
    char res[640];
    snprintf(path, sizeof path, "%s", tag);
    char *colon = strrchr(path, ':');
    *colon = 0;
    ptx_res_path(path, res, sizeof res);
    if (ptx_res_read(res, &rec, err, sizeof err))
        fail_msg("%s: %s", res, err);
    const struct ptx_res_kernel *want = ptx_res_find(&rec, colon + 1);
    if (ptx_res_run_ptxas_text(text, strlen(text), "sm_75", &got, err, sizeof err))
        fail_msg("%s: %s", tag, err);
    assert_non_null(want);
    print_message("%-44s kernel.res %3u, printed %3u\n", tag, want->regs, got.k[0].regs);
    r->bad += got.k[0].regs != want->regs;
    r->n++;
}

static void test_ptxas_registers_printed(void **state)
{
    (void)state;
    char ptxas[1024];
    if (!find_ptxas(ptxas, sizeof ptxas)) {
        print_message("ptxas not found on PATH or in /usr/local/cuda*/bin: the register check "
                      "is skipped\n");
        skip();
    }
    struct ptxas_regs r = {0, 0};
    each_kernel("bench/*/kernel.ptx", ptxas_regs_match, &r);
    assert_true(r.n >= 28);
    assert_int_equal(r.bad, 0);
}

/* ------------------------------------------------------------------ bad input, other outputs */

static void test_bad_prog_and_outputs(void **state)
{
    (void)state;
    struct ptx_module m;
    struct ptx_prog p;
    char err[PTX_ERR_LEN];
    if (ptx_parse(k_forms, strlen(k_forms), "forms.ptx", &m, err, sizeof err)
        || ptx_link(&m, "k", &p, err, sizeof err))
        fail_msg("%s", err);
    /* the FILE* and the string outputs agree */
    char *s = ptx_print_string(&p, err, sizeof err);
    assert_non_null(s);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(ptx_print(f, &p, err, sizeof err), 0);
    long n = ftell(f);
    assert_int_equal((size_t)n, strlen(s));
    char *back = calloc(1, (size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(back, 1, (size_t)n, f), (size_t)n);
    assert_string_equal(back, s);
    free(back);
    free(s);
    fclose(f);
    /* malformed programs: a clear message, no output */
    p.insns[0].opd[0].reg = (int32_t)p.nregs;
    assert_null(ptx_print_string(&p, err, sizeof err));
    assert_string_equal(err, "print k: pc 0: operand 1 out of range");
    p.insns[0].opd[0].reg = 0;
    int64_t t = p.insns[p.ninsns - 2].opd[0].imm;
    p.insns[p.ninsns - 2].opd[0].kind = OPD_LABEL;
    p.insns[p.ninsns - 2].opd[0].imm = p.ninsns;
    assert_int_equal(ptx_print(stdout, &p, err, sizeof err), -1);
    tu_assert_contains(err, "out of range");
    p.insns[p.ninsns - 2].opd[0].imm = t;
    assert_int_equal(ptx_print(NULL, &p, err, sizeof err), -1);
    assert_int_equal(ptx_print(stdout, NULL, err, sizeof err), -1);
    ptx_prog_free(&p);
    ptx_module_free(&m);
}

/* A prog made by hand (no module, no register names, no symbols): defaults, and it parses. */
static void test_hand_made_prog(void **state)
{
    (void)state;
    struct ptx_prog p;
    struct ptx_insn in[2];
    uint8_t types[1] = {PT_U32};
    char err[PTX_ERR_LEN];
    memset(&p, 0, sizeof p);
    memset(in, 0, sizeof in);
    snprintf(p.name, sizeof p.name, "hand");
    in[0].op = OP_MOV, in[0].type = PT_U32, in[0].guard = -1, in[0].nopd = 2;
    in[0].opd[0].kind = OPD_REG, in[0].opd[0].reg = 0;
    in[0].opd[1].kind = OPD_SREG, in[0].opd[1].sreg = SR_TID, in[0].opd[1].comp = 1;
    in[1].op = OP_EXIT, in[1].guard = -1;
    p.insns = in, p.ninsns = 2, p.reg_type = types, p.nregs = 1;
    char *t = ptx_print_string(&p, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    tu_assert_contains(t, ".version 7.0\n.target sm_75\n.address_size 64\n");
    tu_assert_contains(t, ".visible .entry hand()\n{\n\t.reg .u32 %R0;\n");
    tu_assert_contains(t, "\tmov.u32 %R0, %tid.y;\n\texit;\n}\n");
    struct ptx_module m;
    if (ptx_parse(t, strlen(t), "hand.ptx", &m, err, sizeof err))
        fail_msg("%s\n%s", err, t);
    free(t);
    ptx_module_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_bench),
        cmocka_unit_test(test_round_trip_test_data),
        cmocka_unit_test(test_printed_forms),
        cmocka_unit_test(test_directives_kept),
        cmocka_unit_test(test_ptxas_accepts_printed),
        cmocka_unit_test(test_ptxas_registers_printed),
        cmocka_unit_test(test_bad_prog_and_outputs),
        cmocka_unit_test(test_hand_made_prog),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
