/* graph_exec.c -- CUDA graphs: executable graphs and their launches, and
** graph memory.  Building graphs and nodes is graph.c's.
**
** Instantiation flattens a graph -- child graphs inlined in place -- into a
** list of items in one topological order: among the nodes whose
** dependencies are placed, the one made first.  A launch snapshots that
** list (later parameter changes affect later launches, as in CUDA) and
** issues it as one stream operation (API_W_GRAPH); the device runs the
** items one after the other, which honours every edge.  Event record nodes
** record at their place; event wait nodes wait, for the launch, for the
** records issued before it (queue.c orders them).
**
** Graph memory (allocation and free nodes): an allocation node's block,
** reserved when the node is made, is handed out at the launch and given
** back by the free node (or cuMemFreeAsync / cuMemFree); it is released
** when neither the node nor an executable graph holds it.
*/
#include "graph.h"
#include <stdio.h>
#include <stdlib.h>

typedef struct gitem {
    CUgraphNodeType type;
    const api_gnode *src;  /* the node it came from (exec updates find it by this) */
    api_work w;            /* owned */
    api_event *ev;         /* a reference */
    api_alloc *mem;        /* MEM_ALLOC / MEM_FREE: the block */
    bool enabled;
} gitem;

struct CUgraphExec_st {
    api_ctx *ctx;
    uint32_t refs;         /* the handle's + each launch's snapshot */
    bool snapshot;         /* a launch's copy, not a handle */
    cuuint64_t flags;
    gitem *items;
    uint32_t n;
    api_alloc **mems;      /* graph memory blocks it holds (grefs) */
    uint32_t nmems;
};

/* ---- graph memory ----------------------------------------------------------------- */

CUresult api_gmem_new(api_ctx *c, uint64_t bytes, api_alloc **out)
{
    uint64_t base;
    CUresult r = api_alloc_new(c, bytes, API_MEM_GRAPH, 0, &base);
    if (r) return r;
    api_alloc *a = tp_map_getp(&api_g.allocs, base);
    a->grefs = 1;
    api_g.gmem_reserved += a->size;
    if (api_g.gmem_reserved > api_g.gmem_reserved_high) api_g.gmem_reserved_high = api_g.gmem_reserved;
    *out = a;
    return CUDA_SUCCESS;
}

void api_gmem_use(api_alloc *a, bool in_use)
{
    if (a->in_use == in_use) return;
    a->in_use = in_use;
    if (in_use) {
        api_g.gmem_used += a->size;
        if (api_g.gmem_used > api_g.gmem_used_high) api_g.gmem_used_high = api_g.gmem_used;
    } else {
        api_g.gmem_used -= a->size;
    }
}

void api_gmem_unref(api_alloc *a)
{
    if (--a->grefs) return;
    api_gmem_use(a, false);
    api_g.gmem_reserved -= a->size;
    api_drain(a->ctx);
    api_alloc_release(a);
}
/* ---- graph memory attributes ------------------------------------------------------------------- */

static CUresult gmem_attr(CUdevice d, CUgraphMem_attribute at, void *v, bool set)
{
    CUresult r = api_check_dev(d);
    if (r) return r;
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    uint64_t *u = v;
    uint64_t *p;
    switch (at) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT: p = &api_g.gmem_used; break;
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: p = &api_g.gmem_used_high; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT: p = &api_g.gmem_reserved; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: p = &api_g.gmem_reserved_high; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (!set) {
        *u = *p;
        return CUDA_SUCCESS;
    }
    /* only the high marks may be set, and only to 0 (reset to the current value) */
    if (*u || (at != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH && at != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH))
        return CUDA_ERROR_INVALID_VALUE;
    *p = at == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH ? api_g.gmem_used : api_g.gmem_reserved;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    API_LOCKED(gmem_attr(device, attr, value, false));
}
CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
    API_LOCKED(gmem_attr(device, attr, value, true));
}

static CUresult gmem_trim(CUdevice d)
{
    /* blocks live as long as their nodes: there is nothing unused to give back */
    return api_check_dev(d);
}

CUresult cuDeviceGraphMemTrim(CUdevice device) { API_LOCKED(gmem_trim(device)); }
/* ---- instantiation --------------------------------------------------------------------------- */

static void gexec_push(api_gexec *gx, uint32_t *cap, const gitem *it)
{
    if (gx->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        gx->items = tp_realloc(gx->items, *cap * sizeof *gx->items);
    }
    gx->items[gx->n++] = *it;
}

/* Appends g's nodes in topological order (children inlined); false when g
** or a child graph holds a cycle (cuGraphAddDependencies accepts one, as
** CUDA's does: a real GPU's runtime refuses it here, at instantiation, with
** cudaErrorInvalidValue; docs/VALIDATION.md, "On a real GPU"). */
static bool flatten(api_gexec *gx, uint32_t *cap, const api_graph *g)
{
    bool ok = true;
    uint32_t n = g->n;
    uint32_t *left = tp_malloc((n + 1) * sizeof *left);
    bool *placed = tp_calloc(n + 1, sizeof *placed);
    for (uint32_t i = 0; i < n; i++) left[i] = g->nodes[i]->ndeps;
    for (uint32_t done = 0; done < n; done++) {
        uint32_t pick = n;
        for (uint32_t i = 0; i < n; i++)
            if (!placed[i] && left[i] == 0) {
                pick = i;
                break;
            }
        if (pick == n) {        /* the nodes left wait on each other: a cycle */
            ok = false;
            break;
        }
        placed[pick] = true;
        const api_gnode *nd = g->nodes[pick];
        for (uint32_t j = 0; j < nd->nouts; j++)
            for (uint32_t i = 0; i < n; i++)
                if (g->nodes[i] == nd->outs[j]) left[i]--;
        if (nd->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            if (!flatten(gx, cap, nd->child)) ok = false;
            continue;
        }
        gitem it;
        memset(&it, 0, sizeof it);
        it.type = nd->type;
        it.src = nd;
        it.enabled = true;
        api_work_copy(&it.w, &nd->w);
        it.ev = nd->ev;
        if (it.ev) it.ev->refs++;
        if (nd->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) it.mem = nd->mem;
        if (nd->type == CU_GRAPH_NODE_TYPE_MEM_FREE) it.mem = tp_map_getp(&api_g.allocs, nd->free_ptr);
        gexec_push(gx, cap, &it);
    }
    free(left);
    free(placed);
    return ok;
}

static void items_free(gitem *items, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        api_work_free(&items[i].w);
        if (items[i].ev) api_event_unref(items[i].ev);
    }
    free(items);
}

void api_gexec_unref(api_gexec *gx)
{
    if (--gx->refs) return;
    items_free(gx->items, gx->n);
    for (uint32_t i = 0; i < gx->nmems; i++) api_gmem_unref(gx->mems[i]);
    free(gx->mems);
    free(gx);
}

static void gexec_hold_mems(api_gexec *gx)
{
    for (uint32_t i = 0; i < gx->n; i++) {
        api_alloc *a = gx->items[i].mem;
        if (!a || gx->items[i].type != CU_GRAPH_NODE_TYPE_MEM_ALLOC) continue;
        gx->mems = tp_realloc(gx->mems, (gx->nmems + 1) * sizeof *gx->mems);
        gx->mems[gx->nmems++] = a;
        a->grefs++;
    }
}

static CUresult instantiate(CUgraphExec *out, CUgraph h, cuuint64_t flags, CUDA_GRAPH_INSTANTIATE_PARAMS *ip)
{
    api_graph *g;
    api_ctx *c;
    CUresult r = api_graph_ctx(h, &g, &c);
    if (ip) {
        ip->hErrNode_out = NULL;
        ip->result_out = CUDA_GRAPH_INSTANTIATE_ERROR;
    }
    if (r) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(cuuint64_t)(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
                              CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)) {
        if (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)
            api_why("device-launchable graphs (CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) are not supported");
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* a graph's memory may be allocated by at most one executable graph at a time */
    for (uint32_t i = 0; i < g->n; i++) {
        api_gnode *n = g->nodes[i];
        if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && n->mem->gexec) {
            api_why("the graph's allocation node is part of another live executable graph");
            if (ip) ip->hErrNode_out = n;
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    api_gexec *gx = tp_calloc(1, sizeof *gx);
    gx->ctx = c;
    gx->refs = 1;
    gx->flags = flags;
    uint32_t cap = 0;
    if (!flatten(gx, &cap, g)) {
        api_why("the graph's dependencies make a cycle");
        items_free(gx->items, gx->n);
        free(gx);
        return CUDA_ERROR_INVALID_VALUE;
    }
    gexec_hold_mems(gx);
    for (uint32_t i = 0; i < gx->nmems; i++) gx->mems[i]->gexec = gx;
    api_handle_add(gx, API_K_GEXEC);
    *out = gx;
    if (ip) ip->result_out = CUDA_GRAPH_INSTANTIATE_SUCCESS;
    return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
    API_LOCKED(instantiate(phGraphExec, hGraph, flags, NULL));
}

CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    if (!instantiateParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(instantiate(phGraphExec, hGraph, instantiateParams->flags, instantiateParams));
}
API_ALIAS(cuGraphInstantiateWithParams, "cuGraphInstantiateWithParams_ptsz");

/* The CUDA 10-11 forms: an error node and a log buffer. */
static CUresult instantiate_log(CUgraphExec *out, CUgraph h, CUgraphNode *err, char *log, size_t n)
{
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    CUresult r = instantiate(out, h, 0, &ip);
    if (err) *err = ip.hErrNode_out;
    if (log && n) snprintf(log, n, "%s", r ? api_why_text() : "");
    return r;
}

API_EXPORT CUresult api_instantiate_v1(CUgraphExec *, CUgraph, CUgraphNode *, char *, size_t)
    __asm__("cuGraphInstantiate");
CUresult api_instantiate_v1(CUgraphExec *out, CUgraph h, CUgraphNode *err, char *log, size_t n)
{
    API_LOCKED(instantiate_log(out, h, err, log, n));
}
API_EXPORT CUresult api_instantiate_v2(CUgraphExec *, CUgraph, CUgraphNode *, char *, size_t)
    __asm__("cuGraphInstantiate_v2");
CUresult api_instantiate_v2(CUgraphExec *out, CUgraph h, CUgraphNode *err, char *log, size_t n)
{
    API_LOCKED(instantiate_log(out, h, err, log, n));
}

static CUresult gexec_arg(CUgraphExec h, api_gexec **gx)
{
    if (!h || !api_handle_is(h, API_K_GEXEC)) {
        api_why("not an executable graph (never instantiated, or destroyed)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *gx = h;
    return CUDA_SUCCESS;
}

static CUresult gexec_destroy(CUgraphExec h)
{
    api_gexec *gx;
    CUresult r = gexec_arg(h, &gx);
    if (r) return r;
    api_handle_del(gx);
    for (uint32_t i = 0; i < gx->nmems; i++)
        if (gx->mems[i]->gexec == gx) gx->mems[i]->gexec = NULL;
    api_gexec_unref(gx);
    return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) { API_LOCKED(gexec_destroy(hGraphExec)); }

static CUresult gexec_flags(CUgraphExec h, cuuint64_t *f)
{
    api_gexec *gx;
    CUresult r = gexec_arg(h, &gx);
    if (r) return r;
    if (!f) return CUDA_ERROR_INVALID_VALUE;
    *f = gx->flags;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags) { API_LOCKED(gexec_flags(hGraphExec, flags)); }
/* ---- launch ----------------------------------------------------------------------------------- */

void api_gexec_events(api_gexec *gx, api_op *op, void (*fn)(api_event *, api_op *))
{
    for (uint32_t i = 0; i < gx->n; i++)
        if (gx->items[i].type == CU_GRAPH_NODE_TYPE_EVENT_RECORD && gx->items[i].enabled) fn(gx->items[i].ev, op);
}

void api_gexec_run(api_ctx *c, api_gexec *gx, const uint64_t *gens, api_stream *s)
{
    uint32_t rec = 0;
    for (uint32_t i = 0; i < gx->n; i++) {
        gitem *it = &gx->items[i];
        if (!it->enabled) continue;
        if (it->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) {
            api_work w = {.kind = API_W_RECORD};
            w.u.rec.ev = it->ev;
            w.u.rec.gen = gens[rec++];
            api_work_run(c, &w, s);
            continue;
        }
        api_work_run(c, &it->w, s);
    }
}

/* The arguments of a launch or an upload: the current context, the
** executable graph, the stream. */
static CUresult launch_args(CUgraphExec h, CUstream hs, api_gexec **gx, api_ctx **c, api_stream **s)
{
    CUresult r = api_current(c, true);
    if (r) return r;
    if ((r = gexec_arg(h, gx))) return r;
    return api_stream_arg(*c, hs, s);
}

static CUresult launch(CUgraphExec h, CUstream hs)
{
    api_gexec *gx;
    api_ctx *c;
    api_stream *s;
    CUresult r = launch_args(h, hs, &gx, &c, &s);
    if (r) return r;
    if (gx->ctx != c) return CUDA_ERROR_INVALID_CONTEXT;
    api_stream *q = s ? s : &c->legacy;
    if (q->cap || c->legacy.cap) {
        api_why("launching an executable graph into a capturing stream is not supported yet");
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    /* graph memory: allocated at the launch (in use until its free node) */
    for (uint32_t i = 0; i < gx->n; i++) {
        gitem *it = &gx->items[i];
        if (it->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && it->mem->in_use &&
            !(gx->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)) {
            api_why("the graph's memory from its previous launch has not been freed (launch with "
                    "CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH, or free it)");
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    /* the launch's snapshot */
    api_gexec *snap = tp_calloc(1, sizeof *snap);
    snap->ctx = c;
    snap->refs = 1;
    snap->snapshot = true;
    snap->n = gx->n;
    snap->items = tp_calloc(gx->n + 1, sizeof *snap->items);
    uint32_t nrec = 0, nwait = 0;
    for (uint32_t i = 0; i < gx->n; i++) {
        snap->items[i] = gx->items[i];
        api_work_copy(&snap->items[i].w, &gx->items[i].w);
        if (snap->items[i].ev) snap->items[i].ev->refs++;
        if (!gx->items[i].enabled) continue;
        if (gx->items[i].type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) nrec++;
        if (gx->items[i].type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) nwait++;
    }
    uint64_t *gens = tp_calloc(nrec + 1, sizeof *gens);
    api_event **waits = tp_calloc(nwait + 1, sizeof *waits);
    nrec = nwait = 0;
    for (uint32_t i = 0; i < gx->n; i++) {
        gitem *it = &gx->items[i];
        if (!it->enabled) continue;
        if (it->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) gens[nrec++] = ++it->ev->gen;
        if (it->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) waits[nwait++] = it->ev;
    }
    api_work w = {.kind = API_W_GRAPH};
    w.u.graph.gx = snap;
    w.u.graph.gens = gens;
    r = api_issue(c, s, &w, waits, nwait, NULL);
    free(waits);
    if (r) {
        api_work_free(&w);
        return r;
    }
    for (uint32_t i = 0; i < gx->n; i++) {
        gitem *it = &gx->items[i];
        if (it->enabled && it->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) api_gmem_use(it->mem, true);
        if (it->enabled && it->type == CU_GRAPH_NODE_TYPE_MEM_FREE && it->mem) api_gmem_use(it->mem, false);
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) { API_LOCKED(launch(hGraphExec, hStream)); }
API_ALIAS(cuGraphLaunch, "cuGraphLaunch_ptsz");

static CUresult upload(CUgraphExec h, CUstream hs)
{
    api_gexec *gx;
    api_ctx *c;
    api_stream *s;
    return launch_args(h, hs, &gx, &c, &s);   /* nothing to upload: a launch is ready as it is */
}

CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream) { API_LOCKED(upload(hGraphExec, hStream)); }
API_ALIAS(cuGraphUpload, "cuGraphUpload_ptsz");
/* ---- executable graph updates ------------------------------------------------------------------ */

static gitem *item_of(api_gexec *gx, const api_gnode *n)
{
    for (uint32_t i = 0; i < gx->n; i++)
        if (gx->items[i].src == n) return &gx->items[i];
    return NULL;
}

static CUresult exec_node(CUgraphExec h, CUgraphNode hn, api_gexec **gx, gitem **it, CUgraphNodeType type)
{
    api_gnode *n;
    CUresult r = gexec_arg(h, gx);
    if (r) return r;
    if ((r = api_gnode_arg(hn, &n))) return r;
    *it = item_of(*gx, n);
    if (!*it) {
        api_why("the node is not one the executable graph was instantiated from");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (type != (CUgraphNodeType)-1 && (*it)->type != type) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}


/* cuGraphExec{Kernel,Memcpy,Memset,Host}NodeSetParams: the item's work made
** anew (the graph's node keeps its own). */
static CUresult exec_params(CUgraphExec h, CUgraphNode hn, CUgraphNodeType type, const void *p)
{
    api_gexec *gx;
    gitem *it;
    CUresult r = exec_node(h, hn, &gx, &it, type);
    if (r) return r;
    api_work w;
    if ((r = api_gparams_work(api_gparams_of(type), gx->ctx, p, true, &w))) return r;
    api_work_free(&it->w);
    it->w = w;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    API_LOCKED(exec_params(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_KERNEL, nodeParams));
}
API_EXPORT CUresult api_exec_kernel_v1(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *)
    __asm__("cuGraphExecKernelNodeSetParams");
CUresult api_exec_kernel_v1(CUgraphExec h, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    API_LOCKED(exec_params(h, n, CU_GRAPH_NODE_TYPE_KERNEL, p));
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_MEMCPY3D *copyParams,
                                        CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(exec_params(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMCPY, copyParams));
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                        const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(exec_params(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMSET, memsetParams));
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    API_LOCKED(exec_params(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams));
}

static CUresult exec_event(CUgraphExec h, CUgraphNode hn, CUevent e, bool record)
{
    api_gexec *gx;
    gitem *it;
    CUresult r = exec_node(h, hn, &gx, &it,
                           record ? CU_GRAPH_NODE_TYPE_EVENT_RECORD : CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    if (r) return r;
    if (!e || !api_handle_is(e, API_K_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
    e->refs++;
    api_event_unref(it->ev);
    it->ev = e;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    API_LOCKED(exec_event(hGraphExec, hNode, event, true));
}
CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    API_LOCKED(exec_event(hGraphExec, hNode, event, false));
}

static CUresult node_enabled(CUgraphExec h, CUgraphNode hn, unsigned *get, unsigned set)
{
    api_gexec *gx;
    gitem *it;
    CUresult r = exec_node(h, hn, &gx, &it, (CUgraphNodeType)-1);
    if (r) return r;
    if (get) {
        *get = it->enabled;
        return CUDA_SUCCESS;
    }
    if (it->type != CU_GRAPH_NODE_TYPE_KERNEL && it->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
        it->type != CU_GRAPH_NODE_TYPE_MEMSET)
        return CUDA_ERROR_INVALID_VALUE;
    it->enabled = set != 0;
    return CUDA_SUCCESS;
}

CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
    API_LOCKED(node_enabled(hGraphExec, hNode, NULL, isEnabled));
}
CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
    if (!isEnabled) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(node_enabled(hGraphExec, hNode, isEnabled, 0));
}

/* cuGraphExecUpdate: the new graph must have the topology of the one the
** executable graph came from (flattened, node for node: the same types, the
** same kernels); its parameters replace the executable graph's. */
static CUresult exec_update(CUgraphExec h, CUgraph hg, CUgraphExecUpdateResultInfo *info)
{
    api_gexec *gx;
    api_graph *g;
    CUresult r = gexec_arg(h, &gx);
    if (r) return r;
    if ((r = api_graph_arg(hg, &g))) return r;
    if (!info) return CUDA_ERROR_INVALID_VALUE;
    memset(info, 0, sizeof *info);
    api_gexec tmp;
    memset(&tmp, 0, sizeof tmp);
    uint32_t cap = 0;
    bool acyclic = flatten(&tmp, &cap, g);
    CUgraphExecUpdateResult res = CU_GRAPH_EXEC_UPDATE_SUCCESS;
    const api_gnode *bad = NULL;
    if (!acyclic) {
        res = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        api_why("the graph's dependencies make a cycle");
    } else if (tmp.n != gx->n) {
        res = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        api_why("the graph has %u node%s, the executable graph %u", tmp.n, tmp.n == 1 ? "" : "s", gx->n);
    }
    for (uint32_t i = 0; i < tmp.n && !res; i++) {
        gitem *a = &gx->items[i], *b = &tmp.items[i];
        if (a->type != b->type) {
            res = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
            bad = b->src;
        } else if (a->type == CU_GRAPH_NODE_TYPE_KERNEL && a->w.u.k.f->mod->ctx != b->w.u.k.f->mod->ctx) {
            res = CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE;
            bad = b->src;
        } else if ((a->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || a->type == CU_GRAPH_NODE_TYPE_MEM_FREE) &&
                   a->mem != b->mem) {
            res = CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED;
            bad = b->src;
        } else if (a->src->ndeps != b->src->ndeps) {
            res = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
            bad = b->src;
        }
    }
    info->result = res;
    info->errorNode = (CUgraphNode)bad;
    if (res) {
        items_free(tmp.items, tmp.n);
        if (!api_why_text()[0]) api_why("the graph cannot update the executable graph (result %d)", (int)res);
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
    for (uint32_t i = 0; i < tmp.n; i++) tmp.items[i].enabled = gx->items[i].enabled;
    items_free(gx->items, gx->n);
    gx->items = tmp.items;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
    API_LOCKED(exec_update(hGraphExec, hGraph, resultInfo));
}

/* The CUDA 10-11 form: an error node and a result. */
static CUresult exec_update_v1(CUgraphExec h, CUgraph hg, CUgraphNode *err, CUgraphExecUpdateResult *res)
{
    CUgraphExecUpdateResultInfo info;
    CUresult r = exec_update(h, hg, &info);
    if (err) *err = info.errorNode;
    if (res) *res = info.result;
    return r;
}

API_EXPORT CUresult api_exec_update_v1(CUgraphExec, CUgraph, CUgraphNode *, CUgraphExecUpdateResult *)
    __asm__("cuGraphExecUpdate");
CUresult api_exec_update_v1(CUgraphExec h, CUgraph g, CUgraphNode *err, CUgraphExecUpdateResult *res)
{
    API_LOCKED(exec_update_v1(h, g, err, res));
}
