// float_ftz.cu -- the f32 flush-to-zero kernel of tpsim's kernel suite.
// Compiled with: nvcc -ptx -arch=sm_75 -ftz=true -o float_ftz.ptx float_ftz.cu
// With -ftz=true nvcc puts .ftz on every f32 instruction: subnormal inputs
// and results become zeros of the same sign.  The same operations compiled
// without -ftz are in float.cu (f32_ieee); the runner compares the two
// behaviours on the same subnormal-heavy data.
#include <stdint.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)

static __device__ __forceinline__ uint32_t fb(float f) { return __float_as_uint(f); }

#define FTZ_N 20
extern "C" __global__ void f32_ftz(const float *A, const float *B, const float *C, uint32_t *o,
                                   uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    float a = A[i], b = B[i], c = C[i];
    uint32_t *r = o + (size_t)i * FTZ_N;
    r[0] = fb(a + b);                   // add.ftz.f32
    r[1] = fb(a - b);                   // sub.ftz.f32
    r[2] = fb(__fmul_rn(a, b));         // mul.rn.ftz.f32
    r[3] = fb(a / b);                   // div.rn.ftz.f32
    r[4] = fb(sqrtf(a));                // sqrt.rn.ftz.f32
    r[5] = fb(fmaf(a, b, c));           // fma.rn.ftz.f32
    r[6] = fb(1.0f / a);                // rcp.rn.ftz.f32
    r[7] = fb(fminf(a, b));             // min.ftz.f32
    r[8] = fb(fmaxf(a, b));             // max.ftz.f32
    r[9] = fb(fabsf(a));                // abs.ftz.f32
    r[10] = fb(-a);                     // neg.ftz.f32
    r[11] = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 |
            (a >= b) << 5 | (!(a >= b)) << 6;   // setp.*.ftz.f32: subnormals compare as zeros
    r[12] = fb(floorf(a));              // cvt.rmi.ftz.f32.f32
    r[13] = fb(__fadd_rz(a, b));        // add.rz.ftz.f32
    r[14] = fb(__fmul_ru(a, b));        // mul.rp.ftz.f32
    r[15] = fb(__fdiv_rd(a, b));        // div.rm.ftz.f32
    r[16] = fb(__fsqrt_ru(a));          // sqrt.rp.ftz.f32
    r[17] = fb(__fmaf_rz(a, b, c));     // fma.rz.ftz.f32
    r[18] = (uint32_t)__float2int_rd(a);  // cvt.rmi.ftz.s32.f32: -subnormal -> -0 -> 0
    r[19] = fb(__saturatef(a));         // cvt.ftz.sat.f32.f32
    o64[i] = (uint64_t)__double_as_longlong((double)a);   // cvt.ftz.f64.f32
}
