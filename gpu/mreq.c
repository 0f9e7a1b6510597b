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
}

gpu_mreq *gpu_mreq_get(gpu_mreq_pool *p)
{
    if (TP_UNLIKELY(!p->free)) refill(p);
    gpu_mreq *r = p->free;
    p->free = r->next;
    memset(r, 0, sizeof *r);
    p->live++;
    return r;
}

void gpu_mreq_put(gpu_mreq_pool *p, gpu_mreq *r)
{
    TP_ASSERT(p->live > 0);
    r->next = p->free;
    p->free = r;
    p->live--;
}
