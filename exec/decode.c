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

/* ---- static facts for timing models (exec_sinfo) ------------------------------ */

static bool any_f64(const ptx_insn *in)
{
    return in->type == PTX_T_F64 || in->type2 == PTX_T_F64;
}

static void sinfo_class(const ptx_insn *in, const exec_dinsn *d, exec_sinfo *si)
{
    const ptx_opinfo *oi = &ptx_ops[in->op];
    bool flt = ptx_type_is_float((ptx_type)in->type) || ptx_type_is_float((ptx_type)in->type2);
    uint8_t unit = EXEC_U_INT, lc = EXEC_L_ADD, fl = 0;
    switch (oi->unit) {
    case PTX_UNIT_ARITH:
        unit = any_f64(in) ? EXEC_U_DP : flt ? EXEC_U_FP : EXEC_U_INT;
        switch (in->op) {
        case PTX_OP_MUL: case PTX_OP_MUL24: lc = EXEC_L_MUL; break;
        case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
        case PTX_OP_DP4A: case PTX_OP_DP2A: lc = EXEC_L_MAD; break;
        case PTX_OP_DIV: case PTX_OP_REM: lc = EXEC_L_DIV; break;
        case PTX_OP_MIN: case PTX_OP_MAX: lc = EXEC_L_MAX; break;
        case PTX_OP_CVT: lc = any_f64(in) ? EXEC_L_CVT64 : EXEC_L_ADD; break;
        default: lc = EXEC_L_ADD; break;
        }
        break;
    case PTX_UNIT_INT: unit = EXEC_U_INT; break;
    case PTX_UNIT_SFU:
        if (any_f64(in)) unit = EXEC_U_DP, lc = EXEC_L_RCP64; /* rcp/sqrt/rsqrt .f64: a sequence on the FP64 pipe */
        else unit = EXEC_U_SFU, lc = EXEC_L_SFU;
        break;
    case PTX_UNIT_MEM: unit = EXEC_U_MEM; lc = EXEC_L_MEM; break;
    case PTX_UNIT_TEX: unit = EXEC_U_TEX; lc = EXEC_L_MEM; break;
    case PTX_UNIT_CTRL: unit = EXEC_U_CTRL; lc = EXEC_L_CTRL; break;
    case PTX_UNIT_SYNC: unit = EXEC_U_SYNC; lc = EXEC_L_CTRL; break;
    case PTX_UNIT_TENSOR: { /* wmma.mma, mma: costed by their multiply-accumulates */
        ptx_tform tf;
        if (!ptx_tensor_form(in, &tf)) si->macs = tf.macs;
        unit = EXEC_U_TENSOR;
        lc = (uint8_t)(EXEC_L_TC_F16 + tf.tclass);
        break;
    }
    }
    if (oi->flags & PTX_F_LOAD) fl |= EXEC_SI_LOAD;
    if (oi->flags & PTX_F_STORE) fl |= EXEC_SI_STORE;
    if (oi->flags & PTX_F_ATOMIC) fl |= EXEC_SI_ATOMIC | EXEC_SI_LOAD | EXEC_SI_STORE;
    if (oi->flags & (PTX_F_BRANCH | PTX_F_CALL | PTX_F_RET | PTX_F_EXIT) || in->op == PTX_OP_BRX) fl |= EXEC_SI_BRANCH;
    if (oi->flags & PTX_F_WARP) fl |= EXEC_SI_WARPWIDE;
    if (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) {
        if (in->m.sub == PTX_SUB_WARPSYNC) fl |= EXEC_SI_WARPWIDE;
        else fl |= EXEC_SI_BARRIER;
    }
    if (in->op == PTX_OP_MEMBAR || in->op == PTX_OP_FENCE) fl |= EXEC_SI_FENCE;
    if (in->op == PTX_OP_PREFETCH || in->op == PTX_OP_PREFETCHU) fl &= (uint8_t)~(EXEC_SI_LOAD | EXEC_SI_STORE);
    si->unit = unit;
    si->lclass = lc;
    si->flags = fl;
    if (unit == EXEC_U_MEM && (fl & (EXEC_SI_LOAD | EXEC_SI_STORE))) {
        si->space = d->space;
        unsigned vec = in->m.vec ? in->m.vec : 1;
        si->bytes = (uint16_t)(d->size * vec);
    }
}

enum { SI_MAXREGS = 40 }; /* wmma.mma: 8 + 8 + 8 + 8 registers */

static bool si_has(const exec_opreg *a, uint32_t n, exec_opreg x)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].r == x.r && a[i].kind == x.kind) return true;
    return false;
}

/* Fills m->si for every instruction of function fn, with register lists
** from ptx_insn_regs (the lists liveness uses), predicates and CC added. */
static void sinfo_func(exec_mod *m, const ptx_func *fn, exec_opreg **pool, uint32_t *npool, uint32_t *cap)
{
    ptx_regocc oc[SI_MAXREGS + 8];
    for (uint32_t pc = fn->start; pc < fn->end; pc++) {
        const ptx_insn *in = &m->ptx->insns[pc];
        exec_sinfo *si = &m->si[pc];
        sinfo_class(in, &m->d[pc], si);
        uint32_t k = ptx_insn_regs(m->ptx, fn, in, PTX_REGS_PREDS, oc, TP_ARRAY_LEN(oc));
        if (k > TP_ARRAY_LEN(oc)) {
            si->flags |= EXEC_SI_REGS_PARTIAL;
            k = TP_ARRAY_LEN(oc);
        }
        exec_opreg dst[SI_MAXREGS + 1], src[SI_MAXREGS + 2];
        uint32_t nd = 0, ns = 0;
        for (uint32_t j = 0; j < k; j++) {
            bool pred = oc[j].kind == PTX_RO_PDEF || oc[j].kind == PTX_RO_PUSE;
            bool def = oc[j].kind == PTX_RO_DEF || oc[j].kind == PTX_RO_PDEF;
            exec_opreg x = {(uint16_t)oc[j].row, pred ? EXEC_R_PRED : EXEC_R_REG,
                            pred ? 0 : (uint8_t)ptx_row_units(fn, oc[j].row)};
            if (def) {
                if (!si_has(dst, nd, x) && nd < SI_MAXREGS) dst[nd++] = x;
            } else if (!si_has(src, ns, x) && ns < SI_MAXREGS) {
                src[ns++] = x;
            }
        }
        exec_opreg cc = {0, EXEC_R_CC, 0};
        if (in->m.flags & PTX_MF_CC) dst[nd++] = cc;
        if (ptx_ops[in->op].flags & PTX_F_CARRYIN) src[ns++] = cc;
        si->ndst = (uint8_t)nd;
        si->nsrc = (uint8_t)ns;
        if (*npool + nd + ns > *cap) {
            *cap = (*cap + nd + ns) * 2;
            *pool = tp_realloc(*pool, *cap * sizeof **pool);
        }
        if (nd) memcpy(*pool + *npool, dst, nd * sizeof *dst);
        if (ns) memcpy(*pool + *npool + nd, src, ns * sizeof *src);
        si->regs = (const exec_opreg *)(uintptr_t)*npool; /* an index until the pool stops moving */
        *npool += nd + ns;
    }
}

static void sinfo_module(exec_mod *m)
{
    const ptx_module *p = m->ptx;
    m->si = tp_calloc(p->ninsns ? p->ninsns : 1, sizeof *m->si);
    exec_opreg *pool = NULL;
    uint32_t npool = 0, cap = 0;
    for (uint32_t f = 0; f < p->nfuncs; f++)
        if (!p->funcs[f].is_decl) sinfo_func(m, &p->funcs[f], &pool, &npool, &cap);
    m->siregs = pool ? pool : tp_malloc(sizeof *pool);
    for (uint32_t pc = 0; pc < p->ninsns; pc++) m->si[pc].regs = m->siregs + (uintptr_t)m->si[pc].regs;
}

const exec_sinfo *exec_mod_sinfo(const exec_mod *m, uint32_t pc)
{
    return pc < m->ptx->ninsns ? &m->si[pc] : NULL;
}

/* ---- unsupported forms fault when executed, not when loaded ---------------- */

static void h_unsupported(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    (void)m;
    const exec_mod *md = w->g->m;
    size_t pc = (size_t)(in - md->xi);
    const char *why = md->why && pc < md->ptx->ninsns ? md->why[pc] : NULL;
    if (why)
        exec_fault(w, -1, EXEC_ERR_UNSUPPORTED, "this instruction form is not supported by tpsim's functional model: %s",
                   why);
    else
        exec_fault(w, -1, EXEC_ERR_UNSUPPORTED, "this instruction form is not supported by tpsim's functional model");
}

/* exec_sinfo.alone: an instruction that reads and writes only its warp's
** registers, predicates and pc and cannot fault -- arithmetic, logic,
** conversions, warp-wide register exchanges and bra.  Not memory, barriers,
** fences, calls, returns, exit, trap, brx, nanosleep, tensor or texture
** instructions, isspacep and cvta (they ask the device's memory map), nor a
** form tpsim does not support (it faults when run). */
static uint8_t sinfo_alone(const ptx_insn *in, const exec_dinsn *d, const exec_sinfo *si)
{
    if (d->fn == h_unsupported || (si->flags & (EXEC_SI_LOAD | EXEC_SI_STORE | EXEC_SI_ATOMIC | EXEC_SI_BARRIER |
                                                EXEC_SI_FENCE | EXEC_SI_REGS_PARTIAL)))
        return 0;
    if (in->op == PTX_OP_ISSPACEP || in->op == PTX_OP_CVTA || in->op == PTX_OP_GETCTARANK) return 0;
    switch (si->unit) {
    case EXEC_U_INT: case EXEC_U_FP: case EXEC_U_DP: case EXEC_U_SFU: return 1;
    case EXEC_U_CTRL: return in->op == PTX_OP_BRA;
    default: return 0;
    }
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
        uint32_t scr = m->src ? exec_phys_frame_base(fn) : fn->nrows; /* the scratch rows */
        fi->rows = scr + 3;
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
                d->scratch[d->nsreg] = scr + d->nsreg;
                o->kind = PTX_OK_REG;
                o->r = (int32_t)(scr + d->nsreg);
                d->nsreg++;
                d->kind |= EXEC_DK_SREG;
            }
            const char *why = NULL;
            exec_fn h = NULL;
            if (in->op == PTX_OP_BRKPT || in->op == PTX_OP_PMEVENT || in->op == PTX_OP_PREFETCH ||
                in->op == PTX_OP_PREFETCHU)
                h = h_nop;
            if (!h && !why) h = exec_pick_mma(in, d, &why);
            if (!h && !why) h = exec_pick_ctrl(p, in, d, &why);
            if (!h && !why) h = exec_pick_mem(p, fn, in, d, &why);
            if (!h && !why) h = exec_pick_warp(in, d, &why);
            if (!h && !why) h = exec_pick_tex(in, d, &why);
            if (!h && !why) h = exec_pick_fp(in, d, &why);
            if (!h && !why) h = exec_pick_alu(in, d, &why);
            if (!h) {
                h = h_unsupported;
                if (why) {
                    if (!m->why) m->why = tp_calloc(p->ninsns ? p->ninsns : 1, sizeof *m->why);
                    m->why[pc] = why;
                }
            }
            d->fn = h;
            exec_mem_set_abase(fn, in, d);
        }
    }
    sinfo_module(m);
    for (uint32_t pc = 0; pc < p->ninsns; pc++) m->si[pc].alone = sinfo_alone(&p->insns[pc], &m->d[pc], &m->si[pc]);
    return !m->src || exec_phys_build(m, e);
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
        case PTX_SR_TID: {
            /* thread t = tid0 + l is (t mod bx, (t / bx) mod by, t / (bx by)): the first
            ** lane's by division, the others counting on from it */
            uint32_t x = w->tid0 % bd[0], y = w->tid0 / bd[0] % bd[1], z = w->tid0 / (bd[0] * bd[1]);
            if (comp == 0 && bd[0] - x >= 32) { /* the warp inside one row of the block */
                for (int l = 0; l < 32; l++) r[l] = x + (uint32_t)l;
                continue;
            }
            /* row by row: a 16-wide block's warp is two runs of 16 */
            for (uint32_t l = 0; l < 32;) {
                uint32_t n = bd[0] - x < 32 - l ? bd[0] - x : 32 - l;
                if (comp == 0) for (uint32_t i = 0; i < n; i++) r[l + i] = x + i;
                else for (uint32_t i = 0; i < n; i++) r[l + i] = comp == 1 ? y : z;
                l += n;
                x = 0;
                if (++y == bd[1]) y = 0, z++;
            }
            continue;
        }
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
        case PTX_SR_CLOCK: v = (uint32_t)w->x->clock; break;
        case PTX_SR_CLOCK_HI: v = (uint32_t)(w->x->clock >> 32); break;
        case PTX_SR_CLOCK64: v = w->x->clock; break;
        case PTX_SR_GLOBALTIMER:
        case PTX_SR_GLOBALTIMER_LO:
        case PTX_SR_GLOBALTIMER_HI: {
            uint64_t ns = (uint64_t)((double)w->x->clock * 1000.0 / g->clock_mhz);
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
