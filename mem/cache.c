/* cache.c -- a set-associative tag array with LRU (see cache.h). */
#include "cache.h"
#include <stdlib.h>

void mem_cache_init(mem_cache *c, uint64_t size, uint32_t ways, uint32_t line)
{
    memset(c, 0, sizeof *c);
    c->ways = ways ? ways : 1;
    c->line = line ? line : 1;
    tp_fdiv_init(&c->fline, c->line);
    tp_fdiv_init(&c->fsets, 1);
    if (size == 0) return;
    uint64_t sets = size / ((uint64_t)c->ways * c->line);
    c->sets = sets ? (uint32_t)sets : 1;
    tp_fdiv_init(&c->fsets, c->sets);
    while ((1u << c->xbits) < c->sets) c->xbits++;
    c->l = tp_calloc((size_t)c->sets * c->ways, sizeof *c->l);
    c->key = tp_malloc((size_t)c->sets * c->ways * sizeof *c->key);
    for (size_t i = 0; i < (size_t)c->sets * c->ways; i++) c->key[i] = UINT64_MAX;
}

void mem_cache_free(mem_cache *c)
{
    free(c->l);
    free(c->key);
    c->l = NULL;
    c->key = NULL;
    c->sets = 0;
}

static inline uint32_t set_of(const mem_cache *c, uint64_t addr)
{
    if (c->sets <= 1) return 0;
    uint64_t n = tp_fdiv_q(&c->fline, addr);
    switch (c->index) {
    case MEM_INDEX_XOR: {
        unsigned b = c->xbits;
        uint64_t f = 0;
        for (uint64_t x = n; x; x >>= b) f ^= x & ((1ull << b) - 1);
        n = f;
        break;
    }
    case MEM_INDEX_FERMI: {
        uint64_t h = (addr >> 13 & 7) | (addr >> 17 & 1) << 3 | (addr >> 19 & 1) << 4;
        n ^= h;
        break;
    }
    default: break;
    }
    return (uint32_t)tp_fdiv_r(&c->fsets, n);
}

uint32_t mem_cache_set_of(const mem_cache *c, uint64_t addr) { return set_of(c, addr); }

static inline uint32_t set_base(const mem_cache *c, uint64_t addr) { return set_of(c, addr) * c->ways; }

int32_t mem_cache_find(const mem_cache *c, uint64_t addr)
{
    if (!c->sets) return -1;
    uint64_t tag = mem_cache_line_of(c, addr);
    uint32_t b = set_base(c, addr);
    const uint64_t *k = &c->key[b];
    for (uint32_t w = 0; w < c->ways; w++)
        if (k[w] == tag && c->l[b + w].valid) return (int32_t)(b + w);
    return -1;
}

void mem_cache_touch(mem_cache *c, uint32_t slot) { c->l[slot].stamp = ++c->clock; }

uint32_t mem_cache_victim(const mem_cache *c, uint64_t addr)
{
    TP_ASSERT(c->sets);
    uint32_t b = set_base(c, addr), v = MEM_CACHE_NONE;
    const mem_cline *l = &c->l[b];
    uint64_t vs = 0;   /* l[v - b].stamp, kept */
    for (uint32_t w = 0; w < c->ways; w++) {
        if (!l[w].valid) return b + w;
        if (l[w].pend) continue;
        if (v == MEM_CACHE_NONE || l[w].stamp < vs) {
            v = b + w;
            vs = l[w].stamp;
        }
    }
    return v;
}

void mem_cache_insert(mem_cache *c, uint32_t slot, uint64_t addr)
{
    mem_cline *l = &c->l[slot];
    TP_ASSERT(slot / c->ways == set_base(c, addr) / c->ways && !(l->valid && l->pend));
    if (l->valid && l->dirty) c->ndirty--;
    l->tag = mem_cache_line_of(c, addr);
    c->key[slot] = l->tag;
    l->valid = true;
    l->dirty = false;
    l->sect = l->dsect = l->pend = 0;
    l->stamp = ++c->clock;
}

void mem_cache_set_dirty(mem_cache *c, uint32_t slot, bool dirty)
{
    mem_cline *l = &c->l[slot];
    TP_ASSERT(l->valid);
    if (l->dirty != dirty) c->ndirty += dirty ? 1u : (uint32_t)-1;
    l->dirty = dirty;
}

void mem_cache_invalidate(mem_cache *c, uint32_t slot)
{
    mem_cline *l = &c->l[slot];
    if (l->valid && l->dirty) c->ndirty--;
    l->valid = l->dirty = false;
    l->sect = l->dsect = l->pend = 0;
    c->key[slot] = UINT64_MAX;
}

void mem_cache_invalidate_all(mem_cache *c)
{
    for (uint32_t i = 0; i < c->sets * c->ways; i++) mem_cache_invalidate(c, i);
    c->ndirty = 0;
}
