/*
 * simt.h -- SIMT reconvergence stack with spill/fill (one per SM, holding every warp slot).
 *
 * Hardware it stands for: the per-warp branch synchronization stack of a Fermi/Kepler SM
 * (003_a1f13061b22d54a6.txt Section III and IV; 004_23e173f444f46134.txt Section III, the
 * cached SIMT stack spilling to global memory).  Per warp slot the current pc (instruction
 * index), active mask and reconvergence pc (rpc) are registers; saved entries (pc, rpc, mask,
 * type SYNC/DIV) live in an on-chip array of cfg.depth entries per warp, a ring whose bottom
 * chunk is spilled to memory when a push finds it full and filled back when a pop finds it
 * empty.
 *
 * Divergent branch at pc (lanes `taken` go to `target`, the rest fall through), reconvergence
 * R = the IPDOM pc from flow.h's reconv[]:
 *   - a SYNC entry (R, rpc, mask) is pushed when R != rpc (a new region; the lazily executed
 *     SSY of the token model -- the token is only needed once the warp has diverged);
 *   - a DIV entry (pc+1, R, not-taken) is pushed: always under SIMT_TOKEN (the token machine
 *     cannot tell that the fall-through is the sync point: the DIV token then lands on it and
 *     pops again, the paper's repeated NOP.S unwinding), only when pc+1 != R under SIMT_IPDOM
 *     (Fung et al. / GPGPU-Sim: lanes already at R just wait in the SYNC entry);
 *   - the taken lanes continue at target with rpc = R; if target == R they are already at R:
 *     the warp pops at once (the DIV entry, so it runs the not-taken lanes).
 * So the paper's single loop (M divergent exit branches, R = pc+1) reaches M+1 entries under
 * SIMT_TOKEN (one SYNC, then one DIV per divergent iteration) and 1 under SIMT_IPDOM.
 * A uniform branch just moves pc.  Whenever pc reaches rpc the warp pops one entry: pc, rpc
 * and mask come from the entry (mask AND the lanes still alive).  A pop whose result needs
 * another pop (pc == rpc again, or no live lane) leaves the warp busy and pops again in a
 * later cycle: one pop per warp per cycle, each followed by cfg.pop_cycles busy cycles.
 * Exits remove lanes from `alive` (applied to every entry when it is popped, so also to
 * spilled entries when they come back); a warp with no live lane is finished and drops its
 * stack.
 *
 * Spill/fill: a push that finds the array full moves the bottom cfg.chunk entries to the
 * memory image (mem[], below) and requests an MK_SPILL write of chunk x entry_bytes bytes at
 * spill_base + slot * spill_stride + (entries already in memory) * entry_bytes; the warp is
 * busy until the memory side accepts the request.  A pop that finds the array empty while
 * entries are in memory requests an MK_FILL read of the top chunk; the warp is busy until the
 * fill response (fill_v, fill_slot) arrives, then the chunk is back on chip and the pop is
 * done in that cycle.  One request per cycle, round robin over the warps needing one.
 * Request handshake: out.req is valid/ready: it transfers in a cycle where req_v and
 * in.req_ready are both 1; req_ready must not depend on req_v (it says the memory side has
 * room this cycle).  The block leaves mem_req.t_issue at 0: the SM stamps it.
 *
 * Timing of the ports (see docs/simt.md): the update ports take the instructions the SM
 * issued in the previous cycle (its issue latch) and every output reflects the state after
 * this cycle's inputs (pc, mask, busy, fin, redirect), so an instruction issued in cycle t-1
 * is visible to the issue logic in cycle t.
 */
#ifndef SIMT_H
#define SIMT_H
#include <stddef.h>
#include <stdint.h>
#include "base/memreq.h"

#define SIMT_MAX_WARPS 64          /* warp slots per SM */
#define SIMT_MAX_DEPTH 32          /* on-chip entries per warp */
#define SIMT_MAX_SPILL 112         /* entries per warp the memory image can hold */
#define SIMT_UPD_PORTS 4           /* update ports: one per scheduler (up to 4) */
#define SIMT_NO_PC     0xffffffffu /* rpc of a warp outside any divergent region */

enum simt_policy { SIMT_TOKEN = 0, SIMT_IPDOM, SIMT_NPOLICY };
enum simt_type   { SIMT_SYNC = 0, SIMT_DIV = 1 };
enum simt_kind   { SIMT_NORMAL = 0, SIMT_BRANCH, SIMT_EXIT };  /* barrier = NORMAL */

struct simt_cfg {
    uint8_t  nwarps;               /* warp slots, 1..SIMT_MAX_WARPS */
    uint8_t  policy;               /* enum simt_policy */
    uint8_t  depth;                /* on-chip entries per warp, 2..SIMT_MAX_DEPTH (16) */
    uint8_t  chunk;                /* entries per spill/fill, 2..depth (4) */
    uint8_t  entry_bytes;          /* bytes per entry in memory (8: the 64-bit token) */
    uint8_t  pop_cycles;           /* busy cycles after each pop (0) */
    uint8_t  fill_cycles;          /* extra busy cycles after a fill returns (0) */
    uint8_t  sm_id;                /* mem_req.sm of this SM */
    uint64_t spill_base;           /* memory image of warp 0, 128-byte aligned */
    uint32_t spill_stride;         /* bytes per warp, 128-byte multiple */
};

struct simt_ent {
    uint32_t pc;                   /* [31:0] pc to resume at */
    uint32_t rpc;                  /* [31:0] rpc to resume with (SIMT_NO_PC = none) */
    uint32_t mask;                 /* [31:0] lanes */
    uint8_t  type;                 /* [0]    enum simt_type */
};

struct simt_regs {
    /* per warp slot */
    uint32_t pc[SIMT_MAX_WARPS];       /* [31:0] current pc */
    uint32_t mask[SIMT_MAX_WARPS];     /* [31:0] active mask */
    uint32_t rpc[SIMT_MAX_WARPS];      /* [31:0] current reconvergence pc (SIMT_NO_PC) */
    uint32_t alive[SIMT_MAX_WARPS];    /* [31:0] lanes launched and not exited */
    uint8_t  cnt[SIMT_MAX_WARPS];      /* [5:0]  on-chip entries, 0..depth */
    uint8_t  base[SIMT_MAX_WARPS];     /* [4:0]  ring index of the bottom on-chip entry */
    uint8_t  nspill[SIMT_MAX_WARPS];   /* [6:0]  entries in memory (a multiple of chunk) */
    uint8_t  timer[SIMT_MAX_WARPS];    /* [7:0]  pop-latency cycles left */
    uint64_t live;                 /* slot holds a launched warp */
    uint64_t fin;                  /* warp finished: no live lane (or nothing left) */
    uint64_t spq;                  /* spill request waiting to be accepted */
    uint64_t flq;                  /* fill request waiting to be accepted */
    uint64_t flw;                  /* fill request accepted, waiting for the response */
    uint64_t popq;                 /* another pop is due (pc == rpc, or empty mask) */
    uint64_t tmr;                  /* timer != 0 */
    uint8_t  rr;                   /* [5:0] last warp granted the memory port */
    /* on-chip stack array: depth entries per warp used */
    struct simt_ent stk[SIMT_MAX_WARPS][SIMT_MAX_DEPTH];
    /* NOT ON-CHIP STORAGE: the contents of the spill area in global memory (what a fill
       reads back). The cost estimator must exclude this array. */
    struct simt_ent mem[SIMT_MAX_WARPS][SIMT_MAX_SPILL];
};

struct simt_upd {                  /* one issued instruction's control outcome */
    uint8_t  v;                    /* [0]   valid */
    uint8_t  slot;                 /* [5:0] warp slot */
    uint8_t  kind;                 /* [1:0] enum simt_kind */
    uint32_t taken;                /* [31:0] BRANCH: lanes taking it (ANDed with the mask) */
    uint32_t target;               /* [31:0] BRANCH: target pc */
    uint32_t reconv;               /* [31:0] BRANCH: reconvergence pc R (cfg reconv[pc]) */
    uint32_t exited;               /* [31:0] EXIT: lanes that exit */
};

struct simt_in {
    struct simt_upd upd[SIMT_UPD_PORTS];
    uint64_t launch;                       /* slots receiving a new warp: pc 0, empty stack */
    uint32_t launch_mask[SIMT_MAX_WARPS];  /* [31:0] its live lanes (read where launch set) */
    uint8_t  req_ready;                    /* [0] memory side accepts a request this cycle */
    uint8_t  fill_v;                       /* [0] a fill response arrives */
    uint8_t  fill_slot;                    /* [5:0] for this warp slot */
};

enum simt_err {                    /* out.err bits; out.err_slot names the (last) warp */
    SIMT_E_SLOT = 1,               /* a port named a slot >= nwarps, or two updates one slot */
    SIMT_E_BUSY = 2,               /* update for a warp that is busy, finished or not live */
    SIMT_E_OVERFLOW = 4,           /* push beyond depth + SIMT_MAX_SPILL: update ignored */
    SIMT_E_RECONV = 8,             /* divergent branch without a reconvergence pc: ignored */
    SIMT_E_FILL = 16,              /* fill response for a warp not waiting for one */
    SIMT_E_STACK = 32              /* pc reached rpc with nothing to pop (rpc cleared) */
};

struct simt_out {
    uint32_t pc[SIMT_MAX_WARPS];   /* [31:0] per slot, after this cycle's inputs */
    uint32_t mask[SIMT_MAX_WARPS]; /* [31:0] */
    uint64_t busy;                 /* cannot issue: spill/fill/pop in progress */
    uint64_t fin;                  /* finished warps */
    uint64_t redirect;             /* pc changed other than to pc+1 (or launch): flush fetch */
    uint8_t  req_v;                /* [0] memory request valid */
    struct mem_req req;            /* MK_SPILL / MK_FILL */
    uint8_t  ev_push, ev_pop;      /* [3:0] pushed, [7:0] popped this cycle (every warp may pop) */
    uint8_t  ev_spill, ev_fill;    /* [2:0] spilled, [1:0] filled chunks this cycle */
    uint8_t  ev_depth;             /* [7:0] max stack depth (on chip + memory) reached by an
                                      update this cycle, 0 if none pushed */
    uint8_t  err;                  /* enum simt_err bits (0 = all well) */
    uint8_t  err_slot;             /* [5:0] */
};

void simt_cfg_default(struct simt_cfg *c);
int  simt_cfg_check(const struct simt_cfg *c, char *err, size_t errlen);
void simt_reset(const struct simt_cfg *c, struct simt_regs *r);
void simt_eval(const struct simt_cfg *c, const struct simt_regs *q, const struct simt_in *in,
               struct simt_out *out, struct simt_regs *d);
/* Copies d to q: the per-warp registers always, a warp's stack array only when its
   cnt/base/nspill changed (every array write changes one of them). */
void simt_commit(const struct simt_cfg *c, struct simt_regs *q, const struct simt_regs *d);
/* Entries on the stack of warp w (on chip + memory) */
static inline unsigned simt_depth(const struct simt_regs *r, unsigned w)
{
    return (unsigned)r->cnt[w] + r->nspill[w];
}
const char *simt_policy_name(unsigned p);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void simt_storage(const struct simt_cfg *c, struct cost_list *l);

#endif
