/* test_mem_l1.c -- the SM-side cache (gpu/l1.c) between a mock LD/ST unit
** and a mock memory system, exact to the cycle, and the generic pieces it is
** built from (mem/queue, mem/cache, mem/mshr).
**
** Configuration: the GTX 480 L1D of gpu/mem_options.def: 16 KB, 4 ways,
** 128-byte lines -> 16384 / (4 * 128) = 32 sets, so addresses 32 * 128 =
** 4096 bytes apart share a set (the rig indexes linearly; the table's
** default is the Fermi hash, t303 and t416); hit latency 35; 32 MSHRs of
** 8 requests; miss queue 8; allocate on fill, unsectored, a global store
** keeping the line it hits (t417, t418 and t419 turn on sectors,
** allocate-on-miss and the table's Fermi store eviction). */
#include "tests/unit/tt.h"
#include "gpu/l1.h"
#include "gpu/options.h"
#include "mem/cache.h"
#include "mem/mshr.h"
#include "mem/queue.h"

enum { LAT = 35, SETSTRIDE = 4096 };
#define BASE 0x200000000000ull

typedef struct rig {
    gpu_mreq_pool pool;
    gpu_l1cfg cfg;
    gpu_l1 *c;
} rig;

static void rig_open(rig *g, bool cache_global)
{
    tp_opts o;
    gpu_opts_init(&o);
    gpu_l1_cfg_l1d(&o, &g->cfg);
    tp_opts_free(&o);
    g->cfg.cache_global = cache_global;
    /* the scenarios index sets linearly (lines SETSTRIDE apart share a set);
    ** t303 and t416 pin the Fermi index the option table's default uses */
    g->cfg.set_index = MEM_INDEX_LINEAR;
    g->cfg.alloc_on_miss = false;   /* allocate on fill; t418 pins allocate-on-miss */
    g->cfg.store_evict = false;     /* a store hit keeps its line; t419 pins Fermi's eviction */
    g->cfg.sectored = false;
    /* these scenarios pin the cache's decisions with requests entering the
    ** miss queue at their access; t414 pins the lookup pipeline */
    g->cfg.miss_latency = 0;
    gpu_mreq_pool_init(&g->pool);
    g->c = gpu_l1_new(&g->cfg, &g->pool);
}

static void rig_close(rig *g)
{
    gpu_l1_free(g->c);
    gpu_mreq_pool_free(&g->pool);
}

static gpu_mreq *mk(rig *g, int kind, int space, uint64_t addr, uint32_t tag)
{
    gpu_mreq *r = gpu_mreq_get(&g->pool);
    r->kind = (uint8_t)kind;
    r->space = (uint8_t)space;
    r->addr = addr;
    r->bytes = 128;
    r->tag = tag;
    r->sm = 3;
    r->src = 1;
    return r;
}

static gpu_l1res acc(rig *g, int kind, int space, uint64_t addr, uint32_t tag, uint64_t now)
{
    gpu_mreq *r = mk(g, kind, space, addr, tag);
    gpu_l1res res = gpu_l1_access(g->c, r, now);
    if (res == GPU_L1_RESFAIL) gpu_mreq_put(&g->pool, r);
    return res;
}

/* Takes the head of the miss queue (the memory system accepting it). */
static gpu_mreq *take_miss(rig *g)
{
    gpu_mreq *m = gpu_l1_peek_miss(g->c);
    if (m) gpu_l1_pop_miss(g->c);
    return m;
}

/* The memory system answers a request it took. */
static void answer(rig *g, gpu_mreq *m, uint64_t now)
{
    m->is_reply = 1;
    gpu_l1_fill(g->c, m, now);
}

/* Pops and frees everything done by `now`; returns how many. */
static uint32_t drain(rig *g, uint64_t now)
{
    uint32_t n = 0;
    gpu_mreq *r;
    while ((r = gpu_l1_pop_done(g->c, now))) {
        gpu_mreq_put(&g->pool, r);
        n++;
    }
    return n;
}

/* Brings a load line into the cache: miss at t, fill at t + 1. */
static void warm(rig *g, int space, uint64_t addr, uint64_t t)
{
    TT_EQ_U(acc(g, GPU_MR_LOAD, space, addr, 0, t), GPU_L1_MISS);
    answer(g, take_miss(g), t + 1);
    TT_EQ_U(drain(g, t + 1), 1);
}

/* ---- the generic pieces ---- */

static void t300_queue(void)
{
    mem_queue q;
    mem_queue_init(&q, 2);
    int a, b, c;
    TT_CHECK(mem_queue_empty(&q));
    mem_queue_push(&q, &a, 5);
    mem_queue_push(&q, &b, 3);
    TT_CHECK(mem_queue_full(&q));
    mem_queue_stall(&q, 7);
    mem_queue_stall(&q, 7);   /* same time: counted once */
    mem_queue_stall(&q, 8);
    TT_EQ_U(q.full_cycles, 2);
    TT_CHECK(mem_queue_peek(&q, 4) == NULL);   /* FIFO: the head hides b */
    TT_CHECK(mem_queue_peek(&q, 5) == &a);
    TT_CHECK(mem_queue_pop(&q) == &a);
    mem_queue_push(&q, &c, 9);                 /* wraps around */
    TT_CHECK(mem_queue_pop(&q) == &b);
    mem_queue_push_grow(&q, &a, 10);
    mem_queue_push_grow(&q, &b, 11);           /* grows: keeps order */
    TT_EQ_U(q.cap, 4);
    TT_CHECK(mem_queue_pop(&q) == &c && mem_queue_pop(&q) == &a && mem_queue_pop(&q) == &b);
    TT_EQ_U(q.pushes, 5);
    mem_queue_free(&q);
}

static void t301_cache_lru(void)
{
    mem_cache c;
    mem_cache_init(&c, 1024, 4, 128);   /* 2 sets of 4 */
    TT_EQ_U(c.sets, 2);
    /* set 0: lines 0, 256, 512, 768; victims are invalid ways first */
    for (uint64_t k = 0; k < 4; k++) {
        uint32_t v = mem_cache_victim(&c, k * 256);
        TT_EQ_U(v, k);
        mem_cache_insert(&c, v, k * 256 + 5);
    }
    TT_EQ_I(mem_cache_find(&c, 256 + 100), 1);
    TT_EQ_I(mem_cache_find(&c, 128), -1);
    mem_cache_touch(&c, 0);                     /* order now 256, 512, 768, 0 */
    TT_EQ_U(mem_cache_victim(&c, 1024), 1);
    mem_cache_set_dirty(&c, 1, true);
    TT_EQ_U(c.ndirty, 1);
    mem_cache_insert(&c, 1, 1024);              /* clean again */
    TT_EQ_U(c.ndirty, 0);
    TT_EQ_U(mem_cache_victim(&c, 0), 2);
    mem_cache_invalidate(&c, 3);
    TT_EQ_U(mem_cache_victim(&c, 0), 3);
    mem_cache_free(&c);
    mem_cache_init(&c, 0, 4, 128);
    TT_CHECK(!mem_cache_enabled(&c));
    TT_EQ_I(mem_cache_find(&c, 0), -1);
    mem_cache_free(&c);
}

static void t302_mshr(void)
{
    mem_mshr m;
    mem_mshr_init(&m, 2, 3);
    int x[4];
    uint32_t a = mem_mshr_alloc(&m, 128);
    TT_EQ_I(mem_mshr_find(&m, 128), a);
    TT_EQ_I(mem_mshr_find(&m, 256), -1);
    for (int k = 0; k < 3; k++) {
        TT_CHECK(mem_mshr_can_add(&m, a));
        mem_mshr_add(&m, a, &x[k]);
    }
    TT_CHECK(!mem_mshr_can_add(&m, a));
    mem_mshr_alloc(&m, 256);
    TT_CHECK(mem_mshr_full(&m));
    TT_CHECK(mem_mshr_take(&m, a) == &x[0] && mem_mshr_take(&m, a) == &x[1]);
    TT_EQ_U(mem_mshr_waiting(&m, a), 1);
    mem_mshr_release(&m, a);
    TT_CHECK(!mem_mshr_full(&m));
    TT_EQ_I(mem_mshr_find(&m, 128), -1);
    mem_mshr_free(&m);
}

/* 302b: find through the hash table (mem/mshr.c) agrees with the plain
** definition -- the valid entry holding the line, else -1 -- under churn:
** 40000 steps of a fixed LCG over tables of 1 to 136 entries and 3x as many
** distinct lines (so runs of the linear probe collide and wrap, and
** releases move later slots back); alloc takes the lowest free entry (its
** bitmap spans words from 65 entries on).  Then a line allocated twice (no owner
** does so) turns the table off: find returns the lower index, as a scan. */
static void t302b_mshr_hash(void)
{
    for (uint32_t n = 1; n <= 136; n += n < 40 ? 3 : 32) {
        mem_mshr m;
        mem_mshr_init(&m, n, 2);
        uint64_t line[136];
        bool used[136] = {false};
        uint32_t x = 12345u + n, bad = 0;
        for (int step = 0; step < 40000; step++) {
            x = x * 1103515245u + 12345u;
            uint64_t a = (uint64_t)((x >> 8) % (3 * n + 1)) * 128;
            int32_t want = -1;
            for (uint32_t i = 0; i < n && want < 0; i++)
                if (used[i] && line[i] == a) want = (int32_t)i;
            bad += mem_mshr_find(&m, a) != want;
            if (want < 0 && !mem_mshr_full(&m) && (x >> 4 & 1)) {
                uint32_t i = mem_mshr_alloc(&m, a), lo = 0;
                while (used[lo]) lo++;
                bad += i != lo;
                used[i] = true;
                line[i] = a;
            } else if (m.used && (x >> 5 & 1)) {
                uint32_t i = (x >> 12) % n;
                while (!used[i]) i = (i + 1) % n;
                mem_mshr_release(&m, i);
                used[i] = false;
            }
        }
        TT_EQ_U(bad, 0);
        TT_CHECK(!m.dup);
        mem_mshr_free(&m);
    }
    mem_mshr m;
    mem_mshr_init(&m, 4, 1);
    TT_EQ_U(mem_mshr_alloc(&m, 512), 0);
    TT_EQ_U(mem_mshr_alloc(&m, 640), 1);
    TT_EQ_U(mem_mshr_alloc(&m, 512), 2);
    TT_CHECK(m.dup);
    TT_EQ_I(mem_mshr_find(&m, 512), 0);
    mem_mshr_release(&m, 0);
    TT_EQ_I(mem_mshr_find(&m, 512), 2);
    TT_EQ_I(mem_mshr_find(&m, 640), 1);
    mem_mshr_free(&m);
}

/* 303: the set indexes of mem/cache.h on the GTX 480 L1D's geometry (32
** sets of 128-byte lines).  Linear: set = line number mod 32, so lines
** 4096 and 8192 bytes apart all fall in set 0.  xor: the line number's
** 5-bit groups XORed: 8192 is line 64 = 0b10'00000 -> set 2; 4096 + 128
** is line 33 = 0b1'00001 -> 1 ^ 1 = set 0.  fermi: line number XOR address
** bits 13, 14, 15, 17, 19 (as bits 0..4), mod 32: 8192 -> 64 ^ 1 -> set 1;
** 3 * 8192 -> 192 ^ 3 -> set 3; bit 17 -> h = 8 -> set 8; bit 19 -> h = 16
** -> set 16; bit 12 alone (4096, line 32) -> h = 0 -> set 0; bit 16 is not
** in the hash (65536, line 512) -> set 0; and 128 + 8192 -> 1 ^ 1 -> set 0. */
static void t303_cache_index(void)
{
    mem_cache c;
    mem_cache_init(&c, 16384, 4, 128);
    TT_EQ_U(c.sets, 32);
    TT_EQ_U(mem_cache_set_of(&c, 4096), 0);
    TT_EQ_U(mem_cache_set_of(&c, 8192), 0);
    TT_EQ_U(mem_cache_set_of(&c, 128 * 5 + 17), 5);
    c.index = MEM_INDEX_XOR;
    TT_EQ_U(mem_cache_set_of(&c, 8192), 2);
    TT_EQ_U(mem_cache_set_of(&c, 4096 + 128), 0);
    TT_EQ_U(mem_cache_set_of(&c, 128 * 5), 5);
    c.index = MEM_INDEX_FERMI;
    TT_EQ_U(mem_cache_set_of(&c, 8192), 1);
    TT_EQ_U(mem_cache_set_of(&c, 3 * 8192), 3);
    TT_EQ_U(mem_cache_set_of(&c, 1u << 17), 8);
    TT_EQ_U(mem_cache_set_of(&c, 1u << 19), 16);
    TT_EQ_U(mem_cache_set_of(&c, 4096), 0);
    TT_EQ_U(mem_cache_set_of(&c, 65536), 0);
    TT_EQ_U(mem_cache_set_of(&c, 8192 + 128), 0);
    TT_EQ_U(mem_cache_set_of(&c, 128 * 5), 5);
    /* a line found and inserted under the index it was put in with */
    uint32_t v = mem_cache_victim(&c, 3 * 8192);
    TT_EQ_U(v / 4, 3);
    mem_cache_insert(&c, v, 3 * 8192);
    TT_EQ_I(mem_cache_find(&c, 3 * 8192 + 64), (int32_t)v);
    /* reserved ways (pend) are never victims; all reserved: none.  Four
    ** lines of set 3 apart in bits 12 and 16, which the hash leaves out (a
    ** line at bit 17 or 19 would be in another set), and a fifth at bit 18 */
    static const uint32_t apart[4] = {0, 1u << 12, 1u << 16, (1u << 16) | (1u << 12)};
    for (uint32_t w = 0; w < 4; w++) {
        TT_EQ_U(mem_cache_set_of(&c, 3 * 8192 + apart[w]), 3);
        mem_cache_insert(&c, 3 * 4 + w, 3 * 8192 + apart[w]);
        mem_cache_at(&c, 3 * 4 + w)->pend = 1;
    }
    TT_EQ_U(mem_cache_set_of(&c, 3 * 8192 + 65536 * 4), 3);
    TT_EQ_U(mem_cache_victim(&c, 3 * 8192 + 65536 * 4), MEM_CACHE_NONE);
    mem_cache_at(&c, 3 * 4 + 2)->pend = 0;
    TT_EQ_U(mem_cache_victim(&c, 3 * 8192 + 65536 * 4), 3 * 4 + 2);
    mem_cache_free(&c);
}

/* ---- the L1 ---- */

/* 401: a hit accessed at 100 is returned at 100 + 35 = 135, not before. */
static void t401_hit_latency(void)
{
    rig g;
    rig_open(&g, true);
    warm(&g, GPU_MS_GLOBAL, BASE, 0);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 64, 7, 100), GPU_L1_HIT);
    TT_EQ_U(gpu_l1_next(g.c), 100 + LAT);
    TT_CHECK(gpu_l1_pop_done(g.c, 100 + LAT - 1) == NULL);
    gpu_mreq *r = gpu_l1_pop_done(g.c, 100 + LAT);
    TT_CHECK(r && r->tag == 7);
    gpu_mreq_put(&g.pool, r);
    TT_CHECK(gpu_l1_idle(g.c));
    TT_EQ_U(gpu_l1_next(g.c), UINT64_MAX);
    const gpu_l1stats *s = gpu_l1_stats(g.c);
    TT_EQ_U(s->accesses, 2);
    TT_EQ_U(s->hits, 1);
    TT_EQ_U(s->misses, 1);
    rig_close(&g);
}

/* 402: a miss puts one whole-line request into the miss queue at once (the
** caller's request stays in the MSHR); 403: a second miss to the line
** merges and sends nothing. */
static void t402_miss_and_merge(void)
{
    rig g;
    rig_open(&g, true);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 4096 + 40, 1, 10), GPU_L1_MISS);
    gpu_mreq *m = gpu_l1_peek_miss(g.c);
    TT_CHECK(m != NULL);
    TT_EQ_U(m->addr, BASE + 4096);
    TT_EQ_U(m->bytes, 128);
    TT_EQ_U(m->kind, GPU_MR_LOAD);
    TT_EQ_U(m->sm, 3);
    TT_EQ_U(m->src, 1);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 4096 + 100, 2, 11), GPU_L1_MERGED);
    TT_CHECK(take_miss(&g) == m);
    TT_CHECK(gpu_l1_peek_miss(g.c) == NULL);   /* the merge sent nothing */
    TT_EQ_U(gpu_l1_stats(g.c)->mshr_merges, 1);
    answer(&g, m, 50);
    TT_EQ_U(drain(&g, 50), 2);
    rig_close(&g);
}

/* 404: one MSHR takes 8 requests (the miss and 7 merges); the 9th is a
** reservation failure, and counted. */
static void t404_merge_limit(void)
{
    rig g;
    rig_open(&g, true);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 0), GPU_L1_MISS);
    for (uint32_t k = 1; k < 8; k++) TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 4 * k, k, k), GPU_L1_MERGED);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 64, 8, 8), GPU_L1_RESFAIL);
    TT_EQ_U(gpu_l1_stats(g.c)->reservation_fails, 1);
    TT_EQ_U(gpu_l1_stats(g.c)->accesses, 8);
    answer(&g, take_miss(&g), 20);
    TT_EQ_U(drain(&g, 20), 8);
    rig_close(&g);
}

/* 405: all 32 MSHRs busy: a 33rd line is refused (counted) until a fill
** frees one.  The mock memory system takes every miss at once, so only the
** MSHRs limit. */
static void t405_mshrs_full(void)
{
    rig g;
    rig_open(&g, true);
    gpu_mreq *sent[32];
    for (uint32_t k = 0; k < 32; k++) {
        TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * k, k, k), GPU_L1_MISS);
        sent[k] = take_miss(&g);
    }
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 32, 32, 40), GPU_L1_RESFAIL);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 32, 32, 41), GPU_L1_RESFAIL);
    TT_EQ_U(gpu_l1_stats(g.c)->reservation_fails, 2);
    /* a request to a line already in flight still merges */
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 8, 99, 42), GPU_L1_MERGED);
    answer(&g, sent[5], 50);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 32, 32, 50), GPU_L1_MISS);
    sent[5] = take_miss(&g);
    for (uint32_t k = 0; k < 32; k++) answer(&g, sent[k], 60);
    TT_EQ_U(drain(&g, 60), 34);
    TT_CHECK(gpu_l1_idle(g.c));
    rig_close(&g);
}

/* 406: a full miss queue (8 entries, nobody taking them) refuses the 9th
** miss. */
static void t406_miss_queue_full(void)
{
    rig g;
    rig_open(&g, true);
    for (uint32_t k = 0; k < 8; k++) TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * k, k, 0), GPU_L1_MISS);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 8, 8, 1), GPU_L1_RESFAIL);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + 128 * 9, 9, 1), GPU_L1_RESFAIL);
    TT_EQ_U(gpu_l1_stats(g.c)->reservation_fails, 2);
    gpu_mreq *m = take_miss(&g);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 8, 8, 2), GPU_L1_MISS);
    answer(&g, m, 3);
    while ((m = take_miss(&g))) answer(&g, m, 3);
    TT_EQ_U(drain(&g, 3), 9);
    rig_close(&g);
}

/* 407: a fill at 500 releases every merged request at 500, in arrival
** order, and nothing before. */
static void t407_fill_releases_all(void)
{
    rig g;
    rig_open(&g, true);
    for (uint32_t k = 0; k < 3; k++) acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 32 * k, 10 + k, k);
    gpu_mreq *m = take_miss(&g);
    TT_CHECK(gpu_l1_pop_done(g.c, 499) == NULL);
    answer(&g, m, 500);
    TT_EQ_U(gpu_l1_next(g.c), 500);
    for (uint32_t k = 0; k < 3; k++) {
        gpu_mreq *r = gpu_l1_pop_done(g.c, 500);
        TT_CHECK(r && r->tag == 10 + k);
        if (r) gpu_mreq_put(&g.pool, r);
    }
    TT_CHECK(gpu_l1_pop_done(g.c, 500) == NULL);
    /* the line is now cached: a hit at 501 is done at 536 */
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 501), GPU_L1_HIT);
    TT_EQ_U(gpu_l1_next(g.c), 501 + LAT);
    drain(&g, 1000);
    rig_close(&g);
}

/* 408: LRU order in one set of 4 ways: lines A B C D brought in in that
** order, A touched again, then E evicts B (the least recently used). */
static void t408_lru_eviction(void)
{
    rig g;
    rig_open(&g, true);
    for (uint64_t k = 0; k < 4; k++) warm(&g, GPU_MS_GLOBAL, BASE + SETSTRIDE * k, 10 * k);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 100), GPU_L1_HIT);           /* A */
    TT_EQ_U(drain(&g, 100 + LAT), 1);
    warm(&g, GPU_MS_GLOBAL, BASE + SETSTRIDE * 4, 200);                                 /* E */
    drain(&g, 1000);
    uint64_t t = 1000;
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 0, 0, t++), GPU_L1_HIT);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 2, 0, t++), GPU_L1_HIT);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 3, 0, t++), GPU_L1_HIT);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 4, 0, t++), GPU_L1_HIT);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 1, 0, t++), GPU_L1_MISS);   /* B is gone */
    answer(&g, take_miss(&g), t);
    drain(&g, 2000);
    rig_close(&g);
}

/* 409: local memory is write-back: stores dirty their lines (done at
** t + 35), a fifth line in the set evicts the least recently used dirty
** one as a 128-byte store through the miss queue; a fill can evict a dirty
** line too, into the room kept for it. */
static void t409_local_writeback(void)
{
    rig g;
    rig_open(&g, true);
    uint64_t L = 0x100100000000ull;
    for (uint64_t k = 0; k < 4; k++) TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_LOCAL, L + SETSTRIDE * k, k, k), GPU_L1_HIT);
    TT_CHECK(gpu_l1_peek_miss(g.c) == NULL);            /* absorbed: nothing goes down */
    TT_EQ_U(gpu_l1_next(g.c), LAT);
    TT_EQ_U(drain(&g, 3 + LAT), 4);
    TT_EQ_U(gpu_l1_stats(g.c)->misses, 4);              /* allocated, not found */
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_LOCAL, L + SETSTRIDE * 0 + 8, 9, 50), GPU_L1_HIT);   /* line 0 now MRU */
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_LOCAL, L + SETSTRIDE * 4, 10, 51), GPU_L1_HIT);      /* evicts line 1 */
    gpu_mreq *w = take_miss(&g);
    TT_CHECK(w != NULL);
    if (w) {
        TT_EQ_U(w->kind, GPU_MR_STORE);
        TT_EQ_U(w->addr, L + SETSTRIDE * 1);
        TT_EQ_U(w->bytes, 128);
        TT_EQ_U(w->space, GPU_MS_LOCAL);
        gpu_mreq_put(&g.pool, w);
    }
    TT_EQ_U(gpu_l1_stats(g.c)->writebacks, 1);
    /* a local load of a sixth line misses; its fill evicts line 2 (dirty) */
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_LOCAL, L + SETSTRIDE * 5, 11, 60), GPU_L1_MISS);
    answer(&g, take_miss(&g), 70);
    w = take_miss(&g);
    TT_CHECK(w && w->kind == GPU_MR_STORE && w->addr == L + SETSTRIDE * 2);
    if (w) gpu_mreq_put(&g.pool, w);
    TT_EQ_U(gpu_l1_stats(g.c)->writebacks, 2);
    TT_EQ_U(drain(&g, 1000), 3);
    /* invalidation drops dirty lines without writing them back */
    gpu_l1_invalidate(g.c);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_LOCAL, L + SETSTRIDE * 6, 12, 1000), GPU_L1_HIT);
    TT_CHECK(gpu_l1_peek_miss(g.c) == NULL);
    drain(&g, 2000);
    rig_close(&g);
}

/* 410: global stores write through without allocating: the request itself
** goes down (SENT), a later load of that line misses; a store that hits
** keeps the line. */
static void t410_global_store(void)
{
    rig g;
    rig_open(&g, true);
    gpu_mreq *s = mk(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + 4096, 1);
    TT_EQ_U(gpu_l1_access(g.c, s, 5), GPU_L1_SENT);
    TT_CHECK(take_miss(&g) == s);
    gpu_mreq_put(&g.pool, s);   /* what the L2 does with a store that wants no ack */
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 4096, 2, 6), GPU_L1_MISS);
    answer(&g, take_miss(&g), 7);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + 4096, 3, 8), GPU_L1_SENT);
    gpu_mreq_put(&g.pool, take_miss(&g));
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 4096, 4, 9), GPU_L1_HIT);
    const gpu_l1stats *st = gpu_l1_stats(g.c);
    TT_EQ_U(st->stores, 2);
    TT_EQ_U(st->hits, 2);       /* the second store and the last load */
    TT_EQ_U(st->writebacks, 0);
    TT_EQ_U(drain(&g, 100), 2);
    /* a store that wants an ack comes back through fill at the fill cycle */
    s = mk(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE, 5);
    s->want_ack = 1;
    TT_EQ_U(gpu_l1_access(g.c, s, 200), GPU_L1_SENT);
    answer(&g, take_miss(&g), 300);
    TT_CHECK(gpu_l1_pop_done(g.c, 299) == NULL);
    TT_CHECK(gpu_l1_pop_done(g.c, 300) == s);
    gpu_mreq_put(&g.pool, s);
    rig_close(&g);
}

/* 411: atomics bypass the tags: sent down themselves even when the line is
** cached, answered at the fill cycle, and the line stays. */
static void t411_atomic_bypass(void)
{
    rig g;
    rig_open(&g, true);
    warm(&g, GPU_MS_GLOBAL, BASE, 0);
    gpu_mreq *a = mk(&g, GPU_MR_ATOMIC, GPU_MS_GLOBAL, BASE + 12, 6);
    a->bytes = 4;
    TT_EQ_U(gpu_l1_access(g.c, a, 10), GPU_L1_SENT);
    TT_CHECK(take_miss(&g) == a);
    answer(&g, a, 400);
    TT_CHECK(gpu_l1_pop_done(g.c, 399) == NULL);
    TT_CHECK(gpu_l1_pop_done(g.c, 400) == a);
    gpu_mreq_put(&g.pool, a);
    TT_EQ_U(gpu_l1_stats(g.c)->atomics, 1);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 401), GPU_L1_HIT);
    drain(&g, 1000);
    rig_close(&g);
}

/* 412: without cache_global, global loads use MSHRs (and merge) but do not
** allocate; local loads still do. */
static void t412_no_global_caching(void)
{
    rig g;
    rig_open(&g, false);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 0), GPU_L1_MISS);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 4, 1, 1), GPU_L1_MERGED);
    answer(&g, take_miss(&g), 10);
    TT_EQ_U(drain(&g, 10), 2);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 2, 11), GPU_L1_MISS);
    answer(&g, take_miss(&g), 12);
    TT_EQ_U(gpu_l1_stats(g.c)->bypass_loads, 3);
    TT_EQ_U(drain(&g, 12), 1);
    warm(&g, GPU_MS_LOCAL, 0x100100000000ull, 20);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_LOCAL, 0x100100000000ull, 3, 30), GPU_L1_HIT);
    drain(&g, 100);
    rig_close(&g);
}

/* 413: the constant cache is the same unit with l1c.* (8 KB, 2 ways,
** 64-byte lines, 8 cycles, 2 MSHRs of 32): a third distinct line in flight
** is refused, a 64-byte-line request is sent for a miss. */
static void t413_constant_cache(void)
{
    tp_opts o;
    gpu_opts_init(&o);
    gpu_l1cfg cfg;
    gpu_l1_cfg_l1c(&o, &cfg);
    tp_opts_free(&o);
    TT_EQ_U(cfg.size, 8192);
    TT_EQ_U(cfg.line, 64);
    gpu_mreq_pool pool;
    gpu_mreq_pool_init(&pool);
    gpu_l1 *c = gpu_l1_new(&cfg, &pool);
    gpu_mreq *m[2];
    for (int k = 0; k < 2; k++) {
        gpu_mreq *r = gpu_mreq_get(&pool);
        r->kind = GPU_MR_LOAD;
        r->space = GPU_MS_CONST;
        r->addr = BASE + 64 * (uint64_t)k + 4;
        TT_EQ_U(gpu_l1_access(c, r, 0), GPU_L1_MISS);
        m[k] = gpu_l1_peek_miss(c);
        gpu_l1_pop_miss(c);
        TT_EQ_U(m[k]->bytes, 64);
        TT_EQ_U(m[k]->addr, BASE + 64 * (uint64_t)k);
    }
    gpu_mreq *r = gpu_mreq_get(&pool);
    r->kind = GPU_MR_LOAD;
    r->space = GPU_MS_CONST;
    r->addr = BASE + 128;
    TT_EQ_U(gpu_l1_access(c, r, 1), GPU_L1_RESFAIL);
    gpu_l1_fill(c, m[0], 20);
    gpu_l1_fill(c, m[1], 20);
    TT_EQ_U(gpu_l1_access(c, r, 21), GPU_L1_MISS);
    gpu_mreq *third = gpu_l1_peek_miss(c);
    gpu_l1_pop_miss(c);
    gpu_l1_fill(c, third, 22);
    gpu_mreq *d;
    uint32_t n = 0;
    while ((d = gpu_l1_pop_done(c, 22))) {
        gpu_mreq_put(&pool, d);
        n++;
    }
    TT_EQ_U(n, 3);
    TT_EQ_U(pool.live, 0);
    gpu_l1_free(c);
    gpu_mreq_pool_free(&pool);
}

/* 414: with the lookup pipeline (l1d.miss_latency = 35, the default) a miss
** at t is in the miss queue at t + 35, not before; misses in flight in the
** pipeline do not take miss-queue entries: 12 misses on consecutive cycles
** are all accepted although the queue holds 8, and leave 35 cycles after
** their accesses, one per cycle. */
static void t414_miss_latency(void)
{
    rig g;
    rig_open(&g, true);
    gpu_l1_free(g.c);
    g.cfg.miss_latency = 35;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    for (uint32_t k = 0; k < 12; k++) TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * k, k, 100 + k), GPU_L1_MISS);
    TT_CHECK(gpu_l1_peek_miss_at(g.c, 134) == NULL);
    TT_EQ_U(gpu_l1_next(g.c), 135);
    for (uint32_t k = 0; k < 12; k++) {
        gpu_mreq *m = gpu_l1_peek_miss_at(g.c, 135 + k);
        TT_CHECK(m != NULL);
        if (!m) break;
        TT_EQ_U(m->addr, BASE + 128 * k);
        gpu_l1_pop_miss(g.c);
        TT_CHECK(gpu_l1_peek_miss_at(g.c, 135 + k) == NULL); /* the next one is a cycle behind */
        answer(&g, m, 300);
    }
    TT_EQ_U(drain(&g, 300), 12);
    rig_close(&g);
}

/* 415: a banked L1D (l1d.banks = 8, l1d.miss_ports = 1), WarpPool's
** banked baseline.  Line n is in bank n mod 8.  In one cycle the caller may
** access distinct banks: three warm lines (banks 0, 1, 2) hit in the same
** cycle 100 and all come out at 100 + 35.  Only one access per cycle enters
** the miss path: of two misses in cycle 101 (banks 3, 4) the second is
** refused with BUSY (not a reservation failure) and accepted in cycle 102;
** a global store (write-through: the miss path) in cycle 102 after that
** miss is BUSY too, and a merge into a waiting MSHR needs no miss port.
** With one bank nothing is counted: two misses in one cycle are both
** accepted (one access per cycle is the caller's rule). */
static void t415_banked(void)
{
    rig g;
    rig_open(&g, true);
    gpu_l1_free(g.c);
    g.cfg.banks = 8;
    g.cfg.miss_ports = 1;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    TT_EQ_U(gpu_l1_bank(&g.cfg, BASE + 128 * 13 + 5), 5);
    for (uint64_t k = 0; k < 3; k++) warm(&g, GPU_MS_GLOBAL, BASE + 128 * k, 10 + 2 * k);
    for (uint32_t k = 0; k < 3; k++) TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * k, k, 100), GPU_L1_HIT);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 3, 3, 101), GPU_L1_MISS);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 4, 4, 101), GPU_L1_BUSY);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 3, 5, 101), GPU_L1_MERGED); /* no port needed */
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 4, 4, 102), GPU_L1_MISS);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + 128 * 6, 6, 102), GPU_L1_BUSY);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + 128 * 6, 6, 103), GPU_L1_SENT);
    TT_EQ_U(drain(&g, 100 + LAT - 1), 0);
    TT_EQ_U(drain(&g, 100 + LAT), 3);
    const gpu_l1stats *s = gpu_l1_stats(g.c);
    TT_EQ_U(s->port_busy, 2);
    TT_EQ_U(s->reservation_fails, 0);
    /* the three warm-ups and the two line misses left through the miss queue; the store too */
    uint32_t n = 0;
    gpu_mreq *m;
    while ((m = take_miss(&g))) {
        if (m->kind == GPU_MR_LOAD) answer(&g, m, 200);
        else gpu_mreq_put(&g.pool, m);
        n++;
    }
    TT_EQ_U(n, 3);
    TT_EQ_U(drain(&g, 200), 3); /* tags 3, 5 and 4 */
    rig_close(&g);
    /* one bank: no port counting */
    rig_open(&g, true);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 100), GPU_L1_MISS);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128, 1, 100), GPU_L1_MISS);
    TT_EQ_U(gpu_l1_stats(g.c)->port_busy, 0);
    while ((m = take_miss(&g))) answer(&g, m, 101);
    TT_EQ_U(drain(&g, 101), 2);
    rig_close(&g);
}

static gpu_l1res acc_s(rig *g, uint64_t addr, uint32_t bytes, uint32_t tag, uint64_t now)
{
    gpu_mreq *r = mk(g, GPU_MR_LOAD, GPU_MS_GLOBAL, addr, tag);
    r->sectors = gpu_sectors_of(addr, bytes);
    gpu_l1res res = gpu_l1_access(g->c, r, now);
    if (res == GPU_L1_RESFAIL) gpu_mreq_put(&g->pool, r);
    return res;
}

/* 416: the Fermi index (the table's default, l1d.set_index = fermi) spreads
** lines 8192 bytes apart over sets 0..4 (t303), where the linear index puts
** them all in set 0.  Five such lines, each a miss answered at once (t, t+1),
** then loads of all five at 100..104: linear, the fifth evicted the first
** (LRU), so line 0 misses; fermi, all five hit, ready at 100 + 35 = 135 ..
** 104 + 35 = 139. */
static void t416_fermi_index(void)
{
    for (int fermi = 0; fermi < 2; fermi++) {
        rig g;
        tp_opts o;
        gpu_opts_init(&o);
        gpu_l1_cfg_l1d(&o, &g.cfg);
        tp_opts_free(&o);
        TT_EQ_U(g.cfg.set_index, MEM_INDEX_FERMI);   /* the table's default */
        rig_open(&g, true);
        if (fermi) {
            gpu_l1_free(g.c);
            g.cfg.set_index = MEM_INDEX_FERMI;
            g.c = gpu_l1_new(&g.cfg, &g.pool);
        }
        for (uint64_t k = 0; k < 5; k++) warm(&g, GPU_MS_GLOBAL, BASE + 8192 * k, 10 * k);
        TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 9, 100), fermi ? GPU_L1_HIT : GPU_L1_MISS);
        for (uint64_t k = 1; k < 5; k++)
            TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 8192 * k, 9, 100 + k), GPU_L1_HIT);
        if (fermi) {
            TT_CHECK(gpu_l1_pop_done(g.c, 134) == NULL);
            TT_EQ_U(drain(&g, 135), 1);
            TT_EQ_U(drain(&g, 139), 4);
        } else {
            answer(&g, take_miss(&g), 110);
            TT_EQ_U(drain(&g, 1000), 5);
        }
        rig_close(&g);
    }
}

/* 417: sectors (l1d.sectored).  BASE is 512-byte aligned, so the line at
** BASE has sectors 0..3 = bytes 0-31, 32-63, 64-95, 96-127.
**   10: 4 bytes at +40 (sector 1) miss: one request of 32 bytes, sectors
**       bit 1; answered at 20, released at 20.
**   30: +44 (sector 1) hits, ready 30 + 35 = 65.
**   31: +64 (sector 2): the line is present without it: a sector miss, a
**       32-byte request for sector 2 (bit 2).
**   32: 64 bytes at +64 (sectors 2, 3) join that MSHR and send one more
**       request, for sector 3 only (bit 3).
**   40: sector 3 answered: nothing released (both wait for sector 2).
**   50: sector 2 answered: both released at 50, the MSHR freed.
**   60: a whole-line load (sectors 0: every sector) misses sector 0 alone. */
static void t417_sectored(void)
{
    rig g;
    rig_open(&g, true);
    gpu_l1_free(g.c);
    g.cfg.sectored = true;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    TT_EQ_U(acc_s(&g, BASE + 40, 4, 1, 10), GPU_L1_MISS);
    gpu_mreq *m = take_miss(&g);
    TT_CHECK(m && m->bytes == 32 && m->sectors == 2 && m->addr == BASE);
    answer(&g, m, 20);
    TT_EQ_U(drain(&g, 20), 1);
    TT_EQ_U(acc_s(&g, BASE + 44, 4, 2, 30), GPU_L1_HIT);
    TT_EQ_U(acc_s(&g, BASE + 64, 4, 3, 31), GPU_L1_MISS);
    gpu_mreq *m2 = take_miss(&g);
    TT_CHECK(m2 && m2->bytes == 32 && m2->sectors == 4);
    TT_EQ_U(acc_s(&g, BASE + 64, 64, 4, 32), GPU_L1_MERGED);
    gpu_mreq *m3 = take_miss(&g);
    TT_CHECK(m3 && m3->bytes == 32 && m3->sectors == 8 && m3->tag == m2->tag);
    answer(&g, m3, 40);
    TT_CHECK(gpu_l1_pop_done(g.c, 40) == NULL);
    answer(&g, m2, 50);
    TT_EQ_U(drain(&g, 64), 2);                    /* the two released at 50 */
    TT_EQ_U(drain(&g, 65), 1);                    /* the hit of 30 */
    TT_CHECK(gpu_l1_idle(g.c));
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 5, 60), GPU_L1_MISS);
    gpu_mreq *m4 = take_miss(&g);
    TT_CHECK(m4 && m4->bytes == 32 && m4->sectors == 1);
    answer(&g, m4, 70);
    TT_EQ_U(drain(&g, 70), 1);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 6, 80), GPU_L1_HIT);
    TT_EQ_U(drain(&g, 80 + LAT), 1);
    const gpu_l1stats *s = gpu_l1_stats(g.c);
    TT_EQ_U(s->sector_misses, 3);                 /* at 31, 32 and 60 */
    TT_EQ_U(s->hits, 2);
    TT_EQ_U(s->misses, 4);
    rig_close(&g);
}

/* 418: allocate on miss (l1d.alloc = miss, GPGPU-Sim's `m`).  Set 0 has 4
** ways (linear index: lines SETSTRIDE apart).
**   0..3: misses to lines 0..3 each take (reserve) a way at once.
**   4:    line 4 misses in a set whose ways are all reserved: refused
**         (alloc_fails 1); allocate-on-fill would have taken it.
**   10:   line 0 is filled: released at 10, its way no longer reserved.
**   11:   line 4 misses again and takes line 0's way (the only one not
**         reserved; clean, nothing written back).
**   12:   line 0 misses, every way reserved again: refused (alloc_fails 2).
**   20:   lines 1..4 filled: four released at 20.
**   21:   line 0 misses and evicts line 1, the least recent (ways are
**         stamped at their miss: fills do not touch them); 22: line 2
**         hits (ready 22 + 35 = 57), 23: line 1 misses.
** Then local stores fill set 0 dirty (absorbed), and a local load miss of
** a fifth line evicts the LRU dirty line at the miss: its write-back enters
** the miss queue before the load's request. */
static void t418_alloc_on_miss(void)
{
    rig g;
    rig_open(&g, true);
    gpu_l1_free(g.c);
    g.cfg.alloc_on_miss = true;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    gpu_mreq *m[5];
    for (uint64_t k = 0; k < 4; k++) {
        TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * k, (uint32_t)k, k), GPU_L1_MISS);
        m[k] = take_miss(&g);
    }
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 4, 4, 4), GPU_L1_RESFAIL);
    TT_EQ_U(gpu_l1_stats(g.c)->alloc_fails, 1);
    TT_EQ_U(gpu_l1_stats(g.c)->reservation_fails, 1);
    TT_CHECK(gpu_l1_peek_miss(g.c) == NULL);
    answer(&g, m[0], 10);
    TT_EQ_U(drain(&g, 10), 1);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 4, 4, 11), GPU_L1_MISS);
    m[4] = take_miss(&g);
    TT_CHECK(m[4] && m[4]->kind == GPU_MR_LOAD && m[4]->addr == BASE + SETSTRIDE * 4 && m[4]->bytes == 128);
    TT_CHECK(gpu_l1_peek_miss(g.c) == NULL);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 12), GPU_L1_RESFAIL);
    TT_EQ_U(gpu_l1_stats(g.c)->alloc_fails, 2);
    for (uint32_t k = 1; k < 5; k++) answer(&g, m[k], 20);
    TT_EQ_U(drain(&g, 20), 4);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 0, 21), GPU_L1_MISS);
    m[0] = take_miss(&g);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 2, 2, 22), GPU_L1_HIT);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + SETSTRIDE * 1, 1, 23), GPU_L1_MISS);
    m[1] = take_miss(&g);
    answer(&g, m[0], 30);
    answer(&g, m[1], 30);
    TT_EQ_U(drain(&g, 56), 2);
    TT_EQ_U(drain(&g, 57), 1);
    TT_EQ_U(gpu_l1_stats(g.c)->writebacks, 0);
    /* dirty lines: local stores to four lines of set 1, then a local load */
    uint64_t L = 0x100100000000ull + 128;
    for (uint64_t k = 0; k < 4; k++)
        TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_LOCAL, L + SETSTRIDE * k, 0, 100 + k), GPU_L1_HIT);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_LOCAL, L + SETSTRIDE * 4, 9, 110), GPU_L1_MISS);
    gpu_mreq *w = take_miss(&g), *q = take_miss(&g);
    TT_CHECK(w && w->kind == GPU_MR_STORE && w->addr == L && w->bytes == 128);
    TT_CHECK(q && q->kind == GPU_MR_LOAD && q->addr == L + SETSTRIDE * 4);
    if (w) gpu_mreq_put(&g.pool, w);
    TT_EQ_U(gpu_l1_stats(g.c)->writebacks, 1);
    answer(&g, q, 120);
    TT_EQ_U(drain(&g, 1000), 5);
    TT_CHECK(gpu_l1_idle(g.c));
    rig_close(&g);
}

/* 419: Fermi's global stores (l1d.store_hit = evict, the table's default:
** the PTX ISA's "global stores bypass L1, and discard any L1 lines that
** match").  A line brought in at 0-1 is hit by a store at 10: the store is
** written through (SENT, into the miss queue at 10) and counted a hit, and
** the line is gone, so a load at 11 misses (a new MSHR) where with `keep`
** (t410) it hits.  A store to a line whose fill is still on its way (an
** allocate-on-miss reservation, pend set) leaves the line: its fill lands
** at 30 and the load at 31 hits.  A local store is written back in the
** line either way (t409), and a store to an absent line evicts nothing. */
static void t419_store_evict(void)
{
    rig g;
    rig_open(&g, true);
    TT_CHECK(g.cfg.store_evict == false);
    gpu_l1_free(g.c);
    {
        tp_opts o;
        gpu_opts_init(&o);
        gpu_l1cfg d;
        gpu_l1_cfg_l1d(&o, &d);
        tp_opts_free(&o);
        TT_CHECK(d.store_evict);   /* the option table's default: evict */
    }
    g.cfg.store_evict = true;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    warm(&g, GPU_MS_GLOBAL, BASE, 0);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + 8, 1, 10), GPU_L1_SENT);
    gpu_mreq_put(&g.pool, take_miss(&g));
    TT_EQ_U(gpu_l1_stats(g.c)->hits, 1);
    TT_EQ_U(gpu_l1_stats(g.c)->store_evictions, 1);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 2, 11), GPU_L1_MISS);
    TT_EQ_U(gpu_l1_stats(g.c)->misses, 2);
    answer(&g, take_miss(&g), 12);
    TT_EQ_U(drain(&g, 100), 1);
    /* a store to an absent line: a miss, nothing evicted */
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + SETSTRIDE, 3, 101), GPU_L1_SENT);
    gpu_mreq_put(&g.pool, take_miss(&g));
    TT_EQ_U(gpu_l1_stats(g.c)->store_evictions, 1);
    rig_close(&g);

    /* allocate on miss: the line is reserved at the miss (20) and the store
    ** at 21 finds it pending: it stays, and the fill at 30 makes it valid */
    rig_open(&g, true);
    gpu_l1_free(g.c);
    g.cfg.store_evict = true;
    g.cfg.alloc_on_miss = true;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 4, 20), GPU_L1_MISS);
    gpu_mreq *m = take_miss(&g);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE, 5, 21), GPU_L1_SENT);
    gpu_mreq_put(&g.pool, take_miss(&g));
    TT_EQ_U(gpu_l1_stats(g.c)->store_evictions, 0);
    answer(&g, m, 30);
    TT_EQ_U(drain(&g, 30), 1);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 6, 31), GPU_L1_HIT);
    TT_EQ_U(drain(&g, 31 + LAT), 1);
    /* a local store hitting a line is written back there, not evicted */
    warm(&g, GPU_MS_LOCAL, BASE + 2 * SETSTRIDE, 40);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_LOCAL, BASE + 2 * SETSTRIDE, 7, 50), GPU_L1_HIT);
    TT_EQ_U(drain(&g, 50 + LAT), 1);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_LOCAL, BASE + 2 * SETSTRIDE, 8, 100), GPU_L1_HIT);
    TT_EQ_U(drain(&g, 100 + LAT), 1);
    TT_EQ_U(gpu_l1_stats(g.c)->store_evictions, 0);
    rig_close(&g);
}

/* The L1D configuration of the option table with one option set. */
static gpu_l1cfg cfg_with(const char *name, const char *value)
{
    tp_opts o;
    tp_err e;
    gpu_opts_init(&o);
    TT_CHECK(tp_opts_set(&o, name, value, TP_SRC_OVERRIDE, &e));
    gpu_l1cfg d;
    gpu_l1_cfg_l1d(&o, &d);
    tp_opts_free(&o);
    return d;
}

/* gpu_l1_cycle in every cycle from `from` to `to`. */
static void cyc(rig *g, uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t <= to; t++) gpu_l1_cycle(g->c, t);
}

/* 420: the lookup queue (l1d.lookup=queue, GPGPU-Sim 4.2's L1 latency
** queue), here 4 stages and one MSHR.  The option table's default is the
** lookup at the access; "queue" turns it on.  Load A (line 0) accessed at
** 10 is looked up at 10 + 4 = 14: a miss, its request in the miss queue
** from 15.  B (line 1, accessed 11) is due at 15 and refused there (the one
** MSHR is A's), and again each cycle to 19: five reservation failures; it
** holds the queue, so A2 (line 0 again, accessed 12, due 16), which would
** merge, waits behind it.  A's fill at 20 frees the MSHR: B is looked up at
** 20 (a miss), A2 at 21, the cycle after, and hits (the line came with the
** fill): done at 21, with no hit latency after the lookup.  C (line 2,
** accessed 22, due 26) is refused (B holds the MSHR); three more accesses
** (23-25) fill the queue's four stages, and the one at 26 is refused BUSY
** (port_busy, not a reservation failure).  B's fill at 40: C looked up at
** 40, the three behind it at 41, 42, 43, one a cycle.  A local store
** absorbed at its lookup is acknowledged there (is_reply) when it wants an
** ack; a global store is in the miss queue the cycle after its lookup. */
static void t420_lookup_queue(void)
{
    rig g;
    rig_open(&g, true);
    TT_CHECK(!g.cfg.lookup_queue);   /* the table's default: at the access */
    TT_CHECK(cfg_with("l1d.lookup", "queue").lookup_queue);
    gpu_l1_free(g.c);
    g.cfg.lookup_queue = true;
    g.cfg.latency = 4;
    g.cfg.mshrs = 1;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    const gpu_l1stats *s = gpu_l1_stats(g.c);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 1, 10), GPU_L1_QUEUED);
    TT_CHECK(!gpu_l1_idle(g.c));
    TT_EQ_U(gpu_l1_next_inside(g.c), 14);
    TT_CHECK(!gpu_l1_cycle(g.c, 13));
    TT_EQ_U(s->accesses, 0);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128, 2, 11), GPU_L1_QUEUED);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 64, 3, 12), GPU_L1_QUEUED);
    TT_CHECK(gpu_l1_cycle(g.c, 14));
    TT_EQ_U(s->misses, 1);
    TT_CHECK(gpu_l1_peek_miss_at(g.c, 14) == NULL);
    gpu_mreq *ma = gpu_l1_peek_miss_at(g.c, 15);
    TT_CHECK(ma && ma->addr == BASE);
    gpu_l1_pop_miss(g.c);
    cyc(&g, 15, 19);
    TT_EQ_U(s->reservation_fails, 5);
    TT_EQ_U(s->accesses, 1);
    TT_EQ_U(gpu_l1_next_inside(g.c), 15);   /* a due head: the caller ticks every cycle */
    answer(&g, ma, 20);
    TT_CHECK(gpu_l1_cycle(g.c, 20));
    TT_EQ_U(drain(&g, 20), 1);                 /* A, released by its fill */
    TT_EQ_U(s->misses, 2);
    gpu_mreq *mb = gpu_l1_peek_miss_at(g.c, 21);
    TT_CHECK(mb && mb->addr == BASE + 128);
    gpu_l1_pop_miss(g.c);
    TT_EQ_U(gpu_l1_next_inside(g.c), 21);
    TT_CHECK(gpu_l1_cycle(g.c, 21));
    gpu_mreq *r = gpu_l1_pop_done(g.c, 21);
    TT_CHECK(r && r->tag == 3);
    if (r) gpu_mreq_put(&g.pool, r);
    TT_EQ_U(s->hits, 1);
    /* C behind B's MSHR; the queue fills */
    for (uint32_t k = 0; k < 4; k++) TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * (2 + k), 10 + k, 22 + k), GPU_L1_QUEUED);
    cyc(&g, 22, 26);
    TT_EQ_U(s->reservation_fails, 6);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128 * 6, 14, 26), GPU_L1_BUSY);
    TT_EQ_U(s->port_busy, 1);
    cyc(&g, 27, 39);
    TT_EQ_U(s->reservation_fails, 19);
    answer(&g, mb, 40);
    TT_EQ_U(drain(&g, 40), 1);
    for (uint64_t t = 40; t <= 43; t++) {
        TT_CHECK(gpu_l1_cycle(g.c, t));
        TT_EQ_U(s->accesses, 3 + (t - 40) + 1);
        gpu_mreq *m = gpu_l1_peek_miss(g.c);
        TT_CHECK(m && m->addr == BASE + 128 * (2 + (t - 40)));
        TT_CHECK(gpu_l1_peek_miss_at(g.c, t) == NULL);
        if (m) {
            gpu_l1_pop_miss(g.c);
            answer(&g, m, t + 1);   /* frees the MSHR for the next one */
            TT_EQ_U(drain(&g, t + 1), 1);
        }
    }
    TT_EQ_U(s->reservation_fails, 19);
    TT_EQ_U(gpu_l1_next_inside(g.c), UINT64_MAX);
    /* stores: a local one absorbed and acknowledged at its lookup, a global one passed on */
    gpu_mreq *st = mk(&g, GPU_MR_STORE, GPU_MS_LOCAL, BASE + 128 * 20, 30);
    st->want_ack = 1;
    TT_EQ_U(gpu_l1_access(g.c, st, 50), GPU_L1_QUEUED);
    TT_EQ_U(acc(&g, GPU_MR_STORE, GPU_MS_GLOBAL, BASE + 128 * 21, 31, 50), GPU_L1_QUEUED);
    cyc(&g, 51, 54);
    r = gpu_l1_pop_done(g.c, 54);
    TT_CHECK(r == st && r->is_reply);
    if (r) gpu_mreq_put(&g.pool, r);
    TT_CHECK(gpu_l1_peek_miss(g.c) == NULL);
    TT_CHECK(gpu_l1_cycle(g.c, 55));
    TT_CHECK(gpu_l1_peek_miss_at(g.c, 55) == NULL);
    gpu_mreq *gs = gpu_l1_peek_miss_at(g.c, 56);
    TT_CHECK(gs && gs->tag == 31);
    gpu_l1_pop_miss(g.c);
    gpu_mreq_put(&g.pool, gs);
    TT_CHECK(gpu_l1_idle(g.c));
    rig_close(&g);
}

/* 421: draining MSHRs (l1d.release=drain, GPGPU-Sim's mshr_table), two
** MSHRs.  Line A's miss at 10 takes one, two more loads of A (11, 12)
** merge, line B's miss at 13 takes the other, and C at 14 is refused (the
** table is full).  A's fill at 20 releases nothing in its cycle; its loads
** leave one a cycle from 21 (21, 22, 23).  B's fill at 21 queues behind A:
** its load leaves at 24.  A load of A at 21 hits (the fill installed the
** line), but C is refused again at 21: A's MSHR is taken until its last
** load has left at 23, and C is accepted in that cycle. */
static void t421_release_drain(void)
{
    rig g;
    rig_open(&g, true);
    TT_CHECK(!g.cfg.release_drain);   /* the table's default: at the fill */
    TT_CHECK(cfg_with("l1d.release", "drain").release_drain);
    gpu_l1_free(g.c);
    g.cfg.release_drain = true;
    g.cfg.mshrs = 2;
    g.c = gpu_l1_new(&g.cfg, &g.pool);
    const gpu_l1stats *s = gpu_l1_stats(g.c);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE, 1, 10), GPU_L1_MISS);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 8, 2, 11), GPU_L1_MERGED);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 16, 3, 12), GPU_L1_MERGED);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 128, 4, 13), GPU_L1_MISS);
    TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 256, 5, 14), GPU_L1_RESFAIL);
    gpu_mreq *ma = take_miss(&g), *mb = take_miss(&g);
    TT_CHECK(ma && mb);
    answer(&g, ma, 20);
    TT_CHECK(!gpu_l1_cycle(g.c, 20));
    TT_CHECK(gpu_l1_pop_done(g.c, 20) == NULL);
    TT_EQ_U(gpu_l1_next_inside(g.c), 21);
    answer(&g, mb, 21);
    uint32_t want[4] = {1, 2, 3, 4};
    for (uint64_t t = 21; t <= 24; t++) {
        TT_CHECK(gpu_l1_cycle(g.c, t));
        gpu_mreq *r = gpu_l1_pop_done(g.c, t);
        TT_CHECK(r && r->tag == want[t - 21]);
        if (r) gpu_mreq_put(&g.pool, r);
        TT_CHECK(gpu_l1_pop_done(g.c, t) == NULL);   /* one a cycle */
        if (t == 21) {
            TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 32, 6, 21), GPU_L1_HIT);
            TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 256, 5, 21), GPU_L1_RESFAIL);
        }
        if (t == 22) TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 256, 5, 22), GPU_L1_RESFAIL);
        if (t == 23) TT_EQ_U(acc(&g, GPU_MR_LOAD, GPU_MS_GLOBAL, BASE + 256, 5, 23), GPU_L1_MISS);
    }
    TT_EQ_U(s->reservation_fails, 3);
    TT_CHECK(!gpu_l1_cycle(g.c, 25));
    TT_EQ_U(drain(&g, 21 + LAT), 1);              /* the hit of 21 */
    gpu_mreq *mc = take_miss(&g);
    TT_CHECK(mc && mc->addr == BASE + 256);
    answer(&g, mc, 100);
    TT_CHECK(gpu_l1_cycle(g.c, 101));
    TT_EQ_U(drain(&g, 101), 1);
    TT_CHECK(gpu_l1_idle(g.c));
    rig_close(&g);
}

int main(void)
{
    TT_RUN(t300_queue);
    TT_RUN(t301_cache_lru);
    TT_RUN(t302_mshr);
    TT_RUN(t302b_mshr_hash);
    TT_RUN(t303_cache_index);
    TT_RUN(t401_hit_latency);
    TT_RUN(t402_miss_and_merge);
    TT_RUN(t404_merge_limit);
    TT_RUN(t405_mshrs_full);
    TT_RUN(t406_miss_queue_full);
    TT_RUN(t407_fill_releases_all);
    TT_RUN(t408_lru_eviction);
    TT_RUN(t409_local_writeback);
    TT_RUN(t410_global_store);
    TT_RUN(t411_atomic_bypass);
    TT_RUN(t412_no_global_caching);
    TT_RUN(t413_constant_cache);
    TT_RUN(t414_miss_latency);
    TT_RUN(t415_banked);
    TT_RUN(t416_fermi_index);
    TT_RUN(t417_sectored);
    TT_RUN(t418_alloc_on_miss);
    TT_RUN(t419_store_evict);
    TT_RUN(t420_lookup_queue);
    TT_RUN(t421_release_drain);
    return tt_done();
}
