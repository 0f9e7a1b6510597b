/*
** ifconv.c -- ptxas's if-conversion of short guarded blocks, as tpsim
** models it for the code it times (ptx_lower with ptx_lower_opts.ifconvert).
**
** nvcc's PTX guards each `if` with a branch round its body:
**
**       @%p bra L;          (B0 ends)
**       ld.global ...       (B1: the body, falling through to L)
**       fma ...
**   L:  ...                 (T)
**
** ptxas predicates such a body instead (the SASS of tests/hardware's 2-D
** convolutions: `@!P0 LDG`, `@!P0 LDC`, `@!P0 FFMA`, no branch), so the
** loads of several guarded bodies are issued together and wait once.  This
** pass does the same: the branch goes and every instruction of B1 takes the
** guard under which it ran (B1 ran where the branch was not taken: @!%p for
** `@%p bra`, @%p for `@!%p bra`); B0, B1 and T then form one block (with the
** next such body: one block for a whole unrolled row of them), which the
** list scheduler (sched.c) schedules as one.
**
** A body qualifies when: B0 ends in a guarded bra to T; B1 is the next block,
** at most max_insns instructions, entered only from B0, and falls through to
** T; T is entered only from B0 and B1; no instruction of B1 is guarded, ends
** a block, calls, synchronises (barriers, warp-synchronous instructions,
** tensor instructions, SYNC-unit instructions), is atomic or a tpsim
** pseudo instruction, or writes the predicate %p.  A predicated-off
** instruction has no effect (PTX ISA: "@p instruction" executes only where
** p holds), so the code computes what the branching code computed: results
** do not change, only the instructions issued (the body's are issued also by
** warps whose lanes all skip it, as on the card) and their order.
**
** The instruction count stays the same: a removed branch becomes a mov with
** no operands (ptx_insn_gone), which reads and writes nothing, ends no block
** and which ptx_lower drops when it emits the code.  The CFG is then built
** again (ptx_cfg_build).
*/
#include "ptx.h"
#include <stdlib.h>

/* Whether in may run guarded in a converted body (the guard p not written). */
static bool convertible(const ptx_module *m, const ptx_insn *in, int32_t p)
{
    const ptx_opinfo *oi = &ptx_ops[in->op];
    if (in->guard >= 0) return false;
    if (oi->flags & (PTX_F_BRANCH | PTX_F_CALL | PTX_F_RET | PTX_F_EXIT | PTX_F_BARRIER | PTX_F_WARP |
                     PTX_F_ATOMIC | PTX_F_PSEUDO))
        return false;
    if (oi->unit == PTX_UNIT_CTRL || oi->unit == PTX_UNIT_SYNC || oi->unit == PTX_UNIT_TENSOR) return false;
    if (ptx_insn_gone(in)) return false;
    for (uint32_t k = 0; k < in->ndst && k < in->nopnd && k < PTX_MAX_OPND; k++) {
        const ptx_opnd *o = &in->o[k];
        if (o->kind == PTX_OK_PRED && o->r == p) return false;
        if (o->kind == PTX_OK_VEC || o->kind == PTX_OK_CALL) {
            if (o->r < 0 || (uint32_t)o->r + o->n > m->npool) return false;
            for (uint32_t j = 0; j < o->n; j++)
                if (m->pool[o->r + j].kind == PTX_OK_PRED && m->pool[o->r + j].r == p) return false;
        }
    }
    return true;
}

int ptx_ifconvert(ptx_module *m, ptx_func *f, uint32_t max_insns, tp_err *e)
{
    if (!max_insns || f->is_decl || !f->blocks || f->nblocks < 3) return 0;
    int n = 0;
    for (uint32_t b = 0; b + 2 < f->nblocks; b++) {
        const ptx_block *B0 = &f->blocks[b], *B1 = &f->blocks[b + 1], *T = &f->blocks[b + 2];
        ptx_insn *br = &m->insns[B0->end - 1];
        if (br->op != PTX_OP_BRA || br->guard < 0 || br->nopnd < 1 || br->o[0].kind != PTX_OK_LABEL ||
            (uint32_t)br->o[0].r != T->start)
            continue;
        if (B1->end != T->start || B1->end - B1->start > max_insns || B1->npreds != 1 || B1->preds[0] != b ||
            T->npreds != 2)
            continue;
        bool from0 = false, from1 = false;
        for (uint32_t k = 0; k < T->npreds; k++) {
            from0 |= T->preds[k] == b;
            from1 |= T->preds[k] == b + 1;
        }
        if (!from0 || !from1) continue;
        bool ok = true;
        for (uint32_t pc = B1->start; pc < B1->end && ok; pc++) ok = convertible(m, &m->insns[pc], br->guard);
        if (!ok) continue;
        for (uint32_t pc = B1->start; pc < B1->end; pc++) {
            m->insns[pc].guard = br->guard;
            m->insns[pc].guard_neg = (int8_t)!br->guard_neg;
        }
        /* the branch goes: a mov with no operands, kept in place (its line for messages) */
        br->op = PTX_OP_MOV;
        br->nopnd = br->ndst = 0;
        br->guard = -1;
        br->guard_neg = 0;
        n++;
    }
    if (n && !ptx_cfg_build(m, f, e)) return -1;
    return n;
}
