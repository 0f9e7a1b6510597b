/*
** num_int.c -- integer and bit-manipulation instructions with edge cases:
** div/rem, mul.hi, mul24, bfind, bfe, bfi, brev, prmt, shf, fns, lop3,
** dp4a/dp2a, szext, bmsk, saturating add/sub.  Each follows the PTX ISA's
** pseudo-code (9.7.1, 9.7.8, 9.7.9.7); results of a type narrower than 64
** bits come back sign-extended for signed types, zero-extended otherwise.
*/
#include "num_impl.h"

static unsigned num__iwidth(ptx_type t)
{
    unsigned w = ptx_type_size(t) * 8;
    return w == 0 || w > 64 ? 64 : w;
}

static inline uint64_t num__mask(unsigned n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

static inline uint64_t num__iext(uint64_t x, unsigned w, bool sgn)
{
    if (w >= 64) return x;
    x &= num__mask(w);
    if (sgn && (x >> (w - 1))) x |= ~0ull << w;
    return x;
}

/* Division by zero is "unspecified, machine-specific" in the PTX ISA.  The
** code NVIDIA's compiler generates for integer division ends with a fix-up
** that sets the quotient to ~0 (all ones) when the divisor is zero, and the
** remainder it then computes, a - q * 0, is the dividend: so x/0 is all ones
** at the type's width (-1 for signed types) and x%0 is x, for every width
** (16-bit types are computed in 32 bits and truncated).  INT_MIN / -1 wraps
** to INT_MIN and INT_MIN % -1 is 0, as two's complement hardware gives. */
uint64_t num_div_int(uint64_t a, uint64_t b, ptx_type t)
{
    unsigned w = num__iwidth(t);
    bool sgn = ptx_type_is_signed(t);
    uint64_t x = num__iext(a, w, sgn), y = num__iext(b, w, sgn);
    if (y == 0) return num__iext(~0ull, w, sgn);
    if (!sgn) return x / y;
    if ((int64_t)y == -1) return num__iext(0 - x, w, true);
    return num__iext((uint64_t)((int64_t)x / (int64_t)y), w, true);
}

uint64_t num_rem_int(uint64_t a, uint64_t b, ptx_type t)
{
    unsigned w = num__iwidth(t);
    bool sgn = ptx_type_is_signed(t);
    uint64_t x = num__iext(a, w, sgn), y = num__iext(b, w, sgn);
    if (y == 0) return x;
    if (!sgn) return x % y;
    if ((int64_t)y == -1) return 0;
    return num__iext((uint64_t)((int64_t)x % (int64_t)y), w, true);
}

uint64_t num_mul_hi(uint64_t a, uint64_t b, ptx_type t)
{
    unsigned w = num__iwidth(t);
    if (ptx_type_is_signed(t)) {
        num__i128 p = (num__i128)(int64_t)num__iext(a, w, true) * (int64_t)num__iext(b, w, true);
        return num__iext((uint64_t)(p >> w), w, true);
    }
    num__u128 p = (num__u128)(a & num__mask(w)) * (b & num__mask(w));
    return (uint64_t)(p >> w) & num__mask(w);
}

/* mul24: the low 24 bits of each operand (sign-extended for .s32) give a
** 48-bit product; .hi is its bits 47..16, .lo its bits 31..0. */
uint32_t num_mul24(uint32_t a, uint32_t b, bool hi, bool is_signed)
{
    int64_t x = is_signed ? (int64_t)num__iext(a, 24, true) : (int64_t)(a & 0xffffffu);
    int64_t y = is_signed ? (int64_t)num__iext(b, 24, true) : (int64_t)(b & 0xffffffu);
    uint64_t p = (uint64_t)(x * y);
    return (uint32_t)(hi ? p >> 16 : p);
}

uint32_t num_bfind(uint64_t a, ptx_type t, bool shiftamt)
{
    unsigned w = num__iwidth(t) > 32 ? 64 : 32;
    a &= num__mask(w);
    if (ptx_type_is_signed(t) && (a >> (w - 1))) a = ~a & num__mask(w);
    if (a == 0) return 0xffffffffu;
    uint32_t d = 63 - (uint32_t)__builtin_clzll(a);
    return shiftamt ? (w - 1) - d : d;
}

uint64_t num_bfe(uint64_t a, uint32_t pos, uint32_t len, ptx_type t)
{
    unsigned w = num__iwidth(t) > 32 ? 64 : 32;
    bool sgn = ptx_type_is_signed(t);
    pos &= 0xff;
    len &= 0xff;
    a &= num__mask(w);
    uint64_t sbit = 0;
    if (sgn && len != 0) {
        unsigned top = pos + len - 1;
        sbit = (a >> (top < w - 1 ? top : w - 1)) & 1;
    }
    unsigned n = pos >= w ? 0 : (len < w - pos ? len : w - pos);  /* bits taken from a */
    uint64_t d = n ? (a >> pos) & num__mask(n) : 0;
    if (sbit) d |= ~num__mask(n);
    return num__iext(d, w, sgn);
}

uint64_t num_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, ptx_type t)
{
    unsigned w = num__iwidth(t) > 32 ? 64 : 32;
    pos &= 0xff;
    len &= 0xff;
    b &= num__mask(w);
    if (pos >= w || len == 0) return b;
    unsigned n = len < w - pos ? len : w - pos;
    uint64_t m = num__mask(n) << pos;
    return (b & ~m) | ((a << pos) & m);
}

uint64_t num_brev(uint64_t a, unsigned bits)
{
    if (bits == 0) return 0;
    if (bits > 64) bits = 64;
    uint64_t x = a;
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    x = __builtin_bswap64(x);
    return x >> (64 - bits);
}

/* prmt: source bytes {b, a} = b7..b4 b3..b0.  The generic form takes four
** 4-bit selectors from c (bit 3 replicates the selected byte's sign); the
** modes take c[1:0] = s and pick, for result byte i:
**   f4e s+i   b4e (s-i)&7   rc8 s   ecl max(i,s)   ecr min(i,s)
**   rc16 (s&1)*2 + (i&1)       (the tables of PTX ISA 9.7.9.7) */
uint32_t num_prmt(uint32_t a, uint32_t b, uint32_t c, int sub)
{
    uint64_t src = ((uint64_t)b << 32) | a;
    uint32_t d = 0, s = c & 3;
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t sel, byte;
        switch (sub) {
        case PTX_SUB_F4E: sel = s + i; break;
        case PTX_SUB_B4E: sel = (s - i) & 7; break;
        case PTX_SUB_RC8: sel = s; break;
        case PTX_SUB_ECL: sel = i > s ? i : s; break;
        case PTX_SUB_ECR: sel = i < s ? i : s; break;
        case PTX_SUB_RC16: sel = ((s & 1) << 1) | (i & 1); break;
        default: sel = (c >> (4 * i)) & 0xf; break;
        }
        byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;     /* generic form only */
        d |= byte << (8 * i);
    }
    return d;
}

uint32_t num_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool wrap)
{
    uint32_t n = wrap ? c & 31 : (c < 32 ? c : 32);
    uint64_t v = ((uint64_t)b << 32) | a;
    return left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
}

/* fns: base must be <= 31 ("otherwise behavior is undefined"); a larger
** base finds nothing here (the pseudo-code's scan loop does not start). */
uint32_t num_fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31) return 0xffffffffu;
    if (offset == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
    int32_t pos = (int32_t)base, inc = offset > 0 ? 1 : -1;
    uint32_t count = offset > 0 ? (uint32_t)offset - 1 : (uint32_t)(-(int64_t)offset) - 1;
    for (; pos >= 0 && pos < 32; pos += inc) {
        if ((mask >> pos) & 1) {
            if (count == 0) return (uint32_t)pos;
            count--;
        }
    }
    return 0xffffffffu;
}

/* lop3: bit i of lut is the result for the input bits (a, b, c) = the
** binary digits of i, a the most significant (ta = 0xf0, tb = 0xcc,
** tc = 0xaa). */
uint32_t num_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t d = 0;
    for (int i = 0; i < 8; i++) {
        if (!((lut >> i) & 1)) continue;
        d |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    }
    return d;
}

static inline int32_t num__byte(uint32_t x, int i, bool sgn)
{
    uint32_t v = (x >> (8 * i)) & 0xff;
    return sgn ? (int32_t)(int8_t)v : (int32_t)v;
}

static inline int32_t num__half(uint32_t x, int i, bool sgn)
{
    uint32_t v = (x >> (16 * i)) & 0xffff;
    return sgn ? (int32_t)(int16_t)v : (int32_t)v;
}

/* Products and the sum are taken modulo 2^32 (the accumulator is 32 bits). */
uint32_t num_dp4a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed)
{
    uint32_t d = c;
    for (int i = 0; i < 4; i++)
        d += (uint32_t)(num__byte(a, i, a_signed) * num__byte(b, i, b_signed));
    return d;
}

uint32_t num_dp2a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed, bool hi)
{
    uint32_t d = c;
    int sel = hi ? 2 : 0;
    for (int i = 0; i < 2; i++)
        d += (uint32_t)((int64_t)num__half(a, i, a_signed) * num__byte(b, sel + i, b_signed));
    return d;
}

uint32_t num_szext(uint32_t a, uint32_t b, bool is_signed, bool clamp)
{
    uint32_t b1 = b & 0x1f;
    bool too_large = b >= 32 && clamp;
    uint32_t mask = too_large ? 0 : ~0u << b1;
    uint32_t sign_pos = (b1 - 1) & 0x1f;
    bool sign_bit = (b1 == 0 || too_large || !is_signed) ? false : (a >> sign_pos) & 1;
    return (a & ~mask) | (sign_bit ? mask : 0);
}

uint32_t num_bmsk(uint32_t a, uint32_t b, bool clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    uint32_t mask1 = sum < 32 ? ~0u << sum : 0;
    bool over = sum >= 32;
    if (clamp) {
        if (a >= 32) {
            over = true;
            mask0 = 0;
        }
        if (b >= 32) over = true;
    }
    if (over) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    return mask0 & ~mask1;
}

int32_t num_add_sat_s32(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a + b;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

int32_t num_sub_sat_s32(int32_t a, int32_t b)
{
    int64_t s = (int64_t)a - b;
    return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}
