/*
** regmutex.c -- RegMutex as a register-sharing policy (policy.h; Khorasani,
** Asghari Esfeden, Farmahini-Farahani, Jayasena, Sarkar, ISCA 2018), and
** the SRP hardware it shares with Owner-Warp-First (owf.c): the regmutex.*
** statistics, section storage, release and accounting.
**
**   compile    rm_pass (pass.c): base and extended sets, regions, marks
**   occupancy  a thread is charged the base set; the pool keeps at least
**              rs->pool_min registers, and what the resident CTAs' base
**              sets leave is `sections` sections of |Es| x 32 registers (at
**              least one: a CTA that would leave none is not resident)
**   may_issue  a warp at an acquire point that holds no section waits while
**              no section is free (the SRP bitmask full; not cached: another
**              warp's release frees one)
**   issue      it takes the first free section (find first zero)
**   issued     a release point frees it when its instruction issues, and a
**              warp that finishes frees its own; the new owner may issue
**              from the next cycle (tests/unit/test_regmutex.c, exact cycles)
*/
#include "regmutex.h"
#include <stdlib.h>

/* ---- the SRP hardware and its statistics (RegMutex and OWF) ------------------------ */

enum {
    ST_SECTIONS, ST_EXT_REGS, ST_ACQUIRES, ST_RELEASES, ST_STALL, ST_EXT_CYCLES, ST_POOL_UTIL, ST_STATE_BITS,
    ST_SECTION_CYCLES, ST_N
};

static const rs_stat rm_stats[ST_N] = {
    RS_STAT(ST_SECTIONS, U64, "regmutex.sections", SECTIONS, PROP, RS_OWN, "SRP sections per SM (0: the kernel shares no registers)"),
    RS_STAT(ST_EXT_REGS, U64, "regmutex.ext_regs", REGISTERS, PROP, RS_OWN, "registers per thread in a section (|Es|)"),
    RS_STAT(ST_ACQUIRES, U64, "regmutex.acquires", SECTIONS, ADD, RS_FROM(rm_hw, srp.acquires), "sections acquired"),
    RS_STAT(ST_RELEASES, U64, "regmutex.releases", SECTIONS, ADD, RS_FROM(rm_hw, srp.releases),
            "sections released (at release points and by finishing warps)"),
    RS_STAT(ST_STALL, U64, "regmutex.stall_cycles", SM_CYCLES, ADD, RS_FROM(rm_hw, stall_cycles),
            "SM cycles in which a warp could not issue for want of a free section"),
    RS_STAT(ST_EXT_CYCLES, U64, "regmutex.extended_warp_cycles", WARP_CYCLES, ADD, RS_FROM(rm_hw, held_cycles),
            "warp cycles spent holding a section (in the extended state)"),
    RS_STAT(ST_POOL_UTIL, F64, "regmutex.pool_utilization", FRACTION, RATIO(ST_EXT_CYCLES, ST_SECTION_CYCLES, 1), RS_OWN,
            "mean fraction of the SRP sections in use, per SM and cycle"),
    RS_STAT(ST_STATE_BITS, U64, "regmutex.state_bits", BITS, PROP, RS_OWN,
            "bits of RegMutex state an SM of this configuration needs (SRP bitmask, look-up table, warp status bitmask)"),
    RS_OP(ST_SECTION_CYCLES, U64, "regmutex.section_cycles", SECTION_CYCLES, ADD, RS_OWN,
          "cycles x SMs x sections per SM (0: the kernel shares no registers)"),
};

static void rm_always(rs_val *v, const rs_end *e) { v[ST_STATE_BITS].u = rm_state_bits(e->max_warps); }

const rs_statset rm_statset = {rm_stats, ST_N, rm_always};

void rm_hw_init(rm_hw *h, const rs_smcfg *c)
{
    memset(h, 0, sizeof *h);
    rm_srp_init(&h->srp, c->max_warps, c->occ->sections);
    const ptx_func *f = c->kernel;
    if (c->occ->sections && f && f->rs && f->rs->at) {
        h->at = f->rs->at;
        h->start = f->start;
        h->end = f->end;
    }
}

void rm_hw_grid_begin(exec_grid *g)
{
    if (exec_grid_occ(g)->sections) exec_grid_section_pool(g); /* the SMs hand out the sections */
}

void rm_hw_issued(void *st, const rs_warp *w, const exec_rec *rec)
{
    rm_hw *h = st;
    if (rec->events & (EXEC_EV_SECTION_FREE | EXEC_EV_WARP_DONE)) rm_srp_release(&h->srp, w->slot);
}

void rm_hw_tick(void *st) { ((rm_hw *)st)->waited = false; }

void rm_hw_account(void *st, uint64_t cycles)
{
    rm_hw *h = st;
    h->held_cycles += cycles * h->srp.used;
    if (h->waited) h->stall_cycles += cycles;
}

void rm_hw_stats_end(rs_val *v, const rs_end *e)
{
    if (!e->occ->sections) return;
    v[ST_SECTIONS].u = e->occ->sections;
    v[ST_EXT_REGS].u = e->occ->section_regs;
    v[ST_SECTION_CYCLES].u = e->cycles * e->nsm * e->occ->sections;
}

/* ---- RegMutex ---------------------------------------------------------------------------- */

static bool rmx_compile(ptx_module *low, const tp_opts *o, tp_err *e)
{
    rm_cfg c;
    rm_cfg_from_opts(&c, o);
    return rm_pass(low, &c, NULL, e);
}

static void rmx_occupancy(const tp_opts *op, const ptx_func *f, exec_occ *o)
{
    const ptx_rshare *rs = f->rs;
    uint64_t rf = (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_SM), regs_cta = o->regs_per_cta;
    uint64_t rf_base = rf > rs->pool_min ? rf - rs->pool_min : 0;
    o->by_regs = regs_cta ? (uint32_t)(rf_base / regs_cta) : UINT32_MAX;
    exec_occ_settle(o);
    /* what the resident base sets leave is the pool; it keeps one section at
    ** the least (a warp that can never acquire would never finish) */
    uint32_t n = o->ctas_per_sm;
    while (rs->ext && n) {
        uint64_t left = rf - (uint64_t)n * regs_cta, sec = left / ((uint64_t)rs->ext * 32);
        if (sec > (uint64_t)n * o->warps_per_cta) sec = (uint64_t)n * o->warps_per_cta;
        if (sec >= 1) {
            o->sections = (uint32_t)sec;
            o->section_regs = rs->ext;
            break;
        }
        n--;
        o->limit = EXEC_OCC_REGS;
    }
    o->ctas_per_sm = n;
    if (!n) o->limit = EXEC_OCC_NONE;
}

/* A CTA must fit beside the pool's reserve and one section at the least. */
static uint32_t rmx_max_warps(const tp_opts *op, const ptx_func *f, uint32_t per_warp)
{
    uint64_t rf = (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_SM), sec = (uint64_t)f->rs->ext * 32;
    uint64_t keep = f->rs->pool_min > sec ? f->rs->pool_min : sec;
    uint64_t w = rf > keep ? (rf - keep) / per_warp : 0;
    return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

static void *rmx_sm_new(const rs_smcfg *c)
{
    rm_hw *h = tp_malloc(sizeof *h);
    rm_hw_init(h, c);
    return h;
}

static bool rmx_may_issue(void *st, const rs_warp *w, uint32_t pc)
{
    rm_hw *h = st;
    if (rm_hw_wants(h, w, pc) && rm_srp_full(&h->srp)) {
        h->waited = true;
        return false;
    }
    return true;
}

static bool rmx_issue(void *st, const rs_warp *w, const exec_next *n)
{
    rm_hw *h = st;
    if (!n->needs_section) return true;
    int32_t sec = rm_srp_acquire(&h->srp, w->slot); /* the first free one (may_issue saw one) */
    if (sec < 0) return false;
    exec_warp_set_section(w->ew, (uint32_t)sec);
    return true;
}

const rs_policy rs_policy_regmutex = {
    .name = "regmutex",
    .stats = &rm_statset,
    .compile = rmx_compile,
    .occupancy = rmx_occupancy,
    .max_warps = rmx_max_warps,
    .grid_begin = rm_hw_grid_begin,
    .sm_new = rmx_sm_new,
    .sm_free = free,
    .may_issue = rmx_may_issue,
    .issue = rmx_issue,
    .issued = rm_hw_issued,
    .tick = rm_hw_tick,
    .account = rm_hw_account,
    .stats_end = rm_hw_stats_end,
};
