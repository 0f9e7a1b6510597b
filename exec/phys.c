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
** Shared-register sections (ptx_func.rs, set by a register-sharing policy's
** pass): registers >= the base set |Bs| of a kernel live in the warp's
** section, not its frame.  An instruction that touches one copies it from
** the section into the frame row before (SEC_IN, all lanes) and back after
** (SEC_OUT), so the frame rows >= |Bs| are only a window onto the section;
** touching one without holding a section faults.  The acquire and release
** marks (exec_section_point) are handled before the instruction's fix-ups,
** also when no lane runs it (its guard is false in every lane).
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
    FX_SEC_IN, FX_COMB64, FX_COMB128,            /* before the instruction */
    FX_POST_,
    FX_SPLIT64 = FX_POST_, FX_SPLIT128, FX_RESTORE128, FX_RESTORE128_NM, FX_TRASH, FX_SEC_OUT, /* after */
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
            /* sections: every register >= |Bs| the instruction touches comes
            ** from the section before and goes back after */
            if (fn->rs && fn->rs->ext) {
                uint32_t base = fn->rs->base, ext = fn->rs->ext;
                uint8_t touched[256] = {0};
                for (uint32_t j = 0; j < k; j++) {
                    int32_t q = fn->ra_map[oc[j].row];
                    for (uint32_t i = 0; q >= 0 && i < ptx_row_units(fn, oc[j].row); i++)
                        if ((uint32_t)q + i >= base && (uint32_t)q + i < base + ext && (uint32_t)q + i < 256)
                            touched[q + i] = 1;
                }
                for (uint32_t i = from; i < v->n; i++) {
                    uint32_t q = v->a[i] & 0xffffffu;
                    if (q >= base && q < base + ext && q < 256) touched[q] = 1;
                }
                u32vec pre = {0};
                for (uint32_t q = base; q < base + ext && q < 256; q++)
                    if (touched[q]) {
                        tp_vec_push(&pre, FX(FX_SEC_IN, q));
                        tp_vec_push(v, FX(FX_SEC_OUT, q));
                    }
                if (pre.n) { /* the copies in go first */
                    uint32_t old_n = v->n;
                    for (uint32_t i = 0; i < pre.n; i++) tp_vec_push(v, 0);
                    memmove(v->a + from + pre.n, v->a + from, (old_n - from) * sizeof *v->a);
                    memcpy(v->a + from, pre.a, pre.n * sizeof *pre.a);
                }
                tp_vec_free(&pre);
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
    if (ph->rsf && ph->rsf[pc] && !exec_section_point(w, pc)) return;
    for (; f < end && (*f >> 24) < FX_POST_; f++) {
        uint64_t *r = fp + (size_t)(*f & 0xffffffu) * 32;
        if (*f >> 24 == FX_SEC_IN) {
            if (!w->sec_held) {
                exec_fault(w, -1, EXEC_ERR_UNSUPPORTED,
                           "shared registers: register R%u of the extended set used without a section (a missing acquire)",
                           *f & 0xffffffu);
                return;
            }
            memcpy(r, w->sec + (size_t)((*f & 0xffffffu) - w->g->rs->base) * 32, 32 * sizeof *r);
        } else if (*f >> 24 == FX_COMB64) {
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
        case FX_TRASH: EXEC_LANES(at, r[l] = PHYS_GARBAGE); break;
        default: /* FX_SEC_OUT */
            if (w->sec_held) memcpy(w->sec + (size_t)((*f & 0xffffffu) - w->g->rs->base) * 32, r, 32 * sizeof *r);
            break;
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
        if (fn->rs && fn->rs->at) {
            if (!ph->rsf) ph->rsf = tp_calloc(p->ninsns + 1, 1);
            memcpy(ph->rsf + fn->start, fn->rs->at, fn->end - fn->start);
        }
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

/* ---- shared-register sections: acquire and release points ------------------------- */

bool exec_section_point(exec_warp *w, uint32_t pc)
{
    exec_grid *g = w->g;
    const exec_phys *ph = g->m->phys;
    uint8_t mk = ph->rsf[pc];
    if ((mk & PTX_RS_RELEASE) && w->sec_held) {
        /* keep it while a lane waits at a pc where the section is held */
        bool waiting = false;
        for (uint32_t i = 0; i + 1 < w->nstk && !waiting; i++)
            if (w->stk[i].mask && w->stk[i].pc < g->m->ptx->ninsns && (ph->rsf[w->stk[i].pc] & PTX_RS_HELD))
                waiting = true;
        if (!waiting) {
            exec_section_drop(w);
            if (w->x->rec) w->x->rec->events |= EXEC_EV_SECTION_FREE;
        }
    }
    if ((mk & PTX_RS_ACQUIRE) && !w->sec_held) {
        if (g->sec_pool) {
            exec_fault(w, -1, EXEC_ERR_UNSUPPORTED, "shared registers: the warp reached an acquire point without a section");
            return false;
        }
        size_t need = (size_t)(g->rs ? g->rs->ext : 0) * 32;
        if (w->sec_priv_cap < need) {
            free(w->sec_priv);
            w->sec_priv = tp_malloc((need ? need : 1) * sizeof *w->sec_priv);
            w->sec_priv_cap = (uint32_t)need;
        }
        /* a section holds what its last owner left: garbage to this warp */
        for (size_t i = 0; i < need; i++) w->sec_priv[i] = PHYS_GARBAGE;
        w->sec = w->sec_priv;
        w->sec_held = 1;
    }
    return true;
}

void exec_grid_section_pool(exec_grid *g)
{
    if (!g->rs || !g->occ.sections || g->sec_pool) return;
    g->sec_pool = true;
    size_t rows = (size_t)g->nsm * g->occ.sections * g->rs->ext;
    g->sec_store = tp_malloc((rows ? rows : 1) * 32 * sizeof *g->sec_store);
    for (size_t i = 0; i < rows * 32; i++) g->sec_store[i] = PHYS_GARBAGE;
}

void exec_warp_set_section(exec_warp *w, uint32_t section)
{
    exec_grid *g = w->g;
    if (!g->sec_pool || section >= g->occ.sections) return;
    w->sec = g->sec_store + ((size_t)w->cta->sm * g->occ.sections + section) * g->rs->ext * 32;
    w->sec_held = 1;
}

void exec_phys_free(exec_phys *ph)
{
    if (!ph) return;
    free(ph->rsf);
    free(ph->fn);
    free(ph->off);
    free(ph->fx);
    free(ph);
}
