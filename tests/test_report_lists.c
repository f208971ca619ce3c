/*
 * test_report_lists.c -- the comma-separated option values of the reports (--kernels a,b and
 * report page's --mechs a,b; rep_list_next in cli/report.c): an empty name anywhere (",a",
 * "a,", "a,,b", "") is refused with the same message, where "vecadd," was taken and
 * ",vecadd" refused as a kernel named ''. Unit tests calling cli/report.c (build/libcli.a),
 * and the command for --mechs, which stops before any run.
 */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "report.h"

#define GPUSIM BUILD_DIR "/gpusim"

/* rep_open with --kernels `list` and one variant, stderr into msg: its return value. */
static int open_with(const char *list, char *msg, size_t n)
{
    static const struct rep_var base = {"base", "the configuration as given", {NULL}, NULL, 0};
    char errf[] = "/tmp/gpusim-lists.XXXXXX";
    struct opts o;
    struct rep r;
    int saved, fd, rc;
    memset(&o, 0, sizeof o);
    o.kernels = list;
    o.bench_dir = "bench";
    assert_true((fd = mkstemp(errf)) >= 0);
    fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    rc = rep_open(&r, &o, &base, 1);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    if (!rc) {
        snprintf(msg, n, "%u kernels: %s%s", r.n, r.all[0]->name, r.n > 1 ? ",..." : "");
        rep_close(&r);
    } else {
        ssize_t k;
        assert_true(lseek(fd, 0, SEEK_SET) == 0);
        k = read(fd, msg, n - 1);
        msg[k > 0 ? k : 0] = 0;
    }
    close(fd);
    unlink(errf);
    return rc;
}

/* The message for an empty name in `list`. */
static void empty_refused(const char *list)
{
    char msg[1024], want[256];
    snprintf(want, sizeof want, "gpusim report: --kernels: an empty name in '%s'", list);
    assert_int_equal(open_with(list, msg, sizeof msg), 2);
    tu_assert_contains(msg, want);
}

static void test_kernels_empty_names(void **state)
{
    char msg[1024];
    (void)state;
    empty_refused("vecadd,");
    empty_refused(",vecadd");
    empty_refused("vecadd,,reduce");
    empty_refused(",");
    empty_refused("");
    assert_int_equal(open_with("vecadd,reduce", msg, sizeof msg), 0);
    assert_string_equal(msg, "2 kernels: vecadd,...");
    assert_int_equal(open_with("reduce", msg, sizeof msg), 0);
    assert_string_equal(msg, "1 kernels: reduce");
    assert_int_equal(open_with("reduce,nosuch", msg, sizeof msg), 2);
    tu_assert_contains(msg, "--kernels: no kernel 'nosuch'");
}

/* rep_list_next itself: the names in order, then 0; a name too long for the buffer. */
static void test_list_next(void **state)
{
    const char *list = "ab,c", *p = list;
    char name[4];
    (void)state;
    assert_int_equal(rep_list_next("t", list, &p, name, sizeof name), 1);
    assert_string_equal(name, "ab");
    assert_int_equal(rep_list_next("t", list, &p, name, sizeof name), 1);
    assert_string_equal(name, "c");
    assert_int_equal(rep_list_next("t", list, &p, name, sizeof name), 0);
    p = list = "abcd";
    assert_int_equal(rep_list_next("t", list, &p, name, sizeof name), -1);
    p = list = "a,";
    assert_int_equal(rep_list_next("t", list, &p, name, sizeof name), -1);
}

/* report page --mechs: the same rule (the command exits 2 before any run). */
static void test_mechs_empty_names(void **state)
{
    static const char *const lists[] = {"lrr,", ",lrr", "lrr,,gto"};
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        char cmd[256], out[2048];
        FILE *p;
        size_t n;
        int st;
        snprintf(cmd, sizeof cmd, GPUSIM " report page --size test --kernels vecadd --mechs '%s' "
                 "--out /nonexistent/page 2>&1", lists[i]);
        assert_non_null(p = popen(cmd, "r"));
        n = fread(out, 1, sizeof out - 1, p);
        out[n] = 0;
        st = pclose(p);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 2);
        tu_assert_contains(out, "gpusim report page: --mechs: an empty name in '");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_empty_names),
        cmocka_unit_test(test_list_next),
        cmocka_unit_test(test_mechs_empty_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
