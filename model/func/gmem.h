/*
 * gmem.h -- device (global + const) memory: explicit allocations in one flat address space.
 *
 * Not a timing block: the functional backing store; the timing model's memory system
 * (mem/dram.c and the caches) times the accesses but holds no data.  Every
 * allocation is a range [addr, addr+size); an access that is not wholly inside one live
 * allocation is an error (the caller reports kernel, PC, CTA and thread).
 * Addresses start at GM_BASE and allocations are 256-byte aligned with a 256-byte red zone
 * between them so that small overruns are caught, as cudaMalloc's alignment would suggest.
 */
#ifndef GMEM_H
#define GMEM_H
#include <stdint.h>
#include <stddef.h>

#define GM_BASE       0x0000000200000000ull
#define GM_ALIGN      256u
#define GM_MAX_ALLOCS 4096u

struct gm_alloc { uint64_t addr, size; uint8_t *data; uint8_t live; };

struct gmem {
    struct gm_alloc allocs[GM_MAX_ALLOCS];   /* sorted by addr (addresses only grow) */
    uint32_t nallocs;
    uint64_t next;                           /* next free address */
    uint64_t bytes_live;
    uint64_t limit;                          /* capacity (config dram size) */
    uint32_t last;                           /* lookup cache */
};

void     gm_init(struct gmem *g, uint64_t capacity);
void     gm_destroy(struct gmem *g);
/* returns 0 and the address, or why not: */
enum { GM_E_MEMORY = -1,          /* the device memory (capacity) is used up */
       GM_E_COUNT = -2,           /* GM_MAX_ALLOCS allocations are live */
       GM_E_SPACE = -3,           /* the device address space is exhausted */
       GM_E_HOST = -4 };          /* the host is out of memory */
int      gm_alloc(struct gmem *g, uint64_t size, uint64_t *addr);
int      gm_free(struct gmem *g, uint64_t addr);          /* -1 if not an allocation start */
/* host pointer for [addr, addr+len) if wholly inside one live allocation, else NULL */
uint8_t *gm_ptr(struct gmem *g, uint64_t addr, uint64_t len);

#endif
