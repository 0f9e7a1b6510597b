/*
** contract.c -- ptxas's floating-point contraction (its -fmad=true, the
** default): a mul.f32/.f64 whose result feeds an add or sub of the same
** type, none of them with a rounding modifier, becomes one fused
** multiply-add (PTX lets the code generator do this only where no rounding
** modifier is given: "mul/add ... may be optimized aggressively by the code
** generator, e.g. contracted into fma").  nvcc's front end contracts within
** an expression; ptxas also where the multiply is in another block (a
** loop-invariant product), which the PTX shows as separate instructions.
**
** The pair qualifies when the product's register is written once in the
** function (so that write reaches the add), its operands are written at most
** once (so they still hold the values the multiply read), the multiply is
** unguarded, and both instructions have the same .ftz and no .sat on the
** multiply.  The add is rewritten in place as fma.rn with the multiply's
** operands; a sub's negated side is marked (PTX_MF_FMA_NEGC: a*b - c,
** PTX_MF_FMA_NEGA: c - a*b, computed as fma(-a, b, c)).  The multiply stays
** (its other uses, if any, read it).
*/
#include "parse_int.h"
#include <stdlib.h>

/* Writes of each register row in f: how many, and the last writer's pc. */
static void count_writes(const ptx_module *m, const ptx_func *f, uint32_t *nw, uint32_t *who)
{
    for (uint32_t pc = f->start; pc < f->end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        for (unsigned k = 0; k < in->ndst && k < in->nopnd; k++) {
            const ptx_opnd *o = &in->o[k];
            if (o->kind == PTX_OK_REG && o->r >= 0 && (uint32_t)o->r < f->nrows) {
                nw[o->r]++;
                who[o->r] = pc;
            } else if (o->kind == PTX_OK_VEC || o->kind == PTX_OK_CALL) {
                /* vector destinations (ld.v4 {...}), call results: their
                ** registers are written, never by a multiply */
                for (unsigned e = 0; e < o->n && o->r + e < m->npool; e++) {
                    const ptx_opnd *x = &m->pool[o->r + e];
                    if (x->kind == PTX_OK_REG && x->r >= 0 && (uint32_t)x->r < f->nrows) nw[x->r] += 2;
                }
            }
        }
    }
}

static bool once(const uint32_t *nw, const ptx_func *f, const ptx_opnd *o)
{
    if (o->kind == PTX_OK_IMM) return true;
    if (o->kind != PTX_OK_REG || o->r < 0 || (uint32_t)o->r >= f->nrows) return false;
    return nw[o->r] <= 1;
}

unsigned ptx_contract(ptx_module *m)
{
    unsigned n = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        ptx_func *f = &m->funcs[fi];
        if (f->is_decl || !f->nrows) continue;
        uint32_t *nw = calloc(f->nrows, sizeof *nw), *who = calloc(f->nrows, sizeof *who);
        if (!nw || !who) {
            free(nw);
            free(who);
            continue;
        }
        count_writes(m, f, nw, who);
        for (uint32_t pc = f->start; pc < f->end; pc++) {
            ptx_insn *in = &m->insns[pc];
            if ((in->op != PTX_OP_ADD && in->op != PTX_OP_SUB) || in->m.rnd != PTX_RND_NONE || in->nopnd != 3 ||
                (in->type != PTX_T_F32 && in->type != PTX_T_F64))
                continue;
            for (int k = 1; k <= 2; k++) {
                const ptx_opnd *p = &in->o[k];
                if (p->kind != PTX_OK_REG || p->r < 0 || (uint32_t)p->r >= f->nrows || nw[p->r] != 1) continue;
                const ptx_insn *mu = &m->insns[who[p->r]];
                if (mu->op != PTX_OP_MUL || mu->type != in->type || mu->m.rnd != PTX_RND_NONE || mu->guard >= 0 ||
                    mu->nopnd != 3 || (mu->m.flags & PTX_MF_SAT) ||
                    (mu->m.flags & PTX_MF_FTZ) != (in->m.flags & PTX_MF_FTZ) || !once(nw, f, &mu->o[1]) ||
                    !once(nw, f, &mu->o[2]))
                    continue;
                ptx_opnd c = in->o[3 - k];
                uint32_t neg = in->op == PTX_OP_SUB ? (k == 1 ? PTX_MF_FMA_NEGC : PTX_MF_FMA_NEGA) : 0;
                in->op = PTX_OP_FMA;
                in->m.rnd = PTX_RND_RN;
                in->m.flags |= neg;
                in->nopnd = 4;
                in->o[1] = mu->o[1];
                in->o[2] = mu->o[2];
                in->o[3] = c;
                n++;
                break;
            }
        }
        free(nw);
        free(who);
    }
    return n;
}
