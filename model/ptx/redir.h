/*
 * redir.h -- reference redirection (001_8bf4399a5d1562fa.txt Section III-A, Fig. 2(a)): the
 * thread in slot p of the grid runs as logical thread D[p].
 *
 * Not a hardware block: a load-time pass over a linked kernel (ptx_link), made with the
 * rewriter (ptx_rewrite.h). A hidden parameter __rg_map (.u64) holds the device address of a
 * table with one 16-byte record per thread slot (grid order: linear CTA index x threads per
 * CTA + linear thread index): D[p] already split into its logical components -- word 0 the
 * %tid (x | y << 10 | z << 20), word 1 %ctaid.x, word 2 %ctaid.y | %ctaid.z << 16, word 3
 * unused. The prologue computes the slot p from %ctaid, %nctaid, %tid and %ntid, loads its
 * record with one ld.global.v4 -- the extra load the paper says redirection costs, a real
 * load the timing model runs -- and takes the fields apart; every later read of %ctaid and
 * %tid takes them instead. "Implementation of this mapping option in the code is by inserting
 * additional parameter in the kernel function. Then, during kernel execution, all instances
 * of thread ID in the kernel are replaced by the new ID."
 *
 * The paper's D[] holds one integer (the new thread ID) per thread. Here the host splits it
 * (redir_record) so the kernel does not pay for the divisions: a 32-bit div or rem takes 264
 * cycles on GTX480 (001 Table III), and splitting a linear index into three CTA and three
 * thread components takes six of them. The record is 16 bytes instead of 4; its load is
 * coalesced (slot order).
 *
 * Refused (Section III-B: "in case where the kernel needs synchronization over the formed
 * warps ... thread-data remapping may destroy the synchronization"): shared memory, barriers,
 * warp-level operations (shfl, vote, activemask) and reads of %laneid / %warpid -- a logical
 * thread then runs beside threads of other logical CTAs and warps; a kernel already
 * transformed (by this pass or VTW's). The launch must also have no dynamic shared memory
 * and fewer than 2^32 threads (host.c checks).
 */
#ifndef REDIR_H
#define REDIR_H
#include "ptx.h"

#define REDIR_PARAM "__rg_map"
#define REDIR_RECORD_BYTES 16
#define REDIR_REGS 6   /* registers the host adds to the kernel's count: the logical %tid and
                          %ctaid components live through the body (an assumption: the
                          prologue's other registers are dead before the body's peak) */

/* The record of a slot whose logical thread is l, for a launch of grid g and block b (block
   x, y <= 1024, z <= 64; grid y, z <= 65535, the launch limits). */
void redir_record(uint32_t l, const uint32_t g[3], const uint32_t b[3], uint32_t rec[4]);

/* Transform the linked kernel p in place; *off_map: the hidden parameter's offset. 0, or -1
   with a message (a refusal leaves p unchanged). The caller rebuilds the flow (flow_build). */
int redir_apply(struct ptx_prog *p, int64_t *off_map, char *err, size_t errlen);

#endif
