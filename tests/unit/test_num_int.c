/*
** test_num_int.c -- integer and bit instructions of exec/num.h: golden values
** from the PTX ISA's own examples and reasoned by hand, property checks
** (a == q*b + r, lop3 on the truth-table constants), and random comparisons
** with a bit-by-bit transcription of the ISA's pseudo-code.
*/
#include "tt.h"
#include "exec/num.h"
#include <limits.h>

#define NEG(x) ((uint64_t)(int64_t)(x))

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void t_div_rem(void)
{
    TT_EQ_U(num_div_int(7, 2, PTX_T_S32), 3);
    TT_EQ_U(num_div_int(NEG(-7), 2, PTX_T_S32), NEG(-3));     /* truncates toward zero */
    TT_EQ_U(num_div_int(7, NEG(-2), PTX_T_S32), NEG(-3));
    TT_EQ_U(num_rem_int(NEG(-7), 2, PTX_T_S32), NEG(-1));     /* sign of the dividend */
    TT_EQ_U(num_rem_int(7, NEG(-2), PTX_T_S32), 1);
    TT_EQ_U(num_div_int(0xfffffff9u, 2, PTX_T_U32), 0x7ffffffcu);
    /* INT_MIN / -1 wraps, INT_MIN % -1 = 0 */
    TT_EQ_U(num_div_int(0x80000000u, 0xffffffffu, PTX_T_S32), NEG(INT32_MIN));
    TT_EQ_U(num_rem_int(0x80000000u, 0xffffffffu, PTX_T_S32), 0);
    TT_EQ_U(num_div_int(0x8000000000000000ull, UINT64_MAX, PTX_T_S64), 0x8000000000000000ull);
    TT_EQ_U(num_rem_int(0x8000000000000000ull, UINT64_MAX, PTX_T_S64), 0);
    TT_EQ_U(num_div_int(0x8000, 0xffff, PTX_T_S16), NEG(-32768));
    /* x / 0 is all ones at the type's width, x % 0 is x */
    TT_EQ_U(num_div_int(123, 0, PTX_T_U32), 0xffffffffu);
    TT_EQ_U(num_div_int(123, 0, PTX_T_U16), 0xffff);
    TT_EQ_U(num_div_int(123, 0, PTX_T_U64), UINT64_MAX);
    TT_EQ_U(num_div_int(5, 0, PTX_T_S32), UINT64_MAX);            /* -1 */
    TT_EQ_U(num_div_int(NEG(-5), 0, PTX_T_S32), UINT64_MAX);
    TT_EQ_U(num_div_int(NEG(-5), 0, PTX_T_S64), UINT64_MAX);
    TT_EQ_U(num_div_int(5, 0, PTX_T_S16), UINT64_MAX);
    TT_EQ_U(num_rem_int(123, 0, PTX_T_U32), 123);
    TT_EQ_U(num_rem_int(NEG(-5), 0, PTX_T_S32), NEG(-5));
    TT_EQ_U(num_rem_int(UINT64_MAX, 0, PTX_T_U64), UINT64_MAX);
    TT_EQ_U(num_rem_int(0x1ffff, 0, PTX_T_U16), 0xffff);           /* operands are 16 bits */
    TT_EQ_U(num_div_int(0x10005, 2, PTX_T_U16), 2);
    TT_EQ_U(num_div_int(0x100000006ull, 3, PTX_T_U32), 2);
    /* property: a == q*b + r, |r| < |b|, r has a's sign (b != 0) */
    const ptx_type ty[6] = {PTX_T_S16, PTX_T_U16, PTX_T_S32, PTX_T_U32, PTX_T_S64, PTX_T_U64};
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        ptx_type t = ty[i % 6];
        unsigned w = ptx_type_size(t) * 8;
        uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1;
        uint64_t a = rnd64() >> (rnd64() % 64), b = rnd64() >> (rnd64() % 64);
        if (i & 8) b |= ~0ull << (rnd64() % 64);   /* negative divisors too */
        if ((b & m) == 0) b = 1;
        uint64_t q = num_div_int(a, b, t), r = num_rem_int(a, b, t);
        bool ok;
        if (ptx_type_is_signed(t)) {
            __int128 A = (int64_t)(a << (64 - w)) >> (64 - w), B = (int64_t)(b << (64 - w)) >> (64 - w);
            __int128 Q = (int64_t)q, R = (int64_t)r;
            bool wrapped = A == -((__int128)1 << (w - 1)) && B == -1;
            ok = wrapped ? (Q == A && R == 0)
                         : (A == Q * B + R && (R < 0 ? -R : R) < (B < 0 ? -B : B) && (R == 0 || (R < 0) == (A < 0)));
        } else {
            ok = (a & m) == (q * (b & m) + r) && r < (b & m) && q <= m;
        }
        tt_nchecks++;
        if (!ok && bad++ < 5)
            tt_fail_msg(__FILE__, __LINE__, "%s %#" PRIx64 " / %#" PRIx64 ": q %#" PRIx64 " r %#" PRIx64,
                        ptx_types[t].name, a, b, q, r);
    }
}

/* High half of a 64x64 product by 32-bit schoolbook (independent of __int128). */
static uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static void t_mul_hi(void)
{
    TT_EQ_U(num_mul_hi(0xffffffffu, 0xffffffffu, PTX_T_U32), 0xfffffffeu);
    TT_EQ_U(num_mul_hi(0xffffffffu, 0xffffffffu, PTX_T_S32), 0);           /* -1 * -1 */
    TT_EQ_U(num_mul_hi(0x80000000u, 0x80000000u, PTX_T_S32), 0x40000000u);  /* 2^62 */
    TT_EQ_U(num_mul_hi(0x80000000u, 1, PTX_T_S32), UINT64_MAX);             /* -2^31 -> hi -1 */
    TT_EQ_U(num_mul_hi(UINT64_MAX, UINT64_MAX, PTX_T_U64), 0xfffffffffffffffeull);
    TT_EQ_U(num_mul_hi(0x8000000000000000ull, 0x8000000000000000ull, PTX_T_S64), 0x4000000000000000ull);
    TT_EQ_U(num_mul_hi(UINT64_MAX, 1, PTX_T_S64), UINT64_MAX);
    TT_EQ_U(num_mul_hi(0xffff, 0xffff, PTX_T_U16), 0xfffe);
    TT_EQ_U(num_mul_hi(0x8000, 0x8000, PTX_T_S16), 0x4000);
    TT_EQ_U(num_mul_hi(0x7fff, 0x8000, PTX_T_S16), NEG(-16384));
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t a = rnd64(), b = rnd64();
        /* u64 by schoolbook; s64 from it: hi_s = hi_u - (a<0 ? b : 0) - (b<0 ? a : 0) */
        uint64_t hu = mulhi_u64(a, b);
        uint64_t hs = hu - ((int64_t)a < 0 ? b : 0) - ((int64_t)b < 0 ? a : 0);
        uint64_t h32u = ((a & 0xffffffffu) * (b & 0xffffffffu)) >> 32;
        int64_t p32 = (int64_t)(int32_t)a * (int32_t)b;
        uint64_t h16u = ((a & 0xffff) * (b & 0xffff)) >> 16;
        int64_t p16 = (int64_t)(int16_t)a * (int16_t)b;
        bool ok = num_mul_hi(a, b, PTX_T_U64) == hu && num_mul_hi(a, b, PTX_T_S64) == hs &&
                  num_mul_hi(a, b, PTX_T_U32) == h32u && num_mul_hi(a, b, PTX_T_S32) == NEG(p32 >> 32) &&
                  num_mul_hi(a, b, PTX_T_U16) == h16u && num_mul_hi(a, b, PTX_T_S16) == NEG(p16 >> 16);
        tt_nchecks++;
        if (!ok && bad++ < 5) tt_fail_msg(__FILE__, __LINE__, "mul.hi %#" PRIx64 " %#" PRIx64, a, b);
    }
}

static void t_mul24(void)
{
    /* (2^24 - 1)^2 = 2^48 - 2^25 + 1 */
    TT_EQ_U(num_mul24(0x00ffffffu, 0x00ffffffu, false, false), 0xfe000001u);
    TT_EQ_U(num_mul24(0x00ffffffu, 0x00ffffffu, true, false), 0xfffffe00u);
    /* as s24, 0xffffff is -1 */
    TT_EQ_U(num_mul24(0x00ffffffu, 0x00ffffffu, false, true), 1u);
    TT_EQ_U(num_mul24(0x00ffffffu, 0x00ffffffu, true, true), 0u);
    TT_EQ_U(num_mul24(0x00800000u, 0x00800000u, true, true), 0x40000000u);    /* 2^46 */
    TT_EQ_U(num_mul24(0x00800000u, 0x00800000u, false, true), 0u);
    TT_EQ_U(num_mul24(0x00800000u, 1u, false, true), 0xff800000u);            /* -2^23 */
    TT_EQ_U(num_mul24(0x00800000u, 1u, true, true), 0xffffff80u);
    TT_EQ_U(num_mul24(0xff000002u, 3u, false, false), 6u);                    /* bits 31..24 ignored */
    TT_EQ_U(num_mul24(0xff000002u, 0x55000003u, false, true), 6u);
}

static void t_bfind(void)
{
    TT_EQ_U(num_bfind(0, PTX_T_U32, false), 0xffffffffu);
    TT_EQ_U(num_bfind(0, PTX_T_S32, false), 0xffffffffu);
    TT_EQ_U(num_bfind(0xffffffffu, PTX_T_S32, false), 0xffffffffu);  /* -1: no non-sign bit */
    TT_EQ_U(num_bfind(0xffffffffu, PTX_T_S32, true), 0xffffffffu);
    TT_EQ_U(num_bfind(0, PTX_T_U64, true), 0xffffffffu);
    TT_EQ_U(num_bfind(1, PTX_T_U32, false), 0);
    TT_EQ_U(num_bfind(1, PTX_T_U32, true), 31);
    TT_EQ_U(num_bfind(0x80000000u, PTX_T_U32, false), 31);
    TT_EQ_U(num_bfind(0x80000000u, PTX_T_U32, true), 0);
    TT_EQ_U(num_bfind(0x80000000u, PTX_T_S32, false), 30);           /* INT_MIN: ~a = 0x7fffffff */
    TT_EQ_U(num_bfind(0x80000000u, PTX_T_S32, true), 1);
    TT_EQ_U(num_bfind(0xfffffffeu, PTX_T_S32, false), 0);
    TT_EQ_U(num_bfind(0xfffffffeu, PTX_T_S32, true), 31);
    TT_EQ_U(num_bfind(0x8000000000000000ull, PTX_T_U64, false), 63);
    TT_EQ_U(num_bfind(UINT64_MAX, PTX_T_S64, false), 0xffffffffu);
    TT_EQ_U(num_bfind(1, PTX_T_S64, true), 63);
    TT_EQ_U(num_bfind(0x100000000ull, PTX_T_U32, false), 0xffffffffu); /* only 32 bits */
    TT_EQ_U(num_bfind(0x00f0000000000000ull, PTX_T_S64, false), 55);
}

/* bfe / bfi transcribed bit by bit from the PTX ISA pseudo-code. */
static uint64_t ref_bfe(uint64_t a, uint32_t b, uint32_t c, int w, bool sgn)
{
    int msb = w - 1;
    uint32_t pos = b & 0xff, len = c & 0xff;
    int sbit = (!sgn || len == 0) ? 0 : (int)((a >> (pos + len - 1 < (uint32_t)msb ? pos + len - 1 : (uint32_t)msb)) & 1);
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++) {
        int bit = ((uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb) ? (int)((a >> (pos + i)) & 1) : sbit;
        d |= (uint64_t)bit << i;
    }
    if (sgn && w == 32 && (d >> 31)) d |= 0xffffffff00000000ull;
    return d;
}

static uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, int w)
{
    uint32_t pos = c & 0xff, len = d & 0xff;
    uint64_t f = w == 32 ? b & 0xffffffffu : b;
    for (uint32_t i = 0; i < len && pos + i <= (uint32_t)(w - 1); i++)
        f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return f;
}

static void t_bfe_bfi(void)
{
    TT_EQ_U(num_bfe(0xf0f0f0f0u, 4, 8, PTX_T_U32), 0x0f);
    TT_EQ_U(num_bfe(0xf0f0f0f0u, 4, 8, PTX_T_S32), 0x0f);
    TT_EQ_U(num_bfe(0x80, 0, 8, PTX_T_S32), NEG(-128));
    TT_EQ_U(num_bfe(0x80, 0, 8, PTX_T_U32), 0x80);
    TT_EQ_U(num_bfe(0xffffffffu, 3, 0, PTX_T_S32), 0);               /* len 0 */
    TT_EQ_U(num_bfe(0xffffffffu, 40, 4, PTX_T_U32), 0);              /* pos past msb */
    TT_EQ_U(num_bfe(0x80000000u, 40, 4, PTX_T_S32), UINT64_MAX);     /* ... replicated sign */
    TT_EQ_U(num_bfe(0x7fffffffu, 40, 4, PTX_T_S32), 0);
    TT_EQ_U(num_bfe(0x80000000u, 28, 8, PTX_T_S32), NEG(-8));        /* field runs past msb */
    TT_EQ_U(num_bfe(0x80000000u, 28, 8, PTX_T_U32), 8);
    TT_EQ_U(num_bfe(0xf0f0f0f0u, 0x104, 0x208, PTX_T_U32), 0x0f);    /* only 8 bits of b, c */
    TT_EQ_U(num_bfe(0xf000000000000000ull, 60, 8, PTX_T_U64), 0xf);
    TT_EQ_U(num_bfe(0xf000000000000000ull, 60, 8, PTX_T_S64), UINT64_MAX);
    TT_EQ_U(num_bfe(0x123456789abcdef0ull, 0, 64, PTX_T_U64), 0x123456789abcdef0ull);
    TT_EQ_U(num_bfe(0x123456789abcdef0ull, 0, 255, PTX_T_S64), 0x123456789abcdef0ull);
    TT_EQ_U(num_bfi(0xff, 0, 4, 4, PTX_T_B32), 0xf0);
    TT_EQ_U(num_bfi(0xff, 0x12345678, 4, 0, PTX_T_B32), 0x12345678);   /* len 0 -> b */
    TT_EQ_U(num_bfi(0xff, 0x12345678, 32, 4, PTX_T_B32), 0x12345678);  /* pos past msb -> b */
    TT_EQ_U(num_bfi(0xff, 0, 30, 8, PTX_T_B32), 0xc0000000u);
    TT_EQ_U(num_bfi(0xff, 0, 60, 8, PTX_T_B64), 0xf000000000000000ull);
    TT_EQ_U(num_bfi(0xff, 0, 0x100, 4, PTX_T_B32), 0xf);
    TT_EQ_U(num_bfi(0xffffffffffffffffull, 0, 0, 32, PTX_T_B32), 0xffffffffu);
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t a = rnd64(), b = rnd64();
        uint32_t p = (uint32_t)rnd64() & (i & 1 ? 0x3ff : 0x47), l = (uint32_t)rnd64() & (i & 2 ? 0x3ff : 0x47);
        bool ok = num_bfe(a, p, l, PTX_T_U32) == ref_bfe(a & 0xffffffffu, p, l, 32, false) &&
                  num_bfe(a, p, l, PTX_T_S32) == ref_bfe(a & 0xffffffffu, p, l, 32, true) &&
                  num_bfe(a, p, l, PTX_T_U64) == ref_bfe(a, p, l, 64, false) &&
                  num_bfe(a, p, l, PTX_T_S64) == ref_bfe(a, p, l, 64, true) &&
                  num_bfi(a, b, p, l, PTX_T_B32) == ref_bfi(a, b, p, l, 32) &&
                  num_bfi(a, b, p, l, PTX_T_B64) == ref_bfi(a, b, p, l, 64);
        tt_nchecks++;
        if (!ok && bad++ < 5)
            tt_fail_msg(__FILE__, __LINE__, "bfe/bfi a=%#" PRIx64 " b=%#" PRIx64 " pos %u len %u", a, b, p, l);
    }
}

static void t_brev(void)
{
    TT_EQ_U(num_brev(1, 32), 0x80000000u);
    TT_EQ_U(num_brev(0x12345678, 32), 0x1e6a2c48u);
    TT_EQ_U(num_brev(0xffffffff00000001ull, 32), 0x80000000u);   /* only 32 bits */
    TT_EQ_U(num_brev(1, 64), 0x8000000000000000ull);
    TT_EQ_U(num_brev(0x0123456789abcdefull, 64), 0xf7b3d591e6a2c480ull);
    for (int i = 0; i < 1000; i++) {
        uint64_t a = rnd64();
        TT_EQ_U(num_brev(num_brev(a, 64), 64), a);
        TT_EQ_U(num_brev(a, 32), num_brev(a << 32, 64));
    }
}

static void t_prmt(void)
{
    const uint32_t a = 0x33221100u, b = 0x77665544u;   /* byte i holds 0x11*i */
    TT_EQ_U(num_prmt(a, b, 0x3210, PTX_SUB_NONE), 0x33221100u);
    TT_EQ_U(num_prmt(a, b, 0x7654, PTX_SUB_NONE), 0x77665544u);
    TT_EQ_U(num_prmt(a, b, 0x0123, PTX_SUB_NONE), 0x00112233u);
    TT_EQ_U(num_prmt(a, b, 0x4444, PTX_SUB_NONE), 0x44444444u);
    TT_EQ_U(num_prmt(a, b, 0xffff0000u | 0x5140, PTX_SUB_NONE), 0x55114400u);  /* c[31:16] unused */
    /* msb of a selector replicates the selected byte's sign */
    TT_EQ_U(num_prmt(0x000000f0u, 0, 0x8888, PTX_SUB_NONE), 0xffffffffu);
    TT_EQ_U(num_prmt(0x000000f0u, 0, 0x0008, PTX_SUB_NONE), 0xf0f0f0ffu);
    TT_EQ_U(num_prmt(0x7f000000u, 0, 0xb3b3, PTX_SUB_NONE), 0x007f007fu);
    /* the modes (tables of PTX ISA 9.7.9.7) */
    static const struct { int sub; uint32_t w[4]; } tab[] = {
        {PTX_SUB_F4E, {0x33221100u, 0x44332211u, 0x55443322u, 0x66554433u}},
        {PTX_SUB_B4E, {0x55667700u, 0x66770011u, 0x77001122u, 0x00112233u}},
        {PTX_SUB_RC8, {0x00000000u, 0x11111111u, 0x22222222u, 0x33333333u}},
        {PTX_SUB_ECL, {0x33221100u, 0x33221111u, 0x33222222u, 0x33333333u}},
        {PTX_SUB_ECR, {0x00000000u, 0x11111100u, 0x22221100u, 0x33221100u}},
        {PTX_SUB_RC16, {0x11001100u, 0x33223322u, 0x11001100u, 0x33223322u}},
    };
    for (size_t t = 0; t < sizeof tab / sizeof tab[0]; t++)
        for (uint32_t s = 0; s < 4; s++) {
            TT_EQ_U(num_prmt(a, b, s, tab[t].sub), tab[t].w[s]);
            TT_EQ_U(num_prmt(a, b, 0xfffffff8u | s, tab[t].sub), tab[t].w[s]);  /* only c[1:0] */
        }
    /* modes never sign-replicate */
    TT_EQ_U(num_prmt(0x80808080u, 0x80808080u, 0, PTX_SUB_RC8), 0x80808080u);
}

static void t_shf(void)
{
    const uint32_t lo = 0x89abcdefu, hi = 0x01234567u;
    TT_EQ_U(num_shf(lo, hi, 8, true, false), 0x23456789u);
    TT_EQ_U(num_shf(lo, hi, 8, false, false), 0x6789abcdu);
    TT_EQ_U(num_shf(lo, hi, 0, true, false), hi);
    TT_EQ_U(num_shf(lo, hi, 0, false, true), lo);
    TT_EQ_U(num_shf(lo, hi, 40, true, false), lo);    /* clamp to 32 */
    TT_EQ_U(num_shf(lo, hi, 40, false, false), hi);
    TT_EQ_U(num_shf(lo, hi, 0xffffffffu, false, false), hi);
    TT_EQ_U(num_shf(lo, hi, 40, true, true), 0x23456789u);   /* wrap: 40 & 31 = 8 */
    TT_EQ_U(num_shf(lo, hi, 32, true, true), hi);
    TT_EQ_U(num_shf(lo, hi, 32, false, true), lo);
    TT_EQ_U(num_shf(0x80000001u, 0x80000001u, 1, true, true), 0x00000003u);   /* rotate */
    TT_EQ_U(num_shf(0x80000001u, 0x80000001u, 1, false, true), 0xc0000000u);
}

static void t_fns(void)
{
    /* the PTX ISA's examples */
    TT_EQ_U(num_fns(0xaaaaaaaau, 3, 1), 3);
    TT_EQ_U(num_fns(0xaaaaaaaau, 3, -1), 3);
    TT_EQ_U(num_fns(0xaaaaaaaau, 2, 1), 3);
    TT_EQ_U(num_fns(0xaaaaaaaau, 2, -1), 1);
    TT_EQ_U(num_fns(0xaaaaaaaau, 2, 0), 0xffffffffu);
    TT_EQ_U(num_fns(0xaaaaaaaau, 3, 0), 3);
    TT_EQ_U(num_fns(0xaaaaaaaau, 0, 16), 31);
    TT_EQ_U(num_fns(0xaaaaaaaau, 0, 17), 0xffffffffu);
    TT_EQ_U(num_fns(0x00000001u, 31, -1), 0);
    TT_EQ_U(num_fns(0x00000001u, 31, INT32_MIN), 0xffffffffu);
    TT_EQ_U(num_fns(0xffffffffu, 32, 1), 0xffffffffu);     /* base > 31: nothing */
    TT_EQ_U(num_fns(0, 5, 1), 0xffffffffu);
}

static void t_lop3(void)
{
    /* immLut = F(0xF0, 0xCC, 0xAA) */
    for (uint32_t lut = 0; lut < 256; lut++) TT_EQ_U(num_lop3(0xf0, 0xcc, 0xaa, lut) & 0xff, lut);
    for (int i = 0; i < 1000; i++) {
        uint32_t a = (uint32_t)rnd64(), b = (uint32_t)rnd64(), c = (uint32_t)rnd64();
        TT_EQ_U(num_lop3(a, b, c, 0xf0), a);
        TT_EQ_U(num_lop3(a, b, c, 0xcc), b);
        TT_EQ_U(num_lop3(a, b, c, 0xaa), c);
        TT_EQ_U(num_lop3(a, b, c, 0x80), a & b & c);
        TT_EQ_U(num_lop3(a, b, c, 0x96), a ^ b ^ c);
        TT_EQ_U(num_lop3(a, b, c, 0xfe), a | b | c);
        TT_EQ_U(num_lop3(a, b, c, 0x40), a & b & ~c);
        TT_EQ_U(num_lop3(a, b, c, 0x1a), ((a & b) | c) ^ a);
        TT_EQ_U(num_lop3(a, b, c, 0xe8), (a & b) | (a & c) | (b & c));   /* majority */
        TT_EQ_U(num_lop3(a, b, c, 0xca), (a & b) | (~a & c));            /* select */
        TT_EQ_U(num_lop3(a, b, c, 0x00), 0);
        TT_EQ_U(num_lop3(a, b, c, 0xff), 0xffffffffu);
    }
}

static void t_dp4a_dp2a(void)
{
    TT_EQ_U(num_dp4a(0x01020304u, 0x05060708u, 10, false, false), 80);   /* bytes 4*8 + 3*7 + 2*6 + 1*5 + 10 */
    TT_EQ_U(num_dp4a(0xffu, 0xffu, 0, false, false), 65025);
    TT_EQ_U(num_dp4a(0xffu, 0xffu, 0, true, true), 1);                    /* -1 * -1 */
    TT_EQ_U(num_dp4a(0xffu, 0xffu, 0, false, true), (uint32_t)-255);
    TT_EQ_U(num_dp4a(0xffu, 0xffu, 0, true, false), (uint32_t)-255);
    TT_EQ_U(num_dp4a(0x7f7f7f7fu, 0x80808080u, 0, true, true), (uint32_t)-65024);
    TT_EQ_U(num_dp4a(0x7f7f7f7fu, 0x80808080u, 0, false, false), 65024);
    TT_EQ_U(num_dp4a(0xffffffffu, 0xffffffffu, 0xffffffffu, false, false), 4 * 65025 - 1);
    TT_EQ_U(num_dp4a(0, 0, 0x80000000u, true, true), 0x80000000u);
    /* dp2a: a = {lo 0xfffe, hi 0x0002}, b bytes {1, 2, 3, 4} */
    TT_EQ_U(num_dp2a(0x0002fffeu, 0x04030201u, 0, true, false, false), 2);       /* -2*1 + 2*2 */
    TT_EQ_U(num_dp2a(0x0002fffeu, 0x04030201u, 0, false, false, false), 65538);  /* 65534 + 4 */
    TT_EQ_U(num_dp2a(0x0002fffeu, 0x04030201u, 0, true, false, true), 2);        /* -2*3 + 2*4 */
    TT_EQ_U(num_dp2a(0x0002fffeu, 0x04030201u, 0, false, false, true), 196610);
    TT_EQ_U(num_dp2a(0x00010001u, 0xff00ff00u, 5, false, true, true), 4);        /* 1*0 + 1*-1 + 5 */
    TT_EQ_U(num_dp2a(0x00010001u, 0xff00ff00u, 5, false, false, true), 260);
}

static void t_szext_bmsk(void)
{
    TT_EQ_U(num_szext(0xffffffffu, 0, false, false), 0);       /* PTX ISA example */
    TT_EQ_U(num_szext(0x80, 8, true, true), 0xffffff80u);
    TT_EQ_U(num_szext(0x80, 8, false, true), 0x80);
    TT_EQ_U(num_szext(0x7f, 8, true, true), 0x7f);
    TT_EQ_U(num_szext(0xabcdef80u, 8, true, false), 0xffffff80u);
    TT_EQ_U(num_szext(0xabcdef80u, 8, false, false), 0x80);
    TT_EQ_U(num_szext(0xabcdef80u, 32, true, true), 0xabcdef80u);   /* clamp: a unchanged */
    TT_EQ_U(num_szext(0xabcdef80u, 40, false, true), 0xabcdef80u);
    TT_EQ_U(num_szext(0xabcdef80u, 32, true, false), 0);            /* wrap: N = 0 */
    TT_EQ_U(num_szext(0x1u, 33, true, false), 0xffffffffu);         /* wrap: N = 1 */
    TT_EQ_U(num_szext(0x1u, 33, false, false), 1);
    TT_EQ_U(num_szext(0x12345678u, 0, true, true), 0);
    TT_EQ_U(num_szext(0x80000000u, 31, true, true), 0);
    TT_EQ_U(num_szext(0x40000000u, 31, true, true), 0xc0000000u);
    TT_EQ_U(num_bmsk(1, 2, false), 0x6);                            /* PTX ISA example */
    TT_EQ_U(num_bmsk(1, 2, true), 0x6);
    TT_EQ_U(num_bmsk(0, 32, true), 0xffffffffu);
    TT_EQ_U(num_bmsk(0, 32, false), 0);                              /* width wraps to 0 */
    TT_EQ_U(num_bmsk(31, 1, true), 0x80000000u);
    TT_EQ_U(num_bmsk(31, 2, true), 0x80000000u);
    TT_EQ_U(num_bmsk(32, 1, true), 0);
    TT_EQ_U(num_bmsk(32, 1, false), 1);                              /* position wraps to 0 */
    TT_EQ_U(num_bmsk(4, 0, true), 0);
    TT_EQ_U(num_bmsk(4, 28, false), 0xfffffff0u);
    TT_EQ_U(num_bmsk(4, 100, true), 0xfffffff0u);
    TT_EQ_U(num_bmsk(8, 8, false), 0x0000ff00u);
}

static void t_add_sub_sat(void)
{
    TT_EQ_I(num_add_sat_s32(INT32_MAX, 1), INT32_MAX);
    TT_EQ_I(num_add_sat_s32(INT32_MIN, -1), INT32_MIN);
    TT_EQ_I(num_add_sat_s32(INT32_MIN, INT32_MIN), INT32_MIN);
    TT_EQ_I(num_add_sat_s32(5, 3), 8);
    TT_EQ_I(num_add_sat_s32(INT32_MAX, INT32_MIN), -1);
    TT_EQ_I(num_sub_sat_s32(INT32_MIN, 1), INT32_MIN);
    TT_EQ_I(num_sub_sat_s32(0, INT32_MIN), INT32_MAX);
    TT_EQ_I(num_sub_sat_s32(-1, INT32_MIN), INT32_MAX);
    TT_EQ_I(num_sub_sat_s32(5, 3), 2);
}

int main(void)
{
    TT_RUN(t_div_rem);
    TT_RUN(t_mul_hi);
    TT_RUN(t_mul24);
    TT_RUN(t_bfind);
    TT_RUN(t_bfe_bfi);
    TT_RUN(t_brev);
    TT_RUN(t_prmt);
    TT_RUN(t_shf);
    TT_RUN(t_fns);
    TT_RUN(t_lop3);
    TT_RUN(t_dp4a_dp2a);
    TT_RUN(t_szext_bmsk);
    TT_RUN(t_add_sub_sat);
    printf("# test_num_int: %d checks\n", tt_nchecks);
    return tt_done();
}
