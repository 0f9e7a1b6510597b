/*
** test_exec_ops.c -- per-instruction edge cases through the whole functional
** model: each case is one PTX instruction, wrapped in a one-thread kernel
** that loads its inputs from memory and stores its result, so the parser,
** the decoder's choice of handler (type, modifiers, operand widths) and the
** semantics are checked together.
**
** Every expected value is worked out by hand from the PTX ISA and IEEE 754
** (the comment beside each says why).  Placeholders in the instruction text:
** %a16 %a32 %a64 (integer views of input a), %af %ad (f32/f64 views), the same
** for b and c, and %d16 %d32 %d64 %df %dd %p (results); the result kind says
** which one is stored.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include <stdlib.h>

typedef struct {
    const char *insn;
    char res;            /* 'h' d16, 'w' d32, 'q' d64, 'f' df, 'd' dd, 'p' predicate %p */
    uint64_t a, b, c;
    uint64_t want;
    const char *why;
} op_case;

#define F32(x) ((uint64_t)(x))
#define INTMIN 0x80000000ull
static const op_case cases[] = {
    /* integer wrap and saturation */
    {"add.s32 %d32, %a32, %b32", 'w', 0x7fffffff, 1, 0, 0x80000000, "INT_MAX + 1 wraps"},
    {"add.sat.s32 %d32, %a32, %b32", 'w', 0x7fffffff, 1, 0, 0x7fffffff, "saturates at INT_MAX"},
    {"add.sat.s32 %d32, %a32, %b32", 'w', INTMIN, 0xffffffff, 0, INTMIN, "INT_MIN + -1 saturates"},
    {"sub.sat.s32 %d32, %a32, %b32", 'w', INTMIN, 1, 0, INTMIN, "INT_MIN - 1 saturates"},
    {"add.s16 %d16, %a16, %b16", 'h', 0xffff, 2, 0, 1, "16-bit wrap"},
    {"sub.s64 %d64, %a64, %b64", 'q', 0, 1, 0, 0xffffffffffffffffull, "0 - 1"},
    /* multiplication */
    {"mul.lo.s32 %d32, %a32, %b32", 'w', 0x10000, 0x10000, 0, 0, "2^32 truncates to 0"},
    {"mul.hi.s32 %d32, %a32, %b32", 'w', 0xffffffff, 1, 0, 0xffffffff, "-1 * 1: high word is all sign"},
    {"mul.hi.u32 %d32, %a32, %b32", 'w', 0xffffffff, 0xffffffff, 0, 0xfffffffe, "(2^32-1)^2 = 2^64 - 2^33 + 1"},
    {"mul.wide.s32 %d64, %a32, %b32", 'q', 0xfffffffe, 3, 0, 0xfffffffffffffffaull, "-2 * 3 = -6 in 64 bits"},
    {"mul.wide.u32 %d64, %a32, %b32", 'q', 0xffffffff, 2, 0, 0x1fffffffeull, "no sign extension"},
    {"mul.wide.s16 %d32, %a16, %b16", 'w', 0x8000, 2, 0, 0xffff0000, "-32768 * 2 = -65536"},
    {"mul.hi.u64 %d64, %a64, %b64", 'q', 0xffffffffffffffffull, 0xffffffffffffffffull, 0, 0xfffffffffffffffeull, "(2^64-1)^2 high"},
    {"mul.hi.s64 %d64, %a64, %b64", 'q', 0xffffffffffffffffull, 0xffffffffffffffffull, 0, 0, "-1 * -1 = 1: high 0"},
    {"mad.lo.s32 %d32, %a32, %b32, %c32", 'w', 3, 4, 0xfffffff6, 2, "3*4 - 10"},
    {"mad.wide.s32 %d64, %a32, %b32, %c64", 'q', 0xffffffff, 5, 100, 95, "-1*5 + 100"},
    {"mad.hi.u32 %d32, %a32, %b32, %c32", 'w', 0x80000000, 4, 1, 3, "hi(2^33) + 1"},
    {"mul24.lo.u32 %d32, %a32, %b32", 'w', 0xff000003, 2, 0, 6, "only the low 24 bits multiply"},
    {"mul24.hi.u32 %d32, %a32, %b32", 'w', 0x00800000, 0x00800000, 0, 0x40000000, "high 32 of the 48-bit product 2^46: 2^46 >> 16"},
    {"sad.u32 %d32, %a32, %b32, %c32", 'w', 3, 10, 5, 12, "|3-10| + 5"},
    {"sad.s32 %d32, %a32, %b32, %c32", 'w', 0xfffffffd, 2, 0, 5, "|-3 - 2|"},
    /* division and remainder */
    {"div.s32 %d32, %a32, %b32", 'w', INTMIN, 0xffffffff, 0, INTMIN, "INT_MIN / -1 overflows to INT_MIN"},
    {"rem.s32 %d32, %a32, %b32", 'w', INTMIN, 0xffffffff, 0, 0, "INT_MIN % -1 = 0"},
    {"div.s32 %d32, %a32, %b32", 'w', 7, 0xfffffffe, 0, 0xfffffffd, "7 / -2 truncates to -3"},
    {"rem.s32 %d32, %a32, %b32", 'w', 0xfffffff9, 2, 0, 0xffffffff, "-7 % 2 = -1 (sign of dividend)"},
    {"div.u32 %d32, %a32, %b32", 'w', 12345, 0, 0, 0xffffffff, "x / 0 is all ones on NVIDIA GPUs"},
    {"rem.u32 %d32, %a32, %b32", 'w', 12345, 0, 0, 12345, "x % 0 is x"},
    {"div.s64 %d64, %a64, %b64", 'q', 0x8000000000000000ull, 0xffffffffffffffffull, 0, 0x8000000000000000ull, "INT64_MIN / -1"},
    {"div.u16 %d16, %a16, %b16", 'h', 0xffff, 0x100, 0, 0xff, "65535 / 256"},
    /* abs, neg, min, max */
    {"abs.s32 %d32, %a32", 'w', INTMIN, 0, 0, INTMIN, "|INT_MIN| wraps to INT_MIN"},
    {"neg.s32 %d32, %a32", 'w', 5, 0, 0, 0xfffffffb, "-5"},
    {"min.s32 %d32, %a32, %b32", 'w', 0xffffffff, 1, 0, 0xffffffff, "signed: -1 < 1"},
    {"min.u32 %d32, %a32, %b32", 'w', 0xffffffff, 1, 0, 1, "unsigned: 1 < 2^32-1"},
    {"max.s16 %d16, %a16, %b16", 'h', 0x8000, 0x7fff, 0, 0x7fff, "16-bit signed"},
    {"max.u64 %d64, %a64, %b64", 'q', 0x8000000000000000ull, 1, 0, 0x8000000000000000ull, "unsigned 64"},
    /* shifts: amounts past the width clamp */
    {"shl.b32 %d32, %a32, %b32", 'w', 1, 32, 0, 0, "shift by the width gives 0"},
    {"shl.b32 %d32, %a32, %b32", 'w', 1, 31, 0, 0x80000000, "shift by 31"},
    {"shl.b64 %d64, %a64, %b32", 'q', 1, 64, 0, 0, "64-bit shift by 64"},
    {"shl.b16 %d16, %a16, %b32", 'h', 0x8001, 1, 0, 2, "16-bit shift drops the top bit"},
    {"shr.s32 %d32, %a32, %b32", 'w', 0x80000000, 40, 0, 0xffffffff, "arithmetic shift past width: sign fill"},
    {"shr.u32 %d32, %a32, %b32", 'w', 0x80000000, 32, 0, 0, "logical shift by 32"},
    {"shr.u32 %d32, %a32, %b32", 'w', 0x80000000, 0xffffffff, 0, 0, "amount is unsigned: huge"},
    {"shr.s16 %d16, %a16, %b32", 'h', 0x8000, 3, 0, 0xf000, "16-bit arithmetic shift"},
    {"shf.l.wrap.b32 %d32, %a32, %b32, %c32", 'w', 0x80000000, 0x1, 33, 0x3, "wrap: shift 33 mod 32 = 1 of b:a"},
    {"shf.r.clamp.b32 %d32, %a32, %b32, %c32", 'w', 0x12345678, 0x9abcdef0, 40, 0x9abcdef0, "clamp at 32: the high word"},
    {"shf.r.wrap.b32 %d32, %a32, %b32, %c32", 'w', 0x12345678, 0x9abcdef0, 4, 0x01234567, "low word of (b:a) >> 4"},
    /* bit fields and counts */
    {"bfe.u32 %d32, %a32, %b32, %c32", 'w', 0xabcdef12, 28, 8, 0xa, "pos 28 len 8: only 4 bits exist"},
    {"bfe.s32 %d32, %a32, %b32, %c32", 'w', 0x00000080, 4, 4, 0xfffffff8, "field 1000b sign-extends"},
    {"bfe.u32 %d32, %a32, %b32, %c32", 'w', 0xffffffff, 3, 0, 0, "length 0 gives 0"},
    {"bfe.s32 %d32, %a32, %b32, %c32", 'w', 0x80000000, 40, 4, 0xffffffff, "pos past the width: the sign bit"},
    {"bfi.b32 %d32, %a32, %b32, %c32, 8", 'w', 0xff, 0x12345678, 4, 0x12345ff8, "insert 8 bits of a at bit 4 of b"},
    {"bfind.u32 %d32, %a32", 'w', 0, 0, 0, 0xffffffff, "no bit set"},
    {"bfind.s32 %d32, %a32", 'w', 0xffffffff, 0, 0, 0xffffffff, "-1 has no non-sign bit"},
    {"bfind.s32 %d32, %a32", 'w', 0xfffffff0, 0, 0, 3, "-16: highest 0 bit is 3"},
    {"bfind.shiftamt.u32 %d32, %a32", 'w', 1, 0, 0, 31, "shift amount to normalize 1"},
    {"bfind.u64 %d32, %a64", 'w', 0x8000000000000000ull, 0, 0, 63, "64-bit"},
    {"brev.b32 %d32, %a32", 'w', 1, 0, 0, 0x80000000, "bit 0 to bit 31"},
    {"brev.b64 %d64, %a64", 'q', 0x3, 0, 0, 0xc000000000000000ull, "64-bit reverse"},
    {"clz.b32 %d32, %a32", 'w', 0, 0, 0, 32, "zero has 32 leading zeros"},
    {"clz.b64 %d32, %a64", 'w', 1, 0, 0, 63, "64-bit"},
    {"popc.b64 %d32, %a64", 'w', 0xf0f0f0f0f0f0f0f0ull, 0, 0, 32, "half the bits"},
    {"prmt.b32 %d32, %a32, %b32, %c32", 'w', 0x44332211, 0x88776655, 0x3210, 0x44332211, "identity selector"},
    {"prmt.b32 %d32, %a32, %b32, %c32", 'w', 0x44332211, 0x88776655, 0x7654, 0x88776655, "bytes of b"},
    {"prmt.b32 %d32, %a32, %b32, %c32", 'w', 0x44332211, 0x88776655, 0x0008, 0x11111100, "nibble 8: byte 0 (0x11) sign-replicated -> 00; others byte 0"},
    {"prmt.b32 %d32, %a32, %b32, %c32", 'w', 0x44332211, 0x88776655, 0x000f, 0x111111ff, "nibble f: byte 7 (0x88) sign-replicated -> ff"},
    {"lop3.b32 %d32, %a32, %b32, %c32, 0x96", 'w', 0xff00ff00, 0xf0f0f0f0, 0xcccccccc, 0xff00ff00 ^ 0xf0f0f0f0 ^ 0xcccccccc, "0x96 is a^b^c"},
    {"dp4a.s32.s32 %d32, %a32, %b32, %c32", 'w', 0xff020304, 0x01010101, 10, 10 + 4 + 3 + 2 - 1, "bytes 4,3,2,-1 dot 1,1,1,1 plus 10"},
    {"dp4a.u32.u32 %d32, %a32, %b32, %c32", 'w', 0xff000000, 0x02000000, 0, 510, "unsigned 255*2"},
    /* logic */
    {"not.b16 %d16, %a16", 'h', 0x00ff, 0, 0, 0xff00, "16-bit not"},
    {"cnot.b32 %d32, %a32", 'w', 0, 0, 0, 1, "cnot 0 = 1"},
    {"cnot.b32 %d32, %a32", 'w', 7, 0, 0, 0, "cnot nonzero = 0"},
    {"xor.b64 %d64, %a64, %b64", 'q', 0xffffffff00000000ull, 0xffffffffffffffffull, 0, 0xffffffffull, "64-bit xor"},
    /* carry chains: a 64-bit add from 32-bit halves */
    {"add.cc.u32 %d32, %a32, %b32; addc.u32 %d32, 0, 0", 'w', 0xffffffff, 1, 0, 1, "the carry out of 2^32-1 + 1"},
    {"sub.cc.u32 %d32, %a32, %b32; subc.u32 %d32, 0, 0", 'w', 0, 1, 0, 0xffffffff, "0 - 1 borrows: 0 - 0 - 1"},
    {"mad.lo.cc.u32 %d32, %a32, %b32, %c32; addc.u32 %d32, 0, 0", 'w', 0x80000000, 2, 0, 0, "lo(2^32) = 0, + 0: no carry"},
    {"mad.lo.cc.u32 %d32, %a32, %b32, %c32; addc.u32 %d32, 0, 0", 'w', 0xffffffff, 1, 1, 1, "(2^32-1) + 1 carries"},
    /* compares and selects */
    {"setp.lt.s32 %p, %a32, %b32", 'p', 0xffffffff, 0, 0, 1, "-1 < 0 signed"},
    {"setp.lt.u32 %p, %a32, %b32", 'p', 0xffffffff, 0, 0, 0, "unsigned: 2^32-1 > 0"},
    {"setp.lo.u32 %p, %a32, %b32", 'p', 1, 2, 0, 1, "lo is unsigned <"},
    {"setp.hs.u64 %p, %a64, %b64", 'p', 0xffffffffffffffffull, 1, 0, 1, "hs is unsigned >="},
    {"setp.ne.s16 %p, %a16, %b16", 'p', 0x10000, 0, 0, 0, "only the low 16 bits compare"},
    {"setp.eq.f32 %p, %af, %bf", 'p', 0x7fc00000, 0x7fc00000, 0, 0, "NaN == NaN is false"},
    {"setp.neu.f32 %p, %af, %bf", 'p', 0x7fc00000, 0x3f800000, 0, 1, "unordered !=: true with NaN"},
    {"setp.ne.f32 %p, %af, %bf", 'p', 0x7fc00000, 0x3f800000, 0, 0, "ordered !=: false with NaN"},
    {"setp.eq.f32 %p, %af, %bf", 'p', 0x80000000, 0, 0, 1, "-0 == +0"},
    {"setp.nan.f64 %p, %ad, %bd", 'p', 0x7ff8000000000000ull, 0, 0, 1, "nan test"},
    {"setp.num.f32 %p, %af, %bf", 'p', 0x3f800000, 0x7f800000, 0, 1, "inf is a number"},
    {"setp.lt.and.s32 %p, %a32, %b32, %p; setp.gt.or.s32 %p, %a32, %b32, %p", 'p', 1, 2, 0, 0,
     "p = (1<2) and p_old(0) = 0; then (1>2) or 0 = 0"},
    {"setp.lt.s32 %p, %a32, %b32; selp.b32 %d32, 11, 22, %p", 'w', 1, 2, 0, 11, "selp picks a when p"},
    {"slct.s32.s32 %d32, %a32, %b32, %c32", 'w', 5, 6, 0xffffffff, 6, "c < 0 selects b"},
    {"slct.f32.f32 %d32, %a32, %b32, %c32", 'w', 5, 6, 0x80000000, 5, "c = -0.0 counts as >= 0"},
    {"set.lt.u32.s32 %d32, %a32, %b32", 'w', 0xffffffff, 0, 0, 0xffffffff, "set gives all ones when true"},
    {"set.gt.f32.f32 %d32, %af, %bf", 'w', 0x40000000, 0x3f800000, 0, 0x3f800000, "f32 destination: 1.0"},
    /* conversions */
    {"cvt.rzi.s32.f32 %d32, %af", 'w', 0x501502f9, 0, 0, 0x7fffffff, "1e10 saturates to INT_MAX"},
    {"cvt.rzi.s32.f32 %d32, %af", 'w', 0x7fc00000, 0, 0, 0, "NaN converts to 0"},
    {"cvt.rni.s32.f32 %d32, %af", 'w', 0x40200000, 0, 0, 2, "2.5 rounds to even 2"},
    {"cvt.rni.s32.f32 %d32, %af", 'w', 0x40600000, 0, 0, 4, "3.5 rounds to even 4"},
    {"cvt.rmi.s32.f32 %d32, %af", 'w', 0xc0200000, 0, 0, 0xfffffffd, "-2.5 floors to -3"},
    {"cvt.rpi.s32.f64 %d32, %ad", 'w', 0xc004000000000000ull, 0, 0, 0xfffffffe, "-2.5 ceils to -2"},
    {"cvt.rzi.u32.f32 %d32, %af", 'w', 0xbf800000, 0, 0, 0, "-1.0 to unsigned saturates at 0"},
    {"cvt.u8.u32 %d32, %a32", 'w', 0x1234, 0, 0, 0x34, "truncation to 8 bits"},
    {"cvt.sat.u8.s32 %d32, %a32", 'w', 300, 0, 0, 255, "saturation to 8 bits"},
    {"cvt.sat.s8.s32 %d32, %a32", 'w', 0xffffff00, 0, 0, 0xffffff80, "-256 saturates to -128 (sign-extended result)"},
    {"cvt.s64.s32 %d64, %a32", 'q', 0xfffffffe, 0, 0, 0xfffffffffffffffeull, "sign extension"},
    {"cvt.u64.u32 %d64, %a32", 'q', 0xfffffffe, 0, 0, 0xfffffffeull, "zero extension"},
    {"cvt.u32.u16 %d32, %a16", 'w', 0xfffff234, 0, 0, 0xf234, "from the 16-bit register"},
    {"cvt.rn.f32.u64 %d32, %a64", 'w', 0xffffffffffffffffull, 0, 0, 0x5f800000, "2^64-1 rounds up to 2^64"},
    {"cvt.rz.f32.u64 %d32, %a64", 'w', 0xffffffffffffffffull, 0, 0, 0x5f7fffff, "toward zero: largest float below 2^64"},
    {"cvt.rn.f32.s32 %d32, %a32", 'w', 16777217, 0, 0, 0x4b800000, "2^24+1 ties to even 2^24"},
    {"cvt.rp.f32.s32 %d32, %a32", 'w', 16777217, 0, 0, 0x4b800001, "toward +inf: 2^24+2"},
    {"cvt.rn.f32.f64 %d32, %ad", 'w', 0x47f0000000000000ull, 0, 0, 0x7f800000, "2^128 overflows to inf"},
    {"cvt.rz.f32.f64 %d32, %ad", 'w', 0x47f0000000000000ull, 0, 0, 0x7f7fffff, "toward zero: FLT_MAX"},
    {"cvt.f64.f32 %d64, %af", 'q', 0x00000001, 0, 0, 0x36a0000000000000ull, "smallest f32 subnormal 2^-149 widens exactly"},
    {"cvt.ftz.f64.f32 %d64, %af", 'q', 0x80000001, 0, 0, 0x8000000000000000ull, "ftz: -subnormal to -0"},
    {"cvt.rn.f16.f32 %d16, %af", 'h', 0x477ff000, 0, 0, 0x7c00, "65520 rounds to inf in f16"},
    {"cvt.rn.f16.f32 %d16, %af", 'h', 0x477fe000, 0, 0, 0x7bff, "65504 is the f16 max"},
    {"cvt.f32.f16 %d32, %a16", 'w', 0x3c00, 0, 0, 0x3f800000, "f16 1.0"},
    {"cvt.rn.bf16.f32 %d16, %af", 'h', 0x3f808000, 0, 0, 0x3f80, "tie to even"},
    {"cvt.rn.bf16.f32 %d16, %af", 'h', 0x3f818000, 0, 0, 0x3f82, "tie to even, upward"},
    {"cvt.rni.f32.f32 %df, %af", 'f', 0x3fc00000, 0, 0, 0x40000000, "1.5 rounds to even 2.0"},
    {"cvt.sat.f32.f32 %df, %af", 'f', 0x40000000, 0, 0, 0x3f800000, "saturate 2.0 to 1.0"},
    {"cvt.sat.f32.f32 %df, %af", 'f', 0x7fc00000, 0, 0, 0, "saturate NaN to +0"},
    /* floating point */
    {"add.f32 %df, %af, %bf", 'f', 0x80000000, 0x80000000, 0, 0x80000000, "-0 + -0 = -0"},
    {"add.f32 %df, %af, %bf", 'f', 0x3f800000, 0xbf800000, 0, 0, "1 - 1 = +0 in round-to-nearest"},
    {"add.rm.f32 %df, %af, %bf", 'f', 0x3f800000, 0xbf800000, 0, 0x80000000, "1 - 1 = -0 rounding down"},
    {"add.f32 %df, %af, %bf", 'f', 0x7f800000, 0xff800000, 0, 0x7fffffff, "inf - inf: canonical NaN"},
    {"add.rz.f32 %df, %af, %bf", 'f', 0x3f800000, 0x33800000, 0, 0x3f800000, "1 + 2^-24 truncates to 1"},
    {"add.rp.f32 %df, %af, %bf", 'f', 0x3f800000, 0x33800000, 0, 0x3f800001, "1 + 2^-24 rounds up"},
    {"add.f32 %df, %af, %bf", 'f', 0x3f800000, 0x33800000, 0, 0x3f800000, "1 + 2^-24: tie to even"},
    {"mul.ftz.f32 %df, %af, %bf", 'f', 0x00400000, 0x40000000, 0, 0, "ftz: subnormal input flushed"},
    {"mul.f32 %df, %af, %bf", 'f', 0x00400000, 0x40000000, 0, 0x00800000, "without ftz: 2^-127 * 2 = 2^-126"},
    {"add.sat.f32 %df, %af, %bf", 'f', 0x3f800000, 0x3f800000, 0, 0x3f800000, "2.0 saturates to 1.0"},
    {"add.sat.f32 %df, %af, %bf", 'f', 0xbf800000, 0, 0, 0, "-1 saturates to +0"},
    {"fma.rn.f32 %df, %af, %bf, %cf", 'f', 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000,
     "(1+2^-23)^2 - (1+2^-22) = 2^-46 exactly only when fused"},
    {"div.rn.f32 %df, %af, %bf", 'f', 0x3f800000, 0x40400000, 0, 0x3eaaaaab, "1/3 rounded to nearest"},
    {"div.rz.f32 %df, %af, %bf", 'f', 0x3f800000, 0x40400000, 0, 0x3eaaaaaa, "1/3 truncated"},
    {"div.rn.f32 %df, %af, %bf", 'f', 0x3f800000, 0, 0, 0x7f800000, "1/0 = +inf"},
    {"div.rn.f32 %df, %af, %bf", 'f', 0, 0, 0, 0x7fffffff, "0/0 = canonical NaN"},
    {"sqrt.rn.f32 %df, %af", 'f', 0x40000000, 0, 0, 0x3fb504f3, "sqrt(2)"},
    {"sqrt.rn.f32 %df, %af", 'f', 0x80000000, 0, 0, 0x80000000, "sqrt(-0) = -0"},
    {"rcp.rn.f64 %dd, %ad", 'd', 0x4008000000000000ull, 0, 0, 0x3fd5555555555555ull, "1/3 in double"},
    {"div.rp.f64 %dd, %ad, %bd", 'd', 0x3ff0000000000000ull, 0x4008000000000000ull, 0, 0x3fd5555555555556ull, "1/3 rounded up"},
    {"sqrt.rz.f64 %dd, %ad", 'd', 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bccull, "sqrt(2) truncated"},
    {"min.f32 %df, %af, %bf", 'f', 0x7fc00000, 0x3f800000, 0, 0x3f800000, "a NaN loses to a number"},
    {"min.NaN.f32 %df, %af, %bf", 'f', 0x7fc00000, 0x3f800000, 0, 0x7fffffff, ".NaN propagates"},
    {"min.f32 %df, %af, %bf", 'f', 0x00000000, 0x80000000, 0, 0x80000000, "-0 is less than +0"},
    {"max.f32 %df, %af, %bf", 'f', 0x80000000, 0x00000000, 0, 0x00000000, "+0 is greater than -0"},
    {"max.f64 %dd, %ad, %bd", 'd', 0xfff0000000000000ull, 0x7ff8000000000000ull, 0, 0xfff0000000000000ull, "-inf vs NaN: the number"},
    {"abs.f32 %df, %af", 'f', 0x80000000, 0, 0, 0, "|-0| = +0"},
    {"neg.f64 %dd, %ad", 'd', 0, 0, 0, 0x8000000000000000ull, "-(+0) = -0"},
    {"copysign.f32 %df, %af, %bf", 'f', 0x80000000, 0x40000000, 0, 0xc0000000, "b with the sign of a"},
    {"testp.finite.f32 %p, %af", 'p', 0x7f800000, 0, 0, 0, "inf is not finite"},
    {"testp.subnormal.f64 %p, %ad", 'p', 1, 0, 0, 1, "smallest subnormal"},
    {"testp.notanumber.f32 %p, %af", 'p', 0x7fc00000, 0, 0, 1, "NaN"},
    {"testp.normal.f32 %p, %af", 'p', 0, 0, 0, 1, "the PTX ISA counts +-0 as normal"},
    {"testp.normal.f32 %p, %af", 'p', 1, 0, 0, 0, "a subnormal is not normal"},
};

static const char *tmpl_head =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry t(.param .u64 pin, .param .u64 pout)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b16 %a16, %b16, %c16, %d16;\n"
    "  .reg .b32 %a32, %b32, %c32, %d32;\n"
    "  .reg .b64 %a64, %b64, %c64, %d64, %in, %out;\n"
    "  .reg .f32 %af, %bf, %cf, %df;\n"
    "  .reg .f64 %ad, %bd, %cd, %dd;\n"
    "  ld.param.u64 %in, [pin];\n"
    "  ld.param.u64 %out, [pout];\n"
    "  ld.global.u64 %a64, [%in];\n"
    "  ld.global.u64 %b64, [%in+8];\n"
    "  ld.global.u64 %c64, [%in+16];\n"
    "  cvt.u32.u64 %a32, %a64; cvt.u32.u64 %b32, %b64; cvt.u32.u64 %c32, %c64;\n"
    "  cvt.u16.u64 %a16, %a64; cvt.u16.u64 %b16, %b64; cvt.u16.u64 %c16, %c64;\n"
    "  mov.b32 %af, %a32; mov.b32 %bf, %b32; mov.b32 %cf, %c32;\n"
    "  mov.b64 %ad, %a64; mov.b64 %bd, %b64; mov.b64 %cd, %c64;\n"
    "  mov.u64 %d64, 0; mov.u32 %d32, 0; mov.u16 %d16, 0;\n"
    "  setp.ne.u32 %p, 0, 0;\n";

static void t_ops(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    uint64_t in = exec_mem_alloc(d, 24, 256), out = exec_mem_alloc(d, 8, 256);
    uint64_t *pin = exec_mem_host(d, in, 24), *pout = exec_mem_host(d, out, 8);
    for (size_t i = 0; i < TP_ARRAY_LEN(cases); i++) {
        const op_case *c = &cases[i];
        tp_sbuf b;
        tp_sbuf_init(&b);
        tp_sbuf_puts(&b, tmpl_head);
        tp_sbuf_printf(&b, "  %s;\n", c->insn);
        switch (c->res) {
        case 'h': tp_sbuf_puts(&b, "  cvt.u64.u16 %d64, %d16;\n"); break;
        case 'w': tp_sbuf_puts(&b, "  cvt.u64.u32 %d64, %d32;\n"); break;
        case 'f': tp_sbuf_puts(&b, "  mov.b32 %d32, %df;\n  cvt.u64.u32 %d64, %d32;\n"); break;
        case 'd': tp_sbuf_puts(&b, "  mov.b64 %d64, %dd;\n"); break;
        case 'p': tp_sbuf_puts(&b, "  selp.u64 %d64, 1, 0, %p;\n"); break;
        default: break;
        }
        tp_sbuf_puts(&b, "  st.global.u64 [%out], %d64;\n  ret;\n}\n");
        exec_mod *m = exec_rig_load(d, tp_sbuf_str(&b), "op.ptx");
        if (!m) {
            TT_CHECK(m != NULL);
            printf("    case '%s'\n", c->insn);
            tp_sbuf_free(&b);
            continue;
        }
        pin[0] = c->a;
        pin[1] = c->b;
        pin[2] = c->c;
        *pout = 0xdeadbeefdeadbeefull;
        uint64_t params[2] = {in, out};
        TT_EQ_I(exec_rig_launch(m, "t", 1, 1, params, sizeof params, NULL), EXEC_OK);
        if (*pout != c->want) {
            TT_EQ_U(*pout, c->want);
            printf("    case '%s' (%s)\n", c->insn, c->why);
        }
        exec_mod_unload(m);
        tp_sbuf_free(&b);
    }
    exec_dev_destroy(d);
}

int main(void)
{
    TT_RUN(t_ops);
    return tt_done();
}
