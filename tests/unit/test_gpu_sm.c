/*
** test_gpu_sm.c -- exact-cycle scenarios of the SM model (gpu/), each a tiny
** PTX kernel that reads %clock64 (which reads the cycle exec_warp_step is
** given: the instruction's issue cycle) around the work it measures, run by
** gpu_launch on the GTX 480 defaults with the options named in each test.
**
** The conventions the golden numbers follow (gpu/internal.h):
**   - an instruction issued at t reads its operands at t + 1 and dispatches
**     then; a pipeline of latency L writes back at t + 1 + L, when a
**     dependent instruction may issue: a dependent chain issues every L + 1
**     cycles;
**   - one scheduler issues at most one instruction per cycle; a warp issues
**     in order;
**   - the instruction buffer holds sm.ibuffer (2) entries, refilled by fetch
**     in the cycle after the one that freed them (sm.fetch_latency 1): a warp
**     with independent instructions issues one per cycle.
*/
#include "tests/unit/tt.h"
#include "tests/unit/gpu_rig.h"
#include <stdlib.h>

/* A kernel `name` that writes out[0] = clock after - clock before around
** `body`, then does `tail`; %r1 = 7 is ready before the first clock read
** (four fillers between), and so is what `setup` computes (TIMED_KERNEL_S;
** %f and %fd registers are declared for it). */
#define TIMED_KERNEL(name, body, tail) TIMED_KERNEL_S(name, "", body, tail)
#define TIMED_KERNEL_S(name, setup, body, tail)                                \
    ".visible .entry " name "(.param .u64 out)\n"                             \
    "{\n"                                                                     \
    "  .reg .b32 %r<40>; .reg .b64 %rd<8>; .reg .f32 %f<8>; .reg .f64 %fd<10>;\n" \
    "  ld.param.u64 %rd1, [out];\n"                                           \
    "  mov.u32 %r1, 7;\n" setup FILL                                          \
    "  mov.u64 %rd2, %clock64;\n" body                                        \
    "  mov.u64 %rd3, %clock64;\n"                                             \
    "  sub.s64 %rd4, %rd3, %rd2;\n"                                           \
    "  st.global.u64 [%rd1], %rd4;\n" tail                                    \
    "  ret;\n"                                                                \
    "}\n"
/* ten instructions `op d, a, 1`: each on the last one's %r1, or all on %r1 */
#define DEP10(op)                                                              \
    "  " op " %r1, %r1, 1;\n  " op " %r1, %r1, 1;\n  " op " %r1, %r1, 1;\n"      \
    "  " op " %r1, %r1, 1;\n  " op " %r1, %r1, 1;\n  " op " %r1, %r1, 1;\n"      \
    "  " op " %r1, %r1, 1;\n  " op " %r1, %r1, 1;\n  " op " %r1, %r1, 1;\n"      \
    "  " op " %r1, %r1, 1;\n"
#define INDEP10(op)                                                            \
    "  " op " %r2, %r1, 1;\n  " op " %r3, %r1, 1;\n  " op " %r4, %r1, 1;\n"      \
    "  " op " %r5, %r1, 1;\n  " op " %r6, %r1, 1;\n  " op " %r7, %r1, 1;\n"      \
    "  " op " %r8, %r1, 1;\n  " op " %r9, %r1, 1;\n  " op " %r10, %r1, 1;\n"     \
    "  " op " %r11, %r1, 1;\n"

/* out[0] = clock after - clock before, around 10 dependent integer adds
** (chain) or the same adds independent of each other (indep). */
static const char *chain_ptx = HDR
    TIMED_KERNEL("chain", DEP10("add.s32"), "  st.global.u32 [%rd1+8], %r1;\n")
    TIMED_KERNEL("indep", INDEP10("add.s32"), "");

static uint64_t clock_delta(gpu_rig *r, const char *k, const char *opts_unused, gpu_kstats *ks)
{
    (void)opts_unused;
    uint64_t out = exec_mem_alloc(r->dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(r, k, 1, 32, &out, 8, ks, NULL), EXEC_OK);
    return *(uint64_t *)exec_mem_host(r->dev, out, 8);
}

/* clock_delta of kernel k of ptx on a rig of its own with opts (NULL: the
** table's defaults); UINT64_MAX when the rig does not open (a failure). */
static uint64_t timed_once_mul(const char *ptx, const char *k, const char *opts, uint64_t *mul_on_sfu)
{
    gpu_rig r;
    gpu_kstats ks;
    if (!gpu_rig_open(&r, ptx, opts, "sm.ptx")) return UINT64_MAX;
    uint64_t t = clock_delta(&r, k, NULL, &ks);
    if (mul_on_sfu) *mul_on_sfu = ks.mul_on_sfu;
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    return t;
}

static uint64_t timed_once(const char *ptx, const char *k, const char *opts)
{
    return timed_once_mul(ptx, k, opts, NULL);
}

static void t_dependent_chain(void)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, chain_ptx, NULL, "sm.ptx")) return;
    gpu_kstats ks;
    /* the first add issues at t0 + 1, each next one lat.int_add + 1 = 5 cycles
    ** later, the second clock read the cycle after the last add:
    ** t1 - t0 = 1 + 9 * 5 + 1 = 47 */
    TT_EQ_U(clock_delta(&r, "chain", NULL, &ks), 47);
    TT_EQ_U(ks.warp_insns, 22);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* lat.int_add = 9: the mov of %r1 issued at t0 - 5 (four fillers
    ** between) writes back at t0 - 5 + 1 + 9 = t0 + 5, when the first add
    ** issues; then 9 intervals of 10 and the clock read one cycle later:
    ** t1 - t0 = 5 + 9 * 10 + 1 = 96 */
    if (!gpu_rig_open(&r, chain_ptx, "lat.int_add=9", "sm.ptx")) return;
    TT_EQ_U(clock_delta(&r, "chain", NULL, &ks), 96);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* sm.wb_latency=5 (GPGPU-Sim's GTX 480 pipeline): every write-back 5
    ** cycles after the result, so each add's result is ready 4 + 5 cycles
    ** after dispatch, as with lat.int_add=9 above: the mov writes back at
    ** t0 - 5 + 1 + 4 + 5 = t0 + 5, then 9 intervals of 1 + 4 + 5 = 10 and
    ** the clock read: t1 - t0 = 5 + 9 * 10 + 1 = 96 */
    if (!gpu_rig_open(&r, chain_ptx, "sm.wb_latency=5", "sm.ptx")) return;
    TT_EQ_U(clock_delta(&r, "chain", NULL, &ks), 96);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* independent adds wait only for the mov's %r1 (ready at t0 + 5, as
    ** above, where without sm.wb_latency they issue from t0 + 1), then issue
    ** in consecutive cycles: t1 - t0 = 5 + 9 + 1 = 15 */
    if (!gpu_rig_open(&r, chain_ptx, "sm.wb_latency=5", "sm.ptx")) return;
    TT_EQ_U(clock_delta(&r, "indep", NULL, &ks), 15);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* min/max: a latency class of their own (lat.int_max 13, ii.int_max 2: the
** table's defaults, GPGPU-Sim's GTX 480 "MAX" class), 10 dependent or
** independent max.s32, timed as chain_ptx times its adds. */
static const char *max_ptx = HDR
    TIMED_KERNEL("maxc", DEP10("max.s32"), "  st.global.u32 [%rd1+8], %r1;\n")
    TIMED_KERNEL("maxi", INDEP10("max.s32"), "");

static void t_max_class(void)
{
    gpu_rig r;
    gpu_kstats ks;
    if (!gpu_rig_open(&r, max_ptx, NULL, "sm.ptx")) return;
    /* as t_dependent_chain with lat.int_max = 13: the first max issues at
    ** t0 + 1, each next one 13 + 1 later, the clock read one cycle after the
    ** last: t1 - t0 = 1 + 9 * 14 + 1 = 128; */
    TT_EQ_U(clock_delta(&r, "maxc", NULL, &ks), 128);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* lat.int_max = 0: the add class's latency, as t_dependent_chain: 47 */
    if (!gpu_rig_open(&r, max_ptx, "lat.int_max=0 ii.int_max=0", "sm.ptx")) return;
    TT_EQ_U(clock_delta(&r, "maxc", NULL, &ks), 47);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* independent: they issue one a cycle, as the adds of t_independent
    ** (the collectors take them; the two SP pipes, each taking one every
    ** ii.int_max = 2 cycles, keep up together): 11 */
    if (!gpu_rig_open(&r, max_ptx, NULL, "sm.ptx")) return;
    TT_EQ_U(clock_delta(&r, "maxi", NULL, &ks), 11);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* Conversions to or from f64: a class of their own (lat.dp_cvt, ii.dp_cvt:
** the table's default 1 and 1, GPGPU-Sim's GTX 480; 0 times them as FP64
** adds: lat.dp_add 8).  Ten
** dependent conversions, s32 -> f64 -> s32 ..., on %r1 and %rd5 (a .b64
** register holds the f64), timed as chain_ptx times its adds. */
#define CVT2 "  cvt.rn.f64.s32 %rd5, %r1;\n  cvt.rzi.s32.f64 %r1, %rd5;\n"
static const char *cvt_ptx = HDR
    TIMED_KERNEL("cvtc", CVT2 CVT2 CVT2 CVT2 CVT2, "  st.global.u32 [%rd1+8], %r1;\n");

static void t_cvt64_class(void)
{
    gpu_rig r;
    gpu_kstats ks;
    /* lat.dp_cvt = 0, the FP64 add class: the first conversion issues at
    ** t0 + 1, each next one lat.dp_add + 1 = 9 later, the clock read one
    ** cycle after the last: t1 - t0 = 1 + 9 * 9 + 1 = 83 */
    if (!gpu_rig_open(&r, cvt_ptx, "lat.dp_cvt=0 ii.dp_cvt=0", "sm.ptx")) return;
    TT_EQ_U(clock_delta(&r, "cvtc", NULL, &ks), 83);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* the default, lat.dp_cvt = 1 (GPGPU-Sim's GTX 480: a 1-cycle ALU op):
    ** 1 + 9 * 2 + 1 = 20 */
    if (!gpu_rig_open(&r, cvt_ptx, NULL, "sm.ptx")) return;
    TT_EQ_U(clock_delta(&r, "cvtc", NULL, &ks), 20);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* rcp, sqrt and rsqrt of an f64: a class of their own (lat.dp_rcp, ii.dp_rcp:
** the table's default 60 and 40, ptxas's sequence of an SFU approximation and
** five dependent FP64 fmas on the GTX 480; 0 times them as FP64 divisions,
** lat.dp_div 330, as tpsim did before).  Ten dependent ones, rcp and sqrt in
** turn, on %fd1 (2.0 at the start), timed as chain_ptx times its adds. */
#define RCP2 "  rcp.rn.f64 %fd1, %fd1;\n  sqrt.rn.f64 %fd1, %fd1;\n"
static const char *rcp64_ptx = HDR
    TIMED_KERNEL_S("rcpc", "  mov.f64 %fd1, 0d4000000000000000;\n", RCP2 RCP2 RCP2 RCP2 RCP2, "");

static const char *rcp64_pair_ptx = HDR
    TIMED_KERNEL_S("rcpp", "  mov.f64 %fd1, 0d4000000000000000;\n",
                   "  rcp.rn.f64 %fd2, %fd1;\n  rcp.rn.f64 %fd3, %fd1;\n  rcp.rn.f64 %fd4, %fd3;\n", "");

static void t_rcp64_class(void)
{
    /* the default: the first at t0 + 1, each next one lat.dp_rcp + 1 = 61
    ** later, the clock read one cycle after the last: 1 + 9 * 61 + 1 = 551 */
    TT_EQ_U(timed_once(rcp64_ptx, "rcpc", NULL), 551);
    /* lat.dp_rcp = 0, the FP64 division class: 1 + 9 * 331 + 1 = 2981 */
    TT_EQ_U(timed_once(rcp64_ptx, "rcpc", "lat.dp_rcp=0 ii.dp_rcp=0"), 2981);
    /* the interval: two independent reciprocals on one FP64 pipe
    ** (sm.dp_units = 1), the second taken by the pipe 40 cycles after the
    ** first (ii.dp_rcp), then one that depends on the second: the pipe at
    ** t0 + 1 and t0 + 41, the dependant lat.dp_rcp + 1 = 61 later (t0 +
    ** 102), the clock at t0 + 103 */
    TT_EQ_U(timed_once(rcp64_pair_ptx, "rcpp", "sm.dp_units=1"), 103);
}

/* Where FP64 runs without FP64 pipes (sm.dp_units = 0): on the two SP pipes
** (sm.dp_pipe = sp, Fermi's CUDA cores) or on the one SFU (sfu, GPGPU-Sim
** 4.2's -gpgpu_num_dp_units 0).  Six independent add.f64 (lat.dp_add 8,
** ii.dp_add 8), then an FP32 add and one that depends on it (lat.fp_add 4):
** the adds issue one a cycle into the operand collectors either way (t0 + 1
** .. t0 + 7); what differs is when the FP32 add gets a pipe. */
/* %fd1 = 1.0, %f1 = 1.0f; six independent add.f64 into %fd2 .. %fd7 */
#define SET_F64_F32 "  mov.f64 %fd1, 0d3FF0000000000000;\n  mov.f32 %f1, 0f3F800000;\n"
#define ADD_F64_6                                                                                              \
    "  add.f64 %fd2, %fd1, %fd1;\n  add.f64 %fd3, %fd1, %fd1;\n  add.f64 %fd4, %fd1, %fd1;\n"                     \
    "  add.f64 %fd5, %fd1, %fd1;\n  add.f64 %fd6, %fd1, %fd1;\n  add.f64 %fd7, %fd1, %fd1;\n"
static const char *dp_ptx = HDR
    TIMED_KERNEL_S("dpx", SET_F64_F32, ADD_F64_6 "  add.f32 %f2, %f1, %f1;\n  add.f32 %f3, %f2, %f2;\n", "");

static void t_dp_pipe(void)
{
    /* sp: the FP64 adds take the SP pipes in turn, each pipe one every 8
    ** cycles: at t0 + 1, 2, 9, 10, 17, 18; the FP32 add gets pipe A at t0 + 25
    ** (8 after its last), its dependant issues lat.fp_add + 1 = 5 later
    ** (t0 + 30), the clock at t0 + 31 */
    TT_EQ_U(timed_once(dp_ptx, "dpx", NULL), 31);
    /* sfu: the FP64 adds queue for the SFU; the FP32 add takes an SP pipe as
    ** it issues (t0 + 7), its dependant at t0 + 12, the clock at t0 + 13 */
    TT_EQ_U(timed_once(dp_ptx, "dpx", "sm.dp_pipe=sfu"), 13);
}

/* Where integer multiplies run without integer pipes (sm.int_units = 0): the
** SP pipes (sm.imul_pipe = sp) or the SFU (sfu: GPGPU-Sim 3.2.2).  Six
** independent mul.lo.s32 (lat.int_mul 4, ii.int_mul 2), then an ex2 (the SFU,
** lat.sfu 20) and an add that depends on it. */
static const char *imul_ptx = HDR
    TIMED_KERNEL_S("imx", "  mov.f32 %f1, 0f3F800000;\n",
                   "  mul.lo.s32 %r2, %r1, 3;\n  mul.lo.s32 %r3, %r1, 3;\n  mul.lo.s32 %r4, %r1, 3;\n"
                   "  mul.lo.s32 %r5, %r1, 3;\n  mul.lo.s32 %r6, %r1, 3;\n  mul.lo.s32 %r7, %r1, 3;\n"
                   "  ex2.approx.f32 %f2, %f1;\n  add.f32 %f3, %f2, %f2;\n",
                   "");

static void t_imul_pipe(void)
{
    /* sp: the multiplies take the SP pipes; the ex2, issued at t0 + 7, finds
    ** the SFU free, its result lat.sfu + 1 = 21 later: the add issues at
    ** t0 + 28, the clock at t0 + 29 */
    TT_EQ_U(timed_once(imul_ptx, "imx", NULL), 29);
    /* sfu: the multiplies take the SFU one every 2 cycles (t0 + 1, 3, .., 11);
    ** the ex2 gets it at t0 + 13, the add issues at t0 + 34, the clock at
    ** t0 + 35 */
    TT_EQ_U(timed_once(imul_ptx, "imx", "sm.imul_pipe=sfu"), 35);
}

/* Where FP32 multiplies run when the SP collectors are all taken: they wait
** for one (sm.fmul_pipe = sp) or take an SFU collector and the SFU pipe
** with their own latency and interval (sp_sfu: GPGPU-Sim 3.2.2's
** ALU_SFU_OP).  Eight independent add.f64 (on the SP pipes: lat.dp_add 8,
** ii.dp_add 8) fill the six SP collectors, then two dependent mul.f32
** (lat.fp_mul 4). */
static const char *fmul_ptx = HDR
    TIMED_KERNEL_S("fmx", SET_F64_F32,
                   ADD_F64_6 "  add.f64 %fd8, %fd1, %fd1;\n  add.f64 %fd9, %fd1, %fd1;\n"
                             "  mul.f32 %f2, %f1, %f1;\n  mul.f32 %f3, %f2, %f2;\n",
                   "  st.global.f32 [%rd1+8], %f3;\n");

static void t_fmul_pipe(void)
{
    uint64_t n = UINT64_MAX;
    /* The adds issue at t0 + 1 .. 8 (add k dispatches at t0 + k + 1 while a
    ** pipe is free, then each pipe every 8 cycles: adds 3 .. 8 at t0 + 10,
    ** 11, 18, 19, 26, 27), so at t0 + 9 adds 3 .. 8 hold the six collectors.
    ** sp: the first multiply waits for a collector, then for a pipe behind
    ** the older adds: pipe A at t0 + 34; it writes back at t0 + 38, the second
    ** multiply issues then, the clock at t0 + 39 */
    TT_EQ_U(timed_once_mul(fmul_ptx, "fmx", NULL, &n), 39);
    TT_EQ_U(n, 0);
    /* sp_sfu: the first multiply takes an SFU collector at t0 + 9 and the SFU
    ** at t0 + 10, writes back at t0 + 14; the second issues then to an SP
    ** collector (adds 3 and 4 freed two), the clock at t0 + 15 */
    TT_EQ_U(timed_once_mul(fmul_ptx, "fmx", "sm.fmul_pipe=sp_sfu", &n), 15);
    TT_EQ_U(n, 1);
}

/* Where divisions run: on their unit's pipes (sm.div_pipe = sp: the two SP
** pipes) or on the one SFU (sfu: GPGPU-Sim's SFU_OP), with their class's
** latency and interval either way (lat.fp_div 39, ii.fp_div 4).  Three
** independent div.rn.f32, then an add that depends on the third. */
static const char *div_ptx = HDR
    TIMED_KERNEL_S("dvx", "  mov.f32 %f1, 0f3F800000;\n",
                   "  div.rn.f32 %f2, %f1, %f1;\n  div.rn.f32 %f3, %f1, %f1;\n  div.rn.f32 %f4, %f1, %f1;\n"
                   "  add.f32 %f5, %f4, %f4;\n",
                   "  st.global.f32 [%rd1+8], %f5;\n");

static void t_div_pipe(void)
{
    /* sp: the divisions issue at t0 + 1, 2, 3 and dispatch at t0 + 2 (pipe
    ** A), t0 + 3 (B), t0 + 6 (A again, 4 after the first); the third writes
    ** back at t0 + 45, the add issues then, the clock at t0 + 46 */
    TT_EQ_U(timed_once(div_ptx, "dvx", NULL), 46);
    /* sfu: the SFU takes them at t0 + 2, 6, 10: the add at t0 + 49, the clock
    ** at t0 + 50 */
    TT_EQ_U(timed_once(div_ptx, "dvx", "sm.div_pipe=sfu"), 50);
}

/* A barrier does not stop fetch: the instruction after it is buffered while
** the warp waits, so when the barrier opens the warps issue it back to back
** instead of waiting, one after the other, for fetch (sm.fetch_width 1).
** Two warps, each: clock, six bar.sync, clock; out[w] = its second clock,
** out[4 + w] its first. */
static const char *bar_ptx = HDR
    ".visible .entry bar2(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<12>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shr.u32 %r1, %r1, 5;\n"
    "  mul.wide.u32 %rd5, %r1, 8;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  st.global.u64 [%rd6], %rd3;\n"
    "  st.global.u64 [%rd6+32], %rd2;\n"
    "  ret;\n"
    "}\n";

static void t_barrier_fetch(void)
{
    gpu_rig r;
    gpu_kstats ks;
    if (!gpu_rig_open(&r, bar_ptx, NULL, "sm.ptx")) return;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(&r, "bar2", 1, 64, &out, 8, &ks, NULL), EXEC_OK);
    const uint64_t *o = (const uint64_t *)exec_mem_host(r.dev, out, 64);
    /* warp 0 reads the clock at t0, warp 1 (on the other scheduler) at t0 + 1,
    ** a fetch later; warp 0's first bar.sync issues at t0 + 1 and waits, warp
    ** 1's at t0 + 2 opens it.  Each fetch (one warp a cycle) brings a warp two
    ** instructions, so both issue a barrier every cycle: the other five at
    ** t0 + 3 .. t0 + 7, the clocks at t0 + 8.  (Had a barrier stopped fetch
    ** until it issued, each fetch would bring one: a barrier per warp every
    ** other cycle, clocks at t0 + 13 and t0 + 14.) */
    TT_EQ_U(o[5] - o[4], 1);
    TT_EQ_U(o[0] - o[4], 8);
    TT_EQ_U(o[1] - o[4], 8);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

static void t_independent(void)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, chain_ptx, NULL, "sm.ptx")) return;
    gpu_kstats ks;
    /* ten independent adds issue in consecutive cycles: t1 - t0 = 11 */
    TT_EQ_U(clock_delta(&r, "indep", NULL, &ks), 11);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* Two warps on one scheduler (sm.schedulers=1), each timing 10 independent
** adds: out[w] = t1 - t0 of warp w, out[2 + w] = t0 of warp w (the t0 words
** start t0off bytes into out). */
#define CLOCKED_ADDS(name, t0off) HDR \
    ".visible .entry " name "(.param .u64 out)\n" \
    "{\n" \
    "  .reg .b32 %r<12>; .reg .b64 %rd<10>;\n" \
    "  ld.param.u64 %rd1, [out];\n" \
    "  mov.u32 %r1, %tid.x;\n" \
    "  shr.u32 %r1, %r1, 5;\n" \
    "  mul.wide.u32 %rd5, %r1, 8;\n" \
    "  add.s64 %rd6, %rd1, %rd5;\n" \
    "  mov.u64 %rd2, %clock64;\n" \
    "  add.s32 %r2, %r1, 1;\n  add.s32 %r3, %r1, 1;\n  add.s32 %r4, %r1, 1;\n  add.s32 %r5, %r1, 1;\n" \
    "  add.s32 %r6, %r1, 1;\n  add.s32 %r7, %r1, 1;\n  add.s32 %r8, %r1, 1;\n  add.s32 %r9, %r1, 1;\n" \
    "  add.s32 %r10, %r1, 1;\n  add.s32 %r11, %r1, 1;\n" \
    "  mov.u64 %rd3, %clock64;\n" \
    "  sub.s64 %rd4, %rd3, %rd2;\n" \
    "  st.global.u64 [%rd6], %rd4;\n" \
    "  st.global.u64 [%rd6+" t0off "], %rd2;\n" \
    "  ret;\n" \
    "}\n"
static const char *two_ptx = CLOCKED_ADDS("two", "16");

/* sm.issue_order (gpu/options.def): two warps on the two schedulers (warp w
** on scheduler w), one SFU operand collector between them (sm.oc_sfu=1), an
** SFU that takes an instruction every 9 cycles (ii.sfu=9: odd, so that the
** cycles in which the collector frees alternate between even and odd).
** Each warp issues four independent ex2, reading the clock after each:
** out[4w + i] = the cycle of warp w's i-th clock read, one after its ex2's
** issue (both wait for nothing else). */
static const char *order_ptx = HDR
    ".visible .entry order(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<12>; .reg .f32 %f<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shr.u32 %r1, %r1, 5;\n"
    "  mul.wide.u32 %rd5, %r1, 32;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n" FILL
    "  ex2.approx.f32 %f2, %f1;\n  mov.u64 %rd2, %clock64;\n"
    "  ex2.approx.f32 %f3, %f1;\n  mov.u64 %rd3, %clock64;\n"
    "  ex2.approx.f32 %f4, %f1;\n  mov.u64 %rd4, %clock64;\n"
    "  ex2.approx.f32 %f5, %f1;\n  mov.u64 %rd7, %clock64;\n"
    "  st.global.u64 [%rd6], %rd2;\n  st.global.u64 [%rd6+8], %rd3;\n"
    "  st.global.u64 [%rd6+16], %rd4;\n  st.global.u64 [%rd6+24], %rd7;\n"
    "  ret;\n"
    "}\n";

/* Runs kernel `name` of ptx (one CTA of `threads`, its one parameter an
** output buffer of 8 words) under opts; o gets the buffer. */
static void run_out8(const char *ptx, const char *name, uint32_t threads, const char *opts, uint64_t o[8])
{
    gpu_rig r;
    gpu_kstats ks;
    memset(o, 0, 8 * sizeof *o);
    if (!gpu_rig_open(&r, ptx, opts, "sm.ptx")) return;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(&r, name, 1, threads, &out, 8, &ks, NULL), EXEC_OK);
    memcpy(o, exec_mem_host(r.dev, out, 64), 64);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

static void order_run(const char *opts, uint64_t o[8]) { run_out8(order_ptx, "order", 64, opts, o); }

/* Both warps reach their first ex2 in cycle 23: scheduler 0's takes the
** collector and goes to the SFU in 24, when scheduler 1's takes it, to wait
** there for the SFU until 24 + 9 = 33.  From then on the collector frees in
** 33, 42, 51, 60, 69, 78 (every 9 cycles) and both schedulers want it in
** each of those cycles; who gets it is the order's doing:
**   fixed:  scheduler 0 first every cycle: warp 0's three, then warp 1's;
**   rotate: scheduler (cycle mod 2) first: 33 warp 1, 42 warp 0, 51 warp 1,
**           60 warp 0, 69 warp 1, 78 warp 0.
** Each clock read follows its ex2 by one cycle. */
static void t_issue_order(void)
{
    uint64_t f[8], t[8];
    static const uint64_t fixed[8] = {24, 34, 43, 52, 25, 61, 70, 79};
    static const uint64_t rotate[8] = {24, 43, 61, 79, 25, 34, 52, 70};
    order_run("sm.oc_sfu=1 ii.sfu=9", f);
    order_run("sm.oc_sfu=1 ii.sfu=9 sm.issue_order=rotate", t);
    for (int i = 0; i < 8; i++) {
        TT_EQ_U(f[i], fixed[i]);
        TT_EQ_U(t[i], rotate[i]);
    }
}

static void t_gto_vs_lrr(void)
{
    gpu_rig r;
    gpu_kstats ks;
    uint64_t *o;
    uint64_t out;
    /* GTO: the older warp keeps the scheduler while it can issue -- its 10
    ** adds go in consecutive cycles (11), and the younger warp waits behind it */
    if (!gpu_rig_open(&r, two_ptx, "sm.schedulers=1 sm.scheduler=gto", "sm.ptx")) return;
    out = exec_mem_alloc(r.dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(&r, "two", 1, 64, &out, 8, &ks, NULL), EXEC_OK);
    o = exec_mem_host(r.dev, out, 32);
    TT_EQ_U(o[0], 11);
    TT_CHECK(o[3] > o[2] + 11); /* warp 1 started timing after warp 0 finished its adds */
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* LRR: the two warps alternate, so each one's 10 adds span about twice as long */
    if (!gpu_rig_open(&r, two_ptx, "sm.schedulers=1 sm.scheduler=lrr", "sm.ptx")) return;
    out = exec_mem_alloc(r.dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(&r, "two", 1, 64, &out, 8, &ks, NULL), EXEC_OK);
    o = exec_mem_host(r.dev, out, 32);
    TT_CHECK(o[0] >= 20 && o[1] >= 20);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* Three warps on one scheduler, as `two` but out[4 + w] = t0 of warp w. */
static const char *three_ptx = CLOCKED_ADDS("three", "32");

static void three_run(const char *policy, uint64_t o[8])
{
    char opts[64];
    snprintf(opts, sizeof opts, "sm.schedulers=1 sm.scheduler=%s", policy);
    run_out8(three_ptx, "three", 96, opts, o);
}

/* GTY (gpu/sched_gty.c) against GTO: three warps, each timing 10
** independent adds.  Both are greedy, so whichever warp issues first keeps
** the scheduler to its end; then GTO takes the oldest of the other two and
** GTY the youngest. */
static void t_gty(void)
{
    uint64_t g[8], y[8];
    three_run("gto", g);
    three_run("gty", y);
    for (int w = 0; w < 3; w++) {
        TT_EQ_U(g[w], 11); /* each warp's adds in consecutive cycles under both */
        TT_EQ_U(y[w], 11);
    }
    /* warp 0, fetched first, starts first under both, in the same cycle */
    TT_EQ_U(g[4], y[4]);
    TT_CHECK(g[5] > g[4] + 11 && g[6] > g[4] + 11);
    /* then the second warp to run starts in the same cycle: GTO's warp 1, GTY's warp 2 */
    TT_EQ_U(g[5], y[6]);
    /* and the third only after it has timed its adds: GTO's warp 2, GTY's warp 1 */
    TT_CHECK(g[6] > g[5] + 11);
    TT_CHECK(y[5] > y[6] + 11);
}

/* simd_efficiency (gpu/kstats.def): `two` is 21 straight-line instructions
** (ret included) that every thread runs; a block of 48 is a full warp and
** one of 16 lanes, so 42 warp instructions do 21 x 48 = 1008 thread
** instructions: 1008 / 32 / 42 = 0.75 of the lanes. */
static void t_simd_efficiency(void)
{
    gpu_rig r;
    gpu_kstats ks;
    if (!gpu_rig_open(&r, two_ptx, NULL, "sm.ptx")) return;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(&r, "two", 1, 48, &out, 8, &ks, NULL), EXEC_OK);
    TT_EQ_U(ks.warp_insns, 42);
    TT_EQ_U(ks.thread_insns, 1008);
    TT_CHECK(ks.simd_efficiency == 0.75);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* sm.cta_limit (gpu/options.def): each one-thread CTA counts itself in at
** its start (out[0] += 1), records the count (out[1] = max), and out after
** ten dependent adds (out[0] -= 1).  Four CTAs on one SM: with the limit N
** the SM holds N at once, and the first N all count in before any counts
** out (each waits ~hundreds of cycles for its atomic's result first), so
** out[1] = N; without it (the occupancy allows 8) all four: 4. */
static const char *conc_ptx = HDR
    ".visible .entry conc(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<20>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  atom.global.add.u32 %r1, [%rd1], 1;\n"
    "  add.s32 %r2, %r1, 1;\n"
    "  atom.global.max.u32 %r3, [%rd1+4], %r2;\n"
    "  add.s32 %r4, %r2, 1;\n  add.s32 %r4, %r4, 1;\n  add.s32 %r4, %r4, 1;\n  add.s32 %r4, %r4, 1;\n"
    "  add.s32 %r4, %r4, 1;\n  add.s32 %r4, %r4, 1;\n  add.s32 %r4, %r4, 1;\n  add.s32 %r4, %r4, 1;\n"
    "  add.s32 %r4, %r4, 1;\n  add.s32 %r4, %r4, 1;\n"
    "  atom.global.add.u32 %r5, [%rd1], -1;\n"
    "  st.global.u32 [%rd1+8], %r4;\n"
    "  ret;\n"
    "}\n";

static uint32_t most_resident(const char *opts)
{
    gpu_rig r;
    gpu_kstats ks;
    if (!gpu_rig_open(&r, conc_ptx, opts, "sm.ptx")) return 0;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    uint32_t *o = exec_mem_host(r.dev, out, 16);
    memset(o, 0, 16);
    TT_EQ_I(gpu_rig_launch(&r, "conc", 4, 1, &out, 8, &ks, NULL), EXEC_OK);
    o = exec_mem_host(r.dev, out, 16);
    TT_EQ_U(o[0], 0);
    uint32_t most = o[1];
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    return most;
}

static void t_cta_limit(void)
{
    TT_EQ_U(most_resident("device.num_sms=1"), 4);
    TT_EQ_U(most_resident("device.num_sms=1 sm.cta_limit=2"), 2);
    TT_EQ_U(most_resident("device.num_sms=1 sm.cta_limit=1"), 1);
}

/* Shared memory: a load whose lanes are `stride` words apart, then a
** dependent add; out[0] = t1 - t0 around the load and the add. */
static const char *shm_ptx = HDR
    ".visible .entry shm(.param .u64 out, .param .u32 stride)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b32 s[1024];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r9, [stride];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.lo.s32 %r2, %r1, %r9;\n"
    "  shl.b32 %r3, %r2, 2;\n"
    "  mov.u32 %r4, s;\n"
    "  add.s32 %r5, %r4, %r3;\n"
    FILL
    "  mov.u64 %rd2, %clock64;\n"
    "  ld.shared.u32 %r6, [%r5];\n"
    "  add.s32 %r7, %r6, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n"
    "  st.global.u64 [%rd1], %rd4;\n"
    "  ret;\n"
    "}\n";

static uint64_t shm_time(uint32_t stride)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, shm_ptx, NULL, "sm.ptx")) return 0;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    struct { uint64_t out; uint32_t stride; } p = {out, stride};
    exec_launch l = {{1, 1, 1}, {32, 1, 1}, 0, &p, 12};
    exec_result res;
    gpu_kstats ks;
    memset(&ks, 0, sizeof ks);
    TT_EQ_I(gpu_launch(r.g, r.m, 0, &l, &res, &ks, NULL, NULL), EXEC_OK);
    uint64_t t = *(uint64_t *)exec_mem_host(r.dev, out, 8);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    return t;
}

static void t_shared_bank_conflicts(void)
{
    /* the load issues at t0 + 1 and dispatches at t0 + 2; with a k-way
    ** conflict its data is there at t0 + 2 + (k - 1) + shmem.latency (26),
    ** when the add issues; the clock read issues the cycle after:
    ** t1 - t0 = 2 + (k - 1) + 26 + 1 = 28 + k */
    TT_EQ_U(shm_time(1), 29);      /* stride 1: no conflict */
    TT_EQ_U(shm_time(2), 30);      /* 2 words per bank: 2-way */
    TT_EQ_U(shm_time(4), 32);      /* 4-way */
    TT_EQ_U(shm_time(32), 60);     /* all lanes in bank 0: 32-way */
    TT_EQ_U(shm_time(33), 29);     /* stride 33: every lane its own bank */
    TT_EQ_U(shm_time(0), 29);      /* one word for all: broadcast */
}

/* A kernel `name` that reads the clock into %rd2, then issues four
** independent conflict-free shared loads (%r6, %r7, %r8, %r10); the rest
** of it follows. */
#define FOUR_SHARED_LOADS(name) HDR \
    ".visible .entry " name "(.param .u64 out)\n" \
    "{\n" \
    "  .reg .b32 %r<40>; .reg .b64 %rd<8>;\n" \
    "  .shared .align 4 .b32 s[1024];\n" \
    "  ld.param.u64 %rd1, [out];\n" \
    "  mov.u32 %r1, %tid.x;\n" \
    "  shl.b32 %r3, %r1, 2;\n" \
    "  mov.u32 %r4, s;\n" \
    "  add.s32 %r5, %r4, %r3;\n" \
    FILL \
    "  mov.u64 %rd2, %clock64;\n" \
    "  ld.shared.u32 %r6, [%r5];\n" \
    "  ld.shared.u32 %r7, [%r5+128];\n" \
    "  ld.shared.u32 %r8, [%r5+256];\n" \
    "  ld.shared.u32 %r10, [%r5+384];\n"

/* ldst.interval: the four loads, then an add of the last one; out[0] =
** t1 - t0 around them. */
static const char *shm4_ptx = FOUR_SHARED_LOADS("shm4")
    "  add.s32 %r11, %r10, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n"
    "  st.global.u64 [%rd1], %rd4;\n"
    "  ret;\n"
    "}\n";

/* out[0] of one warp of kernel `name` */
static uint64_t out0(const char *ptx, const char *name, const char *opts)
{
    uint64_t o[8];
    run_out8(ptx, name, 32, opts, o);
    return o[0];
}

static uint64_t shm4_time(const char *opts) { return out0(shm4_ptx, "shm4", opts); }

static void t_ldst_interval(void)
{
    /* load i issues at t0 + 1 + i and reaches the LD/ST unit, which takes
    ** one every I = ldst.interval cycles, at t0 + 2 + i * I; the last one's
    ** data is there shmem.latency (26) later, when the add issues, and the
    ** clock read follows: t1 - t0 = 2 + 3 I + 26 + 1 = 29 + 3 I */
    TT_EQ_U(shm4_time(NULL), 32);
    TT_EQ_U(shm4_time("ldst.interval=1"), 32);
    TT_EQ_U(shm4_time("ldst.interval=2"), 35);
    TT_EQ_U(shm4_time("ldst.interval=3"), 38);
}

/* sm.oc_mem_per_sched: four independent shared loads between two clock
** reads; out[0] = t1 - t0, which the second read's issue sets. */
static const char *mq_ptx = FOUR_SHARED_LOADS("mq")
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n"
    "  st.global.u64 [%rd1], %rd4;\n"
    "  add.s32 %r11, %r6, %r7;\n  add.s32 %r11, %r11, %r8;\n  add.s32 %r11, %r11, %r10;\n"
    "  st.global.u32 [%rd1+8], %r11;\n"
    "  ret;\n"
    "}\n";

static uint64_t mq_time(const char *opts) { return out0(mq_ptx, "mq", opts); }

/* One warp, eight memory collectors, an LD/ST unit that takes a load every
** I = 8 cycles (ldst.interval): load j reaches it at t0 + 2 + j I.  With no
** per-scheduler limit the four loads issue at t0 + 1 .. 4 and the clock
** read at t0 + 5.  With a limit of q, load 3 waits for a collector until
** load 3 - q is taken (a collector freed in a cycle serves that cycle's
** issue), and the clock read follows it: t1 - t0 = 2 + (3 - q) I + 1, and
** at least 5. */
static void t_mem_queue(void)
{
    TT_EQ_U(mq_time("sm.oc_mem=8 ldst.interval=8"), 5);
    TT_EQ_U(mq_time("sm.oc_mem=8 ldst.interval=8 sm.oc_mem_per_sched=1"), 2 + 2 * 8 + 1);
    TT_EQ_U(mq_time("sm.oc_mem=8 ldst.interval=8 sm.oc_mem_per_sched=2"), 2 + 1 * 8 + 1);
    TT_EQ_U(mq_time("sm.oc_mem=8 ldst.interval=8 sm.oc_mem_per_sched=3"), 5);
    TT_EQ_U(mq_time("sm.oc_mem=8 ldst.interval=8 sm.oc_mem_per_sched=4"), 5);
}

/* ldst.const_path: an ld.const that follows a global load of 16 L1D lines
** (every lane's own line among 16, all hits: the lines are loaded and used
** before the timed part, as is the constant's line).  ld.const's lanes read
** one word (uniform), or two words of one 64-byte constant line, or two
** lines (the words 64 bytes apart).  mode 1 (`alone`): the ld.const
** without the global load before it; mode 2: that ld.const, then a uniform
** one, whose result the add waits for. */
static const char *idc_ptx = HDR
    ".const .align 4 .b32 cst[32] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,\n"
    "                                21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36};\n"
    ".visible .entry idc(.param .u64 out, .param .u32 mode, .param .u32 spread)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<40>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r25, [mode];\n"
    "  ld.param.u32 %r26, [spread];\n"
    "  setp.eq.u32 %p1, %r25, 1;\n"
    "  setp.eq.u32 %p2, %r25, 2;\n"
    "  mov.u64 %rd8, cst;\n"
    "  mov.u32 %r20, %tid.x;\n"
    "  and.b32 %r21, %r20, 15;\n"
    "  mul.wide.u32 %rd5, %r21, 128;\n"
    "  add.s64 %rd5, %rd1, %rd5;\n"
    "  and.b32 %r27, %r20, 1;\n"                  /* odd lanes read the word `spread` bytes on */
    "  mul.lo.u32 %r27, %r27, %r26;\n"
    "  cvt.u64.u32 %rd7, %r27;\n"
    "  mov.u64 %rd6, cst;\n"
    "  add.s64 %rd6, %rd6, %rd7;\n"
    "  ld.global.u32 %r22, [%rd5+64];\n"
    "  ld.const.u32 %r23, [%rd6];\n"
    "  add.s32 %r24, %r22, %r23;\n"
    "  mov.u32 %r30, 0;\n  mov.u32 %r31, 0;\n  mov.u32 %r32, 0;\n  mov.u32 %r33, 0;\n"
    "  @%p1 bra ALONE;\n"
    "  @%p2 bra TWO;\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  ld.global.u32 %r2, [%rd5+64];\n"
    "  ld.const.u32 %r3, [%rd6];\n"
    "  add.s32 %r4, %r3, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  bra.uni DONE;\n"
    "ALONE:\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  ld.const.u32 %r3, [%rd6];\n"
    "  add.s32 %r4, %r3, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  mov.u32 %r2, 0;\n"
    "  bra.uni DONE;\n"
    "TWO:\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  ld.const.u32 %r2, [%rd6];\n"
    "  ld.const.u32 %r3, [%rd8];\n"
    "  add.s32 %r4, %r3, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "DONE:\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n"
    "  st.global.u64 [%rd1], %rd4;\n"
    "  add.s32 %r5, %r4, %r2;\n"
    "  add.s32 %r5, %r5, %r24;\n"
    "  st.global.u32 [%rd1+8], %r5;\n"
    "  ret;\n"
    "}\n";

static uint64_t idc_time(const char *opts, uint32_t mode, uint32_t spread, uint64_t *idc_insns)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, idc_ptx, opts, "sm.ptx")) return 0;
    uint64_t out = exec_mem_alloc(r.dev, 4096, 256);
    struct { uint64_t out; uint32_t mode, spread; } p = {out, mode, spread};
    gpu_kstats ks;
    TT_EQ_I(gpu_rig_launch(&r, "idc", 1, 32, &p, 16, &ks, NULL), EXEC_OK);
    uint64_t t = *(uint64_t *)exec_mem_host(r.dev, out, 8);
    if (idc_insns) *idc_insns = ks.idc_instructions;
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    return t;
}

/* t0 is the first clock read's issue cycle; the constant cache's hit
** latency is l1c.latency (8).
**   alone: the ld.const issues at t0 + 1 and dispatches at t0 + 2, where the
**   unit takes it and sends its line; its data is there at t0 + 10, when the
**   add issues; the clock read at t0 + 11: 11, either path.
**   After the global load, ldst (the LD/ST unit, as on Fermi): the load
**   dispatches at t0 + 2 and the unit sends its 16 lines at t0 + 2 .. t0 +
**   17, one a cycle, taking the next instruction at t0 + 18; the ld.const,
**   dispatched (offered) at t0 + 3, waits until then: data at t0 + 26, add
**   at t0 + 26: 27.  idc: the indexed constant cache takes it when it is
**   offered, at t0 + 3: 12, one cycle after `alone` (it issues a cycle
**   later).
**   Two words of one line: the LD/ST unit is busy a cycle per distinct
**   address (the GPGPU-Sim constant cache's serialisation), which holds the
**   unit, not the data (alone, after the load: 11, 27 as before): in mode
**   2 the uniform ld.const behind it is taken at t0 + 4, not t0 + 3: 13
**   (12 after a uniform first one); the indexed constant cache is replayed
**   per distinct line only: 12.  Two lines: the second line's access a
**   cycle after the first on either path: alone 12 (its data with the
**   later line), mode 2 13. */
static void t_const_path(void)
{
    uint64_t n = 99;
    TT_EQ_U(idc_time(NULL, 1, 0, &n), 11);
    TT_EQ_U(n, 0);
    TT_EQ_U(idc_time("ldst.const_path=idc", 1, 0, &n), 11);
    TT_EQ_U(n, 2);   /* the warm-up's and the timed one */
    TT_EQ_U(idc_time(NULL, 0, 0, NULL), 27);
    TT_EQ_U(idc_time("ldst.const_path=ldst", 0, 0, NULL), 27);
    TT_EQ_U(idc_time("ldst.const_path=idc", 0, 0, NULL), 12);
    /* two words of one line */
    TT_EQ_U(idc_time(NULL, 1, 4, NULL), 11);
    TT_EQ_U(idc_time(NULL, 0, 4, NULL), 27);
    TT_EQ_U(idc_time(NULL, 2, 0, NULL), 12);
    TT_EQ_U(idc_time(NULL, 2, 4, NULL), 13);
    TT_EQ_U(idc_time("ldst.const_path=idc", 2, 0, NULL), 12);
    TT_EQ_U(idc_time("ldst.const_path=idc", 2, 4, NULL), 12);
    TT_EQ_U(idc_time("ldst.const_path=idc", 0, 4, NULL), 12);
    /* two lines */
    TT_EQ_U(idc_time(NULL, 1, 64, NULL), 12);
    TT_EQ_U(idc_time(NULL, 2, 64, NULL), 13);
    TT_EQ_U(idc_time("ldst.const_path=idc", 1, 64, NULL), 12);
    TT_EQ_U(idc_time("ldst.const_path=idc", 2, 64, NULL), 13);
    TT_EQ_U(idc_time("ldst.const_path=idc", 0, 64, NULL), 13);
}

/* A memory instruction whose lanes are all off (its guard false in every
** lane) does no access and runs on the integer pipe, but the issue stage
** let it go because a memory collector was free: it takes that collector,
** not an SP one, which may all be taken.  With one SP collector and eight
** warps issuing multiplies around such loads, the SP collector is mostly
** busy; a load that found none was lost (its destination never written
** back: "no warp can make progress") before the fix. */
static const char *offload_ptx = HDR
    ".visible .entry offload(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<20>; .reg .f32 %f<20>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 1000;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n"
    "  mov.u32 %r2, 0;\n"
    "  mov.u32 %r9, 0;\n"
    "LOOP:\n"
    "  mul.f32 %f2, %f1, %f1;\n  mul.f32 %f3, %f1, 0f40000000;\n  mul.f32 %f4, %f1, 0f40400000;\n"
    "  @%p1 ld.global.u32 %r2, [%rd1];\n"
    "  add.s32 %r3, %r2, 1;\n"
    "  add.f32 %f1, %f2, %f3;\n  add.f32 %f1, %f1, %f4;\n"
    "  add.s32 %r9, %r9, 1;\n"
    "  setp.lt.u32 %p0, %r9, 64;\n"
    "  @%p0 bra LOOP;\n"
    "  st.global.u32 [%rd1], %r3;\n"
    "  ret;\n"
    "}\n";

static void t_lanes_off_collector(void)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, offload_ptx, "sm.oc_sp=1", "sm.ptx")) return;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    gpu_kstats ks;
    TT_EQ_I(gpu_rig_launch(&r, "offload", 1, 256, &out, 8, &ks, NULL), EXEC_OK);
    TT_EQ_U(*(uint32_t *)exec_mem_host(r.dev, out, 4), 1);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

static void t_deterministic(void)
{
    gpu_rig r;
    gpu_kstats a, b;
    if (!gpu_rig_open(&r, two_ptx, NULL, "sm.ptx")) return;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(&r, "two", 3, 64, &out, 8, &a, NULL), EXEC_OK);
    gpu_rig_close(&r);
    if (!gpu_rig_open(&r, two_ptx, NULL, "sm.ptx")) return;
    out = exec_mem_alloc(r.dev, 64, 256);
    TT_EQ_I(gpu_rig_launch(&r, "two", 3, 64, &out, 8, &b, NULL), EXEC_OK);
    TT_EQ_U(a.cycles, b.cycles);
    TT_EQ_U(a.warp_insns, b.warp_insns);
    TT_CHECK(memcmp(a.issue, b.issue, sizeof a.issue) == 0);
    gpu_kstats_free(&a);
    gpu_kstats_free(&b);
    gpu_rig_close(&r);
}

/* Unusual but legal configurations build and run the two-warp kernel to the
** same results: no L1, no L2, one channel, four schedulers, two-level
** scheduling, separate INT and FP64 pipes, odd clocks, tiny queues. */
static void t_odd_configs(void)
{
    static const char *const cfgs[] = {
        "l1d.size=0",
        "l2.slice_size=0",
        "dram.channels=1 l2.slices_per_channel=1",
        "sm.schedulers=4 sm.scheduler=two_level sm.two_level_active=1",
        "sm.int_units=1 sm.dp_units=1 sm.sfu_units=2",
        "clock.core_mhz=1234.5 clock.dram_mhz=3000 clock.icnt_mhz=999",
        "l1d.mshrs=1 l1d.mshr_merge=1 l1d.miss_queue=1 icnt.queue=1 l2.queue=1 dram.queue=1",
        "sm.ibuffer=1 sm.fetch_latency=7 sm.oc_sp=1 sm.oc_mem=1 sm.rf_banks=1",
        "dram.scheduler=fcfs l1d.set_index=xor l1d.cache_global=0",
    };
    for (uint32_t i = 0; i < TP_ARRAY_LEN(cfgs); i++) {
        gpu_rig r;
        if (!gpu_rig_open(&r, two_ptx, cfgs[i], "sm.ptx")) {
            TT_CHECK(!"configuration refused");
            continue;
        }
        gpu_kstats ks;
        uint64_t out = exec_mem_alloc(r.dev, 64, 256);
        TT_EQ_I(gpu_rig_launch(&r, "two", 2, 64, &out, 8, &ks, NULL), EXEC_OK);
        const uint64_t *o = exec_mem_host(r.dev, out, 32);
        TT_CHECK(o[0] >= 11 && o[1] >= 11); /* ten adds cannot take fewer than 11 cycles */
        TT_EQ_U(ks.warp_insns, 2 * 2 * 21); /* 21 instructions per warp, 2 CTAs of 2 warps */
        TT_CHECK(ks.cycles > 0);
        gpu_kstats_free(&ks);
        gpu_rig_close(&r);
    }
}

/* A kernel that waits for a flag nobody sets: while (*(volatile int *)flag == 0) {} */
static const char *spin_ptx = HDR
    ".visible .entry waitflag(.param .u64 flag)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [flag];\n"
    "WAIT:\n"
    "  ld.volatile.global.u32 %r1, [%rd1];\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra WAIT;\n"
    "  st.global.u32 [%rd1+4], %r1;\n"
    "  ret;\n"
    "}\n";

/* The livelock watchdog stops the kernel after exactly exec.spin_limit warp
** instructions without progress, in functional and in performance mode
** alike, and its advice names -o (tpsim run) and TPSIM_OPTIONS. */
static void t_livelock_both_modes(void)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, spin_ptx, "exec.spin_limit=20000", "spin.ptx")) return;
    uint64_t flag = exec_mem_alloc(r.dev, 64, 256);
    memset(exec_mem_host(r.dev, flag, 8), 0, 8);
    exec_launch l = {{4, 1, 1}, {64, 1, 1}, 0, &flag, 8};
    int k = exec_mod_kernel(r.m, "waitflag");
    exec_result fr, pr;
    TT_EQ_I(exec_launch_kernel(r.m, k, &l, &fr), EXEC_ERR_LIVELOCK);
    gpu_kstats ks;
    memset(&ks, 0, sizeof ks);
    TT_EQ_I(gpu_launch(r.g, r.m, k, &l, &pr, &ks, NULL, NULL), EXEC_ERR_LIVELOCK);
    TT_EQ_U(fr.warp_insns, 20000);
    TT_EQ_U(pr.warp_insns, 20000);
    TT_EQ_U(ks.warp_insns, 20000);
    static const char advice[] = "livelock or deadlock: no warp changed memory, finished or passed a barrier for 20000 "
                                 "warp instructions (exec.spin_limit); if the kernel is just long, raise the limit: "
                                 "tpsim run -o exec.spin_limit=400000 (a driver-API program run directly: "
                                 "TPSIM_OPTIONS=exec.spin_limit=400000)";
    TT_HAS(fr.msg, advice);
    TT_HAS(pr.msg, advice);
    TT_HAS(pr.msg, "block (0,0,0) warp 0: running at pc ");
    TT_HAS(pr.msg, "in kernel 'waitflag'");
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

int main(void)
{
    TT_RUN(t_dependent_chain);
    TT_RUN(t_independent);
    TT_RUN(t_max_class);
    TT_RUN(t_cvt64_class);
    TT_RUN(t_rcp64_class);
    TT_RUN(t_dp_pipe);
    TT_RUN(t_imul_pipe);
    TT_RUN(t_fmul_pipe);
    TT_RUN(t_div_pipe);
    TT_RUN(t_barrier_fetch);
    TT_RUN(t_gto_vs_lrr);
    TT_RUN(t_gty);
    TT_RUN(t_issue_order);
    TT_RUN(t_simd_efficiency);
    TT_RUN(t_cta_limit);
    TT_RUN(t_shared_bank_conflicts);
    TT_RUN(t_const_path);
    TT_RUN(t_ldst_interval);
    TT_RUN(t_mem_queue);
    TT_RUN(t_lanes_off_collector);
    TT_RUN(t_deterministic);
    TT_RUN(t_odd_configs);
    TT_RUN(t_livelock_both_modes);
    return tt_done();
}
