/*
 * l2.h -- one L2 cache slice (a GPGPU-Sim "memory sub-partition"; two per DRAM channel).
 *
 * Hardware: Fermi's unified L2 slice in front of a GDDR5 channel: 64 sets x 8 ways x 128-byte
 * lines (64 KB; 12 slices = 768 KB on a GTX480), true LRU, write-back with write-allocate
 * (a partial-line write miss fetches the line first; a full-line write allocates without a
 * fetch), MSHRs that merge requests to a line already being fetched, and the ROP pipeline
 * modelled as a fixed latency between the interconnect and the tag check. Atomics execute
 * here: a hit (or the fill of a miss) answers them and dirties the line. Dirty victims are
 * written back to DRAM. Instruction fetches, local loads (MK_FILL) are reads; MK_SPILL is a
 * write. Writes are answered only when cfg.ack_writes. Timing only: no data.
 *
 * Ports:
 *   in  req_valid, req         packet from the interconnect (credit-guaranteed room)
 *   out icnt_credit            one slot of the ROP queue freed (to the interconnect)
 *   out resp_valid, resp       response to the interconnect (sent only with a credit)
 *   in  icnt_credit            one slot of the interconnect's input FIFO for this slice freed
 *   out dram_valid, dram       to the DRAM channel: kind MK_LOAD = line fetch, MK_STORE =
 *                              write-back (sm = 0xFF); sent only with a credit
 *   in  dram_credit            the DRAM channel freed one slot for this slice
 *   in  fill_valid, fill       a fetched line returns (always accepted)
 *   in  now; out ev_*          current cycle; per-cycle events
 * Latency: a request arriving in cycle t is looked up at t + rop_latency; a hit's response
 * enters the response FIFO then and leaves at t + rop_latency + 1 at the earliest; a miss is
 * sent to DRAM at t + rop_latency + 1 at the earliest; a fill is answered from the next
 * cycle on, one merged requester per cycle.
 * Parameters (l2_cfg_default, GTX480): GPGPU-Sim configs/GTX480/gpgpusim.config
 * -gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4 (64 sets, 128 B, 8 ways, LRU, write-back,
 * allocate on miss, write-allocate, 32 MSHRs merging 4) and -rop_latency 120 (tested-cfgs:
 * -gpgpu_l2_rop_latency 120); default partition queues 8 (-gpgpu_dram_partition_queues
 * 8:8:8:8). See docs/l2.md.
 */
#ifndef L2_H
#define L2_H
#include <stddef.h>
#include <stdint.h>
#include "base/memreq.h"
#include "base/cachelib.h"

#define L2_MAX_SETS   256
#define L2_MAX_WAYS   16
#define L2_MAX_MSHR   64          /* also the ready-MSHR FIFO size */
#define L2_MAX_MERGE  CACHE_MAX_MERGE   /* 8 */
#define L2_MAX_ROPQ   512         /* power of two */
#define L2_MAX_RESPQ  32          /* power of two */
#define L2_MAX_DRAMQ  32          /* power of two */
#define L2_WB_SM      0xFF        /* mem_req.sm of a write-back */

enum l2_stall { L2_OK = 0, L2_STALL_MSHR, L2_STALL_MERGE, L2_STALL_RSRV, L2_STALL_DRAMQ,
                L2_STALL_RESPQ };

struct l2_cfg {
    uint32_t nsets;               /* power of two, 1..L2_MAX_SETS (64) */
    uint32_t assoc;               /* 1..L2_MAX_WAYS (8) */
    uint32_t line_div;            /* slices the lines are spread over: set = (line / line_div)
                                     mod nsets (12; memsys sets it) */
    uint32_t rop_latency;         /* 0..10000 (120) */
    uint32_t n_mshr;              /* 1..L2_MAX_MSHR (32) */
    uint32_t max_merge;           /* 1..L2_MAX_MERGE (4) */
    uint32_t ropq_size;           /* ROP queue (input) entries, 1..L2_MAX_ROPQ (128) */
    uint32_t respq_size;          /* 1..L2_MAX_RESPQ (8) */
    uint32_t dramq_size;          /* 2..L2_MAX_DRAMQ (8) */
    uint32_t icnt_credits;        /* room in the interconnect's input FIFO (= icnt inq_size) */
    uint32_t dram_credits;        /* room in the DRAM channel for this slice */
    uint32_t ack_writes;          /* 1: answer stores/spills (default 0) */
};

struct l2_rop {
    uint64_t t_ready;             /* [63:0] cycle the request reaches the tag check */
    struct mem_req req;
};

struct l2_ctrl {
    struct cache_fifo ropq, respq, dramq;
    struct cache_mshr_ctl ms;     /* ready-MSHR FIFO, free MSHRs, drain pointer */
    uint16_t cr_icnt, cr_dram;    /* [8:0] credits */
    struct cache_wlog wl;         /* simulation bookkeeping for commit, not hardware state */
};

struct l2_regs {
    struct l2_ctrl c;
    struct cache_line tags[L2_MAX_SETS][L2_MAX_WAYS];
    struct cache_mshr mshr[L2_MAX_MSHR];
    struct l2_rop  ropq[L2_MAX_ROPQ];
    struct mem_req respq[L2_MAX_RESPQ];
    struct mem_req dramq[L2_MAX_DRAMQ];
    uint8_t        rdyq[L2_MAX_MSHR];
};

struct l2_in {
    uint64_t now;
    uint8_t  req_valid, fill_valid, icnt_credit, dram_credit;
    struct mem_req req;
    struct mem_req fill;
};

struct l2_out {
    uint8_t  resp_valid, dram_valid, icnt_credit;
    uint8_t  stall;                               /* enum l2_stall of the head, if stalled */
    /* events (0/1 this cycle) */
    uint8_t  ev_access;                           /* a request passed the tag check */
    uint8_t  ev_hit, ev_miss, ev_merge;
    uint8_t  ev_write, ev_atomic;                 /* the access was a write / an atomic */
    uint8_t  ev_writeback;                        /* a dirty victim was sent to DRAM */
    uint8_t  ev_fetch;                            /* a line fetch was sent to DRAM */
    uint8_t  ev_stall;                            /* the head request could not proceed */
    uint8_t  ev_bad;                              /* malformed packet or unmatched fill */
    uint8_t  pad[2];
    /* payloads (meaningful only when the matching valid is set) */
    struct mem_req resp;
    struct mem_req dram;
};

void l2_cfg_default(struct l2_cfg *c);
int  l2_cfg_check(const struct l2_cfg *c, char *err, size_t errlen);
void l2_reset(const struct l2_cfg *c, struct l2_regs *r);
void l2_eval(const struct l2_cfg *c, const struct l2_regs *q, const struct l2_in *in,
             struct l2_out *out, struct l2_regs *d);
void l2_commit(const struct l2_cfg *c, struct l2_regs *q, const struct l2_regs *d);

/* Reset with contents (not part of eval/commit; call after l2_reset, before the first eval,
   on q and d alike): `line` becomes a valid, clean line of its set at LRU rank 0, as a
   line the copy engine wrote through the slice leaves it (docs/l2.md, "Lines installed by
   copies"). A line already present is only touched; otherwise an invalid way is taken, else
   the least recently used valid line is replaced. Called in copy order, it leaves the tags
   as that stream of writes would. */
void     l2_install(const struct l2_cfg *c, struct l2_regs *r, uint64_t line);
uint32_t l2_set_of(const struct l2_cfg *c, uint64_t line);
int      l2_busy(const struct l2_cfg *c, const struct l2_regs *q);
/* Earliest cycle > now at which l2_eval without inputs can change state or produce output
   (UINT64_MAX: only an input can). */
uint64_t l2_next_event(const struct l2_cfg *c, const struct l2_regs *q, uint64_t now);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void l2_storage(const struct l2_cfg *c, struct cost_list *l);

#endif
