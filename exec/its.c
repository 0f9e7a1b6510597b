/*
** its.c -- independent thread scheduling (exec.its=1), as sm_70+ GPUs do it.
**
** Without it, a warp's lanes reconverge on a stack at immediate
** post-dominators, and lanes that wait at a reconvergence point cannot run
** until the other path arrives: an intra-warp lock (one lane holds it, the
** others spin for it) never finishes.  With it, every lane may progress on its
** own.  The warp keeps a set of *thread groups* (its stack entries, reused):
** lanes sharing a pc and a call frame.  One group runs at a time:
**
**  - a divergent branch splits the running group; groups that reach the same
**    pc in the same frame merge again, so structured code still converges;
**  - at every control instruction the runnable group with the lowest pc runs
**    next (stragglers catch up and merge), except that a group spinning on a
**    backward branch (16 in a row) hands over to the next group in turn:
**    that is what lets a lock holder run its critical section;
**  - calls give the calling group a frame of its own (registers, predicates,
**    a slice of local memory), linked to the caller's; a group returns when it
**    reaches its function's FNEXIT, alone, without waiting for its siblings;
**  - an instruction that needs converged lanes (bar, bar.warp.sync, and the
**    .sync warp exchanges for their member mask) makes its group wait until
**    the other lanes arrive at that pc and merge into it.
**
** Scheduling is a fixed function of the warp's state, so runs stay
** deterministic.
*/
#include "internal.h"
#include <stdlib.h>

enum { ITS_SPIN_LIMIT = 16 };

static uint32_t pc_of(const exec_warp *w, const ptx_insn *in) { return (uint32_t)(in - w->g->m->xi); }

static uint32_t fnexit_of(const exec_warp *w, uint32_t frame)
{
    return w->g->m->ptx->funcs[w->frames[frame].func].end - 1;
}

/* Inserts a group below the running one (which stays on top). */
static void insert_below(exec_warp *w, exec_stk e)
{
    exec_push(w, e.pc, e.rpc, e.mask, e.call);
    exec_stk *s = w->stk;
    uint32_t n = w->nstk;
    s[n - 1].wait = e.wait;
    if (n >= 2) {
        exec_stk t = s[n - 1];
        s[n - 1] = s[n - 2];
        s[n - 2] = t;
    }
}

void exec_its_split(exec_warp *w, uint32_t keep, uint32_t pc)
{
    exec_stk *g = exec_top(w);
    uint32_t other = g->mask & ~keep;
    if (!other) return;
    g->mask &= keep;
    exec_stk e = {pc, g->rpc, other, g->call, 0};
    insert_below(w, e);
}

void exec_its_branch(exec_warp *w, uint32_t taken, uint32_t target, uint32_t fallthrough)
{
    exec_stk *g = exec_top(w);
    uint32_t pc = fallthrough - 1;
    taken &= g->mask;
    uint32_t nt = g->mask & ~taken;
    if (taken && target <= pc) w->its_spin++;
    if (!taken) {
        g->pc = fallthrough;
        return;
    }
    if (!nt) {
        g->pc = target;
        return;
    }
    /* The not-taken lanes keep running; the taken ones become a group. */
    g->mask = nt;
    g->pc = fallthrough;
    exec_stk e = {target, g->rpc, taken, g->call, 0};
    insert_below(w, e);
}

/* ---- frames ---------------------------------------------------------------------- */

static uint32_t frame_alloc(exec_warp *w)
{
    for (uint32_t i = 1; i < w->nframes; i++)
        if (w->frames[i].parent == -2) return i;
    if (w->nframes == w->capframes) {
        w->capframes *= 2;
        w->frames = tp_realloc(w->frames, w->capframes * sizeof *w->frames);
    }
    return w->nframes++;
}

static bool frame_used(const exec_warp *w, uint32_t f)
{
    for (uint32_t i = 0; i < w->nstk; i++)
        if (w->stk[i].mask && w->stk[i].call == f) return true;
    for (uint32_t i = 1; i < w->nframes; i++)
        if (w->frames[i].parent == (int32_t)f) return true;
    return false;
}

/* Frees frame f (and then its callers) once no group or frame refers to it. */
static void frame_release(exec_warp *w, uint32_t f)
{
    while (f != 0 && w->frames[f].parent >= 0 && !frame_used(w, f)) {
        exec_frame *fr = &w->frames[f];
        uint32_t up = (uint32_t)fr->parent;
        free(fr->rows_p);
        free(fr->preds_p);
        fr->rows_p = NULL;
        fr->preds_p = NULL;
        fr->parent = -2;
        f = up;
    }
}

void exec_its_free(exec_warp *w)
{
    for (uint32_t i = 1; i < w->nframes; i++) {
        free(w->frames[i].rows_p);
        free(w->frames[i].preds_p);
        w->frames[i].rows_p = NULL;
        w->frames[i].preds_p = NULL;
        w->frames[i].parent = -2;
    }
    w->nframes = 1;
}

bool exec_its_call(exec_warp *w, const ptx_insn *in, uint32_t fidx, uint32_t mask)
{
    exec_grid *g = w->g;
    const ptx_func *callee = &g->m->ptx->funcs[fidx];
    uint32_t pc = pc_of(w, in);
    exec_its_split(w, mask, pc + 1); /* lanes that do not call go on after it */
    exec_stk *grp = exec_top(w);
    uint32_t cf = grp->call;
    const exec_fninfo *cfi = &g->m->fninfo[w->frames[cf].func];
    const exec_fninfo *nfi = &g->m->fninfo[fidx];
    uint64_t nsp = TP_ALIGN_UP((uint64_t)w->frames[cf].sp + cfi->frame_bytes, 16);
    if (nsp + nfi->frame_bytes > g->local_per_thread) {
        exec_fault(w, -1, EXEC_ERR_STACK_OVERFLOW,
                   "call stack overflow calling '%s': each thread has %u bytes of local memory "
                   "(raise the stack limit: cuCtxSetLimit/cudaDeviceSetLimit(StackSize) or -o exec.stack_bytes=N)",
                   callee->name, g->local_per_thread);
        return false;
    }
    exec_set_frame(w, cf);
    if (!exec_copy_args(w, in, callee, mask, nsp)) return false;
    uint32_t nf = frame_alloc(w);
    exec_frame *f = &w->frames[nf];
    f->func = fidx;
    f->call_pc = pc;
    f->rows_off = 0;
    f->preds_off = 0;
    f->sp = (uint32_t)nsp;
    f->parent = (int32_t)cf;
    f->rows_p = tp_calloc((size_t)(nfi->rows ? nfi->rows : 1) * 32, sizeof(uint64_t));
    f->preds_p = tp_calloc(nfi->preds ? nfi->preds : 1, sizeof(uint32_t));
    grp = exec_top(w);
    grp->call = nf;
    grp->pc = callee->start;
    grp->rpc = callee->end - 1;
    exec_set_frame(w, nf);
    return true;
}

/* The group on top has reached its function's end. */
static void its_return(exec_warp *w)
{
    exec_stk *grp = exec_top(w);
    uint32_t fi = grp->call;
    exec_frame f = w->frames[fi];
    if (f.parent < 0) { /* the kernel returns: these lanes are finished */
        w->exited |= grp->mask;
        grp->mask = 0;
        return;
    }
    const exec_grid *g = w->g;
    exec_set_frame(w, (uint32_t)f.parent);
    exec_copy_rets(w, &g->m->xi[f.call_pc], &g->m->ptx->funcs[f.func], f.sp, grp->mask);
    grp->call = (uint32_t)f.parent;
    grp->pc = f.call_pc + 1;
    grp->rpc = fnexit_of(w, grp->call);
    frame_release(w, fi);
}

static void swap_top(exec_warp *w, uint32_t i)
{
    uint32_t t = w->nstk - 1;
    if (i == t) return;
    exec_stk x = w->stk[i];
    w->stk[i] = w->stk[t];
    w->stk[t] = x;
}

bool exec_its_settle(exec_warp *w)
{
    exec_grid *g = w->g;
    uint32_t prev_pc = w->nstk ? exec_top(w)->pc : 0, prev_mask = w->nstk ? exec_top(w)->mask : 0;
    /* Returns, until no runnable group sits at its function's end. */
    for (bool again = true; again;) {
        again = false;
        for (uint32_t i = 0; i < w->nstk; i++) {
            exec_stk *s = &w->stk[i];
            if (s->mask && !s->wait && s->pc == s->rpc) {
                swap_top(w, i);
                its_return(w);
                again = true;
                break;
            }
        }
    }
    /* Drop empty groups, merge groups at the same pc in the same frame. */
    uint32_t live = w->valid & ~w->exited;
    uint32_t n = 0;
    for (uint32_t i = 0; i < w->nstk; i++) {
        exec_stk s = w->stk[i];
        s.mask &= ~w->exited;
        if (!s.mask) continue;
        bool merged = false;
        for (uint32_t j = 0; j < n; j++) {
            exec_stk *t = &w->stk[j];
            if (t->pc == s.pc && t->call == s.call) {
                t->mask |= s.mask;
                t->wait |= s.wait;
                merged = true;
                break;
            }
        }
        if (!merged) w->stk[n++] = s;
    }
    w->nstk = n;
    if (!n) return false;
    /* Waiting groups whose lanes have all arrived can run. */
    for (uint32_t i = 0; i < n; i++) {
        exec_stk *s = &w->stk[i];
        if (s->wait && !(s->wait & live & ~s->mask)) s->wait = 0;
    }
    /* Pick the next group. */
    int best = -1;
    uint32_t cur = n; /* index of the previous running group, if it survived */
    for (uint32_t i = 0; i < n; i++)
        if (w->stk[i].pc == prev_pc && (w->stk[i].mask & prev_mask)) cur = i;
    if (w->its_spin >= ITS_SPIN_LIMIT && cur < n) {
        for (uint32_t k = 1; k < n && best < 0; k++) {
            uint32_t i = (cur + k) % n;
            if (!w->stk[i].wait) best = (int)i;
        }
        w->its_spin = 0;
    }
    if (best < 0)
        for (uint32_t i = 0; i < n; i++) {
            const exec_stk *s = &w->stk[i];
            if (s->wait) continue;
            if (best < 0 || s->pc < w->stk[best].pc ||
                (s->pc == w->stk[best].pc && __builtin_ctz(s->mask) < __builtin_ctz(w->stk[best].mask)))
                best = (int)i;
        }
    if (best < 0) {
        /* Every group waits for lanes that will never come. */
        exec_stk *s = exec_top(w);
        exec_set_frame(w, s->call);
        exec_fault(w, -1, EXEC_ERR_DEADLOCK,
                   "the lanes of a warp wait for each other at different convergence points "
                   "(barriers or .sync warp instructions whose member lanes never meet); lanes %08x wait for %08x",
                   s->mask, s->wait);
        return true;
    }
    if ((uint32_t)best != cur) w->its_spin = 0;
    swap_top(w, (uint32_t)best);
    exec_stk *t = exec_top(w);
    /* Stop at the nearest pc ahead where another group of this frame is, to merge there. */
    w->its_stop = UINT32_MAX;
    for (uint32_t i = 0; i + 1 < n; i++) {
        const exec_stk *s = &w->stk[i];
        if (s->call == t->call && s->pc > t->pc && s->pc < w->its_stop) w->its_stop = s->pc;
    }
    exec_set_frame(w, t->call);
    w->pc = t->pc;
    (void)g;
    return true;
}

/* The lanes an instruction that needs converged lanes waits for: every live
** lane for a CTA barrier; for bar.warp.sync and the .sync warp exchanges the
** union of the member masks of the lanes executing it. */
static uint32_t members_of(exec_warp *w, const ptx_opnd *o, uint32_t m)
{
    const uint64_t *row = exec_src(w, o);
    uint32_t u = 0;
    EXEC_LANES(m, u |= (uint32_t)row[l]);
    return u;
}

static uint32_t needed(exec_warp *w, const ptx_insn *in, uint32_t m)
{
    uint32_t live = w->valid & ~w->exited;
    switch (in->op) {
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
        if (in->m.sub == PTX_SUB_WARPSYNC) return members_of(w, &in->o[in->ndst], m) & live;
        return live;
    case PTX_OP_SHFL:
    case PTX_OP_MATCH:
    case PTX_OP_REDUX:
    case PTX_OP_VOTE:
        if (!(in->m.flags & PTX_MF_SYNC)) return 0;
        return members_of(w, &in->o[in->nopnd - 1], m) & live;
    case PTX_OP_ELECT:
        return members_of(w, &in->o[in->ndst], m) & live;
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA: case PTX_OP_MMA:
    case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
        return live; /* .sync.aligned: the whole warp */
    default:
        return 0;
    }
}

bool exec_its_converged(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    exec_stk *g = exec_top(w);
    if (!m) return true;
    uint32_t need = needed(w, in, m);
    if (!(need & ~g->mask)) return true;
    g->wait = need;
    exec_its_settle(w);
    (void)pc_of;
    return false;
}
