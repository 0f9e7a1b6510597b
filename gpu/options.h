/*
** options.h -- the whole GPU option table: exec/options.def (the device as
** the APIs report it, the functional model), regmutex/options.def (register
** sharing), then gpu/options.def (clocks, SM cores) and gpu/mem_options.def
** (memory system).  The lists resolve as one table: one tp_opts holds every
** value, exec/'s ids index its first rows and the ids of each list continue
** after the one before, so any layer reads any option with tp_opt_i(o, ID).  Whoever creates a device's options (api/, the tpsim
** command, tests) uses gpu_opts_init; exec/ alone never needs more than its
** own rows.
*/
#ifndef GPU_OPTIONS_H
#define GPU_OPTIONS_H

#include "../exec/exec.h"
#include "../regmutex/options.h"

enum {
    GPU_OPT_BEFORE_ = RS_OPT_COUNT - 1,
#define X(id, name, type, def, min, max, choices, doc) id,
#define B(id, name, type, def, min, max, choices, ctype, field, doc) id,
#include "options.def"
#include "mem_options.def"
#undef X
#undef B
    GPU_OPT_COUNT /* rows in the whole table */
};

/* Every option at its default. */
void gpu_opts_init(tp_opts *o);
/* Defaults, then $TPSIM_CONFIG, $TPSIM_OPTIONS, $TPSIM_MODE, $TPSIM_TRACE
** (exec_opts_apply_env).  Returns false with the reason in e. */
bool gpu_opts_from_env(tp_opts *o, tp_err *e);

#endif
