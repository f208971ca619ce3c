/*
 * test_page.c -- gpusim report page's output (cli/report_page.c, cli/page_out.c) in process,
 * on one kernel under base at the test size (a fraction of a second): a configuration's name
 * and path are text in page.html, never markup; an --out that cannot be written stops the
 * page before any run (exit 2, a message); a page that could not be written is an error, not
 * announced. The page's whole runs are tests/test_cli.c test_report_page.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "report.h"

#define T_ BUILD_DIR "/tests/page-out"

static int saved[2] = {-1, -1};

/* stdout and stderr into T_/stdout and T_/stderr until capture_end. */
static void capture_start(void)
{
    const char *name[2] = {T_ "/stdout", T_ "/stderr"};
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < 2; i++) {
        int fd = open(name[i], O_WRONLY | O_CREAT | O_TRUNC, 0666);
        assert_true(fd >= 0);
        saved[i] = dup(i + 1);
        dup2(fd, i + 1);
        close(fd);
    }
}

static void capture_end(char **out, char **err)
{
    fflush(stdout);
    fflush(stderr);
    for (int i = 0; i < 2; i++) {
        dup2(saved[i], i + 1);
        close(saved[i]);
    }
    *out = tu_read_file(T_ "/stdout", NULL);
    *err = tu_read_file(T_ "/stderr", NULL);
    assert_non_null(*out);
    assert_non_null(*err);
}

/* report_page on vecadd under base at the test size into out, cached in T_/cache; its exit
   status, stdout and stderr. */
static int page(const char *out, const char *config, const char *set, char **so, char **se)
{
    struct opts o;
    int rc;
    memset(&o, 0, sizeof o);
    o.cmd = "report";
    o.name = "page";
    o.size = BENCH_TEST;
    o.bench_dir = "bench";
    o.kernels = "vecadd";
    o.mechs = "base";
    o.cache = T_ "/cache";
    o.out = out;
    o.config = config;
    if (set)
        o.sets[o.nsets++] = set;
    capture_start();
    rc = report_page(&o);
    capture_end(so, se);
    return rc;
}

static int setup(void **state)
{
    (void)state;
    return system("rm -rf " T_ " && mkdir -p " T_);
}

static void sh(const char *cmd)
{
    assert_int_equal(system(cmd), 0);
}

/* The cache holds no entry: no run was made. */
static void assert_no_run(void)
{
    assert_int_equal(system("test -z \"$(ls " T_ "/cache 2>/dev/null)\""), 0);
}

#define EVIL_CFG T_ "/a<b>&\"c\".cfg"

/* A configuration named <script>...</script> from a file whose path holds markup: page.html
   holds both as text (escaped), never as markup. Seen failing before the escaping. */
static void test_html_escapes_the_configuration(void **state)
{
    char *so, *se, *html;
    (void)state;
    sh("cp configs/gtx480.cfg '" EVIL_CFG "'");
    assert_int_equal(page(T_ "/page", EVIL_CFG, "name=<script>alert(1)</script>", &so, &se), 0);
    tu_assert_contains(so, "the page: " T_ "/page/page.html");
    html = tu_read_file(T_ "/page/page.html", NULL);
    assert_non_null(html);
    assert_null(strstr(html, "<script>alert"));
    assert_null(strstr(html, "a<b>"));
    tu_assert_contains(html, "Configuration &lt;script&gt;alert(1)&lt;/script&gt; (" T_
                       "/a&lt;b&gt;&amp;&quot;c&quot;.cfg)");
    free(html);
    free(so);
    free(se);
}

/* --out that is a file, or under one: exit 2 with a message naming it, before any run. Seen
   failing before the check (the run was made, then the page failed). */
static void test_out_checked_before_any_run(void **state)
{
    char *so, *se;
    (void)state;
    sh("touch " T_ "/file");
    assert_int_equal(page(T_ "/file", NULL, NULL, &so, &se), 2);
    tu_assert_contains(se, "gpusim report page: --out " T_ "/file: not a directory");
    assert_null(strstr(so, "the page:"));
    assert_no_run();
    free(so);
    free(se);
    assert_int_equal(page(T_ "/file/sub", NULL, NULL, &so, &se), 2);
    tu_assert_contains(se, "gpusim report page: --out " T_ "/file/sub: cannot make the "
                       "directory: Not a directory");
    assert_no_run();
    free(so);
    free(se);
}

/* A page that cannot be written after its runs (page.html is a directory): exit 2, the file
   named, and no "the page: ..." line. Seen failing before (the line was printed). */
static void test_unwritten_page_is_an_error(void **state)
{
    char *so, *se;
    (void)state;
    sh("mkdir -p " T_ "/page/page.html");
    assert_int_equal(page(T_ "/page", NULL, NULL, &so, &se), 2);
    tu_assert_contains(so, "1 runs (0 from the cache " T_ "/cache), 0 failed\n");
    assert_null(strstr(so, "the page:"));
    tu_assert_contains(se, "gpusim report page: cannot write " T_ "/page/page.html: Is a "
                       "directory\n");
    tu_assert_contains(se, "gpusim report page: the page was not written in " T_ "/page");
    free(so);
    free(se);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_html_escapes_the_configuration, setup),
        cmocka_unit_test_setup(test_out_checked_before_any_run, setup),
        cmocka_unit_test_setup(test_unwritten_page_is_an_error, setup),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
