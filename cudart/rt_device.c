/* rt_device.c -- device management: the one simulated device, its
** properties and attributes (all from the driver, which reads them from the
** configured GPU), limits, cache preferences, synchronization and reset. */
#include "rt.h"
#include <stdio.h>

static cudaError_t check_device(int device)
{
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return e;
    int n = 0;
    CUresult r = cuDeviceGetCount(&n);
    if (r) return rt_err(r);
    return device >= 0 && device < n ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ctx(NULL, false);
    if (e) {
        *count = 0;
        return rt_ret(e);
    }
    return rt_ret(rt_err(cuDeviceGetCount(count)));
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return rt_ret(check_device(device)); }

static cudaError_t set_device_flags(unsigned flags)
{
    if (flags & ~(unsigned)cudaDeviceMask) return cudaErrorInvalidValue;
    unsigned sched = flags & cudaDeviceScheduleMask;
    if (sched != 0 && sched != cudaDeviceScheduleSpin && sched != cudaDeviceScheduleYield &&
        sched != cudaDeviceScheduleBlockingSync)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return e;
    rt_g.device_flags = flags | cudaDeviceMapHost;
    return rt_err(cuDevicePrimaryCtxSetFlags(0, sched));
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    if (flags & ~(unsigned)cudaInitDeviceFlagsAreValid) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = check_device(device);
    if (!e && (flags & cudaInitDeviceFlagsAreValid)) e = set_device_flags(deviceFlags);
    return rt_ret(e);
}

cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    if (len < 0 || (len > 0 && !device_arr)) return rt_ret(cudaErrorInvalidValue);
    for (int i = 0; i < len; i++) {
        cudaError_t e = check_device(device_arr[i]);
        if (e) return rt_ret(e);
    }
    return cudaSuccess;
}

/* There is one device: it is the best match for any request. */
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = check_device(0);
    if (!e) *device = 0;
    return rt_ret(e);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) { return rt_ret(set_device_flags(flags)); }

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    *flags = rt_g.device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (!value) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = check_device(device);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuDeviceGetAttribute(value, (CUdevice_attribute)attr, device)));
}

/* One attribute, 0 when the driver has no such attribute. */
static int attr(CUdevice_attribute a)
{
    int v = 0;
    if (cuDeviceGetAttribute(&v, a, 0) != CUDA_SUCCESS) v = 0;
    return v;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (!p) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = check_device(device);
    if (e) return rt_ret(e);
    memset(p, 0, sizeof *p);
    cuDeviceGetName(p->name, (int)sizeof p->name, device);
    CUuuid u;
    if (cuDeviceGetUuid(&u, device) == CUDA_SUCCESS) memcpy(p->uuid.bytes, u.bytes, sizeof u.bytes);
    size_t mem = 0;
    cuDeviceTotalMem(&mem, device);
    p->totalGlobalMem = mem;
    p->sharedMemPerBlock = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    p->regsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    p->warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    p->memPitch = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
    p->maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    p->maxThreadsDim[0] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    p->maxThreadsDim[1] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    p->maxThreadsDim[2] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    p->maxGridSize[0] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    p->maxGridSize[1] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    p->maxGridSize[2] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    p->totalConstMem = (size_t)attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    p->major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    p->minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    p->textureAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
    p->texturePitchAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
    p->multiProcessorCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    p->integrated = attr(CU_DEVICE_ATTRIBUTE_INTEGRATED);
    p->canMapHostMemory = attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
    p->maxTexture1D = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH);
    p->maxTexture1DMipmap = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH);
    p->maxTexture2D[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH);
    p->maxTexture2D[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT);
    p->maxTexture2DMipmap[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH);
    p->maxTexture2DMipmap[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT);
    p->maxTexture2DLinear[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
    p->maxTexture2DLinear[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
    p->maxTexture2DLinear[2] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
    p->maxTexture2DGather[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH);
    p->maxTexture2DGather[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT);
    p->maxTexture3D[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH);
    p->maxTexture3D[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT);
    p->maxTexture3D[2] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH);
    p->maxTexture3DAlt[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE);
    p->maxTexture3DAlt[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE);
    p->maxTexture3DAlt[2] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE);
    p->maxTextureCubemap = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH);
    p->maxTexture1DLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH);
    p->maxTexture1DLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS);
    p->maxTexture2DLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH);
    p->maxTexture2DLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT);
    p->maxTexture2DLayered[2] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS);
    p->maxTextureCubemapLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH);
    p->maxTextureCubemapLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS);
    p->maxSurface1D = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH);
    p->maxSurface2D[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
    p->maxSurface2D[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT);
    p->maxSurface3D[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH);
    p->maxSurface3D[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT);
    p->maxSurface3D[2] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
    p->maxSurface1DLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH);
    p->maxSurface1DLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS);
    p->maxSurface2DLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH);
    p->maxSurface2DLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT);
    p->maxSurface2DLayered[2] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS);
    p->maxSurfaceCubemap = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH);
    p->maxSurfaceCubemapLayered[0] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH);
    p->maxSurfaceCubemapLayered[1] = attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS);
    p->surfaceAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT);
    p->concurrentKernels = attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
    p->ECCEnabled = attr(CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
    p->pciBusID = attr(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
    p->pciDeviceID = attr(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
    p->pciDomainID = attr(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
    p->tccDriver = attr(CU_DEVICE_ATTRIBUTE_TCC_DRIVER);
    p->asyncEngineCount = attr(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
    p->unifiedAddressing = attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
    p->memoryBusWidth = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    p->l2CacheSize = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    p->persistingL2CacheMaxSize = attr(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
    p->maxThreadsPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    p->streamPrioritiesSupported = attr(CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
    p->globalL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
    p->localL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
    p->sharedMemPerMultiprocessor = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    p->regsPerMultiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    p->managedMemory = attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
    p->isMultiGpuBoard = attr(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD);
    p->multiGpuBoardGroupID = attr(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID);
    p->hostNativeAtomicSupported = attr(CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
    p->pageableMemoryAccess = attr(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
    p->concurrentManagedAccess = attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
    p->computePreemptionSupported = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED);
    p->canUseHostPointerForRegisteredMem = attr(CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
    p->cooperativeLaunch = attr(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
    p->sharedMemPerBlockOptin = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    p->pageableMemoryAccessUsesHostPageTables = attr(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
    p->directManagedMemAccessFromHost = attr(CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
    p->maxBlocksPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    p->accessPolicyMaxWindowSize = attr(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
    p->reservedSharedMemPerBlock = (size_t)attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    p->hostRegisterSupported = attr(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED);
    p->sparseCudaArraySupported = attr(CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED);
    p->hostRegisterReadOnlySupported = attr(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED);
    p->timelineSemaphoreInteropSupported = attr(CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED);
    p->memoryPoolsSupported = attr(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
    p->gpuDirectRDMASupported = attr(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
    p->gpuDirectRDMAFlushWritesOptions = (unsigned)attr(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS);
    p->gpuDirectRDMAWritesOrdering = attr(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING);
    p->memoryPoolSupportedHandleTypes = (unsigned)attr(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES);
    p->deferredMappingCudaArraySupported = attr(CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED);
    p->ipcEventSupported = attr(CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED);
    p->clusterLaunch = attr(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
    p->unifiedFunctionPointers = attr(CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS);
    p->deviceNumaConfig = attr(CU_DEVICE_ATTRIBUTE_NUMA_CONFIG);
    p->deviceNumaId = attr(CU_DEVICE_ATTRIBUTE_NUMA_ID);
    p->mpsEnabled = attr(CU_DEVICE_ATTRIBUTE_MPS_ENABLED);
    p->hostNumaId = attr(CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID);
    p->gpuPciDeviceID = (unsigned)attr(CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID);
    p->gpuPciSubsystemID = (unsigned)attr(CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID);
    p->hostNumaMultinodeIpcSupported = attr(CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = check_device(device);
    return rt_ret(e ? e : rt_err(cuDeviceGetPCIBusId(pciBusId, len, device)));
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device || !pciBusId) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    CUdevice d;
    CUresult r = cuDeviceGetByPCIBusId(&d, pciBusId);
    if (!r) *device = d;
    return rt_ret(rt_err(r));
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = check_device(device);
    if (!e) e = check_device(peerDevice);
    if (!e) *canAccessPeer = 0;
    return rt_ret(e);
}

/* ---- synchronization and reset ------------------------------------------------------------ */

/* Work runs when it is issued: synchronizing reports a sticky error. */
cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    return rt_ret(rt_check(cuCtxSynchronize()));
}

/* Frees every allocation, module, stream and event of the primary context
** and clears its sticky error; the registered modules load again at their
** next use.  The calling thread's last error stays (on a real GPU,
** cudaGetLastError after the reset still returns the fault once).  Unlike
** a real GPU, the device is usable again: an H200 answers every call after a
** sticky error's reset with cudaErrorDevicesUnavailable (CUDA's documentation
** asks for a new process); tpsim lets programs that recover this way run. */
cudaError_t cudaDeviceReset(void)
{
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    rt_lock();
    CUresult r = cuDevicePrimaryCtxReset(0);
    rt_g.sticky = cudaSuccess;
    rt_modules_reset();
    rt_unlock();
    return rt_ret(rt_err(r));
}

/* ---- limits and configuration ------------------------------------------------------------- */

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    cudaError_t e = rt_begin();
    if (e) return rt_ret(e);
    CUresult r = cuCtxSetLimit((CUlimit)limit, value);
    return rt_ret(r == CUDA_ERROR_UNSUPPORTED_LIMIT ? cudaErrorUnsupportedLimit : rt_err(r));
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    if (!pValue) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    CUresult r = cuCtxGetLimit(pValue, (CUlimit)limit);
    return rt_ret(r == CUDA_ERROR_UNSUPPORTED_LIMIT ? cudaErrorUnsupportedLimit : rt_err(r));
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    if (!pCacheConfig) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    CUfunc_cache c;
    CUresult r = cuCtxGetCacheConfig(&c);
    if (!r) *pCacheConfig = (enum cudaFuncCache)c;
    return rt_ret(rt_err(r));
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuCtxSetCacheConfig((CUfunc_cache)cacheConfig)));
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    if (!pConfig) return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    CUsharedconfig c;
    CUresult r = cuCtxGetSharedMemConfig(&c);
    if (!r) *pConfig = (enum cudaSharedMemConfig)c;
    return rt_ret(rt_err(r));
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuCtxSetSharedMemConfig((CUsharedconfig)config)));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    cudaError_t e = rt_ctx(NULL, false);
    if (e) return rt_ret(e);
    return rt_ret(rt_err(cuCtxGetStreamPriorityRange(leastPriority, greatestPriority)));
}

/* One device: no peer, and no persisting L2 to reset. */
cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice, int dstDevice)
{
    if (!value) return rt_ret(cudaErrorInvalidValue);
    (void)attr;
    cudaError_t e = check_device(srcDevice);
    if (!e) e = check_device(dstDevice);
    return rt_ret(e ? e : cudaErrorInvalidDevice);   /* source and destination are the same device */
}

cudaError_t cudaCtxResetPersistingL2Cache(void) { return rt_ret(rt_begin()); }
