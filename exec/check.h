/*
** check.h -- the correctness checkers of the functional model, inside exec/:
** racecheck (check_race.c), initcheck (check_init.c), synccheck
** (check_sync.c), and what they share (check.c): findings, their
** deduplication, reports and counts.  docs/CHECKS.md is the user's and the
** maintainer's description; this header is the contract between the
** checkers and the rest of exec/.
**
** Rules:
**  - The checkers only observe.  They never change what a kernel computes,
**    which warp runs when, or the counters; a kernel runs the same with
**    checks on or off.
**  - The functional model calls them through the hooks below, each behind a
**    single predictable branch on g->checks (or g->conv_hook), so that with
**    checks off the hot paths cost what they cost before.
**  - Every hook is called from exec_warp_step's path as well as from
**    exec_warp_run's: performance mode gets the same checks, and what they
**    find does not depend on exec.quantum or on the order a timing model
**    picks (happens-before, not timing; docs/CHECKS.md says where that has
**    limits).
**  - State is allocated only while a check is on, and in proportion to the
**    memory kernels touch: shadow pages of 4 KiB of memory, made on first
**    touch; race state lives for one launch, initcheck's for the process.
*/
#ifndef EXEC_CHECK_H
#define EXEC_CHECK_H

#include "internal.h"

/* g->checks and exec_check_flags() */
enum {
    EXEC_CK_RACE = 1u << 0,      /* check.race (or check.race_intrawarp) */
    EXEC_CK_INTRAWARP = 1u << 1, /* check.race_intrawarp */
    EXEC_CK_INIT = 1u << 2,      /* check.init */
    EXEC_CK_SYNC = 1u << 3,      /* check.sync */
};

/* The checks the device's options turn on. */
uint32_t exec_check_flags(const exec_dev *d);

/* ---- hooks, called by the functional model -------------------------------- */

/* Launch boundaries: set g->checks and g->conv_hook / fill r->findings. */
void exec_check_grid_open(exec_grid *g);
void exec_check_grid_close(exec_grid *g, exec_result *r);
/* A CTA became resident (its slot's shared memory and warps are fresh). */
void exec_check_cta_start(exec_cta *c);
/* ld, ldu, st, atom, red: the active lanes m and their addresses in `space`
** (PTX_SP_GENERIC: generic addresses), before the access happens. */
void exec_check_mem(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, int space, uint32_t m,
                    const uint64_t *addr);
/* One lane's access outside ld/st (surfaces; the matrix loads and stores:
** wmma.load/.store, ldmatrix, stmatrix) at addr in `space` (global,
** shared or generic). */
void exec_check_lane(exec_warp *w, const ptx_insn *in, int lane, int space, uint64_t addr, unsigned size, bool write);
/* membar / fence executed by lanes m. */
void exec_check_fence(exec_warp *w, const ptx_insn *in, uint32_t m);
/* A warp arrives at CTA barrier `id` (bar/barrier .sync, .red, .arrive)
** with lanes m; count: the thread count operand (0: none). */
void exec_check_bar(exec_warp *w, const ptx_insn *in, uint32_t id, uint32_t count, bool arrive, uint32_t m);
/* Barrier `id` of c opens: called before its waiting warps are released. */
void exec_check_bar_release(exec_cta *c, uint32_t id);
/* An instruction that needs converged lanes (EXEC_DK_CONV: bar, barrier,
** bar.warp.sync, shfl/vote/match/redux/elect .sync) is about to run with
** lanes m (after exec.its made them converge). */
void exec_check_conv(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m);
/* Device-side free() of [base, base+size) during launch g: the memory may
** come back from malloc() to another thread, which is no race. */
void exec_check_heap_free(exec_grid *g, uint64_t base, uint64_t size);
/* Device memory [base, base+size) was freed. */
void exec_check_mem_freed(exec_dev *d, uint64_t base, uint64_t size);
/* The device goes away / a CTA slot's warps are freed. */
void exec_check_dev_free(exec_dev *d);
void exec_check_warp_free(exec_warp *w);
void exec_check_cta_free(exec_cta *c);

/* ---- shared by the checkers (check.c) ------------------------------------- */

/* The module-global pc of the instruction `in` of w's module. */
static inline uint32_t exec_check_pc(const exec_warp *w, const ptx_insn *in)
{
    return (uint32_t)(in - w->g->m->xi);
}

/* The CTA-linear-major index of a warp within its launch. */
static inline uint64_t exec_check_gwarp(const exec_warp *w)
{
    return w->cta->linear * w->g->cta_warps + w->wid;
}

/* One side of a finding: a thread's access or arrival. */
typedef struct ck_side {
    uint64_t gwarp;      /* exec_check_gwarp of its warp */
    int lane;
    uint32_t pc;         /* module-global pc */
    const char *op;      /* "read", "write", "strong write", ...; "" for none */
} ck_side;

/* What one occurrence of a race involves, for its report's counts. */
typedef struct ck_occ {
    uint64_t addr;       /* the address (shared: the offset) of the access */
    uint64_t thread[2];  /* both sides: gwarp * 32 + lane */
} ck_occ;

/* Counts an occurrence of a finding of `kind` with dedup key (kernel, a, b,
** kind) and returns true if it is new (the caller then reports it with
** ck_emit).  o: a race's addresses and threads (NULL for the other kinds). */
bool ck_occurrence(exec_grid *g, exec_check_kind kind, uint64_t a, uint64_t b, const ck_occ *o);
/* Records a new finding: `text` is the report (first line without
** "tpsim: KIND: ", further lines indented), kept in the device's list of
** this launch's findings.  Init and sync findings are printed now; races
** join the launch's report on their source lines (pc0, pc1: module-global),
** printed when the launch ends. */
void ck_emit(exec_grid *g, exec_check_kind kind, const char *what, const char *space, uint32_t pc0, uint32_t pc1,
             uint64_t addr, const char *text);
/* Text helpers: "block (x,y,z) thread (x,y,z)", "pc N (insn) at f.ptx:L [src:L]",
** a global address with its allocation, a shared offset with its variable. */
void ck_thread(const exec_grid *g, uint64_t gwarp, int lane, tp_sbuf *b);
void ck_pc(const exec_grid *g, uint32_t pc, tp_sbuf *b);
void ck_side_text(const exec_grid *g, const ck_side *s, tp_sbuf *b);
void ck_global_addr(const exec_grid *g, uint64_t addr, tp_sbuf *b);
void ck_shared_addr(const exec_grid *g, uint64_t off, tp_sbuf *b);
/* pc relative to its function (as the reports show it). */
uint32_t ck_fpc(const exec_grid *g, uint32_t pc);

/* ---- the checkers' own entry points --------------------------------------- */

/* check_race.c (state per launch, per CTA slot, per warp) */
void rk_grid_open(exec_grid *g);
void rk_grid_close(exec_grid *g);
void rk_cta_start(exec_cta *c);
void rk_cta_free(exec_cta *c);
void rk_warp_free(exec_warp *w);
/* Forgets the accesses to global memory [base, base+size). */
void rk_forget(exec_grid *g, uint64_t base, uint64_t size);
void rk_dev_free(exec_dev *d);
/* Per instruction: acquire before the lanes' accesses, release after. */
void rk_acquire(exec_warp *w, int space, uint64_t addr);
void rk_release(exec_warp *w, int space, uint64_t addr, bool publish);
/* The accesses of lanes m of one instruction at pc: lane l's in space
** sp[l] at ad[l], size bytes each. */
void rk_accesses(exec_warp *w, uint32_t pc, uint32_t m, const uint8_t *sp, const uint64_t *ad, unsigned size, bool write,
                 bool strong);
void rk_fence(exec_warp *w);
void rk_bar_arrive(exec_warp *w, uint32_t id, bool arrive_only);
void rk_bar_release(exec_cta *c, uint32_t id);
void rk_warpsync(exec_warp *w);

/* check_init.c (state per device) */
void ik_read(exec_warp *w, int lane, uint32_t pc, uint64_t addr, unsigned size, uint32_t track);
void ik_write(exec_dev *d, uint64_t addr, uint64_t size);
void ik_freed(exec_dev *d, uint64_t base, uint64_t size);
void ik_dev_free(exec_dev *d);

/* check_sync.c */
void sk_cta_start(exec_cta *c);
void sk_cta_free(exec_cta *c);
void sk_bar(exec_warp *w, const ptx_insn *in, uint32_t id, uint32_t count, uint32_t m);
void sk_conv(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m);
void sk_bar_release(exec_cta *c, uint32_t id);

#endif
