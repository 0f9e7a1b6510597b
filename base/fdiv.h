/*
** fdiv.h -- exact unsigned division by a divisor fixed at run time, without
** a divide instruction in the common case.  Prefix tp_.
**
** The timing model divides by the same few numbers millions of times a
** second (cache lines and sets, channel counts, clock periods), which the
** compiler cannot turn into shifts or multiplies because they come from
** the options.  tp_fdiv_init(d) precomputes, once:
**   - a power of two: a shift and a mask;
**   - otherwise m = ceil(2^64 / d), and x / d = (x * m) >> 64 for every
**     x <= lim = floor((2^64 - 1) / d).  Why: with e = m d - 2^64
**     (0 < e < d) and x = q d + r, (x m) / 2^64 = q + (r + x e / 2^64) / d,
**     and x e < x d < 2^64 keeps the second term below 1.
** Larger x fall back to the divide instruction, so every result is the
** quotient `/` gives (tests/unit/test_base.c, t_fdiv).
*/
#ifndef TP_FDIV_H
#define TP_FDIV_H

#include "tp.h"

typedef struct tp_fdiv {
    uint64_t d;       /* the divisor (>= 1) */
    uint64_t m;       /* ceil(2^64 / d) (not a power of two) */
    uint64_t lim;     /* the largest x the multiply is exact for */
    uint8_t sh;       /* log2(d) (a power of two) */
    bool pow2;
} tp_fdiv;

static inline void tp_fdiv_init(tp_fdiv *f, uint64_t d)
{
    if (!d) d = 1;
    f->d = d;
    f->pow2 = (d & (d - 1)) == 0;
    f->sh = (uint8_t)__builtin_ctzll(d);
    f->m = f->pow2 ? 0 : UINT64_MAX / d + 1;
    f->lim = f->pow2 ? UINT64_MAX : UINT64_MAX / d;
}

static inline uint64_t tp_fdiv_q(const tp_fdiv *f, uint64_t x)
{
    if (f->pow2) return x >> f->sh;
    __extension__ typedef unsigned __int128 u128;
    if (TP_LIKELY(x <= f->lim)) return (uint64_t)(((u128)x * f->m) >> 64);
    return x / f->d;
}

static inline uint64_t tp_fdiv_r(const tp_fdiv *f, uint64_t x)
{
    if (f->pow2) return x & (f->d - 1);
    return x - tp_fdiv_q(f, x) * f->d;
}

/* ceil(x / d) for x + d - 1 that does not overflow, as (x + d - 1) / d. */
static inline uint64_t tp_fdiv_up(const tp_fdiv *f, uint64_t x) { return tp_fdiv_q(f, x + f->d - 1); }

#endif
