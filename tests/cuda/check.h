// check.h -- the error check and result tally shared by the programs of
// tests/cuda.  Each program is an ordinary CUDA program: it checks its own
// results on the CPU, prints one final line "NAME: PASS" or "NAME: FAIL ...",
// and exits 0 only on success.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

// CK(call): a runtime call that must succeed; otherwise the program reports
// the call, the error's name and string, and exits 1.
#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t ck_e_ = (call);                                           \
        if (ck_e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__,       \
                    #call, cudaGetErrorName(ck_e_), cudaGetErrorString(ck_e_)); \
            printf("%s: FAIL (%s returned %s)\n", ck_name, #call,             \
                   cudaGetErrorName(ck_e_));                                  \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

// CK_LAUNCH(): after a <<<...>>> launch, the launch must have been accepted.
#define CK_LAUNCH() CK(cudaGetLastError())

// C++17 inline variables: one tally for all the .cu files of a program.
inline const char *ck_name = "program";  // set by ck_start
inline int ck_failures;                   // failed EXPECTs

static inline void ck_start(const char *name) { ck_name = name; }

// ck_simulated(): true under tpsim (its device names begin "tpsim"), false on
// a real GPU.  For the few checks of what tpsim promises beyond CUDA (an
// order CUDA leaves open, an error it reports where a GPU deadlocks); each
// use says what a real GPU does instead.
static inline bool ck_simulated(void) {
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return false;
    return strncmp(p.name, "tpsim", 5) == 0;
}

// EXPECT(cond, fmt, ...): a result check; the first 10 failures are printed.
#define EXPECT(cond, ...)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            if (ck_failures < 10) {                                           \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,        \
                        __LINE__, #cond);                                     \
                fprintf(stderr, __VA_ARGS__);                                 \
                fputc('\n', stderr);                                          \
            }                                                                 \
            ck_failures++;                                                    \
        }                                                                     \
    } while (0)

// The final line and the exit status.
static inline int ck_finish(void) {
    fflush(stderr);
    if (ck_failures == 0) {
        printf("%s: PASS\n", ck_name);
        return 0;
    }
    printf("%s: FAIL (%d failed checks)\n", ck_name, ck_failures);
    return 1;
}
