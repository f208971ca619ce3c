/*
 * icnt.h -- the interconnect between the SMs and the L2 slices: two crossbars, one per
 * direction (requests SM -> slice, responses slice -> SM).
 *
 * Hardware: a single-stage crossbar in each direction, as GPGPU-Sim models Fermi's network
 * (configs/GTX480/config_fermi_islip.icnt: topology fly, k = 27 nodes (15 SMs + 12 memory
 * sub-partitions), n = 1 stage, one VC of 8 flits, iSLIP allocation, 32-byte flits). Here:
 * every input port has a FIFO; each cycle every output grants one of the inputs whose head
 * packet wants it, round robin (the grant pointer moves past the winner); a granted packet
 * occupies its input and its output for one cycle per flit (header 8 bytes + data), crosses
 * in `latency` cycles and is offered at the output when its tail arrives. Each output has a
 * bounded FIFO that counts packets in flight to it, so a grant needs a free slot there.
 * Towards the L2 slices, an output sends only with a credit (one per free slot of the
 * slice's input queue, returned by the slice); towards the SMs the L1 always accepts.
 *
 * Ports:
 *   in  sm_req_valid (bit i), sm_req[i]   request from SM i's L1 (only when out.sm_ready
 *                                         bit i was 1 at the end of the previous cycle)
 *   out sm_ready (bit i)                  SM i's input FIFO has room next cycle (registered)
 *   out l2_req_valid (bit s), l2_req[s]   request to slice s
 *   in  l2_credit (bit s)                 slice s freed one input slot
 *   in  l2_resp_valid (bit s), l2_resp[s] response from slice s (credit-guaranteed room)
 *   out l2_resp_credit (bit s)            one slot of slice s's response input FIFO freed
 *   out sm_resp_valid (bit i), sm_resp[i] response to SM i (routed by mem_req.sm)
 * The SM port number is written into mem_req.sm on entry, so responses always route back.
 * Latency (zero load): a packet entering an input FIFO in cycle t is granted at t+1 and
 * offered at the output at t + 1 + latency + (flits - 1).
 * Slice of an address: see icnt_slice_of. Parameters: see icnt_cfg_default, docs/memsys.md.
 */
#ifndef ICNT_H
#define ICNT_H
#include <stddef.h>
#include <stdint.h>
#include "base/memreq.h"

#define ICNT_MAX_PORTS 64         /* SMs, and L2 slices */
#define ICNT_MAX_INQ   16         /* power of two */
#define ICNT_MAX_OUTQ  32         /* power of two */
#define ICNT_HDR_BYTES 8          /* packet header (address, kind, ids) */

struct icnt_cfg {
    uint32_t n_sm;                /* SM ports, 1..ICNT_MAX_PORTS (15) */
    uint32_t n_slice;             /* L2 slice ports, 1..ICNT_MAX_PORTS (12) */
    uint32_t latency;             /* cycles from grant to the head arriving, 1..1000 (8) */
    uint32_t flit_bytes;          /* flit size; 0 = every packet is one flit (32) */
    uint32_t inq_size;            /* input FIFO per port, 2..ICNT_MAX_INQ (8) */
    uint32_t outq_size;           /* output FIFO per port incl. in flight, 1..ICNT_MAX_OUTQ (16) */
    uint32_t l2_credits;          /* input slots of each L2 slice (= l2_cfg.ropq_size) */
};

struct icnt_pkt {
    uint64_t t_arrive;            /* [63:0] cycle the tail reaches the output */
    struct mem_req req;
    uint8_t  dst;                 /* [5:0] output port */
    uint8_t  flits;               /* [3:0] */
    uint8_t  pad[6];
};

struct icnt_fifo {
    uint8_t rd, wr, cnt;
};

struct icnt_iport {
    uint64_t t_free;              /* [63:0] input busy (sending flits) until this cycle */
    struct icnt_fifo f;
};

struct icnt_oport {
    uint64_t t_free;              /* [63:0] output busy until this cycle */
    struct icnt_fifo f;
    uint8_t  rr;                  /* [5:0] round-robin pointer: first input to consider */
    uint16_t credit;              /* [8:0] credits towards the receiver (slice direction) */
};

/* One direction. */
struct icnt_dir {
    uint64_t in_ne, out_ne;       /* [63:0] non-empty input / output FIFOs */
    uint64_t in_full;             /* [63:0] full input FIFOs */
    /* write log: ports whose control eval wrote this cycle (simulation bookkeeping) */
    uint64_t wl_in, wl_out;
    struct icnt_iport ip[ICNT_MAX_PORTS];
    struct icnt_oport op[ICNT_MAX_PORTS];
    struct icnt_pkt iq[ICNT_MAX_PORTS][ICNT_MAX_INQ];
    struct icnt_pkt oq[ICNT_MAX_PORTS][ICNT_MAX_OUTQ];
};

struct icnt_regs {
    struct icnt_dir req;          /* inputs: SMs, outputs: slices */
    struct icnt_dir resp;         /* inputs: slices, outputs: SMs */
};

struct icnt_in {
    uint64_t now;
    uint64_t sm_req_valid;
    uint64_t l2_credit;
    uint64_t l2_resp_valid;
    struct mem_req sm_req[ICNT_MAX_PORTS];
    struct mem_req l2_resp[ICNT_MAX_PORTS];
};

struct icnt_out {
    uint64_t sm_ready;
    uint64_t l2_req_valid;
    uint64_t l2_resp_credit;
    uint64_t sm_resp_valid;
    struct mem_req l2_req[ICNT_MAX_PORTS];
    struct mem_req sm_resp[ICNT_MAX_PORTS];
    /* events this cycle */
    uint32_t ev_req_pkts, ev_req_flits;       /* granted in the request crossbar */
    uint32_t ev_resp_pkts, ev_resp_flits;     /* granted in the response crossbar */
    uint32_t ev_bad;                          /* packets dropped: full FIFO or bad port */
};

void icnt_cfg_default(struct icnt_cfg *c);
int  icnt_cfg_check(const struct icnt_cfg *c, char *err, size_t errlen);
void icnt_reset(const struct icnt_cfg *c, struct icnt_regs *r);
void icnt_eval(const struct icnt_cfg *c, const struct icnt_regs *q, const struct icnt_in *in,
               struct icnt_out *out, struct icnt_regs *d);
void icnt_commit(const struct icnt_cfg *c, struct icnt_regs *q, const struct icnt_regs *d);

/* L2 slice of a byte address: line = addr >> 7, f = XOR of all 2-bit fields of line >> 2,
   slice = (line ^ f) mod n_slice. Consecutive lines go to consecutive slices; the fold
   spreads power-of-two strides that a plain modulo would send to a few slices. */
uint32_t icnt_slice_of(const struct icnt_cfg *c, uint64_t addr);
/* Flits of a packet: 1 + data bytes (write data or read reply) per flit_bytes. */
uint32_t icnt_flits(const struct icnt_cfg *c, const struct mem_req *r, int response);
/* Registered SM-side ready mask of state q (what out.sm_ready said for this cycle). */
uint64_t icnt_sm_ready(const struct icnt_cfg *c, const struct icnt_regs *q);
int      icnt_busy(const struct icnt_regs *q);
/* Earliest cycle > now at which icnt_eval without inputs can change state or produce output
   (UINT64_MAX: only an input can). */
uint64_t icnt_next_event(const struct icnt_cfg *c, const struct icnt_regs *q, uint64_t now);

/* Storage of the block for this configuration, for the cost estimator (cost.h). */
struct cost_list;
void icnt_storage(const struct icnt_cfg *c, struct cost_list *l);

#endif
