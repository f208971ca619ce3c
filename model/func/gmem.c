/*
 * gmem.c -- device (global + const) memory: explicit allocations in one flat address space.
 *
 * Not a timing block: the functional backing store.  Allocations get addresses from GM_BASE
 * upward, each GM_ALIGN-aligned, with at least one GM_ALIGN red zone after it, and addresses
 * are never reused (so a stale pointer into freed memory stays an error instead of aliasing a
 * newer allocation).  The table is sorted by address because addresses only grow; a freed
 * entry stays in the table (live = 0) until the table is full, then dead entries are
 * compacted away.  gm_ptr is on every simulated memory access: it checks the last entry hit,
 * then binary-searches; it never allocates.
 *
 * Capacity: bytes_live (the sum of the requested sizes of live allocations) may not exceed
 * limit.  Data is zero-filled on allocation so runs are deterministic.
 */
#include "gmem.h"
#include <stdlib.h>
#include <string.h>

void gm_init(struct gmem *g, uint64_t capacity)
{
    memset(g, 0, sizeof *g);
    g->next = GM_BASE;
    g->limit = capacity;
}

void gm_destroy(struct gmem *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; i < g->nallocs; i++)
        free(g->allocs[i].data);
    uint64_t limit = g->limit;
    gm_init(g, limit);                /* leaves an empty, reusable memory */
}

/* Drop freed entries; keeps address order. */
static void compact(struct gmem *g)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < g->nallocs; i++)
        if (g->allocs[i].live)
            g->allocs[j++] = g->allocs[i];
    memset(&g->allocs[j], 0, (g->nallocs - j) * sizeof g->allocs[0]);
    g->nallocs = j;
    g->last = 0;
}

int gm_alloc(struct gmem *g, uint64_t size, uint64_t *addr)
{
    /* footprint: size rounded up to GM_ALIGN (at least one unit), plus the red zone */
    if (size > g->limit || g->bytes_live > g->limit - size)
        return GM_E_MEMORY;
    uint64_t units = size / GM_ALIGN + (size % GM_ALIGN != 0) + (size == 0);
    if (units + 1 > (UINT64_MAX - g->next) / GM_ALIGN)
        return GM_E_SPACE;
    if (g->nallocs == GM_MAX_ALLOCS)
        compact(g);
    if (g->nallocs == GM_MAX_ALLOCS)
        return GM_E_COUNT;
    uint8_t *data = NULL;
    if (size) {
        if (size > SIZE_MAX)
            return GM_E_HOST;
        data = calloc(1, (size_t)size);
        if (!data)
            return GM_E_HOST;
    }
    struct gm_alloc *a = &g->allocs[g->nallocs++];
    a->addr = g->next;
    a->size = size;
    a->data = data;
    a->live = 1;
    g->next += (units + 1) * GM_ALIGN;
    g->bytes_live += size;
    if (addr)
        *addr = a->addr;
    return 0;
}

/* Index of the entry with the greatest addr <= addr, or UINT32_MAX if none. */
static uint32_t find_le(const struct gmem *g, uint64_t addr)
{
    uint32_t lo = 0, hi = g->nallocs;                 /* answer in [lo - 1, hi) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->allocs[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : UINT32_MAX;
}

int gm_free(struct gmem *g, uint64_t addr)
{
    uint32_t i = find_le(g, addr);
    if (i == UINT32_MAX)
        return -1;
    struct gm_alloc *a = &g->allocs[i];
    if (a->addr != addr || !a->live)
        return -1;                                    /* not an allocation start, or double free */
    free(a->data);
    a->data = NULL;
    a->live = 0;
    g->bytes_live -= a->size;
    return 0;
}

/* [addr, addr+len) wholly inside live allocation a? (len >= 1, no overflow) */
static int inside(const struct gm_alloc *a, uint64_t addr, uint64_t len)
{
    return a->live && addr >= a->addr && addr - a->addr < a->size &&
           len <= a->size - (addr - a->addr);
}

uint8_t *gm_ptr(struct gmem *g, uint64_t addr, uint64_t len)
{
    if (len == 0)
        len = 1;
    if (g->last < g->nallocs && inside(&g->allocs[g->last], addr, len))
        return g->allocs[g->last].data + (addr - g->allocs[g->last].addr);
    uint32_t i = find_le(g, addr);
    if (i == UINT32_MAX || !inside(&g->allocs[i], addr, len))
        return NULL;
    g->last = i;
    return g->allocs[i].data + (addr - g->allocs[i].addr);
}
