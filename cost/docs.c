/*
 * docs.c -- the source documents' storage figures for the blocks that exist, next to what the
 * estimator derives from the same blocks' storage lists (model/base/cost.h):
 *   003_a1f13061b22d54a6.txt Section III-IV: the 64-bit synchronization token (32-bit mask,
 *       id, pc), 16 entries on chip, spills of 4 entries = 32 bytes;
 *   004_23e173f444f46134.txt Section III-IV: the 160-bit SIMT stack entry (32-bit mask, 64-bit
 *       PC, 64-bit RPC) of a 4-entry cached stack, the VT context of eq. 1, the 8-bit VWI
 *       stored per scoreboard entry (48 physical warps, Table I) and added to each load-queue
 *       entry (301 -> 309 bits);
 *   000_0da6b8b480bd0740.txt Section 4.5: VTW on Fermi (8 TBs, 48 warps) -- 44 B to assign
 *       new indices, 456 B for the progress-aware scheduler, 500 B with SameLane, 1 B more
 *       with LowestToHighestLane, 48 one-byte registers more (548 B) with SlowestLane;
 *   002_ddcb2f79a6edfee4.txt backup slide "WST Hardware Overhead": a warp-split table entry of
 *       16 (active mask, 16-wide warps) + 2 (warp ID, 4 warps) + 2 (status) + 64 (PC) + 4
 *       (priority) = 88 bits; the table limited to twice the number of warps.
 * Checks 1-3 compare the configuration with the document; the others give the blocks the
 * document's parameters. A difference is a finding, explained, not an error.
 */
#include <string.h>
#include "estimate.h"
#include "gpu/blocks.h"
#include "gpu/cta.h"
#include "sm/iss.h"
#include "sm/ldst.h"
#include "sm/ntb.h"
#include "sm/pas.h"
#include "sm/sb.h"
#include "sm/simt.h"
#include "sm/sm_limits.h"
#include "sm/vtc.h"
#include "sm/wst.h"

struct doc_cfgs { struct simt_cfg simt; struct sb_cfg sb; };   /* as the SM builds them */

static const struct cost_item *find(const struct cost_list *l, const char *name)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (!strcmp(l->it[i].name, name))
            return &l->it[i];
    return NULL;
}

uint64_t est_vt_context_bits(uint32_t n_vwi, uint32_t w, uint32_t d, uint32_t entry_bits)
{
    return (uint64_t)n_vwi + cost_clog2(w) + 96 + (uint64_t)entry_bits * d * w;
}

static void put(struct est_check *out, unsigned max, unsigned *n, struct est_check c)
{
    c.match = c.doc_value == c.model_value;
    if (*n < max)
        out[*n] = c;
    (*n)++;
}

/* bits per on-chip stack entry and the memory format of a SIMT configuration (the image
   in global memory holds entry_bytes per entry) */
static void simt_widths(const struct simt_cfg *s, uint32_t *onchip, uint32_t *mem)
{
    struct cost_list l;
    const struct cost_item *st;
    cost_list_init(&l);
    simt_storage(s, &l);
    st = find(&l, "stk");
    *onchip = st ? st->bits : 0;
    *mem = 8u * s->entry_bytes;
}

static void token_checks(const struct doc_cfgs *s, struct est_check *out, unsigned max,
                         unsigned *n)
{
    uint32_t ent, mem;
    simt_widths(&s->simt, &ent, &mem);
    put(out, max, n, (struct est_check){"003", "SIMT token bits per entry (memory format)", 64,
        mem, "bits", 0, "simt_entry_bytes x 8: the spilled entry is the 64-bit token"});
    put(out, max, n, (struct est_check){"003", "on-chip SIMT stack entries per warp", 16,
        s->simt.depth, "entries", 0, "simt_depth: the first spill at the 17th entry"});
    put(out, max, n, (struct est_check){"003", "bytes per spill / fill", 32,
        (double)s->simt.chunk * s->simt.entry_bytes, "bytes", 0,
        "simt_chunk x simt_entry_bytes: 4 tokens of 8 bytes"});
    put(out, max, n, (struct est_check){"003", "on-chip stack bits per warp (16 tokens)",
        16 * 64, (double)ent * 16, "bits", 0,
        "the model's entry holds pc 32 + rpc 32 + mask 32 + type 1 = 97 bits; the token packs "
        "mask 32 + id + pc into 64 (its rpc is the SYNC token below it)"});
}

static void vt_checks(const struct doc_cfgs *s, struct est_check *out, unsigned max, unsigned *n)
{
    struct simt_cfg d4 = s->simt;
    struct sb_cfg sb = s->sb;
    struct ldst_cfg lc = {.npend_act = LDST_PENDING};
    struct cost_list l;
    const struct cost_item *v;
    uint32_t ent, mem;
    d4.depth = 4;
    d4.chunk = d4.chunk < 4 ? d4.chunk : 4;
    simt_widths(&d4, &ent, &mem);
    put(out, max, n, (struct est_check){"004", "SIMT stack entry bits", 160, ent, "bits", 0,
        "004: 32-bit mask + 64-bit PC + 64-bit RPC; the model: 32-bit instruction-index pc "
        "and rpc, 32-bit mask and the SYNC/DIV type bit"});
    put(out, max, n, (struct est_check){"004", "4-entry cached stack, bits per warp", 160 * 4,
        (double)ent * 4, "bits", 0, "the same entry widths, D = 4"});
    put(out, max, n, (struct est_check){"004", "eq. 1 CTA context, N=8, W=32, D=4",
        (double)est_vt_context_bits(8, 32, 4, 160), (double)est_vt_context_bits(8, 32, 4, ent),
        "bits", 0, "(N + log2 W) + 96 + entry x D x W with the model's entry width"});
    cost_list_init(&l);
    sb.nslots = 48;
    sb_storage(&sb, &l);
    v = find(&l, "vwi");
    put(out, max, n, (struct est_check){"004", "scoreboard VWI tag bits per warp slot", 8,
        v ? v->bits : 0, "bits", 0, "sb.vwi [7:0]: 256 virtual warps"});
    put(out, max, n, (struct est_check){"004", "scoreboard VWI bits per SM (48 slots)", 48 * 8,
        v ? (double)v->bits * v->entries : 0, "bits", 0, "48 physical warps (Table I) x 8"});
    cost_list_init(&l);
    ldst_storage(&lc, &l);
    v = find(&l, "pend.vwi");
    put(out, max, n, (struct est_check){"004", "VWI bits added to a load-queue entry", 309 - 301,
        v ? v->bits : 0, "bits", 0, "ldst pending-load entry: pend.vwi [7:0]"});
}

/* Bytes of the items of l whose mechanism is one of mechs (NULL-terminated). */
static double mech_bytes(const struct cost_list *l, const char *const *mechs)
{
    uint64_t b = 0;
    for (uint32_t i = 0; i < l->n; i++)
        for (const char *const *m = mechs; *m; m++)
            if (l->it[i].mech && !strcmp(l->it[i].mech, *m))
                b += (uint64_t)l->it[i].entries * l->it[i].bits;
    return b / 8.0;
}

/* VTW's storage on the document's SM (8 TB slots, 48 warps) under one lane policy: the
   next-TB-index unit, the GPU's counter, the scheduler and the issue stage's counters. */
static void vtw_list(const struct gpu_config *conf, unsigned lane, struct cost_list *l)
{
    struct gpu_config g = *conf;
    struct ntb_cfg nc;
    struct pas_cfg pc;
    struct iss_cfg ic;
    struct cta_cfg cc;
    g.vtw = VTW_HW;
    g.vtw_lane = lane;
    ntb_cfg_from(&g, 0, 0, &nc);
    pas_cfg_from(&g, 0, 0, &pc);
    iss_cfg_from(&g, 0, 0, &ic);
    cta_cfg_from(&g, 0, 0, &cc);
    nc.nctas = pc.nctas = ic.nctas = 8;
    nc.nctx = pc.nctx = ic.nctx = 48;
    ic.progress = 1;
    cost_list_init(l);
    ntb_storage(&nc, l);
    pas_storage(&pc, l);
    iss_storage(&ic, l);
    cta_storage(&cc, l);
}

static const char *const vtw_index[] = {"index unit (000 Sec. 4.5)", NULL};
static const char *const vtw_sched[] = {"VTW scheduler (000 Sec. 4.5)",
                                        "progress counters (000 Sec. 4.5)", NULL};
static const char *const vtw_lanes[] = {"lane policy", "SlowestLane (000 Sec. 4.5)", NULL};

static void vtw_checks(const struct gpu_config *conf, struct est_check *out, unsigned max,
                       unsigned *n)
{
    struct cost_list l;
    double idx, sched, low, slow;
    vtw_list(conf, NTB_SAME, &l);
    idx = mech_bytes(&l, vtw_index);
    sched = mech_bytes(&l, vtw_sched);
    put(out, max, n, (struct est_check){"000", "VTW index unit bytes (8 TBs)", 44, idx, "bytes",
        0, "ntb map 8 x 32 + cnt 8 x 8 and the GPU's nextLogTbId 32 (cta.c)"});
    put(out, max, n, (struct est_check){"000", "VTW scheduler bytes (48 warps, 8 TBs)", 456,
        sched, "bytes", 0, "pas iter 48 x 32, low 8 x 32, nnext 8 x 8; iss insns 48 x 32, "
        "prog 8 x 32"});
    put(out, max, n, (struct est_check){"000", "VTW SameLane bytes per SM", 500, idx + sched,
        "bytes", 0, "index unit + scheduler; not counted by either: ntb's reply pipeline "
        "(vtw_latency - 1 stages, an assumption) and iss's barrier counts"});
    vtw_list(conf, NTB_LOWEST, &l);
    low = mech_bytes(&l, vtw_lanes);
    put(out, max, n, (struct est_check){"000", "LowestToHighestLane extra bytes", 1, low,
        "bytes", 0, "the model keeps the count of full warps per TB (lh, 8 x 6 bits) and each "
        "context's warp index (lw, 48 x 5): nexttbid and nextidxinblk are separate requests, "
        "so the index a warp took must wait for its nextidxinblk"});
    vtw_list(conf, NTB_SLOWEST, &l);
    slow = mech_bytes(&l, vtw_lanes);
    put(out, max, n, (struct est_check){"000", "SlowestLane extra bytes", 48, slow, "bytes", 0,
        "order holds 48 warp indices of 5 bits (a TB has at most 32 warps), not bytes; plus "
        "lh and lw as under LowestToHighestLane"});
    put(out, max, n, (struct est_check){"000", "VTW SlowestLane bytes per SM", 548,
        idx + sched + slow, "bytes", 0, "SameLane's bytes + SlowestLane's registers"});
}

/* VT's context region, its port cycles, the virtual warps and the load queues, from the
   model's own functions and declarations on the configuration with vt = on. */
static void vt_region_checks(const struct gpu_config *conf, struct est_check *out, unsigned max,
                             unsigned *n)
{
    static const char *const ldq[] = { "LD/ST pending loads", "VT load queues (004 IV-D)", NULL };
    struct gpu_config c = *conf;
    struct ldst_cfg lc;
    struct cost_list l;
    char err[256];
    uint32_t bits = vtc_ctx_bits(32, 4);
    c.vt = VT_ON;
    put(out, max, n, (struct est_check){"004", "eq. 1 VT context, W=32, D=4 (160-bit entry)",
        20589, bits, "bits", 0, "vtc_ctx_bits: the region VT reserves and moves per CTA"});
    put(out, max, n, (struct est_check){"004", "eq. 2 port cycles per context, B=512",
        20589.0 / 512, vtc_beats(bits, 512), "cycles", 0,
        "whole port cycles: a partial beat takes a cycle"});
    put(out, max, n, (struct est_check){"004", "virtual warps per SM (8-bit VWI)", 256,
        sm_contexts(&c), "warps", 0, "contexts under vt = on (SM_MAX_CTX)"});
    cost_list_init(&l);
    if (blk_cfg(blk_find("ldst"), &c, 0, 0, &lc, err, sizeof err))
        return;
    ldst_storage(&lc, &l);
    put(out, max, n, (struct est_check){"004", "load queues 30 + 30 x 309 bits, bytes",
        60 * 309 / 8.0, mech_bytes(&l, ldq), "bytes", 0,
        "the model's pending-load entry (registers, warp, VWI, lane masks: 184 bits) is not "
        "Mascar's 301-bit instruction entry; the active queue is LD/ST's 32-entry table"});
}

/* 002's warp-split table entry by wst_entry_bits (which wst_storage uses): the slides' fields
   and widths, then the model's (own 32 lanes, warp ID of the configuration's warps, simt's pc,
   6-bit priority); the table's size against twice the warps. */
static void dws_checks(const struct gpu_config *conf, const struct doc_cfgs *s,
                       struct est_check *out, unsigned max, unsigned *n)
{
    struct wst_cfg w;
    struct cost_list l;
    const struct cost_item *pc;
    char err[256];
    if (blk_cfg(blk_find("wst"), conf, 0, 0, &w, err, sizeof err))
        return;
    cost_list_init(&l);
    simt_storage(&s->simt, &l);
    pc = find(&l, "pc");
    put(out, max, n, (struct est_check){"002", "WST entry bits, the slides' fields (16 lanes, 4 "
        "warps, 64-bit PC, 4-bit priority)", 88, wst_entry_bits(16, 4, 64, 2, 4), "bits", 0,
        "wst_entry_bits: mask 16 + warp ID 2 + status 2 + PC 64 + priority 4"});
    put(out, max, n, (struct est_check){"002", "WST entry bits, the model", 88,
        wst_entry_bits(w.lanes, w.nwarps, pc ? pc->bits : 0, WST_STATUS_BITS, WST_PRIO_BITS),
        "bits", 0, "own 32 lanes + warp ID clog2(warps) + status 2 + simt's 32-bit "
        "instruction-index pc + priority 6 (popcount of 32 lanes); the table also keeps a "
        "valid bit, and the pc is simt's register of the entry's slot"});
    put(out, max, n, (struct est_check){"002", "WST entries per SM (twice the warps)",
        2.0 * w.nwarps, (double)w.nent, "entries", 0,
        "dws_wst_factor (2) x warps, at most the 128 - warps split slots the SM's 7-bit slot "
        "index leaves beside the warps' home slots (48 warps: 80; configs/dws.cfg's 8: 16)"});
}

unsigned est_doc_checks(const struct gpu_config *conf, struct est_check *out, unsigned max)
{
    struct doc_cfgs s;
    char err[256];
    unsigned n = 0;
    if (blk_cfg(blk_find("simt"), conf, 0, 0, &s.simt, err, sizeof err) ||
        blk_cfg(blk_find("sb"), conf, 0, 0, &s.sb, err, sizeof err))
        return 0;
    token_checks(&s, out, max, &n);
    vt_checks(&s, out, max, &n);
    vt_region_checks(conf, out, max, &n);
    vtw_checks(conf, out, max, &n);
    dws_checks(conf, &s, out, max, &n);
    return n < max ? n : max;
}
