/*
** ldst_pool.c -- the front ends `warppool` and `mrpb` (gpu/ldst.h): the
** pool of gpu/warppool.h in front of the L1D, configured as WarpPool
** (warppool.*) or as MRPB (mrpb.*).
**
** The instructions whose every active lane goes to the L1D (global or
** local, loads, stores and atomics; one pass) go into the pool, their local
** addresses interleaved as the unit does; the rest (shared, constant,
** parameter, texture, mixed generic accesses, wmma's multi-pass accesses)
** go to a `banked` front end of their own, whose part of a cycle comes
** first, so that it has the L1D first when both want it: the pool's
** selection gets the L1D's ports that are left (l1d.banks, or one).
**
** Statistics: the pool counts into a record of its own (requests at
** insertion, L1D accesses and merges at acceptance, tag-cycles, full
** stalls, insertion conflicts, thread deliveries, delivery errors, policy
** switches, cache-sensitive quanta; gpu/warppool.h), the FE() counters
** gpu.c sums at the end of a launch; `end` adds the reservation failures it
** did not ask the L1D again for.  warppool declares the names (warppool.*)
** and their ratios; mrpb counts into the same ones.
*/
#include "ldst.h"
#include "warppool.h"
#include <stdlib.h>
#include "kstats_rows.h"

typedef struct pool_fe {
    gpu_ldst_fe fe;
    gpu_ldst_fe *direct;       /* a banked front end: what the pool does not take */
    gpu_wp *wp;
    gpu_ldstkstats st;         /* the pool's counters, this launch */
} pool_fe;

static inline pool_fe *P(gpu_ldst_fe *fe) { return (pool_fe *)fe; }
static inline const pool_fe *CP(const gpu_ldst_fe *fe) { return (const pool_fe *)fe; }

static void pool_store_prep(void *arg, gpu_mreq *r, uint16_t warp) { gpu_ldst_store_prep(arg, r, warp); }
static void pool_store_sent(void *arg, const gpu_mreq *r, gpu_l1res res) { gpu_ldst_store_sent(arg, r, res); }

static gpu_ldst_fe *pool_new(gpu_ldst *u, const tp_opts *o, const gpu_ldst_frontend *kind, const gpu_wpcfg *wc)
{
    pool_fe *p = tp_calloc(1, sizeof *p);
    p->fe.kind = kind;
    p->fe.u = u;
    p->direct = gpu_ldst_fe_banked.create(u, o);
    gpu_wpcfg c = *wc;
    c.store_prep = pool_store_prep; /* the unit counts each warp's stores until the L2 acknowledges them */
    c.store_sent = pool_store_sent;
    c.arg = u;
    p->wp = gpu_wp_new(&c, u->l1d, &u->c->l1d, u->pool, (uint16_t)u->sm->id, GPU_LDST_SRC_L1D, &p->st);
    return &p->fe;
}

static gpu_ldst_fe *warppool_create(gpu_ldst *u, const tp_opts *o)
{
    gpu_wpcfg wc;
    gpu_wp_cfg_warppool(o, &wc);
    return pool_new(u, o, &gpu_ldst_fe_warppool, &wc);
}

static gpu_ldst_fe *mrpb_create(gpu_ldst *u, const tp_opts *o)
{
    gpu_wpcfg wc;
    gpu_wp_cfg_mrpb(o, &wc);
    return pool_new(u, o, &gpu_ldst_fe_mrpb, &wc);
}

static bool warppool_chosen(const tp_opts *o) { return tp_opt_i(o, OPT_WARPPOOL) != 0; }
static bool mrpb_chosen(const tp_opts *o) { return tp_opt_i(o, OPT_MRPB) != 0; }

static void pool_destroy(gpu_ldst_fe *fe)
{
    pool_fe *p = P(fe);
    p->direct->kind->destroy(p->direct);
    gpu_wp_free(p->wp);
    free(p);
}

static void pool_begin(gpu_ldst_fe *fe, uint64_t now)
{
    pool_fe *p = P(fe);
    memset(&p->st, 0, sizeof p->st);
    p->direct->kind->begin(p->direct, now);
    gpu_wp_begin(p->wp, now);
}

/* Whether m goes to the pool: every active lane to the L1D. */
static inline bool pooled(const gpu_memop *m)
{
    return m->si->unit != EXEC_U_TEX && !(m->rec.events & EXEC_EV_MIXED_SPACE) && m->npass <= 1 &&
           (m->rec.space == PTX_SP_GLOBAL || m->rec.space == PTX_SP_LOCAL);
}

static bool pool_accept(gpu_ldst_fe *fe, gpu_memop *m, uint64_t now)
{
    pool_fe *p = P(fe);
    gpu_ldst *u = fe->u;
    if (!pooled(m)) return p->direct->kind->accept(p->direct, m, now);
    if (!gpu_wp_can_accept(p->wp, now)) {
        gpu_ldst_refused(u, now);
        return false;
    }
    /* into the instruction queue, local addresses interleaved */
    if (m->rec.space == PTX_SP_LOCAL)
        for (uint32_t mm = m->active; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            m->rec.addr[l] = gpu_ldst_local_addr(u, m->warp, l, m->rec.addr[l]);
        }
    m->t_done = now;
    u->st.mem_instructions++;
    gpu_wp_accept(p->wp, m, gpu_ldst_warp_age(u, m->warp), now);
    gpu_ldst_moved(u);
    return true;
}

/* The pool's finished instructions write back. */
static void pool_finish(pool_fe *p, uint64_t now)
{
    gpu_memop *m;
    while ((m = gpu_wp_pop_finished(p->wp))) gpu_ldst_finish(p->fe.u, m, m->t_done > now ? m->t_done : now);
}

static void pool_tick(gpu_ldst_fe *fe, uint64_t now)
{
    pool_fe *p = P(fe);
    gpu_ldst *u = fe->u;
    p->direct->kind->tick(p->direct, now);
    if (gpu_wp_quantum(p->wp, now)) gpu_ldst_moved(u);
    uint32_t banks = u->c->l1d.banks > 1 ? u->c->l1d.banks : 1, used = gpu_ldst_l1d_used(u, now);
    bool changed = false, stalled = false;
    uint32_t n = gpu_wp_cycle(p->wp, now, used < banks ? banks - used : 0, gpu_ldst_l1d_banks(u, now), &changed, &stalled);
    if (n) gpu_ldst_l1d_note(u, now, n, 0);
    u->sm->mem_requests += n; /* the pool counted its requests and accesses */
    if (changed) gpu_ldst_moved(u);
    if (stalled) gpu_ldst_stall(u, now);
    pool_finish(p, now);
}

static void pool_done(gpu_ldst_fe *fe, gpu_mreq *r, uint64_t now)
{
    pool_fe *p = P(fe);
    if (r->tag == UINT32_MAX || !(r->tag & GPU_WP_TAG)) {
        p->direct->kind->done(p->direct, r, now);
        return;
    }
    gpu_wp_done(p->wp, r, now);
    pool_finish(p, now);
    gpu_ldst_moved(fe->u);
}

static void pool_unblock(gpu_ldst_fe *fe)
{
    pool_fe *p = P(fe);
    p->direct->kind->unblock(p->direct);
    gpu_wp_unblock(p->wp);
}

static uint64_t pool_next(const gpu_ldst_fe *fe, uint64_t now)
{
    const pool_fe *p = CP(fe);
    uint64_t a = p->direct->kind->next(p->direct, now), b = gpu_wp_next(p->wp, now);
    return a < b ? a : b;
}

static bool pool_idle(const gpu_ldst_fe *fe)
{
    const pool_fe *p = CP(fe);
    return p->direct->kind->idle(p->direct) && gpu_wp_idle(p->wp);
}

static void pool_skip(gpu_ldst_fe *fe, uint64_t k)
{
    pool_fe *p = P(fe);
    p->direct->kind->skip(p->direct, k);
    gpu_wp_account_skip(p->wp, k);
}

static void pool_abort(gpu_ldst_fe *fe)
{
    pool_fe *p = P(fe);
    p->direct->kind->abort(p->direct);
    gpu_memop *m;
    while ((m = gpu_wp_drop(p->wp))) gpu_memop_put(fe->u->sm, m);
}

static void pool_end(gpu_ldst_fe *fe, gpu_kstats *ks, uint64_t now)
{
    pool_fe *p = P(fe);
    p->direct->kind->end(p->direct, ks, now);
    gpu_wp_flush(p->wp, now);
    ks->l1d_reservation_fails += gpu_wp_resfail_skipped(p->wp);
}

static const gpu_ldstkstats *pool_counters(const gpu_ldst_fe *fe) { return &CP(fe)->st; }

/* ---- statistics: the names (warppool.*, every configuration) and ratios ---- */

/* rows of gpu/kstats.def's format (gpu/kstats_rows.h) */
static const tp_stat_def pool_stats[] = {
    GPU_KS_ROW(U64, ldst.merges, "warppool.merges", REQUESTS, ADD, FE(merges), NOCOL,
               "requests that rode on another request's L1D access (inter-warp merges)")
    GPU_KS_ROW(F64, ldst.merges_per_access, "warppool.merges_per_access", REQS_PER_ACCESS,
        RATIO(ldst.merges, ldst.l1_accesses, 1), OWN, NOCOL, "merges / l1_accesses")
    GPU_KS_ROW(F64, ldst.queue_occupancy, "warppool.queue_occupancy", TAGS, RATIO(ldst.tag_cycles, sm_cycles, 1), OWN, NOCOL,
               "inter-warp queue tags in use per SM, mean over the launch's cycles")
    GPU_KS_ROW(U64, ldst.tag_cycles, "warppool.tag_cycles", TAG_CYCLES, ADD, FE(tag_cycles), NOCOL,
               "inter-warp queue tags in use, summed over cycles and SMs")
    GPU_KS_ROW(U64, ldst.full_stalls, "warppool.full_stalls", CYCLES, ADD, FE(full_stalls), NOCOL,
               "coalescer cycles lost because the request's inter-warp queue had no free tag (back-pressure)")
    GPU_KS_ROW(U64, ldst.insert_conflicts, "warppool.insert_conflicts", CYCLES, ADD, FE(insert_conflicts), NOCOL,
               "coalescer cycles lost because another coalescer inserted into the same queue that cycle")
    GPU_KS_ROW(U64, ldst.mode_switches, "warppool.mode_switches", EVENTS, ADD, FE(mode_switches), NOCOL,
               "selection-policy switches (oldest <-> cache-sensitive) at quantum boundaries")
    GPU_KS_ROW(U64, ldst.cache_quanta, "warppool.cache_sensitive_quanta", QUANTA, ADD, FE(cache_quanta), NOCOL,
               "quanta completed with the cache-sensitive policy")
    GPU_KS_ROW(U64, ldst.thread_deliveries, "warppool.thread_deliveries", LANES, ADD, FE(thread_deliveries), NOCOL,
               "lanes that received a loaded line through the pool (one per lane per line it reads)")
    GPU_KS_ROW(U64, ldst.delivery_errors, "warppool.delivery_errors", LOADS, ADD, FE(delivery_errors), NOCOL,
               "pool loads that finished with a lane never served or served twice (0: every merged warp and thread got its data)")
};

/* The pool's operations, shared by WarpPool and MRPB. */
#define POOL_OPS                                                                                                   \
    .destroy = pool_destroy, .begin = pool_begin, .accept = pool_accept, .tick = pool_tick, .done = pool_done, \
    .unblock = pool_unblock, .next = pool_next, .idle = pool_idle, .skip = pool_skip, .abort = pool_abort,     \
    .end = pool_end, .counters = pool_counters

const gpu_ldst_frontend gpu_ldst_fe_warppool = {.name = "warppool", .chosen = warppool_chosen, .create = warppool_create,
                                                POOL_OPS, .stats = pool_stats, .nstats = (uint32_t)TP_ARRAY_LEN(pool_stats)};

/* MRPB is WarpPool's pool with another configuration; its counters are the same warppool.* */
const gpu_ldst_frontend gpu_ldst_fe_mrpb = {.name = "mrpb", .chosen = mrpb_chosen, .create = mrpb_create, POOL_OPS};
