/*
 * dram.c -- one DRAM channel: FR-FCFS controller and GDDR5 bank timing (see dram.h,
 * docs/dram.md).
 *
 * Per cycle, in this order (d == q on entry; decisions read q):
 *   1. the oldest in-flight read whose data has finished returns to its slice;
 *   2. the scheduler (only from cycle t_wake on, see below) issues at most one command;
 *   3. the latency-FIFO head, once front_latency has elapsed, enters the scheduler queue
 *      (its port gets its credit back);
 *   4. this cycle's requests enter the latency FIFO.
 * t_wake is the earliest cycle any command can be legal (each bank's candidate command and the
 * channel's constraints), recomputed after every command and lowered when a request enters
 * the queue; the scheduler runs only from then on. It is what lets eval return at once (and
 * the GPU skip cycles) while banks wait on their timers. Tick-by-tick and skipping runs both
 * obey it, so they agree exactly.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "dram.h"
#include "base/cost.h"


uint32_t dram_to_core(uint32_t dram_cycles, uint32_t dram_mhz, uint32_t core_mhz)
{
    uint64_t num = (uint64_t)dram_cycles * core_mhz;
    return (uint32_t)((num + dram_mhz - 1) / dram_mhz);
}

void dram_cfg_default(struct dram_cfg *c)
{
    const uint32_t dmhz = 924, cmhz = 700;       /* -gpgpu_clock_domains 700:700:700:924 */
    c->n_ports = 2;                              /* -gpgpu_n_sub_partition_per_mchannel 2 */
    c->line_div = 12;
    c->nbk = 16;                                 /* nbk=16 */
    c->lines_per_row = 32;                       /* 2 x32 chips x 2 KB page = 4 KB */
    c->tRCD = dram_to_core(12, dmhz, cmhz);      /* RCD=12 -> 10 */
    c->tRP = dram_to_core(12, dmhz, cmhz);       /* RP=12  -> 10 */
    c->tRAS = dram_to_core(28, dmhz, cmhz);      /* RAS=28 -> 22 */
    c->tRC = dram_to_core(40, dmhz, cmhz);       /* RC=40  -> 31 */
    c->tRRD = dram_to_core(6, dmhz, cmhz);       /* RRD=6  -> 5 */
    c->tCCD = dram_to_core(2, dmhz, cmhz);       /* CCD=2  -> 2 */
    c->tCL = dram_to_core(12, dmhz, cmhz);       /* CL=12  -> 10 */
    c->tWL = dram_to_core(4, dmhz, cmhz);        /* WL=4   -> 4 */
    c->tWR = dram_to_core(12, dmhz, cmhz);       /* WR=12  -> 10 */
    c->tRTP = dram_to_core(2, dmhz, cmhz);       /* RTPL=2 -> 2 */
    c->tRTW = dram_to_core(12 + 2 + 2 - 4, dmhz, cmhz); /* CL + BL/4 + 2 - WL = 12 -> 10 */
    c->tCDLR = dram_to_core(5, dmhz, cmhz);      /* CDLR=5 -> 4 */
    c->tick_per_cycle = dmhz;
    /* a line = 128 B / (4 B x 2 chips x 4 beats per command clock) = 4 command clocks */
    c->line_ticks = 4 * cmhz;
    c->queue_size = 32;
    c->front_latency = 100;                      /* -dram_latency 100 */
    c->latq_size = 128;
}

static int range(const char *name, uint32_t v, uint32_t lo, uint32_t hi, char *err, size_t n)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(err, n, "dram: %s = %u out of range %u..%u", name, v, lo, hi);
    return -1;
}

static int pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

int dram_cfg_check(const struct dram_cfg *c, char *err, size_t errlen)
{
    const uint32_t t[] = {c->tRCD, c->tRP, c->tRAS, c->tRC, c->tRRD, c->tCCD,
                          c->tCL, c->tWL, c->tWR, c->tRTP, c->tRTW, c->tCDLR};
    const char *tn[] = {"tRCD", "tRP", "tRAS", "tRC", "tRRD", "tCCD",
                        "tCL", "tWL", "tWR", "tRTP", "tRTW", "tCDLR"};
    if (range("n_ports", c->n_ports, 1, DRAM_MAX_PORTS, err, errlen) ||
        range("line_div", c->line_div, 1, 4096, err, errlen) ||
        range("nbk", c->nbk, 2, DRAM_MAX_BANKS, err, errlen) ||
        range("lines_per_row", c->lines_per_row, 4, 1u << 16, err, errlen) ||
        range("tick_per_cycle", c->tick_per_cycle, 1, 1000000, err, errlen) ||
        range("line_ticks", c->line_ticks, 1, 100000000, err, errlen) ||
        range("queue_size", c->queue_size, 1, DRAM_MAX_Q, err, errlen) ||
        range("front_latency", c->front_latency, 0, 10000, err, errlen) ||
        range("latq_size", c->latq_size, c->n_ports, DRAM_MAX_LATQ, err, errlen))
        return -1;
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (range(tn[i], t[i], i < 6 ? 1 : 0, 10000, err, errlen))
            return -1;
    if (!pow2(c->nbk) || !pow2(c->lines_per_row)) {
        snprintf(err, errlen, "dram: nbk (%u) and lines_per_row (%u) must be powers of two",
                 c->nbk, c->lines_per_row);
        return -1;
    }
    return 0;
}

void dram_reset(const struct dram_cfg *c, struct dram_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
    for (unsigned b = 0; b < DRAM_MAX_BANKS; b++)
        r->bank[b].old = r->bank[b].hit_rd = r->bank[b].hit_wr = DRAM_NONE;
}

void dram_map(const struct dram_cfg *c, uint64_t addr, unsigned port, uint32_t *bank,
              uint32_t *row)
{
    uint64_t cl = ((addr >> MEM_LINE_SHIFT) / c->line_div) * c->n_ports + port;
    unsigned lb = (unsigned)__builtin_ctz(c->lines_per_row);
    unsigned bb = (unsigned)__builtin_ctz(c->nbk);
    *bank = (uint32_t)(((cl >> 1) & 1) | (((cl >> (lb + 1)) & ((c->nbk >> 1) - 1)) << 1));
    *row = (uint32_t)(cl >> (lb + bb));
}

/* ---- helpers ---- */

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static int older(const struct dram_ent *a, const struct dram_ent *b)
{
    return (int32_t)(a->seq - b->seq) < 0;
}

static void log_bank(struct dram_regs *d, unsigned b)
{
    for (unsigned i = 0; i < d->c.wl_nbank; i++)
        if (d->c.wl_bank[i] == b)
            return;
    d->c.wl_bank[d->c.wl_nbank++] = (uint8_t)b;
}

static void log_ent(struct dram_regs *d, unsigned e)
{
    for (unsigned i = 0; i < d->c.wl_nent; i++)
        if (d->c.wl_ent[i] == e)
            return;
    d->c.wl_ent[d->c.wl_nent++] = (uint8_t)e;
}

/* Recompute bank b's candidates from its queued entries (in d). */
static void bank_rescan(struct dram_regs *d, unsigned b)
{
    struct dram_bank *B = &d->bank[b];
    int old = -1, hr = -1, hw = -1;
    for (uint64_t m = B->mask; m; m &= m - 1) {
        int e = __builtin_ctzll(m);
        const struct dram_ent *E = &d->q[e];
        if (old < 0 || older(E, &d->q[old]))
            old = e;
        if (B->open && E->row == B->row) {
            int *h = E->wr ? &hw : &hr;
            if (*h < 0 || older(E, &d->q[*h]))
                *h = e;
        }
    }
    B->old = old < 0 ? DRAM_NONE : (uint8_t)old;
    B->hit_rd = hr < 0 ? DRAM_NONE : (uint8_t)hr;
    B->hit_wr = hw < 0 ? DRAM_NONE : (uint8_t)hw;
}

/* ---- commands ---- */

static void column(const struct dram_cfg *c, const struct dram_regs *q, unsigned e,
                   uint64_t now, struct dram_out *o, struct dram_regs *d)
{
    const struct dram_ent *E = &q->q[e];
    struct dram_bank *B = &d->bank[E->bank];
    uint64_t tpc = c->tick_per_cycle, s, end, done;

    s = max64((now + (E->wr ? c->tWL : c->tCL)) * tpc, q->c.bus_free);
    end = s + c->line_ticks;
    done = (end + tpc - 1) / tpc;
    d->c.bus_free = end;
    if (E->wr) {
        B->t_pre_ok = max64(B->t_pre_ok, done + c->tWR);
        d->c.t_rd_ok = max64(q->c.t_rd_ok, done + c->tCDLR);
        o->ev_wr = 1;
    } else {
        struct dram_ret *r = &d->retq[d->c.retq.wr];
        r->t_done = done;
        r->req = E->req;
        r->port = E->port;
        cache_fifo_push(&d->c.retq, DRAM_MAX_RETQ);
        B->t_pre_ok = max64(B->t_pre_ok, now + c->tRTP);
        d->c.t_wr_ok = max64(q->c.t_wr_ok, now + c->tRTW);
        o->ev_rd = 1;
    }
    d->c.t_col_any = now + c->tCCD;
    o->ev_row_hit = !E->act;
    o->ev_row_miss = E->act;
    o->ev_bytes = MEM_LINE_BYTES;
    o->ev_bus_ticks = c->line_ticks;
    d->c.valid &= ~(1ull << e);
    B->mask &= ~(1ull << e);
    if (!B->mask)
        d->c.bank_ne &= ~(1u << E->bank);
    d->c.cnt--;
    if (e == B->old || e == B->hit_rd || e == B->hit_wr)
        bank_rescan(d, E->bank);
    log_bank(d, E->bank);
}

static void activate(const struct dram_cfg *c, const struct dram_regs *q, unsigned e,
                     uint64_t now, struct dram_out *o, struct dram_regs *d)
{
    unsigned b = q->q[e].bank;
    struct dram_bank *B = &d->bank[b];
    B->open = 1;
    B->row = q->q[e].row;
    B->t_col_ok = now + c->tRCD;
    B->t_pre_ok = now + c->tRAS;
    B->t_act_ok = now + c->tRC;
    d->c.t_act_any = now + c->tRRD;
    d->q[e].act = 1;
    bank_rescan(d, b);
    log_ent(d, e);
    log_bank(d, b);
    o->ev_act = 1;
}

static void precharge(const struct dram_cfg *c, unsigned b, uint64_t now, struct dram_out *o,
                      struct dram_regs *d)
{
    struct dram_bank *B = &d->bank[b];
    B->open = 0;
    B->hit_rd = B->hit_wr = DRAM_NONE;
    B->t_act_ok = max64(B->t_act_ok, now + c->tRP);
    log_bank(d, b);
    o->ev_pre = 1;
}

/* ---- scheduler ---- */

struct pick {
    int hit;                       /* entry: oldest legal row hit */
    int other;                     /* entry: oldest request whose bank can ACT/PRE now */
    uint64_t t_min;                /* earliest time any not-yet-legal command becomes legal */
};

static void consider_hit(const struct dram_regs *q, int e, uint64_t t, uint64_t now,
                         struct pick *p)
{
    if (t > now) {
        if (t < p->t_min)
            p->t_min = t;
    } else if (p->hit < 0 || older(&q->q[e], &q->q[p->hit])) {
        p->hit = e;
    }
}

static void scan_bank(const struct dram_regs *q, unsigned b, uint64_t t_rd, uint64_t t_wr,
                      uint64_t now, struct pick *p)
{
    const struct dram_bank *B = &q->bank[b];
    uint64_t t;
    if (B->hit_rd != DRAM_NONE || B->hit_wr != DRAM_NONE) {
        if (B->hit_rd != DRAM_NONE)
            consider_hit(q, B->hit_rd, max64(B->t_col_ok, t_rd), now, p);
        if (B->hit_wr != DRAM_NONE)
            consider_hit(q, B->hit_wr, max64(B->t_col_ok, t_wr), now, p);
        return;
    }
    t = B->open ? B->t_pre_ok : max64(B->t_act_ok, q->c.t_act_any);
    if (t > now) {
        if (t < p->t_min)
            p->t_min = t;
    } else if (p->other < 0 || older(&q->q[B->old], &q->q[p->other])) {
        p->other = B->old;
    }
}

/* Earliest cycles a column read / write may issue, as far as the channel is concerned
   (tCCD, turnarounds, the data bus, room to return a read). */
static void col_times(const struct dram_cfg *c, const struct dram_regs *r, uint64_t *t_rd,
                      uint64_t *t_wr)
{
    uint64_t busc = r->c.bus_free / c->tick_per_cycle;
    *t_rd = max64(max64(r->c.t_col_any, r->c.t_rd_ok), busc > c->tCL ? busc - c->tCL : 0);
    *t_wr = max64(max64(r->c.t_col_any, r->c.t_wr_ok), busc > c->tWL ? busc - c->tWL : 0);
    if (r->c.retq.cnt >= DRAM_MAX_RETQ)              /* no room for another read's return */
        *t_rd = max64(*t_rd, r->retq[r->c.retq.rd].t_done + 1);
}

/* Earliest cycle bank b's next command (a row hit's column, else PRE or ACT) is legal. */
static uint64_t bank_time(const struct dram_regs *r, unsigned b, uint64_t t_rd, uint64_t t_wr)
{
    const struct dram_bank *B = &r->bank[b];
    uint64_t t = UINT64_MAX;
    if (B->hit_rd != DRAM_NONE)
        t = max64(B->t_col_ok, t_rd);
    if (B->hit_wr != DRAM_NONE) {
        uint64_t w = max64(B->t_col_ok, t_wr);
        t = w < t ? w : t;
    }
    if (t != UINT64_MAX)
        return t;
    return B->open ? B->t_pre_ok : max64(B->t_act_ok, r->c.t_act_any);
}

/* Lower bound of the next cycle (> now) any command can issue, from state r. */
static uint64_t wake_time(const struct dram_cfg *c, const struct dram_regs *r, uint64_t now)
{
    uint64_t t_rd, t_wr, t = UINT64_MAX;
    col_times(c, r, &t_rd, &t_wr);
    for (uint32_t m = r->c.bank_ne; m; m &= m - 1) {
        uint64_t b = bank_time(r, (unsigned)__builtin_ctz(m), t_rd, t_wr);
        t = b < t ? b : t;
    }
    return t == UINT64_MAX ? t : max64(t, now + 1);
}

static void schedule(const struct dram_cfg *c, const struct dram_regs *q, uint64_t now,
                     struct dram_out *o, struct dram_regs *d)
{
    uint64_t t_rd, t_wr;
    struct pick p = {-1, -1, UINT64_MAX};

    col_times(c, q, &t_rd, &t_wr);
    for (uint32_t m = q->c.bank_ne; m; m &= m - 1)
        scan_bank(q, (unsigned)__builtin_ctz(m), t_rd, t_wr, now, &p);
    if (p.hit >= 0) {
        column(c, q, (unsigned)p.hit, now, o, d);
    } else if (p.other >= 0) {
        unsigned b = q->q[p.other].bank;
        if (q->bank[b].open)
            precharge(c, b, now, o, d);
        else
            activate(c, q, (unsigned)p.other, now, o, d);
    } else {
        d->c.t_wake = p.t_min;                       /* > now: nothing legal before it */
        return;
    }
    d->c.t_wake = wake_time(c, d, now);
}

/* ---- queues ---- */

static void enqueue(const struct dram_cfg *c, const struct dram_regs *q, uint64_t now,
                    struct dram_out *o, struct dram_regs *d)
{
    const struct dram_lat *L = &q->latq[q->c.latq.rd];
    unsigned e = (unsigned)__builtin_ctzll(~d->c.valid);
    struct dram_ent *E = &d->q[e];
    uint32_t bank, row;

    dram_map(c, L->req.addr, L->port, &bank, &row);
    E->req = L->req;
    E->row = row;
    E->seq = d->c.seq++;
    E->bank = (uint8_t)bank;
    E->port = L->port;
    E->wr = L->req.kind == MK_STORE || L->req.kind == MK_SPILL;
    E->act = 0;
    d->c.valid |= 1ull << e;
    d->bank[bank].mask |= 1ull << e;
    {
        struct dram_bank *B = &d->bank[bank];        /* the youngest: a candidate only if */
        if (B->old == DRAM_NONE)                     /* there was none */
            B->old = (uint8_t)e;
        if (B->open && B->row == row) {
            uint8_t *h = E->wr ? &B->hit_wr : &B->hit_rd;
            if (*h == DRAM_NONE)
                *h = (uint8_t)e;
        }
    }
    d->c.bank_ne |= 1u << bank;
    d->c.cnt++;
    log_ent(d, e);
    log_bank(d, bank);
    cache_fifo_pop(&d->c.latq, DRAM_MAX_LATQ);
    o->credit |= (uint8_t)(1u << L->port);
    {
        uint64_t t_rd, t_wr, t;                      /* the new entry may be legal sooner */
        col_times(c, d, &t_rd, &t_wr);
        t = max64(bank_time(d, bank, t_rd, t_wr), now + 1);
        if (t < d->c.t_wake)
            d->c.t_wake = t;
    }
}

static void accept(const struct dram_cfg *c, const struct dram_in *in, struct dram_out *o,
                   struct dram_regs *d)
{
    for (unsigned p = 0; p < c->n_ports; p++) {
        struct dram_lat *L;
        if (!in->req_valid[p])
            continue;
        if (d->c.latq.cnt >= c->latq_size) {
            o->ev_bad = 1;
            continue;
        }
        L = &d->latq[d->c.latq.wr];
        L->t_ready = in->now + c->front_latency;
        L->req = in->req[p];
        L->port = (uint8_t)p;
        cache_fifo_push(&d->c.latq, DRAM_MAX_LATQ);
    }
}

void dram_eval(const struct dram_cfg *c, const struct dram_regs *q, const struct dram_in *in,
               struct dram_out *out, struct dram_regs *d)
{
    uint64_t now = in->now;
    memset(out, 0, offsetof(struct dram_out, ret));   /* flags and events */
    d->c.wl_nbank = 0;
    d->c.wl_nent = 0;
    if (q->c.retq.cnt && q->retq[q->c.retq.rd].t_done <= now) {
        const struct dram_ret *r = &q->retq[q->c.retq.rd];
        out->ret_valid = 1;
        out->ret_port = r->port;
        out->ret = r->req;
        cache_fifo_pop(&d->c.retq, DRAM_MAX_RETQ);
    }
    if (q->c.cnt && now >= q->c.t_wake)
        schedule(c, q, now, out, d);
    if (q->c.latq.cnt && q->latq[q->c.latq.rd].t_ready <= now && d->c.cnt < c->queue_size)
        enqueue(c, q, now, out, d);
    accept(c, in, out, d);
}

void dram_commit(const struct dram_cfg *c, struct dram_regs *q, const struct dram_regs *d)
{
    struct dram_ctrl old = q->c;
    (void)c;
    q->c = d->c;
    for (unsigned i = 0; i < d->c.wl_nbank; i++)
        q->bank[d->c.wl_bank[i]] = d->bank[d->c.wl_bank[i]];
    for (unsigned i = 0; i < d->c.wl_nent; i++)
        q->q[d->c.wl_ent[i]] = d->q[d->c.wl_ent[i]];
    CACHE_COPY_PUSHED(q->latq, d->latq, old.latq.wr, d->c.latq.wr, DRAM_MAX_LATQ);
    CACHE_COPY_PUSHED(q->retq, d->retq, old.retq.wr, d->c.retq.wr, DRAM_MAX_RETQ);
}

int dram_busy(const struct dram_regs *q)
{
    return q->c.cnt || q->c.latq.cnt || q->c.retq.cnt;
}

uint64_t dram_next_event(const struct dram_cfg *c, const struct dram_regs *q, uint64_t now)
{
    uint64_t t = UINT64_MAX;
    if (q->c.retq.cnt)
        t = max64(q->retq[q->c.retq.rd].t_done, now + 1);
    if (q->c.latq.cnt) {
        uint64_t r = q->latq[q->c.latq.rd].t_ready;
        if (r > now) {
            if (r < t)
                t = r;
        } else if (q->c.cnt < c->queue_size) {
            return now + 1;
        }                               /* else: waits for a slot, freed by a command */
    }
    if (q->c.cnt) {
        uint64_t w = max64(q->c.t_wake, now + 1);
        if (w < t)
            t = w;
    }
    return t;
}

/* Storage for the cost estimator (cost.h), one channel: the scheduler queue (read in parallel
   by the FR-FCFS pick), per-bank state and timing stamps, the latency and return FIFOs, the
   channel-wide timing stamps and counters. Time is kept as the model's absolute 64-bit cycle
   stamps. The write log is bookkeeping, not hardware. */
void dram_storage(const struct dram_cfg *c, struct cost_list *l)
{
    const char *sq = "DRAM scheduler queue", *bk = "DRAM bank state", *fi = "DRAM FIFOs";
    uint32_t m = cost_memreq_bits();
    cost_begin(l, "dram");
    cost_add(l, (struct cost_item){.name = "q.req", .mech = sq, .entries = c->queue_size,
                                   .bits = m, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "q.ctl", .mech = sq, .entries = c->queue_size,
                                   .bits = 32 + 32 + 5 + 2 + 1 + 1, .rports = COST_PAR,
                                   .onchip = 1, .note = "row, seq, bank, port, wr, act"});
    cost_add(l, (struct cost_item){.name = "valid", .mech = sq, .entries = 1,
                                   .bits = c->queue_size, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "sq_ctl", .mech = sq, .entries = 1, .bits = 32 + 7,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "seq [31:0], cnt [6:0]"});
    cost_add(l, (struct cost_item){.name = "bank.t", .mech = bk, .entries = c->nbk,
                                   .bits = 3 * 64, .rports = COST_PAR, .onchip = 1,
                                   .note = "t_act_ok, t_col_ok, t_pre_ok"});
    cost_add(l, (struct cost_item){.name = "bank.mask", .mech = bk, .entries = c->nbk,
                                   .bits = c->queue_size, .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "bank.row", .mech = bk, .entries = c->nbk,
                                   .bits = 32 + 1 + 6 + 6 + 6, .rports = COST_PAR, .onchip = 1,
                                   .note = "row, open, old, hit_rd, hit_wr"});
    cost_add(l, (struct cost_item){.name = "bank_ne", .mech = bk, .entries = 1, .bits = c->nbk,
                                   .rports = COST_PAR, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "chan_t", .mech = bk, .entries = 1, .bits = 6 * 64,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "t_act_any t_col_any t_rd_ok t_wr_ok bus_free t_wake"});
    cost_add(l, (struct cost_item){.name = "latq", .mech = fi, .entries = c->latq_size,
                                   .bits = 64 + m + 2, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "t_ready, mem_req, port"});
    cost_add(l, (struct cost_item){.name = "retq", .mech = fi, .entries = DRAM_MAX_RETQ,
                                   .bits = 64 + m + 2, .rports = 1, .wports = 1, .onchip = 1,
                                   .note = "t_done, mem_req, port"});
    cost_add(l, (struct cost_item){.name = "fifo_ptrs", .mech = fi, .entries = 1,
                                   .bits = cost_fifo_bits(c->latq_size) +
                                           cost_fifo_bits(DRAM_MAX_RETQ),
                                   .rports = COST_PAR, .onchip = 1, .note = "rd, wr, cnt"});
}
