/*
 * ldst.h -- the SM's load/store unit for global and local memory: coalescer, line-request
 * queue towards the L1 data cache, and the pending-load table that tracks each load lane by
 * lane and releases its destination registers when every line has returned. (Shared memory
 * is the smem block: its accesses have fixed latencies set by their bank conflicts.)
 *
 * Hardware: Fermi's 16 LD/ST units and coalescing logic (CUDA C Programming Guide, compute
 * capability 2.x: a warp's global access is split into 128-byte line transactions). The lane
 * masks per line and the per-load hit and completion masks are what dynamic warp subdivision
 * needs to split a warp on memory-latency divergence (002_ddcb2f79a6edfee4.txt, "DWS upon
 * memory latency divergence": subdivide on a hit mask of the threads that hit the D-cache).
 *
 * Ports: in: issue {valid, warp, vwi, kind, exec mask, addr[32], bytes per lane, dests};
 *        in: accepted (the L1 took the request presented this cycle);
 *        in: hit {valid, tag, lanes} (the L1's report on the request it accepted this cycle:
 *            it hit; the L1's acc_hit / acc_tag / acc_lanes);
 *        in: resp {valid, tag, lanes} (a line of a pending load/atomic returned);
 *        in: swap {v, vwi_lo, n} (VT: the pending entries of VWIs [vwi_lo, vwi_lo + n) move
 *            to the inactive load queue while it has room; their queued lines become
 *            inactive);
 *        out (for the next cycle): req {valid, mem_req}; can_issue (room for a whole warp
 *        instruction: 64 free line slots -- a lane can touch two lines -- and a free entry of
 *        the active queue); nact, ninact (occupancy of the active and inactive queues);
 *        out: rel[] registers released this cycle; cpl {valid, last, warp, vwi, tag, lanes,
 *        hit}: a line of a pending load returned this cycle (last = 0: a partial completion,
 *        lines still outstanding; last = 1: the whole load, its registers are in rel[]);
 *        events.
 * Load queues (VT, 004_23e173f444f46134.txt Sec. IV-D, after Mascar): the pending table is
 * the active load queue (npend_act entries) plus the inactive one (npend_inact, 0 without
 * VT); every load enters the active queue; a swap moves a swapped-out CTA's loads to the
 * inactive queue; the L1 is offered the oldest queued line of an active load, else the
 * oldest line (the line queue keeps a valid bit per slot: a line taken from behind the head
 * leaves a hole the head skips). With no inactive entry the order is the FIFO's.
 * Latency: a line request leaves one cycle after issue at the earliest; a load's registers
 * are released, and its completion reported, in the cycle its last line returns; a partial
 * completion in the cycle each earlier line returns; a swap takes effect in its cycle (its
 * lines are offered by priority from the next cycle).
 */
#ifndef LDST_H
#define LDST_H
#include <stdint.h>
#include "base/memreq.h"

#define LDST_QUEUE    128     /* line requests waiting for the L1 */
#define LDST_PENDING  32      /* loads/atomics in flight per SM: the active load queue */
#define LDST_INACT_MAX 32     /* VT's inactive load queue at most (vt_ldq_inactive) */
#define LDST_PENDING_MAX (LDST_PENDING + LDST_INACT_MAX)   /* pending-table entries: 64 */
#define LDST_MAX_DST  4
#define LDST_MAX_REL  4

struct ldst_cfg {
    uint8_t sm;
    uint8_t npend_act;            /* active load queue entries, 1..LDST_PENDING (32) */
    uint8_t npend_inact;          /* inactive load queue entries, 0..LDST_INACT_MAX: VT's
                                     vt_ldq_inactive under vt = on, else 0 */
    uint8_t dws;                  /* DWS on: the entries' owned-lane fields are priced */
};

struct ldst_pend {
    uint16_t reg[LDST_MAX_DST];   /* [15:0] each; 0xFFFF none */
    uint8_t  warp, vwi;           /* [7:0] each */
    uint8_t  outstanding;         /* [5:0] lines not yet returned (<= 32 aligned lanes) */
    uint8_t  valid;               /* [0] */
    uint8_t  inact;               /* [0] in the inactive load queue (VT) */
    uint32_t lanes;               /* [31:0] the load's lanes (its exec mask) */
    uint32_t done;                /* [31:0] lanes whose line has returned */
    uint32_t hit;                 /* [31:0] lanes whose line hit in the L1 */
    uint32_t own;                 /* [31:0] DWS: the issuing slot's owned lanes, less those a
                                     memory split detached: the slots its writeback reaches */
};

struct ldst_regs {
    struct mem_req queue[LDST_QUEUE];
    uint8_t  qvalid[LDST_QUEUE];  /* [0] each: the slot's line is still waiting (0: taken
                                     from behind the head; meaningful inside head..tail) */
    uint8_t  qinact[LDST_QUEUE];  /* [0] each: the line belongs to an inactive load (VT) */
    uint32_t head, count;         /* [6:0] + [7:0]: count = tail - head, holes included */
    struct ldst_pend pend[LDST_PENDING_MAX];   /* indexed by the line's tag */
    uint32_t npend;               /* [6:0] valid entries, both queues */
    uint32_t ninact;              /* [5:0] valid entries in the inactive queue */
    uint8_t  pend_dirty;          /* simulation bookkeeping for commit (not hardware state):
                                     eval wrote the pending table this cycle */
    uint8_t  qflags_dirty;        /* ... eval wrote qvalid / qinact outside the appended slots */
};

struct ldst_issue {
    uint8_t  valid, warp, vwi, kind;    /* kind: MK_LOAD / MK_STORE / MK_ATOMIC */
    uint8_t  ndst;
    uint32_t mask;                      /* executing lanes */
    uint32_t own;                       /* the issuing slot's owned lanes (DWS; all lanes of an
                                           unsplit warp) */
    uint32_t bytes;                     /* bytes per lane (vector width x type size) */
    uint16_t dst[LDST_MAX_DST];
    uint64_t addr[32];                  /* per-lane timing address (global space) */
};

/* VT swap-out: move the pending loads of VWIs [vwi_lo, vwi_lo + n) to the inactive queue. */
struct ldst_swap {
    uint8_t  v;                         /* [0] */
    uint8_t  vwi_lo;                    /* [7:0] the CTA's first VWI */
    uint8_t  n;                         /* [5:0] its VWIs (warps) */
};

struct ldst_in {
    uint64_t now;
    struct ldst_issue issue;
    uint8_t  accepted;                  /* [0] the L1 took the request presented this cycle */
    uint8_t  hit_valid;                 /* [0] ... and it hit (the L1's acc_hit) */
    uint8_t  resp_valid;                /* [0] a line of a pending load/atomic returned */
    uint32_t hit_tag;                   /* [31:0] the hit request's tag (pending entry) */
    uint32_t hit_lanes;                 /* [31:0] the hit request's lanes */
    uint32_t resp_tag;                  /* [31:0] the returned line's tag (pending entry) */
    uint32_t resp_lanes;                /* [31:0] the returned line's lanes (mem_req.lanes) */
    struct ldst_swap swap;              /* VT: 0 unless a CTA is swapped out this cycle */
    uint8_t  detach_v;                  /* [0] DWS: a memory split took lanes of a load ... */
    uint8_t  detach_tag;                /* [5:0] ... this pending entry's ... */
    uint32_t detach_lanes;              /* [31:0] ... these: its writeback no longer reaches them */
};

struct ldst_rel { uint8_t warp, vwi; uint16_t reg; uint32_t own; };   /* own: the entry's */

struct ldst_out {
    uint8_t  req_valid;
    struct mem_req req;
    uint8_t  can_issue;
    uint8_t  nact, ninact;               /* [6:0] each: occupancy of the active and inactive
                                            load queues (registered, for statistics) */
    uint32_t nrel;
    struct ldst_rel rel[LDST_MAX_REL];
    /* completion port: a line of a pending load/atomic returned this cycle */
    uint8_t  cpl_valid;                  /* [0] */
    uint8_t  cpl_last;                   /* [0] 1: the load is complete (registers in rel[]);
                                            0: a partial completion, lines still outstanding */
    uint8_t  cpl_warp, cpl_vwi;          /* [7:0] each: the load's warp slot and VWI */
    uint8_t  cpl_tag;                    /* [5:0] its pending entry */
    uint32_t cpl_lanes;                  /* [31:0] lanes complete so far, this line's included
                                            (all the load's lanes when cpl_last) */
    uint32_t cpl_hit;                    /* [31:0] the load's lanes whose line hit in the L1 */
    uint32_t cpl_own;                    /* [31:0] the entry's owned lanes (DWS) */
    /* events (this cycle) */
    uint32_t ev_lines;                   /* line requests made by this cycle's issue */
    uint8_t  ev_part;                    /* a partial completion (cpl_valid && !cpl_last) */
    uint8_t  ev_part_mixed;              /* ... whose completed lanes hit while lanes of the
                                            load that did not hit are still outstanding */
    uint8_t  ev_moved;                   /* [5:0] pending entries this cycle's swap moved */
    uint8_t  ev_nomove;                  /* [5:0] ... of its range left active: no room */
};

void ldst_reset(const struct ldst_cfg *c, struct ldst_regs *q);
void ldst_eval(const struct ldst_cfg *c, const struct ldst_regs *q, const struct ldst_in *in,
               struct ldst_out *out, struct ldst_regs *d);
void ldst_commit(const struct ldst_cfg *c, struct ldst_regs *q, const struct ldst_regs *d);
/* Registered outputs of state q (what the unit presents this cycle). */
void ldst_outputs(const struct ldst_cfg *c, const struct ldst_regs *q, struct ldst_out *out);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
uint32_t ldst_instances(const struct gpu_config *c);
void ldst_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct ldst_cfg *out);
int  ldst_cfg_check(const struct ldst_cfg *c, char *err, size_t errlen);
/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void ldst_storage(const struct ldst_cfg *c, struct cost_list *l);

#endif
