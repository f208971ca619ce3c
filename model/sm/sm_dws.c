/*
 * sm_dws.c -- the SM top's wiring of dynamic warp subdivision (002_ddcb2f79a6edfee4.txt; the
 * blocks: wst, the warp-split table, docs/wst.md; simt's regime, split, merge and release
 * ports, docs/simt.md; sb's slot-set releases, copy, merge and merge check, docs/sb.md).
 *
 * Slots: 0..nwslots-1 are the warps' home slots (bound to their contexts as in the baseline),
 * nwslots.. the split slots (wst entry e is slot nwslots + e). A split slot shares its warp's
 * context; its spill image is nctx + slot. Every slot of a warp owns a disjoint set of lanes
 * (wst own[]); a write carries the owned lanes of the slot that issued it (fu, ldst) and its
 * writeback clears the register in every slot of the context whose lanes meet them.
 *
 * Per cycle t:
 *   - start (dws_apply): what wst decided in t-1 goes to the blocks: a memory split to
 *     simt's split port, sb's copy port (the load's destinations left out) and ldst's detach
 *     port; a merge to simt's and sb's merge ports; a release to simt's release port; the
 *     branch split issued in t-1 (simt took it on its update port) to sb's copy port. New
 *     split slots become live and fresh, merged-away slots free.
 *   - sb: the merge check port asks about wst's registered candidate.
 *   - issue (dws_branch): a divergent conditional branch splits when the table has a free
 *     entry and the branch may split: its slot is at its regime level (a warp already split
 *     splits on every divergent branch) or, outside the regime, the branch passes the
 *     short-post-dominator heuristic (iss_dec.wst); and, under dws_oversub = 1 (002
 *     "Implementation: Reconvergence Challenges": "subdivide only when all available
 *     warp-splits are suspended"), no other live slot of the SM is active; not under
 *     revive_mem (memory only). The not-taken lanes go to the free slot at pc + 1. Each such
 *     branch is a split chance, counted split or refused by reason (branch_refusal).
 *   - after issue (dws_step): wst with this cycle's simt outputs, issues, branch split, the
 *     partial load completion of t-1 and sb's answers; its decisions are latched for t+1.
 *   - after the units (dws_completion): ldst's partial completion of a load whose completed
 *     lanes include an L1 hit is latched as the memory-split candidate for t+1, if its slot
 *     can still give those lanes away (they are active in its mask, not all of it): a memory
 *     split chance, which wst splits or refuses with its reason (ev_mref, counted in
 *     dws_step; "moved" when the slot issued meanwhile).
 * A slot of a split warp does not issue a warp-level instruction -- bar.sync, shfl, vote,
 * activemask (dws_hold) -- with its own lanes: its warp's splits meet at the instruction's
 * pc and merge first, so that a shuffle reads lanes that have written their sources, a vote or
 * activemask sees the lanes the SIMT stack would run together, and a barrier arrives once --
 * unless no merge can make the warp whole any more (some lanes reach the instruction and the
 * others do not, as in a divergent region): then one held slot at a time goes (bar_turn). The
 * instruction it issues executes for the lanes of every slot of the warp held at the same
 * instruction too (they cannot merge: one is inside a divergent region of its own stack), as
 * the SIMT stack would run them together (a barrier: the warp arrives once); those slots issue
 * it later for the timing alone (dws_lanes, wl_done).
 *
 * Plugged into the SM top through the mechanism interface (sm_mech.h: sm_mech_dws). The
 * scheduler's "widest warp-split first" is a key generator policy (kgen KGEN_WIDEST). For
 * time_skip (sm_sleep.c): a
 * cycle that applies wst's memory split, branch-split copy, merge or release, or offers a
 * memory-split candidate, is not quiet (dws_pending); wst's PC matcher moves by one each cycle
 * while no entry is idle at regime level: compared but for it (wst_drift), moved on by the
 * cycles slept (wst_skip); with two or more entries idle the matcher takes them in turn and
 * its candidate alternates: no such cycle is quiet.
 */
#include <stdlib.h>
#include <string.h>
#include "sm.h"
#include "sm_dws.h"
#include "sm_limits.h"
#include "wst.h"
#include "base/cost.h"

struct dws {
    struct wst_split bsplit;       /* this cycle's branch split (issue) ... */
    uint8_t  bsplit_dst;           /* ... into this slot (wst's free entry) */
    struct wst_split bsplit_prev;  /* last cycle's: the sb copy of this cycle */
    uint8_t  bsplit_prev_dst;
    struct wst_mcand mcand;        /* last cycle's partial completion, offered this cycle */
    uint8_t  mc_tag, mc_n;         /* its load's pending entry and destinations */
    uint16_t mc_reg[LDST_MAX_DST];
    struct wst_msplit msplit;      /* decided last cycle, applied this cycle */
    uint8_t  ms_tag, ms_n;
    uint16_t ms_reg[LDST_MAX_DST];
    struct wst_pair merge;         /* decided last cycle, applied this cycle */
    struct wst_rel rel;            /* decided last cycle, applied this cycle */
    slotmask cslots[SM_MAX_CTX];   /* the slots each context holds (home and splits) */
    slotmask wl_done;              /* slots whose head warp-level instruction an earlier slot
                                      of their group executed for their lanes (dws_lanes) */
    uint8_t  none_idle;            /* wst's PC matcher had no entry to pick this cycle (its
                                      pointer moves on: wst_drift, time_skip) */
    uint8_t *short_pd;             /* per pc: a conditional branch that passes the
                                      short-post-dominator heuristic (sm_wst_branch) */
};

const char *const sm_dws_bref_names[SM_BR_N] = { "long_pd", "nested", "mflag", "one_per_cycle",
                                                  "rule", "full" };
const char *const sm_dws_mref_names[SM_MR_N] = { "not_own", "nested", "busy", "policy",
                                                  "branch_split", "full", "moved" };

static int dws_selected(const struct gpu_config *c)
{
    return c->dws != DWS_OFF;
}

/* A spill image per slot beside the contexts' (a split's image is nctx + slot); the branches
   that pass the short-post-dominator heuristic. */
static int dws_init(struct sm *s, void *st, char *err, size_t errlen)
{
    struct dws *d = st;
    const struct ptx_prog *p = s->p.prog;
    s->nimg = s->nctx + s->nslots;
    d->short_pd = calloc(p->ninsns ? p->ninsns : 1, 1);
    if (!d->short_pd) {
        snprintf(err, errlen, "out of host memory for SM %u's DWS branch table", s->p.id);
        return -1;
    }
    for (uint32_t pc = 0; pc < p->ninsns; pc++)
        d->short_pd[pc] = sm_wst_branch(s->p.conf, s->p.flow, pc);
    return 0;
}

static void dws_free(struct sm *s, void *st)
{
    (void)s;
    free(((struct dws *)st)->short_pd);
}

/* The home slot of slot w (a split slot's warp). */
static uint32_t home_of(const struct sm *s, uint32_t w)
{
    return w < s->nwslots ? w : s->wst_q->home[w - s->nwslots];
}

static int in_regime(const struct sm *s, uint32_t w)
{
    return (int)(s->wst_q->reg_on >> home_of(s, w) & 1);
}

/* A new split slot dst of slot src's context: live, fresh, in the context's slot set; at src's
   pc, with src's wl_done (a memory split of a slot held at a warp-level instruction). */
static void add_slot(struct sm *s, struct dws *d, uint32_t src, uint32_t dst)
{
    uint16_t x = s->slot_ctx[src];
    s->slot_ctx[dst] = x;
    s->iss_in.slot_ctx[dst] = (uint8_t)x;
    d->cslots[x] |= slot_bit(dst);
    s->live |= slot_bit(dst);
    s->used |= slot_bit(dst);
    s->mport.fresh |= slot_bit(dst);
    d->wl_done &= ~slot_bit(dst);
    d->wl_done |= slot_has(d->wl_done, src) ? slot_bit(dst) : 0;
}

/* A split slot merged away: free. */
static void free_slot(struct sm *s, struct dws *d, uint32_t w)
{
    uint16_t x = s->slot_ctx[w];
    if (x != SM_NO_CTX)
        d->cslots[x] &= ~slot_bit(w);
    s->slot_ctx[w] = SM_NO_CTX;
    s->live &= ~slot_bit(w);
    s->used &= ~slot_bit(w);
    d->wl_done &= ~slot_bit(w);
}

/* Slots dst and src merge: has an earlier issue executed the merged slot's head for all its
   lanes? (an empty slot, one whose lanes all exited, brings none) */
static int merged_done(const struct sm *s, const struct dws *d, uint32_t dst, uint32_t src)
{
    const uint32_t *m = s->simt_o->mask;
    slotmask k = d->wl_done;
    return (m[dst] | m[src]) && (!m[dst] || slot_has(k, dst)) && (!m[src] || slot_has(k, src));
}

static void dws_apply(struct sm *s, void *st)
{
    struct dws *d = st;
    struct simt_in *si = &s->simt_in;
    struct sb_in *sb = &s->sb_in;
    struct ldst_in *li = &s->io.ld;
    memset(&si->split, 0, sizeof si->split);
    memset(&si->merge, 0, sizeof si->merge);
    memset(&si->rel, 0, sizeof si->rel);
    memset(&sb->copy, 0, sizeof sb->copy);
    memset(&sb->merge, 0, sizeof sb->merge);
    li->detach_v = 0;
    if (d->msplit.v) {
        si->split = (struct simt_msplit){ 1, d->msplit.src, d->msplit.dst, d->msplit.lanes,
                                          (uint8_t)(s->nctx + d->msplit.dst) };
        sb->copy = (struct sb_copy){ .v = 1, .src = d->msplit.src, .dst = d->msplit.dst,
                                     .n = d->ms_n };
        memcpy(sb->copy.reg, d->ms_reg, sizeof sb->copy.reg);
        li->detach_v = d->ms_tag != SM_DWS_NO_TAG;
        li->detach_tag = d->ms_tag;
        li->detach_lanes = d->msplit.lanes;
        add_slot(s, d, d->msplit.src, d->msplit.dst);
    } else if (d->bsplit_prev.v) {          /* simt splits it on its update port this cycle */
        sb->copy = (struct sb_copy){ .v = 1, .src = d->bsplit_prev.src,
                                     .dst = d->bsplit_prev_dst };
        add_slot(s, d, d->bsplit_prev.src, d->bsplit_prev_dst);
    }
    if (d->merge.v) {
        si->merge = (struct simt_merge){ 1, d->merge.dst, d->merge.src };
        sb->merge = (struct sb_merge){ 1, d->merge.dst, d->merge.src };
        d->wl_done &= ~slot_bit(d->merge.dst);
        d->wl_done |= merged_done(s, d, d->merge.dst, d->merge.src) ? slot_bit(d->merge.dst) : 0;
        free_slot(s, d, d->merge.src);
    }
    if (d->rel.v)
        si->rel = (struct simt_rel){ 1, d->rel.slot };
    d->msplit.v = d->merge.v = d->rel.v = 0;
    d->bsplit_prev.v = 0;
}

/* A writeback of context ctx owned by `lanes`: released in every slot of the context whose
   lanes it meets (every split that owns a lane of the write). */
static void dws_route(struct sm *s, void *st, uint8_t ctx, uint32_t lanes, struct sb_rel *rel)
{
    const struct dws *d = st;
    slotmask m = d->cslots[ctx], r = 0, tmp;
    unsigned w;
    for (SLOT_EACH(w, m, tmp))
        if (s->wst_q->own[w] & lanes)
            r |= slot_bit(w);
    rel->slots = r;
    rel->v = r != 0;
}

/* The lanes slot w owns: a warp's slots own disjoint sets (wst's own[]). */
static uint32_t dws_own(const struct sm *s, const void *st, uint32_t w)
{
    (void)st;
    return s->wst_q->own[w];
}

/* sb's merge check port: wst's registered merge candidate. */
static void dws_sb_ports(struct sm *s, void *st, struct sb_in *in)
{
    (void)st;
    in->mchk = (struct sb_mchk){ s->wst_q->cand.v, s->wst_q->cand.dst, s->wst_q->cand.src };
}

/* May slots a and b of one warp (nsplit split slots) merge, as wst's PC matcher pairs them
   (wst.h): both at their regime level, at the same pc -- or one empty: a split slot, or the
   home when it has one split left. At the same pc a latency pair (wst_latency_pair) merges
   too, later: the suspended slot's wait ends. */
static int may_merge(const struct sm *s, uint32_t a, uint32_t b, uint32_t nsplit)
{
    const struct simt_out *o = s->simt_o;
    uint32_t n = s->nwslots;
    if (!slot_has(o->lvl, a) || !slot_has(o->lvl, b))
        return 0;
    return o->pc[a] == o->pc[b] || (!o->mask[a] && (a >= n || nsplit == 1)) ||
           (!o->mask[b] && (b >= n || nsplit == 1));
}

/* Does every path from the barrier at pc a reach the one at pc b (b post-dominates a: later
   in a's block, or b's block on a's chain of immediate post-dominators)? */
static int bar_after(const struct flow *f, uint32_t a, uint32_t b)
{
    uint32_t ba = f->block_of[a], bb = f->block_of[b], k = ba;
    if (ba == bb)
        return b > a;
    for (uint32_t n = 0; n < f->nblocks && k < f->nblocks; n++) {
        k = f->blocks[k].ipdom;
        if (k == bb)
            return 1;
    }
    return 0;
}

/* The held slot of a split warp (slots ws, held: those whose head is a warp-level
   instruction, warp_level) that goes to it now, or 0. The warp's splits meet at the
   instruction's pc and merge before they issue it; but where every slot waits -- held, or
   arrived at the regime's reconvergence point -- and no two of them can merge any more, the
   warp can never be whole there: some lanes reach the instruction and the others do not (a
   barrier: docs/functional.md, the warp arrives as if whole, as without DWS; a shuffle or vote
   inside a divergent region, which the SIMT stack runs with the region's lanes alone). Then
   one held slot goes: one whose instruction no other held slot's comes after on every path
   (so that a later one stays a meeting point, as the SIMT stack reaches it only once the
   earlier one is passed), the lowest such slot (the home keeps a branch's taken lanes, which
   the SIMT stack runs first). One at a time: the others see it running again until it waits
   once more. */
static slotmask bar_turn(const struct sm *s, slotmask ws, slotmask held)
{
    const struct simt_out *o = s->simt_o;
    const uint32_t *pc = s->fetch_o->head_pc;    /* the held instructions' pcs */
    slotmask ready = held & ~o->busy, c, t1, t2;
    uint32_t nsplit = slot_count(ws) - 1;
    unsigned a, b;
    if (ws & ~(ready | o->arr) || !ready)
        return 0;                          /* a slot still runs, or works on its stack */
    for (SLOT_EACH(a, ws, t1))
        for (SLOT_EACH(b, ws & ~slot_first(a + 1), t2))
            if (may_merge(s, a, b, nsplit))
                return 0;                  /* wst will merge them first */
    c = ready;
    for (SLOT_EACH(a, ready, t1))
        for (SLOT_EACH(b, ready, t2))
            if (a != b && bar_after(s->p.flow, pc[b], pc[a]))
                c &= ~slot_bit(a);         /* b's instruction comes first */
    return c ? slot_bit(slot_ctz(c)) : 0;
}

/* Instructions that a warp's lanes execute together (a barrier arrives once per warp; a shuffle
   reads other lanes' registers; a vote or activemask reports the lanes that run with it). */
static int warp_level(unsigned op)
{
    return op == OP_BAR || op == OP_SHFL || op == OP_VOTE || op == OP_ACTIVEMASK;
}

/* Slots of split warps whose I-buffer head is a warp-level instruction: they wait until the
   warp is whole, or until bar_turn lets one of them go. */
static slotmask dws_hold(struct sm *s, void *st)
{
    const struct dws *d = st;
    slotmask m = s->fetch_o->head_v & s->live, h = 0, left, tmp;
    unsigned w;
    for (SLOT_EACH(w, m, tmp))
        if (warp_level(s->p.prog->insns[s->fetch_o->head_pc[w]].op) && in_regime(s, w))
            h |= slot_bit(w);
    for (left = h; left; ) {
        slotmask ws = d->cslots[s->slot_ctx[slot_ctz(left)]] & s->live & ~s->simt_o->fin;
        h &= ~bar_turn(s, ws, h & ws);
        left &= ~(ws | slot_bit(slot_ctz(left)));
    }
    return h;
}

/* Issue of slot w's head, the instruction at pc, for the lanes in mask: the lanes it executes
   for (0: none, an earlier slot executed them). A warp-level instruction of a split warp
   issues only when bar_turn lets it go, and then no two slots of the warp can merge; the
   other slots held at the same instruction have reached it too and run it with w as one
   instruction, as the SIMT stack would run them together: a vote counts their lanes, a
   shuffle reads their sources before any of them writes its result, a barrier is the warp's
   one arrival (the context waits at it, they with it). They issue it later for the timing
   alone: their results are written now, their barrier arrived at. */
static uint32_t dws_lanes(struct sm *s, void *st, uint32_t w, uint32_t pc, uint32_t mask)
{
    struct dws *d = st;
    unsigned op = s->p.prog->insns[pc].op;
    slotmask m, tmp;
    unsigned g;
    if (!warp_level(op))
        return mask;
    if (slot_has(d->wl_done, w)) {
        d->wl_done &= ~slot_bit(w);
        return 0;
    }
    if (!in_regime(s, w))
        return mask;
    m = d->cslots[s->slot_ctx[w]] & s->live & ~s->simt_o->fin & s->fetch_o->head_v &
        ~slot_bit(w);
    for (SLOT_EACH(g, m, tmp))
        if (s->fetch_o->head_pc[g] == pc) {
            mask |= s->simt_o->mask[g];
            d->wl_done |= slot_bit(g);
        }
    return mask;
}

/* Slots whose scheduler saw them stalled on long-latency memory this cycle (wst's status and
   the lazy policies' count of active entities). */
static slotmask suspended(const struct sm *s)
{
    slotmask m = 0;
    for (uint32_t k = 0; k < s->nsched; k++) {
        slotmask l = s->iss_o->s[k].lstall, tmp;
        unsigned j;
        for (SLOT_EACH(j, l, tmp))
            m |= slot_bit(j * s->nsched + k);
    }
    return m;
}

/* Live slots of the SM that are active: neither finished, arrived at their reconvergence point
   nor suspended on long-latency memory (wst's count for the memory-split policies). */
static unsigned active_slots(const struct sm *s)
{
    return slot_count(s->live & ~s->simt_o->fin & ~s->simt_o->arr & ~suspended(s));
}

/* Why slot w's divergent branch at pc may not split (enum sm_dws_bref), or SM_BR_N: it may. */
static unsigned branch_refusal(const struct sm *s, const struct dws *d, uint32_t w, uint32_t pc)
{
    if (!in_regime(s, w) && !d->short_pd[pc])
        return SM_BR_LONG_PD;
    if (in_regime(s, w) && !slot_has(s->simt_o->lvl, w))
        return SM_BR_NESTED;
    if (slot_has(s->wst_o->nosplit, w))
        return SM_BR_MFLAG;
    if (d->bsplit.v)
        return SM_BR_ONE;
    if (s->p.conf->dws_oversub && active_slots(s) > 1)
        return SM_BR_RULE;
    return s->wst_o->free_v ? SM_BR_N : SM_BR_FULL;
}

/* Issue of a conditional branch by slot w on update port `port`: a split chance if it diverges
   (not under revive_mem, which splits on memory only); split it unless branch_refusal says
   why not. The over-subdivision rule (dws_oversub): w, which issues, must be the SM's only
   active slot -- the slides' "subdivide only when all available warp-splits are suspended". */
static void dws_branch(struct sm *s, void *st, uint32_t port, uint32_t w, uint32_t x,
                       uint32_t pc)
{
    struct dws *d = st;
    const struct ex_result *r = &s->res;
    uint32_t mask = s->simt_o->mask[w], nt = mask & ~r->taken;
    struct simt_upd *u = &s->upd_latch[port];
    unsigned why;
    (void)x;
    if (r->kind != EX_BRANCH || !(r->taken & mask) || !nt ||
        s->p.conf->dws == DWS_REVIVE_MEM)
        return;
    s->s.split_br_cand++;
    why = branch_refusal(s, d, w, pc);
    if (why < SM_BR_N) {
        s->s.split_br_refused[why]++;
        return;
    }
    d->bsplit = (struct wst_split){ 1, (uint8_t)w, nt };
    d->bsplit_dst = s->wst_o->free;
    u->split_v = 1;
    u->split_slot = s->wst_o->free;
    u->split_img = (uint8_t)(s->nctx + s->wst_o->free);
}

/* Slots whose rows sb writes this cycle beyond what its q shows: reserves (instructions
   issued last cycle) and the destinations of this cycle's copy and merge. */
static slotmask reserving(const struct sm *s)
{
    slotmask m = 0;
    if (s->sb_in.copy.v)
        m |= slot_bit(s->sb_in.copy.dst);
    if (s->sb_in.merge.v)
        m |= slot_bit(s->sb_in.merge.dst);
    for (uint32_t k = 0; k < SB_RES_PORTS; k++)
        if (s->sb_in.res[k].v)
            m |= slot_bit(s->sb_in.res[k].slot);
    return m;
}

/* wst's inputs from this cycle's blocks. */
static void wst_inputs(struct sm *s, struct dws *d, struct wst_in *in)
{
    slotmask live = s->live & ~s->simt_o->fin, tmp;
    unsigned w;
    in->launch = 0;
    for (SLOT_EACH(w, s->launch_pending, tmp)) {
        in->launch |= 1ull << w;
        in->launch_lanes[w] = s->launch_mask[w];
    }
    memcpy(in->pc, s->simt_o->pc, s->nslots * sizeof in->pc[0]);
    in->lvl = s->simt_o->lvl;
    in->arr = s->simt_o->arr;
    /* an arrived slot waits yet may merge; its stack's own work (a pop timer after the pop
       that brought it to its regime level, a fill) keeps it busy: simt refuses to merge or
       split a slot with that work left (SIMT_E_MERGE, SIMT_E_SPLIT) */
    in->busy = (s->simt_o->busy & ~s->simt_o->arr) | simt_working(s->simt_d);
    in->live = live;
    in->empty = 0;
    for (SLOT_EACH(w, live, tmp))
        if (!s->simt_o->mask[w])
            in->empty |= slot_bit(w);
    in->susp = suspended(s);
    in->issued = s->issued_slots;
    /* sb's any and mok read its rows at the start of the cycle; a write issued last cycle is
       reserved in this one: count it, so that a merge never joins two pending writes of one
       register and the merged slot's mflag is set */
    in->sb_any = s->sb_o->any | reserving(s);
    in->mok = s->sb_o->mok && !(s->wst_q->cand.v &&
              (slot_has(reserving(s), s->wst_q->cand.dst) ||
               slot_has(reserving(s), s->wst_q->cand.src)));
    in->bsplit = d->bsplit;
    in->mcand = d->mcand;
    if (in->mcand.v && slot_has(s->issued_slots, in->mcand.src)) {
        in->mcand.v = 0;                   /* its pc moved on: the lanes may not be active */
        s->s.split_mem_refused[SM_MR_MOVED]++;
    }
}


/* After issue: the warp-split table. Its decisions are applied next cycle (dws_apply). */
static void dws_step(struct sm *s, void *st)
{
    struct dws *d = st;
    struct wst_in in;
    const struct wst_out *o = s->wst_o;
    wst_inputs(s, d, &in);
    sm_rec(s, BLKID_wst, 0, &in, sizeof in);
    wst_eval(s->wst_c, s->wst_q, &in, s->wst_o, s->wst_d);
    d->none_idle = !wst_idle_entries(s->wst_c, s->wst_d, &in);
    d->msplit = o->msplit;
    if (o->msplit.v) {
        d->ms_tag = d->mc_tag;
        d->ms_n = d->mc_n;
        memcpy(d->ms_reg, d->mc_reg, sizeof d->ms_reg);
    }
    d->merge = o->merge;
    d->rel = o->rel;
    d->bsplit_prev = d->bsplit;
    d->bsplit_prev_dst = d->bsplit_dst;
    d->bsplit.v = 0;
    d->mcand.v = 0;
    s->s.split_branch += o->ev_bsplit;
    s->s.split_mem += o->ev_msplit;
    s->s.split_merge_pc += o->ev_merge_pc;
    s->s.split_merge_rpc += o->ev_merge_rpc;
    s->s.split_runahead_lanes += o->ev_runahead_lanes;
    if (o->ev_mref)
        s->s.split_mem_refused[o->ev_mref - 1]++;
    s->s.wst_occ_sum += o->nvalid;
    if (o->nvalid > s->s.wst_occ_max)
        s->s.wst_occ_max = o->nvalid;
    s->s.wst_full_cycles += o->full;
}

/* After the units: a partial completion whose completed lanes hit in the L1 while others are
   outstanding is next cycle's memory-split candidate (the lanes that hit run ahead), if those
   lanes are active in the issuing slot's mask and are not all of it. */
static void dws_completion(struct sm *s, void *st)
{
    const struct ldst_out *o = s->ldst_o;
    struct dws *d = st;
    uint32_t w = o->cpl_warp, lanes;
    if (!o->cpl_valid)
        return;
    if (o->cpl_last) {                     /* the load is done: its entry may be reused now */
        if (d->msplit.v && o->cpl_tag == d->ms_tag)
            d->ms_tag = SM_DWS_NO_TAG;
        return;
    }
    s->s.split_mixed_accesses += o->ev_part_mixed;
    if (!(o->cpl_lanes & o->cpl_hit) || w >= s->nslots || !slot_has(s->live, w) ||
        s->slot_ctx[w] != o->cpl_vwi)
        return;                            /* the slot went to another warp since the issue */
    lanes = o->cpl_lanes & o->cpl_own & s->simt_o->mask[w];
    if (!lanes || lanes == s->simt_o->mask[w])
        return;
    d->mcand = (struct wst_mcand){ 1, (uint8_t)w, lanes, o->cpl_own, 1 };
    s->s.split_mem_cand++;
    d->mc_tag = o->cpl_tag;
    d->mc_n = 0;
    for (uint32_t k = 0; k < LDST_MAX_DST; k++)
        if (s->ldst_d->pend[o->cpl_tag].reg[k] != 0xFFFF)
            d->mc_reg[d->mc_n++] = s->ldst_d->pend[o->cpl_tag].reg[k];
}

/* Commands wst decided in the last cycle for this one (dws_apply), or a memory-split
   candidate offered to it: the cycle has something to consume (time_skip, sm_sleep.c). */
static int dws_pending(const struct sm *s, const void *st)
{
    const struct dws *d = st;
    (void)s;
    return d->msplit.v || d->merge.v || d->rel.v || d->bsplit_prev.v || d->mcand.v;
}

/* A warp launched into home slot w with context x: its slot set. */
static void dws_launch(struct sm *s, void *st, uint32_t w, uint32_t x)
{
    struct dws *d = st;
    (void)s;
    d->cslots[x] = slot_bit(w);
}

/* wst's PC matcher pointer: compared but for it in a quiet cycle, moved on after a sleep. */
static int dws_drift(const struct sm *s, const void *st)
{
    const struct dws *d = st;
    return wst_drift(s->wst_c, s->wst_q, s->wst_d, d->none_idle);
}

static void dws_skip(struct sm *s, void *st, uint64_t n)
{
    (void)st;
    wst_skip(s->wst_c, s->wst_q, n);
    wst_skip(s->wst_c, s->wst_d, n);
}

/* The wiring's registers (struct dws; the table's are wst's): the branch splits of this and
   the last cycle, the memory-split candidate and the decided split with their loads'
   destinations, the merge and release, the slot sets of the contexts, wl_done. */
static void dws_storage(const struct gpu_config *c, struct cost_list *l)
{
    static const char *const m = "DWS command latches (002)";
    uint32_t nslots = sm_slots(c), sb = cost_clog2(nslots), dst = LDST_MAX_DST * 16 + 3 + 6;
    cost_add(l, (struct cost_item){.name = "dws_bsplit", .mech = m, .entries = 2,
                                   .bits = 1 + sb + 32 + sb, .rports = 1, .wports = 1,
                                   .onchip = 1, .note = "v, slot, lanes, free entry; this and "
                                                        "last cycle's"});
    cost_add(l, (struct cost_item){.name = "dws_mcand", .mech = m, .entries = 1,
                                   .bits = 1 + sb + 32 + 32 + 1 + dst, .rports = 1,
                                   .wports = 1, .onchip = 1,
                                   .note = "the candidate, its load's tag, count, registers"});
    cost_add(l, (struct cost_item){.name = "dws_msplit", .mech = m, .entries = 1,
                                   .bits = 1 + 2 * sb + 32 + dst, .rports = 1, .wports = 1,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "dws_merge_rel", .mech = m, .entries = 1,
                                   .bits = 1 + 2 * sb + 1 + sb + 1, .rports = 1, .wports = 1,
                                   .onchip = 1, .note = "merge v, dst, src; release v, slot; "
                                                        "the matcher's none-idle bit"});
    cost_add(l, (struct cost_item){.name = "dws_cslots", .mech = m,
                                   .entries = sm_contexts(c), .bits = nslots,
                                   .rports = COST_PAR, .wports = 2, .onchip = 1,
                                   .note = "the slots each context holds (wst's home column "
                                           "says the same; modelled as a table)"});
    cost_add(l, (struct cost_item){.name = "dws_wl_done", .mech = m, .entries = 1,
                                   .bits = nslots, .rports = COST_PAR, .wports = 1,
                                   .onchip = 1});
}

const struct sm_mech sm_mech_dws = {
    .name = "dws", .drift_blocks = 1ull << BLKID_wst, .state_size = sizeof(struct dws),
    .selected = dws_selected, .init = dws_init, .free = dws_free,
    .warp_started = dws_launch, .begin = dws_apply, .route = dws_route,
    .sb_ports = dws_sb_ports, .hold = dws_hold, .lanes = dws_lanes,
    .own = dws_own, .issued = dws_branch, .after_issue = dws_step, .end = dws_completion,
    .pending = dws_pending, .drift = dws_drift, .skip = dws_skip, .storage = dws_storage,
};
