/* test_rfv.c -- Register File Virtualization (regmutex/rfv.c), the register-
** sharing policy regs.policy=rfv:
**   - the renaming, step by step through the stepping interface: a warp
**     holds exactly its live registers plus the kernel's reserve (straight
**     code), never fewer than any of its lanes still needs (divergent code:
**     a release the other lanes' path still needs waits);
**   - the free list and the oldest CTA's reserve in the SM model, by exact
**     cycles: a warp that finds too few free registers waits and takes them
**     the cycle after another warp's last use frees them; a younger CTA may
**     hold no more than the registers the oldest CTA cannot still claim;
**     without that throttle two warps deadlock, with it they finish;
**   - occupancy (rfv.ratio) and the statistics (rfv.*).
** The kernels run in program order (regs.schedule=0), so the instruction
** that frees the registers is the one written. */
#include "tests/unit/tt.h"
#include "tests/unit/gpu_rig.h"
#include "regmutex/policy.h"
#include <stdlib.h>


/* burst: per CTA (one warp) ten values of the CTA index, then clock A (a
** 64-bit read: two registers), a pairwise add (the last use of one value:
** it frees a register and takes none), clock B (32 bits: one register),
** four more pairwise adds (independent: one may issue every cycle), the
** sum; out[3 c] = clock A, out[3 c + 1] = clock B, out[3 c + 2] = the sum
** 10 c + 55 (u64 slots). */
static const char *burst_ptx =
    HDR ".visible .entry burst(.param .u64 out)\n.maxntid 32, 1, 1\n{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mul.wide.u32 %rd5, %r1, 24;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  add.s32 %r2, %r1, 1;\n  add.s32 %r3, %r1, 2;\n  add.s32 %r4, %r1, 3;\n  add.s32 %r5, %r1, 4;\n"
    "  add.s32 %r6, %r1, 5;\n  add.s32 %r7, %r1, 6;\n  add.s32 %r8, %r1, 7;\n  add.s32 %r9, %r1, 8;\n"
    "  add.s32 %r10, %r1, 9;\n  add.s32 %r11, %r1, 10;\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  add.s32 %r2, %r2, %r3;\n"
    "  mov.u32 %r30, %clock;\n"
    "  add.s32 %r4, %r4, %r5;\n  add.s32 %r6, %r6, %r7;\n  add.s32 %r8, %r8, %r9;\n  add.s32 %r10, %r10, %r11;\n"
    "  add.s32 %r2, %r2, %r4;\n  add.s32 %r2, %r2, %r6;\n  add.s32 %r2, %r2, %r8;\n  add.s32 %r2, %r2, %r10;\n"
    "  st.global.u64 [%rd6], %rd2;\n"
    "  cvt.u64.u32 %rd3, %r30;\n"
    "  st.global.u64 [%rd6+8], %rd3;\n"
    "  cvt.u64.u32 %rd7, %r2;\n"
    "  st.global.u64 [%rd6+16], %rd7;\n"
    "  ret;\n}\n";

/* split: lanes below 16 and the others take different paths, both reading
** r5 = 3 tid; the fall-through path (the upper lanes, which SIMT runs
** first) stores r5 as it is, its last use there, while the lower lanes
** still wait to read it: out[tid] = tid < 16 ? 3 tid + 2 : 3 tid. */
static const char *split_ptx =
    HDR ".visible .entry split(.param .u64 out)\n.maxntid 32, 1, 1\n{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n"
    "  mul.lo.u32 %r5, %r1, 3;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n"
    "  @%p1 bra LOW;\n"
    "  st.global.u32 [%rd6], %r5;\n"
    "  bra JOIN;\n"
    "LOW:\n"
    "  add.u32 %r7, %r5, 2;\n"
    "  st.global.u32 [%rd6], %r7;\n"
    "JOIN:\n"
    "  ret;\n}\n";

static tp_err err;

/* gpu_rig.h's rig under RFV (regs.schedule=0: the allocated code in program
** order, so that the live sets below are the PTX's). */
typedef gpu_rig rig;

static bool rig_open(rig *r, const char *ptx, const char *opts)
{
    char all[512];
    snprintf(all, sizeof all, "regs.policy=rfv regs.schedule=0%s%s", opts ? " " : "", opts ? opts : "");
    return gpu_rig_open_pass(r, ptx, all, "t.ptx", rs_compile);
}

static void rig_close(rig *r) { gpu_rig_close(r); }

static const ptx_func *kernel0(const rig *r) { return &exec_mod_ptx(r->m)->funcs[0]; }

/* The registers a warp of f holds at pc by RFV's rule: the reserve, and the
** 32-bit registers of the rows live into pc that occupy any (every row
** here is written before it is read). */
static uint32_t live_regs(const ptx_func *f, const ptx_live *lv, uint32_t pc)
{
    uint32_t n = f->ra_regs - f->ra_own;
    for (uint32_t r = 0; r < f->nrows; r++)
        if (f->ra_map[r] >= 0 && ptx_live_has(lv, f, pc, r)) n += ptx_row_units(f, r);
    return n;
}

static uint64_t held(const rs_sm *s)
{
    rs_kstats k;
    memset(&k, 0, sizeof k);
    rs_sm_stats(s, &k);
    return rs_kstat_u(&k, "rfv.allocations") - rs_kstat_u(&k, "rfv.releases");
}

/* One warp stepped through the stepping interface with the policy's SM
** state beside it: what it holds after every instruction. */
static void t_renaming(void)
{
    rig r;
    if (!rig_open(&r, burst_ptx, NULL)) {
        rig_close(&r);
        TT_CHECK(!"burst loads");
        return;
    }
    const ptx_func *f = kernel0(&r);
    TT_CHECK(f->rs != NULL && rs_policy_of_kernel(f) == rs_policy_find("rfv"));
    TT_CHECK(f->ra_regs > f->ra_own); /* a reserve */
    ptx_live lv;
    TT_CHECK(ptx_liveness(exec_mod_ptx(r.m), f, PTX_LIVE_ALLOC, &lv, &err));
    uint64_t out = exec_mem_alloc(r.dev, 3 * 8, 256);
    exec_launch l = {{1, 1, 1}, {32, 1, 1}, 0, &out, 8, 0};
    exec_result res;
    exec_grid *gr = exec_grid_open(r.m, 0, &l, &res);
    TT_CHECK(gr != NULL);
    if (!gr) {
        ptx_live_free(&lv);
        rig_close(&r);
        return;
    }
    rs_sm s = {0};
    rs_sm_begin(&s, &(rs_smcfg){gr, exec_grid_kernel(gr), exec_grid_occ(gr), 48, 8, &r.o});
    TT_CHECK(s.p == rs_policy_find("rfv") && rs_gates(&s));
    exec_cta *c = exec_cta_start(gr, 0);
    rs_cta_start(&s, 0);
    rs_warp v = {0, 0, 0, exec_cta_warp(c, 0)};
    uint32_t bad = 0, steps = 0, peak = 0, maxlive = 0;
    exec_next n;
    while (exec_warp_next(v.ew, &n) == EXEC_WS_READY) {
        TT_CHECK(rs_may_issue(&s, &v, n.pc)); /* alone: never short */
        TT_CHECK(rs_issue(&s, &v, &n));
        exec_rec rec;
        exec_warp_step(v.ew, steps++, &rec);
        rs_issued(&s, &v, &rec);
        if (rec.events & EXEC_EV_WARP_DONE) break;
        uint32_t pcs[4];
        TT_EQ_U(exec_warp_pcs(v.ew, pcs, 4), 1); /* straight code: one group */
        uint32_t want = live_regs(f, &lv, pcs[0]);
        if (held(&s) != want && bad++ < 3)
            printf("    after pc %u: holds %llu, live %u\n", rec.pc - f->start, (unsigned long long)held(&s), want);
        if (held(&s) > peak) peak = (uint32_t)held(&s);
        if (want > maxlive) maxlive = want;
    }
    TT_EQ_U(bad, 0);
    TT_EQ_U(held(&s), 0); /* the finished warp gave everything back */
    TT_EQ_U(peak, maxlive);
    exec_grid_close(gr, &res);
    TT_EQ_I(res.status, EXEC_OK);
    TT_EQ_U(exec_mem_host(r.dev, out, 24) ? ((const uint64_t *)exec_mem_host(r.dev, out, 24))[2] : 0, 55);
    rs_sm_free(&s);
    ptx_live_free(&lv);
    rig_close(&r);
}

/* Divergence: the upper lanes' path ends r5's life, the lower lanes still
** wait to read it; the release waits for them. */
static void t_divergence(void)
{
    rig r;
    if (!rig_open(&r, split_ptx, NULL)) {
        rig_close(&r);
        TT_CHECK(!"split loads");
        return;
    }
    const ptx_func *f = kernel0(&r);
    ptx_live lv;
    TT_CHECK(ptx_liveness(exec_mod_ptx(r.m), f, PTX_LIVE_ALLOC, &lv, &err));
    uint64_t out = exec_mem_alloc(r.dev, 32 * 4, 256);
    exec_launch l = {{1, 1, 1}, {32, 1, 1}, 0, &out, 8, 0};
    exec_result res;
    exec_grid *gr = exec_grid_open(r.m, 0, &l, &res);
    if (!gr) {
        TT_CHECK(!"grid opens");
        ptx_live_free(&lv);
        rig_close(&r);
        return;
    }
    rs_sm s = {0};
    rs_sm_begin(&s, &(rs_smcfg){gr, exec_grid_kernel(gr), exec_grid_occ(gr), 48, 8, &r.o});
    exec_cta *c = exec_cta_start(gr, 0);
    rs_cta_start(&s, 0);
    rs_warp v = {0, 0, 0, exec_cta_warp(c, 0)};
    uint32_t short_of = 0, steps = 0, max_groups = 0;
    exec_next n;
    while (exec_warp_next(v.ew, &n) == EXEC_WS_READY) {
        TT_CHECK(rs_issue(&s, &v, &n));
        exec_rec rec;
        exec_warp_step(v.ew, steps++, &rec);
        rs_issued(&s, &v, &rec);
        if (rec.events & EXEC_EV_WARP_DONE) break;
        /* it holds at least what any group of its lanes has live */
        uint32_t pcs[8], np = exec_warp_pcs(v.ew, pcs, 8);
        if (np > max_groups) max_groups = np;
        uint64_t need[4] = {0};
        uint32_t want = f->ra_regs - f->ra_own;
        for (uint32_t i = 0; i < np; i++)
            for (uint32_t row = 0; row < f->nrows; row++)
                if (pcs[i] - f->start < f->end - f->start && f->ra_map[row] >= 0 && ptx_live_has(&lv, f, pcs[i], row))
                    for (uint32_t u = 0; u < ptx_row_units(f, row); u++) {
                        uint32_t q = (uint32_t)f->ra_map[row] + u;
                        if (!(need[q / 64] >> (q % 64) & 1)) need[q / 64] |= 1ull << (q % 64), want++;
                    }
        if (held(&s) < want) short_of++;
    }
    TT_EQ_U(short_of, 0);
    TT_CHECK(max_groups >= 2); /* the warp did diverge */
    rs_kstats k;
    memset(&k, 0, sizeof k);
    rs_sm_stats(&s, &k);
    TT_CHECK(rs_kstat_u(&k, "rfv.deferred") >= 1);
    TT_EQ_U(rs_kstat_u(&k, "rfv.allocations"), rs_kstat_u(&k, "rfv.releases"));
    exec_grid_close(gr, &res);
    TT_EQ_I(res.status, EXEC_OK);
    const uint32_t *o = exec_mem_host(r.dev, out, 32 * 4);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 32; i++)
        if (o[i] != (i < 16 ? 3 * i + 2 : 3 * i)) bad++;
    TT_EQ_U(bad, 0);
    rs_sm_free(&s);
    ptx_live_free(&lv);
    rig_close(&r);
}

/* ---- the SM model, by exact cycles ---------------------------------------------- */

/* Registers a burst warp holds when it reaches clock A (RFV's rule). */
static uint32_t held_at_clock_a(const rig *r)
{
    const ptx_func *f = kernel0(r);
    const ptx_module *p = exec_mod_ptx(r->m);
    uint32_t pc = f->start;
    while (pc < f->end && !(p->insns[pc].op == PTX_OP_MOV && p->insns[pc].o[1].kind == PTX_OK_SREG &&
                            p->insns[pc].o[1].r == PTX_SR_CLOCK64))
        pc++;
    ptx_live lv;
    if (!ptx_liveness(p, f, PTX_LIVE_ALLOC, &lv, &err)) return 0;
    uint32_t h = live_regs(f, &lv, pc);
    ptx_live_free(&lv);
    return h;
}

typedef struct burst_run {
    uint64_t a[2], b[2];      /* clock A and B of CTA 0 and 1 */
    exec_status st;
    char msg[1024];
    gpu_kstats ks;
} burst_run;

/* Two CTAs of one warp on one SM of `phys` physical registers (warp
** registers), one scheduler, loose round robin. */
static void burst(burst_run *br, uint32_t phys, const char *more)
{
    memset(br, 0, sizeof *br);
    char opts[512];
    snprintf(opts, sizeof opts,
             "device.num_sms=1 device.regs_per_sm=%u device.regs_per_block=%u sm.schedulers=1 sm.scheduler=lrr %s",
             phys * 32, phys * 32, more ? more : "");
    rig r;
    if (!rig_open(&r, burst_ptx, opts)) {
        rig_close(&r);
        br->st = EXEC_ERR_INVALID_PTX;
        return;
    }
    uint64_t out = exec_mem_alloc(r.dev, 2 * 24, 256);
    exec_launch l = {{2, 1, 1}, {32, 1, 1}, 0, &out, 8, 0};
    exec_result res;
    br->st = gpu_launch(r.g, r.m, 0, &l, &res, &br->ks, NULL, NULL);
    snprintf(br->msg, sizeof br->msg, "%s", res.msg);
    const uint64_t *o = exec_mem_host(r.dev, out, 48);
    if (br->st == EXEC_OK) {
        for (int c = 0; c < 2; c++) {
            br->a[c] = o[3 * c];
            br->b[c] = o[3 * c + 1];
            TT_EQ_U(o[3 * c + 2], 10 * (uint64_t)c + 55);
        }
    }
    rig_close(&r);
}

#define RFV(ks, name) rs_kstat_u(&(ks).regs, "rfv." name)

static void t_cycles_free_list(void)
{
    rig r;
    if (!rig_open(&r, burst_ptx, NULL)) {
        rig_close(&r);
        TT_CHECK(!"burst loads");
        return;
    }
    uint32_t h = held_at_clock_a(&r), regs = kernel0(&r)->ra_regs;
    rig_close(&r);
    TT_CHECK(h > 10 && h < regs);
    burst_run br;
    /* room for both: LRR alternates them, warp 1 one cycle behind warp 0
    ** (A, the add, B: every other cycle) */
    burst(&br, 4 * regs, "rfv.reserve=0");
    TT_EQ_I(br.st, EXEC_OK);
    TT_CHECK(br.ks.ctas_per_sm >= 2);
    TT_EQ_U(br.a[1], br.a[0] + 1);
    TT_EQ_U(br.b[0], br.a[0] + 4);
    TT_EQ_U(br.b[1], br.a[0] + 5);
    TT_EQ_U(RFV(br.ks, "stall_cycles"), 0);
    TT_EQ_U(RFV(br.ks, "peak_regs"), 2 * (h + 2)); /* both at clock A */
    TT_EQ_U(RFV(br.ks, "allocations"), RFV(br.ks, "releases"));
    gpu_kstats_free(&br.ks);
    /* one register short: at a0 warp 0 reads clock A and leaves one free;
    ** a0+1: warp 1 needs two for its clock A and waits, warp 0's add frees
    ** one; a0+2: warp 1 takes the two; a0+3: warp 0 needs one for clock B and
    ** waits, warp 1's add frees one; a0+4: warp 0 reads clock B; a0+5: warp
    ** 1 waits for one, warp 0's next add frees it; a0+6: warp 1 reads B.
    ** Each waiting warp takes the registers the cycle after they are freed. */
    burst(&br, 2 * h + 3, "rfv.reserve=0");
    TT_EQ_I(br.st, EXEC_OK);
    if (br.st != EXEC_OK) printf("    %s\n", br.msg);
    TT_EQ_U(br.a[1], br.a[0] + 2);
    TT_EQ_U(br.b[0], br.a[0] + 4);
    TT_EQ_U(br.b[1], br.a[0] + 6);
    TT_EQ_U(RFV(br.ks, "stall_cycles"), 3);   /* a0+1, a0+3, a0+5 */
    TT_EQ_U(RFV(br.ks, "throttle_cycles"), 0);
    TT_EQ_U(br.ks.issue[GPU_ST_REGS], 0);      /* the other warp used each of those slots */
    TT_EQ_U(RFV(br.ks, "peak_regs"), 2 * h + 3);
    TT_EQ_U(RFV(br.ks, "allocations"), RFV(br.ks, "releases"));
    gpu_kstats_free(&br.ks);
}

static void t_cycles_oldest_first(void)
{
    rig r;
    if (!rig_open(&r, burst_ptx, NULL)) {
        rig_close(&r);
        TT_CHECK(!"burst loads");
        return;
    }
    uint32_t h = held_at_clock_a(&r), regs = kernel0(&r)->ra_regs;
    uint32_t cta = (regs * 32 + 63) / 64 * 64 / 32; /* a CTA's charge, in warp registers */
    rig_close(&r);
    burst_run br;
    /* the same file, the throttle on: CTA 1 may hold 2h + 3 - regs registers
    ** while CTA 0 lives, fewer than it needs at clock A: it waits for CTA 0
    ** to finish, at first with registers free but kept for CTA 0 (a
    ** throttle), later also with none free (CTA 0 holds the rest) */
    uint32_t phys = 2 * h + 3 > cta ? 2 * h + 3 : cta;
    TT_CHECK(phys - regs < h + 2);
    burst(&br, phys, NULL);
    TT_EQ_I(br.st, EXEC_OK);
    TT_CHECK(br.a[1] > br.b[0]);
    TT_CHECK(RFV(br.ks, "stall_cycles") > 0);
    TT_CHECK(RFV(br.ks, "throttle_cycles") > 0 && RFV(br.ks, "throttle_cycles") <= RFV(br.ks, "stall_cycles"));
    TT_CHECK(RFV(br.ks, "peak_regs") <= phys);
    gpu_kstats_free(&br.ks);
    /* a file too small for both bursts (the smallest tpsim takes, 1024
    ** registers): without the throttle both warps fill it halfway through
    ** their bursts and wait for each other for ever; with it CTA 1 waits
    ** for CTA 0 and both finish */
    phys = cta > 32 ? cta : 32;
    TT_CHECK(phys < 2 * (h + 2));
    burst(&br, phys, "rfv.reserve=0");
    TT_EQ_I(br.st, EXEC_ERR_DEADLOCK);
    TT_CHECK(strstr(br.msg, "no warp can make progress") != NULL);
    gpu_kstats_free(&br.ks);
    burst(&br, phys, NULL);
    TT_EQ_I(br.st, EXEC_OK);
    TT_CHECK(br.a[1] > br.b[0]);
    gpu_kstats_free(&br.ks);
}

/* Occupancy: CTAs are admitted against rfv.ratio x the physical file,
** charged the kernel's whole count; one CTA's count must fit the file. */
static void t_occupancy(void)
{
    rig r;
    if (!rig_open(&r, burst_ptx, "device.regs_per_sm=2048 device.regs_per_block=2048 device.max_ctas_per_sm=32")) {
        rig_close(&r);
        TT_CHECK(!"burst loads");
        return;
    }
    exec_occ o;
    exec_occupancy(r.m, 0, 32, 0, &o);
    uint32_t per = (kernel0(&r)->ra_regs * 32 + 63) / 64 * 64;
    TT_EQ_U(o.regs_per_thread, kernel0(&r)->ra_regs);
    TT_EQ_U(o.by_regs, 2 * 2048 / per); /* the default ratio, 2 */
    TT_EQ_U(o.sections, 0);
    rig_close(&r);
    if (!rig_open(&r, burst_ptx, "device.regs_per_sm=2048 device.regs_per_block=2048 device.max_ctas_per_sm=32 rfv.ratio=4")) {
        rig_close(&r);
        return;
    }
    exec_occupancy(r.m, 0, 32, 0, &o);
    TT_EQ_U(o.by_regs, 4 * 2048 / per);
    rig_close(&r);
    /* the configuration's state: the seed's 31 kilobits for the GTX 480
    ** (48 warps x 63 registers x 10 bits + 1024 free bits) */
    if (!rig_open(&r, burst_ptx, "device.num_sms=1")) {
        rig_close(&r);
        return;
    }
    uint64_t out = exec_mem_alloc(r.dev, 48, 256);
    exec_launch l = {{2, 1, 1}, {32, 1, 1}, 0, &out, 8, 0};
    exec_result res;
    gpu_kstats ks;
    memset(&ks, 0, sizeof ks);
    TT_EQ_I(gpu_launch(r.g, r.m, 0, &l, &res, &ks, NULL, NULL), EXEC_OK);
    TT_EQ_U(RFV(ks, "state_bits"), 48 * 63 * 10 + 1024);
    TT_EQ_U(RFV(ks, "physical_regs"), 1024);
    TT_EQ_U(rs_kstat_u(&ks.regs, "regmutex.state_bits"), 384);
    TT_EQ_U(rs_kstat_u(&ks.regs, "regmutex.sections"), 0);
    gpu_kstats_free(&ks);
    rig_close(&r);
}

int main(void)
{
    TT_RUN(t_renaming);
    TT_RUN(t_divergence);
    TT_RUN(t_cycles_free_list);
    TT_RUN(t_cycles_oldest_first);
    TT_RUN(t_occupancy);
    return tt_done();
}
