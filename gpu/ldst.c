/*
** ldst.c -- the LD/ST unit of an SM (ldst.h): the records of memory
** instructions, the L1 caches' side, the L1D's ports within a cycle, the
** counters every configuration reports, and the front end chosen by name
** (gpu/ldst.def), which does the rest through the hooks of
** gpu_ldst_frontend.  Nothing here depends on which front end runs.
**
** Local memory is interleaved as the hardware does: word j of the lane l of
** warp slot w on SM s is at GPU_LOCAL_BASE + ((s * max_warps + w) * words
** + j) * 128 + l * 4, so a warp reading the same local variable reads one
** line.
**
** Statistics: the unit's part of gpu_ldstkstats (gpu_ldst.st: LDST() rows
** of gpu/kstats.def, which gpu.c sums over the SMs at the end of a launch;
** their ratios are rows too) -- memory instructions
** with L1D lines, requests and L1D accesses as the front end reports them
** (in every configuration, so that front ends compare), cycles with an L1D
** access (gpu_ldst_l1d_note), refused instructions and LD/ST stall cycles:
** cycles in which a memory instruction ready in a collector was refused, or
** a line request waited for the L1D (or for whatever the front end holds
** it in).  Cycles skipped while a stall lasts count as stall cycles too.
** The SM's own counters (shared.*, l1c.*, mem_requests, the L1D
** reservation failures not asked again) are in gpu_sm, which gpu.c sums.
*/
#include "ldst.h"
#include <stdlib.h>

#define GPU_LOCAL_BASE 0x400000000000ull

/* ---- the front ends ------------------------------------------------------------------------ */

static const gpu_ldst_frontend *const frontends[] = {
#define GPU_LDST_FE(name, doc) &gpu_ldst_fe_##name,
#include "ldst.def"
#undef GPU_LDST_FE
};

const gpu_ldst_frontend *gpu_ldst_frontend_of(const tp_opts *o)
{
    /* the option's choices are "auto" and then gpu/ldst.def's names, in order (gpu/options.c) */
    int64_t k = tp_opt_i(o, OPT_LDST_FRONTEND);
    if (k > 0 && (size_t)k <= TP_ARRAY_LEN(frontends)) return frontends[k - 1];
    for (size_t i = 0; i < TP_ARRAY_LEN(frontends); i++)
        if (!frontends[i]->chosen || frontends[i]->chosen(o)) return frontends[i];
    return frontends[TP_ARRAY_LEN(frontends) - 1];
}

void gpu_ldst_stats_register(tp_stats *s, size_t base)
{
    for (size_t i = 0; i < TP_ARRAY_LEN(frontends); i++)
        if (frontends[i]->stats) tp_stats_add_defs(s, base, frontends[i]->stats, frontends[i]->nstats);
}

/* ---- the unit ---------------------------------------------------------------------------------- */

void gpu_ldst_init(gpu_sm *sm, gpu *g)
{
    gpu_ldst *u = tp_calloc(1, sizeof *u);
    u->sm = sm;
    u->c = sm->c;
    u->l1d = sm->l1d;
    u->l1c = sm->l1c;
    u->missq[0] = gpu_l1_missq(u->l1d);
    u->missq[1] = gpu_l1_missq(u->l1c);
    gpu_l1_done_queues(u->l1d, &u->hits[0], &u->fills[0]);
    gpu_l1_done_queues(u->l1c, &u->hits[1], &u->fills[1]);
    u->pool = sm->pool;
    sm->ldst = u;
    u->fe = sm->c->ldst->create(u, &g->opts);
    TP_ASSERT(u->fe->kind == sm->c->ldst && u->fe->u == u);
    if (sm->c->const_path == 1) u->idc = gpu_ldst_idc_create(u);
}

void gpu_ldst_begin(gpu_sm *sm, uint64_t now)
{
    gpu_ldst *u = sm->ldst;
    memset(&u->st, 0, sizeof u->st);
    u->refused_at = u->stall_at = u->stall_from = u->l1d_at = 0;
    u->miss_rr = 0;
    u->accept_from = 0;
    u->fe->kind->begin(u->fe, now);
    if (u->idc) u->idc->kind->begin(u->idc, now);
}

void gpu_ldst_free(gpu_sm *sm)
{
    gpu_ldst *u = sm->ldst;
    if (!u) return;
    u->fe->kind->destroy(u->fe);
    if (u->idc) u->idc->kind->destroy(u->idc);
    gpu_memop *m = u->mop_free;
    while (m) {
        gpu_memop *n = m->next;
        free(m->xaddr);
        free(m);
        m = n;
    }
    free(u);
    sm->ldst = NULL;
}

gpu_memop *gpu_memop_get(gpu_sm *sm)
{
    gpu_ldst *u = sm->ldst;
    gpu_memop *m = u->mop_free;
    if (m) {
        u->mop_free = m->next;
    } else {
        m = tp_malloc(sizeof *m);
        m->xaddr = NULL;
    }
    m->npass = 0;
    return m;
}

void gpu_memop_put(gpu_sm *sm, gpu_memop *m)
{
    m->next = sm->ldst->mop_free;
    sm->ldst->mop_free = m;
}

void gpu_ldst_finish(gpu_ldst *u, gpu_memop *m, uint64_t t)
{
    gpu_wb_push(u->sm, t, m->warp, m->si, true);
    gpu_memop_put(u->sm, m);
}

uint64_t gpu_ldst_local_addr(const gpu_ldst *u, uint16_t warp, int lane, uint64_t off)
{
    const gpu_sm *sm = u->sm;
    uint64_t words = (sm->lx->local_bytes + 3) / 4;
    return GPU_LOCAL_BASE + ((sm->id * (uint64_t)u->c->max_warps + warp) * words + off / 4) * 128 +
           (uint64_t)lane * 4 + off % 4;
}

bool gpu_ldst_accept(gpu_sm *sm, gpu_memop *m, uint64_t now)
{
    gpu_ldst *u = sm->ldst;
    if (now < u->accept_from) {
        /* the front end would refuse it (a collector offers it in every cycle it ticks) */
        gpu_ldst_refused(u, now);
        return false;
    }
    gpu_ldst_fe *fe = u->fe;
    return fe->kind->accept(fe, m, now);
}

void gpu_ldst_cycle(gpu_sm *sm, uint64_t now)
{
    gpu_ldst *u = sm->ldst;
    u->fe->kind->tick(u->fe, now);
    if (u->idc) u->idc->kind->tick(u->idc, now);
}

void gpu_ldst_store_sent(gpu_ldst *u, const gpu_mreq *r, gpu_l1res res)
{
    /* queued for a later lookup (l1d.lookup=queue): acknowledged by the L2, or by the L1D if it absorbs it */
    if ((res == GPU_L1_SENT || res == GPU_L1_QUEUED) && r->want_ack) u->sm->warps[r->warp].stores_out++;
}

/* Whether gpu_l1_pop_done of the L1D (k 0) or the L1C (1) would return a
** request at now: a head of its hits or fills ready (checked in line, as
** most cycles have none). */
static inline bool done_due(const gpu_ldst *u, int k, uint64_t now)
{
    return mem_queue_head_ready(u->hits[k]) <= now || mem_queue_head_ready(u->fills[k]) <= now;
}

void gpu_ldst_replies(gpu_sm *sm, uint64_t now)
{
    gpu_ldst *u = sm->ldst;
    gpu_ldst_fe *fe = u->fe;
    gpu_mreq *r;
    while ((r = gpu_memsys_pop(sm->lx->g->ms, sm->id, now))) { /* icnt.eject_rate of them a cycle */
        if (r->src != GPU_LDST_SRC_L1C) fe->kind->unblock(fe);
        gpu_l1_fill(r->src == GPU_LDST_SRC_L1C ? u->l1c : u->l1d, r, now);
        sm->changed = true;
    }
    /* l1d.lookup=queue: the lookups due now, after the fills; l1d.release=drain: a load
    ** leaving a completed MSHR, which may free it for a refused miss (neither: no call) */
    if (gpu_l1_has_cycle(&u->c->l1d) && gpu_l1_cycle(u->l1d, now)) {
        fe->kind->unblock(fe);
        sm->changed = true;
    }
    while (done_due(u, 0, now) && (r = gpu_l1_pop_done(u->l1d, now))) {
        if (r->kind == GPU_MR_STORE && r->is_reply) {
            /* a store's ack: its warp may finish, or pass a fence */
            gpu_sm_store_acked(sm, r->warp, now);
            gpu_mreq_put(u->pool, r);
            continue;
        }
        fe->kind->done(fe, r, now);
    }
    while (done_due(u, 1, now) && (r = gpu_l1_pop_done(u->l1c, now))) {
        gpu_ldst_fe *to = u->idc && r->tag >= GPU_IDC_TAG ? u->idc : fe;   /* (UINT32_MAX: dropped by either) */
        to->kind->done(to, r, now);
    }
}

void gpu_ldst_send(gpu_sm *sm, uint64_t now)
{
    gpu_ldst *u = sm->ldst;
    gpu_memsys *ms = sm->lx->g->ms;
    for (int k = 0; k < 2; k++) {
        uint32_t which = (u->miss_rr + (uint32_t)k) & 1;   /* 1: the L1C */
        gpu_mreq *r = mem_queue_peek(u->missq[which], now);   /* gpu_l1_peek_miss_at, in line */
        if (!r) continue;
        gpu_l1 *l1 = which ? u->l1c : u->l1d;
        r->sm = (uint16_t)sm->id;
        r->src = l1 == u->l1c ? GPU_LDST_SRC_L1C : GPU_LDST_SRC_L1D;
        if (!gpu_memsys_can_accept(ms, sm->id, r)) continue;
        gpu_l1_pop_miss(l1);
        if (l1 == u->l1d) (u->fe->kind->depart ? u->fe->kind->depart : u->fe->kind->unblock)(u->fe);
        gpu_memsys_accept(ms, r, now);
        u->miss_rr++;
        sm->changed = true;
        return; /* one request per cycle leaves an SM */
    }
}

uint64_t gpu_ldst_next(const gpu_sm *sm, uint64_t now)
{
    const gpu_ldst *u = sm->ldst;
    uint64_t n = u->fe->kind->next(u->fe, now);
    if (u->idc) {
        uint64_t i = u->idc->kind->next(u->idc, now);
        if (i < n) n = i;
    }
    if (n <= now + 1) return now + 1;
    /* a miss that finds the injection queue full waits for room there, which
    ** only the memory system makes (gpu_ldst_send_wake); trying again every
    ** cycle would change nothing */
    bool room = gpu_memsys_can_accept(sm->lx->g->ms, sm->id, NULL);
    if (room && (mem_queue_peek(u->missq[0], now + 1) || mem_queue_peek(u->missq[1], now + 1))) return now + 1;
    uint64_t a = room ? gpu_l1_next(u->l1d) : gpu_l1_next_inside(u->l1d);
    uint64_t b = room ? gpu_l1_next(u->l1c) : gpu_l1_next_inside(u->l1c);
    if (a < n) n = a;
    if (b < n) n = b;
    return n <= now ? now + 1 : n;
}

/* The earliest cycle after now at which fe may take an instruction. */
static uint64_t fe_accept_next(const gpu_ldst_fe *fe, uint64_t now)
{
    if (!fe->kind->accept_next) return now + 1;
    uint64_t t = fe->kind->accept_next(fe, now);
    return t <= now ? now + 1 : t;
}

uint64_t gpu_ldst_accept_next(const gpu_sm *sm, uint64_t now) { return fe_accept_next(sm->ldst->fe, now); }

uint64_t gpu_ldst_idc_accept_next(const gpu_sm *sm, uint64_t now) { return fe_accept_next(sm->ldst->idc, now); }

uint64_t gpu_ldst_send_wake(const gpu_sm *sm, uint64_t now)
{
    const gpu_ldst *u = sm->ldst;
    uint64_t a = gpu_l1_miss_ready(u->l1d), b = gpu_l1_miss_ready(u->l1c);
    if (b < a) a = b;
    if (a == UINT64_MAX || !gpu_memsys_can_accept(sm->lx->g->ms, sm->id, NULL)) return UINT64_MAX;
    return a > now ? a : now;
}

bool gpu_ldst_idle(const gpu_sm *sm)
{
    const gpu_ldst *u = sm->ldst;
    return u->fe->kind->idle(u->fe) && (!u->idc || u->idc->kind->idle(u->idc)) && gpu_l1_idle(u->l1d) &&
           gpu_l1_idle(u->l1c);
}

void gpu_ldst_account_skip(gpu_sm *sm, uint64_t k)
{
    gpu_ldst *u = sm->ldst;
    /* a stall in the last cycle ticked lasts (the SM sleeps only while nothing can move), and
    ** so does one a front end promised from the next (stall_from) */
    if (u->stall_at == sm->last_tick + 1 || u->stall_from == sm->last_tick + 1) u->st.ldst_stall_cycles += k;
    /* an instruction refused in the last cycle ticked was refused in each skipped one (accept_next) */
    if (u->refused_at == sm->last_tick + 1) u->st.inst_queue_full += k;
    u->fe->kind->skip(u->fe, k);
    if (u->idc) u->idc->kind->skip(u->idc, k);
}

void gpu_ldst_abort(gpu_sm *sm)
{
    gpu_ldst *u = sm->ldst;
    u->fe->kind->abort(u->fe);
    if (u->idc) u->idc->kind->abort(u->idc);
}

void gpu_ldst_stats(gpu_sm *sm, gpu_kstats *ks, uint64_t now)
{
    gpu_ldst *u = sm->ldst;
    u->fe->kind->end(u->fe, ks, now);
    if (sm->busy_first) {
        /* busy from its first CTA (busy_first - 1) to the end of its last (busy_last; now if it still has one) */
        uint64_t first = sm->busy_first - 1, last = sm->nwarps_live ? now : sm->busy_last;
        if (last >= first) ks->ldst.active_cycles += last - first + 1;
    }
}

const gpu_ldstkstats *gpu_ldst_counters(const gpu_sm *sm) { return &sm->ldst->st; }

const gpu_ldstkstats *gpu_ldst_fe_counters(const gpu_sm *sm)
{
    const gpu_ldst_fe *fe = sm->ldst->fe;
    return fe->kind->counters ? fe->kind->counters(fe) : NULL;
}
