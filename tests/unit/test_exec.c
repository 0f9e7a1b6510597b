/*
** test_exec.c -- the functional model on small hand-written PTX kernels:
** SIMT reconvergence (checked by exact warp- and thread-instruction counts),
** barriers, calls and recursion, memory spaces, bounds checks, atomics, warp
** exchanges, system calls, launch validation, watchdogs and determinism.
**
** Instruction counts are derived by hand from the PTX in each test: one warp
** instruction per instruction a warp issues (predicated-off ones included),
** and one thread instruction per active lane at that instruction.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include <pthread.h>
#include <stdlib.h>

static exec_dev *dev;

/* ---- reconvergence ---------------------------------------------------------------- */

static const char *ifelse_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 0;\n"
    "  @%p1 bra EVEN;\n"
    "  mov.u32 %r3, 100;\n"
    "  bra JOIN;\n"
    "EVEN:\n"
    "  mov.u32 %r3, 200;\n"
    "JOIN:\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

static void t_ifelse_reconverges(void)
{
    exec_mod *m = exec_rig_load(dev, ifelse_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t out = exec_mem_alloc(dev, 64 * 4, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 2, 32, out, &r), EXEC_OK);
    uint32_t *o = exec_mem_host(dev, out, 256);
    /* Both blocks store by %tid.x only, so elements 32..63 stay zero. */
    for (int i = 0; i < 64; i++) TT_EQ_U(o[i], i >= 32 ? 0 : (i & 1) ? 100 : 200);
    /* Per warp: 5 common, odd path 2 (16 lanes), even path 1 (16 lanes), then
    ** mul, add, st, ret together: 12 warp instructions, 5*32+2*16+16+4*32 = 336
    ** thread instructions; two warps. */
    TT_EQ_U(r.warp_insns, 24);
    TT_EQ_U(r.thread_insns, 672);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* A loop where lane i runs i % 4 + 1 iterations, a continue for odd
** iterations, and a break when the running sum passes a bound. */
static const char *loop_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"          /* 1 */
    "  mov.u32 %r1, %tid.x;\n"               /* 2 */
    "  and.b32 %r2, %r1, 3;\n"               /* 3: trips-1 */
    "  mov.u32 %r3, 0;\n"                    /* 4: i */
    "  mov.u32 %r4, 0;\n"                    /* 5: sum */
    "LOOP:\n"
    "  and.b32 %r5, %r3, 1;\n"               /* a */
    "  setp.ne.u32 %p1, %r5, 0;\n"           /* b */
    "  @%p1 bra NEXT;\n"                     /* c: continue on odd i */
    "  add.u32 %r4, %r4, 10;\n"              /* d */
    "NEXT:\n"
    "  add.u32 %r3, %r3, 1;\n"               /* e */
    "  setp.le.u32 %p2, %r3, %r2;\n"         /* f */
    "  @%p2 bra LOOP;\n"                     /* g */
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "  ret;\n"
    "}\n";

static void t_loop_divergent_trips(void)
{
    exec_mod *m = exec_rig_load(dev, loop_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t out = exec_mem_alloc(dev, 32 * 4, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 32, out, &r), EXEC_OK);
    uint32_t *o = exec_mem_host(dev, out, 128);
    /* trips = (i&3)+1; even iterations add 10: trips 1,2 -> 10; 3,4 -> 20 */
    for (int i = 0; i < 32; i++) TT_EQ_U(o[i], ((i & 3) + 1 + 1) / 2 * 10);
    /* Iteration j (0..3) runs with the lanes whose trips > j: 32, 24, 16, 8.
    ** Each iteration issues a, b, c, e, f, g (6) plus d on even j:
    ** warp insns: 5 + 4*6 + 2 (d at j=0,2) + 4 (tail) = 35.
    ** thread insns: 5*32 + 6*(32+24+16+8) + d: 32+16 + tail 4*32 = 160+480+48+128 = 816. */
    TT_EQ_U(r.warp_insns, 35);
    TT_EQ_U(r.thread_insns, 816);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* Early return in some lanes, exit in others, the rest store. */
static const char *early_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  setp.lt.u32 %p1, %r1, 8;\n"
    "  @%p1 ret;\n"                          /* lanes 0-7 return */
    "  setp.lt.u32 %p2, %r1, 16;\n"
    "  @%p2 exit;\n"                         /* lanes 8-15 exit */
    "  st.global.u32 [%rd3], %r1;\n"         /* lanes 16-31 */
    "  ret;\n"
    "}\n";

static void t_early_return_and_exit(void)
{
    exec_mod *m = exec_rig_load(dev, early_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t out = exec_mem_alloc(dev, 32 * 4, 256);
    uint32_t *o = exec_mem_host(dev, out, 128);
    for (int i = 0; i < 32; i++) o[i] = 0xdead;
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 32, out, &r), EXEC_OK);
    for (int i = 0; i < 32; i++) TT_EQ_U(o[i], i < 16 ? 0xdead : (uint32_t)i);
    /* 6 with 32 lanes, then setp, exit with 24, then st, ret with 16. */
    TT_EQ_U(r.warp_insns, 10);
    TT_EQ_U(r.thread_insns, 6 * 32 + 2 * 24 + 2 * 16);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* A guarded ret right before the end: taken and fall-through both reach
** the kernel's end, where the bottom stack entry must stay (found by fuzzing). */
static const char *lastret_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p2, %r1, 5;\n"
    "  @%p2 ret;\n"
    "}\n";

static void t_guarded_last_ret(void)
{
    exec_mod *m = exec_rig_load(dev, lastret_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 32, 0, &r), EXEC_OK);
    TT_EQ_U(r.warp_insns, 4);
    exec_mod_unload(m);
}

/* ---- barriers and shared memory ------------------------------------------------------ */

static const char *reduce_ptx = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b32 sh[256];\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r5, [%rd4];\n"
    "  mov.u32 %r6, sh;\n"
    "  shl.b32 %r7, %r1, 2;\n"
    "  add.s32 %r8, %r6, %r7;\n"
    "  st.shared.u32 [%r8], %r5;\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r9, %r3, 1;\n"
    "STEP:\n"
    "  setp.ge.u32 %p1, %r1, %r9;\n"
    "  @%p1 bra SKIP;\n"
    "  shl.b32 %r10, %r9, 2;\n"
    "  add.s32 %r10, %r8, %r10;\n"
    "  ld.shared.u32 %r11, [%r10];\n"
    "  ld.shared.u32 %r5, [%r8];\n"
    "  add.s32 %r5, %r5, %r11;\n"
    "  st.shared.u32 [%r8], %r5;\n"
    "SKIP:\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r9, %r9, 1;\n"
    "  setp.ne.u32 %p2, %r9, 0;\n"
    "  @%p2 bra STEP;\n"
    "  setp.ne.u32 %p3, %r1, 0;\n"
    "  @%p3 ret;\n"
    "  ld.shared.u32 %r5, [sh];\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n"
    "  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r5;\n"
    "  ret;\n"
    "}\n";

static void t_shared_reduction(void)
{
    exec_mod *m = exec_rig_load(dev, reduce_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    enum { N = 256 * 5 };
    uint64_t in = exec_mem_alloc(dev, N * 4, 256), out = exec_mem_alloc(dev, 5 * 4, 256);
    uint32_t *pi = exec_mem_host(dev, in, N * 4);
    uint32_t want[5] = {0};
    for (uint32_t i = 0; i < N; i++) {
        pi[i] = i * 2654435761u >> 7;
        want[i / 256] += pi[i];
    }
    uint64_t params[2] = {in, out};
    exec_launch l = {{5, 1, 1}, {256, 1, 1}, 0, params, 16};
    exec_result r;
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "k"), &l, &r), EXEC_OK);
    uint32_t *po = exec_mem_host(dev, out, 20);
    for (int b = 0; b < 5; b++) TT_EQ_U(po[b], want[b]);
    exec_kattr a;
    exec_kernel_attrs(m, exec_mod_kernel(m, "k"), &a);
    TT_EQ_U(a.shared_static, 1024);
    exec_mod_unload(m);
    exec_mem_free(dev, in);
    exec_mem_free(dev, out);
}

/* ---- calls ----------------------------------------------------------------------- */

static const char *fact_ptx = HDR
    ".func (.param .b32 rv) fact(.param .b32 n)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<6>;\n"
    "  ld.param.u32 %r1, [n];\n"
    "  setp.le.s32 %p1, %r1, 1;\n"
    "  @%p1 bra BASE;\n"
    "  add.s32 %r2, %r1, -1;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call.uni (r0), fact, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  mul.lo.s32 %r4, %r3, %r1;\n"
    "  st.param.b32 [rv], %r4;\n"
    "  ret;\n"
    "BASE:\n"
    "  st.param.b32 [rv], 1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 7;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call (r0), fact, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

static void t_recursive_calls(void)
{
    exec_mod *m = exec_rig_load(dev, fact_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t out = exec_mem_alloc(dev, 64 * 4, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 64, out, &r), EXEC_OK);
    if (r.status) printf("    %s\n", r.msg);
    uint32_t *o = exec_mem_host(dev, out, 256);
    static const uint32_t f[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (int i = 0; i < 64; i++) TT_EQ_U(o[i], f[i & 7]);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* ---- errors ---------------------------------------------------------------------- */

static const char *oob_ptx = HDR
    ".visible .entry oob(.param .u64 out, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.s32 %r3, %r2, 32, %r1;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

static void t_out_of_bounds(void)
{
    exec_mod *m = exec_rig_load(dev, oob_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    /* 40 elements, launched with 2 blocks of 32 threads: thread (8,0,0) of
    ** block (1,0,0) writes element 40, just past the end. */
    uint64_t out = exec_mem_alloc(dev, 40 * 4, 256);
    struct { uint64_t p; uint32_t n; } pr = {out, 40};
    exec_launch l = {{2, 1, 1}, {32, 1, 1}, 0, &pr, 12};
    exec_result r;
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "oob"), &l, &r), EXEC_ERR_ILLEGAL_ADDRESS);
    TT_HAS(r.msg, "kernel 'oob'");
    TT_HAS(r.msg, "block (1,0,0)");
    TT_HAS(r.msg, "thread (8,0,0)");
    TT_HAS(r.msg, "st.global.u32");
    TT_HAS(r.msg, "0 bytes past the end of the 160-byte allocation");
    char addr[64];
    snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)(out + 160));
    TT_HAS(r.msg, addr);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

static void t_launch_validation(void)
{
    exec_mod *m = exec_rig_load(dev, oob_ptx, "test.ptx");
    if (!m) return;
    uint64_t out = exec_mem_alloc(dev, 4096, 256);
    struct { uint64_t p; uint32_t n; } pr = {out, 1};
    exec_result r;
    exec_launch l = {{1, 1, 1}, {2048, 1, 1}, 0, &pr, 12};
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "oob"), &l, &r), EXEC_ERR_INVALID_VALUE);
    exec_launch l2 = {{1, 1, 1}, {1, 1, 65}, 0, &pr, 12};
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "oob"), &l2, &r), EXEC_ERR_INVALID_VALUE);
    exec_launch l3 = {{0, 1, 1}, {32, 1, 1}, 0, &pr, 12};
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "oob"), &l3, &r), EXEC_ERR_INVALID_VALUE);
    exec_launch l4 = {{1, 1, 1}, {32, 1, 1}, 64 * 1024, &pr, 12};
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "oob"), &l4, &r), EXEC_ERR_INVALID_VALUE);
    TT_HAS(r.msg, "shared memory");
    exec_launch l5 = {{1, 1, 1}, {32, 1, 1}, 0, &pr, 4};
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "oob"), &l5, &r), EXEC_ERR_INVALID_VALUE);
    TT_EQ_I(exec_mod_kernel(m, "nope"), -1);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* The PTX ISA's predefined identifiers executed: WARP_SZ (nvcc emits
** `mov.u32 %r, WARP_SZ;` for warpSize) as a value and in an expression, and
** the special registers about reserved shared memory and device graphs.
** Thread t writes 8 words: WARP_SZ, t mod WARP_SZ, %laneid, WARP_SZ*2-1,
** %aggr_smem_size, %total_smem_size, %reserved_smem_offset_begin ... _cap
** (or-ed with _end, _0, _1), the low word of %current_graph_exec. */
static const char *predef_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<16>; .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b8 sh[40];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, WARP_SZ;\n"
    "  rem.u32 %r3, %r1, WARP_SZ;\n"
    "  mov.u32 %r4, %laneid;\n"
    "  add.u32 %r5, %r2, WARP_SZ-1;\n"
    "  mov.u32 %r6, %aggr_smem_size;\n"
    "  mov.u32 %r7, %total_smem_size;\n"
    "  mov.u32 %r8, %reserved_smem_offset_begin;\n"
    "  mov.u32 %r9, %reserved_smem_offset_end;\n"
    "  mov.u32 %r10, %reserved_smem_offset_cap;\n"
    "  mov.u32 %r11, %reserved_smem_offset_0;\n"
    "  mov.u32 %r12, %reserved_smem_offset_1;\n"
    "  or.b32 %r8, %r8, %r9;\n"
    "  or.b32 %r8, %r8, %r10;\n"
    "  or.b32 %r8, %r8, %r11;\n"
    "  or.b32 %r8, %r8, %r12;\n"
    "  mov.u64 %rd2, %current_graph_exec;\n"
    "  cvt.u32.u64 %r13, %rd2;\n"
    "  st.shared.u32 [sh], %r1;\n"
    "  mul.wide.u32 %rd3, %r1, 32;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};\n"
    "  st.global.v4.u32 [%rd4+16], {%r6, %r7, %r8, %r13};\n"
    "  ret;\n"
    "}\n";

static void t_predefined_identifiers(void)
{
    exec_mod *m = exec_rig_load(dev, predef_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t out = exec_mem_alloc(dev, 96 * 32, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 96, out, &r), EXEC_OK);
    const uint32_t *o = exec_mem_host(dev, out, 96 * 32);
    for (uint32_t t = 0; t < 96; t++) {
        const uint32_t *q = o + t * 8;
        TT_EQ_U(q[0], 32);
        TT_EQ_U(q[1], t % 32);
        TT_EQ_U(q[2], t % 32);
        TT_EQ_U(q[3], 63);
        TT_EQ_U(q[4], 40);   /* sh: 40 bytes, nothing reserved, no dynamic part */
        TT_EQ_U(q[5], 40);
        TT_EQ_U(q[6], 0);
        TT_EQ_U(q[7], 0);
    }
    /* 25 instructions per warp: ld.param, 11 mov, rem and add, 4 or and cvt,
    ** 3 stores with mul.wide and add.s64, ret; three warps, all lanes active */
    TT_EQ_U(r.warp_insns, 3 * 25);
    TT_EQ_U(r.thread_insns, 96 * 25);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

static void t_bad_ptx_and_target(void)
{
    tp_err e;
    exec_status st;
    tp_err_clear(&e);
    const char *bad = HDR ".visible .entry k()\n{\n  bogus.op %r1;\n}\n";
    TT_CHECK(exec_mod_load(dev, bad, strlen(bad), "bad.ptx", &st, &e) == NULL);
    TT_EQ_I(st, EXEC_ERR_INVALID_PTX);
    TT_HAS(e.msg, "bad.ptx:6:");
    tp_err_clear(&e);
    const char *sm90 = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n";
    TT_CHECK(exec_mod_load(dev, sm90, strlen(sm90), "new.ptx", &st, &e) == NULL);
    TT_EQ_I(st, EXEC_ERR_NO_BINARY);
    TT_HAS(e.msg, "sm_90");
}

/* ---- watchdogs ----------------------------------------------------------------------- */

/* An intra-warp spin lock: lane 0 takes the lock, leaves the loop and waits
** at the reconvergence point; the others spin forever on the CAS. */
static const char *spin_ptx = HDR
    ".visible .entry spin(.param .u64 lock)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [lock];\n"
    "TRY:\n"
    "  atom.global.cas.b32 %r1, [%rd1], 0, 1;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra TRY;\n"
    "  atom.global.exch.b32 %r2, [%rd1], 0;\n"
    "  ret;\n"
    "}\n";

static void t_intra_warp_livelock(void)
{
    exec_dev *d = exec_rig_dev("exec.spin_limit=20000");
    exec_mod *m = exec_rig_load(d, spin_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) { exec_dev_destroy(d); return; }
    uint64_t lock = exec_mem_alloc(d, 4, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "spin", 1, 32, lock, &r), EXEC_ERR_LIVELOCK);
    TT_HAS(r.msg, "intra-warp");
    TT_HAS(r.msg, "kernel 'spin'");
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* Half the CTA waits at a barrier the other half never reaches. */
static const char *deadlock_ptx = HDR
    ".visible .entry dl()\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra WAIT;\n"
    "  bar.sync 1;\n"
    "  ret;\n"
    "WAIT:\n"
    "  bar.sync 0;\n"
    "  ret;\n"
    "}\n";

static void t_barrier_deadlock(void)
{
    exec_mod *m = exec_rig_load(dev, deadlock_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    exec_result r;
    exec_launch l = {{1, 1, 1}, {64, 1, 1}, 0, NULL, 0};
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "dl"), &l, &r), EXEC_ERR_DEADLOCK);
    TT_HAS(r.msg, "barrier");
    exec_mod_unload(m);
}

/* Each 8-lane tile names its own member mask (cooperative-groups tiles):
** vote.sync.ballot, vote.sync.all, match.any.sync and redux.sync work per tile. */
static const char *tiles_ptx = HDR
    ".visible .entry tiles(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  and.b32 %r2, %r1, 24;\n"             /* tile base: lane & ~7 */
    "  shl.b32 %r3, 255, %r2;\n"            /* member mask 0xff << base */
    "  and.b32 %r4, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r4, 1;\n"          /* odd lanes */
    "  vote.sync.ballot.b32 %r5, %p1, %r3;\n"
    "  setp.lt.u32 %p2, %r1, 8;\n"          /* true in tile 0 only */
    "  vote.sync.all.pred %p3, %p2, %r3;\n"
    "  selp.u32 %r6, 1, 0, %p3;\n"
    "  shr.u32 %r7, %r1, 1;\n"              /* values pair up within a tile */
    "  match.any.sync.b32 %r8, %r7, %r3;\n"
    "  redux.sync.add.u32 %r9, %r1, %r3;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r5, %r6, %r8, %r9};\n"
    "  ret;\n"
    "}\n";

static void t_tile_member_masks(void)
{
    exec_dev *d = exec_rig_dev("device.cc=8.0");
    exec_mod *m = exec_rig_load(d, tiles_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) { exec_dev_destroy(d); return; }
    uint64_t out = exec_mem_alloc(d, 32 * 16, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "tiles", 1, 32, out, &r), EXEC_OK);
    if (r.status) printf("    %s\n", r.msg);
    uint32_t *o = exec_mem_host(d, out, 512);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t base = l & 24;
        TT_EQ_U(o[4 * l + 0], 0xaau << base);                  /* odd lanes of this tile */
        TT_EQ_U(o[4 * l + 1], base == 0 ? 1 : 0);              /* all < 8 only in tile 0 */
        TT_EQ_U(o[4 * l + 2], 3u << (l & ~1u));                /* the pair sharing l >> 1 */
        TT_EQ_U(o[4 * l + 3], 8 * base + 28);                  /* sum of base..base+7 */
    }
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* ---- independent thread scheduling (exec.its=1) ------------------------------------- */

/* Every lane takes a global lock, increments a counter with a plain load and
** store (safe only under the lock), and releases it. */
static const char *lock_ptx = HDR
    ".visible .entry locked(.param .u64 lock, .param .u64 count)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [lock];\n"
    "  ld.param.u64 %rd2, [count];\n"
    "TRY:\n"
    "  atom.global.cas.b32 %r1, [%rd1], 0, 1;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra TRY;\n"
    "  ld.volatile.global.u32 %r2, [%rd2];\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  st.volatile.global.u32 [%rd2], %r2;\n"
    "  membar.gl;\n"
    "  atom.global.exch.b32 %r3, [%rd1], 0;\n"
    "  ret;\n"
    "}\n";

static void t_its_lock(void)
{
    exec_dev *d = exec_rig_dev("exec.its=1 exec.spin_limit=2000000");
    exec_mod *m = exec_rig_load(d, lock_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) { exec_dev_destroy(d); return; }
    uint64_t mem = exec_mem_alloc(d, 8, 256);
    uint64_t params[2] = {mem, mem + 4};
    exec_launch l = {{3, 1, 1}, {64, 1, 1}, 0, params, 16};
    exec_result r;
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "locked"), &l, &r), EXEC_OK);
    if (r.status) printf("    %s\n", r.msg);
    uint32_t *p = exec_mem_host(d, mem, 8);
    TT_EQ_U(p[0], 0);         /* released */
    TT_EQ_U(p[1], 3 * 64);    /* every thread got in exactly once */
    /* The same kernel without independent scheduling is reported, not hung. */
    exec_dev *d2 = exec_rig_dev("exec.spin_limit=20000");
    exec_mod *m2 = exec_rig_load(d2, lock_ptx, "test.ptx");
    uint64_t mem2 = exec_mem_alloc(d2, 8, 256);
    uint64_t params2[2] = {mem2, mem2 + 4};
    exec_launch l2 = {{1, 1, 1}, {32, 1, 1}, 0, params2, 16};
    TT_EQ_I(exec_launch_kernel(m2, exec_mod_kernel(m2, "locked"), &l2, &r), EXEC_ERR_LIVELOCK);
    TT_HAS(r.msg, "independent thread scheduling");
    exec_mod_unload(m2);
    exec_dev_destroy(d2);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* Structured divergence still reconverges under ITS: the same results, and
** for the if/else the same instruction counts as the stack model. */
static void t_its_reconverges(void)
{
    exec_dev *d = exec_rig_dev("exec.its=1");
    exec_mod *m = exec_rig_load(d, ifelse_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) { exec_dev_destroy(d); return; }
    uint64_t out = exec_mem_alloc(d, 32 * 4, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 32, out, &r), EXEC_OK);
    uint32_t *o = exec_mem_host(d, out, 128);
    for (int i = 0; i < 32; i++) TT_EQ_U(o[i], (i & 1) ? 100 : 200);
    TT_EQ_U(r.warp_insns, 12);
    TT_EQ_U(r.thread_insns, 336);
    exec_mod_unload(m);
    m = exec_rig_load(d, loop_ptx, "test.ptx");
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 32, out, &r), EXEC_OK);
    for (int i = 0; i < 32; i++) TT_EQ_U(o[i], ((i & 3) + 1 + 1) / 2 * 10);
    exec_mod_unload(m);
    m = exec_rig_load(d, fact_ptx, "test.ptx");
    uint64_t out2 = exec_mem_alloc(d, 64 * 4, 256);
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 64, out2, &r), EXEC_OK);
    uint32_t *o2 = exec_mem_host(d, out2, 256);
    static const uint32_t f[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (int i = 0; i < 64; i++) TT_EQ_U(o2[i], f[i & 7]);
    exec_mod_unload(m);
    m = exec_rig_load(d, early_ptx, "test.ptx");
    for (int i = 0; i < 32; i++) o[i] = 0xdead;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 32, out, &r), EXEC_OK);
    for (int i = 0; i < 32; i++) TT_EQ_U(o[i], i < 16 ? 0xdead : (uint32_t)i);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* __syncwarp after a divergent loop: the shuffle after it sees all lanes. */
static const char *syncwarp_ptx = HDR
    ".visible .entry sw(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  mov.u32 %r2, 0;\n"
    "LOOP:\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.lt.u32 %p1, %r2, %r1;\n"      /* lane l loops max(l,1) times */
    "  @%p1 bra LOOP;\n"
    "  bar.warp.sync -1;\n"
    "  activemask.b32 %r3;\n"
    "  shfl.sync.bfly.b32 %r4|%p2, %r2, 1, 31, -1;\n"
    "  add.u32 %r5, %r4, %r3;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "  ret;\n"
    "}\n";

static void t_its_syncwarp(void)
{
    const char *modes[2] = {"exec.its=0", "exec.its=1"};
    for (int k = 0; k < 2; k++) {
        exec_dev *d = exec_rig_dev(modes[k]);
        exec_mod *m = exec_rig_load(d, syncwarp_ptx, "test.ptx");
        TT_CHECK(m != NULL);
        if (!m) { exec_dev_destroy(d); continue; }
        uint64_t out = exec_mem_alloc(d, 32 * 4, 256);
        exec_result r;
        TT_EQ_I(exec_rig_launch1(m, "sw", 1, 32, out, &r), EXEC_OK);
        uint32_t *o = exec_mem_host(d, out, 128);
        /* iterations of lane l: max(l, 1); the partner is l ^ 1; activemask is all lanes */
        for (int i = 0; i < 32; i++) {
            int p = i ^ 1;
            TT_EQ_U(o[i], (uint32_t)(p > 1 ? p : 1) + 0xffffffffu);
        }
        exec_mod_unload(m);
        exec_dev_destroy(d);
    }
}

/* shfl from lanes that do not take part reads 0 (sem_warp.c): a block of 8
** threads, so lanes 8-31 were never launched.  down by 4 over mask 0xff:
** lanes 0-3 read lanes 4-7, lanes 4-7 read lanes 8-11 (absent: 0, the
** source in range: p true); up by 1 with clamp 0 (c = 0): lane 0 is out of
** range and keeps its own value (p false). */
static const char *shfl_absent_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  add.u32 %r2, %r1, 100;\n"
    "  shfl.sync.down.b32 %r3|%p1, %r2, 4, 31, 0xff;\n"
    "  shfl.sync.up.b32 %r4|%p2, %r2, 1, 0, 0xff;\n"
    "  selp.u32 %r5, 1000, 0, %p1;\n"
    "  selp.u32 %r6, 2000, 0, %p2;\n"
    "  add.u32 %r7, %r3, %r5;\n"
    "  add.u32 %r8, %r4, %r6;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v2.u32 [%rd3], {%r7, %r8};\n"
    "  ret;\n"
    "}\n";

static void t_shfl_absent_lanes(void)
{
    exec_mod *m = exec_rig_load(dev, shfl_absent_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t out = exec_mem_alloc(dev, 64, 256);
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 8, out, &r), EXEC_OK);
    uint32_t *o = exec_mem_host(dev, out, 64);
    for (uint32_t l = 0; l < 8; l++) {
        TT_EQ_U(o[2 * l], 1000 + (l < 4 ? 104 + l : 0));
        TT_EQ_U(o[2 * l + 1], l == 0 ? 100 : 2000 + 99 + l);
    }
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* ---- atomics against the host ------------------------------------------------------ */

/* Every thread adds n times to a u32, a u64 (through red), an f32 (.sys
** scope) and, through a generic address, a second u32, while a host thread
** adds to the same words with __atomic builtins: device memory is the host's
** bytes, and each side's read-modify-write must be indivisible, so the sums
** are exact whatever the interleaving. */
static const char *hostrace_ptx = HDR
    ".visible .entry k(.param .u64 p, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<5>; .reg .f32 %f<2>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, 0;\n"
    "LOOP:\n"
    "  atom.global.add.u32 %r3, [%rd1], 1;\n"
    "  red.global.add.u64 [%rd1+8], 4294967297;\n"
    "  atom.global.sys.add.f32 %f1, [%rd1+16], 0f3F800000;\n"
    "  atom.sys.add.u32 %r4, [%rd1+20], 7;\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.lt.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra LOOP;\n"
    "  ret;\n"
    "}\n";

typedef struct hostrace {
    uint8_t *mem;
    int done;
    uint32_t rounds, max_rounds;
} hostrace;

static void *hostrace_thread(void *arg)
{
    hostrace *h = arg;
    uint32_t *c32 = (uint32_t *)(void *)h->mem, *g32 = (uint32_t *)(void *)(h->mem + 20);
    uint64_t *c64 = (uint64_t *)(void *)(h->mem + 8);
    float *f = (float *)(void *)(h->mem + 16);
    /* start once the kernel has (so that the two overlap) */
    while (!__atomic_load_n(&h->done, __ATOMIC_SEQ_CST) && !__atomic_load_n(c32, __ATOMIC_SEQ_CST)) {}
    while (h->rounds < h->max_rounds && !__atomic_load_n(&h->done, __ATOMIC_SEQ_CST)) {
        __atomic_fetch_add(c32, 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(c64, 0xffffffffull, __ATOMIC_SEQ_CST);
        float old, nv;
        __atomic_load(f, &old, __ATOMIC_SEQ_CST);
        do {
            nv = old + 2.0f;
        } while (!__atomic_compare_exchange(f, &old, &nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        __atomic_fetch_add(g32, 5, __ATOMIC_SEQ_CST);
        h->rounds++;
    }
    return NULL;
}

static void t_atomics_vs_host(void)
{
    exec_mod *m = exec_rig_load(dev, hostrace_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t buf = exec_mem_alloc(dev, 24, 256);
    uint8_t *mem = exec_mem_host(dev, buf, 24);
    memset(mem, 0, 24);
    hostrace h = {mem, 0, 0, 1000000};
    pthread_t t;
    TT_CHECK(pthread_create(&t, NULL, hostrace_thread, &h) == 0);
    struct {
        uint64_t p;
        uint32_t n, pad;
    } params = {buf, 1000, 0};
    exec_launch l = {{8, 1, 1}, {128, 1, 1}, 0, &params, 12};
    exec_result r;
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "k"), &l, &r), EXEC_OK);
    __atomic_store_n(&h.done, 1, __ATOMIC_SEQ_CST);
    pthread_join(t, NULL);
    uint64_t k = 8 * 128 * 1000, n = h.rounds;
    uint32_t c32, g32;
    uint64_t c64;
    float f;
    memcpy(&c32, mem, 4);
    memcpy(&c64, mem + 8, 8);
    memcpy(&f, mem + 16, 4);
    memcpy(&g32, mem + 20, 4);
    TT_EQ_U(c32, k + n);
    TT_EQ_U(c64, k * 0x100000001ull + n * 0xffffffffull);
    TT_CHECK(f == (float)(k + 2 * n));
    TT_EQ_U(g32, 7 * k + 5 * n);
    exec_mem_free(dev, buf);
    exec_mod_unload(m);
}

/* 16-bit atomics (sm_70): cas.b16 and add.noftz.f16 on neighbouring halves. */
static const char *atom16_ptx = HDR
    ".visible .entry k(.param .u64 p)\n"
    "{\n"
    "  .reg .b16 %h<4>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.b16 %h1, 0x3c00;\n"                              /* 1.0 */
    "  atom.global.add.noftz.f16 %h2, [%rd1], %h1;\n"
    "  atom.global.cas.b16 %h3, [%rd1+2], 0, 0x1234;\n"   /* lane 0 wins, the rest see 0x1234 */
    "  ret;\n"
    "}\n";

static void t_atomics_16bit(void)
{
    exec_mod *m = exec_rig_load(dev, atom16_ptx, "test.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t buf = exec_mem_alloc(dev, 4, 256);
    uint16_t *h = exec_mem_host(dev, buf, 4);
    h[0] = 0, h[1] = 0;
    exec_result r;
    TT_EQ_I(exec_rig_launch1(m, "k", 1, 32, buf, &r), EXEC_OK);
    TT_EQ_U(h[0], 0x5000);   /* 32.0 in half precision */
    TT_EQ_U(h[1], 0x1234);
    exec_mem_free(dev, buf);
    exec_mod_unload(m);
}

/* ---- determinism ----------------------------------------------------------------- */

static void t_deterministic(void)
{
    exec_mod *m = exec_rig_load(dev, reduce_ptx, "test.ptx");
    if (!m) return;
    enum { N = 256 * 7 };
    uint64_t in = exec_mem_alloc(dev, N * 4, 256), out = exec_mem_alloc(dev, 7 * 4, 256);
    uint32_t *pi = exec_mem_host(dev, in, N * 4);
    for (uint32_t i = 0; i < N; i++) pi[i] = i;
    uint64_t params[2] = {in, out};
    exec_launch l = {{7, 1, 1}, {256, 1, 1}, 0, params, 16};
    exec_result r1, r2;
    exec_launch_kernel(m, exec_mod_kernel(m, "k"), &l, &r1);
    exec_launch_kernel(m, exec_mod_kernel(m, "k"), &l, &r2);
    TT_EQ_U(r1.warp_insns, r2.warp_insns);
    TT_EQ_U(r1.thread_insns, r2.thread_insns);
    TT_CHECK(r1.warp_insns > 0);
    exec_mod_unload(m);
    exec_mem_free(dev, in);
    exec_mem_free(dev, out);
}

/* ---- memory allocator -------------------------------------------------------------- */

static void t_device_memory(void)
{
    exec_dev *d = exec_rig_dev("device.global_mem=64M");
    uint64_t a = exec_mem_alloc(d, 100, 256), b = exec_mem_alloc(d, 5000, 4096);
    TT_CHECK(a && b && a != b);
    TT_EQ_U(b % 4096, 0);
    TT_CHECK(exec_mem_host(d, a, 100) != NULL);
    TT_CHECK(exec_mem_host(d, a, 101) == NULL);
    TT_CHECK(exec_mem_host(d, a + 99, 1) != NULL);
    uint64_t base, bytes;
    TT_CHECK(exec_mem_find(d, a + 50, &base, &bytes));
    TT_EQ_U(base, a);
    TT_EQ_U(bytes, 100);
    TT_CHECK(exec_mem_free(d, a));
    TT_CHECK(!exec_mem_free(d, a));
    TT_CHECK(exec_mem_host(d, a, 1) == NULL);
    uint64_t c = exec_mem_alloc(d, 50, 256);
    TT_EQ_U(c, a); /* first fit reuses the freed range */
    TT_CHECK(exec_mem_alloc(d, 1ull << 30, 256) == 0);
    uint64_t fr, tot;
    exec_mem_info(d, &fr, &tot);
    TT_EQ_U(tot, 64u << 20);
    TT_CHECK(fr < tot);
    /* Registered host memory is reachable at its own address, and only while registered. */
    static uint32_t host[64];
    TT_CHECK(exec_mem_register(d, (uint64_t)(uintptr_t)host, sizeof host));
    TT_CHECK(!exec_mem_register(d, (uint64_t)(uintptr_t)&host[8], 4)); /* overlaps */
    TT_CHECK(exec_mem_host(d, (uint64_t)(uintptr_t)&host[63], 4) == &host[63]);
    TT_CHECK(!exec_mem_free(d, (uint64_t)(uintptr_t)host)); /* not device memory */
    TT_CHECK(exec_mem_unregister(d, (uint64_t)(uintptr_t)host));
    TT_CHECK(exec_mem_host(d, (uint64_t)(uintptr_t)host, 4) == NULL);
    TT_CHECK(!exec_mem_register(d, b, 16)); /* inside the device reservation */
    exec_dev_destroy(d);
    /* Two devices never overlap. */
    exec_dev *d1 = exec_rig_dev(NULL), *d2 = exec_rig_dev(NULL);
    uint64_t x = exec_mem_alloc(d1, 16, 256), y = exec_mem_alloc(d2, 16, 256);
    TT_CHECK(x && y && x != y);
    TT_CHECK(exec_mem_host(d1, y, 16) == NULL);
    exec_dev_destroy(d1);
    exec_dev_destroy(d2);
}

int main(void)
{
    dev = exec_rig_dev(NULL);
    TT_RUN(t_device_memory);
    TT_RUN(t_ifelse_reconverges);
    TT_RUN(t_loop_divergent_trips);
    TT_RUN(t_early_return_and_exit);
    TT_RUN(t_guarded_last_ret);
    TT_RUN(t_shared_reduction);
    TT_RUN(t_recursive_calls);
    TT_RUN(t_out_of_bounds);
    TT_RUN(t_launch_validation);
    TT_RUN(t_predefined_identifiers);
    TT_RUN(t_bad_ptx_and_target);
    TT_RUN(t_intra_warp_livelock);
    TT_RUN(t_barrier_deadlock);
    TT_RUN(t_deterministic);
    TT_RUN(t_shfl_absent_lanes);
    TT_RUN(t_atomics_vs_host);
    TT_RUN(t_atomics_16bit);
    TT_RUN(t_tile_member_masks);
    TT_RUN(t_its_lock);
    TT_RUN(t_its_reconverges);
    TT_RUN(t_its_syncwarp);
    exec_dev_destroy(dev);
    return tt_done();
}
