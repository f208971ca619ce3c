/*
 * test_sm.c -- the SM top driven directly (one SM, a memory that answers every line after a
 * fixed delay):
 *   - contexts apart from slots: a phantom context holds context 0, so the CTA's warps run in
 *     slots 0, 1 with contexts 1, 2; results are right, loads and writebacks reach the right
 *     registers, the phantom's registers are untouched;
 *   - the late-write port: an instruction marked late reserves its destination, asks for the
 *     value, and the dependent instructions wait until the value arrives and use it; a late
 *     value for a context that is not resident is dropped;
 *   - every finished warp's exit reaches the barrier unit and every completed CTA reaches the
 *     statistics, however many in one cycle (white-box: the retire step with five finishing
 *     warps and three quiet CTAs in one cycle);
 *   - a block's error output stops the run naming the block, the SM and the cycle;
 *   - the CTA ready port counts residency;
 * the whole GPU on a kernel whose warps return early while the others meet at
 * __syncthreads (it deadlocked when the barrier unit never learned of exits), also with 128
 * resident warps on one SM (slot masks wider than 64 bits) and 1, 2 or 4 schedulers;
 * a kernel naming a register past the SM's 16-bit register numbers is refused at launch (the
 * functional model runs it).
 */
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "func/gmem.h"
#include "gpu/gpusim.h"
#include "ptx/flow.h"
#include "ptx/ptx.h"
#include "sm/sm.h"
#include "sm/sm_limits.h"

static const char *kernel =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n"
    "  mov.u32 %r3, 7;\n"                       /* pc 6: the late instruction */
    "  add.u32 %r4, %r2, %r3;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r4;\n"
    "  exit;\n}\n";
#define LATE_PC 6
#define NTHREADS 64
#define DELAY 30

static struct gs_stats st;

struct h {
    struct gpu_config conf;
    struct ptx_module mod;
    struct ptx_prog prog;
    struct flow flow;
    struct gmem gm;
    uint8_t params[16];
    uint64_t in, out;
    struct sm s;
    struct sm_io io;
    struct sm_tb tbs[SM_MAX_CTAS];
    struct mem_req pend[64];
    uint64_t due[64];
    unsigned npend;
    struct sm_late_req lreq[8];
    unsigned nlreq;
};

static void h_init(struct h *h, int phantom)
{
    char err[512];
    struct sm_params p;
    uint32_t *in;
    memset(h, 0, sizeof *h);
    conf_defaults(&h->conf);
    assert_int_equal(ptx_parse(kernel, strlen(kernel), "k.ptx", &h->mod, err, sizeof err), 0);
    assert_int_equal(ptx_link(&h->mod, "k", &h->prog, err, sizeof err), 0);
    assert_int_equal(flow_build(&h->prog, &h->flow, err, sizeof err), 0);
    gm_init(&h->gm, 1u << 20);
    assert_int_equal(gm_alloc(&h->gm, NTHREADS * 4, &h->in), 0);
    assert_int_equal(gm_alloc(&h->gm, NTHREADS * 4, &h->out), 0);
    in = (uint32_t *)gm_ptr(&h->gm, h->in, NTHREADS * 4);
    for (int i = 0; i < NTHREADS; i++)
        in[i] = 1000u * (uint32_t)i;
    memcpy(h->params, &h->in, 8);
    memcpy(h->params + 8, &h->out, 8);
    memset(&p, 0, sizeof p);
    p.conf = &h->conf; p.prog = &h->prog; p.flow = &h->flow; p.gmem = &h->gm;
    p.params = h->params;
    p.grid = (struct gs_dim3){ 1, 1, 1 };
    p.block = (struct gs_dim3){ NTHREADS, 1, 1 };
    p.cta_limit = 2;
    p.spill_base = sm_spill_base(0);
    p.local_base = sm_local_base(0);
    assert_int_equal(sm_init(&h->s, &p, &st, err, sizeof err), 0);
    if (phantom)
        h->s.ctx[0].valid = 1;                   /* context 0 taken: contexts != slots */
}

static void h_free(struct h *h)
{
    sm_free(&h->s);
    flow_free(&h->flow);
    ptx_prog_free(&h->prog);
    ptx_module_free(&h->mod);
    gm_destroy(&h->gm);
}

/* One cycle: the memory answers each line DELAY cycles after it left (stores need no
   answer); late requests are collected. Returns sm_cycle's result. */
static int h_cycle(struct h *h, uint64_t now, uint32_t *ntbs)
{
    int rc;
    h->io.fill_valid = 0;
    for (unsigned i = 0; i < h->npend; i++)
        if (h->due[i] <= now) {
            h->io.fill_valid = 1;
            h->io.fill = h->pend[i];
            h->pend[i] = h->pend[--h->npend];
            h->due[i] = h->due[h->npend];
            break;
        }
    h->io.icnt_ready = 1;
    rc = sm_cycle(&h->s, now, &h->io, h->tbs, ntbs);
    if (h->io.miss_valid && h->io.miss.kind != MK_STORE && h->npend < 64) {
        h->pend[h->npend] = h->io.miss;
        h->due[h->npend++] = now + DELAY;
    }
    if (h->io.late_req.v && h->nlreq < 8)
        h->lreq[h->nlreq++] = h->io.late_req;
    h->io.late.v = 0;
    return rc;
}

static void run_late(int phantom)
{
    struct h *h = calloc(1, sizeof *h);
    uint32_t n, *out;
    uint64_t now;
    int answered = 0;
    h_init(h, phantom);
    h->s.dec[LATE_PC].late = 1;
    assert_int_equal(h->prog.insns[LATE_PC].op, OP_MOV);
    if (phantom)
        for (size_t i = 0; i < h->prog.nregs * EX_WARP; i++)
            h->s.regs[i] = 0x5A5A;               /* the phantom context's registers */
    assert_int_equal(sm_launch_cta(&h->s, 0, 0), 0);
    for (now = 0; now < 5000 && (now < 10 || sm_busy(&h->s)); now++) {
        if (now == 300) {                        /* a value for a context not resident */
            h->io.late = (struct sm_late){ .v = 1, .vwi = 40, .reg = 0, .mask = ~0u };
        } else if (now > 300 && answered < (int)h->nlreq && h->io.late_ready) {
            struct sm_late *l = &h->io.late;
            const struct ptx_insn *mov = &h->prog.insns[LATE_PC];
            memset(l, 0, sizeof *l);
            l->v = 1;
            l->vwi = h->lreq[answered].vwi;
            l->reg = (uint16_t)mov->opd[0].reg;
            l->mask = h->lreq[answered].mask;
            for (int k = 0; k < 32; k++)
                l->val[k] = 42;
            answered++;
        }
        assert_int_equal(h_cycle(h, now, &n), 0);
        if (now < 300) {
            assert_int_equal(h->s.s.warp_insns < 2 * 11, 1);   /* the adds wait for the value */
            for (unsigned c = 0; c < 2; c++)
                assert_int_equal(h->s.ctx[c + !!phantom].valid, 1);
        }
    }
    assert_false(sm_busy(&h->s));
    assert_int_equal(h->nlreq, 2);
    assert_int_equal(h->lreq[0].vwi, phantom ? 1 : 0);
    assert_int_equal(h->lreq[1].vwi, phantom ? 2 : 1);
    out = (uint32_t *)gm_ptr(&h->gm, h->out, NTHREADS * 4);
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(out[i], 1000u * (uint32_t)i + 42u);
    if (phantom)
        for (size_t i = 0; i < h->prog.nregs * EX_WARP; i++)
            assert_int_equal(h->s.regs[i], 0x5A5A);
    h_free(h);
    free(h);
}

static void test_late_write(void **state)
{
    (void)state;
    memset(&st, 0, sizeof st);
    run_late(0);
}

static void test_contexts_apart_from_slots(void **state)
{
    (void)state;
    memset(&st, 0, sizeof st);
    run_late(1);
}

/* An SM offered a CTA it has no room for refuses it (-1) rather than dropping it silently:
   the GPU top then stops the run naming the SM and the CTA (gpu.c dispatch). */
static void test_launch_no_room(void **state)
{
    struct h *h = calloc(1, sizeof *h);
    unsigned ok = 0;
    int refused = 0;
    (void)state;
    memset(&st, 0, sizeof st);
    h_init(h, 0);
    h->s.nwarps_per_cta = 1;
    for (unsigned c = 0; c < 2 * SM_MAX_CTAS && !refused; c++) {
        int rc = sm_launch_cta(&h->s, c, 0);
        ok += rc == 0;
        refused = rc != 0;
    }
    assert_true(refused);
    assert_int_equal(ok, h->s.nctas);
    assert_int_equal(slot_count((slotmask)h->s.cta_valid), h->s.nctas);
    h_free(h);
    free(h);
}

/* Five warps of one CTA finish in one cycle and three CTAs become quiet in the same cycle:
   all five exits reach bar's port, all three TBs reach the statistics. */
static void test_retire_all(void **state)
{
    struct h *h = calloc(1, sizeof *h);
    uint32_t ntbs = 0;
    (void)state;
    memset(&st, 0, sizeof st);
    h_init(h, 0);
    h->s.p.cta_limit = 8;
    h->s.nwarps_per_cta = 1;
    for (int c = 0; c < 7; c++)
        assert_int_equal(sm_launch_cta(&h->s, (uint64_t)c, 0), 0);
    h->s.launch_pending = 0;
    h->s.ctas[0].nwarps = 1;
    for (int w = 0; w < 5; w++)                  /* warps in slots 2..6: CTAs 2..6 */
        h->s.simt_o->fin |= (uint64_t)1 << (w + 2);
    h->s.iss_o->quiet = ~0ull;
    sm_retire(&h->s, 10, h->tbs, &ntbs);
    assert_int_equal(slot_count((slotmask)h->s.io.bar.exit_ctas), 5);
    for (int c = 2; c < 7; c++)
        assert_int_equal(h->s.io.bar.exit_mask[c], 1);
    assert_int_equal(ntbs, 5);                   /* five 1-warp CTAs completed at once */
    assert_int_equal(st.ctas, 5);
    assert_int_equal(h->s.nctas_res, 2);
    h_free(h);
    free(h);
}

/* A block's error output stops the run: a SIMT update for a slot beyond its warps. */
static void test_block_error_stops(void **state)
{
    struct h *h = calloc(1, sizeof *h);
    uint32_t n;
    (void)state;
    memset(&st, 0, sizeof st);
    h_init(h, 0);
    assert_int_equal(sm_launch_cta(&h->s, 0, 0), 0);
    assert_int_equal(h_cycle(h, 0, &n), 0);
    h->s.upd_latch[0] = (struct simt_upd){ .v = 1, .slot = 60, .kind = SIMT_NORMAL };
    assert_int_equal(h_cycle(h, 1, &n), -1);
    tu_assert_contains(h->s.err, "SM 0 cycle 1: block simt reported error 0x01");
    h_free(h);
    free(h);
}

/* cta_ready: residency counted by the SM, a CTA completing this cycle still counts. */
static void test_ready_port(void **state)
{
    struct h *h = calloc(1, sizeof *h);
    (void)state;
    memset(&st, 0, sizeof st);
    h_init(h, 0);
    h->s.p.cta_limit = 1;
    assert_true(sm_can_launch(&h->s));
    assert_int_equal(sm_launch_cta(&h->s, 0, 0), 0);
    assert_false(sm_can_launch(&h->s));
    h->s.nctas_res = 0;                          /* as if it completed in this cycle */
    h->s.ndone = 1;
    assert_false(sm_can_launch(&h->s));
    h->s.ndone = 0;
    h->s.used = 0;
    for (unsigned x = 0; x < h->s.nctx; x++)
        h->s.ctx[x].valid = 0;
    assert_true(sm_can_launch(&h->s));
    h_free(h);
    free(h);
}

/* early_exit_barrier on nctas CTAs of 256 threads (warps past n return at once, the others
   meet at __syncthreads); checks the results, returns the cycles. */
static uint64_t run_early_exit(const char **set, int nset, unsigned nctas)
{
    struct gs_gpu *g;
    struct gs_module *mod;
    struct gs_stats ks;
    uint64_t din, dout;
    unsigned nthr = nctas * 256;
    int32_t *in = malloc(nthr * 4), *out = malloc(nthr * 4), n = 96;
    const struct gs_arg args[3] = { GS_ARG(din), GS_ARG(dout), GS_ARG(n) };
    char err[512];
    assert_non_null(in);
    assert_non_null(out);
    for (unsigned i = 0; i < nthr; i++)
        in[i] = (int32_t)i * 3;
    if (gs_init(&g, "configs/gtx480.cfg", set, nset, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    assert_int_equal(gs_load_ptx(g, "tests/data/ptx/early_exit_barrier.ptx", &mod), GS_OK);
    assert_int_equal(gs_malloc(g, &din, nthr * 4), GS_OK);
    assert_int_equal(gs_malloc(g, &dout, nthr * 4), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, din, in, nthr * 4), GS_OK);
    assert_int_equal(gs_memset(g, dout, 0xFF, nthr * 4), GS_OK);
    if (gs_launch(g, mod, "early_exit_barrier", (struct gs_dim3){ nctas, 1, 1 },
                  (struct gs_dim3){ 256, 1, 1 }, 0, args, 3) != GS_OK)
        fail_msg("%s: %s", set[0], gs_last_error(g));
    assert_int_equal(gs_memcpy_dtoh(g, out, dout, nthr * 4), GS_OK);
    for (unsigned b = 0; b < nctas; b++)
        for (int t = 0; t < 256; t++)
            assert_int_equal(out[b * 256 + t], t < n ? in[b * 256 + (t + 1) % n] : -1);
    gs_kernel_stats(g, &ks);
    gs_destroy(g);
    free(in);
    free(out);
    return ks.cycles;
}

/* Warps past n return at once, the others meet at __syncthreads: correct on both models. */
static void test_early_exit_barrier(void **state)
{
    static const char *models[] = { "model=timing", "model=functional" };
    (void)state;
    for (int m = 0; m < 2; m++)
        run_early_exit(&models[m], 1, 2);
}

/* The process's peak resident host memory so far, in bytes. */
static uint64_t rss_peak(void)
{
    struct rusage u;
    assert_int_equal(getrusage(RUSAGE_SELF, &u), 0);
    return (uint64_t)u.ru_maxrss << 10;
}

/* big_local (a 64 KB .local array, one word touched per thread) on 96 CTAs of 256 threads, 4
   SMs: every thread reads its word as 0 although earlier CTAs in the same contexts wrote it,
   and the host memory the launch holds follows the words touched. Before the models cleared
   only the span stored to, each SM's 48 contexts x 32 lanes x 64 KB were cleared at every
   CTA launch: 384 MB resident on 4 SMs (item 10 of the robustness issue); now ~ a page per
   lane. The bound, 64 MB, is 1/6 of the old figure and 2.5x the pages touched. Measured as
   the growth of the process's peak (the models free their memory at the launch's end), so
   this test runs first in the group. Under ASan (make san-test) only the results are
   checked: its shadow memory and redzones grow the peak too (68 MB seen). */
static void test_local_memory_follows_use(void **state)
{
    static const char *const models[] = { "model=timing", "model=functional" };
    (void)state;
    for (int m = 0; m < 2; m++) {
        const char *set[2] = { "num_sms=4", models[m] };
        struct gs_gpu *g;
        struct gs_module *mod;
        uint64_t dout, before = rss_peak();
        uint32_t nthr = 96 * 256, k = 8000, *out = malloc(nthr * 4);
        const struct gs_arg args[2] = { GS_ARG(dout), GS_ARG(k) };
        char err[512];
        assert_non_null(out);
        if (gs_init(&g, "configs/gtx480.cfg", set, 2, err, sizeof err) != GS_OK)
            fail_msg("%s", err);
        assert_int_equal(gs_load_ptx(g, "tests/data/ptx/big_local.ptx", &mod), GS_OK);
        assert_int_equal(gs_malloc(g, &dout, nthr * 4), GS_OK);
        if (gs_launch(g, mod, "big_local", (struct gs_dim3){ 96, 1, 1 },
                      (struct gs_dim3){ 256, 1, 1 }, 0, args, 2) != GS_OK)
            fail_msg("%s: %s", models[m], gs_last_error(g));
        uint64_t used = rss_peak() - before;
        assert_int_equal(gs_memcpy_dtoh(g, out, dout, nthr * 4), GS_OK);
        for (uint32_t i = 0; i < nthr; i++)
            assert_int_equal(out[i], i / 256 + 1);
        print_message("%s: peak resident memory grew %llu MB\n", models[m],
                      (unsigned long long)(used >> 20));
#ifndef __SANITIZE_ADDRESS__          /* ASan's shadow and redzones add their own pages */
        assert_true(used < (64ull << 20));
#endif
        gs_destroy(g);
        free(out);
    }
}

/* The process's address space now, bytes (/proc/self/statm). */
static uint64_t vm_size(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* huge_local (512 KB of local memory per thread; each thread stores to n words step bytes
   apart) on `ctas` CTAs of `threads`, in a child process whose address space is limited to
   what it has after loading the kernel plus `room` bytes (0: no limit). Returns the launch's status (-1:
   the child failed otherwise) with its message, or "wrong result", in msg. */
static int huge_local_limited(const char *const *set, int nset, uint32_t ctas, uint32_t threads,
                              uint32_t n, uint32_t step, uint64_t room, char *msg, size_t len)
{
    int fd[2], st = 0;
    char buf[1024] = "";
    ssize_t got = 0, k;
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {                       /* the child: no cmocka asserts, a line on the pipe */
        struct gs_gpu *g;
        struct gs_module *mod;
        uint64_t dout;
        uint32_t nthr = ctas * threads, *out = malloc((size_t)nthr * 4);
        const struct gs_arg args[3] = { GS_ARG(dout), GS_ARG(n), GS_ARG(step) };
        int rc = -1;
        close(fd[0]);
        if (out && gs_init(&g, "configs/gtx480.cfg", set, nset, buf, sizeof buf) == GS_OK &&
            gs_load_ptx(g, "tests/data/ptx/huge_local.ptx", &mod) == GS_OK &&
            gs_malloc(g, &dout, (uint64_t)nthr * 4) == GS_OK) {
            uint64_t lim = vm_size() + room;
            struct rlimit r = { lim, lim };
            if (room)
                setrlimit(RLIMIT_AS, &r);
            rc = gs_launch(g, mod, "huge_local", (struct gs_dim3){ ctas, 1, 1 },
                           (struct gs_dim3){ threads, 1, 1 }, 0, args, 3);
            snprintf(buf, sizeof buf, "%s", rc == GS_OK ? "" : gs_last_error(g));
            if (rc == GS_OK && gs_memcpy_dtoh(g, out, dout, (uint64_t)nthr * 4) == GS_OK)
                for (uint32_t i = 0; i < nthr; i++)
                    if (out[i] != n * (i / threads + 1))
                        snprintf(buf, sizeof buf, "wrong result");
        }
        if (write(fd[1], &rc, sizeof rc) != (ssize_t)sizeof rc ||
            write(fd[1], buf, strlen(buf)) < 0)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    int rc = -1;
    if (read(fd[0], &rc, sizeof rc) != (ssize_t)sizeof rc)
        rc = -1;
    while (got < (ssize_t)sizeof buf - 1 && (k = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += k;
    buf[got] = 0;
    close(fd[0]);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    snprintf(msg, len, "%s", buf);
    return rc;
}

/* Local memory is reserved as a kernel stores to it: a 512 KB-per-thread kernel whose threads
   store one word each runs in 1 GB more address space on the full gtx480 (720 resident warps:
   11.25 GB reserved up front before, "out of host memory for SM 1") and, functionally, a CTA
   of 1024 threads in 256 MB (16 GB up front before: "out of host memory for a CTA"). When
   its threads store to all of it, the launch stops with a message that says why: the bytes
   per thread, the resident threads and the keys that bound them. Under ASan, whose shadow
   memory needs the address space a limit takes away, the first two run without a limit. */
static void test_local_memory_reserved_lazily(void **state)
{
#ifdef __SANITIZE_ADDRESS__
    const uint64_t gb = 0, quarter = 0;
#else
    const uint64_t gb = 1ull << 30, quarter = 256ull << 20;
#endif
    const char *timing[] = { "model=timing" }, *func[] = { "model=functional" },
               *one[] = { "model=timing", "num_sms=1" };
    char msg[1024];
    (void)state;
    if (huge_local_limited(timing, 1, 90, 256, 1, 4, gb, msg, sizeof msg) != GS_OK || msg[0])
        fail_msg("timing, one word per thread: %s", msg);
    if (huge_local_limited(func, 1, 2, 1024, 1, 4, quarter, msg, sizeof msg) != GS_OK || msg[0])
        fail_msg("functional, one word per thread: %s", msg);
    for (int m = 0; m < 2 && gb; m++) {
        int rc = m ? huge_local_limited(func, 1, 1, 1024, 128, 4096, 96ull << 20, msg, sizeof msg)
                   : huge_local_limited(one, 2, 2, 256, 128, 4096, 96ull << 20, msg, sizeof msg);
        assert_int_equal(rc, GS_ERR_KERNEL);
        tu_assert_contains(msg, "local memory: out of host memory reserving 128 KB more for this "
                                "warp (the launch holds ");
        tu_assert_contains(msg, "the kernel's 524288 bytes per thread, reserved as threads store "
                                "to it, for up to ");
        tu_assert_contains(msg, "local_bytes_per_thread bounds the first, max_warps_per_sm x "
                                "num_sms the second");
        tu_assert_contains(msg, "(tests/data/ptx/huge_local.ptx:41)");
    }
}

/* A kernel that loops forever (one CTA of one warp) is stopped at the default settings: the
   timing model by max_warp_age (2 500 000 cycles without a warp making progress: under a
   second of host time), the functional model by max_spin_insns (8 000 000 warp instructions:
   0.3 s); the message names the warp, its CTA, (timing) its SM, the PC and the PTX line of the
   loop, and the key. With the keys at 0 the launch would run on (not run: it never ends). A
   GPU full of looping warps stops by max_spin_insns after about 4 s (docs/timing.md). Under
   ASan (4 s for the defaults there) the limits are a tenth and the message's figures are not
   compared. */
#ifdef __SANITIZE_ADDRESS__
#define RUNAWAY_SETS "max_warp_age=250000", "max_spin_insns=800000"
#define RUNAWAY_NSETS 3
#else
#define RUNAWAY_SETS NULL, NULL
#define RUNAWAY_NSETS 1
#endif
static void test_runaway(void **state)
{
    static const char *const models[] = { "model=timing", "model=functional" };
    static const char *const want[] = {
        "kernel runaway: runaway watchdog: 2500608 cycles (and 326130 warp instructions) without "
        "a warp storing, exiting or beginning a logical TB (max_warp_age = 2500000); warp 0 of CTA "
        "(0,0,0) on SM 0 spins: 326130 warp instructions since it started or last made "
        "progress, at PC 2 (tests/data/ptx/runaway.ptx:18) (if the kernel is only slow, raise "
        "max_warp_age; 0 turns it off)",
        "kernel runaway: PC 2 (tests/data/ptx/runaway.ptx:18) CTA (0,0,0) warp 0: runaway "
        "watchdog: 8000001 warp instructions without a warp storing, exiting or beginning a "
        "logical TB "
        "(max_spin_insns = 8000000); this warp spins: 8000001 warp instructions since it "
        "started or last made progress (if the kernel is only slow, raise max_spin_insns; 0 "
        "turns it off)" };
    (void)state;
    for (int m = 0; m < 2; m++) {
        const char *set[3] = { models[m], RUNAWAY_SETS };
        struct gs_gpu *g;
        struct gs_module *mod;
        uint64_t dout;
        const struct gs_arg args[1] = { GS_ARG(dout) };
        char err[512];
        if (gs_init(&g, "configs/gtx480.cfg", set, RUNAWAY_NSETS, err, sizeof err) != GS_OK)
            fail_msg("%s", err);
        assert_int_equal(gs_load_ptx(g, "tests/data/ptx/runaway.ptx", &mod), GS_OK);
        assert_int_equal(gs_malloc(g, &dout, 4), GS_OK);
        assert_int_not_equal(gs_launch(g, mod, "runaway", (struct gs_dim3){ 1, 1, 1 },
                                       (struct gs_dim3){ 32, 1, 1 }, 0, args, 1), GS_OK);
        if (RUNAWAY_NSETS == 1)
            assert_string_equal(gs_last_error(g), want[m]);
        tu_assert_contains(gs_last_error(g), m ? "(tests/data/ptx/runaway.ptx:18) CTA (0,0,0) "
                                                 "warp 0: runaway watchdog: "
                                               : "; warp 0 of CTA (0,0,0) on SM 0 spins: ");
        tu_assert_contains(gs_last_error(g), m ? "(max_spin_insns = " : "(max_warp_age = ");
        gs_destroy(g);
    }
}

/* One launch of runaway_bar (ctas CTAs of 64 threads: warp 0 waits at a barrier, warp 1
   loops `iters` times, 0 = for ever) under the given settings; the launch's status. */
static int run_runaway_bar(const char *const *set, int nset, uint32_t ctas, uint32_t iters,
                           char *msg, size_t len)
{
    struct gs_gpu *g;
    struct gs_module *mod;
    uint64_t dout;
    const struct gs_arg args[2] = { GS_ARG(dout), GS_ARG(iters) };
    char err[512];
    int rc;
    if (gs_init(&g, "configs/gtx480.cfg", set, nset, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    assert_int_equal(gs_load_ptx(g, "tests/data/ptx/runaway_bar.ptx", &mod), GS_OK);
    assert_int_equal(gs_malloc(g, &dout, 256), GS_OK);
    rc = gs_launch(g, mod, "runaway_bar", (struct gs_dim3){ ctas, 1, 1 },
                   (struct gs_dim3){ 64, 1, 1 }, 0, args, 2);
    snprintf(msg, len, "%s", rc == GS_OK ? "" : gs_last_error(g));
    gs_destroy(g);
    return rc;
}

/* One warp spins while its sibling waits at a barrier: the watchdog names the spinning warp
   (warp 1), its PC and the loop's line, in both models and under each mechanism that keeps
   warps apart from slots or rewrites the kernel, stopped by either key. (It named warp 0, the
   one at the barrier, in the timing model: the oldest of two warps started in the same
   cycle.) */
static void test_runaway_names_spinner(void **state)
{
    static const char *const mech[] = { "model=functional", "sched_policy=gto", "vt=on",
                                        "dws=branch", "vtw=hw", "vtw=sw" };
    static const char *const lim[][2] = {
        { "max_warp_age=20000", "max_spin_insns=0" },      /* by cycles (timing) */
        { "max_warp_age=0", "max_spin_insns=1000" },       /* by warp instructions */
    };
    (void)state;
    for (unsigned i = 0; i < sizeof mech / sizeof mech[0]; i++)
        for (unsigned j = i ? 0 : 1; j < 2; j++) {
            const char *set[3] = { lim[j][0], lim[j][1], mech[i] };
            char msg[1024];
            assert_int_not_equal(run_runaway_bar(set, 3, 2, 0, msg, sizeof msg), GS_OK);
            if (!strstr(msg, i ? "; warp 1 of CTA (0,0,0) on SM 0 spins: "
                               : "CTA (0,0,0) warp 1: runaway watchdog: ")
                || !strstr(msg, j ? "(max_spin_insns = 1000)" : "(max_warp_age = 20000)")
                || (!strstr(msg, "tests/data/ptx/runaway_bar.ptx:26)")
                    && !strstr(msg, "tests/data/ptx/runaway_bar.ptx:27)")
                    && !strstr(msg, "tests/data/ptx/runaway_bar.ptx:28)")))
                fail_msg("%s, %s: %s", mech[i], lim[j][j], msg);
        }
}

/* The defaults let a long but finite loop finish: warp 1 of one runaway_bar CTA loops for
   1.2 M cycles in the timing model (30 000 iterations: longer than any bench kernel at the
   default size goes without a warp making progress, soundloc's 0.78 M) and for 7.5 M warp
   instructions in the functional model (2.5 M iterations, just under max_spin_insns' 8 M).
   With limits of 20 000 the same loops stop. */
static void test_runaway_spares_finite(void **state)
{
    static const char *const models[] = { "model=timing", "model=functional" };
#ifdef __SANITIZE_ADDRESS__                /* a quarter: 2 s for the whole loops there */
    static const uint32_t iters[] = { 7500, 625000 };
#else
    static const uint32_t iters[] = { 30000, 2500000 };
#endif
    (void)state;
    for (int m = 0; m < 2; m++) {
        const char *set[3] = { models[m], "max_warp_age=20000", "max_spin_insns=20000" };
        char msg[1024];
        if (run_runaway_bar(set, 1, 1, iters[m], msg, sizeof msg) != GS_OK)
            fail_msg("%s, the defaults: %s", models[m], msg);
        assert_int_not_equal(run_runaway_bar(set, 3, 1, iters[m], msg, sizeof msg), GS_OK);
        tu_assert_contains(msg, "runaway watchdog");
    }
}

/* A long loop that stores at every step makes progress (probe.c: a store or a reduction of
   some lane counts, as an exit does): with both limits at 20 000 it finishes in both models,
   every thread's last store its count, where the same limits stop runaway_bar's loop, which
   stores nothing. (Real applications' long kernels -- Rodinia's heartwall, ISPASS's LIB,
   docs/cuda.md -- were stopped when only exits counted.) */
static void test_runaway_spares_storing(void **state)
{
    static const char *const models[] = { "model=timing", "model=functional" };
    (void)state;
    for (int m = 0; m < 2; m++) {
        const char *set[3] = { models[m], "max_warp_age=20000", "max_spin_insns=20000" };
        struct gs_gpu *g;
        struct gs_module *mod;
        uint64_t dout;
        uint32_t iters = 20000, out[64];
        const struct gs_arg args[2] = { GS_ARG(dout), GS_ARG(iters) };
        char err[512];
        assert_int_equal(gs_init(&g, "configs/gtx480.cfg", set, 3, err, sizeof err), GS_OK);
        assert_int_equal(gs_load_ptx(g, "tests/data/ptx/runaway_store.ptx", &mod), GS_OK);
        assert_int_equal(gs_malloc(g, &dout, sizeof out), GS_OK);
        if (gs_launch(g, mod, "runaway_store", (struct gs_dim3){ 1, 1, 1 },
                      (struct gs_dim3){ 64, 1, 1 }, 0, args, 2) != GS_OK)
            fail_msg("%s: %s", models[m], gs_last_error(g));
        assert_int_equal(gs_memcpy_dtoh(g, out, dout, sizeof out), GS_OK);
        for (int i = 0; i < 64; i++)
            assert_int_equal(out[i], iters);
        gs_destroy(g);
    }
}

/* 16 CTAs of 8 warps on one SM: with max_warps_per_sm = 128 all 128 warps are resident at
   once (slots 64..127 in use), results are right for 1, 2 and 4 schedulers, and the launch
   takes fewer cycles than with 64 warps (two waves of 8 CTAs). */
static void test_128_warps(void **state)
{
    static const char *sched[] = { "schedulers_per_sm=1", "schedulers_per_sm=2",
                                   "schedulers_per_sm=4" };
    const char *set[] = { "num_sms=1", "max_ctas_per_sm=16", "regs_per_sm=131072",
                          "shared_per_sm=1048576", "max_warps_per_sm=128", NULL };
    (void)state;
    for (int k = 0; k < 3; k++) {
        uint64_t wide, narrow;
        set[5] = sched[k];
        wide = run_early_exit(set, 6, 16);
        set[4] = "max_warps_per_sm=64";
        narrow = run_early_exit(set, 6, 16);
        set[4] = "max_warps_per_sm=128";
        if (wide >= narrow)
            fail_msg("%s: %llu cycles with 128 warps, %llu with 64", sched[k],
                     (unsigned long long)wide, (unsigned long long)narrow);
    }
}

/* slotmask.h's inline popcounts against a bit-by-bit count: the edges and 10 000 LCG values
   (the slot masks' 128 bits included). */
static unsigned slow_pop(uint64_t x)
{
    unsigned n = 0;
    for (; x; x >>= 1)
        n += (unsigned)(x & 1u);
    return n;
}

static void test_bit_pop(void **state)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    (void)state;
    assert_int_equal(bit_pop64(0), 0);
    assert_int_equal(bit_pop64(~0ull), 64);
    assert_int_equal(bit_pop32(0xffffffffu), 32);
    assert_int_equal(slot_count(~(slotmask)0), 128);
    for (int i = 0; i < 10000; i++) {
        uint64_t y;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        y = x ^ (x << 17);
        assert_int_equal(bit_pop64(x), slow_pop(x));
        assert_int_equal(bit_pop32((uint32_t)x), slow_pop((uint32_t)x));
        assert_int_equal(slot_count((slotmask)x << 64 | y), slow_pop(x) + slow_pop(y));
    }
}

/* A kernel of 4 + nr + ns registers (%rd<4>, %r<nr>, %s<ns> when ns, in that order of
   numbers) into buf: out[tid] = 2 tid + 3 through the registers named a, b, c, d (a = tid,
   b = a + 1, c = b + 2, d = c + a). */
static void many_regs_ptx(char *buf, size_t len, unsigned nr, unsigned ns, const char *a,
                          const char *b, const char *c, const char *d)
{
    char sdecl[48] = "";
    if (ns)
        snprintf(sdecl, sizeof sdecl, "\t.reg .b32 %%s<%u>;\n", ns);
    snprintf(buf, len,
             ".version 7.0\n.target sm_75\n.address_size 64\n"
             ".visible .entry many(.param .u64 out)\n{\n"
             "\t.reg .b64 %%rd<4>;\n\t.reg .b32 %%r<%u>;\n%s"
             "\tld.param.u64 %%rd1, [out];\n"
             "\tcvta.to.global.u64 %%rd1, %%rd1;\n"
             "\tmov.u32 %s, %%tid.x;\n"
             "\tadd.s32 %s, %s, 1;\n"
             "\tadd.s32 %s, %s, 2;\n"
             "\tadd.s32 %s, %s, %s;\n"
             "\tmul.wide.u32 %%rd2, %s, 4;\n"
             "\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
             "\tst.global.u32 [%%rd3], %s;\n"
             "\tret;\n}\n", nr, sdecl, a, b, a, c, b, d, c, a, a, d);
}

/* The kernel of many_regs_ptx on one CTA of 64 threads with set: GS_OK and the results
   checked, or the launch's status with its message in msg. */
static int run_many_regs(const char *text, const char *set, char *msg, size_t msglen)
{
    struct gs_gpu *g;
    struct gs_module *mod;
    uint64_t dout;
    uint32_t out[64];
    const struct gs_arg args[1] = { GS_ARG(dout) };
    char err[512];
    int rc;
    if (gs_init(&g, "configs/gtx480.cfg", &set, 1, err, sizeof err) != GS_OK)
        fail_msg("%s", err);
    assert_int_equal(gs_load_ptx_text(g, text, "many.ptx", &mod), GS_OK);
    assert_int_equal(gs_malloc(g, &dout, sizeof out), GS_OK);
    rc = gs_launch(g, mod, "many", (struct gs_dim3){ 1, 1, 1 }, (struct gs_dim3){ 64, 1, 1 }, 0,
                   args, 1);
    snprintf(msg, msglen, "%s", rc == GS_OK ? "" : gs_last_error(g));
    if (rc == GS_OK) {
        assert_int_equal(gs_memcpy_dtoh(g, out, dout, sizeof out), GS_OK);
        for (uint32_t t = 0; t < 64; t++)
            assert_int_equal(out[t], 2 * t + 3);
    }
    gs_destroy(g);
    return rc;
}

/* Register numbers are 16 bits in the SM (SM_MAX_REG): a kernel naming register 65535 or
   above is refused at launch on the timing model, naming the kernel, the register, its
   number, the kernel's count and the limit; the functional model runs it. 70,000 registers
   (the chain through %s4463 = number 69999, %r65531 = 65535 -- the fields' "none" --, and
   %r4459, which 69999 folds onto in 16 bits): before, the timing model deadlocked and vtw = hw
   livelocked (VTW's registers come after the kernel's). 65,535 registers using number 65534
   run on the timing model; 65,536 using number 65535 are refused. */
static void test_many_registers(void **state)
{
    static char text[2048];
    char msg[1024];
    (void)state;
    many_regs_ptx(text, sizeof text, 65532, 4464, "%s4463", "%r65531", "%r4459", "%s4462");
    assert_int_equal(run_many_regs(text, "model=functional", msg, sizeof msg), GS_OK);
    assert_int_equal(run_many_regs(text, "model=timing", msg, sizeof msg), GS_ERR_LAUNCH);
    tu_assert_contains(msg, "kernel many: register %s4463 at PC 2 (many.ptx:11) is number 69999 "
                       "of the kernel's 70000; the timing model's SM keeps register numbers in "
                       "16 bits: at most 65535 registers (model = functional has no such limit)");
    assert_int_equal(run_many_regs(text, "vtw=hw", msg, sizeof msg), GS_ERR_LAUNCH);
    tu_assert_contains(msg, "at most 65535 registers");
    many_regs_ptx(text, sizeof text, 65531, 0, "%r65530", "%r65529", "%r65528", "%r65527");
    assert_int_equal(run_many_regs(text, "model=timing", msg, sizeof msg), GS_OK);
    many_regs_ptx(text, sizeof text, 65532, 0, "%r65531", "%r65529", "%r65528", "%r65527");
    assert_int_equal(run_many_regs(text, "model=timing", msg, sizeof msg), GS_ERR_LAUNCH);
    tu_assert_contains(msg, "register %r65531 at PC 2 (many.ptx:10) is number 65535 of the "
                       "kernel's 65536");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_memory_follows_use),   /* first: it measures the peak */
        cmocka_unit_test(test_local_memory_reserved_lazily),
        cmocka_unit_test(test_late_write),
        cmocka_unit_test(test_contexts_apart_from_slots),
        cmocka_unit_test(test_launch_no_room),
        cmocka_unit_test(test_retire_all),
        cmocka_unit_test(test_bit_pop),
        cmocka_unit_test(test_block_error_stops),
        cmocka_unit_test(test_ready_port),
        cmocka_unit_test(test_early_exit_barrier),
        cmocka_unit_test(test_128_warps),
        cmocka_unit_test(test_many_registers),
        cmocka_unit_test(test_runaway),
        cmocka_unit_test(test_runaway_names_spinner),
        cmocka_unit_test(test_runaway_spares_finite),
        cmocka_unit_test(test_runaway_spares_storing),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
