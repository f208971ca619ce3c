/*
 * test_readers.c -- the readers that the other tests do not reach go through
 * model/base/infile.h too (issue 37: "one way to open an input file for every reader"): the
 * kept notes of a report's document (file_tail, cli/run.c) and the Yosys results of
 * `gpusim cost --yosys DIR` (cost/report.c). A FIFO or a device in their place is refused at
 * once -- no notes, no result -- never waited on; a regular file still reads. Seen failing
 * (alarm) with file_tail's fopen put back.
 */
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "cli.h"
#include "../cost/cost_main.h"
#include "../cost/estimate.h"

#define DIR BUILD_DIR "/tests/readers"

static void on_alarm(int sig)
{
    (void)sig;
    fprintf(stderr, "a reader blocked on a FIFO\n");
    _exit(1);
}

static int setup(void **state)
{
    (void)state;
    signal(SIGALRM, on_alarm);
    alarm(10);
    return system("rm -rf " DIR " && mkdir -p " DIR " && mkfifo " DIR "/doc.md " DIR "/ws.txt "
                  DIR "/sets.txt") ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    alarm(0);
    return 0;
}

static void test_notes_reader(void **state)
{
    char *t;
    FILE *f;
    (void)state;
    assert_null(file_tail(DIR "/doc.md", "<!-- notes"));
    assert_null(file_tail("/dev/zero", "<!-- notes"));
    assert_null(file_tail(DIR, "<!-- notes"));
    f = fopen(DIR "/real.md", "w");
    assert_non_null(f);
    fputs("table\n<!-- notes -->\nkept\n", f);
    fclose(f);
    t = file_tail(DIR "/real.md", "<!-- notes");
    assert_non_null(t);
    assert_string_equal(t, "<!-- notes -->\nkept\n");
    free(t);
}

static void test_yosys_reader(void **state)
{
    struct est_yosys y;
    struct gpu_config c, out;
    char err[512];
    (void)state;
    conf_defaults(&c);
    assert_int_equal(est_read_yosys(DIR, "ws", &y), -1);
    assert_int_equal(est_yosys_config(&c, DIR, &out, err, sizeof err), 0);  /* no sets */
    assert_int_equal(system("rm -f " DIR "/ws.txt && printf 'cells 10\\nff_bits 4\\n' > "
                            DIR "/ws.txt"), 0);
    assert_int_equal(est_read_yosys(DIR, "ws", &y), 0);
    assert_int_equal(y.cells, 10);
    assert_int_equal(y.ff_bits, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_notes_reader, setup, teardown),
        cmocka_unit_test_setup_teardown(test_yosys_reader, setup, teardown),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
