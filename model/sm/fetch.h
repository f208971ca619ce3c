/*
 * fetch.h -- instruction fetch: round-robin warp selection, I-cache, decode pipe and per-warp
 * I-buffer (one per SM).
 *
 * Hardware it stands for: the fetch and decode stages of a Fermi-like SM (as modelled by
 * GPGPU-Sim: `-gpgpu_cache:il1 4:128:4` = 4 sets x 4 ways x 128-byte lines = 2 KB, a
 * 2-entry I-buffer per warp; 004_23e173f444f46134.txt Section III "Fetch and Decode Stages":
 * the instruction fetch buffer is indexed by the physical warp ID).
 * The block has cfg.ports fetch ports (one I-cache tag read port and one decode pipe each);
 * slot w belongs to port w % ports (with ports = schedulers per SM, each scheduler's slots
 * have their own port, as slot w belongs to scheduler w % nsched).  Each cycle every port
 * chooses one of its slots round robin (starting after the last it chose) among the slots
 * whose pc is known (in.pc_v), whose I-buffer has a free entry (entries in decode count as
 * taken) and that are not waiting for an I-cache miss; ports are evaluated in order 0, 1, ...
 * on the same next state (I-cache LRU, MSHRs).  A port fetches from the slot's own next
 * fetch pc, or from in.pc (the SIMT stack's pc) after a flush or launch.  Instructions are
 * cfg.insn_bytes (8) bytes at code_base + pc * 8.  On a hit up to cfg.width consecutive
 * instructions of the line (no more than the I-buffer has room for) enter the port's decode
 * pipe and reach the I-buffer decode_cycles + 1 cycles later (fetched in cycle t, issuable in
 * cycle t + 1 + decode_cycles, as in GPGPU-Sim's fetch -> decode -> issue); on a miss an MSHR
 * (merging warps missing on the same line) sends an MK_IFETCH request for the line and the
 * warp waits for the fill, then fetches again (and hits).  The I-buffer holds instruction
 * indices (pcs): the SM decodes from ptx_prog.  Peak: ports x width instructions per cycle.
 *
 * Ports: flush per slot (the SM wires simt's `redirect`: the pc changed other than to pc+1,
 * or the slot got a new warp) and one consume port per scheduler (the head issued: the SM
 * presents, in cycle t, what it issued in cycle t-1 -- its issue latch).  Outputs are the
 * I-buffer heads after this cycle's consumes, flushes and decode arrivals.  Memory requests
 * use the valid/ready handshake described in simt.h (req_ready must not depend on req_v); the
 * fill response returns the request's tag (the MSHR index).  See docs/fetch.md.
 */
#ifndef FETCH_H
#define FETCH_H
#include <stddef.h>
#include <stdint.h>
#include "base/memreq.h"
#include "base/slotmask.h"

#define FETCH_MAX_SLOTS  SM_MAX_SLOTS
#define FETCH_MAX_IBUF   4         /* I-buffer entries per slot */
#define FETCH_MAX_DECODE 7         /* decode_cycles; the pipe has decode_cycles + 1 stages */
#define FETCH_MAX_SETS   64
#define FETCH_MAX_WAYS   8
#define FETCH_MAX_MSHR   4
#define FETCH_CONSUME_PORTS 4      /* one per scheduler (up to 4) */
#define FETCH_MAX_PORTS  4         /* fetch ports (warps fetched per cycle) */

struct fetch_cfg {
    uint8_t  nslots;               /* warp slots, 1..FETCH_MAX_SLOTS */
    uint8_t  ibuf_entries;         /* I-buffer entries per slot, 1..FETCH_MAX_IBUF (2) */
    uint8_t  width;                /* instructions per fetch, 1..ibuf_entries (1) */
    uint8_t  ports;                /* fetch ports = warps fetched per cycle, 1..FETCH_MAX_PORTS
                                      and <= nslots (1); slot w uses port w % ports */
    uint8_t  decode_cycles;        /* 0..FETCH_MAX_DECODE (1) */
    uint8_t  ic_sets;              /* power of two, 1..FETCH_MAX_SETS (4) */
    uint8_t  ic_ways;              /* 1..FETCH_MAX_WAYS (4) */
    uint8_t  insn_bytes;           /* power of two, 1..MEM_LINE_BYTES (8) */
    uint8_t  mshrs;                /* 1..FETCH_MAX_MSHR (2) */
    uint8_t  sm_id;                /* mem_req.sm */
    uint64_t code_base;            /* address of instruction 0, 128-byte aligned, < 2^38 */
};

struct fetch_regs {
    uint32_t ibuf_pc[FETCH_MAX_IBUF][FETCH_MAX_SLOTS]; /* [31:0] entry k of each slot (0 = head) */
    uint8_t  ibuf_n[FETCH_MAX_SLOTS];  /* [2:0] valid I-buffer entries */
    uint8_t  nfl[FETCH_MAX_SLOTS];     /* [2:0] instructions of the slot in the decode pipe */
    uint32_t npc[FETCH_MAX_SLOTS];     /* [31:0] next fetch pc */
    slotmask npc_v;                /* npc is meaningful (else fetch from in.pc) */
    slotmask hv;                   /* ibuf_n != 0 (registered flag) */
    slotmask full;                 /* ibuf_n + nfl == ibuf_entries (registered flag) */
    slotmask wait;                 /* waiting for an I-cache fill */
    uint8_t  rr[FETCH_MAX_PORTS];  /* [6:0] per port: last slot chosen */
    /* per port: the decode pipe (stage 0 = fetch) */
    uint8_t  dq_v[FETCH_MAX_PORTS];                          /* [7:0] stage valid bits */
    uint8_t  dq_slot[FETCH_MAX_PORTS][FETCH_MAX_DECODE + 1]; /* [6:0] */
    uint8_t  dq_n[FETCH_MAX_PORTS][FETCH_MAX_DECODE + 1];    /* [2:0] instructions, 1..width */
    uint32_t dq_pc[FETCH_MAX_PORTS][FETCH_MAX_DECODE + 1];   /* [31:0] first pc */
    uint8_t  ms_v;                 /* [3:0] MSHR valid */
    uint8_t  ms_sent;              /* [3:0] MSHR request accepted by memory */
    uint32_t ms_line[FETCH_MAX_MSHR];  /* [31:0] line number */
    slotmask ms_wait[FETCH_MAX_MSHR];  /* slots waiting for this line */
    /* I-cache arrays last: commit copies only the ic_sets sets in use */
    uint8_t  ic_v[FETCH_MAX_SETS];     /* [ways-1:0] way valid bits */
    uint8_t  ic_age[FETCH_MAX_SETS][FETCH_MAX_WAYS]; /* [2:0] LRU age, 0 = most recent */
    uint32_t ic_tag[FETCH_MAX_SETS][FETCH_MAX_WAYS]; /* [31:0] line number (address >> 7) */
};

struct fetch_consume {
    uint8_t v;                     /* [0] */
    uint8_t slot;                  /* [6:0] */
};

struct fetch_in {
    slotmask pc_v;                 /* slots that may fetch (live, not finished) */
    uint32_t pc[FETCH_MAX_SLOTS];  /* [31:0] their SIMT pc (used after a flush or launch) */
    uint32_t pc_end;               /* [31:0] program length: no fetch at or beyond */
    slotmask flush;                /* drop the slot's I-buffer and in-flight fetches */
    struct fetch_consume consume[FETCH_CONSUME_PORTS];
    uint8_t  req_ready;            /* [0] memory side accepts a request this cycle */
    uint8_t  fill_v;               /* [0] an I-cache line arrives */
    uint8_t  fill_tag;             /* [1:0] the MSHR index from the request's tag */
};

enum fetch_err { FETCH_E_SLOT = 1, FETCH_E_EMPTY = 2, FETCH_E_FILL = 4 };

struct fetch_out {
    slotmask head_v;               /* slots with an instruction at the I-buffer head */
    slotmask head_ok;              /* ... that is at in.pc (else a redirect is on its way) */
    uint32_t head_pc[FETCH_MAX_SLOTS]; /* [31:0] its pc (meaningful where head_v is set) */
    uint8_t  req_v;                /* [0] */
    struct mem_req req;            /* MK_IFETCH, one line */
    uint8_t  ev_fetch;             /* [2:0] I-cache lookups (one per port at most) */
    uint8_t  ev_hit, ev_miss;      /* [2:0] their outcomes */
    uint8_t  ev_mshr_full;         /* [2:0] misses that found no MSHR (retried later) */
    uint8_t  ev_insn;              /* [4:0] instructions entering decode (<= ports x width) */
    uint8_t  err;                  /* enum fetch_err bits: bad slot, consume of an empty
                                      I-buffer, fill for an idle MSHR (port ignored) */
};

void fetch_cfg_default(struct fetch_cfg *c);
int  fetch_cfg_check(const struct fetch_cfg *c, char *err, size_t errlen);
void fetch_reset(const struct fetch_cfg *c, struct fetch_regs *r);
void fetch_eval(const struct fetch_cfg *c, const struct fetch_regs *q, const struct fetch_in *in,
                struct fetch_out *out, struct fetch_regs *d);
/* Copies d to q: the per-slot arrays for the nslots in use, the I-buffer entries in use, the
   I-cache arrays for the sets in use (eval never writes others). */
/* After fetch_eval: 1 when it left d as q -- no consume, flush or fill, an empty decode pipe,
   no I-cache lookup and no request accepted (the SM then skips the commit). */
int  fetch_still(const struct fetch_cfg *c, const struct fetch_regs *q, const struct fetch_in *in,
                 const struct fetch_out *out);
void fetch_commit(const struct fetch_cfg *c, struct fetch_regs *q, const struct fetch_regs *d);
/* Nothing in the decode pipes: with no lookup, fill, flush, consume or request, an eval
   changes nothing. */
int  fetch_decode_empty(const struct fetch_cfg *c, const struct fetch_regs *q);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
uint32_t fetch_instances(const struct gpu_config *c);
void fetch_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct fetch_cfg *out);
/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void fetch_storage(const struct fetch_cfg *c, struct cost_list *l);

#endif
