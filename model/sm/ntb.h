/*
 * ntb.h -- VTW's next-TB-index unit: the hardware behind the two ISA-extension instructions
 * `nexttbid.u32 d` (the next logical TB index of the warp's virtual TB) and
 * `nextidxinblk.u32 d, a` (the thread's next index in the block) of
 * 000_0da6b8b480bd0740.txt Section 4.2. One instance per SM when `vtw = hw`.
 *
 * Hardware it stands for (Section 4.2.1): per SM the virtual -> logical TB map (one 32-bit
 * index per TB slot) and per virtual TB the count of warps still to take the newest logical
 * index (one byte); the GPU-wide counter nextLogTbId lives at the GPU (the CTA dispatcher's
 * side: the SM takes from it through the gnext/gtake ports). A nexttbid from a virtual TB
 * whose every warp already holds the newest index takes a new one from the GPU counter (the
 * first warp of the TB to finish its iteration); the other warps take the one the map holds.
 * The SM never presents a nexttbid from a warp already one iteration ahead of a sibling (the
 * scheduler's iteration registers hold it, pas.h), so one map entry per TB is enough. The
 * function on one request -- the new index, the lane policies below -- is func/tbidx.h's
 * (tbidx_serve, which the functional runner calls too); this unit adds the ports, the order of
 * the requests of a cycle and the reply pipeline.
 *
 * Lane policies (Section 4.2.2), for the warps that hold 32 threads (a last, partial warp
 * keeps its index: its missing lanes have no thread to give):
 *   NTB_SAME     the warp keeps its index; nextidxinblk returns its input (it is not sent
 *                here: the SM executes it as a move).
 *   NTB_LOWEST   the k-th full warp to take the new TB index gets warp index k (LowestToHighest).
 *   NTB_SLOWEST  when the TB's first warp takes a new index, the full warps are ranked by their
 *                progress in the iteration they finish (in.prog: instructions since their last
 *                nexttbid; fewest first, ties by lower warp index) and the warp indices they
 *                hold are stored in that order (order[]); the k-th full warp to take the new
 *                index gets order[k] (SlowestLane: the slowest warp's index starts first).
 *   lh[cta] counts the full warps that took the newest index; lw[ctx] is the warp index a
 *   warp holds (not in Section 4.5's count: the paper does not say how the sort learns the
 *   indices the warps hold).
 *
 * Contexts: a CTA's warps hold consecutive contexts, warp i in base + i (the SM's allocation
 * of equal-sized CTAs keeps them so; sm_cta.c checks it when this unit is present).
 *
 * Ports: in: up to NTB_PORTS requests per cycle {op, cta, ctx, warp, reg, mask} (the SM's
 * issues of the previous cycle), the launch of a CTA {cta, base}, the CTA shape (warps, full
 * warps), gnext (the GPU counter's value before this SM's takes this cycle), prog[ctx];
 * out: gtake (new indices taken this cycle), rep[NTB_PORTS] (replies {ctx, reg, mask, value,
 * addlane}: value for every lane, plus the lane number when addlane).
 * Latency: a request presented in cycle t is answered in cycle t + lat - 1 (lat = 1: the same
 * cycle); the SM writes the reply through its late-write port.
 */
#ifndef NTB_H
#define NTB_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "base/slotmask.h"
#include "func/tbidx.h"

#define NTB_PORTS   4              /* requests per cycle: one per scheduler */
#define NTB_MAX_LAT 64             /* cycles */
#define NTB_NONE    TBIDX_NONE

enum ntb_lane { NTB_SAME = TBIDX_SAME, NTB_SLOWEST = TBIDX_SLOWEST, NTB_LOWEST = TBIDX_LOWEST,
                NTB_NLANE = TBIDX_NLANE };
enum ntb_op { NTB_OP_TB = TBIDX_TB, NTB_OP_IDX = TBIDX_IDX };

struct ntb_cfg {
    uint8_t  nctas;                /* TB slots, 1..SM_MAX_CTAS */
    uint16_t nctx;                 /* contexts, 1..SM_MAX_CTX */
    uint8_t  lane;                 /* enum ntb_lane */
    uint8_t  lat;                  /* request -> reply, 1..NTB_MAX_LAT cycles */
};

struct ntb_rep {                   /* one reply, written back through the late-write port */
    uint8_t  v;                    /* [0] */
    uint8_t  ctx;                  /* [7:0] VWI */
    uint16_t reg;                  /* [15:0] destination register */
    uint32_t mask;                 /* [31:0] lanes written */
    uint32_t val;                  /* [31:0] value of every lane ... */
    uint8_t  addlane;              /* [0] ... plus its lane number */
};

struct ntb_regs {
    uint32_t map[SM_MAX_CTAS];     /* [31:0] per TB slot: the newest logical TB index */
    uint8_t  cnt[SM_MAX_CTAS];     /* [7:0]  per TB slot: warps still to take it */
    uint8_t  lh[SM_MAX_CTAS];      /* [5:0]  per TB slot: full warps that took it (lowest, slowest) */
    uint8_t  lw[SM_MAX_CTX];       /* [4:0]  per context: the warp index it holds (lowest, slowest) */
    uint8_t  order[SM_MAX_CTX];    /* [4:0]  per context position: warp indices, slowest first */
    struct ntb_rep pipe[NTB_MAX_LAT - 1][NTB_PORTS];   /* replies in flight (lat - 1 stages) */
    uint8_t  head;                 /* [5:0] the stage answered this cycle (clog2(lat - 1) bits) */
};

struct ntb_req {
    uint8_t  v;                    /* [0] */
    uint8_t  op;                   /* [0] enum ntb_op */
    uint8_t  cta;                  /* [5:0] TB slot */
    uint8_t  ctx;                  /* [7:0] VWI */
    uint8_t  warp;                 /* [4:0] warp index in the TB (ctx = base + warp) */
    uint16_t reg;                  /* [15:0] destination register */
    uint32_t mask;                 /* [31:0] lanes that executed it */
};

struct ntb_in {
    struct ntb_req req[NTB_PORTS];
    uint8_t  launch_v;             /* [0] a TB slot was launched this cycle */
    uint8_t  launch_cta;           /* [5:0] */
    uint8_t  launch_base;          /* [7:0] context of its warp 0 */
    uint8_t  nw;                   /* [5:0] warps per TB of this launch */
    uint8_t  nfull;                /* [5:0] of which hold 32 threads */
    uint32_t gnext;                /* [31:0] the GPU's nextLogTbId before this SM's takes */
    uint32_t prog[SM_MAX_CTX];     /* [31:0] per context: instructions in its current iteration */
};

struct ntb_out {
    uint8_t  gtake;                /* [2:0] new logical indices taken this cycle */
    struct ntb_rep rep[NTB_PORTS];
};

void ntb_cfg_default(struct ntb_cfg *c);
int  ntb_cfg_check(const struct ntb_cfg *c, char *err, size_t errlen);
void ntb_reset(const struct ntb_cfg *c, struct ntb_regs *r);
void ntb_eval(const struct ntb_cfg *c, const struct ntb_regs *q, const struct ntb_in *in,
              struct ntb_out *out, struct ntb_regs *d);
void ntb_commit(const struct ntb_cfg *c, struct ntb_regs *q, const struct ntb_regs *d);
const char *ntb_lane_name(unsigned lane);
/* time_skip (model/sm/sm_sleep.c). The reply pipeline's head is the one register an
   evaluation without a request or a reply still moves (by one a cycle, over lat - 1 stages;
   lat <= 2: it stays). ntb_drift: 0 when d is q, 1 when d is q with the head moved on by
   one, -1 otherwise (a request or a reply changed the pipeline). ntb_skip moves the head on
   as n cycles would. ntb_next_event: the earliest cycle > now at which ntb_eval with no
   request presents a reply (r: the registers at the start of cycle now), UINT64_MAX when
   none is in flight. */
int  ntb_drift(const struct ntb_cfg *c, const struct ntb_regs *q, const struct ntb_regs *d);
void ntb_skip(const struct ntb_cfg *c, struct ntb_regs *r, uint64_t n);
uint64_t ntb_next_event(const struct ntb_cfg *c, const struct ntb_regs *r, uint64_t now);

/* Registry entry points (model/base/blocks.def). */
struct gpu_config;
struct cost_list;
uint32_t ntb_instances(const struct gpu_config *c);
void ntb_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct ntb_cfg *out);
void ntb_storage(const struct ntb_cfg *c, struct cost_list *l);
/* The Verilog parameters of rtl/ntb.sv (NTB_NCTAS, NTB_NCTX, NTB_LANE, NTB_LAT). */
void ntb_rtl_params(const struct ntb_cfg *c, FILE *f);

#endif
