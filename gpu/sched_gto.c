/*
** sched_gto.c -- greedy-then-oldest: keep issuing from the warp that issued
** last while it can; otherwise the oldest warp that can.  (Rogers et al.,
** MICRO 2012; the policy of the GTX 480 model in the RegMutex and WarpPool
** papers.)
*/
#include "internal.h"

uint32_t gpu_gto_order(gpu_sched *s, uint16_t *out)
{
    uint32_t k = 0;
    if (s->last >= 0) out[k++] = (uint16_t)s->last;
    for (uint32_t i = 0; i < s->n; i++)
        if ((int32_t)s->w[i] != s->last) out[k++] = s->w[i];
    return k;
}
