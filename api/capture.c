/* capture.c -- stream capture: work issued on a capturing stream becomes graph nodes.
**
** cuStreamBeginCapture makes a capture (its graph, its mode, the thread that
** began it) and marks the stream.  Work issued on a capturing stream is not
** run: it becomes a node depending on the stream's current dependencies
** (the nodes of its previous work), which it then replaces.  An event
** recorded in a capturing stream stands for the stream's dependencies at
** that point; a stream that waits for it joins the capture (cross-stream
** capture: fork and join through events) or, already in it, adds them to
** its dependencies.  cuStreamEndCapture, on the stream that began it, gives
** the graph when every stream that joined has been joined back (its work
** is an ancestor of the origin stream's last work), else
** CUDA_ERROR_STREAM_CAPTURE_UNJOINED.  Destroying a stream that joined
** leaves its work in the graph: the capture keeps the nodes the stream's
** work ended at, which must have been joined back all the same (a stream
** destroyed after joining back is fine; one destroyed while still forked
** makes the end CUDA_ERROR_STREAM_CAPTURE_UNJOINED).  Destroying the origin
** stream abandons the capture: its graph is discarded and the streams that
** joined leave it.
**
** What would synchronize is refused and invalidates the capture, which then
** refuses its streams' work and ends with CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:
** synchronizing or querying a capturing stream, or an event recorded in
** it; the legacy default stream's implicit synchronization with a capturing
** blocking stream; cuCtxSynchronize while a capture in global mode (any
** thread) or thread-local mode (this thread) is under way.  A thread in
** relaxed mode (cuThreadExchangeStreamCaptureMode) is never refused.
*/
#include "api.h"
#include <pthread.h>
#include <stdlib.h>

struct api_capture {
    api_ctx *ctx;
    api_graph *g;
    CUstreamCaptureMode mode;
    api_stream *origin;
    pthread_t thread;
    uint64_t id;
    bool invalid;
    bool own_graph;        /* made by the capture (else cuStreamBeginCaptureToGraph's) */
    api_gnode **gone;      /* where the work of joined streams destroyed since ended */
    uint32_t ngone, capgone;
    api_capture *next;
};

static api_capture *captures;            /* the captures under way */
static uint64_t next_capture_id = 1;
static _Thread_local CUstreamCaptureMode tls_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
static _Thread_local bool tls_mode_set;

/* The streams of c that may take part in a capture: the created ones and
** the calling thread's per-thread stream. */
static void each_stream(api_ctx *c, void (*fn)(api_stream *, api_capture *), api_capture *cap)
{
    for (api_stream *s = c->streams; s; s = s->next) fn(s, cap);
}

static void set_deps(api_stream *s, api_gnode *const *deps, uint32_t n)
{
    if (n > s->capcap_deps) {
        s->capcap_deps = n;
        s->cap_deps = tp_realloc(s->cap_deps, n * sizeof *s->cap_deps);
    }
    if (n) memcpy(s->cap_deps, deps, n * sizeof *deps);
    s->ncap_deps = n;
}

static void add_deps(api_stream *s, api_gnode *const *deps, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        bool have = false;
        for (uint32_t j = 0; j < s->ncap_deps; j++) have |= s->cap_deps[j] == deps[i];
        if (have) continue;
        if (s->ncap_deps == s->capcap_deps) {
            s->capcap_deps = s->capcap_deps ? 2 * s->capcap_deps : 4;
            s->cap_deps = tp_realloc(s->cap_deps, s->capcap_deps * sizeof *s->cap_deps);
        }
        s->cap_deps[s->ncap_deps++] = deps[i];
    }
}

static void leave(api_stream *s, api_capture *cap)
{
    if (s->cap != cap) return;
    s->cap = NULL;
    s->ncap_deps = 0;
}

/* Ends cap: every stream leaves it, events recorded in it stand for nothing. */
static void capture_end(api_capture *cap)
{
    api_ctx *c = cap->ctx;
    each_stream(c, leave, cap);
    leave(&c->legacy, cap);
    leave(cap->origin, cap);
    for (api_event *e = c->events; e; e = e->next)
        if (e->cap == cap) {
            e->cap = NULL;
            e->ncap_nodes = 0;
        }
    for (api_capture **p = &captures; *p; p = &(*p)->next)
        if (*p == cap) {
            *p = cap->next;
            break;
        }
}

static void capture_free(api_capture *cap, bool keep_graph)
{
    if (cap->own_graph && !keep_graph) api_graph_free(cap->g);
    free(cap->gone);
    free(cap);
}

void api_capture_invalidate(api_capture *cap)
{
    if (cap) cap->invalid = true;
}

void api_capture_ctx_gone(api_ctx *c)
{
    for (api_capture *cap = captures, *nx; cap; cap = nx) {
        nx = cap->next;
        if (cap->ctx != c) continue;
        capture_end(cap);
        capture_free(cap, false);
    }
}

void api_capture_stream_gone(api_stream *s)
{
    api_capture *cap = s->cap;
    if (!cap) return;
    if (cap->origin == s) {
        /* nothing can end the capture any more: abandon it */
        capture_end(cap);
        capture_free(cap, false);
        return;
    }
    /* the stream's work stays in the graph; where it ended must still be joined back */
    for (uint32_t i = 0; i < s->ncap_deps; i++) {
        bool have = false;
        for (uint32_t j = 0; j < cap->ngone && !have; j++) have = cap->gone[j] == s->cap_deps[i];
        if (have) continue;
        if (cap->ngone == cap->capgone) {
            cap->capgone = cap->capgone ? 2 * cap->capgone : 4;
            cap->gone = tp_realloc(cap->gone, cap->capgone * sizeof *cap->gone);
        }
        cap->gone[cap->ngone++] = s->cap_deps[i];
    }
    leave(s, cap);
}

CUresult api_capture_issue_check(api_ctx *c, api_stream *q)
{
    if (q->cap) {
        if (q->cap->invalid) {
            api_why("the stream's capture was invalidated by an earlier call; end it with cuStreamEndCapture");
            return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
        }
        return CUDA_SUCCESS;
    }
    /* the legacy stream synchronizes with every blocking stream: not with a capturing one */
    if (q->legacy) {
        for (api_stream *s = c->streams; s; s = s->next)
            if (s->cap && !(s->flags & CU_STREAM_NON_BLOCKING)) {
                api_why("work on the legacy default stream would synchronize with a capturing stream "
                        "(use a non-blocking stream, or per-thread default streams)");
                api_capture_invalidate(s->cap);
                return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
            }
    }
    return CUDA_SUCCESS;
}

static CUgraphNodeType node_type_of(api_work_kind k)
{
    switch (k) {
    case API_W_KERNEL: return CU_GRAPH_NODE_TYPE_KERNEL;
    case API_W_COPY: return CU_GRAPH_NODE_TYPE_MEMCPY;
    case API_W_MEMSET: return CU_GRAPH_NODE_TYPE_MEMSET;
    case API_W_HOST: return CU_GRAPH_NODE_TYPE_HOST;
    case API_W_MEMFREE: return CU_GRAPH_NODE_TYPE_MEM_FREE;
    default: return CU_GRAPH_NODE_TYPE_EMPTY;
    }
}

CUresult api_capture_add(api_stream *q, api_work *w, api_event *const *waits, uint32_t nwaits)
{
    api_capture *cap = q->cap;
    if (w->kind == API_W_CALLBACK || w->kind == API_W_GRAPH || w->kind == API_W_RECORD) {
        api_why("%s cannot be captured yet",
                w->kind == API_W_CALLBACK ? "a stream callback (cuStreamAddCallback; cuLaunchHostFunc can)"
                : w->kind == API_W_GRAPH  ? "a graph launch"
                                          : "this event record");
        api_capture_invalidate(cap);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    if (w->kind == API_W_MEMFREE && w->u.mem.a && w->u.mem.a->kind != API_MEM_GRAPH) {
        api_why("freeing a stream-ordered allocation made outside the capture is not supported in a capture");
        api_capture_invalidate(cap);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    for (uint32_t i = 0; i < nwaits; i++) {
        api_gnode *n;
        api_gnode_add_wait(cap->g, waits[i], q->cap_deps, q->ncap_deps, &n);
        set_deps(q, &n, 1);
    }
    api_gnode *n;
    CUresult r = api_gnode_add(cap->g, node_type_of(w->kind), w, q->cap_deps, q->ncap_deps, &n);
    if (r) return r;
    set_deps(q, &n, 1);
    return CUDA_SUCCESS;
}

CUresult api_capture_alloc(api_stream *q, uint64_t bytes, CUdeviceptr *dptr)
{
    api_gnode *n;
    CUresult r = api_gnode_add_alloc(q->cap->g, bytes, q->cap_deps, q->ncap_deps, &n, dptr);
    if (r) return r;
    set_deps(q, &n, 1);
    return CUDA_SUCCESS;
}

CUresult api_capture_record(api_ctx *c, api_stream *s, api_event *e, unsigned flags)
{
    api_stream *q = s ? s : &c->legacy;
    if (!q->cap) return api_capture_issue_check(c, q);   /* the legacy stream next to a capture */
    if (q->cap->invalid) return api_capture_issue_check(c, q);
    if (flags & CU_EVENT_RECORD_EXTERNAL) {
        api_why("external event records (CU_EVENT_RECORD_EXTERNAL) in a capture are not supported yet");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    e->cap = q->cap;
    e->cap_nodes = tp_realloc(e->cap_nodes, (q->ncap_deps + 1) * sizeof *e->cap_nodes);
    if (q->ncap_deps) memcpy(e->cap_nodes, q->cap_deps, q->ncap_deps * sizeof *q->cap_deps);
    e->ncap_nodes = q->ncap_deps;
    return CUDA_SUCCESS;
}

CUresult api_capture_wait_event(api_ctx *c, api_stream *s, api_event *e, unsigned flags)
{
    (void)flags;
    api_stream *q = s ? s : &c->legacy;
    if (e->cap) {
        if (e->cap->invalid) {
            api_why("the event belongs to an invalidated capture");
            return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
        }
        if (!q->cap) {
            if (q->legacy) {
                api_why("the legacy default stream cannot join a capture");
                api_capture_invalidate(e->cap);
                return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
            }
            /* the stream joins the capture */
            q->cap = e->cap;
            set_deps(q, e->cap_nodes, e->ncap_nodes);
            return CUDA_SUCCESS;
        }
        if (q->cap != e->cap) {
            api_why("the stream and the event belong to different captures");
            api_capture_invalidate(q->cap);
            api_capture_invalidate(e->cap);
            return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
        }
        add_deps(q, e->cap_nodes, e->ncap_nodes);
        return CUDA_SUCCESS;
    }
    if (!q->cap) {
        CUresult r = api_capture_issue_check(c, q);
        if (r) return r;
        api_work w = {.kind = API_W_NOP};
        return api_issue(c, s, &w, &e, 1, NULL);
    }
    /* a capturing stream waits for an event recorded outside the capture: an event wait node */
    api_work w = {.kind = API_W_NOP};
    return api_capture_add(q, &w, &e, 1);
}

static bool thread_refuses(const api_capture *cap)
{
    if (tls_mode_set && tls_mode == CU_STREAM_CAPTURE_MODE_RELAXED) return false;
    if (cap->mode == CU_STREAM_CAPTURE_MODE_GLOBAL) return true;
    if (cap->mode == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) return pthread_equal(cap->thread, pthread_self());
    return false;
}

CUresult api_capture_unsafe(api_ctx *c, const char *what)
{
    for (api_capture *cap = captures; cap; cap = cap->next) {
        if (cap->ctx != c || !thread_refuses(cap)) continue;
        api_why("%s during a stream capture (mode %s) is not allowed: it would synchronize", what,
                cap->mode == CU_STREAM_CAPTURE_MODE_GLOBAL ? "global" : "thread-local");
        cap->invalid = true;
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    return CUDA_SUCCESS;
}

CUresult api_capture_sync_check(api_ctx *c, api_stream *s)
{
    api_stream *q = s ? s : &c->legacy;
    if (q->cap) {
        api_why("synchronizing or querying a capturing stream is not allowed");
        q->cap->invalid = true;
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    if (q->legacy) return api_capture_issue_check(c, q);
    return CUDA_SUCCESS;
}

/* ---- entry points ------------------------------------------------------------------------ */

static CUresult begin(CUstream h, CUgraph g_in, const CUgraphNode *deps, size_t ndeps, CUstreamCaptureMode mode)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
        mode != CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    if (!s || s->legacy) {
        api_why("the legacy default stream cannot be captured (use a created stream or the per-thread one)");
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    if (s->cap) {
        api_why("the stream is capturing already");
        return CUDA_ERROR_ILLEGAL_STATE;
    }
    if (g_in) {
        if (!api_handle_is(g_in, API_K_GRAPH)) return CUDA_ERROR_INVALID_VALUE;
        if (ndeps && !deps) return CUDA_ERROR_INVALID_VALUE;
        for (size_t i = 0; i < ndeps; i++)
            if (!deps[i] || !api_handle_is(deps[i], API_K_GNODE)) return CUDA_ERROR_INVALID_VALUE;
    }
    api_capture *cap = tp_calloc(1, sizeof *cap);
    cap->ctx = c;
    cap->g = g_in ? g_in : api_graph_new(c);
    cap->own_graph = !g_in;
    cap->mode = mode;
    cap->origin = s;
    cap->thread = pthread_self();
    cap->id = next_capture_id++;
    cap->next = captures;
    captures = cap;
    s->cap = cap;
    set_deps(s, (api_gnode *const *)deps, g_in ? (uint32_t)ndeps : 0);
    return CUDA_SUCCESS;
}

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
    API_LOCKED(begin(hStream, NULL, NULL, 0, mode));
}
API_ALIAS(cuStreamBeginCapture_v2, "cuStreamBeginCapture_v2_ptsz");
API_EXPORT CUresult api_begin_capture_v1(CUstream) __asm__("cuStreamBeginCapture");
CUresult api_begin_capture_v1(CUstream h) { API_LOCKED(begin(h, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL)); }
API_EXPORT CUresult api_begin_capture_v1_ptsz(CUstream) __asm__("cuStreamBeginCapture_ptsz");
CUresult api_begin_capture_v1_ptsz(CUstream h) { API_LOCKED(begin(h, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL)); }

CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,
                                     const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                     CUstreamCaptureMode mode)
{
    (void)dependencyData;
    API_LOCKED(begin(hStream, hGraph, dependencies, numDependencies, mode));
}
API_ALIAS(cuStreamBeginCaptureToGraph, "cuStreamBeginCaptureToGraph_ptsz");

/* Whether every node of deps is an ancestor of (or one of) the origin q's dependencies. */
static bool joined(api_gnode *const *deps, uint32_t n, const api_stream *q)
{
    for (uint32_t i = 0; i < n; i++) {
        bool reached = false;
        for (uint32_t j = 0; j < q->ncap_deps && !reached; j++) reached = api_gnode_reaches(deps[i], q->cap_deps[j]);
        if (!reached) return false;
    }
    return true;
}

static CUresult end(CUstream h, CUgraph *out)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    api_stream *q = s ? s : &c->legacy;
    api_capture *cap = q->cap;
    if (!cap) {
        api_why("the stream is not capturing");
        return CUDA_ERROR_ILLEGAL_STATE;
    }
    if (cap->origin != q) {
        api_why("the capture must be ended on the stream that began it");
        cap->invalid = true;
        return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
    }
    if (cap->mode == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL && !pthread_equal(cap->thread, pthread_self())) {
        api_why("a thread-local capture must be ended by the thread that began it");
        return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
    }
    /* every stream that joined (live or destroyed since) must have been joined back into the origin */
    bool unjoined = false, gone_unjoined = false;
    for (api_stream *o = c->streams; o && !cap->invalid && !unjoined; o = o->next)
        if (o != q && o->cap == cap) unjoined = !joined(o->cap_deps, o->ncap_deps, q);
    if (!cap->invalid && !unjoined) unjoined = gone_unjoined = !joined(cap->gone, cap->ngone, q);
    *out = NULL;
    capture_end(cap);
    if (cap->invalid || unjoined) {
        if (gone_unjoined)
            api_why("a stream that joined the capture was destroyed before its work was joined back into the "
                    "stream that began it");
        else if (unjoined)
            api_why("a stream that joined the capture was not joined back into the stream that began it");
        else api_why("the capture was invalidated by an earlier call");
        capture_free(cap, false);
        return unjoined ? CUDA_ERROR_STREAM_CAPTURE_UNJOINED : CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    }
    *out = cap->g;
    capture_free(cap, true);
    return CUDA_SUCCESS;
}

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph) { API_LOCKED(end(hStream, phGraph)); }
API_ALIAS(cuStreamEndCapture, "cuStreamEndCapture_ptsz");

static CUresult is_capturing(CUstream h, CUstreamCaptureStatus *st)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    if (!st) return CUDA_ERROR_INVALID_VALUE;
    api_stream *q = s ? s : &c->legacy;
    if (q->legacy) {
        /* asking about the legacy stream while a blocking stream captures is itself an implicit sync */
        if ((r = api_capture_issue_check(c, q))) return r;
    }
    *st = !q->cap ? CU_STREAM_CAPTURE_STATUS_NONE
          : q->cap->invalid ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                            : CU_STREAM_CAPTURE_STATUS_ACTIVE;
    return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
    API_LOCKED(is_capturing(hStream, captureStatus));
}
API_ALIAS(cuStreamIsCapturing, "cuStreamIsCapturing_ptsz");

static CUresult capture_info(CUstream h, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g,
                             const CUgraphNode **deps, const CUgraphEdgeData **edata, size_t *ndeps)
{
    CUresult r = is_capturing(h, st);
    if (r) return r;
    api_ctx *c;
    api_stream *s;
    api_stream_of(h, &c, &s);
    api_stream *q = s ? s : &c->legacy;
    api_capture *cap = q->cap;
    if (edata) *edata = NULL;
    if (!cap || cap->invalid) return CUDA_SUCCESS;
    if (id) *id = cap->id;
    if (g) *g = cap->g;
    if (deps) *deps = (const CUgraphNode *)q->cap_deps;
    if (ndeps) *ndeps = q->ncap_deps;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                                   CUgraph *graph_out, const CUgraphNode **dependencies_out,
                                   const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    API_LOCKED(capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                            numDependencies_out));
}
API_ALIAS(cuStreamGetCaptureInfo_v3, "cuStreamGetCaptureInfo_v3_ptsz");

API_EXPORT CUresult api_capture_info_v2(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *,
                                        const CUgraphNode **, size_t *) __asm__("cuStreamGetCaptureInfo_v2");
CUresult api_capture_info_v2(CUstream h, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g,
                             const CUgraphNode **deps, size_t *n)
{
    API_LOCKED(capture_info(h, st, id, g, deps, NULL, n));
}
API_EXPORT CUresult api_capture_info_v2_ptsz(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *,
                                             const CUgraphNode **, size_t *) __asm__("cuStreamGetCaptureInfo_v2_ptsz");
CUresult api_capture_info_v2_ptsz(CUstream h, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g,
                                  const CUgraphNode **deps, size_t *n)
{
    API_LOCKED(capture_info(h, st, id, g, deps, NULL, n));
}
API_EXPORT CUresult api_capture_info_v1(CUstream, CUstreamCaptureStatus *, cuuint64_t *) __asm__("cuStreamGetCaptureInfo");
CUresult api_capture_info_v1(CUstream h, CUstreamCaptureStatus *st, cuuint64_t *id)
{
    API_LOCKED(capture_info(h, st, id, NULL, NULL, NULL, NULL));
}
API_EXPORT CUresult api_capture_info_v1_ptsz(CUstream, CUstreamCaptureStatus *, cuuint64_t *)
    __asm__("cuStreamGetCaptureInfo_ptsz");
CUresult api_capture_info_v1_ptsz(CUstream h, CUstreamCaptureStatus *st, cuuint64_t *id)
{
    API_LOCKED(capture_info(h, st, id, NULL, NULL, NULL, NULL));
}

static CUresult update_deps(CUstream h, CUgraphNode *deps, size_t n, unsigned flags)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_stream_of(h, &c, &s);
    if (r) return r;
    api_stream *q = s ? s : &c->legacy;
    if (!q->cap) return CUDA_ERROR_ILLEGAL_STATE;
    if (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES || (n && !deps)) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < n; i++)
        if (!deps[i] || !api_handle_is(deps[i], API_K_GNODE)) return CUDA_ERROR_INVALID_VALUE;
    if (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES) set_deps(q, (api_gnode *const *)deps, (uint32_t)n);
    else add_deps(q, (api_gnode *const *)deps, (uint32_t)n);
    return CUDA_SUCCESS;
}

CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode *dependencies,
                                              const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                              unsigned int flags)
{
    (void)dependencyData;
    API_LOCKED(update_deps(hStream, dependencies, numDependencies, flags));
}
API_ALIAS(cuStreamUpdateCaptureDependencies_v2, "cuStreamUpdateCaptureDependencies_v2_ptsz");
API_EXPORT CUresult api_update_deps_v1(CUstream, CUgraphNode *, size_t, unsigned)
    __asm__("cuStreamUpdateCaptureDependencies");
CUresult api_update_deps_v1(CUstream h, CUgraphNode *d, size_t n, unsigned f) { API_LOCKED(update_deps(h, d, n, f)); }
API_EXPORT CUresult api_update_deps_v1_ptsz(CUstream, CUgraphNode *, size_t, unsigned)
    __asm__("cuStreamUpdateCaptureDependencies_ptsz");
CUresult api_update_deps_v1_ptsz(CUstream h, CUgraphNode *d, size_t n, unsigned f)
{
    API_LOCKED(update_deps(h, d, n, f));
}

static CUresult exchange_mode(CUstreamCaptureMode *mode)
{
    if (!mode) return CUDA_ERROR_INVALID_VALUE;
    if (*mode != CU_STREAM_CAPTURE_MODE_GLOBAL && *mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
        *mode != CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    CUstreamCaptureMode old = tls_mode;
    tls_mode = *mode;
    tls_mode_set = true;
    *mode = old;
    return CUDA_SUCCESS;
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode) { API_LOCKED(exchange_mode(mode)); }
