/* suite_compat.h -- what CUDA 13 removed that the public suites' programs
 * (experiments/suites.md) still use, so that they build unmodified with
 * nvcc 13: every source is compiled with `-include suite_compat.h`.
 * tpsim's own shim (the same ideas as tools/suite_ptx.sh's), not suite code.
 *   - cudaThreadSynchronize / cudaThreadExit / cudaThreadSetCacheConfig:
 *     the cudaDevice* calls that replaced them;
 *   - cudaDeviceProp fields gone in CUDA 13 (printed by host code only):
 *     read as `major` (not with -DSUITE_COMPAT_KEEP_PROPS: NVIDIA's
 *     samples, whose helper_cuda.h has variables of these names);
 *   - texture references (removed in CUDA 12), rebuilt on texture objects
 *     (which tpsim models): a file-scope `texture<T, dim, mode> name;` is a
 *     host object with the reference's fields (channelDesc, addressMode,
 *     filterMode, normalized: clamp, point, unnormalized by default);
 *     cudaBindTextureToArray / cudaBindTexture create a texture object from
 *     them and store it in a __device__ variable kept per texture type
 *     (tpsim_texobj<that type>, one per file: below); tex2D / tex1Dfetch(name, ...) are macros
 *     that fetch through that object (`decltype(name)` names the type
 *     without using the host object in device code).  Two references of
 *     one type in one file would share one binding, so binding either
 *     fails (cudaErrorNotSupported, with a message); Parboil sad has one
 *     (`ref`), and Parboil spmv declares one it never binds.  With
 *     -DSUITE_COMPAT_MANAGED_TEX (Rodinia kmeans: three float ones, and a
 *     symbol copied by its name) each reference is a __managed__ object of
 *     its own instead (below);
 *   - SUITE_COMPAT_CLAMP_BIND: below (SHOC's MD).
 * fixed_clock.c, linked into radixSortThrust only, is the other shim. */
#ifndef SUITE_COMPAT_H
#define SUITE_COMPAT_H
#ifdef __CUDACC__
#include <cuda_runtime.h>
#endif
#ifdef __cplusplus
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#endif
#ifdef __CUDACC__
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig
#ifndef SUITE_COMPAT_KEEP_PROPS /* NVIDIA's samples name these as variables */
#define clockRate major
#define memoryClockRate major
#define deviceOverlap major
#define computeMode major
#define kernelExecTimeoutEnabled major
#define maxTexture1DLinear major
#endif
#if defined(__cplusplus) && CUDART_VERSION >= 12000
/* What both kinds of texture reference below share: a texture object made
 * from a reference's fields over a resource, and the resource of a linear
 * bind (size bytes at p, elements described by desc). */
template <class Ref>
static cudaError_t tpsim_texmake(const Ref &t, enum cudaTextureReadMode mode, const struct cudaResourceDesc *res,
                                 cudaTextureObject_t *o)
{
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    for (int k = 0; k < 3; k++)
        td.addressMode[k] = t.addressMode[k];
    td.filterMode = t.filterMode;
    td.readMode = mode;
    td.normalizedCoords = t.normalized;
    return cudaCreateTextureObject(o, res, &td, NULL);
}
static inline struct cudaResourceDesc tpsim_linear(const void *p, struct cudaChannelFormatDesc desc, size_t size)
{
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = (void *)p;
    r.res.linear.desc = desc;
    r.res.linear.sizeInBytes = size;
    return r;
}
#endif
#if defined(__cplusplus) && CUDART_VERSION >= 12000 && defined(SUITE_COMPAT_MANAGED_TEX)
/* -DSUITE_COMPAT_MANAGED_TEX (Rodinia kmeans: three float references in one
 * file, declared and bound in that file): each `texture<T, dim, mode> name;`
 * becomes a __managed__ object of its own, which host code fills (the
 * reference's fields, and the bind stores the texture object in it) and
 * device code reads (tex1Dfetch / tex2D fetch through its object), so any
 * number of references of one type are bound apart.  A managed variable is
 * one per file, so a reference must be declared in the file that binds it. */
#include <cuda.h>
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct tpsim_mtexture {
    int normalized = 0;
    enum cudaTextureFilterMode filterMode = cudaFilterModePoint;
    enum cudaTextureAddressMode addressMode[3] = {cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp};
    struct cudaChannelFormatDesc channelDesc = {0, 0, 0, 0, cudaChannelFormatKindNone};
    cudaTextureObject_t tpsim_obj = 0;
};
#define texture __managed__ tpsim_mtexture
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaBindTexture(size_t *offset, tpsim_mtexture<T, dim, mode> *t, const void *p,
                                   const struct cudaChannelFormatDesc *desc, size_t size = ~(size_t)0)
{
    struct cudaResourceDesc r = tpsim_linear(p, desc ? *desc : cudaCreateChannelDesc<T>(), size);
    cudaTextureObject_t o;
    cudaError_t e;
    if (offset)
        *offset = 0;
    if ((e = tpsim_texmake(*t, mode, &r, &o)) != cudaSuccess)
        return e;
    t->tpsim_obj = o;
    return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaBindTexture(size_t *offset, tpsim_mtexture<T, dim, mode> &t, const void *p,
                                   size_t size = ~(size_t)0)
{
    return cudaBindTexture(offset, &t, p, (const struct cudaChannelFormatDesc *)0, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaUnbindTexture(tpsim_mtexture<T, dim, mode> *t)
{
    cudaError_t e = t->tpsim_obj ? cudaDestroyTextureObject(t->tpsim_obj) : cudaSuccess;
    t->tpsim_obj = 0;
    return e;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaUnbindTexture(tpsim_mtexture<T, dim, mode> &t)
{
    return cudaUnbindTexture(&t);
}
template <class Tex> struct tpsim_melt;
template <class T, int dim, enum cudaTextureReadMode mode>
struct tpsim_melt<tpsim_mtexture<T, dim, mode> > {
    typedef T type;
};
template <class Tex> struct tpsim_melt<Tex &> : tpsim_melt<Tex> {
};
/* decltype((t)): a managed variable may not be decltype's bare name */
#define tex1Dfetch(t, i) tex1Dfetch<typename tpsim_melt<decltype((t))>::type>((t).tpsim_obj, (i))
#define tex2D(t, x, y) tex2D<typename tpsim_melt<decltype((t))>::type>((t).tpsim_obj, (x), (y))
/* The string form of cudaMemcpyToSymbol (a symbol by its name, gone since
 * CUDA 5: kmeans copies its __constant__ cluster centres so): the variable
 * is found by name in this file's module, which a kernel of this file
 * names (cudaGetFuncBySymbol, cuFuncGetModule, cuModuleGetGlobal). */
static __global__ void tpsim_compat_anchor(void) {}
static cudaError_t cudaMemcpyToSymbol(const char *name, const void *src, size_t count, size_t offset = 0,
                                      enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    cudaFunction_t f;
    CUmodule m;
    CUdeviceptr p;
    size_t n;
    if (cudaGetFuncBySymbol(&f, (const void *)tpsim_compat_anchor) != cudaSuccess ||
        cuFuncGetModule(&m, (CUfunction)f) != CUDA_SUCCESS || cuModuleGetGlobal(&p, &n, m, name) != CUDA_SUCCESS)
        return cudaErrorInvalidSymbol;
    if (offset > n || count > n - offset)
        return cudaErrorInvalidValue;
    return cudaMemcpy((void *)(p + offset), src, count, kind);
}
#elif defined(__cplusplus) && CUDART_VERSION >= 12000
/* The texture object a reference of type Tex is bound to: one per
 * translation unit (each .cu file is its own device module), so a
 * reference remembers the setter of the file that declares it (a default
 * argument, evaluated there), and binding it from another file (Parboil
 * sad binds in main.cu what sad4.cu's kernel reads) reaches the right one. */
typedef cudaError_t (*tpsim_texset_t)(cudaTextureObject_t);
namespace {
template <class Tex> __device__ cudaTextureObject_t tpsim_texobj;
template <class Tex> cudaError_t tpsim_texset(cudaTextureObject_t o)
{
    return cudaMemcpyToSymbol(tpsim_texobj<Tex>, &o, sizeof o);
}
template <class Tex> int tpsim_texcount; /* references of type Tex declared in this file */
}
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture {
    int normalized;
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureAddressMode addressMode[3];
    struct cudaChannelFormatDesc channelDesc;
    tpsim_texset_t tpsim_set;
    const int *tpsim_count;
    texture(tpsim_texset_t set = &tpsim_texset<texture<T, dim, mode> >,
            int *count = &tpsim_texcount<texture<T, dim, mode> >)
        : normalized(0), filterMode(cudaFilterModePoint), channelDesc(cudaCreateChannelDesc<T>()), tpsim_set(set),
          tpsim_count(count)
    {
        addressMode[0] = addressMode[1] = addressMode[2] = cudaAddressModeClamp;
        ++*count;
    }
};
template <class Tex> struct tpsim_texelt;
template <class T, int dim, enum cudaTextureReadMode mode>
struct tpsim_texelt<texture<T, dim, mode> > {
    typedef T type;
};
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t tpsim_texbind(const texture<T, dim, mode> &t, const struct cudaResourceDesc *res)
{
    cudaTextureObject_t o;
    cudaError_t e;
    if (*t.tpsim_count > 1) { /* they would share one binding: refuse */
        fprintf(stderr, "suite_compat.h: %d texture references of one type in one file: not supported\n",
                *t.tpsim_count);
        return cudaErrorNotSupported;
    }
    if ((e = tpsim_texmake(t, mode, res, &o)) != cudaSuccess)
        return e;
    return t.tpsim_set(o);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &t, cudaArray_const_t a)
{
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = (cudaArray_t)a;
    return tpsim_texbind(t, &r);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &t, const void *p,
                                   size_t size = ~(size_t)0)
{
    struct cudaResourceDesc r = tpsim_linear(p, t.channelDesc, size);
    if (offset)
        *offset = 0;
    return tpsim_texbind(t, &r);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &t, const void *p,
                                   const struct cudaChannelFormatDesc *, size_t size = ~(size_t)0)
{
    return cudaBindTexture(offset, t, p, size);
}
/* the legacy API's form with a channel description (SHOC's MD binds a
 * double4 array to an int4 reference with an int4 description).  The
 * legacy bind did not check the size against the allocation, and MD's
 * float test binds nAtom double4s over its array of nAtom float4s (read
 * only in the double test); tpsim's texture objects refuse a range past
 * the allocation, so with -DSUITE_COMPAT_CLAMP_BIND (and -lcuda) the size
 * is clamped to the allocation's end. */
#ifdef SUITE_COMPAT_CLAMP_BIND
#include <cuda.h>
#endif
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &t, const void *p,
                                   const struct cudaChannelFormatDesc &desc, size_t size = ~(size_t)0)
{
    struct cudaResourceDesc r;
#ifdef SUITE_COMPAT_CLAMP_BIND
    CUdeviceptr base;
    size_t len;
    if (cuMemGetAddressRange(&base, &len, (CUdeviceptr)p) == CUDA_SUCCESS && size > base + len - (CUdeviceptr)p)
        size = base + len - (CUdeviceptr)p;
#endif
    if (offset)
        *offset = 0;
    r = tpsim_linear(p, desc, size);
    return tpsim_texbind(t, &r);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static cudaError_t cudaUnbindTexture(const texture<T, dim, mode> &)
{
    return cudaSuccess;
}
#define tex2D(t, x, y) tex2D<typename tpsim_texelt<decltype(t)>::type>(tpsim_texobj<decltype(t)>, (x), (y))
#define tex1Dfetch(t, i) tex1Dfetch<typename tpsim_texelt<decltype(t)>::type>(tpsim_texobj<decltype(t)>, (i))
#endif
/* PolyBench-GPU's headers take their sizes from -D flags only when N is
 * defined; N is also a parameter name in CUDA's headers, so it is defined
 * here, after them, from -DSUITE_PB_N=VALUE. */
#ifdef SUITE_PB_N
#include <cuda.h>
#define N SUITE_PB_N
#endif
#endif
#endif
