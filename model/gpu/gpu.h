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
 * (fsim_launch.ms_keep) and reset where the launches before touched it.
 * A run in which nothing issues for watchdog_cycles stops with a dump of every warp.
 */
#ifndef GPU_TOP_H
#define GPU_TOP_H
#include "func/funcsim.h"

/* 0, or -1 with the message in err (cut to errlen). whole (NULL: not wanted) receives a
   message that may not fit, whole and malloc'd for the caller to free -- the watchdog's,
   with its dump of every warp -- and is left NULL otherwise. */
int gpu_run(const struct fsim_launch *l, struct gs_stats *st, char *err, size_t errlen,
            char **whole);

#endif
