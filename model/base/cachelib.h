/*
 * cachelib.h -- the parts the memory-side blocks share: ring-FIFO pointers, a set-associative
 * tag array with true LRU, and an MSHR file with its ready FIFO. Used by the L1 data cache
 * (sm/l1), the L2 slice (mem/l2) and, for its FIFOs, the DRAM channel (mem/dram).
 *
 * Hardware modelled:
 *   - ring FIFO: a power-of-two RAM with read and write pointers and an occupancy counter
 *     (rd, wr, cnt; cost_fifo_bits prices them); the entries live in the owning block's regs.
 *   - tag array: one row of `assoc` ways per set, each way holding the line address, a 2-bit
 *     state (invalid / valid / reserved by a pending miss), a dirty bit (write-back caches
 *     only), a true-LRU rank (0 = most recently used, assoc-1 = least) and the MSHR that owns
 *     a reserved way. Lookup compares every way of the set; an access moves the way to rank 0
 *     and ages the ways that were more recent; the victim is an invalid way if any, else the
 *     least recently used valid way (a reserved way is never evicted).
 *   - MSHR file: MSHRs, each a line address and up to CACHE_MAX_MERGE waiting requests
 *     (mem_req), a free mask, a FIFO of filled MSHRs waiting to answer their requesters and a
 *     drain pointer (the next requester of the FIFO's head); one requester is answered per
 *     cycle, and the MSHR is freed after its last one.
 * A block keeps these inside its own *_regs and declares their storage in its own X_storage
 * (the widths differ per block: e.g. the L1's LRU rank is [2:0], the L2's [3:0]).
 *
 * Same-cycle convention (the blocks' eval): d == q on entry; the helpers write d. The write
 * log (struct cache_wlog) is simulation bookkeeping, not hardware: it tells commit which tag
 * rows and which MSHR eval wrote, so commit copies only those.
 *
 * Source: Fermi's L1/L2 organisation as configured in GPGPU-Sim's GTX480 files (allocate on
 * miss with way reservation, LRU, MSHR merging: docs/l1.md and docs/l2.md say which setting
 * each parameter follows). Latency: none of its own; the blocks place these steps in their
 * cycles (l1.c, l2.c, dram.c).
 */
#ifndef CACHELIB_H
#define CACHELIB_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "memreq.h"

#define CACHE_MAX_MERGE 8         /* requests per MSHR, the first included */
#define CACHE_WL_NONE   0xFF      /* write log: no MSHR written */

/* ---- ring FIFO pointers ---- */

struct cache_fifo {
    uint16_t rd, wr, cnt;         /* read/write index, occupancy (widths: cost_fifo_bits) */
};

/* Advance the write pointer of a FIFO of `max` slots (a power of two). */
static inline void cache_fifo_push(struct cache_fifo *f, unsigned max)
{
    f->wr = (uint16_t)((f->wr + 1) & (max - 1));
    f->cnt++;
}

static inline void cache_fifo_pop(struct cache_fifo *f, unsigned max)
{
    f->rd = (uint16_t)((f->rd + 1) & (max - 1));
    f->cnt--;
}

/* Commit of a FIFO's entries: copy the slots eval pushed (from q's write pointer to d's). */
#define CACHE_COPY_PUSHED(qa, da, from, to, max)                                \
    do {                                                                        \
        for (unsigned i_ = (from); i_ != (unsigned)(to); i_ = (i_ + 1) & ((max) - 1)) \
            (qa)[i_] = (da)[i_];                                                \
    } while (0)

/* ---- tag array ---- */

enum cache_state { CACHE_INV = 0, CACHE_VALID = 1, CACHE_RSRV = 2 };

struct cache_line {
    uint64_t tag;                 /* [56:0] line address (addr >> 7) */
    uint8_t  state;               /* [1:0] enum cache_state */
    uint8_t  dirty;               /* [0] write-back caches (L2); the L1 leaves it 0 */
    uint8_t  lru;                 /* [log2(assoc)-1:0] LRU rank, 0 = most recently used */
    uint8_t  mshr;                /* [5:0] MSHR of a reserved way */
    uint8_t  pad[4];
};

/* Reset ranks: way w of every set gets rank w (`sets` rows of `row` ways, all of them). */
static inline void cache_tags_reset(struct cache_line *t, unsigned sets, unsigned row)
{
    for (unsigned s = 0; s < sets; s++)
        for (unsigned w = 0; w < row; w++)
            t[s * row + w].lru = (uint8_t)w;
}

/* The way of `set` holding `line` (valid or reserved), or -1. */
static inline int cache_find_way(const struct cache_line *set, unsigned assoc, uint64_t line)
{
    for (unsigned w = 0; w < assoc; w++)
        if (set[w].state != CACHE_INV && set[w].tag == line)
            return (int)w;
    return -1;
}

/* True LRU: way w becomes rank 0; the ways that were more recent than it age by one. */
static inline void cache_lru_touch(struct cache_line *set, unsigned assoc, unsigned w)
{
    uint8_t r = set[w].lru;
    for (unsigned i = 0; i < assoc; i++)
        if (set[i].lru < r)
            set[i].lru++;
    set[w].lru = 0;
}

/* An invalid way if any, else the least recently used valid (not reserved) way, else -1. */
static inline int cache_pick_victim(const struct cache_line *set, unsigned assoc)
{
    int best = -1;
    for (unsigned w = 0; w < assoc; w++)
        if (set[w].state == CACHE_INV)
            return (int)w;
    for (unsigned w = 0; w < assoc; w++)
        if (set[w].state == CACHE_VALID && (best < 0 || set[w].lru > set[best].lru))
            best = (int)w;
    return best;
}

/* ---- write log (simulation bookkeeping for commit, not hardware) ---- */

struct cache_wlog {
    uint8_t  nset;                /* tag rows written this cycle (at most 2: fill + request) */
    uint8_t  mshr;                /* MSHR written this cycle, or CACHE_WL_NONE */
    uint8_t  over;                /* a third row was written: the cache's ev_bad (a model
                                     error: its commit would miss the row) */
    uint16_t set[2];
};

static inline void cache_wlog_clear(struct cache_wlog *wl)
{
    wl->nset = 0;
    wl->mshr = CACHE_WL_NONE;
    wl->over = 0;
}

static inline void cache_wlog_set(struct cache_wlog *wl, unsigned s)
{
    for (unsigned i = 0; i < wl->nset; i++)
        if (wl->set[i] == s)
            return;
    if (wl->nset == sizeof wl->set / sizeof *wl->set)
        wl->over = 1;                     /* bounded: never written past the log */
    else
        wl->set[wl->nset++] = (uint16_t)s;
}

/* ---- MSHR file ---- */

struct cache_mshr {
    uint64_t line;                /* [56:0] line address */
    uint8_t  n;                   /* [3:0] merged requests */
    uint8_t  dirty;               /* [0] (L2) a write or atomic is among them: dirty on fill */
    uint8_t  pad[6];
    struct mem_req m[CACHE_MAX_MERGE];   /* the requests waiting for the line, in order */
};

/* Control of the MSHR file (inside the block's control registers). */
struct cache_mshr_ctl {
    struct cache_fifo rdyq;       /* filled MSHRs waiting to answer (entries: block's rdyq[]) */
    uint64_t free;                /* [n_mshr-1:0] free MSHRs */
    uint8_t  drain;               /* [2:0] next requester of the head ready MSHR */
};

/* Mask of n MSHRs (all free). */
static inline uint64_t cache_mshr_all(unsigned n)
{
    return n >= 64 ? ~0ull : ((1ull << n) - 1);
}

/* Take the lowest free MSHR for `line` with first request r; the caller checked ctl->free. */
static inline unsigned cache_mshr_alloc(struct cache_mshr_ctl *ctl, struct cache_mshr *mshr,
                                        struct cache_wlog *wl, uint64_t line,
                                        const struct mem_req *r)
{
    unsigned m = (unsigned)__builtin_ctzll(ctl->free);
    ctl->free &= ~(1ull << m);
    mshr[m].line = line;
    mshr[m].n = 1;
    mshr[m].m[0] = *r;
    wl->mshr = (uint8_t)m;
    return m;
}

/* Merge r into MSHR m; 0 if it already holds max_merge requests. */
static inline int cache_mshr_merge(struct cache_mshr *mshr, unsigned m, unsigned max_merge,
                                   struct cache_wlog *wl, const struct mem_req *r)
{
    struct cache_mshr *e = &mshr[m];
    if (e->n >= max_merge)
        return 0;
    e->m[e->n++] = *r;
    wl->mshr = (uint8_t)m;
    return 1;
}

/* The request the head ready MSHR answers now (q: state at the start of the cycle). */
static inline const struct mem_req *cache_drain_head(const struct cache_mshr_ctl *q,
                                                     const struct cache_mshr *mshr,
                                                     const uint8_t *rdyq)
{
    return &mshr[rdyq[q->rdyq.rd]].m[q->drain];
}

/* After the head ready MSHR answered its requester q->drain: move to its next requester, or
   retire it (pop the ready FIFO of rdyq_max slots, free the MSHR). */
static inline void cache_drain_next(const struct cache_mshr_ctl *q, const struct cache_mshr *mshr,
                                    const uint8_t *rdyq, unsigned rdyq_max,
                                    struct cache_mshr_ctl *d)
{
    unsigned m = rdyq[q->rdyq.rd];
    if (q->drain + 1u >= mshr[m].n) {
        d->drain = 0;
        cache_fifo_pop(&d->rdyq, rdyq_max);
        d->free |= 1ull << m;
    } else {
        d->drain = (uint8_t)(q->drain + 1);
    }
}

/* ---- commit ---- */

/* Copy the tag rows and the MSHR that the write log names from d to q (tags: `row` ways per
   set in memory, `assoc` of them used). */
static inline void cache_commit_tags(struct cache_line *q, const struct cache_line *d,
                                     unsigned row, unsigned assoc, const struct cache_wlog *wl)
{
    for (unsigned i = 0; i < wl->nset; i++) {
        size_t s = (size_t)wl->set[i] * row;
        memcpy(q + s, d + s, assoc * sizeof *q);
    }
}

static inline void cache_commit_mshr(struct cache_mshr *q, const struct cache_mshr *d,
                                     const struct cache_wlog *wl)
{
    unsigned m = wl->mshr;
    if (m == CACHE_WL_NONE)
        return;
    q[m].line = d[m].line;
    q[m].n = d[m].n;
    q[m].dirty = d[m].dirty;
    memcpy(q[m].m, d[m].m, d[m].n * sizeof(struct mem_req));
}

#endif
