/*
** policy.h -- register sharing between the warps of an SM: one interface and
** the policies behind it.  Module prefix: rs_.  Layer: above exec/ (it reads
** the lowered IR and answers exec/'s register-sharing hooks, exec.h:
** exec_regshare), below gpu/ (whose SM asks it at fixed points).
**
** A policy answers the questions the shared units ask, at fixed points:
**   compile    at module load, over the lowered code (the compiler side):
**              marks the kernels it applies to (ptx_func.rs, rs->policy =
**              the policy); a kernel it leaves unmarked runs as with none
**   occupancy  how many CTAs of a marked kernel fit an SM, given its base
**              charge and the register file (exec_occupancy), and
**   max_warps  the largest CTA that fits (the driver API's attributes)
**   may_issue  may this warp issue its next instruction now (is what it
**              would acquire free); a refusal is the issue stall
**              GPU_ST_REGS (statistics: issue.RS_STALL_NAME)
**   issue      it issues: what it gets (a section, physical registers)
**   issued     what it gives back: at release points, after last uses,
**              when it finishes
**   first      who goes first among ready warps (an issue priority)
** Each keeps its own state per SM (sm_new, for one launch) and declares its
** statistics (an rs_statset), which every launch's statistics carry by name.
**
** The policies (policies.def, one registration line each, regs.policy):
**   none      every warp owns its registers (the baseline; policy.c)
**   regmutex  RegMutex (regmutex.c; the pass pass.c, the SRP srp.c)
**   owf       Owner-Warp-First (owf.c; its pass in pass.c)
**   rfv       Register File Virtualization (rfv.c)
** Adding one: a file that defines its `const rs_policy`, and its line in
** policies.def.  Options it needs are rows of options.def.
*/
#ifndef RS_POLICY_H
#define RS_POLICY_H

#include "../base/tp.h"
#include "../base/err.h"
#include "../base/opt.h"
#include "../base/stats.h"
#include "../exec/exec.h"
#include "options.h"

/* The issue stall of a warp a policy refuses, as the statistics name it
** (issue.regmutex, stall_pcs[].stall.regmutex: the names scripts read, kept
** from when RegMutex was the only policy). */
#define RS_STALL_NAME "regmutex"

/* ---- statistics ---------------------------------------------------------------- */

typedef union rs_val {
    uint64_t u;
    double f;
} rs_val;

/* A statistic of a set: a declaration (base/stats.h) whose offsets -- the
** value's, a ratio's operands' -- are those of slots of the set (RS_SLOT),
** and whose source, if any, is a uint64_t member of the policy's per-SM
** state (RS_FROM), which rs_sm_stats sums over the SMs by its rule.  Rows:
**   RS_STAT(slot, kind, name, unit, rule, from, doc)     (RS_OP: an operand, not written)
**   kind U64 | F64; unit TP_UNIT_<unit>; rule ADD | MAX | PROP | RATIO(num slot, den slot, scale);
**   from RS_FROM(state type, member) or RS_OWN (set by the set's always or the policy's stats_end) */
typedef tp_stat_def rs_stat;

/* tp_stat_src.in of RS_FROM: the policy's per-SM state (apart from gpu/'s
** numbers: the kernel's registry holds both). */
enum { RS_IN_SM = 16 };

#define RS_SLOT(i) ((size_t)(i) * sizeof(rs_val))
#define RS_RULE_ADD .rule = TP_RULE_ADD
#define RS_RULE_MAX .rule = TP_RULE_MAX
#define RS_RULE_PROP .rule = TP_RULE_PROP
#define RS_RULE_RATIO(n, d, s) .rule = TP_RULE_RATIO, .num = RS_SLOT(n), .den = RS_SLOT(d), .scale = (s)
#define RS_FROM(type, m) {RS_IN_SM, (uint32_t)(offsetof(type, m) + 0 * sizeof(_Generic(((type *)0)->m, uint64_t: 1)))}
#define RS_OWN {0, 0}
#define RS_STAT(i, kind_, name_, unit_, rule_, from_, doc_)                                                            \
    [i] = {.name = name_, .kind = TP_STAT_##kind_, .unit = TP_UNIT_##unit_, RS_RULE_##rule_, .off = RS_SLOT(i),        \
           .src = {from_}, .doc = doc_}
#define RS_OP(i, kind_, name_, unit_, rule_, from_, doc_)                                                              \
    [i] = {.name = name_, .kind = TP_STAT_##kind_, .unit = TP_UNIT_##unit_, RS_RULE_##rule_, .off = RS_SLOT(i),        \
           .src = {from_}, .flags = TP_STAT_HIDDEN, .doc = doc_}

/* What a launch's end knows, for ratios and the configuration's values. */
typedef struct rs_end {
    const exec_occ *occ;      /* the launch's occupancy */
    uint64_t cycles;          /* the launch's cycles */
    uint32_t nsm;
    uint32_t max_warps;       /* warp slots per SM */
    const tp_opts *opts;      /* the GPU's options */
} rs_end;

/* A set of statistics.  Policies may share one (RegMutex and OWF run the
** same hardware); every set is registered once, in policies.def order. */
typedef struct rs_statset {
    const rs_stat *stats;
    uint32_t n;
    /* at every launch's end, whatever policy ran: values the configuration
    ** alone decides (the state an SM would need); may be NULL */
    void (*always)(rs_val *v, const rs_end *e);
} rs_statset;

enum { RS_STATS_MAX = 32 };
/* One launch's values of every set's statistics (zeroed by the launch's owner). */
typedef struct rs_kstats {
    rs_val v[RS_STATS_MAX];
} rs_kstats;

/* Registers every set's statistics with the registry, the rs_kstats at
** offset base of the record it describes (base/stats.h, relative). */
void rs_stats_register(tp_stats *s, size_t base);
/* A value by its name; 0 when there is no such statistic (tests, reports). */
uint64_t rs_kstat_u(const rs_kstats *k, const char *name);
double rs_kstat_f(const rs_kstats *k, const char *name);

/* ---- the policy ------------------------------------------------------------------ */

/* A launch as one SM's policy state sees it. */
typedef struct rs_smcfg {
    exec_grid *grid;
    const ptx_func *kernel;   /* exec_grid_kernel */
    const exec_occ *occ;
    uint32_t max_warps, max_ctas; /* the SM's warp and CTA slots */
    const tp_opts *opts;
} rs_smcfg;

/* A warp as the SM shows it. */
typedef struct rs_warp {
    uint32_t slot;            /* warp slot of the SM */
    uint32_t cta;             /* CTA slot of the SM */
    uint32_t index;           /* warp index in its CTA */
    exec_warp *ew;
} rs_warp;

typedef struct rs_policy {
    const char *name;         /* regs.policy's value */
    const rs_statset *stats;  /* what it counts (NULL: nothing) */
    /* compiler and occupancy (every hook may be NULL: nothing to do) */
    bool (*compile)(ptx_module *low, const tp_opts *o, tp_err *e);
    void (*occupancy)(const tp_opts *o, const ptx_func *kernel, exec_occ *occ);
    uint32_t (*max_warps)(const tp_opts *o, const ptx_func *kernel, uint32_t regs_per_warp);
    /* a launch of a kernel it marked starts (exec_grid_section_pool ...) */
    void (*grid_begin)(exec_grid *g);
    /* the SM's hardware: state for one launch */
    void *(*sm_new)(const rs_smcfg *c);
    void (*sm_free)(void *st);
    void (*cta_start)(void *st, uint32_t cta);
    void (*cta_done)(void *st, uint32_t cta);
    bool (*may_issue)(void *st, const rs_warp *w, uint32_t pc);
    /* false: it cannot after all (the instruction stays) */
    bool (*issue)(void *st, const rs_warp *w, const exec_next *n);
    void (*issued)(void *st, const rs_warp *w, const exec_rec *rec);
    bool (*first)(const void *st, const rs_warp *w);
    /* a cycle starts / `cycles` cycles passed (the last one's state repeated) */
    void (*tick)(void *st);
    void (*account)(void *st, uint64_t cycles);
    /* at the launch's end, once every SM's counts are in v (its set's values,
    ** rs_sm_stats): what the launch decides (RS_OWN rows; the ratios follow) */
    void (*stats_end)(rs_val *v, const rs_end *e);
} rs_policy;

/* The registered policies (policies.def), `none` first. */
uint32_t rs_npolicies(void);
const rs_policy *rs_policy_at(uint32_t i);
const rs_policy *rs_policy_find(const char *name);
extern const rs_policy rs_policy_none;
/* The policy the options select: regs.policy; when that is none, the
** aliases owf=1, then regmutex=1; none in a table without these rows. */
const rs_policy *rs_policy_of(const tp_opts *o);
/* The policy that marked a kernel (none when it is unmarked). */
static inline const rs_policy *rs_policy_of_kernel(const ptx_func *f)
{
    return f && f->rs && f->rs->policy ? (const rs_policy *)f->rs->policy : &rs_policy_none;
}
/* A zeroed ptx_rshare of policy p for kernel f, in m's arena, set as f->rs. */
ptx_rshare *rs_mark(ptx_module *m, ptx_func *f, const rs_policy *p);

/* ---- what exec/ and api/ install -------------------------------------------------- */

/* The code pass (exec_dev_set_pass): the selected policy's compile. */
bool rs_compile(ptx_module *low, const tp_opts *o, void *arg, tp_err *e);
/* The hooks (exec_dev_set_regshare): each asks the policy that marked the kernel. */
const exec_regshare *rs_exec_hooks(void);

/* ---- what the SM calls ------------------------------------------------------------ */

typedef struct rs_sm {
    const rs_policy *p;       /* the launch's kernel's policy */
    void *st;                 /* its state (NULL for none) */
} rs_sm;

/* A launch starts: exec's side of the kernel's policy (once per launch). */
void rs_grid_begin(exec_grid *g);
/* The SM's state for a launch (the previous one's freed); rs_sm_free at the end. */
void rs_sm_begin(rs_sm *s, const rs_smcfg *c);
void rs_sm_free(rs_sm *s);

static inline void rs_cta_start(rs_sm *s, uint32_t cta)
{
    if (s->p->cta_start) s->p->cta_start(s->st, cta);
}
static inline void rs_cta_done(rs_sm *s, uint32_t cta)
{
    if (s->p->cta_done) s->p->cta_done(s->st, cta);
}
/* Whether the policy gates issue at all (then ask rs_may_issue). */
static inline bool rs_gates(const rs_sm *s) { return s->p->may_issue != NULL; }
static inline bool rs_may_issue(rs_sm *s, const rs_warp *w, uint32_t pc) { return s->p->may_issue(s->st, w, pc); }
static inline bool rs_issue(rs_sm *s, const rs_warp *w, const exec_next *n)
{
    return !s->p->issue || s->p->issue(s->st, w, n);
}
static inline void rs_issued(rs_sm *s, const rs_warp *w, const exec_rec *rec)
{
    if (s->p->issued) s->p->issued(s->st, w, rec);
}
/* Whether the policy orders issue (then warps with rs_first go before the others). */
static inline bool rs_orders(const rs_sm *s) { return s->p->first != NULL; }
static inline bool rs_first(const rs_sm *s, const rs_warp *w) { return s->p->first(s->st, w); }
static inline void rs_tick(rs_sm *s)
{
    if (s->p->tick) s->p->tick(s->st);
}
static inline void rs_account(rs_sm *s, uint64_t cycles)
{
    if (s->p->account) s->p->account(s->st, cycles);
}
/* At the launch's end: every SM's counts (rs_sm_stats: the RS_FROM rows of its
** policy's set, by their rules), then once rs_stats_end (the policy's
** stats_end and every set's always); the registry computes the ratios. */
void rs_sm_stats(const rs_sm *s, rs_kstats *k);
void rs_stats_end(const ptx_func *kernel, rs_kstats *k, const rs_end *e);

#endif
