// determinism.cu -- the simulated results do not depend on host timing:
// kernels on a low- and a high-priority stream, issued interleaved with and
// without host delays, run in the same order (high priority first).
// run_cuda.sh runs it under stream.async=1 and 0 (device work on the device
// thread while the host sleeps, or inside the issuing calls), in functional
// and in performance mode, and compares the "sim " lines: the order and both
// rounds' simulated times.
#include "check.h"
#include <cstring>
#include <unistd.h>

__global__ void stamp(int *order, int *counter, int id, int spin)
{
    // some work, then the kernel's place in the device's order
    __shared__ int acc;
    if (threadIdx.x == 0) acc = 0;
    __syncthreads();
    for (int i = 0; i < spin; i++) atomicAdd(&acc, 1);
    __syncthreads();
    if (threadIdx.x == 0 && blockIdx.x == 0) order[atomicAdd(counter, 1)] = id;
}

// One round: kernels on a low- and a high-priority stream, issued
// interleaved; returns the order the device ran them in and the simulated
// time of the whole round.
static void round_of(int *dorder, int *dcnt, cudaStream_t lo, cudaStream_t hi, bool delays, int *order, float *ms)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaMemset(dcnt, 0, sizeof(int)));
    CK(cudaEventRecord(e0, 0));
    CK(cudaStreamWaitEvent(lo, e0, 0));
    CK(cudaStreamWaitEvent(hi, e0, 0));
    for (int k = 0; k < 4; k++) {
        stamp<<<2, 64, 0, lo>>>(dorder, dcnt, 10 + k, 50);
        CK_LAUNCH();
        if (delays) usleep(3000);
        stamp<<<2, 64, 0, hi>>>(dorder, dcnt, 20 + k, 50);
        CK_LAUNCH();
        if (delays) usleep(3000);
    }
    CK(cudaEventRecord(e1, lo));
    CK(cudaStreamWaitEvent(0, e1, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(order, dorder, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaEventElapsedTime(ms, e0, e1));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

int main()
{
    ck_start("determinism");
    // priorities, and results independent of host timing
    int lo_p, hi_p;
    CK(cudaDeviceGetStreamPriorityRange(&lo_p, &hi_p));
    cudaStream_t lo, hi;
    CK(cudaStreamCreateWithPriority(&lo, cudaStreamNonBlocking, lo_p));
    CK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, hi_p));
    int *dorder, *dcnt;
    CK(cudaMalloc(&dorder, 8 * sizeof(int)));
    CK(cudaMalloc(&dcnt, sizeof(int)));
    int o1[8], o2[8];
    float t1 = 0, t2 = 0;
    round_of(dorder, dcnt, lo, hi, false, o1, &t1);
    round_of(dorder, dcnt, lo, hi, true, o2, &t2);
    EXPECT(memcmp(o1, o2, sizeof o1) == 0, "the device's order changed with host delays");
    // (in functional mode the rounds take the same time; in performance mode
    // the second finds the caches warm: the times are compared across runs)
    EXPECT(t1 > 0 && t2 > 0, "simulated times %g and %g ms", t1, t2);
    // tpsim starts the highest-priority ready kernel first; a real GPU starts
    // the first kernel issued while the device is idle (an H200 ran 10 20 11
    // 21 ...: CUDA does not order kernels of different streams).
    if (hi_p < lo_p && ck_simulated()) EXPECT(o1[0] >= 20, "a low-priority kernel (%d) ran first", o1[0]);
    printf("sim order");
    for (int i = 0; i < 8; i++) printf(" %d", o1[i]);
    printf("\nsim elapsed %.6f %.6f ms\n", t1, t2);
    CK(cudaStreamDestroy(lo));
    CK(cudaStreamDestroy(hi));
    return ck_finish();
}
