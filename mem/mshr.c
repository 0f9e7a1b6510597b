/* mshr.c -- miss status holding registers with a merge limit (see mshr.h). */
#include "mshr.h"
#include <stdlib.h>

void mem_mshr_init(mem_mshr *m, uint32_t entries, uint32_t merge)
{
    memset(m, 0, sizeof *m);
    m->entries = entries ? entries : 1;
    m->merge = merge ? merge : 1;
    m->e = tp_calloc(m->entries, sizeof *m->e);
    m->items = tp_calloc((size_t)m->entries * m->merge, sizeof *m->items);
    m->words = tp_calloc((size_t)m->entries * m->merge, sizeof *m->words);
}

void mem_mshr_free(mem_mshr *m)
{
    free(m->e);
    free(m->items);
    free(m->words);
    m->e = NULL;
    m->items = NULL;
    m->words = NULL;
}

int32_t mem_mshr_find(const mem_mshr *m, uint64_t addr)
{
    if (!m->used) return -1;
    for (uint32_t i = 0; i < m->entries; i++)
        if (m->e[i].valid && m->e[i].addr == addr) return (int32_t)i;
    return -1;
}

uint32_t mem_mshr_alloc(mem_mshr *m, uint64_t addr)
{
    TP_ASSERT(m->used < m->entries);
    for (uint32_t i = 0; i < m->entries; i++) {
        mem_mshr_entry *e = &m->e[i];
        if (e->valid) continue;
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
    m->used--;
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
