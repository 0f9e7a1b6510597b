// half.cu -- fixture: f16/bf16 arithmetic, as nvcc emits it for sm_80 and
// sm_90 (inline-asm blocks with scoped .reg declarations, packed halves).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void hk(__half *a, __nv_bfloat16 *b, __half2 *c, __nv_bfloat162 *d, float *f)
{
    int i = threadIdx.x;
    a[i] = __hfma(a[i], a[i + 1], a[i + 2]) + hexp(a[i]) + __hmax(a[i], a[i + 3]) + __habs(a[i]);
    b[i] = __hfma(b[i], b[i + 1], b[i + 2]) + __hmax(b[i], b[i + 3]) + __hneg(b[i]);
    c[i] = __hfma2(c[i], c[i + 1], c[i + 2]) * c[i];
    d[i] = __hfma2(d[i], d[i + 1], d[i + 2]) * d[i];
    f[i] = __half2float(a[i]) + __bfloat162float(b[i]) + __low2float(c[i]) + (a[i] < a[i + 1]) +
           __hisnan(a[i]);
    c[i + 2] = __floats2half2_rn(f[i], f[i + 1]);
    d[i + 2] = __floats2bfloat162_rn(f[i], f[i + 1]);
    a[i + 5] = __int2half_rn(i);
    b[i + 5] = __int2bfloat16_rn(i);
}
