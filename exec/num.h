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
**     (round to nearest even for float results).  Every float operation
**     is correctly rounded in every mode (rn, rz, rm, rp; rna for tf32),
**     subnormals included; .rs is not supported (needs random bits) and
**     rounds as rz.
**   - fl is a set of NUM_* flags below.
**   - NaN results: f32 0x7fffffff, f16 0x7fff, bf16 0x7fff ("single and
**     half precision return an unspecified NaN"; these are the values
**     NVIDIA GPUs produce).  f64 keeps payloads ("NaN payloads are
**     supported for double-precision instructions"): the result is the
**     first NaN input (a, then b, then c) with its quiet bit set; a NaN
**     made from non-NaN inputs (inf-inf, 0*inf, 0/0, sqrt(-1)) is
**     0xfff8000000000000 (CUDA's CUDART_NAN; not verified on hardware).
**     Exceptions are noted at the functions (abs.f64, rcp/rsqrt.approx.ftz.f64).
**   - .ftz flushes subnormal inputs to zero of the same sign, and a result
**     that is subnormal after IEEE rounding (with subnormals) to zero of
**     the same sign.  It applies to f32 (and f16 where PTX allows it);
**     f64 functions ignore it except the gross rcp/rsqrt approximations.
**     (Whether hardware detects a tiny result before or after rounding is
**     not documented; the one difference is an exact result just below
**     2^-126 that rounds to 2^-126: kept here.)
**   - .sat clamps a float result to [+0.0, 1.0]; NaN becomes +0.0, and so
**     does every negative result, -0.0 included.
**   - .relu: negative results (-0.0 included) become +0.0; NaN becomes the
**     canonical NaN.  .satfinite: an overflowing or infinite result becomes
**     the largest finite value of its sign; NaN stays NaN.
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

/* abs/neg.f32 and .f16/.bf16 return the canonical NaN for a NaN input
** ("NaN input yields unspecified NaN"); copysign only moves the sign bit. */

/* ---- f64 --------------------------------------------------------------- */
uint64_t num_add_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
uint64_t num_sub_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
uint64_t num_mul_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
uint64_t num_fma_f64(uint64_t a, uint64_t b, uint64_t c, int rnd, unsigned fl);
uint64_t num_div_f64(uint64_t a, uint64_t b, int rnd, unsigned fl);
/* With NUM_APPROX: rcp.approx.ftz.f64, computed from the upper 32 bits of
** a only (1.11.20 format; inf, zero, subnormal and NaN classified by that
** word), result in the upper 32 bits, low 32 bits zero, subnormal results
** flushed, NaN -> 0x7fffffff00000000; relative error < 1.5 * 2^-20. */
uint64_t num_rcp_f64(uint64_t a, int rnd, unsigned fl);
uint64_t num_sqrt_f64(uint64_t a, int rnd, unsigned fl);
/* rsqrt.approx.f64 (subnormals kept, within 1.5 ulp); with NUM_FTZ
** rsqrt.approx.ftz.f64, upper word in and out as rcp.approx.ftz.f64. */
uint64_t num_rsqrt_f64(uint64_t a, unsigned fl);
uint64_t num_min_f64(uint64_t a, uint64_t b, unsigned fl);
uint64_t num_max_f64(uint64_t a, uint64_t b, unsigned fl);
uint64_t num_abs_f64(uint64_t a);    /* a NaN passes unchanged (PTX ISA) */
uint64_t num_neg_f64(uint64_t a);    /* flips the sign bit, NaN included */
uint64_t num_copysign_f64(uint64_t a, uint64_t b);
/* The NaN an f64 operation with n inputs (a, b, c) returns when its result
** is NaN (see the conventions): for inline fast paths that compute with the
** host FPU and must give the same bits as the functions here. */
uint64_t num_nan_f64(uint64_t a, uint64_t b, uint64_t c, int n);

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
/* Exact widening of a 16-bit float to f32 bits (a NaN keeps its payload,
** made quiet; callers that need the canonical f32 NaN use num_cvt). */
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
** Float -> integer rounds with rnd (rni/rzi/rmi/rpi; none means rzi, as
** the PTX ISA requires a mode there; rn/rz/rm/rp are read as rni/rzi/...)
** and saturates to the destination range, +-inf included.  NaN gives 0
** when the source is not f64 and the destination is not 64 bits, and
** 1 << (width - 1) otherwise (MININT for signed types; PTX ISA 9.x).
** .ftz flushes a subnormal f32 source first.  Integer -> integer truncates
** or extends, and with NUM_SAT clamps the source value to the destination
** range.  Integer -> float and float -> float round once with rnd (none:
** rn), so f64 -> f16 is not rounded through f32; f32 -> f64 and all
** widenings are exact.  rni/rzi/rmi/rpi on a same-size float conversion
** round to an integral value.  .ftz applies to f32 sources and results only
** (cvt.ftz.f16.f32 flushes the f32 input, not an f16 subnormal result).
** NUM_SAT, NUM_RELU and NUM_SATFINITE act on float results as in the
** conventions; dst PTX_T_TF32 gives the tf32 bits in an f32 word (low 13
** bits zero; NaN 0x7fffe000).  A NaN converted to f64 keeps its payload. */
uint64_t num_cvt(uint64_t a, ptx_type dst, ptx_type src, int rnd, unsigned fl);

/* ---- integer ------------------------------------------------------------- */
/* Division and remainder of type t (8..64 bits, signed or unsigned), the way
** NVIDIA GPUs compute them: x/0 is all ones, x%0 is x, INT_MIN/-1 is
** INT_MIN and INT_MIN%-1 is 0.  Only t's width of a and b is read; results
** of these and of mul_hi/bfe come back sign-extended to 64 bits for signed
** types and zero-extended otherwise, like num_cvt. */
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
uint64_t num_brev(uint64_t a, unsigned bits);              /* the low 'bits' bits (32 or 64) */
/* prmt.b32 with mode sub (PTX_SUB_NONE for the generic form, or F4E B4E RC8 ECL ECR RC16). */
uint32_t num_prmt(uint32_t a, uint32_t b, uint32_t c, int sub);
/* shf.l / shf.r: funnel shift of b:a by c, .wrap (c mod 32) or .clamp (min(c, 32)). */
uint32_t num_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool wrap);
/* fns.b32: the position of the offset-th set bit of mask counting from base
** (0xffffffff if none; base > 31, undefined in PTX, finds none). */
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
