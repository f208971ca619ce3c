/*
 * testutil.h -- small helpers shared by the cmocka tests (header-only; each test is one file).
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#ifndef BUILD_DIR
#define BUILD_DIR "build"   /* the Makefile passes its $(BUILD) */
#endif

/* Read a whole file into a malloc'ed NUL-terminated buffer (NULL if unreadable). */
static inline char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL) {
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = 0;
            if (len)
                *len = (size_t)n;
        }
    }
    fclose(f);
    return buf;
}

/* The environment's choice of a binary's test cases (call before cmocka_run_group_tests):
   TEST_FILTER=PATTERN runs only the cases matching it, TEST_SKIP=PATTERN leaves out those
   matching it (cmocka's globs, * and ?). mk/test.mk's sanitizer stages run a mechanism
   test's own cases without its (kernel, variant) ones by skipping the names with a slash
   (bench_run.h names those KERNEL/VARIANT). */
static inline void tu_filters(void)
{
    if (getenv("TEST_FILTER"))
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    if (getenv("TEST_SKIP"))
        cmocka_set_skip_filter(getenv("TEST_SKIP"));
}

/* Assert that `hay` contains `needle`, printing both when it does not. */
#define tu_assert_contains(hay, needle)                                                  \
    do {                                                                                 \
        const char *h_ = (hay), *n_ = (needle);                                          \
        if (!h_ || !strstr(h_, n_)) {                                                    \
            print_error("expected to find \"%s\" in \"%s\"\n", n_, h_ ? h_ : "(null)"); \
            fail();                                                                      \
        }                                                                                \
    } while (0)

#endif
