/*
** kt_int.c -- integer tests (kernels in int.cu).
**
** The references spell out the PTX rule for every case C leaves undefined:
** INT_MIN / -1, INT_MIN % -1, shifts by the width or more, signed overflow,
** abs(INT_MIN).  Conversions from unsigned to signed types are the modular
** ones gcc and clang define.
*/
#include "kt.h"

#include <stdlib.h>
#include <string.h>

#define N_ELEMS 4096
#define BLOCK 256

static const uint32_t kt_edge32[] = {
    0u, 1u, 2u, 3u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu, 0xfffffffeu,
    0x0000ffffu, 0xffff0000u, 0x00800000u, 0x00ffffffu, 0xff800000u, 0x12345678u, 0x0000001fu,
    0x00000020u, 0x00000021u, 0x0000003fu, 0x00000040u, 0x55555555u, 0xaaaaaaaau,
};
static const uint64_t kt_edge64[] = {
    0ull, 1ull, 2ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull,
    0xffffffffffffffffull, 0xfffffffffffffffeull, 0x00000000ffffffffull, 0xffffffff00000000ull,
    0x0000000080000000ull, 0xffffffff80000000ull, 0x0123456789abcdefull, 0x000000000000003full,
};

static uint32_t kt_rand32(kt_rng *r)
{
    uint32_t k = kt_below(r, 8);
    if (k == 0) return kt_edge32[kt_below(r, sizeof kt_edge32 / sizeof kt_edge32[0])];
    if (k == 1) return kt_below(r, 64);
    if (k == 2) return 0u - kt_below(r, 64);
    return kt_u32(r);
}

static uint64_t kt_rand64(kt_rng *r)
{
    uint32_t k = kt_below(r, 8);
    if (k == 0) return kt_edge64[kt_below(r, sizeof kt_edge64 / sizeof kt_edge64[0])];
    if (k == 1) return kt_below(r, 64);
    if (k == 2) return 0ull - kt_below(r, 1u << 20);
    if (k == 3) return (uint64_t)(int64_t)(int32_t)kt_u32(r);
    return kt_next(r);
}

static int32_t s32(uint32_t x) { return (int32_t)x; }
static int64_t s64(uint64_t x) { return (int64_t)x; }
/* Arithmetic shifts without relying on C's implementation-defined >> of
** negative values. */
static uint32_t sar32(uint32_t x, unsigned s) { return (x & 0x80000000u) ? ~(~x >> s) : x >> s; }
static uint64_t sar64(uint64_t x, unsigned s) { return (x >> 63) ? ~(~x >> s) : x >> s; }

/* ---- int_arith ------------------------------------------------------------
** Covers add/sub/mul.lo/mul.hi(.s32,.u32,.s64,.u64)/mad/min/max/abs/neg/not/
** and/or/xor/shl/shr(.s/.u)/sad(.s32,.u32)/setp+selp/add.sat/sub.sat/
** mul24.lo.s32/mul24.hi.u32/mul.wide(.s32,.u32). */
#define ARITH32_N 24
#define ARITH64_N 16

static uint32_t sat32(int64_t v)
{
    if (v > INT32_MAX) return 0x7fffffffu;
    if (v < INT32_MIN) return 0x80000000u;
    return (uint32_t)v;
}

static int64_t sx24(uint32_t x) { return (int64_t)(x & 0xffffffu) - ((x & 0x800000u) ? 0x1000000 : 0); }

static void ref_arith32(uint32_t x, uint32_t y, uint32_t z, uint32_t *r)
{
    r[0] = x + y;
    r[1] = x - y;
    r[2] = x * y;
    r[3] = (uint32_t)((uint64_t)((int64_t)s32(x) * s32(y)) >> 32);
    r[4] = (uint32_t)(((uint64_t)x * y) >> 32);
    r[5] = x * y + z;
    r[6] = s32(x) < s32(y) ? x : y;
    r[7] = x > y ? x : y;
    r[8] = x < y ? x : y;
    r[9] = s32(x) > s32(y) ? x : y;
    r[10] = (x & 0x80000000u) ? 0u - x : x;      /* abs(INT_MIN) == INT_MIN */
    r[11] = 0u - x;
    r[12] = ~x;
    r[13] = (x & y) ^ (x | z);
    r[14] = sar32(x, y & 31);
    r[15] = x << (y & 31);
    r[16] = x >> (y & 31);
    r[17] = z + (s32(x) < s32(y) ? y - x : x - y);
    r[18] = z + (x < y ? y - x : x - y);
    r[19] = (uint32_t)(s32(x) < s32(y)) | (uint32_t)(x < y) << 1 | (uint32_t)(x == y) << 2 |
            (uint32_t)(s32(x) >= s32(z)) << 3 | (uint32_t)(x > z) << 4 | (uint32_t)(y != z) << 5 |
            (uint32_t)(s32(y) <= s32(z)) << 6 | (uint32_t)(y >= z) << 7;
    r[20] = sat32((int64_t)s32(x) + s32(y));
    r[21] = sat32((int64_t)s32(x) - s32(y));
    r[22] = (uint32_t)(uint64_t)(sx24(x) * sx24(y));
    r[23] = (uint32_t)((((uint64_t)(x & 0xffffffu)) * (y & 0xffffffu)) >> 16);
}

static void ref_arith64(uint64_t X, uint64_t Y, uint64_t Z, uint32_t x, uint32_t y, uint64_t *q)
{
    q[0] = X + Y;
    q[1] = X - Y;
    q[2] = X * Y + Z;
    q[3] = (uint64_t)((unsigned __int128)((__int128)s64(X) * s64(Y)) >> 64);
    q[4] = (uint64_t)(((unsigned __int128)X * Y) >> 64);
    q[5] = s64(X) < s64(Y) ? X : Y;
    q[6] = X > Y ? X : Y;
    q[7] = sar64(X, y & 63);
    q[8] = X << (y & 63);
    q[9] = X >> (y & 63);
    q[10] = (uint64_t)((int64_t)s32(x) * s32(y));
    q[11] = (uint64_t)x * y;
    q[12] = (X >> 63) ? 0ull - X : X;
    q[13] = 0ull - X;
    q[14] = (uint64_t)(s64(X) < s64(Y)) | (uint64_t)(X < Y) << 1 | (uint64_t)(X == Z) << 2 |
            (uint64_t)(s64(Y) >= s64(Z)) << 3;
    q[15] = (X ^ ~Y) & (Z | 0xff00ff00ff00ff00ull);
}

static kt_res t_int_arith(th_ctx *c)
{
    enum { n = N_ELEMS };
    static uint32_t a[n], b[n], z[n], o[n * ARITH32_N], e[n * ARITH32_N];
    static uint64_t A[n], B[n], Z[n], O[n * ARITH64_N], E[n * ARITH64_N];
    kt_rng r;
    kt_seed(&r, 101);
    for (int i = 0; i < n; i++) {
        a[i] = kt_rand32(&r); b[i] = kt_rand32(&r); z[i] = kt_rand32(&r);
        A[i] = kt_rand64(&r); B[i] = kt_rand64(&r); Z[i] = kt_rand64(&r);
    }
    a[0] = 0x80000000u; b[0] = 0x80000000u;     /* products of INT_MIN */
    a[1] = 0x7fffffffu; b[1] = 1;               /* add.sat overflow */
    a[2] = 0x80000000u; b[2] = 1;               /* sub.sat underflow */
    A[3] = 0x8000000000000000ull; B[3] = 0xffffffffffffffffull;
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dz, dA, dB, dZ, dO, dO64;
    TH_TRY(th_module(c, "int.ptx", &m));
    TH_TRY(th_func(c, m, "int_arith", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, z, sizeof z, &dz)); TH_TRY(th_upload(c, A, sizeof A, &dA));
    TH_TRY(th_upload(c, B, sizeof B, &dB)); TH_TRY(th_upload(c, Z, sizeof Z, &dZ));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof O, &dO64));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &db, &dz, &dO, &dA, &dB, &dZ, &dO64, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    TH_TRY(th_download(c, O, dO64, sizeof O));
    for (int i = 0; i < n; i++) {
        ref_arith32(a[i], b[i], z[i], e + i * ARITH32_N);
        ref_arith64(A[i], B[i], Z[i], a[i], b[i], E + i * ARITH64_N);
    }
    TH_TRY(th_check_u32(c, "arith32 (elem*24+op)", o, e, n * ARITH32_N));
    return th_check_u64(c, "arith64 (elem*16+op)", O, E, n * ARITH64_N);
}

/* ---- int_div / int_rem ------------------------------------------------------
** div/rem .s32 .u32 .s64 .u64.  PTX (and NVIDIA GPUs) give INT_MIN / -1 ==
** INT_MIN and INT_MIN % -1 == 0; the remainder has the dividend's sign. */
static void ref_divrem(int32_t a, int32_t b, int64_t A, int64_t B, uint32_t *q, uint64_t *Q, int rem)
{
    if (!rem) {
        q[0] = (a == INT32_MIN && b == -1) ? 0x80000000u : (uint32_t)(a / b);
        q[1] = (uint32_t)a / (uint32_t)b;
        Q[0] = (A == INT64_MIN && B == -1) ? 0x8000000000000000ull : (uint64_t)(A / B);
        Q[1] = (uint64_t)A / (uint64_t)B;
    } else {
        q[0] = b == -1 ? 0u : (uint32_t)(a % b);
        q[1] = (uint32_t)a % (uint32_t)b;
        Q[0] = B == -1 ? 0ull : (uint64_t)(A % B);
        Q[1] = (uint64_t)A % (uint64_t)B;
    }
}

static kt_res t_int_divrem(th_ctx *c)
{
    enum { n = N_ELEMS };
    static int32_t a[n], b[n];
    static int64_t A[n], B[n];
    static uint32_t o[2 * n], e[2 * n];
    static uint64_t O[2 * n], E[2 * n];
    kt_rng r;
    kt_seed(&r, 202);
    for (int i = 0; i < n; i++) {
        a[i] = s32(kt_rand32(&r));
        A[i] = s64(kt_rand64(&r));
        uint32_t k = kt_below(&r, 4);
        b[i] = k == 0 ? s32(kt_rand32(&r)) : k == 1 ? (int32_t)kt_below(&r, 33) - 16 : s32(kt_u32(&r) >> kt_below(&r, 32));
        B[i] = k == 0 ? s64(kt_rand64(&r)) : k == 1 ? (int64_t)kt_below(&r, 33) - 16 : s64(kt_next(&r) >> kt_below(&r, 64));
        if (b[i] == 0) b[i] = 7;
        if (B[i] == 0) B[i] = -3;
    }
    /* The edge cases, at fixed places. */
    a[0] = INT32_MIN; b[0] = -1;    A[0] = INT64_MIN; B[0] = -1;
    a[1] = INT32_MIN; b[1] = 1;     A[1] = INT64_MIN; B[1] = 1;
    a[2] = -7; b[2] = 2;            A[2] = -7; B[2] = 2;
    a[3] = 7; b[3] = -2;            A[3] = 7; B[3] = -2;
    a[4] = -7; b[4] = -2;           A[4] = -7; B[4] = -2;
    a[5] = INT32_MIN; b[5] = INT32_MIN; A[5] = INT64_MIN; B[5] = INT64_MIN;
    a[6] = INT32_MAX; b[6] = INT32_MIN; A[6] = INT64_MAX; B[6] = INT64_MIN;
    a[7] = -1; b[7] = INT32_MAX;    A[7] = -1; B[7] = 0x100000000ll;     /* 64-bit path of div.s64 */
    a[8] = 5; b[8] = 0x7fffffff;    A[8] = 0xffffffffll; B[8] = 0xffffffffll; /* 32-bit fast path */
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dA, dB, dO, dO64;
    TH_TRY(th_module(c, "int.ptx", &m));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, A, sizeof A, &dA)); TH_TRY(th_upload(c, B, sizeof B, &dB));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof O, &dO64));
    int nn = n;
    for (int rem = 0; rem < 2; rem++) {
        TH_TRY(th_func(c, m, rem ? "int_rem" : "int_div", &f));
        KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &db, &dA, &dB, &dO, &dO64, &nn);
        TH_TRY(th_download(c, o, dO, sizeof o));
        TH_TRY(th_download(c, O, dO64, sizeof O));
        for (int i = 0; i < n; i++) ref_divrem(a[i], b[i], A[i], B[i], e + 2 * i, E + 2 * i, rem);
        TH_TRY(th_check_u32(c, rem ? "rem32 (elem*2+{s,u})" : "div32 (elem*2+{s,u})", o, e, 2 * n));
        TH_TRY(th_check_u64(c, rem ? "rem64 (elem*2+{s,u})" : "div64 (elem*2+{s,u})", O, E, 2 * n));
    }
    return KT_PASS;
}

/* ---- int_shift ---------------------------------------------------------------
** shl.b32/shr.u32/shr.s32/shl.b64/shr.u64/shr.s64 by register amounts 0..70,
** 256 and 0xffffffff: PTX clamps amounts above the width to the width. */
static kt_res t_int_shift(th_ctx *c)
{
    enum { n = N_ELEMS };
    static uint32_t a[n], s[n], o[3 * n], e[3 * n];
    static uint64_t A[n], O[3 * n], E[3 * n];
    kt_rng r;
    kt_seed(&r, 303);
    for (int i = 0; i < n; i++) {
        a[i] = kt_rand32(&r);
        A[i] = kt_rand64(&r);
        uint32_t k = kt_below(&r, 16);
        s[i] = k == 0 ? 0xffffffffu : k == 1 ? 256u : k == 2 ? 0x80000020u : kt_below(&r, 71);
    }
    for (int i = 0; i < n; i++) {
        unsigned s32c = s[i] > 32 ? 32 : s[i], s64c = s[i] > 64 ? 64 : s[i];
        e[3 * i] = s32c == 32 ? 0 : a[i] << s32c;
        e[3 * i + 1] = s32c == 32 ? 0 : a[i] >> s32c;
        e[3 * i + 2] = s32c == 32 ? ((a[i] >> 31) ? 0xffffffffu : 0) : sar32(a[i], s32c);
        E[3 * i] = s64c == 64 ? 0 : A[i] << s64c;
        E[3 * i + 1] = s64c == 64 ? 0 : A[i] >> s64c;
        E[3 * i + 2] = s64c == 64 ? ((A[i] >> 63) ? ~0ull : 0) : sar64(A[i], s64c);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr da, dA, ds, dO, dO64;
    TH_TRY(th_module(c, "int.ptx", &m));
    TH_TRY(th_func(c, m, "int_shift", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, A, sizeof A, &dA));
    TH_TRY(th_upload(c, s, sizeof s, &ds));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof O, &dO64));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &dA, &ds, &dO, &dO64, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    TH_TRY(th_download(c, O, dO64, sizeof O));
    TH_TRY(th_check_u32(c, "shift32 (elem*3+{shl,shr.u,shr.s})", o, e, 3 * n));
    return th_check_u64(c, "shift64 (elem*3+{shl,shr.u,shr.s})", O, E, 3 * n);
}

/* ---- int_bits --------------------------------------------------------------
** popc/clz/brev (.b32,.b64), __ffs (brev+bfind.shiftamt), prmt (selector
** masked by __byte_perm, and raw with sign replication), shf.{l,r}.{wrap,
** clamp}, bfe.{u32,s32,u64,s64}, bfi.{b32,b64}, bfind.{u32,s32,u64,shiftamt}.
** bfe/bfi follow the pseudo-code of the PTX ISA literally. */
#define BITS_N 22

static unsigned popc64(uint64_t x) { unsigned k = 0; while (x) { x &= x - 1; k++; } return k; }
static unsigned clz64(uint64_t x, unsigned w)
{
    unsigned k = 0;
    for (int i = (int)w - 1; i >= 0 && !((x >> i) & 1); i--) k++;
    return k;
}
static uint64_t brev64(uint64_t x, unsigned w)
{
    uint64_t y = 0;
    for (unsigned i = 0; i < w; i++) if ((x >> i) & 1) y |= 1ull << (w - 1 - i);
    return y;
}
static unsigned ffs64(uint64_t x)
{
    if (!x) return 0;
    unsigned k = 1;
    while (!(x & 1)) { x >>= 1; k++; }
    return k;
}
/* The PTX bfe pseudo-code, for width w (32 or 64). */
static uint64_t bfe_ref(uint64_t a, uint32_t b, uint32_t cc, unsigned w, int sgn)
{
    unsigned msb = w - 1, pos = b & 0xff, len = cc & 0xff;
    unsigned sbit = 0;
    if (sgn && len) {
        unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
        sbit = (a >> top) & 1;
    }
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        unsigned bit = (i < len && pos + i <= msb) ? (unsigned)((a >> (pos + i)) & 1) : sbit;
        d |= (uint64_t)bit << i;
    }
    return d;
}
static uint64_t bfi_ref(uint64_t a, uint64_t b, uint32_t cc, uint32_t dd, unsigned w)
{
    unsigned msb = w - 1, pos = cc & 0xff, len = dd & 0xff;
    uint64_t f = b;
    for (unsigned i = 0; i < len && pos + i <= msb; i++)
        f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return f;
}
static uint32_t bfind_ref(uint64_t a, unsigned w, int sgn, int shiftamt)
{
    if (sgn && ((a >> (w - 1)) & 1)) a = ~a & (w == 64 ? ~0ull : 0xffffffffull);
    for (int i = (int)w - 1; i >= 0; i--)
        if ((a >> i) & 1) return shiftamt ? (uint32_t)(w - 1 - (unsigned)i) : (uint32_t)i;
    return 0xffffffffu;
}
static uint32_t prmt_ref(uint32_t x, uint32_t y, uint32_t sel, int masked)
{
    uint64_t src = ((uint64_t)y << 32) | x;
    uint32_t d = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t s = (sel >> (4 * k)) & 0xf;
        if (masked) s &= 7;
        uint32_t byte = (uint32_t)(src >> (8 * (s & 7))) & 0xff;
        if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * k);
    }
    return d;
}
static uint32_t shf_ref(uint32_t lo, uint32_t hi, uint32_t amt, int left, int wrap)
{
    unsigned s = wrap ? (amt & 31) : (amt > 32 ? 32 : amt);
    uint64_t v = ((uint64_t)hi << 32) | lo;
    if (left) return s == 0 ? hi : (uint32_t)((v << s) >> 32);
    return (uint32_t)(v >> s);
}

static kt_res t_int_bits(th_ctx *c)
{
    enum { n = N_ELEMS };
    static uint32_t a[n], b[n], z[n], o[n * BITS_N], e[n * BITS_N];
    static uint64_t A[n], O[n * 4], E[n * 4];
    kt_rng r;
    kt_seed(&r, 404);
    for (int i = 0; i < n; i++) {
        a[i] = kt_rand32(&r); b[i] = kt_rand32(&r); A[i] = kt_rand64(&r);
        z[i] = kt_u32(&r);
        if (kt_below(&r, 2)) /* a field that fits more often than not */
            z[i] = (z[i] & 0xffff0000u) | kt_below(&r, 70) | kt_below(&r, 70) << 8;
    }
    for (int i = 0; i < n; i++) {
        uint32_t x = a[i], y = b[i], w = z[i], *q = e + i * BITS_N;
        uint64_t X = A[i];
        uint32_t pos = w & 0xff, len = (w >> 8) & 0xff;
        q[0] = popc64(x); q[1] = popc64(X); q[2] = clz64(x, 32); q[3] = clz64(X, 64);
        q[4] = ffs64(x); q[5] = ffs64(X); q[6] = (uint32_t)brev64(x, 32);
        q[7] = prmt_ref(x, y, w, 1); q[8] = prmt_ref(x, y, w, 0);
        q[9] = shf_ref(x, y, w, 1, 1); q[10] = shf_ref(x, y, w, 1, 0);
        q[11] = shf_ref(x, y, w, 0, 1); q[12] = shf_ref(x, y, w, 0, 0);
        q[13] = (uint32_t)bfe_ref(x, pos, len, 32, 0);
        q[14] = (uint32_t)bfe_ref(x, pos, len, 32, 1);
        q[15] = (uint32_t)bfi_ref(x, y, pos, len, 32);
        q[16] = bfind_ref(x, 32, 0, 0); q[17] = bfind_ref(x, 32, 1, 0);
        q[18] = bfind_ref(x, 32, 0, 1); q[19] = bfind_ref(X, 64, 0, 0);
        q[20] = popc64(x ^ y); q[21] = clz64(x & y, 32);
        uint64_t *Q = E + 4 * i;
        Q[0] = brev64(X, 64);
        Q[1] = bfe_ref(X, pos, len, 64, 0);
        Q[2] = bfe_ref(X, pos, len, 64, 1);
        Q[3] = bfi_ref(X, ((uint64_t)y << 32) | w, pos, len, 64);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dz, dA, dO, dO64;
    TH_TRY(th_module(c, "int.ptx", &m));
    TH_TRY(th_func(c, m, "int_bits", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, z, sizeof z, &dz)); TH_TRY(th_upload(c, A, sizeof A, &dA));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof O, &dO64));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &da, &db, &dz, &dA, &dO, &dO64, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    TH_TRY(th_download(c, O, dO64, sizeof O));
    TH_TRY(th_check_u32(c, "bits32 (elem*22+op)", o, e, n * BITS_N));
    return th_check_u64(c, "bits64 (elem*4+op)", O, E, 4 * n);
}

/* ---- int_select ------------------------------------------------------------
** selp.b32, slct.b32.s32, slct.b32.f32 (-0 selects a, NaN selects b, a
** negative subnormal selects b), set.lt.u32.s32, set.gtu.f32.f32. */
static kt_res t_int_select(th_ctx *c)
{
    enum { n = 2048 };
    static uint32_t a[n], b[n], o[5 * n], e[5 * n], fb[n];
    static int32_t cs[n];
    kt_rng r;
    kt_seed(&r, 505);
    for (int i = 0; i < n; i++) {
        a[i] = kt_u32(&r); b[i] = kt_u32(&r);
        cs[i] = s32(kt_rand32(&r));
        fb[i] = kt_f32_bits(&r);
    }
    fb[0] = 0x80000000u; fb[1] = 0x7fc00000u; fb[2] = 0x80000001u; fb[3] = 0x00000001u; fb[4] = 0xffc00000u;
    for (int i = 0; i < n; i++) {
        uint32_t f = fb[i];
        bool nan = kt_isnan32(f), neg = (f >> 31) != 0, zero = (f & 0x7fffffffu) == 0;
        e[5 * i] = cs[i] < 0 ? a[i] : b[i];
        e[5 * i + 1] = cs[i] >= 0 ? a[i] : b[i];
        e[5 * i + 2] = (!nan && (!neg || zero)) ? a[i] : b[i];
        e[5 * i + 3] = s32(a[i]) < cs[i] ? 0xffffffffu : 0;
        e[5 * i + 4] = (nan || (!neg && !zero)) ? 0x3f800000u : 0;
    }
    CUmodule m; CUfunction fn;
    CUdeviceptr da, db, dc, df, dO;
    TH_TRY(th_module(c, "int.ptx", &m));
    TH_TRY(th_func(c, m, "int_select", &fn));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, cs, sizeof cs, &dc)); TH_TRY(th_upload(c, fb, sizeof fb, &df));
    TH_TRY(th_alloc(c, sizeof o, &dO));
    int nn = n;
    KT_LAUNCH1(fn, n / BLOCK, BLOCK, &da, &db, &dc, &df, &dO, &nn);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "select (elem*5+{selp,slct.s32,slct.f32,set.s32,set.f32})", o, e, 5 * n);
}

/* ---- int_narrow --------------------------------------------------------------
** ld/st .s8 .u8 .s16 .u16, cvt.s32.s8/.s16, 16-bit add/mul/shift, mul.wide.s16;
** the C promotion rules (to int, then truncation) are the same on both sides. */
static kt_res t_int_narrow(th_ctx *c)
{
    enum { n = N_ELEMS };
    static int8_t s8[n], os8[n], es8[n];
    static uint8_t u8[n];
    static int16_t s16[n];
    static uint16_t u16[n], ou16[n], eu16[n];
    static int32_t o[4 * n], e[4 * n];
    kt_rng r;
    kt_seed(&r, 606);
    for (int i = 0; i < n; i++) {
        uint32_t v = kt_u32(&r);
        s8[i] = (int8_t)(v & 0xff); u8[i] = (uint8_t)(v >> 8); s16[i] = (int16_t)(v >> 16);
        u16[i] = (uint16_t)kt_u32(&r);
    }
    s8[0] = -128; u8[0] = 255; s16[0] = -32768; u16[0] = 65535;
    for (int i = 0; i < n; i++) {
        int8_t a = s8[i]; uint8_t b = u8[i]; int16_t cc = s16[i]; uint16_t d = u16[i];
        es8[i] = (int8_t)(a * 3 + (int8_t)b);
        eu16[i] = (uint16_t)(d * (uint16_t)b + (uint16_t)cc);
        e[4 * i] = a + b + cc + d;
        e[4 * i + 1] = (int)cc * (int)cc;
        e[4 * i + 2] = (int)(int16_t)(cc >> 3) + (int)(uint16_t)(d >> 5);
        e[4 * i + 3] = (int)(int8_t)(uint8_t)(d + b);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr d1, d2, d3, d4, d5, d6, d7;
    TH_TRY(th_module(c, "int.ptx", &m));
    TH_TRY(th_func(c, m, "int_narrow", &f));
    TH_TRY(th_upload(c, s8, sizeof s8, &d1)); TH_TRY(th_upload(c, u8, sizeof u8, &d2));
    TH_TRY(th_upload(c, s16, sizeof s16, &d3)); TH_TRY(th_upload(c, u16, sizeof u16, &d4));
    TH_TRY(th_alloc(c, sizeof os8, &d5)); TH_TRY(th_alloc(c, sizeof ou16, &d6));
    TH_TRY(th_alloc(c, sizeof o, &d7));
    int nn = n;
    KT_LAUNCH1(f, n / BLOCK, BLOCK, &d1, &d2, &d3, &d4, &d5, &d6, &d7, &nn);
    TH_TRY(th_download(c, os8, d5, sizeof os8));
    TH_TRY(th_download(c, ou16, d6, sizeof ou16));
    TH_TRY(th_download(c, o, d7, sizeof o));
    for (int i = 0; i < n; i++)
        if (os8[i] != es8[i]) return th_fail(c, "s8[%d]: got %d expected %d", i, os8[i], es8[i]);
    TH_TRY(th_check_u16(c, "u16", ou16, eu16, n));
    return th_check_u32(c, "narrow (elem*4+op)", (const uint32_t *)o, (const uint32_t *)e, 4 * n);
}

/* ---- int_bignum ----------------------------------------------------------------
** add.cc/addc.cc/addc, sub.cc/subc.cc/subc (256-bit, carry and borrow out),
** mad.lo.cc/madc.lo.cc/mad.hi.cc/madc.hi.cc (128x128 -> 256), and nvcc's own
** lowering of unsigned __int128 (mul.hi.u64, add.cc.s64, addc.cc.s64). */
static kt_res t_int_bignum(th_ctx *c)
{
    enum { n = 2048 };
    static uint32_t A[8 * n], B[8 * n], S[9 * n], D[9 * n], P[9 * n];
    static uint32_t ES[9 * n], ED[9 * n], EP[9 * n];
    static uint64_t W[4 * n], EW[4 * n];
    kt_rng r;
    kt_seed(&r, 707);
    for (int i = 0; i < 8 * n; i++) {
        uint32_t k = kt_below(&r, 4);
        A[i] = k == 0 ? 0xffffffffu : kt_u32(&r);
        B[i] = k == 1 ? 0xffffffffu : k == 2 ? 0 : kt_u32(&r);
    }
    for (int k = 0; k < 8; k++) { A[k] = 0xffffffffu; B[k] = k == 0 ? 1 : 0; }   /* full carry ripple */
    for (int k = 0; k < 8; k++) { A[8 + k] = 0; B[8 + k] = k == 0 ? 1 : 0; }      /* full borrow ripple */
    for (int k = 0; k < 8; k++) { A[16 + k] = 0xffffffffu; B[16 + k] = 0xffffffffu; } /* max product */
    for (int i = 0; i < n; i++) {
        const uint32_t *a = A + 8 * i, *b = B + 8 * i;
        uint64_t carry = 0, borrow = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t s = (uint64_t)a[k] + b[k] + carry;
            ES[9 * i + k] = (uint32_t)s;
            carry = s >> 32;
            uint64_t d = (uint64_t)a[k] - b[k] - borrow;
            ED[9 * i + k] = (uint32_t)d;
            borrow = (d >> 32) ? 1 : 0;
        }
        ES[9 * i + 8] = (uint32_t)carry;
        ED[9 * i + 8] = borrow ? 0xffffffffu : 0;
        uint32_t p[9] = {0};
        for (int x = 0; x < 4; x++) {
            uint64_t cy = 0;
            for (int y = 0; y < 4; y++) {
                uint64_t t = (uint64_t)a[y] * b[x] + p[x + y] + cy;
                p[x + y] = (uint32_t)t;
                cy = t >> 32;
            }
            p[x + 4] = (uint32_t)cy;
        }
        memcpy(EP + 9 * i, p, sizeof p);
        uint64_t X = ((uint64_t)a[1] << 32) | a[0], Y = ((uint64_t)b[1] << 32) | b[0];
        uint64_t Z = ((uint64_t)a[3] << 32) | a[2];
        unsigned __int128 w = (unsigned __int128)X * Y + Z;
        unsigned __int128 v = (((unsigned __int128)b[3] << 96) | ((unsigned __int128)b[2] << 64)) + w;
        EW[4 * i] = (uint64_t)w; EW[4 * i + 1] = (uint64_t)(w >> 64);
        EW[4 * i + 2] = (uint64_t)v; EW[4 * i + 3] = (uint64_t)(v >> 64);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dA, dB, dS, dD, dP, dW;
    TH_TRY(th_module(c, "int.ptx", &m));
    TH_TRY(th_func(c, m, "int_bignum", &f));
    TH_TRY(th_upload(c, A, sizeof A, &dA)); TH_TRY(th_upload(c, B, sizeof B, &dB));
    TH_TRY(th_alloc(c, sizeof S, &dS)); TH_TRY(th_alloc(c, sizeof D, &dD));
    TH_TRY(th_alloc(c, sizeof P, &dP)); TH_TRY(th_alloc(c, sizeof W, &dW));
    int nn = n;
    KT_LAUNCH1(f, n / 128, 128, &dA, &dB, &dS, &dD, &dP, &dW, &nn);
    TH_TRY(th_download(c, S, dS, sizeof S)); TH_TRY(th_download(c, D, dD, sizeof D));
    TH_TRY(th_download(c, P, dP, sizeof P)); TH_TRY(th_download(c, W, dW, sizeof W));
    TH_TRY(th_check_u32(c, "sum (elem*9+limb)", S, ES, 9 * n));
    TH_TRY(th_check_u32(c, "difference (elem*9+limb)", D, ED, 9 * n));
    TH_TRY(th_check_u32(c, "product (elem*9+limb)", P, EP, 9 * n));
    return th_check_u64(c, "int128 (elem*4+word)", W, EW, 4 * n);
}

const kt_test kt_tests_int[] = {
    {"int_arith", t_int_arith, 0},
    {"int_divrem", t_int_divrem, 0},
    {"int_shift", t_int_shift, 0},
    {"int_bits", t_int_bits, 0},
    {"int_select", t_int_select, 0},
    {"int_narrow", t_int_narrow, 0},
    {"int_bignum", t_int_bignum, 0},
    {0},
};
