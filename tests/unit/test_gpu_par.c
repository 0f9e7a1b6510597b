/*
** test_gpu_par.c -- the thread team of gpu/par.h that parallel SMs run on
** (docs/TIMING.md, "Parallel SMs"): a run calls the function once for every
** thread, the caller's included, and returns when all have returned; what
** one side wrote before a run or before its thread returned is seen by the
** other; and the turn lets thread t go only once threads 0 .. t - 1 have
** said they are done, in every run.
*/
#include "tests/unit/tt.h"
#include "gpu/par.h"

enum { NT = 4, RUNS = 2000 };

typedef struct team_log {
    uint32_t calls[NT];        /* per thread: runs it took part in */
    uint64_t seen[NT];         /* per thread: the value `in` had when it ran */
    uint64_t in;               /* written by the caller before each run */
    _Atomic uint64_t *done;    /* the turn's flags: a line per thread */
    uint64_t gen;
    uint32_t order[RUNS][NT];  /* per run: the threads in the order they held the turn */
    _Atomic uint32_t pos[RUNS];
} team_log;

static void count_fn(void *arg, uint32_t t)
{
    team_log *l = arg;
    l->calls[t]++;
    l->seen[t] = l->in;
}

static void t_runs(void)
{
    TT_CHECK(gpu_par_new(1) == NULL); /* a team of one is the caller alone */
    TT_EQ_U(gpu_par_threads(NULL), 1);
    gpu_par *p = gpu_par_new(NT);
    TT_CHECK(p != NULL);
    if (!p) return;
    TT_EQ_U(gpu_par_threads(p), NT);
    team_log *l = tp_calloc(1, sizeof *l);
    bool all_seen = true;
    for (uint32_t r = 0; r < RUNS; r++) {
        l->in = 1000 + r;
        gpu_par_run(p, count_fn, l);
        for (uint32_t t = 0; t < NT; t++) all_seen = all_seen && l->seen[t] == 1000 + r;
    }
    TT_CHECK(all_seen);
    for (uint32_t t = 0; t < NT; t++) TT_EQ_U(l->calls[t], RUNS);
    free(l);
    gpu_par_free(p);
}

static void turn_fn(void *arg, uint32_t t)
{
    team_log *l = arg;
    gpu_turn tw = {l->done, l->gen, t, t == 0};
    if (!tw.held) gpu_turn_wait(&tw);
    uint32_t r = (uint32_t)(l->gen - 1);
    uint32_t k = atomic_fetch_add(&l->pos[r], 1);
    l->order[r][k] = t;
    gpu_turn_done(&tw);
}

static void t_turn_order(void)
{
    gpu_par *p = gpu_par_new(NT);
    TT_CHECK(p != NULL);
    if (!p) return;
    team_log *l = tp_calloc(1, sizeof *l);
    l->done = tp_calloc_lines(NT * 8, sizeof *l->done);
    for (uint32_t r = 0; r < RUNS; r++) {
        l->gen = r + 1;
        gpu_par_run(p, turn_fn, l);
    }
    uint32_t wrong = 0;
    for (uint32_t r = 0; r < RUNS; r++)
        for (uint32_t k = 0; k < NT; k++) wrong += l->order[r][k] != k;
    TT_EQ_U(wrong, 0);
    free((void *)l->done);
    free(l);
    gpu_par_free(p);
}

int main(void)
{
    TT_RUN(t_runs);
    TT_RUN(t_turn_order);
    return tt_done();
}
