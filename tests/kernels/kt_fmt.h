/*
** kt_fmt.h -- exact rounding of a value m * 2^e into a binary floating-point
** format (f16, bf16, f32, f64 precision), used by the float references where
** the host has no native type (f16, bf16) or where the exact value of an
** operation is known as an integer (half-precision fma), and for the
** host-side conversions of kt_util.c.
*/
#ifndef KT_FMT_H
#define KT_FMT_H

#include "kt.h"

typedef struct kt_fmt {
    int p;      /* significand bits, hidden bit included */
    int ebits;  /* exponent field bits */
} kt_fmt;

extern const kt_fmt KT_F16, KT_BF16, KT_F32;

/* A finite value decoded exactly: (-1)^neg * mag * 2^e. */
typedef struct kt_num {
    int neg;
    unsigned __int128 mag;
    int e;
} kt_num;

/* Classes of a decoded format value. */
enum { KT_FINITE = 0, KT_INF, KT_NAN };

/* Decodes the bits of a value of format f; returns its class. */
int kt_decode(uint64_t bits, kt_fmt f, kt_num *x);
/* Rounds the exact value x (mag may be 0: a zero of x.neg's sign) into
** format f with mode (KT_RN...KT_RU); returns the bits.  Overflow gives
** infinity or the largest finite value as IEEE 754 says for the mode. */
uint64_t kt_round(kt_num x, kt_fmt f, int mode);
/* Exact sum x + y (signs honoured; a zero sum is +0 except in KT_RD, where it
** is -0, or when both are zeros of the same sign). Returned unrounded.  The
** caller keeps the exponents of the nonzero operands within about 100 of
** each other, so the aligned sum fits 128 bits. */
kt_num kt_exact_add(kt_num x, kt_num y, int mode);
kt_num kt_exact_mul(kt_num x, kt_num y);
/* The value as a double (exact when it fits). */
double kt_num_double(kt_num x);
/* Canonical NaN / infinity bits of format f. */
uint64_t kt_fmt_nan(kt_fmt f);
uint64_t kt_fmt_inf(kt_fmt f, int neg);

#endif
