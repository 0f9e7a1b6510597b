/* mshr.c -- miss status holding registers with a merge limit (see mshr.h). */
#include "mshr.h"
#include <stdlib.h>

/* The hash table: open addressing with linear probing over a power of two
** of at least twice the entries; a slot holds entry index + 1 (0: empty).
** A line address is in it at most once (the owners allocate only after a
** find that failed); should one be allocated twice, `dup` turns the table
** off and find scans the entries in index order, as it always did. */
static inline uint32_t home(const mem_mshr *m, uint64_t addr)
{
    return (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 32) & m->hmask;
}

void mem_mshr_init(mem_mshr *m, uint32_t entries, uint32_t merge)
{
    memset(m, 0, sizeof *m);
    m->entries = entries ? entries : 1;
    m->merge = merge ? merge : 1;
    m->e = tp_calloc(m->entries, sizeof *m->e);
    uint32_t h = 4;
    while (h < 2 * m->entries) h *= 2;
    m->hmask = h - 1;
    m->slot = tp_calloc(h, sizeof *m->slot);
    m->items = tp_calloc((size_t)m->entries * m->merge, sizeof *m->items);
    m->words = tp_calloc((size_t)m->entries * m->merge, sizeof *m->words);
    m->inuse = tp_calloc((m->entries + 63) / 64, sizeof *m->inuse);
}

void mem_mshr_free(mem_mshr *m)
{
    free(m->e);
    free(m->slot);
    free(m->items);
    free(m->words);
    free(m->inuse);
    m->e = NULL;
    m->slot = NULL;
    m->items = NULL;
    m->words = NULL;
    m->inuse = NULL;
}

int32_t mem_mshr_find(const mem_mshr *m, uint64_t addr)
{
    if (!m->used) return -1;
    if (m->dup) {
        for (uint32_t i = 0; i < m->entries; i++)
            if (m->e[i].valid && m->e[i].addr == addr) return (int32_t)i;
        return -1;
    }
    for (uint32_t h = home(m, addr);; h = (h + 1) & m->hmask) {
        uint32_t s = m->slot[h];
        if (!s) return -1;
        if (m->e[s - 1].addr == addr) return (int32_t)(s - 1);
    }
}

uint32_t mem_mshr_alloc(mem_mshr *m, uint64_t addr)
{
    TP_ASSERT(m->used < m->entries);
    for (uint32_t w = 0; w * 64 < m->entries; w++) {   /* the lowest free entry */
        if (!~m->inuse[w]) continue;
        uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(~m->inuse[w]);
        if (i >= m->entries) break;
        mem_mshr_entry *e = &m->e[i];
        TP_ASSERT(!e->valid);
        m->inuse[w] |= 1ull << (i % 64);
        if (!m->dup) {
            uint32_t h = home(m, addr);
            for (; m->slot[h]; h = (h + 1) & m->hmask)
                if (m->e[m->slot[h] - 1].addr == addr) m->dup = true;
            m->slot[h] = i + 1;
        }
        e->valid = true;
        e->addr = addr;
        e->first = e->n = 0;
        e->flags = e->fetch = e->got = e->out = e->mark = 0;
        m->used++;
        return i;
    }
    TP_ASSERT(0);
    return 0;
}

void mem_mshr_release(mem_mshr *m, uint32_t i)
{
    TP_ASSERT(m->e[i].valid);
    m->e[i].valid = false;
    m->inuse[i / 64] &= ~(1ull << (i % 64));
    m->used--;
    if (m->dup) return;
    /* remove its slot, moving later slots of the run back so that every
    ** key stays reachable from its home without an empty slot between */
    uint32_t h = home(m, m->e[i].addr);
    while (m->slot[h] != i + 1) h = (h + 1) & m->hmask;
    for (uint32_t j = (h + 1) & m->hmask;; j = (j + 1) & m->hmask) {
        uint32_t s = m->slot[j];
        if (!s) break;
        uint32_t k = home(m, m->e[s - 1].addr);
        /* s may move to h if its home is not in (h, j] (cyclically) */
        if (h <= j ? (k > h && k <= j) : (k > h || k <= j)) continue;
        m->slot[h] = s;
        h = j;
    }
    m->slot[h] = 0;
}

void *mem_mshr_take_at(mem_mshr *m, uint32_t i, uint32_t k)
{
    mem_mshr_entry *e = &m->e[i];
    TP_ASSERT(e->first + k < e->n);
    size_t b = (size_t)i * m->merge, j = b + e->first + k;
    void *p = m->items[j];
    for (; j + 1 < b + e->n; j++) {
        m->items[j] = m->items[j + 1];
        m->words[j] = m->words[j + 1];
    }
    e->n--;
    return p;
}
