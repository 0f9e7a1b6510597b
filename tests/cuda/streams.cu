// streams.cu -- streams and events.
//
// Covers: cudaStreamCreate/CreateWithFlags(NonBlocking)/Destroy, pinned
// host memory (cudaMallocHost, cudaHostAlloc), cudaMemcpyAsync both ways,
// kernels on streams whose results depend on their order (each step is a
// non-commuting affine map), cudaMemsetAsync, cudaStreamWaitEvent across
// streams, cudaEventCreate/Record/Synchronize/Query/ElapsedTime/Destroy
// (elapsed times only checked to be finite and >= 0, and additive order of
// three events), cudaStreamSynchronize, cudaStreamQuery, the legacy default
// stream, and cudaDeviceSynchronize.
#include <cmath>
#include <cstdint>
#include <vector>

#include "check.h"

// x = x * a + b (mod 2^32): two such steps in different orders differ.
__global__ void affine(unsigned *x, int n, unsigned a, unsigned b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a + b;
}

// y[i] = x[i] + y[i]
__global__ void add_into(unsigned *y, const unsigned *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}

// Some work, so that events have something to time.
__global__ void busy(unsigned *x, int n, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = x[i];
        for (int r = 0; r < rounds; r++)
            v = v * 1664525u + 1013904223u;
        x[i] = v;
    }
}

static unsigned lcg_rounds(unsigned v, int rounds) {
    for (int r = 0; r < rounds; r++)
        v = v * 1664525u + 1013904223u;
    return v;
}

int main() {
    ck_start("streams");
    const int n = 1 << 14, nstreams = 4, steps = 6;
    const size_t bytes = n * sizeof(unsigned);
    const int grid = (n + 255) / 256;

    cudaStream_t s[nstreams];
    CK(cudaStreamCreate(&s[0]));
    CK(cudaStreamCreate(&s[1]));
    CK(cudaStreamCreateWithFlags(&s[2], cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s[3], cudaStreamDefault));

    unsigned *h_in, *h_out;
    CK(cudaMallocHost(&h_in, nstreams * bytes));
    CK(cudaHostAlloc(&h_out, nstreams * bytes, cudaHostAllocDefault));
    unsigned *d;
    CK(cudaMalloc(&d, nstreams * bytes));
    for (int k = 0; k < nstreams; k++)
        for (int i = 0; i < n; i++)
            h_in[k * n + i] = (unsigned)(i * 2654435761u) ^ (unsigned)k;

    // Per stream: H2D, `steps` affine maps with stream-specific constants,
    // D2H.  The order of the maps within each stream decides the result.
    for (int k = 0; k < nstreams; k++) {
        CK(cudaMemcpyAsync(d + k * n, h_in + k * n, bytes, cudaMemcpyHostToDevice, s[k]));
        for (int j = 0; j < steps; j++) {
            affine<<<grid, 256, 0, s[k]>>>(d + k * n, n, 3u + 2u * j + 16u * k, 7u * j + k);
            CK_LAUNCH();
        }
        CK(cudaMemcpyAsync(h_out + k * n, d + k * n, bytes, cudaMemcpyDeviceToHost, s[k]));
    }
    for (int k = 0; k < nstreams; k++)
        CK(cudaStreamSynchronize(s[k]));
    int bad = 0;
    for (int k = 0; k < nstreams; k++)
        for (int i = 0; i < n; i++) {
            unsigned v = h_in[k * n + i];
            for (int j = 0; j < steps; j++)
                v = v * (3u + 2u * j + 16u * k) + (7u * j + k);
            if (h_out[k * n + i] != v && bad++ < 3)
                EXPECT(false, "stream %d: x[%d] = %08x, expected %08x", k, i, h_out[k * n + i], v);
        }
    printf("%d streams x %d ordered kernels between async copies: %s\n", nstreams, steps, bad ? "wrong" : "ok");
    for (int k = 0; k < nstreams; k++)
        EXPECT(cudaStreamQuery(s[k]) == cudaSuccess, "cudaStreamQuery(stream %d) after synchronize", k);

    // Cross-stream dependency: stream 1 adds stream 0's result into its own
    // buffer, after an event recorded on stream 0.  Stream 0 first runs a
    // long kernel, so without the wait stream 1 could read a stale value.
    cudaEvent_t ready, t0, t1, t2;
    CK(cudaEventCreate(&ready));
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventCreate(&t2));
    unsigned *x0 = d, *x1 = d + n;
    CK(cudaMemcpyAsync(x0, h_in, bytes, cudaMemcpyHostToDevice, s[0]));
    CK(cudaMemsetAsync(x1, 0, bytes, s[1]));
    CK(cudaEventRecord(t0, s[0]));
    busy<<<grid, 256, 0, s[0]>>>(x0, n, 200);
    CK_LAUNCH();
    CK(cudaEventRecord(t1, s[0]));
    CK(cudaEventRecord(ready, s[0]));
    CK(cudaStreamWaitEvent(s[1], ready, 0));
    add_into<<<grid, 256, 0, s[1]>>>(x1, x0, n);
    CK_LAUNCH();
    add_into<<<grid, 256, 0, s[1]>>>(x1, x0, n);  // x1 = 2 * x0
    CK_LAUNCH();
    CK(cudaEventRecord(t2, s[1]));
    CK(cudaMemcpyAsync(h_out, x1, bytes, cudaMemcpyDeviceToHost, s[1]));
    CK(cudaEventSynchronize(t2));
    CK(cudaStreamSynchronize(s[1]));
    EXPECT(cudaEventQuery(t2) == cudaSuccess, "cudaEventQuery(t2) after synchronize");
    EXPECT(cudaEventQuery(t0) == cudaSuccess, "cudaEventQuery(t0) after synchronize");
    bad = 0;
    for (int i = 0; i < n; i++) {
        unsigned want = 2u * lcg_rounds(h_in[i], 200);
        if (h_out[i] != want && bad++ < 3)
            EXPECT(false, "after cudaStreamWaitEvent: x1[%d] = %08x, expected %08x", i, h_out[i], want);
    }
    printf("cudaStreamWaitEvent orders stream 1 after stream 0: %s\n", bad ? "wrong" : "ok");

    float ms01 = -1, ms02 = -1, ms12 = -1;
    CK(cudaEventElapsedTime(&ms01, t0, t1));
    CK(cudaEventElapsedTime(&ms02, t0, t2));
    CK(cudaEventElapsedTime(&ms12, t1, t2));
    EXPECT(std::isfinite(ms01) && ms01 >= 0, "elapsed t0..t1 = %g ms", ms01);
    EXPECT(std::isfinite(ms02) && ms02 >= 0, "elapsed t0..t2 = %g ms", ms02);
    EXPECT(std::isfinite(ms12) && ms12 >= 0, "elapsed t1..t2 = %g ms", ms12);
    // t0 <= t1 <= t2 in time (t2 waited for t1's stream), so the parts
    // cannot exceed the whole (events have about 0.5 us resolution).
    EXPECT(ms01 <= ms02 + 0.001f && ms12 <= ms02 + 0.001f, "t0..t1 %g ms, t1..t2 %g ms, t0..t2 %g ms", ms01,
           ms12, ms02);
    printf("event times are finite and non-negative\n");

    // The legacy default stream: work on it runs after earlier work on the
    // blocking streams, and later work on them waits for it.
    CK(cudaMemcpyAsync(x0, h_in, bytes, cudaMemcpyHostToDevice, s[0]));
    affine<<<grid, 256, 0, s[0]>>>(x0, n, 5u, 1u);
    CK_LAUNCH();
    affine<<<grid, 256>>>(x0, n, 9u, 2u);  // default stream
    CK_LAUNCH();
    affine<<<grid, 256, 0, s[1]>>>(x0, n, 13u, 3u);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(h_out, x0, bytes, cudaMemcpyDeviceToHost, s[1]));
    CK(cudaDeviceSynchronize());
    bad = 0;
    for (int i = 0; i < n; i++) {
        unsigned want = ((h_in[i] * 5u + 1u) * 9u + 2u) * 13u + 3u;
        if (h_out[i] != want && bad++ < 3)
            EXPECT(false, "default stream ordering: x[%d] = %08x, expected %08x", i, h_out[i], want);
    }
    printf("legacy default stream orders the blocking streams: %s\n", bad ? "wrong" : "ok");

    // Events on the default stream time a synchronous copy.
    float ms = -1;
    CK(cudaEventRecord(t0));
    CK(cudaMemcpy(d, h_in, nstreams * bytes, cudaMemcpyHostToDevice));
    CK(cudaEventRecord(t1));
    CK(cudaEventSynchronize(t1));
    CK(cudaEventElapsedTime(&ms, t0, t1));
    EXPECT(std::isfinite(ms) && ms >= 0, "elapsed around cudaMemcpy = %g ms", ms);

    CK(cudaEventDestroy(ready));
    CK(cudaEventDestroy(t0));
    CK(cudaEventDestroy(t1));
    CK(cudaEventDestroy(t2));
    for (int k = 0; k < nstreams; k++)
        CK(cudaStreamDestroy(s[k]));
    CK(cudaFree(d));
    CK(cudaFreeHost(h_in));
    CK(cudaFreeHost(h_out));
    return ck_finish();
}
