/*
** gpu.c -- the GPU: its SMs and memory system, the launch loop, CTA
** dispatch and the kernel's statistics.
**
** The loop: at core cycle t, every SM due (its wake <= t) ticks, then the
** memory system advances to t, then CTAs go to SMs with room.  The next t
** is the earliest cycle at which an SM or the memory system can change
** state: cycles in between are skipped at no cost, and their statistics
** (issue-slot outcomes, resident warps) are accounted as repeats of the
** last cycle (nothing changed in them by construction).  A reply the memory
** system delivers for an SM wakes it in the next cycle.
**
** CTA dispatch: the first wave goes round robin (CTA k to SM k mod N) as
** long as SMs have room (exec_occupancy, warp and CTA slots); afterwards,
** in each cycle, SMs in index order take the next CTAs while they have room.
**
** The launch ends in the cycle the last CTA finishes with the memory system
** drained (stores included); cycles counts from the first cycle to that one.
*/
#include "internal.h"
#include "par.h"
#include "../base/map.h"
#include <math.h>
#include <stdlib.h>
#include <time.h>

gpu *gpu_new(const tp_opts *o)
{
    gpu *g = tp_calloc(1, sizeof *g);
    tp_opts_copy(&g->opts, o);
    gpu_cfg_init(&g->c, &g->opts);
    gpu_mreq_pool_init(&g->pool);
    g->ms = gpu_memsys_new(&g->opts, g->c.nsm, &g->pool);
    g->sm = tp_calloc_lines(g->c.nsm, sizeof *g->sm);
    for (uint32_t s = 0; s < g->c.nsm; s++) gpu_sm_init(&g->sm[s], g, s);
    g->due = tp_calloc(g->c.nsm ? g->c.nsm : 1, sizeof *g->due);
    return g;
}

void gpu_free(gpu *g)
{
    if (!g) return;
    gpu_par_free(g->par);
    free((void *)g->done);
    free(g->tsum);
    for (uint32_t s = 0; s < g->c.nsm; s++) gpu_sm_free(&g->sm[s]);
    free(g->sm);
    free(g->due);
    gpu_memsys_free(g->ms);
    gpu_mreq_pool_free(&g->pool);
    tp_opts_free(&g->opts);
    free(g);
}

void gpu_copy_in(gpu *g, uint64_t addr, uint64_t bytes)
{
    if (tp_opt_i(&g->opts, OPT_L2_WARM_COPIES)) gpu_memsys_warm(g->ms, addr, bytes);
}

/* ---- per-pc statistics: a map pc -> row (base/map.h) --------------------------------------- */

typedef struct pcmap {
    tp_map idx;                /* pc -> index in rows */
    gpu_pcstat *rows;
    uint32_t n, caprows;
} pcmap;

gpu_pcstat *gpu_pcrow_slow(void *map, uint32_t pc)
{
    pcmap *p = map;
    bool added;
    uint64_t *row = tp_map_ref(&p->idx, pc, &added);
    if (added) {
        if (p->n == p->caprows) {
            p->caprows = p->caprows ? p->caprows * 2 : 64;
            p->rows = tp_realloc(p->rows, p->caprows * sizeof *p->rows);
        }
        *row = p->n;
        memset(&p->rows[p->n], 0, sizeof *p->rows);
        p->rows[p->n].pc = pc;
        p->n++;
    }
    return &p->rows[*row];
}

static void pcstat_add(gpu_pcstat *to, const gpu_pcstat *from)
{
    to->issued += from->issued;
    for (int k = 0; k < GPU_ST_COUNT; k++) to->stall[k] += from->stall[k];
}

static int pc_cmp(const void *a, const void *b)
{
    uint32_t x = ((const gpu_pcstat *)a)->pc, y = ((const gpu_pcstat *)b)->pc;
    return x < y ? -1 : x > y;
}

/* ---- the kernel's counters ------------------------------------------------------------------------ */

/* Every statistic gpu/kstats.def (or a front end) says the SMs count -- in
** the SM, its L1D, its LD/ST unit or front end, or the memory system -- is
** summed by one loop over the registry: a snapshot of each source at the
** launch's start, the changes since added into the kernel's record at its
** end (a MAX row takes the largest value instead). */
typedef struct counts {
    uint64_t *v;               /* the values at the start, in the loop's order */
    uint32_t n;
} counts;

/* The struct `in` names for SM s (the memory system's: for s = 0 alone), or NULL. */
static const void *counted_in(const gpu *g, uint32_t s, uint16_t in)
{
    const gpu_sm *sm = &g->sm[s];
    switch (in) {
    case GPU_IN_SM: return sm;
    case GPU_IN_L1D: return gpu_l1_stats(sm->l1d);
    case GPU_IN_LDST: return gpu_ldst_counters(sm);
    case GPU_IN_FE: return gpu_ldst_fe_counters(sm);
    case GPU_IN_MEMSYS: return s == 0 ? gpu_memsys_stats(g->ms) : NULL;
    }
    return NULL;
}

/* Whether gpu.c sums the source (register sharing sums its own: RS_FROM). */
static bool ours(uint16_t in) { return in >= GPU_IN_SM && in <= GPU_IN_MEMSYS; }

/* The loop: at the start (ks NULL) records every source's value; at the end adds the changes into ks. */
static void count(const gpu *g, counts *c, gpu_kstats *ks)
{
    const tp_stats *reg = gpu_kstats_registry();
    uint32_t k = 0;
    if (!ks) {
        uint32_t per_sm = 0;
        for (uint32_t i = 0; i < reg->n; i++) per_sm += ours(reg->a[i].src[0].in) + ours(reg->a[i].src[1].in);
        c->n = per_sm * g->c.nsm;
        c->v = tp_malloc((c->n ? c->n : 1) * sizeof *c->v);
    }
    for (uint32_t s = 0; s < g->c.nsm; s++)
        for (uint32_t i = 0; i < reg->n; i++)
            for (int j = 0; j < 2; j++) {
                const tp_stat *st = &reg->a[i];
                if (!ours(st->src[j].in)) continue;
                const char *rec = counted_in(g, s, st->src[j].in);
                uint64_t v = rec ? *(const uint64_t *)(rec + st->src[j].off) : 0;
                if (!ks) {
                    c->v[k++] = v;
                    continue;
                }
                uint64_t *to = (uint64_t *)((char *)ks + (uintptr_t)st->p);
                if (st->rule == TP_RULE_MAX) {
                    if (v > *to) *to = v;
                } else {
                    *to += v - c->v[k];
                }
                k++;
            }
}

/* ---- the launch ----------------------------------------------------------------------------------- */

/* CTAs to SMs in cycle now, before the SMs tick (they fetch in this cycle);
** returns the next cycle one could go to an SM that has room (UINT64_MAX:
** none has, or none is left: a finishing CTA asks again).
**
** Without limits (cta.sm_interval = cta.gpu_interval = 0) every CTA that
** fits goes at once: the first wave round robin (CTA k to SM k mod N), later
** ones to the SMs in index order.  With them, the SMs are visited round
** robin from the one after the SM that took the last CTA (GPGPU-Sim's
** order); an SM takes one if cta.sm_interval cycles have passed since its
** last and the distributor is free: it takes cta.gpu_interval cycles per
** CTA, counted in thousandths of a cycle so that fractional intervals stay
** exact and deterministic (a distributor that became free in the last cycle
** keeps the fraction; one idle longer banks no time). */
static uint64_t dispatch(gpu *g, gpu_launchctx *lx, uint64_t now, bool first_wave)
{
    const gpu_cfg *c = &g->c;
    uint32_t nsm = c->nsm;
    if (lx->ctas_started == lx->ctas) return UINT64_MAX;
    uint64_t gm = (uint64_t)llround(c->cta_gpu_interval * 1000.0);
    if (!c->cta_sm_interval && !gm) {
        if (first_wave) {
            bool any = true;
            while (any) {
                any = false;
                for (uint32_t s = 0; s < nsm; s++) {
                    if (!gpu_sm_can_take_cta(&g->sm[s])) continue;
                    exec_cta *ec = exec_cta_start(lx->grid, s);
                    if (!ec) return UINT64_MAX;
                    lx->ctas_started++;
                    gpu_sm_take_cta(&g->sm[s], ec, now);
                    any = true;
                }
            }
            return UINT64_MAX;
        }
        for (uint32_t s = 0; s < nsm; s++)
            while (gpu_sm_can_take_cta(&g->sm[s])) {
                exec_cta *ec = exec_cta_start(lx->grid, s);
                if (!ec) return UINT64_MAX;
                lx->ctas_started++;
                gpu_sm_take_cta(&g->sm[s], ec, now);
            }
        return UINT64_MAX;
    }
    uint64_t nowm = now * 1000;
    bool took = true;
    while (took && lx->ctas_started < lx->ctas) {
        took = false;
        uint32_t first = lx->dispatch_rr + 1;
        for (uint32_t k = 0; k < nsm && lx->ctas_started < lx->ctas; k++) {
            uint32_t s = (first + k) % nsm;
            gpu_sm *sm = &g->sm[s];
            if (sm->cta_next > now || lx->dist_at > nowm || !gpu_sm_can_take_cta(sm)) continue;
            exec_cta *ec = exec_cta_start(lx->grid, s);
            if (!ec) {
                lx->ctas_started = lx->ctas;
                return UINT64_MAX;
            }
            lx->ctas_started++;
            gpu_sm_take_cta(sm, ec, now);
            sm->cta_next = now + c->cta_sm_interval;
            /* a distributor that became free within the last cycle keeps its fraction of a cycle */
            if (gm) lx->dist_at = (lx->dist_at + 1000 > nowm ? lx->dist_at : nowm) + gm;
            lx->dispatch_rr = s;
            took = true;
        }
    }
    if (lx->ctas_started == lx->ctas) return UINT64_MAX;
    uint64_t next = UINT64_MAX, d = (lx->dist_at + 999) / 1000;
    for (uint32_t s = 0; s < nsm; s++) {
        const gpu_sm *sm = &g->sm[s];
        if (!gpu_sm_can_take_cta(sm)) continue;
        uint64_t t = sm->cta_next > d ? sm->cta_next : d;
        if (t < next) next = t;
    }
    return next <= now ? now + 1 : next;
}

/* An SM that polls for room to send, asleep past the next cycle: woken when
** its injection queue has room again. */
static inline void poll_send(gpu_sm *sm, uint64_t now)
{
    if (sm->wake <= now + 1) return;
    uint64_t t = gpu_ldst_send_wake(sm, now + 1);
    if (t < sm->wake) sm->wake = t;
}

/* After a fault: forget the SMs' work and let the memory system drain. */
static void abort_launch(gpu *g)
{
    for (uint32_t s = 0; s < g->c.nsm; s++) {
        gpu_sm *sm = &g->sm[s];
        for (uint32_t i = 0; i < g->c.max_warps; i++) {
            sm->warps[i].state = GPU_W_FREE;
            sm->warps[i].stores_out = sm->warps[i].stores_orphan = 0; /* the drain drops their acks */
        }
        memset(sm->fetch_want, 0, (g->c.max_warps + 63) / 64 * sizeof *sm->fetch_want);
        for (uint32_t i = 0; i < g->c.max_ctas; i++) {
            sm->ctas[i].ec = NULL;
            sm->ctas[i].pending = false;
        }
        sm->npending = 0;
        for (uint32_t i = 0; i < sm->ncu; i++) {
            if (sm->cu[i].busy && sm->cu[i].mop) gpu_memop_put(sm, sm->cu[i].mop);
            sm->cu[i].busy = 0;
        }
        sm->ncu_busy = 0;
        sm->cu_mem_wait = false;
        for (int k = 0; k < GPU_OC_COUNT; k++) sm->oc_free[k] = g->c.oc[k];
        memset(sm->tensor_waiting, 0, g->c.nsched * sizeof *sm->tensor_waiting);
        memset(sm->mem_held, 0, g->c.nsched * sizeof *sm->mem_held);
        sm->issue_memo = false;
        for (uint32_t q = 0; q < g->c.nsched; q++) {
            gpu_sched *sc = &sm->sched[q];
            sc->n = sc->nact = 0;
            for (int k = 0; k < GPU_OC_COUNT; k++) memset(sc->ubk[k], 0, (g->c.max_warps + 63) / 64 * sizeof(uint64_t));
            sc->last = sc->last_pos = sc->last_act = -1;
        }
        sm->nctas = sm->nwarps_live = 0;
        sm->nrel = 0; /* exec_grid_close gives every resident CTA's slot back */
        sm->pc_skip = 0;
        sm->nwb = 0;
        gpu_ldst_abort(sm);
    }
    /* drain: replies are dropped */
    for (uint64_t guard = 0; guard < 100000000; guard++) {
        bool busy = !gpu_memsys_idle(g->ms);
        for (uint32_t s = 0; s < g->c.nsm; s++) {
            gpu_sm *sm = &g->sm[s];
            gpu_mreq *r;
            while ((r = gpu_memsys_pop(g->ms, s, g->cycle))) gpu_l1_fill(r->src ? sm->l1c : sm->l1d, r, g->cycle);
            while ((r = gpu_l1_pop_done(sm->l1d, g->cycle))) gpu_mreq_put(sm->pool, r);
            while ((r = gpu_l1_pop_done(sm->l1c, g->cycle))) gpu_mreq_put(sm->pool, r);
            gpu_ldst_send(sm, g->cycle);
            if (!gpu_l1_idle(sm->l1d) || !gpu_l1_idle(sm->l1c)) busy = true;
        }
        if (!busy) break;
        gpu_memsys_tick(g->ms, g->cycle);
        g->cycle++;
    }
}

/* ---- parallel SMs (sim.threads; docs/TIMING.md, "Parallel SMs") ------------------------------- */

/* sim.share; with auto, cycles with fewer SMs due run on the launch's thread
** (a fork and join costs more). */
enum { SHARE_AUTO, SHARE_ALWAYS, SHARE_INLINE, PAR_MIN_SMS = 4 };

/* A cycle of the SMs in g->due[0, n).  Thread t of nt owns the SMs
** [nsm t / nt, nsm (t + 1) / nt) in every cycle, so that an SM's state stays
** in one core's caches.  It runs their front parts, then their issue stages
** in SM order: an instruction that touches only its warp (exec_sinfo.alone)
** runs at once, anything else (every instruction when `ordered`) first waits
** for the turn -- every lower thread has run all its issue stages.  Then it
** adds its SMs' counts up in SM order (a partial sum of its own), says it is
** done and runs their back parts; the launch's thread adds the partial sums
** to the launch's in thread order after the join. */
typedef struct par_cycle {
    gpu *g;
    uint64_t now;
    uint32_t n, nt;
    bool ordered;              /* every issue stage waits for the turn first */
} par_cycle;

/* Thread t's SMs among the due ones: g->due[*a, *b). */
static void par_share(const par_cycle *c, uint32_t t, uint32_t *a, uint32_t *b)
{
    const gpu *g = c->g;
    uint32_t lo = g->c.nsm * t / c->nt, hi = g->c.nsm * (t + 1) / c->nt, i = 0;
    while (i < c->n && g->due[i] < lo) i++;
    *a = i;
    while (i < c->n && g->due[i] < hi) i++;
    *b = i;
}

static void par_cycle_run(void *arg, uint32_t t)
{
    const par_cycle *c = arg;
    gpu *g = c->g;
    const uint64_t now = c->now;
    gpu_turn tw = {g->done, g->par_gen, t, t == 0};
    uint32_t a, b;
    par_share(c, t, &a, &b);
    for (uint32_t i = a; i < b; i++) gpu_sm_tick_front(&g->sm[g->due[i]], now);
    if (c->ordered && !tw.held) gpu_turn_wait(&tw);
    for (uint32_t i = a; i < b; i++) {
        gpu_sm *sm = &g->sm[g->due[i]];
        sm->turn = &tw;
        gpu_sm_tick_issue(sm, now);
        sm->turn = NULL;
    }
    for (uint32_t i = a; i < b; i++) gpu_sm_flush_to(&g->sm[g->due[i]], &g->tsum[t], g->c.nsm + t);
    gpu_turn_done(&tw);
    for (uint32_t i = a; i < b; i++) gpu_sm_tick_back(&g->sm[g->due[i]], now);
}

/* sim.share=inline: the parallel order on this thread, as far from the
** serial order as the team may go -- every front part, then every issue
** stage, then every flush, then every back part. */
static void par_cycle_inline(par_cycle *c)
{
    gpu *g = c->g;
    for (uint32_t i = 0; i < c->n; i++) gpu_sm_tick_front(&g->sm[g->due[i]], c->now);
    for (uint32_t i = 0; i < c->n; i++) gpu_sm_tick_issue(&g->sm[g->due[i]], c->now);
    for (uint32_t i = 0; i < c->n; i++) gpu_sm_flush(&g->sm[g->due[i]]);
    for (uint32_t i = 0; i < c->n; i++) gpu_sm_tick_back(&g->sm[g->due[i]], c->now);
}

/* Ticks the SMs due at now in index order (the launch loop's own way). */
static uint32_t tick_serial(gpu *g, uint64_t now)
{
    uint32_t fin = 0;
    for (uint32_t s = 0; s < g->c.nsm; s++)
        if (g->sm[s].wake <= now) fin += gpu_sm_tick(&g->sm[s], now);
    return fin;
}

/* Ticks the SMs due at now as gpu_sm_tick in index order would: each SM on
** its own thread of the team, what the SMs share (the instructions that are
** not alone, the counts) in SM order (par_cycle_run).  Returns the CTAs that
** finished. */
static uint32_t tick_parallel(gpu *g, uint64_t now)
{
    uint32_t n = 0, fin = 0;
    for (uint32_t s = 0; s < g->c.nsm; s++)
        if (g->sm[s].wake <= now) g->due[n++] = s;
    if (n < (g->c.sim_share == SHARE_AUTO ? PAR_MIN_SMS : 2)) { /* too little to share: the same parts, in turn, here */
        for (uint32_t i = 0; i < n; i++) fin += gpu_sm_tick(&g->sm[g->due[i]], now);
        return fin;
    }
    /* the livelock watchdog counts exactly only with the SMs merged in turn:
    ** near its limit a cycle runs the serial way */
    const gpu_launchctx *lx = g->sm[g->due[0]].lx;
    uint64_t steps = (uint64_t)g->c.nsm * g->c.nsched * g->c.issue_width;
    if (exec_grid_spin_room(lx->grid) <= steps) return tick_serial(g, now);
    par_cycle c = {.g = g, .now = now, .n = n, .nt = g->par ? gpu_par_threads(g->par) : TP_MIN(g->c.sim_threads, g->c.nsm),
                   .ordered = !exec_grid_parallel_ok(lx->grid)};
    if (g->par) {
        g->par_gen++;
        gpu_par_run(g->par, par_cycle_run, &c);
        /* the threads' partial sums into the launch's, in thread order */
        for (uint32_t t = 0; t < c.nt; t++) {
            gpu_tsum_to_ks(lx->ks, &g->tsum[t]);
            exec_grid_merge(lx->grid, g->c.nsm + t);
        }
    } else {
        par_cycle_inline(&c);
    }
    for (uint32_t i = 0; i < n; i++) fin += g->sm[g->due[i]].finished;
    return fin;
}

/* With a pool per SM, requests one side makes and the other frees (stores
** the memory system performs, ...) pile up on one side: each cycle an SM's
** pool keeps between POOL_LO and POOL_HI free requests, the memory system's
** pool taking the rest and giving the shortfall while it has some. */
enum { POOL_LO = 256, POOL_HI = 1024 };

static void pools_rebalance(gpu *g)
{
    for (uint32_t s = 0; s < g->c.nsm; s++) {
        gpu_mreq_pool *p = g->sm[s].pool;
        if (p->nfree > POOL_HI) gpu_mreq_pool_move(p, &g->pool, (uint32_t)(p->nfree - POOL_LO));
        else if (p->nfree < POOL_LO / 4 && g->pool.nfree) gpu_mreq_pool_move(&g->pool, p, POOL_LO - (uint32_t)p->nfree);
    }
}

/* Whether the team pays (sim.share=auto): the host time of a window of
** CTL_STEPS loop steps is measured on the launch's thread alone, then on the
** team; the team's window ends early once it has taken longer than the
** other.  The faster way runs the next `keep` windows (CTL_KEEP, doubled
** after each loss of the team up to CTL_KEEP_MAX, so that a loaded host
** pays little for asking again), then both are measured again.  (A host
** with more busy threads than cores makes every fork and join wait for a
** time slice.)  Both ways give the same cycles and statistics, so this
** choice, the one thing here that depends on the host, changes only the
** time a launch takes. */
enum { CTL_STEPS = 2048, CTL_CHECK = 64, CTL_KEEP = 16, CTL_KEEP_MAX = 4096 };

typedef enum { CTL_ONE, CTL_TEAM, CTL_RUN } ctl_phase;

typedef struct par_ctl {
    ctl_phase phase;           /* measuring one thread, measuring the team, running the choice */
    bool on;                   /* this window runs on the team */
    uint32_t steps, window, keep;
    double t0, t_one;          /* the window's start; one thread's window (seconds) */
} par_ctl;

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void par_ctl_init(par_ctl *c)
{
    memset(c, 0, sizeof *c);
    c->phase = CTL_ONE;
    c->keep = CTL_KEEP;
    c->t0 = host_seconds();
}

/* After a loop step: the next window's way when this one is over. */
static void par_ctl_step(par_ctl *c)
{
    ++c->steps;
    if (c->phase == CTL_TEAM && c->steps % CTL_CHECK == 0 && c->steps < CTL_STEPS) {
        double t = host_seconds();
        if (t - c->t0 > c->t_one) { /* already slower: one thread it is */
            c->on = false;
            c->phase = CTL_RUN;
            c->window = 0;
            c->keep = TP_MIN(2 * c->keep, CTL_KEEP_MAX);
            c->steps = 0;
            c->t0 = t;
        }
        return;
    }
    if (c->steps < CTL_STEPS) return;
    double t = host_seconds();
    switch (c->phase) {
    case CTL_ONE:
        c->t_one = t - c->t0;
        c->phase = CTL_TEAM;
        c->on = true;
        break;
    case CTL_TEAM: /* it was not slower */
        c->phase = CTL_RUN;
        c->window = 0;
        c->keep = CTL_KEEP;
        break;
    case CTL_RUN:
        if (++c->window == c->keep) {
            c->phase = CTL_ONE;
            c->on = false;
        }
        break;
    }
    c->steps = 0;
    c->t0 = t;
}

static void interval_row(gpu *g, gpu_launchctx *lx, uint64_t now, const gpu_memstats *ms0, gpu_interval *prev)
{
    gpu_kstats *ks = lx->ks;
    gpu_interval r;
    memset(&r, 0, sizeof r);
    r.cycle = now - lx->start;
    r.warp_insns = ks->warp_insns;
    r.thread_insns = ks->thread_insns;
    const gpu_memstats *ms = gpu_memsys_stats(g->ms);
    r.l2_misses = ms->l2_misses - ms0->l2_misses;
    r.dram_reads = ms->dram_reads - ms0->dram_reads;
    r.dram_writes = ms->dram_writes - ms0->dram_writes;
    r.l2_accesses = ms->l2_accesses - ms0->l2_accesses;
    r.l2_hits = ms->l2_hits - ms0->l2_hits;
    for (uint32_t s = 0; s < g->c.nsm; s++) {
        gpu_sm_account_skip(&g->sm[s], now + 1);
        r.l1d_misses += gpu_l1_stats(g->sm[s].l1d)->misses;
        r.l1d_accesses += gpu_l1_stats(g->sm[s].l1d)->accesses;
        r.l1d_hits += gpu_l1_stats(g->sm[s].l1d)->hits;
        r.resident_warps += g->sm[s].resident_warp_cycles;
    }
    /* rows hold the interval's own counts: differences with the running totals */
    gpu_interval tot = r;
    r.warp_insns -= prev->warp_insns;
    r.thread_insns -= prev->thread_insns;
    r.l1d_misses -= prev->l1d_misses;
    r.l2_misses -= prev->l2_misses;
    r.dram_reads -= prev->dram_reads;
    r.dram_writes -= prev->dram_writes;
    r.resident_warps -= prev->resident_warps;
    r.l1d_accesses -= prev->l1d_accesses;
    r.l1d_hits -= prev->l1d_hits;
    r.l2_accesses -= prev->l2_accesses;
    r.l2_hits -= prev->l2_hits;
    *prev = tot;
    ks->intervals = tp_realloc(ks->intervals, (ks->nintervals + 1) * sizeof *ks->intervals);
    ks->intervals[ks->nintervals++] = r;
}

exec_status gpu_launch(gpu *g, exec_mod *m, int kernel, const exec_launch *l, exec_result *r, gpu_kstats *ks,
                       gpu_progress_fn progress, void *arg)
{
    exec_grid *grid = exec_grid_open(m, kernel, l, r);
    if (!grid) return r->status;
    exec_grid_set_clock_mhz(grid, g->c.core_mhz);
    rs_grid_begin(grid); /* register sharing: the kernel's policy (the SMs may hand out sections) */
    pcmap pm;
    memset(&pm, 0, sizeof pm);
    /* on lines of its own (not the stack, which this thread keeps writing):
    ** parallel SMs read it in every tick */
    gpu_launchctx *lx = tp_calloc_lines(1, sizeof *lx);
    lx->g = g;
    lx->grid = grid;
    lx->m = m;
    lx->occ = exec_grid_occ(grid);
    lx->ctas_per_sm = lx->occ->ctas_per_sm ? lx->occ->ctas_per_sm : 1;
    lx->ctas = exec_grid_ctas(grid);
    lx->local_bytes = exec_grid_local_bytes(grid);
    lx->ks = ks;
    lx->pcmap = &pm;
    {
        /* the kernel's own instructions have rows in an array */
        const ptx_func *kf = &exec_mod_ptx(m)->funcs[kernel];
        lx->pc_lo = kf->start;
        lx->pc_hi = g->c.stats_pc ? kf->end : kf->start;
        lx->pcdirect = tp_calloc(lx->pc_hi - lx->pc_lo + 1, sizeof *lx->pcdirect);
        for (uint32_t pc = lx->pc_lo; pc < lx->pc_hi; pc++) lx->pcdirect[pc - lx->pc_lo].pc = pc;
        for (uint32_t s = 0; s < g->c.nsm; s++) {
            g->sm[s].pcdirect = tp_calloc(lx->pc_hi - lx->pc_lo + 1, sizeof *lx->pcdirect);
            g->sm[s].pcmap = tp_calloc(1, sizeof(pcmap));
        }
    }
    uint64_t start = g->cycle, now = start;
    lx->start = start;
    uint32_t nsm = g->c.nsm;
    /* l1d.carveout = driver: the L1D gets what the kernel's shared memory leaves */
    uint32_t l1d_bytes = gpu_cfg_l1d_bytes(&g->c, lx->occ);
    for (uint32_t s = 0; s < nsm; s++) gpu_l1_resize(g->sm[s].l1d, l1d_bytes);
    for (uint32_t s = 0; s < nsm; s++) gpu_sm_begin(&g->sm[s], lx, start);
    gpu_sample_begin(g, lx); /* sample.mode=cta|both: gpu/sample.c */
    counts cnt;
    count(g, &cnt, NULL);
    gpu_memstats ms0 = *gpu_memsys_stats(g->ms);
    gpu_interval prev;
    memset(&prev, 0, sizeof prev);
    for (uint32_t s = 0; s < nsm; s++) {
        const gpu_l1stats *a = gpu_l1_stats(g->sm[s].l1d);
        prev.l1d_misses += a->misses;
        prev.l1d_accesses += a->accesses;
        prev.l1d_hits += a->hits;
    }
    uint64_t next_interval = g->c.stats_interval ? start + g->c.stats_interval : UINT64_MAX;
    /* the watchdog every 64 K cycles; the progress line (which reads the
    ** clock and prints at most twice a second) every 1 K, so that it shows
    ** half a second into a kernel even when a cycle is slow to simulate */
    uint64_t next_check = start + 65536, next_progress = start + 1024;

    /* parallel SMs: the team (made once), unless exec.its (its warps' next
    ** instruction may settle thread groups: the whole cycle stays in order) */
    bool par = g->c.sim_threads > 1 && nsm > 1 && !tp_opt_i(&g->opts, OPT_EXEC_ITS);
    /* each SM counts its instructions apart (gpu_sm_flush), and each team thread adds its SMs' up */
    exec_grid_contexts(grid, nsm + g->c.sim_threads);
    bool inl = g->c.sim_share == SHARE_INLINE;
    if (par && !inl && !g->par) {
        g->par = gpu_par_new(g->c.sim_threads < nsm ? g->c.sim_threads : nsm);
        if (g->par) {
            uint32_t nt = gpu_par_threads(g->par);
            g->done = tp_calloc_lines((size_t)nt * 8, sizeof *g->done);
            g->tsum = tp_calloc_lines(nt, sizeof *g->tsum);
        }
    }
    par = par && (g->par || inl);
    par_ctl ctl;
    if (par) par_ctl_init(&ctl);
    lx->dispatch_rr = nsm - 1; /* SM 0 first */
    lx->dispatch_next = now;
    bool first_wave = true;
    /* One thread, no sampler, up to 64 SMs: the walk that ticks the SMs also
    ** finds their least wake, and the SMs that poll for room to send are
    ** kept on a mask (an SM's send_poll changes only in its tick), so the
    ** walk after the memory system's tick visits only those: the SMs' wakes
    ** move between the two walks only there and in the reply loop, which
    ** lowers the least wake as it goes.  (A sampler may run CTAs between the
    ** walks, more threads share the ticks: those keep the second walk.) */
    bool least_kept = !par && !lx->smp && g->c.sim_threads <= 1 && nsm <= 64;
    uint64_t polls = 0;   /* least_kept: the SMs whose last tick left send_poll set */
    for (;;) {
        if (lx->dispatch_next <= now) {
            /* CTAs go to SMs with room before they tick, and fetch in this cycle */
            lx->dispatch_next = dispatch(g, lx, now, first_wave);
            first_wave = false;
        }
        uint32_t fin = 0;
        uint64_t least = UINT64_MAX;   /* least_kept: the least wake of the SMs */
        if (par) {
            fin = ctl.on || g->c.sim_share != SHARE_AUTO ? tick_parallel(g, now) : tick_serial(g, now);
            par_ctl_step(&ctl);
        } else if (least_kept) {
            for (uint32_t s = 0; s < nsm; s++) {
                gpu_sm *sm = &g->sm[s];
                if (sm->wake <= now) {
                    fin += gpu_sm_tick(sm, now);
                    polls = sm->send_poll ? polls | 1ull << s : polls & ~(1ull << s);
                }
                if (sm->wake < least) least = sm->wake;
            }
        } else {
            for (uint32_t s = 0; s < nsm; s++)
                if (g->sm[s].wake <= now) fin += gpu_sm_tick(&g->sm[s], now);
        }
        gpu_memsys_tick(g->ms, now);
        if (g->c.sim_threads > 1) pools_rebalance(g);
        if (lx->fault || exec_grid_status(grid) != EXEC_OK) break;
        if (fin) {
            lx->ctas_done += fin;
            if (lx->dispatch_next > now + 1) lx->dispatch_next = now + 1; /* a slot is free */
            if (lx->smp) gpu_sample_ctas_done(g, lx, now); /* may run CTAs functionally */
        }
        bool all_idle = lx->ctas_done == lx->ctas && gpu_memsys_idle(g->ms);
        for (uint32_t s = 0; s < nsm && all_idle; s++) all_idle = gpu_sm_idle(&g->sm[s]);
        if (all_idle) break;
        /* the memory system's next event but the replies waiting for the
        ** SMs, which the loop below puts in the SMs' wakes (an SM's wake is
        ** then at most its reply's cycle, or now + 1) */
        uint64_t next = gpu_memsys_next_inside(g->ms);
        if (lx->ctas_started < lx->ctas && lx->dispatch_next < next) next = lx->dispatch_next;
        /* a reply wakes it in the cycle a busy SM would take it (only SMs
        ** with replies waiting are on the mask).  The replies reach an SM's
        ** ejection queue in the order of their ready times, and only its
        ** own pops take its head: so the reply cycle last found (reply_lb)
        ** stays at or before its next reply's, and an SM due by then needs
        ** no new look (the line below would leave its wake as it is). */
        const uint64_t *rm = gpu_memsys_reply_mask(g->ms);
        for (uint32_t w = 0; w < (nsm + 63) / 64; w++)
            for (uint64_t bits = rm[w]; bits; bits &= bits - 1) {
                uint32_t s = w * 64 + (uint32_t)__builtin_ctzll(bits);
                gpu_sm *sm = &g->sm[s];
                if (sm->wake == now + 1 || sm->wake <= sm->reply_lb) continue;   /* already the earliest the line below sets */
                uint64_t r = gpu_memsys_reply_at(g->ms, s);
                if (r == UINT64_MAX) {
                    gpu_memsys_reply_none(g->ms, s);   /* its queue is empty: off the mask */
                    continue;
                }
                sm->reply_lb = r;
                if (r < sm->wake) sm->wake = r > now ? r : now + 1;
                if (sm->wake < least) least = sm->wake;
            }
        bool skip = g->c.sim_skip;   /* read once: the loop's calls and stores could alias it */
        if (least_kept) {
            for (uint64_t bits = polls; bits; bits &= bits - 1) {
                gpu_sm *sm = &g->sm[__builtin_ctzll(bits)];
                poll_send(sm, now);
                if (sm->wake < least) least = sm->wake;
            }
            if (least < next) next = least;
        } else {
            for (uint32_t s = 0; s < nsm; s++) {
                gpu_sm *sm = &g->sm[s];
                if (sm->send_poll) poll_send(sm, now);
                if (sm->wake < next) next = sm->wake;
            }
        }
        if (!skip) {   /* sim.skip=0: every SM ticks every cycle */
            for (uint32_t s = 0; s < nsm; s++) g->sm[s].wake = now + 1;
            next = now + 1;
        }
        if (now >= next_interval) {
            interval_row(g, lx, now, &ms0, &prev);
            next_interval += g->c.stats_interval;
        }
        if (next == UINT64_MAX) {
            /* nothing can ever happen again, yet the grid has not finished */
            exec_grid_watchdog(grid, true);
            if (exec_grid_status(grid) == EXEC_OK) {
                r->status = EXEC_ERR_DEADLOCK;
            }
            break;
        }
        if (next <= now) next = now + 1;
        ks->sim_cycles_skipped += next - now - 1;
        if (next >= next_check) {
            if (exec_grid_watchdog(grid, false) != EXEC_OK) break;
            next_check = next + 65536;
        }
        if (progress && next >= next_progress) {
            progress(arg, exec_grid_kernel_name(grid), lx->ctas_done, lx->ctas, next - start, ks->warp_insns);
            next_progress = next + 1024;
        }
        now = next;
    }
    bool failed = lx->fault || exec_grid_status(grid) != EXEC_OK;
    for (uint32_t s = 0; s < nsm; s++) gpu_sm_account_skip(&g->sm[s], now + 1);
    if (g->c.stats_interval && !failed && (ks->nintervals == 0 || ks->intervals[ks->nintervals - 1].cycle != now - start))
        interval_row(g, lx, now, &ms0, &prev);
    g->cycle = now + 1;

    /* the kernel's statistics: what is set, the front ends' ends, the counters, the ratios */
    ks->cycles = now - start + 1;
    gpu_sample_end(g, lx, ks, failed); /* adds projected cycles, if any */
    ks->launch_cycles = g->c.launch_min_cycles > ks->cycles ? g->c.launch_min_cycles - ks->cycles : 0;
    if (ks->launch_cycles < g->c.launch_cycles) ks->launch_cycles = g->c.launch_cycles;
    g->cycle += ks->launch_cycles; /* the GPU's clock is the program's: the launch takes this time too */
    ks->regs_per_thread = lx->occ->regs_per_thread;
    ks->ctas_per_sm = lx->occ->ctas_per_sm;
    ks->l1d_capacity = l1d_bytes;
    ks->occupancy_limit = tp_strdup(exec_occ_limit_name(lx->occ->limit));
    ks->warp_slot_cycles = ks->cycles * nsm * g->c.max_warps;
    ks->sm_cycles = ks->cycles * nsm;
    for (uint32_t s = 0; s < nsm; s++) {
        rs_sm_stats(&g->sm[s].rs, &ks->regs);
        gpu_ldst_stats(&g->sm[s], ks, now);
    }
    count(g, &cnt, ks);
    free(cnt.v);
    rs_stats_end(exec_grid_kernel(grid), &ks->regs, &(rs_end){lx->occ, ks->cycles, nsm, g->c.max_warps, &g->opts});
    tp_stats_ratios_at(gpu_kstats_registry(), ks);
    /* the SMs' rows added up, then the rows with anything in them, by pc */
    for (uint32_t s = 0; s < nsm; s++) {
        gpu_sm *sm = &g->sm[s];
        for (uint32_t pc = lx->pc_lo; pc < lx->pc_hi; pc++) pcstat_add(&lx->pcdirect[pc - lx->pc_lo], &sm->pcdirect[pc - lx->pc_lo]);
        pcmap *sp = sm->pcmap;
        for (uint32_t i = 0; i < sp->n; i++) pcstat_add(gpu_pcrow_slow(&pm, sp->rows[i].pc), &sp->rows[i]);
        free(sp->rows);
        tp_map_free(&sp->idx);
        free(sp);
        free(sm->pcdirect);
        sm->pcmap = NULL;
        sm->pcdirect = NULL;
    }
    for (uint32_t pc = lx->pc_lo; pc < lx->pc_hi; pc++) {
        const gpu_pcstat *d = &lx->pcdirect[pc - lx->pc_lo];
        bool any = d->issued != 0;
        for (int k = 0; k < GPU_ST_COUNT; k++) any = any || d->stall[k];
        if (any) *gpu_pcrow_slow(&pm, pc) = *d;
    }
    free(lx->pcdirect);
    if (pm.n) {
        qsort(pm.rows, pm.n, sizeof *pm.rows, pc_cmp);
        const ptx_module *pp = exec_mod_ptx(m);
        for (uint32_t i = 0; i < pm.n; i++) {
            uint32_t pc = pm.rows[i].pc;
            const ptx_func *f = ptx_func_of_pc(pp, pc);
            tp_sbuf b;
            tp_sbuf_init(&b);
            if (f) {
                tp_sbuf_printf(&b, "%s+%u: ", f->name, pc - f->start);
                ptx_insn_print(pp, f, &pp->insns[pc], &b);
                if (pp->insns[pc].line) tp_sbuf_printf(&b, " (line %u)", pp->insns[pc].line);
            }
            pm.rows[i].text = tp_strdup(tp_sbuf_str(&b));
            const ptx_insn *in = &pp->insns[pc];
            if (in->srcline && in->srcfile < pp->nfiles && pp->files[in->srcfile]) {
                tp_sbuf_reset(&b);
                tp_sbuf_printf(&b, "%s:%u", pp->files[in->srcfile], in->srcline);
                const ptx_srcloc *at = pp->inlined_at ? &pp->inlined_at[pc] : NULL;
                if (at && at->file && at->file < pp->nfiles && pp->files[at->file])
                    tp_sbuf_printf(&b, " (inlined at %s:%u)", pp->files[at->file], at->line);
                pm.rows[i].src = tp_strdup(tp_sbuf_str(&b));
            }
            tp_sbuf_free(&b);
        }
        ks->pcs = pm.rows;
        ks->npcs = pm.n;
        pm.rows = NULL;
    }
    free(pm.rows);
    tp_map_free(&pm.idx);
    if (failed) abort_launch(g);
    exec_status st = r->status;
    exec_grid_close(grid, r);
    if (ks->sample_functional_ctas) {
        /* the SMs counted the detailed CTAs' instructions: the launch's are the grid's */
        ks->warp_insns = r->warp_insns;
        ks->thread_insns = r->thread_insns;
        tp_stats_ratios_at(gpu_kstats_registry(), ks);
    }
    if (st == EXEC_ERR_DEADLOCK && r->status == EXEC_OK) {
        r->status = st;
        snprintf(r->msg, sizeof r->msg, "kernel stopped: no warp can make progress");
    }
    free(lx);
    return r->status;
}

void gpu_kstats_free(gpu_kstats *k)
{
    free(k->occupancy_limit);
    free(k->sample_kind);
    for (uint32_t i = 0; i < k->npcs; i++) free(k->pcs[i].text), free(k->pcs[i].src);
    free(k->pcs);
    free(k->intervals);
    memset(k, 0, sizeof *k);
}
