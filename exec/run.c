/*
** run.c -- launching a kernel in the functional model.
**
** A launch checks its configuration, lays out the kernel's shared memory,
** and runs the grid with a fixed number of CTAs resident at once (as many as
** the device would hold, or exec.resident_ctas).  Resident CTAs take turns;
** within a CTA each runnable warp runs up to exec.quantum instructions per
** turn, until it waits at a barrier or finishes.  When a CTA finishes, the
** next one in linear order (x fastest) takes its place.  The order is fixed,
** so every run of the same launch executes the same instructions in the same
** order: results, counters and printf output are deterministic.
**
** A watchdog counts warp instructions since memory last changed (or a warp
** finished or a barrier opened); past exec.spin_limit the launch stops with
** a report of what every warp was doing, rather than hanging.
*/
#include "internal.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- fault reporting ----------------------------------------------------------- */

void exec_describe_pc(const exec_mod *m, uint32_t pc, tp_sbuf *out)
{
    const ptx_module *p = m->ptx;
    if (pc >= p->ninsns) {
        tp_sbuf_printf(out, "pc %u", pc);
        return;
    }
    const ptx_func *f = ptx_func_of_pc(p, pc);
    const ptx_insn *in = &p->insns[pc];
    tp_sbuf_printf(out, "pc %u (", f ? pc - f->start : pc);
    ptx_insn_print(p, f, in, out);
    tp_sbuf_printf(out, ") at %s:%u", m->name, in->line);
    if (in->srcline && in->srcfile < p->nfiles && p->files[in->srcfile])
        tp_sbuf_printf(out, " [%s:%u]", p->files[in->srcfile], in->srcline);
    if (f && f != &p->funcs[0] && !f->is_entry) tp_sbuf_printf(out, " in function '%s'", f->name);
}

static void thread_of(const exec_warp *w, int lane, uint32_t t3[3])
{
    const uint32_t *bd = w->g->l.block;
    uint32_t t = w->tid0 + (uint32_t)lane;
    t3[0] = t % bd[0];
    t3[1] = (t / bd[0]) % bd[1];
    t3[2] = t / (bd[0] * bd[1]);
}

void exec_fault(exec_warp *w, int lane, exec_status st, const char *fmt, ...)
{
    exec_grid *g = w->g;
    if (g->status != EXEC_OK) return;
    g->status = st;
    if (lane < 0) {
        uint32_t m = w->nstk ? exec_top(w)->mask : w->valid;
        lane = m ? __builtin_ctz(m) : 0;
    }
    tp_sbuf b;
    tp_sbuf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    tp_sbuf_vprintf(&b, fmt, ap);
    va_end(ap);
    uint32_t t3[3];
    thread_of(w, lane, t3);
    exec_cta *c = w->cta;
    tp_sbuf_printf(&b, " in kernel '%s', block (%u,%u,%u), thread (%u,%u,%u) (warp %u, lane %d), ",
                   g->kf->name, c->id[0], c->id[1], c->id[2], t3[0], t3[1], t3[2], w->wid, lane);
    uint32_t pc = w->nstk ? exec_top(w)->pc : 0;
    exec_describe_pc(g->m, pc, &b);
    snprintf(g->msg, 1024, "%s", tp_sbuf_str(&b));
    tp_sbuf_free(&b);
}

void exec_trace(exec_warp *w, const ptx_insn *in, uint32_t mask)
{
    exec_grid *g = w->g;
    const ptx_module *p = g->m->ptx;
    uint32_t pc = (uint32_t)(in - g->m->xi);
    const ptx_func *f = ptx_func_of_pc(p, pc);
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_sbuf_printf(&b, "[tpsim] %s cta(%u,%u,%u) w%u pc %4u mask %08x ", g->kf->name, w->cta->id[0],
                   w->cta->id[1], w->cta->id[2], w->wid, f ? pc - f->start : pc, mask);
    ptx_insn_print(p, f, &p->insns[pc], &b);
    tp_sbuf_putc(&b, '\n');
    fputs(tp_sbuf_str(&b), stderr);
    tp_sbuf_free(&b);
}

/* ---- CTA slots --------------------------------------------------------------- */

typedef struct slot {
    exec_cta cta;
    bool busy;
    uint32_t cap_warps;
    uint32_t sh_cap;
    size_t local_cap;
} slot;

/* Slots, with their buffers, outlive a launch: the device keeps them for the
** next one, so a program that launches many small kernels does not allocate
** and fault in fresh memory every time. */
typedef struct slot_cache {
    slot *a;
    uint32_t n;
} slot_cache;

static void warp_free(exec_warp *w)
{
    free(w->stk);
    free(w->frames);
    free(w->rows);
    free(w->preds);
}

static void slot_free(slot *s)
{
    for (uint32_t i = 0; i < s->cap_warps; i++) {
        exec_its_free(&s->cta.warps[i]);
        warp_free(&s->cta.warps[i]);
    }
    free(s->cta.warps);
    free(s->cta.shmem);
    free(s->cta.local);
}

void exec_slots_free(exec_dev *d)
{
    slot_cache *c = d->slots;
    if (!c) return;
    for (uint32_t i = 0; i < c->n; i++) slot_free(&c->a[i]);
    free(c->a);
    free(c);
    d->slots = NULL;
}

static slot *slots_get(exec_dev *d, uint32_t n)
{
    slot_cache *c = d->slots;
    if (!c) c = d->slots = tp_calloc(1, sizeof *c);
    if (c->n < n) {
        c->a = tp_realloc(c->a, n * sizeof *c->a);
        memset(c->a + c->n, 0, (n - c->n) * sizeof *c->a);
        c->n = n;
    }
    for (uint32_t i = 0; i < n; i++) c->a[i].busy = false;
    return c->a;
}

static void cta_start(exec_grid *g, slot *s, uint64_t linear)
{
    exec_cta *c = &s->cta;
    const uint32_t *gd = g->l.grid;
    uint32_t nw = g->cta_warps;
    c->linear = linear;
    c->id[0] = (uint32_t)(linear % gd[0]);
    c->id[1] = (uint32_t)((linear / gd[0]) % gd[1]);
    c->id[2] = (uint32_t)(linear / ((uint64_t)gd[0] * gd[1]));
    c->sm = (uint32_t)(linear % g->nsm);
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
    s->busy = true;
}

/* ---- the interpreter loop ------------------------------------------------------ */

static void warp_done(exec_warp *w)
{
    w->state = EXEC_W_DONE;
    exec_cta *c = w->cta;
    c->live--;
    exec_progress(w);
    for (uint32_t id = 0; id < EXEC_NBAR; id++) exec_bar_check(c, id);
}

/* Runs warp w for up to budget instructions; returns how many ran. */
static uint32_t run_warp(exec_warp *w, uint32_t budget)
{
    exec_grid *g = w->g;
    const ptx_insn *xi = g->m->xi;
    const exec_dinsn *dd = g->m->d;
    uint32_t ran = 0;
    g->yield = false;
    while (ran < budget) {
        exec_stk *t = &w->stk[w->nstk - 1];
        if (TP_UNLIKELY(t->pc == t->rpc || !t->mask)) {
            if (!exec_settle(w)) {
                warp_done(w);
                break;
            }
            continue;
        }
        uint32_t pc = t->pc;
        if (TP_UNLIKELY(g->its) && pc == w->its_stop) { /* another group waits here: merge */
            if (!exec_its_settle(w)) {
                warp_done(w);
                break;
            }
            continue;
        }
        const ptx_insn *in = &xi[pc];
        const exec_dinsn *d = &dd[pc];
        uint32_t m = t->mask;
        if (in->guard >= 0) {
            uint32_t p = w->pp[in->guard];
            m &= in->guard_neg ? ~p : p;
        }
        ran++;
        g->thread_insns += tp_popc32(t->mask);
        g->clock++;
        if (TP_UNLIKELY(g->trace)) exec_trace(w, in, m);
        if (!m) {
            t->pc = pc + 1;
            /* A control instruction is a scheduling point even when no lane takes it. */
            if (TP_UNLIKELY(g->its) && (d->kind & EXEC_DK_CTRL) && !exec_its_settle(w)) {
                warp_done(w);
                break;
            }
            continue;
        }
        if (d->kind & EXEC_DK_SREG) exec_fill_sregs(w, d);
        if (TP_UNLIKELY(g->its) && (d->kind & EXEC_DK_CONV) && !exec_its_converged(w, in, d, m)) {
            if (g->status != EXEC_OK) break;
            continue; /* this group waits; another runs */
        }
        if (d->kind & EXEC_DK_CTRL) {
            d->fn(w, in, d, m);
            if (g->its && w->state == EXEC_W_RUN && g->status == EXEC_OK && !exec_its_settle(w)) {
                warp_done(w);
                break;
            }
            if (w->state != EXEC_W_RUN || g->status != EXEC_OK || g->yield) break;
        } else {
            d->fn(w, in, d, m);
            if (TP_UNLIKELY(g->status != EXEC_OK)) break;
            w->stk[w->nstk - 1].pc = pc + 1;
        }
    }
    g->warp_insns += ran;
    w->insns += ran;
    return ran;
}

/* ---- livelock and deadlock reports ---------------------------------------------- */

static void stuck_report(exec_grid *g, slot *slots, uint32_t nslots, bool deadlock)
{
    tp_sbuf b;
    tp_sbuf_init(&b);
    exec_warp *first = NULL;
    uint32_t shown = 0;
    bool intra = false;
    for (uint32_t s = 0; s < nslots; s++) {
        if (!slots[s].busy) continue;
        exec_cta *c = &slots[s].cta;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            exec_warp *w = &c->warps[i];
            if (w->state == EXEC_W_DONE) continue;
            if (!first) first = w;
            if (w->nstk > 1 && w->state == EXEC_W_RUN) {
                uint32_t waiting = 0;
                for (uint32_t k = 0; k + 1 < w->nstk; k++) waiting |= w->stk[k].mask;
                waiting &= ~exec_top(w)->mask;
                if (waiting && !w->stk[w->nstk - 1].call) intra = true;
            }
            if (shown++ >= 6) continue;
            tp_sbuf_printf(&b, "\n  block (%u,%u,%u) warp %u: %s at ", c->id[0], c->id[1], c->id[2], w->wid,
                           w->state == EXEC_W_BAR ? "waiting at a barrier" : "running");
            exec_describe_pc(g->m, exec_top(w)->pc, &b);
            tp_sbuf_printf(&b, ", lanes %08x", exec_top(w)->mask);
            for (uint32_t k = w->nstk - 1; k-- > 0;)
                if (w->stk[k].mask & ~exec_top(w)->mask)
                    tp_sbuf_printf(&b, "; lanes %08x wait at pc %u", w->stk[k].mask & ~exec_top(w)->mask,
                                   w->stk[k].pc - ptx_func_of_pc(g->m->ptx, w->stk[k].pc)->start);
        }
    }
    if (!first) {
        tp_sbuf_free(&b);
        return;
    }
    exec_status st = deadlock ? EXEC_ERR_DEADLOCK : EXEC_ERR_LIVELOCK;
    const char *what = deadlock
        ? "barrier deadlock: every warp waits at a barrier that cannot complete"
        : intra ? "livelock: no warp changed memory, finished or passed a barrier for exec.spin_limit warp "
                  "instructions, and lanes of one warp wait at a reconvergence point while others spin "
                  "(an intra-warp lock or flag: sm_70+ code relies on independent thread scheduling, "
                  "which tpsim's stack-based SIMT model does not provide)"
                : "livelock or deadlock: no warp changed memory, finished or passed a barrier for "
                  "exec.spin_limit warp instructions (if the kernel is just long, raise the option exec.spin_limit, e.g. TPSIM_OPTIONS=exec.spin_limit=1000000000)";
    g->status = EXEC_OK; /* let exec_fault record it */
    exec_fault(first, -1, st, "%s%s\n ", what, tp_sbuf_str(&b));
    tp_sbuf_free(&b);
}

/* ---- launch -------------------------------------------------------------------- */

static uint32_t occupancy(exec_grid *g, uint32_t regs)
{
    const tp_opts *o = &g->dev->opts;
    uint32_t by_ctas = (uint32_t)tp_opt_i(o, OPT_DEVICE_MAX_CTAS_PER_SM);
    uint32_t by_threads = (uint32_t)tp_opt_i(o, OPT_DEVICE_MAX_THREADS_PER_SM) / (g->cta_warps * 32);
    uint32_t n = TP_MIN(by_ctas, by_threads);
    uint32_t unit = (uint32_t)tp_opt_i(o, OPT_DEVICE_SHARED_ALLOC_UNIT);
    uint64_t sh = TP_ALIGN_UP((uint64_t)g->shared_bytes, unit ? unit : 1);
    if (sh) n = TP_MIN(n, (uint32_t)((uint64_t)tp_opt_i(o, OPT_DEVICE_SHARED_PER_SM) / sh));
    uint32_t runit = (uint32_t)tp_opt_i(o, OPT_DEVICE_REG_ALLOC_UNIT);
    uint64_t rw = TP_ALIGN_UP((uint64_t)regs * 32, runit ? runit : 1) * g->cta_warps;
    if (rw) n = TP_MIN(n, (uint32_t)((uint64_t)tp_opt_i(o, OPT_DEVICE_REGS_PER_SM) / rw));
    return n ? n : 1;
}

static exec_status invalid(exec_result *r, exec_status st, const char *fmt, ...) TP_PRINTF(3, 4);
static exec_status invalid(exec_result *r, exec_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    r->status = st;
    return st;
}

uint32_t exec_max_resident_ctas(exec_mod *m, int kernel, const exec_launch *l)
{
    if (kernel < 0 || (uint32_t)kernel >= m->ptx->nfuncs) return 0;
    exec_grid g;
    memset(&g, 0, sizeof g);
    g.dev = m->dev;
    exec_kinfo *ki = exec_kernel_info(m, (uint32_t)kernel);
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    g.cta_warps = (uint32_t)((threads + 31) / 32);
    uint64_t shared = ki->shared_static;
    if (l->shared_dyn) shared = TP_ALIGN_UP(shared, ki->dyn_align) + l->shared_dyn;
    g.shared_bytes = (uint32_t)shared;
    if (!g.cta_warps) return 0;
    return occupancy(&g, exec_kernel_regs(m, (uint32_t)kernel)) * (uint32_t)tp_opt_i(&m->dev->opts, OPT_DEVICE_NUM_SMS);
}

static uint64_t grid_counter;

exec_status exec_launch_kernel(exec_mod *m, int kernel, const exec_launch *l, exec_result *r)
{
    memset(r, 0, sizeof *r);
    exec_dev *dev = m->dev;
    const tp_opts *o = &dev->opts;
    if (kernel < 0 || (uint32_t)kernel >= m->ptx->nfuncs || !m->ptx->funcs[kernel].is_entry)
        return invalid(r, EXEC_ERR_NOT_FOUND, "no such kernel");
    const ptx_func *kf = &m->ptx->funcs[kernel];
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t ncta = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (!threads || !ncta)
        return invalid(r, EXEC_ERR_INVALID_VALUE, "kernel '%s': grid (%u,%u,%u) or block (%u,%u,%u) has a zero dimension",
                       kf->name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
    uint64_t maxt = (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_THREADS_PER_BLOCK);
    if (threads > maxt || l->block[0] > 1024 || l->block[1] > 1024 || l->block[2] > 64)
        return invalid(r, EXEC_ERR_INVALID_VALUE, "kernel '%s': block (%u,%u,%u) exceeds the device's limits (%llu threads; x,y <= 1024, z <= 64)",
                       kf->name, l->block[0], l->block[1], l->block[2], (unsigned long long)maxt);
    if (l->grid[0] > (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_GRID_X) || l->grid[1] > (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_GRID_YZ) ||
        l->grid[2] > (uint64_t)tp_opt_i(o, OPT_DEVICE_MAX_GRID_YZ))
        return invalid(r, EXEC_ERR_INVALID_VALUE, "kernel '%s': grid (%u,%u,%u) exceeds the device's limits",
                       kf->name, l->grid[0], l->grid[1], l->grid[2]);
    if (kf->reqntid[0] && (l->block[0] != kf->reqntid[0] || l->block[1] != (kf->reqntid[1] ? kf->reqntid[1] : 1) ||
                           l->block[2] != (kf->reqntid[2] ? kf->reqntid[2] : 1)))
        return invalid(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' requires blocks of (%u,%u,%u) threads (.reqntid)",
                       kf->name, kf->reqntid[0], kf->reqntid[1], kf->reqntid[2]);
    if (kf->maxntid[0]) {
        uint64_t mt = (uint64_t)kf->maxntid[0] * (kf->maxntid[1] ? kf->maxntid[1] : 1) * (kf->maxntid[2] ? kf->maxntid[2] : 1);
        if (threads > mt)
            return invalid(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' allows at most %llu threads per block (.maxntid)",
                           kf->name, (unsigned long long)mt);
    }
    exec_kinfo *ki = exec_kernel_info(m, (uint32_t)kernel);
    uint64_t shared = ki->shared_static;
    if (l->shared_dyn) shared = TP_ALIGN_UP(shared, ki->dyn_align) + l->shared_dyn;
    if (shared > (uint64_t)exec_opt_shared_optin(o))
        return invalid(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' needs %llu bytes of shared memory per block (%u static + %u dynamic); the device allows %lld",
                       kf->name, (unsigned long long)shared, ki->shared_static, l->shared_dyn,
                       (long long)exec_opt_shared_optin(o));
    uint32_t regs = exec_kernel_regs(m, (uint32_t)kernel);
    uint32_t runit = (uint32_t)tp_opt_i(o, OPT_DEVICE_REG_ALLOC_UNIT);
    uint64_t cta_warps = (threads + 31) / 32;
    uint64_t regs_cta = TP_ALIGN_UP((uint64_t)regs * 32, runit ? runit : 1) * cta_warps;
    if (regs_cta > (uint64_t)tp_opt_i(o, OPT_DEVICE_REGS_PER_BLOCK))
        return invalid(r, EXEC_ERR_OUT_OF_RESOURCES, "kernel '%s' needs %u registers per thread: %llu for a block of %llu threads, the device has %lld per block",
                       kf->name, regs, (unsigned long long)regs_cta, (unsigned long long)threads,
                       (long long)tp_opt_i(o, OPT_DEVICE_REGS_PER_BLOCK));
    if (l->params_bytes < kf->param_bytes)
        return invalid(r, EXEC_ERR_INVALID_VALUE, "kernel '%s' takes %u bytes of parameters, %u given",
                       kf->name, kf->param_bytes, l->params_bytes);

    exec_grid g;
    memset(&g, 0, sizeof g);
    char msg[1024] = "";
    g.m = m;
    g.dev = dev;
    g.kf = kf;
    g.kidx = (uint32_t)kernel;
    g.ki = ki;
    g.l = *l;
    g.params_bytes = l->params_bytes;
    g.params = tp_malloc(l->params_bytes ? l->params_bytes : 1);
    if (l->params_bytes) memcpy(g.params, l->params, l->params_bytes);
    g.cta_threads = (uint32_t)threads;
    g.cta_warps = (uint32_t)cta_warps;
    g.ncta = ncta;
    g.shared_bytes = (uint32_t)shared;
    g.msg = msg;
    g.nsm = (uint32_t)tp_opt_i(o, OPT_DEVICE_NUM_SMS);
    g.gridid = ++grid_counter;
    g.quantum = (uint32_t)tp_opt_i(o, OPT_EXEC_QUANTUM);
    g.spin_limit = (uint64_t)tp_opt_i(o, OPT_EXEC_SPIN_LIMIT);
    g.max_insns = (uint64_t)tp_opt_i(o, OPT_EXEC_MAX_WARP_INSNS);
    g.heap_limit = (uint64_t)tp_opt_i(o, OPT_EXEC_HEAP_BYTES);
    g.its = tp_opt_i(o, OPT_EXEC_ITS) != 0;
    const char *tr = tp_opt_s(o, OPT_EXEC_TRACE);
    g.trace = tr && *tr && (strcmp(tr, "1") == 0 || strcmp(tr, "all") == 0 || strcmp(tr, kf->name) == 0);
    /* Local memory: the kernel's frame, plus a call stack if it calls functions. */
    bool calls = false;
    for (uint32_t pc = kf->start; pc < kf->end && !calls; pc++)
        if (m->ptx->insns[pc].op == PTX_OP_CALL) calls = true;
    uint64_t lpt = m->fninfo[kernel].frame_bytes;
    if (calls) lpt += (uint64_t)tp_opt_i(o, OPT_EXEC_STACK_BYTES);
    g.local_per_thread = (uint32_t)TP_ALIGN_UP(lpt ? lpt : 16, 16);

    uint32_t res = (uint32_t)tp_opt_i(o, OPT_EXEC_RESIDENT_CTAS);
    if (l->grid_workspace) {
        /* A cooperative launch: every CTA resident at once, and the grid
        ** workspace where %envreg1:%envreg2 say. */
        uint64_t cap = (uint64_t)occupancy(&g, regs) * g.nsm;
        if (ncta > cap) {
            free(g.params);
            return invalid(r, EXEC_ERR_COOP_TOO_LARGE,
                           "cooperative launch of kernel '%s' with %llu blocks: the device holds %llu at once",
                           kf->name, (unsigned long long)ncta, (unsigned long long)cap);
        }
        res = (uint32_t)ncta;
        g.envreg[1] = (uint32_t)(l->grid_workspace >> 32);
        g.envreg[2] = (uint32_t)l->grid_workspace;
    }
    if (!res) res = occupancy(&g, regs) * g.nsm;
    if (res > ncta) res = (uint32_t)ncta;
    g.resident = res;
    slot *slots = slots_get(dev, res);

    uint32_t active = 0;
    while (g.status == EXEC_OK) {
        for (uint32_t s = 0; s < res && g.next_cta < ncta; s++)
            if (!slots[s].busy) {
                cta_start(&g, &slots[s], g.next_cta++);
                active++;
            }
        if (!active) break;
        bool ran_any = false;
        for (uint32_t s = 0; s < res && g.status == EXEC_OK; s++) {
            slot *sl = &slots[s];
            if (!sl->busy) continue;
            exec_cta *c = &sl->cta;
            for (uint32_t i = 0; i < c->nwarps && g.status == EXEC_OK; i++) {
                exec_warp *w = &c->warps[i];
                if (w->state != EXEC_W_RUN) continue;
                uint32_t n = run_warp(w, g.quantum);
                if (n) ran_any = true;
                g.since_progress += n;
            }
            if (c->live == 0) {
                sl->busy = false;
                active--;
            }
        }
        if (g.status != EXEC_OK) break;
        if (!ran_any && active) {
            /* Nothing could run: every live warp waits at a barrier. */
            bool any_run = false;
            for (uint32_t s = 0; s < res; s++)
                for (uint32_t i = 0; slots[s].busy && i < slots[s].cta.nwarps; i++)
                    if (slots[s].cta.warps[i].state == EXEC_W_RUN) any_run = true;
            if (!any_run) stuck_report(&g, slots, res, true);
        }
        if (g.since_progress > g.spin_limit) stuck_report(&g, slots, res, false);
        if (g.max_insns && g.warp_insns >= g.max_insns && g.status == EXEC_OK) {
            g.status = EXEC_ERR_LIMIT;
            snprintf(msg, sizeof msg, "kernel '%s' stopped after %llu warp instructions (exec.max_warp_insns)",
                     kf->name, (unsigned long long)g.warp_insns);
        }
    }
    free(g.params);
    r->status = g.status;
    r->warp_insns = g.warp_insns;
    r->thread_insns = g.thread_insns;
    r->regs_per_thread = regs;
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    return r->status;
}
