/*
** mshr.h -- a table of miss status holding registers with a merge limit.
** Prefix mem_.
**
** An entry stands for one line being fetched and holds the requests waiting
** for it: up to `merge` of them, the first miss included.  Items are opaque
** pointers kept in arrival order; all storage is allocated at init
** (entries * merge slots), so nothing is allocated per miss.
**
**   mem_mshr_find   the entry fetching line `addr`, or -1
**   mem_mshr_alloc  a free entry for a line (the table must not be full)
**   mem_mshr_add    appends a waiting request (mem_mshr_can_add first)
**   mem_mshr_take   removes the oldest waiting request (fills release them
**                   in arrival order, possibly over several cycles)
**   mem_mshr_release frees the entry
** Each entry also carries a few flag bits and a word for its owner's use
** (which space it fetches for, whether the fill must allocate or dirty the
** line...).  find is a linear search: tables are small (tens of entries).
*/
#ifndef MEM_MSHR_H
#define MEM_MSHR_H

#include "../base/tp.h"

typedef struct mem_mshr_entry {
    uint64_t addr;        /* line address */
    uint32_t first, n;    /* waiting items are items[first, n) of this entry's slots */
    uint32_t flags;       /* the owner's */
    bool valid;
} mem_mshr_entry;

typedef struct mem_mshr {
    uint32_t entries, merge, used;
    mem_mshr_entry *e;
    void **items;         /* entries * merge */
} mem_mshr;

void mem_mshr_init(mem_mshr *m, uint32_t entries, uint32_t merge);
void mem_mshr_free(mem_mshr *m);

int32_t mem_mshr_find(const mem_mshr *m, uint64_t addr);
static inline bool mem_mshr_full(const mem_mshr *m) { return m->used == m->entries; }
uint32_t mem_mshr_alloc(mem_mshr *m, uint64_t addr);
static inline mem_mshr_entry *mem_mshr_at(mem_mshr *m, uint32_t i) { return &m->e[i]; }
/* Requests that joined entry i so far (taken ones included): the merge limit applies to it. */
static inline bool mem_mshr_can_add(const mem_mshr *m, uint32_t i) { return m->e[i].n < m->merge; }
static inline void mem_mshr_add(mem_mshr *m, uint32_t i, void *p)
{
    TP_ASSERT(m->e[i].valid && m->e[i].n < m->merge);
    m->items[(size_t)i * m->merge + m->e[i].n++] = p;
}
/* Waiting items not taken yet. */
static inline uint32_t mem_mshr_waiting(const mem_mshr *m, uint32_t i) { return m->e[i].n - m->e[i].first; }
static inline void *mem_mshr_take(mem_mshr *m, uint32_t i)
{
    TP_ASSERT(m->e[i].first < m->e[i].n);
    return m->items[(size_t)i * m->merge + m->e[i].first++];
}
void mem_mshr_release(mem_mshr *m, uint32_t i);

#endif
