/* rt_register.c -- the registration entry points nvcc's host code calls,
** and lazy module loading.
**
** Each translation unit's static constructor registers its fatbinary
** wrapper (__cudaRegisterFatBinary), then through a callback its kernels
** (__cudaRegisterFunction: host stub address, PTX name) and variables
** (__cudaRegisterVar, __cudaRegisterManagedVar: host shadow address, PTX
** name), then calls __cudaRegisterFatBinaryEnd; an atexit handler calls
** __cudaUnregisterFatBinary.  Nothing is loaded then: as with CUDA's lazy
** loading, a fatbinary becomes a module of the current context the first
** time one of its kernels or variables is used (or __cudaInitModule asks,
** which the host code does before it touches a __managed__ variable).
**
** Relocatable device code (-rdc=true): the program registers one wrapper
** of version 2 whose second pointer lists the fatbinaries of every object
** linked into it; their PTX is linked by the driver's JIT linker
** (cuLinkAddData, which links PTX text) into one module.
*/
#include "rt.h"
#include <stdio.h>
#include <stdlib.h>

/* __fatBinC_Wrapper_t (fatbinary_section.h) */
typedef struct rt_wrapper {
    uint32_t magic, version;
    const void *data;
    const void *const *prelinked;   /* version 2: NULL-terminated */
} rt_wrapper;

#define RT_WRAPPER_MAGIC 0x466243B1u
#define RT_FATBIN_MAGIC 0xBA55ED50u

/* ---- registration -------------------------------------------------------------- */

RT_EXPORT void **__cudaRegisterFatBinary(void *fatCubin);
RT_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
RT_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle);
RT_EXPORT void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, void *tid, void *bid, void *bDim,
                                      void *gDim, int *wSize);
RT_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName,
                                 int ext, size_t size, int constant, int global);
RT_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant, int global);
RT_EXPORT char __cudaInitModule(void **fatCubinHandle);

void **__cudaRegisterFatBinary(void *fatCubin)
{
    rt_fatbin *fb = tp_calloc(1, sizeof *fb);
    fb->wrapper = fatCubin;
    rt_lock();
    fb->next = rt_g.fatbins;
    rt_g.fatbins = fb;
    rt_unlock();
    return (void **)fb;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle) { (void)fatCubinHandle; }

/* At exit: the modules go with the context; the records stay (a kernel
** launched from another atexit handler still finds its stub). */
void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    rt_fatbin *fb = (rt_fatbin *)fatCubinHandle;
    if (fb) fb->unregistered = true;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, void *tid, void *bid, void *bDim, void *gDim, int *wSize)
{
    (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    const char *name = deviceName ? deviceName : deviceFun;
    if (!fatCubinHandle || !hostFun || !name) return;
    rt_func *f = tp_calloc(1, sizeof *f);
    f->fb = (rt_fatbin *)fatCubinHandle;
    f->host = hostFun;
    f->name = tp_strdup(name);
    rt_lock();
    rt_map_put(&rt_g.funcs, hostFun, f);
    rt_map_put(&rt_g.funcs_by_handle, f, f);
    rt_unlock();
}

static void register_var(void **h, const void *host, const char *name, size_t size, bool constant, bool managed)
{
    if (!h || !host || !name) return;
    rt_var *v = tp_calloc(1, sizeof *v);
    v->fb = (rt_fatbin *)h;
    v->host = host;
    v->name = tp_strdup(name);
    v->size = size;
    v->constant = constant;
    v->managed = managed;
    rt_lock();
    rt_map_put(&rt_g.vars, host, v);
    if (managed) {
        rt_fatbin *fb = v->fb;
        fb->vars = tp_realloc(fb->vars, (fb->nvars + 1) * sizeof *fb->vars);
        fb->vars[fb->nvars++] = v;
    }
    rt_unlock();
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global)
{
    (void)ext, (void)global;
    register_var(fatCubinHandle, hostVar, deviceName ? deviceName : deviceAddress, size, constant != 0, false);
}

/* A __managed__ variable: the host reaches it through a pointer
** (*hostVarPtrAddress), set when the module loads to the variable's device
** address -- a host address too, since device memory is identity-mapped. */
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)ext, (void)global;
    register_var(fatCubinHandle, hostVarPtrAddress, deviceName ? deviceName : deviceAddress, size, constant != 0,
                 true);
}

/* Loads the module now; nonzero on success. */
char __cudaInitModule(void **fatCubinHandle)
{
    rt_fatbin *fb = (rt_fatbin *)fatCubinHandle;
    CUmodule m;
    return fb && rt_begin() == cudaSuccess && rt_fatbin_module(fb, &m) == cudaSuccess;
}

/* Internal registration calls NVIDIA's runtime exports and nvcc 13's host
** code does not use; each says so once if a program calls it. */
#define RT_VOID_STUB(name)                                                     \
    RT_EXPORT void name(void);                                                 \
    void name(void)                                                            \
    {                                                                          \
        static int once;                                                       \
        rt_unsupported(#name, &once, __builtin_return_address(0));            \
    }
RT_VOID_STUB(__cudaRegisterHostVar)
RT_VOID_STUB(__cudaRegisterUnifiedTable)

RT_EXPORT cudaError_t __cudaGetProcAddress(void);
cudaError_t __cudaGetProcAddress(void)
{
    static int once;
    return rt_unsupported("__cudaGetProcAddress", &once, __builtin_return_address(0));
}

/* ---- lookups ---------------------------------------------------------------------- */

rt_func *rt_func_of(const void *host)
{
    if (!host) return NULL;
    rt_lock();
    rt_func *f = rt_map_get(&rt_g.funcs, host);
    if (!f) f = rt_map_get(&rt_g.funcs_by_handle, host);
    rt_unlock();
    return f;
}

rt_var *rt_var_of(const void *host)
{
    if (!host) return NULL;
    rt_lock();
    rt_var *v = rt_map_get(&rt_g.vars, host);
    rt_unlock();
    return v;
}

void rt_modules_reset(void)
{
    rt_lock();
    rt_g.gen++;
    rt_unlock();
}

/* ---- loading --------------------------------------------------------------------- */

static size_t fatbin_size(const void *fb)
{
    const uint8_t *b = fb;
    uint32_t magic;
    uint16_t hs;
    uint64_t total;
    memcpy(&magic, b, 4);
    memcpy(&hs, b + 6, 2);
    memcpy(&total, b + 8, 8);
    return magic == RT_FATBIN_MAGIC ? (size_t)(hs + total) : 0;
}

/* The module of a version 2 (relocatable device code) wrapper: the PTX of
** every linked object, linked. */
static CUresult load_linked(const rt_wrapper *w, CUmodule *out)
{
    unsigned n = 0;
    while (w->prelinked && w->prelinked[n]) n++;
    if (n == 0) return cuModuleLoadData(out, w->data);
    if (n == 1) return cuModuleLoadData(out, w->prelinked[0]);
    CUlinkState ls;
    CUresult r = cuLinkCreate(0, NULL, NULL, &ls);
    if (r) return r;
    for (unsigned i = 0; i < n && !r; i++) {
        size_t size = fatbin_size(w->prelinked[i]);
        char name[64];
        snprintf(name, sizeof name, "relocatable object %u of %u", i + 1, n);
        r = size ? cuLinkAddData(ls, CU_JIT_INPUT_FATBINARY, (void *)w->prelinked[i], size, name, 0, NULL, NULL)
                 : CUDA_ERROR_INVALID_IMAGE;
    }
    void *img = NULL;
    size_t bytes = 0;
    if (!r) r = cuLinkComplete(ls, &img, &bytes);
    if (!r) r = cuModuleLoadData(out, img);
    cuLinkDestroy(ls);
    return r;
}

cudaError_t rt_fatbin_module(rt_fatbin *fb, CUmodule *out)
{
    CUcontext ctx;
    cudaError_t e = rt_ctx(&ctx, false);
    if (e) return e;
    rt_lock();
    if (fb->mod && fb->mod_ctx == ctx && fb->mod_gen == rt_g.gen) {
        *out = fb->mod;
        rt_unlock();
        return cudaSuccess;
    }
    if (fb->load_error && fb->error_gen == rt_g.gen) {
        e = fb->load_error;
        if (fb->load_why) rt_why("%s", fb->load_why);
        rt_unlock();
        return e;
    }
    const rt_wrapper *w = fb->wrapper;
    CUmodule m = NULL;
    CUresult r;
    if (!w || w->magic != RT_WRAPPER_MAGIC || !w->data) r = CUDA_ERROR_INVALID_IMAGE;
    else if (w->version == 2) r = load_linked(w, &m);
    else r = cuModuleLoadData(&m, w->data);
    if (r) {
        e = rt_err(r);
        if (e == cudaErrorInvalidKernelImage || e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidPtx ||
            e == cudaErrorNotSupported) {
            fb->load_error = e;   /* a broken image: say so once, not at every launch */
            fb->error_gen = rt_g.gen;
            char why[1024];
            if (rt_driver_why(why, sizeof why)) {
                free(fb->load_why);
                fb->load_why = tp_strdup(why);
                rt_why("%s", why);
            }
        }
        rt_unlock();
        return e;
    }
    fb->mod = m;
    fb->mod_ctx = ctx;
    fb->mod_gen = rt_g.gen;
    /* point the host's managed-variable pointers at the new module's variables */
    for (uint32_t i = 0; i < fb->nvars; i++) {
        CUdeviceptr a;
        size_t n;
        if (cuModuleGetGlobal(&a, &n, m, fb->vars[i]->name) == CUDA_SUCCESS)
            *(void **)fb->vars[i]->host = (void *)(uintptr_t)a;
    }
    *out = m;
    rt_unlock();
    return cudaSuccess;
}

cudaError_t rt_func_load(rt_func *f, CUfunction *out)
{
    CUcontext ctx;
    cudaError_t e = rt_ctx(&ctx, false);
    if (e) return e;
    rt_lock();
    if (f->fn && f->fn_ctx == ctx && f->fn_gen == rt_g.gen) {
        *out = f->fn;
        rt_unlock();
        return cudaSuccess;
    }
    CUmodule m;
    e = rt_fatbin_module(f->fb, &m);
    if (!e) {
        CUresult r = cuModuleGetFunction(&f->fn, m, f->name);
        if (r == CUDA_ERROR_NOT_FOUND) {
            rt_msg("kernel %s is registered but its module has no such .entry", f->name);
            e = cudaErrorInvalidDeviceFunction;
        } else {
            e = rt_err(r);
        }
        if (!e) {
            f->fn_ctx = ctx;
            f->fn_gen = rt_g.gen;
            *out = f->fn;
        }
    }
    rt_unlock();
    return e;
}

cudaError_t rt_var_addr(rt_var *v, CUdeviceptr *addr, size_t *size)
{
    CUmodule m;
    cudaError_t e = rt_fatbin_module(v->fb, &m);
    if (e) return e;
    size_t n = 0;
    CUresult r = cuModuleGetGlobal(addr, &n, m, v->name);
    if (r == CUDA_ERROR_NOT_FOUND) return cudaErrorInvalidSymbol;
    if (r) return rt_err(r);
    if (size) *size = n;
    return cudaSuccess;
}
