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
 * The binary form (bbv_write, bbv_read) is little-endian: "GSBBV1\n\0", then per launch the
 * kernel name (u32 length + bytes), grid x, y, z and block x, y, z (u32 each), nblocks (u32),
 * each block's first pc (u32), nthreads (u64) and the counts, u32 [nthreads][nblocks]. The
 * CSV form has per launch a comment line and a header `thread,b0@pc,...`, then a row per
 * thread.
 */
#ifndef BBV_H
#define BBV_H
#include <stdint.h>
#include <stdio.h>
#include "gpu/gpusim.h"
#include "func/probe.h"
#include "ptx/flow.h"

#define BBV_MAGIC "GSBBV1\n"          /* 8 bytes with its NUL */
#define BBV_MAX_BYTES (1ull << 31)    /* counts per launch: refused above 2 GiB */

struct bbv {
    char kernel[128];
    struct gs_dim3 grid, block;
    uint32_t nblocks;
    uint32_t *first;                  /* [nblocks] first pc of each block */
    uint64_t nthreads;                /* grid x block threads */
    uint32_t *count;                  /* [nthreads * nblocks] entries, saturating at 2^32-1 */
    const struct flow *flow;          /* while collecting */
    uint32_t tpc;                     /* threads per CTA */
    uint64_t stray;                   /* events naming a thread outside the grid (a bug) */
};

/* Set up b for a launch of kernel (flow f, grid, block): counts zeroed. 0, or -1 with a
   message (too large, out of memory). */
int  bbv_begin(struct bbv *b, const char *kernel, const struct flow *f, struct gs_dim3 grid,
               struct gs_dim3 block, char *err, size_t errlen);
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
/* Read the next launch of a binary file (after bbv_read_magic): 1 read, 0 end of file, -1
   malformed (message names the offset). */
int  bbv_read_magic(FILE *f, char *err, size_t errlen);
int  bbv_read(FILE *f, struct bbv *b, char *err, size_t errlen);

#endif
