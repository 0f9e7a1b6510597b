/*
** t_fail.c -- the account of failed calls (api/fail.c) from a driver-API
** program: a launch refused for its registers, a copy past the end of an
** allocation, entry points tpsim does not implement (called by the program
** and by a shared library, libtpcaller.so next to this program), a private
** export table asked for by that library.  run_api.sh runs it under
** TPSIM_CONFIG=gtx480 with TPSIM_STATS set, then checks the statistics file
** and stderr; this program checks the return codes and prints, as
** "reason: TEXT" lines, the reasons the file must hold, derived here from
** the kernel's register count and the addresses of the allocation.
*/
#include "api_test.h"
#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

/* heavy(int *p): 40 words loaded into 40 registers, all live until summed,
** so the kernel needs more than 32 registers per thread: a block of 1024
** threads needs more than the GTX 480's 32768. */
static char *heavy_ptx(void)
{
    static char buf[8192];
    size_t n = (size_t)snprintf(buf, sizeof buf,
                                ".version 7.5\n.target sm_75\n.address_size 64\n"
                                ".visible .entry heavy(.param .u64 p)\n{\n"
                                "    .reg .b32 %%r<48>;\n    .reg .b64 %%rd<4>;\n"
                                "    ld.param.u64 %%rd1, [p];\n    cvta.to.global.u64 %%rd2, %%rd1;\n");
    for (int i = 1; i <= 40; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "    ld.volatile.global.u32 %%r%d, [%%rd2+%d];\n", i, 4 * i);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "    add.u32 %%r41, %%r1, %%r2;\n");
    for (int i = 3; i <= 40; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "    add.u32 %%r41, %%r41, %%r%d;\n", i);
    snprintf(buf + n, sizeof buf - n, "    st.global.u32 [%%rd2], %%r41;\n    ret;\n}\n");
    return buf;
}

static void fail_launch(void)
{
    CUmodule m;
    CUfunction f;
    OK(cuModuleLoadData(&m, heavy_ptx()));
    OK(cuModuleGetFunction(&f, m, "heavy"));
    int regs = 0, unit = 0, per_block = 0;
    OK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    OK(cuDeviceGetAttribute(&per_block, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 0));
    unit = 64;   /* the GTX 480's allocation unit per warp (configs/gtx480.cfg) */
    TT_EQ_I(per_block, 32768);
    TT_CHECK(regs >= 40 && regs <= 63);
    CUdeviceptr p;
    OK(cuMemAlloc(&p, 4096));
    void *args[] = {&p};
    /* refused twice: one failure counted 2 times */
    CK(cuLaunchKernel(f, 1, 1, 1, 1024, 1, 1, 0, 0, args, NULL), CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    CK(cuLaunchKernel(f, 1, 1, 1, 1024, 1, 1, 0, 0, args, NULL), CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    /* 512 threads fit (16 warps of regs * 32 rounded up to 64) */
    OK(cuLaunchKernel(f, 1, 1, 1, 512, 1, 1, 0, 0, args, NULL));
    long need = (long)((regs * 32 + unit - 1) / unit * unit) * 32;
    char extra[80] = "";
    if (need != (long)regs * 1024) snprintf(extra, sizeof extra, " (allocated per warp in units of %d)", unit);
    printf("reason: block of 1024 threads x %d registers needs %ld registers%s, the device allows 32768 per block "
           "(Fermi limit device.regs_per_block)\n", regs, need, extra);
    OK(cuMemFree(p));
    OK(cuModuleUnload(m));
}

static void fail_copy(void)
{
    CUdeviceptr p;
    OK(cuMemAlloc(&p, 256));
    char host[256] = {0};
    CK(cuMemcpyHtoD(p + 128, host, 256), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemcpyHtoD(p + 128, host, 256), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemcpyHtoD(p + 128, host, 128));
    printf("reason: the destination 0x%llx + 256 bytes runs past the end of its allocation (0x%llx, 256 bytes) "
           "by 128\n", (unsigned long long)(p + 128), (unsigned long long)p);
    OK(cuMemFree(p));
}

static void fail_unsupported(void)
{
    /* from the program */
    CUresult (*unreg)(void *) = (CUresult (*)(void *))dlsym(RTLD_DEFAULT, "cuGraphicsUnregisterResource");
    TT_CHECK(unreg != NULL);
    if (unreg) CK(unreg(NULL), CUDA_ERROR_NOT_SUPPORTED);
    /* from a library next to this program */
    char exe[PATH_MAX], path[PATH_MAX + 32];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    TT_CHECK(k > 0);
    if (k <= 0) return;
    exe[k] = '\0';
    *strrchr(exe, '/') = '\0';
    snprintf(path, sizeof path, "%s/libtpcaller.so", exe);
    void *lib = dlopen(path, RTLD_NOW);
    TT_CHECK(lib != NULL);
    if (!lib) return;
    CUresult (*table)(void) = (CUresult (*)(void))dlsym(lib, "tpcaller_export_table");
    CUresult (*unsup)(void) = (CUresult (*)(void))dlsym(lib, "tpcaller_unsupported");
    TT_CHECK(table && unsup);
    if (table) CK(table(), CUDA_ERROR_NOT_SUPPORTED);
    if (table) CK(table(), CUDA_ERROR_NOT_SUPPORTED);
    if (unsup) CK(unsup(), CUDA_ERROR_NOT_SUPPORTED);
    dlclose(lib);
}

/* Statuses are not failures; calls that succeed leave no trace. */
static void fail_not_errors(void)
{
    CUstream s;
    OK(cuStreamCreate(&s, 0));
    OK(cuStreamQuery(s));
    OK(cuStreamDestroy(s));
}

int main(void)
{
    CUcontext ctx;
    at_init_ctx(&ctx);
    TT_RUN(fail_launch);
    TT_RUN(fail_copy);
    TT_RUN(fail_unsupported);
    TT_RUN(fail_not_errors);
    OK(cuCtxDestroy(ctx));
    return tt_done();
}
