/*
** rt.h -- the internals of tpsim's CUDA runtime (libcudart.so.13).
** Module prefix: rt_ (internal names); the exported names are CUDA's own.
**
** The runtime is a client of the driver API: every operation is a call into
** libcuda.so.1 (tpsim's, found next to this library through its $ORIGIN
** run path), so a program that uses both APIs sees one device, one primary
** context and one set of allocations.  What the runtime adds:
**
**   - the registration protocol of nvcc's host code (rt_register.c): each
**     translation unit registers its fatbinary, kernels (by their host stub
**     address), __device__/__constant__ and __managed__ variables (by their
**     host shadow address) from a static constructor; the fatbinary is
**     loaded into the current context as a module at first use, and again
**     after cudaDeviceReset;
**   - the runtime's implicit context: the device's primary context,
**     retained on first use and made current on each thread that calls the
**     runtime without a current context (as NVIDIA's runtime does);
**   - per-thread error state: the last error (cudaGetLastError) and the
**     sticky error that poisons the context after a kernel fault, returned
**     by every later call until cudaDeviceReset;
**   - CUDA arrays, channel descriptors and texture/surface object
**     descriptors translated to the driver's;
**   - the account of its failed calls: every runtime call that returns an
**     error to the program is handed to the driver's account (api/fail.c,
**     through the private table of api/rtiface.h) with the runtime's reason
**     or, when a driver call it made failed, the driver's.
**
** Locking: one recursive mutex serialises registration and module loading;
** everything else is serialised by the driver.
*/
#ifndef RT_H
#define RT_H

#include "../base/tp.h"
#include "../base/map.h"
#include "../api/include/cuda.h"

/* Every function cuda_runtime_api.h declares is exported (default
** visibility); the version script cudart/libcudart.map gives them the
** version node libcudart.so.13 that nvcc-built programs import. */
#pragma GCC visibility push(default)
#include "include/cuda_runtime_api.h"
#pragma GCC visibility pop

#include <pthread.h>

#define RT_RUNTIME_VERSION 13000
#define RT_EXPORT __attribute__((visibility("default")))
#define RT_CAT2(a, b) a##b
#define RT_CAT(a, b) RT_CAT2(a, b)
/* Exports another symbol name for an already defined function (the _ptds
** and _ptsz twins of the per-thread default stream mode). */
#define RT_ALIAS(target, sym)                                                  \
    extern __typeof__(target) RT_CAT(rt_alias_, __LINE__) __asm__(sym)          \
        __attribute__((alias(#target), visibility("default")))

/* ---- registered code ----------------------------------------------------------- */

typedef struct rt_fatbin rt_fatbin;

/* A kernel: its host stub (the address <<<>>> and cudaLaunchKernel name it
** by) and its PTX name. */
typedef struct rt_func {
    rt_fatbin *fb;
    const void *host;
    char *name;
    CUfunction fn;         /* in fn_ctx, valid while fn_gen == rt_g.gen */
    CUcontext fn_ctx;
    uint64_t fn_gen;
} rt_func;

/* A __device__, __constant__ or __managed__ variable: its host shadow (the
** address the symbol calls name it by) and its PTX name. */
typedef struct rt_var {
    rt_fatbin *fb;
    const void *host;
    char *name;
    size_t size;
    bool constant;
    bool managed;          /* host is the address of the host's pointer to it */
} rt_var;

struct rt_fatbin {
    const void *wrapper;   /* __fatBinC_Wrapper_t: magic, version, data, prelinked list */
    CUmodule mod;          /* in mod_ctx, valid while mod_gen == rt_g.gen */
    CUcontext mod_ctx;
    uint64_t mod_gen;
    cudaError_t load_error;/* a load that failed (reported once per generation) */
    char *load_why;        /* and why, for every later call that meets it */
    uint64_t error_gen;
    rt_var **vars;         /* managed variables to point after each load */
    uint32_t nvars;
    bool unregistered;
    rt_fatbin *next;
};

/* ---- process state ---------------------------------------------------------------- */

/* The maps below key by pointer: rt_map_get/rt_map_put over base/map.h. */
static inline void *rt_map_get(const tp_map *m, const void *key) { return tp_map_getp(m, (uint64_t)(uintptr_t)key); }
static inline void rt_map_put(tp_map *m, const void *key, void *val) { tp_map_putp(m, (uint64_t)(uintptr_t)key, val); }

typedef struct rt_state {
    bool inited;           /* cuInit succeeded */
    cudaError_t init_error;
    CUcontext primary;     /* retained on first use */
    uint64_t gen;          /* bumped by cudaDeviceReset: modules must be reloaded */
    cudaError_t sticky;    /* the primary context's sticky error */
    rt_fatbin *fatbins;
    tp_map funcs;          /* host stub -> rt_func */
    tp_map vars;           /* host shadow -> rt_var */
    tp_map funcs_by_handle;/* rt_func (a cudaKernel_t) -> itself */
    unsigned device_flags; /* cudaSetDeviceFlags */
} rt_state;

extern rt_state rt_g;

void rt_lock(void);
void rt_unlock(void);

/* ---- errors and context (rt_core.c) ------------------------------------------------ */

/* The runtime error for a driver result. */
cudaError_t rt_err(CUresult r);
/* Records e as the thread's last error (unless it is success) and returns
** it: every exported entry point ends with `return rt_ret(e)` (and only
** they do: the macro names the entry point and the address it was called
** from).  An error returned to a caller outside the runtime is recorded in
** the failure account with its reason (rt_why, else the failed driver
** call's, else the error's description). */
#define rt_ret(e) rt_ret_at(__func__, __builtin_return_address(0), (e))
cudaError_t rt_ret_at(const char *api, const void *caller, cudaError_t e);
/* The reason the current runtime call fails, in words with the numbers
** (the first one set is kept), and the kernel it is about. */
void rt_why(const char *fmt, ...) TP_PRINTF(1, 2);
void rt_why_kernel(const char *name);
/* Takes the reason of the last failed driver call this thread made for the
** runtime (false if there is none). */
bool rt_driver_why(char *why, size_t n);
/* A launch the runtime refuses itself, for the statistics file's list. */
void rt_refused_launch(const char *kernel, dim3 grid, dim3 block, size_t shared, cudaError_t e);
/* Makes sure the driver is initialized and a context is current on this
** thread (the primary context unless the program made another current);
** *ctx receives it.  With sticky, a poisoned context's error is returned. */
cudaError_t rt_ctx(CUcontext *ctx, bool sticky);
/* Shorthand: rt_ctx(&c, true) when the context itself is not needed. */
cudaError_t rt_begin(void);
/* The result of a driver call that may have run a kernel: a sticky error
** poisons the runtime's context. */
cudaError_t rt_check(CUresult r);
/* Prints "tpsim: message" on stderr. */
void rt_msg(const char *fmt, ...) TP_PRINTF(1, 2);
/* An entry point tpsim does not implement, called from caller: prints
** "tpsim: NAME is not supported yet" once per name (naming the calling
** library when that is not the program); records and returns
** cudaErrorNotSupported. */
cudaError_t rt_unsupported(const char *name, int *once, const void *caller);

/* ---- registration and launches (rt_register.c, rt_launch.c) --------------------------- */

/* The fatbinary's module in the current context, loaded on first use. */
cudaError_t rt_fatbin_module(rt_fatbin *fb, CUmodule *out);
/* The kernel registered for a host stub (or a cudaKernel_t), or NULL. */
rt_func *rt_func_of(const void *host);
/* The kernel's CUfunction in the current context, loading its module. */
cudaError_t rt_func_load(rt_func *f, CUfunction *out);
/* The variable registered for a host shadow, or NULL. */
rt_var *rt_var_of(const void *host);
/* The variable's device address and size in the current context. */
cudaError_t rt_var_addr(rt_var *v, CUdeviceptr *addr, size_t *size);
/* Forgets every loaded module (cudaDeviceReset). */
void rt_modules_reset(void);

/* ---- memory helpers (rt_memory.c) ------------------------------------------------------- */

/* A copy of count bytes; kind is checked against where dst and src lie. */
cudaError_t rt_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, bool async, cudaStream_t s);
/* A runtime 3D copy's parameters as the driver's (checked as cudaMemcpy3D checks them). */
cudaError_t rt_copy3d_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *out);

#endif
