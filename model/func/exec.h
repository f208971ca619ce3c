/*
 * exec.h -- functional execution of one warp instruction (the SIMD datapath's semantics).
 *
 * Hardware it stands for: the SP/SFU/DP/LD-ST datapaths of an SM seen functionally: given a
 * warp's registers, its active mask and one decoded instruction, compute every active lane's
 * result and write it back, read/write memory, and report what control flow and memory the
 * instruction did.  It holds no state of its own: everything lives in ex_ctx, owned by the
 * caller: the functional runner (funcsim.c) and the timing model, whose SM executes each
 * instruction functionally when it issues (sm/sm.c).  It does NOT
 * manage the SIMT stack: for a branch it reports the taken mask and the caller decides.
 * Source: PTX ISA semantics (NVIDIA PTX ISA manual); approximations are listed in docs/exec.md.
 */
#ifndef EXEC_H
#define EXEC_H
#include <stdint.h>
#include "ptx/ptx.h"
#include "gmem.h"

#define EX_WARP 32

/* One warp's local memory, reserved as the warp stores to it: lane L's byte `a` lies in
   chunk a / EX_LCHUNK, at chunk + L * lane + a % EX_LCHUNK (lane = the per-lane bytes of a
   chunk: EX_LCHUNK, or the kernel's local size when smaller). A chunk is allocated (zeroed)
   at the first store into it and kept for the warp's next CTA; a load from a chunk never
   stored to reads zeros. So the host memory a launch holds for local memory follows the
   chunks its warps store to, not the local size times the resident threads. */
#define EX_LCHUNK 4096u
struct ex_lmem {
    uint8_t **chunk;           /* [nchunks], NULL until stored to */
    uint32_t  nchunks, lane;
    uint32_t  lo, hi;          /* offsets [lo, hi) stored to since the last clear (hi = 0: none) */
    uint64_t *held;            /* the launch's bytes of local memory allocated (shared) */
};

struct ex_ctx {
    const struct ptx_prog *prog;
    uint64_t *regs;            /* this warp's registers: regs[r * EX_WARP + lane] */
    struct gmem *gmem;         /* global + const memory */
    uint8_t  *smem;            /* the CTA's shared memory */
    uint32_t  smem_size;       /* static + dynamic bytes */
    struct ex_lmem *lmem;      /* this warp's local memory (NULL: none) */
    uint32_t  lmem_size;       /* bytes of local memory per thread (prog->local_size) */
    uint8_t  *pscratch;        /* this warp's param scratch: lane L at pscratch + L * pscratch_stride */
    uint32_t  pscratch_stride;
    const uint8_t *params;     /* kernel parameter buffer (prog->param_size bytes) */
    /* special registers */
    uint32_t  ntid[3], ctaid[3], nctaid[3];
    uint32_t  tid0;            /* linear thread index (in the CTA) of lane 0 */
    uint32_t  nthreads;        /* threads in the CTA (lanes >= nthreads - tid0 do not exist) */
    uint32_t  warpid, nwarpid, smid, nsmid;
    uint64_t  clock;           /* %clock64 value seen by the instruction */
    struct ex_printf *pf;      /* device printf's output of the launch (devprintf.h); NULL:
                                  printf is formatted and checked, its text discarded */
};

enum ex_kind {
    EX_NORMAL = 0,   /* fall through to pc + 1 */
    EX_BRANCH,       /* bra: res.taken lanes go to res.target, the other active lanes fall through */
    EX_BARRIER,      /* bar.sync/barrier.sync: res.bar_id, res.bar_count (0 = all CTA threads) */
    EX_EXIT,         /* exit: res.exited lanes are done (guarded exit may exit only some) */
    EX_ERROR         /* res.err holds "kernel K: PC n (file:line) CTA (x,y,z) thread (x,y,z): ..." */
};

struct ex_result {
    uint8_t  kind;           /* enum ex_kind */
    uint8_t  space;          /* memory instructions: resolved state space (enum ptx_space) */
    uint8_t  is_store, is_atomic;
    uint32_t exec_mask;      /* lanes that actually executed (active & guard) */
    uint32_t taken;          /* EX_BRANCH: lanes that take the branch */
    uint32_t target;         /* EX_BRANCH: target pc */
    uint32_t exited;         /* EX_EXIT */
    uint32_t bar_id, bar_count;
    uint32_t access_bytes;   /* bytes per lane of a memory access (vec x type size) */
    uint64_t addr[EX_WARP];  /* memory instructions: address per executing lane (state space) */
    char     err[PTX_ERR_LEN];
};

/* Execute instruction `pc` for the lanes in `active`. Never aborts: errors come back as
   EX_ERROR with a message naming kernel, PC, source line, CTA and thread. */
void ex_exec(const struct ex_ctx *ctx, uint32_t pc, uint32_t active, struct ex_result *res);

/* A warp's local memory of `size` bytes per thread, nothing reserved yet; `held` counts the
   bytes its chunks take (shared by the launch's warps). 0, or -1 when out of host memory. */
int  ex_lmem_init(struct ex_lmem *m, uint32_t size, uint64_t *held);
/* Zero what the warp stored to since the last clear: local memory reads as zero for the next
   CTA (the chunks stay reserved). */
void ex_lmem_clear(struct ex_lmem *m);
void ex_lmem_free(struct ex_lmem *m);

#endif
