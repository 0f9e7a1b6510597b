/*
** test_exec_mem.c -- the functional model's dense loads and stores
** (exec/sem_mem.c: a full warp whose lanes form four runs of eight
** consecutive 4- or 8-byte elements moves them a run at a time on AVX2
** hosts) must do what the lane-by-lane path does, for every pattern of
** addresses a warp can have: one run of 32, two rows of 16, four rows of 8
** in any order, runs that overlap (the later lanes' stores win), groups of
** lanes on one element (a load reads it once; a store is lane by lane),
** the patterns that are not dense (a stride of two, reversed lanes, pairs); and
** vector loads (v2, v4, with sinks, sign-extended), which take a path of
** their own when every lane is aligned inside one window.
**
** Each pattern runs three ways: on a plain device (the runs found from the
** base register), with check.sync on (the checks need every lane's
** address, so the runs are found from those) and with the portable
** handlers (lane by lane); every result is held against C's own
** computation of the same accesses.  An access that runs past the end of
** its allocation must stop the kernel with the same report all three ways.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include "exec/internal.h"

/* per thread t: i = ri[t], o = ro[t]; out32[o] = in32[i] (u32),
** out64[o] = in64[i] (u64), outs[o] = in32[i] sign-extended (ld.s32 into a
** 64-bit register) */
static const char *glob_ptx = HDR
    ".visible .entry glob(.param .u64 pri, .param .u64 pro, .param .u64 pin32, .param .u64 pin64,\n"
    "                     .param .u64 po32, .param .u64 po64, .param .u64 pos)\n"
    "{\n"
    "  .reg .b32 %r<10>; .reg .b64 %rd<30>;\n"
    "  ld.param.u64 %rd1, [pri]; ld.param.u64 %rd2, [pro]; ld.param.u64 %rd3, [pin32]; ld.param.u64 %rd4, [pin64];\n"
    "  ld.param.u64 %rd5, [po32]; ld.param.u64 %rd6, [po64]; ld.param.u64 %rd7, [pos];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd8, %r1, 4;\n"
    "  add.s64 %rd9, %rd1, %rd8; ld.global.u32 %r4, [%rd9];\n"
    "  add.s64 %rd9, %rd2, %rd8; ld.global.u32 %r5, [%rd9];\n"
    "  mul.wide.u32 %rd10, %r4, 4; mul.wide.u32 %rd11, %r4, 8;\n"
    "  mul.wide.u32 %rd12, %r5, 4; mul.wide.u32 %rd13, %r5, 8;\n"
    "  add.s64 %rd14, %rd3, %rd10; ld.global.u32 %r6, [%rd14]; ld.global.s32 %rd20, [%rd14];\n"
    "  add.s64 %rd15, %rd4, %rd11; ld.global.u64 %rd21, [%rd15];\n"
    "  add.s64 %rd16, %rd5, %rd12; st.global.u32 [%rd16], %r6;\n"
    "  add.s64 %rd17, %rd6, %rd13; st.global.u64 [%rd17], %rd21;\n"
    "  add.s64 %rd18, %rd7, %rd13; st.global.u64 [%rd18], %rd20;\n"
    "  ret;\n"
    "}\n"
    /* per CTA of 128: sh[ro[t] mod 128 ... as a 32-bit shared address] = t * 7 + 1,
    ** then out[t] = sh[ri[t] mod 128] (every word is written first: the
    ** indices given here are all below 128 and cover it) */
    ".visible .entry shar(.param .u64 pri, .param .u64 pro, .param .u64 pout)\n"
    "{\n"
    "  .reg .b32 %r<12>; .reg .b64 %rd<12>; .shared .align 4 .b32 sh[160];\n"
    "  ld.param.u64 %rd1, [pri]; ld.param.u64 %rd2, [pro]; ld.param.u64 %rd3, [pout];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4; ld.global.u32 %r4, [%rd5];\n"
    "  add.s64 %rd5, %rd2, %rd4; ld.global.u32 %r5, [%rd5];\n"
    "  mov.u32 %r6, sh;\n"
    "  shl.b32 %r7, %r5, 2; add.u32 %r7, %r6, %r7; mad.lo.u32 %r8, %r1, 7, 1; st.shared.u32 [%r7], %r8;\n"
    "  bar.sync 0;\n"
    "  shl.b32 %r9, %r4, 2; add.u32 %r9, %r6, %r9; ld.shared.u32 %r10, [%r9];\n"
    "  add.s64 %rd6, %rd3, %rd4; st.global.u32 [%rd6], %r10;\n"
    "  ret;\n"
    "}\n"
    /* vector loads (ld.v4.u32 of a 16-lane broadcast, ld.v2.u64 and ld.v4.u32
    ** with sinks per lane, ld.v2.s32 into 64-bit registers): per thread t,
    ** out[8t ..] = the elements read */
    ".visible .entry vecld(.param .u64 pin, .param .u64 pout)\n"
    "{\n"
    "  .reg .b32 %r<16>; .reg .b64 %rd<20>;\n"
    "  ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  shr.u32 %r2, %r1, 4; mul.wide.u32 %rd3, %r2, 16; add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd4];\n"
    "  mul.wide.u32 %rd5, %r1, 16; add.s64 %rd6, %rd1, %rd5;\n"
    "  ld.global.v2.u64 {%rd7, %rd8}, [%rd6];\n"
    "  ld.global.v4.u32 {%r8, _, %r9, _}, [%rd6];\n"
    "  ld.global.v2.s32 {%rd9, %rd10}, [%rd6+8];\n"
    "  mul.wide.u32 %rd11, %r1, 64; add.s64 %rd12, %rd2, %rd11;\n"
    "  st.global.u32 [%rd12], %r4; st.global.u32 [%rd12+4], %r5; st.global.u32 [%rd12+8], %r6; st.global.u32 [%rd12+12], %r7;\n"
    "  st.global.u64 [%rd12+16], %rd7; st.global.u64 [%rd12+24], %rd8;\n"
    "  st.global.u32 [%rd12+32], %r8; st.global.u32 [%rd12+36], %r9;\n"
    "  st.global.u64 [%rd12+40], %rd9; st.global.u64 [%rd12+48], %rd10;\n"
    "  ret;\n"
    "}\n"
    /* vector stores: thread t reads the 16 bytes in[t] (as four u32 a..d and
    ** as two u64 x, y) and, with j = ri[t] (a 16-byte unit), writes
    ** o4[j] = {a, b, c, d}, o8[j] = {x, y} and the 8-byte unit o2[j] = {c, a};
    ** in shared memory (512 units, zeroed first: thread u of the CTA zeroes
    ** units u, u + 128, u + 256, u + 384) the unit (j mod 512) = {d, c, b, a};
    ** after a barrier, thread u copies those four units to os[512 ctaid + u +
    ** 128 k] */
    ".visible .entry vecst(.param .u64 pri, .param .u64 pin, .param .u64 po4, .param .u64 po8,\n"
    "                      .param .u64 po2, .param .u64 pos)\n"
    "{\n"
    "  .reg .b32 %r<24>; .reg .b64 %rd<30>; .shared .align 16 .b8 sv[8192];\n"
    "  ld.param.u64 %rd1, [pri]; ld.param.u64 %rd2, [pin]; ld.param.u64 %rd3, [po4]; ld.param.u64 %rd4, [po8];\n"
    "  ld.param.u64 %rd5, [po2]; ld.param.u64 %rd7, [pos];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  mov.u32 %r9, sv; shl.b32 %r16, %r3, 4; add.u32 %r16, %r9, %r16; mov.u32 %r17, 0;\n"
    "  st.shared.v4.u32 [%r16], {%r17, %r17, %r17, %r17}; st.shared.v4.u32 [%r16+2048], {%r17, %r17, %r17, %r17};\n"
    "  st.shared.v4.u32 [%r16+4096], {%r17, %r17, %r17, %r17}; st.shared.v4.u32 [%r16+6144], {%r17, %r17, %r17, %r17};\n"
    "  bar.sync 0;\n"
    "  mul.wide.u32 %rd8, %r1, 4; add.s64 %rd8, %rd1, %rd8; ld.global.u32 %r4, [%rd8];\n"
    "  mul.wide.u32 %rd9, %r1, 16; add.s64 %rd10, %rd2, %rd9;\n"
    "  ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd10]; ld.global.v2.u64 {%rd11, %rd12}, [%rd10];\n"
    "  mul.wide.u32 %rd13, %r4, 16; mul.wide.u32 %rd14, %r4, 8;\n"
    "  add.s64 %rd15, %rd3, %rd13; st.global.v4.u32 [%rd15], {%r5, %r6, %r7, %r8};\n"
    "  add.s64 %rd16, %rd4, %rd13; st.global.v2.u64 [%rd16], {%rd11, %rd12};\n"
    "  add.s64 %rd17, %rd5, %rd14; st.global.v2.u32 [%rd17], {%r7, %r5};\n"
    "  and.b32 %r10, %r4, 511; shl.b32 %r10, %r10, 4; add.u32 %r10, %r9, %r10;\n"
    "  st.shared.v4.u32 [%r10], {%r8, %r7, %r6, %r5};\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r18, %ctaid.x; shl.b32 %r18, %r18, 9; add.u32 %r18, %r18, %r3; mul.wide.u32 %rd19, %r18, 16; add.s64 %rd19, %rd7, %rd19;\n"
    "  ld.shared.v4.u32 {%r12, %r13, %r14, %r15}, [%r16]; st.global.v4.u32 [%rd19], {%r12, %r13, %r14, %r15};\n"
    "  ld.shared.v4.u32 {%r12, %r13, %r14, %r15}, [%r16+2048]; st.global.v4.u32 [%rd19+2048], {%r12, %r13, %r14, %r15};\n"
    "  ld.shared.v4.u32 {%r12, %r13, %r14, %r15}, [%r16+4096]; st.global.v4.u32 [%rd19+4096], {%r12, %r13, %r14, %r15};\n"
    "  ld.shared.v4.u32 {%r12, %r13, %r14, %r15}, [%r16+6144]; st.global.v4.u32 [%rd19+6144], {%r12, %r13, %r14, %r15};\n"
    "  ret;\n"
    "}\n";

enum { N = 1024, SPAN = 4 * N, NPAT = 10 };
static exec_dev *dev;
static exec_mod *mod;

/* Element index of lane l of warp w in pattern p (all inside [128w, 128w + 128)). */
static uint32_t pat_idx(uint32_t p, uint32_t w, uint32_t l)
{
    uint32_t base = 128 * w;
    switch (p) {
    case 0: return base + l;                                   /* one run of 32 */
    case 1: return base + (l / 16) * 64 + l % 16;              /* two rows of 16, pitch 64 */
    case 2: return base + (3 - l / 8) * 24 + l % 8;            /* four rows of 8, last first */
    case 3: return base + 2 * l;                               /* stride 2: not dense */
    case 4: return base + l % 16;                              /* lanes l and l + 16 meet: the later wins */
    case 5: return base + (l / 8) * 4 + l % 8;                 /* runs of 8 that overlap by 4 */
    case 6: return base + 31 - l;                              /* reversed: not dense */
    case 7: return base + l / 2;                               /* pairs: not dense */
    case 8: return base + (l / 16) * 64;                       /* two groups of 16 on one element each */
    default: return l < 16 ? base + 5 : base + 32 + l;         /* one element for 16 lanes, then a run of 16 */
    }
}

static uint32_t rnd_state = 777;
static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1664525u + 1013904223u;
    return rnd_state ^ (rnd_state >> 16);
}

static uint64_t dev_copy(const void *src, size_t bytes)
{
    uint64_t a = exec_mem_alloc(dev, bytes, 256);
    memcpy(exec_mem_host(dev, a, bytes), src, bytes);
    return a;
}

/* Warp w's load pattern is w mod NPAT, its store pattern (w + shift) mod NPAT. */
static void t_global_patterns(void)
{
    for (uint32_t shift = 0; shift < NPAT; shift += 3) {
        static uint32_t ri[N], ro[N], in32[SPAN], e32[SPAN];
        static uint64_t in64[SPAN], e64[SPAN], es[SPAN];
        for (uint32_t t = 0; t < N; t++) {
            ri[t] = pat_idx((t / 32) % NPAT, t / 32, t % 32);
            ro[t] = pat_idx((t / 32 + shift) % NPAT, t / 32, t % 32);
        }
        for (uint32_t i = 0; i < SPAN; i++) {
            in32[i] = rnd();
            in64[i] = (uint64_t)rnd() << 32 | rnd();
            e32[i] = 0xA5A5A5A5u;
            e64[i] = es[i] = 0xA5A5A5A5A5A5A5A5ull;
        }
        for (uint32_t t = 0; t < N; t++) { /* in thread order: within a warp, the later lane's store wins */
            e32[ro[t]] = in32[ri[t]];
            e64[ro[t]] = in64[ri[t]];
            es[ro[t]] = (uint64_t)(int64_t)(int32_t)in32[ri[t]];
        }
        uint64_t dri = dev_copy(ri, sizeof ri), dro = dev_copy(ro, sizeof ro);
        uint64_t d32 = dev_copy(in32, sizeof in32), d64 = dev_copy(in64, sizeof in64);
        uint64_t o32 = dev_copy(e32, sizeof e32), o64 = dev_copy(e64, sizeof e64), os = dev_copy(e64, sizeof e64);
        memset(exec_mem_host(dev, o32, sizeof e32), 0xA5, sizeof e32);
        memset(exec_mem_host(dev, o64, sizeof e64), 0xA5, sizeof e64);
        memset(exec_mem_host(dev, os, sizeof es), 0xA5, sizeof es);
        struct { uint64_t ri, ro, in32, in64, o32, o64, os; } params = {dri, dro, d32, d64, o32, o64, os};
        TT_EQ_I(exec_rig_launch(mod, "glob", N / 128, 128, &params, sizeof params, NULL), EXEC_OK);
        TT_CHECK(memcmp(exec_mem_host(dev, o32, sizeof e32), e32, sizeof e32) == 0);
        TT_CHECK(memcmp(exec_mem_host(dev, o64, sizeof e64), e64, sizeof e64) == 0);
        TT_CHECK(memcmp(exec_mem_host(dev, os, sizeof es), es, sizeof es) == 0);
        uint64_t all[] = {dri, dro, d32, d64, o32, o64, os};
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) exec_mem_free(dev, all[k]);
    }
}

/* The same patterns on shared memory (32-bit addresses), folded into a
** CTA's 128 words: warp w of a CTA uses words [0, 128) through pattern
** (w mod NPAT) of warp 0. */
static void t_shared_patterns(void)
{
    static uint32_t ri[N], ro[N], want[N];
    for (uint32_t t = 0; t < N; t++) {
        uint32_t w = t / 32, l = t % 32;
        ri[t] = pat_idx(w % NPAT, 0, l);
        ro[t] = (w % 4) * 32 + l; /* each CTA's 4 warps write all 128 words, one run each */
    }
    for (uint32_t c = 0; c < N / 128; c++) {
        uint32_t sh[128];
        for (uint32_t t = c * 128; t < c * 128 + 128; t++) sh[ro[t]] = t * 7 + 1;
        for (uint32_t t = c * 128; t < c * 128 + 128; t++) want[t] = sh[ri[t]];
    }
    uint64_t dri = dev_copy(ri, sizeof ri), dro = dev_copy(ro, sizeof ro), out = dev_copy(want, sizeof want);
    memset(exec_mem_host(dev, out, sizeof want), 0, sizeof want);
    struct { uint64_t ri, ro, out; } params = {dri, dro, out};
    TT_EQ_I(exec_rig_launch(mod, "shar", N / 128, 128, &params, sizeof params, NULL), EXEC_OK);
    TT_CHECK(memcmp(exec_mem_host(dev, out, sizeof want), want, sizeof want) == 0);
    exec_mem_free(dev, dri);
    exec_mem_free(dev, dro);
    exec_mem_free(dev, out);
}

/* One run of 32 per warp over an array of 100 elements: the fourth warp's
** lanes 100-127 are out of bounds.  The report is kept for the three ways
** to be compared. */
static char fault_msg[3][1024];
static void fault_run(int way)
{
    static uint32_t ri[128], ro[128];
    for (uint32_t t = 0; t < 128; t++) ri[t] = ro[t] = t;
    uint32_t small[100] = {0};
    uint64_t big[128] = {0};
    uint64_t dri = dev_copy(ri, sizeof ri), dro = dev_copy(ro, sizeof ro);
    uint64_t d32 = dev_copy(small, sizeof small), d64 = dev_copy(big, sizeof big);
    uint64_t o32 = dev_copy(big, sizeof big), o64 = dev_copy(big, sizeof big), os = dev_copy(big, sizeof big);
    struct { uint64_t ri, ro, in32, in64, o32, o64, os; } params = {dri, dro, d32, d64, o32, o64, os};
    exec_result r;
    TT_EQ_I(exec_rig_launch(mod, "glob", 1, 128, &params, sizeof params, &r), EXEC_ERR_ILLEGAL_ADDRESS);
    TT_HAS(r.msg, "out-of-bounds 4-byte load");
    snprintf(fault_msg[way], sizeof fault_msg[way], "%s", r.msg);
    uint64_t all[] = {dri, dro, d32, d64, o32, o64, os};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) exec_mem_free(dev, all[k]);
}

/* The vector loads against C: thread t reads words 4(t/16) .. +3, and
** words 4t .. 4t + 3 as two u64, as u32 with two sinks, and words 4t + 2 and
** 4t + 3 sign-extended. */
static void t_vector_loads(void)
{
    static uint32_t in[4 * N];
    static uint8_t want[64 * N];
    for (uint32_t i = 0; i < 4 * N; i++) in[i] = rnd();
    memset(want, 0xA5, sizeof want);
    for (uint32_t t = 0; t < N; t++) {
        uint8_t *o = want + 64 * t;
        memcpy(o, &in[4 * (t / 16)], 16);
        memcpy(o + 16, &in[4 * t], 16);
        memcpy(o + 32, &in[4 * t], 4);
        memcpy(o + 36, &in[4 * t + 2], 4);
        uint64_t s2 = (uint64_t)(int64_t)(int32_t)in[4 * t + 2], s3 = (uint64_t)(int64_t)(int32_t)in[4 * t + 3];
        memcpy(o + 40, &s2, 8);
        memcpy(o + 48, &s3, 8);
    }
    uint64_t din = dev_copy(in, sizeof in), out = dev_copy(want, sizeof want);
    memset(exec_mem_host(dev, out, sizeof want), 0xA5, sizeof want);
    struct { uint64_t in, out; } params = {din, out};
    TT_EQ_I(exec_rig_launch(mod, "vecld", N / 128, 128, &params, sizeof params, NULL), EXEC_OK);
    TT_CHECK(memcmp(exec_mem_host(dev, out, sizeof want), want, sizeof want) == 0);
    exec_mem_free(dev, din);
    exec_mem_free(dev, out);
}
/* The vector stores against C, warp w's units through pattern (w + w / 4)
** mod NPAT over [128w, 128w + 128) (overlapping lanes: the later lane's
** store wins), in global memory and, a CTA's four warps' units side by side,
** in shared memory. */
static void t_vector_stores(void)
{
    static uint32_t ri[N], in[4 * N], o4[4 * SPAN], o2[2 * SPAN], os[4 * 4 * N];
    static uint64_t o8[2 * SPAN];
    for (uint32_t t = 0; t < N; t++) {
        uint32_t w = t / 32, l = t % 32;
        ri[t] = pat_idx((w + w / 4) % NPAT, w, l);
    }
    for (uint32_t i = 0; i < 4 * N; i++) in[i] = rnd();
    memset(o4, 0xA5, sizeof o4), memset(o2, 0xA5, sizeof o2), memset(o8, 0xA5, sizeof o8);
    memset(os, 0, sizeof os);
    for (uint32_t t = 0; t < N; t++) { /* in thread order; warps' units do not meet */
        const uint32_t *v = &in[4 * t];
        uint32_t j = ri[t], *u = &os[4 * (512 * (t / 128) + j % 512)];
        memcpy(&o4[4 * j], v, 16);
        memcpy(&o8[2 * j], v, 16);
        o2[2 * j] = v[2], o2[2 * j + 1] = v[0];
        u[0] = v[3], u[1] = v[2], u[2] = v[1], u[3] = v[0];
    }
    uint64_t dri = dev_copy(ri, sizeof ri), din = dev_copy(in, sizeof in), d4 = dev_copy(o4, sizeof o4),
             d8 = dev_copy(o8, sizeof o8), d2 = dev_copy(o2, sizeof o2), ds = dev_copy(os, sizeof os);
    uint64_t outs[] = {d4, d8, d2, ds};
    size_t sizes[] = {sizeof o4, sizeof o8, sizeof o2, sizeof os};
    for (int k = 0; k < 4; k++) memset(exec_mem_host(dev, outs[k], sizes[k]), k < 3 ? 0xA5 : 0x5A, sizes[k]);
    struct { uint64_t ri, in, o4, o8, o2, os; } params = {dri, din, d4, d8, d2, ds};
    TT_EQ_I(exec_rig_launch(mod, "vecst", N / 128, 128, &params, sizeof params, NULL), EXEC_OK);
    TT_CHECK(memcmp(exec_mem_host(dev, d4, sizeof o4), o4, sizeof o4) == 0);
    TT_CHECK(memcmp(exec_mem_host(dev, d8, sizeof o8), o8, sizeof o8) == 0);
    TT_CHECK(memcmp(exec_mem_host(dev, d2, sizeof o2), o2, sizeof o2) == 0);
    TT_CHECK(memcmp(exec_mem_host(dev, ds, sizeof os), os, sizeof os) == 0);
    uint64_t all[] = {dri, din, d4, d8, d2, ds};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) exec_mem_free(dev, all[k]);
}
static void t_vector_stores_checks(void) { t_vector_stores(); }
static void t_vector_stores_portable(void) { t_vector_stores(); }
static void t_vector_loads_checks(void) { t_vector_loads(); }
static void t_vector_loads_portable(void) { t_vector_loads(); }

static void t_fault_base(void) { fault_run(0); }
static void t_fault_checks(void) { fault_run(1); }
static void t_fault_portable(void) { fault_run(2); }
static void t_global_patterns_checks(void) { t_global_patterns(); }
static void t_shared_patterns_checks(void) { t_shared_patterns(); }
static void t_global_patterns_portable(void) { t_global_patterns(); }
static void t_shared_patterns_portable(void) { t_shared_patterns(); }

/* The same report, word for word, from the three ways (the addresses are
** the same: each device lays out its allocations alike). */
static void t_fault_same(void)
{
    TT_EQ_STR(fault_msg[0], fault_msg[1]);
    TT_EQ_STR(fault_msg[0], fault_msg[2]);
}

/* way 0: the runs from the base register; 1: check.sync on (from the lanes'
** addresses); 2: the portable handlers (lane by lane) */
static bool pass(int way)
{
    exec_host_portable(way == 2);
    dev = exec_rig_dev(way == 1 ? "check.sync=1" : NULL);
    mod = exec_rig_load(dev, glob_ptx, "mem.ptx");
    if (!mod) {
        printf("FAIL setup: mem.ptx (way %d)\n", way);
        return false;
    }
    if (way == 0) {
        TT_RUN(t_global_patterns);
        TT_RUN(t_shared_patterns);
        TT_RUN(t_vector_loads);
        TT_RUN(t_vector_stores);
        TT_RUN(t_fault_base);
    } else if (way == 1) {
        TT_RUN(t_global_patterns_checks);
        TT_RUN(t_shared_patterns_checks);
        TT_RUN(t_vector_loads_checks);
        TT_RUN(t_vector_stores_checks);
        TT_RUN(t_fault_checks);
    } else {
        TT_RUN(t_global_patterns_portable);
        TT_RUN(t_shared_patterns_portable);
        TT_RUN(t_vector_loads_portable);
        TT_RUN(t_vector_stores_portable);
        TT_RUN(t_fault_portable);
    }
    exec_mod_unload(mod);
    exec_dev_destroy(dev);
    return true;
}

int main(void)
{
    bool ok = pass(0) && pass(1) && pass(2);
    exec_host_portable(false);
    if (ok) TT_RUN(t_fault_same);
    return ok ? tt_done() : 1;
}
