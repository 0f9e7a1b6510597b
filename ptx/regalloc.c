/*
** regalloc.c -- physical register allocation for PTX functions, and the
** register count ptxas would report.
**
** The allocator colors an interference graph.  Nodes are rows (a b128 is
** its first row), in the PTX_LIVE_ALLOC view of live.c.  Two rows interfere
** when one is defined (by an instruction that writes it, guarded or not)
** while the other is live after that instruction, when both are defined by
** one instruction, when both are re-created for one instruction ("points",
** which also interfere with everything live into it), and when both are live
** into the entry block or into a block that the entry cannot reach (their
** values are undefined there, so nothing else separates them).  With these
** edges any two rows live at the same point of reachable code interfere,
** which is what ptx_regalloc_check verifies.
**
** Coloring is greedy: rows in the order of their first appearance along a
** reverse postorder of the blocks (rows live into the entry first), each
** taking the lowest register, aligned to its width (2 for 64-bit rows, 4
** for b128), that no already-colored neighbour holds -- except that a
** load's 32-bit value takes the upper register of its 64-bit address where
** the address dies at the load and that register is free, as ptxas
** allocates (docs/REGISTERS.md, "Allocation").  For a program in SSA
** form -- which is what NVVM emits, apart from the moves that leave phis --
** definitions in reverse postorder come in a dominance order, the
** interference graph is chordal and this order colors it with exactly as
** many registers as are live at once (alignment aside).  Cost: linear in the
** instructions plus the edges.
**
** The count (docs/REGISTERS.md has the model and its calibration):
**   own(f)   highest register + 1 of f's allocation;
**   ra_regs  max(own(f) + reserve, every call site's units live across it +
**            the callee's count), where a callee without a body, an indirect
**            call or a recursive one costs the ABI's frame (RA_ABI_*); the
**            reserve (kernels only) is RA_RESERVED, with RA_MIN_REGS at least;
**            capped at the limit, ra_spills being the excess.
** This allocates the code it is given.  The count tpsim charges a kernel is
** that of its lowered code (lower.c: scheduled the way ptxas schedules,
** constants re-created at their uses, spilled under a forced maximum), whose
** allocation exec/ runs with regs.physical=1.
*/
#include "live_int.h"
#include <stdlib.h>

/* ---- the model's constants (docs/REGISTERS.md: calibrated on sm_75) ------- */

enum {
    RA_RESERVED = PTX_RA_RESERVED, /* registers a sm_75 kernel reports beyond its live values */
    RA_MIN_REGS = 8,     /* the smallest count ptxas reports for a kernel that does anything */
    RA_EMPTY_REGS = 4,   /* ... and for one that uses no register */
    RA_ABI_SCRATCH = 16, /* R0..R15: argument and scratch registers of the ABI */
    RA_ABI_CALL = 24,    /* what an ABI call (unknown callee) costs at least */
    RA_ABI_SAVED = 16,   /* callee-saved registers R16..R31 */
};

/* ---- interference graph ------------------------------------------------- */

typedef TP_VEC(uint32_t) u32vec;

typedef struct ra_call {
    uint32_t pc, across; /* the call, and the units live across it */
} ra_call;

typedef struct ra_graph {
    u32vec edges;         /* pairs */
    uint32_t *aoff, *adj; /* adjacency CSR */
    uint8_t *used;        /* per row: occupies a register */
    uint32_t max_live;
    uint32_t expand; /* the most units live at an expanded instruction plus its temporaries */
    TP_VEC(ra_call) calls;
} ra_graph;

static inline void edge(ra_graph *g, uint32_t a, uint32_t b)
{
    if (a == b) return;
    tp_vec_grow(&g->edges, 2);
    g->edges.a[g->edges.n++] = a;
    g->edges.a[g->edges.n++] = b;
}

static void clique(ra_graph *g, const ptx_rview *v, const uint64_t *set)
{
    u32vec m = {0};
    for (uint32_t w = 0; w < v->words; w++)
        for (uint64_t x = set[w]; x; x &= x - 1) tp_vec_push(&m, w * 64 + (uint32_t)__builtin_ctzll(x));
    for (uint32_t i = 0; i < m.n; i++) {
        g->used[m.a[i]] = 1;
        for (uint32_t j = i + 1; j < m.n; j++) edge(g, m.a[i], m.a[j]);
    }
    tp_vec_free(&m);
}

/* Registers of ptxas's own expansion of in beyond its operands and result
** (sm_75), 0 for an instruction it does not expand into a sequence with
** temporaries.  Measured with ptxas -v (CUDA 13.0) on a kernel keeping
** K = 0 to 20 floats live across one instruction, against the same kernel
** with an add of the type in its place: the difference does not depend on
** K (FP64: div.rn +15, sqrt.rn +10, rcp.rn +5; div.u64 +9, rem.s64 +11;
** FP32, at K = 4 to 20: div.rn +5 (.ftz +4), div.rz +5, div.rm/.rp +9
** (.ftz +5), sqrt.rn/.rp +3, sqrt.rz/.rm +2, rcp.rn/.rm/.rp +6, rcp.rz +2,
** rcp.ftz +0).  The .approx and .full forms expand without a branch and
** are not counted. */
uint32_t ptx_expand_temps(const ptx_insn *in)
{
    bool ftz = (in->m.flags & PTX_MF_FTZ) != 0;
    uint8_t rnd = in->m.rnd;
    switch (in->op) {
    case PTX_OP_DIV:
        if (in->type == PTX_T_F64) return (in->m.flags & PTX_MF_APPROX) ? 0 : 15;
        if (in->type == PTX_T_F32) {
            if (in->m.flags & (PTX_MF_APPROX | PTX_MF_FULL)) return 0;
            if (rnd == PTX_RND_RM || rnd == PTX_RND_RP) return ftz ? 5 : 9;
            return ftz && rnd != PTX_RND_RZ ? 4 : 5;
        }
        return ptx_type_size((ptx_type)in->type) == 8 ? 9 : 0;
    case PTX_OP_REM: return ptx_type_size((ptx_type)in->type) == 8 ? 11 : 0;
    case PTX_OP_SQRT:
        if (in->type == PTX_T_F64) return 10;
        if (in->type == PTX_T_F32 && !(in->m.flags & PTX_MF_APPROX))
            return rnd == PTX_RND_RZ || rnd == PTX_RND_RM ? 2 : 3;
        return 0;
    case PTX_OP_RCP:
        if (in->type == PTX_T_F64) return (in->m.flags & PTX_MF_APPROX) ? 0 : 5;
        if (in->type == PTX_T_F32 && !(in->m.flags & PTX_MF_APPROX)) return ftz ? 0 : rnd == PTX_RND_RZ ? 2 : 6;
        return 0;
    default: return 0;
    }
}

bool ptx_expand_branches(const ptx_insn *in)
{
    if (ptx_expand_temps(in)) return true;
    /* rcp.ftz.f32's branch needs no registers of its own */
    return in->op == PTX_OP_RCP && in->type == PTX_T_F32 && !(in->m.flags & PTX_MF_APPROX);
}

static void build_graph(const ptx_rview *v, ra_graph *g)
{
    const ptx_module *m = v->m;
    uint32_t N = v->nrows;
    memset(g, 0, sizeof *g);
    g->used = tp_calloc(N + 1, 1);
    ptx_sset live = {tp_malloc((N + 1) * sizeof(uint32_t)), tp_calloc(N + 1, sizeof(uint32_t)), 0, 0};
    for (uint32_t b = 0; b < v->nb; b++) {
        const ptx_block *bl = &v->f->blocks[b];
        ptx_sset_load(&live, v->bout + (size_t)b * v->words, v->words, v->w);
        for (uint32_t pc = bl->end; pc-- > bl->start;) {
            uint32_t i = pc - v->s;
            uint32_t d0 = v->off[3 * i], d1 = v->off[3 * i + 1], u1 = v->off[3 * i + 2], p1 = v->off[3 * i + 3];
            if (m->insns[pc].op == PTX_OP_CALL) {
                ra_call c = {pc, live.units};
                tp_vec_push(&g->calls, c);
            }
            uint32_t across = live.units;
            for (uint32_t j = d0; j < d1; j++) {
                uint32_t d = v->rows[j];
                g->used[d] = 1;
                if (!ptx_sset_has(&live, d)) across += v->w[d];
                for (uint32_t k = 0; k < live.n; k++) edge(g, d, live.dense[k]);
                for (uint32_t k = j + 1; k < d1; k++) edge(g, d, v->rows[k]);
            }
            if (across > g->max_live) g->max_live = across;
            if (v->kill[i])
                for (uint32_t j = d0; j < d1; j++) ptx_sset_del(&live, v->rows[j], v->w[v->rows[j]]);
            for (uint32_t j = d1; j < u1; j++) {
                g->used[v->rows[j]] = 1;
                ptx_sset_add(&live, v->rows[j], v->w[v->rows[j]]);
            }
            uint32_t in = live.units;
            for (uint32_t j = u1; j < p1; j++) {
                uint32_t p = v->rows[j];
                g->used[p] = 1;
                in += v->w[p];
                for (uint32_t k = 0; k < live.n; k++) edge(g, p, live.dense[k]);
                for (uint32_t k = j + 1; k < p1; k++) edge(g, p, v->rows[k]);
            }
            if (in > g->max_live) g->max_live = in;
            uint32_t x = ptx_expand_temps(&m->insns[pc]);
            if (x && v->reach[b]) {
                x += in > across ? in : across;
                if (x > g->expand) g->expand = x;
            }
        }
    }
    for (uint32_t b = 0; b < v->nb; b++)
        if (b == 0 || !v->reach[b]) clique(g, v, v->bin + (size_t)b * v->words);
    free(live.dense);
    free(live.pos);

    /* adjacency lists, duplicates removed */
    g->aoff = tp_calloc(N + 2, sizeof *g->aoff);
    for (uint32_t k = 0; k < g->edges.n; k++) g->aoff[g->edges.a[k] + 1]++;
    for (uint32_t r = 0; r < N; r++) g->aoff[r + 1] += g->aoff[r];
    g->adj = tp_malloc((g->edges.n + 1) * sizeof *g->adj);
    uint32_t *fill = tp_malloc((N + 1) * sizeof *fill);
    memcpy(fill, g->aoff, (N + 1) * sizeof *fill);
    for (uint32_t k = 0; k < g->edges.n; k += 2) {
        uint32_t a = g->edges.a[k], b = g->edges.a[k + 1];
        g->adj[fill[a]++] = b;
        g->adj[fill[b]++] = a;
    }
    tp_vec_free(&g->edges);
    uint32_t *seen = tp_malloc((N + 1) * sizeof *seen), out = 0;
    for (uint32_t r = 0; r < N; r++) seen[r] = UINT32_MAX;
    for (uint32_t r = 0; r < N; r++) {
        uint32_t from = g->aoff[r], to = g->aoff[r + 1];
        g->aoff[r] = out;
        for (uint32_t k = from; k < to; k++) {
            uint32_t x = g->adj[k];
            if (seen[x] == r) continue;
            seen[x] = r;
            g->adj[out++] = x;
        }
    }
    g->aoff[N] = out;
    free(seen);
    free(fill);
}

static void free_graph(ra_graph *g)
{
    free(g->aoff);
    free(g->adj);
    free(g->used);
    tp_vec_free(&g->edges);
    tp_vec_free(&g->calls);
}

/* ---- coloring ---------------------------------------------------------------- */

/* The order rows are colored in: live into the entry first, then by first
** appearance along order[]. */
static uint32_t color_order(const ptx_rview *v, const ra_graph *g, uint32_t *ord)
{
    uint32_t N = v->nrows, n = 0;
    uint8_t *put = tp_calloc(N + 1, 1);
    const uint64_t *entry = v->bin;
    for (uint32_t r = 0; r < N; r++)
        if (g->used[r] && ptx_bit_has(entry, r)) {
            ord[n++] = r;
            put[r] = 1;
        }
    for (uint32_t q = 0; q < v->nb; q++) {
        const ptx_block *bl = &v->f->blocks[v->order[q]];
        for (uint32_t pc = bl->start; pc < bl->end; pc++) {
            uint32_t i = pc - v->s;
            /* definitions, then points, then uses: a definition is where an SSA value begins */
            uint32_t lists[3][2] = {{v->off[3 * i], v->off[3 * i + 1]},
                                    {v->off[3 * i + 2], v->off[3 * i + 3]},
                                    {v->off[3 * i + 1], v->off[3 * i + 2]}};
            for (int l = 0; l < 3; l++)
                for (uint32_t j = lists[l][0]; j < lists[l][1]; j++) {
                    uint32_t r = v->rows[j];
                    if (!put[r] && g->used[r]) {
                        put[r] = 1;
                        ord[n++] = r;
                    }
                }
        }
    }
    free(put);
    return n;
}

/* Copied values: 32-bit rows written once, by a load through a register
** or from the constant bank (not through a symbol's address elsewhere:
** ptxas knows those aligned and vectorizes the copy), and read only as the
** value of stores through a register.  ptxas puts them in odd registers
** beside the even pairs of the addresses (its SASS of Rodinia's
** needle_cuda_shared_*: LDS.U R17, R21 ... R51; Parboil's reorder_kernel:
** LDG R9, R11 ... R19; cfd's cuda_initialize_variables: R13 ... R21), so the
** count reaches that far (docs/REGISTERS.md, Allocation). */
static uint8_t *copied_values(const ptx_rview *v)
{
    uint32_t N = v->nrows;
    uint8_t *st = tp_calloc(N + 1, 1); /* 1: candidate, 2: refuted */
    for (uint32_t i = 0; i < v->n; i++) {
        const ptx_insn *in = &v->m->insns[v->s + i];
        for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++) {
            uint32_t r = v->rows[q];
            bool ok = st[r] == 0 && v->w[r] == 1 && in->op == PTX_OP_LD && in->guard < 0 && in->ndst == 1 &&
                      in->nopnd == 2 && in->o[0].kind == PTX_OK_REG && in->o[1].kind == PTX_OK_ADDR &&
                      (in->o[1].base == PTX_AB_REG || in->m.space == PTX_SP_CONST);
            st[r] = ok ? 1 : 2;
        }
        for (uint32_t q = v->off[3 * i + 1]; q < v->off[3 * i + 3]; q++) {
            uint32_t r = v->rows[q];
            bool ok = in->op == PTX_OP_ST && in->nopnd == 2 && in->o[0].kind == PTX_OK_ADDR &&
                      in->o[0].base == PTX_AB_REG && in->o[1].kind == PTX_OK_REG && (uint32_t)in->o[1].r == r;
            if (!ok) st[r] = 2;
        }
    }
    for (uint32_t r = 0; r < N; r++) st[r] = st[r] == 1;
    return st;
}

/* Colors the rows; returns the registers used (highest + 1).  With bound,
** rows whose bound is not UINT32_MAX are colored first and must end below
** it: UINT32_MAX is returned when one cannot. */
static uint32_t color(const ptx_rview *v, const ra_graph *g, int32_t *col, const uint32_t *bound, uint32_t *first)
{
    uint32_t N = v->nrows;
    uint32_t *ord = tp_malloc((N + 1) * sizeof *ord);
    uint32_t n = color_order(v, g, ord), total = 0;
    if (bound) { /* stable: bounded rows first, the widest of them first (alignment) */
        uint32_t *tmp = tp_malloc((N + 1) * sizeof *tmp), k2 = 0;
        for (uint32_t wd = 4; wd >= 1; wd /= 2)
            for (uint32_t k = 0; k < n; k++)
                if (bound[ord[k]] != UINT32_MAX && v->w[ord[k]] == wd) tmp[k2++] = ord[k];
        for (uint32_t k = 0; k < n; k++)
            if (bound[ord[k]] != UINT32_MAX && v->w[ord[k]] != 1 && v->w[ord[k]] != 2 && v->w[ord[k]] != 4) tmp[k2++] = ord[k];
        for (uint32_t k = 0; k < n; k++)
            if (bound[ord[k]] == UINT32_MAX) tmp[k2++] = ord[k];
        memcpy(ord, tmp, n * sizeof *ord);
        free(tmp);
    }
    for (uint32_t r = 0; r < N; r++) {
        col[r] = -1;
        total += v->w[r];
    }
    uint32_t *forb = tp_calloc(total + 8, sizeof *forb); /* forb[c] == k+1: taken for the k-th row */
    uint32_t regs = 0;
    /* a load's 32-bit value takes the upper register of its 64-bit address
    ** when the address dies there (ptxas: LDG R23, [R22]; the lower one
    ** measures the same on the suites' kernels) */
    uint32_t *pref = tp_malloc((N + 1) * sizeof *pref);
    for (uint32_t r = 0; r < N; r++) pref[r] = UINT32_MAX;
    /* copies of constant-bank values (lower.c emits one just before each use) */
    uint8_t *copy = tp_calloc(N + 1, 1);
    for (uint32_t i = 0; i < v->n; i++) {
        const ptx_insn *in = &v->m->insns[v->s + i];
        if (v->off[3 * i + 1] - v->off[3 * i] != 1) continue;
        uint32_t d = v->rows[v->off[3 * i]];
        if (in->op == PTX_OP_MOV && in->nopnd == 2 && in->o[1].kind == PTX_OK_REG && in->o[1].r >= 0 &&
            (uint32_t)in->o[1].r < N && v->remat[in->o[1].r])
            copy[d] = 1;
        if (in->op != PTX_OP_LD || v->w[d] != 1) continue;
        for (uint32_t q = v->off[3 * i + 1]; q < v->off[3 * i + 2]; q++)
            if (v->w[v->rows[q]] == 2) {
                /* not a copy of a constant-bank address: ptxas loads it once */
                if (!copy[v->rows[q]]) pref[d] = v->rows[q];
                break;
            }
    }
    free(copy);
    /* (not under a bound: a register-sharing policy's compaction packs the rows, the count's imitation of
    ** ptxas would only spread them) */
    uint8_t *odd = bound ? NULL : copied_values(v);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = ord[k], w = v->w[r], stamp = k + 1;
        for (uint32_t j = g->aoff[r]; j < g->aoff[r + 1]; j++) {
            int32_t c = col[g->adj[j]];
            if (c < 0) continue;
            for (uint32_t q = 0; q < v->w[g->adj[j]]; q++) forb[c + q] = stamp;
        }
        uint32_t c = 0, a = pref[r];
        /* (the address is not a neighbour: it dies at the load) */
        if (a != UINT32_MAX && col[a] >= 0 && forb[col[a] + 1] != stamp &&
            (!bound || (uint32_t)col[a] + 1 + w <= bound[r])) {
            c = (uint32_t)col[a] + 1;
        } else if (odd && odd[r]) {
            for (c = 1;; c += 2)
                if (forb[c] != stamp) break;
        } else {
            for (;; c += w) {
                uint32_t q = 0;
                while (q < w && forb[c + q] != stamp) q++;
                if (q == w) break;
            }
        }
        if (bound && c + w > bound[r]) {
            regs = UINT32_MAX;
            break;
        }
        col[r] = (int32_t)c;
        if (c + w > regs) regs = c + w;
        if (bound && bound[r] != UINT32_MAX && c + w > *first) *first = c + w;
    }
    free(forb);
    free(pref);
    free(odd);
    free(ord);
    return regs;
}

/* ---- the count --------------------------------------------------------------- */

uint32_t ptx_regalloc_limit(const ptx_func *f, uint32_t max_regs, uint32_t regs_per_sm,
                            uint32_t warp_alloc_unit)
{
    uint32_t lim = max_regs;
    if (f->maxnreg && f->maxnreg < lim) lim = f->maxnreg;
    const uint32_t *t = f->reqntid[0] ? f->reqntid : f->maxntid;
    if (t[0] && regs_per_sm) {
        uint64_t threads = (uint64_t)t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1);
        uint64_t warps = (threads + 31) / 32 * (f->minnctapersm ? f->minnctapersm : 1);
        uint64_t per_warp = regs_per_sm / (warps ? warps : 1);
        if (warp_alloc_unit) per_warp -= per_warp % warp_alloc_unit;
        uint64_t per_thread = per_warp / 32;
        if (per_thread < lim) lim = (uint32_t)(per_thread ? per_thread : 1);
    }
    return lim;
}

enum { RA_TODO, RA_BUSY, RA_DONE };

static bool alloc_func(ptx_module *m, uint32_t fi, uint8_t *state, uint32_t *hard_out, tp_err *e);

/* What a call costs at its site: the units live across it plus the callee's need. */
static uint32_t call_cost(ptx_module *m, const ptx_insn *in, uint32_t across, uint8_t *state, tp_err *e)
{
    const ptx_opnd *t = &in->o[0];
    if (in->nopnd >= 1 && t->kind == PTX_OK_FUNC && t->r >= 0 && (uint32_t)t->r < m->nfuncs) {
        ptx_func *g = &m->funcs[t->r];
        if (!g->is_decl && state[t->r] != RA_BUSY) {
            if (state[t->r] == RA_TODO && !alloc_func(m, (uint32_t)t->r, state, NULL, e)) return 0;
            return across + g->ra_regs + g->ra_spills;
        }
    }
    /* the ABI: values live across stay in callee-saved registers from R16 on,
    ** the callee may use R0..R15 and the caller's frame is RA_ABI_CALL at least */
    uint32_t c = RA_ABI_SCRATCH + across + 1;
    if (across > RA_ABI_SAVED) c += across - RA_ABI_SAVED + 2; /* saved around the call */
    return c > RA_ABI_CALL ? c : RA_ABI_CALL;
}

bool ptx_ra_color(ptx_module *m, ptx_func *f, uint32_t *own, tp_err *e)
{
    ptx_rview v;
    if (!ptx_rview_build(m, f, PTX_LIVE_ALLOC, &v, e)) return false;
    ra_graph g;
    build_graph(&v, &g);
    f->ra_map = tp_arena_alloc(&m->arena, (f->nrows + 1) * sizeof *f->ra_map);
    *own = color(&v, &g, f->ra_map, NULL, NULL);
    for (uint32_t r = 0; r < f->nrows; r++) {
        if (!g.used[r]) f->ra_map[r] = -1;
        if (f->regs[r].cont && r > 0) f->ra_map[r] = f->ra_map[r - 1] >= 0 ? f->ra_map[r - 1] + 2 : -1;
    }
    f->ra_max_live = g.max_live;
    f->ra_expand = g.expand;
    f->ra_own = *own;
    f->ra_ncalls = g.calls.n;
    f->ra_calls = g.calls.n ? tp_arena_alloc(&m->arena, 2 * g.calls.n * sizeof *f->ra_calls) : NULL;
    for (uint32_t k = 0; k < g.calls.n; k++) {
        f->ra_calls[2 * k] = g.calls.a[k].pc;
        f->ra_calls[2 * k + 1] = g.calls.a[k].across;
    }
    free_graph(&g);
    ptx_rview_free(&v);
    return true;
}

bool ptx_ra_color_bounded(ptx_module *m, ptx_func *f, const uint32_t *bound, uint32_t *own, uint32_t *first,
                          tp_err *e)
{
    ptx_rview v;
    if (!ptx_rview_build(m, f, PTX_LIVE_ALLOC, &v, e)) return false;
    ra_graph g;
    build_graph(&v, &g);
    int32_t *col = tp_malloc((f->nrows + 1) * sizeof *col);
    uint32_t firstx = 0;
    uint32_t regs = color(&v, &g, col, bound, &firstx);
    if (first) *first = firstx;
    bool ok = regs != UINT32_MAX;
    if (ok) {
        for (uint32_t r = 0; r < f->nrows; r++) {
            if (!g.used[r]) col[r] = -1;
            if (f->regs[r].cont && r > 0) col[r] = col[r - 1] >= 0 ? col[r - 1] + 2 : -1;
        }
        f->ra_map = tp_arena_alloc(&m->arena, (f->nrows + 1) * sizeof *f->ra_map);
        memcpy(f->ra_map, col, f->nrows * sizeof *col);
        f->ra_own = regs;
        *own = regs;
    }
    free(col);
    free_graph(&g);
    ptx_rview_free(&v);
    return ok;
}

/* The count of f (colored first unless it already is: lower.c colors the
** code it makes and keeps the coloring). */
static bool alloc_func(ptx_module *m, uint32_t fi, uint8_t *state, uint32_t *hard_out, tp_err *e)
{
    ptx_func *f = &m->funcs[fi];
    state[fi] = RA_BUSY;
    if (hard_out) *hard_out = 0;
    if (f->is_decl) {
        f->ra_regs = f->ra_max_live = f->ra_spills = f->ra_own = 0;
        state[fi] = RA_DONE;
        return true;
    }
    uint32_t own = f->ra_own;
    if (!f->ra_map && !ptx_ra_color(m, f, &own, e)) {
        state[fi] = RA_DONE;
        return false;
    }
    uint32_t body = f->ra_unroll > own ? f->ra_unroll : own; /* unrolled loops (lower.c) */
    if (f->ra_expand > body) body = f->ra_expand;           /* ptxas's expansions' temporaries */
    uint32_t hard = body + (f->is_entry ? RA_RESERVED : 0);
    bool ok = true;
    for (uint32_t k = 0; k < f->ra_ncalls && ok; k++) {
        uint32_t c = call_cost(m, &m->insns[f->ra_calls[2 * k]], f->ra_calls[2 * k + 1], state, e);
        ok = !tp_err_isset(e);
        if (c > hard) hard = c;
    }
    if (f->is_entry) {
        uint32_t lo = own ? RA_MIN_REGS : RA_EMPTY_REGS;
        if (hard < lo) hard = lo;
    }
    f->ra_regs = hard; /* ptx_regalloc caps it */
    f->ra_spills = 0;
    if (hard_out) *hard_out = hard;
    state[fi] = RA_DONE;
    return ok;
}

bool ptx_regalloc(ptx_module *m, ptx_func *f, uint32_t max_regs, tp_err *e)
{
    if (f < m->funcs || f >= m->funcs + m->nfuncs) {
        tp_err_set(e, 1, "%s: ptx_regalloc: function not in the module", m->filename);
        return false;
    }
    uint8_t *state = tp_calloc(m->nfuncs + 1, 1);
    uint32_t hard;
    bool ok = alloc_func(m, (uint32_t)(f - m->funcs), state, &hard, e);
    free(state);
    if (!ok) return false;
    /* over the limit ptxas would spill the excess (lower.c does it) */
    if (max_regs && hard > max_regs) {
        f->ra_spills = hard - max_regs;
        f->ra_regs = max_regs;
    }
    return true;
}

/* ---- the checker ---------------------------------------------------------- */

typedef struct ck {
    const ptx_module *m;
    const ptx_func *f;
    const ptx_rview *v;
    uint32_t *owner, *stamp, tick, limit;
    tp_err *e;
} ck;

static bool ck_fail(ck *c, uint32_t pc, const char *what, uint32_t r1, uint32_t r2)
{
    const ptx_insn *in = &c->m->insns[pc];
    tp_loc loc = {c->m->filename, in->line, in->col};
    const ptx_reg *R = c->f->regs;
    tp_err_at(c->e, 1, loc, "%s: %s %s%s%s (R%d%s%d)", c->f->name, what, R[r1].name, r2 != UINT32_MAX ? " and " : "",
              r2 != UINT32_MAX ? R[r2].name : "", c->f->ra_map[r1], r2 != UINT32_MAX ? ", R" : "",
              r2 != UINT32_MAX ? c->f->ra_map[r2] : 0);
    return false;
}

/* Starts a new set of simultaneously live rows. */
static void ck_begin(ck *c) { c->tick++; }

static bool ck_add(ck *c, uint32_t pc, uint32_t r)
{
    int32_t p = c->f->ra_map[r];
    uint32_t w = c->v->w[r];
    if (p < 0) return ck_fail(c, pc, "live row without a register:", r, UINT32_MAX);
    if ((uint32_t)p % w || (uint32_t)p + w > c->limit) return ck_fail(c, pc, "misplaced register for", r, UINT32_MAX);
    for (uint32_t q = 0; q < w; q++) {
        uint32_t x = (uint32_t)p + q;
        if (c->stamp[x] == c->tick && c->owner[x] != r)
            return ck_fail(c, pc, "simultaneously live rows share a register:", c->owner[x], r);
        c->stamp[x] = c->tick;
        c->owner[x] = r;
    }
    return true;
}

bool ptx_regalloc_check(const ptx_module *m, const ptx_func *f, tp_err *e)
{
    if (f->is_decl) return true;
    if (!f->ra_map) {
        tp_err_set(e, 1, "%s: function '%s' has no register allocation", m->filename, f->name);
        return false;
    }
    ptx_rview v;
    if (!ptx_rview_build(m, f, PTX_LIVE_ALLOC, &v, e)) return false;
    uint32_t N = v.nrows, limit = 0;
    for (uint32_t r = 0; r < N; r++) {
        if (f->regs[r].cont && r > 0 && f->ra_map[r - 1] >= 0 && f->ra_map[r] != f->ra_map[r - 1] + 2) {
            tp_err_set(e, 1, "%s: %s: second row of %s not at first + 2", m->filename, f->name, f->regs[r].name);
            ptx_rview_free(&v);
            return false;
        }
        if (f->ra_map[r] >= 0 && (uint32_t)f->ra_map[r] + v.w[r] > limit) limit = (uint32_t)f->ra_map[r] + v.w[r];
    }
    if (limit > f->ra_regs + f->ra_spills) {
        tp_err_set(e, 1, "%s: %s: the allocation uses %u registers but ra_regs + ra_spills is %u", m->filename,
                   f->name, limit, f->ra_regs + f->ra_spills);
        ptx_rview_free(&v);
        return false;
    }
    ck c = {m, f, &v, tp_calloc(limit + 1, sizeof(uint32_t)), tp_calloc(limit + 1, sizeof(uint32_t)), 0, limit, e};
    ptx_sset live = {tp_malloc((N + 1) * sizeof(uint32_t)), tp_calloc(N + 1, sizeof(uint32_t)), 0, 0};
    bool ok = true;
    for (uint32_t b = 0; b < v.nb && ok; b++) {
        if (!v.reach[b]) continue;
        const ptx_block *bl = &f->blocks[b];
        ptx_sset_load(&live, v.bout + (size_t)b * v.words, v.words, v.w);
        for (uint32_t pc = bl->end; pc-- > bl->start && ok;) {
            uint32_t i = pc - v.s;
            /* after the instruction: live-out and the definitions */
            ck_begin(&c);
            for (uint32_t k = 0; k < live.n && ok; k++) ok = ck_add(&c, pc, live.dense[k]);
            for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1] && ok; j++) ok = ck_add(&c, pc, v.rows[j]);
            if (v.kill[i])
                for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1]; j++) ptx_sset_del(&live, v.rows[j], v.w[v.rows[j]]);
            for (uint32_t j = v.off[3 * i + 1]; j < v.off[3 * i + 2]; j++) ptx_sset_add(&live, v.rows[j], v.w[v.rows[j]]);
            /* before it: live-in and the points */
            ck_begin(&c);
            for (uint32_t k = 0; k < live.n && ok; k++) ok = ck_add(&c, pc, live.dense[k]);
            for (uint32_t j = v.off[3 * i + 2]; j < v.off[3 * i + 3] && ok; j++) ok = ck_add(&c, pc, v.rows[j]);
        }
    }
    free(live.dense);
    free(live.pos);
    free(c.owner);
    free(c.stamp);
    ptx_rview_free(&v);
    return ok;
}
