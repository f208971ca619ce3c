/*
 * test_icnt.c -- the interconnect alone: zero-load latency and flit serialisation, strict
 * round-robin fairness among SMs, back pressure through the slices' credits (nothing dropped,
 * nothing duplicated), and the slice hash spreading consecutive lines and large strides.
 */
#include "testutil.h"
#include "mem/icnt.h"

struct ih {
    struct icnt_cfg c;
    struct icnt_regs *q, *d;
    struct icnt_in in;
    struct icnt_out o;
    uint64_t now;
};

static struct ih *ih_new(void)
{
    struct ih *h = calloc(1, sizeof *h);
    icnt_cfg_default(&h->c);
    h->q = malloc(sizeof *h->q);
    h->d = malloc(sizeof *h->d);
    icnt_reset(&h->c, h->q);
    *h->d = *h->q;
    return h;
}

static void ih_free(struct ih *h)
{
    free(h->q);
    free(h->d);
    free(h);
}

static void ih_step(struct ih *h)
{
    h->in.now = h->now;
    icnt_eval(&h->c, h->q, &h->in, &h->o, h->d);
    icnt_commit(&h->c, h->q, h->d);
    assert_int_equal(memcmp(h->q, h->d, sizeof *h->q), 0);
    assert_int_equal(h->o.ev_bad, 0);
    memset(&h->in, 0, offsetof(struct icnt_in, sm_req));
    h->now++;
}

static struct mem_req pkt(uint8_t kind, uint64_t addr, uint32_t bytes, uint32_t tag)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.addr = addr;
    r.bytes = bytes;
    r.tag = tag;
    return r;
}

static void test_icnt_latency_and_flits(void **st)
{
    struct ih *h = ih_new();
    uint32_t s = icnt_slice_of(&h->c, 0x4000);
    uint64_t got[2] = {0, 0};
    (void)st;
    /* a read request (1 flit) and a 128-byte store (5 flits) from SMs 0 and 1, same slice */
    h->in.sm_req_valid = 3;
    h->in.sm_req[0] = pkt(MK_STORE, 0x4000, 128, 0);
    h->in.sm_req[1] = pkt(MK_LOAD, 0x4000, 4, 1);
    ih_step(h);                                   /* cycle 0: enter */
    while (h->now < 40) {
        ih_step(h);
        if ((h->o.l2_req_valid >> s) & 1)
            got[h->o.l2_req[s].tag] = h->now - 1;
    }
    /* SM0 wins the first grant at 1 (round robin from 0): 5 flits, tail at 1+8+4 = 13;
       the output is busy until 6, so SM1's 1-flit packet is granted at 6, arrives at 14 */
    assert_int_equal(got[0], 1 + h->c.latency + 5 - 1);
    assert_int_equal(got[1], 1 + 5 + h->c.latency);
    assert_int_equal(h->o.ev_bad, 0);
    ih_free(h);
}

static void test_icnt_round_robin(void **st)
{
    struct ih *h = ih_new();
    uint32_t grants[15] = {0}, order[30], n = 0;
    uint32_t s = icnt_slice_of(&h->c, 0x8000);
    (void)st;
    for (int cyc = 0; cyc < 3000; cyc++) {
        h->in.sm_req_valid = 0;
        for (unsigned i = 0; i < 15; i++)
            if ((h->o.sm_ready >> i) & 1 || cyc == 0) {
                h->in.sm_req_valid |= 1ull << i;
                h->in.sm_req[i] = pkt(MK_LOAD, 0x8000, 4, i);
            }
        h->in.l2_credit = h->o.l2_req_valid;      /* the slice frees its slot at once */
        ih_step(h);
        if ((h->o.l2_req_valid >> s) & 1) {
            uint32_t who = h->o.l2_req[s].sm;
            grants[who]++;
            if (n < 30)
                order[n++] = who;
        }
    }
    for (unsigned i = 0; i < 15; i++)
        assert_true(grants[i] >= grants[0] - 1 && grants[i] <= grants[0] + 1);
    assert_true(grants[0] > 150);
    for (unsigned k = 1; k < 30; k++)               /* strict rotation */
        assert_int_equal(order[k], (order[k - 1] + 1) % 15);
    ih_free(h);
}

static void test_icnt_back_pressure(void **st)
{
    struct ih *h = ih_new();
    uint32_t s = icnt_slice_of(&h->c, 0xC000), sent = 0, got = 0;
    int stopped = 0;
    (void)st;
    h->c.l2_credits = 4;                          /* a slice with only 4 input slots */
    icnt_reset(&h->c, h->q);
    *h->d = *h->q;
    h->o.sm_ready = icnt_sm_ready(&h->c, h->q);
    for (int cyc = 0; cyc < 200; cyc++) {       /* the slice never frees a slot */
        if (h->o.sm_ready & 1) {
            h->in.sm_req_valid = 1;
            h->in.sm_req[0] = pkt(MK_LOAD, 0xC000, 4, sent++);
        }
        ih_step(h);
        got += (h->o.l2_req_valid >> s) & 1;
        if (!(h->o.sm_ready & 1))
            stopped = 1;
    }
    assert_true(stopped);
    assert_int_equal(got, 4);                     /* only what the credits allowed */
    assert_int_equal(sent, 4 + h->c.outq_size + h->c.inq_size);   /* nothing was dropped */
    for (int cyc = 0; cyc < 200; cyc++) {        /* now the slice frees slots */
        h->in.l2_credit = h->o.l2_req_valid | (cyc == 0 ? 1ull << s : 0);
        ih_step(h);
        got += (h->o.l2_req_valid >> s) & 1;
    }
    assert_int_equal(got, sent);
    assert_false(icnt_busy(h->q));
    ih_free(h);
}

static void test_slice_hash(void **st)
{
    struct icnt_cfg c;
    uint32_t seen[12] = {0};
    (void)st;
    icnt_cfg_default(&c);
    for (uint64_t line = 0; line < 12; line++)     /* 12 consecutive lines: 12 slices */
        seen[icnt_slice_of(&c, line << 7)]++;
    for (unsigned i = 0; i < 12; i++)
        assert_int_equal(seen[i], 1);
    memset(seen, 0, sizeof seen);
    for (uint64_t k = 0; k < 1200; k++)           /* a 4 KB stride still spreads */
        seen[icnt_slice_of(&c, k * 4096)]++;
    for (unsigned i = 0; i < 12; i++)
        assert_true(seen[i] >= 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_icnt_latency_and_flits),
        cmocka_unit_test(test_icnt_round_robin),
        cmocka_unit_test(test_icnt_back_pressure),
        cmocka_unit_test(test_slice_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
