/* rt_texture.c -- channel descriptors, CUDA arrays and texture/surface
** objects, translated to the driver's (a cudaArray_t is a CUarray; a
** channel descriptor is a CUarray_format and a channel count). */
#include "rt.h"

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

/* The driver's format and channel count of a channel descriptor. */
static bool to_format(const struct cudaChannelFormatDesc *d, CUarray_format *fmt, unsigned *n)
{
    const int bits[4] = {d->x, d->y, d->z, d->w};
    unsigned k = 0;
    while (k < 4 && bits[k] > 0) k++;
    for (unsigned i = k; i < 4; i++)
        if (bits[i] != 0) return false;
    for (unsigned i = 1; i < k; i++)
        if (bits[i] != bits[0]) return false;
    int b = k ? bits[0] : 0;
    *n = k;
    switch (d->f) {
    case cudaChannelFormatKindSigned:
    case cudaChannelFormatKindUnsigned: {
        bool s = d->f == cudaChannelFormatKindSigned;
        if (b == 8) *fmt = s ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8;
        else if (b == 16) *fmt = s ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT16;
        else if (b == 32) *fmt = s ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32;
        else return false;
        break;
    }
    case cudaChannelFormatKindFloat:
        if (b == 16) *fmt = CU_AD_FORMAT_HALF;
        else if (b == 32) *fmt = CU_AD_FORMAT_FLOAT;
        else return false;
        break;
    /* the normalized kinds name their channel count and size themselves */
    case cudaChannelFormatKindUnsignedNormalized8X1: *fmt = CU_AD_FORMAT_UNORM_INT8X1, *n = 1; return b == 8;
    case cudaChannelFormatKindUnsignedNormalized8X2: *fmt = CU_AD_FORMAT_UNORM_INT8X2, *n = 2; return b == 8;
    case cudaChannelFormatKindUnsignedNormalized8X4: *fmt = CU_AD_FORMAT_UNORM_INT8X4, *n = 4; return b == 8;
    case cudaChannelFormatKindUnsignedNormalized16X1: *fmt = CU_AD_FORMAT_UNORM_INT16X1, *n = 1; return b == 16;
    case cudaChannelFormatKindUnsignedNormalized16X2: *fmt = CU_AD_FORMAT_UNORM_INT16X2, *n = 2; return b == 16;
    case cudaChannelFormatKindUnsignedNormalized16X4: *fmt = CU_AD_FORMAT_UNORM_INT16X4, *n = 4; return b == 16;
    case cudaChannelFormatKindSignedNormalized8X1: *fmt = CU_AD_FORMAT_SNORM_INT8X1, *n = 1; return b == 8;
    case cudaChannelFormatKindSignedNormalized8X2: *fmt = CU_AD_FORMAT_SNORM_INT8X2, *n = 2; return b == 8;
    case cudaChannelFormatKindSignedNormalized8X4: *fmt = CU_AD_FORMAT_SNORM_INT8X4, *n = 4; return b == 8;
    case cudaChannelFormatKindSignedNormalized16X1: *fmt = CU_AD_FORMAT_SNORM_INT16X1, *n = 1; return b == 16;
    case cudaChannelFormatKindSignedNormalized16X2: *fmt = CU_AD_FORMAT_SNORM_INT16X2, *n = 2; return b == 16;
    case cudaChannelFormatKindSignedNormalized16X4: *fmt = CU_AD_FORMAT_SNORM_INT16X4, *n = 4; return b == 16;
    default: return false;
    }
    return k == 1 || k == 2 || k == 4;
}

/* The channel descriptor of a driver format with n channels. */
static struct cudaChannelFormatDesc from_format(CUarray_format f, unsigned n)
{
    struct cudaChannelFormatDesc d = {0, 0, 0, 0, cudaChannelFormatKindNone};
    int bits = 32;
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8, d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16, d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32, d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_SIGNED_INT8: bits = 8, d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: bits = 16, d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: bits = 32, d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_HALF: bits = 16, d.f = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: bits = 32, d.f = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_UNORM_INT8X1: bits = 8, n = 1, d.f = cudaChannelFormatKindUnsignedNormalized8X1; break;
    case CU_AD_FORMAT_UNORM_INT8X2: bits = 8, n = 2, d.f = cudaChannelFormatKindUnsignedNormalized8X2; break;
    case CU_AD_FORMAT_UNORM_INT8X4: bits = 8, n = 4, d.f = cudaChannelFormatKindUnsignedNormalized8X4; break;
    case CU_AD_FORMAT_UNORM_INT16X1: bits = 16, n = 1, d.f = cudaChannelFormatKindUnsignedNormalized16X1; break;
    case CU_AD_FORMAT_UNORM_INT16X2: bits = 16, n = 2, d.f = cudaChannelFormatKindUnsignedNormalized16X2; break;
    case CU_AD_FORMAT_UNORM_INT16X4: bits = 16, n = 4, d.f = cudaChannelFormatKindUnsignedNormalized16X4; break;
    case CU_AD_FORMAT_SNORM_INT8X1: bits = 8, n = 1, d.f = cudaChannelFormatKindSignedNormalized8X1; break;
    case CU_AD_FORMAT_SNORM_INT8X2: bits = 8, n = 2, d.f = cudaChannelFormatKindSignedNormalized8X2; break;
    case CU_AD_FORMAT_SNORM_INT8X4: bits = 8, n = 4, d.f = cudaChannelFormatKindSignedNormalized8X4; break;
    case CU_AD_FORMAT_SNORM_INT16X1: bits = 16, n = 1, d.f = cudaChannelFormatKindSignedNormalized16X1; break;
    case CU_AD_FORMAT_SNORM_INT16X2: bits = 16, n = 2, d.f = cudaChannelFormatKindSignedNormalized16X2; break;
    case CU_AD_FORMAT_SNORM_INT16X4: bits = 16, n = 4, d.f = cudaChannelFormatKindSignedNormalized16X4; break;
    default: return d;
    }
    d.x = bits;
    d.y = n > 1 ? bits : 0;
    d.z = n > 2 ? bits : 0;
    d.w = n > 3 ? bits : 0;
    return d;
}

/* ---- arrays ---------------------------------------------------------------------- */

static cudaError_t array_create(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t w, size_t h,
                                size_t d, unsigned flags)
{
    if (!array || !desc) return cudaErrorInvalidValue;
    cudaError_t e = rt_begin();
    if (e) return e;
    CUDA_ARRAY3D_DESCRIPTOR ad;
    memset(&ad, 0, sizeof ad);
    if (!to_format(desc, &ad.Format, &ad.NumChannels)) return cudaErrorInvalidChannelDescriptor;
    ad.Width = w, ad.Height = h, ad.Depth = d;
    ad.Flags = flags;   /* cudaArray* flags are the driver's CUDA_ARRAY3D_* bits */
    CUarray a;
    CUresult r = cuArray3DCreate(&a, &ad);
    if (!r) *array = (cudaArray_t)a;
    return rt_err(r);
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned int flags)
{
    return rt_ret(array_create(array, desc, width, height, 0, flags));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned int flags)
{
    return rt_ret(array_create(array, desc, extent.width, extent.height, extent.depth, flags));
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!array) return cudaSuccess;
    return rt_ret(rt_err(cuArrayDestroy((CUarray)array)));
}

static cudaError_t array_info(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                              cudaArray_t array)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    CUDA_ARRAY3D_DESCRIPTOR ad;
    CUresult r = cuArray3DGetDescriptor(&ad, (CUarray)array);
    if (r) return r == CUDA_ERROR_INVALID_HANDLE ? cudaErrorInvalidResourceHandle : rt_err(r);
    if (desc) *desc = from_format(ad.Format, ad.NumChannels);
    if (extent) *extent = (struct cudaExtent){ad.Width, ad.Height, ad.Depth};
    if (flags) *flags = ad.Flags;
    return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array)
{
    return rt_ret(array_info(desc, extent, flags, array));
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    if (!desc) return rt_ret(cudaErrorInvalidValue);
    return rt_ret(array_info(desc, NULL, NULL, (cudaArray_t)(uintptr_t)array));
}

/* ---- mipmapped arrays (a cudaMipmappedArray_t is a CUmipmappedArray) --------------- */

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int numLevels, unsigned int flags)
{
    if (!mipmappedArray || !desc) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_ARRAY3D_DESCRIPTOR ad;
    memset(&ad, 0, sizeof ad);
    if (!to_format(desc, &ad.Format, &ad.NumChannels)) return rt_ret(cudaErrorInvalidChannelDescriptor);
    ad.Width = extent.width, ad.Height = extent.height, ad.Depth = extent.depth;
    ad.Flags = flags;
    CUmipmappedArray m;
    CUresult r = cuMipmappedArrayCreate(&m, &ad, numLevels);
    if (!r) *mipmappedArray = (cudaMipmappedArray_t)(void *)m;
    return rt_ret(rt_err(r));
}

cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUarray a;
    CUresult r = cuMipmappedArrayGetLevel(&a, (CUmipmappedArray)(uintptr_t)mipmappedArray, level);
    if (r == CUDA_ERROR_INVALID_HANDLE) return rt_ret(cudaErrorInvalidResourceHandle);
    if (!r) *levelArray = (cudaArray_t)a;
    return rt_ret(rt_err(r));
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!mipmappedArray) return cudaSuccess;
    return rt_ret(rt_err(cuMipmappedArrayDestroy((CUmipmappedArray)(void *)mipmappedArray)));
}

/* ---- texture and surface objects ---------------------------------------------------- */

static cudaError_t to_resource(const struct cudaResourceDesc *in, CUDA_RESOURCE_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->resType = (CUresourcetype)in->resType;
    out->flags = in->flags;
    switch (in->resType) {
    case cudaResourceTypeArray: out->res.array.hArray = (CUarray)in->res.array.array; return cudaSuccess;
    case cudaResourceTypeLinear:
        if (!to_format(&in->res.linear.desc, &out->res.linear.format, &out->res.linear.numChannels))
            return cudaErrorInvalidChannelDescriptor;
        out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        return cudaSuccess;
    case cudaResourceTypePitch2D:
        if (!to_format(&in->res.pitch2D.desc, &out->res.pitch2D.format, &out->res.pitch2D.numChannels))
            return cudaErrorInvalidChannelDescriptor;
        out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        return cudaSuccess;
    case cudaResourceTypeMipmappedArray:
        out->res.mipmap.hMipmappedArray = (CUmipmappedArray)(void *)in->res.mipmap.mipmap;
        return cudaSuccess;
    default: return cudaErrorInvalidValue;
    }
}

static void from_resource(const CUDA_RESOURCE_DESC *in, struct cudaResourceDesc *out)
{
    memset(out, 0, sizeof *out);
    out->resType = (enum cudaResourceType)in->resType;
    out->flags = in->flags;
    switch (in->resType) {
    case CU_RESOURCE_TYPE_ARRAY: out->res.array.array = (cudaArray_t)in->res.array.hArray; break;
    case CU_RESOURCE_TYPE_LINEAR:
        out->res.linear.devPtr = (void *)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.desc = from_format(in->res.linear.format, in->res.linear.numChannels);
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        break;
    case CU_RESOURCE_TYPE_PITCH2D:
        out->res.pitch2D.devPtr = (void *)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.desc = from_format(in->res.pitch2D.format, in->res.pitch2D.numChannels);
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        out->res.mipmap.mipmap = (cudaMipmappedArray_t)(void *)in->res.mipmap.hMipmappedArray;
        break;
    default: break;
    }
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc)
{
    if (!pTexObject || !pResDesc || !pTexDesc) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_RESOURCE_DESC rd;
    if ((e = to_resource(pResDesc, &rd))) return rt_ret(e);
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    for (int i = 0; i < 3; i++) td.addressMode[i] = (CUaddress_mode)pTexDesc->addressMode[i];
    td.filterMode = (CUfilter_mode)pTexDesc->filterMode;
    if (pTexDesc->readMode == cudaReadModeElementType) td.flags |= CU_TRSF_READ_AS_INTEGER;
    if (pTexDesc->normalizedCoords) td.flags |= CU_TRSF_NORMALIZED_COORDINATES;
    if (pTexDesc->sRGB) td.flags |= CU_TRSF_SRGB;
    if (pTexDesc->disableTrilinearOptimization) td.flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
    if (pTexDesc->seamlessCubemap) td.flags |= CU_TRSF_SEAMLESS_CUBEMAP;
    td.maxAnisotropy = pTexDesc->maxAnisotropy;
    td.mipmapFilterMode = (CUfilter_mode)pTexDesc->mipmapFilterMode;
    td.mipmapLevelBias = pTexDesc->mipmapLevelBias;
    td.minMipmapLevelClamp = pTexDesc->minMipmapLevelClamp;
    td.maxMipmapLevelClamp = pTexDesc->maxMipmapLevelClamp;
    memcpy(td.borderColor, pTexDesc->borderColor, sizeof td.borderColor);
    CUDA_RESOURCE_VIEW_DESC vd, *pvd = NULL;
    if (pResViewDesc) {
        memset(&vd, 0, sizeof vd);
        vd.format = (CUresourceViewFormat)pResViewDesc->format;
        vd.width = pResViewDesc->width, vd.height = pResViewDesc->height, vd.depth = pResViewDesc->depth;
        vd.firstMipmapLevel = pResViewDesc->firstMipmapLevel, vd.lastMipmapLevel = pResViewDesc->lastMipmapLevel;
        vd.firstLayer = pResViewDesc->firstLayer, vd.lastLayer = pResViewDesc->lastLayer;
        pvd = &vd;
    }
    return rt_ret(rt_err(cuTexObjectCreate(pTexObject, &rd, &td, pvd)));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!texObject) return cudaSuccess;
    return rt_ret(rt_err(cuTexObjectDestroy(texObject)));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)
{
    if (!pResDesc) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_RESOURCE_DESC rd;
    CUresult r = cuTexObjectGetResourceDesc(&rd, texObject);
    if (!r) from_resource(&rd, pResDesc);
    return rt_ret(rt_err(r));
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    if (!pTexDesc) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_TEXTURE_DESC td;
    CUresult r = cuTexObjectGetTextureDesc(&td, texObject);
    if (r) return rt_ret(rt_err(r));
    memset(pTexDesc, 0, sizeof *pTexDesc);
    for (int i = 0; i < 3; i++) pTexDesc->addressMode[i] = (enum cudaTextureAddressMode)td.addressMode[i];
    pTexDesc->filterMode = (enum cudaTextureFilterMode)td.filterMode;
    pTexDesc->readMode = td.flags & CU_TRSF_READ_AS_INTEGER ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
    pTexDesc->normalizedCoords = (td.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    pTexDesc->sRGB = (td.flags & CU_TRSF_SRGB) != 0;
    pTexDesc->disableTrilinearOptimization = (td.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
    pTexDesc->seamlessCubemap = (td.flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
    pTexDesc->maxAnisotropy = td.maxAnisotropy;
    pTexDesc->mipmapFilterMode = (enum cudaTextureFilterMode)td.mipmapFilterMode;
    pTexDesc->mipmapLevelBias = td.mipmapLevelBias;
    pTexDesc->minMipmapLevelClamp = td.minMipmapLevelClamp;
    pTexDesc->maxMipmapLevelClamp = td.maxMipmapLevelClamp;
    memcpy(pTexDesc->borderColor, td.borderColor, sizeof td.borderColor);
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                 cudaTextureObject_t texObject)
{
    if (!pResViewDesc) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_RESOURCE_VIEW_DESC vd;
    CUresult r = cuTexObjectGetResourceViewDesc(&vd, texObject);
    if (r) return rt_ret(rt_err(r));
    memset(pResViewDesc, 0, sizeof *pResViewDesc);
    pResViewDesc->format = (enum cudaResourceViewFormat)vd.format;
    pResViewDesc->width = vd.width, pResViewDesc->height = vd.height, pResViewDesc->depth = vd.depth;
    pResViewDesc->firstMipmapLevel = vd.firstMipmapLevel, pResViewDesc->lastMipmapLevel = vd.lastMipmapLevel;
    pResViewDesc->firstLayer = vd.firstLayer, pResViewDesc->lastLayer = vd.lastLayer;
    return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    if (!pSurfObject || !pResDesc) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_RESOURCE_DESC rd;
    if ((e = to_resource(pResDesc, &rd))) return rt_ret(e);
    return rt_ret(rt_err(cuSurfObjectCreate(pSurfObject, &rd)));
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    if (!surfObject) return cudaSuccess;
    return rt_ret(rt_err(cuSurfObjectDestroy(surfObject)));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)
{
    if (!pResDesc) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUDA_RESOURCE_DESC rd;
    CUresult r = cuSurfObjectGetResourceDesc(&rd, surfObject);
    if (!r) from_resource(&rd, pResDesc);
    return rt_ret(rt_err(r));
}
