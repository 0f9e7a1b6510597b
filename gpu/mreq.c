/* mreq.c -- the memory request pool (see mreq.h).  Requests are carved from
** chunks that live as long as the pool; a returned request goes on the free
** list, so a steady state allocates nothing. */
#include "mreq.h"
#include <stdlib.h>

enum { CHUNK = 256 };

void gpu_mreq_pool_init(gpu_mreq_pool *p) { memset(p, 0, sizeof *p); }

void gpu_mreq_pool_free(gpu_mreq_pool *p)
{
    for (uint32_t i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

static void refill(gpu_mreq_pool *p)
{
    gpu_mreq *c = tp_malloc(CHUNK * sizeof *c);
    p->chunks = tp_realloc(p->chunks, (p->nchunks + 1) * sizeof *p->chunks);
    p->chunks[p->nchunks++] = c;
    for (uint32_t i = 0; i < CHUNK; i++) {
        c[i].next = p->free;
        p->free = &c[i];
    }
    p->nfree += CHUNK;
}

gpu_mreq *gpu_mreq_get(gpu_mreq_pool *p)
{
    if (TP_UNLIKELY(!p->free)) refill(p);
    gpu_mreq *r = p->free;
    p->free = r->next;
    p->nfree--;
    memset(r, 0, sizeof *r);
    p->live++;
    return r;
}

void gpu_mreq_put(gpu_mreq_pool *p, gpu_mreq *r)
{
    r->next = p->free;
    p->free = r;
    p->nfree++;
    p->live--; /* may go below zero: a request can come back to another pool (parallel SMs) */
}

uint32_t gpu_mreq_pool_move(gpu_mreq_pool *from, gpu_mreq_pool *to, uint32_t n)
{
    uint32_t k = 0;
    for (; k < n && from->free; k++) {
        gpu_mreq *r = from->free;
        from->free = r->next;
        r->next = to->free;
        to->free = r;
    }
    from->nfree -= k;
    to->nfree += k;
    from->live += k;
    to->live -= k;
    return k;
}
