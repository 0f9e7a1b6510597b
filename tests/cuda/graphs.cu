// graphs.cu -- CUDA graphs and stream capture through the runtime: explicit
// graphs with kernel, memcpy, memset, host, empty, child-graph, event and
// memory nodes; instantiate, launch, exec updates, clone, node queries, the
// DOT dump; stream capture across streams through events, captured work not
// run during capture, cudaMallocAsync/cudaFreeAsync captured as memory nodes,
// and the errors of a capture that would synchronize.
#include "check.h"
#include <cstring>

__global__ void axpb(float *y, const float *x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}

__global__ void add1(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

static int host_calls;
static float host_seen;
static void CUDART_CB host_fn(void *p)
{
    host_calls++;
    host_seen = ((const float *)p)[5];
}

static bool ramp_ok(const float *y, const float *x, float a, float b, int n)
{
    for (int i = 0; i < n; i++)
        if (y[i] != a * x[i] + b) return false;
    return true;
}

int main()
{
    ck_start("graphs");
    const int n = 1024;
    float *hx, *hy, *dx, *dy;
    int *dcnt, hcnt = 0;
    CK(cudaMallocHost(&hx, n * sizeof(float)));
    CK(cudaMallocHost(&hy, n * sizeof(float)));
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dy, n * sizeof(float)));
    CK(cudaMalloc(&dcnt, sizeof(int)));
    CK(cudaMemset(dcnt, 0, sizeof(int)));
    for (int i = 0; i < n; i++) hx[i] = (float)i, hy[i] = -1;
    cudaStream_t s;
    CK(cudaStreamCreate(&s));

    // ---- an explicit graph -----------------------------------------------------
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t A, B, C, D, E, F, G, H;
    CK(cudaGraphAddMemcpyNode1D(&A, g, NULL, 0, dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    cudaMemsetParams ms = {};
    ms.dst = dy, ms.value = 0, ms.elementSize = 4, ms.width = n, ms.height = 1;
    CK(cudaGraphAddMemsetNode(&B, g, NULL, 0, &ms));
    float a = 2, b = 1;
    int nn = n;
    void *kargs[] = {&dy, &dx, &a, &b, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)axpb, kp.gridDim = dim3(n / 256), kp.blockDim = dim3(256), kp.kernelParams = kargs;
    cudaGraphNode_t AB[] = {A, B};
    CK(cudaGraphAddKernelNode(&C, g, AB, 2, &kp));
    int one = 1;
    void *cargs[] = {&dcnt, &one};
    cudaKernelNodeParams cp = {};
    cp.func = (void *)add1, cp.gridDim = dim3(1), cp.blockDim = dim3(32), cp.kernelParams = cargs;
    CK(cudaGraphAddKernelNode(&D, g, NULL, 0, &cp));
    CK(cudaGraphAddMemcpyNode1D(&E, g, &C, 1, hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {host_fn, hy};
    CK(cudaGraphAddHostNode(&F, g, &E, 1, &hp));
    cudaGraphNode_t DF[] = {D, F};
    CK(cudaGraphAddEmptyNode(&G, g, DF, 2));
    cudaGraph_t child;
    CK(cudaGraphCreate(&child, 0));
    cudaGraphNode_t ck;
    CK(cudaGraphAddKernelNode(&ck, child, NULL, 0, &cp));
    CK(cudaGraphAddChildGraphNode(&H, g, &G, 1, child));
    CK(cudaGraphDestroy(child));   // the node holds its own copy

    size_t count = 0;
    CK(cudaGraphGetNodes(g, NULL, &count));
    EXPECT(count == 8, "%zu nodes", count);
    CK(cudaGraphGetRootNodes(g, NULL, &count));
    EXPECT(count == 3, "%zu root nodes", count);
    CK(cudaGraphGetEdges(g, NULL, NULL, NULL, &count));
    EXPECT(count == 7, "%zu edges", count);
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(C, &t));
    EXPECT(t == cudaGraphNodeTypeKernel, "type %d", (int)t);
    CK(cudaGraphNodeGetType(H, &t));
    EXPECT(t == cudaGraphNodeTypeGraph, "type %d", (int)t);
    cudaGraphNode_t deps[4];
    count = 4;
    CK(cudaGraphNodeGetDependencies(C, deps, NULL, &count));
    EXPECT(count == 2 && deps[0] == A && deps[1] == B, "C's dependencies");
    // a cycle: accepted by cudaGraphAddDependencies, refused by
    // cudaGraphInstantiate (what CUDA 13 does on a real GPU, an H200)
    CK(cudaGraphAddDependencies(g, &H, &A, NULL, 1));
    {
        cudaGraphExec_t cyc;
        EXPECT(cudaGraphInstantiate(&cyc, g, 0) == cudaErrorInvalidValue, "a graph with a cycle was instantiated");
        cudaGetLastError();
    }
    CK(cudaGraphRemoveDependencies(g, &H, &A, NULL, 1));
    CK(cudaGraphDebugDotPrint(g, "graphs.dot", 0));
    FILE *dot = fopen("graphs.dot", "r");
    char buf[4096] = {0};
    size_t got = dot ? fread(buf, 1, sizeof buf - 1, dot) : 0;
    if (dot) fclose(dot);
    EXPECT(got > 0 && strstr(buf, "digraph") && strstr(buf, "axpb") && strstr(buf, "->"), "DOT file: %s", buf);

    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    EXPECT(host_calls == 0 && hy[5] == -1, "instantiating ran work");
    for (int i = 0; i < 3; i++) CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(&hcnt, dcnt, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(ramp_ok(hy, hx, 2, 1, n), "y = 2x + 1");
    EXPECT(host_calls == 3 && host_seen == 11.0f, "host node: %d calls, saw %g", host_calls, host_seen);
    EXPECT(hcnt == 6, "counter %d after 3 launches (want 6: kernel + child graph's kernel)", hcnt);

    // parameters of the executable graph
    a = 3;
    CK(cudaGraphExecKernelNodeSetParams(x, C, &kp));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(ramp_ok(hy, hx, 3, 1, n), "y = 3x + 1 after cudaGraphExecKernelNodeSetParams");
    // the graph changed, the executable graph updated from it
    a = 4;
    CK(cudaGraphKernelNodeSetParams(C, &kp));
    cudaGraphExecUpdateResultInfo info;
    CK(cudaGraphExecUpdate(x, g, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int)info.result);
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(ramp_ok(hy, hx, 4, 1, n), "y = 4x + 1 after cudaGraphExecUpdate");
    // a graph of another shape cannot update it
    cudaGraph_t other;
    CK(cudaGraphCreate(&other, 0));
    cudaGraphNode_t on;
    CK(cudaGraphAddEmptyNode(&on, other, NULL, 0));
    EXPECT(cudaGraphExecUpdate(x, other, &info) == cudaErrorGraphExecUpdateFailure &&
               info.result == cudaGraphExecUpdateErrorTopologyChanged,
           "update from another topology");
    cudaGetLastError();
    CK(cudaGraphDestroy(other));

    // a clone runs the same work
    cudaGraph_t g2;
    CK(cudaGraphClone(&g2, g));
    cudaGraphNode_t C2;
    CK(cudaGraphNodeFindInClone(&C2, C, g2));
    CK(cudaGraphNodeGetType(C2, &t));
    EXPECT(t == cudaGraphNodeTypeKernel && C2 != C, "clone's node");
    a = 5;
    CK(cudaGraphKernelNodeSetParams(C2, &kp));
    cudaGraphExec_t x2;
    CK(cudaGraphInstantiate(&x2, g2, 0));
    CK(cudaGraphLaunch(x2, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(ramp_ok(hy, hx, 5, 1, n), "y = 5x + 1 from the clone");
    CK(cudaGraphExecDestroy(x2));
    CK(cudaGraphDestroy(g2));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // ---- event record and wait nodes, graph memory ----------------------------
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    cudaGraph_t gm;
    CK(cudaGraphCreate(&gm, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = n * sizeof(int);
    cudaGraphNode_t mA, mS, mK, mC, mF, mE, mW;
    CK(cudaGraphAddEventWaitNode(&mW, gm, NULL, 0, e0));
    CK(cudaGraphAddMemAllocNode(&mA, gm, &mW, 1, &ap));
    int *dm = (int *)ap.dptr;
    EXPECT(dm != NULL, "the allocation node gave no address");
    cudaMemsetParams ms2 = {};
    ms2.dst = dm, ms2.value = 41, ms2.elementSize = 4, ms2.width = n, ms2.height = 1;
    CK(cudaGraphAddMemsetNode(&mS, gm, &mA, 1, &ms2));
    void *margs[] = {&dm, &nn};
    cudaKernelNodeParams mk = {};
    mk.func = (void *)add1, mk.gridDim = dim3(n / 256), mk.blockDim = dim3(256), mk.kernelParams = margs;
    CK(cudaGraphAddKernelNode(&mK, gm, &mS, 1, &mk));
    int *hm;
    CK(cudaMallocHost(&hm, n * sizeof(int)));
    CK(cudaGraphAddMemcpyNode1D(&mC, gm, &mK, 1, hm, dm, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaGraphAddMemFreeNode(&mF, gm, &mC, 1, dm));
    CK(cudaGraphAddEventRecordNode(&mE, gm, &mF, 1, e1));
    cudaGraphExec_t xm;
    CK(cudaGraphInstantiate(&xm, gm, 0));
    for (int r = 0; r < 2; r++) {
        memset(hm, 0, n * sizeof(int));
        CK(cudaEventRecord(e0, s));
        CK(cudaGraphLaunch(xm, s));
        CK(cudaEventSynchronize(e1));
        int bad = 0;
        for (int i = 0; i < n; i++) bad += hm[i] != 42;
        EXPECT(bad == 0, "launch %d: %d wrong values from graph memory", r, bad);
    }
    float ms_el = -1;
    CK(cudaEventElapsedTime(&ms_el, e0, e1));
    EXPECT(ms_el > 0, "elapsed %g ms between the wait and the record", ms_el);
    size_t used = 1;
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    // tpsim counts the bytes of live graph allocations: none after the free
    // node.  A real GPU counts the physical memory it keeps for graphs until
    // cudaDeviceGraphMemTrim (an H200: 32 MiB for this 4 KB allocation, from
    // the first launch, still after cudaGraphExecDestroy, 0 after a trim).
    if (ck_simulated()) EXPECT(used == 0, "graph memory in use after its free node: %zu", used);
    CK(cudaGraphExecDestroy(xm));
    CK(cudaGraphDestroy(gm));

    // ---- stream-ordered allocation in a capture: allocation and free nodes --------
    {
        cudaStream_t sc;
        CK(cudaStreamCreateWithFlags(&sc, cudaStreamNonBlocking));
        int *dmc = NULL;
        CK(cudaStreamBeginCapture(sc, cudaStreamCaptureModeGlobal));
        CK(cudaMallocAsync((void **)&dmc, n * sizeof(int), sc));
        CK(cudaMemsetAsync(dmc, 0, n * sizeof(int), sc));
        add1<<<n / 256, 256, 0, sc>>>(dmc, n);
        CK_LAUNCH();
        CK(cudaMemcpyAsync(hm, dmc, n * sizeof(int), cudaMemcpyDeviceToHost, sc));
        CK(cudaFreeAsync(dmc, sc));
        cudaGraph_t ag;
        CK(cudaStreamEndCapture(sc, &ag));
        cudaGraphNode_t an[8];
        size_t na = 8;
        CK(cudaGraphGetNodes(ag, an, &na));
        EXPECT(na == 5, "captured allocation graph has %zu nodes", na);
        cudaGraphNodeType t0 = cudaGraphNodeTypeEmpty, t4 = cudaGraphNodeTypeEmpty;
        if (na == 5) {
            CK(cudaGraphNodeGetType(an[0], &t0));
            CK(cudaGraphNodeGetType(an[4], &t4));
        }
        EXPECT(t0 == cudaGraphNodeTypeMemAlloc && t4 == cudaGraphNodeTypeMemFree, "node types %d %d", (int)t0,
               (int)t4);
        cudaGraphExec_t ax;
        CK(cudaGraphInstantiate(&ax, ag, 0));
        for (int r = 0; r < 2; r++) {
            memset(hm, 0xff, n * sizeof(int));
            CK(cudaGraphLaunch(ax, sc));
            CK(cudaStreamSynchronize(sc));
            int bad = 0;
            for (int i = 0; i < n; i++) bad += hm[i] != 1;
            EXPECT(bad == 0, "captured graph memory, launch %d: %d wrong values", r, bad);
        }
        CK(cudaGraphExecDestroy(ax));
        CK(cudaGraphDestroy(ag));
        CK(cudaStreamDestroy(sc));
    }

    // ---- stream capture across two streams --------------------------------------
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    for (int i = 0; i < n; i++) hy[i] = -1;
    host_calls = 0;
    CK(cudaMemset(dcnt, 0, sizeof(int)));
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus cs;
    CK(cudaStreamIsCapturing(s1, &cs));
    EXPECT(cs == cudaStreamCaptureStatusActive, "s1 status %d", (int)cs);
    CK(cudaStreamIsCapturing(s2, &cs));
    EXPECT(cs == cudaStreamCaptureStatusNone, "s2 status %d before joining", (int)cs);
    CK(cudaMemcpyAsync(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice, s1));
    CK(cudaEventRecord(fork, s1));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    CK(cudaStreamIsCapturing(s2, &cs));
    EXPECT(cs == cudaStreamCaptureStatusActive, "s2 status %d after joining", (int)cs);
    axpb<<<n / 256, 256, 0, s1>>>(dy, dx, 6.0f, 1.0f, n);
    CK_LAUNCH();
    add1<<<1, 32, 0, s2>>>(dcnt, 1);
    CK_LAUNCH();
    CK(cudaEventRecord(join, s2));
    CK(cudaStreamWaitEvent(s1, join, 0));
    CK(cudaMemcpyAsync(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s1));
    CK(cudaLaunchHostFunc(s1, host_fn, hy));
    unsigned long long id = 0;
    size_t ndeps = 0;
    CK(cudaStreamGetCaptureInfo(s1, &cs, &id, NULL, NULL, NULL, &ndeps));
    EXPECT(cs == cudaStreamCaptureStatusActive && id != 0 && ndeps == 1, "capture info: %d %llu %zu", (int)cs, id,
           ndeps);
    cudaGraph_t cg;
    CK(cudaStreamEndCapture(s1, &cg));
    CK(cudaDeviceSynchronize());
    EXPECT(host_calls == 0 && hy[5] == -1, "captured work ran during the capture");
    CK(cudaStreamIsCapturing(s2, &cs));
    EXPECT(cs == cudaStreamCaptureStatusNone, "s2 status %d after the capture", (int)cs);
    CK(cudaGraphGetNodes(cg, NULL, &count));
    EXPECT(count == 5, "captured graph has %zu nodes (want 5)", count);
    cudaGraphExec_t cx;
    CK(cudaGraphInstantiate(&cx, cg, 0));
    CK(cudaGraphLaunch(cx, s));
    CK(cudaGraphLaunch(cx, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(&hcnt, dcnt, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(ramp_ok(hy, hx, 6, 1, n), "captured graph: y = 6x + 1");
    EXPECT(host_calls == 2 && hcnt == 2, "captured graph launched twice: %d host calls, counter %d", host_calls, hcnt);
    CK(cudaGraphExecDestroy(cx));
    CK(cudaGraphDestroy(cg));

    // ---- captures that go wrong ---------------------------------------------------
    // a forked stream not joined back
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CK(cudaEventRecord(fork, s1));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    add1<<<1, 32, 0, s2>>>(dcnt, 1);
    EXPECT(cudaStreamEndCapture(s1, &cg) == cudaErrorStreamCaptureUnjoined, "unjoined capture ended");
    cudaGetLastError();
    // synchronizing a capturing stream invalidates the capture
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    add1<<<1, 32, 0, s1>>>(dcnt, 1);
    EXPECT(cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported, "synchronize during capture");
    CK(cudaStreamIsCapturing(s1, &cs));
    EXPECT(cs == cudaStreamCaptureStatusInvalidated, "status %d after the synchronize", (int)cs);
    EXPECT(cudaStreamEndCapture(s1, &cg) == cudaErrorStreamCaptureInvalidated && cg == NULL, "invalidated capture");
    cudaGetLastError();
    // the legacy stream next to a capturing blocking stream
    cudaStream_t sb;
    CK(cudaStreamCreate(&sb));
    CK(cudaStreamBeginCapture(sb, cudaStreamCaptureModeGlobal));
    add1<<<1, 32>>>(dcnt, 1);
    EXPECT(cudaGetLastError() == cudaErrorStreamCaptureImplicit, "legacy-stream launch during a capture");
    EXPECT(cudaStreamEndCapture(sb, &cg) == cudaErrorStreamCaptureInvalidated, "capture survived the legacy launch");
    cudaGetLastError();
    // none of the refused or invalidated work ran
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&hcnt, dcnt, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(hcnt == 2, "counter %d: captured work of failed captures ran", hcnt);

    CK(cudaStreamDestroy(sb));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaStreamDestroy(s));
    return ck_finish();
}
