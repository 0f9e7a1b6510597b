/*
** sched.c -- the warps of one scheduler and the choice of policy.  Each
** scheduler keeps its warps oldest first (the order CTAs were dispatched,
** warps within a CTA by index); a policy (sched_gto.c, sched_gty.c,
** sched_lrr.c, sched_2lev.c) only says which warp is the i-th to try this cycle:
** gpu_sched_begin prepares the cycle and returns how many candidates there
** are, gpu_sched_at(i) names them in order.  The issue stage (sm.c) takes
** the first that can issue.  Nothing is built per cycle: the candidates are
** positions in the scheduler's lists.
*/
#include "internal.h"

static int32_t pos_of(const uint16_t *a, uint32_t n, int32_t w)
{
    for (uint32_t i = 0; i < n; i++)
        if ((int32_t)a[i] == w) return (int32_t)i;
    return -1;
}

uint32_t gpu_sched_begin(const gpu_cfg *c, gpu_sched *s)
{
    switch (c->policy) {
    case GPU_SCHED_LRR: return gpu_lrr_begin(s);
    case GPU_SCHED_TWO_LEVEL: return gpu_2lev_begin(c, s);
    case GPU_SCHED_GTY: return gpu_gty_begin(s);
    default: return gpu_gto_begin(s);
    }
}

uint16_t gpu_sched_at(const gpu_cfg *c, const gpu_sched *s, uint32_t i)
{
    switch (c->policy) {
    case GPU_SCHED_LRR: return gpu_lrr_at(s, i);
    case GPU_SCHED_TWO_LEVEL: return gpu_2lev_at(s, i);
    case GPU_SCHED_GTY: return gpu_gty_at(s, i);
    default: return gpu_gto_at(s, i);
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
    s->last_pos = pos_of(s->w, s->n, s->last);
    s->last_act = pos_of(s->act, s->nact, s->last);
}

void gpu_sched_issued(const gpu_cfg *c, gpu_sched *s, uint16_t w, bool long_latency)
{
    if (s->last != (int32_t)w) {
        s->last = w;
        s->last_pos = pos_of(s->w, s->n, w);
    }
    if (c->policy != GPU_SCHED_TWO_LEVEL) return;   /* only the two-level policy reads last_act */
    gpu_2lev_issued(c, s, w, long_latency);
    s->last_act = pos_of(s->act, s->nact, s->last);
}
