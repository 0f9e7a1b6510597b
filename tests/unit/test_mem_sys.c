/* test_mem_sys.c -- the whole memory system (gpu/memsys.c) from mock SMs:
** exact round trips through every clock domain, the address mapping,
** determinism, and DRAM bandwidth under streaming.
**
** Default (GTX 480) options of gpu/mem_options.def and gpu/options.def:
**   clocks core 700, icnt 700, L2 700, DRAM 924 MHz: reduced 25:25:25:33,
**     common time base L = 825 units, periods 33, 33, 33, 25 (memsys.c);
**     core cycle n is at time 33n, DRAM cycle k at 25k.
**   icnt.latency 5, 40-byte flits, 8 control bytes: a load request is 1
**     flit, a 128-byte reply 136 B = 4 flits; a packet granted at icnt
**     cycle c arrives at c + 5 + flits - 1.
**   l2.latency 120 core cycles (= 120 L2 cycles here).
**   DRAM: tRCD 12, tCL 12, a 128-byte read holds the bus 4 cycles;
**     dram.latency 100 core cycles = 3300 time units.
**   A queue entry pushed at time t is seen from t + 1 on (ready > t). */
#include "tests/unit/tt.h"
#include "gpu/memsys.h"
#include "gpu/options.h"
#include "gpu/internal.h"

#define BASE 0x200000000000ull
enum { NSM = 15 };

typedef struct rig {
    tp_opts o;
    gpu_mreq_pool pool;
    gpu_memsys *m;
} rig;

static void rig_open(rig *g, const char *kv)
{
    gpu_opts_init(&g->o);
    tp_err e;
    tp_err_clear(&e);
    if (kv) TT_CHECK(tp_opts_set_list(&g->o, kv, TP_SRC_OVERRIDE, &e));
    gpu_mreq_pool_init(&g->pool);
    g->m = gpu_memsys_new(&g->o, NSM, &g->pool);
}

static void rig_close(rig *g)
{
    TT_CHECK(gpu_memsys_idle(g->m));
    gpu_memsys_free(g->m);
    TT_EQ_U(g->pool.live, 0);
    gpu_mreq_pool_free(&g->pool);
    tp_opts_free(&g->o);
}

static gpu_mreq *mk(rig *g, int kind, uint32_t sm, uint64_t addr, uint32_t tag)
{
    gpu_mreq *r = gpu_mreq_get(&g->pool);
    r->kind = (uint8_t)kind;
    r->space = GPU_MS_GLOBAL;
    r->sm = (uint16_t)sm;
    r->addr = addr;
    r->bytes = 128;
    r->tag = tag;
    return r;
}

/* Sends one request at core cycle `at` and returns the core cycle its
** reply pops (UINT64_MAX: none within `limit` cycles).  Ticks only at the
** cycles gpu_memsys_next names, as a top-level loop that skips idle time
** would. */
static uint64_t round_trip(rig *g, gpu_mreq *r, uint64_t at, uint64_t limit)
{
    TT_CHECK(gpu_memsys_can_accept(g->m, r->sm, r));
    gpu_memsys_accept(g->m, r, at);
    uint64_t now = at;
    while (now < at + limit) {
        gpu_memsys_tick(g->m, now);
        gpu_mreq *p = gpu_memsys_pop(g->m, r->sm, now);
        if (p) {
            TT_CHECK(p == r && p->is_reply);
            gpu_mreq_put(&g->pool, p);
            return now;
        }
        uint64_t n = gpu_memsys_next(g->m);
        if (n == UINT64_MAX) break;
        now = n > now ? n : now + 1;
    }
    return UINT64_MAX;
}

/* 815: gpu_memsys_reply_at names the core cycle a reply in the ejection
** buffer may be taken, the cycle the launch loop wakes a sleeping SM for
** it: 801's miss, accepted at 0 and ticked in every cycle, is pushed into
** the buffer in icnt cycle 250 with its tail arriving at 258: reply_at says
** 258 as soon as it is there, pop refuses it at 257 and gives it at 258.
** Nothing for any other SM, and nothing once it is taken. */
static void t815_reply_at(void)
{
    rig g;
    rig_open(&g, NULL);
    gpu_mreq *r = mk(&g, GPU_MR_LOAD, 4, BASE, 1);
    TT_EQ_U(gpu_memsys_reply_at(g.m, 4), UINT64_MAX);
    gpu_memsys_accept(g.m, r, 0);
    uint64_t now = 0, at = UINT64_MAX;
    for (; now < 1000 && at == UINT64_MAX; now++) {
        gpu_memsys_tick(g.m, now);
        at = gpu_memsys_reply_at(g.m, 4);
    }
    TT_EQ_U(at, 258);
    TT_CHECK(now <= 258);                  /* known before its cycle */
    TT_EQ_U(gpu_memsys_reply_at(g.m, 3), UINT64_MAX);
    TT_CHECK(gpu_memsys_pop(g.m, 4, 257) == NULL);
    gpu_mreq *p = gpu_memsys_pop(g.m, 4, 258);
    TT_CHECK(p == r && p->is_reply);
    gpu_mreq_put(&g.pool, p);
    TT_EQ_U(gpu_memsys_reply_at(g.m, 4), UINT64_MAX);
    rig_close(&g);
}

/* Runs until nothing is in flight (stores leave no reply). */
static void settle(rig *g, uint64_t from)
{
    for (uint64_t now = from; !gpu_memsys_idle(g->m) && now < from + 100000; now++) gpu_memsys_tick(g->m, now);
}

/* 801: an L2 miss served by DRAM, from a cold system, accepted at core 0:
**   icnt cycle 1 (time 33 >= 0 * 33 + 1): granted, 1 flit, arrives at the
**     slice at 1 + 5 = 6;
**   L2 cycle 6: into the ROP pipe; lookup at 6 + 120 = 126 (time 4158):
**     miss, DRAM read ready 4159;
**   DRAM cycle ceil(4159 / 25) = 167 (time 4175): taken, ACT (bank closed);
**     RD at 167 + tRCD = 179, the line's second burst (same bank: tCCDL)
**     at 182; its data 194..196; ready 196 * 25 + 3300 = 8200;
**   L2 cycle ceil(8200 / 33) = 249 (time 8217): fill, reply ready 8218;
**   icnt cycle 250: granted, 4 flits, arrives 250 + 5 + 3 = 258.
** The SM pops it at core cycle 258.
** 802: the same line again at core 100000 is an L2 hit:
**   icnt n+1, slice n+6, lookup n+126, icnt n+127, arrival n+127+5+3:
**   135 core cycles = 2 hops + 2 x 5 (icnt) + 120 (ROP) + 3 (reply tail).
** Idle time between the two costs nothing and changes nothing; a hit
** after 10^9 idle cycles takes 135 cycles too. */
static void t801_l2_miss_then_hit(void)
{
    rig g;
    rig_open(&g, NULL);
    TT_EQ_U(gpu_memsys_next(g.m), UINT64_MAX);
    TT_EQ_U(round_trip(&g, mk(&g, GPU_MR_LOAD, 0, BASE, 1), 0, 10000), 258);
    const gpu_memstats *s = gpu_memsys_stats(g.m);
    TT_EQ_U(s->l2_misses, 1);
    TT_EQ_U(s->dram_reads, 1);
    TT_EQ_U(s->dram_activates, 1);
    TT_EQ_U(s->dram_busy_cycles, 4);
    TT_EQ_U(s->icnt_packets, 2);
    TT_EQ_U(s->icnt_flits, 5);
    TT_EQ_U(gpu_memsys_next(g.m), UINT64_MAX);
    TT_EQ_U(round_trip(&g, mk(&g, GPU_MR_LOAD, 3, BASE + 64, 2), 100000, 10000), 100000 + 135);
    s = gpu_memsys_stats(g.m);   /* summed when asked for */
    TT_EQ_U(s->l2_hits, 1);
    TT_EQ_U(round_trip(&g, mk(&g, GPU_MR_LOAD, 14, BASE, 3), 1000000000, 10000), 1000000000 + 135);
    s = gpu_memsys_stats(g.m);
    /* DRAM cycles elapsed by core cycle 10^9 + 135, over 6 channels */
    TT_EQ_U(s->dram_cycles, (1000000135ull * 33 / 25) * 6);
    rig_close(&g);
}

/* 803: the miss round trip depends on where the L2's edge falls among the
** DRAM's: accepted at core 1, lookup at L2 127 (time 4191, read ready
** 4192), DRAM cycle ceil(4192 / 25) = 168, ACT 168, RD 180 and 183, data
** ends 197, ready 4925 + 3300 = 8225, L2 cycle ceil(8225 / 33) = 250,
** arrival 251 + 8 = 259: 258 cycles after acceptance, as 801.  Accepted at
** core 3: lookup 129 (time 4257, ready 4258), DRAM ceil(4258 / 25) = 171,
** data ends 200, ready 5000 + 3300 = 8300, L2 ceil(8300 / 33) = 252,
** arrival 253 + 8 = 261: 258 again.  At core 2: lookup 128 (4224 -> 4225),
** DRAM ceil(4225 / 25) = 169, data ends 198, ready 8250, L2 ceil(8250 / 33)
** = 250 (8250 exactly), arrival 251 + 8 = 259: 257, one L2 cycle less. */
static void t803_miss_phases(void)
{
    static const uint64_t at[] = {1, 2, 3}, rt[] = {258, 257, 258};
    for (uint32_t k = 0; k < 3; k++) {
        rig g;
        rig_open(&g, NULL);
        TT_EQ_U(round_trip(&g, mk(&g, GPU_MR_LOAD, 0, BASE, 1), at[k], 10000), at[k] + rt[k]);
        rig_close(&g);
    }
}

/* 804: stores are performed at the L2 and not answered; one that wants an
** ack is answered: accepted at 0, a 136-byte request (4 flits) granted at
** icnt 1 arrives at 1 + 5 + 3 = 9, looked up at 129 (write-allocate, no
** DRAM read), ack (1 flit) granted at 130, arrives 135. */
static void t804_stores(void)
{
    rig g;
    rig_open(&g, NULL);
    gpu_mreq *s = mk(&g, GPU_MR_STORE, 2, BASE + 4096, 1);
    gpu_memsys_accept(g.m, s, 0);
    settle(&g, 0);
    TT_EQ_U(g.pool.live, 0);
    TT_EQ_U(gpu_memsys_stats(g.m)->l2_accesses, 1);
    TT_EQ_U(gpu_memsys_stats(g.m)->dram_reads, 0);
    s = mk(&g, GPU_MR_STORE, 2, BASE + 8192, 2);
    s->want_ack = 1;
    TT_EQ_U(round_trip(&g, s, 0 + 200000, 10000), 200000 + 135);
    rig_close(&g);
}

/* The slice of line k from BASE when each line goes to its own slice
** (t805) and when two consecutive lines share one (t817). */
static uint32_t line_slice(uint32_t k) { return ((2 + k / 2) % 6) * 2 + k % 2; }
static uint32_t chunk_slice(uint32_t k) { return ((2 + k / 2) % 6) * 2 + (1 + (2 + k / 2) / 6) % 2; }

/* Opens a rig with options kv, checks that the n lines from BASE go to
** want(k), and that they use all 12 slices. */
static void check_slices(const char *kv, uint32_t n, uint32_t (*want)(uint32_t))
{
    rig g;
    rig_open(&g, kv);
    uint32_t seen = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t s = gpu_memsys_slice_of(g.m, BASE + 128ull * k);
        TT_EQ_U(s, want(k));
        seen |= 1u << s;
    }
    TT_EQ_U(seen, 0xfff);
    rig_close(&g);
}

/* 805: with addr.slice_interleave = 0 (the L2 line; the table's default is
** GPGPU-Sim's 256, t817) consecutive 128-byte lines go round the channels two
** at a time (the 256-byte interleave) and alternate between a channel's two
** slices, so 12 consecutive lines use all 12 slices.  BASE = 2^45 is chunk 2^37 of 256
** bytes, and 2^37 mod 6 = 2: line k is in channel (2 + k / 2) mod 6, slice
** channel * 2 + k mod 2. */
static void t805_address_map(void) { check_slices("addr.slice_interleave=0", 12, line_slice); }

/* 806: a full injection port refuses (icnt.queue = 16 packets). */
static void t806_port_full(void)
{
    rig g;
    rig_open(&g, NULL);
    for (uint32_t k = 0; k < 16; k++) {
        gpu_mreq *r = mk(&g, GPU_MR_LOAD, 5, BASE + 128ull * k, k);
        TT_CHECK(gpu_memsys_can_accept(g.m, 5, r));
        gpu_memsys_accept(g.m, r, 0);
    }
    gpu_mreq *r = mk(&g, GPU_MR_LOAD, 5, BASE, 99);
    TT_CHECK(!gpu_memsys_can_accept(g.m, 5, r));
    TT_CHECK(gpu_memsys_can_accept(g.m, 6, r));
    gpu_mreq_put(&g.pool, r);
    uint32_t got = 0;
    for (uint64_t now = 0; now < 5000; now++) {
        gpu_memsys_tick(g.m, now);
        gpu_mreq *p;
        while ((p = gpu_memsys_pop(g.m, 5, now))) {
            gpu_mreq_put(&g.pool, p);
            got++;
        }
    }
    TT_EQ_U(got, 16);
    rig_close(&g);
}

/* A mixed workload from every SM; returns a digest of (sm, tag, cycle) of
** every reply, in order, and copies the statistics.  skip: tick only at
** the cycles gpu_memsys_next names (and where something is accepted). */
static uint64_t workload(bool skip, gpu_memstats *out)
{
    rig g;
    rig_open(&g, NULL);
    uint64_t digest = 1469598103934665603ull;
    uint32_t x = 2463534242u, tag = 0;
    for (uint64_t now = 0; now < 30000; now++) {
        bool acted = false;
        for (uint32_t sm = 0; sm < NSM && now < 20000; sm++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if (x % 8 != 0) continue;
            uint64_t addr = BASE + 128ull * ((x >> 8) % 16384);
            int kind = (x >> 4) % 8 == 0 ? GPU_MR_STORE : (x >> 4) % 16 == 1 ? GPU_MR_ATOMIC : GPU_MR_LOAD;
            gpu_mreq *r = mk(&g, kind, sm, addr, tag++);
            if (kind == GPU_MR_ATOMIC) r->bytes = 4;
            if (!gpu_memsys_can_accept(g.m, sm, r)) {
                gpu_mreq_put(&g.pool, r);
                continue;
            }
            gpu_memsys_accept(g.m, r, now);
            acted = true;
        }
        if (!skip || acted || gpu_memsys_next(g.m) <= now) gpu_memsys_tick(g.m, now);
        for (uint32_t sm = 0; sm < NSM; sm++) {
            gpu_mreq *p;
            while ((p = gpu_memsys_pop(g.m, sm, now))) {
                digest = (digest ^ (p->sm * 1000003ull + p->tag * 7919ull + now)) * 1099511628211ull;
                gpu_mreq_put(&g.pool, p);
            }
        }
    }
    for (uint64_t now = 30000; !gpu_memsys_idle(g.m) && now < 100000; now++) gpu_memsys_tick(g.m, now);
    gpu_memsys_tick(g.m, 100000);   /* the same end of time for both ways of ticking */
    *out = *gpu_memsys_stats(g.m);
    rig_close(&g);
    return digest;
}

/* 807: deterministic: the same workload twice gives identical replies and
** statistics, and skipping idle cycles changes nothing. */
static void t807_deterministic(void)
{
    gpu_memstats a, b, c;
    uint64_t da = workload(false, &a), db = workload(false, &b), dc = workload(true, &c);
    TT_EQ_U(da, db);
    TT_EQ_U(da, dc);
    TT_CHECK(memcmp(&a, &b, sizeof a) == 0);
    TT_CHECK(memcmp(&a, &c, sizeof a) == 0);
    TT_CHECK(a.l2_hits > 0 && a.l2_misses > 0 && a.dram_writes > 0 && a.l2_mshr_merges > 0);
}

/* 808: streaming saturates DRAM.  Every SM streams loads over distinct
** lines as fast as its port takes them, either (sweep) all SMs together
** over one array, SM s taking lines s, s + 15, s + 30 ..., or (regions)
** each SM over its own 64 MB region: 15 streams at once.  Peak: each
** channel moves bus_bytes * data_rate = 8 * 4 = 32 bytes per DRAM cycle, a
** 128-byte line per 4 cycles; 6 channels at 924 MHz against a 700 MHz core:
**     6 * 32 / 128 * 924 / 700 = 1.98 lines per core cycle (177.4 GB/s).
** Measured over core cycles [10000, 40000), after the pipes have filled,
** the delivered lines must be within 5% of that, and never above it.  What
** can be lost: cycles where no ready row hit is left in a bank group other
** than the last one's (tCCDL: 5 cycles for a line instead of 4), and row
** switches (tRP + tRCD = 24 cycles in a bank) when the other banks have
** nothing ready meanwhile.  The 256-byte bank interleave keeps many banks
** and all groups busy, so both stay rare even at 50% row hits (regions:
** 15 streams share every bank).  Refresh takes its share first: every
** tREFI = 1755 cycles each channel closes its rows and stops tRFC = 61
** cycles, so at most 1 - 61 / 1755 = 96.5% of the peak is left, and the
** bound is 95% of that (and of the bus's busy fraction). */
static void stream(bool regions)
{
    rig g;
    rig_open(&g, NULL);
    uint64_t next_line[NSM] = {0}, got = 0, t0 = 10000, t1 = 40000;
    uint64_t busy0 = 0, cyc0 = 0;
    for (uint64_t now = 0; now < t1; now++) {
        for (uint32_t sm = 0; sm < NSM; sm++) {
            uint64_t line = regions ? ((uint64_t)sm << 19) + next_line[sm] : next_line[sm] * NSM + sm;
            gpu_mreq *r = mk(&g, GPU_MR_LOAD, sm, BASE + 128 * line, 0);
            if (gpu_memsys_can_accept(g.m, sm, r)) {
                gpu_memsys_accept(g.m, r, now);
                next_line[sm]++;
            } else {
                gpu_mreq_put(&g.pool, r);
            }
        }
        gpu_memsys_tick(g.m, now);
        if (now == t0) {
            busy0 = gpu_memsys_stats(g.m)->dram_busy_cycles;
            cyc0 = gpu_memsys_stats(g.m)->dram_cycles;
        }
        for (uint32_t sm = 0; sm < NSM; sm++) {
            gpu_mreq *p;
            while ((p = gpu_memsys_pop(g.m, sm, now))) {
                if (now >= t0) got++;
                gpu_mreq_put(&g.pool, p);
            }
        }
    }
    double rate = (double)got / (double)(t1 - t0), peak = 6.0 * 32 / 128 * 924 / 700;
    const gpu_memstats *s = gpu_memsys_stats(g.m);
    double util = (double)(s->dram_busy_cycles - busy0) / (double)(s->dram_cycles - cyc0);
    printf("    %s: %.4f lines/core cycle, peak %.4f (%.1f%%), DRAM bus busy %.1f%%, row hits %.1f%%\n",
           regions ? "regions" : "sweep", rate, peak, 100 * rate / peak, 100 * util,
           100.0 * (double)s->dram_row_buffer_hits / (double)s->dram_reads);
    double left = 1.0 - 61.0 / 1755;   /* refresh: tRFC / tREFI */
    TT_CHECK(rate >= 0.95 * left * peak);
    TT_CHECK(rate <= peak * left * 1.001);
    TT_CHECK(util >= 0.95 * left && util <= left);
    TT_CHECK(s->dram_refreshes > 0);
    /* drain: stop issuing, take every reply */
    for (uint64_t now = t1; !gpu_memsys_idle(g.m) && now < t1 + 100000; now++) {
        gpu_memsys_tick(g.m, now);
        for (uint32_t sm = 0; sm < NSM; sm++) {
            gpu_mreq *p;
            while ((p = gpu_memsys_pop(g.m, sm, now))) gpu_mreq_put(&g.pool, p);
        }
    }
    rig_close(&g);
}

static void t808_stream_bandwidth_sweep(void) { stream(false); }
static void t809_stream_bandwidth_regions(void) { stream(true); }

/* 810: clock-domain crossings at another ratio: core at 1400 MHz, icnt
** and L2 at 700, DRAM at 924.  Reduced 50 : 25 : 25 : 33, L = 1650, periods
** core 33, icnt 66, L2 66, DRAM 50.  An L2 hit accepted at core 100000
** (time 3300000): icnt edge ceil(3300001 / 66) = 50001, arrival 50006
** (time 3300396), lookup 120 core cycles = 3960 later at 3304356 = L2 edge
** 50066, reply granted at icnt 50067, arrives 50067 + 8 = 50075 (time
** 3304950) = core cycle 100150: 150 core cycles, i.e. 2 (hop) + 10 (5 icnt
** cycles) + 120 (ROP, in core cycles) + 2 (hop) + 16 (8 icnt cycles). */
static void t810_clock_ratio(void)
{
    rig g;
    rig_open(&g, "clock.core_mhz=1400");
    TT_CHECK(round_trip(&g, mk(&g, GPU_MR_LOAD, 0, BASE, 1), 0, 10000) != UINT64_MAX);
    TT_EQ_U(round_trip(&g, mk(&g, GPU_MR_LOAD, 0, BASE, 2), 100000, 10000), 100150);
    rig_close(&g);
}

/* 811: without an L2 (l2.slice_size = 0) every load is a DRAM read (two in
** flight to one line still merge), and a store goes on to DRAM as a write;
** FCFS scheduling runs the same requests. */
static void t811_no_l2(void)
{
    for (int fcfs = 0; fcfs < 2; fcfs++) {
        rig g;
        rig_open(&g, fcfs ? "l2.slice_size=0 dram.scheduler=fcfs" : "l2.slice_size=0");
        TT_CHECK(round_trip(&g, mk(&g, GPU_MR_LOAD, 0, BASE, 1), 0, 10000) != UINT64_MAX);
        TT_CHECK(round_trip(&g, mk(&g, GPU_MR_LOAD, 0, BASE, 2), 1000, 10000) != UINT64_MAX);
        gpu_memsys_accept(g.m, mk(&g, GPU_MR_LOAD, 0, BASE, 3), 2000);
        gpu_memsys_accept(g.m, mk(&g, GPU_MR_LOAD, 1, BASE, 4), 2000);
        gpu_memsys_accept(g.m, mk(&g, GPU_MR_STORE, 1, BASE + 128, 5), 2000);
        uint32_t got = 0;
        for (uint64_t now = 2000; now < 5000; now++) {
            gpu_memsys_tick(g.m, now);
            for (uint32_t sm = 0; sm < 2; sm++) {
                gpu_mreq *p;
                while ((p = gpu_memsys_pop(g.m, sm, now))) {
                    gpu_mreq_put(&g.pool, p);
                    got++;
                }
            }
        }
        TT_EQ_U(got, 2);
        const gpu_memstats *s = gpu_memsys_stats(g.m);
        TT_EQ_U(s->dram_reads, 3);
        TT_EQ_U(s->l2_mshr_merges, 1);
        TT_EQ_U(s->dram_writes, 1);
        TT_EQ_U(s->l2_hits, 0);
        rig_close(&g);
    }
}

/* 812: icnt.eject_rate.  Two acknowledged stores of SM 0 to two slices
** (lines BASE and BASE + 128: 805) accepted at core 0 are both answered
** long before core 1000 (804: 135 cycles each, the second request 4 flits
** behind the first); the SM has not taken them.  At core 1000 it takes one
** (the rate's 1 per cycle, the GTX 480 default), the other at 1001; with
** icnt.eject_rate = 0 both at 1000, and with 2 both at 1000. */
static void t812_eject_rate(void)
{
    static const char *const kv[] = {NULL, "icnt.eject_rate=0", "icnt.eject_rate=2"};
    for (uint32_t v = 0; v < 3; v++) {
        rig g;
        rig_open(&g, kv[v]);
        for (uint32_t k = 0; k < 2; k++) {
            gpu_mreq *s = mk(&g, GPU_MR_STORE, 0, BASE + 128 * k, k);
            s->want_ack = 1;
            TT_CHECK(gpu_memsys_can_accept(g.m, 0, s));
            gpu_memsys_accept(g.m, s, 0);
        }
        for (uint64_t now = 0; now < 1000; now++) gpu_memsys_tick(g.m, now);
        uint32_t got = 0;
        gpu_mreq *p;
        while ((p = gpu_memsys_pop(g.m, 0, 1000))) {
            gpu_mreq_put(&g.pool, p);
            got++;
        }
        TT_EQ_U(got, v ? 2 : 1);
        gpu_memsys_tick(g.m, 1000);
        while ((p = gpu_memsys_pop(g.m, 0, 1001))) {
            gpu_mreq_put(&g.pool, p);
            got++;
        }
        TT_EQ_U(got, 2);
        rig_close(&g);
    }
}

/* 813: back-pressure.  With icnt.eject_queue = 1 and icnt.queue = 1, three
** acknowledged stores of SM 0 to one line, accepted at core 0, 20 and 40,
** looked up at 129, 149, 169 (804), and never taken until core 1000: the
** first ack (granted 130, arrives 135) fills the SM's ejection buffer, the
** second waits in the slice's reply input from 149, and the third cannot
** leave the slice: it stalls every L2 cycle from 169 to 999, 831 reply
** stall cycles.  From core 1000 the SM takes one reply a cycle at most;
** each pop frees the buffer, the next ack (1 flit) is granted in that
** cycle's tick and arrives icnt.latency 5 later: pops at 1000, 1005, 1010. */
static void t813_backpressure(void)
{
    rig g;
    rig_open(&g, "icnt.eject_queue=1 icnt.queue=1");
    for (uint64_t now = 0; now < 100; now++) {
        if (now % 20 == 0 && now < 60) {
            gpu_mreq *s = mk(&g, GPU_MR_STORE, 0, BASE, (uint32_t)now);
            s->want_ack = 1;
            TT_CHECK(gpu_memsys_can_accept(g.m, 0, s));
            gpu_memsys_accept(g.m, s, now);
        }
        gpu_memsys_tick(g.m, now);
    }
    for (uint64_t now = 100; now < 1000; now++) gpu_memsys_tick(g.m, now);
    uint64_t st = gpu_memsys_stats(g.m)->icnt_reply_stall_cycles;
    TT_EQ_U(st, 831);
    static const uint64_t want[3] = {1000, 1005, 1010};
    uint32_t got = 0;
    for (uint64_t now = 1000; now < 1020; now++) {
        gpu_mreq *p;
        uint32_t n = 0;
        while ((p = gpu_memsys_pop(g.m, 0, now))) {
            gpu_mreq_put(&g.pool, p);
            n++;
        }
        TT_CHECK(n <= 1);
        if (n && got < 3) TT_EQ_U(now, want[got]);
        got += n;
        gpu_memsys_tick(g.m, now);
    }
    TT_EQ_U(got, 3);
    settle(&g, 1020);
    rig_close(&g);
}

/* 814: what the coalescer puts on each line request (gpu_coalesce_info):
** the 32-byte sectors its lanes touch (bits counted in the 512-byte block,
** so the line at B + 128 names sectors 4..7) and, for atomics, the lanes'
** operations and the most of them on one address. */
static void t814_coalesce_info(void)
{
    const uint64_t B = 0x200000000000ull;
    uint64_t addr[32], lines[32];
    uint32_t bytes[32];
    gpu_lineinfo li[32];
    /* 32 lanes x 4 bytes contiguous: one line, all four sectors */
    for (int l = 0; l < 32; l++) addr[l] = B + 4 * (uint64_t)l;
    uint32_t n = gpu_coalesce(addr, ~0u, 4, 128, lines, bytes);
    gpu_coalesce_info(addr, ~0u, 4, 128, lines, n, false, li);
    TT_EQ_U(n, 1);
    TT_EQ_U(li[0].sectors, 0xF);
    TT_EQ_U(li[0].ops, 0);
    /* lanes 0..7 only, 8 bytes apart, at B + 128 + 40: bytes 168..231 of
    ** the block: sectors 5, 6, 7 */
    for (int l = 0; l < 32; l++) addr[l] = B + 128 + 40 + 8 * (uint64_t)l;
    n = gpu_coalesce(addr, 0xFFu, 4, 128, lines, bytes);
    gpu_coalesce_info(addr, 0xFFu, 4, 128, lines, n, false, li);
    TT_EQ_U(n, 1);
    TT_EQ_U(li[0].sectors, 0xE0);
    /* atomics: all 32 lanes on B + 4 (sector 0): 32 operations, 32 on one address */
    for (int l = 0; l < 32; l++) addr[l] = B + 4;
    n = gpu_coalesce(addr, ~0u, 4, 128, lines, bytes);
    gpu_coalesce_info(addr, ~0u, 4, 128, lines, n, true, li);
    TT_CHECK(n == 1 && li[0].sectors == 1 && li[0].ops == 32 && li[0].ops_addr == 32);
    /* lanes on 4 words, lane l on word l % 4, half of them in a second
    ** line (lanes 16..31 + 256): two lines of 16 operations, 4 per word */
    for (int l = 0; l < 32; l++) addr[l] = B + 4 * (uint64_t)(l % 4) + (l >= 16 ? 256 : 0);
    n = gpu_coalesce(addr, ~0u, 4, 128, lines, bytes);
    gpu_coalesce_info(addr, ~0u, 4, 128, lines, n, true, li);
    TT_EQ_U(n, 2);
    TT_CHECK(li[0].ops == 16 && li[0].ops_addr == 4 && li[0].sectors == 1);
    TT_CHECK(li[1].ops == 16 && li[1].ops_addr == 4 && li[1].sectors == 0x100);
    /* gpu_coalesce_sectors, the one pass the LD/ST unit takes for accesses
    ** that are not atomics: the first case above by hand, then the same lines,
    ** bytes and sectors as the two passes on random patterns (sizes 1-16,
    ** aligned, an eighth of them not; lanes sharing, interleaving and
    ** revisiting lines; random masks) */
    for (int l = 0; l < 32; l++) addr[l] = B + 4 * (uint64_t)l;
    memset(li, 0xAB, sizeof li);
    n = gpu_coalesce_sectors(addr, ~0u, 4, 128, lines, bytes, li);
    TT_CHECK(n == 1 && lines[0] == B && bytes[0] == 128 && li[0].sectors == 0xF && li[0].ops == 0 &&
             li[0].ops_addr == 0);
    uint64_t x = 7;
    for (int it = 0; it < 20000; it++) {
        uint64_t l2[32];
        uint32_t b2[32], n2;
        gpu_lineinfo i2[32];
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t size = 1u << ((x >> 60) % 5), line = (x >> 58) & 1 ? 128 : 32, mask = (uint32_t)(x >> 13);
        if ((x >> 50) & 1) mask = ~0u;
        for (int l = 0; l < 32; l++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t pat = (uint32_t)(it % 4);
            uint64_t a = pat == 0   ? B + (uint64_t)l * size                            /* contiguous */
                         : pat == 1 ? B + (x >> 40) % 2048                              /* random in 2 KB */
                         : pat == 2 ? B + (uint64_t)(l % 3) * 4096 + (uint64_t)l * size /* 3 lines in turn */
                                    : B + (uint64_t)(31 - l) * 64;                      /* reversed */
            addr[l] = it % 8 == 5 ? a : a & ~(uint64_t)(size - 1); /* now and then misaligned: the general form */
        }
        n = gpu_coalesce(addr, mask, size, line, lines, bytes);
        gpu_coalesce_info(addr, mask, size, line, lines, n, false, li);
        memset(i2, 0xAB, sizeof i2);
        n2 = gpu_coalesce_sectors(addr, mask, size, line, l2, b2, i2);
        TT_EQ_U(n2, n);
        for (uint32_t k = 0; k < n && k < n2; k++) {
            TT_EQ_U(l2[k], lines[k]);
            TT_EQ_U(b2[k], bytes[k]);
            TT_EQ_U(i2[k].sectors, li[k].sectors);
            TT_EQ_U(i2[k].ops, 0);
            TT_EQ_U(i2[k].ops_addr, 0);
        }
    }
}

/* 816: the latency statistics (mem.latency and its parts; kstats.def),
** counted for every reply an SM takes, from the request's t_sent (the
** core cycle of its L1 access, set by the L1).  Three replies:
**   801's miss, t_sent 0, accepted at 0: the slice takes it at L2 cycle 6
**     (6 cycles to the L2); its reply is granted at icnt cycle 250 and
**     taken at 258 (8 cycles back); 258 in all;
**   801's hit, its L1 access 10 cycles before its acceptance at 100000
**     (an L1 miss queue's latency): the slice at n + 6 (16 after t_sent),
**     granted at n + 127, taken at n + 135 (8 back); 145 in all;
**   804's acknowledged store at 200000 (t_sent the same): 4 flits granted
**     at icnt n + 1 arrive at n + 9 (9 to the L2); its one-flit ack is
**     granted at n + 130 and taken at n + 135 (5 back); 135 in all.
** A store without an ack leaves no reply and counts nowhere. */
static void t816_latency_stats(void)
{
    rig g;
    rig_open(&g, NULL);
    TT_EQ_U(round_trip(&g, mk(&g, GPU_MR_LOAD, 0, BASE, 1), 0, 10000), 258);
    const gpu_memstats *s = gpu_memsys_stats(g.m);
    TT_EQ_U(s->replies, 1);
    TT_EQ_U(s->latency_cycles, 258);
    TT_EQ_U(s->latency_to_l2_cycles, 6);
    TT_EQ_U(s->latency_from_l2_cycles, 8);
    gpu_mreq *r = mk(&g, GPU_MR_LOAD, 3, BASE + 64, 2);
    r->t_sent = 100000 - 10;
    TT_EQ_U(round_trip(&g, r, 100000, 10000), 100000 + 135);
    gpu_mreq *w = mk(&g, GPU_MR_STORE, 2, BASE + 8192, 3);
    w->t_sent = 150000;
    gpu_memsys_accept(g.m, w, 150000);
    settle(&g, 150000);
    w = mk(&g, GPU_MR_STORE, 2, BASE + 8192, 4);
    w->want_ack = 1;
    w->t_sent = 200000;
    TT_EQ_U(round_trip(&g, w, 200000, 10000), 200000 + 135);
    s = gpu_memsys_stats(g.m);
    TT_EQ_U(s->replies, 3);
    TT_EQ_U(s->latency_cycles, 258 + 145 + 135);
    TT_EQ_U(s->latency_to_l2_cycles, 6 + 16 + 9);
    TT_EQ_U(s->latency_from_l2_cycles, 8 + 8 + 5);
    rig_close(&g);
}

/* 817: addr.slice_interleave = 256 (the default, GPGPU-Sim's GTX 480: the sub-partition
** is the lowest bank bit, bit 8 of the channel's address): a channel's
** 256-byte chunks, not its lines, alternate between its two slices.
** BASE / 256 = 2^37, which is 2 mod 6, and q = (2^37 - 2) / 6 is odd: line
** k is in chunk c = k / 2, channel (2 + c) mod 6, the channel's chunk
** q + (2 + c) / 6, whose parity picks the slice.  The 24 lines from BASE
** fill the 12 slices two consecutive lines each.  A value that is not a
** multiple of the L2 line is raised to one (100 -> 128: t805's map). */
static void t817_slice_interleave(void)
{
    check_slices("addr.slice_interleave=256", 24, chunk_slice);
    check_slices("addr.slice_interleave=100", 12, line_slice);
}

int main(void)
{
    TT_RUN(t801_l2_miss_then_hit);
    TT_RUN(t803_miss_phases);
    TT_RUN(t804_stores);
    TT_RUN(t805_address_map);
    TT_RUN(t806_port_full);
    TT_RUN(t807_deterministic);
    TT_RUN(t810_clock_ratio);
    TT_RUN(t811_no_l2);
    TT_RUN(t812_eject_rate);
    TT_RUN(t813_backpressure);
    TT_RUN(t814_coalesce_info);
    TT_RUN(t815_reply_at);
    TT_RUN(t816_latency_stats);
    TT_RUN(t817_slice_interleave);
    TT_RUN(t808_stream_bandwidth_sweep);
    TT_RUN(t809_stream_bandwidth_regions);
    return tt_done();
}
