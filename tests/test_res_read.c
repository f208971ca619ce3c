/*
 * test_res_read.c -- the register record reader (model/ptx/ptx_res.c ptx_res_read,
 * docs/ptx.md "Register counts"), issue 37: lines of any length (a comment over 511 bytes was
 * split and refused at a wrong line), counts refused with FILE:LINE and the reason (-1, 0,
 * overflowing, past 255 registers, not a number), a word too many, a kernel twice, and a file
 * that is not a regular one (a FIFO blocked, /dev/zero was read forever), too large or with a
 * NUL byte. Every checked-in record (bench/NAME/kernel.res, kernel.vtw.res) still reads.
 */
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "ptx/ptx_res.h"

#define RES BUILD_DIR "/tests/res_read.res"

static const char *const head_lines =
    "# a record\n"
    "tool      Cuda compilation tools, release 13.0, V13.0.88\n"
    "target    sm_75\n"
    "ptx_fnv1a b5ab659b95220c10\n";

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* head_lines + body as the record; ptx_res_read's result, its message in err. */
static int read_with(const char *body, struct ptx_res *r, char *err, size_t errlen)
{
    char text[8192];
    snprintf(text, sizeof text, "%s%s", head_lines, body);
    write_file(RES, text, strlen(text));
    err[0] = 0;
    return ptx_res_read(RES, r, err, errlen);
}

static void test_good_record(void **state)
{
    struct ptx_res r;
    char err[512];
    (void)state;
    assert_int_equal(read_with("kernel    vecadd 12 0 0 0 0\n"
                               "kernel    k2 255 49152 16 4 8 00000000deadbeef\n", &r, err,
                               sizeof err), 0);
    assert_int_equal(r.nkernels, 2);
    assert_int_equal(ptx_res_find(&r, "vecadd")->regs, 12);
    assert_int_equal(ptx_res_find(&r, "k2")->shared, 49152);
    assert_true(ptx_res_find(&r, "k2")->text_hash == 0xdeadbeefull);
    assert_string_equal(r.target, "sm_75");
    assert_true(r.ptx_hash == 0xb5ab659b95220c10ull);
    assert_int_equal(ptx_res_read(BUILD_DIR "/tests/no_such.res", &r, err, sizeof err), 1);
}

/* A comment of 2000 bytes is a comment (it was cut into 511-byte lines, the second refused as
   line 6); an error after it names its own line. */
static void test_long_lines(void **state)
{
    char body[4096];
    struct ptx_res r;
    char err[512];
    (void)state;
    memset(body, 'x', sizeof body);
    body[0] = '#';
    snprintf(body + 2000, sizeof body - 2000, "\nkernel    vecadd 12 0 0 0 0\n");
    assert_int_equal(read_with(body, &r, err, sizeof err), 0);
    assert_int_equal(ptx_res_find(&r, "vecadd")->regs, 12);
    snprintf(body + 2000, sizeof body - 2000, "\nkernel    vecadd 12 0 0 0 0\nbogus\n");
    assert_int_equal(read_with(body, &r, err, sizeof err), -1);
    tu_assert_contains(err, "res_read.res:7: expected 'tool', 'target'");
}

/* Register counts of -1, 0, past 2^32 - 1 or past 255, and counts that are not numbers, are
   refused naming the file, the line, the kernel and what is wrong. */
static void test_bad_counts(void **state)
{
    static const struct { const char *line, *msg; } bad[] = {
        {"kernel vecadd -1 0 0 0 0\n", "res_read.res:5: kernel vecadd: registers '-1' is not a count"},
        {"kernel vecadd 0 0 0 0 0\n", "res_read.res:5: kernel vecadd: 0 registers per thread "
                                      "(ptxas allocates 1 to 255)"},
        {"kernel vecadd 4294967296 0 0 0 0\n", "registers '4294967296' is not a count (0 to "
                                               "4294967295)"},
        {"kernel vecadd 99999999999999999999 0 0 0 0\n", "registers '99999999999999999999' is "
                                                         "not a count"},
        {"kernel vecadd 256 0 0 0 0\n", "kernel vecadd: 256 registers per thread"},
        {"kernel vecadd 4294967295 0 0 0 0\n", "4294967295 registers per thread"},
        {"kernel vecadd 12x 0 0 0 0\n", "registers '12x' is not a count"},
        {"kernel vecadd +12 0 0 0 0\n", "registers '+12' is not a count"},
        {"kernel vecadd 12 -1 0 0 0\n", "kernel vecadd: shared memory bytes '-1' is not a count"},
        {"kernel vecadd 12 0 0 0 4294967296\n", "spill load bytes '4294967296' is not a count"},
        {"kernel vecadd 12 0 0 0\n", "res_read.res:5: a kernel line is 'kernel NAME REGS SMEM "
                                     "STACK SPILL_ST SPILL_LD [TEXT_FNV1A]' (5 words"},
        {"kernel vecadd 12 0 0 0 0 abc 7\n", "(8 words after 'kernel')"},
        {"kernel vecadd 12 0 0 0 0 abc 7 8 9 10 11\n", "(at least 9 words after 'kernel')"},
        {"kernel vecadd 12 0 0 0 0 xyz\n", "kernel vecadd: text hash 'xyz' is not 1 to 16 hex"},
        {"kernel vecadd 12 0 0 0 0\nkernel vecadd 13 0 0 0 0\n",
         "res_read.res:6: kernel vecadd recorded twice"},
        {"target sm_75 sm_80\nkernel vecadd 12 0 0 0 0\n", "res_read.res:5: 'target NAME'"},
        {"ptx_fnv1a 12345678901234567\nkernel vecadd 12 0 0 0 0\n",
         "res_read.res:5: 'ptx_fnv1a HASH' (1 to 16 hex digits)"},
    };
    struct ptx_res r;
    char err[512];
    (void)state;
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (read_with(bad[i].line, &r, err, sizeof err) != -1)
            fail_msg("accepted: %s", bad[i].line);
        tu_assert_contains(err, bad[i].msg);
    }
}

/* A NUL byte is refused at its line; a name too long for the record is refused, not cut. */
static void test_nul_and_long_name(void **state)
{
    char text[1024], name[200];
    struct ptx_res r;
    char err[512];
    size_t n;
    (void)state;
    n = (size_t)snprintf(text, sizeof text, "%skernel vecadd 12 0 0 0 0\n", head_lines);
    text[n - 3] = 0;
    write_file(RES, text, n);
    assert_int_equal(ptx_res_read(RES, &r, err, sizeof err), -1);
    tu_assert_contains(err, "res_read.res:5: a NUL byte");
    memset(name, 'k', 150);
    name[150] = 0;
    snprintf(text, sizeof text, "kernel %s 12 0 0 0 0\n", name);
    assert_int_equal(read_with(text, &r, err, sizeof err), -1);
    tu_assert_contains(err, "res_read.res:5: kernel name of 150 characters (at most 127)");
}

/* A directory, /dev/zero and a FIFO are refused at once; a file over PTX_RES_FILE_MAX (sparse)
   before it is read. */
static void test_not_regular(void **state)
{
    const char *fifo = BUILD_DIR "/tests/res_fifo.res", *big = BUILD_DIR "/tests/res_big.res";
    struct ptx_res r;
    char err[512];
    int fd;
    (void)state;
    assert_int_equal(ptx_res_read(BUILD_DIR "/tests", &r, err, sizeof err), -1);
    tu_assert_contains(err, "/tests: cannot read register record: a directory, not a regular file");
    assert_int_equal(ptx_res_read("/dev/zero", &r, err, sizeof err), -1);
    tu_assert_contains(err, "/dev/zero: cannot read register record: a character device");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(ptx_res_read(fifo, &r, err, sizeof err), -1);
    tu_assert_contains(err, "res_fifo.res: cannot read register record: a FIFO, not a regular file");
    unlink(fifo);
    fd = open(big, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, PTX_RES_FILE_MAX + 1), 0);
    close(fd);
    assert_int_equal(ptx_res_read(big, &r, err, sizeof err), -1);
    tu_assert_contains(err, "res_big.res: cannot read register record: larger than 1 MiB");
    unlink(big);
}

/* Every checked-in record reads under the stricter rules. */
static void test_bench_records_read(void **state)
{
    glob_t g;
    struct ptx_res r;
    char err[512];
    (void)state;
    assert_int_equal(glob("bench/*/*.res", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 40);
    for (size_t i = 0; i < g.gl_pathc; i++)
        if (ptx_res_read(g.gl_pathv[i], &r, err, sizeof err) != 0)
            fail_msg("%s", err);
    globfree(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_record),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_bad_counts),
        cmocka_unit_test(test_nul_and_long_name),
        cmocka_unit_test(test_not_regular),
        cmocka_unit_test(test_bench_records_read),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
