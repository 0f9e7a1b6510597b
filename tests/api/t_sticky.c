/*
** t_sticky.c -- errors a kernel causes, in a process of their own (the
** context is unusable afterwards, as on real hardware):
**   an illegal address -> CUDA_ERROR_ILLEGAL_ADDRESS, sticky
**   trap               -> CUDA_ERROR_LAUNCH_FAILED, sticky
**   an endless loop    -> CUDA_ERROR_LAUNCH_TIMEOUT, sticky (run_api.sh sets
**                         a small exec.spin_limit)
** A sticky error stays until the context is destroyed (or, for the primary
** context, reset); other contexts are unaffected.
*/
#include "api_test.h"

static const char ptx_faults[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry bad(.param .u64 p)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    mov.u64 %rd1, 16;\n"
    "    mov.u32 %r1, 1;\n"
    "    st.global.u32 [%rd1], %r1;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry boom()\n"
    "{\n"
    "    trap;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry spin()\n"
    "{\n"
    "LOOP:\n"
    "    bra LOOP;\n"
    "}\n";

static CUfunction get(CUmodule *m, const char *name)
{
    CUfunction f = NULL;
    OK(cuModuleLoadData(m, ptx_faults));
    OK(cuModuleGetFunction(&f, *m, name));
    return f;
}

/* Every call that uses the context now returns err. */
static void expect_sticky(CUresult err)
{
    CUdeviceptr p;
    uint32_t h = 0;
    CUmodule m;
    CUstream s;
    CUevent e;
    CK(cuCtxSynchronize(), err);
    CK(cuStreamSynchronize(0), err);
    CK(cuMemAlloc(&p, 64), err);
    CK(cuMemcpyHtoD(0, &h, 4), err);
    CK(cuMemsetD8(0, 0, 4), err);
    CK(cuModuleLoadData(&m, at_ptx_add1), err);
    CK(cuStreamCreate(&s, 0), err);
    CK(cuEventCreate(&e, 0), err);
    CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048), err);
    /* queries that do not use the device still answer */
    CUdevice d = -1;
    OK(cuCtxGetDevice(&d));
    int v;
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
}

static void sticky_illegal_address(void)
{
    CUcontext c;
    CUmodule m, m2;
    OK(cuCtxCreate(&c, NULL, 0, 0));
    CUfunction bad = get(&m, "bad");
    CUfunction add1;
    OK(cuModuleLoadData(&m2, at_ptx_add1));
    OK(cuModuleGetFunction(&add1, m2, "add1"));
    CUdeviceptr a;
    OK(cuMemAlloc(&a, 4));
    CUevent e;
    OK(cuEventCreate(&e, 0));
    void *args[] = {&a};
    OK(cuLaunchKernel(bad, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));   /* the error comes at a wait */
    CK(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    expect_sticky(CUDA_ERROR_ILLEGAL_ADDRESS);
    int n = 1;
    void *args2[] = {&a, &n};
    CK(cuLaunchKernel(add1, 1, 1, 1, 32, 1, 1, 0, 0, args2, NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
    uint32_t h;
    CK(cuMemcpyDtoH(&h, a, 4), CUDA_ERROR_ILLEGAL_ADDRESS);
    CK(cuEventRecord(e, 0), CUDA_ERROR_ILLEGAL_ADDRESS);
    CK(cuEventSynchronize(e), CUDA_ERROR_ILLEGAL_ADDRESS);
    CK(cuMemFree(a), CUDA_ERROR_ILLEGAL_ADDRESS);
    /* a fresh context works */
    CUcontext c2;
    OK(cuCtxCreate(&c2, NULL, 0, 0));
    OK(cuMemAlloc(&a, 4));
    OK(cuMemFree(a));
    OK(cuCtxDestroy(c2));
    /* destroying the faulted context is allowed */
    OK(cuCtxDestroy(c));
}

static void sticky_trap(void)
{
    CUcontext c;
    CUmodule m;
    OK(cuCtxCreate(&c, NULL, 0, 0));
    CUfunction boom = get(&m, "boom");
    OK(cuLaunchKernel(boom, 2, 1, 1, 64, 1, 1, 0, 0, NULL, NULL));
    CK(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_FAILED);
    expect_sticky(CUDA_ERROR_LAUNCH_FAILED);
    OK(cuCtxDestroy(c));
}

static void sticky_timeout(void)
{
    CUcontext c;
    CUmodule m;
    OK(cuCtxCreate(&c, NULL, 0, 0));
    CUfunction spin = get(&m, "spin");
    OK(cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0, 0, NULL, NULL));
    CK(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_TIMEOUT);
    expect_sticky(CUDA_ERROR_LAUNCH_TIMEOUT);
    OK(cuCtxDestroy(c));
}

/* The primary context: cuDevicePrimaryCtxReset clears the error. */
static void sticky_primary_reset(void)
{
    CUcontext p;
    CUmodule m;
    OK(cuDevicePrimaryCtxRetain(&p, 0));
    OK(cuCtxPushCurrent(p));
    CUfunction bad = get(&m, "bad");
    CUdeviceptr a;
    OK(cuMemAlloc(&a, 4));
    void *args[] = {&a};
    OK(cuLaunchKernel(bad, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));
    CK(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    OK(cuDevicePrimaryCtxReset(0));
    OK(cuCtxSynchronize());
    OK(cuMemAlloc(&a, 4));
    CK(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);   /* reset unloaded it */
    OK(cuCtxPopCurrent(NULL));
    OK(cuDevicePrimaryCtxRelease(0));
}

int main(void)
{
    OK(cuInit(0));
    TT_RUN(sticky_illegal_address);
    TT_RUN(sticky_trap);
    TT_RUN(sticky_timeout);
    TT_RUN(sticky_primary_reset);
    return tt_done();
}
