/*
** kt_err.c -- the error paths of the driver API (kernels in err.cu).
**
** err_api does not disturb its context: invalid launches and lookups fail
** with the documented codes and a good launch still works afterwards.  The
** other three make the context unusable (a sticky error), so each runs in a
** process of its own (KT_ISOLATE: run_kernels.sh calls runner --only NAME).
*/
#include "kt.h"

#include <stdio.h>
#include <string.h>

static kt_res expect(th_ctx *c, const char *what, CUresult got, CUresult want)
{
    if (got == want) return KT_PASS;
    return th_fail(c, "%s returned %s (%d), expected %s (%d)", what, th_errname(got), (int)got,
                   th_errname(want), (int)want);
}

/* ---- err_api ---------------------------------------------------------------------------
** cuLaunchKernel with a block of 2048 threads (x, and 1024x2), blockDim.z of
** 65 and gridDim.y of 65536: CUDA_ERROR_INVALID_VALUE; 1 MiB of dynamic
** shared memory: CUDA_ERROR_INVALID_VALUE (or ..._OUT_OF_RESOURCES);
** cuModuleGetFunction / cuModuleGetGlobal of unknown names:
** CUDA_ERROR_NOT_FOUND; cuModuleLoadData of malformed PTX:
** CUDA_ERROR_INVALID_PTX; cuModuleLoad of a missing file:
** CUDA_ERROR_FILE_NOT_FOUND; cuGetErrorName of 700.  None of these is
** sticky: a correct launch afterwards computes its result. */
static kt_res t_err_api(th_ctx *c)
{
    CUmodule m, bad;
    CUfunction f, nf;
    CUdeviceptr d, g;
    size_t bytes;
    TH_TRY(th_module(c, "err.ptx", &m));
    TH_TRY(th_func(c, m, "err_ok", &f));
    TH_TRY(th_alloc(c, 4096 * 4, &d));
    void *p[] = {&d};
    TH_TRY(expect(c, "cuLaunchKernel(block 2048x1x1)", cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, p, NULL),
                  CUDA_ERROR_INVALID_VALUE));
    TH_TRY(expect(c, "cuLaunchKernel(block 1024x2x1)", cuLaunchKernel(f, 1, 1, 1, 1024, 2, 1, 0, NULL, p, NULL),
                  CUDA_ERROR_INVALID_VALUE));
    TH_TRY(expect(c, "cuLaunchKernel(block 1x1x65)", cuLaunchKernel(f, 1, 1, 1, 1, 1, 65, 0, NULL, p, NULL),
                  CUDA_ERROR_INVALID_VALUE));
    TH_TRY(expect(c, "cuLaunchKernel(grid 1x65536x1)", cuLaunchKernel(f, 1, 65536, 1, 32, 1, 1, 0, NULL, p, NULL),
                  CUDA_ERROR_INVALID_VALUE));
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 1u << 20, NULL, p, NULL);
    if (r != CUDA_ERROR_INVALID_VALUE && r != CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
        return th_fail(c, "cuLaunchKernel(1 MiB of dynamic shared memory) returned %s (%d)", th_errname(r), (int)r);
    TH_TRY(expect(c, "cuModuleGetFunction(no_such_kernel)", cuModuleGetFunction(&nf, m, "no_such_kernel"),
                  CUDA_ERROR_NOT_FOUND));
    TH_TRY(expect(c, "cuModuleGetGlobal(no_such_global)", cuModuleGetGlobal(&g, &bytes, m, "no_such_global"),
                  CUDA_ERROR_NOT_FOUND));
    static const char broken[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry broken(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\tadd.s32 %r1, %r2, ;\n\tret;\n}\n";
    r = cuModuleLoadData(&bad, broken);
    if (r == CUDA_SUCCESS) cuModuleUnload(bad);
    TH_TRY(expect(c, "cuModuleLoadData(malformed PTX)", r, CUDA_ERROR_INVALID_PTX));
    char path[1024];
    snprintf(path, sizeof path, "%s/no_such_file.ptx", c->ptxdir);
    r = cuModuleLoad(&bad, path);
    if (r == CUDA_SUCCESS) cuModuleUnload(bad);
    TH_TRY(expect(c, "cuModuleLoad(missing file)", r, CUDA_ERROR_FILE_NOT_FOUND));
    const char *name = NULL;
    TH_CU(c, cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &name));
    if (!name || strcmp(name, "CUDA_ERROR_ILLEGAL_ADDRESS") != 0)
        return th_fail(c, "cuGetErrorName(700) gave %s", name ? name : "(null)");
    /* the context still works */
    TH_CU(c, cuCtxSynchronize());
    TH_TRY(th_launch(c, f, 4, 1, 1, 1024, 1, 1, 0, p));
    static int32_t o[4096];
    TH_TRY(th_download(c, o, d, sizeof o));
    for (int i = 0; i < 4096; i++)
        if (o[i] != (i / 1024) * 1000 + i % 1024) return th_fail(c, "after the failed calls: out[%d] = %d", i, o[i]);
    return KT_PASS;
}

/* Launches k in a fresh module and expects the launch or the next
** synchronization to fail with one of want1/want2, then two more calls to
** keep failing with the same code (the error is sticky). */
static kt_res expect_sticky(th_ctx *c, const char *kname, CUdeviceptr arg, CUresult want1, CUresult want2)
{
    CUmodule m;
    CUfunction f;
    TH_TRY(th_module(c, "err.ptx", &m));
    TH_TRY(th_func(c, m, kname, &f));
    int v = 1234;
    void *p[] = {&arg, &v};
    CUresult r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, p, NULL);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    if (r != want1 && r != want2)
        return th_fail(c, "%s: the launch/synchronize returned %s (%d), expected %s (%d)", kname, th_errname(r),
                       (int)r, th_errname(want1), (int)want1);
    CUdeviceptr d;
    CUresult r2 = cuMemAlloc(&d, 256);
    if (r2 == CUDA_SUCCESS) cuMemFree(d);
    CUresult r3 = cuCtxSynchronize();
    if (r2 != r || r3 != r)
        return th_fail(c, "%s: not sticky: cuMemAlloc then cuCtxSynchronize returned %s (%d), %s (%d) after %s",
                       kname, th_errname(r2), (int)r2, th_errname(r3), (int)r3, th_errname(r));
    return KT_PASS;
}

/* ---- err_oob -------------------------------------------------------------------------------
** A store to address 0x100 (no allocation there, on a GPU or in tpsim):
** CUDA_ERROR_ILLEGAL_ADDRESS (700), sticky. */
static kt_res t_err_oob(th_ctx *c)
{
    return expect_sticky(c, "err_store", (CUdeviceptr)0x100, CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_ILLEGAL_ADDRESS);
}

/* ---- err_misaligned ------------------------------------------------------------------------
** A 4-byte store at an address 2 mod 4: CUDA_ERROR_MISALIGNED_ADDRESS (716). */
static kt_res t_err_misaligned(th_ctx *c)
{
    CUdeviceptr d;
    TH_TRY(th_alloc(c, 4096, &d));
    return expect_sticky(c, "err_misaligned", d, CUDA_ERROR_MISALIGNED_ADDRESS, CUDA_ERROR_MISALIGNED_ADDRESS);
}

/* ---- err_trap -----------------------------------------------------------------------------
** trap in one thread: the launch fails.  The code a GPU reports for trap is
** CUDA_ERROR_LAUNCH_FAILED (719) on the drivers we know of; newer ones may
** say CUDA_ERROR_ILLEGAL_INSTRUCTION (715): either is accepted. */
static kt_res t_err_trap(th_ctx *c)
{
    CUdeviceptr d;
    TH_TRY(th_alloc(c, 4096, &d));
    return expect_sticky(c, "err_trap", d, CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_ILLEGAL_INSTRUCTION);
}

const kt_test kt_tests_err[] = {
    {"err_api", t_err_api, 0},
    {"err_oob", t_err_oob, KT_ISOLATE},
    {"err_misaligned", t_err_misaligned, KT_ISOLATE},
    {"err_trap", t_err_trap, KT_ISOLATE},
    {0},
};
