/*
** test_exec_int.c -- the functional model's integer fast paths (exec/sem_alu.c:
** a full warp's 32- and 64-bit compares, shl.b32/.b64, integer cvt (8, 16
** and 32 bits, sign- and zero-extended), mul.wide.s32/.u32, 64- and 32-bit
** add; each also compiled for AVX2 hosts) must give what C's own operators give, on
** full warps and on warps with half their lanes gone, with the host's
** handlers and with the portable ones (exec_host_portable).  Inputs: the
** 32-bit extremes crossed with each other, then pseudo-random words.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include "exec/internal.h"
#include <stdlib.h>

/* per thread: the 16 compares of (a, b) as bits, a + b (u32), a * b wide
** signed and unsigned, their 64-bit sum, the 16 compares of the two wide
** products (64-bit: signed, unsigned), shl.b64 and shl.b32 by b mod 128
** (past the width: 0), cvt.u64.u32 and cvt.u32.u64, then a's sign- and
** zero-extensions from 32, 16 and 8 bits (cvt.s64.s32, .s32.s16, .u32.u8,
** .s64.s8, through a 16-bit register and back); odd lanes leave at once when
** `half` is 1 (the rest run with half masks) */
static const char *int_ptx = HDR
    ".visible .entry intops(.param .u64 pa, .param .u64 pb, .param .u64 po, .param .u32 half)\n"
    "{\n"
    "  .reg .pred %p<24>; .reg .b16 %rs<4>; .reg .b32 %r<40>; .reg .b64 %rd<20>;\n"
    "  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [po]; ld.param.u32 %r20, [half];\n"
    "  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x; mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  and.b32 %r7, %r3, %r20; setp.ne.u32 %p20, %r7, 0;\n"
    "  @%p20 bra DONE;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4; ld.global.u32 %r4, [%rd5];\n"
    "  add.s64 %rd5, %rd2, %rd4; ld.global.u32 %r5, [%rd5];\n"
    "  mov.u32 %r6, 0;\n"
  "  setp.lt.s32 %p1, %r4, %r5; selp.u32 %r10, 1, 0, %p1; or.b32 %r6, %r6, %r10;\n"
  "  setp.le.s32 %p2, %r4, %r5; selp.u32 %r11, 2, 0, %p2; or.b32 %r6, %r6, %r11;\n"
  "  setp.gt.s32 %p3, %r4, %r5; selp.u32 %r12, 4, 0, %p3; or.b32 %r6, %r6, %r12;\n"
  "  setp.ge.s32 %p4, %r4, %r5; selp.u32 %r13, 8, 0, %p4; or.b32 %r6, %r6, %r13;\n"
  "  setp.eq.s32 %p5, %r4, %r5; selp.u32 %r14, 16, 0, %p5; or.b32 %r6, %r6, %r14;\n"
  "  setp.ne.s32 %p6, %r4, %r5; selp.u32 %r15, 32, 0, %p6; or.b32 %r6, %r6, %r15;\n"
  "  setp.lt.u32 %p7, %r4, %r5; selp.u32 %r16, 64, 0, %p7; or.b32 %r6, %r6, %r16;\n"
  "  setp.le.u32 %p8, %r4, %r5; selp.u32 %r17, 128, 0, %p8; or.b32 %r6, %r6, %r17;\n"
  "  setp.gt.u32 %p9, %r4, %r5; selp.u32 %r18, 256, 0, %p9; or.b32 %r6, %r6, %r18;\n"
  "  setp.ge.u32 %p10, %r4, %r5; selp.u32 %r19, 512, 0, %p10; or.b32 %r6, %r6, %r19;\n"
  "  setp.eq.u32 %p11, %r4, %r5; selp.u32 %r20, 1024, 0, %p11; or.b32 %r6, %r6, %r20;\n"
  "  setp.ne.u32 %p12, %r4, %r5; selp.u32 %r21, 2048, 0, %p12; or.b32 %r6, %r6, %r21;\n"
  "  setp.lo.u32 %p13, %r4, %r5; selp.u32 %r22, 4096, 0, %p13; or.b32 %r6, %r6, %r22;\n"
  "  setp.ls.u32 %p14, %r4, %r5; selp.u32 %r23, 8192, 0, %p14; or.b32 %r6, %r6, %r23;\n"
  "  setp.hi.u32 %p15, %r4, %r5; selp.u32 %r24, 16384, 0, %p15; or.b32 %r6, %r6, %r24;\n"
  "  setp.hs.u32 %p16, %r4, %r5; selp.u32 %r25, 32768, 0, %p16; or.b32 %r6, %r6, %r25;\n"
    "  add.u32 %r8, %r4, %r5;\n"
    "  mul.wide.s32 %rd6, %r4, %r5;\n"
    "  mul.wide.u32 %rd7, %r4, %r5;\n"
    "  add.s64 %rd8, %rd6, %rd7;\n"
    "  mov.u32 %r26, 0;\n"
    "  setp.lt.s64 %p1, %rd6, %rd7; selp.u32 %r27, 1, 0, %p1; or.b32 %r26, %r26, %r27;\n"
    "  setp.le.s64 %p2, %rd6, %rd7; selp.u32 %r27, 2, 0, %p2; or.b32 %r26, %r26, %r27;\n"
    "  setp.gt.s64 %p3, %rd6, %rd7; selp.u32 %r27, 4, 0, %p3; or.b32 %r26, %r26, %r27;\n"
    "  setp.ge.s64 %p4, %rd6, %rd7; selp.u32 %r27, 8, 0, %p4; or.b32 %r26, %r26, %r27;\n"
    "  setp.eq.s64 %p5, %rd6, %rd7; selp.u32 %r27, 16, 0, %p5; or.b32 %r26, %r26, %r27;\n"
    "  setp.ne.s64 %p6, %rd6, %rd7; selp.u32 %r27, 32, 0, %p6; or.b32 %r26, %r26, %r27;\n"
    "  setp.lt.u64 %p7, %rd6, %rd7; selp.u32 %r27, 64, 0, %p7; or.b32 %r26, %r26, %r27;\n"
    "  setp.le.u64 %p8, %rd6, %rd7; selp.u32 %r27, 128, 0, %p8; or.b32 %r26, %r26, %r27;\n"
    "  setp.gt.u64 %p9, %rd6, %rd7; selp.u32 %r27, 256, 0, %p9; or.b32 %r26, %r26, %r27;\n"
    "  setp.ge.u64 %p10, %rd6, %rd7; selp.u32 %r27, 512, 0, %p10; or.b32 %r26, %r26, %r27;\n"
    "  setp.eq.u64 %p11, %rd6, %rd7; selp.u32 %r27, 1024, 0, %p11; or.b32 %r26, %r26, %r27;\n"
    "  setp.ne.u64 %p12, %rd6, %rd7; selp.u32 %r27, 2048, 0, %p12; or.b32 %r26, %r26, %r27;\n"
    "  setp.lo.u64 %p13, %rd6, %rd7; selp.u32 %r27, 4096, 0, %p13; or.b32 %r26, %r26, %r27;\n"
    "  setp.ls.u64 %p14, %rd6, %rd7; selp.u32 %r27, 8192, 0, %p14; or.b32 %r26, %r26, %r27;\n"
    "  setp.hi.u64 %p15, %rd6, %rd7; selp.u32 %r27, 16384, 0, %p15; or.b32 %r26, %r26, %r27;\n"
    "  setp.hs.u64 %p16, %rd6, %rd7; selp.u32 %r27, 32768, 0, %p16; or.b32 %r26, %r26, %r27;\n"
    "  and.b32 %r9, %r5, 127; shl.b64 %rd12, %rd7, %r9; shl.b32 %r28, %r4, %r9;\n"
    "  cvt.u64.u32 %rd13, %r4; cvt.u32.u64 %r29, %rd6;\n"
    "  cvt.s64.s32 %rd14, %r4; cvt.s32.s16 %r30, %r4; cvt.u32.u8 %r31, %r4; cvt.s64.s8 %rd15, %r4;\n"
    "  cvt.u16.u32 %rs1, %r4; cvt.u32.u16 %r32, %rs1; cvt.s16.s32 %rs2, %r4; cvt.s32.s16 %r33, %rs2;\n"
    "  mul.wide.u32 %rd9, %r1, 96; add.s64 %rd10, %rd3, %rd9;\n"
    "  st.global.u32 [%rd10], %r6; st.global.u32 [%rd10+4], %r8;\n"
    "  st.global.u64 [%rd10+8], %rd6; st.global.u64 [%rd10+16], %rd7; st.global.u64 [%rd10+24], %rd8;\n"
    "  st.global.u32 [%rd10+32], %r26; st.global.u32 [%rd10+36], %r28; st.global.u64 [%rd10+40], %rd12;\n"
    "  st.global.u64 [%rd10+48], %rd13; st.global.u32 [%rd10+56], %r29;\n"
    "  st.global.u64 [%rd10+64], %rd14; st.global.u32 [%rd10+72], %r30; st.global.u32 [%rd10+76], %r31;\n"
    "  st.global.u64 [%rd10+80], %rd15; st.global.u32 [%rd10+88], %r32; st.global.u32 [%rd10+92], %r33;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

enum { N = 8192 };
static exec_dev *dev;
static exec_mod *mod;

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1664525u + 1013904223u;
    return rnd_state ^ (rnd_state >> 16);
}

/* The 16 compares as the kernel orders them, of a and b as signed (sa, sb)
** and as unsigned integers. */
static uint32_t ref_bits(int64_t sa, int64_t sb, uint64_t a, uint64_t b)
{
    bool v[16] = {sa < sb, sa <= sb, sa > sb, sa >= sb, sa == sb, sa != sb,
                  a < b, a <= b, a > b, a >= b, a == b, a != b,
                  a < b, a <= b, a > b, a >= b};
    uint32_t m = 0;
    for (int k = 0; k < 16; k++) m |= (uint32_t)v[k] << k;
    return m;
}
static uint32_t ref_mask(uint32_t a, uint32_t b) { return ref_bits((int32_t)a, (int32_t)b, a, b); }
static uint32_t ref_mask64(uint64_t a, uint64_t b) { return ref_bits((int64_t)a, (int64_t)b, a, b); }

/* The little-endian word at byte off of a thread's record. */
static uint32_t u32_at(const uint8_t *r, size_t off)
{
    uint32_t v;
    memcpy(&v, r + off, 4);
    return v;
}
static uint64_t u64_at(const uint8_t *r, size_t off)
{
    uint64_t v;
    memcpy(&v, r + off, 8);
    return v;
}

static void run(uint32_t half)
{
    uint64_t a = exec_mem_alloc(dev, N * 4, 256), b = exec_mem_alloc(dev, N * 4, 256), o = exec_mem_alloc(dev, N * 96, 256);
    uint32_t *pa = exec_mem_host(dev, a, N * 4), *pb = exec_mem_host(dev, b, N * 4);
    static const uint32_t special[] = {0, 1, 2, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
    enum { S = sizeof special / sizeof special[0] };
    for (uint32_t i = 0; i < N; i++) {
        if (i < S * S) {
            pa[i] = special[i / S];
            pb[i] = special[i % S];
        } else {
            pa[i] = rnd();
            pb[i] = (i & 7) == 0 ? pa[i] : rnd(); /* some equal pairs */
        }
    }
    uint8_t *po = exec_mem_host(dev, o, N * 96);
    memset(po, 0xA5, N * 96);
    struct { uint64_t a, b, o; uint32_t half; } params = {a, b, o, half};
    TT_EQ_I(exec_rig_launch(mod, "intops", N / 128, 128, &params, 28, NULL), EXEC_OK);
    int bad = 0;
    for (uint32_t i = 0; i < N && bad < 5; i++) {
        const uint8_t *r = po + (size_t)i * 96;
        uint32_t mask = u32_at(r, 0), sum = u32_at(r, 4), mask64 = u32_at(r, 32), sh32 = u32_at(r, 36);
        uint32_t lo32 = u32_at(r, 56), sx16 = u32_at(r, 72), zx8 = u32_at(r, 76), zx16 = u32_at(r, 88);
        uint32_t tr16 = u32_at(r, 92);
        uint64_t ws = u64_at(r, 8), wu = u64_at(r, 16), s64 = u64_at(r, 24), sh64 = u64_at(r, 40);
        uint64_t zx64 = u64_at(r, 48), sx64 = u64_at(r, 64), sx8 = u64_at(r, 80);
        if (half && (i % 128) % 2) { /* an odd lane: left before storing */
            if (mask != 0xA5A5A5A5u) bad++;
            continue;
        }
        uint64_t rws = (uint64_t)((int64_t)(int32_t)pa[i] * (int64_t)(int32_t)pb[i]);
        uint64_t rwu = (uint64_t)pa[i] * pb[i];
        uint32_t sa = pb[i] & 127; /* the shift amount */
        if (mask != ref_mask(pa[i], pb[i]) || sum != pa[i] + pb[i] || ws != rws || wu != rwu || s64 != rws + rwu ||
            mask64 != ref_mask64(rws, rwu) || sh64 != (sa >= 64 ? 0 : rwu << sa) ||
            sh32 != (sa >= 32 ? 0 : pa[i] << sa) || zx64 != pa[i] || lo32 != (uint32_t)rws ||
            sx64 != (uint64_t)(int64_t)(int32_t)pa[i] || sx16 != (uint32_t)(int32_t)(int16_t)pa[i] ||
            zx8 != (pa[i] & 0xffu) || sx8 != (uint64_t)(int64_t)(int8_t)pa[i] || zx16 != (pa[i] & 0xffffu) ||
            tr16 != (uint32_t)(int32_t)(int16_t)pa[i]) {
            printf("  lane %u: a %08x b %08x: mask %04x (want %04x) sum %08x ws %016llx wu %016llx\n", i, pa[i], pb[i],
                   mask, ref_mask(pa[i], pb[i]), sum, (unsigned long long)ws, (unsigned long long)wu);
            bad++;
        }
    }
    TT_EQ_I(bad, 0);
    exec_mem_free(dev, a);
    exec_mem_free(dev, b);
    exec_mem_free(dev, o);
}

static void t_int_full(void) { run(0); }
static void t_int_half(void) { run(1); }
static void t_int_full_portable(void) { run(0); }
static void t_int_half_portable(void) { run(1); }

/* Loads the module and runs both masks; with portable, through the
** portable handlers (the first pass took the AVX2 ones on a host that has
** them). */
static bool pass(bool portable)
{
    exec_host_portable(portable);
    mod = exec_rig_load(dev, int_ptx, "int.ptx");
    if (!mod) {
        printf("FAIL setup: int.ptx%s\n", portable ? " (portable handlers)" : "");
        return false;
    }
    if (portable) {
        TT_RUN(t_int_full_portable);
        TT_RUN(t_int_half_portable);
    } else {
        TT_RUN(t_int_full);
        TT_RUN(t_int_half);
    }
    exec_mod_unload(mod);
    return true;
}

int main(void)
{
    dev = exec_rig_dev(NULL);
    bool ok = pass(false) && pass(true);
    exec_host_portable(false);
    exec_dev_destroy(dev);
    return ok ? tt_done() : 1;
}
