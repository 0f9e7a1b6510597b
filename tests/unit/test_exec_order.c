/*
** test_exec_order.c -- the order in which functional mode runs a grid
** (exec/functional.c, exec_grid_run; exec/grid.c, exec_cta_run).
**
** The rule (docs/ARCHITECTURE.md, "Functional mode"): resident CTAs take
** turns in slot order; a turn is rounds over the CTA's warps, each running up
** to exec.quantum instructions, until no warp runs, a warp yields, or the CTA
** has run exec.cta_patience instructions since it last made progress (wrote
** memory, finished a warp, opened a barrier); patience 0 is one round, the
** order tpsim had before turns.  Slots are filled as the walk reaches them,
** which must give the order of filling every empty slot before the walk.
**
** Expected values come from that rule: instruction counts from the rounds
** it allows, logs of atomic tickets from the turns, and the old order from a
** driver written here over exec.h's stepping calls.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"

/* Kernel name: lane 0 of each warp logs its CTA c at a ticket, runs n steps
** of a loop whose first instruction is first and which touches no memory (4
** instructions a step, 11 before the loop), then logs 100 + c.  comp's step
** adds; nap's sleeps (each nanosleep yields). */
#define LOGGED_LOOP(name, first)                                                                           \
    ".visible .entry " name "(.param .u64 pctr, .param .u64 plog, .param .u32 pn)\n"                      \
    "{\n"                                                                                                  \
    "  .reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<8>;\n"                                           \
    "  ld.param.u64 %rd1, [pctr]; ld.param.u64 %rd2, [plog]; ld.param.u32 %r1, [pn];\n"                   \
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r6, %laneid; setp.eq.u32 %p1, %r6, 0;\n"                           \
    "  @%p1 atom.global.add.u32 %r8, [%rd1], 1;\n"                                                        \
    "  @%p1 mul.wide.u32 %rd3, %r8, 4; @%p1 add.s64 %rd4, %rd2, %rd3; @%p1 st.global.u32 [%rd4], %r2;\n"  \
    "  mov.u32 %r7, 0;\n"                                                                                  \
    "C:\n"                                                                                                 \
    "  " first "\n"                                                                                        \
    "  add.s32 %r7, %r7, 1;\n"                                                                             \
    "  setp.lt.u32 %p2, %r7, %r1;\n"                                                                       \
    "  @%p2 bra C;\n"                                                                                      \
    "  add.s32 %r10, %r2, 100;\n"                                                                          \
    "  @%p1 atom.global.add.u32 %r8, [%rd1], 1;\n"                                                        \
    "  @%p1 mul.wide.u32 %rd3, %r8, 4; @%p1 add.s64 %rd4, %rd2, %rd3; @%p1 st.global.u32 [%rd4], %r10;\n" \
    "  ret;\n"                                                                                             \
    "}\n"

/* Each warp's lane 0 takes n + 5 x ctaid tickets from *ctr (so that CTAs end
** at different times) and writes its warp's number (ctaid x warps per CTA +
** warp) at log[ticket]. */
static const char *tick_ptx = HDR
    ".visible .entry tick(.param .u64 pctr, .param .u64 plog, .param .u32 pn)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pctr]; ld.param.u64 %rd2, [plog]; ld.param.u32 %r1, [pn];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %tid.x; shr.u32 %r3, %r3, 5;\n"
    "  mov.u32 %r4, %ntid.x; shr.u32 %r4, %r4, 5; mad.lo.s32 %r5, %r2, %r4, %r3;\n"
    "  mov.u32 %r6, %laneid; setp.eq.u32 %p1, %r6, 0;\n"
    "  mad.lo.s32 %r1, %r2, 5, %r1;\n"
    "  mov.u32 %r7, 0;\n"
    "L:\n"
    "  @%p1 atom.global.add.u32 %r8, [%rd1], 1;\n"
    "  @%p1 mul.wide.u32 %rd3, %r8, 4;\n"
    "  @%p1 add.s64 %rd4, %rd2, %rd3;\n"
    "  @%p1 st.global.u32 [%rd4], %r5;\n"
    "  add.s32 %r7, %r7, 1;\n"
    "  setp.lt.u32 %p2, %r7, %r1;\n"
    "  @%p2 bra L;\n"
    "  ret;\n"
    "}\n"
    LOGGED_LOOP("comp", "add.s32 %r9, %r9, %r7;")
    /* CTA 0 waits for *flag to become non-zero, then writes it to *out; every
    ** other CTA sets *flag to 7 */
    ".visible .entry spin(.param .u64 pflag, .param .u64 pout)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [pflag]; ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra SET;\n"
    "W:\n"
    "  ld.volatile.global.u32 %r2, [%rd1];\n"
    "  setp.eq.u32 %p2, %r2, 0;\n"
    "  @%p2 bra W;\n"
    "  st.global.u32 [%rd2], %r2;\n"
    "  ret;\n"
    "SET:\n"
    "  mov.u32 %r3, 7;\n"
    "  st.volatile.global.u32 [%rd1], %r3;\n"
    "  ret;\n"
    "}\n"
    LOGGED_LOOP("nap", "nanosleep.u32 100;");

typedef struct tparams {
    uint64_t ctr, log;
    uint32_t n;
} tparams;

/* The order before turns, written out: at the top of each walk every empty
** slot takes the next CTA, then each resident CTA's warps run one quantum
** each, in slot order. */
static exec_status old_order(exec_mod *m, const char *k, const exec_launch *l, uint32_t res, uint32_t quantum,
                             exec_result *r)
{
    exec_grid *g = exec_grid_open(m, exec_mod_kernel(m, k), l, r);
    if (!g) return r->status;
    uint64_t ncta = exec_grid_ctas(g);
    exec_cta *slot[16] = {0};
    uint32_t active = 0;
    while (exec_grid_status(g) == EXEC_OK) {
        for (uint32_t s = 0; s < res; s++)
            if (!slot[s] && exec_grid_ctas_started(g) < ncta) {
                slot[s] = exec_cta_start(g, (uint32_t)(exec_grid_ctas_started(g) % 15));
                active++;
            }
        if (!active) break;
        bool ran = false;
        for (uint32_t s = 0; s < res && exec_grid_status(g) == EXEC_OK; s++) {
            if (!slot[s]) continue;
            for (uint32_t i = 0; i < exec_cta_nwarps(slot[s]); i++)
                if (exec_warp_run(exec_cta_warp(slot[s], i), quantum)) ran = true;
            if (exec_cta_done(slot[s])) {
                exec_cta_release(slot[s]);
                slot[s] = NULL;
                active--;
            }
        }
        if (exec_grid_status(g) != EXEC_OK) break;
        exec_grid_watchdog(g, !ran && active);
    }
    return exec_grid_close(g, r);
}

/* tick's log over grid CTAs of block threads, n tickets a warp, on a device
** with opts; *nlog gets the tickets taken */
static uint32_t *tick_log(const char *opts, const char *k, uint32_t grid, uint32_t block, uint32_t n, bool old,
                          uint32_t *nlog, exec_result *res)
{
    exec_dev *d = exec_rig_dev(opts);
    exec_mod *m = exec_rig_load(d, tick_ptx, "order.ptx");
    *nlog = 0;
    if (!m) return NULL;
    uint32_t cap = grid * (block / 32) * (n + 5 * grid + 2);
    tparams p = {exec_mem_alloc(d, 4, 256), exec_mem_alloc(d, cap * 4, 256), n};
    exec_launch l = {{grid, 1, 1}, {block, 1, 1}, 0, &p, sizeof p, 0, 0};
    exec_result r;
    exec_status st = old ? old_order(m, k, &l, 3, 8, &r) : exec_launch_kernel(m, exec_mod_kernel(m, k), &l, &r);
    TT_EQ_I(st, EXEC_OK);
    if (res) *res = r;
    *nlog = *(uint32_t *)exec_mem_host(d, p.ctr, 4);
    if (*nlog > cap) *nlog = cap;
    uint32_t *log = malloc((*nlog + 1) * sizeof *log);
    memcpy(log, exec_mem_host(d, p.log, cap * 4), *nlog * sizeof *log);
    exec_mod_unload(m);
    exec_dev_destroy(d);
    return log;
}

/* With patience 0 the order is the old one, ticket for ticket: slots filled
** as the walk reaches them give the same CTAs the same turns.  Three slots,
** seven CTAs of three warps, each CTA longer than the last (slots free and
** refill in different walks), quantum 8 (about one step of the loop). */
static void t_old_order_kept(void)
{
    uint32_t na = 0, nb = 0;
    exec_result ra, rb;
    uint32_t *a = tick_log("exec.cta_patience=0 exec.resident_ctas=3 exec.quantum=8", "tick", 7, 96, 20, false, &na, &ra);
    uint32_t *b = tick_log("exec.cta_patience=0", "tick", 7, 96, 20, true, &nb, &rb);
    TT_EQ_U(na, 3 * (7 * 20 + 5 * 21)); /* 3 warps x (20 + 5c), c = 0..6 */
    TT_EQ_U(nb, na);
    uint32_t diff = 0;
    for (uint32_t i = 0; i < na && i < nb; i++) diff += a[i] != b[i];
    TT_EQ_U(diff, 0);
    TT_EQ_U(ra.warp_insns, rb.warp_insns);
    /* the order interleaves: warp 1 (CTA 0) has a ticket before warp 0's last */
    uint32_t first1 = na, last0 = 0;
    for (uint32_t i = 0; i < na; i++) {
        if (a[i] == 1 && first1 == na) first1 = i;
        if (a[i] == 0) last0 = i;
    }
    TT_CHECK(first1 < last0);
    free(a);
    free(b);
}

/* With patience, a CTA whose warps write memory at every step runs to its
** end in one turn: the tickets come CTA by CTA in linear order, its warps
** interleaved a quantum at a time (8 instructions: one step each). */
static void t_turn_to_end(void)
{
    uint32_t n = 0;
    uint32_t *a = tick_log("exec.cta_patience=64 exec.resident_ctas=3 exec.quantum=8", "tick", 7, 96, 20, false, &n, NULL);
    TT_EQ_U(n, 3 * (7 * 20 + 5 * 21));
    uint32_t back = 0;
    for (uint32_t i = 1; i < n; i++) back += a[i] / 3 < a[i - 1] / 3;
    TT_EQ_U(back, 0); /* CTAs never go back */
    uint32_t alt = 0;
    for (uint32_t i = 1; i < n; i++) alt += a[i] != a[i - 1];
    TT_CHECK(alt > 7 * 3); /* but warps inside a CTA alternate */
    free(a);
}

/* Two CTAs of one warp of kernel k (comp or nap, n steps) on a device with
** opts log, in order, want[0..3] (each CTA's start c and end 100 + c). */
static void two_ctas_log(const char *opts, const char *k, uint32_t n, const uint32_t want[4])
{
    uint32_t got = 0;
    uint32_t *a = tick_log(opts, k, 2, 32, n, false, &got, NULL);
    TT_EQ_U(got, 4);
    for (uint32_t i = 0; i < 4 && got == 4; i++) TT_EQ_U(a[i], want[i]);
    free(a);
}

/* A CTA that computes without progress gives way after patience
** instructions: with patience 64 both CTAs log their start before either
** logs its end; with patience larger than the whole loop (4 x 500 + 11
** instructions), CTA 0 ends before CTA 1 starts. */
static void t_patience_bounds_a_turn(void)
{
    static const uint32_t interleaved[4] = {0, 1, 100, 101}, one_by_one[4] = {0, 100, 1, 101};
    two_ctas_log("exec.cta_patience=64 exec.resident_ctas=2", "comp", 500, interleaved);
    two_ctas_log("exec.cta_patience=100000 exec.resident_ctas=2", "comp", 500, one_by_one);
}

/* A warp that sleeps (nanosleep) ends its CTA's turn: of two CTAs of one
** warp, each sleeping 3 times between its two log entries, CTA 1 starts
** before CTA 0 ends, at the default patience (which alone would let CTA 0
** run to its end: the loop is far shorter than 16384). */
static void t_yield_ends_turn(void)
{
    static const uint32_t interleaved[4] = {0, 1, 100, 101};
    two_ctas_log("exec.resident_ctas=2", "nap", 3, interleaved);
}

/* A grid of kernel k (tick's parameters: n steps, a log of logbytes), CTAs
** of 64 threads, opened on a device of the defaults for stepping by hand. */
typedef struct grig {
    exec_dev *d;
    exec_mod *m;
    tparams p;
    exec_launch l;
    exec_result r;
    exec_grid *g;
} grig;

static bool grig_open(grig *G, const char *k, uint32_t ctas, uint32_t n, uint64_t logbytes)
{
    G->d = exec_rig_dev(NULL);
    G->m = exec_rig_load(G->d, tick_ptx, "order.ptx");
    G->g = NULL;
    if (!G->m) return false;
    G->p = (tparams){exec_mem_alloc(G->d, 4, 256), exec_mem_alloc(G->d, logbytes, 256), n};
    G->l = (exec_launch){{ctas, 1, 1}, {64, 1, 1}, 0, &G->p, sizeof G->p, 0, 0};
    G->g = exec_grid_open(G->m, exec_mod_kernel(G->m, k), &G->l, &G->r);
    TT_CHECK(G->g != NULL);
    return G->g != NULL;
}

static uint32_t grig_tickets(grig *G) { return *(uint32_t *)exec_mem_host(G->d, G->p.ctr, 4); }

static void grig_free(grig *G)
{
    if (G->m) exec_mod_unload(G->m);
    exec_dev_destroy(G->d);
}

/* exec_cta_run's count, from the rule: one CTA of two warps of comp with
** 50 steps (11 + 200 + 6 instructions a warp, the stores among the first
** 11).  quantum 20, patience 0: one round, 40 instructions (both warps past
** their first stores).  Then quantum 5 without progress: patience 12 stops
** after the round that reaches it (10, 20: two rounds, 20), patience 20
** also after two, 21 after three (30). */
static void t_cta_run_counts(void)
{
    grig G;
    if (grig_open(&G, "comp", 1, 50, 64)) {
        exec_cta *c = exec_cta_start(G.g, 0);
        TT_EQ_U(exec_cta_run(c, 20, 0), 40);
        TT_EQ_U(grig_tickets(&G), 2);
        TT_EQ_U(exec_cta_run(c, 5, 12), 20);
        TT_EQ_U(exec_cta_run(c, 5, 20), 20);
        TT_EQ_U(exec_cta_run(c, 5, 21), 30);
        /* the rest (2 x 217 - 110 = 324), at any patience: the end's stores
        ** and the warps finishing are progress, and then no warp runs */
        TT_EQ_U(exec_cta_run(c, 7, 1000000), 324);
        TT_CHECK(exec_cta_done(c));
        TT_EQ_U(grig_tickets(&G), 4);
        exec_cta_release(c);
        TT_EQ_I(exec_grid_close(G.g, &G.r), EXEC_OK);
        TT_EQ_U(G.r.warp_insns, 2 * 217);
    }
    grig_free(&G);
}

/* A CTA spinning on another CTA's flag gives way: CTA 0 spins for its
** patience (64 rounds of 256, one warp) before CTA 1 sets the flag, then
** sees it.  With patience 0 it spins one quantum.  Alone, it is a livelock
** the watchdog reports as before. */
static void t_spin_gives_way(void)
{
    for (int k = 0; k < 3; k++) {
        const char *opts = k == 0 ? "exec.resident_ctas=2" : k == 1 ? "exec.resident_ctas=2 exec.cta_patience=0"
                                                                    : "exec.spin_limit=100000";
        exec_dev *d = exec_rig_dev(opts);
        exec_mod *m = exec_rig_load(d, tick_ptx, "order.ptx");
        if (!m) return;
        uint64_t p[2] = {exec_mem_alloc(d, 4, 256), exec_mem_alloc(d, 4, 256)};
        exec_launch l = {{k == 2 ? 1u : 2u, 1, 1}, {32, 1, 1}, 0, p, sizeof p, 0, 0};
        exec_result r;
        exec_status st = exec_launch_kernel(m, exec_mod_kernel(m, "spin"), &l, &r);
        if (k < 2) {
            TT_EQ_I(st, EXEC_OK);
            TT_EQ_U(*(uint32_t *)exec_mem_host(d, p[1], 4), 7);
            uint64_t spun = k == 0 ? 16384 : 256;
            /* CTA 0: 6 instructions, then the spin's turn; CTA 1: 8 */
            TT_CHECK(r.warp_insns >= spun + 8 && r.warp_insns < spun + 8 + 64);
        } else {
            TT_EQ_I(st, EXEC_ERR_LIVELOCK);
        }
        exec_mod_unload(m);
        exec_dev_destroy(d);
    }
}

/* exec_grid_run over more CTAs than the grid has left: it starts what there
** is and returns (7 of 100 asked), then none; the tickets are all there. */
static void t_run_past_the_end(void)
{
    grig G;
    if (grig_open(&G, "tick", 7, 2, 4096)) {
        TT_EQ_U(exec_grid_run(G.g, 100, 3, 15, 256, 16384), 7);
        TT_EQ_U(exec_grid_run(G.g, 5, 3, 15, 256, 16384), 0);
        TT_EQ_I(exec_grid_close(G.g, &G.r), EXEC_OK);
        TT_EQ_U(grig_tickets(&G), 2 * (7 * 2 + 5 * 21)); /* 2 warps x (2 + 5c), c = 0..6 */
    }
    grig_free(&G);
}

int main(void)
{
    TT_RUN(t_old_order_kept);
    TT_RUN(t_turn_to_end);
    TT_RUN(t_patience_bounds_a_turn);
    TT_RUN(t_yield_ends_turn);
    TT_RUN(t_cta_run_counts);
    TT_RUN(t_spin_gives_way);
    TT_RUN(t_run_past_the_end);
    return tt_done();
}
