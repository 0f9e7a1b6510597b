/*
** test_exec_step.c -- the stepping interface of exec.h (the door a timing
** model uses): records of single warp instructions (pc, masks, per-lane
** addresses resolved to their space, barrier, exit and CTA events, %clock
** reading the cycle given, %smid the SM chosen), the static facts of
** instructions (unit, latency class, registers read and written, whether
** it runs alone), a stepping driver that interleaves warps one instruction
** at a time giving the same memory results and counters as the functional
** driver (also with a step context per SM), what runs after a fault, the
** one occupancy function, 32-bit address wrapping and exec.oob=warn.
**
** Expected values come from the PTX of each test: pcs are counted from the
** kernel's first instruction, addresses from the launch's parameters.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include <stdlib.h>

static uint32_t kstart(exec_mod *m, const char *k)
{
    return exec_mod_ptx(m)->funcs[exec_mod_kernel(m, k)].start;
}

/* ---- one CTA of two warps, stepped by hand ----------------------------------------- */

/* pc: 0 ld.param  1 ld.param  2 mov tid  3 mul.wide  4 add (out+4t)  5 setp (t < 40)
**     6 @p st.global  7 cvta shared  8 add  9 st (generic -> shared)  10 bar.sync 0
**     11 mov clock64  12 mul.wide  13 add (clk+8t)  14 st.global.u64  15 mov smid  16 ret */
static const char *rec_ptx = HDR
    ".visible .entry k(.param .u64 out, .param .u64 clk)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<12>;\n"
    "  .shared .align 4 .b8 sh[256];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [clk];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  setp.lt.u32 %p1, %r1, 40;\n"
    "  @%p1 st.global.u32 [%rd4], %r1;\n"
    "  cvta.shared.u64 %rd5, sh;\n"
    "  add.s64 %rd6, %rd5, %rd3;\n"
    "  st.u32 [%rd6], %r1;\n"
    "  bar.sync 0;\n"
    "  mov.u64 %rd7, %clock64;\n"
    "  mul.wide.u32 %rd8, %r1, 8;\n"
    "  add.s64 %rd9, %rd2, %rd8;\n"
    "  st.global.u64 [%rd9], %rd7;\n"
    "  mov.u32 %r2, %smid;\n"
    "  ret;\n"
    "}\n";

/* rec_ptx's grid: one CTA of 64 threads, its outputs at *out and *clk */
static exec_grid *rec_grid(exec_dev *d, exec_mod *m, uint64_t *out, uint64_t *clk, exec_result *r)
{
    *out = exec_mem_alloc(d, 64 * 4, 256), *clk = exec_mem_alloc(d, 64 * 8, 256);
    uint64_t params[2] = {*out, *clk};
    exec_launch l = {{1, 1, 1}, {64, 1, 1}, 0, params, 16};
    exec_grid *g = exec_grid_open(m, exec_mod_kernel(m, "k"), &l, r);
    TT_CHECK(g != NULL);
    return g;
}

static void t_records(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, rec_ptx, "step.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t out, clk;
    exec_result r;
    exec_grid *g = rec_grid(d, m, &out, &clk, &r);
    if (!g) return;
    TT_EQ_U(exec_grid_ctas(g), 1);
    TT_EQ_U(exec_grid_warps_per_cta(g), 2);
    exec_cta *c = exec_cta_start(g, 3);
    TT_CHECK(c != NULL);
    TT_CHECK(exec_cta_start(g, 4) == NULL); /* one CTA in the grid */
    exec_warp *w0 = exec_cta_warp(c, 0), *w1 = exec_cta_warp(c, 1);
    uint32_t k0 = kstart(m, "k");
    exec_next n;
    exec_rec rec;
    /* warp 0 runs to the barrier: pcs 0..10, cycle = 100 + pc */
    for (uint32_t pc = 0; pc <= 10; pc++) {
        TT_EQ_I(exec_warp_next(w0, &n), EXEC_WS_READY);
        TT_EQ_U(n.pc, k0 + pc);
        TT_EQ_U(n.mask, 0xffffffffu);
        exec_warp_step(w0, 100 + pc, &rec);
        TT_EQ_U(rec.pc, k0 + pc);
        TT_CHECK(rec.si == n.si);
        if (pc == 6) {
            /* @p st.global: lanes 0..31 of warp 0 all have tid < 40 */
            TT_EQ_U(rec.active, 0xffffffffu);
            TT_EQ_U(rec.space, PTX_SP_GLOBAL);
            TT_EQ_U(rec.addr[0], out);
            TT_EQ_U(rec.addr[31], out + 31 * 4);
            TT_EQ_U(rec.si->unit, EXEC_U_MEM);
            TT_EQ_U(rec.si->bytes, 4);
            TT_CHECK(rec.si->flags & EXEC_SI_STORE);
        }
        if (pc == 9) {
            /* a generic store that lands in shared memory: offsets 4 * lane */
            TT_EQ_U(rec.space, PTX_SP_SHARED);
            TT_EQ_U(rec.addr[5], 20);
            TT_CHECK(!(rec.events & EXEC_EV_MIXED_SPACE));
        }
        if (pc < 10) TT_EQ_U(rec.events, 0);
    }
    TT_CHECK(rec.events & EXEC_EV_BAR_WAIT);
    TT_EQ_U(rec.bar_id, 0);
    TT_EQ_I(exec_warp_next(w0, &n), EXEC_WS_BARRIER);
    /* warp 1: lanes 32..63, the guard keeps 32..39 */
    for (uint32_t pc = 0; pc <= 10; pc++) {
        TT_EQ_I(exec_warp_next(w1, &n), EXEC_WS_READY);
        exec_warp_step(w1, 200 + pc, &rec);
        if (pc == 6) {
            TT_EQ_U(rec.mask, 0xffffffffu);
            TT_EQ_U(rec.active, 0xffu);
            TT_EQ_U(rec.addr[7], out + 39 * 4);
        }
        if (pc == 9) TT_EQ_U(rec.addr[0], 128);
    }
    TT_CHECK(rec.events & EXEC_EV_BAR_RELEASE);
    TT_CHECK(!(rec.events & EXEC_EV_BAR_WAIT));
    TT_EQ_I(exec_warp_next(w0, &n), EXEC_WS_READY);
    TT_EQ_U(n.pc, k0 + 11);
    /* both run to the end; %clock64 reads the cycle each step is given */
    for (int wi = 0; wi < 2; wi++) {
        exec_warp *w = wi ? w1 : w0;
        uint64_t cyc = 1000 * (uint64_t)(wi + 1);
        for (;;) {
            exec_wstate s = exec_warp_next(w, &n);
            if (s != EXEC_WS_READY) break;
            exec_warp_step(w, cyc, &rec);
            if (n.pc == k0 + 14) TT_EQ_U(rec.addr[1], clk + 8 * (32 * (uint64_t)wi + 1));
            cyc++;
        }
        TT_CHECK(rec.events & EXEC_EV_WARP_DONE);
        TT_EQ_U(!!(rec.events & EXEC_EV_CTA_DONE), wi == 1);
    }
    TT_CHECK(exec_cta_done(c));
    exec_cta_release(c);
    TT_EQ_I(exec_grid_close(g, &r), EXEC_OK);
    /* 17 instructions (16 + ret) per warp */
    TT_EQ_U(r.warp_insns, 2 * 17);
    const uint32_t *o = exec_mem_host(d, out, 64 * 4);
    const uint64_t *ck = exec_mem_host(d, clk, 64 * 8);
    TT_EQ_U(o[39], 39);
    TT_EQ_U(o[40], 0);
    TT_EQ_U(ck[0], 1000 + 0); /* warp 0 read %clock64 at its first step after the barrier */
    TT_EQ_U(ck[33], 2000);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* ---- static facts --------------------------------------------------------------------- */

static const char *si_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .f32 %f<8>; .reg .f64 %fd<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"          /* 0 */
    "  add.f32 %f3, %f1, %f2;\n"             /* 1 */
    "  fma.rn.f64 %fd3, %fd1, %fd2, %fd1;\n" /* 2 */
    "  div.s32 %r3, %r1, %r2;\n"             /* 3 */
    "  sin.approx.f32 %f4, %f3;\n"           /* 4 */
    "  mul.lo.s32 %r4, %r3, %r3;\n"          /* 5 */
    "  add.cc.u32 %r5, %r1, %r2;\n"          /* 6 */
    "  addc.u32 %r6, %r1, %r2;\n"            /* 7 */
    "  setp.lt.s32 %p1, %r5, %r6;\n"         /* 8 */
    "  @%p1 st.global.v4.f32 [%rd1+16], {%f1, %f2, %f3, %f4};\n" /* 9 */
    "  atom.global.add.u32 %r7, [%rd1], %r1;\n" /* 10 */
    "  bar.sync 0;\n"                        /* 11 */
    "  @!%p1 bra DONE;\n"                    /* 12 */
    "  cvt.rn.f32.f64 %f5, %fd3;\n"          /* 13 */
    "DONE:\n"
    "  ret;\n"                               /* 14 */
    "}\n";

static bool has_reg(const exec_sinfo *si, bool dst, uint32_t kind, uint32_t units)
{
    uint32_t a = dst ? 0 : si->ndst, b = dst ? si->ndst : si->ndst + si->nsrc;
    for (uint32_t i = a; i < b; i++)
        if (si->regs[i].kind == kind && si->regs[i].units == units) return true;
    return false;
}

static void t_static_facts(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, si_ptx, "step.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint32_t k0 = kstart(m, "k");
    const exec_sinfo *s;
#define SI(pc) exec_mod_sinfo(m, k0 + (pc))
    s = SI(1);
    TT_EQ_U(s->unit, EXEC_U_FP); TT_EQ_U(s->lclass, EXEC_L_ADD);
    TT_EQ_U(s->ndst, 1); TT_EQ_U(s->nsrc, 2);
    s = SI(2);
    TT_EQ_U(s->unit, EXEC_U_DP); TT_EQ_U(s->lclass, EXEC_L_MAD);
    TT_EQ_U(s->ndst, 1); TT_EQ_U(s->nsrc, 2); /* %fd1 read twice is listed once */
    TT_CHECK(has_reg(s, true, EXEC_R_REG, 2));
    s = SI(3);
    TT_EQ_U(s->unit, EXEC_U_INT); TT_EQ_U(s->lclass, EXEC_L_DIV);
    s = SI(4);
    TT_EQ_U(s->unit, EXEC_U_SFU); TT_EQ_U(s->lclass, EXEC_L_SFU);
    s = SI(5);
    TT_EQ_U(s->unit, EXEC_U_INT); TT_EQ_U(s->lclass, EXEC_L_MUL);
    TT_EQ_U(s->nsrc, 1);
    s = SI(6);
    TT_CHECK(has_reg(s, true, EXEC_R_CC, 0)); TT_EQ_U(s->ndst, 2);
    s = SI(7);
    TT_CHECK(has_reg(s, false, EXEC_R_CC, 0)); TT_EQ_U(s->nsrc, 3);
    s = SI(8);
    TT_EQ_U(s->ndst, 1); TT_CHECK(has_reg(s, true, EXEC_R_PRED, 0));
    s = SI(9);
    TT_EQ_U(s->unit, EXEC_U_MEM); TT_EQ_U(s->lclass, EXEC_L_MEM);
    TT_EQ_U(s->flags & (EXEC_SI_LOAD | EXEC_SI_STORE), EXEC_SI_STORE);
    TT_EQ_U(s->space, PTX_SP_GLOBAL); TT_EQ_U(s->bytes, 16);
    TT_EQ_U(s->ndst, 0); TT_EQ_U(s->nsrc, 6); /* guard, 4 values, the address base */
    TT_CHECK(has_reg(s, false, EXEC_R_PRED, 0));
    s = SI(10);
    TT_CHECK(s->flags & EXEC_SI_ATOMIC); TT_CHECK(s->flags & EXEC_SI_LOAD); TT_EQ_U(s->bytes, 4);
    s = SI(11);
    TT_EQ_U(s->unit, EXEC_U_SYNC); TT_CHECK(s->flags & EXEC_SI_BARRIER);
    s = SI(12);
    TT_EQ_U(s->unit, EXEC_U_CTRL); TT_CHECK(s->flags & EXEC_SI_BRANCH); TT_EQ_U(s->nsrc, 1);
    s = SI(13);
    TT_EQ_U(s->unit, EXEC_U_DP); TT_EQ_U(s->lclass, EXEC_L_CVT64); /* a conversion from f64: its own class */
    /* alone: arithmetic, compares, conversions and bra touch only the warp;
    ** parameter loads, stores, atomics, barriers and ret do not */
    static const uint8_t alone[15] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
    for (uint32_t pc = 0; pc < 15; pc++) TT_EQ_U(SI(pc)->alone, alone[pc]);
#undef SI
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* ---- a stepping driver gives what the functional driver gives ---------------------------- */

/* A block reduction with divergence, barriers and shared memory: out[b] =
** sum over the block of (tid * 3 + b), written by thread 0. */
static const char *red_ptx = HDR
    ".visible .entry red(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b32 s[256];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mad.lo.s32 %r3, %r1, 3, %r2;\n"
    "  mov.u32 %r4, s;\n"
    "  shl.b32 %r5, %r1, 2;\n"
    "  add.s32 %r6, %r4, %r5;\n"
    "  st.shared.u32 [%r6], %r3;\n"
    "  bar.sync 0;\n"
    "  mov.u32 %r7, 128;\n"
    "LOOP:\n"
    "  setp.ge.u32 %p1, %r1, %r7;\n"
    "  @%p1 bra SKIP;\n"
    "  shl.b32 %r8, %r7, 2;\n"
    "  add.s32 %r9, %r6, %r8;\n"
    "  ld.shared.u32 %r10, [%r9];\n"
    "  ld.shared.u32 %r11, [%r6];\n"
    "  add.s32 %r12, %r11, %r10;\n"
    "  st.shared.u32 [%r6], %r12;\n"
    "SKIP:\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r7, %r7, 1;\n"
    "  setp.ne.u32 %p2, %r7, 0;\n"
    "  @%p2 bra LOOP;\n"
    "  setp.ne.u32 %p3, %r1, 0;\n"
    "  @%p3 bra END;\n"
    "  ld.shared.u32 %r13, [s];\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r13;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

/* Runs the grid one instruction at a time, warps in round-robin order over
** at most `resident` CTAs; returns the result.  per_sm: each CTA's slot s
** is an "SM" with a step context of its own (exec_warp_step_in), merged
** after its instructions of a round, in SM order, as a timing model with
** parallel SMs does. */
static exec_status step_driver(exec_mod *m, const exec_launch *l, uint32_t resident, bool per_sm, exec_result *r)
{
    exec_grid *g = exec_grid_open(m, exec_mod_kernel(m, "red"), l, r);
    if (!g) return r->status;
    if (per_sm) exec_grid_contexts(g, resident);
    exec_cta *res[16] = {0};
    uint64_t cycle = 0;
    for (;;) {
        bool any = false, ran = false;
        for (uint32_t s = 0; s < resident; s++) {
            if (!res[s]) res[s] = exec_cta_start(g, s);
            if (!res[s]) continue;
            any = true;
            for (uint32_t i = 0; i < exec_cta_nwarps(res[s]); i++) {
                exec_warp *w = exec_cta_warp(res[s], i);
                exec_next n;
                if (exec_warp_next(w, &n) != EXEC_WS_READY) continue;
                exec_rec rec;
                if (per_sm) exec_warp_step_in(w, s, cycle++, &rec);
                else exec_warp_step(w, cycle++, &rec);
                ran = true;
            }
            if (per_sm) exec_grid_merge(g, s);
            if (exec_cta_done(res[s])) {
                exec_cta_release(res[s]);
                res[s] = NULL;
            }
        }
        if (exec_grid_watchdog(g, any && !ran) != EXEC_OK || !any) break;
    }
    return exec_grid_close(g, r);
}

static void t_step_driver_matches(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, red_ptx, "step.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    enum { NB = 6 };
    uint64_t out = exec_mem_alloc(d, NB * 4, 256);
    exec_launch l = {{NB, 1, 1}, {256, 1, 1}, 0, &out, 8};
    exec_result rf, rs;
    TT_EQ_I(exec_launch_kernel(m, exec_mod_kernel(m, "red"), &l, &rf), EXEC_OK);
    uint32_t *o = exec_mem_host(d, out, NB * 4);
    uint32_t want[NB];
    for (uint32_t b = 0; b < NB; b++) {
        want[b] = 0;
        for (uint32_t t = 0; t < 256; t++) want[b] += t * 3 + b;
        TT_EQ_U(o[b], want[b]);
    }
    for (int per_sm = 0; per_sm < 2; per_sm++) {
        memset(o, 0, NB * 4);
        TT_EQ_I(step_driver(m, &l, 4, per_sm, &rs), EXEC_OK);
        for (uint32_t b = 0; b < NB; b++) TT_EQ_U(o[b], want[b]);
        TT_EQ_U(rs.warp_insns, rf.warp_insns);
        TT_EQ_U(rs.thread_insns, rf.thread_insns);
    }
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* After a fault, an instruction that touches only its warp still runs in an
** SM's context (other SMs may be running such instructions at that moment),
** and one that touches memory does not; in the grid's own context
** (exec_warp_step) nothing runs. */
static void t_step_after_fault(void)
{
    static const char *ptx = HDR
        ".visible .entry k(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [out];\n"  /* 0 */
        "  mov.u32 %r1, %tid.x;\n"       /* 1 */
        "  add.s32 %r2, %r1, 7;\n"       /* 2 */
        "  st.global.u32 [%rd1], %r2;\n" /* 3 */
        "  ret;\n"                        /* 4 */
        "}\n";
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, ptx, "step.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t params[1] = {8}; /* address 8: outside every allocation */
    exec_launch l = {{2, 1, 1}, {32, 1, 1}, 0, params, 8};
    exec_result r;
    exec_grid *g = exec_grid_open(m, exec_mod_kernel(m, "k"), &l, &r);
    TT_CHECK(g != NULL);
    if (!g) return;
    exec_grid_contexts(g, 2);
    exec_cta *c0 = exec_cta_start(g, 0), *c1 = exec_cta_start(g, 1);
    exec_warp *w0 = exec_cta_warp(c0, 0), *w1 = exec_cta_warp(c1, 0);
    uint32_t k0 = kstart(m, "k");
    exec_next n;
    exec_rec rec;
    for (uint32_t pc = 0; pc < 4; pc++) { /* SM 0's warp to the faulting store */
        TT_EQ_I(exec_warp_next(w0, &n), EXEC_WS_READY);
        exec_warp_step_in(w0, 0, pc, &rec);
    }
    TT_CHECK(rec.events & EXEC_EV_FAULT);
    TT_CHECK(exec_grid_status(g) != EXEC_OK);
    exec_warp_step_in(w1, 1, 10, &rec);     /* ld.param: not alone, not run */
    TT_EQ_I(exec_warp_next(w1, &n), EXEC_WS_READY);
    TT_EQ_U(n.pc, k0);
    exec_warp_step(w0, 11, &rec);           /* the grid's context: nothing runs */
    TT_EQ_I(exec_warp_next(w0, &n), EXEC_WS_READY);
    TT_EQ_U(n.pc, k0 + 3);
    exec_grid_close(g, &r);
    TT_CHECK(r.status != EXEC_OK);
    /* a second grid: SM 1's warp past its ld.param before SM 0 faults, then
    ** its mov and add (alone) run after the fault, its store does not */
    g = exec_grid_open(m, exec_mod_kernel(m, "k"), &l, &r);
    TT_CHECK(g != NULL);
    if (!g) return;
    exec_grid_contexts(g, 2);
    c0 = exec_cta_start(g, 0);
    c1 = exec_cta_start(g, 1);
    w0 = exec_cta_warp(c0, 0);
    w1 = exec_cta_warp(c1, 0);
    exec_warp_step_in(w1, 1, 0, &rec);      /* ld.param */
    for (uint32_t pc = 0; pc < 4; pc++) exec_warp_step_in(w0, 0, pc, &rec);
    TT_CHECK(exec_grid_status(g) != EXEC_OK);
    exec_warp_step_in(w1, 1, 5, &rec);      /* mov: runs */
    TT_EQ_U(rec.pc, k0 + 1);
    TT_EQ_U(rec.active, 0xffffffffu);
    exec_warp_step_in(w1, 1, 6, &rec);      /* add: runs */
    TT_EQ_U(rec.pc, k0 + 2);
    TT_CHECK(!(rec.events & EXEC_EV_FAULT));
    exec_warp_step_in(w1, 1, 7, &rec);      /* st: not run */
    TT_EQ_I(exec_warp_next(w1, &n), EXEC_WS_READY);
    TT_EQ_U(n.pc, k0 + 3);
    exec_grid_merge(g, 0);
    exec_grid_merge(g, 1);
    exec_grid_close(g, &r);
    TT_EQ_U(r.warp_insns, 4 + 3); /* SM 0: four (the store that faulted counted); SM 1: three */
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* A barrier only half of the CTA reaches: the stepping driver is stuck, and
** the watchdog says so. */
static const char *dl_ptx = HDR
    ".visible .entry red(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra END;\n"
    "  bar.sync 1, 64;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

static void t_step_deadlock(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, dl_ptx, "step.ptx");
    if (!m) return;
    uint64_t out = 0;
    exec_launch l = {{1, 1, 1}, {64, 1, 1}, 0, &out, 8};
    exec_result r;
    TT_EQ_I(step_driver(m, &l, 1, false, &r), EXEC_ERR_DEADLOCK);
    TT_CHECK(strstr(r.msg, "barrier") != NULL);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* ---- occupancy -------------------------------------------------------------------------- */

static const char *occ_ptx = HDR
    ".visible .entry big(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    "  .shared .align 4 .b8 sh[20000];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, sh;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry small(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  st.global.u32 [%rd1], 1;\n"
    "  ret;\n"
    "}\n";

static void t_occupancy(void)
{
    /* GTX 480 defaults: 8 CTAs, 1536 threads, 32768 registers (per warp in
    ** units of 64), 48 KB shared (per CTA in units of 128) per SM. */
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, occ_ptx, "step.ptx");
    if (!m) return;
    exec_occ o;
    /* 20000 bytes round to 20096: two fit in 49152 */
    exec_occupancy(m, exec_mod_kernel(m, "big"), 128, 0, &o);
    TT_EQ_U(o.by_shared, 2);
    TT_EQ_U(o.ctas_per_sm, 2);
    TT_EQ_I(o.limit, EXEC_OCC_SHARED);
    TT_EQ_U(o.by_warps, 12); /* 1536 / 128 */
    /* plus 4 KB of dynamic shared: 24096 + alignment -> 1 */
    exec_occupancy(m, exec_mod_kernel(m, "big"), 128, 4096, &o);
    TT_EQ_U(o.ctas_per_sm, 2 * 24192 <= 49152 ? 2 : 1);
    exec_occupancy(m, exec_mod_kernel(m, "small"), 256, 0, &o);
    TT_EQ_U(o.by_ctas, 8);
    TT_EQ_U(o.by_warps, 6); /* 1536 / 256 */
    TT_EQ_U(o.ctas_per_sm, 6);
    TT_EQ_I(o.limit, EXEC_OCC_WARPS);
    uint32_t rw = (o.regs_per_thread * 32 + 63) / 64 * 64; /* per warp, rounded to the unit */
    TT_EQ_U(o.regs_per_cta, rw * 8);
    TT_EQ_U(o.by_regs, 32768 / (rw * 8));
    /* 1025 threads cannot run */
    exec_occupancy(m, exec_mod_kernel(m, "small"), 1025, 0, &o);
    TT_EQ_U(o.ctas_per_sm, 0);
    TT_EQ_I(o.limit, EXEC_OCC_NONE);
    exec_launch l = {{1, 1, 1}, {256, 1, 1}, 0, NULL, 0};
    TT_EQ_U(exec_max_resident_ctas(m, exec_mod_kernel(m, "small"), &l), 6 * 15);
    TT_EQ_STR(exec_occ_limit_name(EXEC_OCC_REGS), "registers");
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* ---- address arithmetic and exec.oob ------------------------------------------------------ */

static const char *wrap_ptx = HDR
    ".visible .entry w(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b32 s[16];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, s;\n"
    "  st.shared.u32 [%r1+4], 77;\n"
    "  add.s32 %r4, %r1, -64;\n"        /* s - 64: wraps below zero */
    "  ld.shared.u32 %r2, [%r4+68];\n"  /* (s - 64) + 68 = s + 4 in 32 bits */
    "  st.global.u32 [%rd1], %r2;\n"
    "  ret;\n"
    "}\n";

static void t_wrap32(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, wrap_ptx, "step.ptx");
    if (!m) return;
    uint64_t out = exec_mem_alloc(d, 4, 256);
    exec_launch l = {{1, 1, 1}, {1, 1, 1}, 0, &out, 8};
    exec_result r;
    TT_EQ_I(exec_launch_kernel(m, 0, &l, &r), EXEC_OK);
    TT_EQ_U(*(uint32_t *)exec_mem_host(d, out, 4), 77);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

static const char *oob_ptx = HDR
    ".visible .entry o(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.u32 %r1, [%rd1+-4];\n"   /* the word before the allocation */
    "  st.global.u32 [%rd1+64], 5;\n"     /* past its end: dropped */
    "  add.s32 %r2, %r1, 9;\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  ret;\n"
    "}\n";

static void t_oob_warn(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, oob_ptx, "step.ptx");
    if (!m) return;
    uint64_t out = exec_mem_alloc(d, 4, 256);
    exec_launch l = {{1, 1, 1}, {1, 1, 1}, 0, &out, 8};
    exec_result r;
    TT_EQ_I(exec_launch_kernel(m, 0, &l, &r), EXEC_ERR_ILLEGAL_ADDRESS); /* the default: fault */
    exec_mod_unload(m);
    exec_dev_destroy(d);
    d = exec_rig_dev("exec.oob=warn");
    m = exec_rig_load(d, oob_ptx, "step.ptx");
    out = exec_mem_alloc(d, 4, 256);
    l.params = &out;
    fflush(stdout);
    TT_EQ_I(exec_launch_kernel(m, 0, &l, &r), EXEC_OK);
    TT_EQ_U(*(uint32_t *)exec_mem_host(d, out, 4), 9); /* the load read zero */
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

/* ---- exec_warp_prefetch: a hint that changes nothing ----------------------------------- */

/* Prefetching every pc of the module (and past its end) before each step,
** for the warp that runs and for its neighbour (at the barrier, then
** finished), gives the records and memory of t_records: the stores at
** out[0..39] and nothing at out[40]; a finished warp's prefetch returns. */
static void t_prefetch(void)
{
    exec_dev *d = exec_rig_dev(NULL);
    exec_mod *m = exec_rig_load(d, rec_ptx, "step.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint32_t npc = exec_mod_ptx(m)->ninsns;
    uint64_t out, clk;
    exec_result r;
    exec_grid *g = rec_grid(d, m, &out, &clk, &r);
    if (!g) return;
    exec_cta *c = exec_cta_start(g, 0);
    exec_warp *w[2] = {exec_cta_warp(c, 0), exec_cta_warp(c, 1)};
    exec_next n;
    exec_rec rec;
    uint32_t steps = 0;
    for (int round = 0; round < 2; round++)
        for (int wi = 0; wi < 2; wi++)
            while (exec_warp_next(w[wi], &n) == EXEC_WS_READY) {
                for (uint32_t pc = 0; pc < npc + 4; pc++) exec_warp_prefetch(w[wi], pc), exec_warp_prefetch(w[!wi], pc);
                exec_warp_prefetch(w[wi], UINT32_MAX);
                exec_warp_step(w[wi], 100 + steps++, &rec);
            }
    TT_EQ_U(steps, 2 * 17);
    TT_CHECK(exec_cta_done(c));
    exec_warp_prefetch(w[0], n.pc); /* finished: nothing to do */
    exec_cta_release(c);
    TT_EQ_I(exec_grid_close(g, &r), EXEC_OK);
    const uint32_t *o = exec_mem_host(d, out, 64 * 4);
    TT_EQ_U(o[0], 0);
    TT_EQ_U(o[39], 39);
    TT_EQ_U(o[40], 0);
    exec_mod_unload(m);
    /* a vector operand and an address register (st.global.v4 of si_ptx) */
    m = exec_rig_load(d, si_ptx, "si.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    uint64_t buf = exec_mem_alloc(d, 64, 256);
    exec_launch l2 = {{1, 1, 1}, {32, 1, 1}, 0, &buf, 8};
    g = exec_grid_open(m, exec_mod_kernel(m, "k"), &l2, &r);
    TT_CHECK(g != NULL);
    if (!g) return;
    c = exec_cta_start(g, 0);
    exec_warp *v = exec_cta_warp(c, 0);
    uint32_t k0 = kstart(m, "k");
    steps = 0;
    while (exec_warp_next(v, &n) == EXEC_WS_READY) {
        exec_warp_prefetch(v, n.pc);
        exec_warp_prefetch(v, k0 + 9);
        exec_warp_step(v, steps++, &rec);
    }
    TT_CHECK(steps >= 14);
    exec_cta_release(c);
    TT_EQ_I(exec_grid_close(g, &r), EXEC_OK);
    exec_mod_unload(m);
    exec_dev_destroy(d);
}

int main(void)
{
    TT_RUN(t_records);
    TT_RUN(t_static_facts);
    TT_RUN(t_step_driver_matches);
    TT_RUN(t_step_after_fault);
    TT_RUN(t_step_deadlock);
    TT_RUN(t_occupancy);
    TT_RUN(t_wrap32);
    TT_RUN(t_oob_warn);
    TT_RUN(t_prefetch);
    return tt_done();
}
