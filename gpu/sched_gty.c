/*
** sched_gty.c -- greedy-then-youngest: keep issuing from the warp that
** issued last while it can; otherwise the youngest warp that can (the one
** dispatched last).  The issue policy that Huerta et al. measured on
** Turing, Ampere and Blackwell cores ("Dissecting and Modeling the
** Architecture of Modern GPU Cores", MICRO 2025, section 5.1.2: Compiler
** Guided Greedy Then Youngest; the compiler's part, the control bits'
** stall counts and yields, is what the scoreboard and the pipes' latencies
** stand for here).  Candidate 0 is the last warp, then the list youngest
** first without it.
*/
#include "internal.h"

uint32_t gpu_gty_begin(gpu_sched *s) { return s->n; }

uint16_t gpu_gty_at(const gpu_sched *s, uint32_t i)
{
    if (s->last_pos < 0) return s->w[s->n - 1 - i];
    if (i == 0) return (uint16_t)s->last;
    uint32_t p = s->n - i; /* i = 1 .. n-1: positions n-1 .. 0 without last_pos */
    return s->w[(int32_t)p <= s->last_pos ? p - 1 : p];
}
