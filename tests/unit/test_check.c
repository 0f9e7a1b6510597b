/*
** test_check.c -- the correctness checkers (exec/check*.c) on hand-written
** PTX, through exec.h alone: each race kind found and each kind of ordering
** (barrier, named barrier with bar.arrive, same thread, kernel boundary,
** atomics, fence + flag, release/acquire, a grid-wide sync) not reported;
** intra-warp conflicts only with check.race_intrawarp and not across a
** __syncwarp; initcheck on a fresh allocation, after host writes, a
** device-to-device copy, a kernel's writes, partial writes and a free;
** synccheck's four kinds; the same findings at every exec.quantum and under
** 200 random interleavings of single warp instructions (the stepping
** interface, as a timing model drives it); the report's text; checks off
** leave no trace.
**
** Expected pcs are counted from each kernel's first instruction (the
** comments number them); a finding's pc pair is in pc order.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include <stdlib.h>

static const char *ptx = HDR
    ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
    ".extern .func free(.param .b64 free_param_0);\n"
    /* k_heap: every thread mallocs 16 bytes, stores and loads there, frees
    ** them: warps that run later get the addresses freed before (no race) */
    ".visible .entry k_heap(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  { .param .b64 a; st.param.b64 [a], 16; .param .b64 r;\n"
    "    call.uni (r), malloc, (a); ld.param.b64 %rd2, [r]; }\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ld.global.u32 %r2, [%rd2];\n"
    "  { .param .b64 b; st.param.b64 [b], %rd2; call.uni free, (b); }\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r2;\n"
    "  ret;\n"
    "}\n"
    /* k_ww: every thread stores its tid to out[0].
    ** 0 ld.param  1 mov tid  2 st.global  3 ret */
    ".visible .entry k_ww(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n"
    /* k_sh: thread t stores t to sh[t], then (after bar.sync if dobar)
    ** loads sh[(t + 32) % 64], a thread of the other warp, to out[t].
    ** 0 ld.param 1 ld.param 2 mov 3 shl 4 mov sh 5 add 6 st.shared 7 setp 8 @p bar.sync
    ** 9 add 10 and 11 shl 12 add 13 ld.shared 14 mul.wide 15 add 16 st.global 17 ret */
    ".visible .entry k_sh(.param .u64 out, .param .u32 dobar)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b32 sh[64];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r5, [dobar];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, sh;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  st.shared.u32 [%r4], %r1;\n"
    "  setp.ne.u32 %p1, %r5, 0;\n"
    "  @%p1 bar.sync 0;\n"
    "  add.s32 %r6, %r1, 32;\n"
    "  and.b32 %r6, %r6, 63;\n"
    "  shl.b32 %r6, %r6, 2;\n"
    "  add.s32 %r6, %r3, %r6;\n"
    "  ld.shared.u32 %r7, [%r6];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r7;\n"
    "  ret;\n"
    "}\n"
    /* k_xcta: global thread i stores i to a[i], then loads a[(i + 32) % 64]
    ** (another CTA's with blocks of 32) into b[i].
    ** 0,1 ld.param 2 mov tid 3 mov ctaid 4 mov ntid 5 mad 6 mul.wide 7 add 8 st.global
    ** 9 add 10 and 11 mul.wide 12 add 13 ld.global 14 add 15 st.global 16 ret */
    ".visible .entry k_xcta(.param .u64 a, .param .u64 b)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  ld.param.u64 %rd2, [b];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r4;\n"
    "  add.s32 %r5, %r4, 32;\n"
    "  and.b32 %r5, %r5, 63;\n"
    "  mul.wide.u32 %rd5, %r5, 4;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6];\n"
    "  add.s64 %rd7, %rd2, %rd3;\n"
    "  st.global.u32 [%rd7], %r6;\n"
    "  ret;\n"
    "}\n"
    /* k_rd: b[i] = a[(i + 32) % 64] (no writes to a) */
    ".visible .entry k_rd(.param .u64 a, .param .u64 b)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  ld.param.u64 %rd2, [b];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  add.s32 %r5, %r4, 32;\n"
    "  and.b32 %r5, %r5, 63;\n"
    "  mul.wide.u32 %rd5, %r5, 4;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6];\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n"
    "  st.global.u32 [%rd7], %r6;\n"
    "  ret;\n"
    "}\n"
    /* k_atom: every thread adds 1 to out[0] atomically and reads out[1] (never written) */
    ".visible .entry k_atom(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  atom.global.add.u32 %r1, [%rd1], 1;\n"
    "  red.global.add.u32 [%rd1+4], 1;\n"
    "  ld.global.u32 %r2, [%rd1+8];\n"
    "  ret;\n"
    "}\n"
    /* k_flag: message passing between CTA 0 and CTA 1 (thread 0 of each).
    ** mode 0: fence before the flag store, fence after the flag load;
    ** mode 1: st.release / ld.acquire; mode 2: no fences (a race);
    ** mode 3: atom.exch after a fence / atom.add spin (a fence-release, relaxed atomics).
    ** CTA 0: data[0] = 7; signal.  CTA 1: wait; out = data[0].
    ** pcs: 0,1,2 ld.param 3 mov ctaid 4 mov tid 5 setp 6 @p bra DONE 7 setp (cta==1) 8 @p bra CONS
    ** 9 st.global data   (producer) ... */
    ".visible .entry k_flag(.param .u64 data, .param .u64 flag, .param .u32 mode)\n"
    "{\n"
    "  .reg .pred %p<8>; .reg .b32 %r<12>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [data];\n"
    "  ld.param.u64 %rd2, [flag];\n"
    "  ld.param.u32 %r1, [mode];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  setp.ne.u32 %p1, %r3, 0;\n"
    "  @%p1 bra DONE;\n"
    "  setp.eq.u32 %p2, %r2, 1;\n"
    "  @%p2 bra CONS;\n"
    "  mov.u32 %r4, 7;\n"
    "  st.global.u32 [%rd1], %r4;\n"
    "  setp.eq.u32 %p3, %r1, 1;\n"
    "  @%p3 bra PREL;\n"
    "  setp.eq.u32 %p4, %r1, 3;\n"
    "  @%p4 bra PATOM;\n"
    "  setp.eq.u32 %p5, %r1, 0;\n"
    "  @%p5 membar.gl;\n"
    "  st.volatile.global.u32 [%rd2], 1;\n"
    "  bra DONE;\n"
    "PREL:\n"
    "  st.release.gpu.global.u32 [%rd2], 1;\n"
    "  bra DONE;\n"
    "PATOM:\n"
    "  fence.sc.gpu;\n"
    "  atom.global.exch.b32 %r5, [%rd2], 1;\n"
    "  bra DONE;\n"
    "CONS:\n"
    "  setp.eq.u32 %p3, %r1, 1;\n"
    "  @%p3 bra CREL;\n"
    "  setp.eq.u32 %p4, %r1, 3;\n"
    "  @%p4 bra CATOM;\n"
    "CVOL:\n"
    "  ld.volatile.global.u32 %r6, [%rd2];\n"
    "  setp.eq.u32 %p6, %r6, 0;\n"
    "  @%p6 bra CVOL;\n"
    "  setp.eq.u32 %p5, %r1, 0;\n"
    "  @%p5 fence.acq_rel.gpu;\n"
    "  bra CREAD;\n"
    "CREL:\n"
    "  ld.acquire.gpu.global.u32 %r6, [%rd2];\n"
    "  setp.eq.u32 %p6, %r6, 0;\n"
    "  @%p6 bra CREL;\n"
    "  bra CREAD;\n"
    "CATOM:\n"
    "  atom.global.add.u32 %r6, [%rd2], 0;\n"
    "  setp.eq.u32 %p6, %r6, 0;\n"
    "  @%p6 bra CATOM;\n"
    "CREAD:\n"
    "  ld.global.u32 %r7, [%rd1];\n"
    "  st.global.u32 [%rd1+4], %r7;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    /* k_gsync: a grid-wide barrier as cooperative groups builds it: every
    ** thread stores a[i]; bar.sync; thread 0 of each CTA: atom.add.release
    ** on the counter, spin on ld.acquire until all CTAs arrived (relaxed
    ** forms without fences when weak != 0); bar.sync; b[i] = a[(i + 32) % 64]. */
    ".visible .entry k_gsync(.param .u64 a, .param .u64 b, .param .u64 cnt, .param .u32 weak)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  ld.param.u64 %rd2, [b];\n"
    "  ld.param.u64 %rd8, [cnt];\n"
    "  ld.param.u32 %r9, [weak];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r4;\n"
    "  bar.sync 0;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra SYNCED;\n"
    "  mov.u32 %r10, %nctaid.x;\n"
    "  setp.ne.u32 %p3, %r9, 0;\n"
    "  @%p3 bra WEAK;\n"
    "  atom.add.release.gpu.global.u32 %r7, [%rd8], 1;\n"
    "SPIN:\n"
    "  ld.acquire.gpu.global.u32 %r8, [%rd8];\n"
    "  setp.lt.u32 %p2, %r8, %r10;\n"
    "  @%p2 bra SPIN;\n"
    "  bra SYNCED;\n"
    "WEAK:\n"
    "  atom.global.add.u32 %r7, [%rd8], 1;\n"
    "WSPIN:\n"
    "  ld.relaxed.gpu.global.u32 %r8, [%rd8];\n"
    "  setp.lt.u32 %p2, %r8, %r10;\n"
    "  @%p2 bra WSPIN;\n"
    "SYNCED:\n"
    "  bar.sync 0;\n"
    "  add.s32 %r5, %r4, 32;\n"
    "  and.b32 %r5, %r5, 63;\n"
    "  mul.wide.u32 %rd5, %r5, 4;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6];\n"
    "  add.s64 %rd7, %rd2, %rd3;\n"
    "  st.global.u32 [%rd7], %r6;\n"
    "  ret;\n"
    "}\n"
    /* k_warp: one warp; lane l stores l to sh[l], then (after bar.warp.sync
    ** if dosync) loads sh[l ^ 1] into out[l].
    ** 0,1 ld.param 2 mov 3 shl 4 mov sh 5 add 6 st.shared 7 setp 8 @p bar.warp.sync
    ** 9 xor 10 shl 11 add 12 ld.shared 13 mul.wide 14 add 15 st.global 16 ret */
    ".visible .entry k_warp(.param .u64 out, .param .u32 dosync)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b32 wsh[32];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r8, [dosync];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, wsh;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  st.shared.u32 [%r4], %r1;\n"
    "  setp.ne.u32 %p1, %r8, 0;\n"
    "  @%p1 bar.warp.sync -1;\n"
    "  xor.b32 %r5, %r1, 1;\n"
    "  shl.b32 %r5, %r5, 2;\n"
    "  add.s32 %r5, %r3, %r5;\n"
    "  ld.shared.u32 %r6, [%r5];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "  ret;\n"
    "}\n"
    /* k_named: producer/consumer on named barrier 1 with bar.arrive: warp 0
    ** stores sh[t] then bar.arrive 1, 64; warp 1 bar.sync 1, 64, then reads
    ** sh[t - 32]; racy != 0 skips the arrive (warp 1 then waits at
    ** barrier 0 for nobody: it uses bar.sync 0 with a count of 32, alone). */
    ".visible .entry k_named(.param .u64 out, .param .u32 racy)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b32 nsh[32];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r8, [racy];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r3, nsh;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  setp.ne.u32 %p2, %r8, 0;\n"
    "  @%p1 bra CONSUMER;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  st.shared.u32 [%r4], %r1;\n"
    "  @!%p2 bar.arrive 1, 64;\n"
    "  bra END;\n"
    "CONSUMER:\n"
    "  @!%p2 bar.sync 1, 64;\n"
    "  sub.s32 %r5, %r1, 32;\n"
    "  shl.b32 %r5, %r5, 2;\n"
    "  add.s32 %r5, %r3, %r5;\n"
    "  ld.shared.u32 %r6, [%r5];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "END:\n"
    "  ret;\n"
    "}\n"
    /* k_same: each thread writes, reads and writes its own a[i] (no race),
    ** and byte i of bytes[] (neighbouring bytes of one word: no race) */
    ".visible .entry k_same(.param .u64 a, .param .u64 bytes)\n"
    "{\n"
    "  .reg .b16 %h<2>; .reg .b32 %r<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  ld.param.u64 %rd2, [bytes];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.u32 [%rd4], %r1;\n"
    "  ld.global.u32 %r2, [%rd4];\n"
    "  add.s32 %r2, %r2, 1;\n"
    "  st.global.u32 [%rd4], %r2;\n"
    "  cvt.u64.u32 %rd5, %r1;\n"
    "  add.s64 %rd6, %rd2, %rd5;\n"
    "  cvt.u16.u32 %h1, %r1;\n"
    "  st.global.u8 [%rd6], %h1;\n"
    "  ret;\n"
    "}\n"
    /* k_bytes: thread t stores byte t of bytes[], then loads the 32-bit word
    ** holding byte t ^ 4 (another warp's bytes when t ^ 4 is in the other warp:
    ** never with 8 threads; here with blocks of 64 and t ^ 32). */
    ".visible .entry k_bytes(.param .u64 bytes, .param .u64 out)\n"
    "{\n"
    "  .reg .b16 %h<2>; .reg .b32 %r<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [bytes];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  cvt.u64.u32 %rd3, %r1;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  cvt.u16.u32 %h1, %r1;\n"
    "  st.global.u8 [%rd4], %h1;\n"
    "  xor.b32 %r2, %r1, 32;\n"
    "  and.b32 %r2, %r2, -4;\n"
    "  cvt.u64.u32 %rd5, %r2;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  ld.global.u32 %r3, [%rd6];\n"
    "  mul.wide.u32 %rd7, %r1, 4;\n"
    "  add.s64 %rd8, %rd2, %rd7;\n"
    "  st.global.u32 [%rd8], %r3;\n"
    "  ret;\n"
    "}\n"
    /* k_wmma: every warp loads a 16 x 16 f32 matrix from a (pc 2) and
    ** stores it to out (pc 3): the matrix instructions' accesses are checked */
    ".visible .entry k_wmma(.param .u64 a, .param .u64 out)\n"
    "{\n"
    "  .reg .f32 %f<10>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1];\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
    "  ret;\n"
    "}\n"
    /* k_ldm: warp 0 stores a matrix to shared memory (pc 3), warp 1 reads
    ** it with ldmatrix (pc 7) with or without a barrier between (u) */
    ".visible .entry k_ldm(.param .u32 u)\n"
    "{\n"
    "  .shared .align 16 .b8 shm[1024];\n"
    "  .reg .pred %p<4>; .reg .b32 %r<8>; .reg .f32 %f<10>; .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd1, shm;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @!%p1 wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%rd1], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
    "  ld.param.u32 %r2, [u];\n"
    "  setp.ne.u32 %p2, %r2, 0;\n"
    "  @%p2 bar.sync 0;\n"
    "  @%p1 ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%rd1];\n"
    "  ret;\n"
    "}\n"
    /* k_copy: out[i] = in[i] + 1 (initcheck) */
    ".visible .entry k_copy(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r5, [%rd4];\n"
    "  add.s32 %r5, %r5, 1;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r5;\n"
    "  ret;\n"
    "}\n"
    /* k_sync: synccheck cases by mode, one block of 64 threads.
    ** 0: @(tid % 32 < 16) bar.sync 0 -- divergent barrier
    ** 1: warp 0 and warp 1 reach bar.sync 0 at different instructions -- mismatch
    ** 2: bar.sync 1, 48 -- a count not a multiple of 32
    ** 3: @(lane < 16) shfl.sync with member mask 0xffffffff -- lanes named do not arrive
    ** 4: bar.warp.sync 1 by every lane -- lanes outside their own mask
    ** 5: the correct forms: bar.sync 0 by all, shfl.sync 0xffff by lanes < 16,
    **    bar.warp.sync -1 by all, bar.sync 1, 64
    ** 6: lanes < 4 shfl.sync.down by 16 over mask 0xf -- reads lanes that do not execute it
    ** 7: each half of a warp shfl.sync.idx from lane 20 with its own mask -- the lower half
    **    reads a lane outside its member mask
    ** 8: lanes >= 16 exit, the rest shfl.sync.down by 16 over mask 0xffff -- reads exited lanes
    ** (6-8 store the shuffled value to out[tid]) */
    ".visible .entry k_sync(.param .u64 out, .param .u32 mode)\n"
    "{\n"
    "  .reg .pred %p<8>; .reg .b32 %r<12>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [mode];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  and.b32 %r3, %r2, 31;\n"
    "  setp.lt.u32 %p1, %r3, 16;\n"
    "  setp.eq.u32 %p2, %r1, 0;\n"
    "  @!%p2 bra M1;\n"
    "  @%p1 bar.sync 0;\n"
    "  bra END;\n"
    "M1:\n"
    "  setp.eq.u32 %p2, %r1, 1;\n"
    "  @!%p2 bra M2;\n"
    "  setp.lt.u32 %p3, %r2, 32;\n"
    "  @%p3 bra W0;\n"
    "  bar.sync 0;\n"
    "  bra END;\n"
    "W0:\n"
    "  bar.sync 0;\n"
    "  bra END;\n"
    "M2:\n"
    "  setp.eq.u32 %p2, %r1, 2;\n"
    "  @!%p2 bra M3;\n"
    "  bar.sync 1, 48;\n"
    "  bra END;\n"
    "M3:\n"
    "  setp.eq.u32 %p2, %r1, 3;\n"
    "  @!%p2 bra M4;\n"
    "  @%p1 shfl.sync.idx.b32 %r4, %r2, 0, 31, -1;\n"
    "  bra END;\n"
    "M4:\n"
    "  setp.eq.u32 %p2, %r1, 4;\n"
    "  @!%p2 bra M5;\n"
    "  bar.warp.sync 1;\n"
    "  bra END;\n"
    "M5:\n"
    "  setp.eq.u32 %p2, %r1, 5;\n"
    "  @!%p2 bra M6;\n"
    "  bar.sync 0;\n"
    "  @%p1 shfl.sync.idx.b32 %r4, %r2, 0, 31, 0xffff;\n"
    "  bar.warp.sync -1;\n"
    "  bar.sync 1, 64;\n"
    "  bra END;\n"
    "M6:\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  setp.eq.u32 %p2, %r1, 6;\n"
    "  @!%p2 bra M7;\n"
    "  setp.lt.u32 %p4, %r3, 4;\n"
    "  @!%p4 bra END;\n"
    "  shfl.sync.down.b32 %r4, %r2, 16, 31, 0xf;\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "  bra END;\n"
    "M7:\n"
    "  setp.eq.u32 %p2, %r1, 7;\n"
    "  @!%p2 bra M8;\n"
    "  selp.b32 %r5, 0xffff, 0xffff0000, %p1;\n"
    "  shfl.sync.idx.b32 %r4, %r2, 20, 31, %r5;\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "  bra END;\n"
    "M8:\n"
    "  @!%p1 exit;\n"
    "  shfl.sync.down.b32 %r4, %r2, 16, 31, 0xffff;\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

/* The module of the kernels above; the program stops without it. */
static exec_mod *load(exec_dev *d)
{
    exec_mod *m = exec_rig_load(d, ptx, "check.ptx");
    if (!m) {
        printf("FAIL load: check.ptx\n");
        exit(1);
    }
    return m;
}

/* Launches kernel k with grid x block threads and the parameters given
** (pointers and u32s, as a packed buffer), expecting it to complete. */
static exec_result launch(exec_mod *m, const char *k, uint32_t grid, uint32_t block, const void *params, uint32_t pbytes)
{
    exec_result r;
    exec_rig_launch(m, k, grid, block, params, pbytes, &r);
    if (r.status != EXEC_OK) printf("    launch of %s: %s\n", k, r.msg);
    return r;
}

typedef struct p_pp { uint64_t a, b; } p_pp;
typedef struct p_pu { uint64_t a; uint32_t u; } p_pu;
typedef struct p_ppu { uint64_t a, b; uint32_t u; } p_ppu;
typedef struct p_pppu { uint64_t a, b, c; uint32_t u; } p_pppu;

/* The number of this launch's findings of kind k, and the first one's pcs. */
static uint32_t found(exec_dev *d, exec_check_kind k, uint32_t *pc0, uint32_t *pc1)
{
    uint32_t n, c = 0;
    const exec_finding *f = exec_check_findings(d, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (f[i].kind != k) continue;
        if (!c++) {
            if (pc0) *pc0 = f[i].pc[0];
            if (pc1) *pc1 = f[i].pc[1];
        }
    }
    return c;
}

/* ---- racecheck ------------------------------------------------------------------ */

static void ck_race_write_write(void)
{
    exec_dev *d = exec_rig_dev("check.race=1");
    exec_mod *m = load(d);
    uint64_t out = exec_mem_alloc(d, 256, 256);
    exec_result r = launch(m, "k_ww", 1, 64, &out, 8);
    uint32_t a = 0, b = 0;
    /* warps 0 and 1 both store at pc 2; the lanes within a warp are another kind */
    TT_EQ_U(found(d, EXEC_CHECK_RACE, &a, &b), 1);
    TT_EQ_U(a, 2);
    TT_EQ_U(b, 2);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 1);
    TT_EQ_U(found(d, EXEC_CHECK_RACE_INTRAWARP, NULL, NULL), 0);
    const exec_finding *f = exec_check_findings(d, &a);
    TT_EQ_STR(f[0].what, "write-write race");
    TT_EQ_STR(f[0].space, "global");
    TT_EQ_U(f[0].addr, out);
    /* the same launch again: the same finding, not reported twice */
    r = launch(m, "k_ww", 1, 64, &out, 8);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 0);
    uint64_t tot[EXEC_CHECK_KINDS], occ[EXEC_CHECK_KINDS];
    exec_check_totals(d, tot, occ);
    TT_EQ_U(tot[EXEC_CHECK_RACE], 1);
    TT_CHECK(occ[EXEC_CHECK_RACE] >= 2);
    exec_mod_unload(m);
    exec_dev_destroy(d);
    /* with intra-warp checks, lanes of one warp storing to one word are found too */
    d = exec_rig_dev("check.race_intrawarp=1");
    m = load(d);
    out = exec_mem_alloc(d, 256, 256);
    launch(m, "k_ww", 1, 64, &out, 8);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), 1);
    TT_EQ_U(found(d, EXEC_CHECK_RACE_INTRAWARP, &a, &b), 1);
    TT_EQ_U(a, 2);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

static void ck_race_shared_barrier(void)
{
    exec_dev *d = exec_rig_dev("check.race=1");
    exec_mod *m = load(d);
    uint64_t out = exec_mem_alloc(d, 256, 256);
    p_pu p = {out, 0};
    launch(m, "k_sh", 1, 64, &p, 12);
    uint32_t a = 0, b = 0;
    TT_EQ_U(found(d, EXEC_CHECK_RACE, &a, &b), 1);
    TT_EQ_U(a, 6);   /* st.shared */
    TT_EQ_U(b, 13);  /* ld.shared */
    uint32_t n;
    const exec_finding *f = exec_check_findings(d, &n);
    TT_EQ_STR(f[0].what, "read-write race");
    TT_EQ_STR(f[0].space, "shared");
    TT_HAS(f[0].text, "'sh' + ");
    TT_HAS(f[0].text, "read-write race on shared memory in kernel 'k_sh'");
    /* ordered by the barrier: nothing */
    p.u = 1;
    exec_result r = launch(m, "k_sh", 1, 64, &p, 12);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), 0);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 0);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

static void ck_race_across_ctas(void)
{
    exec_dev *d = exec_rig_dev("check.race=1");
    exec_mod *m = load(d);
    uint64_t a = exec_mem_alloc(d, 256, 256), b = exec_mem_alloc(d, 256, 256);
    p_pp p = {a, b};
    /* two CTAs of 32: thread i reads what thread (i + 32) % 64 of the other CTA wrote */
    launch(m, "k_xcta", 2, 32, &p, 16);
    uint32_t x = 0, y = 0;
    TT_EQ_U(found(d, EXEC_CHECK_RACE, &x, &y), 1);
    TT_EQ_U(x, 8);
    TT_EQ_U(y, 13);
    /* a kernel boundary orders the writes before the reads */
    launch(m, "k_rd", 2, 32, &p, 16);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), 0);
    /* same thread, and neighbouring bytes of one word written by different threads: no race */
    launch(m, "k_same", 1, 64, &p, 16);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), 0);
    /* a word load over bytes another warp's threads stored: a read-write race on bytes */
    launch(m, "k_bytes", 1, 64, &p, 16);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, &x, &y), 1);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

static void ck_race_atomics(void)
{
    exec_dev *d = exec_rig_dev("check.race=1");
    exec_mod *m = load(d);
    uint64_t out = exec_mem_alloc(d, 256, 256);
    exec_result r = launch(m, "k_atom", 4, 64, &out, 8);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 0);
    TT_EQ_U(*(uint32_t *)exec_mem_host(d, out, 4), 256);
    TT_EQ_U(*(uint32_t *)exec_mem_host(d, out + 4, 4), 256);
    /* device malloc/free: memory freed by one warp and allocated again by another */
    uint64_t o2 = exec_mem_alloc(d, 1024, 256);
    r = launch(m, "k_heap", 1, 256, &o2, 8);
    TT_EQ_U(r.status, EXEC_OK);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 0);
    TT_EQ_U(((uint32_t *)exec_mem_host(d, o2, 1024))[200], 200);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

static void ck_race_flag(void)
{
    /* modes: 0 fences + volatile flag, 1 release/acquire, 2 no fences, 3 fence + atomics */
    static const uint32_t want[4] = {0, 0, 1, 0};
    for (uint32_t mode = 0; mode < 4; mode++) {
        exec_dev *d = exec_rig_dev("check.race=1");
        exec_mod *m = load(d);
        uint64_t data = exec_mem_alloc(d, 256, 256), flag = exec_mem_alloc(d, 256, 256);
        p_ppu p = {data, flag, mode};
        exec_result r = launch(m, "k_flag", 2, 32, &p, 20);
        TT_EQ_U(r.status, EXEC_OK);
        TT_EQ_U(*(uint32_t *)exec_mem_host(d, data + 4, 4), 7);
        if (found(d, EXEC_CHECK_RACE, NULL, NULL) != want[mode]) printf("    mode %u\n", mode);
        TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), want[mode]);
        exec_mod_unload(m);
        exec_dev_destroy(d);
    }
}

static void ck_race_grid_sync(void)
{
    for (uint32_t weak = 0; weak < 2; weak++) {
        exec_dev *d = exec_rig_dev("check.race=1");
        exec_mod *m = load(d);
        uint64_t a = exec_mem_alloc(d, 256, 256), b = exec_mem_alloc(d, 256, 256), c = exec_mem_alloc(d, 256, 256);
        p_pppu p = {a, b, c, weak};
        exec_result r = launch(m, "k_gsync", 2, 32, &p, 28);
        TT_EQ_U(r.status, EXEC_OK);
        TT_EQ_U(*(uint32_t *)exec_mem_host(d, b, 4), 32);
        /* release/acquire orders the grid; relaxed atomics without fences do not */
        TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), weak);
        exec_mod_unload(m);
        exec_dev_destroy(d);
    }
}

static void ck_race_intrawarp(void)
{
    exec_dev *d = exec_rig_dev("check.race_intrawarp=1");
    exec_mod *m = load(d);
    uint64_t out = exec_mem_alloc(d, 256, 256);
    p_pu p = {out, 0};
    launch(m, "k_warp", 1, 32, &p, 12);
    uint32_t a = 0, b = 0;
    TT_EQ_U(found(d, EXEC_CHECK_RACE_INTRAWARP, &a, &b), 1);
    TT_EQ_U(a, 6);
    TT_EQ_U(b, 12);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), 0);
    uint32_t n;
    const exec_finding *f = exec_check_findings(d, &n);
    TT_HAS(f[0].text, "intra-warp read-write race on shared memory");
    TT_HAS(f[0].text, "__syncwarp");
    p.u = 1; /* __syncwarp between */
    launch(m, "k_warp", 1, 32, &p, 12);
    TT_EQ_U(found(d, EXEC_CHECK_RACE_INTRAWARP, NULL, NULL), 0);
    exec_mod_unload(m);
    exec_dev_destroy(d);
    /* without check.race_intrawarp nothing is said */
    d = exec_rig_dev("check.race=1");
    m = load(d);
    out = exec_mem_alloc(d, 256, 256);
    p.a = out;
    p.u = 0;
    exec_result r = launch(m, "k_warp", 1, 32, &p, 12);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE] + r.findings[EXEC_CHECK_RACE_INTRAWARP], 0);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

static void ck_race_named_barrier(void)
{
    for (uint32_t racy = 0; racy < 2; racy++) {
        exec_dev *d = exec_rig_dev("check.race=1");
        exec_mod *m = load(d);
        uint64_t out = exec_mem_alloc(d, 256, 256);
        p_pu p = {out, racy};
        exec_result r = launch(m, "k_named", 1, 64, &p, 12);
        TT_EQ_U(r.status, EXEC_OK);
        TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), racy);
        exec_mod_unload(m);
        exec_dev_destroy(d);
    }
}

/* ---- initcheck ---------------------------------------------------------------------- */

static void ck_init(void)
{
    exec_dev *d = exec_rig_dev("check.init=1");
    exec_mod *m = load(d);
    uint64_t in = exec_mem_alloc(d, 256, 256), out = exec_mem_alloc(d, 256, 256);
    exec_check_track(d, in);
    exec_check_track(d, out);
    p_pp p = {in, out};
    /* fresh: one finding for the allocation, however many threads read it */
    exec_result r = launch(m, "k_copy", 2, 32, &p, 16);
    TT_EQ_U(r.findings[EXEC_CHECK_INIT], 1);
    uint32_t n;
    const exec_finding *f = exec_check_findings(d, &n);
    TT_EQ_U(n, 1);
    TT_EQ_STR(f[0].what, "uninitialized read");
    TT_EQ_U(f[0].addr, in);
    TT_EQ_U(f[0].pc[0], 8);
    TT_HAS(f[0].text, "4 of the 4 bytes read at global address");
    TT_HAS(f[0].text, "the 256-byte allocation at");
    /* out was written by the kernel: reading it now is fine */
    p_pp q = {out, in};
    exec_check_written(d, in, 256);
    r = launch(m, "k_copy", 2, 32, &q, 16);
    TT_EQ_U(r.findings[EXEC_CHECK_INIT], 0);
    /* a host write of the first half only */
    uint64_t h = exec_mem_alloc(d, 256, 256);
    exec_check_track(d, h);
    exec_check_written(d, h, 128);
    p_pp s = {h, out};
    r = launch(m, "k_copy", 1, 32, &s, 16);
    TT_EQ_U(r.findings[EXEC_CHECK_INIT], 0);
    r = launch(m, "k_copy", 2, 32, &s, 16);
    f = exec_check_findings(d, &n);
    TT_EQ_U(n, 1);
    if (n) TT_EQ_U(f[0].addr, h + 128);
    /* a device-to-device copy passes the state on: from the written half, and from the unwritten half */
    uint64_t c = exec_mem_alloc(d, 256, 256);
    exec_check_track(d, c);
    exec_check_copied(d, c, h, 256);
    p_pp t = {c, out};
    r = launch(m, "k_copy", 1, 32, &t, 16);
    TT_EQ_U(r.findings[EXEC_CHECK_INIT], 0);
    r = launch(m, "k_copy", 2, 32, &t, 16);
    TT_EQ_U(r.findings[EXEC_CHECK_INIT], 1);
    /* untracked memory (not declared device-only) is never reported */
    uint64_t u = exec_mem_alloc(d, 256, 256);
    p_pp v = {u, out};
    r = launch(m, "k_copy", 2, 32, &v, 16);
    TT_EQ_U(r.findings[EXEC_CHECK_INIT], 0);
    /* freed and allocated again: fresh */
    exec_mem_free(d, in);
    uint64_t in2 = exec_mem_alloc(d, 256, 256);
    TT_EQ_U(in2, in);
    exec_check_track(d, in2);
    r = launch(m, "k_copy", 2, 32, &p, 16);
    TT_EQ_U(r.findings[EXEC_CHECK_INIT], 1);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* The matrix loads and stores (wmma.load/.store, ldmatrix) go through the
** checks like ld and st. */
static void ck_matrix(void)
{
    exec_dev *d = exec_rig_dev("check.race=1 check.init=1");
    exec_mod *m = load(d);
    uint64_t a = exec_mem_alloc(d, 1024, 256), out = exec_mem_alloc(d, 1024, 256);
    exec_check_track(d, a);
    p_pp p = {a, out};
    /* two warps: both read a, which nothing wrote, and both write out */
    launch(m, "k_wmma", 1, 64, &p, 16);
    uint32_t x = 0, y = 0;
    TT_EQ_U(found(d, EXEC_CHECK_INIT, &x, NULL), 1);
    TT_EQ_U(x, 2);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, &x, &y), 1);
    TT_EQ_U(x, 3);
    TT_EQ_U(y, 3);
    /* one warp: no race; a written by the host: no uninitialized read */
    exec_check_written(d, a, 1024);
    launch(m, "k_wmma", 1, 32, &p, 16);
    TT_EQ_U(found(d, EXEC_CHECK_INIT, NULL, NULL), 0);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), 0);
    /* shared memory: wmma.store by warp 0, ldmatrix by warp 1 */
    uint32_t u = 0;
    launch(m, "k_ldm", 1, 64, &u, 4);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, &x, &y), 1);
    TT_EQ_U(x, 3);
    TT_EQ_U(y, 7);
    uint32_t n;
    const exec_finding *f = exec_check_findings(d, &n);
    if (n) TT_EQ_STR(f[0].space, "shared");
    u = 1;
    launch(m, "k_ldm", 1, 64, &u, 4);
    TT_EQ_U(found(d, EXEC_CHECK_RACE, NULL, NULL), 0);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* ---- synccheck ----------------------------------------------------------------------- */

static void ck_sync(void)
{
    static const char *what[9] = {"divergent barrier", "barrier mismatch", "thread count mismatch",
                                  "member mask mismatch", "member mask mismatch", NULL,
                                  "shuffle from an inactive lane", "shuffle from a lane outside the member mask",
                                  "shuffle from an inactive lane"};
    /* the words that say why, in the first finding's text */
    static const char *why[9] = {[6] = "lane 0 reads lane 16, which does not execute this instruction",
                                 [7] = "lane 0 reads lane 20, which executes it but is not in lane 0's member mask 0x0000ffff",
                                 [8] = "lane 0 reads lane 16, which has exited"};
    for (int its = 0; its < 2; its++)
        for (uint32_t mode = 0; mode < 9; mode++) {
            exec_dev *d = exec_rig_dev(its ? "check.sync=1 exec.its=1" : "check.sync=1");
            exec_mod *m = load(d);
            uint64_t out = exec_mem_alloc(d, 256, 256);
            uint32_t *o = exec_mem_host(d, out, 256);
            memset(o, 0xee, 256);
            p_pu p = {out, mode};
            exec_result r = launch(m, "k_sync", 1, 64, &p, 12);
            TT_EQ_U(r.status, EXEC_OK);
            uint32_t n;
            const exec_finding *f = exec_check_findings(d, &n);
            TT_EQ_U(n, what[mode] ? 1 : 0);
            if (n && what[mode]) TT_EQ_STR(f[0].what, what[mode]);
            if (n && why[mode]) TT_CHECK(strstr(f[0].text, why[mode]) != NULL);
            if (n != (what[mode] ? 1u : 0u)) printf("    mode %u: %s\n", mode, n ? f[0].text : "nothing");
            /* a lane that does not take part gives 0; lanes of the shfl in 7's upper half read lane 20 */
            for (uint32_t t = 0; t < 64 && mode >= 6; t++) {
                uint32_t lane = t % 32, want = 0xeeeeeeee;
                if (mode == 6 && lane < 4) want = 0;
                if (mode == 7) want = lane < 16 ? 0 : t / 32 * 32 + 20;
                if (mode == 8 && lane < 16) want = 0;
                TT_EQ_U(o[t], want);
            }
            exec_mod_unload(m);
            exec_dev_destroy(d);
        }
}

/* ---- independence from the schedule ------------------------------------------------- */

/* The kernels of the schedule tests: name, launch, parameters (buffers made
** per run: b0..b2 are the first three allocations), and the findings every
** schedule must give, as "kind:pc0:pc1" sorted (empty: none). */
typedef struct sched_case {
    const char *kernel;
    uint32_t grid, block, mode;
    int layout;        /* 0: (b0); 1: (b0, mode); 2: (b0, b1); 3: (b0, b1, mode); 4: (b0, b1, b2, mode) */
    const char *want;
} sched_case;

static const sched_case cases[] = {
    {"k_ww", 1, 64, 0, 0, "0:2:2"},
    {"k_sh", 1, 64, 0, 1, "0:6:13"},
    {"k_sh", 1, 64, 1, 1, ""},
    {"k_xcta", 2, 32, 0, 2, "0:8:13"},
    {"k_flag", 2, 32, 0, 3, ""},
    {"k_flag", 2, 32, 1, 3, ""},
    {"k_flag", 2, 32, 2, 3, "0:10:41"},
    {"k_flag", 2, 32, 3, 3, ""},
    {"k_gsync", 2, 32, 0, 4, ""},
    {"k_gsync", 2, 32, 1, 4, "0:10:31"},
    {"k_named", 1, 64, 0, 1, ""},
    {"k_named", 1, 64, 1, 1, "0:9:16"},
    {"k_atom", 4, 64, 0, 0, ""},
};

/* Packs the parameters of case c over buffers b[]. */
static uint32_t params_of(const sched_case *c, const uint64_t *b, uint8_t *buf)
{
    uint32_t n = 0;
    int nb = c->layout == 0 || c->layout == 1 ? 1 : c->layout == 4 ? 3 : 2;
    for (int i = 0; i < nb; i++, n += 8) memcpy(buf + n, &b[i], 8);
    if (c->layout == 1 || c->layout == 3 || c->layout == 4) {
        memcpy(buf + n, &c->mode, 4);
        n += 4;
    }
    return n;
}

/* The launch's findings as "kind:pc0:pc1 ..." in sorted order. */
static void findings_text(exec_dev *d, char *out, size_t n)
{
    uint32_t k;
    const exec_finding *f = exec_check_findings(d, &k);
    char items[16][32];
    uint32_t m = 0;
    for (uint32_t i = 0; i < k && m < 16; i++)
        snprintf(items[m++], sizeof items[0], "%d:%u:%u", (int)f[i].kind, f[i].pc[0], f[i].pc[1]);
    qsort(items, m, sizeof items[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (uint32_t i = 0; i < m; i++) {
        if (i) strncat(out, " ", n - strlen(out) - 1);
        strncat(out, items[i], n - strlen(out) - 1);
    }
}

/* Every case at exec.quantum 1, 2, 7, 256 and 100000, with CTA turns of one
** round (exec.cta_patience=0) and of up to 100000 instructions without
** progress, and with independent thread scheduling, gives its findings. */
static void ck_quantum(void)
{
    static const char *q[] = {"1", "2", "7", "256", "100000", "256 exec.its=1", "1 exec.its=1",
                              "1 exec.cta_patience=0", "256 exec.cta_patience=0", "7 exec.cta_patience=100000"};
    for (size_t c = 0; c < TP_ARRAY_LEN(cases); c++)
        for (size_t i = 0; i < TP_ARRAY_LEN(q); i++) {
            char opts[96];
            snprintf(opts, sizeof opts, "check.race=1 exec.quantum=%s", q[i]);
            exec_dev *d = exec_rig_dev(opts);
            exec_mod *m = load(d);
            uint64_t b[3];
            for (int k = 0; k < 3; k++) b[k] = exec_mem_alloc(d, 256, 256);
            uint8_t buf[64];
            uint32_t pb = params_of(&cases[c], b, buf);
            exec_result r = launch(m, cases[c].kernel, cases[c].grid, cases[c].block, buf, pb);
            TT_EQ_U(r.status, EXEC_OK);
            char got[512];
            findings_text(d, got, sizeof got);
            if (strcmp(got, cases[c].want) != 0)
                printf("    %s mode %u at exec.quantum=%s: \"%s\"\n", cases[c].kernel, cases[c].mode, q[i], got);
            TT_EQ_STR(got, cases[c].want);
            exec_mod_unload(m);
            exec_dev_destroy(d);
        }
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Runs a launch through the stepping interface, one warp instruction at a
** time, the warp chosen at random among those ready (as a timing model
** might); every CTA of the (small) grid resident at once. */
static exec_status run_random(exec_mod *m, const char *kernel, uint32_t grid, uint32_t block, const void *p,
                              uint32_t pb, uint64_t seed)
{
    exec_launch l = {{grid, 1, 1}, {block, 1, 1}, 0, p, pb, 0};
    exec_result r;
    exec_grid *g = exec_grid_open(m, exec_mod_kernel(m, kernel), &l, &r);
    if (!g) return r.status;
    exec_cta *ctas[16];
    bool live[16];
    uint32_t nc = 0;
    exec_cta *c;
    while (nc < 16 && (c = exec_cta_start(g, nc))) live[nc] = true, ctas[nc++] = c;
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1, cycle = 0;
    for (;;) {
        exec_warp *ready[16 * 32];
        uint32_t nr = 0, nlive = 0;
        for (uint32_t i = 0; i < nc; i++) {
            if (!live[i]) continue;
            nlive++;
            for (uint32_t k = 0; k < exec_cta_nwarps(ctas[i]); k++) {
                exec_next n;
                exec_warp *w = exec_cta_warp(ctas[i], k);
                if (exec_warp_next(w, &n) == EXEC_WS_READY) ready[nr++] = w;
            }
        }
        if (!nlive || exec_grid_status(g) != EXEC_OK) break;
        if (!nr) {
            exec_grid_watchdog(g, true);
            break;
        }
        exec_rec rec;
        exec_warp_step(ready[rnd(&s) % nr], ++cycle, &rec);
        if (rec.events & EXEC_EV_CTA_DONE)
            for (uint32_t i = 0; i < nc; i++)
                if (live[i] && exec_cta_done(ctas[i])) {
                    exec_cta_release(ctas[i]);
                    live[i] = false;
                }
        if (cycle % 4096 == 0 && exec_grid_watchdog(g, false) != EXEC_OK) break;
    }
    return exec_grid_close(g, &r);
}

/* 200 random interleavings of single warp instructions per case: the racy
** ones always report their race, the ordered ones never anything. */
static void ck_random_interleavings(void)
{
    for (size_t c = 0; c < TP_ARRAY_LEN(cases); c++) {
        uint32_t bad = 0;
        for (uint64_t seed = 1; seed <= 200; seed++) {
            exec_dev *d = exec_rig_dev("check.race=1");
            exec_mod *m = load(d);
            uint64_t b[3];
            for (int k = 0; k < 3; k++) b[k] = exec_mem_alloc(d, 256, 256);
            uint8_t buf[64];
            uint32_t pb = params_of(&cases[c], b, buf);
            exec_status st = run_random(m, cases[c].kernel, cases[c].grid, cases[c].block, buf, pb, seed);
            char got[512];
            findings_text(d, got, sizeof got);
            if (st != EXEC_OK || strcmp(got, cases[c].want) != 0) {
                if (!bad++)
                    printf("    %s mode %u, seed %llu: status %d, findings \"%s\"\n", cases[c].kernel, cases[c].mode,
                           (unsigned long long)seed, (int)st, got);
            }
            exec_mod_unload(m);
            exec_dev_destroy(d);
        }
        TT_EQ_U(bad, 0);
    }
}

/* Three loads on one source line (an unrolled loop's copies), each racing
** with one store: three findings, one report; on three lines, three. */
static const char *unroll_ptx = HDR
    ".file 1 \"tile.cu\"\n"
    ".visible .entry k_unroll(.param .u32 split)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<16>;\n"
    "  .shared .align 4 .b32 sh[64];\n"
    "  .loc 1 5 1\n"
    "  ld.param.u32 %r9, [split];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  mov.u32 %r3, sh;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  .loc 1 6 1\n"
    "  st.shared.u32 [%r4], %r1;\n"
    "  .loc 1 7 1\n"
    "  add.s32 %r5, %r1, 32;\n"
    "  and.b32 %r5, %r5, 63;\n"
    "  shl.b32 %r5, %r5, 2;\n"
    "  add.s32 %r5, %r3, %r5;\n"
    "  setp.ne.u32 %p1, %r9, 0;\n"
    "  @%p1 bra SPLIT;\n"
    "  .loc 1 8 1\n"
    "  ld.shared.u32 %r6, [%r5];\n"
    "  ld.shared.u32 %r7, [%r5];\n"
    "  ld.shared.u32 %r8, [%r5];\n"
    "  ret;\n"
    "SPLIT:\n"
    "  .loc 1 9 1\n"
    "  ld.shared.u32 %r6, [%r5];\n"
    "  .loc 1 10 1\n"
    "  ld.shared.u32 %r7, [%r5];\n"
    "  .loc 1 11 1\n"
    "  ld.shared.u32 %r8, [%r5];\n"
    "  ret;\n"
    "}\n";

static void ck_race_one_report_per_lines(void)
{
    exec_dev *d = exec_rig_dev("check.race=1");
    tp_err e;
    tp_err_clear(&e);
    exec_status st;
    exec_mod *m = exec_mod_load(d, unroll_ptx, strlen(unroll_ptx), "tile.ptx", &st, &e);
    TT_CHECK(m != NULL);
    if (!m) {
        printf("    %s\n", e.msg);
        exec_dev_destroy(d);
        return;
    }
    uint32_t split = 0;
    exec_result r = launch(m, "k_unroll", 1, 64, &split, 4);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 3);   /* findings are counted as before */
    uint32_t n;
    const exec_report *rep = exec_check_reports(d, &n);
    TT_EQ_U(n, 1);
    if (n == 1) {
        TT_EQ_U(rep[0].kind, EXEC_CHECK_RACE);
        TT_EQ_U(rep[0].findings, 3);
        TT_EQ_U(rep[0].addresses, 64);
        TT_EQ_U(rep[0].threads, 64);
        TT_EQ_U(rep[0].occurrences, 128);
        TT_HAS(rep[0].text, "read-write race on shared memory in kernel 'k_unroll', shared address 0x");
        TT_HAS(rep[0].text, "[tile.cu:6]\n    read  by block (0,0,0) thread (");
        TT_HAS(rep[0].text, "[tile.cu:8]\n    in all: 3 instruction pairs on these source lines, 64 addresses, 64 "
                            "threads, 128 conflicting accesses");
    }
    uint64_t tot[EXEC_CHECK_KINDS], occ[EXEC_CHECK_KINDS], reps[EXEC_CHECK_KINDS];
    exec_check_totals(d, tot, occ);
    exec_check_report_totals(d, reps);
    TT_EQ_U(tot[EXEC_CHECK_RACE], 3);
    TT_EQ_U(reps[EXEC_CHECK_RACE], 1);
    /* the loads on three lines: three reports of one pair each */
    split = 1;
    r = launch(m, "k_unroll", 1, 64, &split, 4);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 3);
    rep = exec_check_reports(d, &n);
    TT_EQ_U(n, 3);
    for (uint32_t i = 0; i < n; i++) {
        TT_EQ_U(rep[i].findings, 1);
        TT_HAS(rep[i].text, "\n    in all: 1 instruction pair, ");
    }
    exec_check_report_totals(d, reps);
    TT_EQ_U(reps[EXEC_CHECK_RACE], 4);
    /* the same launch again: nothing new, no report */
    split = 0;
    r = launch(m, "k_unroll", 1, 64, &split, 4);
    TT_EQ_U(r.findings[EXEC_CHECK_RACE], 0);
    exec_check_reports(d, &n);
    TT_EQ_U(n, 0);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

int main(void)
{
    /* the reports go to stderr; the verdicts to stdout */
    if (!getenv("CHECK_VERBOSE")) (void)!freopen("/dev/null", "w", stderr);
    TT_RUN(ck_race_write_write);
    TT_RUN(ck_race_shared_barrier);
    TT_RUN(ck_race_across_ctas);
    TT_RUN(ck_race_atomics);
    TT_RUN(ck_race_flag);
    TT_RUN(ck_race_grid_sync);
    TT_RUN(ck_race_intrawarp);
    TT_RUN(ck_race_named_barrier);
    TT_RUN(ck_race_one_report_per_lines);
    TT_RUN(ck_init);
    TT_RUN(ck_matrix);
    TT_RUN(ck_sync);
    TT_RUN(ck_quantum);
    TT_RUN(ck_random_interleavings);
    return tt_done();
}
