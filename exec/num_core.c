/*
** num_core.c -- the exact core of the numeric semantics: unpacking, one
** correct rounding to any float format in any mode, and exact add, mul, fma,
** div and sqrt built on 128-bit integer significands.  See num_impl.h.
*/
#include "num_impl.h"
#include <math.h>

/*                       mbits ebits shift bias  produced NaN */
const num__fmt num__fmts[NUM__NFMT] = {
    [NUM__F64] = {52, 11, 0, 1023, NUM__F64_DEFAULT_NAN},
    [NUM__F32] = {23, 8, 0, 127, NUM__F32_QNAN},
    [NUM__F16] = {10, 5, 0, 15, NUM__H_QNAN},
    [NUM__BF16] = {7, 8, 0, 127, NUM__H_QNAN},
    /* tf32: the top 19 bits of an f32 word, the low 13 bits zero.  Its NaN
    ** is the f32 canonical NaN with those bits cleared. */
    [NUM__TF32] = {10, 8, 13, 127, 0x7fffe000u},
};

int num__rmode(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: case PTX_RND_RS: return NUM__RZ;
    case PTX_RND_RM: case PTX_RND_RMI: return NUM__RDN;
    case PTX_RND_RP: case PTX_RND_RPI: return NUM__RUP;
    case PTX_RND_RNA: return NUM__RNA;
    default: return NUM__RNE;
    }
}

static inline int num__msb128(num__u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

static inline unsigned num__signpos(const num__fmt *F) { return F->mbits + F->ebits + F->shift; }
static inline uint64_t num__emask(const num__fmt *F) { return (1ull << F->ebits) - 1; }

num__val num__unpack(int f, uint64_t bits)
{
    const num__fmt *F = &num__fmts[f];
    num__val v;
    uint64_t c = bits >> F->shift;
    uint64_t frac = c & ((1ull << F->mbits) - 1);
    uint64_t e = (c >> F->mbits) & num__emask(F);
    v.sign = (uint8_t)((c >> (F->mbits + F->ebits)) & 1);
    v.exp = 0;
    v.sig = 0;
    if (e == num__emask(F)) {
        v.cls = frac ? NUM__NAN : NUM__INF;
    } else if (e == 0) {
        v.cls = frac ? NUM__FIN : NUM__ZERO;
        v.sig = frac;
        v.exp = 1 - F->bias - F->mbits;
    } else {
        v.cls = NUM__FIN;
        v.sig = frac | (1ull << F->mbits);
        v.exp = (int32_t)e - F->bias - F->mbits;
    }
    return v;
}

bool num__is_nan(int f, uint64_t bits)
{
    const num__fmt *F = &num__fmts[f];
    uint64_t c = bits >> F->shift;
    return ((c >> F->mbits) & num__emask(F)) == num__emask(F) && (c & ((1ull << F->mbits) - 1));
}

bool num__is_sub(int f, uint64_t bits)
{
    const num__fmt *F = &num__fmts[f];
    uint64_t c = bits >> F->shift;
    return ((c >> F->mbits) & num__emask(F)) == 0 && (c & ((1ull << F->mbits) - 1));
}

uint64_t num__flush(int f, uint64_t bits)
{
    return num__is_sub(f, bits) ? bits & (1ull << num__signpos(&num__fmts[f])) : bits;
}

uint64_t num__zero(int f, int sign)
{
    return sign ? 1ull << num__signpos(&num__fmts[f]) : 0;
}

uint64_t num__inf(int f, int sign)
{
    const num__fmt *F = &num__fmts[f];
    return num__zero(f, sign) | (num__emask(F) << (F->mbits + F->shift));
}

uint64_t num__maxfin(int f, int sign)
{
    const num__fmt *F = &num__fmts[f];
    return num__inf(f, sign) - (1ull << F->shift);
}

/* The value that overflowed the format, rounded as IEEE 754 7.4 says. */
static uint64_t num__overflow(int f, int sign, int r, unsigned fl)
{
    bool inf;
    if (fl & NUM_SATFINITE) inf = false;
    else if (r == NUM__RZ) inf = false;
    else if (r == NUM__RDN) inf = sign;
    else if (r == NUM__RUP) inf = !sign;
    else inf = true;
    return inf ? num__inf(f, sign) : num__maxfin(f, sign);
}

uint64_t num__round(int f, int sign, int32_t exp, num__u128 sig, int r, unsigned fl)
{
    const num__fmt *F = &num__fmts[f];
    const int32_t mb = F->mbits, bias = F->bias, emin = 1 - bias;
    if (sig == 0) return num__zero(f, sign);
    int msb = num__msb128(sig);
    int32_t E = exp + msb;            /* value in [2^E, 2^(E+1)) */
    if (E > bias) return num__overflow(f, sign, r, fl);
    int32_t q = (E < emin ? emin : E) - mb;   /* exponent of the result's lsb */
    int32_t sh = q - exp;             /* bits of sig below the result's lsb */
    uint64_t kept;
    bool rb, st;                      /* round bit, sticky */
    if (sh <= 0) {
        kept = (uint64_t)(sig << -sh);
        rb = st = false;
    } else if (sh > msb + 1) {
        kept = 0;                     /* below half an ulp, not zero */
        rb = false;
        st = true;
    } else if (sh == 128) {           /* msb == 127 */
        kept = 0;
        rb = true;
        st = (sig << 1) != 0;
    } else {
        num__u128 rem = sig & (((num__u128)1 << sh) - 1);
        num__u128 half = (num__u128)1 << (sh - 1);
        kept = (uint64_t)(sig >> sh);
        rb = rem >= half;
        st = (rem & (half - 1)) != 0;
    }
    bool inc;
    switch (r) {
    case NUM__RZ: inc = false; break;
    case NUM__RDN: inc = sign && (rb || st); break;
    case NUM__RUP: inc = !sign && (rb || st); break;
    case NUM__RNA: inc = rb; break;
    default: inc = rb && (st || (kept & 1)); break;
    }
    kept += inc;
    /* A normal kept holds the hidden bit; adding it to (E + bias - 1) puts
    ** the exponent right, and a carry out of the fraction bumps it.  A
    ** subnormal that rounds up to 2^mb becomes the smallest normal. */
    uint64_t c = E >= emin ? ((uint64_t)(E + bias - 1) << mb) + kept : kept;
    if ((c >> mb) >= num__emask(F)) return num__overflow(f, sign, r, fl);
    return (c << F->shift) | num__zero(f, sign);
}

uint64_t num__post(int f, uint64_t bits, unsigned fl)
{
    const num__fmt *F = &num__fmts[f];
    uint64_t sbit = 1ull << num__signpos(F);
    if (num__is_nan(f, bits)) {
        if (fl & NUM_SAT) return 0;
        return f == NUM__F64 && !(fl & NUM_RELU) ? bits : F->qnan;
    }
    if ((fl & NUM_FTZ) && num__is_sub(f, bits)) bits &= sbit;
    /* .relu and .sat give +0.0 for every negative result, -0.0 included
    ** (hardware clamps with max(x, +0.0), and +0.0 > -0.0 there). */
    if ((fl & (NUM_RELU | NUM_SAT)) && (bits & sbit)) return 0;
    if (fl & NUM_SAT) {
        uint64_t one = (uint64_t)F->bias << (F->mbits + F->shift);
        if (bits > one) return one;
    }
    return bits;
}

uint64_t num__nan64(uint64_t a, uint64_t b, uint64_t c, int n)
{
    const uint64_t quiet = 1ull << 51;
    if (num__nanf64(a)) return a | quiet;
    if (n > 1 && num__nanf64(b)) return b | quiet;
    if (n > 2 && num__nanf64(c)) return c | quiet;
    return NUM__F64_DEFAULT_NAN;
}

static uint64_t num__opnan(int f, uint64_t a, uint64_t b, uint64_t c, int n)
{
    return f == NUM__F64 ? num__nan64(a, b, c, n) : num__fmts[f].qnan;
}

/* Sum of two finite nonzero values sa*ma*2^ea + sb*mb*2^eb (significands
** of at most 106 bits), rounded once.  The operand whose leading bit is
** higher is moved so that its leading bit is bit 125; the other is shifted
** to the same exponent, and bits shifted out of the bottom are "jammed"
** into bit 0.  A jam only happens when the other operand's leading bit is
** at most bit 104, so the exact result is above 2^124 and its rounding
** position is far above bit 1; since the larger operand's bit 0 is zero,
** the computed significand is odd exactly when the sum is inexact, and it
** lies strictly between the same two even integers as the exact sum, so it
** rounds the same way in every mode. */
static uint64_t num__add_fin(int f, int sa, int32_t ea, num__u128 ma, int sb, int32_t eb,
                             num__u128 mb, int r, unsigned fl)
{
    int la = num__msb128(ma), lb = num__msb128(mb);
    if (lb + eb > la + ea) {
        int ts = sa; sa = sb; sb = ts;
        int32_t te = ea; ea = eb; eb = te;
        num__u128 tm = ma; ma = mb; mb = tm;
        la = lb;
    }
    int s = 125 - la;
    ma <<= s;
    ea -= s;
    int32_t d = eb - ea;
    if (d >= 0) {
        mb <<= d;
    } else if (d <= -128) {
        mb = 1;
    } else {
        bool lost = (mb & (((num__u128)1 << -d) - 1)) != 0;
        mb = (mb >> -d) | (num__u128)lost;
    }
    num__u128 sum;
    int sign = sa;
    if (sa == sb) {
        sum = ma + mb;
    } else if (ma >= mb) {
        sum = ma - mb;
    } else {
        sum = mb - ma;
        sign = sb;
    }
    if (sum == 0) return num__zero(f, r == NUM__RDN); /* x - x: +0, or -0 in rm */
    return num__round(f, sign, ea, sum, r, fl);
}

uint64_t num__add(int f, uint64_t a, uint64_t b, bool negb, int r, unsigned fl)
{
    num__val x = num__unpack(f, a), y = num__unpack(f, b);
    if (x.cls == NUM__NAN || y.cls == NUM__NAN) return num__opnan(f, a, b, 0, 2);
    y.sign ^= negb;
    if (x.cls == NUM__INF) {
        if (y.cls == NUM__INF && y.sign != x.sign) return num__opnan(f, a, b, 0, 2);
        return num__inf(f, x.sign);
    }
    if (y.cls == NUM__INF) return num__inf(f, y.sign);
    if (x.cls == NUM__ZERO && y.cls == NUM__ZERO)
        return num__zero(f, x.sign == y.sign ? x.sign : r == NUM__RDN);
    if (x.cls == NUM__ZERO) return num__round(f, y.sign, y.exp, y.sig, r, fl);
    if (y.cls == NUM__ZERO) return num__round(f, x.sign, x.exp, x.sig, r, fl);
    return num__add_fin(f, x.sign, x.exp, x.sig, y.sign, y.exp, y.sig, r, fl);
}

uint64_t num__mul(int f, uint64_t a, uint64_t b, int r, unsigned fl)
{
    num__val x = num__unpack(f, a), y = num__unpack(f, b);
    if (x.cls == NUM__NAN || y.cls == NUM__NAN) return num__opnan(f, a, b, 0, 2);
    int sign = x.sign ^ y.sign;
    if (x.cls == NUM__INF || y.cls == NUM__INF) {
        if (x.cls == NUM__ZERO || y.cls == NUM__ZERO) return num__opnan(f, a, b, 0, 2);
        return num__inf(f, sign);
    }
    if (x.cls == NUM__ZERO || y.cls == NUM__ZERO) return num__zero(f, sign);
    return num__round(f, sign, x.exp + y.exp, x.sig * y.sig, r, fl);
}

uint64_t num__fma(int f, uint64_t a, uint64_t b, uint64_t c, int r, unsigned fl)
{
    num__val x = num__unpack(f, a), y = num__unpack(f, b), z = num__unpack(f, c);
    if (x.cls == NUM__NAN || y.cls == NUM__NAN || z.cls == NUM__NAN)
        return num__opnan(f, a, b, c, 3);
    int ps = x.sign ^ y.sign;
    if (x.cls == NUM__INF || y.cls == NUM__INF) {
        if (x.cls == NUM__ZERO || y.cls == NUM__ZERO) return num__opnan(f, a, b, c, 3);
        if (z.cls == NUM__INF && z.sign != ps) return num__opnan(f, a, b, c, 3);
        return num__inf(f, ps);
    }
    if (z.cls == NUM__INF) return num__inf(f, z.sign);
    if (x.cls == NUM__ZERO || y.cls == NUM__ZERO) {
        if (z.cls == NUM__ZERO) return num__zero(f, ps == z.sign ? ps : r == NUM__RDN);
        return num__round(f, z.sign, z.exp, z.sig, r, fl);
    }
    if (z.cls == NUM__ZERO) return num__round(f, ps, x.exp + y.exp, x.sig * y.sig, r, fl);
    return num__add_fin(f, ps, x.exp + y.exp, x.sig * y.sig, z.sign, z.exp, z.sig, r, fl);
}

uint64_t num__div(int f, uint64_t a, uint64_t b, int r, unsigned fl)
{
    num__val x = num__unpack(f, a), y = num__unpack(f, b);
    if (x.cls == NUM__NAN || y.cls == NUM__NAN) return num__opnan(f, a, b, 0, 2);
    int sign = x.sign ^ y.sign;
    if (x.cls == NUM__INF) {
        if (y.cls == NUM__INF) return num__opnan(f, a, b, 0, 2);
        return num__inf(f, sign);
    }
    if (y.cls == NUM__INF) return num__zero(f, sign);
    if (y.cls == NUM__ZERO) {
        if (x.cls == NUM__ZERO) return num__opnan(f, a, b, 0, 2);
        return num__inf(f, sign);
    }
    if (x.cls == NUM__ZERO) return num__zero(f, sign);
    /* x.sig << s is in [2^125, 2^126); y.sig < 2^53, so the quotient has at
    ** least 72 bits and the remainder's nonzero-ness is jammed into bit 0
    ** (see num__add_fin for why that is exact enough). */
    int s = 125 - num__msb128(x.sig);
    num__u128 n = x.sig << s;
    uint64_t d = (uint64_t)y.sig;
    num__u128 q = n / d;
    if (n - q * d) q |= 1;
    return num__round(f, sign, x.exp - s - y.exp, q, r, fl);
}

/* floor(sqrt(n)) for n < 2^126. */
static uint64_t num__isqrt(num__u128 n)
{
    uint64_t x = (uint64_t)sqrt((double)n);   /* within ~2^9 of the root */
    if (x == 0) x = 1;
    x = (uint64_t)(((num__u128)x + n / x) >> 1); /* one Newton step: within 1 */
    while ((num__u128)x * x > n) x--;
    while ((num__u128)(x + 1) * (x + 1) <= n) x++;
    return x;
}

uint64_t num__sqrt(int f, uint64_t a, int r, unsigned fl)
{
    num__val x = num__unpack(f, a);
    if (x.cls == NUM__NAN) return num__opnan(f, a, 0, 0, 1);
    if (x.cls == NUM__ZERO) return num__zero(f, x.sign);  /* sqrt(-0) = -0 */
    if (x.sign) return num__opnan(f, a, 0, 0, 1);
    if (x.cls == NUM__INF) return num__inf(f, 0);
    num__u128 m = x.sig;
    int32_t e = x.exp;
    if (e & 1) {
        m <<= 1;
        e -= 1;
    }
    int s = 124 - num__msb128(m);
    s &= ~1;                                   /* keep the exponent even */
    m <<= s;
    e -= s;
    uint64_t root = num__isqrt(m);            /* at least 61 bits */
    num__u128 rt = root;
    if (m - rt * rt) rt |= 1;
    return num__round(f, 0, e / 2, rt, r, fl);
}

bool num__round_int(const num__val *v, int r, uint64_t *mag)
{
    *mag = 0;
    if (v->cls != NUM__FIN) return v->cls == NUM__ZERO;
    int lm = num__msb128(v->sig);
    if (v->exp >= 0) {
        if (lm + v->exp >= 64) return false;
        *mag = (uint64_t)(v->sig << v->exp);
        return true;
    }
    int32_t sh = -v->exp;
    if (lm - sh >= 64) return false;
    uint64_t kept;
    bool rb, st;
    if (sh > lm + 1) {
        kept = 0;
        rb = false;
        st = true;
    } else if (sh == 128) {
        kept = 0;
        rb = true;
        st = (v->sig << 1) != 0;
    } else {
        num__u128 rem = v->sig & (((num__u128)1 << sh) - 1);
        num__u128 half = (num__u128)1 << (sh - 1);
        kept = (uint64_t)(v->sig >> sh);
        rb = rem >= half;
        st = (rem & (half - 1)) != 0;
    }
    bool inc;
    switch (r) {
    case NUM__RZ: inc = false; break;
    case NUM__RDN: inc = v->sign && (rb || st); break;
    case NUM__RUP: inc = !v->sign && (rb || st); break;
    case NUM__RNA: inc = rb; break;
    default: inc = rb && (st || (kept & 1)); break;
    }
    if (inc && kept == UINT64_MAX) return false;
    *mag = kept + inc;
    return true;
}

uint64_t num__rint(int f, uint64_t a, int r)
{
    num__val v = num__unpack(f, a);
    if (v.cls == NUM__NAN) return num__opnan(f, a, 0, 0, 1);
    if (v.cls != NUM__FIN || v.exp >= 0) return a;
    uint64_t mag;
    num__round_int(&v, r, &mag);   /* |x| < 2^(mbits+1): cannot overflow */
    return num__round(f, v.sign, 0, mag, NUM__RNE, 0);
}

uint64_t num__from_f64(int f, double x, int r)
{
    num__val v = num__unpack(NUM__F64, num__u64(x));
    switch (v.cls) {
    case NUM__NAN: return num__fmts[f].qnan;
    case NUM__INF: return num__inf(f, v.sign);
    case NUM__ZERO: return num__zero(f, v.sign);
    default: return num__round(f, v.sign, v.exp, v.sig, r, 0);
    }
}
