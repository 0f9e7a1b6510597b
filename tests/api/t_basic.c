/*
** t_basic.c -- initialization, devices, attributes, contexts, primary
** contexts, limits, error names, cuGetProcAddress and the unsupported stubs.
** Needs no kernel.  Run with the default configuration (no TPSIM_CONFIG or
** TPSIM_OPTIONS): the expected attribute values are exec/options.def's
** defaults.
*/
#include "api_test.h"
#include <pthread.h>

/* Before cuInit every call but a few fails with NOT_INITIALIZED. */
static void basic_before_init(void)
{
    CUdevice d;
    int n, v;
    CUcontext c;
    CUdeviceptr p;
    CUmodule m;
    CK(cuDeviceGet(&d, 0), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuCtxCreate(&c, NULL, 0, 0), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuCtxGetCurrent(&c), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuCtxSynchronize(), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuMemAlloc(&p, 16), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuModuleLoadData(&m, at_ptx_add1), CUDA_ERROR_NOT_INITIALIZED);
    CK(cuDevicePrimaryCtxRetain(&c, 0), CUDA_ERROR_NOT_INITIALIZED);
    /* these work without cuInit */
    OK(cuDriverGetVersion(&v));
    TT_EQ_I(v, 13000);
    CK(cuDriverGetVersion(NULL), CUDA_ERROR_INVALID_VALUE);
    const char *s;
    OK(cuGetErrorName(CUDA_ERROR_NOT_INITIALIZED, &s));
    TT_EQ_STR(s, "CUDA_ERROR_NOT_INITIALIZED");
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    OK(cuGetProcAddress("cuInit", &fn, 13000, 0, &st));
    TT_CHECK(fn == (void *)cuInit);
}

static void basic_init(void)
{
    CK(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    OK(cuInit(0));
    OK(cuInit(0));   /* again: still fine */
}

static void basic_device(void)
{
    CUdevice d = -1;
    int n = 0;
    OK(cuDeviceGetCount(&n));
    TT_EQ_I(n, 1);
    CK(cuDeviceGetCount(NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuDeviceGet(&d, 0));
    TT_EQ_I(d, 0);
    CK(cuDeviceGet(&d, 1), CUDA_ERROR_INVALID_DEVICE);
    CK(cuDeviceGet(&d, -1), CUDA_ERROR_INVALID_DEVICE);
    CK(cuDeviceGet(NULL, 0), CUDA_ERROR_INVALID_VALUE);

    char name[256], small[5];
    OK(cuDeviceGetName(name, sizeof name, 0));
    TT_CHECK(strncmp(name, "tpsim", 5) == 0);   /* device.name (run_api.sh checks exact names) */
    OK(cuDeviceGetName(small, sizeof small, 0));
    TT_EQ_U(strlen(small), 4);   /* truncated, NUL-terminated */
    TT_CHECK(strncmp(small, name, 4) == 0);
    CK(cuDeviceGetName(name, 0, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceGetName(NULL, 10, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceGetName(name, sizeof name, 1), CUDA_ERROR_INVALID_DEVICE);

    size_t mem = 0;
    OK(cuDeviceTotalMem(&mem, 0));
    TT_EQ_U(mem, 6ull << 30);   /* the default configuration, rtx2060: 6 GB */
    CK(cuDeviceTotalMem(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceTotalMem(&mem, 3), CUDA_ERROR_INVALID_DEVICE);

    int major = 0, minor = 0;
    OK(cuDeviceComputeCapability(&major, &minor, 0));
    TT_EQ_I(major, 7);
    TT_EQ_I(minor, 5);

    CUuuid u1, u2;
    OK(cuDeviceGetUuid(&u1, 0));
    OK(cuDeviceGetUuid(&u2, 0));
    TT_CHECK(memcmp(u1.bytes, u2.bytes, 16) == 0);
    TT_EQ_U((uint8_t)u1.bytes[6] >> 4, 5);      /* RFC 4122 version 5 */
    TT_EQ_U((uint8_t)u1.bytes[8] >> 6, 2);      /* variant 10 */
    CK(cuDeviceGetUuid(NULL, 0), CUDA_ERROR_INVALID_VALUE);

    char bus[32];
    OK(cuDeviceGetPCIBusId(bus, sizeof bus, 0));
    TT_EQ_STR(bus, "0000:01:00.0");
    CUdevice d2 = -1;
    OK(cuDeviceGetByPCIBusId(&d2, bus));
    TT_EQ_I(d2, 0);
    OK(cuDeviceGetByPCIBusId(&d2, "01:00.0"));
    CK(cuDeviceGetByPCIBusId(&d2, "0000:02:00.0"), CUDA_ERROR_INVALID_DEVICE);
    CK(cuDeviceGetByPCIBusId(&d2, "nonsense"), CUDA_ERROR_INVALID_VALUE);

    CUdevprop p;
    OK(cuDeviceGetProperties(&p, 0));
    TT_EQ_I(p.maxThreadsPerBlock, 1024);
    TT_EQ_I(p.maxThreadsDim[2], 64);
    TT_EQ_I(p.maxGridSize[1], 65535);
    TT_EQ_I(p.sharedMemPerBlock, 48 * 1024);
    TT_EQ_I(p.SIMDWidth, 32);
    TT_EQ_I(p.clockRate, 1680000);   /* the RTX 2060's boost clock, in kHz */

    int can = 1;
    OK(cuDeviceCanAccessPeer(&can, 0, 0));
    TT_EQ_I(can, 0);
    CK(cuDeviceCanAccessPeer(&can, 0, 1), CUDA_ERROR_INVALID_DEVICE);
}

/* The default configuration (rtx2060: a GeForce RTX 2060, configs/rtx2060.cfg)
** as CUDA reports it; the values are the card's published figures (deviceQuery
** on an RTX 2060, the CUDA programming guide's limits for compute capability 7.5). */
static void basic_attributes(void)
{
    static const struct { CUdevice_attribute a; int v; } want[] = {
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
        {CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1680000},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 30},
        {CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT, 0},
        {CU_DEVICE_ATTRIBUTE_INTEGRATED, 0},
        {CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, CU_COMPUTEMODE_DEFAULT},
        {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 7001000},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 192},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 3 * 1024 * 1024},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 1024},
        {CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 7},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 5},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 65536},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536},
        {CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1},
        {CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 65536},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 16},
        {CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 1},
        {CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 0},
        {CU_DEVICE_ATTRIBUTE_ECC_ENABLED, 0},
        {CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 0},
        {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, 0},
        {CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, 0},   /* none before 8.0 */
        {CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int v = -12345;
        OK(cuDeviceGetAttribute(&v, want[i].a, 0));
        if (v != want[i].v) tt_fail_msg(__FILE__, __LINE__, "attribute %d: %d, want %d", (int)want[i].a, v, want[i].v);
    }
    /* every attribute CUDA 13.0 defines has a value; nothing else does */
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        int v;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0);
        if (r != CUDA_SUCCESS) tt_fail_msg(__FILE__, __LINE__, "attribute %d: %s", a, at_name(r));
    }
    int v;
    CK(cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceGetAttribute(&v, (CUdevice_attribute)-1, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceGetAttribute(&v, (CUdevice_attribute)100000, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 1), CUDA_ERROR_INVALID_DEVICE);
}

static void basic_context(void)
{
    CUcontext c = (CUcontext)1, c2, cur;
    CUdeviceptr p;
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == NULL);
    CK(cuCtxGetCurrent(NULL), CUDA_ERROR_INVALID_VALUE);
    /* no current context */
    CK(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);
    CK(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    CUstream s;
    CK(cuStreamCreate(&s, 0), CUDA_ERROR_INVALID_CONTEXT);
    CUdevice d;
    CK(cuCtxGetDevice(&d), CUDA_ERROR_INVALID_CONTEXT);
    CK(cuCtxPopCurrent(&cur), CUDA_ERROR_INVALID_CONTEXT);

    CK(cuCtxCreate(NULL, NULL, 0, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuCtxCreate(&c, NULL, 0, 1), CUDA_ERROR_INVALID_DEVICE);
    CK(cuCtxCreate(&c, NULL, 0x100, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuCtxCreate(&c, NULL, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD, 0), CUDA_ERROR_INVALID_VALUE);
    CUexecAffinityParam aff = {CU_EXEC_AFFINITY_TYPE_SM_COUNT, {{4}}};
    CUctxCreateParams cp = {&aff, 1, NULL};
    CK(cuCtxCreate(&c, &cp, 0, 0), CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
    cp.numExecAffinityParams = 0;
    OK(cuCtxCreate(&c, &cp, CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_MAP_HOST, 0));
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == c);
    unsigned flags = 0;
    OK(cuCtxGetFlags(&flags));
    TT_EQ_U(flags, CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_MAP_HOST);
    OK(cuCtxSetFlags(CU_CTX_SCHED_SPIN));
    OK(cuCtxGetFlags(&flags));
    TT_EQ_U(flags, CU_CTX_SCHED_SPIN);
    OK(cuCtxGetDevice(&d));
    TT_EQ_I(d, 0);
    unsigned ver = 0;
    OK(cuCtxGetApiVersion(c, &ver));
    TT_EQ_U(ver, 3020);
    OK(cuCtxGetApiVersion(NULL, &ver));
    CK(cuCtxGetApiVersion(c, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuCtxSynchronize());

    /* a second context is pushed above the first */
    OK(cuCtxCreate(&c2, NULL, 0, 0));
    TT_CHECK(c2 != c);
    unsigned long long id1 = 0, id2 = 0;
    OK(cuCtxGetId(c, &id1));
    OK(cuCtxGetId(c2, &id2));
    TT_CHECK(id1 != id2);
    OK(cuCtxPopCurrent(&cur));
    TT_CHECK(cur == c2);
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == c);
    OK(cuCtxPushCurrent(c2));
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == c2);
    OK(cuCtxSetCurrent(c));   /* replaces the top */
    OK(cuCtxPopCurrent(NULL));
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == c);
    OK(cuCtxSetCurrent(NULL));   /* pops */
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == NULL);
    OK(cuCtxSetCurrent(NULL));   /* empty stack: nothing to do */

    /* destruction */
    CK(cuCtxDestroy((CUcontext)(uintptr_t)0x1234), CUDA_ERROR_INVALID_CONTEXT);
    CK(cuCtxPushCurrent((CUcontext)(uintptr_t)0x1234), CUDA_ERROR_INVALID_CONTEXT);
    CK(cuCtxPushCurrent(NULL), CUDA_ERROR_INVALID_CONTEXT);
    OK(cuCtxPushCurrent(c2));
    OK(cuCtxDestroy(c2));   /* current: popped */
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == NULL);
    CK(cuCtxDestroy(c2), CUDA_ERROR_INVALID_CONTEXT);
    CK(cuCtxPushCurrent(c2), CUDA_ERROR_INVALID_CONTEXT);
    CK(cuCtxGetApiVersion(c2, &ver), CUDA_ERROR_INVALID_CONTEXT);
    OK(cuCtxPushCurrent(c));
    OK(cuCtxDestroy(c));
}

static void basic_limits(void)
{
    CUcontext c;
    OK(cuCtxCreate(&c, NULL, 0, 0));
    size_t v = 0;
    OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    TT_EQ_U(v, 1024);   /* exec.stack_bytes */
    OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
    OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    TT_EQ_U(v, 4096);
    CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2u << 20), CUDA_ERROR_INVALID_VALUE);
    OK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
    TT_EQ_U(v, 1u << 20);
    OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    TT_EQ_U(v, 8u << 20);
    OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16u << 20));
    OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    TT_EQ_U(v, 16u << 20);
    CK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 4096), CUDA_ERROR_UNSUPPORTED_LIMIT);
    CK(cuCtxSetLimit(CU_LIMIT_MAX, 1), CUDA_ERROR_INVALID_VALUE);
    CK(cuCtxGetLimit(&v, CU_LIMIT_MAX), CUDA_ERROR_INVALID_VALUE);
    CK(cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE), CUDA_ERROR_INVALID_VALUE);

    CUfunc_cache cc = CU_FUNC_CACHE_PREFER_EQUAL;
    OK(cuCtxGetCacheConfig(&cc));
    TT_EQ_I(cc, CU_FUNC_CACHE_PREFER_NONE);
    OK(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED));
    OK(cuCtxGetCacheConfig(&cc));
    TT_EQ_I(cc, CU_FUNC_CACHE_PREFER_SHARED);
    CK(cuCtxSetCacheConfig((CUfunc_cache)7), CUDA_ERROR_INVALID_VALUE);

    int least = 9, greatest = 9;
    OK(cuCtxGetStreamPriorityRange(&least, &greatest));
    TT_EQ_I(least, 0);
    TT_EQ_I(greatest, -5);
    OK(cuCtxGetStreamPriorityRange(NULL, NULL));

    CUexecAffinityParam a;
    OK(cuCtxGetExecAffinity(&a, CU_EXEC_AFFINITY_TYPE_SM_COUNT));
    TT_EQ_U(a.param.smCount.val, 30);   /* the RTX 2060's SMs */
    OK(cuCtxDestroy(c));
    /* a new context starts from the defaults again */
    OK(cuCtxCreate(&c, NULL, 0, 0));
    OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    TT_EQ_U(v, 1024);
    OK(cuCtxDestroy(c));
}

static void basic_primary(void)
{
    unsigned flags = 99;
    int active = 99;
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    TT_EQ_U(flags, 0);
    TT_EQ_I(active, 0);
    CK(cuDevicePrimaryCtxGetState(1, &flags, &active), CUDA_ERROR_INVALID_DEVICE);
    CK(cuDevicePrimaryCtxGetState(0, NULL, &active), CUDA_ERROR_INVALID_VALUE);
    CK(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
    OK(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC));
    CK(cuDevicePrimaryCtxSetFlags(0, 0x1000), CUDA_ERROR_INVALID_VALUE);

    CUcontext p1, p2, cur;
    OK(cuDevicePrimaryCtxRetain(&p1, 0));
    OK(cuDevicePrimaryCtxRetain(&p2, 0));
    TT_CHECK(p1 == p2);
    CK(cuDevicePrimaryCtxRetain(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuDevicePrimaryCtxRetain(&p1, 2), CUDA_ERROR_INVALID_DEVICE);
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    TT_EQ_U(flags, CU_CTX_SCHED_BLOCKING_SYNC);
    TT_EQ_I(active, 1);
    /* retaining does not make it current */
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == NULL);
    OK(cuCtxSetCurrent(p1));
    CUdeviceptr a;
    OK(cuMemAlloc(&a, 1000));
    /* cuCtxDestroy does not destroy a primary context */
    CK(cuCtxDestroy(p1), CUDA_ERROR_INVALID_CONTEXT);
    /* reset frees its memory; the context stays usable while retained */
    OK(cuDevicePrimaryCtxReset(0));
    CK(cuMemFree(a), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemAlloc(&a, 1000));
    OK(cuMemFree(a));
    OK(cuDevicePrimaryCtxRelease(0));
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    TT_EQ_I(active, 1);
    OK(cuDevicePrimaryCtxRelease(0));
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    TT_EQ_I(active, 0);
    CK(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
    /* still current to this thread, but no longer alive */
    CK(cuMemAlloc(&a, 16), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    OK(cuCtxSetCurrent(NULL));
    /* retained again: the same handle, alive again */
    OK(cuDevicePrimaryCtxRetain(&p2, 0));
    TT_CHECK(p2 == p1);
    OK(cuCtxPushCurrent(p2));
    OK(cuMemAlloc(&a, 16));
    OK(cuCtxPopCurrent(NULL));
    OK(cuDevicePrimaryCtxRelease(0));
}

#define ERRS(X)                                                                \
    X(CUDA_SUCCESS) X(CUDA_ERROR_INVALID_VALUE) X(CUDA_ERROR_OUT_OF_MEMORY)     \
    X(CUDA_ERROR_NOT_INITIALIZED) X(CUDA_ERROR_DEINITIALIZED)                   \
    X(CUDA_ERROR_PROFILER_DISABLED) X(CUDA_ERROR_PROFILER_NOT_INITIALIZED)      \
    X(CUDA_ERROR_PROFILER_ALREADY_STARTED) X(CUDA_ERROR_PROFILER_ALREADY_STOPPED) \
    X(CUDA_ERROR_STUB_LIBRARY) X(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER)         \
    X(CUDA_ERROR_DEVICE_UNAVAILABLE) X(CUDA_ERROR_NO_DEVICE) X(CUDA_ERROR_INVALID_DEVICE) \
    X(CUDA_ERROR_DEVICE_NOT_LICENSED) X(CUDA_ERROR_INVALID_IMAGE) X(CUDA_ERROR_INVALID_CONTEXT) \
    X(CUDA_ERROR_CONTEXT_ALREADY_CURRENT) X(CUDA_ERROR_MAP_FAILED) X(CUDA_ERROR_UNMAP_FAILED) \
    X(CUDA_ERROR_ARRAY_IS_MAPPED) X(CUDA_ERROR_ALREADY_MAPPED) X(CUDA_ERROR_NO_BINARY_FOR_GPU) \
    X(CUDA_ERROR_ALREADY_ACQUIRED) X(CUDA_ERROR_NOT_MAPPED) X(CUDA_ERROR_NOT_MAPPED_AS_ARRAY) \
    X(CUDA_ERROR_NOT_MAPPED_AS_POINTER) X(CUDA_ERROR_ECC_UNCORRECTABLE) X(CUDA_ERROR_UNSUPPORTED_LIMIT) \
    X(CUDA_ERROR_CONTEXT_ALREADY_IN_USE) X(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED) X(CUDA_ERROR_INVALID_PTX) \
    X(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT) X(CUDA_ERROR_NVLINK_UNCORRECTABLE)   \
    X(CUDA_ERROR_JIT_COMPILER_NOT_FOUND) X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)  \
    X(CUDA_ERROR_JIT_COMPILATION_DISABLED) X(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY) \
    X(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC) X(CUDA_ERROR_CONTAINED) X(CUDA_ERROR_INVALID_SOURCE) \
    X(CUDA_ERROR_FILE_NOT_FOUND) X(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND)   \
    X(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED) X(CUDA_ERROR_OPERATING_SYSTEM) X(CUDA_ERROR_INVALID_HANDLE) \
    X(CUDA_ERROR_ILLEGAL_STATE) X(CUDA_ERROR_LOSSY_QUERY) X(CUDA_ERROR_NOT_FOUND) X(CUDA_ERROR_NOT_READY) \
    X(CUDA_ERROR_ILLEGAL_ADDRESS) X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) X(CUDA_ERROR_LAUNCH_TIMEOUT) \
    X(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING) X(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) \
    X(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED) X(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE)  \
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED) X(CUDA_ERROR_ASSERT) X(CUDA_ERROR_TOO_MANY_PEERS) \
    X(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) X(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED) \
    X(CUDA_ERROR_HARDWARE_STACK_ERROR) X(CUDA_ERROR_ILLEGAL_INSTRUCTION) X(CUDA_ERROR_MISALIGNED_ADDRESS) \
    X(CUDA_ERROR_INVALID_ADDRESS_SPACE) X(CUDA_ERROR_INVALID_PC) X(CUDA_ERROR_LAUNCH_FAILED) \
    X(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) X(CUDA_ERROR_TENSOR_MEMORY_LEAK) X(CUDA_ERROR_NOT_PERMITTED) \
    X(CUDA_ERROR_NOT_SUPPORTED) X(CUDA_ERROR_SYSTEM_NOT_READY) X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) \
    X(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) X(CUDA_ERROR_MPS_CONNECTION_FAILED) \
    X(CUDA_ERROR_MPS_RPC_FAILURE) X(CUDA_ERROR_MPS_SERVER_NOT_READY) X(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED) \
    X(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED) X(CUDA_ERROR_MPS_CLIENT_TERMINATED) \
    X(CUDA_ERROR_CDP_NOT_SUPPORTED) X(CUDA_ERROR_CDP_VERSION_MISMATCH)         \
    X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED) X(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED) \
    X(CUDA_ERROR_STREAM_CAPTURE_MERGE) X(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED)   \
    X(CUDA_ERROR_STREAM_CAPTURE_UNJOINED) X(CUDA_ERROR_STREAM_CAPTURE_ISOLATION) \
    X(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT) X(CUDA_ERROR_CAPTURED_EVENT)         \
    X(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD) X(CUDA_ERROR_TIMEOUT) X(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE) \
    X(CUDA_ERROR_EXTERNAL_DEVICE) X(CUDA_ERROR_INVALID_CLUSTER_SIZE) X(CUDA_ERROR_FUNCTION_NOT_LOADED) \
    X(CUDA_ERROR_INVALID_RESOURCE_TYPE) X(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION) \
    X(CUDA_ERROR_KEY_ROTATION) X(CUDA_ERROR_UNKNOWN)

static void basic_error_names(void)
{
    const char *s = NULL, *d = NULL;
#define X(e)                                                                   \
    s = d = NULL;                                                              \
    OK(cuGetErrorName(e, &s));                                                 \
    TT_EQ_STR(s, #e);                                                          \
    OK(cuGetErrorString(e, &d));                                               \
    TT_CHECK(d && *d && strcmp(d, #e) != 0);
    ERRS(X)
#undef X
    OK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &d));
    TT_EQ_STR(d, "invalid argument");
    OK(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &d));
    TT_EQ_STR(d, "an illegal memory access was encountered");
    s = "x";
    CK(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    TT_CHECK(s == NULL);
    CK(cuGetErrorString((CUresult)-1, &s), CUDA_ERROR_INVALID_VALUE);
    CK(cuGetErrorName(CUDA_SUCCESS, NULL), CUDA_ERROR_INVALID_VALUE);
}

static void basic_proc_address(void)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    OK(cuGetProcAddress("cuMemAlloc", &fn, 13000, 0, &st));
    TT_CHECK(fn == (void *)cuMemAlloc_v2);
    TT_EQ_I(st, CU_GET_PROC_ADDRESS_SUCCESS);
    void *old = NULL;
    OK(cuGetProcAddress("cuMemAlloc", &old, 3010, 0, &st));   /* before _v2 (3.2) */
    TT_CHECK(old && old != fn);
    OK(cuGetProcAddress("cuCtxCreate", &fn, 13000, 0, &st));
    TT_CHECK(fn == (void *)cuCtxCreate_v4);
    OK(cuGetProcAddress("cuCtxCreate", &fn, 12000, 0, &st));   /* _v3 came in 11.4 */
    TT_CHECK(fn && fn != (void *)cuCtxCreate_v4);
    OK(cuGetProcAddress("cuLaunchKernel", &fn, 12000, 0, NULL));
    TT_CHECK(fn == (void *)cuLaunchKernel);
    OK(cuGetProcAddress("cuMemcpyHtoD", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
    TT_CHECK(fn != NULL);
    fn = (void *)1;
    CK(cuGetProcAddress("cuNoSuchFunction", &fn, 13000, 0, &st), CUDA_ERROR_NOT_FOUND);
    TT_CHECK(fn == NULL);
    TT_EQ_I(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    CK(cuGetProcAddress("cuLaunchKernelEx", &fn, 11000, 0, &st), CUDA_ERROR_NOT_FOUND);   /* 11.6 */
    TT_EQ_I(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    CK(cuGetProcAddress("cuInit", &fn, 13000, 4, &st), CUDA_ERROR_INVALID_VALUE);
    CK(cuGetProcAddress(NULL, &fn, 13000, 0, &st), CUDA_ERROR_INVALID_VALUE);
    CK(cuGetProcAddress("cuInit", NULL, 13000, 0, &st), CUDA_ERROR_INVALID_VALUE);
    /* the pointer works */
    CUresult (*ver)(int *) = NULL;
    OK(cuGetProcAddress("cuDriverGetVersion", (void **)&ver, 13000, 0, &st));
    int v = 0;
    TT_CHECK(ver != NULL);
    if (ver) OK(ver(&v));
    TT_EQ_I(v, 13000);

    const void *tbl = (const void *)1;
    CUuuid id = {{0}};
    CK(cuGetExportTable(&tbl, &id), CUDA_ERROR_NOT_SUPPORTED);
    TT_CHECK(tbl == NULL);
}

/* Entry points tpsim does not implement exist and say so. */
static void basic_unsupported(void)
{
    CUcontext c;
    OK(cuCtxCreate(&c, NULL, 0, 0));
    /* called through cuGetProcAddress: tpsim's cuda.h does not declare them */
    CUresult (*graph_create)(void **, unsigned) = NULL;
    OK(cuGetProcAddress("cuGraphCreate", (void **)&graph_create, 13000, 0, NULL));
    TT_CHECK(graph_create != NULL);
    void *g;
    if (graph_create) {
        CK(graph_create(&g, 0), CUDA_ERROR_NOT_SUPPORTED);
        CK(graph_create(&g, 0), CUDA_ERROR_NOT_SUPPORTED);   /* the message is printed once */
    }
    CUresult (*fn)(void) = NULL;
    OK(cuGetProcAddress("cuMipmappedArrayGetSparseProperties", (void **)&fn, 13000, 0, NULL));
    TT_CHECK(fn != NULL);
    if (fn) CK(fn(), CUDA_ERROR_NOT_SUPPORTED);
    OK(cuCtxDestroy(c));
}

/* The current context belongs to a thread. */
static CUcontext thread_ctx;
static int thread_ok;
static void *thread_main(void *arg)
{
    (void)arg;
    CUcontext cur = (CUcontext)1;
    CUdeviceptr p;
    thread_ok = cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL &&
                cuMemAlloc(&p, 64) == CUDA_ERROR_INVALID_CONTEXT && cuCtxSetCurrent(thread_ctx) == CUDA_SUCCESS &&
                cuMemAlloc(&p, 64) == CUDA_SUCCESS && cuMemFree(p) == CUDA_SUCCESS;
    return NULL;
}

static void basic_threads(void)
{
    OK(cuCtxCreate(&thread_ctx, NULL, 0, 0));
    pthread_t t;
    TT_CHECK(pthread_create(&t, NULL, thread_main, NULL) == 0);
    pthread_join(t, NULL);
    TT_CHECK(thread_ok);
    CUcontext cur;
    OK(cuCtxGetCurrent(&cur));
    TT_CHECK(cur == thread_ctx);
    OK(cuCtxDestroy(thread_ctx));
}

int main(void)
{
    TT_RUN(basic_before_init);
    TT_RUN(basic_init);
    TT_RUN(basic_device);
    TT_RUN(basic_attributes);
    TT_RUN(basic_context);
    TT_RUN(basic_limits);
    TT_RUN(basic_primary);
    TT_RUN(basic_error_names);
    TT_RUN(basic_proc_address);
    TT_RUN(basic_unsupported);
    TT_RUN(basic_threads);
    return tt_done();
}
