/*
** test_gpu_warppool.c -- WarpPool (gpu/warppool.h) by exact cycles.
**
** Part 1 (9xx): the pool between mock neighbours, as test_mem_l1.c does
** with the L1: hand-made memory instructions (gpu_memop) go in through
** gpu_wp_accept, the pool sends to a real L1D (gpu/l1.c: the GTX 480's 16 KB,
** 4 ways, 128-byte lines, hit latency 35, with l1d.miss_latency 0 so that a
** miss is in the miss queue at its access), and a mock memory answers every
** line request MEMLAT cycles after it left the miss queue.  Each cycle of the
** rig does what an SM does, in its order: memory replies into the L1, the
** L1's finished requests to the pool, the pool's quantum, coalescers and
** selection, finished instructions out, L1 misses to memory.
**
** Part 2 (92x): whole kernels through gpu_launch (performance mode, GTX 480
** defaults): results, L1D accesses, merges and per-thread deliveries, and
** the exact cycles of a timed load through the Fermi path, a banked L1D and
** the pool.
**
** The conventions the golden numbers follow (warppool.h): an instruction
** accepted at t is taken by an idle coalescer in t, which inserts its first
** request in t; a tag is selectable from t + warppool.latency (1); a hit
** accessed at s is there at s + 35; a miss accessed at s is answered at
** s + MEMLAT (100 unless said).
*/
#include "tests/unit/tt.h"
#include "tests/unit/gpu_rig.h"
#include "gpu/internal.h"
#include "gpu/ldst.h"
#include "gpu/warppool.h"
#include "exec/exec.h"

enum { LAT = 35, LINE = 128, NOPS = 16, MAXMEM = 256 };
#define BASE 0x200000000000ull
#define NEVER UINT64_MAX

typedef struct rig {
    gpu_mreq_pool pool;
    gpu_l1cfg lc;
    gpu_l1 *l1;
    gpu_wpcfg wc;
    gpu_wp *wp;
    gpu_ldstkstats st;
    uint64_t memlat;
    gpu_memop op[NOPS];
    uint64_t fin[NOPS];         /* cycle each instruction finished (NEVER: not yet) */
    exec_sinfo si[NOPS];
    gpu_mreq *mem[MAXMEM];      /* requests the mock memory holds ... */
    uint64_t mem_at[MAXMEM];    /* ... and the cycle each is answered */
    uint32_t nmem;
    uint64_t sent[64], sent_at[64]; /* lines in the order they reached memory, and when */
    uint32_t nsent;
    bool changed;               /* the last tick moved something */
} rig;

/* The pool of `opts` (warppool=1 and the options named) over the GTX 480 L1D. */
static bool rig_open(rig *r, const char *opts)
{
    memset(r, 0, sizeof *r);
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(&o);
    bool ok = tp_opts_set_list(&o, "warppool=1", TP_SRC_OVERRIDE, &e) &&
              (!opts || tp_opts_set_list(&o, opts, TP_SRC_OVERRIDE, &e));
    if (!ok) {
        tt_fail_msg(__FILE__, __LINE__, "bad options: %s", e.msg); /* the test returns early: a failure */
        tp_opts_free(&o);
        return false;
    }
    TT_CHECK(gpu_wp_cfg_from(&o, &r->wc));
    gpu_l1_cfg_l1d(&o, &r->lc);
    tp_opts_free(&o);
    r->lc.miss_latency = 0;
    r->memlat = 100;
    gpu_mreq_pool_init(&r->pool);
    r->l1 = gpu_l1_new(&r->lc, &r->pool);
    r->wp = gpu_wp_new(&r->wc, r->l1, &r->lc, &r->pool, 0, 0, &r->st);
    gpu_wp_begin(r->wp, 0);
    for (int i = 0; i < NOPS; i++) r->fin[i] = NEVER;
    return true;
}

static void rig_close(rig *r)
{
    for (uint32_t k = 0; k < r->nmem; k++) gpu_mreq_put(&r->pool, r->mem[k]);
    gpu_wp_free(r->wp);
    gpu_l1_free(r->l1);
    TT_EQ_U(r->pool.live, 0); /* every request went back to the pool */
    gpu_mreq_pool_free(&r->pool);
}

/* Instruction i of warp slot `warp`: flags EXEC_SI_*, its active lanes (none set yet). */
static gpu_memop *mkop(rig *r, int i, uint16_t warp, uint8_t flags)
{
    gpu_memop *m = &r->op[i];
    memset(m, 0, sizeof *m);
    r->si[i] = (exec_sinfo){.unit = EXEC_U_MEM, .flags = flags, .space = PTX_SP_GLOBAL, .bytes = 4};
    m->si = &r->si[i];
    m->warp = warp;
    m->bytes = 4;
    m->flags = flags;
    m->rec.space = PTX_SP_GLOBAL;
    return m;
}

/* Lanes `lanes` of instruction i read (or write) words of line `line`. */
static void lanes_to(rig *r, int i, uint32_t lanes, uint64_t line)
{
    gpu_memop *m = &r->op[i];
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        m->rec.addr[l] = line + 4u * (uint32_t)l;
    }
    m->active |= lanes;
}

static uint64_t ln(uint32_t k) { return BASE + (uint64_t)LINE * k; }

/* One cycle of the rig (the order of an SM's cycle, file header). */
static void tick(rig *r, uint64_t now)
{
    r->changed = false;
    for (uint32_t k = 0; k < r->nmem;) {
        if (r->mem_at[k] != now) {
            k++;
            continue;
        }
        r->mem[k]->is_reply = 1;
        r->changed = true;
        gpu_l1_fill(r->l1, r->mem[k], now);
        gpu_wp_unblock(r->wp);
        r->mem[k] = r->mem[--r->nmem];
        r->mem_at[k] = r->mem_at[r->nmem];
    }
    gpu_mreq *q;
    while ((q = gpu_l1_pop_done(r->l1, now))) {
        r->changed = true;
        if (q->tag != UINT32_MAX && (q->tag & GPU_WP_TAG)) gpu_wp_done(r->wp, q, now);
        else gpu_mreq_put(&r->pool, q);
    }
    bool changed = gpu_wp_quantum(r->wp, now), stalled = false;
    gpu_wp_cycle(r->wp, now, r->lc.banks > 1 ? r->lc.banks : 1, 0, &changed, &stalled);
    if (changed) r->changed = true;
    gpu_memop *m;
    while ((m = gpu_wp_pop_finished(r->wp))) r->fin[m - r->op] = now;
    while ((q = gpu_l1_peek_miss_at(r->l1, now))) {
        r->changed = true;
        gpu_l1_pop_miss(r->l1);
        gpu_wp_unblock(r->wp);
        if (r->nsent < 64) {
            r->sent[r->nsent] = q->addr;
            r->sent_at[r->nsent++] = now;
        }
        if (q->kind == GPU_MR_STORE) {
            gpu_mreq_put(&r->pool, q);
            continue;
        }
        TT_CHECK(r->nmem < MAXMEM);
        r->mem[r->nmem] = q;
        r->mem_at[r->nmem++] = now + r->memlat;
    }
}

static void run_to(rig *r, uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t <= to; t++) tick(r, t);
}

/* Brings line into the L1 (a miss at t answered at t + 1), outside the pool. */
static void warm(rig *r, uint64_t line, uint64_t t)
{
    gpu_mreq *q = gpu_mreq_get(&r->pool);
    q->addr = line;
    q->bytes = LINE;
    q->kind = GPU_MR_LOAD;
    q->space = GPU_MS_GLOBAL;
    q->tag = UINT32_MAX;
    TT_EQ_U(gpu_l1_access(r->l1, q, t), GPU_L1_MISS);
    gpu_mreq *m = gpu_l1_peek_miss(r->l1);
    gpu_l1_pop_miss(r->l1);
    m->is_reply = 1;
    gpu_l1_fill(r->l1, m, t + 1);
    TT_CHECK(gpu_l1_pop_done(r->l1, t + 1) == q);
    gpu_mreq_put(&r->pool, q);
}

/* ---- part 1: the pool between mock neighbours ---- */

/* 901: a lone load of a line the L1 holds.  Accepted at 10, inserted at 10,
** selected at 11 (latency 1), a hit: its data at 11 + 35 = 46, when it
** finishes (the Fermi path would access at 10 and finish at 45). */
static void t901_lone_hit(void)
{
    rig r;
    if (!rig_open(&r, NULL)) return;
    warm(&r, ln(0), 0);
    mkop(&r, 0, 0, EXEC_SI_LOAD);
    lanes_to(&r, 0, 0xffffffffu, ln(0));
    TT_CHECK(gpu_wp_can_accept(r.wp, 10));
    gpu_wp_accept(r.wp, &r.op[0], 0, 10);
    TT_CHECK(!gpu_wp_can_accept(r.wp, 10)); /* one instruction per cycle */
    run_to(&r, 10, 10);
    TT_EQ_U(gpu_l1_stats(r.l1)->accesses, 1); /* the warm-up only */
    run_to(&r, 11, 11);
    TT_EQ_U(gpu_l1_stats(r.l1)->accesses, 2);
    TT_EQ_U(gpu_l1_stats(r.l1)->hits, 1);
    run_to(&r, 12, 45);
    TT_EQ_U(r.fin[0], NEVER);
    run_to(&r, 46, 46);
    TT_EQ_U(r.fin[0], 46);
    TT_EQ_U(r.st.requests, 1);
    TT_EQ_U(r.st.l1_accesses, 1);
    TT_EQ_U(r.st.merges, 0);
    TT_EQ_U(r.st.thread_deliveries, 32);
    TT_CHECK(gpu_wp_idle(r.wp));
    rig_close(&r);
}

/* 902: two warps touching one line produce one L1 access.  Warp 0's load
** is accepted at 10 (inserted at 10, selectable at 11), warp 1's at 11: the
** idle coalescer takes it at 11 and its request joins warp 0's tag before
** the selection of cycle 11 sends the tag -- one access (a miss) for both;
** the fill at 111 finishes both. */
static void t902_two_warps_one_access(void)
{
    rig r;
    if (!rig_open(&r, NULL)) return;
    mkop(&r, 0, 0, EXEC_SI_LOAD);
    lanes_to(&r, 0, 0xffffffffu, ln(3));
    mkop(&r, 1, 1, EXEC_SI_LOAD);
    lanes_to(&r, 1, 0x0000ffffu, ln(3)); /* half the lanes: the mapping is per warp */
    gpu_wp_accept(r.wp, &r.op[0], 0, 10);
    run_to(&r, 10, 10);
    gpu_wp_accept(r.wp, &r.op[1], 1, 11);
    run_to(&r, 11, 200);
    TT_EQ_U(gpu_l1_stats(r.l1)->accesses, 1);
    TT_EQ_U(gpu_l1_stats(r.l1)->misses, 1);
    TT_EQ_U(r.nsent, 1);
    TT_EQ_U(r.sent_at[0], 11);
    TT_EQ_U(r.fin[0], 111);
    TT_EQ_U(r.fin[1], 111);
    TT_EQ_U(r.st.requests, 2);
    TT_EQ_U(r.st.l1_accesses, 1);
    TT_EQ_U(r.st.merges, 1);
    TT_EQ_U(r.st.thread_deliveries, 32 + 16);
    TT_EQ_U(r.op[1].lanes_done, 0x0000ffffu);
    TT_EQ_U(r.st.delivery_errors, 0);
    rig_close(&r);
}

/* 903: a fifth merge waits.  With warppool.latency = 10 a tag inserted at
** 10 is selectable at 20.  Six warps load one line, accepted at 10 .. 15:
** the first starts a tag, the next four merge into it (1 + 4 requests: the
** merge limit), the sixth finds it full and starts a second tag (ready at
** 25).  The first access (a miss, at 20) carries five requests, the second
** (at 25) one, which merges into the L1's MSHR; the fill at 120 finishes
** all six. */
static void t903_fifth_merge_waits(void)
{
    rig r;
    if (!rig_open(&r, "warppool.latency=10")) return;
    for (int i = 0; i < 6; i++) {
        mkop(&r, i, (uint16_t)i, EXEC_SI_LOAD);
        lanes_to(&r, i, 0xffffffffu, ln(7));
    }
    for (int i = 0; i < 6; i++) {
        gpu_wp_accept(r.wp, &r.op[i], (uint64_t)i, 10 + (uint64_t)i);
        tick(&r, 10 + (uint64_t)i);
    }
    run_to(&r, 16, 19);
    TT_EQ_U(gpu_l1_stats(r.l1)->accesses, 0);
    run_to(&r, 20, 20);
    TT_EQ_U(gpu_l1_stats(r.l1)->accesses, 1);
    TT_EQ_U(r.st.merges, 4);
    run_to(&r, 21, 24);
    TT_EQ_U(gpu_l1_stats(r.l1)->accesses, 1);
    run_to(&r, 25, 25);
    TT_EQ_U(gpu_l1_stats(r.l1)->accesses, 2);
    TT_EQ_U(gpu_l1_stats(r.l1)->mshr_merges, 1);
    run_to(&r, 26, 200);
    for (int i = 0; i < 6; i++) TT_EQ_U(r.fin[i], 120);
    TT_EQ_U(r.st.l1_accesses, 2);
    TT_EQ_U(r.st.merges, 4);
    TT_EQ_U(r.nsent, 1);
    rig_close(&r);
}

/* 904: queue-full back-pressure.  One queue of two tags, no merging, one
** MSHR.  One warp's load touches lines A, B, C, D (lanes 0 .. 3), inserted
** one per cycle from 10: A is sent at 11 (a miss: the MSHR), B is refused
** from 12 on (reservation failure), C takes A's freed tag at 12, and D finds
** both tags taken from 13 on: the coalescer waits -- 13 .. 111, 99 cycles --
** until A's fill at 111 frees the MSHR, B goes, and D takes its tag at 112.
** Each line then waits for the previous one's fill: they reach memory at
** 11, 111, 211, 311, and the load finishes with D's data at 411. */
static void t904_queue_full(void)
{
    rig r;
    if (!rig_open(&r, "warppool.queues=1 warppool.tags=2 warppool.merges=0 l1d.mshrs=1")) return;
    gpu_l1_free(r.l1);
    r.l1 = gpu_l1_new(&r.lc, &r.pool);
    gpu_wp_free(r.wp);
    r.wp = gpu_wp_new(&r.wc, r.l1, &r.lc, &r.pool, 0, 0, &r.st);
    gpu_wp_begin(r.wp, 0);
    mkop(&r, 0, 0, EXEC_SI_LOAD);
    for (uint32_t l = 0; l < 4; l++) lanes_to(&r, 0, 1u << l, ln(10 + l));
    gpu_wp_accept(r.wp, &r.op[0], 0, 10);
    run_to(&r, 10, 12);
    TT_EQ_U(r.st.full_stalls, 0);
    run_to(&r, 13, 111);
    TT_EQ_U(r.st.full_stalls, 99);
    run_to(&r, 112, 500);
    TT_EQ_U(r.st.full_stalls, 99);
    TT_EQ_U(r.nsent, 4);
    static const uint64_t at[4] = {11, 111, 211, 311};
    for (uint32_t k = 0; k < 4 && k < r.nsent; k++) {
        TT_EQ_U(r.sent[k], ln(10 + k));
        TT_EQ_U(r.sent_at[k], at[k]);
    }
    TT_EQ_U(r.fin[0], 411);
    /* tags in use at the end of each cycle: 10: A; 11: B (A left); 12 .. 110:
    ** B, C; 111: C (B left); 112 .. 210: C, D; 211 .. 310: D; none from 311:
    ** 1 + 1 + 99 x 2 + 1 + 99 x 2 + 100 = 499 (accounted at each change; the
    ** flush at the end adds the cycles since the last one, here none) */
    TT_EQ_U(r.st.tag_cycles, 499);
    gpu_wp_flush(r.wp, 500);
    TT_EQ_U(r.st.tag_cycles, 499);
    rig_close(&r);
}

/* 905: the policy switch at the quantum boundary.  warppool.quantum = 1000,
** auto, threshold 0.5, one MSHR.  Warp age 9's load of L0 misses at 1 (the
** MSHR) and is answered at 1000 (memory latency 999).  Warp age 7 loads P
** (inserted at 2) and warp age 3 loads Q (inserted at 3); both wait, refused.
** At 1000 the fill frees the MSHR and the first quantum ends: one access,
** one miss, rate 1 > 0.5: cache-sensitive, so the oldest warp's line, Q,
** goes first although P's request is older.  With policy oldest, P goes
** first.  The second quantum ([1000, 2000): Q and, at 1999, P -- misses)
** stays cache-sensitive; the third has one hit: back to oldest at 3000; the
** fourth has no access and keeps it. */
static void quantum_run(const char *opts, uint64_t *second, uint64_t *switches_999, uint64_t *switches_1000,
                        uint64_t *switches_end, uint64_t *cache_quanta)
{
    rig r;
    if (!rig_open(&r, opts)) return;
    gpu_l1_free(r.l1);
    r.l1 = gpu_l1_new(&r.lc, &r.pool);
    gpu_wp_free(r.wp);
    r.wp = gpu_wp_new(&r.wc, r.l1, &r.lc, &r.pool, 0, 0, &r.st);
    gpu_wp_begin(r.wp, 0);
    r.memlat = 999;
    mkop(&r, 0, 5, EXEC_SI_LOAD);
    lanes_to(&r, 0, 1, ln(100));
    mkop(&r, 1, 6, EXEC_SI_LOAD);
    lanes_to(&r, 1, 1, ln(101));
    mkop(&r, 2, 7, EXEC_SI_LOAD);
    lanes_to(&r, 2, 1, ln(102));
    mkop(&r, 3, 8, EXEC_SI_LOAD);
    lanes_to(&r, 3, 1, ln(100));
    gpu_wp_accept(r.wp, &r.op[0], 9, 0);
    run_to(&r, 0, 1);
    gpu_wp_accept(r.wp, &r.op[1], 7, 2);
    run_to(&r, 2, 2);
    gpu_wp_accept(r.wp, &r.op[2], 3, 3);
    run_to(&r, 3, 999);
    *switches_999 = r.st.mode_switches;
    run_to(&r, 1000, 1000);
    *switches_1000 = r.st.mode_switches;
    *second = r.nsent > 1 ? r.sent[1] : 0;
    TT_EQ_U(r.sent_at[1], 1000);
    run_to(&r, 1001, 2099);
    gpu_wp_accept(r.wp, &r.op[3], 1, 2100); /* a hit on L0 */
    run_to(&r, 2100, 4000);
    TT_EQ_U(r.fin[3], 2101 + LAT);
    *switches_end = r.st.mode_switches;
    *cache_quanta = r.st.cache_quanta;
    rig_close(&r);
}

static void t905_policy_switch(void)
{
    uint64_t second = 0, s999 = 9, s1000 = 9, send = 9, cq = 9;
    quantum_run("warppool.quantum=1000 warppool.miss_threshold=0.5 l1d.mshrs=1", &second, &s999, &s1000, &send, &cq);
    TT_EQ_U(s999, 0);
    TT_EQ_U(s1000, 1);
    TT_EQ_U(second, ln(102));   /* Q: the oldest warp's */
    TT_EQ_U(send, 2);           /* to cache-sensitive at 1000, back to oldest at 3000 */
    TT_EQ_U(cq, 2);             /* [1000, 2000) and [2000, 3000) ran cache-sensitive */
    quantum_run("warppool.quantum=1000 warppool.policy=oldest l1d.mshrs=1", &second, &s999, &s1000, &send, &cq);
    TT_EQ_U(second, ln(101));   /* P: the oldest request's */
    TT_EQ_U(send, 0);
    TT_EQ_U(cq, 0);
    quantum_run("warppool.quantum=1000 warppool.policy=cache_sensitive l1d.mshrs=1", &second, &s999, &s1000, &send, &cq);
    TT_EQ_U(second, ln(102));
    TT_EQ_U(send, 0);
    TT_EQ_U(cq, 4);             /* every quantum up to 4000 */
}

/* 911: the sampling period (warppool.sample).  905's scenario with the
** paper's 100,000-cycle quantum and a 1,000-cycle sampling period: the
** first decision comes at 1000, from the sample's miss rate (one access, one
** miss: cache-sensitive, Q before P), and the next boundary is 1000 +
** 100,000, so nothing switches back by 4000 and no cache-sensitive quantum
** has ended.  Without the sampling period (warppool.sample=0) the first
** decision waits for 100,000: oldest throughout, P before Q. */
static void t911_sampling_period(void)
{
    uint64_t second = 0, s999 = 9, s1000 = 9, send = 9, cq = 9;
    quantum_run("warppool.quantum=100000 warppool.sample=1000 warppool.miss_threshold=0.5 l1d.mshrs=1", &second,
                &s999, &s1000, &send, &cq);
    TT_EQ_U(s999, 0);
    TT_EQ_U(s1000, 1);
    TT_EQ_U(second, ln(102));
    TT_EQ_U(send, 1);
    TT_EQ_U(cq, 0);
    quantum_run("warppool.quantum=100000 warppool.sample=0 l1d.mshrs=1", &second, &s999, &s1000, &send, &cq);
    TT_EQ_U(s1000, 0);
    TT_EQ_U(second, ln(101));
    TT_EQ_U(send, 0);
    /* a sampling period as long as the quantum or longer changes nothing: 905's run */
    quantum_run("warppool.quantum=1000 warppool.sample=5000 warppool.miss_threshold=0.5 l1d.mshrs=1", &second, &s999,
                &s1000, &send, &cq);
    TT_EQ_U(s1000, 1);
    TT_EQ_U(send, 2);
    TT_EQ_U(cq, 2);
}

/* 912: cache-sensitive mode throttles admission (warppool.cs_lines).  A
** load of line A accepted at 0 is coalesced at 0 (one line outstanding) and
** misses (accessed at 1, answered at 101, delivered and finished then:
** memory latency 100); a second load, of B, is offered from cycle 1 on.
** With cs_lines = 1 the pool refuses it while A's line is outstanding and
** takes it at 102, the cycle after A's delivery; B then misses at 103 and
** finishes at 203.  With cs_lines = 2, with policy oldest (no throttle) or
** cs_lines = 0 it goes in at 1 and finishes at 102. */
static void throttle_run(const char *opts, uint64_t *accepted, uint64_t *fin0, uint64_t *fin1)
{
    rig r;
    *accepted = *fin0 = *fin1 = NEVER;
    if (!rig_open(&r, opts)) return;
    mkop(&r, 0, 0, EXEC_SI_LOAD);
    lanes_to(&r, 0, 1, ln(30));
    mkop(&r, 1, 1, EXEC_SI_LOAD);
    lanes_to(&r, 1, 1, ln(31));
    gpu_wp_accept(r.wp, &r.op[0], 0, 0);
    tick(&r, 0);
    for (uint64_t t = 1; t <= 400; t++) {
        if (*accepted == NEVER && gpu_wp_can_accept(r.wp, t)) {
            gpu_wp_accept(r.wp, &r.op[1], 1, t);
            *accepted = t;
        }
        tick(&r, t);
    }
    *fin0 = r.fin[0];
    *fin1 = r.fin[1];
    rig_close(&r);
}

static void t912_cs_throttle(void)
{
    uint64_t acc, f0, f1;
    throttle_run("warppool.policy=cache_sensitive warppool.cs_lines=1", &acc, &f0, &f1);
    TT_EQ_U(f0, 101);
    TT_EQ_U(acc, 102);
    TT_EQ_U(f1, 203);
    const char *open[] = {"warppool.policy=cache_sensitive warppool.cs_lines=2", "warppool.policy=oldest warppool.cs_lines=1",
                          "warppool.policy=cache_sensitive warppool.cs_lines=0"};
    for (int i = 0; i < 3; i++) {
        throttle_run(open[i], &acc, &f0, &f1);
        TT_EQ_U(acc, 1);
        TT_EQ_U(f0, 101);
        TT_EQ_U(f1, 102);
    }
}

/* 906: thread mappings.  Warp 0: lanes 0-15 in line A, 16-31 in B; warp 1:
** lanes 0-15 in B, 16-31 in C.  Warp 0's requests go in at 10 (A) and 11
** (B); warp 1's load, accepted at 11, finds B's queue taken in cycle 11 (one
** insertion per queue per cycle: a conflict) and merges into B's tag at 12,
** which is sent then; C is inserted at 13 and sent at 14.  Fills at 111,
** 112, 114: warp 0 finishes at 112, warp 1 at 114, each lane served once. */
static void t906_thread_mapping(void)
{
    rig r;
    if (!rig_open(&r, NULL)) return;
    mkop(&r, 0, 0, EXEC_SI_LOAD);
    lanes_to(&r, 0, 0x0000ffffu, ln(20));
    lanes_to(&r, 0, 0xffff0000u, ln(21));
    mkop(&r, 1, 1, EXEC_SI_LOAD);
    lanes_to(&r, 1, 0x0000ffffu, ln(21));
    lanes_to(&r, 1, 0xffff0000u, ln(22));
    gpu_wp_accept(r.wp, &r.op[0], 0, 10);
    run_to(&r, 10, 10);
    gpu_wp_accept(r.wp, &r.op[1], 1, 11);
    run_to(&r, 11, 300);
    TT_EQ_U(r.st.insert_conflicts, 1);
    TT_EQ_U(r.st.requests, 4);
    TT_EQ_U(r.st.l1_accesses, 3);
    TT_EQ_U(r.st.merges, 1);
    TT_EQ_U(r.nsent, 3);
    TT_EQ_U(r.sent_at[0], 11);
    TT_EQ_U(r.sent_at[1], 12);
    TT_EQ_U(r.sent_at[2], 14);
    TT_EQ_U(r.fin[0], 112);
    TT_EQ_U(r.fin[1], 114);
    for (int i = 0; i < 2; i++) {
        TT_EQ_U(r.op[i].lanes_done, 0xffffffffu);
        TT_EQ_U(r.op[i].deliveries, 32);
    }
    TT_EQ_U(r.st.thread_deliveries, 64);
    TT_EQ_U(r.st.delivery_errors, 0);
    /* the check catches a thread no request maps: a load whose active mask
    ** gains lane 31 after its coalescer mapped lanes 0-30 */
    mkop(&r, 2, 2, EXEC_SI_LOAD);
    lanes_to(&r, 2, 0x7fffffffu, ln(23));
    gpu_wp_accept(r.wp, &r.op[2], 2, 400);
    run_to(&r, 400, 400);
    r.op[2].active = 0xffffffffu;
    run_to(&r, 401, 600);
    TT_EQ_U(r.fin[2], 501);
    TT_EQ_U(r.op[2].deliveries, 31);
    TT_EQ_U(r.st.delivery_errors, 1);
    rig_close(&r);
}

/* 907: stores and atomics never merge.  Two warps store to one line
** (accepted 10, 11): two tags, sent at 11 and 12, each store finished when
** its access is accepted.  An atomic (accepted 20, sent 21) is answered by
** memory at 121. */
static void t907_stores_atomics(void)
{
    rig r;
    if (!rig_open(&r, NULL)) return;
    mkop(&r, 0, 0, EXEC_SI_STORE);
    lanes_to(&r, 0, 0xffffffffu, ln(30));
    mkop(&r, 1, 1, EXEC_SI_STORE);
    lanes_to(&r, 1, 0xffffffffu, ln(30));
    mkop(&r, 2, 2, EXEC_SI_LOAD | EXEC_SI_STORE | EXEC_SI_ATOMIC);
    lanes_to(&r, 2, 1, ln(31));
    gpu_wp_accept(r.wp, &r.op[0], 0, 10);
    run_to(&r, 10, 10);
    gpu_wp_accept(r.wp, &r.op[1], 1, 11);
    run_to(&r, 11, 19);
    gpu_wp_accept(r.wp, &r.op[2], 2, 20);
    run_to(&r, 20, 300);
    TT_EQ_U(r.fin[0], 11);
    TT_EQ_U(r.fin[1], 12);
    TT_EQ_U(r.fin[2], 121);
    TT_EQ_U(r.st.merges, 0);
    TT_EQ_U(r.st.l1_accesses, 3);
    TT_EQ_U(gpu_l1_stats(r.l1)->stores, 2);
    TT_EQ_U(gpu_l1_stats(r.l1)->atomics, 1);
    TT_EQ_U(r.st.thread_deliveries, 1);
    rig_close(&r);
}

/* 908: the instruction queue (warppool.inst_queue = 2, one coalescer).  A
** load with a line per lane keeps the coalescer busy 10 .. 41; two more
** loads wait in the queue (accepted 11, 12) and the queue is full from
** then until the coalescer takes the first of them at 42. */
static void t908_inst_queue(void)
{
    rig r;
    if (!rig_open(&r, "warppool.inst_queue=2 warppool.coalescers=1")) return;
    for (int i = 0; i < 3; i++) {
        mkop(&r, i, (uint16_t)i, EXEC_SI_LOAD);
        for (uint32_t l = 0; l < 32; l++) lanes_to(&r, i, 1u << l, ln(40 + 32 * (uint32_t)i + l));
    }
    gpu_wp_accept(r.wp, &r.op[0], 0, 10);
    run_to(&r, 10, 10);
    TT_CHECK(gpu_wp_can_accept(r.wp, 11));
    gpu_wp_accept(r.wp, &r.op[1], 1, 11);
    run_to(&r, 11, 11);
    gpu_wp_accept(r.wp, &r.op[2], 2, 12);
    run_to(&r, 12, 12);
    for (uint64_t t = 13; t <= 41; t++) {
        TT_CHECK(!gpu_wp_can_accept(r.wp, t));
        tick(&r, t);
    }
    TT_CHECK(!gpu_wp_can_accept(r.wp, 42));
    tick(&r, 42);
    TT_CHECK(gpu_wp_can_accept(r.wp, 43));
    run_to(&r, 43, 600);
    TT_EQ_U(r.st.requests, 96);
    TT_EQ_U(r.st.l1_accesses, 96);
    for (int i = 0; i < 3; i++) TT_CHECK(r.fin[i] != NEVER);
    rig_close(&r);
}

/* 909: MRPB's drain policy (mrpb=1: per-warp queues, no merging, one
** coalescer, an instruction queue of 1).  One MSHR: warp 5's miss holds it
** until 110 while warp 0 (lines A0, A1), warp 1 (B0, B1) and warp 0 again
** (A2) queue up.  From 110 on one line leaves per fill (every 100 cycles):
** drain sends warp 0's queue empty first (A0 A1 A2), then warp 1's; the
** oldest-first pool without merging sends A0 A1 B0 B1 A2. */
static void drain_run(const char *opts, uint64_t *order)
{
    rig r;
    if (!rig_open(&r, opts)) return;
    gpu_l1_free(r.l1);
    r.l1 = gpu_l1_new(&r.lc, &r.pool);
    gpu_wp_free(r.wp);
    r.wp = gpu_wp_new(&r.wc, r.l1, &r.lc, &r.pool, 0, 0, &r.st);
    gpu_wp_begin(r.wp, 0);
    mkop(&r, 0, 5, EXEC_SI_LOAD);
    lanes_to(&r, 0, 1, ln(60));
    mkop(&r, 1, 0, EXEC_SI_LOAD);
    lanes_to(&r, 1, 1, ln(61));
    lanes_to(&r, 1, 2, ln(62));
    mkop(&r, 2, 1, EXEC_SI_LOAD);
    lanes_to(&r, 2, 1, ln(71));
    lanes_to(&r, 2, 2, ln(72));
    mkop(&r, 3, 0, EXEC_SI_LOAD);
    lanes_to(&r, 3, 1, ln(63));
    uint64_t t = 9;
    for (int i = 0; i < 4; i++) {
        while (!gpu_wp_can_accept(r.wp, t)) tick(&r, t++);
        gpu_wp_accept(r.wp, &r.op[i], (uint64_t)i, t);
        tick(&r, t++);
    }
    run_to(&r, t, 1000);
    TT_EQ_U(r.nsent, 6);
    for (uint32_t k = 0; k < 6; k++) order[k] = r.sent[k];
    rig_close(&r);
}

static void t909_mrpb_drain(void)
{
    uint64_t o[6] = {0};
    drain_run("warppool=0 mrpb=1 l1d.mshrs=1", o);
    const uint64_t drain[6] = {ln(60), ln(61), ln(62), ln(63), ln(71), ln(72)};
    for (int k = 0; k < 6; k++) TT_EQ_U(o[k], drain[k]);
    drain_run("warppool.policy=oldest warppool.merges=0 warppool.inst_queue=1 warppool.coalescers=1 l1d.mshrs=1", o);
    const uint64_t oldest[6] = {ln(60), ln(61), ln(62), ln(71), ln(72), ln(63)};
    for (int k = 0; k < 6; k++) TT_EQ_U(o[k], oldest[k]);
}

/* 910: ticking only when something can happen (gpu_wp_next, the L1's and
** the memory's next events), accounting the skipped cycles with
** gpu_wp_account_skip, gives the same cycles and counters as ticking every
** cycle: scenario 904 (back-pressure while blocked) and 905 (a quantum
** boundary inside a blocked stretch). */
static uint64_t rig_next(rig *r, uint64_t now)
{
    uint64_t n = gpu_wp_next(r->wp, now), t = gpu_l1_next(r->l1);
    if (t < n) n = t;
    for (uint32_t k = 0; k < r->nmem; k++)
        if (r->mem_at[k] < n) n = r->mem_at[k];
    return n <= now ? now + 1 : n;
}

static void skip_scenario(bool skip, const char *opts, gpu_ldstkstats *st, uint64_t *fin, uint64_t *resfails)
{
    rig r;
    if (!rig_open(&r, opts)) return;
    gpu_l1_free(r.l1);
    r.l1 = gpu_l1_new(&r.lc, &r.pool);
    gpu_wp_free(r.wp);
    r.wp = gpu_wp_new(&r.wc, r.l1, &r.lc, &r.pool, 0, 0, &r.st);
    gpu_wp_begin(r.wp, 0);
    for (int i = 0; i < 4; i++) {
        mkop(&r, i, (uint16_t)i, EXEC_SI_LOAD);
        for (uint32_t l = 0; l < 4; l++) lanes_to(&r, i, 1u << l, ln(200 + 10 * (uint32_t)i + l));
    }
    uint64_t t = 10;
    int next_op = 0;
    while (t < 5000) {
        if (next_op < 4 && t >= 10 + 7 * (uint64_t)next_op && gpu_wp_can_accept(r.wp, t)) {
            gpu_wp_accept(r.wp, &r.op[next_op], (uint64_t)(10 - next_op), t);
            next_op++;
        }
        tick(&r, t);
        bool accepting = next_op < 4;
        uint64_t n = skip && !r.changed && !accepting ? rig_next(&r, t) : t + 1;
        if (n > 5000) n = 5000;
        if (n > t + 1) gpu_wp_account_skip(r.wp, n - t - 1);
        t = n;
    }
    gpu_wp_flush(r.wp, 5000);
    *st = r.st;
    for (int i = 0; i < 4; i++) fin[i] = r.fin[i];
    *resfails = gpu_l1_stats(r.l1)->reservation_fails + gpu_wp_resfail_skipped(r.wp);
    rig_close(&r);
}

static void t910_skip_equivalence(void)
{
    static const char *const cfgs[] = {
        "warppool.queues=2 warppool.tags=2 l1d.mshrs=2",
        "warppool.queues=4 warppool.tags=1 l1d.mshrs=1 warppool.quantum=150 warppool.miss_threshold=0.3",
        "warppool=0 mrpb=1 mrpb.queues=2 mrpb.entries=2 l1d.mshrs=3",
    };
    for (size_t c = 0; c < TP_ARRAY_LEN(cfgs); c++) {
        gpu_ldstkstats a, b;
        uint64_t fa[4], fb[4], ra = 0, rb = 1;
        skip_scenario(false, cfgs[c], &a, fa, &ra);
        skip_scenario(true, cfgs[c], &b, fb, &rb);
        TT_CHECK(memcmp(&a, &b, sizeof a) == 0);
        if (memcmp(&a, &b, sizeof a) != 0)
            printf("    cfg %zu: full %llu/%llu req %llu/%llu acc %llu/%llu tagc %llu/%llu conf %llu/%llu sw %llu/%llu cq %llu/%llu\n", c,
                   (unsigned long long)a.full_stalls, (unsigned long long)b.full_stalls, (unsigned long long)a.requests,
                   (unsigned long long)b.requests, (unsigned long long)a.l1_accesses, (unsigned long long)b.l1_accesses,
                   (unsigned long long)a.tag_cycles, (unsigned long long)b.tag_cycles, (unsigned long long)a.insert_conflicts,
                   (unsigned long long)b.insert_conflicts, (unsigned long long)a.mode_switches, (unsigned long long)b.mode_switches,
                   (unsigned long long)a.cache_quanta, (unsigned long long)b.cache_quanta);
        for (int i = 0; i < 4; i++) {
            TT_CHECK(fa[i] != NEVER);
            TT_EQ_U(fa[i], fb[i]);
        }
        TT_EQ_U(ra, rb);
        TT_CHECK(a.full_stalls > 0 || c == 2);
    }
}

/* ---- part 2: whole kernels (gpu_rig.h) ---- */

/* out[t] = a[f(t)] + t, with f(t) = t mod 32 (same: every warp reads the
** same line) or the transpose (t mod 32) * 32 + t / 32 (every warp reads
** the same 32 lines, one per lane). */
static const char *ld_ptx = HDR
    ".visible .entry same(.param .u64 a, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 31;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n  add.s32 %r4, %r3, %r1;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r4;\n  ret;\n"
    "}\n"
    ".visible .entry transpose(.param .u64 a, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<10>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 31;\n  shr.u32 %r5, %r1, 5;\n"
    "  shl.b32 %r6, %r2, 5;\n  add.s32 %r7, %r6, %r5;\n"
    "  mul.wide.u32 %rd3, %r7, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n  add.s32 %r4, %r3, %r1;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r4;\n  ret;\n"
    "}\n";

static void load_kernel(const char *opts, const char *k, uint32_t block, gpu_kstats *ks, bool *right)
{
    gpu_rig r;
    *right = false;
    if (!gpu_rig_open(&r, ld_ptx, opts, "wp.ptx")) return;
    uint64_t a = exec_mem_alloc(r.dev, 4096, 256), out = exec_mem_alloc(r.dev, 4 * block, 256);
    uint32_t *ha = exec_mem_host(r.dev, a, 4096);
    for (uint32_t i = 0; i < 1024; i++) ha[i] = i * 7 + 1;
    uint64_t p[2] = {a, out};
    TT_EQ_I(gpu_rig_launch(&r, k, 1, block, p, sizeof p, ks, NULL), EXEC_OK);
    const uint32_t *ho = exec_mem_host(r.dev, out, 4 * block);
    *right = true;
    for (uint32_t t = 0; t < block; t++) {
        uint32_t f = strcmp(k, "same") == 0 ? t % 32 : (t % 32) * 32 + t / 32;
        if (ho[t] != ha[f] + t) *right = false;
    }
    gpu_rig_close(&r);
}

/* 920: two warps read one line: the Fermi path makes two L1D accesses for
** the load, WarpPool one (the second warp's request merges: the two memory
** collectors dispatch in consecutive cycles, so the second coalescer's
** request finds the first's tag still waiting).  Stores: one line per warp
** either way.  Every lane gets its data once. */
static void t920_kernel_same_line(void)
{
    gpu_kstats ks;
    bool right;
    load_kernel(NULL, "same", 64, &ks, &right);
    TT_CHECK(right);
    TT_EQ_U(ks.l1d_accesses, 4);
    TT_EQ_U(ks.ldst.requests, 4);
    TT_EQ_U(ks.ldst.merges, 0);
    TT_EQ_U(ks.ldst.l1_access_cycles, 4);
    gpu_kstats_free(&ks);
    load_kernel("warppool=1", "same", 64, &ks, &right);
    TT_CHECK(right);
    TT_EQ_U(ks.l1d_accesses, 3);
    TT_EQ_U(ks.ldst.requests, 4);
    TT_EQ_U(ks.ldst.l1_accesses, 3);
    TT_EQ_U(ks.ldst.merges, 1);
    TT_EQ_U(ks.ldst.thread_deliveries, 64);
    TT_EQ_U(ks.ldst.delivery_errors, 0);
    gpu_kstats_free(&ks);
}

/* 921: eight warps read the same 32 lines (a transpose).  Results are the
** same with the Fermi path, a banked L1D, WarpPool (auto and each policy)
** and MRPB; WarpPool serves more than one request per L1D access, every one
** of the 256 lanes gets its data exactly once; the banked L1D serves several
** requests per cycle with one request per access.  Two identical runs give
** identical statistics. */
static void t921_kernel_transpose(void)
{
    static const char *const cfgs[] = {NULL, "l1d.banks=8", "warppool=1", "warppool=1 warppool.policy=oldest",
                                       "warppool=1 warppool.policy=cache_sensitive", "mrpb=1",
                                       "warppool=1 l1d.banks=8",
                                       /* the same front ends by name (ldst.frontend): 7.. equal 0, 1, 2, 5, 6 */
                                       "ldst.frontend=baseline", "ldst.frontend=banked l1d.banks=8",
                                       "ldst.frontend=warppool", "ldst.frontend=mrpb",
                                       "ldst.frontend=warppool l1d.banks=8"};
    static const int same_as[] = {0, 1, 2, 5, 6};
    uint64_t cyc[TP_ARRAY_LEN(cfgs)];
    gpu_ldstkstats st[TP_ARRAY_LEN(cfgs)];
    uint64_t l1d[TP_ARRAY_LEN(cfgs)];
    for (size_t c = 0; c < TP_ARRAY_LEN(cfgs); c++) {
        gpu_kstats ks, ks2;
        bool right, right2;
        load_kernel(cfgs[c], "transpose", 256, &ks, &right);
        TT_CHECK(right);
        cyc[c] = ks.cycles;
        st[c] = ks.ldst;
        l1d[c] = ks.l1d_accesses;
        /* 8 warps x 32 lines of loads, 8 x 1 line of stores */
        TT_EQ_U(ks.ldst.requests, 8 * 32 + 8);
        TT_EQ_U(ks.ldst.l1_accesses + ks.ldst.merges, ks.ldst.requests);
        TT_EQ_U(ks.l1d_accesses, ks.ldst.l1_accesses);
        TT_EQ_U(ks.ldst.delivery_errors, 0);
        bool pool = cfgs[c] && (strstr(cfgs[c], "warppool") || strstr(cfgs[c], "mrpb"));
        TT_EQ_U(ks.ldst.thread_deliveries, pool ? 256 : 0);
        if (cfgs[c] && strstr(cfgs[c], "warppool")) TT_CHECK(ks.ldst.requests_per_access > 1.0);
        if (cfgs[c] && strcmp(cfgs[c], "l1d.banks=8") == 0) {
            TT_EQ_U(ks.ldst.merges, 0);
            TT_CHECK(ks.ldst.l1_access_cycles < ks.ldst.l1_accesses);
        }
        load_kernel(cfgs[c], "transpose", 256, &ks2, &right2);
        TT_EQ_U(ks.cycles, ks2.cycles);
        TT_CHECK(memcmp(&ks.ldst, &ks2.ldst, sizeof ks.ldst) == 0);
        TT_CHECK(memcmp(ks.issue, ks2.issue, sizeof ks.issue) == 0);
        gpu_kstats_free(&ks);
        gpu_kstats_free(&ks2);
    }
    TT_CHECK(cyc[2] != cyc[0]); /* WarpPool changes the timing, not the results */
    for (size_t c = 7; c < TP_ARRAY_LEN(cfgs); c++) {
        size_t a = (size_t)same_as[c - 7];
        TT_EQ_U(cyc[c], cyc[a]);
        TT_EQ_U(l1d[c], l1d[a]);
        TT_CHECK(memcmp(&st[c], &st[a], sizeof st[c]) == 0);
    }
}

/* A timed L1D hit: k lanes' lines (lane l reads line l mod k) are loaded
** once (misses), then timed: t1 - t0 around the second load and a dependent
** add.  out[0] = t1 - t0. */
static const char *hit_ptx = HDR
    ".visible .entry hit(.param .u64 a, .param .u64 out, .param .u32 k)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r9, [k];\n"
    "  mov.u32 %r1, %tid.x;\n  rem.u32 %r2, %r1, %r9;\n"
    "  mul.wide.u32 %rd3, %r2, 128;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n  add.s32 %r4, %r3, 1;\n"
    FILL
    "  mov.u64 %rd5, %clock64;\n"
    "  ld.global.u32 %r5, [%rd4];\n  add.s32 %r6, %r5, %r4;\n"
    "  mov.u64 %rd6, %clock64;\n"
    "  sub.s64 %rd7, %rd6, %rd5;\n"
    "  st.global.u64 [%rd2], %rd7;\n  st.global.u32 [%rd2+8], %r6;\n"
    "  ret;\n"
    "}\n";

static uint64_t hit_time(const char *opts, uint32_t k)
{
    gpu_rig r;
    if (!gpu_rig_open(&r, hit_ptx, opts, "wp.ptx")) return 0;
    uint64_t a = exec_mem_alloc(r.dev, 128 * 32, 256), out = exec_mem_alloc(r.dev, 64, 256);
    struct {
        uint64_t a, out;
        uint32_t k;
    } p = {a, out, k};
    gpu_kstats ks;
    TT_EQ_I(gpu_rig_launch(&r, "hit", 1, 32, &p, 20, &ks, NULL), EXEC_OK);
    uint64_t t = *(uint64_t *)exec_mem_host(r.dev, out, 8);
    gpu_kstats_free(&ks);
    gpu_rig_close(&r);
    return t;
}

/* 922: the load issues at t0 + 1 and reaches the LD/ST unit at t0 + 2.
**   Fermi: one line per cycle from t0 + 2, the last (k-th) a hit whose data
**     is there at t0 + 2 + (k - 1) + 35, when the add issues; the clock read
**     one cycle later: t1 - t0 = k + 37 (38 for one line, 45 for eight);
**   banked L1D (8 banks): eight lines in eight banks all go at t0 + 2: 38;
**   WarpPool: the coalescer inserts line j at t0 + 2 + j, each selected a
**     cycle later: one cycle more than Fermi, k + 38 (39, 46). */
static void t922_kernel_hit_timing(void)
{
    TT_EQ_U(hit_time(NULL, 1), 38);
    TT_EQ_U(hit_time(NULL, 8), 45);
    TT_EQ_U(hit_time("l1d.banks=8", 8), 38);
    TT_EQ_U(hit_time("l1d.banks=8", 1), 38);
    TT_EQ_U(hit_time("warppool=1", 1), 39);
    TT_EQ_U(hit_time("warppool=1", 8), 46);
    TT_EQ_U(hit_time("mrpb=1", 8), 46);
    TT_EQ_U(hit_time("ldst.frontend=banked l1d.banks=8", 8), 38);
    TT_EQ_U(hit_time("ldst.frontend=warppool", 8), 46);
    TT_EQ_U(hit_time("ldst.frontend=mrpb", 8), 46);
    /* a name overrides the switches: the Fermi path one line per cycle into a banked L1D; banked with one bank */
    TT_EQ_U(hit_time("ldst.frontend=baseline l1d.banks=8", 8), 45);
    TT_EQ_U(hit_time("ldst.frontend=baseline warppool=1", 8), 45);
    TT_EQ_U(hit_time("ldst.frontend=banked", 8), 45);
}

/* 930: the front end of the options: ldst.frontend names it; auto (the
** default) takes it from the older switches, warppool=1 before mrpb=1
** before l1d.banks > 1, else baseline. */
static const char *fe_of(const char *opts)
{
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(&o);
    bool ok = !opts || tp_opts_set_list(&o, opts, TP_SRC_OVERRIDE, &e);
    TT_CHECK(ok);
    const char *n = ok ? gpu_ldst_frontend_of(&o)->name : "";
    tp_opts_free(&o);
    return n;
}

static void t930_frontend_names(void)
{
    TT_EQ_STR(fe_of(NULL), "baseline");
    TT_EQ_STR(fe_of("ldst.frontend=auto"), "baseline");
    TT_EQ_STR(fe_of("warppool=1"), "warppool");
    TT_EQ_STR(fe_of("mrpb=1"), "mrpb");
    TT_EQ_STR(fe_of("l1d.banks=8"), "banked");
    TT_EQ_STR(fe_of("warppool=1 mrpb=1 l1d.banks=8"), "warppool");
    TT_EQ_STR(fe_of("mrpb=1 l1d.banks=8"), "mrpb");
    static const char *const names[] = {"baseline", "banked", "warppool", "mrpb"};
    for (size_t i = 0; i < TP_ARRAY_LEN(names); i++) {
        char o[96];
        snprintf(o, sizeof o, "ldst.frontend=%s warppool=%d mrpb=1 l1d.banks=4", names[i], i != 2);
        TT_EQ_STR(fe_of(o), names[i]);
    }
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(&o);
    TT_CHECK(!tp_opts_set_list(&o, "ldst.frontend=fermi", TP_SRC_OVERRIDE, &e)); /* not a front end */
    tp_opts_free(&o);
}

/* 931: a fault while the LD/ST unit is sending a load's lines (the load is
** both the instruction in hand and a pending load): the launch stops, every
** record goes back once, and the next launch runs on records that are
** distinct (a record freed twice would be handed out twice). */
static const char *fault_ptx = HDR
    ".visible .entry fault(.param .u64 a, .param .u64 bad)\n"
    "{\n"
    "  .reg .b32 %r<40>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [bad];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 128;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r3, [%rd4];\n"
    FILL FILL
    "  ld.global.u32 %r4, [%rd2];\n"
    "  add.s32 %r5, %r3, %r4;\n"
    "  st.global.u32 [%rd4], %r5;\n  ret;\n"
    "}\n";

static void t931_fault_frees_once(void)
{
    static const char *const cfgs[] = {"ldst.frontend=baseline", "ldst.frontend=banked l1d.banks=8",
                                       "ldst.frontend=warppool", "ldst.frontend=mrpb"};
    for (size_t c = 0; c < TP_ARRAY_LEN(cfgs); c++) {
        gpu_rig r;
        if (!gpu_rig_open(&r, fault_ptx, cfgs[c], "fault.ptx")) continue;
        uint64_t a = exec_mem_alloc(r.dev, 128 * 32, 256);
        uint64_t p[2] = {a, 8}; /* bad: no allocation there */
        gpu_kstats ks;
        TT_EQ_I(gpu_rig_launch(&r, "fault", 1, 32, p, sizeof p, &ks, NULL), EXEC_ERR_ILLEGAL_ADDRESS);
        gpu_kstats_free(&ks);
        gpu_sm *sm = &r.g->sm[0];
        gpu_memop *m[4];
        for (int i = 0; i < 4; i++) m[i] = gpu_memop_get(sm);
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++) TT_CHECK(m[i] != m[j]);
        for (int i = 0; i < 4; i++) gpu_memop_put(sm, m[i]);
        p[1] = a;
        TT_EQ_I(gpu_rig_launch(&r, "fault", 1, 32, p, sizeof p, &ks, NULL), EXEC_OK);
        gpu_kstats_free(&ks);
        gpu_rig_close(&r);
    }
}

int main(void)
{
    TT_RUN(t901_lone_hit);
    TT_RUN(t902_two_warps_one_access);
    TT_RUN(t903_fifth_merge_waits);
    TT_RUN(t904_queue_full);
    TT_RUN(t905_policy_switch);
    TT_RUN(t911_sampling_period);
    TT_RUN(t912_cs_throttle);
    TT_RUN(t906_thread_mapping);
    TT_RUN(t907_stores_atomics);
    TT_RUN(t908_inst_queue);
    TT_RUN(t909_mrpb_drain);
    TT_RUN(t910_skip_equivalence);
    TT_RUN(t920_kernel_same_line);
    TT_RUN(t921_kernel_transpose);
    TT_RUN(t922_kernel_hit_timing);
    TT_RUN(t930_frontend_names);
    TT_RUN(t931_fault_frees_once);
    return tt_done();
}
