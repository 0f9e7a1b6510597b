/*
** regmutex.h -- RegMutex: inter-warp register time-sharing (Khorasani,
** Asghari Esfeden, Farmahini-Farahani, Jayasena, Sarkar, ISCA 2018).
** Module prefix: rm_.  Layer: above exec/ (it reads the lowered IR exec/
** runs and the option table), below gpu/.  RegMutex and its baseline,
** Owner-Warp-First, are policies of the register-sharing interface
** (policy.h: regmutex.c, owf.c); this header is their compiler and hardware.
**
** A kernel's registers are split into a base set |Bs| every warp owns and an
** extended set |Es| that warps borrow from the SM's shared register pool
** (SRP) only in the regions that need them:
**   compiler (pass.c): from the allocated code (ptx_lower), the registers
**     live at every instruction; |Bs| chosen to raise occupancy on the
**     configured register file within the budget |Rt| x W = |Bs| x W' + SRP
**     (docs/REGISTERS.md states the rule); the extended regions (where more
**     than |Bs| are live) with acquire points at their entries and release
**     points at their exits, never across a CTA barrier; the registers
**     compacted so that values live outside the regions sit below |Bs|.
**     The result is ptx_func.rs (ptx.h, rs->policy the regmutex policy); a
**     kernel the pass cannot help keeps rs NULL and runs as before.
**   hardware (srp.c): SRP sections = (register file - W' x |Bs| x 32) /
**     (|Es| x 32); an SRP bitmask, a per-warp look-up table (section index)
**     and a warp status bitmask.  Acquire: the first free section, its index
**     into the warp's entry, the warp's status bit set; with none free the
**     warp may not issue.  Release: both bits cleared.
** exec/ runs the compacted code with each warp's registers >= |Bs| in its
** section's storage (exec.h: exec_warp_set_section), so a wrong move, a
** missing acquire or a section shared by two warps changes results.
*/
#ifndef REGMUTEX_H
#define REGMUTEX_H

#include "../base/tp.h"
#include "../base/err.h"
#include "../base/opt.h"
#include "../ptx/ptx.h"
#include "policy.h"

/* ---- the compiler pass ------------------------------------------------------- */

/* What the pass plans for (from the option table: device.regs_per_sm,
** device.max_threads_per_sm / 32, device.max_ctas_per_sm,
** device.reg_alloc_unit, regmutex.block_threads). */
typedef struct rm_cfg {
    uint32_t regs_per_sm;     /* the register file, 32-bit registers per SM */
    uint32_t max_warps, max_ctas; /* resident per SM */
    uint32_t alloc_unit;      /* a warp's registers are allocated in multiples of this */
    uint32_t block_threads;   /* the CTA size planned for when a kernel declares none
                                 (.reqntid / .maxntid) */
    /* the cost model (regmutex.model, .mem_latency, .mshrs, .issue) */
    bool model;
    uint32_t mem_latency, mshrs, issue;
} rm_cfg;
void rm_cfg_from_opts(rm_cfg *c, const tp_opts *o);

/* The pass's account of one kernel (`tpsim regmutex` prints it). */
typedef struct rm_kernel {
    const char *name;
    bool on;                  /* RegMutex applies */
    char why[320];            /* when off: why; when on: the choice in words */
    uint32_t regs;            /* |Rt|: registers per thread charged without RegMutex */
    uint32_t reserve;         /* of them, not the code's own (the kernel reserve) */
    uint32_t own;             /* registers the lowered code uses */
    uint32_t max_live;        /* the most registers live at one instruction */
    uint32_t base, ext;       /* |Bs|, |Es| of the code (registers) */
    uint32_t base_regs;       /* what occupancy charges per thread: base + reserve */
    uint32_t block_threads;   /* the CTA size planned for */
    uint32_t ctas_before, ctas_after; /* CTAs per SM without / with RegMutex (planned size) */
    uint32_t sections;        /* SRP sections at ctas_after */
    double frac;              /* estimated share of executed instructions in extended regions */
    uint32_t start, ninsns;   /* the kernel's instructions in the lowered module */
    uint32_t *live;           /* per instruction: registers live across it (units) */
    double *weight;           /* per instruction: its estimated share of executions
                                 (8^loop depth, summing to 1 over the kernel) */
    uint32_t nacquire, nrelease;
    /* the cost model (pass.c, "the model"): per warp alone, the weighted
    ** cycles of one pass over the code and the SM cycles its instructions
    ** occupy the busiest resource; the share of its time spent waiting for
    ** global loads; their lines per warp instruction; from these the warps
    ** that fill the SM's issue (w_sat) and those whose misses the MSHRs
    ** hold in flight (w_mem) */
    bool modelled;
    double t_warp, c_warp, mem_wait, lines, w_sat, w_mem;
} rm_kernel;

typedef struct rm_report {
    rm_kernel *k;
    uint32_t n;
} rm_report;
void rm_report_free(rm_report *r);

/* Runs the pass over every kernel of a lowered module (ptx_lower): sets
** ptx_func.rs, rewrites the allocation (compaction) of the kernels it
** applies to.  rep (may be NULL) receives an account of every kernel.
** Returns false (e set) only on malformed input. */
bool rm_pass(ptx_module *low, const rm_cfg *c, rm_report *rep, tp_err *e);

/* The baseline RegMutex is compared with: Owner-Warp-First register sharing
** (Jatala, Anantpur, Karkare, HPDC 2016).  For every register-limited kernel
** the top `share` of its registers are shared: a CTA beyond those the
** register file holds owns only the rest, and each of its warps shares the
** shared part with the corresponding warp of a resident CTA; whichever of
** the two CTAs first runs an instruction naming a shared register owns the
** pair's part until it finishes (ownership by CTA, so an owner never waits
** at a barrier for the other CTA; the owners' warps issue first: owf.c).
** No compaction, no release.  Marks the kernels with the owf policy. */
bool rm_owf_pass(ptx_module *low, const rm_cfg *c, double share, rm_report *rep, tp_err *e);

/* ---- the hardware ------------------------------------------------------------ */

enum { RM_MAX_WARPS = 256 };

/* One SM's RegMutex state: sections of the SRP, the SRP bitmask (a bit per
** section, set: taken), the look-up table (per warp slot: its section) and
** the warp status bitmask (a bit per warp slot, set: it holds a section). */
typedef struct rm_srp {
    uint32_t nwarps, nsections;
    uint64_t srp[RM_MAX_WARPS / 64];
    uint64_t status[RM_MAX_WARPS / 64];
    uint8_t lut[RM_MAX_WARPS];
    uint32_t used;            /* sections taken */
    /* statistics */
    uint64_t acquires, releases;
} rm_srp;

/* nsections is capped at nwarps (a warp holds one section at most). */
void rm_srp_init(rm_srp *s, uint32_t nwarps, uint32_t nsections);
/* Acquire for warp slot w: the first free section (find-first-zero of the
** SRP bitmask) goes to w; returns it, or -1 when none is free (nothing
** changes).  A warp that already holds one gets it back. */
int32_t rm_srp_acquire(rm_srp *s, uint32_t w);
/* Acquire section sec (Owner-Warp-First: a warp's own pair section) for
** w: sec, or -1 when another warp holds it. */
int32_t rm_srp_acquire_at(rm_srp *s, uint32_t w, uint32_t sec);
static inline bool rm_srp_taken(const rm_srp *s, uint32_t sec) { return (s->srp[sec / 64] >> (sec % 64)) & 1; }
/* Release: w's status bit and its section's SRP bit cleared (nothing if it holds none). */
void rm_srp_release(rm_srp *s, uint32_t w);
static inline bool rm_srp_holds(const rm_srp *s, uint32_t w)
{
    return (s->status[w / 64] >> (w % 64)) & 1;
}
static inline bool rm_srp_full(const rm_srp *s) { return s->used >= s->nsections; }
/* Bits of state an SM needs for nwarps warp slots: the SRP bitmask (one bit
** per possible section: nwarps), the look-up table (nwarps entries of
** ceil(log2 nwarps) bits) and the warp status bitmask (nwarps).  The GTX 480
** (48 warps): 48 + 48 x 6 + 48 = 384. */
uint32_t rm_state_bits(uint32_t nwarps);

/* ---- the policies' shared part (regmutex.c) ------------------------------------ */

/* One SM's SRP as RegMutex and OWF run it, and what it counts
** (the regmutex.* statistics, which both fill). */
typedef struct rm_hw {
    rm_srp srp;
    const uint8_t *at;        /* the kernel's PTX_RS_* marks (NULL: no sections this launch) */
    uint32_t start, end;      /* the kernel's pcs */
    bool waited;              /* a warp could not acquire in this cycle */
    uint64_t stall_cycles, held_cycles;
} rm_hw;
extern const rs_statset rm_statset;
void rm_hw_init(rm_hw *h, const rs_smcfg *c);
/* Whether warp w's instruction at pc is an acquire point of a warp holding no section. */
static inline bool rm_hw_wants(const rm_hw *h, const rs_warp *w, uint32_t pc)
{
    return h->at && pc - h->start < h->end - h->start && (h->at[pc - h->start] & PTX_RS_ACQUIRE) &&
           !rm_srp_holds(&h->srp, w->slot);
}
void rm_hw_grid_begin(exec_grid *g);
void rm_hw_issued(void *st, const rs_warp *w, const exec_rec *rec);
void rm_hw_tick(void *st);
void rm_hw_account(void *st, uint64_t cycles);
void rm_hw_stats_end(rs_val *v, const rs_end *e);

#endif
