/*
 * test_cudart.c -- the CUDA runtime library's calls in this process, without nvcc: the test
 * registers a checked-in fatbinary (tests/data/cuda/zstd.fatbin, the zstd-compressed PTX of
 * tiny.cu) the way nvcc's constructors do, with a host function of its own standing for the
 * kernel's stub, and then calls the API as a program would (cuda/cudart.h):
 *   - the GPU is made from the environment at the first call: GPUSIM_SET applies, the
 *     properties and attributes are the configuration's;
 *   - memory: malloc, every copy kind, cudaMemcpyDefault by address, memset, pitch and 2-D
 *     copies, host allocations, pointer attributes, memory info;
 *   - launches by cudaLaunchKernel (the stores checked) and by the <<<>>> path's push/pop;
 *   - the statistics files (GPUSIM_JSON, GPUSIM_LAUNCHES, GPUSIM_SUMMARY) after each launch;
 *   - errors: names and texts, refused launches, a kernel fault (cudaErrorIllegalAddress,
 *     sticky until cudaDeviceReset, after which the module loads again), unsupported calls;
 *   - streams and events with simulated time (cycles over clock_mhz);
 *   - under vtw = hw a kernel VTW refuses stops the run (GPUSIM_PTX supplies one).
 * The cases share the process's one GPU and run in order.
 */
#include <fcntl.h>
#include <unistd.h>
#include "testutil.h"
#include "cudart.h"
#include "gpu/gpusim.h"
#include "rt.h"

#define DIR BUILD_DIR "/tests/cudart-out"

/* The stand-in for nvcc's host stub of tiny(int *): its address names the kernel. */
static void tiny_stub(int *p)
{
    (void)p;
}

struct wrapper { uint32_t magic, version; const void *data; void *filename; };

static struct wrapper w;
static char *section;
static void **handle;

static int setup(void **state)
{
    size_t len;
    (void)state;
    if (system("rm -rf " DIR " && mkdir -p " DIR))
        return -1;
    setenv("GPUSIM_SET", " regs_source=estimate ; clock_mhz=1000\nnum_sms=4", 1);
    setenv("GPUSIM_JSON", DIR "/launches.json", 1);
    setenv("GPUSIM_LAUNCHES", DIR "/launches.csv", 1);
    setenv("GPUSIM_SUMMARY", DIR "/summary.txt", 1);
    unsetenv("GPUSIM_CONFIG");
    unsetenv("GPUSIM_PTX");
    if (!(section = tu_read_file("tests/data/cuda/zstd.fatbin", &len)) || len < 1600)
        return -1;
    w = (struct wrapper){ 0x466243b1u, 1, section + 1528, NULL };
    handle = __cudaRegisterFatBinary(&w);
    __cudaRegisterFunction(handle, (const char *)tiny_stub, "_Z4tinyPi", "_Z4tinyPi", -1, NULL,
                           NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(handle);
    return handle ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(section);
    return 0;
}

static void test_device(void **state)
{
    struct cudaDeviceProp p;
    int n = -1, v = 0;
    (void)state;
    assert_int_equal(cudaGetDeviceCount(&n), cudaSuccess);
    assert_int_equal(n, 1);
    assert_int_equal(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    assert_string_equal(p.name, "gpusim gtx480");
    assert_int_equal(p.multiProcessorCount, 4);           /* GPUSIM_SET's num_sms */
    assert_int_equal(p.maxThreadsPerMultiProcessor, 48 * 32);
    assert_int_equal(p.regsPerMultiprocessor, 32768);
    assert_int_equal(p.sharedMemPerBlock, 48 * 1024);
    assert_int_equal(p.major, 2);
    assert_int_equal(p.minor, 0);
    assert_int_equal(p.warpSize, 32);
    assert_int_equal(p.totalGlobalMem, 1536ull << 20);
    assert_int_equal(p.l2CacheSize, 768 * 1024);
    assert_int_equal(p.memoryBusWidth, 384);
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0), cudaSuccess);
    assert_int_equal(v, 1000 * 1000);                     /* kHz, from GPUSIM_SET's clock */
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    assert_int_equal(v, 4);
    assert_int_equal(cudaSetDevice(1), cudaErrorInvalidDevice);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidDevice);
    assert_int_equal(cudaGetLastError(), cudaSuccess);    /* read and reset */
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(cudaDriverGetVersion(&v), cudaSuccess);
    assert_int_equal(v, 13000);
}

static void test_memory(void **state)
{
    int host[256], back[256], *d = NULL, *d2 = NULL, *h = NULL;
    size_t pitch = 0, free_b = 0, total = 0;
    struct cudaPointerAttributes a;
    (void)state;
    for (int i = 0; i < 256; i++)
        host[i] = i * 7;
    assert_int_equal(cudaMalloc((void **)&d, sizeof host), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&d2, sizeof host), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(d2, d, sizeof host, cudaMemcpyDeviceToDevice), cudaSuccess);
    memset(back, 0, sizeof back);
    assert_int_equal(cudaMemcpy(back, d2, sizeof back, cudaMemcpyDefault), cudaSuccess);
    assert_memory_equal(back, host, sizeof host);
    assert_int_equal(cudaMemset(d2, 0xff, 16), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(back[0], -1);
    assert_int_equal(back[4], 28);
    /* outside the allocation: an error, the model's message, no crash */
    assert_int_equal(cudaMemcpy(back, d2 + 200, sizeof back, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaPointerGetAttributes(&a, d + 3), cudaSuccess);
    assert_int_equal(a.type, cudaMemoryTypeDevice);
    assert_int_equal(cudaMallocHost((void **)&h, 64), cudaSuccess);
    assert_int_equal(cudaPointerGetAttributes(&a, h), cudaSuccess);
    assert_int_equal(a.type, cudaMemoryTypeHost);
    assert_int_equal(cudaFreeHost(h), cudaSuccess);
    assert_int_equal(cudaFreeHost(host), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(d2), cudaSuccess);
    assert_int_equal(cudaFree(d2), cudaErrorInvalidValue);         /* twice */
    assert_int_equal(cudaFree(NULL), cudaSuccess);
    assert_int_equal(cudaMallocPitch((void **)&d2, &pitch, 100, 3), cudaSuccess);
    assert_int_equal(pitch, 256);
    assert_int_equal(cudaMemcpy2D(d2, pitch, host, 100, 100, 3, cudaMemcpyHostToDevice),
                     cudaSuccess);
    assert_int_equal(cudaMemcpy2D(back, 40, d2, pitch, 40, 3, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    assert_int_equal(back[10], host[25]);                  /* row 1: bytes 100.. of host */
    assert_int_equal(cudaMemcpy2D(back, 40, d2, pitch, 41, 3, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidPitchValue);
    assert_int_equal(cudaMemGetInfo(&free_b, &total), cudaSuccess);
    assert_int_equal(total, 1536ull << 20);
    assert_true(free_b < total);
    assert_int_equal(cudaFree(d2), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
    cudaGetLastError();
}

static void launch_tiny(int *d, unsigned threads, cudaError_t want)
{
    void *args[] = { &d };
    assert_int_equal(cudaLaunchKernel((const void *)tiny_stub, (dim3){ 1, 1, 1 },
                                      (dim3){ threads, 1, 1 }, args, 0, NULL), want);
}

static void test_launch(void **state)
{
    int *d = NULL, out[128];
    struct cudaFuncAttributes fa;
    dim3 g, b;
    size_t sh;
    cudaStream_t st;
    int n = 0;
    (void)state;
    assert_int_equal(cudaMalloc((void **)&d, sizeof out), cudaSuccess);
    launch_tiny(d, 128, cudaSuccess);
    assert_int_equal(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 128; i++)
        assert_int_equal(out[i], 3 * i + 1);
    /* the <<<>>> path: push in the caller, pop in the stub */
    assert_int_equal(__cudaPushCallConfiguration((dim3){ 2, 1, 1 }, (dim3){ 32, 1, 1 }, 0, NULL), 0);
    assert_int_equal(__cudaPopCallConfiguration(&g, &b, &sh, &st), cudaSuccess);
    assert_int_equal(g.x, 2);
    assert_int_equal(b.x, 32);
    assert_int_equal(__cudaPopCallConfiguration(&g, &b, &sh, &st), cudaErrorMissingConfiguration);
    /* refused: a block of 2048 threads */
    launch_tiny(d, 2048, cudaErrorInvalidConfiguration);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidConfiguration);
    assert_int_equal(cudaLaunchKernel((const void *)test_launch, (dim3){ 1, 1, 1 },
                                      (dim3){ 1, 1, 1 }, NULL, 0, NULL),
                     cudaErrorInvalidDeviceFunction);
    assert_int_equal(cudaFuncGetAttributes(&fa, (const void *)tiny_stub), cudaSuccess);
    assert_true(fa.numRegs > 0);
    assert_int_equal(fa.maxThreadsPerBlock, 1024);
    assert_int_equal(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)tiny_stub,
                                                                   256, 0), cudaSuccess);
    assert_int_equal(n, 6);                                  /* 1536 threads / 256 */
    assert_int_equal(cudaFree(d), cudaSuccess);
    cudaGetLastError();
}

/* The statistics files after the launches so far: one (the refused one is not written). */
static void test_stats_files(void **state)
{
    char *json = tu_read_file(DIR "/launches.json", NULL);
    char *csv = tu_read_file(DIR "/launches.csv", NULL);
    char *sum = tu_read_file(DIR "/summary.txt", NULL);
    (void)state;
    assert_non_null(json);
    assert_non_null(csv);
    assert_non_null(sum);
    assert_memory_equal(json, "[\n{\n  \"launch\": 1,\n  \"kernel\": \"_Z4tinyPi\"", 40);
    tu_assert_contains(json, "\"grid\": [1, 1, 1],\n  \"block\": [128, 1, 1]");
    tu_assert_contains(json, "\"result\": \"cudaSuccess\"");
    tu_assert_contains(json, "\"warp_insns\":");
    assert_null(strstr(json, "\"launch\": 2"));
    assert_string_equal(json + strlen(json) - 4, "}\n]\n");
    tu_assert_contains(csv, "launch,kernel,result,dynamic_shared,launches,ctas,cycles,");
    tu_assert_contains(csv, "\n1,_Z4tinyPi,cudaSuccess,0,1,1,");
    /* the name demangled where the process has the C++ runtime (the sanitizers bring it) */
    assert_true(!strncmp(sum, "gpusim: launch 1 _Z4tinyPi grid", 31) ||
                !strncmp(sum, "gpusim: launch 1 tiny(int*) grid", 32));
    tu_assert_contains(sum, " grid (1,1,1) block (128,1,1): ");
    tu_assert_contains(sum, "32 warp insns, 1024 thread insns");   /* 4 warps x 8 */
    free(json); free(csv); free(sum);
}

static void test_events(void **state)
{
    cudaEvent_t a, b;
    cudaStream_t s;
    float ms = -1;
    int *d = NULL;
    (void)state;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_int_equal(cudaEventCreate(&a), cudaSuccess);
    assert_int_equal(cudaEventCreate(&b), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&d, 4096), cudaSuccess);
    assert_int_equal(cudaEventRecord(a, s), cudaSuccess);
    launch_tiny(d, 1024, cudaSuccess);
    assert_int_equal(cudaEventRecord(b, s), cudaSuccess);
    assert_int_equal(cudaEventSynchronize(b), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    {
        char *json = tu_read_file(DIR "/launches.json", NULL);
        const char *p = strstr(json, "\"launch\": 2");
        unsigned long long cycles = 0;
        assert_non_null(p);
        assert_non_null(p = strstr(p, "\"cycles\": "));
        cycles = strtoull(p + 10, NULL, 10);
        assert_true(cycles > 0);
        /* cycles at clock_mhz = 1000 (GPUSIM_SET): a microsecond per thousand */
        assert_true(ms > 0 && ms == (float)((double)cycles / 1e6));
        free(json);
    }
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(cudaStreamQuery(s), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
    assert_int_equal(cudaEventDestroy(a), cudaSuccess);
    assert_int_equal(cudaEventDestroy(b), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
}

static void test_errors(void **state)
{
    (void)state;
    assert_string_equal(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
    assert_string_equal(cudaGetErrorString(cudaErrorIllegalAddress),
                        "an illegal memory access was encountered");
    assert_string_equal(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
    assert_string_equal(cudaGetErrorName(cudaErrorNotSupported), "cudaErrorNotSupported");
    assert_int_equal((int)cudaErrorLaunchFailure, 719);
    assert_string_equal(cudaGetErrorString((cudaError_t)12345), "unrecognized error code");
    assert_string_equal(cudaGetErrorName((cudaError_t)12345), "cudaErrorUnknown");
}

/* A kernel fault is sticky: every call that needs the GPU returns it until cudaDeviceReset,
   after which a new GPU loads the module again and the kernel runs. */
static void test_fault_sticky(void **state)
{
    int *d = NULL, out[32];
    (void)state;
    launch_tiny(NULL, 32, cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);   /* not reset */
    assert_int_equal(cudaMalloc((void **)&d, 64), cudaErrorIllegalAddress);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&d, sizeof out), cudaSuccess);
    launch_tiny(d, 32, cudaSuccess);
    assert_int_equal(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(out[31], 94);
    {
        char *json = tu_read_file(DIR "/launches.json", NULL);
        tu_assert_contains(json, "\"result\": \"cudaErrorIllegalAddress\"");
        tu_assert_contains(json, "\"launch\": 4");        /* files stay open across reset */
        free(json);
    }
}

/* Under vtw = hw a kernel VTW's hw form refuses (it reads %warpid) stops the run: the launch
   returns cudaErrorInvalidPtx, sticky. GPUSIM_PTX supplies that kernel under tiny's name; the
   GPU made again after cudaDeviceReset reads the environment again. */
static void test_vtw_refusal(void **state)
{
    FILE *f = fopen(DIR "/warpid.ptx", "w");
    int *d = NULL;
    (void)state;
    assert_non_null(f);
    fprintf(f, ".version 7.0\n.target sm_75\n.address_size 64\n"
            ".visible .entry _Z4tinyPi(.param .u64 p)\n{\n .reg .b32 %%r<2>;\n"
            " .reg .b64 %%rd<2>;\n ld.param.u64 %%rd1, [p];\n mov.u32 %%r1, %%warpid;\n"
            " st.global.u32 [%%rd1], %%r1;\n ret;\n}\n");
    fclose(f);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    setenv("GPUSIM_SET", "regs_source=estimate\nvtw=hw\nsched_policy=vtw", 1);
    setenv("GPUSIM_PTX", DIR "/warpid.ptx", 1);
    assert_int_equal(cudaMalloc((void **)&d, 64), cudaSuccess);
    launch_tiny(d, 32, cudaErrorInvalidPtx);
    assert_int_equal(cudaMalloc((void **)&d, 64), cudaErrorInvalidPtx);   /* stopped */
    unsetenv("GPUSIM_PTX");
    setenv("GPUSIM_SET", "regs_source=estimate", 1);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&d, 64), cudaSuccess);
    launch_tiny(d, 16, cudaSuccess);
}

/* Every call of cuda/unsupported_list.h: cudaErrorNotSupported (the last error too), its
   name said once on stderr ("gpusim: NAME is not supported by the model; ..."; a second call
   says nothing), and listed in docs/cuda.md. */
static void test_unsupported(void **state)
{
    char *err, *doc = tu_read_file("docs/cuda.md", NULL), line[160];
    int fd = open(DIR "/unsupported.err", O_WRONLY | O_CREAT | O_TRUNC, 0666), saved;
    (void)state;
    assert_non_null(doc);
    assert_true(fd >= 0 && rt_unsupported_n > 50);
    fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    close(fd);
    for (unsigned i = 0; i < rt_unsupported_n; i++) {
        assert_int_equal(rt_unsupported_calls[i].fn(), cudaErrorNotSupported);
        assert_int_equal(rt_unsupported_calls[i].fn(), cudaErrorNotSupported);
        assert_int_equal(cudaGetLastError(), cudaErrorNotSupported);
        assert_int_equal(cudaGetLastError(), cudaSuccess);      /* not sticky */
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    err = tu_read_file(DIR "/unsupported.err", NULL);
    assert_non_null(err);
    for (unsigned i = 0; i < rt_unsupported_n; i++) {
        const char *name = rt_unsupported_calls[i].name, *at;
        snprintf(line, sizeof line, "gpusim: %s is not supported by the model; it returns "
                 "cudaErrorNotSupported", name);
        tu_assert_contains(err, line);
        at = strstr(err, line);
        if (strstr(at + 1, line))
            fail_msg("%s said twice", name);
        snprintf(line, sizeof line, "`%s`", name);
        if (!strstr(doc, line))
            fail_msg("docs/cuda.md does not list %s", name);
    }
    free(err);
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_launch),
        cmocka_unit_test(test_stats_files),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_fault_sticky),
        cmocka_unit_test(test_vtw_refusal),
        cmocka_unit_test(test_unsupported),
    };
    tu_filters();
    return cmocka_run_group_tests(tests, setup, teardown);
}
