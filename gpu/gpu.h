/*
** gpu.h -- the cycle-level timing model of a SIMT GPU (performance mode).
** Module prefix: gpu_.  The only header api/ includes from gpu/.
**
** A gpu lives as long as the device: its memory system (L2 contents, DRAM
** row buffers) carries over from one kernel to the next, its L1s are
** invalidated between kernels.  gpu_launch runs one kernel launch to its
** end, driving the functional model through exec.h's stepping interface
** (functional-first: an instruction's effects happen when it issues), and
** fills the kernel's statistics (gpu_kstats).  Deterministic: the same
** launches on the same configuration give the same cycles and statistics.
**
** The model (docs/TIMING.md):
**   CTA dispatch: the next CTA (linear order) goes to the next SM, round
**     robin, while the SM has room (exec_occupancy); a finished CTA's slot
**     takes the next one.
**   SM: fetch into per-warp instruction buffers; schedulers (GTO, LRR,
**     two-level) issue from warps whose operands are ready (scoreboard) to
**     operand collectors (register-file banks), which dispatch to pipelines
**     (SP, SFU, DP, INT, LD/ST) with a latency and an initiation interval
**     per class; barriers; warps and CTAs complete when their last results
**     are written back.
**   LD/ST: the intra-warp coalescer (one request per cache line), shared
**     memory with bank conflicts, the constant cache, the L1 data cache.
**   Below: interconnect, L2 slices, DRAM (gpu/memsys.h).
*/
#ifndef GPU_H
#define GPU_H

#include "../exec/exec.h"
#include "../base/stats.h"
#include "../regmutex/policy.h"
#include "options.h"

typedef struct gpu gpu;

/* What a scheduler's issue slot did each cycle, declared once: an issue or
** why not (the first candidate warp's reason).  Rows X(id, name, pc, doc):
** GPU_ST_<id>; the statistic issue.<name> (gpu/kstats.def) and, where pc is
** 1 (a stall an instruction is blamed for), the stall_pcs column
** stall.<name> (gpu/kstats.c); doc: the statistic's line.  RS_STALL_NAME:
** regmutex/policy.h. */
#define GPU_STALLS(X) \
    X(ISSUED, "issued", 0, "scheduler cycles that issued an instruction") \
    X(MEMORY, "memory", 1, "... idle: the first candidate warp waited for a memory access's result") \
    X(RAW, "raw", 1, "... idle: it waited for an arithmetic result (RAW/WAW)") \
    X(BUSY_UNIT, "busy_unit", 1, "... idle: no operand collector or pipeline was free") \
    X(BARRIER, "barrier", 1, "... idle: it waited at a barrier or fence") \
    X(IBUFFER, "ibuffer", 1, "... idle: it had no decoded instruction (fetch, branch)") \
    X(NO_WARPS, "no_warps", 0, "... idle: the scheduler had no warp") \
    X(REGS, RS_STALL_NAME, 1, "... idle: the register-sharing policy could not yet give what its next instruction needs (regs.policy: an SRP section, physical registers)")

typedef enum gpu_stall {
#define GPU_ST_ENUM(id, name, pc, doc) GPU_ST_##id,
    GPU_STALLS(GPU_ST_ENUM)
#undef GPU_ST_ENUM
    GPU_ST_COUNT
} gpu_stall;

/* One row of the per-instruction stall table (stats.pc). */
typedef struct gpu_pcstat {
    uint32_t pc;              /* within the kernel's module (module-global) */
    uint64_t issued;          /* warp instructions issued at this pc */
    uint64_t stall[GPU_ST_COUNT]; /* scheduler cycles lost with this pc at the head of the chosen warp */
    char *text;               /* the instruction as PTX, with its function and line (owned) */
    char *src;                /* its source line "FILE:LINE" (.loc, nvcc -lineinfo), or NULL (owned) */
} gpu_pcstat;

/* One row of the timeline (stats.interval). */
typedef struct gpu_interval {
    uint64_t cycle;           /* end of the interval, cycles since the kernel started */
    uint64_t warp_insns, thread_insns;
    uint64_t l1d_misses, l2_misses, dram_reads, dram_writes;
    uint64_t resident_warps;  /* summed over SMs and cycles of the interval */
    uint64_t l1d_accesses, l1d_hits, l2_accesses, l2_hits;   /* hit rates over time (tpsim report) */
} gpu_interval;

/* The LD/ST unit toward the L1D (warppool.* in the statistics, for history:
** scripts read them; gpu/ldst.h): counted in every configuration -- whichever
** front end, the Fermi path, a banked L1D, WarpPool, MRPB -- so that they
** compare.  Per SM while a launch runs, summed (and the ratios computed) at
** its end. */
typedef struct gpu_ldstkstats {
    uint64_t mem_instructions;/* warp memory instructions with L1D accesses (global, local) */
    uint64_t requests;        /* L1D line requests of the intra-warp coalescer(s), before inter-warp merging */
    uint64_t l1_accesses;     /* L1D accesses they made (a merged access counts once) */
    uint64_t l1_access_cycles;/* cycles in which the L1D took at least one access */
    uint64_t merges;          /* requests that rode on another request's L1D access */
    uint64_t tag_cycles;      /* inter-warp queue tags in use, summed over cycles */
    uint64_t full_stalls;     /* coalescer cycles lost waiting for a free tag */
    uint64_t insert_conflicts;/* coalescer cycles lost to another coalescer's insertion into the same queue */
    uint64_t inst_queue_full; /* cycles a memory instruction ready in a collector found no room in the LD/ST unit */
    uint64_t ldst_stall_cycles;/* cycles in which a memory instruction or request waited for the LD/ST unit, a tag or the L1D */
    uint64_t active_cycles;   /* SM cycles from each SM's first CTA of the launch to its last CTA's end */
    uint64_t mode_switches;   /* selection policy changes at quantum boundaries */
    uint64_t cache_quanta;    /* quanta run with the cache-sensitive policy */
    uint64_t thread_deliveries;/* lanes that received a loaded line (pool loads) */
    uint64_t delivery_errors; /* pool loads finished with a lane missing or served twice (0 unless a bug) */
    double lines_per_instruction;/* requests / mem_instructions: lines a warp's access touches */
    double requests_per_access;/* requests / l1_access_cycles */
    double merges_per_access; /* merges / l1_accesses */
    double queue_occupancy;   /* tags in use per SM, mean over cycles */
    double l1_mpki;           /* L1D misses per 1000 warp instructions */
    double ldst_stall_fraction;/* ldst_stall_cycles / active_cycles: above 0.9, memory-throughput-limited */
} gpu_ldstkstats;

/* Per-kernel statistics of performance mode: the members gpu/kstats.def
** declares (one row each: the statistics file's name, unit, rule, where the
** SMs count it), then those it registers by hand. */
#define GPU_KSTAT_CTYPE_U64 uint64_t
#define GPU_KSTAT_CTYPE_F64 double
#define GPU_KSTAT_CTYPE_STR char *
typedef struct gpu_kstats {
#define GPU_KSTAT(kind, member, name, unit, rule, from, col, doc) GPU_KSTAT_CTYPE_##kind member;
#define GPU_KSTAT_OP GPU_KSTAT
#define GPU_KSTAT_IN(kind, member, name, unit, rule, from, col, doc)
#define GPU_KSTAT_FRONTENDS
#include "kstats.def"
#undef GPU_KSTAT
#undef GPU_KSTAT_OP
#undef GPU_KSTAT_IN
#undef GPU_KSTAT_FRONTENDS
    uint64_t issue[GPU_ST_COUNT]; /* scheduler cycles by outcome (issue.issued, issue.memory ...) */
    rs_kstats regs;           /* register sharing: every policy's statistics (regmutex/policy.h; by name: rs_kstat_u) */
    gpu_ldstkstats ldst;      /* the LD/ST unit toward the L1D (warppool.*) */
    gpu_pcstat *pcs;          /* stats.pc: rows for pcs with any count, by pc */
    uint32_t npcs;
    gpu_interval *intervals;  /* stats.interval: one row per interval */
    uint32_t nintervals;
} gpu_kstats;

/* Registers every field of a gpu_kstats at offset base (within the record
** the registry describes; see base/stats.h, relative registries). */
void gpu_kstats_register(tp_stats *s, size_t base);
/* The registry of a gpu_kstats (at offset 0), made once: gpu_launch sums and
** finishes a launch's statistics through it, the statistics file names them. */
const tp_stats *gpu_kstats_registry(void);
/* A column of the run summary that a performance-mode summary alone shows
** (tp_stat_sumcol.flags; tp_summary_head's show). */
enum { GPU_SUMMARY_TIMED = 1 };
void gpu_kstats_free(gpu_kstats *k);

/* Builds the GPU of a configuration (the whole option table, gpu/options.h). */
gpu *gpu_new(const tp_opts *o);
void gpu_free(gpu *g);

/* A host-to-device copy (or memset) of [addr, addr + bytes) happened: with
** l2.warm_copies its lines pass through the L2.  Takes no simulated time. */
void gpu_copy_in(gpu *g, uint64_t addr, uint64_t bytes);

/* Called now and then during a launch (about every 2^16 cycles) with the
** progress so far; may be NULL. */
typedef void (*gpu_progress_fn)(void *arg, const char *kernel, uint64_t ctas_done, uint64_t ctas,
                                uint64_t cycles, uint64_t warp_insns);

/* Runs a launch in performance mode.  r is filled as exec_launch_kernel
** fills it (status, message, counters); ks (zeroed by the caller) receives
** the timing statistics.  Returns r->status. */
exec_status gpu_launch(gpu *g, exec_mod *m, int kernel, const exec_launch *l, exec_result *r, gpu_kstats *ks,
                       gpu_progress_fn progress, void *arg);

/* Sampled timing (sample.mode; gpu/sample.c, api/sample.c, docs/TIMING.md).
** A launch that ran functionally with projected cycles takes time all the
** same: the GPU's clock (DRAM refresh, the program's time) advances by
** `cycles`; the memory system is idle between launches. */
void gpu_sample_advance(gpu *g, uint64_t cycles);
/* The two-sided 95% quantile of Student's t with df degrees of freedom
** (0 for df = 0; 1.96 beyond 30). */
double gpu_sample_t95(uint32_t df);

#endif
