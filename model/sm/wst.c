/*
 * wst.c -- DWS's warp-split table (see wst.h; 002_ddcb2f79a6edfee4.txt, dws-design.md
 * section 4). Per cycle, on d (= q on entry), in this order: launch, mflag clears, the merge
 * of q.cand, bsplit, mcand, status, the release, the PC matcher, the outputs. Every input
 * field is taken at its declared width and slot masks at nslots, as the Verilog twin
 * (rtl/wst.sv) takes its ports.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "wst.h"
#include "base/config.h"
#include "base/cost.h"
#include "sm_limits.h"

void wst_cfg_default(struct wst_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->nwarps = 48;
    c->nent = 48;
    c->variant = DWS_BRANCH;
    c->lanes = WST_LANES;
}

int wst_cfg_check(const struct wst_cfg *c, char *err, size_t errlen)
{
    if (c->nwarps < 1 || c->nwarps > WST_MAX_WARPS) {
        snprintf(err, errlen, "wst: nwarps %u out of range 1..%u", c->nwarps, WST_MAX_WARPS);
        return -1;
    }
    if (c->nent < 1 || c->nwarps + c->nent > SM_MAX_SLOTS) {
        snprintf(err, errlen, "wst: nent %u out of range 1..%u (nwarps %u + nent <= %u slots)",
                 c->nent, SM_MAX_SLOTS - c->nwarps, c->nwarps, SM_MAX_SLOTS);
        return -1;
    }
    if (c->variant > DWS_REVIVE_MEM) {
        snprintf(err, errlen, "wst: variant %u is not an enum conf_dws", c->variant);
        return -1;
    }
    if (c->lanes != WST_LANES) {
        snprintf(err, errlen, "wst: lanes %u, the table holds %u-lane warps", c->lanes,
                 WST_LANES);
        return -1;
    }
    return 0;
}

void wst_reset(const struct wst_cfg *c, struct wst_regs *r)
{
    (void)c;
    memset(r, 0, sizeof *r);
}

static inline unsigned nslots(const struct wst_cfg *c)
{
    return (unsigned)c->nwarps + c->nent;
}

static inline unsigned pop32(uint32_t x)
{
    return bit_pop32(x);
}

/* The warp (home slot) of slot s < nslots. */
static inline unsigned home_of(const struct wst_cfg *c, const struct wst_regs *r, unsigned s)
{
    return s < c->nwarps ? s : r->home[s - c->nwarps];
}

/* Slot s holds a warp or a split: a home, or a valid entry's slot. */
static inline int slot_used(const struct wst_cfg *c, const struct wst_regs *r, unsigned s)
{
    return s < c->nwarps || (s < nslots(c) && slot_has(r->valid, s - c->nwarps));
}

/* Valid entries of warp h. */
static unsigned splits_of(const struct wst_cfg *c, const struct wst_regs *r, unsigned h)
{
    unsigned n = 0;
    for (unsigned e = 0; e < c->nent; e++)
        n += slot_has(r->valid, e) && r->home[e] == h;
    return n;
}

/* The lowest free entry of r, or -1. */
static int free_entry(const struct wst_cfg *c, const struct wst_regs *r)
{
    slotmask f = ~r->valid & slot_first(c->nent);
    return f ? (int)slot_ctz(f) : -1;
}

/* The input slot masks at nslots. */
struct wst_masks { slotmask lvl, arr, empty, busy, live, susp, issued, any; };

static void take_masks(const struct wst_cfg *c, const struct wst_in *in, struct wst_masks *m)
{
    slotmask k = slot_first(nslots(c));
    m->lvl = in->lvl & k;
    m->arr = in->arr & k;
    m->empty = in->empty & k;
    m->busy = in->busy & k;
    m->live = in->live & k;
    m->susp = in->susp & k;
    m->issued = in->issued & k;
    m->any = in->sb_any & k;
}

/* Launched homes own their lanes, out of the regime. */
static void take_launch(const struct wst_cfg *c, const struct wst_in *in, struct wst_out *out,
                        struct wst_regs *d)
{
    for (uint64_t m = in->launch; m; m &= m - 1) {
        unsigned h = (unsigned)__builtin_ctzll(m);
        if (h >= c->nwarps || ((d->reg_on >> h) & 1u)) {
            out->err |= WST_E_LAUNCH;
            continue;
        }
        d->own[h] = in->launch_lanes[h];
        d->mflag &= ~slot_bit(h);
    }
}

/* May slots a (a home or an entry) and b (an entry's slot) of one warp merge on pc? a_home:
   a is the warp's home; one: b is its warp's only split. At the same pc not while one of them
   waits on memory and the other does not (wst_latency_pair). */
static int pc_ok(const struct wst_in *in, const struct wst_masks *m, unsigned a, unsigned b,
                 int a_home, int one)
{
    if (slot_has(m->empty, b) || (slot_has(m->empty, a) && (!a_home || one)))
        return 1;
    return in->pc[a] == in->pc[b] && !wst_latency_pair(m->susp, m->arr, a, b);
}

static int idle_lvl(const struct wst_masks *m, unsigned s)
{
    return slot_has(m->live & m->lvl & ~m->busy, s);
}

/* Is q.cand confirmed this cycle? */
static int merge_ok(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_in *in,
                    const struct wst_masks *m)
{
    unsigned dst = q->cand.dst & 127u, src = q->cand.src & 127u, h;
    const struct wst_split *b = &in->bsplit;
    if (!(q->cand.v & 1u) || src < c->nwarps || !slot_used(c, q, src) || !slot_used(c, q, dst) ||
        dst == src)
        return 0;
    h = home_of(c, q, src);
    if (home_of(c, q, dst) != h || !idle_lvl(m, dst) || !idle_lvl(m, src) ||
        slot_has(m->issued, dst) || slot_has(m->issued, src) || !(in->mok & 1u))
        return 0;
    if ((b->v & 1u) && ((b->src & 127u) == dst || (b->src & 127u) == src))
        return 0;
    return pc_ok(in, m, dst, src, dst < c->nwarps, splits_of(c, q, h) == 1);
}

/* The merge of q.cand: src's lanes go to dst, src's entry is freed. */
static void do_merge(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_masks *m,
                     struct wst_out *out, struct wst_regs *d)
{
    unsigned dst = q->cand.dst & 127u, src = q->cand.src & 127u;
    out->merge = (struct wst_pair){1, (uint8_t)dst, (uint8_t)src};
    d->own[dst] |= d->own[src];
    d->own[src] = 0;
    if (dst >= c->nwarps)
        d->prio[dst - c->nwarps] = (uint8_t)pop32(d->own[dst]);
    d->valid &= ~slot_bit(src - c->nwarps);
    out->free_mask = slot_bit(src);
    d->mflag &= ~slot_bit(src);
    if (slot_has(m->any, dst) || slot_has(m->any, src))
        d->mflag |= slot_bit(dst);
    out->ev_merge_rpc = (uint8_t)slot_has(m->arr, dst);
    out->ev_merge_pc = (uint8_t)!out->ev_merge_rpc;
}

/* A split of src into the free entry e: lanes to e's slot, the rest stays. */
static void split_take(const struct wst_cfg *c, unsigned src, unsigned e, uint32_t lanes,
                       struct wst_regs *d)
{
    unsigned dst = c->nwarps + e, h = home_of(c, d, src);
    d->valid |= slot_bit(e);
    d->home[e] = (uint8_t)h;
    d->own[dst] = lanes;
    d->own[src] &= ~lanes;
    d->reg_on |= 1ull << h;
    d->prio[e] = (uint8_t)pop32(lanes);
    if (src >= c->nwarps)
        d->prio[src - c->nwarps] = (uint8_t)pop32(d->own[src]);
    d->mflag &= ~slot_bit(dst);
}

/* Can src split lanes off (both kinds)? In the regime only at regime level. */
static int split_src_ok(const struct wst_cfg *c, const struct wst_regs *q,
                        const struct wst_masks *m, const struct wst_regs *d, unsigned src,
                        uint32_t lanes)
{
    uint32_t own;
    if (src >= nslots(c) || !slot_used(c, q, src) || !slot_has(m->live, src) ||
        slot_has(q->mflag, src))
        return 0;
    if (((d->reg_on >> home_of(c, q, src)) & 1u) && !slot_has(m->lvl, src))
        return 0;
    own = d->own[src];
    return lanes != 0 && !(lanes & ~own) && lanes != own;
}

/* The branch split the SM decided on. Returns 1 if it took the free entry. */
static int take_bsplit(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_in *in,
                       const struct wst_masks *m, struct wst_out *out, struct wst_regs *d)
{
    unsigned src = in->bsplit.src & 127u;
    int e = free_entry(c, q);
    if (!(in->bsplit.v & 1u))
        return 0;
    if (e < 0 || !split_src_ok(c, q, m, d, src, in->bsplit.lanes)) {
        out->err |= WST_E_BSPLIT;
        return 0;
    }
    split_take(c, src, (unsigned)e, in->bsplit.lanes, d);
    out->ev_bsplit = 1;
    return 1;
}

/* The variant's policy for a memory split of src (slides "Results (1)"). */
static int policy_ok(const struct wst_cfg *c, const struct wst_masks *m, unsigned src)
{
    unsigned nactive = slot_count(m->live & ~m->arr & ~m->susp);
    switch (c->variant) {
    case DWS_AGGRESS: return 1;
    case DWS_LAZY: return nactive <= 1 && src < c->nwarps;
    case DWS_REVIVE:
    case DWS_REVIVE_MEM: return nactive <= 1;
    default: return 0;
    }
}

/* Why the partial load completion of src is not split (enum wst_mref, in the order below; 0:
   it is): not a divergence of the slot's own lanes, the slot inside a nested region, busy, the
   variant's rule, the free entry taken by this cycle's branch split, the table full. */
static unsigned mcand_refusal(const struct wst_cfg *c, const struct wst_regs *q,
                              const struct wst_in *in, const struct wst_masks *m, int taken, int e,
                              const struct wst_out *out, uint32_t own, unsigned src)
{
    const struct wst_mcand *k = &in->mcand;
    if (!(k->part_hit & 1u) || !slot_used(c, q, src) || !slot_has(m->live, src) ||
        own != k->ld_lanes || k->lanes == 0 || k->lanes == own)
        return WST_MR_OTHER;
    if (((q->reg_on >> home_of(c, q, src)) & 1u) && !slot_has(m->lvl, src))
        return WST_MR_NESTED;              /* (q: before this cycle's branch split) */
    if (slot_has(m->busy, src) || slot_has(q->mflag, src) ||
        (out->merge.v && (out->merge.dst == src || out->merge.src == src)))
        return WST_MR_BUSY;
    if (!policy_ok(c, m, src))
        return WST_MR_POLICY;
    if (taken)
        return WST_MR_BRANCH;
    return e < 0 ? WST_MR_FULL : WST_MR_NONE;
}

/* A partial load completion: the completed lanes run ahead in a new split if eligible. own:
   the source's owned lanes before this cycle's branch split (which refuses it if it took the
   free entry). */
static void take_mcand(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_in *in,
                       const struct wst_masks *m, int taken, uint32_t own, struct wst_out *out,
                       struct wst_regs *d)
{
    const struct wst_mcand *k = &in->mcand;
    unsigned src = k->src & 127u;
    int e = free_entry(c, q);
    if (!(k->v & 1u))
        return;
    if (src >= nslots(c) || (k->lanes & ~k->ld_lanes)) {
        out->err |= WST_E_MCAND;
        return;
    }
    out->ev_mref = (uint8_t)mcand_refusal(c, q, in, m, taken, e, out, own, src);
    if (out->ev_mref)
        return;
    split_take(c, src, (unsigned)e, k->lanes, d);
    out->msplit = (struct wst_msplit){1, (uint8_t)src, (uint8_t)(c->nwarps + e), k->lanes};
    out->ev_msplit = 1;
    out->ev_runahead_lanes = (uint8_t)pop32(k->lanes);
}

/* Each entry's status from this cycle's inputs (0 when free). */
static void take_status(const struct wst_cfg *c, const struct wst_masks *m, struct wst_regs *d)
{
    slotmask t;
    unsigned e;
    memset(d->status, WST_READY, c->nent);
    for (SLOT_EACH(e, d->valid, t)) {
        unsigned s = c->nwarps + e;
        d->status[e] = slot_has(m->arr, s) ? WST_ARR : slot_has(m->susp, s) ? WST_SUSP : WST_READY;
    }
}

/* The lowest home in the regime with no split left: its regime is over. */
static void release(const struct wst_cfg *c, struct wst_out *out, struct wst_regs *d)
{
    uint64_t split = 0, done;
    slotmask t;
    unsigned e;
    (void)c;
    if (!d->reg_on)
        return;
    for (SLOT_EACH(e, d->valid, t))
        split |= 1ull << d->home[e];
    done = d->reg_on & ~split;
    if (done) {
        unsigned h = (unsigned)__builtin_ctzll(done);
        d->reg_on &= ~(1ull << h);
        out->rel = (struct wst_rel){1, (uint8_t)h};
    }
}

/* The partner of entry e's slot s for a merge, into *cand (v = 0: none). */
static void partner(const struct wst_cfg *c, const struct wst_regs *d, const struct wst_in *in,
                    const struct wst_masks *m, unsigned e, struct wst_pair *cand)
{
    unsigned s = c->nwarps + e, h = d->home[e];
    int one = splits_of(c, d, h) == 1;
    if (idle_lvl(m, h) && pc_ok(in, m, h, s, 1, one)) {
        *cand = (struct wst_pair){1, (uint8_t)h, (uint8_t)s};
        return;
    }
    for (unsigned f = 0; f < c->nent; f++) {
        unsigned t = c->nwarps + f;
        if (f == e || !slot_has(d->valid, f) || d->home[f] != h || !idle_lvl(m, t) ||
            !pc_ok(in, m, t, s, 0, 0))
            continue;
        *cand = (struct wst_pair){1, (uint8_t)(t < s ? t : s), (uint8_t)(t < s ? s : t)};
        return;
    }
}

slotmask wst_idle_entries(const struct wst_cfg *c, const struct wst_regs *r,
                          const struct wst_in *in)
{
    return r->valid & ((in->live & in->lvl & ~in->busy & slot_first(nslots(c))) >> c->nwarps);
}

/* The PC matcher: the first idle entry at regime level from rr on, and its partner. */
static void match(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_in *in,
                  const struct wst_masks *m, struct wst_regs *d)
{
    int pick = -1;
    unsigned rr = q->rr < c->nent ? q->rr : 0;
    /* the first idle entry from rr on, wrapping */
    slotmask idle = wst_idle_entries(c, d, in);
    if (idle) {
        slotmask hi = idle & ~slot_first(rr);
        pick = (int)slot_ctz(hi ? hi : idle);
    }
    d->cand = (struct wst_pair){0, 0, 0};
    if (pick >= 0)
        partner(c, d, in, m, (unsigned)pick, &d->cand);
    d->rr = (uint8_t)(((pick >= 0 ? (unsigned)pick : rr) + 1u) % c->nent);
}

static void outputs(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_regs *d,
                    struct wst_out *out)
{
    int f = free_entry(c, d);
    slotmask t;
    unsigned e;
    out->free_v = f >= 0;
    out->free = (uint8_t)(f >= 0 ? c->nwarps + (unsigned)f : 0);
    out->full = f < 0;
    out->nvalid = (uint8_t)slot_count(d->valid);
    out->cand = d->cand;
    out->nosplit = d->mflag;
    for (unsigned h = 0; h < c->nwarps; h++)
        out->prio_key[h] = (uint8_t)pop32(q->own[h]);
    for (SLOT_EACH(e, q->valid, t)) {                  /* out is 0 for the free entries */
        out->prio_key[c->nwarps + e] = q->prio[e];
        out->nsusp += q->status[e] == WST_SUSP;
        out->narr += q->status[e] == WST_ARR;
    }
}

void wst_eval(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_in *in,
              struct wst_out *out, struct wst_regs *d)
{
    struct wst_masks m;
    uint32_t own;
    int taken;
    memset(out, 0, sizeof *out);
    take_masks(c, in, &m);
    take_launch(c, in, out, d);
    d->mflag &= m.any;
    if (merge_ok(c, q, in, &m))
        do_merge(c, q, &m, out, d);
    own = d->own[in->mcand.src & 127u];
    taken = take_bsplit(c, q, in, &m, out, d);
    take_mcand(c, q, in, &m, taken, own, out, d);
    take_status(c, &m, d);
    release(c, out, d);
    match(c, q, in, &m, d);
    outputs(c, q, d, out);
}

void wst_commit(const struct wst_cfg *c, struct wst_regs *q, const struct wst_regs *d)
{
    (void)c;
    *q = *d;
}

/* wst_drift compares the registers before rr as one block, then cand, the last member: the
   layout it relies on. */
_Static_assert(offsetof(struct wst_regs, rr) < offsetof(struct wst_regs, cand) &&
               sizeof(struct wst_regs) - offsetof(struct wst_regs, cand) - sizeof(struct wst_pair) <
                   _Alignof(struct wst_regs),
               "wst_regs: rr, then cand, last");

int wst_drift(const struct wst_cfg *c, const struct wst_regs *q, const struct wst_regs *d,
              int none_idle)
{
    if (memcmp(q, d, offsetof(struct wst_regs, rr)) || memcmp(&q->cand, &d->cand, sizeof q->cand))
        return -1;
    if (d->rr == q->rr)
        return 0;
    return none_idle && d->rr == (q->rr + 1u) % c->nent ? 1 : -1;
}

void wst_skip(const struct wst_cfg *c, struct wst_regs *r, uint64_t n)
{
    r->rr = (uint8_t)((r->rr + n % c->nent) % c->nent);
}

/* ------------------------------------------------------------------ registry */

uint32_t wst_instances(const struct gpu_config *c)
{
    return c->dws != DWS_OFF;
}

/* Homes = the SM's warp slots; entries = the split slots, dws_wst_factor x warps at most the
   slots left (sm_wst_entries; slides, backup "WST Hardware Overhead": the WST limited to twice
   the number of warps). Without DWS (no instance) the sizes of the default factor. */
void wst_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct wst_cfg *out)
{
    struct gpu_config on = *c;
    uint32_t w = sm_warp_slots(c);
    (void)sm; (void)inst;
    if (on.dws == DWS_OFF)
        on.dws = DWS_BRANCH;
    wst_cfg_default(out);
    out->nwarps = (uint8_t)(w < WST_MAX_WARPS ? w : WST_MAX_WARPS);
    out->nent = (uint8_t)sm_wst_entries(&on);
    out->variant = (uint8_t)c->dws;
}

/* Storage for the cost estimator (cost.h), all priced as the mechanism "DWS (002)": the
   entries (valid + wst_entry_bits of the slides' fields that the table holds: the active
   mask (own), warp ID, status and priority; the PC is simt's register of the entry's slot),
   the homes' owned lanes, reg_on, mflag, the PC matcher's pointer and candidate. */
void wst_storage(const struct wst_cfg *c, struct cost_list *l)
{
    const char *mech = "DWS (002)";
    uint32_t ent = 1 + wst_entry_bits(c->lanes, c->nwarps, 0, WST_STATUS_BITS, WST_PRIO_BITS);
    uint32_t sb = cost_clog2(nslots(c));
    cost_begin(l, "wst");
    cost_add(l, (struct cost_item){.name = "ent", .mech = mech, .entries = c->nent, .bits = ent,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "valid + own 32 + warp ID + status 2 + priority 6"});
    cost_add(l, (struct cost_item){.name = "home_own", .mech = mech, .entries = c->nwarps,
                                   .bits = c->lanes, .rports = COST_PAR, .onchip = 1,
                                   .note = "the homes' owned lanes"});
    cost_add(l, (struct cost_item){.name = "reg_on", .mech = mech, .entries = c->nwarps,
                                   .bits = 1, .rports = COST_PAR, .onchip = 1,
                                   .note = "warp in the WST regime"});
    cost_add(l, (struct cost_item){.name = "mflag", .mech = mech, .entries = nslots(c),
                                   .bits = 1, .rports = COST_PAR, .onchip = 1,
                                   .note = "merged with a pending write: no split"});
    cost_add(l, (struct cost_item){.name = "rr", .mech = mech, .entries = 1,
                                   .bits = cost_clog2(c->nent), .rports = COST_PAR, .onchip = 1,
                                   .note = "PC matcher's round-robin entry"});
    cost_add(l, (struct cost_item){.name = "cand", .mech = mech, .entries = 1, .bits = 1 + 2 * sb,
                                   .rports = COST_PAR, .onchip = 1,
                                   .note = "merge candidate: v, dst, src"});
}

void wst_rtl_params(const struct wst_cfg *c, FILE *f)
{
    fprintf(f, "localparam WST_NWARPS = %u;\nlocalparam WST_NENT = %u;\n"
            "localparam WST_VARIANT = %u;\n", c->nwarps, c->nent, c->variant);
}
