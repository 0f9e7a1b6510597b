/*
** simt.c -- the SIMT reconvergence stack, calls and returns.
**
** A warp runs the lanes of the entry on top of its stack.  Each entry holds a
** pc, a lane mask and a reconvergence pc (rpc): when the entry's pc reaches
** its rpc, the entry is popped and its lanes rejoin the entry below, which
** waits at that same pc.  The rpc of a branch is the immediate post-dominator
** of its block (ptx/cfg.c), so lanes reconverge at the earliest point every
** path passes through.
**
** A divergent branch sets the current entry's pc to the reconvergence point
** and pushes the taken and the not-taken lanes (the not-taken path runs
** first).  When the current entry already reconverges at that point (loops:
** the back edge diverging again and again), the entry is replaced instead of
** kept, so the stack does not grow with the trip count.
**
** Calls push an entry whose rpc is the callee's synthetic FNEXIT: `ret` is a
** branch to FNEXIT, so lanes returning early wait there for the others, and
** when the entry pops the call frame is popped with it.  `exit` removes lanes
** from every entry; they are gone for good.
*/
#include "internal.h"
#include <stdlib.h>

void exec_push(exec_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t call)
{
    if (w->nstk == w->capstk) {
        w->capstk = w->capstk ? 2 * w->capstk : 16;
        w->stk = tp_realloc(w->stk, w->capstk * sizeof *w->stk);
    }
    w->stk[w->nstk++] = (exec_stk){pc, rpc, mask, call};
}

void exec_branch(exec_warp *w, uint32_t taken, uint32_t target, uint32_t fallthrough, uint32_t rpc)
{
    if (w->g->its) {
        exec_its_branch(w, taken, target, fallthrough);
        return;
    }
    exec_stk *t = exec_top(w);
    uint32_t act = t->mask;
    taken &= act;
    uint32_t nt = act & ~taken;
    if (!taken) {
        t->pc = fallthrough;
        return;
    }
    if (!nt) {
        t->pc = target;
        return;
    }
    /* An entry that already reconverges at rpc is replaced (its lanes also
    ** wait in the entry below it); the bottom entry and call entries stay. */
    if (t->rpc == rpc && !t->call && w->nstk >= 2) w->nstk--;
    else t->pc = rpc;
    if (target != rpc) exec_push(w, target, rpc, taken, 0);
    if (fallthrough != rpc) exec_push(w, fallthrough, rpc, nt, 0);
}

void exec_exit_lanes(exec_warp *w, uint32_t lanes)
{
    w->exited |= lanes;
    for (uint32_t i = 0; i < w->nstk; i++) w->stk[i].mask &= ~lanes;
}

void exec_set_frame(exec_warp *w, uint32_t fi)
{
    const exec_frame *f = &w->frames[fi];
    w->cf = fi;
    w->fp = f->rows_p ? f->rows_p : w->rows + (size_t)f->rows_off * 32;
    w->pp = f->preds_p ? f->preds_p : w->preds + f->preds_off;
    w->sp = f->sp;
}

static void set_frame(exec_warp *w) { exec_set_frame(w, w->nframes - 1); }

/* Copies n bytes between two local-memory offsets of each lane in mask. */
static void copy_local(exec_warp *w, uint32_t mask, uint64_t dst, uint64_t src, uint32_t n)
{
    uint32_t L = w->g->local_per_thread;
    EXEC_LANES(mask, memmove(w->local + (size_t)l * L + dst, w->local + (size_t)l * L + src, n));
}

/* Writes a register/immediate value as an argument. */
static void put_value(exec_warp *w, uint32_t mask, uint64_t dst, const ptx_opnd *o, uint32_t n)
{
    uint32_t L = w->g->local_per_thread;
    const uint64_t *v = exec_src(w, o);
    if (n > 8) n = 8;
    EXEC_LANES(mask, memcpy(w->local + (size_t)l * L + dst, &v[l], n));
}

/* Arguments: from the caller's callseq params (or registers) into the
** callee's parameter slots at local offset nsp.  The running frame must be
** the caller's. */
bool exec_copy_args(exec_warp *w, const ptx_insn *in, const ptx_func *callee, uint32_t mask, uint64_t nsp)
{
    exec_grid *g = w->g;
    const ptx_opnd *co = &in->o[1];
    uint32_t nret = (uint32_t)co->imm, nargs = co->n - nret;
    for (uint32_t i = 0; i < nargs && i < callee->nparams; i++) {
        const ptx_opnd *a = &g->m->xpool[co->r + nret + i];
        uint64_t dst = nsp + callee->params[i].offset;
        uint32_t n = callee->params[i].size;
        if (a->kind == PTX_OK_SYM) {
            uint8_t sp;
            uint64_t src = exec_sym_addr(w, a->r, &sp) + (uint64_t)a->imm;
            if (sp != PTX_SP_LOCAL) {
                exec_fault(w, -1, EXEC_ERR_UNSUPPORTED, "call argument %u of '%s' is not a .param variable",
                           i, callee->name);
                return false;
            }
            copy_local(w, mask, dst, src, n);
        } else if (a->kind == PTX_OK_REG || a->kind == PTX_OK_IMM) {
            put_value(w, mask, dst, a, n);
        }
    }
    return true;
}

bool exec_call(exec_warp *w, const ptx_insn *in, uint32_t fidx, uint32_t mask)
{
    if (w->g->its) return exec_its_call(w, in, fidx, mask);
    exec_grid *g = w->g;
    const ptx_module *p = g->m->ptx;
    const ptx_func *callee = &p->funcs[fidx];
    const exec_frame *cf = &w->frames[w->nframes - 1];
    const exec_fninfo *cfi = &g->m->fninfo[cf->func];
    const exec_fninfo *nfi = &g->m->fninfo[fidx];
    uint32_t pc = (uint32_t)(in - g->m->xi);
    uint64_t nsp = TP_ALIGN_UP((uint64_t)cf->sp + cfi->frame_bytes, 16);
    if (nsp + nfi->frame_bytes > g->local_per_thread) {
        exec_fault(w, -1, EXEC_ERR_STACK_OVERFLOW,
                   "call stack overflow calling '%s' at depth %u: each thread has %u bytes of local memory "
                   "(raise the stack limit: cuCtxSetLimit/cudaDeviceSetLimit(StackSize) or -o exec.stack_bytes=N)",
                   callee->name, w->nframes, g->local_per_thread);
        return false;
    }
    if (!exec_copy_args(w, in, callee, mask, nsp)) return false;
    /* Register frame. */
    uint32_t roff = cf->rows_off + cfi->rows, poff = cf->preds_off + cfi->preds;
    if (roff + nfi->rows > w->caprows) {
        uint32_t cap = w->caprows * 2;
        while (cap < roff + nfi->rows) cap *= 2;
        w->rows = tp_realloc(w->rows, (size_t)cap * 32 * sizeof(uint64_t));
        memset(w->rows + (size_t)w->caprows * 32, 0, (size_t)(cap - w->caprows) * 32 * sizeof(uint64_t));
        w->caprows = cap;
    }
    if (poff + nfi->preds > w->cappreds) {
        uint32_t cap = w->cappreds * 2 + nfi->preds;
        w->preds = tp_realloc(w->preds, cap * sizeof(uint32_t));
        memset(w->preds + w->cappreds, 0, (cap - w->cappreds) * sizeof(uint32_t));
        w->cappreds = cap;
    }
    if (w->nframes == w->capframes) {
        w->capframes *= 2;
        w->frames = tp_realloc(w->frames, w->capframes * sizeof *w->frames);
    }
    w->frames[w->nframes] = (exec_frame){fidx, pc, roff, poff, (uint32_t)nsp, (int32_t)w->nframes - 1, NULL, NULL};
    w->nframes++;
    exec_top(w)->pc = pc + 1;
    exec_push(w, callee->start, callee->end - 1, mask, w->nframes);
    set_frame(w);
    return true;
}

/* Pops the call frame of a finished call entry, copying return values. */
static void do_return(exec_warp *w, const exec_stk *t)
{
    exec_grid *g = w->g;
    const ptx_module *p = g->m->ptx;
    TP_ASSERT(t->call == w->nframes);
    const exec_frame *f = &w->frames[w->nframes - 1];
    const ptx_func *callee = &p->funcs[f->func];
    const ptx_insn *call = &g->m->xi[f->call_pc];
    uint32_t mask = t->mask;
    w->nframes--;
    set_frame(w);
    if (!mask) return;
    exec_copy_rets(w, call, callee, f->sp, mask);
}

/* Return values: from the callee's frame (local offset callee_sp) into the
** caller's variables named by the call.  The running frame must be the caller's. */
void exec_copy_rets(exec_warp *w, const ptx_insn *call, const ptx_func *callee, uint64_t callee_sp, uint32_t mask)
{
    exec_grid *g = w->g;
    const ptx_opnd *co = &call->o[1];
    uint32_t nret = (uint32_t)co->imm;
    for (uint32_t i = 0; i < nret && i < callee->nrets; i++) {
        const ptx_opnd *r = &g->m->xpool[co->r + i];
        uint64_t src = callee_sp + callee->rets[i].offset;
        uint32_t n = callee->rets[i].size;
        if (r->kind == PTX_OK_SYM) {
            uint8_t sp;
            uint64_t dst = exec_sym_addr(w, r->r, &sp) + (uint64_t)r->imm;
            if (sp == PTX_SP_LOCAL) copy_local(w, mask, dst, src, n);
        } else if (r->kind == PTX_OK_REG) {
            uint64_t *d = exec_dst(w, r);
            uint32_t L = g->local_per_thread;
            EXEC_LANES(mask, {
                uint64_t v = 0;
                memcpy(&v, w->local + (size_t)l * L + src, n > 8 ? 8 : n);
                d[l] = v;
            });
        }
    }
}

bool exec_settle(exec_warp *w)
{
    if (w->g->its) return exec_its_settle(w);
    for (;;) {
        if (w->nstk == 0) return false;
        exec_stk *t = &w->stk[w->nstk - 1];
        if (t->mask && t->pc != t->rpc) {
            w->pc = t->pc;
            return true;
        }
        exec_stk done = *t;
        w->nstk--;
        if (done.call) do_return(w, &done);
    }
}

void exec_fnexit(exec_warp *w)
{
    /* Reached only when lanes arrive at a function's end without the entry
    ** that reconverges there: they wait (the entry pops). */
    exec_top(w)->mask = 0;
}

/* Value of argument i of a call (for system calls), lane l. */
uint64_t exec_call_arg(exec_warp *w, const ptx_insn *in, int lane, uint32_t i, uint32_t size)
{
    const ptx_opnd *co = &in->o[1];
    uint32_t nret = (uint32_t)co->imm;
    if (nret + i >= co->n) return 0;
    const ptx_opnd *a = &w->g->m->xpool[co->r + nret + i];
    if (a->kind == PTX_OK_SYM) {
        uint8_t sp;
        uint64_t src = exec_sym_addr(w, a->r, &sp) + (uint64_t)a->imm;
        uint64_t v = 0;
        if (sp == PTX_SP_LOCAL && src + size <= w->g->local_per_thread)
            memcpy(&v, w->local + (size_t)lane * w->g->local_per_thread + src, size > 8 ? 8 : size);
        return v;
    }
    if (a->kind == PTX_OK_REG || a->kind == PTX_OK_IMM) return exec_src(w, a)[lane];
    return 0;
}

/* Stores a system call's return value for lane l. */
void exec_call_ret(exec_warp *w, const ptx_insn *in, int lane, uint64_t v, uint32_t size)
{
    const ptx_opnd *co = &in->o[1];
    if (co->imm < 1) return;
    const ptx_opnd *r = &w->g->m->xpool[co->r];
    if (r->kind == PTX_OK_SYM) {
        uint8_t sp;
        uint64_t dst = exec_sym_addr(w, r->r, &sp) + (uint64_t)r->imm;
        if (sp == PTX_SP_LOCAL && dst + size <= w->g->local_per_thread)
            memcpy(w->local + (size_t)lane * w->g->local_per_thread + dst, &v, size > 8 ? 8 : size);
    } else if (r->kind == PTX_OK_REG) {
        exec_dst(w, r)[lane] = v;
    }
}
