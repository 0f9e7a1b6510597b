/*
** kt_float.c -- f32/f64 tests (kernels in float.cu and float_ftz.cu).
**
** Correctly rounded operations are recomputed on the host in the same
** rounding mode (kt_fadd... switch the host FPU's mode) and compared bit for
** bit; NaNs match any NaN.  Approximate functions are checked against the
** bound the PTX ISA (or, for the __intrinsics built on them, the CUDA
** programming guide) documents; each bound is stated where it is used.
*/
#include "kt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 128

static float F(uint32_t u) { return kt_bitsf(u); }
static uint32_t B(float f) { return kt_fbits(f); }

/* The PTX min/max rule: a NaN operand loses to a number, two NaNs give NaN,
** and -0.0 < +0.0 (PTX ISA, min/max semantics). */
static uint32_t min_ref(uint32_t a, uint32_t b)
{
    if (kt_isnan32(a)) return kt_isnan32(b) ? 0x7fffffffu : b;
    if (kt_isnan32(b)) return a;
    if (((a | b) & 0x7fffffffu) == 0) return a | b;          /* zeros: -0 if either is */
    return F(a) < F(b) ? a : b;
}
static uint32_t max_ref(uint32_t a, uint32_t b)
{
    if (kt_isnan32(a)) return kt_isnan32(b) ? 0x7fffffffu : b;
    if (kt_isnan32(b)) return a;
    if (((a | b) & 0x7fffffffu) == 0) return a & b;          /* zeros: +0 if either is */
    return F(a) > F(b) ? a : b;
}
static uint64_t min_ref64(uint64_t a, uint64_t b)
{
    if (kt_isnan64(a)) return kt_isnan64(b) ? 0x7fffffffffffffffull : b;
    if (kt_isnan64(b)) return a;
    if (((a | b) << 1) == 0) return a | b;
    return kt_bitsd(a) < kt_bitsd(b) ? a : b;
}
static uint64_t max_ref64(uint64_t a, uint64_t b)
{
    if (kt_isnan64(a)) return kt_isnan64(b) ? 0x7fffffffffffffffull : b;
    if (kt_isnan64(b)) return a;
    if (((a | b) << 1) == 0) return a & b;
    return kt_bitsd(a) > kt_bitsd(b) ? a : b;
}
/* cvt.sat.f32.f32: clamp to [0, 1], NaN gives +0.  Whether a negative zero
** or a negative number clamps to +0 or -0 is not spelled out, so zeros are
** compared without their sign (see cmp_sat). */
static uint32_t sat_ref(uint32_t a)
{
    if (kt_isnan32(a) || (a >> 31)) return 0;
    return F(a) > 1.0f ? 0x3f800000u : a;
}
static uint32_t testp_ref(uint32_t a)
{
    uint32_t ex = (a >> 23) & 0xff, frac = a & 0x7fffff;
    bool nan = ex == 0xff && frac, inf = ex == 0xff && !frac, sub = ex == 0 && frac;
    /* testp.normal is true for zeros too (PTX ISA: "positive and negative
    ** zero are considered normal numbers"). */
    return (uint32_t)(!nan && !inf) | (uint32_t)inf << 1 | (uint32_t)!nan << 2 | (uint32_t)nan << 3 |
           (uint32_t)(!nan && !inf && !sub) << 4 | (uint32_t)sub << 5;
}

/* Data: edge pairs first, then random bits everywhere (kt_f32_bits);
** subnormal-heavy when 'sub' is set. */
static void gen_f32(kt_rng *r, uint32_t *a, uint32_t *b, uint32_t *cc, int n, int sub)
{
    static const uint32_t pairs[][2] = {
        {0x00000000, 0x80000000}, {0x80000000, 0x00000000}, {0x7fc00000, 0x3f800000},
        {0x3f800000, 0x7fc00000}, {0x7fc00000, 0xffc00000}, {0x7f800000, 0xff800000},
        {0xff800000, 0x7f800000}, {0x7f800000, 0x00000000}, {0x00000000, 0x00000000},
        {0x3f800000, 0x00000000}, {0xbf800000, 0x00000000}, {0x3f800000, 0x80000000},
        {0x00800000, 0x3f000000}, {0x00000001, 0x00000003}, {0x7f7fffff, 0x40000000},
        {0xff7fffff, 0x7f7fffff}, {0x3f800000, 0x33800000}, {0x3f800001, 0xb3800000},
        {0x80000001, 0x00000001}, {0x007fffff, 0x00000001}, {0x00800000, 0x80000001},
        {0xbf000000, 0x3f000000}, {0xc0200000, 0x40200000}, {0x3fc00000, 0xbfc00000},
        {0x4b000001, 0x3f000000}, {0xcb7fffff, 0x40000000}, {0x00400000, 0x40000000},
        {0x80400000, 0x3f000000}, {0x3f7fffff, 0x3f800001},
    };
    int np = (int)(sizeof pairs / sizeof pairs[0]);
    for (int i = 0; i < n; i++) {
        if (i < np) {
            a[i] = pairs[i][0];
            b[i] = pairs[i][1];
        } else {
            a[i] = kt_f32_bits(r);
            b[i] = kt_f32_bits(r);
            if (sub && kt_below(r, 3) == 0) a[i] = kt_u32(r) & 0x807fffffu;
            if (sub && kt_below(r, 3) == 0) b[i] = kt_u32(r) & 0x807fffffu;
            if (kt_below(r, 8) == 0) b[i] = a[i] ^ (kt_below(r, 2) << 31);   /* x op -x, x op x */
        }
        cc[i] = kt_f32_bits(r);
        if (sub && kt_below(r, 4) == 0) cc[i] = kt_u32(r) & 0x807fffffu;
    }
}

/* ---- f32_ieee ----------------------------------------------------------------
** add/sub/mul.rn/div.rn/sqrt.rn/fma.rn/rcp.rn .f32 with subnormals, Inf, NaN,
** -0; min/max (NaN and signed zero rules), abs, neg, copysign, setp with
** ordered and unordered compares, cvt.rni/rmi/rpi/rzi.f32.f32, cvt.sat,
** testp.*, cvt.f64.f32 and mul.f64. */
#define IEEE_N 20
static kt_res t_f32_ieee(th_ctx *c)
{
    enum { n = 8192 };
    static uint32_t a[n], b[n], z[n], o[n * IEEE_N], e[n * IEEE_N];
    static uint64_t O[2 * n], E[2 * n];
    kt_rng r;
    kt_seed(&r, 1001);
    gen_f32(&r, a, b, z, n, 0);
    for (int i = 0; i < n; i++) {
        float x = F(a[i]), y = F(b[i]), w = F(z[i]);
        uint32_t *q = e + i * IEEE_N;
        q[0] = B(kt_fadd(x, y, KT_RN));
        q[1] = B(kt_fsub(x, y, KT_RN));
        q[2] = B(kt_fmul(x, y, KT_RN));
        q[3] = B(kt_fdiv(x, y, KT_RN));
        q[4] = B(kt_fsqrt(x, KT_RN));
        q[5] = B(kt_ffma(x, y, w, KT_RN));
        q[6] = B(kt_fdiv(1.0f, x, KT_RN));
        q[7] = min_ref(a[i], b[i]);
        q[8] = max_ref(a[i], b[i]);
        q[9] = a[i] & 0x7fffffffu;
        q[10] = a[i] ^ 0x80000000u;
        q[11] = (a[i] & 0x7fffffffu) | (b[i] & 0x80000000u);
        q[12] = (uint32_t)(x < y) | (uint32_t)(x <= y) << 1 | (uint32_t)(x == y) << 2 |
                (uint32_t)(x != y) << 3 | (uint32_t)(x > y) << 4 | (uint32_t)(x >= y) << 5 |
                (uint32_t)!(x >= y) << 6 | (uint32_t)!(x < y) << 7 | (uint32_t)(isnan(x) != 0) << 8 |
                (uint32_t)(isinf(x) != 0) << 9 | (uint32_t)(isfinite(x) != 0) << 10 | (a[i] >> 31) << 11;
        q[13] = B(rintf(x));
        q[14] = B(floorf(x));
        q[15] = B(ceilf(x));
        q[16] = B(truncf(x));
        q[17] = sat_ref(a[i]);
        q[18] = testp_ref(a[i]);
        q[19] = B(kt_fadd(kt_fmul(x, 0x1p-100f, KT_RN), kt_fmul(y, 0x1p-110f, KT_RN), KT_RN));
        E[2 * i] = kt_dbits((double)x);
        E[2 * i + 1] = kt_dbits(kt_dmul((double)x, (double)y, KT_RN));
    }
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dz, dO, dO64;
    TH_TRY(th_module(c, "float.ptx", &m));
    TH_TRY(th_func(c, m, "f32_ieee", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, z, sizeof z, &dz));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof O, &dO64));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &db, &dz, &dO, &dO64, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    TH_TRY(th_download(c, O, dO64, sizeof O));
    for (int i = 0; i < n; i++) {          /* saturate: zeros compare without sign */
        if ((o[i * IEEE_N + 17] & 0x7fffffffu) == 0) o[i * IEEE_N + 17] = 0;
        uint32_t *g = o + i * IEEE_N, *x = e + i * IEEE_N;
        for (int k = 0; k < IEEE_N; k++) {
            if (g[k] == x[k] || (kt_isnan32(g[k]) && kt_isnan32(x[k]) && k != 12 && k != 18)) continue;
            return th_fail(c, "op %d of a=0x%08x b=0x%08x c=0x%08x: got 0x%08x expected 0x%08x",
                           k, a[i], b[i], z[i], g[k], x[k]);
        }
    }
    return kt_cmp_f64(c, "f64 (elem*2+{cvt,mul})", O, E, 2 * n);
}

/* ---- f32_directed --------------------------------------------------------------
** add/sub/mul/div/sqrt/fma/rcp .f32 with .rn .rz .rm .rp (the __f*_r?
** intrinsics); the host computes each in the same mode. */
#define DIR_N 28
static kt_res t_f32_directed(th_ctx *c)
{
    enum { n = 8192 };
    static uint32_t a[n], b[n], z[n], o[n * DIR_N], e[n * DIR_N];
    kt_rng r;
    kt_seed(&r, 1002);
    gen_f32(&r, a, b, z, n, 0);
    for (int i = 0; i < n; i++) {
        float x = F(a[i]), y = F(b[i]), w = F(z[i]);
        uint32_t *q = e + i * DIR_N;
        for (int m = 0; m < 4; m++) {
            q[m] = B(kt_fadd(x, y, m));
            q[4 + m] = B(kt_fsub(x, y, m));
            q[8 + m] = B(kt_fmul(x, y, m));
            q[12 + m] = B(kt_fdiv(x, y, m));
            q[16 + m] = B(kt_fsqrt(x, m));
            q[20 + m] = B(kt_ffma(x, y, w, m));
            q[24 + m] = B(kt_fdiv(1.0f, x, m));
        }
    }
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dz, dO;
    TH_TRY(th_module(c, "float.ptx", &m));
    TH_TRY(th_func(c, m, "f32_directed", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, z, sizeof z, &dz)); TH_TRY(th_alloc(c, sizeof o, &dO));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &db, &dz, &dO, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    static const char *names[7] = {"add", "sub", "mul", "div", "sqrt", "fma", "rcp"};
    static const char *modes[4] = {"rn", "rz", "rm", "rp"};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < DIR_N; k++) {
            uint32_t g = o[i * DIR_N + k], x = e[i * DIR_N + k];
            if (g == x || (kt_isnan32(g) && kt_isnan32(x))) continue;
            return th_fail(c, "%s.%s.f32 of a=0x%08x b=0x%08x c=0x%08x: got 0x%08x expected 0x%08x",
                           names[k / 4], modes[k % 4], a[i], b[i], z[i], g, x);
        }
    return KT_PASS;
}

/* ---- f64_ops ---------------------------------------------------------------------
** add/sub/mul/div/sqrt/fma/rcp .f64 in all four modes, default div/sqrt/fma,
** min/max/abs/neg/copysign .f64, cvt.rni/rmi/rpi/rzi.f64.f64, cvt.rn.f32.f64,
** setp .f64, and a contracted a*b+c (fma.rn.f64). */
#define F64_N 44
static kt_res t_f64_ops(th_ctx *c)
{
    enum { n = 4096 };
    static uint64_t a[n], b[n], z[n], o[n * F64_N], e[n * F64_N];
    static const uint64_t pairs[][2] = {
        {0x0000000000000000ull, 0x8000000000000000ull}, {0x8000000000000000ull, 0x0000000000000000ull},
        {0x7ff8000000000000ull, 0x3ff0000000000000ull}, {0x3ff0000000000000ull, 0x7ff8000000000000ull},
        {0x7ff0000000000000ull, 0xfff0000000000000ull}, {0x3ff0000000000000ull, 0x0000000000000000ull},
        {0x0000000000000001ull, 0x3fe0000000000000ull}, {0x0010000000000000ull, 0x3fe0000000000000ull},
        {0x7fefffffffffffffull, 0x4000000000000000ull}, {0x3ff0000000000000ull, 0x3ca0000000000000ull},
        {0xbfe0000000000000ull, 0x3fe0000000000000ull}, {0x4330000000000001ull, 0x3fe0000000000000ull},
    };
    kt_rng r;
    kt_seed(&r, 1003);
    for (int i = 0; i < n; i++) {
        if (i < (int)(sizeof pairs / sizeof pairs[0])) { a[i] = pairs[i][0]; b[i] = pairs[i][1]; }
        else { a[i] = kt_f64_bits(&r); b[i] = kt_f64_bits(&r); }
        z[i] = kt_f64_bits(&r);
        if (i > 16 && kt_below(&r, 8) == 0) b[i] = a[i] ^ ((uint64_t)kt_below(&r, 2) << 63);
    }
    for (int i = 0; i < n; i++) {
        double x = kt_bitsd(a[i]), y = kt_bitsd(b[i]), w = kt_bitsd(z[i]);
        uint64_t *q = e + i * F64_N;
        for (int m = 0; m < 4; m++) {
            q[m] = kt_dbits(kt_dadd(x, y, m));
            q[4 + m] = kt_dbits(kt_dadd(x, -y, m));
            q[8 + m] = kt_dbits(kt_dmul(x, y, m));
            q[12 + m] = kt_dbits(kt_ddiv(x, y, m));
            q[16 + m] = kt_dbits(kt_dsqrt(x, m));
            q[20 + m] = kt_dbits(kt_dfma(x, y, w, m));
            q[24 + m] = kt_dbits(kt_ddiv(1.0, x, m));
        }
        q[28] = kt_dbits(kt_ddiv(x, y, KT_RN));
        q[29] = kt_dbits(kt_dsqrt(x, KT_RN));
        q[30] = kt_dbits(kt_dfma(x, y, w, KT_RN));
        q[31] = min_ref64(a[i], b[i]);
        q[32] = max_ref64(a[i], b[i]);
        q[33] = a[i] & 0x7fffffffffffffffull;
        q[34] = a[i] ^ 0x8000000000000000ull;
        q[35] = (a[i] & 0x7fffffffffffffffull) | (b[i] & 0x8000000000000000ull);
        q[36] = kt_dbits(rint(x));
        q[37] = kt_dbits(floor(x));
        q[38] = kt_dbits(ceil(x));
        q[39] = kt_dbits(trunc(x));
        q[40] = B(kt_d2f(x, KT_RN));
        q[41] = (uint64_t)(x < y) | (uint64_t)(x <= y) << 1 | (uint64_t)(x == y) << 2 |
                (uint64_t)(x != y) << 3 | (uint64_t)(x > y) << 4 | (uint64_t)(x >= y) << 5 |
                (uint64_t)!(x >= y) << 6 | (uint64_t)(isnan(x) != 0) << 7 | (uint64_t)(isinf(y) != 0) << 8;
        q[42] = q[30];
        q[43] = kt_dbits(kt_dadd(kt_dadd(x, w, KT_RN), -y, KT_RN));
    }
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dz, dO;
    TH_TRY(th_module(c, "float.ptx", &m));
    TH_TRY(th_func(c, m, "f64_ops", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, z, sizeof z, &dz)); TH_TRY(th_alloc(c, sizeof o, &dO));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &db, &dz, &dO, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < F64_N; k++) {
            uint64_t g = o[i * F64_N + k], x = e[i * F64_N + k];
            if (g == x) continue;
            if (k == 40 && (g >> 32) == 0 && kt_isnan32((uint32_t)g) && kt_isnan32((uint32_t)x)) continue;
            if (k != 40 && k != 41 && kt_isnan64(g) && kt_isnan64(x)) continue;
            return th_fail(c, "f64 op %d of a=0x%016llx b=0x%016llx c=0x%016llx: got 0x%016llx expected 0x%016llx",
                           k, (unsigned long long)a[i], (unsigned long long)b[i], (unsigned long long)z[i],
                           (unsigned long long)g, (unsigned long long)x);
        }
    return KT_PASS;
}

/* ---- f32_ftz ------------------------------------------------------------------------
** float_ftz.ptx (nvcc -ftz=true): every f32 instruction carries .ftz, so
** subnormal inputs read as zeros of their sign and subnormal results become
** zeros of their sign.  Reference: flush the inputs, compute exactly as
** without ftz, flush the result.  One case is left open: an exact result
** just below 2^-126 that rounds up to 2^-126 -- whether it is flushed
** depends on detecting tininess before or after rounding, which PTX does not
** specify; there the reference accepts 2^-126 or a zero of the same sign. */
#define FTZ_N 20
static uint32_t flush(uint32_t u) { return ((u & 0x7f800000u) == 0) ? (u & 0x80000000u) : u; }

static kt_res t_f32_ftz(th_ctx *c)
{
    enum { n = 8192 };
    static uint32_t a[n], b[n], z[n], o[n * FTZ_N], e[n * FTZ_N], nf[n * FTZ_N];
    static uint64_t O[n], E[n];
    kt_rng r;
    kt_seed(&r, 1004);
    gen_f32(&r, a, b, z, n, 1);
    for (int i = 0; i < n; i++) {
        uint32_t fa = flush(a[i]), fbb = flush(b[i]), fz = flush(z[i]);
        float x = F(fa), y = F(fbb), w = F(fz);
        uint32_t *q = e + i * FTZ_N, *u = nf + i * FTZ_N;
        q[0] = B(kt_fadd(x, y, KT_RN));
        q[1] = B(kt_fsub(x, y, KT_RN));
        q[2] = B(kt_fmul(x, y, KT_RN));
        q[3] = B(kt_fdiv(x, y, KT_RN));
        q[4] = B(kt_fsqrt(x, KT_RN));
        q[5] = B(kt_ffma(x, y, w, KT_RN));
        q[6] = B(kt_fdiv(1.0f, x, KT_RN));
        q[7] = min_ref(fa, fbb);
        q[8] = max_ref(fa, fbb);
        q[9] = fa & 0x7fffffffu;
        q[10] = fa ^ 0x80000000u;
        q[11] = (uint32_t)(x < y) | (uint32_t)(x <= y) << 1 | (uint32_t)(x == y) << 2 |
                (uint32_t)(x != y) << 3 | (uint32_t)(x > y) << 4 | (uint32_t)(x >= y) << 5 |
                (uint32_t)!(x >= y) << 6;
        q[12] = B(floorf(x));
        q[13] = B(kt_fadd(x, y, KT_RZ));
        q[14] = B(kt_fmul(x, y, KT_RU));
        q[15] = B(kt_fdiv(x, y, KT_RD));
        q[16] = B(kt_fsqrt(x, KT_RU));
        q[17] = B(kt_ffma(x, y, w, KT_RZ));
        q[18] = (uint32_t)kt_cvt_f2i(x, KT_RD, 32, true, false);
        q[19] = sat_ref(fa);
        for (int k = 0; k < FTZ_N; k++) {
            u[k] = 0;
            if (k == 11 || k == 18) continue;
            /* the open case: a result of exactly +-2^-126 */
            if ((q[k] & 0x7fffffffu) == 0x00800000u && k != 7 && k != 8 && k != 9 && k != 10 && k != 19)
                u[k] = 1;
            q[k] = flush(q[k]);
        }
        E[i] = kt_dbits((double)x);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dz, dO, dO64;
    TH_TRY(th_module(c, "float_ftz.ptx", &m));
    TH_TRY(th_func(c, m, "f32_ftz", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, z, sizeof z, &dz));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof O, &dO64));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &db, &dz, &dO, &dO64, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    TH_TRY(th_download(c, O, dO64, sizeof O));
    for (int i = 0; i < n; i++) {
        uint32_t *g = o + i * FTZ_N, *x = e + i * FTZ_N, *u = nf + i * FTZ_N;
        if ((g[19] & 0x7fffffffu) == 0) g[19] = 0;
        for (int k = 0; k < FTZ_N; k++) {
            if (g[k] == x[k] || (kt_isnan32(g[k]) && kt_isnan32(x[k]) && k != 11 && k != 18)) continue;
            if (u[k] && g[k] == (x[k] & 0x80000000u)) continue;
            return th_fail(c, "ftz op %d of a=0x%08x b=0x%08x c=0x%08x: got 0x%08x expected 0x%08x",
                           k, a[i], b[i], z[i], g[k], x[k]);
        }
    }
    return kt_cmp_f64(c, "cvt.ftz.f64.f32", O, E, n);
}

/* ---- f32_approx ----------------------------------------------------------------------
** The approximate functions, each on inputs from its documented range, plus
** the exact special cases of the PTX ISA tables.  Bounds:
**   op 0  exp2f = ex2.approx.f32: 2 ulp from the correctly rounded result,
**         full range (PTX ISA, ex2) -> |err| <= 2.5 ulp of the exact value
**   op 13 ex2.approx.ftz.f32: the same, normal results only
**   op 1  __expf: 2 + floor(|1.173 x|) ulp (CUDA guide, intrinsic functions)
**   op 2  __exp10f: 2 + floor(|2.97 x|) ulp (CUDA guide)
**   op 3  __log2f = lg2.approx.f32: |err| <= 2^-22 for x in (0.5, 2),
**         else relative 2^-22 (PTX ISA, lg2)
**   op 4  __logf: |err| <= 2^-21.41 for x in [0.5, 2], else 3 ulp (CUDA guide)
**   op 5/6 __sinf/__cosf = sin/cos.approx.f32: |err| <= 2^-20.5 on
**         [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi] (PTX ISA, sin/cos)
**   op 7  rsqrtf = rsqrt.approx.f32: relative 2^-22.9 (PTX ISA, rsqrt)
**   op 8  __fdividef = div.approx.f32: 2 ulp for |y| in [2^-126, 2^126]
**         (PTX ISA, div)
**   op 9  __powf(x, y) = ex2(y * lg2(x)): no bound is documented; from the
**         lg2 and ex2 bounds for x in [1/4, 4], |y| <= 4 the relative error
**         is below 2^-18.7; we allow 2^-18
**   op 10 __tanhf = tanh.approx.f32: relative 2^-11 (PTX ISA, tanh)
**   op 11 rcp.approx.f32: we allow 2 ulp (the PTX ISA states 1 ulp)
**   op 12 sqrt.approx.f32: relative 2^-23 (PTX ISA, sqrt); we allow 2^-22
** The exact values come from the host's double-precision libm (error far
** below these bounds). */
enum { AP_N = 14 };

typedef struct ap_case { int op; uint32_t x, y, want; } ap_case;
static const ap_case ap_special[] = {
    {0, 0xff800000, 0, 0x00000000}, {0, 0x7f800000, 0, 0x7f800000}, {0, 0x7fc00000, 0, 0x7fffffff},
    {0, 0x00000000, 0, 0x3f800000}, {0, 0x80000000, 0, 0x3f800000},
    {3, 0x00000000, 0, 0xff800000}, {3, 0x80000000, 0, 0xff800000}, {3, 0xbf800000, 0, 0x7fffffff},
    {3, 0x7f800000, 0, 0x7f800000}, {3, 0xff800000, 0, 0x7fffffff},
    {7, 0x00000000, 0, 0x7f800000}, {7, 0x80000000, 0, 0xff800000}, {7, 0x7f800000, 0, 0x00000000},
    {7, 0xc0000000, 0, 0x7fffffff},
    {5, 0x7f800000, 0, 0x7fffffff}, {5, 0xff800000, 0, 0x7fffffff}, {5, 0x80000000, 0, 0x80000000},
    {5, 0x00000000, 0, 0x00000000}, {6, 0x80000000, 0, 0x3f800000}, {6, 0x7f800000, 0, 0x7fffffff},
    {10, 0x7f800000, 0, 0x3f800000}, {10, 0xff800000, 0, 0xbf800000}, {10, 0x80000000, 0, 0x80000000},
    {10, 0x7fc00000, 0, 0x7fffffff},
    {12, 0x80000000, 0, 0x80000000}, {12, 0x7f800000, 0, 0x7f800000}, {12, 0xbf800000, 0, 0x7fffffff},
    {13, 0xff800000, 0, 0x00000000}, {13, 0x7f800000, 0, 0x7f800000}, {13, 0x00000005, 0, 0x3f800000},
    {13, 0x80400000, 0, 0x3f800000},
};

static double ulp32(double v)
{
    v = fabs(v);
    if (v < 0x1p-126) return 0x1p-149;
    return ldexp(1.0, ilogb(v) - 23);
}

/* Inputs for op k. */
static void ap_input(kt_rng *r, int op, float *x, float *y)
{
    *y = 0;
    switch (op) {
    case 0: *x = kt_f32_range(r, -140.0f, 127.9f); break;
    case 13: *x = kt_f32_range(r, -125.5f, 127.9f); break;
    case 1: *x = kt_f32_range(r, -87.0f, 88.0f); break;
    case 2: *x = kt_f32_range(r, -37.0f, 38.0f); break;
    case 3: case 4: case 7: case 12:
        if (kt_below(r, 4) == 0) *x = kt_f32_range(r, 0.5f, 2.0f);
        else *x = ldexpf(kt_f32_range(r, 1.0f, 2.0f), (int)kt_below(r, 270) - 149);
        if (*x == 0.0f) *x = 0x1p-149f;
        break;
    case 5: case 6:
        *x = kt_below(r, 4) ? kt_f32_range(r, -6.2831f, 6.2831f) : kt_f32_range(r, -314.15f, 314.15f);
        break;
    case 8: {
        float s = kt_below(r, 2) ? 1.0f : -1.0f, t = kt_below(r, 2) ? 1.0f : -1.0f;
        *x = s * ldexpf(kt_f32_range(r, 1.0f, 2.0f), (int)kt_below(r, 121) - 60);
        *y = t * ldexpf(kt_f32_range(r, 1.0f, 2.0f), (int)kt_below(r, 121) - 60);
        break;
    }
    case 9: *x = kt_f32_range(r, 0.25f, 4.0f); *y = kt_f32_range(r, -4.0f, 4.0f); break;
    case 10:
        *x = kt_below(r, 8) ? kt_f32_range(r, -10.0f, 10.0f) : ldexpf(kt_f32_range(r, -1.0f, 1.0f), -(int)kt_below(r, 140));
        break;
    case 11: {
        float s = kt_below(r, 2) ? 1.0f : -1.0f;
        *x = s * ldexpf(kt_f32_range(r, 1.0f, 2.0f), (int)kt_below(r, 251) - 125);
        break;
    }
    default: *x = 0; break;
    }
}

/* Returns NULL when got is within op's bound for (x, y), else the bound's name. */
static const char *ap_check(int op, float x, float y, float got)
{
    double X = x, Y = y, g = got, ex, err, ulps;
    if (isnan(g) || isinf(g)) return "a finite result";
    switch (op) {
    case 0: case 13: ex = exp2(X); ulps = 2.5; goto ulp_check;
    case 1: ex = exp(X); ulps = 2.5 + floor(fabs(1.173 * X)); goto ulp_check;
    case 2: ex = pow(10.0, X); ulps = 2.5 + floor(fabs(2.97 * X)); goto ulp_check;
    case 8: ex = X / Y; ulps = 2.5; goto ulp_check;
    case 11: ex = 1.0 / X; ulps = 2.0; goto ulp_check;
    case 3:
        ex = log2(X); err = fabs(g - ex);
        if (X > 0.5 && X < 2.0) return err <= 0x1p-22 ? NULL : "|err| <= 2^-22";
        return err <= 0x1p-22 * fabs(ex) ? NULL : "rel err <= 2^-22";
    case 4:
        ex = log(X); err = fabs(g - ex);
        if (X >= 0.5 && X <= 2.0) return err <= exp2(-21.41) ? NULL : "|err| <= 2^-21.41";
        ulps = 3.5; goto ulp_check;
    case 5: case 6:
        ex = op == 5 ? sin(X) : cos(X); err = fabs(g - ex);
        if (fabs(X) <= 2 * M_PI) return err <= exp2(-20.5) ? NULL : "|err| <= 2^-20.5";
        return err <= exp2(-14.7) ? NULL : "|err| <= 2^-14.7";
    case 7: ex = 1.0 / sqrt(X); return fabs(g - ex) <= exp2(-22.9) * ex ? NULL : "rel err <= 2^-22.9";
    case 9: ex = pow(X, Y); return fabs(g - ex) <= 0x1p-18 * ex ? NULL : "rel err <= 2^-18";
    case 10: ex = tanh(X); return fabs(g - ex) <= 0x1p-11 * fabs(ex) ? NULL : "rel err <= 2^-11";
    case 12: ex = sqrt(X); return fabs(g - ex) <= 0x1p-22 * ex ? NULL : "rel err <= 2^-22";
    default: return "a known op";
    }
ulp_check:
    return fabs(g - ex) <= ulps * ulp32(ex) ? NULL : "the ulp bound";
}

static kt_res t_f32_approx(th_ctx *c)
{
    enum { per = 2048, nsp = (int)(sizeof ap_special / sizeof ap_special[0]) };
    enum { n = AP_N * per + nsp };
    static int op[n];
    static uint32_t x[n], y[n], o[n];
    kt_rng r;
    kt_seed(&r, 1005);
    for (int k = 0; k < AP_N; k++)
        for (int j = 0; j < per; j++) {
            float fx, fy;
            ap_input(&r, k, &fx, &fy);
            op[k * per + j] = k; x[k * per + j] = B(fx); y[k * per + j] = B(fy);
        }
    for (int j = 0; j < nsp; j++) {
        op[AP_N * per + j] = ap_special[j].op;
        x[AP_N * per + j] = ap_special[j].x;
        y[AP_N * per + j] = ap_special[j].y;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dop, dx, dy, dO;
    TH_TRY(th_module(c, "float.ptx", &m));
    TH_TRY(th_func(c, m, "f32_approx", &f));
    TH_TRY(th_upload(c, op, sizeof op, &dop)); TH_TRY(th_upload(c, x, sizeof x, &dx));
    TH_TRY(th_upload(c, y, sizeof y, &dy)); TH_TRY(th_alloc(c, sizeof o, &dO));
    int nn = n;
    KT_LAUNCH1(f, (n + BLOCK - 1) / BLOCK, BLOCK, &dop, &dx, &dy, &dO, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    for (int i = 0; i < AP_N * per; i++) {
        const char *why = ap_check(op[i], F(x[i]), F(y[i]), F(o[i]));
        if (why)
            return th_fail(c, "approx op %d of x=0x%08x (%.9g) y=0x%08x: got 0x%08x (%.9g), outside %s",
                           op[i], x[i], (double)F(x[i]), y[i], o[i], (double)F(o[i]), why);
    }
    for (int j = 0; j < nsp; j++) {
        uint32_t g = o[AP_N * per + j], w = ap_special[j].want;
        if (g == w || (kt_isnan32(g) && kt_isnan32(w))) continue;
        return th_fail(c, "approx op %d special input 0x%08x: got 0x%08x expected 0x%08x",
                       ap_special[j].op, ap_special[j].x, g, w);
    }
    return KT_PASS;
}

/* ---- cvt_round ----------------------------------------------------------------------
** cvt.{rni,rzi,rmi,rpi}.{s32,u32,s64,u64}.{f32,f64} (clamping, NaN rule of
** the PTX ISA), cvt.{rn,rz,rm,rp}.f32.f64, cvt.{rn,rz,rm,rp}.f32.{s32,u32,
** s64,u64}, cvt.{rn,rz,rm,rp}.f64.{s64,u64}, cvt.rn.f64.s32, cvt.rpi.u16.f32. */
#define CVT_N32 24
#define CVT_N64 30
static kt_res t_cvt_round(th_ctx *c)
{
    enum { n = 4096 };
    static float fv[n];
    static double dv[n];
    static int64_t lv[n];
    static uint64_t uv[n];
    static uint32_t o[n * CVT_N32], e[n * CVT_N32];
    static uint64_t O[n * CVT_N64], E[n * CVT_N64];
    static const float fedge[] = {
        0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0x1p31f, -0x1p31f, 0x1.fffffep30f, 4294967040.0f,
        0x1p32f, 0x1p63f, -0x1p63f, 0x1p64f, 0x1.fffffep62f, 65535.4f, 65535.6f, -0.0f, 1e-45f,
        -1e-45f, 0.49999997f, 8388609.0f, 16777217.0f,
    };
    static const double dedge[] = {
        0.5, 1.5, 2.5, -0.5, -2.5, 2147483647.5, 2147483648.0, -2147483648.5, -2147483649.0,
        4294967295.5, 4294967296.0, 0x1p63, -0x1p63, 0x1p64, 0x1.fffffffffffffp62, 3.4028235677973366e38,
        3.4028235677973362e38, 1e-46, -1e-46, 0x1.000001p0, 0x1.0000018p0, 0x1.fffffefp127, -0.0,
    };
    static const int64_t ledge[] = {
        0, 1, -1, 16777217, 16777219, -16777217, 0x7fffffffffffffffll, INT64_MIN, 9007199254740993ll,
        -9007199254740993ll, 0x7fffffff, -0x7fffffff - 1, 0xffffffffll, 2147483520ll, 0x20000010000001ll,
    };
    kt_rng r;
    kt_seed(&r, 1006);
    for (int i = 0; i < n; i++) {
        uint32_t k = kt_below(&r, 4);
        fv[i] = k == 0 ? F(kt_f32_bits(&r)) : k == 1 ? kt_f32_range(&r, -5e9f, 5e9f) :
                k == 2 ? kt_f32_range(&r, -4.0f, 4.0f) : ldexpf(kt_f32_range(&r, -2.0f, 2.0f), (int)kt_below(&r, 70));
        dv[i] = k == 0 ? kt_bitsd(kt_f64_bits(&r)) : k == 1 ? (double)kt_f32_range(&r, -5e9f, 5e9f) + 0.25 * kt_below(&r, 4) :
                k == 2 ? ldexp((double)kt_f32_range(&r, -2.0f, 2.0f), (int)kt_below(&r, 260) - 150) :
                         ldexp((double)(int64_t)kt_next(&r), -(int)kt_below(&r, 64));
        lv[i] = k == 0 ? (int64_t)kt_next(&r) : k == 1 ? (int64_t)kt_next(&r) >> kt_below(&r, 63) :
                (int64_t)(int32_t)kt_u32(&r);
        uv[i] = k == 3 ? kt_next(&r) >> kt_below(&r, 64) : kt_next(&r);
    }
    for (int i = 0; i < (int)(sizeof fedge / sizeof fedge[0]); i++) fv[i] = fedge[i];
    fv[40] = F(0x7fc00000); fv[41] = F(0x7f800000); fv[42] = F(0xff800000); fv[43] = F(0xffc00001);
    for (int i = 0; i < (int)(sizeof dedge / sizeof dedge[0]); i++) dv[i] = dedge[i];
    dv[40] = kt_bitsd(0x7ff8000000000000ull); dv[41] = kt_bitsd(0x7ff0000000000000ull);
    dv[42] = kt_bitsd(0xfff0000000000000ull);
    for (int i = 0; i < (int)(sizeof ledge / sizeof ledge[0]); i++) { lv[i] = ledge[i]; uv[i] = (uint64_t)ledge[i]; }
    for (int i = 0; i < n; i++) {
        float f = fv[i];
        double d = dv[i];
        int64_t l = lv[i];
        uint64_t u = uv[i];
        int32_t k = (int32_t)l;
        uint32_t uk = (uint32_t)u;
        uint32_t *q = e + i * CVT_N32;
        uint64_t *Q = E + i * CVT_N64;
        for (int m = 0; m < 4; m++) {
            q[m] = (uint32_t)kt_cvt_f2i(f, m, 32, true, false);
            q[4 + m] = (uint32_t)kt_cvt_f2i(f, m, 32, false, false);
            q[8 + m] = (uint32_t)kt_cvt_f2i(d, m, 32, true, true);
            q[12 + m] = (uint32_t)kt_cvt_f2i(d, m, 32, false, true);
            q[16 + m] = B(kt_d2f(d, m));
            Q[m] = kt_cvt_f2i(f, m, 64, true, false);
            Q[4 + m] = kt_cvt_f2i(f, m, 64, false, false);
            Q[8 + m] = kt_cvt_f2i(d, m, 64, true, true);
            Q[12 + m] = kt_cvt_f2i(d, m, 64, false, true);
            Q[16 + m] = kt_dbits(kt_i2d(l, m));
            Q[20 + m] = kt_dbits(kt_u2d(u, m));
        }
        q[20] = (uint32_t)kt_cvt_f2i(f, KT_RZ, 32, true, false);
        q[21] = (uint32_t)kt_cvt_f2i(f, KT_RN, 32, false, false);
        q[22] = (uint32_t)kt_cvt_f2i(d, KT_RZ, 32, true, true);
        q[23] = (uint32_t)kt_cvt_f2i(f, KT_RU, 16, false, false);
        Q[24] = (uint64_t)B(kt_i2f(k, KT_RN)) << 32 | B(kt_i2f(k, KT_RZ));
        Q[25] = (uint64_t)B(kt_i2f(k, KT_RD)) << 32 | B(kt_i2f(k, KT_RU));
        Q[26] = (uint64_t)B(kt_u2f(uk, KT_RN)) << 32 | B(kt_u2f(uk, KT_RD));
        Q[27] = (uint64_t)B(kt_i2f(l, KT_RN)) << 32 | B(kt_i2f(l, KT_RU));
        Q[28] = (uint64_t)B(kt_u2f(u, KT_RZ)) << 32 | B(kt_u2f(u, KT_RN));
        Q[29] = kt_dbits((double)k);
    }
    CUmodule m; CUfunction fn;
    CUdeviceptr df, dd, dl, du, dO, dO64;
    TH_TRY(th_module(c, "float.ptx", &m));
    TH_TRY(th_func(c, m, "cvt_round", &fn));
    TH_TRY(th_upload(c, fv, sizeof fv, &df)); TH_TRY(th_upload(c, dv, sizeof dv, &dd));
    TH_TRY(th_upload(c, lv, sizeof lv, &dl)); TH_TRY(th_upload(c, uv, sizeof uv, &du));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof O, &dO64));
    int nn = n;
    KT_LAUNCH1(fn, n / BLOCK, BLOCK, &df, &dd, &dl, &du, &dO, &dO64, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    TH_TRY(th_download(c, O, dO64, sizeof O));
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < CVT_N32; k++) {
            uint32_t g = o[i * CVT_N32 + k], x = e[i * CVT_N32 + k];
            if (g == x || (k >= 16 && k < 20 && kt_isnan32(g) && kt_isnan32(x))) continue;
            return th_fail(c, "cvt32 op %d of f=0x%08x d=0x%016llx: got 0x%08x expected 0x%08x",
                           k, B(fv[i]), (unsigned long long)kt_dbits(dv[i]), g, x);
        }
        for (int k = 0; k < CVT_N64; k++) {
            uint64_t g = O[i * CVT_N64 + k], x = E[i * CVT_N64 + k];
            if (g == x) continue;
            return th_fail(c, "cvt64 op %d of f=0x%08x d=0x%016llx l=0x%016llx u=0x%016llx: got 0x%016llx expected 0x%016llx",
                           k, B(fv[i]), (unsigned long long)kt_dbits(dv[i]), (unsigned long long)lv[i],
                           (unsigned long long)uv[i], (unsigned long long)g, (unsigned long long)x);
        }
    }
    return KT_PASS;
}

const kt_test kt_tests_float[] = {
    {"f32_ieee", t_f32_ieee, 0},
    {"f32_directed", t_f32_directed, 0},
    {"f64_ops", t_f64_ops, 0},
    {"f32_ftz", t_f32_ftz, 0},
    {"f32_approx", t_f32_approx, 0},
    {"cvt_round", t_cvt_round, 0},
    {0},
};
