// zerocopy.cu -- mapped (zero-copy) host memory.
//
// Covers: cudaSetDeviceFlags(cudaDeviceMapHost), cudaHostAlloc with
// cudaHostAllocMapped and cudaHostGetDevicePointer, a kernel reading and
// writing host memory through that pointer and (unified addressing) through
// the host pointer itself, cudaHostRegister(cudaHostRegisterMapped) of
// ordinary memory, and cudaHostGetFlags.
#include <cstdlib>

#include "check.h"

__global__ void square_into(int *out, const int *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}

int main() {
    ck_start("zerocopy");
    CK(cudaSetDeviceFlags(cudaDeviceMapHost));
    int can_map = 0;
    CK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, 0));
    EXPECT(can_map == 1, "cudaDevAttrCanMapHostMemory = %d", can_map);

    const int n = 3000;
    int *h_in, *h_out, *d_in, *d_out;
    CK(cudaHostAlloc(&h_in, n * sizeof(int), cudaHostAllocMapped));
    CK(cudaHostAlloc(&h_out, n * sizeof(int), cudaHostAllocMapped));
    unsigned flags = 0;
    CK(cudaHostGetFlags(&flags, h_in));
    EXPECT(flags & cudaHostAllocMapped, "cudaHostGetFlags = %x", flags);
    CK(cudaHostGetDevicePointer(&d_in, h_in, 0));
    CK(cudaHostGetDevicePointer(&d_out, h_out, 0));
    for (int i = 0; i < n; i++) {
        h_in[i] = i - 1500;
        h_out[i] = -1;
    }
    square_into<<<(n + 255) / 256, 256>>>(d_out, d_in, n);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (h_out[i] != (i - 1500) * (i - 1500) && bad++ < 3)
            EXPECT(false, "through cudaHostGetDevicePointer: out[%d] = %d", i, h_out[i]);

    // Unified addressing: the host pointers work in kernels as they are.
    for (int i = 0; i < n; i++)
        h_in[i] = 2 * i;
    square_into<<<(n + 255) / 256, 256>>>(h_out, h_in, n);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        if (h_out[i] != 4 * i * i && bad++ < 3)
            EXPECT(false, "through the host pointer: out[%d] = %d", i, h_out[i]);

    // Registered ordinary memory.
    int *plain = (int *)aligned_alloc(4096, 4096 * 4);
    for (int i = 0; i < 4096; i++)
        plain[i] = i % 100;
    CK(cudaHostRegister(plain, 4096 * 4, cudaHostRegisterMapped));
    int *d_plain;
    CK(cudaHostGetDevicePointer(&d_plain, plain, 0));
    square_into<<<16, 256>>>(d_plain, d_plain, 4096);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < 4096; i++)
        if (plain[i] != (i % 100) * (i % 100) && bad++ < 3)
            EXPECT(false, "registered memory: [%d] = %d", i, plain[i]);
    CK(cudaHostUnregister(plain));
    free(plain);
    printf("mapped host memory read and written by kernels: %s\n", bad ? "wrong" : "ok");
    CK(cudaFreeHost(h_in));
    CK(cudaFreeHost(h_out));
    return ck_finish();
}
