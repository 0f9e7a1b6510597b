/*
** test_exec_fp.c -- the functional model's inline floating-point fast paths
** (round-to-nearest f32/f64 add, sub, mul, fma -- the handlers compiled for
** AVX2/FMA3 hosts and the portable ones --, f64 div, cvt fast paths) must
** give exactly the bits of exec/num.h, which tests/unit/test_num_*.c check
** against independent references.  Inputs: special values (zeros, infinities,
** NaNs with payloads, subnormals, extremes) crossed with each other, plus
** pseudo-random bit patterns.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include "exec/num.h"
#include "exec/internal.h"
#include <stdlib.h>

/* out[i*K + k] = op_k(a[i], b[i], c[i]) for each op k. */
static const char *fp_ptx = HDR
    ".visible .entry f32ops(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<12>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pc]; ld.param.u64 %rd4, [po];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd1, %rd5; ld.global.f32 %f1, [%rd6];\n"
    "  add.s64 %rd6, %rd2, %rd5; ld.global.f32 %f2, [%rd6];\n"
    "  add.s64 %rd6, %rd3, %rd5; ld.global.f32 %f3, [%rd6];\n"
    "  add.f32 %f4, %f1, %f2;\n"
    "  sub.f32 %f5, %f1, %f2;\n"
    "  mul.f32 %f6, %f1, %f2;\n"
    "  fma.rn.f32 %f7, %f1, %f2, %f3;\n"
    "  add.rn.f32 %f8, %f1, %f3;\n"
    "  mul.wide.u32 %rd7, %r1, 20;\n"
    "  add.s64 %rd8, %rd4, %rd7;\n"
    "  st.global.f32 [%rd8], %f4; st.global.f32 [%rd8+4], %f5; st.global.f32 [%rd8+8], %f6;\n"
    "  st.global.f32 [%rd8+12], %f7; st.global.f32 [%rd8+16], %f8;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry f64ops(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f64 %fd<12>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pc]; ld.param.u64 %rd4, [po];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd5, %r1, 8;\n"
    "  add.s64 %rd6, %rd1, %rd5; ld.global.f64 %fd1, [%rd6];\n"
    "  add.s64 %rd6, %rd2, %rd5; ld.global.f64 %fd2, [%rd6];\n"
    "  add.s64 %rd6, %rd3, %rd5; ld.global.f64 %fd3, [%rd6];\n"
    "  add.f64 %fd4, %fd1, %fd2;\n"
    "  sub.f64 %fd5, %fd1, %fd2;\n"
    "  mul.f64 %fd6, %fd1, %fd2;\n"
    "  fma.rn.f64 %fd7, %fd1, %fd2, %fd3;\n"
    "  div.rn.f64 %fd8, %fd1, %fd2;\n"
    "  mul.wide.u32 %rd7, %r1, 40;\n"
    "  add.s64 %rd8, %rd4, %rd7;\n"
    "  st.global.f64 [%rd8], %fd4; st.global.f64 [%rd8+8], %fd5; st.global.f64 [%rd8+16], %fd6;\n"
    "  st.global.f64 [%rd8+24], %fd7; st.global.f64 [%rd8+32], %fd8;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry cvtops(.param .u64 pa, .param .u64 po)\n"
    "{\n"
    "  .reg .b32 %r<6>; .reg .f32 %f<4>; .reg .f64 %fd<4>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd4, [po];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd1, %rd5; ld.global.u32 %r4, [%rd6];\n"
    "  mov.b32 %f1, %r4;\n"
    "  cvt.rn.f32.s32 %f2, %r4;\n"
    "  cvt.f64.f32 %fd1, %f1;\n"
    "  mul.wide.u32 %rd7, %r1, 16;\n"
    "  add.s64 %rd8, %rd4, %rd7;\n"
    "  st.global.f32 [%rd8], %f2; st.global.f64 [%rd8+8], %fd1;\n"
    "  ret;\n"
    "}\n";

static const uint32_t sp32[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
    0x7f800001, 0x7fa00000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
    0x33800000, 0x4b800000, 0x3effffff, 0x40490fdb,
};
static const uint64_t sp64[] = {
    0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000001ull,
    0x7ff4000000000000ull, 0x0000000000000001ull, 0x8000000000000001ull, 0x000fffffffffffffull,
    0x0010000000000000ull, 0x7fefffffffffffffull, 0x3ca0000000000000ull, 0x400921fb54442d18ull,
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

enum { N = 4096 };

static exec_dev *dev;
static exec_mod *mod;

static void launch(const char *k, uint64_t *params, uint32_t np)
{
    TT_EQ_I(exec_rig_launch(mod, k, N / 128, 128, params, np * 8, NULL), EXEC_OK);
}

static void t_f32_fast_paths(void)
{
    uint64_t a = exec_mem_alloc(dev, N * 4, 256), b = exec_mem_alloc(dev, N * 4, 256), c = exec_mem_alloc(dev, N * 4, 256),
             o = exec_mem_alloc(dev, N * 20, 256);
    uint32_t *pa = exec_mem_host(dev, a, N * 4), *pb = exec_mem_host(dev, b, N * 4), *pc = exec_mem_host(dev, c, N * 4);
    uint32_t ns = TP_ARRAY_LEN(sp32);
    for (uint32_t i = 0; i < N; i++) {
        if (i < ns * ns) {
            pa[i] = sp32[i / ns];
            pb[i] = sp32[i % ns];
            pc[i] = sp32[(i * 7) % ns];
        } else {
            pa[i] = (uint32_t)rnd64();
            pb[i] = (uint32_t)rnd64();
            pc[i] = (uint32_t)rnd64();
            if (i % 3 == 0) pb[i] = (pb[i] & 0x807fffff) | (pa[i] & 0x7f800000); /* near exponents: cancellation */
        }
    }
    uint64_t params[4] = {a, b, c, o};
    launch("f32ops", params, 4);
    uint32_t *po = exec_mem_host(dev, o, N * 20);
    int bad = 0;
    for (uint32_t i = 0; i < N && bad < 5; i++) {
        uint32_t want[5] = {num_add_f32(pa[i], pb[i], PTX_RND_RN, 0), num_sub_f32(pa[i], pb[i], PTX_RND_RN, 0),
                            num_mul_f32(pa[i], pb[i], PTX_RND_RN, 0), num_fma_f32(pa[i], pb[i], pc[i], PTX_RND_RN, 0),
                            num_add_f32(pa[i], pc[i], PTX_RND_RN, 0)};
        for (int k = 0; k < 5; k++)
            if (po[i * 5 + k] != want[k]) {
                bad++;
                TT_EQ_U(po[i * 5 + k], want[k]);
                printf("    op %d a=%08x b=%08x c=%08x\n", k, pa[i], pb[i], pc[i]);
            }
    }
    TT_EQ_I(bad, 0);
}

static void t_f64_fast_paths(void)
{
    uint64_t a = exec_mem_alloc(dev, N * 8, 256), b = exec_mem_alloc(dev, N * 8, 256), c = exec_mem_alloc(dev, N * 8, 256),
             o = exec_mem_alloc(dev, N * 40, 256);
    uint64_t *pa = exec_mem_host(dev, a, N * 8), *pb = exec_mem_host(dev, b, N * 8), *pc = exec_mem_host(dev, c, N * 8);
    uint32_t ns = TP_ARRAY_LEN(sp64);
    for (uint32_t i = 0; i < N; i++) {
        if (i < ns * ns) {
            pa[i] = sp64[i / ns];
            pb[i] = sp64[i % ns];
            pc[i] = sp64[(i * 5) % ns];
        } else {
            pa[i] = rnd64();
            pb[i] = rnd64();
            pc[i] = rnd64();
        }
    }
    uint64_t params[4] = {a, b, c, o};
    launch("f64ops", params, 4);
    uint64_t *po = exec_mem_host(dev, o, N * 40);
    int bad = 0;
    for (uint32_t i = 0; i < N && bad < 5; i++) {
        uint64_t want[5] = {num_add_f64(pa[i], pb[i], PTX_RND_RN, 0), num_sub_f64(pa[i], pb[i], PTX_RND_RN, 0),
                            num_mul_f64(pa[i], pb[i], PTX_RND_RN, 0), num_fma_f64(pa[i], pb[i], pc[i], PTX_RND_RN, 0),
                            num_div_f64(pa[i], pb[i], PTX_RND_RN, 0)};
        for (int k = 0; k < 5; k++)
            if (po[i * 5 + k] != want[k]) {
                bad++;
                TT_EQ_U(po[i * 5 + k], want[k]);
                printf("    op %d a=%016llx b=%016llx c=%016llx\n", k, (unsigned long long)pa[i],
                       (unsigned long long)pb[i], (unsigned long long)pc[i]);
            }
    }
    TT_EQ_I(bad, 0);
}

static void t_cvt_fast_paths(void)
{
    uint64_t a = exec_mem_alloc(dev, N * 4, 256), o = exec_mem_alloc(dev, N * 16, 256);
    uint32_t *pa = exec_mem_host(dev, a, N * 4);
    uint32_t ns = TP_ARRAY_LEN(sp32);
    for (uint32_t i = 0; i < N; i++) pa[i] = i < ns ? sp32[i] : (uint32_t)rnd64();
    uint64_t params[2] = {a, o};
    launch("cvtops", params, 2);
    uint8_t *po = exec_mem_host(dev, o, N * 16);
    int bad = 0;
    for (uint32_t i = 0; i < N && bad < 5; i++) {
        uint32_t f;
        uint64_t d;
        memcpy(&f, po + i * 16, 4);
        memcpy(&d, po + i * 16 + 8, 8);
        uint32_t wf = (uint32_t)num_cvt(pa[i], PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0);
        uint64_t wd = num_cvt(pa[i], PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0);
        if (f != wf || d != wd) {
            bad++;
            TT_EQ_U(f, wf);
            TT_EQ_U(d, wd);
            printf("    a=%08x\n", pa[i]);
        }
    }
    TT_EQ_I(bad, 0);
}

/* exec.contract=1 (ptx/contract.c, as ptxas -fmad=true): a mul.f32 feeding
** add/sub.f32, none with a rounding modifier, is one fma even across blocks
** (the product computed before a branch, the sums after it); .rn on either
** keeps them apart, as does a product register written twice.  With
** a = b = 1 + 2^-12 and c = 1: a*b = 1 + 2^-11 + 2^-24 exactly, a tie that
** rounds to 1 + 2^-11, so the separate a*b - c is 2^-11 and the fused one
** 2^-11 + 2^-24; c - a*b likewise -(2^-11 + 2^-24) fused; a*b + c fused is
** 2 + 2^-11 + 2^-24, which f32 rounds to 2 + 2^-11 either way. */
static const char *contract_ptx = HDR
    ".visible .entry k(.param .u64 out, .param .f32 a, .param .f32 c, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .f32 %f<12>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [c]; ld.param.u32 %r1, [n];\n"
    "  mul.f32 %f3, %f1, %f1;\n"
    "  mul.rn.f32 %f9, %f1, %f1;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  sub.f32 %f4, %f3, %f2;\n"
    "  sub.f32 %f5, %f2, %f3;\n"
    "  add.f32 %f6, %f3, %f2;\n"
    "  sub.rn.f32 %f7, %f3, %f2;\n"
    "  sub.f32 %f8, %f9, %f2;\n"
    "  st.global.f32 [%rd1], %f4; st.global.f32 [%rd1+4], %f5; st.global.f32 [%rd1+8], %f6;\n"
    "  st.global.f32 [%rd1+12], %f7; st.global.f32 [%rd1+16], %f8;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    /* k2: the multiply's operand is written between it and the sub (a
    ** loop-carried register updated in place): contracting would read the new
    ** value, so the pair stays apart: out = (a*a) - c, then a becomes a + c */
    ".visible .entry k2(.param .u64 out, .param .f32 a, .param .f32 c, .param .u32 n)\n"
    "{\n"
    "  .reg .f32 %f<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [c];\n"
    "  mul.f32 %f3, %f1, %f1;\n"
    "  add.f32 %f1, %f1, %f2;\n"
    "  sub.f32 %f4, %f3, %f2;\n"
    "  st.global.f32 [%rd1], %f4; st.global.f32 [%rd1+4], %f1;\n"
    "  ret;\n"
    "}\n"
    /* k3: the operand is written once, but inside a loop: the multiply runs
    ** in iteration 1 only (x = 1 + 2^-12), the sub after the loop, when x is
    ** 1 + 3 * 2^-12; contracting would use the later x, so the pair stays
    ** apart: out = x1*x1 - c, rounded twice, 2^-11 */
    ".visible .entry k3(.param .u64 out, .param .f32 a, .param .f32 c, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.f32 %f2, [c];\n"
    "  mov.u32 %r1, 0;\n"
    "LOOP:\n"
    "  cvt.rn.f32.u32 %f4, %r1;\n"
    "  fma.rn.f32 %f5, %f4, 0f39800000, 0f3F800000;\n"
    "  setp.ne.u32 %p1, %r1, 1;\n"
    "  @%p1 bra SKIP;\n"
    "  mul.f32 %f3, %f5, %f5;\n"
    "SKIP:\n"
    "  add.u32 %r1, %r1, 1;\n"
    "  setp.lt.u32 %p2, %r1, 4;\n"
    "  @%p2 bra LOOP;\n"
    "  sub.f32 %f6, %f3, %f2;\n"
    "  st.global.f32 [%rd1], %f6;\n"
    "  ret;\n"
    "}\n";

static void t_contract(void)
{
    const float a = 1.0f + 0x1p-12f, c = 1.0f;
    const float fused = 0x1p-11f + 0x1p-24f, plain = 0x1p-11f;
    for (int on = 0; on < 2; on++) {
        exec_dev *d = exec_rig_dev(on ? "exec.contract=1" : NULL);
        exec_mod *m = exec_rig_load(d, contract_ptx, "contract.ptx");
        if (!m) return;
        uint64_t out = exec_mem_alloc(d, 32, 256);
        struct { uint64_t out; float a, c; uint32_t n; } pr = {out, a, c, 1};
        exec_result r;
        float got[5];
        /* one thread, then a full warp (every lane stores the same values:
        ** the AVX2 handlers' full-warp path, with the negated operands) */
        for (uint32_t threads = 1; threads <= 32; threads += 31) {
            memset(exec_mem_host(d, out, sizeof got), 0, sizeof got);
            TT_EQ_I(exec_rig_launch(m, "k", 1, threads, &pr, sizeof pr, &r), EXEC_OK);
            memcpy(got, exec_mem_host(d, out, sizeof got), sizeof got);
            TT_CHECK(got[0] == (on ? fused : plain));   /* a*b - c */
            TT_CHECK(got[1] == (on ? -fused : -plain)); /* c - a*b */
            TT_CHECK(got[2] == 2.0f + 0x1p-11f);        /* a*b + c: the same either way */
            TT_CHECK(got[3] == plain);                  /* sub.rn: never contracted */
            TT_CHECK(got[4] == plain);                  /* mul.rn: never contracted */
        }
        TT_EQ_I(exec_rig_launch(m, "k2", 1, 1, &pr, sizeof pr, &r), EXEC_OK);
        memcpy(got, exec_mem_host(d, out, 8), 8);
        TT_CHECK(got[0] == plain);                  /* the operand changed in between: apart */
        TT_CHECK(got[1] == a + c);
        TT_EQ_I(exec_rig_launch(m, "k3", 1, 1, &pr, sizeof pr, &r), EXEC_OK);
        memcpy(got, exec_mem_host(d, out, 4), 4);
        TT_CHECK(got[0] == plain);                  /* written once, but in a loop: apart */
        exec_mod_unload(m);
        exec_dev_destroy(d);
    }
}

/* The same checks on the portable handlers (exec_host_portable, main). */
static void t_f32_portable(void) { t_f32_fast_paths(); }
static void t_f64_portable(void) { t_f64_fast_paths(); }

int main(void)
{
    dev = exec_rig_dev(NULL);
    mod = exec_rig_load(dev, fp_ptx, "fp.ptx");
    if (!mod) {
        printf("FAIL setup: fp.ptx\n");
        return 1;
    }
    TT_RUN(t_f32_fast_paths);
    TT_RUN(t_f64_fast_paths);
    TT_RUN(t_cvt_fast_paths);
    TT_RUN(t_contract);
    exec_mod_unload(mod);
    /* once more with the portable handlers (on an AVX2/FMA3 host the runs
    ** above took the ones compiled for it: exec/sem_fp.c) */
    exec_host_portable(true);
    mod = exec_rig_load(dev, fp_ptx, "fp.ptx");
    if (!mod) {
        printf("FAIL setup: fp.ptx (portable handlers)\n");
        return 1;
    }
    TT_RUN(t_f32_portable);
    TT_RUN(t_f64_portable);
    exec_mod_unload(mod);
    exec_host_portable(false);
    exec_dev_destroy(dev);
    return tt_done();
}
