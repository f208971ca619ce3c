/*
 * gpu.h -- the timing model of a whole launch: the CTA dispatcher, every SM (sm.c) and the
 * memory system (memsys.c: interconnect, L2 slices, DRAM channels), ticked together.
 *
 * Each cycle: the dispatcher may hand one CTA to an SM; every SM runs one cycle with the
 * interconnect's response of the previous cycle and offers one request; the memory system
 * runs one cycle. The run ends when every CTA has finished and nothing is in flight. An SM
 * with nothing resident and nothing in flight is not evaluated (skip_idle: its scheduler
 * cycles are counted as "no warp", statistics identical to ticking it; tested), nor set up
 * before its first CTA. When every SM is idle and no CTA is left, the GPU jumps to the
 * memory system's next event (time_skip; statistics identical, tested); an SM with warps
 * resident is ticked every cycle unless all of them wait, when it sleeps until its next
 * event (time_skip, sm/sm_sleep.c). The memory system is kept from launch to launch
 * (gpu_env.ms_keep) and reset where the launches before touched it.
 * A run in which nothing issues for watchdog_cycles stops with a dump of every warp.
 */
#ifndef GPU_TOP_H
#define GPU_TOP_H
#include "func/funcsim.h"

struct sm_rec;
struct l2copy;
struct msys;

/* What the timing model takes from the GPU beside the launch (func/funcsim.h): the state that
   outlives a launch, and a block's recording. */
struct gpu_env {
    struct sm_rec *rec;              /* record a block of SM 0 (sm/sm.h; NULL = off) */
    const struct l2copy *l2_copied;  /* lines copies left in L2 (mem/l2copy.h; NULL = cold L2) */
    struct msys **ms_keep;           /* the memory system kept from launch to launch (reset in
                                        proportion to use), or NULL */
};

/* Run launch l; env NULL: no recording, a cold L2, a memory system of its own. 0, or -1 with
   the message in err (cut to errlen). whole (NULL: not wanted) receives a message that may
   not fit, whole and malloc'd for the caller to free -- the watchdog's, with its dump of every
   warp -- and is left NULL otherwise. */
int gpu_run(const struct kernel_launch *l, const struct gpu_env *env, struct gs_stats *st,
            char *err, size_t errlen, char **whole);

#endif
