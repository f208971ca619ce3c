/*
 * icnt.c -- SM <-> L2 crossbars (see icnt.h, docs/memsys.md).
 *
 * Per cycle and per direction, in this order (d == q on entry):
 *   1. returned credits are added to the outputs' counters;
 *   2. every output whose head packet has arrived (and, towards a slice, holds a credit)
 *      delivers it;
 *   3. every output picks, round robin, one input whose head packet (from q) wants it and
 *      whose input is not busy sending an earlier packet's flits, if the output has a free
 *      slot and is not busy receiving flits; the winner moves into the output FIFO;
 *   4. this cycle's new packets enter the input FIFOs (granted next cycle at the earliest).
 */
#include <stdio.h>
#include <string.h>
#include "icnt.h"
#include "base/cost.h"

void icnt_cfg_default(struct icnt_cfg *c)
{
    c->n_sm = 15;
    c->n_slice = 12;
    c->latency = 8;
    c->flit_bytes = 32;
    c->inq_size = 8;
    c->outq_size = 16;
    c->l2_credits = 128;
}

static int range(const char *name, uint32_t v, uint32_t lo, uint32_t hi, char *err, size_t n)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(err, n, "icnt: %s = %u out of range %u..%u", name, v, lo, hi);
    return -1;
}

int icnt_cfg_check(const struct icnt_cfg *c, char *err, size_t errlen)
{
    if (range("n_sm", c->n_sm, 1, ICNT_MAX_PORTS, err, errlen) ||
        range("n_slice", c->n_slice, 1, ICNT_MAX_PORTS, err, errlen) ||
        range("latency", c->latency, 1, 1000, err, errlen) ||
        range("inq_size", c->inq_size, 2, ICNT_MAX_INQ, err, errlen) ||
        range("outq_size", c->outq_size, 1, ICNT_MAX_OUTQ, err, errlen) ||
        range("l2_credits", c->l2_credits, 1, 4096, err, errlen))
        return -1;
    if (c->flit_bytes != 0 && (c->flit_bytes < 8 || c->flit_bytes > 4096)) {
        snprintf(err, errlen, "icnt: flit_bytes = %u must be 0 (one flit per packet) or 8..4096",
                 c->flit_bytes);
        return -1;
    }
    return 0;
}

void icnt_reset(const struct icnt_cfg *c, struct icnt_regs *r)
{
    memset(r, 0, sizeof *r);
    for (unsigned s = 0; s < ICNT_MAX_PORTS; s++)
        r->req.op[s].credit = (uint16_t)c->l2_credits;
}

uint32_t icnt_slice_of(const struct icnt_cfg *c, uint64_t addr)
{
    uint64_t line = addr >> 7, x = line >> 2;
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    return (uint32_t)((line ^ (x & 3)) % c->n_slice);
}

uint32_t icnt_flits(const struct icnt_cfg *c, const struct mem_req *r, int response)
{
    uint32_t data = 0, part = r->bytes < MEM_LINE_BYTES ? r->bytes : MEM_LINE_BYTES;
    if (!c->flit_bytes)
        return 1;
    if (response) {
        if (r->kind == MK_LOAD || r->kind == MK_FILL || r->kind == MK_IFETCH)
            data = MEM_LINE_BYTES;
        else if (r->kind == MK_ATOMIC)
            data = part;
    } else if (r->kind == MK_STORE || r->kind == MK_SPILL || r->kind == MK_ATOMIC) {
        data = part;
    }
    return (ICNT_HDR_BYTES + data + c->flit_bytes - 1) / c->flit_bytes;
}

uint64_t icnt_sm_ready(const struct icnt_cfg *c, const struct icnt_regs *q)
{
    uint64_t ports = c->n_sm >= 64 ? ~0ull : (1ull << c->n_sm) - 1;
    return ports & ~q->req.in_full;
}

int icnt_busy(const struct icnt_regs *q)
{
    return (q->req.in_ne | q->req.out_ne | q->resp.in_ne | q->resp.out_ne) != 0;
}

/* What differs between the two directions. */
struct dir_io {
    unsigned ns, nd;               /* input and output ports */
    int response;                  /* response direction: route by mem_req.sm, no credits */
    uint64_t in_valid, credit_in;
    const struct mem_req *in_pkt;
    uint64_t *out_valid, *src_pop;
    struct mem_req *out_pkt;
    uint32_t *ev_pkts, *ev_flits, *ev_bad;
};

#define BIT(i) (1ull << (i))
#define CTZ(m) ((unsigned)__builtin_ctzll(m))

static void deliver(const struct icnt_dir *q, struct icnt_dir *d, uint64_t now,
                    const struct dir_io *io)
{
    for (uint64_t m = q->out_ne; m; m &= m - 1) {
        unsigned o = CTZ(m);
        const struct icnt_pkt *h = &q->oq[o][q->op[o].f.rd];
        struct icnt_oport *dp = &d->op[o];
        if (h->t_arrive > now)
            continue;
        if (!io->response) {
            if (!dp->credit)
                continue;
            dp->credit--;
        }
        *io->out_valid |= BIT(o);
        io->out_pkt[o] = h->req;
        dp->f.rd = (uint8_t)((dp->f.rd + 1) & (ICNT_MAX_OUTQ - 1));
        if (!--dp->f.cnt)
            d->out_ne &= ~BIT(o);
        d->wl_out |= BIT(o);
    }
}

static void grant(const struct icnt_cfg *c, const struct icnt_dir *q, struct icnt_dir *d,
                  uint64_t now, unsigned i, unsigned o, const struct dir_io *io)
{
    const struct icnt_pkt *h = &q->iq[i][q->ip[i].f.rd];
    struct icnt_iport *di = &d->ip[i];
    struct icnt_oport *dp = &d->op[o];
    struct icnt_pkt *np = &d->oq[o][dp->f.wr];

    di->f.rd = (uint8_t)((di->f.rd + 1) & (ICNT_MAX_INQ - 1));
    if (!--di->f.cnt)
        d->in_ne &= ~BIT(i);
    d->in_full &= ~BIT(i);
    di->t_free = now + h->flits;
    d->wl_in |= BIT(i);

    *np = *h;
    np->t_arrive = now + c->latency + h->flits - 1;
    dp->f.wr = (uint8_t)((dp->f.wr + 1) & (ICNT_MAX_OUTQ - 1));
    dp->f.cnt++;
    dp->t_free = now + h->flits;
    dp->rr = (uint8_t)(i + 1 >= io->ns ? 0 : i + 1);
    d->out_ne |= BIT(o);
    d->wl_out |= BIT(o);

    *io->src_pop |= BIT(i);
    (*io->ev_pkts)++;
    *io->ev_flits += h->flits;
}

static void arbitrate(const struct icnt_cfg *c, const struct icnt_dir *q, struct icnt_dir *d,
                      uint64_t now, const struct dir_io *io)
{
    uint64_t want[ICNT_MAX_PORTS], dmask = 0;
    for (uint64_t m = q->in_ne; m; m &= m - 1) {
        unsigned i = CTZ(m), o;
        if (q->ip[i].t_free > now)
            continue;
        o = q->iq[i][q->ip[i].f.rd].dst;
        if (!(dmask & BIT(o))) {
            dmask |= BIT(o);
            want[o] = 0;
        }
        want[o] |= BIT(i);
    }
    for (uint64_t m = dmask; m; m &= m - 1) {
        unsigned o = CTZ(m), rr = q->op[o].rr;
        uint64_t w = want[o], hi = w & (~0ull << rr);
        if (d->op[o].f.cnt >= c->outq_size || q->op[o].t_free > now)
            continue;
        grant(c, q, d, now, CTZ(hi ? hi : w), o, io);
    }
}

static void inject(const struct icnt_cfg *c, struct icnt_dir *d, const struct dir_io *io)
{
    for (uint64_t m = io->in_valid; m; m &= m - 1) {
        unsigned i = CTZ(m), o;
        struct icnt_iport *di = &d->ip[i];
        struct icnt_pkt *p;
        struct mem_req r;
        if (i >= io->ns || di->f.cnt >= c->inq_size) {
            (*io->ev_bad)++;
            continue;
        }
        r = io->in_pkt[i];
        if (!io->response)
            r.sm = (uint8_t)i;
        o = io->response ? r.sm : icnt_slice_of(c, r.addr);
        if (o >= io->nd) {
            (*io->ev_bad)++;
            continue;
        }
        p = &d->iq[i][di->f.wr];
        p->req = r;
        p->t_arrive = 0;
        p->dst = (uint8_t)o;
        p->flits = (uint8_t)icnt_flits(c, &r, io->response);
        di->f.wr = (uint8_t)((di->f.wr + 1) & (ICNT_MAX_INQ - 1));
        if (++di->f.cnt >= c->inq_size)
            d->in_full |= BIT(i);
        d->in_ne |= BIT(i);
        d->wl_in |= BIT(i);
    }
}

static void dir_eval(const struct icnt_cfg *c, const struct icnt_dir *q, struct icnt_dir *d,
                     uint64_t now, const struct dir_io *io)
{
    d->wl_in = 0;
    d->wl_out = 0;
    for (uint64_t m = io->credit_in; m; m &= m - 1) {
        unsigned o = CTZ(m);
        if (o < io->nd) {
            d->op[o].credit++;
            d->wl_out |= BIT(o);
        }
    }
    if (q->out_ne)
        deliver(q, d, now, io);
    if (q->in_ne)
        arbitrate(c, q, d, now, io);
    if (io->in_valid)
        inject(c, d, io);
}

void icnt_eval(const struct icnt_cfg *c, const struct icnt_regs *q, const struct icnt_in *in,
               struct icnt_out *out, struct icnt_regs *d)
{
    uint64_t sm_pop = 0;
    struct dir_io rq = {c->n_sm, c->n_slice, 0, in->sm_req_valid, in->l2_credit, in->sm_req,
                        &out->l2_req_valid, &sm_pop, out->l2_req,
                        &out->ev_req_pkts, &out->ev_req_flits, &out->ev_bad};
    struct dir_io rs = {c->n_slice, c->n_sm, 1, in->l2_resp_valid, 0, in->l2_resp,
                        &out->sm_resp_valid, &out->l2_resp_credit, out->sm_resp,
                        &out->ev_resp_pkts, &out->ev_resp_flits, &out->ev_bad};
    out->l2_req_valid = out->l2_resp_credit = out->sm_resp_valid = 0;
    out->ev_req_pkts = out->ev_req_flits = out->ev_resp_pkts = out->ev_resp_flits = 0;
    out->ev_bad = 0;
    dir_eval(c, &q->req, &d->req, in->now, &rq);
    dir_eval(c, &q->resp, &d->resp, in->now, &rs);
    out->sm_ready = icnt_sm_ready(c, d);
}

static void dir_commit(struct icnt_dir *q, const struct icnt_dir *d)
{
    for (uint64_t m = d->wl_in; m; m &= m - 1) {
        unsigned i = CTZ(m);
        for (unsigned k = q->ip[i].f.wr; k != d->ip[i].f.wr; k = (k + 1) & (ICNT_MAX_INQ - 1))
            q->iq[i][k] = d->iq[i][k];
        q->ip[i] = d->ip[i];
    }
    for (uint64_t m = d->wl_out; m; m &= m - 1) {
        unsigned o = CTZ(m);
        for (unsigned k = q->op[o].f.wr; k != d->op[o].f.wr; k = (k + 1) & (ICNT_MAX_OUTQ - 1))
            q->oq[o][k] = d->oq[o][k];
        q->op[o] = d->op[o];
    }
    q->in_ne = d->in_ne;
    q->in_full = d->in_full;
    q->out_ne = d->out_ne;
    q->wl_in = d->wl_in;
    q->wl_out = d->wl_out;
}

void icnt_commit(const struct icnt_cfg *c, struct icnt_regs *q, const struct icnt_regs *d)
{
    (void)c;
    dir_commit(&q->req, &d->req);
    dir_commit(&q->resp, &d->resp);
}

static uint64_t dir_next(const struct icnt_dir *q, uint64_t now, int response)
{
    uint64_t t = UINT64_MAX;
    if (q->in_ne)
        return now + 1;
    for (uint64_t m = q->out_ne; m; m &= m - 1) {
        unsigned o = CTZ(m);
        uint64_t a = q->oq[o][q->op[o].f.rd].t_arrive;
        if (a > now) {
            if (a < t)
                t = a;
        } else if (response || q->op[o].credit) {
            return now + 1;
        }                               /* else: waits for a credit, an input */
    }
    return t;
}

uint64_t icnt_next_event(const struct icnt_cfg *c, const struct icnt_regs *q, uint64_t now)
{
    uint64_t a, b;
    (void)c;
    a = dir_next(&q->req, now, 0);
    b = dir_next(&q->resp, now, 1);
    return a < b ? a : b;
}

/* Storage for the cost estimator (cost.h): for each direction (requests: SM inputs to slice
   outputs; responses: the reverse) the per-port FIFOs of packets (t_arrive, mem_req, dst,
   flits), the port state (busy stamp, FIFO pointers, round-robin pointer, credits) and the
   non-empty/full flags. The write logs are bookkeeping, not hardware. */
void icnt_storage(const struct icnt_cfg *c, struct cost_list *l)
{
    const char *ic = "interconnect";
    uint32_t pkt = 64 + cost_memreq_bits() + 6 + 4;
    uint32_t fi = cost_fifo_bits(c->inq_size), fo = cost_fifo_bits(c->outq_size);
    cost_begin(l, "icnt");
    for (int dir = 0; dir < 2; dir++) {
        uint32_t ni = dir ? c->n_slice : c->n_sm, no = dir ? c->n_sm : c->n_slice;
        cost_add(l, (struct cost_item){.name = dir ? "resp_iq" : "req_iq", .mech = ic,
                                       .entries = (uint64_t)ni * c->inq_size, .bits = pkt,
                                       .banks = ni, .rports = 1, .wports = 1, .onchip = 1,
                                       .note = "t_arrive 64, mem_req, dst 6, flits 4"});
        cost_add(l, (struct cost_item){.name = dir ? "resp_oq" : "req_oq", .mech = ic,
                                       .entries = (uint64_t)no * c->outq_size, .bits = pkt,
                                       .banks = no, .rports = 1, .wports = 1, .onchip = 1,
                                       .note = "t_arrive 64, mem_req, dst 6, flits 4"});
        cost_add(l, (struct cost_item){.name = dir ? "resp_ip" : "req_ip", .mech = ic,
                                       .entries = ni, .bits = 64 + fi, .rports = COST_PAR,
                                       .onchip = 1, .note = "t_free, FIFO rd/wr/cnt"});
        cost_add(l, (struct cost_item){.name = dir ? "resp_op" : "req_op", .mech = ic,
                                       .entries = no, .bits = 64 + fo + 6 + 9,
                                       .rports = COST_PAR, .onchip = 1,
                                       .note = "t_free, FIFO rd/wr/cnt, rr [5:0], credit [8:0]"});
        cost_add(l, (struct cost_item){.name = dir ? "resp_flags" : "req_flags", .mech = ic,
                                       .entries = 1, .bits = 2 * ni + no, .rports = COST_PAR,
                                       .onchip = 1, .note = "in_ne, in_full, out_ne"});
    }
}
