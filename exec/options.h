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

/* Applies, to options already initialised (with this table or a larger one
** that starts with it: gpu/options.h), the configuration named by
** $TPSIM_CONFIG (a built-in name or a path), then $TPSIM_OPTIONS
** ("key=value ..."), then $TPSIM_MODE and $TPSIM_TRACE.  Returns false with
** the reason in e. */
bool exec_opts_apply_env(tp_opts *o, tp_err *e);
/* This table's options at their defaults (the functional model alone). */
void exec_opts_init(tp_opts *o);

#endif
