/* graph.h -- what api/graph.c (graphs and their nodes: building, queries,
** clones) and api/graph_exec.c (executable graphs: instantiation, launches,
** updates; graph memory) share: the graph and node structures, the table of
** node parameters, the argument checks. */
#ifndef API_GRAPH_H
#define API_GRAPH_H

#include "api.h"

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
    uint64_t visit;        /* api_gnode_reaches' mark: the walk that last saw it */
};

/* The parameters of a node type that has them (kernel, memcpy, memset,
** host): one row each, behind cuGraphAdd*Node, cuGraph*NodeGetParams,
** cuGraph*NodeSetParams and cuGraphExec*NodeSetParams alike. */
typedef struct api_gparams {
    CUgraphNodeType type;
    size_t size;   /* the parameters' struct (CUDA_MEMCPY3D, ...) */
    size_t at;     /* where the node keeps the copy the Get call gives back: offsetof(api_gnode, ...) */
    /* Checks p and makes the work it stands for into w (zeroed); v2: a
    ** kernel's parameters have the CUDA 12 fields (kern, ctx). */
    CUresult (*work)(api_ctx *c, const void *p, bool v2, api_work *w);
    /* Sets the node's copy from p once its work is made; NULL: p copied as it is. */
    void (*keep)(api_gnode *n, const void *p);
} api_gparams;

/* The row of a node type, or NULL if it has no parameters of that kind. */
const api_gparams *api_gparams_of(CUgraphNodeType type);
/* t's work from p into w; on an error w holds nothing. */
CUresult api_gparams_work(const api_gparams *t, api_ctx *c, const void *p, bool v2, api_work *w);

/* A copy of a work that owns its own parameters (a kernel's), without a
** completion event. */
void api_work_copy(api_work *dst, const api_work *src);
/* The handle as a graph, a node; the graph and its context, made current. */
CUresult api_graph_arg(CUgraph h, api_graph **g);
CUresult api_gnode_arg(CUgraphNode h, api_gnode **n);
CUresult api_graph_ctx(CUgraph h, api_graph **g, api_ctx **c);

#endif
