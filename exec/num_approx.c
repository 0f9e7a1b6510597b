/*
** num_approx.c -- the .approx functions: rsqrt, sin, cos, lg2, ex2, tanh
** (f32, and ex2/tanh for f16/bf16), and the "gross" f64 rcp/rsqrt.
**
** The PTX ISA only bounds these (max error below).  A GPU's special
** function unit gives results we cannot reproduce bit for bit, so tpsim
** returns the exact function value rounded once to the destination format:
** the function is evaluated in double with the host libm (error about
** 1 ulp of double) and rounded to f32/f16/bf16, which is within a hair of
** 0.5 ulp, inside every documented bound.  Special inputs (inf, zero, NaN,
** negative arguments) follow the tables in the PTX ISA exactly.
**
**   ex2.approx.f32        2 ulp (full range)
**   lg2.approx.f32        2^-22 absolute in (0.5, 2), 2^-22 relative elsewhere
**   sin/cos.approx.f32    2^-20.5 absolute in [-2pi, 2pi], 2^-14.7 in [-100pi, 100pi]
**   rsqrt.approx.f32      2^-22.9 relative
**   tanh.approx.f32       2^-11 relative
**   ex2.approx.f16/bf16   2^-9.9 / 2^-7 relative
**   tanh.approx.f16/bf16  2^-10.987 / 2^-8 absolute
**   rcp/rsqrt.approx.ftz.f64  computed from the upper 32 bits of a, result
**                         in the upper 32 bits (1.11.20 format)
*/
#include "num_impl.h"
#include <math.h>

#define S32 0x80000000u

static inline uint32_t num__in(uint32_t a, unsigned fl)
{
    return (fl & NUM_FTZ) ? num__ftz32(a) : a;
}

/* A double result rounded to f32 (nearest even), then .ftz. */
static inline uint32_t num__out(double r, unsigned fl)
{
    uint32_t d = num__u32((float)r);
    if (num__nan32(d)) return NUM__F32_QNAN;
    return (fl & NUM_FTZ) ? num__ftz32(d) : d;
}

uint32_t num_rsqrt_f32(uint32_t a, unsigned fl)
{
    a = num__in(a, fl);
    if (num__nan32(a)) return NUM__F32_QNAN;
    if ((a & 0x7fffffffu) == 0) return (a & S32) | 0x7f800000u;    /* +-0 -> +-inf */
    if (a & S32) return NUM__F32_QNAN;                              /* x < 0 */
    if (a == 0x7f800000u) return 0;
    return num__out(1.0 / sqrt((double)num__f32(a)), fl);
}

uint32_t num_sin_f32(uint32_t a, unsigned fl)
{
    a = num__in(a, fl);
    if (num__nan32(a) || (a & 0x7fffffffu) == 0x7f800000u) return NUM__F32_QNAN;
    return num__out(sin((double)num__f32(a)), fl);
}

uint32_t num_cos_f32(uint32_t a, unsigned fl)
{
    a = num__in(a, fl);
    if (num__nan32(a) || (a & 0x7fffffffu) == 0x7f800000u) return NUM__F32_QNAN;
    return num__out(cos((double)num__f32(a)), fl);
}

uint32_t num_lg2_f32(uint32_t a, unsigned fl)
{
    a = num__in(a, fl);
    if (num__nan32(a)) return NUM__F32_QNAN;
    if ((a & 0x7fffffffu) == 0) return 0xff800000u;                 /* +-0 -> -inf */
    if (a & S32) return NUM__F32_QNAN;
    if (a == 0x7f800000u) return a;
    return num__out(log2((double)num__f32(a)), fl);
}

uint32_t num_ex2_f32(uint32_t a, unsigned fl)
{
    a = num__in(a, fl);
    if (num__nan32(a)) return NUM__F32_QNAN;
    if (a == 0xff800000u) return 0;                                 /* 2^-inf = +0 */
    return num__out(exp2((double)num__f32(a)), fl);
}

/* tanh.approx.f32 has no .ftz; subnormal inputs pass through (tanh x ~ x). */
uint32_t num_tanh_f32(uint32_t a, unsigned fl)
{
    a = num__in(a, fl);
    if (num__nan32(a)) return NUM__F32_QNAN;
    return num__out(tanh((double)num__f32(a)), fl);
}

/* ex2.approx.f16 supports subnormal inputs; ex2.approx.ftz.bf16 flushes
** subnormal inputs and results. */
uint16_t num_ex2_h(uint16_t a, int fmt, unsigned fl)
{
    int f = num__hfmt(fmt);
    if (fl & NUM_FTZ) a = (uint16_t)num__flush(f, a);
    if (num__is_nan(f, a)) return NUM__H_QNAN;
    double x = num__f32(num_h_to_f32(a, fmt));
    uint64_t d = num__from_f64(f, exp2(x), NUM__RNE);
    return (uint16_t)num__post(f, d, fl & NUM_FTZ);
}

uint16_t num_tanh_h(uint16_t a, int fmt, unsigned fl)
{
    int f = num__hfmt(fmt);
    if (fl & NUM_FTZ) a = (uint16_t)num__flush(f, a);
    if (num__is_nan(f, a)) return NUM__H_QNAN;
    double x = num__f32(num_h_to_f32(a, fmt));
    uint64_t d = num__from_f64(f, tanh(x), NUM__RNE);
    return (uint16_t)num__post(f, d, fl & NUM_FTZ);
}

/* ---- f64 ------------------------------------------------------------------ */

#define NUM__GROSS_NAN 0x7fffffff00000000ull   /* PTX ISA: canonical NaN of these */

/* The 1.11.20 word r (as the upper half of a double), rounded to nearest
** on its 20 fraction bits (ties away; the rounding of the hardware table
** is not documented), low word zero, subnormal results flushed. */
static uint64_t num__gross(double r)
{
    uint64_t b = num__u64(r);
    uint64_t s = b & 0x8000000000000000ull;
    b = ((b & 0x7fffffffffffffffull) + 0x80000000ull) & 0xffffffff00000000ull;
    if ((b >> 52) == 0) b = 0;                       /* ftz */
    return s | b;
}

/* rcp.approx.ftz.f64: d[63:32] = 1 / a[63:32] in 1.11.20, d[31:0] = 0;
** classification uses the upper word only.  Max relative error about
** 1.5 * 2^-20 (truncation of a to 20 fraction bits, rounding of d). */
uint64_t num__rcp_approx_f64(uint64_t a)
{
    uint64_t hi = a & 0xffffffff00000000ull, s = a & 0x8000000000000000ull;
    uint64_t e = (hi >> 52) & 0x7ff;
    if (e == 0x7ff) return (hi & 0x000fffff00000000ull) ? NUM__GROSS_NAN : s;  /* inf -> 0 */
    if (e == 0) return s | 0x7ff0000000000000ull;   /* 0, subnormal -> inf */
    return num__gross(1.0 / num__f64(hi));
}

/* rsqrt.approx.f64 (software, full double: 1/sqrt in two IEEE roundings,
** measured within 1.5 ulp) and, with NUM_FTZ,
** rsqrt.approx.ftz.f64 (upper word in, upper word out, as rcp above). */
uint64_t num_rsqrt_f64(uint64_t a, unsigned fl)
{
    uint64_t s = a & 0x8000000000000000ull;
    if (fl & NUM_FTZ) {
        uint64_t hi = a & 0xffffffff00000000ull, e = (hi >> 52) & 0x7ff;
        if (e == 0x7ff) {
            if (hi & 0x000fffff00000000ull) return NUM__GROSS_NAN;
            return s ? NUM__GROSS_NAN : 0;          /* -inf -> NaN, +inf -> +0 */
        }
        if (e == 0) return s | 0x7ff0000000000000ull; /* +-0, +-subnormal -> +-inf */
        if (s) return NUM__GROSS_NAN;
        return num__gross(1.0 / sqrt(num__f64(hi)));
    }
    if (num__nanf64(a)) return num__nan64(a, 0, 0, 1);
    if ((a << 1) == 0) return s | 0x7ff0000000000000ull;
    if (s) return NUM__F64_DEFAULT_NAN;
    if (a == 0x7ff0000000000000ull) return 0;
    return num__u64(1.0 / sqrt(num__f64(a)));
}
