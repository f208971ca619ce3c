/*
 * stream.c -- streams and events. Every call runs in issue order to completion before it
 * returns (concurrent kernels and copies overlapping kernels are not modelled), so a stream
 * is a handle, synchronising one returns the sticky error, and a host function or callback
 * enqueued on one runs at once.
 *
 * Events carry SIMULATED time: cudaEventRecord notes the cycles every launch so far has taken
 * (state.c's rt_cycles: the model's cycles, 0 under the functional model), and
 * cudaEventElapsedTime is the difference over clock_mhz, in milliseconds. Copies and the host
 * take no simulated time, so a program that times itself prints the modelled GPU's kernel
 * time.
 */
#include <stdlib.h>
#include "base/config.h"
#include "rt.h"

#define STREAM_MAGIC 0x53747265u      /* a live stream or event, checked on every use */
#define EVENT_MAGIC  0x45766e74u

struct CUstream_st { unsigned magic, flags; int priority; };
struct CUevent_st  { unsigned magic, flags; int recorded; uint64_t cycles; };

/* The default stream (0), the legacy and per-thread handles (1, 2), or a live stream. */
static int stream_ok(cudaStream_t s)
{
    return (uintptr_t)s <= 2 || s->magic == STREAM_MAGIC;
}

static cudaError_t stream_create(cudaStream_t *s, unsigned flags, int priority)
{
    if (!s)
        return cudaErrorInvalidValue;
    if (!(*s = calloc(1, sizeof **s)))
        return cudaErrorMemoryAllocation;
    **s = (struct CUstream_st){ STREAM_MAGIC, flags, priority };
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    RT_CALL(stream_create(s, 0, 0));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    RT_CALL(stream_create(s, flags, 0));
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int priority)
{
    RT_CALL(stream_create(s, flags, priority));
}

static cudaError_t stream_destroy(cudaStream_t s)
{
    if ((uintptr_t)s <= 2 || s->magic != STREAM_MAGIC)
        return cudaErrorInvalidResourceHandle;
    s->magic = 0;
    free(s);
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    RT_CALL(stream_destroy(s));
}

/* Everything issued has finished: the sticky error, if any. */
static cudaError_t finished(cudaStream_t s)
{
    cudaError_t e;
    if (!stream_ok(s))
        return cudaErrorInvalidResourceHandle;
    rt_gpu(&e);
    return e;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    RT_CALL(finished(s));
}

cudaError_t cudaStreamQuery(cudaStream_t s)
{
    RT_CALL(finished(s));
}

cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int *flags)
{
    RT_CALL(!flags || !stream_ok(s) ? cudaErrorInvalidValue :
            (*flags = (uintptr_t)s <= 2 ? 0 : s->flags, cudaSuccess));
}

cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
    RT_CALL(!priority || !stream_ok(s) ? cudaErrorInvalidValue :
            (*priority = (uintptr_t)s <= 2 ? 0 : s->priority, cudaSuccess));
}

static int event_ok(cudaEvent_t ev)
{
    return ev && ev->magic == EVENT_MAGIC;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev, unsigned int flags)
{
    (void)flags;
    RT_CALL(stream_ok(s) && event_ok(ev) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data)
{
    cudaError_t e = cudaSuccess;
    rt_lock();
    if (!fn || !stream_ok(s))
        e = fn ? cudaErrorInvalidResourceHandle : cudaErrorInvalidValue;
    rt_unlock();
    if (!e)
        fn(data);                     /* outside the lock: it may call the runtime */
    return e ? (rt_lock(), rt_done(e)) : e;
}

cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *data, unsigned int flags)
{
    cudaError_t e = cudaSuccess, status;
    (void)flags;
    rt_lock();
    if (!cb || !stream_ok(s))
        e = cb ? cudaErrorInvalidResourceHandle : cudaErrorInvalidValue;
    status = rt_last_error(0);
    rt_unlock();
    if (!e)
        cb(s, status, data);
    return e ? (rt_lock(), rt_done(e)) : e;
}

/* ---- events */

static cudaError_t event_create(cudaEvent_t *ev, unsigned flags)
{
    if (!ev || flags > (cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess))
        return cudaErrorInvalidValue;
    if (!(*ev = calloc(1, sizeof **ev)))
        return cudaErrorMemoryAllocation;
    (*ev)->magic = EVENT_MAGIC;
    (*ev)->flags = flags;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *ev)
{
    RT_CALL(event_create(ev, cudaEventDefault));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned int flags)
{
    RT_CALL(event_create(ev, flags));
}

static cudaError_t event_destroy(cudaEvent_t ev)
{
    if (!event_ok(ev))
        return cudaErrorInvalidResourceHandle;
    ev->magic = 0;
    free(ev);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    RT_CALL(event_destroy(ev));
}

static cudaError_t event_record(cudaEvent_t ev, cudaStream_t s)
{
    if (!event_ok(ev) || !stream_ok(s))
        return cudaErrorInvalidResourceHandle;
    ev->recorded = 1;
    ev->cycles = rt_cycles();
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
    RT_CALL(event_record(ev, s));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned int flags)
{
    (void)flags;
    RT_CALL(event_record(ev, s));
}

static cudaError_t event_done(cudaEvent_t ev)
{
    cudaError_t e;
    if (!event_ok(ev))
        return cudaErrorInvalidResourceHandle;
    rt_gpu(&e);                       /* recorded work has finished: the sticky error only */
    return e;
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    RT_CALL(event_done(ev));
}

cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    RT_CALL(event_done(ev));
}

static cudaError_t elapsed(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    const struct gpu_config *c;
    cudaError_t e;
    if (!ms)
        return cudaErrorInvalidValue;
    if (!event_ok(a) || !event_ok(b) || ((a->flags | b->flags) & cudaEventDisableTiming))
        return cudaErrorInvalidResourceHandle;
    if (!a->recorded || !b->recorded)
        return cudaErrorInvalidResourceHandle;
    if (!rt_gpu(&e) || !(c = rt_config()))
        return e;
    *ms = (float)(((double)b->cycles - (double)a->cycles) / ((double)c->clock_mhz * 1000.0));
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    RT_CALL(elapsed(ms, start, end));
}

/* No stream is ever capturing (graphs are not supported): cudaStreamCaptureStatusNone. */
cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status)
{
    RT_CALL(!status || !stream_ok(s) ? cudaErrorInvalidValue : (*status = 0, cudaSuccess));
}
