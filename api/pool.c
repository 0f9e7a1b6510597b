/* pool.c -- stream-ordered memory: memory pools, cuMemAllocAsync, cuMemFreeAsync.
**
** A pool keeps blocks of device memory (API_MEM_POOL allocations).  An
** allocation takes a free block that is safe to reuse, else makes a new
** one; cuMemFreeAsync gives a block back in stream order.  When a block may
** be reused never depends on host timing, only on the calls the program
** made, so addresses stay deterministic:
**   - a block freed on stream s may be handed out again at once to work on
**     s (stream order puts the free before it);
**   - a block becomes free for any stream at a synchronization that covers
**     its free (a stream, context or device synchronize: api_pool_sync);
**   - the reuse attributes (follow event dependencies, opportunistic,
**     internal dependencies) are kept and reported, and change nothing: the
**     two rules above are always safe and never wait.
** A block is reused only for a request of at least half its size, the
** first such in the order the blocks were made.  At each synchronization a
** pool releases synchronized free blocks, newest first, while it holds more
** than its release threshold (default 0: all of them, as CUDA does);
** cuMemPoolTrimTo releases them down to the bytes asked.
*/
#include "api.h"
#include <stdlib.h>

struct CUmemPoolHandle_st {
    bool is_default;
    uint64_t threshold;
    int reuse[3];          /* CU_MEMPOOL_ATTR_REUSE_*: kept and reported */
    uint64_t used, used_high, reserved, reserved_high;
    api_alloc **blocks;    /* in the order they were made */
    uint32_t nblocks, capblocks;
    api_pool *next;
};

static api_pool *pool_default(void)
{
    if (!api_g.pools) {
        api_pool *p = tp_calloc(1, sizeof *p);
        p->is_default = true;
        p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
        api_g.pools = p;
        api_handle_add(p, API_K_POOL);
    }
    return api_g.pools;
}

static api_pool *pool_current(void) { return api_g.cur_pool ? api_g.cur_pool : pool_default(); }

static CUresult pool_arg(CUmemoryPool h, api_pool **p)
{
    if (!h || !api_handle_is(h, API_K_POOL)) {
        api_why("not a memory pool (never created, or destroyed)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *p = h;
    return CUDA_SUCCESS;
}

static void block_release(api_pool *p, uint32_t i)
{
    api_alloc *a = p->blocks[i];
    p->reserved -= a->size;
    memmove(&p->blocks[i], &p->blocks[i + 1], (p->nblocks - i - 1) * sizeof *p->blocks);
    p->nblocks--;
    api_alloc_release(a);
}

/* Releases synchronized free blocks, newest first, while the pool holds more than keep. */
static void pool_trim(api_pool *p, uint64_t keep)
{
    for (uint32_t i = p->nblocks; i-- > 0 && p->reserved > keep;) {
        api_alloc *a = p->blocks[i];
        if (!a->in_use && !a->free_stream) block_release(p, i);
    }
}

static CUresult pool_alloc(api_ctx *c, api_pool *p, api_stream *s, uint64_t bytes, CUdeviceptr *out)
{
    api_stream *q = s ? s : &c->legacy;
    api_alloc *a = NULL;
    for (uint32_t i = 0; i < p->nblocks && !a; i++) {
        api_alloc *b = p->blocks[i];
        if (b->in_use || b->ctx != c || b->size < bytes || b->size / 2 > bytes) continue;
        if (b->free_stream && b->free_stream != q) continue;
        a = b;
    }
    if (!a) {
        uint64_t base;
        CUresult r = api_alloc_new(c, bytes ? bytes : 1, API_MEM_POOL, 0, &base);
        if (r) {
            /* what the pool keeps free may make room */
            pool_trim(p, 0);
            if ((r = api_alloc_new(c, bytes ? bytes : 1, API_MEM_POOL, 0, &base))) return r;
        }
        a = tp_map_getp(&api_g.allocs, base);
        a->pool = p;
        if (p->nblocks == p->capblocks) {
            p->capblocks = p->capblocks ? 2 * p->capblocks : 16;
            p->blocks = tp_realloc(p->blocks, p->capblocks * sizeof *p->blocks);
        }
        p->blocks[p->nblocks++] = a;
        p->reserved += a->size;
        if (p->reserved > p->reserved_high) p->reserved_high = p->reserved;
    }
    if (a->free_stream) api_stream_unref(a->free_stream);
    a->free_stream = NULL;
    a->in_use = true;
    p->used += a->size;
    if (p->used > p->used_high) p->used_high = p->used;
    *out = a->base;
    return CUDA_SUCCESS;
}

CUresult api_free_async(api_ctx *c, api_stream *s, api_alloc *a)
{
    if (a->kind == API_MEM_GRAPH) {
        api_stream *q = s ? s : &c->legacy;
        if (q->cap) {   /* captured: a free node */
            api_work w = {.kind = API_W_MEMFREE};
            w.u.mem.a = a;
            return api_issue(c, s, &w, NULL, 0, NULL);
        }
        /* graph memory freed outside its graph: in stream order, then free for the next launch */
        if (!a->in_use) {
            api_why("0x%llx is graph memory not in use (its graph was not launched, or it was freed)",
                    (unsigned long long)a->base);
            return CUDA_ERROR_INVALID_VALUE;
        }
        api_work w = {.kind = API_W_MEMFREE};
        w.u.mem.a = a;
        CUresult r = api_issue(c, s, &w, NULL, 0, NULL);
        if (r) return r;
        api_gmem_use(a, false);
        return CUDA_SUCCESS;
    }
    if (a->kind != API_MEM_POOL || !a->in_use) {
        api_why("0x%llx is not a stream-ordered allocation in use (freed already?)", (unsigned long long)a->base);
        return CUDA_ERROR_INVALID_VALUE;
    }
    api_work w = {.kind = API_W_MEMFREE};
    w.u.mem.a = a;
    CUresult r = api_issue(c, s, &w, NULL, 0, NULL);
    if (r) return r;
    api_stream *q = s ? s : &c->legacy;
    a->in_use = false;
    a->free_seq = q->last_seq;
    a->free_stream = q;
    q->refs++;
    api_pool *p = a->pool;
    if (p) {
        p->used -= a->size;
    } else {
        /* its pool was destroyed: the block goes when the free is synchronized */
    }
    return CUDA_SUCCESS;
}

void api_pool_sync(api_ctx *c, api_stream *s, uint64_t seq)
{
    for (api_pool *p = api_g.pools; p; p = p->next) {
        for (uint32_t i = 0; i < p->nblocks; i++) {
            api_alloc *a = p->blocks[i];
            if (a->in_use || !a->free_stream || a->ctx != c || a->free_seq > seq) continue;
            if (s && a->free_stream != s) continue;
            api_stream_unref(a->free_stream);
            a->free_stream = NULL;
        }
        pool_trim(p, p->threshold);
    }
}

void api_pool_ctx_gone(api_ctx *c)
{
    for (api_pool *p = api_g.pools; p; p = p->next) {
        for (uint32_t i = p->nblocks; i-- > 0;) {
            api_alloc *a = p->blocks[i];
            if (a->ctx != c) continue;
            if (a->free_stream) api_stream_unref(a->free_stream);
            a->free_stream = NULL;
            if (a->in_use) p->used -= a->size;
            a->in_use = false;
            block_release(p, i);
        }
    }
}

/* ---- entry points ------------------------------------------------------------------ */

static CUresult alloc_async(CUdeviceptr *dptr, size_t bytes, api_pool *p, CUstream hs)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if ((r = api_stream_arg(c, hs, &s))) return r;
    if (!dptr) return CUDA_ERROR_INVALID_VALUE;
    if (bytes == 0) {
        api_why("a stream-ordered allocation of 0 bytes");
        return CUDA_ERROR_INVALID_VALUE;
    }
    api_stream *q = s ? s : &c->legacy;
    if ((r = api_capture_issue_check(c, q))) return r;
    if (q->cap) {
        /* captured: an allocation node, its block graph memory */
        if (p) {
            api_why("cuMemAllocFromPoolAsync in a capturing stream: graph memory comes from no pool of the program's");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
        return api_capture_alloc(q, bytes, dptr);
    }
    /* ordering only: the block is usable by work issued after this on the stream */
    api_work w = {.kind = API_W_NOP};
    if ((r = api_issue(c, s, &w, NULL, 0, NULL))) return r;
    return pool_alloc(c, p ? p : pool_current(), s, bytes, dptr);
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    API_LOCKED(alloc_async(dptr, bytesize, NULL, hStream));
}
API_ALIAS(cuMemAllocAsync, "cuMemAllocAsync_ptsz");

static CUresult alloc_from_pool(CUdeviceptr *dptr, size_t bytes, CUmemoryPool h, CUstream hs)
{
    api_pool *p;
    CUresult r = pool_arg(h, &p);
    if (r) return r;
    return alloc_async(dptr, bytes, p, hs);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    API_LOCKED(alloc_from_pool(dptr, bytesize, pool, hStream));
}
API_ALIAS(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync_ptsz");

static CUresult free_async(CUdeviceptr dptr, CUstream hs)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if ((r = api_stream_arg(c, hs, &s))) return r;
    if (dptr == 0) return CUDA_ERROR_INVALID_VALUE;
    api_alloc *a = tp_map_getp(&api_g.allocs, dptr);
    if (!a) {
        api_why("0x%llx is not the start of an allocation", (unsigned long long)dptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (a->kind == API_MEM_POOL || a->kind == API_MEM_GRAPH) return api_free_async(c, s, a);
    if (a->kind != API_MEM_DEVICE && a->kind != API_MEM_MANAGED) {
        api_why("0x%llx is not device memory", (unsigned long long)dptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* memory from cuMemAlloc: CUDA frees it in stream order too; here it
    ** waits for the stream first */
    if ((r = api_wait_stream(c, s))) return r;
    api_drain(NULL);
    api_alloc_release(a);
    return CUDA_SUCCESS;
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) { API_LOCKED(free_async(dptr, hStream)); }
API_ALIAS(cuMemFreeAsync, "cuMemFreeAsync_ptsz");

static CUresult pool_create(CUmemoryPool *out, const CUmemPoolProps *pp)
{
    CUresult r = api_need_dev();
    if (r) return r;
    if (!out || !pp) return CUDA_ERROR_INVALID_VALUE;
    if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED || pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
        pp->location.id != 0) {
        api_why("tpsim's pools are pinned device memory of device 0 (allocType %d, location type %d id %d)",
                (int)pp->allocType, (int)pp->location.type, pp->location.id);
        return CUDA_ERROR_INVALID_VALUE;
    }
    api_pool *d = pool_default();
    api_pool *p = tp_calloc(1, sizeof *p);
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->next = d->next;
    d->next = p;
    api_handle_add(p, API_K_POOL);
    *out = p;
    return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps) { API_LOCKED(pool_create(pool, poolProps)); }

static CUresult pool_destroy(CUmemoryPool h)
{
    api_pool *p;
    CUresult r = pool_arg(h, &p);
    if (r) return r;
    if (p->is_default) {
        api_why("a device's default memory pool cannot be destroyed");
        return CUDA_ERROR_INVALID_VALUE;
    }
    api_drain(NULL);
    for (uint32_t i = p->nblocks; i-- > 0;) {
        api_alloc *a = p->blocks[i];
        if (a->free_stream) api_stream_unref(a->free_stream);
        a->free_stream = NULL;
        if (a->in_use) {   /* outstanding: released when freed (memory.c frees it as device memory) */
            a->pool = NULL;
            a->kind = API_MEM_DEVICE;
            continue;
        }
        api_alloc_release(a);
    }
    free(p->blocks);
    for (api_pool *q = api_g.pools; q; q = q->next)
        if (q->next == p) q->next = p->next;
    if (api_g.cur_pool == p) api_g.cur_pool = NULL;
    api_handle_del(p);
    free(p);
    return CUDA_SUCCESS;
}

CUresult cuMemPoolDestroy(CUmemoryPool pool) { API_LOCKED(pool_destroy(pool)); }

static CUresult pool_trim_to(CUmemoryPool h, size_t keep)
{
    api_pool *p;
    CUresult r = pool_arg(h, &p);
    if (r) return r;
    pool_trim(p, keep);
    return CUDA_SUCCESS;
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) { API_LOCKED(pool_trim_to(pool, minBytesToKeep)); }

static CUresult pool_attr(CUmemoryPool h, CUmemPool_attribute at, void *v, bool set)
{
    api_pool *p;
    CUresult r = pool_arg(h, &p);
    if (r) return r;
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    uint64_t *u = v;
    int *i = v;
    switch (at) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
        if (set) p->reuse[at - 1] = *i != 0;
        else *i = p->reuse[at - 1];
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
        if (set) p->threshold = *u;
        else *u = p->threshold;
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
        if (set) return CUDA_ERROR_INVALID_VALUE;
        *u = at == CU_MEMPOOL_ATTR_USED_MEM_CURRENT ? p->used : p->reserved;
        return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: {
        uint64_t *hi = at == CU_MEMPOOL_ATTR_USED_MEM_HIGH ? &p->used_high : &p->reserved_high;
        if (set) {   /* only resetting to 0 is allowed: the high mark becomes the current value */
            if (*u) return CUDA_ERROR_INVALID_VALUE;
            *hi = at == CU_MEMPOOL_ATTR_USED_MEM_HIGH ? p->used : p->reserved;
        } else {
            *u = *hi;
        }
        return CUDA_SUCCESS;
    }
    }
    api_why("unknown memory pool attribute %d", (int)at);
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    API_LOCKED(pool_attr(pool, attr, value, true));
}
CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    API_LOCKED(pool_attr(pool, attr, value, false));
}

static CUresult pool_set_access(CUmemoryPool h, const CUmemAccessDesc *map, size_t n)
{
    api_pool *p;
    CUresult r = pool_arg(h, &p);
    if (r) return r;
    if (n && !map) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < n; i++)
        if (map[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || map[i].location.id != 0)
            return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;   /* the one device always has read-write access */
}

CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
    API_LOCKED(pool_set_access(pool, map, count));
}

static CUresult pool_get_access(CUmemAccess_flags *f, CUmemoryPool h, CUmemLocation *loc)
{
    api_pool *p;
    CUresult r = pool_arg(h, &p);
    if (r) return r;
    if (!f || !loc) return CUDA_ERROR_INVALID_VALUE;
    *f = loc->type == CU_MEM_LOCATION_TYPE_DEVICE && loc->id == 0 ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                                                                   : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location)
{
    API_LOCKED(pool_get_access(flags, memPool, location));
}

static CUresult dev_pool(CUmemoryPool *out, CUdevice d, bool dflt)
{
    CUresult r = api_check_dev(d);
    if (r) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    *out = dflt ? pool_default() : pool_current();
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev) { API_LOCKED(dev_pool(pool_out, dev, true)); }
CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) { API_LOCKED(dev_pool(pool, dev, false)); }

static CUresult dev_set_pool(CUdevice d, CUmemoryPool h)
{
    CUresult r = api_check_dev(d);
    if (r) return r;
    api_pool *p;
    if ((r = pool_arg(h, &p))) return r;
    api_g.cur_pool = p->is_default ? NULL : p;
    return CUDA_SUCCESS;
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) { API_LOCKED(dev_set_pool(dev, pool)); }
