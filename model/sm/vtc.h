/*
 * vtc.h -- VT's Virtual Thread Controller (004_23e173f444f46134.txt Section IV-A "CTA Swap
 * Operation", Fig. 7; Section IV-B for the context region). One instance per SM when vt = on.
 *
 * Hardware it stands for: the CTA status table (per CTA slot: resident, the 1-bit status
 * active / inactive, whether a context of the CTA is in the shared-memory context region, whether
 * it waits in the ready FIFO, and the 14-bit tracking counter), the first-ready-first-serve FIFO
 * of ready inactive CTAs, and the sequencer of the context handler (one swap at a time). The SM
 * top maps (CTA, warp index) to slots and VWIs and executes the commands (docs/vtc.md).
 *
 * Tracking counter (Sec. IV-A): an active CTA's counter is loaded every cycle with `nstall`
 * (its warps stalled on a long-latency memory operation: the value the paper's up/down counter
 * holds). At a swap-out it is cleared, then each of the W saves adds its warp's write-pending
 * registers (`pend_n`, the scoreboard's count port, the cycle after the save) and each stale
 * writeback of the CTA (`rel`) subtracts one; the inactive CTA is ready when the saves are in
 * and the counter is 0, and is then pushed into the ready FIFO. A CTA launched inactive (never
 * ran) is ready at once. The FIFO has one write port: each cycle the lowest-index ready CTA not
 * yet queued enters it (several launched or made ready in one cycle enter in CTA-slot order,
 * one a cycle).
 *
 * Decision (only when the sequencer is idle at the start of the cycle):
 *   SWAP  the lowest-index active CTA whose counter (this cycle's nstall) equals its live warps
 *         `nlive` > 0 ("counter == warps in the CTA", exited warps left out), while the ready FIFO
 *         (registered) is not empty: it is swapped out, the FIFO head swapped in (it takes the
 *         out CTA's warp slots, warp i into warp i's);
 *   FILL  else, `room` (a free active position and W free slots, the SM's) and the FIFO not
 *         empty: the head is activated without a swap-out (e.g. after an active CTA finished).
 * The status bits change at the decision: out inactive (saved = 1), in active.
 *
 * Ports (in): launch / launch_act / done masks of CTA slots; nw (warps per CTA, 1..32, constant
 * while a CTA is resident); beats (shared-memory port cycles of one context, ceil(eq. 1 / B),
 * 0 = ideal); room; nstall[], nlive[] per CTA (0 for inactive CTAs); pend_v/pend_n (the count of
 * the warp saved the cycle before); rel[] (stale writebacks, by CTA); grant (the shared-memory
 * port took a context beat this cycle).
 * (out, registered: what the SM executes in the next cycle): fence, save, rest(ore), ldq,
 * ctx_req, rdy_n, status counts and events, err.
 *
 * Timing. Decision in the eval of cycle t (ev_out / ev_in / ev_fill = 1 in out(t)); out(c) is
 * executed by the SM in cycle c + 1. R = read beats (beats if the in CTA has a saved context,
 * else 0), B = beats.
 *   SWAP: out(t .. t+nw-1): save_v with save_w = 0 .. nw-1 and fence_v, fence_cta = out CTA
 *         (fence_v is 1 exactly while out_cta has warps not yet saved); out(t): ldq_v (once).
 *         in(t+1 .. t+nw): pend_v with the count of save_w = 0 .. nw-1 (exactly these cycles).
 *         Read beats: ctx_req from out(t) while R beats remain, each grant takes one.
 *         rest_w = j in out(max(t + 1, g) + j), g = the eval whose grant took the last read
 *         beat (g = t when R = 0; without demand g = t + R): one restore per cycle, never
 *         before the save of the same warp index nor in the same cycle.
 *         Write beats (B, the out CTA's context) follow the reads: requested (ctx_req) from
 *         out(max(g, t + nw - 1)) on, when the last save has been presented.
 *         The swap ends (idle) in the eval where the last restore is presented and every beat
 *         granted; the next decision is in the following cycle at the earliest.
 *   FILL: rest_w = j in out(g + j) (g as above: out(t) itself for a never-run CTA or
 *         B = 0); no saves, fence, ldq or write beats.
 *   rest_fresh = 1 with every restore of a CTA that never ran (no context: the SM launches it).
 *   rest_cta = the in CTA in every out(c) of the sequence (decision to end), else 0.
 *   A swapped-out CTA enters the FIFO (registered: rdy_n, popped from the next cycle) in the
 *   cycle its last count is in (t+nw) if its counter is 0 then, else in the cycle a stale
 *   writeback brings it to 0 (a cycle later for each lower-index CTA pushed before it).
 * Without demand a swap occupies the evals t .. e = t + max(R, 1) + nw - 1 (later if the B
 * write beats end later); ph is idle again from e + 1, where the next decision may be taken.
 *
 * Order inside vtc_eval (on d, equal to q on entry): done, launch, active counters = nstall,
 * stale writebacks, pend, grant, the ready push (at the registered FIFO's tail), decision
 * (pops the registered head), sequencer, outputs.
 *
 * err bits (the offending port is ignored):
 *   VTC_E_DEC     a stale writeback names a CTA >= nctas, not resident, active, or with counter 0
 *   VTC_E_LAUNCH  a launch of a CTA >= nctas or already resident, or launch_act without launch
 *   VTC_E_DONE    done of a CTA >= nctas, not resident and active, or the in CTA of the swap
 *                 before all its warps are restored (after that it may complete while the
 *                 out CTA's context is still being written)
 *   VTC_E_PEND    pend_v not exactly the cycle after save_v, or pend_n > SB_MAX_REGS
 *   VTC_E_GRANT   grant while no context beat was requested (ctx_req of the cycle before)
 *   VTC_E_NW      nw outside 1..32 while a CTA is resident
 */
#ifndef VTC_H
#define VTC_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "sb.h"
#include "base/slotmask.h"

#define VTC_MAX_W     32           /* warps per CTA (1,024 threads) */
#define VTC_CNT_MAX   16383        /* 14-bit tracking counter */
#define VTC_MAX_BEATS 4095         /* 12-bit beat counters: port cycles of one context */

enum vtc_ph { VTC_IDLE = 0, VTC_SWAP, VTC_FILL };
enum vtc_err { VTC_E_DEC = 1, VTC_E_LAUNCH = 2, VTC_E_DONE = 4, VTC_E_PEND = 8,
               VTC_E_GRANT = 16, VTC_E_NW = 32 };

struct vtc_cfg {
    uint8_t  nctas;                /* table entries = resident CTA slots, 1..SM_MAX_CTAS */
};

struct vtc_regs {
    uint64_t res, act;             /* [nctas-1:0] each: entry valid (resident); status (1 active) */
    uint64_t saved, inq;           /* [nctas-1:0] each: context in the region (has run); in FIFO */
    uint16_t cnt[SM_MAX_CTAS];     /* [13:0] tracking counter: active = warps stalled on
                                      long-latency memory (<= 32); inactive = write-pending
                                      registers (<= 32 x 256) */
    uint8_t  rdq[SM_MAX_CTAS];     /* [clog2(nctas)-1:0] first-ready FIFO of ready inactive CTAs */
    uint8_t  rd_head, rd_n;        /* [clog2(nctas)-1:0], [clog2(nctas+1)-1:0] */
    uint8_t  ph;                   /* [1:0] enum vtc_ph */
    uint8_t  out_cta, in_cta;      /* [clog2(nctas)-1:0] each */
    uint8_t  sv_i;                 /* [5:0] saves of out_cta presented, 0..nw; nw + 1 once the
                                      last one's count is in */
    uint8_t  rs_i;                 /* [5:0] restores of in_cta presented, 0..nw */
    uint16_t rd_left, wr_left;     /* [11:0] port beats left: read in_cta's context / write out's */
};

struct vtc_rel {
    uint8_t  v;                    /* [0] */
    uint8_t  cta;                  /* [5:0] CTA slot of the stale writeback's warp */
};

struct vtc_in {
    uint64_t launch, launch_act;   /* [63:0] CTA slots dispatched this cycle; of them active */
    uint64_t done;                 /* [63:0] CTA slots completed this cycle */
    uint8_t  nw;                   /* [5:0] warps per CTA, 1..32 */
    uint16_t beats;                /* [11:0] port beats of one context, ceil(eq. 1 / B); 0 ideal */
    uint8_t  room;                 /* [0] a free active position and W free slots (fill) */
    uint8_t  nstall[SM_MAX_CTAS];  /* [5:0] iss: its valid warps classed ISS_LONG_MEM */
    uint8_t  nlive[SM_MAX_CTAS];   /* [5:0] iss: its valid (live, unfinished) warps */
    uint8_t  pend_v;               /* [0] sb_out.cnt of the warp saved the cycle before */
    uint16_t pend_n;               /* [8:0] */
    struct vtc_rel rel[SB_MAX_REL];   /* stale writebacks (VWI mismatch at the scoreboard) */
    uint8_t  grant;                /* [0] smem_out.ctx_grant: a context beat moved this cycle */
};

struct vtc_out {                   /* registered: commands for the next cycle */
    uint8_t  fence_v, fence_cta;   /* [0],[5:0] out_cta's slots may not issue or fetch */
    uint8_t  save_v, save_w;       /* [0],[4:0] save warp save_w of out_cta (simt save + sb count) */
    uint8_t  rest_v, rest_w;       /* [0],[4:0] activate warp rest_w of in_cta (restore or launch) */
    uint8_t  rest_fresh;           /* [0] in_cta never ran: simt launch port, no context read */
    uint8_t  rest_cta;             /* [5:0] in_cta while a swap or fill is in progress (0 when
                                      idle): whose warps the restores bring and whose VWIs the
                                      saved slots take */
    uint8_t  ldq_v, ldq_cta;       /* [0],[5:0] move out_cta's loads to the inactive queue */
    uint8_t  ctx_req;              /* [0] smem ctx_v: a context beat waits */
    uint8_t  rdy_n;                /* [6:0] ready CTAs waiting (the SM's launch rule) */
    uint8_t  nact, ninact;         /* [6:0] each: resident active / inactive CTAs */
    uint8_t  ev_out, ev_in, ev_fill;  /* [0] each: swap decided; CTA popped to activate; fill */
    uint8_t  ev_busy, ev_wait;     /* [0] each: sequencer busy this cycle; beat waited (no grant) */
    uint8_t  err;                  /* [5:0] enum vtc_err bits */
};

/* Eq. (1) of 004: a CTA's context, (N + log2 W) + 96 + 160 x D x W bits -- N = 8 (its first
   VWI), log2 W = 5 (its warp count, W - 1), blockIdx 3 x 32 and D SIMT entries of 32-bit mask
   + 64-bit PC + 64-bit RPC per warp (Sec. IV-B). */
static inline uint32_t vtc_ctx_bits(uint32_t w, uint32_t d)
{
    return (8 + 5) + 96 + 160 * d * w;
}
/* Eq. (2): the shared-memory port cycles of one context at B bits per cycle, whole cycles
   (B = 0: ideal, none). */
static inline uint32_t vtc_beats(uint32_t ctx_bits, uint32_t b)
{
    return b ? (ctx_bits + b - 1) / b : 0;
}

void vtc_cfg_default(struct vtc_cfg *c);
int  vtc_cfg_check(const struct vtc_cfg *c, char *err, size_t errlen);
void vtc_reset(const struct vtc_cfg *c, struct vtc_regs *r);
void vtc_eval(const struct vtc_cfg *c, const struct vtc_regs *q, const struct vtc_in *in,
              struct vtc_out *out, struct vtc_regs *d);
void vtc_commit(const struct vtc_cfg *c, struct vtc_regs *q, const struct vtc_regs *d);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
struct cost_list;
uint32_t vtc_instances(const struct gpu_config *c);
void vtc_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct vtc_cfg *out);
void vtc_storage(const struct vtc_cfg *c, struct cost_list *l);
/* The Verilog parameter of rtl/vtc.sv (VTC_NCTAS). */
void vtc_rtl_params(const struct vtc_cfg *c, FILE *f);

#endif
