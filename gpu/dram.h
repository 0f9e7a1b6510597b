/*
** dram.h -- one GDDR5/GDDR6 channel: a request scheduler over banks with row
** buffers, bank groups, one command bus and one data bus, and refresh.
** Prefix gpu_dram_.  Time is counted in DRAM command cycles (the unit of
** every t* parameter: the data sheets' tCK); `period` converts a cycle to the
** memory system's common time base, in which the queues' ready times are
** written (gpu/memsys.c; a unit test may use period 1).
**
** Inputs and outputs (mem/queue.h):
**   in[p]   one queue per port (the channel's L2 slices' miss queues, not
**           owned here).  Each cycle the channel takes at most one ready
**           request from them, round robin over ports, if its scheduler
**           queue (cfg.queue requests) has room; it may issue that request's
**           first command in the same cycle.  gpu_dram_accept puts a request
**           in directly (tests), under the same rule.
**   ret[p]  per port, owned here: reads with their data, r->src naming the
**           port.  A read is pushed when its last burst's column command
**           issues, ready at
**              time(end of that burst's data) + cfg.latency
**           so the slice sees it from the first of its cycles at or after
**           that time.  Reads between that column command and the slice's
**           taking them are at most cfg.return_queue per channel: a read
**           whose last burst would exceed it waits (return_stall_cycles).
**   Writes are not answered: the request goes back to the pool when its
**   last burst's column command issues.
**
** Bursts.  A request of `bytes` is bursts = ceil(bytes / (burst x
** bus_bytes)) column commands (RD or WR) to its bank and row, each moving one
** burst that holds the data bus bc = ceil(burst / data_rate) cycles: 128
** bytes on the GTX 480 are 2 bursts of 64 B (bc 2), on the RTX 2060's 16-bit
** GDDR6 channel 4 bursts of 32 B (bc 2 at the 1750 MHz command clock).  The
** bursts of one request are to one bank, so tCCDL spaces them; the scheduler
** fills the cycles between with other bank groups' bursts.
**
** Commands and their timing (c = the cycle a command issues; one command
** per cycle on the command bus; g = the bank's group):
**   ACT  bank closed;  c >= last PRE + tRP, last ACT same bank + tRC,
**        last ACT any bank + tRRD, last ACT in g + tRRDL, the fourth-last
**        ACT + tFAW, end of the bank's refresh (tRFC / tRFCpb), last REFpb
**        + tRREFD
**   PRE  bank open;  c >= ACT + tRAS, last RD + tRTPL, end of write data
**        + tWR
**   RD   row open;  c >= ACT + tRCD; last RD/WR + tCCD, in g + tCCDL;
**        end of write data + tCDLR (tWTR_S), in g + tWTRL; its data
**        [c + tCL, c + tCL + bc) must find the data bus free
**   WR   row open;  c >= ACT + tRCDWR; as RD for tCCD/tCCDL; data [c + tWL, c + tWL + bc)
**        after the bus is free, plus cfg.turnaround idle cycles after read
**        data (read-to-write turnaround: the data sheets' tRTW)
**   PREA (all-bank refresh) every open bank at once: c >= each one's PRE rule
**   REF  all banks closed: c >= every bank's ACT rule for the same bank
**        (tRP, tRC); then no ACT for tRFC
**   REFpb (per-bank refresh) bank closed: c >= its ACT rules, last REFpb +
**        tRREFD; then no ACT to it for tRFCpb
** Rows stay open until a request for another row of the bank, or a refresh,
** needs the bank (open-page policy).  No power-down; reads and writes are
** not batched into drains beyond what FR-FCFS's readiness rule does (a read
** waits out tWTR, so the writes already queued go first).
**
** Refresh (cfg.refresh): none; all (all-bank: every tREFI cycles a refresh
** falls due; from then on no ACT and no column command of a request not yet
** begun issues; once no request is half way through its bursts, PREA closes
** the open banks, then REF, then every bank waits tRFC); or bank (per-bank:
** every tREFI / banks cycles the next bank in order, 0, 1, ..., falls due;
** only that bank stops: PRE if open, REFpb, tRFCpb).  The first refresh falls
** due at cfg.refresh_phase + tREFI (so that channels can be staggered).
** Refreshes that fall due while the channel holds no request are worked out
** when it next does (or next ticks), with the times they would have had: an
** idle channel asks for no ticks (gpu_dram_next), and skipping changes
** nothing.
**
** Scheduling: each bank offers one candidate request, FR-FCFS: its oldest
** request to the open row if any, else its oldest; FCFS: its oldest.  The
** candidate's next command is RD/WR (row open), PRE (another row open) or
** ACT (closed).  A refresh due has first claim on the command bus; of the
** candidates whose command can issue this cycle, FR-FCFS issues a column
** command first, then the oldest request's command; FCFS the oldest
** request's.  A request is a row-buffer hit when no ACT or PRE was issued
** for it.
*/
#ifndef GPU_DRAM_H
#define GPU_DRAM_H

#include "mreq.h"
#include "addrmap.h"
#include "../mem/queue.h"

typedef enum gpu_dramref { GPU_DRAM_REF_NONE, GPU_DRAM_REF_ALL, GPU_DRAM_REF_BANK } gpu_dramref;

typedef struct gpu_dramcfg {
    uint32_t channel;                            /* which channel (address decoding) */
    uint32_t banks, bank_groups, bus_bytes, burst, data_rate;
    uint32_t queue, return_queue, ports;
    bool fcfs;                                   /* false: FR-FCFS */
    uint32_t tRCD, tRP, tRAS, tRC, tCL, tWL, tCCD, tCCDL, tRRD, tWR, tCDLR, tRTPL, turnaround;
    uint32_t tRRDL, tWTRL, tFAW, tRCDWR;         /* 0: tRRD, tCDLR, none, tRCD */
    uint8_t refresh;                             /* gpu_dramref */
    uint32_t tREFI, tRFC, tRFCpb, tRREFD;        /* tREFI 0: no refresh */
    uint64_t refresh_phase;                      /* the first refresh falls due at phase + tREFI */
    uint64_t period;                             /* time units per DRAM cycle */
    uint64_t latency;                            /* time units added to every read (dram.latency) */
} gpu_dramcfg;

typedef struct gpu_dramstats {
    uint64_t reads, writes, activates, precharges, row_hits;
    uint64_t refreshes;            /* REF (all-bank) or REFpb commands */
    uint64_t write_to_read;        /* read bursts that followed a write burst (turnarounds) */
    uint64_t busy_cycles;          /* data-bus cycles that carried data */
    uint64_t queue_full_cycles;    /* cycles a request waited at a port for scheduler room */
    uint64_t return_stall_cycles;  /* cycles a read's column command waited for return room */
} gpu_dramstats;

/* PREA and REF (all-bank) name bank GPU_DRAM_ALL; refresh commands no request. */
typedef enum gpu_dramcmd_kind {
    GPU_DRAM_ACT, GPU_DRAM_PRE, GPU_DRAM_RD, GPU_DRAM_WR, GPU_DRAM_PREA, GPU_DRAM_REF
} gpu_dramcmd_kind;
enum { GPU_DRAM_ALL = 0xffffffffu };
typedef struct gpu_dramcmd {
    uint64_t cycle, row;
    uint32_t bank;
    uint8_t kind;          /* gpu_dramcmd_kind */
    const gpu_mreq *r;     /* on whose behalf (NULL: refresh) */
} gpu_dramcmd;

typedef struct gpu_dram gpu_dram;

/* The dram.* options of channel `channel` (every field but ports, period
** and latency, which are the memory system's: 0 here); refreshes are
** staggered over the dram.channels channels by tREFI / channels. */
struct tp_opts;
void gpu_dram_cfg_opts(gpu_dramcfg *c, const struct tp_opts *o, uint32_t channel);

/* in: cfg->ports queues (NULL: no port queues, requests come through gpu_dram_accept). */
gpu_dram *gpu_dram_new(const gpu_dramcfg *cfg, const gpu_addrmap *map, gpu_mreq_pool *pool, mem_queue *const *in);
void gpu_dram_free(gpu_dram *d);
mem_queue *gpu_dram_ret(gpu_dram *d, uint32_t port);
/* The count of reads pushed into the return queues (all ports), ever: only
** the channel's tick pushes there, and this moves with every push. */
const uint64_t *gpu_dram_returned(const gpu_dram *d);

bool gpu_dram_can_accept(const gpu_dram *d);
/* Schedulable from cycle `cycle` on (the channel must have room). */
void gpu_dram_accept(gpu_dram *d, gpu_mreq *r, uint64_t cycle);

/* Runs cycle `cycle` (increasing from call to call; cycles with nothing to
** do may be skipped, see gpu_dram_next). */
void gpu_dram_tick(gpu_dram *d, uint64_t cycle);
/* The earliest time (time base, not cycles) at which a tick can change anything. */
uint64_t gpu_dram_next(const gpu_dram *d);
bool gpu_dram_idle(const gpu_dram *d);
const gpu_dramstats *gpu_dram_stats(const gpu_dram *d);
/* Records every command issued into buf (cap entries; NULL stops); returns how many so far. */
void gpu_dram_trace(gpu_dram *d, gpu_dramcmd *buf, uint32_t cap);
uint32_t gpu_dram_traced(const gpu_dram *d);
/* Forgets the cycle of the next possible command, so that the next tick
** scans the banks (tests: scanning in every cycle is the reference for the
** cycles the channel's own next event lets it skip). */
void gpu_dram_rescan(gpu_dram *d);

#endif
