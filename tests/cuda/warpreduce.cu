// warpreduce.cu -- the warp-shuffle reduction of NVIDIA's reduction sample
// (its reduce7 kernel): each warp reduces with __shfl_down_sync over a
// member mask that names only the lanes the block has (blocks of fewer than
// 32 threads), then the first warp reduces the per-warp sums with a mask
// that __ballot_sync computed for the lanes that hold one.  Both reductions
// read, at their first steps, lanes that do not take part in the shuffle
// (outside the mask, not executing it, or not launched at all); the PTX ISA
// leaves those values undefined, and the sample is correct on NVIDIA GPUs
// because a lane that does not take part contributes 0 there.  tpsim gives 0
// too (docs/CHECKS.md, synccheck).  Every block size the sample supports
// (1 to 1024), power-of-two and other element counts, int and float
// (integer-valued: the sums are exact), checked against the CPU.
#include "check.h"
#include <vector>

template <class T>
__device__ __forceinline__ T warp_sum(unsigned mask, T v)
{
    for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(mask, v, off);
    return v;
}

template <class T, unsigned BS, bool POW2>
__global__ void reduce_shfl(const T *in, T *out, unsigned n)
{
    extern __shared__ unsigned char smem_raw[];
    T *sdata = reinterpret_cast<T *>(smem_raw);
    unsigned tid = threadIdx.x;
    unsigned stride = BS * gridDim.x;
    // a block of fewer than 32 threads names only its own lanes
    unsigned short_by = BS & 31 ? 32 - (BS & 31) : 0;
    const unsigned mask = 0xffffffffu >> short_by;
    T sum = 0;
    if (POW2) {
        unsigned i = blockIdx.x * BS * 2 + tid;
        stride *= 2;
        while (i < n) {
            sum += in[i];
            if (i + BS < n) sum += in[i + BS];
            i += stride;
        }
    } else {
        for (unsigned i = blockIdx.x * BS + tid; i < n; i += stride) sum += in[i];
    }
    sum = warp_sum<T>(mask, sum);
    if (tid % warpSize == 0) sdata[tid / warpSize] = sum;
    __syncthreads();
    const unsigned warps = BS / warpSize > 0 ? BS / warpSize : 1;
    const unsigned holders = __ballot_sync(mask, tid < warps);
    if (tid < warps) {
        sum = sdata[tid];
        sum = warp_sum<T>(holders, sum);
    }
    if (tid == 0) out[blockIdx.x] = sum;
}

template <class T, unsigned BS>
static void run(const T *din, T *dout, unsigned n, unsigned blocks, bool pow2)
{
    size_t shm = (BS / 32 > 0 ? BS / 32 : 1) * sizeof(T);
    if (pow2) reduce_shfl<T, BS, true><<<blocks, BS, shm>>>(din, dout, n);
    else reduce_shfl<T, BS, false><<<blocks, BS, shm>>>(din, dout, n);
}

template <class T>
static void launch(unsigned bs, const T *din, T *dout, unsigned n, unsigned blocks, bool pow2)
{
    switch (bs) {
    case 1: run<T, 1>(din, dout, n, blocks, pow2); break;
    case 2: run<T, 2>(din, dout, n, blocks, pow2); break;
    case 4: run<T, 4>(din, dout, n, blocks, pow2); break;
    case 8: run<T, 8>(din, dout, n, blocks, pow2); break;
    case 16: run<T, 16>(din, dout, n, blocks, pow2); break;
    case 32: run<T, 32>(din, dout, n, blocks, pow2); break;
    case 64: run<T, 64>(din, dout, n, blocks, pow2); break;
    case 128: run<T, 128>(din, dout, n, blocks, pow2); break;
    case 256: run<T, 256>(din, dout, n, blocks, pow2); break;
    case 512: run<T, 512>(din, dout, n, blocks, pow2); break;
    default: run<T, 1024>(din, dout, n, blocks, pow2); break;
    }
}

template <class T>
static void check(const char *type, unsigned n)
{
    std::vector<T> h(n);
    long long want = 0;
    for (unsigned i = 0; i < n; i++) {
        h[i] = (T)((i * 37u + 11u) % 61u) - (T)20;
        want += (long long)((i * 37u + 11u) % 61u) - 20;
    }
    T *din, *dout;
    const unsigned blocks = 24;
    CK(cudaMalloc(&din, n * sizeof(T)));
    CK(cudaMalloc(&dout, blocks * sizeof(T)));
    CK(cudaMemcpy(din, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    bool pow2 = (n & (n - 1)) == 0;
    for (unsigned bs = 1; bs <= 1024; bs *= 2) {
        CK(cudaMemset(dout, 0x7f, blocks * sizeof(T)));   // garbage where nothing is written
        launch<T>(bs, din, dout, n, blocks, pow2);
        CK_LAUNCH();
        T part[blocks];
        CK(cudaMemcpy(part, dout, sizeof part, cudaMemcpyDeviceToHost));
        long long got = 0;
        for (unsigned b = 0; b < blocks; b++) got += (long long)part[b];
        EXPECT(got == want, "%s, %u elements, blocks of %u: sum %lld, want %lld", type, n, bs, got, want);
    }
    CK(cudaFree(din));
    CK(cudaFree(dout));
}

int main()
{
    ck_start("warpreduce");
    check<int>("int", 1 << 16);
    check<int>("int", 50000);
    check<float>("float", 1 << 16);
    check<float>("float", 12345);
    return ck_finish();
}
