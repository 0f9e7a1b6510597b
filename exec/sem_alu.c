/*
** sem_alu.c -- integer, bit, logic, move, select, compare and conversion
** semantics.  Each handler is the lane loop of one instruction form; the
** decoder (exec_pick_alu) chooses the form from opcode, type and modifiers.
**
** Rows are 64 bits per lane and their bits above a register's width are
** don't-care, so wrapping arithmetic (add, sub, mul.lo, and, or, xor, not,
** neg) is the same 64-bit operation for every width: the low bits are right.
** Operations whose result depends on the high bits of their inputs (shifts,
** compares, min/max, division, mul.hi, widening) extend the inputs from the
** instruction's width first.
*/
#include "internal.h"
#ifdef EXEC_HOST_VEC
#include <immintrin.h>
#endif

#define DST(k) exec_dst(w, &in->o[k])
#define SRC(k) exec_src(w, &in->o[k])
#define BITS (d->size * 8u)

static inline int64_t sx(uint64_t v, unsigned bits) { return (int64_t)exec_sext(v, bits); }
static inline uint64_t zx(uint64_t v, unsigned bits) { return exec_zext(v, bits); }

/* ---- wrapping arithmetic ------------------------------------------------------ */

#define BIN(name, expr)                                                          \
    static void name(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) \
    {                                                                            \
        (void)d;                                                                 \
        uint64_t *r = DST(0);                                                    \
        const uint64_t *a = SRC(1), *b = SRC(2);                                 \
        EXEC_LANES(m, r[l] = (expr));                                            \
    }

BIN(h_add, a[l] + b[l])
BIN(h_sub, a[l] - b[l])
BIN(h_mul_lo, a[l] * b[l])
BIN(h_and, a[l] & b[l])
BIN(h_or, a[l] | b[l])
BIN(h_xor, a[l] ^ b[l])

static void h_add32(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    EXEC_LANES(m, r[l] = (uint32_t)(a[l] + b[l]));
}

static void h_mad_lo(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    EXEC_LANES(m, r[l] = a[l] * b[l] + c[l]);
}

static void h_not(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    EXEC_LANES(m, r[l] = ~a[l]);
}

static void h_neg(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    EXEC_LANES(m, r[l] = 0 - a[l]);
}

static void h_cnot(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    unsigned bits = BITS;
    EXEC_LANES(m, r[l] = zx(a[l], bits) == 0);
}

static void h_abs(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    unsigned bits = BITS;
    EXEC_LANES(m, { int64_t v = sx(a[l], bits); r[l] = (uint64_t)(v < 0 ? -(uint64_t)v : (uint64_t)v); });
}

static void h_add_sat(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    bool sub = in->op == PTX_OP_SUB;
    EXEC_LANES(m, r[l] = (uint32_t)(sub ? num_sub_sat_s32((int32_t)a[l], (int32_t)b[l])
                                        : num_add_sat_s32((int32_t)a[l], (int32_t)b[l])));
}

/* Carry chains: CC.CF is one bit per lane (w->carry). */
static void h_addsub_cc(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    unsigned bits = BITS;
    bool sub = in->op == PTX_OP_SUB || in->op == PTX_OP_SUBC;
    bool cin = in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC;
    bool cout = (in->m.flags & PTX_MF_CC) != 0;
    uint32_t carry = w->carry, nc = 0;
    EXEC_LANES(m, {
        uint64_t x = zx(a[l], bits), y = zx(b[l], bits);
        uint64_t ci = cin ? (carry >> l & 1) : 0;
        uint64_t res;
        bool co;
        if (!sub) {
            res = x + y + ci;
            co = bits == 64 ? (res < x || (ci && res == x)) : (res >> bits) != 0;
        } else {
            /* a - (b + CF): the carry out is the borrow, CF = 1 when it borrows. */
            res = x - y - ci;
            co = x < y || (x - y) < ci;
        }
        r[l] = zx(res, bits);
        if (co) nc |= 1u << l;
    });
    if (cout) w->carry = (carry & ~m) | nc;
}

/* mul.hi, mul.wide, mad.hi, mad.wide, madc */
static void h_mul_hi(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    ptx_type t = (ptx_type)in->type;
    bool mad = in->op == PTX_OP_MAD || in->op == PTX_OP_MADC;
    const uint64_t *c = mad ? SRC(3) : NULL;
    unsigned bits = BITS;
    bool cin = in->op == PTX_OP_MADC, cout = (in->m.flags & PTX_MF_CC) != 0;
    uint32_t carry = w->carry, nc = 0;
    EXEC_LANES(m, {
        uint64_t v = num_mul_hi(a[l], b[l], t);
        if (mad) {
            uint64_t x = zx(v, bits), y = zx(c[l], bits), ci = cin ? (carry >> l & 1) : 0;
            uint64_t s = x + y + ci;
            bool co = bits == 64 ? (s < x || (ci && s == x)) : (s >> bits) != 0;
            if (co) nc |= 1u << l;
            v = s;
        }
        r[l] = v;
    });
    if (cout) w->carry = (carry & ~m) | nc;
}

static void h_mad_lo_cc(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    unsigned bits = BITS;
    bool cin = in->op == PTX_OP_MADC, cout = (in->m.flags & PTX_MF_CC) != 0;
    uint32_t carry = w->carry, nc = 0;
    EXEC_LANES(m, {
        uint64_t x = zx(a[l] * b[l], bits), y = zx(c[l], bits), ci = cin ? (carry >> l & 1) : 0;
        uint64_t s = x + y + ci;
        bool co = bits == 64 ? (s < x || (ci && s == x)) : (s >> bits) != 0;
        if (co) nc |= 1u << l;
        r[l] = zx(s, bits);
    });
    if (cout) w->carry = (carry & ~m) | nc;
}

static void h_mul_wide(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    const uint64_t *c = in->op == PTX_OP_MAD ? SRC(3) : NULL;
    unsigned bits = BITS; /* the source width: 16 or 32 */
    bool sgn = ptx_type_is_signed((ptx_type)in->type);
    if (bits == 64) { /* mul.wide.u64 is not PTX; treat as lo */
        EXEC_LANES(m, r[l] = a[l] * b[l] + (c ? c[l] : 0));
        return;
    }
    if (sgn) EXEC_LANES(m, r[l] = (uint64_t)(sx(a[l], bits) * sx(b[l], bits)) + (c ? c[l] : 0));
    else EXEC_LANES(m, r[l] = zx(a[l], bits) * zx(b[l], bits) + (c ? c[l] : 0));
}

/* mul.wide.s32 / .u32 (no mad): the usual index scaling, width fixed. */
static void h_mul_wide_s32(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    EXEC_LANES(m, r[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int64_t)(int32_t)b[l]));
}

static void h_mul_wide_u32(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    EXEC_LANES(m, r[l] = (uint64_t)(uint32_t)a[l] * (uint32_t)b[l]);
}

#ifdef EXEC_HOST_VEC
/* h_add, h_add32 and the two above for AVX2 hosts as well: a
** full warp four lanes an instruction (the compiler leaves these loops
** scalar at -O2), any other mask the portable handler.  Rows are whole: r is
** a or b, or apart from both, so each step loads before it stores. */
#define FULL_WARP_VEC(name, op)                                                                       \
    EXEC_VEC_TARGET static void name##_vec(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) \
    {                                                                                                 \
        if (m != EXEC_FULL) {                                                                         \
            name(w, in, d, m);                                                                        \
            return;                                                                                   \
        }                                                                                             \
        uint64_t *r = DST(0);                                                                         \
        const uint64_t *a = SRC(1), *b = SRC(2);                                                      \
        for (int l = 0; l < 32; l += 4)                                                               \
            _mm256_storeu_si256((__m256i *)(r + l), op(_mm256_loadu_si256((const __m256i *)(a + l)),  \
                                                       _mm256_loadu_si256((const __m256i *)(b + l)))); \
    }
#define ADD32_VEC(x, y) _mm256_and_si256(_mm256_add_epi64(x, y), _mm256_set1_epi64x(0xffffffffll))
FULL_WARP_VEC(h_add, _mm256_add_epi64)
FULL_WARP_VEC(h_add32, ADD32_VEC)
FULL_WARP_VEC(h_mul_wide_s32, _mm256_mul_epi32) /* vpmuldq: signed low words into 64 bits */
FULL_WARP_VEC(h_mul_wide_u32, _mm256_mul_epu32) /* vpmuludq */
#undef ADD32_VEC
#define LOWORD_VEC(y) _mm256_and_si256(y, _mm256_set1_epi64x(0xffffffffll))
#endif

static void h_mul24(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    const uint64_t *c = in->op == PTX_OP_MAD24 ? SRC(3) : NULL;
    bool hi = in->m.sub == PTX_SUB_HI, sgn = ptx_type_is_signed((ptx_type)in->type);
    EXEC_LANES(m, r[l] = (uint32_t)(num_mul24((uint32_t)a[l], (uint32_t)b[l], hi, sgn) + (c ? (uint32_t)c[l] : 0)));
}

static void h_sad(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    unsigned bits = BITS;
    bool sgn = ptx_type_is_signed((ptx_type)in->type);
    EXEC_LANES(m, {
        uint64_t diff;
        if (sgn) {
            int64_t x = sx(a[l], bits), y = sx(b[l], bits);
            diff = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
        } else {
            uint64_t x = zx(a[l], bits), y = zx(b[l], bits);
            diff = x > y ? x - y : y - x;
        }
        r[l] = c[l] + diff;
    });
}

static void h_divrem(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    ptx_type t = (ptx_type)in->type;
    if (in->op == PTX_OP_DIV) EXEC_LANES(m, r[l] = num_div_int(a[l], b[l], t));
    else EXEC_LANES(m, r[l] = num_rem_int(a[l], b[l], t));
}

static void h_minmax(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    unsigned bits = BITS;
    bool sgn = ptx_type_is_signed((ptx_type)in->type), mx = in->op == PTX_OP_MAX;
    bool relu = (in->m.flags & PTX_MF_RELU) != 0;
    if (sgn)
        EXEC_LANES(m, {
            int64_t x = sx(a[l], bits), y = sx(b[l], bits);
            int64_t v = mx ? (x > y ? x : y) : (x < y ? x : y);
            if (relu && v < 0) v = 0;
            r[l] = (uint64_t)v;
        });
    else
        EXEC_LANES(m, {
            uint64_t x = zx(a[l], bits), y = zx(b[l], bits);
            r[l] = mx ? (x > y ? x : y) : (x < y ? x : y);
        });
}

/* ---- shifts and bit manipulation ----------------------------------------------- */

static void h_shl(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    unsigned bits = BITS;
    /* The shift amount is an unsigned 32-bit value; past the width gives 0. */
    EXEC_LANES(m, { uint32_t s = (uint32_t)b[l]; r[l] = s >= bits ? 0 : a[l] << s; });
}
#define h_shl64 h_shl /* the portable handlers of the AVX2 ones below (FULL_WARP_VEC) */
#define h_shl32 h_shl
#ifdef EXEC_HOST_VEC
/* shl for AVX2 hosts: the amount is b's low word; vpsllvq gives 0 past 63, as
** the .b64 rule does past its width, and .b32 zeroes the lanes whose amount
** reaches 32 (the bits above 32 left as the portable handler leaves them) */
#define SHL64_VEC(x, y) _mm256_sllv_epi64(x, LOWORD_VEC(y))
#define SHL32_VEC(x, y) \
    _mm256_andnot_si256(_mm256_cmpgt_epi64(LOWORD_VEC(y), _mm256_set1_epi64x(31)), SHL64_VEC(x, y))
FULL_WARP_VEC(h_shl64, SHL64_VEC)
FULL_WARP_VEC(h_shl32, SHL32_VEC)
#undef SHL32_VEC
#undef SHL64_VEC
#undef FULL_WARP_VEC
#endif

static void h_shr(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    unsigned bits = BITS;
    if (ptx_type_is_signed((ptx_type)in->type))
        EXEC_LANES(m, {
            uint32_t s = (uint32_t)b[l];
            if (s > bits - 1) s = bits - 1;
            r[l] = (uint64_t)(sx(a[l], bits) >> s);
        });
    else
        EXEC_LANES(m, { uint32_t s = (uint32_t)b[l]; r[l] = s >= bits ? 0 : zx(a[l], bits) >> s; });
}

static void h_popc(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    unsigned bits = BITS;
    EXEC_LANES(m, r[l] = tp_popc64(zx(a[l], bits)));
}

static void h_clz(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    unsigned bits = BITS;
    EXEC_LANES(m, {
        uint64_t v = zx(a[l], bits);
        r[l] = v ? (uint64_t)(__builtin_clzll(v) - (64 - bits)) : bits;
    });
}

static void h_bfind(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    bool sa = (in->m.flags & PTX_MF_SHIFTAMT) != 0;
    ptx_type t = (ptx_type)in->type;
    EXEC_LANES(m, r[l] = num_bfind(a[l], t, sa));
}

static void h_brev(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    unsigned bits = BITS;
    EXEC_LANES(m, r[l] = num_brev(a[l], bits));
}

static void h_bfe(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    ptx_type t = (ptx_type)in->type;
    EXEC_LANES(m, r[l] = num_bfe(a[l], (uint32_t)b[l], (uint32_t)c[l], t));
}

static void h_bfi(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3), *e = SRC(4);
    ptx_type t = (ptx_type)in->type;
    EXEC_LANES(m, r[l] = num_bfi(a[l], b[l], (uint32_t)c[l], (uint32_t)e[l], t));
}

static void h_fns(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    EXEC_LANES(m, r[l] = num_fns((uint32_t)a[l], (uint32_t)b[l], (int32_t)c[l]));
}

static void h_prmt(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    int sub = in->m.sub;
    EXEC_LANES(m, r[l] = num_prmt((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], sub));
}

static void h_shf(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    bool left = in->m.sub == PTX_SUB_L, wrap = (in->m.flags & PTX_MF_WRAP) != 0;
    EXEC_LANES(m, r[l] = num_shf((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], left, wrap));
}

static void h_lop3(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3), *lut = SRC(4);
    EXEC_LANES(m, r[l] = num_lop3((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], (uint32_t)lut[l]));
}

static void h_dp(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    bool as = ptx_type_is_signed((ptx_type)in->type), bs = ptx_type_is_signed((ptx_type)in->type2);
    if (in->op == PTX_OP_DP4A)
        EXEC_LANES(m, r[l] = num_dp4a((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], as, bs));
    else {
        bool hi = in->m.sub == PTX_SUB_HI;
        EXEC_LANES(m, r[l] = num_dp2a((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], as, bs, hi));
    }
}

static void h_szext(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    bool sgn = ptx_type_is_signed((ptx_type)in->type), clamp = (in->m.flags & PTX_MF_CLAMP) != 0;
    EXEC_LANES(m, r[l] = num_szext((uint32_t)a[l], (uint32_t)b[l], sgn, clamp));
}

static void h_bmsk(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    bool clamp = (in->m.flags & PTX_MF_CLAMP) != 0;
    EXEC_LANES(m, r[l] = num_bmsk((uint32_t)a[l], (uint32_t)b[l], clamp));
}

/* ---- predicates ----------------------------------------------------------------- */

static inline uint32_t pval(const exec_warp *w, const ptx_opnd *o)
{
    if (o->kind == PTX_OK_PRED) {
        uint32_t v = w->pp[o->r];
        return (o->flags & PTX_OF_NEG) ? ~v : v;
    }
    /* An immediate used as a predicate: 0 or 1. */
    return exec_src(w, o)[0] & 1 ? EXEC_FULL : 0;
}

static inline void pset(exec_warp *w, const ptx_opnd *o, uint32_t v, uint32_t m)
{
    if (o->kind != PTX_OK_PRED) return;
    uint32_t *p = &w->pp[o->r];
    *p = (*p & ~m) | (v & m);
}

static void h_pred_logic(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint32_t a = pval(w, &in->o[1]), v;
    switch (in->op) {
    case PTX_OP_AND: v = a & pval(w, &in->o[2]); break;
    case PTX_OP_OR: v = a | pval(w, &in->o[2]); break;
    case PTX_OP_XOR: v = a ^ pval(w, &in->o[2]); break;
    case PTX_OP_NOT: v = ~a; break;
    case PTX_OP_CNOT: v = ~a; break;
    default: v = a; break; /* mov.pred */
    }
    pset(w, &in->o[0], v, m);
}

/* ---- moves ----------------------------------------------------------------------- */

static void h_mov(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    if (m == EXEC_FULL) memmove(r, a, 32 * sizeof *r); /* a row (r may be a: memmove) */
    else EXEC_LANES(m, r[l] = a[l]);
}

static void h_mov128(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    EXEC_LANES(m, { r[l] = a[l]; r[l + 32] = a[l + 32]; });
}

static void h_mov_sym(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const ptx_opnd *s = &in->o[1];
    uint64_t v;
    if (s->kind == PTX_OK_FUNC) v = exec_func_addr((uint32_t)s->r) + (uint64_t)s->imm;
    else v = exec_sym_addr(w, s->r, NULL) + (uint64_t)s->imm;
    EXEC_LANES(m, r[l] = v);
}

/* Vector pack {a, b, ..} -> d, or unpack a -> {d0, d1, ..}: n elements of
** (type size / n) bytes each, element 0 in the low bits. */
static void h_mov_pack(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    const ptx_opnd *v = &in->o[1];
    const ptx_opnd *pool = w->g->m->xpool;
    unsigned n = v->n, eb = BITS / n;
    uint64_t *r = DST(0);
    uint64_t acc[32];
    EXEC_LANES(m, acc[l] = 0);
    for (unsigned k = 0; k < n; k++) {
        const ptx_opnd *e = &pool[v->r + k];
        if (e->kind == PTX_OK_SINK) continue;
        const uint64_t *s = exec_src(w, e);
        EXEC_LANES(m, acc[l] |= zx(s[l], eb) << (k * eb));
    }
    if (BITS == 128) { /* b128 from two 64-bit halves */
        const uint64_t *lo = exec_src(w, &pool[v->r]), *hi = exec_src(w, &pool[v->r + n - 1]);
        if (n == 2) {
            EXEC_LANES(m, { r[l] = lo[l]; r[l + 32] = hi[l]; });
            return;
        }
    }
    EXEC_LANES(m, r[l] = acc[l]);
}

static void h_mov_unpack(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    const ptx_opnd *v = &in->o[0];
    const ptx_opnd *pool = w->g->m->xpool;
    unsigned n = v->n, eb = BITS / n;
    const uint64_t *a = SRC(1);
    uint64_t src[32], src_hi[32];
    EXEC_LANES(m, { src[l] = a[l]; src_hi[l] = BITS == 128 ? a[l + 32] : 0; });
    for (unsigned k = 0; k < n; k++) {
        const ptx_opnd *e = &pool[v->r + k];
        if (e->kind != PTX_OK_REG) continue;
        uint64_t *r = exec_dst(w, e);
        if (BITS == 128 && n == 2) {
            const uint64_t *s = k ? src_hi : src;
            EXEC_LANES(m, r[l] = s[l]);
        } else {
            EXEC_LANES(m, r[l] = zx(src[l] >> (k * eb), eb));
        }
    }
}

/* ---- select and compare ------------------------------------------------------------ */

static void h_selp(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2);
    uint32_t p = pval(w, &in->o[3]);
    if (BITS == 128) {
        EXEC_LANES(m, { bool t = p >> l & 1; r[l] = t ? a[l] : b[l]; r[l + 32] = t ? a[l + 32] : b[l + 32]; });
        return;
    }
    EXEC_LANES(m, r[l] = (p >> l & 1) ? a[l] : b[l]);
}

static void h_slct(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
    if (in->type2 == PTX_T_F32) {
        bool ftz = (in->m.flags & PTX_MF_FTZ) != 0;
        EXEC_LANES(m, {
            uint32_t cv = (uint32_t)c[l];
            /* c >= 0: +0 and -0 count as zero; NaN selects b. */
            bool nan = (cv & 0x7fffffffu) > 0x7f800000u;
            bool neg = (cv >> 31) && (cv & 0x7fffffffu) && !(ftz && (cv & 0x7f800000u) == 0);
            r[l] = (!nan && !neg) ? a[l] : b[l];
        });
    } else {
        EXEC_LANES(m, r[l] = (int32_t)c[l] >= 0 ? a[l] : b[l]);
    }
}

/* 32 bytes of 0 or 1 as a 32-bit mask, byte l -> bit l: the multiply
** gathers eight bytes' low bits into the top byte. */
static inline uint32_t pack_bits(const uint8_t *t)
{
    uint32_t res = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t x;
        memcpy(&x, t + 8 * k, 8);
        res |= (uint32_t)((x * 0x0102040810204080ull) >> 56) << (8 * k);
    }
    return res;
}

/* The comparison c of a full warp's 32-bit lanes a[l], b[l] (signed or
** not) as a mask: branch-free, a byte a lane, then packed. */
static uint32_t cmp32_full(const uint64_t *a, const uint64_t *b, int c, bool sgn)
{
    uint8_t t[32];
#define CMP32(T, op) for (int l = 0; l < 32; l++) t[l] = (T)a[l] op (T)b[l]
    if (sgn && (c == PTX_CMP_LT || c == PTX_CMP_LE || c == PTX_CMP_GT || c == PTX_CMP_GE)) {
        switch (c) {
        case PTX_CMP_LT: CMP32(int32_t, <); break;
        case PTX_CMP_LE: CMP32(int32_t, <=); break;
        case PTX_CMP_GT: CMP32(int32_t, >); break;
        default: CMP32(int32_t, >=); break;
        }
        return pack_bits(t);
    }
    switch (c) {
    case PTX_CMP_EQ: CMP32(uint32_t, ==); break;
    case PTX_CMP_NE: CMP32(uint32_t, !=); break;
    case PTX_CMP_LT: case PTX_CMP_LO: CMP32(uint32_t, <); break;
    case PTX_CMP_LE: case PTX_CMP_LS: CMP32(uint32_t, <=); break;
    case PTX_CMP_GT: case PTX_CMP_HI: CMP32(uint32_t, >); break;
    case PTX_CMP_GE: case PTX_CMP_HS: CMP32(uint32_t, >=); break;
    default: return 0;
    }
#undef CMP32
    return pack_bits(t);
}
#ifdef EXEC_HOST_VEC
/* A comparison's lanes from the lanes where a < b and where a == b. */
static inline uint32_t cmp_of(int c, uint32_t lt, uint32_t eq)
{
    switch (c) {
    case PTX_CMP_EQ: return eq;
    case PTX_CMP_NE: return ~eq;
    case PTX_CMP_LT: case PTX_CMP_LO: return lt;
    case PTX_CMP_LE: case PTX_CMP_LS: return lt | eq;
    case PTX_CMP_GT: case PTX_CMP_HI: return ~(lt | eq);
    case PTX_CMP_GE: case PTX_CMP_HS: return ~lt;
    default: return 0;
    }
}

/* The same with AVX2: eight lanes' low words a step; unsigned
** order is signed order with the sign bits flipped. */
EXEC_VEC_TARGET static uint32_t cmp32_full_vec(const uint64_t *a, const uint64_t *b, int c, bool sgn)
{
    const __m256i lows = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    /* signed order only for lt/le/gt/ge of a signed type, as cmp32_full */
    bool so = sgn && (c == PTX_CMP_LT || c == PTX_CMP_LE || c == PTX_CMP_GT || c == PTX_CMP_GE);
    const __m256i flip = _mm256_set1_epi32(so ? 0 : (int)0x80000000u);
    uint32_t lt = 0, eq = 0;
    for (int k = 0; k < 4; k++) {
        __m256i a0 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(a + 8 * k)), lows);
        __m256i a1 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(a + 8 * k + 4)), lows);
        __m256i b0 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(b + 8 * k)), lows);
        __m256i b1 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(b + 8 * k + 4)), lows);
        __m256i av = _mm256_xor_si256(_mm256_permute2x128_si256(a0, a1, 0x20), flip);
        __m256i bv = _mm256_xor_si256(_mm256_permute2x128_si256(b0, b1, 0x20), flip);
        lt |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(bv, av))) << (8 * k);
        eq |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(av, bv))) << (8 * k);
    }
    return cmp_of(c, lt, eq);
}
/* A full warp of 64-bit operands (addresses and sizes against bounds), four
** lanes a step. */
EXEC_VEC_TARGET static uint32_t cmp64_full_vec(const uint64_t *a, const uint64_t *b, int c, bool sgn)
{
    bool so = sgn && (c == PTX_CMP_LT || c == PTX_CMP_LE || c == PTX_CMP_GT || c == PTX_CMP_GE);
    const __m256i flip = _mm256_set1_epi64x(so ? 0 : (long long)0x8000000000000000ull);
    uint32_t lt = 0, eq = 0;
    for (int k = 0; k < 8; k++) {
        __m256i av = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(a + 4 * k)), flip);
        __m256i bv = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(b + 4 * k)), flip);
        lt |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(bv, av))) << (4 * k);
        eq |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(av, bv))) << (4 * k);
    }
    return cmp_of(c, lt, eq);
}
#endif

/* Integer compares: the switch on the comparison is outside the lane loop. */
#define CMPLOOP(X, Y, op) EXEC_LANES(m, if ((X) op (Y)) res |= 1u << l)

static uint32_t int_compare(const exec_warp *w, const ptx_insn *in, unsigned bits, bool sgn, const uint64_t *a,
                            const uint64_t *b, uint32_t m)
{
    (void)w;
    uint32_t res = 0;
    int c = in->m.cmp;
    if (bits == 32 && m == EXEC_FULL) {
        /* a full warp of 32-bit operands (loop counters, bounds): branch-free,
        ** with the width and sign fixed */
#ifdef EXEC_HOST_VEC
        if (exec_host_vec()) return cmp32_full_vec(a, b, c, sgn);
#endif
        return cmp32_full(a, b, c, sgn);
    }
#ifdef EXEC_HOST_VEC
    if (bits == 64 && m == EXEC_FULL && exec_host_vec()) return cmp64_full_vec(a, b, c, sgn);
#endif
    if (sgn && (c == PTX_CMP_LT || c == PTX_CMP_LE || c == PTX_CMP_GT || c == PTX_CMP_GE)) {
        switch (c) {
        case PTX_CMP_LT: CMPLOOP(sx(a[l], bits), sx(b[l], bits), <); break;
        case PTX_CMP_LE: CMPLOOP(sx(a[l], bits), sx(b[l], bits), <=); break;
        case PTX_CMP_GT: CMPLOOP(sx(a[l], bits), sx(b[l], bits), >); break;
        default: CMPLOOP(sx(a[l], bits), sx(b[l], bits), >=); break;
        }
        return res;
    }
    switch (c) {
    case PTX_CMP_EQ: CMPLOOP(zx(a[l], bits), zx(b[l], bits), ==); break;
    case PTX_CMP_NE: CMPLOOP(zx(a[l], bits), zx(b[l], bits), !=); break;
    case PTX_CMP_LT: case PTX_CMP_LO: CMPLOOP(zx(a[l], bits), zx(b[l], bits), <); break;
    case PTX_CMP_LE: case PTX_CMP_LS: CMPLOOP(zx(a[l], bits), zx(b[l], bits), <=); break;
    case PTX_CMP_GT: case PTX_CMP_HI: CMPLOOP(zx(a[l], bits), zx(b[l], bits), >); break;
    case PTX_CMP_GE: case PTX_CMP_HS: CMPLOOP(zx(a[l], bits), zx(b[l], bits), >=); break;
    default: break;
    }
    return res;
}

/* The comparison result for every lane of m, for any type. */
uint32_t exec_compare(const exec_warp *w, const ptx_insn *in, ptx_type t, const uint64_t *a, const uint64_t *b,
                      uint32_t m)
{
    uint32_t res = 0;
    int c = in->m.cmp;
    unsigned fl = (in->m.flags & PTX_MF_FTZ) ? NUM_FTZ : 0;
    switch (t) {
    case PTX_T_F32:
        EXEC_LANES(m, if (num_cmp_f32((uint32_t)a[l], (uint32_t)b[l], c, fl)) res |= 1u << l);
        return res;
    case PTX_T_F64:
        EXEC_LANES(m, if (num_cmp_f64(a[l], b[l], c)) res |= 1u << l);
        return res;
    case PTX_T_F16:
    case PTX_T_BF16: {
        int fmt = t == PTX_T_F16 ? NUM_F16 : NUM_BF16;
        EXEC_LANES(m, if (num_cmp_h((uint16_t)a[l], (uint16_t)b[l], fmt, c, fl)) res |= 1u << l);
        return res;
    }
    default:
        return int_compare(w, in, ptx_type_size(t) * 8, ptx_type_is_signed(t), a, b, m);
    }
}

static uint32_t combine(const exec_warp *w, const ptx_insn *in, uint32_t t, const ptx_opnd *c)
{
    uint32_t cv = pval(w, c);
    switch (in->m.bop) {
    case PTX_BOP_AND: return t & cv;
    case PTX_BOP_OR: return t | cv;
    case PTX_BOP_XOR: return t ^ cv;
    default: return t;
    }
}

static void h_setp(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    unsigned k = in->ndst;
    ptx_type t = (ptx_type)in->type;
    if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
        /* setp.f16x2 p|q: p from the low halves, q from the high halves. */
        ptx_type h = t == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        const uint64_t *a = SRC(k), *b = SRC(k + 1);
        uint64_t ah[32], bh[32];
        EXEC_LANES(m, { ah[l] = a[l] >> 16; bh[l] = b[l] >> 16; });
        uint32_t lo = exec_compare(w, in, h, a, b, m), hi = exec_compare(w, in, h, ah, bh, m);
        if (in->nopnd > k + 2) {
            lo = combine(w, in, lo, &in->o[k + 2]);
            hi = combine(w, in, hi, &in->o[k + 2]);
        }
        pset(w, &in->o[0], lo, m);
        if (k == 2) pset(w, &in->o[1], hi, m);
        return;
    }
    uint32_t res = exec_compare(w, in, t, SRC(k), SRC(k + 1), m);
    uint32_t p = res, q = ~res;
    if (in->nopnd > k + 2) {
        p = combine(w, in, res, &in->o[k + 2]);
        q = combine(w, in, ~res, &in->o[k + 2]);
    }
    pset(w, &in->o[0], p, m);
    if (k == 2) pset(w, &in->o[1], q, m);
}

static void h_set(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    uint32_t res = exec_compare(w, in, (ptx_type)in->type2, SRC(1), SRC(2), m);
    if (in->nopnd > 3) res = combine(w, in, res, &in->o[3]);
    uint64_t one = in->type == PTX_T_F32 ? 0x3f800000u : in->type == PTX_T_F16 ? 0x3c00 : ~0ull;
    EXEC_LANES(m, r[l] = (res >> l & 1) ? one : 0);
}

/* ---- conversions ------------------------------------------------------------------ */

static void h_cvt(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    ptx_type dt = (ptx_type)in->type, st = (ptx_type)in->type2;
    int rnd = in->m.rnd;
    unsigned fl = d->flags;
    EXEC_LANES(m, r[l] = num_cvt(a[l], dt, st, rnd, fl));
}

/* Integer to integer without saturation: extend or truncate. */
static void h_cvt_int(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    unsigned sb = ptx_type_size((ptx_type)in->type2) * 8, db = ptx_type_size((ptx_type)in->type) * 8;
    unsigned bits = sb < db ? sb : db;
    if (ptx_type_is_signed((ptx_type)(sb < db ? in->type2 : in->type)))
        EXEC_LANES(m, r[l] = exec_sext(a[l], bits));
    else
        EXEC_LANES(m, r[l] = zx(a[l], bits));
}

#ifdef EXEC_HOST_VEC
/* A full warp's integer conversion: the narrower type's bits kept, sign- or
** zero-extended to 64 (8, 16 or 32 bits: eight lanes' low words gathered
** into one register, extended within the word, then widened; 64: a copy);
** other masks the portable handler. */
EXEC_VEC_TARGET static void h_cvt_int_vec(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    unsigned sb = ptx_type_size((ptx_type)in->type2) * 8, db = ptx_type_size((ptx_type)in->type) * 8;
    unsigned bits = sb < db ? sb : db;
    if (m != EXEC_FULL || (bits != 8 && bits != 16 && bits != 32 && bits != 64)) {
        h_cvt_int(w, in, d, m);
        return;
    }
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    if (bits == 64) {
        memmove(r, a, 32 * sizeof *r);
        return;
    }
    bool sign = ptx_type_is_signed((ptx_type)(sb < db ? in->type2 : in->type));
    const __m128i up = _mm_cvtsi32_si128((int)(32 - bits));
    const __m256i keep = _mm256_set1_epi32(bits == 32 ? -1 : (int)((1u << bits) - 1));
    for (int l = 0; l < 32; l += 8) {   /* each group reads its lanes before it writes them */
        __m256i x = exec_low32x8(a + l);
        __m128i lo, hi;
        if (sign) {
            x = _mm256_sra_epi32(_mm256_sll_epi32(x, up), up);
            lo = _mm256_castsi256_si128(x);
            hi = _mm256_extracti128_si256(x, 1);
            _mm256_storeu_si256((__m256i *)(r + l), _mm256_cvtepi32_epi64(lo));
            _mm256_storeu_si256((__m256i *)(r + l + 4), _mm256_cvtepi32_epi64(hi));
        } else {
            x = _mm256_and_si256(x, keep);
            lo = _mm256_castsi256_si128(x);
            hi = _mm256_extracti128_si256(x, 1);
            _mm256_storeu_si256((__m256i *)(r + l), _mm256_cvtepu32_epi64(lo));
            _mm256_storeu_si256((__m256i *)(r + l + 4), _mm256_cvtepu32_epi64(hi));
        }
    }
}
#endif

static void h_cvt_f32_s32(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    EXEC_LANES(m, r[l] = exec_f2u((float)(int32_t)a[l]));
}

static void h_cvt_f64_f32(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(1);
    if (d->flags & NUM_FTZ) {
        EXEC_LANES(m, r[l] = num_cvt(a[l], PTX_T_F64, PTX_T_F32, PTX_RND_NONE, NUM_FTZ));
        return;
    }
    /* Exact widening; NaN becomes the canonical f64 NaN per num_cvt. */
    EXEC_LANES(m, {
        float f = exec_u2f((uint32_t)a[l]);
        r[l] = f != f ? num_cvt(a[l], PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0) : exec_d2u((double)f);
    });
}

/* ---- picking ----------------------------------------------------------------- */

static bool is_int(ptx_type t)
{
    char k = ptx_types[t].kind;
    return k == 'B' || k == 'U' || k == 'S';
}

exec_fn exec_pick_alu(const ptx_insn *in, exec_dinsn *d, const char **why)
{
    ptx_type t = (ptx_type)in->type;
    d->size = (uint8_t)ptx_type_size(t);
    unsigned fl = 0;
    if (in->m.flags & PTX_MF_FTZ) fl |= NUM_FTZ;
    if (in->m.flags & PTX_MF_SAT) fl |= NUM_SAT;
    if (in->m.flags & PTX_MF_RELU) fl |= NUM_RELU;
    if (in->m.flags & PTX_MF_SATFINITE) fl |= NUM_SATFINITE;
    d->flags = fl;
    bool pred = t == PTX_T_PRED;
    switch (in->op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB:
        if (!is_int(t)) return NULL;
        if (in->m.flags & PTX_MF_CC) return h_addsub_cc;
        if (in->m.flags & PTX_MF_SAT) return h_add_sat;
        if (in->op == PTX_OP_ADD) return d->size == 4 ? EXEC_HOST_FN(h_add32) : d->size == 8 ? EXEC_HOST_FN(h_add) : h_add;
        return h_sub;
    case PTX_OP_ADDC:
    case PTX_OP_SUBC: return h_addsub_cc;
    case PTX_OP_MUL:
        if (!is_int(t)) return NULL;
        if (in->m.sub == PTX_SUB_HI) return h_mul_hi;
        if (in->m.sub == PTX_SUB_WIDE && d->size == 4)
            return ptx_type_is_signed(t) ? EXEC_HOST_FN(h_mul_wide_s32) : EXEC_HOST_FN(h_mul_wide_u32);
        if (in->m.sub == PTX_SUB_WIDE) return h_mul_wide;
        return h_mul_lo;
    case PTX_OP_MAD:
        if (!is_int(t)) return NULL;
        if (in->m.sub == PTX_SUB_HI) return h_mul_hi;
        if (in->m.sub == PTX_SUB_WIDE) return h_mul_wide;
        if (in->m.flags & PTX_MF_CC) return h_mad_lo_cc;
        if (in->m.flags & PTX_MF_SAT) {
            *why = "mad.hi.sat";
            return NULL;
        }
        return h_mad_lo;
    case PTX_OP_MADC:
        if (in->m.sub == PTX_SUB_HI) return h_mul_hi;
        return h_mad_lo_cc;
    case PTX_OP_MUL24:
    case PTX_OP_MAD24: return h_mul24;
    case PTX_OP_SAD: return h_sad;
    case PTX_OP_DIV:
    case PTX_OP_REM: return is_int(t) ? h_divrem : NULL;
    case PTX_OP_ABS: return is_int(t) ? h_abs : NULL;
    case PTX_OP_NEG: return is_int(t) ? h_neg : NULL;
    case PTX_OP_MIN:
    case PTX_OP_MAX: return is_int(t) ? h_minmax : NULL;
    case PTX_OP_POPC: return h_popc;
    case PTX_OP_CLZ: return h_clz;
    case PTX_OP_BFIND: return h_bfind;
    case PTX_OP_BREV: return h_brev;
    case PTX_OP_BFE: return h_bfe;
    case PTX_OP_BFI: return h_bfi;
    case PTX_OP_FNS: return h_fns;
    case PTX_OP_PRMT: return h_prmt;
    case PTX_OP_SHF: return h_shf;
    case PTX_OP_LOP3: return in->ndst == 1 ? h_lop3 : NULL;
    case PTX_OP_DP4A:
    case PTX_OP_DP2A: return h_dp;
    case PTX_OP_SZEXT: return h_szext;
    case PTX_OP_BMSK: return h_bmsk;
    case PTX_OP_SHL: return d->size == 8 ? EXEC_HOST_FN(h_shl64) : d->size == 4 ? EXEC_HOST_FN(h_shl32) : h_shl;
    case PTX_OP_SHR: return h_shr;
    case PTX_OP_AND:
    case PTX_OP_OR:
    case PTX_OP_XOR:
        if (pred) return h_pred_logic;
        return in->op == PTX_OP_AND ? h_and : in->op == PTX_OP_OR ? h_or : h_xor;
    case PTX_OP_NOT: return pred ? h_pred_logic : h_not;
    case PTX_OP_CNOT: return pred ? h_pred_logic : h_cnot;
    case PTX_OP_MOV: {
        const ptx_opnd *dst = &in->o[0], *src = &in->o[1];
        if (pred || dst->kind == PTX_OK_PRED) return h_pred_logic;
        if (src->kind == PTX_OK_SYM || src->kind == PTX_OK_FUNC) return h_mov_sym;
        if (src->kind == PTX_OK_VEC) return h_mov_pack;
        if (dst->kind == PTX_OK_VEC) return h_mov_unpack;
        return d->size == 16 ? h_mov128 : h_mov;
    }
    case PTX_OP_SELP: return h_selp;
    case PTX_OP_SLCT: return h_slct;
    case PTX_OP_SETP: return h_setp;
    case PTX_OP_SET: return h_set;
    case PTX_OP_CVT: {
        ptx_type st = (ptx_type)in->type2;
        if (is_int(t) && is_int(st) && !(in->m.flags & PTX_MF_SAT)) return EXEC_HOST_FN(h_cvt_int);
        if (t == PTX_T_F32 && st == PTX_T_S32 && (in->m.rnd == PTX_RND_RN || in->m.rnd == PTX_RND_NONE) &&
            !(in->m.flags & (PTX_MF_SAT | PTX_MF_FTZ)))
            return h_cvt_f32_s32;
        if (t == PTX_T_F64 && st == PTX_T_F32 && !(in->m.flags & PTX_MF_SAT) && in->m.rnd == PTX_RND_NONE)
            return h_cvt_f64_f32;
        return h_cvt;
    }
    default: return NULL;
    }
}
