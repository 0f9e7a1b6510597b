/*
** kt_half.c -- f16/bf16 tests (kernels in half.cu, sm_75, and half80.cu,
** sm_80).  The host has no half types: values are decoded exactly (kt_fmt)
** and results of f16 arithmetic are the exact value rounded once, computed
** with 128-bit integers, which holds every f16 sum, product and fma exactly.
*/
#include "kt.h"

#include <math.h>
#include <stdio.h>

#define BLOCK 128

static double h2d(uint16_t h, kt_fmt f)
{
    kt_num x;
    int cls = kt_decode(h, f, &x);
    if (cls == KT_NAN) return NAN;
    if (cls == KT_INF) return x.neg ? -INFINITY : INFINITY;
    return kt_num_double(x);
}

static bool h_isnan(uint64_t h, kt_fmt f)
{
    kt_num x;
    return kt_decode(h, f, &x) == KT_NAN;
}

/* Conversion of the bits of a value in format 'from' to format 'to'. */
static uint64_t conv(uint64_t bits, kt_fmt from, kt_fmt to, int mode)
{
    kt_num x;
    int cls = kt_decode(bits, from, &x);
    if (cls == KT_NAN) return kt_fmt_nan(to);
    if (cls == KT_INF) return kt_fmt_inf(to, x.neg);
    return kt_round(x, to, mode);
}

/* IEEE add/mul/fma of format f in mode, rounded once. */
static uint64_t h_add(uint64_t a, uint64_t b, kt_fmt f, int mode)
{
    kt_num x, y;
    int ca = kt_decode(a, f, &x), cb = kt_decode(b, f, &y);
    if (ca == KT_NAN || cb == KT_NAN) return kt_fmt_nan(f);
    if (ca == KT_INF && cb == KT_INF) return x.neg == y.neg ? kt_fmt_inf(f, x.neg) : kt_fmt_nan(f);
    if (ca == KT_INF) return kt_fmt_inf(f, x.neg);
    if (cb == KT_INF) return kt_fmt_inf(f, y.neg);
    return kt_round(kt_exact_add(x, y, mode), f, mode);
}
static uint64_t h_mul(uint64_t a, uint64_t b, kt_fmt f, int mode)
{
    kt_num x, y;
    int ca = kt_decode(a, f, &x), cb = kt_decode(b, f, &y);
    if (ca == KT_NAN || cb == KT_NAN) return kt_fmt_nan(f);
    if (ca == KT_INF || cb == KT_INF) {
        if ((ca == KT_FINITE && x.mag == 0) || (cb == KT_FINITE && y.mag == 0)) return kt_fmt_nan(f);
        return kt_fmt_inf(f, x.neg ^ y.neg);
    }
    return kt_round(kt_exact_mul(x, y), f, mode);
}
static uint64_t h_fma(uint64_t a, uint64_t b, uint64_t cc, kt_fmt f, int mode)
{
    kt_num x, y, z;
    int ca = kt_decode(a, f, &x), cb = kt_decode(b, f, &y), cz = kt_decode(cc, f, &z);
    if (ca == KT_NAN || cb == KT_NAN || cz == KT_NAN) return kt_fmt_nan(f);
    if (ca == KT_INF || cb == KT_INF) {
        if ((ca == KT_FINITE && x.mag == 0) || (cb == KT_FINITE && y.mag == 0)) return kt_fmt_nan(f);
        int pneg = x.neg ^ y.neg;
        if (cz == KT_INF && z.neg != pneg) return kt_fmt_nan(f);
        return kt_fmt_inf(f, pneg);
    }
    if (cz == KT_INF) return kt_fmt_inf(f, z.neg);
    return kt_round(kt_exact_add(kt_exact_mul(x, y), z, mode), f, mode);
}
/* min/max with the PTX rules (NaN loses unless nan_wins; -0 < +0). */
static uint64_t h_minmax(uint64_t a, uint64_t b, kt_fmt f, int is_max, int nan_wins)
{
    bool na = h_isnan(a, f), nb = h_isnan(b, f);
    if (na || nb) {
        if (nan_wins || (na && nb)) return kt_fmt_nan(f);
        return na ? b : a;
    }
    double x = h2d((uint16_t)a, f), y = h2d((uint16_t)b, f);
    if (x == 0 && y == 0) {
        uint64_t sign = 1ull << (f.p - 1 + f.ebits);
        return is_max ? (a & b & sign) : ((a | b) & sign);
    }
    if (is_max) return x > y ? a : b;
    return x < y ? a : b;
}

/* Compares f16/bf16 results; NaN matches NaN when loose[k]. */
static kt_res cmp_h(th_ctx *c, const char *what, const uint16_t *g, const uint16_t *e, int n, int per,
                    const kt_fmt *fmts, const uint16_t *in, int inper)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < per; k++) {
            uint16_t gv = g[i * per + k], ev = e[i * per + k];
            if (gv == ev) continue;
            if (fmts[k].p && h_isnan(gv, fmts[k]) && h_isnan(ev, fmts[k])) continue;
        {
            char ins[64];
            int len = 0;
            for (int j = 0; j < inper && len < 50; j++)
                len += snprintf(ins + len, sizeof ins - (size_t)len, " 0x%04x", in[i * inper + j]);
            return th_fail(c, "%s op %d of element %d (inputs%s): got 0x%04x expected 0x%04x",
                           what, k, i, ins, gv, ev);
        }
        }
    return KT_PASS;
}

/* ---- half_ops (sm_75) ---------------------------------------------------------------
** cvt.{rn,rz,rm,rp}.f16.f32, add/sub/mul/fma.rn .f16, neg/abs .f16, add/mul
** .f16x2, setp.*.f16 (ordered and unordered), set.nan.f16, the software bf16
** conversions (rn, rz, rd, ru) and bf16 add/mul (f32 fma, then software rn),
** cvt.rn.f16.f64, cvt.rn.f16.s32, cvt.rzi.s16.f16, cvt.f32.f16,
** cvt.rni.s32.f16, cvt.rmi.u32.f16. */
#define HALF_NH 24
#define HALF_N32 4
static uint16_t bf16_sw_rn(float v)
{
    uint32_t u = kt_fbits(v);
    if (kt_isnan32(u)) return 0x7fff;
    return (uint16_t)conv(u, KT_F32, KT_BF16, KT_RN);
}

static kt_res t_half_ops(th_ctx *c)
{
    enum { n = 8192 };
    static float fv[n];
    static double dv[n];
    static int kv[n];
    static uint16_t hv[3 * n], bv[2 * n], oh[n * HALF_NH], eh[n * HALF_NH];
    static uint32_t o[n * HALF_N32], e[n * HALF_N32];
    kt_rng r;
    kt_seed(&r, 2001);
    for (int i = 0; i < n; i++) {
        uint32_t k = kt_below(&r, 4);
        fv[i] = k == 0 ? kt_bitsf(kt_f32_bits(&r)) : ldexpf(kt_f32_range(&r, -2.0f, 2.0f), (int)kt_below(&r, 50) - 30);
        dv[i] = k == 1 ? kt_bitsd(kt_f64_bits(&r)) : ldexp((double)kt_f32_range(&r, -2.0f, 2.0f) + ldexp((double)kt_u32(&r), -60), (int)kt_below(&r, 50) - 30);
        kv[i] = k == 2 ? (int)kt_u32(&r) : (int)kt_below(&r, 140000) - 70000;
        for (int j = 0; j < 3; j++) {
            uint32_t h = kt_u32(&r) & 0xffff;
            if (kt_below(&r, 4)) h = (h & 0x83ff) | ((8 + kt_below(&r, 16)) << 10);   /* moderate exponents */
            hv[3 * i + j] = (uint16_t)h;
        }
        for (int j = 0; j < 2; j++) {
            uint32_t h = kt_u32(&r) & 0xffff;
            if (kt_below(&r, 4)) h = (h & 0x807f) | ((120 + kt_below(&r, 16)) << 7);
            bv[2 * i + j] = (uint16_t)h;
        }
    }
    /* fixed edge cases */
    static const uint16_t hedge[][3] = {
        {0x7c00, 0xfc00, 0x3c00}, {0x0000, 0x8000, 0x8000}, {0x7e00, 0x3c00, 0x3c00}, {0x3c00, 0x0001, 0x8001},
        {0x7bff, 0x7bff, 0xfbff}, {0x0400, 0x3800, 0x0000}, {0x3c01, 0xbc00, 0x3c00}, {0x7c00, 0x0000, 0x3c00},
        {0x3555, 0x3555, 0xb0e4}, {0x0200, 0x0200, 0x0000},
    };
    for (int i = 0; i < 10; i++) for (int j = 0; j < 3; j++) hv[3 * i + j] = hedge[i][j];
    static const float fedge[] = {65504.0f, 65520.0f, 65519.99f, 0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f,
                                  -0x1p-25f, 1.00048828125f, 1.00146484375f, -65520.0f, 3.4e38f, 0x1.ffe002p0f};
    for (int i = 0; i < (int)(sizeof fedge / sizeof fedge[0]); i++) fv[i] = fedge[i];
    kv[0] = 65504; kv[1] = 65520; kv[2] = -65519; kv[3] = 2049; kv[4] = 2051; kv[5] = INT32_MIN;
    for (int i = 0; i < n; i++) {
        uint16_t a = hv[3 * i], b = hv[3 * i + 1], cc = hv[3 * i + 2];
        uint16_t ba = bv[2 * i], bb = bv[2 * i + 1];
        uint32_t fu = kt_fbits(fv[i]);
        uint16_t *q = eh + i * HALF_NH;
        for (int m = 0; m < 4; m++) q[m] = (uint16_t)conv(fu, KT_F32, KT_F16, m);
        q[4] = (uint16_t)h_add(a, b, KT_F16, KT_RN);
        q[5] = (uint16_t)h_add(a, b ^ 0x8000, KT_F16, KT_RN);
        q[6] = (uint16_t)h_mul(a, b, KT_F16, KT_RN);
        q[7] = (uint16_t)h_fma(a, b, cc, KT_F16, KT_RN);
        q[8] = a ^ 0x8000;
        q[9] = a & 0x7fff;
        q[10] = (uint16_t)h_add(a, b, KT_F16, KT_RN);
        q[11] = (uint16_t)h_add(b, cc, KT_F16, KT_RN);
        q[12] = (uint16_t)h_mul(a, b, KT_F16, KT_RN);
        q[13] = (uint16_t)h_mul(b, cc, KT_F16, KT_RN);
        double x = h2d(a, KT_F16), y = h2d(b, KT_F16);
        bool un = isnan(x) || isnan(y);
        q[14] = (uint16_t)((x < y) | (x <= y) << 1 | (x == y) << 2 | (!un && x != y) << 3 | (x > y) << 4 |
                           (x >= y) << 5 | (isnan(x) != 0) << 6 | (un || x < y) << 7 | (un || x != y) << 8);
        q[15] = bf16_sw_rn(fv[i]);
        /* the software rz/rd/ru of cuda_bf16.h: NaN gives 0x7fff, otherwise IEEE */
        q[16] = kt_isnan32(fu) ? 0x7fff : (uint16_t)conv(fu, KT_F32, KT_BF16, KT_RZ);
        q[17] = kt_isnan32(fu) ? 0x7fff : (uint16_t)conv(fu, KT_F32, KT_BF16, KT_RD);
        q[18] = kt_isnan32(fu) ? 0x7fff : (uint16_t)conv(fu, KT_F32, KT_BF16, KT_RU);
        float fa = kt_bitsf((uint32_t)ba << 16), fb = kt_bitsf((uint32_t)bb << 16);
        q[19] = bf16_sw_rn(kt_ffma(fa, 1.0f, fb, KT_RN));
        q[20] = bf16_sw_rn(kt_ffma(fa, fb, -0.0f, KT_RN));
        q[21] = (uint16_t)conv(kt_dbits(dv[i]), KT_F64, KT_F16, KT_RN);
        kt_num kn = {kv[i] < 0, kv[i] < 0 ? (unsigned __int128)(0u - (uint32_t)kv[i]) : (unsigned __int128)(uint32_t)kv[i], 0};
        q[22] = (uint16_t)kt_round(kn, KT_F16, KT_RN);
        q[23] = (uint16_t)kt_cvt_f2i(x, KT_RZ, 16, true, false);
        uint32_t *w = e + i * HALF_N32;
        w[0] = (uint32_t)conv(a, KT_F16, KT_F32, KT_RN);
        w[1] = (uint32_t)ba << 16;
        w[2] = (uint32_t)kt_cvt_f2i(h2d(cc, KT_F16), KT_RN, 32, true, false);
        w[3] = (uint32_t)kt_cvt_f2i(y, KT_RD, 32, false, false);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr df, dd, dk, dh, db, doh, dO;
    TH_TRY(th_module(c, "half.ptx", &m));
    TH_TRY(th_func(c, m, "half_ops", &f));
    TH_TRY(th_upload(c, fv, sizeof fv, &df)); TH_TRY(th_upload(c, dv, sizeof dv, &dd));
    TH_TRY(th_upload(c, kv, sizeof kv, &dk)); TH_TRY(th_upload(c, hv, sizeof hv, &dh));
    TH_TRY(th_upload(c, bv, sizeof bv, &db));
    TH_TRY(th_alloc(c, sizeof oh, &doh)); TH_TRY(th_alloc(c, sizeof o, &dO));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &df, &dd, &dk, &dh, &db, &doh, &dO, &nn);
    TH_TRY(th_download(c, oh, doh, sizeof oh));
    TH_TRY(th_download(c, o, dO, sizeof o));
    kt_fmt fm[HALF_NH];
    for (int k = 0; k < HALF_NH; k++) fm[k] = KT_F16;
    fm[14] = fm[23] = (kt_fmt){0, 0};
    for (int k = 15; k <= 20; k++) fm[k] = KT_BF16;
    TH_TRY(cmp_h(c, "half", oh, eh, n, HALF_NH, fm, hv, 3));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < HALF_N32; k++) {
            uint32_t g = o[i * HALF_N32 + k], x = e[i * HALF_N32 + k];
            if (g == x || (k < 2 && kt_isnan32(g) && kt_isnan32(x))) continue;
            return th_fail(c, "half op32 %d of element %d (h=0x%04x,0x%04x,0x%04x bf=0x%04x): got 0x%08x expected 0x%08x",
                           k, i, hv[3 * i], hv[3 * i + 1], hv[3 * i + 2], bv[2 * i], g, x);
        }
    return KT_PASS;
}

/* ---- half_sm80, redux_sm80 (sm_80; skipped below compute 8.0) ---------------------
** cvt.rn/rz.bf16.f32, fma.rn.bf16 (one rounding of the exact x*y+z),
** min/max .f16/.bf16 with and without .NaN, cvt.rn.relu.f16.f32,
** min/max.NaN.f32; redux.sync .add/.min.s32/.max.u32/.and/.or/.xor. */
#define H80_N 12
static kt_res sm80_gate(th_ctx *c)
{
    if (c->cc >= 80) return KT_PASS;
    /* A 7.x device must refuse the module (the PTX targets sm_80). */
    CUmodule m;
    char path[1024];
    snprintf(path, sizeof path, "%s/half80.ptx", c->ptxdir);
    CUresult r = cuModuleLoad(&m, path);
    if (r == CUDA_SUCCESS) {
        cuModuleUnload(m);
        return th_fail(c, "device is compute %d.%d but accepted an sm_80 module", c->cc / 10, c->cc % 10);
    }
    return th_skip(c, "needs compute 8.0, device is %d.%d (the sm_80 module was refused: %s)",
                   c->cc / 10, c->cc % 10, th_errname(r));
}

static kt_res t_half_sm80(th_ctx *c)
{
    TH_TRY(sm80_gate(c));
    enum { n = 4096 };
    static uint32_t fv[2 * n], o[2 * n], e[2 * n];
    static uint16_t hv[2 * n], bv[3 * n], oh[n * H80_N], eh[n * H80_N];
    kt_rng r;
    kt_seed(&r, 2002);
    for (int i = 0; i < n; i++) {
        fv[2 * i] = kt_f32_bits(&r);
        fv[2 * i + 1] = kt_below(&r, 8) ? kt_f32_bits(&r) : fv[2 * i] ^ 0x80000000u;
        hv[2 * i] = (uint16_t)(kt_u32(&r) & 0xffff);
        hv[2 * i + 1] = kt_below(&r, 8) ? (uint16_t)(kt_u32(&r) & 0xffff) : hv[2 * i] ^ 0x8000;
        for (int j = 0; j < 3; j++) {   /* exponents within 2^+-20: exact sums fit 128 bits */
            uint32_t h = (kt_u32(&r) & 0x807f) | ((107 + kt_below(&r, 41)) << 7);
            if (kt_below(&r, 16) == 0) h &= 0x8000;
            bv[3 * i + j] = (uint16_t)h;
        }
    }
    hv[0] = 0x0000; hv[1] = 0x8000; hv[2] = 0x7e00; hv[3] = 0x3c00; hv[4] = 0x7e00; hv[5] = 0xfe00;
    fv[0] = 0x80000000u; fv[1] = 0x00000000u; fv[2] = 0x7fc00000u; fv[3] = 0x3f800000u;
    for (int i = 0; i < n; i++) {
        uint16_t a = hv[2 * i], b = hv[2 * i + 1], x = bv[3 * i], y = bv[3 * i + 1], z = bv[3 * i + 2];
        uint16_t *q = eh + i * H80_N;
        q[0] = (uint16_t)conv(fv[2 * i], KT_F32, KT_BF16, KT_RN);
        q[1] = (uint16_t)conv(fv[2 * i], KT_F32, KT_BF16, KT_RZ);
        q[2] = (uint16_t)h_fma(x, y, z, KT_BF16, KT_RN);
        q[3] = (uint16_t)h_add(x, y, KT_BF16, KT_RN);
        q[4] = (uint16_t)h_mul(x, y, KT_BF16, KT_RN);
        q[5] = (uint16_t)h_minmax(a, b, KT_F16, 0, 0);
        q[6] = (uint16_t)h_minmax(a, b, KT_F16, 1, 0);
        q[7] = (uint16_t)h_minmax(a, b, KT_F16, 0, 1);
        q[8] = (uint16_t)h_minmax(a, b, KT_F16, 1, 1);
        uint16_t h = (uint16_t)conv(fv[2 * i], KT_F32, KT_F16, KT_RN);
        q[9] = h_isnan(h, KT_F16) ? 0x7fff : (h & 0x8000) ? 0 : h;   /* relu: negatives to +0 */
        q[10] = (uint16_t)h_minmax(x, y, KT_BF16, 1, 0);
        q[11] = (uint16_t)h_minmax(x, y, KT_BF16, 0, 1);
        uint32_t fa = fv[2 * i], fb = fv[2 * i + 1];
        bool nan = kt_isnan32(fa) || kt_isnan32(fb);
        float va = kt_bitsf(fa), vb = kt_bitsf(fb);
        if (nan) { e[2 * i] = e[2 * i + 1] = 0x7fffffffu; }
        else if (((fa | fb) & 0x7fffffffu) == 0) { e[2 * i] = fa | fb; e[2 * i + 1] = fa & fb; }
        else { e[2 * i] = va < vb ? fa : fb; e[2 * i + 1] = va > vb ? fa : fb; }
    }
    CUmodule m; CUfunction f;
    CUdeviceptr df, dh, db, doh, dO;
    TH_TRY(th_module(c, "half80.ptx", &m));
    TH_TRY(th_func(c, m, "half_sm80", &f));
    TH_TRY(th_upload(c, fv, sizeof fv, &df)); TH_TRY(th_upload(c, hv, sizeof hv, &dh));
    TH_TRY(th_upload(c, bv, sizeof bv, &db));
    TH_TRY(th_alloc(c, sizeof oh, &doh)); TH_TRY(th_alloc(c, sizeof o, &dO));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &df, &dh, &db, &doh, &dO, &nn);
    TH_TRY(th_download(c, oh, doh, sizeof oh));
    TH_TRY(th_download(c, o, dO, sizeof o));
    static uint16_t ins[5 * n];   /* for messages: the f16 pair, then the bf16 triple */
    for (int i = 0; i < n; i++) {
        if ((oh[i * H80_N + 9] & 0x7fff) == 0) oh[i * H80_N + 9] = 0;
        ins[5 * i] = hv[2 * i]; ins[5 * i + 1] = hv[2 * i + 1];
        for (int j = 0; j < 3; j++) ins[5 * i + 2 + j] = bv[3 * i + j];
    }
    kt_fmt fm[H80_N];
    for (int k = 0; k < H80_N; k++) fm[k] = (k <= 4 || k >= 10) ? KT_BF16 : KT_F16;
    TH_TRY(cmp_h(c, "sm80", oh, eh, n, H80_N, fm, ins, 5));
    return kt_cmp_f32(c, "min/max.NaN.f32 (elem*2+{min,max})", o, e, 2 * n);
}

static kt_res t_redux_sm80(th_ctx *c)
{
    TH_TRY(sm80_gate(c));
    enum { n = 256 };
    static uint32_t v[n], o[6 * n], e[6 * n];
    kt_rng r;
    kt_seed(&r, 2003);
    for (int i = 0; i < n; i++) v[i] = kt_below(&r, 3) ? kt_u32(&r) : kt_below(&r, 100);
    for (int w = 0; w < n / 32; w++) {
        uint32_t add = 0, and_ = ~0u, or_ = 0, xr = 0, mx = 0;
        int32_t mn = INT32_MAX;
        for (int l = 0; l < 32; l++) {
            uint32_t x = v[w * 32 + l];
            add += x; and_ &= x; or_ |= x;
            if ((int32_t)x < mn) mn = (int32_t)x;
            if (x > mx) mx = x;
            if (!(l & 1)) xr ^= x;
        }
        for (int l = 0; l < 32; l++) {
            uint32_t *q = e + 6 * (w * 32 + l);
            q[0] = add; q[1] = (uint32_t)mn; q[2] = mx; q[3] = and_; q[4] = or_; q[5] = (l & 1) ? 0 : xr;
        }
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dO;
    TH_TRY(th_module(c, "half80.ptx", &m));
    TH_TRY(th_func(c, m, "redux_sm80", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &dv, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "redux (lane*6+{add,min,max,and,or,xor})", o, e, 6 * n);
}

const kt_test kt_tests_half[] = {
    {"half_ops", t_half_ops, 0},
    {"half_sm80", t_half_sm80, 0},
    {"redux_sm80", t_redux_sm80, 0},
    {0},
};
