/*
** warppool.h -- WarpPool (Kloosterman et al., MICRO 2015): inter-warp
** coalescing between the LD/ST unit and the L1 data cache; and, built from
** the same parts, the MRPB-style request prioritisation buffer it is compared
** with (Jia, Shaw and Martonosi, HPCA 2014).  Module prefix: gpu_wp_.
**
** The LD/ST unit's front ends warppool and mrpb (gpu/ldst_pool.c) hand the
** pool the memory instructions whose every active lane accesses the L1D
** (global or local space; loads, stores, atomics); shared memory,
** constants, parameters, textures, generic accesses that mix spaces and
** wmma.load/.store's multi-pass accesses keep the Fermi path.  (The other
** front ends, baseline and banked, have no pool: one instruction at a time,
** its line requests straight into the L1D.)
**
**   operand collector --gpu_wp_accept--> instruction queue (inst_queue
**       entries, one instruction per cycle; memory instructions wait here
**       *before* address generation, so the collector is free at once)
**   --> intra-warp coalescers (coalescers): an idle coalescer takes the
**       queue's head and turns it into one request per line, as the Fermi
**       coalescer does (gpu_coalesce_lanes: lines in the order of the lowest
**       lane touching each), each request with its warp instruction and its
**       thread mapping (the lanes whose access is in that line); it emits one
**       request per cycle
**   --> inter-warp queues (queues x tags): WarpPool puts line n in queue
**       n mod queues, MRPB the requests of warp slot w in queue w mod queues.
**       A queue takes at most one insertion per cycle (a second coalescer
**       aiming at it waits a cycle: insert_conflicts).  The insertion looks
**       the line up among the queue's tags: a load whose line is in a tag that
**       holds loads and fewer than 1 + merges requests joins that tag (a
**       merge); otherwise it takes a free tag; with no free tag the coalescer
**       waits (back-pressure: full_stalls).  Stores and atomics take a tag of
**       their own and never merge.  merges = 0 (MRPB) never merges.
**   --> selection logic: each cycle, of the tags inserted at least `latency`
**       cycles ago, one is sent to the L1D as one access for all its
**       requests (with a banked L1, up to l1d.banks tags to distinct banks,
**       minus the accesses the Fermi path made in this cycle).  A refused
**       access (reservation failure; a banked cache's busy miss port) keeps
**       its tag, which may still take merges, and ends the cycle's selection;
**       a tag refused for a reservation failure (no MSHR, merge slot or
**       miss-queue room) is passed over until a fill or a departure from the
**       miss queue (gpu_wp_unblock), so hits behind it go first.
**       Policies:
**         oldest            the tag whose first request came first;
**         cache-sensitive   the oldest tag holding a request of the
**                           prioritised warp: the oldest warp (dispatch order
**                           on the SM) with a request in an eligible tag, so
**                           one warp's lines go together and the others wait
**                           (less thrashing in a small L1); the oldest tag
**                           when that warp has none.  It also throttles
**                           admission: the pool takes a new instruction
**                           only while its instructions' lines not yet
**                           delivered (stores: sent) are fewer than
**                           cs_lines, so fewer warps' lines are live in
**                           the L1D at once;
**         auto (WarpPool)   oldest at the start of each launch; the first
**                           quantum is a sampling period of `sample` cycles
**                           (when shorter than a quantum), the next ones
**                           `quantum` cycles; at every
**                           quantum boundary (cycles from the launch's
**                           start) the L1D miss rate of the quantum just
**                           ended (misses / accesses, all kinds) picks the
**                           next quantum's policy: cache-sensitive above
**                           miss_threshold, oldest otherwise (a quantum
**                           without accesses keeps the policy);
**         drain (MRPB)      the oldest tag of the queue (the warp) the last
**                           sent tag came from, while it has one eligible;
**                           otherwise the oldest eligible tag (whose queue
**                           is drained next once it is sent).
**
** Completion.  An accepted load or atomic access becomes a flight: the list
** of (warp instruction, thread mapping) it serves; the L1D returns the
** access's request (tag GPU_WP_TAG | flight) through pop_done, and
** gpu_wp_done delivers the line to every request of the flight: the
** instruction's lanes_done gains the mapping's lanes, its deliveries count
** one per lane, its lines_left drops by one.  An instruction whose lines_left
** reaches 0 is finished (its registers are written at that cycle) -- so a
** warp or a line a merge forgot keeps its load from ever finishing, and a
** wrong mapping shows as lanes_done != active or deliveries != its active
** lanes (delivery_errors; asserted in debug builds).  A store is finished
** when its last line's access is accepted.  Finished instructions come out of
** gpu_wp_pop_finished, in order.
**
** Timing (exact; tests/unit/test_gpu_warppool.c): an instruction accepted
** at cycle t can be taken by an idle coalescer in cycle t, which emits its
** first request in t; that request's tag can be selected from t + latency on.
** Within a cycle, after the LD/ST unit's Fermi path: quantum boundaries
** (gpu_wp_quantum), then the coalescers (index order: take an instruction,
** emit a request), then the selection (gpu_wp_cycle).  A lone load
** hitting in the L1D thus reaches it `latency` cycles after the Fermi path
** would (the inter-warp coalescer's stage), and finishes l1d.latency later.
**
** Statistics (gpu_ldstkstats, warppool.* in the statistics: gpu/ldst_pool.c
** names the pool's, gpu/kstats.c the LD/ST unit's): the pool counts
** requests (at insertion), L1D accesses and merges (at acceptance),
** tag-cycles in use, full stalls, insertion conflicts, thread deliveries,
** delivery errors, policy switches and cache-sensitive quanta; the LD/ST
** unit counts the rest in every configuration.
*/
#ifndef GPU_WARPPOOL_H
#define GPU_WARPPOOL_H

#include "gpu.h"
#include "l1.h"
#include "mreq.h"

typedef struct gpu_memop gpu_memop;

/* The tag bit of the pool's L1D requests (the Fermi path's tags are pending-load slots below it). */
#define GPU_WP_TAG 0x80000000u

typedef enum gpu_wp_policy {
    GPU_WP_AUTO,       /* oldest or cache-sensitive, by the miss rate of each quantum */
    GPU_WP_OLDEST,
    GPU_WP_CACHE,      /* cache-sensitive: prioritise one warp */
    GPU_WP_DRAIN,      /* MRPB: drain one queue at a time */
} gpu_wp_policy;

typedef enum gpu_wp_key { GPU_WP_KEY_LINE, GPU_WP_KEY_WARP } gpu_wp_key;

typedef struct gpu_wpcfg {
    uint32_t inst_queue;       /* instructions waiting before address generation */
    uint32_t coalescers;       /* intra-warp coalescers, one request per cycle each */
    uint32_t queues, tags;     /* inter-warp queues, tags per queue */
    uint32_t merges;           /* requests a tag takes beyond its first (0: no merging) */
    uint32_t latency;          /* cycles from insertion to the earliest selection (>= 1) */
    uint8_t key;               /* gpu_wp_key: which queue a request goes to */
    uint8_t policy;            /* gpu_wp_policy */
    uint64_t quantum;          /* auto: cycles per quantum */
    double miss_threshold;     /* auto: miss rate above which the next quantum is cache-sensitive */
    uint64_t sample;           /* auto: the first quantum's length (0: quantum) */
    uint32_t cs_lines;         /* cache-sensitive mode: admit while fewer lines are outstanding (0: no limit) */
    /* store acknowledgements (the LD/ST unit's, gpu/ldst.h; NULL: none): each store request
    ** goes to store_prep before the L1D takes it, and with the L1D's answer to store_sent */
    void (*store_prep)(void *arg, gpu_mreq *r, uint16_t warp);
    void (*store_sent)(void *arg, const gpu_mreq *r, gpu_l1res res);
    void *arg;
} gpu_wpcfg;

typedef struct gpu_wp gpu_wp;

/* The pool's configuration from the options: WarpPool's (warppool.*) and
** MRPB's (mrpb.*: one coalescer, an instruction queue of 1, queues by
** warp, no merging, drain; warppool.latency). */
void gpu_wp_cfg_warppool(const tp_opts *o, gpu_wpcfg *c);
void gpu_wp_cfg_mrpb(const tp_opts *o, gpu_wpcfg *c);
/* The one the switches choose: WarpPool's with warppool=1, MRPB's with
** mrpb=1 and warppool=0; false when neither is on. */
bool gpu_wp_cfg_from(const tp_opts *o, gpu_wpcfg *c);

/* A pool in front of l1 (the L1D of SM sm, whose requests carry src),
** taking requests from pool and counting into st (which the caller zeroes
** per launch). */
gpu_wp *gpu_wp_new(const gpu_wpcfg *c, gpu_l1 *l1, const gpu_l1cfg *l1cfg, gpu_mreq_pool *pool, uint16_t sm,
                   uint16_t src, gpu_ldstkstats *st);
void gpu_wp_free(gpu_wp *p);

/* A launch starts at cycle now: policy, quantum and accounting restart. */
void gpu_wp_begin(gpu_wp *p, uint64_t now);

/* Whether the instruction queue takes an instruction in cycle now (room,
** none taken yet in this cycle, and in cache-sensitive mode fewer than
** cs_lines lines outstanding). */
bool gpu_wp_can_accept(const gpu_wp *p, uint64_t now);
/* m (global or local, every active lane; addresses as the L1D sees them)
** enters the instruction queue; age orders its warp for the cache-sensitive
** policy (smaller: older).  Sets m's lines_left, lanes_done, deliveries. */
void gpu_wp_accept(gpu_wp *p, gpu_memop *m, uint64_t age, uint64_t now);

/* The start of the pool's part of cycle now: the quantum boundaries up to
** now (auto: the policy of the next quantum, from the L1D's accesses and
** misses counted since the previous boundary).  Returns whether the policy
** changed. */
bool gpu_wp_quantum(gpu_wp *p, uint64_t now);
/* The rest of cycle now: coalescers, then selection (at most `ports`
** accesses, to banks not in banks_used, which other units took in this
** cycle).  Returns the L1D accesses made; sets *changed if anything moved
** and *stalled if some request had to wait (a coalescer for a tag or a
** queue, a tag for the L1D). */
uint32_t gpu_wp_cycle(gpu_wp *p, uint64_t now, uint32_t ports, uint64_t banks_used, bool *changed, bool *stalled);
/* The L1D returned r (r->tag has GPU_WP_TAG) at cycle now: its line reaches
** every request of its flight.  r goes back to the request pool. */
void gpu_wp_done(gpu_wp *p, gpu_mreq *r, uint64_t now);
/* A finished instruction (NULL: none); the caller writes it back and frees it. */
gpu_memop *gpu_wp_pop_finished(gpu_wp *p);

/* Something below changed (a fill, a departure from the miss queue): a
** refused access may now be accepted. */
void gpu_wp_unblock(gpu_wp *p);
/* The earliest cycle after now at which the pool can change state by
** itself, assuming gpu_wp_cycle(now) changed nothing (UINT64_MAX: it waits
** for a fill or a departure, or is empty). */
uint64_t gpu_wp_next(const gpu_wp *p, uint64_t now);
/* k cycles were skipped with nothing happening: counts what the last cycle
** counted per cycle (a blocked access's reservation failures, coalescers
** waiting for tags) k more times. */
void gpu_wp_account_skip(gpu_wp *p, uint64_t k);
/* The end of a launch at cycle now: the quantum boundaries up to now and
** the tag occupancy up to its end. */
void gpu_wp_flush(gpu_wp *p, uint64_t now);
bool gpu_wp_idle(const gpu_wp *p);
/* After a fault: empties the pool.  Returns its instructions one at a time
** (NULL when none is left) for the caller to free; then the pool is empty. */
gpu_memop *gpu_wp_drop(gpu_wp *p);

/* Reservation failures the pool did not ask the L1D again for (it was
** blocked and nothing had changed): they count as the L1D's. */
uint64_t gpu_wp_resfail_skipped(const gpu_wp *p);

#endif
