/*
** queue.h -- a bounded FIFO of pointers, each entry with the time from which
** its consumer may see it.  Prefix mem_.
**
** Units of a timing model talk to each other only through these queues.
** The producer pushes an entry with a `ready` time; the consumer sees the
** head once its own clock has reached that time (mem_queue_peek(q, now)
** returns the head when head.ready <= now).  Entries leave in FIFO order
** only: a head that is not ready yet hides the entries behind it, so a
** latency pipe is a queue whose producer adds the latency to `ready`.
** Times are whatever single time base producer and consumer share (the
** memory system uses one base for all its clock domains; a unit test with
** one clock uses cycles).
**
** Rules that make a model independent of the order in which units tick:
** an entry pushed at time t is given ready > t (at least t + 1), so no
** consumer sees it in the same instant it was pushed, whichever of the two
** ran first.
**
** Capacity is fixed at init.  A producer that finds the queue full keeps its
** item, retries later, and says so with mem_queue_stall(q, now): the queue
** counts the distinct times at which some producer found it full
** (full_cycles), next to the number of entries ever pushed (pushes).
** mem_queue_grow is for queues that are bounded by construction elsewhere
** (a unit's own completion list): it doubles the ring instead of refusing;
** it allocates only when a new high-water mark is reached, never in steady
** state.
*/
#ifndef MEM_QUEUE_H
#define MEM_QUEUE_H

#include "../base/tp.h"

typedef struct mem_qent {
    void *p;
    uint64_t ready;      /* the consumer may take it from this time on */
} mem_qent;

typedef struct mem_queue {
    mem_qent *e;
    uint32_t cap, head, n;
    uint64_t pushes;       /* entries pushed, ever */
    uint64_t full_cycles;  /* distinct times a producer found it full */
    uint64_t full_at;      /* the last of those times, plus one (0: never) */
} mem_queue;

void mem_queue_init(mem_queue *q, uint32_t cap);
void mem_queue_free(mem_queue *q);
/* Doubles the capacity (keeps the entries and their order). */
void mem_queue_grow(mem_queue *q);

static inline uint32_t mem_queue_count(const mem_queue *q) { return q->n; }
static inline bool mem_queue_empty(const mem_queue *q) { return q->n == 0; }
static inline bool mem_queue_full(const mem_queue *q) { return q->n >= q->cap; }
static inline uint32_t mem_queue_space(const mem_queue *q) { return q->cap - q->n; }

/* Appends p, visible to the consumer from `ready` on.  The queue must not be full. */
static inline void mem_queue_push(mem_queue *q, void *p, uint64_t ready)
{
    TP_ASSERT(q->n < q->cap);
    uint32_t i = q->head + q->n;
    if (i >= q->cap) i -= q->cap;
    q->e[i].p = p;
    q->e[i].ready = ready;
    q->n++;
    q->pushes++;
}

/* mem_queue_push, growing the ring first when it is full. */
static inline void mem_queue_push_grow(mem_queue *q, void *p, uint64_t ready)
{
    if (TP_UNLIKELY(q->n >= q->cap)) mem_queue_grow(q);
    mem_queue_push(q, p, ready);
}

/* The head whatever its time, or NULL. */
static inline void *mem_queue_head(const mem_queue *q) { return q->n ? q->e[q->head].p : NULL; }
/* The head's ready time (UINT64_MAX when empty). */
static inline uint64_t mem_queue_head_ready(const mem_queue *q) { return q->n ? q->e[q->head].ready : UINT64_MAX; }
/* The head if its consumer may take it at time now, else NULL. */
static inline void *mem_queue_peek(const mem_queue *q, uint64_t now)
{
    return q->n && q->e[q->head].ready <= now ? q->e[q->head].p : NULL;
}
/* The i-th entry from the head (i < count). */
static inline const mem_qent *mem_queue_at(const mem_queue *q, uint32_t i)
{
    TP_ASSERT(i < q->n);
    uint32_t k = q->head + i;
    if (k >= q->cap) k -= q->cap;
    return &q->e[k];
}

/* Removes and returns the head (the queue must not be empty). */
static inline void *mem_queue_pop(mem_queue *q)
{
    TP_ASSERT(q->n > 0);
    void *p = q->e[q->head].p;
    if (++q->head == q->cap) q->head = 0;
    q->n--;
    return p;
}

/* A producer found the queue full at time now: counted once per distinct time. */
static inline void mem_queue_stall(mem_queue *q, uint64_t now)
{
    if (q->full_at != now + 1) {
        q->full_at = now + 1;
        q->full_cycles++;
    }
}

#endif
