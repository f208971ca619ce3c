/*
 * test_iss.c -- the issue stage: the class of a slot in priority order, the per-scheduler
 * masks in local slot numbering (also beyond 64 slots), the LD/ST port taken by an earlier
 * scheduler, loads in flight making a dependence long, barrier flags set by an issue and
 * cleared by their CTA's release, results outstanding per CTA (quiet), counters cleared at a
 * CTA launch, the progress counters and the all-stalled-on-memory CTA mask, the mask helpers
 * that deal slots out to the schedulers, bad configuration.
 */
#include "testutil.h"
#include "sm/fu.h"
#include "sm/iss.h"

struct tb {
    struct iss_cfg c;
    struct iss_regs q, d;
    struct iss_in in;
    struct iss_out out;
};

static void tb_init(struct tb *t, uint8_t nslots, uint8_t nsched, uint8_t progress)
{
    memset(t, 0, sizeof *t);
    iss_cfg_default(&t->c);
    t->c.nslots = nslots;
    t->c.nsched = nsched;
    t->c.nctx = nslots;
    t->c.nctas = 4;
    t->c.progress = progress;
    iss_reset(&t->c, &t->q);
    t->d = t->q;
    memset(t->in.ctx_cta, ISS_NO_CTX, sizeof t->in.ctx_cta);
    for (unsigned k = 0; k < ISS_MAX_SCHED; k++)
        t->in.unit_free[k] = 0xF;
    t->in.ldst_ready = 1;
}

/* Slot w holds context w of CTA k. */
static void bind(struct tb *t, unsigned w, uint8_t k)
{
    t->in.valid |= slot_bit(w);
    t->in.head_ok |= slot_bit(w);
    t->in.slot_ctx[w] = (uint8_t)w;
    t->in.ctx_cta[w] = k;
}

/* One cycle; the event ports are one-shot. */
static void tick(struct tb *t)
{
    iss_eval(&t->c, &t->q, &t->in, &t->out, &t->d);
    iss_commit(&t->c, &t->q, &t->d);
    memset(t->in.issued, 0, sizeof t->in.issued);
    memset(t->in.rel, 0, sizeof t->in.rel);
    t->in.bar_release = t->in.cta_launch = 0;
    t->in.fresh = 0;
}

static void test_classes(void **state)
{
    struct tb t;
    (void)state;
    tb_init(&t, 48, 2, 0);
    for (unsigned w = 0; w < 8; w++)
        bind(&t, w, 0);
    t.in.head_ok &= ~slot_bit(0);                        /* 0: I-buffer */
    t.in.busy = slot_bit(1);                             /* 1: SIMT stack */
    t.in.hazard = slot_bit(2);                           /* 2: short dependence */
    t.in.head_unit[3] = FU_SFU;                          /* 3: its unit is busy */
    t.in.unit_free[1] = (uint8_t)~(1u << FU_SFU);
    t.in.head_mem = slot_bit(4) | slot_bit(5);           /* 4, 5: memory, ready */
    t.in.fresh = slot_bit(6);
    tick(&t);
    /* scheduler 0: slots 0 2 4 6 -> local 0 1 2 3; scheduler 1: 1 3 5 7 -> local 0 1 2 3 */
    assert_true(t.out.s[0].valid == 0xF && t.out.s[1].valid == 0xF);
    assert_true(t.out.s[0].ready == (slot_bit(2) | slot_bit(3)));      /* slots 4 and 6 */
    assert_true(t.out.s[0].ready_mem == slot_bit(2));
    assert_true(t.out.s[0].fresh == slot_bit(3));
    assert_true(t.out.s[1].ready == (slot_bit(2) | slot_bit(3)));      /* slots 5 and 7 */
    assert_int_equal(t.out.s[0].best, ISS_SHORT_DEP);                 /* over I-buffer */
    assert_int_equal(t.out.s[1].best, ISS_STRUCT);                    /* over SIMT stack */
    /* the LD/ST unit taken by scheduler 0: scheduler 1's memory slot is structural */
    assert_int_equal(iss_class_of(&t.out.s[1], 0, 1), ISS_ISSUED);   /* slot 7 still ready */
    t.out.s[1].ready = slot_bit(2);
    assert_int_equal(iss_class_of(&t.out.s[1], 0, 1), ISS_STRUCT);
    assert_int_equal(iss_class_of(&t.out.s[1], 0, 0), ISS_ISSUED);
    assert_int_equal(iss_class_of(&t.out.s[1], 1, 1), ISS_ISSUED);
    t.in.ldst_ready = 0;
    tick(&t);
    assert_true(t.out.s[0].ready == slot_bit(3));                     /* slot 4 now waits */
}

static void test_long_memory_and_barrier(void **state)
{
    struct tb t;
    (void)state;
    tb_init(&t, 48, 1, 0);
    bind(&t, 5, 2);
    bind(&t, 6, 2);
    t.in.issued[0] = (struct iss_issue){ 1, 5, 2, 1, 0, 0 };             /* a load, 2 registers */
    t.in.hazard = slot_bit(5);
    tick(&t);
    assert_true(t.out.s[0].lstall == slot_bit(5));
    assert_false(t.out.quiet >> 2 & 1);
    t.in.rel[0] = (struct iss_rel){ 1, 5, 1 };
    tick(&t);
    assert_true(t.out.s[0].lstall == slot_bit(5));                    /* one still in flight */
    t.in.rel[0] = (struct iss_rel){ 1, 5, 1 };
    tick(&t);
    assert_int_equal(t.out.s[0].best, ISS_SHORT_DEP);                 /* no load left */
    assert_true(t.out.quiet >> 2 & 1);
    t.in.hazard = 0;
    t.in.issued[0] = (struct iss_issue){ 1, 6, 0, 0, 1, 0 };             /* bar.sync */
    tick(&t);
    assert_true(t.out.s[0].ready == slot_bit(5));
    assert_int_equal(t.out.s[0].best, ISS_BARRIER);
    t.in.bar_release = 1u << 1;                                       /* another CTA's */
    tick(&t);
    assert_int_equal(t.out.s[0].best, ISS_BARRIER);
    t.in.bar_release = 1u << 2;
    tick(&t);
    assert_true(t.out.s[0].ready == (slot_bit(5) | slot_bit(6)));
    assert_int_equal(t.out.s[0].best, ISS_NO_WARP);
}

static void test_launch_clears(void **state)
{
    struct tb t;
    (void)state;
    tb_init(&t, 48, 1, 1);
    bind(&t, 3, 1);
    t.in.issued[0] = (struct iss_issue){ 1, 3, 1, 1, 1, 0 };
    tick(&t);
    assert_int_equal(t.q.loads[3], 1);
    assert_int_equal(t.q.at_bar[3], 1);
    assert_int_equal(t.q.pend[1], 1);
    assert_int_equal(t.q.insns[3], 1);
    t.in.cta_launch = 1u << 1;
    tick(&t);
    assert_int_equal(t.q.loads[3], 0);
    assert_int_equal(t.q.at_bar[3], 0);
    assert_int_equal(t.q.pend[1], 0);
    assert_int_equal(t.q.insns[3], 0);
}

/* Progress (000 Section 5): instructions per context and per CTA, contexts at a barrier;
   a CTA whose every valid slot waits on a load is reported (004's swap-out condition). */
static void test_progress(void **state)
{
    struct tb t;
    (void)state;
    tb_init(&t, 64, 2, 1);
    bind(&t, 0, 0); bind(&t, 1, 0); bind(&t, 2, 3);
    for (int i = 0; i < 3; i++) {
        t.in.issued[0] = (struct iss_issue){ 1, 0, 0, 0, 0, 0 };
        t.in.issued[1] = (struct iss_issue){ 1, 1, 1, 1, 0, 0 };
        tick(&t);
    }
    t.in.issued[0] = (struct iss_issue){ 1, 2, 0, 0, 1, 0 };
    tick(&t);
    assert_int_equal(t.q.insns[0], 3);
    assert_int_equal(t.q.insns[1], 3);
    assert_int_equal(t.q.prog[0], 6);
    assert_int_equal(t.q.prog[3], 1);
    assert_int_equal(t.q.nbar[3], 1);
    assert_int_equal(t.out.memstall, 0);
    t.in.hazard = slot_bit(0) | slot_bit(1);
    t.in.issued[0] = (struct iss_issue){ 1, 0, 1, 1, 0, 0 };
    tick(&t);
    assert_true(t.out.memstall == 1u);                                /* CTA 0: both on loads */
    t.in.hazard = slot_bit(1);
    tick(&t);
    assert_int_equal(t.out.memstall, 0);
}

/* Slots beyond 64, one scheduler: local slot = slot. */
static void test_128_slots(void **state)
{
    struct tb t;
    (void)state;
    tb_init(&t, 128, 1, 0);
    bind(&t, 100, 0);
    bind(&t, 127, 0);
    t.in.hazard = slot_bit(127);
    tick(&t);
    assert_true(t.out.s[0].ready == slot_bit(100));
    assert_true(t.out.s[0].valid == (slot_bit(100) | slot_bit(127)));
    tb_init(&t, 128, 4, 0);
    bind(&t, 101, 0);
    tick(&t);
    assert_true(t.out.s[1].ready == slot_bit(25));                    /* 101 = 25 x 4 + 1 */
}

/* slot_deal and slot_stride (base/slotmask.h: the issue stage's per-scheduler masks, built
   for all slots at once) against their per-slot definition, for 1..4 schedulers on random
   masks, the full mask and masks confined to either half. */
static void test_deal(void **state)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    (void)state;
    for (unsigned it = 0; it < 4000; it++) {
        slotmask m;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        m = (slotmask)x << 64 | (x * 0xff51afd7ed558ccdull);
        m = it % 4 == 1 ? ~(slotmask)0 : it % 4 == 2 ? m >> 64 : it % 4 == 3 ? m << 64 : m;
        for (unsigned n = 1; n <= ISS_MAX_SCHED; n++)
            for (unsigned k = 0; k < n; k++) {
                slotmask want = 0, stride = 0;
                for (unsigned w = k; w < SM_MAX_SLOTS; w += n) {
                    stride |= slot_bit(w);
                    if (slot_has(m, w))
                        want |= slot_bit(w / n);
                }
                assert_true(slot_deal(m, k, n) == want);
                assert_true(slot_stride(k, n) == stride);
            }
    }
}

static void test_bad_cfg(void **state)
{
    struct iss_cfg c;
    char err[256];
    (void)state;
    iss_cfg_default(&c);
    assert_int_equal(iss_cfg_check(&c, err, sizeof err), 0);
    c.nsched = 5;
    assert_int_equal(iss_cfg_check(&c, err, sizeof err), -1);
    tu_assert_contains(err, "nsched 5");
    iss_cfg_default(&c);
    c.nctas = SM_MAX_CTAS + 1;
    assert_int_equal(iss_cfg_check(&c, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_long_memory_and_barrier),
        cmocka_unit_test(test_launch_clears),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_128_slots),
        cmocka_unit_test(test_deal),
        cmocka_unit_test(test_bad_cfg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
