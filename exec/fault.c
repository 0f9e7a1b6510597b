/*
** fault.c -- what the functional model says when something goes wrong: faults
** naming kernel, block, thread, pc, instruction and source line; the
** livelock and barrier-deadlock reports of the watchdogs; the per-warp
** instruction trace (exec.trace).
*/
#include "internal.h"
#include <stdarg.h>
#include <stdio.h>

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
    const ptx_srcloc *call = p->inlined_at ? &p->inlined_at[pc] : NULL;
    if (call && call->file && call->file < p->nfiles && p->files[call->file]) {
        /* inlined code: the line of the function compiled first, then where the code comes from */
        tp_sbuf_printf(out, " [%s:%u]", p->files[call->file], call->line);
        if (in->srcline && in->srcfile < p->nfiles && p->files[in->srcfile])
            tp_sbuf_printf(out, " (inlined from %s:%u)", p->files[in->srcfile], in->srcline);
    } else if (in->srcline && in->srcfile < p->nfiles && p->files[in->srcfile]) {
        tp_sbuf_printf(out, " [%s:%u]", p->files[in->srcfile], in->srcline);
    }
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
    snprintf(g->msg, sizeof g->msg, "%s", tp_sbuf_str(&b));
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

/* ---- livelock and deadlock reports ---------------------------------------------- */

void exec_stuck_report(exec_grid *g, bool deadlock)
{
    tp_sbuf b;
    tp_sbuf_init(&b);
    exec_warp *first = NULL;
    uint32_t shown = 0;
    bool intra = false;
    for (uint32_t s = 0; s < g->nres; s++) {
        exec_cta *c = &g->res[s]->cta;
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
    char what[512];
    unsigned long long n = (unsigned long long)g->spin_limit;
    if (deadlock)
        snprintf(what, sizeof what, "barrier deadlock: every warp waits at a barrier that cannot complete");
    else if (intra)
        snprintf(what, sizeof what,
                 "livelock: no warp changed memory, finished or passed a barrier for %llu warp instructions "
                 "(exec.spin_limit), and lanes of one warp wait at a reconvergence point while others spin "
                 "(an intra-warp lock or flag: sm_70+ code relies on independent thread scheduling, "
                 "which tpsim's stack-based SIMT model does not provide; exec.its=1 models it)",
                 n);
    else
        snprintf(what, sizeof what,
                 "livelock or deadlock: no warp changed memory, finished or passed a barrier for %llu warp "
                 "instructions (exec.spin_limit); if the kernel is just long, raise the limit: tpsim run -o "
                 "exec.spin_limit=%llu (a driver-API program run directly: TPSIM_OPTIONS=exec.spin_limit=%llu)",
                 n, n * 20, n * 20);
    g->status = EXEC_OK; /* let exec_fault record it */
    exec_fault(first, -1, st, "%s%s\n ", what, tp_sbuf_str(&b));
    tp_sbuf_free(&b);
}

