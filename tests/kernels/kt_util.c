/*
** kt_util.c -- the runner's helpers: the deterministic generator, float
** comparisons, and host arithmetic in a chosen rounding mode (the driver
** calls and integer comparisons are tests/harness's).
*/
#include "kt.h"

#include <fenv.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- deterministic data (splitmix64) --------------------------------------- */

void kt_seed(kt_rng *r, uint64_t seed) { r->s = seed; }

uint64_t kt_next(kt_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t kt_u32(kt_rng *r) { return (uint32_t)(kt_next(r) >> 32); }

uint32_t kt_below(kt_rng *r, uint32_t n) { return (uint32_t)(((kt_next(r) >> 32) * (uint64_t)n) >> 32); }

uint32_t kt_f32_bits(kt_rng *r)
{
    static const uint32_t special[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fffffff,
        0x00000001, 0x80000001, 0x007fffff, 0x00400000, 0x00800000, 0x80800000,
        0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000, 0x4b000000,
        0x4b7fffff, 0x3effffff, 0x34000000, 0x33800000,
    };
    uint32_t k = kt_below(r, 16);
    if (k == 0) return special[kt_below(r, (uint32_t)(sizeof special / sizeof special[0]))];
    if (k == 1) return (kt_u32(r) & 0x807fffff);                      /* subnormal or zero */
    if (k == 2) {                                                      /* small integer */
        float f = (float)((int32_t)kt_below(r, 2001) - 1000);
        return kt_fbits(f);
    }
    if (k <= 9) {                                                      /* moderate exponent */
        uint32_t e = 127 - 20 + kt_below(r, 41);
        return (kt_u32(r) & 0x807fffff) | (e << 23);
    }
    uint32_t u = kt_u32(r);                                            /* anything finite */
    if (((u >> 23) & 0xff) == 0xff) u &= 0xbfffffff;
    return u;
}

uint64_t kt_f64_bits(kt_rng *r)
{
    static const uint64_t special[] = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
        0xfff0000000000000ull, 0x7ff8000000000000ull, 0x0000000000000001ull,
        0x800fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
        0x3ff0000000000000ull, 0xbff0000000000000ull, 0x4330000000000000ull,
        0x3fe0000000000000ull, 0x3cb0000000000000ull,
    };
    uint32_t k = kt_below(r, 16);
    if (k == 0) return special[kt_below(r, (uint32_t)(sizeof special / sizeof special[0]))];
    if (k == 1) return kt_next(r) & 0x800fffffffffffffull;
    if (k <= 9) {
        uint64_t e = 1023 - 40 + kt_below(r, 81);
        return (kt_next(r) & 0x800fffffffffffffull) | (e << 52);
    }
    uint64_t u = kt_next(r);
    if (((u >> 52) & 0x7ff) == 0x7ff) u &= 0xbfffffffffffffffull;
    return u;
}

float kt_f32_range(kt_rng *r, float lo, float hi)
{
    double t = (double)(kt_next(r) >> 11) * (1.0 / 9007199254740992.0);
    float f = (float)(lo + (hi - lo) * t);
    if (f >= hi) f = lo;
    return f;
}

/* ---- bits ---------------------------------------------------------------- */

uint32_t kt_fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
float kt_bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
uint64_t kt_dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
double kt_bitsd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
bool kt_isnan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
bool kt_isnan64(uint64_t u) { return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* ---- comparisons ----------------------------------------------------------- */

kt_res kt_cmp_f32_in(th_ctx *c, const char *what, const uint32_t *got, const uint32_t *exp,
                     const uint32_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] == exp[i] || (kt_isnan32(got[i]) && kt_isnan32(exp[i]))) continue;
        if (in)
            return th_fail(c, "%s[%zu] (input 0x%08" PRIx32 "): got 0x%08" PRIx32 " (%.9g) expected 0x%08" PRIx32 " (%.9g)",
                           what, i, in[i], got[i], (double)kt_bitsf(got[i]), exp[i], (double)kt_bitsf(exp[i]));
        return th_fail(c, "%s[%zu]: got 0x%08" PRIx32 " (%.9g) expected 0x%08" PRIx32 " (%.9g)",
                       what, i, got[i], (double)kt_bitsf(got[i]), exp[i], (double)kt_bitsf(exp[i]));
    }
    return KT_PASS;
}

kt_res kt_cmp_f32(th_ctx *c, const char *what, const uint32_t *got, const uint32_t *exp, size_t n)
{
    return kt_cmp_f32_in(c, what, got, exp, NULL, n);
}

kt_res kt_cmp_f64(th_ctx *c, const char *what, const uint64_t *got, const uint64_t *exp, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] == exp[i] || (kt_isnan64(got[i]) && kt_isnan64(exp[i]))) continue;
        return th_fail(c, "%s[%zu]: got 0x%016" PRIx64 " (%.17g) expected 0x%016" PRIx64 " (%.17g)",
                       what, i, got[i], kt_bitsd(got[i]), exp[i], kt_bitsd(exp[i]));
    }
    return KT_PASS;
}

/* ---- host arithmetic in a rounding mode ------------------------------------ */

static const int kt_fe_modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* Each body: switch the mode, read the operands from volatile objects, do
** the operation, store to a volatile, restore.  The volatile accesses keep
** the operation between the two fesetround calls. */
#define KT_IN_MODE(T, mode, expr)                                              \
    do {                                                                       \
        volatile T kt_res_;                                                    \
        fesetround(kt_fe_modes[(mode) & 3]);                                   \
        kt_res_ = (expr);                                                      \
        fesetround(FE_TONEAREST);                                              \
        return kt_res_;                                                        \
    } while (0)

float kt_fadd(float a, float b, int mode)
{ volatile float x = a, y = b; KT_IN_MODE(float, mode, x + y); }
float kt_fsub(float a, float b, int mode)
{ volatile float x = a, y = b; KT_IN_MODE(float, mode, x - y); }
float kt_fmul(float a, float b, int mode)
{ volatile float x = a, y = b; KT_IN_MODE(float, mode, x * y); }
float kt_fdiv(float a, float b, int mode)
{ volatile float x = a, y = b; KT_IN_MODE(float, mode, x / y); }
float kt_fsqrt(float a, int mode)
{ volatile float x = a; KT_IN_MODE(float, mode, sqrtf(x)); }
float kt_ffma(float a, float b, float d, int mode)
{ volatile float x = a, y = b, z = d; KT_IN_MODE(float, mode, fmaf(x, y, z)); }
double kt_dadd(double a, double b, int mode)
{ volatile double x = a, y = b; KT_IN_MODE(double, mode, x + y); }
double kt_dmul(double a, double b, int mode)
{ volatile double x = a, y = b; KT_IN_MODE(double, mode, x * y); }
double kt_ddiv(double a, double b, int mode)
{ volatile double x = a, y = b; KT_IN_MODE(double, mode, x / y); }
double kt_dsqrt(double a, int mode)
{ volatile double x = a; KT_IN_MODE(double, mode, sqrt(x)); }
double kt_dfma(double a, double b, double d, int mode)
{ volatile double x = a, y = b, z = d; KT_IN_MODE(double, mode, fma(x, y, z)); }
/* Conversions are rounded in software (kt_fmt): compilers turn some of them
** into instruction sequences that are only right in the default mode (clang
** converts uint64 to double by adding and subtracting 2^52, which gives -0
** for 0 when rounding down). */
float kt_d2f(double a, int mode)
{
    kt_num x;
    int cls = kt_decode(kt_dbits(a), KT_F64, &x);
    if (cls == KT_NAN) return kt_bitsf(0x7fffffffu);
    if (cls == KT_INF) return kt_bitsf((uint32_t)kt_fmt_inf(KT_F32, x.neg));
    return kt_bitsf((uint32_t)kt_round(x, KT_F32, mode));
}
static kt_num kt_int_num(int neg, uint64_t mag)
{
    kt_num x;
    x.neg = neg;
    x.mag = mag;
    x.e = 0;
    return x;
}
float kt_i2f(int64_t a, int mode)
{
    uint64_t mag = a < 0 ? 0ull - (uint64_t)a : (uint64_t)a;
    return kt_bitsf((uint32_t)kt_round(kt_int_num(a < 0, mag), KT_F32, mode));
}
float kt_u2f(uint64_t a, int mode) { return kt_bitsf((uint32_t)kt_round(kt_int_num(0, a), KT_F32, mode)); }
double kt_i2d(int64_t a, int mode)
{
    uint64_t mag = a < 0 ? 0ull - (uint64_t)a : (uint64_t)a;
    return kt_bitsd(kt_round(kt_int_num(a < 0, mag), KT_F64, mode));
}
double kt_u2d(uint64_t a, int mode) { return kt_bitsd(kt_round(kt_int_num(0, a), KT_F64, mode)); }

bool kt_fenv_works(void)
{
    /* 1/3 rounds differently toward zero and upward; 2^-30 vanishes into
    ** 1 + 2^-30 in rn but not in ru; int64 -> f32 of 2^24+1 needs rounding
    ** (this is the conversion the compiler may do in software). */
    if (kt_fbits(kt_fdiv(1.0f, 3.0f, KT_RZ)) + 1 != kt_fbits(kt_fdiv(1.0f, 3.0f, KT_RU))) return false;
    if (kt_fadd(1.0f, 0x1p-30f, KT_RN) != 1.0f) return false;
    if (kt_fadd(1.0f, 0x1p-30f, KT_RU) != 0x1.000002p0f) return false;
    if (kt_dadd(1.0, 0x1p-60, KT_RU) != 0x1.0000000000001p0) return false;
    if (kt_dadd(-1.0, -0x1p-60, KT_RD) != -0x1.0000000000001p0) return false;
    if (kt_i2f(16777217, KT_RU) != 16777218.0f || kt_i2f(16777217, KT_RD) != 16777216.0f) return false;
    if (kt_u2f(0xffffffffffffffffull, KT_RZ) != 0x1.fffffep63f) return false;
    if (kt_u2d(0xffffffffffffffffull, KT_RZ) != 0x1.fffffffffffffp63) return false;
    if (kt_i2d(-9007199254740993ll, KT_RD) != -9007199254740994.0) return false;
    if (kt_dbits(kt_u2d(0, KT_RD)) != 0) return false;
    if (kt_fbits(kt_d2f(0x1.000001p0, KT_RN)) != 0x3f800000u || kt_d2f(-0x1.0000010000001p0, KT_RZ) != -1.0f) return false;
    if (kt_dfma(1.0 + 0x1p-52, 1.0 + 0x1p-52, 0.0, KT_RZ) != 1.0 + 0x1p-51) return false;
    if (kt_ffma(1.0f + 0x1p-23f, 1.0f - 0x1p-24f, 0.0f, KT_RU) != 1.0f + 0x1p-23f) return false;
    return true;
}

/* ---- PTX integer rules ----------------------------------------------------- */

uint64_t kt_cvt_f2i(double x, int mode, int bits, bool is_signed, bool src_f64)
{
    if (isnan(x)) return (src_f64 || bits == 64) ? 1ull << (bits - 1) : 0;
    double r;
    switch (mode) {
    case KT_RZ: r = trunc(x); break;
    case KT_RD: r = floor(x); break;
    case KT_RU: r = ceil(x); break;
    default: {
        r = floor(x);
        double d = x - r; /* exact: x and floor(x) share the exponent range */
        if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0)) r += 1.0;
        break;
    }
    }
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    double lim = ldexp(1.0, is_signed ? bits - 1 : bits); /* 2^(bits-1) or 2^bits */
    if (is_signed) {
        if (r >= lim) return mask >> 1;                          /* MAXINT */
        if (r < -lim) return (mask >> 1) + 1;                    /* MININT, at the width */
        return (uint64_t)(int64_t)r & mask;
    }
    if (r >= lim) return mask;
    if (r <= 0.0) return 0;
    return (uint64_t)r;
}
