/*
** t_launch.c -- kernel launches (kernelParams and `extra`), parameter
** layout, dynamic shared memory, impossible launches, streams, events and
** simulated time, host callbacks, occupancy and cuLaunchKernelEx.  Runs with
** the default configuration.
*/
#include "api_test.h"

static CUcontext ctx;
static CUmodule mod;
static CUfunction f_add1, f_params, f_rev, f_small, f_req;

static const char ptx_more[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".extern .shared .align 4 .b8 dsmem[];\n"
    "\n"
    "// every parameter, stored to out[] at 8-byte slots (s: 3 words at 48)\n"
    ".visible .entry params(.param .u64 out, .param .u8 c, .param .u16 h, .param .u32 i,\n"
    "    .param .u64 l, .param .f32 f, .param .f64 d, .param .align 4 .b8 s[12])\n"
    "{\n"
    "    .reg .b16 %h<3>;\n"
    "    .reg .b32 %r<5>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    .reg .f32 %f<2>;\n"
    "    .reg .f64 %fd<2>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    ld.param.u8 %h1, [c];\n"
    "    cvt.u64.u16 %rd3, %h1;\n"
    "    st.global.u64 [%rd2], %rd3;\n"
    "    ld.param.u16 %h2, [h];\n"
    "    cvt.u64.u16 %rd3, %h2;\n"
    "    st.global.u64 [%rd2+8], %rd3;\n"
    "    ld.param.u32 %r1, [i];\n"
    "    st.global.u32 [%rd2+16], %r1;\n"
    "    ld.param.u64 %rd4, [l];\n"
    "    st.global.u64 [%rd2+24], %rd4;\n"
    "    ld.param.f32 %f1, [f];\n"
    "    st.global.f32 [%rd2+32], %f1;\n"
    "    ld.param.f64 %fd1, [d];\n"
    "    st.global.f64 [%rd2+40], %fd1;\n"
    "    ld.param.u32 %r2, [s];\n"
    "    ld.param.u32 %r3, [s+4];\n"
    "    ld.param.u32 %r4, [s+8];\n"
    "    st.global.u32 [%rd2+48], %r2;\n"
    "    st.global.u32 [%rd2+52], %r3;\n"
    "    st.global.u32 [%rd2+56], %r4;\n"
    "    ret;\n"
    "}\n"
    "\n"
    "// reverses p[0 .. ntid) through dynamic shared memory\n"
    ".visible .entry rev(.param .u64 p)\n"
    "{\n"
    "    .reg .b32 %r<9>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [p];\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %ntid.x;\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    ld.global.u32 %r3, [%rd4];\n"
    "    mov.u32 %r4, dsmem;\n"
    "    shl.b32 %r5, %r1, 2;\n"
    "    add.s32 %r6, %r4, %r5;\n"
    "    st.shared.u32 [%r6], %r3;\n"
    "    bar.sync 0;\n"
    "    sub.s32 %r7, %r2, %r1;\n"
    "    shl.b32 %r7, %r7, 2;\n"
    "    add.s32 %r8, %r4, %r7;\n"
    "    ld.shared.u32 %r3, [%r8+-4];\n"
    "    st.global.u32 [%rd4], %r3;\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry small() .maxntid 64, 1, 1\n"
    "{\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry req() .reqntid 32, 2, 1\n"
    "{\n"
    "    ret;\n"
    "}\n";

static void setup(void)
{
    at_init_ctx(&ctx);
    CUmodule m2;
    if (cuModuleLoadData(&mod, at_ptx_add1) || cuModuleGetFunction(&f_add1, mod, "add1") ||
        cuModuleLoadData(&m2, ptx_more) || cuModuleGetFunction(&f_params, m2, "params") ||
        cuModuleGetFunction(&f_rev, m2, "rev") || cuModuleGetFunction(&f_small, m2, "small") ||
        cuModuleGetFunction(&f_req, m2, "req")) {
        printf("FAIL t_launch: the test modules do not load\n");
        exit(1);
    }
}

/* Launches add1 over n ints of a (blocks of bs threads) and checks a[i] == base[i] + 1. */
static void run_add1(int n, int bs, CUstream s)
{
    int *h = malloc(n * sizeof *h);
    for (int i = 0; i < n; i++) h[i] = i * 7 - 3;
    CUdeviceptr a;
    OK(cuMemAlloc(&a, n * sizeof *h));
    OK(cuMemcpyHtoD(a, h, n * sizeof *h));
    void *args[] = {&a, &n};
    OK(cuLaunchKernel(f_add1, (n + bs - 1) / bs, 1, 1, bs, 1, 1, 0, s, args, NULL));
    OK(cuStreamSynchronize(s));
    OK(cuMemcpyDtoH(h, a, n * sizeof *h));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != i * 7 - 3 + 1;
    if (bad) tt_fail_msg(__FILE__, __LINE__, "add1 n=%d bs=%d: %d wrong", n, bs, bad);
    OK(cuMemFree(a));
    free(h);
}

static void launch_add1(void)
{
    run_add1(1, 32, 0);
    run_add1(1000, 128, 0);
    run_add1(4097, 256, CU_STREAM_LEGACY);
    run_add1(100000, 1024, CU_STREAM_PER_THREAD);
}

/* The `extra` form: one packed buffer laid out as the kernel's parameters. */
static void launch_extra(void)
{
    int n = 300;
    CUdeviceptr a;
    OK(cuMemAlloc(&a, n * 4));
    OK(cuMemsetD32(a, 5, n));
    struct { CUdeviceptr a; int n; int pad; } buf = {a, n, 0};
    size_t size = 12;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    OK(cuLaunchKernel(f_add1, 3, 1, 1, 128, 1, 1, 0, 0, NULL, extra));
    int h[300];
    OK(cuMemcpyDtoH(h, a, sizeof h));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != 6;
    TT_EQ_I(bad, 0);
    void *args[] = {&a, &n};
    CK(cuLaunchKernel(f_add1, 1, 1, 1, 32, 1, 1, 0, 0, args, extra), CUDA_ERROR_INVALID_VALUE);   /* both */
    CK(cuLaunchKernel(f_add1, 1, 1, 1, 32, 1, 1, 0, 0, NULL, NULL), CUDA_ERROR_INVALID_VALUE);    /* neither */
    size = 8;   /* shorter than the parameters */
    CK(cuLaunchKernel(f_add1, 1, 1, 1, 32, 1, 1, 0, 0, NULL, extra), CUDA_ERROR_INVALID_VALUE);
    void *bad_extra[] = {(void *)(uintptr_t)7, &buf, CU_LAUNCH_PARAM_END};
    CK(cuLaunchKernel(f_add1, 1, 1, 1, 32, 1, 1, 0, 0, NULL, bad_extra), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(a));
}

static void launch_param_layout(void)
{
    static const size_t off[] = {0, 8, 10, 12, 16, 24, 32, 40}, size[] = {8, 1, 2, 4, 8, 4, 8, 12};
    for (int i = 0; i < 8; i++) {
        size_t o = 99, s = 99;
        OK(cuFuncGetParamInfo(f_params, i, &o, &s));
        if (o != off[i] || s != size[i])
            tt_fail_msg(__FILE__, __LINE__, "parameter %d at %zu (%zu bytes), want %zu (%zu)", i, o, s, off[i], size[i]);
    }
    CUdeviceptr out;
    OK(cuMemAlloc(&out, 64));
    OK(cuMemsetD8(out, 0, 64));
    uint8_t c = 0xa5;
    uint16_t h = 0xbeef;
    uint32_t i32 = 0x12345678u;
    uint64_t l = 0x0123456789abcdefull;
    float f = 2.5f;
    double d = -1.25;
    uint32_t s[3] = {11, 22, 33};
    void *args[] = {&out, &c, &h, &i32, &l, &f, &d, s};
    OK(cuLaunchKernel(f_params, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));
    uint8_t r[64];
    OK(cuMemcpyDtoH(r, out, 64));
    uint64_t u64;
    uint32_t u32;
    float rf;
    double rd;
    memcpy(&u64, r, 8);
    TT_EQ_U(u64, 0xa5);
    memcpy(&u64, r + 8, 8);
    TT_EQ_U(u64, 0xbeef);
    memcpy(&u32, r + 16, 4);
    TT_EQ_U(u32, 0x12345678u);
    memcpy(&u64, r + 24, 8);
    TT_EQ_U(u64, 0x0123456789abcdefull);
    memcpy(&rf, r + 32, 4);
    TT_CHECK(rf == 2.5f);
    memcpy(&rd, r + 40, 8);
    TT_CHECK(rd == -1.25);
    memcpy(&u32, r + 48, 4);
    TT_EQ_U(u32, 11);
    memcpy(&u32, r + 56, 4);
    TT_EQ_U(u32, 33);
    OK(cuMemFree(out));
}

static void launch_dynamic_shared(void)
{
    int h[256];
    for (int i = 0; i < 256; i++) h[i] = i;
    CUdeviceptr p;
    OK(cuMemAlloc(&p, sizeof h));
    OK(cuMemcpyHtoD(p, h, sizeof h));
    void *args[] = {&p};
    OK(cuLaunchKernel(f_rev, 1, 1, 1, 256, 1, 1, 256 * 4, 0, args, NULL));
    OK(cuMemcpyDtoH(h, p, sizeof h));
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += h[i] != 255 - i;
    TT_EQ_I(bad, 0);
    /* the opt-in limit of cuFuncSetAttribute applies */
    OK(cuFuncSetAttribute(f_rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 512));
    CK(cuLaunchKernel(f_rev, 1, 1, 1, 256, 1, 1, 1024, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuLaunchKernel(f_rev, 1, 1, 1, 128, 1, 1, 512, 0, args, NULL));
    /* beyond 48 KB only after opting in, up to the RTX 2060's 64 KB */
    OK(cuFuncSetAttribute(f_rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 49152));
    CK(cuLaunchKernel(f_rev, 1, 1, 1, 256, 1, 1, 49153, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuFuncSetAttribute(f_rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536));
    for (int i = 0; i < 256; i++) h[i] = i;
    OK(cuMemcpyHtoD(p, h, sizeof h));
    OK(cuLaunchKernel(f_rev, 1, 1, 1, 256, 1, 1, 65536, 0, args, NULL));
    CK(cuLaunchKernel(f_rev, 1, 1, 1, 256, 1, 1, 65537, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemcpyDtoH(h, p, sizeof h));
    bad = 0;
    for (int i = 0; i < 256; i++) bad += h[i] != 255 - i;
    TT_EQ_I(bad, 0);
    OK(cuFuncSetAttribute(f_rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 49152));
    OK(cuMemFree(p));
}

static void launch_impossible(void)
{
    CUdeviceptr a;
    int n = 1;
    OK(cuMemAlloc(&a, 4));
    void *args[] = {&a, &n};
    CUfunction f = f_add1;
    CK(cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 32, 2, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);   /* 2048 threads */
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 65, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 1, 1, 1, 0, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 1, 0, 1, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 1, 65536, 1, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 1, 1, 65536, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 0x80000000u, 1, 1, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 49153, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernel((CUfunction)(uintptr_t)0x77, 1, 1, 1, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    CK(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, (CUstream)(uintptr_t)0x77, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    void *null_arg[] = {&a, NULL};
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, null_arg, NULL), CUDA_ERROR_INVALID_VALUE);
    /* .maxntid 64 and .reqntid 32,2,1 */
    OK(cuLaunchKernel(f_small, 1, 1, 1, 64, 1, 1, 0, 0, NULL, NULL));
    CK(cuLaunchKernel(f_small, 1, 1, 1, 65, 1, 1, 0, 0, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    int v = 0;
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f_small));
    TT_EQ_I(v, 64);
    OK(cuLaunchKernel(f_req, 2, 1, 1, 32, 2, 1, 0, 0, NULL, NULL));
    CK(cuLaunchKernel(f_req, 2, 1, 1, 64, 1, 1, 0, 0, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    /* a stream of another context */
    CUcontext c2;
    CUstream s2;
    OK(cuCtxCreate(&c2, NULL, 0, 0));
    OK(cuStreamCreate(&s2, 0));
    OK(cuCtxPopCurrent(NULL));
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s2, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    /* a function of another context */
    OK(cuCtxPushCurrent(c2));
    CK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    OK(cuCtxDestroy(c2));
    OK(cuCtxSetCurrent(ctx));
    /* nothing above ran: a[0] is still 0 */
    int h = -1;
    OK(cuMemcpyDtoH(&h, a, 4));
    TT_EQ_I(h, 0);
    OK(cuMemFree(a));
}

static void launch_streams(void)
{
    CUstream s, s2;
    OK(cuStreamCreate(&s, 0));
    CK(cuStreamCreate(&s2, 2), CUDA_ERROR_INVALID_VALUE);
    CK(cuStreamCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuStreamCreateWithPriority(&s2, CU_STREAM_NON_BLOCKING, -10));
    int prio = 0;
    OK(cuStreamGetPriority(s2, &prio));
    TT_EQ_I(prio, -5);   /* clamped to the greatest priority */
    unsigned flags = 9;
    OK(cuStreamGetFlags(s2, &flags));
    TT_EQ_U(flags, CU_STREAM_NON_BLOCKING);
    OK(cuStreamGetFlags(0, &flags));
    TT_EQ_U(flags, 0);
    unsigned long long id1 = 0, id2 = 0, id0 = 1;
    OK(cuStreamGetId(s, &id1));
    OK(cuStreamGetId(s2, &id2));
    OK(cuStreamGetId(0, &id0));
    TT_CHECK(id1 != id2 && id1 != id0 && id2 != id0);
    CUcontext c = NULL;
    OK(cuStreamGetCtx(s, &c));
    TT_CHECK(c == ctx);
    OK(cuStreamGetCtx(0, &c));
    TT_CHECK(c == ctx);
    CUdevice d = -1;
    OK(cuStreamGetDevice(s, &d));
    TT_EQ_I(d, 0);
    run_add1(5000, 64, s);
    OK(cuStreamQuery(s));
    OK(cuStreamSynchronize(s));
    CUevent e;
    OK(cuEventCreate(&e, 0));
    OK(cuEventRecord(e, s));
    OK(cuStreamWaitEvent(s2, e, 0));
    CK(cuStreamWaitEvent(s2, e, 8), CUDA_ERROR_INVALID_VALUE);
    CK(cuStreamWaitEvent(s2, NULL, 0), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventDestroy(e));
    OK(cuStreamDestroy(s));
    OK(cuStreamDestroy(s2));
    CK(cuStreamDestroy(s), CUDA_ERROR_INVALID_HANDLE);
    CK(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
    CK(cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
    CK(cuStreamDestroy(NULL), CUDA_ERROR_INVALID_HANDLE);
    /* attributes */
    OK(cuStreamCreate(&s, 0));
    CUstreamAttrValue v;
    memset(&v, 0, sizeof v);
    OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    TT_EQ_I(v.syncPolicy, CU_SYNC_POLICY_AUTO);
    v.priority = -3;
    OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    OK(cuStreamGetPriority(s, &prio));
    TT_EQ_I(prio, -3);
    v.syncPolicy = CU_SYNC_POLICY_SPIN;
    OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    v.syncPolicy = (CUsynchronizationPolicy)9;
    CK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v), CUDA_ERROR_INVALID_VALUE);
    CK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v), CUDA_ERROR_INVALID_VALUE);
    CK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, NULL), CUDA_ERROR_INVALID_VALUE);
    OK(cuStreamCreate(&s2, 0));
    OK(cuStreamCopyAttributes(s2, s));
    memset(&v, 0, sizeof v);
    OK(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    TT_EQ_I(v.syncPolicy, CU_SYNC_POLICY_SPIN);
    OK(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    TT_EQ_I(v.priority, -3);
    OK(cuStreamGetAttribute(0, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    TT_EQ_I(v.priority, 0);
    OK(cuStreamDestroy(s));
    OK(cuStreamDestroy(s2));
    CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_ACTIVE;
    OK(cuStreamIsCapturing(0, &cs));
    TT_EQ_I(cs, CU_STREAM_CAPTURE_STATUS_NONE);
}

/* Simulated time: events read the context's cycle clock, which only
** kernels advance, identically for identical work. */
static void launch_events(void)
{
    CUevent e0, e1, e2, e3;
    OK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    OK(cuEventCreate(&e1, CU_EVENT_BLOCKING_SYNC));
    OK(cuEventCreate(&e2, 0));
    OK(cuEventCreate(&e3, 0));
    float ms = -1;
    CK(cuEventElapsedTime(&ms, e0, e1), CUDA_ERROR_INVALID_HANDLE);   /* not recorded */
    OK(cuEventQuery(e0));          /* never recorded: complete */
    OK(cuEventSynchronize(e0));
    OK(cuEventRecord(e0, 0));
    run_add1(20000, 256, 0);
    OK(cuEventRecord(e1, 0));
    run_add1(20000, 256, 0);
    OK(cuEventRecord(e2, 0));
    OK(cuEventRecord(e3, 0));      /* no work in between */
    OK(cuEventSynchronize(e3));
    OK(cuEventQuery(e3));
    float a = -1, b = -1, ab = -1, z = -1;
    OK(cuEventElapsedTime(&a, e0, e1));
    OK(cuEventElapsedTime(&b, e1, e2));
    OK(cuEventElapsedTime(&ab, e0, e2));
    OK(cuEventElapsedTime(&z, e2, e3));
    TT_CHECK(a > 0);
    TT_CHECK(a == b);              /* deterministic */
    TT_CHECK(ab == a + b);
    TT_CHECK(z == 0);
    OK(cuEventElapsedTime(&z, e1, e0));
    TT_CHECK(z == -a);
    CK(cuEventElapsedTime(NULL, e0, e1), CUDA_ERROR_INVALID_VALUE);
    CUevent nt;
    OK(cuEventCreate(&nt, CU_EVENT_DISABLE_TIMING));
    OK(cuEventRecord(nt, 0));
    CK(cuEventElapsedTime(&z, e0, nt), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventRecordWithFlags(nt, 0, CU_EVENT_RECORD_EXTERNAL));
    CK(cuEventRecordWithFlags(nt, 0, 4), CUDA_ERROR_INVALID_VALUE);
    OK(cuEventDestroy(nt));
    CK(cuEventCreate(&nt, 0x10), CUDA_ERROR_INVALID_VALUE);
    CK(cuEventCreate(&nt, CU_EVENT_INTERPROCESS), CUDA_ERROR_INVALID_VALUE);
    CK(cuEventCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuCtxRecordEvent(ctx, e3));
    OK(cuCtxWaitEvent(ctx, e3));
    OK(cuEventDestroy(e0));
    CK(cuEventDestroy(e0), CUDA_ERROR_INVALID_HANDLE);
    CK(cuEventRecord(e0, 0), CUDA_ERROR_INVALID_HANDLE);
    CK(cuEventQuery(e0), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventDestroy(e1));
    OK(cuEventDestroy(e2));
    OK(cuEventDestroy(e3));
}

static int host_calls;
static CUresult cb_status = CUDA_ERROR_UNKNOWN;
static void host_fn(void *p) { host_calls += *(int *)p; }
static void stream_cb(CUstream s, CUresult st, void *p)
{
    (void)s;
    cb_status = st;
    host_calls += *(int *)p;
}

static void launch_host_work(void)
{
    int one = 1, ten = 10;
    OK(cuLaunchHostFunc(0, host_fn, &one));
    OK(cuStreamSynchronize(0));   /* the device thread has run it */
    TT_EQ_I(host_calls, 1);
    OK(cuStreamAddCallback(0, stream_cb, &ten, 0));
    OK(cuStreamSynchronize(0));
    TT_EQ_I(host_calls, 11);
    TT_EQ_I(cb_status, CUDA_SUCCESS);
    CK(cuStreamAddCallback(0, stream_cb, &ten, 1), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchHostFunc(0, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    TT_EQ_I(host_calls, 11);
}

/* Reference occupancy from the default configuration, rtx2060 (the CUDA
** occupancy calculator's compute capability 7.5): 1024 threads, 16 CTAs,
** 65536 registers (allocated per warp in units of 256) and 64 KiB of shared
** memory (in units of 256) per SM. */
static int ref_blocks(int regs, int bs, int smem)
{
    int warps = (bs + 31) / 32;
    int n = 16;
    if (1024 / (warps * 32) < n) n = 1024 / (warps * 32);
    int per_warp = (regs * 32 + 255) / 256 * 256;
    if (regs && 65536 / (per_warp * warps) < n) n = 65536 / (per_warp * warps);
    int alloc = (smem + 255) / 256 * 256;
    if (smem && 65536 / alloc < n) n = 65536 / alloc;
    return n;
}

static void launch_occupancy(void)
{
    int regs = 0;
    OK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f_add1));
    static const int sizes[] = {32, 96, 128, 256, 512, 768, 1024};
    for (int i = 0; i < 7; i++) {
        int nb = -1;
        OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f_add1, sizes[i], 0));
        TT_EQ_I(nb, ref_blocks(regs, sizes[i], 0));
        OK(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, f_add1, sizes[i], 10000, 0));
        TT_EQ_I(nb, ref_blocks(regs, sizes[i], 10000));
    }
    int nb;
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f_add1, 0, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f_add1, 32, 0), CUDA_ERROR_INVALID_VALUE);
    /* more dynamic shared memory than the kernel may use without opting in */
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f_add1, 32, 49153));
    TT_EQ_I(nb, 0);
    int grid = 0, bs = 0;
    OK(cuOccupancyMaxPotentialBlockSize(&grid, &bs, f_add1, NULL, 0, 0));
    /* the best block size keeps the most threads resident; largest first */
    int best = 0, best_bs = 0;
    for (int b = 1024; b >= 32; b -= 32)
        if (ref_blocks(regs, b, 0) * b > best) best = ref_blocks(regs, b, 0) * b, best_bs = b;
    TT_EQ_I(bs, best_bs);
    TT_EQ_I(grid, ref_blocks(regs, best_bs, 0) * 30);   /* 30 SMs */
    OK(cuOccupancyMaxPotentialBlockSize(&grid, &bs, f_add1, NULL, 0, 100));
    best = 0, best_bs = 0;
    for (int b = 96; b >= 32; b -= 32)
        if (ref_blocks(regs, b, 0) * b > best) best = ref_blocks(regs, b, 0) * b, best_bs = b;
    TT_EQ_I(bs, best_bs);
    size_t dyn = 0;
    OK(cuOccupancyAvailableDynamicSMemPerBlock(&dyn, f_add1, 4, 128));
    TT_EQ_U(dyn, 65536 / 4);
}

static void launch_ex(void)
{
    int n = 64;
    CUdeviceptr a;
    OK(cuMemAlloc(&a, n * 4));
    OK(cuMemsetD32(a, 1, n));
    void *args[] = {&a, &n};
    CUevent done;
    OK(cuEventCreate(&done, 0));
    CUlaunchAttribute at[3];
    memset(at, 0, sizeof at);
    at[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    at[0].value.priority = -1;
    at[1].id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
    at[1].value.launchCompletionEvent.event = done;
    at[2].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    at[2].value.cooperative = 1;
    CUlaunchConfig cfg = {2, 1, 1, 32, 1, 1, 0, 0, at, 3};
    OK(cuLaunchKernelEx(&cfg, f_add1, args, NULL));
    int h[64];
    OK(cuMemcpyDtoH(h, a, sizeof h));
    TT_EQ_I(h[0], 2);
    TT_EQ_I(h[63], 2);
    OK(cuEventQuery(done));
    at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    at[0].value.clusterDim.x = 2;
    at[0].value.clusterDim.y = 1;
    at[0].value.clusterDim.z = 1;
    CK(cuLaunchKernelEx(&cfg, f_add1, args, NULL), CUDA_ERROR_NOT_SUPPORTED);
    at[0].id = (CUlaunchAttributeID)99;
    CK(cuLaunchKernelEx(&cfg, f_add1, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuLaunchKernelEx(NULL, f_add1, args, NULL), CUDA_ERROR_INVALID_VALUE);
    /* cooperative grids must be resident at once: 1024-thread blocks fit
    ** one per SM (1024 threads), 30 SMs on the default rtx2060 */
    OK(cuLaunchCooperativeKernel(f_add1, 30, 1, 1, 1024, 1, 1, 0, 0, args));
    CK(cuLaunchCooperativeKernel(f_add1, 31, 1, 1, 1024, 1, 1, 0, 0, args), CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    OK(cuEventDestroy(done));
    OK(cuMemFree(a));
}

int main(void)
{
    setup();
    TT_RUN(launch_add1);
    TT_RUN(launch_extra);
    TT_RUN(launch_param_layout);
    TT_RUN(launch_dynamic_shared);
    TT_RUN(launch_impossible);
    TT_RUN(launch_streams);
    TT_RUN(launch_events);
    TT_RUN(launch_host_work);
    TT_RUN(launch_occupancy);
    TT_RUN(launch_ex);
    OK(cuCtxDestroy(ctx));
    return tt_done();
}
