/*
 * test_mech.c -- cli/mech.c's table as the one place a mechanism's --set keys are written:
 * mech_expand puts a row's keys where a set list names it (MECH_SETS), in the row's order
 * and as the row's own strings, among the list's other keys; an unknown row or a list too
 * long is refused with a message. The reports' variants are such lists (cli/report_vtw.c,
 * report_vt.c, report_dws.c; rep_open expands them).
 */
#include "testutil.h"
#include "mech.h"

/* A row's keys go where the list names it, the list's own keys around them. */
static void test_expand_in_place(void **state)
{
    static const char *const in[4] = {"simt_depth=4", MECH_SETS("vt"), "sched_policy=lrr"};
    const char *out[4] = {"x", "x", "x", "x"};
    char err[256];
    (void)state;
    assert_int_equal(mech_expand(in, 4, out, 4, err, sizeof err), 3);
    assert_string_equal(out[0], "simt_depth=4");
    assert_ptr_equal(out[1], mech_find("vt")->set[0]);
    assert_string_equal(out[1], "vt=on");
    assert_string_equal(out[2], "sched_policy=lrr");
    assert_null(out[3]);
}

/* A row of several keys keeps their order; a list without a row is copied. */
static void test_expand_rows(void **state)
{
    static const char *const vtw0[4] = {MECH_SETS("vtw"), "vtw_keys=zero"};
    static const char *const plain[4] = {"dws=off"};
    const struct mech *m = mech_find("vtw");
    const char *out[4];
    char err[256];
    (void)state;
    assert_int_equal(mech_expand(vtw0, 4, out, 4, err, sizeof err), 4);
    for (unsigned i = 0; i < 3; i++)
        assert_ptr_equal(out[i], m->set[i]);
    assert_string_equal(out[3], "vtw_keys=zero");
    assert_int_equal(mech_expand(plain, 4, out, 4, err, sizeof err), 1);
    assert_string_equal(out[0], "dws=off");
    assert_null(out[1]);
}

/* An unknown row, and more keys than fit, are refused with a message. */
static void test_expand_refused(void **state)
{
    static const char *const bad[2] = {MECH_SETS("nosuch")};
    static const char *const lng[4] = {MECH_SETS("vtw"), "a=1", "b=2"};
    const char *out[4];
    char err[1024];
    (void)state;
    assert_int_equal(mech_expand(bad, 2, out, 4, err, sizeof err), -1);
    tu_assert_contains(err, "no mechanism 'nosuch' (the mechanisms: base, lrr");
    assert_int_equal(mech_expand(lng, 4, out, 4, err, sizeof err), -1);
    tu_assert_contains(err, "more than 4 --set options");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expand_in_place),
        cmocka_unit_test(test_expand_rows),
        cmocka_unit_test(test_expand_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
