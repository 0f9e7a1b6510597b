// half80.cu -- sm_80 kernels of tpsim's kernel suite: native bf16, f16
// min/max (with and without .NaN), min/max.NaN.f32, cvt.rn.relu.f16.f32 and
// the warp reductions redux.sync.  tpsim reports compute capability 7.5 by
// default, so the runner skips these unless the device says 8.0 or more.
// Compiled with: nvcc -ptx -arch=sm_80 -o half80.ptx half80.cu
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)

#define H80_N 12
extern "C" __global__ void half_sm80(const float *F, const unsigned short *H, const unsigned short *BF,
                                     unsigned short *oh, uint32_t *o, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    float f = F[2 * i], g = F[2 * i + 1];
    __half a = __ushort_as_half(H[2 * i]), b = __ushort_as_half(H[2 * i + 1]);
    __nv_bfloat16 x = __ushort_as_bfloat16(BF[3 * i]), y = __ushort_as_bfloat16(BF[3 * i + 1]),
                  z = __ushort_as_bfloat16(BF[3 * i + 2]);
    unsigned short *r = oh + (size_t)i * H80_N;
    r[0] = __bfloat16_as_ushort(__float2bfloat16(f));      // cvt.rn.bf16.f32
    r[1] = __bfloat16_as_ushort(__float2bfloat16_rz(f));   // cvt.rz.bf16.f32
    r[2] = __bfloat16_as_ushort(__hfma(x, y, z));          // fma.rn.bf16 (one rounding)
    r[3] = __bfloat16_as_ushort(__hadd(x, y));             // fma.rn.bf16 x*1+y
    r[4] = __bfloat16_as_ushort(__hmul(x, y));             // fma.rn.bf16 x*y-0
    r[5] = __half_as_ushort(__hmin(a, b));                 // min.f16
    r[6] = __half_as_ushort(__hmax(a, b));                 // max.f16
    r[7] = __half_as_ushort(__hmin_nan(a, b));             // min.NaN.f16
    r[8] = __half_as_ushort(__hmax_nan(a, b));             // max.NaN.f16
    unsigned short h;
    asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    r[9] = h;
    r[10] = __bfloat16_as_ushort(__hmax(x, y));            // max.bf16
    r[11] = __bfloat16_as_ushort(__hmin_nan(x, y));        // min.NaN.bf16
    float t;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(t) : "f"(f), "f"(g));
    o[2 * i] = __float_as_uint(t);
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(t) : "f"(f), "f"(g));
    o[2 * i + 1] = __float_as_uint(t);
}

// redux.sync over each warp: every lane writes the six reductions of its warp.
extern "C" __global__ void redux_sm80(const uint32_t *v, uint32_t *o)
{
    unsigned i = GTID;
    uint32_t x = v[i];
    o[6 * i] = __reduce_add_sync(0xffffffffu, x);
    o[6 * i + 1] = (uint32_t)__reduce_min_sync(0xffffffffu, (int)x);
    o[6 * i + 2] = __reduce_max_sync(0xffffffffu, x);
    o[6 * i + 3] = __reduce_and_sync(0xffffffffu, x);
    o[6 * i + 4] = __reduce_or_sync(0xffffffffu, x);
    // a partial mask: the even lanes only
    if ((threadIdx.x & 1) == 0) o[6 * i + 5] = __reduce_xor_sync(0x55555555u, x);
    else o[6 * i + 5] = 0;
}
