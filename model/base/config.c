/*
 * config.c -- the configuration key table, file and override parsing, range and combination
 * checks. Defaults are the GTX480 (Fermi GF100) as in GPGPU-Sim's public gtx480 configuration
 * and Table 3 of 000_0da6b8b480bd0740.txt / Table I of 004_23e173f444f46134.txt.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "infile.h"

#define OFF(f) offsetof(struct gpu_config, f)
_Static_assert(sizeof(((struct gpu_config *)0)->mechs) == sizeof(((struct gpu_config *)0)->name),
               "every CK_STR key holds as many characters as name");

static const struct conf_key keys[] = {
    { "name", CK_STR, OFF(name), 0, 0, "", "Configuration name, shown in reports." },
    { "num_sms", CK_U32, OFF(num_sms), 1, 64, "SMs",
      "Streaming multiprocessors (GTX480: 15)." },
    { "max_warps_per_sm", CK_U32, OFF(max_warps_per_sm), 1, 128, "warps",
      "Resident warps per SM, 32 threads each (GTX480: 48 = 1536 threads); at most 128 (SM_MAX_SLOTS, the width of the SM's slot masks)." },
    { "max_ctas_per_sm", CK_U32, OFF(max_ctas_per_sm), 1, 32, "CTAs",
      "Resident CTAs (thread blocks) per SM (GTX480: 8)." },
    { "regs_per_sm", CK_U32, OFF(regs_per_sm), 1024, 1u << 24, "registers",
      "32-bit registers in an SM's register file (GTX480: 32768)." },
    { "shared_per_sm", CK_U32, OFF(shared_per_sm), 0, 1u << 24, "bytes",
      "Shared memory per SM (GTX480: 48 KB in the 48/16 KB split)." },
    { "max_threads_per_cta", CK_U32, OFF(max_threads_per_cta), 32, 2048, "threads",
      "Largest CTA a launch may ask for (Fermi: 1024)." },
    { "max_shared_per_cta", CK_U32, OFF(max_shared_per_cta), 0, 1u << 24, "bytes",
      "Largest static + dynamic shared memory of one CTA (Fermi: 48 KB)." },
    { "max_regs_per_thread", CK_U32, OFF(max_regs_per_thread), 16, 255, "registers",
      "Register limit per thread (Fermi: 63); a larger compiler count or estimate is lowered to it (the compile would spill; spills are not modelled)." },
    { "reg_alloc_unit", CK_U32, OFF(reg_alloc_unit), 1, 4096, "registers",
      "Registers are allocated per warp in multiples of this (Fermi: 64 per warp)." },
    { "regs_per_thread", CK_U32, OFF(regs_per_thread), 0, 255, "registers",
      "0: registers per thread come from the compiler (regs_source); N: every kernel uses N (what "
      "if the compiler allocated N), at most max_regs_per_thread." },
    { "regs_source", CK_ENUM, OFF(regs_source), 0, 2, "auto|recorded|estimate",
      "Where registers per thread come from when regs_per_thread = 0. auto: the ptxas record next "
      "to the PTX (kernel.res, made by make ptx), else ptxas run at load when installed, else the "
      "liveness estimate; recorded: the record, else the estimate (never runs ptxas); estimate: "
      "the model's liveness estimate (docs/ptx.md)." },
    { "simt_stack_max", CK_U32, OFF(simt_stack_max), 4, 4096, "entries",
      "Functional reconvergence stack entries per warp; exceeding it stops the run." },
    { "dram_bytes", CK_U64, OFF(dram_bytes), 1u << 20, 1ull << 40, "bytes",
      "Device memory capacity (GTX480: 1536 MB)." },
    { "local_bytes_per_thread", CK_U64, OFF(local_bytes_per_thread), 0, 512u * 1024, "bytes",
      "Largest local memory (stack frame) a kernel may use per thread (Fermi: 512 KB)." },
    { "clock_mhz", CK_U32, OFF(clock_mhz), 1, 100000, "MHz",
      "Core clock: converts the model's cycles to time for CUDA programs (cudaEventElapsedTime, "
      "cudaDevAttrClockRate; docs/cuda.md); changes no cycle count (GTX480: 700, GPGPU-Sim's "
      "gtx480 core clock domain, the clock the dram_t* keys are converted at)." },
    { "compute_capability", CK_U32, OFF(compute_capability), 10, 999, "major x 10 + minor",
      "The compute capability the CUDA runtime library reports to a program "
      "(cudaGetDeviceProperties, cudaDeviceGetAttribute); changes nothing in the model "
      "(GTX480: 20, i.e. 2.0)." },
    { "max_warp_insns", CK_U64, OFF(max_warp_insns), 0, ~0ull, "warp instructions",
      "Watchdog: stop a launch that issues more warp instructions than this (0 = no limit)." },
    { "max_warp_age", CK_U64, OFF(max_warp_age), 0, ~0ull, "cycles",
      "Runaway watchdog, timing model: a warp makes progress when lanes of it store (st, red: "
      "a write to memory; not atom, with which spin loops poll), exit or, under "
      "VTW, it begins a logical TB; when the GPU has run this many cycles without any warp "
      "making progress, the launch stops naming the spinning warp (of the unfinished warps, "
      "the one with the most instructions since its own last progress: its CTA, warp, SM, PC "
      "and PTX line). Checked every 1024 cycles. The default is 3.2x the longest such stretch "
      "of any bench kernel at the default size under every mechanism (soundloc, 0.78 M cycles; "
      "docs/timing.md) and stops a lone looping warp after about 1 s of host time; 0 = off." },
    { "max_spin_insns", CK_U64, OFF(max_spin_insns), 0, ~0ull, "warp instructions",
      "Runaway watchdog, both models: the launch stops, as for max_warp_age, when the GPU has "
      "issued this many warp instructions without any warp making progress (a GPU full of "
      "looping warps issues many per cycle: about 4 s of host time at the default). The "
      "default is 3.3x the longest such stretch of any bench kernel at the default size under "
      "every mechanism (smithwat, 2.4 M; docs/timing.md); 0 = off." },
    { "model", CK_ENUM, OFF(model), 0, 1, "functional|timing",
      "functional: architectural execution only (no cycles); timing: the cycle-level model." },
    { "sched_policy", CK_ENUM, OFF(sched_policy), 0, 4, "lrr|gto|twolevel|gto_prio|vtw",
      "Warp scheduler policy (GPGPU-Sim gtx480: gto). gto_prio: the highest-key scheduler fed by the GTO key generator (kgen), the same schedule as gto; the reference for key-generator policies. vtw: VTW's progress-aware scheduler (000 Sec. 4.3.2, key generator pas; needs vtw = hw)." },
    { "vtw", CK_ENUM, OFF(vtw), 0, 2, "off|hw|sw",
      "VTW (000_0da6b8b480bd0740.txt, docs/vtw.md): every kernel runs transformed into virtual TBs and warps (a wrapper while loop; NumVirtualTBs = min(residency, logical TBs) CTAs; under vt = on|max the residency is VT's, active and inactive). hw: the next logical TB and thread indices come from the next-TB-index unit (ntb) and the SM keeps the warps of a virtual TB at most one iteration apart and holds shared-memory access until the previous iteration is left (Sec. 4.2, 4.4); sw: plain PTX (next TB = index + NumVirtualTBs, same thread index, a barrier before the first shared-memory access of each iteration, Sec. 4.1/4.4)." },
    { "vtw_lane", CK_ENUM, OFF(vtw_lane), 0, 2, "same|slowest|lowest",
      "VTW: the next thread index in the block (Sec. 4.2.2): same (SameLane: a warp keeps its index), slowest (SlowestLane: the warp index of the slowest warp of the iteration goes to the first warp to start the next), lowest (LowestToHighestLane). Only with vtw = hw." },
    { "vtw_latency", CK_U32, OFF(vtw_latency), 1, 64, "cycles",
      "VTW: cycles from a nexttbid/nextidxinblk issue to its value in the register (the next-TB-index unit's request and reply; the paper gives none: an assumption, 8)." },
    { "vtw_smem_hold", CK_U32, OFF(vtw_smem_hold), 0, 1, "flag",
      "VTW hw: a warp already in its next iteration may not issue a shared-memory access or a barrier until every sibling has left the previous one (Sec. 4.4). 0 switches the restriction off -- kernels that use shared memory then compute wrong results (tests/test_vtw.c shows it); only for that demonstration." },
    { "vtw_keys", CK_ENUM, OFF(vtw_keys), 0, 1, "alg1|zero",
      "VTW: what the progress-aware scheduler (sched_policy = vtw) orders by: alg1, Algorithm 1's keys (Sec. 4.3.2, key generator pas); zero, every key 0 -- the oldest ready warp issues, with the rest of the hardware form (the next-TB-index unit, the one-iteration hold) unchanged: the ablation of docs/vtw.md and of the effect tests (tests/test_vtw.c), not a policy of the paper. Only with sched_policy = vtw." },
    { "vt", CK_ENUM, OFF(vt), 0, 2, "off|on|max",
      "VT (004_23e173f444f46134.txt, docs/vt.md): on: CTAs are dispatched up to the capacity limit (registers, shared memory minus the context region), at most the scheduling limit's worth active; the Virtual Thread Controller (vtc) swaps a CTA whose warps all wait on long-latency memory for a ready inactive one (Sec. IV). max: the scheduling limit raised to the capacity limit, no swap (Sec. V's MAX, without Mascar). Combines with vtw (VT swaps VTW's virtual TBs), not with dws." },
    { "vt_swap_bits_per_cycle", CK_U32, OFF(vt_swap_bits_per_cycle), 0, 4096, "bits",
      "VT: context bits moved per free shared-memory port cycle (eq. 2; Table I: 512; Fig. 10 sweeps 256, 512, 1024 and ideal). 0 = ideal: no context traffic. Otherwise a power of two, 32 .. 4096. Only with vt = on." },
    { "vt_ldq_inactive", CK_U32, OFF(vt_ldq_inactive), 0, 32, "entries",
      "VT: entries of the inactive load queue (Sec. IV-D, Table I: 30); the loads of a swapped-out CTA move there and are served after every active one. Only with vt = on." },
    { "dws", CK_ENUM, OFF(dws), 0, 5, "off|branch|aggress|lazy|revive|revive_mem",
      "DWS (002_ddcb2f79a6edfee4.txt, docs/dws.md): the parts of a diverged warp run as independent scheduling entities (warp splits) kept in the warp-split table (wst). branch: DWS.BranchOnly (split on branch divergence only); aggress: DWS.AggressSplit (also on every divergent cache access: the lanes that hit run ahead); lazy: DWS.LazySplit (split on a divergent access only when one active entity is left); revive: DWS.ReviveSplit (LazySplit, and suspended splits may be split again); revive_mem: DWS.ReviveSplit.MemOnly (memory divergence only). Timing model only; not with vt or vtw." },
    { "dws_wst_factor", CK_U32, OFF(dws_wst_factor), 1, 8, "x warps",
      "DWS: the warp-split table's entries as a multiple of max_warps_per_sm (slides, backup \"WST Hardware Overhead\": \"limit WST to twice the number of warps\": 2). Each entry is a split slot beside the warps' home slots (a home keeps one part of its split warp: docs/dws.md says how this compares with the slides' table), so the SM schedules warps + entries slots; they are at most 128 (the SM's 7-bit slot index): the table has min(factor x max_warps_per_sm, 128 - max_warps_per_sm) entries (gtx480's 48 warps: 80 at factor 2; configs/dws.cfg's 8: 16), and a factor x max_warps_per_sm above 128 is refused. 1: as many entries as warps (the model before issue 38). Only with dws != off." },
    { "dws_pd_max", CK_U32, OFF(dws_pd_max), 0, 65535, "instructions",
      "DWS: the short-post-dominator heuristic (slides, \"Stack vs PC Reconvergence\"): a divergent branch whose reconvergence point (immediate post-dominator) lies at most this many instructions after it splits the warp in the WST; any other branch uses the reconvergence stack; 0: no branch starts a split (a warp already split still splits on every divergent branch while the table has room). The slides give no value: 64 is an assumption. Only with dws != off." },
    { "dws_oversub", CK_U32, OFF(dws_oversub), 0, 1, "flag",
      "DWS: the over-subdivision rule on branch splits (slides, \"Implementation: Reconvergence Challenges\": \"subdivide only when all available warp-splits are suspended\"): 1 (the slides' default): a divergent branch splits its warp only when no other live slot of the SM is active (every other one waits on long-latency memory or has arrived at its reconvergence point), the rule LazySplit and ReviveSplit apply to memory splits; 0: whenever the table has a free entry (the model before issue 38). Memory splits keep their variant's rule (AggressSplit: every divergent access). Only with dws != off." },
    { "mechs", CK_STR, OFF(mechs), 0, 0, "",
      "Mechanisms added to the SM with sm_mech_register (model/sm/sm_mech.h; docs/adding-a-mechanism.md) to switch on, comma-separated, or none. The built-in ones (vt, dws, vtw) are switched on by their own keys; a name that no registered mechanism has stops the launch with a message." },
    { "schedulers_per_sm", CK_U32, OFF(schedulers_per_sm), 1, 4, "schedulers",
      "Warp schedulers per SM; warp slot w belongs to scheduler w mod n (Fermi: 2)." },
    { "twolevel_active", CK_U32, OFF(twolevel_active), 1, 128, "warps",
      "Two-level scheduler: size of each scheduler's active set (Narasiman et al.: 8)." },
    { "simt_policy", CK_ENUM, OFF(simt_policy), 0, 1, "token|ipdom",
      "SIMT stack: token model of 003_a1f13061b22d54a6.txt (an entry per divergent branch) or "
      "the classic immediate-post-dominator stack (bounded by nesting)." },
    { "simt_depth", CK_U32, OFF(simt_depth), 2, 32, "entries",
      "On-chip SIMT stack entries per warp, at least simt_chunk; deeper stacks spill (003: 16 "
      "on Kepler)." },
    { "simt_chunk", CK_U32, OFF(simt_chunk), 2, 16, "entries",
      "Entries moved to / from memory per spill or fill, a power of two, at most simt_depth; "
      "a chunk (simt_chunk x simt_entry_bytes) is one access within a 128-byte line (003: 4)." },
    { "simt_entry_bytes", CK_U32, OFF(simt_entry_bytes), 4, 8, "bytes",
      "Bytes of one spilled stack entry, 4 or 8 (a power of two: a chunk must divide the "
      "128-byte line; a warp's 1 KB spill image holds 112 entries) (003: a 64-bit token)." },
    { "simt_pop_cycles", CK_U32, OFF(simt_pop_cycles), 0, 200, "cycles",
      "Extra cycles a reconvergence pop holds the warp (unwinding cost, 003 Section IV)." },
    { "simt_fill_cycles", CK_U32, OFF(simt_fill_cycles), 0, 200, "cycles",
      "Extra cycles a fill holds the warp after its memory read returns (restoring a chunk)." },
    { "ibuf_entries", CK_U32, OFF(ibuf_entries), 1, 4, "instructions",
      "Decoded-instruction buffer entries per warp, at most 4 (the fetch block's buffer) "
      "(GPGPU-Sim: 2)." },
    { "icache_sets", CK_U32, OFF(icache_sets), 1, 64, "sets",
      "Instruction cache sets of 128-byte lines, a power of two (GPGPU-Sim gtx480 il1 4:128:4)." },
    { "icache_ways", CK_U32, OFF(icache_ways), 1, 8, "ways",
      "Instruction cache associativity, at most 8 (3-bit LRU ages)." },
    { "decode_cycles", CK_U32, OFF(decode_cycles), 1, 7, "cycles",
      "Fetch-to-I-buffer latency of an I-cache hit, at most 7 (the decode pipe's 8 stages)." },
    { "fetch_width", CK_U32, OFF(fetch_width), 1, 4, "instructions",
      "Consecutive instructions of one warp's I-cache line decoded per fetch, at most "
      "ibuf_entries (GPGPU-Sim: up to 2 per fetch into the 2-entry I-buffer; 1 = the front end "
      "before issue 11)." },
    { "fetch_warps", CK_U32, OFF(fetch_warps), 1, 4, "warps",
      "Fetch ports: warps fetched per cycle, each port with its own I-cache tag read and decode "
      "pipe; slot w uses port w mod n (GPGPU-Sim gtx480: 1, -gpgpu_inst_fetch_throughput; "
      "kepler.cfg: 4, one per scheduler, a modelling choice). Peak: n x fetch_width per cycle." },
    { "lat_alu", CK_U32, OFF(lat_alu), 1, 10000, "cycles",
      "Integer/float add, sub, mul, logic, shift, compare, move, convert (001 Table III: 18)." },
    { "lat_mad", CK_U32, OFF(lat_mad), 1, 10000, "cycles", "mad / fma (001 Table III: 20)." },
    { "lat_minmax", CK_U32, OFF(lat_minmax), 1, 10000, "cycles",
      "min, max, abs, mul24 (001 Table III: 36)." },
    { "lat_idiv", CK_U32, OFF(lat_idiv), 1, 10000, "cycles",
      "Integer div / rem (001 Table III: 264 unsigned, 300 signed)." },
    { "lat_fdiv", CK_U32, OFF(lat_fdiv), 1, 10000, "cycles", "f32 div (001 Table III: 984)." },
    { "lat_dp", CK_U32, OFF(lat_dp), 1, 10000, "cycles", "f64 add, mul, fma (001 Table III: 24)." },
    { "lat_ddiv", CK_U32, OFF(lat_ddiv), 1, 10000, "cycles", "f64 div (001 Table III: 1188)." },
    { "lat_sfu", CK_U32, OFF(lat_sfu), 1, 10000, "cycles",
      "sin, cos, ex2, lg2, rsqrt, tanh (001 Table III: sinf 40, __log2f 70, rsqrt 70)." },
    { "lat_sqrt", CK_U32, OFF(lat_sqrt), 1, 10000, "cycles", "sqrt (001 Table III: 208)." },
    { "lat_rcp", CK_U32, OFF(lat_rcp), 1, 10000, "cycles", "rcp (001 Table III: 228)." },
    { "lat_shared", CK_U32, OFF(lat_shared), 1, 10000, "cycles",
      "Shared-memory load/store without bank conflicts (001 Table III: 44)." },
    { "lat_const", CK_U32, OFF(lat_const), 1, 10000, "cycles",
      "Constant-memory load, always a hit (001 Table III: 46)." },
    { "lat_param", CK_U32, OFF(lat_param), 1, 10000, "cycles",
      "Parameter load (served like constant memory; 001 Table III: 46)." },
    { "ii_sp", CK_U32, OFF(ii_sp), 1, 64, "cycles",
      "SP initiation interval per scheduler (Fermi: 16 lanes at twice the core clock: 1)." },
    { "ii_sfu", CK_U32, OFF(ii_sfu), 1, 64, "cycles",
      "SFU initiation interval (Fermi: 4 SFUs per SM for 32 lanes at the hot clock: 4)." },
    { "sfu_shared", CK_U32, OFF(sfu_shared), 0, 1, "flag",
      "1: the SFU is one pipe for the whole SM, its ii_sfu shared by the schedulers, which take "
      "turns cycle by cycle (Fermi: 4 SFUs per SM serve both schedulers); 0: one per scheduler." },
    { "ii_dp", CK_U32, OFF(ii_dp), 1, 64, "cycles",
      "DP initiation interval (GeForce Fermi: 1/8 of the single-precision rate: 8)." },
    { "ii_mem", CK_U32, OFF(ii_mem), 1, 64, "cycles",
      "LD/ST initiation interval per conflict-free access (16 LD/ST units, hot clock: 1)." },
    { "l1_sets", CK_U32, OFF(l1_sets), 1, 64, "sets",
      "L1 data cache sets of 128-byte lines, a power of two (GTX480: 32 x 4 ways = 16 KB)." },
    { "l1_ways", CK_U32, OFF(l1_ways), 1, 8, "ways", "L1 data cache associativity (GTX480: 4)." },
    { "l1_mshrs", CK_U32, OFF(l1_mshrs), 1, 64, "MSHRs", "L1 miss status holding registers (64)." },
    { "l1_hit_latency", CK_U32, OFF(l1_hit_latency), 1, 1000, "cycles",
      "L1 hit latency (see docs/l1.md for its source)." },
    { "icnt_latency", CK_U32, OFF(icnt_latency), 1, 1000, "cycles",
      "Interconnect traversal latency each way (see docs/memsys.md)." },
    { "dram_channels", CK_U32, OFF(dram_channels), 1, 32, "channels",
      "DRAM channels / memory partitions (GPGPU-Sim gtx480 -gpgpu_n_mem 6)." },
    { "l2_slices_per_channel", CK_U32, OFF(l2_slices_per_channel), 1, 2, "slices",
      "L2 slices per channel (GPGPU-Sim gtx480: 2, so 12 slices)." },
    { "l2_sets", CK_U32, OFF(l2_sets), 1, 256, "sets",
      "L2 sets per slice of 128-byte lines, a power of two (64 x 8 ways x 12 slices = 768 KB)." },
    { "l2_ways", CK_U32, OFF(l2_ways), 1, 16, "ways", "L2 associativity (8)." },
    { "l2_latency", CK_U32, OFF(l2_latency), 0, 10000, "cycles",
      "L2 (ROP) pipeline latency (GPGPU-Sim gtx480 -gpgpu_l2_rop_latency 120)." },
    { "l2_mshrs", CK_U32, OFF(l2_mshrs), 1, 64, "MSHRs", "MSHRs per L2 slice (32)." },
    { "dram_banks", CK_U32, OFF(dram_banks), 2, 32, "banks",
      "Banks per DRAM channel, a power of two (GPGPU-Sim gtx480 nbk=16)." },
    { "dram_latency", CK_U32, OFF(dram_latency), 0, 10000, "cycles",
      "DRAM controller latency before scheduling (GPGPU-Sim gtx480 -dram_latency 100)." },
    { "dram_tCL", CK_U32, OFF(dram_tCL), 1, 1000, "core cycles",
      "CAS latency (GDDR5 CL=12 at 924 MHz = 10 core cycles at 700 MHz)." },
    { "dram_tRCD", CK_U32, OFF(dram_tRCD), 1, 1000, "core cycles",
      "Activate to read (RCD=12 -> 10 core cycles)." },
    { "dram_tRP", CK_U32, OFF(dram_tRP), 1, 1000, "core cycles",
      "Precharge (RP=12 -> 10 core cycles)." },
    { "dram_tRAS", CK_U32, OFF(dram_tRAS), 1, 1000, "core cycles",
      "Activate to precharge (RAS=28 -> 22 core cycles)." },
    { "l2_copy_install", CK_U32, OFF(l2_copy_install), 0, 1, "flag",
      "Host-to-device copies and memsets since the last launch leave their lines in the L2 at "
      "the launch's cycle 0, most recent last (clean, LRU order as the copy engine left them; "
      "at most what the L2 holds): the copy engine writes through L2 on Fermi and Kepler, as "
      "GPGPU-Sim's -gpgpu_perf_sim_memcpy (default 1) models; the copy's own time is not "
      "counted. 0 = every launch starts with a cold L2. No effect in the functional model." },
    { "watchdog_cycles", CK_U64, OFF(watchdog_cycles), 0, ~0ull, "cycles",
      "Deadlock watchdog: no instruction issued anywhere for this many cycles stops the run with "
      "a dump of every warp (0 = off)." },
    { "skip_idle", CK_U32, OFF(skip_idle), 0, 1, "flag",
      "Do not evaluate an SM with nothing resident or in flight (its scheduler cycles count as "
      "'no warp'; statistics identical; 0 = tick every SM every cycle)." },
    { "time_skip", CK_U32, OFF(time_skip), 0, 1, "flag",
      "Do not evaluate cycles that can change nothing but counters: an SM whose warps all "
      "wait sleeps until its next event (a result due, a unit free, a fill, a launch), and the "
      "whole GPU jumps when every SM is idle or asleep, no CTA is left to hand out and the "
      "memory system waits for its next event; skipped cycles are counted as ticking would "
      "count them (statistics identical; host_sm_cycles_asleep says how many; 0 = tick every "
      "cycle; no effect with skip_idle = 0, which ticks every SM)." },
};

void conf_defaults(struct gpu_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "gtx480");
    snprintf(c->mechs, sizeof c->mechs, "none");
    c->num_sms = 15;
    c->max_warps_per_sm = 48;
    c->max_ctas_per_sm = 8;
    c->regs_per_sm = 32768;
    c->shared_per_sm = 48 * 1024;
    c->max_threads_per_cta = 1024;
    c->max_shared_per_cta = 48 * 1024;
    c->max_regs_per_thread = 63;
    c->reg_alloc_unit = 64;
    c->simt_stack_max = 256;
    c->dram_bytes = 1536ull << 20;
    c->local_bytes_per_thread = 512 * 1024;
    c->clock_mhz = 700;
    c->compute_capability = 20;
    c->max_warp_insns = 20000000000ull;
    c->max_warp_age = 2500000;
    c->max_spin_insns = 8000000;
    c->model = MODEL_TIMING;
    c->sched_policy = SCHED_GTO;
    c->vtw = VTW_OFF;
    c->vtw_lane = 0;
    c->vtw_latency = 8;
    c->vtw_smem_hold = 1;
    c->vtw_keys = VTW_KEYS_ALG1;
    c->vt = VT_OFF;
    c->vt_swap_bits_per_cycle = 512;
    c->vt_ldq_inactive = 30;
    c->dws = DWS_OFF;
    c->dws_wst_factor = 2;
    c->dws_pd_max = 64;
    c->dws_oversub = 1;
    c->schedulers_per_sm = 2;
    c->twolevel_active = 8;
    c->simt_policy = SIMTP_TOKEN;
    c->simt_depth = 16;
    c->simt_chunk = 4;
    c->simt_entry_bytes = 8;
    c->simt_pop_cycles = 0;
    c->simt_fill_cycles = 0;
    c->ibuf_entries = 2; c->icache_sets = 4; c->icache_ways = 4; c->decode_cycles = 1;
    c->fetch_width = 2; c->fetch_warps = 1;
    c->lat_alu = 18; c->lat_mad = 20; c->lat_minmax = 36; c->lat_idiv = 264;
    c->lat_fdiv = 984; c->lat_dp = 24; c->lat_ddiv = 1188; c->lat_sfu = 40;
    c->lat_sqrt = 208; c->lat_rcp = 228; c->lat_shared = 44; c->lat_const = 46;
    c->lat_param = 46;
    c->ii_sp = 1; c->ii_sfu = 4; c->ii_dp = 8; c->ii_mem = 1; c->sfu_shared = 1;
    c->l1_sets = 32; c->l1_ways = 4; c->l1_mshrs = 64; c->l1_hit_latency = 35;
    c->icnt_latency = 8;
    c->dram_channels = 6; c->l2_slices_per_channel = 2; c->l2_sets = 64; c->l2_ways = 8;
    c->l2_latency = 120; c->l2_mshrs = 32;
    c->dram_banks = 16; c->dram_latency = 100; c->dram_tCL = 10; c->dram_tRCD = 10;
    c->dram_tRP = 10; c->dram_tRAS = 22;
    c->l2_copy_install = 1;
    c->watchdog_cycles = 100000;
    c->skip_idle = 1;
    c->time_skip = 1;
}

const struct conf_key *conf_keys(unsigned *count)
{
    *count = sizeof keys / sizeof keys[0];
    return keys;
}

static const struct conf_key *find_key(const char *name)
{
    unsigned i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* Parse a decimal unsigned integer with optional K/M/G suffix: leading zeros are decimal
   (010 is ten), 0x and any other prefix are refused. Returns 0 on success. */
static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    if (*end == 'K' || *end == 'M' || *end == 'G') {
        unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
        if (v > (~0ull >> shift))
            return -1;
        v <<= shift;
        end++;
    }
    if (*end)
        return -1;
    *out = v;
    return 0;
}

/* Enumerations: the value is the index of the name in k->unit ("a|b|c"). */
static int set_enum(struct gpu_config *c, const struct conf_key *k, const char *val,
                    const char *where, char *err, size_t errlen)
{
    const char *p = k->unit;
    uint32_t idx = 0;
    size_t n = strlen(val);
    while (p && *p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, val, n) == 0) {
            *(uint32_t *)(void *)((char *)c + k->offset) = idx;
            return 0;
        }
        idx++;
        p = bar ? bar + 1 : NULL;
    }
    snprintf(err, errlen, "%s: key '%s': '%s' is not one of %s", where, k->name, val, k->unit);
    return -1;
}

static int set_value(struct gpu_config *c, const struct conf_key *k, const char *val,
                     const char *where, char *err, size_t errlen)
{
    uint64_t v;
    char *base = (char *)c + k->offset;
    if (k->kind == CK_STR) {
        if (strlen(val) == 0 || strlen(val) >= sizeof c->name) {
            snprintf(err, errlen, "%s: key '%s': value must be 1 to %zu characters", where,
                     k->name, sizeof c->name - 1);
            return -1;
        }
        snprintf(base, sizeof c->name, "%s", val);
        return 0;
    }
    if (k->kind == CK_ENUM)
        return set_enum(c, k, val, where, err, errlen);
    if (parse_u64(val, &v)) {
        snprintf(err, errlen, "%s: key '%s': '%s' is not a non-negative integer (decimal "
                 "digits, then optionally K, M or G)", where, k->name, val);
        return -1;
    }
    if (v < k->min || v > k->max) {
        snprintf(err, errlen, "%s: key '%s': %llu is out of range [%llu, %llu]", where, k->name,
                 (unsigned long long)v, (unsigned long long)k->min, (unsigned long long)k->max);
        return -1;
    }
    if (k->kind == CK_U32)
        *(uint32_t *)(void *)base = (uint32_t)v;
    else
        *(uint64_t *)(void *)base = v;
    return 0;
}

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* Split "key = value" in place into its trimmed key and value; 0, or -1 with no '='. */
static int split_kv(char *line, char **key, char **val)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return -1;
    *eq = 0;
    *key = trim(line);
    *val = trim(eq + 1);
    return 0;
}

/* Apply "key = value" text (already without comment). */
static int apply_line(struct gpu_config *c, char *line, const char *where, char *err, size_t errlen)
{
    char *key, *val;
    const struct conf_key *k;
    if (split_kv(line, &key, &val)) {
        snprintf(err, errlen, "%s: expected 'key = value', got '%s'", where, trim(line));
        return -1;
    }
    k = find_key(key);
    if (!k) {
        snprintf(err, errlen, "%s: unknown configuration key '%s' (see docs/config.md)", where, key);
        return -1;
    }
    return set_value(c, k, val, where, err, errlen);
}

int conf_set(struct gpu_config *c, const char *kv, const char *where, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(kv) >= sizeof buf) {
        snprintf(err, errlen, "%s: setting too long", where);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", kv);
    return apply_line(c, buf, where, err, errlen);
}

#define CONF_FILE_MAX (1u << 20)   /* bytes (messages and docs say 1 MiB); gtx480.cfg is ~4 KB */

/* The whole configuration file (infile_read: a regular file of at most CONF_FILE_MAX bytes). */
static char *read_conf_file(const char *path, size_t *len, char *err, size_t errlen)
{
    char *t = infile_read(path, "configuration", CONF_FILE_MAX, len, err, errlen);
    if (!t && strstr(err, ": larger than "))
        snprintf(err + strlen(err), errlen - strlen(err), " (a configuration is a text file "
                 "of 'key = value' lines)");
    return t;
}

/* A NUL byte would end its line early and hide the rest: refuse the file, naming the line. */
static int check_no_nul(const char *buf, size_t len, const char *path, char *err, size_t errlen)
{
    unsigned lineno = infile_nul(buf, len);
    if (lineno)
        snprintf(err, errlen, "%s:%u: configuration contains a NUL byte (not a text file)",
                 path, lineno);
    return lineno ? -1 : 0;
}

/* The next line of the text at *p, whole whatever its length: terminated in place, its
   comment removed, trimmed ("" for a blank line); NULL after the last one. */
static char *next_line(char **p)
{
    char *line = *p, *nl, *hash;
    if (!*line)
        return NULL;
    if ((nl = strchr(line, '\n')) != NULL)
        *nl = 0;
    *p = nl ? nl + 1 : line + strlen(line);
    if ((hash = strchr(line, '#')) != NULL)
        *hash = 0;
    return trim(line);
}

/* Apply every line of the file's text. */
static int apply_text(struct gpu_config *c, char *text, const char *path, char *err,
                      size_t errlen)
{
    char where[300], *p = text, *t;
    unsigned lineno = 0;
    while ((t = next_line(&p)) != NULL) {
        lineno++;
        snprintf(where, sizeof where, "%s:%u", path, lineno);
        if (*t && apply_line(c, t, where, err, errlen))
            return -1;
    }
    return 0;
}

int conf_load_file(struct gpu_config *c, const char *path, char *err, size_t errlen)
{
    size_t len;
    char *text = read_conf_file(path, &len, err, errlen);
    int rc;
    if (!text)
        return -1;
    rc = conf_load_text(c, text, len, path, err, errlen);
    free(text);
    return rc;
}

int conf_load_text(struct gpu_config *c, const char *text, size_t len, const char *name,
                   char *err, size_t errlen)
{
    char *copy;
    int rc;
    if (check_no_nul(text, len, name, err, errlen))
        return -1;
    if (!(copy = malloc(len + 1))) {
        snprintf(err, errlen, "%s: cannot read configuration: out of memory", name);
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = 0;
    rc = apply_text(c, copy, name, err, errlen);
    free(copy);
    return rc ? -1 : 0;
}

/* VTW's keys: those of the hardware form (the progress-aware scheduler, the lane policy, the
   next-TB-index unit's latency, the shared-memory hold) need vtw = hw, as VT's and DWS's keys
   need their mechanism: a value other than the default is refused without it. */
static int vtw_check(const struct gpu_config *c, char *err, size_t errlen)
{
    const char *key = c->vtw_lane != 0 ? "vtw_lane" : c->vtw_latency != 8 ? "vtw_latency"
                    : c->vtw_smem_hold != 1 ? "vtw_smem_hold" : NULL;
    if (c->sched_policy == SCHED_VTW && c->vtw != VTW_HW) {
        snprintf(err, errlen, "configuration: sched_policy = vtw needs vtw = hw (the progress-aware "
                 "scheduler orders the virtual warps of the hardware form)");
        return -1;
    }
    if (c->vtw_keys != VTW_KEYS_ALG1 && c->sched_policy != SCHED_VTW) {
        snprintf(err, errlen, "configuration: key 'vtw_keys' (not its default) needs sched_policy "
                 "= vtw (it sets the progress-aware scheduler's keys)");
        return -1;
    }
    if (key && c->vtw != VTW_HW) {
        snprintf(err, errlen, "configuration: key '%s' (not its default) needs vtw = hw (%s)",
                 key, c->vtw == VTW_SW ? "the software form has no next-TB-index unit, keeps "
                 "every thread index and orders shared memory by a barrier"
                 : "it sets VTW's hardware form, and vtw is off");
        return -1;
    }
    return 0;
}

/* VT's keys against each other and the model. VT combines with VTW (either form): VTW's
   virtual TBs fill VT's residency, VT swaps them (issue 39); DWS refuses VT (dws_check). */
static int vt_check(const struct gpu_config *c, char *err, size_t errlen)
{
    uint32_t b = c->vt_swap_bits_per_cycle;
    if (b && (b < 32 || (b & (b - 1)))) {
        snprintf(err, errlen, "configuration: key 'vt_swap_bits_per_cycle' (%u) must be 0 (ideal) "
                 "or a power of two from 32 to 4096 (a context beat is one shared-memory port "
                 "cycle of B bits)", b);
        return -1;
    }
    if (c->vt != VT_ON && (b != 512 || c->vt_ldq_inactive != 30)) {
        snprintf(err, errlen, "configuration: key '%s' needs vt = on (only the swapping form has "
                 "context traffic and an inactive load queue)",
                 b != 512 ? "vt_swap_bits_per_cycle" : "vt_ldq_inactive");
        return -1;
    }
    if (c->vt != VT_OFF && c->model != MODEL_TIMING) {
        snprintf(err, errlen, "configuration: vt = %s needs model = timing (VT changes which CTAs "
                 "are resident and when they run, not what they compute; the functional model "
                 "has no schedule)", c->vt == VT_ON ? "on" : "max");
        return -1;
    }
    if (c->vt == VT_ON && c->simt_depth < 3) {
        snprintf(err, errlen, "configuration: vt = on needs simt_depth >= 3 (%u): a saved warp "
                 "(pc, mask, rpc and %u entries of the model's stack) must fit the paper's "
                 "160 x D bits of context per warp (eq. 1)", c->simt_depth, c->simt_depth);
        return -1;
    }
    return 0;
}

/* DWS's keys against each other, the SM's slot index and the mechanisms it cannot be
   combined with. */
static int dws_check(const struct gpu_config *c, char *err, size_t errlen)
{
    static const char *const nm[] = { "off", "branch", "aggress", "lazy", "revive", "revive_mem" };
    if (c->dws == DWS_OFF) {
        if (c->dws_wst_factor != 2 || c->dws_pd_max != 64 || c->dws_oversub != 1) {
            snprintf(err, errlen, "configuration: key '%s' needs dws != off",
                     c->dws_wst_factor != 2 ? "dws_wst_factor" :
                     c->dws_pd_max != 64 ? "dws_pd_max" : "dws_oversub");
            return -1;
        }
        return 0;
    }
    if (c->vt != VT_OFF || c->vtw != VTW_OFF) {
        snprintf(err, errlen, "configuration: dws = %s cannot be combined with %s (a split warp "
                 "has several slots: VT's swap saves one slot per context, VTW's progress "
                 "tracking counts one per warp)", nm[c->dws], c->vt != VT_OFF ? "vt" : "vtw");
        return -1;
    }
    if (c->model != MODEL_TIMING) {
        snprintf(err, errlen, "configuration: dws = %s needs model = timing (splits change when "
                 "lanes run, not what they compute; the functional model has no schedule)",
                 nm[c->dws]);
        return -1;
    }
    if (c->max_warps_per_sm > 64) {
        snprintf(err, errlen, "configuration: dws = %s needs max_warps_per_sm <= 64 (the "
                 "warp-split table's 6-bit warp ID), not %u", nm[c->dws], c->max_warps_per_sm);
        return -1;
    }
    if ((uint64_t)c->dws_wst_factor * c->max_warps_per_sm > 128) {
        snprintf(err, errlen, "configuration: key 'dws_wst_factor' (%u) x max_warps_per_sm (%u) "
                 "= %u table entries; the SM has at most 128 slots (its 7-bit slot index)",
                 c->dws_wst_factor, c->max_warps_per_sm, c->dws_wst_factor * c->max_warps_per_sm);
        return -1;
    }
    return 0;
}

int conf_check(const struct gpu_config *c, char *err, size_t errlen)
{
    if (c->max_threads_per_cta > 32 * c->max_warps_per_sm) {
        snprintf(err, errlen, "configuration: key 'max_threads_per_cta' (%u) exceeds the SM's "
                 "%u warps x 32 threads (max_warps_per_sm)", c->max_threads_per_cta,
                 c->max_warps_per_sm);
        return -1;
    }
    if (c->max_threads_per_cta % 32) {
        snprintf(err, errlen, "configuration: key 'max_threads_per_cta' (%u) must be a multiple of 32",
                 c->max_threads_per_cta);
        return -1;
    }
    if (c->max_shared_per_cta > c->shared_per_sm) {
        snprintf(err, errlen, "configuration: key 'max_shared_per_cta' (%u) exceeds shared_per_sm (%u)",
                 c->max_shared_per_cta, c->shared_per_sm);
        return -1;
    }
    if (c->regs_per_thread > c->max_regs_per_thread) {
        snprintf(err, errlen, "configuration: key 'regs_per_thread' (%u) exceeds "
                 "max_regs_per_thread (%u)", c->regs_per_thread, c->max_regs_per_thread);
        return -1;
    }
    if (c->fetch_width > c->ibuf_entries) {
        snprintf(err, errlen, "configuration: key 'fetch_width' (%u) exceeds ibuf_entries (%u): "
                 "a fetch cannot decode more than the I-buffer holds", c->fetch_width,
                 c->ibuf_entries);
        return -1;
    }
    if (c->fetch_warps > c->max_warps_per_sm) {
        snprintf(err, errlen, "configuration: key 'fetch_warps' (%u) exceeds max_warps_per_sm (%u)",
                 c->fetch_warps, c->max_warps_per_sm);
        return -1;
    }
    if (vtw_check(c, err, errlen))
        return -1;
    if (dws_check(c, err, errlen))
        return -1;
    if (vt_check(c, err, errlen))
        return -1;
    if ((uint64_t)c->max_regs_per_thread * 32 > c->regs_per_sm) {
        snprintf(err, errlen, "configuration: key 'max_regs_per_thread' (%u): one warp would need "
                 "more than regs_per_sm (%u)", c->max_regs_per_thread, c->regs_per_sm);
        return -1;
    }
    return 0;
}

uint64_t conf_get(const struct gpu_config *c, const struct conf_key *k)
{
    const char *base = (const char *)c + k->offset;
    if (k->kind == CK_U64)
        return *(const uint64_t *)(const void *)base;
    return k->kind == CK_STR ? 0 : *(const uint32_t *)(const void *)base;
}

void conf_put(struct gpu_config *c, const struct conf_key *k, uint64_t v)
{
    char *base = (char *)c + k->offset;
    if (k->kind == CK_U64)
        *(uint64_t *)(void *)base = v;
    else if (k->kind != CK_STR)
        *(uint32_t *)(void *)base = (uint32_t)v;
}

/* conf_check as a conf_check_fn. */
static int check_whole(const struct gpu_config *c, const void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    return conf_check(c, err, errlen);
}

int conf_load(struct gpu_config *c, const struct conf_src *s, char *err, size_t errlen)
{
    conf_defaults(c);
    if (s->path && conf_load_file(c, s->path, err, errlen))
        return -1;
    for (int i = 0; i < s->nsets; i++)
        if (!s->sets[i] || conf_set(c, s->sets[i], "--set", err, errlen))
            return -1;
    if (!conf_check(c, err, errlen))
        return 0;
    conf_blame_keys(c, s, check_whole, NULL, err, errlen);
    return -1;
}

/* Is `line` ("key = value", trimmed, no comment) a setting of key `name`? (Modifies it.) */
static int sets_key(char *line, const char *name)
{
    char *key, *val;
    return !split_kv(line, &key, &val) && strcmp(key, name) == 0;
}

/* The number of the last line of the file that sets `name` (0: none, or unreadable). */
static unsigned last_line_setting(const char *path, const char *name)
{
    char err[8], *text, *p, *t;
    size_t len;
    unsigned lineno = 0, last = 0;
    if (!(text = read_conf_file(path, &len, err, sizeof err)))
        return 0;
    for (p = text; (t = next_line(&p)) != NULL;) {
        lineno++;
        if (sets_key(t, name))
            last = lineno;
    }
    free(text);
    return last;
}

const char *conf_blame(const struct conf_src *s, const char *name, char *buf, size_t n)
{
    char line[512];
    unsigned ln;
    for (int i = s ? s->nsets - 1 : -1; i >= 0; i--) {
        snprintf(line, sizeof line, "%s", s->sets[i] ? s->sets[i] : "");
        if (sets_key(line, name)) {
            snprintf(buf, n, "--set");
            return buf;
        }
    }
    if (s && s->path && (ln = last_line_setting(s->path, name)) != 0)
        snprintf(buf, n, "%s:%u", s->path, ln);
    else
        snprintf(buf, n, "default");
    return buf;
}

/* Does another value of key k -- an enumeration's every name, a number's default, minimum
   or maximum -- make chk pass on c? */
static int key_fixes(const struct gpu_config *c, const struct gpu_config *dflt,
                     const struct conf_key *k, conf_check_fn chk, const void *ctx)
{
    struct gpu_config t = *c;
    uint64_t cur = conf_get(c, k), tv[3] = { conf_get(dflt, k), k->min, k->max };
    char scratch[CONF_ERR_LEN];
    unsigned n = k->kind == CK_ENUM ? (unsigned)k->max + 1 : 3;
    for (unsigned i = 0; i < n; i++) {
        uint64_t v = k->kind == CK_ENUM ? i : tv[i];
        if (v == cur)
            continue;
        conf_put(&t, k, v);
        if (!chk(&t, ctx, scratch, sizeof scratch))
            return 1;
    }
    return 0;
}

/* Does resetting key k (set away from its default) change chk's verdict `msg` on c? */
static int key_changes(const struct gpu_config *c, const struct gpu_config *dflt,
                       const struct conf_key *k, conf_check_fn chk, const void *ctx,
                       const char *msg)
{
    struct gpu_config t = *c;
    char scratch[CONF_ERR_LEN];
    if (conf_get(c, k) == conf_get(dflt, k))
        return 0;
    conf_put(&t, k, conf_get(dflt, k));
    return !chk(&t, ctx, scratch, sizeof scratch) || strcmp(scratch, msg) != 0;
}

/* " key 'K' = V (WHERE)" for key k, appended to err. */
static void append_key(const struct gpu_config *c, const struct conf_src *src,
                       const struct conf_key *k, int first, char *err, size_t errlen)
{
    char v[80], where[320];
    size_t len = strlen(err);
    if (len + 1 >= errlen)
        return;
    conf_value(c, k, v, sizeof v);
    if (src)
        snprintf(err + len, errlen - len, "%skey '%s' = %s (%s)", first ? " [" : ", ", k->name,
                 v, conf_blame(src, k->name, where, sizeof where));
    else
        snprintf(err + len, errlen - len, "%skey '%s' = %s", first ? " [" : ", ", k->name, v);
}

void conf_blame_keys(const struct gpu_config *c, const struct conf_src *src, conf_check_fn chk,
                     const void *ctx, char *err, size_t errlen)
{
    enum { NKEYS = sizeof keys / sizeof keys[0] };
    struct gpu_config dflt;
    char msg[CONF_ERR_LEN];
    unsigned found[NKEYS], n = 0, shown = 0;
    size_t len;
    conf_defaults(&dflt);
    snprintf(msg, sizeof msg, "%s", err);
    for (unsigned pass = 0; pass < 2 && !n; pass++)
        for (unsigned i = 0; i < NKEYS; i++)
            if (keys[i].kind != CK_STR && (pass ? key_changes(c, &dflt, &keys[i], chk, ctx, msg)
                                                : key_fixes(c, &dflt, &keys[i], chk, ctx)))
                found[n++] = i;
    for (int away = 1; away >= 0; away--)        /* the keys set away from the default first */
        for (unsigned j = 0; j < n; j++)
            if ((conf_get(c, &keys[found[j]]) != conf_get(&dflt, &keys[found[j]])) == away)
                append_key(c, src, &keys[found[j]], !shown++, err, errlen);
    if (n && (len = strlen(err)) + 1 < errlen)
        snprintf(err + len, errlen - len, "]");
}

void conf_value(const struct gpu_config *c, const struct conf_key *k, char *buf, size_t n)
{
    const char *base = (const char *)c + k->offset;
    if (k->kind == CK_ENUM) {
        uint32_t idx = *(const uint32_t *)(const void *)base, i = 0;
        const char *p = k->unit;
        while (i < idx && p && (p = strchr(p, '|')) != NULL) {
            p++;
            i++;
        }
        snprintf(buf, n, "%.*s", p ? (int)strcspn(p, "|") : 1, p ? p : "?");
    } else if (k->kind == CK_STR)
        snprintf(buf, n, "%s", base);
    else if (k->kind == CK_U32)
        snprintf(buf, n, "%u", *(const uint32_t *)(const void *)base);
    else
        snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)(const void *)base);
}

/* The latency set: every lat_* and ii_* key as "key=value", space-separated, in table order. */
size_t conf_latency_line(const struct gpu_config *c, char *buf, size_t n)
{
    unsigned i;
    size_t len = 0;
    char v[80];
    if (n)
        buf[0] = 0;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *name = keys[i].name;
        if (strncmp(name, "lat_", 4) != 0 && strncmp(name, "ii_", 3) != 0)
            continue;
        conf_value(c, &keys[i], v, sizeof v);
        len += (size_t)snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%s%s=%s",
                                len ? " " : "", name, v);
    }
    return len;
}

void conf_write(const struct gpu_config *c, void *fp)
{
    unsigned i;
    char v[80];
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        conf_value(c, &keys[i], v, sizeof v);
        fprintf((FILE *)fp, "%s = %s\n", keys[i].name, v);
    }
}

void conf_write_doc(void *fp)
{
    FILE *f = fp;
    struct gpu_config d;
    unsigned i;
    char v[80];
    conf_defaults(&d);
    fprintf(f, "# Configuration keys\n\n"
            "Generated by `build/gpusim config --doc` from the key table in model/base/config.c; a test\n"
            "checks that this page matches it.\n\n"
            "Files are regular text files of at most 1 MiB: `key = value` lines of any length; `#`\n"
            "starts a comment. Integers are decimal (leading zeros allowed: `010` is ten; no `0x` or\n"
            "octal) with an optional binary suffix K, M or G, in files and in `--set`.\n"
            "`--set KEY=VALUE` overrides one key after the file is read. An unknown key, a malformed\n"
            "or out-of-range value, or an impossible combination stops the run with a message naming\n"
            "the key (and FILE:LINE). Combinations are checked when the configuration is loaded,\n"
            "before any launch: the model's own (e.g. `fetch_width` at most `ibuf_entries`) and every\n"
            "block's check of the configuration it is built with (e.g. cache sets a power of two,\n"
            "`simt_chunk` at most `simt_depth`); the message names each key behind the failure with\n"
            "its value and where it was set (FILE:LINE, `--set` or default). Where each gtx480 value\n"
            "comes from, where the model differs from the GPU and why: [fidelity.md](fidelity.md).\n\n"
            "Mechanisms and their keys are treated alike: a key that only a mechanism reads (VT's\n"
            "`vt_*`, DWS's `dws_*`, VTW's hardware form's `vtw_lane`, `vtw_latency`, `vtw_smem_hold`\n"
            "and `sched_policy = vtw`) is refused at a value other than its default unless that\n"
            "mechanism is on (`vt = on`, `dws != off`, `vtw = hw`; `vtw_keys`: `sched_policy = vtw`):\n"
            "the run would silently ignore it.\n"
            "A mechanism that only changes when warps run (VT, DWS) needs `model = timing`: the\n"
            "functional model has no schedule. VTW changes the kernel itself (its wrapper loop), so\n"
            "`vtw = hw | sw` runs on both models.\n\n"
            "| key | default (gtx480) | range | unit | meaning |\n|---|---|---|---|---|\n");
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct conf_key *k = &keys[i];
        char range[64] = "text";
        conf_value(&d, k, v, sizeof v);
        if (k->kind == CK_ENUM)
            snprintf(range, sizeof range, "%s", k->unit);
        else if (k->kind != CK_STR)
            snprintf(range, sizeof range, "%llu .. %llu", (unsigned long long)k->min,
                     (unsigned long long)k->max);
        fprintf(f, "| `%s` | %s | %s | %s | %s |\n", k->name, v, range,
                k->kind == CK_ENUM ? "name" : k->unit, k->doc);
    }
}
