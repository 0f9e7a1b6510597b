// multiarch.cu -- a fatbinary with several PTX targets:
//   nvcc -cudart shared -gencode arch=compute_75,code=compute_75
//        -gencode arch=compute_80,code=compute_80
//        -gencode arch=compute_86,code=compute_86
// The runtime must load the highest PTX target not above the device's
// compute capability.  The kernel reports __CUDA_ARCH__, and reduces each
// warp with redux.sync (__reduce_add_sync) where the target is sm_80 or
// newer and with shuffles below, so the sm_80 code path runs too.  The
// program expects the target that matches cudaGetDeviceProperties' major
// and minor; run_cuda.sh runs it as compute 7.5, 8.0 and 8.9.
#include "check.h"

__global__ void warp_sums(const int *in, int *out, int *arch) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
#if __CUDA_ARCH__ >= 800
    int s = __reduce_add_sync(0xffffffffu, v);
#else
    int s = v;
    for (int d = 16; d > 0; d >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, d);
#endif
    if (threadIdx.x % 32 == 0)
        out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = s;
#ifdef __CUDA_ARCH__  // (the host pass compiles this body too)
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *arch = __CUDA_ARCH__;
#endif
}

int main() {
    ck_start("multiarch");
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int cc = p.major * 100 + p.minor * 10, want_arch = cc >= 860 ? 860 : cc >= 800 ? 800 : 750;
    const int n = 4096;
    int h[n], sums[n / 32], arch = -1;
    for (int i = 0; i < n; i++)
        h[i] = (i * 37) % 1001 - 500;
    int *d_in, *d_out, *d_arch;
    CK(cudaMalloc(&d_in, sizeof h));
    CK(cudaMalloc(&d_out, sizeof sums));
    CK(cudaMalloc(&d_arch, sizeof(int)));
    CK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
    warp_sums<<<n / 256, 256>>>(d_in, d_out, d_arch);
    CK_LAUNCH();
    CK(cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&arch, d_arch, sizeof arch, cudaMemcpyDeviceToHost));
    printf("device compute capability %d.%d: ran the compute_%d PTX\n", p.major, p.minor, arch / 10);
    EXPECT(arch == want_arch, "__CUDA_ARCH__ = %d, expected %d for compute capability %d.%d", arch, want_arch,
           p.major, p.minor);
    for (int w = 0; w < n / 32; w++) {
        int s = 0;
        for (int k = 0; k < 32; k++)
            s += h[w * 32 + k];
        EXPECT(sums[w] == s, "warp %d sum = %d, expected %d", w, sums[w], s);
    }
    return ck_finish();
}
