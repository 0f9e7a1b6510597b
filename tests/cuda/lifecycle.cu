// lifecycle.cu -- the runtime's life cycle around cudaDeviceReset.
//
// Covers: lazy initialization by the first call; an initialized __device__
// variable changed by a kernel; cudaDeviceReset, after which the module is
// loaded afresh (the variable has its initial value again) and kernels,
// allocations, streams and symbol copies work; recovery from a sticky error
// (an illegal address) by cudaDeviceReset; cudaGetLastError clean after
// the reset; a program that exits with memory still allocated.
#include "check.h"

__device__ int d_counter = 5;

__global__ void bump(int *out, int by) {
    if (threadIdx.x == 0 && blockIdx.x == 0)
        d_counter += by;
    out[blockIdx.x * blockDim.x + threadIdx.x] = by;
}

__global__ void poke(int *p) { *p = 1; }

static int read_counter() {
    int v = -1;
    CK(cudaMemcpyFromSymbol(&v, d_counter, sizeof v));
    return v;
}

static void use_device(const char *when, int by) {
    int *d, h[64];
    CK(cudaMalloc(&d, sizeof h));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    bump<<<2, 32, 0, s>>>(d, by);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < 64; i++)
        EXPECT(h[i] == by, "%s: out[%d] = %d, expected %d", when, i, h[i], by);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
}

int main() {
    ck_start("lifecycle");
    EXPECT(read_counter() == 5, "d_counter initialized to %d", read_counter());
    use_device("first", 3);
    EXPECT(read_counter() == 8, "d_counter after one kernel = %d, expected 8", read_counter());

    CK(cudaDeviceReset());
    EXPECT(read_counter() == 5, "d_counter after cudaDeviceReset = %d, expected its initial 5", read_counter());
    use_device("after a reset", 10);
    EXPECT(read_counter() == 15, "d_counter = %d, expected 15", read_counter());

    // A sticky error, then recovery by a reset.
    poke<<<1, 1>>>((int *)0x10);
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress, "the bad store gave %s", cudaGetErrorName(e));
    int *tmp = nullptr;
    e = cudaMalloc(&tmp, 16);
    EXPECT(e == cudaErrorIllegalAddress, "cudaMalloc after the fault gave %s (sticky)", cudaGetErrorName(e));
    CK(cudaDeviceReset());
    // cudaDeviceReset leaves the thread's last error: cudaGetLastError
    // returns the fault once more (an H200 does), then nothing
    e = cudaGetLastError();
    EXPECT(e == cudaErrorIllegalAddress, "cudaGetLastError after cudaDeviceReset gave %s", cudaGetErrorName(e));
    EXPECT(cudaGetLastError() == cudaSuccess, "cudaGetLastError not clean the second time");
    if (!ck_simulated()) {
        // A real GPU does not recover within the process (CUDA's documentation:
        // the process must be restarted): an H200 answers every later call
        // with cudaErrorDevicesUnavailable.  tpsim lets the reset recover.
        int *x = nullptr;
        e = cudaMalloc(&x, 16);
        EXPECT(e == cudaErrorDevicesUnavailable, "cudaMalloc after the reset gave %s", cudaGetErrorName(e));
        return ck_finish();
    }
    use_device("after recovering", 7);
    EXPECT(read_counter() == 12, "d_counter after recovering = %d, expected 12", read_counter());
    printf("cudaDeviceReset reloads modules and recovers from a sticky error: %s\n", ck_failures ? "wrong" : "ok");

    int *leak;
    CK(cudaMalloc(&leak, 1 << 20));  // never freed: exit must still be clean
    return ck_finish();
}
