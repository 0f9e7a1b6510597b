/* options.c -- the vector machine's option table (options.def). */
#include "vec.h"
#include "../base/builtin.h"

const tp_optdef vec_optdefs[VEC_OPT_COUNT] = {
#define X(id, name, type, def, min, max, choices, doc) {name, type, def, min, max, choices, doc},
#include "options.def"
#undef X
};

void vec_opts_init(tp_opts *o) { tp_opts_init(o, vec_optdefs, VEC_OPT_COUNT, tp_builtin_config); }
