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
**   mem_mshr_take_at removes the k-th waiting request, keeping the others in
**                   order (a sectored cache releases a request once its own
**                   sectors are there, which may be before older ones')
**   mem_mshr_release frees the entry
** Each entry also carries a few flag bits and words for its owner's use
** (whether the fill must allocate or dirty the line, and for a sectored
** cache the sectors asked for below, arrived and still to come), and each
** waiting request a word (a sectored cache: the sectors it waits for).
** find looks the line up in a small hash table of the valid entries.
*/
#ifndef MEM_MSHR_H
#define MEM_MSHR_H

#include "../base/tp.h"

typedef struct mem_mshr_entry {
    uint64_t addr;        /* line address */
    uint32_t first, n;    /* waiting items are items[first, n) of this entry's slots */
    uint32_t flags;       /* the owner's */
    uint32_t fetch, got;  /* the owner's (sectored caches: sectors asked for below, sectors arrived) */
    uint32_t out;         /* the owner's (requests sent below and not answered yet) */
    uint32_t mark;        /* the owner's (sectored caches: sectors its stores and atomics write) */
    bool valid;
} mem_mshr_entry;

typedef struct mem_mshr {
    uint32_t entries, merge, used;
    mem_mshr_entry *e;
    uint32_t *slot;       /* a hash table of the valid entries by line address (mshr.c) */
    uint32_t hmask;       /* its size - 1 */
    bool dup;             /* a line was allocated twice: find scans the entries instead */
    void **items;         /* entries * merge */
    uint32_t *words;      /* entries * merge: each item's word */
    uint64_t *inuse;      /* bit i: entry i is valid (alloc takes the lowest clear bit) */
} mem_mshr;

void mem_mshr_init(mem_mshr *m, uint32_t entries, uint32_t merge);
void mem_mshr_free(mem_mshr *m);

int32_t mem_mshr_find(const mem_mshr *m, uint64_t addr);
static inline bool mem_mshr_full(const mem_mshr *m) { return m->used == m->entries; }
uint32_t mem_mshr_alloc(mem_mshr *m, uint64_t addr);
static inline mem_mshr_entry *mem_mshr_at(mem_mshr *m, uint32_t i) { return &m->e[i]; }
/* Requests that joined entry i so far (taken ones included): the merge limit applies to it. */
static inline bool mem_mshr_can_add(const mem_mshr *m, uint32_t i) { return m->e[i].n < m->merge; }
static inline void mem_mshr_add_w(mem_mshr *m, uint32_t i, void *p, uint32_t word)
{
    TP_ASSERT(m->e[i].valid && m->e[i].n < m->merge);
    size_t k = (size_t)i * m->merge + m->e[i].n++;
    m->items[k] = p;
    m->words[k] = word;
}
static inline void mem_mshr_add(mem_mshr *m, uint32_t i, void *p) { mem_mshr_add_w(m, i, p, 0); }
/* Waiting items not taken yet. */
static inline uint32_t mem_mshr_waiting(const mem_mshr *m, uint32_t i) { return m->e[i].n - m->e[i].first; }
static inline void *mem_mshr_take(mem_mshr *m, uint32_t i)
{
    TP_ASSERT(m->e[i].first < m->e[i].n);
    return m->items[(size_t)i * m->merge + m->e[i].first++];
}
/* The k-th waiting item of entry i (0: the oldest not taken) and its word. */
static inline void *mem_mshr_item(const mem_mshr *m, uint32_t i, uint32_t k)
{
    return m->items[(size_t)i * m->merge + m->e[i].first + k];
}
static inline uint32_t mem_mshr_word(const mem_mshr *m, uint32_t i, uint32_t k)
{
    return m->words[(size_t)i * m->merge + m->e[i].first + k];
}
void *mem_mshr_take_at(mem_mshr *m, uint32_t i, uint32_t k);
void mem_mshr_release(mem_mshr *m, uint32_t i);

#endif
