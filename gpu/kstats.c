/*
** kstats.c -- the names of a kernel's performance-mode statistics (the
** statistics JSON's kernel entries; later issues and users script against
** them, so they are stable).  Registered once, relative to a record.
*/
#include "internal.h"

#define K(f) (base + offsetof(gpu_kstats, f))
#define AT(x) ((const void *)(uintptr_t)(x))

static const tp_stat_col pc_cols[] = {
    {"pc", TP_STAT_U32, offsetof(gpu_pcstat, pc)},
    {"issued", TP_STAT_U64, offsetof(gpu_pcstat, issued)},
    {"stall.memory", TP_STAT_U64, offsetof(gpu_pcstat, stall) + GPU_ST_MEMORY * sizeof(uint64_t)},
    {"stall.raw", TP_STAT_U64, offsetof(gpu_pcstat, stall) + GPU_ST_RAW * sizeof(uint64_t)},
    {"stall.busy_unit", TP_STAT_U64, offsetof(gpu_pcstat, stall) + GPU_ST_BUSY_UNIT * sizeof(uint64_t)},
    {"stall.barrier", TP_STAT_U64, offsetof(gpu_pcstat, stall) + GPU_ST_BARRIER * sizeof(uint64_t)},
    {"stall.ibuffer", TP_STAT_U64, offsetof(gpu_pcstat, stall) + GPU_ST_IBUFFER * sizeof(uint64_t)},
    {"stall." RS_STALL_NAME, TP_STAT_U64, offsetof(gpu_pcstat, stall) + GPU_ST_REGS * sizeof(uint64_t)},
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

/* Tables need their own descriptors per base offset; a registry holds a
** pointer to them, so they live as long as the process (there are few
** registries: one per process that writes statistics). */
typedef struct tabs {
    tp_stat_table pcs, ivs;
} tabs;

void gpu_kstats_register(tp_stats *s, size_t base)
{
    tp_stats_add(s, "cycles", TP_STAT_U64, AT(K(cycles)), "core cycles from the launch to the last write-back (clock.core_mhz)");
    tp_stats_add(s, "ipc", TP_STAT_F64, AT(K(ipc)), "thread instructions per cycle, whole GPU");
    tp_stats_add(s, "ctas_per_sm", TP_STAT_U64, AT(K(ctas_per_sm)), "CTAs an SM holds at once (exec_occupancy)");
    tp_stats_add(s, "occupancy_limit", TP_STAT_STR, AT(K(occupancy_limit)), "the resource that limits ctas_per_sm");
    tp_stats_add(s, "achieved_occupancy", TP_STAT_F64, AT(K(achieved_occupancy)), "mean resident warps per SM per cycle over the warps an SM holds");
    static const char *const names[GPU_ST_COUNT] = {"issue.issued", "issue.memory", "issue.raw", "issue.busy_unit",
                                                    "issue.barrier", "issue.ibuffer", "issue.no_warps",
                                                    ("issue." RS_STALL_NAME)};
    static const char *const docs[GPU_ST_COUNT] = {
        "scheduler cycles that issued an instruction",
        "... idle: the first candidate warp waited for a memory access's result",
        "... idle: it waited for an arithmetic result (RAW/WAW)",
        "... idle: no operand collector or pipeline was free",
        "... idle: it waited at a barrier or fence",
        "... idle: it had no decoded instruction (fetch, branch)",
        "... idle: the scheduler had no warp",
        "... idle: the register-sharing policy could not yet give what its next instruction needs (regs.policy: an SRP section, physical registers)"};
    for (int k = 0; k < GPU_ST_COUNT; k++)
        tp_stats_add(s, names[k], TP_STAT_U64, AT(K(issue) + (size_t)k * sizeof(uint64_t)), docs[k]);
    tp_stats_add(s, "l1d.accesses", TP_STAT_U64, AT(K(l1d_accesses)), "L1D accesses (line requests)");
    tp_stats_add(s, "l1d.hits", TP_STAT_U64, AT(K(l1d_hits)), "L1D hits");
    tp_stats_add(s, "l1d.misses", TP_STAT_U64, AT(K(l1d_misses)), "L1D misses (new MSHRs)");
    tp_stats_add(s, "l1d.mshr_merges", TP_STAT_U64, AT(K(l1d_mshr_merges)), "L1D misses merged into a waiting MSHR");
    tp_stats_add(s, "l1d.reservation_fails", TP_STAT_U64, AT(K(l1d_reservation_fails)), "L1D accesses refused (no MSHR, merge limit, miss queue full)");
    tp_stats_add(s, "l1c.accesses", TP_STAT_U64, AT(K(l1c_accesses)), "constant-cache line accesses");
    tp_stats_add(s, "l1c.misses", TP_STAT_U64, AT(K(l1c_misses)), "constant-cache misses");
    tp_stats_add(s, "shared.accesses", TP_STAT_U64, AT(K(shared_accesses)), "shared-memory warp accesses");
    tp_stats_add(s, "shared.bank_conflict_cycles", TP_STAT_U64, AT(K(shared_bank_conflict_cycles)), "extra cycles bank conflicts cost");
    tp_stats_add(s, "l2.accesses", TP_STAT_U64, AT(K(l2_accesses)), "L2 accesses");
    tp_stats_add(s, "l2.hits", TP_STAT_U64, AT(K(l2_hits)), "L2 hits");
    tp_stats_add(s, "l2.misses", TP_STAT_U64, AT(K(l2_misses)), "L2 misses");
    tp_stats_add(s, "dram.reads", TP_STAT_U64, AT(K(dram_reads)), "DRAM read requests");
    tp_stats_add(s, "dram.writes", TP_STAT_U64, AT(K(dram_writes)), "DRAM write requests");
    tp_stats_add(s, "dram.row_buffer_hits", TP_STAT_U64, AT(K(dram_row_buffer_hits)), "DRAM requests that found their row open");
    tp_stats_add(s, "dram.bandwidth_utilization", TP_STAT_F64, AT(K(dram_bandwidth_utilization)), "fraction of DRAM cycles the data buses carried data");
    tp_stats_add(s, "icnt.packets", TP_STAT_U64, AT(K(icnt_packets)), "packets through the interconnect, both directions");
    tp_stats_add(s, "icnt.stall_cycles", TP_STAT_U64, AT(K(icnt_stall_cycles)), "cycles a packet could not enter the interconnect");
    tp_stats_add(s, "mem_requests", TP_STAT_U64, AT(K(mem_requests)), "line requests the LD/ST units sent to the L1 caches");
    /* the LD/ST unit toward the L1D (gpu/ldst.h), counted in every configuration; then its front
    ** ends' own (gpu_ldst_stats_register: WarpPool's and MRPB's pool, gpu/ldst_pool.c) */
    tp_stats_add(s, "warppool.mem_instructions", TP_STAT_U64, AT(K(ldst.mem_instructions)), "warp memory instructions that accessed the L1D (global and local space)");
    tp_stats_add(s, "warppool.lines_per_instruction", TP_STAT_F64, AT(K(ldst.lines_per_instruction)), "requests / mem_instructions: the lines one warp access touches (memory divergence)");
    tp_stats_add(s, "warppool.requests", TP_STAT_U64, AT(K(ldst.requests)), "L1D line requests of the intra-warp coalescer(s), before inter-warp merging");
    tp_stats_add(s, "warppool.l1_accesses", TP_STAT_U64, AT(K(ldst.l1_accesses)), "L1D accesses those requests made (a merged access counts once)");
    tp_stats_add(s, "warppool.l1_access_cycles", TP_STAT_U64, AT(K(ldst.l1_access_cycles)), "SM cycles in which the L1D took at least one access");
    tp_stats_add(s, "warppool.requests_per_access", TP_STAT_F64, AT(K(ldst.requests_per_access)), "requests served per L1D access: requests / l1_access_cycles (a banked L1D serves several per cycle, WarpPool several per access)");
    tp_stats_add(s, "warppool.inst_queue_full", TP_STAT_U64, AT(K(ldst.inst_queue_full)), "SM cycles in which a memory instruction ready in a collector was refused by the LD/ST unit (its instruction queue full; Fermi path: the unit busy)");
    tp_stats_add(s, "warppool.ldst_stall_cycles", TP_STAT_U64, AT(K(ldst.ldst_stall_cycles)), "SM cycles in which a memory instruction or line request waited: for the LD/ST unit, a tag or queue, or the L1D (reservation failure, busy port)");
    tp_stats_add(s, "warppool.active_cycles", TP_STAT_U64, AT(K(ldst.active_cycles)), "SM cycles from each SM's first CTA of the launch to the end of its last, summed over SMs");
    tp_stats_add(s, "warppool.ldst_stall_fraction", TP_STAT_F64, AT(K(ldst.ldst_stall_fraction)), "ldst_stall_cycles / active_cycles; above 0.9 the kernel is memory-throughput-limited (the WarpPool paper's criterion: memory requests wait more than 90% of the time)");
    tp_stats_add(s, "warppool.l1_mpki", TP_STAT_F64, AT(K(ldst.l1_mpki)), "L1D misses (l1d.misses) per 1000 warp instructions");
    gpu_ldst_stats_register(s, base);
    tp_stats_add(s, "tensor.instructions", TP_STAT_U64, AT(K(tensor_insns)), "wmma.mma and mma warp instructions");
    tp_stats_add(s, "tensor.macs", TP_STAT_U64, AT(K(tensor_macs)), "their multiply-accumulates (docs/TENSOR.md)");
    tp_stats_add(s, "tensor.macs_per_cycle", TP_STAT_F64, AT(K(tensor_macs_per_cycle)), "tensor.macs per cycle, whole GPU");
    tp_stats_add(s, "sim.cycles_skipped", TP_STAT_U64, AT(K(sim_cycles_skipped)), "cycles the simulator skipped because nothing could happen in them");
    rs_stats_register(s, K(regs)); /* register sharing: each policy's own (regmutex.*, rfv.*) */
    tabs *t = tp_calloc(1, sizeof *t); /* lives as long as the registry's users: the process */
    t->pcs = (tp_stat_table){pc_cols, (uint32_t)TP_ARRAY_LEN(pc_cols), sizeof(gpu_pcstat), K(pcs), K(npcs)};
    t->ivs = (tp_stat_table){iv_cols, (uint32_t)TP_ARRAY_LEN(iv_cols), sizeof(gpu_interval), K(intervals), K(nintervals)};
    tp_stats_table(s, "stall_pcs", &t->pcs, "per instruction: warp instructions issued and scheduler cycles lost with it first in line (stats.pc)");
    tp_stats_table(s, "intervals", &t->ivs, "the main counters per stats.interval cycles");
}
