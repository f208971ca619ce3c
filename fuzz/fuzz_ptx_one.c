/*
 * fuzz_ptx_one.c -- one fuzz input through the PTX path, exactly as a host program takes it:
 * gs_load_ptx_mem (the parser on the raw bytes, no terminator, as gs_load_ptx does with a
 * file's), then for each of the first FZ_KERNELS kernels gs_launch, which links it, builds its
 * control flow and post-dominators and runs it -- once on the functional model and once on the
 * timing model.
 *
 * Bounds (an input takes one to a few milliseconds unsanitized, and none may run away):
 *   - one CTA of FZ_THREADS threads (two warps), 256 bytes of dynamic shared memory, on a GPU
 *     of one SM with 4 warp slots and one DRAM channel with one L2 slice (setting up the
 *     memory system is most of a short timing launch, and it grows with the slices);
 *   - arguments from the kernel's parameter list (gs_kernel_params): an 8-byte parameter gets
 *     the address of its own FZ_BUF_BYTES device buffer (zeroed), a 4-, 2- or 1-byte one the
 *     constant FZ_SMALL, any other size zero bytes; a kernel with more than FZ_PARAMS
 *     parameters or more than CUDA's 4 KB of them is not launched;
 *   - the watchdogs of docs/config.md: max_warp_insns = 2048 warp instructions per launch
 *     (which bounds the functional run; its max_warp_age setting is not read there);
 *     max_warp_age = 3000 cycles without a warp making progress (timing; about half the
 *     bench kernels finished within 3000 cycles of a warp's start under the earlier rule, the
 *     others were stopped; a longer bound costs time in proportion); watchdog_cycles =
 *     2000 cycles without an issue; dram_bytes = 4 MiB bounds the module's variables;
 *   - regs_source = estimate: ptxas is never run on a fuzz input;
 *   - device printf's output is discarded (gs_set_printf(NULL); each call is still formatted
 *     and checked).
 * The timing run's mechanism (scheduler, stack, DWS, VT, VTW) is one of `variants`, chosen by
 * a hash of the input so that an input always runs the same way. Every gs_* call must return
 * GS_OK or an error status with a message; anything else counts against the input.
 * FUZZ_PTX_VERBOSE=1 in the environment prints why a launch failed (a seed that should run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_one.h"
#include "gpu/gpusim.h"
#include "ptx/ptx_res.h"

#define FZ_KERNELS   4            /* kernels launched per module */
#define FZ_PARAMS    64           /* parameters synthesized at most */
#define FZ_PARAM_MAX 4096         /* bytes of parameters in all (CUDA's limit) */
#define FZ_THREADS   64
#define FZ_BUF_BYTES 4096
#define FZ_SMALL     16

static const char *const base_sets[] = {
    "regs_source=estimate", "num_sms=1", "max_warps_per_sm=4", "max_threads_per_cta=128",
    "max_ctas_per_sm=2", "dram_channels=1", "l2_slices_per_channel=1", "dram_bytes=4M",
    "max_warp_insns=2048", "watchdog_cycles=2000",
};
#define NBASE (int)(sizeof base_sets / sizeof base_sets[0])

static const char *const functional_sets[] = { "model=functional", "max_warp_age=2048" };

/* The timing run's mechanism: each row completes base_sets. */
static const char *const variants[][3] = {
    { "model=timing", "max_warp_age=3000", NULL },
    { "model=timing", "max_warp_age=3000", "sched_policy=lrr" },
    { "model=timing", "max_warp_age=3000", "simt_policy=ipdom" },
    { "model=timing", "max_warp_age=3000", "sched_policy=twolevel" },
    { "model=timing", "max_warp_age=3000", "dws=branch" },
    { "model=timing", "max_warp_age=3000", "vt=on" },
    { "model=timing", "max_warp_age=3000", "vtw=sw" },
    { "model=timing", "max_warp_age=3000", "vtw=hw" },
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static struct fuzz_ptx_count counts;

void fuzz_ptx_counts(struct fuzz_ptx_count *out)
{
    *out = counts;
}

/* A call's outcome: 0 when it succeeded or failed with a known status and a message. */
static int unclean(const struct gs_gpu *g, int rc, const char *what)
{
    const char *msg = gs_last_error(g);
    if (rc == 0 || (rc > 0 && rc < GS_ERR_COUNT && msg && msg[0]))
        return 0;
    fprintf(stderr, "fuzz_ptx: %s returned %d (%s) with message \"%s\"\n", what, rc,
            gs_status_name(rc), msg ? msg : "(null)");
    return 1;
}

/* Arguments for kernel k: see the header. 0 with *nargs set, or 1 when it is not launched. */
static int make_args(struct gs_gpu *g, struct gs_module *m, const char *k, struct gs_arg *args,
                     uint64_t *ptrs, int *nargs)
{
    static const uint8_t zero[FZ_PARAM_MAX];
    static const uint32_t small = FZ_SMALL;   /* little-endian: its low bytes are FZ_SMALL too */
    size_t sizes[FZ_PARAMS], total = 0;
    int i, n = gs_kernel_params(m, k, sizes, FZ_PARAMS);
    if (n < 0 || n > FZ_PARAMS)
        return 1;
    for (i = 0; i < n; i++)
        total += sizes[i];
    if (total > FZ_PARAM_MAX)
        return 1;
    for (i = 0; i < n; i++) {
        args[i] = (struct gs_arg){ zero, sizes[i] };
        if (sizes[i] == 8) {
            if (gs_malloc(g, &ptrs[i], FZ_BUF_BYTES) != GS_OK ||
                gs_memset(g, ptrs[i], 0, FZ_BUF_BYTES) != GS_OK)
                return 1;
            args[i].ptr = &ptrs[i];
        } else if (sizes[i] == 4 || sizes[i] == 2 || sizes[i] == 1) {
            args[i].ptr = &small;
        }
    }
    *nargs = n;
    return 0;
}

/* Launch kernel k bounded (one CTA); the count of unclean outcomes. */
static int launch(struct gs_gpu *g, struct gs_module *m, const char *k)
{
    struct gs_arg args[FZ_PARAMS];
    uint64_t ptrs[FZ_PARAMS];
    int nargs, rc;
    if (make_args(g, m, k, args, ptrs, &nargs))
        return 0;
    counts.launches++;
    rc = gs_launch(g, m, k, (struct gs_dim3){1, 1, 1}, (struct gs_dim3){FZ_THREADS, 1, 1}, 256,
                   args, nargs);
    counts.launch_ok += rc == GS_OK;
    if (rc != GS_OK && getenv("FUZZ_PTX_VERBOSE"))
        fprintf(stderr, "fuzz_ptx: %s: %.300s\n", k, gs_last_error(g));
    return unclean(g, rc, "gs_launch") + unclean(g, gs_synchronize(g), "gs_synchronize");
}

/* The whole path on one GPU configured by base_sets + extra (n of them, NULLs skipped). */
static int run_on(const uint8_t *data, size_t size, const char *const *extra, int n)
{
    const char *sets[NBASE + 4];
    char err[512];
    struct gs_gpu *g;
    struct gs_module *m;
    const char *k;
    int i, nsets = 0, bad, rc;
    for (i = 0; i < NBASE; i++)
        sets[nsets++] = base_sets[i];
    for (i = 0; i < n; i++)
        if (extra[i])
            sets[nsets++] = extra[i];
    if (gs_init(&g, NULL, sets, nsets, err, sizeof err) != GS_OK) {
        fprintf(stderr, "fuzz_ptx: the harness's configuration is refused: %s\n", err);
        return 1;
    }
    gs_set_printf(g, NULL);           /* device printf: formatted and checked, not printed */
    rc = gs_load_ptx_mem(g, (const char *)data, size, "fuzz.ptx", &m);
    bad = unclean(g, rc, "gs_load_ptx_mem");
    if (rc == GS_OK) {
        counts.loaded++;
        for (i = 0; i < FZ_KERNELS && (k = gs_kernel_name(m, (unsigned)i)) != NULL; i++)
            bad += launch(g, m, k);
    }
    gs_destroy(g);
    return bad;
}

int fuzz_ptx_one(const uint8_t *data, size_t size)
{
    const char *const *v = variants[ptx_res_hash((const char *)data, size) % NVARIANTS];
    int bad;
    counts.inputs++;
    bad = run_on(data, size, functional_sets, 2);
    return bad + run_on(data, size, v, 3);
}
