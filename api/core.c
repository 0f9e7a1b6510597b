/* core.c -- process state, locking, handles, cuInit, versions and error names. */
#include "api.h"
#include "../base/dso.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

api_state api_g;

/* The API lock: a plain mutex, made recursive by the holder's own count. */
static pthread_mutex_t api_mutex = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int api_depth;

void api_lock(void)
{
    if (api_depth++ == 0) pthread_mutex_lock(&api_mutex);
}

void api_unlock(void)
{
    TP_ASSERT(api_depth > 0);
    if (--api_depth == 0) pthread_mutex_unlock(&api_mutex);
}

int api_unlock_all(void)
{
    int d = api_depth;
    if (d) {
        api_depth = 0;
        pthread_mutex_unlock(&api_mutex);
    }
    return d;
}

void api_relock(int depth)
{
    if (!depth) return;
    pthread_mutex_lock(&api_mutex);
    api_depth = depth;
}

void api_cond_wait(pthread_cond_t *cv)
{
    TP_ASSERT(api_depth > 0);
    int d = api_depth;
    api_depth = 0;
    pthread_cond_wait(cv, &api_mutex);
    api_depth = d;
}

static pthread_mutex_t dev_mutex = PTHREAD_MUTEX_INITIALIZER;

void api_dev_lock(void) { pthread_mutex_lock(&dev_mutex); }
void api_dev_unlock(void) { pthread_mutex_unlock(&dev_mutex); }

double api_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void api_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tpsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
}

CUresult api_unsupported(const char *name, int *once, const void *caller)
{
    char lib[256];
    bool from_lib = tp_dso_lib_name(caller, lib, sizeof lib);
    api_lock();
    if (!*once) {
        *once = 1;
        if (from_lib) api_msg("%s is not supported yet (called from %s)", name, lib);
        else api_msg("%s is not supported yet", name);
    }
    api_unlock();
    api_fail_add(name, "CUDA_ERROR_NOT_SUPPORTED", NULL, "tpsim does not implement this entry point", caller);
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* ---- handles -------------------------------------------------------------- */

void api_handle_add(const void *p, enum api_kind k)
{
    tp_map_putp(&api_g.handles, (uint64_t)(uintptr_t)p, (void *)(uintptr_t)k);
}

void api_handle_del(const void *p) { tp_map_delp(&api_g.handles, (uint64_t)(uintptr_t)p); }

bool api_handle_is(const void *p, enum api_kind k)
{
    return p && (uintptr_t)tp_map_getp(&api_g.handles, (uint64_t)(uintptr_t)p) == (uintptr_t)k;
}

/* ---- checks ---------------------------------------------------------------- */

CUresult api_check_init(void) { return api_g.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED; }

CUresult api_check_dev(CUdevice d)
{
    if (!api_g.initialized) return CUDA_ERROR_NOT_INITIALIZED;
    return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult api_ctx_arg(CUcontext h, api_ctx **c)
{
    if (!api_g.initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!h) return api_current(c, false);
    if (!api_handle_is(h, API_K_CTX) || h->dead) return CUDA_ERROR_INVALID_CONTEXT;
    *c = h;
    return CUDA_SUCCESS;
}

CUresult api_stream_arg(api_ctx *c, CUstream h, api_stream **s)
{
    *s = NULL;
    if (h == NULL || h == CU_STREAM_LEGACY) return CUDA_SUCCESS;
    if (h == CU_STREAM_PER_THREAD) {
        *s = api_ptds(c);
        return CUDA_SUCCESS;
    }
    if (!api_handle_is(h, API_K_STREAM) || h->ctx != c) return CUDA_ERROR_INVALID_HANDLE;
    *s = h;
    return CUDA_SUCCESS;
}

CUresult api_need_dev(void)
{
    if (api_g.dev) return CUDA_SUCCESS;
    tp_err e;
    tp_err_clear(&e);
    api_g.dev = exec_dev_create(&api_g.opts, api_print_file(), &e);
    if (!api_g.dev) {
        api_msg("cannot create the simulated device: %s", e.msg);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    /* register sharing (regs.policy): the policies' compiler and hooks */
    exec_dev_set_pass(api_g.dev, rs_compile, NULL);
    exec_dev_set_regshare(api_g.dev, rs_exec_hooks());
    api_dev_attributes_to_exec();
    return CUDA_SUCCESS;
}

/* ---- cuInit and versions ------------------------------------------------------ */

static CUresult init(unsigned flags)
{
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (api_g.initialized) return CUDA_SUCCESS;
    tp_err e;
    tp_err_clear(&e);
    tp_opts o;
    if (!gpu_opts_from_env(&o, &e)) {
        api_msg("%s", e.msg);
        tp_opts_free(&o);
        return CUDA_ERROR_INVALID_VALUE;
    }
    api_g.opts = o;
    api_g.next_id = 1;
    api_g.next_seq = 1;
    api_g.next_batch = 1;
    api_g.async = api_opt(OPT_STREAM_ASYNC) != 0;
    api_g.t_start = api_now();
    api_ctx *p = &api_g.primary;
    p->primary = true;
    p->dead = true;
    p->id = api_g.next_id++;
    api_handle_add(p, API_K_CTX);
    api_g.initialized = true;
    api_stats_init();
    api_checks_init();
    return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int Flags) { API_LOCKED(init(Flags)); }

static CUresult driver_version(int *v)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = API_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion) { API_LOCKED(driver_version(driverVersion)); }

/* ---- error names ---------------------------------------------------------- */

const char *api_result_name(CUresult r)
{
    switch ((int)r) {
#define X(name, val, desc) \
    case val: return #name;
#include "errors.def"
#undef X
    }
    return NULL;
}

const char *api_result_desc(CUresult r)
{
    switch ((int)r) {
#define X(name, val, desc) \
    case val: return desc;
#include "errors.def"
#undef X
    }
    return NULL;
}

static CUresult error_text(CUresult error, const char **pStr, bool name)
{
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    *pStr = name ? api_result_name(error) : api_result_desc(error);
    if (!*pStr) api_why("%d is not a CUresult", (int)error);
    return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **pStr) { API_LOCKED(error_text(error, pStr, true)); }
CUresult cuGetErrorString(CUresult error, const char **pStr) { API_LOCKED(error_text(error, pStr, false)); }

/* ---- the profiler control calls (cudaProfiler.h): nothing to start ---------- */

API_EXPORT CUresult cuProfilerInitialize(const char *configFile, const char *outputFile, int outputMode);
API_EXPORT CUresult cuProfilerStart(void);
API_EXPORT CUresult cuProfilerStop(void);

CUresult cuProfilerInitialize(const char *configFile, const char *outputFile, int outputMode)
{
    (void)configFile, (void)outputFile, (void)outputMode;
    return CUDA_SUCCESS;
}
CUresult cuProfilerStart(void) { API_LOCKED(api_check_init()); }
CUresult cuProfilerStop(void) { API_LOCKED(api_check_init()); }
