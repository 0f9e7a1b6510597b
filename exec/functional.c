/*
** functional.c -- functional mode: a small driver over the stepping interface
** of exec.h (it uses nothing else of exec/).
**
** The grid runs with a fixed number of CTAs resident at once (as many as the
** device holds, exec_occupancy x SMs, or exec.resident_ctas).  Resident CTAs
** take turns in slot order.  A turn (exec_cta_run) is rounds over the CTA's
** warps, each runnable warp running up to exec.quantum instructions
** (exec_warp_run) until it waits at a barrier, finishes or yields; the turn
** ends when no warp ran in a round, a warp yielded (nanosleep), or the CTA
** has run exec.cta_patience instructions since it last made progress
** (memory written, a warp finished, a barrier opened).  A CTA that computes
** and stores thus runs to its end in one turn, its warps' registers warm in
** the host's caches, and one that spins on another CTA gives way; patience
** 0 is one round a turn (tpsim's order before turns).  When a CTA finishes,
** the next one in linear order takes its slot, when the walk over the slots
** next reaches it.  The order is fixed, so every run of the same launch
** executes the same instructions in the same order: results, counters and
** printf output are deterministic.  %clock counts warp instructions, and
** CTA k reports %smid k mod device.num_sms.
*/
#include "exec.h"
#include <stdlib.h>

uint64_t exec_grid_run(exec_grid *g, uint64_t n, uint64_t res, uint32_t nsm, uint32_t quantum, uint64_t patience)
{
    if (res > n) res = n;
    if (!res) return 0;
    exec_cta **slot = calloc(res, sizeof *slot);
    if (!slot) abort();
    uint64_t started = 0, active = 0;
    /* A slot is filled as the walk comes to it, just before the CTA's first
    ** turn: the same CTAs in the same slots, and so the same order, as
    ** filling every empty slot before the walk, but a CTA that ends in its
    ** turn hands its storage, still in the host's caches, to the next. */
    while (exec_grid_status(g) == EXEC_OK && (active || started < n)) {
        bool ran_any = false;
        for (uint64_t s = 0; s < res && exec_grid_status(g) == EXEC_OK; s++) {
            if (!slot[s] && started < n) {
                slot[s] = exec_cta_start(g, (uint32_t)(exec_grid_ctas_started(g) % nsm));
                if (!slot[s]) { /* the grid has no more (or has stopped) */
                    n = started;
                    continue;
                }
                started++;
                active++;
            }
            exec_cta *c = slot[s];
            if (!c) continue;
            if (exec_cta_run(c, quantum, patience)) ran_any = true;
            if (exec_cta_done(c)) {
                exec_cta_release(c);
                slot[s] = NULL;
                active--;
            }
        }
        if (exec_grid_status(g) != EXEC_OK) break;
        exec_grid_watchdog(g, !ran_any && active);
    }
    free(slot);
    return started;
}

exec_status exec_launch_kernel(exec_mod *m, int kernel, const exec_launch *l, exec_result *r)
{
    exec_grid *g = exec_grid_open(m, kernel, l, r);
    if (!g) return r->status;
    const tp_opts *o = exec_dev_opts(exec_mod_dev(m));
    uint32_t nsm = (uint32_t)tp_opt_i(o, OPT_DEVICE_NUM_SMS);
    uint64_t ncta = exec_grid_ctas(g);
    uint64_t res = (uint64_t)tp_opt_i(o, OPT_EXEC_RESIDENT_CTAS);
    if (l->grid_workspace) res = ncta; /* a cooperative grid: all of it at once */
    if (!res) {
        uint32_t per_sm = exec_grid_occ(g)->ctas_per_sm;
        res = (uint64_t)(per_sm ? per_sm : 1) * nsm;
    }
    exec_grid_run(g, ncta, res, nsm, (uint32_t)tp_opt_i(o, OPT_EXEC_QUANTUM),
                  (uint64_t)tp_opt_i(o, OPT_EXEC_CTA_PATIENCE));
    return exec_grid_close(g, r);
}
