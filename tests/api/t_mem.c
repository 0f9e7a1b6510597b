/*
** t_mem.c -- device, host and managed allocations, cuMemGetInfo accounting,
** copies and memsets of large and odd sizes, 2D/3D copies and pointer
** attributes, with the errors of each.  Needs no kernel; runs with the
** default configuration (rtx2060: 6 GB of device memory).
*/
#include "api_test.h"
#include <unistd.h>

static CUcontext ctx;

/* A reproducible byte pattern (xorshift). */
static void pattern(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed | 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        p[i] = (uint8_t)x;
    }
}

static void mem_alloc_free(void)
{
    CUdeviceptr p = 0, q = 0;
    CK(cuMemAlloc(&p, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemAlloc(NULL, 16), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemAlloc(&p, 1));
    TT_CHECK(p != 0);
    TT_EQ_U(p % 256, 0);   /* cudaMalloc alignment */
    OK(cuMemAlloc(&q, 1));
    TT_CHECK(q != p);
    CK(cuMemFree(p + 4), CUDA_ERROR_INVALID_VALUE);   /* not the start */
    OK(cuMemFree(p));
    CK(cuMemFree(p), CUDA_ERROR_INVALID_VALUE);       /* double free */
    CK(cuMemFree((CUdeviceptr)0xdead0000ull), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(0));
    OK(cuMemFree(q));
    /* more than the device has (the default rtx2060: 6 GB) */
    CK(cuMemAlloc(&p, (size_t)7 << 30), CUDA_ERROR_OUT_OF_MEMORY);
}

/* exec/ hands out device memory in host pages (exec/mem.c). */
static void mem_info(void)
{
    size_t f0 = 0, t = 0, f1 = 0, f2 = 0;
    OK(cuMemGetInfo(&f0, &t));
    TT_EQ_U(t, 6ull << 30);   /* the default rtx2060's 6 GB */
    TT_CHECK(f0 <= t);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t n = 3 * page + 17;
    CUdeviceptr p;
    OK(cuMemAlloc(&p, n));
    OK(cuMemGetInfo(&f1, &t));
    TT_EQ_U(f0 - f1, 4 * page);
    CUdeviceptr q;
    OK(cuMemAlloc(&q, 100u << 20));
    OK(cuMemGetInfo(&f2, &t));
    TT_EQ_U(f1 - f2, 100u << 20);
    OK(cuMemFree(p));
    OK(cuMemFree(q));
    OK(cuMemGetInfo(&f2, &t));
    TT_EQ_U(f2, f0);
    CK(cuMemGetInfo(NULL, &t), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemGetInfo(&f2, NULL), CUDA_ERROR_INVALID_VALUE);
}

static void mem_roundtrip(void)
{
    static const size_t sizes[] = {1, 3, 255, 256, 257, 4093, 65537, (1u << 20) + 7, (64u << 20) + 13};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        uint8_t *h = malloc(n), *g = malloc(n);
        pattern(h, n, (uint32_t)k + 1);
        CUdeviceptr a, b;
        OK(cuMemAlloc(&a, n));
        OK(cuMemAlloc(&b, n + 5));
        OK(cuMemcpyHtoD(a, h, n));
        memset(g, 0, n);
        OK(cuMemcpyDtoH(g, a, n));
        if (memcmp(g, h, n) != 0) tt_fail_msg(__FILE__, __LINE__, "HtoD/DtoH of %zu bytes differ", n);
        /* device to device at an odd offset */
        OK(cuMemcpyDtoD(b + 5, a, n));
        memset(g, 0, n);
        OK(cuMemcpyDtoH(g, b + 5, n));
        if (memcmp(g, h, n) != 0) tt_fail_msg(__FILE__, __LINE__, "DtoD of %zu bytes differs", n);
        /* unified copies and the async forms */
        memset(g, 0, n);
        OK(cuMemcpy((CUdeviceptr)(uintptr_t)g, a, n));
        if (memcmp(g, h, n) != 0) tt_fail_msg(__FILE__, __LINE__, "cuMemcpy of %zu bytes differs", n);
        memset(g, 0, n);
        OK(cuMemcpyDtoHAsync(g, a, n, 0));
        OK(cuStreamSynchronize(0));
        if (memcmp(g, h, n) != 0) tt_fail_msg(__FILE__, __LINE__, "DtoHAsync of %zu bytes differs", n);
        /* out of bounds by one byte */
        CK(cuMemcpyHtoD(a, h, n + 1), CUDA_ERROR_INVALID_VALUE);
        CK(cuMemcpyDtoH(g, a + 1, n), CUDA_ERROR_INVALID_VALUE);
        CK(cuMemcpyDtoD(a, b, n + 5), CUDA_ERROR_INVALID_VALUE);
        OK(cuMemFree(a));
        OK(cuMemFree(b));
        /* a freed pointer */
        CK(cuMemcpyHtoD(a, h, n), CUDA_ERROR_INVALID_VALUE);
        free(h);
        free(g);
    }
    CUdeviceptr a;
    uint8_t buf[16];
    OK(cuMemAlloc(&a, 16));
    CK(cuMemcpyHtoD(a, NULL, 16), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemcpyDtoH(NULL, a, 16), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemcpyHtoD(a, buf, 0));   /* nothing to copy */
    CUstream s;
    OK(cuStreamCreate(&s, 0));
    OK(cuMemcpyHtoDAsync(a, buf, 16, s));
    OK(cuMemcpyDtoDAsync(a, a, 16, s));
    OK(cuMemcpyAsync(a, (CUdeviceptr)(uintptr_t)buf, 16, s));
    CK(cuMemcpyHtoDAsync(a, buf, 16, (CUstream)(uintptr_t)0x4321), CUDA_ERROR_INVALID_HANDLE);
    OK(cuStreamDestroy(s));
    CK(cuMemcpyHtoDAsync(a, buf, 16, s), CUDA_ERROR_INVALID_HANDLE);
    OK(cuMemcpyPeer(a, ctx, a, ctx, 16));
    CK(cuMemcpyPeer(a, NULL, a, ctx, 16), CUDA_ERROR_INVALID_CONTEXT);
    OK(cuMemFree(a));
}

static void mem_memset(void)
{
    size_t n = 10007;
    CUdeviceptr a;
    OK(cuMemAlloc(&a, n));
    uint8_t *h = malloc(n);
    OK(cuMemsetD8(a, 0x11, n));
    OK(cuMemsetD8(a + 3, 0xab, 1001));
    OK(cuMemcpyDtoH(h, a, n));
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad += h[i] != ((i >= 3 && i < 1004) ? 0xab : 0x11);
    TT_EQ_I(bad, 0);

    OK(cuMemsetD16(a + 2, 0xbeef, 9));
    OK(cuMemcpyDtoH(h, a, 32));
    TT_EQ_U(h[1], 0x11);
    TT_EQ_U(h[2] | h[3] << 8, 0xbeef);
    TT_EQ_U(h[18] | h[19] << 8, 0xbeef);
    TT_EQ_U(h[20], 0xab);
    CK(cuMemsetD16(a + 1, 1, 4), CUDA_ERROR_INVALID_VALUE);   /* misaligned */

    OK(cuMemsetD32(a + 8, 0xdeadbeefu, 2000));
    OK(cuMemcpyDtoH(h, a, n));
    uint32_t w;
    memcpy(&w, h + 8, 4);
    TT_EQ_U(w, 0xdeadbeefu);
    memcpy(&w, h + 8 + 4 * 1999, 4);
    TT_EQ_U(w, 0xdeadbeefu);
    TT_EQ_U(h[8 + 4 * 2000], 0x11);
    CK(cuMemsetD32(a + 2, 0, 4), CUDA_ERROR_INVALID_VALUE);   /* misaligned */
    CK(cuMemsetD32(a, 0, n), CUDA_ERROR_INVALID_VALUE);       /* past the end */
    OK(cuMemsetD32Async(a, 7, 4, 0));
    OK(cuMemsetD8Async(a, 7, 4, 0));
    OK(cuMemsetD16Async(a, 7, 4, 0));
    OK(cuMemsetD8(a, 0, 0));

    /* 2D: 5 rows of 7 32-bit words, rows 64 bytes apart */
    OK(cuMemsetD8(a, 0, n));
    OK(cuMemsetD2D32(a + 64, 64, 0x01020304u, 7, 5));
    OK(cuMemcpyDtoH(h, a, 512));
    bad = 0;
    for (size_t i = 0; i < 512; i++) {
        size_t row = i / 64, col = i % 64;
        bool in = row >= 1 && row <= 5 && col < 28;
        uint8_t want = in ? (uint8_t)(4 - col % 4) : 0;
        bad += h[i] != want;
    }
    TT_EQ_I(bad, 0);
    CK(cuMemsetD2D32(a, 16, 0, 7, 2), CUDA_ERROR_INVALID_VALUE);   /* pitch below a row */
    OK(cuMemsetD2D8Async(a, 64, 1, 64, 2, 0));
    OK(cuMemsetD2D16(a, 64, 1, 32, 2));
    OK(cuMemFree(a));
    CK(cuMemsetD8(a, 0, 1), CUDA_ERROR_INVALID_VALUE);
    free(h);
}

static void mem_pitch_2d_3d(void)
{
    CUdeviceptr d;
    size_t pitch = 0;
    OK(cuMemAllocPitch(&d, &pitch, 100, 9, 4));
    TT_CHECK(pitch >= 100);
    TT_EQ_U(pitch % 512, 0);
    CK(cuMemAllocPitch(&d, &pitch, 100, 9, 3), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemAllocPitch(&d, &pitch, 0, 9, 4), CUDA_ERROR_INVALID_VALUE);

    /* host 10x120 (pitch 120) block at (x=4,y=2) -> device (x=8,y=1), 90 bytes x 6 rows */
    uint8_t src[10 * 120], dst[10 * 120];
    pattern(src, sizeof src, 7);
    CUDA_MEMCPY2D c = {0};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = src;
    c.srcPitch = 120;
    c.srcXInBytes = 4;
    c.srcY = 2;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = d;
    c.dstPitch = pitch;
    c.dstXInBytes = 8;
    c.dstY = 1;
    c.WidthInBytes = 90;
    c.Height = 6;
    OK(cuMemsetD8(d, 0, pitch * 9));
    OK(cuMemcpy2D(&c));
    /* back, whole rows */
    CUDA_MEMCPY2D b = {0};
    b.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    b.srcDevice = d;
    b.srcPitch = pitch;
    b.dstMemoryType = CU_MEMORYTYPE_HOST;
    b.dstHost = dst;
    b.dstPitch = 120;
    b.WidthInBytes = 100;
    b.Height = 9;
    memset(dst, 0xee, sizeof dst);
    OK(cuMemcpy2D(&b));
    int bad = 0;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 100; x++) {
            bool in = y >= 1 && y < 7 && x >= 8 && x < 98;
            uint8_t want = in ? src[(y - 1 + 2) * 120 + (x - 8 + 4)] : 0;
            bad += dst[y * 120 + x] != want;
        }
    TT_EQ_I(bad, 0);
    b.Height = 10;   /* one row past the allocation */
    CK(cuMemcpy2D(&b), CUDA_ERROR_INVALID_VALUE);
    b.Height = 9;
    b.srcMemoryType = CU_MEMORYTYPE_ARRAY;   /* srcArray is NULL */
    CK(cuMemcpy2D(&b), CUDA_ERROR_INVALID_VALUE);
    b.srcMemoryType = (CUmemorytype)9;
    CK(cuMemcpy2D(&b), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemcpy2D(NULL), CUDA_ERROR_INVALID_VALUE);
    b.srcMemoryType = CU_MEMORYTYPE_UNIFIED;   /* a device address */
    OK(cuMemcpy2DAsync(&b, 0));
    OK(cuMemcpy2DUnaligned(&b));

    /* 3D: a 4x3x2 (bytes x rows x slices) box inside an 8x4x3 volume */
    uint8_t vol[8 * 4 * 3], out[8 * 4 * 3];
    pattern(vol, sizeof vol, 9);
    CUdeviceptr dv;
    OK(cuMemAlloc(&dv, sizeof vol));
    OK(cuMemsetD8(dv, 0, sizeof vol));
    CUDA_MEMCPY3D m = {0};
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = vol;
    m.srcPitch = 8;
    m.srcHeight = 4;
    m.srcXInBytes = 1;
    m.srcY = 1;
    m.srcZ = 1;
    m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    m.dstDevice = dv;
    m.dstPitch = 8;
    m.dstHeight = 4;
    m.WidthInBytes = 4;
    m.Height = 3;
    m.Depth = 2;
    OK(cuMemcpy3D(&m));
    OK(cuMemcpyDtoH(out, dv, sizeof out));
    bad = 0;
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 8; x++) {
                bool in = z < 2 && y < 3 && x < 4;
                uint8_t want = in ? vol[(z + 1) * 32 + (y + 1) * 8 + x + 1] : 0;
                bad += out[z * 32 + y * 8 + x] != want;
            }
    TT_EQ_I(bad, 0);
    m.srcLOD = 1;
    CK(cuMemcpy3D(&m), CUDA_ERROR_INVALID_VALUE);
    m.srcLOD = 0;
    m.dstZ = 2;   /* slices 2 and 3 of a 3-slice volume */
    CK(cuMemcpy3DAsync(&m, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(dv));
    OK(cuMemFree(d));
}

static void mem_host(void)
{
    void *h = NULL;
    OK(cuMemAllocHost(&h, 4000));
    TT_CHECK(h != NULL);
    memset(h, 0x5a, 4000);   /* host-accessible */
    CUdeviceptr d = 0;
    OK(cuMemHostGetDevicePointer(&d, h, 0));
    TT_EQ_U(d, (uintptr_t)h);   /* unified addressing */
    CK(cuMemHostGetDevicePointer(&d, h, 1), CUDA_ERROR_INVALID_VALUE);
    unsigned flags = 0;
    OK(cuMemHostGetFlags(&flags, h));
    TT_CHECK(flags & CU_MEMHOSTALLOC_DEVICEMAP);
    /* device memory can be copied into it */
    CUdeviceptr a;
    OK(cuMemAlloc(&a, 4000));
    OK(cuMemsetD8(a, 0x33, 4000));
    OK(cuMemcpyDtoH(h, a, 4000));
    TT_EQ_U(((uint8_t *)h)[3999], 0x33);
    OK(cuMemcpy(a, d, 4000));   /* unified: host allocation as a source */
    CK(cuMemFree(d), CUDA_ERROR_INVALID_VALUE);   /* pinned memory: cuMemFreeHost */
    CK(cuMemFreeHost((void *)(uintptr_t)a), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFreeHost(h));
    CK(cuMemFreeHost(h), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemAllocHost(&h, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemHostAlloc(&h, 64, 0x80), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemHostAlloc(&h, 64, CU_MEMHOSTALLOC_WRITECOMBINED));
    OK(cuMemHostGetFlags(&flags, h));
    TT_EQ_U(flags, CU_MEMHOSTALLOC_WRITECOMBINED);
    OK(cuMemFreeHost(h));
    int stack_var;
    CK(cuMemHostGetFlags(&flags, &stack_var), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(a));
}

static void mem_managed(void)
{
    CUdeviceptr m;
    CK(cuMemAllocManaged(&m, 64, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemAllocManaged(&m, 0, CU_MEM_ATTACH_GLOBAL), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL));
    uint32_t *p = (uint32_t *)(uintptr_t)m;
    for (int i = 0; i < 1024; i++) p[i] = (uint32_t)i * 3;   /* the host touches it directly */
    uint32_t v = 0;
    OK(cuMemcpyDtoH(&v, m + 4 * 1000, 4));
    TT_EQ_U(v, 3000);
    unsigned is_managed = 0;
    OK(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m));
    TT_EQ_U(is_managed, 1);
    CUmemLocation dev = {CU_MEM_LOCATION_TYPE_DEVICE, 0}, host = {CU_MEM_LOCATION_TYPE_HOST, 0};
    OK(cuMemPrefetchAsync(m, 4096, dev, 0, 0));
    OK(cuMemPrefetchAsync(m, 4096, host, 0, 0));
    CK(cuMemPrefetchAsync(m, 8192, dev, 0, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemAdvise(m, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, dev));
    OK(cuMemAdvise(m, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
    CK(cuMemAdvise(m, 4096, (CUmem_advise)42, dev), CUDA_ERROR_INVALID_VALUE);
    OK(cuStreamAttachMemAsync(0, m, 0, CU_MEM_ATTACH_HOST));
    CUdeviceptr d;
    OK(cuMemAlloc(&d, 4096));
    CK(cuMemPrefetchAsync(d, 4096, dev, 0, 0), CUDA_ERROR_INVALID_VALUE);   /* not managed */
    OK(cuMemFree(d));
    OK(cuMemFree(m));
}

static void mem_async_alloc(void)
{
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr p;
    OK(cuMemAllocAsync(&p, 1000, s));
    OK(cuMemsetD8Async(p, 1, 1000, s));
    OK(cuMemFreeAsync(p, s));
    CK(cuMemFreeAsync(p, s), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemAllocAsync(&p, 0, s), CUDA_ERROR_INVALID_VALUE);
    OK(cuStreamDestroy(s));
}

static void mem_ranges_attributes(void)
{
    CUdeviceptr a, base = 0;
    size_t size = 0;
    OK(cuMemAlloc(&a, 5000));
    OK(cuMemGetAddressRange(&base, &size, a + 4999));
    TT_EQ_U(base, a);
    TT_EQ_U(size, 5000);
    OK(cuMemGetAddressRange(NULL, &size, a));
    CK(cuMemGetAddressRange(&base, &size, a + 5000), CUDA_ERROR_NOT_FOUND);

    unsigned type = 0;
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a + 10));
    TT_EQ_U(type, CU_MEMORYTYPE_DEVICE);
    CUcontext c = NULL;
    OK(cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, a));
    TT_CHECK(c == ctx);
    CUdeviceptr start = 0;
    OK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, a + 100));
    TT_EQ_U(start, a);
    OK(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, a + 100));
    TT_EQ_U(size, 5000);
    int ordinal = -1;
    OK(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, a));
    TT_EQ_I(ordinal, 0);
    void *hp;
    CK(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, a), CUDA_ERROR_INVALID_VALUE);
    unsigned long long id1 = 0, id2 = 0;
    CUdeviceptr b;
    OK(cuMemAlloc(&b, 64));
    OK(cuPointerGetAttribute(&id1, CU_POINTER_ATTRIBUTE_BUFFER_ID, a));
    OK(cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID, b));
    TT_CHECK(id1 != id2);
    void *h;
    OK(cuMemAllocHost(&h, 64));
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)h));
    TT_EQ_U(type, CU_MEMORYTYPE_HOST);
    OK(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, (CUdeviceptr)(uintptr_t)h));
    TT_CHECK(hp == h);
    /* memory CUDA does not know */
    int local = 0;
    CUdeviceptr lp = (CUdeviceptr)(uintptr_t)&local;
    CK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, lp), CUDA_ERROR_INVALID_VALUE);
    CK(cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a), CUDA_ERROR_INVALID_VALUE);
    CK(cuPointerGetAttribute(&type, (CUpointer_attribute)999, a), CUDA_ERROR_INVALID_VALUE);
    /* ... but the plural form reports empty attributes for it */
    CUpointer_attribute attrs[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_CONTEXT};
    type = 77;
    c = (CUcontext)1;
    void *data[2] = {&type, &c};
    OK(cuPointerGetAttributes(2, attrs, data, lp));
    TT_EQ_U(type, 0);
    TT_CHECK(c == NULL);
    OK(cuPointerGetAttributes(2, attrs, data, a));
    TT_EQ_U(type, CU_MEMORYTYPE_DEVICE);
    TT_CHECK(c == ctx);
    OK(cuMemFreeHost(h));
    OK(cuMemFree(a));
    OK(cuMemFree(b));
}

/* A context's allocations die with it. */
static void mem_context_teardown(void)
{
    CUcontext c2;
    OK(cuCtxCreate(&c2, NULL, 0, 0));
    CUdeviceptr p;
    size_t f0, f1, t;
    OK(cuMemGetInfo(&f0, &t));
    OK(cuMemAlloc(&p, 1u << 20));
    OK(cuCtxDestroy(c2));
    OK(cuCtxSetCurrent(ctx));
    OK(cuMemGetInfo(&f1, &t));
    TT_EQ_U(f1, f0);
    CK(cuMemFree(p), CUDA_ERROR_INVALID_VALUE);
}

int main(void)
{
    at_init_ctx(&ctx);
    TT_RUN(mem_alloc_free);
    TT_RUN(mem_info);
    TT_RUN(mem_roundtrip);
    TT_RUN(mem_memset);
    TT_RUN(mem_pitch_2d_3d);
    TT_RUN(mem_host);
    TT_RUN(mem_managed);
    TT_RUN(mem_async_alloc);
    TT_RUN(mem_ranges_attributes);
    TT_RUN(mem_context_teardown);
    OK(cuCtxDestroy(ctx));
    return tt_done();
}
