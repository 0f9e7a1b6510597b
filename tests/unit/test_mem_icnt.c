/* test_mem_icnt.c -- the interconnect (gpu/icnt.c) between mock SMs and
** mock L2 slices, exact to the cycle.  Configuration: the GTX 480 values
** of gpu/mem_options.def: latency 5 cycles, 40-byte flits, 8 control
** bytes, 16-packet input queues, 8-packet ejection queues; period 1 (time =
** interconnect cycles).  Packet sizes: a load request is 8 bytes, 1 flit;
** a 128-byte reply 136 bytes, ceil(136 / 40) = 4 flits.  A packet granted
** at cycle c arrives at c + latency + flits - 1. */
#include "tests/unit/tt.h"
#include "gpu/icnt.h"

enum { LAT = 5 };

typedef struct rig {
    gpu_mreq_pool pool;
    gpu_addrmap map;
    mem_queue slice[4];
    gpu_icnt *n;
    uint64_t now;
} rig;

/* 3 SMs, 4 slices (2 channels x 2): lines 0, 1, 2, 3 of memory go to slices 0, 1, 2, 3 */
static void rig_open_c(rig *g, uint32_t slice_queue, uint32_t out_buffer, bool no_park)
{
    memset(g, 0, sizeof *g);
    gpu_mreq_pool_init(&g->pool);
    gpu_addrmap_init(&g->map, 2, 2, 256, 128, 16, 4, 256, 4096);
    mem_queue *in[4];
    for (int s = 0; s < 4; s++) {
        mem_queue_init(&g->slice[s], slice_queue);
        in[s] = &g->slice[s];
    }
    gpu_icntcfg c = {.nsm = 3, .nslice = 4, .latency = LAT, .flit_bytes = 40, .ctrl_bytes = 8, .queue = 16,
                     .eject_queue = 8, .out_buffer = out_buffer, .period = 1, .no_park = no_park};
    g->n = gpu_icnt_new(&c, &g->map, in);
}

static void rig_open_ob(rig *g, uint32_t slice_queue, uint32_t out_buffer) { rig_open_c(g, slice_queue, out_buffer, false); }

static void rig_open(rig *g, uint32_t slice_queue) { rig_open_ob(g, slice_queue, 0); }

static void free_all(rig *g, mem_queue *q)
{
    while (!mem_queue_empty(q)) gpu_mreq_put(&g->pool, mem_queue_pop(q));
}

static void rig_close(rig *g)
{
    for (int s = 0; s < 4; s++) {
        free_all(g, &g->slice[s]);
        free_all(g, gpu_icnt_reply_in(g->n, (uint32_t)s));
        mem_queue_free(&g->slice[s]);
    }
    for (uint32_t sm = 0; sm < 3; sm++) {
        free_all(g, gpu_icnt_eject(g->n, sm));
        free_all(g, gpu_icnt_inject(g->n, sm));
    }
    gpu_icnt_free(g->n);
    TT_EQ_U(g->pool.live, 0);
    gpu_mreq_pool_free(&g->pool);
}

static gpu_mreq *mk(rig *g, int kind, uint32_t sm, uint32_t line, uint32_t bytes)
{
    gpu_mreq *r = gpu_mreq_get(&g->pool);
    r->kind = (uint8_t)kind;
    r->sm = (uint16_t)sm;
    r->addr = 0x200000000000ull + 128ull * line;
    r->bytes = bytes;
    return r;
}

/* Runs cycles [now, end) at the cycles gpu_icnt_next names. */
static void run_to(rig *g, uint64_t end)
{
    for (;;) {
        uint64_t t = gpu_icnt_next(g->n);
        if (t < g->now) t = g->now;
        if (t >= end) break;
        gpu_icnt_tick(g->n, t);
        g->now = t + 1;
    }
    g->now = end;
    gpu_icnt_sync(g->n, end);   /* the parked heads' stalls before end, as the memory system reads them */
}

static uint64_t ready_at(mem_queue *q, uint32_t k) { return k < mem_queue_count(q) ? mem_queue_at(q, k)->ready : UINT64_MAX; }

/* 701: a load request injected ready at 1 (an SM accepted it at 0) is
** granted at 1 and arrives at slice 2 at 1 + 5 + 1 - 1 = 6; a 128-byte
** reply from slice 2 ready at 10 reaches the SM at 10 + 5 + 4 - 1 = 18. */
static void t701_latency(void)
{
    rig g;
    rig_open(&g, 8);
    TT_EQ_U(0x200000000000ull / 128 % 4, 0);   /* line numbers map as said above */
    gpu_mreq *r = mk(&g, GPU_MR_LOAD, 1, 2, 128);
    TT_EQ_U(gpu_icnt_flits(g.n, r, false), 1);
    TT_EQ_U(gpu_icnt_flits(g.n, r, true), 4);
    mem_queue_push(gpu_icnt_inject(g.n, 1), r, 1);
    TT_EQ_U(gpu_icnt_next(g.n), 1);
    run_to(&g, 10);
    TT_EQ_U(mem_queue_count(&g.slice[2]), 1);
    TT_EQ_U(ready_at(&g.slice[2], 0), 6);
    mem_queue_pop(&g.slice[2]);
    r->is_reply = 1;
    mem_queue_push(gpu_icnt_reply_in(g.n, 2), r, 10);
    run_to(&g, 100);
    TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 1), 0), 18);
    TT_EQ_U(gpu_icnt_stats(g.n)->packets, 2);
    TT_EQ_U(gpu_icnt_stats(g.n)->flits, 5);
    TT_CHECK(gpu_icnt_idle(g.n));
    TT_EQ_U(gpu_icnt_next(g.n), UINT64_MAX);
    rig_close(&g);
}

/* 702: bandwidth in flits: a 4-flit reply holds its input and its output
** port 4 cycles.  All replies ready at 0:
**   slice 0 -> SM 0 and slice 0 -> SM 1: one input: granted at 0 and 4,
**     arriving 8 and 12;
**   slice 1 -> SM 2 and slice 2 -> SM 2: one output: 0 and 4 again;
**   slice 3 -> SM 0 is granted at 4 (SM 0's port is busy until 4 with
**     slice 0's reply), arriving 12. */
static void t702_bandwidth(void)
{
    rig g;
    rig_open(&g, 8);
    mem_queue_push(gpu_icnt_reply_in(g.n, 0), mk(&g, GPU_MR_LOAD, 0, 0, 128), 0);
    mem_queue_push(gpu_icnt_reply_in(g.n, 0), mk(&g, GPU_MR_LOAD, 1, 0, 128), 0);
    mem_queue_push(gpu_icnt_reply_in(g.n, 1), mk(&g, GPU_MR_LOAD, 2, 0, 128), 0);
    mem_queue_push(gpu_icnt_reply_in(g.n, 2), mk(&g, GPU_MR_LOAD, 2, 0, 128), 0);
    mem_queue_push(gpu_icnt_reply_in(g.n, 3), mk(&g, GPU_MR_LOAD, 0, 0, 128), 0);
    run_to(&g, 100);
    TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 0), 0), 8);
    TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 0), 1), 12);
    TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 1), 0), 12);
    TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 2), 0), 8);
    TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 2), 1), 12);
    TT_EQ_U(gpu_icnt_stats(g.n)->flits, 20);
    rig_close(&g);
}

/* 703: a full destination stalls the head and counts it.  Slice queues of
** 2 entries that nobody empties; SM 0 sends 4 one-flit requests to slice 0,
** ready at 0: granted at 0 and 1; from cycle 2 the third waits at its head
** with the slice's queue full: running to 20 counts cycles 2..19 = 18, in
** the interconnect's stall_cycles and in the queue's full_cycles. */
static void t703_queue_full(void)
{
    rig g;
    rig_open(&g, 2);
    for (int k = 0; k < 4; k++) mem_queue_push(gpu_icnt_inject(g.n, 0), mk(&g, GPU_MR_LOAD, 0, 0, 128), 0);
    run_to(&g, 20);
    TT_EQ_U(mem_queue_count(&g.slice[0]), 2);
    TT_EQ_U(ready_at(&g.slice[0], 0), LAT);
    TT_EQ_U(ready_at(&g.slice[0], 1), 1 + LAT);
    TT_EQ_U(gpu_icnt_stats(g.n)->stall_cycles, 18);
    TT_EQ_U(g.slice[0].full_cycles, 18);
    /* the slice takes one at 20: the third goes at 20, arrives 25 */
    gpu_mreq_put(&g.pool, mem_queue_pop(&g.slice[0]));
    run_to(&g, 21);
    TT_EQ_U(ready_at(&g.slice[0], 1), 20 + LAT);
    /* a full injection queue is what the SM sees as "cannot accept" */
    mem_queue *inj = gpu_icnt_inject(g.n, 1);
    for (int k = 0; k < 16; k++) mem_queue_push(inj, mk(&g, GPU_MR_LOAD, 1, 1, 128), 100);
    TT_CHECK(mem_queue_full(inj));
    rig_close(&g);
}

/* 704: round robin: SMs 0, 1, 2 each send two one-flit requests to slice
** 0, all ready at 0; the output grants one per cycle, SM 0, 1, 2, 0, 1, 2. */
static void t704_round_robin(void)
{
    rig g;
    rig_open(&g, 8);
    for (uint32_t sm = 0; sm < 3; sm++)
        for (int k = 0; k < 2; k++) mem_queue_push(gpu_icnt_inject(g.n, sm), mk(&g, GPU_MR_LOAD, sm, 0, 128), 0);
    run_to(&g, 50);
    TT_EQ_U(mem_queue_count(&g.slice[0]), 6);
    for (uint32_t k = 0; k < 6; k++) {
        const mem_qent *e = mem_queue_at(&g.slice[0], k);
        TT_EQ_U(((gpu_mreq *)e->p)->sm, k % 3);
        TT_EQ_U(e->ready, k + LAT);
    }
    rig_close(&g);
}

/* 705: packet sizes: a 128-byte store request carries its data (136 B, 4
** flits); a 4-byte atomic 12 B, 1 flit; a store's ack 8 B, 1 flit; an
** atomic's reply 12 B, 1 flit. */
static void t705_packet_sizes(void)
{
    rig g;
    rig_open(&g, 8);
    gpu_mreq *s = mk(&g, GPU_MR_STORE, 0, 0, 128), *a = mk(&g, GPU_MR_ATOMIC, 0, 0, 4);
    TT_EQ_U(gpu_icnt_flits(g.n, s, false), 4);
    TT_EQ_U(gpu_icnt_flits(g.n, s, true), 1);
    TT_EQ_U(gpu_icnt_flits(g.n, a, false), 1);
    TT_EQ_U(gpu_icnt_flits(g.n, a, true), 1);
    gpu_mreq_put(&g.pool, s);
    gpu_mreq_put(&g.pool, a);
    rig_close(&g);
}

/* 706: the slices a tick pushed into (the memory system asks only those
** for their next event).  One-flit requests ready at 0: SM 0 to slice 1,
** SMs 1 and 2 to slice 3.  Cycle 0 grants SM 0's to slice 1 and, by round
** robin from input 0, SM 1's to slice 3: two slices, each named once;
** cycle 1 SM 2's to slice 3 alone; a tick that moves nothing pushes
** nothing. */
static void t706_pushed(void)
{
    rig g;
    rig_open(&g, 8);
    mem_queue_push(gpu_icnt_inject(g.n, 0), mk(&g, GPU_MR_LOAD, 0, 1, 128), 0);
    mem_queue_push(gpu_icnt_inject(g.n, 1), mk(&g, GPU_MR_LOAD, 1, 3, 128), 0);
    mem_queue_push(gpu_icnt_inject(g.n, 2), mk(&g, GPU_MR_LOAD, 2, 3, 128), 0);
    const uint32_t *s;
    gpu_icnt_tick(g.n, 0);
    uint32_t n = gpu_icnt_req_pushed(g.n, &s);
    TT_EQ_U(n, 2);
    if (n == 2) TT_CHECK((s[0] == 1 && s[1] == 3) || (s[0] == 3 && s[1] == 1));
    TT_EQ_U(mem_queue_count(&g.slice[1]) + mem_queue_count(&g.slice[3]), 2);
    gpu_icnt_tick(g.n, 1);
    n = gpu_icnt_req_pushed(g.n, &s);
    TT_EQ_U(n, 1);
    if (n == 1) TT_EQ_U(s[0], 3);
    TT_EQ_U(mem_queue_count(&g.slice[3]), 2);
    gpu_icnt_tick(g.n, 2);
    TT_EQ_U(gpu_icnt_req_pushed(g.n, &s), 0);
    rig_close(&g);
}

/* 707: output buffers (icnt.out_buffer) against head-of-line blocking.
** 4-flit replies ready at 0: slice 1 has one for SM 0 and then one for SM
** 1; slice 0 one for SM 0.  Cycle 0: SM 0's output grants slice 0 (round
** robin starts at input 0), whose link sends it in cycles 0..3: it arrives
** at 0 + 5 + 3 = 8.
**   No buffer: slice 1's head waits for SM 0's link, granted at 4 (arrives
**     12), and its reply for SM 1, whose output is idle, waits behind it
**     until slice 1's port is free at 8: arrives 16.
**   8 flits: at cycle 1 three flits wait for SM 0's link (3 <= 8): slice
**     1's head is granted, leaves its input in cycles 1..4 and is sent
**     from 4 (arrives 12 as before); its reply for SM 1 goes at 5: 13.
**   2 flits: granted at 2, when 2 flits wait (arrives 12); SM 1's at 6: 14.
** The input ports are held 4 cycles either way (one flit a cycle). */
static void t707_out_buffer(void)
{
    static const uint32_t ob[] = {0, 8, 2};
    static const uint64_t sm1[] = {16, 13, 14};
    for (int k = 0; k < 3; k++) {
        rig g;
        rig_open_ob(&g, 8, ob[k]);
        mem_queue_push(gpu_icnt_reply_in(g.n, 1), mk(&g, GPU_MR_LOAD, 0, 0, 128), 0);
        mem_queue_push(gpu_icnt_reply_in(g.n, 1), mk(&g, GPU_MR_LOAD, 1, 0, 128), 0);
        mem_queue_push(gpu_icnt_reply_in(g.n, 0), mk(&g, GPU_MR_LOAD, 0, 0, 128), 0);
        run_to(&g, 100);
        TT_EQ_U(mem_queue_count(gpu_icnt_eject(g.n, 0)), 2);
        TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 0), 0), 8);
        TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 0), 1), 12);
        TT_EQ_U(ready_at(gpu_icnt_eject(g.n, 1), 0), sm1[k]);
        TT_CHECK(gpu_icnt_idle(g.n));
        rig_close(&g);
    }
}

/* 708: the next event a tick finds for each crossbar (gpu_icnt_ticked_next)
** is gpu_icnt_next_dir's, and a packet entering an empty input lowers it to
** that input's gpu_icnt_head_next: random traffic both ways (loads and
** stores, to random slices and SMs, slices and SMs that drain their queues
** at random), every tick and every new head checked against the full scan;
** without output buffers and with 8 flits of them (icnt.out_buffer). */
static void t708_ticked_next_ob(uint32_t ob)
{
    rig g;
    rig_open_ob(&g, 4, ob);
    uint32_t x = 12345;
    uint64_t kept[2] = {UINT64_MAX, UINT64_MAX};
    uint32_t bad = 0;
    for (uint64_t c = 0; c < 3000; c++) {
        for (int k = 0; k < 3; k++) {   /* up to three packets enter, some into empty inputs */
            x = x * 1103515245u + 12345u;
            bool reply = x >> 31;
            uint32_t src = (x >> 16) % (reply ? 4u : 3u), tgt = (x >> 8) % (reply ? 3u : 4u);
            mem_queue *q = reply ? gpu_icnt_reply_in(g.n, src) : gpu_icnt_inject(g.n, src);
            if ((x >> 4) % 3 || mem_queue_full(q)) continue;
            gpu_mreq *r = mk(&g, (x >> 2) & 1 ? GPU_MR_STORE : GPU_MR_LOAD, reply ? tgt : src, reply ? 0 : tgt, 128);
            r->is_reply = reply;
            bool was_empty = mem_queue_empty(q);
            mem_queue_push(q, r, c + (x >> 12) % 7);
            if (was_empty) {
                uint64_t h = gpu_icnt_head_next(g.n, reply, src);
                if (h < kept[reply]) kept[reply] = h;
            }
            bad += kept[reply] != gpu_icnt_next_dir(g.n, reply);
        }
        gpu_icnt_tick(g.n, c);
        for (int d = 0; d < 2; d++) {
            kept[d] = gpu_icnt_ticked_next(g.n, d);
            bad += kept[d] != gpu_icnt_next_dir(g.n, d);
        }
        x = x * 1103515245u + 12345u;   /* the slices and SMs take what has arrived, now and then */
        for (uint32_t s = 0; s < 4; s++)
            if ((x >> (s + 8)) & 1 && mem_queue_peek(&g.slice[s], c)) {
                gpu_mreq_put(&g.pool, mem_queue_pop(&g.slice[s]));
                uint64_t h = gpu_icnt_room(g.n, s, c);   /* the parked heads may move */
                if (h < kept[0]) kept[0] = h;
            }
        for (int d = 0; d < 2; d++) bad += kept[d] != gpu_icnt_next_dir(g.n, d);
        for (uint32_t sm = 0; sm < 3; sm++)
            if ((x >> (sm + 16)) & 1 && mem_queue_peek(gpu_icnt_eject(g.n, sm), c))
                gpu_mreq_put(&g.pool, mem_queue_pop(gpu_icnt_eject(g.n, sm)));
    }
    TT_EQ_U(bad, 0);
    TT_CHECK(gpu_icnt_stats(g.n)->packets > 1000);
    TT_CHECK(gpu_icnt_stats(g.n)->stall_cycles > 0);
    rig_close(&g);
}

static void t708_ticked_next(void)
{
    t708_ticked_next_ob(0);
    t708_ticked_next_ob(8);
}

/* Whether two queues hold the same packets (kind, SM, address: the rigs'
** own copies) with the same ready times, and have the same counters. */
static bool same_queue(const mem_queue *a, const mem_queue *b)
{
    if (mem_queue_count(a) != mem_queue_count(b) || a->pushes != b->pushes || a->full_cycles != b->full_cycles)
        return false;
    for (uint32_t i = 0; i < mem_queue_count(a); i++) {
        const mem_qent *x = mem_queue_at(a, i), *y = mem_queue_at(b, i);
        const gpu_mreq *p = x->p, *q = y->p;
        if (x->ready != y->ready || p->kind != q->kind || p->sm != q->sm || p->addr != q->addr) return false;
    }
    return true;
}

/* 709: ticking only the crossbars whose next event is due (gpu_icnt_tick_dirs,
** as gpu/memsys.c does: each crossbar's next event kept from its own tick
** and lowered by new heads, gpu_icnt_new_head, and by room for parked
** heads, gpu_icnt_room; cycles with neither due not ticked at all; each
** tick visiting only the inputs it has seen packets enter and not found
** empty since, parked ones left out), with heads parked on full
** slice queues (their stalls counted in bulk, gpu_icnt_sync), changes
** nothing: two rigs take the same random traffic both ways and drain their
** queues alike, one without parking ticking both crossbars in every cycle,
** and every queue (the slices' inputs, the SMs' ejection queues, both
** crossbars' inputs) and every counter must be the same after every
** cycle; the kept next events must be the full scan's. */
static void t709_due_only_ob(uint32_t ob)
{
    rig g[2];
    rig_open_c(&g[0], 4, ob, true);
    rig_open_c(&g[1], 4, ob, false);
    uint32_t x = 777;
    uint64_t kept[2] = {UINT64_MAX, UINT64_MAX};
    uint32_t bad = 0, skipped = 0;
    for (uint64_t c = 0; c < 4000; c++) {
        for (int k = 0; k < 3; k++) {
            x = x * 1103515245u + 12345u;
            bool reply = x >> 31;
            uint32_t src = (x >> 16) % (reply ? 4u : 3u), tgt = (x >> 8) % (reply ? 3u : 4u);
            if ((x >> 4) % 3) continue;
            for (int r = 0; r < 2; r++) {
                mem_queue *q = reply ? gpu_icnt_reply_in(g[r].n, src) : gpu_icnt_inject(g[r].n, src);
                if (mem_queue_full(q)) continue;
                gpu_mreq *m = mk(&g[r], (x >> 2) & 1 ? GPU_MR_STORE : GPU_MR_LOAD, reply ? tgt : src, reply ? 0 : tgt, 128);
                m->is_reply = reply;
                bool was_empty = mem_queue_empty(q);
                mem_queue_push(q, m, c + (x >> 12) % 7);
                if (r == 1 && was_empty) {
                    uint64_t h = gpu_icnt_new_head(g[1].n, reply, src);   /* it looks at src again */
                    if (h < kept[reply]) kept[reply] = h;
                }
            }
        }
        gpu_icnt_tick(g[0].n, c);
        unsigned dirs = (kept[0] <= c ? GPU_ICNT_REQ : 0u) | (kept[1] <= c ? GPU_ICNT_REP : 0u);
        if (dirs) gpu_icnt_tick_dirs(g[1].n, c, dirs);
        skipped += dirs != (GPU_ICNT_REQ | GPU_ICNT_REP);
        if (dirs & GPU_ICNT_REQ) kept[0] = gpu_icnt_ticked_next(g[1].n, false);
        if (dirs & GPU_ICNT_REP) kept[1] = gpu_icnt_ticked_next(g[1].n, true);
        for (int d = 0; d < 2; d++) bad += kept[d] != gpu_icnt_next_dir(g[1].n, d);
        x = x * 1103515245u + 12345u;   /* the slices and SMs take what has arrived, now and then */
        for (int r = 0; r < 2; r++) {
            for (uint32_t s = 0; s < 4; s++)
                if ((x >> (s + 8)) & 1 && mem_queue_peek(&g[r].slice[s], c)) {
                    gpu_mreq_put(&g[r].pool, mem_queue_pop(&g[r].slice[s]));
                    uint64_t h = r ? gpu_icnt_room(g[1].n, s, c) : UINT64_MAX;
                    if (h < kept[0]) kept[0] = h;
                }
            for (uint32_t sm = 0; sm < 3; sm++)
                if ((x >> (sm + 16)) & 1 && mem_queue_peek(gpu_icnt_eject(g[r].n, sm), c))
                    gpu_mreq_put(&g[r].pool, mem_queue_pop(gpu_icnt_eject(g[r].n, sm)));
        }
        gpu_icnt_sync(g[1].n, c + 1);
        for (uint32_t s = 0; s < 4; s++) {
            bad += !same_queue(&g[0].slice[s], &g[1].slice[s]);
            bad += !same_queue(gpu_icnt_reply_in(g[0].n, s), gpu_icnt_reply_in(g[1].n, s));
        }
        for (uint32_t sm = 0; sm < 3; sm++) {
            bad += !same_queue(gpu_icnt_eject(g[0].n, sm), gpu_icnt_eject(g[1].n, sm));
            bad += !same_queue(gpu_icnt_inject(g[0].n, sm), gpu_icnt_inject(g[1].n, sm));
        }
        for (int d = 0; d < 2; d++) bad += kept[d] != gpu_icnt_next_dir(g[1].n, d);
        bad += memcmp(gpu_icnt_stats(g[0].n), gpu_icnt_stats(g[1].n), sizeof(gpu_icntstats)) != 0;
    }
    TT_EQ_U(bad, 0);
    TT_CHECK(skipped > 500);
    TT_CHECK(gpu_icnt_stats(g[0].n)->packets > 1000);
    TT_CHECK(gpu_icnt_stats(g[0].n)->stall_cycles > 0);
    rig_close(&g[0]);
    rig_close(&g[1]);
}

static void t709_due_only(void)
{
    t709_due_only_ob(0);
    t709_due_only_ob(8);
}

int main(void)
{
    TT_RUN(t701_latency);
    TT_RUN(t702_bandwidth);
    TT_RUN(t703_queue_full);
    TT_RUN(t704_round_robin);
    TT_RUN(t705_packet_sizes);
    TT_RUN(t706_pushed);
    TT_RUN(t707_out_buffer);
    TT_RUN(t708_ticked_next);
    TT_RUN(t709_due_only);
    return tt_done();
}
