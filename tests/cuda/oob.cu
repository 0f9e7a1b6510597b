// oob.cu -- an out-of-bounds kernel must give cudaErrorIllegalAddress, and
// the program's own error handling must see it (no crash).
//
// A scatter kernel writes a[idx[i]] = i; one index is garbage (2^29, 2 GiB
// past a 4 KiB allocation).  The error may be reported by the launch check
// or by cudaDeviceSynchronize (the launch is asynchronous on a GPU); it is
// sticky: later calls keep returning it.  The program expects exactly that
// and exits 0 when it gets it.
#include <cstring>

#include "check.h"

__global__ void scatter(int *a, const int *idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[idx[i]] = i;
}

int main() {
    ck_start("oob");
    const int n = 1024;
    int h_idx[n], h_a[n];
    for (int i = 0; i < n; i++)
        h_idx[i] = (i * 7) % n;  // a permutation: 7 is odd
    int *d_a, *d_idx;
    CK(cudaMalloc(&d_a, n * sizeof(int)));
    CK(cudaMalloc(&d_idx, n * sizeof(int)));

    // A correct scatter first.
    CK(cudaMemcpy(d_idx, h_idx, sizeof h_idx, cudaMemcpyHostToDevice));
    scatter<<<n / 256, 256>>>(d_a, d_idx, n);
    CK_LAUNCH();
    CK(cudaMemcpy(h_a, d_a, sizeof h_a, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h_a[h_idx[i]] == i, "a[%d] = %d, expected %d", h_idx[i], h_a[h_idx[i]], i);

    // Then one bad index.
    h_idx[300] = 1 << 29;
    CK(cudaMemcpy(d_idx, h_idx, sizeof h_idx, cudaMemcpyHostToDevice));
    scatter<<<n / 256, 256>>>(d_a, d_idx, n);
    cudaError_t at_launch = cudaGetLastError();
    cudaError_t at_sync = cudaDeviceSynchronize();
    printf("after the bad launch: cudaGetLastError = %s, cudaDeviceSynchronize = %s\n",
           cudaGetErrorName(at_launch), cudaGetErrorName(at_sync));
    cudaError_t first = at_launch != cudaSuccess ? at_launch : at_sync;
    // tpsim reports cudaErrorIllegalAddress; a real GPU may name the fault
    // by the window the address falls in (an H200 reported
    // cudaErrorInvalidAddressSpace for this one, and cudaErrorIllegalAddress
    // for a store to address 0x10: lifecycle.cu)
    const cudaError_t want = !ck_simulated() && first == cudaErrorInvalidAddressSpace ? first : cudaErrorIllegalAddress;
    EXPECT(at_launch == cudaSuccess || at_launch == want,
           "the launch check returned %s", cudaGetErrorName(at_launch));
    EXPECT(first == want, "first error %s, expected cudaErrorIllegalAddress",
           cudaGetErrorName(first));
    EXPECT(at_sync == want, "cudaDeviceSynchronize returned %s (the error is sticky)",
           cudaGetErrorName(at_sync));
    EXPECT(strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0,
           "cudaGetErrorName(700) = %s", cudaGetErrorName(cudaErrorIllegalAddress));
    EXPECT(strcmp(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered") == 0,
           "cudaGetErrorString(700) = %s", cudaGetErrorString(cudaErrorIllegalAddress));

    // Sticky: the context is unusable now; calls report the same error.
    cudaError_t later = cudaMemcpy(h_a, d_a, sizeof h_a, cudaMemcpyDeviceToHost);
    EXPECT(later == want, "cudaMemcpy after the fault returned %s", cudaGetErrorName(later));
    later = cudaDeviceSynchronize();
    EXPECT(later == want, "a second cudaDeviceSynchronize returned %s",
           cudaGetErrorName(later));
    if (first == cudaErrorIllegalAddress)
        printf("got the expected error: %s (%s)\n", cudaGetErrorName(first), cudaGetErrorString(first));
    return ck_finish();
}
