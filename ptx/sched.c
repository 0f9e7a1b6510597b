/*
** sched.c -- the instruction scheduler ptxas runs before it allocates
** registers, as tpsim models it: one list schedule per basic block.
**
** ptxas starts long-latency instructions early and fills the cycles their
** consumers wait with later independent work, which keeps more values live
** than program order does.  The model: each cycle, issue the earliest
** instruction (in program order) whose operands are ready, with these
** latencies (sm_75 as the scheduler sees it): 6 (ALU, ld.param), 12
** (conversions involving floats), 20 (SFU), 24 (shared/constant loads, warp
** shuffles and votes, FP64), 40 (division, remainder), 200 (global, local,
** generic and texture loads, atomics).  A short instruction (under
** PTX_SCHED_LONG) is released just in time: not before the earliest cycle
** its first reader could start (with unlimited issue) less its latency and
** PTX_SCHED_SLACK, so it does not hold its result across a wait it does not
** shorten (an address computed in the shadow of a load that must wait for
** a store).
**
** Dependences (an instruction never moves above one it depends on):
**   registers   read after write (the producer's latency), write after read
**               and write after write (1);
**   predicates  likewise, the guard included; the carry flag CC.CF as one
**               more predicate (written by .cc forms, read by addc/subc/madc);
**   memory      a load after a store that may alias it, a store after loads
**               and stores that may alias it: same class (global, shared,
**               local, other) or a generic or surface access, which may alias
**               every class; loads of a class stay in order; read-only loads
**               (.nc, ldu, .const, a kernel's .param, textures) depend on no
**               store; in an unrolled loop's copies (ptx_range_pressure),
**               accesses through one base register whose bytes do not
**               overlap (the copy's steps of the register counted) are
**               independent;
**   warp        warp-synchronous instructions (shfl, vote, match, redux,
**               .sync forms) stay in order;
**   fences      nothing moves across barriers, fences, atomics, calls,
**               returns, exits, branches, instructions ptxas expands with a
**               branch (ptx_expand_temps), tpsim's pseudo instructions, SYNC
**               unit instructions (nanosleep ...), memory accesses with
**               ordering semantics (volatile, relaxed, acquire, release),
**               reads of %clock/%clock64/%globaltimer, or the block's last
**               instruction.
** Every schedule is therefore a legal execution order of the block: the
** lowering (lower.c) runs it.  A window limits how far an instruction may
** move up: only instructions fewer than `window` places (program order)
** after the first unscheduled one may issue; the lowering narrows it until
** the block's pressure fits (ptxas schedules less eagerly under pressure).
*/
#include "live_int.h"
#include <stdlib.h>

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
    if (in->op == PTX_OP_MOV && in->nopnd == 2 && in->o[1].kind == PTX_OK_SREG &&
        in->o[1].r != PTX_SR_NTID && in->o[1].r != PTX_SR_NCTAID && in->o[1].r != PTX_SR_NSMID &&
        in->o[1].r != PTX_SR_NWARPID)
        return 24; /* S2R: special registers are read through a variable-latency path */
    if (o->unit == PTX_UNIT_SFU) return 20;
    if (in->op == PTX_OP_CVT)
        return ptx_type_is_float((ptx_type)in->type) || ptx_type_is_float((ptx_type)in->type2) ? 12 : 6;
    if (in->op == PTX_OP_DIV || in->op == PTX_OP_REM) return 40;
    if (o->unit == PTX_UNIT_ARITH && in->type == PTX_T_F64) return 24;
    return 6;
}

/* Memory classes for ordering; -1: may alias every class. */
enum { MC_GLOBAL, MC_SHARED, MC_LOCAL, MC_OTHER, MC_COUNT };

static int mem_class(const ptx_insn *in)
{
    if (in->op == PTX_OP_SULD || in->op == PTX_OP_SUST) return -1; /* surfaces are global memory */
    switch (in->m.space) {
    case PTX_SP_GLOBAL: return MC_GLOBAL;
    case PTX_SP_SHARED: case PTX_SP_SHARED_CLUSTER: return MC_SHARED;
    case PTX_SP_LOCAL: return MC_LOCAL;
    case PTX_SP_GENERIC: return -1;
    default: return MC_OTHER;
    }
}

static bool reads_clock(const ptx_module *m, const ptx_insn *in)
{
    for (uint32_t k = in->ndst; k < in->nopnd && k < PTX_MAX_OPND; k++) {
        const ptx_opnd *o = &in->o[k];
        if (o->kind == PTX_OK_SREG &&
            (o->r == PTX_SR_CLOCK || o->r == PTX_SR_CLOCK_HI || o->r == PTX_SR_CLOCK64 ||
             o->r == PTX_SR_GLOBALTIMER || o->r == PTX_SR_GLOBALTIMER_LO || o->r == PTX_SR_GLOBALTIMER_HI))
            return true;
    }
    (void)m;
    return false;
}

/* Whether nothing may move across in. */
static bool is_fence(const ptx_module *m, const ptx_insn *in)
{
    const ptx_opinfo *oi = &ptx_ops[in->op];
    if (oi->flags & (PTX_F_BARRIER | PTX_F_ATOMIC | PTX_F_CALL | PTX_F_RET | PTX_F_EXIT | PTX_F_BRANCH | PTX_F_PSEUDO))
        return true;
    if (oi->unit == PTX_UNIT_SYNC || in->op == PTX_OP_MEMBAR || in->op == PTX_OP_FENCE || in->op == PTX_OP_BRKPT ||
        in->op == PTX_OP_PMEVENT)
        return true;
    if ((oi->flags & (PTX_F_LOAD | PTX_F_STORE)) && in->m.sem != PTX_SEM_NONE && in->m.sem != PTX_SEM_WEAK) return true;
    if (ptx_expand_branches(in)) return true; /* ptxas expands it into a sequence with a branch */
    return reads_clock(m, in);
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
/* A read of a register or predicate since its last write (a list per one: next). */
typedef struct sch_use { uint32_t j, next; } sch_use;
/* A memory access: its instruction, class, whether it writes, and (base
** UINT32_MAX: unknown) the bytes [lo, hi) from its base register. */
typedef struct sch_acc { uint32_t j, base; int cls; bool write; int64_t lo, hi; } sch_acc;
enum {
    PTX_SCHED_MAXOCC = PTX_MAX_OPND * 256 + 8,
    PTX_SCHED_LONG = 12, /* ready instructions of at least this latency issue first */
    PTX_SCHED_SLACK = 6, /* a short instruction is released this many cycles before it is due
                            (one ALU latency: of 0, 6 and 24 nearest ptxas on the suites) */
};

struct ptx_sched {
    const ptx_rview *v;
    uint32_t *rblk, *rdef, *ruse, *pblk, *pdef, *puse; /* per row / predicate (+ CC): block tag, last def,
                                                          the reads since it (a list in u) */
    TP_VEC(sch_edge) e;
    TP_VEC(sch_use) u;
    uint32_t *npred, *eoff, *earliest, *rel, *order, *pcs; /* per instruction of the sequence scheduled */
    uint8_t *done;
    int64_t *aoff;             /* per instruction of an unrolled sequence (sched_seq's disamb): what its
                                  copy adds to its address's offset; INT64_MIN: not comparable */
    TP_VEC(sch_acc) acc;       /* the memory accesses of the sequence so far (when aoff) */
    uint32_t cap;              /* room of the per-instruction arrays */
    uint32_t tag;              /* per call: which rdef/ruse/pdef/puse entries are this schedule's */
    heap64 pend, avail, avail_long; /* ready: short and long-latency instructions */
    uint32_t long_lat;         /* latency from which an instruction goes first */
    ptx_regocc oc[PTX_SCHED_MAXOCC];
};

/* Makes the per-instruction arrays hold n instructions. */
static void sched_room(ptx_sched *S, uint32_t n)
{
    if (n <= S->cap && S->npred) return;
    S->cap = n;
    S->npred = tp_realloc(S->npred, (n + 1) * sizeof(uint32_t));
    S->eoff = tp_realloc(S->eoff, (n + 2) * sizeof(uint32_t));
    S->earliest = tp_realloc(S->earliest, (n + 1) * sizeof(uint32_t));
    S->rel = tp_realloc(S->rel, (n + 1) * sizeof(uint32_t));
    S->order = tp_realloc(S->order, (n + 1) * sizeof(uint32_t));
    S->pcs = tp_realloc(S->pcs, (n + 1) * sizeof(uint32_t));
    S->done = tp_realloc(S->done, n + 1);
    S->aoff = tp_realloc(S->aoff, (n + 1) * sizeof(int64_t));
}

ptx_sched *ptx_sched_new(const ptx_rview *v)
{
    const ptx_func *f = v->f;
    uint32_t N = v->nrows, P = f->npreds + 1, maxb = 0;
    for (uint32_t b = 0; b < v->nb; b++)
        if (f->blocks[b].end - f->blocks[b].start > maxb) maxb = f->blocks[b].end - f->blocks[b].start;
    ptx_sched *S = tp_calloc(1, sizeof *S);
    S->v = v;
    S->rblk = tp_calloc(N + 1, sizeof(uint32_t));
    S->rdef = tp_malloc((N + 1) * sizeof(uint32_t));
    S->ruse = tp_malloc((N + 1) * sizeof(uint32_t));
    S->pblk = tp_calloc(P + 1, sizeof(uint32_t));
    S->pdef = tp_malloc((P + 1) * sizeof(uint32_t));
    S->puse = tp_malloc((P + 1) * sizeof(uint32_t));
    sched_room(S, maxb);
    S->long_lat = PTX_SCHED_LONG;
    return S;
}

void ptx_sched_free(ptx_sched *S)
{
    if (!S) return;
    free(S->rblk);
    free(S->rdef);
    free(S->ruse);
    free(S->pblk);
    free(S->pdef);
    free(S->puse);
    tp_vec_free(&S->u);
    free(S->npred);
    free(S->eoff);
    free(S->earliest);
    free(S->rel);
    free(S->order);
    free(S->pcs);
    free(S->done);
    free(S->aoff);
    tp_vec_free(&S->acc);
    tp_vec_free(&S->e);
    tp_vec_free(&S->pend);
    tp_vec_free(&S->avail);
    tp_vec_free(&S->avail_long);
    free(S);
}

static void sch_dep(ptx_sched *S, uint32_t from, uint32_t to, uint32_t lat)
{
    if (from == UINT32_MAX || from == to) return;
    sch_edge x = {from, to, lat};
    tp_vec_push(&S->e, x);
}

/* List-schedules the sequence S->pcs[0 .. nb) (pcs of one block, in an
** order that is a legal execution); fills S->order with indices into it.
** With rename, every definition is a new value (ptxas's SSA form of an
** unrolled loop): only reads wait for writes, registers and predicates.
** With disamb, two accesses to one state space through the same base
** register (S->aoff: its copy's offset added) whose bytes do not overlap
** need not keep their order. */
static void sched_seq(ptx_sched *S, uint32_t nb, uint32_t window, bool rename, bool disamb)
{
    const ptx_rview *v = S->v;
    const ptx_module *m = v->m;
    const ptx_func *f = v->f;
    uint32_t tag = ++S->tag, P = f->npreds, CC = f->npreds, NONE = UINT32_MAX;
    const uint32_t *pcs = S->pcs;
    uint32_t bar = NONE, warp = NONE, st[MC_COUNT], ld[MC_COUNT];
    for (int c = 0; c < MC_COUNT; c++) st[c] = ld[c] = NONE;
    S->e.n = 0;
    S->u.n = 0;
    S->acc.n = 0;
#define RDEF(r) (S->rblk[r] == tag ? S->rdef[r] : NONE)
#define RUSE(r) (S->rblk[r] == tag ? S->ruse[r] : NONE)
#define PDEF(p) (S->pblk[p] == tag ? S->pdef[p] : NONE)
#define PUSE(p) (S->pblk[p] == tag ? S->puse[p] : NONE)
#define TOUCH_R(r) do { if (S->rblk[r] != tag) { S->rblk[r] = tag; S->rdef[r] = S->ruse[r] = NONE; } } while (0)
/* write after read: after every read since the last write (not only the last read) */
#define WAR(head) for (uint32_t n_ = (head); n_ != NONE; n_ = S->u.a[n_].next) sch_dep(S, S->u.a[n_].j, j, 1)
#define READ(list) do { tp_vec_push(&S->u, ((sch_use){j, (list)})); (list) = (uint32_t)S->u.n - 1; } while (0)
#define TOUCH_P(p) do { if (S->pblk[p] != tag) { S->pblk[p] = tag; S->pdef[p] = S->puse[p] = NONE; } } while (0)
    for (uint32_t j = 0; j < nb; j++) {
        const ptx_insn *in = &m->insns[pcs[j]];
        const ptx_opinfo *oi = &ptx_ops[in->op];
        bool fence = is_fence(m, in) || j + 1 == nb;
        if (fence) {
            for (uint32_t k = (bar == NONE ? 0 : bar); k < j; k++) sch_dep(S, k, j, 1);
        } else {
            sch_dep(S, bar, j, 1);
        }
        /* registers (every one the instruction names, as written: the ALLOC
        ** view leaves out constant definitions, which must still come first):
        ** read after write, write after read and write */
        uint32_t nrg = ptx_insn_regs(m, f, in, 0, S->oc, PTX_SCHED_MAXOCC);
        if (nrg > PTX_SCHED_MAXOCC) nrg = PTX_SCHED_MAXOCC;
        for (uint32_t q = 0; q < nrg; q++) {
            if (S->oc[q].kind == PTX_RO_DEF) continue;
            uint32_t r = S->oc[q].row, d = RDEF(r);
            if (d != NONE) sch_dep(S, d, j, latency(&m->insns[pcs[d]]));
        }
        for (uint32_t q = 0; q < nrg && !rename; q++) {
            if (S->oc[q].kind != PTX_RO_DEF) continue;
            uint32_t r = S->oc[q].row;
            WAR(RUSE(r));
            sch_dep(S, RDEF(r), j, 1);
        }
        /* predicates and the carry flag */
        if (in->guard >= 0 && (uint32_t)in->guard < P) {
            uint32_t d = PDEF(in->guard);
            if (d != NONE) sch_dep(S, d, j, latency(&m->insns[pcs[d]]));
        }
        for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++) {
            const ptx_opnd *o = &in->o[k];
            if (o->kind != PTX_OK_PRED || o->r < 0 || (uint32_t)o->r >= P) continue;
            if (k < in->ndst) {
                if (!rename) {
                    WAR(PUSE(o->r));
                    sch_dep(S, PDEF(o->r), j, 1);
                }
            } else {
                uint32_t d = PDEF(o->r);
                if (d != NONE) sch_dep(S, d, j, latency(&m->insns[pcs[d]]));
            }
        }
        bool cc_in = (oi->flags & PTX_F_CARRYIN) != 0, cc_out = (in->m.flags & PTX_MF_CC) != 0;
        if (cc_in) sch_dep(S, PDEF(CC), j, 1);
        if (cc_out) {
            WAR(PUSE(CC));
            sch_dep(S, PDEF(CC), j, 1);
        }
        /* memory */
        bool ro = in->op == PTX_OP_LDU || in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 ||
                  (in->m.flags & PTX_MF_NC) || in->m.space == PTX_SP_CONST ||
                  (f->is_entry && (in->m.space == PTX_SP_PARAM || in->m.space == PTX_SP_PARAM_ENTRY));
        int c = mem_class(in);
        bool load = (oi->flags & PTX_F_LOAD) && !ro, store = (oi->flags & PTX_F_STORE) != 0;
        if (disamb && (load || store)) {
            /* an unrolled loop's accesses through one base register at
            ** offsets that do not overlap are independent (ptxas's copies of
            ** a[i] = f(a[i]) overlap) */
            sch_acc a = {j, NONE, c, store, 0, 0};
            for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND && c >= 0 && S->aoff[j] != INT64_MIN; k++)
                if (in->o[k].kind == PTX_OK_ADDR && in->o[k].base == PTX_AB_REG && in->o[k].r >= 0) {
                    a.base = (uint32_t)in->o[k].r;
                    a.lo = in->o[k].imm + S->aoff[j];
                    a.hi = a.lo + (int64_t)ptx_type_size((ptx_type)in->type) * (in->m.vec ? in->m.vec : 1);
                }
            for (size_t k = 0; k < S->acc.n; k++) {
                const sch_acc *p = &S->acc.a[k];
                if (!p->write && !store) continue;
                if (c >= 0 && p->cls >= 0 && p->cls != c) continue;
                if (a.base != NONE && p->base == a.base && (a.hi <= p->lo || p->hi <= a.lo)) continue;
                sch_dep(S, p->j, j, 1);
            }
            tp_vec_push(&S->acc, a);
        }
        bool through_last = !(disamb && (load || store)); /* (else ordered above) */
        if (load && through_last)
            for (int q = 0; q < MC_COUNT; q++)
                if (c < 0 || c == q) sch_dep(S, st[q], j, 1);
        if (store && through_last)
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
        /* several loads (stores) of a class since the last store (load) all
        ** need to be waited for: keep the latest, ordered after the earlier ones
        ** through the chain store -> load edges already present */
        if (load)
            for (int q = 0; q < MC_COUNT; q++)
                if (c < 0 || c == q) {
                    if (ld[q] != NONE && ld[q] != j) sch_dep(S, ld[q], j, 0); /* keeps every load before a later store */
                    ld[q] = j;
                }
        if (store)
            for (int q = 0; q < MC_COUNT; q++)
                if (c < 0 || c == q) st[q] = j;
        for (uint32_t q = 0; q < nrg; q++) {
            uint32_t r = S->oc[q].row;
            TOUCH_R(r);
            if (S->oc[q].kind == PTX_RO_DEF) S->rdef[r] = j, S->ruse[r] = NONE;
            else READ(S->ruse[r]);
        }
        if (in->guard >= 0 && (uint32_t)in->guard < P) {
            TOUCH_P(in->guard);
            READ(S->puse[in->guard]);
        }
        for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++) {
            const ptx_opnd *o = &in->o[k];
            if (o->kind != PTX_OK_PRED || o->r < 0 || (uint32_t)o->r >= P) continue;
            TOUCH_P(o->r);
            if (k < in->ndst) S->pdef[o->r] = j, S->puse[o->r] = NONE;
            else READ(S->puse[o->r]);
        }
        if (cc_in || cc_out) TOUCH_P(CC);
        if (cc_in) READ(S->puse[CC]);
        if (cc_out) S->pdef[CC] = j, S->puse[CC] = NONE;
    }
#undef RDEF
#undef RUSE
#undef PDEF
#undef PUSE
#undef TOUCH_R
#undef TOUCH_P
#undef WAR
#undef READ
    /* out-edges as CSR */
    for (uint32_t j = 0; j <= nb; j++) S->eoff[j] = 0;
    for (uint32_t j = 0; j < nb; j++) S->npred[j] = 0;
    for (uint32_t k = 0; k < S->e.n; k++) {
        S->eoff[S->e.a[k].from + 1]++;
        S->npred[S->e.a[k].to]++;
    }
    for (uint32_t j = 0; j < nb; j++) S->eoff[j + 1] += S->eoff[j];
    sch_edge *sorted = tp_malloc((S->e.n + 1) * sizeof *sorted);
    uint32_t *fill = S->order; /* borrowed until the schedule is written */
    for (uint32_t j = 0; j < nb; j++) fill[j] = S->eoff[j];
    for (uint32_t k = 0; k < S->e.n; k++) sorted[fill[S->e.a[k].from]++] = S->e.a[k];
    /* the list schedule; only instructions within `window` of the first
    ** unscheduled one (program order) may go */
    S->pend.n = S->avail.n = S->avail_long.n = 0;
    /* just in time: a short instruction whose results are first read by
    ** instructions that cannot start before cycle T (their earliest start
    ** with unlimited issue; edges run forward in the sequence) is not
    ** released before T - its latency - PTX_SCHED_SLACK */
    uint32_t *rel = S->rel;
    for (uint32_t j = 0; j < nb; j++) S->earliest[j] = 0;
    for (uint32_t j = 0; j < nb; j++)
        for (uint32_t k = S->eoff[j]; k < S->eoff[j + 1]; k++) {
            uint32_t t = sorted[k].to, at = S->earliest[j] + sorted[k].lat;
            if (at > S->earliest[t]) S->earliest[t] = at;
        }
    for (uint32_t j = 0; j < nb; j++) {
        const ptx_insn *in = &m->insns[pcs[j]];
        uint32_t lj = latency(in), due = UINT32_MAX;
        rel[j] = 0;
        if (lj >= S->long_lat || (ptx_ops[in->op].flags & (PTX_F_LOAD | PTX_F_STORE | PTX_F_ATOMIC))) continue;
        for (uint32_t k = S->eoff[j]; k < S->eoff[j + 1]; k++) /* reads of its results */
            if (sorted[k].lat == lj && S->earliest[sorted[k].to] < due) due = S->earliest[sorted[k].to];
        if (due != UINT32_MAX && due > lj + PTX_SCHED_SLACK) rel[j] = due - lj - PTX_SCHED_SLACK;
    }
    for (uint32_t j = 0; j < nb; j++) S->earliest[j] = rel[j];
    for (uint32_t j = 0; j < nb; j++)
        if (!S->npred[j]) heap_push(&S->pend, ((uint64_t)rel[j] << 32) | j);
    for (uint32_t j = 0; j < nb; j++) S->done[j] = 0;
    uint64_t cycle = 0;
    uint32_t lo = 0;
    if (!window) window = 1;
    for (uint32_t done = 0; done < nb;) {
        while (S->pend.n && (S->pend.a[0] >> 32) <= cycle) {
            uint32_t t = (uint32_t)(heap_pop(&S->pend) & 0xffffffffu);
            heap_push(latency(&m->insns[pcs[t]]) >= S->long_lat ? &S->avail_long : &S->avail, t);
        }
        heap64 *h = S->avail_long.n && S->avail_long.a[0] < (uint64_t)lo + window ? &S->avail_long : &S->avail;
        if (!h->n || h->a[0] >= (uint64_t)lo + window) {
            cycle = S->pend.n && (S->pend.a[0] >> 32) > cycle ? S->pend.a[0] >> 32 : cycle + 1;
            continue;
        }
        uint32_t j = (uint32_t)heap_pop(h);
        S->order[done++] = j;
        S->done[j] = 1;
        while (lo < nb && S->done[lo]) lo++;
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

const uint32_t *ptx_sched_block(ptx_sched *S, uint32_t b, uint32_t window)
{
    const ptx_block *bl = &S->v->f->blocks[b];
    uint32_t nb = bl->end - bl->start;
    sched_room(S, nb);
    for (uint32_t j = 0; j < nb; j++) S->pcs[j] = bl->start + j;
    sched_seq(S, nb, window, false, false);
    for (uint32_t j = 0; j < nb; j++) S->order[j] = S->pcs[S->order[j]];
    return S->order;
}

uint32_t ptx_block_pressure(const ptx_rview *v, uint32_t b, const uint32_t *order, ptx_sset *live)
{
    const ptx_block *bl = &v->f->blocks[b];
    uint32_t nb = bl->end - bl->start, best = 0;
    ptx_sset_load(live, v->bout + (size_t)b * v->words, v->words, v->w);
    for (uint32_t j = nb; j-- > 0;) {
        uint32_t i = (order ? order[j] : bl->start + j) - v->s;
        uint32_t across = live->units;
        for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++)
            if (!ptx_sset_has(live, v->rows[q])) across += v->w[v->rows[q]];
        if (across > best) best = across;
        if (v->kill[i])
            for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++) ptx_sset_del(live, v->rows[q], v->w[v->rows[q]]);
        for (uint32_t q = v->off[3 * i + 1]; q < v->off[3 * i + 2]; q++) ptx_sset_add(live, v->rows[q], v->w[v->rows[q]]);
        uint32_t in_units = live->units;
        for (uint32_t q = v->off[3 * i + 2]; q < v->off[3 * i + 3]; q++)
            if (!ptx_sset_has(live, v->rows[q])) in_units += v->w[v->rows[q]];
        if (in_units > best) best = in_units;
    }
    return best;
}

uint32_t ptx_loop_pressure(ptx_sched *S, uint32_t b, uint32_t copies, uint32_t window)
{
    return ptx_range_pressure(S, b, b, copies, window);
}

uint32_t ptx_range_pressure(ptx_sched *S, uint32_t b, uint32_t e, uint32_t copies, uint32_t window)
{
    const ptx_rview *v = S->v;
    const uint32_t start = v->f->blocks[b].start, end = v->f->blocks[e].end;
    uint32_t nb = end - start, N = v->nrows, NONE = UINT32_MAX;
    if (!nb || !copies) return 0;
    /* the copies one after the other, the back branch only at the end; an
    ** induction step (add/sub r, r, imm, r defined nowhere else in the loop)
    ** only in the last copy: the others address through immediate offsets */
    uint8_t *step = tp_calloc(nb + 1, 1);
    uint32_t *ndef = tp_calloc(N + 1, sizeof *ndef);
    for (uint32_t j = 0; j < nb; j++) {
        uint32_t i = start + j - v->s;
        for (uint32_t q = v->off[3 * i]; q < v->off[3 * i + 1]; q++) ndef[v->rows[q]]++;
    }
    for (uint32_t j = 0; j + 1 < nb; j++) {
        const ptx_insn *in = &v->m->insns[start + j];
        if ((in->op == PTX_OP_ADD || in->op == PTX_OP_SUB) && in->guard < 0 && in->nopnd == 3 &&
            in->o[0].kind == PTX_OK_REG && in->o[1].kind == PTX_OK_REG && in->o[0].r == in->o[1].r &&
            in->o[2].kind == PTX_OK_IMM && in->o[0].r >= 0 && (uint32_t)in->o[0].r < N && ndef[in->o[0].r] == 1)
            step[j] = 1;
    }
    /* and a value that is the step's register plus an immediate, shifted or
    ** scaled by one, or plus a value the loop does not change (an address)
    ** only in the first copy: ptxas reads the first copy's with an offset */
    uint8_t *kind = tp_calloc(N + 1, 1); /* 1 step, 2 such a value */
    uint64_t *bin = tp_calloc(v->words + 1, sizeof *bin); /* live into a block of the range */
    uint64_t *out = tp_calloc(v->words + 1, sizeof *out);   /* ... out of one */
    for (uint32_t x = b; x <= e; x++)
        for (uint32_t w = 0; w < v->words; w++) {
            bin[w] |= v->bin[(size_t)x * v->words + w];
            out[w] |= v->bout[(size_t)x * v->words + w];
        }
    /* the range's branches but its last (exits, taken out by unrolling) are left out */
    uint8_t *skip = tp_calloc(nb + 1, 1);
    for (uint32_t j = 0; j + 1 < nb; j++) skip[j] = (ptx_ops[v->m->insns[start + j].op].flags & PTX_F_BRANCH) != 0;
    for (uint32_t j = 0; j + 1 < nb; j++)
        if (step[j]) kind[v->m->insns[start + j].o[0].r] = 1;
    for (uint32_t j = 0; j + 1 < nb; j++) {
        const ptx_insn *in = &v->m->insns[start + j];
        uint16_t op = in->op;
        if (step[j] || in->guard >= 0 || in->ndst != 1 || in->o[0].kind != PTX_OK_REG || in->o[0].r < 0 ||
            (uint32_t)in->o[0].r >= N || ndef[in->o[0].r] != 1 || ptx_bit_has(bin, (uint32_t)in->o[0].r))
            continue;
        if (op != PTX_OP_ADD && op != PTX_OP_SUB && op != PTX_OP_SHL && op != PTX_OP_MUL && op != PTX_OP_CVT &&
            op != PTX_OP_MOV)
            continue;
        if (ptx_type_is_float((ptx_type)in->type)) continue;
        uint32_t moving = 0, fixed = 0, imm = 0;
        bool ok = true;
        for (uint32_t q = 1; q < in->nopnd && q < PTX_MAX_OPND; q++) {
            const ptx_opnd *o = &in->o[q];
            if (o->kind == PTX_OK_IMM) imm++;
            else if (o->kind == PTX_OK_REG && o->r >= 0 && (uint32_t)o->r < N && kind[o->r]) moving++;
            else if (o->kind == PTX_OK_REG && o->r >= 0 && (uint32_t)o->r < N && !ndef[o->r]) fixed++;
            else ok = false;
        }
        if (!ok || moving != 1) continue;
        if ((op == PTX_OP_SHL || op == PTX_OP_MUL) && imm != 1) continue;
        kind[in->o[0].r] = 2;
    }
    /* which copies hold body instruction j: a step only the last, a value
    ** of the second kind only the first, a branch none; and per stepped row
    ** its step (by, at) */
    uint8_t *in_copy = tp_calloc(nb + 1, 1); /* 1 every copy, 2 the first, 3 the last, 0 none */
    int64_t *by = tp_calloc(N + 1, sizeof *by);
    uint32_t *at = tp_calloc(N + 1, sizeof *at);
    for (uint32_t j = 0; j + 1 < nb; j++) {
        const ptx_insn *in = &v->m->insns[start + j];
        bool aff = !step[j] && in->ndst == 1 && in->o[0].kind == PTX_OK_REG && in->o[0].r >= 0 &&
                   (uint32_t)in->o[0].r < N && kind[in->o[0].r] == 2;
        in_copy[j] = skip[j] ? 0 : step[j] ? 3 : aff ? 2 : 1;
        if (step[j]) {
            by[in->o[0].r] = in->op == PTX_OP_SUB ? -in->o[2].imm : in->o[2].imm;
            at[in->o[0].r] = j;
        }
    }
#define IN_COPY(j, c) (in_copy[j] == 1 || (in_copy[j] == 2 && (c) == 0) || (in_copy[j] == 3 && (c) + 1 == copies))
    uint32_t n = 1, k = 0;
    for (uint32_t c = 0; c < copies; c++)
        for (uint32_t j = 0; j + 1 < nb; j++) n += IN_COPY(j, c);
    sched_room(S, n);
    for (uint32_t c = 0; c < copies; c++)
        for (uint32_t j = 0; j + 1 < nb; j++) {
            if (!IN_COPY(j, c)) continue;
            /* an access through a stepped register: copy c reads it c steps
            ** on (one more after the step) */
            const ptx_insn *in = &v->m->insns[start + j];
            S->aoff[k] = INT64_MIN; /* (an address not compared) */
            for (uint32_t q = 0; q < in->nopnd && q < PTX_MAX_OPND; q++) {
                const ptx_opnd *o = &in->o[q];
                if (o->kind != PTX_OK_ADDR || o->base != PTX_AB_REG || o->r < 0 || (uint32_t)o->r >= N) continue;
                if (!ndef[o->r]) S->aoff[k] = 0; /* a base the loop does not change */
                if (kind[o->r] == 1) S->aoff[k] = by[o->r] * (int64_t)(c + (j > at[o->r]));
            }
            S->pcs[k++] = start + j;
        }
#undef IN_COPY
    free(in_copy);
    free(by);
    free(at);
    S->aoff[k] = 0;
    S->pcs[k++] = end - 1;
    free(kind);
    free(step);
    free(ndef);
    free(skip);
    free(bin);
    sched_seq(S, n, window, true, true);
    uint32_t *pos = tp_malloc((n + 1) * sizeof *pos);
    for (uint32_t t = 0; t < n; t++) pos[S->order[t]] = t;
    /* values: one per definition, one per row read before any (live in);
    ** each lives from its definition (-1: the start) to its last read, or to
    ** the end (n) when it is the row's last value and the row is live out */
    uint32_t *cur = tp_malloc((N + 1) * sizeof *cur);
    for (uint32_t r = 0; r < N; r++) cur[r] = NONE;
    TP_VEC(int64_t) from = {0}, to = {0};
    TP_VEC(uint32_t) wv = {0};
    int64_t *pts = tp_calloc(n + 1, sizeof *pts); /* points: live into their instruction only */
#define NEWV(st, w_) do { tp_vec_push(&from, (int64_t)(st)); tp_vec_push(&to, (int64_t)(st)); tp_vec_push(&wv, (uint32_t)(w_)); } while (0)
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = S->pcs[k] - v->s, t = pos[k];
        uint32_t d0 = v->off[3 * i], d1 = v->off[3 * i + 1], u1 = v->off[3 * i + 2], p1 = v->off[3 * i + 3];
        for (uint32_t q = d1; q < p1; q++) {
            uint32_t r = v->rows[q];
            if (q >= u1) { pts[t] += v->w[r]; continue; }
            if (cur[r] == NONE) { cur[r] = from.n; NEWV(-1, v->w[r]); }
            if (to.a[cur[r]] < (int64_t)t) to.a[cur[r]] = t;
        }
        for (uint32_t q = d0; q < d1; q++) {
            uint32_t r = v->rows[q];
            if (!v->kill[i] && cur[r] != NONE && to.a[cur[r]] < (int64_t)t) to.a[cur[r]] = t; /* guarded: the old value may stay */
            cur[r] = from.n;
            NEWV(t, v->w[r]);
        }
    }
#undef NEWV
    uint32_t base = 0;
    for (uint32_t r = 0; r < N; r++) {
        if (!ptx_bit_has(out, r)) continue;
        if (cur[r] == NONE) base += v->w[r]; /* live through, untouched */
        else to.a[cur[r]] = n;
    }
    /* before t: values with from < t <= to; after t: from <= t < to, or defined at t */
    int64_t *din = tp_calloc(n + 2, sizeof *din), *dout = tp_calloc(n + 2, sizeof *dout);
    for (uint32_t x = 0; x < from.n; x++) {
        int64_t a = from.a[x], e = to.a[x], last = (int64_t)n - 1;
        int64_t ilo = a + 1, ihi = e < last ? e : last;
        if (ilo <= ihi) { din[ilo] += wv.a[x]; din[ihi + 1] -= wv.a[x]; }
        int64_t olo = a < 0 ? 0 : a, ohi = e >= (int64_t)n ? last : (e - 1 > a ? e - 1 : a);
        if (olo <= ohi) { dout[olo] += wv.a[x]; dout[ohi + 1] -= wv.a[x]; }
    }
    int64_t ci = 0, co = 0, best = 0;
    for (uint32_t t = 0; t < n; t++) {
        ci += din[t];
        co += dout[t];
        if (ci + pts[t] > best) best = ci + pts[t];
        if (co > best) best = co;
    }
    free(din);
    free(dout);
    free(pts);
    free(cur);
    free(out);
    free(pos);
    tp_vec_free(&from);
    tp_vec_free(&to);
    tp_vec_free(&wv);
    return (uint32_t)best + base;
}
