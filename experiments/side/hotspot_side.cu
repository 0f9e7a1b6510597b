// hotspot_side.cu -- experiments/regmutex's hotspot kernel as a whole CUDA
// program, so that the same binary runs on tpsim and on GPGPU-Sim 4.2
// (experiments/side/run.sh).  The CTAs per SM are set from outside, by each
// simulator's own limit (tpsim: device.max_ctas_per_sm; GPGPU-Sim:
// -gpgpu_shader_cta), with the register file large enough in both that
// registers never limit, so that the two occupancy curves compare one
// thing: what more CTAs per SM buy.
//
//   hotspot_side [N [LAUNCHES]]      (default 512 x 512, 2 launches)
//
// Prints "hotspot_side: PASS" when the result matches the CPU's stencil
// (float, 1e-3 relative), else FAIL and exits 1.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include "../regmutex/kernels/hotspot.cu"
#include "../common/hotspot_ref.h"

static float unit(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 8) & 0xffff) / 65536.0f;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 512, launches = argc > 2 ? atoi(argv[2]) : 2, iters = HS_ITERS;
    if (n < 16 || launches < 1) {
        fprintf(stderr, "usage: hotspot_side [N >= 16 [LAUNCHES >= 1]]\n");
        return 2;
    }
    float Cap = 0.5f, Rx = 1.0f, Ry = 1.0f, Rz = 2.0f, step = 0.01f;
    size_t sz = (size_t)n * n;
    std::vector<float> temp(sz), power(sz), got(sz);
    unsigned seed = 1;
    for (size_t i = 0; i < sz; i++) {
        temp[i] = 320.0f + 20.0f * unit(&seed);
        power[i] = unit(&seed);
    }
    float *dp, *dt[2];
    cudaMalloc(&dp, sz * 4);
    cudaMalloc(&dt[0], sz * 4);
    cudaMalloc(&dt[1], sz * 4);
    cudaMemcpy(dp, power.data(), sz * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dt[0], temp.data(), sz * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dt[1], temp.data(), sz * 4, cudaMemcpyHostToDevice);
    int small_block = HS_B - iters * 2, blocks = (n + small_block - 1) / small_block;
    for (int l = 0; l < launches; l++) {
        hotspot_kernel<<<dim3(blocks, blocks), dim3(HS_B, HS_B)>>>(iters, dp, dt[l & 1], dt[(l + 1) & 1], n, n, iters,
                                                                   iters, Cap, Rx, Ry, Rz, step);
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "hotspot_side: %s\n", cudaGetErrorString(e));
        return 1;
    }
    cudaMemcpy(got.data(), dt[launches & 1], sz * 4, cudaMemcpyDeviceToHost);
    // the plain stencil, neighbours clamped at the borders (experiments/common, as rmbench's)
    std::vector<double> wa(sz), wb(sz);
    const double *a = hotspot_ref(temp.data(), power.data(), n, iters * launches, Cap, Rx, Ry, Rz, step, wa.data(),
                                  wb.data());
    size_t bad = 0;
    for (size_t i = 0; i < sz; i++)
        if (fabs(got[i] - a[i]) > 1e-3 * fabs(a[i])) bad++;
    printf("hotspot_side: %s (%d x %d, %d launches, %zu of %zu wrong)\n", bad ? "FAIL" : "PASS", n, n, launches, bad, sz);
    return bad ? 1 : 0;
}
