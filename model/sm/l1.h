/*
 * l1.h -- L1 data cache of one SM.
 *
 * Hardware: Fermi's per-SM L1 data cache in its 16 KB configuration (48 KB shared memory):
 * 32 sets x 4 ways x 128-byte lines, true LRU, allocate on read miss (the line is reserved
 * when the miss leaves and filled when the data returns), MSHRs that merge later reads of a
 * line that is already on its way. Global stores are write-through, no write-allocate, and
 * evict the line on a hit (Fermi never keeps global data it wrote; GPGPU-Sim's L1 write
 * policy for global memory). Local memory: MK_FILL (SIMT-stack fill, a local load) allocates
 * like a load; MK_SPILL (local store) is written through and, being private to its thread,
 * keeps the line on a hit. Atomics and instruction fetches bypass the cache: they go to L2
 * and their responses come back through this block's fill port and leave on its response
 * port. Timing only: no data.
 *
 * Ports (all from/to the SM's LD/ST unit or the interconnect):
 *   in  req_valid, req     one request per cycle from the LD/ST unit (line-aligned addr)
 *   out ready              the request presented this cycle was accepted (Mealy: depends on
 *                          this cycle's req); if 0, `stall` says why and the LD/ST retries
 *   out acc_hit, acc_tag, acc_lanes
 *                          where ready: whether the accepted request hit, with its tag and
 *                          lanes (the LD/ST unit's per-lane hit mask; Mealy like ready)
 *   out resp_valid, resp   at most one completed request per cycle back to the LD/ST unit
 *                          (the original mem_req: tag, warp, kind); loads/fills (hit or
 *                          filled miss), atomics, instruction fetches; stores only when
 *                          cfg.store_ack
 *   out miss_valid, miss   the packet that leaves towards the interconnect this cycle (head of
 *                          the miss queue, offered only when icnt_ready)
 *   in  icnt_ready         the interconnect can take a packet from this SM this cycle
 *   in  fill_valid, fill   at most one packet per cycle from the interconnect (read fill,
 *                          atomic / ifetch / store-ack response); always accepted
 *   in  now                the current cycle (all timing state is absolute cycle stamps, so
 *                          idle cycles can be skipped)
 *   out mshr_used          MSHRs in use this cycle (n_mshr minus the free ones; Moore, from
 *                          the registered free mask: allocations of this cycle count from the
 *                          next one, as do releases). For VT's MSHR utilisation (004 Fig. 13)
 *   out ev_*               per-cycle events; the caller accumulates them (l1_stats_add)
 * Latency: a hit's response leaves hit_latency cycles after the request was accepted; a miss
 * leaves on the miss port at the earliest in the next cycle; a fill's first merged requester
 * responds the cycle after the fill arrives, then one requester per cycle. The response port
 * serves its three sources (filled MSHRs, bypass responses, hits) round robin.
 *
 * Parameters (defaults = GTX480, l1_cfg_default): GPGPU-Sim configs/tested-cfgs/SM2_GTX480/
 * gpgpusim.config: -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8 (32 sets, 128 B lines,
 * 4 ways, LRU, local write-back / global write-through, allocate on miss, no write allocate,
 * hashed set index, 64 MSHRs merging up to 8 requests, 8-entry miss queue) and
 * -gpgpu_l1_latency 35 (hit latency in core cycles). See docs/l1.md.
 */
#ifndef L1_H
#define L1_H
#include <stddef.h>
#include <stdint.h>
#include "base/memreq.h"
#include "base/cachelib.h"

#define L1_MAX_SETS   64
#define L1_MAX_WAYS   8
#define L1_MAX_MSHR   64          /* also the size of the ready-MSHR FIFO */
#define L1_MAX_MERGE  CACHE_MAX_MERGE   /* 8 */
#define L1_MAX_MISSQ  16          /* power of two */
#define L1_MAX_HITQ   128         /* hit pipeline slots, power of two (>= hit_latency) */
#define L1_MAX_BYPQ   32          /* bypass responses waiting for the port, power of two */

enum l1_stall {
    L1_OK = 0,
    L1_STALL_MSHR,                /* no free MSHR */
    L1_STALL_MERGE,               /* the line's MSHR has max_merge requesters already */
    L1_STALL_RSRV,                /* every way of the set is reserved by a pending miss */
    L1_STALL_MISSQ,               /* miss queue full */
    L1_STALL_HITQ,                /* hit pipeline full */
    L1_STALL_BYP                  /* byp_max bypass requests outstanding */
};

struct l1_cfg {
    uint32_t nsets;               /* sets, power of two, 1..L1_MAX_SETS (32) */
    uint32_t assoc;               /* ways, 1..L1_MAX_WAYS (4) */
    uint32_t hit_latency;         /* cycles from accept to response of a hit, 1..1000 (35) */
    uint32_t n_mshr;              /* MSHRs, 1..L1_MAX_MSHR (64) */
    uint32_t max_merge;           /* requesters per MSHR incl. the first, 1..L1_MAX_MERGE (8) */
    uint32_t missq_size;          /* miss queue entries, 1..L1_MAX_MISSQ (8) */
    uint32_t byp_max;             /* outstanding atomics/ifetches(/acked stores), 1..L1_MAX_BYPQ */
    uint32_t set_hash;            /* 0: set = line mod nsets; 1: XOR-folded (default 1) */
    uint32_t store_ack;           /* 1: stores/spills expect an L2 acknowledgement (default 0) */
};

struct l1_hit {
    uint64_t t_ready;             /* [63:0] cycle the response leaves */
    struct mem_req req;
};

/* Control state (small, copied whole by commit). */
struct l1_ctrl {
    struct cache_fifo missq, hitq, bypq;
    struct cache_mshr_ctl ms;     /* ready-MSHR FIFO, free MSHRs, drain pointer */
    uint16_t byp_out;             /* [5:0] bypass requests awaiting a response */
    uint8_t  rr;                  /* [1:0] response-port round robin (0 mshr, 1 bypass, 2 hit) */
    struct cache_wlog wl;         /* simulation bookkeeping for commit, not hardware state */
};

struct l1_regs {
    struct l1_ctrl c;
    struct cache_line tags[L1_MAX_SETS][L1_MAX_WAYS];   /* dirty unused (write-through) */
    struct cache_mshr mshr[L1_MAX_MSHR];
    struct mem_req missq[L1_MAX_MISSQ];
    struct l1_hit  hitq[L1_MAX_HITQ];
    uint8_t        rdyq[L1_MAX_MSHR];     /* [5:0] filled MSHRs waiting to drain */
    struct mem_req bypq[L1_MAX_BYPQ];
};

struct l1_in {
    uint64_t now;
    uint8_t  req_valid;
    uint8_t  icnt_ready;
    uint8_t  fill_valid;
    struct mem_req req;
    struct mem_req fill;
};

struct l1_out {
    uint8_t  ready;               /* request accepted */
    uint8_t  stall;               /* enum l1_stall when req_valid && !ready */
    uint8_t  resp_valid;
    uint8_t  miss_valid;          /* `miss` leaves towards the interconnect this cycle */
    uint8_t  mshr_used;           /* [6:0] MSHRs in use this cycle (registered free mask) */
    /* events (0/1 this cycle) */
    uint8_t  ev_hit, ev_miss, ev_merge;           /* loads/fills */
    uint8_t  ev_stall_mshr;                       /* MSHRs full or merge slots full */
    uint8_t  ev_rsrv_fail;                        /* no way to reserve in the set */
    uint8_t  ev_stall_missq, ev_stall_other;      /* miss queue full; hit pipe / bypass limit */
    uint8_t  ev_store, ev_store_evict;            /* stores+spills sent; global store hit evicted */
    uint8_t  ev_bypass;                           /* atomic or ifetch sent to L2 */
    uint8_t  ev_bad;                              /* malformed request or unmatched fill dropped */
    uint8_t  err;                                 /* = ev_bad: the SM stops the run on it */
    /* accept report: what became of the request accepted this cycle (where ready) */
    uint8_t  acc_hit;             /* [0] a load/fill that hit a valid line: its response leaves
                                     hit_latency cycles later (0: miss, merge, write, bypass) */
    uint32_t acc_tag;             /* [31:0] the accepted request's tag */
    uint32_t acc_lanes;           /* [31:0] the accepted request's lanes (mem_req.lanes) */
    /* payloads (meaningful only when the matching valid is set) */
    struct mem_req resp;
    struct mem_req miss;
};

struct l1_stats {
    uint64_t hits, misses, merges, stall_mshr, rsrv_fail, stall_missq, stall_other;
    uint64_t stores, store_evicts, bypass, responses, bad;
};

void l1_cfg_default(struct l1_cfg *c);
/* 0 if usable, else -1 and a message naming the field. */
int  l1_cfg_check(const struct l1_cfg *c, char *err, size_t errlen);
void l1_reset(const struct l1_cfg *c, struct l1_regs *r);
void l1_eval(const struct l1_cfg *c, const struct l1_regs *q, const struct l1_in *in,
             struct l1_out *out, struct l1_regs *d);
void l1_commit(const struct l1_cfg *c, struct l1_regs *q, const struct l1_regs *d);

/* Set index of a line address (addr >> 7). */
uint32_t l1_set_of(const struct l1_cfg *c, uint64_t line);
/* Anything in flight or queued (the SM must keep evaluating the block). */
int      l1_busy(const struct l1_cfg *c, const struct l1_regs *q);
/* Earliest cycle > now at which l1_eval with no request and no fill can change state or
   produce output (UINT64_MAX: never). */
uint64_t l1_next_event(const struct l1_cfg *c, const struct l1_regs *q, uint64_t now);
void     l1_stats_add(struct l1_stats *s, const struct l1_out *o);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
uint32_t l1_instances(const struct gpu_config *c);
void l1_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct l1_cfg *out);
/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void l1_storage(const struct l1_cfg *c, struct cost_list *l);

#endif
