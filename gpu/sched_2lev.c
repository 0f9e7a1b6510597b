/*
** sched_2lev.c -- two-level scheduling (Narasiman et al., MICRO 2011; Gebhart
** et al., ISCA 2011): only the first sm.two_level_active warps of the
** scheduler's list act[] form the active set, tried in loose round-robin
** order; a warp that issues a long-latency memory access (a global or local
** load) leaves the active set for the tail of the pending list, and the
** oldest pending warp takes its place.
*/
#include "internal.h"

uint32_t gpu_2lev_begin(const gpu_cfg *c, gpu_sched *s)
{
    uint32_t na = s->nact < c->two_level_active ? s->nact : c->two_level_active;
    s->nactive = na;
    s->start = s->last_act >= 0 && (uint32_t)s->last_act < na ? (uint32_t)s->last_act + 1 : 0;
    return na;
}

uint16_t gpu_2lev_at(const gpu_sched *s, uint32_t i) { return s->act[(s->start + i) % s->nactive]; }

void gpu_2lev_issued(const gpu_cfg *c, gpu_sched *s, uint16_t w, bool long_latency)
{
    if (!long_latency || s->nact <= c->two_level_active) return;
    for (uint32_t i = 0; i < s->nact; i++)
        if (s->act[i] == w) {
            memmove(s->act + i, s->act + i + 1, (s->nact - i - 1) * sizeof *s->act);
            s->act[s->nact - 1] = w;
            return;
        }
}
