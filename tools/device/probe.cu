/*
** probe.cu -- measurements taken on a real NVIDIA GPU, for the questions the
** timing model cannot settle alone (docs/VALIDATION.md, "On a real GPU").
**
**   nvcc -O2 -arch=sm_90 -o probe probe.cu && ./probe
**
** Prints one line per measurement:  probe NAME PARAMS value UNIT
**   bw.*      DRAM bandwidth of streaming kernels (GB/s and the fraction of the
**             peak the device reports: 2 x memory clock x bus width); the 2-D
**             array add is tests/hardware/array_add.cu's hw_add_coalesced
**             (16x16 blocks: a half-warp reads 64 bytes of a row) beside the
**             same bytes read 1-D and with 32x8 blocks (128 bytes a row).
**   atom.*    same-address atomics: ns per element when every thread of the
**             grid adds into one word (global), into one word per block
**             (shared), and into 32 words (one per lane).
**   launch.*  an empty kernel: microseconds per launch back to back, and one
**             launch timed alone with events (what NVBench's GPU time sees).
** Every time is the median of REPS event-timed runs after one warm-up.
*/
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("probe error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
enum { REPS = 9 };

/* hw_add_coalesced and hw_add_not_coalesced: the kernels the RTX 2060 rows
** time (tools/validate.sh --hardware), the same source */
#include "../../tests/hardware/array_add.cu"

__global__ void add1d(const float *a, const float *b, float *c, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) c[i] = a[i] + b[i];
}
__global__ void copy1d(const float *a, float *c, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) c[i] = a[i];
}
__global__ void read1d(const float *a, float *out, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < m ? a[i] : 0.0f;
    if (v == 12345.678f) out[0] = v;   /* never true: keeps the load */
}
__global__ void write1d(float *c, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) c[i] = 1.0f;
}
__global__ void atom_one(unsigned *bin, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) atomicAdd(bin, 1u);
}
__global__ void atom_lane(unsigned *bin, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) atomicAdd(bin + (threadIdx.x & 31), 1u);
}
__global__ void atom_shared(unsigned *bin, size_t m)
{
    __shared__ unsigned s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < 64; r++)
        if (i < m) atomicAdd(&s, 1u);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(bin, s);
}
__global__ void empty(void) {}

static cudaEvent_t e0, e1;
template <class F> static float time_ms(F launch)
{
    launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < REPS; r++) {
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[REPS / 2];
}

static double peak_gbs;
static void bw(const char *name, int p, double bytes, float ms)
{
    double gbs = bytes / (ms * 1e-3) / 1e9;
    printf("probe bw.%s %d %.1f GB/s %.3f of peak %.4f ms\n", name, p, gbs, gbs / peak_gbs, ms);
}

int main(void)
{
    int dev = 0, clk = 0, bus = 0, smclk = 0, sms = 0, l2 = 0;
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, dev));
    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrMemoryClockRate, dev));
    CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
    CK(cudaDeviceGetAttribute(&smclk, cudaDevAttrClockRate, dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    peak_gbs = 2.0 * clk * 1e3 * (bus / 8) / 1e9;
    printf("probe device %s cc %d.%d sms %d sm_clock_khz %d mem_clock_khz %d bus_bits %d l2_bytes %d peak %.1f GB/s\n",
           pr.name, pr.major, pr.minor, sms, smclk, clk, bus, l2, peak_gbs);
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    size_t maxn = 8192, m = maxn * maxn;
    float *a, *b, *c;
    CK(cudaMalloc(&a, m * 4)); CK(cudaMalloc(&b, m * 4)); CK(cudaMalloc(&c, m * 4));
    CK(cudaMemset(a, 0, m * 4)); CK(cudaMemset(b, 0, m * 4)); CK(cudaMemset(c, 0, m * 4));

    int ns[] = {1024, 2048, 4096, 8192};
    for (int n : ns) {
        double bytes = 3.0 * n * n * 4;
        dim3 b16(16, 16), g16((n + 15) / 16, (n + 15) / 16);
        bw("add2d_16x16", n, bytes, time_ms([&] { hw_add_coalesced<<<g16, b16>>>(a, b, c, n); }));
        dim3 b32(32, 8), g32((n + 31) / 32, (n + 7) / 8);
        bw("add2d_32x8", n, bytes, time_ms([&] { hw_add_coalesced<<<g32, b32>>>(a, b, c, n); }));
        size_t mm = (size_t)n * n;
        unsigned g1 = (unsigned)((mm + 255) / 256);
        bw("add1d", n, bytes, time_ms([&] { add1d<<<g1, 256>>>(a, b, c, mm); }));
        bw("copy1d", n, 2.0 * mm * 4, time_ms([&] { copy1d<<<g1, 256>>>(a, c, mm); }));
        bw("read1d", n, 1.0 * mm * 4, time_ms([&] { read1d<<<g1, 256>>>(a, c, mm); }));
        bw("write1d", n, 1.0 * mm * 4, time_ms([&] { write1d<<<g1, 256>>>(c, mm); }));
        if (n <= 4096)
            bw("add2d_notcoal", n, bytes, time_ms([&] { hw_add_not_coalesced<<<g16, b16>>>(a, b, c, n); }));
    }

    unsigned *bin;
    CK(cudaMalloc(&bin, 64 * 4));
    size_t ms_[] = {1u << 20, 1u << 22, 1u << 24};
    for (size_t mm : ms_) {
        unsigned g1 = (unsigned)((mm + 255) / 256);
        float t = time_ms([&] { atom_one<<<g1, 256>>>(bin, mm); });
        printf("probe atom.global_one %zu %.4f ns/element\n", mm, t * 1e6 / mm);
        t = time_ms([&] { atom_lane<<<g1, 256>>>(bin, mm); });
        printf("probe atom.global_32words %zu %.4f ns/element\n", mm, t * 1e6 / mm);
        t = time_ms([&] { atom_shared<<<g1, 256>>>(bin, mm); });
        printf("probe atom.shared_one %zu %.4f ns/element\n", mm, t * 1e6 / (mm * 64.0));
    }
    unsigned host = 0;
    CK(cudaMemset(bin, 0, 4));
    atom_one<<<4, 256>>>(bin, 1000);
    CK(cudaMemcpy(&host, bin, 4, cudaMemcpyDeviceToHost));
    printf("probe atom.check %u (want 1000)\n", host);

    float t1 = time_ms([&] { empty<<<1, 32>>>(); });
    printf("probe launch.single_event %.3f us\n", t1 * 1e3);
    float t100 = time_ms([&] { for (int i = 0; i < 100; i++) empty<<<1, 32>>>(); });
    printf("probe launch.back_to_back %.3f us/launch\n", t100 * 1e3 / 100);
    float tw = time_ms([&] { empty<<<sms * 16, 256>>>(); });
    printf("probe launch.full_grid_%d_ctas %.3f us\n", sms * 16, tw * 1e3);
    printf("probe done\n");
    return 0;
}
