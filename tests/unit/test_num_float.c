/*
** test_num_float.c -- f32/f64/f16/bf16 arithmetic of exec/num.h: golden
** edge values (worked out by hand from IEEE 754 and the PTX ISA, noted next
** to each), and randomized cross-checks of every correctly rounded
** operation in every rounding mode against two independent references:
** the exact bit-array model of num_ref.h and the host FPU run under
** fesetround().
*/
#include "tt.h"
#include "exec/num.h"
#include "num_ref.h"

static const int RND[4] = {PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP};
static const int REFR[4] = {REF_RN, REF_RZ, REF_RM, REF_RP};
enum { RN, RZ, RM, RP };

#define QNAN32 0x7fffffffu
#define QNANH 0x7fffu
#define DNAN64 0xfff8000000000000ull

/* ---- golden values: f32 ---------------------------------------------------- */

/* Expected results for the four modes RN RZ RM RP. */
#define MODES32(fn, a, b, rn, rz, rm, rp)                                     \
    do {                                                                      \
        TT_EQ_U(fn(a, b, PTX_RND_RN, 0), rn);                                 \
        TT_EQ_U(fn(a, b, PTX_RND_RZ, 0), rz);                                 \
        TT_EQ_U(fn(a, b, PTX_RND_RM, 0), rm);                                 \
        TT_EQ_U(fn(a, b, PTX_RND_RP, 0), rp);                                 \
    } while (0)

static void t_f32_add_rounding(void)
{
    /* 1 + 2^-24: exactly half an ulp; ties go to the even 1.0 */
    MODES32(num_add_f32, 0x3f800000u, 0x33800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800001u);
    /* 1 + 3*2^-25: above half an ulp */
    MODES32(num_add_f32, 0x3f800000u, 0x33c00000u, 0x3f800001u, 0x3f800000u, 0x3f800000u, 0x3f800001u);
    /* (1 + 2^-23) + 2^-24: tie with an odd lsb rounds up */
    TT_EQ_U(num_add_f32(0x3f800001u, 0x33800000u, PTX_RND_RN, 0), 0x3f800002u);
    /* -1 - 2^-30 */
    MODES32(num_sub_f32, 0xbf800000u, 0x30800000u, 0xbf800000u, 0xbf800000u, 0xbf800001u, 0xbf800000u);
    /* max + max overflows: inf or max by mode */
    MODES32(num_add_f32, 0x7f7fffffu, 0x7f7fffffu, 0x7f800000u, 0x7f7fffffu, 0x7f7fffffu, 0x7f800000u);
    MODES32(num_add_f32, 0xff7fffffu, 0xff7fffffu, 0xff800000u, 0xff7fffffu, 0xff800000u, 0xff7fffffu);
    /* max + 2^103 is max + half an ulp, max is odd: RN overflows */
    MODES32(num_add_f32, 0x7f7fffffu, 0x73000000u, 0x7f800000u, 0x7f7fffffu, 0x7f7fffffu, 0x7f800000u);
    /* x - x is +0, except -0 when rounding down */
    MODES32(num_sub_f32, 0x3f800000u, 0x3f800000u, 0u, 0u, 0x80000000u, 0u);
    /* signed zeros */
    MODES32(num_add_f32, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u);
    MODES32(num_add_f32, 0x80000000u, 0u, 0u, 0u, 0x80000000u, 0u);
    MODES32(num_sub_f32, 0u, 0u, 0u, 0u, 0x80000000u, 0u);
    /* infinities and NaN: NaN results are the canonical 0x7fffffff */
    MODES32(num_add_f32, 0x7f800000u, 0xff800000u, QNAN32, QNAN32, QNAN32, QNAN32);
    MODES32(num_add_f32, 0x7fc00001u, 0x3f800000u, QNAN32, QNAN32, QNAN32, QNAN32);
    MODES32(num_add_f32, 0x3f800000u, 0xff800001u, QNAN32, QNAN32, QNAN32, QNAN32); /* sNaN */
    MODES32(num_add_f32, 0xff800000u, 0x7f7fffffu, 0xff800000u, 0xff800000u, 0xff800000u, 0xff800000u);
    MODES32(num_sub_f32, 0x7f800000u, 0x7f800000u, QNAN32, QNAN32, QNAN32, QNAN32);
    /* no rounding modifier means .rn */
    TT_EQ_U(num_add_f32(0x3f800000u, 0x33800000u, PTX_RND_NONE, 0), 0x3f800000u);
}

static void t_f32_mul_subnormal_ftz(void)
{
    /* 2^-149 * 0.5: exactly half the smallest subnormal -> tie to even 0 */
    MODES32(num_mul_f32, 0x00000001u, 0x3f000000u, 0u, 0u, 0u, 1u);
    MODES32(num_mul_f32, 0x00000001u, 0xbf000000u, 0x80000000u, 0x80000000u, 0x80000001u, 0x80000000u);
    /* 2^-149 * 0.75: above half */
    MODES32(num_mul_f32, 0x00000001u, 0x3f400000u, 1u, 0u, 0u, 1u);
    /* 2^-64 * 2^-63 = 2^-127, subnormal 0x00400000; .ftz flushes it, keeping the sign */
    TT_EQ_U(num_mul_f32(0x1f800000u, 0x20000000u, PTX_RND_RN, 0), 0x00400000u);
    TT_EQ_U(num_mul_f32(0x1f800000u, 0x20000000u, PTX_RND_RN, NUM_FTZ), 0u);
    TT_EQ_U(num_mul_f32(0x9f800000u, 0x20000000u, PTX_RND_RN, NUM_FTZ), 0x80000000u);
    TT_EQ_U(num_mul_f32(0x9f800000u, 0x20000000u, PTX_RND_RZ, NUM_FTZ), 0x80000000u);
    /* 2^-63 * 2^-63 = 2^-126 is normal: untouched by .ftz */
    TT_EQ_U(num_mul_f32(0x20000000u, 0x20000000u, PTX_RND_RN, NUM_FTZ), 0x00800000u);
    /* subnormal inputs: kept without .ftz, zero (signed) with it */
    TT_EQ_U(num_add_f32(1u, 1u, PTX_RND_RN, 0), 2u);
    TT_EQ_U(num_add_f32(1u, 1u, PTX_RND_RN, NUM_FTZ), 0u);
    TT_EQ_U(num_add_f32(0x80000001u, 0u, PTX_RND_RN, NUM_FTZ), 0u);          /* -0 + +0 */
    TT_EQ_U(num_add_f32(0x80000001u, 0x80000000u, PTX_RND_RN, NUM_FTZ), 0x80000000u);
    TT_EQ_U(num_mul_f32(0x007fffffu, 0x40000000u, PTX_RND_RN, 0), 0x00fffffeu);
    TT_EQ_U(num_mul_f32(0x007fffffu, 0x40000000u, PTX_RND_RN, NUM_FTZ), 0u);
    /* Decision (see num_impl.h): .ftz flushes the IEEE result when it is
    ** subnormal.  (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150 is the midpoint of
    ** the subnormal 0x007fffff and 2^-126; RN picks the even 2^-126, which
    ** is normal and survives .ftz.  RZ gives the subnormal, which does not. */
    TT_EQ_U(num_mul_f32(0x3f7fffffu, 0x00800000u, PTX_RND_RN, NUM_FTZ), 0x00800000u);
    TT_EQ_U(num_mul_f32(0x3f7fffffu, 0x00800000u, PTX_RND_RZ, 0), 0x007fffffu);
    TT_EQ_U(num_mul_f32(0x3f7fffffu, 0x00800000u, PTX_RND_RZ, NUM_FTZ), 0u);
    /* 0 * inf */
    TT_EQ_U(num_mul_f32(0u, 0xff800000u, PTX_RND_RN, 0), QNAN32);
    TT_EQ_U(num_mul_f32(0x80000000u, 0x3f800000u, PTX_RND_RN, 0), 0x80000000u);
}

static void t_f32_sat_relu(void)
{
    TT_EQ_U(num_add_f32(0x40000000u, 0u, PTX_RND_RN, NUM_SAT), 0x3f800000u);   /* 2 -> 1 */
    TT_EQ_U(num_add_f32(0xc0400000u, 0u, PTX_RND_RN, NUM_SAT), 0u);            /* -3 -> +0 */
    TT_EQ_U(num_add_f32(0x3e800000u, 0x3e800000u, PTX_RND_RN, NUM_SAT), 0x3f000000u);
    TT_EQ_U(num_add_f32(0x7f800000u, 0xff800000u, PTX_RND_RN, NUM_SAT), 0u);   /* NaN -> +0 */
    TT_EQ_U(num_add_f32(0x7fc00000u, 0u, PTX_RND_RN, NUM_SAT), 0u);
    TT_EQ_U(num_add_f32(0x80000000u, 0x80000000u, PTX_RND_RN, NUM_SAT), 0u);  /* -0 -> +0 */
    TT_EQ_U(num_add_f32(0x3f800000u, 0x33800000u, PTX_RND_RP, NUM_SAT), 0x3f800000u);
    TT_EQ_U(num_mul_f32(0x7f800000u, 0x3f800000u, PTX_RND_RN, NUM_SAT), 0x3f800000u);
    TT_EQ_U(num_mul_f32(0xff800000u, 0x3f800000u, PTX_RND_RN, NUM_SAT), 0u);
    TT_EQ_U(num_fma_f32(0x3f000000u, 0x40000000u, 0x3f000000u, PTX_RND_RN, NUM_SAT), 0x3f800000u);
    TT_EQ_U(num_fma_f32(0x3f000000u, 0x40000000u, 0x3f000001u, PTX_RND_RN, NUM_SAT), 0x3f800000u);
    TT_EQ_U(num_sub_f32(0x00000001u, 0x00000002u, PTX_RND_RN, NUM_SAT), 0u);    /* -2^-149 */
    TT_EQ_U(num_add_f32(0x00000001u, 0u, PTX_RND_RN, NUM_SAT | NUM_FTZ), 0u);
}

static void t_f32_fma(void)
{
    /* (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly, in every mode */
    for (int m = 0; m < 4; m++)
        TT_EQ_U(num_fma_f32(0x3f800001u, 0x3f7ffffeu, 0xbf800000u, RND[m], 0), 0xa8800000u);
    /* the separately rounded product is 1.0, so mul + add gives 0 */
    TT_EQ_U(num_add_f32(num_mul_f32(0x3f800001u, 0x3f7ffffeu, PTX_RND_RN, 0), 0xbf800000u, PTX_RND_RN, 0), 0u);
    /* (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 = 2^-22 (1 + 2^-24): a tie at 24 bits */
    TT_EQ_U(num_fma_f32(0x3f800001u, 0x3f800001u, 0xbf800000u, PTX_RND_RN, 0), 0x34800000u);
    TT_EQ_U(num_fma_f32(0x3f800001u, 0x3f800001u, 0xbf800000u, PTX_RND_RZ, 0), 0x34800000u);
    TT_EQ_U(num_fma_f32(0x3f800001u, 0x3f800001u, 0xbf800000u, PTX_RND_RP, 0), 0x34800001u);
    /* exact zeros: +0 except in rm; 0*5 + -0 */
    TT_EQ_U(num_fma_f32(0x3f800000u, 0x3f800000u, 0xbf800000u, PTX_RND_RN, 0), 0u);
    TT_EQ_U(num_fma_f32(0x3f800000u, 0x3f800000u, 0xbf800000u, PTX_RND_RM, 0), 0x80000000u);
    TT_EQ_U(num_fma_f32(0u, 0x40a00000u, 0x80000000u, PTX_RND_RN, 0), 0u);
    TT_EQ_U(num_fma_f32(0u, 0x40a00000u, 0x80000000u, PTX_RND_RM, 0), 0x80000000u);
    TT_EQ_U(num_fma_f32(0x80000000u, 0x40a00000u, 0x80000000u, PTX_RND_RN, 0), 0x80000000u);
    /* invalid: inf * 0 + NaN, inf - inf */
    TT_EQ_U(num_fma_f32(0x7f800000u, 0u, 0x7fc00000u, PTX_RND_RN, 0), QNAN32);
    TT_EQ_U(num_fma_f32(0x7f800000u, 0x3f800000u, 0xff800000u, PTX_RND_RZ, 0), QNAN32);
    TT_EQ_U(num_fma_f32(0x7f7fffffu, 0x40000000u, 0xff800000u, PTX_RND_RN, 0), 0xff800000u);
    /* product overflows but c brings it back? no: max*2 - max = max exactly */
    TT_EQ_U(num_fma_f32(0x7f7fffffu, 0x40000000u, 0xff7fffffu, PTX_RND_RN, 0), 0x7f7fffffu);
    /* tiny: 2^-149 * 0.5 + 0 */
    TT_EQ_U(num_fma_f32(1u, 0x3f000000u, 0u, PTX_RND_RP, 0), 1u);
    TT_EQ_U(num_fma_f32(1u, 0x3f000000u, 0u, PTX_RND_RN, 0), 0u);
    /* .ftz: subnormal c is flushed */
    TT_EQ_U(num_fma_f32(0u, 0u, 0x00000005u, PTX_RND_RN, 0), 5u);
    TT_EQ_U(num_fma_f32(0u, 0u, 0x00000005u, PTX_RND_RN, NUM_FTZ), 0u);
}

static void t_f32_div_sqrt_rcp(void)
{
    MODES32(num_div_f32, 0x3f800000u, 0x40400000u, 0x3eaaaaabu, 0x3eaaaaaau, 0x3eaaaaaau, 0x3eaaaaabu);
    MODES32(num_div_f32, 0xbf800000u, 0x40400000u, 0xbeaaaaabu, 0xbeaaaaaau, 0xbeaaaaabu, 0xbeaaaaaau);
    MODES32(num_div_f32, 0x3f800000u, 0u, 0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u);
    MODES32(num_div_f32, 0x3f800000u, 0x80000000u, 0xff800000u, 0xff800000u, 0xff800000u, 0xff800000u);
    MODES32(num_div_f32, 0u, 0u, QNAN32, QNAN32, QNAN32, QNAN32);
    MODES32(num_div_f32, 0x7f800000u, 0xff800000u, QNAN32, QNAN32, QNAN32, QNAN32);
    MODES32(num_div_f32, 0xbf800000u, 0x7f800000u, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u);
    MODES32(num_div_f32, 1u, 0x40000000u, 0u, 0u, 0u, 1u);                 /* 2^-150 */
    MODES32(num_div_f32, 0x7f7fffffu, 0x3f000000u, 0x7f800000u, 0x7f7fffffu, 0x7f7fffffu, 0x7f800000u);
    /* sqrt(2): 0x3fb504f3 is below, 0x3fb504f4 above */
    for (int m = 0; m < 4; m++)
        TT_EQ_U(num_sqrt_f32(0x40000000u, RND[m], 0), m == RP ? 0x3fb504f4u : 0x3fb504f3u);
    TT_EQ_U(num_sqrt_f32(0x80000000u, PTX_RND_RN, 0), 0x80000000u);       /* sqrt(-0) = -0 */
    TT_EQ_U(num_sqrt_f32(0x80000000u, PTX_RND_RZ, 0), 0x80000000u);
    TT_EQ_U(num_sqrt_f32(0xbf800000u, PTX_RND_RN, 0), QNAN32);
    TT_EQ_U(num_sqrt_f32(0xbf800000u, PTX_RND_RM, 0), QNAN32);
    TT_EQ_U(num_sqrt_f32(0xff800000u, PTX_RND_RN, 0), QNAN32);
    TT_EQ_U(num_sqrt_f32(0x7f800000u, PTX_RND_RP, 0), 0x7f800000u);
    TT_EQ_U(num_sqrt_f32(1u, PTX_RND_RN, 0), 0x1a3504f3u);                /* 2^-74.5 */
    TT_EQ_U(num_sqrt_f32(1u, PTX_RND_RP, 0), 0x1a3504f4u);
    TT_EQ_U(num_sqrt_f32(0x80000001u, PTX_RND_RN, NUM_FTZ), 0x80000000u);  /* -subnormal -> -0 */
    TT_EQ_U(num_sqrt_f32(0x40800000u, PTX_RND_RZ, 0), 0x40000000u);        /* exact */
    /* rcp with IEEE rounding */
    TT_EQ_U(num_rcp_f32(0x40400000u, PTX_RND_RN, 0), 0x3eaaaaabu);
    TT_EQ_U(num_rcp_f32(0x40400000u, PTX_RND_RZ, 0), 0x3eaaaaaau);
    TT_EQ_U(num_rcp_f32(0x80000000u, PTX_RND_RN, 0), 0xff800000u);
    TT_EQ_U(num_rcp_f32(0x7f800000u, PTX_RND_RM, 0), 0u);
    TT_EQ_U(num_rcp_f32(0x00000001u, PTX_RND_RN, 0), 0x7f800000u);         /* 2^149 overflows */
    TT_EQ_U(num_rcp_f32(0x00000001u, PTX_RND_RZ, 0), 0x7f7fffffu);
    TT_EQ_U(num_rcp_f32(0x80000001u, PTX_RND_RN, NUM_FTZ), 0xff800000u);   /* 1/-0 */
    TT_EQ_U(num_rcp_f32(0x7f000000u, PTX_RND_RN, 0), 0x00400000u);         /* 2^-127: subnormal */
    TT_EQ_U(num_rcp_f32(0x7f000000u, PTX_RND_RN, NUM_FTZ), 0u);
    /* rcp.approx: table of the PTX ISA */
    TT_EQ_U(num_rcp_f32(0xff800000u, PTX_RND_NONE, NUM_APPROX), 0x80000000u);
    TT_EQ_U(num_rcp_f32(0x80000000u, PTX_RND_NONE, NUM_APPROX), 0xff800000u);
    TT_EQ_U(num_rcp_f32(0u, PTX_RND_NONE, NUM_APPROX), 0x7f800000u);
    TT_EQ_U(num_rcp_f32(0x7f800000u, PTX_RND_NONE, NUM_APPROX), 0u);
    TT_EQ_U(num_rcp_f32(0x7fc00000u, PTX_RND_NONE, NUM_APPROX), QNAN32);
    /* div.approx: 2^126 < |b| < 2^128 -> signed zero, or NaN for infinite a */
    TT_EQ_U(num_div_f32(0x3f800000u, 0x7f000000u, PTX_RND_NONE, NUM_APPROX), 0u);     /* b = 2^127 */
    TT_EQ_U(num_div_f32(0xbf800000u, 0x7f000000u, PTX_RND_NONE, NUM_APPROX), 0x80000000u);
    TT_EQ_U(num_div_f32(0x7f000000u, 0xff000000u, PTX_RND_NONE, NUM_APPROX), 0x80000000u); /* not 1! */
    TT_EQ_U(num_div_f32(0x7f800000u, 0x7f000000u, PTX_RND_NONE, NUM_APPROX), QNAN32);
    TT_EQ_U(num_div_f32(0x7f000000u, 0x7e800000u, PTX_RND_NONE, NUM_APPROX), 0x40000000u); /* b = 2^126 */
    TT_EQ_U(num_div_f32(0x7f000000u, 0xff000000u, PTX_RND_NONE, NUM_FULL), 0xbf800000u);  /* full range */
    TT_EQ_U(num_div_f32(0x3f800000u, 0u, PTX_RND_NONE, NUM_FULL), 0x7f800000u);
    TT_EQ_U(num_div_f32(0u, 0u, PTX_RND_NONE, NUM_APPROX), QNAN32);
}

/* ---- golden values: f64 ---------------------------------------------------- */

#define MODES64(fn, a, b, rn, rz, rm, rp)                                     \
    do {                                                                      \
        TT_EQ_U(fn(a, b, PTX_RND_RN, 0), rn);                                 \
        TT_EQ_U(fn(a, b, PTX_RND_RZ, 0), rz);                                 \
        TT_EQ_U(fn(a, b, PTX_RND_RM, 0), rm);                                 \
        TT_EQ_U(fn(a, b, PTX_RND_RP, 0), rp);                                 \
    } while (0)

#define ONE64 0x3ff0000000000000ull

static void t_f64_golden(void)
{
    MODES64(num_div_f64, ONE64, 0x4008000000000000ull, 0x3fd5555555555555ull, 0x3fd5555555555555ull,
            0x3fd5555555555555ull, 0x3fd5555555555556ull);
    MODES64(num_div_f64, 0xbff0000000000000ull, 0x4008000000000000ull, 0xbfd5555555555555ull,
            0xbfd5555555555555ull, 0xbfd5555555555556ull, 0xbfd5555555555555ull);
    /* 1 + 2^-53: a tie, to even */
    MODES64(num_add_f64, ONE64, 0x3ca0000000000000ull, ONE64, ONE64, ONE64, 0x3ff0000000000001ull);
    MODES64(num_sub_f64, ONE64, ONE64, 0ull, 0ull, 0x8000000000000000ull, 0ull);
    MODES64(num_mul_f64, 0x7fefffffffffffffull, 0x4000000000000000ull, 0x7ff0000000000000ull,
            0x7fefffffffffffffull, 0x7fefffffffffffffull, 0x7ff0000000000000ull);
    MODES64(num_mul_f64, 1ull, 0x3fe0000000000000ull, 0ull, 0ull, 0ull, 1ull);  /* 2^-1075 */
    /* sqrt(2): ...bcd is above the root, ...bcc below */
    TT_EQ_U(num_sqrt_f64(0x4000000000000000ull, PTX_RND_RN, 0), 0x3ff6a09e667f3bcdull);
    TT_EQ_U(num_sqrt_f64(0x4000000000000000ull, PTX_RND_RZ, 0), 0x3ff6a09e667f3bccull);
    TT_EQ_U(num_sqrt_f64(0x4000000000000000ull, PTX_RND_RM, 0), 0x3ff6a09e667f3bccull);
    TT_EQ_U(num_sqrt_f64(0x4000000000000000ull, PTX_RND_RP, 0), 0x3ff6a09e667f3bcdull);
    TT_EQ_U(num_sqrt_f64(0x8000000000000000ull, PTX_RND_RP, 0), 0x8000000000000000ull);
    /* fma: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104 */
    for (int m = 0; m < 4; m++)
        TT_EQ_U(num_fma_f64(0x3ff0000000000001ull, 0x3feffffffffffffeull, 0xbff0000000000000ull, RND[m], 0),
                0xb970000000000000ull);
    TT_EQ_U(num_rcp_f64(0x4008000000000000ull, PTX_RND_RP, 0), 0x3fd5555555555556ull);
    TT_EQ_U(num_rcp_f64(0x8000000000000000ull, PTX_RND_RN, 0), 0xfff0000000000000ull);
    /* .ftz has no meaning for f64: subnormals are kept */
    TT_EQ_U(num_add_f64(1ull, 1ull, PTX_RND_RN, NUM_FTZ), 2ull);
}

static void t_f64_nan_payload(void)
{
    /* "NaN payloads are supported for double-precision instructions": the
    ** first NaN operand, quieted; invalid operations give 0xfff8000000000000 */
    const uint64_t snan = 0x7ff0000000000123ull, qnan = 0xfff8000000000abcull;
    for (int m = 0; m < 4; m++) {
        TT_EQ_U(num_add_f64(snan, ONE64, RND[m], 0), 0x7ff8000000000123ull);
        TT_EQ_U(num_add_f64(ONE64, qnan, RND[m], 0), qnan);
        TT_EQ_U(num_sub_f64(ONE64, qnan, RND[m], 0), qnan);
        TT_EQ_U(num_mul_f64(qnan, snan, RND[m], 0), qnan);
        TT_EQ_U(num_div_f64(snan, qnan, RND[m], 0), 0x7ff8000000000123ull);
        TT_EQ_U(num_fma_f64(ONE64, ONE64, qnan, RND[m], 0), qnan);
        TT_EQ_U(num_fma_f64(ONE64, snan, qnan, RND[m], 0), 0x7ff8000000000123ull);
        TT_EQ_U(num_sqrt_f64(snan, RND[m], 0), 0x7ff8000000000123ull);
        TT_EQ_U(num_add_f64(0x7ff0000000000000ull, 0xfff0000000000000ull, RND[m], 0), DNAN64);
        TT_EQ_U(num_mul_f64(0ull, 0x7ff0000000000000ull, RND[m], 0), DNAN64);
        TT_EQ_U(num_div_f64(0ull, 0x8000000000000000ull, RND[m], 0), DNAN64);
        TT_EQ_U(num_sqrt_f64(0xbff0000000000000ull, RND[m], 0), DNAN64);
        TT_EQ_U(num_fma_f64(0x7ff0000000000000ull, 0ull, ONE64, RND[m], 0), DNAN64);
    }
    TT_EQ_U(num_add_f64(qnan, ONE64, PTX_RND_RN, NUM_SAT), 0ull);           /* .sat: NaN -> +0 */
    /* the helper for inline fast paths gives the same NaNs */
    TT_EQ_U(num_nan_f64(ONE64, snan, qnan, 3), 0x7ff8000000000123ull);
    TT_EQ_U(num_nan_f64(qnan, snan, 0, 2), qnan);
    TT_EQ_U(num_nan_f64(ONE64, snan, 0, 1), DNAN64);      /* only a is an input */
    TT_EQ_U(num_nan_f64(0x7ff0000000000000ull, 0xfff0000000000000ull, 0, 2), DNAN64);
}

/* ---- golden values: f16 / bf16 ---------------------------------------------- */

static void t_h_golden(void)
{
    /* f16: 1 + 2^-11 ties to 1; 1 + 3*2^-12 rounds up */
    TT_EQ_U(num_add_h(0x3c00, 0x1000, NUM_F16, PTX_RND_RN, 0), 0x3c00);
    TT_EQ_U(num_add_h(0x3c00, 0x1200, NUM_F16, PTX_RND_RN, 0), 0x3c01);
    /* 65504 + 16 = 65520: max + half an ulp, max odd -> inf */
    TT_EQ_U(num_add_h(0x7bff, 0x4c00, NUM_F16, PTX_RND_RN, 0), 0x7c00);
    TT_EQ_U(num_add_h(0x7bff, 0x4c00, NUM_F16, PTX_RND_RZ, 0), 0x7bff);
    /* subnormals: 2^-24 + 2^-24; .ftz */
    TT_EQ_U(num_add_h(0x0001, 0x0001, NUM_F16, PTX_RND_RN, 0), 0x0002);
    TT_EQ_U(num_add_h(0x0001, 0x0001, NUM_F16, PTX_RND_RN, NUM_FTZ), 0x0000);
    TT_EQ_U(num_mul_h(0x0001, 0x3800, NUM_F16, PTX_RND_RN, 0), 0x0000);   /* tie to even */
    TT_EQ_U(num_mul_h(0x8001, 0x3a00, NUM_F16, PTX_RND_RN, 0), 0x8001);   /* 0.75 ulp */
    TT_EQ_U(num_mul_h(0x0400, 0x3800, NUM_F16, PTX_RND_RN, NUM_FTZ), 0x0000); /* 2^-15 */
    /* NaN: canonical 0x7fff */
    TT_EQ_U(num_add_h(0x7c00, 0xfc00, NUM_F16, PTX_RND_RN, 0), QNANH);
    TT_EQ_U(num_mul_h(0x7e01, 0x3c00, NUM_F16, PTX_RND_RN, 0), QNANH);
    TT_EQ_U(num_add_h(0x7fc0, 0x3f80, NUM_BF16, PTX_RND_RN, 0), QNANH);
    /* .sat and .relu */
    TT_EQ_U(num_add_h(0x4000, 0x0000, NUM_F16, PTX_RND_RN, NUM_SAT), 0x3c00);
    TT_EQ_U(num_add_h(0x7c00, 0xfc00, NUM_F16, PTX_RND_RN, NUM_SAT), 0x0000);
    TT_EQ_U(num_fma_h(0xbc00, 0x3c00, 0x0000, NUM_F16, PTX_RND_RN, NUM_RELU), 0x0000);
    TT_EQ_U(num_fma_h(0x7c00, 0x0000, 0x0000, NUM_F16, PTX_RND_RN, NUM_RELU), QNANH);
    TT_EQ_U(num_fma_h(0x3c00, 0x3c00, 0x3c00, NUM_F16, PTX_RND_RN, NUM_RELU), 0x4000);
    TT_EQ_U(num_fma_h(0xbf80, 0x3f80, 0x0000, NUM_BF16, PTX_RND_RN, NUM_RELU), 0x0000);
    /* bf16 fma is ONE rounding: 1.125 * 0.90625 = 1 + 5*2^-8 is the midpoint of
    ** 1+2*2^-7 (even) and 1+3*2^-7; + 2^-30 puts it above -> 0x3f83.  Rounding
    ** the product-sum to f32 first would lose the 2^-30 and give 0x3f82. */
    TT_EQ_U(num_fma_h(0x3f90, 0x3f68, 0x3080, NUM_BF16, PTX_RND_RN, 0), 0x3f83);
    TT_EQ_U(num_fma_h(0x3f90, 0x3f68, 0xb080, NUM_BF16, PTX_RND_RN, 0), 0x3f82);
    TT_EQ_U(num_fma_h(0x3f90, 0x3f68, 0x0000, NUM_BF16, PTX_RND_RN, 0), 0x3f82);
    TT_EQ_U(num_mul_h(0x3f90, 0x3f68, NUM_BF16, PTX_RND_RN, 0), 0x3f82);
    /* f16 fma the same way: (1 + 2^-10)(1 + 2^-10) = 1 + 2^-9 + 2^-20; + 2^-24 */
    TT_EQ_U(num_fma_h(0x3c01, 0x3c01, 0x0000, NUM_F16, PTX_RND_RN, 0), 0x3c02);
    /* bf16: 2^-133 is the smallest subnormal; 2^-133 * 0.5 ties to 0 */
    TT_EQ_U(num_mul_h(0x0001, 0x3f00, NUM_BF16, PTX_RND_RN, 0), 0x0000);
    TT_EQ_U(num_mul_h(0x0001, 0x3f40, NUM_BF16, PTX_RND_RN, 0), 0x0001);
    /* num_h_to_f32 */
    TT_EQ_U(num_h_to_f32(0x3c00, NUM_F16), 0x3f800000u);
    TT_EQ_U(num_h_to_f32(0x0001, NUM_F16), 0x33800000u);          /* 2^-24 */
    TT_EQ_U(num_h_to_f32(0x83ff, NUM_F16), 0xb87fc000u);          /* -1023 * 2^-24 */
    TT_EQ_U(num_h_to_f32(0xfc00, NUM_F16), 0xff800000u);
    TT_EQ_U(num_h_to_f32(0x3f80, NUM_BF16), 0x3f800000u);
    TT_EQ_U(num_h_to_f32(0x0001, NUM_BF16), 0x00010000u);
}

/* ---- min / max / abs / neg / copysign ------------------------------------------ */

static void t_minmax(void)
{
    TT_EQ_U(num_min_f32(0x80000000u, 0u, 0), 0x80000000u);     /* -0 < +0 */
    TT_EQ_U(num_min_f32(0u, 0x80000000u, 0), 0x80000000u);
    TT_EQ_U(num_max_f32(0x80000000u, 0u, 0), 0u);
    TT_EQ_U(num_max_f32(0u, 0x80000000u, 0), 0u);
    TT_EQ_U(num_min_f32(0x7fc00000u, 0x3f800000u, 0), 0x3f800000u);  /* NaN ignored */
    TT_EQ_U(num_min_f32(0x3f800000u, 0xffc00000u, 0), 0x3f800000u);
    TT_EQ_U(num_max_f32(0x7f800001u, 0xbf800000u, 0), 0xbf800000u);
    TT_EQ_U(num_min_f32(0x7fc00000u, 0xffc00001u, 0), QNAN32);
    TT_EQ_U(num_min_f32(0x7fc00000u, 0x3f800000u, NUM_NAN), QNAN32);
    TT_EQ_U(num_max_f32(0x3f800000u, 0x7fc00000u, NUM_NAN), QNAN32);
    TT_EQ_U(num_min_f32(0xff800000u, 0xff7fffffu, 0), 0xff800000u);
    TT_EQ_U(num_max_f32(0x7f800000u, 0x7f7fffffu, 0), 0x7f800000u);
    TT_EQ_U(num_min_f32(0xbf800000u, 0xc0000000u, 0), 0xc0000000u);  /* -2 */
    TT_EQ_U(num_max_f32(0xbf800000u, 0xc0000000u, 0), 0xbf800000u);
    TT_EQ_U(num_min_f32(0x3f800000u, 0x40000000u, 0), 0x3f800000u);
    /* .xorsign.abs */
    TT_EQ_U(num_min_f32(0xc0000000u, 0x40400000u, NUM_XORSIGN), 0xc0000000u); /* -|2| */
    TT_EQ_U(num_max_f32(0xc0000000u, 0x40400000u, NUM_XORSIGN), 0xc0400000u); /* -|3| */
    TT_EQ_U(num_min_f32(0xc0000000u, 0xc0400000u, NUM_XORSIGN), 0x40000000u);
    TT_EQ_U(num_min_f32(0xffc00000u, 0xc0400000u, NUM_XORSIGN), 0x40400000u); /* NaN skipped */
    TT_EQ_U(num_min_f32(0xffc00000u, 0xc0400000u, NUM_XORSIGN | NUM_NAN), QNAN32);
    /* .ftz */
    TT_EQ_U(num_min_f32(0x80000001u, 0x00000001u, 0), 0x80000001u);
    TT_EQ_U(num_min_f32(0x80000001u, 0x00000001u, NUM_FTZ), 0x80000000u);
    TT_EQ_U(num_max_f32(0x00000003u, 0x00000001u, NUM_FTZ), 0u);
    /* f64: payload of a lone NaN ignored; both NaN -> the first, quieted */
    TT_EQ_U(num_min_f64(0x8000000000000000ull, 0ull, 0), 0x8000000000000000ull);
    TT_EQ_U(num_max_f64(0x8000000000000000ull, 0ull, 0), 0ull);
    TT_EQ_U(num_min_f64(0x7ff0000000000001ull, ONE64, 0), ONE64);
    TT_EQ_U(num_max_f64(0x7ff0000000000001ull, 0xfff8000000000002ull, 0), 0x7ff8000000000001ull);
    TT_EQ_U(num_min_f64(1ull, 2ull, NUM_FTZ), 1ull);
    /* f16 / bf16 */
    TT_EQ_U(num_min_h(0x8000, 0x0000, NUM_F16, 0), 0x8000);
    TT_EQ_U(num_max_h(0x8000, 0x0000, NUM_F16, 0), 0x0000);
    TT_EQ_U(num_max_h(0x7e00, 0x3c00, NUM_F16, 0), 0x3c00);
    TT_EQ_U(num_max_h(0x7e00, 0x7e01, NUM_F16, 0), QNANH);
    TT_EQ_U(num_max_h(0x7e00, 0x3c00, NUM_F16, NUM_NAN), QNANH);
    TT_EQ_U(num_min_h(0xc000, 0x4200, NUM_F16, NUM_XORSIGN), 0xc000);
    TT_EQ_U(num_min_h(0x8001, 0x0001, NUM_F16, NUM_FTZ), 0x8000);
    TT_EQ_U(num_min_h(0xbf80, 0xc000, NUM_BF16, 0), 0xc000);
    TT_EQ_U(num_max_h(0xff80, 0x7f80, NUM_BF16, 0), 0x7f80);
    TT_EQ_U(num_max_h(0xbf80, 0xc000, NUM_BF16, NUM_RELU), 0x0000);
}

static void t_abs_neg_copysign(void)
{
    TT_EQ_U(num_abs_f32(0x80000000u, 0), 0u);
    TT_EQ_U(num_abs_f32(0xbf800000u, 0), 0x3f800000u);
    TT_EQ_U(num_abs_f32(0xffc00000u, 0), QNAN32);
    TT_EQ_U(num_abs_f32(0x80000001u, 0), 1u);
    TT_EQ_U(num_abs_f32(0x80000001u, NUM_FTZ), 0u);
    TT_EQ_U(num_neg_f32(0u, 0), 0x80000000u);
    TT_EQ_U(num_neg_f32(0x00000001u, NUM_FTZ), 0x80000000u);
    TT_EQ_U(num_neg_f32(0x7f800000u, 0), 0xff800000u);
    TT_EQ_U(num_neg_f32(0x7fc00000u, 0), QNAN32);
    TT_EQ_U(num_abs_f64(0xfff8000000000001ull), 0xfff8000000000001ull);  /* NaN unchanged */
    TT_EQ_U(num_abs_f64(0x8000000000000001ull), 1ull);
    TT_EQ_U(num_neg_f64(0ull), 0x8000000000000000ull);
    TT_EQ_U(num_neg_f64(0x7ff8000000000000ull), 0xfff8000000000000ull);
    TT_EQ_U(num_copysign_f32(0xbf800000u, 0x40000000u), 0xc0000000u);   /* b with a's sign */
    TT_EQ_U(num_copysign_f32(0u, 0xffc00000u), 0x7fc00000u);
    TT_EQ_U(num_copysign_f64(0x8000000000000000ull, ONE64), 0xbff0000000000000ull);
    TT_EQ_U(num_abs_h(0x8001, NUM_F16, 0), 0x0001);
    TT_EQ_U(num_abs_h(0x8001, NUM_F16, NUM_FTZ), 0x0000);
    TT_EQ_U(num_neg_h(0x3c00, NUM_F16, 0), 0xbc00);
    TT_EQ_U(num_neg_h(0xffc1, NUM_BF16, 0), QNANH);
}

/* ---- comparisons and testp -------------------------------------------------------- */

static void t_cmp_testp(void)
{
    const uint32_t nan = 0x7fc00000u, one = 0x3f800000u;
    TT_CHECK(!num_cmp_f32(nan, one, PTX_CMP_EQ, 0));
    TT_CHECK(!num_cmp_f32(nan, one, PTX_CMP_NE, 0));
    TT_CHECK(num_cmp_f32(nan, one, PTX_CMP_NEU, 0));
    TT_CHECK(num_cmp_f32(nan, nan, PTX_CMP_EQU, 0));
    TT_CHECK(!num_cmp_f32(nan, one, PTX_CMP_LT, 0));
    TT_CHECK(num_cmp_f32(nan, one, PTX_CMP_GEU, 0));
    TT_CHECK(num_cmp_f32(nan, one, PTX_CMP_NAN, 0));
    TT_CHECK(!num_cmp_f32(nan, one, PTX_CMP_NUM, 0));
    TT_CHECK(num_cmp_f32(one, one, PTX_CMP_NUM, 0));
    TT_CHECK(num_cmp_f32(0x80000000u, 0u, PTX_CMP_EQ, 0));   /* -0 == +0 */
    TT_CHECK(!num_cmp_f32(0x80000000u, 0u, PTX_CMP_LT, 0));
    TT_CHECK(num_cmp_f32(1u, 2u, PTX_CMP_LT, 0));
    TT_CHECK(!num_cmp_f32(1u, 2u, PTX_CMP_LT, NUM_FTZ));     /* both flushed to 0 */
    TT_CHECK(num_cmp_f32(1u, 0x80000002u, PTX_CMP_EQ, NUM_FTZ));
    TT_CHECK(num_cmp_f32(0xff800000u, 0xff7fffffu, PTX_CMP_LT, 0));
    TT_CHECK(num_cmp_f64(0x8000000000000000ull, 0ull, PTX_CMP_GE));
    TT_CHECK(!num_cmp_f64(0x7ff8000000000000ull, 0ull, PTX_CMP_GE));
    TT_CHECK(num_cmp_f64(0x7ff8000000000000ull, 0ull, PTX_CMP_LTU));
    TT_CHECK(num_cmp_h(0x8000, 0x0000, NUM_F16, PTX_CMP_EQ, 0));
    TT_CHECK(num_cmp_h(0x0001, 0x0002, NUM_F16, PTX_CMP_LT, 0));
    TT_CHECK(num_cmp_h(0x0001, 0x0002, NUM_F16, PTX_CMP_EQ, NUM_FTZ));
    TT_CHECK(num_cmp_h(0xbf80, 0x3f80, NUM_BF16, PTX_CMP_LT, 0));
    TT_CHECK(num_cmp_h(0x7fc0, 0x3f80, NUM_BF16, PTX_CMP_NAN, 0));
    /* integers: signedness from the type, LO/LS/HI/HS always unsigned */
    TT_CHECK(num_cmp_int(0xffffffffull, 0, PTX_CMP_LT, PTX_T_S32));
    TT_CHECK(!num_cmp_int(0xffffffffull, 0, PTX_CMP_LT, PTX_T_U32));
    TT_CHECK(num_cmp_int(0xffffffffull, 0, PTX_CMP_HI, PTX_T_S32));
    TT_CHECK(num_cmp_int(0x80, 0x7f, PTX_CMP_LT, PTX_T_S8));
    TT_CHECK(num_cmp_int(0x1ff, 0xffffffffffffffffull, PTX_CMP_EQ, PTX_T_S8)); /* only 8 bits */
    TT_CHECK(num_cmp_int(0x8000000000000000ull, 1, PTX_CMP_LE, PTX_T_S64));
    TT_CHECK(num_cmp_int(0x8000000000000000ull, 1, PTX_CMP_HS, PTX_T_S64));
    TT_CHECK(num_cmp_int(5, 5, PTX_CMP_GE, PTX_T_B32));
    TT_CHECK(!num_cmp_int(5, 5, PTX_CMP_NE, PTX_T_U16));
    /* testp: zero is "normal" */
    struct { uint64_t v; ptx_type t; int fin, inf, num, nan, nor, sub; } tp[] = {
        {0u, PTX_T_F32, 1, 0, 1, 0, 1, 0},
        {0x80000000u, PTX_T_F32, 1, 0, 1, 0, 1, 0},
        {1u, PTX_T_F32, 1, 0, 1, 0, 0, 1},
        {0x807fffffu, PTX_T_F32, 1, 0, 1, 0, 0, 1},
        {0x00800000u, PTX_T_F32, 1, 0, 1, 0, 1, 0},
        {0xff800000u, PTX_T_F32, 0, 1, 1, 0, 0, 0},
        {0x7fc00000u, PTX_T_F32, 0, 0, 0, 1, 0, 0},
        {0x7f800001u, PTX_T_F32, 0, 0, 0, 1, 0, 0},
        {1ull, PTX_T_F64, 1, 0, 1, 0, 0, 1},
        {0x0010000000000000ull, PTX_T_F64, 1, 0, 1, 0, 1, 0},
        {0x7ff0000000000000ull, PTX_T_F64, 0, 1, 1, 0, 0, 0},
        {0xfff0000000000001ull, PTX_T_F64, 0, 0, 0, 1, 0, 0},
        {0x8000000000000000ull, PTX_T_F64, 1, 0, 1, 0, 1, 0},
    };
    for (size_t i = 0; i < sizeof tp / sizeof tp[0]; i++) {
        TT_EQ_U(num_testp(tp[i].v, tp[i].t, PTX_SUB_FINITE), tp[i].fin);
        TT_EQ_U(num_testp(tp[i].v, tp[i].t, PTX_SUB_INFINITE), tp[i].inf);
        TT_EQ_U(num_testp(tp[i].v, tp[i].t, PTX_SUB_NUMBER), tp[i].num);
        TT_EQ_U(num_testp(tp[i].v, tp[i].t, PTX_SUB_NOTANUMBER), tp[i].nan);
        TT_EQ_U(num_testp(tp[i].v, tp[i].t, PTX_SUB_NORMAL), tp[i].nor);
        TT_EQ_U(num_testp(tp[i].v, tp[i].t, PTX_SUB_SUBNORMAL), tp[i].sub);
    }
}

/* ---- randomized cross-checks --------------------------------------------------- */

static uint64_t impl_op(ref_fmt f, int op, uint64_t a, uint64_t b, uint64_t c, int rnd, unsigned fl)
{
    if (f.mbits == 23) {
        switch (op) {
        case '+': return num_add_f32((uint32_t)a, (uint32_t)b, rnd, fl);
        case '-': return num_sub_f32((uint32_t)a, (uint32_t)b, rnd, fl);
        case '*': return num_mul_f32((uint32_t)a, (uint32_t)b, rnd, fl);
        case '/': return num_div_f32((uint32_t)a, (uint32_t)b, rnd, fl);
        case 's': return num_sqrt_f32((uint32_t)a, rnd, fl);
        default: return num_fma_f32((uint32_t)a, (uint32_t)b, (uint32_t)c, rnd, fl);
        }
    }
    if (f.mbits == 52) {
        switch (op) {
        case '+': return num_add_f64(a, b, rnd, fl);
        case '-': return num_sub_f64(a, b, rnd, fl);
        case '*': return num_mul_f64(a, b, rnd, fl);
        case '/': return num_div_f64(a, b, rnd, fl);
        case 's': return num_sqrt_f64(a, rnd, fl);
        default: return num_fma_f64(a, b, c, rnd, fl);
        }
    }
    int fmt = f.mbits == 7 ? NUM_BF16 : NUM_F16;
    switch (op) {
    case '+': return num_add_h((uint16_t)a, (uint16_t)b, fmt, rnd, fl);
    case '-': return num_sub_h((uint16_t)a, (uint16_t)b, fmt, rnd, fl);
    case '*': return num_mul_h((uint16_t)a, (uint16_t)b, fmt, rnd, fl);
    default: return num_fma_h((uint16_t)a, (uint16_t)b, (uint16_t)c, fmt, rnd, fl);
    }
}

/* The NaN the implementation must produce (policy, see num_impl.h). */
static uint64_t want_nan(ref_fmt f, int op, uint64_t a, uint64_t b, uint64_t c)
{
    if (f.mbits == 23) return QNAN32;
    if (f.mbits != 52) return QNANH;
    int n = op == 's' ? 1 : op == 'f' ? 3 : 2;
    uint64_t in[3] = {a, b, c};
    for (int i = 0; i < n; i++)
        if (ref_isnan(f, in[i])) return in[i] | (1ull << 51);
    return DNAN64;
}

static long rand_fail, rand_checks;

/* n random operand sets for op in every mode (and with/without ftz where
** ftz is allowed), each result compared with the bit-array reference and,
** for f32/f64 without ftz, with the host FPU. */
static void cross_check(ref_fmt f, int op, int n, int with_ftz)
{
    for (int m = 0; m < 4; m++)
        for (int z = 0; z <= with_ftz; z++)
            for (int i = 0; i < n; i++) {
                uint64_t a = ref_rand_float(f), b = ref_rand_float(f), c = ref_rand_float(f);
                if (i % 5 == 0 && op == 'f') {
                    /* make cancellation likely: c near -(a*b) */
                    c = impl_op(f, '*', a, b, 0, PTX_RND_RN, 0) ^ ref_signbit(f);
                    c += (ref_rand() % 5) - 2;
                }
                uint64_t got = impl_op(f, op, a, b, c, RND[m], z ? NUM_FTZ : 0);
                uint64_t want;
                int refop = op == '-' ? '+' : op;
                uint64_t rb = op == '-' && !ref_isnan(f, b) ? b ^ ref_signbit(f) : b;
                if (!ref_op(refop, f, a, rb, c, REFR[m], z, &want)) want = want_nan(f, op, a, b, c);
                rand_checks++;
                tt_nchecks++;
                if (got != want && rand_fail++ < 8)
                    tt_fail_msg(__FILE__, __LINE__, "fmt m%d op %c mode %d ftz %d: a=%#" PRIx64 " b=%#" PRIx64
                                " c=%#" PRIx64 " got %#" PRIx64 " want %#" PRIx64, f.mbits, op, m, z, a, b, c,
                                got, want);
            }
}

static void host_check(int op, int n)
{
    for (int m = 0; m < 4; m++)
        for (int i = 0; i < n; i++) {
            uint32_t a = (uint32_t)ref_rand_float(REF_F32), b = (uint32_t)ref_rand_float(REF_F32),
                     c = (uint32_t)ref_rand_float(REF_F32);
            uint32_t got = (uint32_t)impl_op(REF_F32, op, a, b, c, RND[m], 0);
            uint32_t want = host_op32(op, a, b, c, REFR[m]);
            if (ref_isnan(REF_F32, want)) want = QNAN32;
            uint64_t A = ref_rand_float(REF_F64), B = ref_rand_float(REF_F64), C = ref_rand_float(REF_F64);
            uint64_t got64 = impl_op(REF_F64, op, A, B, C, RND[m], 0);
            uint64_t want64 = host_op64(op, A, B, C, REFR[m]);
            if (ref_isnan(REF_F64, want64)) want64 = want_nan(REF_F64, op, A, B, C);
            rand_checks += 2;
            tt_nchecks += 2;
            if (got != want && rand_fail++ < 8)
                tt_fail_msg(__FILE__, __LINE__, "host f32 op %c mode %d: %#x %#x %#x got %#x want %#x", op, m,
                            a, b, c, got, want);
            if (got64 != want64 && rand_fail++ < 8)
                tt_fail_msg(__FILE__, __LINE__, "host f64 op %c mode %d: %#" PRIx64 " %#" PRIx64 " %#" PRIx64
                            " got %#" PRIx64 " want %#" PRIx64, op, m, A, B, C, got64, want64);
        }
}

static void t_random_f32_ref(void)
{
    const char ops[] = "+-*f/s";
    for (int i = 0; ops[i]; i++) cross_check(REF_F32, ops[i], 1500, 1);
}

static void t_random_f64_ref(void)
{
    const char ops[] = "+-*f/s";
    for (int i = 0; ops[i]; i++) cross_check(REF_F64, ops[i], 1500, 0);
}

static void t_random_h_ref(void)
{
    const char ops[] = "+-*f";
    for (int i = 0; ops[i]; i++) {
        cross_check(REF_F16, ops[i], 1500, 1);
        cross_check(REF_BF16, ops[i], 1500, 0);
    }
}

static void t_random_host(void)
{
    const char ops[] = "+-*f/s";
    for (int i = 0; ops[i]; i++) host_check(ops[i], 40000);
}

/* Results must not depend on the host's rounding mode (the RN paths use the
** host FPU, which must be in round-to-nearest: tpsim never changes it).
** This checks the directed paths leave the mode alone. */
static void t_mode_restored(void)
{
    num_add_f32(0x3f800000u, 0x33800000u, PTX_RND_RP, 0);
    num_div_f64(ONE64, 0x4008000000000000ull, PTX_RND_RZ, 0);
    num_sqrt_f32(0x40000000u, PTX_RND_RM, 0);
    TT_EQ_I(fegetround(), FE_TONEAREST);
}

int main(void)
{
    TT_RUN(t_f32_add_rounding);
    TT_RUN(t_f32_mul_subnormal_ftz);
    TT_RUN(t_f32_sat_relu);
    TT_RUN(t_f32_fma);
    TT_RUN(t_f32_div_sqrt_rcp);
    TT_RUN(t_f64_golden);
    TT_RUN(t_f64_nan_payload);
    TT_RUN(t_h_golden);
    TT_RUN(t_minmax);
    TT_RUN(t_abs_neg_copysign);
    TT_RUN(t_cmp_testp);
    TT_RUN(t_random_f32_ref);
    TT_RUN(t_random_f64_ref);
    TT_RUN(t_random_h_ref);
    TT_RUN(t_random_host);
    TT_RUN(t_mode_restored);
    printf("# test_num_float: %ld randomized comparisons, %d checks in all\n", rand_checks, tt_nchecks);
    return tt_done();
}
