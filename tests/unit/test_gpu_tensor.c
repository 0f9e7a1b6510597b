/*
** test_gpu_tensor.c -- exact-cycle scenarios of the tensor pipes and of the
** matrix loads in the LD/ST unit (gpu/opcoll.c, gpu/ldst.c, docs/TENSOR.md),
** tiny kernels that read %clock64 around the work, run by gpu_launch on the
** GTX 480 defaults with the options each test names.
**
** The conventions (docs/TIMING.md, docs/TENSOR.md): an instruction issued
** at t reads its operands at t + 1 and dispatches then if its pipe is free;
** a tensor instruction of M multiply-accumulates on a pipe of rate R has the
** interval I = ceil(M / R) and the latency L = lat.tensor + I; a dependent
** instruction issues in the write-back cycle, so a chain of dependent mma
** issues every L + 1 cycles; a warp's tensor instruction uses only its
** sub-core's pipe, (warp slot mod sm.schedulers) mod sm.tensor_units.
** mma.m16n8k8 is 16 x 8 x 8 = 1024 multiply-accumulates.
*/
#include "tests/unit/tt.h"
#include "tests/unit/gpu_rig.h"
#include <stdlib.h>

#define MMA(d, c) "  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {" d "}, {%r1, %r2}, {%r3}, {" c "};\n"

/* Runs kernel k with one u64 parameter (out) on one CTA; returns out[0]. */
static uint64_t delta(gpu_rig *r, const char *k, uint32_t block, gpu_kstats *ks, uint64_t *outp)
{
    uint64_t out = exec_mem_alloc(r->dev, 4096, 256);
    memset(exec_mem_host(r->dev, out, 4096), 0, 4096);
    exec_result res;
    exec_status st = gpu_rig_launch(r, k, 1, block, &out, 8, ks, &res);
    TT_EQ_I(st, EXEC_OK);
    if (st != EXEC_OK) printf("    %s\n", res.msg);
    if (outp) *outp = out;
    return *(uint64_t *)exec_mem_host(r->dev, out, 8);
}

/* Four dependent mma (each c is the last d), then four independent ones and
** a read of the last one's result: out[0] and out[1] = clock deltas. */
static const char *mma_ptx = HDR
    ".visible .entry chain(.param .u64 out)\n{\n"
    "  .reg .b32 %r<40>;\n  .reg .f32 %f<40>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n"
    "  mov.f32 %f1, 0f00000000;\n  mov.f32 %f2, 0f00000000;\n  mov.f32 %f3, 0f00000000;\n  mov.f32 %f4, 0f00000000;\n"
    FILL
    "  mov.u64 %rd2, %clock64;\n"
    MMA("%f1, %f2, %f3, %f4", "%f1, %f2, %f3, %f4")
    MMA("%f1, %f2, %f3, %f4", "%f1, %f2, %f3, %f4")
    MMA("%f1, %f2, %f3, %f4", "%f1, %f2, %f3, %f4")
    MMA("%f1, %f2, %f3, %f4", "%f1, %f2, %f3, %f4")
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n  st.global.u64 [%rd1], %rd4;\n"
    FILL FILL FILL FILL FILL FILL
    "  mov.u64 %rd2, %clock64;\n"
    MMA("%f11, %f12, %f13, %f14", "%f1, %f2, %f3, %f4")
    MMA("%f15, %f16, %f17, %f18", "%f1, %f2, %f3, %f4")
    MMA("%f19, %f20, %f21, %f22", "%f1, %f2, %f3, %f4")
    MMA("%f23, %f24, %f25, %f26", "%f1, %f2, %f3, %f4")
    "  mov.b32 %r10, %f26;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n  st.global.u64 [%rd1+8], %rd4;\n"
    "  ret;\n}\n"
    /* warps 0 and 2 (warps 1 and 3 leave): 8 independent mma and a read of
    ** the last one's result; out[warp] = the delta */
    ".visible .entry burst(.param .u64 out)\n{\n"
    "  .reg .b32 %r<40>;\n  .reg .f32 %f<60>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r5, %tid.x;\n  shr.u32 %r5, %r5, 5;\n  mul.wide.u32 %rd5, %r5, 8;\n  add.s64 %rd1, %rd1, %rd5;\n"
    "  and.b32 %r6, %r5, 1;\n  setp.ne.u32 %p, %r6, 0;\n  @%p bra DONE;\n"
    "  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n"
    "  mov.f32 %f1, 0f00000000;\n  mov.f32 %f2, 0f00000000;\n  mov.f32 %f3, 0f00000000;\n  mov.f32 %f4, 0f00000000;\n"
    FILL
    "  bar.sync 0;\n"
    "  mov.u64 %rd2, %clock64;\n"
    MMA("%f11, %f12, %f13, %f14", "%f1, %f2, %f3, %f4")
    MMA("%f15, %f16, %f17, %f18", "%f1, %f2, %f3, %f4")
    MMA("%f19, %f20, %f21, %f22", "%f1, %f2, %f3, %f4")
    MMA("%f23, %f24, %f25, %f26", "%f1, %f2, %f3, %f4")
    MMA("%f27, %f28, %f29, %f30", "%f1, %f2, %f3, %f4")
    MMA("%f31, %f32, %f33, %f34", "%f1, %f2, %f3, %f4")
    MMA("%f35, %f36, %f37, %f38", "%f1, %f2, %f3, %f4")
    MMA("%f39, %f40, %f41, %f42", "%f1, %f2, %f3, %f4")
    "  mov.b32 %r10, %f42;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n  st.global.u64 [%rd1], %rd4;\n  st.global.u64 [%rd1+32], %rd2;\n"
    "DONE:\n"
"  ret;\n}\n";

static void t_tensor_pipe(void)
{
    gpu_rig r;
    gpu_kstats ks;
    uint64_t out;
    /* I = 1024 / 64 = 16, L = 3 + 16 = 19.  Chain: the first mma issues at
    ** t0 + 1, each next L + 1 = 20 cycles later, the clock read the cycle
    ** after the last: 1 + 3 * 20 + 1 = 62.  Independent: mma k (0..3) issues
    ** at t0 + 1 + k, reads at t0 + 2 + k, dispatches when the pipe is free:
    ** t0 + 2 + 16k; the last writes back at t0 + 2 + 48 + 19 = t0 + 69, the
    ** mov that reads it issues then, the clock read at t0 + 70. */
    if (!gpu_rig_open(&r, mma_ptx, "sm.tensor_units=1 tensor.macs_f16f32=64 lat.tensor=3", "tc.ptx")) return;
    TT_EQ_U(delta(&r, "chain", 32, &ks, &out), 62);
    TT_EQ_U(((uint64_t *)exec_mem_host(r.dev, out, 16))[1], 70);
    TT_EQ_U(ks.tensor_insns, 8);
    TT_EQ_U(ks.tensor_macs, 8 * 1024);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* a faster pipe: rate 128, I = 8, L = 3 + 8 = 11: chain 1 + 3 * 12 + 1 = 38;
    ** independent: t0 + 2 + 24 + 11 + 1 = t0 + 38 */
    if (!gpu_rig_open(&r, mma_ptx, "sm.tensor_units=1 tensor.macs_f16f32=128 lat.tensor=3", "tc.ptx")) return;
    TT_EQ_U(delta(&r, "chain", 32, &ks, &out), 38);
    TT_EQ_U(((uint64_t *)exec_mem_host(r.dev, out, 16))[1], 38);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* an interval that is not a whole number of cycles rounds up: 1024 / 100 -> 11 */
    if (!gpu_rig_open(&r, mma_ptx, "sm.tensor_units=1 tensor.macs_f16f32=100 lat.tensor=0", "tc.ptx")) return;
    TT_EQ_U(delta(&r, "chain", 32, &ks, NULL), 1 + 3 * 12 + 1);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* No tensor units (the GTX 480): the f16->f32 mma runs on the SP pipes as
** fma would, 32 multiply-adds per ii.fp_mad (1) cycle: I = 1024 / 32 = 32,
** L = lat.fp_mad (5) + 32 = 37; chain 1 + 3 * 38 + 1 = 116. */
static void t_fallback(void)
{
    gpu_rig r;
    gpu_kstats ks;
    if (!gpu_rig_open(&r, mma_ptx, NULL, "tc.ptx")) return;
    TT_EQ_U(delta(&r, "chain", 32, &ks, NULL), 116);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    /* ii.fp_mad = 2 halves the rate: I = 64, L = 5 + 64 = 69: 1 + 3 * 70 + 1 */
    if (!gpu_rig_open(&r, mma_ptx, "ii.fp_mad=2", "tc.ptx")) return;
    TT_EQ_U(delta(&r, "chain", 32, &ks, NULL), 212);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* Sub-cores: warps 0 and 2, on schedulers 0 and 2 (of 4), leaving a barrier
** and fetched in the same cycle (sm.fetch_width=4), with collectors and register ports to
** spare, each issue 8 independent mma (I = 16, L = 19) in consecutive
** cycles.  With a pipe per scheduler each warp's mma dispatch at t0 + 2 +
** 16k: the last writes back at t0 + 2 + 112 + 19, the clock is read one
** cycle later: 134.  With 2 pipes, warp w uses pipe (w mod 4) mod 2: both
** use pipe 0, which takes them alternately, oldest first (warp 0's k, warp
** 2's k, warp 0's k + 1, ...): warp 0's last is the 15th, dispatched at
** t0 + 2 + 14 x 16 (delta 2 + 224 + 19 + 1 = 246), warp 2's the 16th (262). */
static void t_subcores(void)
{
    gpu_rig r;
    gpu_kstats ks;
    uint64_t out, *o;
    const char *common = "sm.schedulers=4 sm.fetch_width=4 sm.oc_sp=32 sm.rf_ports=8 tensor.macs_f16f32=64 lat.tensor=3";
    char opts[256];
    snprintf(opts, sizeof opts, "%s sm.tensor_units=4", common);
    if (!gpu_rig_open(&r, mma_ptx, opts, "tc.ptx")) return;
    delta(&r, "burst", 128, &ks, &out);
    o = exec_mem_host(r.dev, out, 32);
    TT_EQ_U(o[0], 134);
    TT_EQ_U(o[2], 134);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    snprintf(opts, sizeof opts, "%s sm.tensor_units=2", common);
    if (!gpu_rig_open(&r, mma_ptx, opts, "tc.ptx")) return;
    delta(&r, "burst", 128, &ks, &out);
    o = exec_mem_host(r.dev, out, 32);
    TT_EQ_U(o[4], o[6]); /* the barrier lets both start in one cycle */
    TT_EQ_U(o[0], 246);
    TT_EQ_U(o[2], 262);
    TT_EQ_U(ks.tensor_insns, 16);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

/* Matrix loads in the LD/ST unit: wmma.load.a (f16, row-major, m16n16k16)
** from shared memory is 4 passes (one register per lane each); lane (g, t)
** reads word 8r + t (+4) of a 32-byte-pitch matrix (row r = g or g + 8):
** rows g and g + 4 share banks, a 2-way conflict per pass, 8 cycles in all;
** a 48-byte pitch is conflict-free, 4 cycles.  The load is accepted at t0 + 2
** and writes back at t0 + 2 + (k - 1) + shmem.latency; the dependent mov
** issues then and the clock read after it: k + 26 + 2.  ldmatrix .x4 with
** 32 consecutive 16-byte rows: each bank holds 4 of the rows' words, k = 4. */
static const char *ld_ptx = HDR
    ".visible .entry wl(.param .u64 out)\n{\n"
    "  .reg .b32 %r<40>;\n  .reg .b64 %rd<8>;\n  .shared .align 32 .b8 sm[2048];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r20, sm;\n  mov.u32 %r21, 16;\n  mov.u32 %r22, 24;\n"
    FILL
    "  mov.u64 %rd2, %clock64;\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%r20], %r21;\n"
    "  mov.b32 %r10, %r8;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n  st.global.u64 [%rd1], %rd4;\n"
    FILL FILL FILL FILL FILL FILL FILL FILL FILL FILL
    "  mov.u64 %rd2, %clock64;\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%r20], %r22;\n"
    "  mov.b32 %r10, %r8;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n  st.global.u64 [%rd1+8], %rd4;\n"
    FILL FILL FILL FILL FILL FILL FILL FILL FILL FILL
    "  mov.u32 %r23, %laneid;\n  shl.b32 %r23, %r23, 4;\n  add.u32 %r23, %r23, %r20;\n"
    FILL FILL
    "  mov.u64 %rd2, %clock64;\n"
    "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r23];\n"
    "  mov.b32 %r10, %r4;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n  st.global.u64 [%rd1+16], %rd4;\n"
    "  ret;\n}\n";

static void t_matrix_loads(void)
{
    gpu_rig r;
    gpu_kstats ks;
    uint64_t out, *o;
    if (!gpu_rig_open(&r, ld_ptx, NULL, "tc.ptx")) return;
    delta(&r, "wl", 32, &ks, &out);
    o = exec_mem_host(r.dev, out, 24);
    TT_EQ_U(o[0], 8 + 26 + 2);
    TT_EQ_U(o[1], 4 + 26 + 2);
    TT_EQ_U(o[2], 4 + 26 + 2);
    TT_EQ_U(ks.shared_accesses, 4 + 4 + 1);
    TT_EQ_U(ks.shared_bank_conflict_cycles, 4 + 0 + 3);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
}

int main(void)
{
    TT_RUN(t_tensor_pipe);
    TT_RUN(t_fallback);
    TT_RUN(t_subcores);
    TT_RUN(t_matrix_loads);
    return tt_done();
}
