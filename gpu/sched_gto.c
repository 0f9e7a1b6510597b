/*
** sched_gto.c -- greedy-then-oldest: keep issuing from the warp that issued
** last while it can; otherwise the oldest warp that can.  (Rogers et al.,
** MICRO 2012; the policy of the GTX 480 model in the RegMutex and WarpPool
** papers.)  Candidate 0 is the last warp, then the list oldest first
** without it.
*/
#include "internal.h"

uint32_t gpu_gto_begin(gpu_sched *s) { return s->n; }

uint16_t gpu_gto_at(const gpu_sched *s, uint32_t i)
{
    if (s->last_pos < 0) return s->w[i];
    if (i == 0) return (uint16_t)s->last;
    i--;
    return s->w[(int32_t)i < s->last_pos ? i : i + 1];
}
