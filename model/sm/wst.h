/*
 * wst.h -- DWS's warp-split table (002_ddcb2f79a6edfee4.txt, slides "Implementation: DWS Upon
 * Branch Divergence" figure (e), "Implementation: Reconvergence Challenges", "DWS Strategies
 * for Miss Reconvergence", "Results (1)", backup "WST Hardware Overhead"; the lead's design
 * /work/wt/dws-design.md sections 1 and 4). One instance per SM when dws != off.
 *
 * Hardware it stands for: the table of warp splits. The SM has nwarps home slots (0..nwarps-1,
 * bound to the warps' contexts) and nent split slots; entry e is slot nwarps + e. Per entry:
 * valid, the warp ID (home slot), the 2-bit status (READY / SUSP waiting on memory / ARR
 * arrived at the regime's reconvergence point) and the priority (popcount of its lanes); per
 * slot (home and split): the owned lanes (own: the slides' active mask, exited lanes included)
 * and mflag (took part in a merge while a scoreboard row was non-empty: may not split until its
 * row is empty); per home: reg_on (the warp is in the WST regime); the PC matcher's round-robin
 * pointer rr and its registered merge candidate cand. The entry's PC and live mask are simt's
 * registers of its slot (pc, mask): they arrive on ports.
 *
 * Ports (in, this cycle): launch (home slots launched) + launch_lanes[home]; pc[slot]; the
 * slotmasks lvl, arr (simt: at regime level; arrived), busy (simt: stack work left: a spill,
 * a fill, a pop or its timer; arrival alone is not busy), live, empty (simt: mask 0), susp
 * (the SM: I-buffer head waits on a long-latency register), issued (slots that issued),
 * sb_any (sb: a pending bit in the row); mok (sb's mchk answer for q.cand); bsplit {v, src,
 * lanes = not-taken lanes} (a divergent branch that splits: the SM decided on out.free_v);
 * mcand {v, src, lanes = completed lanes, ld_lanes = the load's lanes, part_hit}.
 * (out, for the next cycle, from the state after this cycle): free_v, free (the lowest free
 * entry's slot), full, nvalid, cand, nosplit (mflag). (out, this cycle's decisions, applied
 * by the SM in the next cycle): msplit {v, src, dst, lanes}, merge {v, dst, src}, rel {v,
 * slot}, free_mask.
 * (out, from q): prio_key[slot] (widest split first: popcount of the owned lanes; 0 for free
 * entries and slots >= nslots), nsusp, narr (valid entries whose status is SUSP / ARR).
 * Events: ev_bsplit, ev_msplit, ev_merge_pc, ev_merge_rpc (the destination was arrived at G),
 * ev_runahead_lanes, ev_mref (why this cycle's mcand was not split, enum wst_mref). err.
 *
 * Latency: Mealy for the decisions (merge, msplit, rel follow this cycle's inputs); the
 * candidate chosen in cycle t is confirmed or dropped in t+1 (one cycle of latency: "not
 * latency critical due to multithreading").
 *
 * Order inside wst_eval (on d, equal to q on entry): launch; mflag clears where the row is
 * empty; the merge of q.cand (confirmed: both slots live, at regime level, not busy, not
 * issued, mok, same warp, same pc but not a latency pair (wst_latency_pair: one of them waits
 * on memory, the other not) -- or src empty, or dst a split slot that is empty, or dst the
 * home that is empty with src its warp's only split -- and not named by bsplit); bsplit;
 * mcand (the variant's policy, only when no bsplit took the free entry); status; the release
 * (the lowest home in the regime with no entry left); the PC matcher (the next candidate, rr).
 *
 * Memory-split policy (slides "Results (1)"): off / branch never; aggress always (when
 * eligible); lazy when nactive <= 1 (live slots neither arrived nor suspended) and src is a
 * home; revive and revive_mem when nactive <= 1 (a suspended split may be split again).
 * Eligibility: a free entry (q) not taken by bsplit, src live (a home or a valid entry),
 * own[src] == ld_lanes, src at regime level or its warp not in the regime, !busy, !mflag (q),
 * lanes neither empty nor all of own[src], part_hit, src not in this cycle's merge.
 *
 * PC matcher: the first entry at or after q.rr (round robin) whose slot is live, at regime
 * level and not busy (on the state after this cycle's merge and splits); rr := that entry + 1
 * (else rr + 1). Its partner: the home if it is live, at regime level, not busy and (same pc
 * and not a latency pair, or the entry's slot is empty, or the home is empty and the entry is
 * its warp's only split) -> cand {dst = home, src = entry}; else the lowest other entry of
 * the same warp, live, at regime level, not busy, with the same pc (not a latency pair) or
 * either slot empty -> {dst = lower slot, src = higher}.
 *
 * err bits (the offending port is ignored):
 *   WST_E_LAUNCH  launch of a slot >= nwarps or of a home whose warp is in the regime
 *   WST_E_BSPLIT  bsplit with no free entry, src >= nslots, not live, a free entry's slot,
 *                 in the regime but not at regime level, mflag set, or lanes empty, outside
 *                 own[src] or all of it
 *   WST_E_MCAND   mcand with src >= nslots or lanes outside ld_lanes
 */
#ifndef WST_H
#define WST_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/slotmask.h"

#define WST_MAX_WARPS  64          /* home slots (6-bit warp ID) */
#define WST_LANES      32          /* lanes of a warp: own[] is 32 bits */
#define WST_STATUS_BITS 2          /* READY / SUSP / ARR */
#define WST_PRIO_BITS  6           /* popcount of 32 lanes: 0..32 */

enum wst_status { WST_READY = 0, WST_SUSP = 1, WST_ARR = 2 };
enum wst_err { WST_E_LAUNCH = 1, WST_E_BSPLIT = 2, WST_E_MCAND = 4 };
/* Why a memory-split candidate (mcand) was not split (out.ev_mref; the first that holds, in
   this order): OTHER not a hit/miss divergence of the slot's own lanes (no hit, the source not
   live, its lanes not the load's, none or all of them completed); NESTED the source is inside
   a nested region (its warp in the regime, the slot not at its regime level); BUSY stack work
   left, mflag, or in this cycle's merge; POLICY the variant's rule; BRANCH this cycle's branch
   split took the free entry; FULL no free entry. */
enum wst_mref { WST_MR_NONE = 0, WST_MR_OTHER, WST_MR_NESTED, WST_MR_BUSY, WST_MR_POLICY,
                WST_MR_BRANCH, WST_MR_FULL, WST_MR_N };

struct wst_cfg {
    uint8_t nwarps;                /* home slots, 1..64 */
    uint8_t nent;                  /* entries = split slots nwarps..nwarps+nent-1; nwarps + nent
                                      <= SM_MAX_SLOTS */
    uint8_t variant;               /* enum conf_dws: the memory-split policy */
    uint8_t lanes;                 /* lanes per warp: 32 */
};

struct wst_pair {
    uint8_t v;                     /* [0] */
    uint8_t dst, src;              /* [6:0] each (clog2(nslots) bits in a register) */
};

struct wst_regs {
    slotmask valid;                /* [nent-1:0] entry valid, by entry */
    uint8_t  home[SM_MAX_SLOTS];   /* [5:0] warp ID (home slot), clog2(nwarps) bits, by entry */
    uint8_t  status[SM_MAX_SLOTS]; /* [1:0] enum wst_status, by entry (0 when free) */
    uint8_t  prio[SM_MAX_SLOTS];   /* [5:0] popcount(own) of the entry's slot, by entry */
    uint32_t own[SM_MAX_SLOTS];    /* [31:0] owned lanes, by slot (homes and entries) */
    slotmask mflag;                /* [nslots-1:0] merged with a non-empty row: no split */
    uint64_t reg_on;               /* [nwarps-1:0] the warp is in the WST regime, by home */
    uint8_t  rr;                   /* [6:0] PC matcher's next entry, clog2(nent) bits */
    struct wst_pair cand;          /* the merge candidate for the next cycle */
};

struct wst_split {                 /* bsplit */
    uint8_t  v;                    /* [0] */
    uint8_t  src;                  /* [6:0] the slot that issued the divergent branch */
    uint32_t lanes;                /* [31:0] the not-taken lanes (go to the new slot) */
};

struct wst_mcand {                 /* a partial load completion */
    uint8_t  v;                    /* [0] */
    uint8_t  src;                  /* [6:0] the slot that issued the load (cpl_warp) */
    uint32_t lanes;                /* [31:0] completed lanes (run ahead if accepted) */
    uint32_t ld_lanes;             /* [31:0] the lanes the load was issued with */
    uint8_t  part_hit;             /* [0] the completed lanes include an L1 hit */
};

struct wst_in {
    uint64_t launch;               /* [63:0] home slots launched this cycle */
    uint32_t launch_lanes[WST_MAX_WARPS];   /* [31:0] their lanes */
    uint32_t pc[SM_MAX_SLOTS];     /* [31:0] simt pc per slot */
    slotmask lvl, arr, empty;      /* simt: at regime level; arrived; mask 0 */
    slotmask busy, live;           /* simt: stack work left (may not merge or split); live */
    slotmask susp;                 /* the SM: I-buffer head waits on long-latency memory */
    slotmask issued;               /* slots that issued this cycle */
    slotmask sb_any;               /* sb: a pending bit in the slot's row */
    uint8_t  mok;                  /* [0] sb: rows q.cand.dst and q.cand.src are disjoint */
    struct wst_split bsplit;
    struct wst_mcand mcand;
};

struct wst_msplit {
    uint8_t  v;                    /* [0] */
    uint8_t  src, dst;             /* [6:0] each */
    uint32_t lanes;                /* [31:0] the run-ahead lanes (to dst) */
};

struct wst_rel {
    uint8_t v;                     /* [0] */
    uint8_t slot;                  /* [6:0] the home whose regime ends */
};

struct wst_out {
    uint8_t  free_v, free;         /* [0], [6:0] lowest free entry's slot (next cycle) */
    uint8_t  full;                 /* [0] no free entry (next cycle) */
    uint8_t  nvalid;               /* [6:0] valid entries (next cycle) */
    struct wst_pair cand;          /* the candidate chosen this cycle (d.cand) */
    slotmask nosplit;              /* d.mflag: slots that may not split next cycle */
    struct wst_msplit msplit;      /* a memory split taken this cycle */
    struct wst_pair merge;         /* q.cand confirmed this cycle */
    struct wst_rel rel;            /* regime over: release the home's hold */
    slotmask free_mask;            /* slots of the entries freed this cycle */
    uint8_t  prio_key[SM_MAX_SLOTS];   /* [5:0] per slot, from q */
    uint8_t  nsusp, narr;          /* [6:0] each: valid entries SUSP / ARR (q) */
    uint8_t  ev_bsplit, ev_msplit; /* [0] each */
    uint8_t  ev_merge_pc, ev_merge_rpc;   /* [0] each */
    uint8_t  ev_runahead_lanes;    /* [5:0] lanes of this cycle's memory split */
    uint8_t  ev_mref;              /* [2:0] enum wst_mref: why mcand was not split (0: it was,
                                      or none, or err) */
    uint8_t  err;                  /* [2:0] enum wst_err bits */
};

/* Two slots of a warp at the same pc that the PC matcher leaves apart: neither arrived at the
   regime's reconvergence point, and exactly one of them suspended on long-latency memory (the
   other has lanes that can run on: the latency a split hides, slides "Subdividing on Cache
   Misses"; merging would make them wait again -- "reconverge when there is not much latency
   to hide", "Implementation: Reconvergence Challenges"). susp counts a barrier wait too (the
   issue stage's long-latency stall); the pair merges once both wait or both run. */
static inline int wst_latency_pair(slotmask susp, slotmask arr, unsigned a, unsigned b)
{
    return !slot_has(arr, a) && !slot_has(arr, b) && slot_has(susp, a) != slot_has(susp, b);
}

/* Bits of one WST entry: active mask (lanes), warp ID (clog2(warps)), status, PC, priority.
   The slides' (backup "WST Hardware Overhead"): wst_entry_bits(16, 4, 64, 2, 4) = 88. */
static inline uint32_t wst_entry_bits(uint32_t lanes, uint32_t warps, uint32_t pc_bits,
                                      uint32_t status_bits, uint32_t prio_bits)
{
    uint32_t w = 0;
    while ((1u << w) < warps)
        w++;
    return lanes + w + status_bits + pc_bits + prio_bits;
}

void wst_cfg_default(struct wst_cfg *c);
int  wst_cfg_check(const struct wst_cfg *c, char *err, size_t errlen);
void wst_reset(const struct wst_cfg *c, struct wst_regs *r);
void wst_eval(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_in *in,
              struct wst_out *out, struct wst_regs *d);
void wst_commit(const struct wst_cfg *c, struct wst_regs *q, const struct wst_regs *d);
/* The valid entries of r whose slots in's masks show live, at regime level and not busy:
   those the PC matcher may pick. */
slotmask wst_idle_entries(const struct wst_cfg *c, const struct wst_regs *r,
                          const struct wst_in *in);
/* time_skip (model/sm/sm_sleep.c). The PC matcher's pointer is the one register an evaluation
   that changes nothing else still moves: it stays behind a lone idle entry, and moves on by
   one each cycle while no entry is idle (none_idle: wst_idle_entries was empty). wst_drift:
   0 when d is q, 1 when d is q with rr moved on by one and none_idle, -1 otherwise. wst_skip
   moves rr on as n cycles of drift 1 would. */
int  wst_drift(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_regs *d,
               int none_idle);
void wst_skip(const struct wst_cfg *c, struct wst_regs *r, uint64_t n);

/* Registry entry points (model/base/blocks.def): one instance when dws != off. */
struct gpu_config;
struct cost_list;
uint32_t wst_instances(const struct gpu_config *c);
void wst_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct wst_cfg *out);
void wst_storage(const struct wst_cfg *c, struct cost_list *l);
/* The Verilog parameters of rtl/wst.sv (WST_NWARPS, WST_NENT, WST_VARIANT). */
void wst_rtl_params(const struct wst_cfg *c, FILE *f);

#endif
