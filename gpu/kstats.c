/*
** kstats.c -- a kernel launch's performance-mode statistics (the statistics
** file's kernel entries): gpu/kstats.def's rows, the LD/ST front ends' own
** and the register-sharing policies' where the rows say, then the tables.
** Registered once per registry, relative to a record.
*/
#include "kstats_rows.h"
#include <pthread.h>

static const tp_stat_def defs[] = {
#define GPU_KSTAT GPU_KS_ROW
#define GPU_KSTAT_IN GPU_KS_ROW
#define GPU_KSTAT_OP GPU_KS_OP
#define GPU_KSTAT_FRONTENDS {.name = NULL}, /* where the front ends' rows go */
#include "kstats.def"
#undef GPU_KSTAT
#undef GPU_KSTAT_IN
#undef GPU_KSTAT_OP
#undef GPU_KSTAT_FRONTENDS
};

#define STALL(k) (offsetof(gpu_pcstat, stall) + (k) * sizeof(uint64_t))

static const tp_stat_col pc_cols[] = {
    {"pc", TP_STAT_U32, offsetof(gpu_pcstat, pc)},
    {"issued", TP_STAT_U64, offsetof(gpu_pcstat, issued)},
#define PC_COL(id, name, pc, doc) PC_COL_##pc(id, name)
#define PC_COL_0(id, name)
#define PC_COL_1(id, name) {"stall." name, TP_STAT_U64, STALL(GPU_ST_##id)},
    GPU_STALLS(PC_COL)
#undef PC_COL
#undef PC_COL_0
#undef PC_COL_1
    {"insn", TP_STAT_STR, offsetof(gpu_pcstat, text)},
    {"src", TP_STAT_STR, offsetof(gpu_pcstat, src)},
};

static const tp_stat_col iv_cols[] = {
    {"cycle", TP_STAT_U64, offsetof(gpu_interval, cycle)},
    {"warp_instructions", TP_STAT_U64, offsetof(gpu_interval, warp_insns)},
    {"thread_instructions", TP_STAT_U64, offsetof(gpu_interval, thread_insns)},
    {"l1d_misses", TP_STAT_U64, offsetof(gpu_interval, l1d_misses)},
    {"l2_misses", TP_STAT_U64, offsetof(gpu_interval, l2_misses)},
    {"dram_reads", TP_STAT_U64, offsetof(gpu_interval, dram_reads)},
    {"dram_writes", TP_STAT_U64, offsetof(gpu_interval, dram_writes)},
    {"resident_warp_cycles", TP_STAT_U64, offsetof(gpu_interval, resident_warps)},
    {"l1d_accesses", TP_STAT_U64, offsetof(gpu_interval, l1d_accesses)},
    {"l1d_hits", TP_STAT_U64, offsetof(gpu_interval, l1d_hits)},
    {"l2_accesses", TP_STAT_U64, offsetof(gpu_interval, l2_accesses)},
    {"l2_hits", TP_STAT_U64, offsetof(gpu_interval, l2_hits)},
};

static const tp_stat_table pc_table = {pc_cols, (uint32_t)TP_ARRAY_LEN(pc_cols), sizeof(gpu_pcstat),
                                       offsetof(gpu_kstats, pcs), offsetof(gpu_kstats, npcs)};
static const tp_stat_table iv_table = {iv_cols, (uint32_t)TP_ARRAY_LEN(iv_cols), sizeof(gpu_interval),
                                       offsetof(gpu_kstats, intervals), offsetof(gpu_kstats, nintervals)};

static const tp_stat_def tables[] = {
    {.name = "stall_pcs", .kind = TP_STAT_TABLE, .unit = TP_UNIT_ROWS, .rule = TP_RULE_PROP, .table = &pc_table,
     .doc = "per instruction: warp instructions issued and scheduler cycles lost with it first in line (stats.pc)"},
    {.name = "intervals", .kind = TP_STAT_TABLE, .unit = TP_UNIT_ROWS, .rule = TP_RULE_PROP, .table = &iv_table,
     .doc = "the main counters per stats.interval cycles"},
};

void gpu_kstats_register(tp_stats *s, size_t base)
{
    for (size_t i = 0; i < TP_ARRAY_LEN(defs); i++) {
        if (defs[i].name) tp_stats_add_def(s, base, &defs[i]);
        else gpu_ldst_stats_register(s, base); /* each front end's own (gpu/ldst.h) */
    }
    rs_stats_register(s, base + offsetof(gpu_kstats, regs)); /* register sharing: each policy's own (regmutex.*, rfv.*) */
    tp_stats_add_defs(s, base, tables, TP_ARRAY_LEN(tables));
}

static tp_stats registry;
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static void registry_make(void)
{
    tp_stats_init(&registry);
    gpu_kstats_register(&registry, 0);
}

const tp_stats *gpu_kstats_registry(void)
{
    pthread_once(&registry_once, registry_make);
    return &registry;
}
