/*
** sem_fp.c -- floating-point semantics: f32, f64, f16, bf16 and their x2
** packed forms.
**
** The round-to-nearest forms without .ftz/.sat, by far the most common, run
** as host IEEE operations (x86-64 SSE is exact IEEE single and double
** arithmetic) with one fix-up: a NaN result becomes the canonical NaN, as on
** NVIDIA GPUs.  Every other form calls the exact per-value functions of
** num.h.  tests/unit/test_exec_fp.c checks that the fast forms agree with
** num.h bit for bit.
*/
#define S32 0x80000000u
#define S64 0x8000000000000000ull
#include "internal.h"
#include <math.h>

#define DST(k) exec_dst(w, &in->o[k])
#define SRC(k) exec_src(w, &in->o[k])

static inline uint64_t canon32(float r)
{
    return r != r ? 0x7fffffffu : exec_f2u(r);
}
/* f64 keeps NaN payloads (num_nan_f64 picks the result: the first NaN input,
** made quiet, or the default NaN for invalid operations). */
static inline uint64_t nan64(double r, uint64_t a, uint64_t b, uint64_t c, int n)
{
    return r != r ? num_nan_f64(a, b, c, n) : exec_d2u(r);
}

/* ---- fast f32 / f64 ------------------------------------------------------------- */

/* A full warp's f32 results go through a local array (the destination may
** be a source register) in a loop the compiler can vectorise: the NaN
** fix-up as a select, not a branch. */
static inline uint64_t canon32_sel(float r)
{
    uint32_t u = exec_f2u(r);
    return r != r ? 0x7fffffffu : u;
}
#define F32_RESULTS(m, expr)                                                        \
    do {                                                                            \
        if ((m) == EXEC_FULL) {                                                     \
            uint64_t t_[32];                                                        \
            for (int l = 0; l < 32; l++) t_[l] = canon32_sel(expr);                 \
            memcpy(r, t_, sizeof t_);                                               \
        } else {                                                                    \
            EXEC_LANES(m, r[l] = canon32(expr));                                    \
        }                                                                           \
    } while (0)

/* Each f32 fast handler twice where the host allows (EXEC_HOST_VEC): as
** compiled for any x86-64 (SSE2; fmaf a libm call per lane), and for AVX2
** with FMA3 (eight lanes an instruction, fmaf one vfmadd).  Both are exact
** IEEE single arithmetic: the same bits (tests/unit/test_exec_fp.c runs
** both). */

#define F32BIN_BODY(op)                                                             \
    (void)d;                                                                        \
    uint64_t *r = DST(0);                                                           \
    const uint64_t *a = SRC(1), *b = SRC(2);                                        \
    F32_RESULTS(m, exec_u2f((uint32_t)a[l]) op exec_u2f((uint32_t)b[l]))
#define FMA_F32_BODY                                                                                    \
    (void)d;                                                                                            \
    uint64_t *r = DST(0);                                                                               \
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);                                               \
    uint32_t na = in->m.flags & PTX_MF_FMA_NEGA ? S32 : 0, nc = in->m.flags & PTX_MF_FMA_NEGC ? S32 : 0; \
    F32_RESULTS(m, fmaf(exec_u2f((uint32_t)a[l] ^ na), exec_u2f((uint32_t)b[l]), exec_u2f((uint32_t)c[l] ^ nc)))

#define F32_HANDLER(name, ...)                                                                         \
    static void name(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) { __VA_ARGS__; }
#ifdef EXEC_HOST_VEC
/* The AVX2 handlers take a full warp eight lanes at a time with the
** operations written out: each group's f32 values gathered from the low
** words of its rows, the result put back zero-extended, straight into the
** destination row (each group reads its sources before it writes, and rows
** never overlap in part, so a destination that is also a source is safe);
** other masks as the portable handler. */
/* Eight lanes' f32 values, kept in the order one in-lane shuffle gives,
** lanes 0 1 4 5 | 2 3 6 7: every operation between loading and storing is
** lane by lane, and f32x8_store's unpacks put that order back, so neither
** side needs a cross-lane permute. */
EXEC_VEC_TARGET static inline __m256 f32x8_load(const uint64_t *p)
{
    __m256 lo = _mm256_loadu_ps((const float *)p), hi = _mm256_loadu_ps((const float *)(p + 4));
    return _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
}
/* the canonical NaN for any NaN, as NVIDIA GPUs give; each value zero-extended
** into its lane's row (unpacking with zero: lanes 0-3 from the halves' low
** pairs, 4-7 from their high pairs) */
EXEC_VEC_TARGET static inline void f32x8_store(uint64_t *r, __m256 v)
{
    v = _mm256_blendv_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)), _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    __m256i x = _mm256_castps_si256(v), z = _mm256_setzero_si256();
    _mm256_storeu_si256((__m256i *)r, _mm256_unpacklo_epi32(x, z));
    _mm256_storeu_si256((__m256i *)(r + 4), _mm256_unpackhi_epi32(x, z));
}
#define F32BIN_VEC(op)                                                                                 \
    uint64_t *r = DST(0);                                                                              \
    const uint64_t *a = SRC(1), *b = SRC(2);                                                           \
    for (int k = 0; k < 32; k += 8) f32x8_store(r + k, op(f32x8_load(a + k), f32x8_load(b + k)))
#define FMA_F32_VEC                                                                                    \
    uint64_t *r = DST(0);                                                                              \
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);                                              \
    if (!(in->m.flags & (PTX_MF_FMA_NEGA | PTX_MF_FMA_NEGC))) { /* the common form: no sign flips */   \
        for (int k = 0; k < 32; k += 8)                                                                \
            f32x8_store(r + k, _mm256_fmadd_ps(f32x8_load(a + k), f32x8_load(b + k), f32x8_load(c + k))); \
        return;                                                                                        \
    }                                                                                                  \
    const __m256 na = _mm256_castsi256_ps(_mm256_set1_epi32(in->m.flags & PTX_MF_FMA_NEGA ? (int)S32 : 0)); \
    const __m256 nc = _mm256_castsi256_ps(_mm256_set1_epi32(in->m.flags & PTX_MF_FMA_NEGC ? (int)S32 : 0)); \
    for (int k = 0; k < 32; k += 8)                                                                    \
        f32x8_store(r + k, _mm256_fmadd_ps(_mm256_xor_ps(f32x8_load(a + k), na), f32x8_load(b + k),     \
                                           _mm256_xor_ps(f32x8_load(c + k), nc)))
#define F32_HANDLERS(name, body, vbody)                                                                \
    F32_HANDLER(name, body)                                                                            \
    EXEC_VEC_TARGET static void name##_vec(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) \
    {                                                                                                  \
        if (m == EXEC_FULL) {                                                                          \
            vbody;                                                                                     \
        } else {                                                                                       \
            body;                                                                                      \
        }                                                                                              \
    }
#else
#define F32_HANDLERS(name, body, vbody) F32_HANDLER(name, body)
#endif
F32_HANDLERS(h_add_f32, F32BIN_BODY(+), F32BIN_VEC(_mm256_add_ps))
F32_HANDLERS(h_sub_f32, F32BIN_BODY(-), F32BIN_VEC(_mm256_sub_ps))
F32_HANDLERS(h_mul_f32, F32BIN_BODY(*), F32BIN_VEC(_mm256_mul_ps))
F32_HANDLERS(h_fma_f32, FMA_F32_BODY, FMA_F32_VEC)

#define F64BIN(name, op)                                                                \
    static void name(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) \
    {                                                                                   \
        (void)d;                                                                        \
        uint64_t *r = DST(0);                                                           \
        const uint64_t *a = SRC(1), *b = SRC(2);                                        \
        EXEC_LANES(m, r[l] = nan64(exec_u2d(a[l]) op exec_u2d(b[l]), a[l], b[l], 0, 2)); \
    }
F64BIN(h_add_f64, +)
F64BIN(h_sub_f64, -)
F64BIN(h_mul_f64, *)
F64BIN(h_div_f64, /)

/* f64's fused multiply-add: C's fma, one rounding, as compiled for any x86-64
** (a libm call per lane) and for FMA3 hosts (one vfmadd). */
#define FMA_F64_BODY                                                                                    \
    (void)d;                                                                                            \
    uint64_t *r = DST(0);                                                                               \
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);                                               \
    uint64_t na = in->m.flags & PTX_MF_FMA_NEGA ? S64 : 0, nc = in->m.flags & PTX_MF_FMA_NEGC ? S64 : 0; \
    EXEC_LANES(m, r[l] = nan64(fma(exec_u2d(a[l] ^ na), exec_u2d(b[l]), exec_u2d(c[l] ^ nc)), a[l] ^ na, b[l], \
                               c[l] ^ nc, 3))
static void h_fma_f64(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) { FMA_F64_BODY; }

#ifdef EXEC_HOST_VEC
bool exec_portable;
void exec_host_portable(bool on) { exec_portable = on; }
EXEC_VEC_TARGET static void h_fma_f64_vec(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    FMA_F64_BODY;
}
#else
void exec_host_portable(bool on) { (void)on; }
#endif

/* ---- general f32 / f64 through num.h -------------------------------------------- */

#define NUMBIN(name, fn, cast)                                                           \
    static void name(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)  \
    {                                                                                    \
        uint64_t *r = DST(0);                                                            \
        const uint64_t *a = SRC(1), *b = SRC(2);                                         \
        int rnd = in->m.rnd;                                                             \
        unsigned fl = d->flags;                                                          \
        EXEC_LANES(m, r[l] = fn((cast)a[l], (cast)b[l], rnd, fl));                       \
    }
NUMBIN(h_add_f32_n, num_add_f32, uint32_t)
NUMBIN(h_sub_f32_n, num_sub_f32, uint32_t)
NUMBIN(h_mul_f32_n, num_mul_f32, uint32_t)
NUMBIN(h_div_f32_n, num_div_f32, uint32_t)
NUMBIN(h_add_f64_n, num_add_f64, uint64_t)
NUMBIN(h_sub_f64_n, num_sub_f64, uint64_t)
NUMBIN(h_mul_f64_n, num_mul_f64, uint64_t)
NUMBIN(h_div_f64_n, num_div_f64, uint64_t)

static void h_fma_f32_n(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    int rnd = in->m.rnd;
    unsigned fl = d->flags;
    uint32_t na = in->m.flags & PTX_MF_FMA_NEGA ? S32 : 0, nc = in->m.flags & PTX_MF_FMA_NEGC ? S32 : 0;
    EXEC_LANES(m, r[l] = num_fma_f32((uint32_t)a[l] ^ na, (uint32_t)b[l], (uint32_t)c[l] ^ nc, rnd, fl));
}

static void h_fma_f64_n(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    int rnd = in->m.rnd;
    unsigned fl = d->flags;
    uint64_t na = in->m.flags & PTX_MF_FMA_NEGA ? S64 : 0, nc = in->m.flags & PTX_MF_FMA_NEGC ? S64 : 0;
    EXEC_LANES(m, r[l] = num_fma_f64(a[l] ^ na, b[l], c[l] ^ nc, rnd, fl));
}

/* Unary f32 ops: rcp, sqrt (with rounding), and the approximate functions. */
static void h_un_f32(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    int rnd = in->m.rnd;
    unsigned fl = d->flags;
    switch (in->op) {
    case PTX_OP_RCP: EXEC_LANES(m, r[l] = num_rcp_f32((uint32_t)a[l], rnd, fl)); break;
    case PTX_OP_SQRT: EXEC_LANES(m, r[l] = num_sqrt_f32((uint32_t)a[l], rnd, fl)); break;
    case PTX_OP_RSQRT: EXEC_LANES(m, r[l] = num_rsqrt_f32((uint32_t)a[l], fl)); break;
    case PTX_OP_SIN: EXEC_LANES(m, r[l] = num_sin_f32((uint32_t)a[l], fl)); break;
    case PTX_OP_COS: EXEC_LANES(m, r[l] = num_cos_f32((uint32_t)a[l], fl)); break;
    case PTX_OP_LG2: EXEC_LANES(m, r[l] = num_lg2_f32((uint32_t)a[l], fl)); break;
    case PTX_OP_EX2: EXEC_LANES(m, r[l] = num_ex2_f32((uint32_t)a[l], fl)); break;
    case PTX_OP_TANH: EXEC_LANES(m, r[l] = num_tanh_f32((uint32_t)a[l], fl)); break;
    case PTX_OP_ABS: EXEC_LANES(m, r[l] = num_abs_f32((uint32_t)a[l], fl)); break;
    case PTX_OP_NEG: EXEC_LANES(m, r[l] = num_neg_f32((uint32_t)a[l], fl)); break;
    default: break;
    }
}

static void h_un_f64(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    int rnd = in->m.rnd;
    unsigned fl = d->flags;
    switch (in->op) {
    case PTX_OP_RCP: EXEC_LANES(m, r[l] = num_rcp_f64(a[l], rnd, fl)); break;
    case PTX_OP_SQRT: EXEC_LANES(m, r[l] = num_sqrt_f64(a[l], rnd, fl)); break;
    case PTX_OP_RSQRT: EXEC_LANES(m, r[l] = num_rsqrt_f64(a[l], fl)); break;
    case PTX_OP_ABS: EXEC_LANES(m, r[l] = num_abs_f64(a[l])); break;
    case PTX_OP_NEG: EXEC_LANES(m, r[l] = num_neg_f64(a[l])); break;
    default: break;
    }
}

static void h_minmax_f32(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    unsigned fl = d->flags;
    if (in->op == PTX_OP_MIN) EXEC_LANES(m, r[l] = num_min_f32((uint32_t)a[l], (uint32_t)b[l], fl));
    else EXEC_LANES(m, r[l] = num_max_f32((uint32_t)a[l], (uint32_t)b[l], fl));
    if (in->nopnd == 4) { /* three-input form: min(min(a, b), c) */
        const uint64_t *c = SRC(3);
        if (in->op == PTX_OP_MIN) EXEC_LANES(m, r[l] = num_min_f32((uint32_t)r[l], (uint32_t)c[l], fl));
        else EXEC_LANES(m, r[l] = num_max_f32((uint32_t)r[l], (uint32_t)c[l], fl));
    }
}

static void h_minmax_f64(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    unsigned fl = d->flags;
    if (in->op == PTX_OP_MIN) EXEC_LANES(m, r[l] = num_min_f64(a[l], b[l], fl));
    else EXEC_LANES(m, r[l] = num_max_f64(a[l], b[l], fl));
}

static void h_copysign(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    if (in->type == PTX_T_F64) EXEC_LANES(m, r[l] = num_copysign_f64(a[l], b[l]));
    else EXEC_LANES(m, r[l] = num_copysign_f32((uint32_t)a[l], (uint32_t)b[l]));
}

static void h_testp(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    const uint64_t *a = SRC(1);
    ptx_type t = (ptx_type)in->type;
    int sub = in->m.sub;
    uint32_t res = 0;
    EXEC_LANES(m, if (num_testp(a[l], t, sub)) res |= 1u << l);
    uint32_t *p = &w->pp[in->o[0].r];
    *p = (*p & ~m) | res;
}

/* ---- 16-bit floats, scalar and x2 ------------------------------------------------- */

static uint16_t h16_op(const ptx_insn *in, int fmt, uint16_t a, uint16_t b, uint16_t c, unsigned fl)
{
    int rnd = in->m.rnd;
    switch (in->op) {
    case PTX_OP_ADD: return num_add_h(a, b, fmt, rnd, fl);
    case PTX_OP_SUB: return num_sub_h(a, b, fmt, rnd, fl);
    case PTX_OP_MUL: return num_mul_h(a, b, fmt, rnd, fl);
    case PTX_OP_FMA:
    case PTX_OP_MAD: return num_fma_h(a, b, c, fmt, rnd, fl);
    case PTX_OP_MIN: return num_min_h(a, b, fmt, fl);
    case PTX_OP_MAX: return num_max_h(a, b, fmt, fl);
    case PTX_OP_ABS: return num_abs_h(a, fmt, fl);
    case PTX_OP_NEG: return num_neg_h(a, fmt, fl);
    case PTX_OP_EX2: return num_ex2_h(a, fmt, fl);
    case PTX_OP_TANH: return num_tanh_h(a, fmt, fl);
    default: return 0;
    }
}

static void h_f16(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    ptx_type t = (ptx_type)in->type;
    int fmt = (t == PTX_T_BF16 || t == PTX_T_BF16X2) ? NUM_BF16 : NUM_F16;
    bool x2 = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
    unsigned ns = in->nopnd - 1;
    const uint64_t *a = SRC(1), *b = ns > 1 ? SRC(2) : a, *c = ns > 2 ? SRC(3) : a;
    unsigned fl = d->flags;
    EXEC_LANES(m, {
        uint16_t lo = h16_op(in, fmt, (uint16_t)a[l], (uint16_t)b[l], (uint16_t)c[l], fl);
        if (x2) {
            uint16_t hi = h16_op(in, fmt, (uint16_t)(a[l] >> 16), (uint16_t)(b[l] >> 16), (uint16_t)(c[l] >> 16), fl);
            r[l] = (uint32_t)lo | (uint32_t)hi << 16;
        } else {
            r[l] = lo;
        }
    });
}

/* ---- picking ------------------------------------------------------------------- */

exec_fn exec_pick_fp(const ptx_insn *in, exec_dinsn *d, const char **why)
{
    ptx_type t = (ptx_type)in->type;
    if (!ptx_type_is_float(t)) return NULL;
    unsigned fl = 0;
    if (in->m.flags & PTX_MF_FTZ) fl |= NUM_FTZ;
    if (in->m.flags & PTX_MF_SAT) fl |= NUM_SAT;
    if (in->m.flags & PTX_MF_NAN) fl |= NUM_NAN;
    if (in->m.flags & PTX_MF_XORSIGN) fl |= NUM_XORSIGN;
    if (in->m.flags & PTX_MF_RELU) fl |= NUM_RELU;
    if (in->m.flags & PTX_MF_APPROX) fl |= NUM_APPROX;
    if (in->m.flags & PTX_MF_FULL) fl |= NUM_FULL;
    d->flags = fl;
    d->size = (uint8_t)ptx_type_size(t);
    bool plain = (fl & (NUM_FTZ | NUM_SAT)) == 0 && (in->m.rnd == PTX_RND_NONE || in->m.rnd == PTX_RND_RN);
    int op = in->op;
    if (t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
        switch (op) {
        case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_MAD:
        case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_EX2:
        case PTX_OP_TANH:
            return h_f16;
        default: break;
        }
        if (op == PTX_OP_SETP || op == PTX_OP_SET || op == PTX_OP_SELP || op == PTX_OP_MOV || op == PTX_OP_CVT)
            return NULL; /* handled by sem_alu */
        *why = "16-bit float form";
        return NULL;
    }
    if (t == PTX_T_F32) {
        switch (op) {
        case PTX_OP_ADD: return plain ? EXEC_HOST_FN(h_add_f32) : h_add_f32_n;
        case PTX_OP_SUB: return plain ? EXEC_HOST_FN(h_sub_f32) : h_sub_f32_n;
        case PTX_OP_MUL: return plain ? EXEC_HOST_FN(h_mul_f32) : h_mul_f32_n;
        case PTX_OP_FMA:
        case PTX_OP_MAD: return plain ? EXEC_HOST_FN(h_fma_f32) : h_fma_f32_n;
        case PTX_OP_DIV: return h_div_f32_n;
        case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS:
        case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_ABS: case PTX_OP_NEG:
            return h_un_f32;
        case PTX_OP_MIN:
        case PTX_OP_MAX: return h_minmax_f32;
        case PTX_OP_COPYSIGN: return h_copysign;
        case PTX_OP_TESTP: return h_testp;
        default: return NULL;
        }
    }
    if (t == PTX_T_F64) {
        switch (op) {
        case PTX_OP_ADD: return plain ? h_add_f64 : h_add_f64_n;
        case PTX_OP_SUB: return plain ? h_sub_f64 : h_sub_f64_n;
        case PTX_OP_MUL: return plain ? h_mul_f64 : h_mul_f64_n;
        case PTX_OP_FMA:
        case PTX_OP_MAD: return plain ? EXEC_HOST_FN(h_fma_f64) : h_fma_f64_n;
        case PTX_OP_DIV: return plain && !(fl & NUM_APPROX) ? h_div_f64 : h_div_f64_n;
        case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_ABS: case PTX_OP_NEG:
            return h_un_f64;
        case PTX_OP_MIN:
        case PTX_OP_MAX: return h_minmax_f64;
        case PTX_OP_COPYSIGN: return h_copysign;
        case PTX_OP_TESTP: return h_testp;
        default: return NULL;
        }
    }
    return NULL;
}
