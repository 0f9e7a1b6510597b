/* test_regmutex.c -- RegMutex (regmutex/): the hardware object (SRP bitmask,
** look-up table, warp status bitmask), the pass on hand-written kernels
** (regions, barriers, compaction, when it gives up), the functional model
** running compacted code over base registers plus sections (results kept;
** a missing acquire, a value left in the extended set across a release and
** a section shared by two warps caught), and exact-cycle scenarios of
** acquire, release and the stall on an empty pool in the SM model.
**
** The exact-cycle scenarios install the region by hand (a code pass that
** marks the pcs between two clock reads), so the cycles depend only on the
** hardware's rules (gpu/sm.c): an acquire point with no free section keeps
** its warp from issuing; a release point frees the section when its
** instruction issues; the waiting warp may issue from the next cycle. */
#include "tests/unit/tt.h"
#include "tests/unit/gpu_rig.h"
#include "regmutex/regmutex.h"
#include "regmutex/policy.h"
#include <stdlib.h>

static tp_err err;

/* A regmutex.* statistic of a launch (regmutex/policy.h: each policy's by name). */
#define RM(ks, name) rs_kstat_u(&(ks).regs, "regmutex." name)

#define HDR80 ".version 8.0\n.target sm_75\n.address_size 64\n"

/* ---- the hardware object ------------------------------------------------------ */

static void t_srp(void)
{
    rm_srp s;
    rm_srp_init(&s, 48, 3);
    TT_EQ_U(rm_state_bits(48), 384); /* the paper's 384 bits: 48 + 48 x 6 + 48 */
    TT_EQ_U(rm_state_bits(64), 64 + 64 * 6 + 64);
    TT_EQ_I(rm_srp_acquire(&s, 5), 0);  /* find-first-zero: section 0 */
    TT_EQ_I(rm_srp_acquire(&s, 9), 1);
    TT_EQ_I(rm_srp_acquire(&s, 5), 0);  /* a warp that holds one keeps it */
    TT_CHECK(rm_srp_holds(&s, 5) && rm_srp_holds(&s, 9) && !rm_srp_holds(&s, 7));
    TT_EQ_I(rm_srp_acquire(&s, 7), 2);
    TT_CHECK(rm_srp_full(&s));
    TT_EQ_I(rm_srp_acquire(&s, 8), -1); /* none free: nothing changes */
    TT_CHECK(!rm_srp_holds(&s, 8));
    rm_srp_release(&s, 9);              /* frees section 1 ... */
    TT_CHECK(!rm_srp_holds(&s, 9) && !rm_srp_full(&s));
    TT_EQ_I(rm_srp_acquire(&s, 8), 1);  /* ... which is the first free one again */
    TT_EQ_U(s.lut[8], 1);
    rm_srp_release(&s, 30);             /* holds none: nothing */
    TT_EQ_U(s.used, 3);
    TT_EQ_U(s.acquires, 4);
    TT_EQ_U(s.releases, 1);
    rm_srp_init(&s, 4, 10);             /* at most one section per warp */
    TT_EQ_U(s.nsections, 4);
}

/* ---- kernels ------------------------------------------------------------------------ */

/* hot: a loop whose body makes two groups of 20 values of f1 = the
** thread's index, each summed by a tree (every value live until its pair is
** ready): out[i] = iters x 2 x sum_k ((k + 1) i + k) = iters x (420 i + 380).
** Exact in FP32 for the sizes used.  bar 1: a CTA barrier between the two
** groups, with only the first group's sum live across it; bar 2: a barrier
** in the middle of the first group, ten of its values live across it. */
static void tree(tp_sbuf *b, int first, int tmp, int dst)
{
    /* sums f[first .. first + 20) into f[dst], with f[tmp ..] as temporaries */
    for (int j = 0; j < 10; j++) tp_sbuf_printf(b, " add.f32 %%f%d, %%f%d, %%f%d;\n", tmp + j, first + 2 * j, first + 2 * j + 1);
    for (int j = 0; j < 5; j++) tp_sbuf_printf(b, " add.f32 %%f%d, %%f%d, %%f%d;\n", tmp + 10 + j, tmp + 2 * j, tmp + 2 * j + 1);
    tp_sbuf_printf(b, " add.f32 %%f%d, %%f%d, %%f%d;\n add.f32 %%f%d, %%f%d, %%f%d;\n", tmp + 15, tmp + 10, tmp + 11, tmp + 16,
                   tmp + 12, tmp + 13);
    tp_sbuf_printf(b, " add.f32 %%f%d, %%f%d, %%f%d;\n add.f32 %%f%d, %%f%d, %%f%d;\n", tmp + 17, tmp + 15, tmp + 16, dst,
                   tmp + 17, tmp + 14);
}

static void values(tp_sbuf *b, int first, int bar_at)
{
    for (int k = 0; k < 20; k++) {
        float c = (float)(k + 1), d = (float)k;
        uint32_t cu, du;
        memcpy(&cu, &c, 4);
        memcpy(&du, &d, 4);
        tp_sbuf_printf(b, " fma.rn.f32 %%f%d, %%f1, 0f%08X, 0f%08X;\n", first + k, cu, du);
        if (k == bar_at) tp_sbuf_printf(b, " bar.sync 0;\n");
    }
}

/* hot_ptx(bar) with, when gather is set, a gather in the loop: each thread
** loads an index (out[tid], coalesced) and then out[index] (a data-dependent
** address, 32 lines per warp load to the pass's model) and adds it in. */
static char *hot_ptx_g(int bar, bool gather);
static char *hot_ptx(int bar) { return hot_ptx_g(bar, false); }
static char *hot_ptx_g(int bar, bool gather)
{
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_sbuf_printf(&b, HDR80 ".visible .entry hot(.param .u64 out, .param .u32 iters)\n.maxntid 256, 1, 1\n{\n"
                       " .reg .pred %%p<3>;\n .reg .b32 %%r<8>;\n .reg .f32 %%f<120>;\n .reg .b64 %%rd<8>;\n"
                       " ld.param.u64 %%rd1, [out];\n cvta.to.global.u64 %%rd2, %%rd1;\n ld.param.u32 %%r5, [iters];\n"
                       " mov.u32 %%r1, %%tid.x;\n mov.u32 %%r2, %%ctaid.x;\n mov.u32 %%r3, %%ntid.x;\n"
                       " mad.lo.s32 %%r4, %%r2, %%r3, %%r1;\n cvt.rn.f32.u32 %%f1, %%r4;\n"
                       " mov.f32 %%f2, 0f00000000;\n mov.u32 %%r6, 0;\n");
    if (gather) tp_sbuf_printf(&b, " mul.wide.u32 %%rd5, %%r4, 4;\n add.s64 %%rd6, %%rd2, %%rd5;\n");
    tp_sbuf_printf(&b, "LOOP:\n");
    if (gather)
        tp_sbuf_printf(&b, " ld.global.u32 %%r7, [%%rd6];\n mul.wide.u32 %%rd7, %%r7, 4;\n add.s64 %%rd7, %%rd2, %%rd7;\n"
                           " ld.global.f32 %%f119, [%%rd7];\n add.f32 %%f2, %%f2, %%f119;\n");
    values(&b, 10, bar == 2 ? 9 : -1);
    tree(&b, 10, 30, 50);
    if (bar == 1) tp_sbuf_printf(&b, " bar.sync 0;\n");
    values(&b, 60, -1);
    tree(&b, 60, 80, 51);
    tp_sbuf_printf(&b, " add.f32 %%f52, %%f50, %%f51;\n add.f32 %%f2, %%f2, %%f52;\n add.s32 %%r6, %%r6, 1;\n"
                       " setp.lt.u32 %%p1, %%r6, %%r5;\n @%%p1 bra LOOP;\n mul.wide.u32 %%rd3, %%r4, 4;\n"
                       " add.s64 %%rd4, %%rd2, %%rd3;\n st.global.f32 [%%rd4], %%f2;\n ret;\n}\n");
    return tp_sbuf_take(&b);
}

/* calls: a kernel that calls a function (the pass gives up on it). */
static const char *calls_ptx =
    HDR80 ".func (.param .b32 r) sq(.param .b32 a)\n{\n .reg .b32 %r<3>;\n ld.param.u32 %r1, [a];\n"
    " mul.lo.s32 %r2, %r1, %r1;\n st.param.b32 [r], %r2;\n ret;\n}\n"
    ".visible .entry callk(.param .u64 out)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
    " { .param .b32 a0; .param .b32 r0;\n st.param.b32 [a0], %r1;\n call.uni (r0), sq, (a0);\n"
    " ld.param.b32 %r2, [r0]; }\n st.global.u32 [%rd1], %r2;\n ret;\n}\n";

static rm_cfg gtx480_cfg(void)
{
    rm_cfg c = {32768, 48, 8, 64, 256, true, 292, 32, 2}; /* the model's defaults (regmutex/options.def) */
    return c;
}

static ptx_module *lowered(const char *text, ptx_module **src)
{
    tp_err_clear(&err);
    *src = ptx_parse(text, strlen(text), "t.ptx", &err);
    if (!*src) {
        printf("    parse: %s\n", err.msg);
        return NULL;
    }
    ptx_lower_opts o;
    memset(&o, 0, sizeof o);
    o.max_regs = 63;
    o.regs_per_sm = 32768;
    o.alloc_unit = 64;
    ptx_module *l = ptx_lower(*src, &o, &err);
    if (!l) printf("    lower: %s\n", err.msg);
    return l;
}

/* Structural facts of a kernel the pass applied to: every pc needing more
** than |Bs| is HELD; acquire points are where HELD begins, release points
** where it ends; no barrier is HELD; rows live or defined outside HELD sit
** below |Bs|; HELD pcs touch registers below |Bs| + |Es| only. */
static void check_regions(ptx_module *l, ptx_func *g, const rm_kernel *k)
{
    const ptx_rshare *rs = g->rs;
    TT_CHECK(rs != NULL);
    if (!rs) return;
    TT_EQ_U(rs->base, k->base);
    TT_EQ_U(rs->ext, k->ext);
    TT_EQ_U(rs->base_regs, k->base + k->reserve);
    ptx_live lv;
    TT_CHECK(ptx_liveness(l, g, PTX_LIVE_ALLOC, &lv, &err));
    uint32_t n = g->end - g->start, bad_need = 0, bad_row = 0, bad_bar = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *in = &l->insns[g->start + i];
        bool held = rs->at[i] & PTX_RS_HELD;
        if (k->live[i] > rs->base && !held) bad_need++;
        if (held && (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER)) bad_bar++;
        if (rs->at[i] & PTX_RS_ACQUIRE) TT_CHECK(held);
        if (rs->at[i] & PTX_RS_RELEASE) TT_CHECK(!held);
        if (held) continue;
        for (uint32_t r = 0; r < g->nrows; r++)
            if (ptx_live_has(&lv, g, g->start + i, r) && g->ra_map[r] >= 0 &&
                (uint32_t)g->ra_map[r] + ptx_row_units(g, r) > rs->base)
                bad_row++;
    }
    TT_EQ_U(bad_need, 0);
    TT_EQ_U(bad_row, 0);
    TT_EQ_U(bad_bar, 0);
    TT_CHECK(g->ra_own <= rs->base + rs->ext);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_live_free(&lv);
}

static void t_pass_regions(void)
{
    ptx_module *src, *l;
    char *text = hot_ptx(0);
    l = lowered(text, &src);
    free(text);
    if (!l) return;
    rm_cfg c = gtx480_cfg();
    rm_report rep;
    TT_CHECK(rm_pass(l, &c, &rep, &err));
    TT_EQ_U(rep.n, 1);
    const rm_kernel *k = &rep.k[0];
    ptx_func *g = &l->funcs[ptx_find_func(l, "hot")];
    /* the loop body holds the twenty values: the registers limit 256-thread
    ** CTAs (48 warps would allow 6), so the pass applies */
    TT_CHECK(k->on);
    TT_EQ_U(k->block_threads, 256); /* from .maxntid */
    TT_CHECK(k->max_live >= 20);
    TT_CHECK(k->base < k->max_live && k->ext >= 1);
    TT_CHECK(k->ctas_after > k->ctas_before && k->ctas_after <= 6);
    TT_CHECK(k->sections >= 1);
    /* the seed's budget: base sets and the pool fit the register file */
    uint32_t per_warp = (k->base_regs * 32 + 63) / 64 * 64;
    TT_CHECK((uint64_t)k->ctas_after * 8 * per_warp + (uint64_t)k->sections * k->ext * 32 <= 32768);
    TT_CHECK(k->nacquire >= 1 && k->nrelease >= 1);
    check_regions(l, g, k);
    /* the code before the loop and the store after it are outside the regions */
    TT_CHECK(!(g->rs->at[0] & PTX_RS_HELD));
    uint32_t st = 0;
    for (uint32_t pc = g->start; pc < g->end; pc++)
        if (l->insns[pc].op == PTX_OP_ST) st = pc - g->start;
    TT_CHECK(!(g->rs->at[st] & PTX_RS_HELD));
    rm_report_free(&rep);
    ptx_module_free(l);
    ptx_module_free(src);
}

static void t_pass_barriers(void)
{
    for (int bar = 1; bar <= 2; bar++) {
        ptx_module *src, *l;
        char *text = hot_ptx(bar);
        l = lowered(text, &src);
        free(text);
        if (!l) continue;
        rm_cfg c = gtx480_cfg();
        rm_report rep;
        TT_CHECK(rm_pass(l, &c, &rep, &err));
        const rm_kernel *k = &rep.k[0];
        ptx_func *g = &l->funcs[ptx_find_func(l, "hot")];
        uint32_t barpc = 0;
        for (uint32_t pc = g->start; pc < g->end; pc++)
            if (l->insns[pc].op == PTX_OP_BAR) barpc = pc - g->start;
        TT_CHECK(barpc > 0);
        if (bar == 1) {
            /* one value crosses the barrier: the body splits into two regions,
            ** released before the barrier and acquired again after it */
            TT_CHECK(k->on);
            if (!k->on) continue;
            check_regions(l, g, k);
            TT_CHECK(k->base >= k->live[barpc]);
            TT_CHECK(k->nacquire >= 2);
            bool rel = false;
            for (uint32_t i = barpc; i-- > 0 && !(g->rs->at[i] & PTX_RS_ACQUIRE);)
                if (g->rs->at[i] & PTX_RS_RELEASE) rel = true;
            TT_CHECK(rel || (g->rs->at[barpc] & PTX_RS_RELEASE));
        } else {
            /* ten values live across the barrier: |Bs| covers them, or the
            ** pass gives up -- the pool is never held at a barrier */
            if (k->on) {
                check_regions(l, g, k);
                TT_CHECK(k->base >= k->live[barpc]);
            } else {
                TT_CHECK(g->rs == NULL);
            }
        }
        rm_report_free(&rep);
        ptx_module_free(l);
        ptx_module_free(src);
    }
}

static void t_pass_gives_up(void)
{
    ptx_module *src, *l;
    /* a kernel that calls a function */
    l = lowered(calls_ptx, &src);
    if (l) {
        rm_cfg c = gtx480_cfg();
        rm_report rep;
        TT_CHECK(rm_pass(l, &c, &rep, &err));
        TT_EQ_U(rep.n, 1);
        TT_CHECK(!rep.k[0].on && strstr(rep.k[0].why, "calls") != NULL);
        TT_CHECK(l->funcs[ptx_find_func(l, "callk")].rs == NULL);
        rm_report_free(&rep);
        ptx_module_free(l);
        ptx_module_free(src);
    }
    /* a register file large enough for every warp: nothing to gain */
    char *text = hot_ptx(0);
    l = lowered(text, &src);
    free(text);
    if (l) {
        rm_cfg c = gtx480_cfg();
        c.regs_per_sm = 1 << 20;
        rm_report rep;
        TT_CHECK(rm_pass(l, &c, &rep, &err));
        TT_CHECK(!rep.k[0].on && strstr(rep.k[0].why, "do not limit") != NULL);
        TT_CHECK(l->funcs[0].rs == NULL);
        rm_report_free(&rep);
        ptx_module_free(l);
        ptx_module_free(src);
    }
}

/* The cost model (pass.c "the cost model"): hot's loop is arithmetic, no
** memory -- the model caps nothing and the pass applies; with a gather in
** the loop (32 lines per warp load, a warp waiting for it most of its time)
** 32 MSHRs keep about one warp's misses in flight, far below the 40 warps
** resident without RegMutex, so the model predicts a loss and the pass
** declines, saying why.  The same kernel without the model, or with MSHRs
** enough for every warp's lines, gets RegMutex: the model alone declined. */
static void t_pass_model(void)
{
    for (int gather = 0; gather <= 1; gather++)
        for (int variant = 0; variant < 3; variant++) {
            if (!gather && variant) continue;
            ptx_module *src, *l;
            char *text = hot_ptx_g(0, gather);
            l = lowered(text, &src);
            free(text);
            if (!l) continue;
            rm_cfg c = gtx480_cfg();
            if (variant == 1) c.model = false;
            if (variant == 2) c.mshrs = 4096;
            rm_report rep;
            TT_CHECK(rm_pass(l, &c, &rep, &err));
            const rm_kernel *k = &rep.k[0];
            TT_CHECK(k->modelled == c.model);
            if (!gather) {
                /* no global load in the loop: only the entry's and the final store's lines */
                TT_CHECK(k->on);
                TT_CHECK(k->w_mem > 48);
            } else if (variant == 0) {
                TT_CHECK(!k->on);
                TT_CHECK(strstr(k->why, "the model predicts a loss: memory-bound") != NULL);
                TT_CHECK(l->funcs[ptx_find_func(l, "hot")].rs == NULL);
                /* the loads: out[tid] 1 line, out[index] 32, every iteration */
                TT_CHECK(k->lines == 16.5);
                TT_CHECK(k->mem_wait > 0.5);
                TT_CHECK(k->w_mem < 4);
                /* 3 CTAs of 256 threads fit its registers; 1 line + 32 lines per iteration: 16.5 on average */
                TT_EQ_U(k->ctas_before, 3);
                TT_CHECK(k->ctas_after == k->ctas_before);
            } else {
                TT_CHECK(k->on);
                TT_CHECK(k->ctas_after > k->ctas_before);
                check_regions(l, &l->funcs[ptx_find_func(l, "hot")], k);
            }
            rm_report_free(&rep);
            ptx_module_free(l);
            ptx_module_free(src);
        }
}

/* ---- running it ----------------------------------------------------------------------- */

/* Runs hot on `ctas` CTAs of 256 threads, 4 iterations; checks every
** result; returns the launch's status (ks: performance mode when given). */
static exec_status run_hot(gpu_rig *r, uint32_t ctas, gpu_kstats *ks, char *msg)
{
    uint32_t n = ctas * 256;
    uint64_t out = exec_mem_alloc(r->dev, n * 4, 256);
    struct { uint64_t out; uint32_t iters; } p = {out, 4};
    exec_result res;
    if (ks) gpu_rig_launch(r, "hot", ctas, 256, &p, 12, ks, &res);
    else exec_rig_launch(r->m, "hot", ctas, 256, &p, 12, &res);
    if (msg) snprintf(msg, 1024, "%s", res.msg);
    if (res.status != EXEC_OK) return res.status;
    const float *o = exec_mem_host(r->dev, out, n * 4);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        if (o[i] != 4.0f * (420.0f * (float)i + 380.0f)) bad++;
    TT_EQ_U(bad, 0);
    return res.status;
}

/* Owner-Warp-First, the baseline: the pass shares the top 80% of hot's
** registers; extra CTAs run; results unchanged in both modes. */
static void t_owf(void)
{
    char *text = hot_ptx(0);
    gpu_rig r;
    if (gpu_rig_open_pass(&r, text, "owf=1 owf.share=0.8", "t.ptx", rs_compile)) {
        const ptx_rshare *rs = exec_mod_ptx(r.m)->funcs[0].rs;
        TT_CHECK(rs != NULL && rs->policy == rs_policy_find("owf"));
        if (rs) {
            TT_EQ_U(rs->base + rs->ext, exec_mod_ptx(r.m)->funcs[0].ra_own);
            TT_EQ_U(rs->ext, 20); /* 0.8 x 25, the code's registers */
        }
        TT_EQ_I(run_hot(&r, 12, NULL, NULL), EXEC_OK);
        gpu_kstats ks;
        TT_EQ_I(run_hot(&r, 30, &ks, NULL), EXEC_OK);
        /* GTX 480 defaults: |Rt| 30 registers allow 4 CTAs of 256 threads
        ** (7680 registers each, of 32768).  Every CTA owns 5 + the reserve
        ** of 5 = 10 (320 per warp, 2560 per CTA); an owner also a part of
        ** 20 x 32 x 8 = 5120 (7680 in all).  4 owners leave 2048: no extra;
        ** 3 owners leave 9728, room for 3 extras: 6 CTAs, the warp limit
        ** (48 / 8); 2 owners allow 2 extras: 4.  So 6, with 3 x 8 sections */
        TT_EQ_U(ks.ctas_per_sm, 6);
        TT_EQ_U(RM(ks, "sections"), 3 * 8);
        TT_EQ_U(RM(ks, "acquires"), RM(ks, "releases"));
        TT_CHECK(RM(ks, "acquires") >= 30 * 8);
        gpu_kstats_free(&ks);
    }
    gpu_rig_close(&r);
    free(text);
}

static void t_runs_unchanged(void)
{
    for (int bar = 0; bar <= 2; bar++) {
        char *text = hot_ptx(bar);
        /* functional mode: private sections */
        gpu_rig r;
        if (gpu_rig_open_pass(&r, text, "regmutex=1", "t.ptx", rs_compile)) {
            TT_CHECK(exec_mod_ptx(r.m)->funcs[0].rs != NULL || bar == 2);
            TT_EQ_I(run_hot(&r, 12, NULL, NULL), EXEC_OK);
        }
        gpu_rig_close(&r);
        /* performance mode: the SMs' pools, down to one section per SM */
        const char *perf[] = {"regmutex=1", "regmutex=1 device.num_sms=1"};
        for (int q = 0; q < 2; q++) {
            if (!gpu_rig_open_pass(&r, text, perf[q], "t.ptx", rs_compile)) {
                gpu_rig_close(&r);
                continue;
            }
            gpu_kstats ks;
            TT_EQ_I(run_hot(&r, 12, &ks, NULL), EXEC_OK);
            const exec_occ *unused = NULL;
            (void)unused;
            if (exec_mod_ptx(r.m)->funcs[0].rs) {
                TT_CHECK(RM(ks, "sections") >= 1);
                TT_CHECK(RM(ks, "acquires") >= 12 * 8); /* every warp acquires at least once */
                TT_EQ_U(RM(ks, "acquires"), RM(ks, "releases"));
                TT_EQ_U(ks.regs_per_thread, exec_mod_ptx(r.m)->funcs[0].rs->base_regs);
            }
            gpu_kstats_free(&ks);
            gpu_rig_close(&r);
        }
        free(text);
    }
}

/* ---- a barrier inside the high-pressure region ---------------------------------------- */

/* The pass as planned for the GTX 480, whatever the test's register file,
** with the pool's reserve cut to one section (so the tests below can size
** the register file to exactly one section).  hold_across: then damaged the
** way a pass that ignored barriers would be -- one region from the first
** acquire to the last release, the pool held across every barrier. */
static int hold_across;

static bool one_section_pass(ptx_module *low, const tp_opts *o, void *arg, tp_err *e)
{
    (void)o;
    (void)arg;
    rm_cfg c = gtx480_cfg();
    if (!rm_pass(low, &c, NULL, e)) return false;
    ptx_func *g = &low->funcs[0];
    if (!g->rs) return true;
    g->rs->pool_min = g->rs->ext * 32;
    if (hold_across) {
        uint32_t n = g->end - g->start, a = UINT32_MAX, z = 0;
        for (uint32_t i = 0; i < n; i++) {
            if ((g->rs->at[i] & PTX_RS_ACQUIRE) && a == UINT32_MAX) a = i;
            if (g->rs->at[i] & PTX_RS_RELEASE) z = i;
        }
        if (a == UINT32_MAX || z <= a) return true;
        for (uint32_t i = a; i < z; i++) g->rs->at[i] = PTX_RS_HELD;
        g->rs->at[a] |= PTX_RS_ACQUIRE;
        g->rs->at[z] = PTX_RS_RELEASE;
    }
    return true;
}

/* Opens hot (barrier variant bar) on one SM whose register file holds one
** CTA's base sets and exactly one section, so that the CTA's eight warps
** contend for a single section around the barrier.  (Without its
** .maxntid, so that the small register file does not cap the lowering's
** registers per thread; the pass plans for 256 threads anyway.)  False when
** the pass did not apply. */
static bool one_section_rig(gpu_rig *r, int bar) /* r closed when false */
{
    char *text = hot_ptx(bar), *mx = strstr(text, ".maxntid 256, 1, 1");
    if (mx) memset(mx, ' ', strlen(".maxntid 256, 1, 1"));
    char opts[256] = "regmutex=1";
    for (int tries = 0; tries < 2; tries++) {
        if (!gpu_rig_open_pass(r, text, opts, "t.ptx", one_section_pass)) break;
        const ptx_rshare *rs = exec_mod_ptx(r->m)->funcs[0].rs;
        if (!rs) break;
        exec_occ occ;
        exec_occupancy(r->m, exec_mod_kernel(r->m, "hot"), 256, 0, &occ);
        if (tries > 0 && occ.ctas_per_sm == 1 && occ.sections == 1) {
            free(text);
            return true;
        }
        snprintf(opts, sizeof opts, "regmutex=1 device.num_sms=1 device.max_ctas_per_sm=1 device.regs_per_sm=%u",
                 occ.regs_per_cta + rs->ext * 32);
        gpu_rig_close(r);
    }
    gpu_rig_close(r);
    memset(r, 0, sizeof *r);
    free(text);
    return false;
}

static void t_barrier_in_region(void)
{
    /* bar 1: a barrier between the loop body's two high-pressure halves; bar
    ** 2: one in the middle of the first half, ten of its values live across
    ** it.  The pass releases before each barrier (or covers what crosses it
    ** with |Bs|), so one section shared by eight warps that all must reach
    ** the barrier still lets the CTA through: every result right */
    uint32_t applied = 0;
    for (int bar = 1; bar <= 2; bar++) {
        hold_across = 0;
        gpu_rig r;
        if (!one_section_rig(&r, bar)) continue;
        applied++;
        gpu_kstats ks;
        char msg[1024] = "";
        TT_EQ_I(run_hot(&r, 2, &ks, msg), EXEC_OK);
        if (msg[0]) printf("    bar %d: %s\n", bar, msg);
        TT_EQ_U(RM(ks, "sections"), 1);
        TT_EQ_U(ks.ctas_per_sm, 1);
        TT_CHECK(RM(ks, "acquires") >= 2 * 8 * 4 * 2); /* two regions an iteration, every warp */
        TT_EQ_U(RM(ks, "acquires"), RM(ks, "releases"));
        TT_CHECK(RM(ks, "stall_cycles") > 0);          /* the warps did contend */
        gpu_kstats_free(&ks);
        gpu_rig_close(&r);
    }
    TT_CHECK(applied >= 1);
    /* the control: the same kernel with the pool held across the barrier
    ** deadlocks -- the first warp waits at the barrier holding the only
    ** section, the others wait for the section before it */
    hold_across = 1;
    gpu_rig r;
    if (one_section_rig(&r, 1)) {
        gpu_kstats ks;
        char msg[1024] = "";
        TT_EQ_I(run_hot(&r, 1, &ks, msg), EXEC_ERR_DEADLOCK);
        TT_CHECK(strstr(msg, "no warp can make progress") != NULL);
        gpu_kstats_free(&ks);
        gpu_rig_close(&r);
    } else {
        TT_CHECK(!"the pass applies to hot with a barrier between its halves");
    }
    hold_across = 0;
}

/* A pass that runs the real one, then damages what it did. */
static int damage;

static bool damaging_pass(ptx_module *low, const tp_opts *o, void *arg, tp_err *e)
{
    if (!rs_compile(low, o, arg, e)) return false;
    ptx_func *g = &low->funcs[0];
    if (!g->rs) return true;
    uint32_t n = g->end - g->start;
    if (damage == 1) /* no acquire anywhere */
        for (uint32_t i = 0; i < n; i++) g->rs->at[i] &= (uint8_t)~PTX_RS_ACQUIRE;
    if (damage == 2) {
        /* a value live across the loop (the running sum f2) moved into the
        ** extended set: it does not survive the release at the loop's end */
        for (uint32_t r = 0; r < g->nrows; r++)
            if (!strcmp(g->regs[r].name, "%f2")) g->ra_map[r] = (int32_t)(g->rs->base + g->rs->ext - 1);
    }
    return true;
}

static void t_damage_caught(void)
{
    char *text = hot_ptx(0);
    for (damage = 1; damage <= 2; damage++) {
        gpu_rig r;
        if (!gpu_rig_open_pass(&r, text, "regmutex=1", "t.ptx", damaging_pass)) {
            gpu_rig_close(&r);
            continue;
        }
        char msg[1024];
        exec_status st = run_hot(&r, 2, NULL, msg);
        if (damage == 1) {
            TT_CHECK(st != EXEC_OK && strstr(msg, "without a section") != NULL);
        } else {
            TT_CHECK(st != EXEC_OK); /* read outside the region: no section */
        }
        gpu_rig_close(&r);
    }
    damage = 0;
    free(text);
}

/* Two warps stepped by hand through the stepping interface: given two
** sections the results are right; given the same one they corrupt each
** other (each region's values are written before any is read, and the two
** warps alternate instruction by instruction). */
static void t_shared_section_corrupts(void)
{
    char *text = hot_ptx(0);
    for (int same = 0; same <= 1; same++) {
        gpu_rig r;
        if (!gpu_rig_open_pass(&r, text, "regmutex=1", "t.ptx", rs_compile)) {
            gpu_rig_close(&r);
            continue;
        }
        uint64_t out = exec_mem_alloc(r.dev, 64 * 4, 256);
        struct { uint64_t out; uint32_t iters; } p = {out, 4};
        exec_launch l = {{1, 1, 1}, {64, 1, 1}, 0, &p, 12, 0};
        exec_result res;
        exec_grid *gr = exec_grid_open(r.m, exec_mod_kernel(r.m, "hot"), &l, &res);
        TT_CHECK(gr != NULL);
        if (!gr) {
            gpu_rig_close(&r);
            continue;
        }
        TT_CHECK(exec_grid_occ(gr)->sections >= 2);
        exec_grid_section_pool(gr);
        exec_cta *c = exec_cta_start(gr, 0);
        exec_warp *w[2] = {exec_cta_warp(c, 0), exec_cta_warp(c, 1)};
        uint64_t cycle = 0;
        for (bool any = true; any;) {
            any = false;
            for (int i = 0; i < 2; i++) {
                exec_next n;
                if (exec_warp_next(w[i], &n) != EXEC_WS_READY) continue;
                if (n.needs_section) exec_warp_set_section(w[i], same ? 0 : (uint32_t)i);
                exec_warp_step(w[i], cycle++, NULL);
                any = true;
            }
        }
        exec_grid_close(gr, &res);
        TT_EQ_I(res.status, EXEC_OK);
        const float *o = exec_mem_host(r.dev, out, 64 * 4);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < 64; i++)
            if (o[i] != 4.0f * (420.0f * (float)i + 380.0f)) bad++;
        if (same) TT_CHECK(bad > 0);
        else TT_EQ_U(bad, 0);
        gpu_rig_close(&r);
    }
    free(text);
}

/* ---- exact cycles -------------------------------------------------------------------- */

/* Two warps (one CTA of 64 threads, one scheduler): out[w] = the cycle warp
** w runs its first clock read (the acquire point), out[2 + w] its second
** (the release point); between them ten independent adds whose results are
** summed after the second read (so each has a register of its own: a dead
** result's register would be written by the next add, which would wait for
** it -- write after write); out[4 + w] the sum, 10 w + 55. */
static const char *pair_ptx =
    HDR80 ".visible .entry pair(.param .u64 out)\n.maxntid 64, 1, 1\n{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shr.u32 %r12, %r1, 5;\n"
    "  mul.wide.u32 %rd5, %r12, 8;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  add.s32 %r2, %r12, 1;\n  add.s32 %r3, %r12, 2;\n  add.s32 %r4, %r12, 3;\n  add.s32 %r5, %r12, 4;\n"
    "  add.s32 %r6, %r12, 5;\n  add.s32 %r7, %r12, 6;\n  add.s32 %r8, %r12, 7;\n  add.s32 %r9, %r12, 8;\n"
    "  add.s32 %r10, %r12, 9;\n  add.s32 %r11, %r12, 10;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  add.s32 %r20, %r2, %r3;\n  add.s32 %r20, %r20, %r4;\n  add.s32 %r20, %r20, %r5;\n"
    "  add.s32 %r20, %r20, %r6;\n  add.s32 %r20, %r20, %r7;\n  add.s32 %r20, %r20, %r8;\n"
    "  add.s32 %r20, %r20, %r9;\n  add.s32 %r20, %r20, %r10;\n  add.s32 %r20, %r20, %r11;\n"
    "  st.global.u64 [%rd6], %rd2;\n"
    "  st.global.u64 [%rd6+16], %rd3;\n"
    "  st.global.u32 [%rd6+32], %r20;\n"
    "  ret;\n}\n";

static uint32_t want_sections;
enum { PAIR_RF = 2048 }; /* registers of the SM in these scenarios */

/* The region by hand: HELD from the first clock read (acquire before it) to
** the second (release before it); registers compacted so that whatever is
** live outside sits below |Bs| = the most registers live outside (+ 2); |Es|
** sized so that a PAIR_RF-register SM holding the one CTA (2 warps) leaves
** exactly want_sections sections. */
static bool manual_pass(ptx_module *low, const tp_opts *o, void *arg, tp_err *e)
{
    (void)o;
    (void)arg;
    ptx_func *g = &low->funcs[0];
    uint32_t n = g->end - g->start, a = UINT32_MAX, z = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *in = &low->insns[g->start + i];
        if (in->op == PTX_OP_MOV && in->o[1].kind == PTX_OK_SREG && in->o[1].r == PTX_SR_CLOCK64) {
            if (a == UINT32_MAX) a = i;
            else z = i;
        }
    }
    if (z == UINT32_MAX) return true;
    ptx_live lv;
    if (!ptx_liveness(low, g, PTX_LIVE_ALLOC, &lv, e)) return false;
    uint32_t bs = 1;
    for (uint32_t i = 0; i < n; i++)
        if ((i < a || i >= z) && lv.units[i] + 2 > bs) bs = lv.units[i] + 2; /* + a 64-bit definition */
    uint32_t *bound = tp_malloc((g->nrows + 1) * sizeof *bound);
    for (uint32_t r = 0; r < g->nrows; r++) {
        bound[r] = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++)
            if ((i < a || i > z) && ptx_live_has(&lv, g, g->start + i, r)) bound[r] = bs;
    }
    uint32_t own;
    bool ok = ptx_ra_color_bounded(low, g, bound, &own, NULL, e);
    free(bound);
    ptx_live_free(&lv);
    if (!ok) return false;
    ptx_rshare *rs = rs_mark(low, g, rs_policy_find("regmutex"));
    rs->base = bs;
    rs->base_regs = bs + 5;
    uint32_t per_warp = (rs->base_regs * 32 + 63) / 64 * 64, cta = 2 * per_warp;
    rs->ext = (PAIR_RF - cta) / (32 * want_sections);
    if (own > bs && rs->ext < own - bs) rs->ext = own - bs;
    rs->pool_min = 0;
    rs->at = tp_arena_alloc(&low->arena, n + 1);
    memset(rs->at, 0, n + 1);
    for (uint32_t i = a; i < z; i++) rs->at[i] = PTX_RS_HELD;
    rs->at[a] |= PTX_RS_ACQUIRE;
    rs->at[z] = PTX_RS_RELEASE;
    return true;
}

static void pair_run(uint32_t sections, uint64_t *o, gpu_kstats *ks)
{
    want_sections = sections;
    gpu_rig r;
    memset(o, 0, 4 * sizeof *o);
    if (!gpu_rig_open_pass(&r, pair_ptx, "regmutex=1 device.regs_per_sm=2048 device.regs_per_block=2048 device.max_ctas_per_sm=1 "
                  "sm.schedulers=1 sm.scheduler=lrr", "t.ptx", manual_pass)) {
        gpu_rig_close(&r);
        return;
    }
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    exec_result res;
    TT_EQ_I(gpu_rig_launch(&r, "pair", 1, 64, &out, 8, ks, &res), EXEC_OK);
    if (res.status != EXEC_OK) printf("    %s\n", res.msg);
    memcpy(o, exec_mem_host(r.dev, out, 32), 32);
    const uint64_t *sums = exec_mem_host(r.dev, out + 32, 16);
    TT_EQ_U((uint32_t)sums[0], 55);
    TT_EQ_U((uint32_t)sums[1], 65);
    gpu_rig_close(&r);
}

static void t_cycles_acquire_release(void)
{
    uint64_t o[4];
    gpu_kstats ks;
    /* two sections: neither warp waits; LRR alternates them through their
    ** regions, warp 1 one cycle behind warp 0 */
    pair_run(2, o, &ks);
    TT_EQ_U(RM(ks, "sections"), 2);
    TT_EQ_U(o[1], o[0] + 1);
    TT_EQ_U(RM(ks, "acquires"), 2);
    TT_EQ_U(RM(ks, "stall_cycles"), 0);
    TT_EQ_U(ks.issue[GPU_ST_REGS], 0);
    uint64_t both = o[2] - o[0];
    gpu_kstats_free(&ks);
    /* one section: warp 0 acquires it; warp 1 reaches its acquire point the
    ** next cycle and may not issue until warp 0's release issues, then
    ** acquires in the cycle after */
    pair_run(1, o, &ks);
    TT_EQ_U(RM(ks, "sections"), 1);
    TT_EQ_U(o[3] > o[2], 1);
    TT_EQ_U(o[1], o[2] + 1);               /* acquired the cycle after the release */
    TT_EQ_U(o[2] - o[0], 11);              /* warp 0 alone: ten adds, one a cycle */
    TT_CHECK(o[2] - o[0] < both);          /* faster than sharing the scheduler */
    TT_EQ_U(RM(ks, "acquires"), 2);
    TT_EQ_U(RM(ks, "releases"), 2);
    /* warp 1 is refused in every cycle from its arrival to the release */
    TT_EQ_U(RM(ks, "stall_cycles"), o[2] - o[0]);
    gpu_kstats_free(&ks);
}

int main(void)
{
    TT_RUN(t_srp);
    TT_RUN(t_pass_regions);
    TT_RUN(t_pass_barriers);
    TT_RUN(t_pass_gives_up);
    TT_RUN(t_pass_model);
    TT_RUN(t_runs_unchanged);
    TT_RUN(t_barrier_in_region);
    TT_RUN(t_owf);
    TT_RUN(t_damage_caught);
    TT_RUN(t_shared_section_corrupts);
    TT_RUN(t_cycles_acquire_release);
    return tt_done();
}
