/* texture.c -- CUDA arrays, texture objects and surface objects.
**
** A CUDA array is device memory in pitch-linear layout: rows of Width
** elements, tightly packed (pitch = Width * element size), Height rows per
** slice, Depth slices.  (A GPU keeps arrays in an opaque tiled layout; only
** the copy calls and the texture unit see it, so a linear layout gives the
** same results.)  1D, 2D and 3D arrays are supported, and layered and
** cubemap arrays: their Depth counts the layers (a 1D layered array has
** Height 0 and rows of one element's height), a cubemap's 6 faces (6 per
** layer for a layered cubemap) are slices in the order +x, -x, +y, -y, +z,
** -z.  A mipmapped array is one array per level, each level allocated on
** its own (max(1, extent >> level); layers and faces keep their count).
** Sparse, deferred-mapping and video arrays are not supported.
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
    api_alloc *m = tp_map_getp(&api_g.allocs, a->addr);
    if (m) api_alloc_release(m);
    if (a->owner) {   /* a level: its mipmapped array forgets it */
        for (uint32_t i = 0; i < a->owner->nlevels; i++)
            if (a->owner->level[i] == a) a->owner->level[i] = NULL;
    }
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
    if (d->Flags & (CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)) {
        api_msg("cuArray3DCreate: sparse, deferred-mapping and video arrays are not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    bool layered = d->Flags & CUDA_ARRAY3D_LAYERED, cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;
    uint64_t w = d->Width, h = d->Height ? d->Height : 1, z = d->Depth ? d->Depth : 1;
    if (d->Width == 0) return CUDA_ERROR_INVALID_VALUE;
    if (cube) {
        /* (W,W,6) or, layered, (W,W,6*layers) */
        if (d->Height != d->Width || d->Depth == 0 || d->Depth % 6 || (!layered && d->Depth != 6))
            return CUDA_ERROR_INVALID_VALUE;
        if (w > 32768 || z > 6 * 2046) return CUDA_ERROR_INVALID_VALUE;   /* the limits device.c reports */
    } else if (layered) {
        /* (W,0,layers) 1D layered, (W,H,layers) 2D layered */
        if (d->Depth == 0 || w > 32768 || h > 32768 || z > 2048) return CUDA_ERROR_INVALID_VALUE;
    } else {
        /* valid shapes: (W,0,0) 1D, (W,H,0) 2D, (W,H,D) 3D */
        if (d->Height == 0 && d->Depth != 0) return CUDA_ERROR_INVALID_VALUE;
        /* the texture size limits device.c reports */
        if (w > (d->Depth ? 16384u : 131072u) || h > (d->Depth ? 16384u : 65536u) || z > 16384)
            return CUDA_ERROR_INVALID_VALUE;
    }
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
    if (a->owner) {
        api_why("the array is level of a mipmapped array: cuMipmappedArrayDestroy frees it");
        return CUDA_ERROR_INVALID_VALUE;
    }
    array_destroy(a);
    return CUDA_SUCCESS;
}

CUresult cuArrayDestroy(CUarray hArray) { API_LOCKED(array_free(hArray)); }

/* ---- mipmapped arrays ------------------------------------------------------------ */

static void mipmap_destroy(api_mipmap *mm)
{
    api_ctx *c = mm->ctx;
    for (uint32_t i = 0; i < mm->nlevels; i++)
        if (mm->level[i]) {
            mm->level[i]->owner = NULL;
            array_destroy(mm->level[i]);
        }
    if (mm->prev) mm->prev->next = mm->next;
    else c->mipmaps = mm->next;
    if (mm->next) mm->next->prev = mm->prev;
    api_handle_del(mm);
    free(mm);
}

static CUresult mipmap_arg(CUmipmappedArray h, api_mipmap **mm)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_MIPMAP) || h->ctx->dead) return CUDA_ERROR_INVALID_HANDLE;
    *mm = h;
    return CUDA_SUCCESS;
}

static CUresult mipmap_create(CUmipmappedArray *out, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned n)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!out || !d || n == 0) return CUDA_ERROR_INVALID_VALUE;
    /* a level past the one where every extent is 1 is not allowed */
    bool keep = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    uint64_t big = d->Width;
    if (d->Height > big) big = d->Height;
    if (!keep && d->Depth > big) big = d->Depth;
    unsigned most = 1;
    while (big >> most) most++;
    if (n > most || n > EXEC_TEX_MAX_LEVELS) return CUDA_ERROR_INVALID_VALUE;
    api_mipmap *mm = tp_calloc(1, sizeof *mm);
    mm->ctx = c;
    mm->desc = *d;
    for (unsigned l = 0; l < n; l++) {
        CUDA_ARRAY3D_DESCRIPTOR ld = *d;
        ld.Width = d->Width >> l ? d->Width >> l : 1;
        if (d->Height) ld.Height = d->Height >> l ? d->Height >> l : 1;
        if (d->Depth && !keep) ld.Depth = d->Depth >> l ? d->Depth >> l : 1;
        CUarray a;
        if ((r = array_create(&a, &ld))) {
            mm->nlevels = l;
            mipmap_destroy(mm);
            return r;
        }
        a->owner = mm;
        mm->level[l] = a;
    }
    mm->nlevels = n;
    mm->next = c->mipmaps;
    if (c->mipmaps) c->mipmaps->prev = mm;
    c->mipmaps = mm;
    api_handle_add(mm, API_K_MIPMAP);
    *out = mm;
    return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                unsigned int numMipmapLevels)
{
    API_LOCKED(mipmap_create(pHandle, pMipmappedArrayDesc, numMipmapLevels));
}

static CUresult mipmap_level(CUarray *out, CUmipmappedArray h, unsigned l)
{
    api_mipmap *mm;
    CUresult r = mipmap_arg(h, &mm);
    if (r) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    if (l >= mm->nlevels || !mm->level[l]) {
        api_why("level %u of a mipmapped array of %u levels", l, mm->nlevels);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *out = mm->level[l];
    return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray, unsigned int level)
{
    API_LOCKED(mipmap_level(pLevelArray, hMipmappedArray, level));
}

static CUresult mipmap_free(CUmipmappedArray h)
{
    api_mipmap *mm;
    CUresult r = mipmap_arg(h, &mm);
    if (r) return r;
    mipmap_destroy(mm);
    return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray) { API_LOCKED(mipmap_free(hMipmappedArray)); }

/* ---- texture and surface objects ------------------------------------------------ */

/* The shape of an array as an exec_texdesc. */
static void array_shape(const api_array *a, exec_texdesc *t)
{
    const CUDA_ARRAY3D_DESCRIPTOR *d = &a->desc;
    t->addr = a->addr;
    t->layered = d->Flags & CUDA_ARRAY3D_LAYERED;
    t->cubemap = d->Flags & CUDA_ARRAY3D_CUBEMAP;
    t->dims = t->cubemap ? 2 : t->layered ? (d->Height ? 2 : 1) : d->Depth ? 3 : d->Height ? 2 : 1;
    t->width = (uint32_t)d->Width;
    t->height = d->Height ? (uint32_t)d->Height : 1;
    t->depth = d->Depth ? (uint32_t)d->Depth : 1;
    t->pitch = a->pitch;
}

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
        array_shape(a, t);
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
        api_mipmap *mm;
        if (mipmap_arg(rd->res.mipmap.hMipmappedArray, &mm)) return CUDA_ERROR_INVALID_HANDLE;
        if (surface) return CUDA_ERROR_INVALID_VALUE;   /* surfaces take one level */
        for (uint32_t l = 0; l < mm->nlevels; l++)
            if (!mm->level[l]) return CUDA_ERROR_INVALID_HANDLE;
        if (!element_of(mm->desc.Format, mm->desc.NumChannels, fi, &elem)) return CUDA_ERROR_INVALID_VALUE;
        array_shape(mm->level[0], t);
        t->levels = mm->nlevels;
        for (uint32_t l = 0; l < mm->nlevels; l++) t->level_addr[l] = mm->level[l]->addr;
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
        if (td->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR) return CUDA_ERROR_INVALID_VALUE;
        t.mip_linear = td->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR;
        t.lod_bias = td->mipmapLevelBias;
        t.min_lod = td->minMipmapLevelClamp;
        t.max_lod = td->maxMipmapLevelClamp;
        t.max_aniso = td->maxAnisotropy;
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
    tp_map_putp(&c->texobjs, hnd, o);
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
    api_texobj *x = h ? tp_map_getp(&c->texobjs, h) : NULL;
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
    tp_map_delp(&o->ctx->texobjs, h);
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
    uint64_t h, o;
    for (uint32_t pos = 0; tp_map_next(&c->texobjs, &pos, &h, &o);) {
        api_dev_lock();
        exec_tex_destroy(api_g.dev, h);
        api_dev_unlock();
        free((void *)(uintptr_t)o);
    }
    tp_map_free(&c->texobjs);
    while (c->mipmaps) mipmap_destroy(c->mipmaps);
    while (c->arrays) array_destroy(c->arrays);
}
