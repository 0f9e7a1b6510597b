// races.cu -- racecheck on whole CUDA programs (tests/check/run_check.sh).
// Each variant (argv[1]) runs one kernel, or a pair, that either races in
// the way its EXPECT lines say or is ordered by one of the rules of
// docs/CHECKS.md and must give no finding.  Every variant also checks what
// it can of its results; a racy one checks nothing its race could change.
// Lines marked // @NAME are the places the EXPECT lines name.
//
//! EXPECT shared_ww: write-write race @sww @sww
//! EXPECT shared_rw: read-write race @srw_w @srw_r
//! EXPECT shared_rw_sync:
//! EXPECT global_ww: write-write race @gww @gww
//! EXPECT global_ctas: read-write race @gc_w @gc_r
//! EXPECT global_2k:
//! EXPECT atomics:
//! EXPECT lastblock:
//! EXPECT lastblock_nofence: read-write race @lb_w @lb_r
//! EXPECT gridsync:
//! EXPECT nogridsync: read-write race @gs_w @gs_r
//! EXPECT warp_reduce: intra-warp read-write race @wr1 @wr1
//! EXPECT warp_reduce: intra-warp read-write race @wr1 @wr2
//! EXPECT warp_reduce: intra-warp read-write race @wr2 @wr2
//! EXPECT warp_reduce_sync:
//! EXPECT tile_unrolled: read-write race @tu_w @tu_r
//! EXPECT tile_unrolled_sync:
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
            printf("races: FAIL (%s: %s)\n", #call, cudaGetErrorString(e_));                  \
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

// Every thread of the block stores to one shared word.
__global__ void k_shared_ww(int *out)
{
    __shared__ int s;
    s = threadIdx.x; // @sww
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s >= 0;
}

// Each thread reads the word a thread of another warp stored, with or
// without a barrier between.
template <bool SYNC> __global__ void k_shared_rw(int *out)
{
    __shared__ int tile[256];
    tile[threadIdx.x] = threadIdx.x * 3; // @srw_w
    if (SYNC) __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 32) % blockDim.x]; // @srw_r
}

// Every block stores its thread's value to the same elements.
__global__ void k_global_ww(int *out)
{
    out[threadIdx.x] = threadIdx.x; // @gww
}

// Each thread reads an element another block stores in the same launch.
__global__ void k_global_ctas(int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 7; // @gc_w
    b[i] = a[(i + blockDim.x) % n]; // @gc_r
}

// The same in two launches: the kernel boundary orders them.
__global__ void k_store(int *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 7;
}
__global__ void k_load(const int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = a[(i + blockDim.x) % n];
}

// Atomics in shared and global memory, and each thread's own element read
// and written again and again: no race.
__global__ void k_atomics(const int *in, int *hist, int *own)
{
    __shared__ int local[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&local[in[i] % 16], 1);
    for (int k = 0; k < 4; k++) own[i] = own[i] * 2 + k;
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// The CUDA programming guide's sum with a last block: each block's thread 0
// stores its partial sum, makes it visible with __threadfence() and takes a
// ticket; the block that takes the last ticket adds the partial sums up.
__device__ unsigned int tickets;
template <bool FENCE> __global__ void k_lastblock(const int *in, int *partial, int *total)
{
    __shared__ int sum;
    __shared__ bool last;
    if (threadIdx.x == 0) sum = 0;
    __syncthreads();
    atomicAdd(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum; // @lb_w
        if (FENCE) __threadfence();
        unsigned int t = atomicInc(&tickets, gridDim.x);
        last = t == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int s = 0;
        for (int b = 0; b < gridDim.x; b++) s += partial[b]; // @lb_r
        *total = s;
        tickets = 0;
    }
}

// A cooperative grid: every thread stores, the grid synchronizes (or not),
// every thread reads another block's element.
__global__ void k_gridsync(int *a, int *b, int n, int sync)
{
    cg::grid_group grid = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i + 1; // @gs_w
    if (sync) grid.sync();
    b[i] = a[(i + blockDim.x) % n]; // @gs_r
}

// A warp-synchronous reduction of the first warp (the pre-Volta idiom:
// volatile shared memory, no __syncwarp): lanes read what other lanes of
// the warp store, which only lockstep execution orders.
template <bool SYNC> __global__ void k_warp_reduce(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        if (SYNC) {
            int x = v[t] + v[t + 16];
            __syncwarp();
            v[t] = x;
            __syncwarp();
            x = v[t] + v[t + 8];
            __syncwarp();
            v[t] = x;
            __syncwarp();
        } else {
            v[t] += v[t + 16]; // @wr1
            v[t] += v[t + 8]; // @wr2
        }
        if (t == 0) *out = v[0];
    }
}

// A tile product whose inner loop is unrolled: without the barrier every
// copy of the load races with the store -- 32 instruction pairs on two
// source lines, reported as one race (run_check.sh counts the reports).
template <bool SYNC> __global__ void k_tile(const int *in, int *out)
{
    __shared__ int tile[32][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = in[ty * 32 + tx]; // @tu_w
    if (SYNC) __syncthreads();
    int acc = 0;
#pragma unroll
    for (int k = 0; k < 32; k++) acc += tile[k][tx] * tile[ty][k]; // @tu_r
    out[ty * 32 + tx] = acc;
}

int main(int argc, char **argv)
{
    const char *v = argc > 1 ? argv[1] : "";
    const int nb = 4, bs = 64, n = nb * bs;
    int *a, *b, *c;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMalloc(&c, n * sizeof(int)));
    CK(cudaMemset(a, 0, n * sizeof(int)));
    CK(cudaMemset(b, 0, n * sizeof(int)));
    CK(cudaMemset(c, 0, n * sizeof(int)));
    int h[n];
    if (!strcmp(v, "shared_ww")) {
        k_shared_ww<<<nb, bs>>>(a);
    } else if (!strcmp(v, "shared_rw") || !strcmp(v, "shared_rw_sync")) {
        bool sync = !strcmp(v, "shared_rw_sync");
        if (sync) k_shared_rw<true><<<nb, bs>>>(a);
        else k_shared_rw<false><<<nb, bs>>>(a);
        CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; sync && i < n; i++) EXPECT(h[i] == (i % bs + 32) % bs * 3, "a[%d] = %d", i, h[i]);
    } else if (!strcmp(v, "global_ww")) {
        k_global_ww<<<nb, bs>>>(a);
        CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < bs; i++) EXPECT(h[i] == i, "a[%d] = %d", i, h[i]);
    } else if (!strcmp(v, "global_ctas")) {
        k_global_ctas<<<nb, bs>>>(a, b, n);
    } else if (!strcmp(v, "global_2k")) {
        k_store<<<nb, bs>>>(a);
        k_load<<<nb, bs>>>(a, b, n);
        CK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) EXPECT(h[i] == (i + bs) % n * 7, "b[%d] = %d", i, h[i]);
    } else if (!strcmp(v, "atomics")) {
        for (int i = 0; i < n; i++) h[i] = i * 5;
        CK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
        k_atomics<<<nb, bs>>>(a, b, c);
        CK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
        for (int k = 0; k < 16; k++) EXPECT(h[k] == n / 16, "hist[%d] = %d", k, h[k]);
        CK(cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost));
        EXPECT(h[7] == 11, "own[7] = %d", h[7]);
    } else if (!strcmp(v, "lastblock") || !strcmp(v, "lastblock_nofence")) {
        for (int i = 0; i < n; i++) h[i] = i;
        CK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
        if (!strcmp(v, "lastblock")) k_lastblock<true><<<nb, bs>>>(a, b, c);
        else k_lastblock<false><<<nb, bs>>>(a, b, c);
        CK(cudaMemcpy(h, c, sizeof(int), cudaMemcpyDeviceToHost));
        EXPECT(h[0] == n * (n - 1) / 2, "total = %d", h[0]);
    } else if (!strcmp(v, "gridsync") || !strcmp(v, "nogridsync")) {
        int sync = !strcmp(v, "gridsync"), nn = n;
        void *args[] = {&a, &b, &nn, &sync};
        CK(cudaLaunchCooperativeKernel((void *)k_gridsync, nb, bs, args, 0, 0));
        CK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; sync && i < n; i++) EXPECT(h[i] == (i + bs) % n + 1, "b[%d] = %d", i, h[i]);
    } else if (!strcmp(v, "warp_reduce") || !strcmp(v, "warp_reduce_sync")) {
        for (int i = 0; i < 64; i++) h[i] = i;
        CK(cudaMemcpy(a, h, 64 * sizeof(int), cudaMemcpyHostToDevice));
        if (!strcmp(v, "warp_reduce")) k_warp_reduce<false><<<1, 64>>>(a, b);
        else k_warp_reduce<true><<<1, 64>>>(a, b);
        CK(cudaMemcpy(h, b, sizeof(int), cudaMemcpyDeviceToHost));
        // s[0] + s[16] after the first step, + (s[8] + s[24]) after the second
        int want = 0 + 16 + 8 + 24;
        EXPECT(h[0] == want, "s[0] = %d, want %d", h[0], want);
    } else if (!strcmp(v, "tile_unrolled") || !strcmp(v, "tile_unrolled_sync")) {
        static int m[32 * 32], r[32 * 32];
        int *dm, *dr;
        for (int i = 0; i < 32 * 32; i++) m[i] = i % 7 - 3;
        CK(cudaMalloc(&dm, sizeof m));
        CK(cudaMalloc(&dr, sizeof r));
        CK(cudaMemcpy(dm, m, sizeof m, cudaMemcpyHostToDevice));
        bool sync = !strcmp(v, "tile_unrolled_sync");
        if (sync) k_tile<true><<<1, dim3(32, 32)>>>(dm, dr);
        else k_tile<false><<<1, dim3(32, 32)>>>(dm, dr);
        CK(cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost));
        for (int y = 0; sync && y < 32; y++)
            for (int x = 0; x < 32; x++) {
                int want = 0;
                for (int k = 0; k < 32; k++) want += m[k * 32 + x] * m[y * 32 + k];
                EXPECT(r[y * 32 + x] == want, "out[%d][%d] = %d, want %d", y, x, r[y * 32 + x], want);
            }
    } else {
        printf("races: FAIL (no variant '%s')\n", v);
        return 2;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (failures) {
        printf("races: FAIL (%s)\n", v);
        return 1;
    }
    printf("races: PASS\n");
    return 0;
}
