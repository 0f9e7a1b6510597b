/*
** kt_fmt.c -- exact rounding into binary floating-point formats (see
** kt.h).  Written from IEEE 754: the value is scaled so that its
** significand is an integer at the target precision, the discarded part is
** compared with half an ulp, and the mode decides.
*/
#include "kt.h"

#include <math.h>

const kt_fmt KT_F16 = {11, 5}, KT_BF16 = {8, 8}, KT_F32 = {24, 8}, KT_F64 = {53, 11};

static int kt_bias(kt_fmt f) { return (1 << (f.ebits - 1)) - 1; }

int kt_decode(uint64_t bits, kt_fmt f, kt_num *x)
{
    int fbits = f.p - 1;
    uint64_t frac = bits & ((1ull << fbits) - 1);
    uint64_t ex = (bits >> fbits) & ((1ull << f.ebits) - 1);
    x->neg = (int)((bits >> (fbits + f.ebits)) & 1);
    if (ex == (1ull << f.ebits) - 1) {
        x->mag = 0;
        x->e = 0;
        return frac ? KT_NAN : KT_INF;
    }
    if (ex == 0) {
        x->mag = frac;
        x->e = 1 - kt_bias(f) - fbits;
    } else {
        x->mag = frac | (1ull << fbits);
        x->e = (int)ex - kt_bias(f) - fbits;
    }
    return KT_FINITE;
}

static int kt_bitlen(unsigned __int128 v)
{
    int n = 0;
    while (v) { v >>= 1; n++; }
    return n;
}

uint64_t kt_fmt_nan(kt_fmt f)
{
    int fbits = f.p - 1;
    return (((1ull << f.ebits) - 1) << fbits) | ((1ull << fbits) - 1);
}

uint64_t kt_fmt_inf(kt_fmt f, int neg)
{
    int fbits = f.p - 1;
    return ((uint64_t)(neg != 0) << (fbits + f.ebits)) | (((1ull << f.ebits) - 1) << fbits);
}

uint64_t kt_round(kt_num x, kt_fmt f, int mode)
{
    int fbits = f.p - 1, bias = kt_bias(f);
    uint64_t sign = (uint64_t)(x.neg != 0) << (fbits + f.ebits);
    if (x.mag == 0) return sign;
    int top = x.e + kt_bitlen(x.mag) - 1;        /* exponent of the leading bit */
    int emin = 1 - bias;
    int q = (top > emin ? top : emin) - fbits;   /* exponent of the result's ulp */
    unsigned __int128 M;
    int cmp = -1, inexact = 0;                   /* discarded part vs half an ulp */
    if (x.e >= q) {
        M = x.mag << (x.e - q);
    } else {
        int s = q - x.e;
        unsigned __int128 rem, half;
        if (s > 128) {
            M = 0; inexact = 1; cmp = -1;
        } else {
            M = s == 128 ? 0 : x.mag >> s;
            rem = s == 128 ? x.mag : x.mag & ((((unsigned __int128)1) << s) - 1);
            half = ((unsigned __int128)1) << (s - 1);
            inexact = rem != 0;
            cmp = rem > half ? 1 : rem == half ? 0 : -1;
        }
    }
    switch (mode) {
    case KT_RN: if (cmp > 0 || (cmp == 0 && (M & 1))) M++; break;
    case KT_RD: if (x.neg && inexact) M++; break;
    case KT_RU: if (!x.neg && inexact) M++; break;
    default: break;
    }
    if (M == ((unsigned __int128)1) << f.p) { M >>= 1; q++; }
    uint64_t biased = M >= (((unsigned __int128)1) << fbits) ? (uint64_t)(q + fbits + bias) : 0;
    if (biased >= (1ull << f.ebits) - 1) {
        int to_inf = mode == KT_RN || (mode == KT_RD && x.neg) || (mode == KT_RU && !x.neg);
        if (to_inf) return kt_fmt_inf(f, x.neg);
        return sign | ((((1ull << f.ebits) - 2)) << fbits) | ((1ull << fbits) - 1);
    }
    return sign | (biased << fbits) | ((uint64_t)M & ((1ull << fbits) - 1));
}

kt_num kt_exact_add(kt_num x, kt_num y, int mode)
{
    kt_num r;
    if (x.mag == 0 && y.mag == 0) {              /* zeros: their exponents mean nothing */
        r = x;
        r.neg = (x.neg == y.neg) ? x.neg : (mode == KT_RD);
        return r;
    }
    if (x.mag == 0) return y;                    /* x + y is y exactly */
    if (y.mag == 0) return x;
    int e = x.e < y.e ? x.e : y.e;
    unsigned __int128 A = x.mag << (x.e - e), B = y.mag << (y.e - e);
    r.e = e;
    if (x.neg == y.neg) {
        r.mag = A + B;
        r.neg = x.neg;
    } else if (A >= B) {
        r.mag = A - B;
        r.neg = x.neg;
    } else {
        r.mag = B - A;
        r.neg = y.neg;
    }
    if (r.mag == 0) r.neg = (x.neg == y.neg) ? x.neg : (mode == KT_RD);
    return r;
}

kt_num kt_exact_mul(kt_num x, kt_num y)
{
    kt_num r;
    r.neg = x.neg ^ y.neg;
    r.mag = x.mag * y.mag;
    r.e = x.e + y.e;
    return r;
}

double kt_num_double(kt_num x)
{
    double v = ldexp((double)x.mag, x.e);
    return x.neg ? -v : v;
}
