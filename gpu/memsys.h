/*
** memsys.h -- the memory system below the SMs: the interconnect (a crossbar
** between SM ports and memory sub-partitions, and back), one L2 slice per
** sub-partition, and the DRAM channels with their banks.  Module prefix:
** gpu_memsys_.  Built from the options of gpu/mem_options.def and the clocks
** of gpu/options.def; internally each part ticks in its own clock domain
** (icnt, L2, DRAM), advanced by gpu_memsys_tick to the time of a core cycle.
**
**   SM port --accept--> icnt (SM->mem) --> L2 slice (ROP latency, tags,
**     MSHRs) --miss--> DRAM channel (FR-FCFS, banks, row buffers, bus)
**     --> L2 fill --> icnt (mem->SM) --> pop(sm)
**
** Loads and atomics are answered (the same request, is_reply set); stores
** are performed at the L2 (write-back, write-allocate there) and freed
** unless want_ack.  Every unit talks to its neighbours only through bounded
** queues, and counts the cycles it could not push.  Deterministic: units
** tick in a fixed order, ties broken by index.
*/
#ifndef GPU_MEMSYS_H
#define GPU_MEMSYS_H

#include "mreq.h"
#include "../base/opt.h"

typedef struct gpu_memsys gpu_memsys;

typedef struct gpu_memstats {
    uint64_t icnt_packets, icnt_flits, icnt_stall_cycles;
    uint64_t icnt_reply_stall_cycles; /* L2 cycles a slice's reply (data or ack) found the reply network's input full */
    uint64_t l2_accesses, l2_hits, l2_misses, l2_writebacks, l2_mshr_merges, l2_reservation_fails;
    uint64_t l2_sector_misses, l2_atomic_busy;   /* gpu_l2stats' sector_misses, atomic_busy, summed */
    uint64_t dram_reads, dram_writes, dram_activates, dram_row_buffer_hits;
    uint64_t dram_refreshes;      /* REF or REFpb commands, summed over channels */
    uint64_t dram_turnarounds;    /* read bursts that followed a write burst, summed over channels */
    uint64_t dram_busy_cycles;    /* DRAM cycles some channel's data bus carried data, summed over channels */
    uint64_t dram_cycles;         /* DRAM cycles elapsed, summed over channels */
    uint64_t replies;             /* replies the SMs took (loads, atomics, acknowledged stores) */
    uint64_t latency_cycles;      /* their core cycles from the L1 access (miss) to the SM taking the reply */
    uint64_t latency_to_l2_cycles;   /* ... from the L1 access to the L2 slice taking the request (floor) */
    uint64_t latency_from_l2_cycles; /* ... from the reply entering the reply network to the SM taking it (floor) */
} gpu_memstats;

gpu_memsys *gpu_memsys_new(const tp_opts *o, uint32_t nsm, gpu_mreq_pool *pool);
void gpu_memsys_free(gpu_memsys *m);

/* The SM side, in core cycles.  can_accept: SM sm's injection port takes r
** this cycle; accept hands it over.  pop: a reply for SM sm that has
** arrived by core cycle now, or NULL; at most icnt.eject_rate replies per
** SM per core cycle (0: no limit) -- the rest wait in the ejection buffer,
** and once it is full the crossbar and the slices' reply queues wait too. */
bool gpu_memsys_can_accept(const gpu_memsys *m, uint32_t sm, const gpu_mreq *r);
void gpu_memsys_accept(gpu_memsys *m, gpu_mreq *r, uint64_t now);
gpu_mreq *gpu_memsys_pop(gpu_memsys *m, uint32_t sm, uint64_t now);
/* The first core cycle at which pop(sm, .) returns a reply already in the
** ejection buffer (UINT64_MAX: none): the launch loop wakes a sleeping SM
** then, the cycle in which a busy SM takes the reply. */
uint64_t gpu_memsys_reply_at(const gpu_memsys *m, uint32_t sm);
/* A bit per SM (words of 64): every SM with a reply in its ejection buffer
** has its bit set (a few without may too; gpu_memsys_next clears theirs,
** and so may a caller that found reply_at UINT64_MAX: gpu_memsys_reply_none). */
const uint64_t *gpu_memsys_reply_mask(const gpu_memsys *m);
void gpu_memsys_reply_none(gpu_memsys *m, uint32_t sm);

/* Runs every clock domain up to (and including) its edges at or before the
** time of core cycle now.  Calls must not go back in time; core cycles
** skipped between calls cost nothing when the system is idle. */
void gpu_memsys_tick(gpu_memsys *m, uint64_t now);
/* The earliest core cycle at which something inside can change state without
** a new request (UINT64_MAX: nothing in flight). */
uint64_t gpu_memsys_next(const gpu_memsys *m);
/* gpu_memsys_next without the replies in the SMs' ejection buffers: for a
** caller that wakes each SM with a reply by gpu_memsys_reply_at (an SM's
** wake then bounds its replies' cycle, or is the next cycle). */
uint64_t gpu_memsys_next_inside(const gpu_memsys *m);
bool gpu_memsys_idle(const gpu_memsys *m);
/* The counters as of the last tick, summed over the units at this call
** (not kept current afterwards: call again for later values). */
const gpu_memstats *gpu_memsys_stats(const gpu_memsys *m);

/* A host-to-device copy of [addr, addr + bytes) passed through the L2
** (l2.warm_copies): its lines are present and dirty there, the last ones
** copied most recently used.  Only the last L2-sized part of a larger copy
** can stay, so only that part is visited.  Takes no simulated time. */
void gpu_memsys_warm(gpu_memsys *m, uint64_t addr, uint64_t bytes);

/* The channel and L2 slice of an address (tests, statistics). */
uint32_t gpu_memsys_slice_of(const gpu_memsys *m, uint64_t addr);

#endif
