/* context.c -- contexts: the per-thread stack, the primary context, limits.
**
** A context owns its modules, streams, events and allocations; destroying
** (or resetting) it frees them all.  Every context shares the one simulated
** device and its address space (unified addressing), as contexts on one GPU
** do.  Limits that exec/ implements (CU_LIMIT_STACK_SIZE ->
** exec.stack_bytes, CU_LIMIT_MALLOC_HEAP_SIZE -> exec.heap_bytes) are
** applied to the device before each launch from the launching context;
** CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT sets the device's
** exec.cdp_pending_launches when it is set.
*/
#include "api.h"
#include <stdio.h>
#include <stdlib.h>

#define API_CTX_STACK_MAX 64

static _Thread_local api_ctx *tls_stack[API_CTX_STACK_MAX];
static _Thread_local int tls_n;

CUresult api_current(api_ctx **c, bool sticky)
{
    if (!api_g.initialized) {
        api_why("cuInit has not succeeded");
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if (tls_n == 0) {
        api_why("no context is current on this thread");
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    api_ctx *top = tls_stack[tls_n - 1];
    if (top->dead) {
        api_why("the current context was destroyed");
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    *c = top;
    if (sticky && top->sticky)
        api_why("an earlier error (%s) left the context unusable until it is destroyed or reset",
                api_result_name(top->sticky));
    return sticky ? top->sticky : CUDA_SUCCESS;
}

void api_ctx_stack_remove(api_ctx *c)
{
    int j = 0;
    for (int i = 0; i < tls_n; i++)
        if (tls_stack[i] != c) tls_stack[j++] = tls_stack[i];
    tls_n = j;
}

static CUresult stack_push(api_ctx *c)
{
    if (tls_n == API_CTX_STACK_MAX) return CUDA_ERROR_OUT_OF_MEMORY;
    tls_stack[tls_n++] = c;
    return CUDA_SUCCESS;
}

/* The default of each limit (cuCtxGetLimit before any cuCtxSetLimit). */
static size_t limit_default(CUlimit l)
{
    switch (l) {
    case CU_LIMIT_STACK_SIZE: return (size_t)api_opt(OPT_EXEC_STACK_BYTES);
    case CU_LIMIT_PRINTF_FIFO_SIZE: return 1u << 20;
    case CU_LIMIT_MALLOC_HEAP_SIZE: {
        int i = tp_opts_find(&api_g.opts, "exec.heap_bytes");
        return i >= 0 ? (size_t)tp_opt_i(&api_g.opts, i) : 8u << 20;
    }
    case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: return 2;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: return (size_t)api_opt(OPT_EXEC_CDP_PENDING);
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY: return 64;
    default: return 0;
    }
}

static void ctx_reset_state(api_ctx *c, unsigned flags)
{
    c->flags = flags;
    c->dead = false;
    c->sticky = CUDA_SUCCESS;
    api_stream *l = &c->legacy;
    l->ctx = c;
    l->implicit = l->legacy = true;
    if (!l->refs) l->refs = 1;   /* embedded: never freed */
    l->sync_policy = CU_SYNC_POLICY_AUTO;
    l->domain_map.remote = 1;
    for (int l = 0; l < CU_LIMIT_MAX; l++) c->limits[l] = limit_default((CUlimit)l);
    c->cache_cfg = CU_FUNC_CACHE_PREFER_NONE;
    c->shmem_cfg = CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE;
    c->clock = 0;
}

void api_ctx_teardown(api_ctx *c)
{
    api_drain(c);   /* destroying a context waits for its work, as cuCtxDestroy does */
    api_capture_ctx_gone(c);
    while (c->mods) api_mod_destroy(c->mods);
    while (c->streams) api_stream_destroy(c->streams);
    while (c->events) api_event_destroy(c->events);
    api_tex_free_ctx(c);
    api_pool_ctx_gone(c);
    api_alloc_free_ctx(c);
    c->sticky = CUDA_SUCCESS;
    free(c->sticky_why);
    free(c->sticky_kernel);
    c->sticky_why = c->sticky_kernel = NULL;
    free(c->pending.why);
    free(c->pending.kernel);
    memset(&c->pending, 0, sizeof c->pending);
    c->faulted = false;
    c->epoch++;
}

bool api_dev_set_opt(const char *name, uint64_t value)
{
    if (!api_g.dev) return true;
    const tp_opts *o = exec_dev_opts(api_g.dev);
    int i = tp_opts_find(o, name);
    if (i < 0) return false;
    if ((uint64_t)tp_opt_i(o, i) == value) return true;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)value);
    tp_err e;
    tp_err_clear(&e);
    return exec_dev_set_opt(api_g.dev, name, buf, &e);
}

static bool flags_ok(unsigned flags)
{
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK) return false;
    unsigned sched = flags & CU_CTX_SCHED_MASK;
    return sched == 0 || sched == CU_CTX_SCHED_SPIN || sched == CU_CTX_SCHED_YIELD ||
           sched == CU_CTX_SCHED_BLOCKING_SYNC;
}

/* ---- creation and destruction ------------------------------------------- */

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!pctx || !flags_ok(flags)) return CUDA_ERROR_INVALID_VALUE;
    if ((r = api_need_dev())) return r;
    if (tls_n == API_CTX_STACK_MAX) return CUDA_ERROR_OUT_OF_MEMORY;
    api_ctx *c = tp_calloc(1, sizeof *c);
    c->id = api_g.next_id++;
    ctx_reset_state(c, flags);
    api_handle_add(c, API_K_CTX);
    stack_push(c);
    *pctx = c;
    return CUDA_SUCCESS;
}

API_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev) { API_LOCKED(ctx_create(pctx, flags, dev)); }
API_ALIAS(cuCtxCreate_v2, "cuCtxCreate");

static CUresult ctx_create_v3(CUcontext *pctx, CUexecAffinityParam *params, int n, unsigned flags, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (n < 0 || (n > 0 && !params)) return CUDA_ERROR_INVALID_VALUE;
    if (n > 0) return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
    return ctx_create(pctx, flags, dev);
}

API_EXPORT CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                                   unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags,
                        CUdevice dev)
{
    API_LOCKED(ctx_create_v3(pctx, paramsArray, numParams, flags, dev));
}

static CUresult ctx_create_v4(CUcontext *pctx, CUctxCreateParams *p, unsigned flags, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (p) {
        if (p->cigParams) {
            api_msg("cuCtxCreate: CUDA in graphics (CIG) contexts are not supported");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
        if ((r = ctx_create_v3(pctx, p->execAffinityParams, p->numExecAffinityParams, flags, dev))) return r;
        return CUDA_SUCCESS;
    }
    return ctx_create(pctx, flags, dev);
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
    API_LOCKED(ctx_create_v4(pctx, ctxCreateParams, flags, dev));
}

static CUresult ctx_destroy(CUcontext ctx)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(ctx, API_K_CTX) || ctx->dead || ctx->primary) return CUDA_ERROR_INVALID_CONTEXT;
    api_ctx_teardown(ctx);
    ctx->dead = true;
    api_ctx_stack_remove(ctx);
    return CUDA_SUCCESS;
}

CUresult cuCtxDestroy_v2(CUcontext ctx) { API_LOCKED(ctx_destroy(ctx)); }
API_ALIAS(cuCtxDestroy_v2, "cuCtxDestroy");

/* ---- the current-context stack -------------------------------------------- */

static CUresult push_current(CUcontext ctx)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(ctx, API_K_CTX) || ctx->dead) return CUDA_ERROR_INVALID_CONTEXT;
    return stack_push(ctx);
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx) { API_LOCKED(push_current(ctx)); }
API_ALIAS(cuCtxPushCurrent_v2, "cuCtxPushCurrent");

static CUresult pop_current(CUcontext *pctx)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (tls_n == 0) return CUDA_ERROR_INVALID_CONTEXT;
    api_ctx *c = tls_stack[--tls_n];
    if (pctx) *pctx = c;
    return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx) { API_LOCKED(pop_current(pctx)); }
API_ALIAS(cuCtxPopCurrent_v2, "cuCtxPopCurrent");

static CUresult set_current(CUcontext ctx)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!ctx) {
        if (tls_n > 0) tls_n--;
        return CUDA_SUCCESS;
    }
    if (!api_handle_is(ctx, API_K_CTX) || ctx->dead) return CUDA_ERROR_INVALID_CONTEXT;
    if (tls_n == 0) return stack_push(ctx);
    tls_stack[tls_n - 1] = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) { API_LOCKED(set_current(ctx)); }

static CUresult get_current(CUcontext *pctx)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    *pctx = tls_n ? tls_stack[tls_n - 1] : NULL;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx) { API_LOCKED(get_current(pctx)); }

/* ---- queries ------------------------------------------------------------------ */

static CUresult get_device(CUdevice *device, CUcontext ctx)
{
    api_ctx *c;
    CUresult r = api_ctx_arg(ctx, &c);
    if (r) return r;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device) { API_LOCKED(get_device(device, NULL)); }
CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx) { API_LOCKED(get_device(device, ctx)); }

static CUresult get_flags(unsigned *flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = c->flags;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetFlags(unsigned int *flags) { API_LOCKED(get_flags(flags)); }

static CUresult set_flags(unsigned flags)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    if (!flags_ok(flags)) return CUDA_ERROR_INVALID_VALUE;
    c->flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetFlags(unsigned int flags) { API_LOCKED(set_flags(flags)); }

static CUresult get_id(CUcontext ctx, unsigned long long *id)
{
    api_ctx *c;
    CUresult r = api_ctx_arg(ctx, &c);
    if (r) return r;
    if (!id) return CUDA_ERROR_INVALID_VALUE;
    *id = c->id;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId) { API_LOCKED(get_id(ctx, ctxId)); }

/* Waits for every stream of the context; returns the first kernel error. */
static CUresult synchronize(CUcontext ctx)
{
    api_ctx *c;
    CUresult r = ctx ? api_ctx_arg(ctx, &c) : api_current(&c, false);
    if (r) return r;
    if ((r = api_capture_unsafe(c, "cuCtxSynchronize"))) return r;
    return api_wait_ctx(c);
}

CUresult cuCtxSynchronize(void) { API_LOCKED(synchronize(NULL)); }
CUresult cuCtxSynchronize_v2(CUcontext ctx) { API_LOCKED(synchronize(ctx)); }

static CUresult api_version(CUcontext ctx, unsigned *version)
{
    api_ctx *c;
    CUresult r = api_ctx_arg(ctx, &c);
    if (r) return r;
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    *version = API_CTX_API_VERSION;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) { API_LOCKED(api_version(ctx, version)); }

/* ---- limits and cache preferences ------------------------------------------------ */

static CUresult set_limit(CUlimit limit, size_t value)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    switch (limit) {
    case CU_LIMIT_STACK_SIZE:
        if (value > (size_t)exec_optdefs[OPT_EXEC_STACK_BYTES].max) return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_LIMIT_MALLOC_HEAP_SIZE: {
        int i = tp_opts_find(&api_g.opts, "exec.heap_bytes");
        if (i >= 0 && (double)value > api_g.opts.defs[i].max) return CUDA_ERROR_INVALID_VALUE;
        break;
    }
    case CU_LIMIT_PRINTF_FIFO_SIZE:
        if (value == 0) return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: break;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:   /* the device's exec.cdp_pending_launches */
        if (value == 0 || value > (size_t)exec_optdefs[OPT_EXEC_CDP_PENDING].max) return CUDA_ERROR_INVALID_VALUE;
        /* a real GPU's driver raises smaller values to 32 (an H200 with CUDA
        ** 13 reads back 32 after 1, 16 or 31, and 33 after 33:
        ** tools/device/probe_api.cu) */
        if (value < 32) value = 32;
        api_drain(NULL);   /* for the kernels issued after this call, not those before */
        api_dev_lock();
        api_dev_set_opt("exec.cdp_pending_launches", value);
        api_dev_unlock();
        break;
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
        if (value > 128 || (value & (value - 1))) return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: {
        /* device.persisting_l2_max: 0 on devices without persisting L2 (below 8.0) */
        int64_t max = api_opt(OPT_DEVICE_PERSISTING_L2_MAX);
        if (max == 0 && value != 0) {
            api_why("%s GPUs have no L2 set-aside for persisting accesses (device.persisting_l2_max = 0)",
                    tp_opt_s(&api_g.opts, OPT_DEVICE_ARCH));
            return CUDA_ERROR_UNSUPPORTED_LIMIT;
        }
        if (value > (uint64_t)max) {
            api_why("a persisting L2 set-aside of %zu bytes; the device allows %lld (device.persisting_l2_max)", value,
                    (long long)max);
            return CUDA_ERROR_INVALID_VALUE;
        }
        break;
    }
    case CU_LIMIT_SHMEM_SIZE:
    case CU_LIMIT_CIG_ENABLED:
    case CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED: return CUDA_ERROR_UNSUPPORTED_LIMIT;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    c->limits[limit] = value;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value) { API_LOCKED(set_limit(limit, value)); }

static CUresult get_limit(size_t *pvalue, CUlimit limit)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    if (!pvalue) return CUDA_ERROR_INVALID_VALUE;
    if (limit == CU_LIMIT_SHMEM_SIZE || limit == CU_LIMIT_CIG_ENABLED ||
        limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED)
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    if ((unsigned)limit >= CU_LIMIT_MAX) return CUDA_ERROR_INVALID_VALUE;
    *pvalue = c->limits[limit];
    return CUDA_SUCCESS;
}

CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit) { API_LOCKED(get_limit(pvalue, limit)); }

static CUresult cache_config(CUfunc_cache *get, CUfunc_cache set, bool setting)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    if (setting) {
        if ((unsigned)set > CU_FUNC_CACHE_PREFER_EQUAL) return CUDA_ERROR_INVALID_VALUE;
        c->cache_cfg = set;
    } else {
        if (!get) return CUDA_ERROR_INVALID_VALUE;
        *get = c->cache_cfg;
    }
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig) { API_LOCKED(cache_config(pconfig, 0, false)); }
CUresult cuCtxSetCacheConfig(CUfunc_cache config) { API_LOCKED(cache_config(NULL, config, true)); }

static CUresult shmem_config(CUsharedconfig *get, CUsharedconfig set, bool setting)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    if (setting) {
        if ((unsigned)set > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) return CUDA_ERROR_INVALID_VALUE;
        c->shmem_cfg = set;
    } else {
        if (!get) return CUDA_ERROR_INVALID_VALUE;
        *get = c->shmem_cfg;
    }
    return CUDA_SUCCESS;
}

CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig) { API_LOCKED(shmem_config(pConfig, 0, false)); }
CUresult cuCtxSetSharedMemConfig(CUsharedconfig config) { API_LOCKED(shmem_config(NULL, config, true)); }

/* Priorities are accepted and kept; every stream runs in issue order. */
static CUresult priority_range(int *least, int *greatest)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    API_LOCKED(priority_range(leastPriority, greatestPriority));
}

static CUresult reset_persisting_l2(void)
{
    api_ctx *c;
    return api_current(&c, true);
}

CUresult cuCtxResetPersistingL2Cache(void) { API_LOCKED(reset_persisting_l2()); }

static CUresult exec_affinity(CUexecAffinityParam *p, CUexecAffinityType type)
{
    api_ctx *c;
    CUresult r = api_current(&c, false);
    if (r) return r;
    if (!p || type != CU_EXEC_AFFINITY_TYPE_SM_COUNT) return CUDA_ERROR_INVALID_VALUE;
    p->type = type;
    p->param.smCount.val = (unsigned)api_opt(OPT_DEVICE_NUM_SMS);
    return CUDA_SUCCESS;
}

CUresult cuCtxGetExecAffinity(CUexecAffinityParam *pExecAffinity, CUexecAffinityType type)
{
    API_LOCKED(exec_affinity(pExecAffinity, type));
}

static CUresult ctx_event(CUcontext ctx, CUevent ev, bool record)
{
    api_ctx *c;
    CUresult r = api_ctx_arg(ctx, &c);
    if (r) return r;
    if (!api_handle_is(ev, API_K_EVENT) || ev->ctx != c) return CUDA_ERROR_INVALID_HANDLE;
    if (c->sticky) return api_ctx_result(c, 0);
    /* the whole context's work so far: the device runs it in issue order,
    ** so an operation issued now comes after all of it */
    api_work w = {.kind = record ? API_W_RECORD : API_W_NOP};
    if (record) {
        w.u.rec.ev = ev;
        w.u.rec.gen = ++ev->gen;
        ev->refs++;
        ev->cap = NULL;
    }
    r = api_issue(c, NULL, &w, record ? NULL : &ev, record ? 0 : 1, NULL);
    if (r && record) {
        ev->gen--;
        ev->refs--;
    }
    return r;
}

CUresult cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent) { API_LOCKED(ctx_event(hCtx, hEvent, true)); }
CUresult cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent) { API_LOCKED(ctx_event(hCtx, hEvent, false)); }

/* ---- the primary context ------------------------------------------------------ */

CUresult api_primary_retain(api_ctx **out)
{
    api_ctx *p = &api_g.primary;
    if (p->dead) {
        CUresult r = api_need_dev();
        if (r) return r;
        ctx_reset_state(p, p->flags);
    }
    p->refs++;
    *out = p;
    return CUDA_SUCCESS;
}

CUresult api_primary_release(void)
{
    api_ctx *p = &api_g.primary;
    if (p->refs == 0) return CUDA_ERROR_INVALID_CONTEXT;
    if (--p->refs == 0) {
        api_ctx_teardown(p);
        p->dead = true;
    }
    return CUDA_SUCCESS;
}

static CUresult primary_retain(CUcontext *pctx, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    return api_primary_retain(pctx);
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) { API_LOCKED(primary_retain(pctx, dev)); }

static CUresult primary_release(CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    return api_primary_release();
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) { API_LOCKED(primary_release(dev)); }
API_ALIAS(cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease");

static CUresult primary_set_flags(CUdevice dev, unsigned flags)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!flags_ok(flags)) return CUDA_ERROR_INVALID_VALUE;
    api_g.primary.flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) { API_LOCKED(primary_set_flags(dev, flags)); }
API_ALIAS(cuDevicePrimaryCtxSetFlags_v2, "cuDevicePrimaryCtxSetFlags");

static CUresult primary_state(CUdevice dev, unsigned *flags, int *active)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
    *flags = api_g.primary.flags;
    *active = !api_g.primary.dead;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    API_LOCKED(primary_state(dev, flags, active));
}

/* Frees everything the primary context owns and clears its error; the
** retain count is kept, so a retained primary context stays usable. */
static CUresult primary_reset(CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    api_ctx *p = &api_g.primary;
    if (p->dead) return CUDA_SUCCESS;
    api_ctx_teardown(p);
    unsigned refs = p->refs;
    ctx_reset_state(p, p->flags);
    p->refs = refs;
    if (refs == 0) p->dead = true;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) { API_LOCKED(primary_reset(dev)); }
API_ALIAS(cuDevicePrimaryCtxReset_v2, "cuDevicePrimaryCtxReset");
