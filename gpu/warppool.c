/*
** warppool.c -- the pool of warppool.h: instruction queue, intra-warp
** coalescers, inter-warp queues, selection logic, flights.
**
** Decisions warppool.h leaves to the implementation:
**   - The tags of queue q are tag[q * tags, (q + 1) * tags); the requests of
**     tag t are req[t * slots, (t + 1) * slots), slots = 1 + merges.  A load
**     joins, of the tags of its queue holding its line with room, the one
**     whose first request is oldest (a full tag's line may have a second,
**     younger tag: the request that found the first one full starts it).
**   - Flights (sent loads and atomics waiting for their line) live in a
**     table with a free list that grows to its high-water mark and is then
**     reused: no allocation per request in steady state.  The L1D request's
**     tag is GPU_WP_TAG | flight.
**   - The selection scans the tags in use (queues x tags, 128 with the
**     defaults); an empty pool costs nothing.  Oldest is the smallest
**     insertion sequence number; cache-sensitive finds the oldest warp
**     (smallest dispatch age) among the requests of the eligible tags, then
**     the oldest eligible tag holding a request of it.
**   - Refused tags: a tag the L1D refused for want of an MSHR, a merge slot
**     or miss-queue room (a reservation failure) would be refused again
**     until a fill or a departure from the miss queue (gpu_wp_unblock), so
**     the selection passes over it until then (a generation number: unblock
**     increments it, a refusal stamps the tag with it); the refused attempt
**     used the cycle's access.  A cycle whose eligible tags are all refused
**     sends nothing and counts as a reservation failure the pool did not
**     ask for (gpu_wp_resfail_skipped; the Fermi path counts its waiting
**     cycles the same way), and the pool sleeps until an unblock, a tag
**     becoming eligible or a quantum boundary.
**   - Occupancy: tag_cycles adds, for every cycle, the tags in use at its
**     end, accounted lazily at each change (and by gpu_wp_flush).
**   - A delivery error (a finished load with lanes missing or served twice)
**     is counted, not asserted: the statistics and the tests say it.
*/
#include "internal.h"
#include "warppool.h"
#include <stdlib.h>

typedef struct wp_req {
    gpu_memop *mop;            /* the warp instruction */
    uint64_t age;              /* its warp's dispatch order on the SM */
    uint32_t lanes;            /* its thread mapping for this line */
} wp_req;

typedef struct wp_tag {
    uint64_t line;
    uint64_t seq;              /* insertion order of its first request */
    uint64_t ready;            /* the first cycle the selection may send it */
    uint32_t bytes;            /* stores and atomics: the bytes its lanes touch */
    uint32_t refused;          /* the generation in which the L1D refused it (gpu_wp.gen: passed over) */
    uint8_t used, kind, space, n;
} wp_tag;

typedef struct wp_coal {
    gpu_memop *mop;            /* NULL: idle */
    uint64_t age;
    uint32_t n, next;          /* requests, next to emit */
    uint8_t kind, space;
    uint64_t line[32];
    uint32_t bytes[32], lanes[32];
} wp_coal;

struct gpu_wp {
    gpu_wpcfg c;
    uint32_t slots;            /* requests per tag: 1 + merges */
    gpu_l1 *l1;
    gpu_l1cfg l1c;
    gpu_mreq_pool *pool;
    uint16_t sm, src;
    gpu_ldstkstats *st;
    /* instruction queue (a ring) */
    gpu_memop **iq;
    uint64_t *iq_age;
    uint32_t iq_head, iq_n;
    uint64_t acc_at;           /* cycle + 1 of the last accept (one per cycle) */
    wp_coal *co;
    /* inter-warp queues */
    wp_tag *tag;
    wp_req *req;
    uint64_t *ins_at;          /* per queue: cycle + 1 of its last insertion */
    uint32_t used;             /* tags in use */
    uint64_t seq;
    /* flights */
    wp_req *fl;
    uint32_t *fl_n;
    uint32_t nfl, capfl, *fl_free, nfl_free, fl_live;
    /* finished instructions, in order */
    gpu_memop **done;
    uint32_t done_head, ndone, capdone;
    /* instructions in the pool (for an abort) */
    gpu_memop **live;
    uint32_t nlive, caplive;
    /* selection */
    uint8_t mode;              /* the policy in force: GPU_WP_OLDEST, _CACHE or _DRAIN */
    uint32_t gen;              /* refusal generation: a fill or a departure below starts a new one */
    bool blocked;              /* the last cycle's eligible tags were all refused */
    uint32_t drain_q;
    /* quantum */
    uint64_t q_end, q_acc, q_miss;
    /* accounting */
    uint64_t occ_t;
    uint32_t stalled_full;     /* coalescers that found no tag in the last cycle */
    uint64_t resfail_skipped;
    uint32_t lines_out;        /* lines of coalesced instructions not yet delivered (stores: sent) */
};

/* ---- configuration ---------------------------------------------------------------------- */

void gpu_wp_cfg_warppool(const tp_opts *o, gpu_wpcfg *c)
{
    static const uint8_t pol[] = {GPU_WP_AUTO, GPU_WP_OLDEST, GPU_WP_CACHE};
    memset(c, 0, sizeof *c);
    c->latency = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_LATENCY);
    c->quantum = (uint64_t)tp_opt_i(o, OPT_WARPPOOL_QUANTUM);
    c->miss_threshold = tp_opt_f(o, OPT_WARPPOOL_MISS_THRESHOLD);
    c->inst_queue = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_INST_QUEUE);
    c->coalescers = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_COALESCERS);
    c->queues = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_QUEUES);
    c->tags = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_TAGS);
    c->merges = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_MERGES);
    c->sample = (uint64_t)tp_opt_i(o, OPT_WARPPOOL_SAMPLE);
    c->cs_lines = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_CS_LINES);
    c->key = GPU_WP_KEY_LINE;
    c->policy = pol[tp_opt_i(o, OPT_WARPPOOL_POLICY) % 3];
}

void gpu_wp_cfg_mrpb(const tp_opts *o, gpu_wpcfg *c)
{
    memset(c, 0, sizeof *c);
    c->latency = (uint32_t)tp_opt_i(o, OPT_WARPPOOL_LATENCY);
    c->quantum = (uint64_t)tp_opt_i(o, OPT_WARPPOOL_QUANTUM);
    c->miss_threshold = tp_opt_f(o, OPT_WARPPOOL_MISS_THRESHOLD);
    c->inst_queue = 1;
    c->coalescers = 1;
    c->queues = (uint32_t)tp_opt_i(o, OPT_MRPB_QUEUES);
    c->tags = (uint32_t)tp_opt_i(o, OPT_MRPB_ENTRIES);
    c->merges = 0;
    c->key = GPU_WP_KEY_WARP;
    c->policy = GPU_WP_DRAIN;
}

bool gpu_wp_cfg_from(const tp_opts *o, gpu_wpcfg *c)
{
    if (tp_opt_i(o, OPT_WARPPOOL)) gpu_wp_cfg_warppool(o, c);
    else if (tp_opt_i(o, OPT_MRPB)) gpu_wp_cfg_mrpb(o, c);
    else return false;
    return true;
}

gpu_wp *gpu_wp_new(const gpu_wpcfg *c, gpu_l1 *l1, const gpu_l1cfg *l1cfg, gpu_mreq_pool *pool, uint16_t sm,
                   uint16_t src, gpu_ldstkstats *st)
{
    gpu_wp *p = tp_calloc(1, sizeof *p);
    p->c = *c;
    if (!p->c.inst_queue) p->c.inst_queue = 1;
    if (!p->c.coalescers) p->c.coalescers = 1;
    if (!p->c.queues) p->c.queues = 1;
    if (!p->c.tags) p->c.tags = 1;
    if (p->c.merges > 254) p->c.merges = 254;
    if (!p->c.latency) p->c.latency = 1;
    if (!p->c.quantum) p->c.quantum = 1;
    p->slots = 1 + p->c.merges;
    p->l1 = l1;
    p->l1c = *l1cfg;
    if (!p->l1c.line) p->l1c.line = 128;
    p->pool = pool;
    p->sm = sm;
    p->src = src;
    p->st = st;
    p->iq = tp_calloc(p->c.inst_queue, sizeof *p->iq);
    p->iq_age = tp_calloc(p->c.inst_queue, sizeof *p->iq_age);
    p->co = tp_calloc(p->c.coalescers, sizeof *p->co);
    uint32_t ntag = p->c.queues * p->c.tags;
    p->tag = tp_calloc(ntag, sizeof *p->tag);
    p->req = tp_calloc((size_t)ntag * p->slots, sizeof *p->req);
    p->ins_at = tp_calloc(p->c.queues, sizeof *p->ins_at);
    p->mode = p->c.policy == GPU_WP_AUTO ? GPU_WP_OLDEST : p->c.policy;
    p->gen = 1;
    return p;
}

void gpu_wp_free(gpu_wp *p)
{
    if (!p) return;
    free(p->iq);
    free(p->iq_age);
    free(p->co);
    free(p->tag);
    free(p->req);
    free(p->ins_at);
    free(p->fl);
    free(p->fl_n);
    free(p->fl_free);
    free(p->done);
    free(p->live);
    free(p);
}

/* ---- accounting -------------------------------------------------------------------------- */

bool gpu_wp_quantum(gpu_wp *p, uint64_t now);

/* The tags in use change at cycle now: cycles before it had the old count. */
static void occ(gpu_wp *p, uint64_t now)
{
    if (now > p->occ_t) {
        p->st->tag_cycles += (uint64_t)p->used * (now - p->occ_t);
        p->occ_t = now;
    }
}

void gpu_wp_flush(gpu_wp *p, uint64_t now)
{
    gpu_wp_quantum(p, now); /* the boundaries the pool slept through (nothing happened since) */
    occ(p, now + 1);
}

void gpu_wp_begin(gpu_wp *p, uint64_t now)
{
    const gpu_l1stats *s = gpu_l1_stats(p->l1);
    p->mode = p->c.policy == GPU_WP_AUTO ? GPU_WP_OLDEST : p->c.policy;
    /* the sampling period: a short first quantum */
    p->q_end = now + (p->c.sample && p->c.sample < p->c.quantum ? p->c.sample : p->c.quantum);
    p->q_acc = s->accesses;
    p->q_miss = s->misses;
    p->occ_t = now;
    p->blocked = false;
    p->stalled_full = 0;
    p->resfail_skipped = 0;
    p->drain_q = 0;
}

uint64_t gpu_wp_resfail_skipped(const gpu_wp *p) { return p->resfail_skipped; }

void gpu_wp_account_skip(gpu_wp *p, uint64_t k)
{
    if (p->blocked) p->resfail_skipped += k;
    p->st->full_stalls += k * p->stalled_full;
}

/* ---- instructions in and out -------------------------------------------------------------- */

bool gpu_wp_can_accept(const gpu_wp *p, uint64_t now)
{
    /* cache-sensitive mode throttles admission: lines outstanding (coalesced,
    ** not yet delivered or, for stores, sent) below cs_lines */
    if (p->mode == GPU_WP_CACHE && p->c.cs_lines && p->lines_out >= p->c.cs_lines) return false;
    return p->iq_n < p->c.inst_queue && p->acc_at <= now;
}

void gpu_wp_accept(gpu_wp *p, gpu_memop *m, uint64_t age, uint64_t now)
{
    TP_ASSERT(p->iq_n < p->c.inst_queue);
    uint32_t i = (p->iq_head + p->iq_n) % p->c.inst_queue;
    p->iq[i] = m;
    p->iq_age[i] = age;
    p->iq_n++;
    p->acc_at = now + 1;
    m->lines_left = 0;
    m->lanes_done = 0;
    m->deliveries = 0;
    if (p->nlive == p->caplive) {
        p->caplive = p->caplive ? p->caplive * 2 : 64;
        p->live = tp_realloc(p->live, p->caplive * sizeof *p->live);
    }
    m->wp_live = p->nlive;
    p->live[p->nlive++] = m;
}

/* m is finished: out of the live set, into the finished list. */
static void finished(gpu_wp *p, gpu_memop *m)
{
    if ((m->flags & (EXEC_SI_LOAD | EXEC_SI_ATOMIC)) &&
        (m->lanes_done != m->active || m->deliveries != (uint32_t)tp_popc32(m->active)))
        p->st->delivery_errors++;
    uint32_t i = m->wp_live;
    if (i < p->nlive && p->live[i] == m) {
        p->live[i] = p->live[--p->nlive];
        p->live[i]->wp_live = i;
    }
    if (p->done_head + p->ndone == p->capdone) {
        if (p->done_head) {
            memmove(p->done, p->done + p->done_head, p->ndone * sizeof *p->done);
            p->done_head = 0;
        } else {
            p->capdone = p->capdone ? p->capdone * 2 : 16;
            p->done = tp_realloc(p->done, p->capdone * sizeof *p->done);
        }
    }
    p->done[p->done_head + p->ndone++] = m;
}

gpu_memop *gpu_wp_pop_finished(gpu_wp *p)
{
    if (!p->ndone) return NULL;
    gpu_memop *m = p->done[p->done_head++];
    if (--p->ndone == 0) p->done_head = 0;
    return m;
}

/* ---- flights ---------------------------------------------------------------------------------- */

static uint32_t flight_new(gpu_wp *p)
{
    p->fl_live++;
    if (p->nfl_free) return p->fl_free[--p->nfl_free];
    if (p->nfl == p->capfl) {
        p->capfl = p->capfl ? p->capfl * 2 : 64;
        p->fl = tp_realloc(p->fl, (size_t)p->capfl * p->slots * sizeof *p->fl);
        p->fl_n = tp_realloc(p->fl_n, p->capfl * sizeof *p->fl_n);
        p->fl_free = tp_realloc(p->fl_free, p->capfl * sizeof *p->fl_free);
    }
    p->fl_n[p->nfl] = 0;
    return p->nfl++;
}

static void flight_free(gpu_wp *p, uint32_t f)
{
    p->fl_n[f] = 0;
    p->fl_free[p->nfl_free++] = f;
    p->fl_live--;
}

/* The line reaches one request's lanes. */
static void deliver(gpu_wp *p, const wp_req *q)
{
    gpu_memop *m = q->mop;
    uint32_t n = (uint32_t)tp_popc32(q->lanes);
    m->lanes_done |= q->lanes;
    m->deliveries += n;
    p->st->thread_deliveries += n;
    if (m->lines_left) {
        p->lines_out--;
        if (--m->lines_left == 0) finished(p, m);
    }
}

void gpu_wp_done(gpu_wp *p, gpu_mreq *r, uint64_t now)
{
    (void)now;
    uint32_t f = r->tag & ~GPU_WP_TAG;
    gpu_mreq_put(p->pool, r);
    if (f >= p->nfl || !p->fl_n[f]) return;
    for (uint32_t k = 0; k < p->fl_n[f]; k++) deliver(p, &p->fl[(size_t)f * p->slots + k]);
    flight_free(p, f);
}

/* ---- coalescers and insertion --------------------------------------------------------------- */

static void coal_take(gpu_wp *p, wp_coal *co)
{
    gpu_memop *m = p->iq[p->iq_head];
    co->age = p->iq_age[p->iq_head];
    p->iq_head = (p->iq_head + 1) % p->c.inst_queue;
    p->iq_n--;
    co->mop = m;
    co->next = 0;
    co->kind = (m->flags & EXEC_SI_ATOMIC) ? GPU_MR_ATOMIC : (m->flags & EXEC_SI_LOAD) ? GPU_MR_LOAD : GPU_MR_STORE;
    co->space = m->rec.space == PTX_SP_LOCAL ? GPU_MS_LOCAL : GPU_MS_GLOBAL;
    co->n = gpu_coalesce_lanes(m->rec.addr, m->active, m->bytes, p->l1c.line, co->line, co->bytes, co->lanes);
    m->lines_left = co->n;
    p->lines_out += co->n;
    if (!co->n) { /* nothing to access (no lanes): done at once */
        finished(p, m);
        co->mop = NULL;
    }
}

/* Coalescer co emits its next request; false if it had to wait. */
static bool insert(gpu_wp *p, wp_coal *co, uint64_t now)
{
    uint32_t i = co->next;
    uint64_t line = co->line[i];
    uint32_t q = p->c.key == GPU_WP_KEY_WARP ? co->mop->warp % p->c.queues
                                             : (uint32_t)(line / p->l1c.line % p->c.queues);
    if (p->ins_at[q] == now + 1) {
        p->st->insert_conflicts++;
        return false;
    }
    uint32_t t0 = q * p->c.tags;
    int32_t join = -1, free_t = -1;
    for (uint32_t k = t0; k < t0 + p->c.tags; k++) {
        const wp_tag *t = &p->tag[k];
        if (!t->used) {
            if (free_t < 0) free_t = (int32_t)k;
            continue;
        }
        if (co->kind == GPU_MR_LOAD && t->kind == GPU_MR_LOAD && t->line == line && t->n < p->slots &&
            (join < 0 || t->seq < p->tag[join].seq))
            join = (int32_t)k;
    }
    uint32_t ti;
    if (join >= 0) {
        ti = (uint32_t)join;
    } else if (free_t >= 0) {
        ti = (uint32_t)free_t;
        wp_tag *t = &p->tag[ti];
        occ(p, now);
        p->used++;
        t->used = 1;
        t->line = line;
        t->kind = co->kind;
        t->space = co->space;
        t->bytes = co->bytes[i];
        t->seq = p->seq++;
        t->ready = now + p->c.latency;
        t->refused = 0;
        t->n = 0;
    } else {
        p->st->full_stalls++;
        p->stalled_full++;
        return false;
    }
    wp_tag *t = &p->tag[ti];
    p->req[(size_t)ti * p->slots + t->n] = (wp_req){co->mop, co->age, co->lanes[i]};
    t->n++;
    p->ins_at[q] = now + 1;
    p->st->requests++;
    if (++co->next == co->n) co->mop = NULL;
    return true;
}

/* ---- selection ---------------------------------------------------------------------------------- */

/* A tag the selection may send now (eligible, not refused since the last unblock, its bank free). */
static inline bool eligible(const gpu_wp *p, const wp_tag *t, uint64_t now, uint64_t banks_used)
{
    if (!t->used || t->ready > now || t->refused == p->gen) return false;
    return p->l1c.banks <= 1 || !(banks_used >> gpu_l1_bank(&p->l1c, t->line) & 1);
}

/* Whether some tag waits only because it was refused. */
static bool any_refused(const gpu_wp *p, uint64_t now)
{
    uint32_t ntag = p->c.queues * p->c.tags;
    for (uint32_t k = 0; k < ntag; k++)
        if (p->tag[k].used && p->tag[k].ready <= now && p->tag[k].refused == p->gen) return true;
    return false;
}

/* The oldest eligible tag among [lo, hi), or -1. */
static int32_t oldest(const gpu_wp *p, uint32_t lo, uint32_t hi, uint64_t now, uint64_t banks_used)
{
    int32_t best = -1;
    for (uint32_t k = lo; k < hi; k++) {
        const wp_tag *t = &p->tag[k];
        if (eligible(p, t, now, banks_used) && (best < 0 || t->seq < p->tag[best].seq)) best = (int32_t)k;
    }
    return best;
}

static int32_t choose(gpu_wp *p, uint64_t now, uint64_t banks_used)
{
    uint32_t ntag = p->c.queues * p->c.tags;
    if (p->mode == GPU_WP_CACHE) {
        uint64_t prio = UINT64_MAX;
        for (uint32_t k = 0; k < ntag; k++) {
            const wp_tag *t = &p->tag[k];
            if (!eligible(p, t, now, banks_used)) continue;
            const wp_req *r = &p->req[(size_t)k * p->slots];
            for (uint32_t j = 0; j < t->n; j++)
                if (r[j].age < prio) prio = r[j].age;
        }
        int32_t best = -1;
        for (uint32_t k = 0; k < ntag; k++) {
            const wp_tag *t = &p->tag[k];
            if (!eligible(p, t, now, banks_used) || (best >= 0 && t->seq >= p->tag[best].seq)) continue;
            const wp_req *r = &p->req[(size_t)k * p->slots];
            for (uint32_t j = 0; j < t->n; j++)
                if (r[j].age == prio) {
                    best = (int32_t)k;
                    break;
                }
        }
        return best;
    }
    if (p->mode == GPU_WP_DRAIN) {
        /* the queue being drained (that of the last tag sent), else the oldest tag's */
        uint32_t lo = p->drain_q * p->c.tags;
        int32_t best = oldest(p, lo, lo + p->c.tags, now, banks_used);
        return best >= 0 ? best : oldest(p, 0, ntag, now, banks_used);
    }
    return oldest(p, 0, ntag, now, banks_used);
}

/* The earliest cycle after now at which a tag not yet eligible becomes so. */
static uint64_t next_ready(const gpu_wp *p, uint64_t now)
{
    uint64_t n = UINT64_MAX;
    uint32_t ntag = p->c.queues * p->c.tags;
    for (uint32_t k = 0; k < ntag; k++)
        if (p->tag[k].used && p->tag[k].ready > now && p->tag[k].ready < n) n = p->tag[k].ready;
    return n;
}

/* Sends tag ti to the L1D; the access's result. */
static gpu_l1res send(gpu_wp *p, uint32_t ti, uint64_t now)
{
    wp_tag *t = &p->tag[ti];
    gpu_mreq *r = gpu_mreq_get(p->pool);
    r->addr = t->line;
    r->bytes = t->kind == GPU_MR_LOAD ? p->l1c.line : t->bytes;
    r->kind = t->kind;
    r->space = t->space;
    r->sm = p->sm;
    r->src = p->src;
    uint32_t f = UINT32_MAX;
    const wp_req *q = &p->req[(size_t)ti * p->slots];
    if (t->kind != GPU_MR_STORE) {
        f = flight_new(p);
        r->tag = GPU_WP_TAG | f;
    } else {
        r->tag = UINT32_MAX;
        if (p->c.store_prep) p->c.store_prep(p->c.arg, r, q[0].mop->warp);
    }
    gpu_l1res res = gpu_l1_access(p->l1, r, now);
    if (t->kind == GPU_MR_STORE && p->c.store_sent) p->c.store_sent(p->c.arg, r, res);
    if (res == GPU_L1_RESFAIL || res == GPU_L1_BUSY) {
        if (f != UINT32_MAX) flight_free(p, f);
        gpu_mreq_put(p->pool, r);
        return res;
    }
    if (f != UINT32_MAX) {
        memcpy(&p->fl[(size_t)f * p->slots], q, t->n * sizeof *q);
        p->fl_n[f] = t->n;
    } else {
        /* a store is done with once its line is handed over */
        gpu_memop *m = q[0].mop;
        if (m->lines_left) {
            p->lines_out--;
            if (--m->lines_left == 0) finished(p, m);
        }
    }
    p->st->l1_accesses++;
    p->st->merges += t->n - 1u;
    occ(p, now);
    t->used = 0;
    p->used--;
    return res;
}

static uint32_t select_tags(gpu_wp *p, uint64_t now, uint32_t ports, uint64_t banks_used, bool *changed, bool *stalled)
{
    p->blocked = false;
    if (!p->used || !ports) return 0;
    uint32_t sent = 0;
    for (uint32_t k = 0; k < ports; k++) {
        int32_t ti = choose(p, now, banks_used);
        if (ti < 0) {
            if (k == 0 && any_refused(p, now)) {
                /* everything ready waits for the L1D: a reservation failure it did not ask for */
                p->blocked = true;
                p->resfail_skipped++;
                *stalled = true;
            }
            break;
        }
        wp_tag *t = &p->tag[ti];
        uint64_t line = t->line;
        gpu_l1res res = send(p, (uint32_t)ti, now);
        if (res == GPU_L1_RESFAIL || res == GPU_L1_BUSY) {
            *stalled = true;
            if (res == GPU_L1_RESFAIL) {
                t->refused = p->gen;
                *changed = true; /* the next cycle tries another tag */
            }
            break;
        }
        sent++;
        p->drain_q = (uint32_t)ti / p->c.tags;
        if (p->l1c.banks > 1) banks_used |= 1ull << gpu_l1_bank(&p->l1c, line);
        else break;
    }
    return sent;
}

/* ---- the cycle ------------------------------------------------------------------------------------ */

bool gpu_wp_quantum(gpu_wp *p, uint64_t now)
{
    bool changed = false;
    while (now >= p->q_end) {
        const gpu_l1stats *s = gpu_l1_stats(p->l1);
        uint64_t acc = s->accesses - p->q_acc, miss = s->misses - p->q_miss;
        p->q_acc = s->accesses;
        p->q_miss = s->misses;
        if (p->mode == GPU_WP_CACHE) p->st->cache_quanta++;
        if (p->c.policy == GPU_WP_AUTO && acc) {
            uint8_t m = (double)miss > p->c.miss_threshold * (double)acc ? GPU_WP_CACHE : GPU_WP_OLDEST;
            if (m != p->mode) {
                p->mode = m;
                p->st->mode_switches++;
                changed = true;
            }
        }
        p->q_end += p->c.quantum;
    }
    return changed;
}

uint32_t gpu_wp_cycle(gpu_wp *p, uint64_t now, uint32_t ports, uint64_t banks_used, bool *changed, bool *stalled)
{
    p->stalled_full = 0;
    for (uint32_t i = 0; i < p->c.coalescers; i++) {
        wp_coal *co = &p->co[i];
        if (!co->mop && p->iq_n) {
            coal_take(p, co);
            *changed = true;
        }
        if (!co->mop) continue;
        if (insert(p, co, now)) *changed = true;
        else *stalled = true;
    }
    uint32_t sent = select_tags(p, now, ports, banks_used, changed, stalled);
    if (sent) *changed = true;
    return sent;
}

void gpu_wp_unblock(gpu_wp *p)
{
    p->gen++;
    p->blocked = false;
}

uint64_t gpu_wp_next(const gpu_wp *p, uint64_t now)
{
    uint64_t n = UINT64_MAX;
    bool busy = p->used || p->iq_n;
    for (uint32_t i = 0; i < p->c.coalescers && !busy; i++) busy = p->co[i].mop != NULL;
    if (!busy) return n;
    if (p->iq_n) {
        for (uint32_t i = 0; i < p->c.coalescers; i++)
            if (!p->co[i].mop) return now + 1;
    }
    if (p->used) {
        if (p->blocked) {
            n = next_ready(p, now); /* or an unblock, which wakes the SM */
        } else {
            uint32_t ntag = p->c.queues * p->c.tags;
            for (uint32_t k = 0; k < ntag; k++) {
                const wp_tag *t = &p->tag[k];
                if (!t->used) continue;
                uint64_t r = t->ready > now ? t->ready : now + 1;
                if (r < n) n = r;
            }
        }
    }
    if (p->c.policy == GPU_WP_AUTO && p->q_end < n) n = p->q_end;
    return n <= now ? now + 1 : n;
}

bool gpu_wp_idle(const gpu_wp *p)
{
    if (p->used || p->iq_n || p->fl_live || p->ndone) return false;
    for (uint32_t i = 0; i < p->c.coalescers; i++)
        if (p->co[i].mop) return false;
    return true;
}

gpu_memop *gpu_wp_drop(gpu_wp *p)
{
    if (p->nlive) return p->live[--p->nlive];
    if (p->ndone) return gpu_wp_pop_finished(p);
    /* empty: forget the structures that pointed at them */
    p->iq_head = p->iq_n = 0;
    for (uint32_t i = 0; i < p->c.coalescers; i++) p->co[i].mop = NULL;
    memset(p->tag, 0, (size_t)p->c.queues * p->c.tags * sizeof *p->tag);
    p->used = 0;
    p->lines_out = 0;
    for (uint32_t f = 0; f < p->nfl; f++) p->fl_n[f] = 0;
    p->nfl_free = 0;
    for (uint32_t f = p->nfl; f > 0; f--) p->fl_free[p->nfl_free++] = f - 1;
    p->fl_live = 0;
    p->blocked = false;
    p->gen++;
    p->stalled_full = 0;
    return NULL;
}
