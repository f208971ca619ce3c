/*
 * gs_stats.h -- the statistics of a launch (struct gs_stats) and a launch's shape (struct
 * gs_dim3): the host API's types (gpu/gpusim.h includes this header) that the layers below the
 * GPU top count in and take, the functional runner and the probe (func/) as much as the timing
 * SM (sm/).
 *
 * Not a hardware block. Every statistics field is one line of stats_list.h; the sizes its
 * arrays take are defined here. gs_count_divergence is the divergence binning every model's
 * per-TB figures use (gs_stats.c).
 *
 * The public header gpu/gpusim.h keeps its own text of these types (a host program's
 * declarations are never moved): the same text under the same guards (GS_DIM3_DEFINED,
 * GS_STATS_DEFINED), so whichever of the two headers comes first defines them, and
 * gs_stats_layout_base lets test_stats check that the two texts give one layout.
 */
#ifndef BASE_GS_STATS_H
#define BASE_GS_STATS_H
#include <stddef.h>
#include <stdint.h>

#ifndef GS_DIM3_DEFINED
#define GS_DIM3_DEFINED
struct gs_dim3 { uint32_t x, y, z; };
#endif

#ifndef GS_STATS_DEFINED
#define GS_STATS_DEFINED
/* Statistics: every field is one line of stats_list.h, which says what it counts, how
   launches (and SMs) combine and how it is written. */
#define GS_STALL_KINDS 8      /* scheduler cycles by outcome (names: stats_list.h) */
#define GS_VTW_CLASSES 5      /* VTW issues by Algorithm 1 class (stats_list.h) */
#define GS_VTW_DECIDE  5      /* VTW picks by what decided them (stats_list.h) */
#define GS_MAX_SMS 64
#define GS_UTIL_BINS 33       /* lane-utilization histogram: active lanes 0..32 */
#define GS_DWS_BREF 6         /* DWS: refused branch-split candidates by reason (sm/sm_dws.h) */
#define GS_DWS_MREF 7         /* DWS: refused memory-split candidates by reason (sm/sm_dws.h) */
#include "stats_list.h"

/* Timing-model statistics (zero in functional mode): the T, S and I entries of the list. */
struct gs_timing {
    GS_TIMING_MEMBERS
};

/* Statistics of one launch (gs_kernel_stats) or summed over launches (gs_total_stats): the G
   entries of the list, then the timing ones. host_seconds is the only field that differs
   between two identical runs. */
struct gs_stats {
    GS_GPU_MEMBERS
    struct gs_timing t;
};
#endif

/* Add one TB to divergence bins: (hi - lo) / lo above 50, 25, 10, 5 %. */
void gs_count_divergence(uint64_t lo, uint64_t hi, uint64_t bins[4]);
/* The layout of this header's text of the types (gs_stats.c includes no other): sizes of
   struct gs_stats, gs_timing and gs_dim3 and the offset of gs_stats.t, for test_stats to
   compare with gpu/gpusim.h's text. */
void gs_stats_layout_base(size_t out[4]);

#endif
