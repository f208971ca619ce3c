/*
 * sm.h -- one streaming multiprocessor of the timing model: its blocks wired together and
 * ticked (evaluate every block, then commit every block).
 *
 * Blocks inside (the SM rows of model/base/blocks.def): fetch (I-cache + I-buffer), iss (issue
 * stage: readiness, stall classes, counters), kgen (priority keys, keyed policies only), ws
 * (one per scheduler), sb (scoreboard with VWI tags), simt (reconvergence stack with spill),
 * fu (execution units + result queue), ldst (coalescer, line queue, pending loads), smem
 * (shared-memory banks and port), bar (barrier unit), l1 (data cache), and the blocks of the
 * mechanisms, which have instances only under their keys and are wired by their mechanism
 * (sm_mech.h: the SM top calls the hooks of the mechanisms a configuration selects and names
 * none of them). Instructions execute functionally when they issue (func/exec.c) with the
 * SIMT stack's active mask; the blocks decide when each warp can issue.
 *
 * Slots and contexts (base/slotmask.h): the blocks of the issue path (fetch, iss, ws, sb,
 * simt) index schedulable slots; a warp's state -- registers, local memory, its VWI, its
 * counters -- belongs to a context. The SM's slot table says which context each slot holds
 * (slot_ctx); each context knows its slot, CTA and warp index. The baseline binds context n
 * to slot n; a mechanism may keep more contexts than slots or give one context several slots.
 * Writebacks carry the VWI and are routed to the context's current slot, so a late writeback
 * for a context that left its slot never touches the new occupant.
 *
 * Ports towards the GPU (struct sm_io): one request per cycle leaves the L1 towards the
 * interconnect (with back-pressure), one response arrives; the CTA dispatcher hands a CTA to
 * the SM when the SM's cta_ready output (registered: computed at the end of the previous
 * cycle) says it can take one (sm_launch_cta, before the SM's evaluation in the same cycle;
 * it refuses, and the run stops, if it has no room after all); the late-write port takes
 * values produced outside the SM after issue (a GPU-level unit's reply) and writes them back
 * like any other result. Two GPU-wide signals reach the mechanisms (gpu.c): a counter the SMs
 * take values from in SM order (gnext in, gtake out) and a registered phase bit (gphase).
 */
#ifndef SM_H
#define SM_H
#include <stdint.h>
#include <stdio.h>
#include "bar.h"
#include "fetch.h"
#include "fu.h"
#include "iss.h"
#include "kgen.h"
#include "l1.h"
#include "ldst.h"
#include "sb.h"
#include "simt.h"
#include "smem.h"
#include "sm_mech.h"
#include "ws.h"
#include "base/block.h"
#include "base/config.h"
#include "base/gs_stats.h"
#include "base/memreq.h"
#include "base/slotmask.h"
#include "func/exec.h"
#include "func/gmem.h"
#include "func/probe.h"
#include "ptx/flow.h"

#define SM_MAX_SCHED ISS_MAX_SCHED
#define SM_NO_SLOT   0xFFu         /* a context that holds no slot */
#define SM_NO_CTX    0xFFFFu       /* a slot that holds no context */
/* The highest register number the SM can name: register numbers are 16 bits in its state (the
   decoder's destination and check lists, fu's and ldst's destination fields and the late-write
   port, where 0xFFFF means none; sb's ports and the mechanisms' units' register fields, and
   their RTL twins). A kernel
   naming a higher one is refused at launch (sm_regs_check). */
#define SM_MAX_REG   0xFFFEu

/* Stimulus recording of one block of this SM (gpu/record.h); set by the GPU top for SM 0. */
struct sm_rec {
    int      block;                /* enum blk_id of a recordable block, -1 = none */
    uint8_t *buf;                  /* allocated before the run */
    uint64_t len, cap, records;
    int      overflow;
};

struct sm_params {
    const struct gpu_config *conf;
    const struct ptx_prog *prog;
    const struct flow *flow;
    struct gmem *gmem;
    const uint8_t *params;
    struct gs_dim3 grid, block;
    uint32_t dyn_smem;
    uint32_t id;
    uint32_t cta_limit;            /* resident CTAs per SM for this launch (cta_limits) */
    uint32_t cta_active;           /* at most this many of them hold slots (= cta_limit unless a
                                      mechanism keeps CTAs inactive) */
    uint32_t ctx_bits;             /* a mechanism's context region: bits per CTA, 0 none ... */
    uint32_t ctx_bytes;            /* ... its shared-memory bytes (32-bit words) ... */
    uint32_t ctx_beats;            /* ... and shared-memory port beats per context, 0 ideal */
    uint32_t regs_cta;             /* registers one CTA allocates (cta_limits) */
    uint64_t spill_base, local_base;   /* timing addresses of SIMT spills / local memory */
    const struct probe_sink *sink; /* the instruction probe's sink (NULL = none) */
    uint64_t *lmem_held;           /* the launch's bytes of local memory reserved (or NULL) */
    struct ex_printf *pf;          /* device printf's output of the launch (or NULL) */
};

#define SM_MEMQ 4
struct sm_memq { struct mem_req e[SM_MEMQ]; uint32_t head, n; };   /* skid buffer to the L1 */

/* The late-write port: a value produced outside the SM after issue. */
struct sm_late {
    uint8_t  v;                    /* [0] */
    uint8_t  vwi;                  /* [7:0] the context it belongs to */
    uint16_t reg;                  /* [15:0] register */
    uint32_t mask;                 /* [31:0] lanes written */
    uint64_t val[32];              /* per lane, the register's raw bits */
};
/* ... and the request that asks for one: an issued instruction whose result comes later. */
struct sm_late_req {
    uint8_t  v;                    /* [0] */
    uint8_t  vwi;                  /* [7:0] */
    uint32_t pc;                   /* [31:0] the instruction */
    uint32_t mask;                 /* [31:0] lanes that executed it */
};
#define SM_LATEQ 16

struct sm_io {                     /* GPU side of the SM, per cycle */
    uint8_t  fill_valid;           /* in: response from the interconnect */
    struct mem_req fill;
    uint8_t  icnt_ready;           /* in: the interconnect accepts a request */
    struct sm_late late;           /* in: late write (taken when late_ready was 1) */
    uint8_t  miss_valid;           /* out: request towards the interconnect */
    struct mem_req miss;
    uint8_t  issued;               /* out: some warp issued */
    uint8_t  cta_ready;            /* out (registered): the SM can take a CTA next cycle */
    uint8_t  late_ready;           /* out (registered): the late-write port takes a value */
    uint32_t gnext;                /* in: the GPU-wide counter before this SM's takes */
    uint8_t  gtake;                /* out: values this SM took from it this cycle */
    uint8_t  gphase;               /* in (registered): the GPU-wide phase bit */
    struct sm_late_req late_req;   /* out: a late value is wanted */
};

struct sm_tb {                     /* a finished TB (or what a mechanism reports as one: its
                                      tbs hook), for the cycle-divergence and DWR statistics */
    uint64_t min_warp_cycles, max_warp_cycles;
    uint64_t stall_life, stall_dwr;
};

struct sm_ctx {                    /* one context (simulation bookkeeping of the SM top) */
    uint8_t  valid;
    uint8_t  cta;                  /* CTA slot */
    uint8_t  widx;                 /* warp index inside its CTA */
    uint8_t  slot;                 /* slot holding it, SM_NO_SLOT if none */
    uint8_t  done;                 /* its warp finished */
    uint64_t t_start, t_end;
};

struct sm_cta {
    uint8_t  valid;
    uint64_t id;                   /* linear CTA index */
    uint32_t ctaid[3];
    uint32_t nwarps, warps_done;
    uint16_t ctx[32];              /* its warps' contexts by warp index */
    uint64_t t_start, t_first_done;
    uint64_t stall_life, stall_dwr;    /* SM stall cycles while resident / in its DWR */
};

struct sm_stats {                  /* the S and I entries of base/stats_list.h */
    GS_SM_MEMBERS
};

/* One block instance as the registry loops see it (sm_blocks.c): built at init. */
struct sm_inst {
    void (*commit)(const void *cfg, void *q, const void *d);
    const void *cfg;
    void *q, *d;
    unsigned row;                  /* index of its row in sm_blocks.c */
    uint32_t k;                    /* instance number */
};
#define SM_MAX_INST (BLK_COUNT * SM_MAX_SCHED)

/* This cycle's issues: inputs of fu, ldst, smem and bar (built by sm_issue.c). */
struct sm_issue_out {
    struct fu_in   fu;
    struct ldst_in ld;             /* ld.issue is this cycle's LD/ST issue */
    struct smem_in sh;             /* sh.dem_* is this cycle's shared-memory access */
    struct bar_in  bar;
    uint32_t nbar;
    int      sh_sched;             /* the scheduler whose issue is the shared access */
    int      mem_taken;            /* an issue of this cycle took the LD/ST unit */
    struct sm_late_req late_req;   /* an issue of this cycle wants a late value */
};

struct sm {
    struct sm_params p;
    uint32_t nsched, nslots, nctx, nctas;
    uint32_t nwslots;              /* warp slots (0..nwslots-1); a mechanism's slots above */
    uint32_t nimg;                 /* SIMT spill images: one per context, and those a
                                      mechanism adds at init */
    struct iss_dec *dec;           /* per instruction of the program (the decoder's output) */
    /* Blocks (one member set per SM row of blocks.def): configuration, registered state q,
       next state d, outputs; arrays of X_instances() entries, allocated by sm_blocks.c. */
#define BLK(n, lvl, rtl, rec, err) BLK_SM_MEMBERS_##lvl(n)
#define BLK_SM_MEMBERS_SM(n) struct n##_cfg *n##_c; struct n##_regs *n##_q, *n##_d; \
                             struct n##_out *n##_o; uint32_t n##_n;
#define BLK_SM_MEMBERS_MEM(n)
#define BLK_SM_MEMBERS_GPU(n)
#include "base/blocks.def"
#undef BLK
    struct sm_inst inst[SM_MAX_INST];  /* every block instance, for commit */
    const uint8_t *errs[SM_MAX_INST];  /* the err outputs of the blocks that have one ... */
    uint8_t err_row[SM_MAX_INST];      /* ... and their rows */
    uint32_t ninst, nerrs;
    /* inputs kept between cycles (only the fields that change are rewritten) */
    struct sb_in  sb_in;
    struct simt_in simt_in;
    struct iss_in iss_in;
    struct ws_in  ws_in[SM_MAX_SCHED];
    struct sm_issue_out io;
    struct sm_memq fq, sq;         /* fetch-miss and SIMT spill/fill requests */
    /* latches between cycles (what issued in the previous cycle) */
    struct simt_upd upd_latch[SIMT_UPD_PORTS];
    struct fetch_consume cons_latch[FETCH_CONSUME_PORTS];
    struct sb_res res_latch[SB_RES_PORTS];
    /* the I-buffer heads sb's check port last saw and their hazards (sm.c sb_step: a head is
       checked again only when it or its pending row changes) */
    slotmask hd_v, hd_hazard;
    uint64_t still;                /* blocks (bits by BLKID) whose eval left d == q this cycle */
    uint32_t hd_pc[SM_MAX_SLOTS];
    struct iss_issue iss_latch[SM_MAX_SCHED];
    struct kgen_in kgen_in;
    slotmask issued_slots;         /* slots that issued this cycle */
    uint8_t  gphase;               /* the GPU's phase bit, this cycle */
    uint64_t bar_release;          /* bar's output of the previous cycle (CTA slots) */
    uint64_t cta_launched;         /* CTA slots launched, seen by the blocks next cycle */
    slotmask launch_pending;       /* slots launched, seen by the blocks next cycle */
    uint32_t launch_mask[SM_MAX_SLOTS];
    /* slot table, contexts, CTAs */
    uint16_t slot_ctx[SM_MAX_SLOTS];   /* context held by each slot, SM_NO_CTX if none */
    struct sm_ctx ctx[SM_MAX_CTX];
    struct sm_cta ctas[SM_MAX_CTAS];
    uint32_t nwarps_per_cta;
    uint32_t nctas_res;            /* resident CTAs */
    uint32_t ndone;                /* CTAs that completed this cycle */
    slotmask live;                 /* slots launched and not finished */
    slotmask used;                 /* slots bound to a context of a resident CTA */
    uint64_t cta_valid;            /* resident CTA slots */
    uint64_t cta_draining;         /* CTAs whose warps all finished (writebacks pending) */
    uint8_t  cta_ready;            /* registered: can take a CTA */
    uint8_t  ready_dirty;          /* residency changed: recompute cta_ready */
    /* late writes waiting for a writeback port */
    struct sm_late lateq[SM_LATEQ];
    uint32_t lateq_n;
    struct simt_image *simt_img;   /* SIMT spill images (global memory), one per context */
    /* functional state, keyed by context */
    uint64_t *regs;                /* nctx x nregs x 32 */
    uint8_t  *smem, *pscratch;         /* per CTA slot / per context */
    struct ex_lmem *lmem;              /* [nlmem] per context, reserved as stored to (exec.h) */
    uint32_t nlmem;
    uint32_t smem_size;
    struct ex_ctx ex;
    struct ex_result res;
    uint64_t now;                  /* the cycle being evaluated */
    /* statistics */
    struct gs_stats *st;
    struct sm_stats s;
    struct probe probe;            /* instruction counting (func/probe.h) ... */
    struct probe_warp pw[SM_MAX_CTX];  /* ... per context */
    struct sm_rec *rec;            /* NULL unless this SM records a block's inputs */
    /* time_skip (sm_sleep.c): the quiet cycles seen, and the sleep they allow */
    struct sm_stats sq_before;     /* s at the start of this cycle */
    struct sm_stats sq_delta;      /* what each quiet cycle of the current run counted */
    uint64_t sq_next;              /* the run's next event (fu, l1): constant over the run */
    uint64_t sq_wake;              /* asleep until this cycle (0: awake) */
    uint64_t sq_owed;              /* cycles slept and not yet credited (sm_sleep_settle) */
    uint32_t sq_run;               /* consecutive quiet cycles in the run */
    uint32_t sq_hold, sq_backoff;  /* cycles left without a state comparison; the next hold */
    uint64_t sq_last;              /* the last cycle evaluated */
    uint8_t  sq_step;              /* the mechanisms whose blocks drifted in each cycle of the
                                      run (a bit per mechanism, sm_mech_drift) */
    uint8_t  sq_drift;             /* asleep: the drift to catch up at the next evaluation */
    uint8_t  sq_events;            /* this cycle began with something to consume: an issue's
                                      latches, a launch, a residency change, a late write, a
                                      fill, a barrier release, a writeback, a queued request */
    uint8_t  sq_busy;              /* sm_busy while asleep (the GPU's busy_cycles) */
    uint8_t  sq_check;             /* CHECK=1: this cycle was predicted quiet */
    uint8_t  sq_issued;            /* the last evaluated cycle issued (its latches are read
                                      by the next) */
    struct sm_sqout {              /* the outputs of fu and ldst that the next cycle reads */
        uint64_t cycle;            /* when (evaluated); one entry per grant phase */
        uint8_t  uf[FU_MAX_SCHED];
        uint8_t  full, can_issue, nact, ninact;
    } sq_out[SM_MAX_SCHED];
    struct sm *sq_shadow, *sq_tmp; /* CHECK=1: the SM after its last quiet cycle, neutralised */
    /* the mechanisms the configuration selects (sm_mech.h), their states, what they drive */
    const struct sm_mech *mech[SM_MECH_MAX];
    void    *mst[SM_MECH_MAX];
    uint32_t nmech, mflags;        /* ... and the OR of their flags */
    uint64_t mdrift;               /* ... of their drift_blocks */
    uint8_t *mstate;               /* one allocation holding every state */
    size_t   msize;
    struct sm_mport mport;
    uint8_t *sq_mshadow, *sq_mtmp;  /* CHECK=1: the mechanisms' states beside sq_shadow, sq_tmp */
    char err[PTX_ERR_LEN + 256];
    int  failed;
};

int  sm_init(struct sm *s, const struct sm_params *p, struct gs_stats *st, char *err, size_t errlen);
void sm_free(struct sm *s);
/* Take CTA `cta` (its linear index): 0, or -1 when the SM has no room for it -- which its
   cta_ready output, the only way the dispatcher offers one, says cannot happen: the caller
   stops the run naming the SM and the CTA rather than lose the CTA. */
int  sm_launch_cta(struct sm *s, uint64_t cta, uint64_t now);
/* One cycle. *tbs receives the TBs that finished (at most SM_MAX_CTAS). Returns 0, or -1 when
   a kernel fault or a block error stopped the SM (message in s->err). */
int  sm_cycle(struct sm *s, uint64_t now, struct sm_io *io, struct sm_tb *tbs, uint32_t *nfin);
/* Anything resident or in flight? */
int  sm_busy(const struct sm *s);
/* Would a cycle change nothing? Then sm_skip_cycle accounts for it instead (identical stats). */
int  sm_idle(const struct sm *s);
void sm_skip_cycle(struct sm *s, struct sm_io *io);
/* The outputs of a cycle that changes nothing: the given ready bits, no miss, no issue, no
   late-write request (sm_skip_cycle's, and the GPU's for an SM not yet set up). */
void sm_idle_io(struct sm_io *io, uint8_t cta_ready, uint8_t late_ready);
/* sm_sleep.c (time_skip): an SM whose cycles change nothing but counters sleeps until its
   next event; asleep, each cycle is credited (sm_sleep_credit) instead of evaluated: owed,
   and added to the statistics when it wakes or before they are read (sm_sleep_settle). */
int  sm_asleep(const struct sm *s, uint64_t now, const struct sm_io *io);
void sm_sleep_credit(struct sm *s, uint64_t n);
void sm_sleep_settle(struct sm *s);
void sm_sleep_wake(struct sm *s);
int  sm_sleep_init(struct sm *s);
void sm_sleep_free(struct sm *s);
/* Deadlock dump: every slot's context, PC, mask, stack depth, scoreboard and barrier state. */
void sm_dump(const struct sm *s, FILE *f);

/* ---- inside the SM top (sm_*.c) ---- */
/* sm_blocks.c: the SM rows of the registry; allocation, reset, commit, checks. */
int  sm_blocks_init(struct sm *s, char *err, size_t errlen);
void sm_blocks_free(struct sm *s);
void sm_blocks_reset(struct sm *s);
/* Every block's commit, but the blocks in `still` (bits by BLKID): their eval left d == q this
   cycle (simt_still, sb_rows_written, fetch_still), so there is nothing to copy; CHECK=1 builds compare
   q and d of every block after the commit, these included. */
void sm_blocks_commit(struct sm *s, uint64_t still);
int  sm_blocks_errors(struct sm *s);   /* -1 (message in s->err) if a block raised an error */
const struct blk_desc *sm_block_desc(unsigned id);
/* Append one record (cycle + input bytes) when block `id` instance 0 is being recorded. */
void sm_rec_put(struct sm *s, unsigned id, uint32_t inst, const void *in, uint32_t size);
#define sm_rec(s, id, inst, in, size) \
    do { if ((s)->rec) sm_rec_put(s, id, inst, in, size); } while (0)
/* The kernel names no register above SM_MAX_REG (its linked program, the registers a
   transform of the program added included): 0, or -1 with a message naming the kernel, the register, its number,
   the kernel's register count and the limit. sm_init and the host's launch check it. */
int  sm_regs_check(const struct ptx_prog *p, char *err, size_t errlen);
/* sm_cta.c: CTAs, contexts, the slot table. */
int  sm_can_launch(const struct sm *s);
void sm_retire(struct sm *s, uint64_t now, struct sm_tb *tbs, uint32_t *nfin);
void sm_charge_stall(struct sm *s, uint32_t issued, uint64_t n);   /* n cycles */
/* sm_issue.c: the schedulers' picks executed. */
int  sm_schedule(struct sm *s, uint64_t now, uint32_t *issued);
void sm_late_writes(struct sm *s, struct sm_io *io, struct sb_in *sb, struct iss_in *iss,
                    uint32_t *nrel);
/* A scoreboard release of one slot (SM_NO_SLOT: none, the port stays idle). */
static inline struct sb_rel sm_sb_rel(uint8_t slot, uint8_t vwi, uint16_t reg)
{
    return (struct sb_rel){.v = slot != SM_NO_SLOT,
                           .slots = slot != SM_NO_SLOT ? slot_bit(slot) : 0,
                           .vwi = vwi, .reg = reg};
}
/* sm_sleep.c: the cycle's start and end as time_skip watches them. */
void sm_sleep_begin(struct sm *s, const struct sm_io *io);
int  sm_sleep_end(struct sm *s, uint32_t issued, uint32_t nfin, const struct sm_io *io, int src,
                  const struct l1_out *lo);
/* sm_blocks.c: every block instance left its registers as they were (d == q before commit),
   apart from the blocks whose bit (1 << BLKID_x) is set in skip. */
int  sm_blocks_unchanged(const struct sm *s, uint64_t skip);
/* sm_port.c: the L1 and its request queues. */
int  sm_l1_step(struct sm *s, uint64_t now, struct sm_io *io, struct l1_out *lo);
void sm_memq_push(struct sm_memq *q, const struct mem_req *r, uint64_t now);

#endif
