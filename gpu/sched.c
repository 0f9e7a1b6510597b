/*
** sched.c -- the warps of one scheduler and the choice of policy.  Each
** scheduler keeps its warps oldest first (the order CTAs were dispatched,
** warps within a CTA by index); the policies (sched_gto.c, sched_lrr.c,
** sched_2lev.c) only say in which order to try them this cycle.  The issue
** stage (sm.c) takes the first warp in that order that can issue.
*/
#include "internal.h"

uint32_t gpu_sched_order(const gpu_cfg *c, gpu_sched *s, uint16_t *out)
{
    switch (c->policy) {
    case GPU_SCHED_LRR: return gpu_lrr_order(s, out);
    case GPU_SCHED_TWO_LEVEL: return gpu_2lev_order(c, s, out);
    default: return gpu_gto_order(s, out);
    }
}

void gpu_sched_add(const gpu_cfg *c, gpu_sched *s, uint16_t w)
{
    (void)c;
    s->w[s->n++] = w; /* dispatched last: youngest */
    s->act[s->nact++] = w;
}

static void drop(uint16_t *a, uint32_t *n, uint16_t w)
{
    for (uint32_t i = 0; i < *n; i++)
        if (a[i] == w) {
            memmove(a + i, a + i + 1, (*n - i - 1) * sizeof *a);
            (*n)--;
            return;
        }
}

void gpu_sched_remove(const gpu_cfg *c, gpu_sched *s, uint16_t w)
{
    (void)c;
    drop(s->w, &s->n, w);
    drop(s->act, &s->nact, w);
    if (s->last == (int32_t)w) s->last = -1;
}

void gpu_sched_issued(const gpu_cfg *c, gpu_sched *s, uint16_t w, bool long_latency)
{
    s->last = w;
    if (c->policy == GPU_SCHED_TWO_LEVEL) gpu_2lev_issued(c, s, w, long_latency);
}
