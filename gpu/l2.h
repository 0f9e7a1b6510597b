/*
** l2.h -- one L2 slice (the cache of a memory sub-partition, with its ROP
** unit).  Tags only (see mreq.h).  Prefix gpu_l2_.  Time is counted in L2
** cycles; `period` converts a cycle to the memory system's common time
** base, in which queue ready times are written.
**
**   icnt --in--> ROP pipe (rop_latency) --> tag lookup --hit--> out (icnt)
**                                                 \--miss--> MSHRs --> miss --> DRAM
**   DRAM --fill--> line installed, MSHR's requests released --> out
**
** Queues: `in` (cfg.queue requests) and `miss` (cfg.queue + cfg.mshrs, see
** below) are owned here; `out` (the interconnect's reply input for this
** slice) and `fill` (the DRAM channel's return queue for this slice) are
** not.  The tags are indexed by the slice-local address (addrmap.h), so
** every set is used.
**
** One L2 cycle c (time t = c * period) runs these stages in this order:
**   1. fill: the head of `fill`, if ready, is taken (never refused): its
**      line is installed unless present (the LRU victim, if dirty, leaves
**      as a whole-line store into `miss`), made dirty if a store or atomic
**      waits on it, and its MSHR is queued for release.
**   2. release: the waiting requests of filled MSHRs, oldest MSHR first,
**      in arrival order: loads and atomics go to `out` as replies (is_reply
**      set, ready t + 1); stores are freed (or acknowledged, if want_ack).
**      As many as `out` has room for; the rest wait for the next cycle.
**      An MSHR is freed when its last request has left.
**   3. lookup: the head of the ROP pipe, if ready, is looked up:
**      load   hit: reply to `out`.  miss: joins the line's MSHR (up to
**             mshr_merge requests), or takes a new MSHR and sends one
**             whole-line read (a request of the slice's own, tag = MSHR)
**             into `miss`.
**      store  hit: the line becomes dirty.  miss with the line in flight:
**             joins its MSHR (the fill makes the line dirty).  Otherwise
**             write-allocate without reading DRAM (write-validate: there is
**             no data to merge): the LRU victim is replaced (written back if
**             dirty) and the new line is dirty.  Freed, or acknowledged
**             through `out` if want_ack.
**      atomic performed here: as a load that also dirties the line.
**      With no cache (size 0) loads and atomics always miss (MSHRs still
**      merge) and stores go on to DRAM as they are.
**      A lookup that cannot go on (no room in `out` for a hit's reply, no
**      MSHR, merge limit, no room in `miss`) leaves the request at the head
**      and is retried next cycle; each refused cycle is a reservation
**      failure (out-full cycles count as stall_cycles instead).
**   4. in -> ROP: the head of `in`, if ready, enters the ROP pipe, whose
**      head becomes ready rop_latency later (so a request seen at cycle a
**      is looked up at the first cycle at or after time(a) + rop_latency).
**      The pipe holds ceil(rop_latency / period) + 1 requests: full only
**      when lookups stall.
** `miss` accepts new misses and store-allocation write-backs while it holds
** fewer than cfg.queue requests; the mshrs further entries are kept for
** write-backs caused by fills (each fill frees an MSHR, so they always
** fit: a fill is never refused, which keeps DRAM returns flowing).
*/
#ifndef GPU_L2_H
#define GPU_L2_H

#include "mreq.h"
#include "addrmap.h"
#include "../mem/queue.h"

typedef struct gpu_l2cfg {
    uint32_t slice;               /* which slice (addrmap numbering) */
    uint32_t port;                /* the slice's port at its DRAM channel (requests' src) */
    uint64_t size;
    uint32_t assoc, line, mshrs, mshr_merge, queue;
    uint64_t period;              /* time units per L2 cycle */
    uint64_t rop_latency;         /* time units from arrival to lookup */
} gpu_l2cfg;

typedef struct gpu_l2stats {
    uint64_t accesses, hits, misses, mshr_merges, reservation_fails;
    uint64_t loads, stores, atomics;
    uint64_t writebacks, dram_reads;
    uint64_t stall_cycles;        /* cycles a reply waited for room in `out` */
} gpu_l2stats;

typedef struct gpu_l2 gpu_l2;

gpu_l2 *gpu_l2_new(const gpu_l2cfg *cfg, const gpu_addrmap *map, gpu_mreq_pool *pool);
/* Wires the slice to its neighbours' queues (before the first tick). */
void gpu_l2_connect(gpu_l2 *s, mem_queue *out, mem_queue *fill);
void gpu_l2_free(gpu_l2 *s);
mem_queue *gpu_l2_in(gpu_l2 *s);
mem_queue *gpu_l2_miss(gpu_l2 *s);

bool gpu_l2_can_accept(const gpu_l2 *s);
/* A request from the interconnect, seen from time `ready` on. */
void gpu_l2_accept(gpu_l2 *s, gpu_mreq *r, uint64_t ready);

void gpu_l2_tick(gpu_l2 *s, uint64_t cycle);
/* The earliest time (time base) at which a tick can change anything. */
uint64_t gpu_l2_next(const gpu_l2 *s);
bool gpu_l2_idle(const gpu_l2 *s);
const gpu_l2stats *gpu_l2_stats(const gpu_l2 *s);
/* Marks the line at device address addr present and dirty without timing,
** as a host-to-device copy that passed through the L2 leaves it (a dirty
** victim is dropped: the copy engine's write-back is not simulated). */
void gpu_l2_warm(gpu_l2 *s, uint64_t addr);

#endif
