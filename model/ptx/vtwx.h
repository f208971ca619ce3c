/*
 * vtwx.h -- the VTW transform: a kernel run by virtual TBs and warps in a wrapper while loop
 * (000_0da6b8b480bd0740.txt Sections 4.1-4.4).
 *
 * Not a hardware block: a load-time pass over a linked kernel (ptx_link), made with the
 * rewriter (ptx_rewrite.h).  The result, for a launch of NumVirtualTBs CTAs of the original
 * block shape:
 *
 *   prologue   the hidden parameters in registers; hw form: the linear thread index %vtw_tid
 *              from %tid and %ntid; the loop-invariant code hoisted out of the loop (Sec. 4.3.1);
 *              sw form: %vtw_tb = %ctaid.x (the launch is 1-D)
 *   H          hw form: nexttbid.u32 %vtw_tb (the next logical TB, Sec. 4.2.1); both: exit when
 *              %vtw_tb >= the number of logical TBs; hw form: nextidxinblk.u32 %vtw_tid,
 *              %vtw_tid (Sec. 4.2.2) and the %tid components the body reads; sw form, if the
 *              kernel uses shared memory: bar.sync 0 (Sec. 4.4); both: the %ctaid components
 *              the body reads, from %vtw_tb (x fastest, as the CTA dispatcher numbers CTAs)
 *   body       the original code: %ctaid (hw form: also %tid) read from the virtual registers,
 *              %nctaid from the hidden parameters (the logical grid), every exit a branch to H
 *              (hw form) or to U (sw form)
 *   U          sw form only: %vtw_tb += NumVirtualTBs (the software _next_TbId); bra H
 *
 * Hidden parameters, appended after the kernel's own (all .u32): __vtw_nctaid_x, _y, _z (the
 * logical grid), __vtw_nlog (x*y*z), and in the sw form __vtw_nvirt (the launch's CTAs).
 * docs/ptx.md "VTW transform".
 */
#ifndef VTWX_H
#define VTWX_H
#include "ptx.h"

enum vtwx_form { VTWX_HW = 1, VTWX_SW = 2 };

#define VTWX_PARAM_NCTAID_X "__vtw_nctaid_x"
#define VTWX_PARAM_NCTAID_Y "__vtw_nctaid_y"
#define VTWX_PARAM_NCTAID_Z "__vtw_nctaid_z"
#define VTWX_PARAM_NLOG     "__vtw_nlog"
#define VTWX_PARAM_NVIRT    "__vtw_nvirt"

struct vtwx_info {
    int64_t  off_nctaid[3];   /* parameter offsets (u32) of the logical grid's x, y, z */
    int64_t  off_nlog;        /* u32: logical TBs = x*y*z */
    int64_t  off_nvirt;       /* u32, sw form only: NumVirtualTBs (the launch's CTAs); -1 in hw */
    uint32_t hoisted;         /* instructions moved out of the wrapper while loop */
    uint32_t head_pc;         /* pc of the WWL head (hw: the nexttbid) in the result */
    uint32_t orig_ninsns;
    uint32_t regs_before, regs_after;  /* p->regs_per_thread (liveness estimate) before/after */
    uint8_t  uses_shared, uses_bar;    /* the kernel accesses shared memory / has barriers */
};

/* Transform the linked kernel p (from ptx_link) in place. 0, or -1 with a message (p is then
   unchanged unless the rewriter failed half way, which a correct transform never makes it
   do). The caller rebuilds the flow (flow_build) afterwards.  Refused: an unknown form, a
   kernel without exit, one already transformed (nexttbid/nextidxinblk or a __vtw_ parameter),
   and in the hw form a read of %warpid (the hardware may hand a virtual warp another logical
   warp's threads). */
int vtwx_apply(struct ptx_prog *p, enum vtwx_form form, struct vtwx_info *info, char *err,
               size_t errlen);

/* "hw" / "sw" -> the form, anything else 0. */
enum vtwx_form vtwx_form_by_name(const char *name);

/* The first nexttbid / nextidxinblk of p, or -1. They come only from this transform: a kernel
   that already holds them is refused (here, and by the host without VTW). */
int64_t vtwx_ext_pc(const struct ptx_prog *p);

/* The transformed kernel p as PTX that ptxas compiles, for its register count (malloc'd, or
   NULL with a message): the sw form as printed; the hw form with its two instructions replaced
   by stand-ins that use registers the same way -- `nexttbid.u32 d;` by `mov.u32 d, %clock;`
   (a value the compiler cannot know), `nextidxinblk.u32 d, a;` by `mov.u32 d, a;` (SameLane). */
char *vtwx_ptxas_text(const struct ptx_prog *p, char *err, size_t errlen);
/* The record of the transforms' ptxas counts next to a PTX file: FILE.ptx -> FILE.vtw.res. */
void vtwx_res_path(const char *ptx_path, char *out, size_t outlen);

#endif
