/*
** cfg.c -- control-flow graph and immediate post-dominators of a function.
**
** Blocks start at the function's first instruction, at every branch target
** (bra labels and brx .branchtargets) and after every bra, brx, ret, exit
** and trap.  The synthetic FNEXIT is always the last block, alone, and the
** function's unique exit: ret/exit/trap blocks flow to it, so lanes that
** leave early wait there for the rest of the warp.
**
** Successors: an unguarded bra has its target; a guarded one (@p bra) has the
** target then the fall-through block; brx has its targets (then the fall-
** through when guarded); ret/exit/trap go to FNEXIT (and fall through when
** guarded); other blocks fall through.  ptx_block.succ holds the first two
** successors (a brx block with more targets lists them all only in the
** predecessor lists of its targets).
**
** Post-dominators are computed with the iterative algorithm of Cooper,
** Harvey and Kennedy on the reverse graph rooted at FNEXIT.  ipdom is the
** immediate post-dominator's block index; it is -1 for FNEXIT itself and
** for blocks from which FNEXIT cannot be reached (infinite loops).  Every
** bra/brx/ret/exit/trap gets insn->rpc = the start pc of its block's ipdom,
** or the FNEXIT pc when the ipdom is FNEXIT or there is none.
*/
#include "ptx.h"
#include <stdlib.h>

static bool ends_block(uint16_t op)
{
    return op == PTX_OP_BRA || op == PTX_OP_BRX || op == PTX_OP_RET || op == PTX_OP_EXIT ||
           op == PTX_OP_TRAP;
}

/* Branch targets of instruction in (pcs), through out/n; returns false if a
** target is not a resolved label. */
static uint32_t targets(const ptx_module *m, const ptx_insn *in, const ptx_opnd **list)
{
    if (in->op == PTX_OP_BRA) {
        *list = &in->o[0];
        return in->nopnd >= 1 ? 1 : 0;
    }
    if (in->op == PTX_OP_BRX && in->nopnd >= 2 && in->o[1].kind == PTX_OK_VEC &&
        in->o[1].r >= 0 && (uint32_t)in->o[1].r + in->o[1].n <= m->npool) {
        *list = &m->pool[in->o[1].r];
        return in->o[1].n;
    }
    return 0;
}

bool ptx_cfg_build(ptx_module *m, ptx_func *f, tp_err *e)
{
    if (f->is_decl || f->end <= f->start || m->insns[f->end - 1].op != PTX_OP_FNEXIT) {
        tp_err_set(e, 1, "%s: function '%s' has no body to analyse", m->filename, f->name);
        return false;
    }
    uint32_t s = f->start, n = f->end - f->start;
    ptx_insn *I = m->insns + s;
    uint32_t *blk = tp_calloc(n + 1, sizeof *blk); /* per insn: 1 if it starts a block */
    blk[0] = 1;
    blk[n - 1] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *in = &I[i];
        if (!ends_block(in->op)) continue;
        blk[i + 1] = 1;
        const ptx_opnd *t;
        uint32_t nt = targets(m, in, &t);
        for (uint32_t k = 0; k < nt; k++) {
            int32_t pc = t[k].r;
            if (t[k].kind != PTX_OK_LABEL || pc < (int32_t)s || (uint32_t)pc >= s + n) {
                tp_loc loc = {m->filename, in->line, in->col};
                tp_err_at(e, 1, loc, "branch target outside the function '%s'", f->name);
                free(blk);
                return false;
            }
            blk[pc - s] = 1;
        }
    }
    /* number the blocks; blk[i] becomes the block of instruction i */
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (blk[i]) nb++;
        blk[i] = nb - 1;
    }
    ptx_block *B = tp_arena_alloc(&m->arena, nb * sizeof *B);
    for (uint32_t i = 0, b = 0; i < n; i++)
        if (i == 0 || blk[i] != blk[i - 1]) {
            if (b) B[b - 1].end = s + i;
            B[b].start = s + i;
            b++;
        }
    B[nb - 1].end = s + n;
    uint32_t X = nb - 1; /* FNEXIT */

    /* successors, as CSR */
    uint32_t *soff = tp_calloc(nb + 1, sizeof *soff);
    uint32_t cap = nb * 2 + 8, ns = 0;
    uint32_t *sl = tp_malloc(cap * sizeof *sl);
    for (uint32_t b = 0; b < nb; b++) {
        soff[b] = ns;
        const ptx_insn *in = &I[B[b].end - 1 - s];
        B[b].succ[0] = B[b].succ[1] = -1;
        B[b].ipdom = -1;
        uint32_t add[3], na = 0;
        const ptx_opnd *t;
        uint32_t nt = targets(m, in, &t);
        if (ns + nt + 3 > cap) {
            cap = (ns + nt + 3) * 2;
            sl = tp_realloc(sl, cap * sizeof *sl);
        }
        if (in->op == PTX_OP_FNEXIT) {
            /* none */
        } else if (in->op == PTX_OP_BRA || in->op == PTX_OP_BRX) {
            for (uint32_t k = 0; k < nt; k++) {
                uint32_t tb = blk[t[k].r - s], dup = 0;
                for (uint32_t j = soff[b]; j < ns; j++) dup |= sl[j] == tb;
                if (!dup) sl[ns++] = tb;
            }
            if (in->guard >= 0) add[na++] = b + 1;
        } else if (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP) {
            add[na++] = X;
            if (in->guard >= 0 && b + 1 != X) add[na++] = b + 1;
        } else {
            add[na++] = b + 1;
        }
        for (uint32_t k = 0; k < na; k++) {
            uint32_t dup = 0;
            for (uint32_t j = soff[b]; j < ns; j++) dup |= sl[j] == add[k];
            if (!dup) sl[ns++] = add[k];
        }
        for (uint32_t j = soff[b], k = 0; j < ns && k < 2; j++, k++) B[b].succ[k] = (int32_t)sl[j];
    }
    soff[nb] = ns;

    /* predecessors */
    for (uint32_t j = 0; j < ns; j++) B[sl[j]].npreds++;
    for (uint32_t b = 0; b < nb; b++) {
        B[b].preds = B[b].npreds ? tp_arena_alloc(&m->arena, B[b].npreds * sizeof *B[b].preds) : NULL;
        B[b].npreds = 0;
    }
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t j = soff[b]; j < soff[b + 1]; j++) {
            ptx_block *t = &B[sl[j]];
            t->preds[t->npreds++] = b;
        }

    /* postorder of the reverse graph from X (iterative DFS over preds) */
    uint32_t *po = tp_malloc(nb * sizeof *po);     /* block -> postorder number, UINT32_MAX unseen */
    uint32_t *order = tp_malloc(nb * sizeof *order); /* postorder number -> block */
    uint32_t *stk = tp_malloc(nb * sizeof *stk), *it = tp_calloc(nb, sizeof *it);
    for (uint32_t b = 0; b < nb; b++) po[b] = UINT32_MAX;
    uint32_t np = 0, sp = 0;
    stk[sp++] = X;
    po[X] = UINT32_MAX - 1; /* on the stack */
    while (sp) {
        uint32_t b = stk[sp - 1];
        if (it[b] < B[b].npreds) {
            uint32_t p = B[b].preds[it[b]++];
            if (po[p] == UINT32_MAX) {
                po[p] = UINT32_MAX - 1;
                stk[sp++] = p;
            }
        } else {
            sp--;
            po[b] = np;
            order[np++] = b;
        }
    }
    /* iterate in reverse postorder */
    int32_t *ip = tp_malloc(nb * sizeof *ip);
    for (uint32_t b = 0; b < nb; b++) ip[b] = -1;
    ip[X] = (int32_t)X;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = np - 1; k-- > 0;) {
            uint32_t b = order[k];
            int32_t nd = -1;
            for (uint32_t j = soff[b]; j < soff[b + 1]; j++) {
                int32_t c = (int32_t)sl[j];
                if (ip[c] < 0) continue;
                if (nd < 0) {
                    nd = c;
                    continue;
                }
                int32_t a = nd, d = c;
                while (a != d) {
                    while (po[a] < po[d]) a = ip[a];
                    while (po[d] < po[a]) d = ip[d];
                }
                nd = a;
            }
            if (nd != ip[b]) {
                ip[b] = nd;
                changed = true;
            }
        }
    }
    uint32_t xpc = B[X].start;
    for (uint32_t b = 0; b < nb; b++) {
        B[b].ipdom = b == X ? -1 : ip[b];
        ptx_insn *last = &m->insns[B[b].end - 1];
        if (ends_block(last->op))
            last->rpc = B[b].ipdom >= 0 ? B[B[b].ipdom].start : xpc;
    }
    f->blocks = B;
    f->nblocks = nb;
    free(blk);
    free(soff);
    free(sl);
    free(po);
    free(order);
    free(stk);
    free(it);
    free(ip);
    return true;
}
