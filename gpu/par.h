/*
** par.h -- a small team of host threads for the parallel SM ticks of a
** performance-mode launch (sim.threads; gpu/gpu.c).  Module prefix: gpu_par_.
**
** gpu_par_run(p, fn, arg) runs fn(arg, t) for every t in [0, n): t = 0 on
** the calling thread, the others on the team's n - 1 workers, and returns
** when all have returned (a fork and a join).  Workers wait for the next run
** by spinning a little (a cycle's parts take microseconds) and then sleep on
** a condition variable, so a loaded host loses nothing to spinning threads.
** What fn writes before it returns is visible to the caller after the run,
** and what the caller wrote before the run is visible to fn.
*/
#ifndef GPU_PAR_H
#define GPU_PAR_H

#include "../base/tp.h"
#include <stdatomic.h>

typedef struct gpu_par gpu_par;
typedef void (*gpu_par_fn)(void *arg, uint32_t t);

/* A team of n threads (the caller and n - 1 workers); NULL when the workers
** cannot be started (the caller then runs alone). */
gpu_par *gpu_par_new(uint32_t n);
void gpu_par_free(gpu_par *p);
uint32_t gpu_par_threads(const gpu_par *p);
void gpu_par_run(gpu_par *p, gpu_par_fn fn, void *arg);

/* A turn through the threads of a run in a fixed order: thread t holds it
** once every thread before it has said it is done (gpu_turn_wait: spins,
** then yields), and says so itself with gpu_turn_done, without waiting.
** done[] holds a line per thread (done[8 t]) with the number of the run
** (gen) its thread last finished. */
typedef struct gpu_turn {
    _Atomic uint64_t *done;
    uint64_t gen;
    uint32_t t;
    bool held;
} gpu_turn;
void gpu_turn_wait(gpu_turn *tw);
void gpu_turn_done(gpu_turn *tw);

#endif
