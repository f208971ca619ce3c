/*
 * gpusim.h -- the host API, in the manner of the CUDA runtime.
 *
 * A host program (bench/NAME/host.c, tests, or a user's own) initialises a GPU from a
 * configuration, allocates device memory, copies data both ways, loads a PTX file, launches
 * kernels by name with grid, block, arguments and dynamic shared memory, and reads statistics.
 * Every call returns GS_OK or an error code; gs_last_error() gives the message.  Nothing aborts
 * the process.  Launches are synchronous: gs_launch returns when the kernel has finished;
 * gs_synchronize returns the status of the last launch.
 */
#ifndef GPUSIM_H
#define GPUSIM_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

enum gs_status {
    GS_OK = 0,
    GS_ERR_INVALID_VALUE,     /* bad argument: null pointer, zero size, bad device pointer */
    GS_ERR_OUT_OF_MEMORY,     /* device allocation failed */
    GS_ERR_CONFIG,            /* unknown/out-of-range configuration key, unreadable file */
    GS_ERR_PTX,               /* PTX file unreadable, malformed or unsupported */
    GS_ERR_NOT_FOUND,         /* no kernel of that name */
    GS_ERR_LAUNCH,            /* impossible launch: grid/block/shared/registers/args */
    GS_ERR_KERNEL,            /* the kernel faulted: out-of-bounds access, deadlock, ... */
    GS_ERR_COUNT
};

/* The launch shape and the statistics' types below are also in base/gs_stats.h (the layers
   below the GPU top take them from there without the host API); the same text under the same
   guards, so either header may come first, and test_stats checks that the two agree
   (gs_stats_layout_base). */
#ifndef GS_DIM3_DEFINED
#define GS_DIM3_DEFINED
struct gs_dim3 { uint32_t x, y, z; };
#endif

struct gs_gpu;       /* opaque */
struct gs_module;    /* opaque */

#ifndef GS_STATS_DEFINED
#define GS_STATS_DEFINED
/* Statistics: every field is one line of stats_list.h, which says what it counts, how
   launches (and SMs) combine and how it is written. */
#define GS_STALL_KINDS 8      /* scheduler cycles by outcome (names: stats_list.h) */
#define GS_VTW_CLASSES 5      /* VTW issues by Algorithm 1 class (stats_list.h) */
#define GS_VTW_DECIDE  5      /* VTW picks by what decided them (stats_list.h) */
#define GS_MAX_SMS 64
#define GS_UTIL_BINS 33       /* lane-utilization histogram: active lanes 0..32 */
/* The DWS refusal reasons are named in sm/sm_dws.h now (the public lines below keep their
   first text, sm/sm.h). */
#define GS_DWS_BREF 6         /* DWS: refused branch-split candidates by reason (sm/sm.h) */
#define GS_DWS_MREF 7         /* DWS: refused memory-split candidates by reason (sm/sm.h) */
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

/* config_path may be NULL (built-in gtx480 defaults); sets are nsets (0 or more) "key=value"
   overrides. On failure *gpu is NULL and err (if not NULL) holds the message. */
int  gs_init(struct gs_gpu **gpu, const char *config_path, const char *const *sets, int nsets,
             char *err, size_t errlen);
struct gpu_config;
const struct gpu_config *gs_config(const struct gs_gpu *gpu);
void gs_destroy(struct gs_gpu *gpu);
/* The message of the last failed call, whole (a deadlock dump has a line per warp); valid
   until the next call on gpu. */
const char *gs_last_error(const struct gs_gpu *gpu);
const char *gs_status_name(int status);

int  gs_malloc(struct gs_gpu *gpu, uint64_t *dptr, uint64_t bytes);
int  gs_free(struct gs_gpu *gpu, uint64_t dptr);
int  gs_memcpy_htod(struct gs_gpu *gpu, uint64_t dst, const void *src, uint64_t bytes);
int  gs_memcpy_dtoh(struct gs_gpu *gpu, void *dst, uint64_t src, uint64_t bytes);
int  gs_memset(struct gs_gpu *gpu, uint64_t dst, int value, uint64_t bytes);

int  gs_load_ptx(struct gs_gpu *gpu, const char *path, struct gs_module **mod);
int  gs_load_ptx_text(struct gs_gpu *gpu, const char *text, const char *name, struct gs_module **mod);
/* The same from len bytes at text (need not end in a NUL; a NUL byte inside is the parser's to
   refuse, as in a file): what gs_load_ptx does with the file's bytes. */
int  gs_load_ptx_mem(struct gs_gpu *gpu, const char *text, size_t len, const char *name,
                     struct gs_module **mod);
/* The module's kernels (.entry functions) in declaration order: the i-th one's name, NULL past
   the last (valid while the GPU lives). */
const char *gs_kernel_name(const struct gs_module *mod, unsigned i);
/* The byte size of each of kernel's parameters as the PTX declares it (what gs_launch checks
   args[i].size against) into sizes[0 .. min(count, max)); the count, or -1 for no such kernel. */
int  gs_kernel_params(const struct gs_module *mod, const char *kernel, size_t *sizes, int max);
/* One kernel argument: where its value is and how many bytes it has. GS_ARG(v) makes one
   from an lvalue: { &v, sizeof v }. */
struct gs_arg { const void *ptr; size_t size; };
#define GS_ARG(v) ((struct gs_arg){ &(v), sizeof(v) })
/* args[i] is the value of the kernel's i-th parameter. nargs must equal the kernel's parameter
   count and each args[i].size the size the PTX declares for that parameter (a .u64 takes 8
   bytes, a .u32 4, an array its whole size); a launch that differs is refused with
   GS_ERR_LAUNCH before any byte is read. mod must be a module loaded on this gpu (one of
   another GPU, live or destroyed, is refused with GS_ERR_INVALID_VALUE). */
int  gs_launch(struct gs_gpu *gpu, struct gs_module *mod, const char *kernel,
               struct gs_dim3 grid, struct gs_dim3 block, uint32_t dyn_smem,
               const struct gs_arg *args, int nargs);
int  gs_synchronize(struct gs_gpu *gpu);

/* Record the input stream of one block of SM 0 (a registry row with record = 1: ws, sb, simt,
   and under vtw = hw ntb and pas) during the following timing launches into `path`
   (rewritten after each launch; see record.h). */
int  gs_record(struct gs_gpu *gpu, const char *block, const char *path);

/* Per-thread basic block vectors (gpu/bbv.h, 001 Section IV): every following launch writes
   its BBVs to `out` (the binary form, its magic written now; or CSV when csv), collected by
   the model the configuration runs. Refused under vtw != off (a transformed kernel's threads
   are not the grid's). */
int  gs_bbv(struct gs_gpu *gpu, FILE *out, int csv);

/* Reference redirection (ptx/redir.h, 001 Section III-A) for the following launches: launch i
   (counted from this call, any kernel) runs with thread slot p as logical thread perm[i][p]
   (len[i] threads: the launch's grid x block), or unchanged if perm[i] is NULL; launches
   past n run unchanged. Each perm[i] given must be a permutation of 0 .. len[i] - 1 (len[i]
   from 1 to 2^32 - 1): anything else is refused now with GS_ERR_INVALID_VALUE naming the
   launch and the slot. The arrays stay the caller's, unchanged, until the launches ran. The
   kernel is rewritten once (refused: shared memory, barriers, warp-level operations, %laneid/%warpid;
   under vtw != off); D[] is copied to device memory for each launch. */
int  gs_redirect(struct gs_gpu *gpu, const uint32_t *const *perm, const uint64_t *len, unsigned n);

/* gs_kernel_stats, gs_total_stats, gs_reset_stats: with a NULL gpu the statistics are all
   zero and nothing is reset (they return nothing; gs_synchronize(NULL) is
   GS_ERR_INVALID_VALUE). */
void gs_kernel_stats(const struct gs_gpu *gpu, struct gs_stats *s);  /* last launch */
/* Registers per thread of the last launch in words: the number, its source (regs_source in the
   statistics: estimate, recorded, ptxas, override) and where it was found. */
const char *gs_regs_note(const struct gs_gpu *gpu);
void gs_total_stats(const struct gs_gpu *gpu, struct gs_stats *s);   /* since init */
void gs_reset_stats(struct gs_gpu *gpu);
/* Write statistics as a JSON object (each line prefixed by indent; host-time fields last, so
   that a comparison can drop them) or as a human-readable table. */
void gs_stats_json(const struct gs_stats *s, const char *indent, FILE *f);
void gs_stats_text(const struct gs_stats *s, FILE *f);
/* Add one TB to divergence bins: (hi - lo) / lo above 50, 25, 10, 5 %. */
void gs_count_divergence(uint64_t lo, uint64_t hi, uint64_t bins[4]);
/* Derived figures: SIMD lane utilisation (thread insns / (32 x warp insns)). */
double gs_lane_utilization(const struct gs_stats *s);

/* ---- for the CUDA runtime library (cuda/, docs/cuda.md) ---- */

/* Where PTX loaded as text (gs_load_ptx_text, gs_load_ptx_mem) looks for a register record:
   a FILE.res in `dir` whose ptx_fnv1a is the text's hash (docs/ptx.md "Register counts").
   NULL or "" for none (the default). GS_OK, or GS_ERR_INVALID_VALUE for a name of 512
   characters or more. */
int  gs_set_res_dir(struct gs_gpu *gpu, const char *dir);
/* A module's .global or .const variable (declared at module scope, not .extern) by name: its
   device address and byte size (either pointer may be NULL). GS_OK, GS_ERR_NOT_FOUND, or
   GS_ERR_INVALID_VALUE for a null module or name. Sets no message (no GPU is named). */
int  gs_module_var(const struct gs_module *mod, const char *name, uint64_t *addr,
                   uint64_t *size);
/* What a launch of `kernel` uses (the kernel is linked, and under vtw != off transformed, as
   by its first launch): registers per thread and their source (0 estimate, 1 recorded,
   2 ptxas, 3 override), static shared memory per CTA, local memory per thread, the largest
   block a launch may have (max_threads_per_cta, .reqntid/.maxntid, and what the registers and
   static shared memory leave on one SM, a multiple of 32 below the configuration's; 0 when
   no block fits) and the parameter count. */
struct gs_kernel_attr {
    uint32_t regs, regs_source, shared_static, local_per_thread, max_threads, nparams;
};
int  gs_kernel_attr(struct gs_gpu *gpu, struct gs_module *mod, const char *kernel,
                    struct gs_kernel_attr *attr);
/* The CTAs of `threads` threads with dyn_smem bytes of dynamic shared memory one SM holds
   for `kernel` (the occupancy a launch's statistics report; 0 when one CTA does not fit) and
   the limit that decides it ("threads", "CTAs", "registers", "shared memory", ... as
   the statistics name it; may be NULL).
   GS_ERR_INVALID_VALUE for threads 0 or above max_threads_per_cta. */
int  gs_kernel_occupancy(struct gs_gpu *gpu, struct gs_module *mod, const char *kernel,
                         uint32_t threads, uint32_t dyn_smem, uint32_t *ctas,
                         const char **limit);
/* Device-side printf (PTX vprintf; docs/cuda.md "Device printf"): where the output of the
   following launches goes, stdout unless set, NULL to discard it. A launch's output is written
   (and out flushed) when the launch ends, faulted or not, sorted by CTA, warp, the thread's
   call count and lane (model/func/devprintf.h). GS_OK, or GS_ERR_INVALID_VALUE for a NULL gpu. */
int  gs_set_printf(struct gs_gpu *gpu, FILE *out);
/* Device memory: bytes in live allocations and the capacity (dram_bytes); 0 without a GPU. */
void gs_mem_info(const struct gs_gpu *gpu, uint64_t *used, uint64_t *total);
/* 1 when [addr, addr + bytes) (bytes 0: the byte at addr) lies inside one live device
   allocation (module variables included), else 0. */
int  gs_device_range(const struct gs_gpu *gpu, uint64_t addr, uint64_t bytes);
/* Statistics as CSV: the header line, and one row; the columns are the JSON keys of
   gs_stats_json but the per-SM arrays, an array or object one column per element (KEY_I or
   KEY_NAME), the same for every launch and model (timing columns 0 in functional mode). */
void gs_stats_csv_header(FILE *f);
void gs_stats_csv_row(const struct gs_stats *s, FILE *f);

/* Per-launch statistics of a host program that launches by itself (gpusim run --launches):
   fn(gpu, kernel, dyn_smem, status, arg) is called at the end of every launch the model ran,
   faulted or not (a launch it refused before running is not), with gs_kernel_stats giving
   that launch's statistics. fn NULL: none (the default); a NULL gpu is ignored. */
typedef void gs_launch_fn(struct gs_gpu *gpu, const char *kernel, uint32_t dyn_smem,
                          int status, void *arg);
void gs_on_launch(struct gs_gpu *gpu, gs_launch_fn *fn, void *arg);

#endif
