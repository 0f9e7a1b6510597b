/*
** options.h -- the register-sharing rows of the GPU option table
** (regmutex/options.def).  Their ids continue after exec/'s (OPT_COUNT);
** gpu/options.h continues after these, so one tp_opts holds every value and
** any layer from here up reads them with tp_opt_i(o, RS_OPT_...).  A table
** with exec/'s rows only (exec_opts_init) has none of them: read them
** through rs_opt_* (policy.h), which says "none" there.
*/
#ifndef RS_OPTIONS_H
#define RS_OPTIONS_H

#include "../exec/options.h"

enum {
    RS_OPT_BEFORE_ = OPT_COUNT - 1,
#define X(id, name, type, def, min, max, choices, doc) id,
#include "options.def"
#undef X
    RS_OPT_COUNT
};

/* The rows (RS_OPT_COUNT - OPT_COUNT of them). */
extern const tp_optdef rs_optdefs[];

#endif
