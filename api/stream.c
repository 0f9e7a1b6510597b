/* stream.c -- streams and events.
**
** A stream orders the operations issued on it (queue.c runs them); the
** legacy default stream is each context's `legacy` member, the per-thread
** default stream (CU_STREAM_PER_THREAD) a stream each thread gets per
** context on first use.  Synchronizing waits for the stream's work and
** returns the first kernel error of it (api_ctx_result); querying says
** CUDA_ERROR_NOT_READY while work is pending.  An event record is an
** operation: the event is complete when the device reaches its newest
** record, and then holds its context's simulated clock (see api.h);
** cuEventElapsedTime is the difference in milliseconds at clock.core_mhz.
** Host functions and callbacks are operations too: they run on the device
** thread in stream order (queue.c).  Streams and events destroyed with work
** pending are freed when it is done.
*/
#include "api.h"
#include <stdlib.h>

#define API_PRIO_LEAST 0
#define API_PRIO_GREATEST (-5)

#define LIST_ADD(head, x)                                                      \
    do {                                                                       \
        (x)->prev = NULL;                                                      \
        (x)->next = (head);                                                    \
        if (head) (head)->prev = (x);                                          \
        (head) = (x);                                                          \
    } while (0)
#define LIST_DEL(head, x)                                                      \
    do {                                                                       \
        if ((x)->prev) (x)->prev->next = (x)->next;                            \
        else (head) = (x)->next;                                               \
        if ((x)->next) (x)->next->prev = (x)->prev;                            \
    } while (0)

/* ---- streams --------------------------------------------------------------- */

void api_stream_unref(api_stream *s)
{
    TP_ASSERT(s->refs > 0);
    if (--s->refs == 0) {
        free(s->cap_deps);
        free(s);
    }
}

void api_stream_destroy(api_stream *s)
{
    LIST_DEL(s->ctx->streams, s);
    api_handle_del(s);
    if (s->priority != 0) s->ctx->prio_streams--;
    s->dead = true;
    api_stream_unref(s);
}

/* Per-thread default streams: one per (thread, context life). */
typedef struct ptds_slot {
    api_ctx *ctx;
    uint64_t epoch;
    api_stream *s;
} ptds_slot;
static _Thread_local ptds_slot tls_ptds[8];

api_stream *api_ptds(api_ctx *c)
{
    int free_slot = -1;
    for (int i = 0; i < 8; i++) {
        if (tls_ptds[i].ctx == c && tls_ptds[i].epoch == c->epoch && tls_ptds[i].s) return tls_ptds[i].s;
        if (free_slot < 0 && (!tls_ptds[i].s || tls_ptds[i].epoch != tls_ptds[i].ctx->epoch ||
                              tls_ptds[i].ctx->dead))
            free_slot = i;
    }
    if (free_slot < 0) free_slot = 0;   /* more than 8 contexts on one thread: an older one gets a new stream */
    api_stream *s = tp_calloc(1, sizeof *s);
    s->ctx = c;
    s->implicit = true;
    s->refs = 1;
    s->id = api_g.next_id++;
    s->sync_policy = CU_SYNC_POLICY_AUTO;
    s->domain_map.remote = 1;
    LIST_ADD(c->streams, s);
    api_handle_add(s, API_K_STREAM);
    tls_ptds[free_slot] = (ptds_slot){c, c->epoch, s};
    return s;
}

static CUresult stream_create(CUstream *ph, unsigned flags, int priority)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!ph || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING)) return CUDA_ERROR_INVALID_VALUE;
    api_stream *s = tp_calloc(1, sizeof *s);
    s->ctx = c;
    s->flags = flags;
    /* out-of-range priorities are clamped, as the driver does */
    s->priority = TP_MAX(API_PRIO_GREATEST, TP_MIN(API_PRIO_LEAST, priority));
    s->id = api_g.next_id++;
    s->refs = 1;
    s->sync_policy = CU_SYNC_POLICY_AUTO;
    s->domain_map.remote = 1;
    if (s->priority != 0) c->prio_streams++;
    LIST_ADD(c->streams, s);
    api_handle_add(s, API_K_STREAM);
    *ph = s;
    return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) { API_LOCKED(stream_create(phStream, Flags, 0)); }

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    API_LOCKED(stream_create(phStream, flags, priority));
}

static CUresult stream_destroy(CUstream h)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_STREAM) || h->implicit) {
        if (api_handle_is(h, API_K_STREAM)) api_why("the per-thread default stream cannot be destroyed");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    /* a stream that joined a capture may go: its work stays in the graph (capture.c) */
    api_capture_stream_gone(h);
    api_stream_destroy(h);
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream hStream) { API_LOCKED(stream_destroy(hStream)); }
API_ALIAS(cuStreamDestroy_v2, "cuStreamDestroy");

/* The context and stream a stream argument names (NULL: the legacy stream;
** CU_STREAM_PER_THREAD: the calling thread's per-thread stream). */
CUresult api_stream_of(CUstream h, api_ctx **c, api_stream **s)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (h && h != CU_STREAM_LEGACY && h != CU_STREAM_PER_THREAD) {
        if (!api_handle_is(h, API_K_STREAM)) {
            api_why("the stream is not a live stream (never created, or destroyed)");
            return CUDA_ERROR_INVALID_HANDLE;
        }
        *c = h->ctx;
        *s = h;
        return CUDA_SUCCESS;
    }
    *s = NULL;
    if ((r = api_current(c, false))) return r;
    if (h == CU_STREAM_PER_THREAD) *s = api_ptds(*c);
    return CUDA_SUCCESS;
}

static CUresult stream_sync(CUstream h)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if ((r = api_capture_sync_check(c, s))) return r;
    return api_wait_stream(c, s);
}

CUresult cuStreamSynchronize(CUstream hStream) { API_LOCKED(stream_sync(hStream)); }
API_ALIAS(cuStreamSynchronize, "cuStreamSynchronize_ptsz");

static CUresult stream_query(CUstream h)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if ((r = api_capture_sync_check(c, s))) return r;
    return api_query_stream(c, s);
}

CUresult cuStreamQuery(CUstream hStream) { API_LOCKED(stream_query(hStream)); }
API_ALIAS(cuStreamQuery, "cuStreamQuery_ptsz");

static CUresult stream_priority(CUstream h, int *prio)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!prio) return CUDA_ERROR_INVALID_VALUE;
    *prio = s ? s->priority : 0;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetPriority(CUstream hStream, int *priority) { API_LOCKED(stream_priority(hStream, priority)); }
API_ALIAS(cuStreamGetPriority, "cuStreamGetPriority_ptsz");

static CUresult stream_flags(CUstream h, unsigned *flags)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = s ? s->flags : 0;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags) { API_LOCKED(stream_flags(hStream, flags)); }
API_ALIAS(cuStreamGetFlags, "cuStreamGetFlags_ptsz");

/* The legacy default stream has id 0, the per-thread one id 1. */
static CUresult stream_id(CUstream h, unsigned long long *id)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!id) return CUDA_ERROR_INVALID_VALUE;
    *id = h == CU_STREAM_PER_THREAD ? 1 : s ? s->id + 1 : 0;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId) { API_LOCKED(stream_id(hStream, streamId)); }
API_ALIAS(cuStreamGetId, "cuStreamGetId_ptsz");

static CUresult stream_device(CUstream h, CUdevice *dev)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!dev) return CUDA_ERROR_INVALID_VALUE;
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device) { API_LOCKED(stream_device(hStream, device)); }
API_ALIAS(cuStreamGetDevice, "cuStreamGetDevice_ptsz");

static CUresult stream_ctx(CUstream h, CUcontext *pctx, CUgreenCtx *pgreen, bool v2)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!pctx || (v2 && !pgreen)) return CUDA_ERROR_INVALID_VALUE;
    *pctx = c;
    if (v2) *pgreen = NULL;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx) { API_LOCKED(stream_ctx(hStream, pctx, NULL, false)); }
API_ALIAS(cuStreamGetCtx, "cuStreamGetCtx_ptsz");
CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    API_LOCKED(stream_ctx(hStream, pCtx, pGreenCtx, true));
}
API_ALIAS(cuStreamGetCtx_v2, "cuStreamGetCtx_v2_ptsz");

static CUresult stream_wait_event(CUstream h, CUevent ev, unsigned flags)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!api_handle_is(ev, API_K_EVENT)) {
        api_why("the event is not a live event");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL) return CUDA_ERROR_INVALID_VALUE;
    if (c->sticky) return api_ctx_result(c, 0);
    /* an event recorded in a capture joins this stream to it (capture.c) */
    if (ev->cap || (s && s->cap) || c->legacy.cap) return api_capture_wait_event(c, s, ev, flags);
    api_work w = {.kind = API_W_NOP};
    return api_issue(c, s, &w, &ev, 1, NULL);
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    API_LOCKED(stream_wait_event(hStream, hEvent, Flags));
}
API_ALIAS(cuStreamWaitEvent, "cuStreamWaitEvent_ptsz");

static CUresult attach_mem(CUstream h, CUdeviceptr p, size_t len, unsigned flags)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (c->sticky) return c->sticky;
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags == CU_MEM_ATTACH_SINGLE && !s) return CUDA_ERROR_INVALID_VALUE;
    api_alloc *a = api_alloc_find(p);
    if (!a || a->kind != API_MEM_MANAGED || (len != 0 && (p != a->base || len != a->size)))
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    API_LOCKED(attach_mem(hStream, dptr, length, flags));
}
API_ALIAS(cuStreamAttachMemAsync, "cuStreamAttachMemAsync_ptsz");

/* Stream attributes: kept and reported; streams run in issue order whatever
** they say.  The default stream has the default values and cannot be set. */
static CUresult stream_attr_get(CUstream h, CUstreamAttrID id, CUstreamAttrValue *v)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    api_stream def;
    if (!s) {
        memset(&def, 0, sizeof def);
        def.sync_policy = CU_SYNC_POLICY_AUTO;
        def.domain_map.remote = 1;
        s = &def;
    }
    switch (id) {
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: v->priority = s->priority; break;
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY: v->syncPolicy = s->sync_policy; break;
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: v->accessPolicyWindow = s->window; break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: v->memSyncDomainMap = s->domain_map; break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: v->memSyncDomain = s->domain; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
    API_LOCKED(stream_attr_get(hStream, attr, value_out));
}
API_ALIAS(cuStreamGetAttribute, "cuStreamGetAttribute_ptsz");

/* Priorities are clamped to the device's range, as the driver does; the
** queue holds a context's work while any of its streams has one (queue.c). */
static void set_priority(api_stream *s, int prio)
{
    prio = TP_MAX(API_PRIO_GREATEST, TP_MIN(API_PRIO_LEAST, prio));
    if (s->implicit) return;
    if (s->priority != 0) s->ctx->prio_streams--;
    s->priority = prio;
    if (prio != 0) s->ctx->prio_streams++;
}

CUresult api_window_check(const CUaccessPolicyWindow *w)
{
    int64_t max = api_opt(OPT_DEVICE_ACCESS_POLICY_MAX_WINDOW);
    if (w->num_bytes > (uint64_t)max) {
        if (max == 0)
            api_why("an access-policy window of %zu bytes: %s GPUs have none (device.access_policy_max_window = 0)",
                    w->num_bytes, api_arch());
        else
            api_why("an access-policy window of %zu bytes; the device allows %lld (device.access_policy_max_window)",
                    w->num_bytes, (long long)max);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f)) {
        api_why("the access-policy window's hit ratio %g is not in [0, 1]", (double)w->hitRatio);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if ((unsigned)w->hitProp > CU_ACCESS_PROPERTY_PERSISTING || (unsigned)w->missProp > CU_ACCESS_PROPERTY_PERSISTING) {
        api_why("the access-policy window's properties (%d, %d) are not CUaccessProperty values", (int)w->hitProp,
                (int)w->missProp);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (w->missProp == CU_ACCESS_PROPERTY_PERSISTING) {
        api_why("an access-policy window's misses cannot persist (missProp must be normal or streaming)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult stream_attr_set(CUstream h, CUstreamAttrID id, const CUstreamAttrValue *v)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    if (!s) return CUDA_ERROR_INVALID_HANDLE;
    switch (id) {
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: set_priority(s, v->priority); break;
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        if (v->syncPolicy < CU_SYNC_POLICY_AUTO || v->syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC)
            return CUDA_ERROR_INVALID_VALUE;
        s->sync_policy = v->syncPolicy;
        break;
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        if ((r = api_window_check(&v->accessPolicyWindow))) return r;
        s->window = v->accessPolicyWindow;
        break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: s->domain_map = v->memSyncDomainMap; break;
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        if ((unsigned)v->memSyncDomain > CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE) return CUDA_ERROR_INVALID_VALUE;
        s->domain = v->memSyncDomain;
        break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
    API_LOCKED(stream_attr_set(hStream, attr, value));
}
API_ALIAS(cuStreamSetAttribute, "cuStreamSetAttribute_ptsz");

static CUresult stream_attr_copy(CUstream dst, CUstream src)
{
    api_ctx *c, *c2;
    api_stream *d, *s;
    CUresult r = api_stream_of(dst, &c, &d);
    if (r || (r = api_stream_of(src, &c2, &s))) return r;
    if (!d) return CUDA_ERROR_INVALID_HANDLE;
    set_priority(d, s ? s->priority : 0);
    d->sync_policy = s ? s->sync_policy : CU_SYNC_POLICY_AUTO;
    memset(&d->window, 0, sizeof d->window);
    if (s) d->window = s->window;
    d->domain_map.default_ = s ? s->domain_map.default_ : 0;
    d->domain_map.remote = s ? s->domain_map.remote : 1;
    d->domain = s ? s->domain : CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT;
    return CUDA_SUCCESS;
}

CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) { API_LOCKED(stream_attr_copy(dst, src)); }
API_ALIAS(cuStreamCopyAttributes, "cuStreamCopyAttributes_ptsz");

/* Host work is an operation: it runs on the device thread when the stream
** reaches it (queue.c), holding no lock.  A callback gets the stream's
** status (the context's kernel error, if one was met). */
static CUresult add_callback(CUstream h, CUstreamCallback fn, void *user, unsigned flags)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!fn || flags != 0) {
        api_why(!fn ? "the callback is NULL" : "flags must be 0");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if ((s && s->cap) || (!s && c->legacy.cap)) {
        api_why("stream callbacks cannot be captured (use cuLaunchHostFunc)");
        api_capture_invalidate(s ? s->cap : c->legacy.cap);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    api_work w = {.kind = API_W_CALLBACK};
    w.u.cb.fn = fn;
    w.u.cb.user = user;
    w.u.cb.stream = h;
    return api_issue(c, s, &w, NULL, 0, NULL);
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    API_LOCKED(add_callback(hStream, callback, userData, flags));
}
API_ALIAS(cuStreamAddCallback, "cuStreamAddCallback_ptsz");

static CUresult host_func(CUstream h, CUhostFn fn, void *user)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!fn) {
        api_why("the host function is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (c->sticky) return api_ctx_result(c, 0);
    api_work w = {.kind = API_W_HOST};
    w.u.host.fn = fn;
    w.u.host.user = user;
    return api_issue(c, s, &w, NULL, 0, NULL);
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData) { API_LOCKED(host_func(hStream, fn, userData)); }
API_ALIAS(cuLaunchHostFunc, "cuLaunchHostFunc_ptsz");

/* ---- events ----------------------------------------------------------------- */

void api_event_unref(api_event *e)
{
    TP_ASSERT(e->refs > 0);
    if (--e->refs == 0) {
        free(e->cap_nodes);
        free(e);
    }
}

void api_event_destroy(api_event *e)
{
    LIST_DEL(e->ctx->events, e);
    api_handle_del(e);
    e->dead = true;
    api_event_unref(e);
}

static CUresult event_create(CUevent *ph, unsigned flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    unsigned all = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
    if (!ph || (flags & ~all)) return CUDA_ERROR_INVALID_VALUE;
    /* an interprocess event must not time (as in CUDA) */
    if ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING)) return CUDA_ERROR_INVALID_VALUE;
    api_event *e = tp_calloc(1, sizeof *e);
    e->ctx = c;
    e->flags = flags;
    e->refs = 1;
    LIST_ADD(c->events, e);
    api_handle_add(e, API_K_EVENT);
    *ph = e;
    return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) { API_LOCKED(event_create(phEvent, Flags)); }

static CUresult event_destroy(CUevent h)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
    api_event_destroy(h);
    return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent hEvent) { API_LOCKED(event_destroy(hEvent)); }
API_ALIAS(cuEventDestroy_v2, "cuEventDestroy");

static CUresult event_record(CUevent h, CUstream hs, unsigned flags)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
    api_ctx *c;
    api_stream *s;
    if ((r = api_stream_of(hs, &c, &s))) return r;
    if (h->ctx != c) {
        api_why("the event and the stream belong to different contexts");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL) return CUDA_ERROR_INVALID_VALUE;
    if (c->sticky) return api_ctx_result(c, 0);
    api_stream *q = s ? s : &c->legacy;
    if (q->cap || c->legacy.cap) return api_capture_record(c, s, h, flags);
    api_work w = {.kind = API_W_RECORD};
    w.u.rec.ev = h;
    w.u.rec.gen = ++h->gen;
    h->refs++;
    /* a record replaces any capture the event stood for */
    h->cap = NULL;
    h->ncap_nodes = 0;
    if ((r = api_issue(c, s, &w, NULL, 0, NULL))) {
        h->gen--;
        h->refs--;
    }
    return r;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream) { API_LOCKED(event_record(hEvent, hStream, 0)); }
API_ALIAS(cuEventRecord, "cuEventRecord_ptsz");
CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    API_LOCKED(event_record(hEvent, hStream, flags));
}
API_ALIAS(cuEventRecordWithFlags, "cuEventRecordWithFlags_ptsz");

/* A never-recorded event counts as complete, as in CUDA. */
static CUresult event_sync(CUevent h, bool query)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_EVENT)) {
        api_why("the event is not a live event");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (h->cap) {
        api_why("the event was recorded in a stream capture: it stands for graph nodes, not device work");
        api_capture_invalidate(h->cap);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    return query ? api_query_event(h) : api_wait_event(h);
}

CUresult cuEventQuery(CUevent hEvent) { API_LOCKED(event_sync(hEvent, true)); }
CUresult cuEventSynchronize(CUevent hEvent) { API_LOCKED(event_sync(hEvent, false)); }

static CUresult elapsed(float *ms, CUevent a, CUevent b)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!ms) return CUDA_ERROR_INVALID_VALUE;
    if (!api_handle_is(a, API_K_EVENT) || !api_handle_is(b, API_K_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
    if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) {
        api_why("an event created with CU_EVENT_DISABLE_TIMING has no time");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (a->ctx != b->ctx) return CUDA_ERROR_INVALID_HANDLE;
    if (a->ctx->sticky) return api_ctx_result(a->ctx, 0);
    /* an event whose newest record the device has not reached yet */
    if ((r = api_query_event(a)) || (r = api_query_event(b))) {
        if (r == CUDA_ERROR_NOT_READY) api_why("an event's newest record is still pending on the device");
        return r;
    }
    if (!a->recorded || !b->recorded) {
        api_why("an event that was never recorded has no time");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    double cycles = (double)b->clock - (double)a->clock;
    *ms = (float)(cycles / (tp_opt_f(&api_g.opts, OPT_CLOCK_CORE_MHZ) * 1000.0));
    return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    API_LOCKED(elapsed(pMilliseconds, hStart, hEnd));
}
API_ALIAS(cuEventElapsedTime_v2, "cuEventElapsedTime");
