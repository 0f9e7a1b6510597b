/*
** lower.c -- the code tpsim's register count describes, and the code exec/
** runs over physical registers (regs.physical=1): a parsed module scheduled,
** with its constant-bank values re-created at their uses, spilled under a
** forced maximum, and allocated.  ptx.h (ptx_lower) states the contract;
** docs/REGISTERS.md the model.
**
** One function at a time, in pc order, appended to the new module's
** instruction array (so the function being worked on is always the last one
** there and may be re-emitted in place):
**   1. schedule: each block list-scheduled (sched.c) with the widest window
**      that keeps its pressure (PTX_LIVE_ALLOC view, plus the kernel
**      reserve) within the cap (block_cap: 64 for a block that stores
**      nothing, 44 otherwise; program order when none does); a one-block
**      loop ptxas would unroll (loop_trips) makes the count cover its
**      unrolled copies (ptx_loop_pressure, ptx_func.ra_unroll);
**   2. constants: the rows the ALLOC view re-creates (live.c: kernel
**      parameters, immediates, addresses, uniform values) become
**      constant-bank rows (ptx_func.ra_cb); each use an instruction cannot
**      read as an operand (a "point") gets a copy into a fresh row right
**      before it, except a folded address's (ptx_func.ra_fold: the access
**      reads its base register plus an immediate);
**   3. allocate (ptx_ra_color); while the registers used plus the kernel
**      reserve exceed the function's limit, spill rows live where the
**      pressure is highest (most over-limit instructions per occurrence)
**      and allocate again;
**   4. finally every function's count (ptx_regalloc: calls, reserve).
** With ptx_lower_opts.ifconvert, step 1 works on a copy of the module whose
** short guarded bodies ptx_ifconvert has predicated (ifconv.c); the
** branches it removed are not emitted.
** Branch targets are remapped to the new positions of their blocks (a
** block's first emitted instruction, copies and spill loads included).
*/
#include "parse_int.h"
#include "live_int.h"
#include <stdio.h>
#include <stdlib.h>

enum {
    LW_SCHED_CAP = 44,  /* the schedule keeps a block that stores within this many registers
                           (reserve included): of 32, 40, 44 and 48 the cap that puts tpsim
                           nearest ptxas on the suites' kernels without the repository's
                           getting worse (docs/REGISTERS.md) */
    LW_LOAD_CAP = 64,   /* ... of a block that does not store, or stores only to spaces it
                           does not load from (block_cap) */
    LW_RESERVED = PTX_RA_RESERVED, /* what a kernel's count adds to its values */
    LW_MAX_ROUNDS = 64, /* spill rounds before giving up on fitting */
    LW_UNROLL_CAP = 64, /* an unrolled loop's schedule keeps its pressure (reserve included) within this */
    LW_UNROLL_SIZE = 256, /* a loop with a constant trip count is unrolled up to this many instructions */
    LW_UNROLL_MAX = 16, /* ... and at most this many times; other loops 4 times */
    LW_UNROLL_BODY = 32, /* loops of more instructions are not unrolled */
    LW_UNROLL_RANGE = 128, /* ... of several blocks */
};

typedef TP_VEC(ptx_insn) insnvec;
typedef TP_VEC(ptx_reg) regvec;
typedef TP_VEC(uint8_t) u8vec;
typedef TP_VEC(uint32_t) u32vec;

typedef struct lw {
    const ptx_module *src;
    ptx_modx *mx;
    ptx_module *m;
    insnvec ins;
    const ptx_lower_opts *o;
    tp_err *e;
    /* the function being lowered */
    regvec regs;
    u8vec cb, nospill, zero;
    u32vec fold;              /* per row: ptx_func.ra_fold */
    uint32_t *newpos;         /* per pc of the function being (re-)emitted: its new pc */
    uint32_t *spc;            /* per source pc of the module: the new pc of its block (labels) */
    uint32_t fs, fe;          /* the source function's range */
    uint32_t ncopies, ntemps; /* names of new rows */
    int32_t spill_var;        /* index of __tpsim_spill in the function's vars, -1 none */
    uint32_t spill_base, spill_bytes;
    int32_t *slot;            /* per row: byte offset of its spill slot, -1 */
    uint32_t spilled_units;
} lw;

/* The call sites of the lowered code's instructions (ptx_module.inlined_at),
** parallel to its insns: each new instruction keeps the PTX line of the
** source instruction it comes from (blank), and the source's are in line
** order, so the source instruction is found by its line.  NULL when the
** source has none. */
static ptx_srcloc *lowered_calls(const ptx_module *src, ptx_module *m)
{
    if (!src->inlined_at || !m->ninsns) return NULL;
    ptx_srcloc *at = tp_arena_alloc(&m->arena, m->ninsns * sizeof *at);
    for (uint32_t i = 0; i < m->ninsns; i++) {
        uint32_t lo = 0, hi = src->ninsns; /* the first source instruction at or after the line */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (src->insns[mid].line < m->insns[i].line) lo = mid + 1;
            else hi = mid;
        }
        if (lo < src->ninsns && src->insns[lo].line == m->insns[i].line) at[i] = src->inlined_at[lo];
        else memset(&at[i], 0, sizeof at[i]);
    }
    return at;
}

static void sync_insns(lw *L)
{
    L->m->insns = L->ins.a;
    L->m->ninsns = L->ins.n;
}

/* ---- register occurrences, as pointers to rewrite ------------------------------ */

typedef struct oref { int32_t *r; uint8_t kind; } oref;

/* The register operands of in, in ptx_insn_regs' order, as pointers to their
** row fields (vector and call elements in the module's operand pool). */
static uint32_t orefs(ptx_module *m, ptx_insn *in, oref *out, uint32_t cap)
{
    uint32_t n = 0;
#define PUT(p, k) do { if (n < cap) out[n] = (oref){p, k}; n++; } while (0)
    for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++) {
        ptx_opnd *o = &in->o[k];
        bool dst = k < in->ndst;
        switch (o->kind) {
        case PTX_OK_REG: PUT(&o->r, dst ? PTX_RO_DEF : PTX_RO_SRC); break;
        case PTX_OK_ADDR:
            if (o->base == PTX_AB_REG) PUT(&o->r, PTX_RO_ADDR);
            break;
        case PTX_OK_VEC:
        case PTX_OK_CALL:
            if (o->r < 0 || (uint32_t)o->r + o->n > m->npool) break;
            for (uint32_t j = 0; j < o->n; j++) {
                ptx_opnd *e = &m->pool[o->r + j];
                bool d = o->kind == PTX_OK_CALL ? (int64_t)j < o->imm : dst;
                if (e->kind == PTX_OK_REG) PUT(&e->r, d ? PTX_RO_DEF : PTX_RO_OTHER);
                else if (e->kind == PTX_OK_ADDR && e->base == PTX_AB_REG) PUT(&e->r, PTX_RO_ADDR);
            }
            break;
        default: break;
        }
    }
#undef PUT
    return n < cap ? n : cap;
}

/* Rewrites label operands through map (source pc -> new pc). */
static void remap_labels(ptx_module *m, ptx_insn *in, uint32_t lo, uint32_t hi, const uint32_t *map)
{
    for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++) {
        ptx_opnd *o = &in->o[k];
        if (o->kind == PTX_OK_LABEL && o->r >= 0 && (uint32_t)o->r >= lo && (uint32_t)o->r < hi)
            o->r = (int32_t)map[o->r - lo];
        if (o->kind == PTX_OK_VEC && o->r >= 0 && (uint32_t)o->r + o->n <= m->npool)
            for (uint32_t j = 0; j < o->n; j++) {
                ptx_opnd *e = &m->pool[o->r + j];
                if (e->kind == PTX_OK_LABEL && e->r >= 0 && (uint32_t)e->r >= lo && (uint32_t)e->r < hi)
                    e->r = (int32_t)map[e->r - lo];
            }
    }
}

static uint8_t bits_type(uint32_t size)
{
    return size <= 1 ? PTX_T_B8 : size == 2 ? PTX_T_B16 : size <= 4 ? PTX_T_B32 : PTX_T_B64;
}

static uint32_t new_row(lw *L, uint32_t like, const char *kind, uint32_t *counter)
{
    char name[48];
    snprintf(name, sizeof name, "%%tpsim_%s%u", kind, (*counter)++);
    ptx_reg r = L->regs.a[like];
    r.name = tp_arena_strdup(&L->m->arena, name);
    r.cont = 0;
    tp_vec_push(&L->regs, r);
    tp_vec_push(&L->cb, 0);
    tp_vec_push(&L->nospill, 1);
    tp_vec_push(&L->zero, 0);
    tp_vec_push(&L->fold, 0);
    return L->regs.n - 1;
}

static void emit(lw *L, const ptx_insn *in)
{
    tp_vec_push(&L->ins, *in);
}

/* A plain instruction at the position of `at` (for error messages and .loc). */
static ptx_insn blank(const ptx_insn *at, uint16_t op, uint8_t type)
{
    ptx_insn x;
    memset(&x, 0, sizeof x);
    x.op = op;
    x.type = type;
    x.guard = -1;
    x.line = at->line;
    x.col = at->col;
    x.srcfile = at->srcfile;
    x.srcline = at->srcline;
    return x;
}

/* ---- 1-2: schedule, constants ----------------------------------------------- */

/* Whether in can read one constant-bank (or immediate) operand in place of a
** register (live.c reads_constant: the same rule). */
static bool reads_constant(const ptx_insn *in)
{
    unsigned u = ptx_ops[in->op].unit;
    return (u == PTX_UNIT_ARITH || u == PTX_UNIT_INT || u == PTX_UNIT_SFU) && !(ptx_ops[in->op].flags & PTX_F_WARP);
}

/* Emits source instruction pc (already copied into *in) with copies for its
** point uses of constant-bank rows, as the ALLOC view counts them. */
static void emit_with_points(lw *L, ptx_insn *in)
{
    oref rf[PTX_MAX_OPND * 64];
    uint32_t n = orefs(L->m, in, rf, TP_ARRAY_LEN(rf));
    bool cbfree = reads_constant(in);
    uint32_t from[PTX_MAX_OPND * 4], to[PTX_MAX_OPND * 4], nc = 0;
    bool gone = false; /* an instruction defining a constant-bank row uses nothing itself */
    for (uint32_t j = 0; j < n; j++)
        if (rf[j].kind == PTX_RO_DEF && *rf[j].r >= 0 && (uint32_t)*rf[j].r < L->regs.n && L->cb.a[*rf[j].r])
            gone = true;
    for (uint32_t j = 0; j < n && !gone; j++) {
        if (rf[j].kind == PTX_RO_DEF) continue;
        int32_t r = *rf[j].r;
        if (r < 0 || (uint32_t)r >= L->regs.n || !L->cb.a[r]) continue;
        if (L->zero.a[r] && rf[j].kind != PTX_RO_ADDR) continue; /* RZ */
        if (L->fold.a[r]) continue; /* [x+imm]: x is in a register */
        if (rf[j].kind == PTX_RO_ADDR && ptx_local_access(in)) continue; /* [R1+imm]: a local array's start */
        if (cbfree && rf[j].kind == PTX_RO_SRC) {
            cbfree = false; /* the one constant operand */
            continue;
        }
        uint32_t k = 0;
        while (k < nc && from[k] != (uint32_t)r) k++;
        if (k == nc) {
            if (nc == TP_ARRAY_LEN(from)) continue;
            from[nc] = (uint32_t)r;
            to[nc] = new_row(L, (uint32_t)r, "c", &L->ncopies);
            uint32_t size = ptx_type_size((ptx_type)L->regs.a[r].type);
            ptx_insn mv = blank(in, PTX_OP_MOV, bits_type(size));
            mv.nopnd = 2;
            mv.ndst = 1;
            mv.o[0].kind = PTX_OK_REG;
            mv.o[0].r = (int32_t)to[nc];
            mv.o[1].kind = PTX_OK_REG;
            mv.o[1].r = r;
            emit(L, &mv);
            nc++;
        }
        *rf[j].r = (int32_t)to[k];
    }
    emit(L, in);
}

/* Marks the constant-bank rows of f (the ALLOC view's re-created rows) and
** which of them are zero. */
static void mark_constants(lw *L, const ptx_rview *v)
{
    const ptx_func *f = v->f;
    for (uint32_t r = 0; r < f->nrows; r++) {
        L->cb.a[r] = v->remat[r];
        L->fold.a[r] = v->fold[r];
    }
    for (uint32_t pc = f->start; pc < f->end; pc++) {
        const ptx_insn *in = &L->src->insns[pc];
        if (in->ndst != 1 || in->nopnd != 2 || in->o[0].kind != PTX_OK_REG) continue;
        int32_t d = in->o[0].r;
        if (d < 0 || (uint32_t)d >= f->nrows || !L->cb.a[d]) continue;
        const ptx_opnd *s = &in->o[1];
        if (in->op == PTX_OP_MOV && s->kind == PTX_OK_IMM && s->imm == 0) L->zero.a[d] = 1;
        if ((in->op == PTX_OP_MOV || in->op == PTX_OP_CVTA) && s->kind == PTX_OK_REG && s->r >= 0 &&
            (uint32_t)s->r < f->nrows && L->zero.a[s->r])
            L->zero.a[d] = 1;
    }
}

/* The most registers per thread with which a full SM of warps fits the
** register file on target sm_XX (older targets as sm_75: the count models
** ptxas for sm_75): 65536 registers over the most resident warps (CUDA
** Programming Guide, compute capabilities: 32 warps on 7.5, 64 on 8.0 and
** 9.0, 48 on 8.6, 8.7, 8.9 and 12.x) in steps of 8 (256 per warp).  ptxas's
** scheduler stops hoisting there: 40 global loads summed (test_lower.c's
** sum_block) use 63, 31, 38, 38 and 30 registers for sm_75, 80, 86, 89 and
** 90 (ptxas -v, CUDA 13.0). */
static uint32_t full_occupancy(uint32_t sm)
{
    uint32_t warps = sm <= 75 ? 32 : sm == 80 || (sm >= 90 && sm < 120 && sm != 101) ? 64 : 48;
    return 65536 / (warps * 32) / 8 * 8;
}

static uint32_t func_limit(const lw *L, const ptx_func *f)
{
    uint32_t max = L->o->max_regs ? L->o->max_regs : 255;
    if (L->o->force_max && L->o->force_max < max) max = L->o->force_max;
    return ptx_regalloc_limit(f, max, L->o->regs_per_sm, L->o->alloc_unit);
}

/* Whether block b of f is a loop of one block: its last instruction a branch
** back to its first. */
static bool self_loop(const ptx_module *m, const ptx_func *f, uint32_t b)
{
    const ptx_block *bl = &f->blocks[b];
    const ptx_insn *in = &m->insns[bl->end - 1];
    if (!(ptx_ops[in->op].flags & PTX_F_BRANCH)) return false;
    for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++)
        if (in->o[k].kind == PTX_OK_LABEL && in->o[k].r == (int32_t)bl->start) return true;
    return false;
}

/* Whether every access of code [start, end) to a state space it stores to goes
** through one base register (plus an immediate) that the code changes at
** most by adding an immediate: then ptxas can tell which of its unrolled
** copies' accesses overlap (ptx_range_pressure compares them). */
static bool one_base(const ptx_module *m, uint32_t start, uint32_t end)
{
    unsigned ssp = 0;
    for (uint32_t pc = start; pc < end; pc++)
        if (ptx_ops[m->insns[pc].op].flags & PTX_F_STORE) ssp |= 1u << m->insns[pc].m.space;
    if (ssp & (1u << PTX_SP_GENERIC)) return false;
    int32_t base = -1;
    for (uint32_t pc = start; pc < end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        if (!(ptx_ops[in->op].flags & (PTX_F_LOAD | PTX_F_STORE))) continue;
        if (!(ssp & (1u << in->m.space)) && in->m.space != PTX_SP_GENERIC) continue;
        int32_t r = -1;
        for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++)
            if (in->o[k].kind == PTX_OK_ADDR) r = in->o[k].base == PTX_AB_REG ? in->o[k].r : -2;
        if (r < 0 || (base >= 0 && r != base)) return false;
        base = r;
    }
    /* the base: not written in the block, or only by one add/sub of an immediate */
    unsigned writes = 0;
    for (uint32_t pc = start; pc < end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        for (uint32_t k = 0; k < in->ndst && k < PTX_MAX_OPND; k++) {
            if (in->o[k].kind != PTX_OK_REG || in->o[k].r != base) continue;
            if ((in->op != PTX_OP_ADD && in->op != PTX_OP_SUB) || in->guard >= 0 || in->nopnd != 3 ||
                in->o[1].kind != PTX_OK_REG || in->o[1].r != base || in->o[2].kind != PTX_OK_IMM)
                return false;
            writes++;
        }
    }
    return writes <= 1;
}

/* Whether block e ends a loop of several blocks laid out one after the
** other, lb (set) .. e: e's last instruction a branch back to lb's first,
** every other branch in them leaving the loop. */
static bool range_loop(const ptx_module *m, const ptx_func *f, uint32_t e, uint32_t *lb)
{
    const ptx_block *be = &f->blocks[e];
    const ptx_insn *in = &m->insns[be->end - 1];
    if (!(ptx_ops[in->op].flags & PTX_F_BRANCH)) return false;
    int32_t to = -1;
    for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++)
        if (in->o[k].kind == PTX_OK_LABEL) to = in->o[k].r;
    if (to < 0 || (uint32_t)to >= be->start) return false;
    uint32_t b = e;
    while (b > 0 && f->blocks[b].start > (uint32_t)to) b--;
    if (f->blocks[b].start != (uint32_t)to) return false;
    for (uint32_t pc = (uint32_t)to; pc + 1 < be->end; pc++) {
        const ptx_insn *x = &m->insns[pc];
        unsigned fl = ptx_ops[x->op].flags;
        if (fl & PTX_F_CALL) return false;
        if (!(fl & PTX_F_BRANCH)) continue;
        for (uint32_t k = 0; k < x->nopnd && k < PTX_MAX_OPND; k++)
            if (x->o[k].kind == PTX_OK_LABEL && x->o[k].r >= to && (uint32_t)x->o[k].r < be->end) return false;
    }
    *lb = b;
    return true;
}

/* How the loop of blocks b..e (b == e: one block) counts its trips: 0 not
** known before it runs (ptxas does not unroll it: a grid-stride loop, a
** search with several ways out), or a loop that stores other than through
** one base register (one_base: its copies could not overlap, unrolled or
** not the same), or that loads nothing (no latency to hide); 1 known when
** it starts (the branch that ends it -- its back branch, or the one exit of
** a rotated loop whose back branch is unconditional -- guarded by a
** comparison of a register stepped by an immediate in the loop, and defined
** nowhere else in it, with an immediate or a register the loop does not
** write); 2 known when compiled (the compared register set to immediates
** outside the loop and compared with an immediate). */
static int loop_trips(const ptx_module *m, const ptx_func *f, uint32_t b, uint32_t e, uint32_t *count)
{
    *count = UINT32_MAX;
    const uint32_t start = f->blocks[b].start, end = f->blocks[e].end;
    /* the branch that ends the loop: the back branch, or (a rotated loop of
    ** several blocks, its back branch unconditional) its one exit */
    uint32_t brpc = end - 1;
    bool back = m->insns[brpc].guard >= 0;
    for (uint32_t pc = start; pc + 1 < end; pc++) {
        if (!(ptx_ops[m->insns[pc].op].flags & PTX_F_BRANCH)) continue;
        if (back || m->insns[pc].guard < 0 || brpc != end - 1) return 0; /* more than one way out */
        brpc = pc;
    }
    const ptx_insn *br = &m->insns[brpc];
    if (br->guard < 0) return 0;
    const ptx_insn *cmp = NULL;
    bool loads = false;
    for (uint32_t pc = start; pc < end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        if (ptx_ops[in->op].flags & PTX_F_ATOMIC) return 0;
        if ((ptx_ops[in->op].flags & PTX_F_STORE) && !one_base(m, start, end))
            return 0; /* its copies could not overlap: unrolled or not, the same */
        if ((ptx_ops[in->op].flags & PTX_F_LOAD) && in->m.space != PTX_SP_PARAM && in->m.space != PTX_SP_PARAM_ENTRY)
            loads = true;
    }
    if (!loads) return 0; /* nothing to overlap */
    for (uint32_t pc = brpc; pc-- > start && !cmp;) {
        const ptx_insn *in = &m->insns[pc];
        if (in->ndst >= 1 && in->o[0].kind == PTX_OK_PRED && in->o[0].r == br->guard) cmp = in;
    }
    if (!cmp || cmp->op != PTX_OP_SETP || cmp->nopnd < 3) return 0;
    bool imm = false;
    int32_t ctr = -1, other = -1;
    int64_t bound = 0, step = 0, ilo = INT64_MAX, ihi = INT64_MIN;
    for (int k = 1; k <= 2; k++) {
        const ptx_opnd *o = &cmp->o[k], *x = &cmp->o[3 - k];
        if (o->kind != PTX_OK_REG) continue;
        if (x->kind == PTX_OK_IMM) { ctr = o->r; imm = true; bound = x->imm; break; }
        if (x->kind == PTX_OK_REG) {
            /* the one of the two the loop steps */
            bool stepped = false;
            for (uint32_t pc = start; pc < end; pc++) {
                const ptx_insn *in = &m->insns[pc];
                if (in->ndst == 1 && in->o[0].kind == PTX_OK_REG && in->o[0].r == o->r) stepped = true;
            }
            if (stepped) { ctr = o->r; other = x->r; break; }
        }
    }
    if (ctr < 0) return 0;
    bool stepped = false, init = true;
    for (uint32_t pc = f->start; pc < f->end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        bool inside = pc >= start && pc < end;
        for (uint32_t k = 0; k < in->ndst && k < PTX_MAX_OPND; k++) {
            if (in->o[k].kind != PTX_OK_REG) continue;
            if (inside && other >= 0 && in->o[k].r == other) return 0;
            if (in->o[k].r != ctr) continue;
            if (!inside) {
                init &= in->op == PTX_OP_MOV && in->nopnd == 2 && in->o[1].kind == PTX_OK_IMM;
                if (init && in->o[1].imm < ilo) ilo = in->o[1].imm;
                if (init && in->o[1].imm > ihi) ihi = in->o[1].imm;
                continue;
            }
            if (stepped || in->guard >= 0 || (in->op != PTX_OP_ADD && in->op != PTX_OP_SUB) || in->nopnd != 3 ||
                in->o[1].kind != PTX_OK_REG || in->o[1].r != ctr || in->o[2].kind != PTX_OK_IMM)
                return 0;
            stepped = true;
            step = in->op == PTX_OP_SUB ? -in->o[2].imm : in->o[2].imm;
        }
    }
    if (!stepped) return 0;
    if (!(imm && init)) return 1;
    /* the trips: from the farthest start to the bound, when the step goes that way */
    if (ilo <= ihi && step != 0) {
        int64_t from = step > 0 ? ilo : ihi, d = bound - from;
        if ((d > 0) == (step > 0) && d != 0 && d / step < UINT32_MAX) {
            int64_t a = d < 0 ? -d : d, st = step < 0 ? -step : step;
            *count = (uint32_t)((a + st - 1) / st);
        }
    }
    return 2;
}

/* Whether a load of block bl comes after an instruction that reads a value
** loaded earlier in the block (in program order, work on a load's value
** stands before a later load: there is a load to hoist). */
static bool waits_on_load(const ptx_module *m, const ptx_block *bl)
{
    int32_t loaded[64];
    uint32_t n = 0;
    bool reads = false;
    for (uint32_t pc = bl->start; pc < bl->end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        bool ld = in->op == PTX_OP_LD && in->m.space != PTX_SP_PARAM && in->m.space != PTX_SP_CONST;
        if (ld && reads) return true;
        for (uint32_t k = in->ndst; k < in->nopnd && k < PTX_MAX_OPND && !reads; k++)
            if (in->o[k].kind == PTX_OK_REG)
                for (uint32_t q = 0; q < n; q++) reads |= loaded[q] == in->o[k].r;
        if (ld && in->ndst >= 1 && in->o[0].kind == PTX_OK_REG && n < 64) loaded[n++] = in->o[0].r;
    }
    return false;
}

/* The pressure a block's schedule may reach (reserve included): ptxas
** hoists the loads of a block that stores nothing, or stores only to state
** spaces it does not load from, or stores only after its last load (below),
** up to LW_LOAD_CAP (sm_75 keeps its full 32 warps up to 64 registers),
** others to LW_SCHED_CAP. */
static uint32_t block_cap(const ptx_module *m, const ptx_block *bl, uint32_t limit)
{
    bool stores = false, atomic = false, load_after = false, shared_ld = false;
    unsigned lsp = 0, ssp = 0; /* state spaces loaded from (ld, not .param/.const) and stored to */
    for (uint32_t pc = bl->start; pc < bl->end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        unsigned f = ptx_ops[in->op].flags;
        if (f & PTX_F_ATOMIC) atomic = true;
        if (f & PTX_F_STORE) {
            stores = true;
            ssp |= 1u << in->m.space;
        } else if (in->op == PTX_OP_LD && in->m.space != PTX_SP_PARAM && in->m.space != PTX_SP_CONST) {
            lsp |= 1u << in->m.space;
            load_after |= stores;
            shared_ld |= in->m.space == PTX_SP_SHARED;
        }
    }
    /* stores to spaces the block does not load from (no generic access, no
    ** atomic) cannot hold its loads back, nor stores after its last load
    ** where a load waits behind work on an earlier one's value (a result
    ** written at the end: ISPASS NN's first layer 45 -> 63, ptxas 64).  Not
    ** with shared-memory loads (Rodinia's rdwt97: ptxas 50, the load cap
    ** 61), nor where the loads already come first (the repository's
    ** dwt_cols: ptxas 44, the load cap 56, its store addresses moved up) */
    bool apart = lsp && !(lsp & ssp) && !((lsp | ssp) & (1u << PTX_SP_GENERIC));
    bool last = !load_after && !shared_ld && waits_on_load(m, bl);
    uint32_t cap = stores && (atomic || !(apart || last)) ? LW_SCHED_CAP : LW_LOAD_CAP;
    return limit < cap ? limit : cap;
}

/* Emits f (source) scheduled, with copies; fills g's range and rows. */
static bool emit_function(lw *L, const ptx_func *f, ptx_func *g)
{
    ptx_rview v;
    if (!ptx_rview_build(L->src, f, PTX_LIVE_ALLOC, &v, L->e)) return false;
    L->regs.n = L->cb.n = L->nospill.n = L->zero.n = L->fold.n = 0;
    for (uint32_t r = 0; r < f->nrows; r++) {
        tp_vec_push(&L->regs, f->regs[r]);
        tp_vec_push(&L->cb, 0);
        tp_vec_push(&L->nospill, 0);
        tp_vec_push(&L->zero, 0);
        tp_vec_push(&L->fold, 0);
    }
    mark_constants(L, &v);
    uint32_t reserve = f->is_entry ? LW_RESERVED : 0, limit = func_limit(L, f);
    uint32_t slimit = full_occupancy(L->src->target_sm); /* what the schedules keep within */
    if (slimit > limit) slimit = limit;
    ptx_sched *S = L->o->no_schedule ? NULL : ptx_sched_new(&v);
    ptx_sset live = {tp_malloc((v.nrows + 1) * sizeof(uint32_t)), tp_calloc(v.nrows + 1, sizeof(uint32_t)), 0, 0};
    uint32_t n = f->end - f->start;
    uint32_t *bstart = tp_malloc((f->nblocks + 1) * sizeof *bstart);
    uint32_t *bof = tp_malloc((n + 1) * sizeof *bof);
    L->newpos = tp_realloc(L->newpos, (n + 1) * sizeof *L->newpos);
    g->start = L->ins.n;
    g->ra_unroll = 0;
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const ptx_block *bl = &f->blocks[b];
        for (uint32_t pc = bl->start; pc < bl->end; pc++) bof[pc - f->start] = b;
        uint32_t nbi = bl->end - bl->start, lb = b, tripc;
        int trips;
        bool self = S && v.reach[b] && self_loop(L->src, f, b);
        bool ranged = S && v.reach[b] && !self && range_loop(L->src, f, b, &lb);
        if (ranged) nbi = bl->end - f->blocks[lb].start;
        if ((self || ranged) && nbi > 2 && nbi <= (ranged ? LW_UNROLL_RANGE : LW_UNROLL_BODY) &&
            !(L->src->insns[f->blocks[lb].start].hint & PTX_HINT_NOUNROLL) &&
            (trips = loop_trips(L->src, f, lb, b, &tripc))) {
            /* ptxas unrolls the loop and schedules the copies as one block:
            ** the count covers what that needs (the code stays as it is) */
            uint32_t copies = trips ? 4 : 1, ucap = slimit < LW_UNROLL_CAP ? slimit : LW_UNROLL_CAP;
            if (trips == 2)
                for (copies = LW_UNROLL_MAX; copies > 4 && copies * nbi > LW_UNROLL_SIZE; copies /= 2) {}
            if (copies > tripc) copies = tripc; /* (a loop of fewer trips: all of them) */
            uint32_t need = ptx_range_pressure(S, lb, b, copies, UINT32_MAX);
            if (need + reserve > ucap) {
                uint32_t lo = 1, hi = (nbi - 1) * copies + 1;
                while (hi - lo > 1) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (ptx_range_pressure(S, lb, b, copies, mid) + reserve > ucap) hi = mid;
                    else lo = mid;
                }
                need = ptx_range_pressure(S, lb, b, copies, lo);
            }
            if (need + reserve > ucap) need = ucap > reserve ? ucap - reserve : 0;
            if (need > g->ra_unroll) g->ra_unroll = need;
        }
        const uint32_t *ord = NULL; /* (S's buffer: scheduled last) */
        uint32_t cap = block_cap(L->src, bl, slimit);
        if (S && nbi > 2 && v.reach[b]) {
            /* the widest window whose schedule keeps the pressure within the cap */
            ord = ptx_sched_block(S, b, UINT32_MAX);
            if (ptx_block_pressure(&v, b, ord, &live) + reserve > cap) {
                uint32_t lo = 1, hi = nbi; /* lo fits (program order), hi does not */
                while (hi - lo > 1) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    ord = ptx_sched_block(S, b, mid);
                    if (ptx_block_pressure(&v, b, ord, &live) + reserve > cap) hi = mid;
                    else lo = mid;
                }
                ord = lo > 1 ? ptx_sched_block(S, b, lo) : NULL;
                if (ord && ptx_block_pressure(&v, b, ord, &live) + reserve > cap) ord = NULL;
            }
        }
        bstart[b] = L->ins.n;
        for (uint32_t j = 0; j < bl->end - bl->start; j++) {
            uint32_t pc = ord ? ord[j] : bl->start + j;
            ptx_insn in = L->src->insns[pc];
            L->newpos[pc - f->start] = L->ins.n;
            if (ptx_insn_gone(&in)) continue; /* a branch if-conversion removed */
            emit_with_points(L, &in);
        }
    }
    g->end = L->ins.n;
    /* branch targets: the new starts of their blocks */
    for (uint32_t pc = 0; pc < n; pc++) L->newpos[pc] = bstart[bof[pc]];
    for (uint32_t pc = g->start; pc < g->end; pc++) remap_labels(L->m, &L->ins.a[pc], f->start, f->end, L->newpos);
    L->fs = f->start;
    L->fe = f->end;
    for (uint32_t pc = 0; pc < n; pc++) L->spc[f->start + pc] = L->newpos[pc];
    free(bstart);
    free(bof);
    free(live.dense);
    free(live.pos);
    ptx_sched_free(S);
    ptx_rview_free(&v);
    return true;
}

/* Makes g's row tables from the lowering's vectors and builds its CFG. */
static bool finish_rows(lw *L, ptx_func *g)
{
    g->nrows = L->regs.n;
    g->regs = tp_arena_alloc(&L->m->arena, (g->nrows + 1) * sizeof *g->regs);
    if (g->nrows) memcpy(g->regs, L->regs.a, g->nrows * sizeof *g->regs);
    g->ra_cb = tp_arena_alloc(&L->m->arena, g->nrows + 1);
    g->ra_ncb = 0;
    for (uint32_t r = 0; r < g->nrows; r++) {
        g->ra_cb[r] = L->cb.a[r];
        g->ra_ncb += L->cb.a[r];
    }
    g->ra_fold = NULL;
    bool folds = false;
    for (uint32_t r = 0; r < g->nrows; r++) folds |= L->fold.a[r] != 0;
    if (folds) {
        g->ra_fold = tp_arena_alloc(&L->m->arena, (g->nrows + 1) * sizeof *g->ra_fold);
        memcpy(g->ra_fold, L->fold.a, g->nrows * sizeof *g->ra_fold);
    }
    g->ra_map = NULL;
    g->blocks = NULL;
    g->nblocks = 0;
    sync_insns(L);
    return ptx_cfg_build(L->m, g, L->e);
}

/* ---- 3: spilling ---------------------------------------------------------------- */

/* Gives row r a spill slot in g's __tpsim_spill array. */
static void give_slot(lw *L, ptx_func *g, uint32_t r)
{
    uint32_t size = ptx_row_units(g, r) * 4;
    if (L->spill_var < 0) {
        ptx_var *vars = tp_arena_alloc(&L->m->arena, (g->nvars + 1) * sizeof *vars);
        if (g->nvars) memcpy(vars, g->vars, g->nvars * sizeof *vars);
        ptx_var *sv = &vars[g->nvars];
        memset(sv, 0, sizeof *sv);
        sv->name = "__tpsim_spill";
        sv->space = PTX_SP_LOCAL;
        sv->type = PTX_T_B8;
        sv->align = 8;
        L->spill_base = (uint32_t)TP_ALIGN_UP(g->local_bytes, 8);
        sv->offset = L->spill_base;
        L->spill_var = (int32_t)g->nvars;
        g->vars = vars;
        g->nvars++;
    }
    L->spill_bytes = (uint32_t)TP_ALIGN_UP(L->spill_bytes, size);
    L->slot[r] = (int32_t)L->spill_bytes;
    L->spill_bytes += size;
    g->vars[L->spill_var].size = L->spill_bytes;
    g->local_bytes = L->spill_base + L->spill_bytes;
    L->spilled_units += size / 4;
}

static ptx_insn spill_access(lw *L, const ptx_insn *at, uint16_t op, uint32_t row, uint32_t size)
{
    ptx_insn x = blank(at, op, bits_type(size));
    x.m.space = PTX_SP_LOCAL;
    x.nopnd = 2;
    ptx_opnd reg = {0}, addr = {0};
    reg.kind = PTX_OK_REG;
    reg.r = (int32_t)row;
    addr.kind = PTX_OK_ADDR;
    addr.base = PTX_AB_SYM;
    addr.r = (int32_t)(PTX_SYM_FVAR | (uint32_t)L->spill_var);
    addr.imm = 0;
    if (op == PTX_OP_LD) {
        x.ndst = 1;
        x.o[0] = reg;
        x.o[1] = addr;
    } else {
        x.ndst = 0;
        x.o[0] = addr;
        x.o[1] = reg;
    }
    return x;
}

/* Re-emits g (the last function of the array) with loads before the uses and
** stores after the definitions of the rows that have slots. */
static bool rewrite_spills(lw *L, ptx_func *g)
{
    uint32_t n = g->end - g->start;
    ptx_insn *old = tp_malloc((n + 1) * sizeof *old);
    memcpy(old, L->ins.a + g->start, n * sizeof *old);
    uint32_t base = g->start;
    L->ins.n = g->start;
    L->newpos = tp_realloc(L->newpos, (n + 1) * sizeof *L->newpos);
    for (uint32_t i = 0; i < n; i++) {
        ptx_insn in = old[i];
        L->newpos[i] = L->ins.n;
        oref rf[PTX_MAX_OPND * 64];
        uint32_t k = orefs(L->m, &in, rf, TP_ARRAY_LEN(rf));
        uint32_t rows[16], temps[16], nr = 0;
        bool defs[16] = {0}, uses[16] = {0};
        for (uint32_t j = 0; j < k; j++) {
            int32_t r = *rf[j].r;
            if (r < 0 || (uint32_t)r >= L->regs.n || L->slot[r] < 0) continue;
            uint32_t q = 0;
            while (q < nr && rows[q] != (uint32_t)r) q++;
            if (q == nr) {
                if (nr == 16) continue;
                rows[nr] = (uint32_t)r;
                temps[nr] = new_row(L, (uint32_t)r, "s", &L->ntemps);
                L->slot = tp_realloc(L->slot, (L->regs.n + 1) * sizeof *L->slot);
                L->slot[temps[nr]] = -1;
                nr++;
            }
            if (rf[j].kind == PTX_RO_DEF) defs[q] = true;
            else uses[q] = true;
            *rf[j].r = (int32_t)temps[q];
        }
        for (uint32_t q = 0; q < nr; q++)
            if (uses[q] || (defs[q] && in.guard >= 0)) {
                uint32_t size = ptx_row_units(g, rows[q]) * 4;
                ptx_insn ld = spill_access(L, &in, PTX_OP_LD, temps[q], size);
                ld.o[1].imm = L->slot[rows[q]];
                emit(L, &ld);
            }
        emit(L, &in);
        for (uint32_t q = 0; q < nr; q++)
            if (defs[q]) {
                uint32_t size = ptx_row_units(g, rows[q]) * 4;
                ptx_insn st = spill_access(L, &in, PTX_OP_ST, temps[q], size);
                st.o[0].imm = L->slot[rows[q]];
                emit(L, &st);
            }
    }
    g->end = L->ins.n;
    for (uint32_t pc = g->start; pc < g->end; pc++) remap_labels(L->m, &L->ins.a[pc], base, base + n, L->newpos);
    for (uint32_t pc = L->fs; pc < L->fe; pc++) L->spc[pc] = L->newpos[L->spc[pc] - base];
    free(old);
    for (uint32_t r = 0; r < L->regs.n; r++)
        if (L->fold.a[r] && L->slot[L->fold.a[r] - 1] >= 0)
            L->fold.a[r] = 0; /* its base spilled: the address keeps its own (uncounted) row */
    return finish_rows(L, g);
}

/* Chooses rows to spill so that fewer than `over` units are live where the
** pressure is highest; false when nothing can be spilled. */
static bool choose_spills(lw *L, ptx_func *g, uint32_t target)
{
    ptx_rview v;
    if (!ptx_rview_build(L->m, g, PTX_LIVE_ALLOC, &v, L->e)) return false;
    uint32_t N = v.nrows;
    uint32_t *over = tp_calloc(N + 1, sizeof *over), *occ = tp_calloc(N + 1, sizeof *occ);
    uint64_t *worst = tp_calloc(v.words + 1, sizeof *worst);
    uint32_t worst_units = 0;
    ptx_sset live = {tp_malloc((N + 1) * sizeof(uint32_t)), tp_calloc(N + 1, sizeof(uint32_t)), 0, 0};
    for (uint32_t i = 0; i < v.n; i++)
        for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 2]; j++) occ[v.rows[j]]++;
    for (uint32_t b = 0; b < v.nb; b++) {
        if (!v.reach[b]) continue;
        const ptx_block *bl = &g->blocks[b];
        ptx_sset_load(&live, v.bout + (size_t)b * v.words, v.words, v.w);
        for (uint32_t pc = bl->end; pc-- > bl->start;) {
            uint32_t i = pc - v.s;
            /* after it: live-out and its definitions */
            uint32_t across = live.units;
            for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1]; j++)
                if (!ptx_sset_has(&live, v.rows[j])) across += v.w[v.rows[j]];
            if (across > target) {
                for (uint32_t q = 0; q < live.n; q++) over[live.dense[q]]++;
                for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1]; j++) over[v.rows[j]]++;
                if (across > worst_units) {
                    worst_units = across;
                    memset(worst, 0, v.words * sizeof *worst);
                    for (uint32_t q = 0; q < live.n; q++) ptx_bit_set(worst, live.dense[q]);
                    for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1]; j++) ptx_bit_set(worst, v.rows[j]);
                }
            }
            if (v.kill[i])
                for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1]; j++) ptx_sset_del(&live, v.rows[j], v.w[v.rows[j]]);
            for (uint32_t j = v.off[3 * i + 1]; j < v.off[3 * i + 2]; j++) ptx_sset_add(&live, v.rows[j], v.w[v.rows[j]]);
            if (live.units > target) {
                for (uint32_t q = 0; q < live.n; q++) over[live.dense[q]]++;
                if (live.units > worst_units) {
                    worst_units = live.units;
                    memset(worst, 0, v.words * sizeof *worst);
                    for (uint32_t q = 0; q < live.n; q++) ptx_bit_set(worst, live.dense[q]);
                }
            }
        }
    }
    /* rows live at the worst point, best ratio first, until it fits; if the
    ** pressure fits and only the coloring does not, one row */
    uint32_t need = worst_units > target ? worst_units - target : 1, got = 0;
    bool any = false;
    while (got < need) {
        int64_t best = -1;
        double best_score = -1;
        for (uint32_t r = 0; r < N; r++) {
            if (L->nospill.a[r] || L->cb.a[r] || L->slot[r] >= 0 || g->regs[r].cont || !v.w[r] || v.w[r] > 2) continue;
            if (!over[r]) continue;
            bool at_worst = worst_units > target ? ptx_bit_has(worst, r) : true;
            if (!at_worst) continue;
            double score = (double)over[r] / (double)(occ[r] + 1);
            if (score > best_score) {
                best_score = score;
                best = r;
            }
        }
        if (best < 0) break;
        give_slot(L, g, (uint32_t)best);
        got += v.w[best];
        any = true;
    }
    free(over);
    free(occ);
    free(worst);
    free(live.dense);
    free(live.pos);
    ptx_rview_free(&v);
    return any;
}

/* Allocates g, spilling until its registers fit its limit. */
static bool fit_function(lw *L, ptx_func *g)
{
    uint32_t reserve = g->is_entry ? LW_RESERVED : 0, limit = func_limit(L, g);
    uint32_t target = limit > reserve + 1 ? limit - reserve : 1;
    L->spill_var = -1;
    L->spill_bytes = 0;
    L->spilled_units = 0;
    L->slot = tp_realloc(L->slot, (L->regs.n + 1) * sizeof *L->slot);
    for (uint32_t r = 0; r < L->regs.n; r++) L->slot[r] = -1;
    uint32_t own = 0, aim = target;
    for (uint32_t round = 0;; round++) {
        if (!ptx_ra_color(L->m, g, &own, L->e)) return false;
        if (own <= target || round == LW_MAX_ROUNDS) break;
        /* the pressure fits but the coloring does not: aim lower */
        if (g->ra_max_live <= aim) aim = aim > own - target ? aim - (own - target) : 1;
        if (!choose_spills(L, g, aim)) break;
        if (!rewrite_spills(L, g)) return false;
    }
    g->ra_spills = L->spilled_units;
    return true;
}

/* ---- the module ------------------------------------------------------------------ */

/* A copy of sx whose defined functions ptx_ifconvert has converted: its own
** instructions, functions and CFGs; everything else borrowed.  NULL with e
** set on failure. */
static ptx_modx *ifconverted(const ptx_modx *sx, uint32_t max_insns, tp_err *e)
{
    ptx_modx *c = tp_malloc(sizeof *c);
    *c = *sx;
    ptx_module *m = &c->m;
    tp_arena_init(&m->arena);
    m->insns = tp_malloc((sx->m.ninsns + 1) * sizeof *m->insns);
    if (sx->m.ninsns) memcpy(m->insns, sx->m.insns, sx->m.ninsns * sizeof *m->insns);
    m->funcs = tp_arena_alloc(&m->arena, (sx->m.nfuncs + 1) * sizeof *m->funcs);
    if (sx->m.nfuncs) memcpy(m->funcs, sx->m.funcs, sx->m.nfuncs * sizeof *m->funcs);
    c->insns_owned = m->insns;
    for (uint32_t i = 0; i < sx->ndefs; i++)
        if (ptx_ifconvert(m, &m->funcs[sx->defs[i]], max_insns, e) < 0) {
            free(m->insns);
            tp_arena_free(&m->arena);
            free(c);
            return NULL;
        }
    return c;
}

static ptx_module *lower(const ptx_module *src, const ptx_lower_opts *o, tp_err *e);

ptx_module *ptx_lower(const ptx_module *src, const ptx_lower_opts *o, tp_err *e)
{
    if (!o->ifconvert) return lower(src, o, e);
    ptx_modx *c = ifconverted((const ptx_modx *)src, o->ifconvert, e);
    if (!c) return NULL;
    ptx_module *m = lower(&c->m, o, e);
    free(c->insns_owned);
    tp_arena_free(&c->m.arena);
    free(c);
    return m;
}

static ptx_module *lower(const ptx_module *src, const ptx_lower_opts *o, tp_err *e)
{
    const ptx_modx *sx = (const ptx_modx *)src;
    lw L;
    memset(&L, 0, sizeof L);
    L.src = src;
    L.o = o;
    L.e = e;
    L.mx = tp_calloc(1, sizeof *L.mx);
    *L.mx = *sx;               /* name tables are borrowed (read only) */
    L.mx->insns_owned = NULL;
    L.mx->pool_owned = NULL;
    L.m = &L.mx->m;
    ptx_module *m = L.m;
    tp_arena_init(&m->arena);
    m->funcs = tp_arena_alloc(&m->arena, (src->nfuncs + 1) * sizeof *m->funcs);
    if (src->nfuncs) memcpy(m->funcs, src->funcs, src->nfuncs * sizeof *m->funcs);
    m->pool = tp_malloc((src->npool + 1) * sizeof *m->pool);
    if (src->npool) memcpy(m->pool, src->pool, src->npool * sizeof *m->pool);
    L.mx->pool_owned = m->pool;
    m->insns = NULL;
    m->ninsns = 0;
    /* functions in pc order */
    uint32_t *byst = tp_malloc((src->nfuncs + 1) * sizeof *byst), nd = 0;
    for (uint32_t i = 0; i < sx->ndefs; i++) byst[nd++] = sx->defs[i];
    uint32_t *spc = L.spc = tp_calloc(src->ninsns + 1, sizeof *spc); /* source pc -> new pc */
    bool ok = true;
    for (uint32_t k = 0; k < nd && ok; k++) {
        const ptx_func *f = &src->funcs[byst[k]];
        ptx_func *g = &m->funcs[byst[k]];
        g->ra_map = NULL;
        g->ra_calls = NULL;
        g->ra_ncalls = 0;
        g->rs = NULL;
        ok = emit_function(&L, f, g) && finish_rows(&L, g) && fit_function(&L, g);
    }
    sync_insns(&L);
    L.mx->insns_owned = L.ins.a;
    /* counts (calls need their callees') */
    for (uint32_t k = 0; k < nd && ok; k++) {
        ptx_func *g = &m->funcs[byst[k]];
        uint32_t spilled = g->ra_spills;
        ok = ptx_regalloc(m, g, 0, e);
        if (ok) g->ra_spills = spilled; /* ra_regs is what the code uses, even past the limit */
    }
    /* defined functions by start, labels at their new pcs */
    L.mx->defs = tp_arena_alloc(&m->arena, (nd + 1) * sizeof *L.mx->defs);
    memcpy(L.mx->defs, byst, nd * sizeof *byst);
    L.mx->ndefs = nd;
    L.mx->labels = tp_arena_alloc(&m->arena, (sx->nlabels + 1) * sizeof *L.mx->labels);
    for (uint32_t i = 0; i < sx->nlabels; i++) {
        L.mx->labels[i] = sx->labels[i];
        if (sx->labels[i].pc < src->ninsns) L.mx->labels[i].pc = spc[sx->labels[i].pc];
    }
    free(spc);
    free(byst);
    free(L.newpos);
    free(L.slot);
    tp_vec_free(&L.regs);
    tp_vec_free(&L.cb);
    tp_vec_free(&L.nospill);
    tp_vec_free(&L.zero);
    tp_vec_free(&L.fold);
    if (!ok) {
        ptx_module_free(m);
        return NULL;
    }
    m->inlined_at = lowered_calls(src, m);
    return m;
}
