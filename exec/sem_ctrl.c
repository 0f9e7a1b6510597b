/*
** sem_ctrl.c -- control flow and CTA synchronization: bra, brx, call, ret,
** exit, trap, bar/barrier, nanosleep.  These handlers set the pc themselves
** (EXEC_DK_CTRL).
*/
#include "check.h"

static inline uint32_t pc_of(const exec_warp *w, const ptx_insn *in)
{
    return (uint32_t)(in - w->g->m->xi);
}

static void h_bra(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint32_t pc = pc_of(w, in);
    exec_branch(w, m, (uint32_t)in->o[0].r, pc + 1, in->rpc);
}

/* brx.idx index, targets: each lane jumps to targets[index]. Lanes are
** grouped by target, one group at a time, all reconverging at rpc. */
static void h_brx(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint32_t pc = pc_of(w, in);
    const uint64_t *idx = exec_src(w, &in->o[0]);
    const ptx_opnd *tl = &in->o[1];
    uint32_t n = tl->kind == PTX_OK_VEC ? tl->n : 0;
    const ptx_opnd *pool = w->g->m->xpool;
    EXEC_LANES(m, if ((uint32_t)idx[l] >= n) {
        exec_fault(w, l, EXEC_ERR_ILLEGAL_ADDRESS, "brx.idx index %u outside its %u targets", (uint32_t)idx[l], n);
        return;
    });
    /* Take the group of the lowest lane; the others run this instruction again. */
    int l0 = __builtin_ctz(m);
    uint32_t tgt = (uint32_t)pool[tl->r + (uint32_t)idx[l0]].r, grp = 0;
    EXEC_LANES(m, if ((uint32_t)pool[tl->r + (uint32_t)idx[l]].r == tgt) grp |= 1u << l);
    uint32_t rest = m & ~grp;
    if (w->g->its) {
        exec_its_split(w, m, pc + 1);
        if (rest) exec_its_split(w, grp, pc);
        exec_top(w)->pc = tgt;
        return;
    }
    if (!rest) {
        exec_branch(w, grp, tgt, pc + 1, in->rpc);
        return;
    }
    exec_stk *t = exec_top(w);
    uint32_t off = t->mask & ~m; /* guard false: they fall through */
    if (t->rpc == in->rpc && !t->call && w->nstk >= 2) w->nstk--;
    else t->pc = in->rpc;
    if (off && pc + 1 != in->rpc) exec_push(w, pc + 1, in->rpc, off, 0);
    exec_push(w, pc, in->rpc, rest, 0);
    if (tgt != in->rpc) exec_push(w, tgt, in->rpc, grp, 0);
}

static void h_call(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    exec_grid *g = w->g;
    const ptx_module *p = g->m->ptx;
    uint32_t pc = pc_of(w, in);
    const ptx_opnd *t = &in->o[0];
    uint32_t fidx;
    if (t->kind == PTX_OK_FUNC) {
        fidx = (uint32_t)t->r;
    } else {
        const uint64_t *a = exec_src(w, t);
        uint32_t grp = 0;
        int l0 = __builtin_ctz(m);
        uint64_t tgt = a[l0];
        EXEC_LANES(m, if (a[l] == tgt) grp |= 1u << l);
        if (tgt < EXEC_FUNC_ADDR_BASE || (tgt - EXEC_FUNC_ADDR_BASE) % 16 ||
            (tgt - EXEC_FUNC_ADDR_BASE) / 16 >= p->nfuncs) {
            exec_fault(w, l0, EXEC_ERR_ILLEGAL_ADDRESS, "indirect call through 0x%llx, which is not a function address",
                       (unsigned long long)tgt);
            return;
        }
        fidx = (uint32_t)((tgt - EXEC_FUNC_ADDR_BASE) / 16);
        uint32_t rest = m & ~grp;
        if (rest && w->g->its) {
            exec_its_split(w, exec_top(w)->mask & ~rest, pc);
            m = grp;
        } else if (rest) {
            /* Call one target group now; the rest run this call again after. */
            exec_top(w)->pc = pc + 1;
            exec_push(w, pc, pc + 1, rest, 0);
            exec_push(w, pc, pc + 1, grp, 0);
            m = grp;
        }
    }
    const ptx_func *callee = &p->funcs[fidx];
    if (callee->is_decl) {
        if (exec_syscall(w, in, callee, m)) exec_top(w)->pc = pc + 1;
        return;
    }
    exec_call(w, in, fidx, m);
}

static void h_ret(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint32_t pc = pc_of(w, in);
    exec_branch(w, m, in->rpc, pc + 1, in->rpc);
}

static void h_exit(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint32_t pc = pc_of(w, in);
    uint32_t top = w->nstk - 1;
    exec_exit_lanes(w, m);
    if (w->stk[top].mask) w->stk[top].pc = pc + 1;
    exec_progress(w);
}

static void h_trap(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)in;
    (void)d;
    exec_fault(w, __builtin_ctz(m), EXEC_ERR_TRAP, "trap instruction executed");
}

static void h_fnexit(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)in;
    (void)d;
    (void)m;
    exec_fnexit(w);
}

/* ---- barriers ----------------------------------------------------------------- */

/* Releases barrier id of the CTA if every warp it waits for has arrived. */
void exec_bar_check(exec_cta *c, uint32_t id)
{
    exec_bar *b = &c->bar[id];
    if (!b->arrived) return;
    uint32_t need = b->expected ? b->expected : c->live;
    if (b->arrived < need) return;
    if (TP_UNLIKELY(c->g->checks)) exec_check_bar_release(c, id);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        if (w->state != EXEC_W_BAR || w->bar_id != id) continue;
        w->state = EXEC_W_RUN;
        if (w->bar_dst >= 0) {
            uint32_t mask = w->bar_mask;
            if (w->bar_dst_pred) {
                bool v = w->bar_op == PTX_BOP_AND ? b->red_and : b->red_or;
                uint32_t *p = &w->pp[w->bar_dst];
                *p = (*p & ~mask) | (v ? mask : 0);
            } else {
                uint64_t *r = w->fp + (size_t)w->bar_dst * 32;
                EXEC_LANES(mask, r[l] = b->red_count);
            }
            w->bar_dst = -1;
        }
        exec_progress(w);
    }
    memset(b, 0, sizeof *b);
    c->bar_releases++;
}

static uint32_t first_val(const exec_warp *w, const ptx_opnd *o, uint32_t m)
{
    return (uint32_t)exec_src(w, o)[__builtin_ctz(m)];
}

static void h_bar(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint32_t pc = pc_of(w, in);
    exec_top(w)->pc = pc + 1;
    int sub = in->m.sub;
    if (sub == PTX_SUB_WARPSYNC) return; /* lanes reconverge at post-dominators already */
    exec_cta *c = w->cta;
    uint32_t k = in->ndst;
    uint32_t id = in->nopnd > k ? first_val(w, &in->o[k], m) : 0;
    if (id >= EXEC_NBAR) {
        exec_fault(w, __builtin_ctz(m), EXEC_ERR_ILLEGAL_ADDRESS, "barrier id %u out of range (0..15)", id);
        return;
    }
    exec_bar *b = &c->bar[id];
    uint32_t nsrc = in->nopnd - k;
    bool red = sub == PTX_SUB_RED;
    /* Operands after the id: the thread count (optional), then for bar.red the predicate. */
    uint32_t count_ops = red ? nsrc - 2 : nsrc - 1;
    uint32_t cnt = 0;
    if (count_ops >= 1) {
        cnt = first_val(w, &in->o[k + 1], m);
        b->expected = (cnt + 31) / 32;
    }
    if (red) {
        const ptx_opnd *po = &in->o[in->nopnd - 1];
        uint32_t pv = w->pp[po->r];
        if (po->flags & PTX_OF_NEG) pv = ~pv;
        pv &= m;
        if (!b->arrived) {
            b->red_and = 1;
            b->red_or = 0;
            b->red_count = 0;
        }
        b->red_count += tp_popc32(pv);
        if (pv != m) b->red_and = 0;
        if (pv) b->red_or = 1;
        const ptx_opnd *dst = &in->o[0];
        w->bar_dst = dst->r;
        w->bar_dst_pred = dst->kind == PTX_OK_PRED;
        w->bar_op = in->m.bop;
        w->bar_mask = m;
    } else {
        w->bar_dst = -1;
    }
    if (TP_UNLIKELY(w->g->checks)) exec_check_bar(w, in, id, cnt, sub == PTX_SUB_ARRIVE, m);
    b->arrived++;
    if (sub == PTX_SUB_ARRIVE) {
        exec_bar_check(c, id);
        return;
    }
    w->state = EXEC_W_BAR;
    w->bar_id = id;
    exec_bar_check(c, id);
}

static void h_nanosleep(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    (void)m;
    exec_top(w)->pc = pc_of(w, in) + 1;
    /* Let other warps run: a sleeping warp is usually waiting for one. */
    w->x->yield = true;
}

exec_fn exec_pick_ctrl(const ptx_module *pm, const ptx_insn *in, exec_dinsn *d, const char **why)
{
    (void)pm;
    exec_fn h = NULL;
    switch (in->op) {
    case PTX_OP_BRA: h = h_bra; break;
    case PTX_OP_BRX: h = h_brx; break;
    case PTX_OP_CALL: h = h_call; break;
    case PTX_OP_RET: h = h_ret; break;
    case PTX_OP_EXIT: h = h_exit; break;
    case PTX_OP_TRAP: h = h_trap; break;
    case PTX_OP_FNEXIT: h = h_fnexit; break;
    case PTX_OP_BAR:
    case PTX_OP_BARRIER: h = h_bar; d->kind |= EXEC_DK_CONV; break;
    case PTX_OP_NANOSLEEP: h = h_nanosleep; break;
    default: return NULL;
    }
    (void)why;
    d->kind |= EXEC_DK_CTRL;
    return h;
}
