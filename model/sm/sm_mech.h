/*
 * sm_mech.h -- the SM's mechanism interface: how a proposed mechanism (VT, DWS, VTW's
 * hardware form, or an architect's own) plugs into the SM top without an edit to it.
 *
 * A mechanism is a struct sm_mech: its name, whether a configuration selects it, the size of
 * its own state (allocated zeroed by the SM, one per SM, handed to every hook), and hooks at
 * the SM's declared points. Every hook is optional (NULL: nothing at that point). The SM calls
 * the hooks of the mechanisms its configuration selects, in registry order (the built-in
 * ones, then those added with sm_mech_register), at these points of the cycle (sm.c's order):
 *
 *   set-up     init (after the blocks are allocated, before the functional state: may add
 *              SIMT spill images, s->nimg), free.
 *   CTAs       admit (flag SM_MECH_INACTIVE: a CTA may be resident without slots; admit says
 *              whether the CTA dispatched now starts active), cta_launched (after its warps
 *              are bound), warp_started (a warp took a slot with its context: every launch
 *              path calls it), warp_done (a slot's warp finished), cta_done (its contexts and
 *              slots are free), tbs (flag SM_MECH_OWN_TBS: the mechanism reports the finished
 *              TBs instead of the SM's CTAs), stall (n stall cycles charged to CTA slot c).
 *   cycle      begin (start of the cycle: apply what the mechanism decided in the last one;
 *              drive s->mport: fence, flush, fresh); route (a writeback's scoreboard release,
 *              which the SM built for the context's slot); late_src (before the late-write
 *              port drains: replies of the mechanism's units join s->lateq); sb_ports (its
 *              ports of sb this cycle); hold (slots the issue stage holds); keys (scheduler
 *              k's priority keys after kgen's); picked (scheduler k's pick, for statistics);
 *              lanes (the lanes slot w's issue executes for: 0 none); own (the lanes slot w
 *              owns, carried with its writes); issued (slot w issued the instruction at pc
 *              through update port `port`); late (an issued instruction whose value comes
 *              later: 1 when the mechanism's unit answers it, else the late-write request
 *              goes to the GPU); after_issue (after every scheduler issued, before retire);
 *              end (after the units).
 *   time_skip  pending (the cycle has a command of the mechanism to consume: not quiet),
 *              busy (requests in flight: the SM is not idle), drift / skip (flag bits of
 *              drift_blocks: blocks with a free-running pointer -- drift: -1 changed, 0 still,
 *              1 moved by its own rule; skip: move it on by n slept cycles), next_event (a
 *              cycle at which something of the mechanism falls due), neutral (CHECK=1: clear
 *              in a copy of the state what a quiet cycle may change).
 *   cost       storage (its wiring's registers: command latches, queues; sm_storage lists
 *              them with the SM top's own, for the cost estimator).
 *
 * A mechanism reads the blocks it uses through their outputs and ports (s->X_o, s->X_in) and
 * writes their input ports (the built-in ones still read some registers directly:
 * docs/adding-a-mechanism.md lists them); its own blocks are rows of model/base/blocks.def
 * (their instances, co-simulation and cost come from the registry). Configuration keys and their checks are in
 * model/base/config.c; docs/adding-a-mechanism.md walks through the whole path.
 */
#ifndef SM_MECH_H
#define SM_MECH_H
#include <stddef.h>
#include <stdint.h>
#include "base/config.h"
#include "base/slotmask.h"

struct sm;
struct sm_io;
struct sm_tb;
struct sb_in;
struct sb_rel;
struct ws_in;
struct ws_out;
struct ptx_insn;
struct cost_list;

#define SM_MECH_MAX 8              /* mechanisms known (built-in and registered) */
#define SM_MECH_INACTIVE 1u        /* CTAs may be resident without slots (admit) */
#define SM_MECH_OWN_TBS  2u        /* the mechanism reports finished TBs (tbs) */

struct sm_mech {
    const char *name;
    uint32_t flags;                /* SM_MECH_* */
    uint64_t drift_blocks;         /* its blocks (bits by BLKID) compared by drift, not bytes */
    size_t   state_size;           /* its state, zeroed at set-up */
    int      (*selected)(const struct gpu_config *c);
    int      (*init)(struct sm *s, void *st, char *err, size_t errlen);
    void     (*free)(struct sm *s, void *st);
    int      (*admit)(const struct sm *s, const void *st);
    void     (*cta_launched)(struct sm *s, void *st, uint32_t c, int act);
    void     (*warp_started)(struct sm *s, void *st, uint32_t w, uint32_t x);
    void     (*warp_done)(struct sm *s, void *st, uint32_t w, uint32_t x);
    void     (*cta_done)(struct sm *s, void *st, uint32_t c);
    void     (*tbs)(struct sm *s, void *st, struct sm_tb *tbs, uint32_t *nfin);
    void     (*stall)(struct sm *s, void *st, uint32_t c, uint64_t n);
    void     (*begin)(struct sm *s, void *st);
    void     (*route)(struct sm *s, void *st, uint8_t vwi, uint32_t own, struct sb_rel *rel);
    void     (*late_src)(struct sm *s, void *st, struct sm_io *io);
    void     (*sb_ports)(struct sm *s, void *st, struct sb_in *in);
    slotmask (*hold)(struct sm *s, void *st);
    void     (*keys)(struct sm *s, void *st, uint32_t k, struct ws_in *in);
    void     (*picked)(struct sm *s, void *st, uint32_t k, const struct ws_in *in,
                       const struct ws_out *out);
    uint32_t (*lanes)(struct sm *s, void *st, uint32_t w, uint32_t pc, uint32_t mask);
    uint32_t (*own)(const struct sm *s, const void *st, uint32_t w);
    void     (*issued)(struct sm *s, void *st, uint32_t port, uint32_t w, uint32_t x,
                       uint32_t pc);
    int      (*late)(struct sm *s, void *st, uint32_t sched, uint32_t x,
                     const struct ptx_insn *in, uint32_t mask);
    void     (*after_issue)(struct sm *s, void *st);
    void     (*end)(struct sm *s, void *st);
    int      (*pending)(const struct sm *s, const void *st);
    int      (*busy)(const struct sm *s, const void *st);
    int      (*drift)(const struct sm *s, const void *st);
    void     (*skip)(struct sm *s, void *st, uint64_t n);
    uint64_t (*next_event)(const struct sm *s, const void *st, uint64_t now);
    void     (*neutral)(void *st);
    /* its wiring's storage (model/base/cost.h), items of block "sm" (its blocks declare
       their own) */
    void     (*storage)(const struct gpu_config *c, struct cost_list *l);
};

/* What the mechanisms drive into the SM top in a cycle (reset at its start, set by begin). */
struct sm_mport {
    slotmask fence;                /* slots that neither issue nor fetch */
    slotmask flush;                /* slots whose I-buffer is flushed */
    slotmask fresh;                /* slots the schedulers see as new (youngest) */
};

/* Add a mechanism to the registry (before the SMs are set up; key 'mechs' switches it on):
   0, or -1 when the registry is full, another mechanism has its name, or the name is empty,
   "none" or holds a comma. */
int sm_mech_register(const struct sm_mech *m);
/* Does key 'mechs' of c name `name`? (a registered mechanism's selected hook) */
int sm_mech_named(const struct gpu_config *c, const char *name);
/* Every name in key 'mechs' is a registered mechanism's, not a built-in one's: 0, or -1 with a
   message naming the key (checked with the configuration, gpu/blocks.c, and at set-up). */
int sm_mech_conf_check(const struct gpu_config *c, char *err, size_t errlen);
/* The registry: n mechanisms (built-in first). */
const struct sm_mech *const *sm_mech_list(unsigned *n);

/* The SM's side (sm_mech.c): the selected mechanisms' state, and each point's hooks called. */
int      sm_mech_init(struct sm *s, char *err, size_t errlen);
void     sm_mech_free(struct sm *s);
int      sm_mech_admit(const struct sm *s);
void     sm_mech_cta_launched(struct sm *s, uint32_t c, int act);
void     sm_mech_warp_started(struct sm *s, uint32_t w, uint32_t x);
void     sm_mech_warp_done(struct sm *s, uint32_t w, uint32_t x);
void     sm_mech_cta_done(struct sm *s, uint32_t c);
void     sm_mech_tbs(struct sm *s, struct sm_tb *tbs, uint32_t *nfin);
void     sm_mech_stall(struct sm *s, uint32_t c, uint64_t n);
void     sm_mech_begin(struct sm *s);
void     sm_mech_route(struct sm *s, uint8_t vwi, uint32_t own, struct sb_rel *rel);
void     sm_mech_late_src(struct sm *s, struct sm_io *io);
void     sm_mech_sb_ports(struct sm *s, struct sb_in *in);
slotmask sm_mech_hold(struct sm *s);
void     sm_mech_keys(struct sm *s, uint32_t k, struct ws_in *in);
void     sm_mech_picked(struct sm *s, uint32_t k, const struct ws_in *in, const struct ws_out *out);
uint32_t sm_mech_lanes(struct sm *s, uint32_t w, uint32_t pc, uint32_t mask);
uint32_t sm_mech_own(const struct sm *s, uint32_t w);
void     sm_mech_issued(struct sm *s, uint32_t port, uint32_t w, uint32_t x, uint32_t pc);
int      sm_mech_late(struct sm *s, uint32_t sched, uint32_t x, const struct ptx_insn *in,
                      uint32_t mask);
void     sm_mech_after_issue(struct sm *s);
void     sm_mech_end(struct sm *s);
int      sm_mech_pending(const struct sm *s);
int      sm_mech_busy(const struct sm *s);
/* -1 when a drifting block changed otherwise; else *step = the mechanisms that drifted. */
int      sm_mech_drift(const struct sm *s, uint8_t *step);
void     sm_mech_skip(struct sm *s, uint8_t step, uint64_t n);
uint64_t sm_mech_next_event(const struct sm *s, uint64_t next);
void     sm_mech_neutral(const struct sm *s, void *copy);

/* The storage of the SM top (sm_cost.c: its tables and skid buffers) and of the wiring of
   every mechanism c selects, as block "sm" (the estimator adds it to the blocks'). */
void sm_storage(const struct gpu_config *c, struct cost_list *l);

/* The built-in mechanisms (sm_vt.c, sm_dws.c, sm_vtw.c). */
extern const struct sm_mech sm_mech_vt, sm_mech_dws, sm_mech_vtw;

#endif
