/*
** t_stack.c -- CU_LIMIT_STACK_SIZE reaches exec/ (exec.stack_bytes): a
** recursive function of 100 levels, about 80 bytes of call stack each,
** overflows the default 1024 bytes -- CUDA_ERROR_HARDWARE_STACK_ERROR,
** sticky -- and runs once the context's limit is raised to 64 KiB.
*/
#include "api_test.h"

/* rec(n) = n + rec(n - 1), each call with a 64-byte local array: about 80
** bytes of call stack per level */
static const char ptx_deep[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".func (.param .b32 rv) rec(.param .b32 n)\n"
    "{\n"
    "    .local .align 4 .b8 buf[64];\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<6>;\n"
    "    ld.param.b32 %r1, [n];\n"
    "    setp.eq.s32 %p1, %r1, 0;\n"
    "    @%p1 bra BASE;\n"
    "    st.local.u32 [buf], %r1;\n"
    "    add.s32 %r2, %r1, -1;\n"
    "    {\n"
    "    .param .b32 a;\n"
    "    .param .b32 r;\n"
    "    st.param.b32 [a], %r2;\n"
    "    call.uni (r), rec, (a);\n"
    "    ld.param.b32 %r3, [r];\n"
    "    }\n"
    "    ld.local.u32 %r4, [buf];\n"
    "    add.s32 %r5, %r3, %r4;\n"
    "    st.param.b32 [rv], %r5;\n"
    "    ret;\n"
    "BASE:\n"
    "    mov.u32 %r5, 0;\n"
    "    st.param.b32 [rv], %r5;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry deep(.param .u64 out, .param .u32 n)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    ld.param.u32 %r1, [n];\n"
    "    {\n"
    "    .param .b32 a;\n"
    "    .param .b32 r;\n"
    "    st.param.b32 [a], %r1;\n"
    "    call.uni (r), rec, (a);\n"
    "    ld.param.b32 %r2, [r];\n"
    "    }\n"
    "    st.global.u32 [%rd2], %r2;\n"
    "    ret;\n"
    "}\n";

static void run_deep(CUcontext *c, CUfunction *f)
{
    CUmodule m;
    OK(cuCtxCreate(c, NULL, 0, 0));
    OK(cuModuleLoadData(&m, ptx_deep));
    OK(cuModuleGetFunction(f, m, "deep"));
}

static void stack_limit_raised(void)
{
    CUcontext c;
    CUfunction f;
    run_deep(&c, &f);
    CUdeviceptr out;
    OK(cuMemAlloc(&out, 4));
    unsigned n = 5;
    void *args[] = {&out, &n};
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));   /* 5 levels fit the default */
    uint32_t r = 0;
    OK(cuMemcpyDtoH(&r, out, 4));
    TT_EQ_U(r, 15);
    OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 65536));
    n = 100;
    OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args, NULL));
    OK(cuMemcpyDtoH(&r, out, 4));
    TT_EQ_U(r, 5050);
    OK(cuCtxDestroy(c));
}

static void stack_overflow(void)
{
    CUcontext c;
    CUfunction f;
    run_deep(&c, &f);
    CUdeviceptr out;
    OK(cuMemAlloc(&out, 4));
    unsigned n = 100;
    void *args[] = {&out, &n};
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));   /* the error comes at a wait */
    CK(cuCtxSynchronize(), CUDA_ERROR_HARDWARE_STACK_ERROR);
    CK(cuMemAlloc(&out, 4), CUDA_ERROR_HARDWARE_STACK_ERROR);
    OK(cuCtxDestroy(c));
}

int main(void)
{
    OK(cuInit(0));
    TT_RUN(stack_limit_raised);
    TT_RUN(stack_overflow);
    return tt_done();
}
