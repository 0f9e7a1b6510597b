/*
** sm.c -- one streaming multiprocessor: warp and CTA slots, fetch, issue,
** write-back, and the order of the stages within a cycle (internal.h).
**
** Fetch: up to sm.fetch_width warps per cycle, round robin, each filling its
** instruction buffer (sm.ibuffer entries) with consecutive instructions from
** its next pc (exec_warp_next), ready after sm.fetch_latency cycles.  Fetch
** stops after an instruction that may change the pc (branches, calls,
** returns, exits; not barriers, whose successor is the next pc) until it has issued, because tpsim does not
** predict branches; an entry whose pc turns out not to be the warp's next
** (the SIMT stack reconverged elsewhere) is dropped with the rest of the
** buffer when the warp tries to issue it.
**
** Issue: each scheduler tries its warps in the policy's order and issues the
** first instruction that can go: the warp is not at a barrier, the entry is
** ready, no register it reads or writes is pending (scoreboard), a fence
** finds no memory access of the warp in flight, a collector of its kind is
** free, and for a tensor instruction no other of its scheduler's waits in a
** collector for the tensor pipe.  Issuing executes it (exec_warp_step at this cycle).  An unused
** slot is charged to the first warp in the policy's order, with the reason
** it could not go (gpu_stall), and to its pc.
**
** A warp that has executed its last instruction finishes when its last
** result is written back; a CTA finishes with its last warp and gives its
** slot back at once.
*/
#include "internal.h"
#include "par.h"
#include <stdlib.h>

/* ---- issue candidates: per scheduler and collector kind, the warps that may issue ----
** A warp is a candidate of kind k when it is active, has no cached block
** reason, and the instruction at the head of its buffer needs a collector of
** kind k.  The issue stage looks only at candidates of kinds with a free
** collector. */

static inline void cand_bit(gpu_sched *sc, uint32_t k, uint32_t pos, bool on)
{
    uint64_t b = 1ull << (pos % 64);
    if (on) sc->ubk[k][pos / 64] |= b;
    else sc->ubk[k][pos / 64] &= ~b;
}

static void cand_update(gpu_sm *sm, gpu_warp *w)
{
    uint8_t cls = GPU_OC_COUNT;
    if (w->state == GPU_W_ACTIVE && !w->blk && w->nib) cls = w->ib[0].ock;
    if (cls == w->cls) return;
    sm->issue_dirty = true;
    gpu_sched *sc = &sm->sched[w->sched];
    if (w->cls < GPU_OC_COUNT) cand_bit(sc, w->cls, w->spos, false);
    if (cls < GPU_OC_COUNT) cand_bit(sc, cls, w->spos, true);
    w->cls = cls;
}

static inline gpu_stall blk_set(gpu_sm *sm, gpu_warp *w, gpu_stall v)
{
    if (w->blk != (uint8_t)v) {
        w->blk = (uint8_t)v;
        sm->issue_dirty = true;
        cand_update(sm, w);
    }
    return v;
}

/* After the scheduler's list changed: positions and masks again. */
static void sched_reindex(gpu_sm *sm, gpu_sched *sc)
{
    for (int k = 0; k < GPU_OC_COUNT; k++) memset(sc->ubk[k], 0, (sm->c->max_warps + 63) / 64 * sizeof(uint64_t));
    for (uint32_t i = 0; i < sc->n; i++) {
        gpu_warp *w = &sm->warps[sc->w[i]];
        w->spos = (uint16_t)i;
        if (w->cls < GPU_OC_COUNT) cand_bit(sc, w->cls, i, true);
    }
}

/* ---- the fetch candidates: a bit per warp slot that fetch should look at ---- */

static void cand_update(gpu_sm *sm, gpu_warp *w);

/* Also refreshes the warp's issue-candidate class (its buffer may have changed). */
static void fetch_update(gpu_sm *sm, uint32_t slot)
{
    gpu_warp *w = &sm->warps[slot];
    sm->issue_dirty = true;   /* its buffer or state changed */
    if (w->state != GPU_W_FREE) cand_update(sm, w);
    uint64_t bit = 1ull << (slot % 64);
    if (w->state == GPU_W_ACTIVE && w->nib < sm->c->ibuf && !w->fetch_stop) sm->fetch_want[slot / 64] |= bit;
    else sm->fetch_want[slot / 64] &= ~bit;
}

void gpu_sm_init(gpu_sm *sm, gpu *g, uint32_t id)
{
    /* the SM's own copy of the configuration, on lines of its own: parallel
    ** SMs read it in every tick, and it would otherwise share lines with
    ** what the launch loop writes (struct gpu) */
    gpu_cfg *cc = tp_calloc_lines(1, sizeof *cc);
    *cc = g->c;
    const gpu_cfg *c = cc;
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->c = c;
    sm->warps = tp_calloc(c->max_warps, sizeof *sm->warps);
    sm->ctas = tp_calloc(c->max_ctas, sizeof *sm->ctas);
    sm->sched = tp_calloc(c->nsched, sizeof *sm->sched);
    for (uint32_t s = 0; s < c->nsched; s++) {
        sm->sched[s].w = tp_calloc(c->max_warps, sizeof(uint16_t));
        sm->sched[s].act = tp_calloc(c->max_warps, sizeof(uint16_t));
        for (int k = 0; k < GPU_OC_COUNT; k++) sm->sched[s].ubk[k] = tp_calloc((c->max_warps + 63) / 64, sizeof(uint64_t));
        sm->sched[s].last = sm->sched[s].last_pos = sm->sched[s].last_act = -1;
    }
    sm->ncu = c->oc[0] + c->oc[1] + c->oc[2];
    sm->cu = tp_calloc(sm->ncu, sizeof *sm->cu);
    for (int k = 0; k < GPU_OC_COUNT; k++) sm->oc_free[k] = c->oc[k];
    sm->cu_order = tp_calloc(sm->ncu + 1, sizeof *sm->cu_order);
    for (int p = 0; p < GPU_P_COUNT; p++) sm->pipe_free[p] = tp_calloc(c->pipes[p] + 1, sizeof(uint64_t));
    sm->bank_grants = tp_calloc(c->rf_banks, sizeof *sm->bank_grants);
    sm->tensor_waiting = tp_calloc(c->nsched, sizeof *sm->tensor_waiting);
    sm->mem_held = tp_calloc(c->nsched, sizeof *sm->mem_held);
    sm->fetch_want = tp_calloc((c->max_warps + 63) / 64, sizeof *sm->fetch_want);
    sm->slot_reason = tp_calloc(c->nsched, 1);
    sm->slot_pc = tp_calloc(c->nsched, sizeof *sm->slot_pc);
    sm->rel = tp_calloc(c->max_ctas, sizeof *sm->rel);
    /* with parallel SMs each SM's caches and LD/ST unit take requests from a
    ** pool of its own (gpu.c moves the memory system's spare ones back) */
    gpu_mreq_pool_init(&sm->own_pool);
    sm->pool = c->sim_threads > 1 ? &sm->own_pool : &g->pool;
    sm->l1d = gpu_l1_new(&c->l1d, sm->pool);
    sm->l1c = gpu_l1_new(&c->l1c, sm->pool);
    gpu_ldst_init(sm, g);
}

void gpu_sm_free(gpu_sm *sm)
{
    free(sm->warps);
    free(sm->ctas);
    for (uint32_t s = 0; s < sm->c->nsched; s++) {
        free(sm->sched[s].w);
        free(sm->sched[s].act);
        for (int k = 0; k < GPU_OC_COUNT; k++) free(sm->sched[s].ubk[k]);
    }
    free(sm->sched);
    free(sm->cu);
    free(sm->cu_order);
    for (int p = 0; p < GPU_P_COUNT; p++) free(sm->pipe_free[p]);
    free(sm->bank_grants);
    free(sm->tensor_waiting);
    free(sm->mem_held);
    free(sm->fetch_want);
    free(sm->slot_reason);
    free(sm->slot_pc);
    rs_sm_free(&sm->rs);
    free(sm->wb);
    gpu_l1_free(sm->l1d);
    gpu_l1_free(sm->l1c);
    gpu_ldst_free(sm);
    free(sm->rel);
    gpu_mreq_pool_free(&sm->own_pool);
    free((void *)sm->c);
}

void gpu_sm_begin(gpu_sm *sm, gpu_launchctx *lx, uint64_t now)
{
    sm->lx = lx;
    sm->nrel = 0;
    sm->pc_skip = 0;
    gpu_l1_invalidate(sm->l1d);
    gpu_l1_invalidate(sm->l1c);
    memset(sm->issue, 0, sizeof sm->issue);
    sm->resident_warp_cycles = 0;
    sm->busy_first = sm->busy_last = 0;
    sm->shared_accesses = sm->shared_conflict_cycles = sm->mem_requests = 0;
    sm->l1c_accesses = sm->l1c_misses = sm->idc_instructions = 0;
    sm->l1_resfail_skipped = 0;
    sm->ack_wait_cycles = 0;
    sm->cta_next = now;
    rs_sm_begin(&sm->rs, &(rs_smcfg){lx->grid, exec_grid_kernel(lx->grid), lx->occ, sm->c->max_warps, sm->c->max_ctas,
                                     &lx->g->opts});
    gpu_ldst_begin(sm, now);
    sm->wake = now;
    sm->last_tick = now - 1;
    /* nothing of a launch's scheduling state carries into the next: identical
    ** launches run identically (up to what the caches hold) */
    sm->fetch_rr = 0;
    sm->next_age = 0;
    for (uint32_t s = 0; s < sm->c->nsched; s++) {
        gpu_sched *sc = &sm->sched[s];
        sc->last = sc->last_pos = sc->last_act = -1;
        sc->start = 0;
    }
    for (uint32_t s = 0; s < sm->c->nsched; s++) {
        sm->slot_reason[s] = GPU_ST_NO_WARPS;
        sm->slot_pc[s] = UINT32_MAX;
    }
    sm->issue_memo = false;
    sm->send_poll = false;
}

bool gpu_sm_can_take_cta(const gpu_sm *sm)
{
    const gpu_launchctx *lx = sm->lx;
    uint32_t need = exec_grid_warps_per_cta(lx->grid);
    return sm->nctas < lx->ctas_per_sm && sm->nctas < sm->c->max_ctas && sm->nwarps_live + need <= sm->c->max_warps &&
           (!sm->c->cta_limit || sm->nctas < sm->c->cta_limit);
}

/* Makes the warps of CTA slot cs (launched earlier) and lets them fetch. */
static void cta_begin(gpu_sm *sm, uint32_t cs)
{
    const gpu_cfg *c = sm->c;
    gpu_ctaslot *ct = &sm->ctas[cs];
    exec_cta *ec = ct->ec;
    ct->pending = false;
    uint32_t slot = 0;
    for (uint32_t i = 0; i < ct->nwarps; i++) {
        while (sm->warps[slot].state != GPU_W_FREE) slot++;
        gpu_warp *w = &sm->warps[slot];
        uint32_t orphan = w->stores_orphan; /* an earlier warp's acks still due */
        memset(w, 0, sizeof *w);
        w->stores_orphan = orphan;
        w->ew = exec_cta_warp(ec, i);
        w->state = GPU_W_ACTIVE;
        w->cta = cs;
        w->age = sm->next_age++;
        w->sched = (uint8_t)(slot % c->nsched);
        gpu_sched_add(c, &sm->sched[w->sched], (uint16_t)slot);
        w->spos = (uint16_t)(sm->sched[w->sched].n - 1);
        w->cls = GPU_OC_COUNT;
        fetch_update(sm, slot);
    }
    rs_cta_start(&sm->rs, cs);
    sm->changed = true;
}

void gpu_sm_take_cta(gpu_sm *sm, exec_cta *ec, uint64_t now)
{
    const gpu_cfg *c = sm->c;
    gpu_sm_account_skip(sm, now); /* it may have slept with room (cta.*_interval): its counts change now */
    uint32_t cs = 0;
    while (cs < c->max_ctas && sm->ctas[cs].ec) cs++;
    TP_ASSERT(cs < c->max_ctas);
    gpu_ctaslot *ct = &sm->ctas[cs];
    if (!sm->busy_first) sm->busy_first = now + 1;
    ct->ec = ec;
    ct->nwarps = ct->live = exec_cta_nwarps(ec);
    sm->nctas++;
    sm->nwarps_live += ct->nwarps; /* its slot and warps are held from now */
    uint64_t t = now;
    if (c->cta_latency) {
        /* the warps are made (and fetch) cta.latency cycles later, in that cycle's tick */
        ct->pending = true;
        ct->start_at = t = now + c->cta_latency;
        sm->npending++;
    } else {
        cta_begin(sm, cs);
    }
    if (sm->wake > t) sm->wake = t;
}

/* The CTAs launched with cta.latency whose warps start by cycle now; the earliest later start. */
static uint64_t cta_starts(gpu_sm *sm, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (uint32_t cs = 0; cs < sm->c->max_ctas && sm->npending; cs++) {
        gpu_ctaslot *ct = &sm->ctas[cs];
        if (!ct->ec || !ct->pending) continue;
        if (ct->start_at <= now) {
            cta_begin(sm, cs);
            sm->npending--;
        } else if (ct->start_at < next) {
            next = ct->start_at;
        }
    }
    return next;
}

/* ---- write-backs ------------------------------------------------------------------------ */

static bool wb_before(const gpu_wb *a, const gpu_wb *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

void gpu_wb_push(gpu_sm *sm, uint64_t cycle, uint16_t warp, const exec_sinfo *si, bool mem)
{
    if (sm->nwb == sm->capwb) {
        sm->capwb = sm->capwb ? sm->capwb * 2 : 64;
        sm->wb = tp_realloc(sm->wb, sm->capwb * sizeof *sm->wb);
    }
    gpu_wb e = {cycle + sm->c->wb_lat, sm->wb_seq++, warp, mem, si};
    uint32_t i = sm->nwb++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!wb_before(&e, &sm->wb[p])) break;
        sm->wb[i] = sm->wb[p];
        i = p;
    }
    sm->wb[i] = e;
}

static gpu_wb wb_pop(gpu_sm *sm)
{
    gpu_wb top = sm->wb[0];
    gpu_wb last = sm->wb[--sm->nwb];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        const gpu_wb *best = &last;
        if (l < sm->nwb && wb_before(&sm->wb[l], best)) m = l, best = &sm->wb[l];
        if (r < sm->nwb && wb_before(&sm->wb[r], best)) m = r;
        if (m == i) break;
        sm->wb[i] = sm->wb[m];
        i = m;
    }
    if (sm->nwb) sm->wb[i] = last;
    return top;
}

static void warp_finish(gpu_sm *sm, uint16_t slot)
{
    gpu_warp *w = &sm->warps[slot];
    w->state = GPU_W_FREE;
    fetch_update(sm, slot);
    sm->nwarps_live--;
    gpu_ctaslot *ct = &sm->ctas[w->cta];
    if (--ct->live == 0) {
        rs_cta_done(&sm->rs, w->cta);
        /* exec's slot goes back just before this tick's issue stage (gpu_sm_tick_issue):
        ** with parallel SMs (sim.threads) only that stage calls exec_cta_release */
        sm->rel[sm->nrel++] = ct->ec;
        ct->ec = NULL;
        sm->nctas--;
        sm->finished++;
    }
    sm->changed = true;
}

/* An exited warp with nothing in flight finishes, once its stores are acknowledged. */
static void warp_try_finish(gpu_sm *sm, uint16_t slot, uint64_t now)
{
    gpu_warp *w = &sm->warps[slot];
    if (w->state != GPU_W_EXITED || w->inflight) return;
    if (w->stores_out && !sm->c->store_ack_exit) {
        /* it finishes now; the slot's next warp counts these acks off first */
        w->stores_orphan += w->stores_out;
        w->stores_out = 0;
    }
    if (w->stores_out) {
        if (!w->ack_wait_from) w->ack_wait_from = now + 1; /* +1: 0 is "not waiting" */
        return;
    }
    if (w->ack_wait_from) sm->ack_wait_cycles += now + 1 - w->ack_wait_from;
    warp_finish(sm, slot);
    if (!sm->nwarps_live) sm->busy_last = now;
}

void gpu_sm_writeback(gpu_sm *sm, uint16_t slot, const exec_sinfo *si, bool mem, uint64_t now)
{
    gpu_warp *w = &sm->warps[slot];
    if (si->ndst) gpu_sb_release(&w->sb, si);
    if (w->state == GPU_W_ACTIVE || w->state == GPU_W_BARRIER) blk_set(sm, w, 0);
    w->inflight--;
    if (mem) w->mem_inflight--;
    warp_try_finish(sm, slot, now);
    sm->changed = true;
}

void gpu_sm_store_acked(gpu_sm *sm, uint16_t slot, uint64_t now)
{
    gpu_warp *w = &sm->warps[slot];
    if (w->stores_orphan) {
        w->stores_orphan--; /* an earlier warp's (ldst.store_ack_exit=0) */
        return;
    }
    TP_ASSERT(w->state != GPU_W_FREE && w->stores_out > 0);
    if (w->state == GPU_W_FREE || !w->stores_out) return;
    if (--w->stores_out) return;
    if (w->state == GPU_W_ACTIVE || w->state == GPU_W_BARRIER) blk_set(sm, w, 0); /* a fence may go */
    warp_try_finish(sm, slot, now);
    sm->changed = sm->acked = true;
}

/* ---- issue ---------------------------------------------------------------------------------- */

/* sim.prefetch: the instruction at pc reaches the head of w's buffer, and the
** host is asked for what its issue will touch: its register rows
** (exec_warp_prefetch) and its stats.pc row, whose count issue adds to (an
** SM's rows sit apart from the other SMs' and fall out of the host's L1
** between two of its issues at a pc: 3-4% of mmreg 256's time on that add,
** perf). */
static inline void head_prefetch(gpu_sm *sm, gpu_warp *w, uint32_t pc)
{
    exec_warp_prefetch(w->ew, pc);
    gpu_pcstat *row = sm->c->stats_pc ? gpu_pcrow_direct(sm, pc) : NULL;
    if (row) __builtin_prefetch(&row->issued, 1, 3);
}

/* Only instructions that may change the pc stop fetch: a barrier, fence or
** nanosleep holds its warp at issue but its successor is the next pc, which
** is fetched while the warp waits (GPGPU-Sim 4.2 keeps it in the buffer
** too: experiments/side/ubench.sh bar). */
static bool stops_fetch(const exec_sinfo *si)
{
    return (si->flags & EXEC_SI_BRANCH) || si->unit == EXEC_U_CTRL;
}

/* Warp slot w as the register-sharing policy sees it. */
static rs_warp rs_view(const gpu_sm *sm, const gpu_warp *w)
{
    return (rs_warp){(uint32_t)(w - sm->warps), w->cta, exec_warp_index(w->ew), w->ew};
}

/* A buffered entry not ready yet: the issue stage's outcome may change when it is. */
static inline gpu_stall not_ready(gpu_sm *sm, const gpu_warp *w)
{
    if (w->ib[0].ready < sm->issue_until) sm->issue_until = w->ib[0].ready;
    return GPU_ST_IBUFFER;
}

/* Whether warp w can issue its next instruction now (GPU_ST_ISSUED), or why
** not.  Reasons that only an event on the warp can change are cached. */
static gpu_stall can_issue(gpu_sm *sm, gpu_warp *w, uint64_t now)
{
    if (w->blk) return (gpu_stall)w->blk;
    if (w->state == GPU_W_BARRIER) return blk_set(sm, w, GPU_ST_BARRIER);
    if (!w->nib) return blk_set(sm, w, GPU_ST_IBUFFER);
    if (w->ib[0].ready > now) return not_ready(sm, w);
    /* register sharing: what the instruction needs must be free (not
    ** cached: another warp's release frees it) */
    if (rs_gates(&sm->rs)) {
        rs_warp v = rs_view(sm, w);
        if (!rs_may_issue(&sm->rs, &v, w->ib[0].pc)) return GPU_ST_REGS;
    }
    const exec_sinfo *si = w->ib[0].si;
    if ((si->flags & EXEC_SI_FENCE) && (w->mem_inflight || w->stores_out)) return blk_set(sm, w, GPU_ST_BARRIER);
    switch (gpu_sb_check(&w->sb, si)) {
    case 1: return blk_set(sm, w, GPU_ST_RAW);
    case 2: return blk_set(sm, w, GPU_ST_MEMORY);
    case 3: return blk_set(sm, w, GPU_ST_RAW);
    default: break;
    }
    gpu_ockind k = gpu_is_mem(si) ? GPU_OC_MEM : gpu_oc_kind_of(sm->c, si, NULL);
    if (!gpu_oc_free(sm, k) && !(k == GPU_OC_SP && gpu_oc_free(sm, GPU_OC_SFU) && gpu_oc_spills(sm->c, si)))
        return GPU_ST_BUSY_UNIT;
    /* a sub-core dispatches one tensor instruction at a time: the next waits at issue */
    if (si->unit == EXEC_U_TENSOR && sm->tensor_waiting[w->sched]) return GPU_ST_BUSY_UNIT;
    /* sm.oc_mem_per_sched: a sub-core's memory queue is full */
    if (k == GPU_OC_MEM && sm->c->oc_mem_per_sched && sm->mem_held[w->sched] >= sm->c->oc_mem_per_sched)
        return GPU_ST_BUSY_UNIT;
    return GPU_ST_ISSUED;
}

static void wake_barrier(gpu_sm *sm, uint32_t cta)
{
    for (uint32_t i = 0; i < sm->c->max_warps; i++) {
        gpu_warp *w = &sm->warps[i];
        if (w->state != GPU_W_BARRIER || w->cta != cta) continue;
        exec_next n;
        if (exec_warp_next(w->ew, &n) != EXEC_WS_BARRIER) {
            w->state = GPU_W_ACTIVE;
            blk_set(sm, w, 0);
            fetch_update(sm, i);
        }
    }
}

/* Issues w's next instruction: executes it and sends it on.  false: the
** buffered instruction was not the warp's next after all (dropped). */
static bool issue(gpu_sm *sm, uint16_t slot, uint64_t now)
{
    gpu_launchctx *lx = sm->lx;
    gpu_warp *w = &sm->warps[slot];
    if (!w->ib[0].si->alone || exec_grid_status(lx->grid) == EXEC_ERR_LIVELOCK) {
        /* parallel SMs: what may touch more than the warp waits for the SMs before */
        if (sm->turn && !sm->turn->held) gpu_turn_wait(sm->turn);
        /* the grid stopped (a fault, the livelock watchdog) earlier in this
        ** cycle: exec_warp_step would execute nothing, so nothing issues
        ** (after a fault an instruction that touches only its warp still
        ** runs: exec.h) */
        if (exec_grid_status(lx->grid) != EXEC_OK) return false;
    }
    exec_next n;
    blk_set(sm, w, 0);
    if (exec_warp_next(w->ew, &n) != EXEC_WS_READY || n.pc != w->ib[0].pc) {
        w->nib = 0;
        w->fetch_stop = 0;
        fetch_update(sm, slot);
        return false;
    }
    const exec_sinfo *si = n.si;
    rs_warp rv = rs_view(sm, w);
    if (!rs_issue(&sm->rs, &rv, &n)) return false; /* register sharing: what it gets (can_issue saw it free) */
    /* a memory instruction's record goes straight into what the LD/ST unit keeps */
    gpu_memop *mop = gpu_is_mem(si) ? gpu_memop_get(sm) : NULL;
    exec_rec local;
    exec_rec *rp = mop ? &mop->rec : &local;
    exec_warp_step_in(w->ew, sm->id, now, rp);
    const exec_rec *rec = rp;
    sm->n.warp_insns++;
    sm->n.thread_insns += tp_popc32(rec->mask);
    if (sm->c->stats_pc) gpu_pcrow(sm, n.pc)->issued++;
    if (mop && !rec->active && si->unit != EXEC_U_TEX) {
        /* every lane off: no access; what follows reads the record's head
        ** (pc, mask, lanes, events, space), kept here before the record
        ** goes back (the copy only here: the whole record is 300 bytes) */
        local = (exec_rec){rp->pc, rp->mask, rp->active, rp->events, rp->bar_id, rp->si, rp->space, {0}, {0}, 0, NULL};
        rec = &local;
        gpu_memop_put(sm, mop);
        mop = NULL;
    }
    bool is_mem = mop != NULL;
    if (si->unit == EXEC_U_TENSOR) {
        sm->n.tensor_insns++;
        sm->n.tensor_macs += si->macs;
    }
    if (mop && rp->npass > 1) {
        /* wmma.load/.store: the passes past the first, which the record only lends */
        if (!mop->xaddr) mop->xaddr = tp_malloc((EXEC_REC_MAXPASS - 1) * 32 * sizeof *mop->xaddr);
        memcpy(mop->xaddr, rp->xaddr, (size_t)(rp->npass - 1) * 32 * sizeof *mop->xaddr);
        mop->npass = rp->npass;
    }
    if (mop) {
        mop->warp = slot;
        mop->bytes = si->bytes;
        mop->flags = si->flags;
        mop->wb = si->ndst > 0;
        mop->active = si->unit == EXEC_U_TEX ? 0 : rec->active;
        mop->si = si;
        mop->t_issue = now;
        w->mem_inflight++;
    }
    if (si->ndst) gpu_sb_reserve(&w->sb, si, is_mem);
    w->inflight++;
    gpu_oc_issue(sm, slot, n.pc, si, mop, now);
    w->nib--;
    memmove(w->ib, w->ib + 1, w->nib * sizeof *w->ib);
    if (!w->nib) w->fetch_stop = 0;
    else if (sm->c->sim_prefetch) head_prefetch(sm, w, w->ib[0].pc); /* the host's caches: the next one's rows */
    /* (its candidate class and fetch bit: fetch_update at the end, once the
    ** events below have set its state; a warp that exits is taken out of
    ** the candidates by blk_set before it leaves the scheduler's list) */
    bool long_lat = is_mem && (si->flags & EXEC_SI_LOAD) && rec->space != PTX_SP_SHARED;
    gpu_sched_issued(sm->c, &sm->sched[w->sched], slot, long_lat);
    rs_issued(&sm->rs, &rv, rec); /* register sharing: what it gives back */
    if (rec->events & EXEC_EV_FAULT) lx->fault = true;
    if (rec->events & EXEC_EV_BAR_WAIT) w->state = GPU_W_BARRIER;
    if (rec->events & EXEC_EV_BAR_RELEASE) wake_barrier(sm, w->cta);
    if (rec->events & EXEC_EV_WARP_DONE) {
        blk_set(sm, w, GPU_ST_NO_WARPS); /* out of the scheduler's count for good */
        w->state = GPU_W_EXITED;
        w->nib = 0;
        gpu_sched_remove(sm->c, &sm->sched[w->sched], slot);
        sched_reindex(sm, &sm->sched[w->sched]);
    }
    fetch_update(sm, slot);
    sm->changed = true;
    return true;
}

/* Issues from warp slot if it can go: up to sm.issue_width instructions, in
** order.  ready: the caller's can_issue has just answered GPU_ST_ISSUED for
** it, and nothing has moved since (an answer of ISSUED caches nothing), so
** its first instruction is not asked again. */
static uint32_t try_warp(gpu_sm *sm, uint16_t slot, uint64_t now, bool ready)
{
    gpu_warp *w = &sm->warps[slot];
    uint32_t issued = 0;
    if (ready) {
        if (!issue(sm, slot, now)) return 0;
        issued = 1;
    } else {
        /* the cheap reasons first: a warp behind the first candidate is only
        ** asked whether it can go, never why not */
        if (w->blk || !w->nib) return 0;
        if (w->ib[0].ready > now) {
            not_ready(sm, w);
            return 0;
        }
        if (!sm->oc_free[w->ib[0].ock] && !(w->ib[0].spill && sm->oc_free[GPU_OC_SFU])) return 0;
    }
    while (issued < sm->c->issue_width && w->state == GPU_W_ACTIVE && can_issue(sm, w, now) == GPU_ST_ISSUED) {
        if (!issue(sm, slot, now)) break;
        issued++;
    }
    return issued;
}

static void issue_stage(gpu_sm *sm, uint64_t now)
{
    const gpu_cfg *c = sm->c;
    bool any = false;
    sm->issue_dirty = false;
    sm->issue_until = UINT64_MAX;
    uint32_t words = (c->max_warps + 63) / 64;
    /* sm.issue_order: scheduler 0 first, or the first in turn (by the cycle,
    ** so that skipped cycles change nothing) */
    uint32_t first_sched = c->issue_rotate ? (uint32_t)(now % c->nsched) : 0;
    for (uint32_t i = 0; i < c->nsched; i++) {
        uint32_t s = first_sched + i < c->nsched ? first_sched + i : first_sched + i - c->nsched;
        gpu_sched *sc = &sm->sched[s];
        uint32_t n = gpu_sched_begin(c, sc);
        gpu_stall first = GPU_ST_NO_WARPS;
        uint32_t first_pc = UINT32_MAX, issued = 0;
        if (n && rs_orders(&sm->rs)) {
            /* register sharing: the warps the policy puts first go first */
            for (uint32_t i = 0; i < n && !issued; i++) {
                uint16_t slot = gpu_sched_at(c, sc, i);
                rs_warp v = rs_view(sm, &sm->warps[slot]);
                if (rs_first(&sm->rs, &v) && !sm->warps[slot].blk) issued = try_warp(sm, slot, now, false);
            }
            if (issued) first = GPU_ST_ISSUED;
        }
        if (n && !issued) {
            /* the first candidate: it is charged with an unused slot */
            uint16_t f = gpu_sched_at(c, sc, 0);
            gpu_warp *wf = &sm->warps[f];
            first = can_issue(sm, wf, now);
            first_pc = wf->nib ? wf->ib[0].pc : UINT32_MAX;
            if (first == GPU_ST_ISSUED && !(issued = try_warp(sm, f, now, true))) first = GPU_ST_IBUFFER;
            /* the others, in the policy's order, skipping warps with a cached block reason */
            uint32_t kinds = 0;
            for (int k = 0; k < GPU_OC_COUNT; k++)
                if (sm->oc_free[k]) kinds |= 1u << k;
            /* multiplies that may take the SFU are SP candidates (try_warp sorts them out) */
            if (c->fmul_pipe && sm->oc_free[GPU_OC_SFU]) kinds |= 1u << GPU_OC_SP;
            if (!issued && kinds) {
                if (c->policy == GPU_SCHED_TWO_LEVEL) {
                    for (uint32_t i = 1; i < n && !issued; i++) {
                        uint16_t slot = gpu_sched_at(c, sc, i);
                        if (!sm->warps[slot].blk) issued = try_warp(sm, slot, now, false);
                    }
                } else {
                    /* GTO: positions 0.. (oldest first); LRR: from its start, wrapping */
                    uint32_t start = c->policy == GPU_SCHED_LRR ? sc->start % n : 0;
                    uint64_t m[16];
                    uint32_t nw = words < 16 ? words : 16;
                    for (uint32_t wd = 0; wd < nw; wd++) {
                        uint64_t v = 0;   /* (one store a word: a zeroing loop became a call to memset) */
                        for (int k = 0; k < GPU_OC_COUNT; k++)
                            if (kinds >> k & 1) v |= sc->ubk[k][wd];
                        m[wd] = v;
                    }
                    /* GTY: positions n-1.. down (youngest first), the words from the last one used */
                    bool gty = c->policy == GPU_SCHED_GTY;
                    uint32_t top = gty ? ((n - 1) / 64 + 1 < nw ? (n - 1) / 64 + 1 : nw) : 0;
                    for (uint32_t wd = top; wd-- > 0 && !issued;) {
                        uint64_t bits = m[wd];
                        if (n < wd * 64 + 64) bits &= (1ull << (n - wd * 64)) - 1;
                        while (bits && !issued) {
                            uint32_t b = 63 - (uint32_t)__builtin_clzll(bits);
                            bits &= ~(1ull << b);
                            uint16_t slot = sc->w[wd * 64 + b];
                            if (slot != f) issued = try_warp(sm, slot, now, false);
                        }
                    }
                    for (uint32_t pass = 0; pass < 2 && !issued && !gty; pass++) {
                        uint32_t lo = pass ? 0 : start, hi = pass ? start : n;
                        for (uint32_t wd = lo / 64; wd < nw && wd * 64 < hi && !issued; wd++) {
                            uint64_t bits = m[wd];
                            if (wd * 64 < lo) bits &= ~0ull << (lo - wd * 64);
                            if (hi < wd * 64 + 64) bits &= (1ull << (hi - wd * 64)) - 1;
                            while (bits && !issued) {
                                uint32_t p = wd * 64 + (uint32_t)__builtin_ctzll(bits);
                                bits &= bits - 1;
                                uint16_t slot = sc->w[p];
                                if (slot != f) issued = try_warp(sm, slot, now, false);
                            }
                        }
                    }
                }
            }
        }
        any = any || issued;
        gpu_stall outcome = issued ? GPU_ST_ISSUED : first;
        sm->slot_reason[s] = (uint8_t)outcome;
        sm->slot_pc[s] = issued ? UINT32_MAX : first_pc;
        sm->issue[outcome]++;
        if (!issued && c->stats_pc && first_pc != UINT32_MAX) gpu_pcrow(sm, first_pc)->stall[outcome]++;
    }
    /* a block reason it cached or a buffer it dropped set issue_dirty: the
    ** next tick looks again */
    sm->issue_memo = !any && !sm->issue_dirty && !rs_gates(&sm->rs) && !rs_orders(&sm->rs);
}

/* ---- fetch -------------------------------------------------------------------------------------- */

static void fetch_stage(gpu_sm *sm, uint64_t now)
{
    const gpu_cfg *c = sm->c;
    uint32_t done = 0, words = (c->max_warps + 63) / 64;
    uint64_t any = 0;
    for (uint32_t wd = 0; wd < words; wd++) any |= sm->fetch_want[wd];
    if (!any) return;   /* no slot wants fetching: the passes below would find none */
    /* candidates in round-robin order from fetch_rr */
    for (uint32_t pass = 0; pass < 2 && done < c->fetch_width; pass++) {
        for (uint32_t wd = 0; wd < words && done < c->fetch_width; wd++) {
            uint64_t m = sm->fetch_want[wd];
            uint32_t lo = wd * 64;
            if (pass == 0) { /* slots at or after fetch_rr */
                if (lo + 64 <= sm->fetch_rr) continue;
                if (sm->fetch_rr > lo) m &= ~0ull << (sm->fetch_rr - lo);
            } else { /* slots before fetch_rr */
                if (lo >= sm->fetch_rr) break;
                if (sm->fetch_rr < lo + 64) m &= (1ull << (sm->fetch_rr - lo)) - 1;
            }
            while (m && done < c->fetch_width) {
                uint32_t slot = lo + (uint32_t)__builtin_ctzll(m);
                m &= m - 1;
                gpu_warp *w = &sm->warps[slot];
                uint32_t pc;
                if (w->nib) {
                    pc = w->ib[w->nib - 1].pc + 1;
                } else {
                    exec_next n;
                    if (exec_warp_next(w->ew, &n) != EXEC_WS_READY) continue;
                    pc = n.pc;
                }
                if (!w->nib && c->sim_prefetch) head_prefetch(sm, w, pc); /* the host's caches (sim.prefetch) */
                while (w->nib < c->ibuf) {
                    const exec_sinfo *si = exec_mod_sinfo(sm->lx->m, pc);
                    if (!si) break;
                    uint8_t ock = (uint8_t)(gpu_is_mem(si) ? GPU_OC_MEM : gpu_oc_kind_of(c, si, NULL));
                    uint8_t spill = ock == GPU_OC_SP && gpu_oc_spills(c, si);
                    w->ib[w->nib++] = (gpu_ibent){pc, ock, spill, si, now + c->fetch_lat};
                    blk_set(sm, w, 0);
                    if (stops_fetch(si)) {
                        w->fetch_stop = 1;
                        break;
                    }
                    pc++;
                }
                fetch_update(sm, slot);
                done++;
                sm->fetch_rr = (slot + 1) % c->max_warps;
                sm->changed = true;
            }
        }
    }
}

/* ---- the cycle ------------------------------------------------------------------------------------- */

/* k stall cycles per pc (stats.pc) of the slots' pcs and reasons.  The
** launch's rows are shared by the SMs, so with parallel SMs only the issue
** stage adds to them; and the slots change only in the issue stage, so the
** cycles skipped or repeated (issue_or_repeat) wait in pc_skip until an
** issue stage is about to change them, or the SM's counts are asked for
** (gpu_sm_account_skip): one addition for a run of such cycles. */
static void account_skip_pcs(gpu_sm *sm, uint64_t k)
{
    for (uint32_t s = 0; s < sm->c->nsched; s++)
        if (sm->slot_pc[s] != UINT32_MAX && sm->slot_reason[s] != GPU_ST_ISSUED)
            gpu_pcrow(sm, sm->slot_pc[s])->stall[sm->slot_reason[s]] += k;
}

static inline void account_skip(gpu_sm *sm, uint64_t now)
{
    if (now <= sm->last_tick + 1) return;
    uint64_t k = now - sm->last_tick - 1;
    for (uint32_t s = 0; s < sm->c->nsched; s++) sm->issue[sm->slot_reason[s]] += k;
    if (sm->c->stats_pc) sm->pc_skip += k; /* slot_pc and slot_reason stay as they are until the issue stage */
    sm->resident_warp_cycles += k * sm->nwarps_live;
    rs_account(&sm->rs, k);
    gpu_ldst_account_skip(sm, k);
    sm->last_tick = now - 1;
}

/* The stats.pc stall cycles held in pc_skip, added to the rows. */
static inline void flush_pc_skip(gpu_sm *sm)
{
    if (sm->pc_skip) {
        account_skip_pcs(sm, sm->pc_skip);
        sm->pc_skip = 0;
    }
}

void gpu_sm_account_skip(gpu_sm *sm, uint64_t now)
{
    account_skip(sm, now);
    flush_pc_skip(sm);
}

/* A cycle is three parts (gpu_sm_tick runs them in turn; with parallel SMs
** gpu.c runs the first and the last of every SM on several threads and the
** issue stages on one, in SM order: docs/TIMING.md, "Parallel SMs").  Only
** the issue stage calls exec/ for anything but the SM's own warps' state
** (exec_warp_step, exec_cta_release) or touches what the SMs share (the
** kernel's counters and per-pc rows); the other two touch the SM, its
** caches, its request pool and its own ports of the memory system. */
static inline void tick_front(gpu_sm *sm, uint64_t now)
{
    account_skip(sm, now);
    if (sm->finished) sm->finished = 0;   /* (the launch loop's line: written only when it changes) */
    sm->changed = false;
    sm->starts = sm->npending ? cta_starts(sm, now) : UINT64_MAX;
    rs_tick(&sm->rs);
    gpu_ldst_replies(sm, now);
    /* The replies come first in the cycle, and every later stage sees what
    ** they moved (fills, the L1D's lookups, loads done): they alone do not
    ** make the next cycle due, whose events the next-event answers give (the
    ** L1s' queues, a blocked request let go; the next reply through the
    ** launch loop's reply wakes).  A store's ack that let a warp go does:
    ** the CTA starts were found before it. */
    sm->changed = sm->acked;
    sm->acked = false;
    while (sm->nwb && sm->wb[0].cycle <= now) {
        gpu_wb e = wb_pop(sm);
        gpu_sm_writeback(sm, e.warp, e.si, e.mem, now);
    }
    gpu_oc_cycle(sm, now);
    gpu_ldst_cycle(sm, now);
}

/* The issue stage, or the repeat of the last one's outcomes (issue_memo):
** each scheduler's slot counted again with its reason and pc, as for a
** skipped cycle (the pc rows' share waits in pc_skip: account_skip_pcs). */
static inline void issue_or_repeat(gpu_sm *sm, uint64_t now)
{
    if (sm->issue_memo && !sm->issue_dirty && now < sm->issue_until) {
        for (uint32_t s = 0; s < sm->c->nsched; s++) sm->issue[sm->slot_reason[s]]++;
        if (sm->c->stats_pc) sm->pc_skip++;
        return;
    }
    flush_pc_skip(sm);   /* before the slots change */
    issue_stage(sm, now);
}

static inline void tick_issue(gpu_sm *sm, uint64_t now)
{
    if (sm->nrel && sm->turn && !sm->turn->held) gpu_turn_wait(sm->turn); /* exec's slots are the grid's */
    for (uint32_t i = 0; i < sm->nrel; i++) exec_cta_release(sm->rel[i]);
    sm->nrel = 0;
    issue_or_repeat(sm, now);
}

static inline uint32_t tick_back(gpu_sm *sm, uint64_t now)
{
    fetch_stage(sm, now);
    /* A request sent is the last move of a cycle, and the next-event
    ** answers below see what it changed (the miss queue's next head, a
    ** blocked L1D access let go: gpu_ldst_next), so a cycle whose only move
    ** was the send is taken as one that changed nothing. */
    bool changed = sm->changed;
    gpu_ldst_send(sm, now);
    sm->resident_warp_cycles += sm->nwarps_live;
    rs_account(&sm->rs, 1);
    sm->last_tick = now;
    /* When nothing changed, nothing will until a timed event. */
    sm->send_poll = false;
    if (changed) {
        sm->wake = now + 1;
    } else {
        sm->send_poll = !gpu_memsys_can_accept(sm->lx->g->ms, sm->id, NULL);
        uint64_t next = sm->starts;
        if (sm->nwb && sm->wb[0].cycle < next) next = sm->wb[0].cycle;
        uint64_t t = gpu_oc_next(sm, now);
        if (t < next) next = t;
        t = gpu_ldst_next(sm, now);
        if (t < next) next = t;
        for (uint32_t i = 0; sm->c->fetch_lat > 1 && i < sm->c->max_warps; i++) {
            const gpu_warp *w = &sm->warps[i];
            if (w->state == GPU_W_ACTIVE && w->nib && w->ib[0].ready > now && w->ib[0].ready < next)
                next = w->ib[0].ready;
        }
        sm->wake = next <= now ? now + 1 : next;
    }
    return sm->finished;
}

void gpu_tsum_to_ks(gpu_kstats *ks, gpu_tsum *t)
{
    ks->warp_insns += t->warp_insns;
    ks->thread_insns += t->thread_insns;
    ks->tensor_insns += t->tensor_insns;
    ks->tensor_macs += t->tensor_macs;
    memset(t, 0, sizeof *t);
}

void gpu_sm_flush(gpu_sm *sm)
{
    gpu_tsum_to_ks(sm->lx->ks, &sm->n);
    exec_grid_merge(sm->lx->grid, sm->id);
}

void gpu_sm_flush_to(gpu_sm *sm, gpu_tsum *t, uint32_t ctx)
{
    t->warp_insns += sm->n.warp_insns;
    t->thread_insns += sm->n.thread_insns;
    t->tensor_insns += sm->n.tensor_insns;
    t->tensor_macs += sm->n.tensor_macs;
    memset(&sm->n, 0, sizeof sm->n);
    exec_grid_merge_into(sm->lx->grid, sm->id, ctx);
}

uint32_t gpu_sm_tick(gpu_sm *sm, uint64_t now)
{
    tick_front(sm, now);
    tick_issue(sm, now);
    gpu_sm_flush(sm);
    return tick_back(sm, now);
}

void gpu_sm_tick_front(gpu_sm *sm, uint64_t now) { tick_front(sm, now); }
void gpu_sm_tick_issue(gpu_sm *sm, uint64_t now) { tick_issue(sm, now); }
uint32_t gpu_sm_tick_back(gpu_sm *sm, uint64_t now) { return tick_back(sm, now); }

bool gpu_sm_idle(const gpu_sm *sm)
{
    return sm->nwarps_live == 0 && sm->nwb == 0 && gpu_ldst_idle(sm);
}
