/* par.c -- the thread team of par.h: a generation counter starts a run,
** a counter of workers still running ends it; each side spins briefly and
** then sleeps on a condition variable (the sleeper counts say whether the
** other side must signal). */
#include "par.h"
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdlib.h>

/* Polls before sleeping: SPIN busy ones (some microseconds), then YIELD
** that give the processor away (a host with more threads than cores). */
enum { SPIN = 2000, YIELD = 8 };

typedef struct par_worker {
    struct gpu_par *p;
    uint32_t t;
    pthread_t th;
} par_worker;

struct gpu_par {
    uint32_t n;
    par_worker *w;             /* n - 1 */
    gpu_par_fn fn;
    void *arg;
    _Atomic uint64_t gen;      /* bumped to start a run (or to stop) */
    _Atomic uint32_t pending;  /* workers still running this run */
    _Atomic uint32_t sleepers; /* workers asleep on go */
    _Atomic uint32_t waiting;  /* the caller asleep on done */
    _Atomic bool stop;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
};

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *worker(void *a)
{
    par_worker *w = a;
    gpu_par *p = w->p;
    uint64_t seen = 0;
    for (;;) {
        uint64_t g = atomic_load_explicit(&p->gen, memory_order_acquire);
        for (int i = 0; g == seen && i < SPIN + YIELD; i++) {
            if (i < SPIN) relax();
            else sched_yield();
            g = atomic_load_explicit(&p->gen, memory_order_acquire);
        }
        if (g == seen) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while ((g = atomic_load(&p->gen)) == seen) pthread_cond_wait(&p->go, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
        }
        seen = g;
        if (atomic_load(&p->stop)) return NULL;
        p->fn(p->arg, w->t);
        if (atomic_fetch_sub(&p->pending, 1) == 1 && atomic_load(&p->waiting)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

gpu_par *gpu_par_new(uint32_t n)
{
    if (n < 2) return NULL;
    gpu_par *p = tp_calloc(1, sizeof *p);
    p->n = n;
    p->w = tp_calloc(n - 1, sizeof *p->w);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (uint32_t i = 0; i < n - 1; i++) {
        p->w[i].p = p;
        p->w[i].t = i + 1;
        if (pthread_create(&p->w[i].th, NULL, worker, &p->w[i]) != 0) {
            p->n = i + 1; /* the workers made so far are the team */
            break;
        }
    }
    if (p->n < 2) {
        gpu_par_free(p);
        return NULL;
    }
    return p;
}

void gpu_par_free(gpu_par *p)
{
    if (!p) return;
    atomic_store(&p->stop, true);
    atomic_fetch_add(&p->gen, 1);
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i + 1 < p->n; i++) pthread_join(p->w[i].th, NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->w);
    free(p);
}

uint32_t gpu_par_threads(const gpu_par *p) { return p ? p->n : 1; }

void gpu_par_run(gpu_par *p, gpu_par_fn fn, void *arg)
{
    p->fn = fn;
    p->arg = arg;
    atomic_store(&p->pending, p->n - 1);
    atomic_fetch_add(&p->gen, 1);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    fn(arg, 0);
    for (int i = 0; atomic_load_explicit(&p->pending, memory_order_acquire) && i < SPIN + YIELD; i++) {
        if (i < SPIN) relax();
        else sched_yield();
    }
    if (atomic_load(&p->pending)) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->waiting, 1);
        while (atomic_load(&p->pending)) pthread_cond_wait(&p->done, &p->mu);
        atomic_store(&p->waiting, 0);
        pthread_mutex_unlock(&p->mu);
    }
}

void gpu_turn_wait(gpu_turn *tw)
{
    for (uint32_t u = 0; u < tw->t; u++)
        for (uint32_t i = 0; atomic_load_explicit(&tw->done[u * 8], memory_order_acquire) != tw->gen; i++) {
            if (i < SPIN) relax();
            else sched_yield();
        }
    tw->held = true;
}

void gpu_turn_done(gpu_turn *tw)
{
    atomic_store_explicit(&tw->done[tw->t * 8], tw->gen, memory_order_release);
}
