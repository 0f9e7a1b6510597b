/* rt_core.c -- process state, the runtime's context, errors and their
** account, versions. */
#include "rt.h"
#include "../api/rtiface.h"
#include "../base/dso.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

rt_state rt_g;

static pthread_mutex_t rt_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static _Thread_local cudaError_t tls_last;

/* The current call's reason and kernel (rt_why). */
static _Thread_local char tls_why[1024], tls_kernel[256];

void rt_lock(void) { pthread_mutex_lock(&rt_mutex); }
void rt_unlock(void) { pthread_mutex_unlock(&rt_mutex); }

void rt_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tpsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
}

/* ---- the failure account --------------------------------------------------------
** The driver's private table (api/rtiface.h), asked for once; the runtime's
** own address range, to tell its internal calls from the program's. */

static const api_rtiface *iface;
static uintptr_t self_lo, self_hi;
static pthread_once_t iface_once = PTHREAD_ONCE_INIT;

static void iface_get(void)
{
    tp_dso_range((const void *)(uintptr_t)&iface_get, &self_lo, &self_hi);
    static const char id[16] = API_RTIFACE_UUID;
    CUuuid u;
    memcpy(u.bytes, id, 16);
    const void *t = NULL;
    if (cuGetExportTable(&t, &u) != CUDA_SUCCESS || !t) return;
    const api_rtiface *f = t;
    if (f->size < sizeof *f) return;
    iface = f;
    iface->runtime_is((const void *)(uintptr_t)&iface_get);
}

static const api_rtiface *drv(void)
{
    pthread_once(&iface_once, iface_get);
    return iface;
}

static bool inside(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    return self_hi && a >= self_lo && a < self_hi;
}

void rt_why(const char *fmt, ...)
{
    if (tls_why[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tls_why, sizeof tls_why, fmt, ap);
    va_end(ap);
}

void rt_why_kernel(const char *name)
{
    if (!tls_kernel[0] && name) snprintf(tls_kernel, sizeof tls_kernel, "%s", name);
}

bool rt_driver_why(char *why, size_t n)
{
    const api_rtiface *t = drv();
    return t && t->take_failure(NULL, 0, why, n) != 0 && why[0];
}

void rt_refused_launch(const char *kernel, dim3 grid, dim3 block, size_t shared, cudaError_t e)
{
    const api_rtiface *t = drv();
    if (!t) return;
    unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    t->note_refused_launch(kernel, g, b, shared, cudaGetErrorName(e), tls_why[0] ? tls_why : NULL);
}

/* Not-ready is a status, not an error: it does not become the last error
** and is not a failure. */
cudaError_t rt_ret_at(const char *api, const void *caller, cudaError_t e)
{
    const api_rtiface *t = drv();
    if (inside(caller)) {
        /* an entry point the runtime called itself: its caller accounts */
        if (e != cudaSuccess && e != cudaErrorNotReady) tls_last = e;
        return e;
    }
    char dk[256], dw[1024];
    int dr = t ? t->take_failure(dk, sizeof dk, dw, sizeof dw) : 0;
    if (strncmp(api, "__cuda", 6) == 0) api += 2;   /* <<<>>>'s __cudaLaunchKernel is cudaLaunchKernel */
    if (e != cudaSuccess && e != cudaErrorNotReady) {
        tls_last = e;
        const char *why = tls_why[0] ? tls_why : NULL, *kernel = tls_kernel[0] ? tls_kernel : NULL;
        /* the driver call that failed in this runtime call says why (every
        ** runtime call takes the driver's record, so it is this call's) */
        if (!why && dr && dw[0]) why = dw;
        if (!kernel && dr && dk[0]) kernel = dk;
        if (!why) why = cudaGetErrorString(e);
        if (t) t->note_failure(api, cudaGetErrorName(e), kernel, why, caller);
    }
    tls_why[0] = tls_kernel[0] = '\0';
    return e;
}

cudaError_t rt_unsupported(const char *name, int *once, const void *caller)
{
    char lib[256];
    bool from_lib = tp_dso_lib_name(caller, lib, sizeof lib);
    rt_lock();
    if (!*once) {
        *once = 1;
        if (from_lib) rt_msg("%s is not supported yet (called from %s)", name, lib);
        else rt_msg("%s is not supported yet", name);
    }
    rt_unlock();
    rt_why("tpsim does not implement this entry point");
    return rt_ret_at(name, caller, cudaErrorNotSupported);
}

/* ---- errors ---------------------------------------------------------------------- */

cudaError_t rt_err(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return cudaSuccess;
    case CUDA_ERROR_INVALID_VALUE: return cudaErrorInvalidValue;
    case CUDA_ERROR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case CUDA_ERROR_NOT_INITIALIZED: return cudaErrorInitializationError;
    case CUDA_ERROR_DEINITIALIZED: return cudaErrorCudartUnloading;
    case CUDA_ERROR_PROFILER_DISABLED: return cudaErrorProfilerDisabled;
    case CUDA_ERROR_PROFILER_NOT_INITIALIZED: return cudaErrorProfilerNotInitialized;
    case CUDA_ERROR_PROFILER_ALREADY_STARTED: return cudaErrorProfilerAlreadyStarted;
    case CUDA_ERROR_PROFILER_ALREADY_STOPPED: return cudaErrorProfilerAlreadyStopped;
    case CUDA_ERROR_STUB_LIBRARY: return cudaErrorStubLibrary;
    case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER: return cudaErrorCallRequiresNewerDriver;
    case CUDA_ERROR_DEVICE_UNAVAILABLE: return cudaErrorDevicesUnavailable;
    case CUDA_ERROR_NOT_FOUND: return cudaErrorSymbolNotFound;
    default: break;
    }
    /* From 100 on the runtime uses the driver's values. */
    int v = (int)r;
    switch (v) {
#define X(name, value, desc) case value:
#include "rt_errors.def"
#undef X
        if (v >= 100) return (cudaError_t)v;
        break;
    default: break;
    }
    return cudaErrorUnknown;
}

const char *cudaGetErrorName(cudaError_t error)
{
    switch ((int)error) {
#define X(name, value, desc) \
    case value: return #name;
#include "rt_errors.def"
#undef X
    }
    return "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error)
{
    const char *d = NULL;
    switch ((int)error) {
#define X(name, value, desc) \
    case value: d = desc; break;
#include "rt_errors.def"
#undef X
    default: return "unrecognized error code";
    }
    if (!d && cuGetErrorString((CUresult)error, &d) != CUDA_SUCCESS) d = NULL;
    return d ? d : "unrecognized error code";
}


static bool is_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure: return true;
    default: return false;
    }
}

cudaError_t rt_check(CUresult r)
{
    cudaError_t e = rt_err(r);
    if (is_sticky(e)) {
        rt_lock();
        if (!rt_g.sticky) rt_g.sticky = e;
        rt_unlock();
    }
    return e;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = tls_last;
    tls_last = cudaSuccess;
    if (rt_g.sticky) return rt_g.sticky;
    return e;
}

cudaError_t cudaPeekAtLastError(void) { return rt_g.sticky ? rt_g.sticky : tls_last; }

/* ---- the runtime's context ---------------------------------------------------------- */

static cudaError_t init(void)
{
    if (rt_g.inited) return cudaSuccess;
    drv();   /* before the first other driver call: they are the runtime's */
    rt_lock();
    if (!rt_g.inited && !rt_g.init_error) {
        CUresult r = cuInit(0);
        if (r == CUDA_SUCCESS) rt_g.inited = true;
        else rt_g.init_error = r == CUDA_ERROR_NO_DEVICE ? cudaErrorNoDevice : cudaErrorInitializationError;
    }
    rt_unlock();
    return rt_g.init_error;
}

cudaError_t rt_ctx(CUcontext *ctx, bool sticky)
{
    cudaError_t e = init();
    if (e) return e;
    CUcontext c = NULL;
    cuCtxGetCurrent(&c);
    if (!c) {
        rt_lock();
        CUresult r = CUDA_SUCCESS;
        if (!rt_g.primary) {
            r = cuDevicePrimaryCtxRetain(&rt_g.primary, 0);
            if (r == CUDA_SUCCESS && rt_g.device_flags)
                cuDevicePrimaryCtxSetFlags(0, rt_g.device_flags & (unsigned)CU_CTX_SCHED_MASK);
        }
        rt_unlock();
        if (r) return rt_err(r);
        if ((r = cuCtxSetCurrent(rt_g.primary))) return rt_err(r);
        c = rt_g.primary;
    }
    if (ctx) *ctx = c;
    if (sticky && c == rt_g.primary && rt_g.sticky) {
        rt_why("an earlier kernel error (%s) left the device unusable until cudaDeviceReset",
               cudaGetErrorName(rt_g.sticky));
        return rt_g.sticky;
    }
    return cudaSuccess;
}

cudaError_t rt_begin(void) { return rt_ctx(NULL, true); }

/* ---- versions ------------------------------------------------------------------------ */

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion) return rt_ret(cudaErrorInvalidValue);
    return rt_ret(rt_err(cuDriverGetVersion(driverVersion)));
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion) return rt_ret(cudaErrorInvalidValue);
    *runtimeVersion = RT_RUNTIME_VERSION;
    return cudaSuccess;
}

/* ---- the profiler: nothing to start ------------------------------------------------------ */

cudaError_t cudaProfilerStart(void) { return rt_ret(rt_ctx(NULL, false)); }
cudaError_t cudaProfilerStop(void) { return rt_ret(rt_ctx(NULL, false)); }

/* ---- driver entry points: the driver's cuGetProcAddress ------------------------------
** cudaEnable* flags and cudaDriverEntryPointQueryResult values are the
** driver's CU_GET_PROC_ADDRESS_* and CUdriverProcAddressQueryResult. */

static cudaError_t entry_point(const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
                               enum cudaDriverEntryPointQueryResult *driverStatus)
{
    if (!symbol || !funcPtr) return cudaErrorInvalidValue;
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return e;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SUCCESS;
    CUresult r = cuGetProcAddress(symbol, funcPtr, (int)cudaVersion, flags, &st);
    if (driverStatus) *driverStatus = (enum cudaDriverEntryPointQueryResult)st;
    /* a missing symbol is reported through the status, as NVIDIA's runtime does */
    return r == CUDA_ERROR_NOT_FOUND && driverStatus ? cudaSuccess : rt_err(r);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                             unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return rt_ret(entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus));
}
RT_ALIAS(cudaGetDriverEntryPointByVersion, "cudaGetDriverEntryPointByVersion_ptsz");

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *driverStatus)
{
    return rt_ret(entry_point(symbol, funcPtr, RT_RUNTIME_VERSION, flags, driverStatus));
}
RT_ALIAS(cudaGetDriverEntryPoint, "cudaGetDriverEntryPoint_ptsz");
