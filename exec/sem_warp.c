/*
** sem_warp.c -- instructions that exchange values between the lanes of a
** warp: shfl, vote, match, activemask, redux, elect.  A lane that shuffles
** from a lane not taking part -- one that does not execute the instruction
** (diverged, exited, never launched) or, for shfl.sync, is not in the
** reader's member mask -- reads 0: the PTX ISA leaves the value undefined,
** and 0 is what NVIDIA GPUs give where NVIDIA's own reduction sample relies
** on it (docs/CHECKS.md; --check sync reports such reads).
*/
#include "internal.h"

#define DST(k) exec_dst(w, &in->o[k])
#define SRC(k) exec_src(w, &in->o[k])

static inline uint32_t predv(const exec_warp *w, const ptx_opnd *o)
{
    if (o->kind == PTX_OK_PRED) {
        uint32_t v = w->pp[o->r];
        return (o->flags & PTX_OF_NEG) ? ~v : v;
    }
    return (exec_src(w, o)[0] & 1) ? EXEC_FULL : 0;
}

static inline void pwrite(exec_warp *w, const ptx_opnd *o, uint32_t v, uint32_t m)
{
    if (o->kind != PTX_OK_PRED) return;
    uint32_t *p = &w->pp[o->r];
    *p = (*p & ~m) | (v & m);
}

/* shfl[.sync].mode.b32 d[|p], a, b, c[, membermask] -- the lane and bound
** computation of the PTX ISA (exec_shfl_src).  A source lane in range that
** does not take part gives 0 (see the top of this file). */
static void h_shfl(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    unsigned k = in->ndst;
    uint64_t *r = DST(0);
    const uint64_t *a = SRC(k), *b = SRC(k + 1), *c = SRC(k + 2);
    const uint64_t *mk = (in->m.flags & PTX_MF_SYNC) && in->nopnd > k + 3 ? SRC(k + 3) : NULL;
    uint64_t src[32];
    for (int l = 0; l < 32; l++) src[l] = a[l];
    uint32_t pv = 0;
    int mode = in->m.sub;
    EXEC_LANES(m, {
        bool ok;
        int j = exec_shfl_src(mode, l, b[l], c[l], &ok);
        uint32_t takes_part = m & (mk ? (uint32_t)mk[l] : EXEC_FULL);
        r[l] = j == l || (takes_part >> j & 1) ? src[j] : 0;
        if (ok) pv |= 1u << l;
    });
    if (k == 2) pwrite(w, &in->o[1], pv, m);
}

/* The .sync forms name their participants with a member mask, which may
** differ from lane to lane (cooperative-groups tiles smaller than a warp give
** each tile its own mask).  Lanes are handled a mask at a time: for the lanes
** of m whose mask is M, the participants are the lanes of m within M. */
static uint32_t member_groups(const uint64_t *maskrow, bool sync, uint32_t m, uint32_t *grps, uint32_t *mems)
{
    uint32_t n = 0, todo = m;
    while (todo) {
        int l0 = __builtin_ctz(todo);
        uint32_t mk = sync ? (uint32_t)maskrow[l0] : EXEC_FULL, grp = 0;
        for (uint32_t t = todo; t; t &= t - 1) {
            int l = __builtin_ctz(t);
            if (!sync || (uint32_t)maskrow[l] == mk) grp |= 1u << l;
        }
        grps[n] = grp;
        mems[n] = m & mk;
        n++;
        todo &= ~grp;
    }
    return n;
}

static void h_vote(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    bool sync = (in->m.flags & PTX_MF_SYNC) && in->nopnd > 2;
    const uint64_t *mrow = sync ? SRC(2) : NULL;
    uint32_t grps[32], mems[32];
    uint32_t ng = member_groups(mrow, sync, m, grps, mems);
    uint32_t pall = predv(w, &in->o[1]);
    uint32_t res = 0;
    uint64_t *r = in->m.sub == PTX_SUB_BALLOT ? DST(0) : NULL;
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t members = mems[g], p = pall & members;
        switch (in->m.sub) {
        case PTX_SUB_BALLOT: EXEC_LANES(grps[g], r[l] = p); break;
        case PTX_SUB_ALL: if (p == members) res |= grps[g]; break;
        case PTX_SUB_ANY: if (p) res |= grps[g]; break;
        default: /* uni */ if (p == members || p == 0) res |= grps[g]; break;
        }
    }
    if (!r) pwrite(w, &in->o[0], res, m);
}

static void h_match(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    unsigned k = in->ndst;
    uint64_t *r = DST(0);
    uint64_t a[32]; /* the destination may be the source's register: read them all first */
    memcpy(a, SRC(k), sizeof a);
    bool wide = d->size == 8;
    uint32_t grps[32], mems[32];
    uint32_t ng = member_groups(SRC(k + 1), true, m, grps, mems);
    uint32_t pres = 0;
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t members = mems[g];
        if (in->m.sub == PTX_SUB_ALL) {
            bool same = true;
            int l0 = __builtin_ctz(members ? members : grps[g]);
            EXEC_LANES(members, if ((wide ? a[l] : (uint32_t)a[l]) != (wide ? a[l0] : (uint32_t)a[l0])) same = false);
            EXEC_LANES(grps[g], r[l] = same ? members : 0);
            if (same) pres |= grps[g];
            continue;
        }
        EXEC_LANES(grps[g], {
            uint32_t eq = 0;
            uint64_t v = wide ? a[l] : (uint32_t)a[l];
            for (uint32_t mm = members; mm; mm &= mm - 1) {
                int j = __builtin_ctz(mm);
                if ((wide ? a[j] : (uint32_t)a[j]) == v) eq |= 1u << j;
            }
            r[l] = eq;
        });
    }
    if (in->m.sub == PTX_SUB_ALL && k == 2) pwrite(w, &in->o[1], pres, m);
}

static void h_activemask(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    EXEC_LANES(m, r[l] = m);
}

static void h_redux(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    uint64_t *r = DST(0);
    uint64_t a[32]; /* the destination may be the source's register: read them all first */
    memcpy(a, SRC(1), sizeof a);
    bool sgn = ptx_type_is_signed((ptx_type)in->type);
    uint32_t grps[32], mems[32];
    uint32_t ng = member_groups(SRC(2), true, m, grps, mems);
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t acc = 0;
        bool first = true;
        for (uint32_t mm = mems[g]; mm; mm &= mm - 1) {
            int j = __builtin_ctz(mm);
            uint32_t v = (uint32_t)a[j];
            if (first) {
                acc = v;
                first = false;
                continue;
            }
            switch (in->m.sub) {
            case PTX_SUB_ADD: acc += v; break;
            case PTX_SUB_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case PTX_SUB_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            case PTX_SUB_AND: acc &= v; break;
            case PTX_SUB_OR: acc |= v; break;
            case PTX_SUB_XOR: acc ^= v; break;
            default: break;
            }
        }
        EXEC_LANES(grps[g], r[l] = acc);
    }
}

static void h_elect(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    unsigned k = in->ndst;
    uint32_t grps[32], mems[32];
    uint32_t ng = member_groups(SRC(k), true, m, grps, mems);
    uint32_t pv = 0;
    uint64_t *r = in->o[0].kind == PTX_OK_REG ? DST(0) : NULL;
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t leader = mems[g] ? (uint32_t)__builtin_ctz(mems[g]) : 0;
        if (r) EXEC_LANES(grps[g], r[l] = leader);
        if (mems[g]) pv |= 1u << leader;
    }
    const ptx_opnd *po = r ? (k == 2 ? &in->o[1] : NULL) : &in->o[0];
    if (po) pwrite(w, po, pv, m);
}

exec_fn exec_pick_warp(const ptx_insn *in, exec_dinsn *d, const char **why)
{
    (void)why;
    d->size = (uint8_t)ptx_type_size((ptx_type)in->type);
    switch (in->op) {
    case PTX_OP_SHFL: d->kind |= EXEC_DK_WARP | EXEC_DK_CONV; return h_shfl;
    case PTX_OP_VOTE: d->kind |= EXEC_DK_WARP | EXEC_DK_CONV; return h_vote;
    case PTX_OP_MATCH: d->kind |= EXEC_DK_WARP | EXEC_DK_CONV; return h_match;
    case PTX_OP_ACTIVEMASK: return h_activemask;
    case PTX_OP_REDUX: d->kind |= EXEC_DK_WARP | EXEC_DK_CONV; return h_redux;
    case PTX_OP_ELECT: d->kind |= EXEC_DK_WARP | EXEC_DK_CONV; return h_elect;
    default: return NULL;
    }
}
