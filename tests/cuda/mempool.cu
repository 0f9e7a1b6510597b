// mempool.cu -- stream-ordered memory: cudaMallocAsync/cudaFreeAsync on the
// default pool, reuse in stream order and after a synchronization, the
// release threshold and trimming, pool attributes, a created pool with
// cudaMallocFromPoolAsync, and cudaFree of stream-ordered memory.
#include "check.h"
#include <cstdint>

__global__ void fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

static size_t attr(cudaMemPool_t pool, cudaMemPoolAttr a)
{
    uint64_t v = 0;
    CK(cudaMemPoolGetAttribute(pool, a, &v));
    return (size_t)v;
}

int main()
{
    ck_start("mempool");
    int v = 0;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, 0));
    EXPECT(v == 1, "cudaDevAttrMemoryPoolsSupported = %d", v);
    const int n = 4096;
    const size_t bytes = n * sizeof(int);
    int *h;
    CK(cudaMallocHost(&h, bytes));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaMemPool_t pool;
    CK(cudaDeviceGetDefaultMemPool(&pool, 0));
    cudaMemPool_t cur;
    CK(cudaDeviceGetMemPool(&cur, 0));
    EXPECT(cur == pool, "the current pool is not the default one");
    int reuse = 0;
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &reuse));
    EXPECT(reuse == 1, "reuse attribute %d", reuse);
    uint64_t keep = UINT64_MAX;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));

    // freed and allocated again on the same stream: the same block, at once
    int *first = NULL;
    for (int r = 0; r < 3; r++) {
        int *d;
        CK(cudaMallocAsync(&d, bytes, s1));
        if (r == 0) first = d;
        EXPECT(d == first, "round %d: %p, not the block freed on this stream (%p)", r, (void *)d, (void *)first);
        fill<<<n / 256, 256, 0, s1>>>(d, 100 * r, n);
        CK_LAUNCH();
        CK(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s1));
        CK(cudaFreeAsync(d, s1));
        CK(cudaStreamSynchronize(s1));
        int bad = 0;
        for (int i = 0; i < n; i++) bad += h[i] != 100 * r + i;
        EXPECT(bad == 0, "round %d: %d wrong values", r, bad);
    }
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "used %zu", attr(pool, cudaMemPoolAttrUsedMemCurrent));
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) >= bytes, "used high %zu", attr(pool, cudaMemPoolAttrUsedMemHigh));
    EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) >= bytes, "reserved %zu (kept: threshold)",
           attr(pool, cudaMemPoolAttrReservedMemCurrent));

    // freed on s1 and not synchronized: with opportunistic reuse off (it is
    // on by default, and a real GPU then hands s2 the block whose free has
    // already run: an H200 did) s2 gets another block; after the
    // synchronize, the same
    int *d1, *d2, *d3;
    int off = 0, on = 1;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &off));
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &off));
    CK(cudaMallocAsync(&d1, bytes, s1));
    CK(cudaFreeAsync(d1, s1));
    CK(cudaMallocAsync(&d2, bytes, s2));
    EXPECT(d2 != d1, "s2 got the block s1 freed without any ordering");
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &on));
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &on));
    CK(cudaFreeAsync(d2, s2));
    CK(cudaDeviceSynchronize());
    CK(cudaMallocAsync(&d3, bytes, s2));
    EXPECT(d3 == d1 || d3 == d2, "after a synchronize a freed block is reused (%p)", (void *)d3);
    fill<<<n / 256, 256, 0, s2>>>(d3, 7, n);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(h, d3, bytes, cudaMemcpyDeviceToHost, s2));
    CK(cudaStreamSynchronize(s2));
    EXPECT(h[n - 1] == 7 + n - 1, "value %d", h[n - 1]);
    CK(cudaFreeAsync(d3, s2));
    CK(cudaStreamSynchronize(s2));
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "used after cudaFreeAsync");

    // trimming, and the default threshold (0): nothing is kept at a synchronize
    CK(cudaMemPoolTrimTo(pool, 0));
    EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0, "reserved %zu after trimming",
           attr(pool, cudaMemPoolAttrReservedMemCurrent));
    keep = 0;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    CK(cudaMallocAsync(&d1, bytes, s1));
    CK(cudaFreeAsync(d1, s1));
    CK(cudaStreamSynchronize(s1));
    EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0, "reserved %zu after a synchronize, threshold 0",
           attr(pool, cudaMemPoolAttrReservedMemCurrent));
    uint64_t zero = 0;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) == 0, "high mark reset");

    // a pool of our own
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CK(cudaMemPoolCreate(&mine, &props));
    int *dp;
    CK(cudaMallocFromPoolAsync((void **)&dp, bytes, mine, s1));
    EXPECT(attr(mine, cudaMemPoolAttrUsedMemCurrent) >= bytes && attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0,
           "accounted to the wrong pool");
    fill<<<n / 256, 256, 0, s1>>>(dp, 3, n);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(h, dp, bytes, cudaMemcpyDeviceToHost, s1));
    CK(cudaFreeAsync(dp, s1));
    CK(cudaStreamSynchronize(s1));
    EXPECT(h[10] == 13, "value %d from the created pool", h[10]);
    CK(cudaDeviceSetMemPool(0, mine));
    CK(cudaMallocAsync(&d1, bytes, s1));
    EXPECT(attr(mine, cudaMemPoolAttrUsedMemCurrent) >= bytes, "cudaMallocAsync did not use the current pool");
    CK(cudaFreeAsync(d1, s1));
    CK(cudaStreamSynchronize(s1));
    CK(cudaDeviceSetMemPool(0, pool));
    CK(cudaMemPoolDestroy(mine));
    EXPECT(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue, "the default pool was destroyed");
    cudaGetLastError();
    // a double free is refused
    CK(cudaMallocAsync(&d1, bytes, s1));
    CK(cudaFreeAsync(d1, s1));
    EXPECT(cudaFreeAsync(d1, s1) == cudaErrorInvalidValue, "double cudaFreeAsync accepted");
    cudaGetLastError();
    // cudaFree of stream-ordered memory (its pool's accounting afterwards is
    // not checked: an H200 still counted the block as used)
    CK(cudaMallocAsync(&d1, bytes, s1));
    CK(cudaStreamSynchronize(s1));
    CK(cudaFree(d1));
    CK(cudaDeviceSynchronize());
    return ck_finish();
}
