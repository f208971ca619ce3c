/*
 * redir.h -- reference redirection (001_8bf4399a5d1562fa.txt Section III-A, Fig. 2(a)): the
 * thread in slot p of the grid runs as logical thread D[p].
 *
 * Not a hardware block: a load-time pass over a linked kernel (ptx_link), made with the
 * rewriter (ptx_rewrite.h). A hidden parameter __rg_map (.u64) holds the device address of
 * D[], as in the paper one 4-byte integer per thread slot (REDIR_D_BYTES; grid order: linear
 * CTA index x threads per CTA + linear thread index): the logical thread's linear index l in
 * the same order. The prologue computes the slot p from %ctaid and %tid, loads D[p] -- the
 * extra load the paper says redirection costs, a real load the timing model runs -- and
 * splits l into the logical %ctaid and %tid components in registers; every later read of
 * %ctaid and %tid takes them instead. "Implementation of this mapping option in the code is
 * by inserting additional parameter in the kernel function. Then, during kernel execution,
 * all instances of thread ID in the kernel are replaced by the new ID."
 *
 * The split depends on the launch's shape, so a kernel has nine forms (redir_form), the block
 * part in three and the grid part in three, and the host runs the one its launch needs:
 *   block 1-D, a power of two ("b1"):  linear CTA = l >> log2(ntid.x), %tid.x = l & (ntid.x - 1)
 *   block a power of two ("bp"):       shifts and masks (log2 n as popc(n - 1)) for every part
 *   block otherwise ("bd"):            div.u32 and mul/sub (001 Table III: 264 cycles a div)
 *   grid 1-D ("g1"):                   %ctaid.x = the linear CTA index, .y = .z = 0
 *   grid 2-D ("g2"):                   one div.u32 by %nctaid.x (.z = 0)
 *   grid otherwise ("gn"):             two div.u32, by %nctaid.x and %nctaid.y
 * Only the components the kernel reads are computed. The forms hold no launch constant: a
 * kernel's form is compiled once (ptxas on redir_ptxas_text; its registers in FILE.redir.res,
 * gpusim res) and serves every launch of that shape class.
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
#define REDIR_D_BYTES 4          /* one D[] entry: the logical thread's linear index (u32) */
#define REDIR_NFORMS 9

/* The form a launch of grid g and block b runs: block part (0 b1, 1 bp, 2 bd) x 3 + grid part
   (0 g1, 1 g2, 2 gn). */
unsigned redir_form(const uint32_t g[3], const uint32_t b[3]);
/* "b1g1", "b1g2", "b1gn", "bpg1", ..., "bdgn" (NULL beyond). */
const char *redir_form_name(unsigned form);

/* Transform the linked kernel p in place into `form`; *off_map: the hidden parameter's
   offset. 0, or -1 with a message (a refusal leaves p unchanged). The caller rebuilds the
   flow (flow_build). */
int redir_apply(struct ptx_prog *p, unsigned form, int64_t *off_map, char *err, size_t errlen);

/* The text ptxas compiles for the record of a redirected kernel: the printed program without
   the printer's header comment (malloc'd; NULL with err). */
char *redir_ptxas_text(const struct ptx_prog *p, char *err, size_t errlen);
/* The record of the forms' ptxas counts next to a PTX file: FILE.ptx -> FILE.redir.res. */
void redir_res_path(const char *ptx_path, char *out, size_t outlen);

#endif
