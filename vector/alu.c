/*
** alu.c -- the element operations of the vector machine and the packed
** (MMX) instructions: the one place where element widths are handled.
**
** - vec_alu(sem, w, x, y) computes one element: x and y are w-bit values
**   (w = 8, 16, 32 or 64) held zero-extended in 64 bits, and so is the
**   result.  A vector instruction applies it to each of its active elements
**   at width VPW (mach.c writes that loop once); a packed instruction to
**   each w-bit field of its two F registers.
** - Signed operations read the w bits as two's complement.  Saturating ones
**   clamp the exact result to the range of the width: signed
**   [-2^(w-1), 2^(w-1) - 1], unsigned [0, 2^w - 1].  Everything else wraps
**   modulo 2^w.
** - Shifts take the whole count y as an unsigned number: a count >= w gives
**   0 for SLL and SRL and w copies of the sign bit for SRA (Intel's rule
**   for PSLLW & co; the vector shifts follow it).
** - Compares give 1 or 0; vec_packed turns 1 into a field of all ones.
** - FP operations are IEEE 754 doubles, round to nearest even (the host's),
**   and exist only at w = 64.
** - vec_packed's shapes follow Intel's definitions with x as the
**   destination operand and y as the source (vec_ops.def documents each).
*/
#include "vec.h"

static inline uint64_t wmask(unsigned w) { return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }

/* The w-bit value x as a signed number. */
static inline int64_t sx(uint64_t x, unsigned w)
{
    if (w >= 64) return (int64_t)x;
    uint64_t sign = (uint64_t)1 << (w - 1);
    return (int64_t)((x ^ sign) - sign);
}

/* v >> s, arithmetic (s < 64), without relying on the C implementation's
** right shift of negative numbers. */
static inline int64_t asr(int64_t v, unsigned s) { return v < 0 ? ~(~v >> s) : v >> s; }

static inline double f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static inline uint64_t b64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* Signed saturation of v (exact, |v| < 2^64 as __int128) to w bits. */
static uint64_t sat_s(__int128 v, unsigned w)
{
    __int128 hi = ((__int128)1 << (w - 1)) - 1, lo = -hi - 1;
    if (v > hi) v = hi;
    if (v < lo) v = lo;
    return (uint64_t)(int64_t)v & wmask(w);
}

static uint64_t sat_u(__int128 v, unsigned w)
{
    __int128 hi = ((__int128)1 << w) - 1;
    if (v > hi) v = hi;
    if (v < 0) v = 0;
    return (uint64_t)v;
}

uint64_t vec_alu(int sem, unsigned w, uint64_t x, uint64_t y)
{
    uint64_t m = wmask(w);
    switch ((vec_sem)sem) {
    case VEC_E_ADD: return (x + y) & m;
    case VEC_E_SUB: return (x - y) & m;
    case VEC_E_ADDSS: return sat_s((__int128)sx(x, w) + sx(y, w), w);
    case VEC_E_SUBSS: return sat_s((__int128)sx(x, w) - sx(y, w), w);
    case VEC_E_ADDUS: return sat_u((__int128)x + y, w);
    case VEC_E_SUBUS: return sat_u((__int128)x - (__int128)y, w);
    case VEC_E_MULLO: return (x * y) & m;
    case VEC_E_MULHI: {
        __int128 p = (__int128)sx(x, w) * sx(y, w);
        return (uint64_t)(p >> w) & m;
    }
    case VEC_E_AND: return x & y;
    case VEC_E_ANDN: return ~x & y & m;
    case VEC_E_OR: return x | y;
    case VEC_E_XOR: return x ^ y;
    case VEC_E_SLL: return y >= w ? 0 : (x << y) & m;
    case VEC_E_SRL: return y >= w ? 0 : x >> y;
    case VEC_E_SRA: return (uint64_t)asr(sx(x, w), y >= w ? w - 1 : (unsigned)y) & m;
    case VEC_E_EQ: return x == y;
    case VEC_E_NE: return x != y;
    case VEC_E_GT: return sx(x, w) > sx(y, w);
    case VEC_E_LT: return sx(x, w) < sx(y, w);
    case VEC_E_GE: return sx(x, w) >= sx(y, w);
    case VEC_E_LE: return sx(x, w) <= sx(y, w);
    case VEC_E_GTU: return x > y;
    case VEC_E_LTU: return x < y;
    case VEC_E_GEU: return x >= y;
    case VEC_E_LEU: return x <= y;
    case VEC_E_FADD: return b64(f64(x) + f64(y));
    case VEC_E_FSUB: return b64(f64(x) - f64(y));
    case VEC_E_FMUL: return b64(f64(x) * f64(y));
    case VEC_E_FDIV: return b64(f64(x) / f64(y));
    case VEC_E_FEQ: return f64(x) == f64(y);
    case VEC_E_FNE: return f64(x) != f64(y);
    case VEC_E_FGT: return f64(x) > f64(y);
    case VEC_E_FLT: return f64(x) < f64(y);
    case VEC_E_FGE: return f64(x) >= f64(y);
    case VEC_E_FLE: return f64(x) <= f64(y);
    case VEC_E_SX: return (uint64_t)sx(x & m, w);
    case VEC_E_ZX: return x & m;
    case VEC_E_NONE:
    case VEC_E_PACKSS:
    case VEC_E_PACKUS:
    case VEC_E_UNPKL:
    case VEC_E_UNPKH:
    case VEC_E_MADD: break;
    }
    TP_ASSERT(!"vec_alu: not an element operation");
    return 0;
}

static inline uint64_t field(uint64_t r, unsigned j, unsigned w) { return w >= 64 ? r : (r >> (j * w)) & wmask(w); }
static inline uint64_t place(uint64_t v, unsigned j, unsigned w) { return w >= 64 ? v : (v & wmask(w)) << (j * w); }

static bool is_compare(int sem) { return sem >= VEC_E_EQ && sem <= VEC_E_LEU; }

uint64_t vec_packed(int sem, unsigned w, uint64_t x, uint64_t y)
{
    unsigned n = 64 / w, h = n / 2;
    uint64_t r = 0;
    switch (sem) {
    case VEC_E_PACKSS:
    case VEC_E_PACKUS:
        /* n w-bit elements of x, then of y, each to w/2 bits */
        for (unsigned j = 0; j < 2 * n; j++) {
            int64_t v = sx(field(j < n ? x : y, j % n, w), w);
            uint64_t e = sem == VEC_E_PACKSS ? sat_s(v, w / 2) : sat_u(v, w / 2);
            r |= place(e, j, w / 2);
        }
        return r;
    case VEC_E_UNPKL:
    case VEC_E_UNPKH: {
        unsigned base = sem == VEC_E_UNPKL ? 0 : h;
        for (unsigned j = 0; j < h; j++) {
            r |= place(field(x, base + j, w), 2 * j, w);
            r |= place(field(y, base + j, w), 2 * j + 1, w);
        }
        return r;
    }
    case VEC_E_MADD:
        for (unsigned k = 0; k < h; k++) {
            int64_t p = sx(field(x, 2 * k, w), w) * sx(field(y, 2 * k, w), w) +
                        sx(field(x, 2 * k + 1, w), w) * sx(field(y, 2 * k + 1, w), w);
            r |= place((uint64_t)p, k, 2 * w);
        }
        return r;
    default:
        for (unsigned j = 0; j < n; j++) {
            uint64_t yj = sem == VEC_E_SLL || sem == VEC_E_SRL || sem == VEC_E_SRA ? y : field(y, j, w);
            uint64_t e = vec_alu(sem, w, field(x, j, w), yj);
            if (is_compare(sem)) e = e ? wmask(w) : 0;
            r |= place(e, j, w);
        }
        return r;
    }
}

unsigned vec_packed_width(int sem, unsigned w)
{
    switch (sem) {
    case VEC_E_PACKSS:
    case VEC_E_PACKUS: return w / 2;
    case VEC_E_MADD: return 2 * w;
    default: return w;
    }
}
