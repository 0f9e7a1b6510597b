/*
** num_ref.h -- an independent reference for the tests of exec/num_*.c.
**
** Exact values are arrays of bits (one byte per bit, weight 2^(i+REF_LO)),
** so sums, products and fused multiply-adds of any f64 operands are held
** exactly; quotients and square roots are developed bit by bit (long
** division, restoring square root) far past the rounding point, with a
** sticky flag for the rest.  Rounding to a format reads those bits one at
** a time.  Nothing here shares code or method with the implementation
** (which works on shifted 128-bit integers and the host FPU); the tests
** also compare against the host FPU under fesetround() where it applies.
*/
#ifndef NUM_REF_H
#define NUM_REF_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define REF_FN static __attribute__((unused))

typedef struct ref_fmt { int mbits, ebits, shift; } ref_fmt;
static const ref_fmt REF_F64 = {52, 11, 0}, REF_F32 = {23, 8, 0}, REF_F16 = {10, 5, 0},
                     REF_BF16 = {7, 8, 0}, REF_TF32 = {10, 8, 13};

enum { REF_FIN, REF_INF, REF_NAN };
enum { REF_RN, REF_RZ, REF_RM, REF_RP, REF_RNA };

#define REF_LO (-2300)
#define REF_N 4700
typedef struct ref_num {
    int kind, neg, sticky;
    uint8_t b[REF_N];
} ref_num;

REF_FN int ref_bias(ref_fmt f) { return (1 << (f.ebits - 1)) - 1; }

REF_FN void ref_clear(ref_num *x)
{
    x->kind = REF_FIN;
    x->neg = 0;
    x->sticky = 0;
    memset(x->b, 0, sizeof x->b);
}

REF_FN int ref_is_zero(const ref_num *x)
{
    if (x->kind != REF_FIN || x->sticky) return 0;
    for (int i = 0; i < REF_N; i++)
        if (x->b[i]) return 0;
    return 1;
}

/* Adds the integer m * 2^e to the magnitude (no carry past the top). */
REF_FN void ref_put(ref_num *x, uint64_t m, int e)
{
    for (int i = 0; i < 64; i++) {
        if (!((m >> i) & 1)) continue;
        int k = e + i - REF_LO;
        while (x->b[k]) { x->b[k] = 0; k++; }
        x->b[k] = 1;
    }
}

REF_FN void ref_decode(ref_fmt f, uint64_t bits, ref_num *x)
{
    ref_clear(x);
    uint64_t c = bits >> f.shift;
    uint64_t frac = c & ((1ull << f.mbits) - 1);
    int e = (int)((c >> f.mbits) & ((1u << f.ebits) - 1));
    x->neg = (int)((c >> (f.mbits + f.ebits)) & 1);
    if (e == (1 << f.ebits) - 1) {
        x->kind = frac ? REF_NAN : REF_INF;
        return;
    }
    uint64_t m = e ? frac | (1ull << f.mbits) : frac;
    int lsb = (e ? e : 1) - ref_bias(f) - f.mbits;
    ref_put(x, m, lsb);
}

REF_FN int ref_cmpmag(const ref_num *x, const ref_num *y)
{
    for (int i = REF_N - 1; i >= 0; i--)
        if (x->b[i] != y->b[i]) return x->b[i] ? 1 : -1;
    return 0;
}

/* z = x + y for finite, exact (sticky never set on inputs here).  An exact
** zero gets sign zsign. */
REF_FN void ref_add(const ref_num *x, const ref_num *y, ref_num *z, int zsign)
{
    const ref_num *big = x, *small = y;
    int sub = x->neg != y->neg;
    if (sub && ref_cmpmag(x, y) < 0) { big = y; small = x; }
    int carry = 0;
    int neg = big->neg;
    uint8_t tmp[REF_N];
    for (int i = 0; i < REF_N; i++) {
        int v = sub ? big->b[i] - small->b[i] - carry : big->b[i] + small->b[i] + carry;
        if (v < 0) { v += 2; carry = 1; }
        else if (v > 1) { v -= 2; carry = 1; }
        else carry = 0;
        tmp[i] = (uint8_t)v;
    }
    ref_clear(z);
    memcpy(z->b, tmp, sizeof tmp);
    z->neg = neg;
    if (ref_is_zero(z)) z->neg = zsign;
}

/* Magnitude of a finite value as m * 2^e with m < 2^64 (for the small
** significands of decoded floats). */
REF_FN void ref_sig(const ref_num *x, uint64_t *m, int *e)
{
    int lo = -1, hi = -1;
    for (int i = 0; i < REF_N; i++)
        if (x->b[i]) { if (lo < 0) lo = i; hi = i; }
    *m = 0;
    *e = 0;
    if (lo < 0) return;
    for (int i = hi; i >= lo; i--) *m = (*m << 1) | x->b[i];
    *e = lo + REF_LO;
}

/* Adds the 128-bit integer m * 2^e to the magnitude. */
REF_FN void ref_put128(ref_num *x, unsigned __int128 m, int e)
{
    ref_put(x, (uint64_t)m, e);
    ref_put(x, (uint64_t)(m >> 64), e + 64);
}

/* z = x * y (finite): shift-and-add of the significands. */
REF_FN void ref_mul(const ref_num *x, const ref_num *y, ref_num *z)
{
    uint64_t mx, my;
    int ex, ey;
    ref_sig(x, &mx, &ex);
    ref_sig(y, &my, &ey);
    unsigned __int128 p = 0;
    for (int i = 0; i < 64; i++)
        if ((my >> i) & 1) p += (unsigned __int128)mx << i;
    ref_clear(z);
    z->neg = x->neg ^ y->neg;
    ref_put128(z, p, ex + ey);
}

/* z = x / y (finite, nonzero): restoring long division, one quotient bit
** per step, at least 72 bits; the remainder's nonzero-ness is the sticky. */
REF_FN void ref_div(const ref_num *x, const ref_num *y, ref_num *z)
{
    uint64_t mx, my;
    int ex, ey;
    ref_sig(x, &mx, &ex);
    ref_sig(y, &my, &ey);
    int s = 0;
    while (!((mx << s) >> 62)) s++;          /* mx << s in [2^62, 2^63) */
    /* dividend N = (mx << s) << 64 < 2^127; my < 2^54, so N / my > 2^72 */
    unsigned __int128 n = (unsigned __int128)(mx << s) << 64, q = 0, rem = 0;
    for (int i = 127; i >= 0; i--) {
        rem = (rem << 1) | (unsigned __int128)((n >> i) & 1);
        if (rem >= my) { rem -= my; q |= (unsigned __int128)1 << i; }
    }
    ref_clear(z);
    z->neg = x->neg ^ y->neg;
    ref_put128(z, q, ex - s - 64 - ey);
    z->sticky = rem != 0;
}

/* z = sqrt(x), x finite positive: digit-by-digit (restoring) square root,
** two input bits per result bit, 80 result bits past the binary point of
** the integer significand (so at least 80 significant bits even for a
** significand of 1); the final remainder is the sticky. */
REF_FN void ref_sqrt(const ref_num *x, ref_num *z)
{
    uint64_t m;
    int e;
    ref_sig(x, &m, &e);
    if (e & 1) { e--; m <<= 1; }            /* m * 2^e with e even */
    const int frac = 80;
    unsigned __int128 rem = 0, root = 0;
    for (int i = 32 + frac - 1; i >= 0; i--) {
        int sh = 2 * (i - frac);
        unsigned two = sh >= 0 ? (unsigned)((m >> sh) & 3) : 0;
        rem = (rem << 2) | two;
        unsigned __int128 t = (root << 2) | 1;
        root <<= 1;
        if (rem >= t) { rem -= t; root |= 1; }
    }
    ref_clear(z);
    ref_put128(z, root, e / 2 - frac);
    z->sticky = rem != 0;
}

/* Rounds a finite exact value to f in mode r.  satfinite: overflow gives
** the largest finite value. */
REF_FN uint64_t ref_round(const ref_num *x, ref_fmt f, int r, int satfinite)
{
    int bias = ref_bias(f), emin = 1 - bias, emax = bias;
    uint64_t sign = (uint64_t)x->neg << (f.mbits + f.ebits);
    int h = -1;
    for (int i = REF_N - 1; i >= 0; i--)
        if (x->b[i]) { h = i; break; }
    if (h < 0 && !x->sticky) return sign << f.shift;
    int E = h < 0 ? REF_LO - 1 : h + REF_LO;
    int Q = (E < emin ? emin : E) - f.mbits;          /* weight of the result lsb */
    int qi = Q - REF_LO;
    uint64_t kept = 0;
    for (int i = h; i >= qi && i >= 0; i--) kept = (kept << 1) | x->b[i];
    int rb = qi - 1 >= 0 && qi - 1 < REF_N ? x->b[qi - 1] : 0;
    int st = x->sticky;
    for (int i = qi - 2; i >= 0; i--)
        if (i < REF_N && x->b[i]) { st = 1; break; }
    int inc = 0;
    switch (r) {
    case REF_RN: inc = rb && (st || (kept & 1)); break;
    case REF_RNA: inc = rb; break;
    case REF_RZ: inc = 0; break;
    case REF_RM: inc = x->neg && (rb || st); break;
    case REF_RP: inc = !x->neg && (rb || st); break;
    }
    kept += inc;
    if (kept >> (f.mbits + 1)) { kept >>= 1; E++; if (E < emin) E = emin; }
    int normal = (kept >> f.mbits) & 1;
    if (normal && E < emin) E = emin;
    uint64_t maxe = (1ull << f.ebits) - 1;
    if (normal && E > emax) {
        int toinf = satfinite ? 0 : r == REF_RN || r == REF_RNA ? 1 : r == REF_RZ ? 0
                    : r == REF_RM ? x->neg : !x->neg;
        uint64_t mag = toinf ? maxe << f.mbits : (maxe << f.mbits) - 1;
        return (sign | mag) << f.shift;
    }
    uint64_t bexp = normal ? (uint64_t)(E + bias) : 0;
    return (sign | (bexp << f.mbits) | (kept & ((1ull << f.mbits) - 1))) << f.shift;
}

REF_FN int ref_isnan(ref_fmt f, uint64_t bits)
{
    uint64_t c = bits >> f.shift;
    return ((c >> f.mbits) & ((1ull << f.ebits) - 1)) == (1ull << f.ebits) - 1 &&
           (c & ((1ull << f.mbits) - 1)) != 0;
}

REF_FN int ref_issub(ref_fmt f, uint64_t bits)
{
    uint64_t c = bits >> f.shift;
    return ((c >> f.mbits) & ((1ull << f.ebits) - 1)) == 0 && (c & ((1ull << f.mbits) - 1)) != 0;
}

REF_FN uint64_t ref_signbit(ref_fmt f) { return 1ull << (f.mbits + f.ebits + f.shift); }
REF_FN uint64_t ref_infbits(ref_fmt f, int neg)
{
    return ((((1ull << f.ebits) - 1) << f.mbits) << f.shift) | (neg ? ref_signbit(f) : 0);
}

/* The correctly rounded IEEE result of op ('+', '*', 'f' fma, '/', 's'
** sqrt) on decoded inputs; returns 1 with *out set, or 0 if the result is
** NaN.  ftz flushes subnormal inputs (before) and results (after IEEE
** rounding). */
REF_FN int ref_op(int op, ref_fmt f, uint64_t a, uint64_t b, uint64_t c, int r, int ftz, uint64_t *out)
{
    static ref_num x, y, z, p, s;
    if (ftz) {
        if (ref_issub(f, a)) a &= ref_signbit(f);
        if (ref_issub(f, b)) b &= ref_signbit(f);
        if (ref_issub(f, c)) c &= ref_signbit(f);
    }
    ref_decode(f, a, &x);
    ref_decode(f, b, &y);
    ref_decode(f, c, &z);
    if (x.kind == REF_NAN || (op != 's' && y.kind == REF_NAN) || (op == 'f' && z.kind == REF_NAN))
        return 0;
    int zx = ref_is_zero(&x), zy = ref_is_zero(&y);
    uint64_t res;
    switch (op) {
    case '+':
        if (x.kind == REF_INF || y.kind == REF_INF) {
            if (x.kind == REF_INF && y.kind == REF_INF && x.neg != y.neg) return 0;
            res = ref_infbits(f, x.kind == REF_INF ? x.neg : y.neg);
            break;
        }
        ref_add(&x, &y, &s, (zx && zy) ? (x.neg == y.neg ? x.neg : r == REF_RM) : r == REF_RM);
        res = ref_round(&s, f, r, 0);
        break;
    case '*':
        if (x.kind == REF_INF || y.kind == REF_INF) {
            if (zx || zy) return 0;
            res = ref_infbits(f, x.neg ^ y.neg);
            break;
        }
        ref_mul(&x, &y, &s);
        s.neg = x.neg ^ y.neg;
        res = ref_round(&s, f, r, 0);
        break;
    case 'f':
        if (x.kind == REF_INF || y.kind == REF_INF) {
            if (zx || zy) return 0;
            if (z.kind == REF_INF && z.neg != (x.neg ^ y.neg)) return 0;
            res = ref_infbits(f, x.neg ^ y.neg);
            break;
        }
        if (z.kind == REF_INF) { res = ref_infbits(f, z.neg); break; }
        ref_mul(&x, &y, &p);
        p.neg = x.neg ^ y.neg;
        {
            int zp = ref_is_zero(&p), zz = ref_is_zero(&z);
            int zs = (zp && zz) ? (p.neg == z.neg ? p.neg : r == REF_RM) : r == REF_RM;
            ref_add(&p, &z, &s, zs);
        }
        res = ref_round(&s, f, r, 0);
        break;
    case '/':
        if (x.kind == REF_INF) {
            if (y.kind == REF_INF) return 0;
            res = ref_infbits(f, x.neg ^ y.neg);
            break;
        }
        if (y.kind == REF_INF) { res = (uint64_t)(x.neg ^ y.neg) * ref_signbit(f); break; }
        if (zy) {
            if (zx) return 0;
            res = ref_infbits(f, x.neg ^ y.neg);
            break;
        }
        if (zx) { res = (uint64_t)(x.neg ^ y.neg) * ref_signbit(f); break; }
        ref_div(&x, &y, &s);
        res = ref_round(&s, f, r, 0);
        break;
    default: /* sqrt */
        if (zx) { res = x.neg ? ref_signbit(f) : 0; break; }
        if (x.neg) return 0;
        if (x.kind == REF_INF) { res = ref_infbits(f, 0); break; }
        ref_sqrt(&x, &s);
        res = ref_round(&s, f, r, 0);
        break;
    }
    if (ftz && ref_issub(f, res)) res &= ref_signbit(f);
    *out = res;
    return 1;
}

/* ---- host FPU under a rounding mode: a second, hardware reference ------- */

REF_FN int ref_fe(int r)
{
    return r == REF_RZ ? FE_TOWARDZERO : r == REF_RM ? FE_DOWNWARD : r == REF_RP ? FE_UPWARD : FE_TONEAREST;
}

/* The operations read their operands from volatiles after fesetround()
** and store to a volatile before the mode is restored, so the compiler can
** neither fold them nor move them across the mode change. */
REF_FN uint32_t host_op32(int op, uint32_t a, uint32_t b, uint32_t c, int r)
{
    volatile float va, vb, vc, vr;
    memcpy((void *)&va, &a, 4);
    memcpy((void *)&vb, &b, 4);
    memcpy((void *)&vc, &c, 4);
    fesetround(ref_fe(r));
    switch (op) {
    case '+': vr = va + vb; break;
    case '-': vr = va - vb; break;
    case '*': vr = va * vb; break;
    case '/': vr = va / vb; break;
    case 's': vr = sqrtf(va); break;
    default: vr = fmaf(va, vb, vc); break;
    }
    fesetround(FE_TONEAREST);
    float f = vr;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

REF_FN uint64_t host_op64(int op, uint64_t a, uint64_t b, uint64_t c, int r)
{
    volatile double va, vb, vc, vr;
    memcpy((void *)&va, &a, 8);
    memcpy((void *)&vb, &b, 8);
    memcpy((void *)&vc, &c, 8);
    fesetround(ref_fe(r));
    switch (op) {
    case '+': vr = va + vb; break;
    case '-': vr = va - vb; break;
    case '*': vr = va * vb; break;
    case '/': vr = va / vb; break;
    case 's': vr = sqrt(va); break;
    default: vr = fma(va, vb, vc); break;
    }
    fesetround(FE_TONEAREST);
    double d = vr;
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* ---- random operands ------------------------------------------------------ */

static uint64_t ref_rng_state = 0x9e3779b97f4a7c15ull;
REF_FN uint64_t ref_rand(void)
{
    /* xorshift64* */
    uint64_t x = ref_rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    ref_rng_state = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* Random float bits of format f, biased toward edges: zeros, subnormals,
** the extreme exponents, all-ones/all-zeros fractions, inf and NaN. */
REF_FN uint64_t ref_rand_float(ref_fmt f)
{
    uint64_t r = ref_rand(), q = ref_rand();
    uint64_t maxe = (1ull << f.ebits) - 1, mm = (1ull << f.mbits) - 1;
    uint64_t e, m;
    switch (r % 16) {
    case 0: e = 0; break;
    case 1: e = 1; break;
    case 2: e = maxe - 1; break;
    case 3: e = (q >> 7) % 3 == 0 ? maxe : maxe - 1; break;
    case 4: case 5: e = (uint64_t)ref_bias(f) + (q >> 20) % 8 - 4; break;
    default: e = (q >> 11) % (maxe + 1); break;
    }
    switch ((r >> 8) % 8) {
    case 0: m = 0; break;
    case 1: m = mm; break;
    case 2: m = 1; break;
    case 3: m = mm & ~(ref_rand() & 0xff); break;
    default: m = ref_rand() & mm; break;
    }
    uint64_t s = (r >> 16) & 1;
    return ((s << (f.mbits + f.ebits)) | (e << f.mbits) | m) << f.shift;
}

#endif
