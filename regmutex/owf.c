/*
** owf.c -- Owner-Warp-First register sharing as a policy (policy.h; Jatala,
** Anantpur, Karkare, HPDC 2016), RegMutex's baseline on the seed's slide 18.
**
**   compile    rm_owf_pass (pass.c): the top owf.share of a register-
**              limited kernel's registers are shared; acquire marks on
**              every instruction naming one, no release
**   occupancy  `owners` CTAs own the base and a shared part per warp, as
**              many extra CTAs at most own only the base and share the
**              owners' parts; the number of owners that lets the most CTAs
**              in (ties: more owners, less sharing).  sections = owners x
**              warps per CTA
**   may_issue  a CTA pairs with an owner by CTA slot (slot mod owners); a
**              warp at an acquire point waits while the other CTA of its
**              pair owns the pair's part
**   issue      the first of a pair's two CTAs one of whose warps needs the
**              part owns it until it finishes (by CTA, so that an owner
**              never waits for the other CTA at a barrier); the warp takes
**              its own section of the part, (slot mod owners) x warps per
**              CTA + its index
**   first      the owners' warps issue before the others
** The SRP, releases (a finishing warp) and the regmutex.* statistics are
** RegMutex's hardware (regmutex.c).
*/
#include "regmutex.h"
#include <stdlib.h>

typedef struct owf_sm {
    rm_hw hw;                 /* first: the shared part's calls take the state as an rm_hw */
    uint32_t owners, wpc;     /* owner CTAs, warps per CTA */
    uint32_t *owner;          /* per pair: the CTA slot + 1 that owns its shared part (0: none) */
} owf_sm;

static bool owf_compile(ptx_module *low, const tp_opts *o, tp_err *e)
{
    rm_cfg c;
    rm_cfg_from_opts(&c, o);
    return rm_owf_pass(low, &c, tp_opt_f(o, RS_OPT_OWF_SHARE), NULL, e);
}

static void owf_occupancy(const tp_opts *op, const ptx_func *f, exec_occ *o)
{
    const ptx_rshare *rs = f->rs;
    uint64_t rf = (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_SM), regs_cta = o->regs_per_cta;
    uint64_t rf_base = rf > rs->pool_min ? rf - rs->pool_min : 0;
    o->by_regs = regs_cta ? (uint32_t)(rf_base / regs_cta) : UINT32_MAX;
    exec_occ_settle(o);
    uint32_t n = o->ctas_per_sm, warps = o->warps_per_cta;
    uint64_t shared = (uint64_t)rs->ext * 32 * warps, full = regs_cta + shared, m = 0, owners = 0;
    for (uint64_t ow = full ? rf / full : 0; ow > 0; ow--) {
        uint64_t extra = regs_cta ? (rf - ow * full) / regs_cta : ow;
        uint64_t t = ow + (extra < ow ? extra : ow);
        if (t > m) m = t, owners = ow;
    }
    if (m > UINT32_MAX) m = UINT32_MAX;
    if (owners > n) owners = n;
    o->by_regs = (uint32_t)m;
    if (m < n) n = (uint32_t)m, o->limit = EXEC_OCC_REGS;
    if (owners && n) {
        o->sections = (uint32_t)owners * warps;
        o->section_regs = rs->ext;
    } else {
        n = 0;
    }
    o->ctas_per_sm = n;
    if (!n) o->limit = EXEC_OCC_NONE;
}

/* An owner's CTA must fit with its shared part. */
static uint32_t owf_max_warps(const tp_opts *op, const ptx_func *f, uint32_t per_warp)
{
    uint64_t rf = (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_SM), sec = (uint64_t)f->rs->ext * 32;
    uint64_t w = rf / (per_warp + sec);
    return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

static void *owf_sm_new(const rs_smcfg *c)
{
    owf_sm *s = tp_calloc(1, sizeof *s);
    rm_hw_init(&s->hw, c);
    s->wpc = exec_grid_warps_per_cta(c->grid);
    s->owners = s->wpc ? c->occ->sections / s->wpc : 0;
    s->owner = tp_calloc(s->owners ? s->owners : 1, sizeof *s->owner);
    return s;
}

static void owf_sm_free(void *st)
{
    owf_sm *s = st;
    free(s->owner);
    free(s);
}

static bool owf_blocked(const owf_sm *s, const rs_warp *w)
{
    uint32_t o = s->owner[w->cta % s->owners];
    return o && o != w->cta + 1;
}

static bool owf_first(const void *st, const rs_warp *w)
{
    const owf_sm *s = st;
    return s->owners && s->owner[w->cta % s->owners] == w->cta + 1;
}

static void owf_cta_done(void *st, uint32_t cta)
{
    owf_sm *s = st;
    if (s->owners && s->owner[cta % s->owners] == cta + 1) s->owner[cta % s->owners] = 0; /* the pair's part is free again */
}

static bool owf_may_issue(void *st, const rs_warp *w, uint32_t pc)
{
    owf_sm *s = st;
    if (rm_hw_wants(&s->hw, w, pc) && owf_blocked(s, w)) {
        s->hw.waited = true;
        return false;
    }
    return true;
}

static bool owf_issue(void *st, const rs_warp *w, const exec_next *n)
{
    owf_sm *s = st;
    if (!n->needs_section || !s->owners) return true;
    if (!owf_blocked(s, w)) s->owner[w->cta % s->owners] = w->cta + 1;
    int32_t sec = rm_srp_acquire_at(&s->hw.srp, w->slot, (w->cta % s->owners) * s->wpc + w->index);
    if (sec < 0) return false;
    exec_warp_set_section(w->ew, (uint32_t)sec);
    return true;
}

const rs_policy rs_policy_owf = {
    .name = "owf",
    .stats = &rm_statset,
    .compile = owf_compile,
    .occupancy = owf_occupancy,
    .max_warps = owf_max_warps,
    .grid_begin = rm_hw_grid_begin,
    .sm_new = owf_sm_new,
    .sm_free = owf_sm_free,
    .cta_done = owf_cta_done,
    .may_issue = owf_may_issue,
    .issue = owf_issue,
    .issued = rm_hw_issued,
    .first = owf_first,
    .tick = rm_hw_tick,
    .account = rm_hw_account,
    .stats_end = rm_hw_stats_end,
};
