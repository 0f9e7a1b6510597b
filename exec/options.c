/* options.c -- the GPU option table and how a process finds its settings. */
#include "options.h"
#include "../base/builtin.h"
#include <stdlib.h>

const tp_optdef exec_optdefs[OPT_COUNT] = {
#define X(id, name, type, def, min, max, choices, doc) {name, type, def, min, max, choices, doc},
#include "options.def"
#undef X
};

void exec_opts_init(tp_opts *o) { tp_opts_init(o, exec_optdefs, OPT_COUNT, tp_builtin_config); }

bool exec_opts_apply_env(tp_opts *o, tp_err *e)
{
    const char *cfg = getenv("TPSIM_CONFIG");
    if (!tp_opts_load_config(o, cfg && *cfg ? cfg : EXEC_DEFAULT_CONFIG, e)) return false;
    const char *list = getenv("TPSIM_OPTIONS");
    if (list && *list && !tp_opts_set_list(o, list, TP_SRC_OVERRIDE, e)) return false;
    const char *mode = getenv("TPSIM_MODE");
    if (mode && *mode && !tp_opts_set(o, "mode", mode, TP_SRC_OVERRIDE, e)) return false;
    const char *trace = getenv("TPSIM_TRACE");
    if (trace && *trace && !tp_opts_set(o, "exec.trace", trace, TP_SRC_OVERRIDE, e)) return false;
    return true;
}
