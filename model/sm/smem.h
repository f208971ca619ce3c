/*
 * smem.h -- shared memory of one SM as a timing block: 32 banks of 4 bytes, the conflict
 * degree of an access, and the one port that the LD/ST path (demand) and context traffic
 * (a CTA-swap mechanism moving register contexts through shared memory, 004_23e173f444f46134.txt
 * Section IV, eq. 1-2) share, demand first. Timing only: the data is the functional model's.
 *
 * Hardware: Fermi's shared memory (CUDA C Programming Guide, compute capability 2.x: 32 banks
 * of successive 32-bit words; lanes that touch different words of one bank serialise, the
 * same word broadcasts; accesses wider than 4 bytes per lane are served in phases of 32 words:
 * 8-byte accesses in two half-warps, 16-byte in four quarter-warps).
 *
 * Ports:
 *   in  dem_v, dem_mask, dem_bytes, dem_addr[32]: this cycle's demand access (an issued
 *       ld/st/atom on shared memory: lanes, bytes per lane, shared-space address per lane)
 *   out deg (conflict degree, 1 = conflict-free), lat = cfg.lat + deg - 1 (the result's
 *       latency) and ii = cfg.ii x deg (cycles the issuing scheduler's LD/ST pipe is held):
 *       combinational, for the issue of this same cycle
 *   in  ctx_v: a 32-word beat of context traffic waits for the banks
 *   out ctx_grant: it moves this cycle (no demand access this cycle and the banks are free)
 * A demand access never waits for context traffic: it holds the banks for ii cycles and the
 * context traffic takes the cycles the banks are free.
 */
#ifndef SMEM_H
#define SMEM_H
#include <stddef.h>
#include <stdint.h>

#define SMEM_BANKS 32

struct smem_cfg {
    uint32_t lat;                  /* conflict-free latency (lat_shared), 1..10000 */
    uint32_t ii;                   /* cycles per conflict-free access (ii_mem), 1..64 */
    uint32_t vt_ctx_bits;          /* VT (vt = on): eq. (1) for the largest CTA (W = 32), for
                                      the cost listing of the context storage; 0 without VT */
};

struct smem_regs {
    uint64_t busy_until;           /* [63:0] cycle the banks are free again */
};

struct smem_in {
    uint64_t now;
    uint8_t  dem_v;                /* [0] */
    uint32_t dem_mask;             /* [31:0] lanes */
    uint32_t dem_bytes;            /* [4:0] bytes per lane: 1, 2, 4, 8, 16 */
    uint64_t dem_addr[32];         /* [31:0] shared-space address per lane (where dem_mask) */
    uint8_t  ctx_v;                /* [0] a context beat waits */
};

struct smem_out {
    uint8_t  deg;                  /* [6:0] conflict degree of the demand access */
    uint32_t lat, ii;              /* its latency and initiation interval */
    uint8_t  ctx_grant;            /* [0] the context beat moves this cycle */
};

void smem_cfg_default(struct smem_cfg *c);
int  smem_cfg_check(const struct smem_cfg *c, char *err, size_t errlen);
void smem_reset(const struct smem_cfg *c, struct smem_regs *r);
void smem_eval(const struct smem_cfg *c, const struct smem_regs *q, const struct smem_in *in,
               struct smem_out *out, struct smem_regs *d);
void smem_commit(const struct smem_cfg *c, struct smem_regs *q, const struct smem_regs *d);
/* time_skip (model/sm/sm_sleep.c): with a context beat waiting (ctx_v) and no demand
   access, the earliest cycle > now whose eval grants it (r: the registers at the start of
   cycle now). */
uint64_t smem_next_event(const struct smem_cfg *c, const struct smem_regs *r, uint64_t now);

/* The largest number of distinct 4-byte words any one bank must deliver for an access
   (1 = conflict-free; the same word broadcasts); phases of wide accesses add up. */
uint32_t smem_bank_degree(const uint64_t *addr, uint32_t mask, uint32_t bytes);

struct gpu_config;
struct cost_list;
uint32_t smem_instances(const struct gpu_config *c);
void smem_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct smem_cfg *out);
void smem_storage(const struct smem_cfg *c, struct cost_list *l);

#endif
