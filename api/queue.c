/* queue.c -- device work in stream order: operations, the device thread, waits.
**
** Every stream-ordered call (api_issue) becomes an operation with a sequence
** number, its issue order.  Operations run one at a time, in sequence order,
** on the device thread (stream.async=1) or, with stream.async=0, on the
** thread that issued them before its call returns.  Issue order is a legal
** schedule for everything CUDA orders: a stream's own work, the legacy
** default stream's barrier against blocking streams, event waits (a wait
** names a record issued before it) and graph launches.  Running in that one
** order is what keeps the simulation deterministic: the device never looks
** at when the host did something, only at what it did, in what order.
**
** Priorities.  Only in a context with a stream of non-default priority can
** two operations be reordered: there, operations are held in an open batch
** until the program waits for or queries the device (or the batch reaches
** API_BATCH_MAX, or another context issues work), and the device runs a
** batch in priority order -- among the operations whose dependencies
** (stream order, the legacy stream's barrier, event waits) are done, the
** one of the highest priority, the earliest on a tie.  Batches run in the
** order they were submitted.  Which work is in a batch depends only on the
** sequence of calls, so the order stays deterministic.
**
** Errors.  A kernel's error is kept in its context (api_async_err) with the
** operation's sequence number; a wait that covers that operation -- it
** waited for it or for something issued after it -- returns it (sticky
** errors from then on, as api_current does).  A context whose kernel met a
** sticky error skips its later work (callbacks still run and see the
** error).  Device printf output is collected and written to stdout at the
** waits, as CUDA flushes it at synchronization points.
*/
#include "api.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define API_BATCH_MAX 4096

static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER;   /* the device: there is work */
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;   /* waiters: an operation finished */
static pthread_t dev_thread;
static bool dev_started;
static _Thread_local bool tls_device;    /* the device thread */
static _Thread_local int tls_hostfn;     /* inside a host function or callback */
static uint64_t running_seq;             /* the operation on the device (API lock) */

uint64_t api_op_seq_running(void) { return running_seq; }

bool api_in_device_work(void) { return tls_device || tls_hostfn > 0; }

/* ---- device printf ---------------------------------------------------------------
** exec/ writes each printf with fputs + fflush; the cookie keeps the text until
** a wait (or exit) writes it to stdout. */

static pthread_mutex_t print_mu = PTHREAD_MUTEX_INITIALIZER;
static tp_sbuf print_buf;
static FILE *print_file;

static ssize_t print_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    pthread_mutex_lock(&print_mu);
    for (size_t i = 0; i < n; i++) tp_sbuf_putc(&print_buf, buf[i]);
    pthread_mutex_unlock(&print_mu);
    return (ssize_t)n;
}

FILE *api_print_file(void)
{
    if (!print_file) {
        cookie_io_functions_t io = {NULL, print_write, NULL, NULL};
        tp_sbuf_init(&print_buf);
        print_file = fopencookie(NULL, "w", io);
        if (print_file) setvbuf(print_file, NULL, _IONBF, 0);
    }
    return print_file;
}

void api_print_flush(void)
{
    pthread_mutex_lock(&print_mu);
    if (print_buf.len) {
        fwrite(tp_sbuf_str(&print_buf), 1, print_buf.len, stdout);
        fflush(stdout);
        tp_sbuf_reset(&print_buf);
    }
    pthread_mutex_unlock(&print_mu);
}

/* ---- operations ------------------------------------------------------------------ */

void api_work_free(api_work *w)
{
    switch (w->kind) {
    case API_W_KERNEL:
        free(w->u.k.params);
        if (w->u.k.completion) api_event_unref(w->u.k.completion);
        break;
    case API_W_RECORD: api_event_unref(w->u.rec.ev); break;
    case API_W_GRAPH:
        api_gexec_unref(w->u.graph.gx);
        free(w->u.graph.gens);
        break;
    default: break;
    }
    memset(w, 0, sizeof *w);
}

static void op_unref(api_op *op)
{
    if (--op->refs) return;
    api_work_free(&op->w);
    api_stream_unref(op->stream);
    free(op->deps);
    free(op);
}

static void op_dep(api_op *op, api_op *d)
{
    if (!d || d == op) return;
    for (uint32_t i = 0; i < op->ndeps; i++)
        if (op->deps[i] == d) return;
    op->deps = tp_realloc(op->deps, (op->ndeps + 1) * sizeof *op->deps);
    op->deps[op->ndeps++] = d;
}

/* The events whose newest record this operation is (their `last`). */
static void op_events(api_op *op, void (*fn)(api_event *, api_op *))
{
    if (op->w.kind == API_W_RECORD) fn(op->w.u.rec.ev, op);
    if (op->w.kind == API_W_KERNEL && op->w.u.k.completion) fn(op->w.u.k.completion, op);
    if (op->w.kind == API_W_GRAPH) api_gexec_events(op->w.u.graph.gx, op, fn);
}

static void forget_last(api_event *e, api_op *op)
{
    if (e->last == op) e->last = NULL;
}

/* Submits the open batch: the device may run it now. */
static void submit_open(void)
{
    if (!api_g.open_head) return;
    for (api_op *op = api_g.open_head; op; op = op->next) {
        if (op->stream->last == op) op->stream->last = NULL;
        op_events(op, forget_last);
    }
    if (api_g.q_tail) api_g.q_tail->next = api_g.open_head;
    else api_g.q_head = api_g.open_head;
    api_g.q_tail = api_g.open_tail;
    api_g.open_head = api_g.open_tail = NULL;
    api_g.nopen = 0;
    pthread_cond_signal(&work_cv);
}

static bool holds(const api_ctx *c) { return c->prio_streams > 0; }

static void note_record(api_event *e, api_op *op)
{
    e->rec_seq = op->seq;
    if (holds(op->ctx)) e->last = op;
}

/* The dependencies of op inside the open batch. */
static void open_deps(api_op *op, api_event *const *waits, uint32_t nwaits)
{
    api_ctx *c = op->ctx;
    api_stream *q = op->stream;
    op_dep(op, q->last);
    if (q->legacy) {
        for (api_stream *s = c->streams; s; s = s->next)
            if (!(s->flags & CU_STREAM_NON_BLOCKING)) op_dep(op, s->last);
    } else if (!(q->flags & CU_STREAM_NON_BLOCKING)) {
        op_dep(op, c->legacy.last);
    }
    for (uint32_t i = 0; i < nwaits; i++)
        if (waits[i]) op_dep(op, waits[i]->last);
}

static void first_use(void);
static void drain_inline(void);

CUresult api_issue(api_ctx *c, api_stream *s, api_work *w, api_event *const *waits, uint32_t nwaits, api_op **out)
{
    api_stream *q = s ? s : &c->legacy;
    if (out) *out = NULL;
    CUresult r = api_capture_issue_check(c, q);
    if (r) return r;
    if (q->cap) return api_capture_add(q, w, waits, nwaits);
    api_op *op = tp_calloc(1, sizeof *op);
    op->w = *w;
    memset(w, 0, sizeof *w);
    op->ctx = c;
    op->stream = q;
    q->refs++;
    op->seq = api_g.next_seq++;
    op->prio = q->priority;
    op->refs = 1;
    c->npending++;
    q->npending++;
    q->last_seq = op->seq;
    op_events(op, note_record);
    /* an operation of another context closes the open batch, so batches
    ** never mix contexts and nothing waits on a held batch it cannot see */
    if (api_g.open_head && api_g.open_head->ctx != c) submit_open();
    if (holds(c)) {
        if (!api_g.open_head) op->batch = api_g.next_batch++;
        else op->batch = api_g.open_head->batch;
        open_deps(op, waits, nwaits);
        q->last = op;
        if (api_g.open_tail) api_g.open_tail->next = op;
        else api_g.open_head = op;
        api_g.open_tail = op;
        if (++api_g.nopen >= API_BATCH_MAX) submit_open();
    } else {
        submit_open();
        op->batch = api_g.next_batch++;
        if (api_g.q_tail) api_g.q_tail->next = op;
        else api_g.q_head = op;
        api_g.q_tail = op;
        pthread_cond_signal(&work_cv);
    }
    if (out) {
        op->refs++;
        *out = op;
    }
    first_use();
    if (!api_g.async) drain_inline();
    return CUDA_SUCCESS;
}

/* ---- the device ------------------------------------------------------------------- */

static bool deps_done(const api_op *op)
{
    for (uint32_t i = 0; i < op->ndeps; i++)
        if (!op->deps[i]->done) return false;
    return true;
}

/* The next operation to run: from the batch at the head of the queue, the
** ready one of the highest priority (lowest value), the earliest on a tie. */
static api_op *q_pick(void)
{
    api_op *h = api_g.q_head;
    if (!h) return NULL;
    api_op *best = NULL;
    for (api_op *op = h; op && op->batch == h->batch; op = op->next) {
        if (op->done || op->running) {
            if (op->running) return NULL;   /* one at a time */
            continue;
        }
        if (!deps_done(op)) continue;
        if (!best || op->prio < best->prio) best = op;
    }
    return best;
}

/* Called with the API lock: op has run. */
static void op_complete(api_op *op)
{
    op->running = false;
    op->done = true;
    op->ctx->npending--;
    op->stream->npending--;
    /* drop finished batches from the head of the queue */
    while (api_g.q_head) {
        api_op *h = api_g.q_head;
        bool all = true;
        for (api_op *o = h; o && o->batch == h->batch; o = o->next)
            if (!o->done) all = false;
        if (!all) break;
        uint64_t b = h->batch;
        while (api_g.q_head && api_g.q_head->batch == b) {
            api_op *o = api_g.q_head;
            api_g.q_head = o->next;
            if (!api_g.q_head) api_g.q_tail = NULL;
            op_unref(o);
        }
    }
    pthread_cond_broadcast(&done_cv);
}

static bool ctx_faulted(api_ctx *c)
{
    api_lock();
    bool f = c->faulted;
    api_unlock();
    return f;
}

void api_work_run(api_ctx *c, api_work *w, api_stream *s)
{
    switch (w->kind) {
    case API_W_NOP: break;
    case API_W_KERNEL:
        if (!ctx_faulted(c)) api_kernel_run(c, &w->u.k);
        if (w->u.k.completion) {
            api_lock();
            api_event *e = w->u.k.completion;
            if (w->u.k.completion_gen > e->done_gen) e->done_gen = w->u.k.completion_gen;
            e->clock = c->clock;
            e->recorded = true;
            api_unlock();
        }
        break;
    case API_W_COPY:
        if (ctx_faulted(c)) break;
        api_dev_lock();
        api_copy_run(&w->u.c);
        api_dev_unlock();
        break;
    case API_W_MEMSET:
        if (ctx_faulted(c)) break;
        api_dev_lock();
        api_memset_run(&w->u.s);
        api_dev_unlock();
        break;
    case API_W_HOST:
        if (ctx_faulted(c)) break;
        tls_hostfn++;
        w->u.host.fn(w->u.host.user);
        tls_hostfn--;
        break;
    case API_W_CALLBACK: {
        api_lock();
        CUresult st = c->faulted ? (c->pending.r ? c->pending.r : c->sticky) : CUDA_SUCCESS;
        api_unlock();
        tls_hostfn++;
        w->u.cb.fn(w->u.cb.stream, st, w->u.cb.user);
        tls_hostfn--;
        break;
    }
    case API_W_RECORD: {
        api_lock();
        api_event *e = w->u.rec.ev;
        if (w->u.rec.gen > e->done_gen) e->done_gen = w->u.rec.gen;
        e->clock = c->clock;
        e->recorded = true;
        api_unlock();
        break;
    }
    case API_W_GRAPH: api_gexec_run(c, w->u.graph.gx, w->u.graph.gens, s); break;
    case API_W_MEMALLOC:   /* accounted when issued (pool.c, graph.c) */
    case API_W_MEMFREE: break;
    }
}

/* Runs the operations that are ready, on the calling thread (called and
** returning with the API lock held). */
static void run_ready(bool once)
{
    api_op *op;
    while ((op = q_pick())) {
        op->running = true;
        running_seq = op->seq;
        int depth = api_unlock_all();
        api_work_run(op->ctx, &op->w, op->stream);
        api_relock(depth);
        op_complete(op);
        if (once) break;
    }
}

static void drain_inline(void)
{
    /* a host function that issues work: it runs after the function returns */
    if (tls_hostfn) return;
    run_ready(false);
}

static void *device_main(void *arg)
{
    (void)arg;
    tls_device = true;
    api_lock();
    for (;;) {
        if (!q_pick()) {
            api_cond_wait(&work_cv);
            continue;
        }
        run_ready(true);
    }
    return NULL;
}

static void at_exit(void)
{
    /* the program may exit with work pending: it completes (its output and
    ** statistics are part of the run); not from a host function */
    if (api_in_device_work()) return;
    api_lock();
    api_drain(NULL);
    api_unlock();
    api_print_flush();
}

static void first_use(void)
{
    static bool once;
    if (!once) {
        once = true;
        atexit(at_exit);
    }
    if (dev_started || !api_g.async) return;
    dev_started = true;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&dev_thread, &at, device_main, NULL) != 0) {
        api_msg("cannot start the device thread; running work synchronously (stream.async=0)");
        api_g.async = false;
        drain_inline();
    }
    pthread_attr_destroy(&at);
}

/* ---- waits --------------------------------------------------------------------------- */

typedef bool (*wait_pred)(const void *arg);

static CUresult wait_for(wait_pred done, const void *arg)
{
    if (tls_hostfn || tls_device) {
        api_why("a host function or stream callback may not wait for the device (CUDA calls are not permitted "
                "in them)");
        return CUDA_ERROR_NOT_PERMITTED;
    }
    submit_open();
    for (;;) {
        if (!api_g.async) drain_inline();
        if (done(arg)) break;
        api_cond_wait(&done_cv);
    }
    api_print_flush();
    return CUDA_SUCCESS;
}

CUresult api_ctx_result(api_ctx *c, uint64_t seq)
{
    api_async_err *p = &c->pending;
    if (p->r && p->seq <= seq) {
        CUresult r = p->r;
        if (p->kernel) api_why_kernel(p->kernel);
        if (p->why) api_why("%s", p->why);
        if (p->sticky && !c->sticky) {
            c->sticky = r;
            free(c->sticky_why);
            free(c->sticky_kernel);
            c->sticky_why = p->why;
            c->sticky_kernel = p->kernel;
        } else {
            free(p->why);
            free(p->kernel);
        }
        memset(p, 0, sizeof *p);
        return r;
    }
    if (c->sticky) {
        if (c->sticky_kernel) api_why_kernel(c->sticky_kernel);
        api_why("an earlier error (%s%s%s) left the context unusable until it is destroyed or reset",
                api_result_name(c->sticky), c->sticky_why ? ": " : "", c->sticky_why ? c->sticky_why : "");
        return c->sticky;
    }
    return CUDA_SUCCESS;
}

static bool op_done(const void *arg) { return ((const api_op *)arg)->done; }

CUresult api_wait_op(api_op *op)
{
    CUresult r = wait_for(op_done, op);
    api_ctx *c = op->ctx;
    uint64_t seq = op->seq;
    op_unref(op);
    return r ? r : api_ctx_result(c, seq);
}

static bool stream_idle(const void *arg) { return ((const api_stream *)arg)->npending == 0; }

CUresult api_wait_stream(api_ctx *c, api_stream *s)
{
    api_stream *q = s ? s : &c->legacy;
    /* the legacy stream waits for every blocking stream too */
    if (q->legacy) return api_wait_ctx(c);
    uint64_t seq = q->last_seq;
    CUresult r = wait_for(stream_idle, q);
    if (r) return r;
    api_pool_sync(c, q, seq);
    return api_ctx_result(c, seq);
}

static bool event_done(const void *arg)
{
    const api_event *e = arg;
    return e->done_gen >= e->gen;
}

CUresult api_wait_event(api_event *e)
{
    uint64_t seq = e->rec_seq;
    e->refs++;
    CUresult r = wait_for(event_done, e);
    api_ctx *c = e->ctx;
    api_event_unref(e);
    return r ? r : api_ctx_result(c, seq);
}

static bool ctx_idle(const void *arg) { return ((const api_ctx *)arg)->npending == 0; }

static bool all_idle(const void *arg)
{
    (void)arg;
    return !api_g.q_head && !api_g.open_head;
}

CUresult api_wait_ctx(api_ctx *c)
{
    uint64_t seq = api_g.next_seq;
    CUresult r = wait_for(ctx_idle, c);
    if (r) return r;
    api_pool_sync(c, NULL, seq);
    return api_ctx_result(c, seq);
}

void api_drain(api_ctx *c)
{
    if (tls_hostfn || tls_device) return;
    wait_for(c ? ctx_idle : all_idle, c);
}

CUresult api_query_stream(api_ctx *c, api_stream *s)
{
    api_stream *q = s ? s : &c->legacy;
    uint64_t seq = q->legacy ? api_g.next_seq : q->last_seq;
    submit_open();
    if (!api_g.async) drain_inline();
    bool busy = q->legacy ? c->npending > 0 : q->npending > 0;
    if (busy) return CUDA_ERROR_NOT_READY;
    api_print_flush();
    return api_ctx_result(c, seq);
}

CUresult api_query_event(api_event *e)
{
    uint64_t seq = e->rec_seq;
    submit_open();
    if (!api_g.async) drain_inline();
    if (!event_done(e)) return CUDA_ERROR_NOT_READY;
    api_print_flush();
    return api_ctx_result(e->ctx, seq);
}
