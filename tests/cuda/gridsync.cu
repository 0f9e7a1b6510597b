// gridsync.cu -- a cooperative launch with grid-wide synchronization.
//
// Covers: cudaDevAttrCooperativeLaunch, sizing the grid with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor as the CUDA samples do,
// cudaLaunchCooperativeKernel, cooperative_groups::this_grid() (size,
// thread_rank, is_valid) and grid.sync() between phases of an iterative
// 1D smoothing in which every step reads values that other blocks wrote in
// the previous step.  The result is compared with the CPU's, exactly
// (integers).  A device that reports no cooperative launch support skips.
#include <cooperative_groups.h>
#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

// steps times: b[i] = a[i-1] + 2 a[i] + a[i+1] (ends fixed) mod 2^32, then
// swap; the final array ends up in a when steps is even.
__global__ void smooth(unsigned *a, unsigned *b, int n, int steps, int *valid) {
    cg::grid_group grid = cg::this_grid();
    if (grid.thread_rank() == 0)
        *valid = grid.is_valid();
    for (int s = 0; s < steps; s++) {
        const unsigned *src = s % 2 ? b : a;
        unsigned *dst = s % 2 ? a : b;
        for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
            if (i == 0 || i == (unsigned long long)n - 1)
                dst[i] = src[i];
            else
                dst[i] = src[i - 1] + 2u * src[i] + src[i + 1];
        }
        grid.sync();
    }
}

int main() {
    ck_start("gridsync");
    int coop = 0, sms = 0;
    CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (!coop) {
        printf("the device does not support cooperative launches: nothing to check\n");
        return ck_finish();
    }
    const int bs = 128, n = 20000, steps = 40;
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, smooth, bs, 0));
    EXPECT(per_sm >= 1, "occupancy of smooth: %d blocks/SM", per_sm);
    int blocks = per_sm * sms;
    if (blocks > 64)
        blocks = 64;  // fewer threads than elements: the grid-stride loop matters
    std::vector<unsigned> h(n), ref(n), tmp(n);
    for (int i = 0; i < n; i++)
        h[i] = ref[i] = (unsigned)(i * 2654435761u);
    unsigned *d_a, *d_b;
    int *d_valid, valid = -1;
    CK(cudaMalloc(&d_a, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_b, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_valid, sizeof(int)));
    CK(cudaMemcpy(d_a, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    int nn = n, ss = steps;
    void *args[] = {&d_a, &d_b, &nn, &ss, &d_valid};
    CK(cudaLaunchCooperativeKernel((const void *)smooth, dim3(blocks), dim3(bs), args, 0, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_a, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&valid, d_valid, sizeof valid, cudaMemcpyDeviceToHost));
    EXPECT(valid == 1, "grid.is_valid() = %d in a cooperative launch", valid);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            tmp[i] = i == 0 || i == n - 1 ? ref[i] : ref[i - 1] + 2u * ref[i] + ref[i + 1];
        ref.swap(tmp);
    }
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (h[i] != ref[i] && bad++ < 3)
            EXPECT(false, "a[%d] = %08x, expected %08x", i, h[i], ref[i]);
    printf("%d blocks x %d threads, %d grid.sync() steps over %d elements: %s\n", blocks, bs, steps, n,
           bad ? "wrong" : "ok");
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    CK(cudaFree(d_valid));
    return ck_finish();
}
