/*
** live_int.h -- what live.c hands regalloc.c: a function's register uses
** and definitions as compact lists, its blocks' successors, and block-level
** liveness.  Not a public interface (ptx.h has the public one).
*/
#ifndef PTX_LIVE_INT_H
#define PTX_LIVE_INT_H

#include "ptx.h"
#include "../base/vec.h"

/* A function seen as lists of rows (first rows of b128 only).  For
** instruction i (pc = s + i):
**   defs   rows[off[3i]   .. off[3i+1])
**   uses   rows[off[3i+1] .. off[3i+2])
**   points rows[off[3i+2] .. off[3i+3])  (PTX_LIVE_ALLOC only) values re-created
**          just before the instruction: live into it, live nowhere else.
** kill[i] is 1 when the definitions kill (the instruction is unguarded).
** In the PTX_LIVE_ALLOC view an instruction that only re-creates values
** (ld.param of a kernel parameter, mov of a constant) has no definitions
** and no points, and uses only the registers a folded address is made
** from (live.c find_folds); remat[row] is 1 for the rows it defines. */
typedef struct ptx_rview {
    const ptx_module *m;
    const ptx_func *f;
    uint32_t flags;
    uint32_t s, n;          /* first pc, instructions */
    uint32_t nrows, words;  /* rows; 64-bit words per bitset */
    uint32_t *off, *rows;
    uint8_t *kill;
    uint8_t *w;             /* units per row (ptx_row_units) */
    uint8_t *remat;         /* per row */
    uint32_t *fold;         /* per row: 1 + the row a re-created address is an immediate
                               offset of (live.c find_folds), 0 none; a use reads that row */
    /* blocks */
    uint32_t nb;
    uint32_t *soff, *succ;  /* successors of block b: succ[soff[b] .. soff[b+1]) */
    uint32_t *order;        /* blocks reachable from the entry in reverse postorder,
                               then the unreachable ones by index */
    uint32_t nreach;        /* how many of order[] are reachable */
    uint8_t *reach;         /* per block */
    uint64_t *bin, *bout;   /* per block live-in / live-out: b * words */
} ptx_rview;

bool ptx_rview_build(const ptx_module *m, const ptx_func *f, uint32_t flags, ptx_rview *v, tp_err *e);
void ptx_rview_free(ptx_rview *v);

/* Whether in reads or writes .local memory: a constant address there (a
** local array's start) is the stack pointer R1 plus an immediate (live.c's
** view and lower.c's copies both read it as [R1+imm]). */
static inline bool ptx_local_access(const ptx_insn *in)
{
    return (in->op == PTX_OP_LD || in->op == PTX_OP_ST) && in->m.space == PTX_SP_LOCAL;
}

static inline bool ptx_bit_has(const uint64_t *s, uint32_t i) { return (s[i >> 6] >> (i & 63)) & 1; }
static inline void ptx_bit_set(uint64_t *s, uint32_t i) { s[i >> 6] |= 1ull << (i & 63); }
static inline void ptx_bit_clr(uint64_t *s, uint32_t i) { s[i >> 6] &= ~(1ull << (i & 63)); }

/* A set of rows that iterates in O(members): dense[0..n) lists them,
** pos[row] is the row's index in dense when it is a member. */
typedef struct ptx_sset {
    uint32_t *dense, *pos, n, units;
} ptx_sset;

static inline bool ptx_sset_has(const ptx_sset *s, uint32_t r)
{
    return s->pos[r] < s->n && s->dense[s->pos[r]] == r;
}
static inline void ptx_sset_add(ptx_sset *s, uint32_t r, uint32_t w)
{
    if (ptx_sset_has(s, r)) return;
    s->pos[r] = s->n;
    s->dense[s->n++] = r;
    s->units += w;
}
static inline void ptx_sset_del(ptx_sset *s, uint32_t r, uint32_t w)
{
    if (!ptx_sset_has(s, r)) return;
    uint32_t k = s->pos[r], last = s->dense[--s->n];
    s->dense[k] = last;
    s->pos[last] = k;
    s->units -= w;
}
/* s := the rows of bitset b. */
void ptx_sset_load(ptx_sset *s, const uint64_t *b, uint32_t words, const uint8_t *w);

/* ---- the scheduler (sched.c) ----------------------------------------------- */
typedef struct ptx_sched ptx_sched;
ptx_sched *ptx_sched_new(const ptx_rview *v);
void ptx_sched_free(ptx_sched *S);
/* Block b of v's function list-scheduled, no instruction moving up past
** more than window - 1 others: its pcs in the new order (valid until the
** next call).  window 1 is program order, UINT32_MAX unlimited. */
const uint32_t *ptx_sched_block(ptx_sched *S, uint32_t b, uint32_t window);
/* The most units live in block b, a loop of one block (its last instruction
** branches back to its first), when ptxas unrolls it `copies` times: the
** copies (without their back branches but the last) scheduled as one
** sequence with every definition a new value, the window limiting moves as
** in ptx_sched_block. */
uint32_t ptx_loop_pressure(ptx_sched *S, uint32_t b, uint32_t copies, uint32_t window);
/* ... of the loop made of blocks b..e (laid out in that order, the last
** instruction of e branching back to b's first; other branches in it leave
** the loop and are taken out by the unrolling). */
uint32_t ptx_range_pressure(ptx_sched *S, uint32_t b, uint32_t e, uint32_t copies, uint32_t window);
/* The most units live in block b (v's view) when its instructions run in
** order[] (NULL: program order); live is scratch of v->nrows + 1 rows. */
uint32_t ptx_block_pressure(const ptx_rview *v, uint32_t b, const uint32_t *order, ptx_sset *live);

/* ---- the allocator's internals (regalloc.c) ---------------------------------- */
/* What a kernel's count adds to the registers its code uses: the stack
** pointer R1 and temporaries of ptxas's own lowering (address arithmetic,
** immediates, expansions of division); calibrated on the table of
** docs/REGISTERS.md (4 to 7 tried, 5 nearest). */
enum { PTX_RA_RESERVED = 5 };
/* Colors f's rows (PTX_LIVE_ALLOC view): fills f->ra_map (from the module
** arena) and f->ra_max_live, returns the registers used (highest + 1).  When
** v is given it is f's view, already built. */
bool ptx_ra_color(ptx_module *m, ptx_func *f, uint32_t *own, tp_err *e);

/* Registers ptxas's expansion of in needs beyond its operands and result
** (FP64 and FP32 IEEE division, square root, reciprocal; 64-bit integer
** division and remainder), 0 for an instruction it does not expand or
** expands without temporaries (regalloc.c). */
uint32_t ptx_expand_temps(const ptx_insn *in);

/* Whether ptxas expands in into a sequence with a branch (to a slow path):
** the instructions above, and rcp.ftz.f32 (IEEE, a branch without
** temporaries); not the .approx or .full forms.  Nothing moves across one
** in a schedule. */
bool ptx_expand_branches(const ptx_insn *in);

#endif
