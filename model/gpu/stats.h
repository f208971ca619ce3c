/*
 * stats.h -- the statistics list (base/stats_list.h) as a table, and what stats.c generates
 * from it: merging launches into a total and SMs into the GPU, the JSON object and the text
 * table; the names of the scheduler-cycle outcomes.
 *
 * Not a hardware block. One row per list entry, in list order: a counter's place in struct
 * gs_stats (and in struct sm_stats for scopes S and I), its type, element count, merge rule
 * and output shape; a derived figure's function.
 */
#ifndef GS_STATS_H
#define GS_STATS_H
#include <stdint.h>
#include "gpusim.h"

enum gs_scope { GSS_G = 0, GSS_T, GSS_S, GSS_I };
enum gs_type  { GST_u64 = 0, GST_u32, GST_f64 };
enum gs_merge { GSM_SUM = 0, GSM_MAX, GSM_GEOM };
enum gs_out   { GSO_NUM = 0, GSO_ARR, GSO_PERSM, GSO_OBJ, GSO_ENUM, GSO_DERIVED };
enum gs_kind  { GSK_RATIO = 0, GSK_PCT, GSK_RATE };

struct gs_stat_desc {
    const char *json;                 /* JSON key; NULL: text only */
    const char *text;                 /* text-table label */
    const char *name;                 /* the list name: field (counters) or figure id */
    uint8_t  scope;                   /* enum gs_scope (derived: G or T, when written) */
    uint8_t  type, merge, out, kind;  /* enum gs_type, gs_merge, gs_out, gs_kind (derived) */
    uint32_t off, n;                  /* counters: byte offset in struct gs_stats, elements */
    int32_t  sm_off;                  /* scopes S and I: byte offset in struct sm_stats; else -1 */
    const char *const *names;         /* OBJ: one name per element */
    const char *(*name_of)(uint64_t); /* ENUM: the value's name */
    double (*value)(const struct gs_stats *);  /* derived figures */
};

extern const struct gs_stat_desc gs_stat_descs[];
extern const uint32_t gs_stat_ndescs;

/* The scheduler-cycle outcomes (scheduler_cycles: GS_STALL_KINDS of them, in list order): the
   SM issue stage's classes (sm/iss.h enum iss_class; stats.c checks that they agree), for the
   layers above the GPU top, and their names as the statistics write them. */
enum gs_stall { GS_STALL_ISSUED = 0, GS_STALL_NO_WARP, GS_STALL_IBUF, GS_STALL_SHORT_DEP,
                GS_STALL_LONG_MEM, GS_STALL_STRUCT, GS_STALL_BARRIER, GS_STALL_STACK };
extern const char *const gs_stall_names[GS_STALL_KINDS];

/* total += launch, entry by entry by its merge rule (GEOM: from the launch with more CTAs). */
void gs_stats_add(struct gs_stats *total, const struct gs_stats *launch);
/* Merge SM sm_index's counters (scopes S and I) into the GPU statistics. */
struct sm_stats;
void gs_stats_add_sm(struct gs_stats *gpu, const struct sm_stats *sm, uint32_t sm_index);

/* A fingerprint of struct gs_stats's layout (its size and every entry's name, offset, type
   and count): two binaries agree on raw statistics bytes when their fingerprints agree (the
   runtime library's GPUSIM_TOTAL file, read back by gpusim report page --apps). */
uint64_t gs_stats_layout(void);

#endif
