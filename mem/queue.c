/* queue.c -- a bounded FIFO of pointers with ready times (see queue.h). */
#include "queue.h"
#include <stdlib.h>

void mem_queue_init(mem_queue *q, uint32_t cap)
{
    memset(q, 0, sizeof *q);
    q->cap = cap ? cap : 1;
    q->e = tp_calloc(q->cap, sizeof *q->e);
}

void mem_queue_free(mem_queue *q)
{
    free(q->e);
    q->e = NULL;
    q->cap = q->n = q->head = 0;
}

void mem_queue_grow(mem_queue *q)
{
    uint32_t cap = q->cap * 2;
    mem_qent *e = tp_calloc(cap, sizeof *e);
    for (uint32_t i = 0; i < q->n; i++) e[i] = *mem_queue_at(q, i);
    free(q->e);
    q->e = e;
    q->cap = cap;
    q->head = 0;
}
