/*
 * ldst.h -- the SM's load/store unit for global and local memory: coalescer, line-request
 * queue towards the L1 data cache, and the pending-load table that releases destination
 * registers when every line of a load has returned. Also the shared-memory bank-conflict
 * logic (a pure function: shared, const and param accesses have fixed latencies and go through
 * fu.c with the conflict degree as their initiation interval).
 *
 * Hardware: Fermi's 16 LD/ST units and coalescing logic (CUDA C Programming Guide, compute
 * capability 2.x: a warp's global access is split into 128-byte line transactions; shared
 * memory has 32 banks of 4 bytes, conflicts serialise, the same word broadcasts).
 *
 * Ports: in: issue {valid, warp, vwi, kind, exec mask, addr[32], bytes per lane, dests};
 *        in: accepted (the L1 took the request presented this cycle);
 *        in: resp {valid, tag} (a line of a pending load/atomic returned);
 *        out (for the next cycle): req {valid, mem_req}; can_issue (room for a whole warp
 *        instruction: LDST_QUEUE - 32 free line slots and a free pending entry);
 *        out: rel[] registers released this cycle; events.
 * Latency: a line request leaves one cycle after issue at the earliest; a load's registers
 * are released in the cycle its last line returns.
 */
#ifndef LDST_H
#define LDST_H
#include <stdint.h>
#include "base/memreq.h"

#define LDST_QUEUE    128     /* line requests waiting for the L1 */
#define LDST_PENDING  32      /* loads/atomics in flight per SM */
#define LDST_MAX_DST  4
#define LDST_MAX_REL  4

struct ldst_cfg { uint8_t sm; };

struct ldst_pend {
    uint16_t reg[LDST_MAX_DST];   /* 16 each; 0xFFFF none */
    uint8_t  warp, vwi;           /* 8 + 8 */
    uint8_t  outstanding;         /* 6: lines not yet returned (<= 32 + vector splits) */
    uint8_t  valid;               /* 1 */
};

struct ldst_regs {
    struct mem_req queue[LDST_QUEUE];
    uint32_t head, count;         /* 7 + 8 */
    struct ldst_pend pend[LDST_PENDING];
    uint32_t npend;               /* 6 */
    uint8_t  pend_dirty;          /* simulation bookkeeping for commit (not hardware state):
                                     eval wrote the pending table this cycle */
};

struct ldst_issue {
    uint8_t  valid, warp, vwi, kind;    /* kind: MK_LOAD / MK_STORE / MK_ATOMIC */
    uint8_t  ndst;
    uint32_t mask;                      /* executing lanes */
    uint32_t bytes;                     /* bytes per lane (vector width x type size) */
    uint16_t dst[LDST_MAX_DST];
    uint64_t addr[32];                  /* per-lane timing address (global space) */
};

struct ldst_in {
    uint64_t now;
    struct ldst_issue issue;
    uint8_t  accepted;
    uint8_t  resp_valid;
    uint32_t resp_tag;
};

struct ldst_rel { uint8_t warp, vwi; uint16_t reg; };

struct ldst_out {
    uint8_t  req_valid;
    struct mem_req req;
    uint8_t  can_issue;
    uint32_t nrel;
    struct ldst_rel rel[LDST_MAX_REL];
    uint32_t ev_lines;                   /* line requests made by this cycle's issue */
};

void ldst_reset(const struct ldst_cfg *c, struct ldst_regs *q);
void ldst_eval(const struct ldst_cfg *c, const struct ldst_regs *q, const struct ldst_in *in,
               struct ldst_out *out, struct ldst_regs *d);
void ldst_commit(const struct ldst_cfg *c, struct ldst_regs *q, const struct ldst_regs *d);
/* Registered outputs of state q (what the unit presents this cycle). */
void ldst_outputs(const struct ldst_regs *q, struct ldst_out *out);

/* Shared-memory bank conflicts: the largest number of distinct 4-byte words any one of the
   32 banks must deliver for this access (1 = conflict-free; same word broadcasts). */
uint32_t ldst_bank_degree(const uint64_t *addr, uint32_t mask, uint32_t bytes);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void ldst_storage(const struct ldst_cfg *c, struct cost_list *l);

#endif
