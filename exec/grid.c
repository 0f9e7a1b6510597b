/*
** grid.c -- the stepping interface of exec.h: open a launch, start CTAs on
** SMs, bring a warp to its next instruction, execute exactly one warp
** instruction (or, on the functional fast path, a run of them), watch for
** livelock and deadlock, close the launch.  Also the one occupancy function.
**
** One instruction, from the warp's point of view (warp_ready, warp_exec):
**   1. settle: pop finished reconvergence entries (or, with exec.its, let the
**      next thread group run) until the top entry has an instruction;
**   2. evaluate the guard, fill the special-register scratch rows the
**      instruction reads, run its handler;
**   3. advance the pc (handlers of control instructions set it themselves).
** exec_warp_run repeats 1-3 without records (the functional driver);
** exec_warp_next does 1 and describes the instruction; exec_warp_step does
** 2-3 with a record, then 1 again so that a warp that has just finished says
** so in the same record.  Both paths share warp_ready and warp_exec, so the
** functional suite checks what the timing model runs.
**
** Records: while exec_warp_step runs an instruction the step context's rec
** (w->x->rec) points to its record; the memory handlers (sem_mem.c) fill in
** per-lane addresses and spaces, barrier code bumps the CTA's bar_releases.
** With rec NULL (the functional fast path) nothing is recorded.
*/
#include "check.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- occupancy ------------------------------------------------------------------ */

const char *exec_occ_limit_name(exec_occ_limit l)
{
    switch (l) {
    case EXEC_OCC_CTAS: return "ctas";
    case EXEC_OCC_WARPS: return "warps";
    case EXEC_OCC_REGS: return "registers";
    case EXEC_OCC_SHARED: return "shared";
    default: return "none";
    }
}

static uint32_t kernel_shared(exec_mod *m, uint32_t kidx, uint32_t dyn)
{
    exec_kinfo *ki = exec_kernel_info(m, kidx);
    uint64_t shared = ki->shared_static;
    if (dyn) shared = TP_ALIGN_UP(shared, ki->dyn_align) + dyn;
    return shared > UINT32_MAX ? UINT32_MAX : (uint32_t)shared;
}

void exec_occupancy(exec_mod *m, int kernel, uint32_t block_threads, uint32_t dyn_shared, exec_occ *o)
{
    memset(o, 0, sizeof *o);
    o->limit = EXEC_OCC_NONE;
    if (kernel < 0 || (uint32_t)kernel >= m->ptx->nfuncs || !block_threads) return;
    const tp_opts *op = &m->dev->opts;
    uint32_t warps = (block_threads + 31) / 32;
    uint32_t regs = exec_kernel_regs(m, (uint32_t)kernel);
    uint64_t runit = (uint64_t)tp_opt_i(op, OPT_DEVICE_REG_ALLOC_UNIT);
    uint64_t regs_cta = TP_ALIGN_UP((uint64_t)regs * 32, runit ? runit : 1) * warps;
    uint32_t shared = kernel_shared(m, (uint32_t)kernel, dyn_shared);
    o->regs_per_thread = regs;
    o->regs_per_cta = regs_cta > UINT32_MAX ? UINT32_MAX : (uint32_t)regs_cta;
    o->shared_per_cta = shared;
    o->warps_per_cta = warps;
    if (block_threads > (uint64_t)tp_opt_i(op, OPT_DEVICE_MAX_THREADS_PER_BLOCK) ||
        regs_cta > (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_BLOCK) ||
        shared > (uint64_t)exec_opt_shared_optin(op))
        return;
    o->by_ctas = (uint32_t)tp_opt_i(op, OPT_DEVICE_MAX_CTAS_PER_SM);
    o->by_warps = (uint32_t)(tp_opt_i(op, OPT_DEVICE_MAX_THREADS_PER_SM) / ((int64_t)warps * 32));
    uint64_t sunit = (uint64_t)tp_opt_i(op, OPT_DEVICE_SHARED_ALLOC_UNIT);
    uint64_t sh = TP_ALIGN_UP((uint64_t)shared, sunit ? sunit : 1);
    o->by_shared = sh ? (uint32_t)((uint64_t)tp_opt_i(op, OPT_DEVICE_SHARED_PER_SM) / sh) : UINT32_MAX;
    /* register sharing: the policy that marked the kernel says how many fit */
    const ptx_func *kf = &m->ptx->funcs[kernel];
    const exec_regshare *h = m->dev->regshare;
    if (kf->rs && h && h->occupancy) {
        h->occupancy(op, kf, o);
        return;
    }
    uint64_t rf = (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_SM);
    o->by_regs = regs_cta ? (uint32_t)(rf / regs_cta) : UINT32_MAX;
    exec_occ_settle(o);
}

void exec_occ_settle(exec_occ *o)
{
    uint32_t n = o->by_ctas;
    o->limit = EXEC_OCC_CTAS;
    if (o->by_warps < n) n = o->by_warps, o->limit = EXEC_OCC_WARPS;
    if (o->by_regs < n) n = o->by_regs, o->limit = EXEC_OCC_REGS;
    if (o->by_shared < n) n = o->by_shared, o->limit = EXEC_OCC_SHARED;
    o->ctas_per_sm = n;
    if (!n) o->limit = EXEC_OCC_NONE;
}

uint32_t exec_max_resident_ctas(exec_mod *m, int kernel, const exec_launch *l)
{
    exec_occ o;
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (threads > UINT32_MAX) return 0;
    exec_occupancy(m, kernel, (uint32_t)threads, l->shared_dyn, &o);
    return o.ctas_per_sm * (uint32_t)tp_opt_i(&m->dev->opts, OPT_DEVICE_NUM_SMS);
}

/* ---- CTA slots ---------------------------------------------------------------------- */

typedef struct slot_cache {
    exec_slot **a;
    uint32_t n;
} slot_cache;

static void warp_free(exec_warp *w)
{
    exec_its_free(w);
    exec_check_warp_free(w);
    free(w->stk);
    free(w->frames);
    free(w->rows);
    free(w->preds);
    free(w->sec_priv);
}

void exec_slots_free(exec_dev *d)
{
    slot_cache *c = d->slots;
    if (!c) return;
    for (uint32_t i = 0; i < c->n; i++) {
        exec_slot *s = c->a[i];
        for (uint32_t k = 0; k < s->cap_warps; k++) warp_free(&s->cta.warps[k]);
        exec_check_cta_free(&s->cta);
        free(s->cta.warps);
        free(s->cta.shmem);
        free(s->cta.local);
        free(s);
    }
    free(c->a);
    free(c);
    d->slots = NULL;
}

/* A free slot (the lowest-numbered one, so the same launches use the same
** buffers every run). */
static exec_slot *slot_take(exec_dev *d)
{
    slot_cache *c = d->slots;
    if (!c) c = d->slots = tp_calloc(1, sizeof *c);
    for (uint32_t i = 0; i < c->n; i++)
        if (!c->a[i]->busy) return c->a[i];
    c->a = tp_realloc(c->a, (c->n + 1) * sizeof *c->a);
    c->a[c->n] = tp_calloc(1, sizeof(exec_slot));
    return c->a[c->n++];
}

exec_cta *exec_cta_start(exec_grid *g, uint32_t sm)
{
    if (g->next_cta >= g->ncta || g->status != EXEC_OK) return NULL;
    exec_slot *s = slot_take(g->dev);
    exec_cta *c = &s->cta;
    uint64_t linear = g->next_cta++;
    const uint32_t *gd = g->l.grid;
    uint32_t nw = g->cta_warps;
    c->g = g;
    c->slot = s;
    c->linear = linear;
    c->id[0] = (uint32_t)(linear % gd[0]);
    c->id[1] = (uint32_t)((linear / gd[0]) % gd[1]);
    c->id[2] = (uint32_t)(linear / ((uint64_t)gd[0] * gd[1]));
    c->sm = sm;
    c->nwarps = nw;
    c->live = nw;
    memset(c->bar, 0, sizeof c->bar);
    if (!c->shmem || s->sh_cap < g->shared_bytes) {
        free(c->shmem);
        c->shmem = tp_calloc(g->shared_bytes ? g->shared_bytes : 1, 1);
        s->sh_cap = g->shared_bytes;
    }
    c->shsize = g->shared_bytes;
    size_t lb = (size_t)nw * 32 * g->local_per_thread;
    if (!c->local || s->local_cap < lb) {
        free(c->local);
        c->local = tp_calloc(lb ? lb : 1, 1);
        s->local_cap = lb;
    }
    if (s->cap_warps < nw) {
        c->warps = tp_realloc(c->warps, nw * sizeof *c->warps);
        memset(c->warps + s->cap_warps, 0, (nw - s->cap_warps) * sizeof *c->warps);
        s->cap_warps = nw;
    }
    const exec_fninfo *fi = &g->m->fninfo[g->kidx];
    for (uint32_t i = 0; i < nw; i++) {
        exec_warp *w = &c->warps[i];
        if (!w->stk) {
            w->capstk = 16;
            w->stk = tp_malloc(w->capstk * sizeof *w->stk);
            w->capframes = 8;
            w->frames = tp_calloc(w->capframes, sizeof *w->frames);
            w->nframes = 1;
        }
        if (w->caprows < fi->rows || !w->rows) {
            uint32_t cap = fi->rows ? fi->rows : 1;
            w->rows = tp_realloc(w->rows, (size_t)cap * 32 * sizeof(uint64_t));
            memset(w->rows + (size_t)w->caprows * 32, 0, (size_t)(cap - w->caprows) * 32 * sizeof(uint64_t));
            w->caprows = cap;
        }
        if (w->cappreds < fi->preds || !w->preds) {
            uint32_t cap = fi->preds ? fi->preds : 1;
            w->preds = tp_realloc(w->preds, cap * sizeof(uint32_t));
            memset(w->preds + w->cappreds, 0, (cap - w->cappreds) * sizeof(uint32_t));
            w->cappreds = cap;
        }
        w->g = g;
        w->x = &g->x0;
        w->cta = c;
        w->crows = g->m->crows;
        w->wid = i;
        w->tid0 = i * 32;
        uint32_t n = g->cta_threads - i * 32;
        w->valid = n >= 32 ? EXEC_FULL : (1u << n) - 1;
        w->exited = 0;
        w->carry = 0;
        w->state = EXEC_W_RUN;
        w->bar_dst = -1;
        w->insns = 0;
        exec_section_drop(w);
        w->nstk = 0;
        exec_push(w, g->kf->start, g->kf->end - 1, w->valid, 0);
        exec_its_free(w);
        w->nframes = 1;
        w->frames[0] = (exec_frame){g->kidx, 0, 0, 0, 0, -1, NULL, NULL};
        w->cf = 0;
        w->its_spin = 0;
        w->its_stop = UINT32_MAX;
        w->fp = w->rows;
        w->pp = w->preds;
        w->sp = 0;
        w->pc = g->kf->start;
        w->local = c->local + (size_t)i * 32 * g->local_per_thread;
    }
    if (TP_UNLIKELY(g->checks)) exec_check_cta_start(c);
    s->busy = true;
    if (g->nres == g->capres) {
        g->capres = g->capres ? g->capres * 2 : 16;
        g->res = tp_realloc(g->res, g->capres * sizeof *g->res);
    }
    s->res_idx = g->nres;
    g->res[g->nres++] = s;
    return c;
}

uint32_t exec_cta_nwarps(const exec_cta *c) { return c->nwarps; }
exec_warp *exec_cta_warp(exec_cta *c, uint32_t i) { return i < c->nwarps ? &c->warps[i] : NULL; }
bool exec_cta_done(const exec_cta *c) { return c->live == 0; }

void exec_cta_release(exec_cta *c)
{
    exec_slot *s = c->slot;
    exec_grid *g = c->g;
    if (!s || !s->busy) return;
    s->busy = false;
    exec_slot *last = g->res[--g->nres];
    g->res[s->res_idx] = last;
    last->res_idx = s->res_idx;
}

/* ---- one instruction -------------------------------------------------------------- */

static void warp_done(exec_warp *w)
{
    w->state = EXEC_W_DONE;
    exec_cta *c = w->cta;
    c->live--;
    exec_progress(w);
    for (uint32_t id = 0; id < EXEC_NBAR; id++)
        if (c->bar[id].arrived) exec_bar_check(c, id); /* (its own first test, without the call) */
}

#if defined(__GNUC__)
#define EXEC_INLINE static inline __attribute__((always_inline))
#else
#define EXEC_INLINE static inline
#endif

/* Brings w's top entry to an instruction it can run.  false: the warp has
** no lanes left (it is marked done). */
EXEC_INLINE bool warp_ready(exec_warp *w)
{
    exec_grid *g = w->g;
    for (;;) {
        exec_stk *t = &w->stk[w->nstk - 1];
        if (TP_UNLIKELY(t->pc == t->rpc || !t->mask)) {
            if (!exec_settle(w)) {
                warp_done(w);
                return false;
            }
            continue;
        }
        if (TP_UNLIKELY(g->its) && t->pc == w->its_stop) { /* another group waits here: merge */
            if (!exec_its_settle(w)) {
                warp_done(w);
                return false;
            }
            continue;
        }
        return true;
    }
}

/* Executes the instruction at the top entry's pc (warp_ready said there is
** one) and counts its thread instructions (the caller counts the warp
** instruction).  Returns whether the warp may go on running now: it did not
** stop at a barrier, finish, fault or yield. */
EXEC_INLINE bool warp_exec(exec_warp *w, const ptx_insn *xi, const exec_dinsn *dd)
{
    exec_grid *g = w->g;
    exec_stk *t = &w->stk[w->nstk - 1];
    uint32_t pc = t->pc;
    const ptx_insn *in = &xi[pc];
    const exec_dinsn *d = &dd[pc];
    uint32_t m = t->mask;
    if (in->guard >= 0) {
        uint32_t p = w->pp[in->guard];
        m &= in->guard_neg ? ~p : p;
    }
    w->x->thread_insns += t->mask == EXEC_FULL ? 32 : tp_popc32(t->mask);
    if (TP_UNLIKELY(g->trace)) exec_trace(w, in, m);
    if (!m) {
        /* section marks hold for a warp none of whose lanes runs the instruction */
        if (TP_UNLIKELY(g->rs != NULL) && g->m->phys->rsf && g->m->phys->rsf[pc] && !exec_section_point(w, pc))
            return false;
        t->pc = pc + 1;
        /* A control instruction is a scheduling point even when no lane takes it. */
        if (TP_UNLIKELY(g->its) && (d->kind & EXEC_DK_CTRL) && !exec_its_settle(w)) {
            warp_done(w);
            return false;
        }
        return true;
    }
    if (d->kind & EXEC_DK_SREG) exec_fill_sregs(w, d);
    if (TP_UNLIKELY(g->conv_hook) && (d->kind & EXEC_DK_CONV)) {
        if (g->its && !exec_its_converged(w, in, d, m)) {
            if (w->x->rec) w->x->rec->events |= EXEC_EV_WAIT_CONVERGE;
            return g->status == EXEC_OK; /* this group waits; another runs */
        }
        if (g->checks) exec_check_conv(w, in, d, m);
    }
    if (d->kind & EXEC_DK_CTRL) {
        d->fn(w, in, d, m);
        if (g->its && w->state == EXEC_W_RUN && g->status == EXEC_OK && !exec_its_settle(w)) {
            warp_done(w);
            return false;
        }
        return w->state == EXEC_W_RUN && g->status == EXEC_OK && !w->x->yield;
    }
    d->fn(w, in, d, m);
    /* a fault stops the warp at the instruction; one that runs alone in an
    ** SM's context goes on whatever other SMs' instructions did (exec.h) */
    if (TP_UNLIKELY(g->status != EXEC_OK) && (w->x == &g->x0 || !g->m->si[pc].alone || g->status == EXEC_ERR_LIVELOCK))
        return false;
    w->stk[w->nstk - 1].pc = pc + 1;
    return true;
}

uint32_t exec_warp_run(exec_warp *w, uint32_t budget)
{
    exec_grid *g = w->g;
    const ptx_insn *xi = g->m->xi;
    const exec_dinsn *dd = g->m->d;
    exec_xs *x = w->x = &g->x0;
    uint32_t ran = 0;
    x->yield = false;
    if (w->state != EXEC_W_RUN) return 0;
    /* no further than exec.spin_limit instructions without progress: the
    ** watchdog then reports at the same count as in performance mode */
    uint64_t left = g->spin_limit > x->since_progress ? g->spin_limit - x->since_progress : 0;
    if (budget > left) budget = (uint32_t)left;
    /* Without a trace and independent thread scheduling, a run of plain
    ** instructions (no control, no convergence, no guard) takes a shorter
    ** loop: they leave the SIMT stack alone (only EXEC_DK_CTRL handlers
    ** change it), so its top entry, mask and count stay as they are; the
    ** handlers still see the pc on the stack, and a fault leaves it at the
    ** instruction, as warp_exec does. */
    bool plain = !g->trace && !g->its;
    while (ran < budget) {
        if (!warp_ready(w)) break;
        if (plain) {
            exec_stk *t = &w->stk[w->nstk - 1];
            uint32_t mask = t->mask, n = mask == EXEC_FULL ? 32 : tp_popc32(mask);
            bool stop = false;
            while (ran < budget && t->pc != t->rpc) {
                uint32_t pc = t->pc;
                const exec_dinsn *d = &dd[pc];
                const ptx_insn *in = &xi[pc];
                if ((d->kind & (EXEC_DK_CTRL | EXEC_DK_CONV)) || in->guard >= 0) break;
                ran++;
                x->clock++;
                x->thread_insns += n;
                if (d->kind & EXEC_DK_SREG) exec_fill_sregs(w, d);
                d->fn(w, in, d, mask);
                if (TP_UNLIKELY(g->status != EXEC_OK)) {
                    stop = true;
                    break;
                }
                t->pc = pc + 1;
            }
            if (stop || ran >= budget) break;
            if (t->pc == t->rpc) continue; /* warp_ready settles the entry */
        }
        ran++;
        x->clock++;
        if (!warp_exec(w, xi, dd)) break;
    }
    x->warp_insns += ran;
    x->since_progress += ran;
    w->insns += ran;
    return ran;
}

/* One CTA's turn in functional mode: rounds over its warps, each running up
** to quantum instructions, until no warp runs (all wait, at a barrier or on
** another CTA, or are done), a warp yields (nanosleep), the grid stops, or
** the CTA has run patience instructions since it last made progress (wrote
** memory, finished a warp, opened a barrier: the watchdog's own measure).
** patience 0 is one round.  A CTA that spins on another CTA's flag thus
** gives way after patience instructions; one that computes keeps its
** warps' registers in the host's caches until it waits or ends. */
uint64_t exec_cta_run(exec_cta *c, uint32_t quantum, uint64_t patience)
{
    exec_grid *g = c->g;
    exec_xs *x = &g->x0;
    uint64_t total = 0, stalled = 0;
    for (;;) {
        uint64_t round = 0, before = x->since_progress;
        bool yielded = false;
        for (uint32_t i = 0; i < c->nwarps && g->status == EXEC_OK; i++) {
            round += exec_warp_run(&c->warps[i], quantum);
            yielded |= x->yield;
        }
        total += round;
        if (!round || yielded || g->status != EXEC_OK || c->live == 0) break;
        /* progress during the round restarted the count: what it shows now is
        ** what ran since */
        stalled = x->since_progress < before + round ? x->since_progress : stalled + round;
        if (stalled >= patience) break;
    }
    return total;
}

uint32_t exec_warp_index(const exec_warp *w) { return w->wid; }

uint32_t exec_warp_pcs(const exec_warp *w, uint32_t *pcs, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = w->nstk; i-- > 0;) {
        if (!w->stk[i].mask) continue;
        if (n < max) pcs[n] = w->stk[i].pc;
        n++;
    }
    return n;
}

exec_wstate exec_warp_next(exec_warp *w, exec_next *n)
{
    if (w->state == EXEC_W_DONE) return EXEC_WS_DONE;
    if (w->state == EXEC_W_BAR) return EXEC_WS_BARRIER;
    if (!warp_ready(w)) return EXEC_WS_DONE;
    const exec_stk *t = &w->stk[w->nstk - 1];
    n->pc = t->pc;
    n->mask = t->mask;
    n->si = &w->g->m->si[t->pc];
    n->needs_section = w->g->rs && !w->sec_held && w->g->m->phys->rsf && (w->g->m->phys->rsf[t->pc] & PTX_RS_ACQUIRE);
    return EXEC_WS_READY;
}

/* The four host lines of a 32-lane row. */
static inline void prefetch_row(const uint64_t *row)
{
    for (uint32_t k = 0; k < 32; k += 8) __builtin_prefetch(row + k, 1, 2);
}

void exec_warp_prefetch(const exec_warp *w, uint32_t pc)
{
    const exec_mod *m = w->g->m;
    if (pc >= m->ptx->ninsns || w->state != EXEC_W_RUN) return;
    const ptx_insn *in = &m->xi[pc];
    for (uint32_t k = 0; k < in->nopnd; k++) {
        const ptx_opnd *o = &in->o[k];
        if (o->kind == PTX_OK_REG) {
            prefetch_row(exec_src(w, o));
        } else if (o->kind == PTX_OK_ADDR && o->base == PTX_AB_REG) {
            prefetch_row(w->fp + (size_t)o->r * 32); /* the base register's row */
        } else if (o->kind == PTX_OK_VEC) {
            for (uint32_t e = 0; e < o->n; e++)
                if (m->xpool[o->r + e].kind == PTX_OK_REG) prefetch_row(exec_src(w, &m->xpool[o->r + e]));
        }
    }
}

/* One instruction in step context x (the grid's or an SM's).  An SM's
** context on its own (exec_sinfo.alone: the instruction touches nothing but
** its warp and cannot fault) runs after a fault, which other SMs'
** instructions may raise meanwhile, but not after the livelock watchdog:
** exec_warp_step_in. */
static void step(exec_warp *w, exec_xs *x, uint64_t cycle, exec_rec *rec)
{
    exec_grid *g = w->g;
    if (w->state != EXEC_W_RUN) return;
    if (x == &g->x0 && g->status != EXEC_OK) return;
    w->x = x;
    if (!warp_ready(w)) return;
    exec_rec scratch;
    if (!rec) rec = &scratch;
    const exec_stk *t = &w->stk[w->nstk - 1];
    const exec_sinfo *si = &g->m->si[t->pc];
    bool alone = x != &g->x0 && si->alone && g->status != EXEC_ERR_LIVELOCK;
    if (!alone && g->status != EXEC_OK) return;
    const ptx_insn *in = &g->m->xi[t->pc];
    rec->pc = t->pc;
    rec->mask = t->mask;
    rec->active = t->mask;
    if (in->guard >= 0) rec->active &= in->guard_neg ? ~w->pp[in->guard] : w->pp[in->guard];
    rec->events = 0;
    rec->space = 0;
    rec->npass = 0;
    rec->xaddr = NULL;
    rec->si = si;
    uint32_t releases = w->cta->bar_releases;
    exec_cta *cta = w->cta;
    x->rec = rec;
    x->mem_hook = 1;
    x->yield = false;
    x->clock = cycle;
    x->warp_insns++;
    x->since_progress++;
    w->insns++;
    warp_exec(w, g->m->xi, g->m->d);
    x->rec = NULL;
    x->mem_hook = g->checks != 0;
    if (w->state == EXEC_W_RUN && (alone || g->status == EXEC_OK)) warp_ready(w); /* finished? say so now */
    if (w->state == EXEC_W_BAR) {
        rec->events |= EXEC_EV_BAR_WAIT;
        rec->bar_id = w->bar_id;
    }
    if (w->state == EXEC_W_DONE) {
        rec->events |= EXEC_EV_WARP_DONE;
        if (cta->live == 0) rec->events |= EXEC_EV_CTA_DONE;
        if (w->sec_held) {
            exec_section_drop(w);
            rec->events |= EXEC_EV_SECTION_FREE;
        }
    }
    if (cta->bar_releases != releases) rec->events |= EXEC_EV_BAR_RELEASE;
    if (x->yield) rec->events |= EXEC_EV_YIELD;
    /* the livelock watchdog at the instruction that reaches exec.spin_limit,
    ** as exec_warp_run stops there: both modes report the same count (an SM's
    ** context counts from the grid's count at its last merge; a model that
    ** runs SMs at once does so only where this cannot fire) */
    uint64_t since = x == &g->x0 || x->progressed ? x->since_progress : g->x0.since_progress + x->since_progress;
    if (since >= g->spin_limit && g->status == EXEC_OK) {
        exec_stuck_report(g, false);
        rec->events |= EXEC_EV_FAULT;
    }
    /* an alone instruction did not stop the grid (another SM's may have, meanwhile) */
    if (!alone && g->status != EXEC_OK) rec->events |= EXEC_EV_FAULT;
}

void exec_warp_step(exec_warp *w, uint64_t cycle, exec_rec *rec) { step(w, &w->g->x0, cycle, rec); }

void exec_warp_step_in(exec_warp *w, uint32_t sm, uint64_t cycle, exec_rec *rec)
{
    exec_grid *g = w->g;
    step(w, sm < g->nxs ? &g->xs[sm] : &g->x0, cycle, rec);
}

void exec_grid_contexts(exec_grid *g, uint32_t n)
{
    if (n <= g->nxs) return;
    exec_xs *xs = tp_calloc_lines(n, sizeof *xs);
    if (g->nxs) memcpy(xs, g->xs, g->nxs * sizeof *xs);
    free(g->xs);
    g->xs = xs;
    g->nxs = n;
}

/* Adds a's counts to t's as if a's instructions came after t's, and empties a. */
static void xs_merge(exec_xs *t, exec_xs *a)
{
    t->warp_insns += a->warp_insns;
    t->thread_insns += a->thread_insns;
    if (a->progressed) {
        t->since_progress = a->since_progress;
        t->progressed = true;
    } else {
        t->since_progress += a->since_progress;
    }
    a->warp_insns = a->thread_insns = a->since_progress = 0;
    a->progressed = false;
}

void exec_grid_merge(exec_grid *g, uint32_t sm)
{
    if (sm >= g->nxs) return;
    xs_merge(&g->x0, &g->xs[sm]);
}

void exec_grid_merge_into(exec_grid *g, uint32_t from, uint32_t to)
{
    if (from >= g->nxs || to >= g->nxs || from == to) return;
    xs_merge(&g->xs[to], &g->xs[from]);
}

uint64_t exec_grid_spin_room(const exec_grid *g)
{
    return g->spin_limit > g->x0.since_progress ? g->spin_limit - g->x0.since_progress : 0;
}

bool exec_grid_parallel_ok(const exec_grid *g)
{
    return !g->its && !g->checks && !g->trace && !g->rs;
}

/* ---- the launch ------------------------------------------------------------------ */

static exec_grid *refuse(exec_result *r, exec_status st, const char *fmt, ...) TP_PRINTF(3, 4);
static exec_grid *refuse(exec_result *r, exec_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    r->status = st;
    return NULL;
}

static uint64_t grid_counter;

exec_grid *exec_grid_open(exec_mod *m, int kernel, const exec_launch *l, exec_result *r)
{
    memset(r, 0, sizeof *r);
    exec_dev *dev = m->dev;
    const tp_opts *o = &dev->opts;
    if (kernel < 0 || (uint32_t)kernel >= m->ptx->nfuncs || !m->ptx->funcs[kernel].is_entry)
        return refuse(r, EXEC_ERR_NOT_FOUND, "no such kernel");
    const ptx_func *kf = &m->ptx->funcs[kernel];
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t ncta = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (!threads || !ncta)
        return refuse(r, EXEC_ERR_INVALID_VALUE, "kernel '%s': grid (%u,%u,%u) or block (%u,%u,%u) has a zero dimension",
                      kf->name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
    uint64_t maxt = (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_THREADS_PER_BLOCK);
    if (threads > maxt || l->block[0] > 1024 || l->block[1] > 1024 || l->block[2] > 64)
        return refuse(r, EXEC_ERR_INVALID_VALUE, "kernel '%s': block (%u,%u,%u) exceeds the device's limits (%llu threads; x,y <= 1024, z <= 64)",
                      kf->name, l->block[0], l->block[1], l->block[2], (unsigned long long)maxt);
    if (l->grid[0] > (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_GRID_X) || l->grid[1] > (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_GRID_YZ) ||
        l->grid[2] > (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_GRID_YZ))
        return refuse(r, EXEC_ERR_INVALID_VALUE, "kernel '%s': grid (%u,%u,%u) exceeds the device's limits",
                      kf->name, l->grid[0], l->grid[1], l->grid[2]);
    if (kf->reqntid[0] && (l->block[0] != kf->reqntid[0] || l->block[1] != (kf->reqntid[1] ? kf->reqntid[1] : 1) ||
                           l->block[2] != (kf->reqntid[2] ? kf->reqntid[2] : 1)))
        return refuse(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' requires blocks of (%u,%u,%u) threads (.reqntid)",
                      kf->name, kf->reqntid[0], kf->reqntid[1], kf->reqntid[2]);
    if (kf->maxntid[0]) {
        uint64_t mt = (uint64_t)kf->maxntid[0] * (kf->maxntid[1] ? kf->maxntid[1] : 1) * (kf->maxntid[2] ? kf->maxntid[2] : 1);
        if (threads > mt)
            return refuse(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' allows at most %llu threads per block (.maxntid)",
                          kf->name, (unsigned long long)mt);
    }
    exec_kinfo *ki = exec_kernel_info(m, (uint32_t)kernel);
    exec_occ occ;
    exec_occupancy(m, kernel, (uint32_t)threads, l->shared_dyn, &occ);
    /* the hardware's limit is the opt-in one; the API holds each kernel to its own */
    if (occ.shared_per_cta > (uint64_t)exec_opt_shared_optin(o))
        return refuse(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' needs %u bytes of shared memory per block (%u static + %u dynamic); the device allows %lld",
                      kf->name, occ.shared_per_cta, ki->shared_static, l->shared_dyn,
                      (long long)exec_opt_shared_optin(o));
    if (occ.regs_per_cta > (uint64_t)tp_opt_i(o, OPT_DEVICE_REGS_PER_BLOCK))
        return refuse(r, EXEC_ERR_OUT_OF_RESOURCES, "kernel '%s' needs %u registers per thread: %u for a block of %llu threads, the device has %lld per block",
                      kf->name, occ.regs_per_thread, occ.regs_per_cta, (unsigned long long)threads,
                      (long long)tp_opt_i(o, OPT_DEVICE_REGS_PER_BLOCK));
    if (kf->rs && !occ.ctas_per_sm)
        return refuse(r, EXEC_ERR_OUT_OF_RESOURCES,
                      "kernel '%s': no CTA of %llu threads fits an SM beside its shared registers (regs.policy: %u base registers per thread, sections of %u x 32)",
                      kf->name, (unsigned long long)threads, occ.regs_per_thread, kf->rs->ext);
    if (l->params_bytes < kf->param_bytes)
        return refuse(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' takes %u bytes of parameters, %u given",
                      kf->name, kf->param_bytes, l->params_bytes);
    uint32_t nsm = (uint32_t)tp_opt_i(o, OPT_DEVICE_NUM_SMS);
    if (l->grid_workspace) {
        uint64_t cap = (uint64_t)(occ.ctas_per_sm ? occ.ctas_per_sm : 1) * nsm;
        if (ncta > cap)
            return refuse(r, EXEC_ERR_COOP_TOO_LARGE,
                          "cooperative launch of kernel '%s' with %llu blocks: the device holds %llu at once",
                          kf->name, (unsigned long long)ncta, (unsigned long long)cap);
    }

    exec_grid *g = tp_calloc(1, sizeof *g);
    g->m = m;
    g->dev = dev;
    g->kf = kf;
    g->kidx = (uint32_t)kernel;
    g->ki = ki;
    g->rs = kf->rs;
    g->l = *l;
    g->params_bytes = l->params_bytes;
    g->params = tp_malloc(l->params_bytes ? l->params_bytes : 1);
    if (l->params_bytes) memcpy(g->params, l->params, l->params_bytes);
    g->cta_threads = (uint32_t)threads;
    g->cta_warps = occ.warps_per_cta;
    g->ncta = ncta;
    g->shared_bytes = occ.shared_per_cta;
    g->occ = occ;
    g->nsm = nsm;
    g->gridid = ++grid_counter;
    g->quantum = (uint32_t)tp_opt_i(o, OPT_EXEC_QUANTUM);
    g->spin_limit = (uint64_t)tp_opt_i(o, OPT_EXEC_SPIN_LIMIT);
    g->max_insns = (uint64_t)tp_opt_i(o, OPT_EXEC_MAX_WARP_INSNS);
    g->heap_limit = (uint64_t)tp_opt_i(o, OPT_EXEC_HEAP_BYTES);
    g->its = tp_opt_i(o, OPT_EXEC_ITS) != 0;
    g->oob_warn = tp_opt_i(o, OPT_EXEC_OOB) == 1;
    g->clock_mhz = (double)tp_opt_i(o, OPT_DEVICE_CLOCK_MHZ);
    const char *tr = tp_opt_s(o, OPT_EXEC_TRACE);
    g->trace = tr && *tr && (strcmp(tr, "1") == 0 || strcmp(tr, "all") == 0 || strcmp(tr, kf->name) == 0);
    /* Local memory: the kernel's frame, plus a call stack if it calls functions. */
    bool calls = false;
    for (uint32_t pc = kf->start; pc < kf->end && !calls; pc++)
        if (m->ptx->insns[pc].op == PTX_OP_CALL) calls = true;
    uint64_t lpt = m->fninfo[kernel].frame_bytes;
    if (calls) lpt += (uint64_t)tp_opt_i(o, OPT_EXEC_STACK_BYTES);
    g->local_per_thread = (uint32_t)TP_ALIGN_UP(lpt ? lpt : 16, 16);
    if (l->grid_workspace) {
        /* %envreg1:%envreg2 say where the cooperative grid's workspace is. */
        g->envreg[1] = (uint32_t)(l->grid_workspace >> 32);
        g->envreg[2] = (uint32_t)l->grid_workspace;
    }
    r->regs_per_thread = occ.regs_per_thread;
    g->conv_hook = g->its;
    exec_check_grid_open(g);
    return g;
}

uint64_t exec_grid_ctas(const exec_grid *g) { return g->ncta; }
uint64_t exec_grid_ctas_started(const exec_grid *g) { return g->next_cta; }
const exec_occ *exec_grid_occ(const exec_grid *g) { return &g->occ; }
uint32_t exec_grid_warps_per_cta(const exec_grid *g) { return g->cta_warps; }
uint32_t exec_grid_local_bytes(const exec_grid *g) { return g->local_per_thread; }
const char *exec_grid_kernel_name(const exec_grid *g) { return g->kf->name; }
const ptx_func *exec_grid_kernel(const exec_grid *g) { return g->kf; }
exec_status exec_grid_status(const exec_grid *g) { return g->status; }
void exec_grid_set_clock_mhz(exec_grid *g, double mhz) { g->clock_mhz = mhz > 0 ? mhz : g->clock_mhz; }

exec_status exec_grid_watchdog(exec_grid *g, bool stuck)
{
    if (g->status != EXEC_OK) return g->status;
    if (stuck && g->nres) {
        bool any_run = false;
        for (uint32_t s = 0; s < g->nres && !any_run; s++) {
            const exec_cta *c = &g->res[s]->cta;
            for (uint32_t i = 0; i < c->nwarps; i++)
                if (c->warps[i].state == EXEC_W_RUN) {
                    any_run = true;
                    break;
                }
        }
        if (!any_run) exec_stuck_report(g, true);
    }
    if (g->status == EXEC_OK && g->x0.since_progress >= g->spin_limit) exec_stuck_report(g, false);
    if (g->status == EXEC_OK && g->max_insns && g->x0.warp_insns >= g->max_insns) {
        g->status = EXEC_ERR_LIMIT;
        snprintf(g->msg, sizeof g->msg, "kernel '%s' stopped after %llu warp instructions (exec.max_warp_insns)",
                 g->kf->name, (unsigned long long)g->x0.warp_insns);
    }
    return g->status;
}

exec_status exec_grid_close(exec_grid *g, exec_result *r)
{
    while (g->nres) exec_cta_release(&g->res[g->nres - 1]->cta);
    for (uint32_t s = 0; s < g->nxs; s++) exec_grid_merge(g, s);
    exec_check_grid_close(g, r);
    r->status = g->status;
    r->warp_insns = g->x0.warp_insns;
    r->thread_insns = g->x0.thread_insns;
    r->regs_per_thread = g->occ.regs_per_thread;
    snprintf(r->msg, sizeof r->msg, "%s", g->msg);
    free(g->params);
    free(g->xaddr);
    free(g->mmabuf);
    free(g->res);
    free(g->sec_store);
    free(g->xs);
    free(g);
    return r->status;
}
