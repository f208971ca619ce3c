/*
 * test_bbv_read.c -- the binary BBV reader (model/gpu/bbv.c bbv_read, bbv_load) on hand-made
 * files, issue 37: counts whose size overflows the size check, stray bytes after the last
 * launch, a kernel name that would break the CSV form, a thread count that is not the grid's,
 * a count section cut short after a large claim, and files that are not regular files. Each
 * is refused with a message naming the byte offset (or the file) and what is wrong; a good
 * launch still reads.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "gpu/bbv.h"

/* A BBV file built byte by byte. */
struct fbuf {
    uint8_t b[4096];
    size_t n;
};

static void put32(struct fbuf *f, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        f->b[f->n++] = (uint8_t)(v >> (8 * i));
}

static void put64(struct fbuf *f, uint64_t v)
{
    put32(f, (uint32_t)v);
    put32(f, (uint32_t)(v >> 32));
}

static void put_bytes(struct fbuf *f, const void *p, size_t n)
{
    memcpy(f->b + f->n, p, n);
    f->n += n;
}

/* One launch's head: kernel name, grid, block, run figures, nblocks blocks, nthreads. */
static void head(struct fbuf *f, const char *name, size_t namelen, const uint32_t dims[6],
                 uint32_t nblocks, uint64_t nthreads)
{
    put32(f, (uint32_t)namelen);
    put_bytes(f, name, namelen);
    for (unsigned i = 0; i < 6; i++)
        put32(f, dims[i]);
    for (unsigned i = 0; i < 4; i++)
        put32(f, i < 2 ? 1 : BBV_UNKNOWN);
    put64(f, 0);
    put32(f, nblocks);
    for (uint32_t k = 0; k < nblocks; k++) {
        put32(f, k * 4);
        put32(f, 4);
        put32(f, 10);
        put32(f, 0);
    }
    put64(f, nthreads);
}

/* A well-formed launch: 2 CTAs of 4 threads, 2 blocks, counts t and 1. */
static void good_launch(struct fbuf *f)
{
    static const uint32_t dims[6] = {2, 1, 1, 4, 1, 1};
    head(f, "k", 1, dims, 2, 8);
    for (uint32_t t = 0; t < 8; t++) {
        put32(f, t);
        put32(f, 1);
    }
}

static void start(struct fbuf *f)
{
    f->n = 0;
    put_bytes(f, BBV_MAGIC, 8);
}

/* Read every launch of f: the last bbv_read's result; err its message (cleared first, so that
   a message left from before cannot pass). *n: launches read. */
static int read_all(struct fbuf *f, char *err, size_t errlen, unsigned *n)
{
    FILE *s = fmemopen(f->b, f->n, "rb");
    struct bbv b;
    int r;
    assert_non_null(s);
    memset(err, 0, errlen);
    *n = 0;
    assert_int_equal(bbv_read_magic(s, err, errlen), 0);
    while ((r = bbv_read(s, &b, err, errlen)) == 1) {
        bbv_free(&b);
        (*n)++;
    }
    fclose(s);
    return r;
}

static void test_good_file_reads(void **state)
{
    struct fbuf f;
    char err[256];
    unsigned n;
    (void)state;
    start(&f);
    good_launch(&f);
    good_launch(&f);
    assert_int_equal(read_all(&f, err, sizeof err, &n), 0);
    assert_int_equal(n, 2);
}

/* 2^62 threads of 1 block: 2^64 bytes of counts wrapped the size check to 0, the reader
   allocated 1 byte and wrote the counts past it (ASan: heap-buffer-overflow; SIGSEGV in the
   normal build on a longer file). Also 2^61 threads x 2 blocks and 2^30 x 2^30 threads. */
static void test_count_overflow_refused(void **state)
{
    static const uint32_t d1[6] = {1u << 31, 1u << 31, 1, 1, 1, 1};
    static const uint32_t d2[6] = {1u << 31, 1u << 30, 1, 1, 1, 1};
    struct fbuf f;
    char err[256];
    unsigned n;
    (void)state;
    start(&f);
    head(&f, "k", 1, d1, 1, 1ull << 62);
    for (unsigned i = 0; i < 64; i++)
        put32(&f, 1);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    tu_assert_contains(err, "more counts than a launch may have");
    start(&f);
    head(&f, "k", 1, d2, 2, 1ull << 61);
    for (unsigned i = 0; i < 64; i++)
        put32(&f, 1);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    tu_assert_contains(err, "more counts than a launch may have");
}

/* Bytes after the last launch that are not a whole launch: refused with a message (the
   message was left uninitialised). */
static void test_stray_bytes_refused(void **state)
{
    struct fbuf f;
    char err[256];
    unsigned n;
    (void)state;
    start(&f);
    good_launch(&f);
    put_bytes(&f, "\1\2", 2);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    assert_int_equal(n, 1);
    tu_assert_contains(err, "bbv: malformed file at byte");
    tu_assert_contains(err, "stray bytes after the last launch");
}

/* A newline (or a comma, a NUL, an empty name) in the kernel name would break the CSV form. */
static void test_kernel_name_refused(void **state)
{
    static const uint32_t dims[6] = {1, 1, 1, 1, 1, 1};
    static const char *const names[] = {"a\nb", "a,b", "a b", "", "a\0b"};
    static const size_t lens[] = {3, 3, 3, 0, 3};
    struct fbuf f;
    char err[256];
    unsigned n;
    (void)state;
    for (unsigned i = 0; i < 5; i++) {
        start(&f);
        head(&f, names[i], lens[i], dims, 1, 1);
        put32(&f, 1);
        assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
        tu_assert_contains(err, "kernel name");
    }
    start(&f);                                        /* what nvcc names a kernel reads */
    head(&f, "_Z6vecaddPfS_S_i$x.y", 20, dims, 1, 1);
    put32(&f, 1);
    if (read_all(&f, err, sizeof err, &n))
        print_error("%s\n", err);
    assert_int_equal(n, 1);
}

/* A thread count that is not the grid's CTAs x the block's threads, or a zero dimension:
   threads per CTA would exceed the threads (bbv_fit reads CTA 0's). */
static void test_shape_refused(void **state)
{
    static const uint32_t big_block[6] = {1, 1, 1, 64, 1, 1};
    static const uint32_t zero[6] = {0, 1, 1, 4, 1, 1};
    static const uint32_t wide[6] = {1, 1, 1, 1u << 16, 1u << 16, 1};
    struct fbuf f;
    char err[256];
    unsigned n;
    (void)state;
    start(&f);
    head(&f, "k", 1, big_block, 1, 4);
    for (unsigned i = 0; i < 4; i++)
        put32(&f, 1);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    tu_assert_contains(err, "the thread count is not the grid's CTAs x the block's threads");
    start(&f);
    head(&f, "k", 1, zero, 1, 0);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    tu_assert_contains(err, "a zero grid or block dimension");
    start(&f);                                        /* a block of 2^32 threads */
    head(&f, "k", 1, wide, 1, 1ull << 32);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    tu_assert_contains(err, "the thread count is not");
}

/* A launch claiming 2^29 counts (2 GiB, the limit) or 2^24 blocks in a short file: refused as
   cut short without allocating what it claims first. */
static void test_short_counts(void **state)
{
    static const uint32_t dims[6] = {1u << 21, 1, 1, 256, 1, 1};
    struct fbuf f;
    char err[256];
    unsigned n;
    (void)state;
    start(&f);
    head(&f, "k", 1, dims, 1, 1ull << 29);
    put32(&f, 1);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    tu_assert_contains(err, "counts cut short");
    start(&f);                                        /* 2^24 blocks claimed, one given */
    head(&f, "k", 1, dims, 1, 1ull << 29);
    memcpy(f.b + 8 + 4 + 1 + 40 + 8, "\0\0\0\1", 4);
    assert_int_equal(read_all(&f, err, sizeof err, &n), -1);
    tu_assert_contains(err, "block figures");
}

/* bbv_load: a FIFO, /dev/zero and a directory are refused at once; a file over
   BBV_FILE_MAX (a sparse one) before any byte is read. */
static void test_load_not_regular(void **state)
{
    const char *fifo = BUILD_DIR "/tests/bbv_fifo.bbv", *big = BUILD_DIR "/tests/bbv_big.bbv";
    char err[256], *buf;
    size_t len;
    int fd;
    (void)state;
    assert_null(bbv_load(BUILD_DIR "/tests", &len, err, sizeof err));
    tu_assert_contains(err, "/tests: cannot read BBV file: a directory, not a regular file");
    assert_null(bbv_load("/dev/zero", &len, err, sizeof err));
    tu_assert_contains(err, "/dev/zero: cannot read BBV file: a character device");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_null(bbv_load(fifo, &len, err, sizeof err));
    tu_assert_contains(err, "bbv_fifo.bbv: cannot read BBV file: a FIFO, not a regular file");
    unlink(fifo);
    fd = open(big, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)BBV_FILE_MAX + 1), 0);
    close(fd);
    assert_null(bbv_load(big, &len, err, sizeof err));
    tu_assert_contains(err, "bbv_big.bbv: cannot read BBV file: larger than 4096 MiB");
    unlink(big);
    buf = bbv_load("tests/test_bbv_read.c", &len, err, sizeof err);
    assert_non_null(buf);
    assert_true(len > 100);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file_reads),
        cmocka_unit_test(test_count_overflow_refused),
        cmocka_unit_test(test_stray_bytes_refused),
        cmocka_unit_test(test_kernel_name_refused),
        cmocka_unit_test(test_shape_refused),
        cmocka_unit_test(test_short_counts),
        cmocka_unit_test(test_load_not_regular),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
