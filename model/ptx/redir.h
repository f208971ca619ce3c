/*
 * redir.h -- reference redirection (001_8bf4399a5d1562fa.txt Section III-A, Fig. 2(a)): the
 * thread in slot p of the grid runs as logical thread D[p].
 *
 * Not a hardware block: a load-time pass over a linked kernel (ptx_link), made with the
 * rewriter (ptx_rewrite.h). A hidden parameter __rg_map (.u64) holds the device address of
 * D[] (u32 per thread, grid order: linear CTA index x threads per CTA + linear thread index).
 * The prologue computes the slot p from %ctaid, %nctaid, %tid and %ntid, loads D[p] -- the
 * extra load the paper says redirection costs, a real ld.global the timing model runs -- and
 * splits it into the logical %ctaid and %tid components, which every later read of %ctaid and
 * %tid takes instead. "Implementation of this mapping option in the code is by inserting
 * additional parameter in the kernel function. Then, during kernel execution, all instances
 * of thread ID in the kernel are replaced by the new ID."
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
#define REDIR_REGS 6   /* registers the host adds to the kernel's count: the logical %tid and
                          %ctaid components live through the body (an assumption: the
                          prologue's other registers are dead before the body's peak) */

/* Transform the linked kernel p in place; *off_map: the hidden parameter's offset. 0, or -1
   with a message (a refusal leaves p unchanged). The caller rebuilds the flow (flow_build). */
int redir_apply(struct ptx_prog *p, int64_t *off_map, char *err, size_t errlen);

#endif
