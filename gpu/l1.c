/*
** l1.c -- the SM-side cache of l1.h: the L1 data cache and, with other
** parameters, the constant cache.  Built from mem/cache (tags, LRU),
** mem/mshr (misses in flight, merging) and mem/queue (miss queue).
**
** Decisions l1.h leaves to the implementation:
**   - A load miss sends down a request of the cache's own (from the pool):
**     its line (addr aligned), the sectors it fetches (`sectors`; 0 when
**     unsectored) and their bytes (the line when unsectored), tag = the
**     MSHR index, sm/src/space copied from the first miss.  The caller's
**     requests wait in the MSHR and come out of pop_done, unchanged, at the
**     fill that completes them.  Loads that do not allocate (global loads
**     without cache_global, or no cache at all) fetch and merge the same way.
**   - MSHR bookkeeping (mem/mshr.h's owner words): `fetch` = sectors asked
**     for below, `got` = sectors arrived, `out` = requests below not yet
**     answered; each waiting request's word = the sectors it still lacked
**     when it arrived.  A fill releases the waiting requests whose word is
**     within `got` (in arrival order among them); the MSHR is freed when
**     `out` reaches 0 (every waiting request is then released).  A sector
**     miss on a line in flight whose `fetch` lacks some of its sectors
**     sends one more request for those (a miss-path request, like a new
**     MSHR's) and joins the MSHR.  Unsectored: one sector, one request per
**     MSHR, every waiting request released at its fill.
**   - Stores and atomics travel themselves: the caller's request goes into
**     the miss queue (SENT).  A reply to one (an atomic, or a store with
**     want_ack) is that request, returned by pop_done from the fill cycle.
**   - Local stores are absorbed: a hit dirties the line's sectors it
**     writes; a miss allocates the line dirty without fetching it
**     (write-validate: the cache keeps no data, and no later read needs
**     the bytes that were not written), only the written sectors valid.
**     Both return HIT: the store completes, and comes out of pop_done, at
**     now + latency; the statistics count the miss as a miss.  With no
**     cache (size 0) local stores write through like global ones.  A
**     write-back carries the line's dirty sectors (the whole line when
**     unsectored).
**   - Allocate on miss: the first miss of a line takes the victim (the LRU
**     way not reserved), writes it back if dirty (that write-back goes with
**     the miss through the same miss port, and needs a second miss-queue
**     entry), installs the line with no valid sector and marks the fetched
**     sectors pending (mem_cline.pend): a reserved line is never a victim.
**     Its fills validate the sectors.  A reserved line invalidated between
**     kernels is installed again at its fill, as allocate-on-fill would.
**   - The lookup takes miss_latency cycles: a request enters the miss queue
**     that long after its access.  Until then it holds a pipeline stage,
**     not a miss-queue entry (the ring has room for those stages too).
**   - Miss-queue space: misses, stores, atomics and the write-back of a
**     dirty victim chosen by an access may use miss_queue entries.  A fill
**     may evict a dirty line too (allocate-on-fill), and a fill cannot be
**     refused, so the queue has mshrs more entries for those write-backs
**     (every fill of an unsectored cache frees an MSHR, so entries used +
**     MSHRs busy never exceed miss_queue + mshrs), and grows in the rare
**     case a sectored cache's fills need more.
**   - Statistics: accesses = accepted requests of every kind; hits = loads
**     and stores that found their line with every sector they name;
**     misses = the other accepted ones (merged loads, bypassing loads,
**     stores to absent lines, atomics); sector_misses = load misses to a
**     line that was present; reservation_fails = refused attempts (each
**     retry counts again), alloc_fails those of them refused for a set
**     with every way reserved.
**   - pop_done returns hits (in access order) and fill releases (in fill
**     order); when both have one ready, the earlier ready time first, a
**     hit on a tie.
**   - Banks (cfg.banks > 1): the unit trusts the caller to keep one access
**     per bank per cycle and counts only the miss path: the requests that
**     enter the miss queue in cycle now (a new MSHR's line request, a
**     sector request for a line in flight, a store or atomic, a write-back
**     a local store causes) are at most cfg.miss_ports; the access that
**     would exceed it is refused with GPU_L1_BUSY before anything else is
**     looked at (port_busy counts it).  Hits and merges into waiting MSHRs
**     need no miss port.
**   - Lookup queue (cfg.lookup_queue): a mem_queue per bank holds the
**     accessed requests, each with its earliest lookup cycle (access +
**     latency) as its ready time; lq_at[b] is the cycle + 1 of bank b's
**     last lookup, so a head is due at max(ready, lq_at[b]).  The lookups
**     run the same load/store/atomic code as an access, with a hit latency
**     of 0 and a miss-queue delay of 1 (hit_lat, miss_lat) instead of
**     latency and miss_latency.  A refused head is tried again in every
**     call of gpu_l1_cycle (the caller ticks every cycle while a head is
**     due: gpu_l1_next_inside says so), which keeps the counting of
**     refusals exact without skipping logic of its own; refused loads
**     short-cut through ref_r as accesses do.  Queue-full refusals count in
**     port_busy.
**   - Draining MSHRs (cfg.release_drain): drainq holds the completed MSHRs'
**     indices (+ 1, as pointers), each ready the cycle after its fill;
**     drain_at is the cycle + 1 of the last release.  gpu_l1_cycle releases
**     before it looks up, as GPGPU-Sim's LD/ST unit writes back before its
**     L1 cycle.  A released MSHR bumps gen (a refusal may now be wrong).
*/
#include "l1.h"
#include "options.h"
#include "../mem/cache.h"
#include "../mem/mshr.h"
#include "../mem/queue.h"
#include <stdlib.h>

enum { F_ALLOC = 1 };   /* MSHR flag: install the line at the fill */

struct gpu_l1 {
    gpu_l1cfg cfg;
    gpu_mreq_pool *pool;
    mem_cache tags;
    mem_mshr mshr;
    mem_queue missq;      /* capacity miss_queue + mshrs (see above) */
    mem_queue hits;       /* requests that hit: ready = access + latency */
    mem_queue fills;      /* requests released by fills: ready = fill cycle */
    uint32_t nsect;       /* sectors per line (1: unsectored) */
    uint32_t hit_lat;     /* a hit's data after its lookup: latency, or 0 with the lookup queue */
    uint32_t miss_lat;    /* a miss's request in the miss queue after its lookup: miss_latency, or 1 */
    mem_queue *lq;        /* lookup queue: one per bank (NULL without it) */
    uint64_t *lq_at;      /* ... the cycle + 1 of each bank's last lookup */
    uint32_t nlq;         /* ... banks */
    mem_queue drainq;     /* release_drain: completed MSHRs (index + 1) */
    uint64_t drain_at;    /* ... the cycle + 1 of the last release */
    uint64_t port_cycle;  /* banked: the cycle port_used counts for */
    uint32_t port_used;   /* banked: miss-path requests taken in port_cycle */
    /* A load refused for want of an MSHR, kept to refuse its retries without
    ** the tag and MSHR lookups while neither can have changed: the same
    ** request (pointer, line, sectors) and no access taken, fill or
    ** invalidation since (gen counts those).  A cache, not state. */
    const gpu_mreq *ref_r;
    uint64_t ref_addr, gen, ref_gen;
    uint32_t ref_sectors;
    gpu_l1stats st;
    uint32_t sets0;           /* the configured sets (gpu_l1_resize keeps them) */
};

gpu_l1 *gpu_l1_new(const gpu_l1cfg *cfg, gpu_mreq_pool *pool)
{
    gpu_l1 *c = tp_calloc(1, sizeof *c);
    c->cfg = *cfg;
    if (!c->cfg.line) c->cfg.line = 128;
    if (!c->cfg.mshrs) c->cfg.mshrs = 1;
    if (!c->cfg.mshr_merge) c->cfg.mshr_merge = 1;
    if (!c->cfg.miss_queue) c->cfg.miss_queue = 1;
    c->pool = pool;
    mem_cache_init(&c->tags, c->cfg.size, c->cfg.assoc, c->cfg.line);
    c->tags.index = c->cfg.set_index;
    c->sets0 = c->tags.sets ? c->tags.sets : 1;   /* the geometry gpu_l1_resize keeps */
    c->nsect = c->cfg.sectored && c->cfg.line >= 2 * GPU_SECTOR && c->cfg.line <= GPU_SECTOR_BLOCK
                   ? c->cfg.line / GPU_SECTOR
                   : 1;
    mem_mshr_init(&c->mshr, c->cfg.mshrs, c->cfg.mshr_merge);
    c->hit_lat = c->cfg.latency;
    c->miss_lat = c->cfg.miss_latency;
    if (c->cfg.lookup_queue) {
        if (!c->cfg.latency) c->cfg.latency = 1;
        c->hit_lat = 0;
        c->miss_lat = 1;
        c->nlq = c->cfg.banks > 1 ? c->cfg.banks : 1;
        c->lq = tp_calloc(c->nlq, sizeof *c->lq);
        c->lq_at = tp_calloc(c->nlq, sizeof *c->lq_at);
        for (uint32_t b = 0; b < c->nlq; b++) mem_queue_init(&c->lq[b], c->cfg.latency);
    }
    mem_queue_init(&c->missq, c->cfg.miss_queue + c->cfg.mshrs + c->miss_lat + 1);
    if (c->cfg.release_drain) mem_queue_init(&c->drainq, c->cfg.mshrs + 1);
    mem_queue_init(&c->hits, c->cfg.latency + 2);
    mem_queue_init(&c->fills, c->cfg.mshr_merge + 1);
    return c;
}

void gpu_l1_free(gpu_l1 *c)
{
    if (!c) return;
    /* requests still inside belong to the pool, which outlives the cache */
    mem_cache_free(&c->tags);
    mem_mshr_free(&c->mshr);
    mem_queue_free(&c->missq);
    mem_queue_free(&c->hits);
    mem_queue_free(&c->fills);
    for (uint32_t b = 0; b < c->nlq; b++) mem_queue_free(&c->lq[b]);
    if (c->cfg.release_drain) mem_queue_free(&c->drainq);
    free(c->lq);
    free(c->lq_at);
    free(c);
}

/* Room for k more requests in the miss queue at time now.  Requests still
** in the lookup pipeline (ready later than now: miss_latency cycles after
** their access, at most one per cycle) are not in the queue yet: they hold
** pipeline stages, counted apart in the ring's capacity. */
static inline bool missq_has(const gpu_l1 *c, uint64_t now, uint32_t k)
{
    const mem_queue *q = &c->missq;
    uint32_t in_pipe = 0;
    for (uint32_t k = q->n; k > 0; k--) {
        uint32_t i = q->head + k - 1;
        if (i >= q->cap) i -= q->cap;
        if (q->e[i].ready <= now) break;
        in_pipe++;
    }
    return q->n - in_pipe + k <= c->cfg.miss_queue && q->n + k <= q->cap;
}

static inline bool missq_room(const gpu_l1 *c, uint64_t now) { return missq_has(c, now, 1); }

static gpu_l1res refuse(gpu_l1 *c)
{
    c->st.reservation_fails++;
    return GPU_L1_RESFAIL;
}

/* Banked caches: whether the miss path takes one more request in cycle now
** (always with one bank: the caller's one access per cycle is the limit). */
static inline bool port_free(gpu_l1 *c, uint64_t now)
{
    if (c->cfg.banks <= 1) return true;
    if (c->port_cycle != now) {
        c->port_cycle = now;
        c->port_used = 0;
    }
    return c->port_used < c->cfg.miss_ports;
}

static inline void port_take(gpu_l1 *c)
{
    if (c->cfg.banks > 1) c->port_used++;
}

/* A load that neither hits nor finds its line's MSHR, refused because the
** table is full: remembered for its retries (see ref_r). */
static gpu_l1res refused_mshr(gpu_l1 *c, const gpu_mreq *r)
{
    gpu_l1_note_refused(c, r);
    return refuse(c);
}

static gpu_l1res busy(gpu_l1 *c)
{
    c->st.port_busy++;
    return GPU_L1_BUSY;
}

/* The sectors of a request within `line` (bit i: sector i); 1 when unsectored. */
static inline uint32_t sectors_of(const gpu_l1 *c, uint32_t sectors, uint64_t line)
{
    return c->nsect == 1 ? 1u : gpu_sectors_in_line(sectors, line, c->cfg.line);
}

/* A request down for sectors m of `line`: its bytes and `sectors`. */
static inline void set_sectors(const gpu_l1 *c, gpu_mreq *q, uint64_t line, uint32_t m)
{
    q->bytes = c->nsect == 1 ? c->cfg.line : (uint32_t)__builtin_popcount(m) * GPU_SECTOR;
    q->sectors = c->nsect == 1 ? 0 : gpu_sectors_of_line(m, line);
}

/* Sends the dirty sectors of the line in slot down as a store (grow: a
** fill's write-back, which the queue must take). */
static void write_back(gpu_l1 *c, uint32_t slot, const gpu_mreq *like, uint64_t now, bool grow)
{
    mem_cline *l = mem_cache_at(&c->tags, slot);
    gpu_mreq *w = gpu_mreq_get(c->pool);
    w->addr = l->tag;
    set_sectors(c, w, l->tag, l->dsect);
    w->kind = GPU_MR_STORE;
    w->space = GPU_MS_LOCAL;
    w->sm = like->sm;
    w->src = like->src;
    w->t_sent = now;
    if (grow) mem_queue_push_grow(&c->missq, w, now + c->miss_lat);
    else mem_queue_push(&c->missq, w, now + c->miss_lat);
    c->st.writebacks++;
}

/* Sends the line request for sectors m of `line` under MSHR i. */
static void fetch(gpu_l1 *c, const gpu_mreq *r, uint64_t line, uint32_t m, uint32_t i, uint64_t now)
{
    gpu_mreq *q = gpu_mreq_get(c->pool);
    q->addr = line;
    set_sectors(c, q, line, m);
    q->kind = GPU_MR_LOAD;
    q->space = r->space;
    q->sm = r->sm;
    q->src = r->src;
    q->tag = i;
    q->t_sent = now;
    mem_queue_push(&c->missq, q, now + c->miss_lat);
}

static bool allocating(const gpu_l1 *c, const gpu_mreq *r)
{
    return mem_cache_enabled(&c->tags) && (r->space != GPU_MS_GLOBAL || c->cfg.cache_global);
}

static gpu_l1res load(gpu_l1 *c, gpu_mreq *r, uint64_t now)
{
    if (r == c->ref_r && c->gen == c->ref_gen && r->addr == c->ref_addr && r->sectors == c->ref_sectors) {
        /* refused_mshr's answer again: still no hit, no MSHR for the line, the table full */
        if (!port_free(c, now)) return busy(c);
        return refuse(c);
    }
    uint64_t line = r->addr - r->addr % c->cfg.line;
    uint32_t want = sectors_of(c, r->sectors, line);
    int32_t slot = mem_cache_find(&c->tags, line);
    mem_cline *l = slot >= 0 ? mem_cache_at(&c->tags, (uint32_t)slot) : NULL;
    if (l && !(want & ~l->sect)) {
        mem_cache_touch(&c->tags, (uint32_t)slot);
        mem_queue_push_grow(&c->hits, r, now + c->hit_lat);
        c->st.accesses++;
        c->st.hits++;
        return GPU_L1_HIT;
    }
    uint32_t need = l ? want & ~l->sect : want;
    bool alloc = allocating(c, r);
    int32_t e = mem_mshr_find(&c->mshr, line);
    if (e >= 0) {
        mem_mshr_entry *m = mem_mshr_at(&c->mshr, (uint32_t)e);
        if (!mem_mshr_can_add(&c->mshr, (uint32_t)e)) return refuse(c);
        uint32_t extra = need & ~m->fetch;
        /* draining: nothing more is asked for under it */
        if (extra && c->cfg.release_drain && !m->out) return refuse(c);
        if (extra) {
            /* sectors the line in flight was not asked for: one more request */
            if (!port_free(c, now)) return busy(c);
            if (!missq_room(c, now)) return refuse(c);
            port_take(c);
            fetch(c, r, line, extra, (uint32_t)e, now);
            m->fetch |= extra;
            m->out++;
            if (l && alloc && c->cfg.alloc_on_miss) l->pend |= extra;
        }
        mem_mshr_add_w(&c->mshr, (uint32_t)e, r, need);
        if (alloc) m->flags |= F_ALLOC;
        if (l) mem_cache_touch(&c->tags, (uint32_t)slot);
        c->st.accesses++;
        c->st.misses++;
        c->st.mshr_merges++;
        if (l && extra) c->st.sector_misses++;
        if (!alloc) c->st.bypass_loads++;
        return GPU_L1_MERGED;
    }
    if (!port_free(c, now)) return busy(c);
    if (mem_mshr_full(&c->mshr)) return refused_mshr(c, r);
    if (!missq_room(c, now)) return refuse(c);
    bool reserve = alloc && c->cfg.alloc_on_miss;
    uint32_t v = MEM_CACHE_NONE;
    if (reserve && !l) {
        v = mem_cache_victim(&c->tags, line);
        if (v == MEM_CACHE_NONE) {
            c->st.alloc_fails++;
            return refuse(c);
        }
        const mem_cline *vl = mem_cache_at(&c->tags, v);
        if (vl->valid && vl->dirty && !missq_has(c, now, 2)) return refuse(c);
    }
    port_take(c);
    uint32_t i = mem_mshr_alloc(&c->mshr, line);
    mem_mshr_entry *m = mem_mshr_at(&c->mshr, i);
    mem_mshr_add_w(&c->mshr, i, r, need);
    if (alloc) m->flags |= F_ALLOC;
    m->fetch = need;
    m->out = 1;
    bool present = l != NULL;
    if (reserve && !l) {
        const mem_cline *vl = mem_cache_at(&c->tags, v);
        if (vl->valid && vl->dirty) write_back(c, v, r, now, false);
        mem_cache_insert(&c->tags, v, line);
        l = mem_cache_at(&c->tags, v);
    } else if (l) {
        mem_cache_touch(&c->tags, (uint32_t)slot);
    }
    if (reserve) l->pend |= need;
    fetch(c, r, line, need, i, now);
    c->st.accesses++;
    c->st.misses++;
    if (present) c->st.sector_misses++;
    if (!alloc) c->st.bypass_loads++;
    return GPU_L1_MISS;
}

static gpu_l1res store(gpu_l1 *c, gpu_mreq *r, uint64_t now)
{
    uint64_t line = r->addr - r->addr % c->cfg.line;
    uint32_t want = sectors_of(c, r->sectors, line);
    int32_t slot = mem_cache_find(&c->tags, r->addr);
    if (r->space == GPU_MS_LOCAL && mem_cache_enabled(&c->tags)) {
        if (slot < 0) {
            uint32_t v = mem_cache_victim(&c->tags, r->addr);
            if (v == MEM_CACHE_NONE) {
                c->st.alloc_fails++;
                return refuse(c);
            }
            const mem_cline *l = mem_cache_at(&c->tags, v);
            if (l->valid && l->dirty) {
                if (!port_free(c, now)) return busy(c);
                if (!missq_room(c, now)) return refuse(c);
                port_take(c);
                write_back(c, v, r, now, false);
            }
            mem_cache_insert(&c->tags, v, r->addr);
            slot = (int32_t)v;
            c->st.misses++;
        } else {
            mem_cache_touch(&c->tags, (uint32_t)slot);
            c->st.hits++;
        }
        mem_cline *l = mem_cache_at(&c->tags, (uint32_t)slot);
        l->sect |= want;
        l->dsect |= want;
        mem_cache_set_dirty(&c->tags, (uint32_t)slot, true);
        mem_queue_push_grow(&c->hits, r, now + c->hit_lat);
        c->st.accesses++;
        c->st.stores++;
        return GPU_L1_HIT;
    }
    /* write-through, no write-allocate; a hit keeps (and refreshes) the line,
    ** or discards it (store_evict: Fermi's global stores), unless a load's
    ** fill is on its way into it */
    if (!port_free(c, now)) return busy(c);
    if (!missq_room(c, now)) return refuse(c);
    port_take(c);
    const mem_cline *hit = slot >= 0 ? mem_cache_at(&c->tags, (uint32_t)slot) : NULL;
    if (hit && !(want & ~hit->sect)) c->st.hits++;
    else c->st.misses++;
    if (hit) {
        if (c->cfg.store_evict && !hit->pend) {
            mem_cache_invalidate(&c->tags, (uint32_t)slot);
            c->st.store_evictions++;
        } else {
            mem_cache_touch(&c->tags, (uint32_t)slot);
        }
    }
    r->t_sent = now;
    mem_queue_push(&c->missq, r, now + c->miss_lat);
    c->st.accesses++;
    c->st.stores++;
    return GPU_L1_SENT;
}

static gpu_l1res atomic(gpu_l1 *c, gpu_mreq *r, uint64_t now)
{
    if (!port_free(c, now)) return busy(c);
    if (!missq_room(c, now)) return refuse(c);
    port_take(c);
    r->t_sent = now;
    mem_queue_push(&c->missq, r, now + c->miss_lat);
    c->st.accesses++;
    c->st.misses++;
    c->st.atomics++;
    return GPU_L1_SENT;
}

/* The lookup of r at cycle now. */
static gpu_l1res lookup(gpu_l1 *c, gpu_mreq *r, uint64_t now)
{
    gpu_l1res res = r->kind == GPU_MR_LOAD ? load(c, r, now) : r->kind == GPU_MR_STORE ? store(c, r, now) : atomic(c, r, now);
    /* an access taken may have changed the tags or the MSHRs; a refused or
    ** busy one changed neither */
    if (res != GPU_L1_RESFAIL && res != GPU_L1_BUSY) c->gen++;
    return res;
}

gpu_l1res gpu_l1_access(gpu_l1 *c, gpu_mreq *r, uint64_t now)
{
    if (!c->lq) return lookup(c, r, now);
    mem_queue *q = &c->lq[gpu_l1_bank(&c->cfg, r->addr)];
    if (mem_queue_count(q) >= c->cfg.latency) return busy(c);
    mem_queue_push(q, r, now + c->cfg.latency);
    return GPU_L1_QUEUED;
}

/* When q's head is due, one a cycle: its ready time, but not before `at`,
** the cycle after the last one left (UINT64_MAX: q is empty). */
static inline uint64_t due(const mem_queue *q, uint64_t at)
{
    uint64_t t = mem_queue_head_ready(q);
    return t != UINT64_MAX && t < at ? at : t;
}
static inline uint64_t lq_due(const gpu_l1 *c, uint32_t b) { return due(&c->lq[b], c->lq_at[b]); }
static inline uint64_t drain_due(const gpu_l1 *c) { return due(&c->drainq, c->drain_at); }

bool gpu_l1_cycle(gpu_l1 *c, uint64_t now)
{
    bool moved = false;
    if (c->cfg.release_drain && drain_due(c) <= now) {
        uint32_t i = (uint32_t)(uintptr_t)mem_queue_head(&c->drainq) - 1;
        if (mem_mshr_waiting(&c->mshr, i)) mem_queue_push_grow(&c->fills, mem_mshr_take(&c->mshr, i), now);
        if (!mem_mshr_waiting(&c->mshr, i)) {
            mem_mshr_release(&c->mshr, i);
            mem_queue_pop(&c->drainq);
            c->gen++;
        }
        c->drain_at = now + 1;
        moved = true;
    }
    for (uint32_t b = 0; b < c->nlq; b++) {
        if (lq_due(c, b) > now) continue;
        gpu_mreq *r = mem_queue_head(&c->lq[b]);
        gpu_l1res res = lookup(c, r, now);
        if (res == GPU_L1_RESFAIL || res == GPU_L1_BUSY) continue;   /* it holds the queue */
        mem_queue_pop(&c->lq[b]);
        c->lq_at[b] = now + 1;
        moved = true;
        /* a store absorbed (a local store's line written here) is acknowledged here */
        if (res == GPU_L1_HIT && r->kind == GPU_MR_STORE && r->want_ack) r->is_reply = 1;
    }
    return moved;
}

gpu_mreq *gpu_l1_pop_done(gpu_l1 *c, uint64_t now)
{
    uint64_t h = mem_queue_head_ready(&c->hits), f = mem_queue_head_ready(&c->fills);
    if (h <= now && h <= f) return mem_queue_pop(&c->hits);
    if (f <= now) return mem_queue_pop(&c->fills);
    return NULL;
}

gpu_mreq *gpu_l1_peek_miss(gpu_l1 *c) { return mem_queue_head(&c->missq); }
gpu_mreq *gpu_l1_peek_miss_at(gpu_l1 *c, uint64_t now) { return mem_queue_peek(&c->missq, now); }
const mem_queue *gpu_l1_missq(const gpu_l1 *c) { return &c->missq; }

void gpu_l1_done_queues(const gpu_l1 *c, const mem_queue **hits, const mem_queue **fills)
{
    *hits = &c->hits;
    *fills = &c->fills;
}

void gpu_l1_pop_miss(gpu_l1 *c)
{
    TP_ASSERT(!mem_queue_empty(&c->missq));
    mem_queue_pop(&c->missq);
}

void gpu_l1_fill(gpu_l1 *c, gpu_mreq *reply, uint64_t now)
{
    c->gen++;
    if (reply->kind != GPU_MR_LOAD) {   /* an atomic, or a store that wanted an ack */
        mem_queue_push_grow(&c->fills, reply, now);
        return;
    }
    uint32_t i = reply->tag;
    mem_mshr_entry *e = mem_mshr_at(&c->mshr, i);
    TP_ASSERT(i < c->mshr.entries && e->valid && e->addr == reply->addr && e->out);
    uint32_t got = sectors_of(c, reply->sectors, e->addr);
    e->got |= got;
    e->out--;
    if (e->flags & F_ALLOC) {
        int32_t slot = mem_cache_find(&c->tags, e->addr);
        if (slot < 0) {
            uint32_t v = mem_cache_victim(&c->tags, e->addr);
            if (v != MEM_CACHE_NONE) {
                const mem_cline *l = mem_cache_at(&c->tags, v);
                if (l->valid && l->dirty) write_back(c, v, reply, now, true);   /* the reserved room */
                mem_cache_insert(&c->tags, v, e->addr);
                slot = (int32_t)v;
            }
        }
        if (slot >= 0) {
            mem_cline *l = mem_cache_at(&c->tags, (uint32_t)slot);
            l->sect |= got;
            l->pend &= ~got;
        }
    }
    if (c->cfg.release_drain) {
        /* complete: its loads leave one a cycle from the next cycle (gpu_l1_cycle) */
        if (!e->out) mem_queue_push_grow(&c->drainq, (void *)(uintptr_t)(i + 1), now + 1);
        gpu_mreq_put(c->pool, reply);
        return;
    }
    for (uint32_t k = 0; k < mem_mshr_waiting(&c->mshr, i);) {
        if (mem_mshr_word(&c->mshr, i, k) & ~e->got) k++;
        else mem_queue_push_grow(&c->fills, mem_mshr_take_at(&c->mshr, i, k), now);
    }
    if (!e->out) {
        TP_ASSERT(!mem_mshr_waiting(&c->mshr, i));
        mem_mshr_release(&c->mshr, i);
    }
    gpu_mreq_put(c->pool, reply);
}

bool gpu_l1_refuses(const gpu_l1 *c, const gpu_mreq *r)
{
    /* load's first test: its answer is refuse's whatever the cycle (port_free is true unbanked) */
    return c->cfg.banks <= 1 && !c->lq && r->kind == GPU_MR_LOAD && r == c->ref_r && c->gen == c->ref_gen &&
           r->addr == c->ref_addr && r->sectors == c->ref_sectors;
}

bool gpu_l1_load_refused(const gpu_l1 *c, uint64_t addr, uint32_t sectors)
{
    /* load's tests in its order, up to refused_mshr */
    if (c->cfg.banks > 1 || c->lq || !mem_mshr_full(&c->mshr)) return false;
    uint64_t line = addr - addr % c->cfg.line;
    int32_t slot = mem_cache_find(&c->tags, line);
    if (slot >= 0 && !(sectors_of(c, sectors, line) & ~c->tags.l[slot].sect)) return false;
    return mem_mshr_find(&c->mshr, line) < 0;
}

void gpu_l1_note_refused(gpu_l1 *c, const gpu_mreq *r)
{
    c->ref_r = r;
    c->ref_addr = r->addr;
    c->ref_sectors = r->sectors;
    c->ref_gen = c->gen;
}

void gpu_l1_invalidate(gpu_l1 *c)
{
    c->gen++;
    mem_cache_invalidate_all(&c->tags);
}

void gpu_l1_resize(gpu_l1 *c, uint32_t size)
{
    uint64_t per_way = (uint64_t)c->sets0 * c->cfg.line;
    uint32_t ways = (uint32_t)(size / per_way), bytes = (uint32_t)(ways * per_way);
    if (bytes == c->cfg.size) return;
    TP_ASSERT(gpu_l1_idle(c));
    c->cfg.size = bytes;
    c->cfg.assoc = ways ? ways : 1;
    mem_cache_free(&c->tags);
    mem_cache_init(&c->tags, bytes, c->cfg.assoc, c->cfg.line);
    c->tags.index = c->cfg.set_index;
    c->gen++;
}

uint32_t gpu_l1_size(const gpu_l1 *c) { return c->cfg.size; }

uint64_t gpu_l1_next_inside(const gpu_l1 *c)
{
    uint64_t h = mem_queue_head_ready(&c->hits), f = mem_queue_head_ready(&c->fills);
    uint64_t n = h < f ? h : f;
    if (c->cfg.release_drain) {
        uint64_t t = drain_due(c);
        if (t < n) n = t;
    }
    for (uint32_t b = 0; b < c->nlq; b++) {
        uint64_t t = lq_due(c, b);
        if (t < n) n = t;
    }
    return n;
}

uint64_t gpu_l1_miss_ready(const gpu_l1 *c) { return mem_queue_head_ready(&c->missq); }

uint64_t gpu_l1_next(const gpu_l1 *c)
{
    uint64_t n = gpu_l1_next_inside(c), m = gpu_l1_miss_ready(c);
    return m < n ? m : n;
}

bool gpu_l1_idle(const gpu_l1 *c)
{
    for (uint32_t b = 0; b < c->nlq; b++)
        if (!mem_queue_empty(&c->lq[b])) return false;
    return mem_queue_empty(&c->hits) && mem_queue_empty(&c->fills) && c->mshr.used == 0 &&
           mem_queue_empty(&c->missq);
}

const gpu_l1stats *gpu_l1_stats(const gpu_l1 *c) { return &c->st; }

void gpu_l1_cfg_l1d(const tp_opts *o, gpu_l1cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->size = (uint32_t)tp_opt_i(o, OPT_L1D_SIZE);
    cfg->assoc = (uint32_t)tp_opt_i(o, OPT_L1D_ASSOC);
    cfg->line = (uint32_t)tp_opt_i(o, OPT_L1D_LINE);
    cfg->latency = (uint32_t)tp_opt_i(o, OPT_L1D_LATENCY);
    cfg->miss_latency = (uint32_t)tp_opt_i(o, OPT_L1D_MISS_LATENCY);
    cfg->mshrs = (uint32_t)tp_opt_i(o, OPT_L1D_MSHRS);
    cfg->mshr_merge = (uint32_t)tp_opt_i(o, OPT_L1D_MSHR_MERGE);
    cfg->miss_queue = (uint32_t)tp_opt_i(o, OPT_L1D_MISS_QUEUE);
    cfg->cache_global = tp_opt_i(o, OPT_L1D_CACHE_GLOBAL) != 0;
    cfg->set_index = (uint8_t)tp_opt_i(o, OPT_L1D_SET_INDEX);   /* linear|xor|fermi, in mem_index's order */
    cfg->sectored = tp_opt_i(o, OPT_L1D_SECTORED) != 0;
    cfg->alloc_on_miss = tp_opt_i(o, OPT_L1D_ALLOC) == 1;
    cfg->store_evict = tp_opt_i(o, OPT_L1D_STORE_HIT) == 1;
    cfg->banks = (uint32_t)tp_opt_i(o, OPT_L1D_BANKS);
    cfg->miss_ports = (uint32_t)tp_opt_i(o, OPT_L1D_MISS_PORTS);
    cfg->lookup_queue = tp_opt_i(o, OPT_L1D_LOOKUP) == 1;
    cfg->release_drain = tp_opt_i(o, OPT_L1D_RELEASE) == 1;
}

void gpu_l1_cfg_l1c(const tp_opts *o, gpu_l1cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->size = (uint32_t)tp_opt_i(o, OPT_L1C_SIZE);
    cfg->assoc = (uint32_t)tp_opt_i(o, OPT_L1C_ASSOC);
    cfg->line = (uint32_t)tp_opt_i(o, OPT_L1C_LINE);
    cfg->latency = (uint32_t)tp_opt_i(o, OPT_L1C_LATENCY);
    cfg->mshrs = (uint32_t)tp_opt_i(o, OPT_L1C_MSHRS);
    cfg->mshr_merge = (uint32_t)tp_opt_i(o, OPT_L1C_MSHR_MERGE);
    cfg->miss_queue = (uint32_t)tp_opt_i(o, OPT_L1C_MISS_QUEUE);
    cfg->cache_global = true;
}
