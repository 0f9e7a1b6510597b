/*
** kstats_rows.h -- gpu/kstats.def's row format as tp_stat_def initializers
** (base/stats.h), for the files that write rows: gpu/kstats.c (the kernel
** record's own) and the LD/ST front ends with statistics of their own
** (gpu/ldst_pool.c).  Include it last: it defines the short names the rows
** use (SM, L1D, LDST, FE, MEMSYS, OWN, COL, NOCOL, TIMED).
*/
#ifndef GPU_KSTATS_ROWS_H
#define GPU_KSTATS_ROWS_H

#include "internal.h"

#define GPU_KS_OFF(m) offsetof(gpu_kstats, m)
#define GPU_KS_RULE_ADD .rule = TP_RULE_ADD
#define GPU_KS_RULE_MAX .rule = TP_RULE_MAX
#define GPU_KS_RULE_PROP .rule = TP_RULE_PROP
#define GPU_KS_RULE_RATIO(n, d, s) .rule = TP_RULE_RATIO, .num = GPU_KS_OFF(n), .den = GPU_KS_OFF(d), .scale = (s)

/* One row, and a comma: GPU_KSTAT's arguments (an alias, not a wrapper:
** a wrapper would expand SM(m) into commas before passing it on);
** GPU_KS_OP: an operand (TP_STAT_HIDDEN). */
#define GPU_KS_ROW(kind_, member, name_, unit_, rule_, from, col_, doc_)                                              \
    {.name = name_, .kind = TP_STAT_##kind_, .unit = TP_UNIT_##unit_, GPU_KS_RULE_##rule_, .off = GPU_KS_OFF(member), \
     .src = {from}, .col = col_, .doc = doc_},
#define GPU_KS_OP(kind_, member, name_, unit_, rule_, from, col_, doc_)                                               \
    {.name = name_, .kind = TP_STAT_##kind_, .unit = TP_UNIT_##unit_, GPU_KS_RULE_##rule_, .flags = TP_STAT_HIDDEN,   \
     .off = GPU_KS_OFF(member), .src = {from}, .col = col_, .doc = doc_},

/* where the SMs count it (tp_stat_src: gpu.c sums them) */
#define SM(m) {GPU_IN_SM, GPU_U64_IN(gpu_sm, m)},
#define L1D(m) {GPU_IN_L1D, GPU_U64_IN(gpu_l1stats, m)},
#define LDST(m) {GPU_IN_LDST, GPU_U64_IN(gpu_ldstkstats, m)},
#define FE(m) {GPU_IN_FE, GPU_U64_IN(gpu_ldstkstats, m)},
#define MEMSYS(m) {GPU_IN_MEMSYS, GPU_U64_IN(gpu_memstats, m)},
#define OWN {0, 0},
/* a column of the run summary */
#define COL(head, width, prec, flags) {head, width, prec, flags}
#define NOCOL {NULL, 0, 0, 0}
#define TIMED GPU_SUMMARY_TIMED

#endif
