/* rt_memory.c -- allocations, copies, memsets, symbols and pointer
** attributes.  Every call is the driver's: device, page-locked and managed
** memory are the driver's allocations, so cudaFree, cuMemFree and the
** kernels see the same ones.  Copies run when they are issued, whatever the
** stream.  A cudaMemcpyKind picks the driver call, which checks that a
** "device" side is device memory; cudaMemcpyDefault lets the driver tell
** from the addresses (unified addressing). */
#include "rt.h"
#include <stdlib.h>

#define DP(p) ((CUdeviceptr)(uintptr_t)(p))

/* ---- allocation ------------------------------------------------------------------ */

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    if (!devPtr) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (size == 0) {   /* no allocation, no error */
        *devPtr = NULL;
        return cudaSuccess;
    }
    CUdeviceptr p;
    CUresult r = cuMemAlloc(&p, size);
    if (!r) *devPtr = (void *)(uintptr_t)p;
    return rt_ret(rt_err(r));
}

cudaError_t cudaFree(void *devPtr)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!devPtr) return cudaSuccess;
    return rt_ret(rt_err(cuMemFree(DP(devPtr))));
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    if (!ptr) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (size == 0) {
        *ptr = NULL;
        return cudaSuccess;
    }
    return rt_ret(rt_err(cuMemAllocHost(ptr, size)));
}

/* The cudaHostAlloc flags are the driver's CU_MEMHOSTALLOC_* bits. */
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    if (!pHost) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (size == 0) {
        *pHost = NULL;
        return cudaSuccess;
    }
    return rt_ret(rt_err(cuMemHostAlloc(pHost, size, flags)));
}

cudaError_t cudaFreeHost(void *ptr)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!ptr) return cudaSuccess;
    return rt_ret(rt_err(cuMemFreeHost(ptr)));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    if (!devPtr) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (size == 0) {
        *devPtr = NULL;
        return cudaSuccess;
    }
    CUdeviceptr p;
    CUresult r = cuMemAllocManaged(&p, size, flags);
    if (!r) *devPtr = (void *)(uintptr_t)p;
    return rt_ret(rt_err(r));
}

static cudaError_t malloc_pitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!devPtr || !pitch) return cudaErrorInvalidValue;
    cudaError_t e = rt_begin();
    if (e) return e;
    if (width == 0 || height == 0) {
        *devPtr = NULL;
        *pitch = 0;
        return cudaSuccess;
    }
    CUdeviceptr p;
    CUresult r = cuMemAllocPitch(&p, pitch, width, height, 4);
    if (!r) *devPtr = (void *)(uintptr_t)p;
    return rt_err(r);
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    return rt_ret(malloc_pitch(devPtr, pitch, width, height));
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr) return rt_ret(cudaErrorInvalidValue);
    size_t pitch = 0;
    void *p = NULL;
    if (extent.height && extent.depth > SIZE_MAX / extent.height) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = malloc_pitch(&p, &pitch, extent.width, extent.height * extent.depth);
    if (e) return rt_ret(e);
    *pitchedDevPtr = (struct cudaPitchedPtr){p, pitch, extent.width, extent.height};
    return cudaSuccess;
}

/* Stream-ordered allocation: the stream's earlier work is done already. */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    if (!devPtr) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUdeviceptr p;
    CUresult r = cuMemAllocAsync(&p, size, hStream);
    if (!r) *devPtr = (void *)(uintptr_t)p;
    return rt_ret(rt_err(r));
}
RT_ALIAS(cudaMallocAsync, "cudaMallocAsync_ptsz");

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemFreeAsync(DP(devPtr), hStream)));
}
RT_ALIAS(cudaFreeAsync, "cudaFreeAsync_ptsz");

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemHostRegister(ptr, size, flags)));
}

cudaError_t cudaHostUnregister(void *ptr)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemHostUnregister(ptr)));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    if (!pDevice) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUdeviceptr d;
    CUresult r = cuMemHostGetDevicePointer(&d, pHost, flags);
    if (!r) *pDevice = (void *)(uintptr_t)d;
    return rt_ret(rt_err(r));
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemHostGetFlags(pFlags, pHost)));
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemGetInfo(free, total)));
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    if (!attributes) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    unsigned type = 0, managed = 0;
    int ordinal = -2;
    CUdeviceptr dp = 0;
    void *hp = NULL;
    CUpointer_attribute a[5] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                CU_POINTER_ATTRIBUTE_HOST_POINTER};
    void *v[5] = {&type, &managed, &ordinal, &dp, &hp};
    CUresult r = cuPointerGetAttributes(5, a, v, DP(ptr));
    if (r) return rt_ret(rt_err(r));
    memset(attributes, 0, sizeof *attributes);
    if (type == 0) {   /* memory CUDA does not know */
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = cudaInvalidDeviceId;
        return cudaSuccess;
    }
    /* a __managed__ variable is managed memory, though the driver placed it
    ** with its module's other variables */
    if (!managed && type == CU_MEMORYTYPE_DEVICE) {
        rt_lock();
        for (rt_fatbin *fb = rt_g.fatbins; fb && !managed; fb = fb->next)
            for (uint32_t i = 0; i < fb->nvars && !managed; i++) {
                uintptr_t a = (uintptr_t) * (void *const *)fb->vars[i]->host, p = (uintptr_t)ptr;
                managed = a && p >= a && p - a < fb->vars[i]->size;
            }
        rt_unlock();
    }
    attributes->type = managed ? cudaMemoryTypeManaged
                       : type == CU_MEMORYTYPE_HOST ? cudaMemoryTypeHost
                                                   : cudaMemoryTypeDevice;
    attributes->device = ordinal;
    attributes->devicePointer = (void *)(uintptr_t)dp;
    attributes->hostPointer = type == CU_MEMORYTYPE_HOST || managed ? (void *)(uintptr_t)ptr : hp;
    return cudaSuccess;
}

/* Placement hints: memory is where it is used already. */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUmemLocation loc = {(CUmemLocationType)location.type, location.id};
    return rt_ret(rt_err(cuMemPrefetchAsync(DP(devPtr), count, loc, flags, stream)));
}
RT_ALIAS(cudaMemPrefetchAsync, "cudaMemPrefetchAsync_ptsz");

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUmemLocation loc = {(CUmemLocationType)location.type, location.id};
    return rt_ret(rt_err(cuMemAdvise(DP(devPtr), count, (CUmem_advise)advice, loc)));
}

/* ---- copies -------------------------------------------------------------------------- */

static bool kind_ok(enum cudaMemcpyKind k) { return (unsigned)k <= cudaMemcpyDefault; }

cudaError_t rt_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, bool async, cudaStream_t s)
{
    if (!kind_ok(kind)) {
        rt_why("%d is not a cudaMemcpyKind", (int)kind);
        return cudaErrorInvalidMemcpyDirection;
    }
    if (count == 0) return cudaSuccess;
    CUresult r;
    switch (kind) {
    case cudaMemcpyHostToHost:
        if (!dst || !src) {
            rt_why("the %s of a host-to-host copy is NULL", !dst ? "destination" : "source");
            return cudaErrorInvalidValue;
        }
        memmove(dst, src, count);
        return cudaSuccess;
    case cudaMemcpyHostToDevice:
        r = async ? cuMemcpyHtoDAsync(DP(dst), src, count, s) : cuMemcpyHtoD(DP(dst), src, count);
        break;
    case cudaMemcpyDeviceToHost:
        r = async ? cuMemcpyDtoHAsync(dst, DP(src), count, s) : cuMemcpyDtoH(dst, DP(src), count);
        break;
    case cudaMemcpyDeviceToDevice:
        r = async ? cuMemcpyDtoDAsync(DP(dst), DP(src), count, s) : cuMemcpyDtoD(DP(dst), DP(src), count);
        break;
    default:
        r = async ? cuMemcpyAsync(DP(dst), DP(src), count, s) : cuMemcpy(DP(dst), DP(src), count);
        break;
    }
    return rt_err(r);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_copy(dst, src, count, kind, false, NULL));
}
RT_ALIAS(cudaMemcpy, "cudaMemcpy_ptds");

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_copy(dst, src, count, kind, true, stream));
}
RT_ALIAS(cudaMemcpyAsync, "cudaMemcpyAsync_ptsz");

static cudaError_t peer_copy(void *dst, int dd, const void *src, int sd, size_t count, bool async, cudaStream_t s)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    if (dd != 0 || sd != 0) return cudaErrorInvalidDevice;
    return rt_copy(dst, src, count, cudaMemcpyDeviceToDevice, async, s);
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    return rt_ret(peer_copy(dst, dstDevice, src, srcDevice, count, false, NULL));
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream)
{
    return rt_ret(peer_copy(dst, dstDevice, src, srcDevice, count, true, stream));
}

/* The driver's memory types for the two sides of a cudaMemcpyKind. */
static void kind_types(enum cudaMemcpyKind k, CUmemorytype *dt, CUmemorytype *st)
{
    switch (k) {
    case cudaMemcpyHostToHost: *dt = *st = CU_MEMORYTYPE_HOST; break;
    case cudaMemcpyHostToDevice: *dt = CU_MEMORYTYPE_DEVICE, *st = CU_MEMORYTYPE_HOST; break;
    case cudaMemcpyDeviceToHost: *dt = CU_MEMORYTYPE_HOST, *st = CU_MEMORYTYPE_DEVICE; break;
    case cudaMemcpyDeviceToDevice: *dt = *st = CU_MEMORYTYPE_DEVICE; break;
    default: *dt = *st = CU_MEMORYTYPE_UNIFIED; break;
    }
}

/* Sets one side of a CUDA_MEMCPY2D/3D from a pointer of memory type t. */
#define SIDE(c, pfx, t, p)                                                     \
    do {                                                                       \
        (c).pfx##MemoryType = (t);                                             \
        if ((t) == CU_MEMORYTYPE_HOST) (c).pfx##Host = (p);                    \
        else (c).pfx##Device = DP(p);                                          \
    } while (0)

/* A 2D copy; a NULL array means the pointer side. */
static cudaError_t copy2d(void *dst, size_t dpitch, cudaArray_t da, size_t dx, size_t dy, const void *src,
                          size_t spitch, cudaArray_const_t sa, size_t sx, size_t sy, size_t width, size_t height,
                          enum cudaMemcpyKind kind, bool async, cudaStream_t s)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    if (!kind_ok(kind)) return cudaErrorInvalidMemcpyDirection;
    if ((!da && width > dpitch && height > 1) || (!sa && width > spitch && height > 1)) return cudaErrorInvalidPitchValue;
    if (width == 0 || height == 0) return cudaSuccess;
    CUmemorytype dt, st;
    kind_types(kind, &dt, &st);
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    if (da) {
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = (CUarray)da;
    } else {
        SIDE(c, dst, dt, dst);
        c.dstPitch = dpitch;
    }
    if (sa) {
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = (CUarray)(uintptr_t)sa;
    } else {
        SIDE(c, src, st, src);
        c.srcPitch = spitch;
    }
    c.dstXInBytes = dx, c.dstY = dy, c.srcXInBytes = sx, c.srcY = sy;
    c.WidthInBytes = width;
    c.Height = height;
    return rt_err(async ? cuMemcpy2DAsync(&c, s) : cuMemcpy2D(&c));
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    return rt_ret(copy2d(dst, dpitch, NULL, 0, 0, src, spitch, NULL, 0, 0, width, height, kind, false, NULL));
}
RT_ALIAS(cudaMemcpy2D, "cudaMemcpy2D_ptds");

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_ret(copy2d(dst, dpitch, NULL, 0, 0, src, spitch, NULL, 0, 0, width, height, kind, true, stream));
}
RT_ALIAS(cudaMemcpy2DAsync, "cudaMemcpy2DAsync_ptsz");

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
    if (!dst) return rt_ret(cudaErrorInvalidResourceHandle);
    return rt_ret(copy2d(NULL, 0, dst, wOffset, hOffset, src, spitch, NULL, 0, 0, width, height, kind, false, NULL));
}
RT_ALIAS(cudaMemcpy2DToArray, "cudaMemcpy2DToArray_ptds");

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (!dst) return rt_ret(cudaErrorInvalidResourceHandle);
    return rt_ret(copy2d(NULL, 0, dst, wOffset, hOffset, src, spitch, NULL, 0, 0, width, height, kind, true, stream));
}
RT_ALIAS(cudaMemcpy2DToArrayAsync, "cudaMemcpy2DToArrayAsync_ptsz");

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind)
{
    if (!src) return rt_ret(cudaErrorInvalidResourceHandle);
    return rt_ret(copy2d(dst, dpitch, NULL, 0, 0, NULL, 0, src, wOffset, hOffset, width, height, kind, false, NULL));
}
RT_ALIAS(cudaMemcpy2DFromArray, "cudaMemcpy2DFromArray_ptds");

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
    if (!src) return rt_ret(cudaErrorInvalidResourceHandle);
    return rt_ret(copy2d(dst, dpitch, NULL, 0, 0, NULL, 0, src, wOffset, hOffset, width, height, kind, true, stream));
}
RT_ALIAS(cudaMemcpy2DFromArrayAsync, "cudaMemcpy2DFromArrayAsync_ptsz");

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind)
{
    if (!dst || !src) return rt_ret(cudaErrorInvalidResourceHandle);
    return rt_ret(copy2d(NULL, 0, dst, wOffsetDst, hOffsetDst, NULL, 0, src, wOffsetSrc, hOffsetSrc, width, height,
                         kind, false, NULL));
}
RT_ALIAS(cudaMemcpy2DArrayToArray, "cudaMemcpy2DArrayToArray_ptds");

/* Bytes per element of an array (its format and channel count). */
static size_t array_elem(cudaArray_const_t a)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    if (cuArray3DGetDescriptor(&d, (CUarray)(uintptr_t)a) != CUDA_SUCCESS) return 0;
    size_t bytes;
    switch (d.Format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
    case CU_AD_FORMAT_UNORM_INT8X1:
    case CU_AD_FORMAT_UNORM_INT8X2:
    case CU_AD_FORMAT_UNORM_INT8X4:
    case CU_AD_FORMAT_SNORM_INT8X1:
    case CU_AD_FORMAT_SNORM_INT8X2:
    case CU_AD_FORMAT_SNORM_INT8X4: bytes = 1; break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
    case CU_AD_FORMAT_UNORM_INT16X1:
    case CU_AD_FORMAT_UNORM_INT16X2:
    case CU_AD_FORMAT_UNORM_INT16X4:
    case CU_AD_FORMAT_SNORM_INT16X1:
    case CU_AD_FORMAT_SNORM_INT16X2:
    case CU_AD_FORMAT_SNORM_INT16X4: bytes = 2; break;
    default: bytes = 4; break;
    }
    return bytes * d.NumChannels;
}

/* A 3D copy: positions and extents count elements of an array side and
** bytes of a pointer side. */
cudaError_t rt_copy3d_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *out)
{
    if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr)) return cudaErrorInvalidValue;
    if (!kind_ok(p->kind)) return cudaErrorInvalidMemcpyDirection;
    CUmemorytype dt, st;
    kind_types(p->kind, &dt, &st);
    size_t se = p->srcArray ? array_elem(p->srcArray) : 1, de = p->dstArray ? array_elem(p->dstArray) : 1;
    if (!se || !de) return cudaErrorInvalidResourceHandle;
    size_t elem = p->srcArray ? se : de;   /* the extent counts elements of the array side */
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    if (p->srcArray) {
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = (CUarray)p->srcArray;
    } else {
        SIDE(c, src, st, p->srcPtr.ptr);
        c.srcPitch = p->srcPtr.pitch;
        c.srcHeight = p->srcPtr.ysize;
    }
    if (p->dstArray) {
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = (CUarray)p->dstArray;
    } else {
        SIDE(c, dst, dt, p->dstPtr.ptr);
        c.dstPitch = p->dstPtr.pitch;
        c.dstHeight = p->dstPtr.ysize;
    }
    c.srcXInBytes = p->srcPos.x * se, c.srcY = p->srcPos.y, c.srcZ = p->srcPos.z;
    c.dstXInBytes = p->dstPos.x * de, c.dstY = p->dstPos.y, c.dstZ = p->dstPos.z;
    c.WidthInBytes = p->extent.width * elem;
    c.Height = p->extent.height;
    c.Depth = p->extent.depth;
    *out = c;
    return cudaSuccess;
}

static cudaError_t copy3d(const struct cudaMemcpy3DParms *p, bool async, cudaStream_t s)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    CUDA_MEMCPY3D c;
    if ((e = rt_copy3d_params(p, &c))) return e;
    return rt_err(async ? cuMemcpy3DAsync(&c, s) : cuMemcpy3D(&c));
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) { return rt_ret(copy3d(p, false, NULL)); }
RT_ALIAS(cudaMemcpy3D, "cudaMemcpy3D_ptds");
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return rt_ret(copy3d(p, true, stream));
}
RT_ALIAS(cudaMemcpy3DAsync, "cudaMemcpy3DAsync_ptsz");

/* The deprecated 1D array copies: count bytes from row hOffset, byte
** wOffset on, through the array's rows in order. */
static bool is_device(const void *p)
{
    unsigned t = 0;
    return cuPointerGetAttribute(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, DP(p)) == CUDA_SUCCESS &&
           t == CU_MEMORYTYPE_DEVICE;
}

static size_t array_pitch(cudaArray_const_t a) 
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    if (cuArray3DGetDescriptor(&d, (CUarray)(uintptr_t)a) != CUDA_SUCCESS) return 0;
    return d.Width * array_elem(a);
}

static cudaError_t copy_to_array(cudaArray_t dst, size_t w, size_t h, const void *src, size_t count,
                                 enum cudaMemcpyKind kind, bool async, cudaStream_t s)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    if (!kind_ok(kind)) return cudaErrorInvalidMemcpyDirection;
    size_t pitch = array_pitch(dst);
    if (!pitch) return cudaErrorInvalidResourceHandle;
    size_t off = h * pitch + w;
    bool dev = kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && is_device(src));
    CUresult r = dev ? cuMemcpyDtoA((CUarray)dst, off, DP(src), count)
                 : async ? cuMemcpyHtoAAsync((CUarray)dst, off, src, count, s)
                         : cuMemcpyHtoA((CUarray)dst, off, src, count);
    return rt_err(r);
}

static cudaError_t copy_from_array(void *dst, cudaArray_const_t src, size_t w, size_t h, size_t count,
                                   enum cudaMemcpyKind kind, bool async, cudaStream_t s)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    if (!kind_ok(kind)) return cudaErrorInvalidMemcpyDirection;
    size_t pitch = array_pitch(src);
    if (!pitch) return cudaErrorInvalidResourceHandle;
    size_t off = h * pitch + w;
    CUarray a = (CUarray)(uintptr_t)src;
    bool dev = kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && is_device(dst));
    CUresult r = dev ? cuMemcpyAtoD(DP(dst), a, off, count)
                 : async ? cuMemcpyAtoHAsync(dst, a, off, count, s)
                         : cuMemcpyAtoH(dst, a, off, count);
    return rt_err(r);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind)
{
    return rt_ret(copy_to_array(dst, wOffset, hOffset, src, count, kind, false, NULL));
}
RT_ALIAS(cudaMemcpyToArray, "cudaMemcpyToArray_ptds");

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_ret(copy_to_array(dst, wOffset, hOffset, src, count, kind, true, stream));
}
RT_ALIAS(cudaMemcpyToArrayAsync, "cudaMemcpyToArrayAsync_ptsz");

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                enum cudaMemcpyKind kind)
{
    return rt_ret(copy_from_array(dst, src, wOffset, hOffset, count, kind, false, NULL));
}
RT_ALIAS(cudaMemcpyFromArray, "cudaMemcpyFromArray_ptds");

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_ret(copy_from_array(dst, src, wOffset, hOffset, count, kind, true, stream));
}
RT_ALIAS(cudaMemcpyFromArrayAsync, "cudaMemcpyFromArrayAsync_ptsz");

cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!kind_ok(kind)) return rt_ret(cudaErrorInvalidMemcpyDirection);
    size_t dp = array_pitch(dst), sp = array_pitch(src);
    if (!dp || !sp) return rt_ret(cudaErrorInvalidResourceHandle);
    return rt_ret(rt_err(cuMemcpyAtoA((CUarray)dst, hOffsetDst * dp + wOffsetDst, (CUarray)(uintptr_t)src,
                                      hOffsetSrc * sp + wOffsetSrc, count)));
}
RT_ALIAS(cudaMemcpyArrayToArray, "cudaMemcpyArrayToArray_ptds");

/* ---- memsets --------------------------------------------------------------------------- */

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemsetD8(DP(devPtr), (unsigned char)value, count)));
}
RT_ALIAS(cudaMemset, "cudaMemset_ptds");

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemsetD8Async(DP(devPtr), (unsigned char)value, count, stream)));
}
RT_ALIAS(cudaMemsetAsync, "cudaMemsetAsync_ptsz");

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemsetD2D8(DP(devPtr), pitch, (unsigned char)value, width, height)));
}
RT_ALIAS(cudaMemset2D, "cudaMemset2D_ptds");

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuMemsetD2D8Async(DP(devPtr), pitch, (unsigned char)value, width, height, stream)));
}
RT_ALIAS(cudaMemset2DAsync, "cudaMemset2DAsync_ptsz");

static cudaError_t memset3d(struct cudaPitchedPtr p, int value, struct cudaExtent ext, bool async, cudaStream_t s)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    if (ext.width == 0 || ext.height == 0 || ext.depth == 0) return cudaSuccess;
    if (ext.width > p.pitch || (ext.depth > 1 && ext.height > p.ysize)) return cudaErrorInvalidValue;
    for (size_t z = 0; z < ext.depth; z++) {
        CUdeviceptr slice = DP(p.ptr) + z * p.pitch * p.ysize;
        CUresult r = async ? cuMemsetD2D8Async(slice, p.pitch, (unsigned char)value, ext.width, ext.height, s)
                           : cuMemsetD2D8(slice, p.pitch, (unsigned char)value, ext.width, ext.height);
        if (r) return rt_err(r);
    }
    return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return rt_ret(memset3d(pitchedDevPtr, value, extent, false, NULL));
}
RT_ALIAS(cudaMemset3D, "cudaMemset3D_ptds");

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream)
{
    return rt_ret(memset3d(pitchedDevPtr, value, extent, true, stream));
}
RT_ALIAS(cudaMemset3DAsync, "cudaMemset3DAsync_ptsz");

/* ---- symbols ------------------------------------------------------------------------------ */

/* A symbol argument: a registered variable's host shadow, or (for a
** __managed__ variable, which host code names through its pointer) the
** variable's address. */
static cudaError_t symbol(const void *sym, CUdeviceptr *addr, size_t *size)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    rt_var *v = rt_var_of(sym);
    if (!v) {
        rt_lock();
        for (rt_fatbin *fb = rt_g.fatbins; fb && !v; fb = fb->next)
            for (uint32_t i = 0; i < fb->nvars && !v; i++)
                if (*(void *const *)fb->vars[i]->host == sym) v = fb->vars[i];
        rt_unlock();
    }
    if (!v) return cudaErrorInvalidSymbol;
    return rt_var_addr(v, addr, size);
}

static cudaError_t to_symbol(const void *sym, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind,
                             bool async, cudaStream_t s)
{
    CUdeviceptr a;
    size_t n;
    cudaError_t e = symbol(sym, &a, &n);
    if (e) return e;
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (offset > n || count > n - offset) return cudaErrorInvalidValue;
    return rt_copy((void *)(uintptr_t)(a + offset), src, count, kind, async, s);
}

static cudaError_t from_symbol(void *dst, const void *sym, size_t count, size_t offset, enum cudaMemcpyKind kind,
                               bool async, cudaStream_t s)
{
    CUdeviceptr a;
    size_t n;
    cudaError_t e = symbol(sym, &a, &n);
    if (e) return e;
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (offset > n || count > n - offset) return cudaErrorInvalidValue;
    return rt_copy(dst, (const void *)(uintptr_t)(a + offset), count, kind, async, s);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return rt_ret(to_symbol(symbol, src, count, offset, kind, false, NULL));
}
RT_ALIAS(cudaMemcpyToSymbol, "cudaMemcpyToSymbol_ptds");

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_ret(to_symbol(symbol, src, count, offset, kind, true, stream));
}
RT_ALIAS(cudaMemcpyToSymbolAsync, "cudaMemcpyToSymbolAsync_ptsz");

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return rt_ret(from_symbol(dst, symbol, count, offset, kind, false, NULL));
}
RT_ALIAS(cudaMemcpyFromSymbol, "cudaMemcpyFromSymbol_ptds");

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_ret(from_symbol(dst, symbol, count, offset, kind, true, stream));
}
RT_ALIAS(cudaMemcpyFromSymbolAsync, "cudaMemcpyFromSymbolAsync_ptsz");

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *sym)
{
    if (!devPtr) return rt_ret(cudaErrorInvalidValue);
    CUdeviceptr a;
    cudaError_t e = symbol(sym, &a, NULL);
    if (!e) *devPtr = (void *)(uintptr_t)a;
    return rt_ret(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
    if (!size) return rt_ret(cudaErrorInvalidValue);
    CUdeviceptr a;
    return rt_ret(symbol(sym, &a, size));
}
