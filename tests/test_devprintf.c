/*
 * test_devprintf.c -- device-side printf (PTX vprintf; model/func/devprintf.h, exec_printf.c,
 * the linker's OP_PRINTF, gs_set_printf):
 *   - the formatter on host memory: every conversion CUDA's printf has, flags, widths,
 *     precisions, lengths, %%; its refusals (unknown conversion, %n, '*', L, a width above
 *     PF_MAX_WIDTH, more than PF_MAX_ARGS arguments, an argument it cannot read, a format
 *     ending inside a conversion) as errors, never output;
 *   - the launch's buffer: the order, the 64 MB bound (calls beyond dropped and counted);
 *   - PTX kernels calling vprintf, under the functional and the timing model: two CTAs of two
 *     warps (one partial) and a second, divergent call, the output in the documented order
 *     (CTA, warp, the thread's call, lane) and the same under both models; the return value
 *     (arguments consumed); gs_set_printf(NULL) discards;
 *   - the error paths: a bad format, a format or %s address outside memory each a kernel
 *     fault naming kernel, PC, CTA and thread; a call of another shape refused at link;
 *   - the linked kernel printed as PTX (ptx_print: vprintf's call sequence) runs the same.
 */
#include "testutil.h"
#include "gpu/gpusim.h"
#include "func/devprintf.h"
#include "ptx/ptx.h"

/* ------------------------------------------------------------------ the formatter */

struct hostmem { const uint8_t *args; size_t nargs; };

static int h_arg(void *ctx, uint64_t off, unsigned n, uint64_t *v, char *err, size_t errlen)
{
    const struct hostmem *h = ctx;
    if (off + n > h->nargs)
        return snprintf(err, errlen, "argument at %llu outside", (unsigned long long)off), -1;
    *v = 0;
    memcpy(v, h->args + off, n);
    return 0;
}

/* Strings: a device address is a host address here (below 4096: outside). */
static int h_byte(void *ctx, uint64_t addr, uint8_t *b, char *err, size_t errlen)
{
    (void)ctx;
    if (addr < 4096)
        return snprintf(err, errlen, "byte at 0x%llx outside", (unsigned long long)addr), -1;
    *b = *(const uint8_t *)(uintptr_t)addr;
    return 0;
}

/* An argument buffer packed as CUDA does: each value at the next offset aligned to its size. */
struct pack { uint8_t b[512]; size_t n; };

static void put(struct pack *p, const void *v, size_t size)
{
    p->n = (p->n + size - 1) / size * size;
    memcpy(p->b + p->n, v, size);
    p->n += size;
}
#define PUT(p, T, v) do { T v_ = (v); put((p), &v_, sizeof v_); } while (0)

static int fmt(const char *f, const struct pack *p, char *out, size_t outlen, char *err)
{
    struct hostmem h = { p ? p->b : NULL, p ? p->n : 0 };
    struct pf_src src = { &h, h_arg, h_byte };
    struct pf_text t = {0};
    int n = pf_format(f, strlen(f), &src, &t, err, 256);
    snprintf(out, outlen, "%s", t.s ? t.s : "");
    free(t.s);
    return n;
}

static void test_conversions(void **state)
{
    struct pack p = {0};
    char out[1024], err[256];
    (void)state;
    PUT(&p, int32_t, -42); PUT(&p, int32_t, 7); PUT(&p, uint32_t, 4000000000u);
    PUT(&p, int32_t, 255); PUT(&p, int32_t, 255); PUT(&p, int32_t, 8); PUT(&p, int32_t, 'A');
    PUT(&p, int64_t, -5000000000ll); PUT(&p, int64_t, 1ll << 40); PUT(&p, uint64_t, ~0ull);
    PUT(&p, int32_t, 42); PUT(&p, int32_t, 42); PUT(&p, int32_t, 70000);
    assert_int_equal(fmt("%d %i %u %x %X %o %c %ld %lld %lu|%-5d|%05d|%hd%%", &p, out,
                         sizeof out, err), 13);
    assert_string_equal(out, "-42 7 4000000000 ff FF 10 A -5000000000 1099511627776 "
                        "18446744073709551615|42   |00042|4464%");
    memset(&p, 0, sizeof p);
    PUT(&p, double, 1.5); PUT(&p, double, 3.14159); PUT(&p, double, 12345.678);
    PUT(&p, double, 1e-5); PUT(&p, double, -2.0); PUT(&p, uint64_t, 0x1234);
    PUT(&p, uint64_t, (uintptr_t)"word"); PUT(&p, uint64_t, 0); PUT(&p, uint64_t, (uintptr_t)"truncate");
    assert_int_equal(fmt("%f %.2f %e %g %+8.3f %p [%6s] %s [%.3s]", &p, out, sizeof out, err), 9);
    assert_string_equal(out, "1.500000 3.14 1.234568e+04 1e-05   -2.000 0x1234 [  word] (null) "
                        "[tru]");
    assert_int_equal(fmt("no arguments\n", NULL, out, sizeof out, err), 0);
    assert_string_equal(out, "no arguments\n");
}

static void refused(const char *f, const struct pack *p, const char *why)
{
    char out[256], err[256] = "";
    assert_int_equal(fmt(f, p, out, sizeof out, err), -1);
    if (!strstr(err, why))
        fail_msg("format \"%s\": \"%s\" does not say \"%s\"", f, err, why);
}

static void test_refusals(void **state)
{
    struct pack p = {0}, many = {0};
    (void)state;
    for (int i = 0; i < 8; i++)
        PUT(&p, int64_t, 1);
    for (int i = 0; i < 40; i++)
        PUT(&many, int32_t, i);
    refused("%q", &p, "unknown conversion '%q'");
    refused("x %n", &p, "%n at offset 2");
    refused("%*d", &p, "'*' width");
    refused("%.*f", &p, "'*' precision");
    refused("%Lf", &p, "long double");
    refused("%lf", &p, "length 'l' with %f");
    refused("%5000d", &p, "width above 4096");
    refused("%.9999f", &p, "precision above 4096");
    refused("%d %", &p, "ends inside the conversion");
    refused("%d %d", &(struct pack){ .n = 4 }, "argument at 4 outside");
    refused("%s", &(struct pack){ .n = 8, .b = {0x10} }, "byte at 0x10 outside");
    char f[200] = "";
    for (int i = 0; i < 33; i++)
        strcat(f, "%d");
    refused(f, &many, "more than 32 arguments");
}

/* The launch buffer on its own: records added out of order come out by CTA, warp, the
   thread's call, lane; past PF_MAX_LAUNCH (text and 40 bytes a record) calls are dropped and
   counted; empty texts take no room. */
static void test_buffer(void **state)
{
    struct ex_printf b = {0};
    char *text, *big = malloc(1u << 20);
    size_t n;
    (void)state;
    b.out = tmpfile();
    assert_non_null(b.out);
    assert_non_null(big);
    pf_add(&b, 1, 0, "c1 t0\n", 6);
    pf_add(&b, 0, 33, "c0 t33 first\n", 13);
    pf_add(&b, 0, 1, "c0 t1 first\n", 12);
    pf_add(&b, 0, 1, "c0 t1 second\n", 13);
    pf_add(&b, 0, 0, "", 0);
    pf_add(&b, 0, 0, "c0 t0 first\n", 12);
    pf_flush(&b);
    memset(big, 'x', 1u << 20);
    big[(1u << 20) - 1] = '\n';
    for (int i = 0; i < 65; i++)
        pf_add(&b, 0, 0, big, 1u << 20);
    pf_flush(&b);
    text = malloc(70u << 20);
    rewind(b.out);
    n = fread(text, 1, (70u << 20) - 1, b.out);
    text[n] = 0;
    assert_memory_equal(text, "c0 t0 first\nc0 t1 first\nc0 t1 second\nc0 t33 first\nc1 t0\n", 56);
    assert_int_equal(n, 56 + (63u << 20) + strlen("gpusim: printf: the output of 2 calls was "
                     "dropped (one launch keeps at most 64 MB)\n"));
    tu_assert_contains(text + n - 100, "gpusim: printf: the output of 2 calls was dropped");
    fclose(b.out);
    pf_free(&b);
    free(big);
    free(text);
}

/* ------------------------------------------------------------------ PTX kernels */

#define PREAMBLE                                                                          \
    ".version 7.0\n.target sm_75\n.address_size 64\n"                                      \
    ".extern .func (.param .b32 func_retval0) vprintf\n(\n .param .b64 vprintf_param_0,\n" \
    " .param .b64 vprintf_param_1\n)\n;\n"

/* ".global .align 1 .b8 NAME[n] = {...};" for the string s with its NUL. */
static void cstring(char *buf, size_t n, const char *name, const char *s)
{
    size_t k = strlen(s), at = (size_t)snprintf(buf, n, ".global .align 1 .b8 %s[%zu] = {",
                                                name, k + 1);
    for (size_t i = 0; i <= k && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%u", i ? ", " : "", (unsigned char)s[i]);
    snprintf(buf + at, n - at, "};\n");
}

/* Kernel k(out): every thread prints FMT with (tid.x, tid.x * 17, "word", (double)tid.x), the
   return value to out[ctaid * ntid + tid]; threads with tid % 16 == 3 print FMT2 (tid.x)
   as well (a guarded call). FMTADDR, when not NULL, replaces the format's address (a PTX operand). */
static char *kernel_ptx(const char *fmt1, const char *fmt2, const char *fmtaddr)
{
    static char buf[16384];
    char f1[2048], f2[2048], w[256];
    cstring(f1, sizeof f1, "fmt", fmt1);
    cstring(f2, sizeof f2, "fmt2", fmt2);
    cstring(w, sizeof w, "word", "word");
    snprintf(buf, sizeof buf, PREAMBLE "%s%s%s"
        ".visible .entry k(.param .u64 out)\n{\n"
        " .local .align 16 .b8 depot[32];\n"
        " .reg .b64 %%SP, %%SPL, %%rd<10>;\n .reg .b32 %%r<10>;\n .reg .f64 %%fd1;\n"
        " .reg .pred %%p1;\n"
        " mov.u64 %%SPL, depot;\n cvta.local.u64 %%SP, %%SPL;\n"
        " mov.u32 %%r1, %%tid.x;\n st.local.u32 [%%SPL], %%r1;\n"
        " mul.lo.u32 %%r2, %%r1, 17;\n st.local.u32 [%%SPL+4], %%r2;\n"
        " mov.u64 %%rd1, word;\n cvta.global.u64 %%rd2, %%rd1;\n st.local.u64 [%%SPL+8], %%rd2;\n"
        " cvt.rn.f64.u32 %%fd1, %%r1;\n st.local.f64 [%%SPL+16], %%fd1;\n"
        " mov.u64 %%rd3, fmt;\n cvta.global.u64 %%rd4, %%rd3;\n %s\n"
        " {\n .param .b64 param0;\n st.param.b64 [param0+0], %%rd4;\n"
        " .param .b64 param1;\n st.param.b64 [param1+0], %%SP;\n .param .b32 retval0;\n"
        " call.uni (retval0), vprintf, (param0, param1);\n ld.param.b32 %%r3, [retval0+0];\n }\n"
        " mov.u32 %%r4, %%ctaid.x;\n mov.u32 %%r5, %%ntid.x;\n mad.lo.u32 %%r6, %%r4, %%r5, %%r1;\n"
        " ld.param.u64 %%rd5, [out];\n mul.wide.u32 %%rd6, %%r6, 4;\n add.s64 %%rd7, %%rd5, %%rd6;\n"
        " st.global.u32 [%%rd7], %%r3;\n"
        " and.b32 %%r7, %%r1, 15;\n setp.eq.u32 %%p1, %%r7, 3;\n"
        " mov.u64 %%rd8, fmt2;\n cvta.global.u64 %%rd9, %%rd8;\n"
        " {\n .param .b64 param0;\n st.param.b64 [param0+0], %%rd9;\n"
        " .param .b64 param1;\n st.param.b64 [param1+0], %%SP;\n .param .b32 retval0;\n"
        " @%%p1 call.uni (retval0), vprintf, (param0, param1);\n }\n"
        " ret;\n}\n", f1, f2, w, fmtaddr ? fmtaddr : "");
    return buf;
}

/* Run k on grid x 40 threads under `model`, its printf output into a file: the launch's
   status; *text the output (malloc'd), msg the error, ret the return values. */
static int run_k(const char *ptx, const char *model, unsigned grid, char **text, char *msg,
                 size_t msglen, int32_t *ret)
{
    char set[64];
    snprintf(set, sizeof set, "model=%s", model);
    const char *sets[] = { set, "regs_source=estimate" };
    struct gs_gpu *g;
    struct gs_module *m;
    uint64_t d;
    char err[512];
    FILE *f = tmpfile();
    int rc;
    assert_non_null(f);
    if (gs_init(&g, NULL, sets, 2, err, sizeof err))
        fail_msg("%s", err);
    gs_set_printf(g, f);
    rc = gs_load_ptx_text(g, ptx, "printf.ptx", &m);
    if (rc == GS_OK) {
        assert_int_equal(gs_malloc(g, &d, 4 * 40 * grid), GS_OK);
        struct gs_arg a = GS_ARG(d);
        rc = gs_launch(g, m, "k", (struct gs_dim3){ grid, 1, 1 }, (struct gs_dim3){ 40, 1, 1 },
                       0, &a, 1);
        if (ret)
            gs_memcpy_dtoh(g, ret, d, 4 * 40 * grid);
    }
    snprintf(msg, msglen, "%s", rc ? gs_last_error(g) : "");
    gs_destroy(g);
    long n = ftell(f);
    *text = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    rewind(f);
    if (n > 0 && fread(*text, 1, (size_t)n, f) != (size_t)n)
        fail_msg("cannot read the printf output back");
    fclose(f);
    return rc;
}

static void test_kernel_order(void **state)
{
    const char *ptx = kernel_ptx("t%d x%x %s %.1f\n", "t%d again\n", NULL);
    char want[16384] = "", line[128], *got[2], msg[2048];
    const char *models[2] = { "functional", "timing" };
    int32_t ret[80];
    size_t at = 0;
    (void)state;
    /* the documented order: CTA, warp, the thread's call, lane */
    for (unsigned cta = 0; cta < 2; cta++)
        for (unsigned w = 0; w < 2; w++)
            for (unsigned call = 0; call < 2; call++)
                for (unsigned t = 32 * w; t < 40 && t < 32 * w + 32; t++) {
                    if (call == 0)
                        snprintf(line, sizeof line, "t%u x%x word %.1f\n", t, t * 17,
                                 (double)t);
                    else if (t % 16 == 3)
                        snprintf(line, sizeof line, "t%u again\n", t);
                    else
                        continue;
                    at += (size_t)snprintf(want + at, sizeof want - at, "%s", line);
                }
    for (int i = 0; i < 2; i++) {
        if (run_k(ptx, models[i], 2, &got[i], msg, sizeof msg, ret))
            fail_msg("%s: %s", models[i], msg);
        assert_string_equal(got[i], want);
        for (int t = 0; t < 80; t++)
            assert_int_equal(ret[t], 4);
        free(got[i]);
    }
    /* the arguments as registers (PTX allows them in a call): the same */
    char *regs = strdup(ptx), *call = strstr(regs, "vprintf, (param0, param1);\n ld.param");
    assert_non_null(call);
    memcpy(call, "vprintf, (%rd4,   %SP   );", 26);
    if (run_k(regs, "timing", 2, &got[0], msg, sizeof msg, NULL))
        fail_msg("%s", msg);
    assert_string_equal(got[0], want);
    free(got[0]);
    free(regs);
}

/* A launch of ptx faults in thread (tid,0,0) of CTA 0 with a message saying why. */
static void fault(const char *ptx, const char *model, unsigned tid, const char *why)
{
    char *text, msg[2048], where[64];
    int rc = run_k(ptx, model, 1, &text, msg, sizeof msg, NULL);
    free(text);
    assert_int_equal(rc, GS_ERR_KERNEL);
    snprintf(where, sizeof where, "CTA (0,0,0) thread (%u,0,0): printf: ", tid);
    if (!strstr(msg, "kernel k: PC ") || !strstr(msg, where) || !strstr(msg, why))
        fail_msg("%s: the message \"%s\" does not name kernel, PC, \"%s\" and \"%s\"",
                 model, msg, where, why);
}

static void test_kernel_errors(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        const char *model = i ? "timing" : "functional";
        fault(kernel_ptx("%d %q\n", "x\n", NULL), model, 0, "unknown conversion '%q' (byte "
              "0x71) at offset 3");
        fault(kernel_ptx("%d\n", "x\n", "mov.u64 %rd4, 0x7ff000000000;"), model, 0,
              "format string at 0x7ff000000000: byte 0 is outside memory");
        /* the fourth argument is the double tid.x as a string: thread 0's 0.0 prints "(null)",
           thread 1's 1.0 is an address outside memory */
        fault(kernel_ptx("%d %d %s %s\n", "x\n", NULL), model, 1,
              "string byte at 0x3ff0000000000000 is outside memory");
    }
}

/* The linked kernel printed as PTX (ptx_print: vprintf's call sequence, a guarded call too)
   parses, links and prints the same as the kernel itself. */
static void test_print_round_trip(void **state)
{
    const char *src = kernel_ptx("t%d x%x %s %.1f\n", "t%d again\n", NULL);
    char *text, *a, *b, msg[2048], err[PTX_ERR_LEN];
    struct ptx_module m;
    struct ptx_prog p;
    (void)state;
    if (ptx_parse(src, strlen(src), "printf.ptx", &m, err, sizeof err))
        fail_msg("%s", err);
    ptx_place_vars(&m, 0x1000);               /* the strings at distinct addresses */
    if (ptx_link(&m, "k", &p, err, sizeof err))
        fail_msg("%s", err);
    text = ptx_print_string(&p, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    tu_assert_contains(text, ".extern .func (.param .b32 func_retval0) vprintf\n");
    tu_assert_contains(text, "call.uni (gpusim_pf_ret), vprintf, (gpusim_pf_arg0, gpusim_pf_arg1);");
    tu_assert_contains(text, "@%p1 call.uni");                  /* a guarded call stays guarded */
    ptx_prog_free(&p);
    ptx_module_free(&m);
    for (int i = 0; i < 2; i++)
        if (run_k(i ? text : kernel_ptx("t%d x%x %s %.1f\n", "t%d again\n", NULL), "timing", 2,
                  i ? &b : &a, msg, sizeof msg, NULL))
            fail_msg("%s", msg);
    assert_string_equal(a, b);
    tu_assert_contains(b, "t35 again\n");
    free(a);
    free(b);
    free(text);
}

static void test_link_shape(void **state)
{
    char *text, msg[2048];
    static const char ptx[] = PREAMBLE
        ".visible .entry k(.param .u64 out)\n{\n .reg .b64 %rd1;\n mov.u64 %rd1, 0;\n"
        " {\n .param .b64 param0;\n st.param.b64 [param0+0], %rd1;\n"
        " call.uni vprintf, (param0);\n }\n ret;\n}\n";
    (void)state;
    int rc = run_k(ptx, "functional", 1, &text, msg, sizeof msg, NULL);
    free(text);
    assert_int_not_equal(rc, GS_OK);
    if (!strstr(msg, "is not vprintf("))
        fail_msg("%s", msg);
}

static void test_discard(void **state)
{
    const char *sets[] = { "model=functional", "regs_source=estimate" };
    struct gs_gpu *g;
    struct gs_module *m;
    uint64_t d;
    char err[512];
    (void)state;
    assert_int_equal(gs_set_printf(NULL, stdout), GS_ERR_INVALID_VALUE);
    if (gs_init(&g, NULL, sets, 2, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(gs_set_printf(g, NULL), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, kernel_ptx("%d\n", "x\n", NULL), "p.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 160), GS_OK);
    struct gs_arg a = GS_ARG(d);
    assert_int_equal(gs_launch(g, m, "k", (struct gs_dim3){ 1, 1, 1 },
                               (struct gs_dim3){ 40, 1, 1 }, 0, &a, 1), GS_OK);
    gs_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_buffer),
        cmocka_unit_test(test_kernel_order),
        cmocka_unit_test(test_kernel_errors),
        cmocka_unit_test(test_print_round_trip),
        cmocka_unit_test(test_link_shape),
        cmocka_unit_test(test_discard),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
