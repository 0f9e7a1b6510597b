// half.cu -- f16 and bf16 kernel of tpsim's kernel suite, for sm_75.
// Compiled with: nvcc -ptx -arch=sm_75 -o half.ptx half.cu
// f16 arithmetic is native PTX on sm_75 (add/sub/mul/fma .f16 and .f16x2,
// cvt to and from .f16); bf16 is not: cuda_bf16.h emulates the conversions
// with integer code and the arithmetic with an f32 fma followed by that
// software rounding (so bf16 results are rounded twice, f32 then bf16).
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)

#define HALF_NH 24
#define HALF_N32 4
extern "C" __global__ void half_ops(const float *F, const double *D, const int *K,
                                    const unsigned short *H, const unsigned short *BF,
                                    unsigned short *oh, uint32_t *o, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    float f = F[i];
    __half a = __ushort_as_half(H[3 * i]), b = __ushort_as_half(H[3 * i + 1]),
           c = __ushort_as_half(H[3 * i + 2]);
    __nv_bfloat16 ba = __ushort_as_bfloat16(BF[2 * i]), bb = __ushort_as_bfloat16(BF[2 * i + 1]);
    unsigned short *r = oh + (size_t)i * HALF_NH;
    r[0] = __half_as_ushort(__float2half_rn(f));       // cvt.rn.f16.f32
    r[1] = __half_as_ushort(__float2half_rz(f));       // cvt.rz.f16.f32
    r[2] = __half_as_ushort(__float2half_rd(f));       // cvt.rm.f16.f32
    r[3] = __half_as_ushort(__float2half_ru(f));       // cvt.rp.f16.f32
    r[4] = __half_as_ushort(__hadd(a, b));             // add.f16
    r[5] = __half_as_ushort(__hsub(a, b));             // sub.f16
    r[6] = __half_as_ushort(__hmul(a, b));             // mul.f16
    r[7] = __half_as_ushort(__hfma(a, b, c));          // fma.rn.f16
    r[8] = __half_as_ushort(__hneg(a));                // neg.f16
    r[9] = __half_as_ushort(__habs(a));                // abs.f16
    __half2 p = __halves2half2(a, b), q = __halves2half2(b, c);
    __half2 s = __hadd2(p, q), m = __hmul2(p, q);      // add.f16x2, mul.f16x2
    r[10] = __half_as_ushort(__low2half(s));
    r[11] = __half_as_ushort(__high2half(s));
    r[12] = __half_as_ushort(__low2half(m));
    r[13] = __half_as_ushort(__high2half(m));
    r[14] = __hlt(a, b) | __hle(a, b) << 1 | __heq(a, b) << 2 | __hne(a, b) << 3 |
            __hgt(a, b) << 4 | __hge(a, b) << 5 | (__hisnan(a) ? 1 << 6 : 0) |
            __hltu(a, b) << 7 | __hneu(a, b) << 8;
    r[15] = __bfloat16_as_ushort(__float2bfloat16(f));       // software rn
    r[16] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
    r[17] = __bfloat16_as_ushort(__float2bfloat16_rd(f));
    r[18] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
    r[19] = __bfloat16_as_ushort(__hadd(ba, bb));            // fma.rn.f32 x,1,y then rn to bf16
    r[20] = __bfloat16_as_ushort(__hmul(ba, bb));            // fma.rn.f32 x,y,-0 then rn to bf16
    r[21] = __half_as_ushort(__double2half(D[i]));          // cvt.rn.f16.f64
    r[22] = __half_as_ushort(__int2half_rn(K[i]));          // cvt.rn.f16.s32
    r[23] = (unsigned short)__half2short_rz(a);             // cvt.rzi.s16.f16
    uint32_t *w = o + (size_t)i * HALF_N32;
    w[0] = __float_as_uint(__half2float(a));                // cvt.f32.f16 (exact)
    w[1] = __float_as_uint(__bfloat162float(ba));           // exact (shift)
    w[2] = (uint32_t)__half2int_rn(c);                      // cvt.rni.s32.f16
    w[3] = __half2uint_rd(b);                               // cvt.rmi.u32.f16
}
