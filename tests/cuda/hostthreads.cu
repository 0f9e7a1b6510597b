// hostthreads.cu -- several host threads using the runtime at once.
//
// Four std::threads each set the device, create a stream, allocate, and
// run 25 rounds of: async copy in, a kernel with thread-specific constants,
// async copy out, stream synchronize, check; one of them uses the legacy
// default stream instead, and one allocates and frees a scratch buffer
// every round.  The runtime must keep each thread's calls, streams and
// errors apart and be safe to call concurrently.
#include <atomic>
#include <thread>
#include <vector>

#include "check.h"

__global__ void affine(unsigned *x, int n, unsigned a, unsigned b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a + b;
}

static std::atomic<int> failures(0);

static void worker(int id) {
    const int n = 5000, rounds = 25;
    auto fail = [&](const char *what, cudaError_t e) {
        fprintf(stderr, "thread %d: %s: %s\n", id, what, cudaGetErrorName(e));
        failures++;
    };
    cudaError_t e;
    if ((e = cudaSetDevice(0)) != cudaSuccess)
        return fail("cudaSetDevice", e);
    cudaStream_t s = 0;
    if (id != 2 && (e = cudaStreamCreate(&s)) != cudaSuccess)
        return fail("cudaStreamCreate", e);
    unsigned *h, *d;
    if ((e = cudaMallocHost(&h, n * sizeof(unsigned))) != cudaSuccess)
        return fail("cudaMallocHost", e);
    if ((e = cudaMalloc(&d, n * sizeof(unsigned))) != cudaSuccess)
        return fail("cudaMalloc", e);
    std::vector<unsigned> ref(n);
    for (int i = 0; i < n; i++)
        h[i] = ref[i] = (unsigned)(i * (id + 1));
    for (int r = 0; r < rounds; r++) {
        unsigned a = 2u * (unsigned)(id * rounds + r) + 1u, b = (unsigned)(id * 1000 + r);
        void *scratch = nullptr;
        if (id == 3 && (e = cudaMalloc(&scratch, 1 << 16)) != cudaSuccess)
            return fail("cudaMalloc (scratch)", e);
        if ((e = cudaMemcpyAsync(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice, s)) != cudaSuccess)
            return fail("cudaMemcpyAsync H2D", e);
        affine<<<(n + 127) / 128, 128, 0, s>>>(d, n, a, b);
        if ((e = cudaGetLastError()) != cudaSuccess)
            return fail("launch", e);
        if ((e = cudaMemcpyAsync(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost, s)) != cudaSuccess)
            return fail("cudaMemcpyAsync D2H", e);
        if ((e = cudaStreamSynchronize(s)) != cudaSuccess)
            return fail("cudaStreamSynchronize", e);
        if (scratch && (e = cudaFree(scratch)) != cudaSuccess)
            return fail("cudaFree (scratch)", e);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            ref[i] = ref[i] * a + b;
            if (h[i] != ref[i] && bad++ < 2)
                fprintf(stderr, "thread %d round %d: x[%d] = %u, expected %u\n", id, r, i, h[i], ref[i]);
        }
        if (bad) {
            failures++;
            return;
        }
    }
    cudaFree(d);
    cudaFreeHost(h);
    if (s)
        cudaStreamDestroy(s);
}

int main() {
    ck_start("hostthreads");
    CK(cudaFree(0));  // initialize the runtime first (a common idiom)
    std::vector<std::thread> threads;
    for (int id = 0; id < 4; id++)
        threads.emplace_back(worker, id);
    for (auto &t : threads)
        t.join();
    EXPECT(failures == 0, "%d worker threads failed", failures.load());
    CK(cudaDeviceSynchronize());
    printf("4 host threads x 25 rounds of copy, kernel, copy: %s\n", failures ? "wrong" : "ok");
    return ck_finish();
}
