/*
 * test_gpu.c -- the host API and functional SIMT execution, on small hand-written PTX kernels:
 * memory calls and their errors, launch validation (argument sizes against the PTX), divergence
 * and reconvergence, barriers with static and dynamic shared memory, partial warps, 3-D indices,
 * out-of-bounds faults, the deadlock dump whole in gs_last_error, and malformed / unsupported
 * PTX through gs_load_ptx_text.
 */
#include "testutil.h"
#include "gpu/gpusim.h"

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"

static struct gs_gpu *gpu_new(void)
{
    struct gs_gpu *g = NULL;
    char err[256];
    assert_int_equal(gs_init(&g, NULL, NULL, 0, err, sizeof err), GS_OK);
    return g;
}

static struct gs_dim3 d3(uint32_t x, uint32_t y, uint32_t z)
{
    struct gs_dim3 d = { x, y, z };
    return d;
}

static void test_memory_calls(void **state)
{
    struct gs_gpu *g = gpu_new();
    uint64_t a, b;
    uint32_t in[64], out[64];
    int i;
    (void)state;
    for (i = 0; i < 64; i++)
        in[i] = (uint32_t)i * 7u;
    assert_int_equal(gs_malloc(g, &a, sizeof in), GS_OK);
    assert_int_equal(gs_malloc(g, &b, 100), GS_OK);
    assert_true(b >= a + sizeof in);
    assert_int_equal(gs_memcpy_htod(g, a, in, sizeof in), GS_OK);
    assert_int_equal(gs_memcpy_dtoh(g, out, a, sizeof out), GS_OK);
    assert_memory_equal(in, out, sizeof in);
    assert_int_equal(gs_memset(g, a, 0xFF, 8), GS_OK);
    assert_int_equal(gs_memcpy_dtoh(g, out, a, 8), GS_OK);
    assert_int_equal(out[0], 0xFFFFFFFFu);
    /* errors: out of range, size 0 malloc, free of a non-allocation, too large */
    assert_int_equal(gs_memcpy_htod(g, a, in, sizeof in + 4), GS_ERR_INVALID_VALUE);
    tu_assert_contains(gs_last_error(g), "is not inside one device allocation");
    assert_int_equal(gs_malloc(g, &b, 0), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_free(g, a + 4), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_malloc(g, &b, 1ull << 40), GS_ERR_OUT_OF_MEMORY);
    tu_assert_contains(gs_last_error(g), "cannot allocate");
    assert_int_equal(gs_free(g, a), GS_OK);
    assert_int_equal(gs_memcpy_dtoh(g, out, a, 4), GS_ERR_INVALID_VALUE);
    assert_int_equal(gs_memcpy_htod(g, a, NULL, 4), GS_ERR_INVALID_VALUE);
    gs_destroy(g);
}

/* out[g] = (g odd ? 3g : g + 100) + 2 * (g % 5), for g < n: an if/else and a per-thread loop. */
static const char *div_ptx = HDR
    ".visible .entry div(.param .u64 out, .param .u32 n)\n"
    "{\n .reg .pred %p<4>;\n .reg .b32 %r<10>;\n .reg .b64 %rd<5>;\n"
    " ld.param.u64 %rd1, [out];\n ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n"
    " mad.lo.s32 %r5, %r3, %r4, %r2;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
    " and.b32 %r6, %r5, 1;\n setp.eq.u32 %p2, %r6, 0;\n @%p2 bra EVEN;\n"
    " mul.lo.s32 %r7, %r5, 3;\n bra.uni JOIN;\nEVEN:\n add.s32 %r7, %r5, 100;\nJOIN:\n"
    " rem.u32 %r8, %r5, 5;\n mov.u32 %r9, 0;\nLOOP:\n setp.ge.u32 %p3, %r9, %r8;\n"
    " @%p3 bra LEND;\n add.s32 %r7, %r7, 2;\n add.s32 %r9, %r9, 1;\n bra.uni LOOP;\nLEND:\n"
    " cvta.to.global.u64 %rd2, %rd1;\n mul.wide.u32 %rd3, %r5, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r7;\nDONE:\n ret;\n}\n";

static void test_divergence_and_reconvergence(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    struct gs_stats st;
    uint64_t d;
    uint32_t n = 200, out[256], i;
    const struct gs_arg args[] = { GS_ARG(d), GS_ARG(n) };
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, div_ptx, "div.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, sizeof out), GS_OK);
    assert_int_equal(gs_memset(g, d, 0, sizeof out), GS_OK);
    assert_int_equal(gs_launch(g, m, "div", d3(4, 1, 1), d3(64, 1, 1), 0, args, 2), GS_OK);
    assert_int_equal(gs_memcpy_dtoh(g, out, d, sizeof out), GS_OK);
    for (i = 0; i < 256; i++) {
        uint32_t e = i >= n ? 0 : (i & 1 ? 3 * i : i + 100) + 2 * (i % 5);
        assert_int_equal(out[i], e);
    }
    gs_kernel_stats(g, &st);
    assert_int_equal(st.ctas, 4);
    assert_true(st.divergent_branches > 0);
    assert_true(st.thread_insns < 32 * st.warp_insns);
    assert_true(st.max_stack_depth >= 2 && st.max_stack_depth <= 4);
    gs_destroy(g);
}

/* On the timing model, div over 256 threads into d after `before` launches of div over 4096
   threads into e: the last launch's statistics (host time aside). */
static void div_after(int before, struct gs_stats *st)
{
    struct gs_gpu *g = NULL;
    struct gs_module *m;
    const char *sets[] = { "model=timing" };
    char err[256];
    uint64_t d, e;
    uint32_t n = 200, big = 4096;
    const struct gs_arg args[] = { GS_ARG(d), GS_ARG(n) }, eargs[] = { GS_ARG(e), GS_ARG(big) };
    assert_int_equal(gs_init(&g, NULL, sets, 1, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, div_ptx, "div.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &e, 4 * big), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 4 * 256), GS_OK);
    for (int i = 0; i < before; i++)
        assert_int_equal(gs_launch(g, m, "div", d3(64, 1, 1), d3(64, 1, 1), 0, eargs, 2), GS_OK);
    assert_int_equal(gs_memset(g, d, 0, 4 * 256), GS_OK);
    assert_int_equal(gs_launch(g, m, "div", d3(4, 1, 1), d3(64, 1, 1), 0, args, 2), GS_OK);
    gs_kernel_stats(g, st);
    st->host_seconds = 0;
    gs_destroy(g);
}

/* The memory system is kept from launch to launch and only what a launch touched is reset
   (gpu.c, memsys.c msys_reuse); SMs are set up at their first CTA. Neither may leak into the
   next launch: a launch after others has the statistics of the same launch on a new GPU. */
static void test_launch_independent_of_the_last(void **state)
{
    struct gs_stats fresh, after;
    (void)state;
    div_after(0, &fresh);
    div_after(2, &after);
    assert_true(fresh.cycles > 0);
    assert_memory_equal(&fresh, &after, sizeof fresh);
}

/* A module from bytes in memory (gs_load_ptx_mem: len bytes, nothing read past them, a NUL
   byte refused like any stray character) and its kernels and parameter sizes listed. */
static void test_module_from_memory_and_its_kernels(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    size_t n = strlen(div_ptx), sizes[4] = {0};
    char *bytes = malloc(n + 8);
    (void)state;
    memcpy(bytes, div_ptx, n);
    memcpy(bytes + n, "garbage", 8);       /* past len: never read */
    assert_int_equal(gs_load_ptx_mem(g, bytes, n, "div.ptx", &m), GS_OK);
    assert_string_equal(gs_kernel_name(m, 0), "div");
    assert_null(gs_kernel_name(m, 1));
    assert_int_equal(gs_kernel_params(m, "div", sizes, 1), 2);   /* the count, max written */
    assert_int_equal(sizes[0], 8);
    assert_int_equal(sizes[1], 0);
    assert_int_equal(gs_kernel_params(m, "div", sizes, 4), 2);
    assert_int_equal(sizes[1], 4);
    assert_int_equal(gs_kernel_params(m, "nodiv", sizes, 4), -1);
    bytes[n - 3] = 0;                       /* inside the closing lines */
    assert_int_equal(gs_load_ptx_mem(g, bytes, n, "nul.ptx", &m), GS_ERR_PTX);
    tu_assert_contains(gs_last_error(g), "nul.ptx");
    free(bytes);
    gs_destroy(g);
}

/* Partial warp (40 threads) and a 3-D block/grid: out[linear] = tid.x | tid.y<<8 | ... */
static const char *idx_ptx = HDR
    ".visible .entry idx(.param .u64 out)\n"
    "{\n .reg .b32 %r<16>;\n .reg .b64 %rd<5>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %tid.y;\n mov.u32 %r3, %tid.z;\n"
    " mov.u32 %r4, %ctaid.x;\n mov.u32 %r5, %ctaid.y;\n mov.u32 %r6, %ntid.x;\n"
    " mov.u32 %r7, %ntid.y;\n mov.u32 %r8, %nctaid.x;\n"
    " mad.lo.s32 %r9, %r3, %r7, %r2;\n mad.lo.s32 %r9, %r9, %r6, %r1;\n"   /* linear tid */
    " mad.lo.s32 %r10, %r5, %r8, %r4;\n mul.lo.s32 %r11, %r6, %r7;\n"
    " mov.u32 %r12, %ntid.z;\n mul.lo.s32 %r11, %r11, %r12;\n"
    " mad.lo.s32 %r13, %r10, %r11, %r9;\n"                                   /* global linear */
    " shl.b32 %r14, %r2, 8;\n or.b32 %r14, %r14, %r1;\n shl.b32 %r15, %r3, 16;\n"
    " or.b32 %r14, %r14, %r15;\n shl.b32 %r15, %r5, 24;\n or.b32 %r14, %r14, %r15;\n"
    " mul.wide.u32 %rd2, %r13, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r14;\n"
    " ret;\n}\n";

static void test_partial_warps_and_3d(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    uint64_t d;
    uint32_t out[2 * 3 * 40], x, y, z, cy, i = 0;
    const struct gs_arg args[] = { GS_ARG(d) };
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, idx_ptx, "idx.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, sizeof out), GS_OK);
    assert_int_equal(gs_launch(g, m, "idx", d3(1, 2, 1), d3(5, 4, 2), 0, args, 1), GS_OK);
    assert_int_equal(gs_memcpy_dtoh(g, out, d, 2 * 40 * 4), GS_OK);
    for (cy = 0; cy < 2; cy++)
        for (z = 0; z < 2; z++)
            for (y = 0; y < 4; y++)
                for (x = 0; x < 5; x++)
                    assert_int_equal(out[i++], x | y << 8 | z << 16 | cy << 24);
    gs_destroy(g);
}

/* Reverse each CTA's slice through static shared memory, then add the dynamic buffer's
   contents (written by the thread's mirror before the barrier). */
static const char *rev_ptx = HDR
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry rev(.param .u64 buf)\n"
    "{\n .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n .shared .align 4 .b8 s[1024];\n"
    " ld.param.u64 %rd1, [buf];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %ctaid.x;\n"
    " mad.lo.s32 %r4, %r3, %r2, %r1;\n mul.wide.u32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " ld.global.u32 %r5, [%rd3];\n mov.u32 %r6, s;\n shl.b32 %r7, %r1, 2;\n"
    " add.s32 %r8, %r6, %r7;\n st.shared.u32 [%r8], %r5;\n"
    " mov.u32 %r9, dyn;\n add.s32 %r9, %r9, %r7;\n st.shared.u32 [%r9], %r1;\n"
    " bar.sync 0;\n sub.s32 %r10, %r2, %r1;\n sub.s32 %r10, %r10, 1;\n shl.b32 %r10, %r10, 2;\n"
    " add.s32 %r11, %r6, %r10;\n ld.shared.u32 %r5, [%r11];\n"
    " mov.u32 %r9, dyn;\n add.s32 %r9, %r9, %r10;\n ld.shared.u32 %r11, [%r9];\n"
    " add.s32 %r5, %r5, %r11;\n st.global.u32 [%rd3], %r5;\n ret;\n}\n";

static void test_barrier_static_and_dynamic_shared(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    uint64_t d;
    uint32_t buf[3 * 96], out[3 * 96], i;
    const struct gs_arg args[] = { GS_ARG(d) };
    (void)state;
    for (i = 0; i < 3 * 96; i++)
        buf[i] = 1000 * i;
    assert_int_equal(gs_load_ptx_text(g, rev_ptx, "rev.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, sizeof buf), GS_OK);
    assert_int_equal(gs_memcpy_htod(g, d, buf, sizeof buf), GS_OK);
    assert_int_equal(gs_launch(g, m, "rev", d3(3, 1, 1), d3(96, 1, 1), 96 * 4, args, 1), GS_OK);
    assert_int_equal(gs_memcpy_dtoh(g, out, d, sizeof out), GS_OK);
    for (i = 0; i < 3 * 96; i++) {
        uint32_t c = i / 96, t = i % 96, mirror = 95 - t;
        assert_int_equal(out[i], buf[c * 96 + mirror] + mirror);
    }
    /* too little dynamic shared memory for the threads: an out-of-bounds shared store */
    assert_int_equal(gs_launch(g, m, "rev", d3(1, 1, 1), d3(96, 1, 1), 64, args, 1), GS_ERR_KERNEL);
    tu_assert_contains(gs_last_error(g), "out-of-bounds shared store");
    tu_assert_contains(gs_last_error(g), "thread (16,0,0)");
    gs_destroy(g);
}

static const char *oob_ptx = HDR
    ".visible .entry oob(.param .u64 p)\n"
    "{\n .reg .b32 %r<3>;\n .reg .b64 %rd<4>;\n ld.param.u64 %rd1, [p];\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r1;\n ret;\n}\n";

static void test_out_of_bounds_names_kernel_pc_cta_thread(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    uint64_t d;
    const struct gs_arg args[] = { GS_ARG(d) };
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, oob_ptx, "oob.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 16 * 4), GS_OK);
    assert_int_equal(gs_launch(g, m, "oob", d3(2, 1, 1), d3(32, 1, 1), 0, args, 1), GS_ERR_KERNEL);
    tu_assert_contains(gs_last_error(g), "kernel oob: PC 4 (oob.ptx:");
    tu_assert_contains(gs_last_error(g), "CTA (0,0,0) thread (16,0,0): out-of-bounds global store of 4 bytes");
    assert_int_equal(gs_synchronize(g), GS_ERR_KERNEL);
    gs_destroy(g);
}

static void test_launch_validation(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    uint64_t d;
    const struct gs_arg args[] = { GS_ARG(d) };
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, oob_ptx, "oob.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 4096), GS_OK);
    assert_int_equal(gs_launch(g, m, "nosuch", d3(1, 1, 1), d3(32, 1, 1), 0, args, 1), GS_ERR_NOT_FOUND);
    tu_assert_contains(gs_last_error(g), "no kernel (.entry) named 'nosuch'");
    assert_int_equal(gs_launch(g, m, "oob", d3(0, 1, 1), d3(32, 1, 1), 0, args, 1), GS_ERR_LAUNCH);
    tu_assert_contains(gs_last_error(g), "must be non-zero");
    assert_int_equal(gs_launch(g, m, "oob", d3(1, 1, 1), d3(2048, 1, 1), 0, args, 1), GS_ERR_LAUNCH);
    tu_assert_contains(gs_last_error(g), "exceeds max_threads_per_cta (1024)");
    assert_int_equal(gs_launch(g, m, "oob", d3(1, 1, 1), d3(32, 1, 1), 0, args, 2), GS_ERR_LAUNCH);
    tu_assert_contains(gs_last_error(g), "2 arguments given, the kernel takes 1");
    assert_int_equal(gs_launch(g, m, "oob", d3(1, 1, 1), d3(32, 1, 1), 64 * 1024, args, 1), GS_ERR_LAUNCH);
    tu_assert_contains(gs_last_error(g), "exceed max_shared_per_cta");
    assert_int_equal(gs_launch(g, m, "oob", d3(1, 1, 1), d3(32, 1, 1), 0, args, 1), GS_OK);
    gs_destroy(g);
}

/* Each argument's size must be its PTX parameter's: a .u64 parameter given a 4-byte value
   (the launch would read 4 bytes past it) and a .u32 given 8 bytes are refused by name. */
static void test_argument_size_must_match_the_ptx(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    uint64_t d, wide = 200;
    uint32_t narrow = 0;
    const struct gs_arg to_u64[] = { GS_ARG(narrow) }, to_u32[] = { GS_ARG(d), GS_ARG(wide) };
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, oob_ptx, "oob.ptx", &m), GS_OK);
    assert_int_equal(gs_launch(g, m, "oob", d3(1, 1, 1), d3(32, 1, 1), 0, to_u64, 1), GS_ERR_LAUNCH);
    tu_assert_contains(gs_last_error(g), "launch oob: argument 0 (p): the PTX parameter has 8 "
                       "bytes, 4 given");
    assert_int_equal(gs_load_ptx_text(g, div_ptx, "div.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 1024), GS_OK);
    assert_int_equal(gs_launch(g, m, "div", d3(1, 1, 1), d3(32, 1, 1), 0, to_u32, 2), GS_ERR_LAUNCH);
    tu_assert_contains(gs_last_error(g), "launch div: argument 1 (n): the PTX parameter has 4 "
                       "bytes, 8 given");
    assert_int_equal(gs_synchronize(g), GS_ERR_LAUNCH);
    gs_destroy(g);
}

/* The watchdog's dump reaches gs_last_error whole: 32 warps of 4 CTAs on one SM, stopped
   while they wait for their first instructions (watchdog_cycles = 40), make about 5 KB, the
   last warp's line included. */
static void test_deadlock_dump_is_whole(void **state)
{
    static const char *sets[] = { "num_sms=1", "watchdog_cycles=40" };
    struct gs_gpu *g;
    struct gs_module *m;
    char err[256];
    uint64_t d;
    uint32_t n = 1024;
    const struct gs_arg args[] = { GS_ARG(d), GS_ARG(n) };
    (void)state;
    assert_int_equal(gs_init(&g, NULL, sets, 2, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, div_ptx, "div.ptx", &m), GS_OK);
    assert_int_equal(gs_malloc(g, &d, 4 * n), GS_OK);
    assert_int_equal(gs_launch(g, m, "div", d3(4, 1, 1), d3(256, 1, 1), 0, args, 2), GS_ERR_KERNEL);
    tu_assert_contains(gs_last_error(g), "kernel div: deadlock: no instruction issued for 40 cycles");
    tu_assert_contains(gs_last_error(g), "\n  slot 31 context 31 CTA 3 warp 7: pc 0 ");
    assert_true(strlen(gs_last_error(g)) > 4096);
    gs_destroy(g);
}

/* A module with more global variables than the model keeps allocations (4096) is refused with
   that reason, naming the first variable that did not fit -- it used to blame the device
   memory (robustness item 8; its message was also formatted into its own buffer). */
static void test_too_many_globals(void **state)
{
    size_t cap = 5000 * 32 + 256, n = 0;
    char *ptx = malloc(cap), err[256];
    struct gs_gpu *g;
    struct gs_module *m;
    (void)state;
    assert_non_null(ptx);
    n += (size_t)snprintf(ptx + n, cap - n, ".version 7.0\n.target sm_70\n.address_size 64\n");
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(ptx + n, cap - n, ".global .u32 g%d;\n", i);
    snprintf(ptx + n, cap - n, ".visible .entry k()\n{\n\tret;\n}\n");
    assert_int_equal(gs_init(&g, NULL, NULL, 0, err, sizeof err), GS_OK);
    assert_int_equal(gs_load_ptx_text(g, ptx, "many.ptx", &m), GS_ERR_OUT_OF_MEMORY);
    tu_assert_contains(gs_last_error(g), "many.ptx: variable 'g4096': gs_malloc: cannot "
                       "allocate 4 bytes: 4096 allocations are live");
    assert_null(strstr(gs_last_error(g), "device memory"));
    gs_destroy(g);
    free(ptx);
}

static void test_bad_ptx_through_the_api(void **state)
{
    struct gs_gpu *g = gpu_new();
    struct gs_module *m;
    (void)state;
    assert_int_equal(gs_load_ptx_text(g, HDR ".visible .entry k()\n{\n tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [t, {%f5,%f6}];\n ret;\n}\n",
                                      "tex.ptx", &m), GS_ERR_PTX);
    tu_assert_contains(gs_last_error(g), "tex.ptx:6: unsupported PTX instruction 'tex.2d.v4.f32.f32'");
    assert_int_equal(gs_load_ptx_text(g, HDR ".visible .entry k()\n{\n bra NOWHERE;\n ret;\n}\n",
                                      "lbl.ptx", &m), GS_ERR_PTX);
    tu_assert_contains(gs_last_error(g), "lbl.ptx:6: undefined label");
    assert_int_equal(gs_load_ptx(g, "no/such.ptx", &m), GS_ERR_PTX);
    tu_assert_contains(gs_last_error(g), "no/such.ptx");
    gs_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_calls),
        cmocka_unit_test(test_divergence_and_reconvergence),
        cmocka_unit_test(test_launch_independent_of_the_last),
        cmocka_unit_test(test_module_from_memory_and_its_kernels),
        cmocka_unit_test(test_partial_warps_and_3d),
        cmocka_unit_test(test_barrier_static_and_dynamic_shared),
        cmocka_unit_test(test_out_of_bounds_names_kernel_pc_cta_thread),
        cmocka_unit_test(test_launch_validation),
        cmocka_unit_test(test_argument_size_must_match_the_ptx),
        cmocka_unit_test(test_deadlock_dump_is_whole),
        cmocka_unit_test(test_bad_ptx_through_the_api),
        cmocka_unit_test(test_too_many_globals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
