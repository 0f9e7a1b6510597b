/*
** sched_lrr.c -- loose round robin: start from the warp after the one that
** issued last, in age order, wrapping around.
*/
#include "internal.h"

uint32_t gpu_lrr_begin(gpu_sched *s)
{
    s->start = s->last_pos >= 0 ? (uint32_t)s->last_pos + 1 : 0;
    return s->n;
}

uint16_t gpu_lrr_at(const gpu_sched *s, uint32_t i) { return s->w[(s->start + i) % s->n]; }
