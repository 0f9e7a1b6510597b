/*
** functional.c -- functional mode: a small driver over the stepping interface
** of exec.h (it uses nothing else of exec/).
**
** The grid runs with a fixed number of CTAs resident at once (as many as the
** device holds, exec_occupancy x SMs, or exec.resident_ctas).  Resident CTAs
** take turns in slot order; within a CTA each runnable warp runs up to
** exec.quantum instructions per turn (exec_warp_run), until it waits at a
** barrier, finishes or yields.  When a CTA finishes, the next one in linear
** order takes its slot.  The order is fixed, so every run of the same launch
** executes the same instructions in the same order: results, counters and
** printf output are deterministic.  %clock counts warp instructions, and
** CTA k reports %smid k mod device.num_sms.
*/
#include "exec.h"
#include <stdlib.h>

exec_status exec_launch_kernel(exec_mod *m, int kernel, const exec_launch *l, exec_result *r)
{
    exec_grid *g = exec_grid_open(m, kernel, l, r);
    if (!g) return r->status;
    const tp_opts *o = exec_dev_opts(exec_mod_dev(m));
    uint32_t nsm = (uint32_t)tp_opt_i(o, OPT_DEVICE_NUM_SMS);
    uint32_t quantum = (uint32_t)tp_opt_i(o, OPT_EXEC_QUANTUM);
    uint64_t ncta = exec_grid_ctas(g);
    uint64_t res = (uint64_t)tp_opt_i(o, OPT_EXEC_RESIDENT_CTAS);
    if (l->grid_workspace) res = ncta; /* a cooperative grid: all of it at once */
    if (!res) {
        uint32_t per_sm = exec_grid_occ(g)->ctas_per_sm;
        res = (uint64_t)(per_sm ? per_sm : 1) * nsm;
    }
    if (res > ncta) res = ncta;
    exec_cta **slot = calloc(res, sizeof *slot);
    if (!slot) abort();
    uint64_t active = 0;
    while (exec_grid_status(g) == EXEC_OK) {
        for (uint64_t s = 0; s < res; s++)
            if (!slot[s] && exec_grid_ctas_started(g) < ncta) {
                slot[s] = exec_cta_start(g, (uint32_t)(exec_grid_ctas_started(g) % nsm));
                active++;
            }
        if (!active) break;
        bool ran_any = false;
        for (uint64_t s = 0; s < res && exec_grid_status(g) == EXEC_OK; s++) {
            exec_cta *c = slot[s];
            if (!c) continue;
            uint32_t nw = exec_cta_nwarps(c);
            for (uint32_t i = 0; i < nw && exec_grid_status(g) == EXEC_OK; i++)
                if (exec_warp_run(exec_cta_warp(c, i), quantum)) ran_any = true;
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
    return exec_grid_close(g, r);
}
