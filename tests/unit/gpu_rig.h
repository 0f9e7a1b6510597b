/*
** gpu_rig.h -- what the whole-kernel timing tests share (test_gpu_sm.c,
** test_gpu_tensor.c, test_gpu_warppool.c, test_regmutex.c): a fill of four
** independent instructions, and exec_rig.h's rig with the timing model, on
** the option tables' defaults plus "key=value ..." overrides, and a launch
** through it.
**
** One default is changed for them: sm.wb_latency = 0 (the table's, the GTX
** 480's, is 5).  The golden numbers are each unit's own arithmetic from its
** configured latencies (gpu/internal.h's conventions: a dependent chain
** issues every L + 1 cycles); the stage sm.wb_latency adds to every
** write-back is timed by t_dependent_chain (test_gpu_sm.c), which sets it.
*/
#ifndef TESTS_UNIT_GPU_RIG_H
#define TESTS_UNIT_GPU_RIG_H

#include "tests/unit/exec_rig.h"
#include "gpu/gpu.h"
#include "gpu/options.h"

/* four independent instructions: whatever came before is written back
** (lat.int_add + 1 = 5 cycles) by the time the timed part starts */
#define FILL "  mov.u32 %r30, 0;\n  mov.u32 %r31, 0;\n  mov.u32 %r32, 0;\n  mov.u32 %r33, 0;\n"

typedef exec_rig gpu_rig;

/* Loads ptx (named `name` in messages) with options opts (NULL: none) and
** the code pass `pass` (NULL: none) on a device with the timing model. */
/* the table's defaults with sm.wb_latency = 0 (above) */
static inline void gpu_rig_opts_init(tp_opts *o)
{
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(o);
    if (!tp_opts_set_list(o, "sm.wb_latency=0", TP_SRC_OVERRIDE, &e)) printf("    options: %s\n", e.msg);
}

static inline bool gpu_rig_open_pass(gpu_rig *r, const char *ptx, const char *opts, const char *name,
                                     exec_code_pass pass)
{
    if (!exec_rig_open_with(r, gpu_rig_opts_init, ptx, opts, name, pass)) return false;
    r->g = gpu_new(&r->o);
    return true;
}

static inline bool gpu_rig_open(gpu_rig *r, const char *ptx, const char *opts, const char *name)
{
    return gpu_rig_open_pass(r, ptx, opts, name, NULL);
}

static inline void gpu_rig_close(gpu_rig *r)
{
    gpu_free(r->g);
    r->g = NULL;
    exec_rig_close(r);
}

/* Kernel k on grid CTAs of block threads with the parameter buffer params
** (bytes long), through the timing model: its statistics in *ks (zeroed
** first), the result in *res when res is not NULL. */
static inline exec_status gpu_rig_launch(gpu_rig *r, const char *k, uint32_t grid, uint32_t block, const void *params,
                                         uint32_t bytes, gpu_kstats *ks, exec_result *res)
{
    exec_launch l = {{grid, 1, 1}, {block, 1, 1}, 0, params, bytes, 0, 0};
    exec_result rr;
    memset(ks, 0, sizeof *ks);
    return gpu_launch(r->g, r->m, exec_mod_kernel(r->m, k), &l, res ? res : &rr, ks, NULL, NULL);
}

#endif
