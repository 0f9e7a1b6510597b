/*
** dram.h -- one GDDR5 channel: a request scheduler over banks with row
** buffers, bank groups, one command bus and one data bus.  Prefix gpu_dram_.
** Time is counted in DRAM command cycles (the unit of every t* parameter);
** `period` converts a cycle to the memory system's common time base, in
** which the queues' ready times are written (gpu/memsys.c; a unit test may
** use period 1).
**
** Inputs and outputs (mem/queue.h):
**   in[p]   one queue per port (the channel's L2 slices' miss queues, not
**           owned here).  Each cycle the channel takes at most one ready
**           request from them, round robin over ports, if its scheduler
**           queue (cfg.queue requests) has room; it may issue that request's
**           first command in the same cycle.  gpu_dram_accept puts a request
**           in directly (tests), under the same rule.
**   ret[p]  per port, owned here: reads with their data, r->src naming the
**           port.  A read is pushed when its column command issues, ready at
**              time(c + tCL + burst cycles) + cfg.latency
**           so the slice sees it from the first of its cycles at or after
**           that time.  Reads between column command and the slice's taking
**           them are at most cfg.return_queue per channel: a read whose
**           column command would exceed it waits (return_stall_cycles).
**   Writes are not answered: the request goes back to the pool when its
**   column command issues.
**
** Commands and their timing (c = the cycle a command issues; one command
** per cycle on the command bus):
**   ACT  bank closed;  c >= last PRE + tRP, last ACT same bank + tRC,
**        last ACT any bank + tRRD
**   PRE  bank open;  c >= ACT + tRAS, last read burst + tRTPL,
**        end of write data + tWR
**   RD   row open;  c >= ACT + tRCD; c >= last burst + tCCD (tCCDL in the
**        same bank group); c >= end of write data + tCDLR; the data
**        [c + tCL, c + tCL + n) must find the data bus free
**   WR   row open;  as RD for tRCD/tCCD/tCCDL; data [c + tWL, c + tWL + n)
**        after the bus is free, plus cfg.turnaround cycles after read data
**   n (data-bus cycles of one request) = ceil(bursts * burst / data_rate),
**   bursts = ceil(bytes / (burst * bus_bytes)); the bursts of a request go
**   back to back, and the column spacing counts from its last burst, at
**   c + n - ceil(burst / data_rate).  128 bytes on the GTX 480: 2 bursts of
**   64 B, n = 4.
** Rows stay open until a request for another row of the bank needs it
** (open-page policy).  No refresh, no power-down, no tFAW; reads and writes
** are not batched into drains.
**
** Scheduling: each bank offers one candidate request, FR-FCFS: its oldest
** request to the open row if any, else its oldest; FCFS: its oldest.  The
** candidate's next command is RD/WR (row open), PRE (another row open) or
** ACT (closed).  Of the candidates whose command can issue this cycle,
** FR-FCFS issues a column command first, then the oldest request's
** command; FCFS the oldest request's.  A request is a row-buffer hit when
** no ACT or PRE was issued for it.
*/
#ifndef GPU_DRAM_H
#define GPU_DRAM_H

#include "mreq.h"
#include "addrmap.h"
#include "../mem/queue.h"

typedef struct gpu_dramcfg {
    uint32_t channel;                            /* which channel (address decoding) */
    uint32_t banks, bank_groups, bus_bytes, burst, data_rate;
    uint32_t queue, return_queue, ports;
    bool fcfs;                                   /* false: FR-FCFS */
    uint32_t tRCD, tRP, tRAS, tRC, tCL, tWL, tCCD, tCCDL, tRRD, tWR, tCDLR, tRTPL, turnaround;
    uint64_t period;                             /* time units per DRAM cycle */
    uint64_t latency;                            /* time units added to every read (dram.latency) */
} gpu_dramcfg;

typedef struct gpu_dramstats {
    uint64_t reads, writes, activates, precharges, row_hits;
    uint64_t busy_cycles;          /* data-bus cycles that carried data */
    uint64_t queue_full_cycles;    /* cycles a request waited at a port for scheduler room */
    uint64_t return_stall_cycles;  /* cycles a read's column command waited for return room */
} gpu_dramstats;

typedef enum gpu_dramcmd_kind { GPU_DRAM_ACT, GPU_DRAM_PRE, GPU_DRAM_RD, GPU_DRAM_WR } gpu_dramcmd_kind;
typedef struct gpu_dramcmd {
    uint64_t cycle, row;
    uint32_t bank;
    uint8_t kind;          /* gpu_dramcmd_kind */
    const gpu_mreq *r;     /* on whose behalf */
} gpu_dramcmd;

typedef struct gpu_dram gpu_dram;

/* in: cfg->ports queues (NULL: no port queues, requests come through gpu_dram_accept). */
gpu_dram *gpu_dram_new(const gpu_dramcfg *cfg, const gpu_addrmap *map, gpu_mreq_pool *pool, mem_queue *const *in);
void gpu_dram_free(gpu_dram *d);
mem_queue *gpu_dram_ret(gpu_dram *d, uint32_t port);

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

#endif
