/*
 * funcsim.h -- functional (untimed) execution of a whole kernel launch.
 *
 * Hardware it stands for: the GPU seen only architecturally -- CTAs run one after another,
 * each CTA's warps round-robin until each reaches a barrier or exits, every warp keeping its
 * own reconvergence stack (the immediate-post-dominator stack of Fung et al., with
 * reconvergence PCs from ptx/flow.c).  No timing: this is the reference the timing model
 * (gpu/gpu.c, which executes each instruction through ex_exec when it issues) must agree with;
 * a launch runs here when the configuration says `model = functional` (the default is
 * `timing`).
 *
 * struct kernel_launch is a launch as both models take it: fsim_run here, gpu_run (gpu/gpu.h,
 * with what the timing model takes from the GPU beside it).
 */
#ifndef FUNCSIM_H
#define FUNCSIM_H
#include <stdint.h>
#include "ptx/flow.h"
#include "base/config.h"
#include "gmem.h"
#include "base/gs_stats.h"
#include "ptx/ptx.h"

struct probe_sink;
struct ex_printf;

struct kernel_launch {
    const struct ptx_prog *prog;
    const struct flow *flow;
    const struct gpu_config *conf;
    struct gmem *gmem;
    const uint8_t *params;
    struct gs_dim3 grid, block;
    uint32_t dyn_smem;
    const struct probe_sink *sink;   /* instruction probe's sink (probe.h; NULL = none) */
    uint32_t vtw_nlog;               /* VTW: logical TBs of the transformed launch (0: off) */
    struct ex_printf *pf;            /* device printf's output (devprintf.h), or NULL */
};

/* Shared memory of one CTA: static variables, then dynamic at a 16-byte aligned base. */
static inline uint32_t fsim_shared_bytes(const struct ptx_prog *p, uint32_t dyn)
{
    return ((p->shared_static + 15u) & ~15u) + dyn;
}

/* Run every CTA of the launch. Adds to *st. Returns 0, or -1 with a message naming kernel,
   PC, CTA and thread (kernel faults, stack overflow, watchdog). */
int fsim_run(const struct kernel_launch *l, struct gs_stats *st, char *err, size_t errlen);

#endif
