/* rt_graph.c -- graphs, stream capture and stream-ordered memory pools under
** their runtime names: the driver's (api/graph.c, api/capture.c,
** api/pool.c).  cudaGraph_t, cudaGraphNode_t, cudaGraphExec_t and
** cudaMemPool_t are the driver's handles; the runtime's enums have the
** driver's values and cudaHostNodeParams, cudaMemPoolProps,
** cudaMemAccessDesc, cudaGraphEdgeData, cudaGraphExecUpdateResultInfo and
** cudaGraphInstantiateParams the driver's layouts, so they pass through as
** the driver's types.  Only kernel, memset, 3D-copy and memory-allocation
** node parameters are translated (a host stub, plain pointers, the
** runtime's 3D copy). */
#include "rt.h"
#include <string.h>

/* NVIDIA's layouts (driver_types.h). */
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};

struct cudaMemAllocNodeParams {
    CUmemPoolProps poolProps;
    const CUmemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};

#define DP(p) ((CUdeviceptr)(uintptr_t)(p))

/* The entry points below are declared here, not in cuda_runtime_api.h:
** exported all the same. */
#pragma GCC visibility push(default)

/* Every entry point: the runtime's context, then the driver's call. */
#define RT_CALL(expr)                                                          \
    do {                                                                       \
        cudaError_t e_ = rt_begin();                                           \
        if (e_) return rt_ret(e_);                                             \
        return rt_ret(rt_err(expr));                                           \
    } while (0)

static cudaError_t kernel_params(const struct cudaKernelNodeParams *p, CUDA_KERNEL_NODE_PARAMS *k)
{
    if (!p) return cudaErrorInvalidValue;
    rt_func *f = rt_func_of(p->func);
    if (!f) {
        rt_why("no kernel is registered for this host function");
        return cudaErrorInvalidDeviceFunction;
    }
    memset(k, 0, sizeof *k);
    cudaError_t e = rt_func_load(f, &k->func);
    if (e) return e;
    k->gridDimX = p->gridDim.x, k->gridDimY = p->gridDim.y, k->gridDimZ = p->gridDim.z;
    k->blockDimX = p->blockDim.x, k->blockDimY = p->blockDim.y, k->blockDimZ = p->blockDim.z;
    k->sharedMemBytes = p->sharedMemBytes;
    k->kernelParams = p->kernelParams;
    k->extra = p->extra;
    return cudaSuccess;
}

static CUDA_MEMSET_NODE_PARAMS memset_params(const struct cudaMemsetParams *p)
{
    CUDA_MEMSET_NODE_PARAMS m = {DP(p->dst), p->pitch, p->value, p->elementSize, p->width, p->height};
    return m;
}

/* ---- graphs ------------------------------------------------------------------------ */

cudaError_t cudaGraphCreate(CUgraph *pGraph, unsigned int flags) { RT_CALL(cuGraphCreate(pGraph, flags)); }
cudaError_t cudaGraphDestroy(CUgraph graph) { RT_CALL(cuGraphDestroy(graph)); }

cudaError_t cudaGraphAddKernelNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                   size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_KERNEL_NODE_PARAMS k;
    if ((e = kernel_params(pNodeParams, &k))) return rt_ret(e);
    return rt_ret(rt_err(cuGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &k)));
}

cudaError_t cudaGraphKernelNodeSetParams(CUgraphNode node, const struct cudaKernelNodeParams *pNodeParams)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_KERNEL_NODE_PARAMS k;
    if ((e = kernel_params(pNodeParams, &k))) return rt_ret(e);
    return rt_ret(rt_err(cuGraphKernelNodeSetParams(node, &k)));
}

cudaError_t cudaGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_KERNEL_NODE_PARAMS k;
    if ((e = kernel_params(pNodeParams, &k))) return rt_ret(e);
    return rt_ret(rt_err(cuGraphExecKernelNodeSetParams(hGraphExec, node, &k)));
}

cudaError_t cudaGraphAddMemcpyNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                   size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_MEMCPY3D c;
    if ((e = rt_copy3d_params(pCopyParams, &c))) return rt_ret(e);
    return rt_ret(rt_err(cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &c, NULL)));
}

cudaError_t cudaGraphAddMemcpyNode1D(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                     size_t numDependencies, void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr.ptr = (void *)(uintptr_t)src;
    p.srcPtr.pitch = count;
    p.srcPtr.xsize = count;
    p.srcPtr.ysize = 1;
    p.dstPtr.ptr = dst;
    p.dstPtr.pitch = count;
    p.dstPtr.xsize = count;
    p.dstPtr.ysize = 1;
    p.extent.width = count;
    p.extent.height = 1;
    p.extent.depth = 1;
    p.kind = kind;
    return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

cudaError_t cudaGraphMemcpyNodeSetParams(CUgraphNode node, const struct cudaMemcpy3DParms *pNodeParams)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_MEMCPY3D c;
    if ((e = rt_copy3d_params(pNodeParams, &c))) return rt_ret(e);
    return rt_ret(rt_err(cuGraphMemcpyNodeSetParams(node, &c)));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_MEMCPY3D c;
    if ((e = rt_copy3d_params(pNodeParams, &c))) return rt_ret(e);
    return rt_ret(rt_err(cuGraphExecMemcpyNodeSetParams(hGraphExec, node, &c, NULL)));
}

cudaError_t cudaGraphAddMemsetNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                   size_t numDependencies, const struct cudaMemsetParams *pMemsetParams)
{
    if (!pMemsetParams) return rt_ret(cudaErrorInvalidValue);
    CUDA_MEMSET_NODE_PARAMS m = memset_params(pMemsetParams);
    RT_CALL(cuGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &m, NULL));
}

cudaError_t cudaGraphMemsetNodeGetParams(CUgraphNode node, struct cudaMemsetParams *pNodeParams)
{
    if (!pNodeParams) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_MEMSET_NODE_PARAMS m;
    CUresult r = cuGraphMemsetNodeGetParams(node, &m);
    if (!r) {
        pNodeParams->dst = (void *)(uintptr_t)m.dst;
        pNodeParams->pitch = m.pitch;
        pNodeParams->value = m.value;
        pNodeParams->elementSize = m.elementSize;
        pNodeParams->width = m.width;
        pNodeParams->height = m.height;
    }
    return rt_ret(rt_err(r));
}

cudaError_t cudaGraphMemsetNodeSetParams(CUgraphNode node, const struct cudaMemsetParams *pNodeParams)
{
    if (!pNodeParams) return rt_ret(cudaErrorInvalidValue);
    CUDA_MEMSET_NODE_PARAMS m = memset_params(pNodeParams);
    RT_CALL(cuGraphMemsetNodeSetParams(node, &m));
}

cudaError_t cudaGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode node,
                                             const struct cudaMemsetParams *pNodeParams)
{
    if (!pNodeParams) return rt_ret(cudaErrorInvalidValue);
    CUDA_MEMSET_NODE_PARAMS m = memset_params(pNodeParams);
    RT_CALL(cuGraphExecMemsetNodeSetParams(hGraphExec, node, &m, NULL));
}

cudaError_t cudaGraphAddHostNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                 size_t numDependencies, const CUDA_HOST_NODE_PARAMS *pNodeParams)
{
    RT_CALL(cuGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, pNodeParams));
}
cudaError_t cudaGraphHostNodeGetParams(CUgraphNode node, CUDA_HOST_NODE_PARAMS *pNodeParams)
{
    RT_CALL(cuGraphHostNodeGetParams(node, pNodeParams));
}
cudaError_t cudaGraphHostNodeSetParams(CUgraphNode node, const CUDA_HOST_NODE_PARAMS *pNodeParams)
{
    RT_CALL(cuGraphHostNodeSetParams(node, pNodeParams));
}
cudaError_t cudaGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode node,
                                           const CUDA_HOST_NODE_PARAMS *pNodeParams)
{
    RT_CALL(cuGraphExecHostNodeSetParams(hGraphExec, node, pNodeParams));
}

cudaError_t cudaGraphAddChildGraphNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                       size_t numDependencies, CUgraph childGraph)
{
    RT_CALL(cuGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, childGraph));
}
cudaError_t cudaGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph *pGraph)
{
    RT_CALL(cuGraphChildGraphNodeGetGraph(node, pGraph));
}
cudaError_t cudaGraphAddEmptyNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                  size_t numDependencies)
{
    RT_CALL(cuGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies));
}
cudaError_t cudaGraphAddEventRecordNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                        size_t numDependencies, CUevent event)
{
    RT_CALL(cuGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, event));
}
cudaError_t cudaGraphAddEventWaitNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                      size_t numDependencies, CUevent event)
{
    RT_CALL(cuGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, event));
}
cudaError_t cudaGraphEventRecordNodeGetEvent(CUgraphNode node, CUevent *event_out)
{
    RT_CALL(cuGraphEventRecordNodeGetEvent(node, event_out));
}
cudaError_t cudaGraphEventRecordNodeSetEvent(CUgraphNode node, CUevent event)
{
    RT_CALL(cuGraphEventRecordNodeSetEvent(node, event));
}
cudaError_t cudaGraphEventWaitNodeGetEvent(CUgraphNode node, CUevent *event_out)
{
    RT_CALL(cuGraphEventWaitNodeGetEvent(node, event_out));
}
cudaError_t cudaGraphEventWaitNodeSetEvent(CUgraphNode node, CUevent event) { RT_CALL(cuGraphEventWaitNodeSetEvent(node, event)); }
cudaError_t cudaGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    RT_CALL(cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode, event));
}
cudaError_t cudaGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    RT_CALL(cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode, event));
}

cudaError_t cudaGraphAddMemAllocNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                     size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams)
{
    if (!nodeParams) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_MEM_ALLOC_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    p.poolProps = nodeParams->poolProps;
    p.accessDescs = nodeParams->accessDescs;
    p.accessDescCount = nodeParams->accessDescCount;
    p.bytesize = nodeParams->bytesize;
    CUresult r = cuGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    if (!r) nodeParams->dptr = (void *)(uintptr_t)p.dptr;
    return rt_ret(rt_err(r));
}

cudaError_t cudaGraphMemAllocNodeGetParams(CUgraphNode node, struct cudaMemAllocNodeParams *params_out)
{
    if (!params_out) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_MEM_ALLOC_NODE_PARAMS p;
    CUresult r = cuGraphMemAllocNodeGetParams(node, &p);
    if (!r) {
        memset(params_out, 0, sizeof *params_out);
        params_out->poolProps = p.poolProps;
        params_out->bytesize = p.bytesize;
        params_out->dptr = (void *)(uintptr_t)p.dptr;
    }
    return rt_ret(rt_err(r));
}

cudaError_t cudaGraphAddMemFreeNode(CUgraphNode *pGraphNode, CUgraph graph, const CUgraphNode *pDependencies,
                                    size_t numDependencies, void *dptr)
{
    RT_CALL(cuGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, DP(dptr)));
}
cudaError_t cudaGraphMemFreeNodeGetParams(CUgraphNode node, void *dptr_out)
{
    RT_CALL(cuGraphMemFreeNodeGetParams(node, (CUdeviceptr *)dptr_out));
}
cudaError_t cudaDeviceGraphMemTrim(int device) { RT_CALL(cuDeviceGraphMemTrim(device)); }
cudaError_t cudaDeviceGetGraphMemAttribute(int device, CUgraphMem_attribute attr, void *value)
{
    RT_CALL(cuDeviceGetGraphMemAttribute(device, attr, value));
}
cudaError_t cudaDeviceSetGraphMemAttribute(int device, CUgraphMem_attribute attr, void *value)
{
    RT_CALL(cuDeviceSetGraphMemAttribute(device, attr, value));
}

cudaError_t cudaGraphClone(CUgraph *pGraphClone, CUgraph originalGraph) { RT_CALL(cuGraphClone(pGraphClone, originalGraph)); }
cudaError_t cudaGraphNodeFindInClone(CUgraphNode *pNode, CUgraphNode originalNode, CUgraph clonedGraph)
{
    RT_CALL(cuGraphNodeFindInClone(pNode, originalNode, clonedGraph));
}
cudaError_t cudaGraphNodeGetType(CUgraphNode node, CUgraphNodeType *pType) { RT_CALL(cuGraphNodeGetType(node, pType)); }
cudaError_t cudaGraphGetNodes(CUgraph graph, CUgraphNode *nodes, size_t *numNodes) { RT_CALL(cuGraphGetNodes(graph, nodes, numNodes)); }
cudaError_t cudaGraphGetRootNodes(CUgraph graph, CUgraphNode *pRootNodes, size_t *pNumRootNodes)
{
    RT_CALL(cuGraphGetRootNodes(graph, pRootNodes, pNumRootNodes));
}
cudaError_t cudaGraphGetEdges(CUgraph graph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                              size_t *numEdges)
{
    RT_CALL(cuGraphGetEdges(graph, from, to, edgeData, numEdges));
}
cudaError_t cudaGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *pDependencies, CUgraphEdgeData *edgeData,
                                         size_t *pNumDependencies)
{
    RT_CALL(cuGraphNodeGetDependencies(node, pDependencies, edgeData, pNumDependencies));
}
cudaError_t cudaGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *pDependentNodes, CUgraphEdgeData *edgeData,
                                           size_t *pNumDependentNodes)
{
    RT_CALL(cuGraphNodeGetDependentNodes(node, pDependentNodes, edgeData, pNumDependentNodes));
}
cudaError_t cudaGraphAddDependencies(CUgraph graph, const CUgraphNode *from, const CUgraphNode *to,
                                     const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    RT_CALL(cuGraphAddDependencies(graph, from, to, edgeData, numDependencies));
}
cudaError_t cudaGraphRemoveDependencies(CUgraph graph, const CUgraphNode *from, const CUgraphNode *to,
                                        const CUgraphEdgeData *edgeData, size_t numDependencies)
{
    RT_CALL(cuGraphRemoveDependencies(graph, from, to, edgeData, numDependencies));
}
cudaError_t cudaGraphDestroyNode(CUgraphNode node) { RT_CALL(cuGraphDestroyNode(node)); }

cudaError_t cudaGraphInstantiate(CUgraphExec *pGraphExec, CUgraph graph, unsigned long long flags)
{
    RT_CALL(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}
cudaError_t cudaGraphInstantiateWithFlags(CUgraphExec *pGraphExec, CUgraph graph, unsigned long long flags)
{
    RT_CALL(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}
cudaError_t cudaGraphInstantiateWithParams(CUgraphExec *pGraphExec, CUgraph graph,
                                           CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
    RT_CALL(cuGraphInstantiateWithParams(pGraphExec, graph, instantiateParams));
}
RT_ALIAS(cudaGraphInstantiateWithParams, "cudaGraphInstantiateWithParams_ptsz");
cudaError_t cudaGraphExecGetFlags(CUgraphExec graphExec, unsigned long long *flags)
{
    RT_CALL(cuGraphExecGetFlags(graphExec, (cuuint64_t *)flags));
}
cudaError_t cudaGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
    RT_CALL(cuGraphNodeSetEnabled(hGraphExec, hNode, isEnabled));
}
cudaError_t cudaGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
    RT_CALL(cuGraphNodeGetEnabled(hGraphExec, hNode, isEnabled));
}
cudaError_t cudaGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
    RT_CALL(cuGraphExecUpdate(hGraphExec, hGraph, resultInfo));
}
cudaError_t cudaGraphLaunch(CUgraphExec graphExec, cudaStream_t stream) { RT_CALL(cuGraphLaunch(graphExec, stream)); }
RT_ALIAS(cudaGraphLaunch, "cudaGraphLaunch_ptsz");
cudaError_t cudaGraphUpload(CUgraphExec graphExec, cudaStream_t stream) { RT_CALL(cuGraphUpload(graphExec, stream)); }
RT_ALIAS(cudaGraphUpload, "cudaGraphUpload_ptsz");
cudaError_t cudaGraphExecDestroy(CUgraphExec graphExec) { RT_CALL(cuGraphExecDestroy(graphExec)); }
cudaError_t cudaGraphDebugDotPrint(CUgraph graph, const char *path, unsigned int flags)
{
    RT_CALL(cuGraphDebugDotPrint(graph, path, flags));
}

/* ---- stream capture ------------------------------------------------------------------ */

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, CUstreamCaptureMode mode)
{
    RT_CALL(cuStreamBeginCapture(stream, mode));
}
RT_ALIAS(cudaStreamBeginCapture, "cudaStreamBeginCapture_ptsz");
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, CUgraph graph, const CUgraphNode *dependencies,
                                          const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                          CUstreamCaptureMode mode)
{
    RT_CALL(cuStreamBeginCaptureToGraph(stream, graph, dependencies, dependencyData, numDependencies, mode));
}
RT_ALIAS(cudaStreamBeginCaptureToGraph, "cudaStreamBeginCaptureToGraph_ptsz");
cudaError_t cudaStreamEndCapture(cudaStream_t stream, CUgraph *pGraph) { RT_CALL(cuStreamEndCapture(stream, pGraph)); }
RT_ALIAS(cudaStreamEndCapture, "cudaStreamEndCapture_ptsz");
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, CUgraphNode *dependencies,
                                                const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                                unsigned int flags)
{
    RT_CALL(cuStreamUpdateCaptureDependencies(stream, dependencies, dependencyData, numDependencies, flags));
}
RT_ALIAS(cudaStreamUpdateCaptureDependencies, "cudaStreamUpdateCaptureDependencies_ptsz");

/* ---- memory pools ------------------------------------------------------------------------ */

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, CUmemoryPool memPool, cudaStream_t stream)
{
    if (!ptr) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUdeviceptr p;
    CUresult r = cuMemAllocFromPoolAsync(&p, size, memPool, stream);
    if (!r) *ptr = (void *)(uintptr_t)p;
    return rt_ret(rt_err(r));
}
RT_ALIAS(cudaMallocFromPoolAsync, "cudaMallocFromPoolAsync_ptsz");

cudaError_t cudaMemPoolCreate(CUmemoryPool *memPool, const CUmemPoolProps *poolProps)
{
    RT_CALL(cuMemPoolCreate(memPool, poolProps));
}
cudaError_t cudaMemPoolDestroy(CUmemoryPool memPool) { RT_CALL(cuMemPoolDestroy(memPool)); }
cudaError_t cudaMemPoolTrimTo(CUmemoryPool memPool, size_t minBytesToKeep) { RT_CALL(cuMemPoolTrimTo(memPool, minBytesToKeep)); }
cudaError_t cudaMemPoolSetAttribute(CUmemoryPool memPool, CUmemPool_attribute attr, void *value)
{
    RT_CALL(cuMemPoolSetAttribute(memPool, attr, value));
}
cudaError_t cudaMemPoolGetAttribute(CUmemoryPool memPool, CUmemPool_attribute attr, void *value)
{
    RT_CALL(cuMemPoolGetAttribute(memPool, attr, value));
}
cudaError_t cudaMemPoolSetAccess(CUmemoryPool memPool, const CUmemAccessDesc *descList, size_t count)
{
    RT_CALL(cuMemPoolSetAccess(memPool, descList, count));
}
cudaError_t cudaMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location)
{
    RT_CALL(cuMemPoolGetAccess(flags, memPool, location));
}
cudaError_t cudaDeviceGetDefaultMemPool(CUmemoryPool *memPool, int device)
{
    RT_CALL(cuDeviceGetDefaultMemPool(memPool, device));
}
cudaError_t cudaDeviceGetMemPool(CUmemoryPool *memPool, int device) { RT_CALL(cuDeviceGetMemPool(memPool, device)); }
cudaError_t cudaDeviceSetMemPool(int device, CUmemoryPool memPool) { RT_CALL(cuDeviceSetMemPool(device, memPool)); }

#pragma GCC visibility pop
