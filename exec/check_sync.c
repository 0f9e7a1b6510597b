/*
** check_sync.c -- synccheck (option check.sync): barrier and warp-level
** synchronization used in ways the PTX ISA leaves undefined.
**
**  divergent barrier      an aligned CTA barrier (bar.sync, bar.red,
**                         bar.arrive, barrier.*.aligned: what __syncthreads
**                         compiles to) executed by only part of a warp's
**                         live lanes.  On Fermi-style hardware a barrier
**                         counts warps, so the rest of the warp is counted
**                         as if it had arrived; on newer GPUs the result is
**                         undefined too.  Lanes that exited do not count.
**  barrier mismatch       warps of one CTA reach the same instance of a
**                         barrier without a thread count (a whole-CTA
**                         barrier, __syncthreads) at different instructions:
**                         __syncthreads in code that the block's threads do
**                         not all take.  Barriers with a count (named
**                         barriers of producer/consumer code) may be
**                         reached anywhere.
**  thread count mismatch  arrivals at one instance of a barrier give
**                         different thread counts (or one gives none), or a
**                         count that is not a multiple of the warp size.
**  member mask mismatch   __syncwarp (bar.warp.sync) or a .sync warp
**                         exchange (shfl, vote, match, redux, elect) whose
**                         lane is missing from its own member mask, or
**                         whose member mask names live lanes of the warp
**                         that do not execute this instruction, or execute
**                         it with a different mask.
**  shuffle from an inactive lane
**                         a shfl whose source lane (in range) does not
**                         execute it: diverged, exited or never launched
**                         (a block smaller than the warp).
**  shuffle from a lane outside the member mask
**                         a shfl.sync whose source lane executes it but is
**                         not in the reading lane's member mask.
**                         Both values are undefined in the PTX ISA; tpsim
**                         gives 0 (sem_warp.c), what NVIDIA GPUs give where
**                         NVIDIA's reduction sample relies on it.
** Each is reported once per kernel and instruction (the pair of
** instructions for a mismatch).
*/
#include "check.h"
#include <stdio.h>
#include <stdlib.h>

enum { SK_DIVERGENT = 1, SK_MISMATCH, SK_COUNT, SK_COUNT32, SK_MASK_SELF, SK_MASK_ABSENT, SK_MASK_DIFFER,
       SK_SHFL_INACTIVE, SK_SHFL_OUTSIDE };

typedef struct sk_inst {
    bool any;          /* a warp arrived at this instance */
    bool any_sync;     /* ... and one of them waits (not bar.arrive) */
    uint32_t pc;       /* the first waiting arrival's instruction (counted barriers: any arrival's) */
    uint32_t count;    /* its thread count (0: none) */
    uint32_t count_pc;
    uint64_t gwarp;    /* and who */
} sk_inst;

struct sk_cta {
    sk_inst bar[EXEC_NBAR];
};

void sk_cta_start(exec_cta *c)
{
    if (!c->sk) c->sk = tp_calloc(1, sizeof *c->sk);
    memset(c->sk, 0, sizeof *c->sk);
}

void sk_cta_free(exec_cta *c)
{
    free(c->sk);
    c->sk = NULL;
}

void sk_bar_release(exec_cta *c, uint32_t id) { memset(&c->sk->bar[id], 0, sizeof c->sk->bar[id]); }

static bool aligned_bar(const ptx_insn *in)
{
    return in->op == PTX_OP_BAR || (in->m.flags & PTX_MF_ALIGNED);
}

/* Prints a finding about instruction pc (and other, a second instruction, or
** UINT32_MAX) of warp w. */
static void emit(exec_warp *w, uint32_t pc, uint32_t other, uint64_t other_gwarp, const char *what,
                 const char *detail, int lane)
{
    exec_grid *g = w->g;
    tp_sbuf t;
    tp_sbuf_init(&t);
    tp_sbuf_printf(&t, "%s in kernel '%s': %s\n", what, g->kf->name, detail);
    ck_side me = {exec_check_gwarp(w), lane, pc, ""}, o = {other_gwarp, 0, other, ""};
    /* two instructions: in pc order, whichever warp came first */
    const ck_side *s0 = &me, *s1 = other != UINT32_MAX ? &o : NULL;
    if (s1 && other < pc) s0 = &o, s1 = &me;
    ck_side_text(g, s0, &t);
    if (s1) {
        tp_sbuf_putc(&t, '\n');
        ck_side_text(g, s1, &t);
    }
    ck_emit(g, EXEC_CHECK_SYNC, what, "", pc, other == UINT32_MAX ? pc : other, 0, tp_sbuf_str(&t));
    tp_sbuf_free(&t);
}

void sk_bar(exec_warp *w, const ptx_insn *in, uint32_t id, uint32_t count, uint32_t m)
{
    exec_grid *g = w->g;
    sk_inst *b = &w->cta->sk->bar[id];
    uint32_t pc = exec_check_pc(w, in);
    bool arrive = in->m.sub == PTX_SUB_ARRIVE;
    int lane = __builtin_ctz(m);
    char buf[256];
    if (count & 31) {
        if (ck_occurrence(g, EXEC_CHECK_SYNC, pc, SK_COUNT32, NULL)) {
            snprintf(buf, sizeof buf, "barrier %u is given a thread count of %u, not a multiple of the warp size (32)",
                     id, count);
            emit(w, pc, UINT32_MAX, 0, "thread count mismatch", buf, lane);
        }
    }
    if (!b->any) {
        b->any = true;
        b->count = count;
        b->count_pc = pc;
        b->gwarp = exec_check_gwarp(w);
    } else if (b->count != count) {
        uint32_t a = b->count_pc < pc ? b->count_pc : pc, z = b->count_pc < pc ? pc : b->count_pc;
        if (ck_occurrence(g, EXEC_CHECK_SYNC, (uint64_t)a << 32 | z, SK_COUNT, NULL)) {
            snprintf(buf, sizeof buf, "warps arrive at one instance of barrier %u with thread counts %u and %u (0: the whole block)",
                     id, count, b->count);
            emit(w, pc, b->count_pc, b->gwarp, "thread count mismatch", buf, lane);
        }
    }
    if (arrive || count) return;
    if (!b->any_sync) {
        b->any_sync = true;
        b->pc = pc;
        b->gwarp = exec_check_gwarp(w);
    } else if (b->pc != pc && aligned_bar(in)) {
        uint32_t a = b->pc < pc ? b->pc : pc, z = b->pc < pc ? pc : b->pc;
        if (ck_occurrence(g, EXEC_CHECK_SYNC, (uint64_t)a << 32 | z, SK_MISMATCH, NULL)) {
            snprintf(buf, sizeof buf, "warps of block (%u,%u,%u) wait at barrier %u at different instructions (a __syncthreads() "
                     "in code that not all of the block's threads take)",
                     w->cta->id[0], w->cta->id[1], w->cta->id[2], id);
            emit(w, pc, b->pc, b->gwarp, "barrier mismatch", buf, lane);
        }
    }
}

/* The member mask operand of a .sync warp instruction (NULL: none). */
static const ptx_opnd *member_mask(const ptx_insn *in)
{
    unsigned k = in->ndst;
    switch (in->op) {
    case PTX_OP_BAR:
    case PTX_OP_BARRIER: return in->m.sub == PTX_SUB_WARPSYNC && in->nopnd > 0 ? &in->o[0] : NULL;
    case PTX_OP_SHFL: return (in->m.flags & PTX_MF_SYNC) ? &in->o[in->nopnd - 1] : NULL;
    case PTX_OP_VOTE: return (in->m.flags & PTX_MF_SYNC) && in->nopnd > 2 ? &in->o[2] : NULL;
    case PTX_OP_MATCH: return in->nopnd > k + 1 ? &in->o[k + 1] : NULL;
    case PTX_OP_REDUX: return in->nopnd > 2 ? &in->o[2] : NULL;
    case PTX_OP_ELECT: return in->nopnd > k ? &in->o[k] : NULL;
    default: return NULL;
    }
}

/* A shfl's lanes that read a source lane (in range, not themselves) that
** does not take part: not executing it (m), or not in the reader's member
** mask (mrow; NULL for shfl without .sync). */
static void shfl_sources(exec_warp *w, const ptx_insn *in, uint32_t pc, uint32_t m, const uint64_t *mrow)
{
    exec_grid *g = w->g;
    unsigned k = in->ndst;
    const uint64_t *b = exec_src(w, &in->o[k + 1]), *c = exec_src(w, &in->o[k + 2]);
    char buf[400];
    EXEC_LANES(m, {
        bool ok;
        int j = exec_shfl_src(in->m.sub, l, b[l], c[l], &ok);
        uint32_t mk = mrow ? (uint32_t)mrow[l] : EXEC_FULL;
        if (!ok || j == l || (m & mk) >> j & 1) continue;
        int sub = m >> j & 1 ? SK_SHFL_OUTSIDE : SK_SHFL_INACTIVE;
        if (!ck_occurrence(g, EXEC_CHECK_SYNC, pc, (uint64_t)sub, NULL)) return;
        if (sub == SK_SHFL_INACTIVE) {
            const char *why = !(w->valid >> j & 1) ? "was never launched (the block is smaller than the warp)"
                              : w->exited >> j & 1 ? "has exited"
                                                   : "does not execute this instruction (it took another path)";
            if (mrow)
                snprintf(buf, sizeof buf,
                         "lane %d reads lane %d, which %s (lanes here: 0x%08x, lane %d's member mask 0x%08x; the PTX ISA "
                         "leaves the value undefined, tpsim gives 0)",
                         l, j, why, m, l, mk);
            else
                snprintf(buf, sizeof buf,
                         "lane %d reads lane %d, which %s (lanes here: 0x%08x; the PTX ISA leaves the value undefined, "
                         "tpsim gives 0)",
                         l, j, why, m);
        } else {
            snprintf(buf, sizeof buf,
                     "lane %d reads lane %d, which executes it but is not in lane %d's member mask 0x%08x (the PTX ISA "
                     "leaves the value undefined, tpsim gives 0)",
                     l, j, l, mk);
        }
        emit(w, pc, UINT32_MAX, 0,
             sub == SK_SHFL_INACTIVE ? "shuffle from an inactive lane" : "shuffle from a lane outside the member mask", buf,
             l);
        return;   /* one finding per instruction execution */
    });
}

void sk_conv(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    exec_grid *g = w->g;
    uint32_t pc = exec_check_pc(w, in);
    uint32_t live = w->valid & ~w->exited;
    char buf[320];
    bool cta_bar = (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && in->m.sub != PTX_SUB_WARPSYNC;
    if (cta_bar) {
        if (aligned_bar(in) && (live & ~m) && ck_occurrence(g, EXEC_CHECK_SYNC, pc, SK_DIVERGENT, NULL)) {
            snprintf(buf, sizeof buf,
                     "lanes 0x%08x of warp %u of block (%u,%u,%u) reach it and lanes 0x%08x do not (a __syncthreads() "
                     "in divergent code: the barrier counts the whole warp)",
                     m, w->wid, w->cta->id[0], w->cta->id[1], w->cta->id[2], live & ~m);
            emit(w, pc, UINT32_MAX, 0, "divergent barrier", buf, __builtin_ctz(m));
        }
        return;
    }
    const ptx_opnd *mo = member_mask(in);
    if (in->op == PTX_OP_SHFL) shfl_sources(w, in, pc, m, mo ? exec_src(w, mo) : NULL);
    if (!mo) return;
    const uint64_t *mrow = exec_src(w, mo);
    EXEC_LANES(m, {
        uint32_t mk = (uint32_t)mrow[l];
        int sub = 0;
        uint32_t bad = 0;
        if (!(mk >> l & 1)) sub = SK_MASK_SELF;
        else if (mk & live & ~m) sub = SK_MASK_ABSENT, bad = mk & live & ~m;
        else {
            for (uint32_t o = mk & m; o; o &= o - 1) {
                int j = __builtin_ctz(o);
                if ((uint32_t)mrow[j] != mk) bad |= 1u << j;
            }
            if (bad) sub = SK_MASK_DIFFER;
        }
        if (!sub) continue;
        if (ck_occurrence(g, EXEC_CHECK_SYNC, pc, (uint64_t)sub, NULL)) {
            if (sub == SK_MASK_SELF)
                snprintf(buf, sizeof buf, "lane %d executes it with member mask 0x%08x, which does not name the lane itself", l, mk);
            else if (sub == SK_MASK_ABSENT)
                snprintf(buf, sizeof buf,
                         "lane %d's member mask 0x%08x names lanes 0x%08x of the warp, which have not exited but do not "
                         "execute this instruction with it (lanes here: 0x%08x)",
                         l, mk, bad, m);
            else
                snprintf(buf, sizeof buf, "lane %d's member mask 0x%08x names lanes 0x%08x, which execute it with other masks", l,
                         mk, bad);
            emit(w, pc, UINT32_MAX, 0, "member mask mismatch", buf, l);
        }
        return; /* one finding per instruction execution is enough */
    });
}
