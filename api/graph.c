/* graph.c -- CUDA graphs: graphs and their nodes, executable graphs, launches.
**
** A node holds its work the way a stream operation does (api_work: checked
** and resolved when the node is made or its parameters set), plus what the
** node queries give back.  Instantiation flattens a graph -- child graphs
** inlined in place -- into a list of items in one topological order: among
** the nodes whose dependencies are placed, the one made first.  A launch
** snapshots that list (later parameter changes affect later launches, as in
** CUDA) and issues it as one stream operation (API_W_GRAPH); the device
** runs the items one after the other, which honours every edge.  Event
** record nodes record at their place; event wait nodes wait, for the
** launch, for the records issued before it (queue.c orders them).
**
** Graph memory (allocation and free nodes): an allocation node reserves its
** block when it is made, so its address is fixed for every launch; the block
** is handed out at the launch and given back by the free node (or
** cuMemFreeAsync / cuMemFree); it is released when neither the node nor an
** executable graph holds it.
*/
#include "api.h"
#include <stdio.h>
#include <stdlib.h>

struct CUgraph_st {
    api_ctx *ctx;
    api_gnode **nodes;     /* in the order they were made */
    uint32_t n, cap;
    uint64_t id;
};

struct CUgraphNode_st {
    api_graph *g;
    CUgraphNodeType type;
    uint64_t seq;          /* creation order in its graph: the tie-break of topological order */
    api_work w;            /* KERNEL, MEMCPY, MEMSET, HOST; W_NOP otherwise */
    api_gnode **deps, **outs;
    uint32_t ndeps, nouts, capdeps, capouts;
    /* what the queries give back */
    CUDA_KERNEL_NODE_PARAMS kp;
    void *kextra[5];
    size_t kbytes;
    CUDA_MEMCPY3D cp;
    CUDA_MEMSET_NODE_PARAMS mp;
    CUDA_HOST_NODE_PARAMS hp;
    api_graph *child;      /* GRAPH: owned */
    api_event *ev;         /* EVENT_RECORD, WAIT_EVENT: a reference */
    api_alloc *mem;        /* MEM_ALLOC: its block (a reference) */
    uint64_t mem_bytes;
    CUdeviceptr free_ptr;  /* MEM_FREE */
    api_gnode *clone_of;   /* set while cloning */
};

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

/* ---- works ---------------------------------------------------------------------- */

static void work_copy(api_work *dst, const api_work *src)
{
    *dst = *src;
    if (src->kind == API_W_KERNEL) {
        dst->u.k.params = tp_malloc(src->u.k.pbytes ? src->u.k.pbytes : 1);
        memcpy(dst->u.k.params, src->u.k.params, src->u.k.pbytes);
        dst->u.k.completion = NULL;
    }
}

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

/* ---- graphs and nodes --------------------------------------------------------------- */

api_graph *api_graph_new(api_ctx *c)
{
    api_graph *g = tp_calloc(1, sizeof *g);
    g->ctx = c;
    g->id = api_g.next_id++;
    api_handle_add(g, API_K_GRAPH);
    return g;
}

static void node_free(api_gnode *n)
{
    api_work_free(&n->w);
    if (n->child) api_graph_free(n->child);
    if (n->ev) api_event_unref(n->ev);
    if (n->mem) api_gmem_unref(n->mem);
    free(n->deps);
    free(n->outs);
    api_handle_del(n);
    free(n);
}

void api_graph_free(api_graph *g)
{
    for (uint32_t i = 0; i < g->n; i++) node_free(g->nodes[i]);
    free(g->nodes);
    api_handle_del(g);
    free(g);
}

static void ptr_push(api_gnode ***arr, uint32_t *n, uint32_t *cap, api_gnode *p)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 4;
        *arr = tp_realloc(*arr, *cap * sizeof **arr);
    }
    (*arr)[(*n)++] = p;
}

static bool ptr_del(api_gnode **arr, uint32_t *n, const api_gnode *p)
{
    for (uint32_t i = 0; i < *n; i++)
        if (arr[i] == p) {
            memmove(&arr[i], &arr[i + 1], (*n - i - 1) * sizeof *arr);
            (*n)--;
            return true;
        }
    return false;
}

static bool has_edge(const api_gnode *from, const api_gnode *to)
{
    for (uint32_t i = 0; i < to->ndeps; i++)
        if (to->deps[i] == from) return true;
    return false;
}

static void edge_add(api_gnode *from, api_gnode *to)
{
    ptr_push(&to->deps, &to->ndeps, &to->capdeps, from);
    ptr_push(&from->outs, &from->nouts, &from->capouts, to);
}

bool api_gnode_reaches(const api_gnode *from, const api_gnode *to)
{
    if (from == to) return true;
    for (uint32_t i = 0; i < to->ndeps; i++)
        if (api_gnode_reaches(from, to->deps[i])) return true;
    return false;
}

static CUresult graph_arg(CUgraph h, api_graph **g)
{
    if (!h || !api_handle_is(h, API_K_GRAPH)) {
        api_why("not a graph (never created, or destroyed)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *g = h;
    return CUDA_SUCCESS;
}

static CUresult node_arg(CUgraphNode h, api_gnode **n)
{
    if (!h || !api_handle_is(h, API_K_GNODE)) {
        api_why("not a graph node (never created, or destroyed)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *n = h;
    return CUDA_SUCCESS;
}

static CUresult deps_check(api_graph *g, const CUgraphNode *deps, size_t ndeps)
{
    if (ndeps && !deps) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < ndeps; i++) {
        if (!deps[i] || !api_handle_is(deps[i], API_K_GNODE) || deps[i]->g != g) {
            api_why("dependency %zu is not a node of this graph", i);
            return CUDA_ERROR_INVALID_VALUE;
        }
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i]) {
                api_why("dependency %zu is given twice", i);
                return CUDA_ERROR_INVALID_VALUE;
            }
    }
    return CUDA_SUCCESS;
}

static api_gnode *node_new(api_graph *g, CUgraphNodeType type, api_gnode *const *deps, uint32_t ndeps)
{
    api_gnode *n = tp_calloc(1, sizeof *n);
    n->g = g;
    n->type = type;
    n->w.kind = API_W_NOP;
    n->seq = g->n ? g->nodes[g->n - 1]->seq + 1 : 0;
    for (uint32_t i = 0; i < ndeps; i++) edge_add(deps[i], n);
    uint32_t cap = g->cap;
    ptr_push(&g->nodes, &g->n, &cap, n);
    g->cap = cap;
    api_handle_add(n, API_K_GNODE);
    return n;
}

/* Fills the query copy of a kernel node's parameters (the parameters as a buffer). */
static void kernel_query(api_gnode *n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    n->kp = *p;
    n->kp.kernelParams = NULL;
    n->kbytes = n->w.u.k.pbytes;
    n->kextra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
    n->kextra[1] = n->w.u.k.params;
    n->kextra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
    n->kextra[3] = &n->kbytes;
    n->kextra[4] = CU_LAUNCH_PARAM_END;
    n->kp.extra = n->kextra;
}

static CUresult kernel_work(api_ctx *c, const CUDA_KERNEL_NODE_PARAMS *p, bool v2, api_work *w)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    api_launch_req q;
    memset(&q, 0, sizeof q);
    q.h = p->func;
    if (!q.h && v2 && p->kern) q.h = (CUfunction)p->kern;
    q.grid[0] = p->gridDimX, q.grid[1] = p->gridDimY, q.grid[2] = p->gridDimZ;
    q.block[0] = p->blockDimX, q.block[1] = p->blockDimY, q.block[2] = p->blockDimZ;
    q.shared = p->sharedMemBytes;
    q.params = p->kernelParams;
    q.extra = p->extra;
    memset(w, 0, sizeof *w);
    w->kind = API_W_KERNEL;
    return api_kernel_prepare(c, &q, &w->u.k);
}

static CUresult memset_work(const CUDA_MEMSET_NODE_PARAMS *p, api_work *w)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    if (p->height > 1 && p->pitch < p->width * p->elementSize) {
        api_why("pitch %zu is less than a row of %zu elements of %u bytes", p->pitch, p->width, p->elementSize);
        return CUDA_ERROR_INVALID_VALUE;
    }
    memset(w, 0, sizeof *w);
    w->kind = API_W_MEMSET;
    uint64_t pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;
    return api_memset_work(p->dst, pitch, p->value, p->elementSize, p->width, p->height, &w->u.s);
}

static CUresult copy_work(const CUDA_MEMCPY3D *p, api_work *w)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    memset(w, 0, sizeof *w);
    w->kind = API_W_COPY;
    return api_copy3d_work(p, &w->u.c);
}

/* The graph argument and its context, current. */
static CUresult graph_ctx(CUgraph h, api_graph **g, api_ctx **c)
{
    CUresult r = api_current(c, true);
    if (r) return r;
    return graph_arg(h, g);
}

CUresult api_gnode_add(api_graph *g, CUgraphNodeType type, api_work *w, api_gnode *const *deps, uint32_t ndeps,
                       api_gnode **out)
{
    api_gnode *n = node_new(g, type, deps, ndeps);
    n->w = *w;
    memset(w, 0, sizeof *w);
    if (type == CU_GRAPH_NODE_TYPE_KERNEL) {
        CUDA_KERNEL_NODE_PARAMS p;
        memset(&p, 0, sizeof p);
        p.func = n->w.u.k.f;
        p.gridDimX = n->w.u.k.grid[0], p.gridDimY = n->w.u.k.grid[1], p.gridDimZ = n->w.u.k.grid[2];
        p.blockDimX = n->w.u.k.block[0], p.blockDimY = n->w.u.k.block[1], p.blockDimZ = n->w.u.k.block[2];
        p.sharedMemBytes = n->w.u.k.shared;
        if (n->w.u.k.completion) {
            api_event_unref(n->w.u.k.completion);
            n->w.u.k.completion = NULL;
        }
        kernel_query(n, &p);
    } else if (type == CU_GRAPH_NODE_TYPE_HOST) {
        n->hp.fn = n->w.u.host.fn;
        n->hp.userData = n->w.u.host.user;
    } else if (type == CU_GRAPH_NODE_TYPE_MEMSET) {
        n->mp.dst = (CUdeviceptr)(uintptr_t)n->w.u.s.dst;
        n->mp.pitch = n->w.u.s.pitch;
        n->mp.value = n->w.u.s.value;
        n->mp.elementSize = n->w.u.s.esz;
        n->mp.width = n->w.u.s.width;
        n->mp.height = n->w.u.s.height;
    } else if (type == CU_GRAPH_NODE_TYPE_EVENT_RECORD && n->w.kind == API_W_RECORD) {
        n->ev = n->w.u.rec.ev;   /* the reference moves to the node */
        n->w.kind = API_W_NOP;
    } else if (type == CU_GRAPH_NODE_TYPE_MEM_FREE) {
        n->free_ptr = n->w.u.mem.a ? n->w.u.mem.a->base : 0;
        n->w.kind = API_W_NOP;
    }
    if (out) *out = n;
    return CUDA_SUCCESS;
}

CUresult api_gnode_add_alloc(api_graph *g, uint64_t bytes, api_gnode *const *deps, uint32_t ndeps, api_gnode **out,
                             CUdeviceptr *dptr)
{
    api_alloc *a;
    CUresult r = api_gmem_new(g->ctx, bytes, &a);
    if (r) return r;
    api_gnode *n = node_new(g, CU_GRAPH_NODE_TYPE_MEM_ALLOC, deps, ndeps);
    n->mem = a;
    n->mem_bytes = bytes;
    *dptr = a->base;
    if (out) *out = n;
    return CUDA_SUCCESS;
}

CUresult api_gnode_add_wait(api_graph *g, api_event *e, api_gnode *const *deps, uint32_t ndeps, api_gnode **out)
{
    api_gnode *n = node_new(g, CU_GRAPH_NODE_TYPE_WAIT_EVENT, deps, ndeps);
    n->ev = e;
    e->refs++;
    if (out) *out = n;
    return CUDA_SUCCESS;
}

static CUresult graph_create(CUgraph *out, unsigned flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!out || flags) return CUDA_ERROR_INVALID_VALUE;
    *out = api_graph_new(c);
    return CUDA_SUCCESS;
}

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags) { API_LOCKED(graph_create(phGraph, flags)); }

static CUresult graph_destroy(CUgraph h)
{
    api_graph *g;
    CUresult r = graph_arg(h, &g);
    if (r) return r;
    api_graph_free(g);
    return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph hGraph) { API_LOCKED(graph_destroy(hGraph)); }

/* The common part of every cuGraphAdd*Node: arguments, then the node. */
#define ADD_PROLOGUE()                                                         \
    api_graph *g;                                                              \
    api_ctx *c;                                                                \
    CUresult r = graph_ctx(hg, &g, &c);                                        \
    if (r) return r;                                                           \
    if (!out) return CUDA_ERROR_INVALID_VALUE;                                 \
    if ((r = deps_check(g, deps, nd))) return r

static CUresult add_kernel(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                           const CUDA_KERNEL_NODE_PARAMS *p, bool v2)
{
    ADD_PROLOGUE();
    api_work w;
    if ((r = kernel_work(c, p, v2, &w))) {
        api_work_free(&w);
        return r;
    }
    api_gnode *n;
    api_gnode_add(g, CU_GRAPH_NODE_TYPE_KERNEL, &w, deps, (uint32_t)nd, &n);
    kernel_query(n, p);
    *out = n;
    return CUDA_SUCCESS;
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                 size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    API_LOCKED(add_kernel(phGraphNode, hGraph, dependencies, numDependencies, nodeParams, true));
}

/* The CUDA 10-11 form: CUDA_KERNEL_NODE_PARAMS_v1 is the prefix of v2 (no kern, ctx). */
API_EXPORT CUresult api_add_kernel_v1(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                                      const CUDA_KERNEL_NODE_PARAMS *p) __asm__("cuGraphAddKernelNode");
CUresult api_add_kernel_v1(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                           const CUDA_KERNEL_NODE_PARAMS *p)
{
    API_LOCKED(add_kernel(out, hg, deps, nd, p, false));
}

static CUresult add_memcpy(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd, const CUDA_MEMCPY3D *p)
{
    ADD_PROLOGUE();
    api_work w;
    if ((r = copy_work(p, &w))) return r;
    api_gnode *n;
    api_gnode_add(g, CU_GRAPH_NODE_TYPE_MEMCPY, &w, deps, (uint32_t)nd, &n);
    n->cp = *p;
    *out = n;
    return CUDA_SUCCESS;
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                              size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(add_memcpy(phGraphNode, hGraph, dependencies, numDependencies, copyParams));
}

static CUresult add_memset(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                           const CUDA_MEMSET_NODE_PARAMS *p)
{
    ADD_PROLOGUE();
    api_work w;
    if ((r = memset_work(p, &w))) return r;
    api_gnode *n;
    api_gnode_add(g, CU_GRAPH_NODE_TYPE_MEMSET, &w, deps, (uint32_t)nd, &n);
    n->mp = *p;
    *out = n;
    return CUDA_SUCCESS;
}

CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                              size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(add_memset(phGraphNode, hGraph, dependencies, numDependencies, memsetParams));
}

static CUresult add_host(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                         const CUDA_HOST_NODE_PARAMS *p)
{
    ADD_PROLOGUE();
    if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
    api_work w = {.kind = API_W_HOST};
    w.u.host.fn = p->fn;
    w.u.host.user = p->userData;
    api_gnode_add(g, CU_GRAPH_NODE_TYPE_HOST, &w, deps, (uint32_t)nd, out);
    return CUDA_SUCCESS;
}

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                            size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    API_LOCKED(add_host(phGraphNode, hGraph, dependencies, numDependencies, nodeParams));
}

static CUresult add_empty(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd)
{
    ADD_PROLOGUE();
    *out = node_new(g, CU_GRAPH_NODE_TYPE_EMPTY, deps, (uint32_t)nd);
    return CUDA_SUCCESS;
}

CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                             size_t numDependencies)
{
    API_LOCKED(add_empty(phGraphNode, hGraph, dependencies, numDependencies));
}

static api_graph *graph_clone(const api_graph *src);

static bool graph_has_mem(const api_graph *g)
{
    for (uint32_t i = 0; i < g->n; i++) {
        const api_gnode *n = g->nodes[i];
        if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type == CU_GRAPH_NODE_TYPE_MEM_FREE) return true;
        if (n->child && graph_has_mem(n->child)) return true;
    }
    return false;
}

static CUresult add_child(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd, CUgraph child)
{
    ADD_PROLOGUE();
    api_graph *cg;
    if ((r = graph_arg(child, &cg))) return r;
    if (cg == g) return CUDA_ERROR_INVALID_VALUE;
    if (graph_has_mem(cg)) {
        api_why("a child graph may not hold memory allocation or free nodes");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    api_gnode *n = node_new(g, CU_GRAPH_NODE_TYPE_GRAPH, deps, (uint32_t)nd);
    n->child = graph_clone(cg);
    *out = n;
    return CUDA_SUCCESS;
}

CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                  size_t numDependencies, CUgraph childGraph)
{
    API_LOCKED(add_child(phGraphNode, hGraph, dependencies, numDependencies, childGraph));
}

static CUresult child_get(CUgraphNode h, CUgraph *out)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (!out || n->type != CU_GRAPH_NODE_TYPE_GRAPH) return CUDA_ERROR_INVALID_VALUE;
    *out = n->child;
    return CUDA_SUCCESS;
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph) { API_LOCKED(child_get(hNode, phGraph)); }

static CUresult add_event(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd, CUevent e, bool record)
{
    ADD_PROLOGUE();
    if (!e || !api_handle_is(e, API_K_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
    api_gnode *n = node_new(g, record ? CU_GRAPH_NODE_TYPE_EVENT_RECORD : CU_GRAPH_NODE_TYPE_WAIT_EVENT, deps,
                            (uint32_t)nd);
    n->ev = e;
    e->refs++;
    *out = n;
    return CUDA_SUCCESS;
}

CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                   size_t numDependencies, CUevent event)
{
    API_LOCKED(add_event(phGraphNode, hGraph, dependencies, numDependencies, event, true));
}
CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                 size_t numDependencies, CUevent event)
{
    API_LOCKED(add_event(phGraphNode, hGraph, dependencies, numDependencies, event, false));
}

static CUresult event_node(CUgraphNode h, CUevent *get, CUevent set, bool record)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (n->type != (record ? CU_GRAPH_NODE_TYPE_EVENT_RECORD : CU_GRAPH_NODE_TYPE_WAIT_EVENT))
        return CUDA_ERROR_INVALID_VALUE;
    if (get) {
        *get = n->ev;
        return CUDA_SUCCESS;
    }
    if (!set || !api_handle_is(set, API_K_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
    set->refs++;
    api_event_unref(n->ev);
    n->ev = set;
    return CUDA_SUCCESS;
}

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    if (!event_out) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(event_node(hNode, event_out, NULL, true));
}
CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event) { API_LOCKED(event_node(hNode, NULL, event, true)); }
CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    if (!event_out) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(event_node(hNode, event_out, NULL, false));
}
CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event) { API_LOCKED(event_node(hNode, NULL, event, false)); }

static CUresult add_mem_alloc(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                              CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
    ADD_PROLOGUE();
    if (!p || p->bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
    if (p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE || p->poolProps.location.id != 0) {
        api_why("graph memory is pinned device memory of device 0");
        return CUDA_ERROR_INVALID_VALUE;
    }
    (void)c;
    return api_gnode_add_alloc(g, p->bytesize, deps, (uint32_t)nd, out, &p->dptr);
}

CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
    API_LOCKED(add_mem_alloc(phGraphNode, hGraph, dependencies, numDependencies, nodeParams));
}

static CUresult mem_alloc_params(CUgraphNode h, CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (!p || n->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC) return CUDA_ERROR_INVALID_VALUE;
    memset(p, 0, sizeof *p);
    p->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p->poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p->bytesize = n->mem_bytes;
    p->dptr = n->mem->base;
    return CUDA_SUCCESS;
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
    API_LOCKED(mem_alloc_params(hNode, params_out));
}

static CUresult add_mem_free(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd, CUdeviceptr p)
{
    ADD_PROLOGUE();
    api_alloc *a = tp_map_getp(&api_g.allocs, p);
    if (!a || a->kind != API_MEM_GRAPH) {
        api_why("0x%llx is not the start of graph memory (an allocation node's)", (unsigned long long)p);
        return CUDA_ERROR_INVALID_VALUE;
    }
    api_gnode *n = node_new(g, CU_GRAPH_NODE_TYPE_MEM_FREE, deps, (uint32_t)nd);
    n->free_ptr = p;
    *out = n;
    return CUDA_SUCCESS;
}

CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                               size_t numDependencies, CUdeviceptr dptr)
{
    API_LOCKED(add_mem_free(phGraphNode, hGraph, dependencies, numDependencies, dptr));
}

static CUresult mem_free_params(CUgraphNode h, CUdeviceptr *p)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (!p || n->type != CU_GRAPH_NODE_TYPE_MEM_FREE) return CUDA_ERROR_INVALID_VALUE;
    *p = n->free_ptr;
    return CUDA_SUCCESS;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out) { API_LOCKED(mem_free_params(hNode, dptr_out)); }

/* ---- node parameters ------------------------------------------------------------------ */

static CUresult kernel_params(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *get, const CUDA_KERNEL_NODE_PARAMS *set)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (n->type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
    if (get) {
        *get = n->kp;
        return CUDA_SUCCESS;
    }
    api_work w;
    if ((r = kernel_work(n->g->ctx, set, true, &w))) {
        api_work_free(&w);
        return r;
    }
    api_work_free(&n->w);
    n->w = w;
    kernel_query(n, set);
    return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(kernel_params(hNode, nodeParams, NULL));
}
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(kernel_params(hNode, NULL, nodeParams));
}

static CUresult memcpy_params(CUgraphNode h, CUDA_MEMCPY3D *get, const CUDA_MEMCPY3D *set)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (n->type != CU_GRAPH_NODE_TYPE_MEMCPY) return CUDA_ERROR_INVALID_VALUE;
    if (get) {
        *get = n->cp;
        return CUDA_SUCCESS;
    }
    api_work w;
    if ((r = copy_work(set, &w))) return r;
    n->w = w;
    n->cp = *set;
    return CUDA_SUCCESS;
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(memcpy_params(hNode, nodeParams, NULL));
}
CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(memcpy_params(hNode, NULL, nodeParams));
}

static CUresult memset_params(CUgraphNode h, CUDA_MEMSET_NODE_PARAMS *get, const CUDA_MEMSET_NODE_PARAMS *set)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (n->type != CU_GRAPH_NODE_TYPE_MEMSET) return CUDA_ERROR_INVALID_VALUE;
    if (get) {
        *get = n->mp;
        return CUDA_SUCCESS;
    }
    api_work w;
    if ((r = memset_work(set, &w))) return r;
    n->w = w;
    n->mp = *set;
    return CUDA_SUCCESS;
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(memset_params(hNode, nodeParams, NULL));
}
CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(memset_params(hNode, NULL, nodeParams));
}

static CUresult host_params(CUgraphNode h, CUDA_HOST_NODE_PARAMS *get, const CUDA_HOST_NODE_PARAMS *set)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (n->type != CU_GRAPH_NODE_TYPE_HOST) return CUDA_ERROR_INVALID_VALUE;
    if (get) {
        *get = n->hp;
        return CUDA_SUCCESS;
    }
    if (!set->fn) return CUDA_ERROR_INVALID_VALUE;
    n->hp = *set;
    n->w.u.host.fn = set->fn;
    n->w.u.host.user = set->userData;
    return CUDA_SUCCESS;
}

CUresult cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(host_params(hNode, nodeParams, NULL));
}
CUresult cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
    API_LOCKED(host_params(hNode, NULL, nodeParams));
}

/* ---- structure queries ------------------------------------------------------------------ */

static CUresult node_type(CUgraphNode h, CUgraphNodeType *t)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    if (!t) return CUDA_ERROR_INVALID_VALUE;
    *t = n->type;
    return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type) { API_LOCKED(node_type(hNode, type)); }

/* Copies a node list out the way CUDA's queries do: NULL array: the count only. */
static CUresult list_out(api_gnode *const *list, uint32_t n, CUgraphNode *out, CUgraphEdgeData *edata, size_t *count)
{
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    if (!out) {
        *count = n;
        return CUDA_SUCCESS;
    }
    size_t k = *count < n ? *count : n;
    for (size_t i = 0; i < k; i++) {
        out[i] = list[i];
        if (edata) memset(&edata[i], 0, sizeof *edata);
    }
    for (size_t i = k; i < *count; i++) out[i] = NULL;
    *count = k;
    return CUDA_SUCCESS;
}

static CUresult get_nodes(CUgraph h, CUgraphNode *nodes, size_t *num, bool roots)
{
    api_graph *g;
    CUresult r = graph_arg(h, &g);
    if (r) return r;
    api_gnode **list = tp_malloc((g->n + 1) * sizeof *list);
    uint32_t k = 0;
    for (uint32_t i = 0; i < g->n; i++)
        if (!roots || g->nodes[i]->ndeps == 0) list[k++] = g->nodes[i];
    r = list_out(list, k, nodes, NULL, num);
    free(list);
    return r;
}

CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes) { API_LOCKED(get_nodes(hGraph, nodes, numNodes, false)); }
CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
    API_LOCKED(get_nodes(hGraph, rootNodes, numRootNodes, true));
}

static CUresult get_edges(CUgraph h, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *ed, size_t *num)
{
    api_graph *g;
    CUresult r = graph_arg(h, &g);
    if (r) return r;
    if (!num || (!from) != (!to)) return CUDA_ERROR_INVALID_VALUE;
    size_t total = 0;
    for (uint32_t i = 0; i < g->n; i++) total += g->nodes[i]->ndeps;
    if (!from) {
        *num = total;
        return CUDA_SUCCESS;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t j = 0; j < g->nodes[i]->ndeps; j++) {
            if (k < *num) {
                from[k] = g->nodes[i]->deps[j];
                to[k] = g->nodes[i];
                if (ed) memset(&ed[k], 0, sizeof *ed);
            }
            k++;
        }
    for (size_t i = total; i < *num; i++) from[i] = to[i] = NULL;
    if (total < *num) *num = total;
    return CUDA_SUCCESS;
}

CUresult cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                            size_t *numEdges)
{
    API_LOCKED(get_edges(hGraph, from, to, edgeData, numEdges));
}
API_EXPORT CUresult api_get_edges_v1(CUgraph, CUgraphNode *, CUgraphNode *, size_t *) __asm__("cuGraphGetEdges");
CUresult api_get_edges_v1(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges)
{
    API_LOCKED(get_edges(hGraph, from, to, NULL, numEdges));
}

static CUresult node_links(CUgraphNode h, CUgraphNode *out, CUgraphEdgeData *ed, size_t *num, bool deps)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    return deps ? list_out(n->deps, n->ndeps, out, ed, num) : list_out(n->outs, n->nouts, out, ed, num);
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode hNode, CUgraphNode *dependencies, CUgraphEdgeData *edgeData,
                                       size_t *numDependencies)
{
    API_LOCKED(node_links(hNode, dependencies, edgeData, numDependencies, true));
}
API_EXPORT CUresult api_node_deps_v1(CUgraphNode, CUgraphNode *, size_t *) __asm__("cuGraphNodeGetDependencies");
CUresult api_node_deps_v1(CUgraphNode hNode, CUgraphNode *d, size_t *n) { API_LOCKED(node_links(hNode, d, NULL, n, true)); }
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode, CUgraphNode *dependentNodes, CUgraphEdgeData *edgeData,
                                         size_t *numDependentNodes)
{
    API_LOCKED(node_links(hNode, dependentNodes, edgeData, numDependentNodes, false));
}
API_EXPORT CUresult api_node_outs_v1(CUgraphNode, CUgraphNode *, size_t *) __asm__("cuGraphNodeGetDependentNodes");
CUresult api_node_outs_v1(CUgraphNode hNode, CUgraphNode *d, size_t *n) { API_LOCKED(node_links(hNode, d, NULL, n, false)); }

static CUresult edit_deps(CUgraph h, const CUgraphNode *from, const CUgraphNode *to, size_t num, bool add)
{
    api_graph *g;
    CUresult r = graph_arg(h, &g);
    if (r) return r;
    if (num && (!from || !to)) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < num; i++) {
        if (!from[i] || !to[i] || !api_handle_is(from[i], API_K_GNODE) || !api_handle_is(to[i], API_K_GNODE) ||
            from[i]->g != g || to[i]->g != g || from[i] == to[i])
            return CUDA_ERROR_INVALID_VALUE;
        if (add && has_edge(from[i], to[i])) {
            api_why("edge %zu exists already", i);
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (!add && !has_edge(from[i], to[i])) {
            api_why("edge %zu does not exist", i);
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (add && api_gnode_reaches(to[i], from[i])) {
            api_why("edge %zu would make a cycle", i);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    for (size_t i = 0; i < num; i++) {
        if (add) {
            edge_add(from[i], to[i]);
        } else {
            ptr_del(to[i]->deps, &to[i]->ndeps, from[i]);
            ptr_del(from[i]->outs, &from[i]->nouts, to[i]);
        }
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                   const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    (void)edgeData;
    API_LOCKED(edit_deps(hGraph, from, to, numDependencies, true));
}
API_EXPORT CUresult api_add_deps_v1(CUgraph, const CUgraphNode *, const CUgraphNode *, size_t)
    __asm__("cuGraphAddDependencies");
CUresult api_add_deps_v1(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n)
{
    API_LOCKED(edit_deps(g, from, to, n, true));
}
CUresult cuGraphRemoveDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                      const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    (void)edgeData;
    API_LOCKED(edit_deps(hGraph, from, to, numDependencies, false));
}
API_EXPORT CUresult api_rm_deps_v1(CUgraph, const CUgraphNode *, const CUgraphNode *, size_t)
    __asm__("cuGraphRemoveDependencies");
CUresult api_rm_deps_v1(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n)
{
    API_LOCKED(edit_deps(g, from, to, n, false));
}

static CUresult destroy_node(CUgraphNode h)
{
    api_gnode *n;
    CUresult r = node_arg(h, &n);
    if (r) return r;
    for (uint32_t i = 0; i < n->ndeps; i++) ptr_del(n->deps[i]->outs, &n->deps[i]->nouts, n);
    for (uint32_t i = 0; i < n->nouts; i++) ptr_del(n->outs[i]->deps, &n->outs[i]->ndeps, n);
    ptr_del(n->g->nodes, &n->g->n, n);
    node_free(n);
    return CUDA_SUCCESS;
}

CUresult cuGraphDestroyNode(CUgraphNode hNode) { API_LOCKED(destroy_node(hNode)); }

/* ---- clone --------------------------------------------------------------------------------- */

static api_graph *graph_clone(const api_graph *src)
{
    api_graph *g = api_graph_new(src->ctx);
    for (uint32_t i = 0; i < src->n; i++) {
        api_gnode *o = src->nodes[i];
        api_gnode *n = tp_calloc(1, sizeof *n);
        *n = *o;
        n->g = g;
        n->deps = n->outs = NULL;
        n->ndeps = n->nouts = n->capdeps = n->capouts = 0;
        n->clone_of = NULL;
        work_copy(&n->w, &o->w);
        if (n->type == CU_GRAPH_NODE_TYPE_KERNEL) {
            n->kextra[1] = n->w.u.k.params;
            n->kextra[3] = &n->kbytes;
            n->kp.extra = n->kextra;
        }
        if (o->child) n->child = graph_clone(o->child);
        if (n->ev) n->ev->refs++;
        if (n->mem) n->mem->grefs++;
        o->clone_of = n;
        uint32_t cap = g->cap;
        ptr_push(&g->nodes, &g->n, &cap, n);
        g->cap = cap;
        api_handle_add(n, API_K_GNODE);
    }
    for (uint32_t i = 0; i < src->n; i++) {
        api_gnode *o = src->nodes[i];
        for (uint32_t j = 0; j < o->ndeps; j++) edge_add(o->deps[j]->clone_of, o->clone_of);
    }
    return g;
}

static CUresult graph_clone_call(CUgraph *out, CUgraph h)
{
    api_graph *g;
    CUresult r = graph_arg(h, &g);
    if (r) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    *out = graph_clone(g);
    return CUDA_SUCCESS;
}

CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph) { API_LOCKED(graph_clone_call(phGraphClone, originalGraph)); }

static CUresult find_in_clone(CUgraphNode *out, CUgraphNode ho, CUgraph hc)
{
    api_gnode *o;
    api_graph *g;
    CUresult r = node_arg(ho, &o);
    if (r) return r;
    if ((r = graph_arg(hc, &g))) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    /* a clone keeps the original's order: the node at the same place */
    uint32_t i = 0;
    while (i < o->g->n && o->g->nodes[i] != o) i++;
    if (i >= g->n || g->nodes[i]->type != o->type || g->nodes[i]->seq != o->seq) return CUDA_ERROR_INVALID_VALUE;
    *out = g->nodes[i];
    return CUDA_SUCCESS;
}

CUresult cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph)
{
    API_LOCKED(find_in_clone(phNode, hOriginalNode, hClonedGraph));
}

/* ---- instantiation --------------------------------------------------------------------------- */

static void gexec_push(api_gexec *gx, uint32_t *cap, const gitem *it)
{
    if (gx->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        gx->items = tp_realloc(gx->items, *cap * sizeof *gx->items);
    }
    gx->items[gx->n++] = *it;
}

/* Appends g's nodes in topological order (children inlined). */
static void flatten(api_gexec *gx, uint32_t *cap, const api_graph *g)
{
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
        if (pick == n) break;   /* a cycle: cannot happen (edges are checked) */
        placed[pick] = true;
        const api_gnode *nd = g->nodes[pick];
        for (uint32_t j = 0; j < nd->nouts; j++)
            for (uint32_t i = 0; i < n; i++)
                if (g->nodes[i] == nd->outs[j]) left[i]--;
        if (nd->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            flatten(gx, cap, nd->child);
            continue;
        }
        gitem it;
        memset(&it, 0, sizeof it);
        it.type = nd->type;
        it.src = nd;
        it.enabled = true;
        work_copy(&it.w, &nd->w);
        it.ev = nd->ev;
        if (it.ev) it.ev->refs++;
        if (nd->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) it.mem = nd->mem;
        if (nd->type == CU_GRAPH_NODE_TYPE_MEM_FREE) it.mem = tp_map_getp(&api_g.allocs, nd->free_ptr);
        gexec_push(gx, cap, &it);
    }
    free(left);
    free(placed);
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
    CUresult r = graph_ctx(h, &g, &c);
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
    flatten(gx, &cap, g);
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

static CUresult launch(CUgraphExec h, CUstream hs)
{
    api_gexec *gx;
    api_ctx *c;
    api_stream *s;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if ((r = gexec_arg(h, &gx))) return r;
    if ((r = api_stream_arg(c, hs, &s))) return r;
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
        work_copy(&snap->items[i].w, &gx->items[i].w);
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
    CUresult r = api_current(&c, true);
    if (r) return r;
    if ((r = gexec_arg(h, &gx))) return r;
    return api_stream_arg(c, hs, &s);   /* nothing to upload: a launch is ready as it is */
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
    if ((r = node_arg(hn, &n))) return r;
    *it = item_of(*gx, n);
    if (!*it) {
        api_why("the node is not one the executable graph was instantiated from");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (type != (CUgraphNodeType)-1 && (*it)->type != type) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static CUresult exec_kernel(CUgraphExec h, CUgraphNode hn, const CUDA_KERNEL_NODE_PARAMS *p)
{
    api_gexec *gx;
    gitem *it;
    CUresult r = exec_node(h, hn, &gx, &it, CU_GRAPH_NODE_TYPE_KERNEL);
    if (r) return r;
    api_work w;
    if ((r = kernel_work(gx->ctx, p, true, &w))) {
        api_work_free(&w);
        return r;
    }
    api_work_free(&it->w);
    it->w = w;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                           const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    API_LOCKED(exec_kernel(hGraphExec, hNode, nodeParams));
}
API_EXPORT CUresult api_exec_kernel_v1(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *)
    __asm__("cuGraphExecKernelNodeSetParams");
CUresult api_exec_kernel_v1(CUgraphExec h, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    API_LOCKED(exec_kernel(h, n, p));
}

static CUresult exec_memcpy(CUgraphExec h, CUgraphNode hn, const CUDA_MEMCPY3D *p)
{
    api_gexec *gx;
    gitem *it;
    CUresult r = exec_node(h, hn, &gx, &it, CU_GRAPH_NODE_TYPE_MEMCPY);
    if (r) return r;
    return copy_work(p, &it->w);
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_MEMCPY3D *copyParams,
                                        CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(exec_memcpy(hGraphExec, hNode, copyParams));
}

static CUresult exec_memset(CUgraphExec h, CUgraphNode hn, const CUDA_MEMSET_NODE_PARAMS *p)
{
    api_gexec *gx;
    gitem *it;
    CUresult r = exec_node(h, hn, &gx, &it, CU_GRAPH_NODE_TYPE_MEMSET);
    if (r) return r;
    return memset_work(p, &it->w);
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                        const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(exec_memset(hGraphExec, hNode, memsetParams));
}

static CUresult exec_host(CUgraphExec h, CUgraphNode hn, const CUDA_HOST_NODE_PARAMS *p)
{
    api_gexec *gx;
    gitem *it;
    CUresult r = exec_node(h, hn, &gx, &it, CU_GRAPH_NODE_TYPE_HOST);
    if (r) return r;
    if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
    it->w.u.host.fn = p->fn;
    it->w.u.host.user = p->userData;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    API_LOCKED(exec_host(hGraphExec, hNode, nodeParams));
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
    if ((r = graph_arg(hg, &g))) return r;
    if (!info) return CUDA_ERROR_INVALID_VALUE;
    memset(info, 0, sizeof *info);
    api_gexec tmp;
    memset(&tmp, 0, sizeof tmp);
    uint32_t cap = 0;
    flatten(&tmp, &cap, g);
    CUgraphExecUpdateResult res = CU_GRAPH_EXEC_UPDATE_SUCCESS;
    const api_gnode *bad = NULL;
    if (tmp.n != gx->n) {
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

/* ---- cuGraphDebugDotPrint ---------------------------------------------------------------------- */

static const char *type_name(CUgraphNodeType t)
{
    switch (t) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return "KERNEL";
    case CU_GRAPH_NODE_TYPE_MEMCPY: return "MEMCPY";
    case CU_GRAPH_NODE_TYPE_MEMSET: return "MEMSET";
    case CU_GRAPH_NODE_TYPE_HOST: return "HOST";
    case CU_GRAPH_NODE_TYPE_GRAPH: return "GRAPH";
    case CU_GRAPH_NODE_TYPE_EMPTY: return "EMPTY";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "WAIT_EVENT";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "EVENT_RECORD";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "MEM_ALLOC";
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "MEM_FREE";
    default: return "OTHER";
    }
}

static void dot_graph(FILE *f, const api_graph *g, const char *prefix, unsigned *cluster)
{
    for (uint32_t i = 0; i < g->n; i++) {
        const api_gnode *n = g->nodes[i];
        if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            char sub[64];
            snprintf(sub, sizeof sub, "%s%u_", prefix, i);
            fprintf(f, "subgraph cluster_%u {\nlabel=\"child graph of node %s%u\";\n", (*cluster)++, prefix, i);
            dot_graph(f, n->child, sub, cluster);
            fputs("}\n", f);
        }
        fprintf(f, "\"%s%u\" [label=\"%s%u %s", prefix, i, prefix, i, type_name(n->type));
        if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
            fprintf(f, "\\n%s\\n<<<(%u,%u,%u),(%u,%u,%u),%u>>>", n->w.u.k.f->pf->name, n->kp.gridDimX,
                    n->kp.gridDimY, n->kp.gridDimZ, n->kp.blockDimX, n->kp.blockDimY, n->kp.blockDimZ,
                    n->kp.sharedMemBytes);
        if (n->type == CU_GRAPH_NODE_TYPE_MEMCPY)
            fprintf(f, "\\n%llu x %llu x %llu bytes", (unsigned long long)n->w.u.c.width,
                    (unsigned long long)n->w.u.c.rows, (unsigned long long)n->w.u.c.depth);
        if (n->type == CU_GRAPH_NODE_TYPE_MEMSET)
            fprintf(f, "\\nvalue %u, %zu x %zu elements of %u bytes", n->mp.value, n->mp.width, n->mp.height,
                    n->mp.elementSize);
        if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
            fprintf(f, "\\n%llu bytes at 0x%llx", (unsigned long long)n->mem_bytes, (unsigned long long)n->mem->base);
        if (n->type == CU_GRAPH_NODE_TYPE_MEM_FREE) fprintf(f, "\\n0x%llx", (unsigned long long)n->free_ptr);
        fputs("\"];\n", f);
    }
    for (uint32_t i = 0; i < g->n; i++) {
        const api_gnode *n = g->nodes[i];
        for (uint32_t j = 0; j < n->ndeps; j++) {
            uint32_t k = 0;
            while (k < g->n && g->nodes[k] != n->deps[j]) k++;
            fprintf(f, "\"%s%u\" -> \"%s%u\";\n", prefix, k, prefix, i);
        }
    }
}

static CUresult dot_print(CUgraph h, const char *path, unsigned flags)
{
    (void)flags;
    api_graph *g;
    CUresult r = graph_arg(h, &g);
    if (r) return r;
    if (!path) return CUDA_ERROR_INVALID_VALUE;
    FILE *f = fopen(path, "w");
    if (!f) {
        api_why("cannot write %s", path);
        return CUDA_ERROR_OPERATING_SYSTEM;
    }
    unsigned cluster = 0;
    fprintf(f, "digraph tpsim_graph_%llu {\n", (unsigned long long)g->id);
    dot_graph(f, g, "", &cluster);
    fputs("}\n", f);
    fclose(f);
    return CUDA_SUCCESS;
}

CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags) { API_LOCKED(dot_print(hGraph, path, flags)); }
