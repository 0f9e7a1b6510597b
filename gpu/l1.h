/*
** l1.h -- an SM-side cache: the L1 data cache, and (with other parameters)
** the constant cache.  Tags only (no data: see mreq.h).  Module prefix: gpu_l1_.
**
**   LD/ST unit --access--> [tag lookup] --hit--> hit pipeline (latency) --> done
**                                 \--miss--> MSHRs (merge) --> miss queue --> (SM port to the memory system)
**   memory system reply --fill--> line allocated, merged requests --> done
**
** Policies (by the request's kind and space):
**   loads: allocate on fill (cfg.alloc_on_miss = false: the line is
**     installed when its data arrives) or on miss (true, GPGPU-Sim's
**     policy: the victim is chosen, written back if dirty, and the line
**     reserved when the miss is sent; a set whose every way is reserved
**     refuses the miss, a reservation failure).  Global loads allocate only
**     when cfg.cache_global; otherwise they use the MSHRs but do not
**     allocate.  LRU replacement.
**   global stores: write-through, no write-allocate (a hit keeps the line);
**   local stores: write-back, write-allocate (the line becomes dirty; a dirty
**     victim leaves as a GPU_MR_STORE of its dirty bytes through the miss
**     queue);
**   atomics: bypass the tags; answered through fill like a miss, no allocation.
** Sectors (cfg.sectored, 32-byte sectors, lines of up to 512 bytes): a
** line's sectors are valid one by one; a load hits when every sector it
** names (gpu_mreq.sectors) is valid, and a miss fetches only the sectors it
** needs that are neither valid nor already asked for (a line in flight
** that lacks some of them is asked again for those: one more request under
** the same MSHR).  A waiting load is released when its missing sectors have
** arrived.  Stores validate and dirty only their sectors.  Unsectored: one
** sector the size of the line, every request the whole line.
** Ports: the caller makes at most one access per cycle, or with cfg.banks
** = N > 1 (a banked L1) at most one per bank per cycle, line n in bank
** n mod N (gpu_l1_bank; the caller keeps the banks apart).  A banked cache
** still has cfg.miss_ports (1) ways into its miss path per cycle: an access
** that would take one more (a new MSHR, a store or an atomic into the miss
** queue, a dirty victim's write-back) is refused with GPU_L1_BUSY, not
** counted as a reservation failure; the caller retries next cycle.  With
** one bank the unit counts no ports.
**
** Exact timing: a hit accessed at cycle t is returned by gpu_l1_pop_done at
** t + latency; a miss leaves through the miss queue as soon as the caller
** takes it; its merged requests are returned by pop_done from the cycle of
** the fill on.  A request that cannot be taken (no MSHR, merge limit
** reached, miss queue full, allocate-on-miss with every way of the set
** reserved) is a reservation failure: it is not accepted,
** the caller keeps it and retries, and the failure is counted.
**
** Lookup queue (cfg.lookup_queue, l1d.lookup=queue: GPGPU-Sim 4.2's
** ldst_unit::L1_latency_queue_cycle).  An access only enters a queue of
** cfg.latency stages (one per bank, line n in bank n mod banks) and is
** answered GPU_L1_QUEUED, or GPU_L1_BUSY when that queue already holds
** cfg.latency requests.  The stages shift toward the head every cycle,
** closing gaps, so a request accessed at cycle t reaches the head at t +
** latency, or the cycle after its predecessor left it if that is later.
** At the head, in gpu_l1_cycle, it is looked up as an access above would be
** at that cycle, with these timings: a hit (a load's data, or a local store
** absorbed) comes out of pop_done in the same cycle, a miss's request (or a
** store or atomic passed on) is in the miss queue from the next cycle; one
** lookup per bank per cycle.  A head the lookup refuses (reservation failure,
** busy miss port) stays and holds its queue; it is asked again every cycle,
** each refusal counted.  The caller learns no result: a store it hands over
** with want_ack is acknowledged either by the L2 or, if the L1D absorbs it,
** by the L1D itself at the lookup (it comes out of pop_done with is_reply
** set), so the caller counts every such store as sent at GPU_L1_QUEUED.
**
** Draining MSHRs (cfg.release_drain, l1d.release=drain: the mshr_table of
** GPGPU-Sim 3.2.2 and 4.2).  A fill that completes an MSHR (every request it sent below
** answered) releases nothing at once: the MSHR joins a FIFO of completed
** ones, and gpu_l1_cycle releases one waiting request a cycle, from the
** FIFO's front MSHR, from the cycle after the fill on (pop_done returns it
** in the cycle it leaves); the MSHR stays taken, so new misses can find the table full,
** until its last request has left.  A load that merges into a draining MSHR
** leaves with it; one that needs sectors it did not fetch is refused.
*/
#ifndef GPU_L1_H
#define GPU_L1_H

#include "mreq.h"
#include "../mem/queue.h"
#include "../base/opt.h"

typedef struct gpu_l1cfg {
    uint32_t size, assoc, line;   /* bytes, ways, bytes (size 0: no cache, everything misses and bypasses) */
    uint32_t latency;             /* hit latency, cycles */
    uint32_t miss_latency;        /* cycles from an access to its request leaving (the tag lookup is part of the pipeline) */
    uint32_t mshrs, mshr_merge;   /* MSHR entries; requests one entry merges */
    uint32_t miss_queue;          /* entries */
    bool cache_global;            /* global loads allocate */
    uint8_t set_index;            /* mem_index: linear, xor or fermi (mem/cache.h) */
    bool sectored;                /* 32-byte sectors (above) */
    bool alloc_on_miss;           /* loads reserve their line at the miss (above) */
    bool store_evict;             /* a global store discards the line it finds (Fermi), else keeps it */
    uint32_t banks;               /* accesses per cycle to distinct banks (0 or 1: one access per cycle) */
    uint32_t miss_ports;          /* banks > 1: accesses per cycle that may enter the miss path */
    bool lookup_queue;            /* the tag lookup at the head of a queue of `latency` stages per bank (below) */
    bool release_drain;           /* a completed MSHR's loads leave one a cycle; the MSHR is freed after the last (below) */
} gpu_l1cfg;

typedef enum gpu_l1res {
    GPU_L1_HIT,      /* data at now + latency */
    GPU_L1_MISS,     /* a new MSHR; the line request is in the miss queue */
    GPU_L1_MERGED,   /* joined an MSHR already waiting for the line */
    GPU_L1_SENT,     /* a store or atomic handed to the miss queue (stores: nothing comes back to the caller) */
    GPU_L1_RESFAIL,  /* not accepted: retry later */
    GPU_L1_BUSY,     /* banked cache: the miss path took its requests for this cycle; retry next cycle
                        (lookup queue: the bank's queue is full) */
    GPU_L1_QUEUED,   /* lookup queue: taken into the queue, looked up later (below) */
} gpu_l1res;

typedef struct gpu_l1stats {
    uint64_t accesses, hits, misses, mshr_merges, reservation_fails;
    uint64_t writebacks, stores, atomics, bypass_loads;
    uint64_t port_busy;           /* accesses refused with GPU_L1_BUSY (banked caches) */
    uint64_t sector_misses;       /* load misses to a line present (or reserved) without some of their sectors */
    uint64_t alloc_fails;         /* allocate-on-miss: refused because every way of the set was reserved (in reservation_fails too) */
    uint64_t store_evictions;     /* store_evict: lines a global store discarded */
} gpu_l1stats;

typedef struct gpu_l1 gpu_l1;

gpu_l1 *gpu_l1_new(const gpu_l1cfg *cfg, gpu_mreq_pool *pool);
void gpu_l1_free(gpu_l1 *c);

/* The upper side.  On HIT, MISS and MERGED the cache keeps r until it comes
** out of pop_done; on SENT it keeps it too (a store is passed on, a later
** reply to an atomic comes out of pop_done); on RESFAIL and BUSY the caller
** keeps it. */
gpu_l1res gpu_l1_access(gpu_l1 *c, gpu_mreq *r, uint64_t now);
/* The cache's own work of cycle now: a draining MSHR's next release and
** the lookups due at the queues' heads (below).  Called once a cycle,
** after the cycle's fills and before its pop_done and accesses, by a
** caller whose cache has either (gpu_l1_has_cycle; otherwise a no-op).
** Whether anything moved. */
bool gpu_l1_cycle(gpu_l1 *c, uint64_t now);
static inline bool gpu_l1_has_cycle(const gpu_l1cfg *cfg) { return cfg->lookup_queue || cfg->release_drain; }
/* The bank of the line holding addr: (addr / line) mod banks (0 with one bank). */
static inline uint32_t gpu_l1_bank(const gpu_l1cfg *cfg, uint64_t addr)
{
    return cfg->banks > 1 ? (uint32_t)(addr / cfg->line % cfg->banks) : 0;
}
/* A request of the caller whose data is there at cycle now, or NULL. */
gpu_mreq *gpu_l1_pop_done(gpu_l1 *c, uint64_t now);
/* The two queues pop_done takes from (*hits, *fills): it returns a request
** exactly when one of their heads is ready by now, which a caller may
** check in line before the call. */
void gpu_l1_done_queues(const gpu_l1 *c, const mem_queue **hits, const mem_queue **fills);

/* The lower side.  The head of the miss queue (NULL when empty); pop it
** once the memory system has taken it.  A request enters the miss queue
** miss_latency cycles after its access; peek_miss_at returns the head only
** once it is there (peek_miss regardless). */
gpu_mreq *gpu_l1_peek_miss(gpu_l1 *c);
gpu_mreq *gpu_l1_peek_miss_at(gpu_l1 *c, uint64_t now);
/* The miss queue itself, for a caller that peeks it in line
** (mem_queue_peek(q, now) is gpu_l1_peek_miss_at(c, now)); pop with
** gpu_l1_pop_miss. */
const mem_queue *gpu_l1_missq(const gpu_l1 *c);
void gpu_l1_pop_miss(gpu_l1 *c);
/* A reply from the memory system to one of this cache's requests. */
void gpu_l1_fill(gpu_l1 *c, gpu_mreq *reply, uint64_t now);
/* Whether gpu_l1_access would refuse r (GPU_L1_RESFAIL) in any cycle from
** now until it takes an access, a fill or an invalidation: r was refused
** for want of an MSHR and nothing since could change that (a departure
** from the miss queue cannot).  False when it cannot tell (a banked cache,
** whose refusal may be GPU_L1_BUSY; a lookup queue). */
bool gpu_l1_refuses(const gpu_l1 *c, const gpu_mreq *r);
/* Whether a load of the line holding addr, for `sectors`, would be refused
** for want of an MSHR in any cycle from now until the cache takes an
** access, a fill or an invalidation: the line is not there with every
** sector it names, no MSHR fetches it, every MSHR is busy.  False when it
** cannot tell (as gpu_l1_refuses).  gpu_l1_note_refused(r), r that load,
** then remembers r as refused (gpu_l1_refuses(r) is true), its refusal
** counted by the caller. */
bool gpu_l1_load_refused(const gpu_l1 *c, uint64_t addr, uint32_t sectors);
void gpu_l1_note_refused(gpu_l1 *c, const gpu_mreq *r);

/* Invalidates every line (between kernels); dirty lines are dropped (local
** memory of a finished kernel is dead).  Requests in flight are not touched. */
void gpu_l1_invalidate(gpu_l1 *c);
/* Between kernels, with nothing in flight (l1d.carveout = driver): the
** cache holds `size` bytes from now on (rounded down to whole ways), with
** the sets of its configured geometry and as many ways as fit (none: no
** cache); every line is invalidated.  gpu_l1_size: the bytes it holds now. */
void gpu_l1_resize(gpu_l1 *c, uint32_t size);
uint32_t gpu_l1_size(const gpu_l1 *c);
/* Earliest cycle at which pop_done can return something or the miss queue's
** head is there (UINT64_MAX: none pending). */
uint64_t gpu_l1_next(const gpu_l1 *c);
/* The same without the miss queue: its own events (hits, fills). */
uint64_t gpu_l1_next_inside(const gpu_l1 *c);
/* When the miss queue's head is (or was) ready; UINT64_MAX when empty. */
uint64_t gpu_l1_miss_ready(const gpu_l1 *c);
bool gpu_l1_idle(const gpu_l1 *c);
const gpu_l1stats *gpu_l1_stats(const gpu_l1 *c);

/* The configurations of gpu/mem_options.def: the L1 data cache (l1d.*) and
** the constant cache (l1c.*). */
void gpu_l1_cfg_l1d(const tp_opts *o, gpu_l1cfg *cfg);
void gpu_l1_cfg_l1c(const tp_opts *o, gpu_l1cfg *cfg);

#endif
