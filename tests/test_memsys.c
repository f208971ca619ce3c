/*
 * test_memsys.c -- the memory system end to end (SM L1s + interconnect + L2 slices + DRAM):
 * zero-load latencies of an L1 hit, an L2 hit and L2 misses that hit / open / conflict in
 * a DRAM row, written as numbers and as sums of configuration figures (the interconnect
 * alone: tests/test_icnt.c); time skipping gives
 * the same statistics and the same response cycles as ticking every cycle; determinism;
 * bad configuration; and the host time per busy cycle (printed).
 */
#include <time.h>
#include "testutil.h"
#include "sm/l1.h"
#include "mem/memsys.h"

/* ------------------------------------------------------------------ a tiny GPU harness */

struct logent {
    uint64_t t;
    uint32_t sm, tag;
    uint8_t kind;
};

struct sm {
    struct l1_regs q, d;
    struct l1_stats st;
    struct mem_req *reqs;
    uint64_t *t_req;
    unsigned n, head;
    uint8_t fill_valid;
    struct mem_req fill;
};

struct gpu {
    unsigned nsm;
    struct l1_cfg l1c;
    struct msys_cfg mc;
    struct sm *sm;
    struct msys *ms;
    struct msys_port port;
    int array_api;                /* use msys_tick (per-SM arrays) instead of msys_tick_port */
    struct msys_sm_in in[MSYS_MAX_SM];
    struct msys_sm_out out[MSYS_MAX_SM];
    struct logent *log;
    size_t nlog, caplog;
    uint64_t visited, busy_cycles, last;
    int timed;                    /* measure host time spent in msys_tick */
    double msys_secs;
};

static double secs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static struct gpu *gpu_new(unsigned nsm, const struct msys_cfg *mc)
{
    struct gpu *g = calloc(1, sizeof *g);
    char err[256];
    g->nsm = nsm;
    l1_cfg_default(&g->l1c);
    if (mc)
        g->mc = *mc;
    else
        msys_cfg_default(&g->mc, nsm);
    g->ms = msys_init(&g->mc, err, sizeof err);
    if (!g->ms)
        fail_msg("%s", err);
    g->mc = *msys_get_cfg(g->ms);
    g->sm = calloc(nsm, sizeof *g->sm);
    for (unsigned i = 0; i < nsm; i++) {
        l1_reset(&g->l1c, &g->sm[i].q);
        g->sm[i].d = g->sm[i].q;
    }
    return g;
}

static void gpu_free(struct gpu *g)
{
    for (unsigned i = 0; i < g->nsm; i++) {
        free(g->sm[i].reqs);
        free(g->sm[i].t_req);
    }
    free(g->sm);
    free(g->log);
    msys_free(g->ms);
    free(g);
}

static void gpu_add(struct gpu *g, unsigned sm, uint64_t t, uint8_t kind, uint64_t addr,
                    uint32_t bytes)
{
    struct sm *s = &g->sm[sm];
    struct mem_req *r;
    s->reqs = realloc(s->reqs, (s->n + 1) * sizeof *s->reqs);
    s->t_req = realloc(s->t_req, (s->n + 1) * sizeof *s->t_req);
    r = &s->reqs[s->n];
    memset(r, 0, sizeof *r);
    r->addr = addr & ~127ull;
    r->bytes = bytes;
    r->kind = kind;
    r->sm = (uint8_t)sm;
    r->warp = (uint8_t)(s->n % 48);
    r->tag = s->n;
    s->t_req[s->n] = t;
    s->n++;
}

static void gpu_cycle(struct gpu *g, uint64_t t)
{
    uint64_t ready = msys_ready_mask(g->ms);
    g->port.req_valid = 0;
    for (unsigned i = 0; i < g->nsm; i++) {
        struct sm *s = &g->sm[i];
        struct l1_in in;
        struct l1_out o;
        memset(&in, 0, sizeof in);
        in.now = t;
        if (s->head < s->n && s->t_req[s->head] <= t) {
            in.req_valid = 1;
            in.req = s->reqs[s->head];
            in.req.t_issue = t;
        }
        in.icnt_ready = (uint8_t)((ready >> i) & 1);
        if (s->fill_valid) {
            in.fill_valid = 1;
            in.fill = s->fill;
        }
        l1_eval(&g->l1c, &s->q, &in, &o, &s->d);
        l1_commit(&g->l1c, &s->q, &s->d);
        l1_stats_add(&s->st, &o);
        if (in.req_valid && o.ready)
            s->head++;
        if (o.resp_valid) {
            if (g->nlog == g->caplog) {
                g->caplog = g->caplog ? 2 * g->caplog : 1024;
                g->log = realloc(g->log, g->caplog * sizeof *g->log);
            }
            g->log[g->nlog].t = t;
            g->log[g->nlog].sm = i;
            g->log[g->nlog].tag = o.resp.tag;
            g->log[g->nlog].kind = o.resp.kind;
            g->nlog++;
            g->last = t;
        }
        if (o.miss_valid) {
            g->port.req_valid |= 1ull << i;
            g->port.req[i] = o.miss;
        }
    }
    if (g->array_api) {
        for (unsigned i = 0; i < g->nsm; i++) {
            g->in[i].valid = (g->port.req_valid >> i) & 1;
            g->in[i].req = g->port.req[i];
        }
    }
    {
        double t0 = g->timed ? secs() : 0;
        if (g->array_api)
            msys_tick(g->ms, t, g->in, g->out);
        else
            msys_tick_port(g->ms, t, &g->port);
        if (g->timed)
            g->msys_secs += secs() - t0;
    }
    if (g->array_api) {
        g->port.resp_valid = 0;
        for (unsigned i = 0; i < g->nsm; i++)
            if (g->out[i].resp_valid) {
                g->port.resp_valid |= 1ull << i;
                g->port.resp[i] = g->out[i].resp;
            }
    }
    for (unsigned i = 0; i < g->nsm; i++) {
        g->sm[i].fill_valid = (g->port.resp_valid >> i) & 1;
        if (g->sm[i].fill_valid)
            g->sm[i].fill = g->port.resp[i];
    }
    g->visited++;
}

static int gpu_done(const struct gpu *g)
{
    for (unsigned i = 0; i < g->nsm; i++) {
        const struct sm *s = &g->sm[i];
        if (s->head < s->n || s->fill_valid || l1_busy(&g->l1c, &s->q))
            return 0;
    }
    return !msys_busy(g->ms);
}

static uint64_t gpu_next(const struct gpu *g, uint64_t t)
{
    uint64_t n = msys_next_event(g->ms, t);
    for (unsigned i = 0; i < g->nsm; i++) {
        const struct sm *s = &g->sm[i];
        uint64_t e = l1_next_event(&g->l1c, &s->q, t);
        if (s->fill_valid)
            e = t + 1;
        if (s->head < s->n) {
            uint64_t r = s->t_req[s->head] > t ? s->t_req[s->head] : t + 1;
            if (r < e)
                e = r;
        }
        if (e < n)
            n = e;
    }
    return n;
}

/* Run from cycle 0 until everything is done; skip = jump over idle cycles. Returns cycles. */
static uint64_t gpu_run(struct gpu *g, int skip, uint64_t limit)
{
    uint64_t t = 0;
    for (;;) {
        gpu_cycle(g, t);
        if (msys_busy(g->ms))
            g->busy_cycles++;
        if (gpu_done(g))
            return t + 1;
        t = skip ? gpu_next(g, t) : t + 1;
        if (t >= limit)
            fail_msg("not done by cycle %llu", (unsigned long long)limit);
    }
}

/* Response cycle of (sm, tag), or 0. */
static uint64_t resp_at(const struct gpu *g, unsigned sm, uint32_t tag)
{
    for (size_t i = 0; i < g->nlog; i++)
        if (g->log[i].sm == sm && g->log[i].tag == tag)
            return g->log[i].t;
    return 0;
}

/* ------------------------------------------------------------------ latencies */

static uint32_t burst(const struct dram_cfg *c)
{
    return (c->line_ticks + c->tick_per_cycle - 1) / c->tick_per_cycle;
}

/* Zero-load cycles from the L1 accepting a load to its response, for an L2 hit and for an
   L2 miss that finds its DRAM bank closed. Each +1 is one registered hand-over. */
static uint64_t lat_l2_hit(const struct msys_cfg *c, uint32_t resp_flits)
{
    return 1                                    /* L1 miss queue -> interconnect input */
         + 1 + c->icnt.latency + 0              /* grant, cross (a read request: 1 flit) */
         + 1                                    /* -> L2 ROP queue */
         + c->l2.rop_latency                    /* tag check */
         + 1                                    /* response FIFO -> out */
         + 1                                    /* -> interconnect input */
         + 1 + c->icnt.latency + resp_flits - 1 /* grant, cross, tail arrives */
         + 1                                    /* -> L1 fill port */
         + 1;                                   /* L1 MSHR drains */
}

static uint64_t lat_l2_miss_closed(const struct msys_cfg *c, uint32_t resp_flits)
{
    return lat_l2_hit(c, resp_flits)
         + 1                                    /* DRAM FIFO -> out */
         + 1                                    /* -> DRAM latency FIFO */
         + c->dram.front_latency                /* -> scheduler queue */
         + 1 + c->dram.tRCD + c->dram.tCL + burst(&c->dram) /* ACT, RD, data */
         + 1                                    /* -> L2 fill */
         + 1;                                   /* MSHR drains into the response FIFO */
}

static uint64_t one_load(struct gpu *g, uint64_t t, uint64_t addr, uint32_t tag)
{
    (void)tag;
    gpu_add(g, 0, t, MK_LOAD, addr, 4);
    while (!gpu_done(g) || g->sm[0].head < g->sm[0].n) {
        gpu_cycle(g, t);
        t++;
    }
    return t;
}

/* Another line in the same L2 slice and DRAM bank, same row (same_row) or another row. */
static uint64_t neighbour(const struct msys_cfg *c, uint64_t a, int same_row)
{
    uint32_t s = icnt_slice_of(&c->icnt, a), b0, r0, b, r;
    dram_map(&c->dram, a, s % c->slices_per_chan, &b0, &r0);
    for (uint64_t line = (a >> 7) + 1;; line++) {
        uint64_t x = line << 7;
        if (icnt_slice_of(&c->icnt, x) != s)
            continue;
        dram_map(&c->dram, x, s % c->slices_per_chan, &b, &r);
        if (b == b0 && (same_row ? r == r0 : r != r0))
            return x;
    }
}

static void test_latencies(void **st)
{
    struct gpu *g = gpu_new(15, NULL);
    const struct msys_cfg *c = &g->mc;
    uint32_t rf = icnt_flits(&c->icnt, &(struct mem_req){.kind = MK_LOAD}, 1);
    uint64_t a = 0x100000, t, l1hit, l2hit, miss, rowhit, conflict;
    (void)st;
    assert_int_equal(rf, 5);                       /* 8 + 128 bytes in 32-byte flits */
    /* L2 miss, DRAM bank closed */
    t = one_load(g, 0, a, 0);
    miss = resp_at(g, 0, 0);
    assert_int_equal(miss, lat_l2_miss_closed(c, rf));
    assert_int_equal(miss, 277);
    /* L1 hit */
    t = one_load(g, t + 10, a, 1);
    l1hit = resp_at(g, 0, 1) - g->sm[0].t_req[1];
    assert_int_equal(l1hit, g->l1c.hit_latency);
    assert_int_equal(l1hit, 35);
    /* L2 hit: another SM's L1 misses on the same line */
    gpu_add(g, 1, t + 10, MK_LOAD, a, 4);
    while (!gpu_done(g)) {
        gpu_cycle(g, t);
        t++;
    }
    l2hit = resp_at(g, 1, 0) - g->sm[1].t_req[0];
    assert_int_equal(l2hit, lat_l2_hit(c, rf));
    assert_int_equal(l2hit, 148);
    /* L2 miss, DRAM row hit (the row is still open) */
    t = one_load(g, t + 10, neighbour(c, a, 1), 2);
    rowhit = resp_at(g, 0, 2) - g->sm[0].t_req[2];
    assert_int_equal(rowhit, lat_l2_miss_closed(c, rf) - c->dram.tRCD);
    assert_int_equal(rowhit, 267);
    /* L2 miss, DRAM row conflict */
    t = one_load(g, t + 10, neighbour(c, a, 0), 3);
    conflict = resp_at(g, 0, 3) - g->sm[0].t_req[3];
    assert_int_equal(conflict, lat_l2_miss_closed(c, rf) + c->dram.tRP);
    assert_int_equal(conflict, 287);
    print_message("latency (core cycles, from L1 accept to response): L1 hit %llu, L2 hit %llu, "
                  "L2 miss + DRAM row hit %llu, row closed %llu, row conflict %llu\n",
                  (unsigned long long)l1hit, (unsigned long long)l2hit,
                  (unsigned long long)rowhit, (unsigned long long)miss,
                  (unsigned long long)conflict);
    {
        const struct msys_stats *s = msys_stats(g->ms);
        assert_int_equal(s->l2_hit, 1);
        assert_int_equal(s->l2_miss, 3);
        assert_int_equal(s->bad, 0);
    }
    gpu_free(g);
}

/* ------------------------------------------------------------------ random traffic */

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* Mixed traffic: hot lines (L1 hits), a shared set (L2 hits), streams (DRAM), stores of a
   word and of a whole line, atomics, instruction fetches. */
static void workload(struct gpu *g, uint64_t seed, unsigned per_sm, unsigned gap)
{
    uint64_t s = seed;
    for (unsigned i = 0; i < g->nsm; i++) {
        uint64_t t = rnd(&s) % 50, stream = 0x10000000ull + (uint64_t)i * 0x1000000;
        for (unsigned k = 0; k < per_sm; k++) {
            unsigned p = (unsigned)(rnd(&s) % 100);
            uint64_t addr;
            uint8_t kind = MK_LOAD;
            uint32_t bytes = 4;
            if (p < 35)
                addr = 0x1000000ull + i * 0x10000 + (rnd(&s) % 16) * 128;
            else if (p < 60)
                addr = 0x2000000ull + (rnd(&s) % 2048) * 128;
            else
                addr = stream += 128;
            p = (unsigned)(rnd(&s) % 100);
            if (p < 15)
                kind = MK_STORE, bytes = (p & 1) ? 128 : 4;
            else if (p < 18)
                kind = MK_ATOMIC;
            else if (p < 20)
                kind = MK_IFETCH;
            gpu_add(g, i, t, kind, addr, bytes);
            t += gap ? rnd(&s) % gap : 0;
        }
    }
}

static int same_stats(const struct gpu *a, const struct gpu *b)
{
    if (memcmp(msys_stats(a->ms), msys_stats(b->ms), sizeof(struct msys_stats)))
        return 0;
    for (unsigned i = 0; i < a->nsm; i++)
        if (memcmp(&a->sm[i].st, &b->sm[i].st, sizeof a->sm[i].st))
            return 0;
    if (a->nlog != b->nlog)
        return 0;
    for (size_t i = 0; i < a->nlog; i++)
        if (a->log[i].t != b->log[i].t || a->log[i].sm != b->log[i].sm ||
            a->log[i].tag != b->log[i].tag)
            return 0;
    return 1;
}

static void test_skip_equivalence(void **st)
{
    unsigned gaps[3] = {0, 40, 400};
    (void)st;
    for (unsigned k = 0; k < 3; k++) {
        struct gpu *a = gpu_new(15, NULL), *b = gpu_new(15, NULL);
        uint64_t ca, cb;
        workload(a, 7 + k, 300, gaps[k]);
        workload(b, 7 + k, 300, gaps[k]);
        a->array_api = 1;                         /* and the two SM-side forms agree */
        ca = gpu_run(a, 0, 50000000);
        cb = gpu_run(b, 1, 50000000);
        assert_int_equal(ca, cb);
        assert_true(same_stats(a, b));
        assert_true(msys_stats(a->ms)->l2_hit > 0 && msys_stats(a->ms)->dram_rd[0] > 0);
        assert_int_equal(msys_stats(a->ms)->bad, 0);
        assert_true(b->visited < a->visited);
        print_message("gap %u: %llu cycles, %zu responses; skipping visited %llu cycles "
                      "(%.1f%%)\n", gaps[k], (unsigned long long)ca, a->nlog,
                      (unsigned long long)b->visited, 100.0 * b->visited / a->visited);
        gpu_free(a);
        gpu_free(b);
    }
}

static void test_all_loads_answered(void **st)
{
    struct gpu *g = gpu_new(15, NULL);
    size_t expect = 0;
    (void)st;
    workload(g, 99, 400, 5);
    for (unsigned i = 0; i < g->nsm; i++)
        for (unsigned k = 0; k < g->sm[i].n; k++)
            expect += g->sm[i].reqs[k].kind != MK_STORE;
    gpu_run(g, 1, 50000000);
    assert_int_equal(g->nlog, expect);
    assert_int_equal(msys_stats(g->ms)->bad, 0);
    gpu_free(g);
}

static void test_determinism(void **st)
{
    struct gpu *a = gpu_new(15, NULL), *b = gpu_new(15, NULL);
    (void)st;
    workload(a, 1234, 500, 3);
    workload(b, 1234, 500, 3);
    assert_int_equal(gpu_run(a, 1, 50000000), gpu_run(b, 1, 50000000));
    assert_true(same_stats(a, b));
    gpu_free(a);
    gpu_free(b);
}

static void test_bad_config(void **st)
{
    struct msys_cfg c;
    char err[256];
    (void)st;
    msys_cfg_default(&c, 15);
    c.n_chan = 0;
    assert_null(msys_init(&c, err, sizeof err));
    assert_non_null(strstr(err, "n_chan"));
    msys_cfg_default(&c, 15);
    c.l2.nsets = 100;
    assert_null(msys_init(&c, err, sizeof err));
    assert_non_null(strstr(err, "l2: nsets"));
    msys_cfg_default(&c, 15);
    c.dram.tRCD = 0;
    assert_null(msys_init(&c, err, sizeof err));
    assert_non_null(strstr(err, "tRCD"));
    msys_cfg_default(&c, 65);
    assert_null(msys_init(&c, err, sizeof err));
    assert_non_null(strstr(err, "n_sm"));
}

/* A malformed packet (a kind no block knows) stops the run: msys_error names the block, its
   instance and the cycle; a well-formed one leaves no error. */
static void test_bad_event_is_an_error(void **st)
{
    struct msys_cfg c;
    struct msys_port port;
    struct msys *ms;
    char err[256];
    (void)st;
    msys_cfg_default(&c, 15);
    ms = msys_init(&c, err, sizeof err);
    assert_non_null(ms);
    for (int bad = 0; bad < 2; bad++) {
        memset(&port, 0, sizeof port);
        port.req_valid = 1;
        port.req[0] = (struct mem_req){ .addr = 0x1000 + 128 * (uint64_t)bad, .bytes = 4,
                                        .kind = bad ? 13 : MK_LOAD };
        for (uint64_t t = 1000 * (uint64_t)bad; t < 1000 * (uint64_t)bad + 600; t++) {
            msys_tick_port(ms, t, &port);
            port.req_valid = 0;
        }
        if (!bad)
            assert_null(msys_error(ms));
    }
    assert_non_null(msys_error(ms));
    assert_non_null(strstr(msys_error(ms), "block l2 (instance "));
    assert_non_null(strstr(msys_error(ms), "malformed packet"));
    assert_non_null(strstr(msys_error(ms), "memory system cycle 11"));   /* 1130: at L2 */
    msys_free(ms);
}

/* Host time per cycle with the memory system loaded (every SM streaming misses). */
static void test_speed(void **st)
{
    const unsigned gaps[3] = {2, 20, 200};     /* saturated, busy, light */
    (void)st;
    for (unsigned k = 0; k < 3; k++) {
        struct gpu *g = gpu_new(15, NULL);
        const struct msys_stats *s;
        double t0, t1;
        uint64_t cycles, rd = 0;
        workload(g, 5, gaps[k] < 100 ? 6000 : 600, gaps[k]);
        g->timed = 1;
        g->array_api = 1;
        t0 = secs();
        cycles = gpu_run(g, 0, 50000000);
        t1 = secs();
        s = msys_stats(g->ms);
        for (unsigned ch = 0; ch < 6; ch++)
            rd += s->dram_rd[ch];
        print_message("speed, gap %3u: %6llu cycles (memory system busy in %6llu): %5.0f ns "
                      "per cycle in all (15 L1s, harness, clock reads), %5.0f ns in msys_tick; "
                      "%.2f DRAM reads/cycle, bus util ch0 %.2f, L2 hit rate %.2f\n", gaps[k],
                      (unsigned long long)cycles, (unsigned long long)g->busy_cycles,
                      (t1 - t0) * 1e9 / (double)cycles, g->msys_secs * 1e9 / (double)cycles,
                      (double)rd / (double)cycles, msys_dram_util(s, 0, cycles),
                      (double)s->l2_hit / (double)(s->l2_access ? s->l2_access : 1));
        assert_true((t1 - t0) * 1e9 / (double)cycles < 20000.0);   /* gross-regression guard */
        gpu_free(g);
    }
}

static void test_idle_is_free(void **st)
{
    struct gpu *g = gpu_new(15, NULL);
    (void)st;
    assert_false(msys_busy(g->ms));
    assert_true(msys_next_event(g->ms, 0) == UINT64_MAX);
    gpu_add(g, 3, 1000000, MK_LOAD, 0x777780, 4);
    assert_true(gpu_run(g, 1, 50000000) > 1000000);
    assert_true(g->visited < 400);                /* a million idle cycles skipped */
    assert_false(msys_busy(g->ms));
    gpu_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latencies),
        cmocka_unit_test(test_skip_equivalence),
        cmocka_unit_test(test_all_loads_answered),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_bad_event_is_an_error),
        cmocka_unit_test(test_idle_is_free),
        cmocka_unit_test(test_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
