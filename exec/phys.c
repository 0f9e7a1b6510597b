/*
** phys.c -- running the register-allocated code (regs.physical=1).
**
** The module's code is then the lowered one (ptx_lower: scheduled, with
** constant-bank copies and spills), and every register operand is rewritten
** at decode through the allocation map: frame row p of a warp IS physical
** 32-bit register Rp.  So that a wrong allocation changes results, the
** register file behaves as 32-bit registers would:
**   - a 64-bit value lives in the pair Rp, Rp+1: before an instruction reads
**     it, row p gets Rp | Rp+1 << 32 (COMB64); after one writes it, Rp+1
**     gets the high half (SPLIT64, written lanes);
**   - a b128 value in Rp..Rp+3 (the semantics read rows p and p+1 as its
**     halves): COMB128 before (rows p, p+1 from the four registers),
**     SPLIT128 after a write, RESTORE128 after a read (row p+1 back to Rp+1);
**   - after each instruction, every register whose value is no longer live
**     (it was live into the instruction or written by it, and is not live
**     after it) is filled with garbage in the lanes at the instruction
**     (TRASH), so a value read after the allocator thought it dead is wrong.
** Constant-bank rows (ptx_func.ra_cb) get rows after the registers (the
** hardware reads them from the constant bank; they are never trashed), then
** one spare row, then the special-register scratch rows.
**
** Each instruction's fix-ups are a list decode computes once; the handler of
** every instruction becomes h_phys, which runs the "before" entries, the
** instruction's own handler, then the "after" entries.  Control
** instructions (calls switch frames) get only the "before" entries.  None of
** this exists with regs.physical=0: decode is then unchanged.
*/
#include "internal.h"
#include <stdlib.h>
#include "../base/vec.h"

enum {
    FX_COMB64, FX_COMB128,                       /* before the instruction */
    FX_POST_,
    FX_SPLIT64 = FX_POST_, FX_SPLIT128, FX_RESTORE128, FX_RESTORE128_NM, FX_TRASH, /* after */
};
#define FX(k, r) ((uint32_t)(k) << 24 | (uint32_t)(r))

/* Garbage a dead register gets: recognisable in a trace, never a small number. */
#define PHYS_GARBAGE 0xdeadbeefdeadbeefull

uint32_t exec_phys_frame_base(const ptx_func *fn)
{
    return fn->ra_own + fn->ra_ncb + 1;
}

/* Frame row of a row of fn's lowered code. */
static uint32_t prow(const ptx_func *fn, const uint32_t *cbidx, uint32_t r)
{
    if (r >= fn->nrows) return r;
    if (fn->ra_map && fn->ra_map[r] >= 0) return (uint32_t)fn->ra_map[r];
    if (fn->ra_cb && fn->ra_cb[r]) return fn->ra_own + cbidx[r];
    return fn->ra_own + fn->ra_ncb; /* the spare row (a row the code names but never needs) */
}

static void rewrite_opnd(const ptx_func *fn, const uint32_t *cbidx, ptx_opnd *o, ptx_opnd *pool, uint32_t npool)
{
    switch (o->kind) {
    case PTX_OK_REG: o->r = (int32_t)prow(fn, cbidx, (uint32_t)o->r); break;
    case PTX_OK_ADDR:
        if (o->base == PTX_AB_REG) o->r = (int32_t)prow(fn, cbidx, (uint32_t)o->r);
        break;
    case PTX_OK_VEC:
    case PTX_OK_CALL:
        if (o->r < 0 || (uint32_t)o->r + o->n > npool) break;
        for (uint32_t j = 0; j < o->n; j++) {
            ptx_opnd *e = &pool[o->r + j];
            if (e->kind == PTX_OK_REG || (e->kind == PTX_OK_ADDR && e->base == PTX_AB_REG))
                e->r = (int32_t)prow(fn, cbidx, (uint32_t)e->r);
        }
        break;
    default: break;
    }
}

typedef TP_VEC(uint32_t) u32vec;

static void put_uniq(u32vec *v, uint32_t from, uint32_t x)
{
    for (uint32_t i = from; i < v->n; i++)
        if (v->a[i] == x) return;
    tp_vec_push(v, x);
}

/* Physical registers of the rows in bitset `set` (fn's rows) into bits. */
static void regs_of(const ptx_func *fn, const uint64_t *set, uint32_t words, uint64_t *bits, uint32_t bwords)
{
    memset(bits, 0, bwords * sizeof *bits);
    for (uint32_t k = 0; k < words; k++)
        for (uint64_t x = set[k]; x; x &= x - 1) {
            uint32_t r = k * 64 + (uint32_t)__builtin_ctzll(x);
            if (r >= fn->nrows || fn->ra_map[r] < 0) continue;
            uint32_t p = (uint32_t)fn->ra_map[r], u = ptx_row_units(fn, r);
            for (uint32_t q = 0; q < u && p + q < bwords * 64; q++) bits[(p + q) >> 6] |= 1ull << ((p + q) & 63);
        }
}

/* Fix-ups of fn's instructions into v (offsets per pc in off[]). */
static bool fix_func(exec_mod *m, const ptx_func *fn, u32vec *v, uint32_t *off, tp_err *e)
{
    const ptx_module *p = m->ptx;
    ptx_live lv;
    if (!ptx_liveness(p, fn, PTX_LIVE_ALLOC, &lv, e)) return false;
    uint32_t bw = (fn->ra_own + 64) / 64, nb = fn->nblocks;
    uint64_t *in = tp_calloc(bw, sizeof *in), *out = tp_calloc(bw, sizeof *out), *tmp = tp_calloc(bw, sizeof *tmp);
    /* successors of each block, from the predecessor lists */
    uint32_t *soff = tp_calloc(nb + 2, sizeof *soff), ne = 0;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t j = 0; j < fn->blocks[b].npreds; j++)
            if (fn->blocks[b].preds[j] < nb) soff[fn->blocks[b].preds[j] + 1]++, ne++;
    for (uint32_t b = 0; b < nb; b++) soff[b + 1] += soff[b];
    uint32_t *succ = tp_malloc((ne + 1) * sizeof *succ), *fill = tp_malloc((nb + 1) * sizeof *fill);
    memcpy(fill, soff, (nb + 1) * sizeof *fill);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t j = 0; j < fn->blocks[b].npreds; j++) {
            uint32_t q = fn->blocks[b].preds[j];
            if (q < nb) succ[fill[q]++] = b;
        }
    ptx_regocc oc[256];
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *bl = &fn->blocks[b];
        for (uint32_t pc = bl->start; pc < bl->end; pc++) {
            const ptx_insn *ins = &p->insns[pc];
            off[pc] = v->n;
            uint32_t k = ptx_insn_regs(p, fn, ins, 0, oc, TP_ARRAY_LEN(oc));
            if (k > TP_ARRAY_LEN(oc)) k = TP_ARRAY_LEN(oc);
            uint32_t from = v->n;
            /* before: pairs and quads that are read */
            for (uint32_t j = 0; j < k; j++) {
                uint32_t r = oc[j].row;
                if (oc[j].kind == PTX_RO_DEF || fn->ra_map[r] < 0) continue;
                uint32_t u = ptx_row_units(fn, r), q = (uint32_t)fn->ra_map[r];
                if (u == 2) put_uniq(v, from, FX(FX_COMB64, q));
                if (u == 4) put_uniq(v, from, FX(FX_COMB128, q));
            }
            /* after: pairs and quads written, quads read restored, dead registers */
            uint32_t post = v->n;
            for (uint32_t j = 0; j < k; j++) {
                uint32_t r = oc[j].row;
                if (oc[j].kind != PTX_RO_DEF || fn->ra_map[r] < 0) continue;
                uint32_t u = ptx_row_units(fn, r), q = (uint32_t)fn->ra_map[r];
                if (u == 2) put_uniq(v, post, FX(FX_SPLIT64, q));
                if (u == 4) put_uniq(v, post, FX(FX_SPLIT128, q));
            }
            for (uint32_t j = 0; j < k; j++) {
                uint32_t r = oc[j].row;
                if (oc[j].kind == PTX_RO_DEF || fn->ra_map[r] < 0 || ptx_row_units(fn, r) != 4) continue;
                uint32_t q = (uint32_t)fn->ra_map[r];
                bool written = false;
                for (uint32_t i = 0; i < k; i++)
                    if (oc[i].kind == PTX_RO_DEF && fn->ra_map[oc[i].row] >= 0) {
                        uint32_t a = (uint32_t)fn->ra_map[oc[i].row], ua = ptx_row_units(fn, oc[i].row);
                        if (a <= q + 1 && q + 1 < a + ua) written = true;
                    }
                put_uniq(v, post, FX(written ? FX_RESTORE128_NM : FX_RESTORE128, q));
            }
            /* dead registers: (live into pc, or written by it) and not live after it */
            regs_of(fn, lv.in + (size_t)(pc - lv.start) * lv.words, lv.words, in, bw);
            for (uint32_t j = 0; j < k; j++) {
                uint32_t r = oc[j].row;
                if (oc[j].kind != PTX_RO_DEF || fn->ra_map[r] < 0) continue;
                uint32_t q = (uint32_t)fn->ra_map[r], u = ptx_row_units(fn, r);
                for (uint32_t i = 0; i < u; i++) in[(q + i) >> 6] |= 1ull << ((q + i) & 63);
            }
            memset(out, 0, bw * sizeof *out);
            if (pc + 1 < bl->end) {
                regs_of(fn, lv.in + (size_t)(pc + 1 - lv.start) * lv.words, lv.words, out, bw);
            } else {
                for (uint32_t s = soff[b]; s < soff[b + 1]; s++) {
                    uint32_t sp = fn->blocks[succ[s]].start;
                    regs_of(fn, lv.in + (size_t)(sp - lv.start) * lv.words, lv.words, tmp, bw);
                    for (uint32_t w = 0; w < bw; w++) out[w] |= tmp[w];
                }
            }
            for (uint32_t w = 0; w < bw; w++)
                for (uint64_t x = in[w] & ~out[w]; x; x &= x - 1) {
                    uint32_t q = w * 64 + (uint32_t)__builtin_ctzll(x);
                    if (q < fn->ra_own) tp_vec_push(v, FX(FX_TRASH, q));
                }
        }
    }
    off[fn->end] = v->n;
    free(in);
    free(out);
    free(tmp);
    free(soff);
    free(succ);
    free(fill);
    ptx_live_free(&lv);
    return true;
}

static void h_phys(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    const exec_mod *md = w->g->m;
    const exec_phys *ph = md->phys;
    uint32_t pc = (uint32_t)(in - md->xi);
    const uint32_t *f = ph->fx + ph->off[pc], *end = ph->fx + ph->off[pc + 1];
    uint64_t *fp = w->fp;
    for (; f < end && (*f >> 24) < FX_POST_; f++) {
        uint64_t *r = fp + (size_t)(*f & 0xffffffu) * 32;
        if (*f >> 24 == FX_COMB64) {
            for (int l = 0; l < 32; l++) r[l] = (uint32_t)r[l] | (uint64_t)(uint32_t)r[l + 32] << 32;
        } else { /* FX_COMB128 */
            for (int l = 0; l < 32; l++) {
                r[l] = (uint32_t)r[l] | (uint64_t)(uint32_t)r[l + 32] << 32;
                r[l + 32] = (uint32_t)r[l + 64] | (uint64_t)(uint32_t)r[l + 96] << 32;
            }
        }
    }
    uint32_t at = exec_top(w)->mask;
    ph->fn[pc](w, in, d, m);
    if (d->kind & EXEC_DK_CTRL) return;
    for (; f < end; f++) {
        uint64_t *r = fp + (size_t)(*f & 0xffffffu) * 32;
        switch (*f >> 24) {
        case FX_SPLIT64: EXEC_LANES(m, r[l + 32] = r[l] >> 32); break;
        case FX_SPLIT128:
            EXEC_LANES(m, {
                uint64_t lo = r[l], hi = r[l + 32];
                r[l + 96] = hi >> 32;
                r[l + 64] = (uint32_t)hi;
                r[l + 32] = lo >> 32;
            });
            break;
        case FX_RESTORE128:
            for (int l = 0; l < 32; l++) r[l + 32] = r[l] >> 32;
            break;
        case FX_RESTORE128_NM: EXEC_LANES(~m, r[l + 32] = r[l] >> 32); break;
        default: /* FX_TRASH */ EXEC_LANES(at, r[l] = PHYS_GARBAGE); break;
        }
    }
}

bool exec_phys_build(exec_mod *m, tp_err *e)
{
    const ptx_module *p = m->ptx;
    exec_phys *ph = m->phys = tp_calloc(1, sizeof *ph);
    ph->fn = tp_calloc(p->ninsns + 1, sizeof *ph->fn);
    ph->off = tp_calloc(p->ninsns + 2, sizeof *ph->off);
    u32vec v = {0};
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const ptx_func *fn = &p->funcs[f];
        if (fn->is_decl) continue;
        if (!fn->ra_map) {
            tp_err_set(e, 1, "%s: function '%s' has no register allocation to run", m->name, fn->name);
            tp_vec_free(&v);
            return false;
        }
        uint32_t *cbidx = tp_calloc(fn->nrows + 1, sizeof *cbidx), k = 0;
        for (uint32_t r = 0; r < fn->nrows; r++)
            if (fn->ra_cb && fn->ra_cb[r]) cbidx[r] = k++;
        if (!fix_func(m, fn, &v, ph->off, e)) {
            free(cbidx);
            tp_vec_free(&v);
            return false;
        }
        for (uint32_t pc = fn->start; pc < fn->end; pc++) {
            ptx_insn *in = &m->xi[pc];
            for (uint32_t j = 0; j < in->nopnd && j < PTX_MAX_OPND; j++) {
                /* special-register sources already name their scratch rows */
                if (p->insns[pc].o[j].kind == PTX_OK_SREG) continue;
                rewrite_opnd(fn, cbidx, &in->o[j], m->xpool, p->npool);
            }
            ph->fn[pc] = m->d[pc].fn;
            m->d[pc].fn = h_phys;
            /* the timing model's register lists name physical registers too
            ** (scoreboard, register-file banks) */
            exec_opreg *rl = (exec_opreg *)(uintptr_t)m->si[pc].regs;
            for (uint32_t j = 0; j < (uint32_t)m->si[pc].ndst + m->si[pc].nsrc; j++)
                if (rl[j].kind == EXEC_R_REG) rl[j].r = (uint16_t)prow(fn, cbidx, rl[j].r);
        }
        free(cbidx);
    }
    /* pcs outside functions have no fix-ups: make off[] monotone */
    for (uint32_t pc = 1; pc <= p->ninsns; pc++)
        if (ph->off[pc] < ph->off[pc - 1]) ph->off[pc] = ph->off[pc - 1];
    ph->fx = v.a ? v.a : tp_malloc(sizeof *ph->fx);
    return true;
}

void exec_phys_free(exec_phys *ph)
{
    if (!ph) return;
    free(ph->fn);
    free(ph->off);
    free(ph->fx);
    free(ph);
}
