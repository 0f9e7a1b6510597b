/* device.c -- the one simulated device: identity, attributes, properties.
**
** Every attribute comes from the configuration (exec/options.def, device.*
** keys) where one describes it.  The rest have fixed values: capabilities
** tpsim does not model (texture gather, peer access, IPC, virtual memory
** management, memory pools, clusters, NUMA) report 0, and texture/surface
** size limits report those of a compute capability 7.5 GPU (api/texture.c
** enforces them).
*/
#include "api.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* PCI location reported for the device: domain 0, bus 1, device 0. */
#define API_PCI_DOMAIN 0
#define API_PCI_BUS 1
#define API_PCI_DEVICE 0

static void cc_of(int *major, int *minor)
{
    double cc = tp_opt_f(&api_g.opts, OPT_DEVICE_CC);
    int v = (int)lround(cc * 10.0);
    *major = v / 10;
    *minor = v % 10;
}

/* The value of attribute a, or false for a value no CUdevice_attribute has. */
static bool attribute(CUdevice_attribute a, int *v)
{
    int64_t maxtpb = api_opt(OPT_DEVICE_MAX_THREADS_PER_BLOCK);
    int major, minor;
    cc_of(&major, &minor);
    int64_t x;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: x = maxtpb; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: x = TP_MIN(maxtpb, 1024); break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: x = TP_MIN(maxtpb, 64); break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: x = api_opt(OPT_DEVICE_MAX_GRID_X); break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: x = api_opt(OPT_DEVICE_MAX_GRID_YZ); break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: x = api_opt(OPT_DEVICE_SHARED_PER_BLOCK); break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: x = api_opt(OPT_DEVICE_CONST_MEM); break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: x = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: x = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: x = api_opt(OPT_DEVICE_REGS_PER_BLOCK); break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: x = api_opt(OPT_DEVICE_CLOCK_MHZ) * 1000; break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: x = 512; break;
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: x = api_opt(OPT_DEVICE_NUM_SMS); break;
    case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: x = api_opt(OPT_EXEC_MAX_WARP_INSNS) != 0; break;
    case CU_DEVICE_ATTRIBUTE_INTEGRATED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: x = CU_COMPUTEMODE_DEFAULT; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH: x = 131072; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH: x = 131072; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT: x = 65536; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH: x = 16384; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS: x = 2048; break;
    case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: x = 512; break;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: x = API_PCI_BUS; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: x = API_PCI_DEVICE; break;
    case CU_DEVICE_ATTRIBUTE_TCC_DRIVER: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: x = api_opt(OPT_DEVICE_MEM_CLOCK_MHZ) * 1000; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: x = api_opt(OPT_DEVICE_MEM_BUS_BITS); break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: x = api_opt(OPT_DEVICE_L2_BYTES); break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: x = api_opt(OPT_DEVICE_MAX_THREADS_PER_SM); break;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS: x = 2048; break;
    case CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE: x = 8192; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: x = API_PCI_DOMAIN; break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: x = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS: x = 2046; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH: x = 131072; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT: x = 65536; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH: x = 16384; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS: x = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS: x = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS: x = 2046; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH: x = 268435456; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH: x = 131072; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT: x = 65000; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH: x = 2097120; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: x = major; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: x = minor; break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH: x = 32768; break;
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: x = api_opt(OPT_DEVICE_SHARED_PER_SM); break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: x = api_opt(OPT_DEVICE_REGS_PER_SM); break;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: x = 32; break;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS: x = 0; break;
    /* Kernels finish before the launch call returns, so the host may touch
    ** managed memory at any time. */
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED: x = 0; break;
    /* registered host memory is reachable at its own address */
    case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: x = exec_opt_shared_optin(&api_g.opts); break;
    case CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES: x = 0; break;
    /* Device memory is identity-mapped into the process. */
    case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: x = api_opt(OPT_DEVICE_MAX_CTAS_PER_SM); break;
    case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: x = api_opt(OPT_DEVICE_PERSISTING_L2_MAX); break;
    case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: x = api_opt(OPT_DEVICE_ACCESS_POLICY_MAX_WINDOW); break;
    case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT: x = 1; break;
    case CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_NUMA_CONFIG: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_NUMA_ID: x = -1; break;
    case CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MPS_ENABLED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: x = -1; break;
    case CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID: x = 0; break;
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED: x = 0; break;
    default: return false;
    }
    *v = (int)TP_MIN(x, (int64_t)2147483647);
    return true;
}

/* Every attribute's value, for device code (dynamic parallelism, exec/cdp.c). */
void api_dev_attributes_to_exec(void)
{
    int v[CU_DEVICE_ATTRIBUTE_MAX];
    uint8_t ok[CU_DEVICE_ATTRIBUTE_MAX];
    for (int a = 0; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        v[a] = 0;
        ok[a] = attribute((CUdevice_attribute)a, &v[a]);
    }
    exec_cdp_set_attributes(api_g.dev, v, ok, CU_DEVICE_ATTRIBUTE_MAX);
}

static CUresult get_attribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!pi) return CUDA_ERROR_INVALID_VALUE;
    return attribute(attrib, pi) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    API_LOCKED(get_attribute(pi, attrib, dev));
}

static CUresult device_get(CUdevice *device, int ordinal)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) { API_LOCKED(device_get(device, ordinal)); }

static CUresult device_count(int *count)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) { API_LOCKED(device_count(count)); }

static CUresult device_name(char *name, int len, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "%s", tp_opt_s(&api_g.opts, OPT_DEVICE_NAME));
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) { API_LOCKED(device_name(name, len, dev)); }

/* A UUID derived from the device name (FNV-1a), stable across runs, with the
** RFC 4122 version-5 and variant bits set. */
static CUresult device_uuid(CUuuid *uuid, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    const char *s = tp_opt_s(&api_g.opts, OPT_DEVICE_NAME);
    uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
    for (const char *p = s; *p; p++) {
        h1 = (h1 ^ (uint8_t)*p) * 0x100000001b3ull;
        h2 = (h2 ^ (uint8_t)*p) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
    for (int i = 0; i < 8; i++) {
        uuid->bytes[i] = (char)(h1 >> (8 * i));
        uuid->bytes[8 + i] = (char)(h2 >> (8 * i));
    }
    uuid->bytes[6] = (char)((uuid->bytes[6] & 0x0f) | 0x50);
    uuid->bytes[8] = (char)((uuid->bytes[8] & 0x3f) | 0x80);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) { API_LOCKED(device_uuid(uuid, dev)); }
API_ALIAS(cuDeviceGetUuid_v2, "cuDeviceGetUuid");

static CUresult device_luid(char *luid, unsigned int *mask, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!luid || !mask) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_ERROR_NOT_SUPPORTED;  /* LUIDs exist on Windows only */
}

CUresult cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev)
{
    API_LOCKED(device_luid(luid, deviceNodeMask, dev));
}

static CUresult total_mem(size_t *bytes, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    *bytes = (size_t)api_opt(OPT_DEVICE_GLOBAL_MEM);
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) { API_LOCKED(total_mem(bytes, dev)); }

static CUresult properties(CUdevprop *p, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &p->maxThreadsPerBlock);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &p->maxThreadsDim[0]);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &p->maxThreadsDim[1]);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &p->maxThreadsDim[2]);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &p->maxGridSize[0]);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &p->maxGridSize[1]);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &p->maxGridSize[2]);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &p->sharedMemPerBlock);
    attribute(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, &p->totalConstantMemory);
    attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE, &p->SIMDWidth);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_PITCH, &p->memPitch);
    attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &p->regsPerBlock);
    attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &p->clockRate);
    attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, &p->textureAlign);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev) { API_LOCKED(properties(prop, dev)); }

static CUresult compute_capability(int *major, int *minor, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    cc_of(major, minor);
    return CUDA_SUCCESS;
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    API_LOCKED(compute_capability(major, minor, dev));
}

static CUresult pci_bus_id(char *id, int len, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!id || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    snprintf(id, (size_t)len, "%04x:%02x:%02x.0", API_PCI_DOMAIN, API_PCI_BUS, API_PCI_DEVICE);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev) { API_LOCKED(pci_bus_id(pciBusId, len, dev)); }

/* Accepts [domain]:[bus]:[device].[function], [domain]:[bus]:[device] and
** [bus]:[device].[function], all numbers in hexadecimal. */
static CUresult by_pci_bus_id(CUdevice *dev, const char *id)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!dev || !id) return CUDA_ERROR_INVALID_VALUE;
    unsigned long f[4];
    int n = 0;
    const char *p = id;
    char seps[4] = {0};
    while (n < 4) {
        char *end;
        f[n] = strtoul(p, &end, 16);
        if (end == p) return CUDA_ERROR_INVALID_VALUE;
        seps[n] = *end;
        n++;
        if (*end == '\0') break;
        if (*end != ':' && *end != '.') return CUDA_ERROR_INVALID_VALUE;
        p = end + 1;
    }
    unsigned long domain = 0, bus, device;
    if (n == 4 && seps[0] == ':' && seps[1] == ':' && seps[2] == '.') {
        domain = f[0], bus = f[1], device = f[2];
    } else if (n == 3 && seps[0] == ':' && seps[1] == ':') {
        domain = f[0], bus = f[1], device = f[2];
    } else if (n == 3 && seps[0] == ':' && seps[1] == '.') {
        bus = f[0], device = f[1];
    } else {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (domain != API_PCI_DOMAIN || bus != API_PCI_BUS || device != API_PCI_DEVICE)
        return CUDA_ERROR_INVALID_DEVICE;
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId) { API_LOCKED(by_pci_bus_id(dev, pciBusId)); }

/* One device: it has no peer. */
static CUresult can_access_peer(int *can, CUdevice dev, CUdevice peer)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!can) return CUDA_ERROR_INVALID_VALUE;
    if (peer != 0) return CUDA_ERROR_INVALID_DEVICE;
    *can = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    API_LOCKED(can_access_peer(canAccessPeer, dev, peerDev));
}

static CUresult p2p_attribute(int *value, CUdevice_P2PAttribute a, CUdevice src, CUdevice dst)
{
    CUresult r = api_check_dev(src);
    if (r) return r;
    if (!value) return CUDA_ERROR_INVALID_VALUE;
    if (dst != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (a < CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK || a > CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_ERROR_INVALID_DEVICE;  /* source and destination are the same device */
}

CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice)
{
    API_LOCKED(p2p_attribute(value, attrib, srcDevice, dstDevice));
}

static CUresult exec_affinity_support(int *pi, CUexecAffinityType type, CUdevice dev)
{
    CUresult r = api_check_dev(dev);
    if (r) return r;
    if (!pi || type < 0 || type >= CU_EXEC_AFFINITY_TYPE_MAX) return CUDA_ERROR_INVALID_VALUE;
    *pi = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev)
{
    API_LOCKED(exec_affinity_support(pi, type, dev));
}
