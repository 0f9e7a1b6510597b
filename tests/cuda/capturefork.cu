// capturefork.cu -- stream capture across two streams with the second one
// created and destroyed inside the capture, in the shape of NVIDIA's
// graphMemoryNodes sample: cudaMallocAsync on the origin stream, a fork
// through an event to a second stream that copies an intermediate result
// to the host and frees it (cudaFreeAsync of graph memory on the other
// stream), a join back through an event recorded on the second stream,
// then cudaStreamDestroy of the second stream and of the events before
// cudaStreamEndCapture.  The capture must stay valid and the graph hold the
// second stream's work; the graph is launched three times on fresh input.
// A second stream destroyed while still forked (not joined back) must make
// cudaStreamEndCapture fail with cudaErrorStreamCaptureUnjoined.
#include "check.h"
#include <cstring>

__global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

__global__ void negate(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = -in[i];
}

struct arrays {
    float *in, *sq, *negsq;
    int n;
    size_t bytes;
};

// The work, as the sample's doNegateSquaresInStream issues it: the second
// stream and the events live only while the work is issued.
static void negate_squares(cudaStream_t s1, arrays *h)
{
    float *d_in, *d_sq, *d_negsq;
    cudaStream_t s2;
    cudaEvent_t sq_done, neg_done, sq_freed;
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaEventCreate(&sq_done));
    CK(cudaEventCreate(&neg_done));
    CK(cudaEventCreate(&sq_freed));
    int blocks = (h->n + 255) / 256;

    CK(cudaMallocAsync(&d_in, h->bytes, s1));
    CK(cudaMallocAsync(&d_sq, h->bytes, s1));
    CK(cudaMemcpyAsync(d_in, h->in, h->bytes, cudaMemcpyHostToDevice, s1));
    square<<<blocks, 256, 0, s1>>>(d_in, d_sq, h->n);
    CK_LAUNCH();
    CK(cudaEventRecord(sq_done, s1));

    CK(cudaStreamWaitEvent(s2, sq_done, 0));   // fork
    CK(cudaMemcpyAsync(h->sq, d_sq, h->bytes, cudaMemcpyDeviceToHost, s2));

    CK(cudaFreeAsync(d_in, s1));
    CK(cudaMallocAsync(&d_negsq, h->bytes, s1));
    negate<<<blocks, 256, 0, s1>>>(d_sq, d_negsq, h->n);
    CK_LAUNCH();
    CK(cudaEventRecord(neg_done, s1));
    CK(cudaMemcpyAsync(h->negsq, d_negsq, h->bytes, cudaMemcpyDeviceToHost, s1));
    CK(cudaFreeAsync(d_negsq, s1));

    CK(cudaStreamWaitEvent(s2, neg_done, 0));
    CK(cudaFreeAsync(d_sq, s2));
    CK(cudaEventRecord(sq_freed, s2));
    CK(cudaStreamWaitEvent(s1, sq_freed, 0));   // join

    CK(cudaStreamDestroy(s2));   // during the capture: legal, the capture stays valid
    CK(cudaEventDestroy(sq_done));
    CK(cudaEventDestroy(neg_done));
    CK(cudaEventDestroy(sq_freed));
}

static unsigned lcg = 12345;
static float rnd(void)
{
    lcg = lcg * 1103515245u + 12345u;
    return (float)((lcg >> 8) & 0xffff) / 65536.0f;   // exact squares: 16-bit fractions
}

int main()
{
    ck_start("capturefork");
    arrays h;
    h.n = 100000;
    h.bytes = h.n * sizeof(float);
    h.in = (float *)malloc(h.bytes);
    h.sq = (float *)malloc(h.bytes);
    h.negsq = (float *)malloc(h.bytes);

    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    negate_squares(s, &h);
    cudaStreamCaptureStatus cs;
    CK(cudaStreamIsCapturing(s, &cs));
    EXPECT(cs == cudaStreamCaptureStatusActive, "capture status %d after the second stream was destroyed", (int)cs);
    CK(cudaStreamEndCapture(s, &g));

    // alloc in, alloc sq, copy in, square, copy sq out, free in, alloc negsq,
    // negate, copy negsq out, free negsq, free sq
    size_t nodes = 0;
    CK(cudaGraphGetNodes(g, NULL, &nodes));
    EXPECT(nodes == 11, "%zu nodes in the captured graph", nodes);
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, NULL, NULL, 0));
    CK(cudaGraphDestroy(g));

    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < h.n; i++) h.in[i] = rnd(), h.sq[i] = -7, h.negsq[i] = 7;
        CK(cudaGraphLaunch(x, s));
        CK(cudaStreamSynchronize(s));
        int bad = 0;
        for (int i = 0; i < h.n; i++)
            if (h.sq[i] != h.in[i] * h.in[i] || h.negsq[i] != -(h.in[i] * h.in[i])) bad++;
        EXPECT(bad == 0, "round %d: %d of %d elements wrong", round, bad, h.n);
    }
    CK(cudaGraphExecDestroy(x));

    // the second stream destroyed before its work was joined back
    float *d;
    CK(cudaMalloc(&d, h.bytes));
    cudaStream_t s2;
    cudaEvent_t fork;
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMemsetAsync(d, 0, h.bytes, s));
    CK(cudaEventRecord(fork, s));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    square<<<(h.n + 255) / 256, 256, 0, s2>>>(d, d, h.n);
    CK_LAUNCH();
    CK(cudaStreamDestroy(s2));
    CK(cudaEventDestroy(fork));
    g = (cudaGraph_t)&h;
    cudaError_t e = cudaStreamEndCapture(s, &g);
    EXPECT(e == cudaErrorStreamCaptureUnjoined, "ending a capture with a destroyed unjoined stream: %s",
           cudaGetErrorName(e));
    EXPECT(g == NULL, "graph %p returned by a failed capture", (void *)g);
    cudaGetLastError();
    CK(cudaStreamIsCapturing(s, &cs));
    EXPECT(cs == cudaStreamCaptureStatusNone, "capture status %d after the failed end", (int)cs);

    CK(cudaFree(d));
    CK(cudaStreamDestroy(s));
    free(h.in);
    free(h.sq);
    free(h.negsq);
    return ck_finish();
}
