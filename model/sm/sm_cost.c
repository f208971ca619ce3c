/*
 * sm_cost.c -- the storage of the SM top itself (model/base/cost.h), beside its blocks': the
 * slot-to-context table, the context table, the CTA table, the L1 request skid buffers; then
 * the storage each mechanism the configuration selects declares for its wiring (sm_mech.h
 * storage hook: VT's and DWS's command latches, VTW's request latch and late-write queue).
 * Widths as the SM holds them for the configuration (sm_limits.h sizes); the statistics and
 * simulation bookkeeping of struct sm (times, counters, the time_skip watch) are not hardware
 * and not listed. None of this has an RTL twin, so Yosys does not cross-check it.
 */
#include "sm.h"
#include "sm_limits.h"
#include "base/cost.h"

/* The slot table and the context table: which context each slot holds; each context's CTA
   slot, warp index, slot, valid and done bits. */
static void tables(const struct gpu_config *c, struct cost_list *l)
{
    uint32_t nslots = sm_slots(c), nctx = sm_contexts(c), nctas = sm_cta_slots(c);
    uint32_t xb = cost_clog2(nctx) + 1, sb = cost_clog2(nslots) + 1;   /* + a "none" value */
    cost_add(l, (struct cost_item){.name = "slot_ctx", .mech = "slot-to-context table",
                                   .entries = nslots, .bits = xb, .rports = COST_PAR,
                                   .wports = 2, .onchip = 1,
                                   .note = "context held by each slot, or none"});
    cost_add(l, (struct cost_item){.name = "ctx.cta", .mech = "context table", .entries = nctx,
                                   .bits = cost_clog2(nctas), .rports = 2, .wports = 1,
                                   .onchip = 1});
    cost_add(l, (struct cost_item){.name = "ctx.widx", .mech = "context table",
                                   .entries = nctx, .bits = 5, .rports = 2, .wports = 1,
                                   .onchip = 1, .note = "[4:0] warp index in its CTA"});
    cost_add(l, (struct cost_item){.name = "ctx.slot", .mech = "context table",
                                   .entries = nctx, .bits = sb, .rports = 2, .wports = 1,
                                   .onchip = 1, .note = "slot holding it, or none"});
    cost_add(l, (struct cost_item){.name = "ctx.flags", .mech = "context table",
                                   .entries = nctx, .bits = 2, .rports = 2, .wports = 1,
                                   .onchip = 1, .note = "valid, done"});
}

/* The CTA table: per CTA slot its ctaid, warps, warps finished, its warps' contexts. */
static void cta_table(const struct gpu_config *c, struct cost_list *l)
{
    uint32_t nctas = sm_cta_slots(c), xb = cost_clog2(sm_contexts(c));
    cost_add(l, (struct cost_item){.name = "cta.ctaid", .mech = "CTA table", .entries = nctas,
                                   .bits = 48, .rports = 2, .wports = 1, .onchip = 1,
                                   .note = "x, y, z: 16 bits each (GF100's grid, 65 535 per "
                                           "dimension)"});
    cost_add(l, (struct cost_item){.name = "cta.nwarps", .mech = "CTA table", .entries = nctas,
                                   .bits = 6, .rports = 2, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "cta.done", .mech = "CTA table", .entries = nctas,
                                   .bits = 6, .rports = 2, .wports = 1, .onchip = 1});
    cost_add(l, (struct cost_item){.name = "cta.ctx", .mech = "CTA table", .entries = nctas,
                                   .bits = 32 * xb, .rports = 2, .wports = 1, .onchip = 1,
                                   .note = "its warps' contexts, 32 x clog2(contexts)"});
    cost_add(l, (struct cost_item){.name = "cta.flags", .mech = "CTA table", .entries = nctas,
                                   .bits = 2, .rports = COST_PAR, .wports = 1, .onchip = 1,
                                   .note = "valid, draining"});
}

/* The two skid buffers in front of the L1 (fetch misses, SIMT spills and fills). */
static void skid(struct cost_list *l, const char *name, const char *ptr)
{
    cost_add(l, (struct cost_item){.name = name, .mech = "L1 request skid buffers",
                                   .entries = SM_MEMQ, .bits = cost_memreq_bits(), .rports = 1,
                                   .wports = 1, .onchip = 1, .note = "struct mem_req"});
    cost_add(l, (struct cost_item){.name = ptr, .mech = "L1 request skid buffers",
                                   .entries = 1, .bits = cost_fifo_bits(SM_MEMQ),
                                   .rports = COST_PAR, .wports = 1, .onchip = 1});
}

void sm_storage(const struct gpu_config *c, struct cost_list *l)
{
    unsigned n;
    const struct sm_mech *const *m = sm_mech_list(&n);
    cost_begin(l, "sm");
    tables(c, l);
    cta_table(c, l);
    skid(l, "fskid", "fskid_ptr");
    skid(l, "sskid", "sskid_ptr");
    for (unsigned i = 0; i < n; i++)
        if (m[i]->storage && m[i]->selected && m[i]->selected(c))
            m[i]->storage(c, l);
}
