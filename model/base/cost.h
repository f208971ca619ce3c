/*
 * cost.h -- storage declarations of the hardware blocks, for the cost estimator (cost/).
 *
 * Each block lists its own storage next to its *_regs definition, in a function
 * `void X_storage(const struct X_cfg *, struct cost_list *)` (declared in model/X.h, defined
 * in model/X.c): one item per array (or per field of an array) with the entries the
 * configuration needs (not the C array's compile-time maximum) and the bits per entry from
 * the width comments of *_regs. So the storage cost follows the code: change a field or a
 * depth and the report changes with it; there is no hand-typed table of totals.
 *
 * An item is `entries x bits` with the ports that access it per cycle. Consecutive items
 * whose names share the part before the first '.' ("q.reg", "q.vwi") are fields of one
 * physical array: the area model (cost/area.c) prices the array as a whole (flip-flops or
 * SRAM) and shares its area among the fields by bits, so that a mechanism's field (e.g. a
 * VWI tag) is priced inside the array that holds it. Fields marked "simulation bookkeeping, not hardware" are
 * not listed; storage that is not on chip would be listed with onchip = 0 and never priced
 * (no block has any: simt's spill image is global memory, held by the SM).
 */
#ifndef COST_H
#define COST_H
#include <stdint.h>

#define COST_MAX_ITEMS 256
#define COST_PAR 0xFF              /* rports: every entry is read in parallel (no read mux) */

struct cost_item {
    const char *block;             /* set by cost_add from the list's current block */
    const char *name;              /* array[.field] */
    const char *mech;              /* the mechanism these bits pay for */
    const char *note;              /* where the width comes from (optional) */
    uint64_t entries;              /* entries the configuration needs */
    uint32_t bits;                 /* bits per entry */
    uint32_t inst;                 /* instances of the block (set by the caller; 1 default) */
    uint32_t banks;                /* independent arrays the entries are split into (e.g. one
                                      per warp: a per-warp stack), 0 or 1 = one array */
    uint8_t  rports, wports;       /* per-cycle read / write accesses (COST_PAR: parallel) */
    uint8_t  onchip;               /* 0: not on chip (listed, never priced) */
};

struct cost_list {
    struct cost_item it[COST_MAX_ITEMS];
    uint32_t n;
    const char *block;             /* block the next items belong to */
    int overflow;                  /* an item did not fit (the list is incomplete) */
};

void cost_list_init(struct cost_list *l);
/* Items added from now on belong to `block` (a string literal). */
void cost_begin(struct cost_list *l, const char *block);
/* Append one item (skipped when entries or bits are 0). */
void cost_add(struct cost_list *l, struct cost_item it);
/* Set inst on items [from, l->n): the caller's instance count for one block's items. */
void cost_set_inst(struct cost_list *l, uint32_t from, uint32_t inst);
/* Bits to hold the values 0..n-1 (cost_clog2(1) = 0, (2) = 1, (48) = 6). */
uint32_t cost_clog2(uint64_t n);
/* Read and write pointers and occupancy of a FIFO of n entries. */
uint32_t cost_fifo_bits(uint64_t n);
/* Bits of one struct mem_req as hardware would hold it (breakdown in cost.c). */
uint32_t cost_memreq_bits(void);
/* Total bits (entries x bits x inst) of a block's items ("" = every block). */
uint64_t cost_block_bits(const struct cost_list *l, const char *block, int onchip_only);

#endif
