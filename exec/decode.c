/*
** decode.c -- turns a parsed module into something the functional model can
** run fast: a private copy of the instructions in which every immediate
** names a constant row, special-register sources name scratch rows, and every
** instruction has its handler chosen once, by opcode, type and modifiers.
*/
#include "internal.h"
#include <stdarg.h>
#include <stdlib.h>

/* ---- constant rows --------------------------------------------------------- */

typedef struct crow_map {
    uint64_t *keys;
    int32_t *vals;
    uint32_t cap;
} crow_map;

static int32_t crow_get(exec_mod *m, crow_map *h, uint64_t v)
{
    if (m->ncrows * 2 >= h->cap) {
        uint32_t ncap = h->cap ? h->cap * 2 : 256;
        uint64_t *nk = tp_malloc(ncap * sizeof *nk);
        int32_t *nv = tp_malloc(ncap * sizeof *nv);
        for (uint32_t i = 0; i < ncap; i++) nv[i] = -1;
        for (uint32_t i = 0; i < h->cap; i++) {
            if (h->vals[i] < 0) continue;
            uint32_t j = (uint32_t)((h->keys[i] * 0x9e3779b97f4a7c15ull) >> 40) & (ncap - 1);
            while (nv[j] >= 0) j = (j + 1) & (ncap - 1);
            nk[j] = h->keys[i];
            nv[j] = h->vals[i];
        }
        free(h->keys);
        free(h->vals);
        h->keys = nk;
        h->vals = nv;
        h->cap = ncap;
        m->crows = tp_realloc(m->crows, (size_t)ncap / 2 * 32 * sizeof(uint64_t));
    }
    uint32_t j = (uint32_t)((v * 0x9e3779b97f4a7c15ull) >> 40) & (h->cap - 1);
    while (h->vals[j] >= 0) {
        if (h->keys[j] == v) return h->vals[j];
        j = (j + 1) & (h->cap - 1);
    }
    int32_t row = (int32_t)m->ncrows++;
    h->keys[j] = v;
    h->vals[j] = row;
    for (int l = 0; l < 32; l++) m->crows[(size_t)row * 32 + l] = v;
    return row;
}

static void rewrite_imm(exec_mod *m, crow_map *h, ptx_opnd *o)
{
    if (o->kind == PTX_OK_IMM) o->r = crow_get(m, h, (uint64_t)o->imm);
}

/* ---- unsupported forms fault when executed, not when loaded ---------------- */

static void h_unsupported(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)in;
    (void)d;
    (void)m;
    exec_fault(w, -1, EXEC_ERR_UNSUPPORTED, "this instruction form is not supported by tpsim's functional model");
}

static void h_nop(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)w; (void)in; (void)d; (void)m;
}

bool exec_decode_module(exec_mod *m, tp_err *e)
{
    ptx_module *p = m->ptx;
    uint32_t n = p->ninsns;
    m->xi = tp_malloc((n ? n : 1) * sizeof *m->xi);
    if (n) memcpy(m->xi, p->insns, n * sizeof *m->xi);
    m->xpool = tp_malloc((p->npool ? p->npool : 1) * sizeof *m->xpool);
    if (p->npool) memcpy(m->xpool, p->pool, p->npool * sizeof *m->xpool);
    m->d = tp_calloc(n ? n : 1, sizeof *m->d);
    m->fninfo = tp_calloc(p->nfuncs ? p->nfuncs : 1, sizeof *m->fninfo);

    crow_map h = {0};
    crow_get(m, &h, 0); /* row 0: zero, handy for absent operands */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < m->xi[i].nopnd; k++) rewrite_imm(m, &h, &m->xi[i].o[k]);
    for (uint32_t i = 0; i < p->npool; i++) rewrite_imm(m, &h, &m->xpool[i]);
    free(h.keys);
    free(h.vals);

    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const ptx_func *fn = &p->funcs[f];
        exec_fninfo *fi = &m->fninfo[f];
        fi->rows = fn->nrows + 3;
        fi->preds = fn->npreds;
        fi->frame_bytes = fn->local_bytes;
        for (uint32_t pc = fn->start; pc < fn->end; pc++) {
            ptx_insn *in = &m->xi[pc];
            exec_dinsn *d = &m->d[pc];
            for (uint32_t k = in->ndst; k < in->nopnd; k++) {
                ptx_opnd *o = &in->o[k];
                if (o->kind != PTX_OK_SREG) continue;
                if (d->nsreg == 3) {
                    tp_err_set(e, 1, "%s:%u:%u: too many special-register operands", m->name, in->line, in->col);
                    return false;
                }
                d->sreg[d->nsreg] = (uint16_t)(o->r << 5 | (o->imm & 31));
                d->scratch[d->nsreg] = fn->nrows + d->nsreg;
                o->kind = PTX_OK_REG;
                o->r = (int32_t)(fn->nrows + d->nsreg);
                d->nsreg++;
                d->kind |= EXEC_DK_SREG;
            }
            const char *why = NULL;
            exec_fn h = NULL;
            if (in->op == PTX_OP_BRKPT || in->op == PTX_OP_PMEVENT || in->op == PTX_OP_PREFETCH ||
                in->op == PTX_OP_PREFETCHU || in->op == PTX_OP_MEMBAR || in->op == PTX_OP_FENCE)
                h = h_nop;
            if (!h && !why) h = exec_pick_ctrl(p, in, d, &why);
            if (!h && !why) h = exec_pick_mem(p, fn, in, d, &why);
            if (!h && !why) h = exec_pick_warp(in, d, &why);
            if (!h && !why) h = exec_pick_tex(in, d, &why);
            if (!h && !why) h = exec_pick_fp(in, d, &why);
            if (!h && !why) h = exec_pick_alu(in, d, &why);
            if (!h) h = h_unsupported;
            d->fn = h;
            exec_mem_set_abase(fn, in, d);
        }
    }
    return true;
}

/* ---- special registers ------------------------------------------------------ */

void exec_fill_sregs(exec_warp *w, const exec_dinsn *d)
{
    exec_grid *g = w->g;
    exec_cta *c = w->cta;
    const uint32_t *bd = g->l.block, *gd = g->l.grid;
    for (uint32_t k = 0; k < d->nsreg; k++) {
        uint64_t *r = w->fp + (size_t)d->scratch[k] * 32;
        unsigned sr = d->sreg[k] >> 5, comp = d->sreg[k] & 31;
        uint64_t v = 0;
        switch (sr) {
        case PTX_SR_TID:
            for (int l = 0; l < 32; l++) {
                uint32_t t = w->tid0 + (uint32_t)l;
                uint32_t x = t % bd[0], y = (t / bd[0]) % bd[1], z = t / (bd[0] * bd[1]);
                r[l] = comp == 0 ? x : comp == 1 ? y : z;
            }
            continue;
        case PTX_SR_LANEID:
            for (int l = 0; l < 32; l++) r[l] = (uint64_t)l;
            continue;
        case PTX_SR_LANEMASK_EQ:
            for (int l = 0; l < 32; l++) r[l] = 1ull << l;
            continue;
        case PTX_SR_LANEMASK_LE:
            for (int l = 0; l < 32; l++) r[l] = (uint32_t)((2ull << l) - 1);
            continue;
        case PTX_SR_LANEMASK_LT:
            for (int l = 0; l < 32; l++) r[l] = (uint32_t)((1ull << l) - 1);
            continue;
        case PTX_SR_LANEMASK_GE:
            for (int l = 0; l < 32; l++) r[l] = (uint32_t)~((1ull << l) - 1);
            continue;
        case PTX_SR_LANEMASK_GT:
            for (int l = 0; l < 32; l++) r[l] = (uint32_t)~((2ull << l) - 1);
            continue;
        case PTX_SR_NTID: v = bd[comp]; break;
        case PTX_SR_CTAID: v = c->id[comp]; break;
        case PTX_SR_NCTAID: v = gd[comp]; break;
        case PTX_SR_WARPID: v = w->wid; break;
        case PTX_SR_NWARPID: v = (uint64_t)tp_opt_i(&g->dev->opts, OPT_DEVICE_MAX_THREADS_PER_SM) / 32; break;
        case PTX_SR_SMID: v = c->sm; break;
        case PTX_SR_NSMID: v = g->nsm; break;
        case PTX_SR_GRIDID: v = g->gridid; break;
        case PTX_SR_CLOCK: v = (uint32_t)g->clock; break;
        case PTX_SR_CLOCK_HI: v = (uint32_t)(g->clock >> 32); break;
        case PTX_SR_CLOCK64: v = g->clock; break;
        case PTX_SR_GLOBALTIMER:
        case PTX_SR_GLOBALTIMER_LO:
        case PTX_SR_GLOBALTIMER_HI: {
            uint64_t mhz = (uint64_t)tp_opt_i(&g->dev->opts, OPT_DEVICE_CLOCK_MHZ);
            uint64_t ns = g->clock * 1000 / (mhz ? mhz : 1);
            v = sr == PTX_SR_GLOBALTIMER ? ns : sr == PTX_SR_GLOBALTIMER_LO ? (uint32_t)ns : ns >> 32;
            break;
        }
        case PTX_SR_DYNAMIC_SMEM_SIZE: v = g->l.shared_dyn; break;
        case PTX_SR_TOTAL_SMEM_SIZE: v = g->shared_bytes; break;
        /* no shared memory is reserved for the system: the aggregate is the
        ** kernel's own, and the reserved window is empty at offset 0 */
        case PTX_SR_AGGR_SMEM_SIZE: v = g->shared_bytes; break;
        case PTX_SR_RESERVED_SMEM_OFFSET_BEGIN:
        case PTX_SR_RESERVED_SMEM_OFFSET_END:
        case PTX_SR_RESERVED_SMEM_OFFSET_CAP:
        case PTX_SR_RESERVED_SMEM_OFFSET: v = 0; break;
        /* kernels are not launched from device graphs */
        case PTX_SR_CURRENT_GRAPH_EXEC: v = 0; break;
        case PTX_SR_CLUSTERID: v = c->id[comp]; break;
        case PTX_SR_NCLUSTERID: v = gd[comp]; break;
        case PTX_SR_CLUSTER_NCTAID: v = 1; break;
        case PTX_SR_CLUSTER_NCTARANK: v = 1; break;
        case PTX_SR_ENVREG: v = comp < 3 ? g->envreg[comp] : 0; break;
        default: v = 0; break; /* %pm, cluster ranks and ids within a cluster of one */
        }
        for (int l = 0; l < 32; l++) r[l] = v;
    }
}
