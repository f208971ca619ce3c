/*
 * tsim.h -- the timing model of a whole launch: the CTA dispatcher, every SM (sm.c) and the
 * memory system (memsys.c: interconnect, L2 slices, DRAM channels), ticked together.
 *
 * Each cycle: the dispatcher may hand one CTA to an SM; every SM runs one cycle with the
 * interconnect's response of the previous cycle and offers one request; the memory system
 * runs one cycle. The run ends when every CTA has finished and nothing is in flight. When no
 * SM has anything to do before a known future cycle (all warps waiting on memory), time jumps
 * to that cycle (skip_idle); statistics are identical to ticking every cycle (tested).
 * A run in which nothing issues for watchdog_cycles stops with a dump of every warp.
 */
#ifndef TSIM_H
#define TSIM_H
#include "funcsim.h"

/* The memory-system configuration a GPU configuration gives (also used by the cost estimator). */
struct gpu_config;
struct msys_cfg;
void tsim_msys_cfg(const struct gpu_config *c, struct msys_cfg *m);

int tsim_run(const struct fsim_launch *l, struct gs_stats *st, char *err, size_t errlen);

#endif
