/*
** mreq.h -- a memory request as it travels below the SM's load/store unit:
** from an L1 cache's miss queue through the interconnect to an L2 slice, on
** to DRAM and back.  Module prefix: gpu_.
**
** Requests carry no data: the functional model (exec/) has already executed
** every access when the timing model sees it, so the memory system only
** keeps time (tags, queues, banks, buses).  A request is for one line of the
** cache that sent it (addr aligned to that line; bytes <= the line), except
** stores and atomics, which name the bytes they write.
**
** Ownership: whoever holds a request pointer owns it; a unit that accepts a
** request keeps it until it hands it on.  A load or atomic comes back to its
** SM as the same struct, with is_reply set, so the sender finds its own
** bookkeeping through `tag`.  Stores are not answered (write-through, fire
** and forget) unless want_ack is set.  Requests come from a pool
** (gpu_mreq_pool): no allocation per request in steady state.
*/
#ifndef GPU_MREQ_H
#define GPU_MREQ_H

#include "../base/tp.h"

typedef enum gpu_mkind {
    GPU_MR_LOAD,      /* read a line (or part of one) */
    GPU_MR_STORE,     /* write bytes (write-through from an L1, or a write-back of a dirty line) */
    GPU_MR_ATOMIC,    /* read-modify-write performed at the L2 (ROP); answered */
} gpu_mkind;

/* Which kind of access made the request (statistics and cache policies). */
typedef enum gpu_mspace {
    GPU_MS_GLOBAL, GPU_MS_LOCAL, GPU_MS_CONST, GPU_MS_TEX, GPU_MS_INST, GPU_MS_COUNT
} gpu_mspace;

typedef struct gpu_mreq {
    uint64_t addr;          /* device address: the line (loads) or the first byte written */
    uint32_t bytes;         /* bytes read or written (packet size: writes carry them as data) */
    uint8_t kind;           /* gpu_mkind */
    uint8_t space;          /* gpu_mspace */
    uint8_t is_reply;       /* set by the memory system on the way back */
    uint8_t want_ack;       /* stores: answer when performed at the L2 */
    uint16_t sm;            /* the SM that sent it (where the reply goes) */
    uint16_t src;           /* which of the SM's caches sent it (the SM's own numbering) */
    uint16_t warp;          /* the warp slot whose instruction made it (a store's ack finds its warp) */
    uint32_t tag;           /* the sender's cookie (e.g. its MSHR or pending-load slot) */
    uint64_t t_sent;        /* core cycle it left the SM (latency statistics) */
    struct gpu_mreq *next;  /* link: free list, MSHR merge chains, queues that chain */
} gpu_mreq;

typedef struct gpu_mreq_pool {
    gpu_mreq *free;
    void **chunks;
    uint32_t nchunks;
    uint64_t live;          /* requests handed out and not returned */
} gpu_mreq_pool;

void gpu_mreq_pool_init(gpu_mreq_pool *p);
void gpu_mreq_pool_free(gpu_mreq_pool *p);
/* A zeroed request. */
gpu_mreq *gpu_mreq_get(gpu_mreq_pool *p);
void gpu_mreq_put(gpu_mreq_pool *p, gpu_mreq *r);

#endif
