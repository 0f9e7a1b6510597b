// devassert.cu -- a failing device-side assert() must end the kernel with
// cudaErrorAssert (reported by cudaDeviceSynchronize, or by the launch
// check); the error is sticky.  The program expects it and exits 0 then.
// (The device also prints the failed assertion, with file, line, block and
// thread, to stderr.)
#include <cassert>
#include <cstring>

#include "check.h"

__global__ void check_sorted(const int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n)
        assert(a[i] <= a[i + 1]);
}

int main() {
    ck_start("devassert");
    const int n = 512;
    int h[n];
    for (int i = 0; i < n; i++)
        h[i] = i / 3;
    int *d;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));

    // Sorted: no assertion fails.
    check_sorted<<<n / 128, 128>>>(d, n);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    printf("sorted input: no assertion failed\n");

    // One element out of order: thread 200 fails its assertion.
    h[201] = -1;
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check_sorted<<<n / 128, 128>>>(d, n);
    cudaError_t at_launch = cudaGetLastError();
    cudaError_t at_sync = cudaDeviceSynchronize();
    cudaError_t first = at_launch != cudaSuccess ? at_launch : at_sync;
    printf("unsorted input: cudaGetLastError = %s, cudaDeviceSynchronize = %s\n", cudaGetErrorName(at_launch),
           cudaGetErrorName(at_sync));
    EXPECT(first == cudaErrorAssert, "first error %s, expected cudaErrorAssert", cudaGetErrorName(first));
    EXPECT(at_sync == cudaErrorAssert, "cudaDeviceSynchronize returned %s", cudaGetErrorName(at_sync));
    EXPECT(strcmp(cudaGetErrorName(cudaErrorAssert), "cudaErrorAssert") == 0, "cudaGetErrorName(710) = %s",
           cudaGetErrorName(cudaErrorAssert));
    EXPECT(strcmp(cudaGetErrorString(cudaErrorAssert), "device-side assert triggered") == 0,
           "cudaGetErrorString(710) = %s", cudaGetErrorString(cudaErrorAssert));
    cudaError_t later = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(later == cudaErrorAssert, "cudaMemcpy after the assert returned %s (sticky)", cudaGetErrorName(later));
    if (first == cudaErrorAssert)
        printf("got the expected error: %s (%s)\n", cudaGetErrorName(first), cudaGetErrorString(first));
    return ck_finish();
}
