/*
 * flow.h -- basic blocks, control-flow graph and immediate post-dominators of a linked kernel.
 *
 * Not a hardware block: the compile-time analysis that gives every conditional branch its
 * reconvergence point (the immediate post-dominator, IPDOM), which the SIMT stack pushes as the
 * reconvergence PC (003_a1f13061b22d54a6.txt Section III: the SSY target; the classic IPDOM
 * stack of Fung et al. as used by GPGPU-Sim).  Exits (exit, and the end of the program) all
 * flow to one virtual exit node whose PC is prog->ninsns.
 */
#ifndef FLOW_H
#define FLOW_H
#include <stdint.h>
#include "ptx.h"

struct flow_block {
    uint32_t first, last;      /* instruction range [first, last] */
    uint32_t succ[2];          /* successor block ids; nsucc of them (exit node = nblocks) */
    uint8_t  nsucc;
    uint32_t ipdom;            /* immediate post-dominator block id (nblocks = exit node) */
};

struct flow {
    struct flow_block *blocks;  uint32_t nblocks;
    uint32_t *block_of;        /* instruction index -> block id (ninsns entries) */
    uint32_t *reconv;          /* instruction index -> reconvergence PC for a conditional bra
                                  (first insn of the IPDOM block; ninsns = exit); UINT32_MAX for
                                  every other instruction */
    uint32_t ninsns;
};

/* Build the CFG and post-dominators. Returns 0, or -1 with a message (e.g. a branch to a
   target outside the program). */
int  flow_build(const struct ptx_prog *prog, struct flow *c, char *err, size_t errlen);
void flow_free(struct flow *c);

#endif
