/*
** sched_lrr.c -- loose round robin: start from the warp after the one that
** issued last, in age order, wrapping around.
*/
#include "internal.h"

uint32_t gpu_lrr_order(gpu_sched *s, uint16_t *out)
{
    uint32_t start = 0;
    if (s->last >= 0)
        for (uint32_t i = 0; i < s->n; i++)
            if ((int32_t)s->w[i] == s->last) {
                start = i + 1;
                break;
            }
    for (uint32_t i = 0; i < s->n; i++) out[i] = s->w[(start + i) % s->n];
    return s->n;
}
