/* test_mem_l2.c -- one L2 slice (gpu/l2.c) between a mock interconnect and
** a mock DRAM channel, exact to the cycle.  Configuration: the GTX 480
** slice of gpu/mem_options.def: 64 KB, 8 ways, 128-byte lines -> 64 sets
** (lines 64 * 128 = 8192 bytes apart share a set); ROP latency 120; 32
** MSHRs of 4 requests; queues of 8.  Period 1 (time = L2 cycles); one
** channel with one slice, so the slice-local address is the address.
** Unsectored with no atomic unit (GPGPU-Sim 3.2.2), but for t607 (sectors,
** 64-byte DRAM atoms) and t608 (the atomic unit).
**
** Timing rules of l2.h used below: a request seen in `in` at cycle a enters
** the ROP pipe at a and is looked up at a + 120; a reply pushed at cycle c
** is ready at c + 1; a DRAM request pushed into `miss` at c is ready at
** c + 1; a fill ready at f is taken at f and releases its requests at f. */
#include "tests/unit/tt.h"
#include "gpu/l2.h"

enum { ROP = 120, SETSTRIDE = 8192 };
#define BASE 0x200000000000ull

typedef struct rig {
    gpu_mreq_pool pool;
    gpu_addrmap map;
    mem_queue out, fill;
    gpu_l2 *s;
    uint64_t now;
} rig;

static void rig_open_f(rig *g, uint32_t out_cap, uint32_t queue, bool sectored, uint32_t interval, uint32_t rate,
                       bool alloc_on_miss, uint32_t atom, uint32_t fetch);

static void rig_open_a(rig *g, uint32_t out_cap, uint32_t queue, bool sectored, uint32_t interval, uint32_t rate,
                       bool alloc_on_miss)
{
    rig_open_f(g, out_cap, queue, sectored, interval, rate, alloc_on_miss, 64, 32);
}

/* With DRAM atoms of `atom` bytes and l2.fetch = `fetch` (t611). */
static void rig_open_f(rig *g, uint32_t out_cap, uint32_t queue, bool sectored, uint32_t interval, uint32_t rate,
                       bool alloc_on_miss, uint32_t atom, uint32_t fetch)
{
    memset(g, 0, sizeof *g);
    gpu_mreq_pool_init(&g->pool);
    gpu_addrmap_init(&g->map, 1, 1, 256, 128, 16, 4, 256, 4096);
    mem_queue_init(&g->out, out_cap);
    mem_queue_init(&g->fill, 116);
    gpu_l2cfg c = {.slice = 0, .port = 0, .size = 65536, .assoc = 8, .line = 128, .mshrs = 32, .mshr_merge = 4,
                   .queue = queue, .period = 1, .rop_latency = ROP, .sectored = sectored, .dram_atom = atom,
                   .fetch = fetch, .atomic_interval = interval, .atomic_rate = rate, .alloc_on_miss = alloc_on_miss};
    g->s = gpu_l2_new(&c, &g->map, &g->pool);
    gpu_l2_connect(g->s, &g->out, &g->fill);
}

/* Lines taken at their fill (l2.alloc = fill); t610 takes them at the miss. */
static void rig_open_c(rig *g, uint32_t out_cap, uint32_t queue, bool sectored, uint32_t interval, uint32_t rate)
{
    rig_open_a(g, out_cap, queue, sectored, interval, rate, false);
}

/* Unsectored, no atomic unit (GPGPU-Sim 3.2.2's slice); t607 and t608 turn them on. */
static void rig_open(rig *g, uint32_t out_cap, uint32_t queue) { rig_open_c(g, out_cap, queue, false, 0, 1); }

static void free_all(rig *g, mem_queue *q)
{
    while (!mem_queue_empty(q)) gpu_mreq_put(&g->pool, mem_queue_pop(q));
}

static void rig_close(rig *g)
{
    free_all(g, &g->out);
    free_all(g, &g->fill);
    free_all(g, gpu_l2_miss(g->s));
    gpu_l2_free(g->s);
    mem_queue_free(&g->out);
    mem_queue_free(&g->fill);
    gpu_mreq_pool_free(&g->pool);
}

static gpu_mreq *mk(rig *g, int kind, uint64_t addr, uint32_t tag)
{
    gpu_mreq *r = gpu_mreq_get(&g->pool);
    r->kind = (uint8_t)kind;
    r->addr = addr;
    r->bytes = 128;
    r->tag = tag;
    return r;
}

/* The interconnect delivers r, seen by the slice from cycle `at` on. */
static gpu_mreq *send(rig *g, int kind, uint64_t addr, uint32_t tag, uint64_t at)
{
    gpu_mreq *r = mk(g, kind, addr, tag);
    TT_CHECK(gpu_l2_can_accept(g->s));
    gpu_l2_accept(g->s, r, at);
    return r;
}

static void run_to(rig *g, uint64_t end)
{
    for (;;) {
        uint64_t t = gpu_l2_next(g->s);
        if (t < g->now) t = g->now;
        if (t >= end) break;
        gpu_l2_tick(g->s, t);
        g->now = t + 1;
    }
    g->now = end;
    gpu_l2_sync(g->s, end);   /* the counts of the cycles before end, as the memory system reads them */
}

/* The mock DRAM answers the head of the miss queue, ready at `at`. */
static gpu_mreq *dram_answer(rig *g, uint64_t at)
{
    gpu_mreq *d = mem_queue_pop(gpu_l2_miss(g->s));
    mem_queue_push(&g->fill, d, at);
    return d;
}

/* Brings `addr` into the slice as a load miss answered at once. */
static void warm(rig *g, uint64_t addr)
{
    send(g, GPU_MR_LOAD, addr, 0, g->now);
    run_to(g, g->now + ROP + 1);
    dram_answer(g, g->now);
    run_to(g, g->now + 1);
    free_all(g, &g->out);
}

/* Stores of n lines of set 0 seen at 0..n-1 (looked up at 120..), run to 200. */
static void store_set(rig *g, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        send(g, GPU_MR_STORE, BASE + SETSTRIDE * k, k, k);
        run_to(g, k + 1);
    }
    run_to(g, 200);
}

/* 601: a hit seen at 1000 is looked up at 1120 and its reply is ready for
** the interconnect at 1121. */
static void t601_hit_latency(void)
{
    rig g;
    rig_open(&g, 16, 8);
    warm(&g, BASE);
    g.now = 1000;
    gpu_mreq *r = send(&g, GPU_MR_LOAD, BASE + 32, 9, 1000);
    run_to(&g, 1000 + ROP);
    TT_CHECK(mem_queue_empty(&g.out));
    run_to(&g, 2000);
    TT_EQ_U(mem_queue_count(&g.out), 1);
    TT_CHECK(mem_queue_at(&g.out, 0)->p == r && r->is_reply);
    TT_EQ_U(mem_queue_at(&g.out, 0)->ready, 1000 + ROP + 1);
    TT_EQ_U(gpu_l2_stats(g.s)->hits, 1);
    TT_EQ_U(gpu_l2_stats(g.s)->accesses, 2);
    TT_CHECK(gpu_l2_idle(g.s));
    rig_close(&g);
}

/* 602: a miss sends one whole-line read to DRAM; later misses to the line
** merge and send nothing; the fill releases them all.
**   loads of one line seen at 0, 1, 2: lookups at 120 (miss: read pushed,
**   ready 121), 121, 122 (merged).  The read answered at 300: the three
**   replies are ready at 301. */
static void t602_miss_merge(void)
{
    rig g;
    rig_open(&g, 16, 8);
    for (uint32_t k = 0; k < 3; k++) send(&g, GPU_MR_LOAD, BASE + 4096 + 8 * k, k, k);
    run_to(&g, 300);
    mem_queue *miss = gpu_l2_miss(g.s);
    TT_EQ_U(mem_queue_count(miss), 1);
    gpu_mreq *d = mem_queue_head(miss);
    TT_EQ_U(d->kind, GPU_MR_LOAD);
    TT_EQ_U(d->addr, BASE + 4096);
    TT_EQ_U(d->bytes, 128);
    TT_EQ_U(mem_queue_at(miss, 0)->ready, ROP + 1);
    dram_answer(&g, 300);
    run_to(&g, 400);
    TT_EQ_U(mem_queue_count(&g.out), 3);
    for (uint32_t k = 0; k < 3; k++) {
        TT_EQ_U(((gpu_mreq *)mem_queue_at(&g.out, k)->p)->tag, k);
        TT_EQ_U(mem_queue_at(&g.out, k)->ready, 301);
    }
    const gpu_l2stats *st = gpu_l2_stats(g.s);
    TT_EQ_U(st->misses, 3);
    TT_EQ_U(st->mshr_merges, 2);
    TT_EQ_U(st->dram_reads, 1);
    rig_close(&g);
}

/* 603: the merge limit: five loads of one line seen at 0..4; the fifth's
** lookup at 124 is refused (4 per MSHR) every cycle until the fill at 300
** installs the line (fill before lookup in a cycle): cycles 124..299 = 176
** reservation failures; at 300 it hits. */
static void t603_merge_limit(void)
{
    rig g;
    rig_open(&g, 16, 8);
    for (uint32_t k = 0; k < 5; k++) send(&g, GPU_MR_LOAD, BASE, k, k);
    run_to(&g, 300);
    TT_EQ_U(gpu_l2_stats(g.s)->reservation_fails, 176);
    dram_answer(&g, 300);
    run_to(&g, 400);
    TT_EQ_U(mem_queue_count(&g.out), 5);
    TT_EQ_U(mem_queue_at(&g.out, 4)->ready, 301);
    TT_EQ_U(gpu_l2_stats(g.s)->hits, 1);
    rig_close(&g);
}

/* 604: write-back, write-allocate.  Nine 128-byte stores to lines of one
** set (8 ways) seen at 0..8: each allocates its line dirty without reading
** DRAM; the ninth (lookup at 128) evicts the least recently used, the
** first, as a whole-line store to DRAM (ready 129).  Then a load of a
** tenth line in the set misses; its fill evicts the second (dirty) line,
** into the room kept for fills. */
static void t604_writeback(void)
{
    rig g;
    rig_open(&g, 16, 8);
    store_set(&g, 9);
    mem_queue *miss = gpu_l2_miss(g.s);
    TT_EQ_U(mem_queue_count(miss), 1);
    gpu_mreq *w = mem_queue_head(miss);
    TT_EQ_U(w->kind, GPU_MR_STORE);
    TT_EQ_U(w->addr, BASE);
    TT_EQ_U(w->bytes, 128);
    TT_EQ_U(mem_queue_at(miss, 0)->ready, ROP + 8 + 1);
    TT_CHECK(mem_queue_empty(&g.out));   /* stores are not answered */
    free_all(&g, miss);
    g.now = 200;
    send(&g, GPU_MR_LOAD, BASE + SETSTRIDE * 9, 0, 200);
    run_to(&g, 400);
    TT_EQ_U(mem_queue_count(miss), 1);
    dram_answer(&g, 400);
    run_to(&g, 401);
    TT_EQ_U(mem_queue_count(miss), 1);
    w = mem_queue_head(miss);
    TT_CHECK(w->kind == GPU_MR_STORE && w->addr == BASE + SETSTRIDE * 1);
    TT_EQ_U(gpu_l2_stats(g.s)->writebacks, 2);
    TT_EQ_U(gpu_l2_stats(g.s)->dram_reads, 1);
    rig_close(&g);
}

/* 605: full queues.  (a) `out` of 2 entries that nobody empties: four hits
** seen at 1000..1003 look up at 1120..1123; the first two reply, the third
** is held from 1122 on: running to 1130 counts cycles 1122..1129 = 8.
** (b) `miss` of 8 entries that nobody takes: the ninth distinct miss is
** refused (a reservation failure each cycle) and the queue counts it. */
static void t605_queue_full(void)
{
    rig g;
    rig_open(&g, 2, 8);
    for (uint32_t k = 0; k < 4; k++) {
        gpu_mreq *r = mk(&g, GPU_MR_STORE, BASE + 128 * k, k);   /* allocate the lines */
        gpu_l2_accept(g.s, r, 0);
    }
    run_to(&g, 200);
    g.now = 1000;
    for (uint32_t k = 0; k < 4; k++) send(&g, GPU_MR_LOAD, BASE + 128 * k, k, 1000 + k);
    run_to(&g, 1130);
    TT_EQ_U(mem_queue_count(&g.out), 2);
    TT_EQ_U(gpu_l2_stats(g.s)->stall_cycles, 8);
    TT_EQ_U(g.out.full_cycles, 8);
    free_all(&g, &g.out);
    run_to(&g, 1200);
    TT_EQ_U(mem_queue_count(&g.out), 2);
    rig_close(&g);

    rig_open(&g, 16, 8);
    for (uint32_t k = 0; k < 8; k++) send(&g, GPU_MR_LOAD, BASE + 128 * k, k, 0);
    TT_CHECK(!gpu_l2_can_accept(g.s));   /* `in` holds 8 */
    run_to(&g, 1);                       /* one enters the ROP pipe */
    TT_CHECK(gpu_l2_can_accept(g.s));
    send(&g, GPU_MR_LOAD, BASE + 128 * 8, 8, 1);
    run_to(&g, 200);
    /* lookups at 120..127 fill `miss`; the ninth (seen 1, in the pipe at 8,
    ** looked up at 128) is refused at 128..199 */
    TT_EQ_U(mem_queue_count(gpu_l2_miss(g.s)), 8);
    TT_EQ_U(gpu_l2_stats(g.s)->reservation_fails, 72);
    TT_EQ_U(gpu_l2_miss(g.s)->full_cycles, 72);
    rig_close(&g);
}

/* 606: atomics are performed at the slice: a miss goes to DRAM like a load
** and makes the filled line dirty (a later eviction writes it back); a
** store that wants an ack is answered. */
static void t606_atomic_and_ack(void)
{
    rig g;
    rig_open(&g, 16, 8);
    gpu_mreq *a = send(&g, GPU_MR_ATOMIC, BASE + 4, 1, 0);
    run_to(&g, 200);
    dram_answer(&g, 200);
    run_to(&g, 300);
    TT_CHECK(mem_queue_count(&g.out) == 1 && mem_queue_head(&g.out) == a);
    TT_EQ_U(mem_queue_at(&g.out, 0)->ready, 201);
    gpu_mreq *s = mk(&g, GPU_MR_STORE, BASE + 8192, 2);
    s->want_ack = 1;
    gpu_l2_accept(g.s, s, 300);
    run_to(&g, 500);
    TT_CHECK(mem_queue_count(&g.out) == 2 && mem_queue_at(&g.out, 1)->p == s);
    TT_EQ_U(mem_queue_at(&g.out, 1)->ready, 300 + ROP + 1);
    free_all(&g, &g.out);
    /* evict everything in set 0: 8 more stores; the atomic's line goes first, dirty */
    g.now = 1000;
    for (uint32_t k = 2; k < 10; k++) {
        send(&g, GPU_MR_STORE, BASE + SETSTRIDE * k, k, 1000 + k);
        run_to(&g, 1000 + k + 1);
    }
    run_to(&g, 2000);
    mem_queue *miss = gpu_l2_miss(g.s);
    TT_EQ_U(mem_queue_count(miss), 2);
    TT_EQ_U(((gpu_mreq *)mem_queue_at(miss, 0)->p)->addr, BASE);
    TT_EQ_U(((gpu_mreq *)mem_queue_at(miss, 1)->p)->addr, BASE + SETSTRIDE);
    TT_EQ_U(gpu_l2_stats(g.s)->atomics, 1);
    rig_close(&g);
}

static gpu_mreq *send_s(rig *g, int kind, uint64_t addr, uint32_t bytes, uint32_t tag, uint64_t at)
{
    gpu_mreq *r = mk(g, kind, addr, tag);
    r->sectors = bytes ? gpu_sectors_of(addr, bytes) : 0;
    TT_CHECK(gpu_l2_can_accept(g->s));
    gpu_l2_accept(g->s, r, at);
    return r;
}

/* 607: a sectored slice (l2.sectored), DRAM atoms of 64 bytes (2 sectors).
**   0: a load of sector 1 (+40) is looked up at 120: one DRAM read of
**      sector 1 (sectors bit 1), 64 bytes (the atom of sectors 0-1).
**   1: a load of sector 3 (+96), looked up at 121, joins the MSHR and sends
**      one more read, for sector 3 (bit 3), 64 bytes (atom 2-3).
**   200: sector 3 arrives first: the second load is released (reply ready
**      201), the first keeps waiting; 250: sector 1: the first (ready 251).
**   300: a store of sector 0 (looked up at 420) hits the present line: it
**      makes sector 0 valid and dirty; 301: a load of sectors 0-1 hits at
**      421 (ready 422); 302: a whole-line load misses sector 2 alone at
**      422: a sector miss, a 64-byte read of sector 2 (bit 2).
**   Eight stores to other lines of set 0 then evict the line (the LRU):
**      its write-back names its one dirty sector, 64 bytes. */
static void t607_sectored(void)
{
    rig g;
    rig_open_c(&g, 16, 8, true, 0, 1);
    gpu_mreq *a = send_s(&g, GPU_MR_LOAD, BASE + 40, 4, 1, 0);
    gpu_mreq *b = send_s(&g, GPU_MR_LOAD, BASE + 96, 4, 2, 1);
    run_to(&g, 200);
    mem_queue *miss = gpu_l2_miss(g.s);
    TT_EQ_U(mem_queue_count(miss), 2);
    gpu_mreq *d1 = mem_queue_at(miss, 0)->p, *d3 = mem_queue_at(miss, 1)->p;
    TT_CHECK(d1->addr == BASE && d1->sectors == 2 && d1->bytes == 64 && mem_queue_at(miss, 0)->ready == 121);
    TT_CHECK(d3->addr == BASE && d3->sectors == 8 && d3->bytes == 64 && mem_queue_at(miss, 1)->ready == 122);
    TT_EQ_U(gpu_l2_stats(g.s)->dram_reads, 2);
    mem_queue_pop(miss);
    mem_queue_pop(miss);
    mem_queue_push(&g.fill, d3, 200);
    run_to(&g, 250);
    TT_CHECK(mem_queue_count(&g.out) == 1 && mem_queue_head(&g.out) == b && mem_queue_at(&g.out, 0)->ready == 201);
    mem_queue_push(&g.fill, d1, 250);
    run_to(&g, 300);
    TT_CHECK(mem_queue_count(&g.out) == 2 && mem_queue_at(&g.out, 1)->p == a && mem_queue_at(&g.out, 1)->ready == 251);
    TT_CHECK(gpu_l2_idle(g.s));
    free_all(&g, &g.out);
    send_s(&g, GPU_MR_STORE, BASE, 4, 3, 300);
    gpu_mreq *c = send_s(&g, GPU_MR_LOAD, BASE, 64, 4, 301);
    send_s(&g, GPU_MR_LOAD, BASE, 0, 5, 302);
    run_to(&g, 500);
    TT_CHECK(mem_queue_count(&g.out) == 1 && mem_queue_head(&g.out) == c && mem_queue_at(&g.out, 0)->ready == 422);
    TT_EQ_U(mem_queue_count(miss), 1);
    gpu_mreq *d2 = mem_queue_head(miss);
    TT_CHECK(d2->sectors == 4 && d2->bytes == 64 && mem_queue_at(miss, 0)->ready == 423);
    TT_EQ_U(gpu_l2_stats(g.s)->sector_misses, 1);
    TT_EQ_U(gpu_l2_stats(g.s)->hits, 2);
    dram_answer(&g, 500);
    run_to(&g, 600);
    TT_EQ_U(mem_queue_count(&g.out), 2);
    TT_EQ_U(mem_queue_at(&g.out, 1)->ready, 501);
    free_all(&g, &g.out);
    g.now = 1000;
    for (uint32_t k = 1; k <= 8; k++) {
        send_s(&g, GPU_MR_STORE, BASE + SETSTRIDE * k, 4, k, 1000 + k);
        run_to(&g, 1000 + k + 1);
    }
    run_to(&g, 2000);
    TT_EQ_U(mem_queue_count(miss), 1);
    gpu_mreq *w = mem_queue_head(miss);
    TT_CHECK(w->kind == GPU_MR_STORE && w->addr == BASE && w->sectors == 1 && w->bytes == 64);
    rig_close(&g);
}

/* 608: the atomic unit (l2.atomic_interval 9, l2.atomic_rate 32: the GTX
** 480's).  The line at BASE is present.
**   a, seen at 1000: 32 lanes on one address: looked up at 1120, holds the
**      unit 32 x 9 = 288 cycles: done 1408, reply ready 1409.
**   b, seen at 1001: 32 lanes on 32 addresses: looked up at 1121, waits for
**      the unit (1408), holds it max(1 x 9, 32 / 32) = 9: done 1417, ready
**      1418.
**   c, seen at 1002: one operation (ops 0): 1417 + 9 = 1426, ready 1427.
**   d, seen at 2000, a line not present, 4 lanes, 2 on one address: a miss
**      at 2120, its read answered at 2200; released to the unit at 2200,
**      2 x 9 = 18 cycles: done 2218, ready 2219. */
static void t608_atomic_unit(void)
{
    rig g;
    rig_open_c(&g, 16, 8, false, 9, 32);
    warm(&g, BASE);
    g.now = 1000;
    gpu_mreq *a = send(&g, GPU_MR_ATOMIC, BASE, 1, 1000);
    a->ops = 32;
    a->ops_addr = 32;
    gpu_mreq *b = send(&g, GPU_MR_ATOMIC, BASE, 2, 1001);
    b->ops = 32;
    b->ops_addr = 1;
    gpu_mreq *c = send(&g, GPU_MR_ATOMIC, BASE + 4, 3, 1002);
    run_to(&g, 1408);
    TT_CHECK(mem_queue_empty(&g.out));
    run_to(&g, 2000);
    TT_EQ_U(mem_queue_count(&g.out), 3);
    TT_CHECK(mem_queue_at(&g.out, 0)->p == a && mem_queue_at(&g.out, 0)->ready == 1409);
    TT_CHECK(mem_queue_at(&g.out, 1)->p == b && mem_queue_at(&g.out, 1)->ready == 1418);
    TT_CHECK(mem_queue_at(&g.out, 2)->p == c && mem_queue_at(&g.out, 2)->ready == 1427);
    free_all(&g, &g.out);
    gpu_mreq *d = send(&g, GPU_MR_ATOMIC, BASE + 4096, 4, 2000);
    d->ops = 4;
    d->ops_addr = 2;
    run_to(&g, 2200);
    dram_answer(&g, 2200);
    run_to(&g, 2218);
    TT_CHECK(mem_queue_empty(&g.out));
    run_to(&g, 3000);
    TT_CHECK(mem_queue_count(&g.out) == 1 && mem_queue_head(&g.out) == d && mem_queue_at(&g.out, 0)->ready == 2219);
    TT_EQ_U(gpu_l2_stats(g.s)->atomic_ops, 32 + 32 + 1 + 4);
    TT_EQ_U(gpu_l2_stats(g.s)->atomic_busy, 288 + 9 + 9 + 18);
    TT_CHECK(gpu_l2_idle(g.s));
    rig_close(&g);
}

/* Whether two queues hold the same requests (kind, address, tag, size) with
** the same ready times, and have the same counters. */
static bool same_queue(const mem_queue *a, const mem_queue *b)
{
    if (mem_queue_count(a) != mem_queue_count(b) || a->pushes != b->pushes || a->full_cycles != b->full_cycles)
        return false;
    for (uint32_t i = 0; i < mem_queue_count(a); i++) {
        const mem_qent *x = mem_queue_at(a, i), *y = mem_queue_at(b, i);
        const gpu_mreq *p = x->p, *q = y->p;
        if (x->ready != y->ready || p->kind != q->kind || p->addr != q->addr || p->tag != q->tag || p->bytes != q->bytes)
            return false;
    }
    return true;
}

/* 609: a slice ticked only at gpu_l2_next's cycles (sleeping through
** repeated refusals, their reservation failures counted by gpu_l2_sync)
** does what one ticked in every cycle does.  Random loads, stores and
** atomics over 300 lines (more than 32 MSHRs hold, 4 requests each), a
** mock DRAM that takes misses now and then and answers reads 40 to 400
** cycles later, an `out` of 4 drained at random: after every cycle every
** queue and every counter the same; unsectored without an atomic unit, and
** sectored with one; each with lines taken at the fill and at the miss. */
static void t609_skip_exact_c(bool sectored, uint32_t interval, bool alloc_on_miss, uint32_t fetch)
{
    rig g[2];
    for (int r = 0; r < 2; r++) rig_open_f(&g[r], 4, 8, sectored, interval, 2, alloc_on_miss, fetch > 32 ? 32 : 64, fetch);
    uint32_t x = 99;
    uint32_t bad = 0, ticks = 0;
    gpu_l2stats st[2];
    for (uint64_t c = 0; c < 20000; c++) {
        x = x * 1103515245u + 12345u;
        uint32_t k = (x >> 8) % 20, line = (x >> 13) % 300;
        int kind = k < 12 ? GPU_MR_LOAD : k < 17 ? GPU_MR_STORE : GPU_MR_ATOMIC;
        bool busy = (c / 2000) % 2 == 0;
        for (int r = 0; r < 2; r++) {
            if ((busy ? (x >> 28) < 8 : (x >> 28) == 0) && gpu_l2_can_accept(g[r].s)) {
                gpu_mreq *m = mk(&g[r], kind, BASE + 128ull * line + ((x >> 4) % 4) * 32, (uint32_t)c);
                m->bytes = sectored ? 32 : 128;
                m->sectors = 0;
                m->ops = m->ops_addr = 1;
                gpu_l2_accept(g[r].s, m, c);
            }
            if (r == 0 || gpu_l2_next(g[1].s) <= c) {
                gpu_l2_tick(g[r].s, c);
                ticks += r;
            }
        }
        x = x * 1103515245u + 12345u;
        for (int r = 0; r < 2; r++) {
            mem_queue *miss = gpu_l2_miss(g[r].s);
            if ((x >> 9) % 7 == 0 && mem_queue_peek(miss, c)) {
                gpu_mreq *d = mem_queue_pop(miss);
                if (d->kind == GPU_MR_STORE) gpu_mreq_put(&g[r].pool, d);
                else mem_queue_push(&g[r].fill, d, c + 40 + (x >> 20) % 360);
            }
            if ((x >> 12) % 4 == 0)
                while (mem_queue_peek(&g[r].out, c)) gpu_mreq_put(&g[r].pool, mem_queue_pop(&g[r].out));
        }
        gpu_l2_sync(g[1].s, c + 1);
        for (int r = 0; r < 2; r++) st[r] = *gpu_l2_stats(g[r].s);
        bad += memcmp(&st[0], &st[1], sizeof st[0]) != 0;
        bad += !same_queue(&g[0].out, &g[1].out) || !same_queue(&g[0].fill, &g[1].fill);
        bad += !same_queue(gpu_l2_miss(g[0].s), gpu_l2_miss(g[1].s));
    }
    TT_EQ_U(bad, 0);
    TT_CHECK(st[0].reservation_fails > 1000);
    TT_CHECK(st[0].stall_cycles > 0);
    TT_CHECK(gpu_l2_miss(g[0].s)->full_cycles > 0);
    TT_CHECK(ticks < 15000);   /* it did skip */
    for (int r = 0; r < 2; r++) rig_close(&g[r]);
}

static void t609_skip_exact(void)
{
    t609_skip_exact_c(false, 0, false, 32);
    t609_skip_exact_c(true, 4, false, 32);
    t609_skip_exact_c(false, 0, true, 32);   /* l2.alloc = miss (t610) */
    t609_skip_exact_c(true, 4, true, 32);
    t609_skip_exact_c(true, 4, false, 64);   /* l2.fetch = 64, 32-byte atoms (t611) */
    t609_skip_exact_c(true, 4, true, 64);
}

/* 610: lines taken at the miss (l2.alloc = miss, GPGPU-Sim's `m`), beside
** the same requests with lines taken at the fill.
** (a) Eight stores seen at 0..7 (lookups 120..127) fill set 0 with dirty
** lines, the first least recently used.  A load of a ninth line of the set
** seen at 1000 is looked up at 1120.  At the miss: it takes the first
** line's way at once, so `miss` gets that line's write-back and then the
** read, both ready at 1121; a load of the first line seen at 1001 (lookup
** 1121) then misses as well and takes the second line's way (another
** write-back, then its read, ready at 1122): `out` stays empty.  At the
** fill: `miss` holds the one read, and the second load hits (its reply
** ready at 1122; the write-back waits for the fill, t604).
** (b) Eight loads of eight lines of set 1 seen at 0..7 reserve its eight
** ways at their lookups (120..127); a ninth, seen at 8, is refused at
** 128..199 although 24 MSHRs and `miss` (16) have room: 72 reservation
** failures.  The first read answered at 200 makes its line a victim again;
** the fill (stage 1) comes before the lookup (stage 3), so the ninth is
** looked up at 200 and takes that way: its read is ready at 201, as is the
** first load's reply.  At the fill the ninth simply misses at 128.
** (c) At the miss, a dirty victim needs room in `miss` for its write-back
** and the read.  Set 0 filled with dirty lines (stores at 0..7), fifteen
** stores to set 1 seen at 200..214 (lookups 320..334) leave seven
** write-backs in `miss` (8 entries), which nobody takes; a load of a ninth
** line of set 0 seen at 400 is refused at 520..599 (80 reservation
** failures) with no fill to come; the channel taking one write-back at 600
** lets it through in that cycle (the slice must not sleep on such a
** refusal): the victim's write-back and the read, ready at 601. */
static void t610_alloc_on_miss(void)
{
    for (int am = 0; am < 2; am++) {
        rig g;
        rig_open_a(&g, 16, 8, false, 0, 1, am);
        store_set(&g, 8);
        mem_queue *miss = gpu_l2_miss(g.s);
        TT_EQ_U(mem_queue_count(miss), 0);
        g.now = 1000;
        send(&g, GPU_MR_LOAD, BASE + SETSTRIDE * 8, 8, 1000);
        send(&g, GPU_MR_LOAD, BASE, 9, 1001);
        run_to(&g, 1122);
        if (am) {
            TT_EQ_U(mem_queue_count(miss), 4);
            const gpu_mreq *w0 = mem_queue_at(miss, 0)->p, *r8 = mem_queue_at(miss, 1)->p;
            const gpu_mreq *w1 = mem_queue_at(miss, 2)->p, *r0 = mem_queue_at(miss, 3)->p;
            TT_CHECK(w0->kind == GPU_MR_STORE && w0->addr == BASE);
            TT_CHECK(r8->kind == GPU_MR_LOAD && r8->addr == BASE + SETSTRIDE * 8);
            TT_CHECK(w1->kind == GPU_MR_STORE && w1->addr == BASE + SETSTRIDE * 1);
            TT_CHECK(r0->kind == GPU_MR_LOAD && r0->addr == BASE);
            TT_EQ_U(mem_queue_at(miss, 0)->ready, 1121);
            TT_EQ_U(mem_queue_at(miss, 1)->ready, 1121);
            TT_EQ_U(mem_queue_at(miss, 2)->ready, 1122);
            TT_EQ_U(mem_queue_at(miss, 3)->ready, 1122);
            TT_CHECK(mem_queue_empty(&g.out));
            TT_EQ_U(gpu_l2_stats(g.s)->writebacks, 2);
            TT_EQ_U(gpu_l2_stats(g.s)->dram_reads, 2);
        } else {
            TT_EQ_U(mem_queue_count(miss), 1);
            TT_EQ_U(mem_queue_at(miss, 0)->ready, 1121);
            TT_EQ_U(mem_queue_count(&g.out), 1);
            TT_EQ_U(mem_queue_at(&g.out, 0)->ready, 1122);
            TT_EQ_U(((const gpu_mreq *)mem_queue_at(&g.out, 0)->p)->tag, 9);
            TT_EQ_U(gpu_l2_stats(g.s)->writebacks, 0);
            TT_EQ_U(gpu_l2_stats(g.s)->dram_reads, 1);
        }
        rig_close(&g);

        rig_open_a(&g, 16, 16, false, 0, 1, am);
        for (uint32_t k = 0; k < 9; k++) send(&g, GPU_MR_LOAD, BASE + 128 + SETSTRIDE * k, k, k);
        run_to(&g, 200);
        miss = gpu_l2_miss(g.s);
        TT_EQ_U(mem_queue_count(miss), am ? 8 : 9);
        TT_EQ_U(gpu_l2_stats(g.s)->reservation_fails, am ? 72 : 0);
        if (am) {
            gpu_mreq *d = dram_answer(&g, 200);
            TT_EQ_U(d->addr, BASE + 128);
            run_to(&g, 201);
            TT_EQ_U(mem_queue_count(miss), 8);
            const mem_qent *last = mem_queue_at(miss, 7);
            TT_EQ_U(((const gpu_mreq *)last->p)->addr, BASE + 128 + SETSTRIDE * 8);
            TT_EQ_U(last->ready, 201);
            TT_EQ_U(mem_queue_count(&g.out), 1);
            TT_EQ_U(mem_queue_at(&g.out, 0)->ready, 201);
            TT_EQ_U(((const gpu_mreq *)mem_queue_at(&g.out, 0)->p)->tag, 0);
            TT_EQ_U(gpu_l2_stats(g.s)->reservation_fails, 72);
        }
        rig_close(&g);
    }

    rig g;
    rig_open_a(&g, 16, 8, false, 0, 1, true);
    store_set(&g, 8);
    for (uint32_t k = 0; k < 15; k++) {
        send(&g, GPU_MR_STORE, BASE + 128 + SETSTRIDE * k, k, 200 + k);
        run_to(&g, 200 + k + 1);
    }
    run_to(&g, 400);
    mem_queue *miss = gpu_l2_miss(g.s);
    TT_EQ_U(mem_queue_count(miss), 7);
    send(&g, GPU_MR_LOAD, BASE + SETSTRIDE * 8, 8, 400);
    run_to(&g, 600);
    TT_EQ_U(gpu_l2_stats(g.s)->reservation_fails, 80);
    TT_EQ_U(mem_queue_count(miss), 7);
    gpu_mreq_put(&g.pool, mem_queue_pop(miss));
    run_to(&g, 601);
    TT_EQ_U(mem_queue_count(miss), 8);
    if (mem_queue_count(miss) == 8) {
        const gpu_mreq *w = mem_queue_at(miss, 6)->p, *rd = mem_queue_at(miss, 7)->p;
        TT_CHECK(w->kind == GPU_MR_STORE && w->addr == BASE);
        TT_CHECK(rd->kind == GPU_MR_LOAD && rd->addr == BASE + SETSTRIDE * 8);
        TT_EQ_U(mem_queue_at(miss, 7)->ready, 601);
    }
    TT_EQ_U(gpu_l2_stats(g.s)->reservation_fails, 80);
    rig_close(&g);
}

/* 611: the fetch piece (l2.fetch), with 32-byte DRAM atoms (GDDR6's, the
** rtx2060's).  With 64: sector pairs.
**   0: a load of sector 1 (+40), looked up at 120: one read of sectors 0-1
**      (bits 0 and 1), 64 bytes, ready 121.
**   1: a load of sector 0 (+8), looked up at 121: the read in flight has
**      it; merged, nothing sent.
**   2: a load of sector 3 (+96), looked up at 122: merged, and one more
**      read, of sectors 2-3, 64 bytes, ready 123.
**   Every read but the last answered at 200 releases the first two loads
**   (replies ready 201), the last at 250 the third (ready 251).
**   300: a load of sector 2 (+64), looked up at 420, hits (reply ready
**      421): it came with sector 3.
**   500: a store to sector 0 of the next line (+128, looked up at 620)
**      makes it valid and dirty, with no read; 700: a load of that line's
**      sector 1 (looked up at 820) asks for sector 1 alone (32 bytes,
**      ready 821): the pair's other sector is there (the line's sectors
**      are bits 4-7 of the 256-byte block's mask).
** With 32 (GPGPU-Sim 4's sectored L2): each load sends a read of its own
** sector, 32 bytes (bits 1, 0, 3, ready 121, 122, 123), the first two
** answered at 200 (the slice takes one fill a cycle: the second load's
** reply is ready at 202); the load of sector 2 is a sector miss.
** With 128: the first read asks for the whole line (bits 0-3, 128 bytes)
** and the others merge: all three replies ready at 201; the last load asks
** for the line's three sectors it lacks (bits 5-7, 96 bytes). */
static void t611_fetch_piece(void)
{
    static const uint32_t fetch[3] = {64, 32, 128};
    static const uint32_t nreads[3] = {2, 3, 1};
    static const uint32_t bits[3][3] = {{3, 12}, {2, 1, 8}, {15}};
    static const uint32_t bytes[3][3] = {{64, 64}, {32, 32, 32}, {128}};
    static const uint32_t sent[3][3] = {{121, 123}, {121, 122, 123}, {121}};
    static const uint32_t replied[3][3] = {{201, 201, 251}, {201, 202, 251}, {201, 201, 201}};
    for (int v = 0; v < 3; v++) {
        rig g;
        rig_open_f(&g, 16, 8, true, 0, 1, false, 32, fetch[v]);
        gpu_mreq *ld[3];
        ld[0] = send_s(&g, GPU_MR_LOAD, BASE + 40, 4, 1, 0);
        ld[1] = send_s(&g, GPU_MR_LOAD, BASE + 8, 4, 2, 1);
        ld[2] = send_s(&g, GPU_MR_LOAD, BASE + 96, 4, 3, 2);
        run_to(&g, 200);
        mem_queue *miss = gpu_l2_miss(g.s);
        uint32_t n = nreads[v];
        TT_EQ_U(mem_queue_count(miss), n);
        TT_EQ_U(gpu_l2_stats(g.s)->dram_reads, n);
        TT_EQ_U(gpu_l2_stats(g.s)->mshr_merges, 2);
        if (mem_queue_count(miss) != n) {
            rig_close(&g);
            continue;
        }
        gpu_mreq *d[3];
        for (uint32_t k = 0; k < n; k++) {
            d[k] = mem_queue_at(miss, k)->p;
            TT_EQ_U(mem_queue_at(miss, k)->ready, sent[v][k]);
            TT_EQ_U(d[k]->addr, BASE);
            TT_EQ_U(d[k]->sectors, bits[v][k]);
            TT_EQ_U(d[k]->bytes, bytes[v][k]);
        }
        for (uint32_t k = 0; k < n; k++) mem_queue_pop(miss);
        for (uint32_t k = 0; k + 1 < n || (n == 1 && k == 0); k++) mem_queue_push(&g.fill, d[k], 200);
        run_to(&g, 250);
        TT_EQ_U(mem_queue_count(&g.out), n == 1 ? 3u : 2u);
        if (n > 1) {
            mem_queue_push(&g.fill, d[n - 1], 250);
            run_to(&g, 300);
        }
        TT_EQ_U(mem_queue_count(&g.out), 3);
        for (uint32_t k = 0; k < 3 && k < mem_queue_count(&g.out); k++) {
            TT_CHECK(mem_queue_at(&g.out, k)->p == ld[k]);
            TT_EQ_U(mem_queue_at(&g.out, k)->ready, replied[v][k]);
        }
        TT_CHECK(gpu_l2_idle(g.s));
        free_all(&g, &g.out);
        gpu_mreq *e = send_s(&g, GPU_MR_LOAD, BASE + 64, 4, 4, 300);
        run_to(&g, 500);
        if (v == 1) {
            TT_EQ_U(mem_queue_count(&g.out), 0);
            TT_EQ_U(mem_queue_count(miss), 1);
            TT_EQ_U(gpu_l2_stats(g.s)->sector_misses, 1);
            rig_close(&g);
            continue;
        }
        TT_CHECK(mem_queue_count(&g.out) == 1 && mem_queue_head(&g.out) == e && mem_queue_at(&g.out, 0)->ready == 421);
        TT_EQ_U(mem_queue_count(miss), 0);
        free_all(&g, &g.out);
        send_s(&g, GPU_MR_STORE, BASE + 128, 4, 5, 500);
        run_to(&g, 700);
        TT_EQ_U(mem_queue_count(miss), 0);
        send_s(&g, GPU_MR_LOAD, BASE + 128 + 40, 4, 6, 700);
        run_to(&g, 900);
        TT_EQ_U(mem_queue_count(miss), 1);
        if (mem_queue_count(miss) == 1) {
            gpu_mreq *d3 = mem_queue_head(miss);
            TT_EQ_U(mem_queue_at(miss, 0)->ready, 821);
            TT_EQ_U(d3->addr, BASE + 128);
            TT_EQ_U(d3->sectors, v == 0 ? 0x20u : 0xe0u);
            TT_EQ_U(d3->bytes, v == 0 ? 32u : 96u);
        }
        TT_EQ_U(gpu_l2_stats(g.s)->sector_misses, 1);
        rig_close(&g);
    }
}

int main(void)
{
    TT_RUN(t601_hit_latency);
    TT_RUN(t602_miss_merge);
    TT_RUN(t603_merge_limit);
    TT_RUN(t604_writeback);
    TT_RUN(t605_queue_full);
    TT_RUN(t606_atomic_and_ack);
    TT_RUN(t607_sectored);
    TT_RUN(t608_atomic_unit);
    TT_RUN(t609_skip_exact);
    TT_RUN(t610_alloc_on_miss);
    TT_RUN(t611_fetch_piece);
    return tt_done();
}
