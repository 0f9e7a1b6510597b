/* memory.c -- allocations, copies, memsets, pointer attributes, and the
** index of device memory the API checks ranges against.
**
** Every allocation -- device, page-locked host (cuMemAllocHost,
** cuMemHostAlloc) and managed -- comes from the simulated device's memory,
** which is identity-mapped into the process: a device address is also a
** valid host address, so host allocations are device-accessible at the same
** address (CU_MEMHOSTALLOC_DEVICEMAP always holds) and the host reads
** managed memory directly.  All three come out of device.global_mem, so
** cuMemGetInfo counts page-locked and managed allocations too.  The api
** keeps one record per allocation for the checks CUDA makes (which call may
** free it, its context, its flags).
**
** Copies and memsets are checked when they are issued and run on the device
** in stream order (queue.c); the synchronous forms issue on the legacy
** stream and wait.  A device range must lie inside one live allocation (a
** module's .global or .const variables count); otherwise the call returns
** CUDA_ERROR_INVALID_VALUE, as the driver does for a bad device pointer.
** The checks read the API's own index of device memory (api_range_*),
** never exec/'s table, which the device thread changes while a kernel
** mallocs; freeing memory first waits for the device to finish with it,
** as cuMemFree does.
*/
#include "api.h"
#include <stdlib.h>

/* Row pitch granularity of cuMemAllocPitch. */
#define API_PITCH_ALIGN 512
#define API_ALLOC_ALIGN 256

/* ---- the index ----------------------------------------------------------------- */

static uint32_t range_upper(uint64_t addr)
{
    uint32_t lo = 0, hi = api_g.nranges;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (api_g.ranges[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void api_range_add(uint64_t base, uint64_t size, api_alloc *a)
{
    if (api_g.nranges == api_g.capranges) {
        api_g.capranges = api_g.capranges ? 2 * api_g.capranges : 64;
        api_g.ranges = tp_realloc(api_g.ranges, api_g.capranges * sizeof *api_g.ranges);
    }
    uint32_t i = range_upper(base);
    memmove(&api_g.ranges[i + 1], &api_g.ranges[i], (api_g.nranges - i) * sizeof *api_g.ranges);
    api_g.ranges[i] = (api_range){base, size, a};
    api_g.nranges++;
}

void api_range_del(uint64_t base)
{
    uint32_t i = range_upper(base);
    if (i == 0 || api_g.ranges[i - 1].base != base) return;
    memmove(&api_g.ranges[i - 1], &api_g.ranges[i], (api_g.nranges - i) * sizeof *api_g.ranges);
    api_g.nranges--;
}

const api_range *api_range_find(uint64_t addr)
{
    uint32_t i = range_upper(addr);
    if (i == 0) return NULL;
    const api_range *r = &api_g.ranges[i - 1];
    uint64_t len = r->size ? r->size : 1;
    return addr - r->base < len ? r : NULL;
}

void *api_range_host(uint64_t addr, uint64_t n)
{
    if (n == 0 || addr + n < addr) return NULL;
    const api_range *r = api_range_find(addr);
    if (!r || addr - r->base >= r->size || n > r->size - (addr - r->base)) return NULL;
    return (void *)(uintptr_t)addr;
}

api_alloc *api_alloc_find(uint64_t addr)
{
    const api_range *r = api_range_find(addr);
    return r ? r->a : NULL;
}

CUresult api_alloc_new(api_ctx *c, uint64_t bytes, api_mem_kind kind, unsigned flags, uint64_t *out)
{
    api_dev_lock();
    uint64_t a = exec_mem_alloc(api_g.dev, bytes, API_ALLOC_ALIGN);
    api_dev_unlock();
    if (!a) {
        uint64_t f = 0, t = 0;
        api_dev_lock();
        exec_mem_info(api_g.dev, &f, &t);
        api_dev_unlock();
        api_why("%llu bytes requested; %llu of the device's %llu are free (device.global_mem)",
                (unsigned long long)bytes, (unsigned long long)f, (unsigned long long)t);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    api_alloc *r = tp_calloc(1, sizeof *r);
    r->base = a;
    r->size = bytes;
    r->kind = kind;
    r->flags = flags;
    r->id = api_g.next_id++;
    r->ctx = c;
    tp_map_putp(&api_g.allocs, a, r);
    api_range_add(a, bytes, r);
    if (kind == API_MEM_DEVICE) exec_check_track(api_g.dev, a);   /* initcheck: device-only memory */
    *out = a;
    return CUDA_SUCCESS;
}

void api_alloc_release(api_alloc *r)
{
    tp_map_delp(&api_g.allocs, r->base);
    api_range_del(r->base);
    api_dev_lock();
    if (r->kind == API_MEM_REGISTERED) exec_mem_unregister(api_g.dev, r->base);
    else exec_mem_free(api_g.dev, r->base);
    api_dev_unlock();
    free(r);
}

void api_alloc_free_ctx(api_ctx *c)
{
    for (bool again = true; again;) {
        again = false;
        uint64_t v;
        for (uint32_t pos = 0; tp_map_next(&api_g.allocs, &pos, NULL, &v);) {
            api_alloc *r = (api_alloc *)(uintptr_t)v;
            if (r->ctx == c) {
                api_alloc_release(r);   /* deletion moves entries: scan again */
                again = true;
            }
        }
    }
}

/* ---- allocation entry points ----------------------------------------------- */

static CUresult mem_alloc(CUdeviceptr *dptr, size_t bytes, api_mem_kind kind, unsigned flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!dptr || bytes == 0) {
        api_why(!dptr ? "the pointer to return the allocation in is NULL" : "an allocation of 0 bytes");
        return CUDA_ERROR_INVALID_VALUE;
    }
    uint64_t a;
    if ((r = api_alloc_new(c, bytes, kind, flags, &a))) return r;
    *dptr = a;
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize) { API_LOCKED(mem_alloc(dptr, bytesize, API_MEM_DEVICE, 0)); }

static CUresult alloc_managed(CUdeviceptr *dptr, size_t bytes, unsigned flags)
{
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) {
        api_ctx *c;
        CUresult r = api_current(&c, true);
        return r ? r : CUDA_ERROR_INVALID_VALUE;
    }
    return mem_alloc(dptr, bytes, API_MEM_MANAGED, flags);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    API_LOCKED(alloc_managed(dptr, bytesize, flags));
}

static CUresult alloc_pitch(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned elem)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!dptr || !pitch || width == 0 || height == 0) return CUDA_ERROR_INVALID_VALUE;
    if (elem != 4 && elem != 8 && elem != 16) return CUDA_ERROR_INVALID_VALUE;
    uint64_t p = TP_ALIGN_UP((uint64_t)width, API_PITCH_ALIGN);
    if (p < width || (uint64_t)height > UINT64_MAX / p) return CUDA_ERROR_OUT_OF_MEMORY;
    uint64_t a;
    if ((r = api_alloc_new(c, p * height, API_MEM_DEVICE, 0, &a))) return r;
    *dptr = a;
    *pitch = (size_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes)
{
    API_LOCKED(alloc_pitch(dptr, pPitch, WidthInBytes, Height, ElementSizeBytes));
}

/* Freeing 0 succeeds and does nothing, as cudaFree(NULL) does.  Like
** cudaFree it waits for the device first (the memory may be in use). */
static CUresult mem_free(CUdeviceptr dptr)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (dptr == 0) return CUDA_SUCCESS;
    api_alloc *a = tp_map_getp(&api_g.allocs, dptr);
    if (a && (a->kind == API_MEM_POOL || a->kind == API_MEM_GRAPH)) {
        /* stream-ordered or graph memory: as cuMemFreeAsync on the legacy stream, then wait */
        if ((r = api_free_async(c, NULL, a))) return r;
        return api_wait_ctx(c);
    }
    if (!a || (a->kind != API_MEM_DEVICE && a->kind != API_MEM_MANAGED)) {
        api_alloc *in = api_alloc_find(dptr);
        if (a) api_why("0x%llx is page-locked host memory or an array's, not a device allocation",
                       (unsigned long long)dptr);
        else if (in) api_why("0x%llx is inside the allocation at 0x%llx, not its start", (unsigned long long)dptr,
                             (unsigned long long)in->base);
        else api_why("0x%llx is not an allocation (never allocated, or already freed)", (unsigned long long)dptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    api_drain(NULL);
    api_alloc_release(a);
    return api_ctx_result(c, api_g.next_seq);
}

CUresult cuMemFree_v2(CUdeviceptr dptr) { API_LOCKED(mem_free(dptr)); }

static CUresult host_alloc(void **pp, size_t bytes, unsigned flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!pp || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED))
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t a;
    if ((r = api_alloc_new(c, bytes, API_MEM_HOST, flags, &a))) return r;
    *pp = (void *)(uintptr_t)a;
    return CUDA_SUCCESS;
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) { API_LOCKED(host_alloc(pp, bytesize, Flags)); }

/* With unified addressing every page-locked allocation is portable and mapped. */
CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    API_LOCKED(host_alloc(pp, bytesize, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
}

static CUresult free_host(void *p)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    api_alloc *a = tp_map_getp(&api_g.allocs, (uint64_t)(uintptr_t)p);
    if (!p || !a || a->kind != API_MEM_HOST) return CUDA_ERROR_INVALID_VALUE;
    api_drain(NULL);
    api_alloc_release(a);
    return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void *p) { API_LOCKED(free_host(p)); }

static CUresult host_device_pointer(CUdeviceptr *pdptr, void *p, unsigned flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!pdptr || !p || flags != 0) return CUDA_ERROR_INVALID_VALUE;
    api_alloc *a = api_alloc_find((uint64_t)(uintptr_t)p);
    if (!a || (a->kind != API_MEM_HOST && a->kind != API_MEM_REGISTERED)) return CUDA_ERROR_INVALID_VALUE;
    *pdptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    API_LOCKED(host_device_pointer(pdptr, p, Flags));
}

static CUresult host_flags(unsigned *pflags, void *p)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!pflags || !p) return CUDA_ERROR_INVALID_VALUE;
    api_alloc *a = api_alloc_find((uint64_t)(uintptr_t)p);
    if (!a || (a->kind != API_MEM_HOST && a->kind != API_MEM_REGISTERED)) return CUDA_ERROR_INVALID_VALUE;
    *pflags = a->flags;
    return CUDA_SUCCESS;
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p) { API_LOCKED(host_flags(pFlags, p)); }

/* Registered host memory is reachable by kernels at its own address
** (exec_mem_register): every registration is portable and mapped. */
static CUresult host_register(void *p, size_t bytes, unsigned flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!p || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(unsigned)(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY |
                            CU_MEMHOSTREGISTER_READ_ONLY))
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & CU_MEMHOSTREGISTER_IOMEMORY) return CUDA_ERROR_NOT_SUPPORTED;
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (api_alloc_find(a) || api_alloc_find(a + bytes - 1)) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    api_dev_lock();
    bool ok = exec_mem_register(api_g.dev, a, bytes);
    api_dev_unlock();
    if (!ok) return CUDA_ERROR_INVALID_VALUE;
    api_alloc *rec = tp_calloc(1, sizeof *rec);
    rec->base = a;
    rec->size = bytes;
    rec->kind = API_MEM_REGISTERED;
    rec->flags = flags | CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP;
    rec->id = api_g.next_id++;
    rec->ctx = c;
    tp_map_putp(&api_g.allocs, a, rec);
    api_range_add(a, bytes, rec);
    return CUDA_SUCCESS;
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    API_LOCKED(host_register(p, bytesize, Flags));
}
API_ALIAS(cuMemHostRegister_v2, "cuMemHostRegister");

static CUresult host_unregister(void *p)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    api_alloc *a = tp_map_getp(&api_g.allocs, (uint64_t)(uintptr_t)p);
    if (!a || a->kind != API_MEM_REGISTERED) return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    api_drain(NULL);
    api_alloc_release(a);
    return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *p) { API_LOCKED(host_unregister(p)); }

static CUresult get_info(size_t *free_b, size_t *total_b)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!free_b || !total_b) return CUDA_ERROR_INVALID_VALUE;
    uint64_t f, t;
    api_dev_lock();
    exec_mem_info(api_g.dev, &f, &t);
    api_dev_unlock();
    *free_b = (size_t)f;
    *total_b = (size_t)t;
    return CUDA_SUCCESS;
}

CUresult cuMemGetInfo_v2(size_t *free, size_t *total) { API_LOCKED(get_info(free, total)); }

static CUresult address_range(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    const api_range *rg = api_range_find(dptr);
    if (!rg) return CUDA_ERROR_NOT_FOUND;
    if (pbase) *pbase = rg->base;
    if (psize) *psize = (size_t)rg->size;
    return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    API_LOCKED(address_range(pbase, psize, dptr));
}

/* ---- managed-memory hints: validated, then nothing to do --------------------- */

static CUresult managed_range(api_ctx *c, CUdeviceptr p, size_t count)
{
    (void)c;
    api_alloc *a = api_alloc_find(p);
    if (!a || a->kind != API_MEM_MANAGED || count == 0 || p - a->base + count > a->size)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static bool location_ok(CUmemLocation loc)
{
    if (loc.type == CU_MEM_LOCATION_TYPE_DEVICE) return loc.id == 0;
    return loc.type == CU_MEM_LOCATION_TYPE_HOST || loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
           loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
}

static CUresult prefetch(CUdeviceptr p, size_t count, CUmemLocation loc, unsigned flags, CUstream hs)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if ((r = api_stream_arg(c, hs, &s))) return r;
    if (flags != 0 || !location_ok(loc)) return CUDA_ERROR_INVALID_VALUE;
    return managed_range(c, p, count);
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                               CUstream hStream)
{
    API_LOCKED(prefetch(devPtr, count, location, flags, hStream));
}
API_ALIAS(cuMemPrefetchAsync_v2, "cuMemPrefetchAsync_v2_ptsz");

static CUmemLocation location_of_device(CUdevice d)
{
    CUmemLocation l;
    l.type = d == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
    l.id = d == CU_DEVICE_CPU ? 0 : d;
    return l;
}

/* The CUDA 8 forms, which name a device instead of a location. */
API_EXPORT CUresult api_prefetch_v1(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
    __asm__("cuMemPrefetchAsync");
CUresult api_prefetch_v1(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
    API_LOCKED(prefetch(devPtr, count, location_of_device(dstDevice), 0, hStream));
}
extern __typeof__(api_prefetch_v1) api_prefetch_v1_ptsz __asm__("cuMemPrefetchAsync_ptsz")
    __attribute__((alias("cuMemPrefetchAsync"), visibility("default")));

static CUresult advise(CUdeviceptr p, size_t count, CUmem_advise advice, CUmemLocation loc)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
        return CUDA_ERROR_INVALID_VALUE;
    bool needs_loc = advice == CU_MEM_ADVISE_SET_PREFERRED_LOCATION || advice == CU_MEM_ADVISE_SET_ACCESSED_BY ||
                     advice == CU_MEM_ADVISE_UNSET_ACCESSED_BY;
    if (needs_loc && !location_ok(loc)) return CUDA_ERROR_INVALID_DEVICE;
    return managed_range(c, p, count);
}

CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)
{
    API_LOCKED(advise(devPtr, count, advice, location));
}

API_EXPORT CUresult api_advise_v1(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
    __asm__("cuMemAdvise");
CUresult api_advise_v1(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
    API_LOCKED(advise(devPtr, count, advice, location_of_device(device)));
}

/* ---- copies ---------------------------------------------------------------- */

/* Host pointer for the device range [p, p+n), or NULL. */
static void *dev_range(uint64_t p, uint64_t n) { return api_range_host(p, n); }

/* A unified-address range: inside an allocation it must fit there;
** elsewhere it is ordinary host memory. */
static void *any_range(uint64_t p, uint64_t n, bool *bad)
{
    *bad = false;
    if (p == 0) {
        *bad = true;
        return NULL;
    }
    if (api_range_find(p)) {
        void *h = dev_range(p, n);
        if (!h) *bad = true;
        return h;
    }
    return (void *)(uintptr_t)p;
}

typedef enum { CP_HTOD, CP_DTOH, CP_DTOD, CP_ANY } copy_kind;

/* Says why [p, p+n) is no device range a copy can use ("destination"/"source").
** Device addresses are the same in every run; host ones are not named. */
static void why_range(const char *side, uint64_t p, uint64_t n)
{
    const api_range *rg = p ? api_range_find(p) : NULL;
    if (p == 0)
        api_why("the %s is NULL", side);
    else if (rg)
        api_why("the %s 0x%llx + %llu bytes runs past the end of its allocation (0x%llx, %llu bytes) by %llu", side,
                (unsigned long long)p, (unsigned long long)n, (unsigned long long)rg->base,
                (unsigned long long)rg->size, (unsigned long long)(p + n - (rg->base + rg->size)));
    else   /* a host address (not printed: the statistics file stays the same from run to run) */
        api_why("the %s is not device memory (no device allocation holds it)", side);
}

/* ---- running copies and memsets (on the device) ---------------------------------- */

#define HP(p) ((uint64_t)(uintptr_t)(p))

void api_copy_run(const api_cwork *c)
{
    for (uint64_t k = 0; k < c->depth; k++)
        for (uint64_t j = 0; j < c->rows; j++)
        {
            uint8_t *d = c->dst + k * c->dslice + j * c->dpitch, *s = c->src + k * c->sslice + j * c->spitch;
            memmove(d, s, c->width);
            exec_check_copied(api_g.dev, HP(d), HP(s), c->width);   /* initcheck */
        }
    if (c->to_device) api_copied_in((uint64_t)(uintptr_t)c->dst, c->width);
}

static void fill(uint8_t *p, uint32_t v, unsigned esz, uint64_t n)
{
    if (esz == 1) {
        memset(p, (int)(v & 0xff), n);
        return;
    }
    for (uint64_t i = 0; i < n; i++) memcpy(p + i * esz, &v, esz);
}

void api_memset_run(const api_swork *s)
{
    for (uint64_t j = 0; j < s->height; j++) {
        fill(s->dst + j * s->pitch, s->value, s->esz, s->width);
        exec_check_written(api_g.dev, HP(s->dst + j * s->pitch), s->width * s->esz);   /* initcheck */
    }
}

/* Issues a copy or memset work on stream s (the synchronous forms: on the
** legacy stream, then wait for it). */
static CUresult issue(api_ctx *c, api_stream *s, api_work *w, bool sync)
{
    api_op *op = NULL;
    CUresult r = api_issue(c, sync ? NULL : s, w, NULL, 0, sync ? &op : NULL);
    if (r) return r;
    return op ? api_wait_op(op) : CUDA_SUCCESS;
}

/* A 1D copy as a work. */
static CUresult copy_work(uint64_t dst, uint64_t src, size_t n, copy_kind k, api_cwork *w)
{
    void *d = NULL, *s = NULL;
    bool bad_d = false, bad_s = false;
    switch (k) {
    case CP_HTOD:
        d = dev_range(dst, n), s = (void *)(uintptr_t)src;
        bad_d = !d, bad_s = !s;
        break;
    case CP_DTOH:
        d = (void *)(uintptr_t)dst, s = dev_range(src, n);
        bad_d = !d, bad_s = !s;
        break;
    case CP_DTOD:
        d = dev_range(dst, n), s = dev_range(src, n);
        bad_d = !d, bad_s = !s;
        break;
    case CP_ANY:
        d = any_range(dst, n, &bad_d), s = any_range(src, n, &bad_s);
        break;
    }
    if (bad_d || bad_s) {
        if (bad_d) why_range(k == CP_DTOH ? "host destination" : "destination", dst, n);
        else why_range(k == CP_HTOD ? "host source" : "source", src, n);
        return CUDA_ERROR_INVALID_VALUE;
    }
    memset(w, 0, sizeof *w);
    w->dst = d;
    w->src = s;
    w->width = n;
    w->rows = w->depth = 1;
    w->to_device = k == CP_HTOD || (k == CP_ANY && !dev_range(src, 1) && dev_range(dst, 1));
    return CUDA_SUCCESS;
}

static CUresult copy_call(uint64_t dst, uint64_t src, size_t n, copy_kind k, bool async, CUstream hs)
{
    api_ctx *c;
    api_stream *s = NULL;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (async && (r = api_stream_arg(c, hs, &s))) return r;
    if (n == 0) return CUDA_SUCCESS;
    api_work w = {.kind = API_W_COPY};
    if ((r = copy_work(dst, src, n, k, &w.u.c))) return r;
    return issue(c, s, &w, !async);
}


CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) { API_LOCKED(copy_call(dst, src, n, CP_ANY, false, 0)); }
API_ALIAS(cuMemcpy, "cuMemcpy_ptds");
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    API_LOCKED(copy_call(dst, src, n, CP_ANY, true, s));
}
API_ALIAS(cuMemcpyAsync, "cuMemcpyAsync_ptsz");

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
    API_LOCKED(copy_call(dst, HP(src), n, CP_HTOD, false, 0));
}
API_ALIAS(cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2_ptds");
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) { API_LOCKED(copy_call(HP(dst), src, n, CP_DTOH, false, 0)); }
API_ALIAS(cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2_ptds");
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) { API_LOCKED(copy_call(dst, src, n, CP_DTOD, false, 0)); }
API_ALIAS(cuMemcpyDtoD_v2, "cuMemcpyDtoD_v2_ptds");
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    API_LOCKED(copy_call(dst, HP(src), n, CP_HTOD, true, s));
}
API_ALIAS(cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2_ptsz");
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    API_LOCKED(copy_call(HP(dst), src, n, CP_DTOH, true, s));
}
API_ALIAS(cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync_v2_ptsz");
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    API_LOCKED(copy_call(dst, src, n, CP_DTOD, true, s));
}
API_ALIAS(cuMemcpyDtoDAsync_v2, "cuMemcpyDtoDAsync_v2_ptsz");

static CUresult copy_peer(uint64_t dst, CUcontext dctx, uint64_t src, CUcontext sctx, size_t n, bool async,
                          CUstream hs)
{
    api_ctx *c, *dc, *sc;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!dctx || !sctx) return CUDA_ERROR_INVALID_CONTEXT;
    if ((r = api_ctx_arg(dctx, &dc)) || (r = api_ctx_arg(sctx, &sc))) return r;
    if (dc->sticky) return dc->sticky;
    if (sc->sticky) return sc->sticky;
    api_stream *s = NULL;
    if (async && (r = api_stream_arg(c, hs, &s))) return r;
    if (n == 0) return CUDA_SUCCESS;
    api_work w = {.kind = API_W_COPY};
    if ((r = copy_work(dst, src, n, CP_DTOD, &w.u.c))) return r;
    return issue(c, s, &w, !async);
}

CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
                      size_t ByteCount)
{
    API_LOCKED(copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, false, 0));
}
API_ALIAS(cuMemcpyPeer, "cuMemcpyPeer_ptds");
CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                           CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    API_LOCKED(copy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, true, hStream));
}
API_ALIAS(cuMemcpyPeerAsync, "cuMemcpyPeerAsync_ptsz");

/* ---- 2D and 3D copies ------------------------------------------------------- */

/* One side of a strided copy: the start of the first byte and the pitch
** between rows and between slices. */
typedef struct side {
    uint8_t *p;
    uint64_t pitch, slice;
} side;

/* Resolves one side of a copy of depth slices of height rows of width bytes.
** Device (and unified device) ranges are checked as a whole. */
static CUresult resolve(side *sd, CUmemorytype type, const void *host, CUdeviceptr dev, CUarray array,
                        uint64_t x, uint64_t y, uint64_t z, uint64_t pitch, uint64_t height, uint64_t width,
                        uint64_t rows, uint64_t depth)
{
    if (type == CU_MEMORYTYPE_ARRAY) {
        /* an array is device memory whose pitch and height it knows */
        api_array *a;
        if (api_array_arg(array, &a)) return CUDA_ERROR_INVALID_VALUE;
        type = CU_MEMORYTYPE_DEVICE;
        dev = a->addr;
        pitch = a->pitch;
        height = a->desc.Height ? a->desc.Height : 1;
    }
    if (type != CU_MEMORYTYPE_HOST && type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED)
        return CUDA_ERROR_INVALID_VALUE;
    if (pitch == 0 && rows <= 1 && depth <= 1) pitch = x + width;
    if (pitch < x + width) return CUDA_ERROR_INVALID_VALUE;
    if (height == 0 && depth <= 1) height = y + rows;
    if (depth > 1 && height < y + rows) return CUDA_ERROR_INVALID_VALUE;
    uint64_t slice = pitch * height;
    uint64_t start_off = z * slice + y * pitch + x;
    uint64_t span = (depth - 1) * slice + (rows - 1) * pitch + width;
    uint64_t addr = type == CU_MEMORYTYPE_HOST ? HP(host) : dev;
    if (addr == 0) return CUDA_ERROR_INVALID_VALUE;
    bool is_dev = type == CU_MEMORYTYPE_DEVICE;
    if (type == CU_MEMORYTYPE_UNIFIED) is_dev = api_range_find(addr) != NULL;
    if (is_dev && !dev_range(addr + start_off, span)) return CUDA_ERROR_INVALID_VALUE;
    sd->p = (uint8_t *)(uintptr_t)(addr + start_off);
    sd->pitch = pitch;
    sd->slice = slice;
    return CUDA_SUCCESS;
}

/* Both sides of a copy as a work. */
static void strided_work(api_cwork *w, const side *d, const side *s, uint64_t width, uint64_t rows, uint64_t depth)
{
    memset(w, 0, sizeof *w);
    w->dst = d->p, w->dpitch = d->pitch, w->dslice = d->slice;
    w->src = s->p, w->spitch = s->pitch, w->sslice = s->slice;
    w->width = width, w->rows = rows, w->depth = depth;
}

static CUresult copy2d(const CUDA_MEMCPY2D *c2, bool async, CUstream hs)
{
    api_ctx *c;
    api_stream *st = NULL;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (async && (r = api_stream_arg(c, hs, &st))) return r;
    if (!c2) return CUDA_ERROR_INVALID_VALUE;
    if (c2->WidthInBytes == 0 || c2->Height == 0) return CUDA_SUCCESS;
    side d, s;
    if ((r = resolve(&s, c2->srcMemoryType, c2->srcHost, c2->srcDevice, c2->srcArray, c2->srcXInBytes, c2->srcY, 0,
                     c2->srcPitch, 0, c2->WidthInBytes, c2->Height, 1)))
        return r;
    if ((r = resolve(&d, c2->dstMemoryType, c2->dstHost, c2->dstDevice, c2->dstArray, c2->dstXInBytes, c2->dstY, 0,
                     c2->dstPitch, 0, c2->WidthInBytes, c2->Height, 1)))
        return r;
    api_work w = {.kind = API_W_COPY};
    strided_work(&w.u.c, &d, &s, c2->WidthInBytes, c2->Height, 1);
    return issue(c, st, &w, !async);
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy) { API_LOCKED(copy2d(pCopy, false, 0)); }
API_ALIAS(cuMemcpy2D_v2, "cuMemcpy2D_v2_ptds");
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy) { API_LOCKED(copy2d(pCopy, false, 0)); }
API_ALIAS(cuMemcpy2DUnaligned_v2, "cuMemcpy2DUnaligned_v2_ptds");
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream) { API_LOCKED(copy2d(pCopy, true, hStream)); }
API_ALIAS(cuMemcpy2DAsync_v2, "cuMemcpy2DAsync_v2_ptsz");

CUresult api_copy3d_work(const CUDA_MEMCPY3D *c3, api_cwork *out)
{
    CUresult r;
    if (!c3 || c3->reserved0 || c3->reserved1 || c3->srcLOD || c3->dstLOD) {
        api_why(!c3 ? "the copy parameters are NULL" : "reserved0, reserved1, srcLOD and dstLOD must be 0");
        return CUDA_ERROR_INVALID_VALUE;
    }
    memset(out, 0, sizeof *out);
    if (c3->WidthInBytes == 0 || c3->Height == 0 || c3->Depth == 0) return CUDA_SUCCESS;
    side d, s;
    if ((r = resolve(&s, c3->srcMemoryType, c3->srcHost, c3->srcDevice, c3->srcArray, c3->srcXInBytes, c3->srcY,
                     c3->srcZ, c3->srcPitch, c3->srcHeight, c3->WidthInBytes, c3->Height, c3->Depth))) {
        api_why("the source of the copy is not a range it may read (type, pitch, height and extent checked)");
        return r;
    }
    if ((r = resolve(&d, c3->dstMemoryType, c3->dstHost, c3->dstDevice, c3->dstArray, c3->dstXInBytes, c3->dstY,
                     c3->dstZ, c3->dstPitch, c3->dstHeight, c3->WidthInBytes, c3->Height, c3->Depth))) {
        api_why("the destination of the copy is not a range it may write (type, pitch, height and extent checked)");
        return r;
    }
    strided_work(out, &d, &s, c3->WidthInBytes, c3->Height, c3->Depth);
    return CUDA_SUCCESS;
}

static CUresult copy3d(const CUDA_MEMCPY3D *c3, bool async, CUstream hs)
{
    api_ctx *c;
    api_stream *st = NULL;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (async && (r = api_stream_arg(c, hs, &st))) return r;
    api_work w = {.kind = API_W_COPY};
    if ((r = api_copy3d_work(c3, &w.u.c))) return r;
    if (!w.u.c.width) return CUDA_SUCCESS;
    return issue(c, st, &w, !async);
}

/* An array side of a 1D copy as the device range it covers: arrays are
** tightly packed, so the offset counts bytes of the whole array in row order. */
static CUresult array_linear(CUmemorytype *t, CUdeviceptr *d, CUarray h, size_t off, size_t n)
{
    if (*t != CU_MEMORYTYPE_ARRAY) return CUDA_SUCCESS;
    api_array *a;
    CUresult r = api_current(&(api_ctx *){NULL}, true);
    if (r) return r;
    if (api_array_arg(h, &a)) return CUDA_ERROR_INVALID_VALUE;
    uint64_t total = a->pitch * (a->desc.Height ? a->desc.Height : 1) * (a->desc.Depth ? a->desc.Depth : 1);
    if (off > total || n > total - off) return CUDA_ERROR_INVALID_VALUE;
    *t = CU_MEMORYTYPE_DEVICE;
    *d = a->addr + off;
    return CUDA_SUCCESS;
}

/* The 1D copies to and from arrays (offsets and counts in bytes). */
static CUresult copy_array(CUmemorytype dt, void *dh, CUdeviceptr dd, CUarray da, size_t doff, CUmemorytype st,
                           const void *sh, CUdeviceptr sd, CUarray sa, size_t soff, size_t n, bool async, CUstream hs)
{
    CUresult r;
    if ((r = array_linear(&dt, &dd, da, doff, n)) || (r = array_linear(&st, &sd, sa, soff, n))) return r;
    if (dt == CU_MEMORYTYPE_DEVICE) doff = 0;
    if (st == CU_MEMORYTYPE_DEVICE) soff = 0;
    CUDA_MEMCPY2D c2;
    memset(&c2, 0, sizeof c2);
    c2.dstMemoryType = dt, c2.dstHost = dh, c2.dstDevice = dd, c2.dstArray = da, c2.dstXInBytes = doff;
    c2.srcMemoryType = st, c2.srcHost = sh, c2.srcDevice = sd, c2.srcArray = sa, c2.srcXInBytes = soff;
    c2.WidthInBytes = n;
    c2.Height = 1;
    return copy2d(&c2, async, hs);
}

#define A_ CU_MEMORYTYPE_ARRAY
#define H_ CU_MEMORYTYPE_HOST
#define D_ CU_MEMORYTYPE_DEVICE
CUresult cuMemcpyHtoA_v2(CUarray dst, size_t off, const void *src, size_t n)
{
    API_LOCKED(copy_array(A_, NULL, 0, dst, off, H_, src, 0, NULL, 0, n, false, 0));
}
API_ALIAS(cuMemcpyHtoA_v2, "cuMemcpyHtoA_v2_ptds");
CUresult cuMemcpyAtoH_v2(void *dst, CUarray src, size_t off, size_t n)
{
    API_LOCKED(copy_array(H_, dst, 0, NULL, 0, A_, NULL, 0, src, off, n, false, 0));
}
API_ALIAS(cuMemcpyAtoH_v2, "cuMemcpyAtoH_v2_ptds");
CUresult cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n)
{
    API_LOCKED(copy_array(A_, NULL, 0, dst, off, D_, NULL, src, NULL, 0, n, false, 0));
}
API_ALIAS(cuMemcpyDtoA_v2, "cuMemcpyDtoA_v2_ptds");
CUresult cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n)
{
    API_LOCKED(copy_array(D_, NULL, dst, NULL, 0, A_, NULL, 0, src, off, n, false, 0));
}
API_ALIAS(cuMemcpyAtoD_v2, "cuMemcpyAtoD_v2_ptds");
CUresult cuMemcpyAtoA_v2(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n)
{
    API_LOCKED(copy_array(A_, NULL, 0, dst, doff, A_, NULL, 0, src, soff, n, false, 0));
}
API_ALIAS(cuMemcpyAtoA_v2, "cuMemcpyAtoA_v2_ptds");
CUresult cuMemcpyHtoAAsync_v2(CUarray dst, size_t off, const void *src, size_t n, CUstream s)
{
    API_LOCKED(copy_array(A_, NULL, 0, dst, off, H_, src, 0, NULL, 0, n, true, s));
}
API_ALIAS(cuMemcpyHtoAAsync_v2, "cuMemcpyHtoAAsync_v2_ptsz");
CUresult cuMemcpyAtoHAsync_v2(void *dst, CUarray src, size_t off, size_t n, CUstream s)
{
    API_LOCKED(copy_array(H_, dst, 0, NULL, 0, A_, NULL, 0, src, off, n, true, s));
}
API_ALIAS(cuMemcpyAtoHAsync_v2, "cuMemcpyAtoHAsync_v2_ptsz");
#undef A_
#undef H_
#undef D_

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy) { API_LOCKED(copy3d(pCopy, false, 0)); }
API_ALIAS(cuMemcpy3D_v2, "cuMemcpy3D_v2_ptds");
CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream) { API_LOCKED(copy3d(pCopy, true, hStream)); }
API_ALIAS(cuMemcpy3DAsync_v2, "cuMemcpy3DAsync_v2_ptsz");

/* ---- memsets ------------------------------------------------------------------ */

CUresult api_memset_work(uint64_t dst, uint64_t pitch, uint32_t v, unsigned esz, uint64_t width, uint64_t height,
                         api_swork *out)
{
    memset(out, 0, sizeof *out);
    if (width == 0 || height == 0) return CUDA_SUCCESS;
    if (esz != 1 && esz != 2 && esz != 4) {
        api_why("elements of %u bytes: a memset sets 1, 2 or 4", esz);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (dst % esz) {
        api_why("the destination 0x%llx is not aligned to the %u-byte elements", (unsigned long long)dst, esz);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (width > UINT64_MAX / esz) return CUDA_ERROR_INVALID_VALUE;
    uint64_t row = width * esz;
    if (height > 1 && pitch < row) {
        api_why("a pitch of %llu bytes is less than a row of %llu", (unsigned long long)pitch, (unsigned long long)row);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (height > 1 && (height - 1) > (UINT64_MAX - row) / pitch) return CUDA_ERROR_INVALID_VALUE;
    uint64_t span = (height - 1) * pitch + row;
    uint8_t *h = dev_range(dst, span);
    if (!h) {
        why_range("destination", dst, span);
        return CUDA_ERROR_INVALID_VALUE;
    }
    out->dst = h;
    out->pitch = pitch;
    out->width = width;
    out->height = height;
    out->value = v;
    out->esz = esz;
    return CUDA_SUCCESS;
}

/* Sets height rows of width elements of esz bytes, rows pitch bytes apart. */
static CUresult memset2d(uint64_t dst, uint64_t pitch, uint32_t v, unsigned esz, uint64_t width, uint64_t height,
                         bool async, CUstream hs)
{
    api_ctx *c;
    api_stream *s = NULL;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (async && (r = api_stream_arg(c, hs, &s))) return r;
    api_work w = {.kind = API_W_MEMSET};
    if ((r = api_memset_work(dst, pitch, v, esz, width, height, &w.u.s))) return r;
    if (!w.u.s.dst) return CUDA_SUCCESS;
    return issue(c, s, &w, !async);
}

CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { API_LOCKED(memset2d(d, 0, v, 1, n, 1, false, 0)); }
API_ALIAS(cuMemsetD8_v2, "cuMemsetD8_v2_ptds");
CUresult cuMemsetD16_v2(CUdeviceptr d, unsigned short v, size_t n) { API_LOCKED(memset2d(d, 0, v, 2, n, 1, false, 0)); }
API_ALIAS(cuMemsetD16_v2, "cuMemsetD16_v2_ptds");
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned int v, size_t n) { API_LOCKED(memset2d(d, 0, v, 4, n, 1, false, 0)); }
API_ALIAS(cuMemsetD32_v2, "cuMemsetD32_v2_ptds");
CUresult cuMemsetD2D8_v2(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h)
{
    API_LOCKED(memset2d(d, pitch, v, 1, w, h, false, 0));
}
API_ALIAS(cuMemsetD2D8_v2, "cuMemsetD2D8_v2_ptds");
CUresult cuMemsetD2D16_v2(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h)
{
    API_LOCKED(memset2d(d, pitch, v, 2, w, h, false, 0));
}
API_ALIAS(cuMemsetD2D16_v2, "cuMemsetD2D16_v2_ptds");
CUresult cuMemsetD2D32_v2(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h)
{
    API_LOCKED(memset2d(d, pitch, v, 4, w, h, false, 0));
}
API_ALIAS(cuMemsetD2D32_v2, "cuMemsetD2D32_v2_ptds");
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
    API_LOCKED(memset2d(d, 0, v, 1, n, 1, true, s));
}
API_ALIAS(cuMemsetD8Async, "cuMemsetD8Async_ptsz");
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s)
{
    API_LOCKED(memset2d(d, 0, v, 2, n, 1, true, s));
}
API_ALIAS(cuMemsetD16Async, "cuMemsetD16Async_ptsz");
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s)
{
    API_LOCKED(memset2d(d, 0, v, 4, n, 1, true, s));
}
API_ALIAS(cuMemsetD32Async, "cuMemsetD32Async_ptsz");
CUresult cuMemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s)
{
    API_LOCKED(memset2d(d, pitch, v, 1, w, h, true, s));
}
API_ALIAS(cuMemsetD2D8Async, "cuMemsetD2D8Async_ptsz");
CUresult cuMemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s)
{
    API_LOCKED(memset2d(d, pitch, v, 2, w, h, true, s));
}
API_ALIAS(cuMemsetD2D16Async, "cuMemsetD2D16Async_ptsz");
CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h, CUstream s)
{
    API_LOCKED(memset2d(d, pitch, v, 4, w, h, true, s));
}
API_ALIAS(cuMemsetD2D32Async, "cuMemsetD2D32Async_ptsz");

/* ---- pointer attributes -------------------------------------------------------- */

/* What is known about address p: *a is the api record (NULL for module
** variables, which are device memory of the module's context). */
static bool classify(uint64_t p, api_alloc **a, uint64_t *base, uint64_t *size)
{
    const api_range *rg = api_range_find(p);
    if (!rg) return false;
    *base = rg->base;
    *size = rg->size;
    *a = rg->a;
    return true;
}

static CUresult attribute(void *data, CUpointer_attribute attr, uint64_t p, bool lenient)
{
    api_alloc *a = NULL;
    uint64_t base = 0, size = 0;
    bool known = classify(p, &a, &base, &size);
    api_ctx *owner = a ? a->ctx : NULL;
    api_mem_kind kind = a ? a->kind : API_MEM_DEVICE;
    if (!known && !lenient) return CUDA_ERROR_INVALID_VALUE;
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: {
        api_ctx *cur = NULL;
        if (!owner && known) api_current(&cur, false);
        *(CUcontext *)data = known ? (owner ? owner : cur) : NULL;
        break;
    }
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = !known                                                    ? 0
                            : kind == API_MEM_HOST || kind == API_MEM_REGISTERED ? CU_MEMORYTYPE_HOST
                                                                                 : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = known ? p : 0; break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (known && kind == API_MEM_DEVICE && !lenient) return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = known && kind != API_MEM_DEVICE ? (void *)(uintptr_t)p : NULL;
        break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(unsigned *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: *(unsigned long long *)data = a ? a->id : known ? base : 0; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned *)data = kind == API_MEM_MANAGED; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = known ? 0 : -2; break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: *(unsigned *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: *(CUdeviceptr *)data = base; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: *(size_t *)data = (size_t)size; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: *(unsigned *)data = known; break;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: *(unsigned long long *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: *(unsigned *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: *(unsigned *)data = known ? 3 : 0; break; /* read-write */
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: *(void **)data = NULL; break;
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE: *(unsigned *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_P2P_TOKENS: return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult get_attribute(void *data, CUpointer_attribute attr, CUdeviceptr p)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!data) return CUDA_ERROR_INVALID_VALUE;
    return attribute(data, attr, p, false);
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    API_LOCKED(get_attribute(data, attribute, ptr));
}

/* Unlike the single form, an unknown pointer is no error: its attributes
** read as empty. */
static CUresult get_attributes(unsigned n, CUpointer_attribute *attrs, void **data, CUdeviceptr p)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (n == 0 || !attrs || !data) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) {
        if (!data[i]) return CUDA_ERROR_INVALID_VALUE;
        if ((r = attribute(data[i], attrs[i], p, true))) return r;
    }
    return CUDA_SUCCESS;
}

CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr)
{
    API_LOCKED(get_attributes(numAttributes, attributes, data, ptr));
}
