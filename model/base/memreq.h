/*
 * memreq.h -- the memory request/response packet that travels between the SM's LD/ST unit,
 * the L1 data cache, the interconnect, the L2 slices and the DRAM channels.
 *
 * Timing only: data values are handled functionally at issue (exec.c), so a packet carries
 * addresses and sizes, never data. One packet = one access to one 128-byte line (the
 * coalescer splits a warp's accesses into line-sized requests and marks on each the lanes it
 * serves; the L1, interconnect and L2 carry the packet unchanged, so a response names the
 * lanes it completes).
 */
#ifndef MEMREQ_H
#define MEMREQ_H
#include <stdint.h>

#define MEM_LINE_BYTES 128u
#define MEM_LINE_SHIFT 7          /* log2(MEM_LINE_BYTES): address >> 7 = line number */

enum mem_kind {
    MK_LOAD = 0,      /* global/local load: needs a response */
    MK_STORE,         /* write: L1 write-through/no-allocate; acknowledged to release the warp */
    MK_ATOMIC,        /* performed at L2: needs a response */
    MK_IFETCH,        /* instruction fetch miss */
    MK_SPILL,         /* SIMT stack spill (write) */
    MK_FILL           /* SIMT stack fill (read): needs a response */
};

struct mem_req {
    uint64_t addr;        /* line-aligned address (bits [6:0] zero) */
    uint32_t bytes;       /* bytes touched in the line (<= 128) */
    uint8_t  kind;        /* enum mem_kind */
    uint8_t  sm;          /* requesting SM */
    uint8_t  warp;        /* requesting warp slot in the SM */
    uint8_t  pad;
    uint32_t tag;         /* requester's tag (e.g. LD/ST pending-entry index), returned as is */
    uint32_t lanes;       /* [31:0] LD/ST line requests: the lanes whose whole access lies in
                             this line (set by the coalescer); 0 in every other packet */
    uint64_t t_issue;     /* cycle the request left the SM (statistics only) */
};

#endif
