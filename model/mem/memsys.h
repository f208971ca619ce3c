/*
 * memsys.h -- the GPU-wide memory system: the SM <-> L2 interconnect, every L2 slice and every
 * DRAM channel, as one object ticked once per core cycle.
 *
 * Hardware: a GTX480's memory side (15 SMs, 12 L2 slices of 64 KB, 6 GDDR5 channels with two
 * slices each), one clock domain (the 700 MHz core clock). Inside, the blocks (icnt.h, l2.h,
 * dram.h) talk only through their ports, every port latched for one cycle: a block's outputs
 * in cycle t are the other blocks' inputs in cycle t+1 (valid/credit handshakes, so no queue
 * ever overflows). A tick evaluates every block that can do something, then commits them all.
 *
 * SM side, per SM and per cycle t:
 *   - msys_sm_ready(ms, sm) (or bit sm of msys_ready_mask): the SM's interconnect input has
 *     room (a registered signal: it reflects the state after tick t-1). Pass it to the L1 as
 *     icnt_ready in cycle t.
 *   - msys_tick(ms, t, in, out): in[sm] = the packet the L1 sent in cycle t (at most one,
 *     only if ready); out[sm] = the response the SM receives; give it to the L1's fill port
 *     in cycle t+1 (the L1 always accepts it). msys_tick_port is the same with bit masks.
 * So an SM evaluates its L1 in cycle t, then the GPU ticks the memory system with the L1's
 * miss output.
 * Latency (zero load, GTX480 defaults, from the L1 accepting a load to its response): L2 hit
 * 148 cycles; L2 miss 267 / 277 / 287 (DRAM row hit / bank closed / row conflict); the sums
 * are in docs/memsys.md and checked by tests/test_memsys.c.
 *
 * Idle cycles: msys_next_event(ms, t) after tick t gives the next cycle at which a tick
 * without SM input can do anything; ticks in between may be skipped (all state is absolute
 * cycle stamps) and the statistics come out identical. msys_busy says whether anything is in
 * flight at all.
 *
 * Parameters: msys_cfg_default (GTX480; sources in each block's header and the docs).
 */
#ifndef MEMSYS_H
#define MEMSYS_H
#include <stddef.h>
#include <stdint.h>
#include "base/memreq.h"
#include "icnt.h"
#include "l2.h"
#include "dram.h"

#define MSYS_MAX_SM     ICNT_MAX_PORTS
#define MSYS_MAX_SLICES ICNT_MAX_PORTS
#define MSYS_MAX_CHAN   64

struct msys_cfg {
    uint32_t n_sm;                /* SMs (15) */
    uint32_t n_chan;              /* DRAM channels (6: -gpgpu_n_mem 6) */
    uint32_t slices_per_chan;     /* L2 slices per channel (2: -gpgpu_n_sub_partition_per_mchannel) */
    struct icnt_cfg icnt;
    struct l2_cfg   l2;           /* per slice */
    struct dram_cfg dram;         /* per channel */
};

/* The SM side of one tick, one entry per SM (msys_tick). */
struct msys_sm_in {
    uint8_t valid;
    struct mem_req req;
};

struct msys_sm_out {
    uint8_t resp_valid;
    struct mem_req resp;
};

/* The same as bit masks (msys_tick_port): cost per packet, not per SM. */
struct msys_port {
    uint64_t req_valid;           /* in:  bit i: SM i sends req[i] this cycle */
    uint64_t resp_valid;          /* out: bit i: SM i receives resp[i] (others untouched) */
    struct mem_req req[MSYS_MAX_SM];
    struct mem_req resp[MSYS_MAX_SM];
};

struct msys_stats {
    /* interconnect */
    uint64_t icnt_req_pkts, icnt_req_flits, icnt_resp_pkts, icnt_resp_flits;
    /* L2, all slices */
    uint64_t l2_access, l2_hit, l2_miss, l2_merge, l2_write, l2_atomic;
    uint64_t l2_writeback, l2_fetch, l2_stall;
    uint64_t l2_slice_access[MSYS_MAX_SLICES], l2_slice_hit[MSYS_MAX_SLICES];
    /* DRAM, per channel */
    uint64_t dram_rd[MSYS_MAX_CHAN], dram_wr[MSYS_MAX_CHAN];
    uint64_t dram_row_hit[MSYS_MAX_CHAN], dram_row_miss[MSYS_MAX_CHAN];
    uint64_t dram_act[MSYS_MAX_CHAN], dram_pre[MSYS_MAX_CHAN];
    uint64_t dram_bytes[MSYS_MAX_CHAN];
    uint64_t dram_bus_ticks[MSYS_MAX_CHAN];   /* data-bus busy time, in ticks */
    uint32_t dram_tick_per_cycle;             /* divide bus ticks by this for cycles */
    uint64_t bad;                             /* malformed packets dropped (should be 0) */
};

struct msys;

/* GTX480 defaults for n_sm SMs; derived fields filled in (msys_cfg_derive). */
void msys_cfg_default(struct msys_cfg *c, uint32_t n_sm);
/* Fill the fields that follow from others: icnt.n_sm/n_slice, credits, line_div, ports. */
void msys_cfg_derive(struct msys_cfg *c);
int  msys_cfg_check(const struct msys_cfg *c, char *err, size_t errlen);
/* Allocates (at init only). NULL and a message if the configuration is unusable. The derived
   fields of cfg are recomputed from the others. */
struct msys *msys_init(const struct msys_cfg *cfg, char *err, size_t errlen);
void msys_free(struct msys *ms);
/* ms back to msys_init's state for another run with the same configuration, resetting only
   the blocks touched since (a launch's set-up proportional to what the last one used):
   0, or -1 when cfg is not ms's (then free it and init a new one). */
int msys_reuse(struct msys *ms, const struct msys_cfg *cfg);

/* Launch set-up, before the first tick: the line holding byte address addr becomes a valid,
   clean, most recently used line of its slice (l2_install on the slice's q and d registers;
   a reset with contents, not a request: no statistics, no DRAM traffic). l2copy.h uses it
   for the lines host-to-device copies left in the L2. */
void msys_install(struct msys *ms, uint64_t addr);

int  msys_sm_ready(const struct msys *ms, unsigned sm);
uint64_t msys_ready_mask(const struct msys *ms);
/* in: n_sm entries or NULL (no requests); out: n_sm entries, all written. */
void msys_tick(struct msys *ms, uint64_t now, const struct msys_sm_in *in,
               struct msys_sm_out *out);
/* The same with masks: reads port->req[i] for the bits of port->req_valid, sets
   port->resp_valid and writes port->resp[i] for its bits only. */
void msys_tick_port(struct msys *ms, uint64_t now, struct msys_port *port);
int  msys_busy(const struct msys *ms);
uint64_t msys_next_event(const struct msys *ms, uint64_t now);
const struct msys_stats *msys_stats(const struct msys *ms);
/* The first bad event of a block (or, with CHECK=1, a commit that left q != d): a message
   naming block, instance and cycle; NULL while all is well. */
const char *msys_error(const struct msys *ms);
const struct msys_cfg   *msys_get_cfg(const struct msys *ms);
/* Data-bus utilisation of channel ch over `cycles` core cycles (0..1). */
double msys_dram_util(const struct msys_stats *s, unsigned ch, uint64_t cycles);

#endif
