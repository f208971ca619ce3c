/*
 * sm_port.c -- the SM's memory port: the L1 data cache with its request queues in front
 * (fetch misses, SIMT spills/fills, the LD/ST line queue: fixed priority in that order) and
 * the interconnect on its other side; the L1's response is routed by kind (model/sm/sm.c).
 * The two small queues are skid buffers, so that the SIMT stack's and fetch's valid/ready
 * handshakes never depend on the request itself.
 */
#include <string.h>
#include "sm.h"

void sm_memq_push(struct sm_memq *q, const struct mem_req *r, uint64_t now)
{
    struct mem_req *e = &q->e[(q->head + q->n) % SM_MEMQ];
    *e = *r;
    e->t_issue = now;
    q->n++;
}

static void memq_pop(struct sm_memq *q)
{
    q->head = (q->head + 1) % SM_MEMQ;
    q->n--;
}

enum { SRC_NONE = 0, SRC_FETCH, SRC_SIMT, SRC_LDST };

static void count_l1(struct sm *s, const struct l1_out *lo)
{
    s->s.l1_hits += lo->ev_hit;
    s->s.l1_misses += lo->ev_miss;
    s->s.l1_merges += lo->ev_merge;
    s->s.l1_mshr_stalls += lo->ev_stall_mshr;
    s->s.l1_rsrv_fails += lo->ev_rsrv_fail;
}

/* Step 1: the L1 with the chosen request; returns the source whose request it accepted
   (3 = the LD/ST unit). */
int sm_l1_step(struct sm *s, uint64_t now, struct sm_io *io, struct l1_out *lo)
{
    struct l1_in li;
    int src = SRC_NONE;
    memset(&li, 0, sizeof li);
    li.now = now;
    li.icnt_ready = io->icnt_ready;
    li.fill_valid = io->fill_valid;
    if (io->fill_valid)
        li.fill = io->fill;
    if (s->fq.n) { src = SRC_FETCH; li.req = s->fq.e[s->fq.head]; }
    else if (s->sq.n) { src = SRC_SIMT; li.req = s->sq.e[s->sq.head]; }
    else if (s->ldst_o->req_valid) { src = SRC_LDST; li.req = s->ldst_o->req; }
    li.req_valid = src != SRC_NONE;
    l1_eval(s->l1_c, s->l1_q, &li, lo, s->l1_d);
    *s->l1_o = *lo;
    io->miss_valid = lo->miss_valid;
    if (lo->miss_valid)
        io->miss = lo->miss;
    count_l1(s, lo);
    if (!lo->ready)
        return SRC_NONE;
    if (src == SRC_FETCH) memq_pop(&s->fq);
    if (src == SRC_SIMT) memq_pop(&s->sq);
    return src;
}
