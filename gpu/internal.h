/*
** internal.h -- the timing model's private structures: the configuration as
** plain numbers, an SM and its parts.  Only gpu/ includes this.
**
** An SM, from the front:
**
**   fetch -> ibuffer (per warp) -> scheduler (per warp group) -> issue
**     [exec_warp_step: the instruction's effects happen here]
**   -> operand collector unit (reads source registers from the register-
**      file banks, one read per bank and port per cycle, oldest unit first)
**   -> pipeline (SP, SFU, DP, INT: latency and initiation interval per class;
**      LD/ST: the memory unit, gpu/ldst.c)
**   -> write-back (the scoreboard releases the destination registers)
**
** Timing conventions (the exact-cycle tests rely on them):
**   - an instruction issued at cycle t reads its operands at t + 1 at the
**     earliest (one cycle more per bank conflict), and is dispatched to its
**     pipeline in the cycle its last operand is read, if a pipe is free;
**   - a pipeline with latency L writes back an instruction dispatched at d
**     at d + L; a dependent instruction may issue in that cycle, so a chain
**     of dependent instructions without conflicts issues every L + 1 cycles;
**   - a pipe that took an instruction at d takes the next at d + II;
**   - within one cycle an SM does, in this order: memory replies into the
**     L1s, finished loads, write-backs, operand collection and dispatch, the
**     LD/ST unit, issue, fetch, then hands L1 misses to the memory system.
*/
#ifndef GPU_INTERNAL_H
#define GPU_INTERNAL_H

#include "gpu.h"
#include "mreq.h"
#include "l1.h"
#include "memsys.h"
#include "warppool.h"
#include "../regmutex/policy.h"
#include "../base/fdiv.h"

/* ---- configuration ----------------------------------------------------------------- */

/* Pipelines an SM has. */
typedef enum gpu_pipe { GPU_P_SP, GPU_P_SFU, GPU_P_DP, GPU_P_INT, GPU_P_MEM, GPU_P_TENSOR, GPU_P_COUNT } gpu_pipe;
/* Operand collector kinds. */
typedef enum gpu_ockind { GPU_OC_SP, GPU_OC_SFU, GPU_OC_MEM, GPU_OC_COUNT } gpu_ockind;
typedef enum gpu_policy { GPU_SCHED_GTO, GPU_SCHED_LRR, GPU_SCHED_TWO_LEVEL, GPU_SCHED_GTY } gpu_policy;

enum { GPU_IBUF_MAX = 16, GPU_SB_MAX = 64, GPU_MAX_READS = 32 };

typedef struct gpu_ldst gpu_ldst;                   /* an SM's LD/ST unit (gpu/ldst.h) */
typedef struct gpu_ldst_frontend gpu_ldst_frontend; /* ... the kind of front end it has */

typedef struct gpu_cfg {
    /* the bound options (B rows of gpu/options.def and mem_options.def: their
    ** fields are declared there, with their C types, and copied by tp_opts_bind) */
#define X(id, name, type, def, min, max, choices, doc)
#define B(id, name, type, def, min, max, choices, ctype, field, doc) ctype field;
#include "options.def"
#include "mem_options.def"
#undef X
#undef B
    /* what gpu_cfg_init derives from the options */
    uint32_t nsm;
    uint32_t max_warps, max_ctas;         /* per SM (device.max_threads_per_sm / 32, device.max_ctas_per_sm) */
    uint32_t shared_per_sm, shared_unit;  /* device.shared_per_sm, device.shared_alloc_unit (l1d.carveout) */
    uint32_t pipes[GPU_P_COUNT];           /* pipes of each kind (0: that work runs elsewhere) */
    uint32_t oc[GPU_OC_COUNT];
    /* per (exec_unit, exec_lclass): the pipe, latency and interval */
    uint8_t pipe_of[EXEC_U_COUNT][EXEC_L_COUNT];
    uint32_t lat[EXEC_U_COUNT][EXEC_L_COUNT], ii[EXEC_U_COUNT][EXEC_L_COUNT];
    /* EXEC_U_TENSOR: multiply-accumulates per cycle of its pipe, per class;
    ** an instruction's interval is ceil(macs / rate), its latency lat + that */
    double tensor_rate[EXEC_L_COUNT];
    gpu_l1cfg l1d, l1c;
    const gpu_ldst_frontend *ldst;         /* the LD/ST unit's front end (ldst.frontend: gpu/ldst.h) */
    tp_fdiv frf_banks;                     /* division by sm.rf_banks (a register's bank, every read) */
} gpu_cfg;

void gpu_cfg_init(gpu_cfg *c, const tp_opts *o);
/* The L1D bytes of each SM for a launch of occupancy occ: l1d.size, or with
** l1d.carveout = driver what l1d.unified leaves beside the shared-memory
** capacity the driver would choose (mem_options.def, docs/MEMORY.md). */
uint32_t gpu_cfg_l1d_bytes(const gpu_cfg *c, const exec_occ *occ);

/* Whether an instruction goes to the LD/ST unit: loads, stores and atomics
** of every space but the kernel's parameters (which the hardware reads as
** constant-bank operands, so they are integer work here), and textures. */
static inline bool gpu_is_mem(const exec_sinfo *si)
{
    if (si->unit == EXEC_U_TEX) return true;
    return si->unit == EXEC_U_MEM && (si->flags & (EXEC_SI_LOAD | EXEC_SI_STORE)) && si->space != PTX_SP_PARAM;
}

/* ---- scoreboard ------------------------------------------------------------------------ */

/* Registers with a write in flight, per warp: a register (EXEC_R_* kind << 16
** | number) is pending between the issue of an instruction that writes it and
** that instruction's write-back.  At most GPU_SB_MAX at once.  A filter in
** front of the list: bit h of `bits` is set while cnt[h] entries, at least
** one, have a key whose low six bits are h, so most checks of a register
** that is not pending end at one bit test.  An all-zero gpu_sb is empty. */
typedef struct gpu_sb {
    uint32_t id[GPU_SB_MAX];
    uint8_t mem[GPU_SB_MAX];   /* written by a memory access (stall accounting) */
    uint32_t n;
    uint64_t bits;
    uint8_t cnt[64];
} gpu_sb;

static inline uint32_t gpu_sb_key(const exec_opreg *r) { return (uint32_t)r->kind << 16 | r->r; }
/* 0: none of si's registers is pending; 1: one is, written by arithmetic; 2:
** by a memory access; 3: the scoreboard is full or si lists only part of its
** registers while some are pending. */
int gpu_sb_check(const gpu_sb *sb, const exec_sinfo *si);
void gpu_sb_reserve(gpu_sb *sb, const exec_sinfo *si, bool mem);
void gpu_sb_release(gpu_sb *sb, const exec_sinfo *si);

/* ---- warps, CTAs --------------------------------------------------------------------- */

typedef struct gpu_ibent {
    uint32_t pc;
    uint8_t ock;               /* the collector kind it needs (gpu_ockind) */
    uint8_t spill;             /* it may take an SFU collector when no SP one is free (gpu_oc_spills) */
    const exec_sinfo *si;
    uint64_t ready;            /* cycle it can issue (fetch latency) */
} gpu_ibent;

enum { GPU_W_FREE, GPU_W_ACTIVE, GPU_W_BARRIER, GPU_W_EXITED };

typedef struct gpu_warp {
    exec_warp *ew;
    uint8_t state;             /* GPU_W_* */
    uint8_t nib;               /* ibuffer entries */
    uint8_t fetch_stop;        /* the last entry may change the pc: fetch waits for it to issue */
    uint8_t sched;             /* its scheduler */
    uint16_t spos;             /* its position in the scheduler's list w[] */
    uint8_t cls;               /* the kind whose candidate mask it is in (GPU_OC_COUNT: none) */
    uint8_t blk;               /* a cached reason it cannot issue (gpu_stall), valid until an
                                  event on this warp (write-back, fetch, barrier release,
                                  issue) clears it; 0: evaluate */
    uint32_t cta;              /* CTA slot */
    uint64_t age;              /* dispatch order on the SM (GTO: smaller is older) */
    uint32_t inflight;         /* issued instructions not written back */
    uint32_t mem_inflight;     /* ... of them memory accesses */
    uint32_t stores_out;       /* store requests the L1D took that the L2 has not acknowledged (ldst.store_ack) */
    uint64_t ack_wait_from;    /* the cycle it would have finished but for stores_out */
    uint32_t stores_orphan;    /* acks still due to an earlier warp of this slot (ldst.store_ack_exit=0): kept when the slot is reused */
    gpu_ibent ib[GPU_IBUF_MAX];
    gpu_sb sb;
} gpu_warp;

typedef struct gpu_ctaslot {
    exec_cta *ec;              /* NULL: free */
    uint32_t nwarps, live;     /* warps; warps not yet finished in timing */
    uint32_t warp0;            /* its warps' slots: every slot w with warps[w].cta == this one */
    bool pending;              /* launched, its warps not made yet (cta.latency) */
    uint64_t start_at;         /* ... the cycle they are made and fetch */
} gpu_ctaslot;

/* ---- schedulers (gpu/sched_*.c) --------------------------------------------------------- */

typedef struct gpu_sched {
    uint16_t *w;               /* the scheduler's warps, oldest first */
    uint32_t n;
    int32_t last;              /* slot of the warp that issued last (-1 none) */
    int32_t last_pos;          /* its index in w[] (-1 none) */
    int32_t last_act;          /* its index in act[] (-1 none; kept by the two-level policy only, which alone reads it) */
    uint32_t start;            /* LRR / two-level: this cycle's first position */
    /* two-level: the active set is the first two_level_active of act[], the rest pending */
    uint16_t *act;
    uint32_t nact, nactive;
    /* per collector kind, a bit per position in w[]: that warp has no cached
    ** block reason and its next instruction needs this kind (sm.c) */
    uint64_t *ubk[GPU_OC_COUNT];
} gpu_sched;

/* Prepares this cycle's order; returns how many candidates there are. */
uint32_t gpu_sched_begin(const gpu_cfg *c, gpu_sched *s);
/* The i-th candidate of this cycle (i < what gpu_sched_begin returned). */
uint16_t gpu_sched_at(const gpu_cfg *c, const gpu_sched *s, uint32_t i);
void gpu_sched_add(const gpu_cfg *c, gpu_sched *s, uint16_t w);
void gpu_sched_remove(const gpu_cfg *c, gpu_sched *s, uint16_t w);
/* The policy hears that w issued (long: a long-latency memory access). */
void gpu_sched_issued(const gpu_cfg *c, gpu_sched *s, uint16_t w, bool long_latency);
/* Policies, each in its own file. */
uint32_t gpu_gto_begin(gpu_sched *s);
uint16_t gpu_gto_at(const gpu_sched *s, uint32_t i);
uint32_t gpu_gty_begin(gpu_sched *s);
uint16_t gpu_gty_at(const gpu_sched *s, uint32_t i);
uint32_t gpu_lrr_begin(gpu_sched *s);
uint16_t gpu_lrr_at(const gpu_sched *s, uint32_t i);
uint32_t gpu_2lev_begin(const gpu_cfg *c, gpu_sched *s);
uint16_t gpu_2lev_at(const gpu_sched *s, uint32_t i);
void gpu_2lev_issued(const gpu_cfg *c, gpu_sched *s, uint16_t w, bool long_latency);

/* ---- memory instructions in flight ------------------------------------------------------ */

/* What the LD/ST unit keeps of an issued memory instruction (its record). */
typedef struct gpu_memop {
    exec_rec rec;              /* exec_warp_step's record: space, per-lane addresses and spaces */
    uint16_t warp;
    uint16_t bytes;            /* per lane */
    uint8_t flags;             /* exec_sinfo flags */
    uint8_t wb;                /* has registers to write back */
    uint8_t npass;             /* wmma.load/.store: rec.npass; passes 1.. are in xaddr */
    uint64_t *xaddr;           /* (EXEC_REC_MAXPASS - 1) x 32 addresses, kept with the memop once made */
    uint32_t active;           /* lanes that access memory (0 for textures: no addresses) */
    const exec_sinfo *si;
    /* progress */
    uint32_t lines_left;       /* line requests not yet answered (loads, atomics; pool stores: not yet accepted) */
    uint32_t lanes_done;       /* pool loads: lanes whose line has come back */
    uint32_t deliveries;       /* pool loads: lines delivered to lanes, one per lane per line */
    uint32_t wp_live;          /* pool: its index among the pool's live instructions */
    uint64_t t_issue;
    uint64_t t_done;           /* the earliest write-back (shared memory, serialisation) */
    struct gpu_memop *next;    /* free list */
} gpu_memop;

/* ---- operand collector units -------------------------------------------------------------- */

typedef struct gpu_cu {
    uint8_t busy, kind;
    uint16_t warp;
    uint8_t nreads, done;      /* reads needed, reads done */
    uint16_t bank[GPU_MAX_READS];
    uint64_t seq;              /* issue order (arbitration: oldest first) */
    uint64_t t_issue;
    uint32_t pc;
    const exec_sinfo *si;
    gpu_memop *mop;            /* memory instructions */
    uint8_t pipe;              /* gpu_pipe it goes to */
    uint32_t lat, ii;
} gpu_cu;

/* ---- write-back events ---------------------------------------------------------------------- */

typedef struct gpu_wb {
    uint64_t cycle, seq;
    uint16_t warp;
    uint8_t mem;
    const exec_sinfo *si;
} gpu_wb;

/* ---- the SM ------------------------------------------------------------------------------ */

typedef struct gpu_launchctx gpu_launchctx;

/* The kernel's instruction counts an SM's issue stages added since its last
** flush, or a team thread's SMs' in a cycle (added up in SM order by
** gpu_sm_flush_to, then to the launch's by the launch's thread). */
typedef struct gpu_tsum {
    _Alignas(64) uint64_t warp_insns;
    uint64_t thread_insns, tensor_insns, tensor_macs;
} gpu_tsum;

typedef struct gpu_sm {
    uint32_t id;
    const gpu_cfg *c;
    gpu_launchctx *lx;         /* the launch running */
    gpu_warp *warps;           /* max_warps slots */
    gpu_ctaslot *ctas;         /* max_ctas slots */
    uint32_t nctas, nwarps_live;  /* CTAs and warps it holds, those launched but not started included */
    uint32_t npending;         /* CTAs launched whose warps start later (cta.latency) */
    uint64_t cta_next;         /* the first cycle it may take another CTA (cta.sm_interval) */
    uint64_t next_age;
    gpu_sched *sched;          /* nsched */
    uint32_t fetch_rr;
    uint64_t *fetch_want;      /* a bit per warp slot: active, room in its buffer, fetch not stopped */
    /* collectors and pipes */
    gpu_cu *cu;                /* all kinds, oc[0] + oc[1] + oc[2] */
    uint32_t ncu;
    uint32_t oc_free[GPU_OC_COUNT]; /* free units of each kind */
    uint16_t *cu_order;        /* busy units in issue order */
    uint32_t ncu_busy;
    bool cu_mem_wait;          /* every busy unit, at the last gpu_oc_cycle, held a memory instruction
                               ** with its reads done that the LD/ST unit did not take (gpu_oc_issue clears) */
    uint64_t cu_seq;
    uint64_t *pipe_free[GPU_P_COUNT]; /* per pipe: the cycle it takes its next instruction */
    uint32_t *tensor_waiting;  /* per scheduler: its tensor instructions in a collector, not yet dispatched */
    uint32_t *mem_held;        /* per scheduler: its memory instructions in a collector, not yet taken by the LD/ST unit (sm.oc_mem_per_sched) */
    uint32_t *bank_grants;     /* scratch: reads granted per bank this cycle */
    /* write-backs (a binary heap by cycle, then seq) */
    gpu_wb *wb;
    uint32_t nwb, capwb;
    uint64_t wb_seq;
    /* LD/ST unit (gpu/ldst.h: its state, its front end) and the caches it uses */
    gpu_ldst *ldst;
    gpu_l1 *l1d, *l1c;
    uint64_t l1_resfail_skipped; /* statistics: cycles a request the L1D refused waited without asking again */
    /* time */
    /* what the launch loop reads and writes between cycles: a cache line of
    ** its own, apart from what the tick writes (parallel SMs: an SM's tick
    ** runs on another host thread) */
    _Alignas(64) uint64_t wake; /* the next cycle it must be ticked */
    uint64_t reply_lb;         /* a cycle at or before its next reply's (the launch loop's reply wakes) */
    bool send_poll;            /* its last tick found its injection queue full: room there may wake it
                               ** (gpu_ldst_send_wake; with room, its wake already counts its misses) */
    uint32_t finished;         /* CTAs that finished in this tick */
    _Alignas(64) uint64_t last_tick; /* the last cycle it was ticked */
    bool changed;              /* the tick changed state (the replies aside: tick_front) */
    bool acked;                /* a store's ack in this tick's replies let a warp go (gpu_sm_store_acked) */
    uint8_t *slot_reason;      /* per scheduler: outcome of the last tick (repeated over skipped cycles) */
    uint32_t *slot_pc;         /* per scheduler: pc charged with the stall (UINT32_MAX none) */
    /* The last issue stage issued nothing; until an event that can change an
    ** issue outcome (issue_dirty: a block reason, a buffer, a collector, a
    ** scheduler list) or until issue_until (the earliest buffered entry not
    ** ready yet that it looked at), a tick's issue stage would give exactly
    ** the same outcomes, and is counted as a repeat instead (sm.c). */
    bool issue_memo, issue_dirty;
    uint64_t issue_until;
    /* register sharing: the launch's policy and its state (regmutex/policy.h) */
    rs_sm rs;
    /* parallel SMs (gpu.c): the turn its issue stage takes before an instruction
    ** that is not exec_sinfo.alone (NULL: one thread, no turn to take) */
    struct gpu_turn *turn;
    gpu_tsum n;                /* the kernel's counts since gpu_sm_flush */
    /* stats.pc: this SM's rows (the launch adds them up at its end), as the launch's */
    gpu_pcstat *pcdirect;
    void *pcmap;
    /* statistics */
    uint64_t issue[GPU_ST_COUNT];
    uint64_t mul_on_sfu;       /* multiplies that took the SFU (sm.fmul_pipe=sp_sfu) */
    uint64_t resident_warp_cycles;
    uint64_t busy_first, busy_last; /* the launch's first cycle + 1 with a CTA here; the last cycle it became empty */
    uint64_t shared_accesses, shared_conflict_cycles, mem_requests, l1c_accesses, l1c_misses;
    uint64_t idc_instructions;  /* ld.const the indexed constant cache took (ldst.const_path = idc) */
    uint64_t ack_wait_cycles;  /* cycles finished warps waited for store acknowledgements */
    /* the parts of a cycle (gpu_sm_tick_front, _issue, _back) */
    uint64_t starts;           /* the next cycle a CTA launched with cta.latency starts (UINT64_MAX none) */
    exec_cta **rel;            /* CTAs finished in this tick whose exec slots go back before its issue stage */
    uint32_t nrel;
    uint64_t pc_skip;          /* skipped cycles (parallel SMs) and repeated issue stages whose stats.pc rows wait (flush_pc_skip) */
    /* where its caches and LD/ST unit take requests (own_pool with parallel
    ** SMs), on a line of its own: the launch loop reads them every cycle */
    _Alignas(64) gpu_mreq_pool *pool;
    gpu_mreq_pool own_pool;
} gpu_sm;

/* ---- the launch ------------------------------------------------------------------------------ */

struct gpu_launchctx {
    gpu *g;
    exec_grid *grid;
    exec_mod *m;
    const exec_occ *occ;
    uint32_t ctas_per_sm;
    uint64_t ctas, ctas_done;
    uint64_t ctas_started;     /* CTAs handed to SMs */
    uint64_t dispatch_next;    /* the next cycle a CTA may go to an SM (UINT64_MAX: only when one finishes) */
    uint64_t dist_at;          /* cta.gpu_interval: the distributor's next CTA, in thousandths of a cycle */
    uint32_t dispatch_rr;      /* the SM that took the last CTA (the next round starts after it) */
    uint64_t start;            /* cycle the launch started */
    uint64_t local_bytes;      /* per thread */
    gpu_kstats *ks;
    void *pcmap;               /* stats.pc: rows by pc outside the kernel's own range (the SMs keep
                                  their own, gpu_sm.pcmap and pcdirect, added here at the end) */
    gpu_pcstat *pcdirect;      /* rows of the kernel's own pcs [pc_lo, pc_hi) */
    uint32_t pc_lo, pc_hi;
    bool fault;
    struct gpu_sampler *smp;   /* sampled timing inside the launch (gpu/sample.c), or NULL */
};

struct gpu {
    gpu_cfg c;
    tp_opts opts;
    gpu_sm *sm;
    gpu_memsys *ms;
    gpu_mreq_pool pool;        /* the memory system's requests (and the SMs' with one thread) */
    uint64_t cycle;            /* core cycles since the GPU was made */
    /* parallel SMs (sim.threads > 1; gpu.c, docs/TIMING.md) */
    struct gpu_par *par;       /* the thread team, made at the first launch that uses it */
    _Atomic uint64_t *done;    /* per team thread, a line each (done[8 t]): the last cycle run whose
                                  issue stages it has run (gpu_turn) */
    uint64_t par_gen;          /* cycles run on the team */
    struct gpu_tsum *tsum;     /* per team thread, a line each: its SMs' counts of a cycle */
    uint32_t *due;             /* scratch: the SMs ticked in a cycle */
};

/* The stats.pc row of a pc in a map of rows (gpu.c). */
gpu_pcstat *gpu_pcrow_slow(void *pcmap, uint32_t pc);
/* SM sm's own stats.pc row of a pc: the SMs keep rows apart, so that
** parallel SMs add to them at once (the launch adds them up at its end). */
static inline gpu_pcstat *gpu_pcrow_direct(gpu_sm *sm, uint32_t pc)   /* ... in its array, or NULL */
{
    const gpu_launchctx *lx = sm->lx;
    return pc - lx->pc_lo < lx->pc_hi - lx->pc_lo ? &sm->pcdirect[pc - lx->pc_lo] : NULL;
}
static inline gpu_pcstat *gpu_pcrow(gpu_sm *sm, uint32_t pc)
{
    gpu_pcstat *r = gpu_pcrow_direct(sm, pc);
    return r ? r : gpu_pcrow_slow(sm->pcmap, pc);
}

/* ---- sampled timing inside a launch (gpu/sample.c; sample.mode=cta|both) ---------------------
** gpu_launch calls these at three points: begin after the SMs are ready, ctas_done after CTAs
** finished in a cycle (lx->ctas_done counts them), end once ks->cycles holds the simulated
** cycles (it adds the projected ones, to ks and to the GPU's clock, and fills sample.*). */
void gpu_sample_begin(gpu *g, gpu_launchctx *lx);
void gpu_sample_ctas_done(gpu *g, gpu_launchctx *lx, uint64_t now);
/* CTA ends of one wave's worth of ranks: their ranks' and cycles' sums and count */
typedef struct gpu_sample_group {
    double sx, sy;
    uint32_t n;
} gpu_sample_group;
/* Cycles per CTA from k groups of CTA ends (gpu/sample.c): the slope between the
** mean point of the first k / 2 groups and that of the others; fallback when
** either half is empty or the ranks do not advance. */
double gpu_sample_rate(const gpu_sample_group *g, uint32_t k, double fallback);
/* The strata of a launch's skipped CTAs (gpu/sample.c): `waves` to skip, checks of
** window + 1 waves; sets *c to the checks that fit (at most `checks`) and, for each
** of the c + 1 stretches, the waves priced by the sample before it (prev) and by the
** check after it (next), the checks placed at random by seed.  prev and next hold
** checks + 1 entries. */
void gpu_sample_strata(uint64_t waves, uint32_t window, uint32_t checks, uint64_t seed, uint32_t *c,
                       uint64_t *prev, uint64_t *next);
/* Drops the middle checks of a plan (gpu/sample.c, sample.cta_adapt): with *n stretches
** (n - 1 checks) of which the first a have run, stretches a .. n - 2 and the checks
** a .. n - 3 become one stretch ending at the last check, a the index of that stretch and
** a + 1 the last one; *n becomes a + 2.  `check` is a check's length (in the units of
** prev and next).  Returns the part of the merged stretch between its prev[a] and the
** last stratum's start (the middle strata and the dropped checks), which is priced at
** the mean of the rates on either side; 0 (nothing changed) where no check lies
** between stretch a and the last check. */
uint64_t gpu_sample_merge(uint64_t *prev, uint64_t *next, uint32_t *n, uint32_t a, uint64_t check);
/* Whether k block means agree: (largest - smallest) / their mean at most tol. */
bool gpu_sample_agree(const double *m, uint32_t k, double tol);
void gpu_sample_end(gpu *g, gpu_launchctx *lx, gpu_kstats *ks, bool failed);

/* ---- SM operations (gpu/sm.c, gpu/ldst.c, gpu/opcoll.c) ------------------------------------ */

void gpu_sm_init(gpu_sm *sm, gpu *g, uint32_t id);
void gpu_sm_free(gpu_sm *sm);
/* Prepares the SM for a launch (L1s invalidated, statistics zeroed). */
void gpu_sm_begin(gpu_sm *sm, gpu_launchctx *lx, uint64_t now);
bool gpu_sm_can_take_cta(const gpu_sm *sm);
void gpu_sm_take_cta(gpu_sm *sm, exec_cta *ec, uint64_t now);
/* A store request of warp slot warp was acknowledged at cycle now (ldst.store_ack). */
void gpu_sm_store_acked(gpu_sm *sm, uint16_t warp, uint64_t now);
/* One cycle.  Returns the number of CTAs that finished in it.  It is
** gpu_sm_tick_front (replies, write-backs, operand collectors, LD/ST unit;
** the skipped cycles' stats.pc rows are left to the issue stage),
** gpu_sm_tick_issue (the issue stage: every exec_warp_step, and the finished
** CTAs' exec_cta_release) and gpu_sm_tick_back (fetch, misses to the memory
** system, the next wake; returns the finished CTAs), which gpu.c also runs
** apart for parallel SMs. */
uint32_t gpu_sm_tick(gpu_sm *sm, uint64_t now);
/* After the issue stages of parallel SMs (gpu_sm_tick does it itself): the
** SM's counts of the kernel's instructions into the launch's, in SM order
** (exec_grid_merge). */
void gpu_sm_flush(gpu_sm *sm);
void gpu_sm_flush_to(gpu_sm *sm, gpu_tsum *t, uint32_t ctx);
/* Adds t to the launch's counters and empties it. */
void gpu_tsum_to_ks(gpu_kstats *ks, gpu_tsum *t);
void gpu_sm_tick_front(gpu_sm *sm, uint64_t now);
void gpu_sm_tick_issue(gpu_sm *sm, uint64_t now);
uint32_t gpu_sm_tick_back(gpu_sm *sm, uint64_t now);
bool gpu_sm_idle(const gpu_sm *sm);
/* Accounts the cycles (last_tick, now) that were skipped with nothing happening. */
void gpu_sm_account_skip(gpu_sm *sm, uint64_t now);

/* Operand collectors and pipelines. */
bool gpu_oc_free(const gpu_sm *sm, gpu_ockind k);
void gpu_oc_issue(gpu_sm *sm, uint16_t warp, uint32_t pc, const exec_sinfo *si, gpu_memop *mop, uint64_t now);
void gpu_oc_cycle(gpu_sm *sm, uint64_t now);
gpu_ockind gpu_oc_kind_of(const gpu_cfg *c, const exec_sinfo *si, gpu_memop *mop);
/* Whether si, an SP-collector instruction, may take an SFU collector when
** every SP one is taken (sm.fmul_pipe=sp_sfu: FP32/FP64 multiplies). */
bool gpu_oc_spills(const gpu_cfg *c, const exec_sinfo *si);
/* The earliest cycle a waiting collector can move (UINT64_MAX none). */
uint64_t gpu_oc_next(const gpu_sm *sm, uint64_t now);

/* Write-backs. */
void gpu_wb_push(gpu_sm *sm, uint64_t cycle, uint16_t warp, const exec_sinfo *si, bool mem);
/* The instruction's results are written: its registers are free. */
void gpu_sm_writeback(gpu_sm *sm, uint16_t warp, const exec_sinfo *si, bool mem, uint64_t now);

/* Where gpu/kstats.def's rows are counted (tp_stat_src.in): SM(), L1D(),
** LDST(), FE(), MEMSYS(); gpu.c sums them over the SMs. */
enum { GPU_IN_SM = 1, GPU_IN_L1D, GPU_IN_LDST, GPU_IN_FE, GPU_IN_MEMSYS };
/* The offset of member m of type, which must be a uint64_t (a counter). */
#define GPU_U64_IN(type, m) ((uint32_t)(offsetof(type, m) + 0 * sizeof(_Generic(((type *)0)->m, uint64_t: 1))))

/* LD/ST unit (gpu/ldst.c; its front ends: gpu/ldst.h). */
void gpu_ldst_init(gpu_sm *sm, gpu *g);
void gpu_ldst_free(gpu_sm *sm);
/* A launch starts: the unit's and its front end's counters restart. */
void gpu_ldst_begin(gpu_sm *sm, uint64_t now);
/* Offers m (its operands read) to the LD/ST unit's front end in cycle now:
** taken, or false (a refusal, counted as a waiting instruction; offer it
** again next cycle).  Collectors offer through gpu_ldst_offer (ldst.h),
** which sends an ld.const to the indexed constant cache where there is one. */
bool gpu_ldst_accept(gpu_sm *sm, gpu_memop *mop, uint64_t now);
void gpu_ldst_cycle(gpu_sm *sm, uint64_t now);
/* Memory replies and L1 completions (start of the cycle); L1 misses to the
** memory system (end of the cycle). */
void gpu_ldst_replies(gpu_sm *sm, uint64_t now);
void gpu_ldst_send(gpu_sm *sm, uint64_t now);
uint64_t gpu_ldst_next(const gpu_sm *sm, uint64_t now);
/* The first cycle at or after now in which the SM can hand a waiting L1
** miss to the memory system (UINT64_MAX: no miss waits, or no room). */
uint64_t gpu_ldst_send_wake(const gpu_sm *sm, uint64_t now);
/* The first cycle after now in which the LD/ST unit may take a memory
** instruction it refused in cycle now (see gpu_ldst_frontend.accept_next). */
uint64_t gpu_ldst_accept_next(const gpu_sm *sm, uint64_t now);
bool gpu_ldst_idle(const gpu_sm *sm);
/* k cycles were skipped: the unit's per-cycle counts of the last cycle repeat. */
void gpu_ldst_account_skip(gpu_sm *sm, uint64_t k);
/* After a fault: forgets the instructions in flight (frees their records). */
void gpu_ldst_abort(gpu_sm *sm);
/* The launch ends at cycle now: the front end's `end` (into ks), and the SM's
** active cycles (warppool.active_cycles); gpu.c sums the counters. */
void gpu_ldst_stats(gpu_sm *sm, gpu_kstats *ks, uint64_t now);
/* The unit's counters this launch (its part of warppool.*), and its front
** end's own (NULL: it has none): LDST() and FE() of gpu/kstats.def. */
const gpu_ldstkstats *gpu_ldst_counters(const gpu_sm *sm);
const gpu_ldstkstats *gpu_ldst_fe_counters(const gpu_sm *sm);
/* The front ends' own statistics, at offset base of the record (gpu/kstats.c). */
void gpu_ldst_stats_register(tp_stats *s, size_t base);
gpu_memop *gpu_memop_get(gpu_sm *sm);
void gpu_memop_put(gpu_sm *sm, gpu_memop *m);

/* The intra-warp coalescer and the shared-memory bank model (gpu/coalesce.c). */
/* Distinct lines (addr & ~(line-1)) the active lanes of addr touch, in
** order of the first lane touching each; bytes[i] = bytes of line i the
** lanes touch (each lane: size bytes).  Returns the count (<= 32). */
uint32_t gpu_coalesce(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, uint64_t *lines,
                      uint32_t *bytes);
/* The same, with lanes[i] = the lanes whose access is in line i (the thread
** mapping WarpPool keeps with each request). */
uint32_t gpu_coalesce_lanes(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, uint64_t *lines,
                            uint32_t *bytes, uint32_t *lanes);
/* What a line request carries besides its line (gpu_mreq.sectors, ops, ops_addr). */
typedef struct gpu_lineinfo {
    uint16_t sectors;          /* the 32-byte sectors the lanes touch (gpu/mreq.h) */
    uint8_t ops, ops_addr;     /* atomics: the lanes in the line, the most of them on one address */
} gpu_lineinfo;
/* info[i] for each of lines[0, n) (gpu_coalesce's, over the same lanes);
** ops and ops_addr only when atomic (0 otherwise). */
void gpu_coalesce_info(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, const uint64_t *lines,
                       uint32_t n, bool atomic, gpu_lineinfo *info);
/* gpu_coalesce and gpu_coalesce_info (not atomic) in one pass: the lines, their bytes and
** info[i] for each line (sectors; ops and ops_addr 0). */
uint32_t gpu_coalesce_sectors(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, uint64_t *lines,
                              uint32_t *bytes, gpu_lineinfo *info);

/* The initiation interval of a tensor instruction (wmma.mma, mma) on its pipe. */
static inline uint32_t gpu_tensor_ii(const gpu_cfg *c, const exec_sinfo *si)
{
    double r = c->tensor_rate[si->lclass];
    double n = r > 0 ? (double)si->macs / r : 1;
    uint32_t ii = (uint32_t)n;
    if ((double)ii < n) ii++;
    return ii ? ii : 1;
}

/* Cycles a shared-memory access takes: the largest number of distinct
** 4-byte words the active lanes touch in one bank (lanes reading the same
** word share it); 1 at least. */
uint32_t gpu_bank_conflicts(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t banks);
/* Cycles a shared-memory atomic takes with shmem.atomic_serial: the largest
** number of lane accesses (4-byte words, lanes on the same word each
** counted) in one bank; 1 at least. */
uint32_t gpu_bank_lanes(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t banks);

#endif
