/* options.c -- the register-sharing rows of the GPU option table (options.def). */
#include "options.h"

/* regs.policy's choices come from the registration lines (policies.def):
** "none|regmutex|..." */
static const char policy_choices[] = ""
#define RS_POLICY(name, sym) "|" #name
#include "policies.def"
#undef RS_POLICY
    ;
#define RS_POLICY_CHOICES (policy_choices + 1)

const tp_optdef rs_optdefs[] = {
#define X(id, name, type, def, min, max, choices, doc) {name, type, def, min, max, choices, doc},
#include "options.def"
#undef X
};
_Static_assert(OPT_COUNT + TP_ARRAY_LEN(rs_optdefs) == RS_OPT_COUNT, "option ids and rows disagree");
