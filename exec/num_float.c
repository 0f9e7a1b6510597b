/*
** num_float.c -- IEEE arithmetic of f32, f64, f16 and bf16 with PTX's
** rounding modifiers, .ftz, .sat and .relu; min/max, abs/neg/copysign,
** comparisons and testp.
**
** Round-to-nearest f32/f64 add, sub, mul, div, sqrt and fma use the host's
** IEEE arithmetic (correctly rounded, so bit-identical to the exact core;
** this assumes the host FPU stays in round-to-nearest, which tpsim never
** changes); round-to-nearest f16/bf16 add, sub, mul (and f16 fma) compute
** exactly in double or float and round once (see num__hop); everything else
** goes through the exact core (num_core.c).  NaN results: f32 0x7fffffff, f16/bf16 0x7fff (the PTX ISA
** says single and half precision return "an unspecified NaN"; these are the
** values NVIDIA GPUs produce), f64 keeps payloads (see num_impl.h).
*/
#include "num_impl.h"
#include <math.h>

#define S32 0x80000000u
#define S64 0x8000000000000000ull

/* ---- f32 ------------------------------------------------------------------ */

/* f32 result: canonical NaN, then .ftz/.relu/.sat. */
static inline uint32_t num__fin32(uint32_t d, unsigned fl)
{
    if (TP_LIKELY(!(fl & (NUM_FTZ | NUM_SAT | NUM_RELU))))
        return num__nan32(d) ? NUM__F32_QNAN : d;
    return (uint32_t)num__post(NUM__F32, d, fl);
}

static inline void num__in32(uint32_t *a, unsigned fl)
{
    if (fl & NUM_FTZ) *a = num__ftz32(*a);
}

static uint32_t num__addsub32(uint32_t a, uint32_t b, bool neg, int rnd, unsigned fl)
{
    num__in32(&a, fl);
    num__in32(&b, fl);
    int r = num__rmode(rnd);
    uint32_t d;
    if (r == NUM__RNE)
        d = num__u32(neg ? num__f32(a) - num__f32(b) : num__f32(a) + num__f32(b));
    else
        d = (uint32_t)num__add(NUM__F32, a, b, neg, r, fl);
    return num__fin32(d, fl);
}

uint32_t num_add_f32(uint32_t a, uint32_t b, int rnd, unsigned fl)
{
    return num__addsub32(a, b, false, rnd, fl);
}

uint32_t num_sub_f32(uint32_t a, uint32_t b, int rnd, unsigned fl)
{
    return num__addsub32(a, b, true, rnd, fl);
}

uint32_t num_mul_f32(uint32_t a, uint32_t b, int rnd, unsigned fl)
{
    num__in32(&a, fl);
    num__in32(&b, fl);
    int r = num__rmode(rnd);
    uint32_t d = r == NUM__RNE ? num__u32(num__f32(a) * num__f32(b))
                               : (uint32_t)num__mul(NUM__F32, a, b, r, fl);
    return num__fin32(d, fl);
}

uint32_t num_fma_f32(uint32_t a, uint32_t b, uint32_t c, int rnd, unsigned fl)
{
    num__in32(&a, fl);
    num__in32(&b, fl);
    num__in32(&c, fl);
    int r = num__rmode(rnd);
    uint32_t d = r == NUM__RNE ? num__u32(fmaf(num__f32(a), num__f32(b), num__f32(c)))
                               : (uint32_t)num__fma(NUM__F32, a, b, c, r, fl);
    return num__fin32(d, fl);
}

/* div.approx.f32: d = a * (1/b).  The PTX ISA bounds it to 2 ulp for
** |b| in [2^-126, 2^126] and specifies that for 2^126 < |b| < 2^128 the
** result is NaN when a is infinite and a sign-preserving zero otherwise
** (the reciprocal flushes to zero there).  Elsewhere this returns the
** quotient computed in double and rounded once to f32 (within 0.5 ulp plus
** 2^-29 ulp: well inside the bound). */
static uint32_t num__div_approx32(uint32_t a, uint32_t b, unsigned fl)
{
    num__in32(&a, fl);
    num__in32(&b, fl);
    uint32_t mb = b & 0x7fffffffu;
    if (mb > 0x7e800000u && mb < 0x7f800000u) {          /* 2^126 < |b| < inf */
        if (num__nan32(a) || (a & 0x7fffffffu) == 0x7f800000u) return NUM__F32_QNAN;
        return (a ^ b) & S32;
    }
    double q = (double)num__f32(a) / (double)num__f32(b);
    return num__fin32(num__u32((float)q), fl);
}

uint32_t num_div_f32(uint32_t a, uint32_t b, int rnd, unsigned fl)
{
    if (fl & NUM_APPROX) return num__div_approx32(a, b, fl);
    num__in32(&a, fl);
    num__in32(&b, fl);
    int r = num__rmode(rnd);
    uint32_t d;
    if (r == NUM__RNE || (fl & NUM_FULL)) {
        /* div.full.f32: "max 2 ulp across the full range"; this gives the
        ** correctly rounded quotient, which is within that bound. */
        d = num__u32(num__f32(a) / num__f32(b));
    } else {
        d = (uint32_t)num__div(NUM__F32, a, b, r, fl);
    }
    return num__fin32(d, fl);
}

uint32_t num_rcp_f32(uint32_t a, int rnd, unsigned fl)
{
    /* rcp.approx.f32 (max 1 ulp): the correctly rounded reciprocal. */
    if (fl & NUM_APPROX) rnd = PTX_RND_RN;
    return num_div_f32(0x3f800000u, a, rnd, fl & ~(unsigned)(NUM_APPROX | NUM_FULL));
}

uint32_t num_sqrt_f32(uint32_t a, int rnd, unsigned fl)
{
    num__in32(&a, fl);
    int r = (fl & NUM_APPROX) ? NUM__RNE : num__rmode(rnd);
    uint32_t d;
    if (r == NUM__RNE) {
        /* sqrt.approx.f32 (max rel. error 2^-23): correctly rounded. */
        if (num__nan32(a)) d = NUM__F32_QNAN;
        else if ((a & S32) && (a & 0x7fffffffu)) d = NUM__F32_QNAN;  /* sqrt(-x) */
        else d = num__u32(sqrtf(num__f32(a)));
    } else {
        d = (uint32_t)num__sqrt(NUM__F32, a, r, fl);
    }
    return num__fin32(d, fl);
}

/* Min/max after the PTX pseudo-code: the non-NaN operand if only one is NaN,
** NaN if both are (or either, with .NaN); -0.0 < +0.0; .xorsign.abs
** compares magnitudes and gives the result the XOR of the input signs
** unless it is NaN.  lt(x, y) is "x < y" with -0 < +0 on non-NaN values. */
static uint64_t num__minmax(int f, uint64_t a, uint64_t b, unsigned fl, bool max)
{
    const num__fmt *F = &num__fmts[f];
    uint64_t sbit = 1ull << (F->mbits + F->ebits + F->shift);
    if (fl & NUM_FTZ) {
        a = num__flush(f, a);
        b = num__flush(f, b);
    }
    uint64_t xs = (a ^ b) & sbit;
    if (fl & NUM_XORSIGN) {
        a &= ~sbit;
        b &= ~sbit;
    }
    bool an = num__is_nan(f, a), bn = num__is_nan(f, b);
    uint64_t d;
    if (an || bn) {
        if ((fl & NUM_NAN) || (an && bn))
            return f == NUM__F64 ? num__nan64(a, b, 0, 2) : F->qnan;
        d = an ? b : a;
    } else {
        /* Order on sign-magnitude bits: map to a monotonic unsigned key. */
        uint64_t ka = (a & sbit) ? ~a & (2 * sbit - 1) : a | sbit;
        uint64_t kb = (b & sbit) ? ~b & (2 * sbit - 1) : b | sbit;
        d = (max ? ka > kb : ka < kb) ? a : b;
    }
    if (fl & NUM_XORSIGN) d = (d & ~sbit) | xs;
    if (fl & (NUM_RELU | NUM_SAT)) d = num__post(f, d, fl & (NUM_RELU | NUM_SAT));
    return d;
}

/* The common f32 forms (no .xorsign/.relu/.sat) without the generic code. */
static inline uint32_t num__minmax32(uint32_t a, uint32_t b, unsigned fl, bool max)
{
    if (fl & (NUM_XORSIGN | NUM_RELU | NUM_SAT)) return (uint32_t)num__minmax(NUM__F32, a, b, fl, max);
    num__in32(&a, fl);
    num__in32(&b, fl);
    bool an = num__nan32(a), bn = num__nan32(b);
    if (TP_UNLIKELY(an || bn)) {
        if ((fl & NUM_NAN) || (an && bn)) return NUM__F32_QNAN;
        return an ? b : a;
    }
    uint32_t ka = (a & S32) ? ~a : a | S32, kb = (b & S32) ? ~b : b | S32;  /* -0 < +0 */
    return (max ? ka > kb : ka < kb) ? a : b;
}

uint32_t num_min_f32(uint32_t a, uint32_t b, unsigned fl)
{
    return num__minmax32(a, b, fl, false);
}

uint32_t num_max_f32(uint32_t a, uint32_t b, unsigned fl)
{
    return num__minmax32(a, b, fl, true);
}

/* abs/neg.f32: "NaN input yields an unspecified NaN" -> the canonical NaN. */
uint32_t num_abs_f32(uint32_t a, unsigned fl)
{
    num__in32(&a, fl);
    return num__nan32(a) ? NUM__F32_QNAN : a & ~S32;
}

uint32_t num_neg_f32(uint32_t a, unsigned fl)
{
    num__in32(&a, fl);
    return num__nan32(a) ? NUM__F32_QNAN : a ^ S32;
}

uint32_t num_copysign_f32(uint32_t a, uint32_t b)
{
    return (b & ~S32) | (a & S32);
}

/* ---- f64 ------------------------------------------------------------------ */

/* f64 result: NaN payload per num__nan64, then .sat/.relu if asked. */
static inline uint64_t num__fin64(uint64_t d, uint64_t a, uint64_t b, uint64_t c, int n, unsigned fl)
{
    if (num__nanf64(d)) d = num__nan64(a, b, c, n);
    if (fl & (NUM_SAT | NUM_RELU)) d = num__post(NUM__F64, d, fl & (NUM_SAT | NUM_RELU));
    return d;
}

uint64_t num_add_f64(uint64_t a, uint64_t b, int rnd, unsigned fl)
{
    int r = num__rmode(rnd);
    uint64_t d = r == NUM__RNE ? num__u64(num__f64(a) + num__f64(b)) : num__add(NUM__F64, a, b, false, r, fl);
    return num__fin64(d, a, b, 0, 2, fl);
}

uint64_t num_sub_f64(uint64_t a, uint64_t b, int rnd, unsigned fl)
{
    int r = num__rmode(rnd);
    uint64_t d = r == NUM__RNE ? num__u64(num__f64(a) - num__f64(b)) : num__add(NUM__F64, a, b, true, r, fl);
    return num__fin64(d, a, b, 0, 2, fl);
}

uint64_t num_mul_f64(uint64_t a, uint64_t b, int rnd, unsigned fl)
{
    int r = num__rmode(rnd);
    uint64_t d = r == NUM__RNE ? num__u64(num__f64(a) * num__f64(b)) : num__mul(NUM__F64, a, b, r, fl);
    return num__fin64(d, a, b, 0, 2, fl);
}

uint64_t num_fma_f64(uint64_t a, uint64_t b, uint64_t c, int rnd, unsigned fl)
{
    int r = num__rmode(rnd);
    uint64_t d = r == NUM__RNE ? num__u64(fma(num__f64(a), num__f64(b), num__f64(c)))
                               : num__fma(NUM__F64, a, b, c, r, fl);
    return num__fin64(d, a, b, c, 3, fl);
}

uint64_t num_div_f64(uint64_t a, uint64_t b, int rnd, unsigned fl)
{
    int r = num__rmode(rnd);
    uint64_t d = r == NUM__RNE ? num__u64(num__f64(a) / num__f64(b)) : num__div(NUM__F64, a, b, r, fl);
    return num__fin64(d, a, b, 0, 2, fl);
}

uint64_t num_sqrt_f64(uint64_t a, int rnd, unsigned fl)
{
    int r = num__rmode(rnd);
    uint64_t d;
    if (r != NUM__RNE) d = num__sqrt(NUM__F64, a, r, fl);
    else if (num__nanf64(a) || ((a & S64) && (a << 1))) d = num__nan64(a, 0, 0, 1);
    else d = num__u64(sqrt(num__f64(a)));
    return num__fin64(d, a, 0, 0, 1, fl);
}

uint64_t num_rcp_f64(uint64_t a, int rnd, unsigned fl)
{
    if (fl & NUM_APPROX) return num__rcp_approx_f64(a);
    return num_div_f64(0x3ff0000000000000ull, a, rnd, fl);
}

uint64_t num_min_f64(uint64_t a, uint64_t b, unsigned fl)
{
    return num__minmax(NUM__F64, a, b, fl & ~(unsigned)NUM_FTZ, false);
}

uint64_t num_max_f64(uint64_t a, uint64_t b, unsigned fl)
{
    return num__minmax(NUM__F64, a, b, fl & ~(unsigned)NUM_FTZ, true);
}

/* abs.f64: "NaN input is passed through unchanged" (PTX ISA 9.7.3.9). */
uint64_t num_abs_f64(uint64_t a)
{
    return num__nanf64(a) ? a : a & ~S64;
}

/* neg.f64 flips the sign of every input, NaN included (the ISA leaves the
** NaN unspecified; IEEE 754 negate is a sign flip). */
uint64_t num_neg_f64(uint64_t a)
{
    return a ^ S64;
}

uint64_t num_copysign_f64(uint64_t a, uint64_t b)
{
    return (b & ~S64) | (a & S64);
}

/* ---- f16 / bf16 ------------------------------------------------------------ */

uint32_t num_h_to_f32(uint16_t a, int fmt)
{
    if (fmt == NUM_BF16) return (uint32_t)a << 16;
    uint32_t s = (uint32_t)(a & 0x8000u) << 16, e = (a >> 10) & 0x1f, m = a & 0x3ffu;
    if (e == 0x1f) return s | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0); /* quiet NaN keeps payload */
    if (e) return s | ((e + 112) << 23) | (m << 13);
    if (!m) return s;
    int l = 31 - __builtin_clz(m);          /* subnormal: m * 2^-24 */
    return s | ((uint32_t)(l + 103) << 23) | ((m << (23 - l)) & 0x7fffffu);
}

static uint16_t num__hop(int op, uint16_t a, uint16_t b, uint16_t c, int fmt, int rnd, unsigned fl)
{
    int f = num__hfmt(fmt);
    if (fl & NUM_FTZ) {
        a = (uint16_t)num__flush(f, a);
        b = (uint16_t)num__flush(f, b);
        c = (uint16_t)num__flush(f, c);
    }
    int r = num__rmode(rnd);
    uint64_t d;
    if (r == NUM__RNE && !(fl & NUM_SATFINITE)) {
        /* Fast forms, each rounded once.  f16: sums, products and a*b + c
        ** of f16 values are exact in double (a*b has 22 bits, and a result
        ** that does not overflow spans fewer than 53 bits: 2^17 .. 2^-48).
        ** bf16 products (16 bits) are exact in double too.  bf16 sums go
        ** through f32: a sum in bf16's subnormal range is exact in f32, and
        ** elsewhere rounding to 24 bits, then to 8, equals rounding once to
        ** 8 since 24 >= 2*8 + 2 (Figueroa, "When is double rounding
        ** innocuous?", 1995).  bf16 fma takes the exact core. */
        double x = num__f32(num_h_to_f32(a, fmt)), y = num__f32(num_h_to_f32(b, fmt));
        if (f == NUM__F16) {
            double z = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y
                     : x * y + num__f32(num_h_to_f32(c, fmt));
            return (uint16_t)num__post_c(f, num__d2h_rn(num__u64(z)), fl);
        }
        if (op == 2) return (uint16_t)num__post_c(f, num__d2bf_rn(num__u64(x * y)), fl);
        if (op < 2) {
            float z = op == 0 ? (float)x + (float)y : (float)x - (float)y;
            return (uint16_t)num__post_c(f, num__f2bf_rn(num__u32(z)), fl);
        }
    }
    switch (op) {
    case 0: d = num__add(f, a, b, false, r, fl); break;
    case 1: d = num__add(f, a, b, true, r, fl); break;
    case 2: d = num__mul(f, a, b, r, fl); break;
    default: d = num__fma(f, a, b, c, r, fl); break;
    }
    return (uint16_t)num__post(f, d, fl);
}

uint16_t num_add_h(uint16_t a, uint16_t b, int fmt, int rnd, unsigned fl)
{
    return num__hop(0, a, b, 0, fmt, rnd, fl);
}

uint16_t num_sub_h(uint16_t a, uint16_t b, int fmt, int rnd, unsigned fl)
{
    return num__hop(1, a, b, 0, fmt, rnd, fl);
}

uint16_t num_mul_h(uint16_t a, uint16_t b, int fmt, int rnd, unsigned fl)
{
    return num__hop(2, a, b, 0, fmt, rnd, fl);
}

uint16_t num_fma_h(uint16_t a, uint16_t b, uint16_t c, int fmt, int rnd, unsigned fl)
{
    return num__hop(3, a, b, c, fmt, rnd, fl);
}

uint16_t num_min_h(uint16_t a, uint16_t b, int fmt, unsigned fl)
{
    return (uint16_t)num__minmax(num__hfmt(fmt), a, b, fl, false);
}

uint16_t num_max_h(uint16_t a, uint16_t b, int fmt, unsigned fl)
{
    return (uint16_t)num__minmax(num__hfmt(fmt), a, b, fl, true);
}

uint16_t num_abs_h(uint16_t a, int fmt, unsigned fl)
{
    int f = num__hfmt(fmt);
    if (fl & NUM_FTZ) a = (uint16_t)num__flush(f, a);
    return num__is_nan(f, a) ? NUM__H_QNAN : a & 0x7fffu;
}

uint16_t num_neg_h(uint16_t a, int fmt, unsigned fl)
{
    int f = num__hfmt(fmt);
    if (fl & NUM_FTZ) a = (uint16_t)num__flush(f, a);
    return num__is_nan(f, a) ? NUM__H_QNAN : a ^ 0x8000u;
}

/* ---- comparisons and classes --------------------------------------------- */

static bool num__cmp_d(double a, double b, int cmp)
{
    bool un = isnan(a) || isnan(b);
    switch (cmp) {
    case PTX_CMP_EQ: return !un && a == b;
    case PTX_CMP_NE: return !un && a != b;
    case PTX_CMP_LT: case PTX_CMP_LO: return !un && a < b;
    case PTX_CMP_LE: case PTX_CMP_LS: return !un && a <= b;
    case PTX_CMP_GT: case PTX_CMP_HI: return !un && a > b;
    case PTX_CMP_GE: case PTX_CMP_HS: return !un && a >= b;
    case PTX_CMP_EQU: return un || a == b;
    case PTX_CMP_NEU: return un || a != b;
    case PTX_CMP_LTU: return un || a < b;
    case PTX_CMP_LEU: return un || a <= b;
    case PTX_CMP_GTU: return un || a > b;
    case PTX_CMP_GEU: return un || a >= b;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return false;
    }
}

bool num_cmp_f32(uint32_t a, uint32_t b, int cmp, unsigned fl)
{
    num__in32(&a, fl);
    num__in32(&b, fl);
    return num__cmp_d(num__f32(a), num__f32(b), cmp);
}

bool num_cmp_f64(uint64_t a, uint64_t b, int cmp)
{
    return num__cmp_d(num__f64(a), num__f64(b), cmp);
}

bool num_cmp_h(uint16_t a, uint16_t b, int fmt, int cmp, unsigned fl)
{
    int f = num__hfmt(fmt);
    if (fl & NUM_FTZ) {
        a = (uint16_t)num__flush(f, a);
        b = (uint16_t)num__flush(f, b);
    }
    return num__cmp_d(num__f32(num_h_to_f32(a, fmt)), num__f32(num_h_to_f32(b, fmt)), cmp);
}

bool num_cmp_int(uint64_t a, uint64_t b, int cmp, ptx_type t)
{
    unsigned w = ptx_type_size(t) * 8;
    if (w == 0 || w > 64) w = 64;
    uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1;
    a &= m;
    b &= m;
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    if (w < 64) {
        sa = (int64_t)(a << (64 - w)) >> (64 - w);
        sb = (int64_t)(b << (64 - w)) >> (64 - w);
    }
    bool s = ptx_type_is_signed(t);
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT: return s ? sa < sb : a < b;
    case PTX_CMP_LE: return s ? sa <= sb : a <= b;
    case PTX_CMP_GT: return s ? sa > sb : a > b;
    case PTX_CMP_GE: return s ? sa >= sb : a >= b;
    case PTX_CMP_LO: return a < b;
    case PTX_CMP_LS: return a <= b;
    case PTX_CMP_HI: return a > b;
    case PTX_CMP_HS: return a >= b;
    default: return false;
    }
}

/* testp: zeros count as normal ("as a special case, positive and negative
** zero are considered normal numbers"). */
bool num_testp(uint64_t a, ptx_type t, int sub)
{
    int f = t == PTX_T_F64 ? NUM__F64 : t == PTX_T_F16 ? NUM__F16 : t == PTX_T_BF16 ? NUM__BF16 : NUM__F32;
    num__val v = num__unpack(f, a);
    bool sn = num__is_sub(f, a);
    switch (sub) {
    case PTX_SUB_FINITE: return v.cls == NUM__FIN || v.cls == NUM__ZERO;
    case PTX_SUB_INFINITE: return v.cls == NUM__INF;
    case PTX_SUB_NUMBER: return v.cls != NUM__NAN;
    case PTX_SUB_NOTANUMBER: return v.cls == NUM__NAN;
    case PTX_SUB_NORMAL: return v.cls == NUM__ZERO || (v.cls == NUM__FIN && !sn);
    case PTX_SUB_SUBNORMAL: return sn;
    default: return false;
    }
}

uint64_t num_nan_f64(uint64_t a, uint64_t b, uint64_t c, int n)
{
    return num__nan64(a, b, c, n);
}
