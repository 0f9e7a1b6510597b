/*
** api_test.h -- helpers for the driver-API tests (tests/api/t_*.c).
**
** The tests are ordinary CUDA driver-API programs: they include CUDA's own
** cuda.h when the toolkit is installed (else tpsim's), link against
** libcuda.so.1 and print PASS/FAIL lines through tests/unit/tt.h.
**   CK(call, want)  the call returns the CUresult want
**   OK(call)        the call returns CUDA_SUCCESS
*/
#ifndef API_TEST_H
#define API_TEST_H

#define CUDA_ENABLE_DEPRECATED   /* the tests call deprecated entry points too */
#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../unit/tt.h"

static const char *at_name(CUresult r)
{
    const char *s = NULL;
    return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "(not a CUresult)";
}

#define CK(call, want)                                                         \
    do {                                                                       \
        CUresult at_r = (call), at_w = (want);                                 \
        tt_nchecks++;                                                          \
        if (at_r != at_w)                                                      \
            tt_fail_msg(__FILE__, __LINE__, "%s: %s (%d), want %s (%d)", #call, \
                        at_name(at_r), (int)at_r, at_name(at_w), (int)at_w);   \
    } while (0)

#define OK(call) CK(call, CUDA_SUCCESS)

/* add1(int *a, int n): a[i] += 1 for every i < n (i = the global x index). */
static const char at_ptx_add1[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry add1(.param .u64 p_a, .param .u32 p_n)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [p_a];\n"
    "    ld.param.u32 %r1, [p_n];\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "    setp.ge.s32 %p1, %r5, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    mul.wide.s32 %rd3, %r5, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    ld.global.u32 %r6, [%rd4];\n"
    "    add.s32 %r7, %r6, 1;\n"
    "    st.global.u32 [%rd4], %r7;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

static inline void at_init_ctx(CUcontext *ctx)
{
    CUdevice d;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&d, 0) != CUDA_SUCCESS ||
        cuCtxCreate(ctx, NULL, 0, d) != CUDA_SUCCESS) {
        printf("FAIL %s: cannot create a context\n", __FILE__);
        exit(1);
    }
}

#endif
