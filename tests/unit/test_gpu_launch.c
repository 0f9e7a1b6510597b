/*
** test_gpu_launch.c -- exact-cycle scenarios of the launch and of the SM's
** side of the memory system (gpu/gpu.c, gpu/sm.c, gpu/ldst*.c): kernel-launch
** overhead (launch.cycles, launch.min_cycles), the CTA launch rate
** (cta.gpu_interval, cta.sm_interval) and latency (cta.latency), store
** acknowledgements (ldst.store_ack) and shared-memory atomics
** (shmem.atomic_serial).  Run on the GTX 480 defaults (gpu/options.def,
** gpu/mem_options.def) with the options each test names; the conventions of
** test_gpu_sm.c hold (an instruction issued at t dispatches at t + 1).
*/
#include "tests/unit/tt.h"
#include "tests/unit/gpu_rig.h"
#include <stdlib.h>

/* out[ctaid] = %clock64 at the CTA's first instruction (its warp 0's) */
static const char *start_ptx = HDR
    ".visible .entry start(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
    "  mov.u64 %rd2, %clock64;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  setp.ne.u32 %p1, %r2, 0;\n"
    "  @%p1 bra DONE;\n"
    "  st.global.u64 [%rd4], %rd2;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* Launches `start` on grid CTAs of 32 threads with options opts; the CTAs'
** start clocks in t[] (grid at most 64), the statistics in *ks. */
static bool starts(const char *opts, uint32_t grid, uint64_t *t, gpu_kstats *ks)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, start_ptx, opts, "launch.ptx")) return false;
    uint64_t out = exec_mem_alloc(r.dev, 8 * 64, 256);
    bool ok = gpu_rig_launch(&r, "start", grid, 32, &out, 8, ks, NULL) == EXEC_OK;
    TT_CHECK(ok);
    memcpy(t, exec_mem_host(r.dev, out, 8 * grid), 8 * grid);
    gpu_rig_close(&r);
    return ok;
}

/* 1001: launch overhead.  The kernel's cycles are its execution, the same
** with any launch.* value; launch_cycles = max(launch.cycles,
** launch.min_cycles - cycles): 0 by default, 100 with launch.cycles=100,
** the floor's remainder (C + 50 - C = 50) with launch.min_cycles = C + 50,
** 100 again with both (the larger), 0 with a floor below the execution. */
static void t1001_launch_overhead(void)
{
    uint64_t t[1];
    gpu_kstats ks;
    char o[128];
    if (!starts(NULL, 1, t, &ks)) return;
    uint64_t c = ks.cycles;
    TT_EQ_U(ks.launch_cycles, 0);
    gpu_kstats_free(&ks);
    starts("launch.cycles=100", 1, t, &ks);
    TT_EQ_U(ks.cycles, c);
    TT_EQ_U(ks.launch_cycles, 100);
    gpu_kstats_free(&ks);
    snprintf(o, sizeof o, "launch.min_cycles=%llu", (unsigned long long)(c + 50));
    starts(o, 1, t, &ks);
    TT_EQ_U(ks.cycles, c);
    TT_EQ_U(ks.launch_cycles, 50);
    gpu_kstats_free(&ks);
    snprintf(o, sizeof o, "launch.min_cycles=%llu launch.cycles=100", (unsigned long long)(c + 50));
    starts(o, 1, t, &ks);
    TT_EQ_U(ks.launch_cycles, 100);
    gpu_kstats_free(&ks);
    snprintf(o, sizeof o, "launch.min_cycles=%llu", (unsigned long long)(c - 1));
    starts(o, 1, t, &ks);
    TT_EQ_U(ks.launch_cycles, 0);
    gpu_kstats_free(&ks);
}

/* 1002: the CTA distributor (cta.gpu_interval = 5.5, cta.sm_interval = 1).
** Eight CTAs on 15 empty SMs go round robin, CTA k to SM k, each the moment
** the distributor is free: CTA k at the first cycle >= k x 5.5 after the
** first, i.e. ceil(5.5 k) = 0, 6, 11, 17, 22, 28, 33, 39 (the half cycles
** carry: 5500, 11000, 16500 ... thousandths).  Every CTA runs the same code
** alone on its SM, so its first instruction issues the same number of
** cycles after its launch: the start clocks differ by exactly those
** amounts.  With cta.gpu_interval = 0 they all start together. */
static void t1002_cta_distributor(void)
{
    static const uint64_t want[8] = {0, 6, 11, 17, 22, 28, 33, 39};
    uint64_t t[8];
    gpu_kstats ks;
    if (!starts("cta.gpu_interval=5.5", 8, t, &ks)) return;
    for (uint32_t k = 0; k < 8; k++) TT_EQ_U(t[k] - t[0], want[k]);
    gpu_kstats_free(&ks);
    starts("cta.gpu_interval=0", 8, t, &ks);
    for (uint32_t k = 0; k < 8; k++) TT_EQ_U(t[k] - t[0], 0);
    gpu_kstats_free(&ks);
}

/* 1003: one SM (device.num_sms=1) takes a CTA per cta.sm_interval = 100
** cycles: four CTAs (all fit at once) start at 0, 100, 200, 300.  100
** cycles is longer than a CTA's 10 instructions take to issue, so no
** earlier warp competes with a new one for its scheduler (sm.schedulers =
** 2: warp slot w on scheduler w mod 2; with cta.sm_interval = 10 the third
** CTA's first instruction waits a cycle behind the first's older warp, GTO).
** Each CTA issues its first instruction the same time after its launch. */
static void t1003_cta_sm_interval(void)
{
    uint64_t t[4];
    gpu_kstats ks;
    if (!starts("device.num_sms=1 cta.sm_interval=100", 4, t, &ks)) return;
    for (uint32_t k = 0; k < 4; k++) TT_EQ_U(t[k] - t[0], 100 * k);
    gpu_kstats_free(&ks);
}

/* 1004: cta.latency = 40: a CTA's warps are made, and fetch, 40 cycles after
** its launch; everything after moves by 40: the start clock and the
** kernel's cycles grow by exactly 40. */
static void t1004_cta_latency(void)
{
    uint64_t a[1], b[1];
    gpu_kstats ka, kb;
    if (!starts(NULL, 1, a, &ka)) return;
    starts("cta.latency=40", 1, b, &kb);
    TT_EQ_U(b[0] - a[0], 40);
    TT_EQ_U(kb.cycles - ka.cycles, 40);
    gpu_kstats_free(&ka);
    gpu_kstats_free(&kb);
}

/* out[0] = clock after - clock before, around a store and a fence
** (membar.gl waits for every store of the warp to be acknowledged); then
** the same store without a fence: the warp exits at once and waits. */
static const char *store_ptx = HDR
    ".visible .entry stfence(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, 7;\n"
    FILL
    "  mov.u64 %rd2, %clock64;\n"
    "  st.global.u32 [%rd1+64], %r1;\n"
    "  membar.gl;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n"
    "  st.global.u64 [%rd1], %rd4;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry stexit(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, 7;\n"
    FILL
    "  st.global.u32 [%rd1+64], %r1;\n"
    "  ret;\n"
    "}\n";

static uint64_t store_grid(const char *k, const char *opts, uint32_t grid, gpu_kstats *ks)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, store_ptx, opts, "store.ptx")) return 0;
    uint64_t out = exec_mem_alloc(r.dev, 256, 256);
    TT_EQ_I(gpu_rig_launch(&r, k, grid, 32, &out, 8, ks, NULL), EXEC_OK);
    uint64_t t = *(uint64_t *)exec_mem_host(r.dev, out, 8);
    TT_EQ_U(*(uint32_t *)exec_mem_host(r.dev, out + 64, 4), 7);
    gpu_rig_close(&r);
    return t;
}

static uint64_t store_run(const char *k, const char *opts, gpu_kstats *ks) { return store_grid(k, opts, 1, ks); }

/* 1005: store acknowledgements.  The store issues at t0 + 1 and its one
** line goes to the L1D at t0 + 2 (test_gpu_warppool 922); a global store
** enters the L1D's miss queue l1d.miss_latency (35) later, t0 + 37, and the
** LD/ST unit hands it to the interconnect at the end of that cycle (its
** send stage runs after the L1D's), t0 + 37.
** test_mem_sys 804: an acknowledged store is answered 135 cycles after the
** memory system takes it (two 1-cycle hops, 2 x icnt.latency 5, l2.latency
** 120, the 4-flit request's tail 3): the ack pops at t0 + 172 -- the SM,
** asleep since the store left, is woken in the cycle the ack is ready, as
** a busy one would take it --, frees the fence, which issues then; the
** clock read one cycle later: t1 - t0 = 173.  (Before 2026-12-05 a
** sleeping SM saw a reply one cycle late when the launch loop had not
** stopped the cycle before: 174, and this note counted the send a cycle
** late to match.)
** With ldst.store_ack = 0 the store is done when the L1D takes it: the
** fence waits for nothing in flight; it issues at t0 + 2 and the clock
** read at t0 + 3... plus the store's own write-back (the LD/ST unit
** finishes it at its accept, t0 + 2, written back the cycle after): 4.
** Without a fence (stexit: the same timing up to the store, then ret) the
** warp's ret issues at t0 + 2 and writes back at t0 + 2 + 1 + lat.branch
** (4) = t0 + 7, when the warp would finish; it waits for the ack, which
** pops at t0 + 172: store_ack_wait_cycles = 165.  With store_ack = 0 there
** is no wait, and the kernel ends sooner (it still lasts until the memory
** system has performed the store). */
static void t1005_store_ack(void)
{
    gpu_kstats a, b;
    TT_EQ_U(store_run("stfence", NULL, &a), 173);
    gpu_kstats_free(&a);
    TT_EQ_U(store_run("stfence", "ldst.store_ack=0", &a), 4);
    TT_EQ_U(a.store_ack_wait_cycles, 0);
    gpu_kstats_free(&a);
    store_run("stexit", NULL, &a);
    store_run("stexit", "ldst.store_ack=0", &b);
    TT_EQ_U(b.store_ack_wait_cycles, 0);
    TT_EQ_U(a.store_ack_wait_cycles, 165);
    TT_CHECK(b.cycles < a.cycles);
    gpu_kstats_free(&a);
    gpu_kstats_free(&b);
}

/* out[0] = clock after - clock before, around a shared atomic add by 32
** lanes at word tid * stride (stride 0: all on one word) */
static const char *shatom_ptx = HDR
    ".visible .entry shatom(.param .u64 out, .param .u32 stride)\n"
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
    "  atom.shared.add.u32 %r6, [%r5], 1;\n"
    "  add.s32 %r7, %r6, 1;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  sub.s64 %rd4, %rd3, %rd2;\n"
    "  st.global.u64 [%rd1], %rd4;\n"
    "  ret;\n"
    "}\n";

static uint64_t shatom_time(const char *opts, uint32_t stride)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, shatom_ptx, opts, "shatom.ptx")) return 0;
    uint64_t out = exec_mem_alloc(r.dev, 64, 256);
    struct { uint64_t out; uint32_t stride; } p = {out, stride};
    gpu_kstats ks;
    TT_EQ_I(gpu_rig_launch(&r, "shatom", 1, 32, &p, 12, &ks, NULL), EXEC_OK);
    uint64_t t = *(uint64_t *)exec_mem_host(r.dev, out, 8);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    return t;
}

/* 1006: shared-memory atomics.  As for a shared load (test_gpu_sm's bank
** conflicts): t1 - t0 = 28 + k, k the cycles the access takes.  Without
** shmem.atomic_serial, k is the bank-conflict degree, lanes on one word
** sharing an access: stride 1 and stride 0 (one word) both 1: 29.  With
** it, k is the most lanes in one bank: stride 1 still 1 (29), stride 0
** all 32 lanes in bank 0, one after another: 28 + 32 = 60; stride 16: 16
** lanes in each of banks 0 and 16: 44; stride 2: 2 lanes per even bank, 30
** either way (distinct words). */
static void t1006_shared_atomics(void)
{
    TT_EQ_U(shatom_time(NULL, 1), 29);
    TT_EQ_U(shatom_time(NULL, 0), 29);
    TT_EQ_U(shatom_time(NULL, 2), 30);
    TT_EQ_U(shatom_time("shmem.atomic_serial=1", 1), 29);
    TT_EQ_U(shatom_time("shmem.atomic_serial=1", 0), 60);
    TT_EQ_U(shatom_time("shmem.atomic_serial=1", 16), 44);
    TT_EQ_U(shatom_time("shmem.atomic_serial=1", 2), 30);
}

/* 1007: ldst.store_ack_exit = 0: the warp finishes when its ret writes back
** (t0 + 7), without waiting; the ack still comes back (t0 + 173) and the
** launch lasts until the memory system is empty, so one warp's kernel takes
** the same cycles either way, with no wait counted.  On one SM with 16
** one-warp CTAs (8 at a time: sm.max_ctas) the second eight reuse slots
** whose acks are still due (counted off as an earlier warp's, never the
** new warp's); they start sooner, so the kernel is shorter, and its
** stores are all performed (store_grid checks the value). */
static void t1007_store_ack_exit(void)
{
    gpu_kstats a, b;
    store_run("stexit", NULL, &a);
    store_run("stexit", "ldst.store_ack_exit=0", &b);
    TT_EQ_U(b.store_ack_wait_cycles, 0);
    TT_EQ_U(b.cycles, a.cycles);
    gpu_kstats_free(&a);
    gpu_kstats_free(&b);
    store_grid("stexit", "device.num_sms=1", 16, &a);
    store_grid("stexit", "device.num_sms=1 ldst.store_ack_exit=0", 16, &b);
    TT_EQ_U(b.store_ack_wait_cycles, 0);
    TT_CHECK(a.store_ack_wait_cycles > 0);
    TT_CHECK(b.cycles < a.cycles);
    gpu_kstats_free(&a);
    gpu_kstats_free(&b);
}

/* A one-thread chase: each load's word is the byte offset of the next. */
static const char *walk_ptx = HDR
    ".visible .entry walk(.param .u64 buf, .param .u32 steps, .param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [buf];\n"
    "  ld.param.u32 %r1, [steps];\n"
    "  ld.param.u64 %rd5, [out];\n"
    "  mov.u32 %r2, 0;\n"
    "  mov.u32 %r3, 0;\n"
    "LOOP:\n"
    "  cvt.u64.u32 %rd2, %r2;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r2, [%rd3];\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p1, %r3, %r1;\n"
    "  @%p1 bra LOOP;\n"
    "  st.global.u32 [%rd5], %r2;\n"
    "  ret;\n"
    "}\n";

enum { WALK_LINES = 384 };   /* 48 KB of 128-byte lines */

/* Runs the chase twice round WALK_LINES lines (one per line, in order) in
** one CTA of one thread with dyn bytes of dynamic shared memory. */
static bool walk(const char *opts, uint32_t dyn, gpu_kstats *ks)
{
    gpu_rig r;
    memset(ks, 0, sizeof *ks);
    if (!gpu_rig_open(&r, walk_ptx, opts, "walk.ptx")) return false;
    uint64_t buf = exec_mem_alloc(r.dev, WALK_LINES * 128, 256), out = exec_mem_alloc(r.dev, 4, 4);
    uint32_t *h = exec_mem_host(r.dev, buf, WALK_LINES * 128);
    for (uint32_t k = 0; k < WALK_LINES; k++) h[k * 32] = (k + 1) % WALK_LINES * 128;
    struct {
        uint64_t buf;
        uint32_t steps, pad;
        uint64_t out;
    } prm = {buf, 2 * WALK_LINES, 0, out};
    exec_launch l = {{1, 1, 1}, {1, 1, 1}, dyn, &prm, sizeof prm, 0, 0};
    exec_result res;
    bool ok = gpu_launch(r.g, r.m, exec_mod_kernel(r.m, "walk"), &l, &res, ks, NULL, NULL) == EXEC_OK;
    TT_CHECK(ok);
    gpu_rig_close(&r);
    return ok;
}

/* 1008: l1d.carveout.  A unified array of 96 KB (Turing's), shared-memory
** capacities 32 and 64 KB (shmem.carveout_min = 32k, device.shared_per_sm
** = 64k), the L1D's geometry 32 KB of 4 sets x 64 ways of 128 bytes, sets
** indexed by the line number's low bits, 8 CTAs per SM at most (the
** occupancy of these one-thread CTAs).  The chase walks 384 lines twice:
** 96 in each set (the store at the end is one more access).  fixed: the
** L1D is 32 KB whatever the kernel; each set holds 64 of its 96 lines and
** the second round misses every line (LRU, cyclic): no hit.  driver: CTAs
** with no shared memory, or 4 KB each (8 x 4 KB = 32 KB at the occupancy,
** not the 1 CTA of the grid), get the 32 KB capacity and a 64 KB L1D (4
** sets of 128 ways): the second round hits all 384 lines; 4 KB + 128 (the
** allocation unit) each needs 33 KB and gets 64 KB, and a 32 KB L1D: no
** hit.  driver with l1d.unified = 0 is fixed. */
static void t1008_l1d_carveout(void)
{
    const char *base = "l1d.unified=96k shmem.carveout_min=32k device.shared_per_sm=64k l1d.size=32k l1d.assoc=64 "
                       "l1d.line=128 l1d.set_index=linear l1d.sectored=0 device.shared_per_block=64k "
                       "device.shared_per_block_optin=64k device.max_ctas_per_sm=8";
    static const struct {
        const char *carveout;
        uint32_t dyn, capacity, hits;
    } c[] = {
        {"fixed", 0, 32768, 0},         {"driver", 0, 65536, WALK_LINES},     {"driver", 4096, 65536, WALK_LINES},
        {"driver", 4096 + 128, 32768, 0}, {"fixed", 4096, 32768, 0},
    };
    char o[512];
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gpu_kstats ks;
        snprintf(o, sizeof o, "%s l1d.carveout=%s", base, c[i].carveout);
        if (!walk(o, c[i].dyn, &ks)) continue;
        TT_EQ_U(ks.l1d_capacity, c[i].capacity);
        TT_EQ_U(ks.l1d_accesses, 2 * WALK_LINES + 1);   /* and the store */
        TT_EQ_U(ks.l1d_hits, c[i].hits);
        gpu_kstats_free(&ks);
    }
    gpu_kstats ks;
    snprintf(o, sizeof o, "%s l1d.carveout=driver l1d.unified=0", base);
    if (walk(o, 0, &ks)) {
        TT_EQ_U(ks.l1d_capacity, 32768);
        TT_EQ_U(ks.l1d_hits, 0);
        gpu_kstats_free(&ks);
    }
}

int main(void)
{
    TT_RUN(t1001_launch_overhead);
    TT_RUN(t1002_cta_distributor);
    TT_RUN(t1003_cta_sm_interval);
    TT_RUN(t1004_cta_latency);
    TT_RUN(t1005_store_ack);
    TT_RUN(t1006_shared_atomics);
    TT_RUN(t1007_store_ack_exit);
    TT_RUN(t1008_l1d_carveout);
    return tt_done();
}
