// cubinregs.cu -- register counts as the card sees them (regs.cubin).
//
// Built with -arch=sm_75 (sm_75 cubin and compute_75 PTX) and -Xptxas=-v,
// so that the build log holds ptxas's own count of each kernel.  Prints
// "regs NAME N" (cudaFuncGetAttributes's numRegs) and checks that both
// kernels compute right (256-thread blocks: they fit every configuration
// the suite runs it on, register sharing's included).  run_cuda.sh compares the
// regs lines with the build log: on the rtx2060 (regs.cubin=1) they must be
// ptxas's; with regs.cubin=0 the model's (r_wide's differs from ptxas's).
#include <cstdio>

#include "check.h"

extern "C" __global__ void r_small(float *a) { a[threadIdx.x] += 1.0f; }

// 24 loads live together: ptxas keeps all of them in registers
extern "C" __global__ void r_wide(const float *a, float *out, int n) {
    float v[24];
    for (int i = 0; i < 24; i++) v[i] = a[i * n + threadIdx.x];
    float s = 0;
    for (int i = 0; i < 24; i++) s += v[i] * v[(i * 7) % 24];
    out[threadIdx.x] = s;
}

int main() {
    ck_start("cubinregs");
    const int n = 256;
    float *a, *out;
    CK(cudaMallocManaged(&a, 24 * n * sizeof(float)));
    CK(cudaMallocManaged(&out, n * sizeof(float)));
    for (int i = 0; i < 24 * n; i++) a[i] = (float)(i % 7);
    r_wide<<<1, n>>>(a, out, n);
    CK_LAUNCH();
    r_small<<<1, n>>>(a);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    for (int t = 0; t < n; t++) {
        float s = 0;
        for (int i = 0; i < 24; i++) s += (float)((i * n + t) % 7) * (float)((((i * 7) % 24) * n + t) % 7);
        EXPECT(out[t] == s, "r_wide thread %d: %g, want %g", t, out[t], s);
    }
    EXPECT(a[5] == 6.0f, "r_small: a[5] = %g, want 6", a[5]);
    const void *k[2] = {(const void *)r_small, (const void *)r_wide};
    const char *names[2] = {"r_small", "r_wide"};
    for (int i = 0; i < 2; i++) {
        cudaFuncAttributes fa;
        CK(cudaFuncGetAttributes(&fa, k[i]));
        printf("regs %s %d\n", names[i], fa.numRegs);
    }
    CK(cudaFree(a));
    CK(cudaFree(out));
    return ck_finish();
}
