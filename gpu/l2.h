/*
** l2.h -- one L2 slice (the cache of a memory sub-partition, with its ROP
** unit).  Tags only (see mreq.h).  Prefix gpu_l2_.  Time is counted in L2
** cycles; `period` converts a cycle to the memory system's common time
** base, in which queue ready times are written.
**
**   icnt --in--> ROP pipe (rop_latency) --> tag lookup --hit--> out (icnt)
**                                                 |    \--atomic--> atomic unit --> out
**                                                 \--miss--> MSHRs --> miss --> DRAM
**   DRAM --fill--> line installed, MSHR's requests released --> out (atomics: the atomic unit)
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
**      as a store of its dirty sectors into `miss`), the sectors it brings
**      become valid, those that merged stores and atomics write valid and
**      dirty, and its MSHR is queued for release.
**   2. release: the waiting requests of queued MSHRs whose sectors have all
**      arrived, oldest MSHR first, in arrival order: loads go to `out` as
**      replies (is_reply set, ready t + 1), atomics to the atomic unit;
**      stores are freed (or acknowledged, if want_ack).  As many as `out`
**      (and the atomic unit) have room for; the rest wait for the next
**      cycle.  An MSHR is freed when its last request below is answered
**      and its last waiting request has left.
**   3. lookup: the head of the ROP pipe, if ready, is looked up:
**      load   hit (the line present with every sector it names): reply to
**             `out`.  miss: joins the line's MSHR (up to mshr_merge
**             requests; if the MSHR was not asked for some of its missing
**             sectors, one more DRAM read for those), or takes a new MSHR
**             and sends one DRAM read of its missing sectors (a request of
**             the slice's own, tag = MSHR) into `miss`.
**      store  line present: its sectors become valid and dirty.  miss with
**             the line in flight: joins its MSHR (the fill makes its
**             sectors valid and dirty).  Otherwise write-allocate without
**             reading DRAM (write-validate: there is no data to merge): the
**             LRU victim is replaced (written back if dirty) and the new
**             line has the store's sectors, valid and dirty.  Freed, or
**             acknowledged through `out` if want_ack.
**      atomic as a load whose sectors become dirty; performed by the atomic
**             unit (below) once its line is there.
**      With no cache (size 0) loads and atomics always miss (MSHRs still
**      merge) and stores go on to DRAM as they are.
**      A lookup that cannot go on (no room in `out` for a hit's reply or in
**      the atomic unit for an atomic, no MSHR, merge limit, no room in
**      `miss`) leaves the request at the head and is retried next cycle;
**      each refused cycle is a reservation failure (out-full and
**      atomic-unit-full cycles count as stall_cycles instead).
**   4. atomic unit: its performed atomics (head first, once their time has
**      come) go to `out` as replies, as many as it has room for.
**   5. in -> ROP: the head of `in`, if ready, enters the ROP pipe, whose
**      head becomes ready rop_latency later (so a request seen at cycle a
**      is looked up at the first cycle at or after time(a) + rop_latency).
**      The pipe holds ceil(rop_latency / period) + 1 requests: full only
**      when lookups stall.
** Allocation (cfg.alloc_on_miss, l2.alloc): off, a load's line is taken
** at its fill (stage 1).  On (GPGPU-Sim's `m`, 3.2.2 and 4.2 alike), a
** load or atomic miss that takes a new MSHR for an absent line takes its
** line at once: the victim (the lowest invalid way, else the least recently
** used way not reserved) leaves, written back into `miss` if dirty (so the
** miss needs room in `miss` for the write-back and the read), and the new
** line is inserted with no sector valid and the missing sectors pending
** (`pend`: reserved, never a victim); a sector miss to a present line
** marks its sectors pending too.  The fill clears `pend` for the sectors it
** brings.  A reserved line is not a hit (no sector valid) but joins the
** line's MSHR as before.  A load or atomic miss, or a store's
** write-allocation, to a set whose ways are all reserved is refused (a
** reservation failure), as GPGPU-Sim's RESERVATION_FAIL.
** `miss` accepts new misses and store-allocation write-backs while it holds
** fewer than cfg.queue requests; the mshrs further entries are kept for
** write-backs caused by fills (each fill of an unsectored slice frees an
** MSHR, so they always fit; a sectored slice's extra reads may need more,
** and the queue grows then: a fill is never refused, which keeps DRAM
** returns flowing).
**
** Sectors (cfg.sectored): 32-byte sectors of the line, valid and dirty one
** by one (gpu_mreq.sectors names a request's; 0: the whole line).  A DRAM
** request carries the sectors it reads or writes and, as its size, the
** DRAM atoms (cfg.dram_atom = burst x bus width bytes) they touch: a
** 32-byte read costs a whole 64-byte burst where the atom is 64 bytes.
** Unsectored: one sector, whole-line requests, as GPGPU-Sim 3.2.2.
**
** Atomic unit (cfg.atomic_interval > 0): one per slice, serving atomics in
** the order they are handed to it (at a hit's lookup or at the release
** after their fill).  An atomic carrying n lanes' operations of which at
** most k fall on one address (gpu_mreq.ops, ops_addr) holds it
**     occ = max(k x atomic_interval, ceil(n / atomic_rate))   L2 cycles,
** starting at the cycle it is handed over or when the unit frees, whichever
** is later; its reply goes to `out` at the end (ready one time unit
** later).  The unit holds cfg.queue atomics; a lookup or release finding it
** full waits.  atomic_interval = 0: no unit, an atomic is answered like a
** load (GPGPU-Sim).
*/
#ifndef GPU_L2_H
#define GPU_L2_H

#include "mreq.h"
#include "addrmap.h"
#include "../mem/queue.h"
#include "../base/opt.h"

typedef struct gpu_l2cfg {
    uint32_t slice;               /* which slice (addrmap numbering) */
    uint32_t port;                /* the slice's port at its DRAM channel (requests' src) */
    uint64_t size;
    uint32_t assoc, line, mshrs, mshr_merge, queue;
    uint64_t period;              /* time units per L2 cycle */
    uint64_t rop_latency;         /* time units from arrival to lookup */
    bool sectored;                /* 32-byte sectors (above) */
    bool alloc_on_miss;           /* l2.alloc = miss: a load miss reserves its line (above) */
    uint32_t dram_atom;           /* bytes of the DRAM's smallest transfer (0: 32) */
    uint32_t fetch;               /* l2.fetch: bytes a read miss asks for around each missing sector (0: 32) */
    uint32_t atomic_interval;     /* L2 cycles per operation on one address (0: no atomic unit) */
    uint32_t atomic_rate;         /* operations on distinct addresses per L2 cycle (0: 1) */
} gpu_l2cfg;

typedef struct gpu_l2stats {
    uint64_t accesses, hits, misses, mshr_merges, reservation_fails;
    uint64_t loads, stores, atomics;
    uint64_t writebacks, dram_reads;
    uint64_t stall_cycles;        /* cycles a reply waited for room in `out` (or an atomic for the atomic unit) */
    uint64_t sector_misses;       /* load and atomic misses to a line present without some of their sectors */
    uint64_t atomic_ops;          /* lanes' operations the atomic unit performed */
    uint64_t atomic_busy;         /* L2 cycles the atomic unit was busy */
} gpu_l2stats;

typedef struct gpu_l2 gpu_l2;

/* The options of gpu/mem_options.def that belong to the slice alone
** (l2.sectored, l2.atomic_*, the DRAM atom): set in cfg, the rest untouched. */
void gpu_l2_cfg_options(const tp_opts *o, gpu_l2cfg *cfg);
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
/* The counters as of the slice's last tick; gpu_l2_sync(s, c) first adds
** what the cycles before c that it was not ticked in would have counted
** (a slice whose ROP head is refused again and again sleeps, counting its
** reservation failures at its next tick). */
const gpu_l2stats *gpu_l2_stats(const gpu_l2 *s);
void gpu_l2_sync(gpu_l2 *s, uint64_t cycle);
/* Marks the line at device address addr present and dirty without timing,
** as a host-to-device copy that passed through the L2 leaves it (a dirty
** victim is dropped: the copy engine's write-back is not simulated). */
void gpu_l2_warm(gpu_l2 *s, uint64_t addr);

#endif
