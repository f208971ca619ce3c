/*
 * sm_dws.h -- what DWS's wiring (sm_dws.c, the mechanism sm_mech_dws) tells its statistics and
 * reports: the reasons a split chance was refused (base/stats_list.h's split_br_refused and
 * split_mem_refused, by these indices).
 */
#ifndef SM_DWS_H
#define SM_DWS_H
#include "wst.h"

#define SM_DWS_NO_TAG 0xFFu                /* a memory split whose load completed meanwhile */
/* Why a DWS branch-split chance (a divergent conditional branch under a variant that splits on
   branches) was refused, the first that holds in this order: out of the regime, the branch
   fails the short-post-dominator heuristic (dws_pd_max); in the regime, the slot is inside a
   nested region of its own stack; the slot's mflag; another branch split this cycle; the
   over-subdivision rule (dws_oversub: another slot of the SM is active); the table full. */
enum sm_dws_bref { SM_BR_LONG_PD, SM_BR_NESTED, SM_BR_MFLAG, SM_BR_ONE, SM_BR_RULE, SM_BR_FULL,
                   SM_BR_N };
/* Why a memory-split chance was refused: wst's enum wst_mref - 1 (not_own .. full), and
   SM_MR_MOVED: the slot issued in the cycle the chance was offered (its pc moved on). */
enum sm_dws_mref { SM_MR_MOVED = WST_MR_N - 1, SM_MR_N };
extern const char *const sm_dws_bref_names[SM_BR_N];
extern const char *const sm_dws_mref_names[SM_MR_N];

#endif
