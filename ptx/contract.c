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
** function (so that write reaches the add), the multiply's operands still
** hold what it read when the add runs -- in one block, nothing writes them
** between the two; across blocks, each is written once, outside every loop
** (a register written once inside a loop changes from one iteration to the
** next) -- the multiply is unguarded, and both instructions have the same
** .ftz and no .sat on the multiply.  Functions with brx.idx (successors the
** block graph does not list) are left alone.  The add is rewritten in place as fma.rn with the multiply's
** operands; a sub's negated side is marked (PTX_MF_FMA_NEGC: a*b - c,
** PTX_MF_FMA_NEGA: c - a*b, computed as fma(-a, b, c)).  The multiply stays
** (its other uses, if any, read it).
*/
#include "parse_int.h"
#include <stdlib.h>
#include <string.h>

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

/* loop[b]: block b lies on a cycle of the block graph (Tarjan's strongly
** connected components, iteratively: a component of two or more blocks, or
** one with an edge to itself). */
static void mark_loops(const ptx_func *f, uint8_t *loop)
{
    uint32_t n = f->nblocks;
    int32_t *idx = malloc(n * sizeof *idx), *low = malloc(n * sizeof *low);
    uint32_t *stk = malloc(n * sizeof *stk), *call = malloc(n * sizeof *call);
    uint8_t *on = calloc(n, 1), *next = calloc(n, 1);
    if (!idx || !low || !stk || !call || !on || !next) {
        memset(loop, 1, n); /* no memory: every block counts as looping (nothing crosses blocks) */
        goto out;
    }
    for (uint32_t b = 0; b < n; b++) idx[b] = -1;
    int32_t counter = 0;
    uint32_t sp = 0, cp = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (idx[root] >= 0) continue;
        call[cp++] = root;
        idx[root] = low[root] = counter++;
        stk[sp++] = root;
        on[root] = 1;
        while (cp) {
            uint32_t v = call[cp - 1];
            if (next[v] < 2) {
                int32_t w = f->blocks[v].succ[next[v]++];
                if (w < 0 || (uint32_t)w >= n) continue;
                if (idx[w] < 0) {
                    idx[w] = low[w] = counter++;
                    stk[sp++] = (uint32_t)w;
                    on[w] = 1;
                    call[cp++] = (uint32_t)w;
                } else if (on[w] && idx[w] < low[v]) {
                    low[v] = idx[w];
                }
                continue;
            }
            cp--;
            if (cp && low[v] < low[call[cp - 1]]) low[call[cp - 1]] = low[v];
            if (low[v] == idx[v]) {
                uint32_t size = 0, w;
                uint32_t top = sp;
                do {
                    w = stk[--sp];
                    on[w] = 0;
                    size++;
                } while (w != v);
                bool cyc = size > 1 || f->blocks[v].succ[0] == (int32_t)v || f->blocks[v].succ[1] == (int32_t)v;
                for (uint32_t k = sp; k < top; k++) loop[stk[k]] = cyc;
            }
        }
    }
out:
    free(idx);
    free(low);
    free(stk);
    free(call);
    free(on);
    free(next);
}

/* Whether operand o of the multiply at pc mp still holds its value at pc ap. */
static bool holds(const ptx_module *m, const ptx_func *f, const uint32_t *nw, const uint32_t *who,
                  const uint32_t *blk, const uint8_t *loop, const ptx_opnd *o, uint32_t mp, uint32_t ap)
{
    if (o->kind == PTX_OK_IMM) return true;
    if (o->kind != PTX_OK_REG || o->r < 0 || (uint32_t)o->r >= f->nrows) return false;
    if (blk[mp] == blk[ap] && mp < ap) {
        for (uint32_t pc = mp + 1; pc < ap; pc++) {
            const ptx_insn *in = &m->insns[pc];
            for (unsigned k = 0; k < in->ndst && k < in->nopnd; k++)
                if (in->o[k].kind != PTX_OK_REG || in->o[k].r == o->r) return false; /* vectors, calls: give up */
        }
        return true;
    }
    return nw[o->r] == 1 && !loop[blk[who[o->r]]];
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
        uint32_t *blk = malloc((f->end - f->start) * sizeof *blk);
        uint8_t *loop = calloc(f->nblocks ? f->nblocks : 1, 1);
        bool brx = false;
        for (uint32_t pc = f->start; pc < f->end; pc++) brx |= m->insns[pc].op == PTX_OP_BRX;
        if (!blk || !loop || brx || !f->nblocks) {
            free(blk);
            free(loop);
            free(nw);
            free(who);
            continue;
        }
        for (uint32_t b = 0; b < f->nblocks; b++)
            for (uint32_t pc = f->blocks[b].start; pc < f->blocks[b].end && pc < f->end; pc++)
                if (pc >= f->start) blk[pc - f->start] = b;
        mark_loops(f, loop);
        const uint32_t *bk = blk - f->start; /* indexed by module pc */
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
                    (mu->m.flags & PTX_MF_FTZ) != (in->m.flags & PTX_MF_FTZ) ||
                    !holds(m, f, nw, who, bk, loop, &mu->o[1], who[p->r], pc) ||
                    !holds(m, f, nw, who, bk, loop, &mu->o[2], who[p->r], pc))
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
        free(blk);
        free(loop);
        free(nw);
        free(who);
    }
    return n;
}
