/*
** gpu_rig.h -- what the whole-kernel timing tests share (test_gpu_sm.c,
** test_gpu_tensor.c, test_gpu_warppool.c): a PTX header, a fill of four
** independent instructions, and a rig of a device, a module and the timing
** model on the option tables' defaults plus "key=value ..." overrides.
*/
#ifndef TESTS_UNIT_GPU_RIG_H
#define TESTS_UNIT_GPU_RIG_H

#include "exec/exec.h"
#include "gpu/gpu.h"
#include "gpu/options.h"
#include <stdio.h>
#include <string.h>

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
/* four independent instructions: whatever came before is written back
** (lat.int_add + 1 = 5 cycles) by the time the timed part starts */
#define FILL "  mov.u32 %r30, 0;\n  mov.u32 %r31, 0;\n  mov.u32 %r32, 0;\n  mov.u32 %r33, 0;\n"

typedef struct gpu_rig {
    exec_dev *dev;
    gpu *g;
    exec_mod *m;
    tp_opts o;
} gpu_rig;

/* Loads ptx (named `name` in messages) with options opts (NULL: none). */
static inline bool gpu_rig_open(gpu_rig *r, const char *ptx, const char *opts, const char *name)
{
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(&r->o);
    if (opts && !tp_opts_set_list(&r->o, opts, TP_SRC_OVERRIDE, &e)) {
        printf("bad options: %s\n", e.msg);
        return false;
    }
    r->dev = exec_dev_create(&r->o, stdout, &e);
    if (!r->dev) return false;
    exec_status st;
    r->m = exec_mod_load(r->dev, ptx, strlen(ptx), name, &st, &e);
    if (!r->m) {
        printf("    load failed: %s\n", e.msg);
        return false;
    }
    r->g = gpu_new(&r->o);
    return true;
}

static inline void gpu_rig_close(gpu_rig *r)
{
    gpu_free(r->g);
    exec_mod_unload(r->m);
    exec_dev_destroy(r->dev);
    tp_opts_free(&r->o);
}

#endif
