/*
 * dram.h -- one DRAM channel: memory controller (FR-FCFS) and its GDDR5 devices.
 *
 * Hardware: a GTX480 memory partition's controller and its two x32 GDDR5 chips (an 8-byte
 * channel, 16 banks, one open row per bank). Requests from the channel's L2 slices wait out
 * a fixed controller latency in a FIFO, then enter the scheduler queue. Each cycle the
 * scheduler issues at most one command: among requests whose bank can take a command now,
 * the oldest row hit (column read/write) first; otherwise the oldest request's ACTIVATE (bank
 * closed) or PRECHARGE (another row open and no queued request hits it). Timing constraints:
 * tRCD, tRP, tRAS, tRC (per bank), tRRD, tCCD (per channel), tCL/tWL, write recovery tWR,
 * read-to-precharge tRTP, read-to-write tRTW, write-data-to-read tCDLR, and the data bus: a
 * 128-byte line occupies it for line_ticks/tick_per_cycle core cycles (exact: GDDR5 moves a
 * line in 4 command clocks = 3.03 core cycles, tracked in ticks of 1/tick_per_cycle cycle so
 * the peak bandwidth is not rounded). Reads return to their slice when their last data beat
 * is on the bus; writes need no answer. No refresh, no bank groups, no power-down.
 *
 * Ports:
 *   in  req_valid[p], req[p]  from slice port p (kind MK_STORE = write, anything else = read);
 *                             room guaranteed by credits (latq_size / n_ports per port)
 *   out credit (bit p)        one slot of port p freed (the request entered the scheduler)
 *   out ret_valid, ret_port, ret   a read's line returns to slice port ret_port (one per cycle)
 *   in  now; out ev_*          current cycle; per-cycle events
 * Latency (zero load, read arriving in cycle t): enters the scheduler queue at
 * t + front_latency, ACT at +1, column at +1+tRCD, returns at ceil of the data end:
 * t + front_latency + 1 + tRCD + tCL + line time (row closed); - tRCD for a row hit; + tRP
 * for a row conflict (the other row open long enough for tRAS).
 * Address map (channel-local line c = (line / line_div) * n_ports + port, after GPGPU-Sim's
 * GTX480 map ...RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS): col = c[0] | c[log2(lpr):2] << 1,
 * bank = c[1] | c[..] << 1, row = the bits above; see dram_map.
 * Parameters (dram_cfg_default): GPGPU-Sim configs/GTX480/gpgpusim.config, converted from
 * 924 MHz command clocks to 700 MHz core cycles rounding up; see docs/dram.md.
 */
#ifndef DRAM_H
#define DRAM_H
#include <stddef.h>
#include <stdint.h>
#include "base/memreq.h"
#include "base/cachelib.h"

#define DRAM_MAX_BANKS 32
#define DRAM_MAX_Q     64         /* scheduler queue */
#define DRAM_MAX_PORTS 4
#define DRAM_MAX_LATQ  512        /* power of two */
#define DRAM_MAX_RETQ  64         /* power of two */
#define DRAM_NONE      0xFF

struct dram_cfg {
    uint32_t n_ports;             /* L2 slices on this channel, 1..DRAM_MAX_PORTS (2) */
    uint32_t line_div;            /* L2 slices in the GPU (12); see the address map */
    uint32_t nbk;                 /* banks, power of two, 2..DRAM_MAX_BANKS (16) */
    uint32_t lines_per_row;       /* 128-byte lines per row per bank, power of two >= 4 (32) */
    /* timings in core cycles */
    uint32_t tRCD, tRP, tRAS, tRC, tRRD, tCCD, tCL, tWL, tWR, tRTP, tRTW, tCDLR;
    uint32_t tick_per_cycle;      /* data-bus ticks per core cycle (924 = DRAM MHz) */
    uint32_t line_ticks;          /* ticks one line occupies the bus (4 cmd clocks x 700) */
    uint32_t queue_size;          /* scheduler queue, 1..DRAM_MAX_Q (32) */
    uint32_t front_latency;       /* controller latency before scheduling, 0..10000 (100) */
    uint32_t latq_size;           /* latency FIFO, n_ports..DRAM_MAX_LATQ (128) */
};

struct dram_ent {
    struct mem_req req;
    uint32_t row;                 /* [31:0] (12 bits on GTX480: 4096 rows) */
    uint32_t seq;                 /* [31:0] arrival order (FCFS age) */
    uint8_t  bank;                /* [4:0] */
    uint8_t  port;                /* [1:0] */
    uint8_t  wr;                  /* [0] write */
    uint8_t  act;                 /* [0] its row was opened for it (row miss) */
    uint8_t  pad[4];
};

struct dram_lat {
    uint64_t t_ready;             /* [63:0] cycle it may enter the scheduler queue */
    struct mem_req req;
    uint8_t  port;
    uint8_t  pad[7];
};

struct dram_ret {
    uint64_t t_done;              /* [63:0] cycle its last data beat is on the bus */
    struct mem_req req;
    uint8_t  port;
    uint8_t  pad[7];
};

struct dram_bank {
    uint64_t t_act_ok;            /* [63:0] earliest ACT (tRP, tRC) */
    uint64_t t_col_ok;            /* [63:0] earliest RD/WR (tRCD) */
    uint64_t t_pre_ok;            /* [63:0] earliest PRE (tRAS, tRTP, tWR) */
    uint64_t mask;                /* [63:0] queue entries for this bank */
    uint32_t row;                 /* [31:0] open row */
    uint8_t  open;                /* [0] */
    /* the bank's candidates (in hardware: per-bank age/row-match comparators); kept up to
       date whenever mask, open or row change. DRAM_NONE = none */
    uint8_t  old;                 /* [5:0] oldest queued entry */
    uint8_t  hit_rd, hit_wr;      /* [5:0] oldest queued read / write to the open row */
};

struct dram_ctrl {
    struct cache_fifo latq, retq;
    uint64_t valid;               /* [63:0] scheduler queue entries in use */
    uint64_t t_act_any;           /* [63:0] tRRD */
    uint64_t t_col_any;           /* [63:0] tCCD */
    uint64_t t_rd_ok;             /* [63:0] write data end + tCDLR */
    uint64_t t_wr_ok;             /* [63:0] read + tRTW */
    uint64_t bus_free;            /* [63:0] data bus free from this tick */
    uint64_t t_wake;              /* [63:0] no command can issue before this cycle */
    uint32_t seq;                 /* [31:0] next arrival number */
    uint32_t bank_ne;             /* [31:0] banks with queued requests */
    uint16_t cnt;                 /* [6:0] scheduler queue occupancy */
    /* write log (simulation bookkeeping, not hardware) */
    uint8_t  wl_nbank, wl_bank[2], wl_nent, wl_ent[2];
};

struct dram_regs {
    struct dram_ctrl c;
    struct dram_bank bank[DRAM_MAX_BANKS];
    struct dram_ent  q[DRAM_MAX_Q];
    struct dram_lat  latq[DRAM_MAX_LATQ];
    struct dram_ret  retq[DRAM_MAX_RETQ];
};

struct dram_in {
    uint64_t now;
    uint8_t  req_valid[DRAM_MAX_PORTS];
    struct mem_req req[DRAM_MAX_PORTS];
};

struct dram_out {
    uint8_t  ret_valid, ret_port;
    uint8_t  credit;                              /* bit p: port p got a slot back */
    uint8_t  ev_rd, ev_wr;                        /* column command issued */
    uint8_t  ev_row_hit, ev_row_miss;             /* ... to an open row / after its ACT */
    uint8_t  ev_act, ev_pre;
    uint8_t  ev_bad;                              /* request dropped (port full / bad port) */
    uint16_t ev_bytes;                            /* bytes moved on the bus */
    uint32_t ev_bus_ticks;                        /* bus occupancy added (ticks) */
    struct mem_req ret;
};

/* GPGPU-Sim's GTX480 DRAM figures (command clocks at 924 MHz) converted to 700 MHz core
   cycles, rounding up: ceil(x * core_mhz / dram_mhz). */
uint32_t dram_to_core(uint32_t dram_cycles, uint32_t dram_mhz, uint32_t core_mhz);
void dram_cfg_default(struct dram_cfg *c);
int  dram_cfg_check(const struct dram_cfg *c, char *err, size_t errlen);
void dram_reset(const struct dram_cfg *c, struct dram_regs *r);
void dram_eval(const struct dram_cfg *c, const struct dram_regs *q, const struct dram_in *in,
               struct dram_out *out, struct dram_regs *d);
void dram_commit(const struct dram_cfg *c, struct dram_regs *q, const struct dram_regs *d);

/* Bank and row of a line address arriving on `port`. */
void     dram_map(const struct dram_cfg *c, uint64_t addr, unsigned port, uint32_t *bank,
                  uint32_t *row);
int      dram_busy(const struct dram_regs *q);
/* Earliest cycle > now at which dram_eval without inputs can change state or produce output
   (UINT64_MAX: idle). */
uint64_t dram_next_event(const struct dram_cfg *c, const struct dram_regs *q, uint64_t now);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void dram_storage(const struct dram_cfg *c, struct cost_list *l);

#endif
