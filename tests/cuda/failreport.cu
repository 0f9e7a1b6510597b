// failreport.cu -- no silent failures: calls that fail must be reported by
// `tpsim run` at exit with their reason (run_cuda.sh checks stderr), and
// this program checks the errors it gets.
//
// Covers: a launch of 1024 threads of a kernel that keeps 48 values live
// (about 50 registers: it fits an RTX 2060's 65536 registers per block and
// not a GTX 480's 32768: cudaErrorLaunchOutOfResources there, run with
// --config gtx480), a launch asking for more dynamic shared memory than a
// Turing GPU has per block even after opting in, a copy past the end of an
// allocation (twice), and a call tpsim does not implement (graphics
// interop).  The program decides from the device's own limits which of the
// launches must fail.
#include <cstdint>

#include "check.h"

#define LIVE 48

extern "C" __global__ void heavy(float *out, const float *in) {
    float v[LIVE];
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        v[i] = in[threadIdx.x + i * blockDim.x];
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        s = fmaf(v[i], v[(i * 7 + 3) % LIVE], s);
    out[threadIdx.x] = s;
}

extern "C" __global__ void shared_user(int *out) {
    extern __shared__ int buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

int main() {
    ck_start("failreport");
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d registers per block\n", p.name, p.regsPerBlock);

    // 1. registers: refused exactly when the block does not fit
    const int n = 1024;
    float *in, *out;
    CK(cudaMalloc(&in, n * LIVE * sizeof(float)));
    CK(cudaMalloc(&out, n * sizeof(float)));
    float *h = new float[n * LIVE];
    for (int i = 0; i < n * LIVE; i++)
        h[i] = (float)(i % 7) - 3.0f;
    CK(cudaMemcpy(in, h, n * LIVE * sizeof(float), cudaMemcpyHostToDevice));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, heavy));
    bool fits = fa.maxThreadsPerBlock >= n;
    printf("heavy: %d registers per thread, at most %d threads per block\n", fa.numRegs, fa.maxThreadsPerBlock);
    EXPECT(fa.numRegs > 32, "heavy uses %d registers: too few to be refused on a GTX 480", fa.numRegs);
    heavy<<<1, n>>>(out, in);
    cudaError_t e = cudaGetLastError();
    printf("heavy<<<1, 1024>>>: %s\n", cudaGetErrorName(e));
    EXPECT(e == (fits ? cudaSuccess : cudaErrorLaunchOutOfResources), "heavy<<<1, 1024>>>: %s", cudaGetErrorName(e));
    if (fits) {
        float *r = new float[n];
        CK(cudaMemcpy(r, out, n * sizeof(float), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int t = 0; t < n; t++) {
            float v[LIVE], s = 0.0f;
            for (int i = 0; i < LIVE; i++)
                v[i] = h[t + i * n];
            for (int i = 0; i < LIVE; i++)
                s = fmaf(v[i], v[(i * 7 + 3) % LIVE], s);
            bad += r[t] != s;
        }
        EXPECT(bad == 0, "heavy: %d wrong sums", bad);
        delete[] r;
    }

    // 2. shared memory beyond what a block may have, even opted in
    int *d;
    CK(cudaMalloc(&d, 256 * sizeof(int)));
    size_t too_much = p.sharedMemPerBlockOptin + 4;
    CK(cudaFuncSetAttribute(shared_user, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p.sharedMemPerBlockOptin));
    shared_user<<<1, 32, too_much>>>(d);
    e = cudaGetLastError();
    printf("shared_user with %zu bytes: %s\n", too_much, cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue, "shared_user: %s", cudaGetErrorName(e));
    shared_user<<<1, 32, 32 * sizeof(int)>>>(d);
    CK_LAUNCH();

    // 3. a copy past the end of an allocation, twice: one failure, counted twice
    int host[256] = {0};
    for (int i = 0; i < 2; i++) {
        e = cudaMemcpy(d + 128, host, sizeof host, cudaMemcpyHostToDevice);
        EXPECT(e == cudaErrorInvalidValue, "copy past the end: %s", cudaGetErrorName(e));
    }
    printf("copy past the end: %s\n", cudaGetErrorName(e));
    printf("allocation 0x%llx\n", (unsigned long long)(uintptr_t)d);

    // 4. graphics interop is not implemented
    e = cudaGraphicsUnregisterResource(nullptr);
    printf("cudaGraphicsUnregisterResource: %s\n", cudaGetErrorName(e));
    // (a real GPU has graphics interop: the null resource is refused as a
    // bad handle there, cudaErrorInvalidResourceHandle on an H200)
    EXPECT(e == (ck_simulated() ? cudaErrorNotSupported : cudaErrorInvalidResourceHandle),
           "cudaGraphicsUnregisterResource: %s", cudaGetErrorName(e));
    cudaGetLastError();

    CK(cudaFree(d));
    CK(cudaFree(in));
    CK(cudaFree(out));
    delete[] h;
    return ck_finish();
}
