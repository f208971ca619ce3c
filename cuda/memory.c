/*
 * memory.c -- the memory calls: device allocations (the model's), host allocations (plain
 * host memory: nothing is pinned or mapped), copies of every kind, memsets, the __device__ and
 * __constant__ variables by their host shadows (cudaMemcpyToSymbol and friends).
 *
 * Copies take no simulated time: only kernels advance the model's clock, and the *Async forms
 * run at once in issue order (docs/cuda.md). cudaMemcpyDefault decides by address: a range
 * inside one live device allocation is device memory, anything else host memory. A failed
 * call prints the model's message once per call name and returns cudaErrorInvalidValue (a
 * range outside the allocations) or cudaErrorMemoryAllocation.
 */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

#define PITCH_ALIGN 256u              /* cudaMallocPitch: rows on the model's allocation unit */

/* A failed model call: its message once for `call`, the CUDA error. */
static cudaError_t model_err(struct gs_gpu *g, int rc, const char *call)
{
    if (rc == GS_OK)
        return cudaSuccess;
    rt_once(call, "%s: %s", call, gs_last_error(g));
    return rt_error_of(rc, gs_last_error(g));
}

static uint64_t dev(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

static cudaError_t do_malloc(void **p, size_t n)
{
    cudaError_t e;
    struct gs_gpu *g;
    uint64_t a = 0;
    if (!p)
        return cudaErrorInvalidValue;
    *p = NULL;
    if (!(g = rt_gpu(&e)))
        return e;
    if (n == 0)
        return cudaSuccess;
    if ((e = model_err(g, gs_malloc(g, &a, n), "cudaMalloc")) == cudaSuccess)
        *p = (void *)(uintptr_t)a;
    return e;
}

cudaError_t cudaMalloc(void **p, size_t n)
{
    RT_CALL(do_malloc(p, n));
}

static cudaError_t do_free(void *p)
{
    cudaError_t e;
    struct gs_gpu *g = rt_gpu(&e);
    if (!g)
        return e;
    return p ? model_err(g, gs_free(g, dev(p)), "cudaFree") : cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    RT_CALL(do_free(p));
}

static cudaError_t do_malloc_pitch(void **p, size_t *pitch, size_t width, size_t height)
{
    size_t row;
    if (!p || !pitch)
        return cudaErrorInvalidValue;
    row = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    if (height && row > SIZE_MAX / height)
        return cudaErrorMemoryAllocation;
    *pitch = row;
    return do_malloc(p, row * height);
}

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    RT_CALL(do_malloc_pitch(p, pitch, width, height));
}

/* ---- host allocations: page-aligned host memory, remembered so cudaFreeHost can check */

static struct { void **p; unsigned n; } host;

static cudaError_t do_host_alloc(void **p, size_t n)
{
    void **grown;
    if (!p)
        return cudaErrorInvalidValue;
    *p = NULL;
    if (!(grown = realloc(host.p, (host.n + 1) * sizeof *grown)))
        return cudaErrorMemoryAllocation;
    host.p = grown;
    if (posix_memalign(p, 4096, n ? n : 1)) {
        *p = NULL;
        return cudaErrorMemoryAllocation;
    }
    host.p[host.n++] = *p;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **p, size_t n)
{
    RT_CALL(do_host_alloc(p, n));
}

cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags)
{
    (void)flags;                      /* portable, mapped, write-combined: all host memory */
    RT_CALL(do_host_alloc(p, n));
}

static cudaError_t do_free_host(void *p)
{
    for (unsigned i = 0; p && i < host.n; i++)
        if (host.p[i] == p) {
            free(p);
            host.p[i] = host.p[--host.n];
            return cudaSuccess;
        }
    return p ? cudaErrorInvalidValue : cudaSuccess;
}

cudaError_t cudaFreeHost(void *p)
{
    RT_CALL(do_free_host(p));
}

/* ---- copies */

static enum cudaMemcpyKind by_address(struct gs_gpu *g, const void *dst, const void *src,
                                      size_t n)
{
    int d = gs_device_range(g, dev(dst), n), s = gs_device_range(g, dev(src), n);
    return d ? (s ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
             : (s ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

static int dtod(struct gs_gpu *g, uint64_t d, uint64_t s, size_t n)
{
    void *tmp = malloc(n);
    int rc;
    if (!tmp)
        return GS_ERR_OUT_OF_MEMORY;
    rc = gs_memcpy_dtoh(g, tmp, s, n);
    if (rc == GS_OK)
        rc = gs_memcpy_htod(g, d, tmp, n);
    free(tmp);
    return rc;
}

/* One copy of n bytes on the GPU g (made). */
static cudaError_t copy(struct gs_gpu *g, void *dst, const void *src, size_t n,
                        enum cudaMemcpyKind kind, const char *call)
{
    if (n == 0)
        return cudaSuccess;
    if (kind == cudaMemcpyDefault)
        kind = by_address(g, dst, src, n);
    switch (kind) {
    case cudaMemcpyHostToHost:
        if (!dst || !src)
            return cudaErrorInvalidValue;
        memmove(dst, src, n);
        return cudaSuccess;
    case cudaMemcpyHostToDevice:
        return model_err(g, gs_memcpy_htod(g, dev(dst), src, n), call);
    case cudaMemcpyDeviceToHost:
        return model_err(g, gs_memcpy_dtoh(g, dst, dev(src), n), call);
    case cudaMemcpyDeviceToDevice:
        return model_err(g, dtod(g, dev(dst), dev(src), n), call);
    default:
        rt_once(call, "%s: copy kind %d is none of cudaMemcpyKind's", call, (int)kind);
        return cudaErrorInvalidMemcpyDirection;
    }
}

static cudaError_t do_memcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                             const char *call)
{
    cudaError_t e;
    struct gs_gpu *g = rt_gpu(&e);
    return g ? copy(g, dst, src, n, kind, call) : e;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    RT_CALL(do_memcpy(dst, src, n, kind, "cudaMemcpy"));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;
    RT_CALL(do_memcpy(dst, src, n, kind, "cudaMemcpyAsync"));
}

static cudaError_t do_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind kind,
                               const char *call)
{
    cudaError_t e;
    struct gs_gpu *g = rt_gpu(&e);
    if (!g)
        return e;
    if (width > dpitch || width > spitch)
        return cudaErrorInvalidPitchValue;
    for (size_t r = 0; r < height && e == cudaSuccess; r++)
        e = copy(g, (char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, call);
    return e;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    RT_CALL(do_memcpy2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2D"));
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
    (void)stream;
    RT_CALL(do_memcpy2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2DAsync"));
}

static cudaError_t do_memset(void *p, int value, size_t n, const char *call)
{
    cudaError_t e;
    struct gs_gpu *g = rt_gpu(&e);
    return g ? model_err(g, gs_memset(g, dev(p), value, n), call) : e;
}

cudaError_t cudaMemset(void *p, int value, size_t n)
{
    RT_CALL(do_memset(p, value, n, "cudaMemset"));
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t stream)
{
    (void)stream;
    RT_CALL(do_memset(p, value, n, "cudaMemsetAsync"));
}

static cudaError_t do_memset2d(void *p, size_t pitch, int value, size_t width, size_t height)
{
    cudaError_t e = cudaSuccess;
    if (width > pitch)
        return cudaErrorInvalidPitchValue;
    for (size_t r = 0; r < height && e == cudaSuccess; r++)
        e = do_memset((char *)p + r * pitch, value, width, "cudaMemset2D");
    return e;
}

cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    RT_CALL(do_memset2d(p, pitch, value, width, height));
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    cudaError_t e;
    struct gs_gpu *g;
    uint64_t used, cap;
    rt_lock();
    if ((g = rt_gpu(&e)) != NULL) {
        gs_mem_info(g, &used, &cap);
        if (free_bytes)
            *free_bytes = (size_t)(cap - used);
        if (total)
            *total = (size_t)cap;
    }
    return rt_done(e);
}

/* ---- variables: the device range of a symbol's [offset, offset + count) */

static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, uint64_t *addr,
                                const char *call)
{
    struct rt_var *v = rt_var_of(symbol);
    uint64_t size = 0;
    cudaError_t e;
    if (!v) {
        rt_once(call, "%s: %p is not a __device__ or __constant__ variable the program "
                "registered", call, symbol);
        return cudaErrorInvalidSymbol;
    }
    if ((e = rt_var_addr(v, addr, &size)) != cudaSuccess)
        return e;
    if (offset > size || count > size - offset) {
        rt_once(call, "%s: variable %s: %zu bytes at offset %zu are past its %llu bytes", call,
                v->name, count, offset, (unsigned long long)size);
        return cudaErrorInvalidValue;
    }
    *addr += offset;
    return cudaSuccess;
}

/* The GPU and a symbol copy's device address: kind must be `dir`, device to device or
   default, and the range [offset, offset + count) inside the symbol. */
static cudaError_t symbol_copy_at(const void *symbol, size_t count, size_t offset,
                                  enum cudaMemcpyKind kind, enum cudaMemcpyKind dir,
                                  const char *call, struct gs_gpu **g, uint64_t *a)
{
    cudaError_t e;
    if (!(*g = rt_gpu(&e)))
        return e;
    if (kind != dir && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    return symbol_range(symbol, count, offset, a, call);
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind, const char *call)
{
    struct gs_gpu *g;
    uint64_t a;
    cudaError_t e = symbol_copy_at(symbol, count, offset, kind, cudaMemcpyHostToDevice, call,
                                   &g, &a);
    return e ? e : copy(g, (void *)(uintptr_t)a, src, count, kind, call);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, const char *call)
{
    struct gs_gpu *g;
    uint64_t a;
    cudaError_t e = symbol_copy_at(symbol, count, offset, kind, cudaMemcpyDeviceToHost, call,
                                   &g, &a);
    return e ? e : copy(g, dst, (const void *)(uintptr_t)a, count, kind, call);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    RT_CALL(to_symbol(symbol, src, count, offset, kind, "cudaMemcpyToSymbol"));
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    (void)stream;
    RT_CALL(to_symbol(symbol, src, count, offset, kind, "cudaMemcpyToSymbolAsync"));
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    RT_CALL(from_symbol(dst, symbol, count, offset, kind, "cudaMemcpyFromSymbol"));
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                      size_t offset, enum cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
    (void)stream;
    RT_CALL(from_symbol(dst, symbol, count, offset, kind, "cudaMemcpyFromSymbolAsync"));
}

static cudaError_t symbol_info(void **p, size_t *size, const void *symbol, const char *call)
{
    cudaError_t e;
    struct rt_var *v;
    uint64_t a, n;
    if (!rt_gpu(&e))
        return e;
    if (!(v = rt_var_of(symbol))) {
        rt_once(call, "%s: %p is not a __device__ or __constant__ variable the program "
                "registered", call, symbol);
        return cudaErrorInvalidSymbol;
    }
    if ((e = rt_var_addr(v, &a, &n)) != cudaSuccess)
        return e;
    if (p)
        *p = (void *)(uintptr_t)a;
    if (size)
        *size = (size_t)n;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **p, const void *symbol)
{
    RT_CALL(p ? symbol_info(p, NULL, symbol, "cudaGetSymbolAddress") : cudaErrorInvalidValue);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    RT_CALL(size ? symbol_info(NULL, size, symbol, "cudaGetSymbolSize") : cudaErrorInvalidValue);
}

static cudaError_t do_pointer_attr(struct cudaPointerAttributes *a, const void *p)
{
    cudaError_t e;
    struct gs_gpu *g = rt_gpu(&e);
    if (!g)
        return e;
    if (!a)
        return cudaErrorInvalidValue;
    memset(a, 0, sizeof *a);
    if (gs_device_range(g, dev(p), 1)) {
        a->type = cudaMemoryTypeDevice;
        a->devicePointer = (void *)p;
        return cudaSuccess;
    }
    a->type = cudaMemoryTypeUnregistered;
    a->device = -2;
    for (unsigned i = 0; i < host.n; i++)
        if (host.p[i] == p) {
            a->type = cudaMemoryTypeHost;
            a->device = 0;
        }
    a->hostPointer = (void *)p;
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    RT_CALL(do_pointer_attr(a, p));
}
