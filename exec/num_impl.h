/*
** num_impl.h -- internals shared by exec/num_*.c; not part of the contract
** (only exec/num_*.c include it).  Internal names carry the prefix num__.
**
** The exact core.  A finite float is unpacked to sign * sig * 2^exp with an
** integer significand sig (unsigned 128-bit).  Every correctly rounded result
** is computed from an exact (or exactly "jammed", see num__add_core) integer
** significand and then rounded ONCE by num__round to the destination format,
** in any rounding mode, with subnormals, overflow and .satfinite handled
** there.  The round-to-nearest f32/f64 paths of num_float.c use the host's
** IEEE single/double arithmetic instead (same results, much faster); the
** tests check both against an independent reference.
*/
#ifndef EXEC_NUM_IMPL_H
#define EXEC_NUM_IMPL_H

#include "num.h"
#include <float.h>

/* The host must evaluate float and double in their own precision (SSE2 on
** x86-64, or any IEEE FPU without excess precision); x87 would double-round. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "num: host float/double arithmetic must be IEEE binary32/binary64 (FLT_EVAL_METHOD 0)"
#endif

__extension__ typedef unsigned __int128 num__u128;
__extension__ typedef __int128 num__i128;

/* Float formats.  The compact encoding of a format is sign:exp:frac with
** ebits exponent bits and mbits fraction bits; it sits at bit 'shift' of its
** container (tf32 lives in the top 19 bits of a 32-bit word). */
enum { NUM__F64, NUM__F32, NUM__F16, NUM__BF16, NUM__TF32, NUM__NFMT };
typedef struct num__fmt {
    uint8_t mbits, ebits, shift;
    int16_t bias;
    uint64_t qnan;   /* the NaN an operation produces (container bits) */
} num__fmt;
extern const num__fmt num__fmts[NUM__NFMT];

/* Internal rounding modes. */
enum { NUM__RNE, NUM__RZ, NUM__RDN, NUM__RUP, NUM__RNA };
/* ptx_rnd -> internal mode.  NONE/RN/RNI: nearest even; RZ/RZI; RM/RMI;
** RP/RPI; RNA.  RS (stochastic, needs random bits the API does not carry)
** is treated as RZ, the rounding it degenerates to with zero random bits. */
int num__rmode(int rnd);

/* f64 NaN rules (PTX ISA 9.7.3: "NaN payloads are supported for
** double-precision instructions").  The result is the first NaN input, made
** quiet; a NaN made from non-NaN inputs (inf-inf, 0*inf, 0/0, sqrt(-x)) is
** 0xfff8000000000000, the value of CUDA's CUDART_NAN in math_constants.h,
** taken as the hardware's default double NaN (not verified on hardware). */
#define NUM__F64_DEFAULT_NAN 0xfff8000000000000ull
#define NUM__F32_QNAN 0x7fffffffu
#define NUM__H_QNAN 0x7fffu

/* Unpacked value: for NUM__FIN, value = (-1)^sign * sig * 2^exp, sig != 0. */
enum { NUM__ZERO, NUM__FIN, NUM__INF, NUM__NAN };
typedef struct num__val {
    uint8_t cls, sign;
    int32_t exp;
    num__u128 sig;
} num__val;

num__val num__unpack(int f, uint64_t bits);
/* Subnormal -> zero of the same sign (container bits in, container bits out). */
uint64_t num__flush(int f, uint64_t bits);
bool num__is_nan(int f, uint64_t bits);
bool num__is_sub(int f, uint64_t bits);
uint64_t num__inf(int f, int sign);
uint64_t num__zero(int f, int sign);
uint64_t num__maxfin(int f, int sign);

/* Rounds (-1)^sign * sig * 2^exp (sig may be 0: a zero of that sign) to
** format f in internal mode r.  Overflow gives inf or the largest finite
** value as IEEE 754 says for r, or the largest finite value with
** NUM_SATFINITE in fl.  Subnormal results are kept (see num__post). */
uint64_t num__round(int f, int sign, int32_t exp, num__u128 sig, int r, unsigned fl);

/* Result post-processing in PTX order: NaN -> the format's NaN (unless the
** format is f64), .ftz (a subnormal result becomes a zero of its sign),
** .relu (negative -> +0, NaN -> canonical NaN), .sat (clamp to [+0, 1],
** NaN -> +0). */
uint64_t num__post(int f, uint64_t bits, unsigned fl);

/* num__post for a result whose NaN is already the format's canonical NaN. */
static inline uint64_t num__post_c(int f, uint64_t bits, unsigned fl)
{
    return (fl & (NUM_FTZ | NUM_SAT | NUM_RELU)) ? num__post(f, bits, fl) : bits;
}

/* Exact arithmetic in format f, all inputs container bits of f, internal
** rounding mode r; fl is only looked at for NUM_SATFINITE (callers flush
** inputs and post-process).  NaN results: f64 per the rule above, other
** formats the format's canonical NaN. */
uint64_t num__add(int f, uint64_t a, uint64_t b, bool negb, int r, unsigned fl);
uint64_t num__mul(int f, uint64_t a, uint64_t b, int r, unsigned fl);
uint64_t num__fma(int f, uint64_t a, uint64_t b, uint64_t c, int r, unsigned fl);
uint64_t num__div(int f, uint64_t a, uint64_t b, int r, unsigned fl);
uint64_t num__sqrt(int f, uint64_t a, int r, unsigned fl);
/* Round to an integral value in the same format. */
uint64_t num__rint(int f, uint64_t a, int r);
/* |x| rounded to an integer in mode r (the sign decides rm/rp); returns
** false when the magnitude is 2^64 or more. */
bool num__round_int(const num__val *v, int r, uint64_t *mag);

/* rcp.approx.ftz.f64 (num_approx.c). */
uint64_t num__rcp_approx_f64(uint64_t a);
/* Double -> format f in mode r (exact core). */
uint64_t num__from_f64(int f, double x, int r);

/* f64 NaN choice for up to three inputs (n of them). */
uint64_t num__nan64(uint64_t a, uint64_t b, uint64_t c, int n);

static inline float num__f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t num__u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double num__f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t num__u64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline bool num__nan32(uint32_t a) { return (a & 0x7fffffffu) > 0x7f800000u; }
static inline bool num__nanf64(uint64_t a) { return (a & ~(1ull << 63)) > 0x7ff0000000000000ull; }
static inline uint32_t num__ftz32(uint32_t a)
{
    return (a & 0x7f800000u) == 0 ? a & 0x80000000u : a;
}
static inline int num__hfmt(int fmt) { return fmt == NUM_BF16 ? NUM__BF16 : NUM__F16; }

/* ---- fast round-to-nearest-even conversions to 16-bit formats ------------
** Bit-level versions of num__round for the common cases; NaN gives 0x7fff.
** Checked against the F16C instructions and the bit-array reference in
** tests/unit/test_num_cvt.c. */

/* f32 -> f16. */
static inline uint16_t num__f2h_rn(uint32_t x)
{
    uint32_t s = (x >> 16) & 0x8000u;
    x &= 0x7fffffffu;
    if (x > 0x7f800000u) return NUM__H_QNAN;
    if (x >= 0x477ff000u) return (uint16_t)(s | 0x7c00u);        /* >= 65520 -> inf */
    if (x >= 0x38800000u) {                                       /* >= 2^-14: normal */
        x -= 0x38000000u;                                         /* exponent bias 127 -> 15 */
        x += 0xfffu + ((x >> 13) & 1);
        return (uint16_t)(s | (x >> 13));
    }
    if (x <= 0x33000000u) return (uint16_t)s;                     /* <= 2^-25 (tie) -> 0 */
    uint32_t e = x >> 23, m = (x & 0x7fffffu) | 0x800000u, sh = 126 - e;  /* 14..24 */
    uint32_t kept = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    kept += rem > half || (rem == half && (kept & 1));
    return (uint16_t)(s | kept);
}

/* f32 -> bf16 (bf16 is the top half of an f32, subnormals included). */
static inline uint16_t num__f2bf_rn(uint32_t x)
{
    if ((x & 0x7fffffffu) > 0x7f800000u) return NUM__H_QNAN;
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

/* f64 -> f16. */
static inline uint16_t num__d2h_rn(uint64_t x)
{
    uint16_t s = (uint16_t)((x >> 48) & 0x8000u);
    x &= 0x7fffffffffffffffull;
    if (x > 0x7ff0000000000000ull) return NUM__H_QNAN;
    if (x >= 0x40effe0000000000ull) return (uint16_t)(s | 0x7c00u);       /* >= 65520 */
    if (x >= 0x3f10000000000000ull) {                                      /* >= 2^-14 */
        x -= (uint64_t)(1023 - 15) << 52;
        x += ((1ull << 41) - 1) + ((x >> 42) & 1);
        return (uint16_t)(s | (x >> 42));
    }
    if (x <= 0x3e60000000000000ull) return s;                              /* <= 2^-25 */
    uint64_t e = x >> 52, m = (x & 0xfffffffffffffull) | (1ull << 52), sh = 1051 - e;  /* 43..53 */
    uint64_t kept = m >> sh, rem = m & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    kept += rem > half || (rem == half && (kept & 1));
    return (uint16_t)(s | kept);
}

/* f64 -> bf16. */
static inline uint16_t num__d2bf_rn(uint64_t x)
{
    uint16_t s = (uint16_t)((x >> 48) & 0x8000u);
    x &= 0x7fffffffffffffffull;
    if (x > 0x7ff0000000000000ull) return NUM__H_QNAN;
    if (x >= 0x47eff00000000000ull) return (uint16_t)(s | 0x7f80u);       /* >= (2-2^-8)*2^127 */
    if (x >= 0x3810000000000000ull) {                                      /* >= 2^-126 */
        x -= (uint64_t)(1023 - 127) << 52;
        x += ((1ull << 44) - 1) + ((x >> 45) & 1);
        return (uint16_t)(s | (x >> 45));
    }
    if (x <= 0x3790000000000000ull) return s;                              /* <= 2^-134 */
    uint64_t e = x >> 52, m = (x & 0xfffffffffffffull) | (1ull << 52), sh = 942 - e;  /* 46..53 */
    uint64_t kept = m >> sh, rem = m & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    kept += rem > half || (rem == half && (kept & 1));
    return (uint16_t)(s | kept);
}

#endif
