/* test_mem_dram.c -- one GDDR5/GDDR6 channel (gpu/dram.c) between mock
** neighbours, exact to the command cycle.  Every golden number is derived
** in a comment from the GTX 480 timings of gpu/mem_options.def:
**   tRCD 12  tRP 12  tRAS 28  tRC 40  tCL 12  tWL 4  tCCD 2  tCCDL 3
**   tRRD 6  tWR 12  tCDLR 5  tRTPL 2  turnaround 2
**   burst 8, data rate 4, bus 8 bytes: a burst is 64 B and holds the bus
**   bc = 8 / 4 = 2 cycles; a 128-byte request is 2 column commands (RD or
**   WR) to its bank, the second tCCDL = 3 after the first (same bank, same
**   group), each traced; a 32-byte request is 1 burst.
** (501-513 leave tRRDL, tWTRL, tFAW and refresh at 0: off; 514- set them.)
** The channel runs with period 1 (time = DRAM cycles) and no fixed latency
** unless a test says otherwise, so a read's return-queue ready time is the
** end of its last burst's data: last RD + tCL + 2. */
#include "tests/unit/tt.h"
#include "gpu/dram.h"

typedef struct rig {
    gpu_mreq_pool pool;
    gpu_addrmap map;
    gpu_dramcfg cfg;
    gpu_dram *d;
    mem_queue port;
    gpu_dramcmd tr[256];
    uint64_t now;     /* next cycle to run */
} rig;

static void cfg_gtx480(gpu_dramcfg *c)
{
    memset(c, 0, sizeof *c);
    c->banks = 16;
    c->bank_groups = 4;
    c->bus_bytes = 8;
    c->burst = 8;
    c->data_rate = 4;
    c->queue = 64;
    c->return_queue = 116;
    c->ports = 1;
    c->tRCD = 12, c->tRP = 12, c->tRAS = 28, c->tRC = 40, c->tCL = 12, c->tWL = 4;
    c->tCCD = 2, c->tCCDL = 3, c->tRRD = 6, c->tWR = 12, c->tCDLR = 5, c->tRTPL = 2, c->turnaround = 2;
    c->period = 1;
    c->latency = 0;
}

static void rig_open(rig *g, const gpu_dramcfg *c)
{
    memset(g, 0, sizeof *g);
    gpu_mreq_pool_init(&g->pool);
    /* one channel, one slice: the channel-local address is the address */
    gpu_addrmap_init(&g->map, 1, 1, 256, 128, c->banks, c->bank_groups, 256, 4096);
    g->cfg = *c;
    mem_queue_init(&g->port, 8);
    mem_queue *in[1] = {&g->port};
    g->d = gpu_dram_new(&g->cfg, &g->map, &g->pool, in);
    gpu_dram_trace(g->d, g->tr, 256);
}

static void rig_close(rig *g)
{
    mem_queue *r = gpu_dram_ret(g->d, 0);
    while (!mem_queue_empty(r)) gpu_mreq_put(&g->pool, mem_queue_pop(r));
    gpu_dram_free(g->d);
    mem_queue_free(&g->port);
    TT_EQ_U(g->pool.live, 0);
    gpu_mreq_pool_free(&g->pool);
}

static gpu_mreq *req(rig *g, bool write, uint32_t bank, uint64_t row, uint32_t bytes)
{
    gpu_mreq *r = gpu_mreq_get(&g->pool);
    r->kind = write ? GPU_MR_STORE : GPU_MR_LOAD;
    r->addr = gpu_addrmap_from_dram(&g->map, 0, bank, row, 0);
    r->bytes = bytes;
    return r;
}

/* Accepts a request directly at the rig's current cycle. */
static gpu_mreq *put(rig *g, bool write, uint32_t bank, uint64_t row, uint32_t bytes)
{
    gpu_mreq *r = req(g, write, bank, row, bytes);
    gpu_dram_accept(g->d, r, g->now);
    return r;
}

/* Runs cycles [now, end) the way the memory system does: only at the
** cycles gpu_dram_next names. */
static void run_to(rig *g, uint64_t end)
{
    for (;;) {
        uint64_t t = gpu_dram_next(g->d);
        if (t < g->now) t = g->now;
        if (t >= end) break;
        gpu_dram_tick(g->d, t);
        g->now = t + 1;
    }
    g->now = end;
}

/* Ready time of the k-th read in the return queue. */
static uint64_t ret_ready(rig *g, uint32_t k)
{
    mem_queue *r = gpu_dram_ret(g->d, 0);
    return k < mem_queue_count(r) ? mem_queue_at(r, k)->ready : UINT64_MAX;
}

#define CMD(k, kind_, bank_, cycle_)                                           \
    do {                                                                       \
        TT_EQ_U(g.tr[k].kind, kind_);                                          \
        TT_EQ_U(g.tr[k].bank, bank_);                                          \
        TT_EQ_U(g.tr[k].cycle, cycle_);                                        \
    } while (0)

enum { ACT = GPU_DRAM_ACT, PRE = GPU_DRAM_PRE, RD = GPU_DRAM_RD, WR = GPU_DRAM_WR };

/* 501: a read to a closed bank is a row miss: ACT at once, RD tRCD later,
** the second burst's RD tCCDL after it, data tCL after each for 2 cycles.
**   ACT 0, RD 0 + 12 = 12, RD 15, data [24, 26) and [27, 29): ready 29 =
**   tRCD + tCCDL + tCL + 2; the bus carried 4 cycles. */
static void t501_row_miss(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    put(&g, false, 3, 7, 128);
    run_to(&g, 200);
    TT_EQ_U(gpu_dram_traced(g.d), 3);
    CMD(0, ACT, 3, 0);
    CMD(1, RD, 3, 12);
    CMD(2, RD, 3, 15);
    TT_EQ_U(ret_ready(&g, 0), 29);
    TT_EQ_U(gpu_dram_stats(g.d)->row_hits, 0);
    TT_EQ_U(gpu_dram_stats(g.d)->activates, 1);
    TT_EQ_U(gpu_dram_stats(g.d)->busy_cycles, 4);
    rig_close(&g);
}

/* 502: a read to the open row is a row hit: RD at once, ready tCCDL +
** tCL + 2 = 17 later.  At 100 (row 7 of bank 3 open since 501's ACT at 0):
** RD 100 and 103, ready 117. */
static void t502_row_hit(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    put(&g, false, 3, 7, 128);
    run_to(&g, 100);
    put(&g, false, 3, 7, 128);
    run_to(&g, 300);
    TT_EQ_U(gpu_dram_traced(g.d), 5);
    CMD(3, RD, 3, 100);
    CMD(4, RD, 3, 103);
    TT_EQ_U(ret_ready(&g, 1), 117);
    TT_EQ_U(gpu_dram_stats(g.d)->row_hits, 1);
    rig_close(&g);
}

/* 503: a read to another row of an open bank is a row conflict: PRE, ACT
** tRP later, RD tRCD after that.  Bank 3 row 7 opened at 0 (ACT 0, RD 12,
** 15); at 200 a read of row 8: PRE 200 (tRAS from 0 and tRTPL from the
** last RD at 15 long past), ACT 212, RD 224 and 227, ready 227 + 14 = 241:
** tRP + tRCD + tCCDL + tCL + 2 = 41 cycles. */
static void t503_row_conflict(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    put(&g, false, 3, 7, 128);
    run_to(&g, 200);
    put(&g, false, 3, 8, 128);
    run_to(&g, 400);
    TT_EQ_U(gpu_dram_traced(g.d), 7);
    CMD(3, PRE, 3, 200);
    CMD(4, ACT, 3, 212);
    CMD(5, RD, 3, 224);
    CMD(6, RD, 3, 227);
    TT_EQ_U(ret_ready(&g, 1), 241);
    TT_EQ_U(gpu_dram_stats(g.d)->precharges, 1);
    rig_close(&g);
}

/* 504: back-to-back conflict in one bank: tRAS and tRC bind.  Rows 7 and 8
** of bank 3 both at 0: ACT 0, RD(7) 12 and 15 (ready 29), PRE at ACT +
** tRAS = 28 (the last RD 15 + tRTPL = 17 is earlier), ACT at max(PRE +
** tRP, ACT + tRC) = max(40, 40) = 40, RD(8) 52 and 55, ready 55 + 14 = 69. */
static void t504_tras_trc(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    put(&g, false, 3, 7, 128);
    put(&g, false, 3, 8, 128);
    run_to(&g, 400);
    TT_EQ_U(gpu_dram_traced(g.d), 7);
    CMD(0, ACT, 3, 0);
    CMD(1, RD, 3, 12);
    CMD(2, RD, 3, 15);
    CMD(3, PRE, 3, 28);
    CMD(4, ACT, 3, 40);
    CMD(5, RD, 3, 52);
    CMD(6, RD, 3, 55);
    TT_EQ_U(ret_ready(&g, 0), 29);
    TT_EQ_U(ret_ready(&g, 1), 69);
    rig_close(&g);
}

/* Opens row `row` of each bank in mask with one read each, then lets the
** channel go quiet; returns with now = 1000, trace cleared. */
static void warm(rig *g, uint32_t mask, uint64_t row)
{
    for (uint32_t b = 0; b < 16; b++)
        if (mask >> b & 1) put(g, false, b, row, 128);
    run_to(g, 1000);
    gpu_dram_trace(g->d, g->tr, 256);
    mem_queue *r = gpu_dram_ret(g->d, 0);
    while (!mem_queue_empty(r)) gpu_mreq_put(&g->pool, mem_queue_pop(r));
}

/* 505: FR-FCFS serves a younger row hit before an older row miss; FCFS
** does not.  Bank 0 has row 0 open; at 1000 A (row 1, older) then B
** (row 0, a hit) arrive.
**   FR-FCFS: RD(B) 1000 and 1003 (ready 1003 + 14 = 1017); PRE for A at
**     max(ACT 0 + tRAS, B's last RD 1003 + tRTPL) = 1005, ACT 1017, RD(A)
**     1029 and 1032 (ready 1046).
**   FCFS: PRE 1000, ACT 1012, RD(A) 1024 and 1027 (ready 1041); B now
**     conflicts: PRE at max(ACT 1012 + tRAS = 1040, A's last RD 1027 + 2),
**     ACT at max(1040 + tRP, 1012 + tRC) = 1052, RD(B) 1064 and 1067 (ready
**     1081). */
static void t505_frfcfs_vs_fcfs(void)
{
    for (int fcfs = 0; fcfs < 2; fcfs++) {
        gpu_dramcfg c;
        cfg_gtx480(&c);
        c.fcfs = fcfs;
        rig g;
        rig_open(&g, &c);
        warm(&g, 1, 0);
        gpu_mreq *a = put(&g, false, 0, 1, 128);
        gpu_mreq *b = put(&g, false, 0, 0, 128);
        run_to(&g, 2000);
        mem_queue *r = gpu_dram_ret(g.d, 0);
        TT_EQ_U(mem_queue_count(r), 2);
        if (!fcfs) {
            TT_EQ_U(gpu_dram_traced(g.d), 6);
            CMD(0, RD, 0, 1000);
            CMD(1, RD, 0, 1003);
            CMD(2, PRE, 0, 1005);
            CMD(3, ACT, 0, 1017);
            CMD(4, RD, 0, 1029);
            CMD(5, RD, 0, 1032);
            TT_CHECK(mem_queue_at(r, 0)->p == b && mem_queue_at(r, 1)->p == a);
            TT_EQ_U(ret_ready(&g, 0), 1017);
            TT_EQ_U(ret_ready(&g, 1), 1046);
        } else {
            TT_EQ_U(gpu_dram_traced(g.d), 8);
            CMD(0, PRE, 0, 1000);
            CMD(1, ACT, 0, 1012);
            CMD(2, RD, 0, 1024);
            CMD(3, RD, 0, 1027);
            CMD(4, PRE, 0, 1040);
            CMD(5, ACT, 0, 1052);
            CMD(6, RD, 0, 1064);
            CMD(7, RD, 0, 1067);
            TT_CHECK(mem_queue_at(r, 0)->p == a && mem_queue_at(r, 1)->p == b);
            TT_EQ_U(ret_ready(&g, 0), 1041);
            TT_EQ_U(ret_ready(&g, 1), 1081);
        }
        rig_close(&g);
    }
}

/* 506: tRRD between activates of different banks.  Banks 0 and 1 closed,
** two reads at 0: ACT(0) 0, ACT(1) at 0 + tRRD = 6, RD(0) 12 and 15
** (tCCDL), RD(1) at 6 + tRCD = 18 and 21 (other group: the bus is free). */
static void t506_trrd(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    put(&g, false, 0, 0, 128);
    put(&g, false, 1, 0, 128);
    run_to(&g, 200);
    TT_EQ_U(gpu_dram_traced(g.d), 6);
    CMD(0, ACT, 0, 0);
    CMD(1, ACT, 1, 6);
    CMD(2, RD, 0, 12);
    CMD(3, RD, 0, 15);
    CMD(4, RD, 1, 18);
    CMD(5, RD, 1, 21);
    rig_close(&g);
}

/* 507: column spacing.  32-byte reads (one burst, n = 2, so the data bus
** allows a column command every 2 cycles) to open rows:
**   banks 0 and 4 (group 0 both): RD 1000, RD 1000 + tCCDL = 1003;
**   banks 0 and 1 (groups 0, 1):  RD 1100, RD 1100 + tCCD  = 1102. */
static void t507_tccd_tccdl(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    warm(&g, 1u << 0 | 1u << 1 | 1u << 4, 0);
    put(&g, false, 0, 0, 32);
    put(&g, false, 4, 0, 32);
    run_to(&g, 1100);
    put(&g, false, 0, 0, 32);
    put(&g, false, 1, 0, 32);
    run_to(&g, 1200);
    TT_EQ_U(gpu_dram_traced(g.d), 4);
    CMD(0, RD, 0, 1000);
    CMD(1, RD, 4, 1003);
    CMD(2, RD, 0, 1100);
    CMD(3, RD, 1, 1102);
    rig_close(&g);
}

/* 508: data-bus occupancy.  128-byte reads R0..R7 alternating bank groups
** (banks 0, 1, 2, 3, 0, 1, 2, 3) to open rows: 16 bursts of bc = 2 bus
** cycles, tCCD = 2 apart when the group changes, so the bus is never idle:
** RD j at 1000 + 2j.  A request's second burst waits tCCDL = 3 after its
** first, and the oldest ready burst goes first: 1000 R0, 1002 R1, 1004 R0
** (1003 ok), 1006 R1, 1008 R2, 1010 R3 (R2's second not before 1011),
** 1012 R2, 1014 R3; R4..R7 repeat it 16 cycles later.  Ready = last RD +
** 14: R0 1018, R1 1020, R2 1026, R3 1028, then + 16; busy 32 cycles.
** Within one bank group (banks 0, 4, 8, 12) every burst waits tCCDL:
** RD j at 1200 + 3j for the 8 bursts. */
static void t508_bus_occupancy(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    warm(&g, 0xffff, 0);
    uint64_t busy0 = gpu_dram_stats(g.d)->busy_cycles;
    for (uint32_t k = 0; k < 8; k++) put(&g, false, k % 4, 0, 128);
    run_to(&g, 1200);
    static const uint64_t ready[8] = {1018, 1020, 1026, 1028, 1034, 1036, 1042, 1044};
    TT_EQ_U(gpu_dram_traced(g.d), 16);
    for (uint32_t k = 0; k < 16; k++) TT_EQ_U(g.tr[k].cycle, 1000 + 2 * k);
    for (uint32_t k = 0; k < 8; k++) TT_EQ_U(ret_ready(&g, k), ready[k]);
    TT_EQ_U(gpu_dram_stats(g.d)->busy_cycles - busy0, 32);
    mem_queue *r = gpu_dram_ret(g.d, 0);
    while (!mem_queue_empty(r)) gpu_mreq_put(&g.pool, mem_queue_pop(r));
    gpu_dram_trace(g.d, g.tr, 256);
    for (uint32_t k = 0; k < 4; k++) put(&g, false, 4 * k, 0, 128);
    run_to(&g, 1400);
    TT_EQ_U(gpu_dram_traced(g.d), 8);
    for (uint32_t k = 0; k < 8; k++) TT_EQ_U(g.tr[k].cycle, 1200 + 3 * k);
    rig_close(&g);
}

/* 509: read/write turnaround (open rows in banks 0 and 1, 128 bytes).
**   read of bank 0: RD 1000 and 1003 (data to 1017), then a write to bank 1:
**   its data may start turnaround = 2 cycles after the read's, at 1019, so
**   WR at 1019 - tWL = 1015 and 1018 (tCCDL);
**   write to bank 1: WR 1100 and 1103 (data [1107, 1109)), then a read of
**   bank 0: RD waits for the end of write data + tCDLR: 1109 + 5 = 1114,
**   and 1117. */
static void t509_turnaround(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    warm(&g, 3, 0);
    uint64_t live = g.pool.live;
    put(&g, false, 0, 0, 128);
    put(&g, true, 1, 0, 128);
    run_to(&g, 1100);
    put(&g, true, 1, 0, 128);
    put(&g, false, 0, 0, 128);
    run_to(&g, 1200);
    TT_EQ_U(gpu_dram_traced(g.d), 8);
    CMD(0, RD, 0, 1000);
    CMD(1, RD, 0, 1003);
    CMD(2, WR, 1, 1015);
    CMD(3, WR, 1, 1018);
    CMD(4, WR, 1, 1100);
    CMD(5, WR, 1, 1103);
    CMD(6, RD, 0, 1114);
    CMD(7, RD, 0, 1117);
    TT_EQ_U(gpu_dram_stats(g.d)->writes, 2);
    /* writes are not answered: the two went back to the pool */
    TT_EQ_U(g.pool.live, live + 2);
    TT_EQ_U(mem_queue_count(gpu_dram_ret(g.d, 0)), 2);
    rig_close(&g);
}

/* 510: write recovery: a write to bank 0 row 0 at 1000 (WR 1000 and 1003,
** data to 1003 + tWL + 2 = 1009) then a read of row 1: PRE waits for the
** end of write data + tWR = 1021, ACT 1033, RD 1045 and 1048. */
static void t510_twr(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    rig g;
    rig_open(&g, &c);
    warm(&g, 1, 0);
    put(&g, true, 0, 0, 128);
    put(&g, false, 0, 1, 128);
    run_to(&g, 1200);
    TT_EQ_U(gpu_dram_traced(g.d), 6);
    CMD(0, WR, 0, 1000);
    CMD(1, WR, 0, 1003);
    CMD(2, PRE, 0, 1021);
    CMD(3, ACT, 0, 1033);
    CMD(4, RD, 0, 1045);
    CMD(5, RD, 0, 1048);
    rig_close(&g);
}

/* 511: the ports: one request taken per cycle, and it may issue at once.
** Two reads to closed banks 0 and 1 ready at 10 in the port queue: the
** first is taken at 10 (ACT 10), the second at 11, ACT at 10 + tRRD = 16.
** The fixed latency (30 here) is added to the ready time: RD(0) at 22 and
** 25, ready 25 + 14 + 30 = 69.  A full scheduler queue (2 entries) leaves
** the third request in the port and counts the cycles it waited: requests
** are taken at the start of a cycle, the last RD(0) frees an entry during
** cycle 25, so it waits in cycles 12..25 = 14 and is taken at 26. */
static void t511_ports_and_queue(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    c.queue = 2;
    c.latency = 30;
    rig g;
    rig_open(&g, &c);
    mem_queue_push(&g.port, req(&g, false, 0, 0, 128), 10);
    mem_queue_push(&g.port, req(&g, false, 1, 0, 128), 10);
    mem_queue_push(&g.port, req(&g, false, 2, 0, 128), 10);
    run_to(&g, 200);
    CMD(0, ACT, 0, 10);
    CMD(1, ACT, 1, 16);
    CMD(2, RD, 0, 22);
    CMD(3, RD, 0, 25);
    TT_EQ_U(ret_ready(&g, 0), 69);
    TT_EQ_U(gpu_dram_stats(g.d)->queue_full_cycles, 14);
    /* the third, taken at 26 (RD(0) issued at 25 after that cycle's
    ** take), activates at max(26, ACT(1) + tRRD = 22) = 26, before RD(1)
    ** at ACT(1) + tRCD = 28 */
    CMD(4, ACT, 2, 26);
    CMD(5, RD, 1, 28);
    rig_close(&g);
}

/* 512: a bounded return queue holds reads back.  return_queue = 2 and a
** long fixed latency (1000): three reads to open row 0 of bank 0, bursts
** tCCDL = 3 apart: the first two complete at 1003 and 1009 (RD 1000, 1003,
** 1006, 1009) and fill the queue; the third's first burst issues at 1012,
** its last (the one that enters the queue) waits until the consumer takes
** one, at 1100, and issues then. */
static void t512_return_queue(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    c.return_queue = 2;
    c.latency = 1000;
    rig g;
    rig_open(&g, &c);
    warm(&g, 1, 0);
    for (int k = 0; k < 3; k++) put(&g, false, 0, 0, 128);
    run_to(&g, 1100);
    TT_EQ_U(gpu_dram_traced(g.d), 5);
    for (uint32_t k = 0; k < 5; k++) CMD(k, RD, 0, 1000 + 3 * k);
    /* blocked from 1015 (tCCDL after 1012) to 1099 */
    TT_EQ_U(gpu_dram_stats(g.d)->return_stall_cycles, 85);
    gpu_mreq_put(&g.pool, mem_queue_pop(gpu_dram_ret(g.d, 0)));
    run_to(&g, 1200);
    TT_EQ_U(gpu_dram_traced(g.d), 6);
    CMD(5, RD, 0, 1100);
    rig_close(&g);
}

/* 513: skipping idle cycles changes nothing: a mixed sequence run cycle by
** cycle and run at gpu_dram_next's cycles issue the same commands. */
static void t513_skip_equals_step(void)
{
    gpu_dramcmd a[256];
    uint32_t na = 0;
    for (int skip = 0; skip < 2; skip++) {
        gpu_dramcfg c;
        cfg_gtx480(&c);
        rig g;
        rig_open(&g, &c);
        uint32_t x = 12345;
        for (uint64_t t = 0; t < 3000; t++) {
            if (t % 37 == 0 && gpu_dram_can_accept(g.d)) {
                x = x * 1103515245u + 12345u;
                gpu_mreq *r = req(&g, (x >> 8) % 4 == 0, (x >> 12) % 16, (x >> 20) % 3, 128);
                gpu_dram_accept(g.d, r, t);
            }
            if (!skip || gpu_dram_next(g.d) <= t) gpu_dram_tick(g.d, t);
            mem_queue *r = gpu_dram_ret(g.d, 0);
            while (mem_queue_peek(r, t)) gpu_mreq_put(&g.pool, mem_queue_pop(r));
        }
        for (uint64_t t = 3000; !gpu_dram_idle(g.d) && t < 10000; t++) {
            gpu_dram_tick(g.d, t);
            mem_queue *r = gpu_dram_ret(g.d, 0);
            while (mem_queue_peek(r, t)) gpu_mreq_put(&g.pool, mem_queue_pop(r));
        }
        TT_CHECK(gpu_dram_idle(g.d));
        uint32_t n = gpu_dram_traced(g.d);
        if (!skip) {
            memcpy(a, g.tr, sizeof a);
            na = n;
            TT_CHECK(n > 100);
        } else {
            TT_EQ_U(n, na);
            for (uint32_t k = 0; k < n && k < 256; k++) {
                TT_EQ_U(g.tr[k].cycle, a[k].cycle);
                TT_EQ_U(g.tr[k].kind, a[k].kind);
                TT_EQ_U(g.tr[k].bank, a[k].bank);
            }
        }
        rig_close(&g);
    }
}

enum { PREA = GPU_DRAM_PREA, REF = GPU_DRAM_REF };

/* 514: activate limits.  tRRD 2, tRRD_L 8, tFAW 22; 32-byte reads to closed
** banks 0, 4 (group 0 both), 1, 2, 3 at 0:
**   ACT(0) 0; bank 4 waits tRRD_L (8), so the younger banks go first, tRRD
**   apart: ACT(1) 2, ACT(2) 4, ACT(3) 6; ACT(4) at max(tRRD 8, tRRD_L 8,
**   the fourth-last ACT 0 + tFAW 22) = 22; RD tRCD after each ACT: 12, 14,
**   16, 18 and 34.
** With tFAW 0 (off) ACT(4) goes at 8 and its RD at 20. */
static void t514_trrdl_tfaw(void)
{
    for (int faw = 0; faw < 2; faw++) {
        gpu_dramcfg c;
        cfg_gtx480(&c);
        c.tRRD = 2, c.tRRDL = 8, c.tFAW = faw ? 22 : 0;
        rig g;
        rig_open(&g, &c);
        static const uint32_t banks[5] = {0, 4, 1, 2, 3};
        for (int k = 0; k < 5; k++) put(&g, false, banks[k], 0, 32);
        run_to(&g, 200);
        TT_EQ_U(gpu_dram_traced(g.d), 10);
        CMD(0, ACT, 0, 0);
        CMD(1, ACT, 1, 2);
        CMD(2, ACT, 2, 4);
        CMD(3, ACT, 3, 6);
        if (faw) {
            for (uint32_t k = 0; k < 4; k++) CMD(4 + k, RD, k, 12 + 2 * k);
            CMD(8, ACT, 4, 22);
            CMD(9, RD, 4, 34);
        } else {
            CMD(4, ACT, 4, 8);
            for (uint32_t k = 0; k < 4; k++) CMD(5 + k, RD, k, 12 + 2 * k);
            CMD(9, RD, 4, 20);
        }
        rig_close(&g);
    }
}

/* 515: write-to-read turnaround by bank group: tWTR_S (tCDLR) 5 to a read in
** another group, tWTR_L 9 in the writer's.  Rows open in banks 0, 1, 5
** (groups 0, 1, 1); 32-byte requests.
**   1000: WR bank 1 (data [1004, 1006)), then a read of bank 0: RD at 1006 +
**   5 = 1011.
**   1100: WR bank 1 (data [1104, 1106)), then a read of bank 5: RD at 1106 +
**   9 = 1115.  Both reads follow a write burst: write_to_read 2. */
static void t515_twtrl(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    c.tWTRL = 9;
    rig g;
    rig_open(&g, &c);
    warm(&g, 1u << 0 | 1u << 1 | 1u << 5, 0);
    put(&g, true, 1, 0, 32);
    put(&g, false, 0, 0, 32);
    run_to(&g, 1100);
    put(&g, true, 1, 0, 32);
    put(&g, false, 5, 0, 32);
    run_to(&g, 1200);
    TT_EQ_U(gpu_dram_traced(g.d), 4);
    CMD(0, WR, 1, 1000);
    CMD(1, RD, 0, 1011);
    CMD(2, WR, 1, 1100);
    CMD(3, RD, 5, 1115);
    TT_EQ_U(gpu_dram_stats(g.d)->write_to_read, 2);
    rig_close(&g);
}

/* 516: all-bank refresh: tREFI 100, tRFC 30, phase 0 (first due at 100).
**   A read of bank 3 row 7 at 0: ACT 0, RD 12 (32 bytes).  The channel is
**   then empty: the refresh due at 100 is worked out when the next request
**   comes, at 150, at the cycles it would have had: PREA at max(100, bank
**   3's PRE rule max(ACT + tRAS 28, RD + tRTPL 14)) = 100, REF at PREA +
**   tRP = 112, no ACT before 112 + tRFC = 142; the read of 150 finds the
**   bank closed: ACT 150, RD 162.
**   Two reads of the open row at 199: RD 199; at 200 the next refresh is
**   due, so the second (not begun) waits: PREA at max(200, RD 199 + tRTPL)
**   = 201, REF at max(PREA + tRP, ACT 150 + tRC) = 213, ACT 213 + 30 = 243,
**   RD 255, ready 255 + 14 = 269. */
static void t516_refresh_all(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    c.refresh = GPU_DRAM_REF_ALL, c.tREFI = 100, c.tRFC = 30;
    rig g;
    rig_open(&g, &c);
    put(&g, false, 3, 7, 32);
    run_to(&g, 150);
    put(&g, false, 3, 7, 32);
    run_to(&g, 199);
    put(&g, false, 3, 7, 32);
    put(&g, false, 3, 7, 32);
    run_to(&g, 400);
    TT_EQ_U(gpu_dram_traced(g.d), 11);
    CMD(0, ACT, 3, 0);
    CMD(1, RD, 3, 12);
    CMD(2, PREA, GPU_DRAM_ALL, 100);
    CMD(3, REF, GPU_DRAM_ALL, 112);
    CMD(4, ACT, 3, 150);
    CMD(5, RD, 3, 162);
    CMD(6, RD, 3, 199);
    CMD(7, PREA, GPU_DRAM_ALL, 201);
    CMD(8, REF, GPU_DRAM_ALL, 213);
    CMD(9, ACT, 3, 243);
    CMD(10, RD, 3, 255);
    TT_EQ_U(ret_ready(&g, 3), 269);
    TT_EQ_U(gpu_dram_stats(g.d)->refreshes, 2);
    rig_close(&g);
}

/* 517: per-bank refresh: tREFI 160 over 16 banks, so bank k falls due at
** 10 (k + 1), then every 160; tRFCpb 20, tRREFD 4.
**   A read of bank 1 at 0: ACT(1) 0; REFpb(0) at its due 10 (bank 0 is
**   closed; tRRD from ACT(1) = 6 is past); RD(1) 12.
**   The channel is then empty; the refreshes are worked out at 200: bank 1
**   (due 20) is open: PRE at its tRAS 28, REFpb(1) at max(PRE + tRP, ACT +
**   tRC) = 40; bank 2 (due 30) at REFpb(1) + tRREFD = 44; bank 3 (40) at
**   48; bank 4 (50) at 52; bank 5 at its due 60, ... bank 15 at 160, bank 0
**   at 170, bank 1 at 180, bank 2 at 190.
**   A read of bank 2 at 200: bank 3's refresh (due 200) goes first,
**   REFpb(3) 200; bank 2 is refreshing until 190 + tRFCpb = 210, when bank
**   4 falls due and goes first: REFpb(4) 210; ACT(2) waits tRREFD after
**   it: 214; REFpb(5) at its due 220 (tRREFD after an ACT does not apply);
**   RD(2) 214 + tRCD = 226. */
static void t517_refresh_bank(void)
{
    gpu_dramcfg c;
    cfg_gtx480(&c);
    c.refresh = GPU_DRAM_REF_BANK, c.tREFI = 160, c.tRFCpb = 20, c.tRREFD = 4;
    rig g;
    rig_open(&g, &c);
    put(&g, false, 1, 0, 32);
    run_to(&g, 200);
    TT_EQ_U(gpu_dram_traced(g.d), 3);
    CMD(0, ACT, 1, 0);
    CMD(1, REF, 0, 10);
    CMD(2, RD, 1, 12);
    put(&g, false, 2, 0, 32);
    run_to(&g, 400);
    /* PRE(1), then REFpb of banks 1..15, 0, 1, 2: 18; then REFpb(3),
    ** REFpb(4), ACT, REFpb(5), RD */
    TT_EQ_U(gpu_dram_traced(g.d), 3 + 1 + 18 + 5);
    CMD(3, PRE, 1, 28);
    CMD(4, REF, 1, 40);
    CMD(5, REF, 2, 44);
    CMD(6, REF, 3, 48);
    CMD(7, REF, 4, 52);
    for (uint32_t k = 5; k < 16; k++) CMD(3 + k, REF, k, 10 * (k + 1));
    CMD(19, REF, 0, 170);
    CMD(20, REF, 1, 180);
    CMD(21, REF, 2, 190);
    CMD(22, REF, 3, 200);
    CMD(23, REF, 4, 210);
    CMD(24, ACT, 2, 214);
    CMD(25, REF, 5, 220);
    CMD(26, RD, 2, 226);
    TT_EQ_U(gpu_dram_stats(g.d)->refreshes, 22);
    rig_close(&g);
}

/* 519: skipping idle cycles changes nothing with refresh either.  Each
** refresh mode (none; all: tREFI 300, tRFC 30; bank: tREFI 300 over 16
** banks, tRFCpb 15, tRREFD 4) runs a mixed sequence with an idle gap of
** 18500 cycles in the middle (61 all-bank rounds: long enough for the
** catch-up to count whole rounds instead of issuing them), once ticked every
** cycle and once only at gpu_dram_next's cycles.  The requests' commands
** (refresh commands filtered out: the counted rounds are not traced), their
** cycles, every read's ready time and, after one tick at the same end of
** time, the refresh count are the same. */
/* How many commands of two traces (the first min(na, nb)) differ in cycle,
** kind or bank: 0 when one run issued exactly what the other did. */
static uint32_t trace_diff(const gpu_dramcmd *a, uint32_t na, const gpu_dramcmd *b, uint32_t nb)
{
    uint32_t diff = 0;
    for (uint32_t k = 0; k < na && k < nb; k++)
        diff += a[k].cycle != b[k].cycle || a[k].kind != b[k].kind || a[k].bank != b[k].bank;
    return diff;
}

static void t519_skip_equals_step_refresh(void)
{
    enum { CAP = 4096 };
    static gpu_dramcmd tr[2][CAP];
    uint64_t ref[2] = {0}, rd[2] = {0};
    for (int mode = 0; mode < 3; mode++) {
        uint32_t n[2] = {0};
        for (int skip = 0; skip < 2; skip++) {
            gpu_dramcfg c;
            cfg_gtx480(&c);
            c.refresh = (uint8_t)mode, c.tREFI = 300, c.tRFC = 30, c.tRFCpb = 15, c.tRREFD = 4;
            rig g;
            rig_open(&g, &c);
            gpu_dramcmd *all = tp_calloc(CAP, sizeof *all);
            gpu_dram_trace(g.d, all, CAP);
            uint32_t x = 777;
            rd[skip] = 0;
            for (uint64_t t = 0; t < 23000; t++) {
                if (t % 37 == 0 && (t < 1500 || t >= 20000) && t < 21500 && gpu_dram_can_accept(g.d)) {
                    x = x * 1103515245u + 12345u;
                    gpu_mreq *r = req(&g, (x >> 8) % 4 == 0, (x >> 12) % 16, (x >> 20) % 3, 128);
                    gpu_dram_accept(g.d, r, t);
                }
                if (!skip || gpu_dram_next(g.d) <= t) gpu_dram_tick(g.d, t);
                mem_queue *r = gpu_dram_ret(g.d, 0);
                gpu_mreq *p;
                while ((p = mem_queue_peek(r, t))) {
                    rd[skip] = rd[skip] * 1000003u + mem_queue_at(r, 0)->ready;
                    gpu_mreq_put(&g.pool, mem_queue_pop(r));
                }
            }
            /* the same end of time both ways: an idle channel's refreshes
            ** are worked out (and counted) at its next tick or request */
            gpu_dram_tick(g.d, 23000);
            TT_CHECK(gpu_dram_idle(g.d));
            TT_CHECK(gpu_dram_traced(g.d) < CAP);
            for (uint32_t k = 0; k < gpu_dram_traced(g.d); k++)
                if (all[k].r) tr[skip][n[skip]++] = all[k];
            ref[skip] = gpu_dram_stats(g.d)->refreshes;
            free(all);
            rig_close(&g);
        }
        TT_CHECK(n[0] > 200);
        TT_EQ_U(n[1], n[0]);
        TT_EQ_U(trace_diff(tr[0], n[0], tr[1], n[1]), 0);
        TT_EQ_U(rd[1], rd[0]);
        TT_EQ_U(ref[1], ref[0]);
        if (mode) TT_CHECK(ref[0] > 60);
    }
}

/* 520: activate to write (tRCDWR) apart from activate to read (tRCD 12).
** A 32-byte write to closed bank 0 and a read of closed bank 1 at 0:
**   tRCDWR 6: ACT(0) 0; at 6 both WR(0) (0 + 6) and ACT(1) (0 + tRRD) may
**   issue, column commands first: WR(0) 6, ACT(1) 7; RD(1) at max(7 +
**   tRCD, end of write data 6 + tWL + 2 + tCDLR = 17) = 19.
**   tRCDWR 0 (= tRCD): ACT(0) 0, ACT(1) 6, WR(0) 12, RD(1) at max(18, 12 +
**   4 + 2 + 5) = 23. */
static void t520_trcdwr(void)
{
    for (int w = 0; w < 2; w++) {
        gpu_dramcfg c;
        cfg_gtx480(&c);
        c.tRCDWR = w ? 6 : 0;
        rig g;
        rig_open(&g, &c);
        put(&g, true, 0, 0, 32);
        put(&g, false, 1, 0, 32);
        run_to(&g, 200);
        TT_EQ_U(gpu_dram_traced(g.d), 4);
        CMD(0, ACT, 0, 0);
        if (w) {
            CMD(1, WR, 0, 6);
            CMD(2, ACT, 1, 7);
            CMD(3, RD, 1, 19);
        } else {
            CMD(1, ACT, 1, 6);
            CMD(2, WR, 0, 12);
            CMD(3, RD, 1, 23);
        }
        rig_close(&g);
    }
}

/* 518: the hashed map (addr.hash=ipoly).  12 channels of 256 bytes, 2
** slices of 128-byte lines, 16 banks in 4 groups, 256-byte bank pieces, 2 KB
** rows (the rtx2060's).  A 4 KB stride is 16 interleave units, and 16 mod 12
** = 4, so the linear map sends 240 such addresses to channels 0, 4, 8 only,
** 80 each; IPOLY rotates each choice by the hash of the bits above (chunk /
** 12), which reaches all 12 channels, 16 to 22 addresses each (counted
** here: the 6-bit remainders modulo 12 are not quite uniform; 20 would be
** even).  Every address decodes and encodes back both ways (slice and
** DRAM coordinates), hashed or not, and gpu_addrmap_bank_row (a channel's
** accept) gives the decode's bank and row. */
static void t518_addr_hash(void)
{
    for (int h = 0; h < 2; h++) {
        gpu_addrmap m;
        gpu_addrmap_init(&m, 12, 2, 256, 128, 16, 4, 256, 2048);
        gpu_addrmap_hash(&m, h ? GPU_ADDRMAP_IPOLY : GPU_ADDRMAP_LINEAR);
        uint32_t cnt[12] = {0}, nseen = 0, most = 0, least = 240;
        for (uint64_t k = 0; k < 240; k++) {
            gpu_maddr a;
            gpu_addrmap_decode(&m, k * 4096, &a);
            cnt[a.channel]++;
        }
        for (uint32_t ch = 0; ch < 12; ch++) {
            nseen += cnt[ch] > 0;
            most = cnt[ch] > most ? cnt[ch] : most;
            least = cnt[ch] < least ? cnt[ch] : least;
        }
        TT_EQ_U(nseen, h ? 12 : 3);
        TT_EQ_U(most, h ? 22 : 80);
        TT_EQ_U(least, h ? 16 : 0);
        uint32_t bad = 0;
        for (uint64_t x = 0; x < 4000; x++) {
            uint64_t addr = x * 0x9e3779b1ull % (1ull << 32) & ~31ull;
            gpu_maddr a;
            gpu_addrmap_decode(&m, addr, &a);
            bad += gpu_addrmap_from_dram(&m, a.channel, a.bank, a.row, a.col) != addr;
            bad += gpu_addrmap_from_slice(&m, a.slice, a.slice_addr) != addr;
            bad += gpu_addrmap_slice(&m, addr) != a.slice;
            bad += a.bank >= 16 || a.channel >= 12 || a.sub >= 2;
            uint32_t bank;
            uint64_t row;
            gpu_addrmap_bank_row(&m, addr, &bank, &row);
            bad += bank != a.bank || row != a.row;
        }
        TT_EQ_U(bad, 0);
    }
}

/* 522: low banks (addr.bank_low = 2) on the GTX 480's geometry: 6 channels
** of 256 bytes, 2 slices, 16 banks, 256-byte pieces, 4 KB rows.  The
** channel's address is GPGPU-Sim's (chip at bit 8, modulo 6: the address's
** bits 8 up divided by 6, over bits 0-7), and its mapping
** ...RRRR.BBBCCCCB.CCSSSSSS reads the bank from bits 8 and 13-15 (bit 8
** the lowest), the row from bits 16 up and the column from bits 0-7 and
** 9-12, its bank group from the bank's top two bits (bits 14-15: GPGPU-Sim's
** bank / 4), which tpsim's label carries as bank mod 4: worked out here
** from those bits for 4000 addresses and compared with the decode, which
** also encodes back.  Without addr.bank_low the
** same addresses give the rotated map (bank = (piece + row) mod 16), which
** differs from it on some. */
static void t522_bank_low(void)
{
    gpu_addrmap m, r;
    gpu_addrmap_init(&m, 6, 2, 256, 256, 16, 4, 256, 4096);
    gpu_addrmap_init(&r, 6, 2, 256, 256, 16, 4, 256, 4096);
    gpu_addrmap_bank_low(&m, 2);
    TT_EQ_U(m.bank_low, 2);
    uint32_t bad = 0, differ = 0;
    for (uint64_t x = 0; x < 4000; x++) {
        uint64_t addr = x * 0x9e3779b1ull % (1ull << 32) & ~31ull;
        uint64_t local = ((addr >> 8) / 6) << 8 | (addr & 255);
        uint32_t gsbank = (uint32_t)(local >> 8 & 1) | (uint32_t)(local >> 13 & 7) << 1;
        uint32_t bank = gsbank / 4 + 4 * (gsbank % 4);   /* the label: bank mod 4 = gsbank / 4 */
        uint64_t row = local >> 16, col = (local & 255) | (local >> 9 & 15) << 8;
        gpu_maddr a, b;
        gpu_addrmap_decode(&m, addr, &a);
        gpu_addrmap_decode(&r, addr, &b);
        bad += a.channel != (addr >> 8) % 6 || a.local != local;
        bad += a.bank != bank || a.row != row || a.col != col || a.group != gsbank / 4;
        bad += a.slice != b.slice || a.slice_addr != b.slice_addr;   /* only the DRAM's coordinates change */
        bad += gpu_addrmap_from_dram(&m, a.channel, a.bank, a.row, a.col) != addr;
        uint32_t bk;
        uint64_t rw;
        gpu_addrmap_bank_row(&m, addr, &bk, &rw);
        bad += bk != a.bank || rw != a.row;
        differ += a.bank != b.bank;
    }
    TT_EQ_U(bad, 0);
    TT_CHECK(differ > 1000);
    gpu_addrmap_bank_low(&m, 3);   /* not a divisor of 16: the rotated map */
    TT_EQ_U(m.bank_low, 0);
}

/* 521: the cycles a channel skips between scans (gpu_dram_next: after a
** command it looks again at its bank alone, the others' bounds having only
** risen) are cycles in which a scan would issue nothing and count nothing.
** Random traffic through a port (reads and writes, 32 and 128 bytes, a few
** rows per bank, bursts of requests so that the scheduler queue fills), a
** small return queue drained at random (reads wait for room), refresh
** none, all-bank and per-bank, tFAW and the bank-group limits on: one
** channel scans in every cycle (gpu_dram_rescan), the other ticks only at
** its next events; every command (cycle, kind, bank), every read's ready
** time and every counter the same. */
static void t521_scan_skip_exact(void)
{
    enum { CAP = 16384 };
    static gpu_dramcmd tr[2][CAP];
    for (int mode = 0; mode < 3; mode++) {
        uint64_t rd[2] = {0};
        gpu_dramstats st[2];
        uint32_t n[2] = {0};
        for (int skip = 0; skip < 2; skip++) {
            gpu_dramcfg c;
            cfg_gtx480(&c);
            c.queue = 12, c.return_queue = 3;
            c.tRRDL = 8, c.tWTRL = 7, c.tFAW = 22;
            c.refresh = (uint8_t)mode, c.tREFI = 150, c.tRFC = 30, c.tRFCpb = 15, c.tRREFD = 4;
            rig g;
            rig_open(&g, &c);
            gpu_dram_trace(g.d, tr[skip], CAP);
            uint32_t x = 4242;
            for (uint64_t t = 0; t < 20000; t++) {
                x = x * 1103515245u + 12345u;
                bool burst = (t / 500) % 2 == 0;   /* busy and quiet phases */
                if ((burst ? (x >> 28) < 6 : (x >> 28) == 0) && !mem_queue_full(&g.port)) {
                    gpu_mreq *r = req(&g, (x >> 8) % 4 == 0, (x >> 12) % 16, (x >> 20) % 3, (x >> 24) & 1 ? 128 : 32);
                    mem_queue_push(&g.port, r, t);
                }
                if (!skip) {
                    gpu_dram_rescan(g.d);
                    gpu_dram_tick(g.d, t);
                } else if (gpu_dram_next(g.d) <= t) {
                    gpu_dram_tick(g.d, t);
                }
                mem_queue *r = gpu_dram_ret(g.d, 0);
                if ((x >> 5) % 3 == 0)
                    while (mem_queue_peek(r, t)) {
                        rd[skip] = rd[skip] * 1000003u + mem_queue_at(r, 0)->ready;
                        gpu_mreq_put(&g.pool, mem_queue_pop(r));
                    }
            }
            gpu_dram_tick(g.d, 20000);   /* the same end of time both ways (refreshes worked out) */
            n[skip] = gpu_dram_traced(g.d);
            st[skip] = *gpu_dram_stats(g.d);
            while (!mem_queue_empty(&g.port)) gpu_mreq_put(&g.pool, mem_queue_pop(&g.port));
            for (uint64_t t = 20001; !gpu_dram_idle(g.d) && t < 40000; t++) {
                gpu_dram_tick(g.d, t);
                mem_queue *r = gpu_dram_ret(g.d, 0);
                while (mem_queue_peek(r, t)) gpu_mreq_put(&g.pool, mem_queue_pop(r));
            }
            rig_close(&g);
        }
        TT_CHECK(n[0] > 2000 && n[0] < CAP);
        TT_EQ_U(n[1], n[0]);
        TT_EQ_U(trace_diff(tr[0], n[0], tr[1], n[1]), 0);
        TT_EQ_U(rd[1], rd[0]);
        TT_CHECK(memcmp(&st[0], &st[1], sizeof st[0]) == 0);
        TT_CHECK(st[0].return_stall_cycles > 0);
        TT_CHECK(st[0].queue_full_cycles > 0);
        if (mode) TT_CHECK(st[0].refreshes > 20);
    }
}

int main(void)
{
    TT_RUN(t501_row_miss);
    TT_RUN(t502_row_hit);
    TT_RUN(t503_row_conflict);
    TT_RUN(t504_tras_trc);
    TT_RUN(t505_frfcfs_vs_fcfs);
    TT_RUN(t506_trrd);
    TT_RUN(t507_tccd_tccdl);
    TT_RUN(t508_bus_occupancy);
    TT_RUN(t509_turnaround);
    TT_RUN(t510_twr);
    TT_RUN(t511_ports_and_queue);
    TT_RUN(t512_return_queue);
    TT_RUN(t513_skip_equals_step);
    TT_RUN(t514_trrdl_tfaw);
    TT_RUN(t515_twtrl);
    TT_RUN(t516_refresh_all);
    TT_RUN(t517_refresh_bank);
    TT_RUN(t518_addr_hash);
    TT_RUN(t519_skip_equals_step_refresh);
    TT_RUN(t520_trcdwr);
    TT_RUN(t521_scan_skip_exact);
    TT_RUN(t522_bank_low);
    return tt_done();
}
