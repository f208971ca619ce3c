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
 * Spill/fill: a push that finds the array full moves the bottom cfg.chunk entries out: they
 * appear on the spill port of the update port that pushed (out.spill[i]: the context's VWI,
 * the index of the chunk's first entry in that context's image, the entries), and the block
 * requests an MK_SPILL write of chunk x entry_bytes bytes at
 * spill_base + vwi * spill_stride + (entries already in memory) * entry_bytes; the warp is busy
 * until the memory side accepts the request.  The image itself (global memory, one per
 * context) is the SM's: it writes the spill port's entries into it (simt_image_write below).
 * A pop that finds the array empty while entries are in memory requests an MK_FILL read of
 * the top chunk; the warp is busy until the fill response (fill_v, fill_slot, and fill_ent:
 * the chunk read from the image at the request's address, simt_image_read) arrives, then the
 * chunk is back on chip and the pop is done in that cycle.  One request per cycle, round
 * robin over the warps needing one.
 * Request handshake: out.req is valid/ready: it transfers in a cycle where req_v and
 * in.req_ready are both 1; req_ready must not depend on req_v (it says the memory side has
 * room this cycle).  The block leaves mem_req.t_issue at 0: the SM stamps it.
 *
 * Contexts: a slot learns its context's VWI (virtual warp ID, 004 Section III) with the
 * launch (launch_vwi) and holds it; the spill addresses and the image are keyed by it.  The
 * save port reads a warp's whole state out of its slot (struct simt_state: pc, mask, rpc,
 * alive, VWI, the on-chip entries in stack order, the count in memory) and frees the slot;
 * the restore port writes such a state into a free slot instead of a launch, so a context
 * can leave its slot and come back in another (004 Section III-IV, VT's CTA swap).  Its
 * entries in memory stay in its image, keyed by the VWI.
 *
 * Timing of the ports (see docs/simt.md): the update ports take the instructions the SM
 * issued in the previous cycle (its issue latch) and every output reflects the state after
 * this cycle's inputs (pc, mask, busy, fin, redirect), so an instruction issued in cycle t-1
 * is visible to the issue logic in cycle t.
 *
 * Save and restore, in the cycle they are presented: a save reads the slot's registers as
 * they were at the start of the cycle (q) onto out.saved and leaves the slot as a reset
 * does (not live); a launch may take the slot in the same cycle, a restore from the next one.
 * A save needs a live slot that was not busy at the start of the cycle (out.busy of the
 * previous cycle) and that no update port names in this cycle: the SM saves a warp that it
 * did not issue in the previous cycle.  A finished warp can be saved (fin = 1).  A restore
 * needs a slot free at the start of the cycle (not live, or finished) that is not launched in
 * this cycle; the slot then holds the state: ring base 0, no timer or request, a pending pop
 * if pc == rpc or the mask is empty (unless finished), redirect set.  Anything else is an
 * error (SIMT_E_SAVE, SIMT_E_RESTORE) and changes nothing.  A warp saved and restored goes on
 * exactly as it would have in its old slot.
 *
 * DWS (002_ddcb2f79a6edfee4.txt, dynamic warp subdivision; docs/simt.md "DWS"): a warp may
 * hold several slots (its home and split slots).  A slot with `hold` is in the split regime;
 * at its regime level (depth == hdepth) it does not pop: at pc == rpc (the regime's
 * reconvergence point) it is arrived (busy, out.arr), and with no lane in its mask it parks
 * at the rpc, unfinished.  The update port's split_v splits a divergent branch into a free
 * slot (not-taken lanes at pc + 1, no push); the split port moves run-ahead lanes of a load
 * into a free slot; the merge port joins two slots at their regime level; the release port
 * ends the regime of a slot (it then pops as any warp).  Refused ports: SIMT_E_SPLIT,
 * SIMT_E_MERGE, SIMT_E_REL.  Without DWS (cfg.dws 0) these inputs are not looked at and
 * hold stays 0.
 */
#ifndef SIMT_H
#define SIMT_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "base/memreq.h"
#include "base/slotmask.h"

#define SIMT_MAX_DEPTH 32          /* on-chip entries per warp */
#define SIMT_MAX_CHUNK 16          /* entries per spill / fill */
#define SIMT_MAX_SPILL 112         /* entries per context the memory image can hold */
#define SIMT_UPD_PORTS 4           /* update ports: one per scheduler (up to 4) */
#define SIMT_NO_PC     0xffffffffu /* rpc of a warp outside any divergent region */

enum simt_policy { SIMT_TOKEN = 0, SIMT_IPDOM, SIMT_NPOLICY };
enum simt_type   { SIMT_SYNC = 0, SIMT_DIV = 1 };
enum simt_kind   { SIMT_NORMAL = 0, SIMT_BRANCH, SIMT_EXIT };  /* barrier = NORMAL */

struct simt_cfg {
    uint8_t  nwarps;               /* warp slots, 1..SM_MAX_SLOTS */
    uint8_t  policy;               /* enum simt_policy */
    uint8_t  depth;                /* on-chip entries per warp, 2..SIMT_MAX_DEPTH (16) */
    uint8_t  chunk;                /* entries per spill/fill, 2..depth, <= SIMT_MAX_CHUNK (4) */
    uint8_t  entry_bytes;          /* bytes per entry in memory (8: the 64-bit token) */
    uint8_t  pop_cycles;           /* busy cycles after each pop (0) */
    uint8_t  fill_cycles;          /* extra busy cycles after a fill returns (0) */
    uint8_t  sm_id;                /* mem_req.sm of this SM */
    uint64_t spill_base;           /* memory image of VWI 0, 128-byte aligned */
    uint32_t spill_stride;         /* bytes per VWI, 128-byte multiple */
    uint8_t  dws;                  /* [0] DWS on: the DWS ports work and hold/hdepth are
                                      priced; off: the DWS inputs are not looked at and
                                      hold/hdepth stay 0 (always in the regs) */
};

struct simt_ent {
    uint32_t pc;                   /* [31:0] pc to resume at */
    uint32_t rpc;                  /* [31:0] rpc to resume with (SIMT_NO_PC = none) */
    uint32_t mask;                 /* [31:0] lanes */
    uint8_t  type;                 /* [0]    enum simt_type */
};

struct simt_regs {
    /* per warp slot */
    uint32_t pc[SM_MAX_SLOTS];     /* [31:0] current pc */
    uint32_t mask[SM_MAX_SLOTS];   /* [31:0] active mask */
    uint32_t rpc[SM_MAX_SLOTS];    /* [31:0] current reconvergence pc (SIMT_NO_PC) */
    uint32_t alive[SM_MAX_SLOTS];  /* [31:0] lanes launched and not exited */
    uint8_t  cnt[SM_MAX_SLOTS];    /* [5:0]  on-chip entries, 0..depth */
    uint8_t  base[SM_MAX_SLOTS];   /* [4:0]  ring index of the bottom on-chip entry */
    uint8_t  nspill[SM_MAX_SLOTS]; /* [6:0]  entries in memory (a multiple of chunk) */
    uint8_t  timer[SM_MAX_SLOTS];  /* [7:0]  pop-latency cycles left */
    uint8_t  vwi[SM_MAX_SLOTS];    /* [7:0]  the context's VWI: its image in memory */
    uint8_t  hdepth[SM_MAX_SLOTS]; /* [6:0]  DWS: the depth of the slot's regime level */
    slotmask live;                 /* slot holds a launched or restored warp */
    slotmask fin;                  /* warp finished: no live lane (or nothing left) */
    slotmask spq;                  /* spill request waiting to be accepted */
    slotmask flq;                  /* fill request waiting to be accepted */
    slotmask flw;                  /* fill request accepted, waiting for the response */
    slotmask popq;                 /* another pop is due (pc == rpc, or empty mask) */
    slotmask tmr;                  /* timer != 0 */
    slotmask hold;                 /* DWS: the warp is in the split regime (see below) */
    uint8_t  rr;                   /* [6:0] last warp granted the memory port (< nwarps) */
    /* on-chip stack array: depth entries per warp used */
    struct simt_ent stk[SM_MAX_SLOTS][SIMT_MAX_DEPTH];
};

/* A warp's state apart from its slot: what the save port reads out and the restore port
   writes in.  Its entries in memory stay in the context's image (keyed by vwi). */
struct simt_state {
    uint32_t pc;                   /* [31:0] */
    uint32_t mask;                 /* [31:0] */
    uint32_t rpc;                  /* [31:0] */
    uint32_t alive;                /* [31:0] */
    uint8_t  vwi;                  /* [7:0] */
    uint8_t  fin;                  /* [0]   finished (mask 0, nothing saved) */
    uint8_t  cnt;                  /* [5:0] on-chip entries, 0..depth */
    uint8_t  nspill;               /* [6:0] entries in the image, a multiple of chunk */
    uint8_t  hold;                 /* [0]   DWS: in the split regime */
    uint8_t  hdepth;               /* [6:0] DWS: depth of its regime level */
    struct simt_ent ent[SIMT_MAX_DEPTH];   /* the on-chip entries, bottom first; save: 0
                                              beyond cnt; restore: read below cnt only */
};

struct simt_upd {                  /* one issued instruction's control outcome */
    uint8_t  v;                    /* [0]   valid */
    uint8_t  slot;                 /* [6:0] warp slot */
    uint8_t  kind;                 /* [1:0] enum simt_kind */
    uint32_t taken;                /* [31:0] BRANCH: lanes taking it (ANDed with the mask) */
    uint32_t target;               /* [31:0] BRANCH: target pc */
    uint32_t reconv;               /* [31:0] BRANCH: reconvergence pc R (cfg reconv[pc]) */
    uint32_t exited;               /* [31:0] EXIT: lanes that exit */
    uint8_t  split_v;              /* [0]   DWS BRANCH: a divergent outcome splits the warp */
    uint8_t  split_slot;           /* [6:0] ... the free slot taking the not-taken lanes */
    uint8_t  split_img;            /* [7:0] ... its spill image (its vwi) */
};

struct simt_msplit {               /* DWS memory split: lanes of src run ahead in dst */
    uint8_t  v;                    /* [0] */
    uint8_t  src;                  /* [6:0] */
    uint8_t  dst;                  /* [6:0] a free slot */
    uint32_t lanes;                /* [31:0] a non-empty proper subset of src's mask */
    uint8_t  img;                  /* [7:0] dst's spill image (its vwi) */
};

struct simt_merge {                /* DWS merge: src's lanes join dst, src is freed */
    uint8_t  v;                    /* [0] */
    uint8_t  dst;                  /* [6:0] */
    uint8_t  src;                  /* [6:0] */
};

struct simt_rel {                  /* DWS release: the slot leaves the split regime */
    uint8_t  v;                    /* [0] */
    uint8_t  slot;                 /* [6:0] */
};

struct simt_in {
    struct simt_upd upd[SIMT_UPD_PORTS];
    slotmask launch;                       /* slots receiving a new warp: pc 0, empty stack */
    uint32_t launch_mask[SM_MAX_SLOTS];    /* [31:0] its live lanes (read where launch set) */
    uint8_t  launch_vwi[SM_MAX_SLOTS];     /* [7:0]  its context's VWI (read where launch set) */
    uint8_t  save_v;                       /* [0]   read a warp's state out, free its slot */
    uint8_t  save_slot;                    /* [6:0] */
    uint8_t  restore_v;                    /* [0]   write a saved state into a free slot */
    uint8_t  restore_slot;                 /* [6:0] */
    struct simt_state restore;             /* (read where restore_v) */
    uint8_t  req_ready;                    /* [0] memory side accepts a request this cycle */
    uint8_t  fill_v;                       /* [0] a fill response arrives */
    uint8_t  fill_slot;                    /* [6:0] for this warp slot */
    struct simt_ent fill_ent[SIMT_MAX_CHUNK];   /* the chunk read from the image, bottom
                                                   first (read where fill_v, below chunk) */
    struct simt_msplit split;              /* DWS ports (idle without DWS) */
    struct simt_merge merge;
    struct simt_rel rel;
};

enum simt_err {                    /* out.err bits; out.err_slot names the (last) warp */
    SIMT_E_SLOT = 1,               /* a port named a slot >= nwarps, or two updates one slot */
    SIMT_E_BUSY = 2,               /* update for a warp that is busy, finished or not live */
    SIMT_E_OVERFLOW = 4,           /* push beyond depth + SIMT_MAX_SPILL: update ignored */
    SIMT_E_RECONV = 8,             /* divergent branch without a reconvergence pc: ignored */
    SIMT_E_FILL = 16,              /* fill response for a warp not waiting for one */
    SIMT_E_STACK = 32,             /* pc reached rpc with nothing to pop (rpc cleared) */
    SIMT_E_SAVE = 64,              /* save of a slot >= nwarps, not live, busy, or updated in
                                      the same cycle: nothing saved, the slot unchanged */
    SIMT_E_RESTORE = 128,          /* restore into a slot >= nwarps, a live unfinished one,
                                      one launched in the same cycle, or of a state with cnt >
                                      depth, nspill > SIMT_MAX_SPILL or not a multiple of
                                      chunk: ignored */
    SIMT_E_SPLIT = 256,            /* DWS: a split whose preconditions fail: a divergent
                                      branch with split_v is done as a normal branch, the
                                      memory split is ignored */
    SIMT_E_MERGE = 512,            /* DWS: a merge whose preconditions fail: ignored */
    SIMT_E_REL = 1024              /* DWS: a release whose preconditions fail: ignored */
};

struct simt_spill {                /* a chunk moved out by a push, for the image */
    uint8_t  v;                    /* [0] */
    uint8_t  vwi;                  /* [7:0] the context whose image takes it */
    uint8_t  idx;                  /* [6:0] index of its first entry in that image */
    struct simt_ent ent[SIMT_MAX_CHUNK];   /* bottom first (chunk entries) */
};

struct simt_out {
    uint32_t pc[SM_MAX_SLOTS];     /* [31:0] per slot, after this cycle's inputs */
    uint32_t mask[SM_MAX_SLOTS];   /* [31:0] */
    slotmask busy;                 /* cannot issue: spill/fill/pop in progress */
    slotmask fin;                  /* finished warps */
    slotmask redirect;             /* pc changed other than to pc+1 (or launch, restore): flush
                                      fetch */
    uint8_t  req_v;                /* [0] memory request valid */
    struct mem_req req;            /* MK_SPILL / MK_FILL (meaningful where req_v) */
    struct simt_spill spill[SIMT_UPD_PORTS];   /* spill[i]: caused by update port i (fields
                                                  meaningful where v) */
    uint8_t  saved_v;              /* [0] the save port's state (meaningful where saved_v) */
    struct simt_state saved;
    uint8_t  ev_push, ev_pop;      /* [3:0] pushed, [7:0] popped this cycle (every warp may pop) */
    uint8_t  ev_spill, ev_fill;    /* [2:0] spilled, [1:0] filled chunks this cycle */
    uint8_t  ev_depth;             /* [7:0] max stack depth (on chip + memory) reached by an
                                      update this cycle, 0 if none pushed */
    slotmask lvl;                  /* DWS: slots at their regime level */
    slotmask arr;                  /* DWS: at regime level and arrived (pc == rpc, or parked
                                      empty: mask 0); part of busy */
    uint16_t err;                  /* [10:0] enum simt_err bits (0 = all well) */
    uint8_t  err_slot;             /* [6:0] */
};

/* The spill image of one context: global memory, outside the block (the SM owns one per
   context it allocates; tests and harnesses their own). */
struct simt_image {
    struct simt_ent e[SIMT_MAX_SPILL];
};

void simt_cfg_default(struct simt_cfg *c);
int  simt_cfg_check(const struct simt_cfg *c, char *err, size_t errlen);
void simt_reset(const struct simt_cfg *c, struct simt_regs *r);
void simt_eval(const struct simt_cfg *c, const struct simt_regs *q, const struct simt_in *in,
               struct simt_out *out, struct simt_regs *d);
/* 1 when simt_eval with these inputs leaves d as q: no update, launch, save, restore, fill or
   DWS port, and no timer, pending pop or memory request (the SM then skips the commit). */
int  simt_still(const struct simt_cfg *c, const struct simt_regs *q, const struct simt_in *in);
/* Copies d to q: the per-warp registers always, a warp's stack array only when its
   cnt/base/nspill changed or it was (re)filled by a restore (live or fin changed): every
   array write changes one of them. */
void simt_commit(const struct simt_cfg *c, struct simt_regs *q, const struct simt_regs *d);
/* Entries on the stack of warp w (on chip + memory) */
static inline unsigned simt_depth(const struct simt_regs *r, unsigned w)
{
    return (unsigned)r->cnt[w] + r->nspill[w];
}
const char *simt_policy_name(unsigned p);
/* DWS: slot w is at its regime level (holding, and its depth is hdepth) */
static inline int simt_at_lvl(const struct simt_regs *r, unsigned w)
{
    return slot_has(r->hold, w) && simt_depth(r, w) == r->hdepth[w];
}
/* Slots busy with their stack: a spill or fill to send or waiting, a pop due or its timer
   running (out.busy is these and out.arr) */
static inline slotmask simt_working(const struct simt_regs *r)
{
    return r->spq | r->flq | r->flw | r->popq | r->tmr;
}
/* DWS: slot w is arrived: at its regime level at pc == rpc or with no lane in its mask */
static inline int simt_arrived(const struct simt_regs *r, unsigned w)
{
    return simt_at_lvl(r, w) && slot_has(r->live & ~r->fin, w) &&
           (r->pc[w] == r->rpc[w] || r->mask[w] == 0);
}

/* The memory side (not the block): byte address of entry idx of context vwi's image, and
   back (0, or -1 when the address is not in the image of a context < nctx). */
uint64_t simt_image_addr(const struct simt_cfg *c, unsigned vwi, unsigned idx);
int  simt_image_locate(const struct simt_cfg *c, uint64_t addr, unsigned nctx, unsigned *vwi,
                       unsigned *idx);
/* Write this cycle's spilled chunks (out.spill) into img[0..nctx-1]; returns the number of
   chunks for a VWI >= nctx (dropped). */
unsigned simt_image_write(const struct simt_cfg *c, const struct simt_out *out,
                          struct simt_image *img, unsigned nctx);
/* The fill data of a MK_FILL response r (the request as sent) from img: ent[0..chunk-1].
   Returns 0, or -1 when r's address is outside the images (ent cleared). */
int  simt_image_read(const struct simt_cfg *c, const struct simt_image *img, unsigned nctx,
                     const struct mem_req *r, struct simt_ent *ent);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
uint32_t simt_instances(const struct gpu_config *c);
void simt_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct simt_cfg *out);
void simt_rtl_params(const struct simt_cfg *c, FILE *f);
/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void simt_storage(const struct simt_cfg *c, struct cost_list *l);

#endif
