/*
** t_rt.c -- the runtime API (libcudart.so.13) without nvcc: this C program
** registers its own fatbinaries the way nvcc's host code does (a wrapper,
** __cudaRegisterFunction with a host "stub" address, __cudaRegisterVar,
** __cudaRegisterManagedVar) and then uses the runtime as a CUDA program
** would: launches (cudaLaunchKernel and the <<<>>> protocol), symbols,
** managed variables, memory, arrays and textures, streams and events,
** errors (last, sticky, reset), device properties and the stubs.
** Compiled against tpsim's cuda_runtime_api.h; prints PASS/FAIL lines.
*/
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lz4.h>
#include <zstd.h>
#include "../unit/tt.h"

/* what nvcc's host code declares (crt/host_runtime.h) */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **h);
void __cudaUnregisterFatBinary(void **h);
void __cudaRegisterFunction(void **h, const char *hostFun, char *deviceFun, const char *deviceName, int thread_limit,
                            void *tid, void *bid, void *bDim, void *gDim, int *wSize);
void __cudaRegisterVar(void **h, char *hostVar, char *deviceAddress, const char *deviceName, int ext, size_t size,
                       int constant, int global);
void __cudaRegisterManagedVar(void **h, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global);
char __cudaInitModule(void **h);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream);

#define CK(call, want)                                                         \
    do {                                                                       \
        cudaError_t ck_r = (call), ck_w = (want);                              \
        tt_nchecks++;                                                          \
        if (ck_r != ck_w)                                                      \
            tt_fail_msg(__FILE__, __LINE__, "%s: %s, want %s", #call, cudaGetErrorName(ck_r), \
                        cudaGetErrorName(ck_w));                               \
    } while (0)
#define OK(call) CK(call, cudaSuccess)

static dim3 d3(unsigned x, unsigned y, unsigned z) { dim3 d = {x, y, z}; return d; }

/* scale(x, n): x[i] = x[i] * coef[0] + counter; mval += 1 per thread;
** bad(): a store to address 0; fetch2d(t, out) and surfwrite(s): see t_tex.c */
static const char ptx_main[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .u32 counter;\n"
    ".const .align 4 .b8 coef[16];\n"
    ".global .attribute(.managed) .align 4 .u32 mval;\n"
    ".visible .entry scale(.param .u64 p_x, .param .u32 p_n)\n{\n"
    "    .reg .pred %p<2>;\n    .reg .b32 %r<8>;\n    .reg .f32 %f<4>;\n    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [p_x];\n    ld.param.u32 %r1, [p_n];\n"
    "    mov.u32 %r2, %ctaid.x;\n    mov.u32 %r3, %ntid.x;\n    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.s32 %r5, %r2, %r3, %r4;\n    setp.ge.s32 %p1, %r5, %r1;\n    @%p1 bra DONE;\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n    mul.wide.s32 %rd3, %r5, 4;\n    add.s64 %rd4, %rd2, %rd3;\n"
    "    ld.global.f32 %f1, [%rd4];\n    ld.const.f32 %f2, [coef];\n    ld.global.u32 %r6, [counter];\n"
    "    cvt.rn.f32.u32 %f3, %r6;\n    fma.rn.f32 %f1, %f1, %f2, %f3;\n    st.global.f32 [%rd4], %f1;\n"
    "    atom.global.add.u32 %r7, [mval], 1;\n"
    "DONE:\n    ret;\n}\n"
    ".visible .entry bad()\n{\n    .reg .b64 %rd<2>;\n    .reg .b32 %r<2>;\n"
    "    mov.u64 %rd1, 0;\n    mov.u32 %r1, 1;\n    st.global.u32 [%rd1], %r1;\n    ret;\n}\n"
    ".visible .entry fetch2d(.param .u64 p_t, .param .u64 p_out)\n{\n"
    "    .reg .b32 %r<8>;\n    .reg .f32 %f<9>;\n    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [p_t];\n    ld.param.u64 %rd2, [p_out];\n"
    "    mov.u32 %r1, %tid.x;\n    mov.u32 %r2, %tid.y;\n    mov.u32 %r3, %ntid.x;\n"
    "    cvt.rn.f32.u32 %f1, %r1;\n    add.f32 %f2, %f1, 0f3F000000;\n"
    "    cvt.rn.f32.u32 %f3, %r2;\n    add.f32 %f4, %f3, 0f3F000000;\n"
    "    tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f2, %f4}];\n"
    "    mad.lo.s32 %r4, %r2, %r3, %r1;\n    cvta.to.global.u64 %rd3, %rd2;\n"
    "    mul.wide.u32 %rd4, %r4, 4;\n    add.s64 %rd5, %rd3, %rd4;\n    st.global.f32 [%rd5], %f5;\n"
    "    ret;\n}\n"
    ".visible .entry surfwrite(.param .u64 p_s)\n{\n"
    "    .reg .b32 %r<8>;\n    .reg .b64 %rd<2>;\n    ld.param.u64 %rd1, [p_s];\n"
    "    mov.u32 %r1, %tid.x;\n    mov.u32 %r2, %tid.y;\n    mul.lo.s32 %r3, %r1, 10;\n"
    "    add.s32 %r4, %r3, %r2;\n    shl.b32 %r5, %r1, 2;\n"
    "    sust.b.2d.b32.trap [%rd1, {%r5, %r2}], {%r4};\n    ret;\n}\n";

/* relocatable halves: k(out) = twice(21) + bias, twice and bias in the other */
static const char ptx_rdc_a[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".extern .global .align 4 .u32 bias;\n"
    ".visible .entry k(.param .u64 p)\n{\n    .reg .b32 %r<5>;\n    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [p];\n    mov.u32 %r1, 21;\n"
    "    { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1;\n"
    "      call.uni (b), twice, (a); ld.param.b32 %r2, [b]; }\n"
    "    ld.global.u32 %r3, [bias];\n    add.s32 %r4, %r2, %r3;\n"
    "    st.global.u32 [%rd1], %r4;\n    ret;\n}\n";
static const char ptx_rdc_b[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .global .align 4 .u32 bias = 1000;\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
    "    .reg .b32 %r<3>;\n    ld.param.b32 %r1, [x];\n    shl.b32 %r2, %r1, 1;\n"
    "    st.param.b32 [r], %r2;\n    ret;\n}\n";

/* ---- building fatbinaries (the layout of api/fatbin.h) ------------------------------- */

typedef struct wrapper {
    uint32_t magic, version;
    const void *data;
    const void *const *prelinked;
} wrapper;

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* One entry of kind (1 PTX, 2 ELF) for sm, with flags (0x2000 LZ4, 0x8000
** zstd), the payload of n bytes and, when compressed, the uncompressed size. */
static uint8_t *fatbin(int kind, uint32_t sm, uint64_t flags, const void *payload, size_t n, size_t usize)
{
    size_t padded = (n + 7) / 8 * 8, ehs = 80;
    uint8_t *b = calloc(1, 16 + ehs + padded);
    put32(b, 0xBA55ED50u);
    put16(b + 4, 1);
    put16(b + 6, 16);
    put64(b + 8, ehs + padded);
    uint8_t *e = b + 16;
    put16(e, (uint16_t)kind);
    put16(e + 2, 0x0101);
    put32(e + 4, (uint32_t)ehs);
    put64(e + 8, padded);
    put32(e + 16, flags & 0xa000 ? (uint32_t)n : 0);
    put32(e + 28, sm);
    put64(e + 40, flags);
    put64(e + 56, flags & 0xa000 ? usize : 0);
    memcpy(e + ehs, payload, n);
    return b;
}

static uint8_t *fatbin_ptx(const char *ptx) { return fatbin(1, 75, 0x11, ptx, strlen(ptx) + 1, 0); }

/* ---- the registered module ------------------------------------------------------------ */

static char stub_scale, stub_bad, stub_fetch2d, stub_surfwrite, stub_k, stub_unregistered;
static char shadow_counter, shadow_coef, shadow_bias;
static unsigned *managed_mval;   /* set by the runtime when the module loads */
static void **handle;

static void register_main(void)
{
    static wrapper w = {0x466243B1u, 1, NULL, NULL};
    w.data = fatbin_ptx(ptx_main);
    handle = __cudaRegisterFatBinary(&w);
    __cudaRegisterFunction(handle, &stub_scale, "scale", "scale", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &stub_bad, "bad", "bad", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &stub_fetch2d, "fetch2d", "fetch2d", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, &stub_surfwrite, "surfwrite", "surfwrite", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(handle, &shadow_counter, "counter", "counter", 0, 4, 0, 0);
    __cudaRegisterVar(handle, &shadow_coef, "coef", "coef", 0, 16, 1, 0);
    __cudaRegisterManagedVar(handle, (void **)&managed_mval, "mval", "mval", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(handle);
}

static void rt_device(void)
{
    int v = 0;
    OK(cudaRuntimeGetVersion(&v));
    TT_EQ_I(v, 13000);
    OK(cudaDriverGetVersion(&v));
    TT_EQ_I(v, 13000);
    OK(cudaGetDeviceCount(&v));
    TT_EQ_I(v, 1);
    OK(cudaSetDevice(0));
    CK(cudaSetDevice(1), cudaErrorInvalidDevice);
    CK(cudaGetLastError(), cudaErrorInvalidDevice);
    OK(cudaGetLastError());
    OK(cudaGetDevice(&v));
    TT_EQ_I(v, 0);
    /* the default configuration, rtx2060: a GeForce RTX 2060's figures */
    struct cudaDeviceProp p;
    OK(cudaGetDeviceProperties(&p, 0));
    TT_EQ_STR(p.name, "tpsim GeForce RTX 2060 (simulated)");
    TT_EQ_I(p.major, 7);
    TT_EQ_I(p.minor, 5);
    TT_EQ_I(p.warpSize, 32);
    TT_EQ_I(p.multiProcessorCount, 30);
    TT_EQ_U(p.totalGlobalMem, 6ull << 30);
    TT_EQ_U(p.sharedMemPerBlock, 49152);
    TT_EQ_U(p.sharedMemPerBlockOptin, 65536);
    TT_EQ_U(p.sharedMemPerMultiprocessor, 65536);
    TT_EQ_I(p.regsPerMultiprocessor, 65536);
    TT_EQ_I(p.regsPerBlock, 65536);
    TT_EQ_I(p.maxThreadsPerMultiProcessor, 1024);
    TT_EQ_I(p.maxBlocksPerMultiProcessor, 16);
    TT_EQ_I(p.maxThreadsPerBlock, 1024);
    TT_EQ_I(p.maxGridSize[1], 65535);
    TT_EQ_I(p.l2CacheSize, 3 * 1024 * 1024);
    TT_EQ_I(p.memoryBusWidth, 192);
    TT_EQ_I(p.persistingL2CacheMaxSize, 0);   /* Turing has none */
    TT_EQ_I(p.accessPolicyMaxWindowSize, 0);
    TT_EQ_I(p.managedMemory, 1);
    TT_EQ_I(p.unifiedAddressing, 1);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    TT_EQ_I(v, p.multiProcessorCount);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    TT_EQ_I(v, 1680000);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 3), cudaErrorInvalidDevice);
    CK(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
    cudaGetLastError();
    /* the driver's entry points, shared with the runtime */
    int (*get_count)(int *) = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    OK(cudaGetDriverEntryPointByVersion("cuDeviceGetCount", (void **)&get_count, 13000, 0, &q));
    TT_CHECK(q == cudaDriverEntryPointSuccess && get_count != NULL);
    v = 0;
    if (get_count) TT_CHECK(get_count(&v) == 0 && v == 1);
    void *none = (void *)1;
    OK(cudaGetDriverEntryPoint("cuNoSuchFunction", &none, 0, &q));
    TT_CHECK(q == cudaDriverEntryPointSymbolNotFound && none == NULL);
    size_t lim = 0;
    OK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    OK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    TT_EQ_U(lim, 4096);
}

static void rt_errors(void)
{
    TT_EQ_STR(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
    TT_EQ_STR(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered");
    TT_EQ_STR(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
    TT_EQ_STR(cudaGetErrorString(cudaSuccess), "no error");
    TT_EQ_STR(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
    TT_EQ_STR(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
    TT_EQ_STR(cudaGetErrorName((cudaError_t)12345), "unrecognized error code");
    TT_EQ_STR(cudaGetErrorString((cudaError_t)12345), "unrecognized error code");
    /* every error has its own name and a description */
#define X(name, value, desc)                                                   \
    TT_EQ_STR(cudaGetErrorName(name), #name);                                  \
    TT_CHECK(strcmp(cudaGetErrorString(name), "unrecognized error code") != 0 && cudaGetErrorString(name)[0]);
#include "../../cudart/rt_errors.def"
#undef X
}

static void rt_launch(void)
{
    enum { N = 1000 };
    float h[N], *d;
    for (int i = 0; i < N; i++) h[i] = (float)i;
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    float coef[4] = {2.0f, 0, 0, 0};
    unsigned counter = 5;
    OK(cudaMemcpyToSymbol(&shadow_coef, coef, sizeof coef, 0, cudaMemcpyHostToDevice));
    OK(cudaMemcpyToSymbol(&shadow_counter, &counter, 4, 0, cudaMemcpyHostToDevice));
    int n = N;
    void *args[] = {&d, &n};
    OK(cudaLaunchKernel(&stub_scale, d3(4, 1, 1), d3(256, 1, 1), args, 0, NULL));
    /* the <<<>>> protocol of nvcc's host stubs */
    TT_EQ_U(__cudaPushCallConfiguration(d3(8, 1, 1), d3(128, 1, 1), 0, NULL), 0);
    dim3 g, b;
    size_t sh;
    cudaStream_t st;
    OK(__cudaPopCallConfiguration(&g, &b, &sh, &st));
    TT_CHECK(g.x == 8 && b.x == 128 && sh == 0 && st == NULL);
    CK(__cudaPopCallConfiguration(&g, &b, &sh, &st), cudaErrorMissingConfiguration);
    cudaGetLastError();
    cudaKernel_t k = NULL;
    OK(__cudaGetKernel(&k, &stub_scale));
    OK(__cudaLaunchKernel(k, g, b, args, sh, st));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += h[i] != ((float)i * 2 + 5) * 2 + 5;
    TT_EQ_I(bad, 0);
    /* errors of the launch itself: recorded as the last error, not sticky */
    CK(cudaLaunchKernel(&stub_unregistered, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL), cudaErrorInvalidDeviceFunction);
    CK(__cudaGetKernel(&k, &stub_unregistered), cudaErrorInvalidDeviceFunction);
    CK(cudaPeekAtLastError(), cudaErrorInvalidDeviceFunction);
    CK(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    OK(cudaGetLastError());
    const dim3 blocks[4] = {{0, 1, 1}, {2048, 1, 1}, {1, 1, 65}, {32, 33, 1}};
    for (int i = 0; i < 4; i++) CK(cudaLaunchKernel(&stub_scale, d3(1, 1, 1), blocks[i], args, 0, NULL), cudaErrorInvalidValue);
    CK(cudaLaunchKernel(&stub_scale, d3(1, 65536, 1), d3(32, 1, 1), args, 0, NULL), cudaErrorInvalidValue);
    CK(cudaLaunchKernel(&stub_scale, d3(0, 1, 1), d3(32, 1, 1), args, 0, NULL), cudaErrorInvalidValue);
    CK(cudaGetLastError(), cudaErrorInvalidValue);
    OK(cudaDeviceSynchronize());
    /* the launch configuration API */
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    cudaLaunchConfig_t cfg = {d3(1, 1, 1), d3(32, 1, 1), 0, NULL, &attr, 1};
    OK(cudaLaunchKernelExC(&cfg, &stub_scale, args));
    /* function attributes and occupancy from the configured GPU */
    struct cudaFuncAttributes fa;
    OK(cudaFuncGetAttributes(&fa, &stub_scale));
    TT_EQ_I(fa.ptxVersion, 75);
    TT_EQ_I(fa.binaryVersion, 75);
    TT_CHECK(fa.numRegs > 0 && fa.numRegs <= 255);
    TT_EQ_I(fa.maxThreadsPerBlock, 1024);
    TT_EQ_U(fa.sharedSizeBytes, 0);
    int blocks_sm = 0;
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_sm, &stub_scale, 256, 0));
    /* 8 warps a block on the RTX 2060: min(16 CTAs, 1024 / 256 threads,
    ** 65536 registers / (regs * 32 to a multiple of 256, 8 warps)) */
    int per_warp = (fa.numRegs * 32 + 255) / 256 * 256;
    int want = 16;
    if (1024 / 256 < want) want = 1024 / 256;
    if (65536 / (per_warp * 8) < want) want = 65536 / (per_warp * 8);
    TT_EQ_I(blocks_sm, want);
    OK(cudaFuncSetAttribute(&stub_scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
    OK(cudaFuncGetAttributes(&fa, &stub_scale));
    TT_EQ_I(fa.maxDynamicSharedSizeBytes, 1024);
    OK(cudaFuncSetCacheConfig(&stub_scale, cudaFuncCachePreferL1));
    const char *name = NULL;
    OK(cudaFuncGetName(&name, &stub_scale));
    TT_EQ_STR(name, "scale");
    CK(cudaFuncGetAttributes(&fa, &stub_unregistered), cudaErrorInvalidDeviceFunction);
    cudaGetLastError();
    OK(cudaFree(d));
}

static void rt_symbols(void)
{
    unsigned v = 77, back = 0;
    OK(cudaMemcpyToSymbol(&shadow_counter, &v, 4, 0, cudaMemcpyHostToDevice));
    OK(cudaMemcpyFromSymbol(&back, &shadow_counter, 4, 0, cudaMemcpyDeviceToHost));
    TT_EQ_U(back, 77);
    float c[2] = {1.5f, 2.5f}, cb[4];
    OK(cudaMemcpyToSymbol(&shadow_coef, c, 8, 8, cudaMemcpyDefault));
    OK(cudaMemcpyFromSymbol(cb, &shadow_coef, 16, 0, cudaMemcpyDefault));
    TT_CHECK(cb[2] == 1.5f && cb[3] == 2.5f);
    CK(cudaMemcpyToSymbol(&shadow_coef, c, 8, 12, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CK(cudaMemcpyToSymbol(&shadow_coef, c, 8, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
    CK(cudaMemcpyToSymbol(&stub_unregistered, c, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidSymbol);
    cudaGetLastError();
    size_t size = 0;
    void *addr = NULL;
    OK(cudaGetSymbolSize(&size, &shadow_coef));
    TT_EQ_U(size, 16);
    OK(cudaGetSymbolAddress(&addr, &shadow_counter));
    TT_CHECK(addr != NULL && *(unsigned *)addr == 77);   /* device memory is host-addressable */
    /* the managed variable: its host pointer points at it once the module loads */
    TT_CHECK(__cudaInitModule(handle) != 0);
    TT_CHECK(managed_mval != NULL);
    if (!managed_mval) return;
    *managed_mval = 0;
    float *d;
    OK(cudaMalloc((void **)&d, 400));
    int n = 100;
    void *args[] = {&d, &n};
    OK(cudaLaunchKernel(&stub_scale, d3(1, 1, 1), d3(128, 1, 1), args, 0, NULL));
    OK(cudaDeviceSynchronize());
    TT_EQ_U(*managed_mval, 100);
    struct cudaPointerAttributes pa;
    OK(cudaPointerGetAttributes(&pa, managed_mval));
    TT_CHECK(pa.type == cudaMemoryTypeManaged && pa.hostPointer == managed_mval);
    /* host code names a managed variable by its address */
    unsigned m = 0;
    OK(cudaMemcpyFromSymbol(&m, managed_mval, 4, 0, cudaMemcpyDeviceToHost));
    TT_EQ_U(m, 100);
    OK(cudaFree(d));
}

static void rt_memory(void)
{
    size_t free0, total, free1;
    OK(cudaMemGetInfo(&free0, &total));
    TT_EQ_U(total, 6ull << 30);
    char *d, *pinned, *mapped;
    float *managed;
    OK(cudaMalloc((void **)&d, 1 << 20));
    OK(cudaMemGetInfo(&free1, &total));
    TT_CHECK(free1 <= free0 - (1 << 20));
    void *z = (void *)1;
    OK(cudaMalloc(&z, 0));
    TT_CHECK(z == NULL);
    OK(cudaFree(NULL));
    CK(cudaFree(d + 1), cudaErrorInvalidValue);
    cudaGetLastError();
    OK(cudaMallocHost((void **)&pinned, 4096));
    OK(cudaHostAlloc((void **)&mapped, 4096, cudaHostAllocMapped));
    OK(cudaMallocManaged((void **)&managed, 4096, cudaMemAttachGlobal));
    /* memset, copies of every kind */
    OK(cudaMemset(d, 0xab, 4096));
    OK(cudaMemcpy(pinned, d, 4096, cudaMemcpyDeviceToHost));
    TT_CHECK((unsigned char)pinned[4095] == 0xab);
    memset(pinned, 3, 100);
    OK(cudaMemcpy(d + 8, pinned, 100, cudaMemcpyDefault));
    OK(cudaMemcpy(mapped, d, 200, cudaMemcpyDeviceToDevice));   /* mapped host memory is device memory */
    TT_CHECK(mapped[8] == 3 && mapped[107] == 3 && (unsigned char)mapped[108] == 0xab);
    CK(cudaMemcpy(d, pinned, 10, (enum cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    char plain[64];
    CK(cudaMemcpy(plain, plain + 8, 8, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
    cudaGetLastError();
    /* 2D: a pitched allocation */
    char *p2;
    size_t pitch;
    OK(cudaMallocPitch((void **)&p2, &pitch, 100, 10));
    TT_CHECK(pitch >= 100 && pitch % 256 == 0);
    char src[10][100], dst[10][100];
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 100; x++) src[y][x] = (char)(y * 7 + x);
    OK(cudaMemcpy2D(p2, pitch, src, 100, 100, 10, cudaMemcpyHostToDevice));
    OK(cudaMemset2D(p2 + 2 * pitch, pitch, 0, 50, 2));
    OK(cudaMemcpy2D(dst, 100, p2, pitch, 100, 10, cudaMemcpyDeviceToHost));
    TT_CHECK(dst[1][99] == src[1][99] && dst[2][0] == 0 && dst[3][49] == 0 && dst[3][50] == src[3][50]);
    CK(cudaMemcpy2D(dst, 50, p2, pitch, 100, 10, cudaMemcpyDeviceToHost), cudaErrorInvalidPitchValue);
    cudaGetLastError();
    /* 3D */
    struct cudaPitchedPtr pp;
    struct cudaExtent ext = {64, 4, 3};
    OK(cudaMalloc3D(&pp, ext));
    OK(cudaMemset3D(pp, 9, ext));
    TT_CHECK(((char *)pp.ptr)[2 * pp.pitch * 4 + 3 * pp.pitch + 63] == 9);
    /* pointer attributes */
    struct cudaPointerAttributes pa;
    OK(cudaPointerGetAttributes(&pa, d + 5));
    TT_CHECK(pa.type == cudaMemoryTypeDevice && pa.device == 0 && pa.devicePointer == d + 5);
    OK(cudaPointerGetAttributes(&pa, pinned));
    TT_CHECK(pa.type == cudaMemoryTypeHost && pa.hostPointer == pinned);
    OK(cudaPointerGetAttributes(&pa, managed));
    TT_CHECK(pa.type == cudaMemoryTypeManaged);
    OK(cudaPointerGetAttributes(&pa, plain));
    TT_CHECK(pa.type == cudaMemoryTypeUnregistered);
    /* registered host memory */
    char *reg = aligned_alloc(4096, 4096);
    OK(cudaHostRegister(reg, 4096, cudaHostRegisterDefault));
    void *dreg = NULL;
    OK(cudaHostGetDevicePointer(&dreg, reg, 0));
    TT_CHECK(dreg == reg);
    OK(cudaMemset(dreg, 1, 16));
    TT_CHECK(reg[15] == 1);
    OK(cudaHostUnregister(reg));
    CK(cudaHostUnregister(reg), cudaErrorHostMemoryNotRegistered);
    cudaGetLastError();
    free(reg);
    OK(cudaFree(pp.ptr));
    OK(cudaFree(p2));
    OK(cudaFree(managed));
    OK(cudaFreeHost(mapped));
    OK(cudaFreeHost(pinned));
    OK(cudaFree(d));
}

static void rt_textures(void)
{
    struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    TT_CHECK(cd.x == 32 && cd.y == 0 && cd.f == cudaChannelFormatKindFloat);
    cudaArray_t a;
    OK(cudaMallocArray(&a, &cd, 8, 4, cudaArraySurfaceLoadStore));
    struct cudaChannelFormatDesc got;
    struct cudaExtent ext;
    unsigned flags;
    OK(cudaArrayGetInfo(&got, &ext, &flags, a));
    TT_CHECK(got.x == 32 && got.f == cudaChannelFormatKindFloat && ext.width == 8 && ext.height == 4 &&
             ext.depth == 0 && flags == cudaArraySurfaceLoadStore);
    float img[32], out[32];
    for (int i = 0; i < 32; i++) img[i] = 0.5f * (float)i;
    OK(cudaMemcpy2DToArray(a, 0, 0, img, 32, 32, 4, cudaMemcpyHostToDevice));
    struct cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    float *dout;
    OK(cudaMalloc((void **)&dout, sizeof out));
    void *args[] = {&t, &dout};
    OK(cudaLaunchKernel(&stub_fetch2d, d3(1, 1, 1), d3(8, 4, 1), args, 0, NULL));
    OK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    TT_CHECK(memcmp(out, img, sizeof img) == 0);
    struct cudaResourceDesc rg;
    OK(cudaGetTextureObjectResourceDesc(&rg, t));
    TT_CHECK(rg.resType == cudaResourceTypeArray && rg.res.array.array == a);
    struct cudaTextureDesc tg;
    OK(cudaGetTextureObjectTextureDesc(&tg, t));
    TT_CHECK(tg.readMode == cudaReadModeElementType && tg.addressMode[1] == cudaAddressModeClamp && !tg.normalizedCoords);
    OK(cudaDestroyTextureObject(t));
    /* a linear texture keeps its channel descriptor */
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = dout;
    rd.res.linear.desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    rd.res.linear.sizeInBytes = sizeof out;
    td.readMode = cudaReadModeNormalizedFloat;
    OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    OK(cudaGetTextureObjectResourceDesc(&rg, t));
    TT_CHECK(rg.res.linear.desc.x == 8 && rg.res.linear.desc.w == 8 && rg.res.linear.desc.f == cudaChannelFormatKindUnsigned &&
             rg.res.linear.sizeInBytes == sizeof out);
    OK(cudaDestroyTextureObject(t));
    rd.res.linear.desc = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);   /* 3 channels */
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaErrorInvalidChannelDescriptor);
    cudaGetLastError();
    /* a surface store, read back through cudaMemcpy2DFromArray */
    cudaSurfaceObject_t s;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    OK(cudaCreateSurfaceObject(&s, &rd));
    void *sargs[] = {&s};
    OK(cudaLaunchKernel(&stub_surfwrite, d3(1, 1, 1), d3(8, 4, 1), sargs, 0, NULL));
    int back[32];
    OK(cudaMemcpy2DFromArray(back, 32, a, 0, 0, 32, 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++) bad += back[y * 8 + x] != x * 10 + y;
    TT_EQ_I(bad, 0);
    OK(cudaDestroySurfaceObject(s));
    /* the deprecated linear copies: row 1, element 2 on */
    float two[2] = {-1, -2}, tb[2];
    OK(cudaMemcpyToArray(a, 8, 1, two, 8, cudaMemcpyHostToDevice));
    OK(cudaMemcpyFromArray(tb, a, 8, 1, 8, cudaMemcpyDeviceToHost));
    TT_CHECK(tb[0] == -1 && tb[1] == -2);
    OK(cudaFreeArray(a));
    CK(cudaFreeArray(a), cudaErrorInvalidResourceHandle);
    cd = cudaCreateChannelDesc(8, 0, 8, 0, cudaChannelFormatKindSigned);
    CK(cudaMallocArray(&a, &cd, 8, 8, 0), cudaErrorInvalidChannelDescriptor);
    cudaGetLastError();
    OK(cudaFree(dout));
}

static int host_calls;
static void host_fn(void *p) { host_calls += *(int *)p; }
static void stream_cb(cudaStream_t s, cudaError_t status, void *p)
{
    (void)s;
    if (status == cudaSuccess) host_calls += *(int *)p * 100;
}

static void rt_streams(void)
{
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned fl = 0;
    OK(cudaStreamGetFlags(s, &fl));
    TT_EQ_U(fl, cudaStreamNonBlocking);
    cudaEvent_t e0, e1, e2;
    OK(cudaEventCreate(&e0));
    OK(cudaEventCreate(&e1));
    OK(cudaEventCreateWithFlags(&e2, cudaEventDefault));
    float *d;
    OK(cudaMalloc((void **)&d, 4096));
    int n = 1024;
    void *args[] = {&d, &n};
    OK(cudaEventRecord(e0, s));
    OK(cudaLaunchKernel(&stub_scale, d3(4, 1, 1), d3(256, 1, 1), args, 0, s));
    OK(cudaEventRecord(e1, s));
    OK(cudaLaunchKernel(&stub_scale, d3(4, 1, 1), d3(256, 1, 1), args, 0, s));
    OK(cudaEventRecord(e2, s));
    OK(cudaStreamWaitEvent(NULL, e2, 0));
    /* pending or done, depending on how far the device thread has got */
    cudaError_t q = cudaStreamQuery(s);
    TT_CHECK(q == cudaSuccess || q == cudaErrorNotReady);
    q = cudaEventQuery(e2);
    TT_CHECK(q == cudaSuccess || q == cudaErrorNotReady);
    OK(cudaEventSynchronize(e2));
    OK(cudaStreamQuery(s));
    OK(cudaEventQuery(e2));
    float t01 = 0, t12 = 0, t02 = 0;
    OK(cudaEventElapsedTime(&t01, e0, e1));
    OK(cudaEventElapsedTime(&t12, e1, e2));
    OK(cudaEventElapsedTime(&t02, e0, e2));
    /* the same kernel twice: the simulated clock advances by the same amount */
    TT_CHECK(t01 > 0 && t01 == t12);
    TT_CHECK(t02 > 1.999f * t01 && t02 < 2.001f * t01);
    int one = 1;
    OK(cudaLaunchHostFunc(s, host_fn, &one));
    OK(cudaStreamAddCallback(s, stream_cb, &one, 0));
    OK(cudaStreamSynchronize(s));
    TT_EQ_I(host_calls, 101);
    /* capture: never active; attributes through the driver */
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusActive;
    unsigned long long cid = 1;
    OK(cudaStreamGetCaptureInfo(s, &cs, &cid, NULL, NULL, NULL, NULL));
    TT_CHECK(cs == cudaStreamCaptureStatusNone && cid == 0);
    int mode = 2;
    OK(cudaThreadExchangeStreamCaptureMode(&mode));
    TT_EQ_I(mode, 0);
    OK(cudaThreadExchangeStreamCaptureMode(&mode));
    TT_EQ_I(mode, 2);
    cudaLaunchAttributeValue av;
    memset(&av, 0, sizeof av);
    av.priority = -3;
    OK(cudaStreamSetAttribute(s, cudaLaunchAttributePriority, &av));
    memset(&av, 0, sizeof av);
    OK(cudaStreamGetAttribute(s, cudaLaunchAttributePriority, &av));
    TT_EQ_I(av.priority, -3);
    size_t off = 1, psize = 0;
    OK(cudaFuncGetParamInfo(&stub_scale, 1, &off, &psize));
    TT_CHECK(off == 8 && psize == 4);   /* (u64 p_x, u32 p_n) */
    OK(cudaStreamDestroy(s));
    CK(cudaStreamDestroy(NULL), cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    OK(cudaEventDestroy(e0));
    OK(cudaEventDestroy(e1));
    OK(cudaEventDestroy(e2));
    OK(cudaFree(d));
}

/* A kernel fault poisons the context: every later call returns it, until
** cudaDeviceReset, after which the modules load again. */
static void rt_sticky(void)
{
    float *d;
    OK(cudaMalloc((void **)&d, 64));
    /* the launch succeeds: the fault comes at the next wait, and stays */
    OK(cudaLaunchKernel(&stub_bad, d3(1, 1, 1), d3(1, 1, 1), NULL, 0, NULL));
    CK(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CK(cudaGetLastError(), cudaErrorIllegalAddress);
    CK(cudaGetLastError(), cudaErrorIllegalAddress);
    CK(cudaPeekAtLastError(), cudaErrorIllegalAddress);
    CK(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    void *p;
    CK(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
    CK(cudaMemset(d, 0, 64), cudaErrorIllegalAddress);
    int n = 16;
    void *args[] = {&d, &n};
    CK(cudaLaunchKernel(&stub_scale, d3(1, 1, 1), d3(32, 1, 1), args, 0, NULL), cudaErrorIllegalAddress);
    OK(cudaDeviceReset());
    CK(cudaGetLastError(), cudaErrorIllegalAddress);   /* the reset leaves it, as on a GPU */
    OK(cudaGetLastError());
    OK(cudaMalloc((void **)&d, 64));
    OK(cudaMemset(d, 0, 64));
    TT_CHECK(__cudaInitModule(handle) != 0);
    if (managed_mval) *managed_mval = 0;
    OK(cudaLaunchKernel(&stub_scale, d3(1, 1, 1), d3(32, 1, 1), args, 0, NULL));
    OK(cudaDeviceSynchronize());
    TT_CHECK(managed_mval && *managed_mval == 16);
    OK(cudaFree(d));
}

/* Relocatable device code: a version 2 wrapper lists the objects to link. */
static void rt_rdc(void)
{
    static const void *objs[3];
    objs[0] = fatbin_ptx(ptx_rdc_a);
    objs[1] = fatbin_ptx(ptx_rdc_b);
    static wrapper w = {0x466243B1u, 2, NULL, objs};
    w.data = fatbin(2, 75, 0x11, "\x7f" "ELF", 4, 0);   /* the linked cubin nvlink would make */
    void **h = __cudaRegisterFatBinary(&w);
    __cudaRegisterFunction(h, &stub_k, "k", "k", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(h, &shadow_bias, "bias", "bias", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(h);
    unsigned *d, v = 0, bias = 0;
    OK(cudaMemcpyFromSymbol(&bias, &shadow_bias, 4, 0, cudaMemcpyDeviceToHost));
    TT_EQ_U(bias, 1000);
    OK(cudaMalloc((void **)&d, 4));
    void *args[] = {&d};
    OK(cudaLaunchKernel(&stub_k, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL));
    OK(cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost));
    TT_EQ_U(v, 1042);
    OK(cudaFree(d));
}

/* Compressed PTX (zstd, nvcc's default; LZ4, -compress-mode=speed) and a
** fatbinary with machine code only. */
static void rt_fatbins(void)
{
    static const char ptx[] =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        ".visible .entry seven(.param .u64 p)\n{\n    .reg .b32 %r<2>;\n    .reg .b64 %rd<2>;\n"
        "    ld.param.u64 %rd1, [p];\n    mov.u32 %r1, 7;\n    st.global.u32 [%rd1], %r1;\n    ret;\n}\n";
    size_t n = sizeof ptx;   /* the NUL too, as nvcc stores it */
    size_t cap = ZSTD_compressBound(n);
    uint8_t *z = malloc(cap);
    size_t zn = ZSTD_compress(z, cap, ptx, n, 3);
    TT_CHECK(!ZSTD_isError(zn));
    /* an LZ4 block, as nvcc's -compress-mode=speed makes it */
    uint8_t *l = malloc((size_t)LZ4_compressBound((int)n));
    int ln = LZ4_compress_default(ptx, (char *)l, (int)n, LZ4_compressBound((int)n));
    TT_CHECK(ln > 0);
    static char stub_z, stub_l, stub_sass;
    static wrapper wz = {0x466243B1u, 1, NULL, NULL}, wl = {0x466243B1u, 1, NULL, NULL},
                   ws = {0x466243B1u, 1, NULL, NULL};
    wz.data = fatbin(1, 75, 0x8011, z, zn, n);
    wl.data = fatbin(1, 75, 0x2011, l, (size_t)ln, n);
    ws.data = fatbin(2, 75, 0x11, "\x7f" "ELF", 4, 0);
    void **hz = __cudaRegisterFatBinary(&wz), **hl = __cudaRegisterFatBinary(&wl), **hs = __cudaRegisterFatBinary(&ws);
    __cudaRegisterFunction(hz, &stub_z, "seven", "seven", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(hl, &stub_l, "seven", "seven", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(hs, &stub_sass, "seven", "seven", -1, NULL, NULL, NULL, NULL, NULL);
    unsigned *d, v;
    OK(cudaMalloc((void **)&d, 4));
    void *args[] = {&d};
    const char *stubs[2] = {&stub_z, &stub_l};
    for (int i = 0; i < 2; i++) {
        v = 0;
        OK(cudaMemset(d, 0, 4));
        OK(cudaLaunchKernel(stubs[i], d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL));
        OK(cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost));
        TT_EQ_U(v, 7);
    }
    CK(cudaLaunchKernel(&stub_sass, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL), cudaErrorNoKernelImageForDevice);
    CK(cudaLaunchKernel(&stub_sass, d3(1, 1, 1), d3(1, 1, 1), args, 0, NULL), cudaErrorNoKernelImageForDevice);
    cudaGetLastError();
    OK(cudaFree(d));
    free(z);
    free(l);
}

/* Functions tpsim does not implement are exported and say so once. */
static void rt_stubs(void)
{
    cudaError_t (*unregister)(void *) = (cudaError_t(*)(void *))dlsym(RTLD_DEFAULT, "cudaGraphicsUnregisterResource");
    TT_CHECK(unregister != NULL);
    if (!unregister) return;
    CK(unregister(NULL), cudaErrorNotSupported);
    CK(unregister(NULL), cudaErrorNotSupported);
    CK(cudaGetLastError(), cudaErrorNotSupported);
    OK(cudaGetLastError());
}

int main(void)
{
    register_main();
    TT_RUN(rt_device);
    TT_RUN(rt_errors);
    TT_RUN(rt_launch);
    TT_RUN(rt_symbols);
    TT_RUN(rt_memory);
    TT_RUN(rt_textures);
    TT_RUN(rt_streams);
    TT_RUN(rt_sticky);
    TT_RUN(rt_rdc);
    TT_RUN(rt_fatbins);
    TT_RUN(rt_stubs);
    __cudaUnregisterFatBinary(handle);
    return tt_done();
}
