/* rt_stream.c -- streams and events: the driver's, under their runtime
** names (cudaStream_t is a CUstream, cudaEvent_t a CUevent).  Work runs in
** order when it is issued; an event records the context's simulated clock,
** so cudaEventElapsedTime gives the deterministic estimate of the driver
** (api.h: one warp instruction per SM per cycle in functional mode). */
#include "rt.h"
#include <stdlib.h>

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    if (!pStream) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamCreate(pStream, CU_STREAM_DEFAULT)));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    if (!pStream) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamCreate(pStream, flags)));
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    if (!pStream) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamCreateWithPriority(pStream, flags, priority)));
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return rt_ret(cudaErrorInvalidResourceHandle);
    return rt_ret(rt_err(cuStreamDestroy(stream)));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_check(cuStreamSynchronize(stream)));
}
RT_ALIAS(cudaStreamSynchronize, "cudaStreamSynchronize_ptsz");

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_check(cuStreamQuery(stream)));
}
RT_ALIAS(cudaStreamQuery, "cudaStreamQuery_ptsz");

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamWaitEvent(stream, event, flags)));
}
RT_ALIAS(cudaStreamWaitEvent, "cudaStreamWaitEvent_ptsz");

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamGetPriority(hStream, priority)));
}
RT_ALIAS(cudaStreamGetPriority, "cudaStreamGetPriority_ptsz");

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamGetFlags(hStream, flags)));
}
RT_ALIAS(cudaStreamGetFlags, "cudaStreamGetFlags_ptsz");

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamGetId(hStream, streamId)));
}
RT_ALIAS(cudaStreamGetId, "cudaStreamGetId_ptsz");

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    if (!device) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUdevice d;
    CUresult r = cuStreamGetDevice(hStream, &d);
    if (!r) *device = d;
    return rt_ret(rt_err(r));
}
RT_ALIAS(cudaStreamGetDevice, "cudaStreamGetDevice_ptsz");

/* A stream callback receives a cudaError_t, the driver's a CUresult. */
typedef struct rt_cb {
    cudaStreamCallback_t fn;
    void *user;
} rt_cb;

static void callback(CUstream s, CUresult status, void *p)
{
    rt_cb cb = *(rt_cb *)p;
    free(p);
    cb.fn(s, rt_err(status), cb.user);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t fn, void *userData, unsigned int flags)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!fn) return rt_ret(cudaErrorInvalidValue);
    rt_cb *cb = tp_malloc(sizeof *cb);
    cb->fn = fn;
    cb->user = userData;
    CUresult r = cuStreamAddCallback(stream, callback, cb, flags);
    if (r) free(cb);
    return rt_ret(rt_err(r));
}
RT_ALIAS(cudaStreamAddCallback, "cudaStreamAddCallback_ptsz");

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamAttachMemAsync(stream, (CUdeviceptr)(uintptr_t)devPtr, length, flags)));
}
RT_ALIAS(cudaStreamAttachMemAsync, "cudaStreamAttachMemAsync_ptsz");

/* Stream capture is not supported: no stream is ever capturing. */
static cudaError_t is_capturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    if (!pCaptureStatus) return cudaErrorInvalidValue;
    CUstreamCaptureStatus st;
    CUresult r = cuStreamIsCapturing(stream, &st);
    if (!r) *pCaptureStatus = (enum cudaStreamCaptureStatus)st;
    return rt_err(r);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    return rt_ret(is_capturing(stream, pCaptureStatus));
}
RT_ALIAS(cudaStreamIsCapturing, "cudaStreamIsCapturing_ptsz");

/* ---- events ------------------------------------------------------------------------- */

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    if (!event) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuEventCreate(event, CU_EVENT_DEFAULT)));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuEventCreate(event, flags)));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuEventRecord(event, stream)));
}
RT_ALIAS(cudaEventRecord, "cudaEventRecord_ptsz");

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuEventRecordWithFlags(event, stream, flags)));
}
RT_ALIAS(cudaEventRecordWithFlags, "cudaEventRecordWithFlags_ptsz");

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_check(cuEventQuery(event)));
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_check(cuEventSynchronize(event)));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuEventDestroy(event)));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuEventElapsedTime(ms, start, end)));
}

/* ---- stream attributes and capture -------------------------------------------------- */

_Static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUstreamAttrValue), "attribute values differ");

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr, cudaLaunchAttributeValue *value_out)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamGetAttribute(hStream, (CUstreamAttrID)attr, (CUstreamAttrValue *)(void *)value_out)));
}
RT_ALIAS(cudaStreamGetAttribute, "cudaStreamGetAttribute_ptsz");

cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr, const cudaLaunchAttributeValue *value)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(
        rt_err(cuStreamSetAttribute(hStream, (CUstreamAttrID)attr, (const CUstreamAttrValue *)(const void *)value)));
}
RT_ALIAS(cudaStreamSetAttribute, "cudaStreamSetAttribute_ptsz");

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuStreamCopyAttributes(dst, src)));
}
RT_ALIAS(cudaStreamCopyAttributes, "cudaStreamCopyAttributes_ptsz");

/* No stream is ever capturing (graphs are not supported): libraries that
** check before they enqueue work (CUB, Thrust) go on. */
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, void *graph_out, const void **dependencies_out,
                                     const void **edgeData_out, size_t *numDependencies_out)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!captureStatus_out) return rt_ret(cudaErrorInvalidValue);
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    cuuint64_t id = 0;
    CUgraph g = NULL;
    const CUgraphNode *deps = NULL;
    const CUgraphEdgeData *ed = NULL;
    size_t n = 0;
    CUresult r = cuStreamGetCaptureInfo(stream, &st, &id, &g, &deps, &ed, &n);
    if (r) return rt_ret(rt_err(r));
    *captureStatus_out = (enum cudaStreamCaptureStatus)st;
    if (id_out) *id_out = id;
    if (graph_out) *(CUgraph *)graph_out = g;
    if (dependencies_out) *dependencies_out = (const void *)deps;
    if (edgeData_out) *edgeData_out = NULL;   /* every edge is a default one */
    if (numDependencies_out) *numDependencies_out = n;
    return cudaSuccess;
}
RT_ALIAS(cudaStreamGetCaptureInfo, "cudaStreamGetCaptureInfo_ptsz");

cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    if (!mode) return rt_ret(cudaErrorInvalidValue);
    CUstreamCaptureMode m = (CUstreamCaptureMode)*mode;
    CUresult r = cuThreadExchangeStreamCaptureMode(&m);
    if (!r) *mode = (int)m;
    return rt_ret(rt_err(r));
}
