// devprops.cu -- device queries, function attributes and occupancy.
//
// Covers: cudaGetDeviceCount, cudaSetDevice/GetDevice, cudaGetDevice-
// Properties (prints some fields; checks that they are sane and agree with
// cudaDeviceGetAttribute), cudaDriverGetVersion/RuntimeGetVersion,
// cudaMemGetInfo, cudaDeviceGetLimit/SetLimit (stack size, printf FIFO),
// cudaFuncGetAttributes (static shared memory, threads, registers, PTX
// version), cudaFuncSetCacheConfig, cudaOccupancyMaxActiveBlocksPer-
// Multiprocessor (bounded by every per-SM limit; limited by shared memory
// when a kernel uses a lot of it) and cudaOccupancyMaxPotentialBlockSize.
#include <cstring>

#include "check.h"

__global__ void tiny(int *out) { out[threadIdx.x] = threadIdx.x; }

// 12 KiB of static shared memory: at most 4 blocks in 48 KiB.
__global__ void shared12k(float *out) {
    __shared__ float buf[3072];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

// Limited to 256 threads per block by __launch_bounds__.
__global__ void __launch_bounds__(256) bounded(int *out) { out[threadIdx.x] = 2 * threadIdx.x; }

static int attr(cudaDeviceAttr a, int dev) {
    int v = -1;
    CK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
}

int main() {
    ck_start("devprops");
    int count = 0, dev = -1;
    CK(cudaGetDeviceCount(&count));
    EXPECT(count >= 1, "cudaGetDeviceCount = %d", count);
    CK(cudaSetDevice(0));
    CK(cudaGetDevice(&dev));
    EXPECT(dev == 0, "cudaGetDevice = %d after cudaSetDevice(0)", dev);
    EXPECT(cudaSetDevice(count) == cudaErrorInvalidDevice, "cudaSetDevice(%d) accepted", count);
    cudaGetLastError();

    int drv = 0, rt = 0;
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    printf("driver version %d, runtime version %d\n", drv, rt);
    EXPECT(rt >= 13000 && rt < 14000, "cudaRuntimeGetVersion = %d, expected 13.x", rt);
    EXPECT(drv >= rt, "driver version %d is older than the runtime's %d", drv, rt);

    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    CK(cudaGetDeviceProperties(&p, 0));
    printf("name: %s\n", p.name);
    printf("compute capability %d.%d, %d SMs, warp %d\n", p.major, p.minor, p.multiProcessorCount, p.warpSize);
    printf("global memory %zu MiB, shared/block %zu, shared/SM %zu, regs/block %d, regs/SM %d\n",
           p.totalGlobalMem >> 20, p.sharedMemPerBlock, p.sharedMemPerMultiprocessor, p.regsPerBlock,
           p.regsPerMultiprocessor);
    printf("threads/block %d (%d x %d x %d), grid %d x %d x %d, threads/SM %d, blocks/SM %d\n",
           p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0],
           p.maxGridSize[1], p.maxGridSize[2], p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
    printf("const memory %zu, L2 %d, bus %d bits, managed %d, unified addressing %d\n", p.totalConstMem,
           p.l2CacheSize, p.memoryBusWidth, p.managedMemory, p.unifiedAddressing);

    EXPECT(p.name[0] != 0 && memchr(p.name, 0, sizeof p.name), "the device name is empty or unterminated");
    EXPECT(p.major >= 7 && p.major <= 12 && p.minor >= 0 && p.minor <= 9, "compute capability %d.%d", p.major,
           p.minor);
    EXPECT(p.major * 10 + p.minor >= 75, "compute capability %d.%d is below sm_75, which this binary needs",
           p.major, p.minor);
    EXPECT(p.warpSize == 32, "warpSize = %d", p.warpSize);
    EXPECT(p.multiProcessorCount >= 1, "multiProcessorCount = %d", p.multiProcessorCount);
    EXPECT(p.totalGlobalMem >= (64u << 20), "totalGlobalMem = %zu", p.totalGlobalMem);
    EXPECT(p.sharedMemPerBlock >= 16384 && p.sharedMemPerBlock <= p.sharedMemPerMultiprocessor,
           "sharedMemPerBlock %zu, per SM %zu", p.sharedMemPerBlock, p.sharedMemPerMultiprocessor);
    EXPECT(p.maxThreadsPerBlock >= 512 && p.maxThreadsPerBlock <= 1024, "maxThreadsPerBlock = %d",
           p.maxThreadsPerBlock);
    EXPECT(p.maxThreadsDim[0] == p.maxThreadsPerBlock && p.maxThreadsDim[2] == 64, "maxThreadsDim %d %d %d",
           p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
    EXPECT(p.maxGridSize[0] == 2147483647 && p.maxGridSize[1] == 65535 && p.maxGridSize[2] == 65535,
           "maxGridSize %d %d %d", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    EXPECT(p.maxThreadsPerMultiProcessor >= p.maxThreadsPerBlock, "maxThreadsPerMultiProcessor = %d",
           p.maxThreadsPerMultiProcessor);
    EXPECT(p.regsPerBlock > 0 && p.regsPerBlock <= p.regsPerMultiprocessor, "regsPerBlock %d, per SM %d",
           p.regsPerBlock, p.regsPerMultiprocessor);
    EXPECT(p.totalConstMem >= 65536, "totalConstMem = %zu", p.totalConstMem);
    EXPECT(p.maxBlocksPerMultiProcessor >= 1, "maxBlocksPerMultiProcessor = %d", p.maxBlocksPerMultiProcessor);
    EXPECT(p.unifiedAddressing == 1, "unifiedAddressing = %d", p.unifiedAddressing);

    // The same numbers through cudaDeviceGetAttribute.
    struct {
        cudaDeviceAttr a;
        const char *name;
        long long prop;
    } same[] = {
        {cudaDevAttrComputeCapabilityMajor, "major", p.major},
        {cudaDevAttrComputeCapabilityMinor, "minor", p.minor},
        {cudaDevAttrMultiProcessorCount, "multiProcessorCount", p.multiProcessorCount},
        {cudaDevAttrWarpSize, "warpSize", p.warpSize},
        {cudaDevAttrMaxThreadsPerBlock, "maxThreadsPerBlock", p.maxThreadsPerBlock},
        {cudaDevAttrMaxBlockDimX, "maxThreadsDim[0]", p.maxThreadsDim[0]},
        {cudaDevAttrMaxBlockDimY, "maxThreadsDim[1]", p.maxThreadsDim[1]},
        {cudaDevAttrMaxBlockDimZ, "maxThreadsDim[2]", p.maxThreadsDim[2]},
        {cudaDevAttrMaxGridDimX, "maxGridSize[0]", p.maxGridSize[0]},
        {cudaDevAttrMaxGridDimY, "maxGridSize[1]", p.maxGridSize[1]},
        {cudaDevAttrMaxGridDimZ, "maxGridSize[2]", p.maxGridSize[2]},
        {cudaDevAttrMaxSharedMemoryPerBlock, "sharedMemPerBlock", (long long)p.sharedMemPerBlock},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, "sharedMemPerMultiprocessor",
         (long long)p.sharedMemPerMultiprocessor},
        {cudaDevAttrMaxRegistersPerBlock, "regsPerBlock", p.regsPerBlock},
        {cudaDevAttrMaxRegistersPerMultiprocessor, "regsPerMultiprocessor", p.regsPerMultiprocessor},
        {cudaDevAttrMaxThreadsPerMultiProcessor, "maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor},
        {cudaDevAttrMaxBlocksPerMultiprocessor, "maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor},
        {cudaDevAttrTotalConstantMemory, "totalConstMem", (long long)p.totalConstMem},
        {cudaDevAttrL2CacheSize, "l2CacheSize", p.l2CacheSize},
        {cudaDevAttrGlobalMemoryBusWidth, "memoryBusWidth", p.memoryBusWidth},
        {cudaDevAttrManagedMemory, "managedMemory", p.managedMemory},
        {cudaDevAttrUnifiedAddressing, "unifiedAddressing", p.unifiedAddressing},
        {cudaDevAttrConcurrentKernels, "concurrentKernels", p.concurrentKernels},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, "sharedMemPerBlockOptin", (long long)p.sharedMemPerBlockOptin},
    };
    for (auto &s : same) {
        int v = attr(s.a, 0);
        EXPECT(v == s.prop, "cudaDeviceGetAttribute(%s) = %d, cudaDeviceProp says %lld", s.name, v, s.prop);
    }

    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    EXPECT(total_b > 0 && free_b <= total_b && total_b <= p.totalGlobalMem, "cudaMemGetInfo free %zu total %zu",
           free_b, total_b);
    void *blob;
    CK(cudaMalloc(&blob, 64 << 20));
    size_t free2 = 0;
    CK(cudaMemGetInfo(&free2, &total_b));
    EXPECT(free2 <= free_b - (64 << 20), "free memory %zu before and %zu after a 64 MiB cudaMalloc", free_b, free2);
    CK(cudaFree(blob));

    size_t stack = 0, fifo = 0;
    CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    CK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    EXPECT(stack > 0 && fifo > 0, "limits: stack %zu, printf FIFO %zu", stack, fifo);
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    EXPECT(stack >= 4096, "cudaLimitStackSize after setting 4096 = %zu", stack);

    // Function attributes.
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, shared12k));
    printf("shared12k: %d regs, %zu static shared, %zu local, max %d threads, ptx %d, binary %d\n", fa.numRegs,
           fa.sharedSizeBytes, fa.localSizeBytes, fa.maxThreadsPerBlock, fa.ptxVersion, fa.binaryVersion);
    EXPECT(fa.sharedSizeBytes == 12288, "shared12k: sharedSizeBytes = %zu", fa.sharedSizeBytes);
    EXPECT(fa.maxThreadsPerBlock >= 256 && fa.maxThreadsPerBlock <= p.maxThreadsPerBlock,
           "shared12k: maxThreadsPerBlock = %d", fa.maxThreadsPerBlock);
    EXPECT(fa.numRegs > 0 && fa.numRegs <= 255, "shared12k: numRegs = %d", fa.numRegs);
    EXPECT(fa.ptxVersion == 75, "shared12k: ptxVersion = %d (built for compute_75)", fa.ptxVersion);
    EXPECT(fa.binaryVersion >= 75, "shared12k: binaryVersion = %d", fa.binaryVersion);
    CK(cudaFuncGetAttributes(&fa, bounded));
    EXPECT(fa.maxThreadsPerBlock == 256, "bounded: maxThreadsPerBlock = %d (__launch_bounds__(256))",
           fa.maxThreadsPerBlock);
    CK(cudaFuncGetAttributes(&fa, tiny));
    EXPECT(fa.sharedSizeBytes == 0, "tiny: sharedSizeBytes = %zu", fa.sharedSizeBytes);
    int tiny_regs = fa.numRegs;
    CK(cudaFuncSetCacheConfig(tiny, cudaFuncCachePreferL1));

    // Occupancy.
    int nb = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, shared12k, 256, 0));
    printf("occupancy: shared12k with 256 threads: %d blocks/SM\n", nb);
    EXPECT(nb >= 1 && (size_t)nb * 12288 <= p.sharedMemPerMultiprocessor && nb * 256 <= p.maxThreadsPerMultiProcessor &&
               nb <= p.maxBlocksPerMultiProcessor,
           "shared12k: %d blocks/SM exceeds a limit", nb);
    EXPECT((size_t)(nb + 1) * 12288 > p.sharedMemPerMultiprocessor || (nb + 1) * 256 > p.maxThreadsPerMultiProcessor ||
               nb + 1 > p.maxBlocksPerMultiProcessor || (long long)(nb + 1) * 256 * 32 > p.regsPerMultiprocessor,
           "shared12k: %d blocks/SM, but one more would fit every limit (registers assumed at most 32/thread)",
           nb);
    int nb_dyn = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb_dyn, tiny, 64, 20000));
    EXPECT(nb_dyn >= 1 && (size_t)nb_dyn * 20000 <= p.sharedMemPerMultiprocessor,
           "tiny with 20000 bytes of dynamic shared memory: %d blocks/SM", nb_dyn);
    int nb_tiny = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb_tiny, tiny, 32, 0));
    printf("occupancy: tiny with 32 threads: %d blocks/SM (%d regs)\n", nb_tiny, tiny_regs);
    // On compute capability 8.0 and later each block also reserves
    // reservedSharedMemPerBlock (1 KB) of shared memory, and tiny prefers L1
    // (cudaFuncSetCacheConfig above): a small carveout then bounds the blocks
    // (an H200 gives 8).  Without a reservation only the block and thread
    // limits can.
    EXPECT(nb_tiny == p.maxBlocksPerMultiProcessor || nb_tiny * 32 == p.maxThreadsPerMultiProcessor ||
               (p.reservedSharedMemPerBlock > 0 && nb_tiny >= 1 && nb_tiny < p.maxBlocksPerMultiProcessor &&
                (size_t)nb_tiny * p.reservedSharedMemPerBlock <= p.sharedMemPerMultiprocessor),
           "tiny with 32 threads: %d blocks/SM, expected the block limit %d", nb_tiny,
           p.maxBlocksPerMultiProcessor);

    int min_grid = 0, block = 0;
    CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, tiny, 0, 0));
    printf("cudaOccupancyMaxPotentialBlockSize(tiny): block %d, min grid %d\n", block, min_grid);
    EXPECT(block >= 32 && block <= p.maxThreadsPerBlock && block % 32 == 0, "suggested block %d", block);
    EXPECT(min_grid >= p.multiProcessorCount, "suggested minimum grid %d", min_grid);

    // The kernels do run.
    int *d_out, h[256];
    CK(cudaMalloc(&d_out, sizeof h));
    bounded<<<1, 256>>>(d_out);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++)
        EXPECT(h[i] == 2 * i, "bounded: out[%d] = %d", i, h[i]);
    CK(cudaFree(d_out));
    return ck_finish();
}
