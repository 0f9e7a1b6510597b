// float.cu -- f32/f64 kernels of tpsim's kernel suite (see README.md).
// Compiled with: nvcc -ptx -arch=sm_75 -o float.ptx float.cu
// (defaults: -ftz=false -prec-div=true -prec-sqrt=true -fmad=true; every
// product that must not be contracted into an fma is written __fmul_rn).
#include <stdint.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)

static __device__ __forceinline__ uint32_t fb(float f) { return __float_as_uint(f); }
static __device__ __forceinline__ uint64_t db(double d) { return (uint64_t)__double_as_longlong(d); }

// ---- f32_ieee: correctly rounded f32 operations and special values ---------
#define IEEE_N 20
extern "C" __global__ void f32_ieee(const float *A, const float *B, const float *C, uint32_t *o,
                                    uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    float a = A[i], b = B[i], c = C[i];
    uint32_t *r = o + (size_t)i * IEEE_N;
    r[0] = fb(a + b);                   // add.f32 (rn)
    r[1] = fb(a - b);                   // sub.f32
    r[2] = fb(__fmul_rn(a, b));         // mul.rn.f32 (never contracted)
    r[3] = fb(a / b);                   // div.rn.f32
    r[4] = fb(sqrtf(a));                // sqrt.rn.f32
    r[5] = fb(fmaf(a, b, c));           // fma.rn.f32
    r[6] = fb(1.0f / a);                // rcp.rn.f32
    r[7] = fb(fminf(a, b));             // min.f32: NaN loses, -0 < +0
    r[8] = fb(fmaxf(a, b));             // max.f32
    r[9] = fb(fabsf(a));                // abs.f32
    r[10] = fb(-a);                     // neg.f32
    r[11] = fb(copysignf(a, b));        // copysign.f32
    r[12] = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 |
            (a >= b) << 5 | (!(a >= b)) << 6 | (!(a < b)) << 7 | (isnan(a) ? 1 << 8 : 0) |
            (isinf(a) ? 1 << 9 : 0) | (isfinite(a) ? 1 << 10 : 0) | (signbit(a) ? 1 << 11 : 0);
    r[13] = fb(rintf(a));               // cvt.rni.f32.f32
    r[14] = fb(floorf(a));              // cvt.rmi.f32.f32
    r[15] = fb(ceilf(a));               // cvt.rpi.f32.f32
    r[16] = fb(truncf(a));              // cvt.rzi.f32.f32
    r[17] = fb(__saturatef(a));         // cvt.sat.f32.f32: clamp to [0,1], NaN -> +0
    uint32_t t;
    asm("{ .reg .pred p0, p1, p2, p3, p4, p5;\n\t"
        "testp.finite.f32 p0, %1;\n\t"
        "testp.infinite.f32 p1, %1;\n\t"
        "testp.number.f32 p2, %1;\n\t"
        "testp.notanumber.f32 p3, %1;\n\t"
        "testp.normal.f32 p4, %1;\n\t"
        "testp.subnormal.f32 p5, %1;\n\t"
        "selp.u32 %0, 1, 0, p0;\n\t"
        "@p1 or.b32 %0, %0, 2;\n\t"
        "@p2 or.b32 %0, %0, 4;\n\t"
        "@p3 or.b32 %0, %0, 8;\n\t"
        "@p4 or.b32 %0, %0, 16;\n\t"
        "@p5 or.b32 %0, %0, 32; }"
        : "=r"(t) : "f"(a));
    r[18] = t;
    r[19] = fb(__fadd_rn(__fmul_rn(a, 0x1p-100f), __fmul_rn(b, 0x1p-110f)));  // into subnormals
    o64[2 * i] = db((double)a);                          // cvt.f64.f32 (exact)
    o64[2 * i + 1] = db((double)a * (double)b);          // mul.f64 (exact product)
}

// ---- f32_directed: the IEEE intrinsics in all four rounding modes ----------
#define DIR_N 28
extern "C" __global__ void f32_directed(const float *A, const float *B, const float *C, uint32_t *o, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    float a = A[i], b = B[i], c = C[i];
    uint32_t *r = o + (size_t)i * DIR_N;
    r[0] = fb(__fadd_rn(a, b));  r[1] = fb(__fadd_rz(a, b));  r[2] = fb(__fadd_rd(a, b));  r[3] = fb(__fadd_ru(a, b));
    r[4] = fb(__fsub_rn(a, b));  r[5] = fb(__fsub_rz(a, b));  r[6] = fb(__fsub_rd(a, b));  r[7] = fb(__fsub_ru(a, b));
    r[8] = fb(__fmul_rn(a, b));  r[9] = fb(__fmul_rz(a, b));  r[10] = fb(__fmul_rd(a, b)); r[11] = fb(__fmul_ru(a, b));
    r[12] = fb(__fdiv_rn(a, b)); r[13] = fb(__fdiv_rz(a, b)); r[14] = fb(__fdiv_rd(a, b)); r[15] = fb(__fdiv_ru(a, b));
    r[16] = fb(__fsqrt_rn(a));   r[17] = fb(__fsqrt_rz(a));   r[18] = fb(__fsqrt_rd(a));   r[19] = fb(__fsqrt_ru(a));
    r[20] = fb(__fmaf_rn(a, b, c)); r[21] = fb(__fmaf_rz(a, b, c)); r[22] = fb(__fmaf_rd(a, b, c)); r[23] = fb(__fmaf_ru(a, b, c));
    r[24] = fb(__frcp_rn(a));    r[25] = fb(__frcp_rz(a));    r[26] = fb(__frcp_rd(a));    r[27] = fb(__frcp_ru(a));
}

// ---- f64_ops: f64 in all rounding modes, conversions, comparisons -----------
#define F64_N 44
extern "C" __global__ void f64_ops(const double *A, const double *B, const double *C, uint64_t *o, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    double a = A[i], b = B[i], c = C[i];
    uint64_t *r = o + (size_t)i * F64_N;
    r[0] = db(__dadd_rn(a, b));  r[1] = db(__dadd_rz(a, b));  r[2] = db(__dadd_rd(a, b));  r[3] = db(__dadd_ru(a, b));
    r[4] = db(__dsub_rn(a, b));  r[5] = db(__dsub_rz(a, b));  r[6] = db(__dsub_rd(a, b));  r[7] = db(__dsub_ru(a, b));
    r[8] = db(__dmul_rn(a, b));  r[9] = db(__dmul_rz(a, b));  r[10] = db(__dmul_rd(a, b)); r[11] = db(__dmul_ru(a, b));
    r[12] = db(__ddiv_rn(a, b)); r[13] = db(__ddiv_rz(a, b)); r[14] = db(__ddiv_rd(a, b)); r[15] = db(__ddiv_ru(a, b));
    r[16] = db(__dsqrt_rn(a));   r[17] = db(__dsqrt_rz(a));   r[18] = db(__dsqrt_rd(a));   r[19] = db(__dsqrt_ru(a));
    r[20] = db(__fma_rn(a, b, c)); r[21] = db(__fma_rz(a, b, c)); r[22] = db(__fma_rd(a, b, c)); r[23] = db(__fma_ru(a, b, c));
    r[24] = db(__drcp_rn(a));    r[25] = db(__drcp_rz(a));    r[26] = db(__drcp_rd(a));    r[27] = db(__drcp_ru(a));
    r[28] = db(a / b);                  // div.rn.f64
    r[29] = db(sqrt(a));                // sqrt.rn.f64
    r[30] = db(fma(a, b, c));           // fma.rn.f64
    r[31] = db(fmin(a, b));             // min.f64
    r[32] = db(fmax(a, b));             // max.f64
    r[33] = db(fabs(a));                // abs.f64
    r[34] = db(-a);                     // neg.f64
    r[35] = db(copysign(a, b));
    r[36] = db(rint(a));                // cvt.rni.f64.f64
    r[37] = db(floor(a));
    r[38] = db(ceil(a));
    r[39] = db(trunc(a));
    r[40] = fb((float)a);               // cvt.rn.f32.f64
    r[41] = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 |
            (a >= b) << 5 | (!(a >= b)) << 6 | (isnan(a) ? 1 << 7 : 0) | (isinf(b) ? 1 << 8 : 0);
    r[42] = db(a * b + c);              // contracted: fma.rn.f64
    r[43] = db(__dadd_rn(a, c) - b);    // sub.f64 (rn)
}

// ---- f32_approx: the approximate functions, one per element -----------------
// op[i] picks the function; the host checks each against its documented bound.
extern "C" __global__ void f32_approx(const int *op, const float *X, const float *Y, uint32_t *o, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    float x = X[i], y = Y[i], r;
    switch (op[i]) {
    case 0: r = exp2f(x); break;                    // ex2.approx.f32
    case 1: r = __expf(x); break;                   // mul + ex2.approx.f32
    case 2: r = __exp10f(x); break;
    case 3: r = __log2f(x); break;                  // lg2.approx.f32
    case 4: r = __logf(x); break;                   // lg2.approx.f32 * ln 2
    case 5: r = __sinf(x); break;                   // sin.approx.f32
    case 6: r = __cosf(x); break;                   // cos.approx.f32
    case 7: r = rsqrtf(x); break;                   // rsqrt.approx.f32
    case 8: r = __fdividef(x, y); break;            // div.approx.f32
    case 9: r = __powf(x, y); break;                // lg2, mul, ex2
    case 10: r = __tanhf(x); break;                 // tanh.approx.f32
    case 11: asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case 12: asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case 13: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    default: r = x; break;
    }
    o[i] = fb(r);
}

// ---- cvt_round: conversions with the CUDA rounding intrinsics ---------------
// Float -> integer conversions clamp to the destination range; NaN gives 0
// (f32 -> 32-bit) or 1 << (bits-1) (f64 source or 64-bit destination).
#define CVT_N32 24
#define CVT_N64 30
extern "C" __global__ void cvt_round(const float *F, const double *D, const long long *L,
                                     const unsigned long long *U, uint32_t *o, uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    float f = F[i];
    double d = D[i];
    long long l = L[i];
    unsigned long long u = U[i];
    int k = (int)l;
    unsigned uk = (unsigned)u;
    uint32_t *r = o + (size_t)i * CVT_N32;
    uint64_t *q = o64 + (size_t)i * CVT_N64;
    r[0] = __float2int_rn(f);  r[1] = __float2int_rz(f);  r[2] = __float2int_rd(f);  r[3] = __float2int_ru(f);
    r[4] = __float2uint_rn(f); r[5] = __float2uint_rz(f); r[6] = __float2uint_rd(f); r[7] = __float2uint_ru(f);
    r[8] = __double2int_rn(d); r[9] = __double2int_rz(d); r[10] = __double2int_rd(d); r[11] = __double2int_ru(d);
    r[12] = __double2uint_rn(d); r[13] = __double2uint_rz(d); r[14] = __double2uint_rd(d); r[15] = __double2uint_ru(d);
    r[16] = fb(__double2float_rn(d)); r[17] = fb(__double2float_rz(d));
    r[18] = fb(__double2float_rd(d)); r[19] = fb(__double2float_ru(d));
    uint32_t t;
    asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(t) : "f"(f));   // saturating, NaN -> 0
    r[20] = t;
    asm("cvt.rni.u32.f32 %0, %1;" : "=r"(t) : "f"(f));
    r[21] = t;
    asm("cvt.rzi.s32.f64 %0, %1;" : "=r"(t) : "d"(d));   // NaN -> 0x80000000
    r[22] = t;
    asm("cvt.rpi.u16.f32 %0, %1;" : "=r"(t) : "f"(f));   // clamps to 0..65535
    r[23] = t & 0xffff;
    q[0] = __float2ll_rn(f);  q[1] = __float2ll_rz(f);  q[2] = __float2ll_rd(f);  q[3] = __float2ll_ru(f);
    q[4] = __float2ull_rn(f); q[5] = __float2ull_rz(f); q[6] = __float2ull_rd(f); q[7] = __float2ull_ru(f);
    q[8] = __double2ll_rn(d); q[9] = __double2ll_rz(d); q[10] = __double2ll_rd(d); q[11] = __double2ll_ru(d);
    q[12] = __double2ull_rn(d); q[13] = __double2ull_rz(d); q[14] = __double2ull_rd(d); q[15] = __double2ull_ru(d);
    q[16] = db(__ll2double_rn(l)); q[17] = db(__ll2double_rz(l)); q[18] = db(__ll2double_rd(l)); q[19] = db(__ll2double_ru(l));
    q[20] = db(__ull2double_rn(u)); q[21] = db(__ull2double_rz(u)); q[22] = db(__ull2double_rd(u)); q[23] = db(__ull2double_ru(u));
    // f32 results of integer sources, packed two per word.
    q[24] = (uint64_t)fb(__int2float_rn(k)) << 32 | fb(__int2float_rz(k));
    q[25] = (uint64_t)fb(__int2float_rd(k)) << 32 | fb(__int2float_ru(k));
    q[26] = (uint64_t)fb(__uint2float_rn(uk)) << 32 | fb(__uint2float_rd(uk));
    q[27] = (uint64_t)fb(__ll2float_rn(l)) << 32 | fb(__ll2float_ru(l));
    q[28] = (uint64_t)fb(__ull2float_rz(u)) << 32 | fb(__ull2float_rn(u));
    q[29] = db(__int2double_rn(k));     // exact
}
