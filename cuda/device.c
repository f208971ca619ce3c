/*
 * device.c -- the device calls: one device (number 0), its properties and attributes from the
 * configuration, versions, synchronisation and reset, a kernel's attributes and occupancy from
 * the model, and the hints the model accepts without modelling them (cache and shared-memory
 * configuration, limits, device flags).
 *
 * Properties (docs/cuda.md "Device properties"): SMs, warps and CTAs per SM, registers and
 * shared memory per SM and per block, the block and grid limits the model checks, device
 * memory, L2 size and memory bus width from the memory system's keys, clock_mhz and
 * compute_capability. Texture, surface, PCI and NUMA figures are 0 (not modelled).
 */
#include <stdio.h>
#include <string.h>
#include "base/config.h"
#include "rt.h"

#define RT_VERSION 13000              /* CUDA 13.0: what the program was compiled against */
#define LINE_BYTES 128u               /* the model's cache line */

static size_t limits[3] = { 1024, 1u << 20, 8u << 20 };   /* stack, printf FIFO, malloc heap */

cudaError_t rt_check_device(int dev)
{
    if (dev != 0) {
        rt_once("device", "device %d: the model is one device, number 0", dev);
        return cudaErrorInvalidDevice;
    }
    return cudaSuccess;
}

static const struct gpu_config *conf(cudaError_t *e)
{
    struct gs_gpu *g = rt_gpu(e);
    return g ? gs_config(g) : NULL;
}

static int l2_bytes(const struct gpu_config *c)
{
    return (int)(c->dram_channels * c->l2_slices_per_channel * c->l2_sets * c->l2_ways *
                 LINE_BYTES);
}

static void fill_props(struct cudaDeviceProp *p, const struct gpu_config *c)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "gpusim %s", c->name);
    p->totalGlobalMem = c->dram_bytes;
    p->sharedMemPerBlock = p->sharedMemPerBlockOptin = c->max_shared_per_cta;
    p->regsPerBlock = (int)c->regs_per_sm;
    p->warpSize = 32;
    p->memPitch = 0x7fffffff;
    p->maxThreadsPerBlock = (int)c->max_threads_per_cta;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = (int)c->max_threads_per_cta;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = (int)(c->compute_capability / 10);
    p->minor = (int)(c->compute_capability % 10);
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)c->num_sms;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = (int)(c->dram_channels * 64);
    p->l2CacheSize = l2_bytes(c);
    p->maxThreadsPerMultiProcessor = (int)(c->max_warps_per_sm * 32);
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = c->shared_per_sm;
    p->regsPerMultiprocessor = (int)c->regs_per_sm;
    p->maxBlocksPerMultiProcessor = (int)c->max_ctas_per_sm;
    p->deviceNumaId = p->hostNumaId = -1;
}

static cudaError_t do_props(struct cudaDeviceProp *p, int dev)
{
    cudaError_t e = rt_check_device(dev);
    const struct gpu_config *c;
    if (e || !p)
        return e ? e : cudaErrorInvalidValue;
    if (!(c = conf(&e)))
        return e;
    fill_props(p, c);
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev)
{
    RT_CALL(do_props(p, dev));
}

/* An attribute from the properties, the clock or 0 (not modelled). */
static int attr_value(const struct cudaDeviceProp *p, const struct gpu_config *c, int a)
{
    switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: return p->maxThreadsPerBlock;
    case cudaDevAttrMaxBlockDimX: return p->maxThreadsDim[0];
    case cudaDevAttrMaxBlockDimY: return p->maxThreadsDim[1];
    case cudaDevAttrMaxBlockDimZ: return p->maxThreadsDim[2];
    case cudaDevAttrMaxGridDimX: return p->maxGridSize[0];
    case cudaDevAttrMaxGridDimY: return p->maxGridSize[1];
    case cudaDevAttrMaxGridDimZ: return p->maxGridSize[2];
    case cudaDevAttrMaxSharedMemoryPerBlock: return (int)p->sharedMemPerBlock;
    case cudaDevAttrTotalConstantMemory: return (int)p->totalConstMem;
    case cudaDevAttrWarpSize: return p->warpSize;
    case cudaDevAttrMaxPitch: return (int)p->memPitch;
    case cudaDevAttrMaxRegistersPerBlock: return p->regsPerBlock;
    case cudaDevAttrClockRate: return (int)(c->clock_mhz * 1000);    /* kHz */
    case cudaDevAttrTextureAlignment: return (int)p->textureAlignment;
    case cudaDevAttrMultiProcessorCount: return p->multiProcessorCount;
    case cudaDevAttrGlobalMemoryBusWidth: return p->memoryBusWidth;
    case cudaDevAttrL2CacheSize: return p->l2CacheSize;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return p->maxThreadsPerMultiProcessor;
    case cudaDevAttrUnifiedAddressing: return p->unifiedAddressing;
    case cudaDevAttrComputeCapabilityMajor: return p->major;
    case cudaDevAttrComputeCapabilityMinor: return p->minor;
    case cudaDevAttrGlobalL1CacheSupported: return 1;
    case cudaDevAttrLocalL1CacheSupported: return 1;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return (int)p->sharedMemPerMultiprocessor;
    case cudaDevAttrMaxRegistersPerMultiprocessor: return p->regsPerMultiprocessor;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return (int)p->sharedMemPerBlockOptin;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return p->maxBlocksPerMultiProcessor;
    default: return 0;
    }
}

static cudaError_t do_attribute(int *v, int attr, int dev)
{
    struct cudaDeviceProp p;
    const struct gpu_config *c;
    cudaError_t e = rt_check_device(dev);
    if (e || !v)
        return e ? e : cudaErrorInvalidValue;
    if (!(c = conf(&e)))
        return e;
    fill_props(&p, c);
    *v = attr_value(&p, c, attr);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr attr, int dev)
{
    RT_CALL(do_attribute(v, (int)attr, dev));
}

static cudaError_t do_count(int *n)
{
    cudaError_t e;
    if (!n)
        return cudaErrorInvalidValue;
    *n = rt_gpu(&e) ? 1 : 0;
    return e;
}

cudaError_t cudaGetDeviceCount(int *n)
{
    RT_CALL(do_count(n));
}

cudaError_t cudaGetDevice(int *dev)
{
    RT_CALL(dev ? (*dev = 0, cudaSuccess) : cudaErrorInvalidValue);
}

cudaError_t cudaSetDevice(int dev)
{
    RT_CALL(rt_check_device(dev));
}

cudaError_t cudaInitDevice(int dev, unsigned int device_flags, unsigned int flags)
{
    cudaError_t e = rt_check_device(dev);
    (void)device_flags; (void)flags;
    rt_lock();
    if (!e)
        rt_gpu(&e);
    return rt_done(e);
}

cudaError_t cudaChooseDevice(int *dev, const struct cudaDeviceProp *p)
{
    (void)p;
    RT_CALL(dev ? (*dev = 0, cudaSuccess) : cudaErrorInvalidValue);
}

cudaError_t cudaSetValidDevices(int *devs, int n)
{
    cudaError_t e = cudaSuccess;
    rt_lock();
    for (int i = 0; devs && i < n && !e; i++)
        e = rt_check_device(devs[i]);
    return rt_done(e);
}

/* Launches finish before their call returns: synchronising is returning the sticky error. */
static cudaError_t do_sync(void)
{
    cudaError_t e;
    rt_gpu(&e);
    return e;
}

cudaError_t cudaDeviceSynchronize(void)
{
    RT_CALL(do_sync());
}

cudaError_t cudaDeviceReset(void)
{
    rt_lock();
    rt_reset();
    return rt_done(cudaSuccess);
}

cudaError_t cudaDriverGetVersion(int *v)
{
    RT_CALL(v ? (*v = RT_VERSION, cudaSuccess) : cudaErrorInvalidValue);
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
    RT_CALL(v ? (*v = RT_VERSION, cudaSuccess) : cudaErrorInvalidValue);
}

/* ---- hints the model takes and does not model */

static unsigned device_flags;

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    RT_CALL((device_flags = flags, cudaSuccess));
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    RT_CALL(flags ? (*flags = device_flags, cudaSuccess) : cudaErrorInvalidValue);
}

cudaError_t cudaDeviceSetCacheConfig(int cache_config)
{
    RT_CALL(cache_config >= 0 && cache_config <= 3 ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaDeviceGetCacheConfig(int *cache_config)
{
    RT_CALL(cache_config ? (*cache_config = 0, cudaSuccess) : cudaErrorInvalidValue);
}

cudaError_t cudaDeviceSetSharedMemConfig(int config)
{
    RT_CALL(config >= 0 && config <= 2 ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaDeviceGetSharedMemConfig(int *config)
{
    RT_CALL(config ? (*config = 1, cudaSuccess) : cudaErrorInvalidValue);   /* 4-byte banks */
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int cache_config)
{
    (void)func;
    RT_CALL(cache_config >= 0 && cache_config <= 3 ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    (void)func;
    RT_CALL(config >= 0 && config <= 2 ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    RT_CALL(limit >= 0 && limit < 3 ? (limits[limit] = value, cudaSuccess)
                                    : cudaErrorUnsupportedLimit);
}

cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    RT_CALL(!value ? cudaErrorInvalidValue : limit >= 0 && limit < 3 ?
            (*value = limits[limit], cudaSuccess) : cudaErrorUnsupportedLimit);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    rt_lock();
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return rt_done(cudaSuccess);
}

cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int dev)
{
    cudaError_t e = rt_check_device(dev);
    rt_lock();
    if (!e && (!id || len <= 0))
        e = cudaErrorInvalidValue;
    if (!e)
        snprintf(id, (size_t)len, "0000:00:00.0");
    return rt_done(e);
}

/* ---- a kernel's attributes and occupancy (the model's) */

static cudaError_t kernel_of(const void *func, struct gs_gpu **g, struct rt_kernel **k,
                             struct gs_module **mod)
{
    cudaError_t e;
    if (!(*g = rt_gpu(&e)))
        return e;
    if (!(*k = rt_kernel_of(func))) {
        rt_once(NULL, "no kernel registered at host address %p", func);
        return cudaErrorInvalidDeviceFunction;
    }
    return rt_kernel_module(*k, mod);
}

static cudaError_t do_func_attr(struct cudaFuncAttributes *a, const void *func)
{
    struct gs_kernel_attr ka;
    struct gs_module *mod = NULL;
    struct rt_kernel *k = NULL;
    struct gs_gpu *g = NULL;
    cudaError_t e;
    if (!a)
        return cudaErrorInvalidValue;
    if ((e = kernel_of(func, &g, &k, &mod)) != cudaSuccess)
        return e;
    if (gs_kernel_attr(g, mod, k->name, &ka) != GS_OK)
        return rt_error_of(GS_ERR_PTX, gs_last_error(g));
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = ka.shared_static;
    a->localSizeBytes = ka.local_per_thread;
    a->maxThreadsPerBlock = (int)ka.max_threads;
    a->numRegs = (int)ka.regs;
    a->ptxVersion = a->binaryVersion = (int)gs_config(g)->compute_capability;
    a->maxDynamicSharedSizeBytes = (int)(gs_config(g)->max_shared_per_cta - ka.shared_static);
    a->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func)
{
    RT_CALL(do_func_attr(a, func));
}

static cudaError_t do_func_set(const void *func, int attr, int value)
{
    struct gs_module *mod = NULL;
    struct rt_kernel *k = NULL;
    struct gs_gpu *g = NULL;
    cudaError_t e = kernel_of(func, &g, &k, &mod);
    if (e)
        return e;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize &&
        (value < 0 || (uint32_t)value > gs_config(g)->max_shared_per_cta))
        return cudaErrorInvalidValue;
    return cudaSuccess;               /* the carve-out and the rest: accepted, not modelled */
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    RT_CALL(do_func_set(func, (int)attr, value));
}

static cudaError_t do_occupancy(int *n, const void *func, int block, size_t dyn)
{
    struct gs_module *mod = NULL;
    struct rt_kernel *k = NULL;
    struct gs_gpu *g = NULL;
    uint32_t ctas = 0;
    cudaError_t e;
    if (!n || block <= 0 || dyn > UINT32_MAX)
        return cudaErrorInvalidValue;
    if ((e = kernel_of(func, &g, &k, &mod)) != cudaSuccess)
        return e;
    if (gs_kernel_occupancy(g, mod, k->name, (uint32_t)block, (uint32_t)dyn, &ctas, NULL))
        return cudaErrorInvalidValue;
    *n = (int)ctas;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int block,
                                                          size_t dyn)
{
    RT_CALL(do_occupancy(n, func, block, dyn));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                   int block, size_t dyn,
                                                                   unsigned int flags)
{
    (void)flags;
    RT_CALL(do_occupancy(n, func, block, dyn));
}

static cudaError_t do_avail_smem(size_t *dyn, const void *func, int nblocks, int block)
{
    struct gs_kernel_attr ka;
    struct gs_module *mod = NULL;
    struct rt_kernel *k = NULL;
    struct gs_gpu *g = NULL;
    cudaError_t e;
    size_t per, cap;
    if (!dyn || nblocks <= 0 || block <= 0)
        return cudaErrorInvalidValue;
    if ((e = kernel_of(func, &g, &k, &mod)) != cudaSuccess)
        return e;
    if (gs_kernel_attr(g, mod, k->name, &ka) != GS_OK)
        return cudaErrorInvalidPtx;
    per = gs_config(g)->shared_per_sm / (unsigned)nblocks;
    cap = gs_config(g)->max_shared_per_cta;
    per = per < cap ? per : cap;
    *dyn = per > ka.shared_static ? per - ka.shared_static : 0;
    return cudaSuccess;
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dyn, const void *func,
                                                      int nblocks, int block)
{
    RT_CALL(do_avail_smem(dyn, func, nblocks, block));
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    struct rt_kernel *k = NULL;
    rt_lock();
    k = rt_kernel_of(func);
    if (name && k)
        *name = k->name;
    return rt_done(!name ? cudaErrorInvalidValue : k ? cudaSuccess
                                                     : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer)
{
    cudaError_t e = rt_check_device(dev);
    (void)peer;
    rt_lock();
    if (!e && can)
        *can = 0;                     /* one device: no peers */
    return rt_done(e ? e : can ? cudaSuccess : cudaErrorInvalidValue);
}

/* The profiler's range markers: accepted (the statistics are per launch anyway). */
cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}
