/* banks.c -- interleaved memory banks with a busy time (see banks.h). */
#include "banks.h"
#include <stdlib.h>

void mem_banks_init(mem_banks *b, uint32_t nbanks, uint32_t busy, uint32_t word_bytes)
{
    TP_ASSERT(nbanks > 0 && busy > 0 && word_bytes > 0);
    b->nbanks = nbanks;
    b->busy = busy;
    b->word_bytes = word_bytes;
    b->bank = tp_calloc(nbanks, sizeof *b->bank);
    b->conflicts = 0;
}

void mem_banks_free(mem_banks *b)
{
    if (!b->bank) return;
    for (uint32_t i = 0; i < b->nbanks; i++) free(b->bank[i].t);
    free(b->bank);
    b->bank = NULL;
}

uint32_t mem_banks_index(const mem_banks *b, uint64_t addr)
{
    return (uint32_t)((addr / b->word_bytes) % b->nbanks);
}

uint64_t mem_banks_earliest(const mem_banks *b, uint64_t addr, uint64_t t)
{
    const mem_bank *k = &b->bank[mem_banks_index(b, addr)];
    /* The reservations are disjoint intervals [s, s + busy) in increasing
    ** order: walk them, pushing the candidate past each one it overlaps. */
    for (uint32_t i = 0; i < k->n; i++) {
        uint64_t s = k->t[i];
        if (s + b->busy <= t) continue;   /* ends before the candidate */
        if (s >= t + b->busy) break;      /* the candidate fits before it */
        t = s + b->busy;
    }
    return t;
}

void mem_banks_reserve(mem_banks *b, uint64_t addr, uint64_t t)
{
    mem_bank *k = &b->bank[mem_banks_index(b, addr)];
    if (k->n == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 8;
        k->t = tp_realloc(k->t, k->cap * sizeof *k->t);
    }
    uint32_t i = k->n;
    while (i > 0 && k->t[i - 1] > t) i--;
    memmove(k->t + i + 1, k->t + i, (k->n - i) * sizeof *k->t);
    k->t[i] = t;
    k->n++;
}

uint64_t mem_banks_access(mem_banks *b, uint64_t addr, uint64_t t)
{
    uint64_t s = mem_banks_earliest(b, addr, t);
    if (s != t) b->conflicts++;
    mem_banks_reserve(b, addr, s);
    return s;
}

void mem_banks_retire(mem_banks *b, uint64_t before)
{
    for (uint32_t j = 0; j < b->nbanks; j++) {
        mem_bank *k = &b->bank[j];
        uint32_t i = 0;
        while (i < k->n && k->t[i] + b->busy <= before) i++;
        if (i) {
            memmove(k->t, k->t + i, (k->n - i) * sizeof *k->t);
            k->n -= i;
        }
    }
}
