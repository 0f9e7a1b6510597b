/*
** ldst.h -- the LD/ST unit of an SM and the interface of its front ends.
** Module prefix: gpu_ldst_.  Only gpu/ includes this (the SM calls the
** unit through the gpu_ldst_* functions of internal.h).
**
** The unit (gpu/ldst.c) sits between the operand collectors and the SM's L1
** caches and keeps what every front end shares: the memory-instruction
** records (gpu_memop), the caches' side (memory replies filled into the
** L1s, the L1s' finished requests handed to the front end, L1 misses sent
** to the memory system, one per cycle), the L1D's ports within a cycle,
** local-memory interleaving, the write-back of finished instructions, and
** the LD/ST part of warppool.*, which every configuration reports (memory
** instructions, line requests, L1D accesses and the cycles with one,
** refused instructions, stall cycles; gpu/kstats.def declares them).  Front
** ends count the SM's own statistics (gpu_sm: shared.*, l1c.*,
** mem_requests, the L1D reservation failures not asked again) where they
** are.
**
** A front end turns the memory instructions the unit accepts into L1
** accesses and finishes them.  One per SM, chosen by name with
** -o ldst.frontend=NAME (or, with ldst.frontend=auto, by the older switches
** warppool=1, mrpb=1, l1d.banks=N); gpu/ldst.def lists them:
**   baseline   the Fermi path (gpu/ldst_fermi.c): one instruction at a time,
**              shared memory, constants, textures, one L1D line per cycle;
**   banked     the same path sending up to l1d.banks lines per cycle to
**              distinct banks (gpu/ldst_fermi.c);
**   warppool   WarpPool's pool (gpu/warppool.h) for global and local
**              accesses, a banked path for the rest (gpu/ldst_pool.c);
**   mrpb       the pool configured as MRPB (gpu/ldst_pool.c).
** Each keeps its own state (a struct that begins with gpu_ldst_fe) and
** registers its own statistics.  A front end may be built on another
** through this same interface (the pool front ends hand every instruction
** the pool does not take to a `banked` front end of their own).
**
** Adding one: a file defining `const gpu_ldst_frontend gpu_ldst_fe_NAME`
** and a line GPU_LDST_FE(NAME, "doc") in gpu/ldst.def.
**
** The order of an SM's cycle (internal.h), as the unit sees it:
**   gpu_ldst_replies   memory replies fill the L1s (a fill of the L1D first
**                      calls unblock); every request the L1s finish goes to
**                      done;
**   (collectors)       gpu_ldst_accept: accept, or a refusal counted;
**   gpu_ldst_cycle     tick;
**   gpu_ldst_send      one L1 miss to the memory system (an L1D departure
**                      calls depart, or unblock without it).
** Then, when the SM changed nothing, it sleeps until the earliest of the
** front end's next, the L1s' next events and the rest of the SM's.
*/
#ifndef GPU_LDST_H
#define GPU_LDST_H

#include "internal.h"

/* Which L1 a request is for (gpu_mreq.src). */
enum { GPU_LDST_SRC_L1D = 0, GPU_LDST_SRC_L1C = 1 };

/* The constant cache's requests made by the indexed constant cache
** (gpu_ldst.idc) carry tags from here up; the front end's are below. */
#define GPU_IDC_TAG 0x40000000u

/* The beginning of every front end's state. */
typedef struct gpu_ldst_fe {
    const gpu_ldst_frontend *kind;
    gpu_ldst *u;               /* the unit it belongs to */
} gpu_ldst_fe;

/* A front end.  Every per-SM hook gets the state create returned; the unit
** calls them in the SM's order (above) and sets nothing else. */
struct gpu_ldst_frontend {
    const char *name;          /* ldst.frontend=NAME */
    /* under ldst.frontend=auto: whether the older switches choose it (gpu/ldst.def's
    ** order decides between several; NULL: always) */
    bool (*chosen)(const tp_opts *o);
    /* ---- per SM ---- */
    /* a new state for unit u, from the options, its gpu_ldst_fe (kind, u) filled in */
    gpu_ldst_fe *(*create)(gpu_ldst *u, const tp_opts *o);
    void (*destroy)(gpu_ldst_fe *fe);
    /* a launch starts at cycle now (its counters restart) */
    void (*begin)(gpu_ldst_fe *fe, uint64_t now);
    /* m (its operands read) offered in cycle now: takes it, or returns false
    ** after gpu_ldst_refused (the collector offers it again next cycle) */
    bool (*accept)(gpu_ldst_fe *fe, gpu_memop *m, uint64_t now);
    /* its part of cycle now; sets gpu_ldst_moved when anything moved */
    void (*tick)(gpu_ldst_fe *fe, uint64_t now);
    /* an L1 finished r, one of its requests (r->src says which), at cycle now: r is its again */
    void (*done)(gpu_ldst_fe *fe, gpu_mreq *r, uint64_t now);
    /* a fill or a departure from the L1D's miss queue: a refused L1D access may now be taken */
    void (*unblock)(gpu_ldst_fe *fe);
    /* a departure from the L1D's miss queue, when it needs telling apart from
    ** a fill (NULL: unblock) */
    void (*depart)(gpu_ldst_fe *fe);
    /* the earliest cycle after now at which it may change state by itself, if
    ** tick(now) moved nothing (UINT64_MAX: it waits for done, unblock or accept) */
    uint64_t (*next)(const gpu_ldst_fe *fe, uint64_t now);
    /* the earliest cycle after now at which accept may take an instruction,
    ** if tick(now) moved nothing (UINT64_MAX: not before done, unblock or its
    ** own next); the cycles between repeat the refusal of cycle now, which
    ** skip must then count (NULL: now + 1, an offer every cycle) */
    uint64_t (*accept_next)(const gpu_ldst_fe *fe, uint64_t now);
    bool (*idle)(const gpu_ldst_fe *fe);
    /* k cycles after the last tick were skipped: what it counts per cycle repeats */
    void (*skip)(gpu_ldst_fe *fe, uint64_t k);
    /* after a fault: every instruction it holds back to gpu_memop_put; empty after */
    void (*abort)(gpu_ldst_fe *fe);
    /* the launch ends at cycle now: what it adds into ks itself (its counters
    ** of gpu/kstats.def's FE() rows are summed from `counters`) */
    void (*end)(gpu_ldst_fe *fe, gpu_kstats *ks, uint64_t now);
    /* its own counters this launch (restarted by begin), or NULL: none */
    const gpu_ldstkstats *(*counters)(const gpu_ldst_fe *fe);
    /* ---- per process ---- */
    /* its statistics: rows of gpu/kstats.def's format (gpu/kstats_rows.h) on
    ** gpu_kstats members, registered whichever front end runs (0 when another
    ** one does) where kstats.def says GPU_KSTAT_FRONTENDS; a front end with
    ** counters of its own counts them in a gpu_ldstkstats (gpu/gpu.h), FE() */
    const tp_stat_def *stats;
    uint32_t nstats;
};

/* Every front end's descriptor, by name. */
#define GPU_LDST_FE(name, doc) extern const gpu_ldst_frontend gpu_ldst_fe_##name;
#include "ldst.def"
#undef GPU_LDST_FE

/* The LD/ST unit of one SM. */
struct gpu_ldst {
    gpu_sm *sm;
    const gpu_cfg *c;
    gpu_l1 *l1d, *l1c;         /* the SM's caches */
    const mem_queue *missq[2]; /* their miss queues (gpu_l1_missq): [0] the L1D's, [1] the L1C's */
    const mem_queue *hits[2], *fills[2];   /* ... and the queues gpu_l1_pop_done takes from */
    gpu_mreq_pool *pool;       /* the GPU's requests */
    gpu_ldst_fe *fe;
    gpu_ldst_fe *idc;          /* ldst.const_path = idc: the indexed constant cache beside it (NULL: none) */
    gpu_memop *mop_free;       /* records of memory instructions, for reuse */
    uint32_t miss_rr;          /* which L1 may send to the memory system first */
    uint64_t l1d_at;           /* the last cycle + 1 with an L1D access; in that cycle: */
    uint32_t l1d_used;         /* ... L1D accesses made */
    uint64_t l1d_banks_used;   /* ... a banked L1D: a bit per bank accessed */
    uint64_t refused_at;       /* the last cycle + 1 in which a ready instruction was refused */
    uint64_t stall_at;         /* the last cycle + 1 counted as an LD/ST stall */
    uint64_t stall_from;       /* a front end's promise: it stalls in this cycle and on until it ticks
                               ** (its next request refused ahead), which a skip counts (0: none) */
    uint64_t accept_from;      /* a front end's promise: accept refuses before this cycle (0: none; ask it) */
    gpu_ldstkstats st;         /* the unit's part of warppool.*, this launch */
};

/* ---- what the unit does for its front ends ---- */

/* The front end of the options (ldst.frontend; auto: the older switches). */
const gpu_ldst_frontend *gpu_ldst_frontend_of(const tp_opts *o);

/* m is done with: its registers (if any) are written at cycle t; its record is freed. */
void gpu_ldst_finish(gpu_ldst *u, gpu_memop *m, uint64_t t);
/* Store acknowledgements (ldst.store_ack).  A front end gives each store
** request it makes for warp slot `warp` to gpu_ldst_store_prep before
** handing it to the L1D, and the L1D's answer to gpu_ldst_store_sent after:
** a store the L1D sent on (GPU_L1_SENT) is counted against its warp until
** the L2's ack comes back (gpu_ldst_replies hands it to the SM). */
static inline void gpu_ldst_store_prep(const gpu_ldst *u, gpu_mreq *r, uint16_t warp)
{
    r->warp = warp;
    r->want_ack = u->c->store_ack;
}
void gpu_ldst_store_sent(gpu_ldst *u, const gpu_mreq *r, gpu_l1res res);
/* The address lane `lane` of warp slot `warp` reads for local-memory offset off. */
uint64_t gpu_ldst_local_addr(const gpu_ldst *u, uint16_t warp, int lane, uint64_t off);

/* Something moved: the SM ticks again next cycle. */
static inline void gpu_ldst_moved(gpu_ldst *u) { u->sm->changed = true; }

/* The dispatch order of warp slot w on the SM (smaller: older). */
static inline uint64_t gpu_ldst_warp_age(const gpu_ldst *u, uint16_t w) { return u->sm->warps[w].age; }

/* Cycle now counts as an LD/ST stall cycle (once). */
static inline void gpu_ldst_stall(gpu_ldst *u, uint64_t now)
{
    if (u->stall_at != now + 1) {
        u->stall_at = now + 1;
        u->st.ldst_stall_cycles++;
    }
}
/* A ready memory instruction was refused in cycle now (counted once; a stall too). */
static inline void gpu_ldst_refused(gpu_ldst *u, uint64_t now)
{
    if (u->refused_at != now + 1) {
        u->refused_at = now + 1;
        u->st.inst_queue_full++;
        gpu_ldst_stall(u, now);
    }
}

/* The indexed constant cache (ldst.const_path = idc): an instance of the
** Fermi path that only takes ld.const (ldst_fermi.c says how it differs). */
gpu_ldst_fe *gpu_ldst_idc_create(gpu_ldst *u);
/* Whether m goes to the indexed constant cache rather than the front end. */
static inline bool gpu_ldst_idc_takes(const gpu_ldst *u, const gpu_memop *m)
{
    const exec_sinfo *si = m->si;
    return u->idc && si->unit == EXEC_U_MEM && si->space == PTX_SP_CONST && (si->flags & EXEC_SI_LOAD) &&
           !(si->flags & EXEC_SI_ATOMIC);
}
/* The earliest cycle after now at which the indexed constant cache may take an instruction. */
uint64_t gpu_ldst_idc_accept_next(const gpu_sm *sm, uint64_t now);

/* gpu_ldst_accept with its first refusal in line: before accept_from the
** front end would refuse (a collector offers its instruction in every
** cycle it ticks, and most offers find the unit busy).  An ld.const goes
** to the indexed constant cache where there is one (no refusal counted). */
static inline bool gpu_ldst_offer(gpu_sm *sm, gpu_memop *m, uint64_t now)
{
    gpu_ldst *u = sm->ldst;
    if (gpu_ldst_idc_takes(u, m)) return u->idc->kind->accept(u->idc, m, now);
    if (now < u->accept_from) {
        gpu_ldst_refused(u, now);
        return false;
    }
    return gpu_ldst_accept(sm, m, now);
}

/* The L1D's ports in cycle now: the accesses made so far, and (banked) the banks they took. */
static inline uint32_t gpu_ldst_l1d_used(const gpu_ldst *u, uint64_t now) { return u->l1d_at == now + 1 ? u->l1d_used : 0; }
static inline uint64_t gpu_ldst_l1d_banks(const gpu_ldst *u, uint64_t now)
{
    return u->l1d_at == now + 1 ? u->l1d_banks_used : 0;
}
/* n more L1D accesses were made in cycle now, to the banks `banks` (counts the cycle once). */
static inline void gpu_ldst_l1d_note(gpu_ldst *u, uint64_t now, uint32_t n, uint64_t banks)
{
    if (u->l1d_at != now + 1) {
        u->l1d_at = now + 1;
        u->l1d_used = 0;
        u->l1d_banks_used = 0;
        u->st.l1_access_cycles++;
    }
    u->l1d_used += n;
    u->l1d_banks_used |= banks;
}

#endif
