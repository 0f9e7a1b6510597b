/*
** cache.h -- a set-associative tag array with LRU replacement.  Tags only:
** timing models keep time, not data.  Prefix mem_.
**
**   sets = size / (ways * line)     (at least 1 when size > 0; 0: no cache)
**   line address = addr - addr % line;  set = (addr / line) mod sets
**   (hash: set = fold(addr / line) mod sets, where fold XORs the line
**   number's successive groups of log2(sets) bits together -- power-of-two
**   strides then spread over the sets instead of piling into a few)
**
** A line is named by a slot (set * ways + way).  The caller decides the
** policy; this file only answers "is the line here", "which line would a
** new one replace", and keeps valid/dirty bits and recency:
**   mem_cache_find    slot of the line holding addr, or -1 (no LRU update)
**   mem_cache_touch   makes a slot the most recently used
**   mem_cache_victim  the slot a new line for addr would take: the lowest
**                     invalid way of the set, else the least recently used
**   mem_cache_insert  puts addr's line in a slot: valid, clean, most recent
**                     (the caller first looks at the victim's valid/dirty/tag)
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

typedef struct mem_cline {
    uint64_t tag;      /* line address of the key */
    uint64_t stamp;    /* recency: larger is more recent */
    bool valid, dirty;
} mem_cline;

typedef struct mem_cache {
    uint32_t sets, ways, line;
    mem_cline *l;      /* sets * ways */
    uint64_t clock;    /* stamp source */
    uint32_t ndirty;   /* valid dirty lines */
    bool hash;         /* XOR-folded set index (set by the owner after init) */
} mem_cache;

/* size 0 gives a cache with no sets: find always misses, nothing may be inserted. */
void mem_cache_init(mem_cache *c, uint64_t size, uint32_t ways, uint32_t line);
void mem_cache_free(mem_cache *c);

static inline uint64_t mem_cache_line_of(const mem_cache *c, uint64_t addr) { return addr - addr % c->line; }
static inline bool mem_cache_enabled(const mem_cache *c) { return c->sets != 0; }
static inline mem_cline *mem_cache_at(mem_cache *c, uint32_t slot) { return &c->l[slot]; }

int32_t mem_cache_find(const mem_cache *c, uint64_t addr);
void mem_cache_touch(mem_cache *c, uint32_t slot);
uint32_t mem_cache_victim(const mem_cache *c, uint64_t addr);
void mem_cache_insert(mem_cache *c, uint32_t slot, uint64_t addr);
void mem_cache_set_dirty(mem_cache *c, uint32_t slot, bool dirty);
void mem_cache_invalidate(mem_cache *c, uint32_t slot);
void mem_cache_invalidate_all(mem_cache *c);

#endif
