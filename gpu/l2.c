/* l2.c -- one L2 slice (see l2.h for its stages and policies). */
#include "l2.h"
#include "../mem/cache.h"
#include "../mem/mshr.h"
#include <stdlib.h>

enum { F_DIRTY = 1 };   /* MSHR flag: a store or atomic waits, the filled line is dirty */

struct gpu_l2 {
    gpu_l2cfg cfg;
    const gpu_addrmap *map;
    gpu_mreq_pool *pool;
    mem_cache tags;           /* keyed by slice-local address */
    mem_mshr mshr;
    mem_queue in, rop, miss;
    mem_queue *out, *fill;
    uint32_t *release;        /* filled MSHRs waiting to release, FIFO ring */
    uint32_t rel_head, rel_n;
    bool lookup_blocked;      /* the ROP head was refused in the last tick */
    bool stalled;             /* a reply found `out` full this tick */
    uint64_t t_min;           /* time after the last tick */
    gpu_l2stats st;
};

gpu_l2 *gpu_l2_new(const gpu_l2cfg *cfg, const gpu_addrmap *map, gpu_mreq_pool *pool)
{
    gpu_l2 *s = tp_calloc(1, sizeof *s);
    s->cfg = *cfg;
    gpu_l2cfg *c = &s->cfg;
    if (!c->line) c->line = 128;
    if (!c->mshrs) c->mshrs = 1;
    if (!c->mshr_merge) c->mshr_merge = 1;
    if (!c->queue) c->queue = 1;
    if (!c->period) c->period = 1;
    s->map = map;
    s->pool = pool;
    mem_cache_init(&s->tags, c->size, c->assoc, c->line);
    mem_mshr_init(&s->mshr, c->mshrs, c->mshr_merge);
    mem_queue_init(&s->in, c->queue);
    mem_queue_init(&s->rop, (uint32_t)((c->rop_latency + c->period - 1) / c->period) + 1);
    mem_queue_init(&s->miss, c->queue + c->mshrs);
    s->release = tp_calloc(c->mshrs, sizeof *s->release);
    return s;
}

void gpu_l2_free(gpu_l2 *s)
{
    if (!s) return;
    mem_cache_free(&s->tags);
    mem_mshr_free(&s->mshr);
    mem_queue_free(&s->in);
    mem_queue_free(&s->rop);
    mem_queue_free(&s->miss);
    free(s->release);
    free(s);
}

void gpu_l2_connect(gpu_l2 *s, mem_queue *out, mem_queue *fill)
{
    s->out = out;
    s->fill = fill;
}

mem_queue *gpu_l2_in(gpu_l2 *s) { return &s->in; }
mem_queue *gpu_l2_miss(gpu_l2 *s) { return &s->miss; }
bool gpu_l2_can_accept(const gpu_l2 *s) { return !mem_queue_full(&s->in); }
void gpu_l2_accept(gpu_l2 *s, gpu_mreq *r, uint64_t ready) { mem_queue_push(&s->in, r, ready); }
const gpu_l2stats *gpu_l2_stats(const gpu_l2 *s) { return &s->st; }

static inline bool miss_room(const gpu_l2 *s) { return mem_queue_count(&s->miss) < s->cfg.queue; }

static gpu_mreq *dram_req(gpu_l2 *s, int kind, uint64_t addr, uint32_t tag, uint64_t t)
{
    gpu_mreq *q = gpu_mreq_get(s->pool);
    q->addr = addr;
    q->bytes = s->cfg.line;
    q->kind = (uint8_t)kind;
    q->space = GPU_MS_GLOBAL;
    q->src = (uint16_t)s->cfg.port;
    q->sm = (uint16_t)s->cfg.slice;
    q->tag = tag;
    q->t_sent = t;
    return q;
}

/* Installs the line of `key` (absent), writing back a dirty victim; returns the slot. */
static uint32_t install(gpu_l2 *s, uint64_t key, uint64_t t)
{
    uint32_t v = mem_cache_victim(&s->tags, key);
    const mem_cline *l = mem_cache_at(&s->tags, v);
    if (l->valid && l->dirty) {
        uint64_t a = gpu_addrmap_from_slice(s->map, s->cfg.slice, l->tag);
        mem_queue_push(&s->miss, dram_req(s, GPU_MR_STORE, a, 0, t), t + 1);
        s->st.writebacks++;
    }
    mem_cache_insert(&s->tags, v, key);
    return v;
}

/* Stage 1. */
static void do_fill(gpu_l2 *s, uint64_t t)
{
    gpu_mreq *r = mem_queue_peek(s->fill, t);
    if (!r) return;
    mem_queue_pop(s->fill);
    uint32_t i = r->tag;
    mem_mshr_entry *e = mem_mshr_at(&s->mshr, i);
    TP_ASSERT(i < s->mshr.entries && e->valid && e->addr == r->addr);
    if (mem_cache_enabled(&s->tags)) {
        uint64_t key = gpu_addrmap_slice_addr(s->map, e->addr);
        int32_t slot = mem_cache_find(&s->tags, key);
        if (slot < 0) slot = (int32_t)install(s, key, t);   /* the reserved room in `miss` */
        if (e->flags & F_DIRTY) mem_cache_set_dirty(&s->tags, (uint32_t)slot, true);
    }
    s->release[(s->rel_head + s->rel_n++) % s->cfg.mshrs] = i;
    gpu_mreq_put(s->pool, r);
}

/* Whether finishing r needs room in `out`. */
static inline bool answers(const gpu_mreq *r) { return r->kind != GPU_MR_STORE || r->want_ack; }

/* A request whose work is done: replied to through `out` (which has room),
** or freed (a store that wants no ack). */
static void finish(gpu_l2 *s, gpu_mreq *r, uint64_t t)
{
    if (!answers(r)) {
        gpu_mreq_put(s->pool, r);
        return;
    }
    r->is_reply = 1;
    mem_queue_push(s->out, r, t + 1);
}

/* Room in `out` for r's answer, if it needs one; a stall is counted when not. */
static bool out_room(gpu_l2 *s, const gpu_mreq *r, uint64_t t)
{
    if (!answers(r) || !mem_queue_full(s->out)) return true;
    mem_queue_stall(s->out, t);
    s->stalled = true;
    return false;
}

/* Stage 2. */
static void do_release(gpu_l2 *s, uint64_t t)
{
    while (s->rel_n) {
        uint32_t i = s->release[s->rel_head];
        while (mem_mshr_waiting(&s->mshr, i)) {
            const mem_mshr_entry *e = mem_mshr_at(&s->mshr, i);
            gpu_mreq *r = s->mshr.items[(size_t)i * s->mshr.merge + e->first];
            if (!out_room(s, r, t)) return;
            finish(s, mem_mshr_take(&s->mshr, i), t);
        }
        mem_mshr_release(&s->mshr, i);
        s->rel_head = (s->rel_head + 1) % s->cfg.mshrs;
        s->rel_n--;
    }
}

/* Stage 3: true when the head was done with. */
static bool lookup(gpu_l2 *s, gpu_mreq *r, uint64_t t)
{
    uint64_t line = r->addr - r->addr % s->cfg.line;
    uint64_t key = gpu_addrmap_slice_addr(s->map, line);
    int32_t slot = mem_cache_find(&s->tags, key);
    bool writes = r->kind != GPU_MR_LOAD;
    if (slot >= 0) {
        if (!out_room(s, r, t)) return false;
        if (writes) mem_cache_set_dirty(&s->tags, (uint32_t)slot, true);
        mem_cache_touch(&s->tags, (uint32_t)slot);
        finish(s, r, t);
        s->st.hits++;
        return true;
    }
    if (r->kind == GPU_MR_STORE && !mem_cache_enabled(&s->tags)) {
        /* no L2: the store goes on to DRAM as it is */
        if (!miss_room(s)) goto refused;
        if (!out_room(s, r, t)) return false;
        gpu_mreq *w = dram_req(s, GPU_MR_STORE, r->addr, 0, t);
        w->bytes = r->bytes;
        mem_queue_push(&s->miss, w, t + 1);
        finish(s, r, t);
        s->st.misses++;
        return true;
    }
    int32_t e = mem_mshr_find(&s->mshr, line);
    if (e >= 0) {
        if (!mem_mshr_can_add(&s->mshr, (uint32_t)e)) goto refused;
        mem_mshr_add(&s->mshr, (uint32_t)e, r);
        if (writes) mem_mshr_at(&s->mshr, (uint32_t)e)->flags |= F_DIRTY;
        s->st.misses++;
        s->st.mshr_merges++;
        return true;
    }
    if (r->kind == GPU_MR_STORE) {
        /* write-allocate without a read; a dirty victim needs room in `miss` */
        const mem_cline *l = mem_cache_at(&s->tags, mem_cache_victim(&s->tags, key));
        if (l->valid && l->dirty && !miss_room(s)) goto refused;
        if (!out_room(s, r, t)) return false;
        slot = (int32_t)install(s, key, t);
        mem_cache_set_dirty(&s->tags, (uint32_t)slot, true);
        finish(s, r, t);
        s->st.misses++;
        return true;
    }
    if (mem_mshr_full(&s->mshr) || !miss_room(s)) goto refused;
    uint32_t i = mem_mshr_alloc(&s->mshr, line);
    mem_mshr_add(&s->mshr, i, r);
    if (writes) mem_mshr_at(&s->mshr, i)->flags |= F_DIRTY;
    mem_queue_push(&s->miss, dram_req(s, GPU_MR_LOAD, line, i, t), t + 1);
    s->st.misses++;
    s->st.dram_reads++;
    return true;
refused:
    if (!miss_room(s)) mem_queue_stall(&s->miss, t);
    s->st.reservation_fails++;
    return false;
}

void gpu_l2_tick(gpu_l2 *s, uint64_t c)
{
    uint64_t t = c * s->cfg.period;
    s->stalled = false;
    do_fill(s, t);
    if (s->rel_n) do_release(s, t);
    gpu_mreq *r = mem_queue_peek(&s->rop, t);
    s->lookup_blocked = false;
    if (r) {
        if (lookup(s, r, t)) {
            mem_queue_pop(&s->rop);
            s->st.accesses++;
            if (r->kind == GPU_MR_LOAD) s->st.loads++;
            else if (r->kind == GPU_MR_STORE) s->st.stores++;
            else s->st.atomics++;
        } else {
            s->lookup_blocked = true;
        }
    }
    r = mem_queue_peek(&s->in, t);
    if (r && !mem_queue_full(&s->rop)) {
        mem_queue_pop(&s->in);
        mem_queue_push(&s->rop, r, t + s->cfg.rop_latency);
    }
    if (s->stalled) s->st.stall_cycles++;
    s->t_min = t + 1;
}

static inline uint64_t head_time(const mem_queue *q, uint64_t t_min)
{
    uint64_t h = mem_queue_head_ready(q);
    return h == UINT64_MAX ? h : h > t_min ? h : t_min;
}

uint64_t gpu_l2_next(const gpu_l2 *s)
{
    if (s->rel_n || s->lookup_blocked) return s->t_min;
    uint64_t t = head_time(s->fill, s->t_min), u = head_time(&s->rop, s->t_min), v = head_time(&s->in, s->t_min);
    if (u < t) t = u;
    return v < t ? v : t;
}

bool gpu_l2_idle(const gpu_l2 *s)
{
    return !s->rel_n && !s->mshr.used && mem_queue_empty(&s->in) && mem_queue_empty(&s->rop) &&
           mem_queue_empty(&s->miss) && mem_queue_empty(s->fill);
}

void gpu_l2_warm(gpu_l2 *s, uint64_t addr)
{
    if (!mem_cache_enabled(&s->tags)) return;
    uint64_t key = gpu_addrmap_slice_addr(s->map, addr);
    int32_t slot = mem_cache_find(&s->tags, key);
    if (slot < 0) {
        slot = (int32_t)mem_cache_victim(&s->tags, key);
        mem_cache_insert(&s->tags, (uint32_t)slot, key);
    } else {
        mem_cache_touch(&s->tags, (uint32_t)slot);
    }
    mem_cache_set_dirty(&s->tags, (uint32_t)slot, true);
}
