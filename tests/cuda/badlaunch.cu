// badlaunch.cu -- invalid launch configurations must be refused with
// cudaErrorInvalidValue, reported by cudaGetLastError after the launch; the
// error is not sticky: valid launches work afterwards.  (cudaErrorInvalidValue
// is what NVIDIA's CUDA 13 runtime returns for every case here on a real GPU,
// an H200: docs/VALIDATION.md, "On a real GPU"; older runtimes returned
// cudaErrorInvalidConfiguration, whose name and string are still checked.)
//
// Covers: 2048 threads per block, 1024x2 threads, blockDim.z = 65,
// gridDim.y = 65536, an empty grid, and an empty block; cudaPeekAtLastError
// (does not clear) against cudaGetLastError (clears); a kernel that never
// ran leaves its output untouched.
#include <cstring>

#include "check.h"

__global__ void mark(int *out, int v) {
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y * blockDim.z +
            (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    if (i < 4096)
        out[i] = v;
}

struct Case {
    const char *what;
    dim3 grid, block;
};

int main() {
    ck_start("badlaunch");
    int *d, h[4096];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemset(d, 0, sizeof h));

    const Case cases[] = {
        {"2048 threads per block", dim3(1), dim3(2048)},
        {"1024x2 threads per block", dim3(1), dim3(1024, 2)},
        {"blockDim.z = 65", dim3(1), dim3(1, 1, 65)},
        {"gridDim.y = 65536", dim3(1, 65536), dim3(32)},
        {"an empty grid (0 blocks)", dim3(0), dim3(32)},
        {"an empty block (0 threads)", dim3(1), dim3(0)},
    };
    for (const Case &c : cases) {
        mark<<<c.grid, c.block>>>(d, 1);
        cudaError_t peek = cudaPeekAtLastError();
        cudaError_t got = cudaGetLastError();
        cudaError_t after = cudaGetLastError();
        printf("%-28s -> %s\n", c.what, cudaGetErrorName(got));
        EXPECT(got == cudaErrorInvalidValue, "%s: cudaGetLastError = %s", c.what, cudaGetErrorName(got));
        EXPECT(peek == got, "%s: cudaPeekAtLastError = %s, then cudaGetLastError = %s", c.what,
               cudaGetErrorName(peek), cudaGetErrorName(got));
        EXPECT(after == cudaSuccess, "%s: cudaGetLastError did not clear the error (%s)", c.what,
               cudaGetErrorName(after));
    }
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") == 0,
           "cudaGetErrorName(9) = %s", cudaGetErrorName(cudaErrorInvalidConfiguration));
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument") == 0,
           "cudaGetErrorString(9) = %s", cudaGetErrorString(cudaErrorInvalidConfiguration));

    // Nothing ran.
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int touched = 0;
    for (int i = 0; i < 4096; i++)
        touched += h[i] != 0;
    EXPECT(touched == 0, "%d elements written by refused launches", touched);

    // The largest valid configurations still work: 1024 threads, and a grid
    // of 4x2 blocks of 2x2x64 threads (64 in z): out[0..1023] = 2 and
    // out[1024..3071] = 3; the rest stays 0.
    mark<<<1, 1024>>>(d, 2);
    CK_LAUNCH();
    mark<<<dim3(4, 2), dim3(2, 2, 64)>>>(d + 1024, 3);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 4096; i++) {
        int want = i < 1024 ? 2 : i < 3072 ? 3 : 0;
        if (h[i] != want && bad++ < 3)
            EXPECT(false, "after the valid launches: out[%d] = %d, expected %d", i, h[i], want);
    }
    printf("valid launches after the refused ones: %s\n", bad ? "wrong" : "ok");
    CK(cudaFree(d));
    return ck_finish();
}
