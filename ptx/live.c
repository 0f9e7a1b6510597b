/*
** live.c -- register uses and definitions of PTX instructions, and
** liveness: a backward dataflow over the CFG with bitsets over rows, then
** per-instruction live sets.
**
** Two views (ptx.h PTX_LIVE_*).  PTX_LIVE_PURE is the PTX program as
** written.  PTX_LIVE_ALLOC is the program the register allocator sees,
** where values ptxas never keeps in a register are re-created at each use
** ("rematerialized"):
**   - a row is re-creatable when its only definition is unguarded and is
**       ld.param of a kernel parameter (the constant bank holds it),
**       mov of an immediate, a symbol's address, a function's address or a
**         constant special register (%ntid, %nctaid, %nsmid, %nwarpid),
**       mov of a re-creatable row, or cvta(.to).global of one or of a symbol
**         (generic and global addresses coincide),
**       a 64-bit integer add of a symbol's address (any of the above made
**         from a symbol) and an immediate: a local array's start in the
**         depot (%SPL + 320), a field of a global variable;
**       a uniform value (const_uniform): an integer load of a __constant__
**         variable at a fixed address, or 32-bit integer arithmetic of
**         re-created values with one such load among them;
**       a folded address (find_folds): a symbol's address plus a register
**         x used only as shared (or constant-bank) addresses, where each
**         use reads x instead;
**     the defining instruction disappears from the view;
**   - at each use a re-creatable row costs nothing when the instruction can
**     read it as an operand (ALU, SFU and comparison instructions read one
**     constant-bank operand; zero is the zero register RZ anywhere but in an
**     address; a .local access's address base is the stack pointer R1
**     plus an immediate), and otherwise (an address base, a stored value, a vector
**     element, a second constant operand) it is a "point" use: it occupies a
**     register while the instruction reads it, and is live nowhere else.
** docs/REGISTERS.md explains why.  Lowered code (lower.c) has its point uses
** turned into copies, and names its constant-bank rows (ptx_func.ra_cb):
** there the view takes those rows as given and every use of one is free.
*/
#include "live_int.h"
#include <stdlib.h>

uint32_t ptx_row_units(const ptx_func *f, uint32_t row)
{
    if (row >= f->nrows) return 0;
    const ptx_reg *r = &f->regs[row];
    if (r->cont) return 0;
    unsigned sz = ptx_type_size((ptx_type)r->type);
    return sz > 8 ? 4 : sz > 4 ? 2 : 1;
}

void ptx_sset_load(ptx_sset *s, const uint64_t *b, uint32_t words, const uint8_t *w)
{
    s->n = 0;
    s->units = 0;
    for (uint32_t k = 0; k < words; k++)
        for (uint64_t x = b[k]; x; x &= x - 1) {
            uint32_t r = k * 64 + (uint32_t)__builtin_ctzll(x);
            s->pos[r] = s->n;
            s->dense[s->n++] = r;
            s->units += w[r];
        }
}

/* ---- operand lists ------------------------------------------------------- */

typedef TP_VEC(uint32_t) u32vec;

/* The row an operand names, as its first row; UINT32_MAX for none. */
static uint32_t row_of(const ptx_func *f, int32_t r)
{
    if (r < 0 || (uint32_t)r >= f->nrows) return UINT32_MAX;
    if (f->regs[r].cont && r > 0) r--;
    return (uint32_t)r;
}

uint32_t ptx_insn_regs(const ptx_module *m, const ptx_func *f, const ptx_insn *in, uint32_t flags,
                       ptx_regocc *out, uint32_t cap)
{
    uint32_t n = 0;
    bool preds = (flags & PTX_REGS_PREDS) != 0;
#define PUT(rw, k) do { uint32_t r_ = row_of(f, rw); if (r_ != UINT32_MAX) { if (n < cap) out[n] = (ptx_regocc){r_, k}; n++; } } while (0)
#define PUTP(p, k) do { if (n < cap) out[n] = (ptx_regocc){(uint32_t)(p), k}; n++; } while (0)
    if (preds && in->guard >= 0) PUTP(in->guard, PTX_RO_PUSE);
    for (uint32_t k = 0; k < in->nopnd && k < PTX_MAX_OPND; k++) {
        const ptx_opnd *o = &in->o[k];
        bool dst = k < in->ndst;
        switch (o->kind) {
        case PTX_OK_REG: PUT(o->r, dst ? PTX_RO_DEF : PTX_RO_SRC); break;
        case PTX_OK_PRED:
            if (preds && o->r >= 0) PUTP(o->r, dst ? PTX_RO_PDEF : PTX_RO_PUSE);
            break;
        case PTX_OK_ADDR:
            if (o->base == PTX_AB_REG) PUT(o->r, PTX_RO_ADDR);
            break;
        case PTX_OK_VEC:
        case PTX_OK_CALL:
            if (o->r < 0 || (uint32_t)o->r + o->n > m->npool) break;
            for (uint32_t j = 0; j < o->n; j++) {
                const ptx_opnd *e = &m->pool[o->r + j];
                bool d = o->kind == PTX_OK_CALL ? (int64_t)j < o->imm : dst;
                if (e->kind == PTX_OK_REG) PUT(e->r, d ? PTX_RO_DEF : PTX_RO_OTHER);
                else if (e->kind == PTX_OK_ADDR && e->base == PTX_AB_REG) PUT(e->r, PTX_RO_ADDR);
                else if (e->kind == PTX_OK_PRED && preds && e->r >= 0) PUTP(e->r, d ? PTX_RO_PDEF : PTX_RO_PUSE);
            }
            break;
        default: break;
        }
    }
#undef PUT
#undef PUTP
    return n;
}

/* The lists liveness works on: registers only, at most cap of them. */
typedef ptx_regocc occ;
enum { OCC_DEF = PTX_RO_DEF, OCC_SRC = PTX_RO_SRC, OCC_ADDR = PTX_RO_ADDR, OCC_OTHER = PTX_RO_OTHER };
static uint32_t occurrences(const ptx_module *m, const ptx_func *f, const ptx_insn *in, occ *out, uint32_t cap)
{
    uint32_t n = ptx_insn_regs(m, f, in, 0, out, cap);
    return n < cap ? n : cap;
}

static void push_uniq(u32vec *v, uint32_t from, uint32_t r)
{
    for (uint32_t i = from; i < v->n; i++)
        if (v->a[i] == r) return;
    tp_vec_push(v, r);
}

/* Whether in can read one constant-bank (or immediate) operand in place of a register. */
static bool reads_constant(const ptx_insn *in)
{
    unsigned u = ptx_ops[in->op].unit;
    return (u == PTX_UNIT_ARITH || u == PTX_UNIT_INT || u == PTX_UNIT_SFU) &&
           !(ptx_ops[in->op].flags & PTX_F_WARP);
}

/* Values ptxas keeps in uniform registers (Turing's UR0..UR62, one value
** per warp, outside the count): a load of a __constant__ variable at a
** fixed address, and integer arithmetic of such values with immediates and
** other re-created values (ISPASS libor: N, Nmat, Nopt and 30 values made
** from them, ULDC/UIADD3/ULOP3 in its SASS).  Read like a constant-bank
** value: one operand for free, a point use otherwise. */
static bool const_uniform(const ptx_func *f, const ptx_insn *in, const uint8_t *remat, const uint8_t *cu)
{
    if (in->guard >= 0 || in->ndst != 1 || in->o[0].kind != PTX_OK_REG) return false;
    if (in->op == PTX_OP_LD)
        return in->m.space == PTX_SP_CONST && in->nopnd == 2 && in->o[1].kind == PTX_OK_ADDR &&
               in->o[1].base == PTX_AB_SYM && ptx_type_size((ptx_type)in->type) <= 4 &&
               !ptx_type_is_float((ptx_type)in->type);
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_AND: case PTX_OP_OR:
    case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX: break;
    case PTX_OP_MUL: if (in->m.sub == PTX_SUB_LO) break; return false;
    default: return false;
    }
    if (ptx_type_is_float((ptx_type)in->type) || ptx_type_size((ptx_type)in->type) != 4 ||
        (in->m.flags & (PTX_MF_CC | PTX_MF_SAT)))
        return false;
    bool any = false;
    for (unsigned k = 1; k < in->nopnd; k++) {
        const ptx_opnd *o = &in->o[k];
        if (o->kind == PTX_OK_IMM) continue;
        if (o->kind != PTX_OK_REG || o->r < 0 || (uint32_t)o->r >= f->nrows || !remat[o->r]) return false;
        any |= cu[o->r] != 0;
    }
    return any;
}

/* Whether in's definitions (all rows of it) can be re-created at each use. */
static bool recreates(const ptx_func *f, const ptx_insn *in, const uint8_t *remat, const uint8_t *sym)
{
    if (in->guard >= 0 || in->ndst == 0) return false;
    if (in->op == PTX_OP_ADD && in->ndst == 1 && in->nopnd == 3 && in->o[0].kind == PTX_OK_REG &&
        ptx_type_size((ptx_type)in->type) == 8 && !ptx_type_is_float((ptx_type)in->type)) {
        /* a symbol's address plus an immediate (a local array's start from
        ** the depot): an immediate offset of the address operands that read
        ** it, one more constant operand of the adds that index it */
        const ptx_opnd *a = &in->o[1], *b = &in->o[2];
        if (a->kind == PTX_OK_IMM) {
            const ptx_opnd *t = a;
            a = b;
            b = t;
        }
        return a->kind == PTX_OK_REG && a->r >= 0 && (uint32_t)a->r < f->nrows && sym[a->r] &&
               b->kind == PTX_OK_IMM;
    }
    if (in->op == PTX_OP_LD) {
        uint8_t sp = in->m.space;
        const ptx_opnd *a = &in->o[in->ndst];
        return f->is_entry && (sp == PTX_SP_PARAM || sp == PTX_SP_PARAM_ENTRY) && in->nopnd == in->ndst + 1 &&
               a->kind == PTX_OK_ADDR && a->base == PTX_AB_SYM && (a->r & PTX_SYM_KIND_MASK) == PTX_SYM_PARAM;
    }
    if (in->ndst != 1 || in->nopnd != 2 || in->o[0].kind != PTX_OK_REG) return false;
    const ptx_opnd *s = &in->o[1];
    bool src_remat = s->kind == PTX_OK_REG && s->r >= 0 && (uint32_t)s->r < f->nrows && remat[s->r];
    if (in->op == PTX_OP_MOV) {
        if (s->kind == PTX_OK_IMM || s->kind == PTX_OK_SYM || s->kind == PTX_OK_FUNC) return true;
        if (s->kind == PTX_OK_SREG)
            return s->r == PTX_SR_NTID || s->r == PTX_SR_NCTAID || s->r == PTX_SR_NSMID || s->r == PTX_SR_NWARPID;
        return src_remat;
    }
    if (in->op == PTX_OP_CVTA && in->m.space == PTX_SP_GLOBAL) return s->kind == PTX_OK_SYM || src_remat;
    return false;
}

/* Whether block b lies on a cycle of the block graph (v's successors). */
static bool on_cycle(const ptx_rview *v, uint32_t b, uint8_t *seen, uint32_t *stk)
{
    memset(seen, 0, v->nb + 1);
    uint32_t sp = 0;
    for (uint32_t k = v->soff[b]; k < v->soff[b + 1]; k++) stk[sp++] = v->succ[k];
    while (sp) {
        uint32_t c = stk[--sp];
        if (c == b) return true;
        if (seen[c]) continue;
        seen[c] = 1;
        for (uint32_t k = v->soff[c]; k < v->soff[c + 1]; k++)
            if (!seen[v->succ[k]]) stk[sp++] = v->succ[k];
    }
    return false;
}

/* Folded addresses (v->fold): an add of a symbol's address and a register x
** whose every use is the address base of a shared-memory access (32-bit) or
** of a constant-bank load (64-bit) is x plus an immediate in each of those
** accesses (ptxas: LDS [R8+0x400], LDC c[0x3][R12+0x20]), so several arrays
** indexed alike keep one register.  The add's row is then re-created (it
** disappears from the view) and each use reads x instead.  Only when x and
** the sum are each written once and x cannot change between the add and a
** use: x is written outside every loop, or in the add's block before it
** with no use of the sum between the two. */
static void find_folds(ptx_rview *v, const uint8_t *ndef, const uint8_t *sym)
{
    const ptx_module *m = v->m;
    const ptx_func *f = v->f;
    uint32_t n = v->n, N = v->nrows;
    occ oc[PTX_MAX_OPND * 256 + 8];
    uint32_t *def = tp_malloc((N + 1) * sizeof *def), *blk = tp_malloc((n + 1) * sizeof *blk);
    uint32_t *base = tp_calloc(N + 1, sizeof *base); /* candidate sum row: x + 1 */
    uint32_t *at = tp_calloc(N + 1, sizeof *at);     /* ... and its add's index */
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t pc = f->blocks[b].start; pc < f->blocks[b].end && pc < f->end; pc++) blk[pc - v->s] = b;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = occurrences(m, f, &m->insns[v->s + i], oc, TP_ARRAY_LEN(oc));
        for (uint32_t j = 0; j < k; j++)
            if (oc[j].kind == OCC_DEF) def[oc[j].row] = i;
    }
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *in = &m->insns[v->s + i];
        if (in->op != PTX_OP_ADD || in->guard >= 0 || in->ndst != 1 || in->nopnd != 3 ||
            in->o[0].kind != PTX_OK_REG || ptx_type_is_float((ptx_type)in->type) || (in->m.flags & PTX_MF_CC))
            continue;
        uint32_t size = ptx_type_size((ptx_type)in->type);
        int32_t d = in->o[0].r;
        if ((size != 4 && size != 8) || d < 0 || (uint32_t)d >= N || ndef[d] != 1 || v->remat[d]) continue;
        const ptx_opnd *a = &in->o[1], *c = &in->o[2];
        bool as = a->kind == PTX_OK_SYM || (a->kind == PTX_OK_REG && (uint32_t)a->r < N && sym[a->r]);
        bool cs = c->kind == PTX_OK_SYM || (c->kind == PTX_OK_REG && (uint32_t)c->r < N && sym[c->r]);
        if (as == cs) continue;
        const ptx_opnd *x = as ? c : a;
        if (x->kind != PTX_OK_REG || x->r < 0 || (uint32_t)x->r >= N || v->remat[x->r] || ndef[x->r] != 1 ||
            v->w[x->r] != v->w[d] || f->regs[x->r].cont)
            continue;
        base[d] = (uint32_t)x->r + 1;
        at[d] = i;
        any = true;
    }
    if (any) {
        /* every use an address base of the right kind */
        for (uint32_t i = 0; i < n; i++) {
            const ptx_insn *in = &m->insns[v->s + i];
            uint32_t k = occurrences(m, f, in, oc, TP_ARRAY_LEN(oc));
            uint32_t fl = ptx_ops[in->op].flags;
            bool mem = (in->op == PTX_OP_LD || in->op == PTX_OP_ST || (fl & PTX_F_ATOMIC)) &&
                       (in->m.space == PTX_SP_SHARED || (in->m.space == PTX_SP_CONST && in->op == PTX_OP_LD));
            for (uint32_t j = 0; j < k; j++) {
                uint32_t r = oc[j].row;
                if (oc[j].kind == OCC_DEF || !base[r]) continue;
                bool ok = mem && oc[j].kind == OCC_ADDR &&
                          (v->w[r] == 1 ? in->m.space == PTX_SP_SHARED : in->m.space == PTX_SP_CONST);
                if (!ok) base[r] = 0;
            }
        }
        uint8_t *seen = tp_malloc(v->nb + 1);
        uint32_t *stk = tp_malloc((n + v->nb + 1) * sizeof *stk);
        for (uint32_t r = 0; r < N; r++) {
            if (!base[r]) continue;
            uint32_t xd = def[base[r] - 1];
            bool ok = !on_cycle(v, blk[xd], seen, stk);
            if (!ok && blk[xd] == blk[at[r]] && xd < at[r]) {
                /* in a loop: no use of the sum between x's write and the add */
                ok = true;
                for (uint32_t i = xd + 1; i < at[r] && ok; i++) {
                    uint32_t k = occurrences(m, f, &m->insns[v->s + i], oc, TP_ARRAY_LEN(oc));
                    for (uint32_t j = 0; j < k; j++)
                        if (oc[j].row == r && oc[j].kind != OCC_DEF) ok = false;
                }
            }
            if (ok) {
                v->fold[r] = base[r];
                v->remat[r] = 1;
            }
        }
        free(seen);
        free(stk);
    }
    free(def);
    free(blk);
    free(base);
    free(at);
}

/* Builds v->off/rows/kill (and remat) for the view. */
static void build_lists(ptx_rview *v)
{
    const ptx_module *m = v->m;
    const ptx_func *f = v->f;
    uint32_t n = v->n;
    occ oc[PTX_MAX_OPND * 256 + 8];
    uint8_t *ndef = tp_calloc(v->nrows + 1, 1);
    uint8_t *zero = NULL, *sym = tp_calloc(v->nrows + 1, 1), *cu = tp_calloc(v->nrows + 1, 1);
    bool fixed = (v->flags & PTX_LIVE_ALLOC) && f->ra_cb;
    if (fixed) {
        /* lowered code (lower.c): the constant-bank rows are given, and every
        ** use left of them is an operand the instruction reads for free */
        zero = tp_calloc(v->nrows + 1, 1);
        for (uint32_t r = 0; r < v->nrows; r++) {
            v->remat[r] = f->ra_cb[r];
            v->fold[r] = f->ra_fold ? f->ra_fold[r] : 0;
        }
    } else if (v->flags & PTX_LIVE_ALLOC) {
        /* definitions per row (saturating at 2), then the re-creatable rows in pc order */
        zero = tp_calloc(v->nrows + 1, 1);
        for (uint32_t i = 0; i < n; i++) {
            const ptx_insn *in = &m->insns[v->s + i];
            uint32_t k = occurrences(m, f, in, oc, TP_ARRAY_LEN(oc));
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind == OCC_DEF) {
                    if (ndef[oc[j].row] < 2) ndef[oc[j].row]++;
                    if (in->guard >= 0) ndef[oc[j].row] = 2;
                }
        }
        for (uint32_t i = 0; i < n; i++) {
            const ptx_insn *in = &m->insns[v->s + i];
            bool uni = const_uniform(f, in, v->remat, cu);
            if (!uni && !recreates(f, in, v->remat, sym)) continue;
            uint32_t k = occurrences(m, f, in, oc, TP_ARRAY_LEN(oc)), nd = 0;
            bool ok = true;
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind == OCC_DEF) {
                    nd++;
                    ok &= ndef[oc[j].row] == 1 && f->regs[oc[j].row].type != PTX_T_B128;
                }
            if (!ok || !nd) continue;
            /* a symbol's address: mov or cvta.global of a symbol or of one, or one plus an immediate */
            bool sa = (in->op == PTX_OP_MOV || in->op == PTX_OP_CVTA || in->op == PTX_OP_ADD) && in->nopnd >= 2 &&
                      (in->o[1].kind == PTX_OK_SYM ||
                       (in->o[1].kind == PTX_OK_REG && (uint32_t)in->o[1].r < v->nrows && sym[in->o[1].r]) ||
                       (in->op == PTX_OP_ADD && in->o[2].kind == PTX_OK_REG && (uint32_t)in->o[2].r < v->nrows &&
                        sym[in->o[2].r]));
            bool z = in->op == PTX_OP_MOV && in->o[1].kind == PTX_OK_IMM && in->o[1].imm == 0;
            if (in->op != PTX_OP_LD && in->o[1].kind == PTX_OK_REG) z = zero[row_of(f, in->o[1].r)];
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind == OCC_DEF) {
                    v->remat[oc[j].row] = 1;
                    zero[oc[j].row] = z;
                    sym[oc[j].row] = sa;
                    cu[oc[j].row] = uni;
                }
        }
        find_folds(v, ndef, sym);
    }
    u32vec rows = {0};
    v->off = tp_malloc((3 * (size_t)n + 1) * sizeof *v->off);
    v->kill = tp_malloc(n + 1);
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *in = &m->insns[v->s + i];
        uint32_t k = occurrences(m, f, in, oc, TP_ARRAY_LEN(oc));
        v->kill[i] = in->guard < 0;
        bool gone = false;
        if (v->flags & PTX_LIVE_ALLOC) {
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind == OCC_DEF) gone = v->remat[oc[j].row];
        }
        v->off[3 * i] = rows.n;
        if (!gone)
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind == OCC_DEF) push_uniq(&rows, v->off[3 * i], oc[j].row);
        v->off[3 * i + 1] = rows.n;
        if (!gone) {
            bool cb = reads_constant(in);
            uint32_t first_point = UINT32_MAX;
            for (uint32_t j = 0; j < k; j++) {
                if (oc[j].kind == OCC_DEF) continue;
                uint32_t r = oc[j].row;
                if (!v->remat[r]) push_uniq(&rows, v->off[3 * i + 1], r);
                else if (v->fold[r]) push_uniq(&rows, v->off[3 * i + 1], v->fold[r] - 1); /* its base */
            }
            /* re-created rows: free, or points (listed after the uses) */
            for (uint32_t j = 0; j < k; j++) {
                if (oc[j].kind == OCC_DEF || !v->remat[oc[j].row] || v->fold[oc[j].row] || fixed) continue;
                uint32_t r = oc[j].row;
                if (zero[r] && oc[j].kind != OCC_ADDR) continue; /* RZ */
                if (oc[j].kind == OCC_ADDR && ptx_local_access(in)) continue; /* [R1+imm] */
                if (cb && oc[j].kind == OCC_SRC) {
                    cb = false; /* the one constant operand */
                    continue;
                }
                if (first_point == UINT32_MAX) first_point = rows.n;
                push_uniq(&rows, first_point, r);
            }
            if (first_point == UINT32_MAX) first_point = rows.n;
            v->off[3 * i + 2] = first_point;
        } else {
            /* an instruction that re-creates a value reads registers only
            ** when it makes a folded address (its base, or the spill
            ** reload that replaced it): they are live into it */
            for (uint32_t j = 0; j < k; j++)
                if (oc[j].kind != OCC_DEF && !v->remat[oc[j].row]) push_uniq(&rows, v->off[3 * i + 1], oc[j].row);
            v->off[3 * i + 2] = rows.n;
        }
    }
    v->off[3 * n] = rows.n;
    v->rows = rows.a ? rows.a : tp_malloc(sizeof(uint32_t));
    free(ndef);
    free(zero);
    free(sym);
    free(cu);
}

/* ---- blocks -------------------------------------------------------------- */

static void build_blocks(ptx_rview *v)
{
    const ptx_func *f = v->f;
    uint32_t nb = v->nb = f->nblocks;
    v->soff = tp_calloc(nb + 2, sizeof *v->soff);
    uint32_t ne = 0;
    for (uint32_t b = 0; b < nb; b++) {
        ne += f->blocks[b].npreds;
        for (uint32_t j = 0; j < f->blocks[b].npreds; j++)
            if (f->blocks[b].preds[j] < nb) v->soff[f->blocks[b].preds[j] + 1]++;
    }
    for (uint32_t b = 0; b < nb; b++) v->soff[b + 1] += v->soff[b];
    v->succ = tp_malloc((ne + 1) * sizeof *v->succ);
    uint32_t *fill = tp_malloc((nb + 1) * sizeof *fill);
    memcpy(fill, v->soff, (nb + 1) * sizeof *fill);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t j = 0; j < f->blocks[b].npreds; j++) {
            uint32_t p = f->blocks[b].preds[j];
            if (p < nb) v->succ[fill[p]++] = b;
        }
    /* reverse postorder from block 0 (iterative DFS) */
    v->order = tp_malloc((nb + 1) * sizeof *v->order);
    v->reach = tp_calloc(nb + 1, 1);
    uint32_t *stk = tp_malloc((nb + 1) * sizeof *stk), *it = fill, sp = 0, np = 0;
    uint32_t *post = tp_malloc((nb + 1) * sizeof *post);
    for (uint32_t b = 0; b < nb; b++) it[b] = v->soff[b];
    if (nb) {
        stk[sp++] = 0;
        v->reach[0] = 1;
    }
    while (sp) {
        uint32_t b = stk[sp - 1];
        if (it[b] < v->soff[b + 1]) {
            uint32_t s = v->succ[it[b]++];
            if (!v->reach[s]) {
                v->reach[s] = 1;
                stk[sp++] = s;
            }
        } else {
            sp--;
            post[np++] = b;
        }
    }
    v->nreach = np;
    for (uint32_t k = 0; k < np; k++) v->order[k] = post[np - 1 - k];
    for (uint32_t b = 0, k = np; b < nb; b++)
        if (!v->reach[b]) v->order[k++] = b;
    free(stk);
    free(post);
    free(fill);
}

/* Backward dataflow: bin/bout of every block. */
static void dataflow(ptx_rview *v)
{
    uint32_t nb = v->nb, W = v->words;
    size_t sz = (size_t)nb * W + 1;
    v->bin = tp_calloc(sz, sizeof(uint64_t));
    v->bout = tp_calloc(sz, sizeof(uint64_t));
    uint64_t *gen = tp_calloc(sz, sizeof(uint64_t)), *kill = tp_calloc(sz, sizeof(uint64_t));
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t *g = gen + (size_t)b * W, *k = kill + (size_t)b * W;
        const ptx_block *bl = &v->f->blocks[b];
        for (uint32_t pc = bl->end; pc-- > bl->start;) {
            uint32_t i = pc - v->s;
            if (v->kill[i])
                for (uint32_t j = v->off[3 * i]; j < v->off[3 * i + 1]; j++) {
                    ptx_bit_set(k, v->rows[j]);
                    ptx_bit_clr(g, v->rows[j]);
                }
            for (uint32_t j = v->off[3 * i + 1]; j < v->off[3 * i + 2]; j++) ptx_bit_set(g, v->rows[j]);
        }
    }
    /* iterate in postorder (the reverse of order[]) until nothing changes */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t q = nb; q-- > 0;) {
            uint32_t b = v->order[q];
            uint64_t *out = v->bout + (size_t)b * W, *in = v->bin + (size_t)b * W;
            const uint64_t *g = gen + (size_t)b * W, *k = kill + (size_t)b * W;
            for (uint32_t j = v->soff[b]; j < v->soff[b + 1]; j++) {
                const uint64_t *si = v->bin + (size_t)v->succ[j] * W;
                for (uint32_t w = 0; w < W; w++) out[w] |= si[w];
            }
            for (uint32_t w = 0; w < W; w++) {
                uint64_t x = g[w] | (out[w] & ~k[w]);
                if (x != in[w]) {
                    in[w] = x;
                    changed = true;
                }
            }
        }
    }
    free(gen);
    free(kill);
}

bool ptx_rview_build(const ptx_module *m, const ptx_func *f, uint32_t flags, ptx_rview *v, tp_err *e)
{
    memset(v, 0, sizeof *v);
    if (f->is_decl || f->end <= f->start || !f->blocks || !f->nblocks) {
        tp_err_set(e, 1, "%s: function '%s' has no body to analyse", m->filename, f->name);
        return false;
    }
    v->m = m;
    v->f = f;
    v->flags = flags;
    v->s = f->start;
    v->n = f->end - f->start;
    v->nrows = f->nrows;
    v->words = (f->nrows + 63) / 64;
    if (!v->words) v->words = 1;
    v->w = tp_malloc(f->nrows + 1);
    for (uint32_t r = 0; r < f->nrows; r++) v->w[r] = (uint8_t)ptx_row_units(f, r);
    v->remat = tp_calloc(f->nrows + 1, 1);
    v->fold = tp_calloc(f->nrows + 1, sizeof *v->fold);
    build_blocks(v);
    build_lists(v);
    dataflow(v);
    return true;
}

void ptx_rview_free(ptx_rview *v)
{
    free(v->off);
    free(v->rows);
    free(v->kill);
    free(v->w);
    free(v->remat);
    free(v->fold);
    free(v->soff);
    free(v->succ);
    free(v->order);
    free(v->reach);
    free(v->bin);
    free(v->bout);
    memset(v, 0, sizeof *v);
}

/* ---- the public per-instruction liveness --------------------------------- */

bool ptx_liveness(const ptx_module *m, const ptx_func *f, uint32_t flags, ptx_live *lv, tp_err *e)
{
    memset(lv, 0, sizeof *lv);
    ptx_rview v;
    if (!ptx_rview_build(m, f, flags, &v, e)) return false;
    uint32_t W = v.words;
    lv->start = v.s;
    lv->ninsns = v.n;
    lv->nrows = v.nrows;
    lv->words = W;
    lv->flags = flags;
    lv->in = tp_calloc((size_t)v.n * W + 1, sizeof(uint64_t));
    lv->units = tp_calloc(v.n + 1, sizeof(uint32_t));
    uint64_t *cur = tp_malloc(W * sizeof *cur);
    for (uint32_t b = 0; b < v.nb; b++) {
        const ptx_block *bl = &f->blocks[b];
        memcpy(cur, v.bout + (size_t)b * W, W * sizeof *cur);
        uint32_t units = 0;
        for (uint32_t w = 0; w < W; w++)
            for (uint64_t x = cur[w]; x; x &= x - 1) units += v.w[w * 64 + (uint32_t)__builtin_ctzll(x)];
        for (uint32_t pc = bl->end; pc-- > bl->start;) {
            uint32_t i = pc - v.s;
            /* across the instruction: live-out plus its definitions */
            uint32_t across = units;
            for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1]; j++)
                if (!ptx_bit_has(cur, v.rows[j])) across += v.w[v.rows[j]];
            if (across > lv->max_units) {
                lv->max_units = across;
                lv->max_pc = pc;
            }
            if (v.kill[i])
                for (uint32_t j = v.off[3 * i]; j < v.off[3 * i + 1]; j++)
                    if (ptx_bit_has(cur, v.rows[j])) {
                        ptx_bit_clr(cur, v.rows[j]);
                        units -= v.w[v.rows[j]];
                    }
            for (uint32_t j = v.off[3 * i + 1]; j < v.off[3 * i + 3]; j++)
                if (!ptx_bit_has(cur, v.rows[j])) {
                    ptx_bit_set(cur, v.rows[j]);
                    units += v.w[v.rows[j]];
                }
            memcpy(lv->in + (size_t)i * W, cur, W * sizeof *cur);
            lv->units[i] = units;
            if (units > lv->max_units) {
                lv->max_units = units;
                lv->max_pc = pc;
            }
            /* points are live into this instruction only */
            for (uint32_t j = v.off[3 * i + 2]; j < v.off[3 * i + 3]; j++) {
                ptx_bit_clr(cur, v.rows[j]);
                units -= v.w[v.rows[j]];
            }
        }
    }
    free(cur);
    ptx_rview_free(&v);
    return true;
}

void ptx_live_free(ptx_live *lv)
{
    free(lv->in);
    free(lv->units);
    memset(lv, 0, sizeof *lv);
}

bool ptx_live_has(const ptx_live *lv, const ptx_func *f, uint32_t pc, uint32_t row)
{
    if (pc < lv->start || pc - lv->start >= lv->ninsns || row >= lv->nrows) return false;
    if (f && row < f->nrows && f->regs[row].cont && row > 0) row--;
    return ptx_bit_has(lv->in + (size_t)(pc - lv->start) * lv->words, row);
}
