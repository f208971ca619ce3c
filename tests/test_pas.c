/*
 * test_pas.c -- VTW's progress-aware scheduler (000_0da6b8b480bd0740.txt Sections 4.3.2-4.5):
 * each class of Algorithm 1 in order on hand-built states (Barrier TBs by waiting warps and
 * progress, DiffIter lower vs higher warps, SameIter by progress, the slow phase inverse), the
 * keys against a sort-based reference of Algorithm 1 on random states, iteration tracking
 * (nnext and low advance, launches clear, scheduler order), `ahead`, the one-iteration-apart
 * limit of the registers, bad configuration and the registry, and the storage figures of
 * Section 4.5 from the blocks' declarations.
 */
#include "testutil.h"
#include "base/config.h"
#include "base/cost.h"
#include "sm/iss.h"
#include "sm/pas.h"

struct bench {
    struct pas_cfg c;
    struct pas_regs q;
    struct pas_in in;
    struct pas_out o;
};

/* nw[t] warps in CTA slot t, contexts numbered consecutively from 0. */
static void setup(struct bench *b, unsigned nctas, const unsigned *nw)
{
    unsigned x = 0;
    memset(b, 0, sizeof *b);
    pas_cfg_default(&b->c);
    b->c.nctx = 64;
    b->c.nctas = 8;
    pas_reset(&b->c, &b->q);
    memset(b->in.ctx_cta, PAS_NO_CTA, sizeof b->in.ctx_cta);
    for (unsigned t = 0; t < nctas; t++) {
        b->in.cta_nw[t] = (uint8_t)nw[t];
        for (unsigned w = 0; w < nw[t]; w++, x++) {
            b->in.ctx_cta[x] = (uint8_t)t;
            pas_set(b->in.ctx_valid, x);
        }
    }
}

static void tick(struct bench *b)
{
    struct pas_regs d = b->q;
    pas_eval(&b->c, &b->q, &b->in, &b->o, &d);
    pas_commit(&b->c, &b->q, &d);
    memset(b->in.issued, 0, sizeof b->in.issued);
    b->in.cta_launch = 0;
}

static void ntb(struct bench *b, unsigned sched, unsigned ctx)
{
    b->in.issued[sched] = (struct pas_issue){1, (uint8_t)ctx, 1};
}

/* The contexts listed have strictly decreasing keys (issued in this order). */
static void assert_order(const struct bench *b, const unsigned *ctx, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        if (b->o.key[ctx[i - 1]] <= b->o.key[ctx[i]]) {
            print_error("ctx %u key 0x%04x should be above ctx %u key 0x%04x\n", ctx[i - 1],
                        b->o.key[ctx[i - 1]], ctx[i], b->o.key[ctx[i]]);
            fail();
        }
}

#define ORDER(b, ...)                                                                  \
    do {                                                                               \
        const unsigned o_[] = {__VA_ARGS__};                                           \
        assert_order(b, o_, sizeof o_ / sizeof o_[0]);                                 \
    } while (0)

/* Barrier TBs: more warps waiting first, then more progress; in the TB the warps still
   running first, less progress first; all above a SameIter TB. */
static void test_barrier_class(void **state)
{
    static const unsigned nw[] = {2, 3, 2, 2};
    struct bench b;
    (void)state;
    setup(&b, 4, nw);                            /* ctx 0-1 | 2-4 | 5-6 | 7-8 */
    b.in.nbar[0] = 1; b.in.at_bar[0] = 1; b.in.prog[0] = 10;
    b.in.nbar[1] = 2; b.in.at_bar[2] = b.in.at_bar[3] = 1; b.in.prog[1] = 5;
    b.in.nbar[2] = 1; b.in.at_bar[5] = 1; b.in.prog[2] = 20;   /* ties CTA 0 on nbar */
    b.in.insns[1] = 9; b.in.insns[4] = 3; b.in.insns[6] = 1;
    b.in.insns[2] = 0; b.in.insns[3] = 7;
    b.in.prog[3] = 1000;                         /* SameIter, far ahead: still below */
    tick(&b);
    ORDER(&b, 4, 2, 3, 6, 5, 1, 0, 7);
    assert_int_equal(b.o.key[4] >> 14, 3);
    assert_int_equal(b.o.key[4], 3 << 14 | 63 << 8 | 255);      /* first TB, first warp */
    assert_int_equal(b.o.key[7] >> 14, 1);
}

/* DiffIter TBs: their lower-iteration warps come after Barrier and before SameIter TBs, TBs
   with fewer lower warps first; their higher-iteration warps come last, TBs with more
   higher warps first; less progress first within. */
static void test_diffiter_classes(void **state)
{
    static const unsigned nw[] = {4, 4, 2};
    struct bench b;
    (void)state;
    setup(&b, 3, nw);                            /* ctx 0-3 | 4-7 | 8-9 */
    ntb(&b, 0, 0);                               /* CTA 0: one warp ahead */
    tick(&b);
    ntb(&b, 0, 4); ntb(&b, 1, 5);
    tick(&b);
    ntb(&b, 0, 6);                               /* CTA 1: three warps ahead */
    b.in.insns[1] = 5; b.in.insns[2] = 1; b.in.insns[3] = 3;   /* CTA 0 lower warps */
    b.in.insns[0] = 2;                                          /* CTA 0 higher warp */
    b.in.insns[4] = 9; b.in.insns[5] = 1; b.in.insns[6] = 4;   /* CTA 1 higher warps */
    b.in.insns[8] = 1; b.in.insns[9] = 2; b.in.prog[2] = 3;     /* SameIter */
    tick(&b);
    assert_int_equal(b.q.nnext[0], 1);
    assert_int_equal(b.q.nnext[1], 3);
    ORDER(&b, 7, 2, 3, 1, 9, 8, 5, 6, 4, 0);
    assert_int_equal(b.o.key[7] >> 14, 2);
    assert_int_equal(b.o.key[9] >> 14, 1);
    assert_int_equal(b.o.key[5] >> 14, 0);
}

/* SameIter TBs: more progress first, ties to the lower CTA slot; warps more progress first,
   ties to the lower context. */
static void test_sameiter_class(void **state)
{
    static const unsigned nw[] = {2, 2, 2};
    struct bench b;
    (void)state;
    setup(&b, 3, nw);                            /* ctx 0-1 | 2-3 | 4-5 */
    b.in.prog[0] = 7; b.in.prog[1] = 30; b.in.prog[2] = 7;
    b.in.insns[0] = 3; b.in.insns[1] = 4;
    b.in.insns[2] = 20; b.in.insns[3] = 10;
    b.in.insns[4] = 6; b.in.insns[5] = 6;
    tick(&b);
    ORDER(&b, 2, 3, 1, 0, 4, 5);
    assert_int_equal(b.o.key[2], 1 << 14 | 63 << 8 | 255);
    assert_int_equal(b.o.key[5], 1 << 14 | 61 << 8 | 254);
}

/* Slow phase: no classes; TBs with less progress first, warps with less progress first. */
static void test_slow_phase(void **state)
{
    static const unsigned nw[] = {2, 2, 2};
    struct bench b;
    (void)state;
    setup(&b, 3, nw);
    b.in.prog[0] = 7; b.in.prog[1] = 30; b.in.prog[2] = 2;
    b.in.insns[0] = 3; b.in.insns[1] = 4;
    b.in.insns[2] = 20; b.in.insns[3] = 10;
    b.in.insns[4] = 6; b.in.insns[5] = 6;
    b.in.nbar[1] = 1;                            /* a barrier does not matter any more */
    b.in.slow = 1;
    tick(&b);
    ORDER(&b, 4, 5, 0, 1, 3, 2);
    for (unsigned x = 0; x < 6; x++)
        assert_int_equal(b.o.key[x] >> 14, 0);
    b.in.slow = 0;                               /* fast phase again: CTA 1 is Barrier */
    tick(&b);
    ORDER(&b, 3, 2, 1, 0, 4, 5);
}

/* ------------------------------------------------------------------ reference */

/* Algorithm 1 written as a comparator (the test's own reading of Section 4.3.2): is warp a
   before warp b? */
static int tb_class(const struct bench *b, unsigned x)
{
    unsigned t = b->in.ctx_cta[x];
    if (b->in.slow)
        return 0;
    if (b->in.nbar[t])
        return 3;
    if (!b->q.nnext[t])
        return 1;
    return b->q.iter[x] == b->q.low[t] ? 2 : 0;
}

static int cmp_u(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

static const struct bench *ref_b;

static int ref_cmp(const void *pa, const void *pb)
{
    const struct bench *b = ref_b;
    unsigned x = *(const unsigned *)pa, y = *(const unsigned *)pb;
    unsigned t = b->in.ctx_cta[x], u = b->in.ctx_cta[y];
    int cx = tb_class(b, x), cy = tb_class(b, y), r;
    if (cx != cy)
        return cy - cx;                                  /* higher class first */
    if (t != u) {
        if (b->in.slow)
            r = cmp_u(b->in.prog[t], b->in.prog[u]);
        else if (cx == 3)
            r = b->in.nbar[t] != b->in.nbar[u] ? cmp_u(b->in.nbar[u], b->in.nbar[t])
                                               : cmp_u(b->in.prog[u], b->in.prog[t]);
        else if (cx == 2)
            r = cmp_u(b->in.cta_nw[t] - b->q.nnext[t], b->in.cta_nw[u] - b->q.nnext[u]);
        else if (cx == 1)
            r = cmp_u(b->in.prog[u], b->in.prog[t]);
        else
            r = cmp_u(b->q.nnext[u], b->q.nnext[t]);
        return r ? r : cmp_u(t, u);
    }
    if (!b->in.slow && cx == 3 && b->in.at_bar[x] != b->in.at_bar[y])
        return b->in.at_bar[x] - b->in.at_bar[y];
    r = (!b->in.slow && cx == 1) ? cmp_u(b->in.insns[y], b->in.insns[x])
                                 : cmp_u(b->in.insns[x], b->in.insns[y]);
    return r ? r : cmp_u(x, y);
}

/* Random states reached by legal issue sequences: the keys order the warps exactly as the
   sort-based reference does. */
static void test_random_against_reference(void **state)
{
    struct bench b;
    unsigned seed = 12345;
    (void)state;
    for (unsigned run = 0; run < 300; run++) {
        unsigned nw[8], nctas = 1 + run % 8, list[64], n = 0;
        for (unsigned t = 0; t < nctas; t++)
            nw[t] = 1 + (seed = seed * 1103515245u + 12345u) % 8;
        setup(&b, nctas, nw);
        for (unsigned step = 0; step < 40; step++) {     /* legal: ahead warps hold */
            unsigned x = (seed = seed * 1103515245u + 12345u) >> 8 & 63;
            if (pas_has(b.in.ctx_valid, x) && !pas_has(b.o.ahead, x))
                ntb(&b, 0, x);
            tick(&b);
        }
        for (unsigned x = 0; x < 64; x++) {
            seed = seed * 1103515245u + 12345u;
            b.in.insns[x] = (seed >> 8) % 5;
            b.in.at_bar[x] = (seed >> 20) % 4 == 0;
        }
        for (unsigned t = 0; t < nctas; t++) {
            seed = seed * 1103515245u + 12345u;
            b.in.prog[t] = (seed >> 8) % 6;
            b.in.nbar[t] = (uint8_t)((seed >> 16) % 3 == 0 ? 1 + (seed >> 20) % 2 : 0);
        }
        b.in.slow = run % 5 == 4;
        tick(&b);
        for (unsigned x = 0; x < 64; x++)
            if (pas_has(b.in.ctx_valid, x))
                list[n++] = x;
        ref_b = &b;
        qsort(list, n, sizeof list[0], ref_cmp);
        assert_order(&b, list, n);
    }
}

/* ------------------------------------------------------------------ iterations */

/* nnext counts the warps in the next iteration; the last one moves low; a launch clears. */
static void test_iteration_tracking(void **state)
{
    static const unsigned nw[] = {3, 2};
    struct bench b;
    (void)state;
    setup(&b, 2, nw);                            /* ctx 0-2 | 3-4 */
    ntb(&b, 0, 1);
    b.in.issued[1] = (struct pas_issue){1, 3, 0};            /* not nexttbid: nothing */
    tick(&b);
    assert_int_equal(b.q.iter[1], 1);
    assert_int_equal(b.q.iter[3], 0);
    assert_int_equal(b.q.nnext[0], 1);
    assert_int_equal(b.q.low[0], 0);
    ntb(&b, 0, 0); ntb(&b, 1, 2);                /* two schedulers: the last warp leaves */
    tick(&b);
    assert_int_equal(b.q.low[0], 1);
    assert_int_equal(b.q.nnext[0], 0);
    assert_int_equal(b.q.iter[0], 1);
    assert_int_equal(b.q.iter[2], 1);
    ntb(&b, 1, 3);
    tick(&b);
    assert_int_equal(b.q.nnext[1], 1);
    b.in.cta_launch = 1ull << 1;                 /* CTA slot 1 relaunched */
    tick(&b);
    assert_int_equal(b.q.nnext[1], 0);
    assert_int_equal(b.q.iter[3], 0);
    assert_int_equal(b.q.low[0], 1);             /* CTA 0 untouched */
    b.in.cta_launch = 1;
    tick(&b);
    assert_int_equal(b.q.low[0], 0);
    assert_int_equal(b.q.iter[0], 0);
    b.in.ctx_cta[4] = PAS_NO_CTA;                /* a context without a CTA: ignored */
    ntb(&b, 0, 4);
    ntb(&b, 1, 200);                             /* a context above nctx: ignored */
    tick(&b);
    assert_int_equal(b.q.iter[4], 0);
    assert_int_equal(b.q.nnext[1], 0);
}

/* ahead: the warps in the next iteration, seen in the cycle after their nexttbid issued, and
   not when the TB has caught up. */
static void test_ahead(void **state)
{
    static const unsigned nw[] = {2, 2};
    struct bench b;
    (void)state;
    setup(&b, 2, nw);
    tick(&b);
    assert_int_equal(b.o.ahead[0], 0);
    ntb(&b, 0, 2);
    tick(&b);                                    /* the issue of t-1 is seen in t */
    assert_int_equal(b.o.ahead[0], 1u << 2);
    assert_true(pas_has(b.o.ahead, 2));
    ntb(&b, 0, 3);
    tick(&b);
    assert_int_equal(b.o.ahead[0], 0);           /* CTA 1 caught up */
    assert_int_equal(b.q.low[1], 1);
    ntb(&b, 0, 0);
    tick(&b);
    assert_int_equal(b.o.ahead[0], 1u);
    b.in.ctx_valid[0] &= ~1ull;                  /* an invalid context is never ahead */
    tick(&b);
    assert_int_equal(b.o.ahead[0], 0);
}

/* How many valid warps of CTA t are at low + 1, and are all at low or low + 1? */
static int representable(const struct bench *b, unsigned t)
{
    unsigned ahead = 0;
    for (unsigned x = 0; x < b->c.nctx; x++) {
        if (b->in.ctx_cta[x] != t)
            continue;
        if (b->q.iter[x] != b->q.low[t] && b->q.iter[x] != b->q.low[t] + 1)
            return 0;
        ahead += b->q.iter[x] == b->q.low[t] + 1;
    }
    return ahead == b->q.nnext[t];
}

/* At most one iteration apart is what the registers can represent: any sequence in which an
   ahead warp holds its nexttbid keeps every warp at low or low + 1 with nnext counting the
   second; one nexttbid of an ahead warp breaks it (the SM must hold it). */
static void test_one_iteration_apart(void **state)
{
    static const unsigned nw[] = {4, 3};
    struct bench b;
    unsigned seed = 7, x;
    (void)state;
    setup(&b, 2, nw);
    for (unsigned step = 0; step < 2000; step++) {
        for (unsigned k = 0; k < 2; k++) {
            x = (seed = seed * 1103515245u + 12345u) >> 8 & 7;
            if (x < 7 && !pas_has(b.o.ahead, x) && (k == 0 || b.in.issued[0].ctx != x))
                ntb(&b, k, x);
        }
        tick(&b);
        assert_true(representable(&b, 0));
        assert_true(representable(&b, 1));
    }
    assert_true(b.q.low[0] > 100 && b.q.low[1] > 100);
    while (!b.o.ahead[0]) {                      /* find an ahead warp ... */
        ntb(&b, 0, 0);
        tick(&b);
    }
    x = (unsigned)__builtin_ctzll(b.o.ahead[0]);
    ntb(&b, 0, x);                               /* ... and let it go on to low + 2 */
    tick(&b);
    assert_false(representable(&b, b.in.ctx_cta[x]));
}

/* ------------------------------------------------------------------ configuration, cost */

static void test_registry_and_cfg(void **state)
{
    struct gpu_config g;
    struct pas_cfg c;
    char err[CONF_ERR_LEN];
    (void)state;
    conf_defaults(&g);
    assert_int_equal(g.vtw, VTW_OFF);
    assert_int_equal(pas_instances(&g), 0);
    assert_int_equal(conf_set(&g, "vtw=sw", "--set", err, sizeof err), 0);
    assert_int_equal(pas_instances(&g), 0);
    assert_int_equal(conf_set(&g, "vtw=hw", "--set", err, sizeof err), 0);
    assert_int_equal(pas_instances(&g), 1);
    assert_int_equal(conf_set(&g, "vtw=fast", "--set", err, sizeof err), -1);
    tu_assert_contains(err, "vtw");
    pas_cfg_from(&g, 0, 0, &c);
    assert_int_equal(pas_cfg_check(&c, err, sizeof err), 0);
    assert_int_equal(c.nctx, 48);
    assert_int_equal(c.nctas, 8);
    assert_int_equal(c.nsched, 2);
    c.nctas = 65;
    assert_int_equal(pas_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "nctas 65 (1..64)");
    c.nctas = 8;
    c.nctx = 0;
    assert_int_equal(pas_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "nctx 0 (1..256)");
    c.nctx = 48;
    c.nsched = 5;
    assert_int_equal(pas_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "nsched 5 (1..4)");
}

/* Bits of the items of `block` named in `names` (NULL-terminated). */
static uint64_t named_bits(const struct cost_list *l, const char *block, const char *const *names)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < l->n; i++)
        for (const char *const *n = names; *n; n++)
            if (!strcmp(l->it[i].block, block) && !strcmp(l->it[i].name, *n))
                s += l->it[i].entries * l->it[i].bits;
    return s;
}

/* Section 4.5 on Fermi (48 warps, 8 TBs): the scheduler needs 1 * 8 + 4 * (48 + 8 + 48 + 8)
   = 456 B; pas holds the iterations (232 B), iss the progress counters per warp and TB. */
static void test_storage_fermi(void **state)
{
    static const char *const paper_iss[] = {"insns", "prog", NULL};
    struct gpu_config g;
    struct pas_cfg pc;
    struct iss_cfg ic;
    struct cost_list l;
    char err[CONF_ERR_LEN];
    uint64_t pas_bits;
    (void)state;
    conf_defaults(&g);
    assert_int_equal(conf_load_file(&g, "configs/gtx480.cfg", err, sizeof err), 0);
    assert_int_equal(conf_set(&g, "vtw=hw", "--set", err, sizeof err), 0);
    pas_cfg_from(&g, 0, 0, &pc);
    iss_cfg_from(&g, 0, 0, &ic);
    ic.progress = 1;               /* the progress counters a key generator reads */
    cost_list_init(&l);
    pas_storage(&pc, &l);
    iss_storage(&ic, &l);
    pas_bits = cost_block_bits(&l, "pas", 1);
    assert_int_equal(pas_bits, 232 * 8);
    assert_int_equal(pas_bits + named_bits(&l, "iss", paper_iss), 456 * 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_class),
        cmocka_unit_test(test_diffiter_classes),
        cmocka_unit_test(test_sameiter_class),
        cmocka_unit_test(test_slow_phase),
        cmocka_unit_test(test_random_against_reference),
        cmocka_unit_test(test_iteration_tracking),
        cmocka_unit_test(test_ahead),
        cmocka_unit_test(test_one_iteration_apart),
        cmocka_unit_test(test_registry_and_cfg),
        cmocka_unit_test(test_storage_fermi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
