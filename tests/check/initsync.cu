// initsync.cu -- initcheck and synccheck on whole CUDA programs
// (tests/check/run_check.sh).  Variants (argv[1]):
//
//  init_fresh    a kernel reads a fresh cudaMalloc buffer
//  init_memset   ... after cudaMemset
//  init_memcpy   ... after cudaMemcpy from the host
//  init_kernel   ... after another kernel wrote it
//  init_partial  ... after a copy of its first half only
//  init_d2d      ... after a device-to-device copy from a fresh buffer
//  init_d2d_ok   ... after a device-to-device copy from a written buffer
//  init_managed  a kernel reads cudaMallocManaged memory the host wrote
//  sync_divergent  __syncthreads() reached by half of each warp
//  sync_ifelse     __syncthreads() in both branches of an if the block's
//                  warps take differently
//  sync_shfl       __shfl_sync with the full mask by half of a warp
//  sync_self       __syncwarp with a mask that leaves out the lane
//  sync_shfl_inactive  the reduction sample's last step: the lanes holding
//                  the per-warp sums shuffle down with the mask a ballot
//                  gave them, reading lanes that do not execute the shfl
//                  (tpsim gives 0 there, so the sum is right)
//  sync_shfl_outside   the two halves of a warp shuffle with their own
//                  masks, the lower half reading a lane of the upper half
//  sync_ok         cooperative-groups tiles, __syncwarp, __shfl_sync with the
//                  lanes' own masks, __syncthreads: all correct
//
//! EXPECT init_fresh: uninitialized read @ir
//! EXPECT init_memset:
//! EXPECT init_memcpy:
//! EXPECT init_kernel:
//! EXPECT init_partial: uninitialized read @ir
//! EXPECT init_d2d: uninitialized read @ir
//! EXPECT init_d2d_ok:
//! EXPECT init_managed:
//! EXPECT sync_divergent: divergent barrier @sd
//! EXPECT sync_ifelse: barrier mismatch @si1 @si2
//! EXPECT sync_shfl: member mask mismatch @ss
//! EXPECT sync_self: member mask mismatch @sw
//! EXPECT sync_shfl_inactive: shuffle from an inactive lane @sa
//! EXPECT sync_shfl_outside: shuffle from a lane outside the member mask @so
//! EXPECT sync_ok:
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            printf("initsync: FAIL (%s: %s)\n", #call, cudaGetErrorString(e_));               \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

static int failures;
#define EXPECT(c, ...)                                                                        \
    do {                                                                                      \
        if (!(c) && failures++ < 5) {                                                         \
            printf("check failed: %s: ", #c);                                                 \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

__global__ void k_read(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1; // @ir
}

__global__ void k_write(int *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i;
}

// Half of every warp reaches the barrier (the other half has work of its own).
__global__ void k_sync_divergent(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (t % 32 < 16) {
        __syncthreads(); // @sd
        out[t] = s[63 - t];
    } else {
        out[t] = -t;
    }
}

// Warp 0 and warp 1 reach different __syncthreads() calls.
__global__ void k_sync_ifelse(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = t;
        __syncthreads(); // @si1
        out[t] = s[t + 32] + 1;
    } else {
        s[t] = 2 * t;
        __syncthreads(); // @si2
        out[t] = s[t - 32] + 2;
    }
}

// The lower half of the warp shuffles, naming the whole warp.
__global__ void k_sync_shfl(int *out)
{
    int t = threadIdx.x, v = t * 3;
    if (t < 16) v = __shfl_sync(0xffffffffu, v, 0); // @ss
    out[t] = v;
}

// Every lane waits at __syncwarp for lane 0 alone.
__global__ void k_sync_self(int *out)
{
    int t = threadIdx.x;
    out[t] = t;
    __syncwarp(1u); // @sw
    out[t] += 1;
}

// One warp: lanes 0-3 hold a partial sum each and reduce them with
// __shfl_down_sync over the ballot of the holders, starting at offset 16
// (NVIDIA's reduction sample, reduce7): lane 0 ends with 0+1+2+3 = 6 when
// the lanes that do not take part give 0.
__global__ void k_sync_shfl_inactive(int *out)
{
    int t = threadIdx.x, v = 1000 + t;   // what the other lanes hold
    unsigned holders = __ballot_sync(0xffffffffu, t < 4);
    if (t < 4) {
        v = t;
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(holders, v, o); // @sa
    }
    out[t] = v;
}

// Lanes 0-15 shuffle with mask 0x0000ffff but read lane 20, which executes
// the same shfl with the upper half's mask.
__global__ void k_sync_shfl_outside(int *out)
{
    int t = threadIdx.x;
    unsigned half = t < 16 ? 0x0000ffffu : 0xffff0000u;
    out[t] = __shfl_sync(half, t * 3, 20); // @so
}

// Correct warp-level code: tiles of 8 reduce with their own masks, the
// lower half of the warp shuffles with its own mask, __syncwarp and
// __syncthreads by everyone.
__global__ void k_sync_ok(int *out)
{
    __shared__ int s[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int t = threadIdx.x, v = t;
    for (int o = 4; o > 0; o /= 2) v += tile.shfl_down(v, o);
    if (t % 32 < 16) v += __shfl_sync(0x0000ffffu, t, 0);
    s[t] = v;
    __syncwarp();
    int w = s[t ^ 1];
    __syncthreads();
    out[t] = w;
}

int main(int argc, char **argv)
{
    const char *v = argc > 1 ? argv[1] : "";
    const int n = 128;
    int *a, *b, *c, h[n];
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMalloc(&c, n * sizeof(int)));
    for (int i = 0; i < n; i++) h[i] = i;
    bool check_b = true;
    if (!strcmp(v, "init_fresh")) {
        check_b = false;
    } else if (!strcmp(v, "init_memset")) {
        CK(cudaMemset(a, 0, n * sizeof(int)));
        for (int i = 0; i < n; i++) h[i] = 0;
    } else if (!strcmp(v, "init_memcpy")) {
        CK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    } else if (!strcmp(v, "init_kernel")) {
        k_write<<<n / 64, 64>>>(a);
    } else if (!strcmp(v, "init_partial")) {
        CK(cudaMemcpy(a, h, sizeof h / 2, cudaMemcpyHostToDevice));
        check_b = false;
    } else if (!strcmp(v, "init_d2d")) {
        CK(cudaMemcpy(a, c, sizeof h, cudaMemcpyDeviceToDevice));
        check_b = false;
    } else if (!strcmp(v, "init_d2d_ok")) {
        CK(cudaMemcpy(c, h, sizeof h, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(a, c, sizeof h, cudaMemcpyDeviceToDevice));
    } else if (!strcmp(v, "init_managed")) {
        int *m;
        CK(cudaMallocManaged(&m, n * sizeof(int)));
        for (int i = 0; i < n; i++) m[i] = i;
        k_read<<<n / 64, 64>>>(m, b);
        CK(cudaDeviceSynchronize());
        CK(cudaFree(m));
        a = NULL;
    } else if (!strncmp(v, "sync_", 5)) {
        check_b = false;
        a = NULL;
        if (!strcmp(v, "sync_divergent")) k_sync_divergent<<<1, 64>>>(b);
        else if (!strcmp(v, "sync_ifelse")) k_sync_ifelse<<<1, 64>>>(b);
        else if (!strcmp(v, "sync_shfl")) k_sync_shfl<<<1, 32>>>(b);
        else if (!strcmp(v, "sync_self")) k_sync_self<<<1, 32>>>(b);
        else if (!strcmp(v, "sync_shfl_inactive")) {
            k_sync_shfl_inactive<<<1, 32>>>(b);
            CK(cudaMemcpy(h, b, 32 * sizeof(int), cudaMemcpyDeviceToHost));
            EXPECT(h[0] == 6, "the reduction gave %d, want 6", h[0]);
            for (int t = 4; t < 32; t++) EXPECT(h[t] == 1000 + t, "out[%d] = %d, want %d", t, h[t], 1000 + t);
        } else if (!strcmp(v, "sync_shfl_outside")) {
            k_sync_shfl_outside<<<1, 32>>>(b);
            CK(cudaMemcpy(h, b, 32 * sizeof(int), cudaMemcpyDeviceToHost));
            for (int t = 16; t < 32; t++) EXPECT(h[t] == 60, "out[%d] = %d, want 60", t, h[t]);
        }
        else if (!strcmp(v, "sync_ok")) {
            k_sync_ok<<<1, 64>>>(b);
            CK(cudaMemcpy(h, b, 64 * sizeof(int), cudaMemcpyDeviceToHost));
            for (int t = 0; t < 64; t++) {
                // out[t] is lane t ^ 1's v: its tile's shfl_down sums (a lane
                // past the tile's end gets its own value back), plus lane 0's
                // tid for the lower half of a warp
                int u = t ^ 1, g = u / 8 * 8, x[8];
                for (int k = 0; k < 8; k++) x[k] = g + k;
                for (int o = 4; o > 0; o /= 2)
                    for (int k = 0; k < 8; k++) x[k] += k + o < 8 ? x[k + o] : x[k];
                int want = x[u % 8];
                if (u % 32 < 16) want += u / 32 * 32;
                EXPECT(h[t] == want, "out[%d] = %d, want %d", t, h[t], want);
            }
        } else {
            printf("initsync: FAIL (no variant '%s')\n", v);
            return 2;
        }
    } else {
        printf("initsync: FAIL (no variant '%s')\n", v);
        return 2;
    }
    if (a) k_read<<<n / 64, 64>>>(a, b);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (check_b) {
        CK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int want = (!strcmp(v, "init_memset") ? 0 : i) + 1;
            EXPECT(h[i] == want, "b[%d] = %d, want %d", i, h[i], want);
        }
    }
    if (failures) {
        printf("initsync: FAIL (%s)\n", v);
        return 1;
    }
    printf("initsync: PASS\n");
    return 0;
}
