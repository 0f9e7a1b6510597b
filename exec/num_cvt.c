/*
** num_cvt.c -- cvt between every integer and float type (PTX ISA 9.7.9.21).
**
**   int -> int     truncate or sign/zero-extend; .sat clamps the source
**                  value to the destination range.
**   float -> int   round with .rni/.rzi/.rmi/.rpi (none: .rzi), clamp to
**                  the destination range (always: ".sat is redundant");
**                  NaN gives 0, except that it gives 1 << (width - 1) when
**                  the source is .f64 or the destination is 64 bits (PTX
**                  ISA 9.x: "MININT for signed type, (MAXINT >> 1) + 1 for
**                  unsigned").
**   int -> float   one rounding with .rn/.rz/.rm/.rp (none: .rn).
**   float -> float one rounding (f64 -> f16 is NOT done through f32); .rni
**                  etc. on same-size types round to an integral value;
**                  .satfinite, .relu, .sat as in num_impl.h.  .ftz applies
**                  to f32 inputs and f32 results only.
** NaN results are the destination's canonical NaN, except an f64 result,
** which keeps the input's payload (quieted, left-aligned), as the
** double-precision units do.
*/
#include "num_impl.h"
#include <math.h>

/* Format of a float type, or -1. */
static int num__tfmt(ptx_type t)
{
    switch (t) {
    case PTX_T_F64: return NUM__F64;
    case PTX_T_F32: return NUM__F32;
    case PTX_T_F16: case PTX_T_F16X2: return NUM__F16;
    case PTX_T_BF16: case PTX_T_BF16X2: return NUM__BF16;
    case PTX_T_TF32: return NUM__TF32;
    default: return -1;
    }
}

static unsigned num__width(ptx_type t)
{
    unsigned w = ptx_type_size(t) * 8;
    return w == 0 || w > 64 ? 64 : w;
}

/* The low w bits of x, sign- or zero-extended to 64 bits. */
static uint64_t num__ext(uint64_t x, unsigned w, bool sgn)
{
    if (w >= 64) return x;
    x &= (1ull << w) - 1;
    if (sgn && (x >> (w - 1))) x |= ~0ull << w;
    return x;
}

static uint64_t num__cvt_ii(uint64_t a, ptx_type dst, ptx_type src, unsigned fl)
{
    unsigned sw = num__width(src), dw = num__width(dst);
    bool ss = ptx_type_is_signed(src), ds = ptx_type_is_signed(dst);
    uint64_t x = num__ext(a, sw, ss);
    if (fl & NUM_SAT) {
        num__i128 v = ss ? (num__i128)(int64_t)x : (num__i128)x;
        num__i128 lo = ds ? -((num__i128)1 << (dw - 1)) : 0;
        num__i128 hi = ds ? ((num__i128)1 << (dw - 1)) - 1 : ((num__i128)1 << dw) - 1;
        if (v < lo) v = lo;
        if (v > hi) v = hi;
        x = (uint64_t)v;
    }
    return num__ext(x, dw, ds);
}

static uint64_t num__cvt_fi(uint64_t a, ptx_type dst, int sf, int rnd, unsigned fl)
{
    unsigned w = num__width(dst);
    bool sgn = ptx_type_is_signed(dst);
    uint64_t maxv = sgn ? (w == 64 ? (uint64_t)INT64_MAX : (1ull << (w - 1)) - 1)
                        : (w == 64 ? ~0ull : (1ull << w) - 1);
    uint64_t minmag = sgn ? 1ull << (w - 1) : 0;       /* |MININT| */
    if (sf == NUM__F32 && (fl & NUM_FTZ)) a = num__ftz32((uint32_t)a);
    num__val v = num__unpack(sf, a);
    if (v.cls == NUM__NAN) {
        if (sf != NUM__F64 && w != 64) return 0;
        return num__ext(1ull << (w - 1), w, sgn);
    }
    /* Integer rounding is mandatory; a float rounding mode given instead
    ** is read as its integer counterpart, none as .rzi. */
    int r = rnd == PTX_RND_NONE ? NUM__RZ : num__rmode(rnd);
    uint64_t mag;
    bool fits = v.cls == NUM__INF ? false : num__round_int(&v, r, &mag);
    if (!v.sign) return num__ext(fits && mag <= maxv ? mag : maxv, w, sgn);
    if (fits && mag == 0) return 0;
    if (!fits || mag >= minmag) return num__ext(sgn ? 0 - minmag : 0, w, sgn);
    return num__ext(0 - mag, w, sgn);
}

/* Result post-processing for a float destination: .ftz only when the
** destination is f32. */
static uint64_t num__fpost(int df, uint64_t d, unsigned fl)
{
    unsigned pf = fl & (NUM_SAT | NUM_RELU);
    if (df == NUM__F32) pf |= fl & NUM_FTZ;
    return num__post(df, d, pf);
}

static uint64_t num__cvt_if(uint64_t a, int df, ptx_type src, int rnd, unsigned fl)
{
    unsigned w = num__width(src);
    bool neg = false;
    uint64_t x = num__ext(a, w, ptx_type_is_signed(src));
    if (ptx_type_is_signed(src) && (int64_t)x < 0) {
        neg = true;
        x = 0 - x;
    }
    uint64_t d = num__round(df, neg, 0, x, num__rmode(rnd), fl & NUM_SATFINITE);
    return num__fpost(df, d, fl);
}

/* NaN of a float -> f64: payload left-aligned and quieted. */
static uint64_t num__nan_to_f64(int sf, uint64_t a)
{
    const num__fmt *F = &num__fmts[sf];
    uint64_t c = a >> F->shift;
    uint64_t frac = c & ((1ull << F->mbits) - 1);
    uint64_t s = (c >> (F->mbits + F->ebits)) & 1;
    return (s << 63) | 0x7ff8000000000000ull | (frac << (52 - F->mbits));
}

static uint64_t num__cvt_ff(uint64_t a, int df, int sf, int rnd, unsigned fl)
{
    if (sf == NUM__F32 && (fl & NUM_FTZ)) a = num__ftz32((uint32_t)a);
    if (rnd >= PTX_RND_RNI && rnd <= PTX_RND_RPI) {
        /* Round to an integral value (same-size types; anything else is
        ** rounded to integral, then converted with .rn). */
        a = num__rint(sf, a, num__rmode(rnd));
        rnd = PTX_RND_RN;
    }
    num__val v = num__unpack(sf, a);
    uint64_t d;
    if (v.cls == NUM__NAN) {
        if (fl & NUM_SAT) return 0;
        d = df == NUM__F64 ? num__nan_to_f64(sf, a) : num__fmts[df].qnan;
    } else if (sf == NUM__F32 && df == NUM__F64) {
        d = num__u64((double)num__f32((uint32_t)a));        /* exact */
    } else if (sf == NUM__F64 && df == NUM__F32 && num__rmode(rnd) == NUM__RNE && !(fl & NUM_SATFINITE)) {
        d = num__u32((float)num__f64(a));                    /* host: one rounding */
    } else if (v.cls == NUM__INF) {
        d = (fl & NUM_SATFINITE) ? num__maxfin(df, v.sign) : num__inf(df, v.sign);
    } else if (v.cls == NUM__ZERO) {
        d = num__zero(df, v.sign);
    } else {
        d = num__round(df, v.sign, v.exp, v.sig, num__rmode(rnd), fl & NUM_SATFINITE);
    }
    return num__fpost(df, d, fl);
}

/* Fast forms of the most common conversions, or false to take the general
** path.  Each gives exactly what the general path gives (the tests compare
** both against the same references). */
static bool num__cvt_fast(uint64_t a, ptx_type dst, ptx_type src, int rnd, unsigned fl, uint64_t *out)
{
    if (fl & NUM_SATFINITE) return false;
    bool rn = rnd == PTX_RND_NONE || rnd == PTX_RND_RN;
    if (src == PTX_T_F32) {
        uint32_t x = (uint32_t)a;
        if (fl & NUM_FTZ) x = num__ftz32(x);
        if (rn && dst == PTX_T_F16) {
            *out = num__post_c(NUM__F16, num__f2h_rn(x), fl & (NUM_SAT | NUM_RELU));
            return true;
        }
        if (rn && dst == PTX_T_BF16) {
            *out = num__post_c(NUM__BF16, num__f2bf_rn(x), fl & (NUM_SAT | NUM_RELU));
            return true;
        }
        if (dst == PTX_T_S32 || dst == PTX_T_U32 || dst == PTX_T_S64) {
            float f = num__f32(x);
            if (!(fabsf(f) < 0x1p31f)) return false;   /* NaN, inf, large: general path */
            switch (rnd) {
            case PTX_RND_NONE: case PTX_RND_RZI: f = truncf(f); break;
            case PTX_RND_RNI: f = rintf(f); break;     /* host mode is nearest-even */
            case PTX_RND_RMI: f = floorf(f); break;
            case PTX_RND_RPI: f = ceilf(f); break;
            default: return false;
            }
            int64_t v = (int64_t)f;
            if (dst == PTX_T_S32) v = v > INT32_MAX ? INT32_MAX : v;
            else if (dst == PTX_T_U32) v = v < 0 ? 0 : v;
            *out = (uint64_t)v;
            return true;
        }
        return false;
    }
    if (rn && src == PTX_T_F64 && (dst == PTX_T_F16 || dst == PTX_T_BF16)) {
        uint16_t h = dst == PTX_T_F16 ? num__d2h_rn(a) : num__d2bf_rn(a);
        *out = num__post_c(dst == PTX_T_F16 ? NUM__F16 : NUM__BF16, h, fl & (NUM_SAT | NUM_RELU));
        return true;
    }
    if ((src == PTX_T_F16 || src == PTX_T_BF16) && dst == PTX_T_F32) {
        uint32_t d = num_h_to_f32((uint16_t)a, src == PTX_T_BF16 ? NUM_BF16 : NUM_F16);
        if (num__nan32(d)) d = NUM__F32_QNAN;
        *out = num__post_c(NUM__F32, d, fl & (NUM_SAT | NUM_RELU | NUM_FTZ));
        return true;
    }
    if (rn && (dst == PTX_T_F32 || dst == PTX_T_F64)) {
        /* integer -> float: the host conversion rounds to nearest even */
        double d;
        float f;
        switch (src) {
        case PTX_T_S32: f = (float)(int32_t)a; d = (double)(int32_t)a; break;
        case PTX_T_U32: f = (float)(uint32_t)a; d = (double)(uint32_t)a; break;
        case PTX_T_S64: f = (float)(int64_t)a; d = (double)(int64_t)a; break;
        case PTX_T_U64: f = (float)a; d = (double)a; break;
        default: return false;
        }
        *out = dst == PTX_T_F32 ? num__post_c(NUM__F32, num__u32(f), fl & NUM_SAT)
                                : num__post_c(NUM__F64, num__u64(d), fl & NUM_SAT);
        return true;
    }
    return false;
}

uint64_t num_cvt(uint64_t a, ptx_type dst, ptx_type src, int rnd, unsigned fl)
{
    uint64_t r;
    if (num__cvt_fast(a, dst, src, rnd, fl, &r)) return r;
    int df = num__tfmt(dst), sf = num__tfmt(src);
    /* A tf32 source is an f32 word whose low bits are ignored by the
    ** consumers; read it as f32. */
    if (sf == NUM__TF32) sf = NUM__F32;
    if (sf >= 0 && sf != NUM__F64) a &= sf == NUM__F32 ? 0xffffffffull : 0xffffull;
    if (df < 0 && sf < 0) return num__cvt_ii(a, dst, src, fl);
    if (df < 0) return num__cvt_fi(a, dst, sf, rnd, fl);
    if (sf < 0) return num__cvt_if(a, df, src, rnd, fl);
    return num__cvt_ff(a, df, sf, rnd, fl);
}
