/*
 * stats_list.h -- every statistic of a launch, listed once.
 *
 * Not a hardware block: the list from which the statistics code is generated. The API's
 * structs (struct gs_stats and struct gs_timing in base/gs_stats.h, which gpu/gpusim.h
 * includes), the per-SM counters (struct sm_stats in sm/sm.h), the merging of launches into a
 * total and of SMs into the GPU, the JSON output and the text table (gpu/stats.c) are all
 * expansions of GS_STAT_LIST, so a new counter is one line here plus the line that counts it.
 * Order = JSON order = text order.
 *
 * GS_STAT_LIST(C, D) calls C for every counter and D for every derived figure:
 *
 * C(scope, type, name, dim, merge, out, json, text)
 *   scope  G  member of struct gs_stats, counted for the whole GPU
 *          T  member of struct gs_timing (gs_stats.t): timing model only; written (JSON and
 *             text) only when cycles != 0
 *          S  as T, and a member of struct sm_stats of the same name: every SM counts its own,
 *             the GPU value is the merge over SMs at the end of the launch
 *          I  one value per SM: struct sm_stats holds the scalar `name`, struct gs_timing the
 *             array sm_<name>[GS_MAX_SMS] whose element i is SM i's (written for nsms SMs)
 *   type   u64, u32 or f64
 *   dim    S scalar, or A(n) array of n
 *   merge  how two values combine (launches into a total; SMs into the GPU for scope S):
 *          SUM add; MAX the larger; GEOM the launch geometry: every GEOM field is taken from
 *          the launch with the most CTAs (grid cells; the earlier one on a tie)
 *   out    NUM a number (u64/u32 as integers, f64 as %.6f); ARR [a, b, ...]; PERSM the I
 *          array, nsms elements; OBJ(names) {"name": v, ...}; ENUM(fn) "fn(value)"
 *   json   the key in the JSON object, or NULL: text only (an input of derived figures)
 *   text   the label in the text table (at most 28 characters)
 *
 * D(when, id, kind, json, text, expr)   a figure computed from counters when written
 *   when   G always, T only when cycles != 0
 *   kind   RATIO (JSON %.6f, text %.3f); PCT (JSON the ratio %.6f, text a percentage);
 *          RATE (text only, %.0f)
 *   json   the key, or NULL: text only
 *   expr   the value, in terms of s (const struct gs_stats *)
 *
 * Divergence per TB (000_0da6b8b480bd0740.txt, Table 1): TBs whose instruction (cycle)
 * divergence -- max minus min over its warps, relative to the min -- exceeds 50, 25, 10 and
 * 5 %. DWR and DWS (its Section 3): sums over the first N - R finishing TBs (dwr_tbs); over
 * every TB when the launch's N TBs fit the GPU at once (N <= R, where 000 defines none).
 * Scheduler cycles by outcome (GS_STALL_KINDS, names in gpu/stats.c): issued, no warp, I-buffer
 * empty, short-latency dependence, long-latency memory dependence, structural/pipeline,
 * barrier, SIMT stack (spill/fill/pop).
 * DWS's split chances (docs/dws.md): a branch-split chance is a divergent conditional branch
 * issued under a variant that splits on branches, a memory-split chance a partial load
 * completion whose completed lanes include an L1 hit and are some but not all of the issuing
 * slot's active lanes; each is split or refused for the first reason that holds (sm/sm_dws.h
 * sm_dws_bref, sm_dws_mref): chances = splits + the refusals.
 *
 * VTW's progress-aware scheduler (sched_policy = vtw; sm/sm_vtw.c vtw_count), per issue: the
 * Algorithm 1 class of the warp issued (barrier, diffiter_low, sameiter, diffiter_high; slow:
 * the slow phase's single class); with more than one ready warp on the scheduler, the field of
 * the key that set Algorithm 1's pick apart from the oldest ready warp (vtw_keys = zero's
 * pick): class, tb_rank, warp_rank, or oldest (the pick is the oldest); alone: one ready warp;
 * and per phase, of the issues with more than one ready warp, those where that pick is not
 * GTO's (the warp this scheduler issued last, if ready, else the oldest) and not the oldest.
 * host_sm_cycles_asleep: SM cycles credited instead of evaluated (time_skip, sm/sm_sleep.c) --
 * the simulator's bookkeeping, not the modelled GPU's: it differs with time_skip and skip_idle,
 * which change no other figure, and is the same in two identical runs.
 */
#ifndef GS_STATS_LIST_H
#define GS_STATS_LIST_H

#define GS_STAT_LIST(C, D) \
  C(G, u64, launches,           S, SUM, NUM, "launches",           "launches") \
  C(G, u64, ctas,               S, SUM, NUM, "ctas",               "CTAs") \
  C(G, u64, cycles,             S, SUM, NUM, "cycles",             "cycles (0: functional)") \
  C(G, u64, warp_insns,         S, SUM, NUM, "warp_insns",         "warp instructions") \
  C(G, u64, thread_insns,       S, SUM, NUM, "thread_insns",       "thread instructions") \
  C(G, u64, branches,           S, SUM, NUM, "branches",           "conditional branches") \
  C(G, u64, divergent_branches, S, SUM, NUM, "divergent_branches", "divergent branches") \
  C(G, u64, mem_insns,          S, SUM, NUM, "mem_insns",          "memory instructions") \
  C(G, u64, atomics,            S, SUM, NUM, "atomics",            "atomic instructions") \
  C(G, u64, barriers,           S, SUM, NUM, "barriers",           "barriers (warp arrivals)") \
  C(G, u64, max_stack_depth,    S, MAX, NUM, "max_stack_depth",    "max reconvergence depth") \
  C(G, u64, tb_inst_div,  A(4), SUM, ARR, "tb_inst_div_over_50_25_10_5",  "TBs inst div >50/25/10/5%") \
  C(G, u64, tb_cycle_div, A(4), SUM, ARR, "tb_cycle_div_over_50_25_10_5", "TBs cycle div >50/25/10/5%") \
  C(G, u32, grid,             A(3), GEOM, ARR, "grid",              "grid (launch, most CTAs)") \
  C(G, u32, block,            A(3), GEOM, ARR, "block",             "block") \
  C(G, u32, regs_per_thread,  S,    GEOM, NUM, "regs_per_thread",   "registers per thread") \
  C(G, u32, regs_source,      S,    GEOM, ENUM(gs_regs_source_name), "regs_source", "registers from") \
  C(G, u32, regs_compiler,    S,    GEOM, NUM, "regs_compiler",     "registers, compiler") \
  C(G, u32, regs_estimate,    S,    GEOM, NUM, "regs_estimate",     "registers, liveness estimate") \
  C(G, u32, shared_per_cta,   S,    GEOM, NUM, "shared_per_cta",    "shared memory per CTA (B)") \
  C(G, u32, local_per_thread, S,    GEOM, NUM, "local_per_thread",  "local memory per thread (B)") \
  C(G, u32, occupancy,        S,    GEOM, NUM, "occupancy_ctas_per_sm", "occupancy (CTAs per SM)") \
  C(G, u32, occupancy_limit,  S,    GEOM, ENUM(gs_limit_name), "occupancy_limit", "occupancy bound by") \
  C(G, u32, vtw_ctas,         S,    GEOM, NUM, "vtw_virtual_tbs",   "VTW virtual TBs") \
  C(G, u32, regs_original,    S,    GEOM, NUM, "regs_original",     "VTW registers before") \
  C(G, u32, occupancy_original, S,  GEOM, NUM, "occupancy_original", "VTW occupancy before") \
  C(G, u32, vt_active_limit,  S,    GEOM, NUM, "vt_active_limit",   "VT active CTAs at most") \
  C(G, u32, vt_ctx_bits,      S,    GEOM, NUM, "vt_ctx_bits",       "VT context bits per CTA") \
  C(G, u32, vt_swap_beats,    S,    GEOM, NUM, "vt_swap_beats",     "VT port beats per context") \
  D(T, warp_ipc,   RATIO, "warp_ipc",   "warp-IPC (warp insns/cycle)", gs_ratio(s->warp_insns, s->cycles)) \
  D(T, thread_ipc, RATIO, "thread_ipc", "thread-IPC",                  gs_ratio(s->thread_insns, s->cycles)) \
  C(S, u64, sched_cycles, A(GS_STALL_KINDS), SUM, OBJ(gs_stall_names), "scheduler_cycles", "scheduler cycles") \
  C(S, u64, l1_hits,        S, SUM, NUM, "l1_hits",              "L1D hits") \
  C(S, u64, l1_misses,      S, SUM, NUM, "l1_misses",            "L1D misses") \
  C(S, u64, l1_merges,      S, SUM, NUM, "l1_merges",            "L1D MSHR merges") \
  C(S, u64, l1_mshr_stalls, S, SUM, NUM, "l1_mshr_stalls",       "L1D MSHR-full stalls") \
  C(S, u64, l1_rsrv_fails,  S, SUM, NUM, "l1_reservation_fails", "L1D reservation fails") \
  D(T, l1_hit_rate, PCT, NULL, "L1D hit rate", gs_ratio(s->t.l1_hits, s->t.l1_hits + s->t.l1_misses)) \
  C(S, u64, icache_hits,    S, SUM, NUM, "icache_hits",          "I-cache hits") \
  C(S, u64, icache_misses,  S, SUM, NUM, "icache_misses",        "I-cache misses") \
  C(T, u64, l2_accesses,    S, SUM, NUM, "l2_accesses",          "L2 accesses") \
  C(T, u64, l2_hits,        S, SUM, NUM, "l2_hits",              "L2 hits") \
  C(T, u64, l2_misses,      S, SUM, NUM, "l2_misses",            "L2 misses") \
  C(T, u64, l2_merges,      S, SUM, NUM, "l2_merges",            "L2 MSHR merges") \
  C(T, u64, l2_writebacks,  S, SUM, NUM, "l2_writebacks",        "L2 writebacks") \
  D(T, l2_hit_rate, PCT, NULL, "L2 hit rate", gs_ratio(s->t.l2_hits, s->t.l2_hits + s->t.l2_misses)) \
  C(T, u64, dram_reads,      S, SUM, NUM, "dram_reads",          "DRAM reads") \
  C(T, u64, dram_writes,     S, SUM, NUM, "dram_writes",         "DRAM writes") \
  C(T, u64, dram_row_hits,   S, SUM, NUM, "dram_row_hits",       "DRAM row hits") \
  C(T, u64, dram_row_misses, S, SUM, NUM, "dram_row_misses",     "DRAM row misses") \
  C(T, u64, dram_bytes,      S, SUM, NUM, "dram_bytes",          "DRAM bytes") \
  D(T, dram_row_hit_rate, PCT, "dram_row_hit_rate", "DRAM row-hit rate", \
    gs_ratio(s->t.dram_row_hits, s->t.dram_row_hits + s->t.dram_row_misses)) \
  D(T, dram_bytes_per_cycle, RATIO, "dram_bytes_per_cycle", "DRAM bytes per cycle", \
    gs_ratio(s->t.dram_bytes, s->cycles)) \
  D(T, dram_bus_utilization, PCT, "dram_bus_utilization", "DRAM data-bus utilization", \
    gs_ratio(s->t.dram_busy_cycles, s->cycles * (s->t.dram_channels ? s->t.dram_channels : 1))) \
  C(T, u64, dram_busy_cycles, S, SUM, NUM, NULL,                 "DRAM bus busy (chan-cycles)") \
  C(T, u32, dram_channels,    S, MAX, NUM, NULL,                 "DRAM channels") \
  C(S, u64, simt_pushes,      S, SUM, NUM, "simt_pushes",        "SIMT stack pushes") \
  C(S, u64, simt_pops,        S, SUM, NUM, "simt_pops",          "SIMT stack pops") \
  C(S, u64, simt_spills,      S, SUM, NUM, "simt_spills",        "SIMT stack spills") \
  C(S, u64, simt_fills,       S, SUM, NUM, "simt_fills",         "SIMT stack fills") \
  C(S, u64, simt_max_depth,   S, MAX, NUM, "simt_max_depth",     "SIMT stack max depth") \
  C(S, u64, warp_cycles_max,  S, MAX, NUM, "warp_cycles_max",    "longest warp (cycles)") \
  C(S, u64, shared_conflict_cycles, S, SUM, NUM, "shared_bank_conflict_cycles", "shared bank conflict cycles") \
  C(T, u64, ldst_partials,    S, SUM, NUM, NULL,                 "LD/ST partial completions") \
  C(T, u64, ldst_partials_mixed, S, SUM, NUM, NULL,              "  ... with hit lanes ahead") \
  C(T, u64, dwr_tbs,          S, SUM, NUM, "dwr_tbs",            "TBs in DWR / DWS") \
  C(T, f64, dwr_sum,          S, SUM, NUM, NULL,                 "DWR sum over those TBs") \
  C(T, f64, dws_sum,          S, SUM, NUM, NULL,                 "DWS sum over those TBs") \
  D(T, dwr, RATIO, "dwr", "DWR", gs_fratio(s->t.dwr_sum, s->t.dwr_tbs)) \
  D(T, dws, RATIO, "dws", "DWS", gs_fratio(s->t.dws_sum, s->t.dwr_tbs)) \
  C(S, u64, vtw_issue_class, A(GS_VTW_CLASSES), SUM, OBJ(gs_vtw_class_names), "vtw_issue_class", "VTW issues by class") \
  C(S, u64, vtw_decided_by, A(GS_VTW_DECIDE), SUM, OBJ(gs_vtw_decide_names), "vtw_decided_by", "VTW pick decided by") \
  C(S, u64, vtw_fast_contested, S, SUM, NUM, "vtw_fast_contested", "VTW fast phase, >1 ready") \
  C(S, u64, vtw_fast_not_gto,   S, SUM, NUM, "vtw_fast_not_gto",   "  ... pick not GTO's") \
  C(S, u64, vtw_fast_not_oldest, S, SUM, NUM, "vtw_fast_not_oldest", "  ... pick not the oldest") \
  C(S, u64, vtw_slow_contested, S, SUM, NUM, "vtw_slow_contested", "VTW slow phase, >1 ready") \
  C(S, u64, vtw_slow_not_gto,   S, SUM, NUM, "vtw_slow_not_gto",   "  ... pick not GTO's") \
  C(S, u64, vtw_slow_not_oldest, S, SUM, NUM, "vtw_slow_not_oldest", "  ... pick not the oldest") \
  C(S, u64, vt_swaps,         S, SUM, NUM, "vt_swaps",           "VT swaps (one out, one in)") \
  C(S, u64, vt_fills,         S, SUM, NUM, "vt_fills",           "VT fills (inactive CTA in)") \
  C(S, u64, vt_first_runs,    S, SUM, NUM, "vt_first_runs",      "VT never-run CTAs activated") \
  C(S, u64, vt_swap_cycles,   S, SUM, NUM, "vt_swap_cycles",     "VT cycles swapping") \
  C(S, u64, vt_ctx_beats,     S, SUM, NUM, "vt_ctx_beats",       "VT context port beats") \
  C(S, u64, vt_ctx_wait_cycles, S, SUM, NUM, "vt_ctx_wait_cycles", "VT beats held by demand") \
  C(S, u64, vt_stale_writebacks, S, SUM, NUM, "vt_stale_writebacks", "VT writebacks of inactive") \
  C(S, u64, vt_active_ctas_max,   S, MAX, NUM, "vt_active_ctas_max",   "VT active CTAs, max") \
  C(S, u64, vt_inactive_ctas_max, S, MAX, NUM, "vt_inactive_ctas_max", "VT inactive CTAs, max") \
  C(S, u64, vt_active_sum,    S, SUM, NUM, NULL,                 "active CTAs x cycles") \
  C(S, u64, vt_inactive_sum,  S, SUM, NUM, NULL,                 "inactive CTAs x cycles") \
  C(S, u64, rf_alloc_sum,     S, SUM, NUM, NULL,                 "registers allocated x cycles") \
  C(S, u64, smem_alloc_sum,   S, SUM, NUM, NULL,                 "shared bytes alloc x cycles") \
  C(S, u64, smem_ctx_sum,     S, SUM, NUM, NULL,                 "  ... of it VT contexts") \
  C(S, u64, ldq_moved,        S, SUM, NUM, "ldq_moved",          "VT loads moved inactive") \
  C(S, u64, ldq_nomove,       S, SUM, NUM, "ldq_nomove",         "VT loads left (queue full)") \
  C(S, u64, ldq_inactive_max, S, MAX, NUM, "ldq_inactive_max",   "inactive load queue, max") \
  C(S, u64, ldq_inactive_sum, S, SUM, NUM, NULL,                 "inactive loads x cycles") \
  C(S, u64, ldq_active_sum,   S, SUM, NUM, NULL,                 "active loads x cycles") \
  C(S, u64, l1_mshr_busy_sum, S, SUM, NUM, NULL,                 "L1D MSHRs in use x cycles") \
  C(S, u64, split_branch,     S, SUM, NUM, "split_branch",       "DWS splits on a branch") \
  C(S, u64, split_mem,        S, SUM, NUM, "split_mem",          "DWS splits on a hit mask") \
  C(S, u64, split_merge_pc,   S, SUM, NUM, "split_merge_pc",     "DWS merges by pc") \
  C(S, u64, split_merge_rpc,  S, SUM, NUM, "split_merge_rpc",    "DWS merges at the stack PD") \
  C(S, u64, split_runahead_lanes, S, SUM, NUM, "split_runahead_lanes", "DWS lanes run ahead") \
  C(S, u64, split_mixed_accesses, S, SUM, NUM, "split_mixed_accesses", "DWS hit/miss-mix completions") \
  C(S, u64, split_br_cand,    S, SUM, NUM, "split_branch_candidates", "DWS branch-split chances") \
  C(S, u64, split_br_refused, A(GS_DWS_BREF), SUM, OBJ(gs_dws_bref_names), "split_branch_refused", "DWS branch splits refused") \
  C(S, u64, split_mem_cand,   S, SUM, NUM, "split_mem_candidates", "DWS memory-split chances") \
  C(S, u64, split_mem_refused, A(GS_DWS_MREF), SUM, OBJ(gs_dws_mref_names), "split_mem_refused", "DWS memory splits refused") \
  C(S, u64, wst_occ_max,      S, MAX, NUM, "wst_occupancy_max",  "WST entries used, max") \
  C(S, u64, wst_occ_sum,      S, SUM, NUM, NULL,                 "WST entries x cycles") \
  C(S, u64, wst_full_cycles,  S, SUM, NUM, "wst_full_cycles",    "WST full (SM-cycles)") \
  C(T, u32, sm_mshrs,         S, MAX, NUM, NULL,                 "L1D MSHRs per SM") \
  C(T, u32, sm_regs,          S, MAX, NUM, NULL,                 "registers per SM") \
  C(T, u32, sm_shared,        S, MAX, NUM, NULL,                 "shared bytes per SM") \
  D(T, vt_active_ctas_mean, RATIO, "vt_active_ctas_mean", "VT active CTAs, mean", \
    gs_ratio(s->t.vt_active_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1))) \
  D(T, vt_inactive_ctas_mean, RATIO, "vt_inactive_ctas_mean", "VT inactive CTAs, mean", \
    gs_ratio(s->t.vt_inactive_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1))) \
  D(T, rf_utilization, PCT, "rf_utilization", "register file allocated", \
    gs_ratio(s->t.rf_alloc_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1) * (uint64_t)s->t.sm_regs)) \
  D(T, smem_utilization, PCT, "smem_utilization", "shared memory allocated", \
    gs_ratio(s->t.smem_alloc_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1) * (uint64_t)s->t.sm_shared)) \
  D(T, ldq_active_mean, RATIO, "ldq_active_mean", "load queue, mean", \
    gs_ratio(s->t.ldq_active_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1))) \
  D(T, ldq_inactive_mean, RATIO, "ldq_inactive_mean", "inactive load queue, mean", \
    gs_ratio(s->t.ldq_inactive_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1))) \
  D(T, l1_mshr_utilization, PCT, "l1_mshr_utilization", "L1D MSHRs in use", \
    gs_ratio(s->t.l1_mshr_busy_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1) * (uint64_t)s->t.sm_mshrs)) \
  D(T, wst_occupancy_mean, RATIO, "wst_occupancy_mean", "WST entries used, mean", \
    gs_ratio(s->t.wst_occ_sum, s->cycles * (s->t.nsms ? s->t.nsms : 1))) \
  D(T, l1_miss_rate, PCT, "l1_miss_rate", "L1D miss rate", \
    gs_ratio(s->t.l1_misses, s->t.l1_hits + s->t.l1_misses)) \
  C(T, u32, nsms,             S, MAX, NUM, NULL,                 "SMs") \
  C(I, u64, warp_insns,       S, SUM, PERSM, "sm_warp_insns",    "warp instructions per SM") \
  C(I, u64, busy_cycles,      S, SUM, PERSM, "sm_busy_cycles",   "busy cycles per SM (CTA in)") \
  D(G, lane_utilization, PCT, "lane_utilization", "SIMD lane utilization", gs_lane_utilization(s)) \
  C(G, u64, lane_util, A(GS_UTIL_BINS), SUM, ARR, "lane_util_histogram", "warp insns by active lanes") \
  C(G, f64, host_seconds,     S, SUM, NUM, "host_seconds",       "host seconds (in launches)") \
  C(T, u64, sm_cycles_asleep, S, SUM, NUM, "host_sm_cycles_asleep", "SM cycles asleep (time_skip)") \
  D(G, warp_insns_per_s, RATE, NULL, "sim speed, warp insns/s", \
    s->host_seconds > 0 ? (double)s->warp_insns / s->host_seconds : 0.0) \
  D(T, cycles_per_s, RATE, NULL, "sim speed, cycles/s", \
    s->host_seconds > 0 ? (double)s->cycles / s->host_seconds : 0.0)

/* ---- expansions: struct members. Each column is pasted where it is first used, so that a
   column value is never taken for a macro of the same name. */
#define GS_TYPE_u64 uint64_t
#define GS_TYPE_u32 uint32_t
#define GS_TYPE_f64 double
#define GS_DIM_S
#define GS_DIM_A(n) [n]
#define GS_NONE(...)

/* struct gs_stats: scope G */
#define GS_MEMBER_GPU(sc, ty, f, dim, ...) GS_MG_##sc(GS_TYPE_##ty, f, GS_DIM_##dim)
#define GS_MG_G(type, f, dim) type f dim;
#define GS_MG_T(type, f, dim)
#define GS_MG_S(type, f, dim)
#define GS_MG_I(type, f, dim)
/* struct gs_timing: scopes T, S and I */
#define GS_MEMBER_TIMING(sc, ty, f, dim, ...) GS_MT_##sc(GS_TYPE_##ty, f, GS_DIM_##dim)
#define GS_MT_G(type, f, dim)
#define GS_MT_T(type, f, dim) type f dim;
#define GS_MT_S(type, f, dim) type f dim;
#define GS_MT_I(type, f, dim) type sm_##f[GS_MAX_SMS];
/* struct sm_stats: scopes S and I */
#define GS_MEMBER_SM(sc, ty, f, dim, ...) GS_MS_##sc(GS_TYPE_##ty, f, GS_DIM_##dim)
#define GS_MS_G(type, f, dim)
#define GS_MS_T(type, f, dim)
#define GS_MS_S(type, f, dim) type f dim;
#define GS_MS_I(type, f, dim) type f;

#define GS_GPU_MEMBERS    GS_STAT_LIST(GS_MEMBER_GPU, GS_NONE)
#define GS_TIMING_MEMBERS GS_STAT_LIST(GS_MEMBER_TIMING, GS_NONE)
#define GS_SM_MEMBERS     GS_STAT_LIST(GS_MEMBER_SM, GS_NONE)

#endif
