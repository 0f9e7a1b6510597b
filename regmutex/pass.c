/*
** pass.c -- the RegMutex compiler pass (regmutex.h), one kernel at a time,
** over the lowered and allocated code (ptx_lower):
**
** 1. Live registers.  need(pc) = the 32-bit registers live across pc (its
**    live-out and its definitions, or its live-in if more), PTX_LIVE_ALLOC
**    view: the seed's profile of live registers against instructions.
** 2. Regions for a candidate |Bs|.  X = the pcs with need > |Bs|.  Short gaps
**    are filled so a warp does not release and re-acquire around a few
**    instructions: within a block, runs of X fewer than RM_GAP pcs apart
**    merge; a block's head (tail) joins when all its predecessors end
**    (successors start) in the region and it is short; a whole block joins
**    when all its predecessors end and all its successors start in it.
**    Nothing joins across a CTA barrier; a candidate whose X holds a barrier
**    is refused (|Bs| must cover the registers live at every barrier: a warp
**    holding a section at a barrier could wait for warps that wait for its
**    section).  Acquire before every region pc entered from outside (or the
**    kernel's first pc), release before every pc outside entered from the
**    region.  HELD (the pcs where every path has acquired and not released
**    since) is computed by a must-dataflow over those marks; it covers X.
** 3. Which |Bs|.  For a block of B threads (the kernel's .reqntid/.maxntid,
**    else regmutex.block_threads), W warps per CTA: without RegMutex n0 =
**    CTAs per SM the register file, warps and CTA slots allow with |Rt|
**    registers per thread.  With |Bs| and n > n0 CTAs: the pool is what n
**    base sets leave, SRP = RF - n x W x align32(|Bs| + reserve), in
**    sections of |Es| x 32 registers, |Es| = max need - |Bs| (the seed's
**    budget |Rt| x W = |Bs| x W' + SRP).  A fraction f of the executed
**    instructions (static, each weighted 8^loop depth) lies in regions; S
**    sections keep about S / f warps going, so a choice is worth
**        min(n x W, S / f)   warps,
**    which must beat n0 x W.  The best (|Bs|, n) wins; ties go to the larger
**    |Bs| (fewer, shorter regions).  So |Bs| is as small as raises the most
**    useful occupancy: a small |Bs| frees registers for more warps but
**    lengthens the regions and shrinks the pool, and the pool throttles.
** 4. Compaction.  Rows live or defined at a pc outside HELD must sit below
**    |Bs|: the allocation is colored again with that bound
**    (ptx_ra_color_bounded), those rows first; the others may use
**    registers up to |Bs| + |Es|.  |Es| is then what the coloring used
**    beyond |Bs|.  If the bounded coloring fails, the candidate is dropped
**    and the next best tried.
** The pass gives up on kernels that call functions (a callee's registers
** would need the section too), that have nothing to gain (not limited by
** registers, or no candidate beats the baseline), or whose compaction never
** fits.
*/
#include "regmutex.h"
#include "options.h"
#include "../base/vec.h"
#include <stdio.h>
#include <stdlib.h>

enum {
    RM_GAP = 12,       /* X runs closer than this (pcs) merge into one region */
    RM_MAX_DEPTH = 4,  /* loop depths beyond count as this */
};
/* A choice must keep this much more warps going than the baseline: below,
** the pool's contention is likely to eat the gain. */
#define RM_MIN_GAIN 1.05

void rm_cfg_from_opts(rm_cfg *c, const tp_opts *o)
{
    c->regs_per_sm = (uint32_t)tp_opt_i(o, OPT_DEVICE_REGS_PER_SM);
    c->max_warps = (uint32_t)tp_opt_i(o, OPT_DEVICE_MAX_THREADS_PER_SM) / 32;
    c->max_ctas = (uint32_t)tp_opt_i(o, OPT_DEVICE_MAX_CTAS_PER_SM);
    c->alloc_unit = (uint32_t)tp_opt_i(o, OPT_DEVICE_REG_ALLOC_UNIT);
    bool rs = o->n >= RS_OPT_COUNT;
    c->block_threads = rs ? (uint32_t)tp_opt_i(o, RS_OPT_REGMUTEX_BLOCK_THREADS) : 256;
    c->model = rs ? tp_opt_i(o, RS_OPT_REGMUTEX_MODEL) != 0 : true;
    c->mem_latency = rs ? (uint32_t)tp_opt_i(o, RS_OPT_REGMUTEX_MEM_LATENCY) : 292;
    c->mshrs = rs ? (uint32_t)tp_opt_i(o, RS_OPT_REGMUTEX_MSHRS) : 32;
    c->issue = rs ? (uint32_t)tp_opt_i(o, RS_OPT_REGMUTEX_ISSUE) : 2;
}

void rm_report_free(rm_report *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        free(r->k[i].live);
        free(r->k[i].weight);
    }
    free(r->k);
    memset(r, 0, sizeof *r);
}

/* ---- one kernel's facts ------------------------------------------------------------- */

typedef struct kx {
    ptx_module *m;
    ptx_func *g;
    uint32_t s, n, nb, words;
    ptx_live lv;
    uint8_t *u;            /* per row: units */
    uint32_t *need;        /* per insn */
    uint8_t *barrier;      /* per insn: a CTA barrier */
    uint32_t *bof;         /* block of each insn */
    uint32_t *soff, *succ; /* successor blocks */
    double *w, wsum;       /* per insn: 8^loop depth */
    uint32_t maxneed;
} kx;

static uint32_t set_units(const kx *K, const uint64_t *set)
{
    uint32_t u = 0;
    for (uint32_t k = 0; k < K->words; k++)
        for (uint64_t x = set[k]; x; x &= x - 1) u += K->u[k * 64 + (uint32_t)__builtin_ctzll(x)];
    return u;
}

static const uint64_t *live_in(const kx *K, uint32_t i) { return K->lv.in + (size_t)i * K->lv.words; }

/* live-out of insn i into out */
static void live_out(const kx *K, uint32_t i, uint64_t *out)
{
    const ptx_block *bl = &K->g->blocks[K->bof[i]];
    if (K->s + i + 1 < bl->end) {
        memcpy(out, live_in(K, i + 1), K->words * sizeof *out);
        return;
    }
    memset(out, 0, K->words * sizeof *out);
    uint32_t b = K->bof[i];
    for (uint32_t j = K->soff[b]; j < K->soff[b + 1]; j++) {
        const uint64_t *si = live_in(K, K->g->blocks[K->succ[j]].start - K->s);
        for (uint32_t k = 0; k < K->words; k++) out[k] |= si[k];
    }
}

/* the rows insn i defines (registers only), into set */
static void defs_of(const kx *K, uint32_t i, uint64_t *set)
{
    ptx_regocc oc[256];
    uint32_t k = ptx_insn_regs(K->m, K->g, &K->m->insns[K->s + i], 0, oc, TP_ARRAY_LEN(oc));
    if (k > TP_ARRAY_LEN(oc)) k = TP_ARRAY_LEN(oc);
    for (uint32_t j = 0; j < k; j++)
        if (oc[j].kind == PTX_RO_DEF && oc[j].row < K->g->nrows && K->g->ra_map[oc[j].row] >= 0)
            set[oc[j].row / 64] |= 1ull << (oc[j].row % 64);
}

static bool is_barrier(const ptx_insn *in)
{
    return (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && in->m.sub != PTX_SUB_WARPSYNC;
}

/* Loop depth of each block: natural loops of back edges (t -> h, h dominates t). */
static void loop_depths(kx *K, uint8_t *depth)
{
    uint32_t nb = K->nb;
    /* reverse postorder */
    uint32_t *rpo = tp_malloc((nb + 1) * sizeof *rpo), *num = tp_malloc((nb + 1) * sizeof *num);
    uint32_t *stk = tp_malloc((nb + 1) * sizeof *stk), *it = tp_malloc((nb + 1) * sizeof *it), sp = 0, np = 0;
    uint8_t *seen = tp_calloc(nb + 1, 1);
    for (uint32_t b = 0; b < nb; b++) num[b] = UINT32_MAX;
    stk[sp++] = 0;
    seen[0] = 1;
    it[0] = K->soff[0];
    uint32_t *post = tp_malloc((nb + 1) * sizeof *post);
    while (sp) {
        uint32_t b = stk[sp - 1];
        if (it[b] < K->soff[b + 1]) {
            uint32_t s = K->succ[it[b]++];
            if (!seen[s]) {
                seen[s] = 1;
                it[s] = K->soff[s];
                stk[sp++] = s;
            }
        } else {
            sp--;
            post[np++] = b;
        }
    }
    for (uint32_t k = 0; k < np; k++) {
        rpo[k] = post[np - 1 - k];
        num[rpo[k]] = k;
    }
    /* immediate dominators (Cooper, Harvey, Kennedy), over reachable blocks */
    uint32_t *idom = tp_malloc((nb + 1) * sizeof *idom);
    for (uint32_t b = 0; b < nb; b++) idom[b] = UINT32_MAX;
    idom[0] = 0;
    for (bool ch = true; ch;) {
        ch = false;
        for (uint32_t k = 1; k < np; k++) {
            uint32_t b = rpo[k], nd = UINT32_MAX;
            const ptx_block *bl = &K->g->blocks[b];
            for (uint32_t j = 0; j < bl->npreds; j++) {
                uint32_t p = bl->preds[j];
                if (p >= nb || idom[p] == UINT32_MAX) continue;
                if (nd == UINT32_MAX) {
                    nd = p;
                    continue;
                }
                uint32_t a = p, c = nd;
                while (a != c) {
                    while (num[a] > num[c]) a = idom[a];
                    while (num[c] > num[a]) c = idom[c];
                }
                nd = a;
            }
            if (nd != UINT32_MAX && idom[b] != nd) {
                idom[b] = nd;
                ch = true;
            }
        }
    }
    memset(depth, 0, nb);
    uint8_t *in = tp_calloc(nb + 1, 1);
    for (uint32_t t = 0; t < nb; t++) {
        if (num[t] == UINT32_MAX) continue;
        for (uint32_t j = K->soff[t]; j < K->soff[t + 1]; j++) {
            uint32_t h = K->succ[j], d = t;
            while (d != h && d != 0) d = idom[d];
            if (d != h) continue; /* not a back edge */
            /* the natural loop: h and what reaches t backwards without h */
            memset(in, 0, nb);
            in[h] = 1;
            sp = 0;
            if (!in[t]) in[t] = 1, stk[sp++] = t;
            while (sp) {
                uint32_t b = stk[--sp];
                const ptx_block *bl = &K->g->blocks[b];
                for (uint32_t q = 0; q < bl->npreds; q++) {
                    uint32_t p = bl->preds[q];
                    if (p < nb && !in[p] && num[p] != UINT32_MAX) in[p] = 1, stk[sp++] = p;
                }
            }
            for (uint32_t b = 0; b < nb; b++)
                if (in[b] && depth[b] < 255) depth[b]++;
        }
    }
    free(in);
    free(idom);
    free(post);
    free(seen);
    free(it);
    free(stk);
    free(num);
    free(rpo);
}

static bool kx_build(kx *K, ptx_module *m, ptx_func *g, tp_err *e)
{
    memset(K, 0, sizeof *K);
    K->m = m;
    K->g = g;
    K->s = g->start;
    K->n = g->end - g->start;
    K->nb = g->nblocks;
    if (!ptx_liveness(m, g, PTX_LIVE_ALLOC, &K->lv, e)) return false;
    K->words = K->lv.words;
    K->u = tp_calloc(g->nrows + 1, 1);
    for (uint32_t r = 0; r < g->nrows; r++) K->u[r] = (uint8_t)ptx_row_units(g, r);
    K->bof = tp_malloc((K->n + 1) * sizeof *K->bof);
    for (uint32_t b = 0; b < K->nb; b++)
        for (uint32_t pc = g->blocks[b].start; pc < g->blocks[b].end; pc++) K->bof[pc - K->s] = b;
    K->soff = tp_calloc(K->nb + 2, sizeof *K->soff);
    uint32_t ne = 0;
    for (uint32_t b = 0; b < K->nb; b++)
        for (uint32_t j = 0; j < g->blocks[b].npreds; j++)
            if (g->blocks[b].preds[j] < K->nb) K->soff[g->blocks[b].preds[j] + 1]++, ne++;
    for (uint32_t b = 0; b < K->nb; b++) K->soff[b + 1] += K->soff[b];
    K->succ = tp_malloc((ne + 1) * sizeof *K->succ);
    uint32_t *fill = tp_malloc((K->nb + 1) * sizeof *fill);
    memcpy(fill, K->soff, (K->nb + 1) * sizeof *fill);
    for (uint32_t b = 0; b < K->nb; b++)
        for (uint32_t j = 0; j < g->blocks[b].npreds; j++) {
            uint32_t p = g->blocks[b].preds[j];
            if (p < K->nb) K->succ[fill[p]++] = b;
        }
    free(fill);
    K->need = tp_calloc(K->n + 1, sizeof *K->need);
    K->barrier = tp_calloc(K->n + 1, 1);
    uint64_t *out = tp_calloc(K->words + 1, sizeof *out);
    for (uint32_t i = 0; i < K->n; i++) {
        live_out(K, i, out);
        defs_of(K, i, out);
        uint32_t a = set_units(K, out), b = K->lv.units[i];
        K->need[i] = a > b ? a : b;
        if (K->need[i] > K->maxneed) K->maxneed = K->need[i];
        K->barrier[i] = is_barrier(&m->insns[K->s + i]);
    }
    free(out);
    uint8_t *depth = tp_calloc(K->nb + 1, 1);
    loop_depths(K, depth);
    K->w = tp_malloc((K->n + 1) * sizeof *K->w);
    for (uint32_t i = 0; i < K->n; i++) {
        uint32_t d = depth[K->bof[i]] < RM_MAX_DEPTH ? depth[K->bof[i]] : RM_MAX_DEPTH;
        double w = 1;
        for (uint32_t k = 0; k < d; k++) w *= 8;
        K->w[i] = w;
        K->wsum += w;
    }
    free(depth);
    return true;
}

static void kx_free(kx *K)
{
    ptx_live_free(&K->lv);
    free(K->u);
    free(K->need);
    free(K->barrier);
    free(K->bof);
    free(K->soff);
    free(K->succ);
    free(K->w);
}

/* ---- regions for a candidate |Bs| ------------------------------------------------- */

static uint32_t bfirst(const kx *K, uint32_t b) { return K->g->blocks[b].start - K->s; }
static uint32_t blast(const kx *K, uint32_t b) { return K->g->blocks[b].end - 1 - K->s; }

/* The region pcs for base set bs into inC; false when a barrier needs more than bs. */
static bool regions(const kx *K, uint32_t bs, uint8_t *inC)
{
    for (uint32_t i = 0; i < K->n; i++) {
        inC[i] = K->need[i] > bs;
        if (inC[i] && K->barrier[i]) return false;
    }
    /* gaps inside blocks */
    for (uint32_t b = 0; b < K->nb; b++) {
        int32_t last = -1;
        for (uint32_t i = bfirst(K, b); i <= blast(K, b); i++) {
            if (!inC[i]) continue;
            if (last >= 0 && i - (uint32_t)last > 1 && i - (uint32_t)last <= RM_GAP) {
                bool bar = false;
                for (uint32_t j = (uint32_t)last + 1; j < i; j++) bar |= K->barrier[j];
                if (!bar)
                    for (uint32_t j = (uint32_t)last + 1; j < i; j++) inC[j] = 1;
            }
            last = (int32_t)i;
        }
    }
    /* heads, tails and whole blocks between region parts */
    for (bool ch = true; ch;) {
        ch = false;
        for (uint32_t b = 0; b < K->nb; b++) {
            uint32_t f = bfirst(K, b), l = blast(K, b);
            const ptx_block *bl = &K->g->blocks[b];
            bool preds_in = bl->npreds > 0 && b != 0, succs_in = K->soff[b + 1] > K->soff[b];
            for (uint32_t j = 0; j < bl->npreds && preds_in; j++)
                preds_in = bl->preds[j] < K->nb && inC[blast(K, bl->preds[j])];
            for (uint32_t j = K->soff[b]; j < K->soff[b + 1] && succs_in; j++) succs_in = inC[bfirst(K, K->succ[j])];
            /* the first and last region pcs of the block */
            int32_t fc = -1, lc = -1;
            bool bar = false;
            for (uint32_t i = f; i <= l; i++) {
                if (inC[i]) {
                    if (fc < 0) fc = (int32_t)i;
                    lc = (int32_t)i;
                }
                bar |= K->barrier[i];
            }
            if (fc < 0) {
                if (preds_in && succs_in && !bar) {
                    for (uint32_t i = f; i <= l; i++) inC[i] = 1;
                    ch = true;
                }
                continue;
            }
            if (preds_in && (uint32_t)fc > f && (uint32_t)fc - f <= RM_GAP) {
                bool hb = false;
                for (uint32_t i = f; i < (uint32_t)fc; i++) hb |= K->barrier[i];
                if (!hb) {
                    for (uint32_t i = f; i < (uint32_t)fc; i++) inC[i] = 1;
                    ch = true;
                }
            }
            if (succs_in && (uint32_t)lc < l && l - (uint32_t)lc <= RM_GAP) {
                bool tb = false;
                for (uint32_t i = (uint32_t)lc + 1; i <= l; i++) tb |= K->barrier[i];
                if (!tb) {
                    for (uint32_t i = (uint32_t)lc + 1; i <= l; i++) inC[i] = 1;
                    ch = true;
                }
            }
        }
    }
    return true;
}

/* Acquire and release marks from the region, then HELD; false if HELD holds a
** barrier (cannot happen with regions() above, kept as the invariant). */
static bool marks(const kx *K, const uint8_t *inC, uint8_t *at, uint32_t *nacq, uint32_t *nrel)
{
    *nacq = *nrel = 0;
    memset(at, 0, K->n);
    for (uint32_t i = 0; i < K->n; i++) {
        uint32_t b = K->bof[i];
        bool from_in = false, from_out = false;
        if (i == bfirst(K, b)) {
            const ptx_block *bl = &K->g->blocks[b];
            if (b == 0) from_out = true;
            for (uint32_t j = 0; j < bl->npreds; j++) {
                uint32_t p = bl->preds[j];
                if (p >= K->nb) continue;
                if (inC[blast(K, p)]) from_in = true;
                else from_out = true;
            }
        } else {
            from_in = inC[i - 1];
            from_out = !inC[i - 1];
        }
        if (inC[i] && from_out) at[i] |= PTX_RS_ACQUIRE, (*nacq)++;
        if (!inC[i] && from_in) at[i] |= PTX_RS_RELEASE, (*nrel)++;
    }
    /* HELD: must-held before each pc runs */
    uint8_t *h = tp_malloc(K->n + 1);
    memset(h, 1, K->n);
    for (bool ch = true; ch;) {
        ch = false;
        for (uint32_t i = 0; i < K->n; i++) {
            uint8_t v;
            if (at[i] & PTX_RS_ACQUIRE) v = 1;
            else if (at[i] & PTX_RS_RELEASE) v = 0;
            else {
                uint32_t b = K->bof[i];
                if (i != bfirst(K, b)) v = h[i - 1];
                else if (b == 0) v = 0;
                else {
                    v = 1;
                    const ptx_block *bl = &K->g->blocks[b];
                    for (uint32_t j = 0; j < bl->npreds; j++)
                        if (bl->preds[j] < K->nb && !h[blast(K, bl->preds[j])]) v = 0;
                    if (!bl->npreds) v = 0;
                }
            }
            if (v != h[i]) {
                h[i] = v;
                ch = true;
            }
        }
    }
    bool ok = true;
    for (uint32_t i = 0; i < K->n; i++) {
        if (h[i]) at[i] |= PTX_RS_HELD;
        if (h[i] && K->barrier[i]) ok = false;
        if (inC[i] && !h[i]) ok = false;
    }
    free(h);
    return ok;
}

/* ---- occupancy ----------------------------------------------------------------------- */

static uint64_t regs_cta(const rm_cfg *c, uint32_t regs, uint32_t wpc)
{
    uint64_t per_warp = (uint64_t)regs * 32, u = c->alloc_unit ? c->alloc_unit : 1;
    per_warp = (per_warp + u - 1) / u * u;
    return per_warp * wpc;
}

static uint32_t ctas_by_limits(const rm_cfg *c, uint32_t wpc)
{
    uint32_t n = c->max_warps / wpc;
    return n < c->max_ctas ? n : c->max_ctas;
}

/* ---- the cost model --------------------------------------------------------------------
** Whether more warps can help at all: a static model of one warp running the
** kernel, in the manner of Hong and Kim's MWP/CWP model (ISCA 2009).
**
** Addresses.  Each register row gets an abstract value: affine in %tid.x with
** a known coefficient (bytes per thread for an address), or varying (data-
** dependent: a load's result from a per-thread address, a product with a
** run-time value, anything else).  %tid.x and %laneid are 1, other special
** registers, parameters, symbols and immediates 0 (%tid.y and %tid.z count as
** uniform: the warps of the kernels planned for are rows of %tid.x); add and
** sub add coefficients, mul/mad/shl by an immediate scale them, a load from a
** uniform address is uniform.  Rows defined several times meet (one
** coefficient, else varying).  A global (local, generic) memory instruction
** of s bytes per thread touches min(32, ceil((31 |c| + s) / 128)) lines for
** coefficient c, 32 when its address varies (a gather).
** Time.  In program order, one instruction per cycle, each waits for its
** sources: an arithmetic result after RM_LAT_ALU cycles, SFU RM_LAT_SFU,
** shared memory RM_LAT_SHARED, a global load regmutex.mem_latency (its miss);
** t_warp = the cycles of each block, weighted 8^loop depth, summed; mem_wait
** the part spent waiting for global loads.  The SM's resources per warp
** instruction: issue 1 / regmutex.issue cycles, the SFU RM_SFU_CYCLES, the
** L1 one line per cycle; c_warp = the busiest one's weighted sum.
** Warps.  N warps issue at most N / t_warp passes per cycle and the SM at
** most 1 / c_warp: w_sat = t_warp / c_warp warps fill the SM.  Each warp
** waits for memory mem_wait / t_warp of its time with `lines` lines in
** flight (weighted over its global loads); the L1 holds regmutex.mshrs:
** w_mem = mshrs / (lines x mem_wait / t_warp) warps keep them full.  More
** warps than min(w_sat, w_mem) add nothing but contention (the cache's lines
** shared by more warps, more misses per MSHR): the warps a choice is worth
** are capped there, and so are the baseline's. */
enum {
    RM_LAT_ALU = 6,     /* a dependent arithmetic chain: lat.fp_mad 5 + 1 (gtx480, docs/VALIDATION.md) */
    RM_LAT_SFU = 21,    /* lat.sfu 20 + 1 (gtx480) */
    RM_LAT_SHARED = 27, /* shmem.latency 26 + 1 (gtx480) */
    RM_SFU_CYCLES = 8,  /* ii.sfu: a warp instruction over the GTX 480's 4 SFU lanes per SM (GF100 whitepaper) */
};

typedef struct mval {
    uint8_t k;      /* 0 undefined, 1 known shape, 2 varying */
    bool uk;        /* the uniform part u is known */
    int64_t u;
    int64_t o[32];  /* per lane of the warp: offset */
    int64_t q[32];  /* per lane: multiple of the unknown stride S */
} mval;

static const mval MV_VARY = {2, false, 0, {0}, {0}};
static const mval MV_UNDEF = {0, false, 0, {0}, {0}};

static mval mv_uniform(bool uk, int64_t u)
{
    mval x = MV_UNDEF;
    x.k = 1, x.uk = uk, x.u = u;
    return x;
}
static bool mv_flat(const mval *a, const int64_t *d)
{
    for (int l = 0; l < 32; l++)
        if (d[l] != d[0]) return false;
    (void)a;
    return true;
}
static bool mv_isuni(const mval *a) { return a->k == 1 && mv_flat(a, a->o) && mv_flat(a, a->q) && !a->o[0] && !a->q[0]; }

static mval mv_meet(const mval *a, const mval *b)
{
    if (!a->k) return *b;
    if (!b->k) return *a;
    if (a->k == 2 || b->k == 2) return MV_VARY;
    if (memcmp(a->o, b->o, sizeof a->o) || memcmp(a->q, b->q, sizeof a->q)) return MV_VARY;
    mval x = *a;
    if (!(a->uk && b->uk && a->u == b->u)) x.uk = false;
    return x;
}

static bool is_global_mem(const ptx_insn *in)
{
    if (ptx_ops[in->op].unit == PTX_UNIT_TEX) return true;
    if (ptx_ops[in->op].unit != PTX_UNIT_MEM || !(ptx_ops[in->op].flags & (PTX_F_LOAD | PTX_F_STORE))) return false;
    return in->m.space == PTX_SP_GLOBAL || in->m.space == PTX_SP_LOCAL || in->m.space == PTX_SP_GENERIC;
}

/* the value of operand k of in */
static mval mv_opnd(const mval *v, const ptx_insn *in, uint32_t k)
{
    const ptx_opnd *o = &in->o[k];
    switch (o->kind) {
    case PTX_OK_REG: return v[o->r];
    case PTX_OK_SREG:
        if ((o->r == PTX_SR_TID && o->imm == 0) || o->r == PTX_SR_LANEID) {
            mval x = mv_uniform(true, 0); /* a warp of %tid.x 0..31 (the offsets repeat for the others) */
            for (int l = 0; l < 32; l++) x.o[l] = l;
            return x;
        }
        return mv_uniform(false, 0);
    case PTX_OK_IMM: return mv_uniform(true, o->imm);
    case PTX_OK_SYM: return mv_uniform(false, 0);
    default: return MV_VARY;
    }
}

/* the address operand's value (a register base; a symbol is uniform) */
static mval mv_addr(const mval *v, const ptx_insn *in)
{
    for (uint32_t k = 0; k < in->nopnd; k++)
        if (in->o[k].kind == PTX_OK_ADDR) return in->o[k].base == PTX_AB_REG ? v[in->o[k].r] : mv_uniform(false, 0);
    return MV_VARY;
}

static mval mv_add(const mval *a, const mval *b, int sign)
{
    mval x = *a;
    x.uk = a->uk && b->uk;
    x.u = a->u + sign * b->u;
    for (int l = 0; l < 32; l++) x.o[l] = a->o[l] + sign * b->o[l], x.q[l] = a->q[l] + sign * b->q[l];
    return x;
}

static mval mv_mul(const mval *a, const mval *b)
{
    if (a->k == 2 || b->k == 2) return MV_VARY;
    bool au = mv_isuni(a), bu = mv_isuni(b);
    if (au && bu) return mv_uniform(a->uk && b->uk, a->u * b->u);
    if (bu && b->uk) { /* times a known constant */
        mval x = *a;
        x.u *= b->u;
        for (int l = 0; l < 32; l++) x.o[l] *= b->u, x.q[l] *= b->u;
        return x;
    }
    if (au && a->uk) return mv_mul(b, a);
    /* (u + o) x S with S an unknown uniform: the offsets become multiples of S */
    const mval *n = bu ? a : b;
    if (!(au || bu) || !mv_flat(n, n->q) || n->q[0]) return MV_VARY;
    mval x = mv_uniform(false, 0);
    for (int l = 0; l < 32; l++) x.q[l] = n->o[l];
    return x;
}

/* rem, div, and, shr by a known constant of a fully known value */
static mval mv_concrete(const ptx_insn *in, const mval *a, const mval *b)
{
    if (mv_isuni(a) && mv_isuni(b)) return mv_uniform(a->uk && b->uk, 0);
    /* an unknown uniform part counts as 0: the warp's first lane aligned to the divisor */
    if (!(a->k == 1 && mv_flat(a, a->q) && !a->q[0] && mv_isuni(b) && b->uk)) return MV_VARY;
    int64_t k = b->u;
    mval x = mv_uniform(a->uk, 0);
    for (int l = 0; l < 32; l++) {
        int64_t y = (a->uk ? a->u : 0) + a->o[l];
        switch (in->op) {
        case PTX_OP_REM: if (!k) return MV_VARY; y %= k; break;
        case PTX_OP_DIV: if (!k) return MV_VARY; y /= k; break;
        case PTX_OP_AND: y &= k; break;
        case PTX_OP_SHR: if (k < 0 || k > 62) return MV_VARY; y >>= k; break;
        default: return MV_VARY;
        }
        x.o[l] = y;
    }
    return x;
}

static mval mv_insn(const mval *v, const ptx_insn *in)
{
    uint32_t s = in->ndst, n = in->nopnd;
    uint32_t fl = ptx_ops[in->op].flags;
    if (fl & PTX_F_LOAD) {
        if (in->m.space == PTX_SP_PARAM || in->m.space == PTX_SP_PARAM_ENTRY || in->m.space == PTX_SP_CONST)
            return mv_uniform(false, 0);
        mval a = mv_addr(v, in);
        if (!a.k) return MV_UNDEF;
        return mv_isuni(&a) ? mv_uniform(false, 0) : MV_VARY;
    }
    mval a = s < n ? mv_opnd(v, in, s) : mv_uniform(false, 0), b = s + 1 < n ? mv_opnd(v, in, s + 1) : mv_uniform(false, 0);
    if (!a.k || !b.k) return MV_UNDEF;
    if (a.k == 2 && in->op != PTX_OP_SELP && in->op != PTX_OP_MIN && in->op != PTX_OP_MAX) return MV_VARY;
    switch (in->op) {
    case PTX_OP_MOV: case PTX_OP_CVT: case PTX_OP_CVTA: return a;
    case PTX_OP_ADD: case PTX_OP_SUB: return b.k == 2 ? MV_VARY : mv_add(&a, &b, in->op == PTX_OP_ADD ? 1 : -1);
    case PTX_OP_MUL: case PTX_OP_MUL24: return mv_mul(&a, &b);
    case PTX_OP_MAD: case PTX_OP_MAD24: {
        mval p = mv_mul(&a, &b), c = s + 2 < n ? mv_opnd(v, in, s + 2) : mv_uniform(false, 0);
        if (!c.k) return MV_UNDEF;
        return p.k == 2 || c.k == 2 ? MV_VARY : mv_add(&p, &c, 1);
    }
    case PTX_OP_SHL:
        if (b.k == 1 && mv_isuni(&b) && b.uk && b.u >= 0 && b.u < 32) {
            mval m2 = mv_uniform(true, (int64_t)1 << b.u);
            return mv_mul(&a, &m2);
        }
        return mv_isuni(&a) && mv_isuni(&b) ? mv_uniform(false, 0) : MV_VARY;
    case PTX_OP_REM: case PTX_OP_DIV: case PTX_OP_AND: case PTX_OP_SHR: return mv_concrete(in, &a, &b);
    case PTX_OP_BFI: {
        /* a uniform field a inserted at a constant position above b's known low bits: b's offsets plus a uniform */
        mval c = s + 2 < n ? mv_opnd(v, in, s + 2) : MV_VARY;
        if (!c.k) return MV_UNDEF;
        if (!(mv_isuni(&a) && c.k == 1 && mv_isuni(&c) && c.uk && c.u >= 0 && c.u < 63 && b.k == 1 && b.uk &&
              mv_flat(&b, b.q) && !b.q[0]))
            return mv_isuni(&a) && mv_isuni(&b) ? mv_uniform(false, 0) : MV_VARY;
        mval x = mv_uniform(false, 0);
        for (int l = 0; l < 32; l++) {
            int64_t y = b.u + b.o[l];
            if (y < 0 || y >= ((int64_t)1 << c.u)) return MV_VARY;
            x.o[l] = y;
        }
        return x;
    }
    case PTX_OP_SELP: case PTX_OP_MIN: case PTX_OP_MAX:
        /* a clamp or a choice at the edges: the operand that varies more
        ** stands for the warp (most lanes take it) */
        if (a.k == 2 || b.k == 2) return MV_VARY;
        return mv_isuni(&a) ? b : a;
    default:
        for (uint32_t k = s; k < n; k++) {
            mval x = mv_opnd(v, in, k);
            if (!x.k) return MV_UNDEF;
            if (!mv_isuni(&x)) return MV_VARY;
        }
        return mv_uniform(false, 0);
    }
}

/* lines one warp instruction of in touches, from its address's value: the
** lanes grouped by their multiple of the unknown stride (taken as at least
** a line), the distinct lines of each group's offsets */
static double mv_lines(const mval *v, const ptx_insn *in)
{
    mval a = mv_addr(v, in);
    if (a.k != 1) return 32;
    int64_t sz = (int64_t)ptx_type_size((ptx_type)in->type) * (in->m.vec ? in->m.vec : 1);
    if (sz <= 0) sz = 4;
    if (in->m.space == PTX_SP_LOCAL) /* local memory interleaves the threads' words */
        for (int l = 0; l < 32; l++) a.o[l] = l * sz, a.q[l] = 0;
    int64_t seen[64][2];
    uint32_t n = 0;
    for (int l = 0; l < 32; l++) {
        int64_t lo = a.o[l] >> 7, hi = (a.o[l] + sz - 1) >> 7;
        for (int64_t ln = lo; ln <= hi && n < 64; ln++) {
            bool dup = false;
            for (uint32_t j = 0; j < n && !dup; j++) dup = seen[j][0] == a.q[l] && seen[j][1] == ln;
            if (!dup) seen[n][0] = a.q[l], seen[n][1] = ln, n++;
        }
    }
    return n < 32 ? n : 32;
}

static void model(const kx *K, const rm_cfg *c, rm_kernel *rk)
{
    ptx_module *m = K->m;
    const ptx_func *g = K->g;
    uint32_t nr = g->nrows;
    mval *v = tp_calloc(nr + 1, sizeof *v);
    ptx_regocc oc[256];
    for (int it = 0, ch = 1; ch && it < 16; it++) {
        ch = 0;
        for (uint32_t i = 0; i < K->n; i++) {
            const ptx_insn *in = &m->insns[K->s + i];
            uint32_t k = ptx_insn_regs(m, g, in, 0, oc, TP_ARRAY_LEN(oc));
            if (k > TP_ARRAY_LEN(oc)) k = TP_ARRAY_LEN(oc);
            mval x = MV_UNDEF;
            bool any = false;
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind == PTX_RO_DEF && oc[j].row < nr) {
                    if (!any) x = mv_insn(v, in), any = true;
                    if (!x.k) break;
                    mval y = mv_meet(&v[oc[j].row], &x);
                    if (memcmp(&y, &v[oc[j].row], sizeof y)) v[oc[j].row] = y, ch = 1;
                }
        }
    }
    for (uint32_t r = 0; r < nr; r++)
        if (!v[r].k) v[r] = mv_uniform(false, 0); /* never defined from anything known: uniform */
    /* the warp alone, in program order */
    double *ready = tp_calloc(nr + 1, sizeof *ready);
    uint8_t *frommem = tp_calloc(nr + 1, 1);
    double t = 0, twarp = 0, wait = 0, issue = 0, sfu = 0, ldst = 0, lsum = 0, lw = 0;
    for (uint32_t b = 0; b < K->nb; b++) {
        const ptx_block *bl = &g->blocks[b];
        if (bl->end <= bl->start) continue;
        double t0 = t, wmem = 0, w = K->w[bl->start - K->s];
        for (uint32_t pc = bl->start; pc < bl->end; pc++) {
            const ptx_insn *in = &m->insns[pc];
            uint32_t k = ptx_insn_regs(m, g, in, 0, oc, TP_ARRAY_LEN(oc));
            if (k > TP_ARRAY_LEN(oc)) k = TP_ARRAY_LEN(oc);
            double at = t + 1, memat = 0;
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind != PTX_RO_DEF && oc[j].row < nr && ready[oc[j].row] > at) {
                    at = ready[oc[j].row];
                    if (frommem[oc[j].row] && at > memat) memat = at;
                }
            if (memat >= at && memat > t + 1) wmem += memat - (t + 1);
            t = at;
            const ptx_opinfo *op = &ptx_ops[in->op];
            bool gm = is_global_mem(in);
            double lat = op->unit == PTX_UNIT_SFU ? RM_LAT_SFU
                         : gm ? c->mem_latency
                         : op->unit == PTX_UNIT_MEM ? RM_LAT_SHARED : RM_LAT_ALU;
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind == PTX_RO_DEF && oc[j].row < nr) {
                    ready[oc[j].row] = t + lat;
                    frommem[oc[j].row] = gm && (op->flags & PTX_F_LOAD);
                }
            issue += w / (c->issue ? c->issue : 1);
            if (op->unit == PTX_UNIT_SFU) sfu += w * RM_SFU_CYCLES;
            if (gm) {
                double l = mv_lines(v, in);
                ldst += w * l;
                if (op->flags & PTX_F_LOAD) lsum += w * l, lw += w;
            } else if (op->unit == PTX_UNIT_MEM)
                ldst += w;
        }
        twarp += w * (t - t0 + 1);
        wait += w * wmem;
    }
    double cw = issue > sfu ? issue : sfu;
    if (ldst > cw) cw = ldst;
    rk->modelled = true;
    rk->t_warp = twarp;
    rk->c_warp = cw;
    rk->mem_wait = twarp > 0 ? wait / twarp : 0;
    rk->lines = lw > 0 ? lsum / lw : 0;
    rk->w_sat = cw > 0 ? twarp / cw : 1e9;
    double held = rk->lines * rk->mem_wait;
    rk->w_mem = held > 0 ? c->mshrs / held : 1e9;
    free(ready);
    free(frommem);
    free(v);
}

/* The warps a choice can be worth.  Only the memory bound caps them: w_sat
** is reported but does not, because in-order issue of one warp with these
** latencies underestimates the warps a kernel needs (hotspot: w_sat 6.3, yet
** at 24 warps it issues 86% of its slots and gains 11.5% with 48; what the
** model leaves out -- barriers, bursts of warps waiting together, register
** bank and unit conflicts -- all raise it), and a kernel past w_sat loses
** nothing measurable from more warps (cp, mriq: within 0.3%). */
static double model_cap(const rm_kernel *rk) { return rk->modelled ? rk->w_mem : 1e9; }

/* ---- the kernel ---------------------------------------------------------------------- */

typedef struct cand {
    uint32_t bs, ctas, sections;
    double score, frac;
} cand;

static void kernel(ptx_module *m, ptx_func *g, const rm_cfg *c, rm_kernel *rk, tp_err *e)
{
    rk->name = g->name;
    rk->regs = g->ra_regs;
    rk->own = g->ra_own;
    rk->reserve = g->ra_regs > g->ra_own ? g->ra_regs - g->ra_own : 0;
    rk->start = g->start;
    rk->ninsns = g->end - g->start;
    const uint32_t *t = g->reqntid[0] ? g->reqntid : g->maxntid;
    uint32_t bt = t[0] ? t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1) : c->block_threads;
    if (!bt) bt = 256;
    rk->block_threads = bt;
    uint32_t wpc = (bt + 31) / 32;
    uint32_t nmax = ctas_by_limits(c, wpc);
    uint64_t rc = regs_cta(c, rk->regs, wpc);
    uint32_t n0 = rc ? (uint32_t)(c->regs_per_sm / rc) : nmax;
    if (n0 > nmax) n0 = nmax;
    rk->ctas_before = rk->ctas_after = n0;
    if (g->ra_ncalls) {
        snprintf(rk->why, sizeof rk->why, "off: the kernel calls functions");
        return;
    }
    kx K;
    if (!kx_build(&K, m, g, e)) return;
    rk->max_live = K.maxneed;
    rk->live = tp_malloc((K.n + 1) * sizeof *rk->live);
    memcpy(rk->live, K.need, K.n * sizeof *rk->live);
    rk->weight = tp_malloc((K.n + 1) * sizeof *rk->weight);
    for (uint32_t i = 0; i < K.n; i++) rk->weight[i] = K.wsum > 0 ? K.w[i] / K.wsum : 0;
    if (c->model) model(&K, c, rk);
    double cap = model_cap(rk), base_warps = (double)n0 * wpc < cap ? (double)n0 * wpc : cap;
    if (n0 >= nmax) {
        snprintf(rk->why, sizeof rk->why, "off: registers do not limit occupancy (%u CTAs of %u threads per SM)", n0,
                 bt);
        kx_free(&K);
        return;
    }
    /* candidates: for each region set (need > bs), compact with the rows
    ** live outside the regions colored first; they decide the base set */
    uint8_t *inC = tp_malloc(K.n + 1), *at = tp_malloc(K.n + 1), *best_at = tp_malloc(K.n + 1);
    uint32_t *bound = tp_malloc((g->nrows + 1) * sizeof *bound);
    uint64_t *d = tp_calloc(K.words + 1, sizeof *d);
    int32_t *orig_map = g->ra_map, *best_map = NULL;
    uint32_t orig_own = g->ra_own, best_own = 0, tried = 0;
    cand best = {0, 0, 0, -1, 1};
    uint32_t best_es = 0, best_na = 0, best_nr = 0;
    uint32_t lo = 1;
    for (uint32_t i = 0; i < K.n; i++)
        if (K.barrier[i] && K.need[i] > lo) lo = K.need[i];
    for (uint32_t bs = lo; bs < K.maxneed && !tp_err_isset(e); bs++) {
        if (!regions(&K, bs, inC)) continue;
        uint32_t na, nr;
        if (!marks(&K, inC, at, &na, &nr)) continue;
        double held = 0;
        for (uint32_t i = 0; i < K.n; i++)
            if (at[i] & PTX_RS_HELD) held += K.w[i];
        double frac = K.wsum > 0 ? held / K.wsum : 1;
        if (frac <= 0) continue;
        /* rows live or defined outside HELD: colored first */
        for (uint32_t r = 0; r < g->nrows; r++) bound[r] = UINT32_MAX;
        for (uint32_t i = 0; i < K.n; i++) {
            if (at[i] & PTX_RS_HELD) continue;
            memset(d, 0, K.words * sizeof *d);
            defs_of(&K, i, d);
            const uint64_t *li = live_in(&K, i);
            for (uint32_t w = 0; w < K.words; w++)
                for (uint64_t x = li[w] | d[w]; x; x &= x - 1) bound[w * 64 + (uint32_t)__builtin_ctzll(x)] = UINT32_MAX - 1;
        }
        uint32_t own = 0, base = 0;
        tried++;
        bool ok = ptx_ra_color_bounded(m, g, bound, &own, &base, e);
        if (!ok || !base || own <= base) continue;
        uint32_t es = own - base;
        for (uint32_t n = n0 + 1; n <= nmax; n++) {
            uint64_t used = n * regs_cta(c, base + rk->reserve, wpc);
            if (used >= c->regs_per_sm) break;
            uint64_t sec = (c->regs_per_sm - used) / ((uint64_t)es * 32);
            if (sec > (uint64_t)n * wpc) sec = (uint64_t)n * wpc;
            if (sec < 1) break;
            double warps = (double)n * wpc, eff = (double)sec / frac;
            double score = eff < warps ? eff : warps;
            if (score > cap) score = cap;
            /* the most warps kept going; nearly as many (2%) with shorter regions */
            bool better = score > best.score * 1.02 || (score >= best.score * 0.98 && frac < best.frac);
            if (!better) continue;
            best = (cand){base, n, (uint32_t)sec, score, frac};
            best_es = es;
            best_own = own;
            best_map = g->ra_map;
            best_na = na;
            best_nr = nr;
            memcpy(best_at, at, K.n);
        }
    }
    g->ra_map = orig_map;
    g->ra_own = orig_own;
    if (!tp_err_isset(e) && best_map && best.score >= base_warps * RM_MIN_GAIN) {
        ptx_rshare *rs = rs_mark(m, g, rs_policy_find("regmutex"));
        rs->base = best.bs;
        rs->ext = best_es;
        rs->base_regs = best.bs + rk->reserve;
        rs->pool_min = best.sections * best_es * 32;
        rs->at = tp_arena_alloc(&m->arena, K.n + 1);
        memcpy(rs->at, best_at, K.n);
        g->ra_map = best_map;
        g->ra_own = best_own;
        rk->on = true;
        rk->base = best.bs;
        rk->ext = best_es;
        rk->base_regs = rs->base_regs;
        rk->ctas_after = best.ctas;
        rk->sections = best.sections;
        rk->frac = best.frac;
        rk->nacquire = best_na;
        rk->nrelease = best_nr;
        snprintf(rk->why, sizeof rk->why,
                 "on: |Bs| %u raises %u to %u CTAs of %u threads per SM, %u sections of %u registers, "
                 "%.0f%% of the executed instructions in regions",
                 best.bs, n0, best.ctas, bt, best.sections, best_es, best.frac * 100);
    } else if (!tp_err_isset(e) && rk->modelled && cap < (double)n0 * wpc * RM_MIN_GAIN) {
        /* the model says the warps resident now already get what more could */
        snprintf(rk->why, sizeof rk->why,
                 "off: the model predicts a loss: memory-bound, %u warps already keep the L1's %u MSHRs full "
                 "(~%.1f warps do: %.1f lines per load, waiting %.0f%% of the time); more warps only share the cache",
                 n0 * wpc, c->mshrs, rk->w_mem, rk->lines, rk->mem_wait * 100);
    } else if (!tp_err_isset(e)) {
        snprintf(rk->why, sizeof rk->why, "off: no base set raises the warps that can run (%u CTAs per SM now; %u region sets tried)",
                 n0, tried);
    }
    free(bound);
    free(d);
    free(best_at);
    free(inC);
    free(at);
    kx_free(&K);
}

bool rm_pass(ptx_module *low, const rm_cfg *c, rm_report *rep, tp_err *e)
{
    if (rep) memset(rep, 0, sizeof *rep);
    for (uint32_t i = 0; i < low->nfuncs; i++) {
        ptx_func *g = &low->funcs[i];
        if (!g->is_entry || g->is_decl || !g->ra_map) continue;
        rm_kernel rk;
        memset(&rk, 0, sizeof rk);
        kernel(low, g, c, &rk, e);
        if (tp_err_isset(e)) {
            free(rk.live);
            free(rk.weight);
            return false;
        }
        if (rep) {
            rep->k = tp_realloc(rep->k, (rep->n + 1) * sizeof *rep->k);
            rep->k[rep->n++] = rk;
        } else {
            free(rk.live);
            free(rk.weight);
        }
    }
    return true;
}

/* ---- Owner-Warp-First (the baseline) --------------------------------------------------- */

bool rm_owf_pass(ptx_module *low, const rm_cfg *c, double share, rm_report *rep, tp_err *e)
{
    if (rep) memset(rep, 0, sizeof *rep);
    for (uint32_t fi = 0; fi < low->nfuncs; fi++) {
        ptx_func *g = &low->funcs[fi];
        if (!g->is_entry || g->is_decl || !g->ra_map) continue;
        rm_kernel rk;
        memset(&rk, 0, sizeof rk);
        rk.name = g->name;
        rk.regs = g->ra_regs;
        rk.own = g->ra_own;
        rk.reserve = g->ra_regs > g->ra_own ? g->ra_regs - g->ra_own : 0;
        rk.start = g->start;
        rk.ninsns = g->end - g->start;
        const uint32_t *t = g->reqntid[0] ? g->reqntid : g->maxntid;
        uint32_t bt = t[0] ? t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1) : c->block_threads;
        uint32_t wpc = (bt + 31) / 32, nmax = ctas_by_limits(c, wpc);
        uint64_t rc = regs_cta(c, rk.regs, wpc);
        uint32_t n0 = rc ? (uint32_t)(c->regs_per_sm / rc) : nmax;
        if (n0 > nmax) n0 = nmax;
        rk.block_threads = bt;
        rk.ctas_before = rk.ctas_after = n0;
        uint32_t ext = (uint32_t)((double)g->ra_own * share + 0.5);
        if (g->ra_ncalls) snprintf(rk.why, sizeof rk.why, "off: the kernel calls functions");
        else if (n0 >= nmax) snprintf(rk.why, sizeof rk.why, "off: registers do not limit occupancy");
        else if (!ext || ext >= g->ra_own) snprintf(rk.why, sizeof rk.why, "off: nothing to share");
        else {
            uint32_t base = g->ra_own - ext, n = g->end - g->start;
            ptx_rshare *rs = rs_mark(low, g, rs_policy_find("owf"));
            rs->base = base;
            rs->ext = ext;
            rs->base_regs = base + rk.reserve;
            rs->at = tp_arena_alloc(&low->arena, n + 1);
            memset(rs->at, 0, n + 1);
            /* every instruction that names a shared register needs the pair's part */
            ptx_regocc oc[256];
            for (uint32_t i = 0; i < n; i++) {
                uint32_t k = ptx_insn_regs(low, g, &low->insns[g->start + i], 0, oc, TP_ARRAY_LEN(oc));
                if (k > TP_ARRAY_LEN(oc)) k = TP_ARRAY_LEN(oc);
                for (uint32_t j = 0; j < k; j++) {
                    int32_t p = g->ra_map[oc[j].row];
                    if (p >= 0 && (uint32_t)p + ptx_row_units(g, oc[j].row) > base) {
                        rs->at[i] = PTX_RS_ACQUIRE | PTX_RS_HELD;
                        rk.nacquire++;
                        break;
                    }
                }
            }
            rk.on = true;
            rk.base = base;
            rk.ext = ext;
            rk.base_regs = rs->base_regs;
            /* as exec_occupancy: the number of owners that lets the most CTAs in */
            uint64_t ub = regs_cta(c, rs->base_regs, wpc), sh = (uint64_t)ext * 32 * wpc, best = 0, bow = 0;
            for (uint64_t ow = c->regs_per_sm / (ub + sh); ow > 0; ow--) {
                uint64_t extra = (c->regs_per_sm - ow * (ub + sh)) / ub, tot = ow + (extra < ow ? extra : ow);
                if (tot > best) best = tot, bow = ow;
            }
            if (best > nmax) best = nmax;
            rk.ctas_after = (uint32_t)best;
            rk.sections = (uint32_t)bow * wpc;
            snprintf(rk.why, sizeof rk.why, "owf: %u of %u registers shared, %u to %u CTAs of %u threads per SM", ext,
                     g->ra_own, n0, rk.ctas_after, bt);
        }
        if (rep) {
            rep->k = tp_realloc(rep->k, (rep->n + 1) * sizeof *rep->k);
            rep->k[rep->n++] = rk;
        }
    }
    (void)e;
    return true;
}
