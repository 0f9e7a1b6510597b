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
**
** Sectors.  Sectored caches (l1d.sectored, l2.sectored) keep 32-byte
** sectors of their lines valid one by one.  `sectors` names the sectors a
** request reads or writes: bit i is bytes [B + 32 i, B + 32 i + 32) of the
** 512-byte aligned block B holding addr, so that caches with different
** lines (up to 512 bytes) read the same mask; 0 means the whole line of
** whichever cache looks (senders that do not know, unsectored caches).
** Atomics: `ops` is the number of lanes' operations the request carries
** (0: one) and `ops_addr` the most of them on one address (0: one); the L2
** slice's atomic unit spends its time by them (gpu/l2.h).
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
    uint16_t sectors;       /* 32-byte sectors read or written (see above; 0: the whole line) */
    uint8_t ops, ops_addr;  /* atomics: lanes' operations, the most on one address (0: one) */
    uint64_t t_sent;        /* core cycle of its L1 access (its miss): mem.latency statistics */
    uint64_t t_l2, t_back;  /* memory-system time units (gpu/memsys.c): its L2 slice took it from the
                               interconnect; its reply entered the reply network */
    struct gpu_mreq *next;  /* link: free list, MSHR merge chains, queues that chain */
} gpu_mreq;

enum { GPU_SECTOR = 32, GPU_SECTOR_BLOCK = 512 };

/* The `sectors` mask of the bytes [addr, addr + bytes) (within one 512-byte block). */
static inline uint16_t gpu_sectors_of(uint64_t addr, uint32_t bytes)
{
    uint32_t a = (uint32_t)(addr % GPU_SECTOR_BLOCK) / GPU_SECTOR;
    uint32_t b = (uint32_t)((addr % GPU_SECTOR_BLOCK + (bytes ? bytes : 1) - 1) / GPU_SECTOR);
    if (b > 15) b = 15;
    return (uint16_t)(((2u << b) - 1) & ~((1u << a) - 1));
}

/* A `sectors` mask as sectors of the line at line_addr of `line` bytes
** (bit i: sector i of the line): every sector of the line when the mask is
** 0, names none of them, or the line is longer than a block. */
static inline uint32_t gpu_sectors_in_line(uint32_t sectors, uint64_t line_addr, uint32_t line)
{
    uint32_t n = line / GPU_SECTOR, all = n >= 32 ? ~0u : (1u << n) - 1;
    if (line > GPU_SECTOR_BLOCK) return all;
    uint32_t m = (sectors >> (uint32_t)(line_addr % GPU_SECTOR_BLOCK / GPU_SECTOR)) & all;
    return m ? m : all;
}

/* Sectors of the line at line_addr (bit i: sector i) as a `sectors` mask. */
static inline uint16_t gpu_sectors_of_line(uint32_t m, uint64_t line_addr)
{
    return (uint16_t)(m << (uint32_t)(line_addr % GPU_SECTOR_BLOCK / GPU_SECTOR));
}

typedef struct gpu_mreq_pool {
    gpu_mreq *free;
    void **chunks;
    uint32_t nchunks;
    uint64_t nfree;         /* requests on the free list */
    int64_t live;           /* requests handed out less those returned (to this pool: with
                               several pools, gpu_sm.pool, a pool's own count can go negative) */
} gpu_mreq_pool;

void gpu_mreq_pool_init(gpu_mreq_pool *p);
void gpu_mreq_pool_free(gpu_mreq_pool *p);
/* A zeroed request. */
gpu_mreq *gpu_mreq_get(gpu_mreq_pool *p);
void gpu_mreq_put(gpu_mreq_pool *p, gpu_mreq *r);
/* Moves up to n free requests of `from` to `to`; returns how many.  Both
** pools must be freed together (a pool frees the chunks it made). */
uint32_t gpu_mreq_pool_move(gpu_mreq_pool *from, gpu_mreq_pool *to, uint32_t n);

#endif
