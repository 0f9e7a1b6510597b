/*
** num.h -- exact PTX numeric semantics, one value at a time.
**
** The functional model's handlers do the common cases (add.s32, fma.rn.f32,
** ...) inline over 32 lanes; everything with edge cases worth a function lives
** here: rounding modes, flush-to-zero, saturation, NaN rules, conversions
** between all integer and float types, the approximate functions, and the
** bit-manipulation instructions.  Values are passed as raw bits (f32 as
** uint32_t, f64 as uint64_t, f16/bf16 as uint16_t) so that NaN payloads and
** signed zeros are never touched by host floating-point conventions.
**
** Conventions (after the PTX ISA, version 9.x):
**   - rnd is a ptx_rnd; PTX_RND_NONE means the instruction's default
**     (round to nearest even for float results).
**   - fl is a set of NUM_* flags below.
**   - NaN results of f32/f64 arithmetic are the canonical NaN
**     (0x7fffffff, 0x7fffffffffffffff); f16: 0x7fff; bf16: 0x7fff.
**   - .ftz flushes subnormal inputs and results to zero of the same sign
**     (f32, and f16 where PTX allows it).
**   - .sat clamps a float result to [0.0, 1.0]; NaN becomes +0.0.
** Module prefix: num_.
*/
#ifndef EXEC_NUM_H
#define EXEC_NUM_H

#include "../base/tp.h"
#include "../ptx/ptx.h"

enum {
    NUM_FTZ = 1u << 0,      /* .ftz */
    NUM_SAT = 1u << 1,      /* .sat */
    NUM_NAN = 1u << 2,      /* .NaN: min/max return NaN if either input is NaN */
    NUM_XORSIGN = 1u << 3,  /* .xorsign.abs (min/max) */
    NUM_RELU = 1u << 4,     /* .relu: negative results become +0 (NaN stays NaN, canonical) */
    NUM_SATFINITE = 1u << 5,/* .satfinite (cvt to f16/bf16/tf32/e4m3..) */
    NUM_APPROX = 1u << 6,   /* .approx (rcp, sqrt, div) */
    NUM_FULL = 1u << 7,     /* div.full.f32 */
};

/* Formats of 16-bit floats. */
enum { NUM_F16 = 0, NUM_BF16 = 1 };

/* ---- f32 --------------------------------------------------------------- */
uint32_t num_add_f32(uint32_t a, uint32_t b, int rnd, unsigned fl);
uint32_t num_sub_f32(uint32_t a, uint32_t b, int rnd, unsigned fl);
uint32_t num_mul_f32(uint32_t a, uint32_t b, int rnd, unsigned fl);
uint32_t num_fma_f32(uint32_t a, uint32_t b, uint32_t c, int rnd, unsigned fl);
/* IEEE division with rounding rnd; with NUM_APPROX the div.approx.f32
** result (max 2 ulp error, per the PTX ISA); with NUM_FULL div.full.f32. */
uint32_t num_div_f32(uint32_t a, uint32_t b, int rnd, unsigned fl);
uint32_t num_rcp_f32(uint32_t a, int rnd, unsigned fl);    /* NUM_APPROX: rcp.approx */
uint32_t num_sqrt_f32(uint32_t a, int rnd, unsigned fl);   /* NUM_APPROX: sqrt.approx */
uint32_t num_rsqrt_f32(uint32_t a, unsigned fl);           /* rsqrt.approx.f32 */
uint32_t num_sin_f32(uint32_t a, unsigned fl);             /* sin.approx.f32 */
uint32_t num_cos_f32(uint32_t a, unsigned fl);             /* cos.approx.f32 */
uint32_t num_lg2_f32(uint32_t a, unsigned fl);             /* lg2.approx.f32 */
uint32_t num_ex2_f32(uint32_t a, unsigned fl);             /* ex2.approx.f32 */
uint32_t num_tanh_f32(uint32_t a, unsigned fl);            /* tanh.approx.f32 */
uint32_t num_min_f32(uint32_t a, uint32_t b, unsigned fl);
uint32_t num_max_f32(uint32_t a, uint32_t b, unsigned fl);
uint32_t num_abs_f32(uint32_t a, unsigned fl);
uint32_t num_neg_f32(uint32_t a, unsigned fl);
uint32_t num_copysign_f32(uint32_t a, uint32_t b);         /* b with a's sign */

/* ---- f64 --------------------------------------------------------------- */
uint64_t num_add_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
uint64_t num_sub_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
uint64_t num_mul_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
uint64_t num_fma_f64(uint64_t a, uint64_t b, uint64_t c, int rnd, unsigned fl);
uint64_t num_div_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
uint64_t num_rcp_f64(uint64_t a, int rnd, unsigned fl);    /* NUM_APPROX|NUM_FTZ: rcp.approx.ftz.f64 */
uint64_t num_sqrt_f64(uint64_t a, int rnd, unsigned fl);
uint64_t num_rsqrt_f64(uint64_t a, unsigned fl);           /* rsqrt.approx.f64 */
uint64_t num_min_f64(uint64_t a, uint64_t b, unsigned fl);
uint64_t num_max_f64(uint64_t a, uint64_t b, unsigned fl);
uint64_t num_abs_f64(uint64_t a);
uint64_t num_neg_f64(uint64_t a);
uint64_t num_copysign_f64(uint64_t a, uint64_t b);

/* ---- f16 / bf16 (fmt = NUM_F16 or NUM_BF16) ---------------------------- */
uint16_t num_add_h(uint16_t a, uint16_t b, int fmt, int rnd, unsigned fl);
uint16_t num_sub_h(uint16_t a, uint16_t b, int fmt, int rnd, unsigned fl);
uint16_t num_mul_h(uint16_t a, uint16_t b, int fmt, int rnd, unsigned fl);
uint16_t num_fma_h(uint16_t a, uint16_t b, uint16_t c, int fmt, int rnd, unsigned fl);
uint16_t num_min_h(uint16_t a, uint16_t b, int fmt, unsigned fl);
uint16_t num_max_h(uint16_t a, uint16_t b, int fmt, unsigned fl);
uint16_t num_abs_h(uint16_t a, int fmt, unsigned fl);
uint16_t num_neg_h(uint16_t a, int fmt, unsigned fl);
uint16_t num_ex2_h(uint16_t a, int fmt, unsigned fl);      /* ex2.approx.{f16,bf16} */
uint16_t num_tanh_h(uint16_t a, int fmt, unsigned fl);     /* tanh.approx.{f16,bf16} */
/* Exact widening of a 16-bit float to f32 bits. */
uint32_t num_h_to_f32(uint16_t a, int fmt);

/* ---- comparisons and classes ------------------------------------------- */
/* cmp is a ptx_cmp.  Ordered comparisons are false when either input is NaN;
** the ...U forms are true then; NUM/NAN test orderedness. */
bool num_cmp_f32(uint32_t a, uint32_t b, int cmp, unsigned fl);
bool num_cmp_f64(uint64_t a, uint64_t b, int cmp);
bool num_cmp_h(uint16_t a, uint16_t b, int fmt, int cmp, unsigned fl);
/* Integer/bit compare of values of type t (EQ NE LT LE GT GE, and LO LS HI HS
** unsigned); a and b are taken at t's width (and sign). */
bool num_cmp_int(uint64_t a, uint64_t b, int cmp, ptx_type t);
/* testp: sub is PTX_SUB_FINITE .. PTX_SUB_SUBNORMAL; t is F32 or F64. */
bool num_testp(uint64_t a, ptx_type t, int sub);

/* ---- conversion ---------------------------------------------------------- */
/* cvt.rnd.fl.dst.src: converts the value a (bits of type src, in the low
** bits) to type dst.  Integer results come back sign-extended to 64 bits when
** dst is signed and zero-extended otherwise; float results as their bits.
** Float -> integer rounds with rnd (rni/rzi/rmi/rpi; none means rzi... as
** the PTX ISA requires a mode there) and saturates to the destination range,
** NaN giving 0.  Integer -> integer truncates or extends, and with NUM_SAT
** clamps.  Float -> float rounds with rnd (f32 -> f64 is exact); rni/rzi/rmi/
** rpi on a same-size float conversion round to an integral value. */
uint64_t num_cvt(uint64_t a, ptx_type dst, ptx_type src, int rnd, unsigned fl);

/* ---- integer ------------------------------------------------------------- */
/* Division and remainder of type t (8..64 bits, signed or unsigned), the way
** NVIDIA GPUs compute them: x/0 is all ones, x%0 is x, INT_MIN/-1 is
** INT_MIN and INT_MIN%-1 is 0. */
uint64_t num_div_int(uint64_t a, uint64_t b, ptx_type t);
uint64_t num_rem_int(uint64_t a, uint64_t b, ptx_type t);
/* Upper half of the double-width product (mul.hi) for t of 16, 32 or 64 bits. */
uint64_t num_mul_hi(uint64_t a, uint64_t b, ptx_type t);
/* mul24.lo / mul24.hi (.s32 or .u32). */
uint32_t num_mul24(uint32_t a, uint32_t b, bool hi, bool is_signed);
/* bfind: position of the most significant non-sign bit, 0xffffffff if none;
** with shiftamt the left-shift amount instead. */
uint32_t num_bfind(uint64_t a, ptx_type t, bool shiftamt);
uint64_t num_bfe(uint64_t a, uint32_t pos, uint32_t len, ptx_type t);
uint64_t num_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, ptx_type t);
uint64_t num_brev(uint64_t a, unsigned bits);
/* prmt.b32 with mode sub (PTX_SUB_NONE for the generic form, or F4E B4E RC8 ECL ECR RC16). */
uint32_t num_prmt(uint32_t a, uint32_t b, uint32_t c, int sub);
/* shf.l / shf.r: funnel shift of b:a by c, .wrap (c mod 32) or .clamp (min(c, 32)). */
uint32_t num_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool wrap);
/* fns.b32: the position of the offset-th set bit of mask counting from base. */
uint32_t num_fns(uint32_t mask, uint32_t base, int32_t offset);
uint32_t num_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut);
uint32_t num_dp4a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed);
uint32_t num_dp2a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed, bool hi);
/* szext.{wrap,clamp}.{s32,u32}: sign- or zero-extend a from bit b. */
uint32_t num_szext(uint32_t a, uint32_t b, bool is_signed, bool clamp);
/* bmsk.{wrap,clamp}.b32: b one bits starting at bit a. */
uint32_t num_bmsk(uint32_t a, uint32_t b, bool clamp);
/* Saturating 32-bit signed add/sub (add.sat.s32, sub.sat.s32). */
int32_t num_add_sat_s32(int32_t a, int32_t b);
int32_t num_sub_sat_s32(int32_t a, int32_t b);

#endif
