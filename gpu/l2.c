/* l2.c -- one L2 slice (see l2.h for its stages and policies).
**
** Decisions l2.h leaves to the implementation:
**   - MSHR bookkeeping (mem/mshr.h's owner words): `fetch` = sectors asked
**     of DRAM, `got` = sectors arrived, `out` = DRAM reads not answered,
**     `mark` = sectors that merged stores and atomics write; each waiting
**     request's word = the sectors it still lacked when it arrived (0 for
**     a store: released at the first fill).  F_QUEUED: the MSHR is in the
**     release ring (a fill queues it once; a second fill while it waits
**     there does not queue it again).
**   - Unsectored, a slice behaves as one sector per line: every fill
**     completes its MSHR, as before sectors existed.
*/
#include "l2.h"
#include "options.h"
#include "../mem/cache.h"
#include "../mem/mshr.h"
#include <stdlib.h>

enum { F_QUEUED = 1 };   /* MSHR flag: in the release ring */

struct gpu_l2 {
    gpu_l2cfg cfg;
    const gpu_addrmap *map;
    gpu_mreq_pool *pool;
    mem_cache tags;           /* keyed by slice-local address */
    mem_mshr mshr;
    mem_queue in, rop, miss;
    mem_queue atom;           /* the atomic unit: atomics being performed, ready = when done */
    mem_queue *out, *fill;
    uint32_t *release;        /* filled MSHRs waiting to release, FIFO ring */
    uint32_t rel_head, rel_n;
    uint32_t nsect;           /* sectors per line (1: unsectored) */
    uint32_t fgroup;          /* sectors per fetch piece (cfg.fetch / 32; 1: the sectors alone) */
    uint64_t atom_free;       /* L2 cycle from which the atomic unit is free */
    bool lookup_blocked;      /* the ROP head was refused in the last tick */
    bool atom_blocked;        /* a performed atomic found `out` full in the last tick */
    bool stalled;             /* a reply found `out` full this tick */
    uint64_t t_min;           /* time after the last tick */
    /* gpu_l2_next's answer, kept until the slice ticks or another unit
    ** pushes into `in` or `fill` (their push counts tell): a cache, not state */
    bool nx_ok;
    uint64_t nx, nx_in, nx_fill;
    /* a refused lookup (the `refused` path), kept to repeat without the
    ** address map, tag and MSHR work while nothing it read can have
    ** changed: the same ROP head, no change to the tags or MSHRs since
    ** (gen: fills, releases, successful lookups, warming) and the same
    ** number of requests in `miss` (only this slice pushes there, so an
    ** equal count means none left).  A cache, not state. */
    const gpu_mreq *ref_r;
    uint64_t gen, ref_gen;
    uint32_t ref_miss;
    bool ref_room;            /* the refusal was for room in `miss` (which its pops change): no sleeping on it */
    /* Asleep on a refusal (see sleeps): from L2 cycle ref_from on, every
    ** cycle until the next tick is one more refusal, counted when the
    ** slice ticks or its statistics are brought up to date (gpu_l2_sync). */
    bool ref_sleep;
    uint64_t ref_from;
    gpu_l2stats st;
};

void gpu_l2_cfg_options(const tp_opts *o, gpu_l2cfg *c)
{
    c->sectored = tp_opt_i(o, OPT_L2_SECTORED) != 0;
    c->alloc_on_miss = tp_opt_i(o, OPT_L2_ALLOC) == 1;
    c->dram_atom = (uint32_t)(tp_opt_i(o, OPT_DRAM_BURST) * tp_opt_i(o, OPT_DRAM_BUS_BYTES));
    c->fetch = (uint32_t)tp_opt_i(o, OPT_L2_FETCH);
    c->atomic_interval = (uint32_t)tp_opt_i(o, OPT_L2_ATOMIC_INTERVAL);
    c->atomic_rate = (uint32_t)tp_opt_i(o, OPT_L2_ATOMIC_RATE);
}

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
    if (c->dram_atom < GPU_SECTOR) c->dram_atom = GPU_SECTOR;
    if (!c->atomic_rate) c->atomic_rate = 1;
    s->map = map;
    s->pool = pool;
    s->nsect = c->sectored && c->line >= 2 * GPU_SECTOR && c->line <= GPU_SECTOR_BLOCK ? c->line / GPU_SECTOR : 1;
    /* the fetch piece: a power of two of sectors dividing the line */
    s->fgroup = 1;
    while (s->fgroup * 2 * GPU_SECTOR <= c->fetch && s->fgroup * 2 <= s->nsect) s->fgroup *= 2;
    mem_cache_init(&s->tags, c->size, c->assoc, c->line);
    mem_mshr_init(&s->mshr, c->mshrs, c->mshr_merge);
    mem_queue_init(&s->in, c->queue);
    mem_queue_init(&s->rop, (uint32_t)((c->rop_latency + c->period - 1) / c->period) + 1);
    mem_queue_init(&s->miss, c->queue + c->mshrs);
    mem_queue_init(&s->atom, c->queue);
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
    mem_queue_free(&s->atom);
    free(s->release);
    free(s);
}

void gpu_l2_connect(gpu_l2 *s, mem_queue *out, mem_queue *fill)
{
    s->out = out;
    s->fill = fill;
    s->nx_ok = false;
}

mem_queue *gpu_l2_in(gpu_l2 *s) { return &s->in; }
mem_queue *gpu_l2_miss(gpu_l2 *s) { return &s->miss; }
bool gpu_l2_can_accept(const gpu_l2 *s) { return !mem_queue_full(&s->in); }
void gpu_l2_accept(gpu_l2 *s, gpu_mreq *r, uint64_t ready) { mem_queue_push(&s->in, r, ready); }
const gpu_l2stats *gpu_l2_stats(const gpu_l2 *s) { return &s->st; }

static inline bool miss_room(const gpu_l2 *s) { return mem_queue_count(&s->miss) < s->cfg.queue; }
static inline bool unit_on(const gpu_l2 *s) { return s->cfg.atomic_interval != 0; }

/* The sectors of a `sectors` mask within `line` (bit i: sector i); 1 when unsectored. */
static inline uint32_t sectors_of(const gpu_l2 *s, uint32_t sectors, uint64_t line)
{
    return s->nsect == 1 ? 1u : gpu_sectors_in_line(sectors, line, s->cfg.line);
}

/* A DRAM request's size for sectors m of a line: the DRAM atoms they touch. */
static inline uint32_t dram_bytes(const gpu_l2 *s, uint32_t m)
{
    if (s->nsect == 1) return s->cfg.line;
    uint32_t per = s->cfg.dram_atom / GPU_SECTOR, atoms = 0;
    for (uint32_t i = 0; i < s->nsect; i++)
        if (m >> i & 1) atoms |= 1u << (i / per);
    uint32_t b = (uint32_t)__builtin_popcount(atoms) * s->cfg.dram_atom;
    return b < s->cfg.line ? b : s->cfg.line;
}

/* The sectors a read miss asks DRAM for: need, widened to every sector of
** the aligned fetch pieces (l2.fetch) it touches, less `have` (the sectors
** the line has, or its MSHR has asked for already). */
static inline uint32_t widen(const gpu_l2 *s, uint32_t need, uint32_t have)
{
    uint32_t g = s->fgroup, w = need;
    if (g == 1 || !need) return need;
    uint32_t piece = (1u << g) - 1;
    for (uint32_t i = 0; i < s->nsect; i += g)
        if (need >> i & piece) w |= piece << i;
    return (w & ~have) | need;
}

static gpu_mreq *dram_req(gpu_l2 *s, int kind, uint64_t addr, uint32_t m, uint32_t tag, uint64_t t)
{
    gpu_mreq *q = gpu_mreq_get(s->pool);
    q->addr = addr;
    q->bytes = dram_bytes(s, m);
    q->sectors = s->nsect == 1 ? 0 : gpu_sectors_of_line(m, addr);
    q->kind = (uint8_t)kind;
    q->space = GPU_MS_GLOBAL;
    q->src = (uint16_t)s->cfg.port;
    q->sm = (uint16_t)s->cfg.slice;
    q->tag = tag;
    q->t_sent = t;
    return q;
}

/* Installs the line of `key` (absent), writing back a dirty victim's dirty
** sectors; returns the slot.  grow: a fill's write-back, which `miss` must take. */
static uint32_t install(gpu_l2 *s, uint64_t key, uint64_t t, bool grow)
{
    uint32_t v = mem_cache_victim(&s->tags, key);
    if (v == MEM_CACHE_NONE) return v;   /* every way reserved (l2.alloc = miss): callers check */
    const mem_cline *l = mem_cache_at(&s->tags, v);
    if (l->valid && l->dirty) {
        uint64_t a = gpu_addrmap_from_slice(s->map, s->cfg.slice, l->tag);
        gpu_mreq *w = dram_req(s, GPU_MR_STORE, a, l->dsect, 0, t);
        if (grow) mem_queue_push_grow(&s->miss, w, t + 1);
        else mem_queue_push(&s->miss, w, t + 1);
        s->st.writebacks++;
    }
    mem_cache_insert(&s->tags, v, key);
    return v;
}

/* Marks sectors m of the line in slot written: valid and dirty. */
static void write_sectors(gpu_l2 *s, uint32_t slot, uint32_t m)
{
    mem_cline *l = mem_cache_at(&s->tags, slot);
    l->sect |= m;
    l->dsect |= m;
    mem_cache_set_dirty(&s->tags, slot, true);
}

/* Stage 1. */
static void do_fill(gpu_l2 *s, uint64_t t)
{
    gpu_mreq *r = mem_queue_peek(s->fill, t);
    if (!r) return;
    mem_queue_pop(s->fill);
    s->gen++;
    uint32_t i = r->tag;
    mem_mshr_entry *e = mem_mshr_at(&s->mshr, i);
    TP_ASSERT(i < s->mshr.entries && e->valid && e->addr == r->addr && e->out);
    uint32_t got = sectors_of(s, r->sectors, e->addr);
    e->got |= got;
    e->out--;
    if (mem_cache_enabled(&s->tags)) {
        uint64_t key = gpu_addrmap_slice_addr(s->map, e->addr);
        int32_t slot = mem_cache_find(&s->tags, key);
        uint32_t v = slot >= 0 ? (uint32_t)slot : install(s, key, t, true);   /* the reserved room in `miss` */
        if (v != MEM_CACHE_NONE) {   /* NONE: every way reserved by other misses; the line is not kept */
            mem_cline *l = mem_cache_at(&s->tags, v);
            l->sect |= got;
            l->pend &= ~got;
            if (e->mark) write_sectors(s, v, e->mark);
        }
    }
    if (!(e->flags & F_QUEUED)) {
        e->flags |= F_QUEUED;
        s->release[(s->rel_head + s->rel_n++) % s->cfg.mshrs] = i;
    }
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

/* Room for r where it goes next (`out`, or the atomic unit for an atomic);
** a stall is counted when not. */
static bool out_room(gpu_l2 *s, const gpu_mreq *r, uint64_t t)
{
    bool unit = r->kind == GPU_MR_ATOMIC && unit_on(s);
    mem_queue *q = unit ? &s->atom : s->out;
    if (!answers(r) || !mem_queue_full(q)) return true;
    if (!unit) mem_queue_stall(s->out, t);
    s->stalled = true;
    return false;
}

/* Hands r on: an atomic to the atomic unit (when there is one), anything
** else finished. */
static void perform(gpu_l2 *s, gpu_mreq *r, uint64_t t)
{
    if (r->kind != GPU_MR_ATOMIC || !unit_on(s)) {
        finish(s, r, t);
        return;
    }
    uint64_t c = t / s->cfg.period, start = c > s->atom_free ? c : s->atom_free;
    uint32_t n = r->ops ? r->ops : 1, k = r->ops_addr ? r->ops_addr : 1;
    uint64_t occ = (uint64_t)k * s->cfg.atomic_interval, w = (n + s->cfg.atomic_rate - 1) / s->cfg.atomic_rate;
    if (w > occ) occ = w;
    s->atom_free = start + occ;
    mem_queue_push(&s->atom, r, s->atom_free * s->cfg.period);
    s->st.atomic_ops += n;
    s->st.atomic_busy += occ;
}

/* Stage 2. */
static void do_release(gpu_l2 *s, uint64_t t)
{
    s->gen++;
    while (s->rel_n) {
        uint32_t i = s->release[s->rel_head];
        mem_mshr_entry *e = mem_mshr_at(&s->mshr, i);
        for (uint32_t k = 0; k < mem_mshr_waiting(&s->mshr, i);) {
            if (mem_mshr_word(&s->mshr, i, k) & ~e->got) {
                k++;
                continue;
            }
            if (!out_room(s, mem_mshr_item(&s->mshr, i, k), t)) return;
            perform(s, mem_mshr_take_at(&s->mshr, i, k), t);
        }
        e->flags &= ~(uint32_t)F_QUEUED;
        if (!e->out) {
            TP_ASSERT(!mem_mshr_waiting(&s->mshr, i));
            mem_mshr_release(&s->mshr, i);
        }
        s->rel_head = (s->rel_head + 1) % s->cfg.mshrs;
        s->rel_n--;
    }
}

/* Stage 3: true when the head was done with. */
static bool lookup(gpu_l2 *s, gpu_mreq *r, uint64_t t)
{
    s->ref_room = false;
    uint64_t line = r->addr - r->addr % s->cfg.line;
    uint64_t key = gpu_addrmap_slice_addr(s->map, line);
    uint32_t want = sectors_of(s, r->sectors, line);
    int32_t slot = mem_cache_find(&s->tags, key);
    mem_cline *l = slot >= 0 ? mem_cache_at(&s->tags, (uint32_t)slot) : NULL;
    bool writes = r->kind != GPU_MR_LOAD;
    if (l && (r->kind == GPU_MR_STORE || !(want & ~l->sect))) {
        if (!out_room(s, r, t)) return false;
        if (writes) write_sectors(s, (uint32_t)slot, want);
        mem_cache_touch(&s->tags, (uint32_t)slot);
        perform(s, r, t);
        s->st.hits++;
        return true;
    }
    if (r->kind == GPU_MR_STORE && !mem_cache_enabled(&s->tags)) {
        /* no L2: the store goes on to DRAM as it is */
        if (!miss_room(s)) goto refused;
        if (!out_room(s, r, t)) return false;
        gpu_mreq *w = dram_req(s, GPU_MR_STORE, r->addr, 0, 0, t);
        w->bytes = r->bytes;
        mem_queue_push(&s->miss, w, t + 1);
        finish(s, r, t);
        s->st.misses++;
        return true;
    }
    uint32_t need = r->kind == GPU_MR_STORE ? 0 : l ? want & ~l->sect : want;
    int32_t e = mem_mshr_find(&s->mshr, line);
    if (e >= 0) {
        mem_mshr_entry *m = mem_mshr_at(&s->mshr, (uint32_t)e);
        if (!mem_mshr_can_add(&s->mshr, (uint32_t)e)) goto refused;
        uint32_t extra = need & ~m->fetch;
        if (extra) {
            /* sectors the line in flight was not asked for: one more DRAM read */
            if (!miss_room(s)) goto refused;
            extra = widen(s, extra, m->fetch | (l ? l->sect : 0));
            mem_queue_push(&s->miss, dram_req(s, GPU_MR_LOAD, line, extra, (uint32_t)e, t), t + 1);
            m->fetch |= extra;
            m->out++;
            s->st.dram_reads++;
            if (l) s->st.sector_misses++;
            if (l && s->cfg.alloc_on_miss) l->pend |= extra;
        }
        mem_mshr_add_w(&s->mshr, (uint32_t)e, r, need);
        if (writes) m->mark |= want;
        s->st.misses++;
        s->st.mshr_merges++;
        return true;
    }
    if (r->kind == GPU_MR_STORE) {
        /* write-allocate without a read; a dirty victim needs room in `miss` */
        uint32_t vs = mem_cache_victim(&s->tags, key);
        if (vs == MEM_CACHE_NONE) goto refused;   /* every way reserved (l2.alloc = miss) */
        const mem_cline *v = mem_cache_at(&s->tags, vs);
        if (v->valid && v->dirty && !miss_room(s)) goto refused;
        if (!out_room(s, r, t)) return false;
        slot = (int32_t)install(s, key, t, false);
        write_sectors(s, (uint32_t)slot, want);
        finish(s, r, t);
        s->st.misses++;
        return true;
    }
    if (mem_mshr_full(&s->mshr) || !miss_room(s)) goto refused;
    bool present = l != NULL;
    if (s->cfg.alloc_on_miss && mem_cache_enabled(&s->tags)) {
        /* GPGPU-Sim's allocate-on-miss: the line is taken now (see l2.h) */
        if (!l) {
            uint32_t vs = mem_cache_victim(&s->tags, key);
            if (vs == MEM_CACHE_NONE) goto refused;
            const mem_cline *v = mem_cache_at(&s->tags, vs);
            if (v->valid && v->dirty && mem_queue_count(&s->miss) + 1 >= s->cfg.queue) {
                s->ref_room = true;   /* room for the write-back and the read */
                goto refused;
            }
            slot = (int32_t)install(s, key, t, false);
            l = mem_cache_at(&s->tags, (uint32_t)slot);
            s->gen++;
        }
    }
    uint32_t fetch = widen(s, need, l ? l->sect : 0);
    if (l && s->cfg.alloc_on_miss) l->pend |= fetch;
    uint32_t i = mem_mshr_alloc(&s->mshr, line);
    mem_mshr_entry *m = mem_mshr_at(&s->mshr, i);
    mem_mshr_add_w(&s->mshr, i, r, need);
    m->fetch = fetch;
    m->out = 1;
    if (writes) m->mark = want;
    mem_queue_push(&s->miss, dram_req(s, GPU_MR_LOAD, line, fetch, i, t), t + 1);
    if (present) {
        mem_cache_touch(&s->tags, (uint32_t)slot);
        s->st.sector_misses++;
    }
    s->st.misses++;
    s->st.dram_reads++;
    return true;
refused:
    if (!miss_room(s)) mem_queue_stall(&s->miss, t);
    s->st.reservation_fails++;
    s->ref_r = r;
    s->ref_gen = s->gen;
    s->ref_miss = mem_queue_count(&s->miss);
    return false;
}

/* Whether lookup(r) would take the `refused` path again (see ref_r); its
** effects then repeated. */
static bool refused_again(gpu_l2 *s, const gpu_mreq *r, uint64_t t)
{
    if (r != s->ref_r || s->gen != s->ref_gen || mem_queue_count(&s->miss) != s->ref_miss) return false;
    if (!miss_room(s)) mem_queue_stall(&s->miss, t);
    s->st.reservation_fails++;
    return true;
}

/* Stage 4. */
static void do_atomics(gpu_l2 *s, uint64_t t)
{
    gpu_mreq *r;
    while ((r = mem_queue_peek(&s->atom, t))) {
        if (mem_queue_full(s->out)) {
            mem_queue_stall(s->out, t);
            s->stalled = s->atom_blocked = true;
            return;
        }
        mem_queue_pop(&s->atom);
        finish(s, r, t);
    }
}

void gpu_l2_sync(gpu_l2 *s, uint64_t c)
{
    if (!s->ref_sleep || c <= s->ref_from) return;
    s->st.reservation_fails += c - s->ref_from;
    s->ref_from = c;
}

/* Whether the tick just run (at cycle c, time t) leaves the slice with
** nothing to do in the cycles after it but refuse its ROP head again: the
** lookup took the refused path (ref_r still the head, no change to tags or
** MSHRs since, the same count in `miss`) while `miss` had room, no MSHR
** waits to release and the atomic unit is empty.  Then each later cycle
** repeats the refusal (one reservation failure, and no stall: `miss` has
** room, and its consumer's pops only add room) until a fill arrives or a
** request can leave `in` for the ROP pipe (next_of); a refusal for want
** of room in `miss` (a full queue, or with l2.alloc = miss no room for a
** dirty victim's write-back beside the read: ref_room) is left to the
** cycle-by-cycle retries, as the channel's pops end it and count its
** stalls. */
static bool sleeps(const gpu_l2 *s)
{
    return s->lookup_blocked && !s->rel_n && mem_queue_empty(&s->atom) && s->ref_r == mem_queue_head(&s->rop) &&
           s->ref_gen == s->gen && mem_queue_count(&s->miss) == s->ref_miss && miss_room(s) && !s->ref_room;
}

void gpu_l2_tick(gpu_l2 *s, uint64_t c)
{
    uint64_t t = c * s->cfg.period;
    if (s->ref_sleep) {   /* the cycles slept through, each a refusal */
        gpu_l2_sync(s, c);
        s->ref_sleep = false;
    }
    s->stalled = false;
    do_fill(s, t);
    if (s->rel_n) do_release(s, t);
    gpu_mreq *r = mem_queue_peek(&s->rop, t);
    s->lookup_blocked = false;
    if (r) {
        if (!refused_again(s, r, t) && lookup(s, r, t)) {
            s->gen++;
            mem_queue_pop(&s->rop);
            s->st.accesses++;
            if (r->kind == GPU_MR_LOAD) s->st.loads++;
            else if (r->kind == GPU_MR_STORE) s->st.stores++;
            else s->st.atomics++;
        } else {
            s->lookup_blocked = true;
        }
    }
    s->atom_blocked = false;
    if (!mem_queue_empty(&s->atom)) do_atomics(s, t);
    r = mem_queue_peek(&s->in, t);
    if (r && !mem_queue_full(&s->rop)) {
        mem_queue_pop(&s->in);
        r->t_l2 = t;
        mem_queue_push(&s->rop, r, t + s->cfg.rop_latency);
    }
    if (s->stalled) s->st.stall_cycles++;
    s->t_min = t + 1;
    s->nx_ok = false;
    if (sleeps(s)) {
        s->ref_sleep = true;
        s->ref_from = c + 1;
    }
}

static inline uint64_t head_time(const mem_queue *q, uint64_t t_min)
{
    uint64_t h = mem_queue_head_ready(q);
    return h == UINT64_MAX ? h : h > t_min ? h : t_min;
}

static uint64_t next_of(const gpu_l2 *s)
{
    if (s->ref_sleep) {   /* a fill, or a request that can enter the ROP pipe (sleeps) */
        uint64_t t = head_time(s->fill, s->t_min);
        if (mem_queue_full(&s->rop)) return t;
        uint64_t v = head_time(&s->in, s->t_min);
        return v < t ? v : t;
    }
    if (s->rel_n || s->lookup_blocked || s->atom_blocked) return s->t_min;
    uint64_t t = head_time(s->fill, s->t_min), u = head_time(&s->rop, s->t_min), v = head_time(&s->in, s->t_min);
    uint64_t w = head_time(&s->atom, s->t_min);
    if (u < t) t = u;
    if (w < t) t = w;
    return v < t ? v : t;
}

uint64_t gpu_l2_next(const gpu_l2 *s)
{
    /* between ticks only pushes into in and fill (whose heads may change) move it */
    if (s->nx_ok && s->in.pushes == s->nx_in && s->fill->pushes == s->nx_fill) return s->nx;
    gpu_l2 *w = (gpu_l2 *)s;
    w->nx = next_of(s);
    w->nx_in = s->in.pushes;
    w->nx_fill = s->fill->pushes;
    w->nx_ok = true;
    return w->nx;
}

bool gpu_l2_idle(const gpu_l2 *s)
{
    return !s->rel_n && !s->mshr.used && mem_queue_empty(&s->in) && mem_queue_empty(&s->rop) &&
           mem_queue_empty(&s->miss) && mem_queue_empty(s->fill) && mem_queue_empty(&s->atom);
}

void gpu_l2_warm(gpu_l2 *s, uint64_t addr)
{
    if (!mem_cache_enabled(&s->tags)) return;
    TP_ASSERT(!s->ref_sleep);   /* copies come between kernels, with the slices idle */
    s->gen++;
    uint64_t key = gpu_addrmap_slice_addr(s->map, addr);
    int32_t slot = mem_cache_find(&s->tags, key);
    if (slot < 0) {
        slot = (int32_t)mem_cache_victim(&s->tags, key);
        mem_cache_insert(&s->tags, (uint32_t)slot, key);
    } else {
        mem_cache_touch(&s->tags, (uint32_t)slot);
    }
    write_sectors(s, (uint32_t)slot, s->nsect >= 32 ? ~0u : (1u << s->nsect) - 1);
}
