/*
** t_config.c -- the device as a configuration describes it.
**
**   t_config TAG KEY=VALUE...
**
** run_api.sh runs it under TPSIM_CONFIG / TPSIM_OPTIONS / TPSIM_MODE and
** passes what the settings imply; it prints "PASS config_TAG" when every
** expectation holds.  Keys:
**   init=N        cuInit returns CUresult N (when N != 0 nothing else is checked)
**   name=S        cuDeviceGetName
**   cc=MAJORMINOR compute capability (86 for 8.6)
**   sms, clock_khz, mem_clock_khz, bus_bits, l2, maxtpb, threads_sm, ctas_sm,
**   regs_sm, regs_block, shared_block, shared_sm, const, grid_x, grid_yz,
**   timeout       the matching device attribute
**   mem           cuDeviceTotalMem
**   stack, heap   the default CU_LIMIT_STACK_SIZE / CU_LIMIT_MALLOC_HEAP_SIZE
**   sm90=0|1      whether an sm_90 module loads
**   l2persist=N   MAX_PERSISTING_L2_CACHE_SIZE is N; CU_LIMIT_PERSISTING_L2_CACHE_SIZE
**                 takes N and refuses N+1 (with N = 0: any non-zero size is
**                 CUDA_ERROR_UNSUPPORTED_LIMIT)
**   window=N      MAX_ACCESS_POLICY_WINDOW_SIZE is N; a stream and a launch take
**                 an access-policy window of N bytes and refuse N+1
** With maxtpb, add1 is also launched with maxtpb threads (works) and, up to
** 1024, with one more (CUDA_ERROR_INVALID_VALUE).
*/
#include "api_test.h"

static const char ptx_sm90[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry k90()\n"
    "{\n"
    "    ret;\n"
    "}\n";

static const struct { const char *key; CUdevice_attribute a; } attrs[] = {
    {"sms", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
    {"clock_khz", CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
    {"mem_clock_khz", CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
    {"bus_bits", CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
    {"l2", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
    {"maxtpb", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
    {"threads_sm", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR},
    {"ctas_sm", CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR},
    {"regs_sm", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR},
    {"regs_block", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
    {"shared_block", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
    {"shared_sm", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
    {"const", CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
    {"grid_x", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
    {"grid_yz", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
    {"timeout", CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT},
};

static int argc_;
static char **argv_;

static void check_config(void)
{
    CUresult want_init = CUDA_SUCCESS;
    for (int i = 2; i < argc_; i++)
        if (strncmp(argv_[i], "init=", 5) == 0) want_init = (CUresult)atoi(argv_[i] + 5);
    CK(cuInit(0), want_init);
    if (want_init != CUDA_SUCCESS) {
        CUdevice d;
        CK(cuDeviceGet(&d, 0), CUDA_ERROR_NOT_INITIALIZED);
        return;
    }
    CUcontext ctx;
    OK(cuCtxCreate(&ctx, NULL, 0, 0));
    for (int i = 2; i < argc_; i++) {
        char key[64];
        const char *eq = strchr(argv_[i], '=');
        if (!eq || (size_t)(eq - argv_[i]) >= sizeof key) {
            tt_fail_msg(__FILE__, __LINE__, "bad argument %s", argv_[i]);
            continue;
        }
        memcpy(key, argv_[i], (size_t)(eq - argv_[i]));
        key[eq - argv_[i]] = '\0';
        const char *val = eq + 1;
        long long want = atoll(val);
        bool done = false;
        for (size_t k = 0; k < sizeof attrs / sizeof attrs[0]; k++) {
            if (strcmp(key, attrs[k].key) != 0) continue;
            int v = -1;
            OK(cuDeviceGetAttribute(&v, attrs[k].a, 0));
            if (v != want) tt_fail_msg(__FILE__, __LINE__, "%s: %d, want %lld", key, v, want);
            done = true;
        }
        if (done || strcmp(key, "init") == 0) continue;
        if (strcmp(key, "name") == 0) {
            char name[256];
            OK(cuDeviceGetName(name, sizeof name, 0));
            TT_EQ_STR(name, val);
        } else if (strcmp(key, "cc") == 0) {
            int ma = -1, mi = -1;
            OK(cuDeviceGetAttribute(&ma, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
            OK(cuDeviceGetAttribute(&mi, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
            TT_EQ_I(ma * 10 + mi, want);
        } else if (strcmp(key, "mem") == 0) {
            size_t m = 0, f = 0, t = 0;
            OK(cuDeviceTotalMem(&m, 0));
            TT_EQ_U(m, (unsigned long long)want);
            OK(cuMemGetInfo(&f, &t));
            TT_EQ_U(t, (unsigned long long)want);
        } else if (strcmp(key, "stack") == 0 || strcmp(key, "heap") == 0) {
            size_t v = 0;
            OK(cuCtxGetLimit(&v, key[0] == 's' ? CU_LIMIT_STACK_SIZE : CU_LIMIT_MALLOC_HEAP_SIZE));
            TT_EQ_U(v, (unsigned long long)want);
        } else if (strcmp(key, "l2persist") == 0) {
            int a = -1;
            OK(cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, 0));
            TT_EQ_I(a, want);
            size_t v = 1;
            if (want) {
                OK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, (size_t)want));
                OK(cuCtxGetLimit(&v, CU_LIMIT_PERSISTING_L2_CACHE_SIZE));
                TT_EQ_U(v, (unsigned long long)want);
                CK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, (size_t)want + 1), CUDA_ERROR_INVALID_VALUE);
                OK(cuCtxResetPersistingL2Cache());
            } else {
                CK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 1), CUDA_ERROR_UNSUPPORTED_LIMIT);
                OK(cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0));
            }
        } else if (strcmp(key, "window") == 0) {
            int a = -1;
            OK(cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, 0));
            TT_EQ_I(a, want);
            CUdeviceptr buf;
            OK(cuMemAlloc(&buf, 4096));
            CUstream s;
            OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
            CUstreamAttrValue sv, got;
            memset(&sv, 0, sizeof sv);
            sv.accessPolicyWindow.base_ptr = (void *)(uintptr_t)buf;
            sv.accessPolicyWindow.hitRatio = 0.5f;
            sv.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
            sv.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
            /* an empty window is always taken (it clears the stream's) */
            OK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &sv));
            sv.accessPolicyWindow.num_bytes = (size_t)want + 1;
            CK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &sv), CUDA_ERROR_INVALID_VALUE);
            CUmodule m;
            CUfunction f;
            OK(cuModuleLoadData(&m, at_ptx_add1));
            OK(cuModuleGetFunction(&f, m, "add1"));
            int n = 1;
            void *args[] = {&buf, &n};
            CUlaunchAttribute la;
            memset(&la, 0, sizeof la);
            la.id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
            la.value.accessPolicyWindow = sv.accessPolicyWindow;
            CUlaunchConfig cfg = {1, 1, 1, 32, 1, 1, 0, s, &la, 1};
            CK(cuLaunchKernelEx(&cfg, f, args, NULL), CUDA_ERROR_INVALID_VALUE);
            if (want) {
                sv.accessPolicyWindow.num_bytes = (size_t)want;
                OK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &sv));
                OK(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &got));
                TT_EQ_U(got.accessPolicyWindow.num_bytes, (unsigned long long)want);
                la.value.accessPolicyWindow = sv.accessPolicyWindow;
                OK(cuLaunchKernelEx(&cfg, f, args, NULL));
                /* a miss cannot persist, and the hit ratio is a fraction */
                sv.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_PERSISTING;
                CK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &sv), CUDA_ERROR_INVALID_VALUE);
                sv.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_NORMAL;
                sv.accessPolicyWindow.hitRatio = 1.5f;
                CK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &sv), CUDA_ERROR_INVALID_VALUE);
            }
            OK(cuStreamSynchronize(s));
            OK(cuStreamDestroy(s));
            OK(cuModuleUnload(m));
            OK(cuMemFree(buf));
        } else if (strcmp(key, "sm90") == 0) {
            CUmodule m;
            CUresult r = cuModuleLoadData(&m, ptx_sm90);
            CK(r, want ? CUDA_SUCCESS : CUDA_ERROR_NO_BINARY_FOR_GPU);
            if (r == CUDA_SUCCESS) OK(cuModuleUnload(m));
        } else {
            tt_fail_msg(__FILE__, __LINE__, "unknown key %s", key);
        }
        if (strcmp(key, "maxtpb") == 0) {
            CUmodule m;
            CUfunction f;
            OK(cuModuleLoadData(&m, at_ptx_add1));
            OK(cuModuleGetFunction(&f, m, "add1"));
            CUdeviceptr a;
            int n = (int)want + 1;
            OK(cuMemAlloc(&a, (size_t)n * 4));
            void *args[] = {&a, &n};
            OK(cuLaunchKernel(f, 1, 1, 1, (unsigned)want, 1, 1, 0, 0, args, NULL));
            if (want < 1024)
                CK(cuLaunchKernel(f, 1, 1, 1, (unsigned)want + 1, 1, 1, 0, 0, args, NULL), CUDA_ERROR_INVALID_VALUE);
            OK(cuMemFree(a));
            OK(cuModuleUnload(m));
        }
    }
    OK(cuCtxDestroy(ctx));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("FAIL t_config: usage: t_config TAG KEY=VALUE...\n");
        return 1;
    }
    argc_ = argc;
    argv_ = argv;
    char name[128];
    snprintf(name, sizeof name, "config_%s", argv[1]);
    tt_cur_name = name;
    tt_cur_failed = 0;
    check_config();
    if (tt_cur_failed) tt_failed_tests++;
    else tt_passed_tests++, printf("PASS %s\n", name);
    return tt_done();
}
