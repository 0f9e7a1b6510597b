/*
** t_graph.c -- CUDA graphs, stream capture and memory pools through the
** driver API: building, querying, editing, instantiating and launching
** graphs; capture with its modes and errors; cuMemAllocAsync and pools.
*/
#include "api_test.h"

static CUcontext ctx;
static CUmodule mod;
static CUfunction f_add1;
static int host_calls;
static void host_fn(void *p) { host_calls += *(int *)p; }

static void setup(void)
{
    at_init_ctx(&ctx);
    if (cuModuleLoadData(&mod, at_ptx_add1) || cuModuleGetFunction(&f_add1, mod, "add1")) {
        printf("FAIL t_graph: the test module does not load\n");
        exit(1);
    }
}

static CUDA_KERNEL_NODE_PARAMS add1_params(void **args, unsigned n)
{
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    p.func = f_add1;
    p.gridDimX = (n + 127) / 128, p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = 128, p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = args;
    return p;
}

static CUDA_MEMCPY3D dtoh(void *h, CUdeviceptr d, size_t bytes)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcDevice = d;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = h;
    c.WidthInBytes = bytes, c.Height = 1, c.Depth = 1;
    return c;
}

/* memset -> add1 -> copy to the host -> host node, launched three times. */
static void graph_basic(void)
{
    enum { N = 1000 };
    CUdeviceptr d;
    OK(cuMemAlloc(&d, N * 4));
    static uint32_t h[N];
    CUgraph g;
    OK(cuGraphCreate(&g, 0));
    CUgraphNode ms, k, cp, hn;
    CUDA_MEMSET_NODE_PARAMS mp = {d, 0, 7, 4, N, 1};
    OK(cuGraphAddMemsetNode(&ms, g, NULL, 0, &mp, ctx));
    int n = N;
    void *args[] = {&d, &n};
    CUDA_KERNEL_NODE_PARAMS kp = add1_params(args, N);
    OK(cuGraphAddKernelNode(&k, g, &ms, 1, &kp));
    CUDA_MEMCPY3D c = dtoh(h, d, N * 4);
    OK(cuGraphAddMemcpyNode(&cp, g, &k, 1, &c, ctx));
    int one = 1;
    CUDA_HOST_NODE_PARAMS hp = {host_fn, &one};
    OK(cuGraphAddHostNode(&hn, g, &cp, 1, &hp));
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    CUgraphExec x;
    OK(cuGraphInstantiateWithParams(&x, g, &ip));
    TT_EQ_I(ip.result_out, CUDA_GRAPH_INSTANTIATE_SUCCESS);
    cuuint64_t fl = 99;
    OK(cuGraphExecGetFlags(x, &fl));
    TT_EQ_U(fl, 0);
    host_calls = 0;
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < 3; i++) OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    TT_EQ_I(host_calls, 3);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += h[i] != 8;
    TT_EQ_I(bad, 0);
    /* a disabled kernel node: the memset's values arrive */
    OK(cuGraphNodeSetEnabled(x, k, 0));
    unsigned en = 1;
    OK(cuGraphNodeGetEnabled(x, k, &en));
    TT_EQ_U(en, 0);
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    TT_EQ_U(h[17], 7);
    OK(cuGraphExecDestroy(x));
    CK(cuGraphExecDestroy(x), CUDA_ERROR_INVALID_VALUE);
    CK(cuGraphLaunch(x, s), CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphDestroy(g));
    OK(cuStreamDestroy(s));
    OK(cuMemFree(d));
}

/* The node parameters (one table for kernel, memcpy, memset and host nodes):
** each Get gives back what was set last, a node of another type is refused,
** a refused Set keeps the parameters, and an executable graph's Set changes
** its launches only. */
static void graph_node_params(void)
{
    enum { N = 256 };
    CUdeviceptr d;
    OK(cuMemAlloc(&d, N * 4));
    static uint32_t h[N], h2[N];
    CUgraph g;
    OK(cuGraphCreate(&g, 0));
    CUgraphNode ms, cp, hn;
    CUDA_MEMSET_NODE_PARAMS mp = {d, 0, 5, 4, N, 1};
    OK(cuGraphAddMemsetNode(&ms, g, NULL, 0, &mp, ctx));
    CUDA_MEMCPY3D c = dtoh(h, d, N * 4);
    OK(cuGraphAddMemcpyNode(&cp, g, &ms, 1, &c, ctx));
    int one = 1, ten = 10;
    CUDA_HOST_NODE_PARAMS hp = {host_fn, &one};
    OK(cuGraphAddHostNode(&hn, g, &cp, 1, &hp));
    CUDA_MEMCPY3D cq;
    OK(cuGraphMemcpyNodeGetParams(cp, &cq));
    TT_CHECK(cq.dstHost == h && cq.srcDevice == d && cq.WidthInBytes == N * 4);
    CUDA_HOST_NODE_PARAMS hq;
    OK(cuGraphHostNodeGetParams(hn, &hq));
    TT_CHECK(hq.fn == host_fn && hq.userData == &one);
    /* a node of another type, a missing argument */
    CK(cuGraphMemcpyNodeGetParams(hn, &cq), CUDA_ERROR_INVALID_VALUE);
    CK(cuGraphHostNodeGetParams(cp, &hq), CUDA_ERROR_INVALID_VALUE);
    CK(cuGraphMemsetNodeSetParams(cp, &mp), CUDA_ERROR_INVALID_VALUE);
    CK(cuGraphMemcpyNodeGetParams(cp, NULL), CUDA_ERROR_INVALID_VALUE);
    /* a refused Set keeps what the node had */
    CUDA_HOST_NODE_PARAMS hbad = {NULL, &ten};
    CK(cuGraphHostNodeSetParams(hn, &hbad), CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphHostNodeGetParams(hn, &hq));
    TT_CHECK(hq.fn == host_fn && hq.userData == &one);
    CUDA_MEMSET_NODE_PARAMS mbad = {d, 4, 5, 4, N, 2};   /* pitch less than a row */
    CK(cuGraphMemsetNodeSetParams(ms, &mbad), CUDA_ERROR_INVALID_VALUE);
    CUDA_MEMSET_NODE_PARAMS mq;
    OK(cuGraphMemsetNodeGetParams(ms, &mq));
    TT_EQ_U(mq.value, 5);
    /* Sets: the next instantiation sees them */
    mp.value = 6;
    OK(cuGraphMemsetNodeSetParams(ms, &mp));
    CUDA_MEMCPY3D c2 = dtoh(h2, d, N * 4);
    OK(cuGraphMemcpyNodeSetParams(cp, &c2));
    CUDA_HOST_NODE_PARAMS hp10 = {host_fn, &ten};
    OK(cuGraphHostNodeSetParams(hn, &hp10));
    OK(cuGraphMemcpyNodeGetParams(cp, &cq));
    TT_CHECK(cq.dstHost == h2);
    CUgraphExec x;
    OK(cuGraphInstantiateWithFlags(&x, g, 0));
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    host_calls = 0;
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    TT_EQ_I(host_calls, 10);
    TT_EQ_U(h2[N - 1], 6);
    /* the executable graph's own: a refused Set keeps its work, a Set
    ** changes its launches and not the graph */
    CK(cuGraphExecMemsetNodeSetParams(x, ms, &mbad, ctx), CUDA_ERROR_INVALID_VALUE);
    CK(cuGraphExecHostNodeSetParams(x, hn, &hbad), CUDA_ERROR_INVALID_VALUE);
    CK(cuGraphExecHostNodeSetParams(x, cp, &hp), CUDA_ERROR_INVALID_VALUE);   /* not a host node */
    OK(cuGraphExecMemcpyNodeSetParams(x, cp, &c, ctx));
    mp.value = 9;
    OK(cuGraphExecMemsetNodeSetParams(x, ms, &mp, ctx));
    host_calls = 0;
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    TT_EQ_I(host_calls, 10);
    TT_EQ_U(h[0], 9);
    TT_EQ_U(h2[0], 6);
    OK(cuGraphMemsetNodeGetParams(ms, &mq));
    TT_EQ_U(mq.value, 6);
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(g));
    OK(cuStreamDestroy(s));
    OK(cuMemFree(d));
}

/* Queries and edits of the structure. */
static void graph_queries(void)
{
    CUdeviceptr d;
    OK(cuMemAlloc(&d, 4096));
    CUgraph g, g2;
    OK(cuGraphCreate(&g, 0));
    OK(cuGraphCreate(&g2, 0));
    CUgraphNode a, b, c, e, other;
    OK(cuGraphAddEmptyNode(&a, g, NULL, 0));
    int n = 1024;
    void *args[] = {&d, &n};
    CUDA_KERNEL_NODE_PARAMS kp = add1_params(args, 1024);
    OK(cuGraphAddKernelNode(&b, g, &a, 1, &kp));
    CUDA_MEMSET_NODE_PARAMS mp = {d, 0, 3, 1, 100, 1};
    OK(cuGraphAddMemsetNode(&c, g, &a, 1, &mp, ctx));
    CUgraphNode bc[] = {b, c};
    OK(cuGraphAddEmptyNode(&e, g, bc, 2));
    OK(cuGraphAddEmptyNode(&other, g2, NULL, 0));
    CK(cuGraphAddEmptyNode(&other, g, &other, 1), CUDA_ERROR_INVALID_VALUE);   /* another graph's node */
    CUgraphNode dup[] = {a, a};
    CK(cuGraphAddEmptyNode(&other, g, dup, 2), CUDA_ERROR_INVALID_VALUE);
    size_t cnt = 0;
    OK(cuGraphGetNodes(g, NULL, &cnt));
    TT_EQ_U(cnt, 4);
    CUgraphNode list[8];
    cnt = 8;
    OK(cuGraphGetRootNodes(g, list, &cnt));
    TT_EQ_U(cnt, 1);
    TT_CHECK(list[0] == a);
    cnt = 8;
    OK(cuGraphNodeGetDependentNodes(a, list, NULL, &cnt));
    TT_EQ_U(cnt, 2);
    CUgraphNode from[8], to[8];
    cnt = 8;
    OK(cuGraphGetEdges(g, from, to, NULL, &cnt));
    TT_EQ_U(cnt, 4);
    CUgraphNodeType t;
    OK(cuGraphNodeGetType(c, &t));
    TT_EQ_I(t, CU_GRAPH_NODE_TYPE_MEMSET);
    CUDA_MEMSET_NODE_PARAMS mq;
    OK(cuGraphMemsetNodeGetParams(c, &mq));
    TT_EQ_U(mq.value, 3);
    TT_EQ_U(mq.width, 100);
    CUDA_KERNEL_NODE_PARAMS kq;
    OK(cuGraphKernelNodeGetParams(b, &kq));
    TT_CHECK(kq.func == f_add1);
    TT_EQ_U(kq.gridDimX, 8);
    CK(cuGraphKernelNodeGetParams(c, &kq), CUDA_ERROR_INVALID_VALUE);   /* not a kernel node */
    /* edges: remove, add back; a cycle is accepted and refused by
    ** instantiation (what CUDA 13 does on a real GPU), and can be removed */
    OK(cuGraphRemoveDependencies(g, &a, &b, NULL, 1));
    CK(cuGraphRemoveDependencies(g, &a, &b, NULL, 1), CUDA_ERROR_INVALID_VALUE);
    cnt = 8;
    OK(cuGraphGetRootNodes(g, list, &cnt));
    TT_EQ_U(cnt, 2);
    OK(cuGraphAddDependencies(g, &a, &b, NULL, 1));
    OK(cuGraphAddDependencies(g, &e, &a, NULL, 1));
    CUgraphExec cyc;
    CK(cuGraphInstantiate(&cyc, g, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphRemoveDependencies(g, &e, &a, NULL, 1));
    OK(cuGraphDestroyNode(c));
    OK(cuGraphGetNodes(g, NULL, &cnt));
    TT_EQ_U(cnt, 3);
    cnt = 8;
    OK(cuGraphNodeGetDependencies(e, list, NULL, &cnt));
    TT_EQ_U(cnt, 1);
    CK(cuGraphNodeGetType(c, &t), CUDA_ERROR_INVALID_VALUE);   /* destroyed */
    /* a bad memcpy node is refused when it is added */
    CUDA_MEMCPY3D cp = dtoh(list, d + 4000, 200);
    CK(cuGraphAddMemcpyNode(&other, g, NULL, 0, &cp, ctx), CUDA_ERROR_INVALID_VALUE);
    OK(cuGraphDebugDotPrint(g, "/dev/null", CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
    OK(cuGraphDestroy(g));
    OK(cuGraphDestroy(g2));
    CK(cuGraphDestroy(g), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(d));
}

/* Stream capture through the driver API, its modes and its refusals. */
static void graph_capture(void)
{
    enum { N = 256 };
    CUdeviceptr d;
    OK(cuMemAlloc(&d, N * 4));
    OK(cuMemsetD32(d, 0, N));
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_ILLEGAL_STATE);
    int n = N;
    void *args[] = {&d, &n};
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s, args, NULL));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s, args, NULL));
    CUstreamCaptureStatus st;
    cuuint64_t id = 0;
    CUgraph cg = NULL;
    const CUgraphNode *deps = NULL;
    size_t nd = 0;
    OK(cuStreamGetCaptureInfo(s, &st, &id, &cg, &deps, NULL, &nd));
    TT_EQ_I(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    TT_CHECK(cg != NULL && nd == 1 && deps && deps[0]);
    /* global mode: cuCtxSynchronize from any thread is refused ... */
    CK(cuCtxSynchronize(), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CK(cuStreamEndCapture(s, &cg), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    /* ... unless this thread is in relaxed mode */
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    TT_EQ_I(mode, CU_STREAM_CAPTURE_MODE_GLOBAL);
    OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s, args, NULL));
    OK(cuMemsetD32Async(d + 4, 40, 1, s));
    OK(cuCtxSynchronize());
    OK(cuStreamEndCapture(s, &cg));
    OK(cuThreadExchangeStreamCaptureMode(&mode));
    uint32_t h[N];
    OK(cuMemcpyDtoH(h, d, sizeof h));
    TT_EQ_U(h[0], 0);   /* nothing captured ran */
    size_t cnt = 0;
    OK(cuGraphGetNodes(cg, NULL, &cnt));
    TT_EQ_U(cnt, 2);
    CUgraphExec x;
    OK(cuGraphInstantiate(&x, cg, 0));
    OK(cuGraphLaunch(x, s));
    OK(cuGraphLaunch(x, s));
    OK(cuStreamSynchronize(s));
    OK(cuMemcpyDtoH(h, d, sizeof h));
    TT_EQ_U(h[0], 2);
    TT_EQ_U(h[1], 40);
    TT_EQ_U(h[N - 1], 2);
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(cg));
    CK(cuStreamEndCapture(s, &cg), CUDA_ERROR_ILLEGAL_STATE);
    OK(cuStreamDestroy(s));
    OK(cuMemFree(d));
}

/* Cross-stream capture with the forked stream destroyed during the capture
** (NVIDIA's graphMemoryNodes sample does it): destroying a stream that was
** joined back is fine and its work stays in the graph; one destroyed while
** still forked leaves the capture unjoined; destroying the origin abandons
** the capture and frees the streams that joined it. */
static void graph_capture_destroy(void)
{
    enum { N = 256 };
    CUdeviceptr a, b;
    OK(cuMemAlloc(&a, N * 4));
    OK(cuMemAlloc(&b, N * 4));
    OK(cuMemsetD32(a, 0, N));
    OK(cuMemsetD32(b, 100, N));
    int n = N;
    void *aa[] = {&a, &n}, *ba[] = {&b, &n};
    CUstream s1, s2;
    CUevent fork, join;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    OK(cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));

    /* joined back, then destroyed: the capture ends with s2's work in it */
    OK(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s1, aa, NULL));
    OK(cuEventRecord(fork, s1));
    OK(cuStreamWaitEvent(s2, fork, 0));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s2, ba, NULL));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s2, ba, NULL));
    OK(cuEventRecord(join, s2));
    OK(cuStreamWaitEvent(s1, join, 0));
    OK(cuStreamDestroy(s2));
    CK(cuStreamIsCapturing(s2, NULL), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventDestroy(fork));
    OK(cuEventDestroy(join));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s1, aa, NULL));
    CUstreamCaptureStatus st;
    OK(cuStreamIsCapturing(s1, &st));
    TT_EQ_I(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CUgraph g = NULL;
    OK(cuStreamEndCapture(s1, &g));
    TT_CHECK(g != NULL);
    size_t cnt = 0, ne = 0;
    OK(cuGraphGetNodes(g, NULL, &cnt));
    TT_EQ_U(cnt, 4);
    OK(cuGraphGetEdges(g, NULL, NULL, NULL, &ne));
    TT_EQ_U(ne, 4);   /* a1 -> b1 -> b2 -> a2, a1 -> a2 */
    uint32_t h[N];
    OK(cuMemcpyDtoH(h, a, sizeof h));
    TT_EQ_U(h[0], 0);   /* nothing captured ran */
    CUgraphExec x;
    OK(cuGraphInstantiate(&x, g, 0));
    OK(cuGraphLaunch(x, s1));
    OK(cuStreamSynchronize(s1));
    OK(cuMemcpyDtoH(h, a, sizeof h));
    TT_EQ_U(h[0], 2);
    TT_EQ_U(h[N - 1], 2);
    OK(cuMemcpyDtoH(h, b, sizeof h));
    TT_EQ_U(h[0], 102);
    TT_EQ_U(h[N - 1], 102);
    OK(cuGraphExecDestroy(x));
    OK(cuGraphDestroy(g));

    /* destroyed while still forked: the destroy succeeds, the end says unjoined */
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    OK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    OK(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s1, aa, NULL));
    OK(cuEventRecord(fork, s1));
    OK(cuStreamWaitEvent(s2, fork, 0));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s2, ba, NULL));
    OK(cuStreamDestroy(s2));
    OK(cuStreamIsCapturing(s1, &st));
    TT_EQ_I(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s1, aa, NULL));
    g = (CUgraph)&n;
    CK(cuStreamEndCapture(s1, &g), CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
    TT_CHECK(g == NULL);
    OK(cuStreamIsCapturing(s1, &st));
    TT_EQ_I(st, CU_STREAM_CAPTURE_STATUS_NONE);

    /* a forked stream with no work of its own since the fork is joined by definition */
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    OK(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s1, aa, NULL));
    OK(cuEventRecord(fork, s1));
    OK(cuStreamWaitEvent(s2, fork, 0));
    OK(cuStreamDestroy(s2));
    OK(cuStreamEndCapture(s1, &g));
    OK(cuGraphGetNodes(g, NULL, &cnt));
    TT_EQ_U(cnt, 1);
    OK(cuGraphDestroy(g));

    /* the origin destroyed: the capture is abandoned, the joined stream runs work again */
    CUstream s0;
    OK(cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    OK(cuStreamBeginCapture(s0, CU_STREAM_CAPTURE_MODE_GLOBAL));
    OK(cuEventRecord(fork, s0));
    OK(cuStreamWaitEvent(s2, fork, 0));
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s2, ba, NULL));
    OK(cuStreamIsCapturing(s2, &st));
    TT_EQ_I(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    OK(cuStreamDestroy(s0));
    OK(cuStreamIsCapturing(s2, &st));
    TT_EQ_I(st, CU_STREAM_CAPTURE_STATUS_NONE);
    OK(cuLaunchKernel(f_add1, 2, 1, 1, 128, 1, 1, 0, s2, ba, NULL));
    OK(cuStreamSynchronize(s2));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH(h, b, sizeof h));
    TT_EQ_U(h[0], 103);   /* the captured launch never ran; the later one did */
    OK(cuStreamDestroy(s2));
    OK(cuEventDestroy(fork));
    OK(cuStreamDestroy(s1));
    OK(cuMemFree(a));
    OK(cuMemFree(b));
}

/* Stream-ordered allocation through the driver API. */
static void graph_pools(void)
{
    int v = 0;
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0));
    TT_EQ_I(v, 1);
    CUmemoryPool pool;
    OK(cuDeviceGetDefaultMemPool(&pool, 0));
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr a, b;
    OK(cuMemAllocAsync(&a, 1000, s));
    OK(cuMemsetD8Async(a, 5, 1000, s));
    OK(cuMemFreeAsync(a, s));
    OK(cuMemAllocAsync(&b, 1000, s));
    TT_CHECK(a == b);   /* reused in stream order */
    cuuint64_t used = 0;
    OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
    TT_EQ_U(used, 1000);
    OK(cuMemFreeAsync(b, s));
    CK(cuMemFreeAsync(b, s), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemAllocAsync(&a, 0, s), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemPoolGetAttribute((CUmemoryPool)&v, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used), CUDA_ERROR_INVALID_VALUE);
    OK(cuStreamSynchronize(s));
    OK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &used));
    TT_EQ_U(used, 0);   /* release threshold 0: given back at the synchronize */
    OK(cuStreamDestroy(s));
}

int main(void)
{
    setup();
    TT_RUN(graph_basic);
    TT_RUN(graph_queries);
    TT_RUN(graph_node_params);
    TT_RUN(graph_capture);
    TT_RUN(graph_capture_destroy);
    TT_RUN(graph_pools);
    OK(cuCtxDestroy(ctx));
    return tt_done();
}
