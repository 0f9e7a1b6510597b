/* options.h -- the GPU option table (exec/options.def). */
#ifndef EXEC_OPTIONS_H
#define EXEC_OPTIONS_H
#include "../base/opt.h"

enum {
#define X(id, name, type, def, min, max, choices, doc) id,
#include "options.def"
#undef X
    OPT_COUNT
};

extern const tp_optdef exec_optdefs[OPT_COUNT];

/* The built-in configuration a process gets when $TPSIM_CONFIG names none:
** a compute-capability-7.5 GPU, as nvcc 13's default target expects
** (configs/rtx2060.cfg).  The option table's own defaults stay the GTX 480
** model (configs/gtx480.cfg). */
#define EXEC_DEFAULT_CONFIG "rtx2060"

/* The shared memory one CTA may use when its kernel opts in: the larger of
** device.shared_per_block_optin and device.shared_per_block. */
static inline int64_t exec_opt_shared_optin(const tp_opts *o)
{
    int64_t a = tp_opt_i(o, OPT_DEVICE_SHARED_PER_BLOCK), b = tp_opt_i(o, OPT_DEVICE_SHARED_PER_BLOCK_OPTIN);
    return a > b ? a : b;
}

/* Applies, to options already initialised with the whole GPU table
** (gpu/options.h: the configurations set timing keys too), the
** configuration named by $TPSIM_CONFIG (a built-in name or a path; unset or
** empty: EXEC_DEFAULT_CONFIG), then $TPSIM_OPTIONS ("key=value ..."), then
** $TPSIM_MODE and $TPSIM_TRACE.  Returns false with the reason in e. */
bool exec_opts_apply_env(tp_opts *o, tp_err *e);
/* This table's options at their defaults (the functional model alone). */
void exec_opts_init(tp_opts *o);

#endif
