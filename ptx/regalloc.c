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
** for b128), that no already-colored neighbour holds.  For a program in SSA
** form -- which is what NVVM emits, apart from the moves that leave phis --
** definitions in reverse postorder come in a dominance order, the
** interference graph is chordal and this order colors it with exactly as
** many registers as are live at once (alignment aside).  Cost: linear in the
** instructions plus the edges.
**
** The count (docs/REGISTERS.md has the model and its calibration):
**   own(f)   highest register + 1 of f's allocation;
**   hard(f)  max(own(f) + reserve, every call site's units live across it +
**            the callee's count), where a callee without a body, an indirect
**            call or a recursive one costs the ABI's frame (RA_ABI_*); the
**            reserve (kernels only) is RA_RESERVED, with RA_MIN_REGS at least;
**   soft(f)  the most units live when each block is list-scheduled the way
**            ptxas does (long latencies first) + reserve, at most RA_SCHED_CAP;
**   ra_regs  max(hard, soft), capped at the limit; ra_spills = hard - limit
**            when the limit is lower (the soft part is dropped first).
*/
#include "live_int.h"
#include <stdlib.h>

/* ---- the model's constants (docs/REGISTERS.md: calibrated on sm_75) ------- */

enum {
    RA_RESERVED = 4,     /* registers a sm_75 kernel reports beyond its live values: the
                            stack pointer R1, and temporaries of ptxas's lowering */
    RA_MIN_REGS = 8,     /* the smallest count ptxas reports for a kernel that does anything */
    RA_EMPTY_REGS = 4,   /* ... and for one that uses no register */
    RA_ABI_SCRATCH = 16, /* R0..R15: argument and scratch registers of the ABI */
    RA_ABI_CALL = 24,    /* what an ABI call (unknown callee) costs at least */
    RA_ABI_SAVED = 16,   /* callee-saved registers R16..R31 */
    RA_SCHED_CAP = 64,   /* ptxas schedules for latency up to this many registers
                            (full occupancy on sm_75: 65536 / 1024 threads) */
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

/* Colors the rows; returns the registers used (highest + 1). */
static uint32_t color(const ptx_rview *v, const ra_graph *g, int32_t *col)
{
    uint32_t N = v->nrows;
    uint32_t *ord = tp_malloc((N + 1) * sizeof *ord);
    uint32_t n = color_order(v, g, ord), total = 0;
    for (uint32_t r = 0; r < N; r++) {
        col[r] = -1;
        total += v->w[r];
    }
    uint32_t *forb = tp_calloc(total + 8, sizeof *forb); /* forb[c] == k+1: taken for the k-th row */
    uint32_t regs = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = ord[k], w = v->w[r], stamp = k + 1;
        for (uint32_t j = g->aoff[r]; j < g->aoff[r + 1]; j++) {
            int32_t c = col[g->adj[j]];
            if (c < 0) continue;
            for (uint32_t q = 0; q < v->w[g->adj[j]]; q++) forb[c + q] = stamp;
        }
        uint32_t c = 0;
        for (;; c += w) {
            uint32_t q = 0;
            while (q < w && forb[c + q] != stamp) q++;
            if (q == w) break;
        }
        col[r] = (int32_t)c;
        if (c + w > regs) regs = c + w;
    }
    free(forb);
    free(ord);
    return regs;
}

/* ---- ptxas's schedule ------------------------------------------------------ */
/*
** ptxas schedules each block before it allocates registers: it starts
** long-latency instructions early and fills the cycles their consumers wait
** with later independent instructions, which keeps more values live than
** program order does (up to RA_SCHED_CAP registers).  The model: a list
** scheduler per block that, each cycle, issues the earliest instruction (in
** program order) whose operands are ready, with the latencies below, and
** dependences through registers, predicates, memory (a load after a store
** that may alias it, a store after loads and stores of its space), warp-
** synchronous instructions (kept in order), and barriers, fences, atomics,
** calls and the block's last instruction (nothing crosses them).
*/

/* Cycles until the result of in can be used (the scheduler's view of sm_75). */
static uint32_t latency(const ptx_insn *in)
{
    const ptx_opinfo *o = &ptx_ops[in->op];
    if (o->flags & (PTX_F_LOAD | PTX_F_ATOMIC)) {
        switch (in->m.space) {
        case PTX_SP_SHARED: case PTX_SP_SHARED_CLUSTER: case PTX_SP_CONST: return 24;
        case PTX_SP_PARAM: case PTX_SP_PARAM_ENTRY: return 6;
        default: return 200;
        }
    }
    if (o->flags & PTX_F_WARP) return 24;
    if (o->unit == PTX_UNIT_SFU) return 20;
    if (in->op == PTX_OP_CVT)
        return ptx_type_is_float((ptx_type)in->type) || ptx_type_is_float((ptx_type)in->type2) ? 12 : 6;
    if (in->op == PTX_OP_DIV || in->op == PTX_OP_REM) return 40;
    if (o->unit == PTX_UNIT_ARITH && in->type == PTX_T_F64) return 24;
    return 6;
}

/* Memory classes for ordering. */
enum { MC_GLOBAL, MC_SHARED, MC_LOCAL, MC_OTHER, MC_COUNT };

static int mem_class(uint8_t sp)
{
    switch (sp) {
    case PTX_SP_GLOBAL: return MC_GLOBAL;
    case PTX_SP_SHARED: case PTX_SP_SHARED_CLUSTER: return MC_SHARED;
    case PTX_SP_LOCAL: return MC_LOCAL;
    case PTX_SP_GENERIC: return -1; /* all */
    default: return MC_OTHER;
    }
}

/* A binary min-heap of 64-bit keys. */
typedef TP_VEC(uint64_t) heap64;

static void heap_push(heap64 *h, uint64_t k)
{
    tp_vec_push(h, k);
    for (uint32_t i = h->n - 1; i > 0;) {
        uint32_t p = (i - 1) / 2;
        if (h->a[p] <= h->a[i]) break;
        uint64_t t = h->a[p];
        h->a[p] = h->a[i];
        h->a[i] = t;
        i = p;
    }
}

static uint64_t heap_pop(heap64 *h)
{
    uint64_t top = h->a[0];
    h->a[0] = h->a[--h->n];
    for (uint32_t i = 0;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && h->a[l] < h->a[m]) m = l;
        if (r < h->n && h->a[r] < h->a[m]) m = r;
        if (m == i) break;
        uint64_t t = h->a[m];
        h->a[m] = h->a[i];
        h->a[i] = t;
        i = m;
    }
    return top;
}

typedef struct sch_edge { uint32_t from, to, lat; } sch_edge;

typedef struct sched {
    const ptx_rview *v;
    uint32_t *rblk, *rdef, *ruse, *pblk, *pdef, *puse; /* per row / predicate: block tag, last def / use */
    TP_VEC(sch_edge) e;
    uint32_t *npred, *eoff, *earliest, *order;
    heap64 pend, avail;
} sched;

static void sch_dep(sched *S, uint32_t from, uint32_t to, uint32_t lat)
{
    if (from == UINT32_MAX || from == to) return;
    sch_edge x = {from, to, lat};
    tp_vec_push(&S->e, x);
}

/* Schedules block b; S->order gets its pcs in the new order. */
static void sch_block(sched *S, uint32_t b)
{
    const ptx_rview *v = S->v;
    const ptx_module *m = v->m;
    const ptx_func *f = v->f;
    const ptx_block *bl = &f->blocks[b];
    uint32_t nb = bl->end - bl->start, tag = b + 1, P = f->npreds, NONE = UINT32_MAX;
    uint32_t bar = NONE, warp = NONE, st[MC_COUNT], ld[MC_COUNT];
    for (int c = 0; c < MC_COUNT; c++) st[c] = ld[c] = NONE;
    S->e.n = 0;
#define RDEF(r) (S->rblk[r] == tag ? S->rdef[r] : NONE)
#define RUSE(r) (S->rblk[r] == tag ? S->ruse[r] : NONE)
#define PDEF(p) (S->pblk[p] == tag ? S->pdef[p] : NONE)
#define PUSE(p) (S->pblk[p] == tag ? S->puse[p] : NONE)
#define TOUCH_R(r) do { if (S->rblk[r] != tag) { S->rblk[r] = tag; S->rdef[r] = S->ruse[r] = NONE; } } while (0)
#define TOUCH_P(p) do { if (S->pblk[p] != tag) { S->pblk[p] = tag; S->pdef[p] = S->puse[p] = NONE; } } while (0)
    for (uint32_t j = 0; j < nb; j++) {
        uint32_t pc = bl->start + j, i = pc - v->s;
        const ptx_insn *in = &m->insns[pc];
        const ptx_opinfo *oi = &ptx_ops[in->op];
        bool fence = (oi->flags & (PTX_F_BARRIER | PTX_F_ATOMIC | PTX_F_CALL | PTX_F_RET | PTX_F_EXIT |
                                   PTX_F_BRANCH | PTX_F_PSEUDO)) ||
                     in->op == PTX_OP_MEMBAR || in->op == PTX_OP_FENCE || j + 1 == nb;
        if (fence) {
            for (uint32_t k = (bar == NONE ? 0 : bar + 1); k < j; k++) sch_dep(S, k, j, 1);
        } else {
            sch_dep(S, bar, j, 1);
        }
        /* registers: read after write, write after read and write */
        for (uint32_t q = v->off[3 * i + 1]; q < v->off[3 * i + 2]; q++) {
            uint32_t r = v->rows[q], d = RDEF(r);
            if (d != NONE) sch_dep(S, d, j, latency(&m->insns[bl->start + d]));
        }
        for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++) {
            uint32_t r = v->rows[q];
            sch_dep(S, RUSE(r), j, 1);
            sch_dep(S, RDEF(r), j, 1);
        }
        /* predicates */
        if (in->guard >= 0 && (uint32_t)in->guard < P) {
            uint32_t d = PDEF(in->guard);
            if (d != NONE) sch_dep(S, d, j, latency(&m->insns[bl->start + d]));
        }
        for (uint32_t k = 0; k < in->nopnd; k++) {
            const ptx_opnd *o = &in->o[k];
            if (o->kind != PTX_OK_PRED || o->r < 0 || (uint32_t)o->r >= P) continue;
            if (k < in->ndst) {
                sch_dep(S, PUSE(o->r), j, 1);
                sch_dep(S, PDEF(o->r), j, 1);
            } else {
                uint32_t d = PDEF(o->r);
                if (d != NONE) sch_dep(S, d, j, latency(&m->insns[bl->start + d]));
            }
        }
        /* memory */
        bool ro = in->op == PTX_OP_LDU || in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 ||
                  (in->m.flags & PTX_MF_NC) || in->m.space == PTX_SP_CONST || in->m.space == PTX_SP_PARAM;
        int c = mem_class(in->m.space);
        if ((oi->flags & PTX_F_LOAD) && !ro)
            for (int q = 0; q < MC_COUNT; q++)
                if (c < 0 || c == q) sch_dep(S, st[q], j, 1);
        if (oi->flags & PTX_F_STORE)
            for (int q = 0; q < MC_COUNT; q++)
                if (c < 0 || c == q) {
                    sch_dep(S, st[q], j, 1);
                    sch_dep(S, ld[q], j, 1);
                }
        if ((oi->flags & PTX_F_WARP) || (in->m.flags & PTX_MF_SYNC)) {
            sch_dep(S, warp, j, 1);
            warp = j;
        }
        /* record */
        if (fence) bar = j;
        if ((oi->flags & PTX_F_LOAD) && !ro)
            for (int q = 0; q < MC_COUNT; q++)
                if (c < 0 || c == q) ld[q] = j;
        if (oi->flags & PTX_F_STORE)
            for (int q = 0; q < MC_COUNT; q++)
                if (c < 0 || c == q) st[q] = j;
        for (uint32_t q = v->off[3 * i + 1]; q < v->off[3 * i + 2]; q++) {
            TOUCH_R(v->rows[q]);
            S->ruse[v->rows[q]] = j;
        }
        for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++) {
            TOUCH_R(v->rows[q]);
            S->rdef[v->rows[q]] = j;
        }
        if (in->guard >= 0 && (uint32_t)in->guard < P) {
            TOUCH_P(in->guard);
            S->puse[in->guard] = j;
        }
        for (uint32_t k = 0; k < in->nopnd; k++) {
            const ptx_opnd *o = &in->o[k];
            if (o->kind != PTX_OK_PRED || o->r < 0 || (uint32_t)o->r >= P) continue;
            TOUCH_P(o->r);
            if (k < in->ndst) S->pdef[o->r] = j;
            else S->puse[o->r] = j;
        }
    }
#undef RDEF
#undef RUSE
#undef PDEF
#undef PUSE
#undef TOUCH_R
#undef TOUCH_P
    /* out-edges as CSR */
    for (uint32_t j = 0; j <= nb; j++) S->eoff[j] = 0;
    for (uint32_t j = 0; j < nb; j++) S->npred[j] = S->earliest[j] = 0;
    for (uint32_t k = 0; k < S->e.n; k++) {
        S->eoff[S->e.a[k].from + 1]++;
        S->npred[S->e.a[k].to]++;
    }
    for (uint32_t j = 0; j < nb; j++) S->eoff[j + 1] += S->eoff[j];
    sch_edge *sorted = tp_malloc((S->e.n + 1) * sizeof *sorted);
    uint32_t *fill = S->order; /* borrowed until the schedule is written */
    for (uint32_t j = 0; j < nb; j++) fill[j] = S->eoff[j];
    for (uint32_t k = 0; k < S->e.n; k++) sorted[fill[S->e.a[k].from]++] = S->e.a[k];
    /* the list schedule */
    S->pend.n = S->avail.n = 0;
    for (uint32_t j = 0; j < nb; j++)
        if (!S->npred[j]) heap_push(&S->pend, j);
    uint64_t cycle = 0;
    for (uint32_t done = 0; done < nb;) {
        while (S->pend.n && (S->pend.a[0] >> 32) <= cycle) heap_push(&S->avail, heap_pop(&S->pend) & 0xffffffffu);
        if (!S->avail.n) {
            cycle = S->pend.a[0] >> 32;
            continue;
        }
        uint32_t j = (uint32_t)heap_pop(&S->avail);
        S->order[done++] = bl->start + j;
        for (uint32_t k = S->eoff[j]; k < S->eoff[j + 1]; k++) {
            uint32_t t = sorted[k].to;
            uint64_t at = cycle + sorted[k].lat;
            if (at > S->earliest[t]) S->earliest[t] = (uint32_t)at;
            if (--S->npred[t] == 0) heap_push(&S->pend, ((uint64_t)S->earliest[t] << 32) | t);
        }
        cycle++;
    }
    free(sorted);
}

/* The most units live at once in the blocks as scheduled. */
static uint32_t sched_pressure(const ptx_rview *v)
{
    const ptx_func *f = v->f;
    uint32_t N = v->nrows, P = f->npreds, best = 0, maxb = 0;
    for (uint32_t b = 0; b < v->nb; b++)
        if (f->blocks[b].end - f->blocks[b].start > maxb) maxb = f->blocks[b].end - f->blocks[b].start;
    sched S = {0};
    S.v = v;
    S.rblk = tp_calloc(N + 1, sizeof(uint32_t));
    S.rdef = tp_malloc((N + 1) * sizeof(uint32_t));
    S.ruse = tp_malloc((N + 1) * sizeof(uint32_t));
    S.pblk = tp_calloc(P + 1, sizeof(uint32_t));
    S.pdef = tp_malloc((P + 1) * sizeof(uint32_t));
    S.puse = tp_malloc((P + 1) * sizeof(uint32_t));
    S.npred = tp_malloc((maxb + 1) * sizeof(uint32_t));
    S.eoff = tp_malloc((maxb + 2) * sizeof(uint32_t));
    S.earliest = tp_malloc((maxb + 1) * sizeof(uint32_t));
    S.order = tp_malloc((maxb + 1) * sizeof(uint32_t));
    ptx_sset live = {tp_malloc((N + 1) * sizeof(uint32_t)), tp_calloc(N + 1, sizeof(uint32_t)), 0, 0};
    for (uint32_t b = 0; b < v->nb; b++) {
        const ptx_block *bl = &f->blocks[b];
        uint32_t nb = bl->end - bl->start;
        sch_block(&S, b);
        ptx_sset_load(&live, v->bout + (size_t)b * v->words, v->words, v->w);
        for (uint32_t j = nb; j-- > 0;) {
            uint32_t i = S.order[j] - v->s;
            uint32_t across = live.units;
            for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++)
                if (!ptx_sset_has(&live, v->rows[q])) across += v->w[v->rows[q]];
            if (across > best) best = across;
            if (v->kill[i])
                for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++)
                    ptx_sset_del(&live, v->rows[q], v->w[v->rows[q]]);
            for (uint32_t q = v->off[3 * i + 1]; q < v->off[3 * i + 2]; q++)
                ptx_sset_add(&live, v->rows[q], v->w[v->rows[q]]);
            uint32_t in_units = live.units;
            for (uint32_t q = v->off[3 * i + 2]; q < v->off[3 * i + 3]; q++) in_units += v->w[v->rows[q]];
            if (in_units > best) best = in_units;
        }
    }
    free(S.rblk);
    free(S.rdef);
    free(S.ruse);
    free(S.pblk);
    free(S.pdef);
    free(S.puse);
    free(S.npred);
    free(S.eoff);
    free(S.earliest);
    free(S.order);
    tp_vec_free(&S.e);
    tp_vec_free(&S.pend);
    tp_vec_free(&S.avail);
    free(live.dense);
    free(live.pos);
    return best;
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
            /* a callee allocated before (by an earlier call) is reused */
            if (state[t->r] == RA_TODO && !g->ra_map && !alloc_func(m, (uint32_t)t->r, state, NULL, e)) return 0;
            return across + g->ra_regs + g->ra_spills;
        }
    }
    /* the ABI: values live across stay in callee-saved registers from R16 on,
    ** the callee may use R0..R15 and the caller's frame is RA_ABI_CALL at least */
    uint32_t c = RA_ABI_SCRATCH + across + 1;
    if (across > RA_ABI_SAVED) c += across - RA_ABI_SAVED + 2; /* saved around the call */
    return c > RA_ABI_CALL ? c : RA_ABI_CALL;
}

static bool alloc_func(ptx_module *m, uint32_t fi, uint8_t *state, uint32_t *hard_out, tp_err *e)
{
    ptx_func *f = &m->funcs[fi];
    state[fi] = RA_BUSY;
    if (hard_out) *hard_out = 0;
    if (f->is_decl) {
        f->ra_regs = f->ra_max_live = f->ra_spills = 0;
        state[fi] = RA_DONE;
        return true;
    }
    ptx_rview v;
    if (!ptx_rview_build(m, f, PTX_LIVE_ALLOC, &v, e)) {
        state[fi] = RA_DONE;
        return false;
    }
    ra_graph g;
    build_graph(&v, &g);
    if (!f->ra_map) f->ra_map = tp_arena_alloc(&m->arena, (f->nrows + 1) * sizeof *f->ra_map);
    uint32_t own = color(&v, &g, f->ra_map);
    for (uint32_t r = 0; r < f->nrows; r++) {
        if (!g.used[r]) f->ra_map[r] = -1;
        if (f->regs[r].cont && r > 0) f->ra_map[r] = f->ra_map[r - 1] >= 0 ? f->ra_map[r - 1] + 2 : -1;
    }
    /* hard: what the program needs; soft: what ptxas's schedule takes on top */
    uint32_t extra = f->is_entry ? RA_RESERVED : 0;
    uint32_t hard = own + extra, soft = sched_pressure(&v) + extra;
    if (soft > RA_SCHED_CAP) soft = RA_SCHED_CAP;
    bool ok = true;
    for (uint32_t k = 0; k < g.calls.n && ok; k++) {
        uint32_t c = call_cost(m, &m->insns[g.calls.a[k].pc], g.calls.a[k].across, state, e);
        ok = !tp_err_isset(e);
        if (c > hard) hard = c;
    }
    if (f->is_entry) {
        uint32_t lo = own ? RA_MIN_REGS : RA_EMPTY_REGS;
        if (hard < lo) hard = lo;
    }
    f->ra_max_live = g.max_live;
    f->ra_regs = hard > soft ? hard : soft; /* ptx_regalloc caps it */
    f->ra_spills = 0;
    if (hard_out) *hard_out = hard;
    free_graph(&g);
    ptx_rview_free(&v);
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
    /* over the limit, ptxas schedules less eagerly (the soft part goes) and
    ** spills what the program itself needs beyond it */
    if (max_regs && f->ra_regs > max_regs) {
        f->ra_spills = hard > max_regs ? hard - max_regs : 0;
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
