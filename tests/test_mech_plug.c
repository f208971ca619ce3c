/*
 * test_mech_plug.c -- a mechanism added from tests/ alone, through the SM's mechanism interface
 * (model/sm/sm_mech.h; docs/adding-a-mechanism.md walks through this file): "barfirst", a
 * scheduling policy that puts the warps whose next instruction is a barrier first, so that a
 * CTA's barrier releases as early as its warps allow. It keys the schedulers through the keys
 * hook, on top of the GTO key generator's keys (sched_policy = gto_prio: the highest-key
 * scheduler, GTO's order among equal keys), and counts what it did in its own state.
 *
 * Every bench kernel computes correct results with it on gtx480 (test size), alone and beside
 * VT and DWS (one hook list: the mechanisms combine); it changes the
 * schedule of kernels with barriers (its raised keys, and cycles against gto_prio without it
 * -- with the hook left out of the struct the test fails); key 'mechs' naming no registered
 * mechanism, or a built-in one, stops the launch with a message; the registry refuses a
 * second mechanism of one name and the reserved name none.
 */
#include "bench_run.h"
#include "sm/sm.h"

/* ------------------------------------------------------------------ the mechanism */

struct barfirst {
    uint64_t raised;               /* keys it raised (slot-cycles at a barrier head) */
};

static uint64_t raised_total;      /* over every SM's life (added at free) */

static int bf_selected(const struct gpu_config *c)
{
    return sm_mech_named(c, "barfirst");
}

/* Scheduler k's slots j (SM slot j * nsched + k): a live slot whose I-buffer head is bar.sync
   gets the key's top bit; kgen's keys stay below it. */
static void bf_keys(struct sm *s, void *st, uint32_t k, struct ws_in *in)
{
    struct barfirst *b = st;
    for (uint32_t j = 0, w = k; w < s->nslots; j++, w += s->nsched)
        if (slot_has(s->fetch_o->head_v, w) &&
            s->p.prog->insns[s->fetch_o->head_pc[w]].op == OP_BAR) {
            in->prio[j] |= 0x8000u;
            b->raised++;
        }
}

static void bf_free(struct sm *s, void *st)
{
    (void)s;
    raised_total += ((struct barfirst *)st)->raised;
}

static const struct sm_mech barfirst = {
    .name = "barfirst", .state_size = sizeof(struct barfirst), .selected = bf_selected,
    .keys = bf_keys, .free = bf_free,
};

/* ------------------------------------------------------------------ the tests */

/* Alone, and beside VT (its hooks with VT's in one list: CTAs swapped, warps restored into
   slots the key hook then sees) and beside DWS (DWS keys the splits widest first, barfirst's
   bit above: registry order, built-in first). */
static const struct variant variants[] = {
    { "barfirst", { "mechs=barfirst", "sched_policy=gto_prio" }, 2, NULL },
    { "barfirst-vt", { "mechs=barfirst", "sched_policy=gto_prio", "vt=on" }, 3, NULL },
    { "barfirst-dws", { "mechs=barfirst", "sched_policy=gto_prio", "dws=revive" }, 3, NULL },
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* The policy acts: on the kernels with barriers it raised keys, the same work was done, and
   the schedule changed where a barrier head competed with other ready warps (reduce and
   scanlarge: GTO alone keeps most barrier heads greedy already, so the change is small). */
static void test_policy_acts(void **state)
{
    static const char *const kernels[] = { "reduce", "scanlarge", "matmul" };
    const char *on[] = { "mechs=barfirst", "sched_policy=gto_prio" };
    const char *off[] = { "sched_policy=gto_prio" };
    unsigned changed = 0;
    (void)state;
    for (unsigned i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        struct gs_stats b = bench_stats(kernels[i], off, 1), a;
        uint64_t before = raised_total;
        a = bench_stats(kernels[i], on, 2);
        print_message("%s gto_prio: %llu cycles; with barfirst: %llu cycles, %llu keys raised\n",
                      kernels[i], (unsigned long long)b.cycles, (unsigned long long)a.cycles,
                      (unsigned long long)(raised_total - before));
        assert_true(raised_total > before);
        assert_int_equal(a.warp_insns, b.warp_insns);  /* the same work, another order */
        changed += a.cycles != b.cycles;
    }
    assert_true(changed > 0);
}

/* Key 'mechs' must name registered mechanisms, not built-in ones: the configuration is
   refused with a message naming the key and the name. */
static void test_bad_names(void **state)
{
    static const char *const bad[][2] = {
        { "mechs=nosuch", "no mechanism named 'nosuch' is registered" },
        { "mechs=barfirst,nosuch", "no mechanism named 'nosuch'" },
        { "mechs=vt", "'vt' is built in" },
    };
    (void)state;
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *sets[] = { bad[i][0] };
        struct gs_gpu *g = NULL;
        char err[512];
        assert_int_equal(gs_init(&g, "configs/gtx480.cfg", sets, 1, err, sizeof err),
                         GS_ERR_CONFIG);
        print_message("%s: %s\n", bad[i][0], err);
        tu_assert_contains(err, "key 'mechs'");
        tu_assert_contains(err, bad[i][1]);
    }
}

/* The registry refuses a second mechanism of a name, and the reserved name; registering the
   same mechanism again is harmless. */
static void test_register_refusals(void **state)
{
    static const struct sm_mech twin = { .name = "barfirst" }, none = { .name = "none" },
                                comma = { .name = "a,b" }, builtin = { .name = "dws" };
    (void)state;
    assert_int_equal(sm_mech_register(&barfirst), 0);
    assert_int_equal(sm_mech_register(&twin), -1);
    assert_int_equal(sm_mech_register(&none), -1);
    assert_int_equal(sm_mech_register(&comma), -1);
    assert_int_equal(sm_mech_register(&builtin), -1);
}

int main(void)
{
    static const struct CMUnitTest extra[] = {
        cmocka_unit_test(test_policy_acts),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_register_refusals),
    };
    if (sm_mech_register(&barfirst))
        return 1;
    return bench_main("mech_plug", variants, NVARIANTS, extra, sizeof extra / sizeof extra[0]);
}
