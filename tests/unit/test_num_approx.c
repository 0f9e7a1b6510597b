/*
** test_num_approx.c -- the .approx functions of exec/num.h: the special-input
** tables of the PTX ISA, and accuracy sweeps against long double (x87
** extended, 64-bit significand) references with the bound the PTX ISA
** documents for each; the measured maximum errors are printed ("# max").
*/
#include "tt.h"
#include "exec/num.h"
#include <float.h>

#define QNAN32 0x7fffffffu

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static uint64_t rng = 0x6a09e667f3bcc908ull;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static double rnd01(void) { return (double)(rnd64() >> 11) * 0x1p-53; }

/* ulp of an f32 result near y (subnormal spacing below 2^-126). */
static long double ulp32(long double y)
{
    int e;
    frexpl(fabsl(y), &e);               /* |y| in [2^(e-1), 2^e) */
    if (e - 1 < -126) e = -125;
    return ldexpl(1, e - 1 - 23);
}

/* Running maximum of an error, reported at the end of a test. */
typedef struct { const char *name, *unit; double max, bound; double at; long n; } errstat;

static void err_add(errstat *s, double err, double x)
{
    s->n++;
    tt_nchecks++;
    if (err > s->max) { s->max = err; s->at = x; }
    if (!(err <= s->bound))
        tt_fail_msg(__FILE__, __LINE__, "%s: error %g %s at x = %a exceeds %g", s->name, err, s->unit, x, s->bound);
}

static void err_report(const errstat *s)
{
    printf("# max error %-26s %.4g %s (log2 %.2f) at x=%a, bound %.4g, %ld inputs\n", s->name, s->max, s->unit,
           s->max > 0 ? log2(s->max) : -INFINITY, s->at, s->bound, s->n);
}

/* ---- special inputs --------------------------------------------------------------- */

static void t_special_f32(void)
{
    /* ex2: -inf +0, -0 +1, +0 +1, +inf +inf, NaN NaN */
    TT_EQ_U(num_ex2_f32(0xff800000u, 0), 0u);
    TT_EQ_U(num_ex2_f32(0x80000000u, 0), 0x3f800000u);
    TT_EQ_U(num_ex2_f32(0u, 0), 0x3f800000u);
    TT_EQ_U(num_ex2_f32(0x7f800000u, 0), 0x7f800000u);
    TT_EQ_U(num_ex2_f32(0x7fc00001u, 0), QNAN32);
    TT_EQ_U(num_ex2_f32(f2u(128.0f), 0), 0x7f800000u);
    TT_EQ_U(num_ex2_f32(f2u(-149.0f), 0), 1u);             /* 2^-149 */
    TT_EQ_U(num_ex2_f32(f2u(-149.0f), NUM_FTZ), 0u);
    TT_EQ_U(num_ex2_f32(0x80000001u, NUM_FTZ), 0x3f800000u);
    TT_EQ_U(num_ex2_f32(f2u(3.0f), 0), f2u(8.0f));
    /* lg2: -inf NaN, -normal NaN, -0 -inf, +0 -inf, +inf +inf, NaN NaN */
    TT_EQ_U(num_lg2_f32(0xff800000u, 0), QNAN32);
    TT_EQ_U(num_lg2_f32(0xbf800000u, 0), QNAN32);
    TT_EQ_U(num_lg2_f32(0x80000000u, 0), 0xff800000u);
    TT_EQ_U(num_lg2_f32(0u, 0), 0xff800000u);
    TT_EQ_U(num_lg2_f32(0x7f800000u, 0), 0x7f800000u);
    TT_EQ_U(num_lg2_f32(0x7fc00000u, 0), QNAN32);
    TT_EQ_U(num_lg2_f32(1u, 0), f2u(-149.0f));
    TT_EQ_U(num_lg2_f32(1u, NUM_FTZ), 0xff800000u);
    TT_EQ_U(num_lg2_f32(0x80000001u, 0), QNAN32);
    TT_EQ_U(num_lg2_f32(f2u(1024.0f), 0), f2u(10.0f));
    /* sin/cos: inf -> NaN; sin(-0) = -0; cos(+-0) = 1 */
    TT_EQ_U(num_sin_f32(0xff800000u, 0), QNAN32);
    TT_EQ_U(num_sin_f32(0x7f800000u, 0), QNAN32);
    TT_EQ_U(num_sin_f32(0x80000000u, 0), 0x80000000u);
    TT_EQ_U(num_sin_f32(0u, 0), 0u);
    TT_EQ_U(num_cos_f32(0x80000000u, 0), 0x3f800000u);
    TT_EQ_U(num_cos_f32(0xff800000u, 0), QNAN32);
    TT_EQ_U(num_sin_f32(0x80000001u, 0), 0x80000001u);     /* sin x = x for tiny x */
    TT_EQ_U(num_sin_f32(0x80000001u, NUM_FTZ), 0x80000000u);
    /* rsqrt: -inf NaN, -normal NaN, -0 -inf, +0 +inf, +inf +0 */
    TT_EQ_U(num_rsqrt_f32(0xff800000u, 0), QNAN32);
    TT_EQ_U(num_rsqrt_f32(0xc0800000u, 0), QNAN32);
    TT_EQ_U(num_rsqrt_f32(0x80000000u, 0), 0xff800000u);
    TT_EQ_U(num_rsqrt_f32(0u, 0), 0x7f800000u);
    TT_EQ_U(num_rsqrt_f32(0x7f800000u, 0), 0u);
    TT_EQ_U(num_rsqrt_f32(f2u(4.0f), 0), f2u(0.5f));
    TT_EQ_U(num_rsqrt_f32(0x80000001u, NUM_FTZ), 0xff800000u);
    TT_EQ_U(num_rsqrt_f32(0x00000001u, 0), 0x64b504f3u);   /* 2^74.5 */
    /* tanh: -inf -1, -0 -0, +0 +0, +inf 1, NaN NaN; subnormals pass */
    TT_EQ_U(num_tanh_f32(0xff800000u, 0), 0xbf800000u);
    TT_EQ_U(num_tanh_f32(0x7f800000u, 0), 0x3f800000u);
    TT_EQ_U(num_tanh_f32(0x80000000u, 0), 0x80000000u);
    TT_EQ_U(num_tanh_f32(0x7fc00000u, 0), QNAN32);
    TT_EQ_U(num_tanh_f32(0x00000123u, 0), 0x00000123u);
    TT_EQ_U(num_tanh_f32(f2u(20.0f), 0), 0x3f800000u);
    /* sqrt.approx: -0 -> -0, -normal -> NaN */
    TT_EQ_U(num_sqrt_f32(0x80000000u, PTX_RND_NONE, NUM_APPROX), 0x80000000u);
    TT_EQ_U(num_sqrt_f32(0xbf800000u, PTX_RND_NONE, NUM_APPROX), QNAN32);
    TT_EQ_U(num_sqrt_f32(0x7f800000u, PTX_RND_NONE, NUM_APPROX), 0x7f800000u);
    TT_EQ_U(num_sqrt_f32(0x00000001u, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0u);
}

static void t_special_h(void)
{
    /* ex2.approx.f16: -inf +0, +-0 +1, +inf +inf, NaN NaN; subnormal input ok */
    TT_EQ_U(num_ex2_h(0xfc00, NUM_F16, 0), 0x0000);
    TT_EQ_U(num_ex2_h(0x8000, NUM_F16, 0), 0x3c00);
    TT_EQ_U(num_ex2_h(0x7c00, NUM_F16, 0), 0x7c00);
    TT_EQ_U(num_ex2_h(0x7e00, NUM_F16, 0), 0x7fff);
    TT_EQ_U(num_ex2_h(0x4c00, NUM_F16, 0), 0x7c00);           /* 2^16 overflows */
    TT_EQ_U(num_ex2_h(0xce00, NUM_F16, 0), 0x0001);           /* 2^-24 */
    TT_EQ_U(num_ex2_h(0x4400, NUM_F16, 0), 0x4c00);           /* 2^4 = 16 */
    /* ex2.approx.ftz.bf16: -subnormal +1, +subnormal +1, results flushed */
    TT_EQ_U(num_ex2_h(0x8001, NUM_BF16, NUM_FTZ), 0x3f80);
    TT_EQ_U(num_ex2_h(0x0001, NUM_BF16, NUM_FTZ), 0x3f80);
    TT_EQ_U(num_ex2_h(0xff80, NUM_BF16, NUM_FTZ), 0x0000);
    TT_EQ_U(num_ex2_h(0x7f80, NUM_BF16, NUM_FTZ), 0x7f80);
    TT_EQ_U(num_ex2_h(0xc304, NUM_BF16, NUM_FTZ), 0x0000);     /* 2^-132: subnormal -> 0 */
    TT_EQ_U(num_ex2_h(0xc304, NUM_BF16, 0), 0x0002);
    /* tanh f16/bf16 */
    TT_EQ_U(num_tanh_h(0xfc00, NUM_F16, 0), 0xbc00);
    TT_EQ_U(num_tanh_h(0x7c00, NUM_F16, 0), 0x3c00);
    TT_EQ_U(num_tanh_h(0x8000, NUM_F16, 0), 0x8000);
    TT_EQ_U(num_tanh_h(0x0001, NUM_F16, 0), 0x0001);
    TT_EQ_U(num_tanh_h(0xff80, NUM_BF16, 0), 0xbf80);
    TT_EQ_U(num_tanh_h(0x7fc1, NUM_BF16, 0), 0x7fff);
}

static void t_special_f64(void)
{
    /* rcp.approx.ftz.f64: table on the upper word; NaN -> 0x7fffffff00000000 */
    TT_EQ_U(num_rcp_f64(0xfff0000000000000ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x8000000000000000ull);
    TT_EQ_U(num_rcp_f64(0x800fffffffffffffull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0xfff0000000000000ull);
    TT_EQ_U(num_rcp_f64(0x8000000000000000ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0xfff0000000000000ull);
    TT_EQ_U(num_rcp_f64(0ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x7ff0000000000000ull);
    TT_EQ_U(num_rcp_f64(1ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x7ff0000000000000ull);
    TT_EQ_U(num_rcp_f64(0x7ff0000000000000ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0ull);
    TT_EQ_U(num_rcp_f64(0x7ff8000000000001ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x7fffffff00000000ull);
    TT_EQ_U(num_rcp_f64(0xfff4000000000000ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x7fffffff00000000ull);
    TT_EQ_U(num_rcp_f64(0x4000000000000000ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x3fe0000000000000ull);
    TT_EQ_U(num_rcp_f64(0x4000000012345678ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x3fe0000000000000ull);
    TT_EQ_U(num_rcp_f64(0x7fe0000000000000ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0ull);  /* 2^-1023 flushed */
    TT_EQ_U(num_rcp_f64(0x0010000000000000ull, PTX_RND_NONE, NUM_APPROX | NUM_FTZ), 0x7fd0000000000000ull);
    /* rsqrt.approx.ftz.f64: -inf NaN, -subnormal -inf, -0 -inf, +0 +inf, +inf +0 */
    TT_EQ_U(num_rsqrt_f64(0xfff0000000000000ull, NUM_FTZ), 0x7fffffff00000000ull);
    TT_EQ_U(num_rsqrt_f64(0x8000000000000001ull, NUM_FTZ), 0xfff0000000000000ull);
    TT_EQ_U(num_rsqrt_f64(0x8000000000000000ull, NUM_FTZ), 0xfff0000000000000ull);
    TT_EQ_U(num_rsqrt_f64(0ull, NUM_FTZ), 0x7ff0000000000000ull);
    TT_EQ_U(num_rsqrt_f64(0x000fffffffffffffull, NUM_FTZ), 0x7ff0000000000000ull);
    TT_EQ_U(num_rsqrt_f64(0x7ff0000000000000ull, NUM_FTZ), 0ull);
    TT_EQ_U(num_rsqrt_f64(0xbff0000000000000ull, NUM_FTZ), 0x7fffffff00000000ull);
    TT_EQ_U(num_rsqrt_f64(0x4010000000000000ull, NUM_FTZ), 0x3fe0000000000000ull);      /* 1/sqrt(4) */
    /* rsqrt.approx.f64: subnormals supported, NaN payload kept */
    TT_EQ_U(num_rsqrt_f64(0x4010000000000000ull, 0), 0x3fe0000000000000ull);
    TT_EQ_U(num_rsqrt_f64(0x8000000000000000ull, 0), 0xfff0000000000000ull);
    TT_EQ_U(num_rsqrt_f64(0xbff0000000000000ull, 0), 0xfff8000000000000ull);
    TT_EQ_U(num_rsqrt_f64(0x7ff0000000000000ull, 0), 0ull);
    TT_EQ_U(num_rsqrt_f64(0x7ff0000000000123ull, 0), 0x7ff8000000000123ull);
    TT_EQ_U(num_rsqrt_f64(1ull, 0), 0x6180000000000000ull);     /* 1/sqrt(2^-1074) = 2^537 */
}

/* ---- accuracy sweeps ----------------------------------------------------------------------- */

static void t_accuracy_f32(void)
{
    errstat ex2 = {"ex2.approx.f32", "ulp", 0, 2.0, 0, 0};
    errstat lg2a = {"lg2.approx.f32 (0.5,2)", "abs", 0, 0x1p-22, 0, 0};
    errstat lg2r = {"lg2.approx.f32 elsewhere", "rel", 0, 0x1p-22, 0, 0};
    errstat sin1 = {"sin.approx.f32 [-2pi,2pi]", "abs", 0, exp2(-20.5), 0, 0};
    errstat cos1 = {"cos.approx.f32 [-2pi,2pi]", "abs", 0, exp2(-20.5), 0, 0};
    errstat sin2 = {"sin.approx.f32 [-100pi,100pi]", "abs", 0, exp2(-14.7), 0, 0};
    errstat cos2 = {"cos.approx.f32 [-100pi,100pi]", "abs", 0, exp2(-14.7), 0, 0};
    errstat rsq = {"rsqrt.approx.f32", "rel", 0, exp2(-22.9), 0, 0};
    errstat th = {"tanh.approx.f32", "rel", 0, 0x1p-11, 0, 0};
    errstat rcp = {"rcp.approx.f32", "ulp", 0, 1.0, 0, 0};
    errstat sq = {"sqrt.approx.f32", "rel", 0, 0x1p-23, 0, 0};
    errstat dva = {"div.approx.f32", "ulp", 0, 2.0, 0, 0};
    errstat dvf = {"div.full.f32", "ulp", 0, 2.0, 0, 0};
    for (int i = 0; i < 400000; i++) {
        /* ex2 over its whole range (results from subnormal to max) */
        float x = (float)(-150.0 + 278.0 * rnd01());
        long double r = exp2l(x);
        float g = u2f(num_ex2_f32(f2u(x), 0));
        if (r <= FLT_MAX) err_add(&ex2, (double)(fabsl(g - r) / ulp32(r)), x);
        /* lg2: (0.5, 2) absolute, any positive float (incl. subnormal) relative */
        x = (float)(0.5 + 1.5 * rnd01());
        if (x > 0.5f && x < 2.0f) {
            r = log2l(x);
            g = u2f(num_lg2_f32(f2u(x), 0));
            err_add(&lg2a, (double)fabsl(g - r), x);
        }
        uint32_t xb = (uint32_t)(rnd64() & 0x7fffffffu);
        if (xb < 0x7f800000u && xb) {
            x = u2f(xb);
            if (!(x > 0.5f && x < 2.0f)) {
                r = log2l(x);
                g = u2f(num_lg2_f32(xb, 0));
                err_add(&lg2r, (double)(fabsl(g - r) / fabsl(r)), x);
            }
            /* rsqrt, sqrt.approx, rcp.approx over every positive float */
            r = 1.0L / sqrtl(x);
            g = u2f(num_rsqrt_f32(xb, 0));
            err_add(&rsq, (double)(fabsl(g - r) / r), x);
            r = sqrtl(x);
            g = u2f(num_sqrt_f32(xb, PTX_RND_NONE, NUM_APPROX));
            err_add(&sq, (double)(fabsl(g - r) / r), x);
            r = 1.0L / x;
            if (r <= FLT_MAX) {
                g = u2f(num_rcp_f32(xb, PTX_RND_NONE, NUM_APPROX));
                err_add(&rcp, (double)(fabsl(g - r) / ulp32(r)), x);
            }
        }
        /* sin / cos */
        x = (float)((2.0 * rnd01() - 1.0) * 2.0 * M_PI);
        err_add(&sin1, (double)fabsl(u2f(num_sin_f32(f2u(x), 0)) - sinl(x)), x);
        err_add(&cos1, (double)fabsl(u2f(num_cos_f32(f2u(x), 0)) - cosl(x)), x);
        x = (float)((2.0 * rnd01() - 1.0) * 100.0 * M_PI);
        err_add(&sin2, (double)fabsl(u2f(num_sin_f32(f2u(x), 0)) - sinl(x)), x);
        err_add(&cos2, (double)fabsl(u2f(num_cos_f32(f2u(x), 0)) - cosl(x)), x);
        /* tanh: both a linear range and every float */
        x = i & 1 ? (float)((2.0 * rnd01() - 1.0) * 12.0) : u2f((uint32_t)rnd64() & 0xff7fffffu);
        if (!isnan(x) && x != 0.0f) {
            r = tanhl(x);
            g = u2f(num_tanh_f32(f2u(x), 0));
            err_add(&th, (double)(fabsl(g - r) / fabsl(r)), x);
        }
        /* div.approx for |b| in [2^-126, 2^126]; div.full everywhere */
        uint32_t ab = (uint32_t)rnd64() & 0xff7fffffu, bb = (uint32_t)rnd64() & 0xff7fffffu;
        float a = u2f(ab), b = u2f(bb);
        if (!isnan(a) && !isnan(b) && b != 0.0f) {
            r = (long double)a / b;
            if (fabsl(r) <= FLT_MAX) {
                g = u2f(num_div_f32(ab, bb, PTX_RND_NONE, NUM_FULL));
                err_add(&dvf, (double)(fabsl(g - r) / ulp32(r)), a);
                if (fabsf(b) >= 0x1p-126f && fabsf(b) <= 0x1p126f) {
                    g = u2f(num_div_f32(ab, bb, PTX_RND_NONE, NUM_APPROX));
                    err_add(&dva, (double)(fabsl(g - r) / ulp32(r)), a);
                }
            }
        }
    }
    errstat *all[] = {&ex2, &lg2a, &lg2r, &sin1, &cos1, &sin2, &cos2, &rsq, &th, &rcp, &sq, &dva, &dvf};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) err_report(all[i]);
}

static void t_accuracy_h(void)
{
    errstat ex2h = {"ex2.approx.f16", "rel", 0, exp2(-9.9), 0, 0};
    errstat ex2b = {"ex2.approx.ftz.bf16", "rel", 0, 0x1p-7, 0, 0};
    errstat thh = {"tanh.approx.f16", "abs", 0, exp2(-10.987), 0, 0};
    errstat thb = {"tanh.approx.bf16", "abs", 0, 0x1p-8, 0, 0};
    for (uint32_t h = 0; h < 65536; h++) {
        float xf = u2f(num_h_to_f32((uint16_t)h, NUM_F16)), xb = u2f(num_h_to_f32((uint16_t)h, NUM_BF16));
        if (isfinite(xf)) {
            long double r = exp2l(xf);
            if (r >= 0x1p-14L && r <= 65504.0L) {   /* normal f16 results */
                float g = u2f(num_h_to_f32(num_ex2_h((uint16_t)h, NUM_F16, 0), NUM_F16));
                err_add(&ex2h, (double)(fabsl(g - r) / r), xf);
            }
            float g = u2f(num_h_to_f32(num_tanh_h((uint16_t)h, NUM_F16, 0), NUM_F16));
            err_add(&thh, (double)fabsl(g - tanhl(xf)), xf);
        }
        if (isfinite(xb)) {
            long double r = exp2l(xb);
            if (r >= 0x1p-126L && r <= 0x1.fep127L) {
                float g = u2f(num_h_to_f32(num_ex2_h((uint16_t)h, NUM_BF16, NUM_FTZ), NUM_BF16));
                if (fabsf(xb) < 0x1p-126f) r = 1.0L;   /* .ftz: subnormal input is 0 */
                err_add(&ex2b, (double)(fabsl(g - r) / r), xb);
            }
            float g = u2f(num_h_to_f32(num_tanh_h((uint16_t)h, NUM_BF16, 0), NUM_BF16));
            err_add(&thb, (double)fabsl(g - tanhl(xb)), xb);
        }
    }
    err_report(&ex2h);
    err_report(&ex2b);
    err_report(&thh);
    err_report(&thb);
}

static void t_accuracy_f64(void)
{
    /* rcp/rsqrt.approx.ftz.f64 use 20 fraction bits of a and return 20:
    ** bound 1.5 * 2^-20 (our rounding: 2^-21 for the result, < 2^-20 for
    ** dropping the low word of a). */
    errstat rcp = {"rcp.approx.ftz.f64", "rel", 0, 1.5 * 0x1p-20, 0, 0};
    errstat rsq = {"rsqrt.approx.ftz.f64", "rel", 0, 1.5 * 0x1p-20, 0, 0};
    errstat rs = {"rsqrt.approx.f64", "ulp", 0, 2.0, 0, 0};
    for (int i = 0; i < 400000; i++) {
        uint64_t xb = rnd64() & 0x7fffffffffffffffull;
        double x = u2d(xb);
        if (!isfinite(x) || x == 0) continue;
        uint64_t g = num_rcp_f64(xb | (i & 1 ? 0x8000000000000000ull : 0), PTX_RND_NONE, NUM_APPROX | NUM_FTZ);
        TT_EQ_U(g & 0xffffffffu, 0);
        long double r = 1.0L / x;
        if (xb >= 0x0010000000000000ull && r >= 0x1p-1022L) {
            err_add(&rcp, (double)(fabsl(fabs(u2d(g)) - r) / r), x);
            TT_EQ_U(g >> 63, (uint64_t)(i & 1));
        }
        r = 1.0L / sqrtl(x);
        if (xb >= 0x0010000000000000ull) {
            g = num_rsqrt_f64(xb, NUM_FTZ);
            TT_EQ_U(g & 0xffffffffu, 0);
            err_add(&rsq, (double)(fabsl(u2d(g) - r) / r), x);
        }
        g = num_rsqrt_f64(xb, 0);
        int e;
        frexpl(r, &e);
        err_add(&rs, (double)(fabsl(u2d(g) - r) / ldexpl(1, e - 53)), x);
    }
    err_report(&rcp);
    err_report(&rsq);
    err_report(&rs);
}

int main(void)
{
    TT_RUN(t_special_f32);
    TT_RUN(t_special_h);
    TT_RUN(t_special_f64);
    TT_RUN(t_accuracy_f32);
    TT_RUN(t_accuracy_h);
    TT_RUN(t_accuracy_f64);
    printf("# test_num_approx: %d checks\n", tt_nchecks);
    return tt_done();
}
