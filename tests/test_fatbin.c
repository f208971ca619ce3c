/*
 * test_fatbin.c -- the fatbinary reader of the CUDA runtime library (cuda/fatbin.c) on the
 * .nv_fatbin sections of a program nvcc compiled in five forms (tests/data/cuda/: zstd, the
 * default; none, --compress-mode=none; lz4, --compress-mode=speed; multi, PTX for compute_75
 * and compute_80; sass, no PTX), checked in so that no nvcc is needed:
 *   - every fatbinary of each section parses; the PTX of the three compressions is the same
 *     text, which the model loads and runs (the kernel's stores checked);
 *   - the newest PTX comes first; a program without PTX has none;
 *   - malformed input gets a clear error and no read past the end: bad magic, a version, a
 *     header or entry sizes past the bytes there are, every truncation of a real section,
 *     corrupt zstd and LZ4 payloads (the message names -no-compress), flags for both forms.
 */
#include "testutil.h"
#include "fatbin.h"
#include "gpu/gpusim.h"

#define DATA "tests/data/cuda/"

struct section { uint8_t *bytes; size_t len; };

static struct section read_section(const char *form)
{
    char path[256];
    struct section s;
    snprintf(path, sizeof path, DATA "%s.fatbin", form);
    s.bytes = (uint8_t *)tu_read_file(path, &s.len);
    assert_non_null(s.bytes);
    return s;
}

/* The fatbinaries of a section, one after another (each 8-byte aligned); the number. */
static unsigned parse_all(const struct section *s, struct fb_image *imgs, unsigned max)
{
    char err[512];
    size_t off = 0;
    unsigned n = 0;
    while (off + 16 <= s->len && n < max) {
        if (fb_parse(s->bytes + off, s->len - off, &imgs[n], err, sizeof err))
            fail_msg("%s at offset %zu", err, off);
        off += (imgs[n].size + 7) / 8 * 8;
        n++;
    }
    assert_int_equal(off, s->len);
    return n;
}

/* The text of the newest PTX of the section's last fatbinary (the program's own). */
static char *section_ptx(const char *form, size_t *len, unsigned *arch)
{
    static struct fb_image imgs[4];
    struct section s = read_section(form);
    unsigned n = parse_all(&s, imgs, 4), order[8];
    char err[512], *text;
    assert_true(n >= 1);
    assert_true(fb_ptx_order(&imgs[n - 1], order, 8) >= 1);
    if (arch)
        *arch = imgs[n - 1].e[order[0]].arch;
    if (fb_entry_text(&imgs[n - 1].e[order[0]], &text, len, err, sizeof err))
        fail_msg("%s: %s", form, err);
    free(s.bytes);
    return text;
}

static void test_three_forms_same_text(void **state)
{
    size_t lz, lnone, l4;
    char *z = section_ptx("zstd", &lz, NULL), *none = section_ptx("none", &lnone, NULL);
    char *l = section_ptx("lz4", &l4, NULL);
    (void)state;
    tu_assert_contains(z, ".target sm_75");
    tu_assert_contains(z, ".entry _Z4tinyPi");
    assert_int_equal(lz, strlen(z));           /* the NUL padding dropped */
    assert_int_equal(lz, lnone);
    assert_int_equal(lz, l4);
    assert_memory_equal(z, none, lz);
    assert_memory_equal(z, l, lz);
    free(z); free(none); free(l);
}

/* The extracted PTX loads and runs: p[i] = 3 i + 1. */
static void test_text_runs(void **state)
{
    struct gs_gpu *g;
    struct gs_module *m;
    const char *sets[] = { "model=functional", "regs_source=estimate" };
    size_t len;
    char *text = section_ptx("zstd", &len, NULL), err[256];
    uint64_t d;
    int out[64];
    (void)state;
    assert_int_equal(gs_init(&g, NULL, sets, 2, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_mem(g, text, len, "tiny", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, sizeof out), GS_OK);
    {
        const struct gs_arg args[] = { GS_ARG(d) };
        assert_int_equal(gs_launch(g, m, "_Z4tinyPi", (struct gs_dim3){ 1, 1, 1 },
                                   (struct gs_dim3){ 64, 1, 1 }, 0, args, 1), GS_OK);
    }
    assert_int_equal(gs_memcpy_dtoh(g, out, d, sizeof out), GS_OK);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], 3 * i + 1);
    gs_destroy(g);
    free(text);
}

static void test_newest_first(void **state)
{
    size_t len;
    unsigned arch;
    char *text = section_ptx("multi", &len, &arch);
    (void)state;
    assert_int_equal(arch, 80);
    tu_assert_contains(text, ".target sm_80");
    free(text);
}

static void test_sass_only(void **state)
{
    struct fb_image imgs[4];
    struct section s = read_section("sass");
    unsigned n = parse_all(&s, imgs, 4), order[8];
    (void)state;
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(fb_ptx_order(&imgs[i], order, 8), 0);
    assert_int_equal(imgs[n - 1].e[0].kind, FB_KIND_ELF);
    free(s.bytes);
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* fb_parse on buf fails and its message holds `want`. */
static void parse_fails(const uint8_t *buf, size_t len, const char *want)
{
    static struct fb_image img;
    char err[512] = "";
    assert_int_equal(fb_parse(buf, len, &img, err, sizeof err), -1);
    tu_assert_contains(err, want);
}

static void test_malformed_headers(void **state)
{
    struct section s = read_section("zstd");
    uint8_t *b = s.bytes + 1528, copy[64];    /* the program's fatbinary */
    size_t len = s.len - 1528;
    const void *data;
    char err[256];
    (void)state;
    parse_fails(NULL, 0, "null");
    parse_fails(b, 8, "shorter than");
    memcpy(copy, b, sizeof copy);
    copy[0] ^= 1;
    parse_fails(copy, sizeof copy, "magic");
    memcpy(copy, b, sizeof copy);
    copy[4] = 2;                               /* version 2 */
    parse_fails(copy, sizeof copy, "only version 1");
    parse_fails(b, len - 1, "more than the bytes there are");
    memcpy(copy, b, sizeof copy);
    put64(copy + 8, ~0ull);                    /* entries of 2^64 - 1 bytes */
    parse_fails(copy, sizeof copy, "more than the bytes there are");
    memcpy(copy, b, sizeof copy);
    put64(copy + 8, 40);                       /* an entry header cut short */
    parse_fails(copy, sizeof copy, "header size 64");
    /* the wrapper */
    {
        uint8_t w[24] = { 0 };
        assert_int_equal(fb_wrapper(w, &data, err, sizeof err), -1);
        tu_assert_contains(err, "magic");
        put32(w, FB_WRAPPER_MAGIC);
        assert_int_equal(fb_wrapper(w, &data, err, sizeof err), -1);
        tu_assert_contains(err, "no fatbinary");
        assert_int_equal(fb_wrapper(NULL, &data, err, sizeof err), -1);
    }
    free(s.bytes);
}

static void test_malformed_entries(void **state)
{
    struct section s = read_section("zstd");
    uint8_t *b = malloc(s.len - 1528);
    size_t len = s.len - 1528;
    (void)state;
    memcpy(b, s.bytes + 1528, len);
    put32(b + 16 + 4, 1u << 30);               /* the first entry's header size */
    parse_fails(b, len, "header size");
    memcpy(b, s.bytes + 1528, len);
    put64(b + 16 + 8, 1ull << 40);             /* its payload size */
    parse_fails(b, len, "truncated or corrupt");
    free(b);
    free(s.bytes);
}

/* Entry `which` (0: the first PTX) of a copy of form's program fatbinary, bytes changed by
   fn; fb_entry_text's result and message. */
static int text_of_changed(const char *form, void (*fn)(struct fb_entry *, uint8_t *),
                           char *err, size_t errlen)
{
    static struct fb_image img;
    struct section s = read_section(form);
    unsigned order[8];
    char *text = NULL;
    size_t len;
    int rc;
    assert_int_equal(fb_parse(s.bytes + 1528, s.len - 1528, &img, err, errlen), 0);
    assert_int_equal(fb_ptx_order(&img, order, 8), 1);
    fn(&img.e[order[0]], (uint8_t *)img.e[order[0]].payload);
    rc = fb_entry_text(&img.e[order[0]], &text, &len, err, errlen);
    assert_true(rc == 0 || text == NULL);
    free(text);
    free(s.bytes);
    return rc;
}

static void scramble(struct fb_entry *e, uint8_t *p)
{
    for (uint64_t i = 4; i < e->compressed_size; i += 3)
        p[i] ^= 0x5a;
}

static void huge_size(struct fb_entry *e, uint8_t *p)
{
    (void)p;
    e->size = 1ull << 40;
}

static void both_forms(struct fb_entry *e, uint8_t *p)
{
    (void)p;
    e->flags |= FB_FLAG_ZSTD | FB_FLAG_LZ4;
}

static void short_size(struct fb_entry *e, uint8_t *p)
{
    (void)p;
    e->size -= 10;
}

static void test_corrupt_payloads(void **state)
{
    char err[512];
    (void)state;
    assert_int_equal(text_of_changed("zstd", scramble, err, sizeof err), -1);
    tu_assert_contains(err, "zstd");
    tu_assert_contains(err, "-no-compress");
    tu_assert_contains(err, "--compress-mode=none");
    assert_int_equal(text_of_changed("lz4", scramble, err, sizeof err), -1);
    tu_assert_contains(err, "lz4");
    tu_assert_contains(err, "-no-compress");
    assert_int_equal(text_of_changed("zstd", huge_size, err, sizeof err), -1);
    tu_assert_contains(err, "unknown or too large");
    assert_int_equal(text_of_changed("lz4", both_forms, err, sizeof err), -1);
    tu_assert_contains(err, "compressed twice");
    assert_int_equal(text_of_changed("zstd", short_size, err, sizeof err), -1);
    assert_int_equal(text_of_changed("lz4", short_size, err, sizeof err), -1);
}

/* Every truncation of every section: parse what is there, decompress each PTX entry; an
   error or a text, never a read past the bytes (the sanitizer build runs this too). */
static void test_every_truncation(void **state)
{
    static const char *const forms[] = { "zstd", "none", "lz4", "multi", "sass" };
    static struct fb_image img;
    char err[512];
    (void)state;
    for (unsigned f = 0; f < 5; f++) {
        struct section s = read_section(forms[f]);
        for (size_t cut = 0; cut <= s.len - 1528; cut++) {
            uint8_t *b = malloc(cut ? cut : 1);
            memcpy(b, s.bytes + 1528, cut);
            if (fb_parse(b, cut, &img, err, sizeof err) == 0)
                for (unsigned i = 0; i < img.nentries; i++) {
                    char *text;
                    size_t len;
                    if (img.e[i].kind == FB_KIND_PTX &&
                        fb_entry_text(&img.e[i], &text, &len, err, sizeof err) == 0)
                        free(text);
                }
            else
                assert_true(err[0] != 0);
            free(b);
        }
        free(s.bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_forms_same_text),
        cmocka_unit_test(test_text_runs),
        cmocka_unit_test(test_newest_first),
        cmocka_unit_test(test_sass_only),
        cmocka_unit_test(test_malformed_headers),
        cmocka_unit_test(test_malformed_entries),
        cmocka_unit_test(test_corrupt_payloads),
        cmocka_unit_test(test_every_truncation),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
