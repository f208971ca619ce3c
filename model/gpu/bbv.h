/*
 * bbv.h -- per-thread basic block vectors (BBV) of a launch: how many times every thread
 * entered every basic block of the kernel (001_8bf4399a5d1562fa.txt Section IV, "BBV": one
 * counter per basic block per thread, incremented each time the thread touches the block).
 *
 * Not a hardware block: a profile collected through the instruction probe's sink
 * (func/probe.h), the same in the functional and the timing model. A thread enters block b
 * when its warp issues b's first instruction with the thread's lane active (the SIMT mask,
 * before the instruction's guard); blocks come from flow.h (a block ends at a branch, an exit or
 * before a branch target). Threads are numbered as in the grid: linear CTA index x threads
 * per CTA + linear thread index in the CTA.
 *
 * Beside the counts a launch keeps what the estimates need (bbv_est.h): per block its
 * instruction count, the sum of its instructions' fixed latencies (the configuration's lat_*
 * keys, 001 Table III: every instruction but global-memory ones; shared, constant and
 * parameter accesses at lat_shared, lat_const, lat_param; stores other than shared at 1) and
 * its global-memory loads and atomics (their latency depends on the caches: bbv_est.h); per
 * launch the SMs, CTAs per SM (occupancy), the cycles the timing model took (0 in the
 * functional model) and its L1 and L2 hit ratios in parts per million (BBV_UNKNOWN if the
 * run had no cache accesses, as in the functional model).
 *
 * The binary form (bbv_write, bbv_read) is little-endian: "GSBBV1\n\0", then per launch the
 * kernel name (u32 length + bytes), grid x, y, z and block x, y, z (u32 each), nsms,
 * occupancy, l1_ppm, l2_ppm (u32 each), cycles (u64), nblocks (u32), per block its first pc,
 * instructions, fixed latency and global accesses (u32 each), nthreads (u64) and the counts,
 * u32 [nthreads][nblocks]. The CSV form has per launch two comment lines (the launch; the
 * blocks with their figures) and a header `thread,b0@pc,...`, then a row per thread.
 */
#ifndef BBV_H
#define BBV_H
#include <stdint.h>
#include <stdio.h>
#include "gpu/gpusim.h"
#include "func/probe.h"
#include "ptx/flow.h"
#include "base/config.h"

#define BBV_MAGIC "GSBBV1\n"          /* 8 bytes with its NUL */
#define BBV_MAX_BYTES (1ull << 31)    /* counts per launch: refused above 2 GiB */
#define BBV_FILE_MAX  (4ull << 30)    /* a binary file bbv_load reads: at most 4 GiB */

#define BBV_UNKNOWN UINT32_MAX        /* a hit ratio the run did not measure */

struct bbv_block {
    uint32_t first;                   /* first pc */
    uint32_t ninsns;                  /* instructions */
    uint32_t fixed;                   /* sum of the fixed latencies, cycles */
    uint32_t gmem;                    /* global-memory loads and atomics */
};

struct bbv {
    char kernel[128];
    struct gs_dim3 grid, block;
    uint32_t nsms, occupancy;         /* SMs; CTAs per SM */
    uint32_t l1_ppm, l2_ppm;          /* hit ratios x 1e6, or BBV_UNKNOWN */
    uint64_t cycles;                  /* the timing model's cycles (0: functional) */
    uint32_t nblocks;
    struct bbv_block *blk;            /* [nblocks] */
    uint64_t nthreads;                /* grid x block threads */
    uint32_t *count;                  /* [nthreads * nblocks] entries, saturating at 2^32-1 */
    const struct flow *flow;          /* while collecting */
    uint32_t tpc;                     /* threads per CTA */
    uint64_t stray;                   /* events naming a thread outside the grid (a bug) */
};

/* Set up b for a launch of kernel (program p, flow f, grid, block) under configuration c:
   counts zeroed, the blocks' figures filled. 0, or -1 with a message (too large, out of
   memory). */
int  bbv_begin(struct bbv *b, const char *kernel, const struct ptx_prog *p, const struct flow *f,
               const struct gpu_config *c, struct gs_dim3 grid, struct gs_dim3 block, char *err,
               size_t errlen);
/* The launch's figures from its statistics (after the run). */
void bbv_end(struct bbv *b, const struct gs_stats *st, uint32_t nsms);
void bbv_free(struct bbv *b);
/* The probe sink's function (arg: a struct bbv being collected). */
void bbv_sink(void *arg, const struct probe_event *e);

/* Count of thread t in block k. */
static inline uint32_t bbv_at(const struct bbv *b, uint64_t t, uint32_t k)
{
    return b->count[t * b->nblocks + k];
}

/* Write one launch's BBVs in the binary (csv = 0) or CSV form; index: the launch's number in
   the file (the CSV comment). 0, or -1 on a write error. */
int  bbv_write(FILE *f, const struct bbv *b, int csv, unsigned index);
int  bbv_write_magic(FILE *f);
/* A binary file's bytes whole (model/base/infile.h: a regular file of at most BBV_FILE_MAX
   bytes; a FIFO or a device is refused at once), NUL-terminated, *len bytes; NULL with
   "PATH: cannot read BBV file: REASON" in err. Read them with fmemopen and the calls below. */
char *bbv_load(const char *path, size_t *len, char *err, size_t errlen);
/* Read the next launch of a binary file (after bbv_read_magic): 1 read, 0 end of file, -1
   malformed (message names the offset and what is wrong). A launch is refused unless its
   kernel name is a PTX name (letters, digits, _ $ % . :), its grid and block dimensions are
   non-zero, its thread count is the grid's CTAs x the block's threads and its counts fit
   BBV_MAX_BYTES; bytes after the last launch that do not make a launch are refused too. */
int  bbv_read_magic(FILE *f, char *err, size_t errlen);
int  bbv_read(FILE *f, struct bbv *b, char *err, size_t errlen);

#endif
