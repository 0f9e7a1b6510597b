/*
** test_gpu_code.c -- exec.code: which instruction stream the timing model
** runs (docs/TIMING.md, "The code that is timed").  With exec.code=ptx the
** SMs run nvcc's PTX in program order; with exec.code=scheduled (in
** performance mode) they run the lowered code of ptx_lower -- each basic
** block list-scheduled, long-latency loads first, over the allocation's
** physical registers -- as regs.physical=1 does in either mode.  The same
** small kernels run both ways, on the GTX 480 defaults (gpu_rig.h's
** conventions: an instruction issued at t dispatches at t + 1; a load's data
** is there at dispatch + its latency, when a dependent instruction may
** issue; a scheduler issues one instruction per cycle; two memory operand
** collectors, sm.oc_mem = 2, each free again when its instruction
** dispatches).
**
** Scenarios:
**   1. four independent shared-memory loads, each with its own add: in
**      program order each add waits out its load before the next load
**      issues; scheduled, the four loads issue back to back, then the adds.
**   2. the same with global loads that hit in the L1D (l1d.latency).
**   3. a dependent chain (a pointer chase through shared memory, as the
**      microbenchmarks time): scheduling cannot move it; the same cycles.
**   4. the results, the register count (the allocation's, in both), and
**      where the option applies: performance mode only; regs.physical=1
**      runs the lowered code in either mode.
*/
#include "tests/unit/tt.h"
#include "tests/unit/gpu_rig.h"
#include "ptx/ptx.h"
#include <stdlib.h>

#define PERF "mode=performance"
#define PTX_CODE PERF " exec.code=ptx"
#define SCHED PERF " exec.code=scheduled"

/* out[0] = clock after - clock before around four independent loads and
** their adds (every lane writes it: one value); each lane's sum of the
** adds and of the four fillers at out + 16 + 4 lane.  The set-up (shared stores, or the
** global loads that bring the lines into the L1D and are used) ends with a
** barrier, and four adds that depend on %tid (so that they are not
** constants the lowering hoists) let the LD/ST unit and the write-backs
** drain before the first clock read; nothing crosses a barrier or a clock
** read, so the scheduler can only reorder within the timed part. */
#define TIMED(LD, A)                                            \
    "  add.s32 %r30, %r20, 1;\n  add.s32 %r31, %r20, 2;\n"      \
    "  add.s32 %r32, %r20, 3;\n  add.s32 %r33, %r20, 4;\n"      \
    "  mov.u64 %rd2, %clock64;\n"                               \
    "  " LD " %r1, [" A "];\n"                                \
    "  add.s32 %r2, %r1, 1;\n"                                  \
    "  " LD " %r3, [" A "+128];\n"                                \
    "  add.s32 %r4, %r3, 2;\n"                                  \
    "  " LD " %r5, [" A "+256];\n"                                \
    "  add.s32 %r6, %r5, 3;\n"                                  \
    "  " LD " %r7, [" A "+384];\n"                                \
    "  add.s32 %r8, %r7, 4;\n"                                  \
    TIMED_TAIL
/* The second clock read and what follows it (TIMED, guarded_global). */
#define TIMED_TAIL                                              \
    "  mov.u64 %rd3, %clock64;\n"                               \
    "  sub.s64 %rd4, %rd3, %rd2;\n"                             \
    "  st.global.u64 [%rd1], %rd4;\n"                           \
    "  add.s32 %r9, %r2, %r4;\n"                                \
    "  add.s32 %r10, %r6, %r8;\n"                               \
    "  add.s32 %r11, %r9, %r10;\n"                              \
    "  add.s32 %r11, %r11, %r30;\n"                             \
    "  add.s32 %r11, %r11, %r31;\n"                             \
    "  add.s32 %r11, %r11, %r32;\n"                             \
    "  add.s32 %r11, %r11, %r33;\n"                             \
    "  mul.wide.u32 %rd8, %r20, 4;\n"                           \
    "  add.s64 %rd9, %rd1, %rd8;\n"                             \
    "  st.global.u32 [%rd9+16], %r11;\n"                        \
    "  ret;\n"                                                  \
    "}\n"

/* in[lane + 32 k], k = 0..3, loaded and used (so in the L1D) before the
** timed part: %rd7 = in + 4 lane */
#define WARM_IN                                                 \
    "  mul.wide.u32 %rd6, %r20, 4;\n"                           \
    "  add.s64 %rd7, %rd5, %rd6;\n"                             \
    "  ld.global.u32 %r25, [%rd7];\n"                           \
    "  ld.global.u32 %r26, [%rd7+128];\n"                       \
    "  ld.global.u32 %r27, [%rd7+256];\n"                       \
    "  ld.global.u32 %r28, [%rd7+384];\n"                       \
    "  add.s32 %r29, %r25, %r26;\n"                             \
    "  add.s32 %r29, %r29, %r27;\n"                             \
    "  add.s32 %r29, %r29, %r28;\n"                             \
    "  st.global.u32 [%rd1+12], %r29;\n"

static const char *code_ptx = HDR
    /* 1: s[lane + 32 k] = lane or lane + 100 */
    ".visible .entry hoist_shared(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<12>;\n"
    "  .shared .align 4 .b32 s[128];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r20, %tid.x;\n"
    "  shl.b32 %r21, %r20, 2;\n"
    "  mov.u32 %r22, s;\n"
    "  add.s32 %r23, %r22, %r21;\n"
    "  add.s32 %r24, %r20, 100;\n"
    "  st.shared.u32 [%r23], %r20;\n"
    "  st.shared.u32 [%r23+128], %r24;\n"
    "  st.shared.u32 [%r23+256], %r20;\n"
    "  st.shared.u32 [%r23+384], %r24;\n"
    "  bar.sync 0;\n"
    TIMED("ld.shared.u32", "%r23")
    /* 2: in[lane + 32 k], k = 0..3, one 128-byte line each; a first pass
    ** loads them (misses) and uses them before the barrier */
    ".visible .entry hoist_global(.param .u64 out, .param .u64 in)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd5, [in];\n"
    "  mov.u32 %r20, %tid.x;\n"
    WARM_IN
    "  bar.sync 0;\n"
    TIMED("ld.global.u32", "%rd7")
    /* 3: four dependent shared loads, p = s[p] from p = lane: s[i] holds
    ** (i + 32) * 4 mod 512, so the chase visits lane, lane + 32, lane + 64,
    ** lane + 96 and ends at lane */
    ".visible .entry chase_shared(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<12>;\n"
    "  .shared .align 4 .b32 s[128];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r20, %tid.x;\n"
    "  shl.b32 %r21, %r20, 2;\n"
    "  mov.u32 %r22, s;\n"
    "  add.s32 %r23, %r22, %r21;\n"
    "  add.s32 %r24, %r21, 128;\n"
    "  st.shared.u32 [%r23], %r24;\n"
    "  add.s32 %r24, %r21, 256;\n"
    "  st.shared.u32 [%r23+128], %r24;\n"
    "  add.s32 %r24, %r21, 384;\n"
    "  st.shared.u32 [%r23+256], %r24;\n"
    "  st.shared.u32 [%r23+384], %r21;\n"
    "  bar.sync 0;\n"
    "  add.s32 %r30, %r20, 1;\n  add.s32 %r31, %r20, 2;\n"
    "  add.s32 %r32, %r20, 3;\n  add.s32 %r33, %r20, 4;\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  ld.shared.u32 %r1, [%r23];\n"
    "  add.s32 %r2, %r22, %r1;\n"
    "  ld.shared.u32 %r3, [%r2];\n"
    "  add.s32 %r4, %r22, %r3;\n"
    "  ld.shared.u32 %r5, [%r4];\n"
    "  add.s32 %r6, %r22, %r5;\n"
    "  ld.shared.u32 %r7, [%r6];\n"
    "  add.s32 %r8, %r7, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n"
    "  st.global.u64 [%rd1], %rd4;\n"
    "  add.s32 %r11, %r8, %r30;\n"
    "  add.s32 %r11, %r11, %r31;\n"
    "  add.s32 %r11, %r11, %r32;\n"
    "  add.s32 %r11, %r11, %r33;\n"
    "  mul.wide.u32 %rd8, %r20, 4;\n"
    "  add.s64 %rd9, %rd1, %rd8;\n"
    "  st.global.u32 [%rd9+16], %r11;\n"
    "  ret;\n"
    "}\n"
    /* 5: hoist_global's loads and adds, each pair behind a branch that
    ** lanes >= lim take (nvcc's `if (lane < lim)` round each body) */
    ".visible .entry guarded_global(.param .u64 out, .param .u64 in, .param .u32 lim)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<40>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd5, [in];\n"
    "  ld.param.u32 %r19, [lim];\n"
    "  mov.u32 %r20, %tid.x;\n"
    "  setp.ge.u32 %p1, %r20, %r19;\n"
    WARM_IN
    "  mov.u32 %r2, 0;\n  mov.u32 %r4, 0;\n  mov.u32 %r6, 0;\n  mov.u32 %r8, 0;\n"
    "  bar.sync 0;\n"
    "  add.s32 %r30, %r20, 1;\n  add.s32 %r31, %r20, 2;\n"
    "  add.s32 %r32, %r20, 3;\n  add.s32 %r33, %r20, 4;\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  @%p1 bra G1;\n"
    "  ld.global.u32 %r1, [%rd7];\n"
    "  add.s32 %r2, %r1, 1;\n"
    "G1:\n"
    "  @%p1 bra G2;\n"
    "  ld.global.u32 %r3, [%rd7+128];\n"
    "  add.s32 %r4, %r3, 2;\n"
    "G2:\n"
    "  @%p1 bra G3;\n"
    "  ld.global.u32 %r5, [%rd7+256];\n"
    "  add.s32 %r6, %r5, 3;\n"
    "G3:\n"
    "  @%p1 bra G4;\n"
    "  ld.global.u32 %r7, [%rd7+384];\n"
    "  add.s32 %r8, %r7, 4;\n"
    "G4:\n"
    TIMED_TAIL
;

typedef struct run {
    uint64_t delta;     /* out[0]: the timed part's cycles (lane 0) */
    uint32_t sum[32];   /* each lane's result (out + 16 + 4 lane) */
    uint32_t regs;      /* registers per thread the launch was charged */
    uint64_t warp_insns;
    bool lowered;       /* the module runs the lowered code */
} run;

/* Kernel k on one warp with the options opts; in: 512 bytes of words
** in[i] = 3 i (only hoist_global and guarded_global read it); lim:
** guarded_global's (lanes from lim on skip its bodies). */
static run run_lim(const char *k, const char *opts, uint32_t lim)
{
    run x;
    memset(&x, 0, sizeof x);
    gpu_rig r;
    if (!gpu_rig_open(&r, code_ptx, opts, "code.ptx")) {
        tt_fail_msg(__FILE__, __LINE__, "%s: the module did not load", opts);
        gpu_rig_close(&r);
        return x;
    }
    uint64_t out = exec_mem_alloc(r.dev, 256, 256), in = exec_mem_alloc(r.dev, 512, 256);
    uint32_t *w = exec_mem_host(r.dev, in, 512);
    for (uint32_t i = 0; i < 128; i++) w[i] = 3 * i;
    struct { uint64_t out, in; uint32_t lim; } p = {out, in, lim};
    uint32_t bytes = !strcmp(k, "guarded_global") ? 20 : !strcmp(k, "hoist_global") ? 16 : 8;
    gpu_kstats ks;
    TT_EQ_I(gpu_rig_launch(&r, k, 1, 32, &p, bytes, &ks, NULL), EXEC_OK);
    x.delta = *(uint64_t *)exec_mem_host(r.dev, out, 8);
    memcpy(x.sum, exec_mem_host(r.dev, out + 16, sizeof x.sum), sizeof x.sum);
    x.warp_insns = ks.warp_insns;
    exec_kattr a;
    int f = exec_mod_kernel(r.m, k);
    exec_kernel_attrs(r.m, f, &a);
    x.regs = a.regs;
    /* the lowered code keeps the constant-bank rows it re-creates (ra_cb) */
    x.lowered = exec_mod_ptx(r.m)->funcs[f].ra_cb != NULL;
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    return x;
}

static run run_kernel(const char *k, const char *opts) { return run_lim(k, opts, 32); }

/* 1. Shared loads (shmem.latency 26, no bank conflict: one LD/ST cycle
** each).  t0 is the first clock read's issue cycle.
**   ptx: load k (k = 0..3) issues at t0 + 1 + 28 k, dispatches a cycle
**   later, its data is there 26 cycles after that, at t0 + 28 + 28 k, when
**   its add issues; the next load issues the cycle after the add.  The last
**   add issues at t0 + 112, the second clock read at t0 + 113: 113.
**   scheduled: the loads issue at t0 + 1 .. t0 + 4 (two collectors, each
**   free again at its load's dispatch; the LD/ST unit takes one a cycle),
**   their data is there at t0 + 28 .. t0 + 31, each add issues as its
**   load's data arrives, the last at t0 + 31, the clock read at t0 + 32: 32. */
static void t_hoist_shared(void)
{
    run a = run_kernel("hoist_shared", PTX_CODE), b = run_kernel("hoist_shared", SCHED);
    TT_EQ_U(a.delta, 113);
    TT_EQ_U(b.delta, 32);
    TT_CHECK(!a.lowered);
    TT_CHECK(b.lowered);
    /* lane L: (L + 1) + (L + 100 + 2) + (L + 3) + (L + 100 + 4), plus the
    ** fillers L + 1 .. L + 4: 8 L + 220 */
    TT_EQ_U(a.sum[0], 220);
    TT_EQ_U(a.sum[31], 468);
    TT_CHECK(!memcmp(a.sum, b.sum, sizeof a.sum));
    TT_EQ_U(a.regs, b.regs);
    /* shmem.latency = 40: 4 * (2 + 40) + 1 = 169 in program order;
    ** 4 + 1 + 40 + 1 = 46 scheduled */
    TT_EQ_U(run_kernel("hoist_shared", PTX_CODE " shmem.latency=40").delta, 169);
    TT_EQ_U(run_kernel("hoist_shared", SCHED " shmem.latency=40").delta, 46);
}

/* 2. Global loads that hit in the L1D (l1d.latency 35): the same timeline
** with the hit latency in place of shared memory's.
**   ptx: 4 * (2 + 35) + 1 = 149;  scheduled: 4 + 1 + 35 + 1 = 41. */
static void t_hoist_global(void)
{
    run a = run_kernel("hoist_global", PTX_CODE), b = run_kernel("hoist_global", SCHED);
    TT_EQ_U(a.delta, 149);
    TT_EQ_U(b.delta, 41);
    /* lane L: in[L + 32 k] = 3 L + 96 k, plus k + 1, plus the fillers:
    ** 12 L + 586 + 4 L + 10 = 16 L + 596 */
    TT_EQ_U(a.sum[0], 596);
    TT_EQ_U(a.sum[31], 1092);
    TT_CHECK(!memcmp(a.sum, b.sum, sizeof a.sum));
    TT_EQ_U(a.regs, b.regs);
}

/* 3. A dependent chain: each load's address is the add of the previous
** load's value, so the schedule is the program order.  The first load
** issues at t0 + 1; each load's data is there 27 cycles after its issue
** (dispatch a cycle later, shmem.latency 26), when its add issues, which
** writes back lat.int_add + 1 = 5 cycles later, when the next load issues:
** loads at t0 + 1, 33, 65, 97; the last add issues at t0 + 124 and the
** clock read at t0 + 125, either way. */
static void t_chain_unchanged(void)
{
    run a = run_kernel("chase_shared", PTX_CODE), b = run_kernel("chase_shared", SCHED);
    TT_EQ_U(a.delta, 125);
    TT_EQ_U(b.delta, 125);
    /* lane L ends at s[L + 96] = 4 L: 4 L + 1 plus the fillers, 8 L + 11 */
    TT_EQ_U(a.sum[0], 11);
    TT_EQ_U(a.sum[31], 259);
    TT_CHECK(!memcmp(a.sum, b.sum, sizeof a.sum));
}

/* 4. Where the option applies: exec.code=scheduled only in performance
** mode; regs.physical=1 runs the lowered code in any mode; the default (the
** table's, the GTX 480's) is ptx. */
static void t_where(void)
{
    tp_opts o;
    exec_opts_init(&o);
    TT_CHECK(!exec_runs_lowered(&o));
    tp_err e;
    tp_err_clear(&e);
    TT_CHECK(tp_opts_set_list(&o, "exec.code=scheduled", TP_SRC_OVERRIDE, &e));
    TT_CHECK(!exec_runs_lowered(&o)); /* functional mode */
    TT_CHECK(tp_opts_set_list(&o, "mode=performance", TP_SRC_OVERRIDE, &e));
    TT_CHECK(exec_runs_lowered(&o));
    TT_CHECK(tp_opts_set_list(&o, "exec.code=ptx", TP_SRC_OVERRIDE, &e));
    TT_CHECK(!exec_runs_lowered(&o));
    TT_CHECK(tp_opts_set_list(&o, "mode=functional regs.physical=1", TP_SRC_OVERRIDE, &e));
    TT_CHECK(exec_runs_lowered(&o));
    tp_opts_free(&o);
    /* through the rig: functional mode with exec.code=scheduled loads the
    ** PTX; the timing model then still runs what was loaded */
    run f = run_kernel("hoist_shared", "exec.code=scheduled");
    TT_CHECK(!f.lowered);
    TT_EQ_U(f.delta, 113);
    TT_EQ_U(f.sum[0], 220);
    run p = run_kernel("hoist_shared", "regs.physical=1");
    TT_CHECK(p.lowered);
    TT_EQ_U(p.delta, 32);
}

/* 5. exec.ifconvert (ptx/ifconv.c): guarded_global's four bodies, each
** behind a branch round it.  Scheduled without it, each body is a block
** of its own, which the scheduler cannot leave: each load waits out its
** latency before the next body's branch, as in program order (149), and
** each branch costs its issue cycle: 153.  With exec.ifconvert=2 (each
** body is 2 instructions) the branches go, the bodies run under @!%p1 and
** the timed part is one block: the code hoist_global's schedule times,
** 41 cycles.  exec.ifconvert=1 is too short for these bodies: nothing
** changes.  Results: the same in every case, for lim 32 (every lane runs
** the bodies) and 16 (lanes 16..31 skip them: only their fillers, 4 L +
** 10). */
static void t_ifconvert(void)
{
    run h = run_kernel("hoist_global", SCHED);
    run a = run_kernel("guarded_global", PTX_CODE), b = run_kernel("guarded_global", SCHED),
        c = run_kernel("guarded_global", SCHED " exec.ifconvert=2"),
        d = run_kernel("guarded_global", SCHED " exec.ifconvert=1");
    TT_EQ_U(c.delta, 41);
    TT_EQ_U(c.delta, h.delta);
    TT_EQ_U(a.delta, 153);      /* program order's 149 (t_hoist_global) and a cycle for each branch's issue */
    TT_EQ_U(b.delta, 153);
    TT_EQ_U(d.delta, b.delta);
    TT_EQ_U(c.regs, b.regs);   /* the count is the unconverted code's (exec_mod_load) */
    /* the parameter lim, the guard's setp and the four movs that set r2..r8
    ** for lanes that skip: 6 more; no branch left */
    TT_EQ_U(h.warp_insns + 6, c.warp_insns);
    TT_EQ_U(b.warp_insns, c.warp_insns + 4);   /* the four branches */
    TT_EQ_U(a.sum[0], 596);
    TT_EQ_U(a.sum[31], 1092);
    TT_CHECK(!memcmp(a.sum, b.sum, sizeof a.sum));
    TT_CHECK(!memcmp(a.sum, c.sum, sizeof a.sum));
    run e = run_lim("guarded_global", PTX_CODE, 16), f = run_lim("guarded_global", SCHED " exec.ifconvert=2", 16),
        g = run_lim("guarded_global", "regs.physical=1 exec.ifconvert=2", 16);
    TT_EQ_U(e.sum[15], 16 * 15 + 596);
    TT_EQ_U(e.sum[16], 4 * 16 + 10);
    TT_EQ_U(e.sum[31], 4 * 31 + 10);
    TT_CHECK(!memcmp(e.sum, f.sum, sizeof e.sum));
    TT_CHECK(!memcmp(e.sum, g.sum, sizeof e.sum));
}

/* The same launch twice gives the same cycles (determinism). */
static void t_deterministic(void)
{
    run a = run_kernel("hoist_global", SCHED), b = run_kernel("hoist_global", SCHED);
    TT_EQ_U(a.delta, b.delta);
    TT_EQ_U(a.warp_insns, b.warp_insns);
}

int main(void)
{
    TT_RUN(t_hoist_shared);
    TT_RUN(t_hoist_global);
    TT_RUN(t_chain_unchanged);
    TT_RUN(t_where);
    TT_RUN(t_ifconvert);
    TT_RUN(t_deterministic);
    return tt_done();
}
