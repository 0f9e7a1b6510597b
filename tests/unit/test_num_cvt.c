/*
** test_num_cvt.c -- num_cvt: float <-> integer saturation, NaN and rounding
** rules of the PTX ISA (golden values reasoned out next to each), int <-> int
** truncation and .sat, float <-> float with one rounding, .satfinite, .relu,
** .sat, .ftz, integral rounding, tf32; randomized comparisons against the host
** FPU under fesetround() (int -> float, float -> int), the F16C instructions
** with explicit rounding (f32 -> f16) and the bit-array reference (f64 -> f16,
** bf16, tf32, ...).
*/
#include "tt.h"
#include "exec/num.h"
#include "num_ref.h"
#include <limits.h>

static const int RND[4] = {PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP};
static const int REFR[4] = {REF_RN, REF_RZ, REF_RM, REF_RP};
static const int IRND[4] = {PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI};

static const ptx_type ITYPES[8] = {PTX_T_S8, PTX_T_U8, PTX_T_S16, PTX_T_U16,
                                   PTX_T_S32, PTX_T_U32, PTX_T_S64, PTX_T_U64};

#define NEG(x) ((uint64_t)(int64_t)(x))   /* a negative integer as the 64-bit result */

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* ---- float -> integer --------------------------------------------------------- */

static void t_f2i_nan_inf(void)
{
    /* NaN: 0 unless the source is f64 or the destination is 64 bits, then
    ** 1 << (width - 1) (MININT for signed types). */
    const uint32_t n32 = 0x7fc00000u;
    const uint64_t n64 = 0xfff8000000000000ull;
    uint64_t want32[8] = {0, 0, 0, 0, 0, 0, 0x8000000000000000ull, 0x8000000000000000ull};
    uint64_t want64[8] = {NEG(-128), 0x80, NEG(-32768), 0x8000, NEG(INT32_MIN), 0x80000000ull,
                          0x8000000000000000ull, 0x8000000000000000ull};
    for (int t = 0; t < 8; t++)
        for (int m = 0; m < 4; m++) {
            TT_EQ_U(num_cvt(n32, ITYPES[t], PTX_T_F32, IRND[m], 0), want32[t]);
            TT_EQ_U(num_cvt(n64, ITYPES[t], PTX_T_F64, IRND[m], 0), want64[t]);
            TT_EQ_U(num_cvt(0x7e00, ITYPES[t], PTX_T_F16, IRND[m], 0), want32[t]);
            TT_EQ_U(num_cvt(0xffc1, ITYPES[t], PTX_T_BF16, IRND[m], 0), want32[t]);
        }
    /* infinities saturate */
    uint64_t maxv[8] = {127, 255, 32767, 65535, INT32_MAX, UINT32_MAX, INT64_MAX, UINT64_MAX};
    uint64_t minv[8] = {NEG(-128), 0, NEG(-32768), 0, NEG(INT32_MIN), 0, NEG(INT64_MIN), 0};
    for (int t = 0; t < 8; t++) {
        TT_EQ_U(num_cvt(0x7f800000u, ITYPES[t], PTX_T_F32, PTX_RND_RZI, 0), maxv[t]);
        TT_EQ_U(num_cvt(0xff800000u, ITYPES[t], PTX_T_F32, PTX_RND_RNI, 0), minv[t]);
        TT_EQ_U(num_cvt(0x7ff0000000000000ull, ITYPES[t], PTX_T_F64, PTX_RND_RMI, 0), maxv[t]);
        TT_EQ_U(num_cvt(0xfff0000000000000ull, ITYPES[t], PTX_T_F64, PTX_RND_RPI, 0), minv[t]);
        TT_EQ_U(num_cvt(0x7c00, ITYPES[t], PTX_T_F16, PTX_RND_RZI, 0), maxv[t]);
        /* and the largest finite values too */
        TT_EQ_U(num_cvt(0x7fefffffffffffffull, ITYPES[t], PTX_T_F64, PTX_RND_RZI, 0), maxv[t]);
        TT_EQ_U(num_cvt(0xffefffffffffffffull, ITYPES[t], PTX_T_F64, PTX_RND_RZI, 0), minv[t]);
    }
}

/* One value through the four integer roundings into s32 and u32. */
static void irnd4(uint32_t f, int64_t rni, int64_t rzi, int64_t rmi, int64_t rpi)
{
    int64_t w[4] = {rni, rzi, rmi, rpi};
    for (int m = 0; m < 4; m++) {
        TT_EQ_U(num_cvt(f, PTX_T_S32, PTX_T_F32, IRND[m], 0), NEG(w[m]));
        TT_EQ_U(num_cvt(f, PTX_T_U32, PTX_T_F32, IRND[m], 0), (uint64_t)(w[m] < 0 ? 0 : w[m]));
        TT_EQ_U(num_cvt(d2u((double)u2f(f)), PTX_T_S64, PTX_T_F64, IRND[m], 0), NEG(w[m]));
    }
}

static void t_f2i_rounding(void)
{
    /* rni is round half to even */
    irnd4(f2u(0.5f), 0, 0, 0, 1);
    irnd4(f2u(1.5f), 2, 1, 1, 2);
    irnd4(f2u(2.5f), 2, 2, 2, 3);
    irnd4(f2u(3.5f), 4, 3, 3, 4);
    irnd4(f2u(-0.5f), 0, 0, -1, 0);
    irnd4(f2u(-1.5f), -2, -1, -2, -1);
    irnd4(f2u(-2.5f), -2, -2, -3, -2);
    irnd4(f2u(2.7f), 3, 2, 2, 3);
    irnd4(f2u(-2.7f), -3, -2, -3, -2);
    irnd4(0x80000000u, 0, 0, 0, 0);                 /* -0 */
    irnd4(0x00000001u, 0, 0, 0, 1);                 /* 2^-149 */
    irnd4(0x80000001u, 0, 0, -1, 0);
    /* no modifier: rzi */
    TT_EQ_U(num_cvt(f2u(2.7f), PTX_T_S32, PTX_T_F32, PTX_RND_NONE, 0), 2);
    TT_EQ_U(num_cvt(f2u(-2.7f), PTX_T_S32, PTX_T_F32, PTX_RND_NONE, 0), NEG(-2));
    /* .ftz: the subnormal input is zero before rounding */
    TT_EQ_U(num_cvt(0x00000001u, PTX_T_S32, PTX_T_F32, PTX_RND_RPI, NUM_FTZ), 0);
    TT_EQ_U(num_cvt(0x80000001u, PTX_T_S32, PTX_T_F32, PTX_RND_RMI, NUM_FTZ), 0);
    TT_EQ_U(num_cvt(1ull, PTX_T_S32, PTX_T_F64, PTX_RND_RPI, NUM_FTZ), 1);   /* f64 not flushed */
}

static void t_f2i_limits(void)
{
    /* s8: 127.5 rounds to 128 and clamps; -128.6 truncates to -128 */
    TT_EQ_U(num_cvt(0x42ff0000u, PTX_T_S8, PTX_T_F32, PTX_RND_RNI, 0), 127);
    TT_EQ_U(num_cvt(0x42ff0000u, PTX_T_S8, PTX_T_F32, PTX_RND_RZI, 0), 127);
    TT_EQ_U(num_cvt(0xc300999au, PTX_T_S8, PTX_T_F32, PTX_RND_RZI, 0), NEG(-128));
    TT_EQ_U(num_cvt(0xc300999au, PTX_T_S8, PTX_T_F32, PTX_RND_RMI, 0), NEG(-128));
    TT_EQ_U(num_cvt(0xc3010000u, PTX_T_S8, PTX_T_F32, PTX_RND_RZI, 0), NEG(-128)); /* -129 */
    TT_EQ_U(num_cvt(0x43960000u, PTX_T_S8, PTX_T_F32, PTX_RND_RZI, 0), 127);       /* 300 */
    TT_EQ_U(num_cvt(0x437f8000u, PTX_T_U8, PTX_T_F32, PTX_RND_RNI, 0), 255);       /* 255.5 -> 256 */
    TT_EQ_U(num_cvt(0x437f8000u, PTX_T_U8, PTX_T_F32, PTX_RND_RZI, 0), 255);
    TT_EQ_U(num_cvt(0xbf666666u, PTX_T_U8, PTX_T_F32, PTX_RND_RZI, 0), 0);         /* -0.9 */
    TT_EQ_U(num_cvt(0xbf666666u, PTX_T_U8, PTX_T_F32, PTX_RND_RMI, 0), 0);
    TT_EQ_U(num_cvt(0x43960000u, PTX_T_U16, PTX_T_F32, PTX_RND_RZI, 0), 300);
    TT_EQ_U(num_cvt(0xc3960000u, PTX_T_S16, PTX_T_F32, PTX_RND_RZI, 0), NEG(-300));
    /* s32 / u32 edges */
    TT_EQ_U(num_cvt(0x4effffffu, PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0), 2147483520u);
    TT_EQ_U(num_cvt(0x4f000000u, PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0), 0x7fffffffu);   /* 2^31 */
    TT_EQ_U(num_cvt(0xcf000000u, PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0), NEG(INT32_MIN));
    TT_EQ_U(num_cvt(0xcf000001u, PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0), NEG(INT32_MIN));
    TT_EQ_U(num_cvt(0x4f7fffffu, PTX_T_U32, PTX_T_F32, PTX_RND_RZI, 0), 0xffffff00u);
    TT_EQ_U(num_cvt(0x4f800000u, PTX_T_U32, PTX_T_F32, PTX_RND_RZI, 0), 0xffffffffu);   /* 2^32 */
    TT_EQ_U(num_cvt(d2u(-2147483648.5), PTX_T_S32, PTX_T_F64, PTX_RND_RZI, 0), NEG(INT32_MIN));
    TT_EQ_U(num_cvt(d2u(-2147483648.5), PTX_T_S32, PTX_T_F64, PTX_RND_RMI, 0), NEG(INT32_MIN));
    TT_EQ_U(num_cvt(d2u(4294967295.5), PTX_T_U32, PTX_T_F64, PTX_RND_RNI, 0), 0xffffffffu);
    /* 64-bit */
    TT_EQ_U(num_cvt(0x5f000000u, PTX_T_S64, PTX_T_F32, PTX_RND_RZI, 0), (uint64_t)INT64_MAX);
    TT_EQ_U(num_cvt(0xdf000000u, PTX_T_S64, PTX_T_F32, PTX_RND_RZI, 0), 0x8000000000000000ull);
    TT_EQ_U(num_cvt(0x5f800000u, PTX_T_U64, PTX_T_F32, PTX_RND_RZI, 0), UINT64_MAX);   /* 2^64 */
    TT_EQ_U(num_cvt(0x5f7fffffu, PTX_T_U64, PTX_T_F32, PTX_RND_RZI, 0), 0xffffff0000000000ull);
    TT_EQ_U(num_cvt(0x43dfffffffffffffull, PTX_T_S64, PTX_T_F64, PTX_RND_RZI, 0), 0x7ffffffffffffc00ull);
    TT_EQ_U(num_cvt(0x43e0000000000000ull, PTX_T_S64, PTX_T_F64, PTX_RND_RZI, 0), (uint64_t)INT64_MAX);
    TT_EQ_U(num_cvt(0xbff0000000000000ull, PTX_T_U64, PTX_T_F64, PTX_RND_RZI, 0), 0);
    /* 16-bit float sources */
    TT_EQ_U(num_cvt(0x7bff, PTX_T_S32, PTX_T_F16, PTX_RND_RZI, 0), 65504);
    TT_EQ_U(num_cvt(0x7bff, PTX_T_S16, PTX_T_F16, PTX_RND_RZI, 0), 32767);
    TT_EQ_U(num_cvt(0xfc00, PTX_T_S32, PTX_T_F16, PTX_RND_RZI, 0), NEG(INT32_MIN));
    TT_EQ_U(num_cvt(0x3800, PTX_T_U8, PTX_T_F16, PTX_RND_RNI, 0), 0);       /* 0.5 */
    TT_EQ_U(num_cvt(0x3e00, PTX_T_U8, PTX_T_F16, PTX_RND_RNI, 0), 2);       /* 1.5 */
    TT_EQ_U(num_cvt(0x4380, PTX_T_U8, PTX_T_BF16, PTX_RND_RZI, 0), 255);    /* 256 */
    TT_EQ_U(num_cvt(0xc2f7, PTX_T_S8, PTX_T_BF16, PTX_RND_RPI, 0), NEG(-123)); /* -123.5 */
    /* only the low 32 bits of an f32 source count */
    TT_EQ_U(num_cvt(0xffffffff3fc00000ull, PTX_T_S32, PTX_T_F32, PTX_RND_RNI, 0), 2);
}

/* The integer (as long double, exact for every 64-bit value) nearest to x in
** the PTX integer mode m, by the host's rounding functions. */
static long double host_irnd(double x, int m)
{
    switch (m) {
    case 0: return nearbyint(x);   /* FE_TONEAREST: half to even */
    case 1: return trunc(x);
    case 2: return floor(x);
    default: return ceil(x);
    }
}

static void t_f2i_random(void)
{
    long fails = 0, n = 0;
    for (int i = 0; i < 60000; i++) {
        int f64 = i & 1;
        uint64_t bits;
        double x;
        if (f64) {
            bits = ref_rand_float(REF_F64);
            if (i % 3 == 0) bits = d2u(ldexp((double)(int64_t)ref_rand(), -(int)(ref_rand() % 70)));
            x = u2d(bits);
        } else {
            bits = ref_rand_float(REF_F32);
            if (i % 3 == 0) bits = f2u((float)ldexp((double)(int64_t)ref_rand(), -(int)(ref_rand() % 70)));
            x = u2f((uint32_t)bits);
        }
        for (int t = 0; t < 8; t++)
            for (int m = 0; m < 4; m++) {
                ptx_type ty = ITYPES[t];
                int w = (int)ptx_type_size(ty) * 8, sg = ptx_type_is_signed(ty);
                uint64_t got = num_cvt(bits, ty, f64 ? PTX_T_F64 : PTX_T_F32, IRND[m], 0);
                uint64_t want;
                if (isnan(x)) {
                    /* 1 << (w - 1), read as a w-bit integer of the type */
                    uint64_t top = 1ull << (w - 1);
                    want = (!f64 && w != 64) ? 0 : sg && w < 64 ? top | (~0ull << w) : top;
                } else {
                    long double lo = sg ? -ldexpl(1, w - 1) : 0, hi = sg ? ldexpl(1, w - 1) - 1 : ldexpl(1, w) - 1;
                    long double v = isinf(x) ? (x > 0 ? hi : lo) : host_irnd(x, m);
                    if (v < lo) v = lo;
                    if (v > hi) v = hi;
                    want = sg ? (uint64_t)(int64_t)v : (uint64_t)v;
                }
                n++;
                tt_nchecks++;
                if (got != want && fails++ < 6)
                    tt_fail_msg(__FILE__, __LINE__, "f%d %#" PRIx64 " -> %s mode %d: got %#" PRIx64 " want %#" PRIx64,
                                f64 ? 64 : 32, bits, ptx_types[ty].name, m, got, want);
            }
    }
    printf("# f2i random: %ld comparisons\n", n);
}

/* ---- integer -> float ----------------------------------------------------------- */

static void t_i2f_golden(void)
{
    /* u64 max = 2^64 - 1: RN/RP round up to 2^64, RZ/RM down to 2^64 - 2^40 */
    uint64_t f32w[4] = {0x5f800000u, 0x5f7fffffu, 0x5f7fffffu, 0x5f800000u};
    uint64_t f64w[4] = {0x43f0000000000000ull, 0x43efffffffffffffull, 0x43efffffffffffffull, 0x43f0000000000000ull};
    for (int m = 0; m < 4; m++) {
        TT_EQ_U(num_cvt(UINT64_MAX, PTX_T_F32, PTX_T_U64, RND[m], 0), f32w[m]);
        TT_EQ_U(num_cvt(UINT64_MAX, PTX_T_F64, PTX_T_U64, RND[m], 0), f64w[m]);
        TT_EQ_U(num_cvt(0x8000000000000000ull, PTX_T_F32, PTX_T_S64, RND[m], 0), 0xdf000000u);
        TT_EQ_U(num_cvt(UINT64_MAX, PTX_T_F32, PTX_T_S64, RND[m], 0), 0xbf800000u);       /* -1 */
    }
    TT_EQ_U(num_cvt(0x7fffffff, PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0), 0x4f000000u);
    TT_EQ_U(num_cvt(0x7fffffff, PTX_T_F32, PTX_T_S32, PTX_RND_RZ, 0), 0x4effffffu);
    TT_EQ_U(num_cvt(0x80000001u, PTX_T_F32, PTX_T_S32, PTX_RND_RM, 0), 0xcf000000u);   /* -(2^31-1) */
    TT_EQ_U(num_cvt(0x80000001u, PTX_T_F32, PTX_T_S32, PTX_RND_RP, 0), 0xceffffffu);
    TT_EQ_U(num_cvt(16777217, PTX_T_F32, PTX_T_U32, PTX_RND_RN, 0), 0x4b800000u);    /* tie, even */
    TT_EQ_U(num_cvt(16777217, PTX_T_F32, PTX_T_U32, PTX_RND_RP, 0), 0x4b800001u);
    TT_EQ_U(num_cvt(16777219, PTX_T_F32, PTX_T_U32, PTX_RND_RN, 0), 0x4b800002u);    /* tie, even up */
    TT_EQ_U(num_cvt(16777217, PTX_T_F32, PTX_T_U32, PTX_RND_NONE, 0), 0x4b800000u);  /* default .rn */
    /* f16: 65520 is the overflow threshold */
    TT_EQ_U(num_cvt(65520, PTX_T_F16, PTX_T_U32, PTX_RND_RN, 0), 0x7c00);
    TT_EQ_U(num_cvt(65520, PTX_T_F16, PTX_T_U32, PTX_RND_RZ, 0), 0x7bff);
    TT_EQ_U(num_cvt(65519, PTX_T_F16, PTX_T_U32, PTX_RND_RN, 0), 0x7bff);
    TT_EQ_U(num_cvt(65520, PTX_T_F16, PTX_T_U32, PTX_RND_RN, NUM_SATFINITE), 0x7bff);
    TT_EQ_U(num_cvt(NEG(-70000), PTX_T_F16, PTX_T_S32, PTX_RND_RP, 0), 0xfbff);
    TT_EQ_U(num_cvt(NEG(-70000), PTX_T_F16, PTX_T_S32, PTX_RND_RM, 0), 0xfc00);
    TT_EQ_U(num_cvt(2049, PTX_T_F16, PTX_T_U16, PTX_RND_RN, 0), 0x6800);
    TT_EQ_U(num_cvt(2049, PTX_T_F16, PTX_T_U16, PTX_RND_RP, 0), 0x6801);
    /* bf16: ulp 2 at 256 */
    TT_EQ_U(num_cvt(257, PTX_T_BF16, PTX_T_S32, PTX_RND_RN, 0), 0x4380);
    TT_EQ_U(num_cvt(259, PTX_T_BF16, PTX_T_S32, PTX_RND_RN, 0), 0x4382);
    TT_EQ_U(num_cvt(259, PTX_T_BF16, PTX_T_S32, PTX_RND_RZ, 0), 0x4381);
    /* narrow signed sources: only their own bits count */
    TT_EQ_U(num_cvt(0xff, PTX_T_F32, PTX_T_S8, PTX_RND_RN, 0), 0xbf800000u);
    TT_EQ_U(num_cvt(0x1ff, PTX_T_F32, PTX_T_S8, PTX_RND_RN, 0), 0xbf800000u);
    TT_EQ_U(num_cvt(0xff, PTX_T_F32, PTX_T_U8, PTX_RND_RN, 0), 0x437f0000u);
    TT_EQ_U(num_cvt(0x8000, PTX_T_F64, PTX_T_S16, PTX_RND_RN, 0), 0xc0e0000000000000ull);
    TT_EQ_U(num_cvt(0, PTX_T_F32, PTX_T_S32, PTX_RND_RM, 0), 0u);   /* +0, even in rm */
    /* .sat on a float destination */
    TT_EQ_U(num_cvt(5, PTX_T_F32, PTX_T_S32, PTX_RND_RN, NUM_SAT), 0x3f800000u);
    TT_EQ_U(num_cvt(NEG(-5), PTX_T_F32, PTX_T_S32, PTX_RND_RN, NUM_SAT), 0u);
    TT_EQ_U(num_cvt(NEG(-5), PTX_T_F16, PTX_T_S32, PTX_RND_RN, NUM_RELU), 0u);
}

static void t_i2f_random(void)
{
    long fails = 0;
    const ptx_type src[4] = {PTX_T_S32, PTX_T_U32, PTX_T_S64, PTX_T_U64};
    for (int i = 0; i < 50000; i++) {
        uint64_t v = ref_rand() >> (ref_rand() % 64);
        if (i & 1) v = 0 - v;
        for (int s = 0; s < 4; s++)
            for (int m = 0; m < 4; m++) {
                uint32_t want32;
                uint64_t want64;
                volatile int64_t vi = (int64_t)v;
                volatile uint64_t vu = v;
                volatile int32_t vi32 = (int32_t)v;
                volatile uint32_t vu32 = (uint32_t)v;
                volatile float rf;
                volatile double rd;
                fesetround(ref_fe(REFR[m]));
                switch (s) {
                case 0: rf = (float)vi32; rd = (double)vi32; break;
                case 1: rf = (float)vu32; rd = (double)vu32; break;
                case 2: rf = (float)vi; rd = (double)vi; break;
                default: rf = (float)vu; rd = (double)vu; break;
                }
                fesetround(FE_TONEAREST);
                want32 = f2u(rf);
                want64 = d2u(rd);
                /* clang converts u64 with a magic-constant subtraction that
                ** yields -0 for 0 when rounding down: the integer 0 is +0 */
                if (v == 0) want32 = 0, want64 = 0;
                uint64_t g32 = num_cvt(v, PTX_T_F32, src[s], RND[m], 0);
                uint64_t g64 = num_cvt(v, PTX_T_F64, src[s], RND[m], 0);
                tt_nchecks += 2;
                if ((g32 != want32 || g64 != want64) && fails++ < 6)
                    tt_fail_msg(__FILE__, __LINE__, "%#" PRIx64 " from %s mode %d: f32 %#" PRIx64 "/%#x f64 %#" PRIx64
                                "/%#" PRIx64, v, ptx_types[src[s]].name, m, g32, want32, g64, want64);
            }
    }
    /* to f16 / bf16 against the reference (exact integer -> one rounding) */
    static ref_num x;
    for (int i = 0; i < 20000; i++) {
        int64_t v = (int64_t)(ref_rand() >> (ref_rand() % 64));
        if (i & 1) v = -v;
        ref_clear(&x);
        x.neg = v < 0;
        ref_put(&x, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 0);
        for (int m = 0; m < 4; m++) {
            TT_EQ_U(num_cvt((uint64_t)v, PTX_T_F16, PTX_T_S64, RND[m], 0), ref_round(&x, REF_F16, REFR[m], 0));
            TT_EQ_U(num_cvt((uint64_t)v, PTX_T_BF16, PTX_T_S64, RND[m], 0), ref_round(&x, REF_BF16, REFR[m], 0));
        }
    }
}

/* ---- integer -> integer ------------------------------------------------------- */

static void t_i2i(void)
{
    TT_EQ_U(num_cvt(0x80, PTX_T_S32, PTX_T_S8, PTX_RND_NONE, 0), NEG(-128));
    TT_EQ_U(num_cvt(0x80, PTX_T_S32, PTX_T_U8, PTX_RND_NONE, 0), 0x80);
    TT_EQ_U(num_cvt(0x80, PTX_T_U16, PTX_T_S8, PTX_RND_NONE, 0), 0xff80);
    TT_EQ_U(num_cvt(0x12345678, PTX_T_U8, PTX_T_S32, PTX_RND_NONE, 0), 0x78);
    TT_EQ_U(num_cvt(0x12345678, PTX_T_U8, PTX_T_S32, PTX_RND_NONE, NUM_SAT), 0xff);
    TT_EQ_U(num_cvt(0x12345678, PTX_T_S8, PTX_T_S32, PTX_RND_NONE, NUM_SAT), 0x7f);
    TT_EQ_U(num_cvt(0x12345688, PTX_T_S8, PTX_T_S32, PTX_RND_NONE, 0), NEG(-120));   /* truncation */
    TT_EQ_U(num_cvt(0xffffffff, PTX_T_U8, PTX_T_S32, PTX_RND_NONE, NUM_SAT), 0);
    TT_EQ_U(num_cvt(0xffffffff, PTX_T_U8, PTX_T_S32, PTX_RND_NONE, 0), 0xff);
    TT_EQ_U(num_cvt(200, PTX_T_S8, PTX_T_S16, PTX_RND_NONE, NUM_SAT), 127);
    TT_EQ_U(num_cvt(NEG(-200), PTX_T_S8, PTX_T_S16, PTX_RND_NONE, NUM_SAT), NEG(-128));
    TT_EQ_U(num_cvt(UINT64_MAX, PTX_T_S64, PTX_T_U64, PTX_RND_NONE, NUM_SAT), (uint64_t)INT64_MAX);
    TT_EQ_U(num_cvt(UINT64_MAX, PTX_T_U64, PTX_T_S64, PTX_RND_NONE, NUM_SAT), 0);
    TT_EQ_U(num_cvt(UINT64_MAX, PTX_T_U64, PTX_T_S64, PTX_RND_NONE, 0), UINT64_MAX);
    TT_EQ_U(num_cvt(0x80000000u, PTX_T_S32, PTX_T_U32, PTX_RND_NONE, NUM_SAT), 0x7fffffffu);
    TT_EQ_U(num_cvt(0x80000000u, PTX_T_S32, PTX_T_U32, PTX_RND_NONE, 0), NEG(INT32_MIN));
    TT_EQ_U(num_cvt(0x100000005ull, PTX_T_S32, PTX_T_S64, PTX_RND_NONE, 0), 5);
    TT_EQ_U(num_cvt(0x100000005ull, PTX_T_S32, PTX_T_S64, PTX_RND_NONE, NUM_SAT), 0x7fffffffu);
    TT_EQ_U(num_cvt(40000, PTX_T_S16, PTX_T_U16, PTX_RND_NONE, NUM_SAT), 32767);
    TT_EQ_U(num_cvt(0xffffffff80000000ull, PTX_T_S64, PTX_T_S32, PTX_RND_NONE, 0), NEG(INT32_MIN));
    TT_EQ_U(num_cvt(0x80000000u, PTX_T_U64, PTX_T_S32, PTX_RND_NONE, 0), 0xffffffff80000000ull);
    TT_EQ_U(num_cvt(0x80000000u, PTX_T_U64, PTX_T_S32, PTX_RND_NONE, NUM_SAT), 0);
    TT_EQ_U(num_cvt(0xabcd, PTX_T_B16, PTX_T_B32, PTX_RND_NONE, 0), 0xabcd);
    /* every 8-bit value into every type, with and without .sat, against
    ** plain C arithmetic on the mathematical value */
    for (int st = 0; st < 2; st++)
        for (int v = 0; v < 256; v++)
            for (int t = 0; t < 8; t++) {
                ptx_type src = st ? PTX_T_S8 : PTX_T_U8, dst = ITYPES[t];
                int64_t val = st ? (int8_t)v : v;
                int w = (int)ptx_type_size(dst) * 8;
                bool sg = ptx_type_is_signed(dst);
                int64_t lo = sg ? (w == 64 ? INT64_MIN : -(1ll << (w - 1))) : 0;
                int64_t hi = sg ? (w == 64 ? INT64_MAX : (1ll << (w - 1)) - 1) : (w == 64 ? INT64_MAX : (1ll << w) - 1);
                int64_t c = val < lo ? lo : val > hi ? hi : val;
                uint64_t wsat = sg ? (uint64_t)c : (uint64_t)c;
                uint64_t trunc = (uint64_t)val & (w == 64 ? ~0ull : (1ull << w) - 1);
                if (sg && w < 64 && (trunc >> (w - 1))) trunc |= ~0ull << w;
                TT_EQ_U(num_cvt((uint64_t)v | 0xff00, dst, src, PTX_RND_NONE, NUM_SAT), wsat);
                TT_EQ_U(num_cvt((uint64_t)v, dst, src, PTX_RND_NONE, 0), trunc);
            }
}

/* ---- float -> float ----------------------------------------------------------------- */

static void t_f2f_golden(void)
{
    /* f64 -> f16 in ONE rounding: 1 + 2^-11 + 2^-40 is just above the midpoint
    ** of 1 and 1 + 2^-10 -> 0x3c01.  Through f32 (rn) the 2^-40 would be lost
    ** and the tie would go to 0x3c00. */
    TT_EQ_U(num_cvt(0x3ff0020000001000ull, PTX_T_F16, PTX_T_F64, PTX_RND_RN, 0), 0x3c01);
    TT_EQ_U(num_cvt(0x3ff0020000000000ull, PTX_T_F16, PTX_T_F64, PTX_RND_RN, 0), 0x3c00);
    /* the same for bf16: 1 + 5*2^-8 + 2^-40 -> 0x3f83 (0x3f82 via f32) */
    TT_EQ_U(num_cvt(0x3ff0500000001000ull, PTX_T_BF16, PTX_T_F64, PTX_RND_RN, 0), 0x3f83);
    TT_EQ_U(num_cvt(0x3ff0500000000000ull, PTX_T_BF16, PTX_T_F64, PTX_RND_RN, 0), 0x3f82);
    /* f32 -> f16 overflow, .satfinite, .relu */
    TT_EQ_U(num_cvt(f2u(1e6f), PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0), 0x7c00);
    TT_EQ_U(num_cvt(f2u(1e6f), PTX_T_F16, PTX_T_F32, PTX_RND_RZ, 0), 0x7bff);
    TT_EQ_U(num_cvt(f2u(1e6f), PTX_T_F16, PTX_T_F32, PTX_RND_RN, NUM_SATFINITE), 0x7bff);
    TT_EQ_U(num_cvt(f2u(-1e6f), PTX_T_F16, PTX_T_F32, PTX_RND_RN, NUM_SATFINITE), 0xfbff);
    TT_EQ_U(num_cvt(0x7f800000u, PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0), 0x7c00);
    TT_EQ_U(num_cvt(0x7f800000u, PTX_T_F16, PTX_T_F32, PTX_RND_RZ, 0), 0x7c00);   /* inf is exact */
    TT_EQ_U(num_cvt(0x7f800000u, PTX_T_F16, PTX_T_F32, PTX_RND_RN, NUM_SATFINITE), 0x7bff);
    TT_EQ_U(num_cvt(0xff800000u, PTX_T_BF16, PTX_T_F32, PTX_RND_RN, NUM_SATFINITE), 0xff7f);
    TT_EQ_U(num_cvt(0x7fc00001u, PTX_T_F16, PTX_T_F32, PTX_RND_RN, NUM_SATFINITE), 0x7fff);
    TT_EQ_U(num_cvt(f2u(65519.0f), PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0), 0x7bff);
    TT_EQ_U(num_cvt(f2u(65520.0f), PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0), 0x7c00);
    TT_EQ_U(num_cvt(f2u(-1.0f), PTX_T_F16, PTX_T_F32, PTX_RND_RN, NUM_RELU), 0);
    TT_EQ_U(num_cvt(0x80000000u, PTX_T_F16, PTX_T_F32, PTX_RND_RN, NUM_RELU), 0);
    TT_EQ_U(num_cvt(0x7f800001u, PTX_T_BF16, PTX_T_F32, PTX_RND_RN, NUM_RELU), 0x7fff);
    TT_EQ_U(num_cvt(f2u(0.5f), PTX_T_BF16, PTX_T_F32, PTX_RND_RZ, NUM_RELU), 0x3f00);
    TT_EQ_U(num_cvt(0x3f80ffffu, PTX_T_BF16, PTX_T_F32, PTX_RND_RZ, 0), 0x3f80);
    TT_EQ_U(num_cvt(0x3f80ffffu, PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0), 0x3f81);
    TT_EQ_U(num_cvt(0x3f808000u, PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0), 0x3f80);   /* tie, even */
    TT_EQ_U(num_cvt(0x3f818000u, PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0), 0x3f82);
    /* .sat on float results: NaN -> +0, clamp to [0, 1] */
    TT_EQ_U(num_cvt(f2u(2.0f), PTX_T_F32, PTX_T_F32, PTX_RND_NONE, NUM_SAT), 0x3f800000u);
    TT_EQ_U(num_cvt(0x7fc00000u, PTX_T_F32, PTX_T_F32, PTX_RND_NONE, NUM_SAT), 0u);
    TT_EQ_U(num_cvt(0x80000000u, PTX_T_F32, PTX_T_F32, PTX_RND_NONE, NUM_SAT), 0u);
    TT_EQ_U(num_cvt(0x4000000000000000ull, PTX_T_F16, PTX_T_F64, PTX_RND_RN, NUM_SAT), 0x3c00);
    TT_EQ_U(num_cvt(0x3fe0000000000000ull, PTX_T_F64, PTX_T_F64, PTX_RND_NONE, NUM_SAT), 0x3fe0000000000000ull);
    TT_EQ_U(num_cvt(0xfff0000000000000ull, PTX_T_F64, PTX_T_F64, PTX_RND_NONE, NUM_SAT), 0ull);
    /* .ftz: f32 inputs and results only */
    TT_EQ_U(num_cvt(1u, PTX_T_F32, PTX_T_F32, PTX_RND_NONE, NUM_FTZ), 0u);
    TT_EQ_U(num_cvt(0x80000001u, PTX_T_F32, PTX_T_F32, PTX_RND_NONE, NUM_FTZ), 0x80000000u);
    TT_EQ_U(num_cvt(1u, PTX_T_F32, PTX_T_F32, PTX_RND_NONE, 0), 1u);
    TT_EQ_U(num_cvt(d2u(1e-40), PTX_T_F32, PTX_T_F64, PTX_RND_RN, NUM_FTZ), 0u);
    TT_CHECK(num_cvt(d2u(1e-40), PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0) != 0);
    TT_EQ_U(num_cvt(1u, PTX_T_F64, PTX_T_F32, PTX_RND_NONE, NUM_FTZ), 0ull);
    TT_EQ_U(num_cvt(1u, PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0), 0x36a0000000000000ull);  /* 2^-149 */
    TT_EQ_U(num_cvt(1u, PTX_T_F16, PTX_T_F32, PTX_RND_RP, 0), 0x0001);
    TT_EQ_U(num_cvt(1u, PTX_T_F16, PTX_T_F32, PTX_RND_RP, NUM_FTZ), 0x0000);
    TT_EQ_U(num_cvt(0x35800000u, PTX_T_F16, PTX_T_F32, PTX_RND_RN, NUM_FTZ), 0x0010);  /* f16 subnormal kept */
    TT_EQ_U(num_cvt(0x0001, PTX_T_F32, PTX_T_F16, PTX_RND_NONE, NUM_FTZ), 0x33800000u);
    /* f16 subnormals to f32: exact; f64 -> f16 underflow */
    TT_EQ_U(num_cvt(0x0001, PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0), 0x33800000u);
    TT_EQ_U(num_cvt(0x3e60000000000000ull, PTX_T_F16, PTX_T_F64, PTX_RND_RN, 0), 0x0000);   /* 2^-25: tie -> 0 */
    TT_EQ_U(num_cvt(0x3e60000000000001ull, PTX_T_F16, PTX_T_F64, PTX_RND_RN, 0), 0x0001);
    TT_EQ_U(num_cvt(0xbe60000000000000ull, PTX_T_F16, PTX_T_F64, PTX_RND_RM, 0), 0x8001);
    /* NaN: canonical in f32/f16/bf16; an f64 result keeps the payload */
    TT_EQ_U(num_cvt(0xfff8000000000123ull, PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0), 0x7fffffffu);
    TT_EQ_U(num_cvt(0x7fc00001u, PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0), 0x7ff8000020000000ull);
    TT_EQ_U(num_cvt(0xff800001u, PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0), 0xfff8000020000000ull);
    TT_EQ_U(num_cvt(0x7e01, PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0), 0x7fffffffu);
    TT_EQ_U(num_cvt(0x7f800001u, PTX_T_F32, PTX_T_F32, PTX_RND_NONE, 0), 0x7fffffffu);
    /* f64 -> f32 in the directed modes */
    TT_EQ_U(num_cvt(0x3ff0000010000000ull, PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0), 0x3f800000u); /* tie */
    TT_EQ_U(num_cvt(0x3ff0000010000000ull, PTX_T_F32, PTX_T_F64, PTX_RND_RP, 0), 0x3f800001u);
    TT_EQ_U(num_cvt(0xbff0000000000001ull, PTX_T_F32, PTX_T_F64, PTX_RND_RM, 0), 0xbf800001u);
    TT_EQ_U(num_cvt(0x47efffffffffffffull, PTX_T_F32, PTX_T_F64, PTX_RND_RZ, 0), 0x7f7fffffu);
    TT_EQ_U(num_cvt(0x47f0000000000000ull, PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0), 0x7f800000u);
}

static void t_f2f_rint(void)
{
    struct { float x; float w[4]; } v[] = {
        {0.5f, {0.0f, 0.0f, 0.0f, 1.0f}},
        {1.5f, {2.0f, 1.0f, 1.0f, 2.0f}},
        {2.5f, {2.0f, 2.0f, 2.0f, 3.0f}},
        {-0.5f, {-0.0f, -0.0f, -1.0f, -0.0f}},
        {-1.7f, {-2.0f, -1.0f, -2.0f, -1.0f}},
        {16777215.0f, {16777215.0f, 16777215.0f, 16777215.0f, 16777215.0f}},
        {1e30f, {1e30f, 1e30f, 1e30f, 1e30f}},
        {-0.0f, {-0.0f, -0.0f, -0.0f, -0.0f}},
        {1e-40f, {0.0f, 0.0f, 0.0f, 1.0f}},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        for (int m = 0; m < 4; m++)
            TT_EQ_U(num_cvt(f2u(v[i].x), PTX_T_F32, PTX_T_F32, IRND[m], 0), f2u(v[i].w[m]));
    TT_EQ_U(num_cvt(f2u(1e-40f), PTX_T_F32, PTX_T_F32, PTX_RND_RPI, NUM_FTZ), 0u);
    TT_EQ_U(num_cvt(0x7fc00000u, PTX_T_F32, PTX_T_F32, PTX_RND_RNI, 0), 0x7fffffffu);
    TT_EQ_U(num_cvt(0xff800000u, PTX_T_F32, PTX_T_F32, PTX_RND_RZI, 0), 0xff800000u);
    TT_EQ_U(num_cvt(0x432fffffffffffffull, PTX_T_F64, PTX_T_F64, PTX_RND_RNI, 0), 0x4330000000000000ull);
    TT_EQ_U(num_cvt(0x432fffffffffffffull, PTX_T_F64, PTX_T_F64, PTX_RND_RZI, 0), 0x432ffffffffffffeull);
    TT_EQ_U(num_cvt(0x3800, PTX_T_F16, PTX_T_F16, PTX_RND_RNI, 0), 0x0000);
    TT_EQ_U(num_cvt(0x3e00, PTX_T_F16, PTX_T_F16, PTX_RND_RNI, 0), 0x4000);
    TT_EQ_U(num_cvt(0xbe00, PTX_T_BF16, PTX_T_BF16, PTX_RND_RPI, 0), 0x8000);   /* -0.125 -> -0 */
    TT_EQ_U(num_cvt(0xbfc0, PTX_T_BF16, PTX_T_BF16, PTX_RND_RPI, 0), 0xbf80);   /* -1.5 -> -1 */
    TT_EQ_U(num_cvt(0xbfc0, PTX_T_BF16, PTX_T_BF16, PTX_RND_RNI, 0), 0xc000);   /* -1.5 -> -2 */
}

static void t_tf32(void)
{
    /* tf32 keeps 10 fraction bits; .rna ties away from zero */
    TT_EQ_U(num_cvt(0x3f801000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0), 0x3f802000u);
    TT_EQ_U(num_cvt(0x3f801000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RN, 0), 0x3f800000u);
    TT_EQ_U(num_cvt(0x3f803000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RN, 0), 0x3f804000u);
    TT_EQ_U(num_cvt(0x3f801800u, PTX_T_TF32, PTX_T_F32, PTX_RND_RZ, 0), 0x3f800000u);
    TT_EQ_U(num_cvt(0xbf801000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0), 0xbf802000u);
    TT_EQ_U(num_cvt(0x7fc00000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0), 0x7fffe000u);
    TT_EQ_U(num_cvt(0x7f7ff000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0), 0x7f800000u);
    TT_EQ_U(num_cvt(0x7f7ff000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, NUM_SATFINITE), 0x7f7fe000u);
    TT_EQ_U(num_cvt(0x7f800000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RN, NUM_SATFINITE), 0x7f7fe000u);
    TT_EQ_U(num_cvt(0xbf800000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RN, NUM_RELU), 0u);
    TT_EQ_U(num_cvt(0x00001000u, PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0), 0x00002000u); /* subnormal */
}

/* f32 -> f16 against the F16C instructions, which take the rounding mode
** as an immediate (0 nearest, 1 down, 2 up, 3 toward zero). */
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
__attribute__((target("f16c"))) static uint16_t hw_f2h(float x, int m)
{
    switch (m) {
    case 0: return (uint16_t)_cvtss_sh(x, 0);
    case 1: return (uint16_t)_cvtss_sh(x, 3);
    case 2: return (uint16_t)_cvtss_sh(x, 1);
    default: return (uint16_t)_cvtss_sh(x, 2);
    }
}
__attribute__((target("f16c"))) static float hw_h2f(uint16_t h) { return _cvtsh_ss(h); }
#include <cpuid.h>
static int HAVE_F16C(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));   /* CPUID.1:ECX.F16C */
}
#else
static uint16_t hw_f2h(float x, int m) { (void)x; (void)m; return 0; }
static float hw_h2f(uint16_t h) { (void)h; return 0; }
#define HAVE_F16C() 0
#endif

static void t_f32_to_f16_hw(void)
{
    if (!HAVE_F16C()) {
        printf("SKIP t_f32_to_f16_hw: no F16C on this host\n");
        return;
    }
    long fails = 0, n = 0;
    for (uint32_t i = 0; i < 400000; i++) {
        uint32_t x = (uint32_t)ref_rand_float(REF_F32);
        if (i & 1) x = (x & 0x807fffffu) | (((uint32_t)(ref_rand() % 40) + 97) << 23); /* f16 range */
        for (int m = 0; m < 4; m++) {
            uint16_t got = (uint16_t)num_cvt(x, PTX_T_F16, PTX_T_F32, RND[m], 0);
            uint16_t want = hw_f2h(u2f(x), m);
            if (ref_isnan(REF_F32, x)) want = 0x7fff;
            n++;
            tt_nchecks++;
            if (got != want && fails++ < 6)
                tt_fail_msg(__FILE__, __LINE__, "f32 %#x -> f16 mode %d: got %#x want %#x", x, m, got, want);
        }
    }
    /* every f16 -> f32 (and -> f64 through it) against the hardware */
    for (uint32_t h = 0; h < 65536; h++) {
        float w = hw_h2f((uint16_t)h);
        uint64_t got = num_cvt(h, PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0);
        uint64_t got64 = num_cvt(h, PTX_T_F64, PTX_T_F16, PTX_RND_NONE, 0);
        n += 2;
        tt_nchecks += 2;
        if (isnan(w)) {
            if (got != 0x7fffffffu && fails++ < 6) tt_fail_msg(__FILE__, __LINE__, "f16 NaN %#x -> %#" PRIx64, h, got);
            if (!isnan(u2d(got64)) && fails++ < 6) tt_fail_msg(__FILE__, __LINE__, "f16 NaN %#x -> f64", h);
            continue;
        }
        if ((got != f2u(w) || got64 != d2u((double)w)) && fails++ < 6)
            tt_fail_msg(__FILE__, __LINE__, "f16 %#x -> %#" PRIx64 " / %#" PRIx64 ", want %#x", h, got, got64, f2u(w));
        uint64_t back = num_cvt(got, PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0);   /* round trip */
        TT_EQ_U(back, h);
    }
    printf("# f32->f16 hardware comparisons: %ld\n", n);
}

/* Random float -> float conversions against the bit-array reference. */
static void t_f2f_random(void)
{
    struct { ptx_type d, s; ref_fmt df, sf; } pair[] = {
        {PTX_T_F16, PTX_T_F64, REF_F16, REF_F64}, {PTX_T_BF16, PTX_T_F64, REF_BF16, REF_F64},
        {PTX_T_F32, PTX_T_F64, REF_F32, REF_F64}, {PTX_T_BF16, PTX_T_F32, REF_BF16, REF_F32},
        {PTX_T_F16, PTX_T_F32, REF_F16, REF_F32}, {PTX_T_BF16, PTX_T_F16, REF_BF16, REF_F16},
        {PTX_T_F16, PTX_T_BF16, REF_F16, REF_BF16}, {PTX_T_TF32, PTX_T_F32, REF_TF32, REF_F32},
        {PTX_T_F64, PTX_T_BF16, REF_F64, REF_BF16}, {PTX_T_F32, PTX_T_BF16, REF_F32, REF_BF16},
    };
    static ref_num x;
    long fails = 0, n = 0;
    const int modes[5] = {PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP, PTX_RND_RNA};
    const int rmodes[5] = {REF_RN, REF_RZ, REF_RM, REF_RP, REF_RNA};
    for (size_t p = 0; p < sizeof pair / sizeof pair[0]; p++)
        for (int i = 0; i < 4000; i++) {
            uint64_t a = ref_rand_float(pair[p].sf);
            if ((i & 3) == 0 && pair[p].sf.mbits == 52)   /* into the destination's exponent range */
                a = (a & 0x800fffffffffffffull) | ((uint64_t)(1023 + (int)(ref_rand() % 60) - 30) << 52);
            ref_decode(pair[p].sf, a, &x);
            for (int m = 0; m < 5; m++)
                for (int sf = 0; sf < 2; sf++) {
                    unsigned fl = sf ? NUM_SATFINITE : 0;
                    uint64_t got = num_cvt(a, pair[p].d, pair[p].s, modes[m], fl);
                    uint64_t want;
                    if (x.kind == REF_NAN) {
                        /* canonical NaN; an f64 result is checked in t_f2f_golden */
                        want = pair[p].df.mbits == 52 ? (ref_isnan(REF_F64, got) ? got : 0x7ff8000000000000ull)
                             : pair[p].df.mbits == 23 ? 0x7fffffffu : pair[p].df.shift ? 0x7fffe000u : 0x7fffu;
                    } else if (x.kind == REF_INF) {
                        want = sf ? ref_infbits(pair[p].df, x.neg) - (1ull << pair[p].df.shift) : ref_infbits(pair[p].df, x.neg);
                    } else {
                        want = ref_round(&x, pair[p].df, rmodes[m], sf);
                    }
                    n++;
                    tt_nchecks++;
                    if (got != want && fails++ < 6)
                        tt_fail_msg(__FILE__, __LINE__, "%s <- %s %#" PRIx64 " mode %d sf %d: got %#" PRIx64 " want %#" PRIx64,
                                    ptx_types[pair[p].d].name, ptx_types[pair[p].s].name, a, m, sf, got, want);
                }
        }
    printf("# f2f reference comparisons: %ld\n", n);
}

/* Every f16 and bf16 value survives widening (to f32 and f64) and
** narrowing back, in every rounding mode; NaNs come back canonical. */
static void t_roundtrip(void)
{
    const ptx_type ht[2] = {PTX_T_F16, PTX_T_BF16};
    const ref_fmt hf[2] = {REF_F16, REF_BF16};
    for (int k = 0; k < 2; k++)
        for (uint32_t h = 0; h < 65536; h++) {
            bool nan = ref_isnan(hf[k], h);
            uint64_t f = num_cvt(h, PTX_T_F32, ht[k], PTX_RND_NONE, 0);
            uint64_t d = num_cvt(h, PTX_T_F64, ht[k], PTX_RND_NONE, 0);
            for (int m = 0; m < 4; m++) {
                uint64_t b1 = num_cvt(f, ht[k], PTX_T_F32, RND[m], 0);
                uint64_t b2 = num_cvt(d, ht[k], PTX_T_F64, RND[m], 0);
                TT_EQ_U(b1, nan ? 0x7fff : h);
                TT_EQ_U(b2, nan ? 0x7fff : h);
            }
            if (!nan) TT_EQ_U(d, d2u((double)u2f((uint32_t)f)));
        }
}

int main(void)
{
    TT_RUN(t_f2i_nan_inf);
    TT_RUN(t_f2i_rounding);
    TT_RUN(t_f2i_limits);
    TT_RUN(t_f2i_random);
    TT_RUN(t_i2f_golden);
    TT_RUN(t_i2f_random);
    TT_RUN(t_i2i);
    TT_RUN(t_f2f_golden);
    TT_RUN(t_f2f_rint);
    TT_RUN(t_tf32);
    TT_RUN(t_f32_to_f16_hw);
    TT_RUN(t_f2f_random);
    TT_RUN(t_roundtrip);
    printf("# test_num_cvt: %d checks\n", tt_nchecks);
    return tt_done();
}
