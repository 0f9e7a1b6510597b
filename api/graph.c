/* graph.c -- CUDA graphs: building graphs and their nodes, the queries,
** clones.  Executable graphs (instantiation, launches, updates) and graph
** memory are graph_exec.c's.
**
** A node holds its work the way a stream operation does (api_work: checked
** and resolved when the node is made or its parameters set), plus what the
** node queries give back.  The node types with parameters (kernel, memcpy,
** memset, host) are rows of one table (api_gparams, graph.h): how the
** parameters become work, where the node keeps them for the Get calls;
** cuGraphAdd*Node, the Get/SetParams pairs and cuGraphExec*NodeSetParams
** all go through it.
**
** Graph memory (allocation and free nodes): an allocation node reserves its
** block when it is made, so its address is fixed for every launch
** (graph_exec.c hands it out at the launch).
*/
#include "graph.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- works ---------------------------------------------------------------------- */

void api_work_copy(api_work *dst, const api_work *src)
{
    *dst = *src;
    if (src->kind == API_W_KERNEL) {
        dst->u.k.params = tp_malloc(src->u.k.pbytes ? src->u.k.pbytes : 1);
        memcpy(dst->u.k.params, src->u.k.params, src->u.k.pbytes);
        dst->u.k.completion = NULL;
    }
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

/* Whether to depends on from, directly or not: a walk up to's dependencies
** that visits each node once (a graph may hold a cycle: the program may add
** one, as CUDA lets it, and only instantiation refuses it). */
static bool reaches(const api_gnode *from, api_gnode *to, uint64_t walk)
{
    if (from == to) return true;
    if (to->visit == walk) return false;
    to->visit = walk;
    for (uint32_t i = 0; i < to->ndeps; i++)
        if (reaches(from, to->deps[i], walk)) return true;
    return false;
}

bool api_gnode_reaches(const api_gnode *from, const api_gnode *to)
{
    static uint64_t walks;   /* under the API lock */
    return reaches(from, (api_gnode *)to, ++walks);
}

CUresult api_graph_arg(CUgraph h, api_graph **g)
{
    if (!h || !api_handle_is(h, API_K_GRAPH)) {
        api_why("not a graph (never created, or destroyed)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *g = h;
    return CUDA_SUCCESS;
}

CUresult api_gnode_arg(CUgraphNode h, api_gnode **n)
{
    if (!h || !api_handle_is(h, API_K_GNODE)) {
        api_why("not a graph node (never created, or destroyed)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *n = h;
    return CUDA_SUCCESS;
}

/* The handle as a node of the given type. */
static CUresult typed_node(CUgraphNode h, CUgraphNodeType type, api_gnode **n)
{
    CUresult r = api_gnode_arg(h, n);
    if (r) return r;
    return (*n)->type == type ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
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


/* The graph argument and its context, current. */
CUresult api_graph_ctx(CUgraph h, api_graph **g, api_ctx **c)
{
    CUresult r = api_current(c, true);
    if (r) return r;
    return api_graph_arg(h, g);
}

/* ---- node parameters ------------------------------------------------------------------
** The node types with parameters (kernel, memcpy, memset, host) are one row
** each of a table (graph.h): cuGraphAdd*Node, cuGraph*NodeGet/SetParams and
** cuGraphExec*NodeSetParams all go through it. */

static CUresult kernel_work(api_ctx *c, const void *vp, bool v2, api_work *w)
{
    const CUDA_KERNEL_NODE_PARAMS *p = vp;
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
    w->kind = API_W_KERNEL;
    return api_kernel_prepare(c, &q, &w->u.k);
}

static CUresult memset_work(api_ctx *c, const void *vp, bool v2, api_work *w)
{
    const CUDA_MEMSET_NODE_PARAMS *p = vp;
    (void)c, (void)v2;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    if (p->height > 1 && p->pitch < p->width * p->elementSize) {
        api_why("pitch %zu is less than a row of %zu elements of %u bytes", p->pitch, p->width, p->elementSize);
        return CUDA_ERROR_INVALID_VALUE;
    }
    w->kind = API_W_MEMSET;
    uint64_t pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;
    return api_memset_work(p->dst, pitch, p->value, p->elementSize, p->width, p->height, &w->u.s);
}

static CUresult copy_work(api_ctx *c, const void *p, bool v2, api_work *w)
{
    (void)c, (void)v2;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    w->kind = API_W_COPY;
    return api_copy3d_work(p, &w->u.c);
}

static CUresult host_work(api_ctx *c, const void *vp, bool v2, api_work *w)
{
    const CUDA_HOST_NODE_PARAMS *p = vp;
    (void)c, (void)v2;
    if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
    w->kind = API_W_HOST;
    w->u.host.fn = p->fn;
    w->u.host.user = p->userData;
    return CUDA_SUCCESS;
}

static void kernel_keep(api_gnode *n, const void *p) { kernel_query(n, p); }

static const api_gparams gparams[] = {
    {CU_GRAPH_NODE_TYPE_KERNEL, sizeof(CUDA_KERNEL_NODE_PARAMS), offsetof(api_gnode, kp), kernel_work, kernel_keep},
    {CU_GRAPH_NODE_TYPE_MEMCPY, sizeof(CUDA_MEMCPY3D), offsetof(api_gnode, cp), copy_work, NULL},
    {CU_GRAPH_NODE_TYPE_MEMSET, sizeof(CUDA_MEMSET_NODE_PARAMS), offsetof(api_gnode, mp), memset_work, NULL},
    {CU_GRAPH_NODE_TYPE_HOST, sizeof(CUDA_HOST_NODE_PARAMS), offsetof(api_gnode, hp), host_work, NULL},
};

const api_gparams *api_gparams_of(CUgraphNodeType type)
{
    for (size_t i = 0; i < TP_ARRAY_LEN(gparams); i++)
        if (gparams[i].type == type) return &gparams[i];
    return NULL;
}

CUresult api_gparams_work(const api_gparams *t, api_ctx *c, const void *p, bool v2, api_work *w)
{
    memset(w, 0, sizeof *w);
    CUresult r = t->work(c, p, v2, w);
    if (r) api_work_free(w);
    return r;
}

/* Sets the node's copy of its parameters, the one the Get call gives back. */
static void gparams_keep(const api_gparams *t, api_gnode *n, const void *p)
{
    if (t->keep) t->keep(n, p);
    else memcpy((char *)n + t->at, p, t->size);
}

/* Gets (get) or sets (set) the parameters of a node of the given type. */
static CUresult node_params(CUgraphNode h, CUgraphNodeType type, void *get, const void *set)
{
    api_gnode *n;
    CUresult r = typed_node(h, type, &n);
    if (r) return r;
    const api_gparams *t = api_gparams_of(type);
    if (get) {
        memcpy(get, (const char *)n + t->at, t->size);
        return CUDA_SUCCESS;
    }
    api_work w;
    if ((r = api_gparams_work(t, n->g->ctx, set, true, &w))) return r;
    api_work_free(&n->w);
    n->w = w;
    gparams_keep(t, n, set);
    return CUDA_SUCCESS;
}

/* An entry point pair cuGraph*NodeGetParams, cuGraph*NodeSetParams. */
#define NODE_PARAMS_CALLS(get_name, set_name, type, T)                         \
    CUresult get_name(CUgraphNode hNode, T *nodeParams)                        \
    {                                                                          \
        if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;                      \
        API_LOCKED(node_params(hNode, type, nodeParams, NULL));                \
    }                                                                          \
    CUresult set_name(CUgraphNode hNode, const T *nodeParams)                  \
    {                                                                          \
        if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;                      \
        API_LOCKED(node_params(hNode, type, NULL, nodeParams));                \
    }

NODE_PARAMS_CALLS(cuGraphKernelNodeGetParams_v2, cuGraphKernelNodeSetParams_v2, CU_GRAPH_NODE_TYPE_KERNEL,
                  CUDA_KERNEL_NODE_PARAMS)
NODE_PARAMS_CALLS(cuGraphMemcpyNodeGetParams, cuGraphMemcpyNodeSetParams, CU_GRAPH_NODE_TYPE_MEMCPY, CUDA_MEMCPY3D)
NODE_PARAMS_CALLS(cuGraphMemsetNodeGetParams, cuGraphMemsetNodeSetParams, CU_GRAPH_NODE_TYPE_MEMSET,
                  CUDA_MEMSET_NODE_PARAMS)
NODE_PARAMS_CALLS(cuGraphHostNodeGetParams, cuGraphHostNodeSetParams, CU_GRAPH_NODE_TYPE_HOST, CUDA_HOST_NODE_PARAMS)

/* ---- adding nodes ----------------------------------------------------------------------- */

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
    CUresult r = api_graph_arg(h, &g);
    if (r) return r;
    api_graph_free(g);
    return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph hGraph) { API_LOCKED(graph_destroy(hGraph)); }

/* The common part of every cuGraphAdd*Node: arguments, then the node. */
#define ADD_PROLOGUE()                                                         \
    api_graph *g;                                                              \
    api_ctx *c;                                                                \
    CUresult r = api_graph_ctx(hg, &g, &c);                                        \
    if (r) return r;                                                           \
    if (!out) return CUDA_ERROR_INVALID_VALUE;                                 \
    if ((r = deps_check(g, deps, nd))) return r


/* cuGraphAdd{Kernel,Memcpy,Memset,Host}Node: the work from the parameters
** (v2: a kernel's in the CUDA 12 form), then the node. */
static CUresult add_params(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd, CUgraphNodeType type,
                           const void *p, bool v2)
{
    ADD_PROLOGUE();
    const api_gparams *t = api_gparams_of(type);
    api_work w;
    if ((r = api_gparams_work(t, c, p, v2, &w))) return r;
    api_gnode *n;
    api_gnode_add(g, type, &w, deps, (uint32_t)nd, &n);
    gparams_keep(t, n, p);
    *out = n;
    return CUDA_SUCCESS;
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                 size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    API_LOCKED(add_params(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_KERNEL, nodeParams,
                          true));
}

/* The CUDA 10-11 form: CUDA_KERNEL_NODE_PARAMS_v1 is the prefix of v2 (no kern, ctx). */
API_EXPORT CUresult api_add_kernel_v1(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                                      const CUDA_KERNEL_NODE_PARAMS *p) __asm__("cuGraphAddKernelNode");
CUresult api_add_kernel_v1(CUgraphNode *out, CUgraph hg, const CUgraphNode *deps, size_t nd,
                           const CUDA_KERNEL_NODE_PARAMS *p)
{
    API_LOCKED(add_params(out, hg, deps, nd, CU_GRAPH_NODE_TYPE_KERNEL, p, false));
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                              size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(add_params(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_MEMCPY, copyParams,
                          true));
}

CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                              size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    (void)ctx;
    API_LOCKED(add_params(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_MEMSET,
                          memsetParams, true));
}

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                            size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    API_LOCKED(add_params(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_HOST, nodeParams,
                          true));
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
    if ((r = api_graph_arg(child, &cg))) return r;
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
    CUresult r = typed_node(h, CU_GRAPH_NODE_TYPE_GRAPH, &n);
    if (r || !out) return r ? r : CUDA_ERROR_INVALID_VALUE;
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
    CUresult r = typed_node(h, record ? CU_GRAPH_NODE_TYPE_EVENT_RECORD : CU_GRAPH_NODE_TYPE_WAIT_EVENT, &n);
    if (r) return r;
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
    CUresult r = typed_node(h, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &n);
    if (r || !p) return r ? r : CUDA_ERROR_INVALID_VALUE;
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
    CUresult r = typed_node(h, CU_GRAPH_NODE_TYPE_MEM_FREE, &n);
    if (r || !p) return r ? r : CUDA_ERROR_INVALID_VALUE;
    *p = n->free_ptr;
    return CUDA_SUCCESS;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out) { API_LOCKED(mem_free_params(hNode, dptr_out)); }

/* ---- structure queries ------------------------------------------------------------------ */

static CUresult node_type(CUgraphNode h, CUgraphNodeType *t)
{
    api_gnode *n;
    CUresult r = api_gnode_arg(h, &n);
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
    CUresult r = api_graph_arg(h, &g);
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
    CUresult r = api_graph_arg(h, &g);
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
    CUresult r = api_gnode_arg(h, &n);
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
    CUresult r = api_graph_arg(h, &g);
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
    CUresult r = api_gnode_arg(h, &n);
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
        api_work_copy(&n->w, &o->w);
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
    CUresult r = api_graph_arg(h, &g);
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
    CUresult r = api_gnode_arg(ho, &o);
    if (r) return r;
    if ((r = api_graph_arg(hc, &g))) return r;
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
    CUresult r = api_graph_arg(h, &g);
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
