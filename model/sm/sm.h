/*
 * sm.h -- one streaming multiprocessor of the timing model: the blocks of the SM wired
 * together and ticked (evaluate every block, then commit every block).
 *
 * Blocks inside: fetch (I-cache + I-buffer), ws (one per scheduler), sb (scoreboard with VWI
 * tags), simt (reconvergence stack with spill), fu (execution units + result queue), ldst
 * (coalescer, line queue, pending loads), bar (barrier unit), l1 (data cache). Instructions
 * are executed functionally when they issue (exec.c) with the SIMT stack's active mask; the
 * blocks decide when each warp can issue.
 *
 * Ports towards the GPU (struct sm_io): one request per cycle leaves the L1 towards the
 * interconnect (with back-pressure), one response per cycle arrives; the CTA dispatcher hands
 * a CTA to the SM (sm_launch_cta, seen by the blocks the next cycle); the SM reports CTAs
 * finished this cycle.
 */
#ifndef SM_H
#define SM_H
#include <stdint.h>
#include "bar.h"
#include "ptx/flow.h"
#include "base/config.h"
#include "func/exec.h"
#include "func/funcsim.h"
#include "fetch.h"
#include "fu.h"
#include "func/gmem.h"
#include "gpu/gpusim.h"
#include "l1.h"
#include "ldst.h"
#include "base/memreq.h"
#include "sb.h"
#include "simt.h"
#include "ws.h"

#define SM_MAX_WARPS 64
#define SM_MAX_CTAS  BAR_MAX_CTAS
#define SM_MAX_SCHED FU_MAX_SCHED

/* Why a scheduler did not issue (one per scheduler cycle; order = report order) */
enum sm_stall {
    ST_ISSUED = 0, ST_NO_WARP, ST_IBUF, ST_SHORT_DEP, ST_LONG_MEM, ST_STRUCT, ST_BARRIER,
    ST_STACK, ST_COUNT
};

/* Stimulus recording of one block of this SM (record.h); set by the timing top for SM 0. */
struct sm_rec {
    int      block;                      /* REC_NONE, REC_WS, REC_SB, REC_SIMT */
    uint8_t *buf;                        /* allocated before the run */
    uint64_t len, cap, records;
    int      overflow;
};
enum { REC_NONE = 0, REC_WS, REC_SB, REC_SIMT };

struct sm_params {
    const struct gpu_config *conf;
    const struct ptx_prog *prog;
    const struct flow *flow;
    struct gmem *gmem;
    const uint8_t *params;
    struct gs_dim3 grid, block;
    uint32_t dyn_smem;
    uint32_t id;
    uint32_t ctas_per_sm;
    uint64_t spill_base, local_base;     /* timing addresses of SIMT spills / local memory */
};

struct sm_dec;                           /* per-instruction decode (sm.c) */

#define SM_MEMQ 4
struct sm_memq { struct mem_req e[SM_MEMQ]; uint32_t head, n; };   /* skid buffer to the L1 */

struct sm_warp {                         /* simulation bookkeeping per warp slot */
    uint8_t  valid, done, at_bar, cta;
    uint32_t widx;                       /* warp index inside its CTA */
    uint32_t pending;                    /* destination registers not yet written back */
    uint32_t loads;                      /* global/local loads in flight */
    uint64_t insns, t_start, t_end;
};

struct sm_cta {
    uint8_t  valid;
    uint64_t id;                         /* linear CTA index */
    uint32_t ctaid[3];
    uint32_t nwarps, first_warp_slot, warps_done;
    uint64_t warp_mask;                  /* its warp slots */
    uint64_t t_start, t_first_done;
    uint64_t stall_life, stall_dwr;      /* SM stall cycles while resident / in its DWR */
};

struct sm_io {                           /* GPU side of the SM, per cycle */
    uint8_t  fill_valid;                 /* in: response from the interconnect */
    struct mem_req fill;
    uint8_t  icnt_ready;                 /* in: the interconnect accepts a request */
    uint8_t  miss_valid;                 /* out: request towards the interconnect */
    struct mem_req miss;
    uint32_t ctas_done;                  /* out: CTAs that finished this cycle */
    uint8_t  issued;                     /* out: some warp issued */
    uint64_t done_cta[2];                /* out: ids of CTAs finished (first two) */
};

struct sm_tb {                           /* a finished TB, for the divergence statistics */
    uint64_t min_warp_cycles, max_warp_cycles, min_warp_insns, max_warp_insns;
    uint64_t stall_life, stall_dwr;
};

struct sm_stats {
    uint64_t sched_cycles[ST_COUNT];     /* scheduler cycles by outcome */
    uint64_t l1_hits, l1_misses, l1_merges, l1_stall_mshr, l1_rsrv_fail;
    uint64_t icache_hits, icache_misses;
    uint64_t simt_push, simt_pop, simt_spill, simt_fill, simt_max_depth;
    uint64_t shared_conflict_cycles;
    uint64_t warp_insns;
};

struct sm {
    struct sm_params p;
    uint32_t nsched;
    struct sm_dec *dec;                  /* per instruction of the program */
    /* blocks: configuration, registered state q and next state d */
    struct ws_cfg ws_c[SM_MAX_SCHED];   struct ws_regs ws_q[SM_MAX_SCHED], ws_d[SM_MAX_SCHED];
    struct sb_cfg sb_c;                  struct sb_regs *sb_q, *sb_d;
    struct simt_cfg simt_c;              struct simt_regs *simt_q, *simt_d;
    struct fetch_cfg fetch_c;            struct fetch_regs *fetch_q, *fetch_d;
    struct fu_cfg fu_c;                  struct fu_regs fu_q, fu_d;
    struct ldst_cfg ldst_c;              struct ldst_regs *ldst_q, *ldst_d;
    struct bar_cfg bar_c;                struct bar_regs bar_q, bar_d;
    struct l1_cfg l1_c;                  struct l1_regs *l1_q, *l1_d;
    /* registered outputs of the previous cycle */
    struct fu_out fu_o;
    struct ldst_out ldst_o;
    struct simt_out *simt_o;
    struct fetch_out *fetch_o;
    uint64_t bar_release;
    struct sm_memq fq, sq;               /* fetch-miss and SIMT spill/fill requests */
    /* latches between cycles */
    struct simt_upd upd_latch[SIMT_UPD_PORTS];
    struct fetch_consume cons_latch[FETCH_CONSUME_PORTS];
    struct sb_res res_latch[SB_RES_PORTS];
    uint64_t launch_pending;             /* warp slots launched, seen by the blocks next cycle */
    uint32_t launch_mask[SM_MAX_WARPS];
    int      bar_launch_cta;
    uint64_t bar_launch_mask;
    /* functional state */
    uint64_t *regs;                      /* SM_MAX_WARPS x nregs x 32 */
    uint8_t  *smem, *lmem, *pscratch;    /* per CTA slot / per warp slot */
    uint32_t smem_size;
    struct ex_ctx ctx;
    struct ex_result res;
    struct sm_warp warps[SM_MAX_WARPS];
    struct sm_cta ctas[SM_MAX_CTAS];
    uint32_t nwarps_per_cta;
    uint32_t nctas;                      /* resident CTAs */
    uint64_t live;                       /* warp slots launched and not finished */
    uint64_t sched_slots[SM_MAX_SCHED];  /* the warp slots of each scheduler */
    uint32_t cta_valid;                  /* resident CTA slots */
    uint32_t cta_draining;               /* CTAs whose warps all finished (writebacks pending) */
    uint64_t now;                        /* the cycle being evaluated */
    struct sb_in sb_in;                  /* kept between cycles: only live fields rewritten */
    struct ws_in ws_in[SM_MAX_SCHED];    /* kept between cycles: prio stays 0 (no key
                                            generator yet), the masks are rebuilt */
    /* statistics */
    struct gs_stats *st;
    struct sm_stats s;
    struct sm_rec *rec;                  /* NULL unless this SM records a block's inputs */
    char err[PTX_ERR_LEN + 128];
    int  failed;
};

/* The block configurations an SM derives from a GPU configuration (also used by the
   co-simulation harnesses, so that the C block they drive is the one the GPU model uses). */
struct sm_cfgs {
    struct ws_cfg ws;                    /* scheduler 0 (others differ only in nslots) */
    struct sb_cfg sb;
    struct simt_cfg simt;
    struct fetch_cfg fetch;
    struct l1_cfg l1;
};
void sm_make_cfgs(const struct gpu_config *c, uint32_t sm_id, struct sm_cfgs *out);
/* Append one record (cycle + input bytes) to a recording; no I/O. */
void sm_rec_put(struct sm_rec *r, uint64_t cycle, const void *in, uint32_t size);

int  sm_init(struct sm *s, const struct sm_params *p, struct gs_stats *st, char *err, size_t errlen);
void sm_free(struct sm *s);
/* Can the SM take another CTA now (a free CTA slot and enough warp slots)? */
int  sm_can_launch(const struct sm *s);
void sm_launch_cta(struct sm *s, uint64_t cta, uint64_t now);
/* One cycle. Returns 0, or -1 when a kernel fault stopped the SM (message in s->err). */
int  sm_cycle(struct sm *s, uint64_t now, struct sm_io *io, struct sm_tb *tbs, uint32_t *ntbs);
/* Anything resident or in flight? */
int  sm_busy(const struct sm *s);
/* Would a cycle change nothing? Then sm_skip_cycle accounts for it instead (identical stats). */
int  sm_idle(const struct sm *s);
void sm_skip_cycle(struct sm *s);
/* Deadlock dump: every warp's PC, mask, stack depth, scoreboard and barrier state. */
void sm_dump(const struct sm *s, FILE *f);

#endif
