/* rt_launch.c -- kernel launches (<<<>>> and the cudaLaunch* calls),
** function attributes and occupancy.
**
** A <<<grid, block, shared, stream>>> launch compiles to
** __cudaPushCallConfiguration (at the call site), then in the kernel's host
** stub __cudaPopCallConfiguration, __cudaGetKernel (once) and
** __cudaLaunchKernel with the addresses of the arguments.  The launch is
** checked the way the runtime checks it -- a block or grid beyond the
** device's limits, or an empty one, is cudaErrorInvalidValue (what NVIDIA's
** libcudart.so.13 returns on a real GPU for each case of tests/cuda/badlaunch.cu;
** older runtimes said cudaErrorInvalidConfiguration), recorded as the last
** error since the stub ignores the return value -- and then runs to its end
** in the driver, which checks what the kernel itself allows (registers:
** cudaErrorLaunchOutOfResources).
*/
#include "rt.h"
#include <stdlib.h>

_Static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute), "launch attributes differ");
_Static_assert((int)cudaLaunchAttributeCooperative == (int)CU_LAUNCH_ATTRIBUTE_COOPERATIVE, "ids differ");

/* ---- <<<>>> configurations --------------------------------------------------------- */

#define RT_CFG_MAX 16

typedef struct rt_cfg {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} rt_cfg;

static _Thread_local rt_cfg tls_cfg[RT_CFG_MAX];
static _Thread_local int tls_ncfg;

RT_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream);
RT_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
    if (tls_ncfg == RT_CFG_MAX) return 1;
    tls_cfg[tls_ncfg++] = (rt_cfg){gridDim, blockDim, sharedMem, stream};
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (tls_ncfg == 0) return rt_ret(cudaErrorMissingConfiguration);
    rt_cfg c = tls_cfg[--tls_ncfg];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

/* ---- launches ------------------------------------------------------------------------ */

/* The device's limits on block and grid shapes (fixed for a process). */
static int lim_threads, lim_block[3], lim_grid[3];

static void limits(void)
{
    if (lim_threads) return;
    static const CUdevice_attribute a[7] = {
        CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
        CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK};
    int v[7];
    for (int i = 0; i < 7; i++)
        if (cuDeviceGetAttribute(&v[i], a[i], 0) != CUDA_SUCCESS) return;
    memcpy(lim_block, v, sizeof lim_block);
    memcpy(lim_grid, v + 3, sizeof lim_grid);
    lim_threads = v[6];
}

static cudaError_t check_config(CUfunction fn, dim3 g, dim3 b)
{
    limits();
    if (!lim_threads) return cudaErrorInitializationError;
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (!b.x || !b.y || !b.z || !g.x || !g.y || !g.z) {
        rt_why("grid (%u, %u, %u), block (%u, %u, %u): every dimension must be at least 1", g.x, g.y, g.z, b.x, b.y,
               b.z);
        return cudaErrorInvalidValue;
    }
    const unsigned bd[3] = {b.x, b.y, b.z}, gd[3] = {g.x, g.y, g.z};
    for (int i = 0; i < 3; i++) {
        if (bd[i] > (unsigned)lim_block[i]) {
            rt_why("block dimension %c of %u exceeds the device's %d", "xyz"[i], bd[i], lim_block[i]);
            return cudaErrorInvalidValue;
        }
        if (gd[i] > (unsigned)lim_grid[i]) {
            rt_why("grid dimension %c of %u exceeds the device's %d", "xyz"[i], gd[i], lim_grid[i]);
            return cudaErrorInvalidValue;
        }
    }
    if (threads > (uint64_t)lim_threads) {
        rt_why("block (%u, %u, %u) has %llu threads, the device allows %d per block", b.x, b.y, b.z,
               (unsigned long long)threads, lim_threads);
        return cudaErrorInvalidValue;
    }
    /* what the kernel itself allows (its registers, .maxntid) the driver
    ** checks: too many registers is cudaErrorLaunchOutOfResources */
    (void)fn;
    return cudaSuccess;
}

/* Launches f (a registered kernel) with the driver's extended launch. */
static cudaError_t launch(rt_func *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s,
                          const cudaLaunchAttribute *attrs, unsigned nattrs, bool coop)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    if (!f) {
        rt_why("no kernel is registered for this host function");
        return cudaErrorInvalidDeviceFunction;
    }
    rt_why_kernel(f->name);
    CUfunction fn;
    if ((e = rt_func_load(f, &fn))) return e;
    if ((e = check_config(fn, g, b))) {
        rt_refused_launch(f->name, g, b, shared, e);
        return e;
    }
    if (shared > 0xffffffffu) {
        rt_why("%zu bytes of dynamic shared memory", shared);
        return cudaErrorInvalidValue;
    }
    if (nattrs && !attrs) {
        rt_why("%u launch attributes and a NULL attribute array", nattrs);
        return cudaErrorInvalidValue;
    }
    CUlaunchAttribute extra[1];
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = g.x, cfg.gridDimY = g.y, cfg.gridDimZ = g.z;
    cfg.blockDimX = b.x, cfg.blockDimY = b.y, cfg.blockDimZ = b.z;
    cfg.sharedMemBytes = (unsigned)shared;
    cfg.hStream = s;
    cfg.attrs = (CUlaunchAttribute *)(uintptr_t)attrs;
    cfg.numAttrs = nattrs;
    if (coop) {
        memset(extra, 0, sizeof extra);
        extra[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        extra[0].value.cooperative = 1;
        cfg.attrs = extra;
        cfg.numAttrs = 1;
    }
    return rt_check(cuLaunchKernelEx(&cfg, fn, args, NULL));
}

RT_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
RT_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream);
RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem, cudaStream_t stream);

/* A cudaKernel_t of this runtime is its registration record. */
static cudaError_t get_kernel(cudaKernel_t *kernel, const void *hostFun)
{
    if (!kernel) return cudaErrorInvalidValue;
    rt_func *f = rt_func_of(hostFun);
    if (!f) {
        rt_why("no kernel is registered for this host function");
        return cudaErrorInvalidDeviceFunction;
    }
    *kernel = (cudaKernel_t)(void *)f;
    return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun) { return rt_ret(get_kernel(kernel, hostFun)); }

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    return rt_ret(get_kernel(kernelPtr, entryFuncAddr));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream)
{
    return rt_ret(launch(rt_func_of(kernel), gridDim, blockDim, args, sharedMem, stream, NULL, 0, false));
}
RT_ALIAS(__cudaLaunchKernel, "__cudaLaunchKernel_ptsz");

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    return rt_ret(launch(rt_func_of(func), gridDim, blockDim, args, sharedMem, stream, NULL, 0, false));
}
RT_ALIAS(cudaLaunchKernel, "cudaLaunchKernel_ptsz");

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (!config) return rt_ret(cudaErrorInvalidValue);
    return rt_ret(launch(rt_func_of(func), config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                         config->stream, config->attrs, config->numAttrs, false));
}
RT_ALIAS(cudaLaunchKernelExC, "cudaLaunchKernelExC_ptsz");

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream)
{
    return rt_ret(launch(rt_func_of(func), gridDim, blockDim, args, sharedMem, stream, NULL, 0, true));
}
RT_ALIAS(cudaLaunchCooperativeKernel, "cudaLaunchCooperativeKernel_ptsz");

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuLaunchHostFunc(stream, fn, userData)));
}
RT_ALIAS(cudaLaunchHostFunc, "cudaLaunchHostFunc_ptsz");

/* ---- function attributes ---------------------------------------------------------------- */

/* The CUfunction of a registered kernel named by its host stub. */
static cudaError_t func_arg(const void *func, CUfunction *fn)
{
    cudaError_t e = rt_begin();
    if (e) return e;
    rt_func *f = rt_func_of(func);
    if (!f) return cudaErrorInvalidDeviceFunction;
    return rt_func_load(f, fn);
}

static int fattr(CUfunction fn, CUfunction_attribute a)
{
    int v = 0;
    if (cuFuncGetAttribute(&v, a, fn) != CUDA_SUCCESS) v = 0;
    return v;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    if (!attr) return rt_ret(cudaErrorInvalidValue);
    CUfunction fn;
    cudaError_t e = func_arg(func, &fn);
    if (e) return rt_ret(e);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = (size_t)fattr(fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    attr->constSizeBytes = (size_t)fattr(fn, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    attr->localSizeBytes = (size_t)fattr(fn, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    attr->maxThreadsPerBlock = fattr(fn, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    attr->numRegs = fattr(fn, CU_FUNC_ATTRIBUTE_NUM_REGS);
    attr->ptxVersion = fattr(fn, CU_FUNC_ATTRIBUTE_PTX_VERSION);
    attr->binaryVersion = fattr(fn, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
    attr->cacheModeCA = fattr(fn, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA);
    attr->maxDynamicSharedSizeBytes = fattr(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    attr->preferredShmemCarveout = fattr(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
    return cudaSuccess;
}

/* cudaFuncAttribute values are CUfunction_attribute values. */
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    CUfunction fn;
    cudaError_t e = func_arg(func, &fn);
    if (e) return rt_ret(e);
    if (attr < cudaFuncAttributeMaxDynamicSharedMemorySize || attr >= cudaFuncAttributeMax)
        return rt_ret(cudaErrorInvalidValue);
    return rt_ret(rt_err(cuFuncSetAttribute(fn, (CUfunction_attribute)attr, value)));
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    CUfunction fn;
    cudaError_t e = func_arg(func, &fn);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuFuncSetCacheConfig(fn, (CUfunc_cache)cacheConfig)));
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    CUfunction fn;
    cudaError_t e = func_arg(func, &fn);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuFuncSetSharedMemConfig(fn, (CUsharedconfig)config)));
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    if (!name) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    rt_func *f = rt_func_of(func);
    if (!f) return rt_ret(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    return cudaSuccess;
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    if (!functionPtr) return rt_ret(cudaErrorInvalidValue);
    CUfunction fn;
    cudaError_t e = func_arg(symbolPtr, &fn);
    if (!e) *functionPtr = fn;
    return rt_ret(e);
}

/* ---- occupancy, from the configured GPU ------------------------------------------------- */

static cudaError_t occ_blocks(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned flags)
{
    if (!numBlocks) return cudaErrorInvalidValue;
    CUfunction fn;
    cudaError_t e = func_arg(func, &fn);
    if (e) return e;
    return rt_err(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, fn, blockSize, dynamicSMemSize,
                                                                       flags));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags)
{
    return rt_ret(occ_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return rt_ret(occ_blocks(numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault));
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                                      int blockSize)
{
    if (!dynamicSmemSize) return rt_ret(cudaErrorInvalidValue);
    CUfunction fn;
    cudaError_t e = func_arg(func, &fn);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, fn, numBlocks, blockSize)));
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    CUfunction fn;
    cudaError_t e = func_arg(func, &fn);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuFuncGetParamInfo(fn, paramIndex, paramOffset, paramSize)));
}
