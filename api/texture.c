/* texture.c -- CUDA arrays, texture objects and surface objects.
**
** A CUDA array is device memory in pitch-linear layout: rows of Width
** elements, tightly packed (pitch = Width * element size), Height rows per
** slice, Depth slices.  (A GPU keeps arrays in an opaque tiled layout; only
** the copy calls and the texture unit see it, so a linear layout gives the
** same results.)  1D, 2D and 3D arrays are supported; layered, cubemap,
** sparse and deferred-mapping arrays are not.
**
** A texture or surface object is an exec/ handle (exec_tex_create) that
** describes its memory as an exec_texdesc; the api keeps the descriptors it
** was created from (for the Get*Desc calls) and its context, which destroys
** it with everything else it owns.
*/
#include "api.h"
#include <stdlib.h>

typedef struct api_texobj {
    api_ctx *ctx;
    bool surface;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
    CUDA_RESOURCE_VIEW_DESC view;
} api_texobj;

/* ---- formats ------------------------------------------------------------------ */

typedef struct fmt_info {
    exec_texfmt fmt;
    uint32_t bits;       /* per channel */
    uint32_t channels;   /* 0: from NumChannels */
    bool normalized;     /* always read as normalized floats (UNORM/SNORM formats) */
} fmt_info;

static bool format_info(CUarray_format f, fmt_info *i)
{
    memset(i, 0, sizeof *i);
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: *i = (fmt_info){EXEC_TEX_UNSIGNED, 8, 0, false}; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: *i = (fmt_info){EXEC_TEX_UNSIGNED, 16, 0, false}; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: *i = (fmt_info){EXEC_TEX_UNSIGNED, 32, 0, false}; break;
    case CU_AD_FORMAT_SIGNED_INT8: *i = (fmt_info){EXEC_TEX_SIGNED, 8, 0, false}; break;
    case CU_AD_FORMAT_SIGNED_INT16: *i = (fmt_info){EXEC_TEX_SIGNED, 16, 0, false}; break;
    case CU_AD_FORMAT_SIGNED_INT32: *i = (fmt_info){EXEC_TEX_SIGNED, 32, 0, false}; break;
    case CU_AD_FORMAT_HALF: *i = (fmt_info){EXEC_TEX_FLOAT, 16, 0, false}; break;
    case CU_AD_FORMAT_FLOAT: *i = (fmt_info){EXEC_TEX_FLOAT, 32, 0, false}; break;
    case CU_AD_FORMAT_UNORM_INT8X1: *i = (fmt_info){EXEC_TEX_UNSIGNED, 8, 1, true}; break;
    case CU_AD_FORMAT_UNORM_INT8X2: *i = (fmt_info){EXEC_TEX_UNSIGNED, 8, 2, true}; break;
    case CU_AD_FORMAT_UNORM_INT8X4: *i = (fmt_info){EXEC_TEX_UNSIGNED, 8, 4, true}; break;
    case CU_AD_FORMAT_UNORM_INT16X1: *i = (fmt_info){EXEC_TEX_UNSIGNED, 16, 1, true}; break;
    case CU_AD_FORMAT_UNORM_INT16X2: *i = (fmt_info){EXEC_TEX_UNSIGNED, 16, 2, true}; break;
    case CU_AD_FORMAT_UNORM_INT16X4: *i = (fmt_info){EXEC_TEX_UNSIGNED, 16, 4, true}; break;
    case CU_AD_FORMAT_SNORM_INT8X1: *i = (fmt_info){EXEC_TEX_SIGNED, 8, 1, true}; break;
    case CU_AD_FORMAT_SNORM_INT8X2: *i = (fmt_info){EXEC_TEX_SIGNED, 8, 2, true}; break;
    case CU_AD_FORMAT_SNORM_INT8X4: *i = (fmt_info){EXEC_TEX_SIGNED, 8, 4, true}; break;
    case CU_AD_FORMAT_SNORM_INT16X1: *i = (fmt_info){EXEC_TEX_SIGNED, 16, 1, true}; break;
    case CU_AD_FORMAT_SNORM_INT16X2: *i = (fmt_info){EXEC_TEX_SIGNED, 16, 2, true}; break;
    case CU_AD_FORMAT_SNORM_INT16X4: *i = (fmt_info){EXEC_TEX_SIGNED, 16, 4, true}; break;
    default: return false;
    }
    return true;
}

/* Channels and bytes per element of a format with n channels; false if the
** combination is not one CUDA allows. */
static bool element_of(CUarray_format f, unsigned n, fmt_info *fi, uint32_t *elem)
{
    if (!format_info(f, fi)) return false;
    if (fi->channels) {
        if (n != fi->channels && n != 0) return false;   /* the format fixes the count */
    } else {
        if (n != 1 && n != 2 && n != 4) return false;
        fi->channels = n;
    }
    *elem = fi->channels * fi->bits / 8;
    return true;
}

/* ---- arrays ------------------------------------------------------------------ */

CUresult api_array_arg(CUarray h, api_array **a)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_ARRAY) || h->ctx->dead) return CUDA_ERROR_INVALID_HANDLE;
    *a = h;
    return CUDA_SUCCESS;
}

static void array_destroy(api_array *a)
{
    api_ctx *c = a->ctx;
    api_drain(c);   /* pending work may use it */
    if (a->prev) a->prev->next = a->next;
    else c->arrays = a->next;
    if (a->next) a->next->prev = a->prev;
    api_alloc *m = api_map_get(&api_g.allocs, a->addr);
    if (m) api_alloc_release(m);
    api_handle_del(a);
    free(a);
}

/* Creates an array: d->Height 0 is a 1D array, d->Depth 0 a 1D or 2D one. */
static CUresult array_create(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!out || !d) return CUDA_ERROR_INVALID_VALUE;
    fmt_info fi;
    uint32_t elem;
    if (!element_of(d->Format, d->NumChannels, &fi, &elem)) return CUDA_ERROR_INVALID_VALUE;
    const unsigned known = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
                           CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT |
                           CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;
    if (d->Flags & ~known) return CUDA_ERROR_INVALID_VALUE;
    if (d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING |
                    CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)) {
        api_msg("cuArray3DCreate: layered, cubemap, sparse, deferred-mapping and video arrays are not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    /* valid shapes: (W,0,0) 1D, (W,H,0) 2D, (W,H,D) 3D */
    if (d->Width == 0 || (d->Height == 0 && d->Depth != 0)) return CUDA_ERROR_INVALID_VALUE;
    uint64_t w = d->Width, h = d->Height ? d->Height : 1, z = d->Depth ? d->Depth : 1;
    /* the texture size limits device.c reports */
    if (w > (d->Depth ? 16384u : 131072u) || h > (d->Depth ? 16384u : 65536u) || z > 16384) return CUDA_ERROR_INVALID_VALUE;
    uint64_t pitch = w * elem, bytes = pitch * h * z;
    uint64_t addr;
    if ((r = api_alloc_new(c, bytes, API_MEM_ARRAY, 0, &addr))) return r;
    api_array *a = tp_calloc(1, sizeof *a);
    a->ctx = c;
    a->desc = *d;
    if (fi.channels != d->NumChannels) a->desc.NumChannels = fi.channels;
    a->addr = addr;
    a->pitch = pitch;
    a->elem = elem;
    a->next = c->arrays;
    if (c->arrays) c->arrays->prev = a;
    c->arrays = a;
    api_handle_add(a, API_K_ARRAY);
    *out = a;
    return CUDA_SUCCESS;
}

CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
    API_LOCKED(array_create(pHandle, pAllocateArray));
}

static CUresult array_create_2d(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *d)
{
    if (!d) return api_check_init() ? api_check_init() : CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d3 = {d->Width, d->Height, 0, d->Format, d->NumChannels, 0};
    return array_create(out, &d3);
}

CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
    API_LOCKED(array_create_2d(pHandle, pAllocateArray));
}

static CUresult array_get(CUDA_ARRAY3D_DESCRIPTOR *d3, CUDA_ARRAY_DESCRIPTOR *d2, CUarray h)
{
    api_array *a;
    CUresult r = api_array_arg(h, &a);
    if (r) return r;
    if (d3) {
        *d3 = a->desc;
        return CUDA_SUCCESS;
    }
    if (!d2) return CUDA_ERROR_INVALID_VALUE;
    if (a->desc.Depth) return CUDA_ERROR_INVALID_VALUE;   /* a 3D array: cuArray3DGetDescriptor */
    d2->Width = a->desc.Width;
    d2->Height = a->desc.Height;
    d2->Format = a->desc.Format;
    d2->NumChannels = a->desc.NumChannels;
    return CUDA_SUCCESS;
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    if (!pArrayDescriptor) return api_g.initialized ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
    API_LOCKED(array_get(pArrayDescriptor, NULL, hArray));
}

CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    API_LOCKED(array_get(NULL, pArrayDescriptor, hArray));
}

static CUresult array_free(CUarray h)
{
    api_array *a;
    CUresult r = api_array_arg(h, &a);
    if (r) return r;
    array_destroy(a);
    return CUDA_SUCCESS;
}

CUresult cuArrayDestroy(CUarray hArray) { API_LOCKED(array_free(hArray)); }

/* ---- texture and surface objects ------------------------------------------------ */

/* The memory a resource describes, as an exec_texdesc (format and shape only). */
static CUresult resource_desc(const CUDA_RESOURCE_DESC *rd, bool surface, exec_texdesc *t, fmt_info *fi)
{
    memset(t, 0, sizeof *t);
    uint32_t elem;
    if (rd->flags != 0) return CUDA_ERROR_INVALID_VALUE;
    switch (rd->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        api_array *a;
        if (api_array_arg(rd->res.array.hArray, &a)) return CUDA_ERROR_INVALID_HANDLE;
        if (surface && !(a->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST)) return CUDA_ERROR_INVALID_VALUE;
        if (!element_of(a->desc.Format, a->desc.NumChannels, fi, &elem)) return CUDA_ERROR_INVALID_VALUE;
        t->addr = a->addr;
        t->dims = a->desc.Depth ? 3 : a->desc.Height ? 2 : 1;
        t->width = (uint32_t)a->desc.Width;
        t->height = a->desc.Height ? (uint32_t)a->desc.Height : 1;
        t->depth = a->desc.Depth ? (uint32_t)a->desc.Depth : 1;
        t->pitch = a->pitch;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_LINEAR: {
        if (surface) return CUDA_ERROR_INVALID_VALUE;   /* surfaces need an array */
        const uint64_t p = rd->res.linear.devPtr, n = rd->res.linear.sizeInBytes;
        if (!element_of(rd->res.linear.format, rd->res.linear.numChannels, fi, &elem)) return CUDA_ERROR_INVALID_VALUE;
        if (p == 0 || p % (uint64_t)512 || n < elem) return CUDA_ERROR_INVALID_VALUE;
        if (n / elem > 268435456u || !api_range_host(p, n)) return CUDA_ERROR_INVALID_VALUE;
        t->addr = p;
        t->dims = 1;
        t->width = (uint32_t)(n / elem);
        t->height = t->depth = 1;
        t->pitch = n;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
        if (surface) return CUDA_ERROR_INVALID_VALUE;
        const uint64_t p = rd->res.pitch2D.devPtr, w = rd->res.pitch2D.width, h = rd->res.pitch2D.height,
                       pitch = rd->res.pitch2D.pitchInBytes;
        if (!element_of(rd->res.pitch2D.format, rd->res.pitch2D.numChannels, fi, &elem)) return CUDA_ERROR_INVALID_VALUE;
        if (p == 0 || p % 512 || w == 0 || h == 0 || pitch % 32 || pitch < w * elem) return CUDA_ERROR_INVALID_VALUE;
        if (w > 131072 || h > 65000 || pitch > 2097120) return CUDA_ERROR_INVALID_VALUE;
        if (!api_range_host(p, (h - 1) * pitch + w * elem)) return CUDA_ERROR_INVALID_VALUE;
        t->addr = p;
        t->dims = 2;
        t->width = (uint32_t)w;
        t->height = (uint32_t)h;
        t->depth = 1;
        t->pitch = pitch;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        api_msg("texture objects on mipmapped arrays are not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

static exec_texaddr address_mode(CUaddress_mode m, bool normalized)
{
    switch (m) {
    /* without normalized coordinates the hardware clamps instead of
    ** wrapping or mirroring */
    case CU_TR_ADDRESS_MODE_WRAP: return normalized ? EXEC_TEX_WRAP : EXEC_TEX_CLAMP;
    case CU_TR_ADDRESS_MODE_MIRROR: return normalized ? EXEC_TEX_MIRROR : EXEC_TEX_CLAMP;
    case CU_TR_ADDRESS_MODE_BORDER: return EXEC_TEX_BORDER;
    default: return EXEC_TEX_CLAMP;
    }
}

static CUresult object_create(unsigned long long *out, const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *td,
                              const CUDA_RESOURCE_VIEW_DESC *vd, bool surface)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!out || !rd || (!surface && !td)) return CUDA_ERROR_INVALID_VALUE;
    exec_texdesc t;
    fmt_info fi;
    if ((r = resource_desc(rd, surface, &t, &fi))) return r;
    t.channels = fi.channels;
    t.channel_bits = fi.bits;
    t.fmt = fi.fmt;
    if (vd && vd->format != CU_RES_VIEW_FORMAT_NONE) {
        api_msg("cuTexObjectCreate: resource views are not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (!surface) {
        if (td->addressMode[0] > CU_TR_ADDRESS_MODE_BORDER || td->addressMode[1] > CU_TR_ADDRESS_MODE_BORDER ||
            td->addressMode[2] > CU_TR_ADDRESS_MODE_BORDER || td->filterMode > CU_TR_FILTER_MODE_LINEAR)
            return CUDA_ERROR_INVALID_VALUE;
        t.normalized_coords = (td->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
        /* 8- and 16-bit integers are read as normalized floats unless
        ** CU_TRSF_READ_AS_INTEGER; 32-bit integers never are */
        t.read_normalized = fi.normalized ||
                            (fi.fmt != EXEC_TEX_FLOAT && fi.bits < 32 && !(td->flags & CU_TRSF_READ_AS_INTEGER));
        t.linear_filter = td->filterMode == CU_TR_FILTER_MODE_LINEAR && rd->resType != CU_RESOURCE_TYPE_LINEAR;
        for (int i = 0; i < 3; i++)
            t.addr_mode[i] = rd->resType == CU_RESOURCE_TYPE_LINEAR ? EXEC_TEX_CLAMP
                                                                    : address_mode(td->addressMode[i], t.normalized_coords);
        memcpy(t.border, td->borderColor, sizeof t.border);
    } else {
        for (int i = 0; i < 3; i++) t.addr_mode[i] = EXEC_TEX_CLAMP;
    }
    api_dev_lock();
    uint64_t hnd = exec_tex_create(api_g.dev, &t, surface);
    api_dev_unlock();
    api_texobj *o = tp_calloc(1, sizeof *o);
    o->ctx = c;
    o->surface = surface;
    o->res = *rd;
    if (td) o->tex = *td;
    if (vd) o->view = *vd;
    api_map_put(&c->texobjs, hnd, o);
    *out = hnd;
    return CUDA_SUCCESS;
}

CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc, const CUDA_TEXTURE_DESC *pTexDesc,
                           const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    API_LOCKED(object_create(pTexObject, pResDesc, pTexDesc, pResViewDesc, false));
}

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
    API_LOCKED(object_create(pSurfObject, pResDesc, NULL, NULL, true));
}

/* The object h (of the current context) of the given kind. */
static CUresult object_arg(uint64_t h, bool surface, api_texobj **o)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    api_texobj *x = h ? api_map_get(&c->texobjs, h) : NULL;
    if (!x || x->surface != surface) return CUDA_ERROR_INVALID_VALUE;
    *o = x;
    return CUDA_SUCCESS;
}

static CUresult object_destroy(uint64_t h, bool surface)
{
    api_texobj *o;
    CUresult r = object_arg(h, surface, &o);
    if (r) return r;
    api_drain(o->ctx);   /* pending kernels may read it */
    api_map_del(&o->ctx->texobjs, h);
    api_dev_lock();
    exec_tex_destroy(api_g.dev, h);
    api_dev_unlock();
    free(o);
    return CUDA_SUCCESS;
}

CUresult cuTexObjectDestroy(CUtexObject texObject) { API_LOCKED(object_destroy(texObject, false)); }
CUresult cuSurfObjectDestroy(CUsurfObject surfObject) { API_LOCKED(object_destroy(surfObject, true)); }

/* Copies one of the descriptors an object was created from: 0 resource,
** 1 texture, 2 resource view. */
static CUresult object_get(void *out, uint64_t h, bool surface, int which)
{
    api_texobj *o;
    CUresult r = object_arg(h, surface, &o);
    if (r) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    if (which == 0) memcpy(out, &o->res, sizeof o->res);
    else if (which == 1) memcpy(out, &o->tex, sizeof o->tex);
    else memcpy(out, &o->view, sizeof o->view);
    return CUDA_SUCCESS;
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
    API_LOCKED(object_get(pResDesc, texObject, false, 0));
}
CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
    API_LOCKED(object_get(pTexDesc, texObject, false, 1));
}
CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc, CUtexObject texObject)
{
    API_LOCKED(object_get(pResViewDesc, texObject, false, 2));
}
CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
    API_LOCKED(object_get(pResDesc, surfObject, true, 0));
}

void api_tex_free_ctx(api_ctx *c)
{
    api_map *m = &c->texobjs;
    for (uint32_t i = 0; i < m->cap; i++) {
        if (!m->vals[i]) continue;
        api_dev_lock();
        exec_tex_destroy(api_g.dev, m->keys[i]);
        api_dev_unlock();
        free(m->vals[i]);
    }
    api_map_free(m);
    while (c->arrays) array_destroy(c->arrays);
}
