/*
** kt.h -- the kernel suite's host runner: a plain C11 driver-API program
** that loads tpsim's own test kernels (the .ptx files of tests/kernels,
** made by nvcc from the .cu files beside them), runs them and checks every
** result against a CPU reference.  Module prefix: kt_; the driver calls,
** buffers and integer comparisons are tests/harness's (th_).
**
** A test is a row of a table (kt_test): a name, a run function and flags.
** The run function gets a th_ctx holding a fresh context; it allocates
** through th_alloc/th_upload (freed at the end), loads modules through
** th_module (unloaded at the end), launches (th_launch, KT_LAUNCH1), copies
** back, computes the reference and compares with th_check_u* and the
** kt_cmp_* helpers, which name the first mismatch: index, got and expected,
** as hex bits.  It returns KT_PASS, or th_fail(...)/th_skip(...).
**
** Rules every reference follows:
**   - integers, f64 and correctly rounded f32 results are compared bit for
**     bit; a NaN matches any NaN (PTX gives canonical NaNs; the payload is
**     not what these tests are about), unless a test says otherwise;
**   - approximate functions are checked against the error bound the PTX ISA
**     (or the CUDA programming guide for the intrinsic) documents, stated in
**     the test;
**   - the reference never relies on undefined C behaviour (INT_MIN / -1,
**     shifts past the width, signed overflow): it spells the PTX rule out.
*/
#ifndef KT_H
#define KT_H

#include "harness.h"

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* A test's result (the harness's: th_fail gives KT_FAIL, th_skip KT_SKIP). */
typedef enum kt_res { KT_PASS = TH_OK, KT_FAIL = TH_FAIL, KT_SKIP = TH_SKIP } kt_res;

enum {
    KT_ISOLATE = 1u << 0, /* poisons its context: runs only with --only, in its own process */
    KT_STDOUT = 1u << 1,  /* its device printf output is checked by run_kernels.sh */
};

typedef struct kt_test {
    const char *name;
    kt_res (*run)(th_ctx *c);
    unsigned flags;
} kt_test;

/* The tables, one per area, each ending with a {0} row. */
extern const kt_test kt_tests_int[];
extern const kt_test kt_tests_float[];
extern const kt_test kt_tests_half[];
extern const kt_test kt_tests_mem[];
extern const kt_test kt_tests_warp[];
extern const kt_test kt_tests_ctrl[];
extern const kt_test kt_tests_err[];

/* A 1-D launch of f with the arguments given, then cuCtxSynchronize. */
#define KT_LAUNCH1(f, grid, block, ...)                                        \
    do {                                                                       \
        void *kt_p_[] = {__VA_ARGS__};                                         \
        TH_TRY(th_launch(c, (f), (grid), 1, 1, (block), 1, 1, 0, kt_p_));      \
    } while (0)

/* ---- deterministic data -------------------------------------------------- */
typedef struct kt_rng { uint64_t s; } kt_rng;
void kt_seed(kt_rng *r, uint64_t seed);
uint64_t kt_next(kt_rng *r);
uint32_t kt_u32(kt_rng *r);
/* Uniform in [0, n). */
uint32_t kt_below(kt_rng *r, uint32_t n);
/* Random f32 bits spread over every exponent, both signs, with NaN, Inf,
** zeros, subnormals and integers mixed in (about 1 in 8 special). */
uint32_t kt_f32_bits(kt_rng *r);
uint64_t kt_f64_bits(kt_rng *r);
/* A random float in [lo, hi). */
float kt_f32_range(kt_rng *r, float lo, float hi);

/* ---- bits ---------------------------------------------------------------- */
uint32_t kt_fbits(float f);
float kt_bitsf(uint32_t u);
uint64_t kt_dbits(double d);
double kt_bitsd(uint64_t u);
bool kt_isnan32(uint32_t u);
bool kt_isnan64(uint64_t u);

/* ---- comparisons: report the first mismatch (integers: th_check_u*) ---- */
/* f32/f64 bits: equal, or both NaN. */
kt_res kt_cmp_f32(th_ctx *c, const char *what, const uint32_t *got, const uint32_t *exp, size_t n);
kt_res kt_cmp_f64(th_ctx *c, const char *what, const uint64_t *got, const uint64_t *exp, size_t n);
/* Same, with a per-element input shown in the message (in[i], as hex). */
kt_res kt_cmp_f32_in(th_ctx *c, const char *what, const uint32_t *got, const uint32_t *exp,
                     const uint32_t *in, size_t n);

/* ---- host floating point in a chosen rounding mode ---------------------- */
/* Modes, numbered as the CUDA suffixes: rn rz rd(down) ru(up). */
enum { KT_RN = 0, KT_RZ, KT_RD, KT_RU };
/* The arithmetic ones compute one IEEE operation with the host FPU switched
** to mode; the operands pass through volatile objects so the compiler cannot
** fold or move the operation out of the mode's scope.  The conversions round
** in software (kt_round). */
float kt_fadd(float a, float b, int mode);
float kt_fsub(float a, float b, int mode);
float kt_fmul(float a, float b, int mode);
float kt_fdiv(float a, float b, int mode);
float kt_fsqrt(float a, int mode);
float kt_ffma(float a, float b, float d, int mode);
double kt_dadd(double a, double b, int mode);
double kt_dmul(double a, double b, int mode);
double kt_ddiv(double a, double b, int mode);
double kt_dsqrt(double a, int mode);
double kt_dfma(double a, double b, double d, int mode);
float kt_d2f(double a, int mode);
float kt_i2f(int64_t a, int mode);   /* int64 -> f32 */
float kt_u2f(uint64_t a, int mode);  /* uint64 -> f32 */
double kt_i2d(int64_t a, int mode);
double kt_u2d(uint64_t a, int mode);
/* True if the host honours directed rounding (checked once at start). */
bool kt_fenv_works(void);

/* ---- PTX integer rules ----------------------------------------------------- */
/* cvt.{rni,rzi,rmi,rpi}.{s,u}{16,32,64}.{f16,f32,f64}: round x to an
** integer with mode, clamp to the destination range; NaN gives 0, except
** that for an f64 source or a 64-bit destination it gives 1 << (bits - 1)
** (PTX ISA, cvt).  The result is returned at its width, zero-extended. */
uint64_t kt_cvt_f2i(double x, int mode, int bits, bool is_signed, bool src_f64);

/* ---- exact rounding into binary formats (kt_fmt.c) ---------------------
** A value m * 2^e is rounded into f16, bf16, f32 or f64 precision: used
** where the host has no native type (f16, bf16), where the exact value of an
** operation is known as an integer (half-precision fma), and for the
** host-side conversions. */
typedef struct kt_fmt {
    int p;      /* significand bits, hidden bit included */
    int ebits;  /* exponent field bits */
} kt_fmt;

extern const kt_fmt KT_F16, KT_BF16, KT_F32, KT_F64;

/* A finite value decoded exactly: (-1)^neg * mag * 2^e. */
typedef struct kt_num {
    int neg;
    unsigned __int128 mag;
    int e;
} kt_num;

/* Classes of a decoded format value. */
enum { KT_FINITE = 0, KT_INF, KT_NAN };

/* Decodes the bits of a value of format f; returns its class. */
int kt_decode(uint64_t bits, kt_fmt f, kt_num *x);
/* Rounds the exact value x (mag may be 0: a zero of x.neg's sign) into
** format f with mode (KT_RN...KT_RU); returns the bits.  Overflow gives
** infinity or the largest finite value as IEEE 754 says for the mode. */
uint64_t kt_round(kt_num x, kt_fmt f, int mode);
/* Exact sum x + y (signs honoured; a zero sum is +0 except in KT_RD, where it
** is -0, or when both are zeros of the same sign). Returned unrounded.  The
** caller keeps the exponents of the nonzero operands within about 100 of
** each other, so the aligned sum fits 128 bits. */
kt_num kt_exact_add(kt_num x, kt_num y, int mode);
kt_num kt_exact_mul(kt_num x, kt_num y);
/* The value as a double (exact when it fits). */
double kt_num_double(kt_num x);
/* Canonical NaN / infinity bits of format f. */
uint64_t kt_fmt_nan(kt_fmt f);
uint64_t kt_fmt_inf(kt_fmt f, int neg);

#endif
