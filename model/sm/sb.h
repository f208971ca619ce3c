/*
 * sb.h -- scoreboard with virtual-warp-ID tags (one per SM).
 *
 * Hardware it stands for: the per-warp pending-write bit vectors the issue stage checks every
 * cycle (004_23e173f444f46134.txt Section III, "Issue Stage" and "Writeback Stage"): a bit per
 * register of each warp slot, set when an instruction writing it issues, cleared at writeback.
 * Each slot also holds the 8-bit virtual warp ID (VWI) of the warp that owns it; a writeback
 * clears a bit only if it carries the same VWI, so a CTA-swap mechanism can hand a slot (PWI)
 * to another warp while the old warp's loads are still in flight.  The baseline sets
 * VWI = slot number.  Up to SM_MAX_SLOTS = 128 slots (cfg.nslots); every slot-set port is a
 * slotmask (base/slotmask.h), every slot field 7 bits.
 *
 * Registers are the linked program's dense register indices (ptx_prog), folded modulo
 * cfg.nregs (a power of two <= SB_MAX_REGS): two registers that fold onto one bit only create
 * false dependences (the check covers destinations too, so two pending writes never share a
 * bit) -- except for one instruction whose own destinations fold together: the SM must
 * release such destinations in the same cycle (vector loads write back all at once).
 *
 * Dynamic warp subdivision (DWS, 002 slides "Implementation: DWS upon branch divergence" and
 * "Reconvergence Challenges"; design note section 1): a warp's context may hold several slots
 * (its splits), each with its own row.  A release names a set of slots (those of the writing
 * context whose owned lanes meet the write's lanes, the SM computes it; the baseline names
 * one); a split copies the source row into the new slot's row (copy port), a merge ORs two
 * rows and clears the source (merge port), the PC matcher asks whether two rows are disjoint
 * (mchk / mok), and `any` tells which rows hold a pending bit.  The new ports are idle in the
 * baseline.
 *
 * Same-cycle order inside sb_eval: set-VWI, then copy and merge (both read q, the rows at the
 * start of the cycle), then releases (matched against the VWI after set-VWI and copy), then
 * reserves, then the check and count ports read the resulting next state; mok and any read q.
 * So a writeback in cycle t lets a dependent instruction issue in cycle t, and a reserve
 * presented in cycle t is seen by the check in cycle t.  The SM presents the reserve of an
 * instruction it issued in cycle t-1 (its issue latch) in cycle t: the destinations are busy
 * from the cycle after issue on, as in a scoreboard updated at issue.  See docs/sb.md.
 */
#ifndef SB_H
#define SB_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/slotmask.h"

#define SB_MAX_REGS  256           /* pending bits per slot */
#define SB_WORDS     (SB_MAX_REGS / 64)
#define SB_MAX_REL   8             /* release (writeback) ports per cycle */
#define SB_RES_PORTS 4             /* reserve ports: one per scheduler (up to 4) */
#define SB_MAX_DST   4             /* destinations per reserve (vector loads) */
#define SB_MAX_CHK   8             /* registers checked per slot (sources + destinations) */

struct sb_cfg {
    uint8_t  nslots;               /* warp slots, 1..SM_MAX_SLOTS */
    uint16_t nregs;                /* bits per slot: power of two, 1..SB_MAX_REGS */
    uint8_t  dws;                  /* 0/1: DWS built in -- the `any` output's OR trees exist
                                      (else any = 0: the baseline does not pay for them) */
};

/* Rows at and above cfg.nslots and bits at and above cfg.nregs are never written (the
   hardware holds nslots x (nregs + 8) bits); sb_commit copies only the rows in use. */
struct sb_regs {
    uint64_t pend[SM_MAX_SLOTS][SB_WORDS];  /* [nregs-1:0] per slot: pending-write bits */
    uint8_t  vwi[SM_MAX_SLOTS];             /* [7:0] per slot: owning virtual warp ID */
};

struct sb_rel {                    /* one writeback */
    slotmask slots;                /* [127:0] slots whose bit it clears, each only if its VWI
                                      matches (baseline: one slot, the context's) */
    uint8_t  v;                    /* [0]   valid */
    uint8_t  vwi;                  /* [7:0] VWI of the writing instruction's warp */
    uint16_t reg;                  /* [15:0] register index (folded inside) */
};

struct sb_res {                    /* one issued instruction's destinations */
    uint8_t  v;                    /* [0]   valid */
    uint8_t  slot;                 /* [6:0] warp slot */
    uint8_t  n;                    /* [2:0] destinations, 0..SB_MAX_DST */
    uint16_t reg[SB_MAX_DST];      /* [15:0] register indices */
};

struct sb_copy {                   /* DWS split: dst row := src row (q) minus n registers */
    uint8_t  v;                    /* [0]   valid */
    uint8_t  src;                  /* [6:0] the slot that splits */
    uint8_t  dst;                  /* [6:0] the new split slot; takes src's VWI */
    uint8_t  n;                    /* [2:0] registers left out, 0..SB_MAX_DST (a memory
                                      split: the load's destinations stay with src) */
    uint16_t reg[SB_MAX_DST];      /* [15:0] register indices */
};

struct sb_merge {                  /* DWS merge: dst row |= src row (q), src row := 0 */
    uint8_t  v;                    /* [0]   valid */
    uint8_t  dst;                  /* [6:0] */
    uint8_t  src;                  /* [6:0] */
};

struct sb_mchk {                   /* DWS merge check: are rows a and b (q) disjoint? */
    uint8_t  v;                    /* [0]   valid */
    uint8_t  a;                    /* [6:0] */
    uint8_t  b;                    /* [6:0] */
};

struct sb_in {
    slotmask    setvwi;                   /* slots (re)assigned this cycle: bits cleared */
    slotmask    chk_v;                    /* slots whose I-buffer head is checked */
    uint8_t     setvwi_vwi[SM_MAX_SLOTS]; /* [7:0] their new VWI (read where setvwi is set) */
    struct sb_rel rel[SB_MAX_REL];
    struct sb_res res[SB_RES_PORTS];
    uint8_t     chk_n[SM_MAX_SLOTS];      /* [3:0] registers to check, 0..SB_MAX_CHK */
    uint16_t    chk_reg[SM_MAX_SLOTS][SB_MAX_CHK];  /* [15:0] sources and destinations */
    uint8_t     cnt_v;                    /* [0]   count port: count a slot's pending bits */
    uint8_t     cnt_slot;                 /* [6:0] */
    struct sb_copy  copy;                 /* DWS: one split per cycle */
    struct sb_merge merge;                /* DWS: one merge per cycle */
    struct sb_mchk  mchk;                 /* DWS: one merge check per cycle */
};

/* out.err bits.  SB_E_DWS: a copy or merge names a slot >= nslots, has src == dst, or writes
   a row another of set-VWI / copy / merge writes this cycle (merge's src row counts: it is
   cleared) -- that copy or merge is ignored (set-VWI wins, then copy); or mchk names a slot
   >= nslots (mok = 0).  A copy with n > SB_MAX_DST is SB_E_COUNT (ignored). */
enum sb_err { SB_E_SLOT = 1, SB_E_COUNT = 2, SB_E_DWS = 4 };

struct sb_out {
    slotmask hazard;               /* checked slots with a pending source or destination */
    slotmask any;                  /* slots with at least one pending bit at the start of the
                                      cycle (q; DWS's merge flag); 0 unless cfg.dws */
    uint16_t cnt;                  /* [8:0] pending bits of cnt_slot (VT's tracking counter) */
    uint8_t  mok;                  /* [0]   mchk: rows a and b (q) share no pending bit */
    uint8_t  ev_rel;               /* [3:0] releases whose VWI matched one of their slots */
    uint8_t  ev_rel_stale;         /* [3:0] releases naming slots, none with their VWI */
    uint8_t  err;                  /* [2:0] enum sb_err bits: a port named a slot >= nslots,
                                      a count > its maximum, or a DWS port conflict (the port
                                      was ignored) */
};

void sb_cfg_default(struct sb_cfg *c);
int  sb_cfg_check(const struct sb_cfg *c, char *err, size_t errlen);
/* Reset: no pending bits, VWI = slot number (the baseline assignment). */
void sb_reset(const struct sb_cfg *c, struct sb_regs *r);
void sb_eval(const struct sb_cfg *c, const struct sb_regs *q, const struct sb_in *in,
             struct sb_out *out, struct sb_regs *d);
/* The rows (slots) whose pending bits or VWI this cycle's inputs may write: set-VWI, releases,
   reserves, copy and merge. Every other row of d stays as q; with none, sb_eval leaves
   d == q (the SM then skips the commit and checks only heads that changed). */
slotmask sb_rows_written(const struct sb_in *in);
void sb_commit(const struct sb_cfg *c, struct sb_regs *q, const struct sb_regs *d);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void sb_storage(const struct sb_cfg *c, struct cost_list *l);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
uint32_t sb_instances(const struct gpu_config *c);
void sb_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct sb_cfg *out);
void sb_rtl_params(const struct sb_cfg *c, FILE *f);

#endif
