/* options.c -- the whole GPU option table, put together once. */
#include "options.h"
#include "internal.h"
#include "../base/builtin.h"
#include <pthread.h>
#include <stdlib.h>

/* ldst.frontend: "auto", then the front ends of gpu/ldst.def in its order
** (gpu_ldst_frontend_of reads the index so), each with its doc. */
#define GPU_LDST_FE(name, doc) "|" #name
static const char ldst_choices[] = "auto"
#include "ldst.def"
    ;
#undef GPU_LDST_FE
#define GPU_LDST_FE(name, doc) " " #name ": " doc ";"
static const char ldst_doc[] = "the LD/ST unit's front end toward the L1D (gpu/ldst.h):"
#include "ldst.def"
    " auto: as the older switches say -- warppool=1: warppool, else mrpb=1: mrpb, else l1d.banks > 1: banked, else "
    "baseline (a name overrides warppool and mrpb; l1d.banks is the L1D's banks with every front end)";
#undef GPU_LDST_FE
#define GPU_LDST_FE_CHOICES ldst_choices
#define GPU_LDST_FE_DOC ldst_doc

/* The rows; a bound row (B) names the gpu_cfg field gpu_cfg_init copies
** its value into (tp_opts_bind), which the row also declares (internal.h). */
static const tp_optdef gpu_rows[] = {
#define X(id, name, type, def, min, max, choices, doc) {name, type, def, min, max, choices, doc, TP_BIND_NONE, 0},
#define B(id, name, type, def, min, max, choices, ctype, field, doc) \
    {name, type, def, min, max, choices, doc, TP_BIND_OF(ctype), offsetof(gpu_cfg, field)},
#include "options.def"
#include "mem_options.def"
#undef X
#undef B
};
_Static_assert(RS_OPT_COUNT + TP_ARRAY_LEN(gpu_rows) == GPU_OPT_COUNT, "option ids and rows disagree");

static tp_optdef all_rows[GPU_OPT_COUNT];
static pthread_once_t all_once = PTHREAD_ONCE_INIT;

static void build(void)
{
    memcpy(all_rows, exec_optdefs, sizeof(tp_optdef) * OPT_COUNT);
    memcpy(all_rows + OPT_COUNT, rs_optdefs, sizeof(tp_optdef) * (RS_OPT_COUNT - OPT_COUNT));
    memcpy(all_rows + RS_OPT_COUNT, gpu_rows, sizeof gpu_rows);
}

/* The whole table (GPU_OPT_COUNT rows). */
static const tp_optdef *gpu_optdefs(void)
{
    pthread_once(&all_once, build);
    return all_rows;
}

void gpu_opts_init(tp_opts *o) { tp_opts_init(o, gpu_optdefs(), GPU_OPT_COUNT, tp_builtin_config); }

bool gpu_opts_from_env(tp_opts *o, tp_err *e)
{
    gpu_opts_init(o);
    if (!exec_opts_apply_env(o, e)) return false;
    /* TPSIM_THREADS=N is sim.threads=N (tpsim run -j N sets it) */
    const char *threads = getenv("TPSIM_THREADS");
    return !threads || !*threads || tp_opts_set(o, "sim.threads", threads, TP_SRC_OVERRIDE, e);
}
