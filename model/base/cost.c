/*
 * cost.c -- helpers for the blocks' storage declarations (see cost.h): the item list and the
 * width of the memory request packet, which several blocks queue.
 */
#include <string.h>
#include "cost.h"

void cost_list_init(struct cost_list *l)
{
    memset(l, 0, sizeof *l);
    l->block = "?";
}

void cost_begin(struct cost_list *l, const char *block)
{
    l->block = block;
}

void cost_add(struct cost_list *l, struct cost_item it)
{
    if (!it.entries || !it.bits)
        return;
    if (l->n >= COST_MAX_ITEMS) {
        l->overflow = 1;
        return;
    }
    it.block = l->block;
    if (!it.inst)
        it.inst = 1;
    if (!it.wports)
        it.wports = 1;
    if (!it.banks)
        it.banks = 1;
    l->it[l->n++] = it;
}

void cost_set_inst(struct cost_list *l, uint32_t from, uint32_t inst)
{
    for (uint32_t i = from; i < l->n; i++)
        l->it[i].inst = inst;
}

uint32_t cost_clog2(uint64_t n)
{
    uint32_t b = 0;
    while (b < 64 && (1ull << b) < n)
        b++;
    return b;
}

uint32_t cost_fifo_bits(uint64_t n)
{
    return 2 * cost_clog2(n) + cost_clog2(n + 1);
}

/*
 * struct mem_req (memreq.h) has no width comments; as hardware would hold it:
 *   addr     57  line address: bits [63:7] (bits [6:0] are zero; l1/l2 tags say [56:0])
 *   bytes     8  0..128
 *   kind      3  enum mem_kind (6 values)
 *   sm        8  requesting SM (uint8_t)
 *   warp      7  warp slot (SM_MAX_SLOTS = 128 per SM)
 *   tag      32  requester's tag, as declared (uint32_t)
 *   lanes    32  lanes the line serves (LD/ST requests; [31:0])
 *   t_issue   0  statistics only, not hardware
 *   pad       0
 */
uint32_t cost_memreq_bits(void)
{
    return 57 + 8 + 3 + 8 + 7 + 32 + 32;
}

uint64_t cost_block_bits(const struct cost_list *l, const char *block, int onchip_only)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        const struct cost_item *it = &l->it[i];
        if (onchip_only && !it->onchip)
            continue;
        if (block[0] && strcmp(block, it->block))
            continue;
        s += it->entries * it->bits * it->inst;
    }
    return s;
}
