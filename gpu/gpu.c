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
#include "../base/map.h"
#include <stdlib.h>

gpu *gpu_new(const tp_opts *o)
{
    gpu *g = tp_calloc(1, sizeof *g);
    tp_opts_copy(&g->opts, o);
    gpu_cfg_init(&g->c, &g->opts);
    gpu_mreq_pool_init(&g->pool);
    g->ms = gpu_memsys_new(&g->opts, g->c.nsm, &g->pool);
    g->sm = tp_calloc(g->c.nsm, sizeof *g->sm);
    for (uint32_t s = 0; s < g->c.nsm; s++) gpu_sm_init(&g->sm[s], g, s);
    return g;
}

void gpu_free(gpu *g)
{
    if (!g) return;
    for (uint32_t s = 0; s < g->c.nsm; s++) gpu_sm_free(&g->sm[s]);
    free(g->sm);
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

static pcmap *pcm_of(gpu_launchctx *lx) { return lx->pcmap; }

gpu_pcstat *gpu_pcrow_slow(gpu_launchctx *lx, uint32_t pc)
{
    pcmap *p = pcm_of(lx);
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

static int pc_cmp(const void *a, const void *b)
{
    uint32_t x = ((const gpu_pcstat *)a)->pc, y = ((const gpu_pcstat *)b)->pc;
    return x < y ? -1 : x > y;
}

/* ---- the launch ----------------------------------------------------------------------------------- */

static void dispatch(gpu *g, gpu_launchctx *lx, uint64_t now, bool first_wave)
{
    uint32_t nsm = g->c.nsm;
    if (first_wave) {
        bool any = true;
        while (any) {
            any = false;
            for (uint32_t s = 0; s < nsm; s++) {
                if (!gpu_sm_can_take_cta(&g->sm[s])) continue;
                exec_cta *c = exec_cta_start(lx->grid, s);
                if (!c) return;
                gpu_sm_take_cta(&g->sm[s], c, now);
                any = true;
            }
        }
        return;
    }
    for (uint32_t s = 0; s < nsm; s++)
        while (gpu_sm_can_take_cta(&g->sm[s])) {
            exec_cta *c = exec_cta_start(lx->grid, s);
            if (!c) return;
            gpu_sm_take_cta(&g->sm[s], c, now);
        }
}

/* After a fault: forget the SMs' work and let the memory system drain. */
static void abort_launch(gpu *g)
{
    for (uint32_t s = 0; s < g->c.nsm; s++) {
        gpu_sm *sm = &g->sm[s];
        for (uint32_t i = 0; i < g->c.max_warps; i++) sm->warps[i].state = GPU_W_FREE;
        memset(sm->fetch_want, 0, (g->c.max_warps + 63) / 64 * sizeof *sm->fetch_want);
        for (uint32_t i = 0; i < g->c.max_ctas; i++) sm->ctas[i].ec = NULL;
        for (uint32_t i = 0; i < sm->ncu; i++) {
            if (sm->cu[i].busy && sm->cu[i].mop) gpu_memop_put(sm, sm->cu[i].mop);
            sm->cu[i].busy = 0;
        }
        sm->ncu_busy = 0;
        for (int k = 0; k < GPU_OC_COUNT; k++) sm->oc_free[k] = g->c.oc[k];
        memset(sm->tensor_waiting, 0, g->c.nsched * sizeof *sm->tensor_waiting);
        for (uint32_t q = 0; q < g->c.nsched; q++) {
            gpu_sched *sc = &sm->sched[q];
            sc->n = sc->nact = 0;
            for (int k = 0; k < GPU_OC_COUNT; k++) memset(sc->ubk[k], 0, (g->c.max_warps + 63) / 64 * sizeof(uint64_t));
            sc->last = sc->last_pos = sc->last_act = -1;
        }
        sm->nctas = sm->nwarps_live = 0;
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
            while ((r = gpu_l1_pop_done(sm->l1d, g->cycle))) gpu_mreq_put(&g->pool, r);
            while ((r = gpu_l1_pop_done(sm->l1c, g->cycle))) gpu_mreq_put(&g->pool, r);
            gpu_ldst_send(sm, g->cycle);
            if (!gpu_l1_idle(sm->l1d) || !gpu_l1_idle(sm->l1c)) busy = true;
        }
        if (!busy) break;
        gpu_memsys_tick(g->ms, g->cycle);
        g->cycle++;
    }
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
    gpu_launchctx lx;
    memset(&lx, 0, sizeof lx);
    lx.g = g;
    lx.grid = grid;
    lx.m = m;
    lx.occ = exec_grid_occ(grid);
    lx.ctas_per_sm = lx.occ->ctas_per_sm ? lx.occ->ctas_per_sm : 1;
    lx.ctas = exec_grid_ctas(grid);
    lx.local_bytes = exec_grid_local_bytes(grid);
    lx.ks = ks;
    lx.pcmap = &pm;
    {
        /* the kernel's own instructions have rows in an array */
        const ptx_func *kf = &exec_mod_ptx(m)->funcs[kernel];
        lx.pc_lo = kf->start;
        lx.pc_hi = g->c.stats_pc ? kf->end : kf->start;
        lx.pcdirect = tp_calloc(lx.pc_hi - lx.pc_lo + 1, sizeof *lx.pcdirect);
        for (uint32_t pc = lx.pc_lo; pc < lx.pc_hi; pc++) lx.pcdirect[pc - lx.pc_lo].pc = pc;
    }
    uint64_t start = g->cycle, now = start;
    lx.start = start;
    gpu_l1stats l1s0[1024];
    uint32_t nsm = g->c.nsm;
    gpu_l1stats *l1s = nsm <= 1024 ? l1s0 : tp_malloc(nsm * sizeof *l1s);
    for (uint32_t s = 0; s < nsm; s++) {
        gpu_sm_begin(&g->sm[s], &lx, start);
        l1s[s] = *gpu_l1_stats(g->sm[s].l1d);
    }
    gpu_memstats ms0 = *gpu_memsys_stats(g->ms);
    gpu_interval prev;
    memset(&prev, 0, sizeof prev);
    prev.l1d_misses = 0;
    for (uint32_t s = 0; s < nsm; s++) {
        prev.l1d_misses += l1s[s].misses;
        prev.l1d_accesses += l1s[s].accesses;
        prev.l1d_hits += l1s[s].hits;
    }
    uint64_t next_interval = g->c.stats_interval ? start + g->c.stats_interval : UINT64_MAX;
    /* the watchdog every 64 K cycles; the progress line (which reads the
    ** clock and prints at most twice a second) every 1 K, so that it shows
    ** half a second into a kernel even when a cycle is slow to simulate */
    uint64_t next_check = start + 65536, next_progress = start + 1024;

    dispatch(g, &lx, now, true);
    for (;;) {
        uint32_t fin = 0;
        for (uint32_t s = 0; s < nsm; s++)
            if (g->sm[s].wake <= now) fin += gpu_sm_tick(&g->sm[s], now);
        gpu_memsys_tick(g->ms, now);
        if (lx.fault || exec_grid_status(grid) != EXEC_OK) break;
        if (fin) {
            lx.ctas_done += fin;
            dispatch(g, &lx, now, false);
            for (uint32_t s = 0; s < nsm; s++)
                if (g->sm[s].wake <= now) g->sm[s].wake = now + 1;
        }
        bool all_idle = lx.ctas_done == lx.ctas && gpu_memsys_idle(g->ms);
        for (uint32_t s = 0; s < nsm && all_idle; s++) all_idle = gpu_sm_idle(&g->sm[s]);
        if (all_idle) break;
        uint64_t next = gpu_memsys_next(g->ms);
        for (uint32_t s = 0; s < nsm; s++) {
            gpu_sm *sm = &g->sm[s];
            if (sm->wake > now + 1 && gpu_memsys_has_reply(g->ms, s, now + 1)) sm->wake = now + 1;
            if (sm->wake < next) next = sm->wake;
        }
        if (now >= next_interval) {
            interval_row(g, &lx, now, &ms0, &prev);
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
            progress(arg, exec_grid_kernel_name(grid), lx.ctas_done, lx.ctas, next - start, ks->warp_insns);
            next_progress = next + 1024;
        }
        now = next;
    }
    bool failed = lx.fault || exec_grid_status(grid) != EXEC_OK;
    for (uint32_t s = 0; s < nsm; s++) gpu_sm_account_skip(&g->sm[s], now + 1);
    if (g->c.stats_interval && !failed && (ks->nintervals == 0 || ks->intervals[ks->nintervals - 1].cycle != now - start))
        interval_row(g, &lx, now, &ms0, &prev);
    g->cycle = now + 1;

    /* the kernel's statistics */
    ks->cycles = now - start + 1;
    ks->ipc = ks->cycles ? (double)ks->thread_insns / (double)ks->cycles : 0;
    ks->tensor_macs_per_cycle = ks->cycles ? (double)ks->tensor_macs / (double)ks->cycles : 0;
    ks->regs_per_thread = lx.occ->regs_per_thread;
    ks->ctas_per_sm = lx.occ->ctas_per_sm;
    ks->occupancy_limit = tp_strdup(exec_occ_limit_name(lx.occ->limit));
    uint64_t rwc = 0;
    for (uint32_t s = 0; s < nsm; s++) {
        gpu_sm *sm = &g->sm[s];
        for (int k = 0; k < GPU_ST_COUNT; k++) ks->issue[k] += sm->issue[k];
        rwc += sm->resident_warp_cycles;
        const gpu_l1stats *a = gpu_l1_stats(sm->l1d);
        ks->l1d_accesses += a->accesses - l1s[s].accesses;
        ks->l1d_hits += a->hits - l1s[s].hits;
        ks->l1d_misses += a->misses - l1s[s].misses;
        ks->l1d_mshr_merges += a->mshr_merges - l1s[s].mshr_merges;
        ks->l1d_reservation_fails += a->reservation_fails - l1s[s].reservation_fails + sm->l1_resfail_skipped;
        ks->l1c_accesses += sm->l1c_accesses;
        ks->l1c_misses += sm->l1c_misses;
        ks->shared_accesses += sm->shared_accesses;
        ks->shared_bank_conflict_cycles += sm->shared_conflict_cycles;
        ks->mem_requests += sm->mem_requests;
        rs_sm_stats(&sm->rs, &ks->regs);
        gpu_ldst_stats(sm, ks, now);
    }
    rs_stats_end(exec_grid_kernel(grid), &ks->regs, &(rs_end){lx.occ, ks->cycles, nsm, g->c.max_warps, &g->opts});
    ks->achieved_occupancy = (double)rwc / ((double)ks->cycles * nsm * g->c.max_warps);
    gpu_ldst_kstats_finish(ks, nsm);
    const gpu_memstats *ms = gpu_memsys_stats(g->ms);
    ks->l2_accesses = ms->l2_accesses - ms0.l2_accesses;
    ks->l2_hits = ms->l2_hits - ms0.l2_hits;
    ks->l2_misses = ms->l2_misses - ms0.l2_misses;
    ks->dram_reads = ms->dram_reads - ms0.dram_reads;
    ks->dram_writes = ms->dram_writes - ms0.dram_writes;
    ks->dram_row_buffer_hits = ms->dram_row_buffer_hits - ms0.dram_row_buffer_hits;
    uint64_t dc = ms->dram_cycles - ms0.dram_cycles;
    ks->dram_bandwidth_utilization = dc ? (double)(ms->dram_busy_cycles - ms0.dram_busy_cycles) / (double)dc : 0;
    ks->icnt_packets = ms->icnt_packets - ms0.icnt_packets;
    ks->icnt_stall_cycles = ms->icnt_stall_cycles - ms0.icnt_stall_cycles;
    /* the rows with anything in them, by pc */
    for (uint32_t pc = lx.pc_lo; pc < lx.pc_hi; pc++) {
        const gpu_pcstat *d = &lx.pcdirect[pc - lx.pc_lo];
        bool any = d->issued != 0;
        for (int k = 0; k < GPU_ST_COUNT; k++) any = any || d->stall[k];
        if (any) *gpu_pcrow_slow(&lx, pc) = *d;
    }
    free(lx.pcdirect);
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
    if (l1s != l1s0) free(l1s);
    if (failed) abort_launch(g);
    exec_status st = r->status;
    exec_grid_close(grid, r);
    if (st == EXEC_ERR_DEADLOCK && r->status == EXEC_OK) {
        r->status = st;
        snprintf(r->msg, sizeof r->msg, "kernel stopped: no warp can make progress");
    }
    return r->status;
}

void gpu_kstats_free(gpu_kstats *k)
{
    free(k->occupancy_limit);
    for (uint32_t i = 0; i < k->npcs; i++) free(k->pcs[i].text), free(k->pcs[i].src);
    free(k->pcs);
    free(k->intervals);
    memset(k, 0, sizeof *k);
}
