/*
** cache.h -- a set-associative tag array with LRU replacement.  Tags only:
** timing models keep time, not data.  Prefix mem_.
**
**   sets = size / (ways * line)     (at least 1 when size > 0; 0: no cache)
**   line address = addr - addr % line;  n = addr / line (the line number)
**   set = index(addr) mod sets, index by the owner's choice (`index`):
**     MEM_INDEX_LINEAR  n
**     MEM_INDEX_XOR     n's successive groups of log2(sets) bits XORed
**                       together: power-of-two strides spread over the sets
**     MEM_INDEX_FERMI   n XOR h, h = address bits 13, 14, 15, 17, 19 as
**                       bits 0..4: the Fermi L1D index Nugteren et al.
**                       measured on a GTX 480 ("A Detailed GPU Cache Model
**                       Based on Reuse Distance Theory", HPCA 2014), which
**                       GPGPU-Sim 4 uses for its GTX 480 L1 (`H`).  With
**                       128-byte lines and 32 sets that is line bits 0..4
**                       (address bits 7..11) XOR h; with 64 sets (48 KB)
**                       address bit 12 is the set's bit 5; other set counts
**                       take (n XOR h) mod sets.
**
** A line is named by a slot (set * ways + way).  The caller decides the
** policy; this file only answers "is the line here", "which line would a
** new one replace", and keeps valid/dirty bits, recency, and for sectored
** owners the sector masks of each line (bit i: sector i of the line; an
** owner without sectors may ignore them):
**   mem_cache_find    slot of the line holding addr, or -1 (no LRU update)
**   mem_cache_touch   makes a slot the most recently used
**   mem_cache_victim  the slot a new line for addr would take: the lowest
**                     invalid way of the set, else the least recently used
**                     way that is not reserved (pend != 0: sectors being
**                     fetched into it, allocate-on-miss); MEM_CACHE_NONE
**                     when every way of the set is reserved
**   mem_cache_insert  puts addr's line in a slot: valid, clean, most recent,
**                     no sector valid, dirty or pending (the caller first
**                     looks at the victim's valid/dirty/tag, then sets the
**                     new line's masks)
** Recency is a per-line stamp from a counter that every touch increments:
** deterministic, and exact LRU for any number of ways.
**
** The key is whatever address the caller indexes by: an L2 slice passes its
** slice-local address (gpu/addrmap.h) so that every set is used although
** the slice sees only its share of the address space.
*/
#ifndef MEM_CACHE_H
#define MEM_CACHE_H

#include "../base/tp.h"
#include "../base/fdiv.h"

typedef enum mem_index { MEM_INDEX_LINEAR, MEM_INDEX_XOR, MEM_INDEX_FERMI } mem_index;

#define MEM_CACHE_NONE UINT32_MAX

typedef struct mem_cline {
    uint64_t tag;      /* line address of the key */
    uint64_t stamp;    /* recency: larger is more recent */
    uint32_t sect;     /* the owner's: valid sectors */
    uint32_t dsect;    /* the owner's: dirty sectors */
    uint32_t pend;     /* the owner's: sectors being fetched into a reserved line (not a victim while non-zero) */
    bool valid, dirty;
} mem_cline;

typedef struct mem_cache {
    uint32_t sets, ways, line;
    mem_cline *l;      /* sets * ways */
    uint64_t *key;     /* sets * ways: each line's tag, UINT64_MAX once invalidated; a lookup
                       ** scans these (8 bytes a way, not a mem_cline) and checks valid on a match */
    tp_fdiv fline, fsets;   /* divisions by line and sets (mem_cache_set_of runs on every lookup) */
    uint8_t xbits;     /* MEM_INDEX_XOR: log2 of sets, rounded up */
    uint64_t clock;    /* stamp source */
    uint32_t ndirty;   /* valid dirty lines */
    uint8_t index;     /* mem_index (set by the owner after init; linear by default) */
} mem_cache;

/* size 0 gives a cache with no sets: find always misses, nothing may be inserted. */
void mem_cache_init(mem_cache *c, uint64_t size, uint32_t ways, uint32_t line);
void mem_cache_free(mem_cache *c);

static inline uint64_t mem_cache_line_of(const mem_cache *c, uint64_t addr) { return addr - tp_fdiv_r(&c->fline, addr); }
static inline bool mem_cache_enabled(const mem_cache *c) { return c->sets != 0; }
static inline mem_cline *mem_cache_at(mem_cache *c, uint32_t slot) { return &c->l[slot]; }
/* The set addr maps to (tests, statistics). */
uint32_t mem_cache_set_of(const mem_cache *c, uint64_t addr);

int32_t mem_cache_find(const mem_cache *c, uint64_t addr);
void mem_cache_touch(mem_cache *c, uint32_t slot);
uint32_t mem_cache_victim(const mem_cache *c, uint64_t addr);
void mem_cache_insert(mem_cache *c, uint32_t slot, uint64_t addr);
void mem_cache_set_dirty(mem_cache *c, uint32_t slot, bool dirty);
void mem_cache_invalidate(mem_cache *c, uint32_t slot);
void mem_cache_invalidate_all(mem_cache *c);

#endif
