/*
 * config.h -- GPU configuration: every key, its default (GTX480), range and documentation in one
 * table (config.c), so that the parser, `--set`, the range checks, `gpusim config --doc` and
 * docs/config.md cannot drift apart.
 *
 * File format: a regular text file of at most 1 MiB (no NUL byte), `key = value` per line (any
 * length), `#` starts a comment, blank lines ignored. Integer values are decimal (leading zeros
 * allowed, no 0x or octal) with an optional binary suffix K, M or G (x1024, x1024^2, x1024^3),
 * in files and in `--set`. Enumerations take a name.
 * An unknown key, a bad value, an out-of-range value or an impossible combination is an error
 * naming the key (and FILE:LINE for files, `--set` for overrides); a combination's message
 * names every key behind it and where each was set (conf_blame_keys).
 */
#ifndef CONFIG_H
#define CONFIG_H
#include <stdint.h>
#include <stddef.h>

#define CONF_ERR_LEN 512

struct gpu_config {
    char     name[64];               /* configuration name (e.g. gtx480) */
    uint32_t num_sms;
    uint32_t max_warps_per_sm;
    uint32_t max_ctas_per_sm;
    uint32_t regs_per_sm;            /* 32-bit registers */
    uint32_t shared_per_sm;          /* bytes */
    uint32_t max_threads_per_cta;
    uint32_t max_shared_per_cta;     /* bytes (static + dynamic) */
    uint32_t max_regs_per_thread;
    uint32_t regs_per_thread;        /* 0: from regs_source; N: override for every kernel */
    uint32_t regs_source;            /* enum conf_regs */
    uint32_t reg_alloc_unit;         /* registers are allocated per warp in units of this many */
    uint32_t simt_stack_max;         /* functional reconvergence stack entries per warp (safety cap) */
    uint64_t dram_bytes;             /* device memory capacity */
    uint64_t local_bytes_per_thread; /* cap on local memory a kernel may use per thread */
    uint64_t max_warp_insns;         /* watchdog: stop a launch after this many warp insns (0 = off) */
    uint64_t max_warp_age;           /* runaway watchdog: cycles (timing model) without any
                                        warp making progress stop the launch (0 = off) */
    uint64_t max_spin_insns;         /* runaway watchdog: warp instructions (both models)
                                        without any warp making progress (0 = off) */
    uint32_t clock_mhz;              /* core clock: the time of a cycle (CUDA events, clock rate) */
    uint32_t compute_capability;     /* what the CUDA runtime reports: major x 10 + minor */
    /* timing model */
    uint32_t model;                  /* enum conf_model */
    uint32_t sched_policy;           /* enum conf_sched */
    uint32_t schedulers_per_sm;
    uint32_t twolevel_active;        /* two-level scheduler: active-set size per scheduler */
    uint32_t simt_policy;            /* enum conf_simt */
    uint32_t simt_depth;             /* on-chip SIMT stack entries per warp */
    uint32_t simt_chunk;             /* entries moved per spill / fill */
    uint32_t simt_entry_bytes;       /* bytes per spilled entry */
    uint32_t simt_pop_cycles;        /* extra cycles a reconvergence pop holds the warp */
    uint32_t simt_fill_cycles;       /* extra cycles a fill holds the warp after it returns */
    uint32_t ibuf_entries, icache_sets, icache_ways, decode_cycles;
    uint32_t fetch_width, fetch_warps;   /* front-end bandwidth (docs/fetch.md) */
    uint32_t lat_alu, lat_mad, lat_minmax, lat_idiv, lat_fdiv, lat_dp, lat_ddiv;
    uint32_t lat_sfu, lat_sqrt, lat_rcp, lat_shared, lat_const, lat_param;
    uint32_t ii_sp, ii_sfu, ii_dp, ii_mem;
    uint32_t sfu_shared;             /* one SFU pipe per SM, not one per scheduler */
    uint32_t l1_sets, l1_ways, l1_mshrs, l1_hit_latency;
    uint32_t icnt_latency;
    uint32_t dram_channels, l2_slices_per_channel, l2_sets, l2_ways, l2_latency, l2_mshrs;
    uint32_t dram_banks, dram_latency, dram_tCL, dram_tRCD, dram_tRP, dram_tRAS;
    uint32_t l2_copy_install;        /* host-to-device copies and memsets leave their lines in L2 */
    uint64_t watchdog_cycles;        /* deadlock: no issue anywhere for this many cycles */
    uint32_t skip_idle;              /* do not evaluate idle SMs */
    uint32_t time_skip;              /* jump over cycles in which nothing can change (gpu.c) */
    /* VTW (000_0da6b8b480bd0740.txt): docs/vtw.md */
    uint32_t vtw;                    /* enum conf_vtw */
    uint32_t vtw_lane;               /* enum ntb_lane (model/sm/ntb.h) */
    uint32_t vtw_latency;            /* next-TB-index unit: request -> reply, cycles */
    uint32_t vtw_smem_hold;          /* Sec. 4.4's shared-memory restriction (1; 0 only to show it matters) */
    uint32_t vtw_keys;               /* enum conf_vtw_keys: what sched_policy = vtw orders by */
    /* VT (004_23e173f444f46134.txt): docs/vt.md */
    uint32_t vt;                     /* enum conf_vt */
    uint32_t vt_swap_bits_per_cycle; /* context bits per shared-memory port cycle (eq. 2); 0 = ideal */
    uint32_t vt_ldq_inactive;        /* inactive load queue entries (Sec. IV-D) */
    /* DWS (002_ddcb2f79a6edfee4.txt): docs/dws.md */
    uint32_t dws;                    /* enum conf_dws */
    uint32_t dws_wst_factor;         /* warp-split table entries per warp slot */
    uint32_t dws_pd_max;             /* short-post-dominator heuristic: instructions */
    uint32_t dws_oversub;            /* over-subdivision rule on branch splits (1 = on) */
    /* mechanisms added to the SM with sm_mech_register (model/sm/sm_mech.h) */
    char     mechs[64];              /* their names, comma-separated; "none" */
};

enum conf_kind { CK_STR, CK_U32, CK_U64, CK_ENUM };

enum conf_model  { MODEL_FUNCTIONAL = 0, MODEL_TIMING };
enum conf_sched  { SCHED_LRR = 0, SCHED_GTO, SCHED_TWOLEVEL, SCHED_GTO_PRIO, SCHED_VTW };
enum conf_vtw_keys { VTW_KEYS_ALG1 = 0, VTW_KEYS_ZERO };
enum conf_vtw    { VTW_OFF = 0, VTW_HW, VTW_SW };
enum conf_vt     { VT_OFF = 0, VT_ON, VT_MAX };
enum conf_dws    { DWS_OFF = 0, DWS_BRANCH, DWS_AGGRESS, DWS_LAZY, DWS_REVIVE, DWS_REVIVE_MEM };
enum conf_simt   { SIMTP_TOKEN = 0, SIMTP_IPDOM };
enum conf_regs   { REGS_AUTO = 0, REGS_RECORDED, REGS_ESTIMATE };

struct conf_key {
    const char *name;
    enum conf_kind kind;
    size_t   offset;
    uint64_t min, max;               /* inclusive range for integers */
    const char *unit;                /* for CK_ENUM: the names, '|'-separated, value = index */
    const char *doc;                 /* one sentence, with the value's source where it matters */
};

void conf_defaults(struct gpu_config *c);
const struct conf_key *conf_keys(unsigned *count);
/* Load a file over the current values. Returns 0, or -1 with "FILE:LINE: message" ("FILE:
   message" when it is not a regular file, cannot be read or is larger than 1 MiB). */
int  conf_load_file(struct gpu_config *c, const char *path, char *err, size_t errlen);
/* The same from len bytes of text in memory (no terminator needed), named `name` in messages. */
int  conf_load_text(struct gpu_config *c, const char *text, size_t len, const char *name,
                    char *err, size_t errlen);
/* Apply one "key=value". `where` names the origin for messages ("--set"). */
int  conf_set(struct gpu_config *c, const char *kv, const char *where, char *err, size_t errlen);
/* Check combinations that no single key range can express. */
int  conf_check(const struct gpu_config *c, char *err, size_t errlen);

/* Where a configuration comes from: the defaults, then the file `path` (NULL: none), then the
   `nsets` overrides "key=value" in order (--set). */
struct conf_src { const char *path; const char *const *sets; int nsets; };
/* Load a configuration from its sources and conf_check it; a failed check names the keys
   behind it and where each was set (conf_blame_keys). 0, or -1 with a message. Each layer adds
   its own checks after this one (model/gpu/blocks.h: blk_conf_load, every block's). */
int  conf_load(struct gpu_config *c, const struct conf_src *s, char *err, size_t errlen);
/* Where key `name` got its value: "FILE:LINE" (the last line of s->path setting it), "--set"
   (an override) or "default". Into buf (n bytes); returns buf. */
const char *conf_blame(const struct conf_src *s, const char *name, char *buf, size_t n);
/* A check of a whole configuration: 0 when c passes, -1 with a message into err. */
typedef int (*conf_check_fn)(const struct gpu_config *c, const void *ctx, char *err,
                             size_t errlen);
/* After chk(c, ctx) failed with the message in err: append the keys behind the failure, each
   with its value and where it was set (" [key 'simt_depth' = 2 (--set), key 'simt_chunk' = 4
   (default)]"; without the places when s is NULL). The keys behind it are those one of whose
   other values (any name of an enumeration; a number's default, minimum or maximum) makes chk
   pass; when no single key does, those set away from the default whose default changes the
   message. Only the keys are searched, so no table of what each check reads can drift. */
void conf_blame_keys(const struct gpu_config *c, const struct conf_src *s, conf_check_fn chk,
                     const void *ctx, char *err, size_t errlen);
/* A numeric or enumeration key's value (an enumeration's: the index of its name), read and
   written; its text as files and `gpusim config` write it. */
uint64_t conf_get(const struct gpu_config *c, const struct conf_key *k);
void conf_put(struct gpu_config *c, const struct conf_key *k, uint64_t v);
void conf_value(const struct gpu_config *c, const struct conf_key *k, char *buf, size_t n);
/* Write every key as Markdown (docs/config.md is this output) or as `key = value` text. */
void conf_write_doc(void *FILE_ptr);
void conf_write(const struct gpu_config *c, void *FILE_ptr);
/* The latency set of a configuration (every lat_* and ii_* key) as "lat_alu=18 ... ii_mem=1"
   into buf (truncated to n - 1 characters); returns the untruncated length. */
size_t conf_latency_line(const struct gpu_config *c, char *buf, size_t n);

#endif
