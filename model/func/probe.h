/*
 * probe.h -- the instruction probe: what both models count about the instruction stream,
 * written once.
 *
 * Not a hardware block: the performance-counter tap of an issue stage. The functional runner
 * (funcsim.c) calls it after each warp instruction executes, the timing SM (sm/sm.c) when an
 * instruction issues; both call it when a warp starts and when a TB retires. Events:
 *   probe_warp_start  warp w (the caller's index, < cap) starts: its counters are cleared and
 *                     its first thread and CTA remembered for the sink.
 *   probe_issue       one warp instruction of warp w at kernel pc, with the active mask (the
 *                     SIMT mask) and the executed result: counts warp and thread instructions,
 *                     the lane-utilisation bin (active lanes), guarded branches and those that
 *                     split the active lanes, memory instructions, atomics, barrier arrivals,
 *                     the warp's instruction count and the unit's (optional); keeps the warp's
 *                     last pc and, when it makes progress (lanes store or exit, or it begins
 *                     a logical TB at the VTW wrapper's head), its count then (calm) and the
 *                     launch's (mark): what the runaway watchdogs read (docs/timing.md); then calls the
 *                     sink, if any.
 *   probe_tb_retire   a TB finished: its instruction divergence (spread of its warps'
 *                     instruction counts, 000_0da6b8b480bd0740.txt Table 1) into tb_inst_div.
 *   probe_iter        VTW (vtw = hw): warp w issued nexttbid -- the iteration it was in (one
 *                     logical TB's work, 000 Section 4.1) closes into its virtual TB's
 *                     accumulator; when all the TB's warps closed it, that logical TB's
 *                     instruction divergence is counted and its record returned (the timing
 *                     SM adds cycles, DWR and DWS). The next iteration opens.
 *   probe_iter_exit   VTW: warp w leaves the loop; the iteration it opened (its index was past
 *                     the grid) is no TB and is dropped.
 * Under vtw = hw the callers count logical TBs this way instead of their virtual TBs (a
 * CTA's retire is then not a TB); the warps of a virtual TB are at most one iteration apart
 * (the SM's hold), so two accumulators per virtual TB (by iteration parity) suffice.
 * Counts go to the launch statistics (struct gs_stats, shared by every caller of the launch).
 * Warp indices are the caller's: the functional runner's warp in the CTA, the SM's warp slot
 * (later its context); the per-warp table is the caller's, `cap` entries.
 *
 * The sink is the hook for per-thread basic-block vectors (BBV, 001_8bf4399a5d1562fa.txt
 * Section IV): called at every probe_issue with the event below. NULL costs one test per
 * instruction.
 */
#ifndef PROBE_H
#define PROBE_H
#include <stdint.h>
#include "exec.h"
#include "base/gs_stats.h"
#include "ptx/ptx.h"

struct probe_event {
    uint32_t pc;          /* kernel pc of the instruction */
    uint32_t active;      /* lanes at this pc (the SIMT mask, before the guard) */
    uint32_t exec;        /* lanes that executed (active and guard true) */
    uint32_t warp;        /* the caller's warp index */
    uint32_t tid0;        /* linear thread index in the CTA of lane 0 */
    uint64_t cta;         /* linear CTA index in the grid */
};

struct probe_sink {
    void (*fn)(void *arg, const struct probe_event *e);
    void *arg;
};

struct probe_warp {       /* per-warp counters */
    uint64_t insns;       /* warp instructions since the warp started */
    uint64_t cta;         /* for the sink */
    uint32_t tid0;
    uint64_t it_ins, it_t0;   /* VTW: insns and time when its open iteration began */
    uint8_t  it_open, it_par; /* VTW: an iteration is open; its parity (accumulator) */
    uint64_t calm;        /* insns when it last made progress (started, stored, exited lanes,
                             began a logical TB at the VTW head): insns - calm is how long it
                             has not */
    uint32_t pc;          /* the pc of its last instruction */
};

struct probe_ltb {        /* VTW: one logical TB being measured, per virtual TB and parity */
    uint32_t started, done;           /* its warps that opened / closed the iteration */
    uint64_t ins_lo, ins_hi;          /* fewest / most warp instructions in it */
    uint64_t cyc_lo, cyc_hi;          /* shortest / longest warp time in it (timing model) */
    uint64_t stall_life, stall_dwr;   /* SM stall cycles while open / after its first close */
};

struct probe {
    struct gs_stats *st;             /* launch statistics */
    struct probe_warp *warps;        /* the caller's table, cap entries */
    uint32_t cap;
    uint64_t *unit_insns;            /* NULL, or the unit's warp-instruction counter */
    const struct probe_sink *sink;   /* NULL: none */
    uint64_t mark;                   /* st->warp_insns after the last progress of one of the
                                        caller's warps (the runaway watchdog) */
};

void probe_init(struct probe *p, struct gs_stats *st, struct probe_warp *warps, uint32_t cap,
                uint64_t *unit_insns, const struct probe_sink *sink);
/* w < cap */
void probe_warp_start(struct probe *p, uint32_t w, uint32_t tid0, uint64_t cta);
void probe_issue(struct probe *p, uint32_t w, uint32_t pc, const struct ptx_insn *in,
                 uint32_t active, const struct ex_result *r);
/* The TB's warps: idx[0..n-1], or warps 0..n-1 when idx is NULL. */
void probe_tb_retire(const struct probe *p, const uint32_t *idx, uint32_t n);
/* ltb: the virtual TB's two accumulators; nw its warps; now the time (0 in the functional
   model). Returns 1 and the finished logical TB in *out when this closes one. */
int  probe_iter(struct probe *p, uint32_t w, struct probe_ltb ltb[2], uint32_t nw, uint64_t now,
                struct probe_ltb *out);
void probe_iter_exit(struct probe *p, uint32_t w, struct probe_ltb ltb[2]);
/* The SM stalled this cycle: charge the virtual TB's open logical TBs. */
void probe_iter_stall(struct probe_ltb ltb[2]);

#endif
